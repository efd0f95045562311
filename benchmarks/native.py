"""The compiled Ayòayò kernel against the pure-Python engine and OpenSpiel, in one run.

Run: ``.venv/bin/python benchmarks/native.py`` (``--quick`` for a smoke run, ``--json PATH`` to
keep the figures, ``--tablebase 12`` to also build tablebase levels both ways, ``--only startup``
for the start-up figure alone, ``--baseline DIR`` to interleave it with another checkout's).
``make bench`` installs OpenSpiel; without it its column is skipped.

What it measures (the targets of issue 9), contenders interleaved round by round so a loaded
machine slows them alike, and ratios reported as median with their min-max spread:

1. nodes/s from the start: the kernel and the pure engine to depth 14 (the same search, so the
   time ratio is also "time to depth 14"), OpenSpiel's ``alpha_beta_search`` on its C++ oware
   to depth 10 (nodes counted in a separate instrumented run, as ``benchmarks/peers.py``).
2. the depth completed from the start within 1 s (kernel and pure engine).
3. values and optimal sets equal at every depth 1-16.
4. JIT start-up paid by a second process (numba's on-disk cache warm): a fresh interpreter's
   import plus first search, native minus pure; with ``--baseline`` the same for another
   checkout (say, the commit before a start-up change), its runs interleaved with these.
5. optionally a tablebase level built by the compiled and the pure builder: time, equal bytes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import harness, peers  # noqa: E402
from games.ayoayo import Ayoayo  # noqa: E402
from solver.engine import search  # noqa: E402

GAME = Ayoayo()


def _spread(values: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def _fmt(s: dict[str, float], digits: int = 1) -> str:
    return f"{s['median']:.{digits}f} (min {s['min']:.{digits}f}, max {s['max']:.{digits}f})"


def _timed(job: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    out = job()
    return time.perf_counter() - began, out


def nodes_per_second(rounds: int, depth: int, oware_depth: int) -> dict[str, Any]:
    """Round by round: the kernel, the pure engine and OpenSpiel oware, each once."""
    start = GAME.initial_state()
    search(GAME, start, depth=2)  # load the kernel (compile or cache) outside the timing
    try:
        oware = peers._openspiel_mancala("oware", oware_depth)
        oware_nodes: int | None = peers._openspiel_mancala_nodes("oware", oware_depth)
    except peers.PeerMissingError:
        oware, oware_nodes = None, None
    rows: dict[str, list[float]] = {"native": [], "pure": [], "oware": []}
    ratios: dict[str, list[float]] = {"native/pure": [], "native/oware": [], "time pure/native": []}
    seconds: dict[str, list[float]] = {"native": [], "pure": []}
    for _ in range(rounds):
        tn, fast = _timed(lambda: search(GAME, start, depth=depth))
        tp, pure = _timed(lambda: search(GAME, start, depth=depth, native=False))
        assert (fast.value, fast.best_actions) == (pure.value, pure.best_actions)
        rows["native"].append(fast.stats.nodes / tn)
        rows["pure"].append(pure.stats.nodes / tp)
        seconds["native"].append(tn)
        seconds["pure"].append(tp)
        ratios["native/pure"].append(rows["native"][-1] / rows["pure"][-1])
        ratios["time pure/native"].append(tp / tn)
        if oware is not None and oware_nodes is not None:
            to, _ = _timed(oware)
            rows["oware"].append(oware_nodes / to)
            ratios["native/oware"].append(rows["native"][-1] / rows["oware"][-1])
    return {
        "depth": depth,
        "oware_depth": oware_depth,
        "nodes_per_second": {k: _spread(v) for k, v in rows.items() if v},
        "seconds": {k: _spread(v) for k, v in seconds.items()},
        "ratios": {k: _spread(v) for k, v in ratios.items() if v},
    }


def depth_in_one_second(rounds: int) -> dict[str, Any]:
    """The deepest depth completed from the start within 1 s, interleaved."""
    start = GAME.initial_state()
    depths: dict[str, list[float]] = {"native": [], "pure": []}
    for _ in range(rounds):
        depths["native"].append(search(GAME, start, time_limit=1.0).depth or 0)
        depths["pure"].append(search(GAME, start, time_limit=1.0, native=False).depth or 0)
    return {k: _spread(v) for k, v in depths.items()}


def values_agree(up_to: int) -> dict[str, Any]:
    """Value and optimal set at every depth 1..up_to, both ways."""
    start = GAME.initial_state()
    rows = []
    for d in range(1, up_to + 1):
        tn, fast = _timed(lambda d=d: search(GAME, start, depth=d))
        tp, pure = _timed(lambda d=d: search(GAME, start, depth=d, native=False))
        rows.append(
            {
                "depth": d,
                "value": fast.value,
                "equal": fast.value == pure.value and fast.best_actions == pure.best_actions,
                "native_s": round(tn, 4),
                "pure_s": round(tp, 4),
            }
        )
    return {"all_equal": all(r["equal"] for r in rows), "depths": rows}


_STARTUP = """
import time
began = time.perf_counter()
from games.ayoayo import Ayoayo
from solver.engine import search
game = Ayoayo()
search(game, game.initial_state(), depth=3, native={native})
print(time.perf_counter() - began)
"""


_NUMBA_IMPORT = """
import time
from games.ayoayo import Ayoayo
from solver.engine import search
began = time.perf_counter()
import numba
print(time.perf_counter() - began)
"""


def _fresh(root: Path, code: str) -> float:
    """Run ``code`` in a fresh interpreter in ``root`` (its packages first); the time it prints."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip())


