"""Explicit game trees given as nested lists of leaf values: the trees of the textbook figures.

Assumes two players, zero-sum: MAX (player 0) moves at the root and the players alternate by
depth, so MIN moves at depth 1, MAX at depth 2, and so on. A tree is either a bare number (a
one-node tree: the game is over before it starts) or a non-empty list of subtrees; the branching
may differ from node to node and leaves may sit at different depths. Leaves are ``int`` or
``float`` values from MAX's point of view (booleans, strings, NaN and infinities are rejected).

Chance nodes (AIMA 4e §5.5, Figure 5.11) are written in braces, each outcome as
``probability: subtree``: ``[{1/2: [3, 12], 1/2: [2, 4]}, ...]`` (in Python, a :class:`Chance`
of ``(probability, subtree)`` pairs). Probabilities are fractions ``1/6`` (kept exact, as
``fractions.Fraction``), decimals ``0.25`` or integers; each > 0, and they sum to 1 (exactly,
unless a decimal is among them). A chance node is not a player's move: the players alternate
over the *decision* nodes, so below MAX's move and a roll it is MIN's turn. A tree with chance
nodes is a :class:`ChanceTree` (``TextbookTree`` returns one), which has
:class:`solver.game.HasChance`: expectiminimax and *-minimax search it; minimax refuses it.

A state is the tuple of child indices from the root: ``()`` is the root, ``(1, 2)`` the third
child of the second child. Actions are the child indices ``0 .. n-1`` of a node.

Notation:

* states: ``root`` for the root, otherwise the child indices joined by dots (``1.2``);
  :meth:`TextbookTree.parse_state` also accepts the AIMA node names of inner nodes (``A``, ``B``).
* actions: the child index (``0``), or with ``labels="aima"`` the book's edge labels: the moves
  out of node ``B`` are ``b1, b2, b3``. :meth:`TextbookTree.parse_action` reads both forms.
* node names as in AIMA Figure 5.2: inner (non-leaf) nodes are lettered ``A, B, C, ...`` in
  breadth-first order, left to right (``AA, AB, ...`` after ``Z``); leaves have no name.

>>> game = TextbookTree()
>>> game.format_state((1, 0)), game.utility((1, 0))
('1.0', 2)
>>> [game.node_name(s) for s in [(), (0,), (1,), (2,)]]
['A', 'B', 'C', 'D']
>>> [TextbookTree(labels="aima").format_action((), a) for a in range(3)]
['a1', 'a2', 'a3']
"""

from __future__ import annotations

import itertools
import math
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal, TypeAlias

from solver.chance import check_probabilities
from solver.game import IllegalActionError, InvalidStateError, Player, Probability
from solver.quoting import quote

__all__ = [
    "AIMA_FIGURE_5_2",
    "Chance",
    "ChanceTree",
    "Path",
    "TextbookTree",
    "Tree",
    "parse_tree",
]

Tree: TypeAlias = "float | int | Sequence[Tree] | Chance"
"""A nested list of leaf values; a bare number is a one-node tree; a :class:`Chance` a chance
node."""


class Chance:
    """A chance node of a tree: its outcomes as ``(probability, subtree)`` pairs, in order.

    >>> Chance([(Fraction(1, 2), 3), (Fraction(1, 2), [1, 2])])
    Chance({1/2: 3, 1/2: [1, 2]})
    """

    def __init__(self, outcomes: Sequence[tuple[Probability, Tree]]) -> None:
        self.outcomes = tuple(outcomes)

    def __repr__(self) -> str:
        return f"Chance({_text(_freeze(self))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and self.outcomes == other.outcomes

    __hash__ = None  # type: ignore[assignment]


class _ChanceNode(tuple[object, ...]):
    """A frozen chance node: the children, with ``probabilities`` beside them."""

    probabilities: tuple[Probability, ...]

    def __new__(cls, children: Sequence[object], probabilities: Sequence[Probability]) -> Any:
        node = super().__new__(cls, children)
        node.probabilities = tuple(probabilities)
        return node


Path: TypeAlias = tuple[int, ...]
"""A state: the child indices from the root, ``()`` for the root."""

