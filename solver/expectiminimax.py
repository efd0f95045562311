"""Expectiminimax and *-minimax (Star1, Star2): the teaching searches for games with chance.

Assumes two players, zero-sum, perfect information, and chance moves declared by the game
(:class:`solver.game.HasChance`); values are from player 0's (MAX's) point of view. Written to
be read beside AIMA 4e §5.5: MAX and MIN nodes are :mod:`solver.minimax`'s own max_value and
min_value (one pair for every search), and a chance node's value is the probability-weighted
sum of its children's values, ``sum(p * v)``: nothing more (dividing that sum once more by the
number of outcomes, as aima-python's ``expect_minmax`` does, shrinks every chance layer's values
by 1/n).

* :func:`expectiminimax` searches every node (AIMA's EXPECTIMINIMAX).
* :func:`star1` and :func:`star2` are Ballard's *-minimax (Ballard 1983, "The *-minimax search
  procedure for trees containing chance nodes", Artificial Intelligence 21; also Hauk, Buro and
  Schaeffer 2004, "Rediscovering *-Minimax Search"): alpha-beta at MAX and MIN nodes, and, at
  a chance node, a cut as soon as the outcomes searched so far settle the expectation against
  the window whatever the rest bring. That needs every value to lie in known bounds
  ``[lo, hi]`` (``bounds=`` or the game's ``utility_bounds``): an outcome not yet searched is
  worth at least ``lo`` and at most ``hi``.

  Star1 at a chance node with window (α, β) and outcomes of probability p_i: with the values
  (or bounds) ``lo_j <= v_j <= hi_j`` known for the others, child i is searched in the window
  ``α_i = (α − Σ_{j≠i} p_j·hi_j) / p_i`` and ``β_i = (β − Σ_{j≠i} p_j·lo_j) / p_i`` (clamped to
  ``[lo, hi]``). A child failing low (``v_i <= α_i``) makes the expectation at most α: a cut,
  the value ``Σ p_j·hi_j`` an upper bound; failing high, a cut with a lower bound.

  Star2 first *probes* each outcome whose next node is MAX's (MIN's) move: it searches only that
  node's first move, whose value is a lower (upper) bound on the node. If the probed bounds
  already settle the expectation, the chance node is cut before any full search; else the
  Star1 pass follows with the tighter bounds. An outcome is probed only when the window leaves
  its bound room to cut (β_i below ``hi`` for a MAX node, α_i above ``lo`` for a MIN node).
  Probed nodes are searched again in full: without a transposition table (these teaching
  searches have none) a probe that does not cut is work done twice, so Star2 can search more
  nodes than Star1; it pays where first moves are good and cuts come early.

  Both return exactly :func:`expectiminimax`'s value at the root (their values are fail-soft
  bounds elsewhere, as alpha-beta's are: ``Backup.bound`` says which at chance nodes).

With exact probabilities (``fractions.Fraction``) and integer utilities every value is exact.
Events (:mod:`solver.events`) carry ``Enter.chance`` at chance nodes, ``Enter.probability`` on
the moves out of them, ``Enter.probe`` on Star2's probes and ``Cutoff.fails_high`` on chance cuts.

>>> from games import load_game
>>> game = load_game("textbook", tree="[{1/2: [3, 5], 1/2: [1, 9]}, {1/2: [0, 2], 1/2: [1, 1]}]")
>>> expectiminimax(game).value, star1(game).value, star2(game).value
(2, 2, 2)
>>> expectiminimax(game).stats.nodes, star1(game).stats.nodes, star2(game).stats.nodes
(15, 13, 13)
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

import attrs

from solver.chance import expectation, has_chance, is_chance, outcomes
from solver.errors import CapabilityError, InvalidStateError
from solver.events import INF, Backup, Bound, Cutoff, Enter, Observer
from solver.game import MAX, Game, HasUtilityBounds
from solver.minimax import Evaluate, _Search
from solver.results import SearchResult, format_value

__all__ = ["expectiminimax", "star1", "star2", "utility_bounds"]

S = TypeVar("S")
A = TypeVar("A")


def expectiminimax(
    game: Game[S, A],
    state: S | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluate[S] | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """Expectiminimax (AIMA 4e §5.5): MAX maximises, MIN minimises, chance takes expectations.

    Takes the arguments of :func:`solver.minimax.minimax`; a deterministic game gives minimax's
    result. ``action_values`` holds every root action's value (at a chance root, each outcome's);
    ``best_actions`` the root actions that keep the value (none at a chance root); ``plies`` is
    None for a game with chance (the length of play depends on the dice).

    >>> from games import load_game
    >>> fig = load_game("textbook", tree="[{0.9: 2, 0.1: 3}, {0.9: 1, 0.1: 4}]")
    >>> round(expectiminimax(fig).value, 9), expectiminimax(fig).best_action
    (2.1, 0)
    """
    return _ChanceSearch(game, depth, evaluate, observer, None, probe=False).run(state)


def star1(
    game: Game[S, A],
    state: S | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluate[S] | None = None,
    observer: Observer | None = None,
    bounds: tuple[float, float] | None = None,
) -> SearchResult:
    """Ballard's Star1: expectiminimax's root value with alpha-beta, and cuts at chance nodes.

    Args:
        bounds: ``(lo, hi)`` with every utility and evaluation in ``[lo, hi]``; default the
            game's ``utility_bounds()``. The tighter, the more it prunes.

    Other arguments as :func:`expectiminimax`. ``action_values`` holds the root actions whose
    values are exact; ``best_actions`` is left empty, as for alpha-beta.

    Raises:
        CapabilityError: no bounds given and the game has no ``utility_bounds``.
        InvalidStateError: the bounds are not two finite numbers ``lo <= hi``, or a leaf's
            value lies outside them (the message quotes it).
    """
    limits = utility_bounds(game, bounds, "star1")
    return _ChanceSearch(game, depth, evaluate, observer, limits, probe=False).run(state)


def star2(
    game: Game[S, A],
    state: S | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluate[S] | None = None,
    observer: Observer | None = None,
    bounds: tuple[float, float] | None = None,
) -> SearchResult:
    """Ballard's Star2: Star1 after a probing pass at each chance node (see the module notes).

    Arguments, results and errors as :func:`star1`.
    """
    limits = utility_bounds(game, bounds, "star2")
    return _ChanceSearch(game, depth, evaluate, observer, limits, probe=True).run(state)


def utility_bounds(
    game: Game[Any, Any], bounds: tuple[float, float] | None, search: str = "*-minimax"
) -> tuple[float, float]:
    """``bounds`` checked, or the game's ``utility_bounds()`` when it is None.

    Raises:
        CapabilityError: neither is there.
        InvalidStateError: not two finite numbers with ``lo <= hi``.

    >>> from games import load_game
    >>> utility_bounds(load_game("textbook"), None), utility_bounds(load_game("textbook"), (0, 20))
    ((2, 14), (0, 20))
    >>> utility_bounds(load_game("textbook"), (5, 1))
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: invalid bounds (5, 1): use two finite numbers lo <= hi that \
every utility lies between
    """
    if bounds is None:
        if not isinstance(game, HasUtilityBounds):
            raise CapabilityError(
                f"{search} needs bounds on the utilities, and game {game.name!r} has no "
                "utility_bounds(): pass bounds=(lo, hi)"
            )
        bounds = game.utility_bounds()
    try:
        lo, hi = bounds
        ok = all(math.isfinite(x) and not isinstance(x, bool) for x in (lo, hi)) and lo <= hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise InvalidStateError(
            f"invalid bounds {bounds!r}: use two finite numbers lo <= hi that every utility "
            "lies between"
        )
    return lo, hi


class _ChanceSearch(_Search):
    """:class:`solver.minimax._Search` with chance nodes: expectations, and *-minimax's cuts
    when ``bounds`` are given (alpha-beta at MAX and MIN nodes then, too)."""

    def __init__(
        self,
        game: Game[Any, Any],
        depth: int | None,
        evaluate: Evaluate[Any] | None,
        observer: Observer | None,
        bounds: tuple[float, float] | None,
        probe: bool,
    ) -> None:
        super().__init__(game, depth, evaluate, observer, prune=bounds is not None)
        self.bounds = bounds
        self.probe = probe
        self.chance = lambda state: is_chance(game, state)

    def run(self, state: Any) -> SearchResult:
        """Search, then leave out what a game with chance cannot say (plies; best outcomes)."""
        root = self.game.initial_state() if state is None else state
        result = super().run(root)
        if not has_chance(self.game):
            return result
        best = () if is_chance(self.game, root) else result.best_actions
        return attrs.evolve(result, plies=None, action_plies={}, best_actions=best)

    def leaf(self, node: int, v: float, terminal: bool) -> None:
        """Count a leaf and report it; with bounds, check that its value lies in them."""
        if self.bounds is not None and not self.bounds[0] <= v <= self.bounds[1]:
            lo, hi = (format_value(b) for b in self.bounds)
            kind = "utility" if terminal else "evaluation"
            raise InvalidStateError(
                f"{kind} {v!r} at node #{node + 1} lies outside the bounds [{lo}, {hi}] "
                "*-minimax was given: widen the bounds to hold every leaf value"
            )
        super().leaf(node, v, terminal)

    def chance_value(
        self, node: int, state: Any, alpha: float, beta: float, ply: int
    ) -> tuple[float, tuple[Any, ...], bool]:
        """A chance node: the expectation of its outcomes (with bounds, *-minimax's cuts)."""
        pairs = outcomes(self.game, state)
        kids = [self.game.result(state, a) for a, _ in pairs]
        if self.bounds is None:
            values, exact = [], True
            for (a, p), kid in zip(pairs, kids, strict=True):
                v, line, ok = self.value(kid, -INF, INF, ply + 1, node, a, p)
                self.note_root_child(ply, a, v, line, ok)
                values.append(v)
                exact = exact and ok
            v = expectation(zip((p for _, p in pairs), values, strict=True))
            self.chance_backup(node, v, alpha, beta, "exact", exact)
            return v, (), exact
        return _StarNode(self, node, pairs, kids, alpha, beta, ply).run()

    def note_root_child(self, ply: int, action: Any, v: float, line: Any, ok: bool) -> None:
        """At the root, remember each outcome's value (the result's ``action_values``)."""
        if ply == 0:
            self.root_children[action] = (v, line, ok)

    def chance_backup(
        self, node: int, v: float, alpha: float, beta: float, bound: Bound, exact: bool
    ) -> None:
        """Report a chance node's value: exact, or (a *-minimax cut) which bound."""
        if self.observer is not None:
            self.observer(Backup(node, v, None, alpha, beta, exact, bound))


class _StarNode:
    """One chance node under *-minimax: what is known of each outcome, and the cuts."""

    def __init__(
        self,
        search: _ChanceSearch,
        node: int,
        pairs: list[tuple[Any, Any]],
        kids: list[Any],
        alpha: float,
        beta: float,
        ply: int,
    ) -> None:
        assert search.bounds is not None
        self.search, self.node, self.pairs, self.kids = search, node, pairs, kids
        self.alpha, self.beta, self.ply = alpha, beta, ply
        self.lo_bound, self.hi_bound = search.bounds
        self.p = [p for _, p in pairs]
        self.lo: list[Any] = [self.lo_bound] * len(pairs)  # each outcome's value is >= lo[i]
        self.hi: list[Any] = [self.hi_bound] * len(pairs)  # and <= hi[i]
        self.probed: set[int] = set()  # the outcomes Star2 probed
        self.probing = False  # in Star2's probes, before the full pass

    def lower(self) -> Any:
        return expectation(zip(self.p, self.lo, strict=True))

    def upper(self) -> Any:
        return expectation(zip(self.p, self.hi, strict=True))

    def window(self, i: int) -> tuple[Any, Any]:
        """Child i's window: outside it, the expectation leaves (α, β) whatever the others."""
        p = self.p[i]
        others_hi = self.upper() - p * self.hi[i]
        others_lo = self.lower() - p * self.lo[i]
        return (self.alpha - others_hi) / p, (self.beta - others_lo) / p

    def run(self) -> tuple[float, tuple[Any, ...], bool]:
        """Star2's probes (if asked), then Star1's pass, cutting as soon as it is settled."""
        if self.search.probe:
            self.probing = True
            for i in range(len(self.pairs)):
                self.probe(i)
                cut = self.settled(i, failed_low=False, failed_high=False)
                if cut is not None:
                    return cut
            self.probing = False
        for i, ((a, p), kid) in enumerate(zip(self.pairs, self.kids, strict=True)):
            a_i, b_i = self.window(i)
            low, high = max(a_i, self.lo_bound), min(b_i, self.hi_bound)
            v, line, ok = self.search.value(kid, low, high, self.ply + 1, self.node, a, p)
            self.search.note_root_child(self.ply, a, v, line, ok)
            failed_low = v <= low and low > self.lo_bound
            failed_high = v >= high and high < self.hi_bound
            if failed_low:
                self.hi[i] = min(self.hi[i], v)
            elif failed_high:
                self.lo[i] = max(self.lo[i], v)
            else:
                self.lo[i] = self.hi[i] = v
            cut = self.settled(i, failed_low, failed_high)
            if cut is not None:
                return cut
        v = self.lower()
        assert v == self.upper()  # no cut: every outcome was valued exactly
        self.search.chance_backup(self.node, v, self.alpha, self.beta, "exact", True)
        return v, (), True

    def settled(
        self, i: int, failed_low: bool, failed_high: bool
    ) -> tuple[float, tuple[Any, ...], bool] | None:
        """Cut if the expectation is settled outside (α, β): the bound, else None.

        A child that failed outside its window settles it in exact arithmetic; with floats the
        sums may miss α or β by a rounding error, so the bound is then α or β itself.
        """
        upper, lower = self.upper(), self.lower()
        if failed_low or upper <= self.alpha:
            return self.cut(i, min(upper, self.alpha), fails_high=False)
        if failed_high or lower >= self.beta:
            return self.cut(i, max(lower, self.beta), fails_high=True)
        return None

    def cut(self, i: int, v: Any, fails_high: bool) -> tuple[float, tuple[Any, ...], bool]:
        """Cut after outcome i: every outcome never entered is pruned, in outcome order.

        In the full pass those are the outcomes after i (a probed one's probe stays drawn
        beside it); among the probes, also those up to i that were not probed (a terminal,
        horizon or chance node, or one whose bound could not cut), all never entered.
        """
        search = self.search
        entered = range(i + 1) if not self.probing else self.probed
        rest = tuple(a for j, (a, _) in enumerate(self.pairs) if j not in entered)
        if rest:
            search.cutoffs += 1
            if search.observer is not None:
                player = search.game.to_move(self.kids[0])
                cutoff = Cutoff(self.node, player, v, self.alpha, self.beta, rest, fails_high)
                search.observer(cutoff)
        bound: Bound = "lower" if fails_high else "upper"
        search.chance_backup(self.node, v, self.alpha, self.beta, bound, False)
        return v, (), False

    def probe(self, i: int) -> None:
        """Star2's probe of outcome i: search only the first move of the node it leads to.

        The first move's value is a lower bound on a MAX node (an upper bound on a MIN node).
        Terminal, horizon and chance nodes are not probed (the full pass values them).
        """
        search, game, kid = self.search, self.search.game, self.kids[i]
        ply = self.ply + 1
        at_horizon = search.depth is not None and ply >= search.depth
        if game.is_terminal(kid) or at_horizon or is_chance(game, kid):
            return
        a_i, b_i = self.window(i)
        player = game.to_move(kid)
        if player == MAX:  # a lower bound, worth finding only up to β_i
            low, high = self.lo_bound, min(b_i, self.hi_bound)
        else:
            low, high = max(a_i, self.lo_bound), self.hi_bound
        if (player == MAX and high >= self.hi_bound) or (player != MAX and low <= self.lo_bound):
            return  # no first move could reach the window's edge: the probe cannot cut
        node = search.nodes
        search.nodes += 1
        self.probed.add(i)
        action, p = self.pairs[i]
        if search.observer is not None:
            enter = Enter(node, self.node, action, kid, ply, player, low, high, False, p, True)
            search.observer(enter)
        first = game.actions(kid)[0]
        v, _, _ = search.value(game.result(kid, first), low, high, ply + 1, node, first)
        if player == MAX:
            self.lo[i] = max(self.lo[i], v)
        else:
            self.hi[i] = min(self.hi[i], v)
        bound: Bound = "lower" if player == MAX else "upper"
        if search.observer is not None:
            search.observer(Backup(node, v, first, low, high, False, bound))
