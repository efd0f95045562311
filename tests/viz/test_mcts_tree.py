"""Tests for Monte Carlo tree search drawn (viz.mcts_tree)."""

from __future__ import annotations

from typing import Any

import pytest

from games import load_game
from solver.mcts import mcts
from solver.minimax import minimax
from viz.frames import frame_sources
from viz.mcts_tree import mcts_texts, mcts_tree
from viz.model import figure
from viz.tikz import to_tikz


class TestTree:
    """The drawn tree is the search's own, step by step."""

    def test_same_seed_same_drawing(self) -> None:
        """One seed gives one tree; its root counts are the search's."""
        game = load_game("textbook")
        first, second = (mcts_tree(game, iterations=15, seed=4) for _ in range(2))
        assert first.graph.nodes(data=True) == second.graph.nodes(data=True)
        result = mcts(game, iterations=15, seed=4)
        assert first.graph.nodes[0]["history"][-1][1] == 15
        assert first.result.best_action == result.best_action

    def test_four_steps_an_iteration(self) -> None:
        """Select, expand, playout, back up: one frame each, the counts change at back-up."""
        tree = mcts_tree(load_game("textbook"), iterations=6, seed=0)
        assert [s.kind for s in tree.steps[:4]] == ["select", "expand", "playout", "backup"]
        assert len(tree.steps) == 24
        assert mcts_texts(tree.graph, 0, 3)[0] == ""  # not counted before the first back-up
        assert mcts_texts(tree.graph, 0, 4)[0].endswith("/1")
        assert len(frame_sources(tree)) == 25

    def test_exact_values_beside(self) -> None:
        """Each node shows its exact minimax value beside the estimate."""
        game: Any = load_game("tictactoe")
        state = game.parse_state("xo./.x./o..")
        tree = mcts_tree(game, state, iterations=10, seed=1)
        for _, data in tree.graph.nodes(data=True):
            if data["minimax"] is not None and not data["leaf"]:
                exact = minimax(game, game.parse_state(data["state"])).value
                assert data["minimax"] == exact

    def test_every_writer(self) -> None:
        """The drawing model's writers all take the tree: DOT, TikZ, the stepper's figures."""
        tree = mcts_tree(load_game("textbook"), iterations=8, seed=0, solver=True)
        look = figure(tree)
        assert look.nodes[0].value.startswith("W/N ")
        assert "UCB" in "".join(n.range for n in look.nodes.values())
        assert "W/N" in to_tikz(tree)

    def test_too_many_iterations(self) -> None:
        """A drawing larger than the limit is refused before the search."""
        from viz.errors import TooManyNodesError

        with pytest.raises(TooManyNodesError, match="5,000 iterations"):
            mcts_tree(load_game("textbook"), iterations=5000, max_nodes=100)
