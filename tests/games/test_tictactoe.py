"""Both tic-tac-toes: known counts, move-for-move agreement, notation, heuristics, symmetries."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from games import load_game
from games.tictactoe import LINES, TicTacToe
from games.tictactoe_bitboard import BitboardTicTacToe
from solver.game import IllegalActionError, InvalidStateError

READABLE = TicTacToe()
BITBOARD = BitboardTicTacToe()


def reachable(game: Any) -> list[Any]:
    """Every state reachable from the initial state, breadth-first."""
    start = game.initial_state()
    seen = {start}
    order = [start]
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in game.actions(state):
            child = game.result(state, action)
            if child not in seen:
                seen.add(child)
                order.append(child)
                queue.append(child)
    return order


@pytest.fixture(scope="module")
def readable_states() -> list[Any]:
    return reachable(READABLE)


@pytest.fixture(scope="module")
def bitboard_states() -> list[Any]:
    return reachable(BITBOARD)


class TestKnownCounts:
    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_5478_reachable_states_958_terminal(self, game: Any) -> None:
        """Each game reaches 5,478 states from the empty board, 958 of them terminal."""
        states = reachable(game)
        assert len(states) == 5478
        assert sum(game.is_terminal(s) for s in states) == 958

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_terminal_outcomes(self, game: Any) -> None:
        """Of the 958 terminal states, 626 are X wins, 316 O wins and 16 draws."""
        states = [s for s in reachable(game) if game.is_terminal(s)]
        outcomes = [game.utility(s) for s in states]
        assert (outcomes.count(1), outcomes.count(-1), outcomes.count(0)) == (626, 316, 16)


class TestAgreement:
    def test_same_states_through_notation(
        self, readable_states: list[Any], bitboard_states: list[Any]
    ) -> None:
        """Both games reach exactly the same positions, written in the same notation."""
        assert {READABLE.format_state(s) for s in readable_states} == {
            BITBOARD.format_state(s) for s in bitboard_states
        }

    def test_move_for_move(self, readable_states: list[Any]) -> None:
        """On every reachable state both agree on mover, actions, results, terminal and utility."""
        for state in readable_states:
            text = READABLE.format_state(state)
            board = BITBOARD.parse_state(text)
            assert BITBOARD.format_state(board) == text
            assert BITBOARD.to_move(board) == READABLE.to_move(state), text
            assert list(BITBOARD.actions(board)) == list(READABLE.actions(state)), text
            assert BITBOARD.is_terminal(board) == READABLE.is_terminal(state), text
            if READABLE.is_terminal(state):
                assert BITBOARD.utility(board) == READABLE.utility(state), text
            assert BITBOARD.evaluate(board) == READABLE.evaluate(state), text
            for action in READABLE.actions(state):
                assert BITBOARD.format_state(BITBOARD.result(board, action)) == (
                    READABLE.format_state(READABLE.result(state, action))
                )
            assert sorted(map(BITBOARD.format_state, BITBOARD.symmetries(board))) == sorted(
                map(READABLE.format_state, READABLE.symmetries(state))
            )

    def test_actions_ascending_and_empty_iff_terminal(self, bitboard_states: list[Any]) -> None:
        """Actions are ascending cell numbers, and there are none exactly at terminal states."""
        for state in bitboard_states:
            actions = list(BITBOARD.actions(state))
            assert actions == sorted(actions)
            assert (not actions) == BITBOARD.is_terminal(state)


class TestRules:
    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_every_line_wins_for_x(self, game: Any) -> None:
        """X completing any of the eight lines (O elsewhere) is a terminal +1."""
        for line in LINES:
            others = [c for c in range(9) if c not in line][:2]
            cells = ["."] * 9
            for c in line:
                cells[c] = "x"
            for c in others:
                cells[c] = "o"
            text = "/".join("".join(cells[r * 3 : r * 3 + 3]) for r in range(3))
            state = game.parse_state(text)
            assert game.is_terminal(state) and game.utility(state) == 1, text

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_x_moves_first_then_o(self, game: Any) -> None:
        """X moves on the empty board and O after one mark."""
        start = game.initial_state()
        assert game.to_move(start) == 0
        assert game.format_state(game.result(start, 4)) == ".../.x./..."
        assert game.to_move(game.result(start, 4)) == 1

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_full_board_draw(self, game: Any) -> None:
        """A full board without a line is a terminal draw."""
        state = game.parse_state("xox/xoo/oxx")
        assert game.is_terminal(state) and game.utility(state) == 0
        assert list(game.actions(state)) == []

    def test_registry_names(self) -> None:
        """The registry builds both games under their documented names."""
        assert isinstance(load_game("tictactoe"), TicTacToe)
        assert isinstance(load_game("tictactoe-bitboard"), BitboardTicTacToe)
        assert load_game("tictactoe-bitboard").name == "tictactoe-bitboard"


class TestNotation:
    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    @pytest.mark.parametrize(
        ("text", "fragment"),
        [
            ("x.o/.x.", "three rows of three cells"),
            ("x.o/.x./..o/...", "three rows of three cells"),
            ("x.o/.x./..", "three rows of three cells"),
            ("x.o/.z./..o", "bad cell 'z'"),
            ("xxx/.../...", "3 x and 0 o"),
            ("o../.../...", "0 x and 1 o"),
            ("xxx/ooo/...", "both players have a line"),
            ("xxx/oo./o..", "x has a line but o moved after it"),
            ("ooo/xx./x.x", "o has a line but x moved after it"),
        ],
    )
    def test_invalid_positions(self, game: Any, text: str, fragment: str) -> None:
        """Malformed or unreachable positions raise InvalidStateError quoting the text."""
        with pytest.raises(InvalidStateError) as caught:
            game.parse_state(text)
        assert fragment in str(caught.value)
        assert repr(text) in str(caught.value)

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_capitals_and_spaces_accepted(self, game: Any) -> None:
        """Capital letters and surrounding spaces read like the canonical notation."""
        assert game.format_state(game.parse_state(" X.O/.x./..o ")) == "x.o/.x./..o"

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_actions_by_number_or_row_col(self, game: Any) -> None:
        """A move reads as a cell number or as row,col from 0."""
        start = game.initial_state()
        assert game.parse_action(start, "5") == 5
        assert game.parse_action(start, "1,2") == 5
        assert game.parse_action(start, " 2, 0 ") == 6
        assert game.format_action(start, 5) == "5"

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    @pytest.mark.parametrize("text", ["9", "3,0", "a1", "", "1,2,3", "-1"])
    def test_bad_action_text(self, game: Any, text: str) -> None:
        """Unreadable or off-board moves raise IllegalActionError naming the accepted forms."""
        with pytest.raises(IllegalActionError, match=r"cell number 0\.\.8"):
            game.parse_action(game.initial_state(), text)

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_render_grid(self, game: Any) -> None:
        """render draws the three rows of the position in a grid."""
        picture = game.render(game.parse_state("x.o/.x./..o"))
        assert picture.splitlines() == [
            " x | . | o",
            "---+---+---",
            " . | x | .",
            "---+---+---",
            " . | . | o",
        ]


class TestHeuristicAndSymmetry:
    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_evaluate_open_lines(self, game: Any) -> None:
        """evaluate counts open lines: centre X leaves 8 open for X and 4 for O."""
        assert game.evaluate(game.initial_state()) == 0
        assert game.evaluate(game.parse_state(".../.x./...")) == pytest.approx(0.4)
        assert game.evaluate(game.parse_state("o../.x./...")) == pytest.approx(0.1)

    def test_evaluate_strictly_inside_loss_and_win(self, bitboard_states: list[Any]) -> None:
        """Non-terminal heuristic values stay strictly between -1 and +1."""
        for state in bitboard_states:
            if not BITBOARD.is_terminal(state):
                assert -1 < BITBOARD.evaluate(state) < 1

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_symmetry_classes(self, game: Any) -> None:
        """The 5,478 states fall into 765 classes under the symmetries of the square."""
        classes = {min(game.format_state(s) for s in game.symmetries(x)) for x in reachable(game)}
        assert len(classes) == 765

    @pytest.mark.parametrize("game", [READABLE, BITBOARD], ids=["readable", "bitboard"])
    def test_corner_has_four_images(self, game: Any) -> None:
        """A lone corner X has four distinct images, the state itself first."""
        state = game.parse_state("x../.../...")
        images = [game.format_state(s) for s in game.symmetries(state)]
        assert images[0] == "x../.../..."
        corners = ["x../.../...", "..x/.../...", ".../.../x..", ".../.../..x"]
        assert sorted(images) == sorted(corners)
