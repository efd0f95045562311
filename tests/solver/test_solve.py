"""Tests for strong solving: every reachable state with its value, optimal actions and plies."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from games import load_game
from solver.game import GameError, format_action
from solver.minimax import alphabeta, minimax
from solver.results import ply_preference
from solver.solve import (
    PROGRESS_EVERY,
    CycleError,
    Solution,
    TooManyStatesError,
    UnknownStateError,
    solve,
)
from tests.solver.test_minimax import TakeAway, trees

TIC_TAC_TOES = ["tictactoe", "tictactoe-bitboard"]


class Roundabout:
    """A tiny game that cycles: from ``a`` MAX may go to ``b`` or end; ``b`` leads back to ``a``.

    States are the strings ``"a"``, ``"b"`` and ``"end"``; the notation writes them in capitals.
    """

    name = "roundabout"

    def __init__(self, loop_to_self: bool = False) -> None:
        self.loop_to_self = loop_to_self

    def initial_state(self) -> str:
        return "a"

    def to_move(self, state: str) -> int:
        return 0 if state == "a" else 1

    def actions(self, state: str) -> list[str]:
        if state == "end":
            return []
        return ["stay"] if self.loop_to_self and state == "b" else ["go", "stop"]

    def result(self, state: str, action: str) -> str:
        if action == "stop":
            return "end"
        if action == "stay":
            return state
        return "b" if state == "a" else "a"

    def is_terminal(self, state: str) -> bool:
        return state == "end"

    def utility(self, state: str) -> float:
        return 0

    def format_state(self, state: str) -> str:
        return state.upper()

    def parse_state(self, text: str) -> str:
        return text.lower()


@pytest.fixture(scope="module")
def solutions() -> dict[str, Solution]:
    """Both tic-tac-toes solved once for the whole module."""
    return {name: solve(load_game(name)) for name in TIC_TAC_TOES}


def marks(state: tuple[str, ...]) -> int:
    """The number of marks on a readable tic-tac-toe board."""
    return sum(cell != "." for cell in state)


class TestTicTacToeFacts:
    """The known counts of tic-tac-toe, for both implementations."""

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_state_counts(self, solutions: dict[str, Solution], name: str) -> None:
        """5,478 reachable states, 958 of them terminal."""
        solution = solutions[name]
        assert len(solution) == solution.counts.states == 5478
        assert solution.counts.terminal == 958

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_terminal_breakdown(self, solutions: dict[str, Solution], name: str) -> None:
        """Of the terminal states X has won 626, O 316, and 16 are draws."""
        counts = solutions[name].counts
        assert (counts.wins, counts.losses, counts.draws) == (626, 316, 16)

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_game_value(self, solutions: dict[str, Solution], name: str) -> None:
        """The game is a draw, every opening keeps it, and best play fills the board."""
        solution = solutions[name]
        root = solution.root
        assert solution.root_value == solution.value(root) == 0
        assert solution.best_actions(root) == tuple(range(9))
        assert solution.plies(root) == 9

    def test_immediate_win_is_taken(self, solutions: dict[str, Solution]) -> None:
        """With O threatening, X's only winning move completes the top row at once."""
        game, solution = load_game("tictactoe"), solutions["tictactoe"]
        state = game.parse_state("xx./oo./...")
        assert (solution.value(state), solution.best_actions(state), solution.plies(state)) == (
            1,
            (2,),
            1,
        )

    def test_both_implementations_agree(self, solutions: dict[str, Solution]) -> None:
        """Through the text notation, both games give every state the same record."""
        rows = {}
        for name in TIC_TAC_TOES:
            game = load_game(name)
            rows[name] = {
                game.format_state(state): (record.value, record.plies, record.best_actions)
                for state, record in solutions[name]
            }
        assert rows["tictactoe"] == rows["tictactoe-bitboard"]


