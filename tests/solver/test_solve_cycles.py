"""Tests for solving games that cycle: hand-solved toys, random graphs, Ayòayò endgames."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_game
from solver.game import GameError
from solver.solve import CycleError, Solution, solve
from tests.cyclic_games import GraphGame, PassingNim, values_by_iteration
from tests.solver.test_retrograde import ExplicitGame, explicit_games
from tests.solver.test_solve import Roundabout


class EndlessRoundabout(Roundabout):
    """The roundabout of test_solve, where endless play is worth +1 to MAX."""

    def endless_value(self, state: str) -> float:
        return 1


class Seesaw:
    """Endless values that change along the cycle a <-> b: not a game solve can score."""

    name = "seesaw"

    def initial_state(self) -> str:
        return "a"

    def to_move(self, state: str) -> int:
        return 0 if state == "a" else 1

    def actions(self, state: str) -> list[str]:
        return ["go"]

    def result(self, state: str, action: str) -> str:
        return "b" if state == "a" else "a"

    def is_terminal(self, state: str) -> bool:
        return False

    def utility(self, state: str) -> float:
        raise AssertionError("never over")

    def endless_value(self, state: str) -> float:
        return 1 if state == "a" else -1


def graph_game(game: ExplicitGame) -> GraphGame:
    return GraphGame(game.player, game.moves, game.endless, game.terminal)


class TestHandSolvedGames:
    """Values, optimal moves, plies and the endless marker derived by hand (see the games)."""

    def test_passing_nim_draws_from_three_counters(self) -> None:
        """Endless 0: 1 or 2 counters win at once, 0 loses, 3 or more draw by passing."""
        solution = solve(PassingNim(6))
        for counters in range(7):
            for player in (0, 1):
                state = (counters, player)
                mover = solution.value(state) * (1 if player == 0 else -1)
                if counters == 0:
                    assert (mover, solution.plies(state)) == (-1, 0)
                elif counters <= 2:
                    assert (mover, solution.plies(state)) == (1, 1)
                    assert solution.best_actions(state) == (("take1", "take2")[counters - 1],)
                else:
                    assert (mover, solution.plies(state), solution.endless(state)) == (
                        0,
                        None,
                        True,
                    )
        assert solution.best_actions((3, 0)) == ("pass",)  # taking hands the opponent a win
        assert solution.best_actions((4, 0)) == ("take1", "pass")  # 3 left also draws
        assert solution.best_actions((5, 1)) == ("take1", "take2", "pass")  # 4 or 3 left draw

    def test_passing_nim_when_cycling_favours_max(self) -> None:
        """Endless +1: MAX wins every heap of 3 or more, only by endless play."""
        solution = solve(PassingNim(5, endless=1))
        for counters in range(3, 6):
            for player in (0, 1):
                assert solution.value((counters, player)) == 1
                assert solution.endless((counters, player))
        assert solution.value((2, 1)) == -1 and solution.plies((2, 1)) == 1
        assert solution.counts.endless == 6

    def test_a_loop_the_mover_leaves_for_a_win(self) -> None:
        """a (MAX) <-> b (MIN), a may exit for +2, b for +5, endless 0: both +2 (1 and 2 plies)."""
        game = GraphGame(
            [0, 1], [[("node", 1), ("exit", 2)], [("node", 0), ("exit", 5)]], [0, 0], [0, 0]
        )
        solution = solve(game)
        assert [solution.value(s) for s in (0, 1)] == [2, 2]
        assert [solution.plies(s) for s in (0, 1)] == [1, 2]
        # Going round keeps the value too (b is worth +2), but only the exit makes progress.
        assert solution.best_actions(0) == (0, 1) and solution.best_actions(1) == (0,)

    def test_endless_roundabout(self) -> None:
        """MAX would go round for ever (+1), so MIN at B stops: a draw from both A and B."""
        solution = solve(EndlessRoundabout())
        assert (solution.value("a"), solution.value("b")) == (0, 0)
        assert solution.best_actions("b") == ("go", "stop")  # going round keeps 0 too
        assert solution.plies("a") == 1  # no slowest end round the loop: the quickest one
        looping = solve(EndlessRoundabout(loop_to_self=True))  # MIN at B can only stay
        assert looping.value("a") == 1 and looping.endless("a")
        assert looping.best_actions("a") == ("go",)


class TestAgainstIndependentSolvers:
    """On random graphs solve agrees with brute force and with SCC value iteration."""

    @settings(max_examples=150, deadline=None)
    @given(game=explicit_games())
    def test_small_graphs_match_brute_force(self, game: ExplicitGame) -> None:
        """Every reachable node's value is max-min over positional strategies."""
        solution = solve(graph_game(game))
        brute = game.brute_force()
        for state in solution.states():
            if isinstance(state, int):
                assert solution.value(state) == brute[state]

    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 40))
    def test_larger_graphs_match_value_iteration(self, seed: int, size: int) -> None:
        """Up to 40 nodes, every reachable state's value is the SCC value iteration's."""
        game = random_graph_game(random.Random(seed), size)
        solution = solve(game)
        expected = values_by_iteration(game, game.initial_state())
        assert {s: float(solution.value(s)) for s in solution.states()} == expected

    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 40))
    def test_plies_follow_the_preference(self, seed: int, size: int) -> None:
        """Finite plies are 1 + the preferred optimal child's; a winner marked endless has no
        optimal child with finite plies; Bellman holds everywhere."""
        game = random_graph_game(random.Random(seed), size)
        check_bellman_and_plies(game, solve(game))


