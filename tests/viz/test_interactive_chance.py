"""The interactive page on trees with chance nodes: it draws expectiminimax, Star1 and Star2 as
the drawing model does, and after a leaf is edited (or the search switched) its own searches in
the browser give exactly the Python searches' frames, captions and summary on the edited tree."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.viz.test_frames_html import chromium_dom
from tests.viz.test_interactive import CHROMIUM
from tests.viz.test_interactive_steps import dumps, overlapping
from tests.viz.test_interactive_steps import python_frames as model_frames
from viz import game_tree
from viz.build import GameTree
from viz.dot import summary_line
from viz.html import captions
from viz.interactive import interactive_page, node_keys, write_interactive
from viz.stepper import frame_changes

COINS = "[{1/2: [3, 5], 1/2: [1, 9]}, {1/2: [0, 2], 1/2: [1, 1]}]"
"""The tree of docs/teaching.md's chance section."""
PROBES = "[8, {1/2: [9, 9], 1/2: [9, 0]}, {1/3: [3, 9], 2/3: [0, 9]}]"
"""Star2 probes both outcomes of B and searches them again in full (two nodes at the same
moves), and cuts C on its first probe."""

CUT_AMONG_PROBES = ("[1, {1: 1}]", "[4, {1/3: 5, 1/3: [2], 1/3: 5}, 0]")
"""Star2 cuts B while probing: before its only outcome, a leaf, is searched; after probing
[2] but not the leaves either side."""


def page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', html)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1).replace("<\\/", "</"))
    return data


def python_frames(tree: GameTree) -> dict[str, Any]:
    """Every frame as the drawing model shows it, by the page's node keys; the captions and
    the summary line."""
    return {**model_frames(tree), "captions": captions(tree), "summary": summary_line(tree)}


def same(page: dict[str, Any], python: dict[str, Any]) -> None:
    """The page shows what the model shows at every frame, node by node, with the same
    pseudocode lines, highlighted nodes, captions and summary; it draws no node the model
    does not."""
    for name in ("lines", "current", "captions", "summary"):
        assert page[name] == python[name], name
    assert set(page["nodes"]) == set(python["nodes"])
    for key, looks in python["nodes"].items():
        for k, (seen, want) in enumerate(zip(page["nodes"][key], looks, strict=True)):
            assert seen == want, (key, k, seen, want)


def random_chance_tree(rng: random.Random, depth: int) -> Any:
    """A textbook tree with chance nodes: fractions, now and then decimal odds and a decimal
    leaf, few distinct values (ties, values on a window's edge)."""
    if depth == 0 or (depth < 3 and rng.random() < 0.2):
        return rng.choice([0, 1, 2, 3, 4, 5, 2.5]) if rng.random() < 0.1 else rng.randint(0, 5)
    kids = [random_chance_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.45:
        odds = rng.choice(
            [
                [Fraction(1)],
                [Fraction(1, 2)] * 2,
                [Fraction(1, 3), Fraction(2, 3)],
                [0.25, 0.75],
                [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)],
            ]
        )
        while len(kids) < len(odds):
            kids.append(random_chance_tree(rng, depth - 1))
        return ("chance", list(zip(odds, kids[: len(odds)], strict=True)))
    return kids


def text(tree: Any) -> str:
    """The tree in the textbook notation."""
    if isinstance(tree, tuple):
        return "{" + ", ".join(f"{p}: {text(t)}" for p, t in tree[1]) + "}"
    if isinstance(tree, list):
        return "[" + ", ".join(text(t) for t in tree) + "]"
    return repr(tree)


