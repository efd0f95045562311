"""Connect Four benchmark sets made the way Pascal Pons classifies his six: our own positions.

Run: ``.venv/bin/python benchmarks/connect4_sets.py`` (``--seed N``, ``--out DIR``; it takes
about ten minutes, once: the files are kept in ``benchmarks/data/connect4/``, not made in CI).

Pons's benchmark page sorts positions by two numbers (our reading of it and of the projects that
use his files; his files cannot be downloaded here). The level is the number of moves played:
End more than 28, Middle 15 to 28, Begin 14 or fewer. The rating is the number of moves left to
the end of the game under perfect play (:func:`games.connect4.plies_to_end` of the exact score):
Easy fewer than 14, Medium 14 to 27, Hard 28 or more. Six pairs occur (a Middle position has at
most 27 moves left, an End one at most 13): End-Easy (his ``Test_L3_R1``), Middle-Easy
(``Test_L2_R1``), Middle-Medium (``Test_L2_R2``), Begin-Easy (``Test_L1_R1``), Begin-Medium
(``Test_L1_R2``) and Begin-Hard (``Test_L1_R3``).

How a position is made: a number of moves drawn uniformly from its level's range, then that many
random legal moves from the empty board (seeded); a game that ends on the way is dropped, as is
a position met before. Each position is solved for its exact score alone on the compiled route
(:class:`solver.exact_values.ExactValues`), rated, and kept if its set still wants positions.
Solving a Begin position of a few stones can take hours, so each is given a node budget: large
while the level's Hard (or Medium) set is still short, small once only its Easy set is; a
position past its budget is dropped, and the counts are written in each file's header. So our
Begin-Medium and Begin-Hard sets hold no position that takes our solver more than the large
budget (see ``CAPS``): they lean to the quicker side of Pons's, whose sets have no such cut.

The files are in Pons's format, one ``<moves> <score>`` a line (moves as columns 1-7 from the
start, the score from the view of the player to move), after ``#`` lines saying how they were
made: ``gamesolver scores connect4 -O scored=true --mover FILE`` reads and checks them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Final, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.connect4 import ConnectFour, plies_to_end, pons_score  # noqa: E402
from solver.exact_values import ExactValues  # noqa: E402
from solver.node_search import SearchStopped  # noqa: E402
from solver.output import write_text  # noqa: E402

SCORED: Final = ConnectFour(scored=True)
DATA: Final = ROOT / "benchmarks" / "data" / "connect4"


class PonsSet(NamedTuple):
    """One of Pons's six sets: our file's stem, his file's name, the level and the rating, how
    many positions we make, and his published mean time a position (his C++ solver)."""

    name: str
    pons_file: str
    level: str
    rating: str
    size: int
    pons_seconds: float


SETS: Final = (
    PonsSet("end-easy", "Test_L3_R1", "end", "easy", 100, 4.6e-6),
    PonsSet("middle-easy", "Test_L2_R1", "middle", "easy", 100, 37e-6),
    PonsSet("middle-medium", "Test_L2_R2", "middle", "medium", 30, 3.2e-3),
    PonsSet("begin-easy", "Test_L1_R1", "begin", "easy", 50, 255e-6),
    PonsSet("begin-medium", "Test_L1_R2", "begin", "medium", 10, 97e-3),
    PonsSet("begin-hard", "Test_L1_R3", "begin", "hard", 5, 5.5),
)
"""The six sets in Pons's order, with his mean times (End-Easy 4.6 µs ... Begin-Hard 5.5 s)."""

LEVELS: Final = {"end": (29, 41), "middle": (15, 28), "begin": (0, 14)}
"""The moves played of each level (a 7x6 position with 42 is over)."""

LEFT: Final = {"easy": "< 14", "medium": "14-27", "hard": ">= 28"}
"""The moves left to the end of each rating."""

CAPS: Final = {"hard": 60_000_000, "medium": 15_000_000, "easy": 3_000_000}
"""Nodes a position may take while its level's hardest short set is Hard, Medium or Easy only
(about 20 s, 5 s and 1 s on our solver): an Easy position takes far fewer (at most 0.3 M in the
sets made with seed 1)."""


def level(stones: int) -> str:
    """The level of a position with ``stones`` moves played: end, middle or begin."""
    return "end" if stones > 28 else "middle" if stones > 14 else "begin"


def rating(left: int) -> str:
    """The rating of a position with ``left`` moves to the end under perfect play."""
    return "easy" if left < 14 else "medium" if left < 28 else "hard"


def set_of(moves: str, score: int) -> str:
    """The name of the set a position belongs to (``"middle-medium"``), from its moves from the
    start and its exact score (Pons's, the mover's view).

    >>> set_of("4455", 18), set_of("4", 0)
    ('begin-easy', 'begin-hard')
    """
    state = SCORED.parse_state(moves) if moves else SCORED.initial_state()
    return f"{level(len(moves))}-{rating(plies_to_end(SCORED, state, score))}"


