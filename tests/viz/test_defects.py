"""The diagrams a lecturer found wrong or unusable (issue 7), each reproduced and checked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from solver.minimax import minimax
from tests.viz.svg import needs_dot, parse
from viz import TooManyNodesError, UnreadableError, game_tree, render, to_dot, to_svg, write_html
from viz.dot import layout_size
from viz.graphviz import MAX_INCHES


def node_by_state(tree: Any, state: str) -> dict[str, Any]:
    (data,) = [d for _, d in tree.graph.nodes(data=True) if d["state"] == state]
    return dict(data)


class TestBoundDirection:
    def test_a_node_whose_children_all_failed_low_is_an_upper_bound(self) -> None:
        """The issue's tree: D is ≤4 (its children failed low), drawn ≤4, never ≥4."""
        game = load_game("textbook", tree=[[5], [[[3, 1], [4, 2]], 1]])
        tree = game_tree(game, algorithm="alphabeta")
        d = node_by_state(tree, "1.0")
        assert (d["name"], d["value"], d["bound"], d["range"]) == ("D", 4, "upper", ["-inf", 4])
        source = to_dot(tree)
        (line,) = [x for x in source.splitlines() if x.strip().startswith("n4 [")]
        assert "≤4" in line and "≥" not in line

    def test_tic_tac_toe_position_drawn_as_an_upper_bound(self) -> None:
        """xox/.oo/..x under alpha-beta from xox/.o./... is ≤0 (true value −1), not ≥0."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xox/.o./..."), algorithm="alphabeta")
        data = node_by_state(tree, "xox/.oo/..x")
        assert (data["value"], data["bound"]) == (0, "upper")
        assert minimax(game, game.parse_state("xox/.oo/..x")).value == -1

    def test_step_captions_say_which_bound(self) -> None:
        """The caption of D's backup says it is an upper bound, with ≤."""
        game = load_game("textbook", tree=[[5], [[[3, 1], [4, 2]], 1]])
        tree = game_tree(game, algorithm="alphabeta")
        (text,) = [s.text for s in tree.steps if s.kind == "backup" and s.node == 4]
        assert "≤4" in text and "upper bound" in text and "MAX node D" in text


