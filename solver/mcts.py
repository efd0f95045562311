"""Monte Carlo tree search (UCT), with the MCTS-Solver's proven values as an option.

Assumes two players, zero-sum, deterministic, perfect information; every value is from player
0's (MAX's) point of view, as everywhere in the project. Knows no game: it uses the Game
protocol, and ``evaluate`` (heuristic playouts, the ply cap), ``endless_value`` (repetitions
inside a playout), ``key`` and ``utility_bounds()`` where a game offers them.

Each iteration (Kocsis & Szepesvári 2006; Browne et al. 2012, Algorithm 2):

1. **Selection.** From the root, while the node has no untried move, go to the child with the
   highest UCB1 score *for the player to move there*: ``exploitation + exploration``, where
   exploitation is the child's mean result ``Q = W / N`` from the mover's side (``Q`` for MAX,
   ``-Q`` for MIN) and exploration is ``c · span · sqrt(ln N(parent) / N(child))``. ``span``
   scales the bonus to the game's units: the width of ``utility_bounds()`` when the game declares
   it, else the range of the playout results seen so far (1 until two differ); UCB1's ``c`` is
   for rewards in [0, 1], and this is the same rule with the results mapped there. Ties go to the
   first child in ``actions`` order.
2. **Expansion.** The node's first untried move (in ``actions`` order) becomes a new child,
   unless the tree already holds ``max_nodes`` nodes (then the playout starts at the node).
3. **Simulation.** A playout from the new node: random moves (``playout="random"``) or, with
   ``playout="heuristic"``, the move whose result the game's ``evaluate`` rates best for the
   mover (ties at random). It ends at a terminal state (``utility``), after ``playout_plies``
   plies (scored by ``evaluate``, 0 without), or, for a game that declares ``endless_value``,
   when a position repeats within the playout (scored by it): the match rules of
   :func:`play.play_game` (the rule itself lives in :mod:`solver.endings`), so playouts never
   hang on a game that cycles.
4. **Back-propagation.** Every node on the path counts the playout: ``N += 1``, ``W += result``.
   A node's ``N`` is therefore the sum of its children's ``N`` plus its own playouts (the one
   that ran when it was added, and any that ran from it while it was a leaf).

Each node also counts its *wins* as AIMA's Figure 5.10 does: from the view of the player who
moved into it (the root: the player not to move there), a playout counts 1 won, 1/2 drawn and
0 lost (:func:`win_share`). A child's wins over its playouts is then the share its parent's
mover won by choosing it; the search itself selects by ``W`` (the same order for a game that
only wins, draws and loses), the wins are reported for drawing.

MCTS-Solver (``solver=True``; Winands, Björnsson & Saito 2008, generalised to any utilities
as score-bounded MCTS, Cazenave & Saffidine 2010): every node also keeps bounds ``[lo, hi]``
on its exact minimax value. A terminal node's are its utility; an untried move stands for
``utility_bounds()`` (unbounded without one); a MAX node's ``lo``/``hi`` are the largest of its
children's, a MIN node's the smallest. A node is *proven* when ``lo == hi``: a child proven a
win proves its parent a win at once, and a node whose children are all proven is proven. A
child that is proven, or whose bounds show it cannot change its parent's value, is never
selected again; once the root is proven the search stops and plays a move that keeps the value.

Without the solver, the move played is the most visited root child (the "robust child"; ties:
the better mean for the mover, then ``actions`` order). Everything random comes from
``random.Random(seed)``: the same seed gives the same tree (unless a time limit cuts it short).

Limits: ``iterations``, ``time_limit`` (seconds), ``max_nodes`` (the tree stops growing; the
search goes on), and Ctrl-C, which stops the search after the iteration under way (a fraction
of a millisecond) and returns the answer so far with ``interrupted=True``.

>>> from games import load_game
>>> game = load_game("tictactoe")
>>> result = mcts(game, game.parse_state("xx./oo./..."), iterations=200, seed=1)
>>> result.best_action, result.proven
(2, None)
>>> solved = mcts(game, game.parse_state("xx./oo./..."), iterations=200, seed=1, solver=True)
>>> solved.best_action, solved.proven, solved.stopped
(2, 1, 'proven')
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, TypeAlias

import attrs

from solver.endings import unfinished_score
from solver.game import (
    MAX,
    CapabilityError,
    Game,
    HasEndlessValue,
    HasEvaluate,
    HasUtilityBounds,
    Player,
    state_key,
)
from solver.quoting import quote

__all__ = [
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "DEFAULT_MAX_NODES",
    "DEFAULT_PLAYOUT_PLIES",
    "PLAYOUTS",
    "ChildStats",
    "MctsObserver",
    "MctsResult",
    "MctsStep",
    "NodeStats",
    "mcts",
    "ucb_terms",
    "win_share",
]

PlayoutKind: TypeAlias = Literal["random", "heuristic"]
Ending: TypeAlias = Literal["terminal", "repetition", "ply-limit"]
Stopped: TypeAlias = Literal["iterations", "time", "proven", "interrupted"]

PLAYOUTS: Final = ("random", "heuristic")
DEFAULT_EXPLORATION: Final = math.sqrt(2)
"""UCB1's constant (Auer et al. 2002), for rewards in [0, 1]."""
DEFAULT_ITERATIONS: Final = 1000
"""The iterations run when neither ``iterations`` nor ``time_limit`` is given."""
DEFAULT_MAX_NODES: Final = 1_000_000
"""The most nodes the tree holds by default (a few hundred MB at most)."""
DEFAULT_PLAYOUT_PLIES: Final = 500
"""The longest playout by default; a game that has not ended by then is scored by ``evaluate``."""
MAX_ITERATIONS: Final = 10**9

