"""Generate the figures of docs/teaching.md's section on TikZ, the interactive page and the
engine's tree into docs/figures/ (nothing there is drawn by hand).

Run from the project root:  .venv/bin/python docs/make_export_figures.py  [--out docs/figures]

- ``tikz_deep.tex`` (TikZ source) and ``tikz_deep.png`` (compiled by pdflatex, converted by
  pdftoppm; skipped with a note when they are missing): alpha-beta on a tree where D fails low;
- ``interactive_textbook.html`` (the page) and ``interactive_textbook.png`` (headless Chromium's
  screenshot after the leaf c1 is edited from 2 to 5 and node D folded; skipped without it);
- ``engine_tictactoe.svg`` and ``.png``: the engine's last iteration from ``oxx/..o/x..``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games import load_game  # noqa: E402
from viz import game_tree, write_interactive, write_tikz  # noqa: E402
from viz.engine_tree import engine_tree, render_engine  # noqa: E402

DEEP = [[5], [[[3, 1], [4, 2]], 1]]
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
ENGINE_POSITION = "oxx/..o/x.."


def tikz_figure(out: Path) -> None:
    """The TikZ source, and its PDF as a PNG when pdflatex and pdftoppm are installed."""
    game = load_game("textbook", tree=DEEP)
    source = write_tikz(game_tree(game, algorithm="alphabeta"), out / "tikz_deep.tex")
    print(f"wrote {source}")
    if not (shutil.which("pdflatex") and shutil.which("pdftoppm")):
        print("note: pdflatex or pdftoppm missing: tikz_deep.png not made")
        return
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(source, folder)
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name],
            cwd=folder,
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "130",
                "-singlefile",
                "tikz_deep.pdf",
                str(out / "tikz_deep"),
            ],
            cwd=folder,
            check=True,
            timeout=120,
        )
    print(f"wrote {out / 'tikz_deep.png'}")


def interactive_figure(out: Path) -> None:
    """The editable page, and Chromium's screenshot of it after an edit and a fold."""
    game = load_game("textbook", tree=TEXTBOOK, labels="aima")
    page = write_interactive(
        game_tree(game, algorithm="alphabeta"), out / "interactive_textbook.html", game=game
    )
    print(f"wrote {page}")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("note: chromium missing: interactive_textbook.png not made")
        return
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=3000",
                "--window-size=760,395",
                f"--screenshot={out / 'interactive_textbook.png'}",
                page.resolve().as_uri() + "?autotest=click:1.0,edit:1.0=5,click:2",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    print(f"wrote {out / 'interactive_textbook.png'}")


def engine_figure(out: Path) -> None:
    """The engine's last iteration from a tic-tac-toe position with all three kinds of hit."""
    game = load_game("tictactoe")
    tree = engine_tree(game, game.parse_state(ENGINE_POSITION))
    for suffix in (".svg", ".png"):
        print(f"wrote {render_engine(tree, out / ('engine_tictactoe' + suffix))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    tikz_figure(args.out)
    interactive_figure(args.out)
    engine_figure(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
