"""Benchmark the Ayòayò tablebase: build time and size per level, and probe time.

Usage (from the project root)::

    .venv/bin/python benchmarks/tablebase.py                     # levels up to 12, 2 workers
    .venv/bin/python benchmarks/tablebase.py --seeds 20 --verify 20000   # compiled, to 20
    .venv/bin/python benchmarks/tablebase.py --kernel pure --seeds 8 --workers 1
    .venv/bin/python benchmarks/tablebase.py --json out/tablebase.json --markdown
    .venv/bin/python benchmarks/tablebase.py --seeds 16 --memory 2G    # out of core, 2 GB
    .venv/bin/python benchmarks/tablebase.py --seeds 16 --memory 2G --no-checkpoints

Builds every level up to ``--seeds`` from nothing into a fresh temporary directory (or
``--dir``, which is kept; levels already there are reused, as a resumed build would), with
the compiled builder (``--kernel compiled``, the default when numba is installed) or the
pure-Python one (``--kernel pure``), generating moves over a ``ProcessPoolExecutor`` of
``--workers`` processes, and reports per level: positions, bytes on disk (values and
distances), seconds (and how they split between generating the moves with their exit
values, and the retrograde analysis), and the process's peak memory once the level is done.
``--verify N`` then checks N sampled positions of each level against the rules themselves
(Bellman: the stored value is the mover's best over its moves, each valued by playing it
through ``Ayoayo`` and probing the child). Then probes ``--probes`` random covered positions
(either player to move), ``--repeat`` times, and reports the time per probe (median, fastest
and slowest round). The machine's load average is printed with the figures: absolute times
on a shared machine are only indicative.

Targets: levels up to 12 seeds in at most 10 minutes on 2 cores, a probe in at most 1 ms
(issue 8); level 16 in at most 10 minutes and level 20 in at most 2 hours (issue 9).
"""

from __future__ import annotations

import argparse
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

from benchmarks.harness import write_json
from games.ayoayo import Ayoayo, AyoayoState
from games.ayoayo.accel import level_kernel
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_build import build
from games.ayoayo.tablebase_files import DISTANCES, level_path, read_build_record
from games.ayoayo.tablebase_index import (
    TOTAL_SEEDS,
    board_count,
    levels_up_to,
    splits,
    unrank,
    view_of,
)
from games.ayoayo.tablebase_partitions import parse_size

BUILD_TARGET_SECONDS = 600.0
LEVEL_TARGET_SECONDS = {16: 600.0, 20: 7200.0}
PROBE_TARGET_SECONDS = 1e-3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=12, help="largest level (default 12)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--dir", help="build here and keep it (default: a temporary directory)")
    parser.add_argument(
        "--kernel",
        choices=["compiled", "pure"],
        default="compiled" if level_kernel() is not None else "pure",
        help="the compiled builder (default when numba is installed) or the pure one",
    )
    parser.add_argument(
        "--memory",
        type=_size,
        help="build out of core within this memory (e.g. 2G, at least 64M; partitions on disk, "
        "scratch in the build directory)",
    )
    parser.add_argument(
        "--no-checkpoints",
        action="store_true",
        help="with --memory: no checkpoints inside a pass (and no undo journal), to measure "
        "what they cost",
    )
    parser.add_argument("--verify", type=int, default=0, help="positions checked a level (0)")
    parser.add_argument("--probes", type=int, default=20_000, help="probes a round (20000)")
    parser.add_argument("--repeat", type=int, default=5, help="probe rounds (default 5)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--markdown", action="store_true", help="print a table for the docs")
    return parser.parse_args(argv)


def _size(text: str) -> str:
    """``--memory`` as given, once it reads as a size: a bad one is argparse's one-line
    error, naming it, rather than a traceback after the levels below are built."""
    try:
        parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _sample(seeds: int, rng: random.Random) -> AyoayoState:
    view = unrank(seeds, rng.randrange(board_count(seeds)))
    cm = rng.choice(splits(seeds))
    mover = rng.randint(0, 1)
    co = 48 - seeds - cm
    caps = (cm, co) if mover == 0 else (co, cm)
    return tuple.__new__(AyoayoState, (*view_of(view, mover), *caps, mover))


