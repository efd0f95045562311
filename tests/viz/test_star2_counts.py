"""*-minimax drawn whole: on random chance trees every position of the tree is drawn (searched,
or greyed as never searched, a Star2 probe's unsearched moves too), the moves pruned are the
greyed subtrees' tops, and the nodes saved are the tree's nodes less the nodes searched."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games import load_game
from solver.expectiminimax import expectiminimax
from viz import game_tree
from viz.pseudocode import PSEUDOCODE, step_lines

HALF = Fraction(1, 2)


def decision(depth: int) -> st.SearchStrategy[Any]:
    """A MAX or MIN node: a leaf in [-2, 2], or 1 to 3 moves (to a chance node or deeper)."""
    leaf = st.integers(-2, 2)
    if depth == 0:
        return leaf
    return st.one_of(leaf, st.lists(chance(depth - 1), min_size=1, max_size=3))


def chance(depth: int) -> st.SearchStrategy[Any]:
    """A chance node of two or three outcomes (1/2 1/2, or 1/4 1/4 1/2), or a plain move."""
    below = decision(depth)
    two = st.tuples(below, below).map(lambda k: {"p": (HALF, HALF), "kids": k})
    three = st.tuples(below, below, below).map(
        lambda k: {"p": (Fraction(1, 4), Fraction(1, 4), HALF), "kids": k}
    )
    return st.one_of(two, three, below) if depth else below


def text(tree: Any) -> str:
    """The tree in --tree syntax: [...] a decision node, {p: subtree, ...} a chance node."""
    if isinstance(tree, int):
        return str(tree)
    if isinstance(tree, dict):
        parts = (f"{p}: {text(k)}" for p, k in zip(tree["p"], tree["kids"], strict=True))
        return "{" + ", ".join(parts) + "}"
    return "[" + ", ".join(text(k) for k in tree) + "]"


def paths(game: Any, state: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every position of the tree, by its moves from the root."""
    out = {path}
    for action in game.actions(state):
        move = game.format_action(state, action)
        out |= paths(game, game.result(state, action), (*path, move))
    return out


TREES = st.lists(chance(2), min_size=2, max_size=3).map(text)


class TestStarTreesDrawnWhole:
    @settings(max_examples=25, derandomize=True, deadline=None)
    @given(tree=TREES, algorithm=st.sampled_from(["star1", "star2"]))
    # an outcome probed whole (one move), then pruned in the full pass: drawn twice, saved 0
    @example(tree="[{1/2: 0, 1/2: 1}, {1/2: 0, 1/2: [{1/2: 0, 1/2: 0}]}]", algorithm="star2")
    def test_every_position_drawn_and_counted(self, tree: str, algorithm: str) -> None:
        """Drawn positions = the tree's; never entered = drawn grey; saved = tree − searched;
        the pseudocode line of every step is one of the page's lines."""
        game = load_game("textbook", tree=tree)
        drawn = game_tree(game, algorithm=algorithm, bounds=(-2, 2))
        nodes = drawn.graph.nodes
        everything = paths(game, game.initial_state())
        shown = {tuple(d["path"]) for _, d in nodes(data=True)}
        entered = {tuple(d["path"]) for _, d in nodes(data=True) if d["kind"] == "node"}
        grey = {tuple(d["path"]) for _, d in nodes(data=True) if d["kind"] == "pruned"}
        assert shown == everything, tree
        assert everything - entered <= grey, tree
        assert drawn.saved == len(everything) - drawn.searched, tree
        tops = [
            n
            for n, d in nodes(data=True)
            if d["kind"] == "pruned"
            and nodes[next(iter(drawn.graph.predecessors(n)))]["kind"] == "node"
        ]
        assert drawn.pruned == len(tops), tree
        assert drawn.result.value == expectiminimax(game, game.initial_state()).value
        keys = {key for key, _ in PSEUDOCODE[algorithm] if key}
        assert set(step_lines(drawn)[1:]) <= keys, tree


COINS = "[{1/2: [6, 6], 1/2: [6, 5]}, {1/2: [4, 5], 1/2: [7, 3]}, {1/2: [9, 8], 1/2: [2, 0]}]"
"""The docs' coin tree: Star2's probes of G, H (and I, J) cut C (and D)."""


class TestTheDocsTrees:
    def test_star2_saves_four_of_fifteen(self) -> None:
        """The tree of 15 nodes: Star2 searches 11, so saves 4; F's second move and G unsearched."""
        tree = "[{1/2: [2, 2], 1/2: [1, 2]}, {1/2: [0, 2], 1/2: [-1, 0]}]"
        drawn = game_tree(load_game("textbook", tree=tree), algorithm="star2", bounds=(-2, 2))
        assert (drawn.searched, drawn.pruned, drawn.saved) == (11, 2, 4)
        assert drawn.graph.number_of_nodes() == 15

    def test_coin_tree_probes_leave_four_moves_unsearched(self) -> None:
        """Star2 on the coin tree: 22 nodes drawn, 18 searched, 4 moves pruned (G, H, I, J's
        second moves), 4 saved; each probe lights the probe line, each cut the probe's cut."""
        drawn = game_tree(load_game("textbook", tree=COINS), algorithm="star2", bounds=(0, 10))
        assert drawn.graph.number_of_nodes() == 22
        assert (drawn.searched, drawn.pruned, drawn.saved) == (18, 4, 4)
        lines = step_lines(drawn)
        assert [lines[k] for k in (9, 11, 12, 13, 17, 18, 19)] == ["probe"] * 2 + [
            "probe-cut"
        ] * 2 + ["probe", "probe-cut", "probe-cut"]

    def test_star1_cut_at_a_chance_node_lights_the_cut_line(self) -> None:
        """Star1 on the coin tree: C and D return through the cut test, not Σ p_i·v_i."""
        drawn = game_tree(load_game("textbook", tree=COINS), algorithm="star1", bounds=(0, 10))
        lines = step_lines(drawn)
        assert (lines[14], lines[21]) == ("chance-cut", "chance-cut")
        assert (lines[12], lines[13], lines[22]) == ("min-cut", "min-cut", "max-return")
