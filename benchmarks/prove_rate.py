"""The proof search's nodes and node rate on a fixed workload, for A/B runs of two checkouts.

Usage (from the project root; levels in ``--dir``, by default the user cache)::

    .venv/bin/python benchmarks/prove_rate.py --start --below 13
    .venv/bin/python benchmarks/prove_rate.py --level 16 --below 5 --count 2 --seed 1
    .venv/bin/python benchmarks/prove_rate.py --tree ../other-checkout --start --below 13

The positions (the start with ``--start``, else ``--count`` random positions of ``--level``
seeds, seeded) are each proved by a fresh prover (a table of 2**21 entries, no guess search:
the tests start at 0) with the tablebase levels below ``--below`` seeds as exact leaves. Prints
one JSON line: the nodes and seconds of the threshold tests, their rate, the wall time and the
values. ``--tree`` imports the project from another checkout instead (what it measures is that
checkout's proof search): run both in turns, whole processes, for a before/after figure
(docs/solving.md has one).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--start", action="store_true", help="prove the start position")
    parser.add_argument("--level", type=int, default=16, help="seeds of the random positions")
    parser.add_argument("--below", type=int, default=13, help="levels below this are leaves")
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="where the levels are (default: the user cache)")
    parser.add_argument("--tree", help="the checkout to import the project from")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.tree).resolve() if args.tree else ROOT))

    from benchmarks.ayoayo_levels import linked_levels
    from games.ayoayo import Ayoayo
    from games.ayoayo.proof import Prover
    from games.ayoayo.sampling import random_positions

    game = Ayoayo()
    game.compile_kernels()
    full = game.tablebase(args.dir)
    rng = random.Random(args.seed)
    if args.start:
        states = [game.initial_state()]
    else:
        states = list(random_positions(args.level, args.count, rng))
    nodes, seconds, wall, values = 0, 0.0, 0.0, []
    with tempfile.TemporaryDirectory() as scratch:
        tablebase = linked_levels(game, full, Path(scratch) / "below", args.below)
        for state in states:
            prover = Prover(game, tablebase, table_size=1 << 21)
            began = time.perf_counter()
            values.append(prover.value(state, guess=0).value)
            wall += time.perf_counter() - began
            nodes += sum(int(t["nodes"]) for t in prover.settled)
            seconds += sum(float(t["seconds"]) for t in prover.settled)
    record = {
        "tree": args.tree or str(ROOT),
        "nodes": nodes,
        "seconds": round(seconds, 3),
        "rate": round(nodes / max(seconds, 1e-9)),
        "wall": round(wall, 3),
        "values": values,
    }
    print(json.dumps(record), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
