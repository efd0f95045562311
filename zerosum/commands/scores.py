"""``gamesolver scores``: the exact value of every position of a file, value only, timed.

A file holds one position a line in the game's notation, optionally followed by its value
(whitespace between): ``<position> [<value>]``; blank lines and lines starting with ``#`` are
skipped. Pascal Pons's Connect Four benchmark files are such files (``<moves> <score>``, the
moves as column numbers 1-7 from the start, the score from the view of the player to move on
his scored game), so ``gamesolver scores connect4 -O scored=true --mover FILE`` runs one of
them. Each position is solved to the end for its value alone (:mod:`solver.exact_values`: on
the compiled route one kernel entry a position) and printed with its value; the values the
file gives are checked, and the first line whose value differs is named (exit 1). The time per
position (CPU seconds of this process, the kernel's compile or load excluded: it is ready
before the first position) is summed up as mean and median.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from solver.compiled import prepare
from solver.exact_values import TABLE_SIZE, ExactValues
from solver.game import GameError
from solver.quoting import quote
from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.options import game_arguments, load, parse_position, positive_int, signed_number

NAME = "scores"
ALIASES: tuple[str, ...] = ()
HELP = "the exact value of each position of a file, value only, checked and timed"


def add_arguments(scores: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver scores``."""
    game_arguments(scores)
    scores.add_argument(
        "file",
        metavar="FILE",
        type=Path,
        help="one position a line, optionally followed by its value: '<position> [<value>]'",
    )
    scores.add_argument(
        "--mover",
        action="store_true",
        help="values from the view of the player to move (as Pons's scores), not player 0's",
    )
    scores.add_argument(
        "--table-size",
        type=positive_int,
        default=TABLE_SIZE,
        metavar="N",
        help=f"transposition-table entries (default {TABLE_SIZE})",
    )
    scores.add_argument(
        "--quiet", "-q", action="store_true", help="print the summary only, not every position"
    )


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver scores``: solve each position of the file, print, check and time it."""
    game = load(args)
    lines = read_positions(game, args.file)
    prepare(game)  # the kernel compiled or loaded now, never in a position's time
    solver = ExactValues(game, table_size=args.table_size)
    seconds: list[float] = []
    differ: list[tuple[int, str, Any, Any]] = []
    try:
        for number, text, state, given in lines:
            began = time.process_time()
            value = solver.value(state)
            seconds.append(time.process_time() - began)
            if args.mover and game.to_move(state) == 1:
                value = -value if value != 0 else value
            if not args.quiet:
                io.print(f"{text} {value}")
            if given is not None and value != given:
                differ.append((number, text, value, given))
    except KeyboardInterrupt:  # what was solved before the Ctrl-C is summed up, then it ends
        if seconds:
            io.print(_summary(seconds, solver.compiled, f" of {len(lines):,}, then interrupted"))
        raise
    io.print(_summary(seconds, solver.compiled))
    if differ:
        number, text, value, given = differ[0]
        raise GameError(
            f"{args.file}:{number}: the position {quote(text)} has the value {value}, the file "
            f"says {given} ({len(differ)} of {len(seconds)} values differ)"
        )
    return EXIT_OK


def read_positions(game: Any, path: Path) -> list[tuple[int, str, Any, Any]]:
    """The file's positions: ``(line number, position text, state, value given or None)``.

    Raises:
        UsageError: the file cannot be read.
        GameError: a line that is not ``<position> [<value>]``, a position the game does not
            read (its own message, with the line), or no position at all.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"cannot read the positions file {str(path)!r}: {why}") from None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = stripped.split()
        given = signed_number(fields[1]) if len(fields) == 2 else None
        if len(fields) > 2 or (len(fields) == 2 and given is None):
            raise GameError(
                f"{path}:{number}: bad line {quote(line)}: use '<position> [<value>]' (a "
                "position, then optionally its value as a number in ASCII digits)"
            )
        try:
            state = parse_position(game, fields[0])
        except GameError as exc:
            raise type(exc)(f"{path}:{number}: {exc}") from None
        found.append((number, fields[0], state, given))
    if not found:
        raise GameError(
            f"{path}: no positions: give one a line, '<position> [<value>]' (blank lines and "
            "lines starting with '#' are skipped)"
        )
    return found


def _summary(seconds: list[float], compiled: bool, cut: str = "") -> str:
    """The line that sums the times up: how many positions, on which search, mean, median."""
    route = "compiled route" if compiled else "engine (Python)"
    count = f"{len(seconds):,} position{'s' if len(seconds) != 1 else ''}{cut}"
    return (
        f"{count} on the {route}: mean {_duration(statistics.mean(seconds))}, "
        f"median {_duration(statistics.median(seconds))} a position (CPU time)"
    )


def _duration(seconds: float) -> str:
    """Seconds in the unit that reads best: µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s"
