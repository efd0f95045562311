"""Where an Ayòayò endgame position lives in a tablebase: levels, boards seen from the mover, ranks.

Assumes the rules of :mod:`games.ayoayo.rules`: 48 seeds, captures of exactly 4, the game over
as soon as a player has more than 24. Then:

- **The mover's view.** The rules are symmetric under turning the board round (pit ``(0, c)``
  swaps with ``(1, 5 - c)`` and the players swap; in sowing order, pit ``q`` goes to
  ``(q + 6) % 12``). So a position is stored as the 12 pits in sowing order *starting with the
  mover's own six*, the mover's captured seeds ``cm`` and the opponent's ``co``. For player 0 that
  is the board as the rules keep it; for player 1 it is the board turned round. The mover's cell
  ``c`` is view pit ``5 - c``.
- **Levels.** The seeds on the board ``n`` are a multiple of 4 while the game runs. Level ``n``
  holds every board of ``n`` seeds times every captured split still in play: ``cm`` and
  ``co = 48 - n - cm`` both multiples of 4 and at most 24 (above 24 the game is over, so the
  split matters). Splits are listed by ascending ``cm``.
- **Ranks.** Boards of a level are ranked 0 .. C(n + 11, 11) - 1 by stars and bars, in
  lexicographic order of the 12 view pits (pit 0 most significant): ``(0, ..., 0, n)`` is 0 and
  ``(n, 0, ..., 0)`` is last. With ``A[j][m] = C(m + j, j)`` and ``r_i`` the seeds in pits
  ``i..11``, ``rank = sum(A[11 - i][r_i] - A[11 - i][r_i - b_i] for i in 0..10)``.
- **Position index.** ``split_index * boards(n) + rank``: a level file is a
  ``(splits, boards)`` array in C order.

>>> board = (0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 3)
>>> rank(board), unrank(4, rank(board)) == board, board_count(4), splits(4)
(126, True, 1365, (20, 24))
"""

from __future__ import annotations

from collections.abc import Iterator, MutableSequence, Sequence

from games.ayoayo.board import PITS, STARS_AND_BARS, TOTAL_SEEDS, WIN_THRESHOLD

__all__ = [
    "advance",
    "board_count",
    "boards",
    "boards_of",
    "level_size",
    "levels_up_to",
    "rank",
    "split_index",
    "splits",
    "unrank",
    "view_of",
]


def _check_level(seeds: int) -> int:
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 0 <= seeds <= TOTAL_SEEDS:
        raise ValueError(f"a level is a number of seeds 0..{TOTAL_SEEDS}, got {seeds!r}")
    if seeds % 4:
        raise ValueError(f"a level is a multiple of 4 seeds (captures take 4), got {seeds!r}")
    return seeds


def board_count(seeds: int) -> int:
    """Boards of ``seeds`` seeds in 12 pits: C(seeds + 11, 11).

    >>> board_count(0), board_count(8), board_count(12)
    (1, 75582, 1352078)
    """
    return STARS_AND_BARS[PITS - 1][_check_level(seeds)]


def splits(seeds: int) -> tuple[int, ...]:
    """The mover's captured seeds ``cm`` of every split in play at level ``seeds``, ascending.

    >>> splits(8), splits(24), splits(44)
    ((16, 20, 24), (0, 4, 8, 12, 16, 20, 24), (0, 4))
    """
    rest = TOTAL_SEEDS - _check_level(seeds)
    return tuple(cm for cm in range(0, WIN_THRESHOLD + 1, 4) if 0 <= rest - cm <= WIN_THRESHOLD)


def split_index(seeds: int, mover_captured: int) -> int:
    """The index of the split whose mover has ``mover_captured`` in :func:`splits`.

    Raises:
        ValueError: no such split at this level.

    >>> split_index(8, 20)
    1
    """
    options = splits(seeds)
    try:
        return options.index(mover_captured)
    except ValueError:
        raise ValueError(
            f"mover's captured {mover_captured!r} is not a split of level {seeds}; "
            f"valid: {', '.join(map(str, options)) or 'none (the game is over)'}"
        ) from None


