"""The engine's tree: what its last iteration did, checked against the teaching minimax."""

from __future__ import annotations

import html
import random
import re
import shutil
from functools import cache
from typing import Any

import pytest

from games import load_game
from solver.engine import search
from solver.events import Enter, Trace, last_iteration
from solver.minimax import minimax
from tests.viz.svg import needs_dot
from tests.viz.test_frames_html import chromium_dom
from tests.viz.test_tikz import blocks, compile_tex, drawn_value, needs_pdflatex
from viz import GameTree, TooManyNodesError, VizError, to_dot
from viz.engine_dot import engine_dot
from viz.engine_tree import FLAG, EngineTree, engine_game_tree, engine_iterations, engine_tree
from viz.export import render, write_engine_iterations
from viz.html import engine_page, write_engine_html
from viz.interactive import write_engine_interactive
from viz.model import figure
from viz.notation import bound_text, number, pair_window_text
from viz.tikz import to_tikz, value_tex

GAME = load_game("tictactoe")
RICH = "o../x.x/ox."  # a last iteration with EXACT, LOWER and UPPER table hits


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
    @needs_dot
    def test_a_finished_game_is_one_leaf_in_every_format(self, tmp_path: Any) -> None:
        """From a won position the engine enters nothing: the drawing is the root as a leaf
        with its value, in DOT, TikZ and the iteration writers, and the caption says why."""
        state = GAME.parse_state("xxx/oo./...")
        tree = engine_tree(GAME, state)
        assert tree.searched == 0 and list(tree.graph.nodes) == [tree.root]
        assert tree.graph.nodes[tree.root]["value"] == 1 == tree.result.value
        assert "the game is over at the root: nothing searched" in engine_dot(tree)
        assert "None" not in engine_dot(tree) and "None" not in to_tikz(engine_game_tree(tree))
        assert render(tree, tmp_path / "over.svg").read_text().startswith("<?xml")
        (only,) = engine_iterations(GAME, state)
        assert write_engine_iterations([only], tmp_path / "frames")

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
        """render writes the engine's tree: SVG through Graphviz and strict node-link JSON."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        svg = render(tree, tmp_path / "e.svg").read_text(encoding="utf-8")
        assert svg.count('class="node table') == sum(tree.hits.values())
        text = render(tree, tmp_path / "e.json").read_text(encoding="utf-8")
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


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ITERATED = "xo./.xo/.x."  # the best move changes between iterations (6, then 8)


@cache
def iterations(text: str = ITERATED) -> tuple[GameTree, ...]:
    """Every iteration from ``text``, in the drawing model."""
    return tuple(engine_game_tree(t) for t in engine_iterations(GAME, GAME.parse_state(text)))


def model_values(drawn: GameTree) -> dict[int, str]:
    """Each entered node's value as the drawing model writes it."""
    looks = figure(drawn).nodes
    return {n: look.value for n, look in looks.items() if look.kind == "node"}


def minimax_root(text: str, depth: int) -> str:
    """The teaching minimax's value at ``depth``, as the figures write it."""
    return number(minimax(GAME, GAME.parse_state(text), depth=depth).value)


class TestDrawingModel:
    """One model for every writer: what an engine node shows is computed once, in viz.model."""

    def test_what_a_node_shows_is_the_engines(self) -> None:
        """Values and bounds, windows (or probes), order of entry, table hits and cuts, as the
        engine left them, in the notation's words."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        graph, looks = tree.graph, figure(engine_game_tree(tree)).nodes
        for node, data in graph.nodes(data=True):
            look = looks[node]
            if data["kind"] != "node":
                assert look.kind == "pruned" and not look.value
                continue
            assert look.value == bound_text(data["value"], data["bound"])
            assert look.order == f"#{data['order']}"
            searched_on = graph.out_degree(node) > 0
            assert look.answered == (data["table"] is not None and not searched_on)
            inner = not data["leaf"] and not look.answered
            expected = pair_window_text(data["alpha_in"], data["beta_in"]) if inner else ""
            assert look.window == expected
            if look.answered:
                assert look.table.startswith(FLAG[data["table"]])
        assert sum(look.answered for look in looks.values()) == sum(tree.hits.values())
        cuts = [e.cut for e in figure(engine_game_tree(tree)).edges if e.cut]
        assert len(cuts) == tree.cutoffs and all("-" not in c for c in cuts)  # true minus

    def test_graphviz_draws_the_model(self) -> None:
        """The engine's DOT is the same from its tree and from its model (viz.to_dot too)."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        drawn = engine_game_tree(tree)
        assert engine_dot(tree) == engine_dot(drawn) == to_dot(drawn)

    def test_the_model_refuses_what_the_engine_did_not_draw(self) -> None:
        """No negamax view and no exercise of an engine's tree: it is drawn as searched."""
        drawn = iterations()[0]
        for options in ({"view": "negamax"}, {"exercise": True}):
            with pytest.raises(VizError, match="engine's tree"):
                figure(drawn, **options)


