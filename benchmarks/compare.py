"""The engine at two commits, side by side: interleaved runs, time ratios with their spread.

Usage (from the project root)::

    .venv/bin/python benchmarks/compare.py 218efa5               # that commit vs the checkout
    .venv/bin/python benchmarks/compare.py 218efa5 --rounds 9 --repeat 3
    .venv/bin/python benchmarks/compare.py 218efa5 --job ayoayo_d11
    .venv/bin/python benchmarks/compare.py 218efa5 --new HEAD     # a commit, not the checkout

The old commit's ``solver`` and ``games`` packages are exported (``git archive``) to a temporary
folder. Each round runs every job once per side, in a random order (seeded), each run in a fresh
process that imports its own side's code, warms up once and times ``--repeat`` calls in CPU
time (``time.process_time``: the time the process ran, not the time it waited for a core); the
fastest call is that run's time, the others measure the load. A loaded machine still slows
both sides alike within a round (caches, frequency), so the figure to read is the per-round
ratio old/new (above 1: the checkout is faster): its median and its range over the rounds. The
node counts of both sides are printed too: equal counts mean both searched the same tree.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

C4_MIDDLE = (
    "......./.x...../.o...../ox..xo./xxooxxx/oxooxoo",
    ".....o./.....xo/.x...xx/oo.x.ox/xo.xooo/xxoxoxo",
    "......./...o.../.x.x..x/.o.x..x/xooo.ox/ooxxoxo",
    "......./x.o...x/o.oo..o/x.ox.xo/x.xo.ox/x.xoxxo",
)
"""Four middle-game Connect Four positions (20-22 stones) whose compiled solves take about the
median time of benchmarks/connect4.py's thirty (seed 2): the kernel's part is small."""

C4_END = (
    "x...x../o...o../x.xox.o/xxoxo.o/oxoox.x/xxoxooo",
    ".o.o.../.x.o.x./xo.x.o./xxox.o./xoxxooo/ooxoxxx",
    "..x..x./.xx.oxo/xoo.oox/xoo.oxx/oox.xoo/xxx.xoo",
    "......./..x..oo/.oo..ox/xxoxoox/oxxxoxo/xxoxxoo",
)
"""Four end-game Connect Four positions (28-31 stones) whose compiled solves take about the
median time of benchmarks/connect4.py's thirty end positions (seed 1): a handful of kernel
nodes each, so the time is the engine's own around the kernel."""

JOBS: dict[str, str] = {
    "ttt_value": "search(load_game('tictactoe-bitboard'), plies=False)",
    "ttt_full": "search(load_game('tictactoe-bitboard'))",
    "ttt_readable": "search(load_game('tictactoe'))",
    "ttt_depth5": "search(load_game('tictactoe-bitboard'), depth=5)",
    "ayoayo_d11": "search(load_game('ayoayo'), depth=11)",
    "ttt_observer": "search(load_game('tictactoe-bitboard'), depth=9, observer=lambda e: None)",
    # the engine's own time around small compiled searches: 12 solves (Pons's score) of each of
    # C4_MIDDLE's positions
    "c4_middle": (
        "(lambda g: [search(g, g.parse_state(p), plies=False) for p in "
        f"{C4_MIDDLE!r} for _ in range(12)])(load_game('connect4', scored=True))[-1]"
    ),
    # likewise 12 solves of each of C4_END's positions
    "c4_end": (
        "(lambda g: [search(g, g.parse_state(p), plies=False) for p in "
        f"{C4_END!r} for _ in range(12)])(load_game('connect4', scored=True))[-1]"
    ),
}

_RUNNER = """
import json, statistics, sys, time
sys.path.insert(0, {root!r})
from games import load_game
from solver.engine import search
def job():
    return {call}
job()
times = []
for _ in range({repeat}):
    start = time.process_time()
    result = job()
    times.append(time.process_time() - start)
print(json.dumps({{"seconds": min(times), "nodes": result.stats.nodes,
                  "value": result.value}}))
"""


def run(root: Path, call: str, repeat: int) -> dict[str, float]:
    """One fresh process on ``root``'s code: the fastest of ``repeat`` calls, nodes, value."""
    code = _RUNNER.format(root=str(root), call=call, repeat=repeat)
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=root
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def export(revision: str, into: Path) -> Path:
    """The ``solver`` and ``games`` packages of ``revision``, unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "archive", revision, "solver", "games"], check=True, capture_output=True, cwd=ROOT
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the commit to compare the checkout with")
    parser.add_argument("--new", help="a commit instead of the checkout (safe to edit during)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per run")
    parser.add_argument("--job", action="append", choices=sorted(JOBS), help="default: all")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    jobs = args.job or list(JOBS)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
        sides = {
            "old": export(args.old, Path(old)),
            "new": ROOT if args.new is None else export(args.new, Path(new)),
        }
        ratios: dict[str, list[float]] = {job: [] for job in jobs}
        seen: dict[tuple[str, str], dict[str, float]] = {}
        for round_ in range(args.rounds):
            for job in jobs:
                order = ["old", "new"]
                rng.shuffle(order)
                times = {}
                for side in order:
                    seen[job, side] = run(sides[side], JOBS[job], args.repeat)
                    times[side] = seen[job, side]["seconds"]
                ratios[job].append(times["old"] / times["new"])
            print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    print(f"old={args.old} new={args.new or 'checkout'} rounds={args.rounds} repeat={args.repeat}")
    print(f"{'job':<14} {'old s':>8} {'new s':>8} {'old/new':>8} {'range':>13} {'nodes old/new'}")
    for job in jobs:
        r = sorted(ratios[job])
        old, new = seen[job, "old"], seen[job, "new"]
        print(
            f"{job:<14} {old['seconds']:>8.4f} {new['seconds']:>8.4f} {statistics.median(r):>8.3f}"
            f" {r[0]:>6.3f}-{r[-1]:<6.3f} {int(old['nodes'])}/{int(new['nodes'])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
