"""Tests for Monte Carlo tree search (solver.mcts) and its agent.

What the theory guarantees is asserted, never a lucky outcome: the counts add up, the same
seed gives the same tree, the solver's bounds always hold the exact value (so what it proves is
the exact value, and a move it plays from a proven root keeps the value). Which move plain UCT
prefers after a finite number of iterations is not guaranteed, and is not asserted.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_game
from play import MctsAgent, parse_agent, run_match
from solver.errors import AgentError
from solver.mcts import MctsStep, mcts, ucb_terms, win_share
from solver.minimax import minimax
from solver.solve import solve
from tests.cyclic_games import GraphGame, PassingNim
from tests.solver.test_minimax import trees
from tests.tiny_games import TakeAway


def record(game: Any, state: Any = None, **options: Any) -> tuple[Any, list[MctsStep]]:
    steps: list[MctsStep] = []
    result = mcts(game, state, observer=steps.append, **options)
    return result, steps


def replay(steps: list[MctsStep]) -> dict[int, dict[str, Any]]:
    """Each node's parent, last reported counts and own playouts, from the steps alone."""
    nodes: dict[int, dict[str, Any]] = {0: {"parent": None, "own": 0, "own_w": 0.0, "n": 0, "w": 0}}
    for step in steps:
        if step.expanded is not None:
            nodes[step.expanded] = {"parent": step.parent, "own": 0, "own_w": 0.0}
        last = nodes[step.path[-1]]
        last["own"] += 1
        last["own_w"] += step.result
        for stat in step.stats:
            nodes[stat.node].update(n=stat.n, w=stat.w, lo=stat.lo, hi=stat.hi)
    return nodes


def check_counts(steps: list[MctsStep]) -> None:
    nodes = replay(steps)
    for node, data in nodes.items():
        kids = [d for d in nodes.values() if d["parent"] == node]
        assert data["n"] == data["own"] + sum(k["n"] for k in kids)
        assert math.isclose(data["w"], data["own_w"] + sum(k["w"] for k in kids), abs_tol=1e-9)


def states_of(game: Any, steps: list[MctsStep], root: Any) -> dict[int, Any]:
    states = {0: root}
    for step in steps:
        if step.expanded is not None:
            states[step.expanded] = step.state
    return states


def check_bounds(game: Any, steps: list[MctsStep], root: Any, exact: Any) -> int:
    """Every bound reported holds the exact value; returns how many nodes were proven."""
    states = states_of(game, steps, root)
    proven = set()
    for step in steps:
        for stat in step.stats:
            value = exact(states[stat.node])
            assert stat.lo <= value <= stat.hi
            if stat.lo == stat.hi:
                proven.add(stat.node)
    return len(proven)


class TestCounts:
    """N and W add up: a node's counts are its children's plus its own playouts."""

    @settings(max_examples=40, deadline=None)
    @given(
        tree=trees(),
        seed=st.integers(0, 2**32),
        c=st.floats(0, 3),
        cap=st.integers(1, 30),
        solver=st.booleans(),
    )
    def test_random_trees(self, tree: Any, seed: int, c: float, cap: int, solver: bool) -> None:
        """On random textbook trees, any seed, constant, node cap and solver setting."""
        game = load_game("textbook", tree=tree)
        result, steps = record(
            game, iterations=60, seed=seed, exploration=c, max_nodes=cap, solver=solver
        )
        check_counts(steps)
        assert result.nodes <= cap
        assert result.iterations == len(steps)

    def test_tictactoe(self) -> None:
        """On tic-tac-toe from the empty board, with playouts of every length."""
        _, steps = record(load_game("tictactoe"), iterations=500, seed=3)
        check_counts(steps)
        assert steps[-1].stats[0].n == 500


class TestWinsAndPlayouts:
    """What AIMA's Figure 5.10 needs: wins per mover and the playout's moves."""

    def test_playout_moves_replay_to_the_result(self) -> None:
        """Playing a step's reported playout from the node it ran from ends at its result."""
        game: Any = load_game("tictactoe")
        _, steps = record(game, iterations=60, seed=5)
        states = states_of(game, steps, game.initial_state())
        for step in steps:
            state = states[step.path[-1]]
            for move in step.playout:
                state = game.result(state, move)
            assert len(step.playout) == step.plies
            assert game.is_terminal(state) and game.utility(state) == step.result

    def test_wins_are_counted_for_the_player_who_moved_in(self) -> None:
        """A node's wins sum its playouts' shares for the player who moved into it."""
        game: Any = load_game("tictactoe")
        _, steps = record(game, iterations=80, seed=2)
        states = states_of(game, steps, game.initial_state())
        wins: dict[int, float] = {}
        for step in steps:
            for node in step.path:
                above = [s.parent for s in steps if s.expanded == node]
                into = game.to_move(states[above[0]]) if above else 1 - game.to_move(states[0])
                wins[node] = wins.get(node, 0.0) + win_share(step.result, into)
            for stat in step.stats:
                assert stat.wins == wins[stat.node]

    def test_draws_count_half(self) -> None:
        """A tree of draws: every node wins half its playouts."""
        _, steps = record(load_game("textbook", tree="[[0, 0], [0, 0]]"), iterations=5)
        assert all(stat.wins == stat.n / 2 for stat in steps[-1].stats)


