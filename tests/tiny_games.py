"""Tiny games for tests that need the bare Game protocol and nothing more."""

from __future__ import annotations


class TakeAway:
    """One heap; take one or two counters; who takes the last wins.

    A state is ``(counters left, player to move)``. Only the six required methods: no
    ``evaluate``, no notation, no ``render``, so it shows what algorithms do without them.
    """

    name = "takeaway"

    def __init__(self, counters: int = 5) -> None:
        self.counters = counters

    def initial_state(self) -> tuple[int, int]:
        return (self.counters, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, int]) -> float:
        # The player who just moved took the last counter and wins.
        return 1 if state[1] == 1 else -1
