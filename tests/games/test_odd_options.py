"""Tests for game options and notation under odd input: deep trees, huge numbers, long text."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import load_game
from games.textbook import TextbookTree, parse_tree
from solver.errors import GameError, IllegalActionError, InvalidStateError
from solver.solve import solve


def chain(depth: int) -> str:
    """A tree nested ``depth`` lists deep: one leaf per level and two at the bottom."""
    return "[" * depth + "1, 2" + "]" * depth


class TestDeepTrees:
    @pytest.mark.parametrize("depth", [495, 5000])
    def test_a_deep_tree_loads_and_solves(self, depth: int) -> None:
        """A tree nested thousands deep loads without recursion and solves to its value."""
        game = load_game("textbook", tree=chain(depth))
        solution = solve(game)
        assert solution.root_value == (1 if depth % 2 == 0 else 2)
        assert len(repr(game)) < 120

    def test_a_deep_nested_list_loads_too(self) -> None:
        """A Python nested list deeper than the recursion limit is validated without recursion."""
        tree: Any = [1, 2]
        for _ in range(3000):
            tree = [tree]
        assert load_game("textbook", tree=tree).actions(()) == range(1)


class TestBadTrees:
    @pytest.mark.parametrize(
        "text",
        [
            "[1,",
            "[[1,2],]",
            "[1e400]",
            "[" + "9" * 5000 + "]",
            "[true]",
            "[]",
            "[[1],[]]",
            "[١]",
            "[1] [2]",
            "[" * 100_000,
        ],
    )
    def test_bad_tree_text_is_a_short_invalid_state_error(self, text: str) -> None:
        """Malformed tree text is an InvalidStateError of one short line."""
        with pytest.raises(InvalidStateError) as caught:
            load_game("textbook", tree=text)
        assert len(str(caught.value)) < 400 and "\n" not in str(caught.value)

    @pytest.mark.parametrize("leaf", [10**400, float("nan"), float("inf"), "x", None, True])
    def test_bad_leaves_are_refused(self, leaf: Any) -> None:
        """Leaves must be finite ints or floats (within a float's range)."""
        with pytest.raises(InvalidStateError, match=r"tree\[0\]\[1\]"):
            TextbookTree([[1, leaf]])

    @pytest.mark.parametrize("estimates", [[1], {"A": 1e400}, {"A": "1"}, {1: 2}, {"Z": 1}])
    def test_bad_estimates_are_refused(self, estimates: Any) -> None:
        """Estimates must map node texts to finite numbers."""
        with pytest.raises(InvalidStateError):
            load_game("textbook", estimates=estimates)

    @given(st.text(alphabet="[]0123456789,.-e ", max_size=30))
    def test_any_tree_text_loads_or_is_refused_clearly(self, text: str) -> None:
        """Tree text either parses or raises InvalidStateError, never anything else."""
        with contextlib.suppress(InvalidStateError):
            parse_tree(text)


class TestOptionErrors:
    @pytest.mark.parametrize("size", [-1, "abc", float("inf"), [1]])
    def test_bad_cache_sizes_are_game_errors(self, size: Any) -> None:
        """A bad Ayòayò cache size is a GameError naming it."""
        with pytest.raises(GameError, match="cache_size"):
            load_game("ayoayo", cache_size=size)

    def test_a_factory_value_error_becomes_a_game_error(self) -> None:
        """A plain ValueError from a game's factory reaches the caller as InvalidStateError."""
        with pytest.raises(InvalidStateError, match="labels"):
            load_game("textbook", labels="x" * 10_000)

    def test_long_option_names_are_quoted_by_their_beginning(self) -> None:
        """An unknown 16 KB option name is quoted by a prefix."""
        with pytest.raises(GameError) as caught:
            load_game("tictactoe", **{"o" * 16_000: 1})
        assert len(str(caught.value)) < 300


class TestMoveText:
    @pytest.mark.parametrize("game_name", ["tictactoe", "tictactoe-bitboard", "ayoayo", "textbook"])
    @pytest.mark.parametrize("text", ["²", "٣", "9" * 5000, "-1", "1e400", "", "\x00"])
    def test_odd_move_text_is_an_illegal_action(self, game_name: str, text: str) -> None:
        """Unicode digits, huge numbers and junk are IllegalActionError, quoted briefly."""
        game: Any = load_game(game_name)
        with pytest.raises(IllegalActionError) as caught:
            game.parse_action(game.initial_state(), text)
        assert len(str(caught.value)) < 400
