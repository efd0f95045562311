"""Run the benchmarks: ours against the peers, one run, a table of medians and ratios.

Usage (from the project root)::

    .venv/bin/python benchmarks/run.py                      # every suite, every side
    .venv/bin/python benchmarks/run.py --suite tictactoe    # one suite
    .venv/bin/python benchmarks/run.py --quick              # CI-sized smoke run
    .venv/bin/python benchmarks/run.py --side ours --profile  # where our time goes
    .venv/bin/python benchmarks/run.py --json out/bench.json  # results also as JSON
    .venv/bin/python benchmarks/run.py --markdown           # tables to paste into the docs

Each case is timed in-process with ``time.perf_counter``: warm-up runs, then repeated timed
runs; the table shows the median (and the fastest run). Ratios compare ours with each peer
doing the same kind of job in the same run: for times, peer median / our median; for node
rates, our nodes/s / peer nodes/s; above 1 means ours is ahead. The peers' tic-tac-toe root
searches compute a value and a move, so they are compared with ``search(game, plies=False)``
(kind "root"); our full answer with plies to the end (kind "root_plies") has no peer. The
targets of issues 2 and 3 are checked at the end. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import harness, ours, peers
from benchmarks.harness import (
    Case,
    Comparison,
    Measurement,
    Target,
    compare,
    facts_summary,
    measure,
)

__all__ = ["SUITES", "Options", "main", "parse_args", "run"]

SUITES = ("tictactoe", "ayoayo")
SIDES = ("all", "ours", "peers")

Options = argparse.Namespace


def parse_args(argv: Sequence[str] | None = None) -> Options:
    """The command line; ``--quick`` fills in small defaults for whatever is not given."""
    parser = argparse.ArgumentParser(
        prog="benchmarks/run.py",
        description="Time gamesolver against OpenSpiel, easyAI and aima3 (medians and ratios).",
    )
    parser.add_argument(
        "--suite",
        action="append",
        choices=SUITES,
        help="a suite to run (repeatable; default: all)",
    )
    parser.add_argument(
        "--side", choices=SIDES, default="all", help="ours, the peers, or all (default)"
    )
    parser.add_argument("--quick", action="store_true", help="a CI-sized smoke run")
    parser.add_argument("--repeat", type=int, help="timed runs per case (default 11; quick 3)")
    parser.add_argument("--warmup", type=int, help="untimed runs first (default 1)")
    parser.add_argument(
        "--ayoayo-depth", type=int, help="depth of our fixed-depth Ayòayò search (default 10)"
    )
    parser.add_argument(
        "--reach-depth",
        type=int,
        help="depth for the time-to-depth search, ours and OpenSpiel oware (default 12)",
    )
    parser.add_argument(
        "--time-limit", type=float, help="seconds for the depth-in-time search (default 1.0)"
    )
    parser.add_argument(
        "--depth-repeat", type=int, help="runs of the depth-in-time search (default 3)"
    )
    parser.add_argument("--oware-depth", type=int, help="OpenSpiel oware depth (default 10)")
    parser.add_argument("--kalah-depth", type=int, help="OpenSpiel Kalah depth (default 9)")
    parser.add_argument("--awele-depth", type=int, help="easyAI Awele depth (default 10)")
    parser.add_argument(
        "--agreement-budget",
        type=float,
        help="seconds for the engine-vs-teaching-minimax check on Ayòayò (default 20; 0: skip)",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--markdown", action="store_true", help="print the tables as Markdown (for the docs)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after timing, profile each of our cases with cProfile and print the hot spots",
    )
    parser.add_argument("--profile-top", type=int, default=15, help="functions per profile")
    parser.add_argument(
        "--check-targets", action="store_true", help="exit 1 when a measured target is missed"
    )
    options = parser.parse_args(argv)
    quick = options.quick
    defaults: dict[str, Any] = {
        "suite": list(SUITES),
        "repeat": 3 if quick else 11,
        "warmup": 1,
        "ayoayo_depth": 6 if quick else 10,
        "reach_depth": 5 if quick else 12,
        "time_limit": 0.2 if quick else 1.0,
        "depth_repeat": 1 if quick else 3,
        "oware_depth": 7 if quick else 10,
        "kalah_depth": 6 if quick else 9,
        "awele_depth": 6 if quick else 10,
        "agreement_budget": 1.0 if quick else 20.0,
    }
    for name, value in defaults.items():
        if getattr(options, name) is None:
            setattr(options, name, value)
    return options


def _cases(options: Options) -> list[Case]:
    cases: list[Case] = []
    want_ours = options.side in ("all", "ours")
    want_peers = options.side in ("all", "peers")
    if "tictactoe" in options.suite:
        if want_ours:
            cases += ours.tictactoe_cases()
        if want_peers:
            cases += peers.tictactoe_cases(quick=options.quick)
    if "ayoayo" in options.suite:
        if want_ours:
            cases += ours.ayoayo_cases(
                depth=options.ayoayo_depth,
                time_limit=options.time_limit,
                depth_repeat=options.depth_repeat,
                reach_depth=options.reach_depth,
            )
        if want_peers:
            cases += peers.ayoayo_cases(
                oware_depth=options.oware_depth,
                kalah_depth=options.kalah_depth,
                awele_depth=options.awele_depth,
                reach_depth=options.reach_depth,
            )
    return cases


def _find(measurements: Sequence[Measurement], key: str) -> Measurement | None:
    for m in measurements:
        if m.key == key and m.status == "ok":
            return m
    return None


def _ratio(comparisons: Sequence[Comparison], ours_key: str, peer_key: str) -> float | None:
    for c in comparisons:
        if (c.ours, c.peer) == (ours_key, peer_key):
            return c.ratio
    return None


def _targets(
    options: Options,
    measurements: Sequence[Measurement],
    comparisons: Sequence[Comparison],
    agreement: Sequence[ours.Agreement],
) -> list[Target]:
    targets: list[Target] = []
    if "tictactoe" in options.suite:
        ratio = _ratio(comparisons, "ours.solve.bitboard", "openspiel.minimax_solver")
        targets.append(
            Target(
                "tictactoe",
                "bitboard strong solve >= 3x faster than OpenSpiel MinimaxSolver",
                "not measured" if ratio is None else f"{ratio:.1f}x",
                None if ratio is None else ratio >= 3.0,
            )
        )
        for short in ("bitboard", "readable"):
            m = _find(measurements, f"ours.search_value.{short}")
            full = _find(measurements, f"ours.search.{short}")
            measured = "not measured" if m is None or m.median_s is None else _ms(m.median_s)
            if full is not None and full.median_s is not None:
                measured += f" (with plies: {_ms(full.median_s)})"
            targets.append(
                Target(
                    "tictactoe",
                    f"root value ({short}) < 10 ms, search(plies=False)",
                    measured,
                    None if m is None or m.median_s is None else m.median_s < 0.010,
                )
            )
        solved = [_find(measurements, f"ours.solve.{s}") for s in ("bitboard", "readable")]
        if all(m is not None for m in solved):
            states = [m.facts.get("states") for m in solved if m is not None]
            values = [m.facts.get("value") for m in solved if m is not None]
            targets.append(
                Target(
                    "tictactoe",
                    "strong solve finds 5,478 states and the value 0 (both games)",
                    f"states {states}, values {values}",
                    states == [5478, 5478] and values == [0, 0],
                )
            )
    if "ayoayo" in options.suite:
        ratio = _ratio(comparisons, "ours.engine.ayoayo", "openspiel.oware")
        targets.append(
            Target(
                "ayoayo",
                "engine nodes/s >= 2x OpenSpiel alpha-beta on C++ oware",
                "not measured" if ratio is None else f"{ratio:.2f}x",
                None if ratio is None else ratio >= 2.0,
            )
        )
        timed = _find(measurements, "ours.depth_in_time.ayoayo")
        depths = [] if timed is None else list(timed.facts.get("depths", []))
        one_second = abs(options.time_limit - 1.0) < 1e-9
        targets.append(
            Target(
                "ayoayo",
                f"depth >= 14 from the start within {options.time_limit:g} s",
                "not measured" if not depths else f"depths {depths}",
                None if not depths or not one_second else min(depths) >= 14,
            )
        )
        looping = _find(measurements, "ours.loop_check.ayoayo")
        refused = looping is not None and looping.facts.get("refused") is True
        targets.append(
            Target(
                "ayoayo",
                "a never-ending relay-sowing is refused within 1 s (found exactly, no step cap)",
                "not measured"
                if looping is None or looping.median_s is None
                else f"{_ms(looping.median_s)} (max {_ms(looping.max_s)})",
                None
                if looping is None or looping.max_s is None
                else refused and looping.max_s < 1.0,
            )
        )
        if agreement:
            deepest = max(a.depth for a in agreement)
            targets.append(
                Target(
                    "ayoayo",
                    "engine value = teaching minimax value at every depth it finishes",
                    f"depths 1..{deepest}: "
                    + (
                        "all equal"
                        if all(a.equal for a in agreement)
                        else "DIFFERENT at "
                        + ", ".join(str(a.depth) for a in agreement if not a.equal)
                    ),
                    all(a.equal for a in agreement),
                )
            )
    return targets


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def _rate(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f}"


def _meta(options: Options) -> dict[str, Any]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "commit": commit or None,
        "peers": peers.peer_versions(),
        "options": {k: v for k, v in vars(options).items() if k != "json"},
    }


def _with_depths(m: Measurement) -> Measurement:
    """The depth-in-time case lists every run's depth and its node rate in its facts."""
    if m.kind != "depth" or m.status != "ok":
        return m
    facts = dict(m.facts)
    facts["depths"] = sorted(f["depth"] for f in m.each if f.get("depth") is not None)
    rates = [f["nodes"] / t for f, t in zip(m.each, m.times_s, strict=True) if t > 0]
    facts["nodes_per_second"] = round(statistics.median(rates)) if rates else None
    return attrs.evolve(m, facts=facts)


