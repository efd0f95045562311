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
from viz.palette import CURRENT

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
            from viz.graphviz import pipe

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
        from viz.graphviz import pipe

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
        """Pruned nodes are invisible before their cut's frame and dashed from it on."""
        from viz.graphviz import pipe

        cut = next(i for i, s in enumerate(tree.steps, start=1) if s.kind == "cut")
        sources = frame_sources(tree)
        before = parse(pipe(sources[cut - 1], "svg").decode())
        after = parse(pipe(sources[cut], "svg").decode())
        assert all("unreached" in s.classes for s in nodes(before, "pruned"))
        assert all(s.texts == () and s.polygons == () for s in nodes(before, "pruned"))
        assert len(nodes(after, "pruned")) == 2
        assert not any("unreached" in s.classes for s in nodes(after, "pruned"))

    def test_nothing_appears_before_the_search_reaches_it(self, tree: GameTree) -> None:
        """At every frame a node is drawn only if the search entered it (or cut it) by then."""
        from viz.graphviz import pipe

        for step, source in enumerate(frame_sources(tree, alpha_beta_labels=True)):
            shapes = parse(pipe(source, "svg").decode())
            for node, data in tree.graph.nodes(data=True):
                shape = shapes.get(f"n{node}")  # Graphviz leaves invisible nodes out
                drawn = shape is not None and "unreached" not in shape.classes
                reached = data["depth"] == 0 or (data["opened"] or 10**9) <= step
                assert drawn == (reached or step == len(tree.steps)), (step, node)
                assert drawn or shape is None or shape.texts == ()

    def test_windows_appear_only_once_the_search_has_entered_the_node(self, tree: GameTree) -> None:
        """D's window on entry is not drawn before the search has reached D."""
        from viz.graphviz import pipe

        d_first_leaf = next(
            i
            for i, step in enumerate(tree.steps, start=1)
            if step.kind == "leaf" and tree.graph.nodes[step.node]["move"] == "d1"
        )
        sources = frame_sources(tree, alpha_beta_labels=True)
        before = parse(pipe(sources[d_first_leaf - 1], "svg").decode())
        at = parse(pipe(sources[d_first_leaf], "svg").decode())
        d = next(f"n{n}" for n, x in tree.graph.nodes(data=True) if x["name"] == "D")
        assert d not in before or before[d].texts == ()
        assert "α=3 β=+∞" in at[d].texts

    def test_running_range_as_in_aima_figure_5_5(self, tree: GameTree) -> None:
        """B reads [−∞, 3] from its first leaf on, [3, 3] once backed up; A [3, +∞]; C ≤ 2."""
        from viz.stepper import frame_changes

        changes = frame_changes(tree)
        names = {d["name"]: n for n, d in tree.graph.nodes(data=True) if d["name"]}
        b_ranges = [c[3] for c in changes[names["B"]] if c[1]]
        assert b_ranges == ["[−∞, 3]", "[3, 3]"]
        a_ranges = [c[3] for c in changes[names["A"]]]
        assert "[3, +∞]" in a_ranges and a_ranges[-1] == "[3, 3]"
        c_ranges = [c[3] for c in changes[names["C"]] if c[1]]
        assert c_ranges[-1] == "[−∞, 2]"  # C is only known to be at most 2

    def test_last_frame_is_the_finished_diagram(self, tree: GameTree) -> None:
        """The final frame is the full diagram, principal path included."""
        from viz.graphviz import pipe

        assert pipe(frame_sources(tree)[-1], "svg").decode() == to_svg(tree)

    def test_svg_frames_share_one_layout(self, tree: GameTree, tmp_path: Path) -> None:
        """Every SVG frame places every node at the same coordinates."""
        files = write_frames(tree, tmp_path, alpha_beta_labels=True)
        outlines = set()
        for path in files:
            text = path.read_text(encoding="utf-8")
            outlines.add(
                tuple(
                    re.findall(
                        r'<g id="n\d+"[^>]*>\s*<title>.*?</title>\s*<[^>]*'
                        r'(?:points|d)="([^"]*)"',
                        text,
                        re.DOTALL,
                    )
                )
            )
        assert len(outlines) == 1

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
        """The page holds one SVG, its frame table and its script, and fetches nothing."""
        text = page.read_text(encoding="utf-8")
        assert text.count("<svg") == 1
        assert 'id="frame-data"' in text
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
        assert "<link" not in text and "@import" not in text
        assert len(set(re.findall(r'\bid="([^"]+)"', text))) == len(
            re.findall(r'\bid="([^"]+)"', text)
        )


HIGHLIGHT = "rgb({},{},{})".format(*(int(CURRENT[i : i + 2], 16) for i in (1, 3, 5)))
"""The fill of the node just valued (:data:`viz.palette.CURRENT`), as the browser reports it."""


class TestCurrentNodeHighlight:
    def test_page_legend_names_the_highlight(self, page: Path) -> None:
        """The stepper page's key says what the marked node is, as the PNG frames' key does."""
        assert "the node just valued" in page.read_text(encoding="utf-8")

    def test_static_svg_frames_mark_the_outline_the_style_fills(
        self, tree: GameTree, tmp_path: Path
    ) -> None:
        """In each SVG frame the current node's first shape is the one the highlight rule fills."""
        files = write_frames(tree, tmp_path, alpha_beta_labels=True)
        for index, path in enumerate(files[1:-1], start=1):
            text = path.read_text(encoding="utf-8")
            assert f"g.node.current .outline {{ fill: {CURRENT}; }}" in text
            node = tree.steps[index - 1].node
            group = re.search(rf'<g id="n{node}" class="([^"]*)">(.*?)</a>', text, re.DOTALL)
            assert group and "current" in group.group(1).split()
            first_shape = re.search(r"<(?:polygon|path|ellipse) [^>]*>", group.group(2))
            assert first_shape and 'class="outline"' in first_shape.group(0)
            assert "the node just valued" in text


