"""How every figure writes a value, a bound, a window, a range and a cut: one notation.

Every writer (Graphviz, TikZ, the stepper and interactive pages, captions and step texts) takes
its texts from here, so a number is written the same way everywhere: a true minus sign
(U+2212, ``−3``, as in ``−∞``), ``+∞`` for infinity, integers without ``.0`` and other numbers
to 3 significant digits (a diagram is crowded). A lower bound is written ``≥v``, an upper bound
``≤v``; the window a node is entered with ``α=v β=w``; the range its value is known to lie in
``[lo, hi]`` (AIMA Figure 5.5); a cut-off ``v=2 ≤ α=3``; an MCTS child's UCB1 score
``UCB 6.8 + 12`` (exploitation + exploration), ``UCB +∞ (unvisited)`` before its first playout
is counted (UCB1 tries every child once before it compares any). The engine's trees write a
window as a pair, ``(α, β)``, or ``probe v`` when it is a null window, and a
transposition-table entry by its flag and the depth it was searched to: ``EXACT d3``
(``d∞``: to the end of the game).

This module imports nothing from the rest of :mod:`viz`, so any module may use it (numbers are
:func:`solver.results.format_value`'s, with a true minus).

>>> number(-3), bound_text(-1, "upper"), window_text(float("-inf"), 3), range_text(3, float("inf"))
('−3', '≤−1', 'α=−∞ β=3', '[3, +∞]')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from solver.results import format_value

__all__ = [
    "BOUNDS",
    "BOUND_SIGN",
    "MINUS",
    "SWAP",
    "TABLE_FLAG",
    "answer_facts",
    "bound_text",
    "cut_text",
    "cut_view_text",
    "depth_text",
    "number",
    "pair_window_text",
    "probe_value",
    "range_text",
    "saving_text",
    "table_entry_text",
    "table_note_text",
    "ucb_text",
    "window_text",
]

MINUS = "\u2212"
"""The minus sign every figure writes (a hyphen is a dash, not a minus)."""

BOUNDS = ("exact", "lower", "upper")
BOUND_SIGN = {"exact": "", "lower": "≥", "upper": "≤"}
"""The sign written before a value of each bound kind."""

SWAP = {"exact": "exact", "lower": "upper", "upper": "lower"}
"""A bound's kind once its value is negated (the negamax view of a MIN node)."""

TABLE_FLAG = {"exact": "EXACT", "lower": "LOWER", "upper": "UPPER"}
"""The transposition-table flag of each bound kind, in the engine's words."""

LARGE = 1e15
"""Whole numbers this large or larger are written with an exponent (``1e+308``), as others
too many digits to read are."""

PROBE_WIDTH = 1e-6
"""A window narrower than this is a null-window probe."""

_INF = float("inf")


def number(value: float | None, digits: int = 3) -> str:
    """A value as a teacher writes it; ``""`` for none.

    >>> from fractions import Fraction
    >>> number(3.0), number(-2.5), number(float("inf")), number(float("-inf")), number(None)
    ('3', '−2.5', '+∞', '−∞', '')
    >>> number(2 / 3), number(-0.0), number(Fraction(-7, 36))
    ('0.667', '0', '−7/36')
    >>> number(1e308), number(-10**20), number(10**14)
    ('1e+308', '−1e+20', '100000000000000')
    """
    if value is None:
        return ""
    if math.isfinite(value) and float(value).is_integer() and abs(value) >= LARGE:
        return f"{float(value):.{digits}g}".replace("-", MINUS)  # not 1e308's 309 digits
    return format_value(value, digits).replace("-", MINUS)


def bound_text(value: float | None, bound: str) -> str:
    """``3``, ``≥3`` or ``≤−1`` by the bound's kind; ``""`` for no value.

    >>> bound_text(3, "lower"), bound_text(-1, "upper"), bound_text(2.0, "exact")
    ('≥3', '≤−1', '2')
    """
    return "" if value is None else BOUND_SIGN[bound] + number(value)


def window_text(alpha: float, beta: float) -> str:
    """The window a node is entered with: ``α=3 β=+∞``.

    >>> window_text(3, float("inf"))
    'α=3 β=+∞'
    """
    return f"α={number(alpha)} β={number(beta)}"


def range_text(lo: float, hi: float) -> str:
    """A value range as AIMA writes it: ``[3, +∞]``.

    >>> range_text(float("-inf"), -2)
    '[−∞, −2]'
    """
    return f"[{number(lo)}, {number(hi)}]"


def cut_text(value: float, limit: float, *, fails_high: bool) -> str:
    """A cut-off as an inequality: ``v=5 ≥ β=3`` (failed high) or ``v=2 ≤ α=3`` (failed low).

    >>> cut_text(2, 3, fails_high=False), cut_text(-2, -3, fails_high=True)
    ('v=2 ≤ α=3', 'v=−2 ≥ β=−3')
    """
    if fails_high:
        return f"v={number(value)} ≥ β={number(limit)}"
    return f"v={number(value)} ≤ α={number(limit)}"


def pair_window_text(alpha: float, beta: float) -> str:
    """A window as the engine's trees write it: ``(α, β)``, or ``probe v`` for a null window
    (the engine asks "is the value above v?").

    >>> pair_window_text(float("-inf"), 2), pair_window_text(-1.0000000000000002, -0.99999999)
    ('(−∞, 2)', 'probe −1')
    """
    if beta - alpha < PROBE_WIDTH:
        return "probe " + number(probe_value(alpha, beta))
    return f"({number(alpha)}, {number(beta)})"


