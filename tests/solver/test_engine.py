"""Tests for the engine: negamax alpha-beta, bounded table, iterative deepening, limits."""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_game
from solver import python_search as engine_module
from solver.engine import search
from solver.events import (
    Backup,
    CacheHit,
    Cutoff,
    Enter,
    Event,
    Iteration,
    Leaf,
    OracleHit,
    Trace,
    last_iteration,
)
from solver.game import CapabilityError, Game, GameError
from solver.minimax import minimax
from solver.node_search import Limits, NodeSearch
from solver.python_search import PythonSearch
from solver.results import SearchRequest, SearchResult, ply_preference
from solver.solve import Solution, solve
from solver.table import TranspositionTable
from tests.tiny_games import TakeAway

TIC_TAC_TOES = ["tictactoe", "tictactoe-bitboard"]


@cache
def solution(name: str) -> Solution:
    """The strong solution of a registered game (computed once per test session)."""
    return solve(load_game(name))


def assert_optimal_moves(game: Any, solved: Solution, state: Any, result: SearchResult) -> None:
    """An exact result's optimal moves: the solver's, or at a win the quickest wins at least.

    Deepening stops once a win is proved (at the depth of the quickest), so slower wins that
    a deeper search would add may be missing; a loss or a draw has every optimal move.
    """
    optimal = set(solved.best_actions(state))
    if result.value != game.utility_bounds()[1 - game.to_move(state)]:
        assert set(result.best_actions) == optimal
        return
    plies = {a: solved.plies(game.result(state, a)) for a in optimal}
    assert {a for a, p in plies.items() if p == min(plies.values())} <= set(result.best_actions)
    assert set(result.best_actions) <= optimal


def sample_states(name: str, count: int, seed: int) -> list[Any]:
    """``count`` reachable states of a game, drawn with a seeded generator."""
    states = sorted(solution(name).states(), key=repr)
    return random.Random(seed).sample(states, count)


def replay(game: Game[Any, Any], state: Any, line: tuple[Any, ...]) -> Any:
    """The state after playing ``line`` from ``state``, every move checked to be legal."""
    for action in line:
        assert action in list(game.actions(state))
        state = game.result(state, action)
    return state


class ExtraTurns(TakeAway):
    """Take-away where taking two counters gives the same player another turn, with evaluate."""

    name = "extra-turns"

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] - action, state[1] if action == 2 else 1 - state[1])

    def utility(self, state: tuple[int, int]) -> float:
        return 2 if state[1] == 1 else -3  # the last taker wins, unequal stakes

    def evaluate(self, state: tuple[int, int]) -> float:
        return (state[0] % 3) * (1 if state[1] == 0 else -1) / 4


