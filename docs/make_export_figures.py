"""Generate the figures of docs/teaching.md's section on TikZ, the interactive page and the
engine's tree into docs/figures/ (nothing there is drawn by hand).

Run from the project root:  .venv/bin/python docs/make_export_figures.py  [--out docs/figures]

- ``tikz_deep.tex`` (TikZ source) and ``tikz_deep.png`` (compiled by pdflatex, converted by
  pdftoppm; skipped with a note when they are missing): alpha-beta on a depth-4 tree, windows,
  ranges and cuts beside the nodes;
- ``tikz_compact.tex`` and ``tikz_compact.png``: the lecture hall's compact slide (``--compact``)
  of a seeded depth-4, branching-3 tree, the whole tree on one 16:9 Beamer frame;
- ``tikz_beamer.tex``: AIMA Figure 5.5 as one Beamer frame whose overlays step through the
  search in the book's style; ``tikz_beamer_06.png`` and ``tikz_beamer_end.png`` two of its pages;
- ``tikz_exercise.tex`` / ``tikz_exercise_key.tex`` and their PNGs: a sheet with blanks for
  every value, range and window, and its answer key;
- ``interactive_textbook.html`` (the page) and ``interactive_textbook.png`` (headless Chromium's
  screenshot after the leaf c1 is edited from 2 to 5 and node D folded; skipped without it);
- ``interactive_chance.png``: Chromium's screenshot of docs/make_figures.py's
  ``chance_star2_interactive.html`` at step 12, Star2's probes of C done (run that script first);
- ``engine_tictactoe.svg`` and ``.png``: the engine's last iteration from ``o../x.x/ox.``.
- ``engine_iterations/iteration-NN.png``: every iteration of iterative deepening from
  ``xo./.xo/.x.``;
- ``engine_tikz.tex`` and ``.png`` (compiled): the engine's tree from ``o../x.x/ox.`` as TikZ,
  its table hits drawn as cylinders;
- ``engine_iterations_steps.html`` and ``engine_iterations_steps.png`` (Chromium's screenshot
  at iteration 2): the step-by-step page of the iterations;
- ``engine_iterations_interactive.html`` and ``engine_iterations_interactive.png`` (at
  iteration 4, fitted to the screen): the interactive page of the iterations.
"""

from __future__ import annotations

import argparse
import random
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
from viz.engine_tree import engine_iterations, engine_tree  # noqa: E402
from viz.export import render, write_engine_iterations  # noqa: E402
from viz.html import write_engine_html  # noqa: E402
from viz.interactive import write_engine_interactive  # noqa: E402

DEEP4 = [[[[3, 17], [2, 12]], [[15], [25, 0]]], [[[2, 5], [3]], [[2, 14]]]]
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
ENGINE_POSITION = "o../x.x/ox."


def compiled(source: Path, out: Path, pages: dict[int, str], runs: int = 1, dpi: int = 110) -> None:
    """Compile ``source`` with pdflatex and write the given pages as PNGs (page -> name)."""
    if not (shutil.which("pdflatex") and shutil.which("pdftoppm")):
        print(f"note: pdflatex or pdftoppm missing: {source.stem} not compiled")
        return
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(source, folder)
        for _ in range(runs):  # Beamer numbers its overlays on the second run
            subprocess.run(
                ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name],
                cwd=folder,
                check=True,
                capture_output=True,
                timeout=120,
            )
        pdf = source.with_suffix(".pdf").name
        for page, name in pages.items():
            pick = ("-f", str(page), "-l", str(page))
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    str(dpi),
                    "-singlefile",
                    *pick,
                    pdf,
                    str(out.resolve() / name),
                ],
                cwd=folder,
                check=True,
                timeout=120,
            )
            print(f"wrote {out / name}.png")


def tikz_figure(out: Path) -> None:
    """A depth-4 tree as TikZ with its windows, ranges and cuts beside the nodes."""
    game = load_game("textbook", tree=DEEP4)
    tree = game_tree(game, algorithm="alphabeta")
    source = write_tikz(tree, out / "tikz_deep.tex", alpha_beta_labels=True)
    print(f"wrote {source}")
    compiled(source, out, {1: "tikz_deep"})


def full_tree(rng: random.Random, depth: int) -> object:
    """A full tree of branching 3, leaves from −20 to 20."""
    return rng.randint(-20, 20) if depth == 0 else [full_tree(rng, depth - 1) for _ in range(3)]


def compact_figure(out: Path) -> None:
    """A whole depth-4, branching-3 tree on one 16:9 slide: the compact layout."""
    game = load_game("textbook", tree=full_tree(random.Random(1), 4))
    tree = game_tree(game, algorithm="alphabeta")
    source = write_tikz(tree, out / "tikz_compact.tex", compact=True)
    print(f"wrote {source}")
    compiled(source, out, {1: "tikz_compact"}, dpi=160)  # a projector's 1024 pixels wide


