"""Connect Four: the bitboard rules against a plain implementation, notation, solving."""

from __future__ import annotations

import random

import pytest

from games import load_game
from games.connect4 import ConnectFour, plies_to_end, pons_score
from solver.engine import search
from solver.errors import GameError, IllegalActionError, InvalidStateError
from solver.solve import solve

# -- an independent implementation: columns as lists, fours found by scanning every cell ------

Columns = tuple[str, ...]
"""Each column's stones from the bottom, ``"x"`` or ``"o"`` each: ``("xo", "", "x", ...)``."""


def plain_winner(columns: Columns, height: int) -> str | None:
    """The player with four in a row, by looking from every stone in four directions."""
    width = len(columns)

    def at(c: int, r: int) -> str | None:
        if 0 <= c < width and 0 <= r < height and r < len(columns[c]):
            return columns[c][r]
        return None

    for c in range(width):
        for r in range(len(columns[c])):
            stone = columns[c][r]
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + i * dc, r + i * dr) == stone for i in range(4)):
                    return stone
    return None


def plain_moves(columns: Columns, height: int) -> list[int]:
    """The columns with room, left to right; none once the game is over."""
    if plain_winner(columns, height) is not None:
        return []
    return [c for c in range(len(columns)) if len(columns[c]) < height]


def plain_play(columns: Columns, column: int) -> Columns:
    stones = sum(len(col) for col in columns)
    stone = "x" if stones % 2 == 0 else "o"
    return tuple(col + stone if c == column else col for c, col in enumerate(columns))


def plain_rows(columns: Columns, height: int) -> str:
    """The row notation: top row first."""
    return "/".join(
        "".join(col[r] if r < len(col) else "." for col in columns)
        for r in range(height - 1, -1, -1)
    )


def four_through(columns: Columns, height: int, c: int) -> bool:
    """Whether the top stone of column ``c`` is in a line of four of its colour."""
    r = len(columns[c]) - 1
    stone = columns[c][r]

    def same(cc: int, rr: int) -> bool:
        return 0 <= cc < len(columns) and 0 <= rr < len(columns[cc]) and columns[cc][rr] == stone

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while same(c + sign * step * dc, r + sign * step * dr):
                run += 1
                step += 1
        if run >= 4:
            return True
    return False


def plain_values(width: int, height: int, start: Columns | None = None) -> dict[str, int]:
    """Every position reachable from ``start`` (row notation) with its value for X, by plain
    memoised minimax over the plain rules (a four looked for through each new stone)."""
    values: dict[str, int] = {}
    memo: dict[Columns, int] = {}

    def value(columns: Columns, last: int | None) -> int:
        if columns in memo:
            return memo[columns]
        stones = sum(len(col) for col in columns)
        if last is not None and four_through(columns, height, last):
            found = 1 if stones % 2 else -1  # the player who just moved wins
        elif stones == width * height:
            found = 0
        else:
            children = [
                value(plain_play(columns, m), m) for m in range(width) if len(columns[m]) < height
            ]
            found = max(children) if stones % 2 == 0 else min(children)
        memo[columns] = values[plain_rows(columns, height)] = found
        return found

    columns = ("",) * width if start is None else start
    assert plain_winner(columns, height) is None
    value(columns, None)
    return values


def plain_columns(moves: str, width: int) -> Columns:
    columns: Columns = ("",) * width
    for digit in moves:
        columns = plain_play(columns, int(digit) - 1)
    return columns


# -- the tests --------------------------------------------------------------------------------


class TestRulesAgainstAPlainImplementation:
    """On seeded random games of several sizes the bitboard rules are the plain ones."""

    @pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (5, 4), (6, 7), (9, 5), (3, 2)])
    def test_random_games_agree_move_by_move(self, width: int, height: int) -> None:
        """Mover, legal columns, end, utility and the row notation agree at every ply."""
        game = ConnectFour(width=width, height=height)
        rng = random.Random(width * 100 + height)
        for _ in range(60):
            state, columns = game.initial_state(), ("",) * width
            while True:
                moves = plain_moves(columns, height)
                assert sorted(game.actions(state)) == moves
                assert game.to_move(state) == sum(map(len, columns)) % 2
                assert game.format_state(state) == plain_rows(columns, height)
                assert game.is_terminal(state) == (not moves)
                if not moves:
                    winner = plain_winner(columns, height)
                    assert game.utility(state) == {None: 0, "x": 1, "o": -1}[winner]
                    break
                column = rng.choice(moves)
                state, columns = game.result(state, column), plain_play(columns, column)
                assert game.parse_state(game.format_state(state)) == state

    def test_actions_come_centre_first(self) -> None:
        """Columns are listed from the centre outwards, left before right (7: 4 3 5 2 6 1 7)."""
        game = ConnectFour()
        assert [game.format_action(0, a) for a in game.actions(0)] == list("4352617")
        assert list(ConnectFour(width=4, height=4).actions(0)) == [1, 2, 0, 3]


