"""Exact values settled by proof for the front ends: the position and each of its moves.

A game with a proof search (:class:`solver.game.HasProofSearch`, Ayòayò's) can settle the
value of a position above its tablebases in a second or two (the start: docs/solving.md).
``analyse`` asks for it after the engine's search when the engine's answer is not exact and
tablebase levels are present, within a short time: a value proved is shown as solved, with
every move's proved value; a proof that does not settle in time is simply not shown.
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from solver.errors import CapabilityError
from solver.game import EndgameTablebase, HasProofSearch, format_action, format_state
from solver.quoting import quote
from zerosum.report import outcome

__all__ = ["PROOF_SECONDS", "Proved", "prove_position", "proved_json", "proved_lines"]

PROOF_SECONDS = 2.0
"""How long ``analyse`` lets a proof of its position run (the position and every move)."""


@attrs.frozen
class Proved:
    """A position's value and each legal move's, proved (player 0's view)."""

    value: int
    moves: dict[str, int]
    seconds: float
    nodes: int


def prove_position(
    game: Any,
    state: Any,
    tablebase: EndgameTablebase | None,
    time_limit: float = PROOF_SECONDS,
    *,
    skip: bool = False,
) -> Proved | None:
    """The value of ``state`` and of every move proved within ``time_limit`` seconds, or None
    (``skip``, no proof search, no tablebase to stand on, or not settled in time)."""
    if skip or tablebase is None or not tablebase.levels:
        return None
    prover = _prover(game, tablebase)
    if prover is None:
        return None
    began = time.perf_counter()
    result = prover.value(state, time_limit=time_limit)
    if result.value is None:
        return None
    nodes = result.nodes
    moves: dict[str, int] = {}
    for action in game.actions(state):
        child = game.result(state, action)
        name = format_action(game, state, action)
        if game.is_terminal(child):
            moves[name] = game.utility(child)
            continue
        left = time_limit - (time.perf_counter() - began)
        if left <= 0:
            return None
        found = prover.value(child, guess=result.value, time_limit=left)
        if found.value is None:
            return None
        nodes += found.nodes
        moves[name] = found.value
    return Proved(int(result.value), moves, time.perf_counter() - began, nodes)


def _prover(game: Any, tablebase: EndgameTablebase) -> Any:
    """The game's proof search on ``tablebase`` (a small table: a short proof), or None (none,
    or it cannot run here: no compiled kernel)."""
    if not isinstance(game, HasProofSearch):
        return None
    try:
        return game.prover(tablebase, table_size=1 << 20)
    except CapabilityError:
        return None


def proved_json(game: Any, proved: Proved | None) -> dict[str, Any]:
    """What ``analyse --json`` adds: ``proved`` with the value, outcome, every move's value,
    seconds and nodes (nothing without a proof)."""
    if proved is None:
        return {}
    return {
        "proved": {
            "value": proved.value,
            "outcome": outcome(game, proved.value),
            "moves": proved.moves,
            "seconds": round(proved.seconds, 6),
            "nodes": proved.nodes,
        }
    }


def proved_lines(game: Any, state: Any, proved: Proved | None) -> list[str]:
    """What ``analyse`` prints of a proof (nothing without one)."""
    if proved is None:
        return []
    moves = ", ".join(f"{name} {value}" for name, value in proved.moves.items())
    return [
        "",
        f"solved: {outcome(game, proved.value)} (value {proved.value}, proved both ways with the "
        f"tablebases as leaves, {proved.nodes:,} nodes in {proved.seconds:.2f} s)",
        f"every move, proved: {moves}",
        f"a certificate: gamesolver prove {game.name} --position "
        f"{quote(format_state(game, state))}",
    ]
