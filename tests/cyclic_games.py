"""Tiny games that cycle, with endless_value, and an independent solver to check solve against.

The independent solver, :func:`values_by_iteration`, shares nothing with ``solver.retrograde``:
it splits the reachable graph into strongly connected components (networkx), takes them
children first, and inside each one iterates the Bellman equation starting from the
component's endless value until nothing changes. Inside a component the endless value is one
number, so after ``k`` rounds the values are those of the game cut off after ``k`` plies and
scored by that number; a player who can force a result forces it within a number of plies that
the graph bounds, so the rounds reach the true values and then repeat.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from solver.game import Game


def _example(name: str) -> Any:
    """Import docs/examples/``name``.py from its file, as a reader would copy it."""
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"docs_example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PassingNim = _example("passing_nim").PassingNim
"""The documented cyclic example game (docs/examples/passing_nim.py)."""


class GraphGame:
    """A game on an explicit graph: node ``u`` belongs to ``player[u]``; values player 0's view.

    ``moves[u]`` lists ``("node", v)`` and ``("exit", value)`` moves; a node without moves is
    terminal, worth ``terminal[u]``; endless play through ``u`` scores ``endless[u]`` (constant
    on each strongly connected component). States are node numbers, and ``("exit", u, k)`` for
    the end reached by node ``u``'s move ``k``.
    """

    name = "graph"

    def __init__(
        self,
        player: Sequence[int],
        moves: Sequence[Sequence[tuple[str, float]]],
        endless: Sequence[float],
        terminal: Sequence[float],
    ) -> None:
        self.player = list(player)
        self.moves = [list(m) for m in moves]
        self.endless = list(endless)
        self.terminal = list(terminal)

    def initial_state(self) -> Any:
        return 0

    def to_move(self, state: Any) -> int:
        return self.player[state] if isinstance(state, int) else 0

    def actions(self, state: Any) -> list[int]:
        return list(range(len(self.moves[state]))) if isinstance(state, int) else []

    def result(self, state: Any, action: int) -> Any:
        kind, x = self.moves[state][action]
        return int(x) if kind == "node" else ("exit", state, action)

    def is_terminal(self, state: Any) -> bool:
        return not self.actions(state)

    def utility(self, state: Any) -> float:
        if isinstance(state, int):
            return self.terminal[state]
        return self.moves[state[1]][state[2]][1]

    def endless_value(self, state: Any) -> float:
        return self.endless[state] if isinstance(state, int) else 0.0


def values_by_iteration(game: Game[Any, Any], root: Any) -> dict[Hashable, float]:
    """Every reachable state's value (player 0's view), solved independently of solve.

    Needs ``game.endless_value``; see the module docstring for the method.
    """
    graph = nx.DiGraph()
    todo, seen = [root], {root}
    while todo:
        state = todo.pop()
        graph.add_node(state)
        for action in game.actions(state):
            child = game.result(state, action)
            graph.add_edge(state, child)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    condensed = nx.condensation(graph)
    value: dict[Hashable, float] = {}
    for component in reversed(list(nx.topological_sort(condensed))):
        members = condensed.nodes[component]["members"]
        current = {s: float(game.endless_value(s)) for s in members}  # type: ignore[attr-defined]
        while True:
            after = {}
            for s in members:
                children = [game.result(s, a) for a in game.actions(s)]
                if not children:
                    after[s] = float(game.utility(s))
                    continue
                options = [current[c] if c in current else value[c] for c in children]
                after[s] = max(options) if game.to_move(s) == 0 else min(options)
            if after == current:
                break
            current = after
        value.update(current)
    return value
