"""Generate the solved state graphs of docs/algorithms.md into docs/figures/ (none drawn by hand).

Run from the project root:  .venv/bin/python docs/make_state_graphs.py  [--out docs/figures]

Passing Nim from a pile of 4 (docs/examples/passing_nim.py), a game that cycles, solved by
``solver.solve.solve`` and drawn by ``viz.state_graph``: every reachable state once, its value,
its plies to the end or "endless", and the optimal moves.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solver.solve import solve  # noqa: E402
from viz.state_graph import render_state_graph  # noqa: E402


def passing_nim() -> type:
    """The example game, imported from its file as a reader would copy it."""
    path = Path(__file__).resolve().parent / "examples" / "passing_nim.py"
    spec = importlib.util.spec_from_file_location("passing_nim", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game: type = module.PassingNim
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "figures"), help="output folder")
    out = Path(parser.parse_args(argv).out)
    solution = solve(passing_nim()(4))
    title = (
        "Passing Nim from 4, solved: take 1 or 2, or pass; who takes the last counter wins "
        "(+1 for MAX); endless play scores 0"
    )
    for suffix in (".svg", ".png"):
        path = render_state_graph(solution, out / f"passing_nim_states{suffix}", title=title)
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
