"""A class's worth of alpha-beta exercises: seeded random trees on one printable sheet and its key.

:func:`random_trees` draws game trees (nested lists of leaf values, as the ``textbook`` game
takes them) from a seeded :class:`random.Random`, so a seed gives the same sheet every time.
:func:`sheet_documents` writes the LaTeX of the sheet (every exercise drawn as an exercise by
:func:`viz.tikz.to_tikz`: the leaves' values, blanks for the rest, each picture shrunk to the
A4 page's width only if it must be) and of the key (the same trees, answered). With
``ordering_question`` each exercise also asks which order of the moves prunes most, and the key
gives what alpha-beta prunes searching the moves as given, best first and worst first.
:func:`write_sheet` writes both ``.tex`` files and, where ``pdflatex`` is installed, their PDFs.

Knows no game (viz imports only the solver): the caller passes ``make_game``, which turns a
nested list of leaf values into a game, e.g. ``lambda t: load_game("textbook", tree=t)``.

>>> import random
>>> random_trees(random.Random(1), count=2, branching=(2, 2), depth=2, values=(0, 9))
[[[4, 1], [7, 7]], [[1, 7], [6, 6]]]
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from solver.game import Game
from solver.output import write_bytes, write_text
from viz.build import game_tree
from viz.errors import VizError
from viz.model import blanks_fit_a4
from viz.notation import number
from viz.ordering import ORDERINGS
from viz.tikz import latex_text, to_tikz
from viz.variants import variants

__all__ = [
    "ExerciseSet",
    "random_trees",
    "sheet_documents",
    "variant_documents",
    "write_sheet",
    "write_variants",
]

MOST_LEAVES = 64
"""The most leaves an exercise may have: more cannot be read on a page."""


@attrs.frozen
class ExerciseSet:
    """What to generate: ``count`` trees of ``depth`` plies, ``branching`` (fewest, most)
    children a node, leaf values in ``values`` (lowest, highest), from ``seed``.

    Raises:
        VizError: a count, depth, branching or value range that cannot make a sheet.

    >>> ExerciseSet(seed=7, count=3, branching=(2, 3), depth=2).depth
    2
    """

    seed: int
    count: int = 4
    branching: tuple[int, int] = (2, 3)
    depth: int = 2
    values: tuple[int, int] = (-9, 20)
    ordering_question: bool = False

    def __attrs_post_init__(self) -> None:
        low, high = self.branching
        if not 1 <= self.count <= 20:
            raise VizError(f"invalid count {self.count!r}: a sheet holds 1 to 20 exercises")
        if not 1 <= self.depth <= 5:
            raise VizError(f"invalid depth {self.depth!r}: use 1 to 5 plies")
        if not 1 <= low <= high <= 5:
            raise VizError(
                f"invalid branching {self.branching!r}: use (fewest, most) children, 1 to 5"
            )
        if high**self.depth > MOST_LEAVES:
            raise VizError(
                f"branching up to {high} at depth {self.depth} may give {high**self.depth} "
                f"leaves, more than {MOST_LEAVES} fit on a page; lower the branching or depth"
            )
        if self.values[0] > self.values[1]:
            raise VizError(f"invalid values {self.values!r}: use (lowest, highest)")


def random_trees(
    rng: random.Random,
    *,
    count: int,
    branching: tuple[int, int],
    depth: int,
    values: tuple[int, int],
) -> list[Any]:
    """``count`` trees: every node at most ``depth`` plies deep has ``branching`` children,
    every leaf (at ``depth``) a value in ``values``; all drawn from ``rng``.

    >>> random_trees(random.Random(3), count=1, branching=(1, 2), depth=1, values=(5, 5))
    [[5]]
    """

    def grow(level: int) -> Any:
        if level == depth:
            return rng.randint(*values)
        return [grow(level + 1) for _ in range(rng.randint(*branching))]

    return [grow(0) for _ in range(count)]


_PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\usepackage[a4paper, margin=20mm]{geometry}
\usepackage{tikz}
\pagestyle{empty}
\setlength{\parindent}{0pt}
\newsavebox{\exercisebox}
% a picture at its natural size, or shrunk to the text width if it is wider
\newcommand{\fitted}[1]{\sbox{\exercisebox}{#1}%
  \ifdim\wd\exercisebox>\linewidth\resizebox{\linewidth}{!}{\usebox{\exercisebox}}%
  \else\usebox{\exercisebox}\fi}
\begin{document}
"""


MakeGame = Callable[[Any], Game[Any, Any]]
"""Builds the game of one tree (a nested list of leaf values)."""


def sheet_documents(spec: ExerciseSet, make_game: MakeGame) -> tuple[str, str]:
    """The LaTeX of the sheet and of its key.

    >>> from games import load_game
    >>> textbook = lambda t: load_game("textbook", tree=t, labels="aima")
    >>> spec = ExerciseSet(seed=1, count=2, depth=2, branching=(2, 2))
    >>> sheet, key = sheet_documents(spec, textbook)
    >>> sheet.count(r"\\subsection*{Exercise"), "Answers" in key
    (2, True)
    """
    trees = random_trees(
        random.Random(spec.seed),
        count=spec.count,
        branching=spec.branching,
        depth=spec.depth,
        values=spec.values,
    )
    head = (
        f"{spec.count} trees of {spec.depth} plies, seed {spec.seed}: search each with "
        "alpha-beta, the moves left to right."
    )
    return _documents(trees, head, make_game, ordering_question=spec.ordering_question)


