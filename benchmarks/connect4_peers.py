"""Connect Four: our exact values against OpenSpiel's alpha-beta, on the same positions, in one run.

Run (from the project root; ``make bench`` installs OpenSpiel)::

    .venv/bin/python benchmarks/connect4_peers.py                      # the test sample
    .venv/bin/python benchmarks/connect4_peers.py FILE... --cap 10 --rounds 3 --json out.json

Each FILE holds positions in Pascal Pons's benchmark format (``<moves> <score>`` a line, the
moves as columns 1-7 from the start, the score from the view of the player to move; ``#``
lines skipped), as ``gamesolver scores`` reads them; by default the sample of
``tests/data/connect4_scores.txt``. Each position is solved for its win/draw/loss value by

* ours: :class:`solver.exact_values.ExactValues` on ``ConnectFour()`` (the compiled route, one
  kernel entry a position, what ``gamesolver scores connect4`` runs; the kernel is loaded or
  compiled before the first position and never timed);
* OpenSpiel: ``open_spiel.python.algorithms.minimax.alpha_beta_search`` on its C++
  ``connect_four``, maximising for the player to move (its Python alpha-beta: no
  transposition table, moves in column order), the peer the issue names.

Both sides run on each position in a random order (seeded), so a loaded machine slows them
alike; times are CPU seconds of this process (``time.process_time``). Each answer is checked:
both values equal the sign of the file's score. OpenSpiel is stopped after ``--cap`` seconds
of wall time a position (an alarm interrupts it: a CPU-time timer would coarsen this process's
CPU clock to the kernel's tick on some systems); a stopped position counts its time so far,
so its figures are then lower bounds and the count of stopped positions is given. Reported per
file and round: both sides' mean and median seconds a position, and the per-position ratio
OpenSpiel ÷ ours (its median and range over the positions OpenSpiel finished); over the
``--rounds`` rounds the median of each figure with its range.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import PeerMissingError  # noqa: E402
from benchmarks.peers import _import  # noqa: E402
from games.connect4 import ConnectFour  # noqa: E402
from solver.exact_values import ExactValues  # noqa: E402
from solver.game import GameError  # noqa: E402
from solver.output import OutputError, atomic_path, check_output  # noqa: E402
from zerosum.commands.scores import read_positions  # noqa: E402
from zerosum.console import UsageError  # noqa: E402
from zerosum.options import positive_float, positive_int  # noqa: E402

GAME = ConnectFour()
SAMPLE = ROOT / "tests" / "data" / "connect4_scores.txt"


class _Stopped(Exception):
    """OpenSpiel's search ran past its cap."""


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


class Peer(Protocol):
    """A solver of the other side: the mover's win/draw/loss value of a move string."""

    def value(self, moves: str, cap: float) -> int | None: ...


class OpenSpiel:
    """OpenSpiel's Python alpha-beta on its C++ Connect Four."""

    def __init__(self) -> None:
        self.pyspiel = _import("pyspiel", "openspiel")
        self.minimax = _import("open_spiel.python.algorithms.minimax", "openspiel")
        self.game = self.pyspiel.load_game("connect_four")

    def state(self, moves: str) -> Any:
        state = self.game.new_initial_state()
        for column in moves:
            state.apply_action(int(column) - 1)
        return state

    def value(self, moves: str, cap: float) -> int | None:
        """The mover's win/draw/loss value (1, 0, -1), None when stopped after ``cap``
        seconds of wall time."""
        state = self.state(moves)
        mover = state.current_player()
        previous = signal.signal(signal.SIGALRM, _stop)
        signal.setitimer(signal.ITIMER_REAL, cap)
        try:
            value, _ = self.minimax.alpha_beta_search(
                self.game, state=state, maximizing_player_id=mover
            )
        except _Stopped:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return _sign(value)


def timed(call: Any) -> tuple[float, Any]:
    began = time.process_time()
    result = call()
    return time.process_time() - began, result


