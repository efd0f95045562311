"""Quoting user input in error messages without echoing all of it.

An error names the bad value with ``!r`` (docs/adding-a-game.md, "Errors"), but a value can be
130 KB of pasted tree or a 5,000-digit number: a message must stay one readable line.
:func:`quote` gives the ``repr`` of a short value and, for a long one, the ``repr`` of its first
characters, an ellipsis and the full length.

>>> quote("tictac")
"'tictac'"
>>> quote("9" * 5000)
"'999999999999999999999999999999999999999999999999999999999999'… (5,000 characters)"
"""

from __future__ import annotations

from typing import Final

__all__ = ["QUOTE_LIMIT", "quote"]

QUOTE_LIMIT: Final = 60
"""How many characters of a long value an error message shows."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, or for a long value the ``repr`` of its first ``limit`` characters.

    Strings are cut by characters; any other value by the characters of its ``str``, so a
    5,000-digit int or a deeply nested list is quoted by its beginning too.

    >>> quote([[3, 12], [2, 4]])
    '[[3, 12], [2, 4]]'
    >>> quote(10**100, limit=10)
    "'1000000000'… (101 characters)"
    """
    if isinstance(value, str):
        text = value
    else:
        try:
            text = repr(value)
        except (RecursionError, ValueError):  # nested too deep, or an int too long to print
            return f"<{type(value).__name__} too large to show>"
        if len(text) <= limit:
            return text
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"
