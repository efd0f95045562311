"""Agents, single games and matches between agents, on any game.

Assumes two players, zero-sum, deterministic, perfect information, as the rest of ``solver``;
this module knows no game. Player 0 moves first; "P1" in tables is player 0 (the first mover)
and "P2" player 1, as in the article's table.

Agents (:func:`parse_agent` specs):

- ``random``: a uniformly random legal move.
- ``minimax:D``: the teaching :func:`solver.minimax.minimax` at depth ``D``, playing its
  ``best_action`` (ties go to the first best move in ``actions`` order), i.e. exactly the
  reference's minimax player.
- ``alphabeta:D``: the teaching :func:`solver.minimax.alphabeta` at depth ``D`` (same moves as
  ``minimax:D``, fewer nodes).
- ``engine:SECONDS`` (e.g. ``engine:0.1``): :func:`solver.engine.search` with that time limit per
  move; ``engine:dN`` (e.g. ``engine:d6``): the engine at fixed depth ``N``; ``engine`` alone is
  ``engine:1``. The engine breaks ties among value-keeping moves with a seed drawn from the game's
  random stream. A time-limited engine depends on the machine's speed, so its games are *not*
  reproducible; ``engine:dN`` games are.
- ``human``: asks for each move through an injectable ``ask`` function (``input`` by default)
  and re-asks, quoting the error, until the text names a legal move.

Ending rules (:func:`play_game`): a game ends at a terminal state (``"terminal"``, scored by
``utility``); when a full position repeats (``"repetition"``: the state's :func:`state_key`, which
for a board game holds the board, anything captured and the side to move, equals that of an
earlier position of the same game); or after ``max_plies`` plies (``"ply-limit"``). A game that
ends by repetition is scored by the game's ``endless_value`` when it has one, the score
:func:`solver.solve.solve` gives play that cycles for ever, so a played-out repetition and a
solved value agree; otherwise, and at the ply limit, by the game's ``evaluate`` when it has one
(its sign decides the winner; for Ayòayò both are the captured-seeds difference), and it is a
draw otherwise.

``end_on_repetition=False`` turns the repetition rule off (a game then runs until a terminal state
or the ply limit, which is then required): that is the rule of a reference implementation with no
repetition rule, where a random player eventually breaks a cycle that deterministic play would
repeat for ever. Use it to reproduce such a reference's statistics.

Reproducibility (:func:`run_match`): game ``i`` of a match with seed ``s`` draws all its
randomness from ``random.Random(f"{s}/{i}")``, so the outcomes depend only on the seed and the
game index: the same for any worker count, chunk size or executor (except for agents that depend
on the clock, i.e. ``engine:SECONDS``).

>>> import random
>>> from games import load_game
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> record = play_game(game, [parse_agent("minimax:2"), parse_agent("minimax:2")], random.Random(1))
>>> record.moves, record.score, record.ended
((0, 0), 3, 'terminal')
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from solver.game import (
    Game,
    GameError,
    HasEndlessValue,
    HasEvaluate,
    HasRender,
    IllegalActionError,
    Player,
    apply_check,
    format_action,
    format_state,
    parse_action,
    player_label,
    state_key,
)

__all__ = [
    "AGENT_SPECS",
    "Agent",
    "AgentError",
    "EngineAgent",
    "GameOutcome",
    "GameRecord",
    "HumanAgent",
    "MatchResult",
    "MinimaxAgent",
    "RandomAgent",
    "game_rng",
    "parse_agent",
    "play_game",
    "run_match",
]

Ending: TypeAlias = Literal["terminal", "repetition", "ply-limit"]
AnyGame: TypeAlias = Game[Any, Any]
GameFactory: TypeAlias = Callable[[], AnyGame]
Progress: TypeAlias = Callable[[int, int], None]
MoveObserver: TypeAlias = Callable[[int, Any, Any, Any], None]

AGENT_SPECS = "random, minimax:D, alphabeta:D, engine:SECONDS, engine:dN, human"
"""The agent specs :func:`parse_agent` accepts, as listed in its error messages."""

DEFAULT_ENGINE_SECONDS = 1.0


class AgentError(GameError, ValueError):
    """An agent spec that names no agent, or an agent that cannot play where it was asked to."""


@runtime_checkable
class Agent(Protocol):
    """A player: picks a legal action in a non-terminal state.

    ``name`` is the agent's spec (``"minimax:3"``); ``interactive`` agents (humans) cannot play
    in worker processes. All randomness comes from ``rng``, a seeded ``random.Random``.
    """

    @property
    def name(self) -> str:
        """The agent's spec, e.g. ``"minimax:3"``."""

    @property
    def interactive(self) -> bool:
        """True for agents that need a person (they cannot play in worker processes)."""

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """A legal action in the non-terminal ``state``, drawing any randomness from ``rng``."""


