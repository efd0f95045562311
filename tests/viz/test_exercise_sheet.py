"""Exercise sheets a class can fill in by hand: blanks wide enough when printed on A4, an
instruction that asks only for what the sheet has room for, and a key that names every node."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games import load_game
from tests.viz.svg import SVG, needs_dot
from tests.viz.test_parity import random_tree
from viz import game_tree, to_svg
from viz.tikz import to_tikz

pytestmark = needs_dot

A4_TEXT_MM = 170.0
"""The width an A4 page leaves for a picture (210 mm less two 20 mm margins)."""
HANDWRITING_MM = 12.0
"""The least room a handwritten −∞ takes."""
DEEP = [[[[3, 17], [2, 12]], [[15], [25, 0]]], [[[2, 5], [3]], [[2, 14]]]]


def printed_scale(svg: str) -> float:
    """Millimetres on paper per SVG point, the picture shrunk (never grown) to fit A4's width."""
    width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
    natural_mm = width * 25.4 / 72
    return min(1.0, A4_TEXT_MM / natural_mm) * 25.4 / 72


def blanks(svg: str) -> list[float]:
    """The length in points of every underlined blank (a one-segment polyline) in a node."""
    out = []
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if not re.fullmatch(r"n\d+", group.get("id") or ""):
            continue
        for line in group.iter(f"{SVG}polyline"):
            xs = [float(p.split(",")[0]) for p in (line.get("points") or "").split()]
            out.append(max(xs) - min(xs))
    return out


def node_names(svg: str) -> set[str]:
    """The bold single capital letters written in or beside the nodes (AIMA's names)."""
    names = set()
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if re.fullmatch(r"n\d+", group.get("id") or ""):
            for text in group.iter(f"{SVG}text"):
                words = "".join(text.itertext()).strip()
                if re.fullmatch(r"[A-Z]", words) and text.get("font-weight") == "bold":
                    names.add(words)
    return names


class TestRoomToWrite:
    def test_blanks_hold_a_handwritten_minus_infinity_on_a4(self) -> None:
        """Every value, range and window blank is at least 12 mm wide once printed on A4."""
        rng = random.Random(17)
        trees = [[[3, 12, 8], [2, 4, 6], [14, 5, 2]]] + [random_tree(rng, 3) for _ in range(30)]
        sheets = 0
        for shape in trees:
            game = load_game("textbook", tree=shape)
            tree = game_tree(game, algorithm="alphabeta", pruned="values")
            svg = to_svg(tree, exercise=True, alpha_beta_labels=True)
            found = blanks(svg)
            if not found:
                continue  # no room on A4: the next test
            inner = sum(1 for _, d in tree.graph.nodes(data=True) if not d["leaf"])
            assert len(found) == 5 * inner  # value, two for the range, two for the window
            assert min(found) * printed_scale(svg) >= HANDWRITING_MM, shape
            sheets += 1
        assert sheets >= 10  # many small trees have room

    def test_a_tree_too_wide_for_blanks_asks_for_values_only(self) -> None:
        """A depth-4 tree has no room on A4 for windows: none are drawn or asked for."""
        tree = game_tree(load_game("textbook", tree=DEEP), algorithm="alphabeta", pruned="values")
        svg = to_svg(tree, exercise=True, alpha_beta_labels=True)
        assert blanks(svg) == [] and "window" not in svg
        assert "fill in the value of every inner node" in svg

    def test_triangles_hold_a_handwritten_value_on_a4(self) -> None:
        """Without labels the value is written in the triangle: 12 mm wide at mid-height."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta", pruned="values")
        svg = to_svg(tree, exercise=True)
        for group in ET.fromstring(svg).iter(f"{SVG}g"):
            if "min" in (group.get("class") or "").split():
                polygon = next(group.iter(f"{SVG}polygon"))
                xs = [float(p.split(",")[0]) for p in (polygon.get("points") or "").split()]
                assert (max(xs) - min(xs)) / 2 * printed_scale(svg) >= HANDWRITING_MM

    def test_the_instruction_wraps_instead_of_widening_the_sheet(self) -> None:
        """The instruction's lines are short: AIMA's 9-leaf sheet stays within A4 at 1:1 size."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta", pruned="values")
        svg = to_svg(tree, exercise=True, alpha_beta_labels=True)
        width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
        assert width * 96 / 72 < 1000  # it was 2,329 px
        assert width * 25.4 / 72 < 1.25 * A4_TEXT_MM


class TestAskOnlyForWhatFits:
    def test_without_labels_the_sheet_asks_for_values_and_cuts_only(self) -> None:
        """No window or range is asked for when the sheet has no blanks for them."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta", pruned="values")
        svg = to_svg(tree, exercise=True)
        assert "window" not in svg and "[lo, hi]" not in svg and blanks(svg) == []
        assert "fill in the value of every inner node" in svg

    def test_with_labels_it_asks_for_windows_and_ranges(self) -> None:
        """With alpha-beta labels the sheet has the blanks and asks for them."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta", pruned="values")
        svg = to_svg(tree, exercise=True, alpha_beta_labels=True)
        text = " ".join(re.findall(r">([^<>]+)</text>", svg))
        assert "its window (α, β) on entry and its range [lo, hi]" in text
        assert len(blanks(svg)) == 5 * 4


class TestKeyNamesEveryNode:
    def test_key_names_the_pruned_nodes_too(self) -> None:
        """G, K and N (inside cut subtrees) are named on the key as on the sheet."""
        game = load_game("textbook", tree=DEEP, labels="aima")
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        for labels in (False, True):
            sheet = node_names(to_svg(tree, exercise=True, alpha_beta_labels=labels))
            key = node_names(to_svg(tree, alpha_beta_labels=labels))
            assert {"G", "K", "N"} <= sheet
            assert sheet == key == {d["name"] for _, d in tree.graph.nodes(data=True) if d["name"]}


@pytest.mark.skipif(
    shutil.which("pdflatex") is None or shutil.which("pdfinfo") is None,
    reason="pdflatex and pdfinfo are needed to measure the TikZ sheet",
)
class TestTikzSheetOnA4:
    def test_blanks_hold_a_handwritten_minus_infinity_on_a4(self, tmp_path: Path) -> None:
        """The TikZ sheet's page, shrunk to A4's width, keeps its 14 mm blanks 12 mm wide."""
        game = load_game("textbook", labels="aima")
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        source = to_tikz(tree, exercise=True, alpha_beta_labels=True)
        assert source.count(r"\rule{1.4cm}") == 5 * 4
        (tmp_path / "sheet.tex").write_text(source, encoding="utf-8")
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"],
            cwd=tmp_path,
            capture_output=True,
            check=True,
            timeout=120,
        )
        info = subprocess.run(
            ["pdfinfo", "sheet.pdf"], cwd=tmp_path, capture_output=True, text=True, check=True
        ).stdout
        width_pt = float(re.search(r"Page size:\s+([\d.]+) x", info).group(1))  # type: ignore[union-attr]
        width_mm = width_pt * 25.4 / 72
        assert 14.0 * min(1.0, A4_TEXT_MM / width_mm) >= HANDWRITING_MM, width_mm
