"""``gamesolver games`` and ``gamesolver best``: listings, move tables and their JSON."""

from __future__ import annotations

import json

import pytest

from games import BUILTIN_GAMES, available_games, game_info, load_game
from solver.minimax import alphabeta, minimax
from tests.games.fakes import install_entry_points


class TestGames:
    def test_lists_every_registered_game_with_its_summary(self, run):
        """Every game of ours appears beside its one-line summary (whatever else is installed)."""
        result = run("games")
        assert result.code == 0
        for name in sorted(BUILTIN_GAMES):
            line = next(line for line in result.out.splitlines() if line.startswith(name + " "))
            assert game_info(name).summary in line

    def test_json_lists_the_same_games(self, run):
        """--json gives one record per registered game, in registry order."""
        records = run("games", "--json").json()
        assert [r["name"] for r in records] == available_games()
        assert all(r["description"] for r in records)

    def test_plain_output_has_no_trailing_blanks(self, run):
        """Redirected output is plain text without padding at line ends."""
        out = run("games").out
        assert all(line == line.rstrip() for line in out.splitlines())


class TestBestTextbook:
    def test_minimax_table_matches_the_search(self, run):
        """Every root move of the textbook tree is listed with minimax's value for it."""
        game = load_game("textbook")
        expected = minimax(game)
        data = run("best", "textbook", "--algorithm", "minimax", "--json").json()
        assert data["value"] == expected.value
        assert {m["action"]: m["value"] for m in data["moves"]} == dict(expected.action_values)
        assert data["best_move"] == str(expected.best_action)
        assert data["stats"]["nodes"] == expected.stats.nodes

    def test_alphabeta_values_pruned_root_moves_by_separate_searches(self, run):
        """Root moves alpha-beta only bounded still get their exact minimax value."""
        tree = "[[3,12,8],[2,4,6],[14,5,2]]"
        game = load_game("textbook", tree=[[3, 12, 8], [2, 4, 6], [14, 5, 2]])
        exact = minimax(game).action_values
        data = run("best", "textbook", "--tree", tree, "-a", "alphabeta", "--json").json()
        assert {m["action"]: m["value"] for m in data["moves"]} == dict(exact)
        assert data["stats"]["nodes"] == alphabeta(game).stats.nodes

    def test_text_marks_separately_searched_moves(self, run):
        """The text table flags moves valued outside the alpha-beta search and explains why."""
        out = run("best", "textbook", "-a", "alphabeta").out
        assert "†" in out and "separate search" in out

    def test_custom_tree_changes_the_value(self, run):
        """--tree builds the game from the given nested lists."""
        data = run("best", "textbook", "--tree", "[[1,9],[5,6]]", "-a", "minimax", "--json").json()
        assert data["value"] == minimax(load_game("textbook", tree=[[1, 9], [5, 6]])).value


class TestBestTicTacToe:
    POSITION = "x.o/.x./..."

    @pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
    def test_every_legal_move_is_valued_exactly(self, run, algorithm):
        """Each legal move's value equals minimax's value of the position after it."""
        game = load_game("tictactoe")
        state = game.parse_state(self.POSITION)
        data = run("best", "tictactoe", "-p", self.POSITION, "-a", algorithm, "--json").json()
        values = {m["action"]: m["value"] for m in data["moves"]}
        assert sorted(values) == sorted(game.actions(state))
        for action, value in values.items():
            assert value == minimax(game, game.result(state, action)).value

    def test_optimal_moves_are_those_that_keep_the_value(self, run):
        """The optimal moves are exactly the moves whose value equals the position's."""
        data = run("best", "tictactoe", "-p", "x../.../...", "-a", "minimax", "--json").json()
        keep = [m["move"] for m in data["moves"] if m["value"] == data["value"]]
        assert data["optimal_moves"] == keep
        assert data["best_move"] in keep

    def test_principal_variation_is_legal_and_reaches_the_end(self, run):
        """The PV replays legally from the position to a terminal state of the reported value."""
        game = load_game("tictactoe")
        data = run("best", "tictactoe", "-p", self.POSITION, "-a", "minimax", "--json").json()
        state = game.parse_state(self.POSITION)
        for step in data["pv"]:
            assert step["player"] == game.to_move(state)
            assert step["action"] in game.actions(state)
            state = game.result(state, step["action"])
        assert game.is_terminal(state)
        assert game.utility(state) == data["value"]
        assert data["plies"] == len(data["pv"])

    def test_text_shows_board_value_and_pv(self, run):
        """The text answer draws the board and names the value, optimal moves and PV."""
        result = run("best", "tictactoe", "-p", self.POSITION, "-a", "minimax")
        assert result.code == 0
        assert " x | . | o" in result.out
        for label in ("value:", "optimal moves:", "principal variation:", "nodes"):
            assert label in result.out

    def test_depth_limit_reports_a_horizon_value(self, run):
        """With --depth the answer says it is not exact and uses the evaluation."""
        game = load_game("tictactoe")
        expected = minimax(game, depth=2)
        data = run("best", "tictactoe", "-a", "minimax", "--depth", "2", "--json").json()
        assert data["exact"] is False
        assert data["value"] == pytest.approx(expected.value)
        assert data["depth"] == 2

    def test_finished_game_shows_the_result(self, run):
        """A terminal position prints the board and who won, without a move table."""
        result = run("best", "tictactoe", "-p", "xxx/oo./...", "-a", "minimax")
        assert result.code == 0
        assert "game over" in result.out
        assert "principal variation" not in result.out


