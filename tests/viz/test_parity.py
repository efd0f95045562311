"""Every writer shows the same annotations: Graphviz's SVG and TikZ read back and compared.

Random textbook trees are drawn under every combination of options (algorithm, view, alpha-beta
labels, visit order, exercise); from the SVG each node's texts are read by its ``id``, from the
TikZ source by its ``% ROLE node N`` block, and both are turned into the notation's plain text.
A format that drops or rewrites an annotation (a window, a range, a bound, a letter, a cut)
fails here.
"""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games import load_game
from tests.viz.svg import SVG, needs_dot
from viz import game_tree, to_svg
from viz.frames import frame_svgs
from viz.mcts_tree import mcts_tree
from viz.model import figure
from viz.tikz import to_tikz

pytestmark = needs_dot

OPTIONS = [
    {"algorithm": a, "view": v, "alpha_beta_labels": ab, "order": o, "exercise": ex}
    for a, v, ab, o, ex in itertools.product(
        ("minimax", "alphabeta"),
        ("minimax", "negamax"),
        (False, True),
        (False, True),
        (False, True),
    )
]
GLYPHS = {"▲", "▼", "●", "■", "◯", "×", ""}
_TEX = [
    (r"\rule{1.4cm}{0.4pt}", ""),
    (r"\geq", "≥"),
    (r"\leq", "≤"),
    (r"\infty", "∞"),
    (r"\alpha", "α"),
    (r"\beta", "β"),
    (r"\times", "×"),
    (r"\#", "#"),
    (r"\color{cut}", ""),
    (r"\bfseries", ""),
    (r"\boldmath", ""),
    (r"\scriptsize", ""),
    (r"\footnotesize", ""),
    (r"\tiny", ""),
]