class TestTikz:
    def test_each_iteration_draws_the_model_and_minimax_at_its_depth(self) -> None:
        """Every node of every iteration's TikZ writes the model's value; the root's is the
        teaching minimax's at that depth; table hits are cylinders with their flags."""
        for text in [ITERATED, *positions(3, seed=11)]:
            for k, drawn in enumerate(iterations(text), 1):
                source = to_tikz(drawn)
                drawn_blocks = blocks(source)
                for node, value in model_values(drawn).items():
                    assert drawn_value(drawn_blocks[node]) == value_tex(value), (text, k, node)
                assert drawn_value(drawn_blocks[drawn.root]) == value_tex(minimax_root(text, k))
                assert f"root moves tried {', '.join(drawn.graph.graph['root_order'])}" in (
                    source.replace("$-$", "−")
                )
        rich = to_tikz(engine_game_tree(engine_tree(GAME, GAME.parse_state(RICH))))
        assert rich.count(r"\filldraw[fill=tablefill") == 4
        assert all(flag in rich for flag in ("EXACT d", "LOWER d", "UPPER d"))

    def test_one_tikz_document_per_iteration(self, tmp_path: Any) -> None:
        """--frames with the tex format: iteration-01.tex, ..., each naming its root order."""
        trees = engine_iterations(GAME, GAME.parse_state(ITERATED))
        written = write_engine_iterations(trees, tmp_path, format="tex")
        assert [p.name for p in written] == [f"iteration-0{k}.tex" for k in (1, 2, 3, 4)]
        second = written[1].read_text(encoding="utf-8")
        assert second.startswith("\\documentclass")
        assert "root moves tried 6, 8, 2, 3; 6 first, the best move of iteration 1" in second

    @needs_pdflatex
    def test_compiles(self, tmp_path: Any) -> None:
        """A tree with all three kinds of table hit compiles with pdflatex."""
        tree = engine_tree(GAME, GAME.parse_state(RICH))
        path = render(tree, tmp_path / "engine.tex")
        compile_tex(path.read_text(encoding="utf-8"), tmp_path, "engine")


@needs_dot
class TestStepByStepPage:
    def test_one_frame_per_iteration(self) -> None:
        """The page holds one picture per iteration, each caption naming the root's order."""
        trees = engine_iterations(GAME, GAME.parse_state(ITERATED))
        html = engine_page(trees)
        assert html.count('class="picture"') == len(trees) == 4
        assert "root moves tried 6, 8, 2, 3; 6 first, the best move of iteration 1" in html

    @pytest.mark.chromium
    @pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
    def test_frames_in_chromium_are_the_models(self, tmp_path: Any) -> None:
        """In Chromium, each iteration's values are the model's, the root's minimax's at that
        depth, and Next shows the second iteration alone."""
        trees = engine_iterations(GAME, GAME.parse_state(ITERATED))
        page = write_engine_html(trees, tmp_path / "page.html")
        dom = chromium_dom(page.as_uri() + "?autotest=next", tmp_path / "profile")
        found = re.search(r'<pre id="autotest">(.*?)</pre>', dom, flags=re.S)
        assert found is not None, dom[-2000:]
        report = html.unescape(found.group(1))
        assert report.startswith("frame=1 ") and report.endswith(" seen=1")
        frames = report.split(" all=")[1].split(" seen=")[0].split(";")
        assert len(frames) == len(trees)
        for k, (shown, drawn) in enumerate(zip(frames, iterations(), strict=True), 1):
            values = dict(item.split(":", 1) for item in shown.split(","))
            model = {f"n{n}": v for n, v in model_values(drawn).items() if v}
            assert values == model
            assert values[f"n{drawn.root}"] == minimax_root(ITERATED, k)


class TestInteractivePage:
    def test_not_editable_and_says_why(self, tmp_path: Any) -> None:
        """The page steps through iterations; it refuses edits, saying why."""
        trees = engine_iterations(GAME, GAME.parse_state(ITERATED))
        text = write_engine_interactive(trees, tmp_path / "i.html").read_text(encoding="utf-8")
        assert '"editable": false' in text and "iteration 4 / 4" in text
        assert "does not reproduce the engine's transposition table" in html.unescape(text)

    @pytest.mark.chromium
    @pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
    def test_iterations_in_chromium_are_the_models(self, tmp_path: Any) -> None:
        """Stepping to iteration k draws the model's values and notes of iteration k (order,
        window, table flag), and its root has minimax's value at depth k."""
        trees = engine_iterations(GAME, GAME.parse_state(RICH), max_nodes=5000)
        drawn = [engine_game_tree(t) for t in trees]
        page = write_engine_interactive(trees, tmp_path / "i.html")
        steps = ",".join(f"step:{k},report" for k in range(len(trees)))
        dom = chromium_dom(page.as_uri() + "?autotest=" + steps, tmp_path / "profile")
        found = re.search(r'<pre id="autotest">(.*?)</pre>', dom, flags=re.S)
        assert found is not None, dom[-2000:]
        reports = html.unescape(found.group(1)).split("\n---\n")
        assert len(reports) == len(trees)
        for k, (report, one) in enumerate(zip(reports, drawn, strict=True), 1):
            assert f"iteration {k} / {len(trees)}" in report
            shown = page_nodes(report)
            expected = model_nodes(one)
            assert shown == expected, k
            assert shown["root"][0] == minimax_root(RICH, one.graph.graph["depth"])


def page_nodes(report: str) -> dict[str, tuple[str, str]]:
    """The interactive page's report: each entered node's drawn value and notes, by path."""
    out = {}
    for line in report.splitlines():
        parts = line.split(" ", 5)
        if len(parts) == 6 and parts[1] == "node":
            notes, value = parts[5].rsplit(" value=", 1)
            out[parts[0]] = (value, notes)
    return out


def model_nodes(drawn: GameTree) -> dict[str, tuple[str, str]]:
    """The same from the drawing model: value, and the notes in the page's order."""
    graph, looks = drawn.graph, figure(drawn).nodes
    out = {}

    def walk(node: int, path: str) -> None:
        look = looks[node]
        if look.kind == "node":
            notes = [look.table if look.answered else "", look.order, look.window]
            notes.append("" if look.answered else look.table)
            out[path] = (look.value, "|".join(t for t in notes if t))
        for i, child in enumerate(graph.successors(node)):
            walk(child, str(i) if path == "root" else f"{path}.{i}")

    walk(drawn.root, "root")
    return out
