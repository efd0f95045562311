"""Chance moves: the checked way to read a state's outcomes, and exact expectations.

Assumes two players, zero-sum, perfect information, with chance moves declared by the game
(:class:`solver.game.HasChance`). Probabilities are ``fractions.Fraction`` (exact: values stay
exact through any number of chance layers), ints (0 or 1) or floats. Every expectation here is
the plain probability-weighted sum ``sum(p * v)``: nothing is divided by the number of outcomes
(the probabilities already sum to 1), the mistake that shrinks values by 1/n per chance layer.

>>> from fractions import Fraction
>>> half = Fraction(1, 2)
>>> expectation([(half, 3), (half, 4)])
Fraction(7, 2)
>>> expectation([(half, 3), (half, 5)])
4
>>> check_probabilities([Fraction(1, 2), Fraction(1, 3)], "node 'root'")
Traceback (most recent call last):
...
solver.errors.InvalidStateError: invalid probabilities at node 'root': 1/2, 1/3 sum to 5/6, \
not 1; give each outcome a probability > 0 so that they sum to 1
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Rational
from typing import Any, Final, TypeVar

from solver.capabilities import has_capability
from solver.errors import CapabilityError, InvalidStateError
from solver.game import Game, HasChance, Probability, format_state

__all__ = [
    "FLOAT_TOLERANCE",
    "check_probabilities",
    "expectation",
    "has_chance",
    "is_chance",
    "outcomes",
    "probability_text",
    "refuse_chance",
    "roll",
    "tidy",
]

S = TypeVar("S")
A = TypeVar("A")

FLOAT_TOLERANCE: Final = 1e-9
"""How far from 1 float probabilities may sum (exact ones must sum to exactly 1)."""


def has_chance(game: object) -> bool:
    """True for a game that declares chance moves (:class:`solver.game.HasChance`)."""
    return has_capability(game, HasChance)


def is_chance(game: Game[S, A], state: S) -> bool:
    """True where chance moves in ``state`` (False for every state of a deterministic game)."""
    return has_capability(game, HasChance) and bool(game.is_chance(state))


def roll(game: HasChance, state: Any, rng: random.Random) -> Any:
    """One chance outcome of ``state``, drawn with its probability from ``rng`` (seeded: the
    same draws every time).

    >>> from games import load_game
    >>> game = load_game("textbook", tree="[{1/6: 1, 5/6: 2}]")
    >>> coin = game.result(game.initial_state(), 0)  # MAX's one move leads to the die
    >>> rolls = [roll(game, coin, random.Random(seed)) for seed in range(600)]
    >>> 60 < rolls.count(0) < 140  # about one in six
    True
    """
    outcomes = game.chance_outcomes(state)
    weights = [float(p) for _, p in outcomes]
    return rng.choices([outcome for outcome, _ in outcomes], weights=weights)[0]


def refuse_chance(game: Game[Any, Any], search: str) -> None:
    """Raise :class:`CapabilityError` if ``game`` has chance moves, for a search that has none.

    >>> from games import load_game
    >>> refuse_chance(load_game("textbook", tree="[{1/2: 3, 1/2: 5}]"), "minimax")
    Traceback (most recent call last):
    ...
    solver.errors.CapabilityError: minimax assumes a deterministic game, and game 'textbook' \
has chance moves; use expectiminimax, star1 or star2
    """
    if has_chance(game):
        raise CapabilityError(
            f"{search} assumes a deterministic game, and game {game.name!r} has chance moves; "
            "use expectiminimax, star1 or star2"
        )


def probability_text(p: Probability) -> str:
    """A probability as a teacher writes it: ``1/6`` for a fraction, ``0.25`` for a float.

    >>> probability_text(Fraction(1, 6)), probability_text(0.25), probability_text(1)
    ('1/6', '0.25', '1')
    """
    if isinstance(p, Fraction):
        return str(p)
    return f"{p:.4g}" if isinstance(p, float) else str(p)


def check_probabilities(probabilities: Sequence[Any], where: str) -> None:
    """Check that ``probabilities`` are numbers > 0 that sum to 1.

    Exact ones (``Fraction``, int) must sum to exactly 1; with a float among them the sum may
    be off by :data:`FLOAT_TOLERANCE`.

    Raises:
        InvalidStateError: a probability that is not a finite number, not > 0, or a total that
            is not 1; the message quotes the bad value and says ``where``.
    """
    fix = "give each outcome a probability > 0 so that they sum to 1"
    if not probabilities:
        raise InvalidStateError(f"no outcomes at {where}: a chance node needs at least one")
    for p in probabilities:
        number = isinstance(p, (Rational, float)) and not isinstance(p, bool)
        if not number or not math.isfinite(p):
            raise InvalidStateError(
                f"invalid probability {p!r} at {where}: use a Fraction, an int or a float; {fix}"
            )
        if p <= 0:
            raise InvalidStateError(
                f"invalid probability {probability_text(p)} at {where}: it must be > 0 "
                "(leave out an outcome that cannot happen)"
            )
    total = sum(probabilities)
    exact = not any(isinstance(p, float) for p in probabilities)
    if (total != 1) if exact else not math.isclose(total, 1, abs_tol=FLOAT_TOLERANCE):
        listed = ", ".join(probability_text(p) for p in probabilities)
        raise InvalidStateError(
            f"invalid probabilities at {where}: {listed} sum to {probability_text(total)}, "
            f"not 1; {fix}"
        )


def outcomes(game: Game[S, A], state: S) -> list[tuple[A, Probability]]:
    """The chance outcomes of ``state`` with their probabilities, checked.

    Raises:
        InvalidStateError: the probabilities are not > 0 or do not sum to 1, or the outcomes
            are not the state's ``actions`` in the same order.
    """
    assert isinstance(game, HasChance)
    pairs = [(a, p) for a, p in game.chance_outcomes(state)]
    where = f"state {format_state(game, state)!r}"
    check_probabilities([p for _, p in pairs], where)
    if [a for a, _ in pairs] != list(game.actions(state)):
        raise InvalidStateError(
            f"the chance outcomes at {where} are not its actions in the same order: "
            f"{[a for a, _ in pairs]!r} vs {list(game.actions(state))!r}"
        )
    return pairs


def tidy(value: Any) -> Any:
    """A Fraction with denominator 1 as an int (so an expectation 3 is written 3, not 3/1)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def expectation(weighted: Iterable[tuple[Probability, Any]]) -> Any:
    """``sum(p * v)`` over ``(p, v)`` pairs: exact for Fractions and ints, an int when whole."""
    return tidy(sum((p * v for p, v in weighted), start=0))