class Cycle:
    """A token on a ring of four cells; either player steps +1 or -1; cell 2 ends the game.

    From cell 0 a player can step back and forth for ever: the game cycles.
    """

    name = "cycle"

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> tuple[int, ...]:
        return () if state[0] == 2 else (1, -1)

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return ((state[0] + action) % 4, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 2

    def utility(self, state: tuple[int, int]) -> float:
        return 1 if state[1] == 1 else -1  # who stepped onto cell 2 wins


class CycleWithEvaluate(Cycle):
    """The cycling game with a horizon evaluation (always 0)."""

    def evaluate(self, state: tuple[int, int]) -> float:
        return 0


class ForcedRing:
    """A token on a ring of six cells; a step is +1 or -1; who steps onto cell 3 wins.

    Next to cell 3 (cells 2 and 4) the only move is onto it: the win is forced. Cells 0, 1 and
    5 let the players go round for ever (0 -> 1 -> 0): the game cycles.
    """

    name = "forced-ring"

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> tuple[int, ...]:
        cell = state[0]
        if cell == 3:
            return ()
        if cell in (2, 4):
            return (1,) if cell == 2 else (-1,)
        return (1, -1)

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return ((state[0] + action) % 6, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 3

    def utility(self, state: tuple[int, int]) -> float:
        return 1 if state[1] == 1 else -1  # who stepped onto cell 3 wins

    def evaluate(self, state: tuple[int, int]) -> float:
        return 0


class TestEveryTicTacToeState:
    """To the end, on all 5,478 reachable states, the engine agrees with the strong solver."""

    @pytest.mark.slow
    @pytest.mark.parametrize("half", [0, 1])
    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_value_best_actions_and_plies_match_solve(self, name: str, half: int) -> None:
        """Value, the set of optimal moves and plies to the end equal solve's, state by state
        (every other state a test, so that parallel runs share them out)."""
        game = load_game(name)
        solved = solution(name)
        states = list(solved.states())
        assert len(states) == 5478
        for state in states[half::2]:
            result = search(game, state, table_size=1 << 12)
            assert result.value == solved.value(state)
            assert set(result.best_actions) == set(solved.best_actions(state))
            assert result.plies == solved.plies(state)
            assert result.exact and result.complete

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_pv_is_a_legal_line_that_ends_with_the_value(self, name: str) -> None:
        """The PV starts with the best action, is legal, has ``plies`` moves and ends the game."""
        game = load_game(name)
        for state in sample_states(name, 300, seed=1):
            result = search(game, state)
            end = replay(game, state, result.pv)
            assert len(result.pv) == result.plies
            assert game.is_terminal(end) and game.utility(end) == result.value
            if result.pv:
                assert result.pv[0] == result.best_action

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_every_moves_line_keeps_its_value_to_the_end(self, name: str) -> None:
        """With ``lines``, each move's line starts with it, keeps its value at every ply (the
        strong solver's values), is as long as its plies and ends the game; the chosen move's
        line is the PV."""
        game = load_game(name)
        solved = solution(name)
        for state in sample_states(name, 150, seed=3):
            result = search(game, state, all_values=True, lines=True)
            if result.best_action is None:
                continue
            assert set(result.action_lines) == set(game.actions(state))
            assert result.action_lines[result.best_action].moves == result.pv
            for action, line in result.action_lines.items():
                assert line.moves[0] == action and line.end.kind == "end"
                assert len(line.moves) == result.action_plies[action]
                here = state
                for move in line.moves:
                    here = game.result(here, move)
                    assert solved.value(here) == result.action_values[action]
                assert game.utility(here) == result.action_values[action]

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_the_chosen_move_has_the_preferred_plies(self, name: str) -> None:
        """Among the optimal moves the choice follows ply_preference (quick win, slow loss)."""
        game = load_game(name)
        solved = solution(name)
        for state in sample_states(name, 300, seed=2):
            result = search(game, state)
            if result.best_action is None:
                continue
            mover = 1 if game.to_move(state) == 0 else -1
            prefs = {
                a: ply_preference(mover * result.value, 1 + solved.plies(game.result(state, a)))
                for a in result.best_actions
            }
            assert prefs[result.best_action] == min(prefs.values())
            assert result.action_plies[result.best_action] == result.plies


class TestProofsFromUtilityBounds:
    """A move that reaches the best possible utility settles its node: forced wins and losses
    come out exact, with their distance, from a search as deep as the line."""

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_a_forced_result_in_n_is_exact_at_depth_n_with_its_distance(self, name: str) -> None:
        """A win or loss in N plies (the solver's): exact at depth N with its plies N, and its
        PV a legal line of N moves to that result; at depth N - 1 not yet exact. (Deepening
        goes on while other moves are unsettled: best_actions is every optimal move.)"""
        game = load_game(name)
        solved = solution(name)
        decided = [s for s in sample_states(name, 1500, seed=41) if solved.value(s) != 0]
        decided = [s for s in decided if not game.is_terminal(s)][:250]
        assert len(decided) == 250
        for state in decided:
            n = solved.plies(state)
            result = search(game, state, depth=9)
            assert (result.value, result.exact) == (solved.value(state), True)
            assert result.plies == n and len(result.pv) == n
            at_n = search(game, state, depth=n)
            assert (at_n.value, at_n.exact, at_n.plies) == (result.value, True, n)
            assert game.utility(replay(game, state, result.pv)) == result.value
            assert_optimal_moves(game, solved, state, result)
            if n > 1:
                assert not search(game, state, depth=n - 1).exact

    @pytest.mark.slow
    @pytest.mark.parametrize("half", [0, 1])
    def test_every_state_at_shallow_depths_equals_minimax(self, half: int) -> None:
        """On all 5,478 states at depths 1 and 3 the value is minimax's, and an exact one the
        solver's (proofs change which answers are exact, never a value); every other state a
        test, so that parallel runs share them out."""
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        for state in list(solved.states())[half::2]:
            for depth in (1, 3):
                result = search(game, state, depth=depth, plies=False)
                assert result.value == minimax(game, state, depth=depth).value
                assert not result.exact or result.value == solved.value(state)

    @pytest.mark.parametrize("depth", [3, 4, None])
    def test_a_move_at_the_best_value_only_at_the_horizon_is_not_the_choice(
        self, depth: int | None
    ) -> None:
        """Move 1 reaches the best possible utility at once; move 0 meets it only at the
        horizon at depth 3 (hypothesis found the tree: the engine raised KeyError choosing it).
        Both are best, as minimax at that depth says, and the choice is the proved one."""
        game = load_game("textbook", tree=[[[[1], 0]], 1])
        result = search(game, depth=depth)
        assert (result.value, result.exact, result.best_action, result.pv) == (1, True, 1, (1,))
        assert result.best_actions == (0, 1)

    def test_without_bounds_a_win_waits_for_every_move(self) -> None:
        """The same rules without utility_bounds: a win in 1 beside undecided moves is exact
        only once every move is decided (the proof is what the bounds give)."""
        game = load_game("tictactoe-bitboard")

        class Unbounded:  # the protocol and the evaluation, no utility_bounds
            name = game.name
            initial_state = game.initial_state
            to_move = game.to_move
            actions = game.actions
            result = game.result
            is_terminal = game.is_terminal
            utility = game.utility
            evaluate = game.evaluate

        state = game.parse_state("xx./oo./...")
        bounded = search(game, state, depth=3)
        unbounded = search(Unbounded(), state, depth=3)  # type: ignore[arg-type]
        assert (bounded.value, bounded.exact, bounded.plies) == (1, True, 1)
        assert search(game, state, depth=1).exact
        assert (unbounded.value, unbounded.exact, unbounded.depth) == (1, False, 3)

    def test_an_evaluation_of_its_own_proves_nothing(self) -> None:
        """An evaluation passed in need not respect the game's bounds: a horizon value at the
        best possible utility is not a proof, and the values stay minimax's at the depth."""
        game = load_game("tictactoe-bitboard")

        def optimist(state: Any) -> float:
            return game.utility(state) if game.is_terminal(state) else 1

        for state in sample_states("tictactoe-bitboard", 60, seed=43):
            expected = minimax(game, state, depth=2, evaluate=optimist)
            result = search(game, state, depth=2, evaluate=optimist)
            assert (result.value, set(result.best_actions)) == (
                expected.value,
                set(expected.best_actions),
            )
            assert not result.exact or result.value == solution("tictactoe-bitboard").value(state)

    def test_an_analysis_table_keeps_every_moves_value(self) -> None:
        """With all_values a proved win still values every move (at the depth answered)."""
        game = load_game("tictactoe-bitboard")
        state = game.parse_state("xx./oo./...")
        result = search(game, state, depth=3, all_values=True)
        expected = minimax(game, state, depth=3)
        assert result.exact and result.depth == 3
        assert dict(result.action_values) == dict(expected.action_values)
        shallow = search(game, state, depth=1)
        assert (shallow.exact, dict(shallow.action_values)) == (True, {2: 1})


class TestDepthLimited:
    """With a depth limit the engine's value is the teaching minimax value at that depth."""

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    @pytest.mark.parametrize("depth", [1, 2, 3])
    def test_value_and_best_actions_equal_minimax(self, name: str, depth: int) -> None:
        """Value and every exact action value agree with minimax at depth 1-3, the best actions
        with minimax at the depth answered."""
        game = load_game(name)
        for state in sample_states(name, 120, seed=depth):
            expected = minimax(game, state, depth=depth)
            result = search(game, state, depth=depth)
            assert result.value == expected.value
            answered = minimax(game, state, depth=result.depth)
            assert set(result.best_actions) == set(answered.best_actions)
            for action, value in result.action_values.items():
                assert value == expected.action_values[action]

    @pytest.mark.parametrize("depth", [1, 2, 3, 4])
    def test_exact_means_the_game_value(self, depth: int) -> None:
        """Exact whenever minimax is (no horizon leaf at all), and then the solver's value.

        The engine may be exact more often: horizon leaves that alpha-beta cut away do not
        influence its answer.
        """
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        exact = 0
        for state in sample_states("tictactoe-bitboard", 150, seed=10 + depth):
            result = search(game, state, depth=depth)
            if minimax(game, state, depth=depth).exact:
                assert result.exact
            if result.exact:
                exact += 1
                assert result.value == solved.value(state)
                assert_optimal_moves(game, solved, state, result)
        assert exact > 0

    def test_depth_limited_pv_reaches_the_horizon_with_the_value(self) -> None:
        """A non-exact PV is legal, at most ``depth`` long, and its end evaluates to the value."""
        game = load_game("tictactoe-bitboard")
        for state in sample_states("tictactoe-bitboard", 100, seed=7):
            result = search(game, state, depth=2)
            end = replay(game, state, result.pv)
            assert len(result.pv) <= 2
            if not game.is_terminal(end):
                assert len(result.pv) == 2
            leaf = game.utility(end) if game.is_terminal(end) else game.evaluate(end)
            assert leaf == result.value

    def test_every_moves_line_reaches_the_horizon_with_its_value(self) -> None:
        """Depth-limited lines: each move's line is legal, at most ``depth`` long (full length
        unless the game ends) and its end evaluates to that move's value (minimax's)."""
        game = load_game("tictactoe-bitboard")
        for state in sample_states("tictactoe-bitboard", 100, seed=8):
            result = search(game, state, depth=3, all_values=True, lines=True)
            expected = minimax(game, state, depth=3)
            for action, line in result.action_lines.items():
                assert result.action_values[action] == expected.action_values[action]
                end = replay(game, state, line.moves)
                assert line.moves[0] == action and len(line.moves) <= 3
                if not game.is_terminal(end):
                    assert len(line.moves) == 3 and line.end.kind == "depth"
                leaf = game.utility(end) if game.is_terminal(end) else game.evaluate(end)
                assert leaf == result.action_values[action]

    def test_no_lines_unless_asked(self) -> None:
        """Without ``lines`` the result carries none (they cost a proof per move and ply)."""
        assert search(load_game("tictactoe-bitboard"), all_values=True).action_lines == {}

    def test_on_depth_reports_each_completed_depth(self) -> None:
        """on_depth is called with depths 1..d in order, the last being the answer."""
        seen: list[SearchResult] = []
        result = search(load_game("tictactoe-bitboard"), depth=4, on_depth=seen.append)
        assert [r.depth for r in seen] == [1, 2, 3, 4]
        assert seen[-1] == result

    def test_depth_none_deepens_until_exact(self) -> None:
        """Without a depth the answer is the first exact depth's (9 plies from the empty board)."""
        seen: list[SearchResult] = []
        result = search(load_game("tictactoe-bitboard"), on_depth=seen.append)
        assert result.exact and result.depth == 9 and result.value == 0
        assert [r.exact for r in seen] == [False] * 8 + [True]

    def test_given_evaluation_replaces_the_games(self) -> None:
        """evaluate= is used at the horizon, as minimax uses it."""
        game = load_game("tictactoe")
        state = game.parse_state("x../.../...")

        def corners(s: Any) -> float:
            return float(sum(1 for i in (0, 2, 6, 8) if s[i] == "x"))

        assert search(game, state, depth=2, evaluate=corners).value == (
            minimax(game, state, depth=2, evaluate=corners).value
        )

    def test_depth_zero_evaluates_the_root(self) -> None:
        """depth=0 gives the root's evaluation and no move, like minimax."""
        game = load_game("tictactoe-bitboard")
        state = game.parse_state("x../.o./...")
        result = search(game, state, depth=0)
        assert (result.value, result.best_action) == (game.evaluate(state), None)


@st.composite
def trees(draw: st.DrawFn, height: int | None = None) -> Any:
    """A ragged nested list of ints and floats, 1 to 4 levels deep, 1 to 4 children per node."""
    if height is None:
        height = draw(st.integers(1, 4))
    leaf = st.one_of(st.integers(-5, 5), st.sampled_from([-0.5, 0.25, 1.5, 2.0, -3.75]))
    children = []
    for _ in range(draw(st.integers(1, 4))):
        if height == 1 or draw(st.integers(0, 3)) == 0:
            children.append(draw(leaf))
        else:
            children.append(draw(trees(height=height - 1)))
    return children


def tree_height(tree: Any) -> int:
    return 1 + max(map(tree_height, tree)) if isinstance(tree, list) else 0


class TestRandomTrees:
    """On random textbook trees the engine equals minimax at every depth, whatever the table."""

    @settings(max_examples=150, deadline=None)
    @given(tree=trees(), table_size=st.sampled_from([1, 2, 3, 8, 1 << 20]))
    def test_value_and_best_actions_equal_minimax(self, tree: Any, table_size: int) -> None:
        """Value, best_actions (every root action with the root's value) and exact values agree."""
        game = load_game("textbook", tree=tree)
        for depth in [*range(1, tree_height(tree) + 2), None]:
            expected = minimax(game, depth=depth)
            result = search(game, depth=depth, table_size=table_size)
            assert result.value == expected.value
            keeping = {a for a, v in expected.action_values.items() if v == expected.value}
            assert set(result.best_actions) == keeping
            assert result.best_action in result.best_actions
            for action, value in result.action_values.items():
                assert value == expected.action_values[action]

    @settings(max_examples=100, deadline=None)
    @given(tree=trees(), table_size=st.sampled_from([1, 8, 1 << 20]))
    def test_all_values_gives_every_root_action_its_minimax_value(
        self, tree: Any, table_size: int
    ) -> None:
        """With all_values=True, action_values is minimax's value of every root action."""
        game = load_game("textbook", tree=tree)
        for depth in [*range(1, tree_height(tree) + 2), None]:
            expected = minimax(game, depth=depth)
            result = search(game, depth=depth, table_size=table_size, all_values=True)
            assert dict(result.action_values) == dict(expected.action_values)
            assert result.value == expected.value

    @settings(max_examples=60, deadline=None)
    @given(tree=trees())
    def test_the_observer_does_not_change_the_search(self, tree: Any) -> None:
        """With an observer the engine searches the same tree: same answer, same counts."""
        game = load_game("textbook", tree=tree)
        for depth in [1, 2, None]:
            fast = search(game, depth=depth)
            traced = search(game, depth=depth, observer=Trace())
            assert traced == attrs.evolve(fast, stats=traced.stats)
            assert attrs.evolve(traced.stats, seconds=0) == attrs.evolve(fast.stats, seconds=0)

    @settings(max_examples=120, deadline=None)
    @given(tree=trees(), table_size=st.sampled_from([1, 3, 1 << 20]))
    def test_the_last_iterations_events_tell_the_truth(self, tree: Any, table_size: int) -> None:
        """Each closing event's value, with its flag, agrees with minimax at the node's depth.

        Backups and table hits flagged exact equal minimax's value of the node at its remaining
        depth, lower bounds are at most it and upper bounds at least it; leaves are the
        evaluation; every child is its parent's state after its action.
        """
        game = load_game("textbook", tree=tree)
        for depth in [*range(1, tree_height(tree) + 2), None]:
            trace = Trace()
            result = search(game, depth=depth, observer=trace, table_size=table_size)
            starts = [i for i, e in enumerate(trace.events) if isinstance(e, Iteration)]
            assert starts and trace.events[starts[-1]] == Iteration(result.depth)
            events = last_iteration(trace.events)
            assert events == trace.events[starts[-1] + 1 :]
            enters = {e.node: e for e in events if isinstance(e, Enter)}
            for event in events:
                if isinstance(event, Enter) and event.parent is not None:
                    parent = enters[event.parent].state
                    assert game.result(parent, event.action) == event.state
                    assert event.depth == enters[event.parent].depth + 1
                if not isinstance(event, (Backup, CacheHit, Leaf)):
                    continue
                node = enters[event.node]
                left = None if result.depth is None else result.depth - node.depth
                truth = minimax(game, node.state, depth=left).value
                bound = "exact" if isinstance(event, Leaf) else event.bound
                assert (
                    truth == event.value
                    if bound == "exact"
                    else (truth >= event.value if bound == "lower" else truth <= event.value)
                ), (event, truth)
                if isinstance(event, Backup):
                    inside = node.alpha < event.value < node.beta
                    assert event.exact == (bound == "exact") == inside
                    assert bound != "lower" or event.value >= node.beta
                    assert bound != "upper" or event.value <= node.alpha


def ayoayo_positions(count: int, seed: int) -> list[Any]:
    """Positions from seeded random Ayòayò games (non-terminal ones, a few plies apart)."""
    game = load_game("ayoayo")
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.initial_state()
        for ply in range(rng.randrange(1, 60)):
            actions = game.actions(state)
            if not actions:
                break
            if ply % 7 == 3:
                positions.append(state)
            state = game.result(state, rng.choice(actions))
    return positions[:count]


class TestAyoayo:
    """On sampled Ayòayò positions the engine's value is the teaching minimax value."""

    @pytest.mark.parametrize("depth", [1, 2, 3, 4])
    def test_value_and_best_actions_equal_minimax(self, depth: int) -> None:
        """Value and every value-keeping root move agree with minimax at depths 1-4."""
        game = load_game("ayoayo")
        for state in ayoayo_positions(12, seed=depth):
            expected = minimax(game, state, depth=depth)
            result = search(game, state, depth=depth)
            assert result.value == expected.value
            assert set(result.best_actions) == set(expected.best_actions)

    @pytest.mark.parametrize("depth", [1, 3, 4])
    def test_all_values_are_the_minimax_values_of_every_move(self, depth: int) -> None:
        """The analysis table (all_values=True) gives each legal move its minimax value."""
        game = load_game("ayoayo")
        for state in ayoayo_positions(8, seed=20 + depth):
            expected = minimax(game, state, depth=depth)
            result = search(game, state, depth=depth, all_values=True)
            assert dict(result.action_values) == dict(expected.action_values)

    @pytest.mark.parametrize("depth", [5, 6])
    def test_deeper_on_fewer_positions(self, depth: int) -> None:
        """Value and value-keeping moves agree with minimax at depths 5 and 6 too."""
        game = load_game("ayoayo")
        for state in ayoayo_positions(4, seed=50 + depth):
            expected = minimax(game, state, depth=depth)
            result = search(game, state, depth=depth)
            assert result.value == expected.value
            assert set(result.best_actions) == set(expected.best_actions)

    @pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
    def test_start_position_equals_minimax(self, depth: int) -> None:
        """From the start, depths 1-6: the same value and value-keeping moves as minimax."""
        game = load_game("ayoayo")
        expected = minimax(game, depth=depth)
        result = search(game, depth=depth)
        assert (result.value, set(result.best_actions)) == (
            expected.value,
            set(expected.best_actions),
        )

    def test_pseudo_legal_moves_change_nothing(self) -> None:
        """The fast path with pseudo-legal moves answers as through the exact protocol alone."""
        game = load_game("ayoayo")

        class ExactOnly:  # the bare protocol: no pseudo_actions/try_result
            name = game.name
            initial_state = game.initial_state
            to_move = game.to_move
            actions = game.actions
            result = game.result
            is_terminal = game.is_terminal
            utility = game.utility
            evaluate = game.evaluate

        for state in ayoayo_positions(8, seed=99):
            for depth in (3, 5):
                fast = search(game, state, depth=depth)
                plain = search(ExactOnly(), state, depth=depth)  # type: ignore[arg-type]
                assert (fast.value, fast.best_actions, fast.exact) == (
                    plain.value,
                    plain.best_actions,
                    plain.exact,
                )

    def test_start_position_at_depth_five(self) -> None:
        """From the start, depth 5: the engine and minimax agree, with far fewer nodes."""
        game = load_game("ayoayo")
        expected = minimax(game, depth=5)
        result = search(game, depth=5)
        assert (result.value, set(result.best_actions)) == (
            expected.value,
            set(expected.best_actions),
        )
        assert result.stats.nodes < expected.stats.nodes


class TestTable:
    """The engine's table respects its bound and its entries' bounds."""

    @pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
    def test_tiny_tables_still_give_exact_answers(self, size: int) -> None:
        """With 1 to 8 entries the answers on sampled states equal the solver's."""
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        for state in sample_states("tictactoe-bitboard", 80, seed=size):
            result = search(game, state, table_size=size)
            assert result.value == solved.value(state)
            assert set(result.best_actions) == set(solved.best_actions(state))
            assert result.plies == solved.plies(state)

    @pytest.mark.parametrize("size", [1, 7, 64, 1000])
    def test_the_table_never_exceeds_its_size(
        self, size: int, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Every time the table makes room it ends within its size, and it ends the search so."""
        tables: list[TranspositionTable] = []
        peaks: list[int] = []

        class Watched(TranspositionTable):
            __slots__ = ()

            def __init__(self, n: int) -> None:
                super().__init__(n)
                tables.append(self)

            def make_room(self) -> None:
                assert len(self.entries) <= self.size + 1  # one store past the size, no more
                super().make_room()
                peaks.append(len(self.entries))

        monkeypatch.setattr(engine_module, "TranspositionTable", Watched)
        search(load_game("tictactoe-bitboard"), table_size=size)
        (table,) = tables
        assert len(table) <= size and all(p <= size for p in peaks)
        assert table.stores > 0
        if size < 1000:
            assert peaks, "a small table must have had to make room"

    def test_table_hits_are_counted(self) -> None:
        """Tic-tac-toe's transpositions are answered from the table."""
        result = search(load_game("tictactoe-bitboard"))
        assert result.stats.table_hits > 0
        assert result.stats.nodes > result.stats.leaves > 0 and result.stats.cutoffs > 0


def raise_after(count: int, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, except that its call number ``count`` raises KeyboardInterrupt."""
    calls = 0

    def wrapped(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == count:
            raise KeyboardInterrupt
        return function(*args)

    return wrapped


class TestLimits:
    """Limits and Ctrl-C return the last completed depth's answer, marked incomplete."""

    def test_time_limit_returns_a_legal_move_incomplete(self) -> None:
        """A short time limit on Ayòayò stops the deepening with a legal best move."""
        game = load_game("ayoayo")
        state = game.initial_state()
        result = search(game, state, time_limit=0.05)
        assert not result.complete
        assert result.best_action in game.actions(state)
        assert result.depth is not None and result.depth >= 1

    def test_node_limit_returns_the_last_completed_depth(self) -> None:
        """A node limit stops the search; the answer is a completed depth's, within the limit."""
        game = load_game("tictactoe-bitboard")
        seen: list[SearchResult] = []
        result = search(game, node_limit=2000, on_depth=seen.append)
        assert not result.complete
        assert seen and result.depth == seen[-1].depth and result.value == seen[-1].value
        assert result.best_action in result.best_actions
        assert result.stats.nodes <= 2000 + 9

    def test_a_limit_before_depth_one_gives_the_first_move(self) -> None:
        """With one node allowed: the first legal move, the root's evaluation, depth 0."""
        game = load_game("ayoayo")
        state = game.initial_state()
        result = search(game, state, node_limit=1)
        assert not result.complete and result.depth == 0
        assert result.best_action == game.actions(state)[0]
        assert result.value == game.evaluate(state) and result.best_actions == ()

    def test_a_generous_node_limit_changes_nothing(self) -> None:
        """A limit that is never reached gives the complete answer."""
        game = load_game("tictactoe-bitboard")
        limited = search(game, node_limit=10**7)
        deepening = search(game, on_depth=lambda result: None)  # deepens as a limit makes it
        assert limited.complete
        assert (limited.value, limited.pv, limited.best_actions, limited.stats.nodes) == (
            deepening.value,
            deepening.pv,
            deepening.best_actions,
            deepening.stats.nodes,
        )
        direct = search(game)  # no limit: straight to the end, the same answer
        assert (direct.value, direct.best_actions, direct.plies) == (
            limited.value,
            limited.best_actions,
            limited.plies,
        )

    def test_ctrl_c_in_evaluate_returns_the_last_depth(self) -> None:
        """KeyboardInterrupt raised from evaluate ends the search with the last depth's answer."""
        game = load_game("tictactoe-bitboard")
        full = search(game, depth=4)
        evaluate = raise_after(200, game.evaluate)
        result = search(game, depth=6, evaluate=evaluate)
        assert not result.complete
        assert result.depth is not None and 1 <= result.depth < 6
        assert result.best_action in game.actions(game.initial_state())
        assert full.complete

    def test_ctrl_c_in_the_observer_is_caught_too(self) -> None:
        """KeyboardInterrupt from the observer also ends the search cleanly."""
        game = load_game("tictactoe-bitboard")
        result = search(game, observer=raise_after(500, lambda event: None))
        assert not result.complete and result.best_action in game.actions(0)

    def test_ctrl_c_before_depth_one_gives_the_first_move(self) -> None:
        """Interrupted in the first iteration: the first legal move, complete=False."""
        game = load_game("tictactoe-bitboard")
        result = search(game, depth=9, evaluate=raise_after(1, game.evaluate))
        assert (result.best_action, result.depth, result.complete) == (0, 0, False)

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"depth": -1}, "invalid depth -1"),
            ({"time_limit": 0}, "invalid time limit 0"),
            ({"node_limit": 0}, "invalid node limit 0"),
            ({"table_size": 0}, "invalid table size 0"),
            ({"depth": 2.0}, "invalid depth 2.0"),
            ({"depth": True}, "invalid depth True"),
            ({"time_limit": math.nan}, "invalid time limit nan"),
            ({"time_limit": -1e400}, "invalid time limit -inf"),
            ({"node_limit": 10**5000 * -1}, "invalid node limit <int too large to print>"),
            ({"table_size": 1e400}, "invalid table size inf"),
        ],
    )
    def test_bad_arguments_are_refused(self, kwargs: dict[str, Any], message: str) -> None:
        """Bad depth, limits and table size raise ValueError quoting the value."""
        with pytest.raises(ValueError, match=message):
            search(load_game("tictactoe-bitboard"), **kwargs)

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"time_limit": "1"}, "invalid time limit '1'"),
            ({"seed": "abc"}, "invalid seed 'abc'"),
            ({"oracle": 3}, "invalid oracle 3"),
            ({"on_depth": "print"}, "invalid on_depth 'print'"),
            ({"evaluate": 0}, "invalid evaluate 0"),
            ({"observer": []}, "invalid observer"),
        ],
    )
    def test_options_of_the_wrong_kind_are_refused(
        self, kwargs: dict[str, Any], message: str
    ) -> None:
        """A string for a number or a non-function for a callback raise TypeError naming it."""
        with pytest.raises(TypeError, match=message):
            search(load_game("tictactoe-bitboard"), **kwargs)

    def test_a_huge_depth_ends_once_the_answer_is_exact(self) -> None:
        """depth=10**100 on tic-tac-toe: deepening stops at 9 plies, the first exact depth."""
        result = search(load_game("tictactoe-bitboard"), depth=10**100)
        assert result.exact and result.complete and result.depth == 9 and result.value == 0

    def test_options_are_keyword_only(self) -> None:
        """A depth passed by position is refused, not taken as some other option."""
        game = load_game("tictactoe-bitboard")
        with pytest.raises(TypeError):
            search(game, 0, 3)  # type: ignore[misc]