AIMA_FIGURE_5_2: Final[list[list[int]]] = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
"""The two-ply game tree of AIMA (3rd/4th ed.) Figure 5.2; its minimax value is 3."""

_INDEX = re.compile(r"[0-9]{1,9}", re.ASCII)
_INDEX_PATH = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})*", re.ASCII)
_AIMA_LABEL = re.compile(r"([a-z]+)([0-9]{1,9})", re.ASCII)


def _letters(n: int) -> str:
    """The n-th name in the sequence A, B, ..., Z, AA, AB, ... (n from 0)."""
    name = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _where(path: Path) -> str:
    if len(path) <= 12:
        return "tree" + "".join(f"[{i}]" for i in path)
    head = "".join(f"[{i}]" for i in path[:6])
    tail = "".join(f"[{i}]" for i in path[-3:])
    return f"tree{head}…{tail} (depth {len(path):,})"


class TextbookTree:
    """A game tree given explicitly, as in the textbook figures.

    Args:
        tree: nested lists of leaf values (default: AIMA Figure 5.2,
            ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``). Lists and tuples are accepted.
        labels: how :meth:`format_action` writes moves: ``"index"`` (``0, 1, 2``, the default) or
            ``"aima"`` (the book's edge labels ``a1, a2, a3`` out of node A, ``b1 ..`` out of B).
        estimates: optional heuristic values for chosen nodes, keyed by state text (``"1"``,
            ``"0.2"``, or an AIMA name such as ``"C"``); :meth:`evaluate` uses them first. Use it to
            copy an exercise whose inner nodes carry given evaluation-function values.

    Raises:
        InvalidStateError: the tree is malformed; the message names the bad value and its path.

    >>> game = TextbookTree([[3, 12], [2, 4]])
    >>> game.to_move(()), list(game.actions(())), game.to_move((1,)), game.utility((1, 1))
    (0, [0, 1], 1, 4)
    >>> TextbookTree([[3, True]])
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: invalid leaf True at tree[0][1]: leaves must be int or float
    """

    name: str = "textbook"

    def __new__(
        cls,
        tree: Tree | str | None = None,
        labels: Literal["index", "aima"] = "index",
        estimates: Mapping[str, float] | None = None,
    ) -> Any:
        """A :class:`ChanceTree` when ``tree`` has a chance node, else a TextbookTree."""
        if cls is TextbookTree and tree is not None:
            frozen = _freeze(parse_tree(tree) if isinstance(tree, str) else tree)
            if isinstance(frozen, tuple) and _has_chance(frozen):
                cls = ChanceTree
        return super().__new__(cls)

    def __init__(
        self,
        tree: Tree | str | None = None,
        labels: Literal["index", "aima"] = "index",
        estimates: Mapping[str, float] | None = None,
    ) -> None:
        if labels not in ("index", "aima"):
            raise InvalidStateError(f"invalid labels {quote(labels)}: use 'index' or 'aima'")
        self.labels: Literal["index", "aima"] = labels
        if isinstance(tree, str):
            tree = parse_tree(tree)
        self.tree: float | int | tuple[object, ...] = _freeze(
            AIMA_FIGURE_5_2 if tree is None else tree
        )
        self._arity: dict[Path, int] = {}
        self._leaf: dict[Path, float | int] = {}
        self._mean: dict[Path, float] = {}
        self._name: dict[Path, str] = {}
        self._named: dict[str, Path] = {}
        self._player: dict[Path, Player] = {}
        self._chance: dict[Path, tuple[Probability, ...]] = {}
        self._index(self.tree)
        self._estimate: dict[Path, float] = {}
        if estimates is not None and not isinstance(estimates, Mapping):
            raise InvalidStateError(
                f"invalid estimates {quote(estimates)}: use a mapping from node to value, "
                'e.g. {"B": 3, "1.0": 2.5}'
            )
        for text, value in (estimates or {}).items():
            if not isinstance(text, str):
                raise InvalidStateError(
                    f"invalid estimate node {quote(text)}: use a node's text, e.g. 'B' or '1.0'"
                )
            path = self.parse_state(text)
            try:
                finite = math.isfinite(value) and not isinstance(value, bool)
            except (TypeError, OverflowError):
                finite = False
            if not finite:
                raise InvalidStateError(
                    f"invalid estimate {quote(value)} for node {quote(text)}: use a finite int "
                    "or float"
                )
            self._estimate[path] = value

    def _index(self, tree: object) -> None:
        """Fill the per-node tables (arity, leaf values, leaf means, AIMA names, who moves, chance
        probabilities) breadth-first.

        The players alternate over decision nodes: a chance node passes the turn on unchanged.
        """
        queue: deque[tuple[Path, object, Player]] = deque([((), tree, 0)])
        order: list[Path] = []
        while queue:
            path, node, player = queue.popleft()
            order.append(path)
            self._player[path] = player
            if isinstance(node, tuple):
                self._arity[path] = len(node)
                self._name[path] = _letters(len(self._named))
                self._named[self._name[path]] = path
                if isinstance(node, _ChanceNode):
                    self._chance[path] = node.probabilities
                else:
                    player = 1 - player
                queue.extend(((*path, i), child, player) for i, child in enumerate(node))
            else:
                assert isinstance(node, (int, float))
                self._arity[path] = 0
                self._leaf[path] = node
        sums: dict[Path, tuple[float, int]] = {}
        for path in reversed(order):
            if path in self._leaf:
                total, count = float(self._leaf[path]), 1
            else:
                parts = [sums.pop((*path, i)) for i in range(self._arity[path])]
                total, count = sum(p[0] for p in parts), sum(p[1] for p in parts)
            sums[path] = (total, count)
            self._mean[path] = total / count

    # -- the Game protocol ----------------------------------------------------------------------

    def initial_state(self) -> Path:
        """The root, ``()``."""
        return ()

    def to_move(self, state: Path) -> Player:
        """MAX (0) at even depths, MIN (1) at odd depths, counting only decision nodes (a
        chance node passes the turn on: there, the player whose turn the outcome decides)."""
        return self._player[state]

    def actions(self, state: Path) -> range:
        """The child indices ``0 .. n-1``; empty at a leaf."""
        return range(self._arity[state])

    def result(self, state: Path, action: int) -> Path:
        """The child reached by ``action`` (unchecked)."""
        return (*state, action)

    def is_terminal(self, state: Path) -> bool:
        """True at the leaves."""
        return self._arity[state] == 0

    def utility(self, state: Path) -> float:
        """The leaf's value (MAX's point of view).

        Raises:
            InvalidStateError: ``state`` is not a leaf.
        """
        try:
            return self._leaf[state]
        except KeyError:
            raise InvalidStateError(
                f"no utility at {quote(self.format_state(state))}: it is not a leaf"
            ) from None

    # -- optional capabilities ------------------------------------------------------------------

    def evaluate(self, state: Path) -> float:
        """A heuristic value for depth-limited search, MAX's point of view.

        A leaf's value is exact. An inner node takes its value from ``estimates`` when one was
        given for it, else the mean of all leaves below it: what the node would be worth if both
        players moved at random from there on, a cheap and transparent stand-in for the
        evaluation function an exercise would supply.

        >>> TextbookTree().evaluate((0,)), TextbookTree().evaluate((0, 1))
        (7.666666666666667, 12)
        """
        if state in self._leaf:
            return self._leaf[state]
        if state in self._estimate:
            return self._estimate[state]
        return self._mean[state]

    def utility_bounds(self) -> tuple[float, float]:
        """The least and greatest leaf value (and estimate): bounds for *-minimax.

        >>> TextbookTree().utility_bounds()
        (2, 14)
        """
        values = [*self._leaf.values(), *self._estimate.values()]
        return min(values), max(values)

    def key(self, state: Path) -> Path:
        """The state itself (a short tuple)."""
        return state

    def node_name(self, state: Path) -> str | None:
        """The AIMA name of an inner node (``A`` is the root), or ``None`` for a leaf.

        >>> TextbookTree().node_name((2,)), TextbookTree().node_name((2, 0))
        ('D', None)
        """
        return self._name.get(state)

    def format_state(self, state: Path) -> str:
        """``root`` or the child indices joined by dots, e.g. ``1.2``."""
        return ".".join(map(str, state)) if state else "root"

    def parse_state(self, text: str) -> Path:
        """Read ``root``, dotted child indices (``1.2``) or an inner node's AIMA name (``C``).

        Raises:
            InvalidStateError: the text is none of those or names no node of this tree.

        >>> TextbookTree().parse_state("1.2"), TextbookTree().parse_state("C")
        ((1, 2), (1,))
        """
        stripped = text.strip()
        if stripped.lower() == "root":
            return ()
        if stripped in self._named:
            return self._named[stripped]
        if not _INDEX_PATH.fullmatch(stripped):
            names = list(itertools.islice(self._named, 8))
            more = ", ..." if len(self._named) > len(names) else ""
            raise InvalidStateError(
                f"invalid node {quote(text)}: use 'root', child indices joined by dots such as "
                f"'0.2', or a node name among {', '.join(names)}{more}"
            )
        path = tuple(int(part) for part in stripped.split("."))
        if path not in self._arity:
            reason = self._no_node_reason(path)
            raise InvalidStateError(f"no node {quote(text)} in this tree: {reason}")
        return path

    def _no_node_reason(self, path: Path) -> str:
        for depth in range(len(path)):
            parent = path[:depth]
            arity = self._arity[parent]
            if arity == 0:
                return f"{quote(self.format_state(parent))} is a leaf"
            if path[depth] >= arity:
                return f"{quote(self.format_state(parent))} has children 0..{arity - 1}"
        raise AssertionError("unreachable")  # pragma: no cover

    def format_action(self, state: Path, action: int) -> str:
        """The child index (``"0"``), or with ``labels="aima"`` the edge label (``"b1"``)."""
        if self.labels == "aima":
            return f"{self._name[state].lower()}{action + 1}"
        return str(action)

    def parse_action(self, state: Path, text: str) -> int:
        """Read a child index (``"2"``) or an AIMA edge label of this node (``"a3"``).

        The result is not checked for legality (see :func:`solver.game.parse_action`), except
        that an edge label must belong to this node.

        Raises:
            IllegalActionError: the text is neither form.
        """
        stripped = text.strip()
        if _INDEX.fullmatch(stripped):
            return int(stripped)
        match = _AIMA_LABEL.fullmatch(stripped)
        name = self._name.get(state)
        if match and name is not None and match.group(1) == name.lower():
            number = int(match.group(2))
            if number >= 1:
                return number - 1
        legal = ", ".join(
            f"{a} or {name.lower()}{a + 1}" if name else str(a) for a in self.actions(state)
        )
        raise IllegalActionError(
            f"illegal action {quote(text)} at node {quote(self.format_state(state))}; "
            f"legal: {legal or 'none, it is a leaf'}"
        )

    def render(self, state: Path) -> str:
        """The path from the root with node names, who moves, and at a leaf its value.

        >>> print(TextbookTree(labels="aima").render((1, 0)))
        A -a2-> C -c1-> leaf 1.0
        leaf value 2
        """
        parts: list[str] = [self._name.get((), "leaf")]
        for depth, action in enumerate(state):
            parent = state[:depth]
            child = state[: depth + 1]
            label = self.format_action(parent, action)
            parts.append(
                f"-{label}-> {self._name.get(child) or 'leaf ' + self.format_state(child)}"
            )
        line = " ".join(parts) if state else f"{parts[0]} (root)"
        if state in self._leaf:
            return f"{line}\nleaf value {self._leaf[state]}"
        if state in self._chance:
            return f"{line}\nchance: {self._arity[state]} outcomes"
        mover = "MAX" if self.to_move(state) == 0 else "MIN"
        return f"{line}\n{mover} to move, {self._arity[state]} children"

    def __repr__(self) -> str:
        text = _text(self.tree)
        if len(text) > 60:
            text = f"{text[:60]}… ({len(text):,} characters)"
        return f"{type(self).__name__}({text})"


