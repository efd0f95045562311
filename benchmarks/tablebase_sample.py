"""Measured partitions of a level too large to build here: what the whole level would cost.

Usage (from the project root; the levels below ``--seeds`` must be in ``--dir``)::

    .venv/bin/python benchmarks/tablebase_sample.py --seeds 28 --dir TABLEBASES \\
        --memory 12G --partitions 3 --scratch DIR --json docs/data/tablebase-sample-28.json

The out-of-core builder's first two steps run on a few of the level's partitions, chosen at
random (seeded) from the layout ``tablebase build --memory`` would use: each partition's
moves and best exits (``partition_moves``, on worker processes as in a build), then its moves
bucketed by the partition of their child (``partition_buckets``, the spill's work). Measured
per partition: the seconds of each step (and this process's CPU seconds over both), the moves
per board that stay in the level (they set the predecessor lists' and the spill's size) and
the share of positions with an exit. From them, for the whole level: the moves step's seconds
and core-hours, the scratch bytes at each phase of the build
(:func:`games.ayoayo.tablebase_partitions.scratch_phases`, with the measured moves per board
in place of its assumption) and, run on a level built here too (``--seeds 24``), how the sample
compares with that build's record. The solve is not sampled: its rounds cross every partition,
so it runs on a whole level or not at all; its cost is the plan's (``tablebase plan``).

The scratch files of the sampled partitions are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import write_json
from games.ayoayo.native_partitions import (
    PartitionedBuilder,
    partition_buckets,
    partition_moves,
)
from games.ayoayo.native_tablebase import KERNEL, LowerLevels
from games.ayoayo.tablebase_build import NO_EXIT
from games.ayoayo.tablebase_files import (
    TablebaseFileError,
    level_path,
    read_build_record,
    read_level,
)
from games.ayoayo.tablebase_index import board_count, level_size, levels_up_to, splits
from games.ayoayo.tablebase_partitions import Scratch, parse_size, scratch_phases
from solver.workers import WorkerPool


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=28, help="the level to sample (28)")
    parser.add_argument("--dir", type=Path, required=True, help="holds the levels below")
    parser.add_argument("--memory", default="12G", help="the build's budget (12G)")
    parser.add_argument("--partitions", type=int, default=3, help="partitions to sample (3)")
    parser.add_argument(
        "--partition",
        type=int,
        default=None,
        help="boards a partition (a power of two), not the budget's",
    )
    parser.add_argument("--seed", type=int, default=1, help="which partitions (seeded)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--scratch", type=Path, default=None, help="scratch directory")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    return parser.parse_args(argv)


def lower_levels(directory: Path, seeds: int) -> dict[int, np.ndarray]:
    """The values of every level below ``seeds``, each checked by its checksum."""
    lower = {}
    for n in levels_up_to(seeds - 4):
        lower[n] = read_level(level_path(directory, n), seeds=n).values
    return lower


def sample(args: argparse.Namespace) -> dict[str, Any]:
    seeds = args.seeds
    try:
        memory = parse_size(args.memory)
    except ValueError as e:
        raise SystemExit(f"--memory: {e}") from None
    root = Path(args.scratch or tempfile.mkdtemp(prefix="tablebase-sample-"))
    layout = PartitionedBuilder(root, memory=memory, partition=args.partition).layout(seeds)
    if not 1 <= args.partitions <= layout.parts:
        raise SystemExit(
            f"--partitions {args.partitions}: level {seeds} has {layout.parts} partitions "
            f"under this budget; give 1 to {layout.parts}"
        )
    chosen = sorted(random.Random(args.seed).sample(range(layout.parts), args.partitions))
    began = time.perf_counter()
    try:
        below = LowerLevels(seeds, lower_levels(args.dir, seeds))
    except TablebaseFileError as e:
        raise SystemExit(f"level {seeds} is sampled on the levels below it: {e}") from None
    loaded = time.perf_counter() - began
    scratch = Scratch(root / f"sample-{seeds:02d}", layout)
    cms = len(splits(seeds))
    rows = []
    try:
        with WorkerPool(args.workers, name="tablebase-worker") as pool:
            for k in chosen:
                lo, hi = layout.bounds(k)
                t0, c0 = time.perf_counter(), time.process_time()
                partition_moves(scratch, k, below, KERNEL.moves, pool.map)
                moves_s = time.perf_counter() - t0
                t1 = time.perf_counter()
                buckets = partition_buckets(scratch, k)
                buckets_s = time.perf_counter() - t1
                stay = np.asarray(scratch.open(f"stay-{k}", np.int32, (hi - lo, 6)))
                exits = np.asarray(scratch.open(f"exit-{k}", np.int8, (cms, hi - lo)))
                moves = int((stay >= 0).sum())
                rows.append(
                    {
                        "partition": k,
                        "boards": hi - lo,
                        "moves_seconds": round(moves_s, 4),
                        "buckets_seconds": round(buckets_s, 4),
                        "main_cpu_seconds": round(time.process_time() - c0, 4),
                        "stay_moves_per_board": round(moves / (hi - lo), 4),
                        "spilled_pairs": int(sum(b.size for b in buckets) // 2),
                        "positions_with_exit": round(float((exits != NO_EXIT).mean()), 4),
                    }
                )
                print(
                    f"partition {k:3d} of {layout.parts}: {hi - lo:,} boards, moves "
                    f"{moves_s:.1f} s, buckets {buckets_s:.1f} s, "
                    f"{moves / (hi - lo):.2f} moves a board",
                    flush=True,
                )
                del stay, exits, buckets
                scratch.remove(f"stay-{k}", f"exit-{k}", f"moves-{k}.done")
    finally:
        shutil.rmtree(scratch.directory, ignore_errors=True)
        if args.scratch is None:
            shutil.rmtree(root, ignore_errors=True)
    return summarise(args, layout, rows, loaded)


def summarise(
    args: argparse.Namespace, layout: Any, rows: list[dict[str, Any]], loaded: float
) -> dict[str, Any]:
    seeds = args.seeds
    boards = board_count(seeds)
    positions = level_size(seeds)
    sampled = sum(r["boards"] for r in rows)
    per_board = {
        key: sum(r[key] for r in rows) / sampled for key in ("moves_seconds", "buckets_seconds")
    }
    moves_per_board = sum(r["stay_moves_per_board"] * r["boards"] for r in rows) / sampled
    summary: dict[str, Any] = {
        "seeds": seeds,
        "boards": boards,
        "positions": positions,
        "splits": len(splits(seeds)),
        "memory": args.memory,
        "partitions": layout.parts,
        "partition_boards": layout.size,
        "sampled": rows,
        "lower_levels_seconds": round(loaded, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "stay_moves_per_board": round(moves_per_board, 4),
        "whole_level": {
            "moves_seconds": round(per_board["moves_seconds"] * boards, 1),
            "moves_core_hours": float(
                f"{per_board['moves_seconds'] * boards * args.workers / 3600:.3g}"
            ),
            "buckets_seconds": round(per_board["buckets_seconds"] * boards, 1),
        },
    }
    summary["scratch_gb"] = {
        phase: round(size / 1e9, 1)
        for phase, size in scratch_phases(seeds, moves_per_board).items()
    }
    summary["level_files_gb"] = round(3 * positions / 1e9, 1)
    record = read_build_record(args.dir, seeds)
    phases = record.get("phases")
    if isinstance(phases, dict) and "moves" in phases:
        summary["built_here"] = {
            "moves_seconds": phases["moves"],
            "sampled_estimate_seconds": round(per_board["moves_seconds"] * boards, 1),
        }
    return summary


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = sample(args)
    whole = figures["whole_level"]
    print(
        f"level {args.seeds}: {figures['boards']:,} boards in {figures['partitions']} "
        f"partitions; {figures['stay_moves_per_board']:.2f} moves a board stay in the level; "
        f"moves step about {whole['moves_seconds']:,.0f} s on {args.workers} workers "
        f"({whole['moves_core_hours']:.3g} core-hours), bucketing {whole['buckets_seconds']:,.0f} s"
    )
    print(
        "scratch at each phase's peak (GB, with the moves a board measured): "
        + ", ".join(f"{k} {v}" for k, v in figures["scratch_gb"].items())
        + f"; level files {figures['level_files_gb']} GB"
    )
    if "built_here" in figures:
        built = figures["built_here"]
        print(
            f"built here: moves took {built['moves_seconds']:.0f} s; "
            f"the sample predicts {built['sampled_estimate_seconds']:.0f} s"
        )
    if args.json is not None:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
