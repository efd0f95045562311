"""The annotated tree is built from the search's own events and says what the search did."""

from __future__ import annotations

from typing import Any

import pytest

from games import load_game
from solver.events import Cutoff, Trace
from solver.game import format_action
from solver.minimax import alphabeta, minimax
from viz import TooManyNodesError, VizError, game_tree

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
MID_GAME = "..x/xx./oo."  # O to move: 8 wins, 5 draws, 0 and 1 lose


def visited(tree: Any) -> list[dict[str, Any]]:
    return [d for _, d in tree.graph.nodes(data=True) if d["kind"] == "node"]


def pruned(tree: Any) -> list[dict[str, Any]]:
    return [d for _, d in tree.graph.nodes(data=True) if d["kind"] == "pruned"]


class TestFromTheSearch:
    def test_every_node_the_search_entered_is_drawn(self) -> None:
        """The diagram has exactly as many visited nodes as the search counted."""
        game = load_game("tictactoe")
        state = game.parse_state(MID_GAME)
        for algorithm, search in (("minimax", minimax), ("alphabeta", alphabeta)):
            tree = game_tree(game, state, algorithm=algorithm)
            assert len(visited(tree)) == search(game, state).stats.nodes == tree.searched

    def test_values_are_the_minimax_values_of_the_positions(self) -> None:
        """Every node of a minimax tree carries the minimax value of its own position."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state(MID_GAME))
        for data in visited(tree):
            assert data["value"] == minimax(game, game.parse_state(data["state"])).value

    def test_the_principal_path_is_the_search_pv(self) -> None:
        """The bold path from the root spells the search's principal variation."""
        game = load_game("tictactoe")
        state = game.parse_state(MID_GAME)
        for algorithm in ("minimax", "alphabeta"):
            tree = game_tree(game, state, algorithm=algorithm)
            graph, node, moves = tree.graph, tree.root, []
            while True:
                nxt = [v for v in graph.successors(node) if graph.edges[node, v]["principal"]]
                if not nxt:
                    break
                (node,) = nxt
                moves.append(graph.nodes[node]["move"])
            assert moves == [str(a) for a in tree.result.pv] == graph.graph["pv"]

    def test_every_optimal_root_move_is_marked(self) -> None:
        """Root children marked optimal are exactly the moves minimax says keep the value."""
        game = load_game("tictactoe")
        state = game.parse_state("x../.o./...")  # X to move: several drawing moves
        tree = game_tree(game, state, max_nodes=None)
        marked = {
            tree.graph.nodes[c]["move"]
            for c in tree.graph.successors(tree.root)
            if tree.graph.nodes[c]["optimal"]
        }
        best = minimax(game, state).best_actions
        assert len(best) > 1
        assert marked == {format_action(game, state, a) for a in best}

    def test_alphabeta_prunes_the_textbook_leaves_after_the_two(self) -> None:
        """Alpha-beta on AIMA Figure 5.2 prunes the leaves 4 and 6, cut by v=2 ≤ α=3 at C."""
        game = load_game("textbook", tree=TEXTBOOK)
        tree = game_tree(game, algorithm="alphabeta")
        cut = pruned(tree)
        assert [game.utility(game.parse_state(d["state"])) for d in cut] == [4, 6]
        assert {d["cut"] for d in cut} == {"v=2 ≤ α=3"}
        assert {tree.graph.nodes[d["cut_by"]]["name"] for d in cut} == {"C"}
        assert tree.result.value == tree.graph.nodes[tree.root]["value"] == 3

    def test_pruned_nodes_match_the_cutoff_events(self) -> None:
        """Pruned nodes are exactly the actions the Cutoff events list, none of them visited."""
        game = load_game("tictactoe")
        state = game.parse_state("x../.o./...")
        trace = Trace()
        alphabeta(game, state, observer=trace)
        cut_moves = sorted(
            (e.node, str(a)) for e in trace.events if isinstance(e, Cutoff) for a in e.pruned
        )
        tree = game_tree(game, state, algorithm="alphabeta", max_nodes=None, pruned="stub")
        drawn = sorted((d["cut_by"], d["move"]) for d in pruned(tree))
        assert drawn == cut_moves and len(drawn) == tree.pruned > 0
        assert all(
            tree.graph.out_degree(n) == 0
            for n, d in tree.graph.nodes(data=True)
            if d["kind"] == "pruned"
        )

    def test_windows_on_entry_and_exit(self) -> None:
        """Alpha-beta windows: the root enters with (−∞, +∞); C enters with α=3 and leaves β=2."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        nodes = {d["name"]: d for d in visited(tree) if d["name"]}
        assert (nodes["A"]["alpha_in"], nodes["A"]["beta_in"]) == ("-inf", "inf")
        assert (nodes["A"]["alpha_out"], nodes["A"]["beta_out"]) == (3, "inf")
        assert (nodes["C"]["alpha_in"], nodes["C"]["beta_out"]) == (3, 2)
        assert nodes["C"]["exact"] is False and nodes["B"]["exact"] is True

    def test_leaf_kinds_terminal_and_horizon(self) -> None:
        """A depth limit makes horizon leaves; game ends are terminal leaves."""
        game = load_game("tictactoe")
        full = game_tree(game, game.parse_state(MID_GAME))
        cut = game_tree(game, game.parse_state(MID_GAME), depth=2)
        assert {d["leaf"] for d in visited(full)} == {None, "terminal"}
        assert {d["leaf"] for d in visited(cut)} == {None, "terminal", "horizon"}
        assert all(d["depth"] == 2 for d in visited(cut) if d["leaf"] == "horizon")

    def test_leaf_labels_come_from_the_hook(self) -> None:
        """leaf_label writes its text into the leaves and nowhere else."""
        game = load_game("textbook", tree=TEXTBOOK)
        tree = game_tree(game, leaf_label=lambda s: f"leaf {game.format_state(s)}")
        for data in visited(tree):
            expected = f"leaf {data['state']}" if data["leaf"] else None
            assert data["label"] == expected

    def test_steps_go_from_the_leaves_up(self) -> None:
        """One step per leaf, backed-up value and cut; the root's value comes last."""
        game = load_game("textbook", tree=TEXTBOOK)
        tree = game_tree(game, algorithm="alphabeta")
        kinds = [s.kind for s in tree.steps]
        stats = tree.result.stats
        assert kinds.count("leaf") == stats.leaves
        assert kinds.count("cut") == stats.cutoffs
        assert kinds.count("backup") == stats.nodes - stats.leaves
        assert tree.steps[-1].node == tree.root and tree.steps[-1].kind == "backup"

    @pytest.mark.parametrize(
        ("text", "drawn"),
        [
            # B's bounds [1, 1] settle it before its only outcome, a leaf, is searched
            ("[1, {1: 1}]", [("0", "pruned", "v=1 ≤ α=1")]),
            # the leaf 5 is never probed, [2] is, and the cut prunes the outcomes either side
            (
                "[4, {1/3: 5, 1/3: [2], 1/3: 5}, 0]",
                [("1", "node", None), ("0", "pruned", "v=4 ≤ α=4"), ("2", "pruned", None)],
            ),
        ],
    )
    def test_a_star2_cut_among_the_probes_draws_every_outcome(
        self, text: str, drawn: list[tuple[str, str, str | None]]
    ) -> None:
        """A chance node Star2 cuts while probing draws its probes, and every outcome it never
        entered as pruned, the cut written on the first; the cut is a step of its own."""
        tree = game_tree(load_game("textbook", tree=text), algorithm="star2")
        graph = tree.graph
        (chance,) = (n for n, d in graph.nodes(data=True) if d["chance"] and d["kind"] == "node")
        kids = sorted(graph.successors(chance))
        seen = [(graph.edges[chance, c]["move"], graph.nodes[c]["kind"]) for c in kids]
        assert seen == [(move, kind) for move, kind, _ in drawn]
        assert [graph.edges[chance, c]["cut"] for c in kids] == [cut for *_, cut in drawn]
        moves = ", ".join(move for move, kind, _ in drawn if kind == "pruned")
        assert [s.text for s in tree.steps if s.kind == "cut"] == [
            f"cut-off at CHANCE node B: {next(c for *_, c in drawn if c)}, so "
            f"move{'s' if ',' in moves else ''} {moves} need not be searched"
        ]
        assert tree.pruned == len(moves.split(", ")) and tree.result.stats.cutoffs == 1


