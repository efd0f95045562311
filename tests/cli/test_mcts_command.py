"""Tests for ``gamesolver tree -a mcts`` and the mcts agent on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


class TestCommand:
    """``gamesolver tree -a mcts``."""

    def test_pictures_and_page(self, tmp_path: Path, run: Any) -> None:
        """A PNG, TikZ and the step-by-step page, and the answer printed."""
        out = run(
            "tree",
            "tictactoe",
            "--position",
            "xo./.x./o..",
            "-a",
            "mcts",
            "--iterations",
            "12",
            "--seed",
            "3",
            "--solver",
            "-o",
            str(tmp_path / "t.svg"),
            "--html",
            str(tmp_path / "t.html"),
        )
        assert out.code == 0, out.err
        assert "mcts from xo./.x./o..:" in out.out
        assert (tmp_path / "t.html").read_text(encoding="utf-8").count("iteration 1:") >= 1

    @pytest.mark.parametrize(
        ("options", "words"),
        [
            (["--exploration", "abc"], "invalid exploration constant 'abc'"),
            (["--exploration", "nan"], "invalid exploration constant 'nan'"),
            (["--iterations", "-3"], "invalid value '-3'"),
            (["--iterations", "5000", "--json"], "5,000 iterations would draw"),
        ],
    )
    def test_bad_options(self, run: Any, options: list[str], words: str) -> None:
        """Bad options name the value and what is valid, with no traceback."""
        out = run("tree", "textbook", "-a", "mcts", *options)
        assert out.code == 2 and words in out.err and "Traceback" not in out.err


class TestAgentCommand:
    """``gamesolver match`` with an mcts agent."""

    def test_match(self, run: Any) -> None:
        """MCTS plays alpha-beta at tic-tac-toe and the table is printed."""
        out = run("match", "tictactoe", "mcts:200", "alphabeta:9", "--games", "2", "--swap")
        assert out.code == 0 and "mcts:200" in out.out

    def test_bad_spec(self, run: Any) -> None:
        """A bad agent spec is named with the valid forms."""
        out = run("match", "tictactoe", "mcts:-5", "random")
        assert out.code == 2 and "bad iterations '-5'" in out.err
