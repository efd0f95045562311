"""Nothing is lost on the board page (Chromium): a reload, links with moves, bad links, a new
game replacing one with moves."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from games.ayoayo import Ayoayo
from tests.board.browsing import CHROMIUM_TESTS, click_pit, open_board, shown_position, wait_for
from zerosum.records import parse_record

pytestmark = CHROMIUM_TESTS

RECORD = """game: ayoayo
event: club night
date: 2026-11-27
players: Ada, Bola

1. 2
2. 4  # a comment
  (2. 1)
3. 0
"""


def import_record(page: Any, record: str) -> None:
    page.click("#record-box summary")
    page.fill("#record-text", record)
    page.click("#record-import")
    wait_for(page, "document.querySelectorAll('#movelist .mv').length > 1")


def export_record(page: Any) -> str:
    if not page.is_visible("#record-export"):
        page.click("#record-box summary")
    page.fill("#record-text", "")
    page.click("#record-export")
    wait_for(page, "document.querySelector('#record-text').value.includes('game:')")
    return str(page.input_value("#record-text"))


class TestReload:
    def test_a_reload_keeps_moves_variations_comments_headers_and_the_move_shown(
        self, page: Any
    ) -> None:
        open_board(page)
        import_record(page, RECORD)
        page.click("#movelist .mv[data-node='2']")
        shown = shown_position(page)
        before = export_record(page)
        page.reload()
        page.wait_for_selector("body[data-ready=yes]")
        assert shown_position(page) == shown
        assert page.locator("#movelist .variation").count() == 1
        after = export_record(page)
        assert after == before
        kept = parse_record(after)
        assert dict(kept.headers) == {
            "event": "club night",
            "date": "2026-11-27",
            "players": "Ada, Bola",
        }
        assert kept.comments == {1: "a comment"}


class TestLinks:
    def test_a_link_with_moves_opens_the_game_at_its_last_move(self, page: Any) -> None:
        """``?moves=2+4+0`` plays those moves from the start; the address keeps them."""
        game = Ayoayo()
        state = game.initial_state()
        for cell in (2, 4, 0):
            state = game.result(state, cell)
        open_board(page, "?game=ayoayo&moves=2+4+0")
        assert shown_position(page) == game.format_state(state)
        assert page.locator("#movelist .mv").count() == 4
        page.keyboard.press("ArrowLeft")
        assert "moves=2+4" in page.url and "moves=2+4+0" not in page.url

    def test_a_bad_position_in_a_link_says_what_was_wrong(self, page: Any) -> None:
        """47 seeds: the start is shown with the reason in sight, and the link is kept."""
        bad = "[[4,4,4,4,4,4],[4,4,4,4,4,3]]"
        page.refusals = 1
        open_board(page, f"?game=ayoayo&position={bad}")
        error = page.locator("#link-error")
        assert error.is_visible()
        assert "could not open the link's position" in error.inner_text()
        assert "make 47, not 48" in error.inner_text()
        assert bad in unquote(page.url)  # the link stays as it was, to be corrected

    def test_an_illegal_move_in_a_link_is_named(self, page: Any) -> None:
        page.refusals = 1
        open_board(page, "?game=ayoayo&moves=2+9")
        error = page.inner_text("#link-error")
        assert "could not open the link's game" in error and "move 2 ('9')" in error


class TestNewGames:
    def test_a_new_game_keeps_the_one_it_replaces(self, page: Any) -> None:
        """Changing the game menu does not lose the moves: one click brings them back."""
        open_board(page)
        click_pit(page, 2)
        click_pit(page, 4)
        shown = shown_position(page)
        page.select_option("#game", "tictactoe")
        wait_for(page, "document.querySelector('#board').dataset.position === '.../.../...'")
        restore = page.locator("#restore-previous")
        assert restore.is_visible() and "ayoayo, 2 moves" in restore.inner_text()
        restore.click()
        wait_for(page, f"document.querySelector('#board').dataset.position === {shown!r}")
        assert page.locator("#movelist .mv").count() == 3
