"""A damaged compile cache heals: each kind of damaged cache file is moved aside and compiled
again once, saying so in one line; a compile that fails too, or a cache that cannot be
written, leaves the answers to the pure engine or to a kernel compiled for the command.

The damage is done to a copy of the compiled cache in a temporary ``NUMBA_CACHE_DIR``, and
each case runs in a fresh process (numba loads a kernel once per process). The rules' three
entry points (``play``, ``is_terminal``, ``legal_mask``) are the victims: small kernels that
compile again in a second or two.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

numba = pytest.importorskip("numba")

from games.ayoayo import native_rules  # noqa: E402
from games.ayoayo.rules import AyoayoRules  # noqa: E402
from tests.full_disk import FullDisk, contents  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = ("play", "is_terminal", "legal_mask")

PROBE = """
import json, sys
import numpy as np
from games.ayoayo import accel
from games.ayoayo.rules import AyoayoRules
compiled = accel.compile_kernels()
rules = AyoayoRules()
start = rules.initial_state()
if compiled is None:
    from solver.engine import search
    from games import load_game
    value = search(load_game("ayoayo"), depth=2, native=False).value  # the pure engine
    print(json.dumps({"kernel": False, "value": value}))
    sys.exit(0)
from games.ayoayo import native_rules as nr
board = nr.board_array(start)
out = np.zeros(nr.WIDTH, np.int64)
legal = nr.play(board, 0, out)
print(json.dumps({"kernel": True, "play": [bool(legal), [int(x) for x in out[:15]]],
                  "is_terminal": bool(nr.is_terminal(board)),
                  "legal_mask": int(nr.legal_mask(board))}))
"""

FAILING_COMPILER = """
import numba.core.dispatcher as d
def refuse(self, *args, **kwargs):
    raise RuntimeError("LLVM ERROR: out of memory (simulated)")
d._FunctionCompiler.compile = refuse
"""


def _expected() -> dict[str, object]:
    rules = AyoayoRules()
    start = rules.initial_state()
    after = list(rules.result(start, 0))
    return {
        "kernel": True,
        "play": [True, after],
        "is_terminal": rules.is_terminal(start),
        "legal_mask": sum(1 << c for c in rules.actions(start)),
    }


def _source_cache() -> Path:
    """Where this process's compiled rules are cached (filled by ``make setup``)."""
    return Path(native_rules.play._cache.cache_path)


def _cache_subpath() -> str:
    """The folder numba uses under ``NUMBA_CACHE_DIR`` for this package's kernels."""
    locator = numba.core.caching._CacheLocator
    return str(locator.get_suitable_cache_subpath(native_rules.__file__))


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A copy of the compiled cache under a temporary NUMBA_CACHE_DIR; the kernels' folder."""
    folder = tmp_path / "numba" / _cache_subpath()
    folder.mkdir(parents=True)
    for path in _source_cache().iterdir():
        if path.suffix in (".nbi", ".nbc"):
            shutil.copy2(path, folder / path.name)
    return folder


def _data(folder: Path, name: str) -> Path:
    """The data file of entry point ``name``'s one cached overload."""
    files = getattr(native_rules, name)._cache._cache_file
    return folder / files._data_name(1)


def _index(folder: Path, name: str) -> Path:
    return folder / getattr(native_rules, name)._cache._cache_file._index_name


def _run(
    folder: Path, *, prefix: list[str] | None = None, before: str = ""
) -> tuple[dict[str, object], list[str]]:
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(folder.parent),
        "GAMESOLVER_NATIVE": "1",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [*(prefix or []), sys.executable, "-c", before + PROBE],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout), done.stderr.splitlines()


def _notes(lines: list[str], text: str) -> list[str]:
    return [line for line in lines if text in line]


