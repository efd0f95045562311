"""viz's own imports: a command that draws nothing loads no drawing code, and no module reaches
into another's private helpers (each shared helper has one public home)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

VIZ = Path(__file__).resolve().parents[2] / "viz"


class TestImports:
    def test_the_command_line_starts_without_the_drawing_code(self) -> None:
        """``gamesolver solve ...`` and the others load neither networkx nor viz's writers: only
        the choices the tree command offers, the notation of its summary line, and the notebook
        hook (which does nothing outside IPython)."""
        probe = (
            "import sys, zerosum.cli; "
            "print(sorted(m for m in sys.modules if m == 'networkx' or m.startswith('viz')))"
        )
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
        )
        assert done.stdout.split("\n")[0] == str(
            ["viz", "viz.choices", "viz.errors", "viz.notation", "viz.notebook"]
        )

    def test_no_module_imports_another_modules_private_names(self) -> None:
        """``from viz.build import _blank`` and the like are gone: shared helpers are public."""
        private = []
        for path in sorted(VIZ.glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("viz"):
                    private += [(path.name, a.name) for a in node.names if a.name.startswith("_")]
        assert not private, private

    def test_the_copied_helpers_have_one_home(self) -> None:
        """The DOT attributes, the game's node names, the node records and the overflow stop
        are each written once (engine_tree.py had copies of build.py's and dot.py's)."""
        homes: dict[str, list[str]] = {}
        for path in sorted(VIZ.glob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    homes.setdefault(node.name.lstrip("_"), []).append(path.name)
        for name in ("attrs", "dot_attrs", "node_name", "blank", "blank_node", "Overflow"):
            assert len(homes.get(name, [])) <= 1, (name, homes[name])
        assert "attrs" not in homes  # dot_attrs, in dot.py
