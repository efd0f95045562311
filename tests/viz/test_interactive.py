"""The interactive page: self-contained, and in real Chromium it folds subtrees and, on a textbook
tree, re-searches after a leaf is edited exactly as the Python searches do on the edited tree."""

from __future__ import annotations

import html
import json
import math
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.viz.test_frames_html import chromium_dom
from viz import game_tree
from viz.dot import summary_line
from viz.errors import VizError
from viz.interactive import EDIT_LIMIT, interactive_page, write_interactive

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DEEP = [[5], [[[3, 1], [4, 2]], 1]]  # D fails low: an upper bound ≤4
TIES = [[1, [[1]]], [0, [[0]]]]  # MIN loses either way (the slowest) and draws (the slowest)


def random_tree(rng: random.Random, depth: int) -> Any:
    if depth == 0 or (depth < 3 and rng.random() < 0.25):
        return rng.randint(-3, 3)  # few values: ties and values on the window's edges
    return [random_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def leaf_paths(tree: Any, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    if not isinstance(tree, list):
        return [path]
    return [p for i, sub in enumerate(tree) for p in leaf_paths(sub, (*path, i))]


def with_leaf(tree: Any, path: tuple[int, ...], value: int) -> Any:
    if not path:
        return value
    return [with_leaf(sub, path[1:], value) if i == path[0] else sub for i, sub in enumerate(tree)]


def fail_soft_bound(data: dict[str, Any]) -> str:
    """The fail-soft rule from the window on entry: v ≤ α an upper bound, v ≥ β a lower one
    (against an infinite edge of the window the value is exact); leaves are exact."""
    if data["leaf"]:
        return "exact"
    value, alpha, beta = (float(data[k]) for k in ("value", "alpha_in", "beta_in"))
    if value <= alpha and alpha != -math.inf:
        return "upper"
    return "lower" if value >= beta and beta != math.inf else "exact"


def python_view(tree: Any, algorithm: str) -> tuple[dict[str, tuple[str, ...]], str]:
    """What the Python search draws for each position of a textbook tree (by path), and its
    summary line."""
    drawn = game_tree(load_game("textbook", tree=tree), algorithm=algorithm)
    out: dict[str, tuple[str, ...]] = {}
    for _, data in drawn.graph.nodes(data=True):
        if data["kind"] == "node":
            bound = fail_soft_bound(data)
            assert data["bound"] == bound, data  # the tree's own record agrees with the rule
            principal = "principal" if data["principal"] else "-"
            out[data["state"]] = ("node", str(float(data["value"])), bound, principal)
        elif data["kind"] == "pruned":
            out[data["state"]] = ("pruned",)
    return out, summary_line(drawn)


def parse_reports(dom: str) -> list[tuple[dict[str, tuple[str, ...]], str]]:
    """The page's reports: each drawn node's (kind, value, bound, principal), and the summary."""
    found = re.search(r'<pre id="autotest">(.*?)</pre>', dom, flags=re.S)
    assert found is not None, dom[-2000:]
    reports = []
    for block in html.unescape(found.group(1)).split("\n---\n"):
        nodes: dict[str, tuple[str, ...]] = {}
        summary = ""
        for line in block.splitlines():
            if line.startswith("summary "):
                summary = line.removeprefix("summary ")
                continue
            path, kind, value, bound, principal = (line.split(" ") + [""] * 5)[:5]
            if kind == "node":
                nodes[path] = ("node", str(float(value)), bound, principal)
            else:
                nodes[path] = (kind,)
        reports.append((nodes, summary))
    return reports


def agree(page_view: dict[str, tuple[str, ...]], python: dict[str, tuple[str, ...]]) -> None:
    """Same positions visited with the same values, bounds and principal path; the rest pruned."""
    visited_page = {p for p, v in page_view.items() if v[0] == "node"}
    visited_python = {p for p, v in python.items() if v[0] == "node"}
    assert visited_page == visited_python
    for path, seen in python.items():
        assert page_view[path] == seen, (path, page_view[path], seen)
    assert all(page_view[p] == ("pruned",) for p in set(page_view) - set(python))


class TestPage:
    def test_self_contained_and_small(self) -> None:
        """The page fetches nothing (script and style inline) and a textbook page stays small."""
        game = load_game("textbook")
        html = interactive_page(game_tree(game, algorithm="alphabeta"), game=game)
        assert "<script src" not in html and "<link" not in html
        addresses = set(re.findall(r"https?://[^\s\"']+", html))
        assert addresses <= {"http://www.w3.org/2000/svg"}  # the SVG namespace, never fetched
        assert len(html.encode()) < 40_000

    def test_editable_only_with_the_whole_small_tree(self) -> None:
        """With the game, a textbook tree is editable; a depth-limited or view-only one is not."""
        game = load_game("textbook")
        tree = game_tree(game, algorithm="alphabeta")
        assert '"editable": true' in interactive_page(tree, game=game)
        assert '"editable": false' in interactive_page(tree)
        limited = game_tree(load_game("tictactoe"), depth=1)
        assert '"editable": false' in interactive_page(limited, game=load_game("tictactoe"))

    def test_editing_is_refused_past_the_limit(self) -> None:
        """A whole game tree larger than EDIT_LIMIT is drawn as searched, not editable."""
        game = load_game("tictactoe")
        state = game.parse_state("x../.o./...")
        tree = game_tree(game, state, algorithm="alphabeta", collapse=True)
        html = interactive_page(tree, game=game, state=state)
        assert EDIT_LIMIT < 10_000 and '"editable": false' in html

    def test_a_page_too_large_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Past PAGE_LIMIT nodes the page is refused with the options that shrink it."""
        monkeypatch.setattr("viz.interactive.PAGE_LIMIT", 10)
        with pytest.raises(VizError, match="more than 10 nodes"):
            interactive_page(game_tree(load_game("textbook")))

    def test_wrong_game_is_refused(self) -> None:
        """A game or position that is not the tree's is refused, naming both."""
        tree = game_tree(load_game("textbook"))
        with pytest.raises(VizError, match="not the tree's"):
            interactive_page(tree, game=load_game("textbook", tree=[[1, 2], [3]]), state=(0,))

    def test_data_carries_the_searchs_annotations(self) -> None:
        """Without editing, each node's value and bound are the Python tree's own."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/.o./..."), algorithm="alphabeta")
        html = interactive_page(tree)
        found = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', html)
        assert found is not None
        data = json.loads(found.group(1))
        states = {d["state"]: d for _, d in tree.graph.nodes(data=True) if d["kind"] == "node"}
        stack = [data["tree"]]
        while stack:
            node = stack.pop()
            stack.extend(node["children"])
            if node["kind"] == "node":
                assert node["value"] == states[node["state"]]["value"]

    def test_written_atomically(self, tmp_path: Path) -> None:
        """write_interactive leaves only the page behind."""
        out = write_interactive(game_tree(load_game("textbook")), tmp_path / "t.html")
        assert [p.name for p in tmp_path.iterdir()] == ["t.html"] and out.exists()


@pytest.mark.chromium
@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt: chromium)")
class TestInChromium:
    def test_the_deep_tree_as_python_draws_it(self, tmp_path: Path) -> None:
        """On AIMA-style DEEP, the page shows D as ≤4 and prunes what Python prunes."""
        game = load_game("textbook", tree=DEEP)
        page = write_interactive(
            game_tree(game, algorithm="alphabeta"), tmp_path / "d.html", game=game
        )
        ((nodes, summary),) = parse_reports(
            chromium_dom(page.as_uri() + "?autotest=report", tmp_path / "p")
        )
        assert nodes["1.0"] == ("node", "4.0", "upper", "-")
        python, python_summary = python_view(DEEP, "alphabeta")
        agree(nodes, python)
        assert summary == python_summary

    @pytest.mark.slow
    def test_edits_recompute_as_python_does(self, tmp_path: Path) -> None:
        """On random trees, after each leaf edit and for both searches, the page equals Python."""
        rng = random.Random(2024)
        for index in range(6):
            tree = TIES if index == 0 else random_tree(rng, 4)
            while not isinstance(tree, list):
                tree = random_tree(rng, 4)
            game = load_game("textbook", tree=tree)
            page = write_interactive(
                game_tree(game, algorithm="alphabeta"), tmp_path / f"r{index}.html", game=game
            )
            actions, expected = ["report"], [python_view(tree, "alphabeta")]
            actions += ["algorithm:minimax", "report", "algorithm:alphabeta"]
            expected.append(python_view(tree, "minimax"))
            for _ in range(4):
                path = rng.choice(leaf_paths(tree))
                value = rng.randint(-3, 3)
                tree = with_leaf(tree, path, value)
                actions += [f"edit:{'.'.join(map(str, path)) or 'root'}={value}", "report"]
                expected.append(python_view(tree, "alphabeta"))
            dom = chromium_dom(page.as_uri() + "?autotest=" + ",".join(actions), tmp_path / "p")
            reports = parse_reports(dom)
            assert len(reports) == len(expected)
            for (nodes, summary), (python, python_summary) in zip(reports, expected, strict=True):
                agree(nodes, python)
                assert summary == python_summary

    def test_click_folds_and_unfolds_a_subtree(self, tmp_path: Path) -> None:
        """Toggling node 1 hides its subtree (and only it); toggling again shows it back."""
        game = load_game("textbook")
        page = write_interactive(
            game_tree(game, algorithm="alphabeta"), tmp_path / "f.html", game=game
        )
        dom = chromium_dom(
            page.as_uri() + "?autotest=report,click:1,report,click:1,report", tmp_path / "p"
        )
        full, folded, back = (set(nodes) for nodes, _ in parse_reports(dom))
        assert full - folded == {"1.0", "1.1", "1.2"}
        assert back == full

    def test_a_large_tree_opens_folded(self, tmp_path: Path) -> None:
        """A tic-tac-toe tree opens on its principal path and the moves beside it."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/.o./..."), algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "t.html")
        ((nodes, summary),) = parse_reports(
            chromium_dom(page.as_uri() + "?autotest=report", tmp_path / "p")
        )
        assert 10 < len(nodes) < tree.graph.number_of_nodes()
        assert summary == summary_line(tree)
