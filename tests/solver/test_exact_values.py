"""Exact values of many positions, value only: the compiled route's one entry a position."""

from __future__ import annotations

import pytest

from games import load_game
from games.connect4 import ConnectFour
from solver import compiled
from solver.compiled import numba_available
from solver.engine import search
from solver.exact_values import ExactValues
from solver.node_search import SearchStopped
from tests.solver.test_compiled import positions


def late_positions(count: int, seed: int, least: int = 24) -> list[int]:
    """Non-terminal 7x6 positions after ``least`` to 32 random moves (seeded)."""
    return positions(count, seed, least, 32)


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
class TestOnTheCompiledRoute:
    @pytest.mark.parametrize("scored", [False, True])
    def test_the_values_are_the_engines(self, scored: bool) -> None:
        """Late positions and finished games: the engine's exact values, on the kernel."""
        game = ConnectFour(scored=scored)
        solver = ExactValues(game)
        assert solver.compiled
        finished = [game.parse_state(moves) for moves in ("1212121", "4455667", "12121232")]
        for state in late_positions(30, seed=7) + finished:
            assert solver.value(state) == search(game, state, plies=False).value

    def test_each_position_is_solved_as_if_alone(self) -> None:
        """The table is as good as fresh for each position: solved in the reverse order, each
        position takes the same nodes."""
        game = ConnectFour(scored=True)
        states = late_positions(12, seed=8, least=18)
        solver = ExactValues(game)
        forward = [(solver.value(s), solver.nodes) for s in states]
        backward = [(solver.value(s), solver.nodes) for s in reversed(states)]
        assert forward == backward[::-1]
        assert max(nodes for _, nodes in forward) > 100  # searched with the table, not at once


class TestWithoutTheKernel:
    def test_a_game_off_the_route_is_valued_by_the_engine(self) -> None:
        """Tic-tac-toe has no compiled rules: the engine's values, every reachable kind."""
        game = load_game("tictactoe")
        solver = ExactValues(game)
        assert not solver.compiled
        for text, value in [("xx./oo./...", 1), ("xo./.x./...", 1), ("xxo/oox/x..", 0)]:
            assert solver.value(game.parse_state(text)) == value
        assert solver.value(game.initial_state()) == 0

    def test_numba_switched_off_gives_the_same_values(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game = ConnectFour(scored=True)
        states = late_positions(4, seed=9, least=30)
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        solver = ExactValues(game)
        assert not solver.compiled
        for state in states:
            assert solver.value(state) == search(game, state, plies=False, native=False).value


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
class TestNodeBudgets:
    def test_a_search_stopped_by_its_budget_goes_on_where_it_was(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A search to the end returns to Python after each node budget and is called again:
        its null windows go on from the interval they had left, so the stops cost a few nodes
        each (started over, they cost tens of thousands: 3-5x the nodes in all)."""
        game = ConnectFour(scored=True)
        state = game.parse_state("5633126762217")  # 13 stones: ~160,000 nodes
        whole = ExactValues(game)
        assert whole._search is not None
        whole._search.budget = 1 << 62  # never stopped
        value = whole.value(state)
        monkeypatch.setattr(compiled, "KERNEL_CHECK_NODES", 4096)
        stopped = ExactValues(game)
        calls = []
        kernel = stopped._search.kernel  # type: ignore[union-attr]

        def counted(*args: object) -> object:
            calls.append(1)
            return kernel(*args)

        stopped._search.kernel = counted  # type: ignore[union-attr]
        assert stopped.value(state) == value
        assert len(calls) >= 3
        assert stopped.nodes <= whole.nodes + 200 * len(calls)

    def test_a_search_within_its_budget_is_one_kernel_call(self) -> None:
        """A position the kernel settles within one node budget costs one kernel entry and no
        pass of the resuming loop; its value and nodes are those of the same search resumed
        after every 4,096 nodes."""
        game = ConnectFour(scored=True)
        states = late_positions(6, seed=11)
        solver = ExactValues(game)
        assert solver._search is not None
        kernel = solver._search.kernel
        calls: list[int] = []

        def counted(*args: object) -> object:
            calls.append(1)
            return kernel(*args)

        solver._search.kernel = counted
        solver._search.resumed = None  # type: ignore[assignment,method-assign]
        found = []
        for state in states:
            calls.clear()
            found.append((solver.value(state), solver.nodes))
            assert calls == [1]
        small = ExactValues(game)
        assert small._search is not None
        small._search.budget = 4096
        assert [(small.value(s), small.nodes) for s in states] == found


class TestNodeLimit:
    @pytest.mark.parametrize("native", ["1", "0"])
    def test_a_position_beyond_the_limit_stops_and_the_next_is_solved(
        self, native: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A position needing more nodes than the limit raises SearchStopped, on the kernel and
        in the engine alike; the positions after it are solved as before, within the limit."""
        monkeypatch.setenv("GAMESOLVER_NATIVE", native)
        game = ConnectFour(scored=True)
        long = game.parse_state("5633126762217")  # 13 stones: ~160,000 nodes on the kernel
        short = late_positions(3, seed=12, least=30)
        solver = ExactValues(game, node_limit=5_000)
        assert solver.compiled == (native == "1" and numba_available())
        with pytest.raises(SearchStopped):
            solver.value(long)
        assert solver.nodes < 40_000
        for state in short:
            assert solver.value(state) == search(game, state, plies=False).value
