"""Ayòayò: the reference rules, the loop rule, states, notation and the Game protocol.

The examples (``tests/data/ayoayo_examples.json``) are the reference's results on hand-made
positions, generated from chidiwilliams/ayoayo @ 835a126 (see docs/ayoayo-rules.md).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ayoayo import (
    PLAYER_NAMES,
    TOTAL_SEEDS,
    Ayoayo,
    AyoayoState,
    NeverEndingSowingError,
    relay_sow,
)
from solver.game import IllegalActionError, InvalidStateError, apply, parse_action

EXAMPLES: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "ayoayo_examples.json").read_text()
)
SOWINGS = [
    pytest.param(example, id=name) for name, example in EXAMPLES.items() if "board_after" in example
] + [
    pytest.param(example, id=f"feeding-cell{example['cell']}")
    for example in EXAMPLES["feeding"]["each"]
]

ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"
LOOPING_LINE = [4, 4, 3, 4, 5, 1, 2, 5, 2, 0, 1, 2, 5, 0]  # then cell 3 loops (rules page)


def _rows(board: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in board)


def _with_captured(board: list[list[int]], player: int) -> AyoayoState:
    """A state for a hand-made board: the missing seeds split between the captured counts."""
    missing = TOTAL_SEEDS - sum(map(sum, board))
    return Ayoayo.state_from(board, (missing // 2, missing - missing // 2), player)


def _play(game: Ayoayo, moves: list[int]) -> AyoayoState:
    state = game.initial_state()
    for move in moves:
        state = apply(game, state, move)
    return state


class TestSowing:
    """One relay-sowing reproduces the reference's relaySow on every worked example."""

    @pytest.mark.parametrize("example", SOWINGS)
    def test_board_and_captures(self, example: dict[str, Any]) -> None:
        """The board after the sowing and the seeds captured match the reference."""
        board, captured = relay_sow(example["board"], example["player"], example["cell"])
        assert board == _rows(example["board_after"])
        assert list(captured) == example["captured_delta"]

    def test_a_never_ending_sowing_is_refused(self) -> None:
        """The reference's endless sowing raises NeverEndingSowingError (timed in benchmarks/)."""
        example = EXAMPLES["nonterminating"]
        with pytest.raises(NeverEndingSowingError, match="never ends"):
            relay_sow(example["board"], example["player"], example["cell"])

    def test_bad_arguments_are_named(self) -> None:
        """A malformed board, player or cell is an InvalidStateError quoting it."""
        with pytest.raises(InvalidStateError, match="two rows of six"):
            relay_sow([[1, 2, 3]], 0, 0)
        with pytest.raises(InvalidStateError, match="player must be 0 or 1, got 2"):
            relay_sow([[0] * 6, [0] * 6], 2, 0)
        with pytest.raises(InvalidStateError, match=r"cell must be an int 0\.\.5, got 6"):
            relay_sow([[0] * 6, [0] * 6], 0, 6)


