"""One iteration of Monte Carlo tree search in four panels, as AIMA's Figure 5.10 draws it.

(a) *Selection*: the tree before the iteration, the path UCB1 selected drawn thick;
(b) *Expansion*: the new node, ``0/0``; (c) *Simulation*: the playout from it drawn as a
dashed path, each move labelled, to the terminal result (or where it was cut short);
(d) *Back-propagation*: the counts after the iteration, those that changed in bold along the
thick path. Every node shows its wins over its playouts from the view of the player who moved
into it (``27/35``; a draw counts 1/2), as the book does: a child's share is what its parent's
mover won by choosing it.

Reads only what :func:`viz.mcts_tree.mcts_tree` kept of the search (each node's counts after
every back-up, each iteration's playout); draws with Graphviz like the other trees.

>>> from games import load_game
>>> from viz.mcts_tree import mcts_tree
>>> tree = mcts_tree(load_game("textbook", tree="[[1, 1], [-1, -1]]"), iterations=4)
>>> [panel for panel, _ in phase_counts(tree, 4)]
['selection', 'expansion', 'simulation', 'back-propagation']
>>> phase_counts(tree, 4)[3][1]  # node: wins/playouts after iteration 4
{0: '1/4', 1: '3/3', 2: '0/1', 3: '0/1', 4: '0/1'}
"""

from __future__ import annotations

import itertools
from typing import Any

from viz.build import GameTree
from viz.errors import VizError
from viz.graphviz import FONT, PATH_COLOUR, dot_attrs
from viz.notation import number
from viz.palette import MAX_FILL, MIN_FILL
from viz.tree_node import mcts_node, tree_node

__all__ = ["PANELS", "phase_counts", "phases_dot"]

PANELS = ("selection", "expansion", "simulation", "back-propagation")
"""The four phases of an iteration, one panel each, in the order they run."""
STEPS_PER_ITERATION = 4
"""The steps :func:`viz.mcts_tree.mcts_tree` records an iteration (one per phase)."""


def _record(tree: GameTree, iteration: int) -> dict[str, Any]:
    facts = tree.graph.graph
    if facts.get("algorithm") != "mcts":
        raise VizError("the four phases are drawn for a Monte Carlo tree search's tree only")
    records = facts["playouts"]
    ok = isinstance(iteration, int) and not isinstance(iteration, bool)
    if not ok or not 1 <= iteration <= len(records):
        raise VizError(
            f"invalid iteration {iteration!r}: the search ran {len(records)}, use 1 to "
            f"{len(records)}"
        )
    record: dict[str, Any] = records[iteration - 1]
    return record


def _counts(tree: GameTree, nodes: list[int], step: int) -> dict[int, str]:
    """``wins/playouts`` of ``nodes`` after ``step`` (``0/0`` before their first back-up)."""
    out = {}
    for node in nodes:
        found = None
        for entry in mcts_node(tree.graph, node).history:
            if entry[0] > step:
                break
            found = entry
        out[node] = "0/0" if found is None else f"{number(found[6])}/{found[1]}"
    return out


def _nodes_before(tree: GameTree, iteration: int) -> list[int]:
    """The nodes in the tree when ``iteration`` starts (the root and every earlier new node)."""
    records = tree.graph.graph["playouts"][: iteration - 1]
    return [tree.root, *(r["expanded"] for r in records if r["expanded"] is not None)]


def phase_counts(tree: GameTree, iteration: int) -> list[tuple[str, dict[int, str]]]:
    """Each panel's name and the ``wins/playouts`` of every node it draws."""
    record = _record(tree, iteration)
    before = _nodes_before(tree, iteration)
    grown = before + ([record["expanded"]] if record["expanded"] is not None else [])
    ahead = STEPS_PER_ITERATION * (iteration - 1)
    old = _counts(tree, grown, ahead)
    return [
        (PANELS[0], {n: old[n] for n in before}),
        (PANELS[1], old),
        (PANELS[2], old),
        (PANELS[3], _counts(tree, grown, ahead + STEPS_PER_ITERATION)),
    ]


