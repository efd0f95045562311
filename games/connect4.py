"""Connect Four on bitboards, in Pascal Pons's layout: any width and height.

Two players drop stones into columns; a stone falls to the lowest empty cell. Whoever first has
four in a row (across, up, or along a diagonal) wins; a full board with no four is a draw. X
(player 0) moves first. Utilities are +1 (X wins), -1 (O wins) and 0, so the engine proves a
forced win as soon as it sees one and reports its distance in plies
(:class:`solver.node_search.Outcomes`); :func:`pons_score` turns a value and its plies into
the score of Pons's solver and benchmark files.

The layout (Pons, "Solving Connect 4: how to build a perfect AI", 2019): column ``c`` holds bits
``c * (H + 1)`` (bottom) to ``c * (H + 1) + H - 1`` (top), with one spare bit above each column
that is always 0, so that shifting a bitboard by 1 (up), ``H + 1`` (across), ``H`` and ``H + 2``
(the diagonals) never wraps a line from one column into the next. A state is one ``int``::

    state = mask << SIZE | xs

``mask`` has a bit for every stone, ``xs`` for X's stones, ``SIZE = W * (H + 1)``. Whose turn it
is follows from the number of stones. The table key is the state itself.

Notation: rows from top to bottom separated by ``/``, cells ``x``, ``o`` and ``.``
(``"......./......./......./......./......./...x..."`` after X's first move in the centre), or
the moves from the start as a string of column numbers ``1..W``, as Pons's benchmark files and
most Connect Four tools write positions (``"4455"``). Actions are columns ``0..W-1``, written
``1..W``, listed centre first (the best move ordering for alpha-beta, as Pons's solver orders).

>>> game = ConnectFour()
>>> state = game.parse_state("4455")
>>> game.format_state(state).split("/")[-1], game.to_move(state)
('...xx..', 0)
>>> [game.format_action(state, a) for a in game.actions(state)]
['4', '3', '5', '2', '6', '1', '7']
>>> game.utility(game.parse_state("1212121"))
1
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, Final, TypeAlias

import numpy as np

from games.marks_in_rows import MarksInRows
from solver.compiled import CompiledRules
from solver.errors import IllegalActionError, InvalidStateError
from solver.game import BoardCells, Player
from solver.quoting import quote

__all__ = [
    "MAX_CELLS",
    "STANDARD_POSITIONS",
    "ConnectFour",
    "Geometry",
    "SolvedPositions",
    "State",
    "alignment",
    "compiled_rules",
    "plies_to_end",
    "pons_score",
]

STANDARD_POSITIONS: Final = 4_531_985_219_092
"""Positions reachable on the standard 7x6 board, as John Tromp counted them."""

State: TypeAlias = int
"""``mask << SIZE | xs``: every stone, and X's stones, in Pons's column layout."""

MAX_CELLS: Final = 63
"""``W * (H + 1)`` may not exceed this: a bitboard fits one 64-bit word (the compiled route)."""

X_MARK, O_MARK, EMPTY = "x", "o", "."


class Geometry:
    """The board's constant masks and shifts for one width and height.

    Attributes:
        width, height: the board's size.
        size: bits per bitboard, ``width * (height + 1)``.
        bottom: the bottom cell of every column.
        board: every playable cell.
        columns: each column's playable cells.
        tops: each column's top playable cell.
        order: the columns centre first, then outwards, left before right.
        centre: the middle column's cells (the middle two on an even width, so the
            evaluation that counts them is the same for a position and its mirror image).
    """

    def __init__(self, width: int, height: int) -> None:
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidStateError(
                    f"invalid Connect Four {name} {value!r}: use a whole number >= 1"
                )
        if width * (height + 1) > MAX_CELLS:
            raise InvalidStateError(
                f"invalid Connect Four size {width}x{height}: width * (height + 1) must be at "
                f"most {MAX_CELLS} (7x6, 8x6, 9x5 and 7x7 fit)"
            )
        self.width = width
        self.height = height
        h1 = height + 1
        self.size = width * h1
        self.columns = tuple(((1 << height) - 1) << (c * h1) for c in range(width))
        self.bottom = sum(1 << (c * h1) for c in range(width))
        self.board = sum(self.columns)
        self.tops = tuple(1 << (height - 1 + c * h1) for c in range(width))
        self.order = tuple(sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c)))
        self.centre = self.columns[(width - 1) // 2] | self.columns[width // 2]


def alignment(stones: int, height: int) -> bool:
    """Whether ``stones`` (one player's bitboard) hold four in a row.

    >>> alignment(0b1111, 6), alignment(0b111, 6)
    (True, False)
    """
    for shift in (1, height + 1, height, height + 2):  # up, across, the two diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(stones: int, height: int, free: int) -> int:
    """The cells of ``free`` where a stone would give ``stones`` four in a row (Pons's
    ``compute_winning_position``: three in a line, or two and one with a gap)."""
    cells = (stones << 1) & (stones << 2) & (stones << 3)  # the top of three stacked
    for shift in (height + 1, height, height + 2):
        pair = (stones << shift) & (stones << 2 * shift)
        cells |= pair & (stones << 3 * shift)
        cells |= pair & (stones >> shift)
        pair = (stones >> shift) & (stones >> 2 * shift)
        cells |= pair & (stones << shift)
        cells |= pair & (stones >> 3 * shift)
    return cells & free


def win_score(g: Geometry, stones: int) -> int:
    """Pons's score of a win with ``stones`` on the board at the end (at least 1).

    >>> win_score(Geometry(7, 6), 7)
    18
    """
    return max(1, (g.width * g.height + 2 - stones) // 2)


def pons_score(game: ConnectFour, state: State, value: float, plies: int | None) -> int:
    """The score of Pons's solver for the player to move: 0 for a draw; for a win, one more
    than the stones the winner has left when the game ends (so a win sooner scores more), and
    minus that for a loss. ``value`` is the game value (player 0's view) and ``plies`` the
    plies to the end under optimal play, as :func:`solver.engine.search` reports them (a
    scored game's value is the score already: ``plies`` is not needed, None will do).

    >>> game = ConnectFour()
    >>> pons_score(game, game.parse_state("4455"), 1, 3)
    18
    """
    if game.scored:
        return int(value if game.to_move(state) == 0 else -value)
    if value == 0:
        return 0
    if plies is None:
        raise ValueError("pons_score of a +-1 Connect Four value needs its plies")
    g = game.geometry
    stones = (state >> g.size).bit_count() + plies  # on the board when the game ends
    score = (g.width * g.height + 2 - stones) // 2
    mover_wins = (value > 0) == (game.to_move(state) == 0)
    return score if mover_wins else -score


def plies_to_end(game: ConnectFour, state: State, score: int) -> int:
    """The moves left to the end of the game under perfect play from ``state``, whose score
    (Pons's, the mover's view, :func:`pons_score`) is ``score``: the inverse of the score's
    count. A draw fills the board. A win ends with the winner's stone that leaves ``|score| - 1``
    of the winner's stones unplayed: on the board then are ``W * H + 2 - 2 * |score|`` stones
    or one fewer, whichever has the winner's parity (X, who moves first, plays the odd ones).
    On 7x6: X wins with stone ``43 - 2 * |score|``, O with stone ``44 - 2 * |score|``.

    >>> game = ConnectFour()
    >>> plies_to_end(game, game.parse_state("4455"), 18)  # X wins with stone 7
    3
    >>> plies_to_end(game, game.parse_state("44455554221"), -15)  # O to move; X wins, stone 13
    2
    """
    g = game.geometry
    cells = g.width * g.height
    stones = (state >> g.size).bit_count()
    if score == 0:
        return cells - stones
    x_wins = (score > 0) == (stones % 2 == 0)  # the mover wins, or loses
    last = cells + 2 - 2 * abs(score)
    if (last % 2 == 1) != x_wins:
        last -= 1
    return last - stones


class ConnectFour(MarksInRows):
    """Connect Four, ``width`` columns of ``height`` cells (7x6 by default); see the module
    docstring for the layout and notation.

    Args:
        width: columns, at least 1.
        height: rows, at least 1; ``width * (height + 1)`` at most 63.
        scored: utilities are Pascal Pons's scores (a win sooner is worth more: one more than
            the stones the winner has left at the end, ``(W * H + 2 - stones) // 2``) instead
            of +-1, so a search's value is the exact score, with no plies pass to count it
            (``search(..., plies=False)``), as his solver searches.

    Raises:
        InvalidStateError: a size that is not a whole number >= 1, or too large.

    >>> ConnectFour(width=4, height=4).format_state(0)
    '..../..../..../....'
    """

    name: str = "connect4"
    player_names: tuple[str, str] = ("X", "O")

    def __init__(self, width: int = 7, height: int = 6, scored: bool = False) -> None:
        if not isinstance(scored, bool):
            raise InvalidStateError(
                f"invalid Connect Four option scored={scored!r}: use True or False"
            )
        self.scored = scored
        self.geometry = g = Geometry(width, height)
        self._height = height
        self._size = g.size
        self._low = (1 << g.size) - 1
        self._board = g.board
        self._bottom = g.bottom
        self._h1 = height + 1
        self._order = g.order
        self._tops = g.tops
        self._columns = g.columns
        self._mirror_columns = tuple(
            (g.columns[c] | g.columns[c] << g.size, (width - 1 - 2 * c) * (height + 1))
            for c in range(width)
        )

    def utility_bounds(self) -> tuple[float, float]:
        """A loss and a win: every utility and evaluation lies in ``[-1, 1]``; scored, in
        plus or minus the score of the quickest win (seven stones)."""
        top = win_score(self.geometry, 7) if self.scored else 1
        return (-top, top)

    def position_count(self) -> int | None:
        """The positions reachable on this board when known: the standard 7x6 board's
        4,531,985,219,092, as John Tromp counted them (2008); None for other sizes.

        >>> ConnectFour().position_count(), ConnectFour(width=4, height=4).position_count()
        (4531985219092, None)
        """
        return STANDARD_POSITIONS if (self.geometry.width, self.geometry.height) == (7, 6) else None

    def compiled_rules(self) -> CompiledRules:
        """The rules as numba-compilable functions (:mod:`solver.compiled`), the same for
        every instance of this size, so one kernel serves them (compiled once, then loaded
        from numba's disk cache)."""
        return compiled_rules(self.geometry.width, self.geometry.height, self.scored)

    def initial_state(self) -> State:
        """The empty board, ``0``."""
        return 0

    def to_move(self, state: State) -> Player:
        """0 (X) after an even number of stones, else 1 (O)."""
        return (state >> self._size).bit_count() & 1

    def _last_won(self, state: State) -> bool:
        """Whether the player who moved last has four in a row."""
        mask = state >> self._size
        xs = state & self._low
        stones = mask ^ xs if mask.bit_count() & 1 == 0 else xs
        return alignment(stones, self._height)

    def actions(self, state: State) -> tuple[int, ...]:
        """The columns with room, centre first; none once someone has four in a row."""
        if self._last_won(state):
            return ()
        mask = state >> self._size
        tops = self._tops
        return tuple(c for c in self._order if not mask & tops[c])

    def result(self, state: State, action: int) -> State:
        """The state after the mover drops a stone into column ``action`` (unchecked)."""
        size = self._size
        mask = state >> size
        cell = (mask + (1 << action * self._h1)) & self._columns[action]  # the carry's landing
        if mask.bit_count() & 1:
            return state | cell << size
        return state | cell << size | cell

    def is_terminal(self, state: State) -> bool:
        """True when the last mover has four in a row or the board is full."""
        return state >> self._size == self._board or self._last_won(state)

    def utility(self, state: State) -> float:
        """+1 if X has four in a row, -1 if O has, else 0 (scored: the winner's score)."""
        if not self._last_won(state):
            return 0
        stones = (state >> self._size).bit_count()
        won = win_score(self.geometry, stones) if self.scored else 1
        return won if stones & 1 else -won

    # -- optional capabilities ------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """Threats, then the centre: a heuristic strictly between -1 and 1 (player 0's view).

        A threat is an empty cell that would complete a player's four. The value is
        ``(3 * (X's threats - O's) + X's centre stones - O's) / (3 * all threats + all centre
        stones + 4)``; a terminal state gets its utility.

        >>> ConnectFour().evaluate(ConnectFour().parse_state("4"))
        0.2
        """
        if self.is_terminal(state):
            return self.utility(state)
        g = self.geometry
        mask = state >> self._size
        xs = state & self._low
        os = mask ^ xs
        free = g.board ^ mask
        tx = winning_cells(xs, self._height, free).bit_count()
        to = winning_cells(os, self._height, free).bit_count()
        centre = g.centre
        cx = (xs & centre).bit_count()
        co = (os & centre).bit_count()
        return (3 * (tx - to) + cx - co) / (3 * (tx + to) + cx + co + 4)

    def key(self, state: State) -> State:
        """The int itself."""
        return state

    def mirror(self, state: State) -> State:
        """The state reflected left to right."""
        image = 0
        for column, shift in self._mirror_columns:
            bits = state & column
            image |= bits << shift if shift >= 0 else bits >> -shift
        return image

    def symmetries(self, state: State) -> list[State]:
        """The state and its mirror image (one entry when the position is symmetric)."""
        image = self.mirror(state)
        return [state] if image == state else [state, image]

    def format_state(self, state: State) -> str:
        """Rows from top to bottom separated by ``/``: ``x``, ``o`` or ``.`` per cell."""
        mask = state >> self._size
        rows = []
        for row in range(self._height - 1, -1, -1):
            cells = []
            for c in range(self.geometry.width):
                bit = 1 << (c * self._h1 + row)
                cells.append(EMPTY if not mask & bit else X_MARK if state & bit else O_MARK)
            rows.append("".join(cells))
        return "/".join(rows)

    def parse_state(self, text: str) -> State:
        """Read the row notation, or the moves from the start as column numbers ``1..W``.

        Raises:
            InvalidStateError: the message quotes the text and says what is wrong: a shape or
                cell that is not the board's, a stone with an empty cell below it, stone counts
                no game reaches, a move that is not a column with room or comes after the end.
        """
        stripped = text.strip()
        if stripped.isascii() and stripped.isdigit():  # isdigit() alone takes any script's
            return self._parse_moves(text, stripped)
        return self._parse_rows(text, stripped.lower())

    def _parse_moves(self, text: str, moves: str) -> State:
        width = self.geometry.width
        state = self.initial_state()
        for i, digit in enumerate(moves, 1):
            if self.is_terminal(state):
                raise InvalidStateError(
                    f"invalid Connect Four moves {quote(text)}: the game is over after move "
                    f"{i - 1}, yet move {i} ({digit!r}) follows"
                )
            column = int(digit) - 1
            if not 0 <= column < width:
                raise InvalidStateError(
                    f"invalid Connect Four moves {quote(text)}: move {i} is column {digit!r}; "
                    f"columns are 1 to {width}"
                )
            if column not in self.actions(state):
                raise InvalidStateError(
                    f"invalid Connect Four moves {quote(text)}: move {i} drops into column "
                    f"{digit}, which is full"
                )
            state = self.result(state, column)
        return state

    def _parse_rows(self, text: str, rows_text: str) -> State:
        g = self.geometry
        width, height = g.width, g.height
        rows = rows_text.split("/")
        if len(rows) != height or any(len(row) != width for row in rows):
            raise InvalidStateError(
                f"invalid Connect Four position {quote(text)}: use {height} rows of {width} "
                f"cells from top to bottom separated by '/', or the moves from the start as "
                f"column numbers 1-{width} (e.g. '4453')"
            )
        bad = sorted({c for c in rows_text if c not in (X_MARK, O_MARK, EMPTY, "/")})
        if bad:
            raise InvalidStateError(
                f"invalid Connect Four position {quote(text)}: bad cell {bad[0]!r}; cells are "
                "'x', 'o' or '.' (empty)"
            )
        mask = xs = 0
        for r, row in enumerate(rows):
            level = height - 1 - r
            for c, cell in enumerate(row):
                if cell == EMPTY:
                    continue
                bit = 1 << (c * self._h1 + level)
                mask |= bit
                if cell == X_MARK:
                    xs |= bit
        os = mask ^ xs
        if (mask + g.bottom) & mask:  # a stone above an empty cell: the carry lands on it
            raise InvalidStateError(
                f"invalid Connect Four position {quote(text)}: a stone floats above an empty "
                "cell; stones fall to the lowest empty cell of their column"
            )
        nx, no = xs.bit_count(), os.bit_count()
        if nx - no not in (0, 1):
            raise InvalidStateError(
                f"invalid Connect Four position {quote(text)}: {nx} x and {no} o; X moves "
                "first, so x has as many stones as o or one more"
            )
        x_won, o_won = alignment(xs, height), alignment(os, height)
        if (x_won and o_won) or (x_won and nx == no) or (o_won and nx != no):
            raise InvalidStateError(
                f"invalid Connect Four position {quote(text)}: the game would have ended "
                "before it (only the player who moved last can have four in a row)"
            )
        return mask << self._size | xs

    def format_action(self, state: State, action: int) -> str:
        """The column number, ``"1"`` .. ``"W"``."""
        return str(action + 1)

    def parse_action(self, state: State, text: str) -> int:
        """Read a column number ``1..W``; legality is checked elsewhere.

        Raises:
            IllegalActionError: the text is not a column number of the board.
        """
        width = self.geometry.width
        stripped = text.strip()
        if stripped.isascii() and stripped.isdigit() and 1 <= int(stripped) <= width:
            return int(stripped) - 1
        raise IllegalActionError(
            f"invalid Connect Four move {quote(text)}: use a column number from 1 to {width}"
        )

    def render(self, state: State) -> str:
        """The board as rows of cells with the column numbers underneath."""
        rows = [" ".join(row) for row in self.format_state(state).split("/")]
        rows.append(" ".join(str(c + 1) for c in range(self.geometry.width)))
        return "\n".join(rows)

    def board_cells(self, state: State) -> BoardCells:
        """The rows from the top, for boards drawn in tree nodes."""
        rows = tuple(
            tuple("" if cell == EMPTY else cell for cell in row)
            for row in self.format_state(state).split("/")
        )
        header = tuple(str(c + 1) for c in range(self.geometry.width))
        return BoardCells(rows=rows, header=header)


class SolvedPositions:
    """An exact table of Connect Four positions, for the engine's ``oracle``: each position's
    game value (player 0's view), for the positions given and no others.

    Rows ``[mask, xs, value]`` sorted by position, so the compiled search looks a position up
    inside its kernel (a binary search) as the Python search calls the table.

    Args:
        game: the board the positions are of.
        values: ``(state, value)`` pairs, values -1, 0 or 1 (as ``solve`` gives them).

    >>> from solver.solve import solve
    >>> game = ConnectFour(width=4, height=4)
    >>> late = game.parse_state("1111222233")  # X wins at once in column 4
    >>> table = SolvedPositions.from_solution(game, solve(game, late))
    >>> table(late), table(game.initial_state())
    (1, None)
    """

    def __init__(self, game: ConnectFour, values: Iterable[tuple[State, float]]) -> None:
        self.width, self.height = game.geometry.width, game.geometry.height
        size = game.geometry.size
        low = (1 << size) - 1
        rows = []
        for state, value in values:
            if value not in (-1, 0, 1):
                raise InvalidStateError(
                    f"invalid Connect Four value {value!r} of {game.format_state(state)!r}: "
                    "use -1, 0 or 1"
                )
            rows.append((state >> size, state & low, int(value)))
        rows.sort()
        self.rows = np.array(rows, np.int64).reshape(len(rows), 3)
        self._values = {mask << size | xs: value for mask, xs, value in rows}

    @classmethod
    def from_solution(cls, game: ConnectFour, solution: Any) -> SolvedPositions:
        """The positions of a :class:`solver.solve.Solution` of ``game``, with their values."""
        return cls(game, ((state, record.value) for state, record in solution))

    def __len__(self) -> int:
        return len(self._values)

    def __call__(self, state: State) -> int | None:
        """The position's value, or None when the table does not hold it."""
        return self._values.get(state)


# -- the compiled route ---------------------------------------------------------------------------


@cache
def compiled_rules(
    width: int, height: int, scored: bool = False, pruned: bool = True
) -> CompiledRules:
    """Connect Four's rules for :mod:`solver.compiled`, over ``[mask, xs, stones]``.

    The same rules as :class:`ConnectFour`, restated over a three-word array (every stone,
    X's stones, the number of stones) with the board's constants in the closure: plain Python
    that numba compiles, and that runs as it is where numba is missing (the tests compare them
    with the methods above). A helper they call must be compiled too, so the functions get
    theirs as arguments of :func:`_rule_functions`.

    With ``pruned`` (the default) they also give what Pons's solver searches with: only the
    moves that do not lose at once, the moves ordered by the winning cells each makes, and a
    search to the end by null windows; without it, the kernel searches the same tree as the
    Python search (the tests compare the two node by node).
    """
    g = Geometry(width, height)
    size = g.size
    low = (1 << size) - 1

    def encode(state: State) -> Any:
        mask = state >> size
        return np.array([mask, state & low, mask.bit_count()], np.int64)

    def oracle_data(oracle: Any) -> Any:
        """A :class:`SolvedPositions` table of this board's rows (the kernel's oracle)."""
        if oracle is None:
            return np.zeros((0, 3), np.int64)
        if isinstance(oracle, SolvedPositions) and (oracle.width, oracle.height) == (width, height):
            return oracle.rows
        return None

    functions = _rule_functions(g, scored, pruned, _jit())
    return CompiledRules(
        name=f"connect4 {width}x{height}{' scored' if scored else ''}{'' if pruned else ' plain'}",
        words=3,
        move_limit=width,
        max_plies=width * height,
        encode=encode,
        oracle_data=oracle_data,
        null_window=pruned,
        pack_words=1,
        **functions,
    )


def _jit() -> Any:
    """numba's ``njit``, or no compiling at all without numba (the functions run as Python)."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - the engine asks only when numba is there
        return lambda function: function
    return njit


def _rule_functions(g: Geometry, scored: bool, pruned: bool, njit: Any) -> dict[str, Any]:  # noqa: C901 (one closure each)
    """``moves``, ``play``, ``to_move``, ``utility``, ``evaluate`` and ``oracle`` over
    ``[mask, xs, n]``."""
    height, h1, h2 = g.height, g.height + 1, g.height + 2
    order, tops, columns = g.order, g.tops, g.columns
    bottoms = tuple(1 << (c * h1) for c in range(g.width))
    board = g.board
    centre = g.centre

    def _aligned(p: int) -> bool:
        m = p & (p >> 1)
        if m & (m >> 2):
            return True
        m = p & (p >> h1)
        if m & (m >> 2 * h1):
            return True
        m = p & (p >> height)
        if m & (m >> 2 * height):
            return True
        m = p & (p >> h2)
        return bool(m & (m >> 2 * h2))

    def _popcount(x: int) -> int:
        count = 0
        while x:
            x &= x - 1
            count += 1
        return count

    def _wins(p: int, free: int) -> int:
        """The cells of ``free`` where a stone would give ``p`` four in a row."""
        cells = (p << 1) & (p << 2) & (p << 3)
        for shift in (h1, height, h2):
            pair = (p << shift) & (p << 2 * shift)
            cells |= pair & (p << 3 * shift)
            cells |= pair & (p >> shift)
            pair = (p >> shift) & (p >> 2 * shift)
            cells |= pair & (p << shift)
            cells |= pair & (p >> 3 * shift)
        return cells & free

    def _threats(p: int, free: int) -> int:
        return popcount(wins(p, free))

    cells = g.width * g.height

    def _won(n: int) -> float:
        """The value of a game that ended with ``n`` stones, won by who moved last."""
        v = max(1, (cells + 2 - n) // 2) if scored else 1
        return float(v) if n & 1 else -float(v)

    aligned, popcount, won = njit(_aligned), njit(_popcount), njit(_won)
    wins = njit(_wins)
    threats = njit(_threats)
    bottom_row = g.bottom

    def moves(s: Any, out: Any) -> int:
        mask, xs, n = s[0], s[1], s[2]
        if aligned(xs if n & 1 else mask ^ xs):
            return 0
        k = 0
        for c in order:
            if not mask & tops[c]:
                out[k] = c
                k += 1
        return k

    def play(s: Any, move: int, child: Any) -> None:
        mask = s[0]
        cell = (mask + bottoms[move]) & columns[move]
        child[0] = mask | cell
        child[1] = s[1] if s[2] & 1 else s[1] | cell
        child[2] = s[2] + 1

    def to_move(s: Any) -> int:
        return int(s[2] & 1)

    def utility(s: Any) -> float:
        mask, xs, n = s[0], s[1], s[2]
        if aligned(xs if n & 1 else mask ^ xs):
            return won(n)
        return 0.0

    def evaluate(s: Any) -> float:
        mask, xs, n = s[0], s[1], s[2]
        if aligned(xs if n & 1 else mask ^ xs):
            return won(n)
        if mask == board:
            return 0.0
        os = mask ^ xs
        free = board ^ mask
        tx = threats(xs, free)
        to = threats(os, free)
        cx = popcount(xs & centre)
        co = popcount(os & centre)
        return (3 * (tx - to) + cx - co) / (3 * (tx + to) + cx + co + 4)

    def oracle(s: Any, rows: Any) -> float:
        """The value :class:`SolvedPositions` holds for ``s`` (rows sorted), else NaN."""
        mask, xs = s[0], s[1]
        lo, hi = 0, rows.shape[0]
        while lo < hi:
            mid = (lo + hi) >> 1
            m, x = rows[mid, 0], rows[mid, 1]
            if m < mask or (m == mask and x < xs):
                lo = mid + 1
            else:
                hi = mid
        if lo < rows.shape[0] and rows[lo, 0] == mask and rows[lo, 1] == xs:
            return float(rows[lo, 2])
        return np.nan

    def top(s: Any) -> float:
        """Scored: the best the mover can reach: a win with its next stone when it has one,
        else a win with the stone after at best (a game over: its value)."""
        mask, xs, n = s[0], s[1], s[2]
        mine = mask ^ xs if n & 1 else xs
        if aligned(xs if n & 1 else mask ^ xs):
            return -abs(won(n))
        playable = (mask + bottom_row) & board
        if wins(mine, board ^ mask) & playable:
            return float(max(1, (cells + 1 - n) // 2))
        return float((cells - 1 - n) // 2) if cells - n >= 3 else 0.0

    def bottom(s: Any) -> float:
        """Scored: the worst the mover can come to: a loss to the opponent's next stone when
        every move leaves it a win, else a loss to the opponent's stone after at worst (a game
        over: its value)."""
        mask, xs, n = s[0], s[1], s[2]
        theirs = xs if n & 1 else mask ^ xs
        if aligned(theirs):
            return -abs(won(n))
        free = board ^ mask
        playable = (mask + bottom_row) & board
        mine = mask ^ theirs
        if wins(mine, free) & playable:  # a win at once: the value itself
            return float(max(1, (cells + 1 - n) // 2))
        threat = wins(theirs, free)
        forced = playable & threat
        if forced:
            if forced & (forced - 1):
                return -float(max(1, (cells - n) // 2))
            playable = forced
        if playable & ~(threat >> 1):
            return -float((cells - 2 - n) // 2) if cells - n >= 4 else 0.0
        return -float(max(1, (cells - n) // 2)) if playable else 0.0

    def safe_moves(s: Any, out: Any) -> int:
        """Pons's ``possibleNonLosingMoves``: a move that wins at once alone; else the moves
        that neither leave the opponent a winning cell open nor fill the cell under one
        (when the opponent has two to fill, none: -1); 0 when the game is over. Scored, a win
        at once is left to the bounds, which meet at its value before the kernel asks for
        moves (so this does not look for one: a node's one search of the mover's wins)."""
        mask, xs, n = s[0], s[1], s[2]
        if n & 1:
            mine, theirs = mask ^ xs, xs
        else:
            mine, theirs = xs, mask ^ xs
        if aligned(theirs):
            return 0
        free = board ^ mask
        playable = (mask + bottom_row) & board
        if playable == 0:
            return 0
        winning = 0 if scored else wins(mine, free) & playable
        if winning:
            for c in order:
                if winning & columns[c]:
                    out[0] = c
                    return 1
        threat = wins(theirs, free)
        forced = playable & threat
        if forced:
            if forced & (forced - 1):
                return -1
            playable = forced
        playable &= ~(threat >> 1)
        k = 0
        for c in order:
            if playable & columns[c]:
                out[k] = c
                k += 1
        return k if k else -1

    def pack(s: Any) -> tuple[int]:
        """The position in one word: every stone plus X's (Pons's key: a column's stones plus
        the X among them give its height and its colours, so no two positions share it)."""
        return (s[0] + s[1],)

    def move_score(s: Any, move: int) -> int:
        """The cells where the mover would win after ``move`` (Pons's ``moveScore``)."""
        mask, xs, n = s[0], s[1], s[2]
        cell = (mask + bottoms[move]) & columns[move]
        mine = (mask ^ xs if n & 1 else xs) | cell
        return threats(mine, board ^ (mask | cell))

    bounds = {"top": top, "bottom": bottom} if scored else {}
    solver = {"safe_moves": safe_moves, "move_score": move_score} if pruned else {}
    return {
        "moves": moves,
        "play": play,
        "to_move": to_move,
        "utility": utility,
        "evaluate": evaluate,
        "oracle": oracle,
        "pack": pack,
        **bounds,
        **solver,
    }