def probe_value(alpha: float, beta: float) -> float:
    """The value a null window ``(alpha, beta)`` asks about: of its two sides and their middle,
    the one written shortest (the engine builds the window one float step off that value: "is
    the value above −1?" is ``(−1, −0.9999999999999999)``, "is it 1?" is ``(1 − ε, 1 + ε)``).

    >>> probe_value(-1, -0.9999999999999999), probe_value(-5e-324, 5e-324)
    (-1.0, 0.0)
    >>> probe_value(0.9999999999999999, 1.0000000000000002)
    1.0
    """
    middle = (alpha + beta) / 2
    if not all(isinstance(x, (int, float)) for x in (alpha, beta)):
        return middle
    return min((float(alpha), float(beta), float(middle)), key=lambda x: len(repr(x + 0.0))) + 0.0


def saving_text(pruned: int, saved: int | None, searched: int, algorithm: str) -> str:
    """What pruning saved: the moves pruned and the nodes saved versus the search that prunes
    nothing (minimax; expectiminimax for the chance searches) over the same tree; ``""`` when
    nothing was pruned or searched twice. Star2 may search more than expectiminimax (a probe
    that does not cut is searched again in full): that is said too.

    >>> print(saving_text(2, 2, 11, "alphabeta"))
    2 moves pruned, 2 nodes saved versus minimax's 13
    >>> print(saving_text(2, 4, 18, "star2"))
    2 moves pruned, 4 nodes saved versus expectiminimax's 22
    >>> print(saving_text(0, -2, 17, "star2"))
    0 moves pruned, 2 nodes more than expectiminimax's 15
    >>> print(saving_text(1, None, 9, "alphabeta"))
    1 move pruned, too many nodes saved to count
    """
    if not pruned and not saved:
        return ""
    moves = f"{pruned:,} {'move' if pruned == 1 else 'moves'} pruned, "
    if saved is None:
        return moves + "too many nodes saved to count"
    base = "expectiminimax" if algorithm in ("expectiminimax", "star1", "star2") else "minimax"
    nodes = "node" if abs(saved) == 1 else "nodes"
    if saved < 0:
        return moves + f"{-saved:,} {nodes} more than {base}'s {searched + saved:,}"
    return moves + f"{saved:,} {nodes} saved versus {base}'s {searched + saved:,}"


def depth_text(depth: int | None) -> str:
    """The depth a table entry was searched to: ``3``, or ``∞`` (None or −1: to the end).

    >>> depth_text(3), depth_text(-1)
    ('3', '∞')
    """
    return "∞" if depth is None or depth < 0 else str(depth)


def table_entry_text(bound: str, depth: int | None) -> str:
    """A table entry that answered a position at once: its flag and depth, ``LOWER d2``.

    >>> table_entry_text("lower", 2), table_entry_text("exact", -1)
    ('LOWER d2', 'EXACT d∞')
    """
    return f"{TABLE_FLAG[bound]} d{depth_text(depth)}"


def table_note_text(value: float, bound: str) -> str:
    """A table entry that did not settle its position (searched on): ``table ≥1 LOWER, searched
    on``; an exact entry is written ``=v``.

    >>> table_note_text(1, "lower"), table_note_text(-1, "exact")
    ('table ≥1 LOWER, searched on', 'table =−1 EXACT, searched on')
    """
    return f"table {BOUND_SIGN[bound] or '='}{number(value)} {TABLE_FLAG[bound]}, searched on"


def ucb_text(terms: tuple[float, float] | None) -> str:
    """A child's UCB1 score as its parent's mover sees it, split in exploitation + exploration;
    ``None`` for a child not yet visited (``N = 0``), whose score is infinite.

    >>> ucb_text((-2.5, 17.84)), ucb_text(None)
    ('UCB −2.5 + 17.8', 'UCB +∞ (unvisited)')
    """
    if terms is None:
        return f"UCB {number(_INF)} (unvisited)"
    exploit, explore = terms  # to 2 decimals, then 3 digits: a crowded diagram's precision
    return f"UCB {number(round(exploit, 2))} + {number(round(explore, 2))}"


def answer_facts(facts: Mapping[str, Any]) -> list[str]:
    """The answer in a caption: ``value v``, ``best move m``, ``principal variation ...``."""
    parts = [f"value {facts['value_text']}"]
    if facts["best_move"] is not None:
        parts.append(f"best move {facts['best_move']}")
    if facts["pv"]:
        parts.append("principal variation " + " ".join(facts["pv"]))
    return parts


def cut_view_text(cut: Mapping[str, Any]) -> str:
    """What part of the tree a view (:func:`viz.views.cut_view`) draws, for its caption.

    >>> cut_view_text({"path": ["1"], "levels": 2, "hidden": 60, "title": "C"})
    'drawn: C, 2 plies deep; 60 positions below not drawn'
    """
    where = cut["title"] if cut["path"] else "the top"
    depth = (
        ""
        if cut["levels"] is None
        else f", {cut['levels']} {'ply' if cut['levels'] == 1 else 'plies'} deep"
    )
    hidden = f"; {cut['hidden']:,} positions below not drawn" if cut["hidden"] else ""
    return f"drawn: {where}{depth}{hidden}"