class TestAgainstMinimax:
    """Every state's value is the teaching searches' value, and the optimal sets are complete."""

    @pytest.mark.slow
    def test_every_value_is_the_minimax_value(self, solutions: dict[str, Solution]) -> None:
        """For all 5,478 states the solved value equals a search from that state."""
        game, solution = load_game("tictactoe"), solutions["tictactoe"]
        for state in solution.states():
            search = alphabeta if marks(state) <= 3 else minimax
            assert solution.value(state) == search(game, state).value, game.format_state(state)

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_best_actions_are_the_value_keeping_ones(
        self, solutions: dict[str, Solution], name: str
    ) -> None:
        """A state's optimal actions are exactly those whose result has the state's value."""
        game, solution = load_game(name), solutions[name]
        for state in solution.states():
            keeping = tuple(
                a
                for a in game.actions(state)
                if solution.value(game.result(state, a)) == solution.value(state)
            )
            assert solution.best_actions(state) == keeping
            assert bool(keeping) != game.is_terminal(state)

    @pytest.mark.parametrize("name", TIC_TAC_TOES)
    def test_plies_follow_the_ply_preference(
        self, solutions: dict[str, Solution], name: str
    ) -> None:
        """Plies are 1 + those of the optimal child that ply_preference ranks first."""
        game, solution = load_game(name), solutions[name]
        for state in solution.states():
            if game.is_terminal(state):
                assert solution.plies(state) == 0
                continue
            value = solution.value(state)
            mover_value = value if game.to_move(state) == 0 else -value
            child_plies = [
                solution.plies(game.result(state, a)) for a in solution.best_actions(state)
            ]
            chosen = min(child_plies, key=lambda plies: ply_preference(mover_value, plies))
            assert solution.plies(state) == 1 + chosen

    @settings(max_examples=100, deadline=None)
    @given(tree=trees())
    def test_random_trees(self, tree: Any) -> None:
        """On random textbook trees every node's solved value is minimax's from that node."""
        game = load_game("textbook", tree=tree)
        solution = solve(game)
        for state in solution.states():
            assert solution.value(state) == minimax(game, state).value
        assert solution.counts.terminal == sum(1 for s in solution.states() if game.is_terminal(s))


class TestSolutionAccess:
    """Looking states up, iterating, and solving from a later position."""

    def test_iteration_covers_every_state_root_first(self, solutions: dict[str, Solution]) -> None:
        """Iteration yields each state once with its record, starting at the root."""
        solution = solutions["tictactoe"]
        pairs = list(solution)
        assert len(pairs) == len(solution) == len({state for state, _ in pairs})
        assert pairs[0][0] == solution.root
        for state, record in pairs[:50]:
            assert record == solution.record(state)
            assert record.terminal == (record.plies == 0)

    def test_membership_and_unknown_states(self, solutions: dict[str, Solution]) -> None:
        """An unreachable state is not in the solution, and asking for it names it."""
        game, solution = load_game("tictactoe"), solutions["tictactoe"]
        full_of_x = ("x",) * 9
        assert game.initial_state() in solution and full_of_x not in solution
        with pytest.raises(UnknownStateError, match=r"unknown state 'xxx/xxx/xxx'.*'\.\.\./"):
            solution.value(full_of_x)

    def test_solve_from_a_later_position(self, solutions: dict[str, Solution]) -> None:
        """Solving from a mid-game position agrees with the full solution on every state."""
        game, full = load_game("tictactoe"), solutions["tictactoe"]
        later = solve(game, game.parse_state("x.o/.x./..."))
        assert later.root_value == full.value(later.root) == 0
        assert 1 < len(later) < len(full)
        for state, record in later:
            assert record == full.record(state)

    def test_terminal_root(self) -> None:
        """A game that is over at the root solves to one terminal state."""
        solution = solve(load_game("textbook", tree=7))
        assert (len(solution), solution.root_value, solution.counts.terminal) == (1, 7, 1)
        assert (solution.best_actions(()), solution.plies(())) == ((), 0)

    def test_long_games_need_no_recursion(self) -> None:
        """A 3,000-ply game solves without hitting Python's recursion limit."""
        solution = solve(TakeAway(3000))
        assert len(solution) > 5000
        for counters, player in solution.states():
            if counters:  # the player to move wins unless the counters are a multiple of three
                mover_wins = counters % 3 != 0
                assert solution.value((counters, player)) == (1 if mover_wins != player else -1)

    def test_progress_is_reported(self) -> None:
        """The callback sees growing counts and, last, every state seen."""
        seen: list[int] = []
        solution = solve(load_game("tictactoe-bitboard"), progress=seen.append)
        assert seen == [*range(PROGRESS_EVERY, len(solution) + 1, PROGRESS_EVERY), len(solution)]


