"""Tests for the play package under odd input and interruption: bad specs, unaffordable agents,
Ctrl-C inside a game or a match, bounded submission and worker counts."""

from __future__ import annotations

import concurrent.futures
import random
import signal
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import load_game
from play import (
    MAX_AGENT_DEPTH,
    AgentError,
    EngineAgent,
    MatchInterrupted,
    MatchResult,
    check_agents,
    max_workers,
    parse_agent,
    play_game,
    run_match,
)
from solver.tree_size import tree_sizes
from solver.workers import LOOK_AHEAD

requires_main_thread = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signals reach only the main thread",
)


class InterruptingTicTacToe:
    """Tic-tac-toe whose evaluation sends this process a Ctrl-C on its ``after``-th call."""

    def __init__(self, after: int) -> None:
        self.inner: Any = load_game("tictactoe")
        self.name = "tictactoe"
        self.calls = 0
        self.after = after

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def evaluate(self, state: Any) -> float:
        self.calls += 1
        if self.calls == self.after:
            signal.raise_signal(signal.SIGINT)
        return 0.0


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """A thread pool that records the most tasks submitted and not yet finished."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.lock = threading.Lock()
        self.open = 0
        self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.open += 1
            self.most = max(self.most, self.open)
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Any) -> None:
        with self.lock:
            self.open -= 1


class TestAgentSpecs:
    @pytest.mark.parametrize(
        "spec",
        [
            "minimax:²",
            "minimax:٣",
            "engine:d²",
            "minimax:-1",
            "minimax:0",
            "alphabeta:1.5",
            f"minimax:{MAX_AGENT_DEPTH + 1}",
            "minimax:" + "9" * 5000,
            "engine:d" + "9" * 5000,
        ],
    )
    def test_bad_depths_are_refused_with_the_valid_range(self, spec: str) -> None:
        """A depth that is not ASCII digits from 1 to the maximum is refused, saying so."""
        with pytest.raises(AgentError, match=r"bad depth .* from 1 to 10,000") as caught:
            parse_agent(spec)
        assert len(str(caught.value)) < 300

    @pytest.mark.parametrize(
        "spec", ["engine:1e400", "engine:inf", "engine:nan", "engine:-1", "engine:0", "engine:٣"]
    )
    def test_bad_times_are_refused(self, spec: str) -> None:
        """A time that is not a finite decimal above 0 and at most a day is refused."""
        with pytest.raises(AgentError, match="bad time"):
            parse_agent(spec)

    def test_a_long_unknown_spec_is_quoted_by_its_beginning(self) -> None:
        """An unknown 100 KB spec is quoted by a prefix and its length, not echoed whole."""
        with pytest.raises(AgentError, match=r"unknown agent .*… \(100,000 characters\)") as caught:
            parse_agent("x" * 100_000)
        assert len(str(caught.value)) < 300

    @given(st.text(max_size=40))
    def test_any_text_gives_an_agent_or_an_agent_error(self, spec: str) -> None:
        """No spec makes the parser raise anything but AgentError."""
        try:
            agent = parse_agent(spec)
        except AgentError:
            return
        assert agent.name


class TestAffordableAgents:
    def test_tree_sizes_count_a_small_tree_exactly(self) -> None:
        """On a uniform tree every random line sees the same widths: the estimate is exact."""
        game = load_game("textbook", tree=[[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
        assert tree_sizes(game, game.initial_state(), 3, random.Random(1)) == [1, 3, 7, 15]

    def test_a_depth_the_game_never_reaches_is_accepted(self) -> None:
        """minimax:100 on tic-tac-toe is the full game tree (nine plies): affordable."""
        check_agents(load_game("tictactoe"), [parse_agent("minimax:100")])

    def test_an_unaffordable_depth_is_refused_with_the_deepest_that_fits(self) -> None:
        """minimax:100 on Ayòayò is refused, naming the deepest depth that fits."""
        with pytest.raises(AgentError, match=r"cannot finish .* use depth \d+ at most"):
            run_match(load_game("ayoayo"), "minimax:100", "random", games=1)

    def test_play_game_checks_the_agents(self) -> None:
        """A single game refuses an unaffordable agent too."""
        with pytest.raises(AgentError, match="cannot finish"):
            play_game(load_game("ayoayo"), ["random", "alphabeta:60"], random.Random(0))


@requires_main_thread
class TestInterruption:
    def test_ctrl_c_in_an_engine_agent_ends_the_game(self) -> None:
        """Ctrl-C inside the engine's search ends the game instead of playing a shallower move."""
        game = InterruptingTicTacToe(after=50)
        with pytest.raises(KeyboardInterrupt):
            play_game(game, [EngineAgent(seconds=30), "random"], random.Random(0))
        assert game.calls >= 50

    def test_ctrl_c_in_a_match_reports_the_finished_games(self) -> None:
        """An interrupted match raises MatchInterrupted holding the games that finished."""
        game = InterruptingTicTacToe(after=400)
        with pytest.raises(MatchInterrupted) as caught:
            run_match(game, EngineAgent(depth=2), "random", games=50, chunk_size=1)
        partial = caught.value.result
        assert isinstance(partial, MatchResult)
        assert 0 < partial.games < 50 and partial.requested == 50 and not partial.complete
        assert f"{partial.games} of 50 games" in repr(partial)

    def test_the_engine_interruption_guard_restores_the_handler(self) -> None:
        """After an agent's search the SIGINT handler is the one that was there before."""
        before = signal.getsignal(signal.SIGINT)
        play_game(load_game("tictactoe"), [EngineAgent(depth=1), "random"], random.Random(0))
        assert signal.getsignal(signal.SIGINT) is before