class TestTranspositionsUnderAlphaBeta:
    def test_every_merged_node_agrees_with_its_children(self) -> None:
        """x.o/.x./... merged: each node's value is the max/min of its visited children."""
        game = load_game("tictactoe")
        tree = game_tree(
            game, game.parse_state("x.o/.x./..."), algorithm="alphabeta", transpositions=True
        )
        graph = tree.graph
        for node, data in graph.nodes(data=True):
            kids = [
                graph.nodes[c]["value"]
                for c in graph.successors(node)
                if graph.nodes[c]["kind"] == "node"
            ]
            if data["kind"] == "node" and kids:
                assert data["value"] == (max(kids) if data["player"] == 0 else min(kids))
        assert any(d["hits"] > 1 for _, d in graph.nodes(data=True))

    def test_minimax_legend_does_not_speak_of_a_table(self) -> None:
        """Minimax has no table: the legend says the position was reached n times."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("x.o/.x./..."), transpositions=True)
        source = to_dot(tree)
        assert "table" not in source and "reached this position n times" in source


class TestRefusals:
    def test_search_is_stopped_at_the_limit(self) -> None:
        """Ayòayò to depth 30 is refused as soon as the search passes max_nodes."""
        game = load_game("ayoayo")
        with pytest.raises(TooManyNodesError) as error:
            game_tree(game, depth=30, max_nodes=1000)
        assert error.value.nodes == 1001 and error.value.at_least

    @needs_dot
    def test_too_wide_a_picture_is_refused_with_what_shrinks_it(self, tmp_path: Path) -> None:
        """Tic-tac-toe to depth 3 (504 leaves in a row) is refused, naming collapse."""
        tree = game_tree(load_game("tictactoe"), depth=3)
        with pytest.raises(UnreadableError, match="collapse") as error:
            render(tree, tmp_path / "wide.svg")
        assert "inches" in str(error.value) and not (tmp_path / "wide.svg").exists()
        assert render(tree, tmp_path / "wide.svg", large=True).exists()

    @needs_dot
    def test_wide_board_trees_are_laid_out_to_fit(self) -> None:
        """Ayòayò depth 2 with boards is turned or wrapped into a picture within the limit."""
        tree = game_tree(load_game("ayoayo"), depth=2, algorithm="alphabeta")
        svg = to_svg(tree, boards=True)
        width, height = (
            float(v) for v in re.findall(r'viewBox="0\.00 0\.00 ([\d.]+) ([\d.]+)"', svg)[0]
        )
        assert max(width, height) <= MAX_INCHES * 72 + 1
        assert layout_size(tree, boards=True)[0] > MAX_INCHES  # the plain one did not


class TestPrincipalVariation:
    def test_ties_go_to_the_quickest_win(self) -> None:
        """xox/.o./x..: O wins at once with 7; the principal variation is 7, not 3 5 7."""
        game = load_game("tictactoe")
        for algorithm in ("minimax", "alphabeta"):
            tree = game_tree(game, game.parse_state("xox/.o./x.."), algorithm=algorithm)
            assert tree.graph.graph["pv"] == ["7"] and tree.graph.graph["best_move"] == "7"


class TestPrunedSubtrees:
    def test_pruned_subtrees_are_drawn_and_counted(self) -> None:
        """The pruned subtrees are drawn whole, and the nodes saved are counted."""
        game = load_game("textbook", tree=[[3, 12, 8], [2, [4, 1], 6], [14, 5, 2]])
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        grey = [d for _, d in tree.graph.nodes(data=True) if d["kind"] == "pruned"]
        assert sorted(d["state"] for d in grey) == ["1.1", "1.1.0", "1.1.1", "1.2"]
        assert tree.saved == 4 == minimax(game).stats.nodes - tree.searched
        assert node_by_state(tree, "1.1")["value"] == 4


class TestExerciseAndOrder:
    def test_exercise_shows_leaves_and_hides_the_rest(self) -> None:
        """An exercise has every leaf value and no inner value, bound, cut or bold path."""
        game = load_game("textbook", labels="aima")
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        source = to_dot(tree, exercise=True, alpha_beta_labels=True)
        for value in (3, 12, 8, 2, 4, 6, 14, 5):
            assert f"<B>{value}</B>" in source
        assert "≤" not in source.split('label=<<TABLE BORDER="0"')[0].replace("v ≤ α", "")
        assert "✂" not in source and "dashed" not in source and 'penwidth="3.2"' not in source

    def test_exercise_needs_the_pruned_leaves_values(self) -> None:
        """Without the pruned leaves' values the exercise is refused, saying what to pass."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        with pytest.raises(Exception, match="pruned='values'"):
            to_dot(tree, exercise=True)

    def test_order_numbers_follow_the_visits(self) -> None:
        """With order=True each visited node carries #n, its place in the visit order."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        source = to_dot(tree, order=True)
        for node, data in tree.graph.nodes(data=True):
            if data["kind"] == "node":
                assert re.search(rf"n{node} \[[^\n]*#{data['order']}<", source)


@needs_dot
class TestStepperPageSize:
    def test_a_big_board_stepper_stays_small(self, tmp_path: Path) -> None:
        """xo./.x./..o with boards: refused unless asked; then one SVG under 1.5 MB, at 1:1."""
        game = load_game("tictactoe")
        tree = game_tree(game, game.parse_state("xo./.x./..o"), algorithm="alphabeta")
        with pytest.raises(UnreadableError):
            write_html(tree, tmp_path / "steps.html", boards=True)
        page = write_html(tree, tmp_path / "steps.html", boards=True, large=True)
        text = page.read_text(encoding="utf-8")
        assert text.count("<svg") == 1 and len(text) < 1_500_000
        svg = text[text.index("<svg") : text.index("</svg>") + 6]
        shapes = parse(svg)
        assert len([s for s in shapes.values() if "node" in s.classes]) > 100
        assert "scale(1 1)" in svg  # drawn 1:1, not shrunk


class TestSavedCount:
    def test_too_many_saved_nodes_to_count_is_said_not_guessed(self) -> None:
        """Past the record limit the saved count is None and the caption says so."""
        from viz.dot import summary_line

        game = load_game("tictactoe")
        tree = game_tree(
            game, algorithm="alphabeta", depth=4, pruned="stub", record_limit=2000, collapse=True
        )
        assert tree.saved is None and "too many nodes saved to count" in summary_line(tree)

    def test_growing_pruned_subtrees_stops_at_the_node_limit(self) -> None:
        """Greyed subtrees that would pass max_nodes are refused, naming pruned='stub'."""
        big = [[[1, 2, 3, 4], [5, 6, 7, 8]] for _ in range(4)]  # 45 nodes, never visited
        game = load_game("textbook", tree=[10, [0, big]])
        with pytest.raises(TooManyNodesError, match="pruned='stub'") as error:
            game_tree(game, algorithm="alphabeta", max_nodes=20)
        assert error.value.at_least and "pruned" in error.value.shrink
        assert game_tree(game, algorithm="alphabeta", max_nodes=20, pruned="stub").saved == 45


class TestNoEditsOfGeneratedDot:
    @needs_dot
    def test_png_resolution_is_set_on_the_command_line(self) -> None:
        """A PNG is drawn at 150 dpi from the DOT as written: its width is the layout's at 150."""
        import struct

        from viz.graphviz import PNG_DPI, pipe

        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        source = to_dot(tree)
        png = pipe(source, "png")
        width = struct.unpack(">I", png[16:20])[0]
        inches = float(pipe(source, "plain").decode().split()[2])
        assert abs(width - inches * PNG_DPI) <= PNG_DPI * 0.5  # Graphviz rounds and pads a little
        assert "dpi" not in source

    def test_a_missing_dot_is_named(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without Graphviz the error says how to install it."""
        from viz import GraphvizNotFoundError
        from viz.graphviz import pipe

        monkeypatch.setattr("viz.graphviz.shutil.which", lambda name: None)
        with pytest.raises(GraphvizNotFoundError, match="apt-get install graphviz"):
            pipe("digraph {}", "svg")

    @needs_dot
    def test_a_failing_dot_quotes_its_error(self) -> None:
        """Broken DOT fails with Graphviz's own message quoted."""
        from viz import GraphvizFailedError
        from viz.graphviz import pipe

        with pytest.raises(GraphvizFailedError, match="syntax error"):
            pipe("digraph { a -> }", "svg")
