"""Zooming the interactive page keeps in view what the reader is looking at (Playwright driving
Debian's Chromium with real clicks and wheel events): "+" and "−" zoom about the middle of the
tree's part in view, Ctrl + wheel (a touchpad's pinch) about the pointer, and a tree narrower
than the window stands in its middle. Zooming used to scroll the root to the middle: on the
Star2 page, zooming out while looking at D's outcomes left them off to one side."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.board.browsing import CHROMIUM_TESTS, launch
from viz import game_tree
from viz.interactive import write_interactive

COINS = "[{1/2: [6, 6], 1/2: [6, 5]}, {1/2: [4, 5], 1/2: [7, 3]}, {1/2: [9, 8], 1/2: [2, 0]}]"

pytestmark = CHROMIUM_TESTS

VIEW = """() => {
  const view = document.getElementById("scroll").getBoundingClientRect();
  const svg = document.getElementById("tree");
  const box = svg.getBoundingClientRect();
  return {zoom: parseFloat(svg.getAttribute("data-zoom")), view: [view.left, view.right],
          tree: [box.left, box.right, box.top], scrolled: window.scrollY};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """The docs' coin tree searched by Star2 (its tree is wider than the room beside the
    pseudocode at a readable size), at a projector's 1280x720."""
    game = load_game("textbook", tree=COINS)
    path = write_interactive(game_tree(game, algorithm="star2"), tmp_path / "p.html", game=game)
    opened = browser.new_page(viewport={"width": 1280, "height": 720})
    opened.goto(path.as_uri())
    yield opened
    opened.close()


def middle_of_view(state: dict[str, Any]) -> float:
    """The tree's x (unzoomed) at the middle of the part of the tree in view."""
    left = max(state["view"][0], state["tree"][0])
    right = min(state["view"][1], state["tree"][1])
    return float((left + right) / 2 - state["tree"][0]) / float(state["zoom"])


def scroll_right(page: Any, pixels: int) -> float:
    """A real horizontal wheel over the tree, waited for until the scrolling ends."""
    view = page.evaluate(VIEW)
    page.mouse.move((view["view"][0] + view["view"][1]) / 2, view["tree"][2] + 150)
    start = page.evaluate("() => document.getElementById('scroll').scrollLeft")
    page.mouse.wheel(pixels, 0)
    page.wait_for_function(
        "([start, pixels]) => { const s = document.getElementById('scroll');"
        " return s.scrollLeft >= Math.min(start + pixels, s.scrollWidth - s.clientWidth) - 1; }",
        arg=[start, pixels],
        timeout=5000,
    )
    return float(page.evaluate("() => document.getElementById('scroll').scrollLeft")) - start


def middle_of_view_at_root(page: Any) -> float:
    """The root's x (unzoomed): where the old zoom put the middle of the view."""
    box = page.locator('#tree g.node[data-path="root"]').locator("polygon").first.bounding_box()
    state = page.evaluate(VIEW)
    return float(box["x"] + box["width"] / 2 - state["tree"][0]) / float(state["zoom"])


def centre(page: Any, path: str) -> tuple[float, float]:
    box = page.locator(f'#tree g.node[data-path="{path}"]').locator("circle").first.bounding_box()
    assert box is not None, path
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class TestZoom:
    def test_the_buttons_zoom_about_what_is_in_view(self, page: Any) -> None:
        """Zoomed in, the wheel scrolls right towards D's outcomes; "−" twice keeps the tree's
        point in the middle of the view where it was (it used to centre the root)."""
        for _ in range(2):
            page.click("#zoom-in")
        scrolled = scroll_right(page, 900)
        before = page.evaluate(VIEW)
        middle = middle_of_view(before)
        assert abs(middle - middle_of_view_at_root(page)) > 100  # not where the root is
        for _ in range(2):
            page.click("#zoom-out")
        after = page.evaluate(VIEW)
        assert after["zoom"] == pytest.approx(before["zoom"] / 1.25**2)
        assert middle_of_view(after) == pytest.approx(middle, abs=2 / after["zoom"])
        assert scrolled > 0

    def test_zooming_out_at_the_right_end_stays_there(self, page: Any) -> None:
        """Scrolled to the tree's right end (J's outcomes), "−" twice: the right end is still
        at the view's right edge and J in view."""
        for _ in range(2):
            page.click("#zoom-in")
        scroll_right(page, 5000)
        for _ in range(2):
            page.click("#zoom-out")
        state = page.evaluate(VIEW)
        assert state["tree"][1] == pytest.approx(state["view"][1], abs=2)
        x, _ = centre(page, "2")  # D, whose outcomes I and J are at the right end
        assert state["view"][0] < x < state["view"][1]

    def test_ctrl_wheel_zooms_about_the_pointer(self, page: Any) -> None:
        """Ctrl + wheel over C (right of the root, in view as the page opens) zooms in, then
        out, by a quarter a notch, C staying under the pointer; a plain wheel does not zoom."""
        x, y = centre(page, "1")
        view = page.evaluate(VIEW)
        assert view["view"][0] < x < view["view"][1]
        zoom = page.evaluate(VIEW)["zoom"]
        page.mouse.move(x, y)
        page.keyboard.down("Control")
        page.mouse.wheel(0, -100)
        page.keyboard.up("Control")
        page.wait_for_function(
            f"() => document.getElementById('tree').dataset.zoom != '{zoom}'", timeout=5000
        )
        assert page.evaluate(VIEW)["zoom"] == pytest.approx(zoom * 1.25)
        assert centre(page, "1") == pytest.approx((x, y), abs=1.5)
        page.keyboard.down("Control")
        page.mouse.wheel(0, 100)
        page.keyboard.up("Control")
        page.wait_for_function(
            f"() => Math.abs(document.getElementById('tree').dataset.zoom - {zoom}) < 1e-9",
            timeout=5000,
        )
        assert centre(page, "1") == pytest.approx((x, y), abs=1.5)
        page.mouse.wheel(0, 100)
        assert page.evaluate(VIEW)["zoom"] == pytest.approx(zoom)

    def test_a_narrow_tree_stands_in_the_middle(self, page: Any) -> None:
        """Zoomed out until the tree is narrower than its room, it stands in the middle of it
        (it stood at the left edge, the room beside it empty)."""
        for _ in range(8):
            page.click("#zoom-out")
        state = page.evaluate(VIEW)
        left = state["tree"][0] - state["view"][0]
        right = state["view"][1] - state["tree"][1]
        assert left > 20 and left == pytest.approx(right, abs=1.5)