def leaves(tree: Any, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    kids = tree[1] if isinstance(tree, tuple) else tree
    if isinstance(tree, tuple):
        kids = [t for _, t in kids]
    if not isinstance(tree, (list, tuple)):
        return [path]
    return [p for i, sub in enumerate(kids) for p in leaves(sub, (*path, i))]


def with_leaf(tree: Any, path: tuple[int, ...], value: Any) -> Any:
    if not path:
        return value
    if isinstance(tree, tuple):
        pairs = [
            (p, with_leaf(t, path[1:], value) if i == path[0] else t)
            for i, (p, t) in enumerate(tree[1])
        ]
        return ("chance", pairs)
    return [with_leaf(t, path[1:], value) if i == path[0] else t for i, t in enumerate(tree)]


def has_chance(tree: Any) -> bool:
    if isinstance(tree, tuple):
        return True
    return isinstance(tree, list) and any(has_chance(t) for t in tree)


class TestChancePage:
    def test_a_chance_tree_is_drawn_and_editable(self) -> None:
        """A textbook tree with chance nodes makes an editable page whose menu offers the three
        chance searches, with each outcome's probability and the bounds *-minimax uses."""
        game = load_game("textbook", tree=COINS)
        html = interactive_page(game_tree(game, algorithm="star1"), game=game)
        data = page_data(html)
        assert data["editable"] and data["algorithm"] == "star1"
        assert re.findall(r'<option value="(\w+)"', html) == ["expectiminimax", "star1", "star2"]
        chance = data["tree"]["children"][0]
        assert chance["chance"] and [c["probability"] for c in chance["children"]] == [[1, 2]] * 2
        assert [c["probabilityText"] for c in chance["children"]] == ["1/2", "1/2"]
        assert data["bounds"] == [0, 9] and data["boundsFromLeaves"]
        assert '<input id="labels"' in html and "Green circles: chance nodes" in html

    def test_numbers_keep_their_python_type(self) -> None:
        """Ints stay ints, fractions are [n, d] and floats are tagged, so the page computes
        with them as Python does (1/2 · 3 is 3/2, 1/2 · 3.0 is 1.5)."""
        game = load_game("textbook", tree="[{0.25: 3.0, 0.75: 1}]")
        data = page_data(interactive_page(game_tree(game, algorithm="expectiminimax"), game=game))
        outcomes = data["tree"]["children"][0]["children"]
        assert [c["leafValue"] for c in outcomes] == [{"f": 3.0}, 1]
        assert [c["probability"] for c in outcomes] == [{"f": 0.25}, {"f": 0.75}]

    def test_probe_and_full_search_have_their_own_keys(self) -> None:
        """Star2's probe of an outcome and the full search of it are two nodes at the same
        moves: the page names them apart, so each has its own frames."""
        tree = game_tree(load_game("textbook", tree=PROBES), algorithm="star2")
        keys = node_keys(tree.graph)
        assert len(set(keys.values())) == tree.graph.number_of_nodes()
        probes = {keys[n] for n, d in tree.graph.nodes(data=True) if d["probe"]}
        assert probes == {'["1", ["probe", "0"]]', '["1", ["probe", "1"]]', '["2", ["probe", "0"]]'}
        assert '["1", ["probe", "0"], "0"]' in keys.values() and '["1", "0", "0"]' in keys.values()

    def test_a_game_with_chance_is_drawn_as_searched(self) -> None:
        """Hog searched to a depth is drawn as the search left it (not editable: the page
        re-searches whole trees only), chance nodes and probabilities included."""
        game = load_game("hog", goal=4, dice=1)
        tree = game_tree(game, algorithm="star2", depth=3)
        data = page_data(interactive_page(tree, game=game))
        assert not data["editable"]
        stack, odds = [data["tree"]], set()
        while stack:
            node = stack.pop()
            stack.extend(node["children"])
            odds.add(node["probabilityText"])
        assert data["tree"]["children"][0]["chance"] and "1/6" in odds


@pytest.mark.chromium
@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
class TestChancePageInChromium:
    def test_unedited_pages_step_as_the_model(self, tmp_path: Path) -> None:
        """Each chance search's page, switched to in turn, steps as the drawing model does:
        expectiminimax and Star1 on the chapter's coins, Star2 with its probes."""
        game = load_game("textbook", tree=PROBES)
        page = write_interactive(game_tree(game, algorithm="star2"), tmp_path / "p.html", game=game)
        actions = "frames,algorithm:star1,frames,algorithm:expectiminimax,frames"
        found = dumps(
            chromium_dom(page.as_uri() + f"?autotest={actions}", tmp_path / "a"), "frames"
        )
        for seen, algorithm in zip(found, ("star2", "star1", "expectiminimax"), strict=True):
            same(seen, python_frames(game_tree(game, algorithm=algorithm)))

    @pytest.mark.parametrize("tree_text", CUT_AMONG_PROBES)
    def test_a_cut_among_the_probes_prunes_as_python_does(
        self, tree_text: str, tmp_path: Path
    ) -> None:
        """Star2 cutting a chance node while it probes: the page's own search prunes every
        outcome it never entered (a leaf before the probe too), as the Python search does."""
        game = load_game("textbook", tree=tree_text)
        page = write_interactive(game_tree(game, algorithm="star1"), tmp_path / "c.html", game=game)
        url = page.as_uri() + "?autotest=algorithm:star2,frames"
        (found,) = dumps(chromium_dom(url, tmp_path / "a"), "frames")
        same(found, python_frames(game_tree(game, algorithm="star2")))

    def test_a_finished_page_draws_the_model_ranges(self, tmp_path: Path) -> None:
        """Not stepping, the page draws each node's final range as the model's last frame does:
        a cut chance node's [Σ p × lo, its bound], not [−∞, bound]."""
        found = {}
        for tree_text, algorithm in ((COINS, "star1"), (PROBES, "star2")):
            game = load_game("textbook", tree=tree_text)
            tree = game_tree(game, algorithm=algorithm)
            page = write_interactive(tree, tmp_path / f"{algorithm}.html", game=game)
            dom = chromium_dom(page.as_uri(), tmp_path / algorithm)
            found[algorithm] = sorted(re.findall(r'class="range">([^<]*)<', dom))
            model = sorted(c[-1][3] for c in frame_changes(tree).values() if c[-1][3])
            assert found[algorithm] == model, algorithm
        assert "[0, 1/2]" in found["star1"]  # the coins' C: cut at ≤1/2, worth at least 0

    def test_a_game_page_steps_as_the_model(self, tmp_path: Path) -> None:
        """Hog at depth 3 (a page the browser does not search) shows the Python frames."""
        game = load_game("hog", goal=4, dice=1)
        tree = game_tree(game, algorithm="star1", depth=3)
        page = write_interactive(tree, tmp_path / "h.html", game=game)
        (found,) = dumps(chromium_dom(page.as_uri() + "?autotest=frames", tmp_path / "a"), "frames")
        expected = python_frames(tree)
        assert found["lines"] == expected["lines"] and found["current"] == expected["current"]
        for key, looks in expected["nodes"].items():
            assert found["nodes"][key] == looks, key

    def test_edits_and_switches_recompute_as_python_does(self, tmp_path: Path) -> None:
        """On seeded random chance trees, after each leaf edit and each switch of search, the
        page's frames, captions and summary are the Python search's on the edited tree."""
        rng = random.Random(11)
        searches = ("expectiminimax", "star1", "star2")
        for round_ in range(3):
            shape = random_chance_tree(rng, 4)
            while not has_chance(shape):
                shape = random_chance_tree(rng, 4)
            game = load_game("textbook", tree=text(shape))
            first = searches[round_ % 3]
            page = write_interactive(
                game_tree(game, algorithm=first), tmp_path / f"r{round_}.html", game=game
            )
            actions, expected = [], []
            for i in range(3):
                where = rng.choice(leaves(shape))
                value = rng.randint(-1, 6)
                shape = with_leaf(shape, where, value)
                algorithm = searches[(round_ + i + 1) % 3]
                actions += [f"edit:{'.'.join(map(str, where)) or 'root'}={value}"]
                actions += [f"algorithm:{algorithm}", "frames"]
                edited = load_game("textbook", tree=text(shape))
                expected.append(python_frames(game_tree(edited, algorithm=algorithm)))
            url = page.as_uri() + "?autotest=" + ",".join(actions)
            found = dumps(chromium_dom(url, tmp_path / f"q{round_}"), "frames")
            assert len(found) == len(expected)
            for seen, want in zip(found, expected, strict=True):
                same(seen, want)

    def test_labels_never_collide(self, tmp_path: Path) -> None:
        """With windows and ranges on, no two nodes' or moves' texts overlap on seeded random
        chance trees (values such as ≤11/2 widen their nodes; odds stand beside the moves),
        at the end and at a middle step."""
        rng = random.Random(5)
        for round_, algorithm in enumerate(("star1", "star2")):
            shape = random_chance_tree(rng, 3)
            while not has_chance(shape):
                shape = random_chance_tree(rng, 3)
            game = load_game("textbook", tree=text(shape))
            tree = game_tree(game, algorithm=algorithm)
            page = write_interactive(tree, tmp_path / f"t{round_}.html", game=game)
            middle = len(tree.steps) // 2
            url = page.as_uri() + f"?autotest=boxes,step:{middle},boxes"
            for boxes in dumps(chromium_dom(url, tmp_path / f"p{round_}"), "boxes"):
                assert boxes and not overlapping([tuple(b) for b in boxes]), text(shape)