@attrs.frozen
class RandomAgent:
    """Plays a uniformly random legal move.

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> RandomAgent().choose(game, game.initial_state(), random.Random(0)) in (0, 1)
    True
    """

    name: str = attrs.field(default="random", init=False)
    interactive: bool = attrs.field(default=False, init=False)

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """A legal action drawn uniformly with ``rng``."""
        return rng.choice(list(game.actions(state)))


@attrs.frozen
class MinimaxAgent:
    """The teaching minimax (or alpha-beta) at a fixed depth: its first best move.

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> MinimaxAgent(2).choose(game, game.initial_state(), random.Random(0))
    0
    """

    depth: int
    algorithm: Literal["minimax", "alphabeta"] = "minimax"
    interactive: bool = attrs.field(default=False, init=False)

    @property
    def name(self) -> str:
        """The agent's spec, e.g. ``"minimax:3"``."""
        return f"{self.algorithm}:{self.depth}"

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """The search's ``best_action`` (``rng`` is unused: the teaching searches are exact)."""
        from solver.minimax import alphabeta, minimax

        search = alphabeta if self.algorithm == "alphabeta" else minimax
        return search(game, state, depth=self.depth).best_action


@attrs.frozen
class EngineAgent:
    """The engine with a time limit per move (``seconds``) or a fixed ``depth``.

    Ties among value-keeping moves break at random with a seed drawn from ``rng``.
    """

    seconds: float | None = None
    depth: int | None = None
    table_size: int = 1 << 20
    oracle: Callable[[Any], float | None] | None = attrs.field(default=None, kw_only=True)
    """Exact values of covered positions (an endgame tablebase's probe), for the engine."""
    interactive: bool = attrs.field(default=False, init=False)

    @property
    def name(self) -> str:
        """The agent's spec: ``"engine:0.1"`` or ``"engine:d6"``."""
        if self.depth is not None:
            return f"engine:d{self.depth}"
        return f"engine:{self.seconds:g}"

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """The engine's best action within the limit."""
        from solver.engine import search

        result = search(
            game,
            state,
            depth=self.depth,
            time_limit=self.seconds,
            seed=rng.getrandbits(32),
            table_size=self.table_size,
            oracle=self.oracle,
        )
        if result.best_action is None:  # a limit struck before depth 1: any legal move
            return next(iter(game.actions(state)))
        return result.best_action


@attrs.frozen
class HumanAgent:
    """A person at a terminal: asks for a move until the answer names a legal one.

    ``ask(prompt)`` returns a line of text (``input`` by default); ``tell(text)`` shows the
    position and error messages (``print`` by default). An ``EOFError`` or ``KeyboardInterrupt``
    from ``ask`` propagates to the caller (the CLI ends the game).

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> answers = iter(["7", "1"])
    >>> human = HumanAgent(ask=lambda prompt: next(answers), tell=lambda text: None)
    >>> human.choose(game, game.initial_state(), random.Random(0))
    1
    """

    ask: Callable[[str], str] = input
    tell: Callable[[str], None] = print
    show_position: bool = True
    name: str = attrs.field(default="human", init=False)
    interactive: bool = attrs.field(default=True, init=False)

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """Show the position (if ``show_position``), then ask until a legal move is given."""
        if self.show_position:
            self.tell(
                game.render(state) if isinstance(game, HasRender) else format_state(game, state)
            )
        legal = ", ".join(format_action(game, state, a) for a in game.actions(state))
        prompt = f"{player_label(game, game.to_move(state))} to move ({legal}): "
        while True:
            text = self.ask(prompt)
            try:
                return parse_action(game, state, text)
            except IllegalActionError as error:
                self.tell(str(error))