def _first_search(root: Path, native: bool) -> float:
    """A fresh interpreter's import and first search, run in ``root``."""
    return _fresh(root, _STARTUP.format(native=native))


def startup(rounds: int, baseline: Path | None = None) -> dict[str, Any]:
    """A fresh interpreter's import and first search: native minus pure (cache warm).

    With ``baseline`` (another checkout of the project), each round also runs it, so the two
    figures are taken side by side on a machine whose load changes. Each round also times a
    bare ``import numba`` after the project's own imports: the floor of the extra time.
    """
    roots = {"": ROOT} if baseline is None else {"": ROOT, "baseline_": baseline.resolve()}
    for root in roots.values():
        _first_search(root, True)  # warm numba's on-disk cache
    figures: dict[str, list[float]] = {}
    for _ in range(rounds):
        for prefix, root in roots.items():
            native = _first_search(root, True)
            pure = _first_search(root, False)
            figures.setdefault(f"{prefix}native_first_search_s", []).append(native)
            figures.setdefault(f"{prefix}extra_s", []).append(native - pure)
        figures.setdefault("numba_import_s", []).append(_fresh(ROOT, _NUMBA_IMPORT))
        if baseline is not None:  # paired within the round: the saving, load for load
            saved = figures["baseline_extra_s"][-1] - figures["extra_s"][-1]
            figures.setdefault("saved_vs_baseline_s", []).append(saved)
    report: dict[str, Any] = {"rounds": rounds}
    report.update({k: _spread(v) for k, v in figures.items()})
    if baseline is not None:
        report["baseline"] = str(baseline)
    return report


def _print_startup(up: dict[str, Any]) -> None:
    first = _fmt(up["native_first_search_s"], 2)
    print(f"\n4. second process, import + first search: native {first} s")
    print(f"   extra over pure Python: {_fmt(up['extra_s'], 2)} s")
    print(f"   of which numba's bare import: {_fmt(up['numba_import_s'], 2)} s")
    if "baseline_extra_s" in up:
        print(f"   baseline {up['baseline']}: extra {_fmt(up['baseline_extra_s'], 2)} s")
        print(f"   saved, round by round: {_fmt(up['saved_vs_baseline_s'], 2)} s")


