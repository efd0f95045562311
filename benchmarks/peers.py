"""The peers' side: OpenSpiel, easyAI and aima3 doing the same jobs as ours.

Each ``*_cases`` function returns :class:`benchmarks.harness.Case` records; a peer that is not
installed raises :class:`benchmarks.harness.PeerMissingError` from ``prepare`` and is reported
as skipped. Every timed call starts from scratch (a new solver, a new transposition table).

Tic-tac-toe (suite "tictactoe"):
    * OpenSpiel ``MinimaxSolver("tic_tac_toe").solve()``: a table of every non-terminal state
      (4,520) with its value and action values, the peer of our strong solve;
    * OpenSpiel ``minimax.alpha_beta_search`` from the empty board (its Python alpha-beta
      over the C++ game);
    * easyAI ``Negamax(9)`` with its ``TranspositionTable`` on its ``TicTacToe`` (which lacks
      the ``ttentry`` the table needs; we add one returning the board);
    * aima3 ``alphabeta_search`` and ``minimax_decision`` on its ``TicTacToe``.

Mancala (suite "ayoayo"), nodes per second of a fixed-depth alpha-beta from the start:
    * OpenSpiel ``alpha_beta_search`` on its C++ ``oware`` and ``mancala`` (Kalah), with the
      score difference as value function;
    * easyAI ``Negamax`` on its ``Awele`` with the score difference as scoring.
    Their searches do not count nodes: one extra untimed run counts the calls of the
    recursive search function (each call is one node entered, the root included).
    And the time OpenSpiel's ``alpha_beta_search`` on ``oware`` takes to search to the depth
    our engine is timed to (kind "to_depth", default 12): a fixed-depth search (no iterative
    deepening, no table) on a sister game, so the ratio is indicative, not like for like.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from benchmarks.harness import Case, Facts, PeerMissingError

__all__ = ["ayoayo_cases", "peer_versions", "tictactoe_cases"]

_DISTRIBUTIONS = {"openspiel": "open_spiel", "easyai": "easyAI", "aima3": "aima3"}


def _import(module: str, peer: str) -> ModuleType:
    """Import a peer's module, or raise PeerMissingError saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        dist = _DISTRIBUTIONS.get(peer, peer)
        raise PeerMissingError(f"{peer} not installed ({error}); pip install {dist}") from None


def peer_versions() -> dict[str, str | None]:
    """The installed version of each peer distribution (None when missing)."""
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for peer, dist in _DISTRIBUTIONS.items():
        try:
            versions[peer] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[peer] = None
    return versions


@contextmanager
def _counting(module: ModuleType, name: str, counter: list[int]) -> Iterator[None]:
    """Temporarily wrap ``module.name`` (a recursive function) to count its calls."""
    original = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    setattr(module, name, counted)
    try:
        yield
    finally:
        setattr(module, name, original)


def _count_calls(module: ModuleType, name: str, job: Callable[[], Facts]) -> int:
    counter = [0]
    with _counting(module, name, counter):
        job()
    return counter[0]


# --------------------------------------------------------------------------- tic-tac-toe


def _openspiel_solver() -> Callable[[], Facts]:
    pyspiel = _import("pyspiel", "openspiel")
    minimax_solver = _import("open_spiel.python.algorithms.minimax_solver", "openspiel")
    root_key = str(pyspiel.load_game("tic_tac_toe").new_initial_state())

    def job() -> Facts:
        table = minimax_solver.MinimaxSolver("tic_tac_toe").solve()
        return {"value": float(table[root_key].value), "states": len(table)}

    return job


def _openspiel_alpha_beta_ttt() -> Callable[[], Facts]:
    pyspiel = _import("pyspiel", "openspiel")
    minimax = _import("open_spiel.python.algorithms.minimax", "openspiel")
    game = pyspiel.load_game("tic_tac_toe")

    def job() -> Facts:
        value, action = minimax.alpha_beta_search(game, maximizing_player_id=0)
        return {"value": float(value), "best_action": int(action)}

    return job


def _openspiel_alpha_beta_ttt_nodes() -> int:
    minimax = _import("open_spiel.python.algorithms.minimax", "openspiel")
    return _count_calls(minimax, "_alpha_beta", _openspiel_alpha_beta_ttt())


def _easyai_ttt() -> Callable[[], Facts]:
    easyai = _import("easyAI", "easyai")
    games = _import("easyAI.games", "easyai")

    class TableTicTacToe(games.TicTacToe):  # type: ignore[misc,name-defined]
        """easyAI's TicTacToe plus the ttentry its transposition table needs."""

        def ttentry(self) -> tuple[int, ...]:
            return tuple(self.board)

    def job() -> Facts:
        table = easyai.TranspositionTable()
        ai = easyai.Negamax(9, tt=table)
        game = TableTicTacToe([easyai.AI_Player(ai), easyai.AI_Player(ai)])
        move = ai(game)
        # easyAI scores -100 for a loss of the side to move; 0 is a draw.
        return {"value": float(ai.alpha) + 0.0, "best_action": int(move) - 1, "table": len(table.d)}

    return job


def _easyai_negamax_nodes(job: Callable[[], Facts]) -> int:
    _import("easyAI", "easyai")
    return _count_calls(sys.modules["easyAI.AI.Negamax"], "negamax", job)


