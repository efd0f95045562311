"""Part of a drawn tree, for a slide: the top levels only, or the subtree after some moves.

A lecture-hall slide cannot show a depth-4, branching-3 tree whole at a readable size; it can
show its top plies, or one branch. :func:`cut_view` keeps the nodes wanted and puts, below each
kept node whose children are left out, a summary node that says how many positions go on below
it (drawn as a dotted ``… n positions`` box, the same mark as a collapsed subtree). Values,
bounds and cuts are the whole search's: nothing is searched again. The view has no steps (its
frames would skip what is cut), so it is drawn finished.

>>> from games import load_game
>>> from viz import game_tree
>>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
>>> top = cut_view(tree, levels=1)
>>> sorted(d["kind"] for _, d in top.graph.nodes(data=True))
['node', 'node', 'node', 'node', 'summary', 'summary', 'summary']
>>> cut_view(tree, path=["1"]).graph.number_of_nodes()
4
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from solver.game import player_name
from viz.build import GameTree, edge_attrs, subtree_nodes
from viz.errors import VizError
from viz.tree_node import tree_node

__all__ = ["cut_view"]


def cut_view(tree: GameTree, *, path: Sequence[str] = (), levels: int | None = None) -> GameTree:
    """The part of ``tree`` below the node the moves ``path`` lead to (the root if empty), down
    to ``levels`` plies below that node (None: all of them).

    Raises:
        VizError: a move of ``path`` that the drawn tree does not have (the message lists the
            moves there), or ``levels`` below 1.
    """
    if levels is not None and levels < 1:
        raise VizError(f"invalid levels {levels!r}: show at least 1 ply below the top node")
    source = tree.graph
    top = tree.root
    for index, move in enumerate(path):
        children = {tree_node(source, c).move: c for c in source.successors(top)}
        if move not in children:
            where = "the root" if index == 0 else "·".join(path[:index])
            raise VizError(
                f"no move {move!r} after {where} in the drawn tree; "
                f"moves there: {', '.join(children) or 'none (a leaf)'}"
            )
        top = children[move]
    base = tree_node(source, top).depth
    kept: list[int] = []
    stack = [top]
    while stack:
        node = stack.pop()
        kept.append(node)
        if levels is None or tree_node(source, node).depth - base < levels:
            stack.extend(source.successors(node))
    graph = source.subgraph(kept).copy()
    hidden = 0
    next_id = max(source.nodes) + 1
    for node in kept:
        data = tree_node(source, node)
        below = subtree_nodes(source, node)
        if not below or any(graph.has_node(c) for c in source.successors(node)):
            continue
        positions = sum(1 for n in below if tree_node(source, n).kind != "summary")
        hidden += positions
        player = 1 - data.player
        graph.add_node(next_id)  # a node of the tree's own kind, every field at its default
        summary = tree_node(graph, next_id)
        summary.kind, summary.player, summary.role = "summary", player, player_name(player)
        summary.depth, summary.positions = data.depth + 1, positions
        summary.path, summary.title = data.path, data.title
        graph.add_edge(node, next_id, **edge_attrs(""))
        next_id += 1
    facts = dict(source.graph)
    facts["cut_view"] = {
        "path": list(path),
        "levels": levels,
        "hidden": hidden,
        "title": tree_node(source, top).title,
    }
    graph.graph = facts
    return attrs.evolve(tree, graph=graph, root=top, steps=())
