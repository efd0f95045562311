"""Tests for the engine's symmetry-reduced table: the answers of the unreduced one."""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_game
from solver.engine import search
from solver.node_search import Limits
from solver.python_search import PythonSearch
from solver.results import SearchRequest, SearchResult
from solver.solve import solve
from solver.symmetry import canonical_key, image_action
from solver.table import END
from tests.tiny_games import TakeAway

SAME = (
    "value",
    "best_actions",
    "best_action",
    "exact",
    "plies",
    "action_values",
    "action_plies",
    "complete",
)
"""What the reduced search must answer exactly as the unreduced one. Not ``depth``: a
symmetric image's horizon-free entry may settle a move an iteration sooner, and then
deepening stops sooner with the same answer; not ``pv``: among equally preferred lines the
table may lead to another one (each is checked legal and value-keeping)."""


@cache
def tictactoe_states() -> list[Any]:
    game = load_game("tictactoe-bitboard")
    return [s for s in solve(game).states() if not game.is_terminal(s)]


def assert_same(game: Any, state: Any, plain: SearchResult, reduced: SearchResult) -> None:
    for field in SAME:
        assert getattr(reduced, field) == getattr(plain, field), (field, state)
    assert_line(game, state, reduced)


def assert_line(game: Any, state: Any, result: SearchResult) -> None:
    """The PV is legal, starts with the chosen move, and, when plies are known, is that long
    and ends the game at the value."""
    assert result.pv[:1] == (() if result.best_action is None else (result.best_action,))
    for action in result.pv:
        assert action in game.actions(state), (action, state)
        state = game.result(state, action)
    if result.exact and result.plies is not None:
        assert len(result.pv) == result.plies
        assert game.is_terminal(state) and game.utility(state) == result.value


def connect4_positions(game: Any, count: int, seed: int) -> list[Any]:
    """Seeded positions of 6 to 9 stones, every other one its own mirror image (so the two
    halves of its tree are mirror images, and the reduced table serves one from the other)."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(6, 9)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        mirrored = len(game.symmetries(state)) == 1
        if not game.is_terminal(state) and mirrored == (len(found) % 2 == 0):
            found.append(state)
    return found


class TestSameAnswers:
    def test_tictactoe_states_to_the_end(self) -> None:
        """The start and 400 other positions (one in eleven, seeded), searched to the end."""
        game = load_game("tictactoe-bitboard")
        states = random.Random(7).sample(tictactoe_states(), 400)
        for state in [game.initial_state(), *states]:
            plain, reduced = search(game, state), search(game, state, symmetric=True)
            assert_same(game, state, plain, reduced)

    def test_tictactoe_depth_limited(self) -> None:
        """At depths 2 and 3 (values from the evaluation at the horizon), every move's value
        asked for too, on the readable tic-tac-toe (a board of strings)."""
        game, bitboard = load_game("tictactoe"), load_game("tictactoe-bitboard")
        for depth, seed in ((2, 1), (3, 2)):
            for state in random.Random(seed).sample(tictactoe_states(), 150):
                state = game.parse_state(bitboard.format_state(state))
                plain = search(game, state, depth=depth, all_values=True)
                reduced = search(game, state, depth=depth, all_values=True, symmetric=True)
                assert_same(game, state, plain, reduced)

    def test_connect4_4x4(self) -> None:
        """Connect Four 4x4 positions solved to the end and searched 4 plies deep (values
        from the evaluation at the horizon), mirrored ones among them."""
        game = load_game("connect4", width=4, height=4)
        nodes = {"plain": 0, "reduced": 0}
        for state in connect4_positions(game, 8, seed=3):
            plain = search(game, state, native=False)
            reduced = search(game, state, symmetric=True)
            assert_same(game, state, plain, reduced)
            cut = search(game, state, depth=4, native=False, all_values=True)
            assert_same(
                game, state, cut, search(game, state, depth=4, symmetric=True, all_values=True)
            )
            nodes["plain"] += plain.stats.nodes
            nodes["reduced"] += reduced.stats.nodes
        assert nodes["reduced"] < nodes["plain"]  # mirrored positions met: the table served

    @settings(max_examples=40, deadline=None)
    @given(
        moves=st.lists(st.integers(0, 8), max_size=6),
        depth=st.one_of(st.none(), st.integers(1, 6)),
        seed=st.one_of(st.none(), st.integers(0, 3)),
    )
    def test_any_line_any_depth(
        self, moves: list[int], depth: int | None, seed: int | None
    ) -> None:
        """From positions reached by any moves, to any depth, with any seed."""
        game = load_game("tictactoe-bitboard")
        state = game.initial_state()
        for move in moves:
            if game.is_terminal(state):
                break
            legal = game.actions(state)
            state = game.result(state, legal[move % len(legal)])
        plain = search(game, state, depth=depth, seed=seed)
        reduced = search(game, state, depth=depth, seed=seed, symmetric=True)
        assert_same(game, state, plain, reduced)


class TestSmallerTable:
    def test_tictactoe_from_the_start(self) -> None:
        """Fewer nodes and entries: an opening move's eight images share theirs."""
        game = load_game("tictactoe-bitboard")
        plain, reduced = search(game), search(game, symmetric=True)
        assert reduced.stats.nodes < plain.stats.nodes / 2
        assert reduced.stats.table_entries is not None and plain.stats.table_entries is not None
        assert reduced.stats.table_entries < plain.stats.table_entries / 2

    def test_one_entry_per_class(self) -> None:
        """Every entry of a reduced table is under its class's key, so no two entries hold
        positions of one class; its moves are legal in the positions that stored them."""
        game = load_game("tictactoe-bitboard")
        canonical = canonical_key(game, game.key)
        limits = Limits(None, None)
        limits.start()
        nodes = PythonSearch(game, SearchRequest(), game.evaluate, None, limits, symmetric=True)
        root = game.initial_state()
        for action in game.actions(root):
            nodes.child_value(game.result(root, action), 1, 0, END, -math.inf, math.inf)
        entries = nodes.table.entries
        assert len(entries) > 100
        for key, (*_, (image, move), _free, _generation) in entries.items():
            assert canonical(image) == key and move in game.actions(image)

    def test_a_game_without_symmetries_is_searched_as_before(self) -> None:
        """The option changes nothing for a game that has no symmetries."""
        game = TakeAway(9)
        plain, reduced = search(game), search(game, symmetric=True)
        assert attrs_equal(plain, reduced)


def attrs_equal(a: SearchResult, b: SearchResult) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in (*SAME, "pv", "depth")) and (
        a.stats.nodes == b.stats.nodes
    )


class TestImageAction:
    def test_every_move_of_every_image(self) -> None:
        """A move carried to an image leads to a child equivalent to the move's own."""
        game = load_game("tictactoe-bitboard")
        canonical = canonical_key(game, game.key)
        for state in random.Random(4).sample(tictactoe_states(), 100):
            for image in game.symmetries(state):
                for action in game.actions(state):
                    moved = image_action(canonical, state, action, image, game.actions, game.result)
                    assert canonical(game.result(image, moved)) == canonical(
                        game.result(state, action)
                    )
