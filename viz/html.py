"""One self-contained HTML page that steps through backward induction.

The page holds one SVG, the finished diagram laid out once (:mod:`viz.stepper`), and a table of
what each frame changes: which nodes the search has reached, their values and their running
[lo, hi] ranges. A small inline script applies frame ``k``: nodes not reached yet are hidden,
the node just valued is highlighted, and the principal path is drawn bold only at the end. So
nodes never move between frames and the page stays small (one SVG, not one per frame). Previous,
Play/Pause and Next buttons, a slider and the arrow keys step through it. Nothing is fetched:
no network, no CDN, so the file works offline and can be mailed to students.

The page reads its address: ``#frame=5`` (or ``?frame=5``) opens frame 5, and
``?autotest=next,next,prev`` clicks those buttons itself once loaded (``next``, ``prev``,
``start``, ``end`` or a frame number for the slider), then writes the frame shown into the
element ``#autotest`` (``frame=2 visible=n0,n1,n2 values=n2:3 line=max-leaf
current=n2:rgb(255,213,79)``: the pseudocode line highlighted, the highlighted node and the fill
the browser really paints it with), which lets a headless browser check it.

Beside the tree stands the search's pseudocode (:mod:`viz.pseudocode`), the line the current
step carried out highlighted.
"""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import Any

from solver.output import check_output, write_text
from viz.build import GameTree
from viz.dot import default_title, step_text, summary_line
from viz.engine_dot import engine_dot
from viz.engine_tree import EngineTree, engine_game_tree, iterations_title
from viz.graphviz import pipe, svg_element
from viz.pseudocode import PSEUDOCODE_STYLE, pseudocode_html, step_lines
from viz.stepper import current_nodes, frame_changes, frame_paths, stepper_svg, tag_values

__all__ = ["engine_page", "page", "write_engine_html", "write_html"]

_STYLE = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
.controls { display: flex; gap: .5em; align-items: center; flex-wrap: wrap; margin: .6em 0; }
button { font-size: 1em; padding: .3em .9em; cursor: pointer; }
input[type=range] { flex: 1; min-width: 12em; }
#counter { font-variant-numeric: tabular-nums; min-width: 6em; }
#caption { min-height: 2.6em; margin: .3em 0 .8em; font-size: 1.05em; }
#main { display: flex; gap: 1.5em; align-items: flex-start; }
#diagram { overflow: auto; flex: 1 1 auto; min-width: 0; }
#diagram svg { height: auto; max-width: 100%; }
"""

_STEPPER_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("frame-data").textContent);
  var last = data.captions.length - 1;
  var svg = document.querySelector("#diagram svg");
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var caption = document.getElementById("caption");
  var play = document.getElementById("play");
  var current = 0, timer = null;
  var groups = {};
  Array.prototype.forEach.call(svg.querySelectorAll("g.node, g.edge"), function (g) {
    var m = /^(?:n(\\d+)|e\\d+_(\\d+))$/.exec(g.id);
    if (!m) { return; }
    var node = m[1] || m[2];
    (groups[node] = groups[node] || []).push(g);
  });
  function look(node, k) {
    var changes = data.nodes[node], out = changes[0];
    for (var i = 0; i < changes.length && changes[i][0] <= k; i++) { out = changes[i]; }
    return out;
  }
  function show(k) {
    current = Math.max(0, Math.min(last, k));
    var shown = [], values = [];
    Object.keys(data.nodes).forEach(function (node) {
      var state = look(node, current);
      (groups[node] || []).forEach(function (g) {
        g.classList.toggle("unreached", !state[1]);
        g.classList.toggle("current", g.id === "n" + node && data.current[current] === +node);
      });
      if (state[1]) { shown.push("n" + node); }
      if (state[2]) { values.push("n" + node + ":" + state[2]); }
      svg.querySelectorAll('[data-v="' + node + '"]').forEach(function (t) {
        t.textContent = state[2];
      });
      svg.querySelectorAll('[data-r="' + node + '"]').forEach(function (t) {
        t.textContent = state[3];
      });
      svg.querySelectorAll('[data-w="' + node + '"]').forEach(function (t) {
        t.textContent = state[4];
      });
    });
    var walked = data.paths[current] || [];
    Array.prototype.forEach.call(svg.querySelectorAll("g.edge"), function (g) {
      g.classList.toggle("path", walked.indexOf(g.id) >= 0);
    });
    svg.classList.toggle("stepping", current !== last);
    Array.prototype.forEach.call(document.querySelectorAll("#pseudocode span"), function (s) {
      s.classList.toggle("now", s.getAttribute("data-line") === data.lines[current]);
    });
    slider.value = current;
    counter.textContent = "frame " + current + " / " + last;
    caption.textContent = data.captions[current];
    document.body.setAttribute("data-frame", String(current));
    return {shown: shown, values: values};
  }
  function describe() {  // the autotest's words for what only the stepper shows
    var lit = svg.querySelector("g.node.current .outline");
    return " line=" + (data.lines[current] || "none") +
      " path=" + Array.prototype.map.call(svg.querySelectorAll("g.edge.path"),
        function (g) { return g.id; }).join(",") +
      " current=" +
      (lit ? lit.closest("g.node").id + ":" + getComputedStyle(lit).fill.replace(/ /g, "") :
       "none");
  }
"""

