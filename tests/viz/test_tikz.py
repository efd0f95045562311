"""TikZ export: the Graphviz picture's annotations in LaTeX, and it compiles with pdflatex."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games import load_game
from tests.tiny_games import TakeAway
from viz import GameTree, game_tree
from viz.tikz import latex_text, to_tikz, write_tikz

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
DEEP = [[5], [[[3, 1], [4, 2]], 1]]  # D fails low: its value 4 is an upper bound
PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(
    PDFLATEX is None,
    reason="pdflatex is not installed (Debian: apt-get install --no-install-recommends "
    "texlive-latex-base texlive-pictures; `make setup` does it as root)",
)


def random_tree(rng: random.Random, depth: int) -> Any:
    if depth == 0 or (depth < 3 and rng.random() < 0.2):
        return rng.randint(-9, 9)
    return [random_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def blocks(source: str) -> dict[int, str]:
    """Each node's drawing commands, keyed by node id (from the ``% ROLE node N`` comments)."""
    out: dict[int, str] = {}
    for chunk in re.split(r"^(?=% (?:MAX|MIN|leaf) node )", source, flags=re.M)[1:]:
        head = re.match(r"% \S+ node (\d+)", chunk)
        assert head is not None
        out[int(head.group(1))] = chunk
    return out


def drawn_value(block: str) -> str:
    """The math-mode value written in a node's block ('' for none)."""
    found = re.search(r"\$(\{\\[gl]eq\})?\{(-?[\d.]+|[+-]?\\infty)\}\$", block)
    return found.group(0) if found else ""


class TestAnnotations:
    def test_bound_sign_follows_the_bound_kind_on_random_trees(self) -> None:
        """Every visited node shows ≥ exactly on a lower bound and ≤ exactly on an upper one."""
        rng = random.Random(7)
        for _ in range(150):
            tree = game_tree(load_game("textbook", tree=random_tree(rng, 4)), algorithm="alphabeta")
            drawn = blocks(to_tikz(tree))
            for node, data in tree.graph.nodes(data=True):
                if data["kind"] != "node":
                    continue
                value = drawn_value(drawn[node])
                kind = data["bound"]
                assert ("\\geq" in value) == (kind == "lower"), (node, value, kind)
                assert ("\\leq" in value) == (kind == "upper"), (node, value, kind)
                number = float(value.strip("$}").split("{")[-1])
                assert number == data["value"]

    def test_players_have_their_shapes(self) -> None:
        """MAX nodes are up-triangles, MIN down-triangles, leaves boxes."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK))
        drawn = blocks(to_tikz(tree))
        for node, data in tree.graph.nodes(data=True):
            corners = drawn[node].split("cycle")[0].count("--")
            assert corners == (4 if data["leaf"] else 3)
            if data["role"] == "MAX" and not data["leaf"]:
                assert drawn[node].startswith("% MAX node")

    def test_principal_variation_is_bold_and_pruned_is_grey(self) -> None:
        """Principal edges are very thick; pruned edges dashed grey, the cut written in red."""
        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        source = to_tikz(tree)
        edges = [
            line for line in source.splitlines() if line.startswith(r"\draw[") and "--" in line
        ]
        edges = [e for e in edges if "cycle" not in e]
        principal = sum(1 for _, _, d in tree.graph.edges(data=True) if d["principal"])
        assert sum("very thick" in e for e in edges) == principal == 2
        assert sum("dashed, draw=pruned" in e for e in edges) == tree.pruned == 2
        assert source.count(r"{$\times$}") == 1  # the mark on the first pruned move
        assert source.count(r"{\color{cut}v=2 $\leq$ $\alpha$=3}") == 1  # the cut, beside C

    def test_node_letters_stand_beside_their_nodes(self) -> None:
        """AIMA's letters A, B, C, D are written in bold next to the inner nodes."""
        source = to_tikz(game_tree(load_game("textbook", tree=TEXTBOOK)))
        letters = re.findall(r"\\bfseries, anchor=east\] at \([^)]*\) \{([A-D])\}", source)
        assert letters == list("ABCD")

    def test_body_is_only_the_picture(self) -> None:
        """standalone=False gives the tikzpicture alone, to \\input into Beamer."""
        body = to_tikz(game_tree(load_game("textbook")), standalone=False)
        assert "\\documentclass" not in body and "\\begin{document}" not in body
        assert body.rstrip().endswith("\\end{tikzpicture}")

    def test_special_characters_are_escaped(self) -> None:
        """Text with LaTeX specials and the diagrams' symbols typesets literally."""
        assert latex_text("a_b & 100% #1 {x}") == r"a\_b \& 100\% \#1 \{x\}"
        assert latex_text("≥ ≤ ∞") == r"$\geq$ $\leq$ $\infty$"

    def test_boards_need_render(self) -> None:
        """Boards on a game that cannot render are refused with a reason."""
        from solver.game import CapabilityError

        with pytest.raises(CapabilityError, match="render"):
            to_tikz(game_tree(TakeAway(3)), boards=True)


