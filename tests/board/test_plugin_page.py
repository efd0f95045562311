"""The page in Chromium with plug-in games installed beside ours: a scored game of two rows of
six (not Ayòayò) loads and plays while two broken plug-ins are named on the page, a grid
game's position is set in the grid editor, and a game's options stay with it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.board.browsing import CHROMIUM_TESTS, open_board, open_page, serve, shown_position
from tests.plugin_games import install

pytestmark = CHROMIUM_TESTS


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The board with the plug-in installed (an entry point in a ``.dist-info``) and two broken
    ones beside it, no tablebase."""
    path = install(tmp_path_factory.mktemp("site"), broken=True)
    yield from serve(tmp_path_factory, "--no-tablebase", pythonpath=path)


@pytest.fixture
def page(browser: Any, plugin_server: str) -> Iterator[Any]:
    yield from open_page(browser, plugin_server)


class TestAPlugInOnThePage:
    def test_the_scored_two_row_game_loads_and_a_move_is_played(self, page: Any) -> None:
        """Drawn as its grid (no pits, no sowing): a click on a cell plays it."""
        open_board(page, "?game=tworows")
        assert shown_position(page) == "000000/000000/0/0/0"
        said = page.inner_text("#warnings")  # the broken plug-ins, named with their errors
        assert "game ghost cannot be loaded" in said and "No module named" in said
        assert "game refusing cannot be loaded" in said and "data file is missing" in said
        assert page.is_visible("#warnings")
        page.click(".cell.legal[data-row='0'][data-cell='4']")
        page.wait_for_function(
            "document.querySelector('#board').dataset.position === '000010/000000/5/0/1'"
        )
        assert "South to move" in page.inner_text("#status")


class TestTheGridEditor:
    def test_a_connect_four_position_is_set_cell_by_cell(self, page: Any) -> None:
        """Each click turns a cell to the next mark, checked live (a floating stone is refused
        with the game's message); used, the position is the board's."""
        open_board(page, "?game=connect4")
        page.click("#editor-box summary")
        check = "document.querySelector('#editor-check')"
        for cell, verdict in [
            ("5-0", "ok"),  # x at the bottom left
            ("3-0", "bad"),  # a second x, floating: too many x
            ("3-0", "bad"),  # an o, floating
            ("3-0", "ok"),  # empty again
            ("4-0", "bad"),  # x on x: too many x
            ("4-0", "ok"),  # o on x
        ]:
            page.evaluate(f"{check}.className = ''")
            page.click(f"#grid-{cell}")
            page.wait_for_function(f"{check}.className === '{verdict}'")
            if cell == "3-0" and page.inner_text("#grid-3-0") == "o":
                assert "floats" in page.inner_text("#editor-check")
        page.refusals = 3  # the three refused grids, as the browser logs each
        page.click("#editor-use")
        page.wait_for_function(
            "document.querySelector('#board').dataset.position.endsWith('/o....../x......')"
        )


class TestOptionsOnThePage:
    def test_a_game_with_options_stays_so_through_a_move_and_a_reload(self, page: Any) -> None:
        """Connect Four 5x4 from a link: its menu entry, a move, and a reload keep the options."""
        open_board(page, "?game=connect4%20width%3D5%20height%3D4")
        assert shown_position(page) == "...../...../...../....."
        assert page.eval_on_selector("#game", "e => e.value") == "connect4 width=5 height=4"
        page.click(".cell.legal[data-row='3'][data-cell='0']")
        page.wait_for_function(
            "document.querySelector('#board').dataset.position === '...../...../...../x....'"
        )
        page.reload()
        page.wait_for_selector("body[data-ready=yes]")
        assert shown_position(page) == "...../...../...../x...."
        assert page.eval_on_selector("#game", "e => e.value") == "connect4 width=5 height=4"