_PICTURES_STYLE = """
#main { flex-wrap: wrap; }
#diagram { flex-basis: 100%; }
#diagram svg { max-width: 100%; }
"""
"""The page of pictures: each picture as wide as the window allows, the notes below it."""

_PICTURES_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("frame-data").textContent);
  var last = data.captions.length - 1;
  var pictures = Array.prototype.slice.call(document.querySelectorAll("#diagram .picture"));
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var caption = document.getElementById("caption");
  var play = document.getElementById("play");
  var current = 0, timer = null;
  function show(k) {
    current = Math.max(0, Math.min(last, k));
    var shown = [], values = [];
    pictures.forEach(function (p, i) { p.hidden = i !== current; });
    Array.prototype.forEach.call(pictures[current].querySelectorAll("g.node"), function (g) {
      var id = g.id.split("-").pop();
      shown.push(id);
      var v = g.querySelector("[data-v]");
      if (v && v.textContent) { values.push(id + ":" + v.textContent); }
    });
    slider.value = current;
    counter.textContent = data.unit + " " + (current + 1) + " / " + (last + 1);
    caption.textContent = data.captions[current];
    document.body.setAttribute("data-frame", String(current));
    return {shown: shown, values: values};
  }
  function describe() {  // every picture's values, and which pictures the reader sees
    return " all=" + pictures.map(function (p) {
      return Array.prototype.map.call(p.querySelectorAll("[data-v]"), function (t) {
        return t.closest("g.node").id.split("-").pop() + ":" + t.textContent;
      }).filter(function (v) { return !/:$/.test(v); }).join(",");
    }).join(";") + " seen=" + pictures.filter(function (p) {
      return getComputedStyle(p).display !== "none";
    }).map(function (p) { return p.getAttribute("data-frame"); }).join(",");
  }
