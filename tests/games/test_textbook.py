"""Textbook trees: structure, validation, notation, AIMA names and labels, the heuristic."""

from __future__ import annotations

import pytest

from games import load_game
from games.textbook import AIMA_FIGURE_5_2, TextbookTree
from solver.game import IllegalActionError, InvalidStateError, apply, parse_action

RAGGED = [[1, [2, [3, -4.5]]], 7, [[0], [8, 9, 10, 11]]]


class TestStructure:
    def test_default_is_aima_figure_5_2(self) -> None:
        """The registry's default textbook tree is AIMA Figure 5.2."""
        game = load_game("textbook")
        assert game.name == "textbook"
        leaves = [game.utility((i, j)) for i in range(3) for j in range(3)]
        assert leaves == [v for row in AIMA_FIGURE_5_2 for v in row]

    def test_players_alternate_by_depth(self) -> None:
        """MAX moves at even depths and MIN at odd depths."""
        game = TextbookTree(RAGGED)
        assert [game.to_move(s) for s in [(), (0,), (0, 1), (0, 1, 1)]] == [0, 1, 0, 1]

    def test_ragged_tree(self) -> None:
        """Branching and leaf depth may differ from node to node."""
        game = TextbookTree(RAGGED)
        assert list(game.actions(())) == [0, 1, 2]
        assert game.is_terminal((1,)) and game.utility((1,)) == 7
        assert list(game.actions((2, 1))) == [0, 1, 2, 3]
        assert game.utility((0, 1, 1, 1)) == -4.5

    def test_one_node_tree(self) -> None:
        """A bare number is a tree whose root is a terminal leaf."""
        game = TextbookTree(5)
        assert game.is_terminal(()) and game.utility(()) == 5
        assert list(game.actions(())) == []

    def test_tuples_accepted_and_result_is_a_new_path(self) -> None:
        """Nested tuples work like lists, and result extends the path without mutating."""
        game = TextbookTree(((1, 2), (3,)))
        state = (0,)
        assert game.result(state, 1) == (0, 1) and state == (0,)

    def test_utility_at_inner_node_is_an_error(self) -> None:
        """Asking an inner node for its utility names the node."""
        with pytest.raises(InvalidStateError, match="no utility at '1'"):
            TextbookTree().utility((1,))

    def test_checked_apply_lists_legal_moves(self) -> None:
        """solver.game.apply refuses a missing child and lists the legal ones."""
        game = TextbookTree([[3, 12], [2, 4]])
        with pytest.raises(IllegalActionError, match="legal: 0, 1"):
            apply(game, (), 7)


class TestValidation:
    @pytest.mark.parametrize(
        ("tree", "message"),
        [
            ([[3, True]], "invalid leaf True at tree[0][1]"),
            ([[3, "4"]], "invalid leaf '4' at tree[0][1]"),
            ([], "empty list at tree: an inner node needs at least one child"),
            ([[1], []], "empty list at tree[1]"),
            ([1, [2, float("nan")]], "invalid leaf nan at tree[1][1]: leaves must be finite"),
            ([1, float("inf")], "invalid leaf inf at tree[1]"),
            ([1, None], "invalid node None at tree[1]"),
            ([1, {2: 3}], "invalid node {2: 3} at tree[1]"),
            (False, "invalid tree False at tree"),
        ],
    )
    def test_bad_trees(self, tree: object, message: str) -> None:
        """Malformed trees raise InvalidStateError naming the bad value and its path."""
        with pytest.raises(InvalidStateError) as caught:
            TextbookTree(tree)  # type: ignore[arg-type]
        assert message in str(caught.value)

    def test_bad_labels(self) -> None:
        """An unknown labels style is refused with the choices."""
        with pytest.raises(InvalidStateError, match="use 'index' or 'aima'"):
            TextbookTree(labels="letters")  # type: ignore[arg-type]

    def test_bad_option_through_registry(self) -> None:
        """A misspelt option names itself and the accepted options."""
        with pytest.raises(Exception, match="no option 'tre'; accepted options: tree, labels"):
            load_game("textbook", tre=[1])


