"""Seeded random exercise sheets: the trees asked for, one sheet and its key, compiled to PDF."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from solver.minimax import minimax
from viz import VizError, game_tree
from viz.exercises import ExerciseSet, random_trees, sheet_documents, write_sheet
from viz.notation import number


def textbook(tree: Any) -> Any:
    return load_game("textbook", tree=tree, labels="aima")


def shape(tree: Any, depth: int = 0) -> list[tuple[int, int]]:
    """(depth, children) for every inner node; leaves as (depth, -1)."""
    if not isinstance(tree, list):
        return [(depth, -1)]
    return [(depth, len(tree))] + [s for child in tree for s in shape(child, depth + 1)]


def leaves(tree: Any) -> list[int]:
    return [v for c in tree for v in leaves(c)] if isinstance(tree, list) else [tree]


class TestRandomTrees:
    def test_the_same_seed_gives_the_same_trees(self) -> None:
        """A seed names a sheet: drawing it twice gives the same trees."""
        draw = {"count": 3, "branching": (1, 3), "depth": 3, "values": (-5, 5)}
        assert random_trees(random.Random(9), **draw) == random_trees(random.Random(9), **draw)

    def test_trees_have_the_shape_asked_for(self) -> None:
        """Every inner node has 2-3 children, every leaf is 3 plies down, values in -4..7."""
        for seed in range(40):
            for tree in random_trees(
                random.Random(seed), count=3, branching=(2, 3), depth=3, values=(-4, 7)
            ):
                for depth, children in shape(tree):
                    assert (depth == 3) == (children == -1)
                    assert children == -1 or 2 <= children <= 3
                assert all(-4 <= v <= 7 for v in leaves(tree))

    def test_bad_requests_are_refused_with_the_reason(self) -> None:
        """Too many leaves for a page, an empty value range or no exercises are refused."""
        with pytest.raises(VizError, match="more than 64 fit on a page"):
            ExerciseSet(seed=1, branching=(4, 5), depth=4)
        with pytest.raises(VizError, match="invalid values"):
            ExerciseSet(seed=1, values=(5, 1))
        with pytest.raises(VizError, match="1 to 20 exercises"):
            ExerciseSet(seed=1, count=0)


class TestSheetAndKey:
    def test_key_answers_what_minimax_finds(self) -> None:
        """The key's value for each exercise is the tree's minimax value."""
        spec = ExerciseSet(seed=3, count=5, branching=(2, 3), depth=2)
        trees = random_trees(
            random.Random(3), count=5, branching=(2, 3), depth=2, values=spec.values
        )
        sheet, key = sheet_documents(spec, textbook)
        assert sheet.count(r"\subsection*{Exercise") == key.count(r"\subsection*{Exercise") == 5
        answers = re.findall(r"\\subsection\*\{Exercise \d+\}value (\S+?);", key)
        expected = [minimax(load_game("textbook", tree=t), ()).value for t in trees]
        assert answers == [
            number(v).replace("−", "$-$") for v in expected
        ]  # the key writes a true minus, as LaTeX math

    def test_ordering_question_and_its_answers(self) -> None:
        """With the ordering question the key gives each order's pruned count, as searched."""
        spec = ExerciseSet(seed=5, count=2, branching=(2, 3), depth=3, ordering_question=True)
        trees = random_trees(
            random.Random(5), count=2, branching=(2, 3), depth=3, values=spec.values
        )
        sheet, key = sheet_documents(spec, textbook)
        assert sheet.count("Which order of the moves prunes the most") == 2
        found = re.findall(r"searching them given (\d+), best (\d+), worst (\d+)", key)
        for tree, counts in zip(trees, found, strict=True):
            game = load_game("textbook", tree=tree)
            expected = tuple(
                str(game_tree(game, algorithm="alphabeta", ordering=o).pruned)
                for o in ("given", "best", "worst")
            )
            assert counts == expected

    def test_sheet_shows_leaves_only_and_the_key_the_answers(self) -> None:
        """The sheet hides the answers (no bounds, no cuts); the key has them."""
        sheet, key = sheet_documents(
            ExerciseSet(seed=2, count=3, branching=(2, 3), depth=2), textbook
        )
        assert r"{\leq}" not in sheet and r"\color{cut}" not in sheet
        assert r"\rule{1.4cm}" in sheet  # blanks: these small trees have room on A4
        assert r"\color{cut}" in key or r"{\leq}" in key or r"{\geq}" in key


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
class TestPrintable:
    def test_sheet_and_key_compile_to_pdf(self, tmp_path: Path) -> None:
        """write_sheet writes the two .tex files and their PDFs."""
        spec = ExerciseSet(seed=7, count=4, branching=(2, 3), depth=3, ordering_question=True)
        written = write_sheet(spec, textbook, tmp_path / "sheet.tex")
        assert [p.name for p in written] == [
            "sheet.tex",
            "sheet.pdf",
            "sheet-key.tex",
            "sheet-key.pdf",
        ]
        assert all(p.read_bytes()[:4] in (b"%PDF", b"\\doc") for p in written)
