"""``gamesolver tree`` writes TikZ (-o FILE.tex, --tikz-body) and the interactive page."""

from __future__ import annotations

import re


class TestTreeExports:
    def test_tex_output_is_a_whole_document(self, run, tmp_path):
        """-o FILE.tex writes a LaTeX document with the TikZ picture."""
        out = tmp_path / "tree.tex"
        result = run("tree", "textbook", "-a", "alphabeta", "-o", str(out))
        assert result.code == 0, result.err
        text = out.read_text(encoding="utf-8")
        assert text.startswith("\\documentclass") and "\\begin{tikzpicture}" in text

    def test_tikz_body_is_the_picture_alone(self, run, tmp_path):
        """--tikz-body writes only the tikzpicture, to \\input into Beamer."""
        out = tmp_path / "body.tex"
        assert run("tree", "textbook", "-o", str(out), "--tikz-body").code == 0
        text = out.read_text(encoding="utf-8")
        assert "\\documentclass" not in text and "\\begin{tikzpicture}" in text

    def test_tikz_body_needs_a_tex_output(self, run, tmp_path):
        """--tikz-body with another format is a usage error that says what it needs."""
        result = run("tree", "textbook", "-o", str(tmp_path / "t.svg"), "--tikz-body")
        assert result.code == 2 and "needs -o FILE.tex" in result.err

    def test_interactive_page_is_editable_for_a_textbook_tree(self, run, tmp_path):
        """--interactive FILE.html alone is a destination; a textbook tree's page is editable."""
        out = tmp_path / "page.html"
        result = run(
            "tree", "textbook", "--tree", "[[5],[[[3,1],[4,2]],1]]", "--interactive", str(out)
        )
        assert result.code == 0, result.err
        assert '"editable": true' in out.read_text(encoding="utf-8")

    def test_interactive_needs_an_html_name(self, run, tmp_path):
        """--interactive with a name not ending in .html is refused."""
        result = run("tree", "textbook", "--interactive", str(tmp_path / "page.svg"))
        assert result.code == 2 and "--interactive" in result.err

    def test_exercise_as_tikz_writes_the_sheet_and_the_key(self, run, tmp_path):
        """--exercise -o ex.tex writes ex.tex (the leaves' values only) and ex-key.tex."""
        out = tmp_path / "ex.tex"
        result = run("tree", "textbook", "-a", "alphabeta", "--exercise", "-o", str(out))
        assert result.code == 0, result.err
        assert "ex-key.tex (the answers)" in result.out
        sheet = out.read_text(encoding="utf-8")
        key = (tmp_path / "ex-key.tex").read_text(encoding="utf-8")
        leaves = sorted(int(v) for v in re.findall(r"\\boldmath \$\{(-?\d+)\}\$", sheet))
        assert leaves == sorted([3, 12, 8, 2, 4, 6, 14, 5, 2])  # every leaf, pruned ones too
        assert r"{\leq}{2}" not in sheet and "text=cut" not in sheet and "very thick" not in sheet
        assert r"{\leq}{2}" in key and "text=cut" in key and "very thick" in key
        assert sheet.startswith("\\documentclass") and key.startswith("\\documentclass")

    def test_exercise_tikz_bodies(self, run, tmp_path):
        """--exercise --tikz-body writes both files as tikzpictures alone, for \\input."""
        out = tmp_path / "ex.tex"
        result = run("tree", "textbook", "--exercise", "--tikz-body", "-o", str(out))
        assert result.code == 0, result.err
        for path in (out, tmp_path / "ex-key.tex"):
            text = path.read_text(encoding="utf-8")
            assert "\\documentclass" not in text and "\\begin{tikzpicture}" in text

    def test_exercise_key_that_exists_needs_force(self, run, tmp_path):
        """An existing key is refused before anything is written, and replaced with --force."""
        (tmp_path / "ex-key.tex").write_text("mine", encoding="utf-8")
        args = ("tree", "textbook", "--exercise", "-o", str(tmp_path / "ex.tex"))
        refused = run(*args)
        assert refused.code == 2 and "the answer key" in refused.err and "--force" in refused.err
        assert not (tmp_path / "ex.tex").exists()
        assert run(*args, "--force").code == 0
        assert "tikzpicture" in (tmp_path / "ex-key.tex").read_text(encoding="utf-8")

    def test_existing_outputs_need_force(self, run, tmp_path):
        """A page or .tex that exists is refused before the search, and replaced with --force."""
        for flag, name in (("--interactive", "page.html"), ("-o", "tree.tex")):
            out = tmp_path / name
            out.write_text("old", encoding="utf-8")
            refused = run("tree", "textbook", flag, str(out))
            assert refused.code != 0
            assert "--force" in refused.err
            assert out.read_text(encoding="utf-8") == "old"
            assert run("tree", "textbook", flag, str(out), "--force").code == 0
            assert out.read_text(encoding="utf-8") != "old"