def _peak_bytes() -> int:
    """This process's peak resident memory so far (Linux reports kilobytes)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _verify(table: Tablebase, seeds: int, count: int, rng: random.Random) -> dict[str, int]:
    """Bellman at ``count`` sampled positions of a level, the rules judging each move.

    Values: the stored value is the mover's best over its moves, each played through the rules
    and its child probed. Distances, where the mover is ahead of endless play or behind it:
    one more than the quickest (ahead) or slowest (behind) distance after a value-keeping move
    (0 after a move that leaves the level), or none (endless) exactly when that is endless.
    """
    game = table.game
    checked = failed = distances = distances_failed = 0
    for _ in range(count):
        state = _sample(seeds, rng)
        children = table.action_values(state)
        if children is None:  # a level below is missing
            continue
        value = table.probe(state)
        over = game.is_terminal(state)
        if over:
            best = game.utility(state)
        else:
            best = max(children.values()) if state[14] == 0 else min(children.values())
        checked += 1
        failed += value != best
        if value is None or value != best or over:
            continue
        ahead = (value - game.endless_value(state)) * (-1 if state[14] else 1)  # mover's view
        if ahead == 0:
            continue  # a draw's plies have two passes; the tests cover them
        after = []
        for action, child_value in children.items():
            if child_value != value:
                continue
            child = game.result(state, action)
            left = game.is_terminal(child) or TOTAL_SEEDS - child[12] - child[13] < seeds
            found = 0 if left else table.distance(child)
            after.append(float("inf") if found is None else found)
        expected = 1 + (min(after) if ahead > 0 else max(after))
        stored = table.distance(state)
        distances += 1
        distances_failed += (float("inf") if stored is None else stored) != expected
    return {
        "checked": checked,
        "failed": failed,
        "distances_checked": distances,
        "distances_failed": distances_failed,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    keep = args.dir is not None
    directory = Path(args.dir) if keep else Path(tempfile.mkdtemp(prefix="tablebase-bench-"))
    load_before = os.getloadavg()
    kernel = level_kernel() if args.kernel == "compiled" else None
    if args.kernel == "compiled" and kernel is None:
        raise SystemExit("--kernel compiled needs numba (the fast extra)")
    peaks: dict[int, int] = {}

    def progress(line: str) -> None:
        print(line, flush=True)
        words = line.split()
        if len(words) > 2 and words[2] in ("built", "present"):  # "level NN: built in ..."
            peaks[int(words[1].rstrip(":"))] = _peak_bytes()

    out_of_core = None
    if args.memory is not None:
        from games.ayoayo.native_partitions import CHECKPOINT_SECONDS, PartitionedBuilder

        out_of_core = PartitionedBuilder(
            directory,
            memory=parse_size(args.memory),
            checkpoint=None if args.no_checkpoints else CHECKPOINT_SECONDS,
        )
    began = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as executor:
            reports = build(
                args.seeds,
                directory,
                executor=executor,
                kernel=kernel,
                progress=progress,
                out_of_core=out_of_core,
            )
    else:
        reports = build(
            args.seeds, directory, kernel=kernel, progress=progress, out_of_core=out_of_core
        )
    total = time.perf_counter() - began
    levels = []
    for report in reports:
        record = read_build_record(directory, report.seeds)
        levels.append(
            {
                "seeds": report.seeds,
                "positions": report.positions,
                "bytes": level_path(directory, report.seeds).stat().st_size,
                "distance_bytes": level_path(directory, report.seeds, DISTANCES).stat().st_size,
                "built_now": bool(report.built),
                "seconds": report.seconds,
                "target_seconds": LEVEL_TARGET_SECONDS.get(report.seeds),
                "phases": record.get("phases", {}),
                "peak_bytes_after": peaks.get(report.seeds),
            }
        )

    table = Tablebase(directory, game=Ayoayo())
    rng = random.Random(1)
    verified = {}
    for level in levels:
        if args.verify and level["seeds"] > 0:
            verified[level["seeds"]] = _verify(table, level["seeds"], args.verify, rng)
            print(f"level {level['seeds']:2d}: {verified[level['seeds']]}", flush=True)
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
        "kernel": args.kernel,
        "workers": args.workers,
        "memory": args.memory,
        "checkpoints": args.memory is not None and not args.no_checkpoints,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "build_seconds": round(total, 3),
        "build_target_seconds": BUILD_TARGET_SECONDS if args.seeds <= 12 else None,
        "levels": levels,
        "verified": verified,
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
    rows = [
        (
            "seeds",
            "positions",
            "values bytes",
            "distances bytes",
            "seconds",
            "moves s",
            "solve s",
            "peak GB",
        )
    ]
    for level in figures["levels"]:
        phases = level["phases"]
        rows.append(
            (
                str(level["seeds"]),
                f"{level['positions']:,}",
                f"{level['bytes']:,}",
                f"{level['distance_bytes']:,}",
                "-" if level["seconds"] is None else f"{level['seconds']:.1f}",
                f"{phases['moves']:.1f}" if "moves" in phases else "-",
                f"{phases['solve']:.1f}" if "solve" in phases else "-",
                "-" if not level["peak_bytes_after"] else f"{level['peak_bytes_after'] / 1e9:.2f}",
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
    for level in figures["levels"]:
        target = level["target_seconds"]
        if target is not None and level["seconds"] is not None:
            met = "met" if level["seconds"] <= target else "MISSED"
            print(
                f"level {level['seeds']}: {level['seconds']:.1f} s "
                f"(target <= {target:.0f} s on 2 cores: {met})"
            )
    for seeds, check in figures["verified"].items():
        print(
            f"level {seeds}: {check['checked']} positions checked by the rules, "
            f"{check['failed']} wrong; {check['distances_checked']} distances, "
            f"{check['distances_failed']} wrong"
        )
    probe = figures["probe_seconds"]
    probe_ok = probe["median"] <= figures["probe_target_seconds"]
    target = figures["build_target_seconds"]
    print(
        f"build: {figures['build_seconds']:.1f} s in all, {figures['kernel']} builder"
        + (
            ""
            if target is None
            else f" (levels to 12: target <= {target:.0f} s: "
            f"{'met' if figures['build_seconds'] <= target else 'MISSED'})"
        )
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
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