def test_each_kind_of_damaged_cache_file_is_moved_aside_and_compiled_again(
    cache: Path,
) -> None:
    """Truncated, flipped, zeroed, junk in the index, two files swapped: each entry is moved
    aside with one line naming it, compiled again, and the next process loads it quietly."""
    raw = _data(cache, "play").read_bytes()
    _data(cache, "play").write_bytes(raw[: len(raw) // 2])  # truncated
    flipped = bytearray(_data(cache, "is_terminal").read_bytes())
    flipped[len(flipped) // 2] ^= 0xFF
    _data(cache, "is_terminal").write_bytes(bytes(flipped))
    _data(cache, "legal_mask").write_bytes(bytes(len(_data(cache, "legal_mask").read_bytes())))
    answer, err = _run(cache)
    assert answer == _expected()
    for name in ENTRIES:
        (note,) = _notes(err, f"cache entry for {name} could not be loaded")
        assert "moved aside" in note and "compiling it again" in note
    assert "fails its checksum" in _notes(err, "entry for is_terminal")[0]  # not linked
    assert len(list((cache / "damaged").glob("*/*.nbc"))) == 3
    answer, err = _run(cache)  # healed: loaded, nothing said
    assert answer == _expected() and err == []

    index = bytearray(_index(cache, "play").read_bytes())
    index[len(index) // 2 :] = os.urandom(len(index) - len(index) // 2)  # junk in the index
    _index(cache, "play").write_bytes(bytes(index))
    one, other = _data(cache, "is_terminal"), _data(cache, "legal_mask")
    first, second = one.read_bytes(), other.read_bytes()
    one.write_bytes(second)  # two cache files swapped
    other.write_bytes(first)
    answer, err = _run(cache)
    assert answer == _expected()
    assert len(_notes(err, "could not be loaded")) == 3
    assert "holds the code of 'legal_mask'" in _notes(err, "entry for is_terminal")[0]
    answer, err = _run(cache)
    assert answer == _expected() and err == []


def test_a_compile_that_fails_too_leaves_the_pure_engine_said_in_one_line(cache: Path) -> None:
    _data(cache, "play").write_bytes(b"junk")
    answer, err = _run(cache, before=FAILING_COMPILER)
    assert answer["kernel"] is False and answer["value"] is not None
    (note,) = _notes(err, "could not be loaded or compiled")
    assert "LLVM ERROR" in note and "pure-Python engine" in note


FULL_DISK = """
import resource, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))
"""


def test_a_full_disk_and_an_entry_that_cannot_be_moved_aside_are_stated_fallbacks(
    cache: Path,
) -> None:
    """No file can grow past 16 KB (what a full disk does to a write) and ``damaged`` is not a
    folder: the damaged entry is compiled for this command only, the entry compiled cannot be
    saved, the kernels answer, and each is said in one line."""
    for path in (_data(cache, "play"), _index(cache, "play")):
        path.unlink()  # not cached: compiled, then its save fails
    _data(cache, "legal_mask").write_bytes(b"junk")  # damaged: cannot be moved aside
    (cache / "damaged").write_text("not a folder")
    answer, err = _run(cache, before=FULL_DISK)
    assert answer == _expected(), err
    (aside,) = _notes(err, "entry for legal_mask could not be loaded")
    assert "nor moved aside" in aside and "for this command only" in aside
    (unsaved,) = _notes(err, "could not save the compiled kernel")
    assert "File too large" in unsaved and "NUMBA_CACHE_DIR" in unsaved


def test_a_really_full_disk_under_the_cache_is_a_stated_fallback(full_disk: FullDisk) -> None:
    """``NUMBA_CACHE_DIR`` on a file system filled to its last byte: the entry that is not
    cached is compiled for this command, the kernels answer, one line says it could not be
    saved, and no partly written cache file is left."""
    folder = Path("numba") / _cache_subpath()
    entries = [p for p in _source_cache().iterdir() if p.suffix in (".nbi", ".nbc")]

    def copied(root: Path) -> None:
        (root / folder).mkdir(parents=True)
        for path in entries:
            shutil.copy2(path, root / folder / path.name)
        for path in (_data(root / folder, "play"), _index(root / folder, "play")):
            path.unlink()  # not cached: compiled, then its save fails

    size = sum(path.stat().st_size for path in entries) + (1 << 20)
    root = full_disk(copied, size=size)
    before = contents(root)
    answer, err = _run(root / folder)
    assert answer == _expected(), err
    (unsaved,) = _notes(err, "could not save the compiled kernel")
    assert "No space left on device" in unsaved and "NUMBA_CACHE_DIR" in unsaved
    assert contents(root) == before


SHORT_OF_MEMORY = """
import numba.core.caching
from solver import numba_cache, resources
def short(self, *args, **kwargs):
    raise SystemError("error return without exception set")  # numba's C code, out of memory
numba_cache.CachedKernel._light_load = short
numba.core.caching.Cache.load_overload = short
resources.address_space_limit = lambda: 400 << 20
resources.address_space_room = lambda: 40 << 20  # enough to try a load, not to finish it
"""


def test_a_load_short_of_memory_is_said_as_such_and_the_entry_kept(cache: Path) -> None:
    """Under ``ulimit -v`` with 40 MB left, loading the cached kernels fails the way numba's C
    code does then: one line says memory was short and names the limit, nothing is called
    damaged or moved aside, nothing is compiled, and the pure engine answers."""
    before = {path.name: path.read_bytes() for path in cache.iterdir()}
    answer, err = _run(cache, before=FAILING_COMPILER + SHORT_OF_MEMORY)
    assert answer["kernel"] is False and answer["value"] is not None
    assert len(err) == 1, err
    assert "out of memory under ulimit -v (400 MB): raise it" in err[0]
    assert "the cache entry is kept" in err[0] and "pure-Python engine" in err[0]
    assert not (cache / "damaged").exists()
    assert {path.name: path.read_bytes() for path in cache.iterdir()} == before