class ChanceTree(TextbookTree):
    """A textbook tree with chance nodes (AIMA 4e Figure 5.11): :class:`solver.game.HasChance`.

    ``TextbookTree(tree)`` returns one when ``tree`` holds a chance node. The chance outcomes
    are the child indices, with the probabilities the tree gives them.

    >>> game = TextbookTree("[{1/6: [3, 1], 5/6: [2, 4]}, 0]")
    >>> type(game).__name__, game.is_chance((0,)), game.chance_outcomes((0,))
    ('ChanceTree', True, [(0, Fraction(1, 6)), (1, Fraction(5, 6))])
    >>> [game.to_move(s) for s in [(), (0,), (0, 1)]]  # MAX, a roll, then MIN moves
    [0, 1, 1]
    >>> TextbookTree("[{1/2: 3, 1/3: 5}]")
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: invalid probabilities at chance node tree[0]: 1/2, 1/3 \
sum to 5/6, not 1; give each outcome a probability > 0 so that they sum to 1
    """

    def is_chance(self, state: Path) -> bool:
        """True at a chance node."""
        return state in self._chance

    def chance_outcomes(self, state: Path) -> list[tuple[int, Probability]]:
        """The child indices with their probabilities."""
        return list(enumerate(self._chance[state]))

    def probability(self, state: Path) -> Probability | None:
        """The probability of the move into ``state`` when its parent is a chance node."""
        probabilities = self._chance.get(state[:-1]) if state else None
        return None if probabilities is None else probabilities[state[-1]]