class TestExercise:
    def test_only_leaves_show_values_on_random_trees(self) -> None:
        """An exercise writes every leaf's value and no inner node's, on random alpha-beta trees."""
        rng = random.Random(11)
        for _ in range(100):
            game = load_game("textbook", tree=random_tree(rng, 4))
            tree = game_tree(game, algorithm="alphabeta", pruned="values")
            drawn = blocks(to_tikz(tree, exercise=True))
            for node, data in tree.graph.nodes(data=True):
                value = drawn_value(drawn[node])
                if data["leaf"]:
                    assert value == f"${{{data['value']}}}$", (node, value)
                else:
                    assert value == "", (node, value)

    def test_answers_are_hidden(self) -> None:
        """No bound, cut, pruned grey or bold principal path: the key has them, the sheet not."""
        tree = game_tree(
            load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta", pruned="values"
        )
        sheet, key = to_tikz(tree, exercise=True), to_tikz(tree)
        picture = sheet.split(r"\node[anchor=north west")[0]  # the tree, without its caption
        for answer in ("very thick", "dashed", "draw=pruned", "text=cut", r"{\leq}"):
            assert answer not in picture, answer
            assert answer in key, answer
        assert "draw=optimal" not in picture
        assert r"\textbf{Exercise: " in sheet and "fill in the value of every inner node" in sheet

    def test_pruned_nodes_look_like_the_others(self) -> None:
        """The cut subtree is drawn as ordinary nodes, so the student must find the cuts."""
        tree = game_tree(
            load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta", pruned="values"
        )
        drawn = blocks(to_tikz(tree, exercise=True))
        for node, data in tree.graph.nodes(data=True):
            if data["kind"] == "pruned":
                assert r"\filldraw[fill=white, draw=black, thin]" in drawn[node]

    def test_a_leaf_pruned_without_its_value_is_refused(self) -> None:
        """A pruned leaf with no value cannot be shown: refused, saying to pass pruned='values'."""
        from viz.errors import VizError

        tree = game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")
        with pytest.raises(VizError, match="pruned='values'"):
            to_tikz(tree, exercise=True)

    def test_a_collapsed_tree_is_refused_by_both_writers(self) -> None:
        """Summarised subtrees hide leaves: TikZ and Graphviz both refuse, naming --collapse."""
        from viz.dot import to_dot
        from viz.errors import VizError

        ttt = load_game("tictactoe")
        state = ttt.parse_state("xox/.o./...")
        tree = game_tree(ttt, state, algorithm="alphabeta", collapse=True, pruned="values")
        for draw in (to_tikz, to_dot):
            with pytest.raises(VizError, match="without --collapse"):
                draw(tree, exercise=True)