class TestSeed:
    """Ties among equally preferred optimal moves break by seed, reproducibly."""

    def test_same_seed_same_choice(self) -> None:
        """Two searches with one seed choose the same move."""
        game = load_game("tictactoe-bitboard")
        for seed in range(10):
            assert search(game, seed=seed).best_action == search(game, seed=seed).best_action

    def test_seeded_choice_is_one_of_the_preferred(self) -> None:
        """Every seeded choice is optimal with the preferred plies."""
        game = load_game("tictactoe-bitboard")
        state = game.parse_state("x.o/.../...")
        unseeded = search(game, state)
        for seed in range(10):
            result = search(game, state, seed=seed)
            assert result.best_action in result.best_actions
            assert result.action_plies[result.best_action] == unseeded.plies

    def test_without_a_seed_the_first_preferred_move_is_chosen(self) -> None:
        """From the empty board every move draws in 9 plies: without seed, cell 0."""
        result = search(load_game("tictactoe-bitboard"))
        assert result.best_actions == tuple(range(9)) and result.best_action == 0


class TestPlies:
    """Known wins and losses in N plies."""

    def test_win_in_one(self) -> None:
        """X completes the top row at once."""
        game = load_game("tictactoe-bitboard")
        result = search(game, game.parse_state("xx./oo./..."))
        assert (result.value, result.best_action, result.plies, result.pv) == (1, 2, 1, (2,))

    def test_the_quickest_of_several_wins(self) -> None:
        """X on 0 and 4, O on 2 and 6, X to move: 8 wins at once; the other wins take longer."""
        game = load_game("tictactoe-bitboard")
        result = search(game, game.parse_state("x.o/.x./o.."))
        assert result.value == 1 and result.best_action == 8 and result.plies == 1
        assert all(result.action_plies[a] > 1 for a in result.best_actions if a != 8)

    def test_the_slowest_loss(self) -> None:
        """O, lost after X's fork, prefers a move that makes X need more plies."""
        game = load_game("tictactoe-bitboard")
        state = game.parse_state("xo./.x./...")
        result = search(game, state)
        assert result.value == 1
        longest = max(result.action_plies[a] for a in result.best_actions)
        assert result.plies == longest > min(result.action_plies.values())

    def test_plies_need_an_exact_value(self) -> None:
        """A depth-limited answer that used the horizon reports no plies."""
        result = search(load_game("tictactoe-bitboard"), depth=3)
        assert not result.exact and result.plies is None and not result.action_plies


