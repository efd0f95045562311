"""What an exercise sheet shows and asks, for the drawing model (:mod:`viz.model`).

An exercise shows every leaf's value and hides the answers the student finds: every other
value, the bounds, the cuts and pruned marks, the principal path and best moves (the model
applies it, so every writer draws the same sheet); its instruction asks only for what the sheet
has blanks for.

The tree (:mod:`viz.build`) records each valued node's ``bound``: ``"exact"``, or
``"lower"``/``"upper"`` when alpha-beta left the value a bound (the fail-soft rule of
:func:`viz.build.bound_kind`). How a value or bound is written is :mod:`viz.notation`'s.

>>> exercise_task("minimax")
'fill in the value of every inner node; search the moves left to right'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from viz.errors import VizError

__all__ = ["exercise_task", "exercise_value"]


def exercise_value(
    data: Mapping[str, Any], value: float | None, bound: str
) -> tuple[float | None, str]:
    """What an exercise writes in a node: a leaf's ``value`` and ``bound``, nothing elsewhere.

    ``value`` and ``bound`` are the node's as the picture's view shows them.

    Raises:
        VizError: a leaf pruned without a value, or a collapsed subtree (its leaves are not
            drawn): the student could not solve the tree.

    >>> node, leaf = {"kind": "node", "leaf": None}, {"kind": "node", "leaf": "terminal"}
    >>> exercise_value(leaf, 3, "exact"), exercise_value(node, 3, "upper")
    ((3, 'exact'), (None, 'exact'))
    """
    if data["kind"] == "summary":
        raise VizError(
            f"an exercise shows every leaf's value, and {data['positions']:,} positions below "
            f"{data['title']!r} are summarised in one box: draw it without --collapse "
            "(collapse=False)"
        )
    if not data["leaf"]:
        return None, "exact"
    if value is None:
        raise VizError(
            f"an exercise shows every leaf's value, and leaf {data['title']!r} was pruned "
            "without one: build the tree with pruned='values'"
        )
    return value, bound


def exercise_task(algorithm: str, *, windows: bool = False) -> str:
    """The instruction written under an exercise: what to fill in, and only what the sheet has
    room for (windows and ranges only where ``windows``: the sheet draws their blanks).

    >>> exercise_task("minimax")
    'fill in the value of every inner node; search the moves left to right'
    >>> exercise_task("alphabeta")
    'fill in the value of every inner node, mark each bound ≥ or ≤ and cross out the branches alpha-beta never visits; search the moves left to right'
    """  # noqa: E501
    parts = ["fill in the value of every inner node"]
    if algorithm == "alphabeta":
        if windows:
            parts.append(", its window (α, β) on entry and its range [lo, hi]")
        parts.append(", mark each bound ≥ or ≤ and cross out the branches alpha-beta never visits")
    parts.append("; search the moves left to right")
    return "".join(parts)
