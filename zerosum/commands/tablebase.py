"""``gamesolver tablebase``: build, list and probe a game's endgame tablebase.

``build GAME --seeds N`` builds every missing level up to N seeds on the board (a line per
level; resumable: levels already built are kept; Ctrl-C leaves no half-built level);
``info GAME`` lists the levels present; ``probe GAME --position P`` gives a position's exact
value and its value-keeping moves; ``plan GAME --seeds N`` what building up to N costs
(positions, disk, memory, core-hours). ``--dir`` overrides the directory. ``build --memory
SIZE`` (or ``--out-of-core``) builds each level in partitions on disk within SIZE of memory.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, cast

import attrs

from solver.engine import search
from solver.game import CapabilityError, EndgameTablebase, HasTablebase, HasTablebaseBuilds
from solver.quoting import quote
from solver.resources import available_memory, parse_size
from solver.workers import WorkerPool
from zerosum.console import EXIT_GAME_ERROR, EXIT_OK, Io, UsageError
from zerosum.moves import move_rows, print_answer, result_json
from zerosum.options import (
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_int,
    positive_rate,
    whole_number,
)
from zerosum.report import board_lines, json_num, outcome
from zerosum.tablebases import SOURCE, check_directory, coverage_json
from zerosum.worker_counts import checked_workers, dask_client

NAME = "tablebase"
ALIASES: tuple[str, ...] = ("tb",)
HELP = "build, list and probe endgame tablebases (games that have them, e.g. ayoayo)"


def add_arguments(tablebase: argparse.ArgumentParser) -> None:
    """The actions of ``gamesolver tablebase``: build, info and probe."""
    actions = tablebase.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build the missing levels up to --seeds N")
    game_arguments(build)
    build.add_argument(
        "--seeds",
        type=_seeds,
        required=True,
        metavar="N",
        help="the largest level: seeds on the board, a multiple of 4 (with the fast extra: "
        "16 in ~20 s, 20 in ~3 min with 10 GB of memory)",
    )
    build.add_argument(
        "--workers",
        type=positive_int,
        metavar="W",
        help="processes generating moves (default and most: the CPUs, fewer if memory is short)",
    )
    build.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="build on a Dask cluster, e.g. tcp://scheduler:8786 (needs the cluster extra): "
        "the moves only, the levels solved and written here; with --memory and a --scratch "
        "every worker sees, each partition's whole work runs on the workers",
    )
    build.add_argument(
        "--memory",
        type=_size,
        metavar="SIZE",
        help="build each level out of core, in partitions on disk, within SIZE of memory "
        "(e.g. 8G; the same files; needs the fast extra)",
    )
    build.add_argument(
        "--out-of-core",
        action="store_true",
        help="build out of core within half the memory available (what --memory sets)",
    )
    build.add_argument(
        "--scratch",
        metavar="DIR",
        help="where an out-of-core build keeps its partitions (default: the tablebase "
        "directory); a rerun resumes there",
    )
    build.add_argument(
        "--no-checkpoints",
        action="store_true",
        help="an out-of-core build without checkpoints between rounds: a few percent faster, "
        "but a killed build resumes at the start of a group's pass, not at its last round",
    )
    plan = actions.add_parser(
        "plan", help="what building up to --seeds N costs: positions, disk, memory, core-hours"
    )
    game_arguments(plan)
    plan.add_argument("--seeds", type=_seeds, required=True, metavar="N", help="the largest level")
    plan.add_argument(
        "--memory", type=_size, metavar="SIZE", help="memory a worker has (default: this machine's)"
    )
    plan.add_argument(
        "--rate",
        type=positive_rate,
        metavar="R",
        help="positions per core-second (default: measured from the levels built in --dir)",
    )
    plan.add_argument(
        "--cores", type=positive_int, metavar="C", help="cores of the cluster, for the hours"
    )
    info = actions.add_parser("info", help="list the levels built, their sizes and build times")
    game_arguments(info)
    probe = actions.add_parser("probe", help="the exact value of a covered position")
    game_arguments(probe)
    position_argument(probe, required=True)
    extra_fields(probe)
    for sub in (build, info, probe, plan):
        sub.add_argument("--dir", metavar="DIR", help="the tablebase directory")
        sub.add_argument("--json", action="store_true", help="print JSON")


def _seeds(text: str) -> int:
    value = whole_number(text)
    if value is None or value % 4 or value > 48:
        raise argparse.ArgumentTypeError(
            f"invalid --seeds {quote(text)}: expected a multiple of 4 from 0 to 48 in ASCII "
            "digits (seeds on the board; captures take 4, and the board holds 48)"
        )
    return value


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"invalid size: {e}") from None


def _tablebase(game: Any, args: argparse.Namespace) -> EndgameTablebase:
    """The game's tablebase in ``--dir`` (or its default directory). Reading commands refuse
    a directory that is missing, not a directory or unreadable (a build makes a missing
    one); the default directory may be missing (nothing built yet)."""
    if not isinstance(game, HasTablebase):
        raise CapabilityError(
            f"game {game.name!r} has no endgame tablebase (solver.game.HasTablebase); "
            "ayoayo has one"
        )
    tablebase = game.tablebase(args.dir)
    if args.action in ("info", "probe") and (
        args.dir is not None or os.path.lexists(tablebase.directory)
    ):
        check_directory(tablebase.directory, "--dir" if args.dir else "tablebase directory", game)
    elif args.action == "plan" and args.dir is not None:
        check_directory(args.dir, "--dir", game)
    return tablebase


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver tablebase ACTION GAME``."""
    game = load(args)
    tablebase = _tablebase(game, args)
    if args.action == "build":
        return _build(game, tablebase, args, io)
    if args.action == "info":
        return _info(game, tablebase, args, io)
    if args.action == "plan":
        return _plan(_builds(game, "tablebase plan"), tablebase, args, io)
    return _probe(game, tablebase, args, io)


