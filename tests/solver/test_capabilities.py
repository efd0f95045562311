"""Tests for the cached capability checks: always the answer ``isinstance`` gives."""

from __future__ import annotations

import typing
from typing import Any, Protocol, runtime_checkable

import pytest

import solver.game as game_module
from games import available_games, load_game
from solver.capabilities import has_capability, protocol_members
from solver.engine import search
from solver.game import CapabilityError, HasEvaluate, HasKey, HasUtilityBounds
from tests.tiny_games import TakeAway

PROTOCOLS = [
    value
    for value in vars(game_module).values()
    if isinstance(value, type) and getattr(value, "_is_runtime_protocol", False)
]


class Scored(TakeAway):
    """Take-away whose evaluation is an option, given per instance in ``__init__``."""

    def __init__(self, counters: int = 5, *, scored: bool = False) -> None:
        super().__init__(counters)
        if scored:
            self.evaluate = self.counting

    def counting(self, state: tuple[int, int]) -> float:
        return 0.5 if state[1] == 0 else -0.5


class Forwarding:
    """A wrapper that forwards every attribute to the game it wraps."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class WithBounds(TakeAway):
    def utility_bounds(self) -> tuple[float, float]:
        return (-1, 1)


class BoundsBlocked(WithBounds):
    utility_bounds = None  # type: ignore[assignment]


class TestSameAnswerAsIsinstance:
    def test_the_members_are_the_ones_typing_checks(self) -> None:
        """Each protocol's members are the names typing's own check looks up."""
        listed = getattr(typing, "_get_protocol_attrs", None)
        for protocol in PROTOCOLS:
            expected = (
                protocol.__protocol_attrs__ if listed is None else listed(protocol)  # type: ignore[attr-defined]
            )
            assert set(protocol_members(protocol)) == set(expected), protocol.__name__

    def test_every_game_every_protocol(self) -> None:
        """Every registered game, asked twice (the second answer from the cache)."""
        for name in available_games():
            game = load_game(name)
            for _ in range(2):
                for protocol in PROTOCOLS:
                    assert has_capability(game, protocol) == isinstance(game, protocol)

    def test_a_method_set_to_none_blocks_the_capability(self) -> None:
        """A subclass that blocks an inherited method has not the capability its base has."""
        assert has_capability(WithBounds(), HasUtilityBounds)
        assert not has_capability(BoundsBlocked(), HasUtilityBounds)
        assert has_capability(WithBounds(), HasUtilityBounds)


class TestNoLeakBetweenGames:
    def test_instances_with_different_options(self) -> None:
        """A capability given in ``__init__`` for one option is not lent to another instance
        of the class, whichever is asked first."""
        plain, scored = Scored(), Scored(scored=True)
        for _ in range(2):
            assert not has_capability(plain, HasEvaluate)
            assert has_capability(scored, HasEvaluate)
        later = Scored()
        assert not has_capability(later, HasEvaluate)

    def test_the_engine_searches_each_instance_with_its_own_capabilities(self) -> None:
        """The engine after a search of the instance with an evaluation still refuses a
        depth-limited search of the one without, and the other way round."""
        plain, scored = Scored(9), Scored(9, scored=True)
        for _ in range(2):
            assert not search(scored, depth=2).exact
            with pytest.raises(CapabilityError, match="no evaluate"):
                search(plain, depth=2)

    def test_wrappers_have_the_capabilities_of_what_they_wrap(self) -> None:
        """Two instances of one forwarding class around different games: each its own."""
        tictactoe, takeaway = Forwarding(load_game("tictactoe")), Forwarding(TakeAway())
        for _ in range(2):
            assert has_capability(tictactoe, HasEvaluate)
            assert not has_capability(takeaway, HasEvaluate)

    def test_a_class_changed_after_an_answer(self) -> None:
        """A method added to or taken from the class after an answer is seen at once."""

        class Changing(TakeAway):
            pass

        game = Changing()
        assert not has_capability(game, HasKey)
        Changing.key = lambda self, state: state  # type: ignore[attr-defined]
        assert has_capability(game, HasKey)
        del Changing.key  # type: ignore[attr-defined]
        assert not has_capability(game, HasKey)

    def test_a_class_registered_after_an_answer(self) -> None:
        """A class registered with a protocol after a 'no' answers 'yes' from then on."""

        @runtime_checkable
        class HasThing(Protocol):
            def thing(self) -> int: ...

        class Plain:
            pass

        assert not has_capability(Plain(), HasThing)
        HasThing.register(Plain)
        assert has_capability(Plain(), HasThing)

    def test_a_property_is_asked_of_each_instance(self) -> None:
        """A capability behind a property is never answered from the cache."""

        class Maybe(TakeAway):
            def __init__(self, has: bool) -> None:
                super().__init__()
                self.has = has

            @property
            def evaluate(self) -> Any:
                if not self.has:
                    raise AttributeError("evaluate")
                return lambda state: 0.0

        yes, no = Maybe(True), Maybe(False)
        for _ in range(2):
            assert has_capability(yes, HasEvaluate) == isinstance(yes, HasEvaluate)
            assert has_capability(no, HasEvaluate) == isinstance(no, HasEvaluate)
