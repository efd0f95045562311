"""Every game of ours passes the same conformance suite (seeded random playouts).

Installed plug-in games are checked only when asked: ``pytest tests/conformance
--plugin-games`` adds every installed one, ``--plugin-games=NAME,NAME`` those named. Without
the option a plug-in installed beside ours (perhaps broken, perhaps unfinished) cannot fail our
suite, and with it a plug-in's author runs our suite on their game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import BUILTIN_GAMES, available_games, load_game
from solver.testing import check_game, check_state, playout
from tests.games.fakes import install_entry_points

EXTRA_CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("textbook", {"tree": [[1, [2, [3, -4.5]]], 7, [[0], [8, 9, 10, 11]]], "labels": "aima"}),
    ("textbook", {"tree": 5}),
    ("textbook", {"tree": "[{1/6: [3, {1/2: 1, 1/2: 2}], 5/6: 4}, [{0.25: 1, 0.75: [0, 9]}]]"}),
    ("hog", {"goal": 7, "dice": 2, "sides": 4}),
]
"""Beyond the defaults: a ragged textbook tree with AIMA labels, a one-node tree, a tree with
chance nodes (exact and decimal probabilities), and a small Hog."""

OUR_CASES = [pytest.param(name, {}, id=name) for name in sorted(BUILTIN_GAMES)] + [
    pytest.param(name, options, id=f"{name}-{i}")
    for i, (name, options) in enumerate(EXTRA_CONFIGURATIONS, 1)
]


def plugin_games(choice: str | None) -> list[str]:
    """The installed plug-in games to check: none when ``choice`` is None (the option was not
    given), every installed one for ``"all"``, else the comma-separated names in ``choice``.

    Raises:
        pytest.UsageError: a name that is no installed plug-in game, naming those that are.
    """
    if choice is None:
        return []
    installed = [name for name in available_games() if name not in BUILTIN_GAMES]
    if choice == "all":
        return installed
    names = [name.strip() for name in choice.split(",") if name.strip()]
    for name in names:
        if name not in installed:
            raise pytest.UsageError(
                f"unknown plug-in game {name!r} for --plugin-games; installed: "
                f"{', '.join(installed) or 'none'}"
            )
    return names


def conformance_cases(choice: str | None) -> list[Any]:
    """Our games' cases, then those of the plug-in games ``choice`` asks for
    (:func:`plugin_games`)."""
    plugins = plugin_games(choice)
    return OUR_CASES + [pytest.param(name, {}, id=f"plugin-{name}") for name in plugins]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Our games, and the plug-in games ``--plugin-games`` asks for."""
    if {"name", "options"} <= set(metafunc.fixturenames):
        cases = conformance_cases(metafunc.config.getoption("--plugin-games"))
        metafunc.parametrize(("name", "options"), cases)


def load(name: str, options: dict[str, Any]) -> Any:
    """Load a game; a built-in whose module is not written yet is an expected failure."""
    try:
        return load_game(name, **options)
    except ModuleNotFoundError as error:
        if error.name == f"games.{name}":
            pytest.xfail(f"games/{name}.py not yet written")
        raise


class TestConformance:
    def test_random_playouts(self, name: str, options: dict[str, Any]) -> None:
        """Seeded random playouts satisfy every per-state and per-move check."""
        check_game(load(name, options))

    def test_name_matches_registry(self, name: str, options: dict[str, Any]) -> None:
        """The game's name attribute is the name it is registered under."""
        assert load(name, options).name == name

    def test_playouts_reproducible(self, name: str, options: dict[str, Any]) -> None:
        """The same seed replays the same game (actions come in a fixed order)."""
        game = load(name, options)
        first = playout(game, random.Random(7))
        again = playout(load(name, options), random.Random(7))
        assert first == again

    def test_fresh_instances_agree(self, name: str, options: dict[str, Any]) -> None:
        """Two instances of a game share the rules: same start, same moves, same checks pass."""
        one, two = load(name, options), load(name, options)
        start = one.initial_state()
        assert start == two.initial_state()
        assert list(one.actions(start)) == list(two.actions(start))
        check_state(two, start)


class TestWhichGames:
    def test_an_installed_plugin_is_checked_only_when_asked(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A plug-in installed beside ours is not in the suite unless named or all are asked."""
        install_entry_points(monkeypatch, {"coin": "fake_plugin:Coin", "dice": "fake_plugin:D"})
        assert {case.values[0] for case in conformance_cases(None)} == set(BUILTIN_GAMES)
        assert {case.values[0] for case in conformance_cases("all")} == {
            *BUILTIN_GAMES,
            "coin",
            "dice",
        }
        assert [case.id for case in conformance_cases(" dice ")][-1] == "plugin-dice"

    def test_an_unknown_plugin_name_is_refused_naming_the_installed(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A name that is no installed plug-in (a built-in one included) is a usage error."""
        install_entry_points(monkeypatch, {"coin": "fake_plugin:Coin"})
        with pytest.raises(pytest.UsageError, match=r"unknown plug-in game 'tictactoe'.*: coin"):
            plugin_games("tictactoe")