def _measurement_row(m: Measurement) -> list[Any]:
    """One line of a suite's table: the case, its times, nodes and what it found."""
    keys = ["value", "states", "depth", "depths", "plies", "best_action", "complete"]
    return [
        m.key,
        _ms(m.median_s) if m.status == "ok" else m.status,
        _ms(m.min_s),
        m.runs or "",
        "" if m.nodes is None else f"{m.nodes:,}",
        _rate(m.nodes_per_second),
        facts_summary(m.facts, keys) if m.status == "ok" else m.note,
    ]


def _print_summaries(
    say: Callable[[str], None],
    heading: Callable[[str], None],
    format_table: Callable[[Sequence[str], Sequence[Sequence[Any]]], str],
    comparisons: Sequence[Comparison],
    agreement: Sequence[ours.Agreement],
    targets: Sequence[Target],
) -> None:
    """Print the ratios, the engine-vs-teaching agreement and the targets, when there are any."""
    if comparisons:
        heading("ratios (> 1: ours ahead)")
        say(
            format_table(
                ["ours", "peer", "by", "ratio"],
                [[c.ours, c.peer, c.metric, f"{c.ratio:.2f}x"] for c in comparisons],
            )
        )
    if agreement:
        heading("ayoayo: engine value vs teaching search, from the start")
        say(
            format_table(
                ["depth", "oracle", "oracle value", "engine value", "equal", "oracle time"],
                [
                    [
                        a.depth,
                        a.oracle,
                        a.oracle_value,
                        a.engine_value,
                        a.equal,
                        _ms(a.oracle_seconds),
                    ]
                    for a in agreement
                ],
            )
        )
    if targets:
        heading("targets")
        status = {True: "met", False: "MISSED", None: "n/a"}
        say(
            format_table(
                ["suite", "goal", "measured", "status"],
                [[t.suite, t.goal, t.measured, status[t.met]] for t in targets],
            )
        )


