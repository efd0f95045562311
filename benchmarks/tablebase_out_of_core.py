"""The out-of-core level builder against the in-memory one: throughput, interleaved.

Usage (from the project root)::

    .venv/bin/python benchmarks/tablebase_out_of_core.py --seeds 16 20 --rounds 2 \\
        --memory 16=2G --memory 20=4G --json docs/data/tablebase-out-of-core.json

For each level asked for, the levels below it are built once (in memory) into a base
directory (``--base``, kept, so a rerun reuses them). Then each round builds the level both
ways, in an order that alternates from round to round (the machine's load drifts, so neither
side always runs first), each run a fresh process (``benchmarks/tablebase.py``) on a fresh
directory holding hard links to the base's lower levels: one in memory, one out of core
within ``--memory`` (partitions and scratch files on disk). Every run's level files must be
the same bytes (checked by their SHA-256), or the benchmark stops. Reported per level: each
run's seconds (and how they split between moves, predecessor lists and solving), the
process's peak resident memory (for the out-of-core build this also counts the scratch
files' mapped pages, which the kernel reclaims at will), and the throughput ratio
``in-memory seconds / out-of-core seconds`` of each round with their median, minimum and
maximum; the same ratio of the CPU seconds each run used (its process and its workers), which
a loaded machine disturbs less than wall time. The issue's target is a ratio of at least
0.5. The load average is recorded with each run: on a shared machine, absolute times are only
indicative; the ratios are what to read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import write_json
from games.ayoayo.tablebase_files import DISTANCES, VALUES, build_record_path, level_path
from games.ayoayo.tablebase_index import level_size, levels_up_to

HERE = Path(__file__).resolve().parent
TARGET_RATIO = 0.5


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[16], help="levels (16)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per level (default 2)")
    parser.add_argument(
        "--memory",
        action="append",
        default=[],
        metavar="LEVEL=SIZE",
        help="the out-of-core build's budget for a level (e.g. 20=4G; default 2G)",
    )
    parser.add_argument("--base", help="where the lower levels are built and kept")
    parser.add_argument("--work", help="where each run's directory goes (default: temp)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    return parser.parse_args(argv)


def _budgets(pairs: list[str]) -> dict[int, str]:
    budgets = {}
    for pair in pairs:
        level, sep, size = pair.partition("=")
        if not sep or not level.strip().isdecimal():
            raise SystemExit(f"--memory {pair!r}: expected LEVEL=SIZE, e.g. 20=4G")
        budgets[int(level)] = size
    return budgets


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 24):
            sha.update(chunk)
    return sha.hexdigest()


def _cpu_children() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _bench(argv: list[str], out: Path) -> dict[str, Any]:
    """One run of benchmarks/tablebase.py in a fresh process; its JSON figures, with the CPU
    seconds the run and its workers used (``cpu_seconds``)."""
    command = [sys.executable, str(HERE / "tablebase.py"), *argv, "--json", str(out)]
    command += ["--probes", "100", "--repeat", "1"]
    before = _cpu_children()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    figures: dict[str, Any] = json.loads(out.read_text())
    figures["cpu_seconds"] = _cpu_children() - before
    return figures


def _lower(base: Path, seeds: int) -> None:
    """Levels below ``seeds`` in ``base``, built in memory once (reused when present)."""
    below = levels_up_to(seeds)[-2]
    _bench(["--seeds", str(below), "--dir", str(base)], base / "lower.json")


def _warm(work: Path) -> None:
    """Load (or compile once into numba's cache) both builders' kernels, untimed."""
    directory = Path(tempfile.mkdtemp(prefix="warm-", dir=work))
    try:
        for memory in ([], ["--memory", "64M"]):
            _bench(["--seeds", "8", "--dir", str(directory), *memory], directory / "warm.json")
            for level in directory.glob("ayoayo-08.*"):
                level.unlink()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _one(
    base: Path, work: Path, seeds: int, memory: str | None
) -> tuple[dict[str, Any], tuple[str, str]]:
    """Build level ``seeds`` on hard links to the base's lower levels: its figures and digests."""
    directory = Path(tempfile.mkdtemp(prefix=f"level{seeds}-", dir=work))
    try:
        for n in levels_up_to(seeds)[:-1]:  # the base may hold this level too: not that
            for kind in (VALUES, DISTANCES):
                os.link(level_path(base, n, kind), level_path(directory, n, kind))
            os.link(build_record_path(base, n), build_record_path(directory, n))
        argv = ["--seeds", str(seeds), "--dir", str(directory)]
        if memory is not None:
            argv += ["--memory", memory]
        load = os.getloadavg()[0]
        figures = _bench(argv, directory / "figures.json")
        level = next(x for x in figures["levels"] if x["seeds"] == seeds)
        assert level["built_now"], f"level {seeds} was not built in {directory}"
        digests = (
            _digest(level_path(directory, seeds, VALUES)),
            _digest(level_path(directory, seeds, DISTANCES)),
        )
        run = {
            "way": "out of core" if memory else "in memory",
            "memory": memory,
            "seconds": round(level["seconds"], 2),
            "cpu_seconds": round(figures["cpu_seconds"], 2),
            "phases": {k: round(v, 2) for k, v in level["phases"].items()},
            "peak_bytes": level["peak_bytes_after"],
            "load_average_before": round(load, 2),
        }
        return run, digests
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    budgets = _budgets(args.memory)
    base = Path(args.base) if args.base else Path(tempfile.mkdtemp(prefix="tablebase-base-"))
    base.mkdir(parents=True, exist_ok=True)
    work = Path(args.work) if args.work else Path(tempfile.gettempdir())
    _warm(work)
    levels = []
    for seeds in args.seeds:
        print(f"level {seeds}: lower levels in {base}", flush=True)
        _lower(base, seeds)
        memory = budgets.get(seeds, "2G")
        rounds: list[dict[str, Any]] = []
        ratios: list[float] = []
        cpu_ratios: list[float] = []
        digests = set()
        for r in range(args.rounds):
            order = [None, memory] if r % 2 == 0 else [memory, None]
            pair: dict[str, Any] = {}
            for way in order:
                one, digest = _one(base, work, seeds, way)
                digests.add(digest)
                if len(digests) != 1:
                    raise SystemExit(f"level {seeds}: the two builds wrote different bytes")
                pair[one["way"]] = one
                print(
                    f"level {seeds} round {r + 1}: {one['way']} {one['seconds']:.1f} s "
                    f"(load {one['load_average_before']})",
                    flush=True,
                )
            ratios.append(round(pair["in memory"]["seconds"] / pair["out of core"]["seconds"], 3))
            cpu = pair["in memory"]["cpu_seconds"] / pair["out of core"]["cpu_seconds"]
            cpu_ratios.append(round(cpu, 3))
            rounds.append({**pair, "ratio": ratios[-1], "cpu_ratio": cpu_ratios[-1]})
        levels.append(
            {
                "seeds": seeds,
                "positions": level_size(seeds),
                "memory": memory,
                "rounds": rounds,
                "same_bytes": True,
                "ratio": {
                    "median": statistics.median(ratios),
                    "min": min(ratios),
                    "max": max(ratios),
                },
                "cpu_ratio": {
                    "median": statistics.median(cpu_ratios),
                    "min": min(cpu_ratios),
                    "max": max(cpu_ratios),
                },
                "target_ratio": TARGET_RATIO,
            }
        )
    return {
        "cpus": os.cpu_count(),
        "when": time.strftime("%Y-%m-%d"),
        "levels": levels,
    }


def report(figures: dict[str, Any]) -> None:
    for level in figures["levels"]:
        ratio = level["ratio"]
        met = "met" if ratio["median"] >= level["target_ratio"] else "MISSED"
        print(
            f"level {level['seeds']} ({level['positions']:,} positions, out of core within "
            f"{level['memory']}): throughput ratio {ratio['median']:.2f} "
            f"(min {ratio['min']:.2f}, max {ratio['max']:.2f}) over {len(level['rounds'])} "
            f"rounds; target >= {level['target_ratio']}: {met}; same bytes"
        )
        cpu = level["cpu_ratio"]
        print(
            f"  in CPU seconds (less sensitive to the machine's load): {cpu['median']:.2f} "
            f"(min {cpu['min']:.2f}, max {cpu['max']:.2f})"
        )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = run(args)
    report(figures)
    if args.json:
        write_json(Path(args.json), figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
