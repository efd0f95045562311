"""Where the command writes: consoles for stdout and stderr, exit codes, progress bars.

Output is rich tables and progress bars on a terminal and plain text when redirected; JSON goes
straight to the stream. Errors are :class:`UsageError` (exit 2) or the project's ``GameError``
(exit 1); nothing here knows a game.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table

from zerosum import EXIT_INTERRUPTED

__all__ = [
    "EXIT_GAME_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "PROG",
    "Io",
    "UsageError",
    "progress_bar",
]

PROG = "gamesolver"
EXIT_OK = 0
EXIT_GAME_ERROR = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A command-line mistake the user can fix by changing an option (exit code 2)."""


# --------------------------------------------------------------------------------------------
# Output


def strict_json(data: object) -> object:
    """``data`` as strict JSON can hold it: NaN and the infinities (which ``json.dumps``
    writes as ``NaN``/``Infinity``, not JSON) become null, fractions their text (``"13/18"``),
    tuples lists.

    >>> strict_json({"value": float("nan"), "bound": [float("-inf"), 1.5], "p": Fraction(1, 3)})
    {'value': None, 'bound': [None, 1.5], 'p': '1/3'}
    """
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, Fraction):
        return str(data)
    if isinstance(data, dict):
        return {key: strict_json(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [strict_json(value) for value in data]
    return data


class Io:
    """Where the command writes: stdout and stderr consoles, plain when not a terminal."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self.out = _console(_lenient(stdout if stdout is not None else sys.stdout))
        self.err = _console(_lenient(stderr if stderr is not None else sys.stderr))

    @property
    def fancy(self) -> bool:
        """True when stdout is a terminal (colours, boxes, live progress)."""
        return self.out.is_terminal

    def print(self, text: object = "", style: str | None = None) -> None:
        """Print one line (or a rich renderable) to stdout; plain text has no trailing blanks."""
        if self.fancy:
            self.out.print(text, style=style)
            return
        with self.out.capture() as captured:
            self.out.print(text)
        lines = captured.get().splitlines()
        self.out.file.write("".join(line.rstrip() + "\n" for line in lines) or "\n")
        self.out.file.flush()

    def warn(self, text: str) -> None:
        """Print one line of warning to stderr (never to stdout, which may carry JSON)."""
        self.err.file.write(text.rstrip() + "\n")
        self.err.file.flush()

    def json(self, data: object) -> None:
        """Write ``data`` as indented JSON to stdout, bypassing rich's wrapping.

        Non-ASCII text is written as is when the stream's encoding can hold it, else as JSON
        escapes (so the JSON stays exact under e.g. ``PYTHONIOENCODING=ascii``).
        """
        data = strict_json(data)
        text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
        encoding = getattr(self.out.file, "encoding", None) or "utf-8"
        try:
            text.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            text = json.dumps(data, indent=2, ensure_ascii=True, allow_nan=False)
        self.out.file.write(text + "\n")
        self.out.file.flush()

    def table(self, *columns: str, title: str | None = None) -> Table:
        """A table in the house style: boxed on a terminal, simple rules otherwise."""
        table = Table(
            title=title,
            box=box.SIMPLE_HEAD if self.fancy else box.SIMPLE,
            show_edge=False,
            pad_edge=False,
            title_justify="left",
            title_style="bold" if self.fancy else "",
            header_style="bold" if self.fancy else "",
        )
        for column in columns:
            justify = "right" if column.startswith(">") else "left"
            table.add_column(column.lstrip(">"), justify=justify)  # type: ignore[arg-type]
        return table


def _lenient(stream: TextIO) -> TextIO:
    """``stream``, set to replace what its encoding cannot write (``Ayòayò`` under ASCII)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
        with contextlib.suppress(ValueError, OSError):  # a stream that cannot change
            reconfigure(errors="replace")
    return stream


def _console(stream: TextIO) -> Console:
    return Console(
        file=stream,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
        width=_width(stream),
    )


def _width(stream: TextIO) -> int | None:
    """The terminal's width; when not a terminal, wide enough that tables do not wrap."""
    isatty = getattr(stream, "isatty", None)
    return None if isatty is not None and isatty() else 160


@contextmanager
def progress_bar(
    io: Io, label: str, total: int | None, unit: str = ""
) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal; yields ``advance(completed)``."""
    if not io.err.is_terminal:
        yield lambda completed: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    counter = (
        MofNCompleteColumn() if total is not None else TextColumn(f"{{task.completed:,}} {unit}")
    )
    columns = [TextColumn("{task.description}"), BarColumn(), counter]
    with Progress(*columns, TimeElapsedColumn(), console=io.err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda completed: bar.update(task, completed=completed)
