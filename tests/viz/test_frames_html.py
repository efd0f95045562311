"""Backward induction step by step: numbered frames, and the stepper page in real Chromium."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games import load_game
from tests.viz.svg import needs_dot, nodes, parse
from viz import GameTree, UnknownFormatError, game_tree, to_svg, write_frames, write_html
from viz.frames import frame_sources

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = needs_dot


@pytest.fixture(scope="module")
def tree() -> GameTree:
    return game_tree(load_game("textbook", tree=TEXTBOOK, labels="aima"), algorithm="alphabeta")


@pytest.fixture(scope="module")
def page(tree: GameTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_html(tree, tmp_path_factory.mktemp("html") / "steps.html")


class TestFrames:
    def test_one_frame_per_step_plus_the_empty_tree(self, tree: GameTree) -> None:
        """Frames: the tree before the search, then one per leaf, backed-up value or cut."""
        stats = tree.result.stats
        assert len(tree.steps) == stats.nodes + stats.cutoffs == 12
        assert len(frame_sources(tree)) == len(tree.steps) + 1

    def test_values_appear_from_the_leaves_up(self, tree: GameTree) -> None:
        """Each frame shows one more value (or a cut); the node just valued is highlighted."""
        shown = []
        for step, source in enumerate(frame_sources(tree)):
            from viz.dot import pipe

            shapes = parse(pipe(source, "svg").decode())
            valued = {s.id for s in shapes.values() if "valued" in s.classes}
            shown.append(valued)
            if 0 < step < len(tree.steps):
                (current,) = nodes(shapes, "current")
                assert current.id == f"n{tree.steps[step - 1].node}"
        assert shown[0] == set()
        assert all(a <= b for a, b in itertools.pairwise(shown))
        assert shown[-1] == {f"n{n}" for n, d in tree.graph.nodes(data=True) if d["kind"] == "node"}
        assert "n0" not in shown[-2]  # the root's value comes last

    def test_best_move_marked_when_its_value_backs_up(self, tree: GameTree) -> None:
        """The move that gave a node its value turns blue at the frame the value backs up."""
        from viz.dot import pipe

        graph = tree.graph
        step, b = next(
            (i, s.node)
            for i, s in enumerate(tree.steps, start=1)
            if graph.nodes[s.node]["name"] == "B"
        )
        (best,) = [c for c in graph.successors(b) if graph.edges[b, c]["optimal"]]
        sources = frame_sources(tree)
        before = parse(pipe(sources[step - 1], "svg").decode())
        after = parse(pipe(sources[step], "svg").decode())
        assert "optimal" not in before[f"e{b}_{best}"].classes
        assert "optimal" in after[f"e{b}_{best}"].classes

    def test_pruned_branches_appear_at_their_cut(self, tree: GameTree) -> None:
        """Pruned nodes are drawn dashed from the cut's frame on, not before."""
        from viz.dot import pipe

        cut = next(i for i, s in enumerate(tree.steps, start=1) if s.kind == "cut")
        sources = frame_sources(tree)
        before = parse(pipe(sources[cut - 1], "svg").decode())
        after = parse(pipe(sources[cut], "svg").decode())
        assert nodes(before, "pruned") == [] and len(nodes(before, "unvisited")) == 2
        assert len(nodes(after, "pruned")) == 2

    def test_windows_appear_only_once_the_search_has_entered_the_node(self, tree: GameTree) -> None:
        """D's window on entry is not shown before the search has reached D."""
        sources = frame_sources(tree, alpha_beta_labels=True)
        d_first_leaf = next(
            i
            for i, step in enumerate(tree.steps, start=1)
            if step.kind == "leaf" and tree.graph.nodes[step.node]["move"] == "d1"
        )
        d_window = "α,β in [3, +∞]</FONT>"
        before, at = sources[d_first_leaf - 1], sources[d_first_leaf]
        assert before.count(d_window) == 1  # C's only: D not entered yet
        assert at.count(d_window) == 2

    def test_last_frame_is_the_finished_diagram(self, tree: GameTree) -> None:
        """The final frame is the full diagram, principal path included."""
        from viz.dot import pipe

        assert pipe(frame_sources(tree)[-1], "svg").decode() == to_svg(tree)

    def test_numbered_files(self, tree: GameTree, tmp_path: Path) -> None:
        """write_frames writes frame-000 .. frame-012 in order, as SVG or PNG."""
        svgs = write_frames(tree, tmp_path / "svg")
        pngs = write_frames(tree, tmp_path / "png", format="png")
        assert [p.name for p in svgs] == [f"frame-{i:03d}.svg" for i in range(13)]
        assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)

    def test_unknown_frame_format(self, tree: GameTree, tmp_path: Path) -> None:
        """A frame format other than svg, png, pdf or dot is refused with the choices."""
        with pytest.raises(UnknownFormatError, match="unknown frame format 'gif'; use one of"):
            write_frames(tree, tmp_path, format="gif")


class TestPageOffline:
    def test_self_contained(self, page: Path, tree: GameTree) -> None:
        """The page inlines every frame and its script and fetches nothing."""
        text = page.read_text(encoding="utf-8")
        assert text.count('<div class="frame"') == len(tree.steps) + 1
        assert text.count("<svg") == len(tree.steps) + 1
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
        assert "<link" not in text and "@import" not in text
        assert len(set(re.findall(r'\bid="([^"]+)"', text))) == len(
            re.findall(r'\bid="([^"]+)"', text)
        )


def chromium_dom(url: str, profile: Path) -> str:
    """The DOM of ``url`` after its scripts ran, from headless Chromium."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=3000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.chromium
@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt: chromium)")
class TestPageInChromium:
    def test_next_and_previous_change_the_frame_shown(self, page: Path, tmp_path: Path) -> None:
        """Clicking Next three times and Previous once shows frame 2, and only frame 2."""
        dom = chromium_dom(page.as_uri() + "?autotest=next,next,next,prev", tmp_path / "p1")
        assert re.search(r'<pre id="autotest">frame=2 visible=frame-2</pre>', dom)
        assert 'data-frame="2"' in dom

    def test_address_opens_a_frame_and_slider_moves(self, page: Path, tmp_path: Path) -> None:
        """#frame=5 opens frame 5; the slider at 9 then Next shows 10; Next stops at the end."""
        dom = chromium_dom(page.as_uri() + "?autotest=next#frame=5", tmp_path / "p2")
        assert '<pre id="autotest">frame=6 visible=frame-6</pre>' in dom
        dom = chromium_dom(page.as_uri() + "?autotest=9,next", tmp_path / "p3")
        assert '<pre id="autotest">frame=10 visible=frame-10</pre>' in dom
        dom = chromium_dom(page.as_uri() + "?autotest=end,next", tmp_path / "p4")
        assert '<pre id="autotest">frame=12 visible=frame-12</pre>' in dom
