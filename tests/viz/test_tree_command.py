"""``gamesolver tree``: the teaching options on the command line (exercise, order, views)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.viz.svg import needs_dot
from zerosum.cli import main


@attrs.frozen
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run ``gamesolver`` in this process; no traceback may reach stderr."""

    def runner(*argv: str) -> Run:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err, captured.err
        return Run(code, captured.out, captured.err)

    return runner


class TestJson:
    def test_json_goes_to_stdout_without_an_output_file(self, run: Callable[..., Run]) -> None:
        """--json alone prints the summary and the whole tree, every node with its bound."""
        result = run("tree", "textbook", "-a", "alphabeta", "--json")
        data: dict[str, Any] = json.loads(result.out)
        assert result.code == 0 and data["value"] == 3 and data["nodes_saved"] == 2
        bounds = {n["name"]: n["bound"] for n in data["tree"]["nodes"] if n["name"]}
        assert bounds == {"A": "exact", "B": "exact", "C": "upper", "D": "upper"}
        assert "bound" in data["tree"]["graph"]["fields"]


@needs_dot
class TestTeachingOptions:
    def test_exercise_writes_the_blank_and_the_key(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """--exercise -o ex.svg writes ex.svg (leaves only) and ex-key.svg (the answers)."""
        out = tmp_path / "ex.svg"
        result = run("tree", "textbook", "-a", "alphabeta", "--exercise", "-o", str(out))
        assert result.code == 0, result.err
        blank = out.read_text(encoding="utf-8")
        key = (tmp_path / "ex-key.svg").read_text(encoding="utf-8")
        assert "Exercise" in blank and "✂" not in blank and "≤2" not in blank
        assert "✂" in key and "≤2" in key

    def test_order_view_and_ordering(self, run: Callable[..., Run], tmp_path: Path) -> None:
        """--order numbers nodes; --view negamax negates MIN values; --ordering best prunes."""
        out = tmp_path / "t.dot"
        args = ("tree", "textbook", "-a", "alphabeta", "-o", str(out), "--force")
        assert run(*args, "--order").code == 0
        assert "#11<" in out.read_text(encoding="utf-8")
        assert run(*args, "--view", "negamax").code == 0
        assert "≥−2" in out.read_text(encoding="utf-8")  # a true minus, as in −∞
        best = run(*args, "--ordering", "best")
        worst = run(*args, "--ordering", "worst")
        assert "9 searched" in best.out  # B's three leaves, then one leaf each under C and D
        assert "13 searched" in worst.out  # D, C first: nothing to cut against

    def test_refusals_use_command_line_words(self, run: Callable[..., Run], tmp_path: Path) -> None:
        """Too wide a picture names --collapse and --large; a collapsed search, the right limit."""
        wide = run("tree", "tictactoe", "--depth", "3", "-o", str(tmp_path / "w.svg"))
        assert wide.code == 1 and "--collapse" in wide.err and "--large" in wide.err
        big = run("tree", "tictactoe", "--depth", "4", "--transpositions", "-o", "x.svg")
        assert big.code == 1 and "--transpositions" not in big.err.split("shrink it with")[1]
        assert "--max-nodes" in big.err

    def test_large_draws_with_a_warning(self, run: Callable[..., Run], tmp_path: Path) -> None:
        """--large draws the too-wide picture and says how large it is."""
        out = tmp_path / "w.svg"
        result = run("tree", "tictactoe", "--depth", "3", "--large", "-o", str(out))
        assert result.code == 0 and "warning: the picture is" in result.err and out.exists()


class TestMctsPage:
    def test_mcts_writes_the_interactive_page(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """-a mcts --interactive writes a page with the search's frames, not an editable one."""
        page = tmp_path / "m.html"
        done = run(
            "tree", "textbook", "-a", "mcts", "--iterations", "5", "--interactive", str(page)
        )
        assert done.code == 0 and f"wrote {page}" in done.out
        text = page.read_text(encoding="utf-8")
        assert '"editable": false' in text and '"algorithm": "mcts"' in text
        assert 'data-line="select"' in text and re.search(r"W/N [0-9.−]+/5\b", text)


class TestFaultsFound:
    def test_engine_json_alone_prints_the_tree(self, run: Callable[..., Run]) -> None:
        """-a engine --json with no -o prints the summary and the tree, not an AssertionError."""
        result = run("tree", "tictactoe", "--position", "oxx/..o/x..", "-a", "engine", "--json")
        data: dict[str, Any] = json.loads(result.out)
        assert result.code == 0 and data["value"] == -1 and data["written"] == []
        kinds = [n["kind"] for n in data["tree"]["nodes"]]
        assert kinds.count("node") == data["nodes_searched"] and set(kinds) == {"node", "pruned"}

    def test_engine_windows_are_written_as_the_values_they_ask_about(
        self, run: Callable[..., Run]
    ) -> None:
        """A null window is written as its probe (1, 1), never as 0.9999999999999999, 5e-324."""
        result = run("tree", "tictactoe", "--position", "x../.o./...", "-a", "engine", "--json")
        nodes = json.loads(result.out)["tree"]["nodes"]
        sides = {n[k] for n in nodes for k in ("alpha_in", "beta_in") if n[k] is not None}
        assert sides <= {"-inf", "inf", -1, 0, 1}, sides
        probes = [n for n in nodes if (n["window"] or "").startswith("probe")]
        assert probes and all(n["alpha_in"] == n["beta_in"] for n in probes)

    @pytest.mark.parametrize("algorithm", ["alphabeta", "engine"])
    def test_pruned_nodes_have_no_bound(self, run: Callable[..., Run], algorithm: str) -> None:
        """A node never searched has no value and so no bound ("exact" said it was known)."""
        engine = algorithm == "engine"
        game = ("tictactoe", "--position", "oxx/..o/x..") if engine else ("textbook",)
        data = json.loads(run("tree", *game, "-a", algorithm, "--json").out)
        pruned = [n for n in data["tree"]["nodes"] if n["kind"] == "pruned"]
        assert pruned and all(n["bound"] is None for n in pruned)
        assert all(n["exact"] is False for n in pruned if "exact" in n)

    def test_ordering_a_chance_tree_is_refused_in_its_own_words(
        self, run: Callable[..., Run]
    ) -> None:
        """--ordering best on a chance tree names the ordering, not "use expectiminimax"."""
        result = run(
            "tree", "textbook", "--tree", "[{1/2: [2, 1], 1/2: [0, 3]}]",
            "-a", "expectiminimax", "--ordering", "best", "--json",
        )  # fmt: skip
        assert result.code != 0 and "--ordering given" in result.err
        assert "use expectiminimax" not in result.err

    def test_an_mcts_exercise_is_refused_without_python(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """-a mcts --exercise says which searches have sheets, not a Python keyword."""
        result = run("tree", "textbook", "-a", "mcts", "--exercise", "-o", str(tmp_path / "m.svg"))
        assert result.code != 0 and "-a mcts" in result.err and "alphabeta" in result.err
        assert "pruned=" not in result.err

    def test_star2_json_ranges_are_the_figures(self, run: Callable[..., Run]) -> None:
        """Star2's JSON gives C's range as the figure writes it, [0, 11/2] (L = 0), not [−∞, ·]."""
        coins = "[{1/2: [6, 6], 1/2: [6, 5]}, {1/2: [4, 5], 1/2: [7, 3]}, "
        coins += "{1/2: [9, 8], 1/2: [2, 0]}]"
        data = json.loads(run("tree", "textbook", "--tree", coins, "-a", "star2", "--json").out)
        ranges = {n["name"]: n["range"] for n in data["tree"]["nodes"] if n["name"]}
        assert ranges["C"] == [0, "11/2"] and ranges["G"] == [0, 4]


class TestPartOfATree:
    def test_levels_and_subtree_draw_part_of_the_tree(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """--levels 1 keeps the root and its three moves, a summary box below each; --subtree 2
        the node after move 2 and its three leaves; --json says how many nodes were drawn."""
        out = tmp_path / "top.dot"
        done = run("tree", "textbook", "-a", "alphabeta", "--levels", "1", "-o", str(out), "--json")
        assert done.code == 0 and json.loads(done.out)["nodes_drawn"] == 7
        assert out.read_text(encoding="utf-8").count("positions") >= 3
        sub = tmp_path / "d.dot"
        done = run(
            "tree", "textbook", "-a", "alphabeta", "--subtree", "2", "-o", str(sub), "--json"
        )
        assert done.code == 0 and json.loads(done.out)["nodes_drawn"] == 4

    def test_bad_parts_are_refused_in_one_line(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        """A move the tree lacks lists the moves there; a page, or no -o, is refused by name."""
        out = str(tmp_path / "x.svg")
        done = run("tree", "textbook", "-a", "alphabeta", "--subtree", "7", "-o", out)
        assert done.code != 0 and "no move '7' after the root" in done.err
        assert "moves there: 0, 1, 2" in done.err
        done = run("tree", "textbook", "--levels", "1", "--html", str(tmp_path / "p.html"))
        assert done.code == 2 and "--levels draws part of a finished tree" in done.err
        assert "not --html" in done.err
        done = run("tree", "textbook", "--subtree", "1,,2", "-o", out)
        assert done.code == 2 and "invalid moves '1,,2'" in done.err
