"""Tablebase levels for the proof benchmarks: the levels a run needs, checked once, and a
folder that holds only some of them (links), so a proof sees no level above its cap."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from games.ayoayo import Ayoayo
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path


def needed_levels(game: Ayoayo, directory: str | None, needed: Iterable[int]) -> Tablebase | None:
    """The tablebase in ``directory`` (default: the user cache), or ``None`` after one line on
    stderr naming the levels in ``needed`` that are not built there."""
    tablebase = game.tablebase(directory)
    missing = [n for n in needed if n not in tablebase.levels]
    if missing:
        print(f"error: levels {missing} are not built in {tablebase.directory}", file=sys.stderr)
        return None
    return tablebase


def linked_levels(game: Ayoayo, source: Tablebase, into: Path, below: int) -> Tablebase:
    """A tablebase in ``into`` whose levels are links to the levels of ``source`` with fewer
    than ``below`` seeds."""
    into.mkdir(parents=True, exist_ok=True)
    for n in source.levels:
        if n < below:
            for kind in (VALUES, DISTANCES):
                path = level_path(source.directory, n, kind)
                link = level_path(into, n, kind)
                if path.exists() and not link.exists():
                    os.symlink(path, link)
    return game.tablebase(into)
