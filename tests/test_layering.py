"""The packages depend one way: games -> solver, viz -> solver, the command line -> all three."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each package may import from the project (besides itself).
ALLOWED = {
    "solver": set(),
    "games": {"solver"},
    "viz": {"solver"},
    "zerosum": {"solver", "games", "viz"},
}


def project_imports(package: str) -> set[tuple[str, str]]:
    """(module file, imported project package) for every import in ``package``'s code."""
    found = set()
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in ALLOWED and top != package:
                    found.add((str(path.relative_to(ROOT)), top))
    return found


class TestLayering:
    @pytest.mark.parametrize("package", sorted(ALLOWED))
    def test_a_package_imports_only_the_layers_below_it(self, package: str) -> None:
        """No import, at module level or inside a function, points up or sideways."""
        wrong = {
            (path, top) for path, top in project_imports(package) if top not in ALLOWED[package]
        }
        assert not wrong, f"{package} may import only {sorted(ALLOWED[package])}: {sorted(wrong)}"

    def test_the_check_sees_imports_inside_functions(self) -> None:
        """The command line's imports of all three packages are found, so the check can fail."""
        assert {top for _, top in project_imports("zerosum")} == {"solver", "games", "viz"}
