"""The interactive page under a real mouse and keyboard (Playwright driving Debian's Chromium):
a value typed into the edit box is kept when the next click lands elsewhere on the tree, and that
click still does what it says (select the leaf clicked, fold the subtree clicked)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.board.browsing import CHROMIUM_TESTS, launch
from viz import game_tree
from viz.interactive import write_interactive

pytestmark = CHROMIUM_TESTS


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """AIMA's Figure 5.2 tree, alpha-beta, editable, at a projector's 1280x720."""
    game = load_game("textbook")
    tree = game_tree(game, algorithm="alphabeta")
    path = write_interactive(tree, tmp_path / "page.html", game=game)
    opened = browser.new_page(viewport={"width": 1280, "height": 720})
    opened.goto(path.as_uri())
    yield opened
    opened.close()


def node(page: Any, path: str) -> Any:
    return page.locator(f'#tree g.node[data-path="{path}"]')


def press(page: Any, path: str) -> None:
    """A real mouse click (move, down, up) on the middle of a node's shape."""
    shape = node(page, path).locator("circle, polygon, rect, path").first
    shape.scroll_into_view_if_needed()
    box = shape.bounding_box()
    assert box is not None, path
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def type_value(page: Any, text: str, enter: bool = False) -> None:
    box = page.locator("#edit-value")
    box.click()
    box.press("Control+A")
    page.keyboard.type(text)
    if enter:
        page.keyboard.press("Enter")


def value(page: Any, path: str) -> str:
    return str(node(page, path).get_attribute("data-value"))


class TestClickAfterTyping:
    def test_a_value_typed_then_another_leaf_clicked_keeps_both(self, page: Any) -> None:
        """Type 7 into leaf 0.0, click leaf 0.1 without Enter: 0.0 is 7 and the box edits 0.1,
        so the next value typed (9, Enter) goes into 0.1, not back into 0.0."""
        press(page, "0.0")
        type_value(page, "7")
        press(page, "0.1")
        assert value(page, "0.0") == "7"
        assert "0·1" in page.locator("#edit-where").inner_text()
        type_value(page, "9", enter=True)
        assert (value(page, "0.0"), value(page, "0.1")) == ("7", "9")

    def test_a_value_typed_then_a_fold_click_keeps_both(self, page: Any) -> None:
        """Type 1 into leaf 2.2, click node 1 without Enter: 2.2 is 1 and node 1 is folded."""
        press(page, "2.2")
        type_value(page, "1")
        press(page, "1")
        assert value(page, "2.2") == "1"
        assert node(page, "1.0").count() == 0, "node 1's subtree is still open"
        assert "collapsed" in str(node(page, "1").get_attribute("class"))

    def test_a_huge_value_is_written_as_a_teacher_would(self, page: Any) -> None:
        """1e308 typed into a leaf is drawn as 1e+308, not as its 309 digits."""
        press(page, "0.0")
        type_value(page, "1e308", enter=True)
        label = node(page, "0.0").locator("text").first.text_content()
        assert label == "1e+308", label