INF = math.inf


@attrs.frozen
class NodeStats:
    """A node's counts after an iteration: visits ``n``, total result ``w`` (MAX's view),
    with the solver the bounds ``lo``/``hi`` on its exact value (``-inf``/``inf`` unknown),
    and ``wins`` from the view of the player who moved into it (see :func:`win_share`)."""

    node: int
    n: int
    w: float
    lo: float
    hi: float
    wins: float = 0.0


@attrs.frozen
class MctsStep:
    """One iteration, as an observer sees it.

    Attributes:
        iteration: 1 for the first.
        path: the node ids selected from the root (0) down to the node the playout ran from
            (the new node, when one was added).
        expanded: the new node's id, None when none was added (a terminal node, or the cap).
        parent, action, state: where the new node hangs, its move and its position (None
            when none was added).
        result: the playout's value (MAX's view); ``plies`` its length; ``ended`` how it ended.
        stats: every node on ``path`` after back-propagation, in path order.
        span: the exploration scale after this iteration (see the module docstring).
        playout: the playout's moves from the node it ran from to its end, in order.
    """

    iteration: int
    path: tuple[int, ...]
    expanded: int | None
    parent: int | None
    action: Any
    state: Any
    result: float
    plies: int
    ended: Ending
    stats: tuple[NodeStats, ...]
    span: float
    playout: tuple[Any, ...] = ()


MctsObserver: TypeAlias = Callable[[MctsStep], None]


@attrs.frozen
class ChildStats:
    """A root move after the search: its visits, mean result (MAX's view) and bounds."""

    action: Any
    n: int
    mean: float
    lo: float
    hi: float


