"""Every ``gamesolver`` command shown in the docs runs (issue 29: the docs' commands all run).

The shell blocks (```sh, ```bash, ```console) of ``docs/*.md`` and ``README.md`` are read line
by line; each ``gamesolver ...`` command runs in this process, one after another (a command
shown on two pages once), each in a fresh temporary folder, with the tablebases out of reach
(an empty ``GAMESOLVER_TABLEBASE_DIR``), and must exit 0. Two kinds of edit keep the run cheap
without changing what a command does: long limits are cut (``--time`` to 0.2 s,
``--games``/``-n`` to 2, and ``analyse`` with no limit gets ``--time 0.2``), and a ``game.txt``
record is waiting for the commands that review one. Commands that cannot run in a test are
listed in :data:`SKIPPED` with the reason; a prefix the list names that the docs no longer show
fails the test, so the list cannot rot.
"""

from __future__ import annotations

import io
import re
import shlex
import time
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
FENCE = re.compile(r"^```(sh|bash|console|shell)\n(.*?)^```$", re.MULTILINE | re.DOTALL)

SKIPPED = {
    "gamesolver board": "a server: runs until stopped (tests/board runs it)",
    "gamesolver tablebase build": "a build of minutes to hours, into the user's cache or a disk",
    "gamesolver prove ayoayo": "stands on tablebase levels to 16 or 20, built ahead (minutes)",
    "gamesolver verify ~/": "checks a certificate that 'gamesolver prove' wrote first",
    "gamesolver compile": "compiles the numba kernels (tens of seconds on a cold cache)",
    "gamesolver tree textbook --random-exercises": "runs LaTeX on four sheets (seconds each)",
    "gamesolver tree textbook --tree '[[3,12,8],[2,4,6],[14,5,2]]' --exercise --variants": "runs "
    "LaTeX on two sheets (seconds each); tests/viz/test_variants.py runs it without LaTeX",
    "gamesolver tree textbook --frames frames/ --frame-format png": "renders each of its steps "
    "as a PNG (14 s); the README's --frames (SVG) runs",
}
"""Command prefixes not run here, and why."""

GUIDE = "adding-a-game.md"
"""The guide's commands use its example plug-in game: tests/docs/test_adding_a_game.py runs
them with that game registered, as ``pip install`` would."""

CUT = {"--time": "0.2", "--games": "2", "-n": "2"}
"""Options whose value is cut to keep the run short."""

RECORD = "game: ayoayo\n1. 2\n2. 4\n3. 0\n"
"""The ``game.txt`` the review commands read (the first moves of a game, as ``play`` saves)."""


def _in_the_clone(arg: str) -> str:
    """A file of the clone a command names by its path from the clone's root (as the README's
    commands are run there), as an absolute path: the commands run in a fresh folder."""
    path = ROOT / arg
    return str(path) if "/" in arg and not arg.startswith("/") and path.is_file() else arg


def shown_commands() -> list[tuple[str, str]]:
    """``(page, command)`` for every ``gamesolver`` line of the docs' shell blocks."""
    found = []
    for page in PAGES:
        for _, body in FENCE.findall(page.read_text("utf-8")):
            for line in body.replace("\\\n", " ").splitlines():
                line = line.strip().removeprefix("$ ").removeprefix(".venv/bin/")
                if line.startswith("gamesolver "):
                    found.append((page.name, line))
    return found


def skipped(page: str, command: str) -> str | None:
    """The reason ``command`` (shown on ``page``) is not run here, or None."""
    if page == GUIDE:
        return "run by tests/docs/test_adding_a_game.py with the guide's game registered"
    return next((why for prefix, why in SKIPPED.items() if command.startswith(prefix)), None)


def runnable(command: str) -> list[str]:
    """The command's arguments with long limits cut and a redirection dropped."""
    argv = shlex.split(command, comments=True)[1:]
    if ">" in argv:
        argv = argv[: argv.index(">")]
    for index, word in enumerate(argv[:-1]):
        if word in CUT:
            argv[index + 1] = CUT[word]
    if argv[0] == "analyse" and not {"--time", "--depth", "-d", "-t"} & set(argv):
        argv += ["--time", "0.2"]
    return argv


COMMANDS = shown_commands()


def commands_to_run() -> dict[str, list[tuple[int, str, list[str]]]]:
    """By page, ``(number, command, argv)`` of each command run here: not skipped, and a
    command shown on several pages under the first page that shows it."""
    by_page: dict[str, list[tuple[int, str, list[str]]]] = {}
    done: set[tuple[str, ...]] = set()
    for number, (page, command) in enumerate(COMMANDS):
        argv = runnable(command)
        if skipped(page, command) or tuple(argv) in done:  # shown twice: run once
            continue
        done.add(tuple(argv))
        by_page.setdefault(page, []).append((number, command, argv))
    return by_page


TO_RUN = commands_to_run()


def test_the_docs_show_commands_and_each_skip_is_still_shown() -> None:
    """The docs have commands to run, and every skipped prefix matches one of them."""
    assert len(COMMANDS) > 40
    for prefix in SKIPPED:
        assert any(command.startswith(prefix) for _, command in COMMANDS), prefix


@pytest.mark.parametrize("page", sorted(TO_RUN))
def test_every_command_shown_exits_0(
    page: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each command of the page runs in a fresh folder and exits 0; the slowest are named if
    it is slow. (A test a page: parallel runs share the pages out.)"""
    monkeypatch.setenv("GAMESOLVER_TABLEBASE_DIR", str(tmp_path / "no-tablebases"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play's prompt reads the end of input
    failures, times = [], []
    for number, command, argv in TO_RUN[page]:
        folder = tmp_path / f"run{number}"
        folder.mkdir()
        if command.startswith("gamesolver review "):
            (folder / "game.txt").write_text(RECORD)
        monkeypatch.chdir(folder)
        argv = [_in_the_clone(arg) for arg in argv]
        began = time.perf_counter()
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own exit
            code = exc.code if isinstance(exc.code, int) else 1
        times.append((time.perf_counter() - began, command))
        captured = capsys.readouterr()
        if code != 0:
            failures.append(f"{page}: {command}\n  exit {code}: {captured.err.strip()[-400:]}")
    assert not failures, "\n".join(failures)
    slowest = sorted(times, reverse=True)[:5]
    print("slowest:", *(f"{seconds:.2f} s {command}" for seconds, command in slowest), sep="\n")