class TestObserverEvents:
    """With an observer the engine reports what it did, in player 0's view."""

    def run(self, depth: int | None = None) -> tuple[SearchResult, list[Event]]:
        trace = Trace()
        game = load_game("tictactoe-bitboard")
        result = search(game, game.parse_state("x../.o./..."), depth=depth, observer=trace)
        return result, trace.events

    def test_every_node_is_entered_once_with_ids_in_order(self) -> None:
        """Enter ids run 0, 1, 2, ...; one root per iteration; stats also count the PV pass."""
        result, events = self.run(depth=4)
        enters = [e for e in events if isinstance(e, Enter)]
        assert [e.node for e in enters] == list(range(len(enters)))
        assert 0 < len(enters) <= result.stats.nodes
        roots = [e for e in enters if e.parent is None]
        assert len(roots) == result.depth and all(e.depth == 0 for e in roots)
        iterations = [e for e in events if isinstance(e, Iteration)]
        assert iterations == [Iteration(d) for d in range(1, len(roots) + 1)]

    def test_without_depth_the_one_search_to_the_end_is_reported(self) -> None:
        """depth=None with an observer is the search that runs without one: to the end at once."""
        result, events = self.run()
        assert result.depth is None and result.exact
        assert [e for e in events if isinstance(e, Iteration)] == [Iteration(None)]

    def test_every_node_ends_once(self) -> None:
        """Each entered node ends with exactly one Leaf, Backup or CacheHit."""
        _, events = self.run()
        ends: dict[int, int] = {}
        for event in events:
            if isinstance(event, (Leaf, Backup, CacheHit, OracleHit)):
                ends[event.node] = ends.get(event.node, 0) + 1
        entered = {e.node for e in events if isinstance(e, Enter)}
        assert set(ends) == entered and set(ends.values()) == {1}

    def test_cache_hits_are_reported_in_player_zeros_view(self) -> None:
        """Cache hits happen on tic-tac-toe; their values are X's, within the utilities."""
        result, events = self.run()
        hits = [e for e in events if isinstance(e, CacheHit)]
        assert 0 < len(hits) <= result.stats.table_hits
        assert all(-1 <= h.value <= 1 and h.bound in ("exact", "lower", "upper") for h in hits)

    def test_root_backups_carry_each_depths_value(self) -> None:
        """The last root Backup holds the answer's value and best action in X's view."""
        result, events = self.run(depth=3)
        enters = {e.node: e for e in events if isinstance(e, Enter)}
        root_backups = [
            e for e in events if isinstance(e, Backup) and enters[e.node].parent is None
        ]
        assert len(root_backups) == 3
        assert root_backups[-1].value == result.value

    @pytest.mark.parametrize("depth", [2, 3, 4])
    def test_ayoayo_is_searched_alike_with_and_without_an_observer(self, depth: int) -> None:
        """Pseudo-legal moves, inline leaves, PVS: the traced search is the fast one, event
        by event consistent (every child is its parent's state after a legal action)."""
        game = load_game("ayoayo")
        for state in ayoayo_positions(4, seed=70 + depth):
            fast = search(game, state, depth=depth, native=False)  # this engine, not a kernel
            trace = Trace()
            traced = search(game, state, depth=depth, observer=trace)
            assert traced == attrs.evolve(fast, stats=traced.stats)
            assert attrs.evolve(traced.stats, seconds=0) == attrs.evolve(fast.stats, seconds=0)
            enters = {e.node: e for e in trace.events if isinstance(e, Enter)}
            for event in enters.values():
                if event.parent is not None:
                    parent = enters[event.parent].state
                    assert event.action in game.actions(parent)
                    assert game.result(parent, event.action) == event.state
            for event in trace.events:
                if isinstance(event, Cutoff):
                    assert set(event.pruned) <= set(game.actions(enters[event.node].state))


