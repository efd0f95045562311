"""The packages depend one way: games -> solver, viz -> solver, play -> solver, the command line
-> all four."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Set
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each package may import from the project (besides itself).
ALLOWED = {
    "solver": set(),
    "games": {"solver"},
    "viz": {"solver"},
    "play": {"solver"},  # agents and matches above the searches: no search imports play
    "zerosum": {"solver", "games", "viz", "play"},
}


def project_imports(package: str, root: Path = ROOT) -> set[tuple[str, str]]:
    """(module file, imported project package) for every import in ``package``'s code."""
    found = set()
    for path in sorted((root / package).rglob("*.py")):
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
                    found.add((path.relative_to(root).as_posix(), top))
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
        """The command line's imports of all four packages are found, so the check can fail."""
        assert {top for _, top in project_imports("zerosum")} == {"solver", "games", "viz", "play"}

    def test_the_check_sees_a_search_importing_play(self, tmp_path: Path) -> None:
        """The old circle (solver.mcts importing the play loop for its playouts' scoring) would
        be found: a search module importing play, even inside a function."""
        (tmp_path / "solver").mkdir()
        (tmp_path / "solver" / "mcts.py").write_text(
            "def playout():\n    from play.game_loop import play_game\n"
        )
        assert project_imports("solver", tmp_path) == {("solver/mcts.py", "play")}
        assert "play" not in ALLOWED["solver"]

    def test_play_is_above_the_searches_and_uses_them(self) -> None:
        """play imports solver (its agents call the searches), so the floor is real."""
        assert {top for _, top in project_imports("play")} == {"solver"}


# The front ends (the command line and the board) find games through the registry and ask of
# them only what solver.game's capabilities say: no game module, no game's class.
REGISTRY_NAMES = {"available_games", "game_info", "load_game", "GameInfo", "ENTRY_POINT_GROUP"}


