"""Every game of ours draws a depth-2 tree; boards are read from any game's render text."""

from __future__ import annotations

import pytest

from games import BUILTIN_GAMES, load_game
from solver.chance import has_chance
from solver.game import CapabilityError, HasRender
from tests.tiny_games import TakeAway
from tests.viz.svg import needs_dot, parse
from viz import game_tree, to_dot, to_svg
from viz.boards import Row, read_board


@needs_dot
@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))  # ours, not plug-ins installed here
class TestEveryGame:
    def test_depth_two_tree_renders(self, name: str) -> None:
        """A depth-2 tree from the initial state draws every node, with boards when it can."""
        game = load_game(name)
        tree = game_tree(game, depth=2, algorithm="star1" if has_chance(game) else "alphabeta")
        boards = isinstance(game, HasRender)
        shapes = parse(to_svg(tree, boards=boards))
        drawn = {s.id for s in shapes.values() if "node" in s.classes and "level" not in s.classes}
        assert drawn == {f"n{n}" for n in tree.graph.nodes}
        assert tree.graph.nodes[tree.root]["value"] == tree.result.value


class TestBoardReading:
    def test_grid_with_separators(self) -> None:
        """A tic-tac-toe style grid drops its separator lines and keeps three rows."""
        board = read_board(" x | o | .\n---+---+---\n . | x | .\n---+---+---\n o | . | x")
        assert [r.cells for r in board.rows] == [("x", "o", "."), (".", "x", "."), ("o", ".", "x")]

    def test_labels_notes_header_and_captions(self) -> None:
        """Row labels, notes after the cells, a numbering header and captions are told apart."""
        text = "cell  0 1 2\nNorth 1 12 3 captured 4\nSouth 4 5 6 captured 0\nSouth to move"
        board = read_board(text)
        assert board.header == ("0", "1", "2")
        assert board.rows == (
            Row("North", ("1", "12", "3"), "captured 4"),
            Row("South", ("4", "5", "6"), "captured 0"),
        )
        assert board.above == () and board.below == ("South to move",)

    def test_text_without_a_grid_is_all_captions(self) -> None:
        """A render with no grid (the textbook tree's path) becomes caption lines."""
        board = read_board("A -a2-> C -c1-> leaf 1.0\nleaf value 2")
        assert board.rows == () and len(board.above) == 2

    def test_boards_need_render(self) -> None:
        """Asking for boards from a tree whose game cannot render them is a CapabilityError."""
        tree = game_tree(TakeAway(3))
        assert tree.result.value == -1  # a heap of three is lost for the player to move
        with pytest.raises(CapabilityError, match="game 'takeaway' has no render"):
            to_dot(tree, boards=True)
