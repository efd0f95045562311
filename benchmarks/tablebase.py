"""Benchmark the Ayòayò tablebase: build time and size per level, and probe time.

Usage (from the project root)::

    .venv/bin/python benchmarks/tablebase.py                     # levels up to 12, 2 workers
    .venv/bin/python benchmarks/tablebase.py --seeds 8 --workers 1
    .venv/bin/python benchmarks/tablebase.py --json out/tablebase.json --markdown

Builds every level up to ``--seeds`` from nothing into a fresh temporary directory (or
``--dir``, which is kept; levels already there are reused, as a resumed build would), with the
pure-Python moves function over a ``ProcessPoolExecutor`` of ``--workers`` processes, and
reports per level: positions, bytes on disk, seconds (and how they split between generating the
moves with their exit values, and the retrograde analysis). Then probes ``--probes`` random
covered positions (either player to move), ``--repeat`` times, and reports the time per probe
(median, fastest and slowest round). The machine's load average is printed with the figures:
absolute times on a shared machine are only indicative.

Targets (issue 8): levels up to 12 seeds in at most 10 minutes on 2 cores; a probe in at most
1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ayoayo import Ayoayo, AyoayoState
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_build import build
from games.ayoayo.tablebase_files import level_path, read_build_record
from games.ayoayo.tablebase_index import board_count, levels_up_to, splits, unrank, view_of

BUILD_TARGET_SECONDS = 600.0
PROBE_TARGET_SECONDS = 1e-3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=12, help="largest level (default 12)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--dir", help="build here and keep it (default: a temporary directory)")
    parser.add_argument("--probes", type=int, default=20_000, help="probes a round (20000)")
    parser.add_argument("--repeat", type=int, default=5, help="probe rounds (default 5)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--markdown", action="store_true", help="print a table for the docs")
    return parser.parse_args(argv)


def _sample(seeds: int, rng: random.Random) -> AyoayoState:
    view = unrank(seeds, rng.randrange(board_count(seeds)))
    cm = rng.choice(splits(seeds))
    mover = rng.randint(0, 1)
    co = 48 - seeds - cm
    caps = (cm, co) if mover == 0 else (co, cm)
    return tuple.__new__(AyoayoState, (*view_of(view, mover), *caps, mover))


def run(args: argparse.Namespace) -> dict[str, Any]:
    keep = args.dir is not None
    directory = Path(args.dir) if keep else Path(tempfile.mkdtemp(prefix="tablebase-bench-"))
    load_before = os.getloadavg()
    began = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as executor:
            reports = build(args.seeds, directory, executor=executor, progress=print)
    else:
        reports = build(args.seeds, directory, progress=print)
    total = time.perf_counter() - began
    levels = []
    for report in reports:
        record = read_build_record(directory, report.seeds)
        levels.append(
            {
                "seeds": report.seeds,
                "positions": report.positions,
                "bytes": level_path(directory, report.seeds).stat().st_size,
                "built_now": bool(report.built),
                "seconds": report.seconds,
                "phases": record.get("phases", {}),
            }
        )

    table = Tablebase(directory, game=Ayoayo())
    rng = random.Random(1)
    covered = [n for n in levels_up_to(args.seeds) if n > 0]
    states = [_sample(rng.choice(covered), rng) for _ in range(args.probes)]
    for state in states[:100]:  # open the levels (checksums) before timing
        table.probe(state)
    rounds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for state in states:
            table.probe(state)
        rounds.append((time.perf_counter() - start) / len(states))
    figures = {
        "seeds": args.seeds,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "build_seconds": round(total, 3),
        "build_target_seconds": BUILD_TARGET_SECONDS,
        "levels": levels,
        "probe_seconds": {
            "median": statistics.median(rounds),
            "fastest": min(rounds),
            "slowest": max(rounds),
        },
        "probe_target_seconds": PROBE_TARGET_SECONDS,
        "directory": str(directory) if keep else None,
    }
    if not keep:
        for path in directory.iterdir():
            path.unlink()
        directory.rmdir()
    return figures


def report(figures: dict[str, Any], markdown: bool) -> None:
    print()
    print(
        f"levels up to {figures['seeds']} seeds, {figures['workers']} worker(s) on "
        f"{figures['cpus']} CPUs; load average before {figures['load_average_before']}, "
        f"after {figures['load_average_after']} (a loaded machine: times are indicative)"
    )
    rows = [("seeds", "positions", "bytes", "seconds", "moves s", "solve s")]
    for level in figures["levels"]:
        phases = level["phases"]
        rows.append(
            (
                str(level["seeds"]),
                f"{level['positions']:,}",
                f"{level['bytes']:,}",
                "-" if level["seconds"] is None else f"{level['seconds']:.1f}",
                f"{phases['moves']:.1f}" if "moves" in phases else "-",
                f"{phases['solve']:.1f}" if "solve" in phases else "-",
            )
        )
    if markdown:
        print("| " + " | ".join(rows[0]) + " |")
        print("|" + "---:|" * len(rows[0]))
        for row in rows[1:]:
            print("| " + " | ".join(row) + " |")
    else:
        for row in rows:
            print("  ".join(f"{cell:>12}" for cell in row))
    build_ok = figures["build_seconds"] <= figures["build_target_seconds"]
    probe = figures["probe_seconds"]
    probe_ok = probe["median"] <= figures["probe_target_seconds"]
    print(
        f"build: {figures['build_seconds']:.1f} s in all "
        f"(target <= {figures['build_target_seconds']:.0f} s: {'met' if build_ok else 'MISSED'})"
    )
    print(
        f"probe: median {probe['median'] * 1e6:.1f} us (fastest round {probe['fastest'] * 1e6:.1f},"
        f" slowest {probe['slowest'] * 1e6:.1f}; target <= "
        f"{figures['probe_target_seconds'] * 1e6:.0f} us: {'met' if probe_ok else 'MISSED'})"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = run(args)
    report(figures, args.markdown)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