def parse_agent(spec: str) -> Agent:
    """The agent a spec names (see the module docstring for the specs).

    >>> parse_agent("minimax:3").name, parse_agent("engine:0.5").name, parse_agent("engine:d6").name
    ('minimax:3', 'engine:0.5', 'engine:d6')
    >>> parse_agent("minmax:3")
    Traceback (most recent call last):
    ...
    solver.match.AgentError: unknown agent 'minmax:3'; valid: random, minimax:D, alphabeta:D, \
engine:SECONDS, engine:dN, human

    Raises:
        AgentError: the spec names no agent, or its depth or time is not valid.
    """
    text = spec.strip().lower()
    kind, _, argument = text.partition(":")
    if kind in ("random", "human") and not argument:
        return RandomAgent() if kind == "random" else HumanAgent()
    if kind in ("minimax", "alphabeta"):
        if not argument.isdigit() or int(argument) < 1:
            raise AgentError(f"bad depth in agent {spec!r}; expected {kind}:D with D >= 1")
        return MinimaxAgent(int(argument), "minimax" if kind == "minimax" else "alphabeta")
    if kind == "engine":
        if not argument:
            return EngineAgent(seconds=DEFAULT_ENGINE_SECONDS)
        if argument.startswith("d"):
            if not argument[1:].isdigit() or int(argument[1:]) < 1:
                raise AgentError(f"bad depth in agent {spec!r}; expected engine:dN with N >= 1")
            return EngineAgent(depth=int(argument[1:]))
        try:
            seconds = float(argument)
        except ValueError:
            seconds = math.nan
        if not (seconds > 0 and math.isfinite(seconds)):
            raise AgentError(
                f"bad time in agent {spec!r}; expected engine:SECONDS with SECONDS > 0 "
                "(e.g. engine:0.1) or engine:dN for a fixed depth"
            )
        return EngineAgent(seconds=seconds)
    raise AgentError(f"unknown agent {spec!r}; valid: {AGENT_SPECS}")


def _as_agent(agent: str | Agent) -> Agent:
    return parse_agent(agent) if isinstance(agent, str) else agent


@attrs.frozen
class GameRecord:
    """One game played out.

    Attributes:
        agents: the agents' names, player 0's (who moved first) then player 1's.
        moves: every action played, in order.
        final_state: the state the game ended in.
        score: the final value from player 0's view: ``utility`` at a terminal state, the
            game's ``endless_value`` at a repetition when it has one, else its ``evaluate`` (0
            when it has none).
        winner: 0 or 1 (the player), or None for a draw: the sign of ``score``.
        ended: ``"terminal"``, ``"repetition"`` or ``"ply-limit"``.
        seconds: the time the game took.
    """

    agents: tuple[str, str]
    moves: tuple[Any, ...]
    final_state: Any
    score: float
    winner: Player | None
    ended: Ending
    seconds: float = attrs.field(default=0.0, eq=False)

    @property
    def plies(self) -> int:
        """The number of moves played."""
        return len(self.moves)


def _winner(score: float) -> Player | None:
    return 0 if score > 0 else 1 if score < 0 else None


def _unfinished_score(game: AnyGame, state: Any, ended: Ending) -> float:
    if ended == "repetition" and isinstance(game, HasEndlessValue):
        return game.endless_value(state)  # the score solve gives endless play
    return game.evaluate(state) if isinstance(game, HasEvaluate) else 0


