"""The value history of a reviewed game and the outcome colours (Chromium)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.ayoayo import Ayoayo
from tests.board.browsing import CHROMIUM_TESTS, open_board, shown_position, wait_for
from tests.cli.conftest import Run

pytestmark = CHROMIUM_TESTS

RECORD = "game: ayoayo\n1. 2\n2. 4\n3. 0\n4. 3\n5. 5\n"


class TestValueChart:
    def test_the_charts_points_are_the_reviews_and_a_click_goes_to_the_move(
        self, page: Any, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        open_board(page)
        page.click("#record-box summary")
        page.fill("#record-text", RECORD)
        page.click("#record-import")
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 6")
        page.click("#review-run")
        wait_for(page, "document.querySelectorAll('#value-chart .point').length === 5")
        points = page.eval_on_selector_all(
            "#value-chart .point",
            "ps => ps.map(p => [Number(p.dataset.ply), Number(p.dataset.value), p.dataset.mark])",
        )
        path = tmp_path / "game.txt"
        path.write_text(RECORD)
        cli = run("review", str(path), "--json").json()["moves"]
        assert points == [[m["ply"], m["value"], m["mark"]] for m in cli]
        page.click("#value-chart .point[data-ply='3']")
        game = Ayoayo()
        state = game.initial_state()
        for cell in (2, 4, 0):
            state = game.result(state, cell)
        assert shown_position(page) == game.format_state(state)


class TestOutcomeColours:
    def test_each_move_is_coloured_by_its_outcome_for_the_mover(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """Solved tic-tac-toe: O to move, each move's colour is the sign of its value for O."""
        open_board(page, "?game=tictactoe&position=x.o/.x./...")
        wait_for(page, "document.querySelector('#engine-stats').textContent.includes('finished')")
        cli = run("analyse", "tictactoe", "-p", "x.o/.x./...", "--json").json()
        for m in cli["moves"]:
            own = -m["value"]  # O is player 1: values are player 0's
            expected = "win" if own > 0 else "loss" if own < 0 else "draw"
            row = page.locator(f"#move-values tbody tr[data-move='{m['move']}']")
            assert row.get_attribute("data-outcome") == expected, m
            assert row.get_attribute("data-exact") == "yes"
        assert "proven" in page.inner_text("#legend")

    def test_the_pits_are_ringed_in_their_moves_colour(self, page: Any) -> None:
        open_board(page)
        wait_for(page, "Number(document.querySelector('#move-values').dataset.depth) >= 4")
        pairs = page.evaluate(
            """() => [...document.querySelectorAll('#move-values tbody tr')].map(tr => [
                tr.dataset.outcome,
                document.querySelector(`.pit.legal[data-row='0'][data-cell='${tr.dataset.move}']`)
                    .dataset.outcome])"""
        )
        assert len(pairs) == 6 and all(a == b and a for a, b in pairs), pairs
