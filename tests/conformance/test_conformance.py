"""Every registered game passes the same conformance suite (seeded random playouts)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import available_games, load_game
from solver.testing import check_game, check_state, playout

EXTRA_CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("textbook", {"tree": [[1, [2, [3, -4.5]]], 7, [[0], [8, 9, 10, 11]]], "labels": "aima"}),
    ("textbook", {"tree": 5}),
    ("textbook", {"tree": "[{1/6: [3, {1/2: 1, 1/2: 2}], 5/6: 4}, [{0.25: 1, 0.75: [0, 9]}]]"}),
    ("hog", {"goal": 7, "dice": 2, "sides": 4}),
]
"""Beyond the defaults: a ragged textbook tree with AIMA labels, a one-node tree, a tree with
chance nodes (exact and decimal probabilities), and a small Hog."""

CASES = [pytest.param(name, {}, id=name) for name in available_games()] + [
    pytest.param(name, options, id=f"{name}-{i}")
    for i, (name, options) in enumerate(EXTRA_CONFIGURATIONS, 1)
]


def load(name: str, options: dict[str, Any]) -> Any:
    """Load a game; a built-in whose module is not written yet is an expected failure."""
    try:
        return load_game(name, **options)
    except ModuleNotFoundError as error:
        if error.name == f"games.{name}":
            pytest.xfail(f"games/{name}.py not yet written")
        raise


@pytest.mark.parametrize(("name", "options"), CASES)
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