def one_round(
    positions: list[tuple[int, str, Any, Any]],
    ours: ExactValues,
    peer: Peer,
    cap: float,
    rng: random.Random,
    where: str,
) -> dict[str, Any]:
    """Every position of a file solved by both sides, in a random order per position."""
    seconds: dict[str, list[float]] = {"ours": [], "openspiel": []}
    ratios: list[float] = []
    stopped = 0
    for number, moves, state, given in positions:
        spent: dict[str, float] = {}
        answers: dict[str, int | None] = {}
        for side in rng.sample(["ours", "openspiel"], 2):
            if side == "ours":
                t, value = timed(lambda s=state: ours.value(s))
                answers[side] = _sign(value) * (1 if GAME.to_move(state) == 0 else -1)
            else:
                t, answers[side] = timed(lambda m=moves: peer.value(m, cap))
            spent[side] = t
            seconds[side].append(t)
        if given is not None and answers["ours"] != _sign(given):
            raise SystemExit(f"{where}:{number}: ours {answers['ours']}, the file {given}")
        if answers["openspiel"] is None:
            stopped += 1
        elif answers["openspiel"] != answers["ours"]:
            raise SystemExit(
                f"{where}:{number}: OpenSpiel {answers['openspiel']}, ours {answers['ours']}"
            )
        else:
            ratios.append(spent["openspiel"] / max(spent["ours"], 1e-9))
    return {
        "mean": {side: statistics.mean(t) for side, t in seconds.items()},
        "median": {side: statistics.median(t) for side, t in seconds.items()},
        "ratio_median": statistics.median(ratios) if ratios else None,
        "ratio_range": [min(ratios), max(ratios)] if ratios else None,
        "openspiel_stopped": stopped,
    }


def _median_range(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Over the rounds: the median of each figure with its range."""
    out: dict[str, Any] = {"rounds": len(rounds)}
    for figure in ("mean", "median"):
        out[figure] = {
            side: _median_range([r[figure][side] for r in rounds]) for side in ("ours", "openspiel")
        }
    ratios = [r["ratio_median"] for r in rounds if r["ratio_median"] is not None]
    out["ratio_median"] = _median_range(ratios) if ratios else None
    lows = [r["ratio_range"][0] for r in rounds if r["ratio_range"]]
    highs = [r["ratio_range"][1] for r in rounds if r["ratio_range"]]
    out["ratio_range"] = [min(lows), max(highs)] if lows else None
    out["openspiel_stopped"] = max(r["openspiel_stopped"] for r in rounds)
    return out


def line(name: str, found: dict[str, Any], cap: float) -> str:
    """One file's figures in a line."""
    ratio = found["ratio_median"]
    return (
        f"{name}: {found['positions']} positions; ours mean "
        f"{found['mean']['ours']['median'] * 1e6:,.0f} µs, median "
        f"{found['median']['ours']['median'] * 1e6:,.0f} µs; OpenSpiel mean "
        f"{found['mean']['openspiel']['median'] * 1e3:,.1f} ms, median "
        f"{found['median']['openspiel']['median'] * 1e3:,.1f} ms"
        + (
            f" ({found['openspiel_stopped']} stopped at {cap:g} s)"
            if found["openspiel_stopped"]
            else ""
        )
        + (
            f"; OpenSpiel ÷ ours a position: {ratio['median']:,.0f}x "
            f"({found['ratio_range'][0]:,.0f}-{found['ratio_range'][1]:,.0f})"
            if ratio
            else ""
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", default=[SAMPLE])
    parser.add_argument(
        "--cap", type=positive_float, default=10.0, help="OpenSpiel's wall seconds a position"
    )
    parser.add_argument("--rounds", type=positive_int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    try:
        if args.json:
            check_output(args.json, overwrite=True)  # before the run, not after it
        figures = run(args)
        if args.json:
            with atomic_path(args.json, overwrite=True) as path:
                path.write_text(json.dumps(figures, indent=2) + "\n")
    except (GameError, UsageError, OutputError, PeerMissingError) as error:
        print(f"connect4_peers: error: {error}", file=sys.stderr)
        return 2
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every file of ``args.files`` solved by both sides, ``args.rounds`` times: the figures."""
    peer = OpenSpiel()
    ours = ExactValues(GAME)
    rng = random.Random(args.seed)
    figures: dict[str, Any] = {"compiled": ours.compiled, "cap_seconds": args.cap, "files": {}}
    for path in args.files:
        positions = read_positions(GAME, path)
        for _, _, state, _ in positions[:3]:  # a process's first searches pay first calls
            ours.value(state)
        rounds = [
            one_round(positions, ours, peer, args.cap, rng, str(path)) for _ in range(args.rounds)
        ]
        found = summary(rounds)
        found["positions"] = len(positions)
        figures["files"][path.name] = found
        print(line(path.name, found, args.cap))
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
