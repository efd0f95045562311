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
- ``mcts:ITERATIONS`` (e.g. ``mcts:2000``) or ``mcts:SECONDSs`` (e.g. ``mcts:0.5s``):
  :func:`solver.mcts.mcts` (UCT) with that many iterations or that time per move; ``mcts``
  alone is ``mcts:1000``. Options follow after commas: ``c=C`` (the exploration constant),
  ``solver`` (MCTS-Solver's proven values), ``heuristic`` (playouts guided by ``evaluate``),
  e.g. ``mcts:2000,c=0.5,solver``. Its random stream is seeded from the game's, so
  ``mcts:ITERATIONS`` games are reproducible.
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
import functools
import json
import math
import os
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Literal, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from solver.chance import roll
from solver.errors import AgentError, GameError
from solver.game import (
    Game,
    HasChance,
    HasEndlessValue,
    HasEvaluate,
    HasRender,
    Player,
    apply_check,
    format_action,
    format_state,
    parse_action,
    player_label,
    state_key,
)
from solver.interrupts import watching_interrupts
from solver.output import write_text
from solver.quoting import quote
from solver.workers import LOOK_AHEAD, WorkerPool

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
    "SeenPositions",
    "check_agents",
    "game_rng",
    "parse_agent",
    "play_game",
    "repetition_at",
    "run_match",
    "tree_sizes",
    "unfinished_score",
]

Ending: TypeAlias = Literal["terminal", "repetition", "ply-limit"]
AnyGame: TypeAlias = Game[Any, Any]
GameFactory: TypeAlias = Callable[[], AnyGame]
Progress: TypeAlias = Callable[[int, int], None]
MoveObserver: TypeAlias = Callable[[int, Any, Any, Any], None]

AGENT_SPECS = (
    "random, minimax:D, alphabeta:D, expectiminimax:D, star1:D (games with chance), "
    "engine:SECONDS, engine:dN, mcts:ITERATIONS, mcts:SECONDSs (options: ,c=C ,solver "
    ",heuristic), human"
)
"""The agent specs :func:`parse_agent` accepts, as listed in its error messages."""

DEFAULT_ENGINE_SECONDS = 1.0


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
    algorithm: Literal["minimax", "alphabeta", "expectiminimax", "star1"] = "minimax"
    interactive: bool = attrs.field(default=False, init=False)

    @property
    def name(self) -> str:
        """The agent's spec, e.g. ``"minimax:3"``."""
        return f"{self.algorithm}:{self.depth}"

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """The search's ``best_action`` (``rng`` is unused: the teaching searches are exact).

        ``expectiminimax`` and ``star1`` (the same values, pruning at chance nodes) are for
        games with chance moves (:class:`~solver.game.HasChance`).
        """
        from solver.expectiminimax import expectiminimax, star1
        from solver.minimax import alphabeta, minimax

        search = {
            "minimax": minimax,
            "alphabeta": alphabeta,
            "expectiminimax": expectiminimax,
            "star1": star1,
        }[self.algorithm]
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
        """The engine's best action within the limit.

        Raises:
            KeyboardInterrupt: Ctrl-C during the search. The engine answers an interrupt with
                its last completed depth, which is right for analysis but would make this
                agent play a shallower move than its spec says; a match or game ends instead.
        """
        from solver.engine import search

        with watching_interrupts() as watch:
            result = search(
                game,
                state,
                depth=self.depth,
                time_limit=self.seconds,
                seed=rng.getrandbits(32),
                table_size=self.table_size,
                oracle=self.oracle,
            )
        if watch.interrupted:
            raise KeyboardInterrupt
        if result.best_action is None:  # a limit struck before depth 1: any legal move
            return next(iter(game.actions(state)))
        return result.best_action


