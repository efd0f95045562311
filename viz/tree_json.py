"""The trees as strict JSON: networkx's node-link form (``nodes``, ``edges``, ``graph``).

Infinities are written as the strings ``"inf"`` and ``"-inf"`` and exact fractions as their
text (``"11/2"``), so that the file is strict JSON; a teaching tree's ``graph.fields``
documents every node field (the same text as :data:`NODE_FIELDS`); an engine tree's nodes
carry their window as the figure writes it.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import networkx as nx

from viz.build import GameTree
from viz.engine_tree import EngineTree
from viz.model import Frame
from viz.notation import PROBE_WIDTH, pair_window_text, probe_value

__all__ = ["NODE_FIELDS", "engine_json", "finite", "node_link_json", "to_json"]

NODE_FIELDS = {
    "id": "node id; visited nodes are numbered in the order the search entered them, from 0",
    "kind": "'node' (visited), 'pruned' (never visited: cut off, or below a cut), 'summary'",
    "player": "0 (MAX) or 1 (MIN), the player to move; 'role' says MAX or MIN",
    "depth": "plies below the root",
    "move": "the move that led here in the game's notation ('' at the root)",
    "path": "the moves from the root, a list; 'title' the node's name in captions",
    "state": "the position in the game's notation; 'board' its render text or null",
    "name": "the game's name for the node (AIMA's A, B, C ...) or null",
    "order": "the visit order, 1 for the root (null if never visited)",
    "value": "the value the search returned, MAX's point of view (null if none)",
    "bound": "'exact'; 'lower' (true value >= value: failed high, value >= beta on entry); "
    "'upper' (true value <= value: failed low, value <= alpha on entry); null with no value",
    "exact": "bound == 'exact'",
    "range": "[lo, hi] the true value lies in, as the figure writes it: from value and bound "
    "(and the children's, AIMA Figure 5.5), within *-minimax's bounds [L, U]",
    "leaf": "'terminal', 'horizon' (valued by the evaluation function) or null",
    "label": "the caller's leaf label or null",
    "principal": "on the principal path; 'optimal': an optimal move at its parent",
    "cut_by": "pruned nodes: the id of the node whose cut-off pruned them",
    "cut": "on the pruned moves themselves: the cut inequality, e.g. 'v=2 ≤ α=3'",
    "alpha_in": "the window on entry (alpha_in, beta_in) and on exit (alpha_out, beta_out)",
    "cache_hit": "merged visits (transpositions): true when 'hits' > 1 visits were merged",
    "folded": "sibling moves folded into this node by symmetry",
    "positions": "summary nodes: how many positions they hide",
    "opened": "step-by-step views: the step from which the node is drawn; 'reveal' and "
    "'step' the step at which its value (or cut) appears",
}
"""What each node field of the JSON export holds ("inf"/"-inf" stand for infinities, and
exact values of games with chance are fractions written as text, "11/2")."""


def finite(value: Any) -> Any:
    """``value`` with infinities as the strings "inf"/"-inf" and fractions as their text
    ("11/2", as the command line's ``--json`` writes them), so its JSON is strict."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def to_json(tree: GameTree) -> str:
    """The tree as networkx node-link JSON (strict JSON: no NaN or infinities).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> data = json.loads(to_json(game_tree(load_game("textbook"), algorithm="alphabeta")))
    >>> len(data["nodes"]), len(data["edges"]), data["graph"]["value"]
    (13, 12, 3)
    >>> [(n["name"], n["bound"]) for n in data["nodes"] if n["name"]]
    [('A', 'exact'), ('B', 'exact'), ('C', 'upper'), ('D', 'upper')]
    """
    graph = tree.graph.copy()  # each node's own dict: the tree keeps its own ranges
    final = Frame(tree, None)
    for node, data in graph.nodes(data=True):
        if data.get("kind") == "node" and data.get("range") is not None:
            shown = final.range(node, "minimax")  # the figure's range, clipped to [L, U]
            if shown is not None:
                data["range"] = [finite(_plain(x)) for x in shown]
    return node_link_json(graph, fields=NODE_FIELDS)


def _plain(value: Any) -> Any:
    """A whole float as an int (3, not 3.0), as the tree's own values are written."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def node_link_json(graph: Any, **graph_data: Any) -> str:
    """``graph`` as strict networkx node-link JSON (edges under ``"edges"``), with
    ``graph_data`` added to the graph's own data."""
    try:
        data = nx.node_link_data(graph, edges="edges")
    except TypeError:  # networkx < 3.4 names the key with link=
        data = nx.node_link_data(graph, link="edges")
    if graph_data:
        data["graph"] = {**data["graph"], **graph_data}
    for node in data["nodes"]:
        if "bound" in node and node.get("value") is None:  # pruned or never valued: no bound
            node["bound"] = None
            if "exact" in node:
                node["exact"] = False
    return json.dumps(finite(data), indent=1, ensure_ascii=False, allow_nan=False)


def engine_json(tree: EngineTree) -> str:
    """The engine's tree as strict node-link JSON. A node's window is written as the figure
    writes it (``window``: ``"(−∞, 2)"``, ``"probe 1"``) and by its sides ``alpha_in`` and
    ``beta_in``; a null window, which the engine builds one float step off the value it asks
    about, has both sides that value (not 0.9999999999999999 and 1.0000000000000002).

    >>> import json
    >>> from games import load_game
    >>> from viz.engine_tree import engine_tree
    >>> game = load_game("tictactoe")
    >>> nodes = json.loads(engine_json(engine_tree(game, game.parse_state("oxx/..o/x.."))))["nodes"]
    >>> sorted({n["window"] for n in nodes if n["window"] and n["window"].startswith("probe")})
    ['probe 0', 'probe 1', 'probe −1']
    """
    graph = tree.graph.copy()
    for _, data in graph.nodes(data=True):
        alpha, beta = data["alpha_in"], data["beta_in"]
        if alpha is None or beta is None:
            data["window"] = None
            continue
        data["window"] = pair_window_text(alpha, beta)
        if beta - alpha < PROBE_WIDTH:
            alpha = beta = probe_value(alpha, beta)
        data["alpha_in"], data["beta_in"] = _json_side(alpha), _json_side(beta)
    return node_link_json(graph)


def _json_side(value: float) -> float:
    """A window's side for JSON: ints as ints, no negative zero (infinities stay floats here;
    :func:`finite` writes them as text)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value + 0
