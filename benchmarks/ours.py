"""Our side: the strong solver, the engine and the teaching searches on the same jobs.

Everything goes through the public API (``games.load_game``, ``solver.solve.solve``,
``solver.engine.search``, ``solver.minimax``) and the Game protocol, exactly as a user calls it.
Every timed call starts from scratch: a new game object (Ayòayò caches legal moves per game
object, so a reused one would carry the warm-up's work into the timed runs), a new solution,
a new transposition table.

Tic-tac-toe (suite "tictactoe"): the strong solve of both tic-tac-toes (all 5,478 states with
values, optimal moves and plies to the end); the engine's root search (depth None) from the
empty board on both, twice: ``search(game, plies=False)`` (kind "root": the value and every
optimal root move, the job of issue 2's "root value in under 10 ms" and the job the peers' root
searches do, a value and a move) and ``search(game)`` (kind "root_plies": the full answer, plies
to the end included, which no peer computes); and the teaching alpha-beta from the empty board.

Ayòayò (suite "ayoayo"): the engine's nodes per second at a fixed depth from the start, the time
the engine takes to complete a given depth from the start (``search(game, depth=12)``: nodes/s
alone would penalise a search that needs fewer nodes for the same depth), the depth the engine
completes from the start within a time limit (iterative deepening with ``time_limit``), and a
check that the engine's value equals the teaching minimax value at every depth the teaching
search finishes within a budget.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import attrs

from benchmarks.harness import Case, Facts

__all__ = ["Agreement", "ayoayo_cases", "minimax_agreement", "tictactoe_cases"]


def _value(value: Any) -> Any:
    """A value as JSON wants it (ints stay ints; floats that are whole become ints)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _solve(name: str) -> Callable[[], Facts]:
    from games import load_game
    from solver.solve import solve

    load_game(name)  # import the module before timing

    def job() -> Facts:
        game = load_game(name)
        root = game.initial_state()
        solution = solve(game)
        return {
            "value": _value(solution.value(root)),
            "states": len(solution),
            "best_actions": list(solution.best_actions(root)),
        }

    return job


def _search(name: str, **limits: Any) -> Callable[[], Facts]:
    from games import load_game
    from solver.engine import search

    load_game(name)

    def job() -> Facts:
        result = search(load_game(name), **limits)
        return {
            "value": _value(result.value),
            "best_action": result.best_action,
            "best_actions": list(result.best_actions),
            "depth": result.depth,
            "plies": result.plies,
            "nodes": result.stats.nodes,
            "table_hits": result.stats.table_hits,
            "complete": result.complete,
        }

    return job


def _teaching(name: str, algorithm: str, depth: int | None = None) -> Callable[[], Facts]:
    from games import load_game
    from solver.minimax import alphabeta, minimax

    load_game(name)
    run = {"minimax": minimax, "alphabeta": alphabeta}[algorithm]

    def job() -> Facts:
        result = run(load_game(name), depth=depth)
        return {
            "value": _value(result.value),
            "best_action": result.best_action,
            "nodes": result.stats.nodes,
        }

    return job


def tictactoe_cases() -> list[Case]:
    """Our tic-tac-toe cases: strong solves, engine root searches, the teaching alpha-beta."""
    jobs: tuple[tuple[str, str, str, Callable[[str], Callable[[], Facts]]], ...] = (
        ("solve", "ours: solve({name}), all states", "solve", _solve),
        (
            "search_value",
            "ours: engine search({name}, plies=False), root value and optimal moves",
            "root",
            functools.partial(_search, plies=False),
        ),
        (
            "search",
            "ours: engine search({name}), root value, optimal moves and plies",
            "root_plies",
            _search,
        ),
    )
    cases = [
        Case(
            suite="tictactoe",
            key=f"ours.{job}.{short}",
            label=label.format(name=name),
            side="ours",
            kind=kind,
            prepare=functools.partial(prepare, name),
        )
        for job, label, kind, prepare in jobs
        for name, short in (("tictactoe-bitboard", "bitboard"), ("tictactoe", "readable"))
    ]
    cases.append(
        Case(
            suite="tictactoe",
            key="ours.alphabeta.readable",
            label="ours: teaching alphabeta(tictactoe), root",
            side="ours",
            kind="root",
            prepare=lambda: _teaching("tictactoe", "alphabeta"),
        )
    )
    return cases