"""
_CONTROLS = """
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    play.textContent = "\\u25B6 Play";
  }
  function start() {
    if (current === last) { show(0); }
    play.textContent = "\\u23F8 Pause";
    timer = setInterval(function () {
      if (current >= last) { stop(); } else { show(current + 1); }
    }, 900);
  }
  function step(by) { return function () { stop(); show(current + by); }; }
  document.getElementById("prev").addEventListener("click", step(-1));
  document.getElementById("next").addEventListener("click", step(1));
  play.addEventListener("click", function () { if (timer) { stop(); } else { start(); } });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { stop(); show(current + 1); }
    if (e.key === "ArrowLeft") { stop(); show(current - 1); }
  });
  var params = new URLSearchParams(location.search);
  var hash = /frame=(\\d+)/.exec(location.hash);
  show(hash ? parseInt(hash[1], 10) : parseInt(params.get("frame") || "0", 10));
  var script = params.get("autotest");
  if (script !== null) {
    script.split(",").forEach(function (action) {
      if (action === "next" || action === "prev") { document.getElementById(action).click(); }
      else if (action === "start") { show(0); }
      else if (action === "end") { show(last); }
      else if (/^\\d+$/.test(action)) {
        slider.value = action; slider.dispatchEvent(new Event("input"));
      }
    });
    var state = show(current);
    var out = document.createElement("pre");
    out.id = "autotest";
    out.textContent = "frame=" + current + " visible=" + state.shown.join(",") +
      " values=" + state.values.join(",") + describe();
    document.body.appendChild(out);
  }
})();
"""


_SCRIPT = _STEPPER_SCRIPT + _CONTROLS
"""The stepper page's script: its frames (:data:`_STEPPER_SCRIPT`) and the controls, which
the page of pictures shares (:data:`_PICTURES_SCRIPT`: one frame per picture)."""


def captions(tree: GameTree, view: str = "minimax") -> list[str]:
    """The caption of every frame: before the search, each step, and the summary at the end."""
    if not tree.steps:  # drawn whole (an engine's iteration): the caption is its summary
        return [summary_line(tree)]
    out = ["before the search: it starts at the root"]
    out += [f"step {i + 1}: {step_text(tree, i, view)}" for i in range(len(tree.steps))]
    out[-1] += " (" + summary_line(tree) + ")"
    return out


def page(tree: GameTree, *, title: str | None = None, **looks: Any) -> str:
    """The stepper page's HTML text (see :func:`write_html`; ``looks`` as for
    :func:`viz.dot.to_dot`: boards, alpha_beta_labels, order, view)."""
    view = looks.get("view", "minimax")
    name = title or default_title(tree, view, looks.get("style", "default"))
    svg = svg_element(stepper_svg(tree, title=title, **looks))
    changes = frame_changes(tree, view=view, style=looks.get("style", "default"))
    texts = captions(tree, view)
    data = {
        "captions": texts,
        "lines": step_lines(tree),
        "current": current_nodes(tree),
        "paths": [[f"e{u}_{v}" for u, v in walked] for walked in frame_paths(tree)],
        "nodes": {str(n): c for n, c in changes.items()},
    }
    return _page(name, texts, data, svg, pseudocode_html(tree), _SCRIPT, "frame")


def pictures_page(
    title: str, pictures: list[str], texts: list[str], *, unit: str, notes: str = ""
) -> str:
    """A page that steps through whole pictures, one a frame (an engine's iterations): the
    stepper page's controls, address and autotest, each frame's caption from ``texts``.

    ``pictures`` are SVG documents; each frame's value texts carry ``data-v`` (see
    :func:`viz.stepper.tag_values`), which ``?autotest`` reports (``frame=1 visible=n0,n1
    values=n0:3``, frames from 0). ``unit`` names a frame in the counter (``iteration 2 / 4``);
    ``notes`` is HTML set beside the pictures (e.g. the search's pseudocode).
    """
    if len(pictures) != len(texts) or not pictures:
        raise ValueError(f"{len(pictures)} pictures for {len(texts)} captions")
    blocks = []
    for k, svg in enumerate(pictures):
        element = svg_element(svg).replace(' id="', f' id="i{k}-')  # ids unique in the page
        hidden = " hidden" if k else ""
        blocks.append(f'<div class="picture" data-frame="{k}"{hidden}>\n{element}\n</div>')
    data = {"captions": texts, "unit": unit}
    return _page(
        title,
        texts,
        data,
        "\n".join(blocks),
        notes,
        _PICTURES_SCRIPT + _CONTROLS,
        unit,
        style=_PICTURES_STYLE,
    )


def _page(
    name: str,
    texts: list[str],
    data: dict[str, Any],
    diagram: str,
    notes: str,
    script: str,
    unit: str,
    *,
    style: str = "",
) -> str:
    """The page's HTML: heading, controls, caption, the diagram beside ``notes``, data, script."""
    last = len(texts) - 1
    first = "1" if unit != "frame" else "0"
    shown = f"{unit} {first} / {last + (unit != 'frame')}"
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(name)}</title>\n<style>{_STYLE}{PSEUDOCODE_STYLE}{style}</style>\n</head>\n<body>\n"
        f"<h1>{escape(name)}</h1>\n"
        '<div class="controls">\n'
        '<button id="prev" type="button">&#9664; Previous</button>\n'
        '<button id="play" type="button">&#9654; Play</button>\n'
        '<button id="next" type="button">Next &#9654;</button>\n'
        f'<input id="slider" type="range" min="0" max="{last}" value="0" step="1"'
        f' aria-label="{unit}">\n'
        f'<span id="counter">{shown}</span>\n</div>\n'
        f'<p id="caption">{escape(texts[0])}</p>\n'
        f'<div id="main">\n<div id="diagram">\n{diagram}\n</div>\n{notes}</div>\n'
        f'<script type="application/json" id="frame-data">{blob}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