class TestGamesWithoutEvaluate:
    """Games with only the bare protocol: one search to the end, or an error at the horizon."""

    def test_take_away_to_the_end(self) -> None:
        """Multiples of three lose for the mover; the others win by leaving one."""
        for counters in range(1, 10):
            game = TakeAway(counters)
            result = search(game)
            assert result.value == minimax(game).value
            assert result.depth is None and result.exact

    def test_horizon_without_evaluate_raises(self) -> None:
        """A depth that reaches the horizon needs an evaluation function."""
        with pytest.raises(CapabilityError, match="takeaway"):
            search(TakeAway(9), depth=2)

    def test_depth_beyond_the_end_needs_no_evaluate(self) -> None:
        """A depth limit the game never reaches works without evaluate."""
        result = search(TakeAway(4), depth=10)
        assert result.value == minimax(TakeAway(4)).value and result.exact


class TestNonAlternatingPlay:
    """A player may move twice in a row: the negamax signs follow to_move, not the ply."""

    @pytest.mark.parametrize("counters", range(1, 9))
    def test_extra_turns_equal_minimax_at_every_depth(self, counters: int) -> None:
        """Values and best actions equal minimax's at depths 1..counters and to the end."""
        game = ExtraTurns(counters)
        for depth in [*range(1, counters + 1), None]:
            expected = minimax(game, depth=depth)
            result = search(game, depth=depth)
            assert result.value == expected.value
            assert set(result.best_actions) == set(expected.best_actions)


