"""``gamesolver verify``: check a proof certificate with the game's rules alone.

Reads a certificate written by ``gamesolver prove`` (docs/solving.md has the format), loads
the game it names, and checks every claim with nothing of the search that wrote it: each
move legal and leading where it says, every move of the defending side answered, every leaf's
value (terminal by the rules, tablebase by the levels here, the same builds as the proof's)
on the right side of the bound, and every cycle of the graph scored by the endless-play rule
on the right side too. The first thing that does not hold is named, with its position.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from games import load_game
from solver.certificate import read_certificate, verify
from solver.errors import CertificateError
from solver.game import HasTablebase
from zerosum.console import EXIT_GAME_ERROR, EXIT_OK, Io
from zerosum.report import outcome
from zerosum.tablebases import open_tablebase, tablebase_arguments

NAME = "verify"
ALIASES: tuple[str, ...] = ()
HELP = "check a proof certificate (from `gamesolver prove`) with the rules alone"


def add_arguments(verify_: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver verify``."""
    verify_.add_argument("file", metavar="FILE", help="the certificate (.cert.gz or text)")
    tablebase_arguments(verify_)
    verify_.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver verify FILE``: what was checked, or the first claim that fails."""
    began = time.perf_counter()
    cert = read_certificate(args.file)
    game = load_game(cert.game)
    tablebase: Any = None
    if isinstance(game, HasTablebase) and not args.no_tablebase:
        tablebase = open_tablebase(game, args, io.warn)
    check = getattr(tablebase, "check_provenance", None)
    if cert.provenance and tablebase is None:
        raise CertificateError(
            f"{args.file!r} has tablebase leaves (levels "
            f"{', '.join(line.split()[0] for line in cert.provenance)}) and no tablebase is "
            "here; build them with `gamesolver tablebase build "
            f"{cert.game} --seeds {max(int(line.split()[0]) for line in cert.provenance)}`"
        )
    try:
        checked = verify(game, cert, oracle=tablebase, check_provenance=check)
    except CertificateError as e:
        if args.json:
            io.json({"file": args.file, "valid": False, "error": str(e)})
            return EXIT_GAME_ERROR
        raise
    seconds = time.perf_counter() - began
    value = checked.value
    if args.json:
        io.json(
            {
                "file": args.file,
                "valid": True,
                "game": cert.game,
                "position": cert.root,
                "value": None
                if value is None
                else int(value)
                if value.denominator == 1
                else str(value),
                "lower": None if checked.lower is None else str(checked.lower),
                "upper": None if checked.upper is None else str(checked.upper),
                "positions": checked.positions,
                "leaves": dict(checked.leaves),
                "cycles": checked.cycles,
                "seconds": round(seconds, 6),
            }
        )
        return EXIT_OK
    io.print(f"certificate {args.file}: valid")
    io.print(f"game {cert.game}, position {cert.root}")
    if value is not None:
        io.print(f"value {value}: {outcome(game, float(value))}, proved both ways")
    else:
        low = "-" if checked.lower is None else f">= {checked.lower}"
        high = "-" if checked.upper is None else f"<= {checked.upper}"
        io.print(f"bounds proved: {low}, {high}")
    leaves = ", ".join(f"{n:,} {kind}" for kind, n in sorted(checked.leaves.items()))
    io.print(
        f"checked {checked.positions:,} positions ({leaves} leaves, {checked.cycles:,} cycles) "
        f"in {seconds:.2f} s"
    )
    return EXIT_OK
