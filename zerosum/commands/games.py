"""``gamesolver games``: the registered games with one-line descriptions."""

from __future__ import annotations

import argparse

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
    entries = []
    for name in available_games():
        try:
            info = game_info(name)
            if info.source != "built-in":
                load_game(name)  # a plug-in whose constructor fails is named here too
            entries.append({"name": name, "description": info.summary, "source": info.source})
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
        table.add_row(entry["name"], entry["description"] + extra)
    io.print(table)
    io.print()
    io.print("options: textbook takes --tree '[[3,12,8],[2,4,6],[14,5,2]]'; any game: -O KEY=VALUE")
    return EXIT_OK
