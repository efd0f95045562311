"""What the compiled proof search's ints mean: its results, its table entries and its counters.

Shared by the kernel's text (:mod:`solver.compiled_proof_kernel`, which the generated module
is handed these as constants, as the node search is handed :mod:`solver.compiled`'s) and the
Python side that reads its answers (:mod:`solver.compiled_proof`).

A **result** (what a test of one position returns) is ``status | height << 2 | minrep << 24``.
A **table entry** is the position's packed words, then one int: ``status | depth << 2 |
height << 10 | (move + 1) << 26 | generation << 40`` (move 0: none stored).

>>> info = PROVED | 3 << HEIGHT_SHIFT | (4 + 1) << MOVE_SHIFT
>>> status_of(info), height_of(info), move_of(info)
(1, 3, 4)
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "DISPROVED",
    "MOVE_BITS",
    "NO_REPETITION",
    "PROOF_CONSTANTS",
    "PROOF_STATS",
    "PROVED",
    "UNKNOWN",
    "height_of",
    "move_of",
    "status_of",
]

PROVED, DISPROVED, UNKNOWN = 1, 2, 3
"""A test's status: the mover reaches the threshold, fails to, or it is not settled yet."""

NO_REPETITION: Final = 1 << 20
"""The ``minrep`` of a result that used no repetition leaf (above any ply of a line)."""

DEPTH_SHIFT, HEIGHT_SHIFT, MOVE_SHIFT, GEN_SHIFT = 2, 10, 26, 40
MOVE_BITS: Final = 14
"""Bits of an entry's move field: a game's moves must be below ``2**MOVE_BITS - 1``."""

# Counters and controls shared with Python (indices into one int64 array).
(
    P_NODES,
    P_STOP_AT,
    P_STOPPED,
    P_GEN,
    P_ORACLE,
    P_ORACLE_LEAVES,
    P_REPETITIONS,
    P_STORES,
    P_TABLE_FULL,
    P_HITS,
    P_MOVE,
) = range(11)
PROOF_STATS: Final = 11

PROOF_BUCKET: Final = 8
"""Entries a position may take in the proof's table (from its hash's slot, rounded down)."""

PROOF_CONSTANTS: Final = {
    "PROVED": PROVED, "DISPROVED": DISPROVED, "UNKNOWN": UNKNOWN,
    "NO_REPETITION": NO_REPETITION, "PROOF_BUCKET": PROOF_BUCKET,
    "DEPTH_SHIFT": DEPTH_SHIFT, "HEIGHT_SHIFT": HEIGHT_SHIFT, "MOVE_SHIFT": MOVE_SHIFT,
    "GEN_SHIFT": GEN_SHIFT, "MOVE_BITS": MOVE_BITS,
    "P_NODES": P_NODES, "P_STOP_AT": P_STOP_AT, "P_STOPPED": P_STOPPED, "P_GEN": P_GEN,
    "P_ORACLE": P_ORACLE, "P_ORACLE_LEAVES": P_ORACLE_LEAVES, "P_REPETITIONS": P_REPETITIONS,
    "P_STORES": P_STORES, "P_TABLE_FULL": P_TABLE_FULL, "P_HITS": P_HITS, "P_MOVE": P_MOVE,
}  # fmt: skip
"""The constants the proof kernel's text leaves to the generated module."""


def status_of(info: int) -> int:
    """A result's or an entry's status (:data:`PROVED`, :data:`DISPROVED`, :data:`UNKNOWN`;
    0 for no entry)."""
    return info & 3


def height_of(info: int) -> int:
    """An entry's height (0 at a leaf, one more than the child it rests on)."""
    return (info >> HEIGHT_SHIFT) & 0xFFFF


def move_of(info: int) -> int:
    """An entry's move (the proving move of a proved entry), or -1 when it holds none."""
    return ((info >> MOVE_SHIFT) & ((1 << MOVE_BITS) - 1)) - 1
