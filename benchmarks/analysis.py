"""What ``gamesolver analyse --time 1`` reaches, with and without tablebases, warm and cold.

Run: ``.venv/bin/python benchmarks/analysis.py`` (``--rounds N``, ``--json PATH`` to keep the
figures, ``--tablebases DIR`` where the levels are built or found: ``DIR/12`` and ``DIR/16``,
built with the compiled builder when missing, about 20 s). Each figure is a whole
``gamesolver analyse POSITION --time 1 --json`` process, as a user runs it.

What it measures (the targets of issue 14), every contender once per round, in a shuffled
order (seeded), so a machine whose load drifts slows them alike:

1. The depth completed in 1 s, from the start, from the article's position and from midgame
   positions of 20-32 seeds (random playouts, seeded), with no tablebase, with levels to 12 and
   with levels to 16, and per round the depth gained or lost on the same position (the
   target: at most one ply lost). A search that becomes exact stops early, and one that runs
   into the tablebase spends part of its second in the driver's Python (the plies and the
   line along the tablebase), so the search's own speed is measured apart:
1b. in-process, the same searches, the nodes per CPU second of the search (the process
   around it and the reading of the levels left out, the driver's Python in: with levels it
   weighs more, so the ratio with each tablebase to without, per round, falls below the
   kernel's own, whose target was at least 0.8).
2. A first run on an empty compile cache (``NUMBA_CACHE_DIR`` a new empty folder): its depth
   in 1 s against the warm run's (the target: at most two plies fewer, as the clock starts once
   the kernel is compiled), and how long the whole process took.
3. Ayòayò on the compiled route against the bar of issue 26 (``--route`` runs this part
   alone): ``analyse --time 1`` processes from the article's position and the start, with no
   tablebase and with the levels of ``--route-levels`` (default: the user's own,
   ``~/.cache/gamesolver/tablebases``, only read), each once per round in a shuffled order:
   depth and nodes/s, medians with the spread, and whether the article's position reached the
   bar (depth 19-20 and 5-7 M nodes/s without levels).
3b. The same kernel in one process, without the process around it: a depth-15 search from
   each position (table of 2**18 entries, no tablebase), CPU seconds; the fastest of the
   rounds, as nodes/s (the least disturbed run of a loaded machine), and the node counts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import harness  # noqa: E402
from games.ayoayo import Ayoayo  # noqa: E402
from games.ayoayo.tablebase_build import build  # noqa: E402
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path  # noqa: E402

GAME = Ayoayo()
ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"
"""The position the README and ``make demo`` analyse."""


def midgame_positions(seed: int) -> dict[str, str]:
    """One position of each of 20, 24, 28 and 32 seeds on the board, from seeded playouts."""
    rng = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < 4:
        state = GAME.initial_state()
        while acts := GAME.actions(state):
            state = GAME.result(state, rng.choice(acts))
            seeds = 48 - state[12] - state[13]
            name = f"mid{seeds}"
            if seeds in (20, 24, 28, 32) and name not in found and GAME.actions(state):
                found[name] = GAME.format_state(state)
                break
    return dict(sorted(found.items()))


def tablebases(where: Path) -> dict[str, Path]:
    """``where/12`` and ``where/16``: levels to 12 and to 16 seeds (built once if missing)."""
    built: dict[str, Path] = {}
    for top in (12, 16):
        directory = where / str(top)
        if not level_path(directory, top).exists():
            source = where / "16"
            if top == 12 and level_path(source, 12).exists():
                directory.mkdir(parents=True, exist_ok=True)
                for n in range(0, 13, 4):
                    for kind in (VALUES, DISTANCES):
                        shutil.copy(level_path(source, n, kind), level_path(directory, n, kind))
            else:
                print(f"building tablebase levels to {top} in {directory} ...", flush=True)
                kernel = GAME.tablebase(directory).builder
                build(top, directory, kernel=None if kernel is None else kernel())
        built[f"tb{top}"] = directory
    return built


def analyse(position: str, tablebase: Path | None, env: dict[str, str]) -> dict[str, Any]:
    """One ``gamesolver analyse --time 1 --json`` process: depth, nodes/s, its wall time."""
    argv = [sys.executable, "-m", "zerosum", "analyse", "ayoayo", "--position", position]
    argv += ["--time", "1", "--json"]
    argv += ["--no-tablebase"] if tablebase is None else ["--tablebase-dir", str(tablebase)]
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - began
    answer = json.loads(done.stdout)
    stats = answer["stats"] or {}
    return {
        "depth": answer["depth"],
        "nodes_per_second": stats.get("nodes_per_second"),
        "source": answer["source"],
        "wall_s": wall,
    }


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _fmt(s: dict[str, float], digits: int = 2) -> str:
    return f"{s['median']:.{digits}f} ({s['min']:.{digits}f}-{s['max']:.{digits}f})"


def depths_and_speed(
    positions: dict[str, str], bases: dict[str, Path], rounds: int, seed: int
) -> dict[str, Any]:
    """Item 1: each position with each tablebase set, once per round, shuffled."""
    env = dict(os.environ)
    setups: dict[str, Path | None] = {"none": None, **bases}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    rng = random.Random(seed)
    analyse(ARTICLE, None, env)  # load the kernel once (compile if the cache lacks it)
    for r in range(rounds):
        jobs = [(p, s) for p in positions for s in setups]
        rng.shuffle(jobs)
        for name, setup in jobs:
            runs.setdefault((name, setup), []).append(analyse(positions[name], setups[setup], env))
        print(f"  round {r + 1}/{rounds} done", flush=True)
    report: dict[str, Any] = {}
    for name in positions:
        row: dict[str, Any] = {"position": positions[name]}
        base = runs[(name, "none")]
        for setup in setups:
            got = runs[(name, setup)]
            row[setup] = {
                "depth": _spread([g["depth"] for g in got if g["depth"] is not None] or [0]),
                "source": got[0]["source"],
            }
            if got[0]["source"] == "search":
                row[setup]["nodes_per_second"] = _spread([g["nodes_per_second"] for g in got])
            if setup != "none" and got[0]["source"] == "search":
                row[setup]["speed_vs_none"] = _spread(
                    [
                        g["nodes_per_second"] / b["nodes_per_second"]
                        for g, b in zip(got, base, strict=True)
                    ]
                )
                row[setup]["depth_vs_none"] = _spread(
                    [g["depth"] - b["depth"] for g, b in zip(got, base, strict=True)]
                )
        report[name] = row
    return report


def kernel_speed(
    positions: dict[str, str], bases: dict[str, Path], rounds: int, seed: int
) -> dict[str, Any]:
    """Item 1b: ``search(time_limit=1)`` in this process, nodes per CPU second of the search
    (the driver's Python included, the process around it not)."""
    from solver.engine import search

    game = GAME
    setups = {"none": None, **{k: game.tablebase(v) for k, v in bases.items()}}
    first = game.parse_state(next(iter(positions.values())))
    for oracle in setups.values():  # the kernel loaded, the levels read into memory, untimed
        search(game, first, depth=2, oracle=oracle)
    runs: dict[tuple[str, str], list[float]] = {}
    rng = random.Random(seed)
    for _ in range(rounds):
        jobs = [(p, s) for p in positions for s in setups]
        rng.shuffle(jobs)
        for name, setup in jobs:
            state = game.parse_state(positions[name])
            began = time.process_time()
            result = search(game, state, time_limit=1, all_values=True, oracle=setups[setup])
            spent = time.process_time() - began
            if result.source == "search" and spent > 0:
                runs.setdefault((name, setup), []).append(result.stats.nodes / spent)
    report: dict[str, Any] = {}
    for name in positions:
        base = runs.get((name, "none"), [])
        row: dict[str, Any] = {}
        for setup in setups:
            got = runs.get((name, setup))
            if not got:
                continue
            row[setup] = {"nodes_per_cpu_second": _spread(got)}
            if setup != "none" and len(got) == len(base):
                ratios = [g / b for g, b in zip(got, base, strict=True)]
                row[setup]["vs_none"] = _spread(ratios)
        report[name] = row
    return report


def cold_start(rounds: int) -> dict[str, Any]:
    """Item 2: the article's position on an empty compile cache, then warm, each round."""
    cold_depths: list[float] = []
    cold_walls: list[float] = []
    warm_depths: list[float] = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="gamesolver-cold-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold = analyse(ARTICLE, None, env)
            warm = analyse(ARTICLE, None, env)
        cold_depths.append(cold["depth"])
        cold_walls.append(cold["wall_s"])
        warm_depths.append(warm["depth"])
    return {
        "cold_depth": _spread(cold_depths),
        "warm_depth": _spread(warm_depths),
        "depth_lost": _spread([w - c for c, w in zip(cold_depths, warm_depths, strict=True)]),
        "cold_process_s": _spread(cold_walls),
    }


BAR = {"depth": (19, 20), "nodes_per_second": (5e6, 7e6)}
"""Issue 26's bar for the article's position without levels: the hand-written kernel's figures
when Ayòayò moved onto the compiled route (``analyse --time 1``)."""


def route(positions: dict[str, str], levels: Path, rounds: int, seed: int) -> dict[str, Any]:
    """Item 3: each position and set of levels once per round, shuffled."""
    env = dict(os.environ)
    setups: dict[str, Path | None] = {"none": None, "levels": levels}
    analyse(ARTICLE, None, env)  # load the kernel once (compile if the cache lacks it)
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    rng = random.Random(seed)
    for r in range(rounds):
        jobs = [(p, s) for p in positions for s in setups]
        rng.shuffle(jobs)
        for name, setup in jobs:
            runs.setdefault((name, setup), []).append(analyse(positions[name], setups[setup], env))
        print(f"  round {r + 1}/{rounds} done", flush=True)
    report: dict[str, Any] = {}
    for name in positions:
        for setup in setups:
            got = runs[(name, setup)]
            report[f"{name} {setup}"] = {
                "depth": _spread([g["depth"] or 0 for g in got]),
                "nodes_per_second": _spread([g["nodes_per_second"] or 0 for g in got]),
                "source": got[0]["source"],
            }
    return report


def route_kernel(positions: dict[str, str], rounds: int) -> dict[str, Any]:
    """Item 3b: fixed-depth searches in this process, CPU seconds, the fastest round."""
    from solver.compiled import prepare
    from solver.engine import search

    prepare(GAME)
    search(GAME, depth=6)
    fastest: dict[str, float] = {}
    nodes: dict[str, int] = {}
    for _ in range(rounds):
        for name, position in positions.items():
            state = GAME.parse_state(position)
            began = time.process_time()
            result = search(GAME, state, depth=15, table_size=1 << 18)
            spent = time.process_time() - began
            fastest[name] = min(fastest.get(name, math.inf), spent)
            nodes[name] = result.stats.nodes
    return {
        name: {"nodes": nodes[name], "nodes_per_second": nodes[name] / fastest[name]}
        for name in positions
    }


def print_route(report: dict[str, Any]) -> None:
    for key, row in report.items():
        print(
            f"   {key:14} depth {_fmt(row['depth'], 0)}, "
            f"{_fmt(row['nodes_per_second'], 0)} nodes/s",
            flush=True,
        )
    article = report["article none"]
    low_depth, low_speed = BAR["depth"][0], BAR["nodes_per_second"][0]
    held = article["depth"]["median"] >= low_depth
    held = held and article["nodes_per_second"]["median"] >= low_speed
    print(
        f"   the bar (the article's position, no levels: depth {low_depth}+, "
        f"{low_speed / 1e6:.0f}+ M nodes/s, medians): {'held' if held else 'NOT held'}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold-rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--tablebases", type=Path, default=ROOT / "out" / "bench" / "tablebases")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--route", action="store_true", help="only part 3 (the compiled route)")
    parser.add_argument(
        "--route-levels",
        type=Path,
        default=Path.home() / ".cache" / "gamesolver" / "tablebases",
        help="part 3's tablebase levels (only read)",
    )
    args = parser.parse_args()
    if args.route:
        load = os.getloadavg()[0]
        print(f"3. the compiled route: {args.rounds} rounds, load {load:.1f}", flush=True)
        start = GAME.format_state(GAME.initial_state())
        positions = {"article": ARTICLE, "start": start}
        found = route(positions, args.route_levels, args.rounds, 26)
        print_route(found)
        print(f"3b. depth 15 in one process: {2 * args.rounds} rounds", flush=True)
        kernels = route_kernel(positions, 2 * args.rounds)
        for name, row in kernels.items():
            print(
                f"   {name:8} {row['nodes_per_second'] / 1e6:.2f} M nodes/s "
                f"({row['nodes']:,} nodes)",
                flush=True,
            )
        record = {"load_average_before": load, "load_average_after": os.getloadavg()[0]}
        levels = str(args.route_levels).replace(str(Path.home()), "~", 1)
        record.update(rounds=args.rounds, levels=levels, route=found, depth_15=kernels)
        if args.json:
            print(f"figures: {harness.write_json(args.json, record)}")
        return
    positions = {"start": GAME.format_state(GAME.initial_state()), "article": ARTICLE}
    positions.update(midgame_positions(args.seed))
    bases = tablebases(args.tablebases)
    load = os.getloadavg()[0]
    print(f"1. analyse --time 1: {args.rounds} rounds, load average {load:.1f}", flush=True)
    speed = depths_and_speed(positions, bases, args.rounds, args.seed)
    for name, row in speed.items():
        print(f"{name:8} {row['position']}")
        for setup in ("none", *bases):
            cell = row[setup]
            if cell["source"] != "search":
                print(f"   {setup:5} answered from the tablebase at the root")
                continue
            line = f"   {setup:5} depth {_fmt(cell['depth'], 0)}"
            line += f"  {_fmt(cell['nodes_per_second'], 0)} nodes/s"
            if "speed_vs_none" in cell:
                line += f"  speed x{_fmt(cell['speed_vs_none'])}"
                line += f"  depth {_fmt(cell['depth_vs_none'], 0)} vs none"
            print(line)
    print(f"\n1b. nodes per CPU second (in-process): {args.rounds} rounds", flush=True)
    kernel = kernel_speed(positions, bases, args.rounds, args.seed)
    for name, row in kernel.items():
        cells = []
        for setup, cell in row.items():
            text = f"{setup} {_fmt(cell['nodes_per_cpu_second'], 0)}"
            if "vs_none" in cell:
                text += f" (x{_fmt(cell['vs_none'])})"
            cells.append(text)
        print(f"{name:8} " + "; ".join(cells))
    print(f"\n2. first run on an empty compile cache: {args.cold_rounds} rounds", flush=True)
    cold = cold_start(args.cold_rounds)
    print(
        f"   depth cold {_fmt(cold['cold_depth'], 0)}, warm {_fmt(cold['warm_depth'], 0)}, "
        f"lost {_fmt(cold['depth_lost'], 0)}; "
        f"the cold process took {_fmt(cold['cold_process_s'], 1)} s"
    )
    figures = {
        "load_average_before": load,
        "load_average_after": os.getloadavg()[0],
        "rounds": args.rounds,
        "analyse_time_1": speed,
        "nodes_per_cpu_second": kernel,
        "cold_start": cold,
    }
    if args.json:
        print(f"figures: {harness.write_json(args.json, figures)}")


if __name__ == "__main__":
    main()
