"""Matches: two agents play many games, in this process or in parallel, reproducibly.

Reproducibility (:func:`run_match`): game ``i`` of a match with seed ``s`` draws all its
randomness from ``random.Random(f"{s}/{i}")``, so the outcomes depend only on the seed and the
game index: the same for any worker count, chunk size or executor (except for agents that depend
on the clock, i.e. ``engine:SECONDS``).
"""

from __future__ import annotations

import concurrent.futures
import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

import attrs

from play.agents import Agent, as_agent, check_agents
from play.game_loop import play_game
from play.results import GameOutcome, MatchInterrupted, MatchResult, SeatTally
from play.runner import chunks, max_workers, play_in_own_pool, play_in_pool
from solver.errors import AgentError
from solver.game import Game
from solver.quoting import quote
from solver.workers import LOOK_AHEAD

__all__ = ["game_rng", "run_match"]

AnyGame: TypeAlias = Game[Any, Any]
GameFactory: TypeAlias = Callable[[], AnyGame]
Progress: TypeAlias = Callable[[int, int], None]


def game_rng(seed: int, index: int) -> random.Random:
    """The random stream of game ``index`` in a match with ``seed`` (independent of workers).

    >>> game_rng(1, 0).random() == game_rng(1, 0).random() != game_rng(1, 1).random()
    True
    """
    return random.Random(f"{seed}/{index}")


def _load(game: AnyGame | GameFactory) -> AnyGame:
    if hasattr(game, "initial_state"):
        return cast(AnyGame, game)
    return game()


def _play_one(
    rulebook: AnyGame,
    pair: tuple[Agent, Agent],
    seed: int,
    swap: bool,
    max_plies: int | None,
    end_on_repetition: bool,
    index: int,
    keep_moves: bool = False,
) -> GameOutcome:
    """Play game ``index`` of a match (its moves kept in the outcome with ``keep_moves``)."""
    first = index % 2 if swap else 0
    record = play_game(
        rulebook,
        (pair[first], pair[1 - first]),
        game_rng(seed, index),
        max_plies=max_plies,
        end_on_repetition=end_on_repetition,
        check_cost=False,  # the match checked once
    )
    return GameOutcome(
        index=index,
        first=first,
        winner=record.winner,
        score=record.score,
        plies=record.plies,
        ended=record.ended,
        seconds=record.seconds,
        moves=record.moves if keep_moves else (),
    )


def _play_chunk(
    game: AnyGame | GameFactory,
    agents: tuple[str | Agent, str | Agent],
    seed: int,
    swap: bool,
    max_plies: int | None,
    end_on_repetition: bool,
    keep_moves: bool,
    indices: range,
) -> list[GameOutcome]:
    """Play games ``indices`` of a match (runs in a worker; everything here is picklable)."""
    rulebook = _load(game)
    pair = (as_agent(agents[0]), as_agent(agents[1]))
    return [
        _play_one(rulebook, pair, seed, swap, max_plies, end_on_repetition, index, keep_moves)
        for index in indices
    ]


@attrs.define
class _Tally:
    """A match's counts as its games finish (in any order)."""

    keep: bool
    seats: list[SeatTally] = attrs.Factory(lambda: [SeatTally(), SeatTally()])
    outcomes: list[GameOutcome] = attrs.Factory(list)
    played: int = 0

    def add(self, outcomes: Sequence[GameOutcome]) -> None:
        for outcome in outcomes:
            self.seats[outcome.first] = self.seats[outcome.first].add(outcome)
        if self.keep:
            self.outcomes.extend(outcomes)
        self.played += len(outcomes)


