"""What a drawn search tree holds at each node, as typed fields.

A teaching tree (:func:`viz.build.game_tree`) is a :class:`TreeGraph`: a ``networkx.DiGraph``
whose node data is a :class:`TreeNode` rather than a dict of string keys, so code that builds
or reads the tree names its fields as attributes and a misspelt one is a type error (and, read
or written by key, a ``KeyError`` at once rather than a silent ``None`` or a stray new key).

A :class:`TreeNode` is also a mapping of its field names to their values, in the order they are
declared here, so ``tree.graph.nodes[0]["value"]``, ``nodes(data=True)``, networkx's copies and
its node-link JSON see the same keys and values a dict of them would hold. It assumes nothing
about the game: its texts (``state``, ``move``, ``board``) are as the game formats them.

>>> graph = TreeGraph()
>>> graph.add_node(0, kind="node", player=1, role="MIN", depth=1, value=3.0)
>>> node = tree_node(graph, 0)
>>> node.role, node.value, graph.nodes[0]["value"]
('MIN', 3.0, 3.0)
>>> graph.nodes[0]["vlaue"] = 2.0  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
KeyError: "a tree node has no field 'vlaue'; its fields: kind, player, role, ..."
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, MutableMapping
from typing import Any, cast

import attrs
import networkx as nx

__all__ = [
    "FIELDS",
    "EngineGraph",
    "EngineNode",
    "MctsGraph",
    "MctsNode",
    "TreeGraph",
    "TreeNode",
    "mcts_node",
    "tree_node",
    "tree_nodes",
]


@attrs.define(eq=False)
class TreeNode(MutableMapping[str, Any]):
    """One node of a drawn search tree: the position, what the search found there, and when
    each fact appears in a step-by-step drawing.

    The builder fills fields in as the search's events arrive (a value at its backup, the
    frame numbers last), so the class is mutable; only the declared fields exist.
    """

    kind: str = "node"
    """``"node"`` searched, ``"pruned"`` never searched (a cut-off), ``"summary"`` a box
    standing for a hidden subtree."""
    player: int = 0
    """Who moves here: 0 MAX, 1 MIN."""
    role: str = "MAX"
    """The mover's role as drawn: ``"MAX"``, ``"MIN"``, or ``"CHANCE"`` at a roll."""
    chance: bool = False
    """A chance node: the game rolls here, nobody chooses."""
    outcomes: list[list[Any]] | None = None
    """A searched chance node's every outcome as ``[move, probability]``, drawn or not."""
    probe: bool = False
    """Entered by Star2's probing phase (only its first move searched)."""
    fails_high: bool | None = None
    """At a node with a cut-off: whether it failed high (reached β); None without a cut."""
    depth: int = 0
    """Plies from the root."""
    move: str = ""
    """The move into the node as the game writes it (``""`` at the root)."""
    path: list[str] = attrs.Factory(list)
    """The moves from the root."""
    title: str = "the root"
    """The node's name in captions: the game's name for it, else its path joined by ``·``."""
    state: str = ""
    """The position as the game formats it."""
    board: str | None = None
    """The game's text picture of the position, or None if it cannot render."""
    cells: dict[str, Any] | None = None
    """The game's board cells as a JSON-able dict, or None."""
    name: str | None = None
    """The game's name for the node (AIMA's A, B, C), or None."""
    order: int | None = None
    """The visit order, from 1 at the root (None: never entered)."""
    value: float | None = None
    """The value the search backed up (or the leaf's value), from MAX's side; a Fraction
    under chance; None while unknown."""
    bound: str = "exact"
    """What the value is: ``"exact"``, ``"lower"`` or ``"upper"`` bound."""
    exact: bool = True
    """``bound == "exact"``."""
    range: list[float | str] | None = None
    """The range ``[lo, hi]`` the value stands for (infinities as ``"inf"``/``"-inf"``)."""
    leaf: str | None = None
    """``"terminal"`` (a game end), ``"horizon"`` (evaluated at the depth limit) or None."""
    label: str | None = None
    """The leaf's label from the caller's ``leaf_label``, or None."""
    principal: bool = False
    """On the principal path."""
    optimal: bool = False
    """One of its parent's optimal moves (marked where the parent's value is exact)."""
    cut_by: int | None = None
    """Pruned nodes: the id of the node whose cut-off pruned them."""
    cut: str | None = None
    """Pruned nodes: the cut's inequality as written (``"2 ≤ α = 3"``)."""
    alpha_in: float | str | None = None
    """α on entry (alpha-beta)."""
    beta_in: float | str | None = None
    """β on entry (alpha-beta)."""
    alpha_out: float | str | None = None
    """α when the node backed up its value."""
    beta_out: float | str | None = None
    """β when the node backed up its value."""
    cache_hit: bool = False
    """Answered from the table, or merged with a visit alike (the transpositions view)."""
    hits: int = 1
    """Visits merged into this node (the transpositions view)."""
    folded: list[str] = attrs.Factory(list)
    """Sibling moves folded into this one as symmetric."""
    positions: int = 0
    """Summary nodes: how many positions they hide."""
    opened: int | None = None
    """The frame at which the node first appears in a step-by-step drawing."""
    step: int | None = None
    """The frame at which its value (or its cut) appears."""
    reveal: int | None = None
    """The frame at which its value appears."""

    def __getitem__(self, key: str) -> Any:
        if key not in _field_set(type(self)):
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in _field_set(type(self)):
            names = ", ".join(_fields(type(self)))
            raise KeyError(f"a tree node has no field {key!r}; its fields: {names}")
        setattr(self, key, value)

    def __delitem__(self, key: str) -> None:
        raise TypeError(f"a tree node's field {key!r} cannot be removed, only set")

    def __iter__(self) -> Iterator[str]:
        return iter(_fields(type(self)))

    def __len__(self) -> int:
        return len(_fields(type(self)))

    def __contains__(self, key: object) -> bool:
        return key in _field_set(type(self))

    def copy(self) -> TreeNode:
        """A shallow copy, as ``dict.copy`` makes one (networkx copies node data so)."""
        return attrs.evolve(self)


