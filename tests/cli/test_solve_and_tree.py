"""``gamesolver solve`` and ``gamesolver tree``."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET

import pytest

from games import load_game
from solver.minimax import alphabeta, minimax
from solver.solve import solve


class TestSolve:
    def test_json_figures_match_the_solver(self, run):
        """--json reports the solver's own counts and value for tic-tac-toe."""
        counts = solve(load_game("tictactoe")).counts
        data = run("solve", "tictactoe", "--json").json()
        assert (data["states"], data["terminal"]) == (counts.states, counts.terminal)
        assert (data["wins"], data["draws"], data["losses"]) == (
            counts.wins,
            counts.draws,
            counts.losses,
        )
        assert data["value"] == counts.value
        assert data["outcome"].startswith("draw")

    def test_symmetric_counts_one_state_per_class(self, run):
        """--symmetric: tic-tac-toe's 765 classes instead of 5,478 states, the same value."""
        data = run("solve", "tictactoe-bitboard", "--symmetric", "--json").json()
        assert (data["states"], data["value"]) == (765, 0)
        out = run("solve", "tictactoe-bitboard", "--symmetric").out
        assert "reachable states (one per symmetry class)" in out and "765" in out

    def test_text_names_value_and_counts(self, run):
        """The text report says who wins and lists the state counts with thousands separators."""
        counts = solve(load_game("tictactoe")).counts
        out = run("solve", "tictactoe").out
        assert "value: 0 (draw" in out
        assert f"{counts.states:,}" in out and f"{counts.terminal:,}" in out
        assert "solved in" in out

    def test_from_a_position(self, run):
        """--position solves the game below that position only."""
        game = load_game("tictactoe")
        state = game.parse_state("x.o/.x./...")
        data = run("solve", "tictactoe", "-p", "x.o/.x./...", "--json").json()
        assert data["states"] == len(solve(game, state))
        assert data["value"] == minimax(game, state).value

    @pytest.mark.parametrize("suffix", ["csv", "json"])
    def test_out_writes_one_record_per_state(self, run, tmp_path, suffix):
        """--out writes the whole table in the format its suffix names."""
        path = tmp_path / f"table.{suffix}"
        data = run("solve", "textbook", "--out", str(path), "--json").json()
        if suffix == "csv":
            with path.open(newline="") as handle:
                records = list(csv.DictReader(handle))
        else:
            records = json.loads(path.read_text())["records"]
        assert len(records) == data["states"]

    def test_bad_out_suffix(self, run, tmp_path):
        """An --out file that is neither .json nor .csv is refused before solving."""
        result = run("solve", "tictactoe", "--out", str(tmp_path / "t.txt"))
        assert result.code == 2
        assert ".json or .csv" in result.err
        assert not (tmp_path / "t.txt").exists()

    def test_too_many_states(self, run):
        """Exceeding --max-states is a game error that says how to raise the limit."""
        result = run("solve", "tictactoe", "--max-states", "100")
        assert result.code == 1
        assert "100" in result.err and "--max-states" in result.err


class TestTree:
    def test_svg_of_the_textbook_alpha_beta_tree(self, run, tmp_path):
        """-o FILE.svg writes an SVG; the summary gives alpha-beta's value and pruned count."""
        path = tmp_path / "ab.svg"
        game = load_game("textbook")
        expected = alphabeta(game)
        result = run("tree", "textbook", "-a", "alphabeta", "-o", str(path), "--json")
        data = result.json()
        assert data["value"] == expected.value
        assert data["nodes_searched"] == expected.stats.nodes
        assert data["pruned"] == 2  # AIMA Figure 5.5: leaves 4 and 6 after the 2
        ET.parse(path)  # well-formed SVG

    def test_json_graph_output(self, run, tmp_path):
        """-o FILE.json writes the tree as node-link JSON with every drawn node."""
        path = tmp_path / "tree.json"
        summary = run("tree", "textbook", "-o", str(path), "--json").json()
        graph = json.loads(path.read_text())
        assert len(graph["nodes"]) == summary["nodes_drawn"]

    def test_text_summary(self, run, tmp_path):
        """The text summary names value, best move, PV and the file written."""
        path = tmp_path / "t.dot"
        out = run("tree", "tictactoe", "-p", "xo./.x./o..", "-d", "2", "-o", str(path)).out
        assert "value" in out and "principal variation" in out
        assert f"wrote {path}" in out
        assert path.read_text().lstrip().startswith(("digraph", "strict digraph"))

    @pytest.mark.parametrize(
        ("args", "line", "caption"),
        [
            (
                ["textbook", "--tree", "[1, {1: 1}]", "-a", "star2"],
                "4 nodes drawn, 3 searched, 1 move pruned, 1 node saved versus expectiminimax's 4",
                "3 nodes searched; 1 move pruned, 1 node saved versus expectiminimax's 4",
            ),
            (
                ["textbook", "-a", "alphabeta"],
                "13 nodes drawn, 11 searched, 2 moves pruned, 2 nodes saved versus minimax's 13",
                "11 nodes searched; 2 moves pruned, 2 nodes saved versus minimax's 13",
            ),
            (
                ["tictactoe", "-p", "xxx/oo./..."],
                "1 node drawn, 1 searched, 0 moves pruned",
                "value 1; 1 node searched",
            ),
        ],
    )
    def test_counts_are_singular_or_plural(self, run, tmp_path, args, line, caption):
        """One node or move is '1 node', '1 move'; other counts are plural, in the printed
        summary and in the figure's caption alike."""
        path = tmp_path / "t.dot"
        out = run("tree", *args, "-o", str(path)).out
        assert line in out.splitlines()
        assert caption in path.read_text().replace("&#x27;", "'")

    def test_node_limit_names_the_flags_that_shrink_it(self, run, tmp_path):
        """Too big a tree exits 1 and names --depth, --collapse and --max-nodes."""
        result = run("tree", "textbook", "--max-nodes", "5", "-o", str(tmp_path / "t.svg"))
        assert result.code == 1
        for flag in ("--depth", "--collapse", "--max-nodes"):
            assert flag in result.err

    def test_needs_an_output(self, run):
        """Without -o, --frames or --html the command says where output can go."""
        result = run("tree", "textbook")
        assert result.code == 2
        assert "-o" in result.err

    def test_bad_output_suffix(self, run, tmp_path):
        """An output name with an unknown suffix lists the formats."""
        result = run("tree", "textbook", "-o", str(tmp_path / "t.bmp"))
        assert result.code == 2
        assert ".svg" in result.err and "'" in result.err

    def test_html_page(self, run, tmp_path):
        """--html writes one page that needs no network."""
        path = tmp_path / "steps.html"
        assert run("tree", "textbook", "-a", "alphabeta", "--html", str(path)).code == 0
        page = path.read_text()
        assert "<html" in page.lower() and "http://" not in page.replace("http://www.w3.org", "")

    def test_frames(self, run, tmp_path):
        """--frames writes numbered pictures, one per step of backward induction."""
        out = run("tree", "textbook", "--frames", str(tmp_path / "frames")).out
        files = sorted((tmp_path / "frames").iterdir())
        assert files and f"{len(files)} frames" in out
