"""Endgame tablebases on the command line: found automatically for games that offer one.

A game offers a tablebase through :class:`solver.game.HasTablebase`. When its directory holds
built levels, ``analyse``, ``best``, ``play`` and ``match`` hand its probe to the engine as the
``oracle``: a covered root is answered at once (exact, "exact (tablebase)"), and lines inside a
search end at covered positions with their exact values. ``--no-tablebase`` turns that off;
``--tablebase-dir`` (or ``GAMESOLVER_TABLEBASE_DIR``) says where to look.
"""

from __future__ import annotations

import argparse
from typing import Any

from solver.game import EndgameTablebase, HasTablebase

__all__ = ["SOURCE", "from_tablebase", "open_tablebase", "tablebase_arguments"]

SOURCE = "exact (tablebase)"
"""How an answer read from a tablebase is labelled."""


def tablebase_arguments(sub: argparse.ArgumentParser) -> None:
    """``--tablebase-dir DIR`` and ``--no-tablebase``."""
    sub.add_argument(
        "--tablebase-dir",
        metavar="DIR",
        help="where endgame tablebases are (default: $GAMESOLVER_TABLEBASE_DIR, else the user "
        "cache directory); used automatically when present",
    )
    sub.add_argument("--no-tablebase", action="store_true", help="do not use an endgame tablebase")


def open_tablebase(game: Any, args: argparse.Namespace) -> EndgameTablebase | None:
    """The game's tablebase when it has one with levels built (and it is not turned off)."""
    if getattr(args, "no_tablebase", False) or not isinstance(game, HasTablebase):
        return None
    tablebase = game.tablebase(getattr(args, "tablebase_dir", None))
    return tablebase if tablebase.levels else None


def from_tablebase(tablebase: EndgameTablebase | None, state: Any) -> bool:
    """True when ``tablebase`` covers ``state`` (so the answer there is read, not searched)."""
    return tablebase is not None and tablebase.probe(state) is not None