class TestNames:
    def test_aima_node_names(self) -> None:
        """Inner nodes are lettered breadth-first as in Figure 5.2; leaves have no name."""
        game = TextbookTree()
        assert [game.node_name(s) for s in [(), (0,), (1,), (2,)]] == ["A", "B", "C", "D"]
        assert game.node_name((0, 0)) is None

    def test_names_skip_leaves_in_ragged_trees(self) -> None:
        """Leaves do not use up letters; deeper inner nodes follow in breadth-first order."""
        game = TextbookTree(RAGGED)
        names = {game.format_state(s): game.node_name(s) for s in [(), (0,), (2,), (0, 1), (2, 0)]}
        assert names == {"root": "A", "0": "B", "2": "C", "0.1": "D", "2.0": "E"}

    def test_names_beyond_z(self) -> None:
        """After Z come AA, AB, ... (the root A with 30 inner children B..Z, AA..AE)."""
        game = TextbookTree([[1]] * 30)
        assert game.node_name((24,)) == "Z" and game.node_name((25,)) == "AA"

    def test_aima_edge_labels(self) -> None:
        """With labels='aima' moves read a1..a3 at A and b1..b3 at B, and parse back."""
        game = TextbookTree(labels="aima")
        assert [game.format_action((), a) for a in game.actions(())] == ["a1", "a2", "a3"]
        assert [game.format_action((0,), a) for a in game.actions((0,))] == ["b1", "b2", "b3"]
        assert game.parse_action((1,), "c3") == 2
        assert parse_action(game, (), "a2") == 1

    def test_indices_always_accepted(self) -> None:
        """Child indices parse whatever the labels style."""
        assert TextbookTree(labels="aima").parse_action((2,), "1") == 1

    @pytest.mark.parametrize("text", ["b1", "a0", "x", "", "1.0"])
    def test_foreign_label_refused(self, text: str) -> None:
        """An edge label of another node, a0, or junk is refused with the legal moves."""
        with pytest.raises(IllegalActionError, match=r"legal: 0 or a1, 1 or a2, 2 or a3"):
            TextbookTree().parse_action((), text)


class TestNotation:
    def test_round_trip_everywhere(self) -> None:
        """Every node of a ragged tree round-trips through its text."""
        game = TextbookTree(RAGGED)
        stack = [game.initial_state()]
        while stack:
            state = stack.pop()
            assert game.parse_state(game.format_state(state)) == state
            stack.extend(game.result(state, a) for a in game.actions(state))

    def test_forms(self) -> None:
        """'root', dotted indices and AIMA names all parse."""
        game = TextbookTree()
        assert game.parse_state("root") == () and game.parse_state(" ROOT ") == ()
        assert game.parse_state("2.1") == (2, 1)
        assert game.parse_state("D") == (2,)
        assert game.format_state(()) == "root" and game.format_state((2, 1)) == "2.1"

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("3", "no node '3' in this tree: 'root' has children 0..2"),
            ("0.3", "no node '0.3' in this tree: '0' has children 0..2"),
            ("0.1.0", "no node '0.1.0' in this tree: '0.1' is a leaf"),
            ("0..1", "invalid node '0..1'"),
            ("Q", "or a node name among A, B, C, D"),
        ],
    )
    def test_bad_state_text(self, text: str, message: str) -> None:
        """Unknown node texts raise InvalidStateError saying what exists."""
        with pytest.raises(InvalidStateError) as caught:
            TextbookTree().parse_state(text)
        assert message in str(caught.value)

    def test_render_path_and_leaf_value(self) -> None:
        """render shows the path with names and labels, and the value at a leaf."""
        game = TextbookTree(labels="aima")
        assert game.render((1, 0)) == "A -a2-> C -c1-> leaf 1.0\nleaf value 2"
        assert game.render(()) == "A (root)\nMAX to move, 3 children"
        assert game.render((2,)) == "A -a3-> D\nMIN to move, 3 children"


class TestEvaluate:
    def test_mean_of_leaves_below(self) -> None:
        """An inner node's estimate is the mean of all leaves below it; a leaf's is its value."""
        game = TextbookTree(RAGGED)
        assert game.evaluate((0, 1)) == pytest.approx((2 + 3 - 4.5) / 3)
        assert game.evaluate(()) == pytest.approx(sum([1, 2, 3, -4.5, 7, 0, 8, 9, 10, 11]) / 10)
        assert game.evaluate((1,)) == 7

    def test_given_estimates_win(self) -> None:
        """Estimates given by node text or AIMA name replace the mean."""
        game = TextbookTree(estimates={"C": 4, "0": -1.5})
        assert game.evaluate((1,)) == 4 and game.evaluate((0,)) == -1.5
        assert game.evaluate((2,)) == pytest.approx(7)

    @pytest.mark.parametrize(
        ("estimates", "message"),
        [({"9": 1}, "no node '9'"), ({"B": "high"}, "invalid estimate 'high' for node 'B'")],
    )
    def test_bad_estimates(self, estimates: dict[str, object], message: str) -> None:
        """Estimates for missing nodes or with non-numbers are refused."""
        with pytest.raises(InvalidStateError, match=message):
            TextbookTree(estimates=estimates)  # type: ignore[arg-type]
