"""The book's style in one switch: AIMA's letters and moves, titles and values, true minus signs."""

from __future__ import annotations

import re
from pathlib import Path

from games import load_game
from tests.viz.svg import needs_dot
from viz import game_tree, to_dot
from viz.model import figure
from viz.notation import MINUS
from viz.tikz import to_tikz

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


class TestBookValues:
    def test_cut_off_nodes_show_the_value_returned(self) -> None:
        """C and D show 2 as the book does (fail-soft default: ≤2); C's range [−∞, 2] (cut
        off), D's [2, 2] (all its leaves searched), as Figure 5.5 draws them."""
        tree = game_tree(load_game("textbook", labels="aima"), algorithm="alphabeta")
        book = figure(tree, style="aima", alpha_beta_labels=True)
        plain = figure(tree, alpha_beta_labels=True)
        by_name = {n.name: n for n in book.nodes.values() if n.name}
        assert (by_name["C"].value, by_name["D"].value) == ("2", "2")
        assert by_name["C"].range == "[−∞, 2]" and by_name["D"].range == "[2, 2]"
        assert by_name["D"].bound == "upper"  # what alpha-beta returned, drawn as such
        assert {n.value for n in plain.nodes.values() if n.name in ("C", "D")} == {"≤2"}

    def test_the_legend_explains_the_book_values_in_both_writers(self) -> None:
        """Graphviz and TikZ both say that 2 at a cut-off node stands for ≤2."""
        tree = game_tree(load_game("textbook", labels="aima"), algorithm="alphabeta")
        assert "the value it returned (2): a bound (≤2)" in to_dot(tree, style="aima")
        assert r"(2): a bound ($\leq$2)" in to_tikz(tree, style="aima")

    def test_book_titles(self) -> None:
        """The title reads as the book's figures do, not 'Alpha-beta on textbook from root'."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        source = to_dot(tree, style="aima")
        assert "Alpha–beta search of a two-ply game tree" in source
        assert "from root" not in source


class TestMinusSigns:
    def test_negamax_view_writes_one_kind_of_minus(self) -> None:
        """Every negative number in the negamax view uses U+2212, as −∞ does; no hyphen-minus."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        source = to_dot(tree, view="negamax", alpha_beta_labels=True)
        texts = " ".join(re.findall(r">([^<>]*)<", source))
        assert MINUS + "3" in texts and MINUS + "∞" in texts
        assert not re.search(r"-\d|-∞", texts)


@needs_dot
class TestStyleFromTheCommandLine:
    def test_one_switch_gives_letters_moves_titles_and_values(self, tmp_path: Path) -> None:
        """--style aima alone: a1 b1 moves, letters, the book's title and D = 2."""
        from zerosum.cli import main

        out = tmp_path / "t.dot"
        code = main(["tree", "textbook", "-a", "alphabeta", "--style", "aima", "-o", str(out)])
        text = out.read_text(encoding="utf-8")
        assert code == 0
        assert "label=<a1>" in text and "<B>D</B>" in text
        assert "Alpha–beta search of a two-ply game tree" in text
        assert "≤2" not in re.sub(r"\(≤2\)", "", text)

    def test_a_game_without_book_names_still_takes_the_style(self, tmp_path: Path) -> None:
        """Tic-tac-toe has no AIMA letters: --style aima gives the title and values only."""
        from zerosum.cli import main

        out = tmp_path / "t.dot"
        args = ["tree", "tictactoe", "--position", "xox/xo./o.x", "--style", "aima", "-o", str(out)]
        assert main(args) == 0
        assert "Minimax search of a" in out.read_text(encoding="utf-8")
