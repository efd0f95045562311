"""Whole games on the board page (Chromium): against the computer, to the game's end, kept."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.ayoayo import Ayoayo
from play import HumanAgent, play_game
from tests.board.browsing import CHROMIUM_TESTS, click_pit, open_board, shown_position, wait_for
from tests.cli.conftest import Run
from zerosum.records import parse_record
from zerosum.report import outcome, repetition_said

pytestmark = CHROMIUM_TESTS

CYCLE = "[[2,0,1,0,1,0],[1,1,0,1,0,1]] captured 24,16 to-move 0"
"""Cell 0, then cell 0 again, comes back to this position."""

LAST_MOVE = "[[1,0,0,1,0,3],[3,0,0,0,0,0]] captured 20,20 to-move 0"
"""Cell 0 ends the game with 4 seeds left on the board."""


def against_computer(page: Any, level: str, seat: str = "1") -> None:
    page.click("#play-box summary")
    page.select_option("#level", level)
    page.select_option("#computer", seat)


def moves_shown(page: Any) -> int:
    return int(page.locator("#movelist .mv").count()) - 1  # the start is listed too


def export_record(page: Any) -> str:
    page.click("#record-box summary")
    page.fill("#record-text", "")
    page.click("#record-export")
    wait_for(page, "document.querySelector('#record-text').value.includes('game:')")
    return str(page.input_value("#record-text"))


class TestAgainstTheComputer:
    def test_the_computers_pits_cannot_be_clicked_while_it_thinks(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """While the computer thinks, its row is not playable and a click on it is refused
        with the reason; the computer's own choice is then played."""
        game = Ayoayo()
        open_board(page)
        against_computer(page, "strong")
        assert page.get_attribute("#mode", "data-mode") == "game"
        # The computer may answer within milliseconds (its opening book), too soon for a poll
        # to see it think: an observer of the status clicks in the same turn of the page's
        # event loop as the status says "thinking", before any answer can arrive.
        page.evaluate(
            """() => {
                window.saidWhileThinking = null;
                const status = document.querySelector('#status');
                const seen = new MutationObserver(() => {
                    if (window.saidWhileThinking || !status.textContent.includes('thinking')) {
                        return;
                    }
                    const playable = document.querySelectorAll('.pit.legal').length;
                    document.querySelector(".pit[data-row='1'][data-cell='0']")
                        .dispatchEvent(new MouseEvent('click', {bubbles: true}));
                    window.saidWhileThinking = [
                        playable, document.querySelector('#sowing').textContent];
                    seen.disconnect();
                });
                seen.observe(status, {childList: true, characterData: true, subtree: true});
            }"""
        )
        click_pit(page, 2)
        said = page.wait_for_function("() => window.saidWhileThinking", timeout=20_000).json_value()
        assert said[0] == 0
        assert "the computer's: wait for its move" in said[1]
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 3")
        after = game.format_state(game.result(game.initial_state(), 2))
        best = run("analyse", "ayoayo", "-p", after, "--depth", "8", "--json").json()["best_move"]
        assert page.inner_text("#movelist .mv[data-node='2']").split(".")[1].strip() == best

    def test_a_takeback_goes_on_along_the_main_line(self, page: Any) -> None:
        """◀ takes back the last full turn; the new moves are the game's main line (the
        abandoned ones kept as a variation), and End goes to the game's last move."""
        game = Ayoayo()
        open_board(page)
        against_computer(page, "beginner")
        click_pit(page, 2)
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 3")
        page.keyboard.press("ArrowLeft")
        assert shown_position(page) == game.format_state(game.initial_state())
        click_pit(page, 4)
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 5")
        shown = shown_position(page)
        page.keyboard.press("Home")
        page.keyboard.press("End")
        assert shown_position(page) == shown
        record = parse_record(export_record(page))
        assert record.moves[0] == "4" and len(record.moves) == 2
        assert [v.moves[0] for v in record.variations[0]] == ["2"]

    def test_a_reload_goes_on_with_the_game_against_the_computer(self, page: Any) -> None:
        """The moves, the computer's side and its strength survive a reload; it answers on."""
        open_board(page)
        against_computer(page, "beginner")
        click_pit(page, 2)
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 3")
        page.reload()
        page.wait_for_selector("body[data-ready=yes]")
        page.eval_on_selector("#speed", "e => { e.value = '0'; }")
        assert page.get_attribute("#mode", "data-mode") == "game"
        assert page.input_value("#computer") == "1" and page.input_value("#level") == "beginner"
        assert moves_shown(page) == 2
        cell = int(page.locator(".pit.legal").first.get_attribute("data-cell") or "")
        click_pit(page, cell)
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 5")

    def test_the_page_says_which_mode_it_is_in(self, page: Any) -> None:
        """Analysis until the computer takes a side; a game against it from then on."""
        open_board(page)
        assert page.get_attribute("#mode", "data-mode") == "analysis"
        assert "variation" in page.inner_text("#mode")
        against_computer(page, "club", seat="0")
        assert "it plays Player 1 at club" in page.inner_text("#mode")
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 2")


