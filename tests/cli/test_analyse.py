"""``gamesolver analyse``: the engine on one position, a line per depth, the answer, Ctrl-C."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games import load_game
from solver.minimax import minimax
from solver.results import SearchResult, SearchStats
from zerosum.console import Io
from zerosum.moves import move_rows, moves_table

ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"


class TestAnalyseValues:
    @pytest.mark.parametrize(
        ("game_name", "position", "depth"),
        [("tictactoe", "x.o/.x./...", 3), ("ayoayo", ARTICLE, 4), ("textbook", "root", 1)],
    )
    def test_value_and_optimal_moves_equal_minimax_at_that_depth(
        self, run, game_name, position, depth
    ):
        """At a fixed depth the value and the set of optimal moves are minimax's."""
        game = load_game(game_name)
        state = game.parse_state(position)
        expected = minimax(game, state, depth=depth)
        data = run("analyse", game_name, "-p", position, "--depth", str(depth), "--json").json()
        assert data["value"] == pytest.approx(expected.value)
        keep = sorted(str(a) for a, v in expected.action_values.items() if v == expected.value)
        assert sorted(data["optimal_moves"]) == keep
        assert data["depth"] == depth

    def test_a_proved_win_is_exact_beside_moves_valued_at_the_horizon(self, run):
        """Connect Four '4455': X wins in 3 plies (3 or 6) and says so at depth 4, while the
        other moves keep their depth-4 values and say they are horizon estimates."""
        out = run("analyse", "connect4", "-p", "4455", "--depth", "4").out
        assert "value: 1 (X wins in 3 plies)" in out
        rows = {line.split()[0]: line for line in out.splitlines() if re.match(r"^\d\s", line)}
        assert "X wins in 3 plies" in rows["3"] and "X wins in 3 plies" in rows["6"]
        assert all("at the horizon" in rows[m] for m in "12457")

    def test_compiled_is_refused_for_a_game_without_compiled_rules(self, run):
        """--compiled on tic-tac-toe: one line naming the game and what is missing."""
        result = run("analyse", "tictactoe", "--compiled", "--depth", "2")
        assert result.code == 2
        assert "--compiled: game 'tictactoe' has no compiled rules" in result.err

    def test_every_move_carries_its_minimax_value(self, run):
        """Every legal move gets a value in the table, the one minimax gives it at that depth."""
        game = load_game("ayoayo")
        state = game.parse_state(ARTICLE)
        expected = minimax(game, state, depth=3).action_values
        data = run("analyse", "ayoayo", "-p", ARTICLE, "-d", "3", "--json").json()
        valued = {m["action"]: m["value"] for m in data["moves"]}
        assert valued == dict(expected)

    def test_pv_replays_legally(self, run):
        """The principal variation is a legal line from the position."""
        game = load_game("ayoayo")
        state = game.parse_state(ARTICLE)
        data = run("analyse", "ayoayo", "-p", ARTICLE, "-d", "5", "--json").json()
        assert len(data["pv"]) >= 1
        for step in data["pv"]:
            assert step["action"] in game.actions(state)
            state = game.result(state, step["action"])

    def test_every_move_has_its_line(self, run):
        """Each move's line starts with it, replays legally and is the PV for the best move;
        the table shows each line's first moves."""
        game = load_game("ayoayo")
        data = run("analyse", "ayoayo", "-p", ARTICLE, "-d", "5", "--json").json()
        for m in data["moves"]:
            assert m["line"][0]["move"] == m["move"] and m["line_end"]["kind"] in ("depth", "end")
            state = game.parse_state(ARTICLE)
            for step in m["line"]:
                assert step["action"] in game.actions(state)
                state = game.result(state, step["action"])
            if m["best"]:
                assert m["line"] == data["pv"]
        text = run("analyse", "ayoayo", "-p", ARTICLE, "-d", "5").out
        assert "line" in text and " ".join(s["move"] for s in data["pv"]) in text

    def test_default_time_limit_when_no_depth(self, run):
        """Without --depth or --time the search gets the default time (an exact game ends early)."""
        data = run("analyse", "tictactoe", "-p", "xx./oo./...", "--json").json()
        assert data["time_limit"] == 3.0
        assert data["exact"] is True and data["best_move"] == "2"


class TestAnalyseText:
    def test_one_line_per_completed_depth_then_the_answer(self, run):
        """The text shows a line for each depth 1..N, then the board's move table and figures."""
        out = run("analyse", "ayoayo", "-p", ARTICLE, "--depth", "4").out
        depths = [int(d) for d in re.findall(r"^depth\s+(\d+)\s+value", out, flags=re.MULTILINE)]
        assert depths == [1, 2, 3, 4]
        for label in ("value at depth 4:", "best move:", "principal variation:", "nodes/s"):
            assert label in out
        assert "Player 1 (player 0)" in out  # the board, drawn by the game

    def test_bounded_moves_are_marked(self):
        """Moves a search only bounded show a bound ('< 3' at MAX) instead of a value."""
        game = load_game("textbook")
        state = game.initial_state()
        result = SearchResult(
            value=3, best_action=0, pv=(0, 0), action_values={0: 3}, stats=SearchStats()
        )
        rows = move_rows(game, state, result)
        buffer = io.StringIO()
        Io(buffer).print(moves_table(Io(buffer), game, state, rows, value=3, exact=True))
        lines = buffer.getvalue().splitlines()
        assert [r.value for r in rows] == [3, None, None]
        for move in ("1", "2"):
            assert any(re.match(rf"^{move}\s+< 3\s", line) for line in lines)

    def test_depth_and_time_exclude_each_other(self, run):
        """--depth and --time together are a usage error."""
        result = run("analyse", "tictactoe", "--depth", "2", "--time", "1")
        assert result.code == 2
        assert "--time" in result.err and "--depth" in result.err

    def test_finished_position(self, run):
        """A finished game shows the board and the result, and exits 0."""
        result = run("analyse", "tictactoe", "-p", "xxx/oo./...")
        assert result.code == 0
        assert "game over" in result.out


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
class TestInterrupt:
    def test_ctrl_c_prints_the_best_answer_so_far(self):
        """SIGINT during a long analysis prints the last completed depth's answer and exits 130."""
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2]), "PYTHONUNBUFFERED": "1"}
        child = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "analyse", "ayoayo", "-p", ARTICLE, "--time", "60"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert child.stdout is not None
            deadline = time.monotonic() + 30
            for line in child.stdout:
                if line.startswith("depth   3"):
                    break
                assert time.monotonic() < deadline
            child.send_signal(signal.SIGINT)
            rest, err = child.communicate(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
        assert child.returncode == 130, err
        assert "stopped during depth" in rest
        assert "best move:" in rest
        assert "Traceback" not in err