class TestPseudocode:
    def test_page_shows_the_searchs_pseudocode(self, page: Path) -> None:
        """The alpha-beta page carries AIMA's ALPHA-BETA-SEARCH with its cut-off lines."""
        text = page.read_text(encoding="utf-8")
        assert "function ALPHA-BETA-SEARCH(game, state)" in text
        assert 'data-line="max-cut"' in text and 'data-line="min-cut"' in text

    def test_every_step_names_a_line_of_the_pseudocode(self, tree: GameTree) -> None:
        """Each frame after the first highlights a line that the pseudocode has."""
        from viz.pseudocode import PSEUDOCODE, step_lines

        keys = {key for key, _ in PSEUDOCODE["alphabeta"] if key}
        lines = step_lines(tree)
        assert lines[0] is None and len(lines) == len(tree.steps) + 1
        assert set(lines[1:]) <= keys


def chromium_dom(url: str, profile: Path, window: tuple[int, int] | None = None) -> str:
    """The DOM of ``url`` after its scripts ran, from headless Chromium (in a window of
    ``window`` pixels, width and height, if given)."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            *([f"--window-size={window[0]},{window[1]}"] if window else []),
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
    def test_next_and_previous_change_the_frame_shown(
        self, page: Path, tree: GameTree, tmp_path: Path
    ) -> None:
        """Next three times and Previous once shows frame 2: the nodes reached, two leaves."""
        dom = chromium_dom(page.as_uri() + "?autotest=next,next,next,prev", tmp_path / "p1")
        shown = autotest(dom)
        assert shown["frame"] == "2" and 'data-frame="2"' in dom
        assert shown["visible"] == expected_visible(tree, 2)
        assert shown["values"] == "n2:3,n3:12"

    def test_address_opens_a_frame_and_slider_moves(
        self, page: Path, tree: GameTree, tmp_path: Path
    ) -> None:
        """#frame=5 opens frame 5; the slider at 9 then Next shows 10; Next stops at the end."""
        dom = chromium_dom(page.as_uri() + "?autotest=next#frame=5", tmp_path / "p2")
        assert autotest(dom)["frame"] == "6"
        dom = chromium_dom(page.as_uri() + "?autotest=9,next", tmp_path / "p3")
        shown = autotest(dom)
        assert shown["frame"] == "10" and shown["visible"] == expected_visible(tree, 10)
        dom = chromium_dom(page.as_uri() + "?autotest=end,next", tmp_path / "p4")
        shown = autotest(dom)
        assert shown["frame"] == "12"
        assert shown["visible"] == ",".join(f"n{n}" for n in sorted(tree.graph.nodes))
        assert "n0:3" in shown["values"].split(",")

    def test_current_node_is_painted_with_the_mark(
        self, page: Path, tree: GameTree, tmp_path: Path
    ) -> None:
        """At frame 5 the browser paints the node of step 5 in the highlight colour."""
        shown = autotest(chromium_dom(page.as_uri() + "?autotest=5", tmp_path / "p6"))
        assert shown["current"] == f"n{tree.steps[4].node}:{HIGHLIGHT}"

    def test_pseudocode_line_of_each_step_is_highlighted(
        self, page: Path, tree: GameTree, tmp_path: Path
    ) -> None:
        """Frame 6 (C's cut-off) highlights MIN-VALUE's early return; frame 4 its return v."""
        shown = autotest(chromium_dom(page.as_uri() + "?autotest=6", tmp_path / "p8"))
        assert tree.steps[5].kind == "cut" and shown["line"] == "min-cut"
        shown = autotest(chromium_dom(page.as_uri() + "?autotest=4", tmp_path / "p9"))
        assert shown["line"] == "min-return"

    def test_current_table_node_is_painted_with_the_mark(
        self, tree: GameTree, tmp_path: Path
    ) -> None:
        """With alpha-beta labels (nodes drawn as tables) the highlight shows too."""
        labelled = write_html(tree, tmp_path / "ab.html", alpha_beta_labels=True)
        shown = autotest(chromium_dom(labelled.as_uri() + "?autotest=11", tmp_path / "p7"))
        assert shown["current"] == f"n{tree.steps[10].node}:{HIGHLIGHT}"

    def test_screenshot_of_a_frame(self, page: Path, tmp_path: Path) -> None:
        """A frame renders to a screenshot (kept in the temporary folder to look at)."""
        shot = tmp_path / "frame7.png"
        done = subprocess.run(
            [
                CHROMIUM,  # type: ignore[list-item]
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={tmp_path / 'p5'}",
                "--window-size=1200,700",
                f"--screenshot={shot}",
                page.as_uri() + "#frame=7",
            ],
            capture_output=True,
            timeout=90,
            check=False,
        )
        assert done.returncode == 0 and shot.read_bytes().startswith(b"\x89PNG")


def autotest(dom: str) -> dict[str, str]:
    """The fields the page's autotest wrote: frame, visible nodes, values shown."""
    match = re.search(r'<pre id="autotest">([^<]*)</pre>', dom)
    assert match, dom[-500:]
    return dict(part.split("=", 1) for part in match.group(1).split(" "))


def expected_visible(tree: GameTree, frame: int) -> str:
    """The nodes a frame should show, by the tree's own ``opened`` steps."""
    last = len(tree.steps)
    return ",".join(
        f"n{n}"
        for n, d in sorted(tree.graph.nodes(data=True))
        if frame == last or d["depth"] == 0 or (d["opened"] is not None and d["opened"] <= frame)
    )