def variant_documents(
    shape: Any,
    make_game: MakeGame,
    *,
    count: int,
    seed: int,
    values: tuple[int, int] = (-9, 20),
) -> tuple[str, str]:
    """The LaTeX of an exam sheet and its key: ``count`` variants of one tree
    (:func:`viz.variants.variants`: its shape, as many moves pruned, other values), one per
    group or per seat, each with its answer in the key.

    Raises:
        VizError: as :func:`viz.variants.variants`.

    >>> from games import load_game
    >>> textbook = lambda t: load_game("textbook", tree=t)
    >>> sheet, key = variant_documents([[3, 12, 8], [2, 4, 6]], textbook, count=3, seed=2)
    >>> sheet.count(r"\\subsection*{Variant"), key.count("2 moves pruned")
    (3, 3)
    """
    trees = variants(shape, make_game, count=count, seed=seed, values=values)
    head = (
        f"{count} variants of one tree, seed {seed}: the same shape and as many moves pruned, "
        "other values. Search yours with alpha-beta, the moves left to right."
    )
    return _documents(trees, head, make_game, ordering_question=False, label="Variant")


def _documents(
    trees: list[Any],
    head: str,
    make_game: MakeGame,
    *,
    ordering_question: bool,
    label: str = "Exercise",
) -> tuple[str, str]:
    """The sheet and the key of ``trees``, under the heading ``head``."""
    sheet, key = [_PREAMBLE], [_PREAMBLE]
    sheet.append(r"\section*{Alpha-beta exercises}" + latex_text(head) + "\n\n")
    key.append(r"\section*{Alpha-beta exercises: Answers}" + latex_text(head) + "\n\n")
    for index, shape in enumerate(trees, start=1):
        game = make_game(shape)
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        windows = blanks_fit_a4(tree.graph)
        looks: dict[str, Any] = {"standalone": False, "caption": False, "alpha_beta_labels": True}
        task = (
            "Fill in every inner node's value"
            + (", its range [lo, hi] and its window (α, β)" if windows else "")
            + "; cross out the branches alpha-beta never visits."
        )
        if ordering_question:
            task += " Which order of the moves prunes the most, and how many moves does it prune?"
        sheet.append(
            _kept_together(
                rf"\subsection*{{{label} {index}}}{latex_text(task)}\par\medskip" + "\n"
                r"\fitted{" + to_tikz(tree, exercise=True, **looks) + "}"
            )
        )
        answer = f"value {number(tree.result.value)}; best move {tree.graph.graph['best_move']}"
        answer += f"; {tree.pruned} {'move' if tree.pruned == 1 else 'moves'} pruned"
        if ordering_question:
            counts = [
                f"{name} {game_tree(game, algorithm='alphabeta', ordering=name).pruned}"
                for name in ORDERINGS
            ]
            answer += "; moves pruned searching them " + ", ".join(counts)
        key.append(
            _kept_together(
                rf"\subsection*{{{label} {index}}}{latex_text(answer)}\par\medskip" + "\n"
                r"\fitted{" + to_tikz(tree, **looks) + "}"
            )
        )
    return "".join(sheet) + r"\end{document}" + "\n", "".join(key) + r"\end{document}" + "\n"


def _kept_together(body: str) -> str:
    """An exercise that a page break never splits (its heading stays with its tree)."""
    return r"\begin{minipage}{\linewidth}" + body + "\n\\end{minipage}\\par\\bigskip\n\n"


def write_sheet(
    spec: ExerciseSet,
    make_game: MakeGame,
    path: str | os.PathLike[str],
    *,
    overwrite: bool = True,
) -> list[Path]:
    """Write the sheet to ``path`` (``.tex``) and its key beside it (``-key.tex``), each also
    as a PDF when ``pdflatex`` is installed; return the files written.

    Raises:
        OutputError: a file cannot be written, or exists and ``overwrite`` is False.
        VizError: pdflatex failed (the message quotes its error).
    """
    return _write_pair(sheet_documents(spec, make_game), path, overwrite)


def write_variants(
    shape: Any,
    make_game: MakeGame,
    path: str | os.PathLike[str],
    *,
    count: int,
    seed: int,
    values: tuple[int, int] = (-9, 20),
    overwrite: bool = True,
) -> list[Path]:
    """Write :func:`variant_documents` to ``path`` (``.tex``) and its key beside it
    (``-key.tex``), each also as a PDF when ``pdflatex`` is installed; return the files.

    Raises:
        VizError: as :func:`viz.variants.variants`, or pdflatex failed.
        OutputError: a file cannot be written, or exists and ``overwrite`` is False.
    """
    documents = variant_documents(shape, make_game, count=count, seed=seed, values=values)
    return _write_pair(documents, path, overwrite)


def _write_pair(
    documents: tuple[str, str], path: str | os.PathLike[str], overwrite: bool
) -> list[Path]:
    """A sheet and its key as ``path`` (``.tex``) and ``-key.tex``, and PDFs by pdflatex."""
    target = Path(path).with_suffix(".tex")
    sheet, key = documents
    written = []
    for tex, text in ((target, sheet), (target.with_name(target.stem + "-key.tex"), key)):
        written.append(write_text(tex, text, overwrite=overwrite))
        if shutil.which("pdflatex"):
            written.append(_pdf(tex, text, overwrite))
    return written


def _pdf(tex: Path, text: str, overwrite: bool) -> Path:
    """``text`` compiled by pdflatex in a scratch folder, written beside ``tex`` as a PDF."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "sheet.tex")
        source.write_text(text, encoding="utf-8")
        done = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            error = next((line for line in done.stdout.splitlines() if line.startswith("!")), "")
            raise VizError(f"pdflatex could not compile {tex.name}: {error or 'see its log'}")
        return write_bytes(
            tex.with_suffix(".pdf"), Path(folder, "sheet.pdf").read_bytes(), overwrite=overwrite
        )
