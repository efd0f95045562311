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

from play import EngineAgent
from solver.game import EndgameTablebase, HasTablebase
from solver.quoting import quote
from zerosum.console import UsageError

__all__ = [
    "SOURCE",
    "TablebasePlayer",
    "check_directory",
    "consult_tablebase",
    "coverage_json",
    "from_tablebase",
    "not_covered_note",
    "open_tablebase",
    "tablebase_arguments",
    "tablebase_for",
    "trouble_json",
    "unused_files",
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


def check_directory(directory: str | os.PathLike[str], option: str, game: Any) -> None:
    """Refuse a tablebase directory that is missing, not a directory or cannot be listed,
    naming it and what would be valid (as a missing and a damaged table are told apart).

    Raises:
        UsageError: naming ``option`` and the directory.
    """
    path = Path(directory).expanduser()
    name = getattr(game, "name", "GAME")
    valid = (
        f"give the directory the levels were built in (gamesolver tablebase build {name} "
        "--dir DIR --seeds N)"
    )
    if not path.is_dir():
        what = "does not exist" if not os.path.lexists(path) else "is not a directory"
        raise UsageError(f"invalid {option} {quote(str(directory))}: it {what}; {valid}")
    try:
        with os.scandir(path) as entries:
            next(entries, None)
    except OSError as e:
        raise UsageError(
            f"invalid {option} {quote(str(directory))}: it cannot be read ({e.strerror}); "
            f"{valid}, readable by this user"
        ) from None


def unused_files(tablebase: Any) -> list[dict[str, str]]:
    """The files present in ``tablebase`` but not used: ``status`` (``"damaged"`` or
    ``"unreadable"``) and ``reason`` (naming the file), for a tablebase that says them."""
    refusals = getattr(tablebase, "refusals", None)
    if not callable(refusals):
        return []
    return [{"status": status, "reason": reason} for status, reason in refusals()]


def open_tablebase(
    game: Any, args: argparse.Namespace, warn: Callable[[str], None] | None = None
) -> EndgameTablebase | None:
    """The game's tablebase when it has one with levels built (and it is not turned off).

    ``warn`` (e.g. the error stream) is told of each file present but not used (damaged or
    unreadable), naming it and that its positions are searched instead, so a fall-back to
    search is never silent.

    Raises:
        UsageError: ``--tablebase-dir`` names something that is not a readable directory.
    """
    found = consult_tablebase(game, args, warn)
    return None if found is None or not found.levels else found


def consult_tablebase(
    game: Any, args: argparse.Namespace, warn: Callable[[str], None] | None = None
) -> EndgameTablebase | None:
    """The game's tablebase as :func:`open_tablebase` finds it, also when no level is usable
    (to say why a position is not covered); None when turned off, the game has none, or the
    default directory cannot be read (``warn`` is told).

    Raises:
        UsageError: ``--tablebase-dir`` names something that is not a readable directory.
    """
    if getattr(args, "no_tablebase", False) or not isinstance(game, HasTablebase):
        return None
    chosen = getattr(args, "tablebase_dir", None)
    if chosen is not None:
        check_directory(chosen, "--tablebase-dir", game)
    tablebase = game.tablebase(chosen)
    if chosen is None and os.path.lexists(tablebase.directory):
        try:
            check_directory(tablebase.directory, "tablebase directory", game)
        except UsageError as e:
            if warn is not None:
                warn(f"warning: {e}; searching without a tablebase")
            return None
    if warn is not None:
        for unused in unused_files(tablebase):
            warn(
                f"warning: tablebase file {unused['status']}, not used: {unused['reason']}; "
                "the positions it holds are searched instead"
            )
    return tablebase


def coverage_json(tablebase: Any, state: Any) -> dict[str, Any] | None:
    """Whether ``tablebase`` answers ``state`` and why not, as JSON-ready data (``status``,
    ``level``, ``file``, ``reason``, and the ``unused`` files), for a tablebase that says it;
    None without one."""
    coverage = getattr(tablebase, "coverage", None)
    if not callable(coverage):
        return None
    found: dict[str, Any] = coverage(state)
    return found | {"directory": str(tablebase.directory), "unused": unused_files(tablebase)}


def trouble_json(tablebase: Any, state: Any) -> dict[str, Any] | None:
    """:func:`coverage_json` when a damaged or unreadable file is why ``tablebase`` does not
    answer ``state`` (what ``analyse --json`` and ``best --json`` add as
    ``tablebase_coverage``); None otherwise, so an answer read or a level simply not built
    leaves their JSON as it was."""
    found = coverage_json(tablebase, state)
    return found if found is not None and found["status"] in ("damaged", "unreadable") else None


def not_covered_note(tablebase: Any, state: Any) -> str | None:
    """A line saying why ``tablebase`` does not answer ``state`` when a file of its is damaged
    or unreadable (a level simply not built needs no note); None otherwise."""
    found = trouble_json(tablebase, state)
    if found is None:
        return None
    return f"warning: the tablebase does not answer this position: {found['reason']}"


def tablebase_for(
    game: Any,
    args: argparse.Namespace,
    state: Any,
    warn: Callable[[str], None],
    *,
    quiet: bool = False,
) -> tuple[EndgameTablebase | None, EndgameTablebase | None]:
    """The tablebase consulted (:func:`consult_tablebase`) and the one to search with (None
    without usable levels); when a damaged or unreadable file is why ``state`` is not
    answered, ``warn`` is told so and that it is searched instead (unless ``quiet``: JSON
    says it in ``tablebase_coverage``)."""
    consulted = consult_tablebase(game, args, warn)
    usable = consulted if consulted is not None and consulted.levels else None
    note = None if from_tablebase(usable, state) else not_covered_note(consulted, state)
    if note is not None and not quiet:
        warn(note + "; searching instead")
    return consulted, usable


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
