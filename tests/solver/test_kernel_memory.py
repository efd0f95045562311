"""Kernels under an address-space limit: a compile that would not fit is not started (LLVM
would abort the process), and a load that fails short of memory is not taken for damage."""

from __future__ import annotations

import errno
import os
import pickle
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from solver import kernel_memory, resources
from solver.errors import GameError
from solver.kernel_memory import KernelMemoryError, short_of_memory

ROOT = Path(__file__).resolve().parents[2]

LIMITED = """
import resource, runpy, sys
import numba
def size():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
limit = size() + int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.argv = ["gamesolver", *sys.argv[2:]]
runpy.run_module("zerosum", run_name="__main__")
"""
"""Runs a command under a limit that leaves ``argv[1]`` MB of room once numba is imported."""


def _limited(tmp_path: Path, room: int, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "GAMESOLVER_NATIVE": "1"}
    env.pop("PYTHONFAULTHANDLER", None)
    return subprocess.run(
        [sys.executable, "-c", LIMITED, str(room), *command],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
class TestAColdCompileUnderALimit:
    """An empty kernels' cache and a limit too small to compile: the pure engine answers,
    with one line naming the limit, the room needed and how to warm the cache."""

    @pytest.mark.parametrize(
        "game", [("ayoayo", "-p", "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"), ("connect4",)], ids=str
    )
    def test_the_game_answers_in_python(self, tmp_path: Path, game: tuple[str, ...]) -> None:
        done = _limited(tmp_path, 50, "best", *game, "--time", "0.2")
        assert done.returncode == 0, done.stderr
        assert "best move:" in done.stdout
        (line,) = done.stderr.splitlines()
        assert f"compiled search for '{game[0]}" in line and "ulimit -v" in line
        assert "'gamesolver compile' once without it" in line
        assert "searching in Python" in line


NEAR_THE_LIMIT = """
import resource
import numba
from games.ayoayo import accel, native_jit
for line in open("/proc/self/status"):
    if line.startswith("VmSize:"):
        limit = int(line.split()[1]) * 1024 + 8 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
print(accel.level_kernel() is None)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
def test_a_load_with_no_room_left_is_not_tried() -> None:
    """8 MB left under the limit (a tablebase worker forked near it has 1-2 MB): loading the
    cached kernels is not tried (numba's C code would fail at random: SIGSEGV, SIGABRT, a
    SystemError), one line says why, and the pure engine is used."""
    done = subprocess.run(
        [sys.executable, "-c", NEAR_THE_LIMIT],
        capture_output=True,
        text=True,
        env={**os.environ, "GAMESOLVER_NATIVE": "1"},
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stdout == "True\n", done.stderr
    (line,) = done.stderr.splitlines()
    assert re.search(r"cannot be loaded: [0-8] MB of address space is left under ulimit -v", line)
    assert "pure-Python engine" in line and "damaged" not in line


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS: Linux")
def test_connect_four_answers_in_python_where_numba_cannot_be_loaded() -> None:
    """Under 250 MB numba's LLVM library cannot be mapped: the compiled route's game answers
    in Python with one note, as Ayòayò does (it ended in 'cannot use: Could not find/load
    shared object file', exit 1)."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (250 << 20, 250 << 20))

    done = subprocess.run(
        [sys.executable, "-m", "zerosum", "best", "connect4", "--time", "0.2"],
        capture_output=True,
        text=True,
        env={**os.environ, "GAMESOLVER_NATIVE": "1"},
        timeout=60,
        cwd=ROOT,
        preexec_fn=limited,
    )
    assert done.returncode == 0, done.stderr
    assert "best move:" in done.stdout
    (line,) = done.stderr.splitlines()
    assert "the compiled kernel cannot be loaded (numba:" in line and "pure-Python" in line


class TestRoom:
    def test_a_compile_is_refused_when_the_room_is_short(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(resources, "address_space_limit", lambda: 400 << 20)
        monkeypatch.setattr(resources, "address_space_room", lambda: 60 << 20)
        with pytest.raises(KernelMemoryError, match=r"96 MB of address space, 60 MB is left"):
            kernel_memory.check_room("a_module_of_tests", "kernel")

    def test_no_limit_refuses_nothing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(resources, "address_space_limit", lambda: None)
        kernel_memory.check_room("a_module_of_tests", "kernel")

    def test_a_registered_need_holds_for_its_package(self) -> None:
        kernel_memory.need_to_compile("tests.a_package", 300 << 20)
        assert kernel_memory.need_of("tests.a_package.kernels") == 300 << 20
        assert kernel_memory.need_of("tests.a_packaged") == kernel_memory.DEFAULT_NEED


class TestShortOfMemory:
    """What a failed load is taken for: memory short, or a damaged entry (healed)."""

    def test_memory_errors_and_their_words_are_memory(self) -> None:
        assert short_of_memory(MemoryError())
        assert short_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory"))
        assert short_of_memory(RuntimeError("LLVM ERROR: out of memory"))
        wrapped = RuntimeError("wrapped")
        wrapped.__cause__ = MemoryError()
        assert short_of_memory(wrapped)

    def test_a_silent_failure_is_memory_only_when_little_room_is_left(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        silent = SystemError("error return without exception set")
        monkeypatch.setattr(resources, "address_space_room", lambda: 20 << 20)
        assert short_of_memory(silent)
        monkeypatch.setattr(resources, "address_space_room", lambda: 2 << 30)
        assert not short_of_memory(silent)
        monkeypatch.setattr(resources, "address_space_room", lambda: None)
        assert not short_of_memory(silent)
        assert not short_of_memory(ValueError("x.nbc fails its checksum"))

    def test_the_error_is_one_of_the_projects_and_crosses_process_boundaries(self) -> None:
        error = kernel_memory.load_failed("kernel", "SystemError: no word")
        assert isinstance(error, GameError) and isinstance(error, MemoryError)
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is KernelMemoryError and str(again) == str(error)

    def test_the_error_crosses_with_the_clusters_traceback_pickling(self) -> None:
        """The cluster's workers install tblib's exception pickling on every exception class
        (it unpickles through ``cls.__new__(cls)``): that failed with "MemoryError.__new__
        (KernelMemoryError) is not safe"."""
        pytest.importorskip("tblib")
        script = (
            "import pickle\n"
            "from solver import kernel_memory\n"
            "from tblib import pickling_support\n"
            "pickling_support.install()\n"  # every exception class known at this point
            "error = kernel_memory.load_failed('kernel', 'SystemError: no word')\n"
            "again = pickle.loads(pickle.dumps(error))\n"
            "print(type(again).__name__, str(again) == str(error))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert done.stdout == "KernelMemoryError True\n", done.stderr
