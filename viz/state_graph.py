"""Draw a small solved game as a graph of its states: values, plies, optimal moves, cycles.

A game tree repeats a position once per path that reaches it and cannot show a cycle; this
picture draws each reachable state once, with an arrow per move, so a game that cycles shows
its cycles. Each state carries its solved value (player 0's view) and either the plies to the
end under optimal play or "endless" where the value is reached only by endless play. MAX's
states are blue, MIN's rose, terminal states white boxes; optimal moves are bold blue arrows,
the others thin grey ones; a state valued by endless play has a dashed outline.

Assumes a :class:`solver.solve.Solution` small enough to draw (``max_states``); the layout is
Graphviz's ``dot``.

>>> from games import load_game
>>> from solver.solve import solve
>>> source = state_graph_dot(solve(load_game("textbook", tree=[[3, 12], [2, 4]])))
>>> source.startswith("digraph") and "3 (in 2 plies)" in source
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from solver.errors import TooManyNodesError
from solver.game import format_action, format_state, player_label
from solver.output import write_bytes
from solver.results import format_value
from solver.solve import Solution
from viz.export import output_format
from viz.graphviz import FONT, pipe
from viz.palette import MAX_FILL, MIN_FILL, PRUNED

__all__ = ["DEFAULT_MAX_STATES", "render_state_graph", "state_graph_dot"]

DEFAULT_MAX_STATES = 60
"""Beyond this many states the picture is unreadable: drawing it is refused."""

_FILL = {0: MAX_FILL, 1: MIN_FILL}  # as in the trees
_OPTIMAL = "#1f6fb2"
_OTHER = PRUNED
_FORMATS = ("dot", "svg", "png", "pdf")


def state_graph_dot(
    solution: Solution, *, title: str | None = None, max_states: int = DEFAULT_MAX_STATES
) -> str:
    """The DOT source of the graph of ``solution``'s states (see the module docstring).

    Raises:
        TooManyNodesError: the solution has more than ``max_states`` states.
    """
    if len(solution) > max_states:
        raise TooManyNodesError(
            f"the solution has {len(solution):,} states, more than max_states={max_states}; "
            "draw a smaller game or position, or raise max_states",
            len(solution),
            max_states,
        )
    game = solution.game
    number = {format_state(game, s): i for i, s in enumerate(solution.states())}
    lines = [
        "digraph states {",
        f'  graph [rankdir=LR, fontname="{FONT}", nodesep=0.35, ranksep=0.6, labelloc=t];',
        f'  node [fontname="{FONT}", fontsize=11, style=filled, penwidth=1.2];',
        f'  edge [fontname="{FONT}", fontsize=9, arrowsize=0.7];',
    ]
    key = (
        f"blue: {player_label(game, 0)} to move, rose: {player_label(game, 1)}; values are "
        f"{player_label(game, 0)}'s; bold blue arrows: optimal moves; dashed: valued by "
        "endless play"
    )
    caption = key if title is None else title + "\n" + key
    lines.append(f"  label={_quote(caption)};")
    for state, record in solution:
        name = format_state(game, state)
        if record.terminal:
            shape, fill, style, tail = "box", "#ffffff", "filled", "over"
        else:
            shape, fill = "ellipse", _FILL[record.to_move]
            style = "filled,dashed" if record.endless else "filled"
            plies = record.plies
            tail = "endless" if plies is None else f"in {plies} pl{'y' if plies == 1 else 'ies'}"
        label = f"{name}\n{format_value(record.value)} ({tail})"
        lines.append(
            f"  s{number[name]} [label={_quote(label)}, shape={shape}, fillcolor="
            f'"{fill}", style="{style}"];'
        )
    for state, record in solution:
        source = number[format_state(game, state)]
        for action in game.actions(state):
            child = number[format_state(game, game.result(state, action))]
            optimal = action in record.best_actions
            color, width = (_OPTIMAL, 2.2) if optimal else (_OTHER, 1.0)
            label = _quote(format_action(game, state, action))
            lines.append(
                f'  s{source} -> s{child} [label={label}, color="{color}", '
                f'fontcolor="{color}", penwidth={width}];'
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_state_graph(
    solution: Solution,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    overwrite: bool = True,
) -> Path:
    """Write the state graph to ``path`` (``.dot``, ``.svg``, ``.png`` or ``.pdf``).

    The file is written atomically (:mod:`solver.output`); ``overwrite=False`` refuses to
    replace an existing one.

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
        UnknownFormatError: another suffix.
        TooManyNodesError: more than ``max_states`` states.
        GraphvizNotFoundError: SVG, PNG or PDF asked for and ``dot`` is not installed.
    """
    out = Path(path)
    fmt = output_format(out, _FORMATS)
    source = state_graph_dot(solution, title=title, max_states=max_states)
    data = source.encode() if fmt == "dot" else pipe(source, fmt)
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_bytes(out, data, overwrite=overwrite)  # atomically, as every output file


def _quote(text: Any) -> str:
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
