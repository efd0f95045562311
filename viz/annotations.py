"""How a node's value is written, in one place for every picture (TikZ, the interactive page).

The tree (:mod:`viz.build`) records each valued node's ``bound``: ``"exact"``, or
``"lower"``/``"upper"`` when alpha-beta left the value a bound (the fail-soft rule of
:func:`viz.build.bound_kind`). A lower bound is written ``≥v``, an upper bound ``≤v``.

>>> value_text({"value": 4, "bound": "upper"})
'≤4'
"""

from __future__ import annotations

from typing import Any

from viz.build import num

__all__ = ["BOUND_SIGN", "value_text"]

BOUND_SIGN = {"exact": "", "lower": "≥", "upper": "≤"}
"""The sign written before a value of each bound kind."""


def value_text(data: dict[str, Any]) -> str:
    """The value as drawn: ``≥v`` on a lower bound, ``≤v`` on an upper bound, else ``v``.

    >>> value_text({"value": 3, "bound": "exact"}), value_text({"value": None, "bound": "exact"})
    ('3', '')
    """
    if data["value"] is None:
        return ""
    return BOUND_SIGN[data["bound"]] + num(data["value"])