def random_tree(rng: random.Random, depth: int) -> Any:
    """A nested list of leaf values (-15..15), 1-3 children a node, up to ``depth`` plies."""
    if depth == 0 or (depth < 3 and rng.random() < 0.25):
        return rng.randint(-15, 15)
    return [random_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def unlatex(text: str) -> str:
    """TikZ's LaTeX back to the notation's Unicode text."""
    for tex, uni in _TEX:
        text = text.replace(tex, uni)
    return re.sub(r"[${}]", "", text).replace("-", "−").replace("~", " ").strip()


def plain(text: str) -> str:
    """A text as the notation writes it, whitespace dropped (Graphviz and TikZ space apart)."""
    return re.sub(r"\s+", "", unlatex(text))


def svg_texts(svg: str) -> tuple[dict[int, list[str]], dict[tuple[int, int], list[str]]]:
    """Each node's and each edge's texts in Graphviz's SVG, by the ids viz gives them."""
    nodes: dict[int, list[str]] = {}
    edges: dict[tuple[int, int], list[str]] = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        ident = group.get("id") or ""
        found = [plain("".join(x.itertext())) for x in group.iter(f"{SVG}text")]
        # an exercise's blanks are cells between the texts: [ , ] and α= β=
        joined = "|".join(t for t in found if t).replace("[|,|]", "[,]").replace("α=|β=", "α=β=")
        texts = sorted(t for t in joined.split("|") if t not in GLYPHS)
        if m := re.fullmatch(r"n(\d+)", ident):
            nodes[int(m.group(1))] = texts
        elif m := re.fullmatch(r"e(\d+)_(\d+)", ident):
            edges[int(m.group(1)), int(m.group(2))] = texts
    return nodes, edges


def _contents(command: str) -> str:
    """The text of ``\\node[...] at (x,y) {text};`` (braces balanced)."""
    return _braced(command, command.index(") "))


def _braced(command: str, after: int) -> str:
    """The text in the first balanced braces at or after ``after``."""
    start = command.index("{", after)
    depth = 0
    for index in range(start, len(command)):
        depth += {"{": 1, "}": -1}.get(command[index], 0)
        if depth == 0:
            return command[start + 1 : index]
    raise AssertionError(command)


def tikz_texts(source: str) -> tuple[dict[int, list[str]], dict[tuple[float, ...], list[str]]]:
    """Each node's texts in the TikZ source (its notes, cuts included, attached to the node)."""
    nodes: dict[int, list[str]] = {}
    for chunk in re.split(r"^(?=% (?:MAX|MIN|leaf) node )", source, flags=re.M)[1:]:
        head = re.match(r"% \S+ node (\d+)", chunk)
        assert head is not None
        texts = []
        for line in chunk.splitlines()[1:]:
            if line.startswith(r"\node["):
                texts += [plain(part) for part in _contents(line).split(r"\\")]
        nodes[int(head.group(1))] = sorted(t for t in texts if t not in GLYPHS)
    edges: dict[tuple[float, ...], list[str]] = {}
    for line in source.splitlines():
        if line.startswith(r"\draw[") and "cycle" not in line and " node[" in line:
            labels = [plain(_braced(line, m.end())) for m in re.finditer(r"node\[[^\]]*\] ", line)]
            edges[_edge_key(line)] = sorted(t for t in labels if t not in GLYPHS)
    return nodes, edges


def _edge_key(line: str) -> tuple[float, ...]:
    """An edge by the coordinates it is drawn between."""
    points = re.findall(r"\((-?[\d.]+),(-?[\d.]+)\)", line)
    return tuple(float(x) for point in points for x in point)


def compare(tree: Any, options: dict[str, Any]) -> None:
    """The SVG and the TikZ of ``tree`` show the same texts at every node and edge."""
    looks = {k: v for k, v in options.items() if k != "algorithm"}
    svg_nodes, svg_edges = svg_texts(to_svg(tree, legend=False, **looks))
    tex_nodes, _ = tikz_texts(to_tikz(tree, standalone=False, caption=False, **looks))
    graph = tree.graph
    for node in graph.nodes:
        # a table cannot be drawn dashed in Graphviz: a Star2 probe says so in words instead
        expected = [t for t in svg_nodes[node] if t != "probe:firstmoveonly"]
        for child in graph.successors(node):  # Graphviz writes a cut at its edge, TikZ beside
            expected += [t[1:] for t in svg_edges[node, child] if t.startswith("✂")]
        assert sorted(expected) == tex_nodes[node], (node, options, graph.nodes[node]["name"])


class TestGraphvizAndTikzAgree:
    def test_textbook_tree_under_every_option(self) -> None:
        """AIMA's Figure 5.2 tree, under every combination of options."""
        game = load_game("textbook", labels="aima")
        for options in OPTIONS:
            tree = game_tree(game, algorithm=options["algorithm"], pruned="values")
            compare(tree, options)

    @pytest.mark.parametrize("seed", range(4))
    def test_random_trees_under_every_option(self, seed: int) -> None:
        """200 random trees (50 a seed), under options taken in turn from all 64 combinations."""
        rng = random.Random(seed)
        for index in range(50):
            options = OPTIONS[(seed * 50 + index) % len(OPTIONS)]
            game = load_game("textbook", tree=random_tree(rng, 4))
            tree = game_tree(game, algorithm=options["algorithm"], pruned="values")
            compare(tree, options)

    def test_edges_carry_the_same_moves(self) -> None:
        """Every move label of the SVG is a move label of the TikZ picture."""
        game = load_game("textbook", labels="aima")
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        _, svg_edges = svg_texts(to_svg(tree, legend=False))
        _, tex_edges = tikz_texts(to_tikz(tree, standalone=False, caption=False))
        svg_moves = sorted(t for texts in svg_edges.values() for t in texts if "✂" not in t)
        tex_moves = sorted(t for texts in tex_edges.values() for t in texts)
        assert svg_moves == tex_moves == sorted(d["move"] for *_, d in tree.graph.edges(data=True))


def random_chance_tree(rng: random.Random, depth: int) -> Any:
    """A textbook tree text with chance nodes (in braces, 1-3 outcomes in sixths) among lists."""
    if depth == 0 or (depth < 3 and rng.random() < 0.25):
        return str(rng.randint(0, 9))
    n = rng.randint(1, 3)
    kids = [random_chance_tree(rng, depth - 1) for _ in range(n)]
    if rng.random() < 0.4:
        cuts = sorted(rng.sample(range(1, 6), n - 1))
        sixths = [b - a for a, b in zip([0, *cuts], [*cuts, 6], strict=True)]
        return "{" + ", ".join(f"{s}/6: {k}" for s, k in zip(sixths, kids, strict=True)) + "}"
    return "[" + ", ".join(kids) + "]"


class TestMctsAndChanceTreesAgree:
    """MCTS counts and UCB terms (leaves too), and chance nodes' running ranges, are the same
    texts in Graphviz, TikZ and every frame of the stepper."""

    @pytest.mark.parametrize("seed", range(4))
    def test_mcts_trees(self, seed: int) -> None:
        """Random textbook trees after a few iterations, with and without MCTS-Solver."""
        rng = random.Random(seed)
        for _ in range(4):
            game = load_game("textbook", tree=random_tree(rng, 3))
            tree = mcts_tree(game, iterations=rng.randint(3, 12), seed=seed, solver=seed % 2 == 1)
            compare(tree, {"order": False})
            frames_agree(tree)

    @pytest.mark.parametrize("seed", range(4))
    def test_chance_trees(self, seed: int) -> None:
        """Random chance trees under expectiminimax, Star1 and Star2, ranges on and off."""
        rng = random.Random(seed)
        for index in range(6):
            game = load_game("textbook", tree="[" + random_chance_tree(rng, 4) + "]")
            algorithm = ("expectiminimax", "star1", "star2")[index % 3]
            tree = game_tree(game, algorithm=algorithm, pruned="values")
            compare(tree, {"alpha_beta_labels": index % 2 == 0, "order": index % 4 == 1})
            frames_agree(tree)


def frames_agree(tree: Any) -> None:
    """Each frame of the stepper shows each node's value and range text of the drawing model."""
    frames = frame_svgs(tree, alpha_beta_labels=True)
    for step, svg in enumerate(frames):
        look = figure(tree, step=step, alpha_beta_labels=True)
        found: dict[tuple[str, str], str] = {}
        for text in ET.fromstring(svg).iter(f"{SVG}text"):
            for role in ("v", "r"):
                if text.get(f"data-{role}") is not None:
                    found[role, text.get(f"data-{role}") or ""] = "".join(text.itertext())
        for node, shape in look.nodes.items():
            if shape.kind != "node" or not shape.visible:
                continue
            assert found.get(("v", str(node)), "") == shape.value, (step, node)
            if shape.notes:
                assert found[("r", str(node))] == shape.range, (step, node)