def _builds(game: Any, what: str) -> HasTablebaseBuilds:
    """The game's tablebase builds capability, or a clear error naming what needed it."""
    if not isinstance(game, HasTablebaseBuilds):
        raise CapabilityError(
            f"{what} needs a game that says how its tablebase is built and planned "
            f"(solver.game.HasTablebaseBuilds); {game.name!r} does not"
        )
    return game


def _build(game: Any, tablebase: EndgameTablebase, args: argparse.Namespace, io: Io) -> int:
    if args.dask is not None and args.workers is not None:
        raise UsageError("give --workers or --dask, not both: the cluster has its own workers")
    workers = checked_workers(args.workers)
    client = None if args.dask is None else dask_client(args.dask)
    options: dict[str, Any] = {}
    if args.no_checkpoints and args.memory is None and not args.out_of_core:
        raise UsageError(
            "--no-checkpoints goes with --memory SIZE or --out-of-core: an in-memory build "
            "has no rounds on disk to resume"
        )
    if args.memory is not None or args.out_of_core or args.scratch is not None:
        options["out_of_core"] = _out_of_core(game, tablebase, args, client)
    headed = False

    def progress(line: str) -> None:
        nonlocal headed
        if not headed:  # only once the build has passed its checks (memory, directory)
            headed = True
            io.print(f"building levels up to {args.seeds} seeds in {tablebase.directory}")
            io.print("(Ctrl-C stops; the levels already written are kept and a rerun resumes)")
        io.print(line)

    lines = None if args.json else progress
    builder = cast(Any, tablebase).build
    if client is not None:
        with client:
            reports = builder(args.seeds, executor=client.get_executor(), progress=lines, **options)
    elif workers > 1:
        # Our own workers: a dead one ends the build naming it; Ctrl-C, SIGTERM or any error
        # here ends them all; they exit by themselves if this process dies.
        with WorkerPool(workers, name="tablebase-worker") as pool:
            reports = builder(args.seeds, executor=pool, progress=lines, **options)
    else:
        reports = builder(args.seeds, progress=lines, **options)
    if args.json:
        io.json(
            {
                "directory": str(tablebase.directory),
                "levels": [
                    {
                        "seeds": r.seeds,
                        "positions": r.positions,
                        "built": bool(r.built),
                        "seconds": r.seconds,
                    }
                    for r in reports
                ],
            }
        )
    return EXIT_OK