class TestPlay:
    """Moves through the Game protocol: switching sides, captures, feeding and the end."""

    def test_the_start(self) -> None:
        """Player 0 moves first with all six cells on a board of fours."""
        game = Ayoayo()
        state = game.initial_state()
        assert state.board == ((4,) * 6, (4,) * 6)
        assert state.captured == (0, 0)
        assert game.to_move(state) == state.to_move == 0
        assert game.actions(state) == (0, 1, 2, 3, 4, 5)

    def test_the_readme_example(self) -> None:
        """Cells 4 then 2 from the start give the reference README's position."""
        game = Ayoayo()
        state = _play(game, [4, 2])
        assert state.board == ((2, 7, 2, 0, 0, 8), (7, 7, 1, 2, 0, 8))
        assert state.captured == (0, 4)
        assert game.actions(state) == (0, 1, 2, 5)

    def test_the_repository_test_game_is_a_draw(self) -> None:
        """The reference's own test game ends 24-24 on an empty board, a draw."""
        moves = [0, 2, 4, 2, 0, 0, 2, 0, 5, 2, 5, 3, 4, 4, 2, 1, 0, 3, 5, 5, 5, 1, 3, 0, 1]
        game = Ayoayo()
        state = _play(game, moves)
        assert state.board == ((0,) * 6, (0,) * 6)
        assert state.captured == (24, 24)
        assert game.is_terminal(state)
        assert game.winner(state) == -1
        assert game.utility(state) == 0

    def test_feeding_leaves_out_a_move_that_starves(self) -> None:
        """With player 0's row empty, player 1 may not play cell 4, which feeds nothing."""
        example = EXAMPLES["feeding"]
        state = _with_captured(example["board"], example["player"])
        assert list(Ayoayo().actions(state)) == example["permissible_moves"]

    def test_a_player_who_cannot_feed_takes_its_own_row(self) -> None:
        """After player 0 empties its row, player 1 cannot feed and sweeps its 2 seeds."""
        game = Ayoayo()
        state = game.state_from([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], (23, 23), 0)
        after = game.result(state, 0)
        assert after.board == ((0,) * 6, (0,) * 6)
        assert after.captured == (23, 25)
        assert game.is_terminal(after)
        assert game.winner(after) == 1

    def test_emptying_the_opponents_row_ends_with_seeds_for_nobody(self) -> None:
        """Game 275's last ply: player 1 cannot move and player 0's 16 seeds count for nobody."""
        game = Ayoayo()
        state = game.state_from([[1, 2, 3, 3, 2, 12], [1, 3, 1, 3, 2, 3]], (4, 8), 0)
        after = game.result(state, 2)
        assert after.board == ((2, 0, 1, 0, 0, 13), (0,) * 6)
        assert after.captured == (12, 20)
        assert game.is_terminal(after)
        assert game.winner(after) == 1
        assert game.utility(after) == game.evaluate(after) == -8

    def test_more_than_24_ends_the_game_with_seeds_left(self) -> None:
        """A player with 25 captured ends the game although both rows hold seeds."""
        game = Ayoayo()
        state = game.state_from([[4, 4, 0, 0, 0, 0], [4, 4, 4, 0, 0, 0]], (25, 3), 0)
        assert game.actions(state) == ()
        assert game.is_terminal(state)
        assert game.winner(state) == 0

    def test_turns_alternate(self) -> None:
        """Every move hands the turn to the other player."""
        game = Ayoayo()
        state = game.initial_state()
        for move in [0, 1, 2]:
            after = game.result(state, game.actions(state)[move % len(game.actions(state))])
            assert after.to_move == 1 - state.to_move
            state = after


class TestNeverEndingSowing:
    """Our one difference from the reference: a sowing that never ends is not a legal move."""

    def test_the_looping_cell_is_not_legal(self) -> None:
        """On the looping example, cell 3 is missing from the legal moves; the others remain."""
        example = EXAMPLES["nonterminating"]
        game = Ayoayo()
        state = _with_captured(example["board"], example["player"])
        assert game.actions(state) == (0, 2, 4)

    def test_playing_it_is_refused(self) -> None:
        """result raises NeverEndingSowingError, and apply names the legal moves."""
        example = EXAMPLES["nonterminating"]
        game = Ayoayo()
        state = _with_captured(example["board"], example["player"])
        with pytest.raises(NeverEndingSowingError, match="never ends"):
            game.result(state, 3)
        with pytest.raises(IllegalActionError, match="legal: 0, 2, 4"):
            apply(game, state, 3)

    def test_the_line_the_reference_hangs_on(self) -> None:
        """After the line of the rules page (never-ending sowings), cell 3 is not legal."""
        game = Ayoayo()
        state = _play(game, LOOPING_LINE)
        assert state.board[state.to_move][3] > 0
        assert 3 not in game.actions(state)
        assert game.actions(state)

    def test_the_minimax_line_that_hangs_depth_8(self) -> None:
        """In the line 1,5,5,1,3,4,2 from the start, the 8th move 4 loops and is left out."""
        game = Ayoayo()
        state = _play(game, [1, 5, 5, 1, 3, 4, 2])
        assert state.board[state.to_move][4] > 0
        assert 4 not in game.actions(state)