@attrs.frozen
class MctsAgent:
    """Monte Carlo tree search (:func:`solver.mcts.mcts`) with ``iterations`` or ``seconds``.

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> agent = MctsAgent(iterations=300, solver=True)
    >>> agent.name, agent.choose(game, game.parse_state("xx./oo./..."), random.Random(0))
    ('mcts:300,solver', 2)
    """

    iterations: int | None = None
    seconds: float | None = None
    exploration: float | None = None
    solver: bool = False
    heuristic: bool = False
    interactive: bool = attrs.field(default=False, init=False)

    @property
    def name(self) -> str:
        """The agent's spec, e.g. ``"mcts:2000"`` or ``"mcts:0.5s,c=0.7,solver"``."""
        parts = [f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)]
        if self.exploration is not None:
            parts.append(f"c={self.exploration:g}")
        parts += [flag for flag in ("solver", "heuristic") if getattr(self, flag)]
        return "mcts:" + ",".join(parts)

    def choose(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """The search's move, its random stream seeded from ``rng``.

        Raises:
            KeyboardInterrupt: Ctrl-C during the search (a match or game ends rather than
                play the move of a search cut short).
        """
        from solver.mcts import DEFAULT_EXPLORATION, mcts

        with watching_interrupts() as watch:
            result = mcts(
                game,
                state,
                iterations=self.iterations,
                time_limit=self.seconds,
                seed=rng.getrandbits(32),
                exploration=DEFAULT_EXPLORATION if self.exploration is None else self.exploration,
                playout="heuristic" if self.heuristic else "random",
                solver=self.solver,
            )
        if watch.interrupted or result.interrupted:
            raise KeyboardInterrupt
        return result.best_action


MAX_MCTS_ITERATIONS: Final = 10**8
"""The most iterations an ``mcts:N`` agent may run for one move (hours of pure Python)."""


def _mcts_agent(spec: str, argument: str) -> MctsAgent:
    """The MCTS agent of a spec's argument: a limit, then options (see :func:`parse_agent`)."""
    form = "mcts:ITERATIONS or mcts:SECONDSs, then ,c=C ,solver ,heuristic"
    limit, *options = argument.split(",") if argument else ["1000"]
    found: dict[str, Any] = {}
    if limit.endswith("s"):
        seconds = float(limit[:-1]) if _SECONDS.fullmatch(limit[:-1]) else math.nan
        if not 0 < seconds <= MAX_ENGINE_SECONDS:
            raise AgentError(
                f"bad time {quote(limit)} in agent {quote(spec)}; expected decimal seconds above "
                f"0 and at most {MAX_ENGINE_SECONDS:g} followed by s, e.g. mcts:0.5s ({form})"
            )
        found["seconds"] = seconds
    else:
        iterations = int(limit) if _DIGITS.fullmatch(limit) else 0
        if not 1 <= iterations <= MAX_MCTS_ITERATIONS:
            raise AgentError(
                f"bad iterations {quote(limit)} in agent {quote(spec)}; expected a whole number "
                f"from 1 to {MAX_MCTS_ITERATIONS:,}, e.g. mcts:2000 ({form})"
            )
        found["iterations"] = iterations
    for option in options:
        if option in ("solver", "heuristic"):
            found[option] = True
        elif option.startswith("c="):
            text = option[2:]
            value = float(text) if _SECONDS.fullmatch(text) else math.nan
            if not 0 <= value <= 1000:
                raise AgentError(
                    f"bad exploration constant {quote(text)} in agent {quote(spec)}; expected a "
                    f"decimal number from 0 to 1000, e.g. c=1.4 ({form})"
                )
            found["exploration"] = value
        else:
            raise AgentError(f"unknown option {quote(option)} in agent {quote(spec)}; {form}")
    return MctsAgent(**found)


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
            except GameError as error:  # an illegal or unreadable move: say why, ask again
                self.tell(str(error))


MAX_AGENT_DEPTH: Final = 10_000
"""The deepest fixed-depth agent :func:`parse_agent` accepts (a game ends long before)."""

MAX_ENGINE_SECONDS: Final = 86_400.0
"""The longest time per move an ``engine:SECONDS`` agent may take: one day."""

MAX_NODES_PER_MOVE: Final = 10**8
"""The most positions a fixed-depth agent's search may be expected to visit for one move.

The teaching searches visit a few hundred thousand positions a second, so this is minutes per
move: a match of such moves would never finish. :func:`check_agents` refuses deeper agents.
"""

_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)
_SECONDS = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]{1,3})?", re.ASCII)


def _depth(text: str, spec: str, form: str) -> int:
    """The depth written in an agent spec: ASCII digits, 1 to :data:`MAX_AGENT_DEPTH`."""
    depth = int(text) if _DIGITS.fullmatch(text) else 0
    if not 1 <= depth <= MAX_AGENT_DEPTH:
        raise AgentError(
            f"bad depth in agent {quote(spec)}; expected {form} with a whole number of plies "
            f"from 1 to {MAX_AGENT_DEPTH:,} (ASCII digits)"
        )
    return depth


