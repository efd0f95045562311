"""The compact layout: a whole depth-4, branching-3 tree on one 16:9 slide, leaves readable.

One leaf per column makes such a tree 81 leaves wide: fitted into a 16:9 frame its texts come
out at about 1 pt. Here the bottom plies are listed down under their parent, as a table of
contents lists its sections: each child one row lower than the last, joined by a stub from the
parent's spine (a line down from the parent's left part), its own children listed under it one
step further in. Three children and their nine leaves then take one narrow column under their
grandparent, and the tree is as wide as its third-lowest ply.

The plies above stay a tidy tree: each subtree right of its left sibling's as close as their
outlines allow (boxes of what each node draws, its texts included, compared where their heights
meet), a parent centred over its children. The writer says how large each node is and what
it writes beside itself; this module only places: no TikZ here.

>>> kids = {0: [1, 2], 1: [3, 4], 2: [], 3: [], 4: []}
>>> ply = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2}
>>> plain = Extent(0.3, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
>>> out = compact_layout(kids, ply, 0, lambda n: plain, listed_plies=1)
>>> sorted(out.listed), out.where[3][1] > out.where[4][1], out.where[3][0] == out.where[4][0]
([3, 4], True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

__all__ = ["CompactLayout", "Extent", "compact_layout"]

Outline = list[tuple[float, float, float, float]]  # boxes (y low, y high, x left, x right)


@attrs.frozen
class Extent:
    """What one node draws, around its centre (cm).

    ``half_w``/``half_h``: half its shape; ``left``/``right``: how far its texts reach beyond
    the shape in its row as a tidy node (its name on the left, its notes on the right);
    ``listed``: how far they reach right of it as a listed node (its name, and the notes of a
    node without children); ``notes_w``/``notes_h``: the notes a listed parent writes right of
    its list (0 for none); ``band``: half the height its texts take in its row as a tidy node
    (notes of several lines are taller than the shape).
    """

    half_w: float
    half_h: float
    left: float
    right: float
    listed: float
    notes_w: float
    notes_h: float
    band: float = 0.0


@attrs.frozen
class CompactLayout:
    """Where everything goes (cm): node centres, the spine under each parent of a list and
    the top left corner of the notes a listed parent writes right of its list."""

    where: dict[int, tuple[float, float]]
    listed: frozenset[int]
    spine: dict[int, float]
    notes: dict[int, tuple[float, float]]


SPINE_INSET = 0.1
"""How far in from its parent's left edge a spine runs (cm)."""


def compact_layout(
    children: Mapping[int, Sequence[int]],
    depth: Mapping[int, int],
    root: int,
    extent: Callable[[int], Extent],
    *,
    listed_plies: int = 2,
    row: float = 1.0,
    stub: Callable[[int], float] = lambda node: 0.3,
    gap: float = 0.04,
    margin: float = 0.15,
) -> CompactLayout:
    """Place every node: the lowest ``listed_plies`` plies listed under their parents.

    Args:
        children: each node's children, in their order (left to right, top to bottom).
        depth: each node's ply (the root's is 0).
        root: the top node drawn.
        extent: how large each node is and what it writes beside itself.
        listed_plies: how many of the lowest plies are listed (0: a tidy tree throughout).
        row: the distance between the tidy plies.
        stub: the length of the line from a node's spine to each of its listed children.
        gap: the least room between two rows of a list.
        margin: the least room between two subtrees side by side.
    """
    deepest = max(depth.values())
    listed = frozenset(n for n in depth if n != root and depth[n] > deepest - listed_plies)
    where: dict[int, tuple[float, float]] = {}
    spine: dict[int, float] = {}
    notes: dict[int, tuple[float, float]] = {}

    def place_list(node: int, x: float, y: float) -> tuple[Outline, float]:
        """Place ``node``'s listed children under it (``node`` at x, y); return their boxes
        and the lowest y they reach."""
        own = extent(node)
        line = x - own.half_w + SPINE_INSET
        spine[node] = line
        boxes: Outline = []
        bottom = y - (own.half_h if node in listed else max(own.half_h, own.band))
        right = x + own.half_w
        for kid in children[node]:
            size = extent(kid)
            ky = bottom - gap - size.half_h
            kx = line + stub(node) + size.half_w
            where[kid] = (kx, ky)
            boxes.append(
                (ky - size.half_h, ky + size.half_h, line - 0.02, kx + size.half_w + size.listed)
            )
            right = max(right, kx + size.half_w)
            bottom = ky - size.half_h
            if children[kid]:
                below, bottom = place_list(kid, kx, ky)
                boxes += below
        if children[node]:  # the spine itself, past the rows of its grandchildren
            last = where[children[node][-1]][1]
            boxes.append((last, y, line - 0.05, line + 0.05))
        if own.notes_w and children[node] and node in listed:
            # right of everything listed below the node, from its own row down
            left = max([right] + [b[3] for b in boxes]) + 0.1
            notes[node] = (left, y + own.half_h)
            boxes.append((y + own.half_h - own.notes_h, y + own.half_h, left, left + own.notes_w))
            bottom = min(bottom, y + own.half_h - own.notes_h)
        return boxes, bottom

    offset: dict[int, float] = {}

    def outline(node: int) -> Outline:
        """The boxes of ``node``'s subtree, x relative to the node; places its list."""
        size = extent(node)
        y = -row * depth[node]
        band = max(size.half_h, size.band)
        own = (y - band, y + band, -size.half_w - size.left, size.half_w + size.right)
        kids = children[node]
        if kids and kids[0] in listed:
            where[node] = (0.0, y)  # relative for now: shifted with its subtree below
            boxes, _ = place_list(node, 0.0, y)
            return [own, *boxes]
        merged: Outline = []
        places = []
        for kid in kids:
            theirs = outline(kid)
            shift = max(
                (
                    a[3] - b[2] + margin
                    for a in merged
                    for b in theirs
                    if a[0] < b[1] + 1e-9 and b[0] < a[1] + 1e-9
                ),
                default=0.0,
            )
            places.append(shift)
            merged += [(lo, hi, left + shift, right + shift) for lo, hi, left, right in theirs]
        if not kids:
            return [own]
        centre = (places[0] + places[-1]) / 2
        for kid, place in zip(kids, places, strict=True):
            offset[kid] = place - centre
        return [own] + [(lo, hi, left - centre, right - centre) for lo, hi, left, right in merged]

    outline(root)
    _to_absolute(children, root, listed, offset, where, spine, notes, row, depth)
    return CompactLayout(where, listed, spine, notes)


def _to_absolute(
    children: Mapping[int, Sequence[int]],
    root: int,
    listed: frozenset[int],
    offset: dict[int, float],
    where: dict[int, tuple[float, float]],
    spine: dict[int, float],
    notes: dict[int, tuple[float, float]],
    row: float,
    depth: Mapping[int, int],
) -> None:
    """From places relative to a parent (a tidy node) or to the top of a list, to places on
    the page: a tidy node at its parent's x plus its offset, a list moved with its top."""
    shift_of: dict[int, float] = {root: 0.0}
    stack = [root]
    while stack:
        node = stack.pop()
        x = shift_of[node]
        if node not in listed:
            where[node] = (x, -row * depth[node])
        for kid in children[node]:
            shift_of[kid] = x if kid in listed else x + offset[kid]
            stack.append(kid)
    for node in listed:
        kx, ky = where[node]
        where[node] = (kx + shift_of[node], ky)
    for node in list(spine):
        spine[node] += shift_of[node]
    for node in list(notes):
        nx, ny = notes[node]
        notes[node] = (nx + shift_of[node], ny)
