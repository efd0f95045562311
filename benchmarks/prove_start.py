"""Proving Ayòayò's start: the proof's cost with tablebase levels up to each height, against
``analyse``'s node rate, the certificate's size and how long checking it takes.

Usage (from the project root; levels built in ``--dir``, by default the user cache)::

    .venv/bin/python benchmarks/prove_start.py --caps 20 16 12 --rounds 3 \\
        --json docs/data/proof-start.json

For each cap (the highest tablebase level the proof may use) and round, in turns (the
machine's load drifts): the start's value proved from scratch (a fresh table; the engine's
short guess included), its nodes and seconds, the certificate written and then checked by
``solver.certificate.verify`` with the rules and the tablebase alone. A proof that short is
mostly set-up, so the node rate is measured apart: rounds of ``--rate-seconds`` of the
start's test without tablebases, each beside ``analyse``'s search of the start for as long.
Medians and ranges are printed and kept in the JSON record. Also: each first move's exact
value, proved with the top cap.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ayoayo_levels import linked_levels, needed_levels
from games.ayoayo import Ayoayo
from games.ayoayo.proof import ProofStopped, Prover
from games.ayoayo.tablebase import Tablebase
from solver.certificate import read_certificate, verify, write_certificate
from solver.engine import search


def one_round(game: Ayoayo, tablebase: Tablebase, scratch: Path) -> dict[str, Any]:
    start = game.initial_state()
    prover = Prover(game, tablebase)
    began = time.perf_counter()
    result = prover.value(start)
    proof_seconds = time.perf_counter() - began
    began = time.perf_counter()
    cert = prover.certificate(start, result)
    extract_seconds = time.perf_counter() - began
    path = scratch / "start.cert.gz"
    digest = write_certificate(path, cert)
    began = time.perf_counter()
    checked = verify(
        game, read_certificate(path), oracle=tablebase, check_provenance=tablebase.check_provenance
    )
    verify_seconds = time.perf_counter() - began
    engine = search(game, start, time_limit=max(proof_seconds, 0.5), oracle=tablebase)
    return {
        "value": result.value,
        "nodes": result.nodes,
        "seconds": proof_seconds,
        "depth": result.depth,
        "rate": result.nodes / proof_seconds,
        "extract_seconds": extract_seconds,
        "certificate_bytes": path.stat().st_size,
        "certificate_positions": checked.positions,
        "leaves": dict(checked.leaves),
        "cycles": checked.cycles,
        "verify_seconds": verify_seconds,
        "verified_value": None if checked.value is None else int(checked.value),
        "sha256": digest,
        "analyse_rate": engine.stats.nodes / engine.stats.seconds,
        "analyse_depth": engine.depth,
    }


def rate_round(game: Ayoayo, seconds: float) -> dict[str, float]:
    """The node rates of a long proof and of ``analyse``'s search, both without tablebases
    (so neither is a few milliseconds of set-up): the start's test ``>= -4`` stopped after
    ``seconds``, and the engine's search of the start for as long."""
    start = game.initial_state()
    prover = Prover(game, None)
    began = time.perf_counter()
    with contextlib.suppress(ProofStopped):
        prover.holds(start, -4, deadline=time.monotonic() + seconds)
    proof_rate = prover.nodes / (time.perf_counter() - began)
    engine = search(game, start, time_limit=seconds)
    analyse_rate = engine.stats.nodes / engine.stats.seconds
    return {"proof": proof_rate, "analyse": analyse_rate, "ratio": proof_rate / analyse_rate}


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--caps", type=int, nargs="+", default=[20, 16, 12])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", help="where the levels are (default: the user cache)")
    parser.add_argument(
        "--rate-seconds", type=float, default=10.0, help="length of each node-rate round"
    )
    parser.add_argument("--json", help="write the record here")
    args = parser.parse_args(argv)
    game = Ayoayo()
    game.compile_kernels()
    source = needed_levels(game, args.dir, args.caps)
    if source is None:
        return 2
    record: dict[str, Any] = {"machine": f"{os.cpu_count()} cores", "load": os.getloadavg()}
    runs: dict[int, list[dict[str, Any]]] = {c: [] for c in args.caps}
    with tempfile.TemporaryDirectory() as scratch:
        tables = {
            c: linked_levels(game, source, Path(scratch) / f"cap-{c}", c + 1) for c in args.caps
        }
        for r in range(args.rounds):
            for cap in args.caps if r % 2 == 0 else reversed(args.caps):
                run = one_round(game, tables[cap], Path(scratch))
                runs[cap].append(run)
                print(
                    f"round {r + 1} levels to {cap}: value {run['value']} in {run['seconds']:.2f} s"
                    f" ({run['nodes']:,} nodes, {run['rate'] / 1e6:.2f} M/s; analyse "
                    f"{run['analyse_rate'] / 1e6:.2f} M/s), certificate "
                    f"{run['certificate_bytes']:,} bytes, {run['certificate_positions']:,} "
                    f"positions, verified in {run['verify_seconds']:.2f} s",
                    flush=True,
                )
        rates = []
        for r in range(args.rounds):
            rates.append(rate_round(game, args.rate_seconds))
            print(
                f"rate round {r + 1}: proof {rates[-1]['proof'] / 1e6:.2f} M nodes/s, analyse "
                f"{rates[-1]['analyse'] / 1e6:.2f} M nodes/s",
                flush=True,
            )
        record["rates"] = {"runs": rates, "ratio": summary([q["ratio"] for q in rates])}
        top = tables[max(args.caps)]
        prover = Prover(game, top)
        start = game.initial_state()
        moves = {str(a): prover.value(game.result(start, a)).value for a in game.actions(start)}
    record["load_after"] = os.getloadavg()
    record["first_moves"] = moves
    record["caps"] = {
        str(cap): {
            "runs": rs,
            "seconds": summary([r["seconds"] for r in rs]),
            "nodes": summary([r["nodes"] for r in rs]),
            "rate_ratio": summary([r["rate"] / r["analyse_rate"] for r in rs]),
            "verify_seconds": summary([r["verify_seconds"] for r in rs]),
        }
        for cap, rs in runs.items()
    }
    print("first moves:", moves)
    for cap, data in record["caps"].items():
        s, q = data["seconds"], data["rate_ratio"]
        print(
            f"levels to {cap}: {s['median']:.2f} s ({s['min']:.2f}-{s['max']:.2f}); node rate "
            f"{q['median']:.2f}x analyse's ({q['min']:.2f}-{q['max']:.2f})"
        )
    q = record["rates"]["ratio"]
    print(
        f"node rate of a long proof: {q['median']:.2f}x analyse's ({q['min']:.2f}-{q['max']:.2f})"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
