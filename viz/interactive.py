"""One self-contained HTML page to explore a tree: fold subtrees away, and play "what if".

Click a node to collapse or expand its subtree. When the page is given the game and the whole
game tree is small and searched to the end (a textbook tree, an endgame), the page is
*editable*: click a leaf, type another value, and the page searches again in the browser,
minimax or alpha-beta as chosen, and redraws values, bounds (≥ / ≤ by the same fail-soft rule
as :mod:`viz.build`), the principal variation, best moves and cut-offs. Otherwise the page draws
the Python search's own annotations and only folds.

The script and style ship as package data (``viz/static``) and are inlined: nothing is fetched,
the file works offline. The tree itself travels as JSON in ``<script id="tree-data">``; each
drawn node is an SVG ``<g>`` with ``data-path`` (child indices from the root, ``root`` for the
root), ``data-kind``, ``data-value`` and ``data-bound``. ``?autotest=edit:1.0=7,click:1,
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
import os
from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from solver.game import Game, HasRender, format_action, format_state
from solver.output import write_text
from viz.build import GameTree
from viz.dot import default_title, summary_line
from viz.errors import VizError
from viz.html import captions
from viz.model import figure
from viz.pseudocode import PSEUDOCODE_STYLE, pseudocode_html, step_lines
from viz.stepper import current_nodes, frame_changes, frame_paths

__all__ = ["EDIT_LIMIT", "PAGE_LIMIT", "interactive_page", "write_interactive"]

EDIT_LIMIT = 2_000
"""The largest whole game tree (in positions) the page offers to edit and re-search."""

PAGE_LIMIT = 5_000
"""The most nodes the page draws (a merged DAG is drawn as a tree, its shared parts repeated)."""


def _asset(name: str) -> str:
    return resources.files("viz").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return value


def _path(parent: str, index: int) -> str:
    return str(index) if parent == "root" else f"{parent}.{index}"


def _from_graph(tree: GameTree, boards: bool) -> dict[str, Any]:
    """The Python search's annotated tree as nested JSON-able nodes (an engine's tree with
    what the drawing model writes beside each node: order, window, table hit)."""
    graph = tree.graph
    count = 0
    looks = figure(tree).nodes if graph.graph["algorithm"] == "engine" else None

    def node(n: int, path: str, cut: str | None) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > PAGE_LIMIT:
            raise VizError(
                f"the interactive page would draw more than {PAGE_LIMIT:,} nodes; "
                "draw a smaller tree (a depth limit, collapse=True) or a static picture"
            )
        data = graph.nodes[n]
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
            "key": _key(data["path"]),
            "move": data["move"],
            "player": int(data["player"]),
            "kind": data["kind"],
            "value": _json_value(data["value"]),
            "bound": data["bound"],
            "leaf": data["leaf"],
            "principal": bool(data["principal"]),
            "optimal": bool(data["optimal"]),
            "name": data["name"],
            "title": data["title"],
            "state": data["state"],
            "board": data["board"] if boards else None,
            "alphaIn": _json_value(data["alpha_in"]),
            "betaIn": _json_value(data["beta_in"]),
            "label": data["label"] if data["kind"] == "node" else None,
            "hits": int(data["hits"]),
            "positions": int(data.get("positions") or 0),
            "cut": cut,
            "collapsed": False,
            "children": [
                node(k, _path(path, i), graph.edges[n, k].get("cut")) for i, k in enumerate(kids)
            ],
        }

    return node(tree.root, "root", None)


def _key(moves: Any) -> str:
    """A node's name in the page's frames: its moves from the root."""
    return json.dumps(list(moves), ensure_ascii=False)


def _frames(tree: GameTree) -> dict[str, Any]:
    """Every step of the search as the drawing model shows it (:mod:`viz.stepper`'s changes),
    by node key: what the page applies to step through the search."""
    graph = tree.graph
    keys = {n: _key(d["path"]) for n, d in graph.nodes(data=True) if d["kind"] != "summary"}
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

    def walk(here: Any, path: str, move: str, moves: tuple[str, ...] = ()) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > EDIT_LIMIT:
            raise _TooBig
        name = namer(here) if callable(namer) else None
        out: dict[str, Any] = {
            "path": path,
            "key": _key(moves),
            "move": move,
            "player": int(game.to_move(here)),
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
            out["leafValue"] = game.utility(here)
            if leaf_label is not None:
                out["label"] = leaf_label(here)
            return out
        out["children"] = []
        for i, a in enumerate(game.actions(here)):
            text = format_action(game, here, a)
            out["children"].append(walk(game.result(here, a), _path(path, i), text, (*moves, text)))
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
    labels = {d["state"]: d["label"] for _, d in tree.graph.nodes(data=True) if d["label"]}
    return _whole_tree(game, state, boards, lambda s: labels.get(format_state(game, s)))


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
    if any(d.get("chance") for _, d in tree.graph.nodes(data=True)):
        raise VizError(  # the page's own search (on edited leaves) knows no chance nodes
            "the interactive page does not draw chance nodes; use the step-by-step page "
            "(--html) or a picture (-o FILE.svg) for a tree with chance"
        )
    if boards and not tree.has_boards:
        from solver.game import CapabilityError

        raise CapabilityError(
            f"game {tree.graph.graph['game']!r} has no render() to show boards on the page; "
            "draw it without boards"
        )
    editable = None
    if game is not None and tree.graph.graph["algorithm"] in ("minimax", "alphabeta"):
        start = game.initial_state() if state is None else state
        editable = _editable_tree(tree, game, start, boards)
    data = {
        "title": title or default_title(tree),
        "summary": summary_line(tree),
        "algorithm": tree.graph.graph["algorithm"],
        "editable": editable is not None,
        "boards": boards,
        "tree": editable if editable is not None else _from_graph(tree, boards),
        "frames": _frames(tree),
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
    if data["algorithm"] == "alphabeta":
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
            f'<option value="{a}"{" selected" if a == algorithm else ""}>{label}</option>'
            for a, label in (("minimax", "minimax"), ("alphabeta", "alpha-beta"))
        )
        controls = [
            f'<label>Search <select id="algorithm">{options}</select></label>',
            '<button id="reset" type="button">Reset leaves</button>',
            *controls,
            '<span id="edit" hidden><span id="edit-where"></span> = '
            '<input id="edit-value" type="number" step="any" aria-label="leaf value"></span>',
        ]
        help_text += (
            " Click a leaf to change its value: the search runs again in the page, and the"
            " steps are those of the new search."
            " ≥v / ≤v: alpha-beta left the value a bound; dashed grey: pruned."
        )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{name}</title>\n<style>\n{_asset('interactive.css')}{PSEUDOCODE_STYLE}</style>\n"
        "</head>\n<body>\n"
        f"<h1>{name}</h1>\n"
        f'<p id="summary">{escape(str(data["summary"]))}</p>\n'
        '<div class="controls">\n' + "\n".join(controls) + "\n</div>\n"
        f'<p class="help">{escape(help_text)}</p>\n'
        + ('<pre id="board" hidden></pre>\n' if boards else "")
        + stepping
        + '<div id="main"><div id="scroll"><svg id="tree" xmlns="http://www.w3.org/2000/svg" '
        'role="img"></svg></div>\n' + pseudocode_html(tree) + "</div>\n"
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
