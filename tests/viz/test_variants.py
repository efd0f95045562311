"""Exam variants: one tree's shape, other leaf values, as many moves pruned, with a key."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from solver.game import Game
from tests.viz.test_tree_command import Run, run  # noqa: F401  (the fixture)
from viz import VizError, game_tree
from viz.exercises import variant_documents
from viz.notation import number
from viz.tikz import latex_text
from viz.variants import pruned_moves, variants

FIGURE_5_2 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def textbook(tree: Any) -> Game[Any, Any]:
    return load_game("textbook", tree=tree)


def shape(tree: Any) -> Any:
    return [shape(c) for c in tree] if isinstance(tree, list) else None


class TestVariants:
    def test_a_hand_checked_variant(self) -> None:
        """Seed 1, values 0..20: the first variant is [[20, 17, 0], [12, 6, 13], [0, 16, 7]].
        By hand: B = 0, so α = 0 at the root; C's leaves 12, 6, 13 are all above α (nothing
        pruned) and C = 6 raises α to 6; D's first leaf 0 ≤ α cuts 16 and 7: two moves pruned,
        as in Figure 5.2, value 6, best move 1."""
        first = variants(FIGURE_5_2, textbook, count=1, seed=1, values=(0, 20))[0]
        assert first == [[20, 17, 0], [12, 6, 13], [0, 16, 7]]
        tree = game_tree(textbook(first), algorithm="alphabeta")
        assert tree.pruned == 2 and tree.result.value == 6 and tree.result.best_action == 1

    def test_same_shape_same_cuts_all_different(self) -> None:
        """Every variant has the shape and the pruned count of the tree, and no two agree."""
        made = variants(FIGURE_5_2, textbook, count=6, seed=4)
        assert all(shape(t) == shape(FIGURE_5_2) for t in made)
        assert {pruned_moves(t, textbook) for t in made} == {2}
        assert len({str(t) for t in [FIGURE_5_2, *made]}) == 7

    def test_a_seed_gives_the_same_variants(self) -> None:
        first = variants(FIGURE_5_2, textbook, count=3, seed=9)
        assert variants(FIGURE_5_2, textbook, count=3, seed=9) == first
        assert variants(FIGURE_5_2, textbook, count=3, seed=10) != first

    def test_impossible_requests_say_why(self) -> None:
        """Too few values for the shape, or too few draws that prune alike: the message counts
        what there is and says what to do."""
        with pytest.raises(VizError, match=r"values 5 to 5 give only 0 other trees .* widen"):
            variants([[1, 2], [3, 4]], textbook, count=2, seed=0, values=(5, 5))
        # values 0, 1: of 16 trees only 6 prune nothing as [[1, 5], [9, 2]] does (B = 0, c = 1)
        with pytest.raises(VizError, match=r"only \d of 7 variants prune 0 moves .* 40 draws"):
            variants([[1, 5], [9, 2]], textbook, count=7, seed=0, values=(0, 1), tries=40)
        with pytest.raises(VizError, match="not a leaf"):
            variants(7, textbook, count=1, seed=0)
        with pytest.raises(VizError, match="invalid count 0"):
            variants(FIGURE_5_2, textbook, count=0, seed=0)


class TestExamSheet:
    def test_sheet_and_key(self) -> None:
        """One exercise per variant on the sheet (leaves only), each answered in the key with
        its own value and best move, and as many moves pruned as the tree."""
        sheet, key = variant_documents(FIGURE_5_2, textbook, count=3, seed=5)
        assert sheet.count(r"\subsection*{Variant") == 3 == key.count("2 moves pruned")
        answers = []
        for tree in variants(FIGURE_5_2, textbook, count=3, seed=5):
            drawn = game_tree(textbook(tree), algorithm="alphabeta")
            answers.append(
                latex_text(
                    f"value {number(drawn.result.value)}; "
                    f"best move {drawn.graph.graph['best_move']}; 2 moves pruned"
                )
            )
        assert answers == re.findall(r"subsection\*\{Variant \d\}([^\\]*)", key)
        assert answers[2] == "value $-$4; best move 2; 2 moves pruned"  # a negative value too


class TestCommand:
    """``gamesolver tree textbook --exercise --variants N -o sheet.tex``, seeded."""

    @pytest.fixture(autouse=True)
    def _no_pdflatex(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The LaTeX alone (pdflatex takes seconds; the sheet's PDF is tested elsewhere)."""
        monkeypatch.setattr("viz.exercises.shutil.which", lambda name: None)

    def test_writes_the_variants_and_the_key(
        self,
        run: Callable[..., Run],  # noqa: F811
        tmp_path: Path,
    ) -> None:
        """N variants of the given tree, the sheet the library's for that seed, and its key."""
        out = tmp_path / "exam.tex"
        tree = "[[3, 12, 8], [2, 4, 6]]"
        args = ("tree", "textbook", "--tree", tree, "--exercise", "--variants", "3")
        result = run(*args, "--seed", "5", "-o", str(out))
        assert result.code == 0, result.err
        aima = lambda t: load_game("textbook", tree=t, labels="aima")  # noqa: E731
        sheet, key = variant_documents([[3, 12, 8], [2, 4, 6]], aima, count=3, seed=5)
        assert out.read_text(encoding="utf-8") == sheet
        assert (tmp_path / "exam-key.tex").read_text(encoding="utf-8") == key
        assert sheet.count(r"\subsection*{Variant") == 3

    def test_the_seed_chooses_the_values(
        self,
        run: Callable[..., Run],  # noqa: F811
        tmp_path: Path,
    ) -> None:
        """Another seed, other variants; Figure 5.2's shape without --tree."""
        texts = []
        for seed in ("1", "2"):
            out = tmp_path / f"exam{seed}.tex"
            args = ("tree", "textbook", "--exercise", "--variants", "2", "--seed", seed)
            assert run(*args, "-o", str(out)).code == 0
            texts.append(out.read_text(encoding="utf-8"))
        assert texts[0] != texts[1] and all(t.count("Variant") == 2 for t in texts)

    def test_bad_requests(self, run: Callable[..., Run], tmp_path: Path) -> None:  # noqa: F811
        """Without --exercise, with chance, too many, or too few values: one-line errors."""
        out = str(tmp_path / "exam.tex")
        cases = {
            ("--variants", "2"): "tree textbook --exercise --variants 2 -o sheet.tex",
            (
                "--exercise",
                "--variants",
                "2",
                "--tree",
                "[{1/2: [1, 2], 1/2: [3, 4]}]",
            ): "without chance",
            ("--exercise", "--variants", "21"): "invalid count 21: make 1 to 20 variants",
            ("--exercise", "--variants", "5", "--tree", "[[1, 2]]", "--values", "0,1"): (
                "give only 3 other trees"
            ),
        }
        for extra, said in cases.items():
            result = run("tree", "textbook", *extra, "-o", out)
            assert result.code == 2 and said in result.err, result.err
        no_tex = run(
            "tree", "textbook", "--exercise", "--variants", "2", "-o", str(tmp_path / "x.svg")
        )
        assert no_tex.code == 2 and "give it -o FILE.tex" in no_tex.err