_TOKEN = re.compile(r"[\[\]{},:]|[^\s\[\]{},:]+")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)
_LONGEST_LEAF: Final = 400
"""The most characters a leaf may have in tree text (a float has at most ~330)."""


def parse_tree(text: str) -> Tree:
    """Read a tree written as JSON nested lists of numbers, at any depth (no recursion).

    Python's ``json`` module recurses once per level of nesting; textbook exercises and
    generated trees can nest hundreds or thousands of levels deep, so this reader keeps its own
    stack.

    Raises:
        InvalidStateError: the text is not nested lists of numbers; the message says where.

    >>> parse_tree("[[3, 12], [2, 4.5]]")
    [[3, 12], [2, 4.5]]
    >>> parse_tree("[[3, 12], [2, 4]")
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: invalid tree '[[3, 12], [2, 4]': 1 list(s) left open at \
the end; expected JSON nested lists of numbers, e.g. [[3,12,8],[2,4,6],[14,5,2]]
    """
    reader = _TreeReader(text)
    for match in _TOKEN.finditer(text):
        reader.step(match.group(), match.start())
    return reader.finish()


class _ChanceFrame(list[Tree]):
    """An open chance node while reading: its subtrees so far, their probabilities, and the
    probability read for the next one (``pending``, until its ``:`` and subtree come)."""

    def __init__(self) -> None:
        super().__init__()
        self.probabilities: list[Probability] = []
        self.pending: Probability | None = None
        self.colon = False  # the ':' after ``pending`` was read


