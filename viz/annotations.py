"""What a node's annotations say, in one place for every picture (TikZ, the interactive page).

The tree (:mod:`viz.build`) records each visited node's bound kind in its ``bound`` attribute:
``"exact"``, or ``"lower"``/``"upper"`` when alpha-beta left the value a bound (fail-soft: a value
at or below the window's alpha on entry is an upper bound, at or above its beta a lower bound).

>>> value_text({"value": 4, "bound": "upper", "player": 0})
'≤4'
"""

from __future__ import annotations

from typing import Any

from viz.build import num

__all__ = ["bound_kind", "value_text"]


def bound_kind(data: dict[str, Any]) -> str:
    """The node's bound kind, ``"exact"``, ``"lower"`` or ``"upper"``, as the tree records it.

    >>> bound_kind({"bound": "upper", "player": 0, "exact": False})
    'upper'
    """
    bound = data.get("bound")
    if bound in ("exact", "lower", "upper"):
        return str(bound)
    # a tree built before nodes carried "bound": a bound is all it says, its side is the role's
    if data.get("exact", True):
        return "exact"
    return "lower" if data["player"] == 0 else "upper"


def value_text(data: dict[str, Any]) -> str:
    """The value as drawn: ``≥v`` on a lower bound, ``≤v`` on an upper bound, else ``v``.

    >>> value_text({"value": 4, "bound": "upper", "player": 0})
    '≤4'
    """
    if data["value"] is None:
        return ""
    prefix = {"exact": "", "lower": "≥", "upper": "≤"}[bound_kind(data)]
    return prefix + num(data["value"])
