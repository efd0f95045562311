"""``gamesolver play`` with scripted input, and ``gamesolver match``."""

from __future__ import annotations

import json
import re

from games import load_game
from play import run_match
from tests.games.fakes import install_entry_points

# Every cell in order, three times: each human turn takes the first still-empty cell it reaches,
# the occupied ones being refused and re-asked, so any game against any AI runs to its end.
ALL_CELLS = "".join(f"{cell}\n" for _ in range(3) for cell in range(9))


def moves_played(out: str) -> list[tuple[str, str]]:
    """(who, move) for every ``N. PLAYER (who) plays MOVE`` line of a transcript."""
    return re.findall(r"^\d+\. \S+ \((.+?)\) plays (\S+)$", out, flags=re.MULTILINE)


def timeless(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Match table rows without their timings."""
    return [{k: v for k, v in row.items() if k != "seconds_per_game"} for row in rows]


class TestPlay:
    def test_illegal_input_is_re_asked_with_the_legal_moves(self, run):
        """Off-board, garbage and occupied cells are refused; the prompt lists legal moves."""
        result = run("play", "tictactoe", "--ai", "minimax:2", stdin="9\nfoo\n4\n4\nq\n")
        assert result.code == 0
        assert "'9'" in result.out and "'foo'" in result.out
        assert "illegal action 4" in result.out  # cell 4 taken by the first move
        assert "(0, 1, 2, 3, 4, 5, 6, 7, 8)" in result.out
        assert moves_played(result.out)[0] == ("you", "4")

    def test_q_quits_cleanly(self, run):
        """Typing q ends the session with exit code 0 and says so."""
        result = run("play", "tictactoe", stdin="q\n")
        assert result.code == 0
        assert "abandoned" in result.out
        assert moves_played(result.out) == []

    def test_end_of_input_quits_cleanly(self, run):
        """Ctrl-D (end of input) at the prompt ends the session like q."""
        result = run("play", "tictactoe", "--ai", "minimax:1", stdin="0\n")
        assert result.code == 0
        assert "abandoned" in result.out

    def test_game_runs_to_a_result_line(self, run):
        """A full game ends with a result line; perfect play never loses tic-tac-toe."""
        result = run("play", "tictactoe", "--ai", "minimax:9", stdin=ALL_CELLS)
        assert result.code == 0
        *_, last, moves = result.out.strip().splitlines()
        assert last.startswith("result: ") and moves.startswith("moves: 1. ")
        assert "you win" not in last

    def test_moves_alternate_and_replay_legally(self, run):
        """The transcript's moves alternate human/AI and replay legally to a terminal state."""
        result = run("play", "tictactoe", "--ai", "alphabeta:3", stdin=ALL_CELLS)
        game = load_game("tictactoe")
        state = game.initial_state()
        moves = moves_played(result.out)
        for ply, (who, move) in enumerate(moves):
            assert who == ("you" if ply % 2 == 0 else "alphabeta:3")
            assert int(move) in game.actions(state)
            state = game.result(state, int(move))
        assert game.is_terminal(state)

    def test_ai_can_move_first(self, run):
        """--first ai lets the AI make the first move."""
        result = run("play", "tictactoe", "--first", "ai", "--ai", "minimax:1", stdin="q\n")
        assert moves_played(result.out)[0][0] == "minimax:1"

    def test_from_a_position(self, run):
        """--position starts from that board; the human moves for the side to move."""
        result = run("play", "tictactoe", "-p", "xx./oo./...", "--ai", "minimax:1", stdin="2\n")
        assert moves_played(result.out) == [("you", "2")]
        assert "you win" in result.out

    def test_bad_ai_spec(self, run):
        """An unknown --ai names the valid agent specs and exits 2."""
        result = run("play", "tictactoe", "--ai", "deep-blue", stdin="")
        assert result.code == 2
        assert "'deep-blue'" in result.err and "minimax:D" in result.err

    def test_time_with_a_non_engine_ai(self, run):
        """--time only goes with a bare engine; other specs say how to write the limit."""
        result = run("play", "tictactoe", "--ai", "random", "--time", "1", stdin="")
        assert result.code == 2
        assert "'random'" in result.err

    def test_finished_position_is_refused(self, run):
        """A game that is already over cannot be played."""
        result = run("play", "tictactoe", "-p", "xxx/oo./...", stdin="")
        assert result.code == 1
        assert "over" in result.err


class TestMatch:
    def test_json_counts_agree_with_run_match(self, run):
        """--json reports the same counts as run_match with the same seed."""
        data = run(
            "match",
            "tictactoe",
            "minimax:2",
            "random",
            "--games",
            "12",
            "--seed",
            "3",
            "--swap",
            "--json",
        ).json()
        expected = run_match(
            load_game("tictactoe"), "minimax:2", "random", games=12, seed=3, swap=True
        )
        assert data["games"] == 12
        assert (data["p1_wins"], data["p2_wins"], data["draws"]) == (
            expected.p1_wins,
            expected.p2_wins,
            expected.draws,
        )
        assert data["wins_by_agent"] == {"minimax:2": expected.wins[0], "random": expected.wins[1]}

    def test_no_repetition_rule_plays_through_repeated_positions(self, run):
        """--no-repetition-rule with --max-plies ends no game by repetition."""
        args = ("match", "ayoayo", "random", "random", "-n", "6", "--seed", "2", "--json")
        without = run(*args, "--max-plies", "3000", "--no-repetition-rule").json()
        assert without["end_on_repetition"] is False
        assert without["games"] == 6
        assert without["ended_by_repetition"] == 0

    def test_no_repetition_rule_needs_a_ply_limit(self, run):
        """--no-repetition-rule without --max-plies is a usage error that names the fix."""
        result = run("match", "ayoayo", "random", "random", "-n", "2", "--no-repetition-rule")
        assert result.code == 2
        assert "--max-plies" in result.err

    def test_table_has_one_row_per_seating(self, run):
        """With --swap the table has a row for each agent moving first."""
        out = run("match", "tictactoe", "alphabeta:2", "random", "-n", "6", "--swap").out
        rows = [line for line in out.splitlines() if re.match(r"^(alphabeta:2|random)\s", line)]
        assert len(rows) == 2
        assert "6 games in" in out

    def test_workers_give_the_same_result(self, run):
        """Two worker processes reproduce the single-process counts for the same seed."""
        args = ("match", "textbook", "minimax:2", "random", "-n", "8", "--seed", "5", "--json")
        alone = run(*args).json()
        pooled = run(*args, "--workers", "2").json()
        assert pooled["workers"] == 2
        assert timeless(pooled["rows"]) == timeless(alone["rows"])

    def test_unknown_agent(self, run):
        """A bad agent spec exits 2 and lists the valid specs."""
        result = run("match", "tictactoe", "minmax:2", "random")
        assert result.code == 2
        assert "'minmax:2'" in result.err and "engine:SECONDS" in result.err

    def test_human_cannot_play_in_workers(self, run):
        """A human agent with several workers is refused before any game starts."""
        result = run("match", "tictactoe", "human", "random", "--workers", "2")
        assert result.code == 2
        assert "human" in result.err


class TestPlayAyoayo:
    # Every cell in order, many times: each human turn plays the first legal cell it reaches.
    CELLS = "".join(f"{cell}\n" for _ in range(40) for cell in range(6))

    def test_captures_shown_agree_with_the_boards(self, run):
        """Each 'captured: ... (now a, b)' line matches the captured counts of the next board."""
        result = run("play", "ayoayo", "--ai", "minimax:1", "--max-plies", "30", stdin=self.CELLS)
        assert result.code == 0
        game = load_game("ayoayo")
        lines = result.out.splitlines()
        shown = 0
        for i, line in enumerate(lines):
            found = re.search(r"^captured: .*\(now (\d+), (\d+)\)$", line)
            if found:
                shown += 1
                board = next(x for x in lines[i:] if x.startswith("position: "))
                state = game.parse_state(board.removeprefix("position: "))
                assert state.captured == (int(found[1]), int(found[2]))
        assert result.out.strip().splitlines()[-2].startswith("result: ")
        assert shown > 0  # deterministic: scripted moves against a fixed-depth minimax

    def test_prompt_uses_the_game_s_player_names(self, run):
        """The move prompt calls the human by the game's name for the player, not MAX."""
        result = run("play", "ayoayo", "--ai", "random", stdin="q\n")
        assert "Player 1 to move (0, 1, 2, 3, 4, 5) [help]: " in result.out


class TestPlayByCapabilities:
    """``play`` knows a game by its capabilities, never by its name."""

    def test_a_scored_plug_in_game_is_played_to_its_end(self, run, monkeypatch):
        """A plug-in with a score and two rows of six (not Ayòayò) plays without a sowing."""
        install_entry_points(monkeypatch, {"tworows": "tests.plugin_games:TwoRows"})
        result = run("play", "tworows", "--ai", "minimax:4", stdin="5\n4\n")
        assert result.code == 0, result.err
        assert "captured: North +6 (now 6, 0)" in result.out
        assert "sowing" not in result.out
        assert "result: draw; score 0 after 4 plies" in result.out

    def test_seat_is_for_games_of_pits(self, run, monkeypatch):
        """--seat needs pits and stores, which the scored two-row game has not."""
        install_entry_points(monkeypatch, {"tworows": "tests.plugin_games:TwoRows"})
        result = run("play", "tworows", "--seat", stdin="q\n")
        assert result.code != 0
        assert "--seat and --cells are for games of pits and stores" in result.err

    def test_ayoayo_still_says_its_sowing(self, run):
        """Ayòayò shows its sowing step by step, through the capability."""
        result = run("play", "ayoayo", "--ai", "random", "--seed", "1", stdin="2\nq\n")
        assert "sowing: cell 2: 5 laps" in result.out

    def test_a_grid_game_with_options_is_played(self, run):
        """Connect Four 5x4 (a grid game) plays through the same loop."""
        result = run(
            "play", "connect4", "-O", "width=5", "-O", "height=4", "--ai", "random", stdin="3\nq\n"
        )
        assert result.code == 0, result.err
        assert "X (you) plays 3" in result.out


class TestCellsOfTheGamesRows:
    """``--cells`` numbers a row's cells by the game's own rows of pits, not Ayòayò's six."""

    def test_rows_of_four_are_numbered_one_to_four(self, run, monkeypatch):
        """With --cells 1-4, typing 4 plays cell 3 and 5 is re-asked naming 1..4."""
        install_entry_points(monkeypatch, {"banks": "tests.plugin_games:Banks"})
        result = run(
            "play", "banks", "--seat", "--cells", "1-4", "--ai", "random", stdin="5\n4\nq\n"
        )
        assert result.code == 0, result.err
        assert "MAX to move (1, 2, 3, 4) [help]: " in result.out
        assert "a move is a cell number 1..4 of your row; legal here: 1, 2, 3, 4" in result.out
        assert "1. MAX (you) plays 4" in result.out
        assert "position: ((1, 2, 3, 0), (1, 2, 3, 4), 4, 0, 1)" in result.out  # cell 3 banked
        assert "cell         4   3   2   1" in result.out

    def test_six_cells_are_refused_for_rows_of_four(self, run, monkeypatch):
        """--cells 1-6 names the choices that fit the game's rows."""
        install_entry_points(monkeypatch, {"banks": "tests.plugin_games:Banks"})
        result = run("play", "banks", "--cells", "1-6", stdin="q\n")
        assert result.code == 2
        assert "invalid --cells '1-6' for rows of 4 pits; choose 0-3 or 1-4" in result.err


class TestOptionsTravel:
    """A game's options go into the record and come back with it."""

    def test_a_saved_connect_four_5x4_is_reviewed(self, run, tmp_path):
        """play -O width=5 -O height=4 --save writes them in the game header; review reads them."""
        path = tmp_path / "g.txt"
        argv = ["play", "connect4", "-O", "width=5", "-O", "height=4", "--ai", "minimax:1"]
        result = run(*argv, "--save", str(path), stdin="3\n3\nq\n")
        assert result.code == 0, result.err
        text = path.read_text()
        assert "game: connect4 width=5 height=4\nstart: ...../...../...../.....\n" in text
        reviewed = run("review", str(path), "--depth", "2", "--json")
        assert reviewed.code == 0, reviewed.err
        assert len(json.loads(reviewed.out)["moves"]) == 4

    def test_review_adds_options_to_a_record_written_without_them(self, run, tmp_path):
        """A 5x4 record with a bare 'game: connect4' is refused, and read with -O."""
        path = tmp_path / "old.txt"
        path.write_text("game: connect4\nstart: ...../...../...../.....\n1. 3\n2. 3\n")
        refused = run("review", str(path), "--depth", "1")
        assert refused.code != 0 and "invalid record" in refused.err
        read = run("review", str(path), "--depth", "1", "-O", "width=5", "-O", "height=4")
        assert read.code == 0, read.err

    def test_a_game_without_options_keeps_the_old_header(self, run, tmp_path):
        """No options: the header is the name alone, as older readers expect."""
        path = tmp_path / "t.txt"
        run("play", "tictactoe", "--ai", "minimax:1", "--save", str(path), stdin="4\nq\n")
        assert "\ngame: tictactoe\n" in path.read_text()

    def test_match_records_keep_the_options(self, run, tmp_path):
        """match --save writes the game's options in each record, which review then reads."""
        folder = tmp_path / "games"
        argv = ["match", "connect4", "random", "random", "--games", "1", "--seed", "3"]
        done = run(*argv, "-O", "width=5", "-O", "height=4", "--save", str(folder))
        assert done.code == 0, done.err
        record = folder / "game-00001.txt"
        assert "game: connect4 width=5 height=4\n" in record.read_text()
        assert run("review", str(record), "--depth", "1").code == 0
