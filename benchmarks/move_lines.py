"""What giving every root move its line costs a timed analysis (``search(lines=True)``).

Run: ``.venv/bin/python benchmarks/move_lines.py`` (``--rounds N``, ``--seconds S``).

``analyse`` and the analysis board ask the engine for every move's line, not only the best
one's; each line is proved move by move as the principal variation is. This measures what that
costs where it matters, in a search with a time limit: on Ayòayò's start and the article's
position, the depth completed in ``S`` seconds and the time of each of the last three depths,
with and without lines. The two contenders alternate within each round, in an order that
changes from round to round (seeded), so a machine whose load drifts slows them alike.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import load_game  # noqa: E402
from solver.engine import search  # noqa: E402
from solver.results import SearchResult  # noqa: E402

POSITIONS = {
    "start": None,
    "article": "[[2,6,6,1,1,7],[0,2,7,2,7,7]]",
}


def one(game: object, state: object, seconds: float, lines: bool) -> tuple[int, list[float]]:
    """The depth completed and the seconds each of the last three depths took."""
    seen: list[SearchResult] = []
    result = search(
        game,  # type: ignore[arg-type]
        state,
        time_limit=seconds,
        all_values=True,
        lines=lines,
        on_depth=seen.append,
    )
    times = [r.stats.seconds for r in seen]
    steps = [b - a for a, b in zip([0.0, *times], times, strict=False)]
    return result.depth or 0, steps[-3:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    game = load_game("ayoayo")
    rng = random.Random(1)
    for name, text in POSITIONS.items():
        state = game.initial_state() if text is None else game.parse_state(text)  # type: ignore[attr-defined]
        search(game, state, depth=4)  # load the kernel once, outside the timings
        depths: dict[bool, list[int]] = {False: [], True: []}
        ratios: list[float] = []
        for _ in range(args.rounds):
            order = [False, True]
            rng.shuffle(order)
            last: dict[bool, list[float]] = {}
            for lines in order:
                depth, steps = one(game, state, args.seconds, lines)
                depths[lines].append(depth)
                last[lines] = steps
            if len(last[False]) == len(last[True]) and depths[True][-1] == depths[False][-1]:
                ratios.append(sum(last[True]) / sum(last[False]))
        spread = (
            f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})"
            if ratios
            else "n/a (the depths differed)"
        )
        print(
            f"{name:8s} depth in {args.seconds:g} s without lines {depths[False]}, with lines "
            f"{depths[True]}; last three depths' time with/without: {spread}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
