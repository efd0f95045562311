"""``gamesolver games``: the registered games with one-line descriptions."""

from __future__ import annotations

import argparse
from typing import Any

from games import available_games, game_info, load_game
from zerosum.console import EXIT_OK, Io

NAME = "games"
ALIASES: tuple[str, ...] = ()
HELP = "list the registered games"


def add_arguments(games: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver games``."""
    games.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver games``: the registered games with one-line descriptions."""
    entries: list[dict[str, Any]] = []
    for name in available_games():
        try:
            info = game_info(name)
            if info.source != "built-in" and not info.options_needed:
                load_game(name)  # a plug-in whose constructor fails is named here too
            entry: dict[str, Any] = {
                "name": name,
                "description": info.summary,
                "source": info.source,
            }
            if info.options_needed:  # made only with options: listed, and how to give them
                entry["needs_options"] = list(info.options_needed)
            entries.append(entry)
        except Exception as exc:  # a plug-in's code may raise anything; the rest is listed
            said = " ".join(str(exc).split()) or type(exc).__name__
            entries.append({"name": name, "description": f"(cannot be loaded: {said})"})
    if args.json:
        io.json(entries)
        return EXIT_OK
    table = io.table("game", "description")
    for entry in entries:
        source = entry.get("source", "built-in")
        extra = "" if source == "built-in" else f" [{source}]"
        needs = entry.get("needs_options")
        if needs:
            extra = f" (needs {' '.join(f'-O {option}=...' for option in needs)}){extra}"
        table.add_row(entry["name"], entry["description"] + extra)
    io.print(table)
    io.print()
    io.print("options: textbook takes --tree '[[3,12,8],[2,4,6],[14,5,2]]'; any game: -O KEY=VALUE")
    return EXIT_OK
