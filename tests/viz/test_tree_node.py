"""Drawn trees hold typed node data (viz.tree_node: TreeNode and its kinds), still read by key."""

from __future__ import annotations

import json

import pytest

from games import load_game
from viz.build import GameTree, game_tree
from viz.engine_tree import engine_game_tree, engine_tree
from viz.mcts_tree import mcts_tree
from viz.tree_json import to_json
from viz.tree_node import FIELDS, EngineNode, MctsNode, TreeNode, mcts_node, tree_node, tree_nodes
from viz.views import cut_view


@pytest.fixture(scope="module")
def figure52() -> GameTree:
    return game_tree(load_game("textbook"), algorithm="alphabeta")


class TestTypedFields:
    def test_every_node_of_a_teaching_tree_is_a_tree_node(self, figure52: GameTree) -> None:
        graph = figure52.graph
        assert all(isinstance(data, TreeNode) for _, data in tree_nodes(graph))

    def test_attributes_and_keys_read_the_same_values(self, figure52: GameTree) -> None:
        graph = figure52.graph
        c = next(n for n, d in tree_nodes(graph) if d.name == "C")
        node = tree_node(graph, c)
        assert (node.value, node.bound, node.range) == (2, "upper", ["-inf", 2])
        assert [graph.nodes[c][k] for k in ("value", "bound", "range")] == [2, "upper", node.range]

    def test_the_keys_are_the_fields_in_order(self) -> None:
        node = TreeNode(kind="pruned", player=1, role="MIN", depth=2)
        assert list(node) == list(FIELDS)
        assert dict(node)["kind"] == "pruned" and len(node) == len(FIELDS)


class TestMisspeltFields:
    def test_a_misspelt_attribute_is_refused(self) -> None:
        """(tests/typing/misuse.py has mypy reject it; slots refuse it at run time too.)"""
        node = TreeNode()
        with pytest.raises(AttributeError):
            node.vlaue = 3  # type: ignore[attr-defined]

    def test_writing_an_unknown_key_is_refused_naming_it(self) -> None:
        node = TreeNode()
        with pytest.raises(KeyError, match="no field 'vlaue'"):
            node["vlaue"] = 3
        assert "vlaue" not in node

    def test_reading_an_unknown_key_is_a_key_error(self) -> None:
        with pytest.raises(KeyError):
            TreeNode()["vlaue"]

    def test_a_field_cannot_be_removed(self) -> None:
        with pytest.raises(TypeError, match="'value' cannot be removed"):
            del TreeNode()["value"]


class TestCopies:
    def test_a_copied_graph_holds_its_own_nodes(self, figure52: GameTree) -> None:
        graph = figure52.graph
        copy = graph.copy()
        tree_node(copy, 0).value = 99
        assert isinstance(copy.nodes[0], TreeNode) and tree_node(graph, 0).value == 3

    def test_the_views_keep_typed_nodes(self) -> None:
        game = load_game("textbook")
        for tree in (
            game_tree(game, algorithm="alphabeta", collapse=True),
            game_tree(game, algorithm="minimax", transpositions=True),
            cut_view(game_tree(game, algorithm="minimax"), levels=1),
        ):
            assert all(isinstance(d, TreeNode) for _, d in tree.graph.nodes(data=True))

    def test_the_json_nodes_carry_the_fields_in_order(self, figure52: GameTree) -> None:
        nodes = json.loads(to_json(figure52))["nodes"]
        assert all(list(n) == [*FIELDS, "id"] for n in nodes)


class TestEngineTrees:
    def test_the_drawn_engine_tree_holds_engine_nodes(self) -> None:
        game = load_game("tictactoe")
        drawn = engine_game_tree(engine_tree(game, game.parse_state("o../x.x/ox.")))
        nodes = [d for _, d in tree_nodes(drawn.graph)]
        assert nodes and all(isinstance(d, EngineNode) for d in nodes)
        assert list(nodes[0]) == [*FIELDS, "table", "table_value", "table_depth"]

    def test_an_engine_node_refuses_a_field_it_lacks(self) -> None:
        with pytest.raises(KeyError, match="no field 'history'"):
            EngineNode()["history"] = []


class TestMctsTrees:
    def test_a_monte_carlo_tree_holds_mcts_nodes(self) -> None:
        tree = mcts_tree(load_game("textbook"), iterations=6, seed=0)
        nodes = [d for _, d in tree_nodes(tree.graph)]
        assert nodes and all(isinstance(d, MctsNode) for d in nodes)
        assert list(nodes[0]) == [*FIELDS, "minimax", "history"]  # no search state left on it

    def test_the_counts_are_typed_fields(self) -> None:
        tree = mcts_tree(load_game("textbook"), iterations=6, seed=0)
        root = mcts_node(tree.graph, 0)
        assert [entry[1] for entry in root.history] == [1, 2, 3, 4, 5, 6]  # N after each
        assert root.minimax == 3 and tree.graph.nodes[0]["history"] is root.history

    def test_a_cut_view_keeps_the_kind_of_node(self) -> None:
        view = cut_view(mcts_tree(load_game("textbook"), iterations=12, seed=0), levels=1)
        kinds = {(type(d), d.kind) for _, d in tree_nodes(view.graph)}
        assert kinds == {(MctsNode, "node"), (MctsNode, "summary")}
