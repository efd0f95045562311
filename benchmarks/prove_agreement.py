"""The proof search against the tablebases: positions of a level proved from the levels below.

Usage (from the project root; levels built in ``--dir``, by default the user cache)::

    .venv/bin/python benchmarks/prove_agreement.py --levels 12 16 20 --count 400 --seed 1 \\
        --json docs/data/proof-agreement.json

For each level asked, ``--count`` positions still in play are drawn at random (seeded: a
board of the level by rank, a captured split, a mover), and each is proved by the proof
search with only the levels *below* it as leaves (so every line that stays in the level is
the search's own, cycles included), then compared with the level's stored value. Prints and
records the count, the disagreements (there should be none), and the time per position.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ayoayo_levels import linked_levels, needed_levels
from games.ayoayo import Ayoayo
from games.ayoayo.proof import Prover
from games.ayoayo.sampling import random_positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[12, 16, 20])
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="where the levels are (default: the user cache)")
    parser.add_argument("--json", help="write the record here")
    args = parser.parse_args(argv)
    game = Ayoayo()
    game.compile_kernels()
    full = needed_levels(game, args.dir, args.levels)
    if full is None:
        return 2
    rng = random.Random(args.seed)
    record: dict[str, Any] = {"seed": args.seed, "levels": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for seeds in args.levels:
            below = Path(scratch) / f"below-{seeds}"
            prover = Prover(game, linked_levels(game, full, below, seeds))
            times = []
            wrong = []
            for state in random_positions(seeds, args.count, rng):
                began = time.perf_counter()
                value = prover.value(state).value
                times.append(time.perf_counter() - began)
                if value != full.probe(state):
                    wrong.append(game.format_state(state))
            record["levels"][str(seeds)] = {
                "positions": args.count,
                "disagreements": wrong,
                "seconds_median": statistics.median(times),
                "seconds_max": max(times),
                "seconds_total": sum(times),
            }
            print(
                f"level {seeds} from the levels below: {args.count} positions, "
                f"{len(wrong)} disagreements, median {statistics.median(times) * 1e3:.1f} ms, "
                f"max {max(times):.2f} s",
                flush=True,
            )
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
