"""The lecture hall's compact layout: a whole depth-4, branching-3 tree on one 16:9 Beamer frame,
its leaves' values at 8 pt or more (measured by TeX), nothing drawn over anything else."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.viz.test_collisions import Box, crosses, crowded_tree, overlapping, tikz_boxes
from tests.viz.test_parity import random_chance_tree, unlatex
from tests.viz.test_tikz import PDFLATEX, needs_pdflatex
from viz import VizError, game_tree
from viz.build import GameTree
from viz.mcts_tree import mcts_tree
from viz.model import figure
from viz.tikz import _width, to_tikz
from viz.views import cut_view
from zerosum.cli import main


def full_tree(rng: random.Random, depth: int) -> Any:
    """A full tree of branching 3, leaves from −20 to 20 (two digits and a sign: the widest)."""
    return rng.randint(-20, 20) if depth == 0 else [full_tree(rng, depth - 1) for _ in range(3)]


def deep(seed: int) -> GameTree:
    return game_tree(
        load_game("textbook", tree=full_tree(random.Random(seed), 4)), algorithm="alphabeta"
    )


_NUMBER = r"(-?[\d.]+)"
_POINT = rf"\({_NUMBER},{_NUMBER}\)"


def shape_boxes(source: str) -> list[Box]:
    """Every node's shape, as the box around the points of its path (a circle's around it)."""
    boxes: list[Box] = []
    owner = ""
    for line in source.splitlines():
        if head := re.match(r"% \S+ node (\d+)", line):
            owner = head.group(1)
            continue
        if not line.startswith((r"\filldraw[", r"\draw[")) or "cycle" not in line:
            if circle := re.search(rf"{_POINT} circle \({_NUMBER}\)", line):
                x, y, r = (float(v) for v in circle.groups())
                boxes.append((owner, "shape", x - r, x + r, y - r, y + r))
            continue
        points = [(float(a), float(b)) for a, b in re.findall(_POINT, line)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        boxes.append((owner, "shape", min(xs), max(xs), min(ys), max(ys)))
    return boxes


def stub_labels(source: str) -> list[Box]:
    """The label of every move into a listed node (on its stub, the path's last, level part),
    as a box at \\scriptsize with its 1pt padding."""
    boxes: list[Box] = []
    for index, line in enumerate(source.splitlines()):
        found = re.search(
            rf"{_POINT} -- node\[pos={_NUMBER}, fill=white[^\]]*\] \{{(.*?)\}} {_POINT};$", line
        )
        if not found or found.group(2) != found.group(6):
            continue  # a move between tidy plies
        x0, y, pos, x1 = (float(found.group(k)) for k in (1, 2, 3, 5))
        text = unlatex(found.group(4))
        half = _width(text) / 2 + 0.035
        centre = x0 + pos * (x1 - x0)
        boxes.append((f"move{index}", text, centre - half, centre + half, y - 0.15, y + 0.15))
    return boxes


def collisions(source: str) -> list[Any]:
    """Texts and shapes of different nodes that meet (moves' labels on stubs included), and
    edges through a text or a shape other than at the edge's own ends."""
    notes, segments = tikz_boxes(source)
    shapes = shape_boxes(source)
    found: list[Any] = overlapping(notes + shapes + stub_labels(source))
    for segment in segments:
        ends = [(segment[0], segment[1]), (segment[2], segment[3])]
        for box in notes + shapes:
            touching = any(box[2] <= x <= box[3] and box[4] <= y <= box[5] for x, y in ends)
            if box[1] == "shape" and touching:
                continue  # the edge's own parent or child
            if crosses(segment, box):
                found.append((segment, box))
    return found


class TestLayout:
    def test_the_lowest_plies_are_listed(self) -> None:
        """Each ply-2 node's three children and nine leaves stand in one column under it: the
        tree is nine columns wide, not 81 leaves (the normal layout's 94 cm)."""
        tree = deep(1)
        compact = to_tikz(tree, standalone=False, caption=False, compact=True)
        normal = to_tikz(tree, standalone=False, caption=False)

        def width(source: str) -> float:
            xs = [b[2] for b in shape_boxes(source)] + [b[3] for b in shape_boxes(source)]
            return max(xs) - min(xs)

        assert width(normal) > 80 and width(compact) < 16

    @pytest.mark.parametrize(
        ("labels", "order"), [(False, False), (True, False), (False, True), (True, True)]
    )
    def test_nothing_meets(self, labels: bool, order: bool) -> None:
        """Random depth-4 trees, crowded (two or three children, one to three digits), with
        windows and ranges, order of entry or neither: no text or shape meets another node's,
        no edge passes through a text or a shape (the collision check of the normal layout's
        tests, node shapes added)."""
        rng = random.Random(11 + 2 * labels + order)
        for index in range(8):
            game = load_game("textbook", tree=crowded_tree(rng, 4, 10 ** (1 + index % 3)))
            tree = game_tree(game, algorithm="alphabeta", pruned="values")
            source = to_tikz(
                tree,
                standalone=False,
                caption=False,
                compact=True,
                alpha_beta_labels=labels,
                order=order,
            )
            assert collisions(source) == [], index

    def test_chance_trees_meet_nothing(self) -> None:
        """*-minimax trees: a chance node's moves carry their chance (``0, p=1/2``), so its
        stubs are longer than the others; nothing meets there either (the stubs' labels once
        ran left over the chance node's letter)."""
        rng = random.Random(3)
        for index in range(8):
            game = load_game("textbook", tree="[" + random_chance_tree(rng, 4) + "]")
            tree = game_tree(game, algorithm=("star1", "star2", "expectiminimax")[index % 3])
            source = to_tikz(tree, standalone=False, caption=False, compact=True)
            assert any("p=" in box[1] for box in stub_labels(source))
            assert collisions(source) == [], index

    def test_top_levels_meet_nothing(self) -> None:
        """The top three plies of a depth-4 tree (--levels 3): each dotted "… 3 positions" box
        is one line, as wide as its words, apart from its neighbours (two lines of \\tiny
        overflowed the low box into the next)."""
        source = to_tikz(cut_view(deep(1), levels=3), standalone=False, compact=True)
        assert source.count("positions}") == 27 and r"\\positions" not in source
        assert collisions(source) == []

    def test_mcts_and_the_engine_are_refused(self) -> None:
        """Their nodes hold several lines each: compact has no room for them, and says so."""
        tree = mcts_tree(load_game("textbook"), iterations=5, seed=0)
        with pytest.raises(VizError, match="compact=True draws the teaching searches' trees"):
            to_tikz(tree, compact=True)

    def test_the_check_sees_a_collision(self) -> None:
        """A leaf drawn over its sibling, and an edge through a note, are caught."""
        source = to_tikz(deep(2), standalone=False, caption=False, compact=True)
        leaves = [line for line in source.splitlines() if line.startswith(r"\filldraw[fill=white")]
        moved = source.replace(leaves[1], leaves[0].replace("} (", "} (", 1), 1)
        assert collisions(moved) != []
        note = r"\node[anchor=west] at (0,-9) {x};" + "\n" + r"\draw[thin] (-50,-9) -- (50,-9);"
        assert collisions(source.replace(r"\end{tikzpicture}", note)) != []

    def test_cuts_are_listed_under_the_tree(self) -> None:
        """No room beside a listed node: every cut's inequality is in the caption's list, named
        by the node where it happened; the × stays on the first pruned move."""
        tree = deep(1)
        source = to_tikz(tree, standalone=False, compact=True)
        cuts = [e.cut for e in figure(tree).edges if e.cut]
        listed = re.search(r"cuts:\} (.*?)\}\\\\ ", source)
        assert cuts and listed
        assert listed.group(1).count(";") == len(cuts) - 1
        assert source.count(r"{$\times$}") == len(cuts)  # one mark on each cut edge


def pdflatex(folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    """pdflatex run once on ``folder/name``, stopping at the first error; its output kept."""
    return subprocess.run(
        [str(PDFLATEX), "-interaction=nonstopmode", "-halt-on-error", name],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def slide_measure(source: str, folder: Path) -> dict[str, float]:
    """Compile a Beamer slide with a probe that reports, in points, the picture's box, the
    frame's text area and the size of \\footnotesize there (the leaves' values)."""
    probe = (
        r"\typeout{MEASURE W=\the\wd\gamesolvertree\space "
        r"H=\the\dimexpr\ht\gamesolvertree+\dp\gamesolvertree\relax\space "
        r"TW=\the\textwidth\space TH=\the\textheight}"
        r"{\footnotesize\typeout{MEASURE FN=\csname f@size\endcsname pt}}"
    )
    (folder / "slide.tex").write_text(source.replace(r"\end{frame}", probe + r"\end{frame}"))
    run = pdflatex(folder, "slide.tex")
    assert run.returncode == 0, run.stdout[-2000:]
    return {k: float(v) for k, v in re.findall(r"\b(W|H|TW|TH|FN)=([\d.]+)pt", run.stdout)}


@needs_pdflatex
class TestOnTheFrame:
    @pytest.mark.parametrize("seed", [1, 4])
    def test_leaves_at_8_pt_on_a_16_9_frame(self, seed: int, tmp_path: Path) -> None:
        """The slide of a whole depth-4, branching-3 tree (with the frame's title, the legend
        and the cuts' list): scaled as the frame scales it (to its width, or to the share of
        its height the document names, whichever is reached first), a leaf's value is 8 pt or
        more (the normal layout gave 0.7 to 1.3 pt)."""
        source = to_tikz(deep(seed), compact=True)
        assert source.startswith(r"\documentclass[aspectratio=169]{beamer}")
        leaf = [s for s in source.split("% leaf node")[1:] if "fill=white" in s.split("\n")[1]]
        assert leaf and all(r"\node[font=\footnotesize" in s for s in leaf)
        share = int(re.findall(r"\\textheight\*(\d+)/100", source)[0]) / 100
        size = slide_measure(source, tmp_path)
        scale = min(size["TW"] / size["W"], share * size["TH"] / size["H"])
        assert size["FN"] * scale >= 8, (size, scale)
        assert abs(size["TW"] / size["TH"] - (160 - 8) / 90) < 0.05  # 16:9, 4 mm margins


@needs_pdflatex
class TestSteppingFrames:
    def test_every_overlay_is_one_size(self, tmp_path: Path) -> None:
        """The stepping slide of Figure 5.2's tree, compact and not: TeX's box of the picture
        is the same on every overlay, so the frame scales them all alike and the tree does not
        jump (the list of cuts growing under the tree, and what the last steps draw at the
        edges, made the box larger step by step: the root moved by up to 8 pt)."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        for compact in (False, True):
            source = to_tikz(tree, overlays=True, compact=compact)
            probe = r"\typeout{BOX \the\wd\gamesolvertree\space \the\ht\gamesolvertree}"
            (tmp_path / "steps.tex").write_text(
                source.replace("\n\\centering", "\n" + probe + "\\centering")
            )
            run = pdflatex(tmp_path, "steps.tex")
            boxes = re.findall(r"^BOX (.*)$", run.stdout, re.MULTILINE)
            assert len(boxes) == len(tree.steps) + 1 and len(set(boxes)) == 1, (compact, boxes)


class TestCommand:
    def test_compact_slide(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        out = tmp_path / "slide.tex"
        assert main(["tree", "textbook", "-a", "alphabeta", "--compact", "-o", str(out)]) == 0
        assert r"\documentclass[aspectratio=169]{beamer}" in out.read_text(encoding="utf-8")

    def test_a_stepping_slide_too_wide_suggests_compact(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--beamer on a whole depth-4, branching-3 tree says how small its leaves come out
        and what --compact gives (estimated from the layouts); Figure 5.2's tree, readable as it
        is, gets no note."""
        deep = json.dumps(full_tree(random.Random(1), 4))
        out = str(tmp_path / "steps.tex")
        argv = ["tree", "textbook", "-a", "alphabeta", "--beamer", "-o", out, "-f"]
        assert main([*argv[:2], "--tree", deep, *argv[2:]]) == 0
        note = re.search(
            r"about ([\d.]+) pt; --compact .* about ([\d.]+) pt", capsys.readouterr().err
        )
        assert note and float(note.group(1)) < 2 and float(note.group(2)) >= 8
        assert main(argv) == 0 and "--compact" not in capsys.readouterr().err

    @pytest.mark.parametrize(
        ("argv", "words"),
        [
            (["-o", "x.svg"], "--compact needs -o FILE.tex"),
            (["--exercise", "-o", "x.tex"], "an exercise sheet needs room to write in"),
            (["--boards", "-o", "x.tex"], "where boards do not fit"),
            (["-a", "mcts", "-o", "x.tex"], "-a mcts's nodes hold several lines each"),
        ],
    )
    def test_refused(
        self, argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
        assert main(["tree", "textbook", "-a", "alphabeta", "--compact", *argv]) != 0
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