def compile_tex(source: str, folder: Path, name: str) -> Path:
    tex = folder / f"{name}.tex"
    tex.write_text(source, encoding="utf-8")
    run = subprocess.run(
        [str(PDFLATEX), "-interaction=nonstopmode", "-halt-on-error", tex.name],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, log[-3000:]
    pdf = folder / f"{name}.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    return pdf


@needs_pdflatex
class TestCompiles:
    @pytest.fixture(scope="class")
    @classmethod
    def trees(cls) -> dict[str, GameTree]:
        ttt = load_game("tictactoe")
        ayo = load_game("ayoayo")
        return {
            "deep": game_tree(load_game("textbook", tree=DEEP), algorithm="alphabeta"),
            "boards": game_tree(ttt, ttt.parse_state("xox/xo./o.x"), algorithm="alphabeta"),
            "collapsed": game_tree(
                ttt, ttt.parse_state("xox/.o./..."), algorithm="alphabeta", collapse=True
            ),
            "ayoayo_boards": game_tree(
                ayo,
                ayo.parse_state("[[2,6,6,1,1,7],[0,2,7,2,7,7]]"),
                depth=1,
                algorithm="alphabeta",
                leaf_label=lambda s: str(list(ayo.score(s))),
            ),
        }

    def test_standalone_documents_compile(self, trees: dict[str, GameTree], tmp_path: Path) -> None:
        """Each standalone document compiles to a one-page PDF cropped to the picture."""
        for name, tree in trees.items():
            path = write_tikz(tree, tmp_path / f"{name}.tex", boards="boards" in name)
            pdf = compile_tex(path.read_text(encoding="utf-8"), tmp_path, name)
            if shutil.which("pdfinfo"):
                info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True)
                assert re.search(r"^Pages:\s+1$", info.stdout, flags=re.M), info.stdout

    def test_body_inputs_into_beamer(self, trees: dict[str, GameTree], tmp_path: Path) -> None:
        """The picture alone \\input into a Beamer frame (or an article) compiles."""
        body = to_tikz(trees["deep"], standalone=False)
        (tmp_path / "tree.tex").write_text(body, encoding="utf-8")
        has_beamer = subprocess.run(
            ["kpsewhich", "beamer.cls"], capture_output=True, text=True
        ).stdout.strip()
        if has_beamer:
            document = (
                "\\documentclass{beamer}\n\\usepackage{tikz}\n\\begin{document}\n"
                "\\begin{frame}{Alpha-beta}\n\\centering\n"
                "\\resizebox{!}{0.8\\textheight}{\\input{tree.tex}}\n\\end{frame}\n\\end{document}\n"
            )
        else:
            document = (
                "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
                "\\input{tree.tex}\n\\end{document}\n"
            )
        compile_tex(document, tmp_path, "slides")

    def test_exercise_and_key_compile(self, tmp_path: Path) -> None:
        r"""The sheet and its key compile, standalone and as bodies \input into one document."""
        game = load_game("textbook", tree=TEXTBOOK, labels="aima")
        tree = game_tree(game, algorithm="alphabeta", pruned="values")
        for exercise, name in ((True, "sheet"), (False, "key")):
            compile_tex(to_tikz(tree, exercise=exercise), tmp_path, name)
            body = to_tikz(tree, exercise=exercise, standalone=False)
            (tmp_path / f"{name}-body.tex").write_text(body, encoding="utf-8")
        document = (
            "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
            "\\input{sheet-body.tex}\n\n\\input{key-body.tex}\n\\end{document}\n"
        )
        compile_tex(document, tmp_path, "handout")


@needs_pdflatex
class TestBeamerOverlays:
    def test_one_page_per_step_of_the_stepper(self, tmp_path: Path) -> None:
        """The Beamer document compiles to one page per stepper frame, highlight and all."""
        if not subprocess.run(["kpsewhich", "beamer.cls"], capture_output=True).stdout.strip():
            pytest.skip("Beamer is not installed (texlive-latex-recommended)")
        tree = game_tree(load_game("textbook", labels="aima"), algorithm="alphabeta")
        source = to_tikz(tree, alpha_beta_labels=True, overlays=True)
        assert source.count(r"\filldraw[fill=current") == len(tree.steps) - 1
        pdf = compile_tex(source, tmp_path, "slides")
        compile_tex(source, tmp_path, "slides")  # Beamer numbers overlays on the second run
        if shutil.which("pdfinfo"):
            info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True)
            assert re.search(rf"^Pages:\s+{len(tree.steps) + 1}$", info.stdout, flags=re.M)
