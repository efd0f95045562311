"""Commands that draw nothing load none of the drawing code (issue 29, item 6).

viz's writers and networkx cost about 0.4 s of start-up; ``zerosum.cli`` loads only viz's
light modules (the choices its ``tree`` options offer), and a command loads the rest only to
draw. One fresh interpreter runs the commands in turn and reports what each had loaded, then
draws a tree, which must load them (so the check can see them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LIGHT = ("viz", "viz.choices", "viz.errors", "viz.notation", "viz.notebook")
"""The viz modules the command line's options need (names and choices, no drawing), and the
notebook hook the package registers (it imports nothing until a notebook shows a tree)."""

SCRIPT = """
import contextlib, io, json, sys
from zerosum.cli import main
import zerosum.options

def heavy():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("networkx", "graphviz")
                  or (m.startswith("viz.") and m not in LIGHT))

loaded = {"start": heavy()}
for argv in COMMANDS:
    sys.stdin = io.StringIO("")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    loaded[" ".join(argv)] = [code, heavy()]
print(json.dumps(loaded))
"""

COMMANDS = [
    ["games"],
    ["best", "tictactoe", "--position", "x.o/.x./..."],
    ["analyse", "tictactoe", "--depth", "2"],
    ["solve", "tictactoe"],
    ["review", "game.txt", "--depth", "2"],
    ["match", "tictactoe", "random", "alphabeta:2", "--games", "2"],
    ["play", "tictactoe"],
    ["tablebase", "plan", "ayoayo", "--seeds", "8"],
]


def test_commands_that_draw_nothing_load_no_drawing_code(tmp_path: Path) -> None:
    """None of the commands loads networkx, graphviz or viz's writers; ``tree`` does."""
    (tmp_path / "game.txt").write_text("game: tictactoe\n1. 4\n2. 0\n")
    drawing = ["tree", "textbook", "-o", "tree.svg"]
    script = f"LIGHT = {LIGHT!r}\nCOMMANDS = {[*COMMANDS, drawing]!r}\n{SCRIPT}"
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "GAMESOLVER_TABLEBASE_DIR": str(tmp_path / "none")},
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded.pop("start") == []
    drew = loaded.pop(" ".join(drawing))
    for command, (code, modules) in loaded.items():
        assert code == 0 and modules == [], (command, modules)
    assert drew[0] == 0 and "viz.build" in drew[1]