class TestErrors:
    def test_unknown_algorithm(self) -> None:
        """An unknown algorithm is named with the valid choices."""
        with pytest.raises(VizError, match=r"unknown algorithm 'negamax'; choose one of: minimax"):
            game_tree(load_game("textbook"), algorithm="negamax")

    def test_node_limit_stops_the_search_and_says_how_to_shrink(self) -> None:
        """Too big a tree stops the search at the limit and names the options that shrink it."""
        game = load_game("tictactoe")
        with pytest.raises(TooManyNodesError) as error:
            game_tree(game, depth=3, max_nodes=100)
        message = str(error.value)
        assert error.value.nodes == 101 and error.value.at_least
        assert "would draw more than 100 nodes, more than max_nodes=100" in message
        assert "the search was stopped there" in message
        for hint in ("depth", "collapse=True", "transpositions=True", "fold_symmetries=True"):
            assert hint in message

    def test_a_shrunk_view_blames_the_record_limit(self) -> None:
        """A collapsed view of a search past the record limit names that limit, not max_nodes."""
        game = load_game("tictactoe")
        with pytest.raises(TooManyNodesError) as error:
            game_tree(game, depth=3, collapse=True, record_limit=200, max_nodes=10**6)
        message = str(error.value)
        assert error.value.limit == "record_limit" and "max_nodes" not in message
        assert "collapse=True builds its view from the whole search" in message
        assert "record_limit=200" in message

    def test_the_hints_never_suggest_an_option_already_given(self) -> None:
        """With transpositions already on, the refusal does not suggest transpositions."""
        game = load_game("tictactoe")
        with pytest.raises(TooManyNodesError) as error:
            game_tree(game, depth=4, transpositions=True, max_nodes=100)
        assert "transpositions" not in error.value.shrink
        assert "transpositions=True" not in str(error.value).split("shrink it with")[-1]

    def test_node_limit_counts_the_view_drawn(self) -> None:
        """The limit applies to the nodes drawn: a collapsed view of a big tree fits."""
        game = load_game("tictactoe")
        tree = game_tree(game, depth=3, collapse=True, max_nodes=100)
        assert tree.graph.number_of_nodes() <= 100 < tree.searched

    def test_bad_max_nodes(self) -> None:
        """A max_nodes below 1 is refused."""
        with pytest.raises(VizError, match="invalid max_nodes 0"):
            game_tree(load_game("textbook"), max_nodes=0)