def run(options: Options, out: Any = None) -> dict[str, Any]:
    """Run the chosen suites and sides; print the tables to ``out``; return the report."""
    stream = out if out is not None else sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
        return harness.format_table(headers, rows, markdown=options.markdown)

    def progress(text: str) -> None:  # on stderr: stdout holds only the tables
        print(text, file=sys.stderr, flush=True)

    def heading(title: str) -> None:
        say()
        say(f"{title}:" if options.markdown else f"== {title} ==")
        if options.markdown:
            say()

    meta = _meta(options)
    say(
        f"gamesolver benchmarks  python {meta['python']}  {meta['cpus']} cpus  "
        f"commit {meta['commit']}  repeat {options.repeat} after {options.warmup} warm-up"
        + ("  (quick)" if options.quick else "")
    )
    versions = ", ".join(f"{k} {v or 'not installed'}" for k, v in meta["peers"].items())
    say(f"peers: {versions}")
    measurements: list[Measurement] = []
    cases = _cases(options)
    for case in cases:
        progress(f"  timing {case.key} ...")
        measurements.append(_with_depths(measure(case, options.repeat, options.warmup)))

    agreement: list[ours.Agreement] = []
    if "ayoayo" in options.suite and options.side != "peers" and options.agreement_budget > 0:
        progress("  checking engine against teaching minimax on ayoayo ...")
        try:
            agreement = ours.minimax_agreement(budget_s=options.agreement_budget)
        except Exception as error:  # reported, not fatal: the timings still stand
            say(f"  agreement check failed: {type(error).__name__}: {error}")

    comparisons = compare(measurements)
    targets = _targets(options, measurements, comparisons, agreement)

    for suite in options.suite:
        rows = [_measurement_row(m) for m in measurements if m.suite == suite]
        if rows:
            heading(suite)
            say(format_table(["case", "median", "min", "runs", "nodes", "nodes/s", "found"], rows))
    _print_summaries(say, heading, format_table, comparisons, agreement, targets)

    report = {
        "meta": meta,
        "measurements": [m.to_json() for m in measurements],
        "comparisons": [c.to_json() for c in comparisons],
        "agreement": [a.to_json() for a in agreement],
        "targets": [t.to_json() for t in targets],
    }
    if options.profile:
        _profile(cases, options, say)
    return report


def _profile(cases: Sequence[Case], options: Options, say: Any) -> None:
    import cProfile
    import io
    import pstats

    for case in (c for c in cases if c.side == "ours"):
        job = case.prepare()
        job()
        profiler = cProfile.Profile()
        profiler.enable()
        job()
        profiler.disable()
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("tottime").print_stats(options.profile_top)
        lines = [line for line in text.getvalue().splitlines() if line.strip()]
        say()
        say(f"== profile: {case.key} (cProfile, by own time) ==")
        for line in lines[2:]:
            say(line.replace(str(Path.cwd()) + os.sep, ""))


def main(argv: Sequence[str] | None = None) -> int:
    """The command: run, print, optionally write JSON; 1 with --check-targets on a miss."""
    options = parse_args(argv)
    report = run(options)
    if options.json:
        path = harness.write_json(options.json, report)
        print(f"\nresults written to {path}")
    if options.check_targets and any(t["met"] is False for t in report["targets"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
