"""Connect Four on the compiled route against the pure-Python engine, in one run.

Run: ``.venv/bin/python benchmarks/connect4.py`` (``--rounds 5`` for more rounds, ``--quick``
for a smoke run, ``--json PATH`` to keep the figures).

What it measures, the two node searches interleaved round by round so a loaded machine slows
them alike (CPU seconds of this process, ``time.process_time``; the kernel's compile is paid
before the first round and reported apart, never counted in a search):

1. nodes/s: the same depth-limited searches from a few openings, compiled and pure Python
   (the same algorithm; on small searches the same tree, on these the tables' replacement
   differs a little, so both node counts are given), and the ratio of their nodes/s;
2. positions solved to the end (exact value, optimal moves and plies) in the style of
   Pascal Pons's benchmark sets: seeded random games stopped late ("end": 28-32 stones, as
   his End sets) and in the middle ("middle": 20-24 stones, as his Middle sets, compiled
   only, the pure search takes minutes), each answer checked equal across the two searches
   where both run. His files cannot be downloaded here, so these are not his positions and
   the figures are not comparable one to one with his published times;
3. the same kinds of positions solved for Pons's exact score on the scored game
   (``ConnectFour(scored=True)``: his scores as utilities, value only, no plies pass, as his
   solver searches), both searches interleaved in random order per position, the scores
   checked equal: mean, median, quartiles and max seconds per position.

4. the kernel with the solver's extras of its rules (safe moves, moves ordered by the winning
   cells they make, null windows: ``compiled_rules(..., pruned=True)``, the default) against
   the kernel without them (``pruned=False``: the kernel as it was before them), interleaved
   in random order per position, Pons's exact score of each position checked equal, on the
   middle positions of 3., on "begin" positions (10-14 stones, as his Begin sets: few
   stones, long searches) and on the end positions of 2. (28-32 stones, as his End sets: a
   handful of kernel nodes each, so their time is the engine's own around the kernel); each
   set's mean is set beside five times Pons's published mean on his set of that stage and
   the easy level (``pons_5x_seconds``: End-Easy 4.6 µs, Middle-Easy 37 µs, Begin-Easy
   255 µs; ours are random positions of every difficulty, not his, so the comparison is a
   guide, not a match); beside them the value-only entry (``values``:
   :class:`solver.exact_values.ExactValues`, what ``gamesolver scores`` runs: one kernel entry
   a position, none of the driver's passes), with its node counts (``values_nodes``); the
   kernel without the extras is stopped after ``--cap`` seconds
   of wall time a position (the count of those stopped is given; their CPU seconds until then
   count, so its figures are then lower bounds); then the value-only entry on each set again,
   position after position with nothing between (``values_in_a_row``: as ``gamesolver scores``
   runs a file and as Pons times his sets), ``--rounds`` times on the end and middle sets
   (once on the begin one): the median of the rounds' means and medians, with their range.
   ``--kernels`` runs this part alone.

5. ``--sets DIR``: the value-only entry on the six sets of Pons's benchmark, classified his way
   (:mod:`benchmarks.connect4_sets`: End-Easy, Middle-Easy, Middle-Medium, Begin-Easy,
   Begin-Medium, Begin-Hard), each set position after position as ``gamesolver scores`` runs a
   file, every score checked against the file's, ``--rounds`` times (once on the Begin-Medium
   and Begin-Hard sets, seconds a position): the median of the rounds' means and medians with
   their range, and the verdict per set against five times HIS mean on THAT set
   (``within_pons_5x``). ``DIR`` holds our files (``benchmarks/data/connect4``: ``end-easy.txt``
   ...) or Pons's own (``Test_L3_R1`` ... ``Test_L1_R3``, with or without ``.txt``);
   ``--positions N`` takes each file's first N positions (his hold 1,000 each). Alone, it runs
   only this part.

OpenSpiel's alpha-beta on the same positions is ``benchmarks/connect4_peers.py`` (win/draw/loss
values, both sides interleaved per position; OpenSpiel has no scored Connect Four).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.connect4_sets import SETS, PonsSet  # noqa: E402
from games.connect4 import ConnectFour, compiled_rules, pons_score  # noqa: E402
from solver.compiled import numba_available, prepare  # noqa: E402
from solver.engine import search  # noqa: E402
from solver.exact_values import ExactValues  # noqa: E402
from zerosum.commands.scores import read_positions  # noqa: E402
from zerosum.options import positive_int  # noqa: E402

GAME = ConnectFour()
SCORED = ConnectFour(scored=True)
OPENINGS = ["", "4", "44", "4453", "3344", "435"]
WARM = "44444433333321"
"""A late position solved once untimed by each kernel: a process's first search pays numba's
first calls."""


class PlainKernel(ConnectFour):
    """Scored Connect Four on the kernel without the solver's extras (the earlier kernel)."""

    def compiled_rules(self) -> Any:
        return compiled_rules(self.geometry.width, self.geometry.height, True, pruned=False)