class TestViews:
    def test_transpositions_merge_identical_positions(self) -> None:
        """The DAG has one node per distinct position and depth; hit counts add up."""
        game = load_game("tictactoe")
        tree = game_tree(game, depth=4, transpositions=True, max_nodes=None)
        seen: set[Any] = set()
        frontier = {game.initial_state()}
        for _ in range(5):
            seen |= frontier
            frontier = {game.result(s, a) for s in frontier for a in game.actions(s)}
        assert tree.graph.number_of_nodes() == len(seen) == 1 + 9 + 72 + 252 + 756
        assert sum(d["hits"] for _, d in tree.graph.nodes(data=True)) == tree.searched
        assert tree.searched == 1 + 9 + 72 + 504 + 3024

    def test_transposition_view_keeps_the_value(self) -> None:
        """Merging does not change the root value or the principal path."""
        game = load_game("tictactoe")
        state = game.parse_state(MID_GAME)
        tree = game_tree(game, state, transpositions=True)
        principal = [d for _, d in tree.graph.nodes(data=True) if d["principal"]]
        assert tree.graph.nodes[tree.root]["value"] == minimax(game, state).value
        assert len(principal) == len(tree.result.pv) + 1
        assert any(d["cache_hit"] for _, d in tree.graph.nodes(data=True))

    def test_collapse_keeps_the_principal_path_and_counts_the_rest(self) -> None:
        """Collapsed subtrees become summary nodes whose counts add up to the hidden nodes."""
        game = load_game("tictactoe")
        tree = game_tree(game, depth=3, collapse=True)
        graph = tree.graph
        summaries = [d for _, d in graph.nodes(data=True) if d["kind"] == "summary"]
        shown = graph.number_of_nodes() - len(summaries)
        assert shown + sum(d["positions"] for d in summaries) == tree.searched
        for node, data in graph.nodes(data=True):
            if data["kind"] == "node" and not data["principal"]:
                parents = list(graph.predecessors(node))
                assert all(graph.nodes[p]["principal"] for p in parents)

    def test_fold_symmetries_leaves_three_opening_moves(self) -> None:
        """Tic-tac-toe's nine openings fold into corner, edge and centre."""
        game = load_game("tictactoe")
        tree = game_tree(game, depth=1, fold_symmetries=True)
        children = [tree.graph.nodes[c] for c in tree.graph.successors(tree.root)]
        assert sorted((c["move"], sorted(c["folded"])) for c in children) == [
            ("0", ["2", "6", "8"]),
            ("1", ["3", "5", "7"]),
            ("4", []),
        ]
