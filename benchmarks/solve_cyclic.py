"""Benchmark ``solve`` on games that cycle (Ayòayò endgames) and on acyclic games.

Usage (from the project root)::

    .venv/bin/python benchmarks/solve_cyclic.py                  # the 8-seed endgame, 3 runs
    .venv/bin/python benchmarks/solve_cyclic.py --twelve         # and the 12-seed one (slow)
    .venv/bin/python benchmarks/solve_cyclic.py --baseline c758990 --pairs 30
    .venv/bin/python benchmarks/solve_cyclic.py --json out/solve_cyclic.json

Each Ayòayò run is a fresh child process (so its peak resident memory is its own), which
reports the states, the whole solve's seconds, how they split between the walk that enumerates
the graph and the retrograde analysis, and its peak RSS. ``--baseline REV`` times the acyclic
games (tic-tac-toe, both implementations, and a 3,000-counter take-away) against
``solver/solve.py`` as it was at git revision ``REV``, the two interleaved pair by pair, and
reports the ratio new/old (median and quartiles). The machine's load average is printed with
the figures: absolute times on a shared machine are only indicative.

Targets (issue 8): the 8-seed endgame (94,076 states) in at most 3 s, the 12-seed one
(905,636 states) in at most 30 s and 1 GB, pure Python.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
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

ROOT = Path(__file__).resolve().parent.parent
EIGHT = "[[1,1,0,2,0,0],[0,2,0,1,1,0]] captured 20,20 to-move 0"
TWELVE = "[[2,1,0,3,0,0],[1,2,0,1,1,1]] captured 18,18 to-move 0"
TARGETS = {EIGHT: (3.0, None), TWELVE: (30.0, 1024.0)}  # seconds, MB


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--twelve", action="store_true", help="also the 12-seed endgame")
    parser.add_argument("--runs", type=int, default=3, help="runs per endgame (default 3; 0: none)")
    parser.add_argument("--baseline", metavar="REV", help="compare acyclic games with REV")
    parser.add_argument("--pairs", type=int, default=20, help="interleaved pairs (default 20)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # one solve, in this process
    return parser.parse_args(argv)


def child(position: str) -> dict[str, Any]:
    """Solve one endgame here; time the walk and the retrograde analysis apart."""
    from games import load_game

    solve_module = importlib.import_module("solver.solve")  # the module, not the function
    spent = {"walk": 0.0, "retrograde": 0.0}

    def timed(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start

        return wrapper

    solve_module._walk_breadth_first = timed("walk", solve_module._walk_breadth_first)
    solve_module._solve_graph = timed("retrograde", solve_module._solve_graph)
    game = load_game("ayoayo")
    start = time.perf_counter()
    solution = solve_module.solve(game, game.parse_state(position))
    seconds = time.perf_counter() - start
    return {
        "states": len(solution),
        "value": solution.root_value,
        "endless_states": solution.counts.endless,
        "seconds": seconds,
        **{f"{k}_seconds": v for k, v in spent.items()},
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def endgame(position: str, runs: int) -> dict[str, Any]:
    """``runs`` fresh processes solving ``position``: each run's figures and the medians."""
    rows = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--child", position],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout
        rows.append(json.loads(out))
        print(f"  {_row_text(rows[-1])}", flush=True)
    median = {k: statistics.median(r[k] for r in rows) for k in rows[0] if k.endswith("s_mb")}
    median.update({k: statistics.median(r[k] for r in rows) for k in rows[0] if "seconds" in k})
    seconds, megabytes = TARGETS[position]
    return {
        "position": position,
        "runs": rows,
        "median": median,
        "target_seconds": seconds,
        "target_mb": megabytes,
    }


def _row_text(row: dict[str, Any]) -> str:
    return (
        f"{row['states']:,} states, value {row['value']}, {row['seconds']:.2f} s "
        f"(walk {row['walk_seconds']:.2f} s, retrograde {row['retrograde_seconds']:.2f} s), "
        f"peak RSS {row['peak_rss_mb']:.0f} MB"
    )


def baseline(revision: str, pairs: int) -> dict[str, Any]:
    """Acyclic solves, ours against ``solver/solve.py`` at ``revision``, interleaved."""
    from games import load_game
    from solver.solve import solve
    from tests.tiny_games import TakeAway

    source = subprocess.run(
        ["git", "show", f"{revision}:solver/solve.py"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "baseline_solve.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("baseline_solve", path)
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
    games = {
        "tictactoe": lambda: load_game("tictactoe"),
        "tictactoe-bitboard": lambda: load_game("tictactoe-bitboard"),
        "takeaway-3000": lambda: TakeAway(3000),
    }
    report = {}
    for name, make in games.items():
        ratios, ours, theirs = [], [], []
        for _ in range(pairs):
            for side, times in ((old.solve, theirs), (solve, ours)):
                game = make()
                start = time.perf_counter()
                side(game)
                times.append(time.perf_counter() - start)
            ratios.append(ours[-1] / theirs[-1])
        quartiles = statistics.quantiles(ratios, n=4)
        report[name] = {
            "ratio_median": statistics.median(ratios),
            "ratio_q1": quartiles[0],
            "ratio_q3": quartiles[2],
            "ours_fastest_s": min(ours),
            "baseline_fastest_s": min(theirs),
        }
        print(
            f"  {name}: new/old {report[name]['ratio_median']:.2f} "
            f"(quartiles {quartiles[0]:.2f}-{quartiles[2]:.2f}); fastest "
            f"{min(ours) * 1000:.1f} ms vs {min(theirs) * 1000:.1f} ms",
            flush=True,
        )
    return {"revision": revision, "pairs": pairs, "games": report}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child)))
        return 0
    figures: dict[str, Any] = {"load_average": os.getloadavg(), "endgames": []}
    print(f"load average {figures['load_average']}")
    for position in ([EIGHT, TWELVE] if args.twelve else [EIGHT]) if args.runs > 0 else []:
        print(f"solve ayoayo --position '{position}'", flush=True)
        figures["endgames"].append(endgame(position, args.runs))
    if args.baseline:
        print(f"acyclic games against solver/solve.py at {args.baseline}", flush=True)
        figures["acyclic"] = baseline(args.baseline, args.pairs)
    figures["load_average_after"] = os.getloadavg()
    if args.json:
        write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
