"""Retrograde analysis of a game graph that may cycle, vectorised with numpy (negamax form).

Assumes two players, zero-sum, deterministic, perfect information, and a graph small enough to
hold as arrays. The graph knows no players: every value is from the point of view of the player
to move at that node (the *mover*), so a move to a child the opponent moves at is worth minus
the child's value (negamax). This module knows no game; :func:`solver.solve.solve` and the
Ayòayò tablebase builder both hand it arrays.

The graph (``N`` nodes numbered ``0 .. N-1``):

- ``indptr`` (``N + 1`` ints) and ``targets`` (``E`` ints), CSR form: the moves of node ``u``
  that stay in the graph lead to ``targets[indptr[u]:indptr[u + 1]]``. Repeated targets are
  allowed. Such a move is worth ``-value[child]`` to ``u``'s mover, or ``+value[child]`` where
  ``same_mover`` (optional, ``E`` bools) says the same player moves again.
- ``exit_indptr`` and ``exit_values`` (optional, CSR): moves that leave the graph with a known
  value, in ``u``'s mover's view (a terminal result, or a position solved earlier, e.g. a
  lower tablebase level); ``exit_plies`` (optional) the plies to the end after such a move
  (default 0: the move ends the game, so it is one ply from the end).
- ``endless`` (``N`` floats): the score, in ``u``'s mover's view, of play that goes on for ever
  through ``u``. It must be constant along any cycle (in mover's view it flips sign with each
  move to the opponent), as :class:`solver.game.HasEndlessValue` promises.
- ``terminal_values`` (optional, ``N`` floats, mover's view): read only at nodes with no move at
  all (neither in the graph nor leaving it): the game is over there.

:func:`solve_graph` returns a :class:`RetrogradeResult`: ``value`` per node (mover's view) and
``plies`` to the end under optimal play, or :data:`ENDLESS` (-1) where the value is reached only
by endless play.
A value is the best a mover can force, where a play that never ends scores its endless value.

Algorithm. For each candidate value ``t`` (the exit, terminal and endless values and their
negations) the solver decides, for every node at once, whether the mover can force ``>= t``.
That is a two-player game on two copies of each node: in copy P of ``u`` the *hero* moves at
``u`` and wants ``>= t``; in copy Q of ``u`` the hero's opponent moves at ``u``, and the hero
wins if that mover gets ``<= -t``. Successor counters and frontier queues (``numpy.bincount``
and ``numpy.subtract.at`` over the whole frontier) compute the hero's attractor (the copies
where the hero can force a good exit) and the opponent's; what neither can force is decided by
endless play: inside the rest, a copy whose endless value is good for the hero and from which
the opponent cannot force play into copies bad for the hero is won by the hero, and the other
way round, and the attractors grow again from those, until every copy is decided (one round
when endless values do not change inside the rest, which is the usual case). The value of a
node is the largest ``t`` whose copy P the hero wins. Thresholds go up one by one; the copies
the hero wins only shrink as ``t`` grows, so each threshold's game runs inside the copies won
at the previous one.

Plies follow :func:`solver.results.ply_preference` over value-keeping moves: a winner (value
> 0) takes the quickest end, a loser or drawer the slowest. They are counted by a second
retrograde pass over the value-keeping moves only, in rounds of increasing plies. A drawer who
could drag a draw out round a cycle has no slowest end; such draws get the quickest
value-keeping end instead. A node these passes never reach is :data:`ENDLESS`: its value is
reached only by endless play (for a win, the winner cannot force an end; for a loss, the
winner cannot either; for a draw, no value-keeping line ends).

>>> import numpy as np
>>> # a <-> b, and a may also stop for 1 (mover's view); endless play scores 0.
>>> result = solve_graph(
...     indptr=np.array([0, 1, 2]), targets=np.array([1, 0]),
...     exit_indptr=np.array([0, 1, 1]), exit_values=np.array([1.0]),
...     endless=np.zeros(2))
>>> result.value.tolist(), result.plies.tolist()
([1.0, -1.0], [1, 2])
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from solver.errors import InconsistentEndlessError

__all__ = ["ENDLESS", "InconsistentEndlessError", "RetrogradeResult", "solve_graph"]

ENDLESS: Final = -1
"""The plies of a node whose value is reached only by endless play."""

IntArray: TypeAlias = npt.NDArray[np.int64]
FloatArray: TypeAlias = npt.NDArray[np.float64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
Int32Array: TypeAlias = npt.NDArray[np.int32]

_BLOCKED: Final = np.iinfo(np.int64).max // 2
"""A counter that never reaches zero: a copy that can never join an attractor."""


@attrs.frozen(eq=False)
class RetrogradeResult:
    """The solved graph: per node, the value and plies to the end (mover's view).

    Attributes:
        value: the value of each node for the player to move there.
        plies: plies to the end under optimal play, :data:`ENDLESS` where play never ends.
        thresholds: how many candidate values were decided (the passes the solver made).
    """

    value: FloatArray
    plies: IntArray
    thresholds: int

    @property
    def endless(self) -> BoolArray:
        """True for each node whose optimal play never ends."""
        return np.asarray(self.plies == ENDLESS)


def solve_graph(
    indptr: npt.ArrayLike,
    targets: npt.ArrayLike,
    endless: npt.ArrayLike,
    *,
    same_mover: npt.ArrayLike | None = None,
    exit_indptr: npt.ArrayLike | None = None,
    exit_values: npt.ArrayLike | None = None,
    exit_plies: npt.ArrayLike | None = None,
    terminal_values: npt.ArrayLike | None = None,
) -> RetrogradeResult:
    """Solve every node of a graph that may cycle: value and plies (see the module docstring).

    Args:
        indptr: ``N + 1`` offsets into ``targets`` (CSR).
        targets: the child of each move that stays in the graph.
        endless: the endless-play score of each node, mover's view.
        same_mover: per move in ``targets``, True where the child's mover is the same player.
        exit_indptr: ``N + 1`` offsets into ``exit_values`` (CSR); None: no exits.
        exit_values: the value of each move that leaves the graph, mover's view.
        exit_plies: plies to the end after each exit move (default 0).
        terminal_values: the value of nodes without any move (mover's view).

    Returns:
        The :class:`RetrogradeResult`.

    Raises:
        ValueError: arrays of mismatched sizes, a target outside ``0 .. N-1``, or a node with no
            move and no terminal value.
        InconsistentEndlessError: endless values that change along a cycle (a GameError and
            a ValueError).

    >>> import numpy as np
    >>> # 0 -> 1 -> 2 (terminal, lost for its mover): 2 loses, 1 wins in 1, 0 loses in 2.
    >>> r = solve_graph(np.array([0, 1, 2, 2]), np.array([1, 2]), np.zeros(3),
    ...                 terminal_values=np.array([0.0, 0.0, -1.0]))
    >>> r.value.tolist(), r.plies.tolist()
    ([-1.0, 1.0, -1.0], [2, 1, 0])
    """
    graph = _Graph.build(
        indptr, targets, endless, same_mover, exit_indptr, exit_values, exit_plies, terminal_values
    )
    candidates = np.unique(np.concatenate([graph.known, -graph.known]))
    value = np.full(graph.n, candidates[0], dtype=np.float64)
    open_ = np.ones(2 * graph.n, dtype=np.bool_)
    for t in candidates[1:]:  # every node can force at least the smallest candidate
        open_ = graph.hero_wins(float(t), open_)
        won = open_[: graph.n]
        if not won.any():
            break  # nobody can force t, so nobody can force more
        value[won] = t
    return RetrogradeResult(value=value, plies=graph.plies(value), thresholds=len(candidates))


@attrs.define
class _Graph:
    """The graph doubled into copies P (``0 .. N-1``) and Q (``N .. 2N-1``) of each node.

    In copy P of ``u`` the hero moves at ``u``; in copy Q the hero's opponent does. A move
    ``u -> v`` to the opponent links P(u) to Q(v) and Q(u) to P(v); a move where the same
    player moves again links P(u) to P(v) and Q(u) to Q(v).
    """

    n: int
    src: IntArray  # per move in the graph: its node
    dst: IntArray
    flip: BoolArray  # per move: the child's mover is the opponent
    degree: IntArray  # per node: moves in the graph
    exit_best: FloatArray  # per node: best exit (terminal value at a terminal), -inf if none
    has_exit: BoolArray
    terminal: BoolArray
    endless: FloatArray
    exit_src: IntArray
    exit_values: FloatArray
    exit_plies: IntArray
    pred_indptr: IntArray  # the moves reversed (CSR by child): the nodes moving into each
    pred_src: Int32Array
    pred_flip: BoolArray
    known: FloatArray  # the values the graph itself names: exits, terminals, endless
    scratch: Int32Array  # one int per copy, for _distinct

    @classmethod
    def build(
        cls,
        indptr: npt.ArrayLike,
        targets: npt.ArrayLike,
        endless: npt.ArrayLike,
        same_mover: npt.ArrayLike | None,
        exit_indptr: npt.ArrayLike | None,
        exit_values: npt.ArrayLike | None,
        exit_plies: npt.ArrayLike | None,
        terminal_values: npt.ArrayLike | None,
    ) -> _Graph:
        ptr = np.asarray(indptr, dtype=np.int64)
        dst = np.asarray(targets, dtype=np.int64)
        n = len(ptr) - 1
        if n < 0 or ptr[0] != 0 or ptr[-1] != len(dst) or np.any(np.diff(ptr) < 0):
            raise ValueError(
                f"invalid indptr of length {len(ptr)}: it must start at 0, never decrease and "
                f"end at len(targets) = {len(dst)}"
            )
        if len(dst) and (dst.min() < 0 or dst.max() >= n):
            bad = int(dst[(dst < 0) | (dst >= n)][0])
            raise ValueError(f"invalid target {bad!r}: nodes are numbered 0 to {n - 1}")
        end = _node_floats(endless, n, "endless")
        degree = np.diff(ptr)
        src = np.repeat(np.arange(n, dtype=np.int64), degree)
        flip = (
            np.ones(len(dst), dtype=np.bool_)
            if same_mover is None
            else ~_sized(np.asarray(same_mover, dtype=np.bool_), len(dst), "same_mover")
        )
        if exit_indptr is None:
            eptr = np.zeros(n + 1, dtype=np.int64)
            evalues = np.zeros(0, dtype=np.float64)
        else:
            eptr = np.asarray(exit_indptr, dtype=np.int64)
            evalues = np.asarray(exit_values, dtype=np.float64)
            _sized(eptr, n + 1, "exit_indptr")
            if eptr[0] != 0 or eptr[-1] != len(evalues) or np.any(np.diff(eptr) < 0):
                raise ValueError(
                    "invalid exit_indptr: it must start at 0, never decrease and end at "
                    f"len(exit_values) = {len(evalues)}"
                )
        eplies = (
            np.zeros(len(evalues), dtype=np.int64)
            if exit_plies is None
            else _sized(np.asarray(exit_plies, dtype=np.int64), len(evalues), "exit_plies")
        )
        exit_count = np.diff(eptr)
        exit_src = np.repeat(np.arange(n, dtype=np.int64), exit_count)
        exit_best = np.full(n, -np.inf)
        np.maximum.at(exit_best, exit_src, evalues)
        has_exit = exit_count > 0
        terminal = (degree == 0) & ~has_exit
        if terminal.any():
            if terminal_values is None:
                node = int(np.flatnonzero(terminal)[0])
                raise ValueError(
                    f"node {node!r} has no move: give terminal_values for nodes without moves"
                )
            exit_best[terminal] = _node_floats(terminal_values, n, "terminal_values")[terminal]
        # The moves reversed; the doubled graph's are found from them (see _predecessors).
        order = np.argsort(dst)  # the order within a node's predecessors does not matter
        pred_src = src[order].astype(np.int32)
        pred_flip = flip[order]
        pred_indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(dst, minlength=n), out=pred_indptr[1:])
        known = np.concatenate([evalues, exit_best[terminal], end])
        return cls(
            n=n,
            src=src,
            dst=dst,
            flip=flip,
            degree=degree,
            exit_best=exit_best,
            has_exit=has_exit,
            terminal=terminal,
            endless=end,
            exit_src=exit_src,
            exit_values=evalues,
            exit_plies=eplies,
            pred_indptr=pred_indptr,
            pred_src=pred_src,
            pred_flip=pred_flip,
            known=known if len(known) else np.zeros(1),
            scratch=np.zeros(2 * n, dtype=np.int32),
        )

    # ---- values: one threshold at a time -------------------------------------------------

    def hero_wins(self, t: float, open_: BoolArray) -> BoolArray:
        """Per copy: does the hero win the threshold game of ``t``? (P: mover ``>= t``).

        ``open_`` marks the copies the hero may still win (those it won for a smaller ``t``:
        the sets only shrink as ``t`` grows); the others are the opponent's from the start, so
        the attractors run inside the open copies only.
        """
        n = self.n
        best = self.exit_best
        degree = np.concatenate([self.degree, self.degree])
        inside = self._successors_in(open_)
        lost = ~open_  # members of both sides from the start: never join, never propagate
        # Copy P: hero moves; copy Q: the opponent moves, the hero wins at <= -t.
        hero, foe = lost.copy(), lost.copy()
        hero_seed = open_ & np.concatenate([best >= t, (self.degree == 0) & (best <= -t)])
        foe_seed = open_ & np.concatenate(
            [(inside[:n] == 0) & (best < t), (best > -t) | (inside[n:] < self.degree)]
        )
        # Counters of the universal copies: Q for the hero, P for the opponent.
        hero_count = np.where(np.arange(2 * n) < n, 0, degree)
        hero_count[n:][(best > -t) | (inside[n:] < self.degree)] = _BLOCKED  # the foe escapes
        foe_count = np.concatenate([inside[:n], np.zeros(n, np.int64)])
        foe_count[:n][best >= t] = _BLOCKED
        exist_hero = np.arange(2 * n) < n
        self._attract(hero, hero_count, exist_hero, np.flatnonzero(hero_seed))
        self._attract(foe, foe_count, ~exist_hero, np.flatnonzero(foe_seed))
        rest = ~(hero | foe)
        while rest.any():
            # What neither side can force is decided by endless play (see module docstring).
            good = np.concatenate([self.endless >= t, self.endless <= -t])
            rest_good, rest_bad = rest & good, rest & ~good
            if not rest_bad.any():  # endless play is good for the hero everywhere left
                hero_new, foe_new = rest, rest_bad
            elif not rest_good.any():
                hero_new, foe_new = rest_good, rest
            else:  # where each side can keep play in copies good for it for ever
                hero_new = rest_good & ~self._attract_within(rest, rest_bad, ~exist_hero)
                foe_new = rest_bad & ~self._attract_within(rest, rest_good, exist_hero)
            if not (hero_new.any() or foe_new.any()):  # impossible if endless is consistent
                nodes = np.flatnonzero(rest[:n] | rest[n:]).tolist()
                raise InconsistentEndlessError(
                    f"endless values are not constant along a cycle: nodes {nodes[:5]!r} "
                    "sit on cycles whose endless values differ",
                    nodes,
                )
            hero[hero_new] = True
            foe[foe_new] = True
            self._attract(hero, hero_count, exist_hero, np.flatnonzero(hero_new))
            self._attract(foe, foe_count, ~exist_hero, np.flatnonzero(foe_new))
            rest = ~(hero | foe)
        won: BoolArray = hero & open_
        return won

    def _successors_in(self, region: BoolArray) -> IntArray:
        """Per copy, how many of its moves lead to a copy in ``region``."""
        n, src = self.n, self.src
        count = np.zeros(2 * n, dtype=np.int64)
        for copy, to_copy in ((0, np.where(self.flip, n, 0)), (n, np.where(self.flip, 0, n))):
            count[copy : copy + n] = np.bincount(src[region[self.dst + to_copy]], minlength=n)
        return count

    def _attract(
        self, member: BoolArray, count: IntArray, existential: BoolArray, frontier: IntArray
    ) -> None:
        """Grow ``member`` from the new members ``frontier`` (already counted in ``count``).

        A copy joins when any successor has joined (``existential``) or, otherwise, when its
        counter of successors yet to join reaches zero. ``member[frontier]`` is set here.
        """
        member[frontier] = True
        while frontier.size:
            movers = self._predecessors(frontier)
            movers = movers[~member[movers]]
            exist = existential[movers]
            joined = movers[exist]
            universal = movers[~exist]
            np.subtract.at(count, universal, 1)
            frontier = self._distinct(np.concatenate([joined, universal[count[universal] == 0]]))
            member[frontier] = True

    def _predecessors(self, copies: IntArray) -> IntArray:
        """The copies with a move into each of ``copies`` (with repeats).

        A move ``u -> v`` to the opponent links P(u) to Q(v) and Q(u) to P(v); a move where
        the same player moves again links P(u) to P(v) and Q(u) to Q(v).
        """
        n = self.n
        in_q = copies >= n
        node = copies - n * in_q
        starts, stops = self.pred_indptr[node], self.pred_indptr[node + 1]
        moves = _ranges(starts, stops)
        other = self.pred_flip[moves] ^ np.repeat(in_q, stops - starts)
        movers: IntArray = self.pred_src[moves] + n * other
        return movers

    def _distinct(self, items: IntArray) -> IntArray:
        """``items`` without repeats (in no particular order), in linear time."""
        if items.size < 2:
            return items
        order = np.arange(items.size, dtype=np.int32)
        self.scratch[items] = order  # the last position of each item wins
        distinct: IntArray = items[self.scratch[items] == order]
        return distinct

    def _attract_within(
        self, region: BoolArray, target: BoolArray, existential: BoolArray
    ) -> BoolArray:
        """The copies of ``region`` from which the ``existential`` side forces ``target``,
        play staying in ``region`` (moves out of it do not count)."""
        count = self._successors_in(region)
        member = ~region  # outside copies never join (and, never in a frontier, never count)
        self._attract(member, count, existential, np.flatnonzero(target))
        return member & region

    # ---- plies: a second pass over the value-keeping moves --------------------------------

    def plies(self, value: FloatArray) -> IntArray:
        """Plies to the end under optimal play (:data:`ENDLESS` where it never ends).

        First pass: a winner takes the quickest end (it joins with its first value-keeping
        move that ends), a loser or drawer the slowest (it joins once all its value-keeping
        moves end): backward induction where there is no cycle. A drawer who could drag a draw
        out round a cycle has no slowest end; a second pass gives such draws the quickest
        value-keeping end. Nodes neither pass reaches reach their value only by endless play.
        """
        n = self.n
        child = np.where(self.flip, -value[self.dst], value[self.dst])
        keeps = child == value[self.src]
        exit_keeps = self.exit_values == value[self.exit_src]
        winner = value > 0
        # Per node, 1 + the plies of its quickest or slowest value-keeping exit.
        exit_ply = 1 + self.exit_plies[exit_keeps]
        exit_node = self.exit_src[exit_keeps]
        never = np.iinfo(np.int64).max
        quickest = np.full(n, never)
        np.minimum.at(quickest, exit_node, exit_ply)
        slowest = np.zeros(n, dtype=np.int64)
        np.maximum.at(slowest, exit_node, exit_ply)
        pending = np.bincount(self.src[keeps], minlength=n).astype(np.int64)
        order = np.argsort(self.dst[keeps])  # the value-keeping moves, reversed
        pred_src = self.src[keeps][order]
        pred_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.dst[keeps], minlength=n), out=pred_ptr[1:])

        plies = np.full(n, ENDLESS, dtype=np.int64)
        buckets: dict[int, list[IntArray]] = {}
        terminal = np.flatnonzero(self.terminal)
        _schedule(buckets, terminal, np.zeros(len(terminal), np.int64))
        early = np.flatnonzero(winner & (quickest < never))
        _schedule(buckets, early, quickest[early])
        ready = np.flatnonzero(~winner & ~self.terminal & (pending == 0) & (quickest < never))
        _schedule(buckets, ready, slowest[ready])
        _settle(buckets, plies, winner, pending, slowest, pred_ptr, pred_src)

        open_draws = (value == 0) & (plies == ENDLESS)
        if open_draws.any():  # the second pass: those draws take the quickest end
            again = np.full(n, ENDLESS, dtype=np.int64)
            settled = np.flatnonzero(plies != ENDLESS)
            _schedule(buckets, settled, plies[settled])  # they settle again, where they were
            early = np.flatnonzero(open_draws & (quickest < never))
            _schedule(buckets, early, quickest[early])
            blocked = np.full(n, _BLOCKED, dtype=np.int64)  # no other node joins
            _settle(buckets, again, open_draws, blocked, slowest, pred_ptr, pred_src)
            plies = again
        return plies


def _schedule(buckets: dict[int, list[IntArray]], nodes: IntArray, plies: IntArray) -> None:
    """Put each of ``nodes`` in the bucket of its ply (``plies``, one per node)."""
    for ply in np.unique(plies).tolist():
        buckets.setdefault(ply, []).append(nodes[plies == ply])


def _settle(
    buckets: dict[int, list[IntArray]],
    plies: IntArray,
    quick: BoolArray,
    pending: IntArray,
    slowest: IntArray,
    pred_ptr: IntArray,
    pred_src: IntArray,
) -> None:
    """Give nodes their plies in rounds of increasing plies, from the nodes in ``buckets``.

    A ``quick`` node joins one ply after its first child; any other once ``pending`` (its
    children yet to join) reaches zero, one ply after the last, or at ``slowest``.
    """
    while buckets:
        ply = min(buckets)
        frontier = np.unique(np.concatenate(buckets.pop(ply)))
        frontier = frontier[plies[frontier] == ENDLESS]
        if not frontier.size:
            continue
        plies[frontier] = ply
        movers = pred_src[_ranges(pred_ptr[frontier], pred_ptr[frontier + 1])]
        movers = movers[plies[movers] == ENDLESS]
        first = np.unique(movers[quick[movers]])
        if first.size:
            buckets.setdefault(ply + 1, []).append(first)
        slow = movers[~quick[movers]]
        np.subtract.at(pending, slow, 1)
        done = np.unique(slow[pending[slow] == 0])
        if done.size:
            _schedule(buckets, done, np.maximum(ply + 1, slowest[done]))


def _ranges(starts: IntArray, stops: IntArray) -> IntArray:
    """The indices ``starts[i] .. stops[i] - 1`` for every ``i``, concatenated."""
    lengths = stops - starts
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return np.asarray(offsets + np.arange(total), dtype=np.int64)


_A = TypeVar("_A", bound="npt.NDArray[Any]")


def _sized(array: _A, size: int, name: str) -> _A:
    if array.shape != (size,):
        raise ValueError(f"invalid {name} of shape {array.shape!r}: expected ({size},)")
    return array


def _node_floats(values: npt.ArrayLike, n: int, name: str) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    _sized(array, n, name)
    return array