@attrs.frozen
class MctsResult:
    """What :func:`mcts` found.

    Attributes:
        best_action: the move to play (None only at a terminal root).
        value: the root's mean playout result, MAX's view (0 before any playout).
        proven: the root's exact value when the solver proved it, else None.
        bounds: the root's ``(lo, hi)`` bounds (solver; ``(-inf, inf)`` without).
        children: each root move's counts, in ``actions`` order (the moves not tried left out).
        iterations, nodes, seconds: what the search did; ``stopped`` why it stopped.
        interrupted: Ctrl-C stopped it (the answer is the one so far).
        pv: the most visited line from the root.
    """

    best_action: Any
    value: float
    proven: float | None
    bounds: tuple[float, float]
    children: tuple[ChildStats, ...]
    iterations: int
    nodes: int
    seconds: float
    stopped: Stopped
    pv: tuple[Any, ...]

    @property
    def interrupted(self) -> bool:
        """Ctrl-C stopped the search."""
        return self.stopped == "interrupted"


def ucb_terms(
    mover: Player, n_parent: int, n: int, w: float, exploration: float, span: float
) -> tuple[float, float]:
    """A child's UCB1 score for the player choosing it, split in (exploitation, exploration).

    >>> ucb_terms(0, 10, 5, 3.0, 1.0, 1.0) == (0.6, math.sqrt(math.log(10) / 5))
    True
    >>> ucb_terms(1, 10, 5, 3.0, 1.0, 1.0)[0]  # MIN prefers low results
    -0.6
    """
    mean = w / n
    bonus = exploration * span * math.sqrt(math.log(n_parent) / n)
    return (mean if mover == MAX else -mean), bonus


def win_share(result: float, player: Player, middle: float = 0.0) -> float:
    """What one playout ending in ``result`` (MAX's view) counts as a win for ``player``:
    1 won, 1/2 drawn, 0 lost. A result above ``middle`` (the middle of the game's
    ``utility_bounds()``, 0 without) is MAX's win, below it MIN's.

    >>> win_share(1, 0), win_share(1, 1), win_share(0, 1), win_share(5, 1, middle=8)
    (1.0, 0.0, 0.5, 1.0)
    """
    if result == middle:
        return 0.5
    return 1.0 if (result > middle) == (player == MAX) else 0.0