class TestNotation:
    """Row notation and move strings from the start, as Pons's benchmark files write them."""

    def test_a_move_string_is_the_moves_played(self) -> None:
        """Digits are columns 1..W played from the start."""
        game = ConnectFour()
        rng = random.Random(5)
        for _ in range(40):
            moves = ""
            state = game.initial_state()
            for _ in range(rng.randrange(0, 30)):
                legal = game.actions(state)
                if not legal:
                    break
                column = rng.choice(legal)
                moves += str(column + 1)
                state = game.result(state, column)
            if moves:
                assert game.parse_state(moves) == state
                assert game.format_state(state) == plain_rows(plain_columns(moves, 7), 6)

    @pytest.mark.parametrize(
        ("text", "says"),
        [
            ("48", "move 2 is column '8'; columns are 1 to 7"),
            ("1111111", "move 7 drops into column 1, which is full"),
            ("12121212", "the game is over after move 7, yet move 8 ('2') follows"),
            ("......./......./......./......./x......", "6 rows"),
            ("......./......./......./......./......./x.....", "6 rows of 7"),
            ("......./......./......./......./x....../.......", "floats"),
            ("......./......./......./......./......./xx.....", "2 x and 0 o"),
            ("......./......./xo...../xo...../xo...../xo.....", "game would have ended"),
            ("......./......./......./......./......./r......", "bad cell 'r'"),
            ("٤٤٥٥", "or the moves from the start as column numbers 1-7"),  # not 4455
        ],
    )
    def test_bad_positions_are_refused_naming_what_is_wrong(self, text: str, says: str) -> None:
        """Each refusal is one line quoting the text and saying what would be valid."""
        with pytest.raises(InvalidStateError) as error:
            ConnectFour().parse_state(text)
        message = str(error.value)
        assert says in message and "\n" not in message

    def test_moves_are_column_numbers(self) -> None:
        """An action is written 1..W and read back; anything else names the valid columns."""
        game = ConnectFour(width=5, height=4)
        for action in game.actions(0):
            assert game.parse_action(0, game.format_action(0, action)) == action
        for bad in ("0", "6", "a", "", "1.5", "٣"):  # another script's 3 is not column 3
            with pytest.raises(IllegalActionError, match="a column number from 1 to 5"):
                game.parse_action(0, bad)

    @pytest.mark.parametrize(
        "options", [{"width": 0}, {"height": -1}, {"width": 10, "height": 6}, {"width": "7"}]
    )
    def test_bad_sizes_are_refused(self, options: dict[str, object]) -> None:
        """A size that is not a whole number >= 1, or whose bitboard would not fit 63 bits."""
        with pytest.raises(GameError, match="invalid Connect Four"):
            load_game("connect4", **options)


class TestSymmetries:
    def test_the_mirror_is_the_mirrored_moves(self) -> None:
        """A position's image is the one reached by the mirrored move string."""
        game = ConnectFour()
        for moves in ("4455", "12345", "7162534", "33344", "1"):
            mirrored = "".join(str(8 - int(d)) for d in moves)
            state = game.parse_state(moves)
            assert game.symmetries(state) == [state, game.parse_state(mirrored)]
        assert game.symmetries(game.parse_state("4444")) == [game.parse_state("4444")]


class TestEvaluation:
    @pytest.mark.parametrize("width", [4, 5, 6, 7])
    def test_the_same_for_a_mirror_image(self, width: int) -> None:
        """A position and its mirror image are evaluated alike on odd and even widths (on
        an even one the centre is the middle two columns: it was the left one alone)."""
        game = ConnectFour(width, 4)
        rng = random.Random(width)
        for _ in range(20):
            state = game.initial_state()
            while not game.is_terminal(state):
                assert game.evaluate(game.mirror(state)) == game.evaluate(state)
                state = game.result(state, rng.choice(game.actions(state)))

    def test_strictly_between_a_loss_and_a_win(self) -> None:
        """The heuristic lies inside (-1, 1) off the end, so only a true win proves one."""
        game = ConnectFour()
        rng = random.Random(11)
        for _ in range(30):
            state = game.initial_state()
            while not game.is_terminal(state):
                assert -1 < game.evaluate(state) < 1
                state = game.result(state, rng.choice(game.actions(state)))
            assert game.evaluate(state) == game.utility(state)