def beamer_figure(out: Path) -> None:
    """AIMA Figure 5.5 as one Beamer frame that steps (--beamer), two of its pages as PNGs."""
    game = load_game("textbook", tree=TEXTBOOK, labels="aima")
    tree = game_tree(game, algorithm="alphabeta")
    source = write_tikz(
        tree, out / "tikz_beamer.tex", alpha_beta_labels=True, overlays=True, style="aima"
    )
    print(f"wrote {source}")
    compiled(source, out, {6: "tikz_beamer_06", len(tree.steps) + 1: "tikz_beamer_end"}, runs=2)


def exercise_figure(out: Path) -> None:
    """An exercise sheet as TikZ, blanks for every value, range and window, and its key."""
    game = load_game("textbook", tree=TEXTBOOK, labels="aima")
    tree = game_tree(game, algorithm="alphabeta", pruned="values")
    for name, exercise in (("tikz_exercise", True), ("tikz_exercise_key", False)):
        source = write_tikz(tree, out / f"{name}.tex", alpha_beta_labels=True, exercise=exercise)
        print(f"wrote {source}")
        compiled(source, out, {1: name})


def screenshot(page: Path, query: str, png: Path, size: str) -> None:
    """Headless Chromium's screenshot of ``page`` opened with ``query`` (skipped without it)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print(f"note: chromium missing: {png.name} not made")
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
                f"--window-size={size}",
                f"--screenshot={png}",
                page.resolve().as_uri() + query,
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    print(f"wrote {png}")


def interactive_figure(out: Path) -> None:
    """The editable page, and Chromium's screenshot of it after an edit and a fold."""
    game = load_game("textbook", tree=TEXTBOOK, labels="aima")
    page = write_interactive(
        game_tree(game, algorithm="alphabeta"), out / "interactive_textbook.html", game=game
    )
    print(f"wrote {page}")
    query = "?autotest=click:1.0,edit:1.0=5,click:2,zoom:fit"
    screenshot(page, query, out / "interactive_textbook.png", "900,560")
    chance = out / "chance_star2_interactive.html"  # docs/make_figures.py writes it
    if chance.exists():
        query = "?autotest=step:12,zoom:fit"  # the whole tree beside the lit line
        screenshot(chance, query, out / "interactive_chance.png", "1500,560")
    else:
        print(
            f"note: {chance.name} missing (run docs/make_figures.py first): "
            "interactive_chance.png not made"
        )


def engine_figure(out: Path) -> None:
    """The engine's last iteration from a tic-tac-toe position with all three kinds of hit."""
    game = load_game("tictactoe")
    tree = engine_tree(game, game.parse_state(ENGINE_POSITION))
    for suffix in (".svg", ".png"):
        print(f"wrote {render(tree, out / ('engine_tictactoe' + suffix))}")


ITERATIONS_POSITION = "xo./.xo/.x."
"""A position whose best move changes between iterations (6 at depth 1, 8 from depth 2)."""


def iteration_figures(out: Path) -> None:
    """Iterative deepening step by step: each iteration's tree, the last best move first."""
    game = load_game("tictactoe")
    trees = engine_iterations(game, game.parse_state(ITERATIONS_POSITION))
    for path in write_engine_iterations(trees, out / "engine_iterations", format="png"):
        print(f"wrote {path}")


def iteration_pages(out: Path) -> None:
    """The engine's tree in TikZ (compiled), and iterative deepening on the two pages."""
    game = load_game("tictactoe")
    trees = engine_iterations(game, game.parse_state(ITERATIONS_POSITION))
    tikz = render(engine_tree(game, game.parse_state(ENGINE_POSITION)), out / "engine_tikz.tex")
    print(f"wrote {tikz}")
    compiled(tikz, out, {1: "engine_tikz"})
    steps = write_engine_html(trees, out / "engine_iterations_steps.html")
    print(f"wrote {steps}")
    screenshot(steps, "?frame=1", out / "engine_iterations_steps.png", "1400,900")
    page = write_engine_interactive(trees, out / "engine_iterations_interactive.html")
    print(f"wrote {page}")
    screenshot(
        page, "?autotest=step:3,zoom:fit", out / "engine_iterations_interactive.png", "1100,640"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    tikz_figure(args.out)
    compact_figure(args.out)
    beamer_figure(args.out)
    exercise_figure(args.out)
    interactive_figure(args.out)
    engine_figure(args.out)
    iteration_figures(args.out)
    iteration_pages(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
