"""Tests for Monte Carlo tree search drawn (viz.mcts_tree)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games import load_game
from solver.game import MAX
from solver.mcts import mcts
from solver.minimax import minimax
from tests.viz.svg import SVG
from viz.dot import to_svg
from viz.frames import frame_sources, frame_svgs
from viz.interactive import _frames
from viz.mcts_tree import mcts_texts, mcts_tree
from viz.model import figure
from viz.notation import ucb_text
from viz.tikz import latex_text, to_tikz


class TestTree:
    """The drawn tree is the search's own, step by step."""

    def test_same_seed_same_drawing(self) -> None:
        """One seed gives one tree; its root counts are the search's."""
        game = load_game("textbook")
        first, second = (mcts_tree(game, iterations=15, seed=4) for _ in range(2))
        assert first.graph.nodes(data=True) == second.graph.nodes(data=True)
        result = mcts(game, iterations=15, seed=4)
        assert first.graph.nodes[0]["history"][-1][1] == 15
        assert first.result.best_action == result.best_action

    def test_four_steps_an_iteration(self) -> None:
        """Select, expand, playout, back up: one frame each, the counts change at back-up."""
        tree = mcts_tree(load_game("textbook"), iterations=6, seed=0)
        assert [s.kind for s in tree.steps[:4]] == ["select", "expand", "playout", "backup"]
        assert len(tree.steps) == 24
        assert mcts_texts(tree.graph, 0, 3)[0] == "W/N 0/0"  # not counted before the first back-up
        assert mcts_texts(tree.graph, 0, 4)[0].endswith("/1")
        assert len(frame_sources(tree)) == 25

    def test_exact_values_beside(self) -> None:
        """Each node shows its exact minimax value beside the estimate."""
        game: Any = load_game("tictactoe")
        state = game.parse_state("xo./.x./o..")
        tree = mcts_tree(game, state, iterations=10, seed=1)
        for _, data in tree.graph.nodes(data=True):
            if data["minimax"] is not None and not data["leaf"]:
                exact = minimax(game, game.parse_state(data["state"])).value
                assert data["minimax"] == exact

    def test_every_writer(self) -> None:
        """The drawing model's writers all take the tree: DOT, TikZ, the stepper's figures."""
        tree = mcts_tree(load_game("textbook"), iterations=8, seed=0, solver=True)
        look = figure(tree)
        assert look.nodes[0].value.startswith("W/N ")
        assert "UCB" in "".join(n.range for n in look.nodes.values())
        assert "W/N" in to_tikz(tree)

    def test_too_many_iterations(self) -> None:
        """A drawing larger than the limit is refused before the search."""
        from viz.errors import TooManyNodesError

        with pytest.raises(TooManyNodesError, match="5,000 iterations"):
            mcts_tree(load_game("textbook"), iterations=5000, max_nodes=100)


class TestPathAndLeaves:
    """Each step's path is the search's own, drawn as a path; a leaf shows its utility."""

    def test_select_and_backup_walk_the_reported_path(self) -> None:
        """A select step walks the nodes UCB1 chose, a back-up the whole path, root first."""
        game = load_game("textbook")
        reports: list[Any] = []
        mcts(game, iterations=9, seed=2, observer=reports.append)
        tree = mcts_tree(game, iterations=9, seed=2)
        for k, report in enumerate(reports):
            select, expand, playout, backup = tree.steps[4 * k : 4 * k + 4]
            chosen = report.path[:-1] if report.expanded is not None else report.path
            assert select.path == chosen and backup.path == report.path
            assert expand.path == report.path and playout.path == (report.path[-1],)

    def test_frame_marks_the_path_moves(self) -> None:
        """At a step, exactly the moves along its path are marked, in the model, the stepper's
        frames, DOT and TikZ's Beamer overlays; the finished tree marks none."""
        from viz.dot import to_dot
        from viz.stepper import frame_paths

        tree = mcts_tree(load_game("textbook"), iterations=9, seed=2)
        paths = frame_paths(tree)
        for k, step in enumerate(tree.steps[:-1], start=1):
            marked = {(e.parent, e.child) for e in figure(tree, step=k).edges if e.path}
            assert marked == set(zip(step.path, step.path[1:], strict=False))
            assert paths[k] == sorted(marked)
        deep = next(k for k, s in enumerate(tree.steps, start=1) if len(s.path) == 3)
        assert to_dot(tree, step=deep).count('class="path"') == 2
        assert "draw=walked" in to_tikz(tree, overlays=True)
        assert "draw=walked" not in to_tikz(tree)
        assert not any(e.path for e in figure(tree).edges) and paths[-1] == []

    def test_terminal_leaf_shows_its_utility_once_expanded(self) -> None:
        """A terminal leaf is labelled with the game's utility from the step it is expanded."""
        game = load_game("textbook")
        tree = mcts_tree(game, iterations=12, seed=1)
        leaves = [n for n, d in tree.graph.nodes(data=True) if d["leaf"] == "terminal"]
        assert leaves
        for node in leaves:
            data = tree.graph.nodes[node]
            utility = game.utility(game.parse_state(data["state"]))
            assert figure(tree).nodes[node].label == f"utility {utility:g}"
            assert figure(tree, step=data["opened"] - 1).nodes[node].label is None
            assert figure(tree, step=data["opened"]).nodes[node].label == f"utility {utility:g}"


