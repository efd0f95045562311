"""The ``gamesolver`` command: list, solve, analyse, play, match and draw any registered game.

Every subcommand goes through the Game protocol, so a new game gets every command for free;
each lives in a module of :mod:`zerosum.commands`.
Values are reported from player 0's (MAX's) point of view, as everywhere in the project.

Output is rich tables and progress bars on a terminal, plain text when stdout is redirected,
and JSON with ``--json``. Errors go to stderr as ``gamesolver: error: ...`` and never as a
traceback. Exit codes: 0 success; 1 a game error (a bad position, an illegal move, a search the
game cannot support, too many states); 2 a usage error (a bad option, an unknown game, a
malformed game option); 130 interrupted.

>>> args = build_parser().parse_args(["best", "textbook", "--depth", "2"])
>>> args.game, args.algorithm, args.depth
('textbook', 'engine', 2)
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import NoReturn

from solver import DISTRIBUTION, __version__
from solver.game import GameError
from solver.quoting import QUOTE_LIMIT, quote
from solver.resources import address_space_limit
from zerosum import EXIT_TERMINATED, Terminated
from zerosum.commands import COMMANDS
from zerosum.console import (
    EXIT_GAME_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    Io,
    UsageError,
)

__all__ = ["build_parser", "main"]

EXAMPLES = """examples:
  gamesolver games
  gamesolver solve tictactoe --out table.csv
  gamesolver best tictactoe --position 'x.o/.x./...'
  gamesolver analyse ayoayo --position '[[2,6,6,1,1,7],[0,2,7,2,7,7]]' --time 2
  gamesolver play ayoayo --ai engine --time 1
  gamesolver match ayoayo minimax:3 random --games 500 --seed 1 --swap
  gamesolver tree textbook --algorithm alphabeta -o alphabeta.svg

Values are from player 0's (MAX's) point of view. Exit codes: 1 game error, 2 usage error."""


class _Parser(argparse.ArgumentParser):
    """argparse, but ``error`` raises UsageError so ``main`` can return instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}\n{self.format_usage().rstrip()}")


Handler = Callable[[argparse.Namespace, Io], int]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gamesolver`` with all its subcommands."""
    parser = _Parser(
        prog=PROG,
        description="Solve, analyse, play and draw two-player zero-sum perfect-information games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} ({DISTRIBUTION}) {__version__}",
        help="print the version and exit",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        sub = commands.add_parser(
            command.NAME, help=command.HELP, description=command.HELP, aliases=command.ALIASES
        )
        sub.set_defaults(handler=command.run)
        command.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamesolver`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    io = Io()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        _error(io, str(exc))
        return EXIT_USAGE
    except SystemExit as exc:  # --help and --version exit 0
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(io.err.file)
        return EXIT_USAGE
    try:
        return handler(args, io)
    except UsageError as exc:
        _error(io, str(exc))
        return EXIT_USAGE
    except GameError as exc:
        _error(io, str(exc))
        return EXIT_GAME_ERROR
    except RecursionError:  # a teaching search to the end of a game that cycles or is too long
        _error(
            io,
            f"the search of {getattr(args, 'game', 'the game')!r} went deeper than Python's "
            "recursion limit without reaching the end: the game may cycle or be too long to "
            "search to the end; give a --depth N (or use the engine with --time S)",
        )
        return EXIT_GAME_ERROR
    except Terminated:
        _error(io, "terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _error(io, "interrupted")
        return EXIT_INTERRUPTED
    except EOFError:  # a human agent (e.g. in match) asked for a move after the input ended
        _error(io, "the input ended while a move was asked for; nothing more to play")
        return EXIT_GAME_ERROR
    except MemoryError:  # past a memory limit (ulimit -v, a container), e.g. a raised --max-states
        _error(
            io,
            f"{args.command or 'the command'} ran out of memory (a limit of this process or "
            f"the machine); give it less to do ({_LESS.get(args.command, _LESS[None])}) or "
            "more memory",
        )
        return EXIT_GAME_ERROR
    except ImportError as exc:  # a library that cannot be mapped now, e.g. under ulimit -v
        text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        limit = address_space_limit()
        why = (
            "" if limit is None else f" (under a limit of {limit >> 20:,} MB, ulimit -v: raise it)"
        )
        _error(
            io, f"{args.command or 'the command'} cannot load a library: {quote(text, 200)}{why}"
        )
        return EXIT_GAME_ERROR
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # a file or folder the command could not use (not checked before)
        where = f" {quote(str(exc.filename))}" if exc.filename is not None else ""
        _error(io, f"cannot use{where}: {exc.strerror or exc}")
        return EXIT_GAME_ERROR


_LESS: dict[str | None, str] = {
    None: "a smaller --max-states, --depth or level",
    "prove": "a smaller --table: each test's table takes 24 bytes an entry",
    "verify": "--no-tablebase, or a certificate of a position with fewer seeds",
    "tablebase": "fewer --seeds, or --out-of-core",
}
"""What to give a command that ran out of memory less of."""


def _error(io: Io, message: str) -> None:
    io.err.print(f"{PROG}: error: {shorten_runs(message)}", style=None)


_LONG_RUN = re.compile(rf"\S{{{QUOTE_LIMIT + 40},}}")


def shorten_runs(message: str) -> str:
    """``message`` with every very long run of non-blank characters cut to its beginning.

    The messages quote bad values by their beginning already; this is the last guard, for
    text that argparse or a third-party game echoes whole (a 130 KB argument stays one line).

    >>> shorten_runs("invalid choice: '" + "x" * 5000 + "'")[-40:]
    'xxxxxxxxxxxxxxxxxxxx… (5,002 characters)'
    """
    return _LONG_RUN.sub(
        lambda m: f"{m.group()[:QUOTE_LIMIT]}… ({len(m.group()):,} characters)", message
    )
