"""Worker processes under faults: a dead worker is named, nothing hangs, nothing is left.

Each case asserts the promise: a clear error or the right answer, and no process left running.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from solver.worker_output import WorkerOutput
from solver.workers import WorkerDiedError, WorkerPool

ROOT = Path(__file__).resolve().parents[2]


def _kill_myself(x: int) -> int:
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _fail(x: int) -> int:
    if x == 2:
        raise ValueError(f"bad {x}")
    return x


def _sleep(x: float) -> float:
    time.sleep(x)
    return x


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone(pids: list[int], within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


class TestResults:
    """Answers come back in order, and a task's own error is raised as it is."""

    def test_map_is_in_order(self) -> None:
        with WorkerPool(2) as pool:
            assert list(pool.map(pow, range(20), [2] * 20)) == [x * x for x in range(20)]
            assert sorted(pool.imap_unordered(abs, [(-1,), (2,), (-3,)])) == [1, 2, 3]

    def test_a_task_error_is_raised_and_the_workers_end(self) -> None:
        with WorkerPool(2) as pool:
            pids = pool.pids
            with pytest.raises(ValueError, match="bad 2"):
                list(pool.map(_fail, range(5)))
        assert gone(pids)

    def test_workers_start_where_the_default_is_a_forkserver(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Python 3.14 starts processes from a forkserver by default on Linux: its children's
        parent is the forkserver, and a worker that watched for this process as its parent
        ended at once (status 1); the pool starts its own (spawn) instead."""
        forkserver, real = multiprocessing.get_context("forkserver"), multiprocessing.get_context
        monkeypatch.setattr(
            multiprocessing,
            "get_context",
            lambda method=None: real(method) if method else forkserver,
        )
        with WorkerPool(2) as pool:
            assert list(pool.map(pow, [2, 3, 4], [2, 2, 2])) == [4, 9, 16]

    def test_bad_worker_counts_are_refused(self) -> None:
        with pytest.raises(ValueError, match="expected an int >= 1"):
            WorkerPool(0).start()


class TestDeadWorker:
    """A worker killed (as by the out-of-memory killer) ends the work, naming it."""

    def test_a_killed_worker_is_named_and_the_others_end(self) -> None:
        began = time.monotonic()
        with WorkerPool(2, name="t") as pool:
            pids = pool.pids
            with pytest.raises(WorkerDiedError) as e:
                list(pool.map(_kill_myself, range(8)))
        message = str(e.value)
        assert "SIGKILL" in message and "worker process t-" in message
        assert any(f"pid {p}" in message for p in pids)
        assert gone(pids) and time.monotonic() - began < 10


def _raise(kind: type[BaseException]) -> None:
    raise kind("no room left" if kind is MemoryError else "module broken")


class Unreadable:
    """An argument that fails as the worker reads it (as a module that cannot be imported
    for lack of memory does), with ``kind``."""

    def __init__(self, kind: type[BaseException]) -> None:
        self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:
        return (_raise, (self.kind,))


class TestUnreadableTask:
    """A task that a worker cannot even read (its function's modules fail to load, as under
    ulimit -v) ends the work with one line naming why, never a worker's traceback."""

    def test_out_of_memory_while_reading_a_task(self, capfd: pytest.CaptureFixture[str]) -> None:
        with WorkerPool(1, name="t") as pool, pytest.raises(WorkerDiedError) as e:
            list(pool.map(_sleep, [Unreadable(MemoryError)]))
        assert "ran out of memory loading its work" in str(e.value)
        assert "Traceback" not in capfd.readouterr().err

    def test_another_error_while_reading_a_task(self, capfd: pytest.CaptureFixture[str]) -> None:
        with WorkerPool(1, name="t") as pool, pytest.raises(WorkerDiedError) as e:
            list(pool.map(_sleep, [Unreadable(ImportError)]))
        assert "could not load its work (ImportError: module broken)" in str(e.value)
        assert "Traceback" not in capfd.readouterr().err


def _crash(x: int) -> int:
    """A crash as CPython reports one (as numba compiling under ulimit -v did): "Fatal Python
    error", the runtime's state and the stack on stderr, then SIGABRT."""
    if x == 1:
        ctypes.pythonapi.Py_FatalError(b"Cannot recover from MemoryErrors (a test)")
    return x


def _note(x: int) -> int:
    print(f"gamesolver: note: task {x} says hello", file=sys.stderr)
    return x


class TestWhatWorkersWrite:
    """A worker's crash report is kept in a log named by the error, never shown raw; what
    workers write otherwise (notes, warnings) still reaches the user."""

    def test_a_crash_report_is_kept_not_shown(self, capfd: pytest.CaptureFixture[str]) -> None:
        with WorkerPool(2, name="t") as pool:
            pids = pool.pids
            with pytest.raises(WorkerDiedError) as e:
                list(pool.map(_crash, range(6)))
        message = str(e.value)
        assert "\n" not in message and "was killed by SIGABRT" in message
        assert "Fatal Python error: Cannot recover from MemoryErrors (a test)" in message
        found = re.search(r"its whole report: (\S+\.log)\)", message)
        assert found, message
        log = Path(found.group(1))
        report = log.read_text()
        assert "Fatal Python error" in report and "most recent call first" in report
        err = capfd.readouterr().err
        assert "Fatal Python error" not in err and "most recent call first" not in err
        assert gone(pids)
        log.unlink()

    def test_notes_of_workers_reach_stderr(self, capfd: pytest.CaptureFixture[str]) -> None:
        with WorkerPool(2, name="t") as pool:
            assert list(pool.map(_note, range(4))) == [0, 1, 2, 3]
            err = capfd.readouterr().err  # with the answers, not when the workers end
        notes = [f"gamesolver: note: task {x} says hello" for x in range(4)]
        assert sorted(err.splitlines()) == notes
        assert capfd.readouterr().err == ""


SCRIPT = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {root!r})
    from zerosum import main
    from tests.solver.test_workers import _sleep
    from solver.workers import WorkerPool

    def run(argv):
        with WorkerPool(2) as pool:
            print(*pool.pids, flush=True)
            list(pool.map(_sleep, [60.0] * 4))
        return 0

    import zerosum.cli
    zerosum.cli.main = run
    sys.exit(main([]))
    """
)


@pytest.mark.parametrize(
    ("sent", "code"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -signal.SIGKILL)],
)
def test_a_signal_to_the_parent_ends_every_worker(sent: int, code: int) -> None:
    """Ctrl-C and SIGTERM end the parent (130, 143, no traceback) and its workers; after
    kill -9 of the parent, the workers end by themselves."""
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    pids = [int(p) for p in process.stdout.readline().split()]
    assert len(pids) == 2
    time.sleep(0.3)  # the workers are in their tasks
    process.send_signal(sent)
    try:
        _, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == code
    assert "Traceback" not in err
    assert gone(pids), "a worker outlived its parent"


def test_a_helper_whose_parent_died_before_the_request_ends_at_once() -> None:
    """The parent-death signal is asked for after the fork; a parent that died in between
    would never send it, so the process checks that its parent is still the one that
    started it and ends when it is not (here: a parent pid that is not its own)."""
    script = (
        "from solver.workers import kill_with_parent\n"
        "kill_with_parent(0)\n"  # pid 0 is never a parent: as if the parent had died
        "print('still running')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


def test_a_helper_whose_parent_lives_runs_on() -> None:
    script = (
        "import os\n"
        "from solver.workers import kill_with_parent\n"
        "kill_with_parent(os.getppid())\n"
        "print('still running')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert "still running" in done.stdout


class TestAWorkerCrashUnderAnAddressSpaceLimit:
    """Each worker has the parent's ``ulimit -v``: a worker that crashes under one is told to
    need more address space, not fewer workers (which would not help)."""

    def test_the_limit_is_named(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import resource

        from solver import workers

        monkeypatch.setattr(resource, "getrlimit", lambda _: (400 << 20, 400 << 20))
        said = str(workers._death("tablebase-worker-0", 12, -signal.SIGSEGV))
        assert "killed by SIGSEGV" in said and "400 MB of address space" in said
        assert "ulimit -v" in said and "fewer workers" not in said

    def test_without_a_limit_fewer_workers_are_advised(self) -> None:
        from solver import workers

        said = str(workers._death("tablebase-worker-0", 12, -signal.SIGKILL))
        assert "fewer workers" in said


class TestWorkerOutput:
    """The parent's side of a capture file: what is passed on, what is kept."""

    def test_the_rest_is_passed_on_only_when_the_worker_ended_as_asked(
        self, capfd: pytest.CaptureFixture[str]
    ) -> None:
        for exitcode, shown in [(0, "after\n"), (-signal.SIGTERM, ""), (1, "")]:
            output = WorkerOutput.create("t-0")
            assert output.fd is not None
            os.write(output.fd, b"before\n")
            output.relay(len(b"before\n"))
            os.write(output.fd, b"after\n")
            output.finish(exitcode)
            assert capfd.readouterr().err == "before\n" + shown
            assert output.fd is None

    def test_last_words_quote_the_first_line_and_keep_it_all(self) -> None:
        output = WorkerOutput.create("t-0")
        assert output.fd is not None and output.last_words() is None  # nothing written
        os.write(output.fd, b"\n  LLVM ERROR: out of memory\nAllocation failed\n")
        said = output.last_words()
        assert said is not None and said[0] == "LLVM ERROR: out of memory"
        assert said[1] is not None and said[1].name.startswith("gamesolver-t-0-")
        assert "Allocation failed" in said[1].read_text()
        said[1].unlink()
        output.finish(-signal.SIGABRT)
