"""The engine's symmetry-reduced table against its plain one: nodes, table entries, time.

Run: ``.venv/bin/python benchmarks/symmetric_table.py`` (``--rounds N``, ``--quick`` for the
small positions only, ``--json PATH`` to keep the figures).

Each position is searched to the end (exact value, every optimal move, plies) by the Python
node search twice, ``search(..., symmetric=True)`` and without it, in random order per round
(seeded), CPU seconds of this process (``time.process_time``). The node and entry counts are
the same every round; the times are given as the median with the fastest and slowest round.
The answers are checked equal (value, optimal moves, plies).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import load_game  # noqa: E402
from solver.engine import search  # noqa: E402

POSITIONS: list[tuple[str, dict[str, Any], str]] = [
    ("tictactoe-bitboard", {}, ""),
    ("tictactoe", {}, ""),
    ("connect4", {"width": 4, "height": 4}, "1243"),  # its own mirror image
    ("connect4", {"width": 4, "height": 4}, "12"),  # not
]
BIG: list[tuple[str, dict[str, Any], str]] = [
    ("connect4", {"width": 4, "height": 4}, ""),
]


def one(game: Any, state: Any, symmetric: bool) -> tuple[float, Any]:
    start = time.process_time()
    result = search(game, state, native=False, symmetric=symmetric, table_size=1 << 22)
    return time.process_time() - start, result


def measure(
    name: str, options: dict[str, Any], moves: str, rounds: int, rng: Any
) -> dict[str, Any]:
    game = load_game(name, **options)
    state = game.parse_state(moves) if moves else game.initial_state()
    seconds: dict[bool, list[float]] = {False: [], True: []}
    found: dict[bool, Any] = {}
    for _ in range(rounds):
        for symmetric in rng.sample([False, True], 2):
            spent, found[symmetric] = one(game, state, symmetric)
            seconds[symmetric].append(spent)
    plain, reduced = found[False], found[True]
    for field in ("value", "best_actions", "plies", "exact"):
        assert getattr(plain, field) == getattr(reduced, field), (name, moves, field)
    side = {False: "plain", True: "symmetric"}
    return {
        "game": name,
        "options": options,
        "position": moves or "start",
        **{
            side[s]: {
                "nodes": found[s].stats.nodes,
                "table_entries": found[s].stats.table_entries,
                "seconds_median": statistics.median(t),
                "seconds_min": min(t),
                "seconds_max": max(t),
            }
            for s, t in seconds.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the small positions only")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    rng = random.Random(1)
    rows = [
        measure(name, options, moves, args.rounds, rng)
        for name, options, moves in POSITIONS + ([] if args.quick else BIG)
    ]
    for row in rows:
        plain, reduced = row["plain"], row["symmetric"]
        print(
            f"{row['game']} {row['options'] or ''} {row['position']}: "
            f"nodes {plain['nodes']:,} -> {reduced['nodes']:,}, "
            f"entries {plain['table_entries']:,} -> {reduced['table_entries']:,}, "
            f"seconds {plain['seconds_median']:.3f} "
            f"({plain['seconds_min']:.3f}-{plain['seconds_max']:.3f}) -> "
            f"{reduced['seconds_median']:.3f} "
            f"({reduced['seconds_min']:.3f}-{reduced['seconds_max']:.3f})"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
