"""The value history of a reviewed game and the outcome colours (Chromium)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo
from tests.board.browsing import (
    CHROMIUM_TESTS,
    open_board,
    open_page,
    serve,
    shown_position,
    wait_for,
)
from tests.cli.conftest import Run

pytestmark = CHROMIUM_TESTS

SOLVED = "[[1,0,0,1,0,0],[1,0,0,1,0,0]] captured 24,20 to-move 0"
"""Four seeds, in the tablebase: cell 0 wins by 4, cell 3 draws."""


@pytest.fixture(scope="module")
def tablebase_server(tmp_path_factory: pytest.TempPathFactory, tablebase_dir: str) -> Iterator[str]:
    """The board reading a 4-seed tablebase (conftest's); its URL."""
    yield from serve(tmp_path_factory, "--tablebase-dir", tablebase_dir)


@pytest.fixture
def tablebase_page(browser: Any, tablebase_server: str) -> Iterator[Any]:
    yield from open_page(browser, tablebase_server)


ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"
"""A middle-game position (the article's): no book, no tablebase, an estimate."""

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


class TestEvaluations:
    def test_a_horizon_value_is_an_evaluation_rounded_to_two_decimals(self, page: Any) -> None:
        """Connect Four's heuristic (e.g. -0.0194117...) shows as ``evaluation -0.02``, its
        moves' values and the bar's title rounded as ``gamesolver`` rounds them."""
        open_board(page, "?game=connect4")
        wait_for(page, "Number(document.querySelector('#move-values').dataset.depth) >= 3")
        summary = page.inner_text("#engine-summary")
        assert summary.startswith("evaluation "), summary
        assert "better at the horizon" in summary or "level at the horizon" in summary, summary
        cells = page.eval_on_selector_all(
            "#move-values tbody tr td:nth-child(2)", "tds => tds.map(td => td.textContent)"
        )
        assert cells and all(re.fullmatch(r"0|[+−]\d+(\.\d{1,2})?|[+−]0\.00?\d", c) for c in cells)
        title = page.get_attribute("#evalbar", "title")
        assert re.fullmatch(r"evaluation (0|[+−][\d.]{1,4}) .*", title), title


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

    def test_the_pits_of_a_solved_position_are_ringed_in_their_moves_colour(
        self, tablebase_page: Any
    ) -> None:
        """Read from the tablebase: each playable pit has its row's outcome, drawn in that
        outcome's colour; an estimate is not coloured."""
        page = tablebase_page
        open_board(page, f"?game=ayoayo&position={SOLVED}")
        wait_for(page, "document.querySelector('#engine-stats').textContent.includes('tablebase')")
        pairs = page.evaluate(
            """() => [...document.querySelectorAll('#move-values tbody tr')].map(tr => {
                const pit = document.querySelector(
                    `.pit.legal[data-row='0'][data-cell='${tr.dataset.move}']`);
                const css = getComputedStyle(document.documentElement);
                return [tr.dataset.outcome, tr.dataset.exact, pit.dataset.outcome,
                        getComputedStyle(pit.querySelector('circle.hole')).stroke,
                        css.getPropertyValue('--' + tr.dataset.outcome).trim()];
            })"""
        )
        assert [p[0] for p in pairs] == ["win", "draw"]
        assert all(row == pit and exact == "yes" for row, exact, pit, _, _ in pairs)
        for _, _, _, stroke, colour in pairs:
            red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
            assert stroke == f"rgb({red}, {green}, {blue})"
        open_board(page, f"?game=ayoayo&position={ARTICLE}")
        wait_for(page, "Number(document.querySelector('#move-values').dataset.depth) >= 4")
        ring = page.evaluate(
            "getComputedStyle(document.querySelector('.pit.legal circle.hole')).stroke"
        )
        assert ring == "rgb(255, 213, 79)"  # the playable pit's plain ring

    def test_the_start_is_shown_solved_from_the_opening_book(self, tablebase_page: Any) -> None:
        """Beside levels of the book's lineage (0 and 4 here) the start is solved: the value
        and outcome are the proved ones, every move's row says proved with its proved value,
        exact, and the pits are ringed in their outcome (every move loses for Player 1)."""
        page = tablebase_page
        open_board(page, "?game=ayoayo")
        wait_for(page, "document.querySelector('#engine-summary .solved') !== null")
        summary = page.inner_text("#engine-summary")
        assert "value −4" in summary and "Player 2 wins by 4 solved (opening book)" in summary
        rows = page.evaluate(
            """() => [...document.querySelectorAll('#move-values tbody tr')].map(tr =>
                [tr.dataset.move, tr.cells[1].textContent, tr.cells[2].textContent,
                 tr.dataset.exact, tr.dataset.outcome])"""
        )
        proved = {"0": "−12", "1": "−12", "2": "−4", "3": "−4", "4": "−4", "5": "−4"}
        assert {move: value for move, value, *_ in rows} == proved
        assert all(r[2:] == ["proved (opening book)", "yes", "loss"] for r in rows), rows
        rings = page.eval_on_selector_all(".pit.legal", "ps => ps.map(p => p.dataset.outcome)")
        assert rings == ["loss"] * 6
