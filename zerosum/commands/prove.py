"""``gamesolver prove``: a position's exact value settled by proof, and its certificate.

For a game with a proof search (:class:`solver.game.HasProofSearch`): the value proved from
both sides (what player 1 can force and what player 2 can hold), each first move's value with
``--moves``, and a certificate (:mod:`solver.certificate`) that ``gamesolver verify`` checks
with the rules alone. Proved positions are checkpointed in the user cache directory, so a
proof stopped by Ctrl-C, ``--time`` or a kill goes on from there when run again.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
from pathlib import Path
from typing import Any

from solver.book import OpeningBook, write_book
from solver.certificate import write_certificate
from solver.errors import CapabilityError
from solver.game import HasProofSearch, HasTablebase, format_action, format_state
from solver.quoting import quote
from solver.resources import cache_directory
from zerosum.console import EXIT_GAME_ERROR, EXIT_OK, Io, UsageError
from zerosum.options import (
    checked_output,
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_float,
    positive_int,
)
from zerosum.proving import ProofWatch, build_book, progress_json, proof_mapper
from zerosum.report import board_lines, outcome
from zerosum.tablebases import open_tablebase, tablebase_arguments
from zerosum.worker_counts import checked_workers, dask_client

NAME = "prove"
ALIASES: tuple[str, ...] = ()
HELP = "prove a position's exact value (weak solving) and write a certificate"

MAX_TABLE = 1 << 30
"""The largest --table (24 GB): a larger one would not fit this kind of machine."""


def proofs_directory() -> Path:
    """Where certificates and checkpoints go by default: ``gamesolver/proofs`` in the user
    cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    return cache_directory() / "proofs"