PLAIN = PlainKernel(scored=True)


def positions(count: int, seed: int, least: int, most: int) -> list[int]:
    """Non-terminal positions after ``least`` to ``most`` random moves (seeded)."""
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(least, most)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state):
            found.append(state)
    return found


def timed(call: Any) -> tuple[float, Any]:
    began = time.process_time()
    result = call()
    return time.process_time() - began, result


def nodes_per_second(depth: int, rounds: int) -> dict[str, Any]:
    """Both searches to ``depth`` from the openings, interleaved: nodes/s and time ratios."""
    ratios: list[float] = []
    rates: dict[str, list[float]] = {"compiled": [], "python": []}
    for _ in range(rounds):
        seconds = {"compiled": 0.0, "python": 0.0}
        nodes = {"compiled": 0, "python": 0}
        for text in OPENINGS:
            state = GAME.parse_state(text) if text else GAME.initial_state()
            for side in random.sample(["compiled", "python"], 2):
                spent, result = timed(
                    lambda s=state, n=side: search(
                        GAME, s, depth=depth, plies=False, native=n == "compiled"
                    )
                )
                seconds[side] += spent
                nodes[side] += result.stats.nodes
        ratios.append(
            (nodes["compiled"] / seconds["compiled"]) / (nodes["python"] / seconds["python"])
        )
        for side in rates:
            rates[side].append(nodes[side] / seconds[side])
    return {
        "depth": depth,
        "nodes": dict(nodes),
        "nodes_per_second": {side: statistics.median(r) for side, r in rates.items()},
        "speedup_median": statistics.median(ratios),
        "speedup_range": [min(ratios), max(ratios)],
    }


def solved(states: list[int], sides: list[str]) -> dict[str, Any]:
    """Each position solved to the end by each side: mean seconds, answers checked equal."""
    times: dict[str, list[float]] = {side: [] for side in sides}
    for state in states:
        answers = []
        for side in sides:
            spent, result = timed(lambda n=side, s=state: search(GAME, s, native=n == "compiled"))
            assert result.exact
            times[side].append(spent)
            answers.append((result.value, set(result.best_actions), result.plies))
        assert all(answer == answers[0] for answer in answers), "the searches disagree"
    return {
        "positions": len(states),
        "mean_seconds": {side: statistics.mean(t) for side, t in times.items()},
        "max_seconds": {side: max(t) for side, t in times.items()},
    }


def scored(states: list[int]) -> dict[str, Any]:
    """Pons's exact score of each position on the scored game, both searches interleaved (in
    random order per position): seconds per position, the scores checked equal."""
    times: dict[str, list[float]] = {"compiled": [], "python": []}
    scores = []
    for state in states:
        found = {}
        for side in random.sample(["compiled", "python"], 2):
            spent, result = timed(
                lambda n=side, s=state: search(SCORED, s, plies=False, native=n == "compiled")
            )
            assert result.exact
            times[side].append(spent)
            found[side] = pons_score(SCORED, state, result.value, None)
        assert found["compiled"] == found["python"], "the searches disagree"
        scores.append(found["compiled"])

    return {
        "positions": len(states),
        "seconds": {side: spread(t) for side, t in times.items()},
        "scores": scores,
    }


def spread(t: list[float]) -> dict[str, float]:
    q = statistics.quantiles(t, n=4) if len(t) > 1 else [t[0]] * 3
    return {"mean": statistics.mean(t), "median": q[1], "q1": q[0], "q3": q[2], "max": max(t)}


PONS_EASY_SECONDS = {s.level: s.pons_seconds for s in SETS if s.rating == "easy"}
"""Pascal Pons's published mean time a position of his End-, Middle- and Begin-Easy sets (his
C++ solver, his machine): the issue's target is within five times these."""


