"""``gamesolver play`` at its prompt: hint, undo, moves, save, help; levels; the record."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.cli.conftest import Run
from zerosum.records import parse_record


def moves_played(out: str) -> list[tuple[str, str]]:
    """``(who, move)`` for each move line of a transcript."""
    return re.findall(r"^\d+\. \S+ \d? ?\((\S+)\) plays (\S+)$", out, re.MULTILINE)


class TestPromptCommands:
    def test_help_names_the_commands(self, run: Callable[..., Run]) -> None:
        """help lists what the prompt takes besides a move."""
        result = run("play", "ayoayo", "--ai", "beginner", stdin="help\nq\n")
        assert "hint (the engine's suggestion), undo" in result.out and "save FILE" in result.out

    def test_hint_suggests_a_legal_move(self, run: Callable[..., Run]) -> None:
        """hint answers with one of the legal cells and what it leads to."""
        result = run("play", "ayoayo", "--ai", "beginner", stdin="hint\nq\n")
        found = re.search(r"^hint: ([0-5]) \((.+)\)$", result.out, re.MULTILINE)
        assert found and found[2]

    def test_undo_takes_back_your_move_and_the_reply(self, run: Callable[..., Run]) -> None:
        """After undo the position is the start again and the move list is empty."""
        result = run("play", "ayoayo", "--ai", "beginner", stdin="2\nundo\nmoves\nq\n")
        assert "took back 2 moves" in result.out
        assert result.out.strip().splitlines()[-1] == "moves: no moves"
        assert "\nno moves\n" in result.out  # what ``moves`` printed after the undo

    def test_undo_with_nothing_played_says_so(self, run: Callable[..., Run]) -> None:
        """Undo at the start takes nothing back."""
        assert "nothing to take back" in run("play", "tictactoe", stdin="undo\nq\n").out

    def test_the_move_list_is_printed_on_quitting(self, run: Callable[..., Run]) -> None:
        """Quitting shows the moves so far, in order."""
        result = run("play", "tictactoe", "--ai", "minimax:1", stdin="4\nq\n")
        reply = moves_played(result.out)[1][1]
        assert result.out.strip().splitlines()[-1] == f"moves: 1. 4  2. {reply}"

    def test_each_sowing_is_described(self, run: Callable[..., Run]) -> None:
        """An Ayòayò move says how many laps its sowing took."""
        result = run("play", "ayoayo", "--ai", "beginner", stdin="2\nq\n")
        assert "sowing: cell 2: 5 laps" in result.out


class TestSavedRecords:
    def test_save_at_the_prompt_and_at_the_end_write_the_game(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """Both records read back to the moves the transcript shows."""
        middle, end = tmp_path / "middle.txt", tmp_path / "end.txt"
        result = run(
            "play", "ayoayo", "--ai", "club", "--save", str(end),
            stdin=f"2\nsave {middle}\n1\nq\n",
        )  # fmt: skip
        shown = [move for _, move in moves_played(result.out)]
        assert parse_record(end.read_text()).moves == tuple(shown)
        assert parse_record(middle.read_text()).moves == tuple(shown[:2])
        assert parse_record(end.read_text()).headers["players"] == "you, engine:d4"

    def test_a_finished_game_records_its_result(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """A tic-tac-toe game played out has a result header and replays to the end."""
        path = tmp_path / "game.txt"
        run("play", "tictactoe", "--ai", "minimax:9", "--save", str(path),
            stdin="".join(f"{c}\n" for _ in range(9) for c in range(9)))  # fmt: skip
        record = parse_record(path.read_text())
        game, states = record.positions()
        assert game.is_terminal(states[-1]) and "result: " in path.read_text()

    def test_an_existing_file_is_kept_without_force(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """--save refuses a file that exists before the game starts; --force replaces it."""
        path = tmp_path / "game.txt"
        path.write_text("keep me")
        refused = run("play", "ayoayo", "--ai", "beginner", "--save", str(path), stdin="2\nq\n")
        assert refused.code == 2 and "you play" not in refused.out
        assert "already exists; pass --force" in refused.err and len(refused.err.splitlines()) == 1
        assert path.read_text() == "keep me"
        run("play", "ayoayo", "--ai", "beginner", "--save", str(path), "--force", stdin="2\nq\n")
        assert parse_record(path.read_text()).moves[0] == "2"

    def test_a_path_that_cannot_be_written_is_refused_before_the_game(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """A missing folder is one line before any move is asked for."""
        path = tmp_path / "no-such-folder" / "game.txt"
        refused = run("play", "ayoayo", "--ai", "beginner", "--save", str(path), stdin="2\nq\n")
        assert refused.code == 2 and "you play" not in refused.out
        assert "does not exist" in refused.err and len(refused.err.splitlines()) == 1

    def test_save_at_the_prompt_does_not_replace_another_file(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """``save FILE`` of a file the game did not write says so and leaves it alone."""
        path = tmp_path / "other.txt"
        path.write_text("keep me")
        result = run("play", "ayoayo", "--ai", "beginner", stdin=f"save {path}\nq\n")
        assert "already exists; choose another name" in result.out
        assert path.read_text() == "keep me"


class TestLevelsAndPositions:
    def test_a_named_level_is_the_engine_at_its_depth(self, run: Callable[..., Run]) -> None:
        """--ai strong plays as engine:d8."""
        assert "against engine:d8" in run("play", "ayoayo", "--ai", "strong", stdin="q\n").out

    def test_a_level_with_a_limit_is_refused(self, run: Callable[..., Run]) -> None:
        """A level already says how deep; --depth beside it is an error."""
        failed = run("play", "ayoayo", "--ai", "club", "--depth", "3", stdin="")
        assert failed.code == 2 and "strength level" in failed.err

    def test_the_printed_position_line_is_accepted_back(self, run: Callable[..., Run]) -> None:
        """``position: ...`` as printed by the commands is a valid --position."""
        line = "position: [[2,6,6,1,1,7],[0,2,7,2,7,7]] captured 0,0 to-move 1"
        result = run("analyse", "ayoayo", "-p", line, "--depth", "2", "--json")
        assert result.json()["position"] == line.removeprefix("position: ")


class TestMatchRecords:
    def test_each_game_is_saved_as_a_record_that_replays(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """Every game of a swapped match is a record naming its seats, legal to the end."""
        folder = tmp_path / "games"
        args = ("match", "tictactoe", "minimax:2", "random", "-n", "6", "--swap", "--seed", "3")
        result = run(*args, "--save", str(folder))
        assert result.code == 0 and "6 game records written" in result.out
        files = sorted(folder.iterdir())
        assert [f.name for f in files] == [f"game-{i:05d}.txt" for i in range(1, 7)]
        for number, path in enumerate(files):
            record = parse_record(path.read_text())
            game, states = record.positions()
            assert game.is_terminal(states[-1])
            seats = "minimax:2, random" if number % 2 == 0 else "random, minimax:2"
            assert record.headers["players"] == seats

    def test_workers_save_the_same_games(self, run: Callable[..., Run], tmp_path: Path) -> None:
        """Two worker processes write the records one process writes (fixed-depth agents)."""
        args = ("match", "tictactoe", "minimax:1", "random", "-n", "4", "--seed", "9")
        run(*args, "--save", str(tmp_path / "one"))
        run(*args, "-j", "2", "--save", str(tmp_path / "two"))
        for path in sorted((tmp_path / "one").iterdir()):
            assert path.read_text() == (tmp_path / "two" / path.name).read_text()

    def test_old_records_are_kept_without_force(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """A folder holding records is refused before playing, unless --force."""
        args = ("match", "tictactoe", "random", "random", "-n", "2", "--save", str(tmp_path))
        assert run(*args).code == 0
        refused = run(*args)
        assert refused.code == 2 and "pass --force" in refused.err
        assert run(*args, "--force").code == 0


class TestSeatAndCells:
    def test_cells_from_one_are_read_and_shown_shifted(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """Typing 3 with --cells 1-6 plays cell 2; the record keeps the notation."""
        path = tmp_path / "game.txt"
        result = run(
            "play", "ayoayo", "--ai", "beginner", "--cells", "1-6", "--save", str(path),
            stdin="3\nq\n",
        )  # fmt: skip
        assert "Player 1 to move (1, 2, 3, 4, 5, 6) [help]: " in result.out
        assert "1. Player 1 (you) plays 3" in result.out and "sowing: cell 3: 5 laps" in result.out
        assert parse_record(path.read_text()).moves[0] == "2"

    def test_a_cell_outside_one_to_six_is_re_asked(self, run: Callable[..., Run]) -> None:
        """0 and 7 are not cells when counting from 1; the legal cells are listed from 1."""
        result = run("play", "ayoayo", "--cells", "1-6", "--ai", "beginner", stdin="0\n7\nq\n")
        said = "a move is a cell number 1..6 of your row; legal here: 1, 2, 3, 4, 5, 6"
        assert result.out.count(said) == 2

    def test_the_seat_puts_your_row_at_the_bottom(self, run: Callable[..., Run]) -> None:
        """Playing second with --seat, Player 2's row is drawn under Player 1's."""
        result = run("play", "ayoayo", "--seat", "--first", "ai", "--ai", "beginner", stdin="q\n")
        lines = result.out.splitlines()
        top = next(i for i, line in enumerate(lines) if line.startswith("Player 1   "))
        assert lines[top + 1].startswith("Player 2 (you)")
        assert "left to right along your row" in result.out

    def test_seat_and_cells_are_for_pits_only(self, run: Callable[..., Run]) -> None:
        """Tic-tac-toe has no rows of pits: the options are refused."""
        failed = run("play", "tictactoe", "--seat", stdin="")
        assert failed.code == 2 and "for games of pits and stores" in failed.err


class TestRepetition:
    def test_play_can_go_on_past_a_repeated_position(self, run: Callable[..., Run]) -> None:
        """Without the repetition rule the game runs to the ply limit, which it then needs."""
        cells = "".join(f"{c}\n" for _ in range(40) for c in range(6))
        refused = run("play", "ayoayo", "--no-repetition-rule", stdin="")
        assert refused.code == 2 and "needs --max-plies" in refused.err
        # The AI breaks ties at random: a seed makes the game the same every run (seed 3's
        # game lasts; with seeds 1, 2 and 4 the AI wins before the limit).
        result = run(
            "play", "ayoayo", "--ai", "beginner", "--no-repetition-rule", "--max-plies", "12",
            "--seed", "3", stdin=cells,
        )  # fmt: skip
        assert "after 12 plies (ply limit reached" in result.out


def test_play_with_stdin_closed_is_an_error_not_a_traceback() -> None:
    """Started with stdin closed (``<&-``), play says where it reads moves from: exit 2."""
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; os.close(0); sys.stdin = None; "
            "from zerosum import main; sys.exit(main(['play', 'tictactoe']))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "standard input, which is closed" in done.stderr and "Traceback" not in done.stderr