def _count(name: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value:
        raise ValueError(f"invalid {name} {quote(value)}: use a whole number >= {least}")
    return value


def _positive(name: str, value: object, zero_ok: bool) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    number = float(value) if ok else math.nan  # type: ignore[arg-type]
    if not (math.isfinite(number) and (number >= 0 if zero_ok else number > 0)):
        least = ">= 0" if zero_ok else "above 0"
        raise ValueError(f"invalid {name} {quote(value)}: use a finite number {least}")
    return number


class _Tree:
    """The search tree in parallel lists indexed by node id (hot loops stay off attrs)."""

    def __init__(self, game: Game[Any, Any], root: Any, bounds: tuple[float, float]) -> None:
        self.game = game
        self.bounds = bounds
        self.state: list[Any] = []
        self.parent: list[int] = []
        self.action: list[Any] = []
        self.mover: list[Player] = []
        self.terminal: list[bool] = []
        self.untried: list[list[Any]] = []
        self.children: list[list[int]] = []
        self.n: list[int] = []
        self.w: list[float] = []
        self.wins: list[float] = []
        self.lo: list[float] = []
        self.hi: list[float] = []
        self.add(root, -1, None)

    def add(self, state: Any, parent: int, action: Any) -> int:
        game = self.game
        node = len(self.state)
        terminal = game.is_terminal(state)
        self.state.append(state)
        self.parent.append(parent)
        self.action.append(action)
        self.mover.append(game.to_move(state))
        self.terminal.append(terminal)
        self.untried.append([] if terminal else list(game.actions(state)))
        self.children.append([])
        self.n.append(0)
        self.w.append(0.0)
        self.wins.append(0.0)
        if terminal:
            value = game.utility(state)
            self.lo.append(value)
            self.hi.append(value)
        else:
            self.lo.append(self.bounds[0])
            self.hi.append(self.bounds[1])
        if parent >= 0:
            self.children[parent].append(node)
        return node

    def rebound(self, node: int) -> None:
        """A node's bounds from its children's (untried moves count as the game's range)."""
        lo, hi = self.lo, self.hi
        kids = self.children[node]
        if self.untried[node]:
            los = [lo[c] for c in kids] + [self.bounds[0]]
            his = [hi[c] for c in kids] + [self.bounds[1]]
        else:
            los = [lo[c] for c in kids]
            his = [hi[c] for c in kids]
        if self.mover[node] == MAX:
            lo[node], hi[node] = max(los), max(his)
        else:
            lo[node], hi[node] = min(los), min(his)

    def live(self, node: int, child: int) -> bool:
        """The solver may still learn something by selecting ``child`` of ``node``."""
        lo, hi = self.lo, self.hi
        if lo[child] == hi[child]:
            return False
        if self.mover[node] == MAX:
            return hi[child] > lo[node]
        return lo[child] < hi[node]


def mcts(
    game: Game[Any, Any],
    state: Any = None,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    playout: PlayoutKind = "random",
    solver: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    playout_plies: int = DEFAULT_PLAYOUT_PLIES,
    observer: MctsObserver | None = None,
) -> MctsResult:
    """Monte Carlo tree search from ``state`` (None: the initial state); see the module docstring.

    Args:
        game: the rulebook.
        state: where to search from.

    Keyword Args:
        iterations: how many iterations (None: as many as ``time_limit`` allows; neither:
            :data:`DEFAULT_ITERATIONS`).
        time_limit: stop after this many seconds.
        seed: the seed of the only random stream.
        exploration: UCB1's constant ``c`` (>= 0; 0 never explores).
        playout: ``"random"`` or ``"heuristic"`` (needs the game's ``evaluate``).
        solver: keep proven bounds (MCTS-Solver) and stop once the root is proven.
        max_nodes: the most nodes the tree may hold.
        playout_plies: the longest playout, in plies.
        observer: called with an :class:`MctsStep` after every iteration.

    Raises:
        ValueError: a bad limit, constant or playout kind (the message names it and what is
            valid).
        CapabilityError: ``playout="heuristic"`` for a game without ``evaluate``.
    """
    if iterations is not None:
        iterations = _count("iterations", iterations, 1)
        if iterations > MAX_ITERATIONS:
            raise ValueError(
                f"invalid iterations {quote(iterations)}: use at most {MAX_ITERATIONS:,}"
            )
    if time_limit is not None:
        time_limit = _positive("time limit", time_limit, zero_ok=False)
    if iterations is None and time_limit is None:
        iterations = DEFAULT_ITERATIONS
    exploration = _positive("exploration constant", exploration, zero_ok=True)
    max_nodes = _count("max nodes", max_nodes, 1)
    playout_plies = _count("playout plies", playout_plies, 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"invalid seed {quote(seed)}: use a whole number")
    if playout not in PLAYOUTS:
        raise ValueError(f"invalid playout {quote(playout)}: use one of {', '.join(PLAYOUTS)}")
    if playout == "heuristic" and not isinstance(game, HasEvaluate):
        raise CapabilityError(f"game {game.name!r} has no evaluate() for heuristic playouts")
    if observer is not None and not callable(observer):
        raise TypeError(f"invalid observer {observer!r}: use a function of a step, or None")
    if state is None:
        state = game.initial_state()
    return _Search(
        game, exploration, playout, solver, max_nodes, playout_plies, observer, seed
    ).run(state, iterations, time_limit)


class _Search:
    """One search: the tree, the random stream, and the four phases of an iteration."""

    def __init__(
        self,
        game: Game[Any, Any],
        exploration: float,
        playout: PlayoutKind,
        solver: bool,
        max_nodes: int,
        playout_plies: int,
        observer: MctsObserver | None,
        seed: int,
    ) -> None:
        self.game = game
        self.exploration = exploration
        self.heuristic = playout == "heuristic"
        self.solver = solver
        self.max_nodes = max_nodes
        self.playout_plies = playout_plies
        self.observer = observer
        self.rng = random.Random(seed)
        self.declared: tuple[float, float] | None = None
        if isinstance(game, HasUtilityBounds):
            low, high = game.utility_bounds()
            self.declared = (float(low), float(high))
        self.seen_low, self.seen_high = INF, -INF
        self.middle = 0.0 if self.declared is None else sum(self.declared) / 2
        self.cycles = isinstance(game, HasEndlessValue)

    def span(self) -> float:
        if self.declared is not None and self.declared[1] > self.declared[0]:
            return self.declared[1] - self.declared[0]
        if self.seen_high > self.seen_low:
            return self.seen_high - self.seen_low
        return 1.0

    def run(self, root: Any, iterations: int | None, time_limit: float | None) -> MctsResult:
        bounds = self.declared if self.solver and self.declared is not None else (-INF, INF)
        tree = _Tree(self.game, root, bounds)
        start = time.perf_counter()
        deadline = INF if time_limit is None else start + time_limit
        budget = MAX_ITERATIONS if iterations is None else iterations
        done = 0
        stopped: Stopped = "iterations"
        try:
            while done < budget:
                if self.solver and tree.lo[0] == tree.hi[0]:
                    stopped = "proven"
                    break
                if time_limit is not None and time.perf_counter() >= deadline:
                    stopped = "time"
                    break
                self.iterate(tree, done + 1)
                done += 1
        except KeyboardInterrupt:
            stopped = "interrupted"
        if stopped == "iterations" and self.solver and tree.lo[0] == tree.hi[0]:
            stopped = "proven"
        return self.answer(tree, done, time.perf_counter() - start, stopped)

    def iterate(self, tree: _Tree, iteration: int) -> None:
        node = 0
        path = [0]
        untried, terminal = tree.untried, tree.terminal
        while not terminal[node] and not untried[node]:
            node = self.select(tree, node)
            path.append(node)
        expanded: int | None = None
        if untried[node] and len(tree.state) < self.max_nodes:
            action = untried[node].pop(0)
            expanded = tree.add(self.game.result(tree.state[node], action), node, action)
            path.append(expanded)
            node = expanded
        moves: list[Any] | None = None if self.observer is None else []
        result, plies, ended = self.simulate(tree, node, moves)
        self.seen_low, self.seen_high = min(self.seen_low, result), max(self.seen_high, result)
        n, w, wins = tree.n, tree.w, tree.wins
        for visited in path:
            n[visited] += 1
            w[visited] += result
        if self.observer is not None:  # the wins are for drawing: only an observer sees them
            parents, mover = tree.parent, tree.mover
            for visited in path:
                into = mover[parents[visited]] if visited else 1 - mover[0]
                wins[visited] += win_share(result, into, self.middle)
        if self.solver:
            for visited in reversed(path):
                if not terminal[visited]:
                    tree.rebound(visited)
        if self.observer is not None:
            parent = tree.parent[expanded] if expanded is not None else None
            self.observer(
                MctsStep(
                    iteration=iteration,
                    path=tuple(path),
                    expanded=expanded,
                    parent=parent,
                    action=tree.action[expanded] if expanded is not None else None,
                    state=tree.state[expanded] if expanded is not None else None,
                    result=result,
                    plies=plies,
                    ended=ended,
                    stats=tuple(
                        NodeStats(v, n[v], w[v], tree.lo[v], tree.hi[v], wins[v]) for v in path
                    ),
                    span=self.span(),
                    playout=tuple(moves or ()),
                )
            )

    def select(self, tree: _Tree, node: int) -> int:
        """The child of ``node`` with the best UCB1 score for its mover (solver: live ones)."""
        kids = tree.children[node]
        if self.solver:
            live = [c for c in kids if tree.live(node, c)]
            kids = live or kids  # none live: the node is proven (only the root stops on it)
        mover = tree.mover[node]
        n, w = tree.n, tree.w
        scale = self.exploration * self.span()
        log_parent = math.log(n[node])
        sign = 1.0 if mover == MAX else -1.0
        best, best_score = kids[0], -INF
        for child in kids:
            count = n[child]
            score = sign * w[child] / count + scale * math.sqrt(log_parent / count)
            if score > best_score:
                best, best_score = child, score
        return best

    def simulate(
        self, tree: _Tree, node: int, moves: list[Any] | None = None
    ) -> tuple[float, int, Ending]:
        """A playout from ``node``: its value (MAX's view), its plies and how it ended; its
        moves appended to ``moves`` (None: not kept)."""
        game, rng = self.game, self.rng
        state = tree.state[node]
        seen = {state_key(game, state)} if self.cycles else None
        plies = 0
        while not game.is_terminal(state):
            if plies >= self.playout_plies:
                return unfinished_score(game, state, "ply-limit"), plies, "ply-limit"
            legal = game.actions(state)
            if self.heuristic:
                move = self.greedy(state, legal)
            else:
                move = legal[int(rng.random() * len(legal))]
            if moves is not None:
                moves.append(move)
            state = game.result(state, move)
            plies += 1
            if seen is not None:
                key = state_key(game, state)
                if key in seen:
                    return unfinished_score(game, state, "repetition"), plies, "repetition"
                seen.add(key)
        return game.utility(state), plies, "terminal"

    def greedy(self, state: Any, moves: Sequence[Any]) -> Any:
        """The move whose result the game's ``evaluate`` rates best for the mover (ties at
        random)."""
        game = self.game
        evaluate = game.evaluate  # type: ignore[attr-defined]
        sign = 1.0 if game.to_move(state) == MAX else -1.0
        scores = [sign * evaluate(game.result(state, move)) for move in moves]
        top = max(scores)
        best = [move for move, score in zip(moves, scores, strict=True) if score == top]
        return best[int(self.rng.random() * len(best))]

    def answer(self, tree: _Tree, done: int, seconds: float, stopped: Stopped) -> MctsResult:
        root_proven = self.solver and tree.lo[0] == tree.hi[0]
        children = tuple(
            ChildStats(tree.action[c], tree.n[c], tree.w[c] / tree.n[c], tree.lo[c], tree.hi[c])
            for c in tree.children[0]
        )
        pv: list[Any] = []
        node = 0
        while tree.children[node]:
            node = self.choice(tree, node)
            pv.append(tree.action[node])
        best = pv[0] if pv else None
        if best is None and not tree.terminal[0]:
            best = tree.untried[0][0]  # no iteration ran: any legal move
        return MctsResult(
            best_action=best,
            value=tree.w[0] / tree.n[0] if tree.n[0] else 0.0,
            proven=tree.lo[0] if root_proven else None,
            bounds=(tree.lo[0], tree.hi[0]),
            children=children,
            iterations=done,
            nodes=len(tree.state),
            seconds=seconds,
            stopped=stopped,
            pv=tuple(pv),
        )

    def choice(self, tree: _Tree, node: int) -> int:
        """The child to play at ``node``: a value-keeping one if proven, else the most visited.

        With the solver, children proven worse than the node's lower bound are passed over.
        """
        kids = tree.children[node]
        lo, hi, n, w = tree.lo, tree.hi, tree.n, tree.w
        sign = 1.0 if tree.mover[node] == MAX else -1.0
        if self.solver:
            if lo[node] == hi[node]:
                keep = [c for c in kids if lo[c] == hi[c] == lo[node]]
                if keep:
                    return max(keep, key=lambda c: n[c])
            safe = [c for c in kids if (hi[c] >= lo[node] if sign > 0 else lo[c] <= hi[node])]
            kids = safe or kids
        return max(kids, key=lambda c: (n[c], sign * w[c] / n[c]))