def play_game(
    game: AnyGame,
    agents: Sequence[str | Agent],
    rng: random.Random,
    max_plies: int | None = None,
    state: Any = None,
    on_move: MoveObserver | None = None,
    end_on_repetition: bool = True,
) -> GameRecord:
    """Play one game: ``agents[0]`` moves for player 0, ``agents[1]`` for player 1.

    Every move is checked for legality. The game ends at a terminal state, at the first
    repetition of a full position (compared by :func:`solver.game.state_key`; the set of seen
    keys lives only for this game) or after ``max_plies`` moves; see the module docstring for
    the scoring of unfinished games.

    Args:
        game: the rulebook.
        agents: two agents or agent specs.
        rng: the only source of randomness for both agents.
        max_plies: stop after this many moves (None: no limit).
        state: the starting position (None: the initial state).
        on_move: called as ``on_move(ply, state, action, next_state)`` after each move
            (``ply`` counts from 1), e.g. for a CLI to show the moves.
        end_on_repetition: end the game at the first repeated position (the default); with
            False, repetitions are allowed and ``max_plies`` is required.

    Raises:
        IllegalActionError: an agent chose an illegal action.
        AgentError: not exactly two agents, a negative ``max_plies``, or no ``max_plies``
            when repetitions are allowed.

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> play_game(game, ["minimax:2", "random"], random.Random(0), max_plies=1).ended
    'ply-limit'
    """
    if len(agents) != 2:
        raise AgentError(f"a game needs exactly two agents, got {len(agents)}: {agents!r}")
    if max_plies is not None and max_plies < 0:
        raise AgentError(f"bad max_plies {max_plies!r}; expected None or an int >= 0")
    if max_plies is None and not end_on_repetition:
        raise AgentError(
            "end_on_repetition=False needs a max_plies: without the repetition rule a game "
            "may cycle for ever"
        )
    players = (_as_agent(agents[0]), _as_agent(agents[1]))
    start = time.perf_counter()
    state = game.initial_state() if state is None else state
    seen = {state_key(game, state)}
    moves: list[Any] = []
    ended: Ending
    while True:
        legal = list(game.actions(state))
        if not legal:
            ended = "terminal"
            break
        if max_plies is not None and len(moves) >= max_plies:
            ended = "ply-limit"
            break
        agent = players[game.to_move(state)]
        action = apply_check(game, state, agent.choose(game, state, rng), legal)
        after = game.result(state, action)
        moves.append(action)
        if on_move is not None:
            on_move(len(moves), state, action, after)
        state = after
        if not end_on_repetition:
            continue
        key = state_key(game, state)
        if key in seen:  # a terminal state never repeats: the game would have ended there
            ended = "repetition"
            break
        seen.add(key)
    score = game.utility(state) if ended == "terminal" else _unfinished_score(game, state, ended)
    return GameRecord(
        agents=(players[0].name, players[1].name),
        moves=tuple(moves),
        final_state=state,
        score=score,
        winner=_winner(score),
        ended=ended,
        seconds=time.perf_counter() - start,
    )


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

    @property
    def winning_agent(self) -> int | None:
        """0 if agent A won, 1 if agent B won, None for a draw."""
        return None if self.winner is None else self.winner ^ self.first


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


def _play_chunk(
    game: AnyGame | GameFactory,
    agents: tuple[str | Agent, str | Agent],
    seed: int,
    swap: bool,
    max_plies: int | None,
    end_on_repetition: bool,
    indices: range,
) -> list[GameOutcome]:
    """Play games ``indices`` of a match (runs in a worker; everything here is picklable)."""
    rulebook = _load(game)
    pair = (_as_agent(agents[0]), _as_agent(agents[1]))
    outcomes = []
    for index in indices:
        first = index % 2 if swap else 0
        seats = (pair[first], pair[1 - first])
        record = play_game(
            rulebook,
            seats,
            game_rng(seed, index),
            max_plies=max_plies,
            end_on_repetition=end_on_repetition,
        )
        outcomes.append(
            GameOutcome(
                index=index,
                first=first,
                winner=record.winner,
                score=record.score,
                plies=record.plies,
                ended=record.ended,
                seconds=record.seconds,
            )
        )
    return outcomes


@attrs.frozen
class _Row:
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


def _row(first: str, second: str, outcomes: Sequence[GameOutcome]) -> _Row:
    n = len(outcomes)
    return _Row(
        first=first,
        second=second,
        games=n,
        p1_wins=sum(o.winner == 0 for o in outcomes),
        p2_wins=sum(o.winner == 1 for o in outcomes),
        draws=sum(o.winner is None for o in outcomes),
        repetitions=sum(o.ended == "repetition" for o in outcomes),
        ply_limits=sum(o.ended == "ply-limit" for o in outcomes),
        average_plies=sum(o.plies for o in outcomes) / n if n else 0.0,
        seconds_per_game=sum(o.seconds for o in outcomes) / n if n else 0.0,
    )