def parse_agent(spec: str) -> Agent:
    """The agent a spec names (see the module docstring for the specs).

    >>> parse_agent("minimax:3").name, parse_agent("engine:0.5").name, parse_agent("engine:d6").name
    ('minimax:3', 'engine:0.5', 'engine:d6')
    >>> parse_agent("minmax:3")
    Traceback (most recent call last):
    ...
    solver.errors.AgentError: unknown agent 'minmax:3'; valid: random, minimax:D, alphabeta:D, \
expectiminimax:D, star1:D (games with chance), engine:SECONDS, engine:dN, mcts:ITERATIONS, \
mcts:SECONDSs (options: ,c=C ,solver ,heuristic), human

    Raises:
        AgentError: the spec names no agent, or its depth or time is not valid (depths are
            ASCII digits from 1 to :data:`MAX_AGENT_DEPTH`, times decimal seconds above 0 and
            at most :data:`MAX_ENGINE_SECONDS`).
    """
    text = spec.strip().lower()
    kind, _, argument = text.partition(":")
    if kind in ("random", "human") and not argument:
        return RandomAgent() if kind == "random" else HumanAgent()
    if kind in ("minimax", "alphabeta", "expectiminimax", "star1"):
        depth = _depth(argument, spec, f"{kind}:D")
        return MinimaxAgent(depth, kind)  # type: ignore[arg-type]
    if kind == "engine":
        if not argument:
            return EngineAgent(seconds=DEFAULT_ENGINE_SECONDS)
        if argument.startswith("d"):
            return EngineAgent(depth=_depth(argument[1:], spec, "engine:dN"))
        seconds = float(argument) if _SECONDS.fullmatch(argument) else math.nan
        if not 0 < seconds <= MAX_ENGINE_SECONDS:
            raise AgentError(
                f"bad time in agent {quote(spec)}; expected engine:SECONDS with decimal SECONDS "
                f"above 0 and at most {MAX_ENGINE_SECONDS:g} (e.g. engine:0.1), or engine:dN "
                "for a fixed depth"
            )
        return EngineAgent(seconds=seconds)
    if kind == "mcts":
        return _mcts_agent(spec, argument)
    raise AgentError(f"unknown agent {quote(spec)}; valid: {AGENT_SPECS}")


def _search_cost(agent: Agent) -> tuple[int, bool] | None:
    """A fixed-depth agent's depth and whether it prunes (alpha-beta); None for any other."""
    if isinstance(agent, MinimaxAgent):
        return agent.depth, agent.algorithm == "alphabeta"
    if isinstance(agent, EngineAgent) and agent.depth is not None:
        return agent.depth, True
    return None


def tree_sizes(
    game: AnyGame, state: Any, depth: int, rng: random.Random, lines: int = 16
) -> list[float]:
    """Estimated sizes of the game tree below ``state`` cut at each depth ``0..depth``.

    Knuth's estimator: along a random line of play the product of the branching factors met so
    far stands for the width of each level; the mean over ``lines`` random lines is an unbiased
    estimate of the number of positions a full-width search to that depth visits. Estimates are
    capped at ``MAX_NODES_PER_MOVE ** 2`` (beyond it only "too many" matters).

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> tree_sizes(game, game.initial_state(), 3, random.Random(0))
    [1.0, 3.0, 7.0, 7.0]
    """
    cap = float(MAX_NODES_PER_MOVE) ** 2
    totals = [0.0] * (depth + 1)
    for _ in range(lines):
        position, width, size = state, 1.0, 1.0
        for level in range(depth + 1):
            totals[level] += size
            if level == depth:
                break
            legal = list(game.actions(position))
            if not legal or size >= cap:  # the rest of this line adds nothing, or nothing new
                for deeper in range(level + 1, depth + 1):
                    totals[deeper] += size
                break
            width *= len(legal)
            size = min(cap, size + width)
            position = game.result(position, rng.choice(legal))
    return [total / lines for total in totals]


