"""The conformance checks catch broken games (so a passing game means something)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.tictactoe import TicTacToe
from solver.testing import (
    check_game,
    check_pseudo_actions,
    check_state,
    check_transition,
    playout,
)


class ListBoard(TicTacToe):
    """Tic-tac-toe whose ``result`` writes into a list state: it mutates its input."""

    def result(self, state: Any, action: int) -> Any:
        state[action] = "x"
        return tuple(state)


class TerminalWithMoves(TicTacToe):
    """Claims the game is over while moves remain."""

    def is_terminal(self, state: Any) -> bool:
        return True


class ShuffledActions(TicTacToe):
    """Returns the legal moves in a different order on every call."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def actions(self, state: Any) -> list[int]:
        moves = super().actions(state)
        self.rng.shuffle(moves)
        return moves


class LossyNotation(TicTacToe):
    """Writes O as X, so the notation does not round-trip."""

    def format_state(self, state: Any) -> str:
        return super().format_state(state).replace("o", "x")


class InfiniteUtility(TicTacToe):
    """Scores wins as infinity."""

    def utility(self, state: Any) -> float:
        return float("inf") if super().utility(state) else 0


class PseudoCells(TicTacToe):
    """Tic-tac-toe with pseudo-legal moves: every cell is a candidate, taken ones are refused."""

    def pseudo_actions(self, state: Any) -> list[int]:
        return [] if self.is_terminal(state) else list(range(9))

    def try_result(self, state: Any, action: int) -> Any:
        return self.result(state, action) if action in self.actions(state) else None


class PseudoOverwrites(PseudoCells):
    """Plays a taken cell instead of refusing it."""

    def try_result(self, state: Any, action: int) -> Any:
        return self.result(state, action)


class PseudoReversed(PseudoCells):
    """Lists the candidates in the opposite order to the legal moves."""

    def pseudo_actions(self, state: Any) -> list[int]:
        return super().pseudo_actions(state)[::-1]


class PseudoRefusesLegal(PseudoCells):
    """Refuses the centre even when it is free."""

    def try_result(self, state: Any, action: int) -> Any:
        return None if action == 4 else super().try_result(state, action)


class TestPseudoActions:
    def test_a_correct_game_passes(self) -> None:
        """Candidates that refuse exactly the taken cells pass the whole suite."""
        check_game(PseudoCells(), seeds=range(3))

    def test_playing_an_illegal_candidate_is_caught(self) -> None:
        """try_result that gives a state for an illegal candidate is caught."""
        game = PseudoOverwrites()
        with pytest.raises(AssertionError, match="illegal action 0"):
            check_pseudo_actions(game, game.parse_state("x../.../..."))

    def test_refusing_a_legal_candidate_is_caught(self) -> None:
        """try_result that refuses a legal move is caught."""
        game = PseudoRefusesLegal()
        with pytest.raises(AssertionError, match="None for the legal action 4"):
            check_pseudo_actions(game, game.initial_state())

    def test_candidates_out_of_order_are_caught(self) -> None:
        """Legal moves listed among the candidates in another order are caught."""
        game = PseudoReversed()
        with pytest.raises(AssertionError, match="same order"):
            check_pseudo_actions(game, game.initial_state())

    def test_the_suite_runs_the_pseudo_checks(self) -> None:
        """check_game runs the pseudo-legal checks on games that offer them."""
        with pytest.raises(AssertionError, match="illegal action"):
            check_game(PseudoOverwrites(), seeds=[1])


class LopsidedEvaluation(TicTacToe):
    """Counts only the top-left corner, so a position and its mirror image differ."""

    def evaluate(self, state: Any) -> float:
        return 0.5 if state[0] == "x" else 0.0


class TestChecksFail:
    def test_an_evaluation_that_symmetries_change(self) -> None:
        """An evaluation that differs between a position and its symmetric image is caught
        (a symmetry-reduced table would answer for one with the other's value)."""
        game = LopsidedEvaluation()
        with pytest.raises(AssertionError, match="changes evaluate"):
            check_state(game, game.parse_state("x../.../..."))
        check_state(TicTacToe(), TicTacToe().parse_state("x../.../..."))

    def test_mutating_result(self) -> None:
        """A result that mutates its input state is caught."""

        class Cells(list[str]):
            def __hash__(self) -> int:
                return hash(tuple(self))

        with pytest.raises(AssertionError, match="must not mutate"):
            check_transition(ListBoard(), Cells("........."), 4)

    def test_terminal_with_moves(self) -> None:
        """A terminal state with legal actions is caught."""
        with pytest.raises(AssertionError, match="terminal iff"):
            check_state(TerminalWithMoves(), TerminalWithMoves().initial_state())

    def test_unstable_action_order(self) -> None:
        """Actions in a changing order are caught."""
        with pytest.raises(AssertionError, match="fixed order"):
            check_game(ShuffledActions(), seeds=[1])

    def test_lossy_notation(self) -> None:
        """A state notation that does not round-trip is caught."""
        game = LossyNotation()
        with pytest.raises((AssertionError, ValueError)):
            check_game(game, seeds=[1])

    def test_infinite_utility(self) -> None:
        """A non-finite utility is caught."""
        game = InfiniteUtility()
        won = game.parse_state("xxx/oo./...")
        with pytest.raises(AssertionError):
            check_state(game, won)


class TestPlayout:
    def test_stops_at_terminal(self) -> None:
        """A tic-tac-toe playout ends at a terminal state within nine plies."""
        game = TicTacToe()
        states = playout(game, random.Random(3))
        assert game.is_terminal(states[-1]) and len(states) <= 10

    def test_respects_ply_cap(self) -> None:
        """A playout stops after max_plies plies."""
        assert len(playout(TicTacToe(), random.Random(3), max_plies=2)) == 3