@attrs.frozen
class MatchResult:
    """The results of a match between agents A and B.

    Counts by seat: ``p1_wins`` / ``p2_wins`` count wins of the first / second mover,
    whoever that was; by agent: ``wins[0]`` / ``wins[1]`` count wins of agent A / B. With
    ``swap`` A moves first in even-numbered games and B in odd ones; without it A always moves
    first. Equality compares the outcomes and settings, not timings or the worker count.

    Attributes:
        game: the game's name.
        agents: the names of agents A and B.
        seed: the match seed.
        swap: whether the first move alternated between the agents.
        max_plies: the ply limit per game (None: none).
        end_on_repetition: whether a repeated position ended a game.
        outcomes: one record per game, in game order.
        workers: the worker count asked for (1: in this process; chunk sizing with an executor).
        wall_seconds: the elapsed time of the whole match.
    """

    game: str
    agents: tuple[str, str]
    seed: int
    swap: bool
    max_plies: int | None
    outcomes: tuple[GameOutcome, ...]
    end_on_repetition: bool = True
    workers: int = attrs.field(default=1, eq=False)
    wall_seconds: float = attrs.field(default=0.0, eq=False)

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.outcomes)

    @property
    def p1_wins(self) -> int:
        """Games won by the player who moved first."""
        return sum(o.winner == 0 for o in self.outcomes)

    @property
    def p2_wins(self) -> int:
        """Games won by the player who moved second."""
        return sum(o.winner == 1 for o in self.outcomes)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(o.winner is None for o in self.outcomes)

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by agent A and by agent B, whichever seat they had."""
        return (
            sum(o.winning_agent == 0 for o in self.outcomes),
            sum(o.winning_agent == 1 for o in self.outcomes),
        )

    @property
    def repetitions(self) -> int:
        """Games that ended because a full position repeated."""
        return sum(o.ended == "repetition" for o in self.outcomes)

    @property
    def ply_limits(self) -> int:
        """Games stopped by the ply limit."""
        return sum(o.ended == "ply-limit" for o in self.outcomes)

    @property
    def average_plies(self) -> float:
        """The mean number of moves per game."""
        return sum(o.plies for o in self.outcomes) / self.games if self.games else 0.0

    @property
    def seconds_per_game(self) -> float:
        """The mean time one game took to play (in its worker)."""
        return sum(o.seconds for o in self.outcomes) / self.games if self.games else 0.0

    def rows(self) -> list[_Row]:
        """One table row per seating: A first (and B first when swapping)."""
        rows = []
        for first in (0, 1):
            part = [o for o in self.outcomes if o.first == first]
            if part:
                rows.append(_row(self.agents[first], self.agents[1 - first], part))
        return rows

    def table(self) -> str:
        """The results as a text table like the article's, one row per seating.

        >>> from games import load_game
        >>> result = run_match(load_game("textbook"), "minimax:2", "random", games=4, seed=1)
        >>> print(result.table().splitlines()[2].split()[:6])
        ['minimax:2', 'random', '4', '4', '0', '0']
        """
        header = (
            "P1 (first)",
            "P2",
            "games",
            "P1 wins",
            "P2 wins",
            "draws",
            "by repetition",
            "by ply limit",
            "avg plies",
            "s/game",
        )
        body = [
            (
                r.first,
                r.second,
                f"{r.games:,}",
                f"{r.p1_wins:,}",
                f"{r.p2_wins:,}",
                f"{r.draws:,}",
                f"{r.repetitions:,}",
                f"{r.ply_limits:,}",
                f"{r.average_plies:.2f}",
                f"{r.seconds_per_game:.3g}",
            )
            for r in self.rows()
        ]
        widths = [max(len(line[i]) for line in (header, *body)) for i in range(len(header))]

        def line(cells: Sequence[str]) -> str:
            parts = [
                cell.ljust(width) if i < 2 else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ]
            return "  ".join(parts).rstrip()

        lines = [line(header), "  ".join("-" * w for w in widths), *map(line, body)]
        if self.swap:
            a, b = self.wins
            lines.append(
                f"by agent over {self.games:,} games: A ({self.agents[0]}) won {a:,}, "
                f"B ({self.agents[1]}) won {b:,}, {self.draws:,} drawn"
            )
        limit = f"; ply limit {self.max_plies}" if self.max_plies is not None else ""
        ending = (
            "A repeated position (or the ply limit) ends a game"
            if self.end_on_repetition
            else "Repeated positions do not end a game; the ply limit does"
        )
        lines.append(
            f"{self.game}, seed {self.seed}{limit}. {ending},\n"
            "scored by the game's evaluation (its sign decides; a draw if it has none)."
        )
        return "\n".join(lines)

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

    def to_json(self, path: str | os.PathLike[str] | None = None, games: bool = False) -> str:
        """The results as JSON text (see :meth:`to_dict`), also written to ``path`` if given."""
        text = json.dumps(self.to_dict(games=games), indent=2)
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


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
) -> MatchResult:
    """Play ``games`` games between agents A and B and count the results.

    Game ``i`` uses the random stream :func:`game_rng` ``(seed, i)``, so the outcomes are the
    same for every worker count and executor (unless an agent depends on the clock). With
    ``swap`` agent B moves first in the odd-numbered games.

    Args:
        game: a Game, or a picklable zero-argument factory returning one (e.g.
            ``functools.partial(games.load_game, "ayoayo")``); workers call the factory
            (or unpickle the game) once per chunk of games.
        agent_a: the first agent (moves first unless swapped), a spec or an Agent.
        agent_b: the second agent.
        games: how many games to play (>= 1).
        seed: the match seed.
        swap: alternate which agent moves first.
        workers: play in this many processes (a ``ProcessPoolExecutor``); None or 1: in this
            process. Ignored for the pool when ``executor`` is given, but still sizes chunks.
        executor: any ``concurrent.futures.Executor`` (e.g. a Dask or Ray one) to run the
            chunks on; the caller owns it and shuts it down.
        max_plies: the ply limit per game (None: none; a repeated position still ends a game).
        progress: called as ``progress(games_done, games)`` after each chunk.
        chunk_size: games per task (default: about eight tasks per worker, at most 1,000).
        end_on_repetition: a repeated position ends a game (default); False needs
            ``max_plies`` (see the module docstring).

    Raises:
        AgentError: a bad spec, fewer than one game, or a human agent asked to play in workers.

    >>> from games import load_game
    >>> result = run_match(load_game("textbook"), "minimax:2", "random", games=10, seed=1)
    >>> result.games, result.p1_wins
    (10, 10)
    """
    if games < 1:
        raise AgentError(f"bad number of games {games!r}; expected an int >= 1")
    if max_plies is None and not end_on_repetition:
        raise AgentError(
            "end_on_repetition=False needs a max_plies: without the repetition rule a game "
            "may cycle for ever"
        )
    if workers is not None and workers < 1:
        raise AgentError(f"bad number of workers {workers!r}; expected an int >= 1")
    pair = (_as_agent(agent_a), _as_agent(agent_b))
    pool_workers = workers or 1
    parallel = executor is not None or pool_workers > 1
    if parallel and any(agent.interactive for agent in pair):
        raise AgentError("a human agent cannot play in worker processes; use workers=1")
    # Send specs (cheap, always picklable) for the built-in agents, the objects otherwise.
    sent = tuple(
        spec if isinstance(spec, str) and not agent.interactive else agent
        for spec, agent in zip((agent_a, agent_b), pair, strict=True)
    )
    agents: tuple[str | Agent, str | Agent] = (sent[0], sent[1])
    if chunk_size is None:
        chunk_size = max(1, min(1000, math.ceil(games / (8 * pool_workers))))
    rulebook = _load(game)
    start = time.perf_counter()
    outcomes: list[GameOutcome] = []
    if not parallel:
        for indices in _chunks(games, chunk_size):
            outcomes.extend(
                _play_chunk(rulebook, pair, seed, swap, max_plies, end_on_repetition, indices)
            )
            if progress is not None:
                progress(len(outcomes), games)
    else:
        own = executor is None
        pool = executor or concurrent.futures.ProcessPoolExecutor(max_workers=pool_workers)
        futures = [
            pool.submit(
                _play_chunk, game, agents, seed, swap, max_plies, end_on_repetition, indices
            )
            for indices in _chunks(games, chunk_size)
        ]
        try:
            for future in concurrent.futures.as_completed(futures):
                outcomes.extend(future.result())
                if progress is not None:
                    progress(len(outcomes), games)
        finally:
            for future in futures:
                future.cancel()
            if own:
                pool.shutdown(wait=True, cancel_futures=True)
        outcomes.sort(key=lambda o: o.index)
    return MatchResult(
        game=rulebook.name,
        agents=(pair[0].name, pair[1].name),
        seed=seed,
        swap=swap,
        max_plies=max_plies,
        outcomes=tuple(outcomes),
        end_on_repetition=end_on_repetition,
        workers=pool_workers,
        wall_seconds=time.perf_counter() - start,
    )