def _game_classes() -> set[str]:
    """The names of the classes defined in the project's games package."""
    names = set()
    for path in sorted((ROOT / "games").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    return names - REGISTRY_NAMES


def front_end_game_uses(package: Path, classes: set[str]) -> set[tuple[str, str]]:
    """(module file, what it names) for every import of a game module (``games.X``, or a name
    from ``games`` beyond the registry's) and every name in ``classes`` (the games' classes)
    in the code under ``package``, its docstrings' examples included."""
    found = set()
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(package.parent).as_posix()
        tree = ast.parse(source, filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {(where, a.name) for a in node.names if a.name.startswith("games.")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("games."):
                    found.add((where, node.module))
                elif node.module == "games":
                    found |= {(where, a.name) for a in node.names if a.name not in REGISTRY_NAMES}
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        examples = "\n".join(line for line in source.splitlines() if ">>>" in line)
        names |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", examples))
        found |= {(where, name) for name in names & classes}
        found |= {(where, m) for m in re.findall(r"\bgames\.[a-z_0-9]+", examples)}
    return found


class TestFrontEndsKnowNoGame:
    def test_the_front_ends_import_no_game_module_and_name_no_game_class(self) -> None:
        """zerosum reaches games through the registry and solver.game's capabilities only."""
        found = front_end_game_uses(ROOT / "zerosum", _game_classes())
        assert not found, f"the front ends name games' modules or classes: {sorted(found)}"

    def test_the_check_sees_a_game_module_and_a_game_class(self, tmp_path: Path) -> None:
        """Run on a package that imports Ayòayò's module and tests its class, the check fails."""
        (tmp_path / "front").mkdir()
        (tmp_path / "front" / "views.py").write_text(
            "from games.ayoayo import Ayoayo\n\nif isinstance(game, Ayoayo):\n    pass\n"
        )
        found = front_end_game_uses(tmp_path / "front", _game_classes())
        assert ("front/views.py", "games.ayoayo") in found
        assert ("front/views.py", "Ayoayo") in found


# The command line's floors: front ends -> application layer -> packages. Two front ends
# (zerosum/commands, zerosum/board) stand on one application layer (the modules at zerosum's
# top: loading games and positions, analysis, records, answers, option parsing, worker counts),
# which stands on the packages (solver, games, viz, play; ALLOWED above). No arrow between the
# two front ends but the command that serves the board, and no command imports another: what
# two commands share lives in the application layer.
FRONT_ENDS = ("commands", "board")
ENTRY_MODULES = {"zerosum/cli.py", "zerosum/__main__.py", "zerosum/__init__.py"}
SERVES_THE_BOARD = "zerosum/commands/board.py"


def zerosum_imports(root: Path = ROOT) -> set[tuple[str, str]]:
    """(module file, imported module of zerosum) for every import in zerosum's code."""
    found = set()
    for path in sorted((root / "zerosum").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {(where, a.name) for a in node.names if a.name.startswith("zerosum.")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("zerosum."):
                found.add((where, str(node.module)))
    return found


def _front_end(name: str) -> str | None:
    """The front end a module (``zerosum/board/app.py`` or ``zerosum.board.app``) is in."""
    parts = name.replace("/", ".").split(".")
    return parts[1] if len(parts) > 2 and parts[1] in FRONT_ENDS else None


def zerosum_load_imports(root: Path = ROOT) -> set[tuple[str, str]]:
    """(module, imported module of zerosum) for the imports run when a module loads (those at
    its top level, not inside functions), module names dotted."""
    found = set()
    for path in sorted((root / "zerosum").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.Import):
                found |= {(module, a.name) for a in node.names if a.name.startswith("zerosum.")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("zerosum."):
                package = root.joinpath(*str(node.module).split("."))
                found |= {  # ``from zerosum.commands import analyse`` imports the submodule
                    (
                        module,
                        f"{node.module}.{a.name}"
                        if (package / f"{a.name}.py").exists()
                        else str(node.module),
                    )
                    for a in node.names
                }
    return {(module, imported) for module, imported in found if module != imported}


def commands_importing_commands(root: Path = ROOT) -> list[tuple[str, str]]:
    """(command module, other command module) for every import of one command by another."""
    return sorted(
        (where, imported)
        for where, imported in zerosum_imports(root)
        if _front_end(where) == _front_end(imported) == "commands"
        and where != "zerosum/commands/__init__.py"
        and imported != "zerosum.commands"
        and Path(where).stem != imported.split(".")[2]
    )


class TestCommandLineFloors:
    def test_the_application_layer_imports_no_front_end(self) -> None:
        """zerosum's top modules (not the entry points) import neither front end."""
        wrong = sorted(
            (where, imported)
            for where, imported in zerosum_imports()
            if _front_end(where) is None and where not in ENTRY_MODULES and _front_end(imported)
        )
        assert not wrong, f"the application layer imports a front end: {wrong}"

    def test_the_front_ends_do_not_import_each_other(self) -> None:
        """The board imports no command; a command imports the board only to serve it."""
        wrong = sorted(
            (where, imported)
            for where, imported in zerosum_imports()
            if _front_end(where)
            and _front_end(imported)
            and _front_end(where) != _front_end(imported)
            and where != SERVES_THE_BOARD
        )
        assert not wrong, f"an arrow between the two front ends: {wrong}"

    def test_a_command_imports_no_other_command(self) -> None:
        """Each command stands on the application layer alone (the registry of commands,
        ``commands/__init__.py``, is the one module that names them all)."""
        assert not commands_importing_commands(), "a command imports another command"

    def test_the_check_sees_a_command_importing_another(self, tmp_path: Path) -> None:
        """The old arrow (match borrowing play's agent parser) would be found."""
        (tmp_path / "zerosum" / "commands").mkdir(parents=True)
        (tmp_path / "zerosum" / "commands" / "match.py").write_text(
            "from zerosum.commands.play import agent\n"
        )
        assert commands_importing_commands(tmp_path) == [
            ("zerosum/commands/match.py", "zerosum.commands.play")
        ]

    def test_the_command_line_holds_no_import_circle(self) -> None:
        """zerosum's modules import each other at load time without a circle (as
        zerosum.review -> commands.analyse -> commands.review was, which broke
        ``pytest zerosum/review.py`` run alone)."""
        assert not circles(zerosum_load_imports())

    def test_the_circle_check_sees_the_old_circle(self, tmp_path: Path) -> None:
        """The old circle, written out, is found."""
        (tmp_path / "zerosum" / "commands").mkdir(parents=True)
        for where, imported in (
            ("review.py", "zerosum.commands.analyse"),
            ("commands/analyse.py", "zerosum.commands.review"),
            ("commands/review.py", "zerosum.review"),
        ):
            (tmp_path / "zerosum" / where).write_text(f"from {imported} import x\n")
        assert circles(zerosum_load_imports(tmp_path)) == [
            "zerosum.commands.analyse -> zerosum.commands.review -> zerosum.review"
            " -> zerosum.commands.analyse"
        ]

    def test_the_check_sees_an_arrow_between_the_front_ends(self, tmp_path: Path) -> None:
        """A board module importing a command is found, so the check can fail."""
        (tmp_path / "zerosum" / "board").mkdir(parents=True)
        (tmp_path / "zerosum" / "board" / "workers.py").write_text(
            "from zerosum.commands.analyse import analysis_search\n"
        )
        found = zerosum_imports(tmp_path)
        assert found == {("zerosum/board/workers.py", "zerosum.commands.analyse")}
        assert _front_end("zerosum/board/workers.py") == "board"


# Ayòayò's package in one-way floors: each module imports only modules on its floor or below.
AYOAYO_FLOORS = (
    ("board",),
    ("rules",),
    ("sowing",),
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
        "native_probe",
        "native_route",
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
    ("tree_node", "build", "ordering", "mcts_tree", "engine_tree", "views", "variants"),  # trees
    ("annotations", "model"),  # the look: what each node shows
    (  # the writers
        "graphviz",
        "engine_dot",
        "mcts_phases",
        "dot",
        "pseudocode",
        "stepper",
        "compact",
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
