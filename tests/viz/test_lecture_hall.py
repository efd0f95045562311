"""The lecture hall, measured: a palette whose MAX, MIN and chance fills differ in lightness (a
washed-out projector, a greyscale print), pruned and current-step marks at 3:1 or more on white,
black text readable on every fill, every writer drawing with it; slides of one size, 16:9."""

from __future__ import annotations

import itertools
import struct
from pathlib import Path

import pytest

from games import load_game
from viz import game_tree
from viz.dot import to_dot
from viz.frames import write_frames
from viz.html import write_html
from viz.interactive import interactive_page
from viz.palette import CHANCE_FILL, CURRENT, MAX_FILL, MIN_FILL, PRUNED, contrast, luminance
from viz.pseudocode import PSEUDOCODE_STYLE
from viz.stepper import STYLE
from viz.tikz import to_tikz

CHROMIUM = "/usr/bin/chromium"
FILLS = {"MAX": MAX_FILL, "MIN": MIN_FILL, "chance": CHANCE_FILL}


def grey(colour: str) -> str:
    """The colour as a greyscale print or a washed-out projector keeps it: its lightness."""
    level = round(255 * luminance(colour) ** (1 / 2.2))
    return f"#{level:02x}{level:02x}{level:02x}"


class TestContrast:
    @pytest.mark.parametrize(("a", "b"), list(itertools.combinations(FILLS, 2)))
    def test_fills_apart_in_greyscale(self, a: str, b: str) -> None:
        """Each pair of node fills differs by 1.35:1 or more once only lightness is left (the
        old fills were 1.01 to 1.10)."""
        assert contrast(grey(FILLS[a]), grey(FILLS[b])) >= 1.35

    def test_marks_stand_out_from_the_page(self) -> None:
        """Pruned grey and the current step's fill: 3:1 or more on white (WCAG's graphics floor);
        the current fill also stands out from MAX's and chance's fills, 2:1 or more."""
        assert contrast(PRUNED, "#ffffff") >= 3 and contrast(CURRENT, "#ffffff") >= 3
        assert min(contrast(CURRENT, f) for f in (MAX_FILL, CHANCE_FILL)) >= 2

    @pytest.mark.parametrize("fill", [*FILLS.values(), CURRENT])
    def test_black_text_reads_on_every_fill(self, fill: str) -> None:
        """Values are black on the fills: 4.5:1 or more (WCAG AA for text)."""
        assert contrast(fill, "#000000") >= 4.5

    def test_the_current_mark_is_no_yellow(self) -> None:
        """Tritanopes lose yellow on white: the mark is a vermilion (red well above blue)."""
        red, green, blue = (int(CURRENT[i : i + 2], 16) for i in (1, 3, 5))
        assert red > green > blue and red - blue > 150


class TestEveryWriterUsesIt:
    def test_graphviz_tikz_and_pages(self) -> None:
        """The DOT source, the TikZ colours, the pages' style sheets take the palette's fills."""
        game = load_game("textbook", tree="[{1/2: [3, 5], 1/2: [1, 9]}, [2, [0, 4]]]")
        tree = game_tree(game, algorithm="star1")
        dot = to_dot(tree).lower()
        assert all(fill in dot for fill in (MAX_FILL, MIN_FILL, CHANCE_FILL, PRUNED))
        tikz = to_tikz(tree)
        assert all(f.lstrip("#").upper() in tikz for f in (*FILLS.values(), CURRENT, PRUNED))
        page = interactive_page(tree, game=game)
        assert f"--max-fill: {MAX_FILL}" in page and f"--current: {CURRENT}" in page
        assert CURRENT in STYLE and CURRENT in PSEUDOCODE_STYLE
        assert "#ffd54f" not in (dot + tikz + page + STYLE).lower()


class TestSlides:
    def test_png_frames_are_one_size(self, tmp_path: Path) -> None:
        """Every alpha-beta PNG frame has the size of the others: a longer step caption or the
        summary at the end made a frame wider or lower (Figure 5.2's: 1662x769 at the end beside
        1662x777 and 1694x777), and the tree jumped."""
        tree = game_tree(load_game("textbook", tree=[[3, 12], [2, 4]]), algorithm="alphabeta")
        frames = write_frames(tree, tmp_path, format="png")
        sizes = {struct.unpack(">II", frame.read_bytes()[16:24]) for frame in frames}
        assert len(sizes) == 1, sizes

    def test_beamer_frames_are_16_9(self) -> None:
        """The Beamer document is 16:9, as a lecture hall's projector is (the tests of
        viz.tikz compile it)."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        assert to_tikz(tree, overlays=True).startswith(r"\documentclass[aspectratio=169]{beamer}")


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed")
class TestStepperOnAProjector:
    def test_legend_and_pseudocode_are_not_cut(self, tmp_path: Path) -> None:
        """At 1280x720 every legend line of the stepper lies inside the picture's box (it was
        cut at "≤v upper b"), and no pseudocode line runs past its panel."""
        sync = pytest.importorskip("playwright.sync_api")
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        page_file = write_html(tree, tmp_path / "steps.html", alpha_beta_labels=True)
        with sync.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(page_file.as_uri())
            overflow = page.evaluate(
                """() => {
                const box = document.getElementById("diagram").getBoundingClientRect();
                const cut = [...document.querySelectorAll("#diagram svg text")]
                  .filter(t => getComputedStyle(t).visibility !== "hidden")
                  .filter(t => t.getBoundingClientRect().right > box.right + 1)
                  .map(t => t.textContent);
                const code = document.getElementById("pseudocode");
                return [cut, code.scrollWidth - code.clientWidth];
            }"""
            )
            browser.close()
        assert overflow == [[], 0], overflow
