"""The conformance suite: checks every game must pass (the Game protocol's contract), installed.

A plug-in author runs it in their own tests; the project runs it over every registered game::

    from solver.testing import check_game

    def test_my_game_conforms() -> None:
        check_game(MyGame())

:func:`check_game` plays seeded random games and checks every state and move on the way; the
individual checks are public so a game's tests can run them on chosen states. A failed check
raises :class:`AssertionError` (pytest shows it as a test failure) with a message naming the
rule and the value that broke it; the checks do not use ``assert`` statements, so they also
work under ``python -O``.

What is checked, for every state a playout reaches:

* the state is hashable and equal to a deep copy of itself; ``to_move`` is 0 or 1;
* ``actions`` come in a fixed order without duplicates, and are empty iff the state is terminal;
* a terminal state's ``utility`` is a finite number;
* each optional capability the game has keeps its promise: ``evaluate`` finite, notations that
  round-trip, ``key`` equal for equal states, ``symmetries`` that contain the state and keep
  its terminality, utility and evaluation, a non-empty ``render``; and the pseudo-legal move
  contract (:class:`solver.game.HasPseudoActions`): ``pseudo_actions`` is a superset of
  ``actions`` in the same relative order, empty only at terminal states, and ``try_result``
  gives ``result`` for exactly the legal candidates and None for the others; chance
  (:class:`solver.game.HasChance`): at a chance state, outcomes that are the actions in order,
  probabilities > 0 summing to 1, never terminal; utilities inside ``utility_bounds``;

and for every move: ``result`` leaves the state untouched and is deterministic.

Randomness comes only from the ``random.Random`` passed in, and no check asserts on what a
random playout reaches, only on properties every state must have.

>>> from games import load_game
>>> check_game(load_game("textbook"))  # silent when the game conforms
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Final, TypeVar

from solver.chance import outcomes
from solver.game import (
    Game,
    HasActionNotation,
    HasChance,
    HasEvaluate,
    HasKey,
    HasPseudoActions,
    HasRender,
    HasStateNotation,
    HasSymmetries,
    HasUtilityBounds,
    InvalidStateError,
)

__all__ = [
    "MAX_PLIES",
    "check_chance",
    "check_game",
    "check_playout",
    "check_pseudo_actions",
    "check_state",
    "check_symmetries",
    "check_transition",
    "playout",
]

S = TypeVar("S")
A = TypeVar("A")

MAX_PLIES: Final = 2_000
"""Playouts stop after this many plies (games such as Ayòayò can go on for a long time)."""


def _require(condition: object, message: str) -> None:
    """Fail the check with ``message`` unless ``condition`` holds."""
    if not condition:
        raise AssertionError(message)


def check_state(game: Game[S, A], state: S) -> None:
    """Check the per-state contract: mover, actions, terminality, utility and capabilities.

    >>> from games import load_game
    >>> game = load_game("tictactoe")
    >>> check_state(game, game.parse_state("xxx/oo./..."))
    """
    _require(isinstance(state, Hashable), f"state {state!r} is not hashable")
    _require(hash(state) == hash(copy.deepcopy(state)), f"state {state!r} hashes by identity")
    _require(game.to_move(state) in (0, 1), f"to_move must be 0 or 1, not {game.to_move(state)!r}")
    actions = list(game.actions(state))
    _require(actions == list(game.actions(state)), "actions must come in a fixed order")
    _require(len(actions) == len(set(map(repr, actions))), f"duplicate actions {actions!r}")
    terminal = game.is_terminal(state)
    _require(terminal == (not actions), "a state is terminal iff it has no actions")
    if terminal:
        utility = game.utility(state)
        _require(
            isinstance(utility, (int, float)) and not isinstance(utility, bool),
            f"utility must be an int or float, not {utility!r}",
        )
        _require(math.isfinite(utility), f"utility must be finite, not {utility!r}")
    if isinstance(game, HasEvaluate):
        value = game.evaluate(state)
        _require(math.isfinite(value), f"evaluate must be finite, not {value!r}")
    if isinstance(game, HasStateNotation):
        _check_state_notation(game, state)
    if isinstance(game, HasActionNotation):
        for action in actions:
            text = game.format_action(state, action)
            _require(isinstance(text, str) and text, f"format_action gave {text!r}")
            again = game.parse_action(state, text)
            _require(again == action, f"action {text!r} does not round-trip: {again!r}")
    if isinstance(game, HasKey):
        key = game.key(state)
        _require(isinstance(key, Hashable), f"key {key!r} is not hashable")
        _require(game.key(copy.deepcopy(state)) == key, "equal states must have equal keys")
    if isinstance(game, HasSymmetries):
        check_symmetries(game, state, terminal)
    if isinstance(game, HasPseudoActions):
        check_pseudo_actions(game, state, actions)
    if isinstance(game, HasChance):
        check_chance(game, state, actions, terminal)
    if isinstance(game, HasUtilityBounds) and terminal:
        lo, hi = game.utility_bounds()
        _require(lo <= game.utility(state) <= hi, f"utility outside utility_bounds {(lo, hi)!r}")
    if isinstance(game, HasRender):
        picture = game.render(state)
        _require(isinstance(picture, str) and picture.strip(), f"render gave {picture!r}")


def check_chance(game: HasChance, state: Any, actions: Sequence[Any], terminal: bool) -> None:
    """Check a state's chance outcomes (:class:`solver.game.HasChance`): at a chance state,
    outcomes with probabilities > 0 that sum to 1, listed as the state's actions, never at a
    terminal state."""
    if not game.is_chance(state):
        return
    _require(not terminal, f"a chance state must not be terminal: {state!r}")
    try:
        outcomes(game, state)  # type: ignore[arg-type]
    except InvalidStateError as error:
        raise AssertionError(f"chance_outcomes: {error}") from None
    _require(len(actions) > 0, "a chance state needs outcomes")


def _check_state_notation(game: HasStateNotation, state: Any) -> None:
    text = game.format_state(state)
    _require(isinstance(text, str) and text, f"format_state gave {text!r}")
    again = game.parse_state(text)
    _require(again == state, f"parse_state(format_state(s)) != s for {text!r}")
    _require(game.format_state(again) == text, f"format_state is not stable for {text!r}")


def check_symmetries(game: Any, state: Any, terminal: bool) -> None:
    """Symmetric images include the state and share its terminality, utility and
    evaluation (a table keyed by class, ``search(symmetric=True)``, answers for every image
    from one of them, at the horizon too)."""
    images = list(game.symmetries(state))
    evaluation = game.evaluate(state) if isinstance(game, HasEvaluate) else None
    _require(state in images, "symmetries(state) must include the state itself")
    for image in images:
        _require(isinstance(image, Hashable), f"symmetric image {image!r} is not hashable")
        _require(game.is_terminal(image) == terminal, f"image {image!r} changes terminality")
        if terminal:
            _require(game.utility(image) == game.utility(state), f"image {image!r} changes utility")
        if evaluation is not None:
            _require(
                game.evaluate(image) == evaluation,
                f"image {image!r} changes evaluate ({game.evaluate(image)!r} != {evaluation!r})",
            )
        _require(
            len(list(game.actions(image))) == len(list(game.actions(state))),
            f"image {image!r} has a different number of actions",
        )


def check_pseudo_actions(game: Any, state: Any, legal: Sequence[Any] | None = None) -> None:
    """The pseudo-legal contract of :class:`solver.game.HasPseudoActions` holds at ``state``.

    ``pseudo_actions`` lists the legal ``actions`` in their order among other candidates, and is
    empty only at a terminal state; ``try_result`` equals ``result`` for a legal candidate and is
    None for any other, without changing the state.
    """
    legal = list(game.actions(state)) if legal is None else list(legal)
    candidates = list(game.pseudo_actions(state))
    _require(
        candidates == list(game.pseudo_actions(state)), "pseudo_actions must come in a fixed order"
    )
    _require(
        candidates or game.is_terminal(state),
        "pseudo_actions may be empty only at a terminal state",
    )
    before = copy.deepcopy(state)
    found = []
    for candidate in candidates:
        child = game.try_result(state, candidate)
        _require(state == before, "try_result must not mutate the state")
        if child is None:
            _require(
                candidate not in legal, f"try_result gave None for the legal action {candidate!r}"
            )
            continue
        _require(
            candidate in legal, f"try_result gave a state for the illegal action {candidate!r}"
        )
        _require(
            child == game.result(state, candidate),
            f"try_result and result disagree on action {candidate!r}",
        )
        found.append(candidate)
    _require(
        found == legal,
        f"the legal candidates {found!r} must be actions(state) {legal!r}, in the same order",
    )


def check_transition(game: Game[S, A], state: S, action: A) -> S:
    """``result`` leaves ``state`` untouched and returns a new hashable state; return it."""
    before = copy.deepcopy(state)
    before_hash = hash(state)
    child = game.result(state, action)
    _require(state == before and hash(state) == before_hash, "result must not mutate the state")
    _require(isinstance(child, Hashable), f"result gave the unhashable {child!r}")
    _require(child == game.result(before, action), "result must be deterministic")
    return child


def playout(
    game: Game[S, A], rng: random.Random, state: S | None = None, max_plies: int = MAX_PLIES
) -> list[S]:
    """Play random legal moves from ``state`` and return the states visited, in order.

    Stops at a terminal state, after ``max_plies`` plies, or when a state repeats.

    >>> from games import load_game
    >>> states = playout(load_game("textbook"), random.Random(1))
    >>> len(states)
    3
    """
    here: S = game.initial_state() if state is None else state
    visited = [here]
    seen = {here}
    for _ in range(max_plies):
        actions = list(game.actions(here))
        if not actions:
            break
        here = game.result(here, rng.choice(actions))
        visited.append(here)
        if here in seen:
            break
        seen.add(here)
    return visited


def check_playout(game: Game[S, A], rng: random.Random, max_plies: int = MAX_PLIES) -> int:
    """Run one random playout, checking every state and transition; return the plies played."""
    state = game.initial_state()
    _require(state == game.initial_state(), "initial_state must be deterministic")
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


def check_game(
    game: Game[S, A], seeds: Iterable[int] = range(8), max_plies: int = MAX_PLIES
) -> None:
    """The whole contract: a name, and seeded random playouts with every check on every state.

    Args:
        game: the game to check.
        seeds: one playout per seed, each with its own ``random.Random(seed)``.
        max_plies: the longest playout.

    Raises:
        AssertionError: a check failed; the message names the rule and the offending value.
    """
    _require(isinstance(game.name, str) and game.name, f"name must be a non-empty str: {game!r}")
    for seed in seeds:
        check_playout(game, random.Random(seed), max_plies)
