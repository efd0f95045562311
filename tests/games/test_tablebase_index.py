"""Tablebase layout: stars-and-bars ranks, levels, splits, the mover's view, symmetry."""

from __future__ import annotations

import random
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.ayoayo import Ayoayo, AyoayoState
from games.ayoayo.board import CELLS
from games.ayoayo.tablebase_index import (
    board_count,
    boards,
    boards_of,
    level_size,
    levels_up_to,
    rank,
    split_index,
    splits,
    unrank,
    view_of,
)
from games.ayoayo.tablebase_moves import level_moves

GAME = Ayoayo(cache_size=0)


def _random_board(rng: random.Random, seeds: int) -> tuple[int, ...]:
    cuts = sorted(rng.randint(0, seeds) for _ in range(11))
    return tuple(b - a for a, b in zip([0, *cuts], [*cuts, seeds], strict=True))


def _turned(state: AyoayoState) -> AyoayoState:
    """The same position with the board turned round: pit q <-> q + 6, players swapped."""
    pits = view_of(state[:12], 1)
    return tuple.__new__(AyoayoState, (*pits, state[13], state[12], 1 - state[14]))


class TestRanks:
    """Boards are ranked 0 .. C(n + 11, 11) - 1 in lexicographic order."""

    @pytest.mark.parametrize("seeds", [0, 4, 8])
    def test_every_board_once_in_order(self, seeds: int) -> None:
        """Iterating a level gives each board of its seeds once, sorted, at its rank."""
        listed = list(boards(seeds))
        assert len(listed) == len(set(listed)) == board_count(seeds) == comb(seeds + 11, 11)
        assert listed == sorted(listed)
        assert all(sum(b) == seeds and len(b) == 12 for b in listed)
        assert [rank(b) for b in listed] == list(range(len(listed)))
        assert [unrank(seeds, i) for i in range(len(listed))] == listed

    @pytest.mark.parametrize("seeds", [12, 20, 48])
    def test_rank_unrank_round_trip_on_samples(self, seeds: int) -> None:
        """unrank(rank(b)) == b on random boards of big levels, and rank is within range."""
        rng = random.Random(seeds)
        for _ in range(300):
            board = _random_board(rng, seeds)
            r = rank(board)
            assert 0 <= r < board_count(seeds)
            assert unrank(seeds, r) == board

    def test_ranges_agree_with_the_whole(self) -> None:
        """A range of ranks gives the same boards as the slice of the whole level."""
        whole = list(boards(8))
        for start in range(0, len(whole), 4999):
            stop = min(start + 777, len(whole))
            assert list(boards(8, start, stop)) == whole[start:stop]

    def test_rows_of_any_length(self) -> None:
        """boards_of lists every composition of a row, sorted."""
        rows = list(boards_of(4, 6))
        assert len(rows) == comb(9, 5) and rows == sorted(set(rows))

    def test_bad_arguments_are_named(self) -> None:
        """A rank or level out of range is a ValueError naming it."""
        with pytest.raises(ValueError, match=r"rank must be 0\.\.1364 at level 4, got 1365"):
            unrank(4, 1365)
        with pytest.raises(ValueError, match=r"multiple of 4.*got 6"):
            board_count(6)
        with pytest.raises(ValueError, match="not a split of level 8; valid: 16, 20, 24"):
            split_index(8, 12)


class TestLevels:
    """Levels hold every board times every captured split still in play."""

    def test_splits_are_the_captured_counts_in_play(self) -> None:
        """Both counts are multiples of 4, at most 24, and add up with the board to 48."""
        for seeds in levels_up_to(48):
            for cm in splits(seeds):
                co = 48 - seeds - cm
                assert cm % 4 == co % 4 == 0 and 0 <= cm <= 24 and 0 <= co <= 24
            assert len(splits(seeds)) == len(
                [cm for cm in range(0, 49, 4) if cm <= 24 and 0 <= 48 - seeds - cm <= 24]
            )

    def test_sizes(self) -> None:
        """Level sizes are boards times splits: 2 730 at 4 seeds, 5 408 312 at 12."""
        assert [level_size(n) for n in (0, 4, 8, 12)] == [1, 2730, 226746, 5408312]
        assert board_count(20) == 84672315


class TestSymmetry:
    """Ayòayò is symmetric under turning the board round, so the mover's view loses nothing."""

    @given(st.randoms(use_true_random=False), st.sampled_from([4, 8, 12, 16, 24]))
    def test_turning_the_board_commutes_with_the_rules(
        self, rng: random.Random, seeds: int
    ) -> None:
        """Turned positions have the mirrored moves (cell c <-> 5 - c), turned children and
        opposite values."""
        board = _random_board(rng, seeds)
        rest = 48 - seeds
        cm = rng.choice(splits(seeds))
        state = tuple.__new__(AyoayoState, (*board, cm, rest - cm, rng.randint(0, 1)))
        turned = _turned(state)
        assert _turned(turned) == state
        actions = GAME.actions(state)
        assert GAME.actions(turned) == tuple(sorted(5 - c for c in actions))
        assert GAME.is_terminal(turned) == GAME.is_terminal(state)
        for c in actions:
            assert GAME.result(turned, 5 - c) == _turned(GAME.result(state, c))
        if GAME.is_terminal(state):
            assert GAME.utility(turned) == -GAME.utility(state)

    def test_view_turns_both_ways(self) -> None:
        """view_of for player 1 is its own inverse; for player 0 it is the board."""
        pits = tuple(range(12))
        assert view_of(view_of(pits, 1), 1) == pits == view_of(pits, 0)


class TestLevelMoves:
    """level_moves agrees with the rules played from either player's side."""

    @pytest.mark.parametrize("seeds", [4, 8, 12])
    def test_moves_match_the_game_for_both_movers(self, seeds: int) -> None:
        """Each legal cell, its child's rank in the child's view and its gains match Ayoayo.

        Column c is view pit 5 - c: player 0's cell c, player 1's cell 5 - c.
        """
        rng = random.Random(seeds)
        total = board_count(seeds)
        for _ in range(40):
            start = rng.randrange(total)
            stop = min(total, start + 25)
            moves = level_moves(seeds, start, stop)
            for i, view in enumerate(boards(seeds, start, stop)):
                for mover in (0, 1):
                    pits = view_of(view, mover)
                    state = tuple.__new__(AyoayoState, (*pits, 0, 0, mover))
                    legal = GAME.actions(state)
                    column = {a: a if mover == 0 else 5 - a for a in range(CELLS)}
                    found = [a for a in range(CELLS) if moves.child[i, column[a]] >= 0]
                    assert found == list(legal)
                    for a in legal:
                        child = GAME.result(state, a)
                        c = column[a]
                        gain = (child[12 + mover], child[13 - mover])
                        assert (moves.gain_mover[i, c], moves.gain_opponent[i, c]) == gain
                        assert moves.child[i, c] == rank(view_of(child[:12], 1 - mover))

    def test_empty_range(self) -> None:
        """An empty range gives empty arrays."""
        assert level_moves(8, 5, 5).child.shape == (0, CELLS)
