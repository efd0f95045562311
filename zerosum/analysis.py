"""The analysis both front ends run: the search ``analyse`` and the board make of a position,
and its answer as JSON (``analyse --json``, the board's API).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from solver.engine import search
from solver.game import EndgameTablebase, format_state
from solver.results import SearchResult
from zerosum.moves import move_rows, result_json
from zerosum.report import json_num, outcome
from zerosum.tablebases import trouble_json

__all__ = ["DEFAULT_ANALYSE_SECONDS", "analysis_search", "answer_json", "over_json"]

DEFAULT_ANALYSE_SECONDS: Final = 3.0
"""How long ``analyse`` searches when given neither --depth nor --time."""


def analysis_search(
    game: Any,
    state: Any,
    *,
    depth: int | None,
    time_limit: float | None,
    tablebase: EndgameTablebase | None,
    seed: int | None = None,
    on_depth: Callable[[SearchResult], None] | None = None,
    node_limit: int | None = None,
) -> SearchResult:
    """The search ``analyse`` runs: every legal move valued, the tablebase as the oracle.

    The analysis board, ``play``'s hint and ``review`` run the same one, so all answer alike.
    """
    return search(
        game,
        state,
        depth=depth,
        time_limit=time_limit,
        node_limit=node_limit,
        seed=seed,
        on_depth=on_depth,
        all_values=True,  # the table gives every legal move its value, not just a bound
        lines=True,  # and its line, as the principal variation is the best move's
        oracle=tablebase,  # probed inside the search (inside the compiled kernel)
    )


def answer_json(
    game: Any,
    state: Any,
    result: SearchResult,
    *,
    tablebase: EndgameTablebase | None,
    time_limit: float | None,
) -> dict[str, Any]:
    """What ``analyse --json`` prints for ``result`` (a search of the non-terminal ``state``);
    with a ``tablebase`` whose damaged or unreadable file is why it does not answer ``state``,
    ``tablebase_coverage`` says so."""
    rows = move_rows(game, state, result)
    read = result.source == "oracle"
    answer = result_json(
        game,
        state,
        result,
        rows,
        algorithm="tablebase" if read else "engine",
        time_limit=time_limit,
        tablebase=read,
    )
    trouble = None if read or tablebase is None else trouble_json(tablebase, state)
    if trouble is not None:
        answer["tablebase_coverage"] = trouble
    return answer


def over_json(game: Any, state: Any) -> dict[str, Any]:
    """What ``analyse --json`` prints for a finished game: its value and outcome."""
    return {
        "game": game.name,
        "position": format_state(game, state),
        "over": True,
        "value": json_num(game.utility(state)),
        "outcome": outcome(game, game.utility(state)),
    }
