"""Reusable conformance checks that every game must pass (the Game protocol's contract).

Use :func:`check_game` on any game object; the individual checks are public so a game's own
tests can run them on chosen states. Randomness comes only from the ``random.Random`` passed in,
and no check asserts on what a random playout reaches, only on properties every state must have.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Hashable, Iterable
from typing import Any

from solver.game import (
    HasActionNotation,
    HasEvaluate,
    HasKey,
    HasRender,
    HasStateNotation,
    HasSymmetries,
)

MAX_PLIES = 2_000
"""Playouts stop after this many plies (games such as Ayòayò can go on for a long time)."""


def check_state(game: Any, state: Any) -> None:
    """Check the per-state contract: mover, actions, terminality, utility and capabilities."""
    assert isinstance(state, Hashable) and hash(state) == hash(copy.deepcopy(state))
    assert game.to_move(state) in (0, 1)
    actions = list(game.actions(state))
    assert actions == list(game.actions(state)), "actions must come in a fixed order"
    assert len(actions) == len(set(map(repr, actions))), f"duplicate actions {actions!r}"
    terminal = game.is_terminal(state)
    assert terminal == (not actions), "a state is terminal iff it has no actions"
    if terminal:
        utility = game.utility(state)
        assert isinstance(utility, (int, float)) and not isinstance(utility, bool)
        assert math.isfinite(utility)
    if isinstance(game, HasEvaluate):
        assert math.isfinite(game.evaluate(state))
    if isinstance(game, HasStateNotation):
        text = game.format_state(state)
        assert isinstance(text, str) and text
        again = game.parse_state(text)
        assert again == state, f"parse_state(format_state(s)) != s for {text!r}"
        assert game.format_state(again) == text
    if isinstance(game, HasActionNotation):
        for action in actions:
            text = game.format_action(state, action)
            assert isinstance(text, str) and text
            assert game.parse_action(state, text) == action, f"action {text!r} does not round-trip"
    if isinstance(game, HasKey):
        key = game.key(state)
        assert isinstance(key, Hashable)
        assert game.key(copy.deepcopy(state)) == key
    if isinstance(game, HasSymmetries):
        check_symmetries(game, state, terminal)
    if isinstance(game, HasRender):
        picture = game.render(state)
        assert isinstance(picture, str) and picture.strip()


def check_symmetries(game: Any, state: Any, terminal: bool) -> None:
    """Symmetric images include the state and share its terminality and utility."""
    images = list(game.symmetries(state))
    assert state in images, "symmetries(state) must include the state itself"
    for image in images:
        assert isinstance(image, Hashable)
        assert game.is_terminal(image) == terminal
        if terminal:
            assert game.utility(image) == game.utility(state)
        assert len(list(game.actions(image))) == len(list(game.actions(state)))


def check_transition(game: Any, state: Any, action: Any) -> Any:
    """``result`` leaves ``state`` untouched and returns a new hashable state; return it."""
    before = copy.deepcopy(state)
    before_hash = hash(state)
    child = game.result(state, action)
    assert state == before and hash(state) == before_hash, "result must not mutate the state"
    assert isinstance(child, Hashable)
    assert child == game.result(before, action), "result must be deterministic"
    return child


def playout(
    game: Any, rng: random.Random, state: Any = None, max_plies: int = MAX_PLIES
) -> list[Any]:
    """Play random legal moves from ``state`` and return the states visited, in order.

    Stops at a terminal state, after ``max_plies`` plies, or when a state repeats.
    """
    state = game.initial_state() if state is None else state
    visited = [state]
    seen = {state}
    for _ in range(max_plies):
        actions = list(game.actions(state))
        if not actions:
            break
        state = game.result(state, rng.choice(actions))
        visited.append(state)
        if state in seen:
            break
        seen.add(state)
    return visited


def check_playout(game: Any, rng: random.Random, max_plies: int = MAX_PLIES) -> int:
    """Run one random playout, checking every state and transition; return the plies played."""
    state = game.initial_state()
    assert state == game.initial_state(), "initial_state must be deterministic"
    seen = {state}
    for ply in range(max_plies):
        check_state(game, state)
        actions = list(game.actions(state))
        if not actions:
            return ply
        state = check_transition(game, state, rng.choice(actions))
        if state in seen:
            check_state(game, state)
            return ply + 1
        seen.add(state)
    return max_plies


def check_game(game: Any, seeds: Iterable[int] = range(8), max_plies: int = MAX_PLIES) -> None:
    """The whole contract: names, and seeded random playouts with every check on every state."""
    assert isinstance(game.name, str) and game.name
    for seed in seeds:
        check_playout(game, random.Random(seed), max_plies)
