"""The generic compiled proof search (solver.compiled_proof) is generic and sound: on every game
given compiled rules, each threshold test it settles agrees with the game's exact values
(``solve``, or an independent solver for a game that cycles, where repeated positions are its
leaves).

The rules of tic-tac-toe and of a game on a graph that cycles are written here, in this file,
as a game's author writes them (numba compiles them from their source); Connect Four's are its
own.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from games import load_game
from games.tictactoe import LINES, O, TicTacToe, X
from solver.compiled import CompiledRules
from solver.compiled_proof import ProofSearch, new_table
from solver.proof_words import P_NODES, P_REPETITIONS
from solver.solve import solve
from tests.cyclic_games import GraphGame, values_by_iteration
from tests.solver.test_solve_cycles import random_graph_game

# -- tic-tac-toe over two bitboards: [X's cells, O's cells] ------------------------------------

TTT_LINES = np.array([sum(1 << i for i in line) for line in LINES], np.int64)


def marks(bits: int) -> int:
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


def has_line(bits: int, lines: Any) -> bool:
    for m in lines:  # noqa: SIM110 (a loop numba compiles)
        if bits & m == m:
            return True
    return False


def ttt_to_move(s: Any) -> int:
    return 0 if marks(s[0]) == marks(s[1]) else 1


def ttt_moves(s: Any, out: Any) -> int:
    if has_line(s[0], TTT_LINES) or has_line(s[1], TTT_LINES):
        return 0
    taken = s[0] | s[1]
    n = 0
    for cell in range(9):
        if not (taken >> cell) & 1:
            out[n] = cell
            n += 1
    return n


def ttt_play(s: Any, move: int, child: Any) -> None:
    child[0] = s[0]
    child[1] = s[1]
    child[ttt_to_move(s)] |= 1 << move


def ttt_utility(s: Any) -> float:
    return 1.0 if has_line(s[0], TTT_LINES) else -1.0 if has_line(s[1], TTT_LINES) else 0.0


def ttt_encode(board: tuple[str, ...]) -> Any:
    xs = sum(1 << i for i, c in enumerate(board) if c == X)
    os_ = sum(1 << i for i, c in enumerate(board) if c == O)
    return np.array([xs, os_], np.int64)


TTT_RULES = CompiledRules(
    name="tic-tac-toe (test)",
    words=2,
    move_limit=9,
    max_plies=9,
    encode=ttt_encode,
    moves=ttt_moves,
    play=ttt_play,
    to_move=ttt_to_move,
    utility=ttt_utility,
)

# -- a game on a graph that cycles (tests.cyclic_games.GraphGame): [kind, node, move] ----------


def union_of_graphs(rng: random.Random, count: int, size: int) -> GraphGame:
    """``count`` random graph games of ``size`` nodes side by side, as one game (one compiled
    set of rules, many small cyclic games: each node is a root)."""
    parts = [random_graph_game(rng, size) for _ in range(count)]
    player, moves, endless, terminal = [], [], [], []
    for i, part in enumerate(parts):
        base = i * size
        player += part.player
        moves += [[(k, x + base if k == "node" else x) for k, x in m] for m in part.moves]
        endless += part.endless
        terminal += part.terminal
    return GraphGame(player, moves, endless, terminal)


GRAPH = union_of_graphs(random.Random(2026), 40, 8)
SIZE = len(GRAPH.player)
G_PLAYER = np.array(GRAPH.player, np.int64)
G_COUNT = np.array([len(m) for m in GRAPH.moves], np.int64)
G_NODE = np.array(
    [[int(x) if k == "node" else -1 for k, x in m] + [-1] * (3 - len(m)) for m in GRAPH.moves],
    np.int64,
)
G_EXIT = np.array(
    [[float(x) if k == "exit" else 0.0 for k, x in m] + [0.0] * (3 - len(m)) for m in GRAPH.moves]
)
G_ENDLESS = np.array(GRAPH.endless, np.float64)
G_TERMINAL = np.array(GRAPH.terminal, np.float64)


def graph_moves(s: Any, out: Any) -> int:
    if s[0]:  # an exit: the game is over
        return 0
    n = G_COUNT[s[1]]
    for k in range(n):
        out[k] = k
    return n


def graph_play(s: Any, move: int, child: Any) -> None:
    target = G_NODE[s[1], move]
    child[0] = 1 if target < 0 else 0
    child[1] = s[1] if target < 0 else target
    child[2] = move if target < 0 else 0


def graph_to_move(s: Any) -> int:
    return 0 if s[0] else G_PLAYER[s[1]]


def graph_utility(s: Any) -> float:
    return G_EXIT[s[1], s[2]] if s[0] else G_TERMINAL[s[1]]


def graph_endless(s: Any) -> float:
    return 0.0 if s[0] else G_ENDLESS[s[1]]


def graph_encode(state: Any) -> Any:
    if isinstance(state, int):
        return np.array([0, state, 0], np.int64)
    return np.array([1, state[1], state[2]], np.int64)


GRAPH_RULES = CompiledRules(
    name="graph (test)",
    words=3,
    move_limit=3,
    max_plies=SIZE,
    encode=graph_encode,
    moves=graph_moves,
    play=graph_play,
    to_move=graph_to_move,
    utility=graph_utility,
    endless=True,
    endless_value=graph_endless,
)


def searched(rules: CompiledRules) -> ProofSearch:
    search = ProofSearch.of(rules)
    if search is None:
        pytest.skip("no compiled proof search here (numba switched off)")
    return search


def check_every_threshold(search: ProofSearch, values: dict[Any, float], xs: list[float]) -> None:
    """Each test ``value >= x`` of each state settles as its value says, one table per ``x``
    shared by every state (so what one test stored serves the next soundly)."""
    tables = {x: new_table(search.rules, 1 << 14) for x in xs}
    for state, value in values.items():
        for x in xs:
            assert search.holds(state, x, table=tables[x]) == (value >= x), (state, x, value)


class TestTicTacToe:
    def test_every_reachable_state_and_threshold_is_solves_value(self) -> None:
        """Every one of the 5,478 positions, at thresholds -1, -0.5, 0, 0.5, 1 and 1.5."""
        game = TicTacToe()
        solution = solve(game)
        values = {state: solution.value(state) for state in solution.states()}
        assert len(values) == 5478
        check_every_threshold(searched(TTT_RULES), values, [-1, -0.5, 0, 0.5, 1, 1.5])

    def test_a_proved_entry_holds_the_proving_move(self) -> None:
        """The start is a draw: X's test of 0 holds, and its table's entry names a move that
        keeps the draw (every first move does), proved, at the height of the longest line."""
        from solver.proof_words import PROVED, height_of, move_of, status_of

        game = TicTacToe()
        search = searched(TTT_RULES)
        table = search.new_table(1 << 14)
        start = game.initial_state()
        assert search.holds(start, 0, table=table)
        info = search.entry(table, start)
        assert status_of(info) == PROVED and move_of(info) in range(9)
        assert solve(game).value(game.result(start, move_of(info))) == 0
        assert 5 <= height_of(info) <= 9


class TestConnectFour:
    def test_sampled_4x4_positions_and_thresholds_are_solves_values(self) -> None:
        """40 positions of 4x4 Connect Four from seeded random games (6 to 11 stones), at
        thresholds -1, 0, 1 and 1.5 (the rules' own, as the node search has them)."""
        game = load_game("connect4", width=4, height=4)
        rng = random.Random(26)
        values: dict[Any, float] = {}
        while len(values) < 40:
            state = game.initial_state()
            for _ in range(rng.randint(6, 11)):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(game.actions(state)))
            values[state] = solve(game, state).value(state)
        assert {-1, 0, 1} <= set(values.values())
        check_every_threshold(searched(game.compiled_rules()), values, [-1, 0, 1, 1.5])


class TestAGameThatCycles:
    def test_every_state_and_threshold_is_the_independent_solvers_value(self) -> None:
        """Every node of 40 random 8-node graph games that cycle (and each exit), at every
        threshold between their values, equals the SCC-by-SCC solver of tests.cyclic_games:
        the repeated positions are scored by the endless rule (the search met them), and a
        result that used a repetition above its node is never stored (storing it, the tests
        sharing one table go wrong here)."""
        values: dict[Any, float] = {}
        for node in range(SIZE):
            values.update(values_by_iteration(GRAPH, node))
        cyclic = [u for u in range(SIZE) if any(k == "node" for k, _ in GRAPH.moves[u])]
        assert len(cyclic) > SIZE // 2 and len(set(values.values())) >= 5
        search = searched(GRAPH_RULES)
        xs = [x / 2 for x in range(-7, 9)]
        check_every_threshold(search, values, xs)
        assert search.st[P_REPETITIONS] > 0 and search.st[P_NODES] > 0