def level_size(seeds: int) -> int:
    """Positions stored at a level: boards times splits.

    >>> level_size(4), level_size(8)
    (2730, 226746)
    """
    return board_count(seeds) * len(splits(seeds))


def levels_up_to(seeds: int) -> tuple[int, ...]:
    """The levels a tablebase up to ``seeds`` seeds holds, smallest first (level 0 included).

    >>> levels_up_to(12)
    (0, 4, 8, 12)
    """
    return tuple(range(0, _check_level(seeds) + 1, 4))


def rank(board: Sequence[int]) -> int:
    """The rank of a 12-pit board among the boards with as many seeds (see the module notes).

    >>> rank((0,) * 11 + (4,)), rank((4,) + (0,) * 11)
    (0, 1364)
    """
    r = 0
    remaining = sum(board)
    for i in range(PITS - 1):
        b = board[i]
        if b:
            row = STARS_AND_BARS[PITS - 1 - i]
            r += row[remaining] - row[remaining - b]
            remaining -= b
    return r


def unrank(seeds: int, index: int) -> tuple[int, ...]:
    """The board of ``seeds`` seeds with rank ``index``.

    Raises:
        ValueError: ``index`` is outside 0 .. board_count(seeds) - 1.

    >>> unrank(4, 0), unrank(4, 1364)[0]
    ((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4), 4)
    """
    total = board_count(seeds)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < total:
        raise ValueError(f"rank must be 0..{total - 1} at level {seeds}, got {index!r}")
    board = []
    remaining = seeds
    for i in range(PITS - 1):
        row = STARS_AND_BARS[PITS - 1 - i]
        # the largest b with row[remaining] - row[remaining - b] <= index
        b = 0
        while b < remaining and row[remaining] - row[remaining - b - 1] <= index:
            b += 1
        index -= row[remaining] - row[remaining - b]
        board.append(b)
        remaining -= b
    board.append(remaining)
    return tuple(board)


def boards(seeds: int, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
    """The boards of ranks ``start .. stop - 1`` in rank order (lexicographic successor steps).

    >>> list(boards(4, 0, 3))[2]
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2)
    """
    total = board_count(seeds)
    stop = total if stop is None else stop
    if not 0 <= start <= stop <= total:
        raise ValueError(f"rank range must lie in 0..{total} at level {seeds}, got {start}..{stop}")
    if start == stop:
        return
    board = list(unrank(seeds, start))
    for _ in range(start, stop - 1):
        yield tuple(board)
        advance(board)
    yield tuple(board)


def boards_of(seeds: int, pits: int) -> Iterator[tuple[int, ...]]:
    """Every way to put ``seeds`` seeds in ``pits`` pits, in lexicographic order.

    >>> list(boards_of(2, 2))
    [(0, 2), (1, 1), (2, 0)]
    """
    board = [0] * (pits - 1) + [seeds]
    yield tuple(board)
    while advance(board):
        yield tuple(board)


def advance(board: MutableSequence[int]) -> bool:
    """Step ``board`` in place to the next one of as many seeds in lexicographic order.

    Written so numba compiles the same source for the kernels
    (:mod:`games.ayoayo.native_tablebase`): one definition of the order, run both ways.

    Moves one seed from the last pit to the one before; if the last is empty, the rightmost
    other pit ``j`` with seeds gives one seed to pit ``j - 1`` and the rest of it to the last
    pit. Returns False (``board`` unchanged) at the last board.
    """
    last = len(board) - 1
    if last <= 0:
        return False
    if board[last]:
        board[last] -= 1
        board[last - 1] += 1
        return True
    j = last - 1
    while j > 0 and board[j] == 0:
        j -= 1
    if j == 0:
        return False
    board[j - 1] += 1
    board[last] = board[j] - 1
    board[j] = 0
    return True


def view_of(pits: Sequence[int], mover: int) -> tuple[int, ...]:
    """The 12 pits in sowing order from ``mover``'s side: the mover's own six first.

    ``pits`` are in the rules' sowing order (player 0's row is pits 0..5). Turning twice is the
    identity, so the same call maps a view back to the rules' order.

    >>> view_of(tuple(range(12)), 1)
    (6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5)
    """
    if mover:
        return (*pits[6:12], *pits[0:6])
    return tuple(pits[0:12])