def run_match(
    game: AnyGame | GameFactory,
    agent_a: str | Agent,
    agent_b: str | Agent,
    games: int,
    seed: int = 0,
    swap: bool = False,
    workers: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    max_plies: int | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
    end_on_repetition: bool = True,
    *,
    keep_outcomes: bool = True,
    keep_moves: bool = False,
) -> MatchResult:
    """Play ``games`` games between agents A and B and count the results.

    Game ``i`` uses the random stream :func:`game_rng` ``(seed, i)``, so the outcomes are the
    same for every worker count and executor (unless an agent depends on the clock). With
    ``swap`` agent B moves first in the odd-numbered games.

    Memory and stopping: chunks of games are submitted a few per worker ahead of the results
    read, and only counts are kept (plus one small record per game with ``keep_outcomes``), so
    a match of millions of games runs in flat memory with ``keep_outcomes=False``. Ctrl-C
    cancels what was not started, stops this function's own worker processes at once and raises
    :class:`MatchInterrupted` with the games that finished. Workers also exit by themselves if
    this process dies.

    Args:
        game: a Game, or a picklable zero-argument factory returning one (e.g.
            ``functools.partial(games.load_game, "ayoayo")``); workers call the factory
            (or unpickle the game) once per chunk of games.
        agent_a: the first agent (moves first unless swapped), a spec or an Agent.
        agent_b: the second agent.
        games: how many games to play (>= 1).
        seed: the match seed.
        swap: alternate which agent moves first.
        workers: play in up to this many processes (a ``ProcessPoolExecutor``; never more
            than there are chunks of games; more than :func:`max_workers` is refused); None or
            1: in this process. With ``executor`` it only sizes the chunks.
        executor: any ``concurrent.futures.Executor`` (e.g. a Dask or Ray one) to run the
            chunks on; the caller owns it and shuts it down (on Ctrl-C its running chunks
            finish on their own: only this function's own processes are stopped).
        max_plies: the ply limit per game (None: none; a repeated position still ends a game).
        progress: called as ``progress(games_done, games)`` after each chunk.
        chunk_size: games per task (default: about eight tasks per worker, at most 1,000).
        end_on_repetition: a repeated position ends a game (default); False needs
            ``max_plies`` (see :mod:`play.game_loop`).
        keep_outcomes: keep one :class:`GameOutcome` per game in ``outcomes`` (default);
            False keeps the counts only.
        keep_moves: keep each game's moves in its outcome (``GameOutcome.moves``), e.g. to
            write the games as records; needs ``keep_outcomes``.

    Raises:
        AgentError: a bad spec, fewer than one game, a bad worker count, a human agent asked
            to play in workers, or an agent too deep to finish a move (:func:`check_agents`).
        MatchInterrupted: Ctrl-C; its ``result`` counts the games that finished.

    >>> from games import load_game
    >>> result = run_match(load_game("textbook"), "minimax:2", "random", games=10, seed=1)
    >>> result.games, result.p1_wins
    (10, 10)
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AgentError(f"bad number of games {quote(games)}; expected an int >= 1")
    if max_plies is None and not end_on_repetition:
        raise AgentError(
            "end_on_repetition=False needs a max_plies: without the repetition rule a game "
            "may cycle for ever"
        )
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise AgentError(f"bad number of workers {quote(workers)}; expected an int >= 1")
    pair = (as_agent(agent_a), as_agent(agent_b))
    pool_workers = workers or 1
    parallel = executor is not None or pool_workers > 1
    if parallel and any(agent.interactive for agent in pair):
        raise AgentError("a human agent cannot play in worker processes; use workers=1")
    rulebook = _load(game)
    check_agents(rulebook, pair)
    # Send specs (cheap, always picklable) for the built-in agents, the objects otherwise.
    sent = tuple(
        spec if isinstance(spec, str) and not agent.interactive else agent
        for spec, agent in zip((agent_a, agent_b), pair, strict=True)
    )
    agents: tuple[str | Agent, str | Agent] = (sent[0], sent[1])
    if chunk_size is None:
        chunk_size = max(1, min(1000, math.ceil(games / (8 * pool_workers))))
    pool_workers = min(pool_workers, math.ceil(games / chunk_size))  # no idle processes
    if executor is None and pool_workers > max_workers():
        raise AgentError(
            f"bad number of workers {quote(workers)}; expected 1 to {max_workers()} (four per "
            "CPU of this machine: more processes would only compete for the CPUs)"
        )
    start = time.perf_counter()
    tally = _Tally(keep=keep_outcomes)

    def record(outcomes: list[GameOutcome]) -> None:
        tally.add(outcomes)
        if progress is not None:
            progress(tally.played, games)

    try:
        if executor is None and pool_workers <= 1:
            pool_workers = 1
            for indices in chunks(games, chunk_size):
                record(
                    [
                        _play_one(
                            rulebook, pair, seed, swap, max_plies, end_on_repetition, i, keep_moves
                        )
                        for i in indices
                    ]
                )
        else:
            task = functools.partial(
                _play_chunk, game, agents, seed, swap, max_plies, end_on_repetition, keep_moves
            )
            pieces = chunks(games, chunk_size)
            in_flight = LOOK_AHEAD * pool_workers
            if executor is not None:
                play_in_pool(executor, task, pieces, in_flight, record)
            else:
                play_in_own_pool(pool_workers, task, pieces, record)
    except KeyboardInterrupt:
        interrupted = True
    else:
        interrupted = False
    result = _result(
        rulebook,
        pair,
        seed,
        swap,
        max_plies,
        end_on_repetition,
        tally,
        games,
        pool_workers,
        time.perf_counter() - start,
    )
    if interrupted:
        raise MatchInterrupted(result)
    return result


def _result(
    rulebook: AnyGame,
    pair: tuple[Agent, Agent],
    seed: int,
    swap: bool,
    max_plies: int | None,
    end_on_repetition: bool,
    tally: _Tally,
    requested: int,
    workers: int,
    seconds: float,
) -> MatchResult:
    return MatchResult(
        game=rulebook.name,
        agents=(pair[0].name, pair[1].name),
        seed=seed,
        swap=swap,
        max_plies=max_plies,
        outcomes=tuple(sorted(tally.outcomes, key=lambda o: o.index)),
        end_on_repetition=end_on_repetition,
        tallies=(tally.seats[0], tally.seats[1]),
        requested=requested,
        workers=workers,
        wall_seconds=seconds,
    )
