"""A search to the end that is out of reach is refused up front (issue 29, item 4)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from games import load_game
from tests.cli.conftest import Run
from zerosum.reach import OUT_OF_REACH, SLOW, end_search_cost


class TestTheEstimate:
    def test_connect_four_is_out_of_reach_and_tictactoe_is_not(self) -> None:
        """The standard board is estimated over the limit; tic-tac-toe under the warning."""
        big = load_game("connect4")
        small = load_game("tictactoe")
        cost = end_search_cost(big, big.initial_state())
        assert cost is not None and cost.visits > OUT_OF_REACH
        assert cost.positions == 4_531_985_219_092
        tiny = end_search_cost(small, small.initial_state())
        assert tiny is not None and tiny.visits < SLOW and tiny.positions is None

    def test_the_positions_bound_only_a_search_with_a_table(self) -> None:
        """A teaching minimax keeps no table: the game's position count does not bound it."""
        game = load_game("connect4")
        state = game.parse_state("4455")
        teaching = end_search_cost(game, state, prunes=False, table=False)
        engine = end_search_cost(game, state, prunes=False, table=True)
        assert teaching is not None and engine is not None
        assert teaching.visits == teaching.tree > engine.visits == 4_531_985_219_092

    def test_a_game_with_chance_is_not_estimated(self) -> None:
        """Hog's searches are expectations: no estimate, and no refusal from it."""
        game = load_game("hog")
        assert end_search_cost(game, game.initial_state()) is None


class TestBest:
    def test_connect_four_without_a_limit_is_refused_at_once(self, run: Callable[..., Run]) -> None:
        """The refusal names the estimate, the game's size and what helps, within a second."""
        began = time.perf_counter()
        refused = run("best", "connect4")
        assert time.perf_counter() - began < 1.5
        assert refused.code == 2 and refused.out == ""
        for said in ("to the end", "4,531,985,219,092 positions", "--depth N or --time S"):
            assert said in refused.err
        assert "'gamesolver analyse connect4'" in refused.err

    def test_the_teaching_searches_are_told_depth_only(self, run: Callable[..., Run]) -> None:
        """minimax takes no --time, and its refusal does not offer it."""
        refused = run("best", "connect4", "-p", "4455", "-a", "minimax")
        assert refused.code == 2 and "give --depth N, or" in refused.err
        assert "--position P" in refused.err and "full-width" in refused.err

    def test_the_game_options_are_in_what_to_run_instead(self, run: Callable[..., Run]) -> None:
        """Options given are repeated in the commands suggested."""
        refused = run("best", "connect4", "-O", "width=6", "-O", "height=5")
        assert refused.code == 2
        assert "'gamesolver analyse connect4 -O width=6 -O height=5'" in refused.err

    def test_a_limit_lets_the_search_run(self, run: Callable[..., Run]) -> None:
        """--depth or --time bound the search: no refusal, no warning."""
        for limit in (["--depth", "2"], ["--time", "0.1"]):
            answer = run("best", "connect4", *limit, "--json")
            assert answer.code == 0 and answer.err == "" and answer.json()["best_move"]

    def test_tictactoe_stays_silent(self, run: Callable[..., Run]) -> None:
        """A small game is searched to the end with nothing said on stderr."""
        answer = run("best", "tictactoe")
        assert answer.code == 0 and answer.err == "" and "draw" in answer.out

    def test_a_game_over_is_not_estimated(self, run: Callable[..., Run]) -> None:
        """A finished position has nothing to search: no refusal."""
        answer = run("best", "connect4", "-p", "1212121")
        assert answer.code == 0 and "X wins" in answer.out

    def test_a_slow_search_is_warned_about_and_runs(
        self, run: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Between the warning and the refusal the search runs after a line on stderr."""
        monkeypatch.setattr("zerosum.commands.best.SLOW", 100)
        answer = run("best", "tictactoe", "--json")
        assert answer.code == 0 and answer.json()["value"] == 0
        assert answer.err.startswith("warning: a search of tictactoe to the end")
        assert "can take minutes" in answer.err
