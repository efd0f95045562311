"""Tests for the retrograde core: small graphs solved by hand and by brute force over strategies."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.retrograde import ENDLESS, RetrogradeResult, solve_graph

# A move is ("node", child) inside the graph or ("exit", value for player 0) out of it.
Move = tuple[str, float]


class ExplicitGame:
    """A graph game with players: node ``u`` belongs to ``player[u]``; values player 0's view.

    ``moves[u]`` lists ``("node", v)`` and ``("exit", value)`` moves; a node without moves is
    terminal and worth ``terminal[u]``; endless play through ``u`` scores ``endless[u]``.
    """

    def __init__(
        self,
        player: Sequence[int],
        moves: Sequence[Sequence[Move]],
        endless: Sequence[float],
        terminal: Sequence[float] | None = None,
    ) -> None:
        self.player = list(player)
        self.moves = [list(m) for m in moves]
        self.endless = list(endless)
        self.terminal = list(terminal) if terminal is not None else [0.0] * len(player)

    def sign(self, u: int) -> int:
        return 1 if self.player[u] == 0 else -1

    def solve(self) -> RetrogradeResult:
        """The core's answer, converted in and out of the mover's view."""
        indptr, targets, same, eptr, evalues = [0], [], [], [0], []
        for u, moves in enumerate(self.moves):
            for kind, x in moves:
                if kind == "node":
                    targets.append(int(x))
                    same.append(self.player[int(x)] == self.player[u])
                else:
                    evalues.append(self.sign(u) * x)
            indptr.append(len(targets))
            eptr.append(len(evalues))
        n = len(self.player)
        signs = np.array([self.sign(u) for u in range(n)], dtype=float)
        return solve_graph(
            np.array(indptr),
            np.array(targets, dtype=np.int64),
            signs * np.array(self.endless, dtype=float),
            same_mover=np.array(same, dtype=bool),
            exit_indptr=np.array(eptr),
            exit_values=np.array(evalues, dtype=float),
            terminal_values=signs * np.array(self.terminal, dtype=float),
        )

    def values_player0(self) -> list[float]:
        result = self.solve()
        return [self.sign(u) * float(result.value[u]) for u in range(len(self.player))]

    def brute_force(self) -> list[float]:
        """Values by max-min over positional strategies (the games are positionally determined).

        A pair of positional strategies gives from each start a lasso: a path that ends at an
        exit or a terminal, or runs into a cycle and scores that cycle's endless value.
        """
        n = len(self.player)
        choice_sets = [range(len(m)) if m else range(1) for m in self.moves]
        mine = [u for u in range(n) if self.player[u] == 0]
        theirs = [u for u in range(n) if self.player[u] == 1]
        best = [-np.inf] * n
        for sigma in itertools.product(*(choice_sets[u] for u in mine)):
            worst = [np.inf] * n
            for tau in itertools.product(*(choice_sets[u] for u in theirs)):
                pick = dict(zip(mine, sigma, strict=True))
                pick.update(zip(theirs, tau, strict=True))
                for start in range(n):
                    worst[start] = min(worst[start], self._play(start, pick))
            best = [max(b, w) for b, w in zip(best, worst, strict=True)]
        return best

    def _play(self, u: int, pick: dict[int, int]) -> float:
        seen: set[int] = set()
        while True:
            if not self.moves[u]:
                return self.terminal[u]
            if u in seen:
                return self.endless[u]
            seen.add(u)
            kind, x = self.moves[u][pick[u]]
            if kind == "exit":
                return x
            u = int(x)


@st.composite
def explicit_games(draw: st.DrawFn) -> ExplicitGame:
    """Random games of up to 6 nodes, up to 3 moves each, endless values constant per SCC."""
    n = draw(st.integers(1, 6))
    player = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    small = st.integers(-3, 3).map(float)
    moves = []
    for _ in range(n):
        move = st.one_of(
            st.tuples(st.just("node"), st.integers(0, n - 1).map(float)),
            st.tuples(st.just("exit"), small),
        )
        moves.append(draw(st.lists(move, min_size=0, max_size=3)))
    terminal = draw(st.lists(small, min_size=n, max_size=n))
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((u, int(x)) for u in range(n) for kind, x in moves[u] if kind == "node")
    endless = [0.0] * n
    for component in nx.strongly_connected_components(graph):
        value = draw(small)
        for u in component:
            endless[u] = value
    return ExplicitGame(player, moves, endless, terminal)


class TestHandSolvedGraphs:
    """Tiny cyclic graphs whose values and plies are derived by hand in each docstring."""

    def test_a_loop_the_mover_leaves_for_a_win(self) -> None:
        """a <-> b; a (MAX) may exit for +2, b (MIN) may exit for +5; endless 0.

        MIN at b never exits (+5 is worse for MIN than going back to a), so at a MAX compares
        +2 now against the loop's 0: a = +2 in 1 ply; b = +2 (back to a, then exit) in 2 plies.
        """
        game = ExplicitGame(
            player=[0, 1],
            moves=[[("node", 1), ("exit", 2)], [("node", 0), ("exit", 5)]],
            endless=[0, 0],
        )
        assert game.values_player0() == [2, 2]
        assert game.solve().plies.tolist() == [1, 2]

    def test_endless_play_beats_every_exit(self) -> None:
        """Same loop, endless worth +3 to MAX: MAX keeps looping (+3 > +2) and MIN cannot
        escape except to +5, so both nodes are worth +3, reached only by endless play."""
        game = ExplicitGame(
            player=[0, 1],
            moves=[[("node", 1), ("exit", 2)], [("node", 0), ("exit", 5)]],
            endless=[3, 3],
        )
        assert game.values_player0() == [3, 3]
        assert game.solve().plies.tolist() == [ENDLESS, ENDLESS]

    def test_min_breaks_a_loop_max_would_like(self) -> None:
        """Endless +3, but MIN at b may exit for +1: MIN exits; MAX at a then prefers the loop
        leading to b (+1) or its own exit +2: it exits for +2; b is +1 in 1 ply."""
        game = ExplicitGame(
            player=[0, 1],
            moves=[[("node", 1), ("exit", 2)], [("node", 0), ("exit", 1)]],
            endless=[3, 3],
        )
        assert game.values_player0() == [2, 1]
        assert game.solve().plies.tolist() == [1, 1]

    def test_a_self_loop(self) -> None:
        """One MAX node that may pass for ever (endless -1) or stop for -2: it passes."""
        game = ExplicitGame(player=[0], moves=[[("node", 0), ("exit", -2)]], endless=[-1])
        assert game.values_player0() == [-1]
        assert game.solve().plies.tolist() == [ENDLESS]

    def test_a_draw_that_can_loop_is_endless(self) -> None:
        """A draw with a way out and a loop: drawers prefer the longest play, so it is endless.

        a (MAX): to b, or exit 0; b (MIN): to a, or to c; c (MAX) terminal worth +1. MIN at b
        prefers looping (endless 0) to losing: a = max(0, b) with b = min(a, +1): endless 0
        makes every node 0 except c. The draw at a is reached in 1 ply (the exit) or by
        looping: drawers prefer the longest play, so it is endless.
        """
        game = ExplicitGame(
            player=[0, 1, 0],
            moves=[[("node", 1), ("exit", 0)], [("node", 0), ("node", 2)], []],
            endless=[0, 0, 0],
            terminal=[0, 0, 1],
        )
        assert game.values_player0() == [0, 0, 1]
        assert game.solve().plies.tolist() == [ENDLESS, ENDLESS, 0]

    def test_forced_win_through_a_cycle_region(self) -> None:
        """a (MAX) -> b or c; b (MIN) -> a only; c (MIN) -> terminal d (+1) only; endless -5.

        MAX goes to c: a = +1 in 2 plies; b = +1 in 3 plies (its only move is back to a).
        """
        game = ExplicitGame(
            player=[0, 1, 1, 0],
            moves=[[("node", 1), ("node", 2)], [("node", 0)], [("node", 3)], []],
            endless=[-5, -5, 0, 0],
            terminal=[0, 0, 0, 1],
        )
        assert game.values_player0() == [1, 1, 1, 1]
        assert game.solve().plies.tolist() == [2, 3, 1, 0]

    def test_same_mover_moves(self) -> None:
        """MAX moves twice: a (MAX) -> b (MAX) -> exit +4 or back to a; endless 0: +4 in 2."""
        game = ExplicitGame(
            player=[0, 0], moves=[[("node", 1)], [("exit", 4), ("node", 0)]], endless=[0, 0]
        )
        assert game.values_player0() == [4, 4]
        assert game.solve().plies.tolist() == [2, 1]


class TestAgainstBruteForce:
    """On random small games the core's values equal max-min over positional strategies."""

    @settings(max_examples=300, deadline=None)
    @given(game=explicit_games())
    def test_values(self, game: ExplicitGame) -> None:
        """Every node's value is the brute-force value."""
        assert game.values_player0() == game.brute_force()

    @settings(max_examples=200, deadline=None)
    @given(game=explicit_games())
    def test_plies_are_consistent(self, game: ExplicitGame) -> None:
        """Finite plies are 1 + the preferred value-keeping move's; ENDLESS where none ends."""
        result = game.solve()
        value, plies = result.value, result.plies
        for u, moves in enumerate(game.moves):
            if not moves:
                assert plies[u] == 0
                continue
            options = []  # plies after each value-keeping move, None if it never ends
            for kind, x in moves:
                if kind == "exit":
                    if game.sign(u) * x == value[u]:
                        options.append(1)
                else:
                    v = int(x)
                    child = value[v] if game.player[v] == game.player[u] else -value[v]
                    if child == value[u]:
                        options.append(None if plies[v] == ENDLESS else 1 + int(plies[v]))
            assert options, "every node has a value-keeping move (Bellman)"
            finite = [p for p in options if p is not None]
            if value[u] > 0:
                expected = min(finite) if finite else ENDLESS
            else:
                expected = max(finite) if len(finite) == len(options) else ENDLESS
            # A finite answer must follow the rule; ENDLESS may also hide a longer loop.
            if plies[u] != ENDLESS:
                assert plies[u] == expected
            elif value[u] > 0:
                assert not finite


class TestInputChecks:
    """Malformed graphs are refused with a message naming the bad value."""

    def test_target_out_of_range(self) -> None:
        """A move to a node that does not exist names it."""
        with pytest.raises(ValueError, match="invalid target 5"):
            solve_graph(np.array([0, 1]), np.array([5]), np.zeros(1))

    def test_node_without_moves_needs_a_terminal_value(self) -> None:
        """A node with no move at all needs its value from terminal_values."""
        with pytest.raises(ValueError, match="node 1 has no move"):
            solve_graph(np.array([0, 1, 1]), np.array([1]), np.zeros(2))

    def test_inconsistent_endless_values(self) -> None:
        """Endless values that change along a cycle are refused."""
        with pytest.raises(ValueError, match="not constant along a cycle"):
            solve_graph(np.array([0, 1, 2]), np.array([1, 0]), np.array([1.0, 1.0]))
