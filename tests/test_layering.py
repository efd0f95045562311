"""The packages depend one way: games -> solver, viz -> solver, the command line -> all three."""

from __future__ import annotations

import ast
import functools
from collections.abc import Set
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


# Ayòayò's package in one-way floors: each module imports only modules on its floor or below.
AYOAYO_FLOORS = (
    ("board",),
    ("rules",),
    (
        "tablebase_index",
        "tablebase_files",
        "tablebase_moves",
        "tablebase_partitions",
        "tablebase_build",
        "tablebase_plan",
        "tablebase",
        "sampling",
    ),
    (
        "jit_cache",
        "native_jit",
        "native_rules",
        "native_search",
        "native_proof",
        "native_tablebase",
        "native_partitions",
        "tablebase_cluster",
        "accel",
    ),
    ("proof", "proof_split"),
    ("game", "__init__"),
)


def ayoayo_imports() -> set[tuple[str, str]]:
    """(module, imported module of games.ayoayo) for every import inside the package."""
    found = set()
    package = ROOT / "games" / "ayoayo"
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "games.ayoayo":
                    names = [f"games.ayoayo.{alias.name}" for alias in node.names]
                else:
                    names = [node.module]
            for name in names:
                if name.startswith("games.ayoayo."):
                    found.add((path.stem, name.split(".")[2]))
    return found


class TestAyoayoFloors:
    def test_every_module_has_a_floor(self) -> None:
        """A new module of the package must be placed on a floor (so the check covers it)."""
        placed = {name for floor in AYOAYO_FLOORS for name in floor}
        present = {path.stem for path in (ROOT / "games" / "ayoayo").glob("*.py")}
        assert present == placed

    def test_imports_point_down_or_along(self) -> None:
        """No module imports one on a higher floor: the rules know no tablebase and no numba."""
        floor = {name: i for i, names in enumerate(AYOAYO_FLOORS) for name in names}
        wrong = sorted(
            (module, imported)
            for module, imported in ayoayo_imports()
            if floor[imported] > floor[module]
        )
        assert not wrong, f"imports up the floors of games/ayoayo: {wrong}"

    def test_the_floors_hold_no_circle(self) -> None:
        """Imports along a floor never come back round (no import circle in the package)."""
        edges: dict[str, set[str]] = {}
        for module, imported in ayoayo_imports():
            if imported != module:
                edges.setdefault(module, set()).add(imported)
        done: set[str] = set()

        def visit(module: str, path: tuple[str, ...]) -> None:
            assert module not in path, f"import circle: {' -> '.join((*path, module))}"
            if module in done:
                return
            for imported in edges.get(module, ()):
                visit(imported, (*path, module))
            done.add(module)

        for module in edges:
            visit(module, ())

    def test_the_rules_import_neither_numpy_nor_numba(self) -> None:
        """The readable rules stand on the board's numbers and the solver's protocol alone."""
        text = (ROOT / "games" / "ayoayo" / "rules.py").read_text(encoding="utf-8")
        assert "numba" not in text and "import numpy" not in text and "open(" not in text


# viz in one-way floors: what was searched -> what each node shows -> how it is written.
VIZ_FLOORS = (
    ("errors", "choices", "notation", "palette", "boards"),  # words and constants
    ("build", "ordering", "mcts_tree", "engine_tree", "views", "variants"),  # the trees
    ("annotations", "model"),  # the look: what each node shows
    (  # the writers
        "graphviz",
        "engine_dot",
        "dot",
        "pseudocode",
        "stepper",
        "tikz",
        "tree_json",
        "html",
        "frames",
        "exercises",
        "interactive",
    ),
    ("export", "state_graph", "notebook", "__init__"),  # the format dispatcher, the front
)


@functools.cache
def viz_imports() -> frozenset[tuple[str, str]]:
    """(module, imported module of viz) for every import in viz, lazy ones inside functions
    included; ``from viz import x`` is the module ``x`` if there is one, else the front."""
    package = ROOT / "viz"
    modules = {path.stem for path in package.glob("*.py")}
    found = set()
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name.removeprefix("viz.") for alias in node.names]
                names = [n for n in names if n in modules]
            elif isinstance(node, ast.ImportFrom):
                if node.level == 1 or node.module == "viz":
                    if node.module and node.module != "viz":
                        names = [node.module]
                    else:
                        names = [a.name if a.name in modules else "__init__" for a in node.names]
                elif node.module and node.module.startswith("viz."):
                    names = [node.module.split(".")[1]]
            found.update((path.stem, name) for name in names if name != path.stem)
    return frozenset(found)


def upward(edges: Set[tuple[str, str]], floors: tuple[tuple[str, ...], ...]) -> list[str]:
    """The imports that point to a higher floor."""
    floor = {name: i for i, names in enumerate(floors) for name in names}
    return sorted(f"{a} -> {b}" for a, b in edges if floor[b] > floor[a])


def circles(edges: Set[tuple[str, str]]) -> list[str]:
    """Every import circle found by a depth-first walk, as 'a -> b -> a'."""
    out: dict[str, set[str]] = {}
    for a, b in edges:
        out.setdefault(a, set()).add(b)
    found: list[str] = []
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in path:
            found.append(" -> ".join((*path[path.index(module) :], module)))
            return
        if module in done:
            return
        for imported in sorted(out.get(module, ())):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(out):
        visit(module, ())
    return found


class TestVizFloors:
    def test_every_module_has_a_floor(self) -> None:
        """A new viz module must be placed on a floor (so the check covers it)."""
        placed = {name for floor in VIZ_FLOORS for name in floor}
        assert {path.stem for path in (ROOT / "viz").glob("*.py")} == placed

    def test_imports_point_down_or_along(self) -> None:
        """No tree imports a writer, no writer the dispatcher, lazy imports included."""
        wrong = upward(viz_imports(), VIZ_FLOORS)
        assert not wrong, f"imports up the floors of viz: {wrong}"

    def test_the_floors_hold_no_circle(self) -> None:
        """Imports along a floor never come back round (dot knows the engine's writer, which
        knows nothing of dot)."""
        assert not circles(viz_imports())

    def test_the_checks_see_the_old_circles(self) -> None:
        """The three circles viz had (a tree drawing itself, the teaching writer calling up
        into the engine's tree, the engine's tree calling its writers) would fail both checks."""
        old = viz_imports() | {("build", "dot"), ("engine_tree", "tikz"), ("engine_tree", "dot")}
        assert upward(old, VIZ_FLOORS) == [
            "build -> dot",
            "engine_tree -> dot",
            "engine_tree -> tikz",
        ]
        assert any(c.startswith("build -> dot") for c in circles(old))
        along = viz_imports() | {("graphviz", "dot")}  # along the writers' floor, back round
        assert not upward(along, VIZ_FLOORS) and circles(along)

    def test_the_lazy_imports_are_seen(self) -> None:
        """An import inside a function counts: the front's lazy loading of the writers is found."""
        assert ("__init__", "export") in viz_imports() and ("dot", "engine_dot") in viz_imports()
