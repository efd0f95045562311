"""On random trees, every drawn value, bound and cut equals an alpha-beta written here; with
chance nodes, every running range holds the exact value, narrows, and is what *-minimax knew.

The oracle below is AIMA's fail-soft alpha-beta (Figure 5.7) written again from the book, on
nested lists, with nothing shared with ``solver.minimax`` or ``viz``; the bound rule is the
textbook's: a value at or below alpha on entry is an upper bound, at or above beta a lower
bound, otherwise exact. Each bound is also checked against plain minimax: the true value of an
"upper" node is at most its value, of a "lower" node at least, of an exact node equal.
"""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import load_game
from games.textbook import Chance, TextbookTree
from solver.expectiminimax import _StarNode
from tests.solver.test_expectiminimax import brute
from tests.solver.test_expectiminimax import trees as chance_trees
from viz import game_tree, to_dot
from viz.model import Frame, figure
from viz.notation import range_text

INF = float("inf")
Path = tuple[int, ...]

leaves = st.integers(min_value=-4, max_value=4)
trees = st.lists(
    st.recursive(leaves, lambda sub: st.lists(sub, min_size=1, max_size=3), max_leaves=24),
    min_size=1,
    max_size=3,
)


CHANCE_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def minimax(tree: Any, depth: int = 0) -> float:
    """The value of a nested-list tree, MAX moving at even depths."""
    if not isinstance(tree, list):
        return float(tree)
    values = [minimax(child, depth + 1) for child in tree]
    return max(values) if depth % 2 == 0 else min(values)


def alphabeta(
    tree: Any,
    path: Path,
    alpha: float,
    beta: float,
    seen: dict[Path, tuple[float, str]],
    pruned: set[Path],
) -> float:
    """AIMA's fail-soft alpha-beta; records each visited node's value and bound kind."""
    if not isinstance(tree, list):
        seen[path] = (float(tree), "exact")
        return float(tree)
    alpha_in, beta_in = alpha, beta
    maximising = len(path) % 2 == 0
    v = -INF if maximising else INF
    for i, child in enumerate(tree):
        w = alphabeta(child, (*path, i), alpha, beta, seen, pruned)
        if maximising:
            v = w if i == 0 else max(v, w)
            alpha = max(alpha, v)
            if v >= beta:
                pruned.update((*path, j) for j in range(i + 1, len(tree)))
                break
        else:
            v = w if i == 0 else min(v, w)
            beta = min(beta, v)
            if v <= alpha:
                pruned.update((*path, j) for j in range(i + 1, len(tree)))
                break
    bound = "exact"
    if v <= alpha_in and alpha_in != -INF:
        bound = "upper"
    elif v >= beta_in and beta_in != INF:
        bound = "lower"
    seen[path] = (v, bound)
    return v


def subtree(tree: Any, path: Path) -> Any:
    for i in path:
        tree = tree[i]
    return tree


def size(tree: Any) -> int:
    return 1 if not isinstance(tree, list) else 1 + sum(size(c) for c in tree)


def drawn(tree: Any, **options: Any) -> tuple[Any, Any, dict[Path, dict[str, Any]]]:
    game = load_game("textbook", tree=tree)
    diagram = game_tree(game, algorithm="alphabeta", max_nodes=None, **options)
    by_path = {
        game.parse_state(d["state"]): {**d, "id": n} for n, d in diagram.graph.nodes(data=True)
    }
    return game, diagram, by_path


def labels(source: str) -> dict[str, str]:
    """Each node's label in a DOT source, by node id."""
    return dict(re.findall(r"^\s*(n\d+) \[.*?(?<!x)label=(<.*?>)(?:, \w+=|\];$)", source, re.M))