class TestCycles:
    """Games that repeat positions: depth limits end, limits stop deepening, no hang."""

    def test_depth_limited_search_of_a_cycle_ends(self) -> None:
        """At a fixed depth the value equals minimax's."""
        game = CycleWithEvaluate()
        for depth in range(1, 8):
            assert search(game, depth=depth).value == minimax(game, depth=depth).value

    def test_cycle_is_exact_once_the_win_is_forced(self) -> None:
        """Next to the end the win is forced: exact, one ply, at every depth, in a cyclic game."""
        game = ForcedRing()
        for cell in (2, 4):
            for player in (0, 1):
                for depth in (1, 2, 5, None):
                    result = search(game, (cell, player), depth=depth, node_limit=50_000)
                    assert result.exact and result.complete
                    assert (result.value, result.plies) == ((1, 1) if player == 0 else (-1, 1))

    def test_positions_that_can_cycle_are_never_claimed_exact(self) -> None:
        """Where endless play stays possible the value rests on the horizon: never exact.

        From cells 0, 1 and 5 either player can keep the token going round for ever, which
        has no value in the protocol, so no search proves a value: each depth is minimax's,
        none exact, and deepening without a depth goes on until the node limit.
        """
        game = ForcedRing()
        for cell in (0, 1, 5):
            for player in (0, 1):
                state = (cell, player)
                for depth in range(1, 7):
                    result = search(game, state, depth=depth)
                    assert not result.exact and result.plies is None
                    assert result.value == minimax(game, state, depth=depth).value
                deepened = search(game, state, node_limit=5_000)
                assert not deepened.exact and not deepened.complete

    def test_an_oracle_for_the_cycle_makes_the_answer_exact(self) -> None:
        """With endless play valued (0, a draw) by an oracle on cell 0, cell 1's value is exact.

        By hand: from cell 1 the mover steps onto 2 (the opponent is then forced onto 3 and
        wins) or back to 0 (a draw with endless play): the draw, value 0, by moving to 0.
        """
        game = ForcedRing()

        def oracle(state: tuple[int, int]) -> float | None:
            return 0 if state[0] == 0 else None

        for player in (0, 1):
            result = search(game, (1, player), depth=3, oracle=oracle)
            assert result.exact and result.value == 0 and result.best_actions == (-1,)
            assert result.action_values == {1: -1 if player == 0 else 1, -1: 0}

    def test_search_to_the_end_of_a_cycle_without_evaluate_is_an_error(self) -> None:
        """Without evaluate the recursion would never end: a GameError says so."""
        with pytest.raises(GameError, match="cycle"):
            search(Cycle())


