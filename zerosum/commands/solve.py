"""``gamesolver solve``: every reachable state, the game's value, counts, an optional table."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from solver.chance import has_chance
from solver.game import HasSymmetries, format_action, format_state, player_label
from solver.quoting import quote
from solver.solve import Solution, TooManyStatesError, solve
from zerosum.console import EXIT_OK, Io, UsageError, progress_bar
from zerosum.options import (
    checked_output,
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_int,
)
from zerosum.report import board_lines, json_num, num, outcome

NAME = "solve"
ALIASES: tuple[str, ...] = ()
HELP = "solve a game: every reachable state's exact value"


def add_arguments(solve: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver solve``."""
    game_arguments(solve)
    position_argument(solve)
    extra_fields(solve)
    solve.add_argument(
        "--out", "-o", metavar="FILE", help="write every state's record to FILE.json or FILE.csv"
    )
    solve.add_argument(
        "--max-states",
        type=positive_int,
        default=2_000_000,
        metavar="N",
        help="stop with an error beyond N states (default 2,000,000)",
    )
    solve.add_argument(
        "--symmetric",
        action="store_true",
        help="one state per class of the game's symmetries (a smaller table; counts are of "
        "classes)",
    )
    solve.add_argument("--force", "-f", action="store_true", help="replace an existing --out file")
    solve.add_argument("--json", action="store_true", help="print JSON")


def _solved(
    game: Any, state: Any, max_states: int, advance: Any, symmetric: bool = False
) -> Solution:
    """:func:`solve`, its state cap said as the command line's ``--max-states``."""
    try:
        return solve(game, state, max_states=max_states, progress=advance, symmetric=symmetric)
    except TooManyStatesError as exc:
        if exc.states_seen <= max_states:  # stopped for memory: its own message says so
            raise
        raise TooManyStatesError(
            f"{game.name} has more than {max_states:,} reachable states (--max-states); "
            "raise --max-states N or solve from a later --position",
            exc.states_seen,
        ) from None


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver solve``: every reachable state, the game's value, counts, an optional table."""
    game = load(args)
    state = position(game, args)
    out_path = args.out
    if out_path is not None and not out_path.lower().endswith((".json", ".csv")):
        raise UsageError(
            f"invalid --out {quote(out_path)}: the file name must end in .json or .csv"
        )
    if out_path is not None:  # before the solve, not after it
        checked_output(out_path, "--out", args.force)
    with progress_bar(io, f"solving {game.name}", total=None, unit="states") as advance:
        solution = _solved(game, state, args.max_states, advance, args.symmetric)
    counts = solution.counts
    plies = solution.plies(state)
    endless = solution.endless(state)
    moves = solution.best_actions(state)
    best = [format_action(game, state, a) for a in moves]
    # Plies to the end after each optimal move (None: that line is endless play).
    after = [solution.plies(game.result(state, a)) for a in moves]
    best_plies = {name: None if p is None else p + 1 for name, p in zip(best, after, strict=True)}
    said = outcome(game, counts.value, plies=plies)
    if has_chance(game):  # an expectation: nobody "wins in N plies"
        said = f"the expectation over the chance moves; play lasts at most {plies} plies"
    if endless:
        said += " by endless play"
    if out_path is not None:
        if out_path.lower().endswith(".json"):
            solution.to_json(out_path, overwrite=args.force)
        else:
            solution.to_csv(out_path, overwrite=args.force)
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "value": json_num(counts.value),
                "exact_value": str(counts.value) if isinstance(counts.value, Fraction) else None,
                "outcome": said,
                "plies": plies,
                "endless": endless,
                "optimal_moves": best,
                "optimal_move_plies": best_plies,
                "states": counts.states,
                "terminal": counts.terminal,
                "wins": counts.wins,
                "draws": counts.draws,
                "losses": counts.losses,
                "endless_states": counts.endless,
                "seconds": round(counts.seconds, 6),
                "out": out_path,
            }
        )
        return EXIT_OK
    for line in board_lines(game, state):
        io.print(line)
    io.print()
    io.print(f"value: {num(counts.value)} ({said})")
    if (
        isinstance(counts.value, Fraction)
        and num(counts.value) != str(counts.value)
        and len(str(counts.value)) <= 40
    ):
        io.print(f"  exactly {counts.value}")
    if endless:
        io.print("  (no line that ends does better: play repeats for ever, scored by the game's")
        io.print("  endless value, as a repeated position scores in a match)")
    if best:
        io.print(f"optimal moves: {', '.join(_move_text(m, p) for m, p in best_plies.items())}")
    table = io.table("", ">count")
    reduced = args.symmetric and isinstance(game, HasSymmetries)
    table.add_row(
        "reachable states" + (" (one per symmetry class)" if reduced else ""),
        f"{counts.states:,}",
    )
    table.add_row("terminal states", f"{counts.terminal:,}")
    table.add_row(f"  won by {player_label(game, 0)} (utility > 0)", f"{counts.wins:,}")
    table.add_row("  drawn (utility = 0)", f"{counts.draws:,}")
    table.add_row(f"  won by {player_label(game, 1)} (utility < 0)", f"{counts.losses:,}")
    if counts.endless:
        table.add_row("valued by endless play", f"{counts.endless:,}")
    io.print(table)
    io.print(f"solved in {counts.seconds:.3f} s")
    if out_path is not None:
        io.print(f"wrote {len(solution):,} states to {out_path}")
    return EXIT_OK


def _move_text(move: str, plies: int | None) -> str:
    """An optimal move with the plies to the end after it, or ``endless``."""
    if plies is None:
        return f"{move} (endless)"
    return f"{move} ({plies} pl{'y' if plies == 1 else 'ies'})"
