"""The SVG Graphviz draws shows the search: shapes, values, the principal path, pruned edges."""

from __future__ import annotations

from games import load_game
from solver.minimax import alphabeta, minimax
from tests.viz.svg import edges, needs_dot, nodes, parse
from viz import game_tree, to_svg

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

pytestmark = needs_dot


class TestTextbookMinimax:
    def test_shapes_by_player(self) -> None:
        """One MAX up-triangle, three MIN down-triangles, nine leaf boxes."""
        shapes = parse(to_svg(game_tree(load_game("textbook", tree=TEXTBOOK))))
        assert [s.polygons for s in nodes(shapes, "max")] == [(4,)]
        assert [s.polygons for s in nodes(shapes, "min")] == [(4,)] * 3
        assert [s.polygons for s in nodes(shapes, "leaf")] == [(5,)] * 9

    def test_triangles_point_the_right_way(self) -> None:
        """MAX triangles have their apex on top, MIN triangles at the bottom."""
        svg = to_svg(game_tree(load_game("textbook", tree=TEXTBOOK)))
        import xml.etree.ElementTree as ET

        from tests.viz.svg import SVG

        for group in ET.fromstring(svg).iter(f"{SVG}g"):
            classes = (group.get("class") or "").split()
            if "node" not in classes or not {"max", "min"} & set(classes):
                continue
            polygon = next(group.iter(f"{SVG}polygon"))
            points = [tuple(map(float, p.split(","))) for p in polygon.get("points", "").split()]
            ys = sorted({y for _, y in points[:3]})
            lone = [y for y in ys if sum(1 for _, yy in points[:3] if yy == y) == 1]
            # SVG y grows downwards: the apex of an up-triangle has the smallest y
            assert lone == ([ys[0]] if "max" in classes else [ys[-1]])

    def test_values_written_in_the_nodes(self) -> None:
        """Each node shows its backed-up value; the root shows 3."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK))
        shapes = parse(to_svg(tree))
        for node, data in tree.graph.nodes(data=True):
            assert shapes[f"n{node}"].texts[0] == str(data["value"])
        assert shapes["n0"].texts[0] == "3"

    def test_principal_path_is_bold(self) -> None:
        """The principal edges are the PV's moves, no edge is pruned."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK))
        shapes = parse(to_svg(tree))
        assert len(edges(shapes, "principal")) == len(minimax(load_game("textbook")).pv) == 2
        assert {s.id for s in nodes(shapes, "principal")} == {"n0", "n1", "n2"}
        assert edges(shapes, "pruned") == []


class TestTextbookAlphaBeta:
    def test_pruned_nodes_and_edges_dashed(self) -> None:
        """The two pruned leaves and their edges are dashed; one edge carries the cut."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        shapes = parse(to_svg(tree))
        cut_nodes = nodes(shapes, "pruned")
        cut_edges = edges(shapes, "pruned")
        assert len(cut_nodes) == len(cut_edges) == tree.pruned == 2
        assert all(s.dashed for s in cut_nodes + cut_edges)
        (cut,) = edges(shapes, "cut")
        assert "✂ v=2 ≤ α=3" in cut.texts

    def test_visited_nodes_match_the_search_statistics(self) -> None:
        """Drawn visited nodes equal the search's node count, leaves its leaf count."""
        game = load_game("textbook", tree=TEXTBOOK)
        stats = alphabeta(game).stats
        shapes = parse(to_svg(game_tree(game, algorithm="alphabeta")))
        drawn = [s for s in shapes.values() if "node" in s.classes and "valued" in s.classes]
        assert len(drawn) == stats.nodes == 11
        assert len(nodes(shapes, "leaf")) == stats.leaves == 7

    def test_alpha_beta_labels(self) -> None:
        """With α/β labels each inner node shows its window on entry, on the node itself."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        shapes = parse(to_svg(tree, alpha_beta_labels=True))
        assert "α=3 β=+∞" in shapes["n5"].texts
        assert "α=−∞ β=+∞" in shapes["n0"].texts


class TestBoards:
    def test_tic_tac_toe_boards_show_the_marks(self) -> None:
        """Each node's board has as many X and O marks as its position."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("..x/xx./oo."))
        shapes = parse(to_svg(tree, boards=True))
        for node, data in tree.graph.nodes(data=True):
            texts = shapes[f"n{node}"].texts
            assert texts.count("X") == data["state"].count("x")
            assert texts.count("O") == data["state"].count("o")

    def test_ayoayo_boards_show_seeds_and_captures(self) -> None:
        """Ayòayò nodes show the twelve pits and both captured counts."""
        game = load_game("ayoayo")
        state = game.parse_state("[[2,6,6,1,1,7],[0,2,7,2,7,7]]")
        tree = game_tree(game, state, depth=1)
        shapes = parse(to_svg(tree, boards=True))
        texts = shapes["n0"].texts
        value = str(tree.graph.nodes[0]["value"])
        pits = [str(n) for row in state.board for n in row]
        header = [str(c) for c in range(6)]
        numbers = [t for t in texts if t.isdigit()]
        assert numbers == [value, *header, *pits]
        assert texts.count("captured 0") == 2


class TestLeafLabels:
    def test_ayoayo_leaves_show_captured_seeds(self) -> None:
        """With the article's hook, each leaf shows [p1, p2] above its value p1 − p2."""
        game = load_game("ayoayo")
        state = game.parse_state("[[2,6,6,1,1,7],[0,2,7,2,7,7]]")
        tree = game_tree(
            game, state, depth=2, leaf_label=lambda s: f"[{s.captured[0]}, {s.captured[1]}]"
        )
        shapes = parse(to_svg(tree))
        leaves = [(n, d) for n, d in tree.graph.nodes(data=True) if d["leaf"]]
        assert len(leaves) == tree.result.stats.leaves
        for node, data in leaves:
            p1, p2 = game.parse_state(data["state"]).captured
            assert shapes[f"n{node}"].texts == (f"[{p1}, {p2}]", str(p1 - p2).replace("-", "−"))
