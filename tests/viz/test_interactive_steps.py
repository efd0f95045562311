"""The interactive page steps through the search beside its pseudocode, in real Chromium: the
frames it shows are the drawing model's (a tree it does not search) or, on an editable tree, its
own search's marked by the same rules, equal to the Python frames of the edited tree; an MCTS
tree shows each step's path; no two labels overlap."""

from __future__ import annotations

import html
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.viz.test_frames_html import chromium_dom
from tests.viz.test_interactive import CHROMIUM, leaf_paths, random_tree, with_leaf
from viz import game_tree
from viz.build import GameTree
from viz.interactive import node_keys, write_interactive
from viz.mcts_tree import mcts_tree
from viz.pseudocode import step_lines
from viz.stepper import current_nodes, frame_changes

pytestmark = [
    pytest.mark.chromium,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed"),
]


def dumps(dom: str, name: str) -> list[Any]:
    """The page's ``name`` dumps (``frames`` or ``boxes``) from its autotest report."""
    found = re.search(r'<pre id="autotest">(.*?)</pre>', dom, flags=re.S)
    assert found is not None, dom[-2000:]
    text = html.unescape(found.group(1))
    return [
        json.loads(line[len(name) + 1 :])
        for line in text.splitlines()
        if line.startswith(name + " ")
    ]


def report_line(dom: str, prefix: str) -> str:
    found = re.search(r'<pre id="autotest">(.*?)</pre>', dom, flags=re.S)
    assert found is not None
    return next(
        line for line in html.unescape(found.group(1)).splitlines() if line.startswith(prefix)
    )


def python_frames(tree: GameTree) -> dict[str, Any]:
    """Every frame of the tree as the drawing model says, by the page's node keys (its
    moves, :func:`viz.interactive.node_keys`)."""
    key = node_keys(tree.graph)
    last = len(tree.steps)
    nodes = {}
    for node, changes in frame_changes(tree).items():
        looks = []
        for k in range(last + 1):
            look = next(c for c in reversed(changes) if c[0] <= k)
            looks.append(list(look[1:]))
        nodes[key[node]] = looks
    lines = [*step_lines(tree)[:last], None]
    current = [None if c is None else key[c] for c in current_nodes(tree)]
    return {"nodes": nodes, "lines": lines, "current": current}


def page_frames(page: Path, actions: str, profile: Path) -> dict[str, Any]:
    dom = chromium_dom(page.as_uri() + f"?autotest={actions},frames", profile)
    (found,) = dumps(dom, "frames")
    return dict(found)


def same_frames(page: dict[str, Any], python: dict[str, Any]) -> None:
    """The page shows what the model shows at every frame, for every node the search drew
    (a position the page knows but the Python figure does not draw is never shown before the
    end)."""
    assert page["lines"] == python["lines"] and page["current"] == python["current"]
    for key, looks in python["nodes"].items():
        for k, (seen, want) in enumerate(zip(page["nodes"][key], looks, strict=True)):
            assert seen == want, (key, k, seen, want)


DEEP_CUTS = [[[[3, 17], [2, 12]], [[15], [25, 0]]], [[[2, 5], [3]], [[2, 14]]]]
"""A depth-4 tree (docs/make_export_figures.py's DEEP4): windows reach the leaves from above."""


class TestEditableSteps:
    def test_unedited_page_steps_as_the_model(self, tmp_path: Path) -> None:
        """On the textbook tree the page's own frames equal the drawing model's, frame by
        frame: visibility, value, running range, window, pseudocode line, current node."""
        game = load_game("textbook")
        tree = game_tree(game, algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "ab.html", game=game)
        same_frames(page_frames(page, "report", tmp_path / "p"), python_frames(tree))

    def test_windows_passed_down_from_an_ancestor(self, tmp_path: Path) -> None:
        """A depth-4 tree where nodes two and three levels down inherit α and β from above
        (deep cut-offs): the page's frames still equal the model's, frame by frame."""
        game = load_game("textbook", tree=DEEP_CUTS)
        tree = game_tree(game, algorithm="alphabeta")
        assert any(
            d["alpha_in"] not in (None, float("-inf")) and d["depth"] >= 2
            for _, d in tree.graph.nodes(data=True)
            if d.get("alpha_in") is not None
        )
        page = write_interactive(tree, tmp_path / "deep.html", game=game)
        same_frames(page_frames(page, "report", tmp_path / "p"), python_frames(tree))

    def test_edited_page_steps_as_the_edited_tree(self, tmp_path: Path) -> None:
        """After a leaf is edited (and after the search is switched), the steps are those of
        the Python search of the edited tree, on seeded random trees."""
        rng = random.Random(7)
        for round_ in range(3):
            shape = random_tree(rng, 3)
            paths = leaf_paths(shape)
            if not paths[0]:
                continue
            where = rng.choice(paths)
            value = rng.randint(-4, 4)
            algorithm = ("alphabeta", "minimax")[round_ % 2]
            game = load_game("textbook", tree=shape)
            page = write_interactive(
                game_tree(game, algorithm="alphabeta"), tmp_path / f"r{round_}.html", game=game
            )
            edited = load_game("textbook", tree=with_leaf(shape, where, value))
            expected = python_frames(game_tree(edited, algorithm=algorithm))
            edit = f"edit:{'.'.join(map(str, where))}={value},algorithm:{algorithm}"
            same_frames(page_frames(page, edit, tmp_path / f"q{round_}"), expected)

    def test_pseudocode_line_and_caption_follow_the_step(self, tmp_path: Path) -> None:
        """Step 6 of the textbook tree is C's cut: its line is lit, its caption shown."""
        game = load_game("textbook")
        tree = game_tree(game, algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "ab.html", game=game)
        dom = chromium_dom(page.as_uri() + "?autotest=step:6,report", tmp_path / "p")
        assert report_line(dom, "step ") == "step 6 / 12 line min-cut current 1 path "
        assert report_line(dom, "caption ") == "caption step 6: " + tree.steps[5].text


