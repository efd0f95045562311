"""Ayòayò against golden vectors from the reference implementation.

The vectors were generated from chidiwilliams/ayoayo @ 835a126 (node v20.20.2, unmodified code
with a guard that only refuses never-ending sowings). ``tests/data`` keeps 20 of the 300 random
playouts (chosen to cover every way a game ends) and the minimax values on 25 positions; formats
and provenance in ``docs/ayoayo-rules.md`` ("The data in this repository").
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo, AyoayoState
from solver.minimax import minimax

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA = REPO_ROOT / "tests" / "data"

SUBSET = DATA / "ayoayo_playouts_subset.jsonl.gz"


def _games(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def _board(rows: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _check_game(game: Ayoayo, record: dict[str, Any]) -> int:
    """Replay one recorded game ply by ply and compare everything; return the plies checked."""
    state: AyoayoState = game.initial_state()
    where = f"game {record['game']}"
    for ply in record["plies"]:
        at = f"{where} ply {ply['ply']}"
        before = game.state_from(ply["board_before"], ply["captured_before"], ply["player"])
        assert before == state, at
        looping = set(ply["nonterminating_pits"])
        expected = [m for m in ply["permissible_moves"] if m not in looping]
        assert list(game.actions(state)) == expected, at
        assert not game.is_terminal(state), at
        after = game.result(state, ply["move"])
        assert after.board == _board(ply["board_after"]), at
        assert list(after.captured) == ply["captured_after"], at
        assert after.to_move == ply["next_player"], at
        assert game.is_terminal(after) == ply["is_game_over"], at
        assert game.winner(after) == ply["winner"], at
        if ply["is_game_over"]:
            assert game.actions(after) == (), at
        else:
            # The reference lists a looping pit too; the next ply's record flags it.
            nxt = record["plies"][ply["ply"] + 1]
            flagged = set(nxt["nonterminating_pits"])
            expected_next = [m for m in ply["next_permissible_moves"] if m not in flagged]
            assert list(game.actions(after)) == expected_next, at
        state = after
    final = record["final"]
    assert state.board == _board(final["board"]), where
    assert list(state.captured) == final["captured"], where
    assert game.winner(state) == final["winner"], where
    return len(record["plies"])


class TestPlayouts:
    """Every ply of the reference's random playouts, replayed through the Game protocol."""

    def test_subset_in_the_repository(self) -> None:
        """The 20 stored games (925 plies) match the reference ply by ply."""
        game = Ayoayo()
        plies = sum(_check_game(game, record) for record in _games(SUBSET))
        assert plies == 925

    def test_subset_without_the_cache(self) -> None:
        """The stored games also match when legal moves are not cached."""
        game = Ayoayo(cache_size=0)
        assert sum(_check_game(game, record) for record in _games(SUBSET)) == 925

    def test_the_looping_pit_is_left_out(self) -> None:
        """Game 64 ply 12, where the reference lists pit 4 whose sowing never ends, omits it."""
        record = next(r for r in _games(SUBSET) if r["game"] == 64)
        ply = record["plies"][12]
        assert ply["nonterminating_pits"] == [4]
        assert 4 in ply["permissible_moves"]
        game = Ayoayo()
        state = game.state_from(ply["board_before"], ply["captured_before"], ply["player"])
        assert 4 not in game.actions(state)


def _minimax_records() -> list[dict[str, Any]]:
    with gzip.open(DATA / "ayoayo_minimax.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


MINIMAX_RECORDS = _minimax_records()
MINIMAX_CASES = [
    pytest.param(record, result, id=f"id{record['id']}-d{result['depth']}")
    for record in MINIMAX_RECORDS
    for result in record["results"]
]


def _moves(pv: tuple[Any, ...]) -> str:
    return "".join(str(m) for m in pv)


class TestReferenceMinimax:
    """The teaching minimax reproduces the reference's minimax.js on 25 positions, depths 1-6."""

    def test_the_reference_maximizes_for_player_0(self) -> None:
        """The reference's maximizing flag is exactly 'player 0 to move', our MAX convention."""
        for record in MINIMAX_RECORDS:
            assert record["maximizing"] == (record["next_player"] == 0)

    @pytest.mark.parametrize(("record", "expected"), MINIMAX_CASES)
    def test_value_pv_and_every_child(
        self, record: dict[str, Any], expected: dict[str, Any]
    ) -> None:
        """Value, principal variation, best move, node count and each child's value and PV agree."""
        if "error" in expected:
            pytest.skip(
                f"the reference could not finish id {record['id']} at depth "
                f"{expected['depth']}: {expected['error']}"
            )
        game = Ayoayo()
        depth = expected["depth"]
        state = game.state_from(record["board"], record["captured"], record["next_player"])
        assert list(game.actions(state)) == record["permissible_moves"]
        found = minimax(game, state, depth=depth)
        assert found.value == expected["value"]
        assert _moves(found.pv) == expected["pv"]
        assert found.best_action == expected["best_move"]
        assert found.stats.nodes == expected["nodes_including_root"]
        assert {str(m): v for m, v in found.action_values.items()} == expected["child_values"]
        child_values: dict[str, float] = {}
        child_pvs: dict[str, str] = {}
        for move in game.actions(state):
            child = game.result(state, move)
            if depth == 1 or game.is_terminal(child):
                child_values[str(move)] = game.evaluate(child)
                child_pvs[str(move)] = str(move)
            else:
                below = minimax(game, child, depth=depth - 1)
                child_values[str(move)] = below.value
                child_pvs[str(move)] = str(move) + _moves(below.pv)
        assert child_values == expected["child_values"]
        assert child_pvs == expected["child_pvs"]

    @pytest.mark.parametrize("position", [4, 20])
    def test_where_the_reference_hangs_we_answer(self, position: int) -> None:
        """Depth 6 on ids 4 and 20, which hang the reference, finishes: loops are illegal."""
        record = MINIMAX_RECORDS[position]
        assert "error" in record["results"][5]
        game = Ayoayo()
        state = game.state_from(record["board"], record["captured"], record["next_player"])
        found = minimax(game, state, depth=6)
        assert found.best_action in game.actions(state)
        assert len(found.pv) <= 6
