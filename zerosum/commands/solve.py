"""``gamesolver solve``: every reachable state, the game's value, counts, an optional table."""

from __future__ import annotations

import argparse

from solver.game import format_action, format_state, player_label
from solver.solve import TooManyStatesError, solve
from zerosum.console import EXIT_OK, Io, UsageError, progress_bar
from zerosum.options import (
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
    solve.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver solve``: every reachable state, the game's value, counts, an optional table."""
    game = load(args)
    state = position(game, args)
    out_path = args.out
    if out_path is not None and not out_path.lower().endswith((".json", ".csv")):
        raise UsageError(f"invalid --out {out_path!r}: the file name must end in .json or .csv")
    with progress_bar(io, f"solving {game.name}", total=None, unit="states") as advance:
        try:
            solution = solve(game, state, max_states=args.max_states, progress=advance)
        except TooManyStatesError as exc:
            raise TooManyStatesError(
                f"{game.name} has more than {args.max_states:,} reachable states (--max-states); "
                "raise --max-states N or solve from a later --position",
                exc.states_seen,
            ) from None
    counts = solution.counts
    plies = solution.plies(state)
    best = [format_action(game, state, a) for a in solution.best_actions(state)]
    if out_path is not None:
        if out_path.lower().endswith(".json"):
            solution.to_json(out_path)
        else:
            solution.to_csv(out_path)
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "value": json_num(counts.value),
                "outcome": outcome(game, counts.value, plies=plies),
                "plies": plies,
                "optimal_moves": best,
                "states": counts.states,
                "terminal": counts.terminal,
                "wins": counts.wins,
                "draws": counts.draws,
                "losses": counts.losses,
                "seconds": round(counts.seconds, 6),
                "out": out_path,
            }
        )
        return EXIT_OK
    for line in board_lines(game, state):
        io.print(line)
    io.print()
    io.print(f"value: {num(counts.value)} ({outcome(game, counts.value, plies=plies)})")
    if best:
        io.print(f"optimal moves: {', '.join(best)}")
    table = io.table("", ">count")
    table.add_row("reachable states", f"{counts.states:,}")
    table.add_row("terminal states", f"{counts.terminal:,}")
    table.add_row(f"  won by {player_label(game, 0)} (utility > 0)", f"{counts.wins:,}")
    table.add_row("  drawn (utility = 0)", f"{counts.draws:,}")
    table.add_row(f"  won by {player_label(game, 1)} (utility < 0)", f"{counts.losses:,}")
    io.print(table)
    io.print(f"solved in {counts.seconds:.3f} s")
    if out_path is not None:
        io.print(f"wrote {len(solution):,} states to {out_path}")
    return EXIT_OK
