"""The installed ``gamesolver`` console script and ``python -m zerosum`` (one subprocess each)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games import available_games


def _script() -> str | None:
    beside = Path(sys.executable).with_name("gamesolver")
    return str(beside) if beside.exists() else shutil.which("gamesolver")


class TestEntryPoints:
    @pytest.mark.skipif(_script() is None, reason="the package is not installed as a script")
    def test_console_script_lists_the_games(self):
        """The installed console script runs and lists every registered game."""
        done = subprocess.run(
            [_script(), "games"], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        assert all(name in done.stdout for name in available_games())

    def test_python_m_solver_reports_errors_with_exit_code_2(self):
        """``python -m zerosum`` is the same command: an unknown game exits 2 without traceback."""
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
        done = subprocess.run(
            [sys.executable, "-m", "zerosum", "best", "tictac"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=env,
        )
        assert done.returncode == 2
        assert "unknown game 'tictac'" in done.stderr
        assert "Traceback" not in done.stderr
