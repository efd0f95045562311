"""The players of :mod:`play`: agents, the specs that name them, and the check that a
fixed-depth agent can finish a move.

Assumes two players, zero-sum, deterministic, perfect information; knows no game. Each agent
calls a search of :mod:`solver` (imported when it first moves, so naming an agent is cheap);
no search imports this module.

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
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, Protocol, TypeAlias, runtime_checkable

import attrs

from solver.errors import AgentError, GameError
from solver.game import Game, HasRender, format_action, format_state, parse_action, player_label
from solver.interrupts import watching_interrupts
from solver.quoting import quote
from solver.tree_size import tree_sizes

__all__ = [
    "AGENT_SPECS",
    "MAX_AGENT_DEPTH",
    "MAX_ENGINE_SECONDS",
    "MAX_MCTS_ITERATIONS",
    "MAX_NODES_PER_MOVE",
    "Agent",
    "AgentError",
    "EngineAgent",
    "HumanAgent",
    "MctsAgent",
    "MinimaxAgent",
    "RandomAgent",
    "as_agent",
    "check_agents",
    "parse_agent",
]

AnyGame: TypeAlias = Game[Any, Any]

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


def check_agents(game: AnyGame, agents: Sequence[Agent], state: Any = None) -> None:
    """Refuse fixed-depth agents whose search for one move could never finish.

    The cost of a depth-``D`` search is estimated from the start position with
    :func:`solver.tree_size.tree_sizes`: a full-width search (``minimax:D``) visits about that
    many positions, a pruning one (``alphabeta:D``, ``engine:dN``) at best about twice its
    square root. An agent over :data:`MAX_NODES_PER_MOVE` is refused, with the deepest depth
    that fits. The estimate is reproducible (its random lines are seeded).

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
        sizes = tree_sizes(game, start, depth, random.Random(0), cap=MAX_NODES_PER_MOVE**2)
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


def as_agent(agent: str | Agent) -> Agent:
    """The agent itself, or the one its spec names (:func:`parse_agent`)."""
    return parse_agent(agent) if isinstance(agent, str) else agent
