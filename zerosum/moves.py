"""The answer of ``best`` and ``analyse``: every root move valued, the table, the JSON.

A pruning search only bounds the moves it proves worse; :func:`move_rows` can value those by a
search of their own, marked :data:`SEPARATE_SEARCH`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from rich.table import Table

from solver.engine import ENDLESS
from solver.game import format_action, format_state
from solver.results import MoveLine, SearchResult, ply_preference
from zerosum.console import Io
from zerosum.report import (
    board_lines,
    isnan,
    json_num,
    jsonable,
    line_end_json,
    num,
    outcome,
    pv_moves,
    pv_notation,
    pv_text,
    value_text,
)

__all__ = [
    "MoveRow",
    "best_move",
    "depth_line",
    "move_rows",
    "moves_table",
    "print_answer",
    "result_json",
    "stats_dict",
    "stats_line",
]

SEPARATE_SEARCH = "†"
WORSE = "worse"
SEPARATE_SEARCH_NOTE = (
    "† pruned by alpha-beta at the root (its value there is only a bound); "
    "valued here by a separate search of that move"
)


@attrs.define
class MoveRow:
    """One legal root move: its value, plies to the end and whether it keeps the value.

    ``note`` is :data:`SEPARATE_SEARCH` when the value came from a search of its own (a move
    alpha-beta pruned at the root), or says why there is no value.
    """

    action: Any
    notation: str
    value: float | None = None
    plies: int | None = None
    optimal: bool = False
    chosen: bool = False
    note: str = ""
    endless: bool = False
    line: MoveLine | None = None
    horizon: bool = False  # valued at the depth searched, though the root's value is exact


def move_rows(
    game: Any,
    state: Any,
    result: SearchResult,
    exact_child: Callable[[Any], tuple[float, int | None]] | None = None,
) -> list[MoveRow]:
    """Every legal move of ``state`` with its value from ``result``.

    Moves the search did not value exactly (alpha-beta bounds) are valued by ``exact_child``
    (a search of the child position) when given, and marked otherwise.
    """
    rows = []
    values: Mapping[Any, float] = result.action_values
    plies_of: Mapping[Any, int | None] = result.action_plies
    for action in game.actions(state):
        row = MoveRow(action, format_action(game, state, action))
        if action in values:
            row.value = values[action]
            row.plies = plies_of.get(action)
        elif exact_child is not None:
            value, plies = exact_child(game.result(state, action))
            row.value = value
            row.plies = None if plies is None else plies + 1
            row.note = SEPARATE_SEARCH
        else:
            row.note = WORSE
        rows.append(row)
    best = list(result.best_actions)
    for row in rows:
        row.optimal = row.action in best if best else row.value == result.value
        row.chosen = row.action == result.best_action
        row.endless = row.action in result.endless_actions
        row.line = result.action_lines.get(row.action)
        row.horizon = row.action in result.horizon_actions
    return rows


def _preferred_order(game: Any, state: Any, rows: list[MoveRow]) -> list[MoveRow]:
    """Rows best first for the player to move: value, then quickest win / slowest loss."""
    sign = 1 if game.to_move(state) == 0 else -1

    def key(row: MoveRow) -> tuple[float, int]:
        if row.value is None:
            return (math.inf, 0)
        mover_value = sign * row.value
        count = ENDLESS if row.endless else row.plies
        plies = ply_preference(mover_value, count) if count is not None else 0
        return (-mover_value, plies)

    return sorted(rows, key=key)


def moves_table(
    io: Io, game: Any, state: Any, rows: list[MoveRow], *, value: float, exact: bool
) -> Table:
    """The table of root moves: move, value (or bound), plies to the end, mark, outcome."""
    columns = ["move", ">value"]
    if exact:
        columns.append(">plies to end")
    columns += ["", "outcome"]
    lines = any(row.line is not None for row in rows)
    if lines:
        columns.append("line")
    table = io.table(*columns)
    for row in _preferred_order(game, state, rows):
        mark = "best" if row.chosen else ("optimal" if row.optimal else "")
        shown = value_text(row.value, exact=exact and not row.horizon)
        if row.value is None:
            said = "worse than the best move (pruned: only a bound is known)"
            if row.note == WORSE and not isnan(value):
                shown = ("< " if game.to_move(state) == 0 else "> ") + num(value)
        else:
            said = outcome(
                game,
                row.value,
                exact=exact and not row.horizon,
                plies=row.plies,
                endless=row.endless,
            )
        cells = [row.notation + (row.note if row.note == SEPARATE_SEARCH else ""), shown]
        if exact:
            cells.append("endless" if row.endless else "-" if row.plies is None else str(row.plies))
        cells += [mark, said]
        if lines:
            cells.append("" if row.line is None else line_brief(game, state, row.line))
        table.add_row(*cells, style="bold" if row.chosen and io.fancy else None)
    return table


LINE_SHOWN = 8
"""Moves of a root move's line the table shows (the JSON has them all)."""


def line_brief(game: Any, state: Any, line: MoveLine) -> str:
    """A root move's line for the table: its first moves in the game's notation, then how
    long it is and how it ends in a word (``…, 31 plies, repeats``)."""
    moves = pv_notation(game, state, line.moves)
    shown = " ".join(moves[:LINE_SHOWN])
    end = {"end": "ends", "repeat": "repeats", "depth": "depth", "cut": "cut"}[line.end.kind]
    if len(moves) > LINE_SHOWN:
        return f"{shown} … ({len(moves)} plies, {end})"
    return f"{shown} ({end})"


