"""Misuse that mypy must reject: ``make typecheck`` checks this file (it is never run).

Each line below is a mistake a user could make, marked with the error mypy reports. mypy runs
with ``warn_unused_ignores`` (part of ``--strict``), so if a change to the signatures ever lets
one of these through, its ``type: ignore`` becomes unused and the type check fails.
"""

from __future__ import annotations

from games.tictactoe import TicTacToe
from solver.engine import search
from solver.minimax import alphabeta, minimax
from solver.solve import solve
from solver.testing import check_game, check_state, playout
from viz.build import game_tree
from viz.tree_node import TreeNode, tree_node


def options_are_keyword_only() -> None:
    """A depth passed by position (once silently read as something else) is an error."""
    game = TicTacToe()
    minimax(game, game.initial_state(), 3)  # type: ignore[call-arg]
    alphabeta(game, None, 2)  # type: ignore[call-arg]
    search(game, game.initial_state(), 3)  # type: ignore[call-arg]


def states_belong_to_their_game() -> None:
    """A state of another type than the game's (its text, say) is an error."""
    game = TicTacToe()
    minimax(game, "x.o/.x./...")  # type: ignore[misc]
    search(game, "x.o/.x./...")  # type: ignore[misc]
    solve(game, "x.o/.x./...")  # type: ignore[misc]
    game_tree(game, "x.o/.x./...")  # type: ignore[misc]
    check_state(game, 4)  # type: ignore[misc]


def evaluations_return_numbers() -> None:
    """An evaluation function must take the game's state and return a number."""
    game = TicTacToe()
    minimax(game, depth=2, evaluate=lambda state: "good")  # type: ignore[arg-type,return-value]


def playouts_give_states() -> None:
    """A playout returns the game's states, typed; seeds are ints."""
    import random

    states = playout(TicTacToe(), random.Random(1))
    states[0].upper()  # type: ignore[attr-defined]
    check_game(TicTacToe(), seeds="0123")  # type: ignore[arg-type]  # seeds are ints


def tree_node_fields_are_named() -> None:
    """A teaching tree's node field misspelt, read, written or given, is an error."""
    import attrs

    graph = game_tree(TicTacToe(), TicTacToe().parse_state("xo./xo./...")).graph
    _ = tree_node(graph, 0).vlaue  # type: ignore[attr-defined]
    tree_node(graph, 0).bonud = "exact"  # type: ignore[attr-defined]
    attrs.evolve(TreeNode(), cut_bye=0)  # type: ignore[call-arg]