class _TreeReader:
    """The state of :func:`parse_tree`: the lists still open and whether a value just ended."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.stack: list[list[Tree]] = []
        self.root: list[Tree] = []  # holds the finished tree, once there is one
        self.after_value = False  # the last token ended a value: a ',' or ']' must follow

    def bad(self, reason: str) -> InvalidStateError:
        return InvalidStateError(
            f"invalid tree {quote(self.text)}: {reason}; expected JSON nested lists of numbers, "
            "e.g. [[3,12,8],[2,4,6],[14,5,2]]"
        )

    def chance(self) -> _ChanceFrame | None:
        """The innermost open node if it is a chance node."""
        top = self.stack[-1] if self.stack else None
        return top if isinstance(top, _ChanceFrame) else None

    def step(self, token: str, at: int) -> None:
        if self.root:
            raise self.bad(f"unexpected {quote(token)} after the tree at character {at}")
        frame = self.chance()
        if frame is not None and not self.after_value and frame.pending is None:
            if token == "}" and not frame:
                raise self.bad(f"empty chance node before '}}' at character {at}")
            if token in "[]{},:":
                raise self.bad(f"expected a probability before {quote(token)} at character {at}")
            frame.pending = _probability(token, at, self.bad)
            return
        if frame is not None and frame.pending is not None and not frame.colon:
            if token != ":":
                raise self.bad(f"expected ':' after a probability at character {at}")
            frame.colon = True
            return
        if token in ("[", "{"):
            self.open(token, at)
        elif token in ("]", "}"):
            self.close(token, at)
        elif token == ",":
            if not self.after_value or not self.stack:
                raise self.bad(f"unexpected ',' at character {at}")
            self.after_value = False
        elif token == ":":
            raise self.bad(f"unexpected ':' at character {at} (only after a chance probability)")
        else:
            if self.after_value:
                raise self.bad(f"expected ',' or ']' before {quote(token)} at character {at}")
            self.add(_number(token, at, self.bad))

    def open(self, token: str, at: int) -> None:
        if self.after_value:
            raise self.bad(f"expected ',' or ']' before {quote(token)} at character {at}")
        if len(self.stack) >= MAX_TREE_DEPTH:
            raise _too_deep()
        self.stack.append(_ChanceFrame() if token == "{" else [])

    def close(self, token: str, at: int) -> None:
        if not self.stack:
            raise self.bad(f"unmatched {quote(token)} at character {at}")
        frame = self.stack[-1]
        if isinstance(frame, _ChanceFrame) != (token == "}"):
            want = "}" if isinstance(frame, _ChanceFrame) else "]"
            raise self.bad(f"expected {want!r} but found {quote(token)} at character {at}")
        if not self.after_value and frame:
            raise self.bad(f"expected a value before {quote(token)} at character {at}")
        closed = self.stack.pop()
        if isinstance(closed, _ChanceFrame):
            self.add(Chance(list(zip(closed.probabilities, closed, strict=True))))
        else:
            self.add(closed)

    def add(self, value: Tree) -> None:
        self.after_value = True
        frame = self.chance()
        if frame is not None:
            assert frame.pending is not None
            frame.probabilities.append(frame.pending)
            frame.pending, frame.colon = None, False
        if self.stack:
            self.stack[-1].append(value)
        else:
            self.root.append(value)

    def finish(self) -> Tree:
        if self.stack:
            raise self.bad(f"{len(self.stack)} list(s) left open at the end")
        if not self.root:
            raise self.bad("no tree")
        return self.root[0]


_PROBABILITY = re.compile(r"-?[0-9]{1,18}(?:/[0-9]{1,18}|\.[0-9]{1,18})?", re.ASCII)


def _probability(token: str, at: int, bad: Callable[[str], InvalidStateError]) -> Probability:
    """A probability token: ``1/6`` (an exact Fraction), ``0.25`` (a float) or ``1`` (an int)."""
    if not _PROBABILITY.fullmatch(token):
        raise bad(f"{quote(token)} at character {at} is not a probability (write 1/6, 0.25 or 1)")
    if "/" in token:
        top, bottom = token.split("/")
        if int(bottom) == 0:
            raise bad(f"probability {quote(token)} at character {at} divides by zero")
        return Fraction(int(top), int(bottom))
    return float(token) if "." in token else int(token)


def _number(token: str, at: int, bad: Callable[[str], InvalidStateError]) -> float | int:
    if len(token) > _LONGEST_LEAF:
        raise bad(f"leaf {quote(token)} at character {at} is too long")
    if not _NUMBER.fullmatch(token):
        raise bad(f"{quote(token)} at character {at} is not a number")
    if token.lstrip("-").isdigit():
        return int(token)
    value = float(token)
    if not math.isfinite(value):
        raise bad(f"leaf {quote(token)} at character {at} is not a finite number")
    return value


def _leaf(node: object, path: Callable[[], Path]) -> float | int:
    """Check one leaf: an int or float, finite also as a float (the leaf means need that)."""
    if isinstance(node, (bool, str, bytes)) or not isinstance(node, (int, float)):
        kind = "leaf" if path() else "tree"
        what = "leaves must be int or float"
        if not isinstance(node, (bool, str, bytes)):
            what = "use a number for a leaf or a non-empty list for an inner node"
            kind = "node"
        raise InvalidStateError(f"invalid {kind} {quote(node)} at {_where(path())}: {what}")
    try:
        finite = math.isfinite(node)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite:
        raise InvalidStateError(
            f"invalid leaf {quote(node)} at {_where(path())}: leaves must be finite numbers "
            "(within a float's range)"
        )
    return node


def _split(node: object) -> tuple[Sequence[object], tuple[Probability, ...] | None] | None:
    """An inner node's children and (for a chance node) probabilities; None for a leaf."""
    if isinstance(node, _ChanceNode):
        return node, node.probabilities
    if isinstance(node, Chance):
        pairs = node.outcomes
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise InvalidStateError(
                    f"invalid chance outcome {quote(pair)}: use a (probability, subtree) pair"
                )
        return [t for _, t in pairs], tuple(p for p, _ in pairs)
    if isinstance(node, (list, tuple)):
        return node, None
    return None