class TestDeterminism:
    """The same seed gives the same tree."""

    def test_same_seed_same_steps(self) -> None:
        """Two searches with one seed report the same steps and the same answer."""
        game = load_game("tictactoe")
        first = record(game, iterations=300, seed=11)
        second = record(game, iterations=300, seed=11)
        assert first[1] == second[1]
        assert first[0].children == second[0].children

    def test_heuristic_playouts_too(self) -> None:
        """Heuristic playouts break their ties with the same seeded stream."""
        game = load_game("tictactoe")
        runs = [record(game, iterations=200, seed=5, playout="heuristic")[1] for _ in range(2)]
        assert runs[0] == runs[1]


class TestSolver:
    """MCTS-Solver's bounds hold the exact value; what it proves is the exact value."""

    @settings(max_examples=40, deadline=None)
    @given(tree=trees(), seed=st.integers(0, 2**32), iterations=st.integers(1, 80))
    def test_random_trees(self, tree: Any, seed: int, iterations: int) -> None:
        """On random textbook trees every bound at every step holds the minimax value."""
        game = load_game("textbook", tree=tree)
        result, steps = record(game, iterations=iterations, seed=seed, solver=True)
        check_bounds(game, steps, (), lambda s: minimax(game, s).value)
        if result.proven is not None:
            assert result.proven == minimax(game).value

    def test_textbook_figure(self) -> None:
        """AIMA Figure 5.2 is proven 3, and the move kept is the optimal one."""
        game = load_game("textbook")
        result, steps = record(game, iterations=1000, seed=0, solver=True)
        assert (result.proven, result.stopped, result.best_action) == (3, "proven", 0)
        assert check_bounds(game, steps, (), lambda s: minimax(game, s).value) > 5

    def test_tictactoe_from_the_start(self) -> None:
        """Tic-tac-toe is proven a draw; every node proven on the way has its exact value."""
        game = load_game("tictactoe")
        table = solve(game)
        result, steps = record(game, iterations=40_000, seed=2, solver=True)
        assert (result.proven, result.stopped) == (0, "proven")
        assert result.best_action in table.best_actions(game.initial_state())
        assert check_bounds(game, steps, game.initial_state(), table.value) > 1000

    def test_tictactoe_positions(self) -> None:
        """On sampled positions a proven root plays a value-keeping move."""
        game = load_game("tictactoe")
        table = solve(game)
        rng = random.Random(7)
        states = [s for s in table.states() if not game.is_terminal(s)]
        proven = 0
        for state in rng.sample(states, 40):
            result = mcts(game, state, iterations=3000, seed=rng.randrange(1000), solver=True)
            if result.proven is not None:
                proven += 1
                assert result.proven == table.value(state)
                assert result.best_action in table.best_actions(state)
            else:
                assert result.bounds[0] <= table.value(state) <= result.bounds[1]
        assert proven >= 30

    def test_takeaway(self) -> None:
        """The bare tiny game (no utility range): proven only once all moves are proven."""
        game = TakeAway(7)
        table = solve(game)
        result, steps = record(game, iterations=2000, seed=1, solver=True)
        assert result.proven == table.value(game.initial_state())
        check_bounds(game, steps, game.initial_state(), table.value)


class TestCycles:
    """Games that cycle never hang a playout: a repetition or the ply cap ends it."""

    def test_repetition_ends_playouts(self) -> None:
        """Passing Nim's playouts end at a repeated position, scored by endless_value."""
        game = PassingNim(pile=3, endless=0)
        _, steps = record(game, iterations=300, seed=4, playout_plies=10_000)
        assert {s.ended for s in steps} >= {"repetition"}
        assert all(s.result == 0 for s in steps if s.ended == "repetition")

    def test_ply_cap_without_endless_value(self) -> None:
        """A cycle in a game that declares no endless value stops at the ply cap."""
        game = GraphGame(  # from node 1 play goes round 1, 2, 1, ... for ever
            player=[0, 1, 0],
            moves=[[("node", 1), ("exit", 1.0)], [("node", 2)], [("node", 1)]],
            endless=[0, 0, 0],
            terminal=[0, 0, 0],
        )
        cyclic = _without_endless(game)
        _, steps = record(cyclic, iterations=50, seed=0, playout_plies=25)
        assert all(s.plies <= 25 for s in steps)
        assert "ply-limit" in {s.ended for s in steps}


def _without_endless(game: Any) -> Any:
    class Plain:
        name = "plain"
        initial_state = game.initial_state
        to_move = game.to_move
        actions = game.actions
        result = game.result
        is_terminal = game.is_terminal
        utility = game.utility

    return Plain()