def ayoayo_cases(
    depth: int = 10, time_limit: float = 1.0, depth_repeat: int = 3, reach_depth: int = 12
) -> list[Case]:
    """Our Ayòayò cases: nodes/s at ``depth``, time to ``reach_depth``, depth in ``time_limit``."""
    return [
        Case(
            suite="ayoayo",
            key="ours.engine.ayoayo",
            label=f"ours: engine search(ayoayo), depth {depth}",
            side="ours",
            kind="nps",
            prepare=lambda: _search("ayoayo", depth=depth),
        ),
        Case(
            suite="ayoayo",
            key="ours.to_depth.ayoayo",
            label=f"ours: engine search(ayoayo, depth={reach_depth}), time to reach the depth",
            side="ours",
            kind="to_depth",
            prepare=lambda: _search("ayoayo", depth=reach_depth),
        ),
        Case(
            suite="ayoayo",
            key="ours.depth_in_time.ayoayo",
            label=f"ours: engine search(ayoayo), time_limit={time_limit:g} s",
            side="ours",
            kind="depth",
            prepare=lambda: _search("ayoayo", time_limit=time_limit),
            repeat=depth_repeat,
        ),
        loop_check_case(),
    ]


LOOPING_SOWING = ([[1, 0, 1, 3, 1, 0], [0, 2, 1, 0, 2, 1]], 0, 3)
"""(board, player, cell) of a relay-sowing that never ends (docs/ayoayo-rules.md)."""


def _refuse_looping_sowing() -> Callable[[], Facts]:
    from games.ayoayo.rules import NeverEndingSowingError, relay_sow

    def job() -> Facts:
        try:
            relay_sow(*LOOPING_SOWING)
        except NeverEndingSowingError:
            return {"refused": True}
        return {"refused": False}

    return job


def loop_check_case() -> Case:
    """How long Ayòayò takes to prove that a relay-sowing never ends (no peer does it)."""
    return Case(
        suite="ayoayo",
        key="ours.loop_check.ayoayo",
        label="ours: relay_sow refuses a never-ending sowing",
        side="ours",
        kind="loop_check",
        prepare=_refuse_looping_sowing,
    )


@attrs.frozen
class Agreement:
    """The engine's value against a teaching search's value at one depth from the start."""

    depth: int
    oracle: str
    oracle_value: Any
    engine_value: Any
    oracle_seconds: float
    oracle_nodes: int

    @property
    def equal(self) -> bool:
        """True when the two values agree."""
        return bool(self.oracle_value == self.engine_value)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report."""
        record = attrs.asdict(self)
        record["equal"] = self.equal
        return record


def minimax_agreement(
    name: str = "ayoayo", budget_s: float = 20.0, max_depth: int = 16, growth: float = 6.0
) -> list[Agreement]:
    """Compare the engine with the teaching minimax at depths 1, 2, ... from the start.

    A depth is tried only while the teaching minimax is predicted to finish within what is
    left of ``budget_s`` (the last depth's time times ``growth``, the branching factor); then
    the teaching alpha-beta (same oracle module, exact root value) carries on deeper under the
    same rule. Returns one record per depth that finished.
    """
    from games import load_game
    from solver.engine import search
    from solver.minimax import alphabeta, minimax

    records: list[Agreement] = []
    started = time.perf_counter()
    depth = 1
    for oracle in ("minimax", "alphabeta"):
        run = {"minimax": minimax, "alphabeta": alphabeta}[oracle]
        last = 0.0
        while depth <= max_depth:
            left = budget_s - (time.perf_counter() - started)
            if last * growth > left or left <= 0:
                break
            t0 = time.perf_counter()
            expected = run(load_game(name), depth=depth)
            last = time.perf_counter() - t0
            got = search(load_game(name), depth=depth)
            records.append(
                Agreement(
                    depth=depth,
                    oracle=oracle,
                    oracle_value=_value(expected.value),
                    engine_value=_value(got.value),
                    oracle_seconds=last,
                    oracle_nodes=expected.stats.nodes,
                )
            )
            depth += 1
    return records
