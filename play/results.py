"""What a match counts: one compact outcome per game, tallies by seat, and the result.

Plain data (attrs, JSON); the text table of a result is written by ``zerosum.report``. "P1" is
player 0 (the first mover) and "P2" player 1, as in the article's table.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import attrs

from solver.endings import Ending
from solver.game import Player
from solver.output import write_text

__all__ = ["GameOutcome", "MatchInterrupted", "MatchResult", "MatchRow", "SeatTally"]


@attrs.frozen
class GameOutcome:
    """The compact result of game ``index`` of a match (what a worker sends back).

    ``first`` is 0 when agent A moved first (was player 0), 1 when agent B did; ``winner`` is
    the winning player (0 = the first mover) or None for a draw; ``score`` is player 0's.
    Equality ignores ``seconds``.
    """

    index: int
    first: int
    winner: Player | None
    score: float
    plies: int
    ended: Ending
    seconds: float = attrs.field(default=0.0, eq=False)
    moves: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    """The moves played, when the match keeps them (``run_match(..., keep_moves=True)``)."""

    @property
    def winning_agent(self) -> int | None:
        """0 if agent A won, 1 if agent B won, None for a draw."""
        return None if self.winner is None else self.winner ^ self.first


@attrs.frozen
class SeatTally:
    """The counts of the games played in one seating (agent A first, or agent B first).

    A match keeps these, not one record per game, so its memory does not grow with the number
    of games. Equality ignores ``seconds``.

    >>> SeatTally().add(GameOutcome(0, 0, winner=0, score=1, plies=5, ended="terminal"))
    SeatTally(games=1, p1_wins=1, p2_wins=0, draws=0, repetitions=0, ply_limits=0, plies=5, \
seconds=0.0)
    """

    games: int = 0
    p1_wins: int = 0
    p2_wins: int = 0
    draws: int = 0
    repetitions: int = 0
    ply_limits: int = 0
    plies: int = 0
    seconds: float = attrs.field(default=0.0, eq=False)

    def add(self, outcome: GameOutcome) -> SeatTally:
        """These counts with one more game."""
        return SeatTally(
            games=self.games + 1,
            p1_wins=self.p1_wins + (outcome.winner == 0),
            p2_wins=self.p2_wins + (outcome.winner == 1),
            draws=self.draws + (outcome.winner is None),
            repetitions=self.repetitions + (outcome.ended == "repetition"),
            ply_limits=self.ply_limits + (outcome.ended == "ply-limit"),
            plies=self.plies + outcome.plies,
            seconds=self.seconds + outcome.seconds,
        )

    def __add__(self, other: SeatTally) -> SeatTally:
        return SeatTally(
            *(a + b for a, b in zip(attrs.astuple(self), attrs.astuple(other), strict=True))
        )


@attrs.frozen
class MatchRow:
    """One seating's line of a match's table: who moved first, and the counts."""

    first: str
    second: str
    games: int
    p1_wins: int
    p2_wins: int
    draws: int
    repetitions: int
    ply_limits: int
    average_plies: float
    seconds_per_game: float


def _row(first: str, second: str, tally: SeatTally) -> MatchRow:
    n = tally.games
    return MatchRow(
        first=first,
        second=second,
        games=n,
        p1_wins=tally.p1_wins,
        p2_wins=tally.p2_wins,
        draws=tally.draws,
        repetitions=tally.repetitions,
        ply_limits=tally.ply_limits,
        average_plies=tally.plies / n if n else 0.0,
        seconds_per_game=tally.seconds / n if n else 0.0,
    )


def _tallies(outcomes: Sequence[GameOutcome]) -> tuple[SeatTally, SeatTally]:
    seats = [SeatTally(), SeatTally()]
    for outcome in outcomes:
        seats[outcome.first] = seats[outcome.first].add(outcome)
    return seats[0], seats[1]


@attrs.frozen(repr=False)
class MatchResult:
    """The results of a match between agents A and B.

    Counts by seat: ``p1_wins`` / ``p2_wins`` count wins of the first / second mover,
    whoever that was; by agent: ``wins[0]`` / ``wins[1]`` count wins of agent A / B. With
    ``swap`` A moves first in even-numbered games and B in odd ones; without it A always moves
    first. Equality compares the counts, outcomes and settings, not timings or the worker count.

    Attributes:
        game: the game's name.
        agents: the names of agents A and B.
        seed: the match seed.
        swap: whether the first move alternated between the agents.
        max_plies: the ply limit per game (None: none).
        outcomes: one record per game, in game order; empty unless the match kept them
            (``run_match(..., keep_outcomes=True)``, the default).
        end_on_repetition: whether a repeated position ended a game.
        tallies: the counts with agent A first, then with agent B first (by default computed
            from ``outcomes``).
        requested: the number of games asked for (by default the number played); more than
            :attr:`games` when the match was interrupted.
        workers: the worker processes used (1: in this process; with an executor, the count
            that sized the chunks).
        wall_seconds: the elapsed time of the whole match.
    """

    game: str
    agents: tuple[str, str]
    seed: int
    swap: bool
    max_plies: int | None
    outcomes: tuple[GameOutcome, ...] = ()
    end_on_repetition: bool = True
    tallies: tuple[SeatTally, SeatTally] = attrs.field()
    requested: int = attrs.field()
    workers: int = attrs.field(default=1, eq=False)
    wall_seconds: float = attrs.field(default=0.0, eq=False)

    @tallies.default
    def _count_outcomes(self) -> tuple[SeatTally, SeatTally]:
        return _tallies(self.outcomes)

    @requested.default
    def _played(self) -> int:
        return self.tallies[0].games + self.tallies[1].games

    def __repr__(self) -> str:
        """A one-line summary (the counts in :meth:`rows`, per-game records in ``outcomes``).

        >>> from games import load_game
        >>> from play import run_match
        >>> run_match(load_game("textbook"), "minimax:2", "random", games=4, seed=1)
        <MatchResult textbook minimax:2 vs random, seed 1: 4 games, wins 4-0, 0 drawn>
        """
        seats = ", swapped seats" if self.swap else ""
        a, b = self.wins
        played = f"{self.games:,}" if self.complete else f"{self.games:,} of {self.requested:,}"
        return (
            f"<MatchResult {self.game} {self.agents[0]} vs {self.agents[1]}, seed {self.seed}"
            f"{seats}: {played} games, wins {a:,}-{b:,}, {self.draws:,} drawn>"
        )

    @property
    def total(self) -> SeatTally:
        """The counts over both seatings."""
        return self.tallies[0] + self.tallies[1]

    @property
    def complete(self) -> bool:
        """Whether every game asked for was played (False after an interrupt)."""
        return self.games == self.requested

    @property
    def games(self) -> int:
        """The number of games played."""
        return self.total.games

    @property
    def p1_wins(self) -> int:
        """Games won by the player who moved first."""
        return self.total.p1_wins

    @property
    def p2_wins(self) -> int:
        """Games won by the player who moved second."""
        return self.total.p2_wins

    @property
    def draws(self) -> int:
        """Drawn games."""
        return self.total.draws

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by agent A and by agent B, whichever seat they had."""
        a_first, b_first = self.tallies
        return (a_first.p1_wins + b_first.p2_wins, a_first.p2_wins + b_first.p1_wins)

    @property
    def repetitions(self) -> int:
        """Games that ended because a full position repeated."""
        return self.total.repetitions

    @property
    def ply_limits(self) -> int:
        """Games stopped by the ply limit."""
        return self.total.ply_limits

    @property
    def average_plies(self) -> float:
        """The mean number of moves per game."""
        return self.total.plies / self.games if self.games else 0.0

    @property
    def seconds_per_game(self) -> float:
        """The mean time one game took to play (in its worker)."""
        return self.total.seconds / self.games if self.games else 0.0

    def rows(self) -> list[MatchRow]:
        """One table row per seating: A first (and B first when swapping)."""
        return [
            _row(self.agents[first], self.agents[1 - first], tally)
            for first, tally in enumerate(self.tallies)
            if tally.games
        ]

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """The results as plain JSON-ready data; ``games=True`` adds one record per game."""
        data: dict[str, Any] = {
            "game": self.game,
            "agents": list(self.agents),
            "seed": self.seed,
            "swap": self.swap,
            "max_plies": self.max_plies,
            "end_on_repetition": self.end_on_repetition,
            "workers": self.workers,
            "games": self.games,
            "p1_wins": self.p1_wins,
            "p2_wins": self.p2_wins,
            "draws": self.draws,
            "requested": self.requested,
            "complete": self.complete,
            "wins_by_agent": {self.agents[0]: self.wins[0], self.agents[1]: self.wins[1]}
            if self.agents[0] != self.agents[1]
            else None,
            "ended_by_repetition": self.repetitions,
            "ended_by_ply_limit": self.ply_limits,
            "average_plies": self.average_plies,
            "seconds_per_game": self.seconds_per_game,
            "wall_seconds": self.wall_seconds,
            "rows": [attrs.asdict(r) for r in self.rows()],
        }
        if games:
            data["outcomes"] = [attrs.asdict(o) for o in self.outcomes]
        return data

    def to_json(
        self,
        path: str | os.PathLike[str] | None = None,
        games: bool = False,
        *,
        overwrite: bool = True,
    ) -> str:
        """The results as JSON text (see :meth:`to_dict`), also written to ``path`` if given.

        The file is written atomically (see :mod:`solver.output`); ``overwrite=False`` refuses
        to replace an existing file.
        """
        text = json.dumps(self.to_dict(games=games), indent=2)
        if path is not None:
            write_text(path, text + "\n", overwrite=overwrite)
        return text


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a match; ``result`` holds the games that finished.

    A ``KeyboardInterrupt``, so code that does not look for it stops as on any Ctrl-C; the
    command line catches it to print what finished (``result.complete`` is False).
    """

    def __init__(self, result: MatchResult) -> None:
        super().__init__(f"match interrupted after {result.games:,} of {result.requested:,} games")
        self.result = result
