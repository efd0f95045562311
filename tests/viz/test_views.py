"""Part of a tree for a slide: the top levels only, or one subtree, with the cut marked."""

from __future__ import annotations

import random

import pytest

from games import load_game
from tests.viz.svg import fitted_text_size, needs_dot
from viz import VizError, game_tree, to_dot
from viz.build import GameTree
from viz.graphviz import pipe
from viz.tikz import to_tikz
from viz.views import cut_view


def full_tree(rng: random.Random, depth: int) -> object:
    """A full tree of branching 3 (the lecture hall's depth-4 example)."""
    return rng.randint(-20, 20) if depth == 0 else [full_tree(rng, depth - 1) for _ in range(3)]


@pytest.fixture(scope="module")
def deep() -> GameTree:
    game = load_game("textbook", tree=full_tree(random.Random(1), 4))
    return game_tree(game, algorithm="alphabeta")


def kinds(tree: GameTree) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, data in tree.graph.nodes(data=True):
        out[data["kind"]] = out.get(data["kind"], 0) + 1
    return out


class TestTopLevels:
    def test_two_levels_of_a_depth_4_tree(self, deep: GameTree) -> None:
        """The top two plies stay (1 + 3 + 9 nodes); below each of the nine a summary node
        counts the 3 + 9 positions it stands for; every drawn node keeps its value and bound."""
        top = cut_view(deep, levels=2)
        summaries = [d for _, d in top.graph.nodes(data=True) if d["kind"] == "summary"]
        assert top.graph.number_of_nodes() == 13 + 9 and len(summaries) == 9
        assert {d["positions"] for d in summaries} == {12}
        assert top.graph.graph["cut_view"]["hidden"] == 108 == deep.graph.number_of_nodes() - 13
        for node, data in top.graph.nodes(data=True):
            if data["kind"] != "summary":
                original = deep.graph.nodes[node]
                assert (data["value"], data["bound"]) == (original["value"], original["bound"])

    def test_every_level_is_the_whole_tree(self, deep: GameTree) -> None:
        """Cutting below the deepest level leaves the tree as it was, with no summary."""
        assert kinds(cut_view(deep, levels=4)) == kinds(deep)
        assert cut_view(deep, levels=4).graph.graph["cut_view"]["hidden"] == 0

    def test_the_source_tree_is_untouched(self, deep: GameTree) -> None:
        """The view is a copy: the drawn tree keeps all its nodes."""
        before = deep.graph.number_of_nodes()
        cut_view(deep, levels=1)
        assert deep.graph.number_of_nodes() == before


class TestSubtree:
    def test_the_subtree_after_a_move(self, deep: GameTree) -> None:
        """After move 0 from the root: that node (B) and the 39 below it, rooted there."""
        sub = cut_view(deep, path=["0"])
        assert sub.root != deep.root and sub.graph.nodes[sub.root]["name"] == "B"
        assert sub.graph.number_of_nodes() == 40 and "summary" not in kinds(sub)

    def test_subtree_and_levels_together(self, deep: GameTree) -> None:
        """B and its two plies below; the 27 leaves under them are summarised in nine boxes."""
        sub = cut_view(deep, path=["0"], levels=2)
        assert kinds(sub)["summary"] == 9 and sub.graph.graph["cut_view"]["hidden"] == 27

    def test_a_wrong_move_names_the_moves_there(self, deep: GameTree) -> None:
        with pytest.raises(
            VizError, match=r"no move '7' after 0 in the drawn tree; moves there: 0, 1, 2"
        ):
            cut_view(deep, path=["0", "7"])

    def test_levels_below_one_are_refused(self, deep: GameTree) -> None:
        with pytest.raises(VizError, match="invalid levels 0"):
            cut_view(deep, levels=0)


class TestDrawn:
    def test_graphviz_marks_the_cut(self, deep: GameTree) -> None:
        """Each summary is a dotted box, the caption says what is drawn and the legend what
        the box means."""
        source = to_dot(cut_view(deep, levels=2))
        assert source.count("positions") >= 9 and 'style="rounded,dotted"' in source
        assert "drawn: the top, 2 plies deep; 108 positions below not drawn" in source
        assert "the tree goes on below, not drawn here" in source
        assert "not drawn\\ndepth 3" in source and "leaves" not in source

    def test_tikz_draws_the_subtree(self, deep: GameTree) -> None:
        """TikZ draws the view from its own root, the summaries included."""
        source = to_tikz(cut_view(deep, path=["2"], levels=1), standalone=False)
        assert "positions" in source and "drawn: D, 1 ply deep" in source

    @needs_dot
    def test_the_top_levels_are_larger_on_a_slide(self, deep: GameTree) -> None:
        """Fitted into a 16:9 Beamer frame (453.5 x 255.1 pt), the top two plies' node texts
        are at least 6 pt, more than four times the whole tree's 1.3 pt."""
        whole = fitted_text_size(pipe(to_dot(deep, legend=False, unscaled=True), "svg").decode())
        view = cut_view(deep, levels=2)
        top = fitted_text_size(pipe(to_dot(view, legend=False, unscaled=True), "svg").decode())
        assert top >= 4 * whole and top >= 6
