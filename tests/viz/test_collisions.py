"""No label collides with another label or an edge: Graphviz's SVG and the TikZ layout, measured.

In the SVG each text's box comes from its position, anchor and font size (DejaVu Sans: a
character at most 0.6 em wide on average); in the TikZ source, from the positions the writer
chose and its width estimate, which one test checks against the widths TeX itself measures.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.viz.svg import SVG, needs_dot
from tests.viz.test_parity import _braced, random_chance_tree, random_tree, unlatex
from viz import game_tree, to_svg
from viz.frames import frame_svgs
from viz.mcts_tree import mcts_tree
from viz.tikz import _width, to_tikz

Box = tuple[str, str, float, float, float, float]  # owner, text, x0, x1, y0, y1


def overlapping(boxes: list[Box]) -> list[tuple[Box, Box]]:
    """The pairs of boxes of different owners that overlap."""
    return [
        (p, q)
        for p, q in itertools.combinations(boxes, 2)
        if p[0] != q[0] and p[2] < q[3] and q[2] < p[3] and p[4] < q[5] and q[4] < p[5]
    ]


def svg_boxes(svg: str) -> list[Box]:
    """Every text of every node and edge in a Graphviz SVG, as a box."""
    out = []
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        ident = group.get("id") or ""
        if not re.fullmatch(r"n\d+|e\d+_\d+", ident):
            continue
        for text in group.iter(f"{SVG}text"):
            words = "".join(text.itertext()).strip()
            if not words:
                continue
            size, x, y = (float(text.get(k) or 0) for k in ("font-size", "x", "y"))
            width = 0.6 * size * len(words)
            anchor = text.get("text-anchor")
            x0 = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
            out.append((ident, words, x0, x0 + width, y - 0.75 * size, y + 0.2 * size))
    return out


_LINE = 0.3  # the height of a line of notes at \scriptsize (cm), generously


def tikz_boxes(source: str) -> tuple[list[Box], list[tuple[float, float, float, float]]]:
    """The notes and names beside each node, as boxes, and every edge as a segment."""
    boxes: list[Box] = []
    owner = ""
    for line in source.splitlines():
        if head := re.match(r"% \S+ node (\d+)", line):
            owner = head.group(1)
        at = re.match(r"\\node\[([^\]]*)\] at \((-?[\d.]+),(-?[\d.]+)\)", line)
        if not at or "anchor=" not in at.group(1) or "north west" in at.group(1):
            continue
        x, y = float(at.group(2)), float(at.group(3))
        texts = [unlatex(t) for t in _braced(line, at.end()).split(r"\\")]
        width = max(_width(t) for t in texts)
        height = _LINE * len(texts)
        if "anchor=west" in at.group(1):
            boxes.append((owner, texts[0], x, x + width, y - height / 2, y + height / 2))
        else:  # a node's letter, right-aligned at x
            boxes.append((owner, texts[0], x - 0.25 * len(texts[0]), x, y - 0.2, y + 0.2))
    segments = []
    for line in source.splitlines():
        if line.startswith(r"\draw[") and "cycle" not in line:
            points = [
                (float(a), float(b)) for a, b in re.findall(r"\((-?[\d.]+),(-?[\d.]+)\)", line)
            ]
            segments += [(*p, *q) for p, q in itertools.pairwise(points)]
    return boxes, segments


def crosses(segment: tuple[float, float, float, float], box: Box) -> bool:
    """The segment passes through the inside of the box (exactly: the part of the segment
    inside the open box, clipped side by side, is longer than a point)."""
    x0, y0, x1, y1 = segment
    if max(x0, x1) <= box[2] or min(x0, x1) >= box[3] or max(y0, y1) <= box[4]:
        return False  # wholly left of, right of or below the box
    enter, leave = 0.0, 1.0
    for start, step, low, high in ((x0, x1 - x0, box[2], box[3]), (y0, y1 - y0, box[4], box[5])):
        if step == 0:
            if not low < start < high:
                return False
            continue
        a, b = sorted(((low - start) / step, (high - start) / step))
        enter, leave = max(enter, a), min(leave, b)
    return enter < leave


@needs_dot
class TestGraphvizLabelsApart:
    @pytest.mark.parametrize("part", range(3))
    def test_random_trees(self, part: int) -> None:
        """150 random alpha-beta trees, labels on and off: no two texts of different owners
        meet. (In three parts of 50, which parallel runs share out: each takes Graphviz
        seconds.)"""
        rng = random.Random(3)
        trees = [random_tree(rng, 4) for _ in range(150)]
        for index in range(50 * part, 50 * part + 50):
            game = load_game("textbook", tree=trees[index])
            tree = game_tree(game, algorithm="alphabeta", pruned="values")
            svg = to_svg(
                tree,
                legend=False,
                alpha_beta_labels=index % 2 == 0,
                order=index % 3 == 0,
                view=("minimax", "negamax")[index % 4 == 1],
            )
            assert overlapping(svg_boxes(svg)) == [], index

    def test_mcts_and_chance_trees_at_every_frame(self) -> None:
        """MCTS trees (every node with its W/N, UCB terms and exact value, a new node's
        ``UCB +∞ (unvisited)``) and *-minimax trees (chance ranges), in every stepper frame:
        no two texts of different owners meet."""
        rng = random.Random(7)
        trees = [mcts_tree(load_game("textbook"), iterations=12, seed=0)]
        for index in range(6):
            game = load_game("textbook", tree=random_tree(rng, 3))
            trees.append(mcts_tree(game, iterations=8 + index, seed=index, solver=index % 2 == 1))
        for index in range(6):
            game = load_game("textbook", tree="[" + random_chance_tree(rng, 4) + "]")
            trees.append(game_tree(game, algorithm=("star1", "star2")[index % 2]))
        for tree in trees:
            for step, svg in enumerate(frame_svgs(tree, alpha_beta_labels=True, legend=False)):
                assert overlapping(svg_boxes(svg)) == [], (tree, step)


def crowded_tree(rng: random.Random, depth: int, scale: int) -> Any:
    """A random tree harder to lay out than :func:`random_tree`'s: every inner node down to
    ``depth`` has 2 or 3 children (wide levels, many cuts) and leaves lie in ±(scale − 1)."""
    if depth == 0:
        return rng.randint(1 - scale, scale - 1)
    return [crowded_tree(rng, depth - 1, scale) for _ in range(rng.randint(2, 3))]


class TestTikzLabelsApart:
    def test_random_trees(self) -> None:
        """40 full random trees, each drawn four ways (windows and ranges always; order of entry
        and the exercise's blanks on and off), leaves of one to three digits: notes and letters
        never meet each other, and no edge passes through them."""
        rng = random.Random(5)
        for index in range(40):
            game = load_game("textbook", tree=crowded_tree(rng, 4, 10 ** (1 + index % 3)))
            tree = game_tree(game, algorithm="alphabeta", pruned="values")
            for order, exercise in itertools.product((False, True), repeat=2):
                source = to_tikz(
                    tree,
                    standalone=False,
                    caption=False,
                    alpha_beta_labels=True,
                    order=order,
                    exercise=exercise,
                )
                boxes, segments = tikz_boxes(source)
                assert overlapping(boxes) == [], (index, order, exercise)
                for segment in segments:
                    assert not [b for b in boxes if crosses(segment, b)], (index, segment)

    def test_the_crossing_check_is_exact(self) -> None:
        """An edge that only clips a box's corner is caught, even a long one that the 201
        samples along it the check took before stepped over; one along its side is not."""
        box: Box = ("1", "α=3", 0.0, 1.0, 0.0, 0.3)
        assert crosses((0.8, -0.1, 1.1, 0.2), box)  # clips the lower right corner
        assert crosses((-5.0, 5.02, 5.0, -4.98), box)  # clips the lower left, 0.02 cm of 14
        assert crosses((0.5, 0.1, 0.5, 0.2), box)  # wholly inside
        assert not crosses((0.0, 0.3, 1.0, 0.3), box)  # along the top side
        assert not crosses((1.01, -1.0, 1.01, 1.0), box)  # just beside it

    def test_deep_tree_of_the_issue(self) -> None:
        """The depth-4 tree whose cut labels collided with each other and with edges."""
        deep = [[[[3, 17], [2, 12]], [[15], [25, 0]]], [[[2, 5], [3]], [[2, 14]]]]
        tree = game_tree(load_game("textbook", tree=deep), algorithm="alphabeta")
        boxes, segments = tikz_boxes(to_tikz(tree, alpha_beta_labels=True, caption=False))
        assert len([b for b in boxes if b[1].startswith("v=")]) == 0  # cuts are note lines
        assert overlapping(boxes) == []
        assert not [b for s in segments for b in boxes if crosses(s, b)]


PDFLATEX = shutil.which("pdflatex")


@pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed")
class TestWidthEstimates:
    def test_estimates_are_at_least_what_tex_measures(self, tmp_path: Path) -> None:
        """The writer's width estimate of each kind of note is at least its typeset width."""
        from viz.tikz import latex_text

        samples = ["α=−∞ β=+∞", "[−∞, +∞]", "v=−15 ≥ β=−13", "#128", "[−12, 14]", "α=3 β=+∞"]
        measure = "".join(
            rf"\settowidth{{\w}}{{\scriptsize {latex_text(s)}}}\typeout{{W{i}=\the\w}}"
            for i, s in enumerate(samples)
        )
        (tmp_path / "w.tex").write_text(
            "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\newlength{\\w}\n"
            f"\\begin{{document}}\n{measure}\n\\end{{document}}\n",
            encoding="utf-8",
        )
        done = subprocess.run(
            [str(PDFLATEX), "-interaction=nonstopmode", "w.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        widths = {int(i): float(pt) for i, pt in re.findall(r"W(\d+)=([\d.]+)pt", done.stdout)}
        assert len(widths) == len(samples), done.stdout[-1500:]
        for index, sample in enumerate(samples):
            typeset_cm = widths[index] * 2.54 / 72.27
            assert _width(sample) >= typeset_cm, (sample, _width(sample), typeset_cm)