def _freeze(tree: object) -> float | int | tuple[object, ...]:
    """Validate ``tree`` and return it as nested tuples, at any depth (no recursion).

    A chance node becomes a :class:`_ChanceNode` (a tuple with its probabilities), checked.
    """
    top = _split(tree)
    if top is None:
        return _leaf(tree, lambda: ())
    # Each frame: a node's children, the frozen children read so far, its probabilities.
    stack: list[tuple[Sequence[object], list[object], tuple[Probability, ...] | None]] = []

    def path() -> Path:
        return tuple(len(done) for _, done, _ in stack)

    def opened(children: Sequence[object], probabilities: Any) -> None:
        if not children:
            where = _where(path()) if stack else "tree"
            raise InvalidStateError(
                f"empty {'chance node' if probabilities is not None else 'list'} at {where}: "
                "an inner node needs at least one child"
            )
        if probabilities is not None:
            where = _where(path()) if stack else "tree"
            check_probabilities(probabilities, f"chance node {where}")

    opened(*top)
    stack.append((top[0], [], top[1]))
    open_ids = {id(top[0])}  # the nodes on the current path: one met again contains itself
    while True:
        node, done, probabilities = stack[-1]
        if len(done) == len(node):
            stack.pop()
            open_ids.discard(id(node))
            frozen = tuple(done) if probabilities is None else _ChanceNode(done, probabilities)
            if not stack:
                return frozen
            stack[-1][1].append(frozen)
            continue
        child = node[len(done)]
        inner = _split(child)
        if inner is not None:
            if id(inner[0]) in open_ids:
                raise InvalidStateError(
                    f"the tree contains itself at {_where(path())}: a game tree "
                    "is finite; give nested lists of numbers"
                )
            if len(stack) >= MAX_TREE_DEPTH:
                raise _too_deep()
            opened(*inner)
            open_ids.add(id(inner[0]))
            stack.append((inner[0], [], inner[1]))
        else:
            done.append(_leaf(child, path))


