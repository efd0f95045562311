"""A fast, exact ``isinstance(game, capability)`` for the capability protocols, cached per class.

A search asks a game what it offers (:mod:`solver.game`'s runtime-checkable protocols:
``HasEvaluate``, ``HasKey``, ...) several times before it starts. On Python 3.10 and 3.11 each
``isinstance`` against a protocol walks the protocol's bases to list its members and looks each
one up on the game: about 5-10 µs, a third of the engine's own time around a compiled search of
a small position. :func:`has_capability` gives the same answer from a cache.

The answer is cached per class only where it cannot differ from one instance to another, and
each use checks that the class is still as it was:

* the class defines no ``__getattr__`` and keeps ``object.__getattribute__`` (a wrapper that
  forwards attributes to another game has the capabilities of the game it wraps, one instance
  at a time: never cached);
* on the class, each of the protocol's members is absent, a plain function or a plain value
  (not a property or another descriptor, whose answer may depend on the instance);
* the instance's own ``__dict__`` holds none of the members (a game given a capability in
  ``__init__``, for some options only, is looked at one instance at a time), and its
  ``__class__`` is its type;
* the members found on the class are the very objects found when the answer was cached (a
  method deleted or replaced on the class since is looked at again), and no class has been
  registered with an ABC since (``abc.get_cache_token``).

Otherwise the answer is ``isinstance`` itself, every time.

>>> from solver.game import HasEvaluate, HasChance
>>> from games import load_game
>>> game = load_game("tictactoe")
>>> has_capability(game, HasEvaluate), has_capability(game, HasChance)
(True, False)
"""

from __future__ import annotations

import abc
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from typing_extensions import TypeIs

__all__ = ["has_capability", "protocol_members"]

T = TypeVar("T")

_ABSENT: Final = object()

MAX_CACHED: Final = 4096
"""The most answers kept (the cache holds its classes alive)."""

_MEMBERS: dict[type, tuple[str, ...]] = {}
"""Each protocol's member names, listed once."""

_ANSWERS: dict[tuple[type, Any], tuple[bool, tuple[tuple[str, Any], ...], object]] = {}
"""(class, protocol) -> (the answer, each member with what the class held for it, the ABC
cache token)."""

_SKIPPED_BASES: Final = frozenset({"Protocol", "Generic", "object"})


def protocol_members(protocol: type) -> tuple[str, ...]:
    """The names a runtime-checkable ``protocol`` asks for: its public attributes and methods
    (and ``__call__``), from its own body and its protocol bases'.

    >>> from solver.game import HasStateNotation
    >>> protocol_members(HasStateNotation)
    ('format_state', 'parse_state')
    """
    found = _MEMBERS.get(protocol)
    if found is None:
        names: set[str] = set()
        for base in protocol.__mro__:
            if base.__name__ in _SKIPPED_BASES and base.__module__ in ("typing", "builtins"):
                continue
            for name in (*vars(base), *getattr(base, "__annotations__", {})):
                if not name.startswith("_") or name == "__call__":
                    names.add(name)
        found = _MEMBERS[protocol] = tuple(sorted(names))
    return found


def has_capability(game: object, capability: Callable[..., T]) -> TypeIs[T]:
    """``isinstance(game, capability)`` for a runtime-checkable protocol, cached per class
    where the answer cannot depend on the instance (see the module docstring).

    ``capability`` is typed as a callable so a protocol class may be passed where a type
    checker would refuse an abstract class.
    """
    cls = type(game)
    cached = _ANSWERS.get((cls, capability))
    if (
        cached is not None
        and cached[2] == abc.get_cache_token()
        and game.__class__ is cls
        and cls.__getattribute__ is object.__getattribute__
        and getattr(cls, "__getattr__", None) is None
    ):
        own = getattr(game, "__dict__", None)
        for name, held in cached[1]:
            if getattr(cls, name, _ABSENT) is not held or (own is not None and name in own):
                break
        else:
            return cached[0]
    answer = isinstance(game, capability)  # type: ignore[arg-type]
    held_now = _cacheable(game, cls, capability)  # type: ignore[arg-type]
    if held_now is not None:
        if len(_ANSWERS) >= MAX_CACHED:  # classes made on the fly (tests): start again
            _ANSWERS.clear()
        _ANSWERS[cls, capability] = (answer, held_now, abc.get_cache_token())
    return answer


def _cacheable(game: object, cls: type, protocol: type) -> tuple[tuple[str, Any], ...] | None:
    """The protocol's members, each with what ``cls`` holds for it (or ``_ABSENT``), when
    the answer for ``game`` is the one for every instance of ``cls`` as it is now; None when
    it may depend on the instance."""
    if (
        game.__class__ is not cls
        or cls.__getattribute__ is not object.__getattribute__
        or getattr(cls, "__getattr__", None) is not None
    ):
        return None
    own = getattr(game, "__dict__", None)
    found: list[tuple[str, Any]] = []
    for name in protocol_members(protocol):
        if own is not None and name in own:
            return None
        member = getattr(cls, name, _ABSENT)
        plain = member is _ABSENT or isinstance(member, types.FunctionType)
        if not plain and hasattr(type(member), "__get__"):
            return None  # a property, a slot, a class method: may answer per instance
        found.append((name, member))
    return tuple(found)
