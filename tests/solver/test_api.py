"""The public API: `from solver import search, solve, minimax, alphabeta` gives the functions."""

from __future__ import annotations

import importlib

import solver
from games import load_game
from solver.engine import search as engine_search
from solver.minimax import alphabeta as teaching_alphabeta
from solver.minimax import minimax as teaching_minimax
from solver.solve import solve as solve_function


class TestPublicApi:
    def test_the_searches_are_the_functions(self) -> None:
        """The names at the top level are the functions of the submodules, not the modules."""
        assert solver.search is engine_search
        assert solver.solve is solve_function
        assert solver.minimax is teaching_minimax
        assert solver.alphabeta is teaching_alphabeta

    def test_submodule_imports_keep_working(self) -> None:
        """`from solver.solve import solve` and friends still import from the modules."""
        for module, name in [("solver.solve", "solve"), ("solver.minimax", "minimax")]:
            assert callable(getattr(importlib.import_module(module), name))

    def test_they_agree_on_a_tiny_tree(self) -> None:
        """All four give the textbook value through the top-level names."""
        from solver import alphabeta, minimax, search, solve

        game = load_game("textbook", tree=[[3, 12, 8], [2, 4, 6], [14, 5, 2]])
        values = {minimax(game).value, alphabeta(game).value, search(game).value}
        assert values == {solve(game).root_value} == {3}

    def test_everything_listed_is_there(self) -> None:
        """Every name in solver.__all__ exists."""
        assert all(hasattr(solver, name) for name in solver.__all__)