class TestStateFrom:
    """The named constructor validates and exposes the reference's view of a position."""

    def test_properties(self) -> None:
        """board, captured and to_move read back what was given."""
        state = Ayoayo.state_from([[2, 6, 6, 1, 1, 7], [0, 2, 7, 2, 7, 6]], (0, 1), 1)
        assert state.board == ((2, 6, 6, 1, 1, 7), (0, 2, 7, 2, 7, 6))
        assert state.captured == (0, 1)
        assert state.to_move == 1

    def test_states_are_values(self) -> None:
        """Equal positions are equal, hash alike, and cannot be changed."""
        a = Ayoayo.state_from([[4] * 6, [4] * 6])
        b = Ayoayo().initial_state()
        assert a == b
        assert hash(a) == hash(b)
        assert len({a, b}) == 1
        with pytest.raises(AttributeError):
            a.board = ((0,) * 6, (0,) * 6)  # type: ignore[misc]

    @pytest.mark.parametrize(
        ("board", "captured", "to_move", "message"),
        [
            ([[4] * 6], (0, 0), 0, "a board is two rows of six ints"),
            ([[4] * 6, [4] * 5], (0, 0), 0, "a board is two rows of six ints"),
            ("[[4,4,4,4,4,4],[4,4,4,4,4,4]]", (0, 0), 0, "a board is two rows of six ints"),
            ([[4] * 6, [4] * 5 + [-4]], (0, 8), 0, r"pit board\[1\]\[5\] holds -4"),
            ([[4] * 6, [4] * 5 + [4.0]], (0, 0), 0, r"pit board\[1\]\[5\] holds 4.0"),
            ([[4] * 6, [4] * 5 + [True]], (0, 0), 0, r"pit board\[1\]\[5\] holds True"),
            ([[4] * 6, [4] * 6], (0,), 0, "captured must be two non-negative ints"),
            ([[4] * 6, [4] * 6], (4, -4), 0, "captured must be two non-negative ints"),
            ([[4] * 6, [4] * 6], (0, 0), 2, "to_move must be 0 or 1, got 2"),
            ([[4] * 6, [4] * 6], (0, 0), "0", "to_move must be 0 or 1, got '0'"),
            ([[4] * 6, [4] * 6], (4, 0), 0, r"make 52, not 48"),
        ],
    )
    def test_invalid_positions_say_what_is_wrong(
        self, board: Any, captured: Any, to_move: Any, message: str
    ) -> None:
        """Each malformed position raises InvalidStateError naming the problem."""
        with pytest.raises(InvalidStateError, match=message):
            Ayoayo.state_from(board, captured, to_move)

    def test_an_unswept_finished_game_is_refused_with_its_swept_form(self) -> None:
        """A mover who cannot feed has already swept its row; the message gives that position."""
        example = EXAMPLES["feeding_impossible"]
        with pytest.raises(InvalidStateError, match="cannot feed") as caught:
            _with_captured(example["board"], example["player"])
        assert "(player " not in str(caught.value)  # "Player 2 (player 1)" read as a contradiction
        swept = str(caught.value).split("finished position is ")[1]
        final = Ayoayo().parse_state(swept)
        assert final.board == ((0,) * 6, (0,) * 6)
        assert final.captured == (23, 25)
        assert Ayoayo().is_terminal(final)


class TestNotation:
    """Text positions: the article's board form, captured seeds and the side to move."""

    def test_the_article_position(self) -> None:
        """The bare board means nothing captured and player 0 to move."""
        state = Ayoayo().parse_state(ARTICLE)
        assert state.board == ((2, 6, 6, 1, 1, 7), (0, 2, 7, 2, 7, 7))
        assert state.captured == (0, 0)
        assert state.to_move == 0

    def test_canonical_form(self) -> None:
        """format_state writes the board, 'captured c0,c1' and 'to-move p'."""
        game = Ayoayo()
        assert game.format_state(game.initial_state()) == (
            "[[4,4,4,4,4,4],[4,4,4,4,4,4]] captured 0,0 to-move 0"
        )

    @pytest.mark.parametrize(
        "text",
        [
            "[[2,6,6,1,1,3],[0,2,7,2,7,7]] captured 0,4 to-move 1",
            "[[2,6,6,1,1,3],[0,2,7,2,7,7]] 0,4 1",
            " [ [2, 6, 6, 1, 1, 3], [0, 2, 7, 2, 7, 7] ]  captured=0,4  to_move=1 ",
            "[[2,6,6,1,1,3],[0,2,7,2,7,7]] to-move: 1 captured: [0, 4]",
            "[[2,6,6,1,1,3],[0,2,7,2,7,7]] captured 0 4 to move 1",
        ],
    )
    def test_liberal_reading(self, text: str) -> None:
        """Spacing, '=' or ':' and either order of the fields are all read the same way."""
        state = Ayoayo().parse_state(text)
        assert state.captured == (0, 4)
        assert state.to_move == 1

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "cannot read a board"),
            ("[[1,2],[3,4]]", "two rows of six"),
            ("[[4,4,4,4,4,x],[4,4,4,4,4,4]]", "cannot read the board"),
            ("[[4,4,4,4,4,4],[4,4,4,4,4,4]] captured 4", "captured needs two numbers"),
            ("[[4,4,4,4,4,4],[4,4,4,4,4,4]] to-move 3", "the side to move is 0 or 1, got 3"),
            ("[[4,4,4,4,4,4],[4,4,4,4,4,4]] player 1", "cannot read 'player'"),
            ("[[4,4,4,4,4,4],[4,4,4,4,4,0]]", "make 44, not 48"),
        ],
    )
    def test_unreadable_text(self, text: str, message: str) -> None:
        """Text that is not a position raises InvalidStateError saying what was expected."""
        with pytest.raises(InvalidStateError, match=message):
            Ayoayo().parse_state(text)

    def test_actions_are_cell_numbers(self) -> None:
        """A move reads and writes as its cell number; other text is refused with the choices."""
        game = Ayoayo()
        state = game.parse_state(ARTICLE)
        assert game.format_action(state, 3) == "3"
        assert parse_action(game, state, " 5 ") == 5
        with pytest.raises(IllegalActionError, match=r"cell number 0\.\.5"):
            parse_action(game, state, "six")
        with pytest.raises(IllegalActionError, match=r"cell number 0\.\.5"):
            parse_action(game, state, "7")


