"""The board page's smaller promises (Chromium): what it says while sowing, about refused
clicks, reviews and a server gone; the move list's numbers; the editor's order; exports."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.ayoayo import Ayoayo
from tests.board.browsing import (
    CHROMIUM_TESTS,
    click_pit,
    open_board,
    serve,
    wait_for,
)

pytestmark = CHROMIUM_TESTS

VARIATION = "game: tictactoe\n1. 4\n2. 0\n  (2. 1  # an edge\n   3. 0)\n3. 8\n"


def import_record(page: Any, record: str) -> None:
    page.click("#record-box summary")
    page.fill("#record-text", record)
    page.click("#record-import")
    wait_for(page, "document.querySelectorAll('#movelist .mv').length > 1")


def exported(page: Any, button: str) -> str:
    page.fill("#record-text", "")
    page.click(button)
    wait_for(page, "document.querySelector('#record-text').value.includes('game:')")
    return str(page.input_value("#record-text"))


class TestWhatThePageSays:
    def test_while_the_seeds_travel_the_status_names_the_next_player(self, page: Any) -> None:
        open_board(page, speed=40)
        page.click(".pit.legal[data-cell='2']")
        said = page.wait_for_function(
            "() => window.board.animating && document.querySelector('#status').textContent"
        ).json_value()
        assert "Player 2 to move" in said and "Player 1 to move" not in said
        wait_for(page, "!window.board.animating")

    def test_a_pit_that_cannot_be_played_says_why(self, page: Any) -> None:
        """Clicks on the other player's row and on an empty pit are refused in words."""
        open_board(page)
        page.click(".pit[data-row='1'][data-cell='3']")
        assert page.inner_text("#sowing") == "that is Player 2's row; Player 1 is to move"
        click_pit(page, 2)
        game = Ayoayo()
        empty = game.result(game.initial_state(), 2).board[1].index(0)
        page.click(f".pit[data-row='1'][data-cell='{empty}']")
        assert page.inner_text("#sowing") == f"cell {empty} is empty"

    def test_the_move_list_numbers_plies_apart_from_moves(self, page: Any) -> None:
        """``1. 2`` (ply 1, cell 2), not ``1.2``, which reads as a decimal."""
        open_board(page)
        click_pit(page, 2)
        assert page.inner_text("#movelist .mv[data-node='1']") == "1. 2"

    def test_the_review_says_whose_view_its_values_are(self, page: Any) -> None:
        open_board(page)
        import_record(page, "game: ayoayo\n1. 2\n2. 4\n3. 0\n4. 3\n5. 5\n")
        page.click("#review-run")
        wait_for(page, "document.querySelectorAll('#review-table tr').length === 6")
        header = page.inner_text("#review-table tr:first-child")
        assert "Player 1's view" in header
        marked = page.locator("#review-table tr[data-mark]:not([data-mark=''])")
        if marked.count():
            assert "→" in marked.first.inner_text()


class TestEditorAndExports:
    def test_the_editor_lists_the_pits_in_the_boards_order(self, page: Any) -> None:
        """Row by row, the editor's fields follow the board's pits from left to right, flipped
        too."""
        open_board(page)
        for flips in range(2):
            if flips:
                page.click("#editor-box summary")
                page.keyboard.press("f")
            page.click("#editor-box summary")
            top_left = f"edit-{1 - flips}-{5 * (1 - flips)}"
            wait_for(page, "document.querySelector('#editor-box').open && "
                     f"document.querySelector('#editor input')?.id === {top_left!r}")  # fmt: skip
            order = page.evaluate(
                """() => [...document.querySelectorAll('#editor input')]
                    .filter(e => /^edit-[01]-[0-5]$/.test(e.id)).map(e => e.id.slice(5))"""
            )
            drawn = page.evaluate(
                """() => [...document.querySelectorAll('#board .pit')].map(g => {
                    const c = g.querySelector('circle.hole');
                    return [Number(c.getAttribute('cy')), Number(c.getAttribute('cx')),
                            `${g.dataset.row}-${g.dataset.cell}`];
                }).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(p => p[2])"""
            )
            assert order == drawn

    def test_export_this_line_exports_only_the_line(self, page: Any) -> None:
        open_board(page, "?game=tictactoe")
        import_record(page, VARIATION)
        page.keyboard.press("End")
        line = exported(page, "#record-export-line")
        assert "(" not in line and "3. 8" in line
        whole = exported(page, "#record-export")
        assert "(2. 1  # an edge" in whole


class TestServerGone:
    def test_a_stopped_server_is_said_in_words(
        self, browser: Any, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        """No stale analysis and no raw 'Failed to fetch' once the server has stopped."""
        server = serve(tmp_path_factory, "--no-tablebase")
        url = next(server)
        context = browser.new_context(viewport={"width": 1280, "height": 820})
        try:
            page = context.new_page()
            page.base = url
            open_board(page)
            wait_for(page, "document.querySelector('#move-values tbody tr') !== null")
            time.sleep(2)  # the server's workers all started: Ctrl-C during their start-up is
            # another matter (a worker's traceback in the server's log)
            server.close()  # Ctrl-C to the server
            wait_for(page, "document.querySelector('#engine-summary').textContent"
                     ".includes('does not answer')", timeout=10_000)  # fmt: skip
            assert page.locator("#move-values tbody tr").count() == 0
            page.click(".pit.legal[data-cell='2']")
            wait_for(page, "document.querySelector('#sowing').textContent"
                     ".includes('does not answer')")  # fmt: skip
            assert "Failed to fetch" not in page.inner_text("body")
        finally:
            context.close()


class TestEditingOnTheBoard:
    def test_pits_clicked_add_and_remove_seeds_checked_live(self, page: Any) -> None:
        """A click adds a seed (49: refused at once), a right-click and a shift-click take one
        away; the position made is the one used."""
        open_board(page)
        page.refusals = 5  # 49 seeds, then 47, 46, 45 and 44 before the captured seeds are set
        page.click("#editor-box summary")
        page.check("#edit-on-board")
        assert page.get_attribute("#board", "data-editing") == "yes"
        page.click(".pit[data-row='1'][data-cell='5']")
        assert page.input_value("#edit-1-5") == "5"
        assert page.get_attribute(".pit[data-row='1'][data-cell='5']", "data-count") == "5"
        wait_for(page, "document.querySelector('#editor-check').className === 'bad'")
        assert "49" in page.inner_text("#editor-check")
        page.click(".pit[data-row='1'][data-cell='5']", button="right")
        page.click(".pit[data-row='1'][data-cell='5']", modifiers=["Shift"])
        for _ in range(3):
            page.click(".pit[data-row='1'][data-cell='5']", button="right")
        assert page.input_value("#edit-1-5") == "0"
        page.fill("#edit-cap-1", "4")
        wait_for(page, "document.querySelector('#editor-check').className === 'ok'")
        page.click("#editor-use")
        expected = "[[4,4,4,4,4,4],[4,4,4,4,4,0]] captured 0,4 to-move 0"
        wait_for(page, f"document.querySelector('#board').dataset.position === {expected!r}")
        assert page.get_attribute("#board", "data-editing") == "no"
