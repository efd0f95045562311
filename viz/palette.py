"""The colours every writer draws with: a palette for projectors and for colour-blind eyes.

A washed-out projector keeps little but lightness, so the fills of MAX, MIN and chance nodes
differ in lightness (by 1.38:1 or more in WCAG contrast, as far apart as the pale blue of MAX
and the green of chance), not in hue alone: a very light sky blue, a mid green, a darker
salmon, read apart in greyscale too. The marks a student must not miss stand out from the
white page by 3:1 or more (WCAG's floor for graphics): pruned lines and numbers in a grey of
4.5:1, the current step's fill in Okabe and Ito's vermilion (3.9:1, and seen by every kind of
colour blindness: it is no yellow that tritanopes lose on white). Black text keeps 5:1 or more
on every fill.

>>> round(contrast(MAX_FILL, MIN_FILL), 2) >= 1.38, round(contrast(PRUNED, "#ffffff"), 2)
(True, 4.54)

This module imports nothing: every writer (Graphviz, TikZ, the pages' CSS) takes its colours
from here.
"""

from __future__ import annotations

__all__ = [
    "CHANCE_FILL",
    "CURRENT",
    "MAX_FILL",
    "MIN_FILL",
    "PRUNED",
    "contrast",
    "css_variables",
    "luminance",
]

MAX_FILL = "#e8f1fb"
"""MAX's fill: the lightest (sky blue)."""
CHANCE_FILL = "#a6dba0"
"""A chance node's fill: mid green, between MAX's and MIN's in lightness."""
MIN_FILL = "#ef9a7a"
"""MIN's fill: the darkest (salmon)."""
PRUNED = "#767676"
"""Pruned moves and nodes, dashed: 4.5:1 on white."""
CURRENT = "#d55e00"
"""The current step's node and pseudocode line (Okabe-Ito vermilion): 3.9:1 on white."""


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``: 0 for black, 1 for white.

    >>> luminance("#000000"), luminance("#ffffff")
    (0.0, 1.0)
    """
    digits = colour.lstrip("#")
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white).

    >>> round(contrast("#000000", "#ffffff"), 1)
    21.0
    """
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def css_variables() -> str:
    """The palette as CSS custom properties, for the pages' style sheets.

    >>> css_variables().splitlines()[0]
    ':root { --max-fill: #e8f1fb; --min-fill: #ef9a7a; --chance-fill: #a6dba0;'
    """
    return (
        f":root {{ --max-fill: {MAX_FILL}; --min-fill: {MIN_FILL}; --chance-fill: {CHANCE_FILL};\n"
        f"  --pruned: {PRUNED}; --current: {CURRENT}; }}\n"
    )
