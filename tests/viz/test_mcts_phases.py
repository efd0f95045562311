"""Tests for one MCTS iteration drawn in four panels as AIMA's Figure 5.10 (viz.mcts_phases).

The hand-checked example: the tree ``[[1, 1], [-1, -1]]`` (A is MAX; B and C are MIN; every
leaf under B is MAX's win, every leaf under C MIN's), so each playout's winner is known
whatever the random moves. Iteration 1 expands B (MAX wins), 2 expands C (MIN wins); then B's
mean 1 beats C's -1 at equal exploration, so iterations 3 and 4 select B and expand its two
leaves (MAX wins both). After 4: A 1/4 (MIN, who "moved into" the root, won once), B 3/3,
C 0/1, and B's leaves 0/1 each (MIN moved into them and lost).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from games import load_game
from tests.viz.svg import needs_dot
from tests.viz.test_tree_command import Run, run  # noqa: F401  (the fixture)
from viz.build import game_tree
from viz.errors import VizError
from viz.mcts_phases import PANELS, phase_counts, phases_dot
from viz.mcts_tree import mcts_tree
from viz.model import figure

HAND_CHECKED = "[[1, 1], [-1, -1]]"


def hand_checked(iterations: int = 4) -> object:
    return mcts_tree(load_game("textbook", tree=HAND_CHECKED), iterations=iterations, seed=7)


class TestCounts:
    """Each panel's wins/playouts are the hand-checked ones."""

    def test_the_four_panels_of_iteration_four(self) -> None:
        """Before: A 1/3, B 2/2; the new leaf 0/0; after back-propagation A 1/4, B 3/3."""
        panels = dict(phase_counts(hand_checked(), 4))  # type: ignore[arg-type]
        assert list(panels) == list(PANELS)
        assert panels["selection"] == {0: "1/3", 1: "2/2", 2: "0/1", 3: "0/1"}
        assert panels["expansion"] == {**panels["selection"], 4: "0/0"}
        assert panels["back-propagation"] == {0: "1/4", 1: "3/3", 2: "0/1", 3: "0/1", 4: "0/1"}

    def test_any_seed_gives_the_same_counts(self) -> None:
        """The winners do not depend on the random moves: every seed gives these counts."""
        for seed in range(5):
            tree = mcts_tree(load_game("textbook", tree=HAND_CHECKED), iterations=4, seed=seed)
            assert phase_counts(tree, 4)[3][1][0] == "1/4"

    def test_the_book_style_writes_wins_over_playouts(self) -> None:
        """--style aima: each node of the tree shows wins/playouts, the default W/N."""
        tree = hand_checked()
        book = figure(tree, style="aima")  # type: ignore[arg-type]
        assert [book.nodes[n].value for n in range(3)] == ["1/4", "3/3", "0/1"]
        assert figure(tree).nodes[1].value == "W/N 3/3"  # type: ignore[arg-type]


class TestDrawing:
    """The selected path is thick, the playout a dashed path of its moves to the result."""

    def test_playout_is_a_dashed_path_of_its_moves(self) -> None:
        """Iteration 1's playout from B: one dashed move to the game's end, utility 1."""
        source = phases_dot(hand_checked(), 1)  # type: ignore[arg-type]
        dashed = re.findall(r"p2_(\w+) -> p2_(\w+) \[([^\]]*)\]", source)
        chain = [(u, v) for u, v, attrs in dashed if 'style="dashed"' in attrs]
        assert chain == [("1", "playout0"), ("playout0", "result")]
        assert 'label="utility 1"' in source

    def test_selected_path_and_backup_are_marked(self) -> None:
        """Iteration 4 walks A -> B -> the new leaf; back-propagation points up, counts bold."""
        source = phases_dot(hand_checked(), 4)  # type: ignore[arg-type]
        assert re.search(r'p0_0 -> p0_1 \[[^\]]*penwidth="3"', source)
        assert re.search(r'p0_0 -> p0_2 \[[^\]]*penwidth="1"', source)
        assert re.search(r'p3_1 -> p3_4 \[[^\]]*dir="back"', source)
        assert "<B>3/3</B>" in source and "p0_4" not in source  # not yet in the tree

    def test_only_mcts_trees_and_their_iterations(self) -> None:
        """Another tree, or an iteration the search did not run, is refused by name."""
        with pytest.raises(VizError, match="Monte Carlo"):
            phases_dot(game_tree(load_game("textbook")), 1)
        with pytest.raises(VizError, match="invalid iteration 5: the search ran 4, use 1 to 4"):
            phases_dot(hand_checked(), 5)  # type: ignore[arg-type]


@needs_dot
class TestCommand:
    """``tree -a mcts --phases K -o FILE``."""

    def test_writes_the_picture(self, run: Callable[..., Run], tmp_path: Path) -> None:  # noqa: F811
        """The SVG holds the four panels' titles and the back-propagated counts."""
        out = tmp_path / "phases.svg"
        tree = ("tree", "textbook", "--tree", HAND_CHECKED, "-a", "mcts", "--iterations", "4")
        result = run(*tree, "--phases", "4", "-o", str(out))
        assert result.code == 0, result.err
        svg = out.read_text(encoding="utf-8")
        assert "(d) back&#45;propagation" in svg and "1/4" in svg and "3/3" in svg

    def test_bad_requests(self, run: Callable[..., Run], tmp_path: Path) -> None:  # noqa: F811
        """Too late an iteration, another search or a JSON file: one-line errors."""
        out = str(tmp_path / "p.svg")
        late = run(
            "tree", "textbook", "-a", "mcts", "--iterations", "3", "--phases", "4", "-o", out
        )
        assert late.code == 2 and "the search ran 3 iterations, use 1 to 3" in late.err
        other = run("tree", "textbook", "--phases", "1", "-o", out)
        assert other.code == 2 and "give -a mcts" in other.err
        json = run(
            "tree", "textbook", "-a", "mcts", "--phases", "1", "-o", str(tmp_path / "p.json")
        )
        assert json.code == 2 and "must end in .svg" in json.err
        page = str(tmp_path / "steps.html")
        both = run("tree", "textbook", "-a", "mcts", "--phases", "1", "-o", out, "--html", page)
        assert both.code == 2 and "in another run" in both.err