class TestAgainstAnIndependentAlphaBeta:
    @settings(max_examples=300)
    @given(trees)
    def test_values_bounds_and_cuts(self, tree: list[Any]) -> None:
        """Every visited node's value and bound, and the pruned moves, match the oracle."""
        seen: dict[Path, tuple[float, str]] = {}
        pruned: set[Path] = set()
        alphabeta(tree, (), -INF, INF, seen, pruned)
        _, diagram, by_path = drawn(tree, pruned="stub")
        visited = {p: (d["value"], d["bound"]) for p, d in by_path.items() if d["kind"] == "node"}
        assert visited == seen
        assert {p for p, d in by_path.items() if d["kind"] == "pruned"} == pruned
        assert diagram.saved == sum(size(subtree(tree, p)) for p in pruned)
        assert diagram.searched + diagram.saved == size(tree)

    @settings(max_examples=300)
    @given(trees)
    def test_bounds_hold_against_minimax(self, tree: list[Any]) -> None:
        """An exact node has its minimax value; a lower bound is below it, an upper above."""
        _, _, by_path = drawn(tree, pruned="values")
        for path, data in by_path.items():
            truth = minimax(subtree(tree, path), len(path))
            if data["kind"] == "pruned":
                assert data["value"] == truth and data["bound"] == "exact"
            elif data["bound"] == "exact":
                assert data["value"] == truth
            elif data["bound"] == "lower":
                assert truth >= data["value"]
            else:
                assert truth <= data["value"]

    @settings(max_examples=300)
    @given(trees)
    def test_picture_writes_the_bound_signs_exactly_where_they_are(self, tree: list[Any]) -> None:
        """The DOT shows ≥ on exactly the lower bounds and ≤ on exactly the upper bounds."""
        _, diagram, by_path = drawn(tree)
        for options in ({}, {"alpha_beta_labels": True}, {"order": True}):
            shown = labels(to_dot(diagram, legend=False, **options))
            for data in by_path.values():
                text = shown[f"n{data['id']}"]
                assert ("≥" in text) == (data["bound"] == "lower" and data["kind"] == "node")
                assert ("≤" in text) == (data["bound"] == "upper" and data["kind"] == "node")

    @settings(max_examples=200)
    @given(trees)
    def test_negamax_view_negates_min_nodes_and_swaps_their_bounds(self, tree: list[Any]) -> None:
        """In the negamax view a MIN node's value is negated and its ≥/≤ swapped."""
        _, diagram, by_path = drawn(tree)
        shown = labels(to_dot(diagram, legend=False, view="negamax"))
        for data in by_path.values():
            if data["kind"] != "node":
                continue
            text = shown[f"n{data['id']}"]
            flip = data["player"] == 1
            lower = data["bound"] == ("upper" if flip else "lower")
            upper = data["bound"] == ("lower" if flip else "upper")
            assert ("≥" in text) == lower and ("≤" in text) == upper
            value = -data["value"] if flip else data["value"]
            assert re.search(rf"[≥≤]?{re.escape(format(value, 'g'))}\b", text.replace("−", "-"))

    @settings(max_examples=200)
    @given(trees, st.sampled_from(["best", "worst"]))
    def test_every_move_order_finds_the_same_value(self, tree: list[Any], how: str) -> None:
        """Reordering the moves changes what is pruned, never the root value."""
        game = load_game("textbook", tree=tree)
        diagram = game_tree(game, algorithm="alphabeta", max_nodes=None, ordering=how)
        assert diagram.result.value == minimax(tree)
        assert diagram.searched + diagram.saved == size(tree)


@st.composite
def uniform_trees(draw: st.DrawFn) -> tuple[list[Any], int, int]:
    """A tree of uniform branching and depth whose leaves are distinct."""
    branching = draw(st.integers(min_value=2, max_value=3))
    depth = draw(st.integers(min_value=1, max_value=4 if branching == 2 else 3))
    values = draw(st.permutations(range(branching**depth)))
    leaves = iter(values)

    def grow(level: int) -> Any:
        if level == depth:
            return next(leaves)
        return [grow(level + 1) for _ in range(branching)]

    return grow(0), branching, depth