def values_in_a_row(
    states: list[int], values: ExactValues, scores: list[int], rounds: int
) -> dict[str, Any]:
    """The value-only entry on the whole set, position after position with nothing between
    them (as ``gamesolver scores`` runs a file, and as Pons times his sets: his table reset for
    each position, ours made as good as fresh), ``rounds`` times: each round's mean and median
    CPU seconds a position, then the median of the rounds with their range; and the nodes a
    position took (the same each round). Each score checked against ``scores``."""
    means: list[float] = []
    medians: list[float] = []
    nodes: list[int] = []
    for _ in range(rounds):
        times = []
        nodes = []
        for state, score in zip(states, scores, strict=True):
            spent, value = timed(lambda s=state: values.value(s))
            assert pons_score(SCORED, state, value, None) == score, "a value changed"
            times.append(spent)
            nodes.append(values.nodes)
        means.append(statistics.mean(times))
        medians.append(statistics.median(times))

    def ranged(t: list[float]) -> dict[str, float]:
        return {"median": statistics.median(t), "min": min(t), "max": max(t)}

    counted = {"mean": statistics.mean(nodes), "median": statistics.median(nodes)}
    return {
        "rounds": rounds,
        "mean": ranged(means),
        "median": ranged(medians),
        "nodes": {**counted, "min": min(nodes), "max": max(nodes)},
    }


def kernels(
    states: list[int], cap: float, stage: str, values: ExactValues, rounds: int = 5
) -> dict[str, Any]:
    """Pons's exact score of each position by the kernel with the extras and without them,
    both under the engine's driver, and by the value-only entry (``values``: one kernel entry a
    position, no driver), interleaved in random order per position, checked equal where they
    finish; the one without the extras stopped after ``cap`` seconds (wall time; its CPU
    seconds until then count); then the value-only entry on the set in a row, ``rounds`` times
    (:func:`values_in_a_row`: the others' searches between two of its positions leave its
    memory out of the caches, which costs a one-node position more than the kernel does)."""
    times: dict[str, list[float]] = {"extras": [], "plain": [], "values": []}
    nodes: list[int] = []
    found_scores: list[int] = []
    stopped = 0
    finished: list[bool] = []
    for state in states:
        found = {}
        for side in random.sample(sorted(times), 3):
            if side == "values":
                spent, value = timed(lambda s=state: values.value(s))
                found[side] = pons_score(SCORED, state, value, None)
                nodes.append(values.nodes)
                times[side].append(spent)
                continue
            game = SCORED if side == "extras" else PLAIN
            limit = None if side == "extras" else cap
            spent, result = timed(
                lambda g=game, s=state, c=limit: search(g, s, plies=False, time_limit=c)
            )
            if result.exact:
                found[side] = pons_score(SCORED, state, result.value, None)
            else:  # its CPU seconds so far: a lower bound
                stopped += 1
            times[side].append(spent)
        finished.append("plain" in found)
        assert "extras" in found, "the kernel with the extras did not solve a position"
        assert found.get("plain", found["extras"]) == found["extras"], "the kernels disagree"
        assert found["values"] == found["extras"], "the value-only entry disagrees"
        found_scores.append(found["values"])
    in_a_row = values_in_a_row(states, values, found_scores, rounds)
    ratios = [  # per position, where both finished: how many times faster the extras are
        p / e
        for p, e, done in zip(times["plain"], times["extras"], finished, strict=True)
        if done and e > 0
    ]
    bar = 5 * PONS_EASY_SECONDS[stage]
    return {
        "positions": len(states),
        "seconds": {side: spread(t) for side, t in times.items()},
        "values_nodes": spread([float(n) for n in nodes]),
        "pons_5x_seconds": bar,
        "extras_mean_within_pons_5x": statistics.mean(times["extras"]) <= bar,
        "values_mean_within_pons_5x": statistics.mean(times["values"]) <= bar,
        "values_in_a_row": in_a_row,
        "values_in_a_row_mean_within_pons_5x": in_a_row["mean"]["median"] <= bar,
        "speedup_per_position": spread(ratios) if ratios else None,
        "plain_stopped_at_cap": stopped,
        "cap_seconds": cap,
    }


def set_files(folder: Path) -> list[tuple[PonsSet, Path]]:
    """The six sets' files found in ``folder``, in Pons's order: ours (``end-easy.txt``) or his
    (``Test_L3_R1``, ``Test_L3_R1.txt``). Exits with a one-line error when there are none."""
    found = []
    for pons in SETS:
        names = (f"{pons.name}.txt", pons.pons_file, f"{pons.pons_file}.txt")
        path = next((folder / n for n in names if (folder / n).is_file()), None)
        if path is not None:
            found.append((pons, path))
    if not found:
        raise SystemExit(
            f"no benchmark set in {str(folder)!r}: give a folder holding end-easy.txt ... "
            "begin-hard.txt (benchmarks/data/connect4) or Pons's Test_L3_R1 ... Test_L1_R3"
        )
    return found