class TestLimits:
    """The state limit and games that cycle."""

    def test_too_many_states(self) -> None:
        """More states than max_states stops the solve with a message saying what to do."""
        with pytest.raises(TooManyStatesError, match=r"saw 101 states.*raise max_states") as info:
            solve(load_game("tictactoe"), max_states=100)
        assert info.value.states_seen == 101
        assert isinstance(info.value, GameError)

    def test_limit_is_inclusive(self) -> None:
        """A limit equal to the number of states is enough; one fewer is not."""
        game = load_game("tictactoe-bitboard")
        assert len(solve(game, max_states=5478)) == 5478
        with pytest.raises(
            TooManyStatesError, match="saw 5,478 states, more than max_states=5,477;"
        ):
            solve(game, max_states=5477)

    def test_non_positive_limit(self) -> None:
        """A limit below one state is a ValueError quoting it."""
        with pytest.raises(ValueError, match="invalid max_states 0"):
            solve(load_game("tictactoe"), max_states=0)

    @pytest.mark.parametrize("loop_to_self", [False, True])
    def test_cycles_are_reported(self, loop_to_self: bool) -> None:
        """A state reachable from itself is a CycleError naming it in the game's notation."""
        with pytest.raises(CycleError, match=r"state '[AB]' is reachable from itself.*depth"):
            solve(Roundabout(loop_to_self))

    def test_acyclic_part_solves(self) -> None:
        """From the end state the cyclic game is nothing but a terminal state."""
        assert len(solve(Roundabout(), "end")) == 1


class TestExport:
    """JSON and CSV files hold one readable record per state in the game's notation."""

    def test_json_round_trip(self, solutions: dict[str, Solution], tmp_path: Path) -> None:
        """The JSON file parses, has the figures, and every record matches the solution."""
        game, solution = load_game("tictactoe"), solutions["tictactoe"]
        path = tmp_path / "table.json"
        solution.to_json(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert (data["game"], data["root"], data["states"], data["terminal"]) == (
            "tictactoe",
            ".../.../...",
            5478,
            958,
        )
        assert len(data["records"]) == 5478
        for row in data["records"]:
            state = game.parse_state(row["state"])
            assert row["value"] == solution.value(state)
            assert row["plies"] == solution.plies(state)
            assert row["endless"] is False
            assert row["to_move"] == game.to_move(state)
            best = tuple(game.parse_action(state, text) for text in row["best_actions"])
            assert best == solution.best_actions(state)

    def test_csv_round_trip(self, solutions: dict[str, Solution], tmp_path: Path) -> None:
        """The CSV file has a header and one row per state that reads back to the solution."""
        game, solution = load_game("tictactoe-bitboard"), solutions["tictactoe-bitboard"]
        path = tmp_path / "table.csv"
        solution.to_csv(path)
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) == 5478
        assert list(rows[0]) == ["state", "to_move", "value", "plies", "best_actions", "endless"]
        for row in rows:
            state = game.parse_state(row["state"])
            assert float(row["value"]) == solution.value(state)
            assert int(row["plies"]) == solution.plies(state)
            assert row["endless"] == "False"
            assert int(row["to_move"]) == game.to_move(state)
            best = tuple(format_action(game, state, a) for a in solution.best_actions(state))
            assert tuple(row["best_actions"].split()) == best


class TestSymmetryReduced:
    """solve(symmetric=True) keeps one state per class of the game's symmetries."""

    @pytest.mark.parametrize(
        ("name", "options"),
        [("tictactoe-bitboard", {}), ("connect4", {"width": 3, "height": 4})],
    )
    def test_the_reduced_solve_answers_as_the_full_one(
        self, name: str, options: dict[str, Any]
    ) -> None:
        """Every state of the full solve is found in the reduced one with the same value,
        plies, optimal moves and record; the table holds one state per class (tic-tac-toe:
        765 of 5,478, the known count of essentially different positions)."""
        game = load_game(name, **options)
        full = solve(game)
        reduced = solve(game, symmetric=True)
        classes = {frozenset(game.symmetries(s)) for s in full.states()}  # type: ignore[attr-defined]
        assert len(reduced) == reduced.counts.states == len(classes) < len(full)
        if name == "tictactoe-bitboard":
            assert (len(full), len(reduced)) == (5478, 765)
        assert reduced.root_value == full.root_value
        for state in full.states():
            assert state in reduced
            assert reduced.value(state) == full.value(state)
            assert reduced.plies(state) == full.plies(state)
            assert reduced.best_actions(state) == full.best_actions(state)
            assert reduced.record(state) == full.record(state)
        images = {frozenset(game.symmetries(s)) for s in reduced.states()}  # type: ignore[attr-defined]
        assert len(images) == len(classes)  # no two states held are images of each other

    def test_a_game_without_symmetries_is_solved_whole(self) -> None:
        """No symmetries: the same table either way."""
        game = load_game("textbook")
        assert len(solve(game, symmetric=True)) == len(solve(game))