class Made(NamedTuple):
    """A position kept: its moves, exact score, nodes and CPU seconds of its solve."""

    moves: str
    score: int
    nodes: int
    seconds: float


def random_position(rng: random.Random, stones: int) -> tuple[str, int] | None:
    """``stones`` random legal moves from the start: the moves and the state, or None when the
    game ends on the way (or at the last move)."""
    game, state, moves = SCORED, SCORED.initial_state(), []
    for _ in range(stones):
        action = rng.choice(game.actions(state))
        state = game.result(state, action)
        moves.append(str(action + 1))
        if game.is_terminal(state):
            return None
    return "".join(moves), state


def make_level(
    name: str, sizes: dict[str, int], seed: int, caps: dict[str, int]
) -> tuple[dict[str, list[Made]], dict[str, int]]:
    """The sets of one level: positions made and solved until each set of ``sizes`` of this
    level is full, and the counts of what was dropped (over, met before, past a node budget,
    not wanted: its set full)."""
    wanted = {s.name: sizes[s.name] for s in SETS if s.level == name and sizes.get(s.name)}
    found: dict[str, list[Made]] = {set_name: [] for set_name in wanted}
    counts = {"made": 0, "over": 0, "repeated": 0, "not_wanted": 0}
    counts.update({f"past_{cap:,}_nodes": 0 for cap in caps.values()})
    solvers = {rated: ExactValues(SCORED, node_limit=cap) for rated, cap in caps.items()}
    rng = random.Random(f"connect4-sets {seed} {name}")
    least, most = LEVELS[name]
    seen: set[int] = set()
    while any(len(found[s]) < wanted[s] for s in wanted):
        made = random_position(rng, rng.randint(least, most))
        counts["made"] += 1
        if made is None:
            counts["over"] += 1
            continue
        moves, state = made
        if state in seen:
            counts["repeated"] += 1
            continue
        seen.add(state)
        short = [s.split("-")[1] for s in wanted if len(found[s]) < wanted[s]]
        hardest = next(r for r in ("hard", "medium", "easy") if r in short)
        solver = solvers[hardest]
        began = time.process_time()
        try:
            value = solver.value(state)
        except SearchStopped:
            counts[f"past_{caps[hardest]:,}_nodes"] += 1
            continue
        spent = time.process_time() - began
        score = pons_score(SCORED, state, value, None)
        set_name = set_of(moves, score)
        if set_name in found and len(found[set_name]) < wanted[set_name]:
            found[set_name].append(Made(moves, score, solver.nodes, spent))
        else:
            counts["not_wanted"] += 1
    return found, counts


def file_text(pons: PonsSet, made: list[Made], counts: dict[str, int], seed: int) -> str:
    """A set's file: ``#`` lines saying what it is and how it was made, then the positions."""
    count = f"{len(made)} position{'s' if len(made) != 1 else ''}"
    ours = (
        f"# Connect Four 7x6, {pons.name} ({count}): our own set, classified as "
        f"Pascal Pons's {pons.pons_file} (our reading of his benchmark page),\n"
        "# not his positions. '<moves> <score>': the moves as columns 1-7 from the start, his "
        "exact score from the mover's view.\n"
        f"# Level {pons.level}: {LEVELS[pons.level][0]}-{LEVELS[pons.level][1]} moves played; "
        f"rating {pons.rating}: moves left under perfect play {LEFT[pons.rating]}.\n"
        f"# Made by benchmarks/connect4_sets.py --seed {seed}: a uniform number of random legal "
        "moves from the start, solved on the compiled route (value only).\n"
        f"# Candidates of the {pons.level} level: "
        + ", ".join(f"{key.replace('_', ' ')} {value:,}" for key, value in counts.items())
        + ".\n"
    )
    nodes = sorted(m.nodes for m in made)
    if nodes:
        ours += f"# Nodes of our solver a position: {nodes[0]:,} to {nodes[-1]:,}.\n"
    return ours + "".join(f"{m.moves} {m.score}\n" for m in made)


def make_sets(
    out: Path, seed: int, sizes: dict[str, int] | None = None, caps: dict[str, int] | None = None
) -> dict[str, Path]:
    """Make the six sets (or those of ``sizes``) and write each to ``out/<name>.txt``
    (atomically, replacing an older one); print a line a level. The files written, by name."""
    sizes = {s.name: s.size for s in SETS} if sizes is None else sizes
    caps = CAPS if caps is None else caps
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for name in LEVELS:
        began = time.perf_counter()
        found, counts = make_level(name, sizes, seed, caps)
        for set_name, made in found.items():
            pons = next(s for s in SETS if s.name == set_name)
            path = out / f"{set_name}.txt"
            write_text(path, file_text(pons, made, counts, seed), overwrite=True)
            written[set_name] = path
        spent = time.perf_counter() - began
        print(f"{name}: {dict(counts)} in {spent:.1f} s", flush=True)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA, help="the folder of the six files")
    args = parser.parse_args(argv)
    make_sets(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
