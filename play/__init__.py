"""Playing games: agents, one game played out, and matches between agents, on any game.

Assumes two players, zero-sum, deterministic, perfect information, as :mod:`solver` does; knows
no game. This package sits above the searches (as OpenSpiel keeps ``evaluate_bots`` above its
bots): an agent calls a search of :mod:`solver`, and no search imports anything here. What a
search shares with play, the repetition rule and the scoring of a game stopped early, is
:mod:`solver.endings`, below both.

- :mod:`play.agents`: the agents and their specs (``random``, ``minimax:3``, ``engine:0.1``,
  ``mcts:2000``, ``human``, ...), :func:`parse_agent`, :func:`check_agents`.
- :mod:`play.game_loop`: :func:`play_game`, one game move by move.
- :mod:`play.match`: :func:`run_match`, many games, reproducible for any worker count.
- :mod:`play.results`: what a match counts (:class:`MatchResult`); its text table is
  ``zerosum.report.match_table``.
- :mod:`play.runner`: the parallel runner under :func:`run_match`.

>>> from games import load_game
>>> result = run_match(load_game("textbook"), "minimax:2", "random", games=10, seed=1)
>>> result.games, result.p1_wins
(10, 10)
"""

from __future__ import annotations

from play.agents import (
    AGENT_SPECS,
    MAX_AGENT_DEPTH,
    MAX_ENGINE_SECONDS,
    MAX_NODES_PER_MOVE,
    Agent,
    AgentError,
    EngineAgent,
    HumanAgent,
    MctsAgent,
    MinimaxAgent,
    RandomAgent,
    check_agents,
    parse_agent,
)
from play.game_loop import GameRecord, play_game
from play.match import game_rng, run_match
from play.results import GameOutcome, MatchInterrupted, MatchResult, SeatTally
from play.runner import max_workers

__all__ = [
    "AGENT_SPECS",
    "MAX_AGENT_DEPTH",
    "MAX_ENGINE_SECONDS",
    "MAX_NODES_PER_MOVE",
    "Agent",
    "AgentError",
    "EngineAgent",
    "GameOutcome",
    "GameRecord",
    "HumanAgent",
    "MatchInterrupted",
    "MatchResult",
    "MctsAgent",
    "MinimaxAgent",
    "RandomAgent",
    "SeatTally",
    "check_agents",
    "game_rng",
    "max_workers",
    "parse_agent",
    "play_game",
    "run_match",
]
