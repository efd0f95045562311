"""Positions on the command line: the game's notation, and --captured / --to-move."""

from __future__ import annotations

from games import load_game

ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"


class TestCapturedAndToMove:
    def test_fields_are_added_to_the_position(self, run):
        """--captured and --to-move set those fields of an Ayòayò position."""
        board = "[[2,6,6,1,1,7],[0,2,7,2,7,3]]"  # four seeds fewer than the article's board
        data = run(
            "best",
            "ayoayo",
            "-p",
            board,
            "--captured",
            "4,0",
            "--to-move",
            "1",
            "-a",
            "minimax",
            "-d",
            "1",
            "--json",
        ).json()
        state = load_game("ayoayo").parse_state(data["position"])
        assert state.captured == (4, 0)
        assert state.to_move == 1 == data["to_move"]

    def test_without_a_position_they_change_the_start(self, run):
        """Without --position, --to-move changes who moves first from the initial board."""
        data = run("best", "ayoayo", "--to-move", "1", "-a", "minimax", "-d", "1", "--json").json()
        assert data["to_move"] == 1
        assert load_game("ayoayo").parse_state(data["position"]).board == ((4,) * 6, (4,) * 6)

    def test_the_game_checks_them_with_the_board(self, run):
        """Seeds that no longer add up to 48 are the game's error, quoting the position."""
        result = run("best", "ayoayo", "-p", ARTICLE, "--captured", "4,0", "-d", "1")
        assert result.code == 1
        assert "48" in result.err and ARTICLE in result.err and "--captured" in result.err

    def test_games_without_the_fields_refuse_them(self, run):
        """Tic-tac-toe has no captured seeds: a usage error naming the option."""
        result = run("best", "tictactoe", "--captured", "1,0")
        assert result.code == 2
        assert "--captured" in result.err and "'tictactoe'" in result.err

    def test_malformed_captured(self, run):
        """--captured must be two non-negative numbers."""
        result = run("best", "ayoayo", "--captured", "4")
        assert result.code == 2
        assert "'4'" in result.err and "0,0" in result.err

    def test_bad_side_to_move(self, run):
        """--to-move accepts only 0 or 1."""
        result = run("best", "ayoayo", "--to-move", "2")
        assert result.code == 2
        assert "'2'" in result.err