def check_agents(game: AnyGame, agents: Sequence[Agent], state: Any = None) -> None:
    """Refuse fixed-depth agents whose search for one move could never finish.

    The cost of a depth-``D`` search is estimated from the start position with
    :func:`tree_sizes`: a full-width search (``minimax:D``) visits about that many positions, a
    pruning one (``alphabeta:D``, ``engine:dN``) at best about twice its square root. An agent
    over :data:`MAX_NODES_PER_MOVE` is refused, with the deepest depth that fits. The estimate
    is reproducible (its random lines are seeded).

    Raises:
        AgentError: an agent whose search for one move is estimated over the budget.

    >>> from games import load_game
    >>> check_agents(load_game("tictactoe"), [parse_agent("minimax:100")])  # the game ends first
    >>> check_agents(load_game("ayoayo"), [parse_agent("minimax:100")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.AgentError: agent 'minimax:100' cannot finish a move of 'ayoayo': ...
    """
    start = game.initial_state() if state is None else state
    for agent in agents:
        cost = _search_cost(agent)
        if cost is None:
            continue
        depth, prunes = cost
        sizes = tree_sizes(game, start, depth, random.Random(0))
        visits = [2 * math.sqrt(size) if prunes else size for size in sizes]
        if visits[-1] <= MAX_NODES_PER_MOVE:
            continue
        fits = max(d for d, v in enumerate(visits) if v <= MAX_NODES_PER_MOVE)
        search = "pruned search" if prunes else "full-width search"
        deeper = f"depth {fits} at most here" if fits >= 1 else "no fixed depth fits here"
        raise AgentError(
            f"agent {agent.name!r} cannot finish a move of {game.name!r}: a depth-{depth} "
            f"{search} would visit about {visits[-1]:.1e} positions (estimated from random "
            f"lines of play), over the limit of {MAX_NODES_PER_MOVE:.0e} per move; use "
            f"{deeper}, or engine:SECONDS for a player with a time limit"
        )


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
    moves: tuple[Any, ...] = attrs.field(repr=lambda moves: f"<{len(moves)} moves>")
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


def unfinished_score(game: AnyGame, state: Any, ended: Ending) -> float:
    """The score of a game (or playout) stopped before a terminal state, player 0's view.

    At a repetition, the game's ``endless_value`` when it has one; otherwise, and at a ply
    limit, its ``evaluate`` when it has one; else 0 (a draw).
    """
    if ended == "repetition" and isinstance(game, HasEndlessValue):
        return game.endless_value(state)  # the score solve gives endless play
    return game.evaluate(state) if isinstance(game, HasEvaluate) else 0


class SeenPositions:
    """The repetition rule's memory: the full positions (:func:`state_key`) of one game so far.

    ``repeats(state)`` is True when the position came before in this game, and remembers it
    otherwise: a game ends at the first position for which it is True (see the module
    docstring). :func:`play_game` and :func:`repetition_at` both ask it, so a match, ``play``
    and the board end a game at the same ply.
    """

    def __init__(self, game: AnyGame, earlier: Sequence[Any] = ()) -> None:
        self.game = game
        self.keys = {state_key(game, state) for state in earlier}

    def repeats(self, state: Any) -> bool:
        key = state_key(self.game, state)
        if key in self.keys:
            return True
        self.keys.add(key)
        return False


def repetition_at(game: AnyGame, states: Sequence[Any]) -> int | None:
    """The index in ``states`` (a game's positions in order, its start first) of the first
    position the repetition rule ends the game at, or None.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> start = game.initial_state()
    >>> repetition_at(game, [start, game.result(start, 2)]) is None
    True
    >>> repetition_at(game, [start, game.result(start, 2), start])
    2
    """
    seen = SeenPositions(game)
    for index, state in enumerate(states):
        if seen.repeats(state):
            return index
    return None