class TestEngineTree:
    def test_engine_tree_is_drawn_with_its_table_hits(self, run, tmp_path):
        """-a engine draws the engine's last iteration; --json names its table hits by flag."""
        out = tmp_path / "engine.dot"
        result = run(
            "tree",
            "tictactoe",
            "--position",
            "o../x.x/ox.",
            "-a",
            "engine",
            "-o",
            str(out),
            "--json",
        )
        assert result.code == 0, result.err
        facts = result.json()
        assert facts["value"] == -1 and set(facts["table_hits"]) == {"exact", "lower", "upper"}
        assert out.read_text(encoding="utf-8").count('shape="cylinder"') == sum(
            facts["table_hits"].values()
        )

    def test_engine_from_a_finished_game_says_so(self, run, tmp_path):
        """A won position is drawn as its one leaf, and the command says nothing was searched."""
        out = tmp_path / "over.dot"
        result = run("tree", "tictactoe", "-p", "xxx/oo./...", "-a", "engine", "-o", str(out))
        assert result.code == 0, result.err
        assert "value 1; the game is over at the root: nothing searched" in result.out
        assert out.exists()

    def test_engine_refuses_what_it_cannot_draw(self, run, tmp_path):
        """Options of the teaching trees are refused with -a engine, naming them."""
        out = str(tmp_path / "x.html")
        for flag in (("--collapse",), ("--view", "negamax"), ("--boards",)):
            result = run("tree", "tictactoe", "-a", "engine", "--html", out, *flag)
            assert result.code == 2 and flag[0] in result.err, result.err
        result = run("tree", "textbook", "--frames", str(tmp_path / "f"), "--frame-format", "tex")
        assert result.code == 2 and "-a engine" in result.err and "--beamer" in result.err

    def test_every_iteration_in_tikz_and_the_pages(self, run, tmp_path):
        """-a engine: a TikZ document per iteration (--frame-format tex), the step-by-step and
        interactive pages of the iterations, and -o FILE.tex the last iteration, at once."""
        args = ("tree", "tictactoe", "-p", "xo./.xo/.x.", "-a", "engine")
        html, page, tex = (tmp_path / n for n in ("steps.html", "page.html", "last.tex"))
        result = run(
            *args,
            *("--frames", str(tmp_path / "it"), "--frame-format", "tex"),
            *("--interactive", str(page), "-o", str(tex), "--json"),
        )
        assert result.code == 0, result.err
        assert [s["written"].rsplit("/", 1)[1] for s in result.json()["iterations"]] == [
            f"iteration-0{k}.tex" for k in (1, 2, 3, 4)
        ]
        assert "iteration 4 of 4" in tex.read_text(encoding="utf-8")
        assert "iteration 4 / 4" in page.read_text(encoding="utf-8")
        result = run(*args, "--html", str(html))
        assert result.code == 0, result.err
        assert (
            f"wrote {html}" in result.out
            and html.read_text(encoding="utf-8").count('class="picture"') == 4
        )

    def test_every_iteration_with_frames(self, run, tmp_path):
        """-a engine --frames DIR: iterative deepening step by step, a PNG per iteration, and
        --json says each iteration's depth, best move and the previous best tried first."""
        out = tmp_path / "iterations"
        args = ("tree", "tictactoe", "-p", "xo./.xo/.x.", "-a", "engine", "--frames", str(out))
        result = run(*args, "--frame-format", "png", "--json")
        assert result.code == 0, result.err
        steps = result.json()["iterations"]
        assert [(s["depth"], s["best_move"], s["previous_best"]) for s in steps] == [
            (1, "6", None),
            (2, "8", "6"),
            (3, "8", "8"),
            (4, "8", "8"),
        ]
        assert sorted(p.name for p in out.iterdir()) == [
            f"iteration-0{k}.png" for k in (1, 2, 3, 4)
        ]
        assert run(*args, "--boards").code == 2

    def test_engine_too_large_names_the_flags(self, run, tmp_path):
        """The empty board's engine tree is refused, naming --depth and --max-nodes."""
        result = run("tree", "tictactoe", "-a", "engine", "-o", str(tmp_path / "e.svg"))
        assert result.code == 1 and "--max-nodes" in result.err and "--depth" in result.err


