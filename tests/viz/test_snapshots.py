"""The DOT source of the textbook trees stays as reviewed (tests/viz/snapshots/).

After an intended change to the drawing, regenerate with
``GAMESOLVER_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/viz/test_snapshots.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import load_game
from viz import game_tree, to_dot

SNAPSHOTS = Path(__file__).parent / "snapshots"
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

CASES = {
    "textbook_minimax.dot": ("minimax", False),
    "textbook_alphabeta.dot": ("alphabeta", True),
}


@pytest.mark.parametrize("name", sorted(CASES))
class TestTextbookSnapshots:
    def test_dot_matches_the_snapshot(self, name: str) -> None:
        """The DOT of AIMA Figure 5.2 under this algorithm equals the reviewed snapshot."""
        algorithm, labels = CASES[name]
        game = load_game("textbook", tree=TEXTBOOK, labels="aima")
        source = to_dot(game_tree(game, algorithm=algorithm), alpha_beta_labels=labels)
        path = SNAPSHOTS / name
        if os.environ.get("GAMESOLVER_UPDATE_SNAPSHOTS") == "1":
            path.write_text(source, encoding="utf-8")
        assert source == path.read_text(encoding="utf-8")
