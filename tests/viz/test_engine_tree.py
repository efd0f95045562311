"""The engine's tree: what its last iteration did, checked against the teaching minimax."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest

from games import load_game
from solver.engine import search
from solver.events import Enter, Trace, last_iteration
from solver.minimax import minimax
from tests.viz.svg import needs_dot
from viz import TooManyNodesError
from viz.engine_tree import (
    EngineTree,
    engine_dot,
    engine_iterations,
    engine_tree,
    render_engine,
    write_engine_iterations,
)

GAME = load_game("tictactoe")
RICH = "oxx/..o/x.."  # a last iteration with EXACT, LOWER and UPPER table hits


@cache
def true_value(state_text: str) -> float:
    return minimax(GAME, GAME.parse_state(state_text)).value


def positions(count: int, seed: int) -> list[str]:
    """Tic-tac-toe positions 2 to 6 plies in, by random play from the start (seeded)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(2, 6)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state):
            out.append(GAME.format_state(state))
    return out


def visited_ids(tree: EngineTree) -> list[int]:
    return [n for n, d in tree.graph.nodes(data=True) if d["kind"] == "node"]


def visited(tree: EngineTree) -> list[dict[str, Any]]:
    return [d for _, d in tree.graph.nodes(data=True) if d["kind"] == "node"]


class TestAgainstMinimax:
    def test_values_are_true_where_exact_and_bounds_on_the_right_side(self) -> None:
        """Exact nodes carry the minimax value; ≥v nodes are worth at least v, ≤v at most v."""
        for text in [RICH, *positions(40, seed=5)]:
            tree = engine_tree(GAME, GAME.parse_state(text), max_nodes=5000)
            assert tree.result.value == true_value(text)
            for data in visited(tree):
                truth, value = true_value(data["state"]), data["value"]
                assert value is not None, data
                if data["bound"] == "exact":
                    assert truth == value, data
                elif data["bound"] == "lower":
                    assert truth >= value, data
                else:
                    assert truth <= value, data

    def test_table_hits_carry_their_entry_flags(self) -> None:
        """Each table hit's stored value is a true bound of the kind its flag names."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        assert set(tree.hits) == {"exact", "lower", "upper"}
        hits = [d for d in visited(tree) if d["table"]]
        assert len(hits) == sum(tree.hits.values())
        for data in hits:
            truth, stored = true_value(data["state"]), data["table_value"]
            assert {"exact": truth == stored, "lower": truth >= stored, "upper": truth <= stored}[
                data["table"]
            ]


class TestTree:
    def test_one_node_per_entry_of_the_last_iteration(self) -> None:
        """The drawing has the last iteration's nodes, numbered #1.. in the order entered."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        orders = sorted(d["order"] for d in visited(tree))
        assert orders == list(range(1, tree.searched + 1))
        assert tree.iterations >= 1

    def test_the_iteration_drawn_is_the_engines_last(self) -> None:
        """The nodes drawn are those solver.events.last_iteration gives, for each depth limit."""
        state = GAME.parse_state("x../.o./...")
        for depth in (1, 2, 3):
            trace = Trace()
            search(GAME, state, depth=depth, observer=trace)
            last = last_iteration(trace.events)
            entered = {e.node for e in last if isinstance(e, Enter)}
            tree = engine_tree(GAME, state, depth)
            assert set(visited_ids(tree)) == entered
            assert tree.iterations == depth

    def test_principal_path_is_the_engines_answer(self) -> None:
        """The bold path follows the principal variation the engine returned."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        graph, node, moves = tree.graph, tree.root, []
        while True:
            nxt = [c for c in graph.successors(node) if graph.edges[node, c].get("principal")]
            if not nxt:
                break
            (node,) = nxt
            moves.append(graph.nodes[node]["move"])
        assert moves == graph.graph["pv"] and moves

    def test_depth_limited_iterations_end_at_the_horizon(self) -> None:
        """With depth=2 the last iteration is depth 2 and its deepest leaves are evaluated."""
        tree = engine_tree(GAME, GAME.parse_state("x../.o./..."), depth=2)
        assert tree.iteration == 2
        assert max(d["depth"] for d in visited(tree)) <= 2
        assert any(d["leaf"] == "horizon" for d in visited(tree))

    def test_large_search_is_stopped_and_refused(self) -> None:
        """The empty board's search is refused at max_nodes, while it runs."""
        with pytest.raises(TooManyNodesError, match="max_nodes=100") as caught:
            engine_tree(GAME, max_nodes=100)
        assert caught.value.at_least


class TestPicture:
    def test_bound_signs_and_table_flags_in_the_dot(self) -> None:
        """≥ exactly on lower bounds, ≤ exactly on upper bounds; one cylinder per table hit."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        source = engine_dot(tree)
        for node, data in tree.graph.nodes(data=True):
            if data["kind"] != "node":
                continue
            line = next(x for x in source.splitlines() if x.startswith(f"  n{node} ["))
            value = re.search(r"label=<<B>([^<]*)</B>", line)
            assert value is not None, line
            assert value.group(1).startswith("≥") == (data["bound"] == "lower")
            assert value.group(1).startswith("≤") == (data["bound"] == "upper")
        assert source.count('shape="cylinder"') == sum(tree.hits.values())
        for flag in ("EXACT", "LOWER", "UPPER"):
            assert flag in source

    @needs_dot
    def test_written_as_svg_and_json(self, tmp_path: Any) -> None:
        """render_engine writes SVG through Graphviz and strict node-link JSON."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        svg = render_engine(tree, tmp_path / "e.svg").read_text(encoding="utf-8")
        assert svg.count('class="node table') == sum(tree.hits.values())
        text = render_engine(tree, tmp_path / "e.json").read_text(encoding="utf-8")
        assert '"table": "lower"' in text and "Infinity" not in text


class TestIterations:
    """Iterative deepening step by step: one tree per iteration, from the engine's own events."""

    def test_each_iteration_has_the_depth_limited_minimax_value(self) -> None:
        """Tree k's value is minimax's at depth k (the teaching search, not the engine); each
        iteration's root tries the best move of the one before first."""
        for text in positions(12, seed=5):
            state = GAME.parse_state(text)
            trees = engine_iterations(GAME, state)
            assert [t.number for t in trees] == list(range(1, len(trees) + 1))
            assert trees[-1].result.exact
            for tree in trees:
                depth = tree.iteration
                assert depth == tree.number
                assert tree.result.value == minimax(GAME, state, depth=depth).value
                if tree.previous_best is not None:
                    first = min(entered_children(tree), key=lambda n: tree.graph.nodes[n]["order"])
                    assert tree.graph.nodes[first]["move"] == tree.previous_best

    def test_the_pictures_say_the_order(self, tmp_path: Any) -> None:
        """One file per iteration; each caption names the root's order and why it starts so."""
        trees = engine_iterations(GAME, GAME.parse_state("xo./.xo/.x."))
        written = write_engine_iterations(trees, tmp_path, format="dot")
        assert [p.name for p in written] == [f"iteration-0{k}.dot" for k in (1, 2, 3, 4)]
        second = written[1].read_text()
        assert "root moves tried 6, 8, 2, 3; 6 first, the best move of iteration 1" in second


def entered_children(tree: EngineTree) -> list[int]:
    """The root's children that were entered (not cut off)."""
    graph = tree.graph
    return [n for n in graph.successors(tree.root) if graph.nodes[n]["kind"] == "node"]
