"""Endgame tablebases on the command line: found automatically for games that offer one.

A game offers a tablebase through :class:`solver.game.HasTablebase`. When its directory holds
built levels, ``analyse``, ``best``, ``play`` and ``match`` hand its probe to the engine as the
``oracle``: a covered root is answered at once (exact, "exact (tablebase)"), and lines inside a
search end at covered positions with their exact values. ``--no-tablebase`` turns that off;
``--tablebase-dir`` (or ``GAMESOLVER_TABLEBASE_DIR``) says where to look.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from solver.game import EndgameTablebase, HasTablebase
from solver.match import EngineAgent
from solver.quoting import quote
from zerosum.console import UsageError

__all__ = [
    "SOURCE",
    "TablebasePlayer",
    "from_tablebase",
    "open_tablebase",
    "tablebase_arguments",
    "with_tablebase",
]

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


def open_tablebase(
    game: Any, args: argparse.Namespace, warn: Callable[[str], None] | None = None
) -> EndgameTablebase | None:
    """The game's tablebase when it has one with levels built (and it is not turned off).

    ``warn`` (e.g. the error stream) is told of each file present but not used (damaged, of
    another level, version or lineage), naming it, so a fall-back to search is never silent.

    Raises:
        UsageError: ``--tablebase-dir`` names something that is not a directory.
    """
    if getattr(args, "no_tablebase", False) or not isinstance(game, HasTablebase):
        return None
    chosen = getattr(args, "tablebase_dir", None)
    if chosen is not None and not Path(chosen).expanduser().is_dir():
        what = "does not exist" if not os.path.lexists(chosen) else "is not a directory"
        raise UsageError(
            f"invalid --tablebase-dir {quote(chosen)}: it {what}; give the directory the levels "
            f"were built in (gamesolver tablebase build {getattr(game, 'name', 'GAME')} "
            "--dir DIR --seeds N), or --no-tablebase"
        )
    tablebase = game.tablebase(chosen)
    levels = tablebase.levels
    problems = getattr(tablebase, "problems", None)
    if warn is not None and callable(problems):
        for problem in problems():
            warn(f"warning: tablebase file not used: {problem}")
    return tablebase if levels else None


def from_tablebase(tablebase: EndgameTablebase | None, state: Any) -> bool:
    """True when ``tablebase`` covers ``state`` (so the answer there is read, not searched)."""
    return tablebase is not None and tablebase.probe(state) is not None


@attrs.frozen
class TablebasePlayer:
    """An engine agent that plays the tablebase's preferred move wherever it covers the position.

    Elsewhere it is the engine, with the tablebase's probe as its oracle. The preferred move
    keeps the exact value and makes progress, so a won endgame is won, not walked round a loop
    into a repetition.
    """

    engine: Any
    tablebase: EndgameTablebase
    interactive: bool = attrs.field(default=False, init=False)

    @property
    def name(self) -> str:
        """The engine's spec, marked: ``"engine:0.1+tablebase"``."""
        return f"{self.engine.name}+tablebase"

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        """The tablebase's preferred move if it covers ``state``, else the engine's choice."""
        action = self.tablebase.preferred_action(state)
        if action is not None:
            return action
        return self.engine.choose(game, state, rng)


def with_tablebase(player: Any, tablebase: EndgameTablebase | None) -> Any:
    """The engine ``player`` using ``tablebase`` (at covered positions and inside its search);
    other agents unchanged (a random or teaching player stays what it is)."""
    if tablebase is None or not isinstance(player, EngineAgent):
        return player
    return TablebasePlayer(attrs.evolve(player, oracle=tablebase), tablebase)