def best_move(
    game: Any, state: Any, result: SearchResult, missing: str | None = None
) -> str | None:
    """The best move of ``result`` in the game's notation, or ``missing`` when it has none."""
    if result.best_action is None:
        return missing
    return format_action(game, state, result.best_action)


def stats_dict(result: SearchResult) -> dict[str, Any]:
    """The search figures of ``result`` as plain data."""
    stats = result.stats
    return {
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "table_hits": stats.table_hits,
        "seconds": round(stats.seconds, 6),
        "nodes_per_second": round(stats.nodes_per_second),
    }


def stats_line(result: SearchResult) -> str:
    """The search figures in one line (for an answer read from an oracle: that it was)."""
    stats = result.stats
    if result.source == "oracle":
        return f"read, not searched (every move looked up), {stats.seconds:.3f} s"
    depth = "to the end" if result.depth is None else f"depth {result.depth}"
    parts = [
        depth,
        f"{stats.nodes:,} nodes",
        f"{stats.leaves:,} leaves",
        f"{stats.cutoffs:,} cut-offs",
        f"{stats.table_hits:,} table hits",
        f"{stats.seconds:.3f} s",
        f"{stats.nodes_per_second:,.0f} nodes/s",
    ]
    return ", ".join(parts)


def result_json(
    game: Any, state: Any, result: SearchResult, rows: list[MoveRow], **extra: Any
) -> dict[str, Any]:
    """The answer of ``best`` / ``analyse`` as JSON-ready data."""
    return {
        "game": game.name,
        "position": format_state(game, state),
        "to_move": None if game.is_terminal(state) else game.to_move(state),
        **extra,
        "value": json_num(result.value),
        "exact": result.exact,
        "complete": result.complete,
        "depth": result.depth,
        "outcome": outcome(
            game, result.value, exact=result.exact, plies=result.plies, endless=_endless(result)
        ),
        "plies": result.plies,
        "endless": _endless(result),
        "source": result.source,
        "best_move": best_move(game, state, result),
        "optimal_moves": [r.notation for r in rows if r.optimal],
        "moves": [
            {
                "move": r.notation,
                "action": jsonable(r.action),
                "value": json_num(r.value),
                "plies": r.plies,
                "endless": r.endless,
                "optimal": r.optimal,
                "best": r.chosen,
                "line": None if r.line is None else pv_moves(game, state, r.line.moves),
                "line_end": None if r.line is None else line_end_json(r.line.end),
            }
            for r in rows
        ],
        "pv": pv_moves(game, state, result.pv),
        "pv_end": line_end_json(result.pv_end),
        "stats": None if result.source == "oracle" else stats_dict(result),
    }


def _endless(result: SearchResult) -> bool:
    """Whether the chosen move's value is reached only by endless play."""
    return result.best_action is not None and result.best_action in result.endless_actions


def print_answer(
    io: Io,
    game: Any,
    state: Any,
    result: SearchResult,
    rows: list[MoveRow],
    title: str,
    board: bool = True,
    source: str = "",
) -> None:
    if board:
        for line in board_lines(game, state):
            io.print(line)
        io.print()
    if game.is_terminal(state):
        return
    if not result.complete:
        if result.depth:
            io.print(f"stopped during depth {result.depth + 1}: answers from depth {result.depth}")
        else:
            io.print("stopped before depth 1 completed: no move was searched; showing a guess")
    if isnan(result.value):
        io.print("value: unknown (the game has no evaluation function)", style="bold")
    else:
        said = outcome(
            game, result.value, exact=result.exact, plies=result.plies, endless=_endless(result)
        )
        where = "" if result.exact or result.depth is None else f" at depth {result.depth}"
        label = f" {source}" if source else ""
        shown = value_text(result.value, exact=result.exact)
        io.print(f"value{where}: {shown} ({said}){label}", style="bold")
    io.print(moves_table(io, game, state, rows, value=result.value, exact=result.exact))
    if any(row.note == SEPARATE_SEARCH for row in rows):
        io.print(SEPARATE_SEARCH_NOTE)
    io.print()
    best = best_move(game, state, result, missing="-")
    optimal = [r.notation for r in rows if r.optimal]
    io.print(f"best move: {best}")
    io.print(f"optimal moves: {', '.join(optimal) if optimal else '-'}")
    io.print(f"principal variation: {pv_text(game, state, result.pv, result.pv_end)}")
    io.print(f"{title}: {stats_line(result)}")


def depth_line(game: Any, state: Any, result: SearchResult) -> str:
    """One line for a completed iteration: depth, value, best move, PV, nodes, time."""
    depth = "end" if result.depth is None else str(result.depth)
    best = best_move(game, state, result, missing="-")
    pv = " ".join(pv_notation(game, state, result.pv))
    stats = result.stats
    return (
        f"depth {depth:>3}  value {num(result.value):>5}  best {best:<4}  "
        f"{stats.nodes:>11,} nodes  {stats.seconds:7.2f} s  pv {pv}"
    )
