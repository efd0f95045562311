"""Diagrams are written as DOT, SVG, PNG, PDF and node-link JSON; bad formats are refused."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from games import load_game
from tests.viz.svg import needs_dot, parse
from viz import GameTree, GraphvizNotFoundError, UnknownFormatError, game_tree, render
from viz.engine_tree import EngineTree, engine_tree
from viz.notebook import register_running_shell

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture(scope="module")
def tree() -> GameTree:
    return game_tree(load_game("textbook", tree=TEXTBOOK), algorithm="alphabeta")


class TestFormats:
    @needs_dot
    @pytest.mark.parametrize(
        ("suffix", "magic"),
        [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF"), (".dot", b"digraph")],
    )
    def test_each_format_by_suffix(
        self, tree: GameTree, tmp_path: Path, suffix: str, magic: bytes
    ) -> None:
        """The suffix picks the format and the file starts with that format's signature."""
        out = render(tree, tmp_path / f"tree{suffix}")
        assert out.read_bytes().startswith(magic)

    def test_format_argument_overrides_the_suffix(self, tree: GameTree, tmp_path: Path) -> None:
        """format= wins over the file's suffix."""
        out = render(tree, tmp_path / "tree.txt", format="dot")
        assert out.read_text(encoding="utf-8").startswith("digraph")

    def test_json_is_node_link_and_strict(self, tree: GameTree, tmp_path: Path) -> None:
        """JSON reloads with networkx into the same nodes and edges, with no infinities."""
        out = render(tree, tmp_path / "tree.json")
        text = out.read_text(encoding="utf-8")
        data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
        graph = nx.node_link_graph(data, edges="edges")
        assert sorted(graph.nodes) == sorted(tree.graph.nodes)
        assert sorted(graph.edges) == sorted(tree.graph.edges)
        assert data["graph"]["value"] == 3
        assert graph.nodes[0]["alpha_in"] == "-inf"

    def test_json_of_a_chance_tree_writes_fractions_as_text(self, tmp_path: Path) -> None:
        """Exact expectations (Fractions) are written as their text, "5/2", as --json does."""
        game = load_game("textbook", tree="[{1/2: [3, 5], 1/2: [2, 9]}, 1]")
        out = render(game_tree(game, algorithm="star1"), tmp_path / "chance.json")
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data["graph"]["value"] == "5/2"
        chance = next(n for n in data["nodes"] if n["chance"])
        assert chance["value"] == "5/2" and chance["outcomes"] == [["0", "1/2"], ["1", "1/2"]]

    def test_unknown_suffix_lists_the_formats(self, tree: GameTree, tmp_path: Path) -> None:
        """An unknown suffix is quoted and the valid ones listed."""
        with pytest.raises(UnknownFormatError, match=r"unknown output suffix '\.jpeg'.*\.svg"):
            render(tree, tmp_path / "tree.jpeg")

    @needs_dot
    def test_jupyter_display(self, tree: GameTree, monkeypatch: pytest.MonkeyPatch) -> None:
        """Imported in a running IPython shell, viz tells its SVG formatter how to draw a tree,
        by the class's own module and name (IPython's ``for_type_by_name``)."""
        shell = _Shell()
        fake = types.ModuleType("IPython")
        fake.get_ipython = lambda: shell  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "IPython", fake)
        register_running_shell()
        draw = shell.formatter.drawers[GameTree.__module__, GameTree.__qualname__]
        shapes = parse(draw(tree))
        drawn = [s for s in shapes.values() if "node" in s.classes and "level" not in s.classes]
        assert len(drawn) == tree.graph.number_of_nodes() == 13
        engine = engine_tree(
            load_game("tictactoe"), load_game("tictactoe").parse_state(".xo/xo./...")
        )
        svg = shell.formatter.drawers[EngineTree.__module__, EngineTree.__qualname__](engine)
        assert svg.startswith("<?xml") and 'class="node' in svg

    def test_no_display_is_registered_outside_ipython(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without IPython loaded the hook imports nothing and registers nothing."""
        monkeypatch.delitem(sys.modules, "IPython", raising=False)
        register_running_shell()
        assert "IPython" not in sys.modules

    def test_missing_graphviz_is_a_clear_error(
        self, tree: GameTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without dot on the PATH, image formats fail with how to install it; DOT still works."""
        monkeypatch.setenv("PATH", str(tmp_path))
        with pytest.raises(GraphvizNotFoundError, match="apt-get install graphviz"):
            render(tree, tmp_path / "tree.svg")
        assert render(tree, tmp_path / "tree.dot").exists()


class TestFiles:
    def test_written_files_get_the_usual_permissions(self, tree: GameTree, tmp_path: Path) -> None:
        """A diagram is readable by others as any new file is (umask), not private to its owner."""
        import os

        mask = os.umask(0o022)
        try:
            out = render(tree, tmp_path / "tree.dot")
        finally:
            os.umask(mask)
        assert out.stat().st_mode & 0o777 == 0o644


class _Formatter:
    """IPython's SVG formatter as far as viz uses it: it records what it is told."""

    def __init__(self) -> None:
        self.drawers: dict[tuple[str, str], Callable[[Any], str]] = {}

    def for_type_by_name(self, module: str, name: str, draw: Callable[[Any], str]) -> None:
        self.drawers[module, name] = draw


class _Shell:
    def __init__(self) -> None:
        self.formatter = _Formatter()
        self.display_formatter = types.SimpleNamespace(formatters={"image/svg+xml": self.formatter})