class TestSubmission:
    def test_chunks_are_submitted_a_few_per_worker_ahead(self) -> None:
        """An executor never holds more than LOOK_AHEAD chunks per worker at once."""
        with CountingExecutor() as pool:
            result = run_match(
                load_game("tictactoe"),
                "random",
                "random",
                games=200,
                workers=2,
                executor=pool,
                chunk_size=1,
            )
        assert result.games == 200
        assert pool.most <= LOOK_AHEAD * 2

    def test_counts_without_outcomes_match_counts_with_them(self) -> None:
        """keep_outcomes=False keeps no per-game records and the same counts."""
        game: Any = load_game("tictactoe")
        kept = run_match(game, "random", "minimax:1", games=40, seed=3, swap=True)
        counted = run_match(
            game, "random", "minimax:1", games=40, seed=3, swap=True, keep_outcomes=False
        )
        assert counted.outcomes == () and len(kept.outcomes) == 40
        assert counted.tallies == kept.tallies
        assert (counted.wins, counted.draws, counted.average_plies) == (
            kept.wins,
            kept.draws,
            kept.average_plies,
        )

    def test_no_more_workers_than_chunks(self) -> None:
        """Two games with fifty workers asked for start at most two processes."""
        result = run_match(load_game("tictactoe"), "random", "random", games=2, workers=50)
        assert (result.games, result.workers) == (2, 2)

    @pytest.mark.parametrize("workers", [10**100, max_workers() + 1])
    def test_absurd_worker_counts_are_refused(self, workers: int) -> None:
        """More workers than four per CPU (with work for them all) is refused, saying why."""
        with pytest.raises(AgentError, match=r"bad number of workers .*four per CPU") as caught:
            run_match(
                load_game("tictactoe"),
                "random",
                "random",
                games=10**6,
                workers=workers,
                chunk_size=1,
            )
        assert len(str(caught.value)) < 300

    def test_a_short_repr(self) -> None:
        """A result's repr is one short line, however many games."""
        result = run_match(load_game("tictactoe"), "random", "random", games=300)
        assert len(repr(result)) < 200 and "300 games" in repr(result)
