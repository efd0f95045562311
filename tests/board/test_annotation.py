"""Annotating a game on the board page (Chromium): marks, comments, variations promoted,
deleted and walked by key; all of it in the record, read back by import and by review."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.board.browsing import CHROMIUM_TESTS, open_board, shown_position, wait_for
from tests.cli.conftest import Run
from zerosum.records import parse_record

pytestmark = CHROMIUM_TESTS

GAME = "game: tictactoe\n1. 4\n2. 0\n3. 8\n"


def import_record(page: Any, record: str) -> None:
    if not page.is_visible("#record-import"):
        page.click("#record-box summary")
    page.fill("#record-text", record)
    page.click("#record-import")
    wait_for(page, "document.querySelectorAll('#movelist .mv').length > 1")


def export_game(page: Any) -> str:
    page.fill("#record-text", "")
    page.click("#record-export")
    wait_for(page, "document.querySelector('#record-text').value.includes('game:')")
    return str(page.input_value("#record-text"))


def click_cell(page: Any, cell: int) -> None:
    before = shown_position(page)
    page.click(f".cell.legal[data-row='{cell // 3}'][data-cell='{cell % 3}']")
    wait_for(page, f"document.querySelector('#board').dataset.position !== {before!r}")


class TestAnnotation:
    def test_marks_comments_and_variations_go_into_the_record_and_come_back(
        self, page: Any, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        open_board(page, "?game=tictactoe")
        import_record(page, GAME)
        page.click("#movelist .mv[data-node='2']")  # 2. 0
        page.click("#nags button[data-nag='?']")
        page.fill("#comment-text", "the corner loses")
        assert page.inner_text("#movelist .mv[data-node='2'] .nag") == "?"
        page.click("#movelist .mv[data-node='1']")
        click_cell(page, 1)  # 2. 1 instead: a variation
        page.click("#nags button[data-nag='!']")
        click_cell(page, 0)  # 3. 0 in the variation
        record = export_game(page)
        assert "2. 0?  # the corner loses" in record and "(2. 1!" in record
        read = parse_record(record)
        assert read.annotations == {1: "?"} and read.comments == {1: "the corner loses"}
        assert read.variations[1][0].moves == ("1", "0")
        assert read.variations[1][0].annotations == {0: "!"}

        path = tmp_path / "game.txt"
        path.write_text(record)
        reviewed = run("review", str(path), "--json").json()
        assert reviewed["moves"][1]["annotation"] == "?"
        assert reviewed["moves"][1]["comment"] == "the corner loses"
        table = run("review", str(path)).out
        assert "annotated" in table and "? the corner loses" in table

        open_board(page, "?game=tictactoe")
        import_record(page, record.replace("3. 8", "3. 8!!"))
        wait_for(page, "document.querySelectorAll('#movelist .nag').length === 3")
        assert "the corner loses" in page.inner_text("#movelist")

    def test_variations_are_walked_by_key_promoted_and_deleted(self, page: Any) -> None:
        open_board(page, "?game=tictactoe")
        import_record(page, "game: tictactoe\n1. 4\n2. 0\n  (2. 1)\n  (2. 2)\n3. 8\n")
        page.click("#movelist .mv[data-node='2']")  # 2. 0, the main line
        main = shown_position(page)
        page.keyboard.press("ArrowDown")
        assert shown_position(page) == ".o./.x./..."
        page.keyboard.press("ArrowDown")
        second = shown_position(page)
        assert second == "..o/.x./..."
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
        assert shown_position(page) == main
        page.keyboard.press("ArrowDown")
        page.click("#promote")  # 2. 1 becomes the main line
        read = parse_record(export_game(page))
        assert read.moves == ("4", "1")
        assert [v.moves for v in read.variations[1]] == [("0", "8"), ("2",)]
        page.click("#delete-move")  # 2. 1 and all after it
        assert shown_position(page) == ".../.x./..."
        read = parse_record(export_game(page))
        assert read.moves == ("4", "0", "8")
        assert [v.moves for v in read.variations[1]] == [("2",)]