class TestTheEndOfAGame:
    def test_a_repeated_position_ends_the_game_as_play_ends_it(
        self, page: Any, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """Back at a position already seen, the game is over with play's score and words;
        the record says the result, and review reviews the same plies."""
        game = Ayoayo()
        start = game.parse_state(CYCLE)
        moves = iter(["0", "0"])
        scripted = HumanAgent(ask=lambda prompt: next(moves), tell=print, show_position=False)
        played = play_game(game, [scripted, scripted], random.Random(0), state=start)
        assert played.ended == "repetition" and played.plies == 2
        expected = f"{outcome(game, played.score)} ({repetition_said(game)})"
        open_board(page, f"?game=ayoayo&position={CYCLE}")
        click_pit(page, 0)
        click_pit(page, 0)
        assert page.inner_text("#status").startswith(f"game over: {expected}")
        assert page.locator(".pit.legal").count() == 0
        assert not page.is_visible("#move-values")  # no moves left to value
        record = export_record(page)
        assert f"result: {expected}" in record
        path = tmp_path / "game.txt"
        path.write_text(record)
        assert len(run("review", str(path), "--json").json()["moves"]) == 2

    def test_a_game_against_the_computer_ended_by_a_capture_is_recorded_and_reviewed(
        self, page: Any, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """The last capture ends the game against the computer: the record has the result,
        and review reviews the same plies as the page."""
        open_board(page, f"?game=ayoayo&position={LAST_MOVE}")
        against_computer(page, "beginner")
        click_pit(page, 0)
        assert page.inner_text("#status").startswith("game over: Player 1 wins by 4")
        record = export_record(page)
        assert "result: Player 1 wins by 4" in record
        page.click("#review-run")
        wait_for(page, "document.querySelectorAll('#review-table tr[data-mark]').length === 1")
        path = tmp_path / "game.txt"
        path.write_text(record)
        cli = run("review", str(path), "--json").json()
        assert len(cli["moves"]) == 1 and cli["result"] == "Player 1 wins by 4"
        shown = page.get_attribute("#review-table tr[data-mark]", "data-mark")
        assert shown == cli["moves"][0]["mark"]

    def test_a_game_ended_by_its_rules_says_the_seeds_left_count_for_nobody(
        self, page: Any
    ) -> None:
        """The last move ends the game: the result, the seeds left, the hint cleared."""
        game = Ayoayo()
        open_board(page, f"?game=ayoayo&position={LAST_MOVE}")
        page.click("#play-box summary")
        page.click("#hint")
        wait_for(page, "document.querySelector('#hint-text').textContent.startsWith('try')")
        click_pit(page, 0)
        final = game.result(game.parse_state(LAST_MOVE), 0)
        status = page.inner_text("#status")
        assert f"game over: {outcome(game, game.utility(final))}" in status
        assert "the 4 seeds left on the board count for nobody" in status
        assert page.inner_text("#hint-text") == ""
        assert page.locator(".hint").count() == 0
        assert "result: Player 1 wins by 4" in export_record(page)
