"""Tests for viz.state_graph: a solved game drawn as its graph of states."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.errors import TooManyNodesError, UnknownFormatError
from solver.solve import solve
from tests.cyclic_games import PassingNim
from viz.state_graph import render_state_graph, state_graph_dot


class TestStateGraph:
    """Each state once, its value and plies or 'endless', optimal moves marked."""

    def test_every_state_and_move_once(self) -> None:
        """Passing Nim from 4 has 10 states and 22 moves, each drawn once."""
        source = state_graph_dot(solve(PassingNim(4)))
        assert source.count("shape=") == 10
        assert source.count(" -> ") == 22  # piles 4, 3 and 2: 3 moves; 1: 2; both to move

    def test_values_plies_and_endless(self) -> None:
        """Labels carry the value with its plies, 'endless' (dashed) or 'over'."""
        source = state_graph_dot(solve(PassingNim(4)))
        assert '"4 MAX\\n0 (endless)"' in source
        assert '"2 MIN\\n-1 (in 1 ply)"' in source
        assert '"0 MAX\\n-1 (over)"' in source
        assert source.count('style="filled,dashed"') == 4  # 3 and 4 counters, both to move

    def test_optimal_moves_are_bold(self) -> None:
        """The moves that keep the value are drawn bold blue, the others thin grey."""
        source = state_graph_dot(solve(PassingNim(4)))
        bold = [line for line in source.splitlines() if "penwidth=2.2" in line]
        assert len(bold) == 10  # 4: take1, pass (x2); 3: pass (x2); 2: take2 (x2); 1: take1 (x2)

    def test_refuses_a_large_solution(self) -> None:
        """More states than max_states is a clear error saying what to do."""
        with pytest.raises(TooManyNodesError, match="10 states, more than max_states=5;"):
            state_graph_dot(solve(PassingNim(4)), max_states=5)

    def test_writes_dot_and_refuses_unknown_suffixes(self, tmp_path: Path) -> None:
        """A .dot file is written as is; an unknown suffix names the valid ones."""
        solution = solve(PassingNim(2))
        path = render_state_graph(solution, tmp_path / "g.dot", title="two")
        assert path.read_text(encoding="utf-8").startswith("digraph")
        with pytest.raises(UnknownFormatError, match=r"'\.txt'.*\.dot, \.svg, \.png, \.pdf"):
            render_state_graph(solution, tmp_path / "g.txt")