def add_arguments(prove: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver prove``."""
    game_arguments(prove)
    position_argument(prove)
    extra_fields(prove)
    prove.add_argument("--time", "-t", type=positive_float, metavar="S", help="stop after S s")
    prove.add_argument(
        "--moves", action="store_true", help="also prove each legal move's exact value"
    )
    prove.add_argument(
        "--out",
        "-o",
        metavar="FILE",
        help="write the certificate to FILE (default: a file named after the position in "
        f"{proofs_directory()})",
    )
    prove.add_argument("--force", "-f", action="store_true", help="replace an existing --out")
    prove.add_argument(
        "--book",
        metavar="FILE",
        help="also write an opening book of the position and every move, proved (what the "
        "game ships; see docs/solving.md)",
    )
    prove.add_argument(
        "--table",
        type=positive_int,
        metavar="N",
        help="entries of each threshold's table (default 4,194,304: 96 MB)",
    )
    prove.add_argument(
        "--no-checkpoint",
        action="store_true",
        help="neither read nor write the checkpoint of proved positions",
    )
    prove.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="worker processes, each testing root moves (default: 1, all in this process; "
        "workers pay off only on proofs of minutes: their start costs seconds)",
    )
    prove.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="test root moves on a Dask cluster, e.g. tcp://scheduler:8786 (needs the cluster "
        "extra; the workers must see the tablebase directory at the same path)",
    )
    tablebase_arguments(prove)
    prove.add_argument("--json", action="store_true", help="print JSON")


def _prover_of(game: Any) -> Any:
    """The game's ``prover`` factory.

    Raises:
        CapabilityError: the game has no proof search.
    """
    if not isinstance(game, HasProofSearch):
        raise CapabilityError(
            f"{game.name!r} has no proof search; `gamesolver solve {game.name}` proves every "
            "reachable state's value of a small game"
        )
    return game.prover


def _default_out(game: Any, state: Any) -> Path:
    digest = hashlib.sha256(format_state(game, state).encode()).hexdigest()[:12]
    return proofs_directory() / f"{game.name}-{digest}.cert.gz"


def _move_values(game: Any, state: Any, prover: Any, result: Any) -> dict[str, Any]:
    """--moves: each legal move's proved value (None: not settled), by name; nothing when the
    position's own value did not settle."""
    moves: dict[str, Any] = {}
    if result.value is None:
        return moves
    for action in game.actions(state):
        child = game.result(state, action)
        if game.is_terminal(child):
            moves[format_action(game, state, action)] = game.utility(child)
            continue
        found = prover.value(child, guess=result.value)
        moves[format_action(game, state, action)] = found.value
    return moves


def _write_book(
    args: argparse.Namespace, game: Any, state: Any, prover: Any, result: Any, tablebase: Any
) -> OpeningBook | None:
    """--book: the opening book of ``state`` and every move, proved, written to its file
    (None: no --book, or no value proved)."""
    if args.book is None or result.value is None:
        return None
    made = (
        f"gamesolver prove {game.name} --position {quote(format_state(game, state))} "
        f"--book FILE on {datetime.date.today().isoformat()}"
    )
    book = build_book(game, prover, state, result, tablebase, made=made)
    write_book(args.book, book, overwrite=args.force)
    return book


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver prove``: the value proved, each move's with ``--moves``, the certificate."""
    if args.dask is not None and args.workers is not None:
        raise UsageError("give --workers or --dask, not both: the cluster has its own workers")
    # One process unless asked: starting workers costs 1-3 s, more than most proofs take
    # (the start with levels to 20: 0.1 s alone, 1.5-2.8 s on two workers).
    workers = 1 if args.workers is None else checked_workers(args.workers)
    client = None if args.dask is None else dask_client(args.dask)
    try:
        with proof_mapper(workers, client) as mapper:
            return _prove(args, io, mapper)
    finally:
        if client is not None:
            client.close()


def _prove(args: argparse.Namespace, io: Io, mapper: Any) -> int:
    game = load(args)
    state = position(game, args)
    make_prover = _prover_of(game)
    if game.is_terminal(state):
        io.print(f"the game is over: {outcome(game, game.utility(state))}")
        return EXIT_OK
    if args.table is not None and args.table > MAX_TABLE:
        raise CapabilityError(f"--table {args.table:,} is too large; at most {MAX_TABLE:,}")
    out = args.out if args.out is not None else str(_default_out(game, state))
    if args.out is None:
        proofs_directory().mkdir(parents=True, exist_ok=True)
    checked_output(out, "--out", args.force or args.out is None)
    if args.book is not None:
        checked_output(args.book, "--book", args.force)
    tablebase = open_tablebase(game, args, io.warn)
    if tablebase is None and isinstance(game, HasTablebase) and not args.no_tablebase:
        io.warn(
            "warning: no tablebase levels: without them a proof can take very long (the "
            "proof of the start stands on them); build some first with `gamesolver tablebase "
            f"build {args.game} --seeds 16` (about 20 s)"
        )
    checkpoint = None if args.no_checkpoint else proofs_directory() / "checkpoints"
    shown = ProofWatch(io, quiet=args.json)
    prover = make_prover(
        tablebase,
        table_size=args.table,
        progress=shown.say,
        checkpoint=checkpoint,
        watch=shown,
        **({} if mapper is None else {"mapper": mapper}),
    )
    if not args.json:
        for line in board_lines(game, state):
            io.print(line)
        io.print()
        levels = "none" if tablebase is None else ", ".join(map(str, tablebase.levels))
        io.print(f"proving (tablebase levels: {levels})")
    try:
        result = prover.value(state, time_limit=args.time)
    except KeyboardInterrupt:
        prover.save()
        raise
    finally:
        shown.close()
    moves = _move_values(game, state, prover, result) if args.moves else {}
    digest = None
    size = None
    if result.value is not None:
        cert = prover.certificate(state, result)
        digest = write_certificate(out, cert)
        size = Path(out).stat().st_size
    book = _write_book(args, game, state, prover, result, tablebase)
    shown.close()
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "value": result.value,
                "lower": result.lower,
                "upper": result.upper,
                "outcome": None if result.value is None else outcome(game, result.value),
                "moves": moves or None,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 6),
                "depth": result.depth,
                "certificate": out if digest else None,
                "certificate_bytes": size,
                "sha256": digest,
                "book": None if book is None else args.book,
                "book_positions": None if book is None else len(book.values),
                **progress_json(prover, result),
            }
        )
        return EXIT_OK if result.value is not None else EXIT_GAME_ERROR
    io.print()
    rate = result.nodes / max(result.seconds, 1e-9)
    if result.value is None:
        bounds = [f"value >= {result.lower}"] if result.lower is not None else []
        bounds += [f"value <= {result.upper}"] if result.upper is not None else []
        proved = " and ".join(bounds) or "no bound yet"
        io.print(f"not settled: proved {proved} ({result.nodes:,} nodes)")
        kept = " to go on from the checkpoint" if prover.checkpoint_saved else ""
        io.print(f"run again (without --time, or longer){kept}")
        return EXIT_GAME_ERROR
    io.print(f"solved: {outcome(game, result.value)} (value {result.value}, proved both ways)")
    for name, value in moves.items():
        said = "not settled" if value is None else f"{value}: {outcome(game, value)}"
        io.print(f"  move {name}: {said}")
    io.print(
        f"{result.nodes:,} nodes in {result.seconds:.2f} s ({rate / 1e6:.2f} M nodes/s), "
        f"deepest iteration {result.depth}"
    )
    io.print(f"certificate: {out} ({size:,} bytes, sha256 {digest})")
    io.print(f"check it with: gamesolver verify {quote(out)}")
    if book is not None:
        io.print(f"opening book: {args.book} ({len(book.values):,} positions)")
    return EXIT_OK
