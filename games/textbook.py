"""Explicit game trees given as nested lists of leaf values: the trees of the textbook figures.

Assumes two players, zero-sum, deterministic: MAX (player 0) moves at the root and the players
alternate by depth, so MIN moves at depth 1, MAX at depth 2, and so on. A tree is either a bare
number (a one-node tree: the game is over before it starts) or a non-empty list of subtrees; the
branching may differ from node to node and leaves may sit at different depths. Leaves are ``int``
or ``float`` values from MAX's point of view (booleans, strings, NaN and infinities are rejected).

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

import math
import re
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Final, Literal, TypeAlias

from solver.game import IllegalActionError, InvalidStateError, Player

__all__ = ["AIMA_FIGURE_5_2", "Path", "TextbookTree", "Tree"]

Tree: TypeAlias = "float | int | Sequence[Tree]"
"""A nested list of leaf values; a bare number is a one-node tree."""

Path: TypeAlias = tuple[int, ...]
"""A state: the child indices from the root, ``()`` for the root."""

AIMA_FIGURE_5_2: Final[list[list[int]]] = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
"""The two-ply game tree of AIMA (3rd/4th ed.) Figure 5.2; its minimax value is 3."""

_INDEX_PATH = re.compile(r"\d+(\.\d+)*")
_AIMA_LABEL = re.compile(r"([a-z]+)(\d+)")


def _letters(n: int) -> str:
    """The n-th name in the sequence A, B, ..., Z, AA, AB, ... (n from 0)."""
    name = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _where(path: Path) -> str:
    return "tree" + "".join(f"[{i}]" for i in path)


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

    def __init__(
        self,
        tree: Tree | None = None,
        labels: Literal["index", "aima"] = "index",
        estimates: Mapping[str, float] | None = None,
    ) -> None:
        if labels not in ("index", "aima"):
            raise InvalidStateError(f"invalid labels {labels!r}: use 'index' or 'aima'")
        self.labels: Literal["index", "aima"] = labels
        self.tree: float | int | tuple[object, ...] = _freeze(
            AIMA_FIGURE_5_2 if tree is None else tree, ()
        )
        self._arity: dict[Path, int] = {}
        self._leaf: dict[Path, float | int] = {}
        self._mean: dict[Path, float] = {}
        self._name: dict[Path, str] = {}
        self._named: dict[str, Path] = {}
        self._index(self.tree)
        self._estimate: dict[Path, float] = {}
        for text, value in (estimates or {}).items():
            path = self.parse_state(text)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidStateError(
                    f"invalid estimate {value!r} for node {text!r}: use an int or float"
                )
            if not math.isfinite(value):
                raise InvalidStateError(
                    f"invalid estimate {value!r} for node {text!r}: use a finite number"
                )
            self._estimate[path] = value

    def _index(self, tree: object) -> None:
        """Fill the per-node tables (arity, leaf values, leaf means, AIMA names) breadth-first."""
        queue: deque[tuple[Path, object]] = deque([((), tree)])
        order: list[Path] = []
        while queue:
            path, node = queue.popleft()
            order.append(path)
            if isinstance(node, tuple):
                self._arity[path] = len(node)
                self._name[path] = _letters(len(self._named))
                self._named[self._name[path]] = path
                queue.extend(((*path, i), child) for i, child in enumerate(node))
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
        """MAX (0) at even depths, MIN (1) at odd depths."""
        return len(state) % 2

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
                f"no utility at {self.format_state(state)!r}: it is not a leaf"
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
            raise InvalidStateError(
                f"invalid node {text!r}: use 'root', child indices joined by dots such as '0.2', "
                f"or a node name among {', '.join(self._named)}"
            )
        path = tuple(int(part) for part in stripped.split("."))
        if path not in self._arity:
            raise InvalidStateError(f"no node {text!r} in this tree: {self._no_node_reason(path)}")
        return path

    def _no_node_reason(self, path: Path) -> str:
        for depth in range(len(path)):
            parent = path[:depth]
            arity = self._arity[parent]
            if arity == 0:
                return f"{self.format_state(parent)!r} is a leaf"
            if path[depth] >= arity:
                return f"{self.format_state(parent)!r} has children 0..{arity - 1}"
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
        if stripped.isdigit():
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
            f"illegal action {text!r} at node {self.format_state(state)!r}; "
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
        mover = "MAX" if self.to_move(state) == 0 else "MIN"
        return f"{line}\n{mover} to move, {self._arity[state]} children"

    def __repr__(self) -> str:
        return f"TextbookTree({_thaw(self.tree)!r})"


def _freeze(node: object, path: Path) -> float | int | tuple[object, ...]:
    """Validate ``node`` and return it as nested tuples."""
    if isinstance(node, (bool, str, bytes)):
        kind = "leaf" if path else "tree"
        raise InvalidStateError(
            f"invalid {kind} {node!r} at {_where(path)}: leaves must be int or float"
        )
    if isinstance(node, (int, float)):
        if not math.isfinite(node):
            raise InvalidStateError(
                f"invalid leaf {node!r} at {_where(path)}: leaves must be finite numbers"
            )
        return node
    if isinstance(node, (list, tuple)):
        if not node:
            raise InvalidStateError(
                f"empty list at {_where(path)}: an inner node needs at least one child"
            )
        return tuple(_freeze(child, (*path, i)) for i, child in enumerate(node))
    raise InvalidStateError(
        f"invalid node {node!r} at {_where(path)}: "
        "use a number for a leaf or a non-empty list for an inner node"
    )


def _thaw(node: object) -> object:
    if isinstance(node, tuple):
        return [_thaw(child) for child in node]
    return node
