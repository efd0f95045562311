"""Ctrl-C and kills in real processes: exit 130 promptly, report what finished, leave nothing.

Each test starts ``gamesolver`` in its own process group, waits for it to be busy, sends SIGINT
to the group (as a terminal does) or SIGKILL to the parent alone, and checks the exit status,
the output and that no process of the group is left running. The bounds on waiting are
generous (seconds) so a loaded machine does not fail them; a hang would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.ayoayo.tablebase_build import LOCK
from zerosum.records import parse_record

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="process groups read from /proc"
    ),
]

ROOT = Path(__file__).parents[2]
PROMPT_SECONDS = 10.0
"""How long a process may take to exit after the signal before the test calls it a hang."""


def group_members(group: int) -> list[int]:
    """The live (not zombie) processes of a process group, from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            members.append(int(entry.name))
    return members


READY = "ready"
"""What the child prints once its imports are done (a Ctrl-C during Python's own start-up
is Python's business, not the command's)."""

LAUNCH = (
    "import sys; from zerosum.cli import main; print('ready', flush=True); "
    "sys.exit(main(sys.argv[1:]))"
)

PROGRAM = (
    "import sys; import zerosum.cli; from zerosum import command; print('ready', flush=True); "
    "command()"
)
"""The program itself (``gamesolver``'s entry point, with its exit), past the same imports."""


def start(
    *argv: str, stdin: str | None = None, env: dict[str, str] | None = None, launch: str = LAUNCH
) -> subprocess.Popen[str]:
    """``gamesolver ARGV`` in a new process group, SIGINT at its default; past its imports
    (``stdin``: what it reads, the pipe then left open; else nothing; ``env``: more of the
    environment; ``launch``: how it is run)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}
    child = subprocess.Popen(
        [sys.executable, "-c", launch, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == READY
    if stdin is not None:
        assert child.stdin is not None
        child.stdin.write(stdin)
        child.stdin.flush()
    return child


def wait_until(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


def interrupt(child: subprocess.Popen[str], busy: int = 1) -> tuple[str, str]:
    """Wait until the group has ``busy`` processes, Ctrl-C it; the output after exiting."""
    try:
        assert wait_until(lambda: len(group_members(child.pid)) >= busy, 30)
        time.sleep(1.0)  # well inside the work
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=PROMPT_SECONDS)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    return out, err


class TestCtrlC:
    def test_a_parallel_match_stops_and_leaves_no_worker(self) -> None:
        """Ctrl-C in a 300-million-game match on two workers exits 130 with no worker left."""
        child = start(
            "match", "tictactoe", "random", "random", "--games", "300000000", "--workers", "2"
        )
        out, err = interrupt(child, busy=3)
        assert child.returncode == 130, err
        assert "of 300,000,000 games" in out and "interrupted" in out
        assert "Traceback" not in err
        assert wait_until(lambda: not group_members(child.pid), PROMPT_SECONDS)

    def test_an_engine_agent_ends_the_match_instead_of_moving_early(self) -> None:
        """Ctrl-C inside an engine agent's search ends the match (130), not the move."""
        child = start("match", "ayoayo", "engine:30", "random", "-n", "4")
        out, err = interrupt(child)
        assert child.returncode == 130, err
        assert "0 of 4 games" in out
        assert "Traceback" not in err

    def test_the_ai_in_play_does_not_move_early(self) -> None:
        """Ctrl-C while the engine thinks in play ends the game with 130."""
        child = start("play", "ayoayo", "--ai", "engine:30", "--first", "ai")
        out, err = interrupt(child)
        assert child.returncode == 130, err
        assert "plays" not in out  # the AI made no move
        assert "interrupted" in err and "Traceback" not in err

    def test_a_kernel_being_compiled_does_not_hold_ctrl_c_up(self, tmp_path: Path) -> None:
        """Ctrl-C while numba compiles a kernel (an empty kernel cache: tens of seconds of
        compiling) exits 130 at once. It used to be lost inside numba's C callbacks, break the
        compile, and leave the engine searching in Python for the whole --time."""
        cache = {"NUMBA_CACHE_DIR": str(tmp_path / "kernels")}
        child = start("analyse", "ayoayo", "--time", "60", env=cache, launch=PROGRAM)
        assert wait_until(lambda: (tmp_path / "kernels").is_dir(), 30)  # compiling now
        time.sleep(2.0)  # deep in it: its whole compile takes tens of seconds
        signalled = time.monotonic()
        os.killpg(child.pid, signal.SIGINT)
        try:
            out, err = child.communicate(timeout=PROMPT_SECONDS)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.communicate()
        assert time.monotonic() - signalled < 3.0
        assert child.returncode == 130, err
        assert "interrupted" in err and "Traceback" not in err
        assert "cannot be built" not in err and "best move" not in out

    def test_play_saves_the_moves_played_when_interrupted(self, tmp_path: Path) -> None:
        """Ctrl-C while the engine thinks in play --save writes the moves played, then 130."""
        path = tmp_path / "game.txt"
        child = start("play", "ayoayo", "--ai", "engine:30", "--save", str(path), stdin="2\n")
        out, err = interrupt(child)
        assert child.returncode == 130, err
        assert f"game record written to {path}" in out
        assert parse_record(path.read_text()).moves == ("2",)
        assert "Traceback" not in err

    def test_best_shows_the_answer_so_far_and_exits_130(self) -> None:
        """Ctrl-C in best prints the deepest completed answer, then exits 130."""
        child = start("best", "ayoayo", "--time", "60")
        out, err = interrupt(child)
        assert child.returncode == 130, err
        assert "best move:" in out

    def test_a_tablebase_build_keeps_whole_levels_and_no_worker(self, tmp_path: Path) -> None:
        """Ctrl-C in a tablebase build (2 workers) exits 130: only whole levels, no worker."""
        child = start(
            "tablebase",
            "build",
            "ayoayo",
            "--seeds",
            "16",
            "--dir",
            str(tmp_path),
            "--workers",
            "2",
        )
        out, err = interrupt(child, busy=3)
        assert child.returncode == 130, err
        assert "Traceback" not in err
        assert wait_until(lambda: not group_members(child.pid), PROMPT_SECONDS)
        assert "level 16: built" not in out
        values = {p.stem for p in tmp_path.glob("*.tb")}
        assert {p.stem for p in tmp_path.glob("*.dist")} >= values  # distances written first
        left = [p for p in tmp_path.iterdir() if p.suffix not in (".tb", ".dist", ".json")]
        assert [p.name for p in left if p.name != LOCK] == []  # the lock file stays, unlocked


