"""``gamesolver scores``: a file of positions solved for their values, checked and timed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import Run

SAMPLE = Path(__file__).parents[1] / "data" / "connect4_scores.txt"
PONS = ("scores", "connect4", "-O", "scored=true", "--mover")


def sample_lines() -> list[tuple[str, str]]:
    rows = [line.split() for line in SAMPLE.read_text().splitlines()]
    return [(row[0], row[1]) for row in rows if row and not row[0].startswith("#")]


class TestPonsFiles:
    def test_the_sample_file_is_solved_with_every_score_right(
        self, run: Callable[..., Run]
    ) -> None:
        """Each position printed with its score, all equal to the file's, and the summary."""
        done = run(*PONS, str(SAMPLE))
        assert done.code == 0, done.err
        printed = [tuple(line.split()) for line in done.out.splitlines()[:-1]]
        assert printed == sample_lines()
        summary = done.out.splitlines()[-1]
        assert summary.startswith("20 positions on the compiled route: mean ")
        assert "median" in summary and "a position (CPU time)" in summary

    def test_a_score_that_differs_names_its_line(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """The first line whose score differs, with both scores; exit 1."""
        path = tmp_path / "wrong.txt"
        path.write_text("4455 18\n4455 17\n4455 3\n")
        done = run(*PONS, "--quiet", str(path))
        assert done.code == 1
        assert f"{path}:2: the position '4455' has the value 18, the file says 17" in done.err
        assert "(2 of 3 values differ)" in done.err and len(done.err.splitlines()) == 1

    def test_values_are_player_0s_without_mover(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """O to move and losing: Pons's score is negative, player 0's value positive."""
        path = tmp_path / "o.txt"
        path.write_text("44556\n")  # O to move; X wins on its next stone
        assert run(*PONS, str(path)).out.splitlines()[0] == "44556 -18"
        plain = run("scores", "connect4", "-O", "scored=true", str(path))
        assert plain.out.splitlines()[0] == "44556 18"
        unscored = run("scores", "connect4", str(path))
        assert unscored.out.splitlines()[0] == "44556 1"


class TestBadInput:
    @pytest.mark.parametrize(
        ("text", "said"),
        [
            ("4455 18\n4455 18 3\n", ":2: bad line '4455 18 3': use '<position> [<value>]'"),
            ("4455 many\n", ":1: bad line '4455 many'"),
            ("4455 ١٨\n", ":1: bad line '4455 ١٨'"),  # another script's digits: not 18
            ("4455 1_8\n", ":1: bad line '4455 1_8'"),
            ("4455 nan\n", ":1: bad line '4455 nan'"),
            ("4455 " + "9" * 400 + "\n", ":1: bad line '4455 99999"),
            ("4455\n448\n", ":2: invalid Connect Four moves '448': move 3 is column '8'"),
            ("4444444\n", ":1: invalid Connect Four moves '4444444': move 7 drops into column"),
        ],
    )
    def test_a_bad_line_is_named(
        self, text: str, said: str, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """One line on stderr naming the file and line; nothing is solved; exit 1."""
        path = tmp_path / "bad.txt"
        path.write_text(text)
        done = run(*PONS, str(path))
        assert done.code == 1 and done.out == ""
        assert f"{path}{said}" in done.err and len(done.err.splitlines()) == 1

    def test_a_file_without_positions_is_named(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        path = tmp_path / "empty.txt"
        path.write_text("# nothing but a comment\n\n")
        done = run(*PONS, str(path))
        assert done.code == 1 and f"{path}: no positions" in done.err

    def test_a_missing_file_is_named(self, run: Callable[..., Run], tmp_path: Path) -> None:
        path = tmp_path / "none.txt"
        done = run(*PONS, str(path))
        assert done.code == 2
        assert f"cannot read the positions file {str(path)!r}: No such file" in done.err


class TestWithoutTheKernel:
    def test_the_engine_answers_the_same_in_python(
        self, run: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """GAMESOLVER_NATIVE=0: the same scores from the Python engine, said in the summary."""
        path = tmp_path / "late.txt"
        path.write_text("\n".join(" ".join(row) for row in sample_lines()[:4]) + "\n")
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        done = run(*PONS, str(path))
        assert done.code == 0, done.err
        assert "4 positions on the engine (Python)" in done.out


def test_a_ctrl_c_sums_up_what_was_solved(tmp_path: Path) -> None:
    """Ctrl-C during a long position: the positions solved before it are summed up (how many
    of how many), then one line and exit 130, as every command's Ctrl-C."""
    import os
    import signal
    import subprocess
    import sys

    path = tmp_path / "long.txt"
    path.write_text("4455 18\n4\n")  # a win in 3, then a position of one stone: minutes
    child = subprocess.Popen(
        [sys.executable, "-m", "zerosum", *PONS, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "4455 18\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, err
    assert out.startswith("1 position of 2, then interrupted on the "), out
    assert err.strip().endswith("interrupted") and "Traceback" not in err