def play_game(
    game: AnyGame,
    agents: Sequence[str | Agent],
    rng: random.Random,
    max_plies: int | None = None,
    state: Any = None,
    on_move: MoveObserver | None = None,
    end_on_repetition: bool = True,
    *,
    check_cost: bool = True,
    history: Sequence[Any] = (),
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
        check_cost: refuse fixed-depth agents that could never finish a move here (see
            :func:`check_agents`); a match checks once and plays its games without.
        history: the positions of this game before ``state`` (a game resumed after a
            takeback): the repetition rule counts them as seen.

    Raises:
        IllegalActionError: an agent chose an illegal action.
        AgentError: not exactly two agents, a negative ``max_plies``, no ``max_plies`` when
            repetitions are allowed, or an agent too deep to finish a move.
        KeyboardInterrupt: Ctrl-C, also inside an engine agent's search (the game ends rather
            than continue with a move weaker than the agent's spec).

    >>> from games import load_game
    >>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
    >>> play_game(game, ["minimax:2", "random"], random.Random(0), max_plies=1).ended
    'ply-limit'
    """
    if len(agents) != 2:
        raise AgentError(
            f"a game needs exactly two agents, got {len(agents)}: {quote(list(agents))}"
        )
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
    if check_cost:
        check_agents(game, players, state)
    seen = SeenPositions(game, history)
    seen.repeats(state)
    moves: list[Any] = []
    ended: Ending
    chance = game if isinstance(game, HasChance) else None  # asked once, not at every ply
    while True:
        legal = list(game.actions(state))
        if not legal:
            ended = "terminal"
            break
        if max_plies is not None and len(moves) >= max_plies:
            ended = "ply-limit"
            break
        if chance is not None and chance.is_chance(state):  # dice rolled by ``rng``
            action = roll(chance, state, rng)
        else:
            agent = players[game.to_move(state)]
            action = apply_check(game, state, agent.choose(game, state, rng), legal)
        after = game.result(state, action)
        moves.append(action)
        if on_move is not None:
            on_move(len(moves), state, action, after)
        state = after
        if not end_on_repetition:
            continue
        if seen.repeats(state):  # a terminal state never repeats: the game would have ended there
            ended = "repetition"
            break
    score = game.utility(state) if ended == "terminal" else unfinished_score(game, state, ended)
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
    moves: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    """The moves played, when the match keeps them (``run_match(..., keep_moves=True)``)."""

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
    pair = (_as_agent(agents[0]), _as_agent(agents[1]))
    return [
        _play_one(rulebook, pair, seed, swap, max_plies, end_on_repetition, index, keep_moves)
        for index in indices
    ]


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


def _row(first: str, second: str, tally: SeatTally) -> _Row:
    n = tally.games
    return _Row(
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
        """A one-line summary (the counts in :meth:`table`, per-game records in ``outcomes``).

        >>> from games import load_game
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

    def rows(self) -> list[_Row]:
        """One table row per seating: A first (and B first when swapping)."""
        return [
            _row(self.agents[first], self.agents[1 - first], tally)
            for first, tally in enumerate(self.tallies)
            if tally.games
        ]

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
            "scored by the game's endless value at a repetition if it declares one, else by its "
            "evaluation (the sign decides; a draw if it has neither)."
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


def max_workers() -> int:
    """The most worker processes a match starts: four per CPU (more only compete for them)."""
    return 4 * (os.cpu_count() or 1)


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


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


def _play_in_pool(
    pool: concurrent.futures.Executor,
    task: Callable[[range], Any],
    chunks: Iterator[range],
    in_flight: int,
    record: Callable[[list[GameOutcome]], None],
) -> None:
    """Run the chunks on ``pool`` with at most ``in_flight`` submitted and unread at a time."""
    pending: set[concurrent.futures.Future[list[GameOutcome]]] = set()
    try:
        while True:
            while len(pending) < in_flight:
                indices = next(chunks, None)
                if indices is None:
                    break
                pending.add(pool.submit(task, indices))
            if not pending:
                return
            done, pending = concurrent.futures.wait(
                pending, timeout=0.5, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in done:
                record(future.result())
    finally:
        for future in pending:
            future.cancel()


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
            ``max_plies`` (see the module docstring).
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
    pair = (_as_agent(agent_a), _as_agent(agent_b))
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
            for indices in _chunks(games, chunk_size):
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
            chunks = _chunks(games, chunk_size)
            in_flight = LOOK_AHEAD * pool_workers
            if executor is not None:
                _play_in_pool(executor, task, chunks, in_flight, record)
            else:
                _play_in_own_pool(pool_workers, task, chunks, record)
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


def _play_in_own_pool(
    workers: int,
    task: Callable[[range], Any],
    chunks: Iterator[range],
    record: Callable[[list[GameOutcome]], None],
) -> None:
    """Run the chunks on worker processes of our own (:class:`solver.workers.WorkerPool`):
    a dead worker raises :class:`solver.workers.WorkerDiedError` naming it, and any exception
    here (Ctrl-C included) ends every worker at once."""
    with WorkerPool(workers, name="match-worker") as pool:
        for outcomes in pool.imap_unordered(task, ((indices,) for indices in chunks)):
            record(outcomes)


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