class TestGarbageCollector:
    """The collector is off while the engine searches and as it was afterwards."""

    def test_restored_after_a_search_and_an_interrupt(self) -> None:
        """On before, on after, also when Ctrl-C ends the search; off before, off after."""
        game = load_game("tictactoe-bitboard")
        seen: list[bool] = []

        def evaluate(state: Any) -> float:
            seen.append(gc.isenabled())
            return game.evaluate(state)

        assert gc.isenabled()
        search(game, depth=2, evaluate=evaluate)
        assert gc.isenabled() and seen and not any(seen)
        search(game, depth=6, evaluate=raise_after(50, game.evaluate))
        assert gc.isenabled()
        gc.disable()
        try:
            search(game, depth=2)
            assert not gc.isenabled()
        finally:
            gc.enable()


class TestFloats:
    """Values need not be integers: no epsilon, no packing."""

    def test_nearly_equal_floats_are_told_apart(self) -> None:
        """Children differing in the last bit: only the larger is optimal."""
        low = 0.1
        high = math.nextafter(low, 1.0)
        game = load_game("textbook", tree=[[low], [high], [low, 5]])
        result = search(game, depth=2)
        assert (result.value, result.best_actions) == (high, (1,))

    def test_equal_int_and_float_values_are_ties(self) -> None:
        """3 and 3.0 both keep the value."""
        game = load_game("textbook", tree=[[3], [3.0], [2]])
        assert search(game).best_actions == (0, 1)


def tablebase(name: str, empties: int) -> Callable[[Any], float | None]:
    """An oracle from the strong solution: exact values where <= ``empties`` cells are free."""
    game = load_game(name)
    solved = solution(name)

    def oracle(state: Any) -> float | None:
        if game.format_state(state).count(".") > empties:  # type: ignore[attr-defined]
            return None
        return solved.value(state)

    return oracle