class TestFramesFromTheCommandLine:
    def test_png_frames_as_documented(self, run, tmp_path):
        """The command in docs/teaching.md writes one PNG per step (it crashed on 'large')."""
        out = tmp_path / "frames"
        result = run("tree", "textbook", "--frames", str(out), "--frame-format", "png")
        assert result.code == 0, result.err
        files = sorted(out.iterdir())
        assert len(files) == 14 and all(p.read_bytes().startswith(b"\x89PNG") for p in files)

    def test_png_frames_with_large_and_alpha_beta_labels(self, run, tmp_path):
        """--large with PNG frames is a layout choice, not a crash."""
        out = tmp_path / "frames"
        result = run(
            "tree", "textbook", "-a", "alphabeta", "--alpha-beta-labels", "--large",
            "--frames", str(out), "--frame-format", "png",
        )  # fmt: skip
        assert result.code == 0, result.err
        assert len(list(out.glob("frame-*.png"))) == 13


class TestTikzForSlides:
    def test_alpha_beta_labels_reach_tikz(self, run, tmp_path):
        """--alpha-beta-labels writes each window and range in TikZ too (it was dropped)."""
        out = tmp_path / "t.tex"
        args = ("tree", "textbook", "-a", "alphabeta", "--alpha-beta-labels", "-o", str(out))
        assert run(*args).code == 0
        text = out.read_text(encoding="utf-8")
        assert r"[3, 3]" in text and r"$\alpha$=3 $\beta$=+$\infty$" in text

    def test_body_is_the_tree_alone(self, run, tmp_path):
        """--tikz-body draws no title, summary or legend: a slide has its own."""
        out = tmp_path / "body.tex"
        assert run("tree", "textbook", "-a", "alphabeta", "-o", str(out), "--tikz-body").code == 0
        text = out.read_text(encoding="utf-8")
        assert "anchor=north west" not in text and "nodes searched" not in text

    def test_pieces_are_chosen_one_by_one(self, run, tmp_path):
        """--tikz-pieces legend writes the legend and nothing else under the tree."""
        out = tmp_path / "body.tex"
        args = ("tree", "textbook", "-o", str(out), "--tikz-body", "--tikz-pieces", "legend")
        assert run(*args).code == 0
        text = out.read_text(encoding="utf-8")
        assert "MAX takes the largest value" in text
        assert "Minimax on" not in text and "nodes searched" not in text

    def test_unknown_piece_is_refused(self, run, tmp_path):
        """A piece that does not exist is named, with the choices."""
        result = run("tree", "textbook", "-o", str(tmp_path / "t.tex"), "--tikz-pieces", "logo")
        assert result.code == 2 and "choose from title, summary, legend" in result.err

    def test_empty_title_removes_the_title(self, run, tmp_path):
        """--title '' leaves the title out (it fell back to the default title)."""
        out = tmp_path / "t.tex"
        assert run("tree", "textbook", "-o", str(out), "--title", "").code == 0
        text = out.read_text(encoding="utf-8")
        assert "Minimax on textbook" not in text and "nodes searched" in text

    def test_beamer_overlays_follow_the_steps(self, run, tmp_path):
        """--beamer writes one frame whose overlays number the steps of the stepper, plus one."""
        out = tmp_path / "slides.tex"
        args = ("tree", "textbook", "-a", "alphabeta", "--beamer", "-o", str(out))
        assert run(*args).code == 0
        text = out.read_text(encoding="utf-8")
        assert text.startswith("\\documentclass[aspectratio=169]{beamer}")
        overlays = {int(n) for n in re.findall(r"\\only<(\d+)", text)}
        assert max(overlays) == 13  # the stepper's frames 0 (before the search) to 12

    def test_beamer_needs_a_tex_output(self, run, tmp_path):
        """--beamer with an SVG output is a usage error naming what it needs."""
        result = run("tree", "textbook", "-o", str(tmp_path / "t.svg"), "--beamer")
        assert result.code == 2 and "--beamer needs -o FILE.tex" in result.err


class TestRandomExerciseSheets:
    def test_random_exercises_write_a_sheet_and_its_key(self, run, tmp_path) -> None:
        """--random-exercises N -o sheet.tex writes the sheet and the key (and PDFs)."""
        out = tmp_path / "sheet.tex"
        result = run(
            "tree", "textbook", "--random-exercises", "2", "--seed", "4", "--branching", "2,2",
            "--values=-5,15", "-o", str(out),
        )  # fmt: skip
        assert result.code == 0, result.err
        assert out.exists() and (tmp_path / "sheet-key.tex").exists()
        assert out.read_text(encoding="utf-8").count(r"\subsection*{Exercise") == 2

    def test_only_textbook_trees(self, run, tmp_path) -> None:
        """Another game is refused, naming the command that works."""
        result = run("tree", "tictactoe", "--random-exercises", "2", "-o", str(tmp_path / "s.tex"))
        assert result.code == 2 and "gamesolver tree textbook --random-exercises 2" in result.err