class TestBestEngine:
    def test_default_engine_finds_every_optimal_move(self, run):
        """The default engine's optimal moves are exactly the moves minimax says keep the value."""
        game = load_game("tictactoe")
        state = game.parse_state("x../.../...")
        expected = minimax(game, state)
        data = run("best", "tictactoe", "-p", "x../.../...", "--json").json()
        assert data["algorithm"] == "engine"
        assert data["value"] == expected.value
        keep = sorted(str(a) for a, v in expected.action_values.items() if v == expected.value)
        assert sorted(data["optimal_moves"]) == keep

    def test_engine_values_every_move_exactly(self, run):
        """Moves the engine only bounded are valued by their own search, equal to minimax."""
        game = load_game("tictactoe")
        state = game.parse_state("x.o/.x./...")
        data = run("best", "tictactoe", "-p", "x.o/.x./...", "--json").json()
        for move in data["moves"]:
            child = game.result(state, move["action"])
            assert move["value"] == minimax(game, child).value

    def test_engine_with_a_time_limit_on_ayoayo(self, run):
        """--time bounds the engine on a game too long to search to the end."""
        data = run(
            "best", "ayoayo", "-p", "[[2,6,6,1,1,7],[0,2,7,2,7,7]]", "--time", "0.3", "--json"
        ).json()
        assert data["complete"] is False and data["exact"] is False
        assert data["best_move"] in [m["move"] for m in data["moves"]]


class TestCompile:
    """`gamesolver compile` readies the games' kernels and says what it did."""

    def test_each_game_with_a_kernel_gets_a_line(self, run):
        """Ayòayò's kernel and Connect Four's (the compiled route) are compiled or loaded;
        games without one are not listed."""
        result = run("compile")
        assert result.code == 0
        assert result.out.startswith("ayoayo: ")
        assert "\nconnect4: " in result.out
        assert "ready" in result.out or "compiled in" in result.out
        assert "tictactoe" not in result.out

    def test_named_games_and_no_kernel(self, run, monkeypatch):
        """A named game without a kernel says so; with the kernels off, so does Ayòayò."""
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        result = run("compile", "tictactoe", "ayoayo")
        assert result.code == 0
        assert "tictactoe: no compiled kernel (its searches run in Python)" in result.out
        assert "ayoayo: no compiled kernel to use" in result.out

    def test_an_unknown_game_lists_the_choices(self, run):
        """An unknown name is an error naming the games there are."""
        result = run("compile", "tictac")
        assert result.code == 1 and "unknown game 'tictac'; available:" in result.err


class TestBrokenPlugIns:
    def test_games_names_each_broken_plug_in_and_lists_the_rest(self, run, monkeypatch):
        """An import failure and a constructor that raises each get a line with the error."""
        install_entry_points(
            monkeypatch,
            {"refusing": "tests.plugin_games:Refusing", "ghost": "no_such_module_here:Ghost"},
        )
        result = run("games", "--json")
        assert result.code == 0
        said = {e["name"]: e["description"] for e in json.loads(result.out)}
        assert said["refusing"] == "(cannot be loaded: the refusing game's data file is missing)"
        assert said["ghost"].startswith("(cannot be loaded: game 'ghost' from entry point")
        assert "Ayòayò" in said["ayoayo"]

    def test_a_plug_in_that_needs_options_is_listed_as_such(self, run, monkeypatch):
        """A plug-in made only with options is a game (with how to give them), not broken."""
        install_entry_points(monkeypatch, {"sized": "tests.plugin_games:SizedBanks"})
        listed = {e["name"]: e for e in json.loads(run("games", "--json").out)}
        assert listed["sized"]["needs_options"] == ["seeds"]
        assert listed["sized"]["description"].startswith("Banks with a starting number")
        table = run("games").out
        line = next(line for line in table.splitlines() if "sized" in line)
        assert "needs -O seeds=..." in line and "cannot be loaded" not in table

    def test_compile_names_a_broken_plug_in_asked_for(self, run, monkeypatch):
        """Asked by name, a plug-in whose constructor raises is a one-line error, not a trace."""
        install_entry_points(monkeypatch, {"refusing": "tests.plugin_games:Refusing"})
        result = run("compile", "refusing")
        assert result.code != 0
        assert "game 'refusing' cannot be loaded: the refusing game's data file is missing" in (
            result.err
        )
