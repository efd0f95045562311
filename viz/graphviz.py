"""Graphviz itself: the one font, the marker colours pages find texts by, DOT attribute syntax,
the legend grid, and running ``dot`` (the floor every Graphviz writer stands on: the teaching
trees' :mod:`viz.dot`, the engine's :mod:`viz.engine_dot`, the state graph)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess

from solver.quoting import quote
from solver.workers import kill_with_parent
from viz.errors import GraphvizFailedError, GraphvizNotFoundError

__all__ = [
    "FONT",
    "MAX_INCHES",
    "PATH_COLOUR",
    "PNG_DPI",
    "RANGE_MARK",
    "VALUE_MARK",
    "WINDOW_MARK",
    "dot_attrs",
    "legend_table",
    "pipe",
    "svg_element",
]

FONT = "DejaVu Sans"
"""One font for layout and drawing (it has the ▲ ▼ α β ∞ ✂ glyphs)."""

MAX_INCHES = 50.0
"""The largest side of a picture drawn at its natural size (text at 9-14 pt stays legible when
the picture is shown 1:1 and scrolled); larger pictures are refused unless asked for."""

VALUE_MARK = "#000001"
"""The colour of a node's value text (black to the eye); the stepper finds the text by it."""
RANGE_MARK = "#555556"
"""The colour of a node's [lo, hi] range text; the stepper finds it by it."""
WINDOW_MARK = "#444445"
"""The colour of a node's window text (its alpha-beta window, or an MCTS node's exact value and
what MCTS-Solver has proven, which changes from step to step); the stepper finds it by it."""

PATH_COLOUR = "#e08e00"
"""The path a step walks (MCTS's selection and back-up), in every writer and page."""


def dot_attrs(items: dict[str, str]) -> str:
    """Graphviz attributes as DOT writes them: ``key="value"``, HTML labels ``key=<...>``."""
    parts = []
    for key, value in items.items():
        if value.startswith("<") and value.endswith(">"):
            parts.append(f"{key}={value}")
        else:
            quoted = value.replace("\\", "\\\\").replace('"', '\\"')
            parts.append(f'{key}="{quoted}"')
    return ", ".join(parts)


def legend_table(rows: list[list[str]]) -> str:
    """The legend as a grid, each item in a cell of its own with a gap after it (a browser
    whose font runs wider than Graphviz measured widens an item, never onto the next one); a
    row's last item fills the rest of the row, so a long item never widens a column."""
    columns = max(len(row) for row in rows)
    out = []
    for row in rows:
        spans = [1] * (len(row) - 1) + [2 * (columns - len(row)) + 1]  # the last fills the row
        cells = [
            f'<TD ALIGN="LEFT" COLSPAN="{span}"><FONT POINT-SIZE="10">{item}</FONT></TD>'
            for item, span in zip(row, spans, strict=True)
        ]
        out.append("<TR>" + '<TD WIDTH="18"> </TD>'.join(cells) + "</TR>")
    return '<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(out) + "</TABLE>"


PNG_DPI = 150
"""The resolution of PNG pictures (Graphviz's default, 96, blurs the small texts)."""


def pipe(source: str, fmt: str) -> bytes:
    """Run Graphviz ``dot`` on ``source`` and return the output in ``fmt`` (svg, png, pdf, plain).

    The source is passed as it is; a PNG is drawn at :data:`PNG_DPI`, set on ``dot``'s command
    line.

    Raises:
        GraphvizNotFoundError: ``dot`` is not installed.
        GraphvizFailedError: ``dot`` failed (e.g. a broken installation or out of memory).
    """
    dot = shutil.which("dot")
    if dot is None:
        raise GraphvizNotFoundError(
            f"cannot write {fmt!r}: Graphviz's 'dot' program is not installed "
            "(Debian/Ubuntu: apt-get install graphviz); DOT and JSON output work without it"
        )
    command = [dot, f"-T{fmt}", *([f"-Gdpi={PNG_DPI}"] if fmt == "png" else [])]
    try:
        done = subprocess.run(
            command,
            input=source.encode(),
            capture_output=True,
            check=False,
            # a killed command leaves no Graphviz running
            preexec_fn=functools.partial(kill_with_parent, os.getpid()),
        )
    except OSError as error:
        done = None
        said = str(error)
    if done is None or done.returncode != 0:
        if done is not None:
            said = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
        raise GraphvizFailedError(
            f"cannot write {fmt!r}: Graphviz's 'dot' failed ({quote(said)}); "
            "check the Graphviz installation (`dot -V`), or write .dot or .json instead"
        )
    return done.stdout


def svg_element(svg: str) -> str:
    """An SVG document as an element of a page: without its XML prolog, doctype and comments."""
    return re.sub(r"<\?xml.*?\?>|<!DOCTYPE.*?>|<!--.*?-->", "", svg, flags=re.DOTALL).strip()
