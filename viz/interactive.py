"""One self-contained HTML page to explore a tree: fold subtrees away, and play "what if".

Click a node to collapse or expand its subtree. When the page is given the game and the whole
game tree is small and searched to the end (a textbook tree, an endgame), the page is
*editable*: click a leaf, type another value, and the page searches again in the browser,
minimax or alpha-beta as chosen (on a tree with chance nodes expectiminimax, Star1 or Star2,
with the bounds *-minimax searched with: the least and greatest leaf as edited when they were
the leaves' own), and redraws values, bounds (≥ / ≤ by the same fail-soft rule as
:mod:`viz.build`), the principal variation, best moves and cut-offs. Its script computes as
Python does: ints and fractions exact, a float making floats (numbers travel with their type,
:func:`_number`), so every text is the Python figures' own. Otherwise the page draws the Python
search's own annotations and only folds.

The script and style ship as package data (``viz/static``) and are inlined: nothing is fetched,
the file works offline. The tree itself travels as JSON in ``<script id="tree-data">``; each
drawn node is an SVG ``<g>`` with ``data-path`` (child indices from the root, ``root`` for the
root; a Star2 probe's index is written ``p0``), ``data-kind``, ``data-value`` and
``data-bound``; frames name nodes by :func:`node_keys`. ``?autotest=edit:1.0=7,click:1,
algorithm:minimax`` makes the page perform those actions once loaded and write every node's
path, kind, value and bound into ``<pre id="autotest">``, which lets a headless browser check it.

>>> from games import load_game
>>> from viz import game_tree
>>> game = load_game("textbook")
>>> html = interactive_page(game_tree(game, algorithm="alphabeta"), game=game)
>>> '"editable": true' in html, "<script src" in html
(True, False)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from solver.chance import is_chance, outcomes, probability_text
from solver.expectiminimax import utility_bounds
from solver.game import Game, HasRender, HasUtilityBounds, format_action, format_state
from solver.output import write_text
from viz.build import PRUNING, GameTree
from viz.dot import default_title, summary_line
from viz.engine_tree import EngineTree, engine_game_tree, iterations_title
from viz.errors import VizError
from viz.html import captions
from viz.model import figure
from viz.notation import number
from viz.palette import css_variables
from viz.pseudocode import PSEUDOCODE, PSEUDOCODE_STYLE, pseudocode_html, step_lines
from viz.stepper import current_nodes, frame_changes, frame_paths
from viz.tree_node import tree_node, tree_nodes

__all__ = [
    "EDIT_LIMIT",
    "PAGE_LIMIT",
    "interactive_page",
    "node_keys",
    "write_engine_interactive",
    "write_interactive",
]

EDIT_LIMIT = 2_000
"""The largest whole game tree (in positions) the page offers to edit and re-search."""

PAGE_LIMIT = 5_000
"""The most nodes the page draws (a merged DAG is drawn as a tree, its shared parts repeated)."""


def _asset(name: str) -> str:
    return resources.files("viz").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def _number(value: Any) -> Any:
    """A value for the page's script, its Python type kept (the page computes as Python does):
    an int as is, a Fraction ``[numerator, denominator]``, a float ``{"f": x}`` (infinities
    ``"inf"``/``"-inf"``, as the tree stores them)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Fraction):
        return [value.numerator, value.denominator]
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return {"f": value}
    return value


def node_keys(graph: Any) -> dict[int, str]:
    """Each node's name in the page's frames: its moves from the root as JSON, a move into a
    Star2 probe written ``["probe", move]`` (the probe of an outcome and its full search are
    two nodes at the same moves).

    >>> from games import load_game
    >>> from viz import game_tree
    >>> game = load_game("textbook", tree="[8, {1/2: [9, 9], 1/2: [9, 0]}]")
    >>> keys = node_keys(game_tree(game, algorithm="star2").graph)
    >>> keys[3], keys[7]  # outcome 0 of B: probed, then searched in full
    ('["1", ["probe", "0"]]', '["1", "0"]')
    """
    keys = {}
    for node, data in tree_nodes(graph):
        moves: list[Any] = list(data.path)
        probes, here = [], node
        while graph.in_degree(here):
            probes.append(tree_node(graph, here).probe)
            here = next(iter(graph.predecessors(here)))
        if any(probes) and len(probes) == len(moves):
            moves = [["probe", m] if p else m for m, p in zip(moves, reversed(probes), strict=True)]
        keys[node] = json.dumps(moves, ensure_ascii=False)
    return keys