FOUR_SEED_ENDGAMES = (
    "[[0,1,0,0,1,0],[0,1,0,1,0,0]] captured 22,22 to-move 0",
    "[[2,0,0,0,0,0],[0,0,1,0,0,1]] captured 20,24 to-move 1",
    "[[0,0,0,0,1,1],[1,0,0,1,0,0]] captured 24,20 to-move 0",
)


class TestAyoayoEndgames:
    """Solved Ayòayò endgames are consistent and agree with the independent solver."""

    @pytest.mark.parametrize("text", FOUR_SEED_ENDGAMES)
    def test_four_seed_endgames(self, text: str) -> None:
        """Every reachable position: Bellman, plies, and the value iteration's value."""
        game = load_game("ayoayo")
        root = game.parse_state(text)
        solution = solve(game, root)
        check_bellman_and_plies(game, solution)
        expected = values_by_iteration(game, root)
        assert {s: float(solution.value(s)) for s in solution.states()} == expected

    @pytest.mark.slow
    def test_an_eight_seed_endgame(self) -> None:
        """94,076 positions from an 8-seed endgame: Bellman and plies hold at every one."""
        game = load_game("ayoayo")
        solution = solve(game, game.parse_state("[[1,1,0,2,0,0],[0,2,0,1,1,0]] captured 20,20"))
        assert len(solution) == 94_076
        check_bellman_and_plies(game, solution)

    def test_a_played_out_repetition_scores_the_endless_value(self) -> None:
        """A match that repeats a position scores captured[0] - captured[1], as solve does."""
        game = load_game("ayoayo")
        state = game.parse_state("[[0,1,0,0,1,0],[0,1,0,1,0,0]] captured 22,22 to-move 0")
        assert game.endless_value(state) == 0
        assert game.endless_value(game.parse_state("[[2,0,0,0,0,0],[0,0,1,0,0,1]] 20,24 1")) == -4


class TestErrorsAndExport:
    """Games that cycle without endless_value, inconsistent endless values, and the files."""

    def test_a_cycle_without_endless_value_names_the_state(self) -> None:
        """Without the capability a cycle is still a CycleError, now pointing at endless_value."""
        with pytest.raises(
            CycleError, match=r"state '[AB]' is reachable from itself.*endless_value"
        ):
            solve(Roundabout())

    def test_inconsistent_endless_values_are_refused(self) -> None:
        """An endless_value that changes along a cycle is a GameError naming a state."""
        with pytest.raises(GameError, match=r"not constant along a cycle through state \"'[ab]'\""):
            solve(Seesaw())

    def test_json_and_csv_mark_endless_states(self, tmp_path: Path) -> None:
        """Endless states have plies null (JSON) or empty (CSV) and endless true."""
        solution = solve(PassingNim(4))
        solution.to_json(tmp_path / "s.json")
        data = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
        assert data["endless"] == solution.counts.endless == 4
        rows = {row["state"]: row for row in data["records"]}
        assert rows["4 MAX"]["plies"] is None and rows["4 MAX"]["endless"] is True
        assert rows["2 MIN"]["plies"] == 1 and rows["2 MIN"]["endless"] is False
        solution.to_csv(tmp_path / "s.csv")
        lines = (tmp_path / "s.csv").read_text(encoding="utf-8").splitlines()
        assert lines[0] == "state,to_move,value,plies,best_actions,endless"
        assert "4 MAX,0,0,,take1 pass,True" in lines


def random_graph_game(rng: random.Random, size: int) -> GraphGame:
    """A random game on ``size`` nodes: 0 to 3 moves each, exits worth -3..3, endless values
    drawn per strongly connected component so that they are constant along every cycle."""
    import networkx as nx

    player = [rng.randrange(2) for _ in range(size)]
    moves: list[list[tuple[str, float]]] = []
    for _ in range(size):
        count = rng.choice([0, 1, 2, 2, 3, 3])
        moves.append(
            [
                ("node", rng.randrange(size))
                if rng.random() < 0.8
                else ("exit", rng.randint(-3, 3))
                for _ in range(count)
            ]
        )
    graph = nx.DiGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from((u, int(x)) for u in range(size) for k, x in moves[u] if k == "node")
    endless = [0.0] * size
    for component in nx.strongly_connected_components(graph):
        value = float(rng.randint(-3, 3))
        for u in component:
            endless[u] = value
    terminal = [float(rng.randint(-3, 3)) for _ in range(size)]
    return GraphGame(player, moves, endless, terminal)


def check_bellman_and_plies(game: Any, solution: Solution) -> None:
    """Bellman (value = the mover's best child) and the plies rule, at every solved state.

    Among value-keeping children: a winner's plies are 1 + the quickest finite child's (None if
    none is finite); a loser's 1 + the slowest child's (None if one is None); a draw's 1 + the
    slowest child's, or the quickest finite one's where a child is None (None if none is
    finite).
    """
    for state in solution.states():
        value, plies = solution.value(state), solution.plies(state)
        actions = game.actions(state)
        if not actions:
            assert (value, plies) == (game.utility(state), 0)
            continue
        children = [game.result(state, a) for a in actions]
        child_values = [solution.value(c) for c in children]
        mover = 1 if game.to_move(state) == 0 else -1
        assert value == (max if mover == 1 else min)(child_values)
        kept = [
            solution.plies(c) for c, v in zip(children, child_values, strict=True) if v == value
        ]
        finite = [1 + p for p in kept if p is not None]
        everything = len(finite) == len(kept)
        if mover * value > 0:
            assert plies == (min(finite) if finite else None)
        elif mover * value < 0:
            assert plies == (max(finite) if everything else None)
        elif plies is None:
            assert not finite
        else:
            assert plies in ((max(finite) if everything else None), min(finite))
