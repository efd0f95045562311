"""One self-contained HTML page that steps through backward induction.

Every frame's SVG is inlined and a small inline script shows one at a time, with Previous,
Play/Pause and Next buttons, a slider, and the arrow keys. Nothing is fetched: no network, no
CDN, so the file works offline and can be mailed to students.

The page reads its address: ``#frame=5`` (or ``?frame=5``) opens frame 5, and
``?autotest=next,next,prev`` clicks those buttons itself once loaded (``next``, ``prev``,
``start``, ``end`` or a frame number for the slider), then writes the frame shown into the
element ``#autotest`` (``frame=2 visible=frame-2``), which lets a headless browser check it.
"""

from __future__ import annotations

import os
import re
from html import escape
from pathlib import Path

from solver.output import check_output, write_text
from viz.build import GameTree
from viz.dot import default_title, pipe, summary_line
from viz.frames import frame_sources

__all__ = ["page", "write_html"]

_PROLOG = re.compile(r"<\?xml.*?\?>|<!DOCTYPE.*?>|<!--.*?-->", re.DOTALL)
_ID = re.compile(r'\bid="')

_STYLE = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
.controls { display: flex; gap: .5em; align-items: center; flex-wrap: wrap; margin: .6em 0; }
button { font-size: 1em; padding: .3em .9em; cursor: pointer; }
input[type=range] { flex: 1; min-width: 12em; }
#counter { font-variant-numeric: tabular-nums; min-width: 6em; }
#caption { min-height: 1.4em; margin: .3em 0 .8em; }
.frame svg { max-width: 100%; height: auto; }
.frame[hidden] { display: none; }
"""

_SCRIPT = """
(function () {
  var frames = Array.prototype.slice.call(document.querySelectorAll(".frame"));
  var last = frames.length - 1;
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var caption = document.getElementById("caption");
  var play = document.getElementById("play");
  var current = 0, timer = null;
  function show(k) {
    current = Math.max(0, Math.min(last, k));
    frames.forEach(function (f, i) { f.hidden = i !== current; });
    slider.value = current;
    counter.textContent = "frame " + current + " / " + last;
    caption.textContent = frames[current].getAttribute("data-caption");
    document.body.setAttribute("data-frame", String(current));
  }
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
    var visible = frames.filter(function (f) { return !f.hidden; })
      .map(function (f) { return f.id; });
    var out = document.createElement("pre");
    out.id = "autotest";
    out.textContent = "frame=" + current + " visible=" + visible.join(",");
    document.body.appendChild(out);
  }
})();
"""


def _inline(svg: str, index: int) -> str:
    """An SVG document as an element of the page: no prolog, ids made unique per frame."""
    body = _PROLOG.sub("", svg).strip()
    return _ID.sub(f'id="f{index}-', body)


def page(
    tree: GameTree,
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
) -> str:
    """The stepper page's HTML text (see :func:`write_html`)."""
    name = title or default_title(tree)
    sources = frame_sources(tree, boards=boards, alpha_beta_labels=alpha_beta_labels, title=title)
    captions = ["before the search: the tree to be valued"]
    captions += [f"step {i}: {s.text}" for i, s in enumerate(tree.steps, start=1)]
    captions[-1] += " (" + summary_line(tree) + ")"
    frames = []
    for index, source in enumerate(sources):
        svg = _inline(pipe(source, "svg").decode(), index)
        hidden = "" if index == 0 else " hidden"
        frames.append(
            f'<div class="frame" id="frame-{index}" data-caption="{escape(captions[index])}"'
            f"{hidden}>\n{svg}\n</div>"
        )
    last = len(sources) - 1
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(name)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(name)}</h1>\n"
        '<div class="controls">\n'
        '<button id="prev" type="button">&#9664; Previous</button>\n'
        '<button id="play" type="button">&#9654; Play</button>\n'
        '<button id="next" type="button">Next &#9654;</button>\n'
        f'<input id="slider" type="range" min="0" max="{last}" value="0" step="1"'
        ' aria-label="frame">\n'
        f'<span id="counter">frame 0 / {last}</span>\n</div>\n'
        f'<p id="caption">{escape(captions[0])}</p>\n'
        '<div id="frames">\n' + "\n".join(frames) + "\n</div>\n"
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )


def write_html(
    tree: GameTree,
    path: str | os.PathLike[str],
    *,
    boards: bool = False,
    alpha_beta_labels: bool = False,
    title: str | None = None,
    overwrite: bool = True,
) -> Path:
    """Write the self-contained stepper page to ``path`` and return the path.

    The page is written atomically (:mod:`solver.output`); ``overwrite=False`` refuses to
    replace an existing file.

    Raises:
        OutputError: the path cannot be written (checked before drawing), or exists and
            ``overwrite`` is False.
        GraphvizNotFoundError: ``dot`` is not installed (the frames are drawn by Graphviz).
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
    text = page(tree, boards=boards, alpha_beta_labels=alpha_beta_labels, title=title)
    return write_text(path, text, overwrite=overwrite)