def _path(parent: str, index: int) -> str:
    return str(index) if parent == "root" else f"{parent}.{index}"


def _from_graph(tree: GameTree, boards: bool) -> dict[str, Any]:
    """The Python search's annotated tree as nested JSON-able nodes (an engine's tree with
    what the drawing model writes beside each node: order, window, table hit)."""
    graph = tree.graph
    keys = node_keys(graph)
    count = 0
    looks = figure(tree).nodes if graph.graph["algorithm"] == "engine" else None

    def node(n: int, path: str, cut: str | None, odds: str | None = None) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > PAGE_LIMIT:
            raise VizError(
                f"the interactive page would draw more than {PAGE_LIMIT:,} nodes; "
                "draw a smaller tree (a depth limit, collapse=True) or a static picture"
            )
        data = tree_node(graph, n)
        kids = list(graph.successors(n))
        extra: dict[str, Any] = {}
        if looks is not None:
            look = looks[n]
            notes = [look.table if look.answered else "", look.order, look.window]
            extra = {
                "notes": [t for t in notes if t],
                "tableNote": "" if look.answered else look.table,
                "table": look.table_kind if look.answered else None,
            }
        return extra | {
            "path": path,
            "key": keys[n],
            "move": data.move,
            "player": int(data.player),
            "chance": data.chance,
            "probe": data.probe,
            "probabilityText": odds,
            "kind": data.kind,
            "value": _number(data.value),
            "bound": data.bound,
            "leaf": data.leaf,
            "principal": bool(data.principal),
            "optimal": bool(data.optimal),
            "name": data.name,
            "title": data.title,
            "state": data.state,
            "board": data.board if boards else None,
            "alphaIn": _number(data.alpha_in),
            "betaIn": _number(data.beta_in),
            "label": data.label if data.kind == "node" else None,
            "hits": int(data.hits),
            "positions": data.positions,
            "cut": cut,
            "collapsed": False,
            "children": [
                node(
                    k,
                    _path(path, i),
                    graph.edges[n, k].get("cut"),
                    graph.edges[n, k].get("probability"),
                )
                for i, k in enumerate(kids)
            ],
        }

    return node(tree.root, "root", None)


def _frames(tree: GameTree) -> dict[str, Any]:
    """Every step of the search as the drawing model shows it (:mod:`viz.stepper`'s changes),
    by node key: what the page applies to step through the search."""
    graph = tree.graph
    named = node_keys(graph)
    keys = {n: named[n] for n, d in tree_nodes(graph) if d.kind != "summary"}
    return {
        "captions": captions(tree),
        "lines": step_lines(tree),
        "current": [None if c is None else keys[c] for c in current_nodes(tree)],
        "walked": [[keys[child] for _, child in moves] for moves in frame_paths(tree)],
        "nodes": {keys[n]: changes for n, changes in frame_changes(tree).items() if n in keys},
    }


class _TooBig(Exception):
    """The whole game tree is larger than EDIT_LIMIT."""