def _aima_ttt(decision: str) -> Callable[[], Facts]:
    games = _import("aima3.games", "aima3")
    game = games.TicTacToe()
    search = getattr(games, decision)

    def job() -> Facts:
        x, y = search(game.initial, game)
        return {"best_action": (x - 1) * 3 + (y - 1)}

    return job


def tictactoe_cases(quick: bool = False) -> list[Case]:
    """The peers' tic-tac-toe cases (aima3's plain minimax, ~2 s a run, only when not quick)."""
    cases = [
        Case(
            suite="tictactoe",
            key="openspiel.minimax_solver",
            label="OpenSpiel MinimaxSolver, table of all states",
            side="openspiel",
            kind="solve",
            prepare=_openspiel_solver,
        ),
        Case(
            suite="tictactoe",
            key="openspiel.alpha_beta",
            label="OpenSpiel alpha_beta_search, root",
            side="openspiel",
            kind="root",
            prepare=_openspiel_alpha_beta_ttt,
            count_nodes=_openspiel_alpha_beta_ttt_nodes,
        ),
        Case(
            suite="tictactoe",
            key="easyai.negamax_tt",
            label="easyAI Negamax(9) + TranspositionTable, root",
            side="easyai",
            kind="root",
            prepare=_easyai_ttt,
            count_nodes=lambda: _easyai_negamax_nodes(_easyai_ttt()),
        ),
        Case(
            suite="tictactoe",
            key="aima3.alphabeta",
            label="aima3 alphabeta_search, root",
            side="aima3",
            kind="root",
            prepare=lambda: _aima_ttt("alphabeta_search"),
        ),
    ]
    if not quick:
        cases.append(
            Case(
                suite="tictactoe",
                key="aima3.minimax",
                label="aima3 minimax_decision, root",
                side="aima3",
                kind="root",
                prepare=lambda: _aima_ttt("minimax_decision"),
                repeat=3,
            )
        )
    return cases


# --------------------------------------------------------------------------- mancala


def _oware_value(state: Any) -> float:
    tensor = state.observation_tensor(0)
    return float(round((tensor[12] - tensor[13]) * 48))


def _kalah_value(state: Any) -> float:
    tensor = state.observation_tensor(0)
    return float(tensor[7] - tensor[0])


def _openspiel_mancala(name: str, depth: int) -> Callable[[], Facts]:
    pyspiel = _import("pyspiel", "openspiel")
    minimax = _import("open_spiel.python.algorithms.minimax", "openspiel")
    game = pyspiel.load_game(name)
    value_function = _oware_value if name == "oware" else _kalah_value

    def job() -> Facts:
        value, action = minimax.alpha_beta_search(
            game, maximum_depth=depth, value_function=value_function, maximizing_player_id=0
        )
        return {"value": float(value), "best_action": int(action), "depth": depth}

    return job


def _openspiel_mancala_nodes(name: str, depth: int) -> int:
    minimax = _import("open_spiel.python.algorithms.minimax", "openspiel")
    return _count_calls(minimax, "_alpha_beta", _openspiel_mancala(name, depth))


def _easyai_awele(depth: int) -> Callable[[], Facts]:
    easyai = _import("easyAI", "easyai")
    awele = _import("easyAI.games.Awele", "easyai")

    def scoring(game: Any) -> float:
        return float(game.player.score - game.opponent.score)

    def job() -> Facts:
        ai = easyai.Negamax(depth, scoring)
        game = awele.Awele([easyai.AI_Player(ai), easyai.AI_Player(ai)])
        move = ai(game)
        return {"value": float(ai.alpha) + 0.0, "best_action": str(move), "depth": depth}

    return job


def ayoayo_cases(
    oware_depth: int = 10, kalah_depth: int = 9, awele_depth: int = 10, reach_depth: int = 12
) -> list[Case]:
    """The peers' fixed-depth alpha-beta cases on mancala games: nodes/s, time to a depth."""
    return [
        Case(
            suite="ayoayo",
            key="openspiel.oware",
            label=f"OpenSpiel alpha_beta_search, C++ oware, depth {oware_depth}",
            side="openspiel",
            kind="nps",
            prepare=lambda: _openspiel_mancala("oware", oware_depth),
            count_nodes=lambda: _openspiel_mancala_nodes("oware", oware_depth),
        ),
        Case(
            suite="ayoayo",
            key="openspiel.oware_to_depth",
            label=f"OpenSpiel alpha_beta_search, C++ oware, time to depth {reach_depth}",
            side="openspiel",
            kind="to_depth",
            prepare=lambda: _openspiel_mancala("oware", reach_depth),
            count_nodes=lambda: _openspiel_mancala_nodes("oware", reach_depth),
        ),
        Case(
            suite="ayoayo",
            key="openspiel.kalah",
            label=f"OpenSpiel alpha_beta_search, C++ mancala (Kalah), depth {kalah_depth}",
            side="openspiel",
            kind="nps",
            prepare=lambda: _openspiel_mancala("mancala", kalah_depth),
            count_nodes=lambda: _openspiel_mancala_nodes("mancala", kalah_depth),
        ),
        Case(
            suite="ayoayo",
            key="easyai.awele",
            label=f"easyAI Negamax, Awele, depth {awele_depth}",
            side="easyai",
            kind="nps",
            prepare=lambda: _easyai_awele(awele_depth),
            count_nodes=lambda: _easyai_negamax_nodes(_easyai_awele(awele_depth)),
        ),
    ]
