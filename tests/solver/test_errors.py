"""One error hierarchy: every project error is a GameError, importable from solver and old homes."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import solver
import solver.errors
from games import load_game
from solver import apply, search, solve
from solver.errors import (
    GameError,
    InvalidOptionError,
    InvalidStateError,
    NotAGameError,
)
from solver.game import parse_action
from solver.results import MAX_TABLE_SIZE

ROOT = Path(__file__).resolve().parents[2]

ERRORS = [name for name in solver.errors.__all__ if name != "GameError"]

OLD_HOMES = {
    "solver.game": ["CapabilityError", "GameError", "IllegalActionError", "InvalidStateError",
                    "UnknownGameError"],
    "solver.solve": ["CycleError", "TooManyStatesError", "UnknownStateError"],
    "play": ["AgentError"],
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


class TestHostileArguments:
    """search, solve, apply and load_game check their arguments once, at entry, and raise the
    project's own errors naming the bad value: never a hang, nor an IndexError from the rules."""

    @pytest.fixture
    def ayoayo(self) -> Any:
        return load_game("ayoayo", cache_size=0)

    def test_a_game_that_is_not_a_game(self) -> None:
        with pytest.raises(NotAGameError, match=r"got 'ayoayo' \(a str\).*load_game\('ayoayo'\)"):
            search("ayoayo")  # type: ignore[arg-type]
        with pytest.raises(NotAGameError, match="got None"):
            search(None)  # type: ignore[arg-type]
        with pytest.raises(NotAGameError, match="solve needs a game"):
            solve(42)  # type: ignore[arg-type]

    def test_a_string_for_the_state(self, ayoayo: Any) -> None:
        with pytest.raises(InvalidStateError, match=r"invalid Ayòayò state 'ayoayo': it is a str"):
            search(ayoayo, "ayoayo", depth=1)

    def test_another_games_state(self, ayoayo: Any) -> None:
        state = load_game("tictactoe").initial_state()
        with pytest.raises(InvalidStateError, match="it has 9 items, not 15"):
            search(ayoayo, state, depth=1)
        with pytest.raises(InvalidStateError, match="9 items"):
            apply(ayoayo, state, 0)
        with pytest.raises(InvalidStateError, match="9 items"):
            parse_action(ayoayo, state, "0")

    @pytest.mark.parametrize(
        ("state", "why"),
        [
            ((4,) * 12 + (0, 0, 5), r"the player to move \(item 14\) is 5, not 0 or 1"),
            (tuple(range(15)), r"the player to move \(item 14\) is 14"),
            ((*range(14), 0), "make 91, not 48"),
            ((4,) * 12 + (0, 0, 0, 0), "16 items"),
            ((-4, 8) + (4,) * 10 + (0, 0, 0), "item 0 is -4"),
        ],
    )
    def test_malformed_ayoayo_states(self, ayoayo: Any, state: tuple[int, ...], why: str) -> None:
        with pytest.raises(InvalidStateError, match=why):
            search(ayoayo, state, depth=1)
        with pytest.raises(InvalidStateError, match=why):
            solve(ayoayo, state)

    def test_an_unhashable_state(self, ayoayo: Any) -> None:
        with pytest.raises(InvalidStateError, match=r"not hashable.*tuples, not lists"):
            search(ayoayo, list(ayoayo.initial_state()), depth=1)

    def test_a_table_too_large_is_refused_before_allocating(self, ayoayo: Any) -> None:
        with pytest.raises(InvalidOptionError, match=r"table size 1000000000000: use at most"):
            search(ayoayo, table_size=10**12, depth=1)
        assert MAX_TABLE_SIZE == 1 << 28

    @pytest.mark.parametrize("limit", [float("nan"), float("inf"), 0, 2.5, True, "10"])
    def test_a_state_limit_that_is_not_a_whole_number(self, limit: Any) -> None:
        with pytest.raises(InvalidOptionError, match="invalid max_states"):
            solve(load_game("tictactoe"), max_states=limit)

    def test_a_tree_that_contains_itself(self) -> None:
        tree: list[Any] = [1, 2]
        tree.append(tree)
        with pytest.raises(InvalidStateError, match=r"contains itself at tree\[2\]"):
            load_game("textbook", tree=tree)
        inner: list[Any] = [3]
        tree = [[1, inner], [2]]
        inner.append(tree)
        with pytest.raises(InvalidStateError, match=r"contains itself at tree\[0\]\[1\]\[1\]"):
            load_game("textbook", tree=tree)

    def test_a_tree_nested_50000_deep(self) -> None:
        tree: Any = [1, 2]
        for _ in range(50_000):
            tree = [tree]
        with pytest.raises(InvalidStateError, match="nests deeper than 10,000 levels"):
            load_game("textbook", tree=tree)
        with pytest.raises(InvalidStateError, match="nests deeper than 10,000 levels"):
            load_game("textbook", tree="[" * 50_000 + "1" + "]" * 50_000)

    @pytest.mark.parametrize("tail", ["captured", "captured 4", "to-move", "captured 0,0 to-move"])
    def test_a_position_with_a_field_and_no_numbers(self, ayoayo: Any, tail: str) -> None:
        with pytest.raises(InvalidStateError, match="needs"):
            ayoayo.parse_state("[[2,6,6,1,1,7],[0,2,7,2,7,7]] " + tail)

    def test_solve_under_a_small_address_space_fails_cleanly(self) -> None:
        """Ayòayò has far more states than fit in 150 MB more than the process has: the walk
        stops with a TooManyStatesError saying memory ran out, in seconds, not a hang or a
        MemoryError from deep inside."""
        code = (
            "import resource\n"
            "from games import load_game\n"
            "from solver import solve\n"
            "game = load_game('ayoayo')\n"
            "vm = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
            "resource.setrlimit(resource.RLIMIT_AS, (vm + (150 << 20),) * 2)\n"
            "try:\n"
            "    solve(game, max_states=10**9)\n"
            "except Exception as e:\n"
            "    print(type(e).__name__, e)\n"
        )
        env = {**os.environ, "GAMESOLVER_NATIVE": "0", "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.stdout.startswith("TooManyStatesError solve stopped after"), done.stderr
        assert "it ran out of memory" in done.stdout

    def test_the_checks_are_made_once_at_entry(
        self, ayoayo: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The state is checked once a search, not at its nodes (the fast path stays fast)."""
        calls: list[object] = []
        real = type(ayoayo).check_state
        monkeypatch.setattr(
            type(ayoayo), "check_state", lambda self, s: calls.append(s) or real(self, s)
        )
        result = search(ayoayo, ayoayo.initial_state(), depth=4, native=False)
        assert result.stats.nodes > 100 and len(calls) == 1
