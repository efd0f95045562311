"""``gamesolver tablebase``: build, list and probe a game's endgame tablebase.

``build GAME --seeds N`` builds every missing level up to N seeds on the board (a line per
level; resumable: levels already built are kept; Ctrl-C leaves no half-built level);
``info GAME`` lists the levels present; ``probe GAME --position P`` gives a position's exact
value and its value-keeping moves. ``--dir`` overrides the directory.
"""

from __future__ import annotations

import argparse
from typing import Any, cast

from solver.engine import search
from solver.game import CapabilityError, EndgameTablebase, HasTablebase
from solver.quoting import quote
from solver.resources import available_memory, cpus
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
)
from zerosum.report import board_lines, json_num, outcome
from zerosum.tablebases import SOURCE

NAME = "tablebase"
ALIASES: tuple[str, ...] = ("tb",)
HELP = "build, list and probe endgame tablebases (ayoayo)"


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
        help="generate the moves on a Dask cluster, e.g. tcp://scheduler:8786 (needs the "
        "cluster extra; the levels are solved and written here)",
    )
    info = actions.add_parser("info", help="list the levels built, their sizes and build times")
    game_arguments(info)
    probe = actions.add_parser("probe", help="the exact value of a covered position")
    game_arguments(probe)
    position_argument(probe, required=True)
    extra_fields(probe)
    for sub in (build, info, probe):
        sub.add_argument("--dir", metavar="DIR", help="the tablebase directory")
        sub.add_argument("--json", action="store_true", help="print JSON")


def _seeds(text: str) -> int:
    value = positive_int(text) if text.strip() != "0" else 0
    if value % 4:
        raise argparse.ArgumentTypeError(
            f"invalid --seeds {text!r}: expected a multiple of 4 (captures take 4 seeds)"
        )
    return value


WORKER_BYTES = 100_000_000
"""The memory a build worker takes (measured: about 60 MB resident with the fast extra,
most of it the interpreter, numpy and numba; a block of moves adds a few MB)."""


def worker_limit() -> tuple[int, str]:
    """The most build workers this machine affords, and what bounds it (CPUs or memory)."""
    cores = cpus()
    have = available_memory()
    by_memory = cores if have is None else max(1, have // WORKER_BYTES)
    if by_memory < cores:
        return by_memory, f"the memory available ({(have or 0) / 1e9:.1f} GB) for workers"
    return cores, "the CPUs this process may use"


def _workers(asked: int | None) -> int:
    """``--workers``, checked against :func:`worker_limit`; the limit when not given."""
    limit, bound = worker_limit()
    if asked is None:
        return limit
    if asked > limit:
        raise UsageError(
            f"invalid --workers {asked}: expected 1 to {limit} ({bound}: more workers would "
            "only compete for them)"
        )
    return asked


def _dask_client(address: str) -> Any:
    """A Dask client connected to the scheduler at ``address`` (the cluster extra)."""
    try:
        import distributed
    except ImportError:
        raise UsageError(
            "--dask needs Dask's distributed scheduler: pip install 'zerosum[cluster]'"
        ) from None
    try:
        return cast(Any, distributed).Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(
            f"invalid --dask {quote(address)}: no Dask scheduler answered there ({e}); give its "
            "address, e.g. tcp://scheduler:8786"
        ) from None


def _tablebase(game: Any, args: argparse.Namespace) -> EndgameTablebase:
    if not isinstance(game, HasTablebase):
        raise CapabilityError(f"game {game.name!r} has no endgame tablebase; ayoayo has one")
    return game.tablebase(args.dir)


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver tablebase ACTION GAME``."""
    game = load(args)
    tablebase = _tablebase(game, args)
    if args.action == "build":
        return _build(tablebase, args, io)
    if args.action == "info":
        return _info(game, tablebase, args, io)
    return _probe(game, tablebase, args, io)


def _build(tablebase: EndgameTablebase, args: argparse.Namespace, io: Io) -> int:
    if args.seeds > 48:
        raise UsageError(f"invalid --seeds {args.seeds}: the board holds at most 48 seeds")
    if args.dask is not None and args.workers is not None:
        raise UsageError("give --workers or --dask, not both: the cluster has its own workers")
    workers = _workers(args.workers)
    client = None if args.dask is None else _dask_client(args.dask)
    headed = False

    def progress(line: str) -> None:
        nonlocal headed
        if not headed:  # only once the build has passed its checks (memory, directory)
            headed = True
            io.print(f"building levels up to {args.seeds} seeds in {tablebase.directory}")
            io.print("(Ctrl-C stops; the levels already written are kept and a rerun resumes)")
        io.print(line)

    lines = None if args.json else progress
    if client is not None:
        with client:
            reports = tablebase.build(args.seeds, executor=client.get_executor(), progress=lines)
    elif workers > 1:
        # Our own workers: a dead one ends the build naming it; Ctrl-C, SIGTERM or any error
        # here ends them all; they exit by themselves if this process dies.
        with WorkerPool(workers, name="tablebase-worker") as pool:
            reports = tablebase.build(args.seeds, executor=pool, progress=lines)
    else:
        reports = tablebase.build(args.seeds, progress=lines)
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
            _short(row["status"]),
            _short(row["distances"]),
        )
    io.print(table)
    problems = [
        row[key] for row in rows for key in ("status", "distances") if row[key] not in _GOOD
    ]
    for problem in problems:
        io.print(f"not used: {problem}")
    if problems:
        top = max(row["seeds"] for row in rows)
        io.print(
            f"a build replaces what is not used: gamesolver tablebase build {game.name} "
            f"--seeds {top}" + (f" --dir {quote(str(tablebase.directory))}" if args.dir else "")
        )
    return EXIT_OK


_GOOD = ("ok", "missing")


def _short(status: str) -> str:
    """A status for the table: ``ok``, ``missing`` or ``not used`` (the reason below it)."""
    return status if status in _GOOD else "not used"


def _probe(game: Any, tablebase: EndgameTablebase, args: argparse.Namespace, io: Io) -> int:
    """A covered position's exact answer, read as ``analyse`` reads it: each move's value and
    plies to the end (or endless play), the line to the end."""
    state = position(game, args)
    if game.is_terminal(state) or tablebase.probe(state) is None:
        covered = game.is_terminal(state)
        value = game.utility(state) if covered else None
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
            )
            return EXIT_OK if covered else EXIT_GAME_ERROR
        for line in board_lines(game, state):
            io.print(line)
        if covered:
            return EXIT_OK
        levels = ", ".join(map(str, tablebase.levels)) or "none"
        io.print(
            f"not covered: the tablebase in {tablebase.directory} has levels {levels} "
            "(seeds on the board, with captured counts that are multiples of 4)"
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