class TestKilledParent:
    def test_workers_exit_when_their_parent_is_killed(self) -> None:
        """SIGKILL to the match process: its workers notice and exit on their own."""
        child = start("match", "ayoayo", "minimax:4", "random", "-n", "400", "-j", "2")
        try:
            assert wait_until(lambda: len(group_members(child.pid)) >= 3, 30)
            os.kill(child.pid, signal.SIGKILL)
            child.communicate(timeout=PROMPT_SECONDS)
            assert wait_until(lambda: not group_members(child.pid), PROMPT_SECONDS)
        finally:
            for pid in group_members(child.pid):
                os.kill(pid, signal.SIGKILL)


LAUNCH_BARE = (
    "import sys\n"
    "def started(event, args):\n"
    "    if event == 'import' and args[0] == 'zerosum.cli' and 'zerosum.cli' not in sys.modules:\n"
    "        sys.stderr.write('started\\n')\n"
    "        sys.stderr.flush()\n"
    "sys.addaudithook(started)\n"
    "import zerosum\n"
    "sys.exit(zerosum.main(sys.argv[1:]))\n"
)
"""What the ``gamesolver`` script runs: the package (whose first lines take Ctrl-C over), then
its ``main``, which imports the rest; the line ``started`` marks the moment ``main`` begins
importing the rest (an audit hook on the import of :mod:`zerosum.cli`). (A Ctrl-C before the
package's first line is Python's own: it timed the test's wait from Python's measured start-up
before, and under load that came too soon now and then. A line written between ``import
zerosum`` and the call of ``main`` came too soon as well, under load: the parent, woken by it,
could signal before the child reached ``main``'s ``try``, a few bytecodes on, where Python
raises KeyboardInterrupt as any program's top level does.)"""


class TestCtrlCDuringStartUp:
    @pytest.mark.parametrize("delay", [0.0, 0.02, 0.1, 0.2, 0.3])
    def test_a_ctrl_c_while_importing_is_one_line_and_130(self, delay: float) -> None:
        """The entry point catches a Ctrl-C that comes while numpy, rich and the games load:
        from the first instant after the package's own first lines."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(
            [sys.executable, "-c", LAUNCH_BARE, "analyse", "ayoayo", "--time", "30"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            assert child.stderr is not None
            assert child.stderr.readline() == "started\n"
            time.sleep(delay)
            os.killpg(child.pid, signal.SIGINT)
            _, err = child.communicate(timeout=PROMPT_SECONDS)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.communicate()
        assert child.returncode == 130, err
        assert "Traceback" not in err and err.strip().endswith("interrupted"), err


class TestKilledTree:
    def test_graphviz_does_not_outlive_a_killed_tree(self, tmp_path: Path) -> None:
        """kill -9 of ``tree`` while Graphviz lays out: ``dot`` dies with it (a stand-in
        ``dot`` that would sleep for a minute shows it)."""
        fake = tmp_path / "bin" / "dot"
        fake.parent.mkdir()
        fake.write_text("#!/bin/sh\nexec sleep 60\n")
        fake.chmod(0o755)
        env = {**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}
        child = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "tree", "textbook", "-o", str(tmp_path / "t.svg")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            # Wait for dot itself (the stand-in's sleep): before its exec the child may not
            # have its parent-death signal yet, and a kill then would race the test.
            assert wait_until(lambda: _runs(child.pid, b"sleep"), 30)
        finally:
            child.kill()
            child.wait()
        assert wait_until(lambda: not group_members(child.pid), 5)


def _runs(group: int, program: bytes) -> bool:
    """Whether a process of ``group`` runs ``program`` (its command line names it)."""
    for pid in group_members(group):
        try:
            if program in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
        except OSError:
            continue
    return False
