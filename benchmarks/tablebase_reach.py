"""How much of a real game exact analysis reaches with tablebases up to N seeds on the board.

Run: ``.venv/bin/python benchmarks/tablebase_reach.py`` (``--games N``, ``--json PATH``).

A position is answered exactly by the tablebases when its seeds on the board are at most the
largest level present (every level below is there too). So the share of positions a player
meets that levels up to 16, 20, 24 or 28 answer is the share with at most that many seeds on the
board; it needs the games, not the tablebases. Two sources of games:

- **engine against engine**: ``engine:d6`` for both sides from the start (seeded ties), played
  by :func:`play.play_game`, as ``gamesolver match`` plays them;
- **the held-in reference games**: the 20 random-against-random games of the public reference
  implementation kept in ``tests/data/ayoayo_playouts_subset.jsonl.gz``.

For each source: the share of all positions (every ply of every game) covered by each level, and
the share of games that are covered from some ply on (they all are, at the end), with the
median ply at which coverage begins.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import load_game  # noqa: E402
from play import play_game  # noqa: E402

LEVELS = (16, 20, 24, 28)
REFERENCE = ROOT / "tests" / "data" / "ayoayo_playouts_subset.jsonl.gz"


def engine_games(count: int) -> list[list[int]]:
    """Seeds on the board at every ply of ``count`` engine:d6 self-play games."""
    game = load_game("ayoayo")
    out = []
    for seed in range(count):
        seeds: list[int] = []

        def seen(ply: int, before: Any, action: Any, after: Any, seeds: list[int] = seeds) -> None:
            seeds.append(sum(sum(row) for row in before.board))

        record = play_game(
            game, ["engine:d6", "engine:d6"], random.Random(seed), max_plies=400, on_move=seen
        )
        seeds.append(sum(sum(row) for row in record.final_state.board))
        out.append(seeds)
    return out


def reference_games() -> list[list[int]]:
    """Seeds on the board at every ply of the held-in reference games."""
    out = []
    with gzip.open(REFERENCE, "rt", encoding="utf-8") as handle:
        for line in handle:
            plies = json.loads(line)["plies"]
            seeds = [sum(sum(row) for row in p["board_before"]) for p in plies]
            seeds.append(sum(sum(row) for row in plies[-1]["board_after"]))
            out.append(seeds)
    return out


def reach(games: list[list[int]]) -> dict[str, Any]:
    """Per level: the share of positions covered and the median first covered ply."""
    positions = [s for game in games for s in game]
    out: dict[str, Any] = {"games": len(games), "positions": len(positions)}
    for level in LEVELS:
        firsts = [next((i for i, s in enumerate(g) if s <= level), len(g)) for g in games]
        out[str(level)] = {
            "share_of_positions": round(sum(s <= level for s in positions) / len(positions), 4),
            "median_first_covered_ply": statistics.median(firsts),
            "median_game_length": statistics.median(len(g) - 1 for g in games),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    found = {
        "engine:d6 self-play": reach(engine_games(args.games)),
        "reference random games": reach(reference_games()),
    }
    for source, figures in found.items():
        print(f"{source}: {figures['games']} games, {figures['positions']} positions")
        for level in LEVELS:
            row = figures[str(level)]
            print(
                f"  levels up to {level:2d}: {row['share_of_positions']:6.1%} of positions; "
                f"covered from ply {row['median_first_covered_ply']} "
                f"(median; games last {row['median_game_length']} plies)"
            )
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
