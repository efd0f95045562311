"""Every code block in docs/adding-a-game.md works as the guide says.

The blocks run in order in one namespace, as a reader would type them: Python blocks are
executed (``>>>`` blocks as doctests), the pyproject snippet is checked as a packaging tool
would read it, and the console commands run through the installed ``gamesolver`` entry point.
The example game is registered through a faked entry point, as ``pip install .`` would.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the dev extra installs tomli on 3.10
    import tomli as tomllib

import solver.game as game_module
from games import ENTRY_POINT_GROUP
from tests.games.fakes import install_entry_points
from tests.games.test_example_game import EXAMPLE, EXAMPLE_MODULE

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    """The guide's fenced code blocks in ``language``, in order."""
    return [body for lang, body in FENCE.findall(GUIDE.read_text("utf-8")) if lang == language]


def pyproject() -> dict[str, Any]:
    """This project's own pyproject.toml."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def our_distribution() -> str:
    """The name this project is published under (pyproject's [project] name)."""
    return str(pyproject()["project"]["name"])


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example game installed as the guide's pyproject snippet would install it."""
    monkeypatch.setitem(sys.modules, "subtraction_game", EXAMPLE_MODULE)
    (snippet,) = blocks("toml")
    points = tomllib.loads(snippet)["project"]["entry-points"][ENTRY_POINT_GROUP]
    install_entry_points(monkeypatch, points)


class TestPythonBlocks:
    def test_every_block_runs_in_order(self, registered: None) -> None:
        """Each Python block runs (doctest blocks pass) after the ones before it."""
        namespace: dict[str, Any] = {}
        python = blocks("python")
        assert python, "the guide has Python blocks"
        for number, body in enumerate(python, 1):
            if body.lstrip().startswith(">>>"):
                test = doctest.DocTestParser().get_doctest(body, namespace, f"block{number}", "", 0)
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                runner.run(test, clear_globs=False)
                assert runner.failures == 0, f"doctest block {number} failed:\n{body}"
            else:
                exec(compile(body, f"{GUIDE.name} block {number}", "exec"), namespace)
        namespace["test_my_game_conforms"]()  # the guide's own test, run as pytest would

    def test_the_sketch_matches_the_example_file(self) -> None:
        """Every method the guide's sketch of the game shows is in docs/examples with that name."""
        sketch = next(b for b in blocks("python") if "class SubtractionGame" in b)
        shown = {n.name for n in ast.walk(ast.parse(sketch)) if isinstance(n, ast.FunctionDef)}
        real = {n.name for n in ast.walk(ast.parse(EXAMPLE.read_text("utf-8")))
                if isinstance(n, ast.FunctionDef)}  # fmt: skip
        assert shown and shown <= real


class TestPyprojectSnippet:
    def test_is_a_valid_project_table(self) -> None:
        """The snippet has what packaging needs: a name and a version."""
        (snippet,) = blocks("toml")
        project = tomllib.loads(snippet)["project"]
        assert project["name"] and project["version"]

    def test_depends_on_this_project(self) -> None:
        """The dependency names our distribution, not a namesake on the package index."""
        (snippet,) = blocks("toml")
        dependencies = tomllib.loads(snippet)["project"]["dependencies"]
        names = [re.split(r"[\s<>=!~;\[]", d, maxsplit=1)[0] for d in dependencies]
        assert our_distribution() in names

    def test_entry_point_is_our_group_and_resolves(self, registered: None) -> None:
        """The entry point is in the group the registry reads and names the example's class."""
        (snippet,) = blocks("toml")
        points = tomllib.loads(snippet)["project"]["entry-points"]
        assert set(points) == {ENTRY_POINT_GROUP}
        for target in points[ENTRY_POINT_GROUP].values():
            module, _, attribute = target.partition(":")
            assert getattr(importlib.import_module(module), attribute) is not None


class TestConsoleBlocks:
    def test_every_command_succeeds(
        self, registered: None, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Each `$ gamesolver ...` line exits 0 and prints something (run through ``main``,
        what the program's entry point calls, without its exit)."""
        target = pyproject()["project"]["scripts"]["gamesolver"]
        program = metadata.EntryPoint("gamesolver", target, "console_scripts").load()
        assert program is zerosum.command
        commands = [line[2:] for b in blocks("console") for line in b.splitlines()
                    if line.startswith("$ ")]  # fmt: skip
        assert commands
        for command in commands:
            argv = shlex.split(command)
            assert argv[0] == "gamesolver"
            assert main(argv[1:]) == 0, command
            assert capsys.readouterr().out.strip(), command


class TestCapabilities:
    def test_every_capability_is_in_the_table_and_in_an_example(self) -> None:
        """Each ``Has*`` protocol of solver/game.py has a row in the guide, and each of its
        methods and attributes is in one of the guide's code blocks."""
        text = GUIDE.read_text("utf-8")
        code = "\n".join(body for lang, body in FENCE.findall(text) if lang in ("python", "py"))
        capabilities = [
            name
            for name, value in vars(game_module).items()
            if name.startswith("Has")
            and isinstance(value, type)
            and value.__module__ == game_module.__name__
        ]
        assert len(capabilities) >= 21 and set(capabilities) <= set(game_module.__all__)
        for name in capabilities:
            assert f"| `{name}` |" in text, f"{name} has no row in the guide's table"
            protocol = getattr(game_module, name)
            members = {m for m in vars(protocol) if not m.startswith("_")}
            members |= set(getattr(protocol, "__annotations__", {}))
            assert members, name
            for member in members:
                assert re.search(rf"\b{member}\b", code), f"{name}.{member}: no example"