def _label(tree: GameTree, node: int, counts: str, bold: bool) -> str:
    data = tree_node(tree.graph, node)
    name = f"{data.name}<BR/>" if data.name else ""
    text = f"<B>{counts}</B>" if bold else counts
    return f"<{name}{text}>"


def phases_dot(tree: GameTree, iteration: int, *, title: str | None = None) -> str:
    """The DOT source of ``iteration``'s four panels (see the module docstring).

    Raises:
        VizError: the tree is not an MCTS tree, or it has no such iteration (the message
            names the iterations there are).
    """
    record = _record(tree, iteration)
    graph = tree.graph
    path = record["path"]
    walked = set(itertools.pairwise(path))
    new = record["expanded"]
    panels = phase_counts(tree, iteration)
    heading = title or (
        f"Monte Carlo tree search on {graph.graph['game']}: iteration {iteration} of "
        f"{len(graph.graph['playouts'])} (wins/playouts for the player who moved into each node)"
    )
    lines = [
        "digraph mcts_phases {",
        f"  graph [{dot_attrs({'fontname': FONT, 'label': heading, 'labelloc': 't'})}];",
        f'  node [fontname="{FONT}", fontsize="12", style="filled", penwidth="1"];',
        f'  edge [fontname="{FONT}", fontsize="10", arrowsize="0.6"];',
    ]
    for index, (panel, counts) in enumerate(panels):
        prefix = f"p{index}_"
        caption = {"label": f"({'abcd'[index]}) {panel}", "color": "white"}
        lines.append(f"  subgraph cluster_{index} {{")
        lines.append(f"    graph [{dot_attrs(caption)}];")
        for node, text in counts.items():
            data = tree_node(graph, node)
            on_path = node in path and (index != 0 or node != new)
            changed = index == 3 and on_path
            attrs = {
                "label": _label(tree, node, text, changed),
                "shape": "box" if data.leaf else "ellipse",
                "fillcolor": MAX_FILL if data.player == 0 else MIN_FILL,
                "color": PATH_COLOUR if on_path else "black",
                "penwidth": "3" if on_path else "1",
            }
            if node == new and index == 1:
                attrs["style"] = "filled,bold"
            lines.append(f"    {prefix}{node} [{dot_attrs(attrs)}];")
        for u, v in graph.edges:
            if u in counts and v in counts:
                thick = (u, v) in walked
                attrs = {
                    "label": graph.edges[u, v]["move"],
                    "color": PATH_COLOUR if thick else "black",
                    "penwidth": "3" if thick else "1",
                }
                if index == 3 and thick:
                    attrs["dir"] = "back"  # the counts go up the path
                lines.append(f"    {prefix}{u} -> {prefix}{v} [{dot_attrs(attrs)}];")
        if index == 2:
            lines.extend(_playout_lines(prefix, record))
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _playout_lines(prefix: str, record: dict[str, Any]) -> list[str]:
    """The playout from its start node: a dashed chain of moves to the result."""
    lines = []
    here = f"{prefix}{record['start']}"
    for k, move in enumerate(record["moves"]):
        there = f"{prefix}playout{k}"
        lines.append(f'    {there} [shape="point", width="0.08", fillcolor="black"];')
        edge = {"label": move, "style": "dashed", "color": PATH_COLOUR, "penwidth": "2"}
        lines.append(f"    {here} -> {there} [{dot_attrs(edge)}];")
        here = there
    more = record["plies"] - len(record["moves"])
    ends = {"terminal": "utility", "repetition": "repeated: value", "ply-limit": "cut short: value"}
    said = f"{'… ' + str(more) + ' more plies, ' if more else ''}{ends[record['ended']]}"
    result = {
        "label": f"{said} {number(record['result'])}",
        "shape": "box",
        "style": "rounded,dashed",
    }
    lines.append(f"    {prefix}result [{dot_attrs(result)}];")
    if record["plies"] == 0:  # the node itself is terminal: its result, no moves
        edge = {"style": "dashed", "color": PATH_COLOUR, "penwidth": "2", "arrowhead": "none"}
    else:
        edge = {"style": "dashed", "color": PATH_COLOUR, "penwidth": "2"}
    lines.append(f"    {here} -> {prefix}result [{dot_attrs(edge)}];")
    return lines
