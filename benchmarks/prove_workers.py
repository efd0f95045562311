"""The proof shared out on worker processes: the start proved on 1 and on N workers.

Usage (from the project root; levels built in ``--dir``, by default the user cache)::

    .venv/bin/python benchmarks/prove_workers.py --cap 12 --workers 2 --rounds 3 \\
        --json docs/data/proof-workers.json

With tablebase levels up to ``--cap`` only (the start then takes seconds, not a fifth of one),
in turns (the machine's load drifts): the start's value proved from scratch in one process
(:class:`games.ayoayo.proof.Prover`) and with its root moves' tests shared out on ``--workers``
processes (:class:`games.ayoayo.proof_split.SplitProver`, the pool started before the clock),
no checkpoints. Prints and keeps each round's seconds and nodes, the medians, the speed-up and
the machine's load average beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.prove_start import capped
from games.ayoayo import Ayoayo
from games.ayoayo.proof import Prover
from games.ayoayo.proof_split import SplitProver
from solver.workers import WorkerPool


def one_round(game: Ayoayo, tablebase: Any, workers: int) -> dict[str, Any]:
    """The start proved on ``workers`` processes (1: this process alone)."""
    start = game.initial_state()
    if workers == 1:
        began = time.perf_counter()
        result = Prover(game, tablebase).value(start)
        seconds = time.perf_counter() - began
    else:
        with WorkerPool(workers, name="bench-prove") as pool:
            prover = SplitProver(game, tablebase, mapper=pool, table_size=1 << 22)
            began = time.perf_counter()
            result = prover.value(start)
            seconds = time.perf_counter() - began
    return {
        "workers": workers,
        "value": result.value,
        "nodes": result.nodes,
        "seconds": round(seconds, 3),
        "load": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where the tablebase levels are (default: user cache)")
    parser.add_argument("--cap", type=int, default=12, help="highest level used (default 12)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the record here")
    args = parser.parse_args(argv)
    game = Ayoayo()
    source = game.tablebase(args.dir)
    rows = []
    with tempfile.TemporaryDirectory(prefix="prove-workers-") as scratch:
        tablebase = capped(game, source, args.cap, Path(scratch))
        for r in range(args.rounds):
            for workers in (1, args.workers):
                row = {"round": r + 1, **one_round(game, tablebase, workers)}
                rows.append(row)
                print(json.dumps(row), flush=True)
    alone = statistics.median(r["seconds"] for r in rows if r["workers"] == 1)
    shared = statistics.median(r["seconds"] for r in rows if r["workers"] == args.workers)
    record = {
        "what": f"the start proved with tablebase levels to {args.cap}, on 1 and on "
        f"{args.workers} worker processes (root moves' tests as tasks), fresh tables",
        "machine": f"{os.cpu_count()} cores",
        "rounds": rows,
        "median_seconds": {"1": alone, str(args.workers): shared},
        "speed_up": round(alone / shared, 3),
        "rerun": "benchmarks/prove_workers.py --cap 12 --workers 2 --rounds 3 --json FILE",
    }
    print(json.dumps({k: record[k] for k in ("median_seconds", "speed_up")}))
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
