"""Benchmark the tablebase build on a Dask cluster against the one-process build, byte for byte.

Usage (from the project root)::

    .venv/bin/python benchmarks/tablebase_cluster.py --seeds 12 --partition 17
    .venv/bin/python benchmarks/tablebase_cluster.py --seeds 16 --memory 2G \\
        --json docs/data/tablebase-cluster-16.json

Builds every level up to ``--seeds`` on a Dask cluster (a ``LocalCluster`` of ``--workers``
processes of one thread each, or the scheduler at ``--dask``) with
:class:`games.ayoayo.tablebase_cluster.ClusterBuilder` (partitions set by ``--memory``, or
``--partition B``: 2**B boards), one level at a time so that each level's seconds and tasks
are its own; then builds the same levels in memory, in this process, and compares every
level's values and distances files byte for byte. ``--one-process`` also builds them out of
core in this process (the same budget), for the time the work takes without a cluster.
``--tasks`` forces how a group of splits is solved (``group``: one task for its values and one
for its plies; ``partition``: waves of per-partition tasks; default: by the memory budget).
The machine's load average is recorded before and after each level, and each worker's peak
resident memory at the end: on a shared machine absolute times are only indicative.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import write_json
from games.ayoayo.tablebase_build import build
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path, read_build_record
from games.ayoayo.tablebase_index import level_size, levels_up_to
from games.ayoayo.tablebase_partitions import parse_size


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=12, help="largest level (default 12)")
    parser.add_argument("--dask", help="a running scheduler's address (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster processes (2)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--memory", help="a worker's memory budget, e.g. 2G (sets the partitions)")
    size.add_argument("--partition", type=int, help="partitions of 2**B boards instead")
    parser.add_argument("--tasks", choices=["group", "partition"], help="force the task kind")
    parser.add_argument("--no-compare", action="store_true", help="skip the in-memory build")
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="also build out of core in this process (the same budget or partitions) and time it",
    )
    parser.add_argument("--dir", help="build here and keep it (default: a temporary directory)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    return args


@contextlib.contextmanager
def _client(args: argparse.Namespace) -> Iterator[Any]:
    import distributed as module

    distributed = cast(Any, module)
    if args.dask is not None:
        with distributed.Client(args.dask) as client:
            yield client
        return
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _peak_bytes() -> int:
    """This process's peak resident memory (Linux reports kilobytes; mapped files count)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _same_bytes(one: Path, other: Path, seeds: int) -> bool:
    """Whether level ``seeds``'s values and distances are the same bytes in both directories."""
    return all(
        level_path(one, seeds, kind).read_bytes() == level_path(other, seeds, kind).read_bytes()
        for kind in (VALUES, DISTANCES)
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    from games.ayoayo.native_tablebase import KERNEL
    from games.ayoayo.tablebase_cluster import ClusterBuilder

    keep = args.dir is not None
    top = Path(args.dir) if keep else Path(tempfile.mkdtemp(prefix="tablebase-cluster-"))
    options: dict[str, Any] = {}
    if args.memory is not None:
        options["memory"] = parse_size(args.memory)
    if args.partition is not None:
        options["partition"] = 1 << args.partition
    kind = {} if args.tasks is None else {"whole_groups": args.tasks == "group"}
    levels = []
    with _client(args) as client:
        builder = ClusterBuilder((top / "scratch").resolve(), client, **options, **kind)
        for seeds in levels_up_to(args.seeds):
            tasks, load = builder.tasks, _load()
            began = time.perf_counter()
            build(seeds, top / "cluster", out_of_core=builder)
            wall = time.perf_counter() - began
            record = read_build_record(top / "cluster", seeds)
            levels.append(
                {
                    "seeds": seeds,
                    "positions": level_size(seeds),
                    "seconds": record.get("seconds"),
                    "wall_seconds": round(wall, 3),
                    "phases": record.get("phases", {}),
                    "tasks": builder.tasks - tasks,
                    "load_average_before": load,
                    "load_average_after": _load(),
                }
            )
            print(
                f"level {seeds:2d}: {record.get('seconds')} s on the cluster, "
                f"{builder.tasks - tasks} tasks, load {load}",
                flush=True,
            )
        workers = len(client.nthreads())
        peaks = client.run(_peak_bytes)
    if not args.no_compare:
        for level in levels:
            seeds = level["seeds"]
            build(seeds, top / "memory", kernel=KERNEL)
            level["memory_seconds"] = read_build_record(top / "memory", seeds).get("seconds")
            level["same_bytes"] = _same_bytes(top / "cluster", top / "memory", seeds)
            print(
                f"level {seeds:2d}: {level['memory_seconds']} s in memory, same bytes: "
                f"{level['same_bytes']}",
                flush=True,
            )
    if args.one_process:
        from games.ayoayo.native_partitions import PartitionedBuilder

        local = PartitionedBuilder((top / "scratch-one").resolve(), **options)
        for level in levels:
            seeds = level["seeds"]
            build(seeds, top / "one", kernel=KERNEL, out_of_core=local)
            record = read_build_record(top / "one", seeds)
            level["one_process_seconds"] = record.get("seconds")
            level["one_process_phases"] = record.get("phases", {})
            level["one_process_same_bytes"] = _same_bytes(top / "cluster", top / "one", seeds)
            print(
                f"level {seeds:2d}: {level['one_process_seconds']} s out of core in one process, "
                f"same bytes: {level['one_process_same_bytes']}",
                flush=True,
            )
    figures = {
        "command": " ".join(["benchmarks/tablebase_cluster.py", *args.argv]),
        "seeds": args.seeds,
        "cluster": args.dask or f"LocalCluster({args.workers} processes x 1 thread)",
        "workers": workers,
        "memory": args.memory,
        "partition": None if args.partition is None else 1 << args.partition,
        "tasks": args.tasks or "by the memory budget",
        "cpus": os.cpu_count(),
        "levels": levels,
        "worker_peak_bytes": sorted(peaks.values()),
        "cluster_seconds": round(sum(level["seconds"] or 0 for level in levels), 3),
        "cluster_tasks": sum(level["tasks"] for level in levels),
        "same_bytes": None if args.no_compare else all(lv["same_bytes"] for lv in levels),
        "directory": str(top) if keep else None,
    }
    if not keep:
        import shutil

        shutil.rmtree(top, ignore_errors=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = run(args)
    print(
        f"levels 0-{figures['seeds']}: {figures['cluster_seconds']:.1f} s on the cluster, "
        f"{figures['cluster_tasks']} tasks; same bytes as in memory: {figures['same_bytes']}"
    )
    if args.json:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