MAX_TREE_DEPTH: Final = 10_000
"""The deepest a textbook tree may nest (lists inside lists): far past any exercise, and a
bound on the work and memory a tree's per-node tables take (they grow with depth squared)."""


def _too_deep() -> InvalidStateError:
    return InvalidStateError(
        f"the tree nests deeper than {MAX_TREE_DEPTH:,} levels: a textbook tree may nest at "
        f"most {MAX_TREE_DEPTH:,} lists deep"
    )


def _has_chance(tree: tuple[object, ...]) -> bool:
    """True if the frozen ``tree`` holds a chance node (no recursion)."""
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _ChanceNode):
            return True
        if isinstance(node, tuple):
            stack.extend(node)
    return False


def _probability_source(p: Probability) -> str:
    """A probability as the tree notation reads it back: ``1/6``, ``0.25``, ``1``."""
    return str(p) if isinstance(p, Fraction) else repr(p)


def _text(tree: object) -> str:
    """The frozen tree as text (JSON lists; chance nodes in braces), at any depth (no recursion)."""
    parts: list[str] = []
    stack: list[object] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):  # a bracket or separator pushed below
            parts.append(item)
        elif isinstance(item, tuple):
            odds = item.probabilities if isinstance(item, _ChanceNode) else None
            chance = odds is not None
            stack.append("}" if chance else "]")
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if odds is not None:
                    stack.append(_probability_source(odds[i]) + ": ")
                if i:
                    stack.append(", ")
            parts.append("{" if chance else "[")
        else:
            parts.append(repr(item))
    return "".join(parts)