def _whole_tree(
    game: Game[Any, Any], state: Any, boards: bool, leaf_label: Any
) -> dict[str, Any] | None:
    """Every position below ``state`` with its terminal values, or None past EDIT_LIMIT.

    Nodes are named as the figures name them (:mod:`viz.build`'s ``title``: the game's name
    for the node, else its moves from the root joined by "·").
    """
    count = 0
    namer = getattr(game, "node_name", None)
    renders = boards and isinstance(game, HasRender)

    def walk(
        here: Any, path: str, move: str, moves: tuple[str, ...] = (), odds: Any = None
    ) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > EDIT_LIMIT:
            raise _TooBig
        name = namer(here) if callable(namer) else None
        out: dict[str, Any] = {
            "path": path,
            "move": move,
            "player": int(game.to_move(here)),
            "chance": is_chance(game, here),
            "probability": _number(odds),
            "probabilityText": None if odds is None else probability_text(odds),
            "name": None if name is None else str(name),
            "title": str(name) if name is not None else ("·".join(moves) or "the root"),
            "state": format_state(game, here),
            "board": game.render(here) if renders else None,  # type: ignore[attr-defined]
            "leaf": None,
            "label": None,
            "hits": 1,
            "positions": 0,
            "collapsed": False,
            "children": [],
        }
        if game.is_terminal(here):
            out["leaf"] = "terminal"
            out["leafValue"] = _number(game.utility(here))
            if leaf_label is not None:
                out["label"] = leaf_label(here)
            return out
        odds = dict(outcomes(game, here)) if out["chance"] else {}
        for i, a in enumerate(game.actions(here)):
            text = format_action(game, here, a)
            child = game.result(here, a)
            out["children"].append(walk(child, _path(path, i), text, (*moves, text), odds.get(a)))
        return out

    try:
        return walk(state, "root", "")
    except _TooBig:
        return None


def _editable_tree(
    tree: GameTree, game: Game[Any, Any], state: Any, boards: bool
) -> dict[str, Any] | None:
    facts = tree.graph.graph
    if format_state(game, state) != facts["position"] or game.name != facts["game"]:
        raise VizError(
            f"the game and position given ({game.name!r} at {format_state(game, state)!r}) are "
            f"not the tree's ({facts['game']!r} at {facts['position']!r}); pass the ones the "
            "tree was drawn from"
        )
    if facts["depth"] is not None or any(
        facts.get(k) for k in ("transpositions", "collapse", "fold_symmetries")
    ):
        return None  # the page re-searches the whole tree; these views show something else
    labels = {d.state: d.label for _, d in tree_nodes(tree.graph) if d.label}
    return _whole_tree(game, state, boards, lambda s: labels.get(format_state(game, s)))


_SEARCHES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
    "star1": "Star1",
    "star2": "Star2",
}
"""The searches the page runs itself, by the names its menu gives them."""


def _choices(
    tree: GameTree, game: Game[Any, Any] | None, editable: Any, chance: bool
) -> tuple[str, ...]:
    """The searches the page's menu offers: those of the tree's kind (with chance or not);
    *-minimax only with bounds on the utilities."""
    if editable is None:
        return ()
    own = tree.graph.graph["algorithm"]
    if not chance:
        kinds: tuple[str, ...] = ("minimax", "alphabeta")
    elif tree.graph.graph.get("bounds") is None and not isinstance(game, HasUtilityBounds):
        kinds = ("expectiminimax",)
    else:
        kinds = ("expectiminimax", "star1", "star2")
    return kinds if own in kinds else (own, *kinds)


def _leaf_range(tree: dict[str, Any]) -> list[Any]:
    """The least and greatest leaf value of the page's whole tree, as the JSON numbers are."""
    values, stack = [], [tree]
    while stack:
        node = stack.pop()
        stack.extend(node["children"])
        if "leafValue" in node:
            values.append(_decoded(node["leafValue"]))
    return [min(values), max(values)]


def _has_chance(tree: dict[str, Any]) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node["chance"]:
            return True
        stack.extend(node["children"])
    return False


def _decoded(value: Any) -> Any:
    """A number as :func:`_number` wrote it, back."""
    if isinstance(value, list):
        return Fraction(*value)
    if isinstance(value, dict):
        return value["f"]
    return float(value) if isinstance(value, str) else value