def pons_sets(folder: Path, values: ExactValues, rounds: int, first: int | None) -> dict[str, Any]:
    """Each set of ``folder`` run by the value-only entry in a row (:func:`values_in_a_row`,
    every score checked against the file's), ``rounds`` times where a position takes
    milliseconds (once on Begin-Medium and Begin-Hard), beside five times Pons's mean on it."""
    figures: dict[str, Any] = {}
    for pons, path in set_files(folder):
        lines = read_positions(SCORED, path)[:first]
        states = [state for _, _, state, _ in lines]
        scores = [int(given) for _, _, _, given in lines]
        times = 1 if pons.pons_seconds >= 0.05 else rounds
        in_a_row = values_in_a_row(states, values, scores, times)
        bar = 5 * pons.pons_seconds
        figures[pons.name] = {
            "file": path.name,
            "positions": len(states),
            **in_a_row,
            "pons_mean_seconds": pons.pons_seconds,
            "pons_5x_seconds": bar,
            "mean_over_pons": in_a_row["mean"]["median"] / pons.pons_seconds,
            "within_pons_5x": in_a_row["mean"]["median"] <= bar,
        }
        print(
            f"{pons.name}: {len(states)} positions, mean {in_a_row['mean']['median']:.3g} s "
            f"({in_a_row['mean']['min']:.3g}-{in_a_row['mean']['max']:.3g}), median "
            f"{in_a_row['median']['median']:.3g} s, nodes mean {in_a_row['nodes']['mean']:,.0f}; "
            f"5x Pons {bar:.3g} s: "
            f"{'within' if figures[pons.name]['within_pons_5x'] else 'not within'}",
            file=sys.stderr,
            flush=True,
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--kernels", action="store_true", help="only part 4 (the kernels)")
    parser.add_argument("--cap", type=float, default=30.0, help="part 4's cap (seconds)")
    parser.add_argument("--sets", type=Path, metavar="DIR", help="only part 5: Pons's six sets")
    parser.add_argument(
        "--positions", type=positive_int, metavar="N", help="part 5: each file's first N"
    )
    args = parser.parse_args(argv)
    if not numba_available():
        print("numba missing (or GAMESOLVER_NATIVE=0): nothing to compare")
        return 1
    if args.sets is not None:
        prepare(SCORED)
        values = ExactValues(SCORED)  # its table touched once, here
        values.value(SCORED.parse_state(WARM))
        sets = pons_sets(args.sets, values, args.rounds, args.positions)
        print(json.dumps(sets, indent=2))
        if args.json is not None:
            args.json.write_text(json.dumps(sets, indent=2) + "\n")
        return 0
    compile_seconds = prepare(GAME)
    prepare(SCORED)
    prepare(PLAIN)
    for game in (SCORED, PLAIN):  # the first search of a process pays numba's first calls
        search(game, game.parse_state(WARM), plies=False)
    values = ExactValues(SCORED)  # its table touched once, here
    values.value(SCORED.parse_state(WARM))
    depth = 5 if args.quick else 9
    count = 3 if args.quick else 30
    begin = 2 if args.quick else 10
    rounds = 1 if args.quick else args.rounds
    part4 = {
        "kernels_end": kernels(positions(count, 1, 28, 32), args.cap, "end", values, rounds),
        "kernels_middle": kernels(positions(count, 2, 20, 24), args.cap, "middle", values, rounds),
        "kernels_begin": kernels(positions(begin, 3, 10, 14), args.cap, "begin", values, 1),
    }
    if args.kernels:
        print(json.dumps(part4, indent=2))
        if args.json is not None:
            args.json.write_text(json.dumps(part4, indent=2) + "\n")
        return 0
    figures = {
        "compile_seconds": compile_seconds,
        "nodes_per_second": nodes_per_second(depth, 1 if args.quick else args.rounds),
        "end": solved(positions(count, 1, 28, 32), ["compiled", "python"]),
        "middle": solved(positions(count // 3, 2, 20, 24), ["compiled"]),
        "scored_end": scored(positions(count, 1, 28, 32)),
        "scored_middle": scored(positions(count, 2, 20, 24)),
        **part4,
    }
    print(json.dumps(figures, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