class TestMctsPage:
    def test_steps_show_the_path_and_the_counts(self, tmp_path: Path) -> None:
        """An MCTS page steps through the search: each frame's counts are the model's, the
        selection's moves are drawn as a path, the phase's line is lit."""
        tree = mcts_tree(load_game("textbook"), iterations=12, seed=1)
        page = write_interactive(tree, tmp_path / "m.html")
        same_frames(page_frames(page, "report", tmp_path / "p"), python_frames(tree))
        select = next(
            k for k, s in enumerate(tree.steps, 1) if s.kind == "select" and len(s.path) > 2
        )
        dom = chromium_dom(page.as_uri() + f"?autotest=step:{select},report", tmp_path / "q")
        line = report_line(dom, "step ")
        children = [tree.graph.nodes[n]["path"] for n in tree.steps[select - 1].path[1:]]
        paths = ",".join(".".join(str(int(m)) for m in p) for p in children)
        assert line.endswith(f"line select current {paths.split(',')[-1]} path {paths}"), line


Box = tuple[str, str, float, float, float, float]


def overlapping(boxes: list[Box]) -> list[tuple[Box, Box]]:
    """The pairs of text boxes of different owners that overlap (by more than a pixel)."""
    return [
        (p, q)
        for p, q in itertools.combinations(boxes, 2)
        if p[0] != q[0]
        and min(p[3], q[3]) - max(p[2], q[2]) > 1
        and min(p[5], q[5]) - max(p[4], q[4]) > 1
    ]


class TestLabelsNeverCollide:
    def test_random_trees_windows_and_ranges(self, tmp_path: Path) -> None:
        """On seeded random alpha-beta trees, with windows and ranges, at the end and at a
        middle step, no two nodes' or moves' texts overlap in the browser's own layout."""
        rng = random.Random(3)
        for round_ in range(3):
            game = load_game("textbook", tree=random_tree(rng, 3))
            tree = game_tree(game, algorithm="alphabeta")
            page = write_interactive(tree, tmp_path / f"t{round_}.html", game=game)
            middle = len(tree.steps) // 2
            dom = chromium_dom(
                page.as_uri() + f"?autotest=boxes,step:{middle},boxes", tmp_path / f"p{round_}"
            )
            for boxes in dumps(dom, "boxes"):
                assert boxes and not overlapping([tuple(b) for b in boxes])

    def test_mcts_counts(self, tmp_path: Path) -> None:
        """The W/N, UCB and exact-value notes beside MCTS nodes never overlap another's."""
        tree = mcts_tree(
            load_game("tictactoe"),
            load_game("tictactoe").parse_state("xo./.x./o.."),
            iterations=25,
            seed=2,
        )
        page = write_interactive(tree, tmp_path / "m.html")
        dom = chromium_dom(page.as_uri() + "?autotest=expand,boxes", tmp_path / "p")
        (boxes,) = dumps(dom, "boxes")
        assert boxes and not overlapping([tuple(b) for b in boxes])

    def test_boards_inside_the_nodes(self, tmp_path: Path) -> None:
        """With boards, each position's board is drawn under its node (the game's own render,
        line for line), and no board, value or move overlaps another node's or edge's."""
        game = load_game("tictactoe")
        for round_, position in enumerate(("xo./.x./o..", "x.o/.o./x..")):
            state = game.parse_state(position)
            tree = game_tree(game, state, depth=2)
            page = write_interactive(
                tree, tmp_path / f"b{round_}.html", game=game, state=state, boards=True
            )
            dom = chromium_dom(page.as_uri() + "?autotest=expand,boxes", tmp_path / f"q{round_}")
            (boxes,) = dumps(dom, "boxes")
            assert boxes and not overlapping([tuple(b) for b in boxes])
            drawn = {b[1].replace("\u00a0", " ") for b in boxes}
            rendered = {"".join(d["board"].splitlines()) for _, d in tree.graph.nodes(data=True)}
            assert rendered <= drawn  # one text per board, a line per row
