"""One game played out between two agents, move by move, every move checked.

Assumes two players, zero-sum, deterministic, perfect information (chance moves, when a game
has them, are rolled from the game's random stream); knows no game. The game ends as
:mod:`solver.endings` says: at a terminal state, at the first repeated full position, or at a
ply limit.

``end_on_repetition=False`` turns the repetition rule off (a game then runs until a terminal state
or the ply limit, which is then required): that is the rule of a reference implementation with no
repetition rule, where a random player eventually breaks a cycle that deterministic play would
repeat for ever. Use it to reproduce such a reference's statistics.

>>> import random
>>> from games import load_game
>>> from play import parse_agent
>>> game = load_game("textbook", tree=[[3, 12], [2, 4]])
>>> record = play_game(game, [parse_agent("minimax:2"), parse_agent("minimax:2")], random.Random(1))
>>> record.moves, record.score, record.ended
((0, 0), 3, 'terminal')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import attrs

from play.agents import Agent, as_agent, check_agents
from solver.chance import roll
from solver.endings import Ending, SeenPositions, unfinished_score
from solver.errors import AgentError
from solver.game import Game, HasChance, Player, apply_check
from solver.quoting import quote

__all__ = ["GameRecord", "MoveObserver", "play_game", "winner"]

AnyGame: TypeAlias = Game[Any, Any]
MoveObserver: TypeAlias = Callable[[int, Any, Any, Any], None]


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


def winner(score: float) -> Player | None:
    """The player a final score (player 0's view) makes the winner, None for a draw."""
    return 0 if score > 0 else 1 if score < 0 else None


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
    keys lives only for this game) or after ``max_plies`` moves; see :mod:`solver.endings` for
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
    players = (as_agent(agents[0]), as_agent(agents[1]))
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
        winner=winner(score),
        ended=ended,
        seconds=time.perf_counter() - start,
    )