def interactive_page(
    tree: GameTree,
    *,
    game: Game[Any, Any] | None = None,
    state: Any = None,
    title: str | None = None,
    boards: bool = False,
    iterations: Sequence[GameTree] = (),
) -> str:
    """The interactive page's HTML text (see :func:`write_interactive`).

    ``iterations``: trees drawn whole, one after the other (an engine's iterative deepening,
    :func:`viz.engine_tree.write_engine_interactive`): the stepping controls step through them
    instead of through the steps of one search; ``tree`` is the one shown first.
    """
    if boards and not tree.has_boards:
        from solver.game import CapabilityError

        raise CapabilityError(
            f"game {tree.graph.graph['game']!r} has no render() to show boards on the page; "
            "draw it without boards"
        )
    facts = tree.graph.graph
    chance = any(d.chance for _, d in tree_nodes(tree.graph))
    editable = None
    if game is not None and facts["algorithm"] in _SEARCHES:
        start = game.initial_state() if state is None else state
        editable = _editable_tree(tree, game, start, boards)
    if editable is not None:
        chance = chance or _has_chance(editable)
    searches = _choices(tree, game, editable, chance)
    bounds = facts.get("bounds")
    if bounds is None and game is not None and isinstance(game, HasUtilityBounds) and chance:
        bounds = list(utility_bounds(game, None))
    data = {
        "title": title or default_title(tree),
        "summary": summary_line(tree),
        "algorithm": facts["algorithm"],
        "editable": editable is not None,
        "boards": boards,
        "tree": editable if editable is not None else _from_graph(tree, boards),
        "frames": _frames(tree),
        "bounds": None if bounds is None else [_number(b) for b in bounds],
        "pseudocode": {a: PSEUDOCODE[a] for a in searches},
        "boundsFromLeaves": editable is not None
        and bounds is not None
        and list(bounds) == _leaf_range(editable),
    }
    if iterations:
        data["iterations"] = [
            {"tree": _from_graph(t, boards), "frames": _frames(t), "summary": summary_line(t)}
            for t in iterations
        ]
    name = escape(str(data["title"]))
    payload = json.dumps(data, ensure_ascii=False, allow_nan=False).replace("</", "<\\/")
    controls = [
        '<button id="expand" type="button">Expand all</button>',
        '<button id="zoom-out" type="button" aria-label="zoom out">&#8722;</button>',
        '<button id="zoom-in" type="button" aria-label="zoom in">+</button>',
        '<button id="fit" type="button">Fit to screen</button>',
    ]
    if data["algorithm"] in PRUNING or any(a in PRUNING for a in searches):
        controls.append('<label><input id="labels" type="checkbox"> windows and ranges</label>')
    last, unit, shown = len(tree.steps), "step", len(tree.steps)
    if iterations:
        last, unit, shown = len(iterations) - 1, "iteration", len(iterations)
    stepping = (
        '<div class="controls" id="stepper">\n'
        '<button id="prev" type="button">&#9664; Previous</button>\n'
        '<button id="next" type="button">Next &#9654;</button>\n'
        f'<input id="slider" type="range" min="0" max="{last}" value="{last}" step="1"'
        f' aria-label="{unit}">\n'
        f'<span id="counter">{unit} {shown} / {shown}</span>\n</div>\n'
        f'<p id="caption">{escape(data["frames"]["captions"][-1])}</p>\n'
    )
    help_text = (
        "Step through the search with Previous / Next, the slider or the arrow keys; the "
        "pseudocode's line of each step is highlighted. "
        "Click a node to collapse or expand its subtree (+n: the nodes it hides)."
    )
    if iterations:
        help_text = (
            "Step through the iterations with Previous / Next, the slider or the arrow keys: "
            "each is searched one ply deeper, the best move of the one before tried first. "
            "Click a node to collapse or expand its subtree (+n: the nodes it hides). "
            "Leaves cannot be edited here: the page's own search is the teaching alpha-beta, "
            "which does not reproduce the engine's transposition table, move ordering and "
            "null-window probes."
        )
    if editable is not None:
        algorithm = data["algorithm"]
        options = "".join(
            f'<option value="{a}"{" selected" if a == algorithm else ""}>{_SEARCHES[a]}</option>'
            for a in searches
        )
        controls = [
            f'<label>Search <select id="algorithm">{options}</select></label>',
            '<button id="reset" type="button">Reset leaves</button>',
            *controls,
            '<span id="edit" hidden><span id="edit-where"></span> = '
            '<input id="edit-value" type="number" step="any" aria-label="leaf value">'
            ' <span id="edit-note"></span></span>',
        ]
        help_text += (
            " Click a leaf to change its value: the search runs again in the page, and the"
            " steps are those of the new search."
            " ≥v / ≤v: alpha-beta left the value a bound; dashed grey: pruned."
        )
        if chance:
            help_text += (
                " Green circles: chance nodes, worth Σ p × value over their outcomes (p= on"
                " each move); dashed: a Star2 probe (its first move only, for a bound)."
            )
            if bounds is not None:
                lo, hi = (number(b) for b in bounds)
                help_text += f" *-minimax assumes every leaf in [{lo}, {hi}]" + (
                    " (the least and greatest leaf, as edited)."
                    if data["boundsFromLeaves"]
                    else "."
                )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{name}</title>\n<style>\n{css_variables()}{_asset('interactive.css')}{PSEUDOCODE_STYLE}</style>\n"
        "</head>\n<body>\n"
        f"<h1>{name}</h1>\n"
        f'<p id="summary">{escape(str(data["summary"]))}</p>\n'
        '<div class="controls">\n' + "\n".join(controls) + "\n</div>\n"
        f'<p class="help">{escape(help_text)}</p>\n'
        + ('<pre id="board" hidden></pre>\n' if boards else "")
        + stepping
        + '<div id="main"><div id="scroll"><svg id="tree" xmlns="http://www.w3.org/2000/svg" '
        'role="img"></svg></div>\n'
        + '<details id="code-panel" open><summary>Pseudocode</summary>\n'
        + pseudocode_html(tree)
        + "</details></div>\n"
        f'<script type="application/json" id="tree-data">{payload}</script>\n'
        f"<script>\n{_asset('interactive.js')}</script>\n</body>\n</html>\n"
    )