class TestSolving:
    """The strong solver and the engine against plain minimax over the plain rules."""

    @pytest.mark.slow
    def test_4x4_strong_solve_equals_a_brute_force(self) -> None:
        """All 161,029 positions of 4x4 Connect Four, each with the plain value."""
        game = ConnectFour(width=4, height=4)
        solved = solve(game)
        expected = plain_values(4, 4)
        assert len(expected) == 161_029
        assert {game.format_state(s): solved.value(s) for s in solved.states()} == expected

    @pytest.mark.parametrize("moves", ["3322414", "1213455", "44122335"])
    def test_5x4_solves_from_positions_equal_a_brute_force(self, moves: str) -> None:
        """5x4 from positions a few moves in: every reachable position's value is the plain
        one (the whole 5x4 game has over two million positions: too many for a unit test)."""
        game = ConnectFour(width=5, height=4)
        start = game.parse_state(moves)
        solved = solve(game, start)
        expected = plain_values(5, 4, plain_columns(moves, 5))
        assert {game.format_state(s): solved.value(s) for s in solved.states()} == expected

    def test_the_engine_proves_short_wins_with_their_distance(self) -> None:
        """'4455' (X makes an open three: a win in 3 plies) is exact at depth 3 with plies 3;
        Pons's score for it is 18 (X wins with the fourth of 21 stones)."""
        game = ConnectFour()
        state = game.parse_state("4455")
        result = search(game, state, depth=3, native=False)  # the compiled: test_compiled
        assert (result.value, result.exact, result.plies) == (1, True, 3)
        assert set(result.best_actions) == {2, 5}
        assert pons_score(game, state, result.value, result.plies) == 18
        assert pons_score(game, game.parse_state("44556"), 1, 2) == -18  # O to move loses

    def test_engine_values_equal_the_brute_force_on_4x4(self) -> None:
        """Searches to the end from seeded 4x4 positions give the plain values, and the plies
        of the PV lead to the end with that value."""
        game = ConnectFour(width=4, height=4)
        rng = random.Random(17)
        for _ in range(25):
            moves = "".join(str(rng.randrange(1, 5)) for _ in range(rng.randrange(8, 11)))
            try:
                state = game.parse_state(moves)
            except InvalidStateError:
                continue
            if game.is_terminal(state):
                continue
            expected = plain_values(4, 4, plain_columns(moves, 4))[game.format_state(state)]
            result = search(game, state, native=False)
            assert result.value == expected and result.exact
            for move in result.pv:
                state = game.result(state, move)
            assert game.is_terminal(state) and game.utility(state) == expected


class TestScored:
    """scored=True: the utility is Pons's score, so a search's value is the exact score."""

    def test_the_utility_is_the_winners_score(self) -> None:
        """X wins with the 7th stone: 18 on 7x6; O with the 8th: -18; a draw 0; bounds +-18."""
        game = ConnectFour(scored=True)
        assert game.utility(game.parse_state("1212121")) == 18
        assert game.utility(game.parse_state("12136465")) == -18
        assert game.utility_bounds() == (-18, 18)
        assert ConnectFour(width=4, height=4, scored=True).utility_bounds() == (-5, 5)

    def test_searched_scores_equal_the_scores_from_values_and_plies(self) -> None:
        """On 4x4 positions searched to the end, the scored game's value is the score that the
        +-1 game's value and plies give (the Python search on both)."""
        plain = ConnectFour(width=4, height=4)
        scored = ConnectFour(width=4, height=4, scored=True)
        rng = random.Random(21)
        checked = 0
        while checked < 20:
            moves = "".join(str(rng.randrange(1, 5)) for _ in range(rng.randrange(6, 11)))
            try:
                state = plain.parse_state(moves)
            except InvalidStateError:
                continue
            if plain.is_terminal(state):
                continue
            one = search(plain, state, native=False)
            score = search(scored, state, native=False, plies=False)
            assert score.exact
            assert pons_score(scored, state, score.value, None) == pons_score(
                plain, state, one.value, one.plies
            )
            checked += 1

    def test_a_bad_option_is_refused(self) -> None:
        with pytest.raises(GameError, match="invalid Connect Four option scored='yes'"):
            load_game("connect4", scored="yes")


class TestPliesToEnd:
    """The moves left under perfect play, from Pons's score (how his benchmark sets are rated)."""

    @pytest.mark.parametrize(
        ("moves", "score", "left"),
        [
            ("4455", 18, 3),  # Pons's example: X to move wins with stone 7 (his 4th)
            ("44455554221", -15, 2),  # Pons's example: O to move; X wins with stone 13
            ("445566", 18, 1),  # X wins at once with stone 7 (column 3 or 7)
            ("1415267", 18, 1),  # O wins at once with stone 8 (column 3)
            ("4", 0, 41),  # a draw fills the board
        ],
    )
    def test_hand_checked_positions(self, moves: str, score: int, left: int) -> None:
        game = ConnectFour()
        assert plies_to_end(game, game.parse_state(moves), score) == left

    @pytest.mark.parametrize(("width", "height", "least"), [(4, 4, 5), (5, 3, 6)])
    def test_the_engines_plies_to_the_end(self, width: int, height: int, least: int) -> None:
        """On random positions of an even and an odd board, searched to the end by the Python
        engine: the moves left that the score gives are the plies it found."""
        game = ConnectFour(width=width, height=height)
        rng = random.Random(width)
        decided = 0
        for _ in range(30):
            state = game.initial_state()
            for _ in range(rng.randrange(least, least + 5)):
                state = game.result(state, rng.choice(game.actions(state)))
                if game.is_terminal(state):
                    break
            if game.is_terminal(state):
                continue
            found = search(game, state, native=False)
            assert found.exact
            score = pons_score(game, state, found.value, found.plies)
            assert plies_to_end(game, state, score) == found.plies
            decided += found.value != 0
        assert decided >= 8