def _out_of_core(
    game: Any, tablebase: EndgameTablebase, args: argparse.Namespace, client: Any
) -> Any:
    """The out-of-core builder the options ask for (the game's own); with ``--dask``, each
    partition's work runs on the cluster, in the shared ``--scratch``."""
    builds = _builds(game, "--memory, --out-of-core and --scratch")
    root = Path(args.scratch) if args.scratch is not None else Path(tablebase.directory)
    try:
        return builds.out_of_core_builder(
            root, memory=args.memory, checkpoints=not args.no_checkpoints, client=client
        )
    except CapabilityError as exc:
        raise UsageError(f"--memory and --out-of-core: {exc}") from None


def _plan(
    builds: HasTablebaseBuilds, tablebase: EndgameTablebase, args: argparse.Namespace, io: Io
) -> int:
    """Per level: positions, disk, memory per worker and core-hours; then the totals."""
    tablebase_plan = builds.tablebase_planner()
    memory = args.memory or (available_memory() or 1 << 32) // 2
    found = tablebase_plan.measured(tablebase.directory)
    fall = tablebase_plan.slowdown(found)
    at = 0
    if args.rate is not None:
        if not args.rate > 0:
            raise UsageError(f"invalid --rate {args.rate!r}: expected positions per second > 0")
        rate, source = args.rate, "given"
    elif found:
        best = max(found, key=lambda m: (m.out_of_core, m.seeds))
        rate, source, at = best.rate, f"measured at level {best.seeds}", best.seeds
    else:
        rate, source = tablebase_plan.DEFAULT_RATE, "the default (nothing measured here)"
    rows = tablebase_plan.plan(args.seeds, rate=rate, memory=memory, at=at, fall=fall)
    total = tablebase_plan.totals(rows)
    cores = args.cores or os.cpu_count() or 1
    checks = tablebase_plan.check(found)
    if args.json:
        io.json(
            {
                "rate": rate,
                "rate_source": source,
                "slowdown_per_level": fall,
                "memory": memory,
                "cores": cores,
                "levels": [attrs.asdict(r) for r in rows],
                "total": total,
                "hours": total["core_hours"] / cores,
                "check": [
                    {"seeds": n, "predicted_seconds": p, "measured_seconds": m}
                    for n, p, m in checks
                ],
            }
        )
        return EXIT_OK
    io.print(
        f"rate: {rate / 1e6:.2f} M positions per core-second ({source}), falling "
        f"{fall:.2f}x a level above it (measured between the levels built here)"
    )
    io.print(f"memory per worker: {memory / 1e9:.1f} GB")
    table = io.table(
        ">seeds", ">positions", ">level GB", ">scratch GB", ">partitions", ">worker GB", ">core-h"
    )
    for r in rows:
        table.add_row(
            str(r.seeds),
            f"{r.positions:,}",
            f"{r.level_bytes / 1e9:.2f}",
            f"{r.scratch_bytes / 1e9:.2f}",
            str(r.partitions),
            f"{r.worker_memory / 1e9:.2f}",
            f"{r.core_hours:.2f}",
        )
    io.print(table)
    io.print(
        f"total: {total['positions']:,.0f} positions, {total['core_hours']:,.1f} core-hours "
        f"({total['core_hours'] / cores:,.1f} h on {cores} cores), "
        f"{total['level_bytes'] / 1e12:.3f} TB of level files, "
        f"{total['scratch_bytes'] / 1e9:,.1f} GB of scratch for the largest level"
    )
    for n, predicted, seconds in checks:
        io.print(
            f"check: level {n} predicted {predicted:.1f} s from the level below, "
            f"measured {seconds:.1f} s"
        )
    return EXIT_OK


