"""One error hierarchy: every project error is a GameError, importable from solver and old homes."""

from __future__ import annotations

import importlib

import pytest

import solver
import solver.errors
from solver.errors import GameError

ERRORS = [name for name in solver.errors.__all__ if name != "GameError"]

OLD_HOMES = {
    "solver.game": ["CapabilityError", "GameError", "IllegalActionError", "InvalidStateError",
                    "UnknownGameError"],
    "solver.solve": ["CycleError", "TooManyStatesError", "UnknownStateError"],
    "solver.match": ["AgentError"],
    "viz.errors": ["GraphvizNotFoundError", "TooManyNodesError", "UnknownFormatError", "VizError"],
    "viz": ["GraphvizNotFoundError", "TooManyNodesError", "UnknownFormatError", "VizError"],
}  # fmt: skip


class TestHierarchy:
    @pytest.mark.parametrize("name", ERRORS)
    def test_every_error_is_a_game_error(self, name: str) -> None:
        """Catching GameError catches every error the project raises on purpose."""
        assert issubclass(getattr(solver.errors, name), GameError)

    @pytest.mark.parametrize("name", ERRORS)
    def test_every_error_is_exported_from_solver(self, name: str) -> None:
        """`from solver import XError` gives the same class as solver.errors."""
        assert getattr(solver, name) is getattr(solver.errors, name)

    @pytest.mark.parametrize(
        ("module", "name"), [(m, n) for m, names in OLD_HOMES.items() for n in names]
    )
    def test_old_import_paths_still_work(self, module: str, name: str) -> None:
        """Code that imported an error from where it used to live gets the same class."""
        assert getattr(importlib.import_module(module), name) is getattr(solver.errors, name)

    def test_value_errors_stay_value_errors(self) -> None:
        """Bad-value errors are also ValueError, so `except ValueError` keeps catching them."""
        for name in ("IllegalActionError", "InvalidStateError", "AgentError", "TooManyNodesError"):
            assert issubclass(getattr(solver.errors, name), ValueError)


class TestVersion:
    def test_version_is_the_installed_distribution(self) -> None:
        """solver.__version__ is the version pip installed."""
        from importlib.metadata import version

        assert solver.__version__ == version(solver.DISTRIBUTION)