@attrs.define(eq=False)
class EngineNode(TreeNode):
    """A node of the engine's tree as drawn (:func:`viz.engine_tree.engine_game_tree`): a
    :class:`TreeNode` with the transposition table's answer, where one answered it."""

    table: str | None = None
    """The stored entry's bound that answered the node (``"exact"``, ``"lower"``,
    ``"upper"``), or None where the table did not answer."""
    table_value: float | None = None
    """The stored entry's value."""
    table_depth: int | None = None
    """The depth the stored entry was searched to."""


@attrs.define(eq=False)
class MctsNode(TreeNode):
    """A node of a Monte Carlo tree search's tree (:func:`viz.mcts_tree.mcts_tree`): a
    :class:`TreeNode` with the node's exact value and its counts after each iteration."""

    minimax: float | str | None = None
    """The position's exact value (None: the game is too large to solve for the figure)."""
    history: list[list[Any]] = attrs.Factory(list)
    """The counts each iteration that passed through the node left there, oldest first:
    ``[step, N, W, lo, hi, span, wins]`` (the step that backed them up; visits, the sum of
    results; the proven range; the iteration's result scale; the wins from the view of the
    player who moved into the node)."""


@functools.cache
def _fields(cls: type[TreeNode]) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))


@functools.cache
def _field_set(cls: type[TreeNode]) -> frozenset[str]:
    return frozenset(_fields(cls))


FIELDS: tuple[str, ...] = _fields(TreeNode)
"""A teaching tree's node fields, in their order (the order of the keys in the tree's JSON)."""


class TreeGraph(nx.DiGraph):  # type: ignore[misc]
    """A ``networkx.DiGraph`` whose nodes hold a :class:`TreeNode` each."""

    node_attr_dict_factory = TreeNode

    def add_tree_node(self, node: int, data: TreeNode) -> None:
        """Add ``node`` holding ``data`` itself (``add_node(node, **data)`` copies it field by
        field)."""
        self.add_node(node)
        self._node[node] = data


class MctsGraph(TreeGraph):
    """A ``networkx.DiGraph`` whose nodes hold an :class:`MctsNode` each."""

    node_attr_dict_factory = MctsNode


class EngineGraph(TreeGraph):
    """A ``networkx.DiGraph`` whose nodes hold an :class:`EngineNode` each."""

    node_attr_dict_factory = EngineNode


def tree_node(graph: Any, node: int) -> TreeNode:
    """The typed data of ``node`` in a :class:`TreeGraph`."""
    return cast(TreeNode, graph.nodes[node])


def mcts_node(graph: Any, node: int) -> MctsNode:
    """The typed data of ``node`` in an :class:`MctsGraph`."""
    return cast(MctsNode, graph.nodes[node])


def tree_nodes(graph: Any) -> Iterator[tuple[int, TreeNode]]:
    """Every node of a :class:`TreeGraph` with its typed data, in the graph's order."""
    return cast(Iterator[tuple[int, TreeNode]], iter(graph.nodes(data=True)))