class TestRender:
    """The board as the reference CLI draws it, with both names for each player."""

    def test_rows_names_and_captured(self) -> None:
        """Row 0 is drawn above row 1, cell 0 first, with captured seeds and the mover."""
        game = Ayoayo()
        text = game.render(game.parse_state("[[2,6,6,1,1,3],[0,2,7,2,7,7]] 0,4 1"))
        lines = text.splitlines()
        assert lines[1].split()[-8:] == ["2", "6", "6", "1", "1", "3", "captured", "0"]
        assert lines[2].split()[-8:] == ["0", "2", "7", "2", "7", "7", "captured", "4"]
        assert lines[1].startswith(f"{PLAYER_NAMES[0]} (player 0)")
        assert lines[2].startswith(f"{PLAYER_NAMES[1]} (player 1)")
        assert lines[3] == "Player 2 (player 1) to move"

    def test_game_over(self) -> None:
        """A finished game says who won and the score."""
        game = Ayoayo()
        state = game.state_from([[4, 4, 0, 0, 0, 0], [4, 4, 4, 0, 0, 0]], (25, 3), 0)
        assert game.render(state).splitlines()[-1] == "game over: Player 1 (player 0) wins 25-3"


class TestCache:
    """Legal moves and children are cached per state, in a bounded dictionary."""

    def test_the_cache_stays_bounded(self) -> None:
        """However many states are expanded, no more than cache_size are kept."""
        game = Ayoayo(cache_size=8)
        rng = random.Random(7)
        state = game.initial_state()
        for _ in range(100):
            if game.is_terminal(state):
                state = game.initial_state()
            state = game.result(state, rng.choice(game.actions(state)))
            assert len(game._cache) <= 8

    def test_bad_cache_size(self) -> None:
        """A negative or non-integer cache size is refused with a game error."""
        for bad in (-1, "abc", float("inf"), 1.5, True):
            with pytest.raises(InvalidStateError, match=r"invalid cache_size .* whole number >= 0"):
                Ayoayo(cache_size=bad)  # type: ignore[arg-type]


def _random_positions(count: int, seed: int) -> list[AyoayoState]:
    """Valid positions with seeds scattered at random (many unreachable in play: odd corners)."""
    rng = random.Random(seed)
    game = Ayoayo(cache_size=0)
    positions: list[AyoayoState] = []
    while len(positions) < count:
        on_board = rng.choice([48, 40, 32, 24, 16, 12, 8, 6, 4, 3])
        pits = [0] * 12
        for _ in range(on_board):
            pits[rng.randrange(rng.choice([12, 12, 6, 3]))] += 1  # sometimes crowded on one side
        rng.shuffle(pits)
        board = [pits[:6], pits[6:]]
        rest = TOTAL_SEEDS - on_board
        first = rng.randrange(rest + 1)
        try:
            positions.append(game.state_from(board, (first, rest - first), rng.randrange(2)))
        except InvalidStateError:  # an unswept finished game: not a position
            continue
    return positions


