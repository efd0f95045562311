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
from tests.tiny_games import TakeAway
from tests.viz.test_frames_html import chromium_dom
from viz import game_tree
from viz.dot import summary_line
from viz.errors import VizError
from viz.interactive import EDIT_LIMIT, interactive_page, write_interactive
from viz.model import figure

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
            if line.startswith(("step ", "caption ", "frames ", "boxes ")):
                continue  # the stepper's state and dumps (tests/viz/test_interactive_steps.py)
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
        assert len(html.encode()) < 73_000  # with the stepper, its frames, the pseudocode, the
        # five searches the script runs (with Python's exact arithmetic for chance) and the
        # stepping through an engine's iterations: 65.0 kB when both came together; 69.5 kB
        # with clicks read from press and release, ranges kept in [L, U], Star2's probe lines;
        # 71.8 kB with the folding pseudocode panel and the opening view fitted to the window;
        # 72.8 kB with zooming about a point (the buttons, Ctrl + wheel)

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


HD = (1280, 720)
"""A projector's window, in pixels."""


def view_report(dom: str) -> dict[str, str]:
    """The page's view report: zoom and scroll, the edit box, the notes, the board shown."""
    found = re.search(r'<pre id="autotest-view">(.*?)</pre>', dom, flags=re.S)
    assert found is not None, dom[-2000:]
    rows = html.unescape(found.group(1)).splitlines()
    return {row.split(" ", 1)[0]: row.partition(" ")[2] for row in rows}


def numbers(text: str) -> dict[str, float]:
    """``zoom 1.4 width 1848 ...`` as a dict of numbers."""
    words = text.split()
    return {
        "zoom": float(words[0]),
        **{k: float(v) for k, v in zip(words[1::2], words[2::2], strict=True)},
    }


class TestPageForProjection:
    def test_boards_are_not_ignored(self) -> None:
        """--boards puts each position's board in the page (it was dropped without a word)."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/xo./o.x"), algorithm="alphabeta")
        page = interactive_page(tree, boards=True)
        assert '"boards": true' in page and '<pre id="board"' in page
        assert page.count('"board": "') == tree.graph.number_of_nodes()

    def test_boards_need_render(self) -> None:
        """Boards for a game that cannot render them are refused with the reason."""
        from solver.game import CapabilityError

        with pytest.raises(CapabilityError, match="render"):
            interactive_page(game_tree(TakeAway(3)), boards=True)

    def test_nodes_carry_their_figure_names_and_windows(self) -> None:
        """Each node carries the name the figures use and its window on entry."""
        game = load_game("textbook", labels="aima")
        page = interactive_page(game_tree(game, algorithm="alphabeta"), game=game)
        assert '"title": "a2·c1"' in page
        static = interactive_page(game_tree(game, algorithm="alphabeta"))
        assert '"alphaIn": 3' in static and '"betaIn": "inf"' in static


@pytest.mark.chromium
@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt: chromium)")
class TestProjectionInChromium:
    def test_zoom_and_fit_to_screen(self, tmp_path: Path) -> None:
        """+ zooms in by a quarter; Fit to screen makes the whole tree as wide as the window."""
        game = load_game("textbook", labels="aima")
        page = write_interactive(game_tree(game, algorithm="alphabeta"), tmp_path / "z.html")
        view = view_report(chromium_dom(page.as_uri() + "?autotest=zoom:in", tmp_path / "p1"))
        assert numbers(view["zoom"])["zoom"] == pytest.approx(1.75)
        view = view_report(chromium_dom(page.as_uri() + "?autotest=zoom:fit", tmp_path / "p2"))
        shown = numbers(view["zoom"])
        assert shown["width"] <= shown["view"] + 1

    def test_expand_all_keeps_the_root_on_screen(self, tmp_path: Path) -> None:
        """After Expand all on a wide tree the root is within the visible part of the page."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/.o./..."), algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "t.html")
        view = view_report(chromium_dom(page.as_uri() + "?autotest=expand", tmp_path / "p"))
        shown = numbers(view["zoom"])
        assert shown["width"] > shown["view"]  # the tree is wider than the window
        assert shown["scroll"] <= shown["root"] <= shown["scroll"] + shown["view"]

    def test_a_projector_shows_the_whole_tree(self, tmp_path: Path) -> None:
        """At 1280x720 Figure 5.2's tree, too wide beside the pseudocode at a readable size,
        opens whole in the window with the pseudocode folded to a line above it (texts at 10 px
        or more); opening the panel puts the pseudocode beside the tree again."""
        game = load_game("textbook", labels="aima")
        page = write_interactive(game_tree(game, algorithm="alphabeta"), tmp_path / "p.html")
        view = view_report(chromium_dom(page.as_uri() + "?autotest=report", tmp_path / "a", HD))
        left, top, right, bottom, width, height, _, _ = map(int, view["window"].split())
        assert view["panel"] == "closed" and numbers(view["zoom"])["zoom"] >= 10 / 12
        assert left >= 0 and right <= width and bottom <= height
        view = view_report(chromium_dom(page.as_uri() + "?autotest=panel", tmp_path / "b", HD))
        code_left, code_bottom = map(int, view["window"].split()[6:])
        assert view["panel"] == "open" and code_left < width and code_bottom > top

    def test_a_small_tree_opens_beside_its_pseudocode(self, tmp_path: Path) -> None:
        """A tree that fits beside the pseudocode keeps the panel open, both in the window."""
        game = load_game("textbook", tree=[[3, 12], [2, 4]])
        page = write_interactive(game_tree(game, algorithm="alphabeta"), tmp_path / "s.html")
        view = view_report(chromium_dom(page.as_uri() + "?autotest=report", tmp_path / "a", HD))
        _, _, right, bottom, width, height, code_left, _ = map(int, view["window"].split())
        assert view["panel"] == "open" and right <= code_left < width and bottom <= height

    def test_edit_box_names_the_leaf_as_the_figure_does(self, tmp_path: Path) -> None:
        """Clicking leaf c1 opens the edit box on 'leaf a2·c1', not on its state '1.0'."""
        game = load_game("textbook", labels="aima")
        page = write_interactive(
            game_tree(game, algorithm="alphabeta"), tmp_path / "e.html", game=game
        )
        view = view_report(chromium_dom(page.as_uri() + "?autotest=click:1.0", tmp_path / "p"))
        assert view["edit"] == "leaf a2·c1"

    def test_windows_and_ranges_as_in_the_static_figure(self, tmp_path: Path) -> None:
        """Alpha-beta pages write each inner node's range and window, as the figures do."""
        game = load_game("textbook", labels="aima")
        tree = game_tree(game, algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "w.html", game=game)
        view = view_report(chromium_dom(page.as_uri() + "?autotest=report", tmp_path / "p"))
        expected = figure(tree, alpha_beta_labels=True)
        notes = view["notes"].split("|")
        for shape in expected.nodes.values():
            if shape.range:
                assert shape.range in notes and shape.window in notes

    def test_boards_show_for_the_node_pointed_at(self, tmp_path: Path) -> None:
        """With boards, pointing at a node shows its board beside the tree."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/xo./o.x"), algorithm="alphabeta")
        page = write_interactive(tree, tmp_path / "b.html", boards=True)
        view = view_report(chromium_dom(page.as_uri() + "?autotest=hover:0", tmp_path / "p"))
        first = next(tree.graph.successors(0))
        assert view["board"].startswith(tree.graph.nodes[first]["title"])
        assert "x" in view["board"] and "o" in view["board"]