def tablebase_levels(up_to: int, rounds: int) -> dict[str, Any]:
    """Level ``up_to`` built by the compiled and the pure builder, interleaved round by round.

    The levels below are built once (compiled) and copied into each round's fresh directory;
    both builders run in this process (no worker pool), so the ratio is per core. Every
    round's values and distances are compared byte for byte.
    """
    import shutil

    from games.ayoayo.native_tablebase import KERNEL
    from games.ayoayo.tablebase_build import PURE, build
    from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path

    times: dict[str, list[float]] = {"compiled": [], "pure": []}
    equal = True
    with tempfile.TemporaryDirectory() as base:
        if up_to > 0:
            build(up_to - 4, base, kernel=KERNEL)
        for _ in range(rounds):
            built = {}
            for name, kernel in (("compiled", KERNEL), ("pure", PURE)):
                directory = Path(base) / name
                shutil.rmtree(directory, ignore_errors=True)
                shutil.copytree(base, directory, ignore=shutil.ignore_patterns("compiled", "pure"))
                (report,) = [r for r in build(up_to, directory, kernel=kernel) if r.built]
                times[name].append(report.seconds or 0.0)
                built[name] = directory
            equal &= all(
                level_path(built["compiled"], up_to, kind).read_bytes()
                == level_path(built["pure"], up_to, kind).read_bytes()
                for kind in (VALUES, DISTANCES)
            )
    ratios = [p / c for p, c in zip(times["pure"], times["compiled"], strict=True)]
    return {
        "level": up_to,
        "rounds": rounds,
        "compiled_s": _spread(times["compiled"]),
        "pure_s": _spread(times["pure"]),
        "ratio": _spread(ratios),
        "equal_bytes": equal,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (small depths)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--tablebase", type=int, default=0, help="build level N both ways, interleaved"
    )
    parser.add_argument(
        "--only",
        choices=["startup", "tablebase"],
        help="measure only this part (startup: item 4; tablebase: item 5, with --tablebase N)",
    )
    parser.add_argument(
        "--startup-rounds", type=int, default=9, help="fresh-process rounds for item 4"
    )
    parser.add_argument(
        "--baseline", type=Path, help="another checkout whose start-up is measured alongside"
    )
    options = parser.parse_args()
    quick = options.quick
    rounds = 2 if quick else options.rounds
    report: dict[str, Any] = {"machine_load": list(_load())}
    print(f"load average at start: {report['machine_load']}")
    if options.only is None:
        _search_figures(report, quick, rounds)
    if options.only in (None, "startup"):
        up = startup(2 if quick else options.startup_rounds, options.baseline)
        report["startup"] = up
        _print_startup(up)
    if options.tablebase and options.only in (None, "tablebase"):
        tb = tablebase_levels(options.tablebase, 2 if quick else min(rounds, 3))
        report["tablebase"] = tb
        print(f"\n5. tablebase level {tb['level']}, {tb['rounds']} rounds, one process each:")
        print(f"   compiled {_fmt(tb['compiled_s'], 2)} s, pure {_fmt(tb['pure_s'], 1)} s")
        print(f"   pure / compiled: {_fmt(tb['ratio'])}; equal bytes: {tb['equal_bytes']}")
    report["machine_load_end"] = list(_load())
    print(f"\nload average at end: {report['machine_load_end']}")
    if options.json:
        harness.write_json(options.json, report)


def _search_figures(report: dict[str, Any], quick: bool, rounds: int) -> None:
    """Items 1-3: nodes/s, depth in 1 s, values equal (into ``report``, and printed)."""
    nps = nodes_per_second(rounds, 8 if quick else 14, 6 if quick else 10)
    report["nodes_per_second"] = nps
    print(f"\n1. nodes/s from the start, depth {nps['depth']} (oware depth {nps['oware_depth']})")
    for k, v in nps["nodes_per_second"].items():
        print(f"   {k:8s} {_fmt({x: y / 1e6 for x, y in v.items()}, 2)} M nodes/s")
    for k, v in nps["ratios"].items():
        print(f"   {k:18s} {_fmt(v)}")
    d1 = depth_in_one_second(2 if quick else 3)
    report["depth_in_1s"] = d1
    native_d, pure_d = _fmt(d1["native"], 0), _fmt(d1["pure"], 0)
    print(f"\n2. depth completed in 1 s: native {native_d}, pure {pure_d}")
    agree = values_agree(8 if quick else 16)
    report["values_agree"] = agree
    print(f"\n3. values and optimal sets equal at depths 1-{len(agree['depths'])}: ", end="")
    print(agree["all_equal"])


def _load() -> tuple[float, ...]:
    import os

    return tuple(round(x, 1) for x in os.getloadavg())


if __name__ == "__main__":
    main()