def write_interactive(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    game: Game[Any, Any] | None = None,
    state: Any = None,
    title: str | None = None,
    overwrite: bool = True,
    boards: bool = False,
) -> Path:
    """Write the interactive page to ``path`` (atomically) and return the path.

    Args:
        tree: from :func:`viz.game_tree`.
        path: the ``.html`` file to write.
        game: the game the tree was drawn from. With it, and a tree searched to the end
            (no depth limit, no merged, collapsed or folded view) whose whole game tree has at
            most :data:`EDIT_LIMIT` positions, the page lets the reader edit leaf values.
        state: the tree's root position (None: the game's initial state).
        title: the page's heading (default: algorithm, game, position, depth).
        overwrite: replace an existing file (False refuses).
        boards: draw each position's board under its node (and larger beside the tree when
            the pointer is on the node).

    Raises:
        CapabilityError: ``boards=True`` for a game without ``render``.
        VizError: ``game``/``state`` are not the tree's, or the tree is too large to draw.
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.

    >>> import tempfile
    >>> from games import load_game
    >>> from viz import game_tree
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = write_interactive(game_tree(load_game("textbook")), Path(folder, "t.html"))
    ...     "tree-data" in out.read_text(encoding="utf-8")
    True
    """
    text = interactive_page(tree, game=game, state=state, title=title, boards=boards)
    return write_text(path, text, overwrite=overwrite)


def write_engine_interactive(
    trees: list[EngineTree],
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    overwrite: bool = True,
) -> Path:
    """Write the interactive page of iterative deepening to ``path``: Previous / Next, the
    slider and the arrow keys step through the iterations, each drawn as the drawing model
    says (windows, order of entry, table hits, cuts); nodes fold on a click.

    Its leaves cannot be edited: the page's own search is the teaching alpha-beta, which does
    not reproduce the engine's transposition table, move ordering and null-window probes.

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
    """
    if not trees:
        raise ValueError("no iterations to draw")
    drawn = [engine_game_tree(tree) for tree in trees]
    text = interactive_page(drawn[-1], title=title or iterations_title(trees), iterations=drawn)
    return write_text(path, text, overwrite=overwrite)