UCB_CASES = [
    ("textbook", None, 12, 0, False),
    ("textbook", None, 20, 3, True),
    ("textbook", [[[1, 5], 2], [4, [0, 9, 3]], 7], 16, 1, False),
    ("tictactoe", "xo./.x./o..", 14, 2, True),
]
"""(game, textbook tree or tic-tac-toe position, iterations, seed, MCTS-Solver)"""


def counted(reports: list[Any], node: int, iterations: int) -> tuple[int, float] | None:
    """``node``'s (N, W) after the first ``iterations`` iterations, from the search's reports."""
    found = None
    for report in reports[:iterations]:
        for stat in report.stats:
            if stat.node == node:
                found = (stat.n, stat.w)
    return found


class TestUcbAtEveryNode:
    """Every node, terminal leaves too, shows the UCB1 terms its parent's mover sees."""

    @pytest.mark.parametrize(("name", "where", "iterations", "seed", "solver"), UCB_CASES)
    def test_terms_are_ucb1_of_the_reported_counts(
        self, name: str, where: Any, iterations: int, seed: int, solver: bool
    ) -> None:
        """At every frame, a node's UCB text is c·span·√(ln N(parent) / N) and ±W/N computed
        here from the search's own reports (an iteration is four frames, its counts land at
        the fourth), and ``UCB +∞ (unvisited)`` before its first playout is counted."""
        game: Any = load_game(name, tree=where) if name == "textbook" and where else load_game(name)
        state = game.parse_state(where) if name == "tictactoe" else game.initial_state()
        reports: list[Any] = []
        mcts(game, state, iterations=iterations, seed=seed, solver=solver, observer=reports.append)
        tree = mcts_tree(game, state, iterations=iterations, seed=seed, solver=solver)
        c = tree.graph.graph["exploration"]
        parent_of = {r.expanded: r.parent for r in reports if r.expanded is not None}
        position = {0: state} | {r.expanded: r.state for r in reports if r.expanded is not None}
        terminal = [n for n in parent_of if game.is_terminal(position[n])]
        assert terminal, "a case with no terminal leaf guards nothing"
        for k in range(len(tree.steps) + 1):
            done = k // 4
            look = figure(tree, step=k)
            assert look.nodes[0].range == ""  # the root has no parent to choose it
            for node, parent in parent_of.items():
                mine = counted(reports, node, done)
                if mine is None:
                    assert look.nodes[node].range == "UCB +∞ (unvisited)", (k, node)
                    assert look.nodes[node].value == "W/N 0/0"
                    continue
                n, w = mine
                above = counted(reports, parent, done)
                assert above is not None
                mean = w / n
                mover = game.to_move(position[parent])
                exploit = mean if mover == MAX else -mean
                explore = c * reports[done - 1].span * math.sqrt(math.log(above[0]) / n)
                assert look.nodes[node].range == ucb_text((exploit, explore)), (k, node)
        final = figure(tree)
        for node in terminal:  # a terminal leaf: counts, utility, UCB terms and exact value
            shape = final.nodes[node]
            assert shape.notes and shape.label and shape.label.startswith("utility ")
            assert shape.value.startswith("W/N ") and shape.range.startswith("UCB ")
            assert "minimax " in shape.window

    def test_every_writer_draws_a_leaf_s_terms(self) -> None:
        """Graphviz, TikZ, the stepper's frames and the interactive page's frames all carry a
        terminal leaf's UCB text, and ``UCB +∞ (unvisited)`` at the frames that add it."""
        tree = mcts_tree(load_game("textbook"), iterations=12, seed=0)
        leaf = next(n for n, d in tree.graph.nodes(data=True) if d["leaf"] == "terminal")
        text = figure(tree).nodes[leaf].range

        def node_texts(svg: str) -> list[str]:
            group = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == f"n{leaf}")
            return ["".join(t.itertext()).strip() for t in group.iter(f"{SVG}text")]

        assert text in node_texts(to_svg(tree))
        assert latex_text(text) in to_tikz(tree)
        opened = tree.graph.nodes[leaf]["opened"]
        frames = frame_svgs(tree)
        assert "UCB +∞ (unvisited)" in node_texts(frames[opened])
        assert text in node_texts(frames[-1])
        key = _frames(tree)["nodes"]
        changes = next(v for k, v in key.items() if k == '["0", "0"]')
        assert [c[3] for c in changes if c[0] == opened] == ["UCB +∞ (unvisited)"]

    def test_frames_prove_nodes_when_the_solver_does(self) -> None:
        """With MCTS-Solver, each frame shows 'proven' at a node from the step that proves it,
        not before: every node's window text in every frame is the model's at that step."""
        tree = mcts_tree(load_game("textbook"), iterations=12, seed=0, solver=True)
        frames = frame_svgs(tree)
        proven_late = 0
        for k, svg in enumerate(frames):
            look = figure(tree, step=k, alpha_beta_labels=True)
            for group in ET.fromstring(svg).iter(f"{SVG}g"):
                ident = group.get("id") or ""
                if not ident.startswith("n"):
                    continue
                texts = ["".join(t.itertext()).strip() for t in group.iter(f"{SVG}text")]
                window = look.nodes[int(ident[1:])].window
                if window:
                    assert window in texts, (k, ident, window, texts)
                final = figure(tree).nodes[int(ident[1:])].window
                if final.startswith("proven") and not window.startswith("proven"):
                    assert final not in texts, (k, ident, texts)
                    proven_late += 1
        assert proven_late > 0  # some node is proven only part of the way through