def write_html(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    overwrite: bool = True,
    **looks: Any,
) -> Path:
    """Write the self-contained stepper page to ``path`` and return the path.

    ``looks`` are :func:`viz.dot.to_dot` options (boards, alpha_beta_labels, order, view) and
    ``large``. The page is written atomically (:mod:`solver.output`); ``overwrite=False``
    refuses to replace an existing file.

    Raises:
        OutputError: the path cannot be written (checked before drawing), or exists and
            ``overwrite`` is False.
        GraphvizNotFoundError: ``dot`` is not installed (the diagram is laid out by Graphviz).
        UnreadableError: the diagram is too large to read (see :func:`viz.dot.readable_options`).
        CapabilityError: ``boards=True`` for a game without ``render``.

    >>> import tempfile
    >>> from games import load_game
    >>> from viz import game_tree
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = write_html(game_tree(load_game("textbook")), Path(folder, "steps.html"))
    ...     "<script>" in out.read_text(encoding="utf-8")
    True
    """
    check_output(path, overwrite=overwrite)
    return write_text(path, page(tree, title=title, **looks), overwrite=overwrite)


def engine_page(trees: list[EngineTree], *, title: str | None = None) -> str:
    """The step-by-step page of iterative deepening: one frame per iteration, each the
    iteration's Graphviz picture drawn from the model (:func:`engine_dot`), its caption the
    iteration's summary (the root's order, the previous best move tried first), and the
    engine's pseudocode beside it.

    >>> from games import load_game
    >>> from viz.engine_tree import engine_iterations
    >>> game = load_game("tictactoe")
    >>> html = engine_page(engine_iterations(game, game.parse_state("xo./.xo/.x.")))
    >>> html.count('class="picture"'), "iteration 1 / 4" in html
    (4, True)
    """
    if not trees:
        raise ValueError("no iterations to draw")
    drawn = [engine_game_tree(tree) for tree in trees]
    pictures = [
        tag_values(pipe(engine_dot(d, marks=True, summary=False), "svg").decode()) for d in drawn
    ]
    texts = [summary_line(d) for d in drawn]
    name = title or iterations_title(trees)
    return pictures_page(name, pictures, texts, unit="iteration", notes=pseudocode_html(drawn[0]))


def write_engine_html(
    trees: list[EngineTree],
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    overwrite: bool = True,
) -> Path:
    """Write :func:`engine_page` to ``path`` (atomically; ``overwrite=False`` refuses to
    replace a file).

    Raises:
        OutputError: the path cannot be written, or exists and ``overwrite`` is False.
        GraphvizNotFoundError: ``dot`` is not installed.
    """
    check_output(path, overwrite=overwrite)
    return write_text(path, engine_page(trees, title=title), overwrite=overwrite)
