"""The names a caller chooses among (searches, views, styles, move orders, pruned views): plain
tuples that import nothing, so that a command line can offer them without loading the drawing
code (networkx, Graphviz) until a tree is drawn.

>>> "star2" in ALGORITHMS, VIEWS
(True, ('minimax', 'negamax'))
"""

from __future__ import annotations

__all__ = ["ALGORITHMS", "ORDERINGS", "PRUNED_VIEWS", "PRUNING", "STYLES", "VIEWS"]

ALGORITHMS = ("minimax", "alphabeta", "expectiminimax", "star1", "star2")
"""The teaching searches a tree is drawn from."""
PRUNING = ("alphabeta", "star1", "star2")
"""The algorithms whose values may be fail-soft bounds (and whose windows are drawn)."""
PRUNED_VIEWS = ("stub", "subtree", "values")
"""How a cut-off is drawn: the pruned moves only, their whole subtrees greyed, or greyed with
the minimax values the search never computed revealed."""
VIEWS = ("minimax", "negamax")
"""Whose side the values are written from: MAX's throughout, or the mover's."""
STYLES = ("default", "aima")
"""``"aima"``: the book's style: its titles, and values as the book writes them (a node cut off
shows the value it returned, ``2``, not the bound ``≤2`` it stands for), ranges as Figure 5.5."""
ORDERINGS = ("given", "best", "worst")
"""The move orders a diagram can be searched in."""