class TestMoveOrdering:
    @settings(max_examples=150)
    @given(uniform_trees())
    def test_best_first_searches_the_minimal_tree(self, case: tuple[list[Any], int, int]) -> None:
        """Best first, alpha-beta evaluates b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves (Knuth and Moore)."""
        tree, b, d = case
        diagram = game_tree(
            load_game("textbook", tree=tree),
            algorithm="alphabeta",
            ordering="best",
            max_nodes=None,
        )
        assert diagram.result.stats.leaves == b ** ((d + 1) // 2) + b ** (d // 2) - 1

    @settings(max_examples=150)
    @given(uniform_trees())
    def test_no_order_searches_fewer_leaves_than_best_first(
        self, case: tuple[list[Any], int, int]
    ) -> None:
        """With distinct leaves, the given and worst-first orders evaluate at least as many."""
        tree, _, _ = case
        leaves = {}
        for how in ("best", "given", "worst"):
            diagram = game_tree(
                load_game("textbook", tree=tree),
                algorithm="alphabeta",
                ordering=how,
                max_nodes=None,
            )
            leaves[how] = diagram.result.stats.leaves
        assert leaves["best"] <= min(leaves["given"], leaves["worst"])


def outcome(tree: Any, path: Path) -> Any:
    """The subtree at ``path`` of a tree with chance nodes."""
    for i in path:
        tree = tree.outcomes[i][1] if isinstance(tree, Chance) else tree[i]
    return tree


class TestChanceRanges:
    """A chance node's [lo, hi] is what *-minimax knows of the expectation at every frame."""

    @CHANCE_SETTINGS
    @given(chance_trees(), st.sampled_from(["star1", "star2"]), st.integers(0, 3))
    def test_ranges_hold_the_value_and_narrow(self, tree: Any, algorithm: str, slack: int) -> None:
        """At every frame, each chance node's range holds its exact expectiminimax value (the
        brute force's) and is no wider than at the frame before; it starts at [L, U]."""
        game = TextbookTree(tree)
        lo, hi = game.utility_bounds()
        bounds = (lo - slack, hi + slack)
        diagram = game_tree(game, algorithm=algorithm, bounds=bounds, max_nodes=None)
        chance = [
            n for n, d in diagram.graph.nodes(data=True) if d["chance"] and d["kind"] == "node"
        ]
        kids = {n: list(diagram.graph.successors(n)) for n in chance}
        seen: dict[int, tuple[float, float]] = {}
        for step in range(len(diagram.steps) + 1):
            frame = Frame(diagram, step)
            look = figure(diagram, step=step, alpha_beta_labels=True)
            for node in chance:
                data = diagram.graph.nodes[node]
                span = frame.range(node, "minimax")
                if span is None:
                    assert not frame.visible(data) and look.nodes[node].range == ""
                    continue
                assert look.nodes[node].range == range_text(*span)
                state = game.parse_state(data["state"])
                truth = brute(outcome(tree, state), game.to_move(state))
                assert span[0] <= truth <= span[1], (step, node, span, truth)
                if node in seen:
                    assert seen[node][0] <= span[0] and span[1] <= seen[node][1], (step, node)
                elif not any(frame.known(diagram.graph.nodes[c]) for c in kids[node]):
                    assert span == bounds, (step, node, span)  # nothing searched yet: [L, U]
                seen[node] = span
            if step == len(diagram.steps):
                for node in chance:
                    data = diagram.graph.nodes[node]
                    if data["bound"] == "exact":
                        assert frame.range(node, "minimax") == (data["value"],) * 2

    @CHANCE_SETTINGS
    @given(chance_trees(), st.sampled_from(["star1", "star2"]), st.integers(0, 3))
    def test_ranges_are_the_search_own_bounds(self, tree: Any, algorithm: str, slack: int) -> None:
        """The ranges a chance node shows before it is backed up are exactly the bounds
        [Σ p·lo, Σ p·hi] the search held there (read from inside it) each time it weighed a
        cut (and [L, U], before it has searched anything)."""
        game = TextbookTree(tree)
        lo, hi = game.utility_bounds()
        bounds = (lo - slack, hi + slack)
        held: dict[int, set[tuple[Any, Any]]] = {}
        weigh = _StarNode.settled

        def spy(star: _StarNode, *args: Any, **kwargs: Any) -> Any:
            held.setdefault(star.node, set()).add((star.lower(), star.upper()))
            return weigh(star, *args, **kwargs)

        with patch.object(_StarNode, "settled", spy):
            diagram = game_tree(game, algorithm=algorithm, bounds=bounds, max_nodes=None)
        shown: dict[int, set[tuple[Any, Any]]] = {}
        for step in range(len(diagram.steps)):
            frame = Frame(diagram, step)
            for node, data in diagram.graph.nodes(data=True):
                if data["chance"] and data["kind"] == "node" and not frame.known(data):
                    span = frame.range(node, "minimax")
                    if span is not None:
                        shown.setdefault(node, set()).add(span)
        assert shown.keys() <= held.keys()
        for node, spans in held.items():  # [L, U] shows only if drawn before a child is valued
            assert spans - {bounds} == shown.get(node, set()) - {bounds}, node


class TestChanceCuts:
    """Every outcome of a drawn chance node is drawn: searched, probed, or pruned by its cut."""

    @CHANCE_SETTINGS
    @given(chance_trees(), st.sampled_from(["star1", "star2"]), st.integers(0, 3))
    def test_every_outcome_is_drawn(self, tree: Any, algorithm: str, slack: int) -> None:
        """Each chance node's children cover all its outcomes; the pruned ones are drawn in
        outcome order, the cut written on the first, and the cut's step names them all."""
        game = TextbookTree(tree)
        lo, hi = game.utility_bounds()
        diagram = game_tree(game, algorithm=algorithm, bounds=(lo - slack, hi + slack))
        graph = diagram.graph
        cut_steps = {s.node: s.text for s in diagram.steps if s.kind == "cut"}
        for node, data in graph.nodes(data=True):
            if not (data["chance"] and data["kind"] == "node"):
                continue
            moves = [move for move, _ in data["outcomes"]]
            edges = [graph.edges[node, c] for c in sorted(graph.successors(node))]
            assert {e["move"] for e in edges} == set(moves), (node, data["state"])
            cut = [e for e in edges if e["pruned"]]
            assert [e["move"] for e in cut] == [m for m in moves if m in {e["move"] for e in cut}]
            assert [bool(e["cut"]) for e in cut] == [i == 0 for i in range(len(cut))]
            if cut:
                named = cut_steps[node].split(" need not")[0].split("so move")[1]
                # Star2's cut also names the moves its probe left unsearched deeper down
                # ("1·0·1": a path of moves below the chance node); its own come first.
                own = [m for m in named.lstrip("s ").split(", ") if "·" not in m]
                assert own == [e["move"] for e in cut]