class TestLimits:
    """Limits stop the search; bad options are refused with what is valid."""

    def test_time_limit(self) -> None:
        """A time limit stops an open-ended search."""
        result = mcts(load_game("tictactoe"), time_limit=0.05, seed=0)
        assert result.stopped == "time" and result.seconds < 1

    def test_node_cap(self) -> None:
        """The tree never holds more than max_nodes; the iterations still run."""
        result = mcts(load_game("tictactoe"), iterations=500, max_nodes=20, seed=0)
        assert (result.nodes, result.iterations) == (20, 500)

    def test_interrupt_returns_the_answer_so_far(self) -> None:
        """Ctrl-C (KeyboardInterrupt) during an iteration ends the search with its answer."""

        def interrupt(step: MctsStep) -> None:
            if step.iteration == 50:
                raise KeyboardInterrupt

        result = mcts(load_game("tictactoe"), iterations=1000, seed=0, observer=interrupt)
        assert result.interrupted and result.iterations == 49 and result.best_action is not None

    @pytest.mark.parametrize(
        ("option", "value", "words"),
        [
            ("iterations", -1, "invalid iterations -1: use a whole number >= 1"),
            ("iterations", True, "invalid iterations True"),
            ("exploration", "abc", "invalid exploration constant 'abc': use a finite number"),
            ("exploration", math.nan, "invalid exploration constant nan"),
            ("time_limit", 0, "invalid time limit 0: use a finite number above 0"),
            ("max_nodes", 0, "invalid max nodes 0"),
            ("playout", "smart", "invalid playout 'smart': use one of random, heuristic"),
        ],
    )
    def test_bad_options(self, option: str, value: Any, words: str) -> None:
        """Each bad option is named with its value and what is valid."""
        with pytest.raises(ValueError, match="^" + words.replace("(", r"\(")):
            mcts(load_game("tictactoe"), **{option: value})

    def test_terminal_root(self) -> None:
        """A finished game has no move to play."""
        game: Any = load_game("tictactoe")
        result = mcts(game, game.parse_state("xxx/oo./..."), iterations=5)
        assert result.best_action is None and result.value == 1


class TestUcb:
    """The UCB1 terms as the selection uses them."""

    def test_selection_follows_the_terms(self) -> None:
        """At every step, each selected child had the best UCB score among its siblings."""
        game = load_game("textbook")
        _, steps = record(game, iterations=40, seed=0, exploration=1.0)
        counts: dict[int, tuple[int, float]] = {0: (0, 0.0)}
        parents: dict[int, int] = {}
        span = 12.0  # the leaves of Figure 5.2 run from 2 to 14
        for step in steps:
            for parent, child in zip(step.path, step.path[1:], strict=False):
                if child == step.expanded:
                    break
                siblings = [k for k, p in parents.items() if p == parent]
                mover = len(_depth_path(parents, parent)) % 2
                scores = {
                    k: sum(ucb_terms(mover, counts[parent][0], *counts[k], 1.0, span))
                    for k in siblings
                }
                assert scores[child] == max(scores.values())
            if step.expanded is not None:
                parents[step.expanded] = step.parent  # type: ignore[assignment]
            for stat in step.stats:
                counts[stat.node] = (stat.n, stat.w)
        assert len(parents) > 10


def _depth_path(parents: dict[int, int], node: int) -> list[int]:
    path = []
    while node in parents:
        node = parents[node]
        path.append(node)
    return path


class TestAgent:
    """The mcts agent for play and match."""

    @pytest.mark.parametrize(
        ("spec", "agent"),
        [
            ("mcts", MctsAgent(iterations=1000)),
            ("mcts:2000", MctsAgent(iterations=2000)),
            ("MCTS:0.5s", MctsAgent(seconds=0.5)),
            ("mcts:300,c=0.7,solver", MctsAgent(iterations=300, exploration=0.7, solver=True)),
            ("mcts:300,heuristic", MctsAgent(iterations=300, heuristic=True)),
        ],
    )
    def test_specs(self, spec: str, agent: MctsAgent) -> None:
        """Each spec names its agent, and the agent's name is a spec for itself."""
        parsed = parse_agent(spec)
        assert parsed == agent
        assert parse_agent(parsed.name) == agent

    @pytest.mark.parametrize(
        ("spec", "words"),
        [
            ("mcts:-5", "bad iterations '-5' in agent 'mcts:-5'; expected a whole number"),
            ("mcts:0", "bad iterations '0'"),
            ("mcts:abcs", "bad time 'abcs'"),
            ("mcts:100,c=abc", "bad exploration constant 'abc'"),
            ("mcts:100,c=nan", "bad exploration constant 'nan'"),
            ("mcts:100,fast", "unknown option 'fast' in agent 'mcts:100,fast'"),
        ],
    )
    def test_bad_specs(self, spec: str, words: str) -> None:
        """A bad limit or option is named, with the forms that are valid."""
        with pytest.raises(AgentError, match="^" + words) as caught:
            parse_agent(spec)
        assert "mcts:ITERATIONS" in str(caught.value)

    def test_match_is_reproducible(self) -> None:
        """An iteration-limited match gives the same games for one seed."""
        game = load_game("tictactoe")
        runs = [
            run_match(game, "mcts:200", "random", games=4, seed=3, swap=True, keep_moves=True)
            for _ in range(2)
        ]
        assert [o.moves for o in runs[0].outcomes] == [o.moves for o in runs[1].outcomes]
