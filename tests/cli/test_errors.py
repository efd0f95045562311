"""Mistakes on the command line: clear messages on stderr, exit codes 2 (usage) and 1 (game)."""

from __future__ import annotations

import pytest

from games import available_games


class TestUsageErrors:
    def test_unknown_game_lists_the_available_ones(self, run):
        """An unknown game name exits 2 and lists every registered game."""
        result = run("best", "tictac", "-a", "minimax")
        assert result.code == 2
        assert "'tictac'" in result.err
        assert ", ".join(available_games()) in result.err
        assert result.out == ""

    def test_unknown_command_exits_2(self, run):
        """A command that does not exist is a usage error naming the choices."""
        result = run("solvee", "tictactoe")
        assert result.code == 2
        assert "'solvee'" in result.err and "best" in result.err

    def test_no_command_prints_help_and_exits_2(self, run):
        """Without a command the help goes to stderr and the exit code is 2."""
        result = run()
        assert result.code == 2
        assert "usage: gamesolver" in result.err

    def test_help_exits_0(self, run):
        """--help is not an error."""
        assert run("--help").code == 0

    @pytest.mark.parametrize("tree", ["[[3,12", "7", '{"a": 1}'])
    def test_malformed_tree_json(self, run, tree):
        """--tree that is not a JSON list is a usage error quoting the text and an example."""
        result = run("best", "textbook", "--tree", tree)
        assert result.code == 2
        assert repr(tree) in result.err
        assert "[[3,12,8],[2,4,6],[14,5,2]]" in result.err

    def test_tree_with_a_bad_leaf(self, run):
        """A tree the game rejects is a usage error carrying the game's explanation."""
        result = run("best", "textbook", "--tree", '[[3, "x"]]')
        assert result.code == 2
        assert "'x'" in result.err

    def test_option_the_game_does_not_take(self, run):
        """A constructor option the game lacks names the options it accepts."""
        result = run("best", "tictactoe", "--tree", "[[1,2]]")
        assert result.code == 2
        assert "'tree'" in result.err

    @pytest.mark.parametrize("depth", ["0", "-3", "two"])
    def test_bad_depth(self, run, depth):
        """A depth that is not a whole number >= 1 is refused, quoting it."""
        result = run("best", "tictactoe", "--depth", depth)
        assert result.code == 2
        assert repr(depth) in result.err

    def test_bad_algorithm(self, run):
        """An unknown algorithm lists the valid ones."""
        result = run("best", "tictactoe", "--algorithm", "negascout")
        assert result.code == 2
        assert "minimax" in result.err and "alphabeta" in result.err

    def test_malformed_game_option(self, run):
        """-O without KEY=VALUE is refused with an example."""
        result = run("best", "textbook", "-O", "labels")
        assert result.code == 2
        assert "'labels'" in result.err and "KEY=VALUE" in result.err

    def test_time_limit_with_a_teaching_search(self, run):
        """--time only limits the engine; with minimax it is refused, not ignored."""
        result = run("best", "tictactoe", "-a", "minimax", "--time", "1")
        assert result.code == 2
        assert "'minimax'" in result.err and "--depth" in result.err


class TestGameErrors:
    @pytest.mark.parametrize("position", ["x.o/.x.", "xxx/xxx/xxx", "abc/def/ghi"])
    def test_bad_position_exits_1_quoting_it(self, run, position):
        """A position the game cannot hold exits 1 and quotes the text."""
        result = run("best", "tictactoe", "-p", position, "-a", "minimax")
        assert result.code == 1
        assert repr(position) in result.err
        assert result.err.startswith("gamesolver: error: ")

    @pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "engine"])
    def test_search_to_the_end_of_a_cycling_game(self, run, algorithm):
        """To the end of Ayòayò (which cycles) is refused up front in options, not keywords."""
        result = run("best", "ayoayo", "-a", algorithm)
        assert result.code == 2
        assert "give --depth N" in result.err
        assert ("--time S" in result.err) == (algorithm == "engine")
        assert "gamesolver solve ayoayo" in result.err and "gamesolver analyse" in result.err
        assert "depth=" not in result.err and "time_limit" not in result.err