class TestOracle:
    """An oracle (an endgame tablebase) ends lines with exact values, at the root and inside."""

    def test_a_covered_root_is_answered_at_once_and_exactly(self) -> None:
        """Value, every move's value and the optimal set come from the oracle, with no search."""
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        oracle = tablebase("tictactoe-bitboard", 9)
        for state in sample_states("tictactoe-bitboard", 100, seed=30):
            result = search(game, state, oracle=oracle)
            assert result.exact and result.complete and result.stats.nodes == 0
            assert result.value == solved.value(state)
            assert set(result.best_actions) == set(solved.best_actions(state))
            for action, value in result.action_values.items():
                assert value == solved.value(game.result(state, action))
            replay(game, state, result.pv)
            if not game.is_terminal(state):  # the oracle knows values, not plies
                assert result.plies is None and result.pv[0] == result.best_action

    @pytest.mark.parametrize("empties", [2, 4, 6])
    def test_lines_end_at_covered_positions_with_exact_values(self, empties: int) -> None:
        """From positions the oracle does not cover, a short search becomes exact and right."""
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        oracle = tablebase("tictactoe-bitboard", empties)
        uncovered = [s for s in solved.states() if game.format_state(s).count(".") > empties]
        states = random.Random(31).sample(sorted(uncovered), min(80, len(uncovered)))
        for state in states:
            free = game.format_state(state).count(".")
            result = search(game, state, depth=free - empties, oracle=oracle)
            assert result.exact, game.format_state(state)
            assert result.value == solved.value(state)
            assert_optimal_moves(game, solved, state, result)

    def test_deepening_stops_at_the_first_depth_the_oracle_makes_exact(self) -> None:
        """From the empty board with positions of <= 6 free cells covered: 3 plies, exact."""
        game = load_game("tictactoe-bitboard")
        seen: list[SearchResult] = []
        result = search(game, oracle=tablebase("tictactoe-bitboard", 6), on_depth=seen.append)
        assert [r.exact for r in seen] == [False, False, True]
        assert result.exact and result.depth == 3 and result.value == 0
        assert result.best_actions == tuple(range(9))

    def test_an_oracle_that_covers_nothing_changes_nothing(self) -> None:
        """With an oracle that always answers None the results are the plain engine's."""
        game = load_game("tictactoe-bitboard")
        for state in sample_states("tictactoe-bitboard", 50, seed=32):
            for depth in (2, None):
                plain = search(game, state, depth=depth)
                probed = search(game, state, depth=depth, oracle=lambda s: None)
                assert probed == attrs.evolve(plain, stats=probed.stats)

    @settings(max_examples=100, deadline=None)
    @given(tree=trees(), data=st.data())
    def test_random_trees_with_random_coverage_equal_minimax(self, tree: Any, data: Any) -> None:
        """An oracle of true values on a random set of nodes: the engine gives minimax's answer."""
        game = load_game("textbook", tree=tree)
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        covered: dict[Any, float | None] = {}

        def oracle(state: Any) -> float | None:
            if state not in covered:
                exact = rng.random() < 0.3
                covered[state] = minimax(game, state).value if exact else None
            return covered[state]

        expected = minimax(game)
        result = search(game, oracle=oracle)
        assert result.value == expected.value and result.exact
        keeping = {a for a, v in expected.action_values.items() if v == expected.value}
        assert set(result.best_actions) == keeping

    def test_the_observer_sees_oracle_hits(self) -> None:
        """Each covered node the search reaches is reported once, with its exact value."""
        game = load_game("tictactoe-bitboard")
        solved = solution("tictactoe-bitboard")
        trace = Trace()
        search(game, depth=4, oracle=tablebase("tictactoe-bitboard", 5), observer=trace)
        enters = {e.node: e for e in trace.events if isinstance(e, Enter)}
        hits = [e for e in trace.events if isinstance(e, OracleHit)]
        assert hits
        for hit in hits:
            assert hit.value == solved.value(enters[hit.node].state)

    def test_an_inconsistent_oracle_is_an_error(self) -> None:
        """An oracle whose root value no move reaches is refused, naming the value."""
        game = load_game("textbook", tree=[[3, 12], [2, 4]])
        with pytest.raises(GameError, match="oracle is inconsistent"):
            search(game, oracle=lambda state: 7 if state == () else minimax(game, state).value)


class CompiledTakeAway(TakeAway):
    """Take-away offering a "compiled" node search: the Python one, after a slow load.

    It records what it was asked, and declines when told to; ``load`` seconds stand for a
    kernel being compiled before the search can start.
    """

    name = "compiled-takeaway"

    def __init__(self, counters: int, serve: bool, load: float = 0.0) -> None:
        super().__init__(counters)
        self.serve = serve
        self.load = load
        self.requests: list[SearchRequest] = []
        self.served: list[PythonSearch] = []

    def evaluate(self, state: tuple[int, int]) -> float:
        return 0

    def compiled_search(self, request: SearchRequest, limits: Limits) -> NodeSearch | None:
        self.requests.append(request)
        if not self.serve:
            return None
        time.sleep(self.load)
        nodes = PythonSearch(self, request, self.evaluate, None, limits)
        self.served.append(nodes)
        return nodes

    def compile_kernels(self) -> float | None:
        return 0.0


class TestCompiledSearch:
    """A game's compiled node search runs under the one driver when it can serve the call."""

    def test_it_is_asked_with_every_option(self) -> None:
        """No observer, the game's own evaluation: the request holds each option given."""
        game = CompiledTakeAway(7, serve=True)
        seen: list[SearchResult] = []
        oracle = lambda state: None  # noqa: E731
        search(
            game,
            (5, 1),
            depth=4,
            time_limit=2.5,
            node_limit=10_000,
            seed=3,
            table_size=99,
            on_depth=seen.append,
            oracle=oracle,
            plies=False,
            all_values=True,
            evaluate=game.evaluate,
        )
        assert game.requests == [
            SearchRequest(
                depth=4,
                time_limit=2.5,
                node_limit=10_000,
                seed=3,
                table_size=99,
                on_depth=seen.append,
                oracle=oracle,
                plies=False,
                all_values=True,
            )
        ]

    def test_its_answers_are_the_drivers(self) -> None:
        """The driver over the offered node search answers as over the Python one."""
        game = CompiledTakeAway(9, serve=True)
        served = search(game, depth=6, all_values=True)
        python = search(game, depth=6, all_values=True, native=False)
        assert len(game.served) == 1 and game.served[0].nodes == served.stats.nodes
        assert (served.value, served.best_actions, dict(served.action_values), served.pv) == (
            python.value,
            python.best_actions,
            dict(python.action_values),
            python.pv,
        )

    def test_declining_runs_the_python_node_search(self) -> None:
        """A game that returns None leaves the search to the Python node search."""
        game = CompiledTakeAway(7, serve=False)
        result = search(game, depth=3)
        expected = minimax(game, depth=3)
        assert len(game.requests) == 1
        assert (result.value, result.best_actions) == (expected.value, expected.best_actions)

    def test_loading_it_is_not_search_time(self) -> None:
        """The clock starts after the node search is ready: a slow load eats no time limit."""
        game = CompiledTakeAway(30, serve=True, load=0.5)
        result = search(game, time_limit=0.4)
        assert result.depth is not None and result.depth >= 2
        assert result.stats.seconds < 0.5 + 0.4

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"observer": Trace()},
            {"evaluate": lambda state: 1.0},
            {"native": False},
        ],
    )
    def test_not_asked_with_an_observer_another_evaluation_or_native_false(
        self, kwargs: dict[str, Any]
    ) -> None:
        """The compiled search is never asked when it could not give what was asked for."""
        game = CompiledTakeAway(5, serve=True)
        search(game, depth=2, **kwargs)
        assert game.requests == []