class TestPseudoLegalMoves:
    """pseudo_actions/try_result and the lazy is_terminal agree with the exact rulebook."""

    def _check(self, state: AyoayoState) -> None:
        fresh = Ayoayo(cache_size=0)
        legal = fresh.actions(state)
        assert Ayoayo(cache_size=0).is_terminal(state) == (legal == ())
        candidates = fresh.pseudo_actions(state)
        assert set(legal) <= set(candidates)
        assert [c for c in candidates if c in legal] == list(legal)
        for c in candidates:
            child = fresh.try_result(state, c)
            if c in legal:
                assert child == fresh.result(state, c)
            else:
                assert child is None

    def test_on_scattered_positions(self) -> None:
        """On 3,000 scattered positions, legal moves, children and terminality all agree."""
        for state in _random_positions(3000, seed=11):
            self._check(state)

    def test_on_the_rules_examples(self) -> None:
        """Feeding, no feeding possible, and the never-ending sowing agree too."""
        game = Ayoayo()
        states = [
            game.state_from([[0] * 6, [0, 0, 0, 1, 1, 3]], (23, 20), 1),
            # cannot feed (state_from refuses it unswept, so it is built raw)
            AyoayoState([0] * 6 + [1, 1, 0, 0, 0, 0] + [23, 23, 1]),
        ]
        assert game.actions(states[1]) == ()
        state = game.initial_state()
        for cell in LOOPING_LINE:
            state = game.result(state, cell)
            states.append(state)
        assert 3 not in game.actions(states[-1])
        for state in states:
            self._check(state)

    @given(st.lists(st.integers(0, 5), max_size=200))
    @settings(max_examples=40, deadline=None)
    def test_on_played_games(self, choices: list[int]) -> None:
        """On every position of games chosen by hypothesis, everything agrees."""
        for state in _walk(choices):
            self._check(state)


def _walk(choices: list[int]) -> list[AyoayoState]:
    """The states of a game whose moves are picked by ``choices`` (indices into the moves)."""
    game = Ayoayo()
    states = [game.initial_state()]
    for pick in choices:
        moves = game.actions(states[-1])
        if not moves:
            break
        states.append(game.result(states[-1], moves[pick % len(moves)]))
    return states


class TestProperties:
    """Invariants over many games chosen by hypothesis."""

    @given(st.lists(st.integers(0, 5), max_size=300))
    @settings(max_examples=60, deadline=None)
    def test_seeds_are_conserved_and_captures_come_in_fours(self, choices: list[int]) -> None:
        """Board plus captured is always 48; while the game runs, captures are multiples of 4."""
        game = Ayoayo()
        for state in _walk(choices):
            assert sum(map(sum, state.board)) + sum(state.captured) == TOTAL_SEEDS
            if not game.is_terminal(state):
                assert state.captured[0] % 4 == 0
                assert state.captured[1] % 4 == 0
                assert max(state.captured) <= 24

    @given(st.lists(st.integers(0, 5), max_size=150))
    @settings(max_examples=40, deadline=None)
    def test_result_never_mutates_and_ignores_the_cache(self, choices: list[int]) -> None:
        """result leaves its state unchanged and agrees with an uncached rulebook."""
        cached, plain = Ayoayo(), Ayoayo(cache_size=0)
        for state in _walk(choices):
            snapshot = tuple(state)
            assert cached.actions(state) == plain.actions(state)
            for move in cached.actions(state):
                assert cached.result(state, move) == plain.result(state, move)
            assert tuple(state) == snapshot

    @given(st.lists(st.integers(0, 5), max_size=150))
    @settings(max_examples=40, deadline=None)
    def test_text_round_trip(self, choices: list[int]) -> None:
        """parse_state(format_state(s)) == s on every position of a game."""
        game = Ayoayo()
        for state in _walk(choices):
            assert game.parse_state(game.format_state(state)) == state

    @given(st.integers(0, 2**32 - 1))
    @settings(max_examples=25, deadline=None)
    def test_random_games_end_or_repeat(self, seed: int) -> None:
        """A seeded random game ends, or repeats a full position, within 20,000 plies."""
        game = Ayoayo()
        rng = random.Random(seed)
        state = game.initial_state()
        seen = {state}
        for _ in range(20_000):
            if game.is_terminal(state):
                return
            state = game.result(state, rng.choice(game.actions(state)))
            if state in seen:
                return
            seen.add(state)
        pytest.fail(f"seed {seed}: no end and no repetition in 20,000 plies")


class TestPositionFields:
    def test_fields_given_replace_those_written(self) -> None:
        """position_from sets captured seeds and the side to move over the text's own."""
        game = Ayoayo()
        state = game.position_from("[[0,4,4,4,4,4],[4,4,4,4,4,4]] captured 0,4", captured=(4, 0))
        assert state.captured == (4, 0) and game.score(state) == (4, 0)
        assert game.position_from(to_move=1) == game.state_from(((4,) * 6, (4,) * 6), (0, 0), 1)

    def test_fields_are_checked_with_the_board(self) -> None:
        """Seeds that do not add up to 48 with the captured ones are refused, naming both."""
        with pytest.raises(InvalidStateError, match="make 52"):
            Ayoayo().position_from("[[4,4,4,4,4,4],[4,4,4,4,4,4]]", captured=(4, 0))