def _info(game: Any, tablebase: EndgameTablebase, args: argparse.Namespace, io: Io) -> int:
    rows = tablebase.info()
    if args.json:
        io.json({"game": game.name, "directory": str(tablebase.directory), "levels": rows})
        return EXIT_OK
    io.print(f"{game.name} tablebase in {tablebase.directory}")
    if not rows:
        io.print(
            f"no levels built; build some with: gamesolver tablebase build {game.name} --seeds 12"
        )
        return EXIT_OK
    table = io.table(">seeds", ">positions", ">bytes", ">build s", "values", "distances")
    for row in rows:
        seconds = row["seconds"]
        size = row["bytes"]
        table.add_row(
            str(row["seeds"]),
            f"{row['positions']:,}",
            "-" if size is None else f"{size:,}",
            "-" if seconds is None else f"{seconds:.1f}",
            row["values_state"],
            row["distances_state"],
        )
    io.print(table)
    states = {row[key]: row[f"{name}_state"] for row in rows for key, name in _KEYS}
    problems = [problem for problem in states if problem not in _GOOD]  # once each, in order
    for problem in problems:
        io.print(f"not used ({states[problem]}): {problem}")
    if any(states[problem] == "unreadable" for problem in problems):
        io.print("an unreadable file is not damaged: make it readable by this user")
    if any(states[problem] == "damaged" for problem in problems):
        top = max(row["seeds"] for row in rows)
        io.print(
            f"a build replaces what is damaged: gamesolver tablebase build {game.name} "
            f"--seeds {top}" + (f" --dir {quote(str(tablebase.directory))}" if args.dir else "")
        )
    return EXIT_OK


_GOOD = ("ok", "missing")
_KEYS = (("status", "values"), ("distances", "distances"))


def _probe(game: Any, tablebase: EndgameTablebase, args: argparse.Namespace, io: Io) -> int:
    """A covered position's exact answer, read as ``analyse`` reads it: each move's value and
    plies to the end (or endless play), the line to the end."""
    state = position(game, args)
    if game.is_terminal(state) or tablebase.probe(state) is None:
        covered = game.is_terminal(state)
        value = game.utility(state) if covered else None
        coverage = None if covered else coverage_json(tablebase, state)
        if args.json:
            io.json(
                {
                    "game": game.name,
                    "position": game.format_state(state),
                    "covered": covered,
                    "exact": covered,
                    "over": covered,
                    "value": json_num(value),
                    "outcome": None if value is None else outcome(game, value),
                }
                | ({} if coverage is None else {"coverage": coverage})
            )
            return EXIT_OK if covered else EXIT_GAME_ERROR
        for line in board_lines(game, state):
            io.print(line)
        if covered:
            return EXIT_OK
        if coverage is not None and coverage["status"] != "not built":
            io.print(f"not covered ({coverage['status']}): {coverage['reason']}")
            for unused in coverage["unused"]:
                if unused["reason"] not in coverage["reason"]:
                    io.print(f"not used ({unused['status']}): {unused['reason']}")
            io.print("no value given: a probe answers only from files that pass their checks")
            return EXIT_GAME_ERROR
        levels = ", ".join(map(str, tablebase.levels)) or "none"
        io.print(
            f"not covered (not built): the tablebase in {tablebase.directory} has levels "
            f"{levels} (seeds on the board, with captured counts that are multiples of 4)"
        )
        return EXIT_GAME_ERROR
    # The engine answers a covered root from its oracle at once (depth 1 bounds the rare case
    # of a child the levels present do not cover).
    result = search(game, state, depth=1, all_values=True, oracle=tablebase)
    rows = move_rows(game, state, result)
    exact = result.source == "oracle"
    if args.json:
        io.json(
            result_json(game, state, result, rows, covered=True, algorithm="tablebase")
            | {"exact": exact}
        )
        return EXIT_OK
    print_answer(io, game, state, result, rows, title="tablebase", source=SOURCE if exact else "")
    return EXIT_OK
