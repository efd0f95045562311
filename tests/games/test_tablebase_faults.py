"""Fault injection on tablebase files: damaged, swapped, stale and partial files.

Each case asserts the promise: the file is refused naming it and why (or the answer is
correct), and a build replaces exactly what is wrong.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import attrs
import numpy as np
import pytest

from games.ayoayo import Ayoayo, tablebase_build, tablebase_index
from games.ayoayo import tablebase as tablebase_module
from games.ayoayo import tablebase_files as files
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_build import PURE, build, recorded_seconds
from games.ayoayo.tablebase_files import (
    CHECKSUMS,
    DISTANCES,
    HEADER_SIZE,
    VALUES,
    Lineage,
    TablebaseFileError,
    level_path,
    lower_lineage,
    read_level,
    verified_header,
    write_level,
    write_tables,
)
from games.ayoayo.tablebase_moves import LevelMoves, level_moves
from tests.solver.test_workers import children, gone
from zerosum import worker_counts
from zerosum.cli import main
from zerosum.worker_counts import worker_limit

GAME = Ayoayo(cache_size=0)
ROOT = Path(__file__).resolve().parents[2]
STATE_4 = GAME.state_from([[0, 0, 0, 0, 1, 2], [1, 0, 0, 0, 0, 0]], captured=(24, 20))
STATE_8 = GAME.state_from([[0, 0, 0, 0, 1, 2], [1, 0, 0, 2, 2, 0]], captured=(20, 20))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0, 4 and 8, built once."""
    directory = tmp_path_factory.mktemp("reference")
    build(8, directory)
    return directory


@pytest.fixture
def copy(reference: Path, tmp_path: Path) -> Path:
    """A fresh copy of the reference levels (without the remembered checksums)."""
    target = tmp_path / "tb"
    shutil.copytree(reference, target, ignore=shutil.ignore_patterns(CHECKSUMS))
    files._verified.clear()  # as a new process
    return target


def _same_as(reference: Path, directory: Path, *levels: int) -> bool:
    return all(
        level_path(directory, n, kind).read_bytes() == level_path(reference, n, kind).read_bytes()
        for n in levels
        for kind in (VALUES, DISTANCES)
    )


def _wrong_level_4(directory: Path) -> None:
    """Level 4 with some values changed, its header made consistent (a wrong build)."""
    values = read_level(level_path(directory, 4)).values.copy()
    values[0, :50] = np.clip(values[0, :50].astype(np.int16) + 4, -48, 48).astype(np.int8)
    distances = read_level(level_path(directory, 4, DISTANCES), kind=DISTANCES).values
    write_tables(directory, 4, values, distances.copy(), built_on=lower_lineage(directory, 4))


class TestOldFormat:
    """Files of format version 1 are refused with the command that rebuilds them."""

    def test_version_1_is_refused_with_a_rebuild_hint(self, copy: Path) -> None:
        path = level_path(copy, 8)
        raw = bytearray(path.read_bytes())
        raw[8:12] = struct.pack("<I", 1)
        path.write_bytes(bytes(raw))
        with pytest.raises(TablebaseFileError, match="format version 1") as e:
            read_level(path, seeds=8)
        assert str(path) in str(e.value)
        assert "gamesolver tablebase build ayoayo --seeds 8" in str(e.value)


class TestLineage:
    """A level is used only on the lower levels it was built from."""

    def test_a_build_on_a_wrong_lower_level_is_undone_by_its_repair(
        self, reference: Path, copy: Path
    ) -> None:
        """Level 8 built on a wrong level 4 is refused once level 4 is repaired, then rebuilt
        right."""
        for n in (4, 8):
            for kind in (VALUES, DISTANCES):
                level_path(copy, n, kind).unlink()
        build(4, copy)
        _wrong_level_4(copy)
        build(8, copy)  # on the wrong level 4: self-consistent, so used
        assert not _same_as(reference, copy, 8)
        for kind in (VALUES, DISTANCES):  # the repair of level 4
            shutil.copyfile(level_path(reference, 4, kind), level_path(copy, 4, kind))
        table = Tablebase(copy)
        assert table.levels == (0, 4)
        assert "was built on another level 4" in table.problems()[0]
        assert table.covered(8) == "damaged" and table.probe(STATE_8) is None
        reports = build(8, copy)
        assert [r.built for r in reports] == [0, 0, 1]
        assert _same_as(reference, copy, 0, 4, 8)

    def test_a_level_whose_lower_level_is_missing_is_refused(self, copy: Path) -> None:
        for kind in (VALUES, DISTANCES):
            level_path(copy, 4, kind).unlink()
        table = Tablebase(copy)
        assert table.levels == (0,)
        assert "built on level 4, which is missing" in table.problems()[0]

    def test_values_edited_with_a_fixed_checksum_are_refused(self, copy: Path) -> None:
        path = level_path(copy, 4)
        raw = bytearray(path.read_bytes())
        raw[HEADER_SIZE] ^= 1
        raw[32:36] = struct.pack("<I", zlib.crc32(bytes(raw[HEADER_SIZE:])))
        path.write_bytes(bytes(raw))
        with pytest.raises(TablebaseFileError, match="lineage that does not match"):
            verified_header(copy, 4)

    def test_distances_of_another_build_are_refused(self, reference: Path, copy: Path) -> None:
        """The distances of a wrong level 4 beside the right values: refused, then rebuilt."""
        _wrong_level_4(copy)
        shutil.copyfile(level_path(reference, 4), level_path(copy, 4))
        table = Tablebase(copy)
        assert table.levels == (0, 4, 8)
        assert table.distance(STATE_4) is None
        (problem,) = table.problems()
        assert "ayoayo-04.dist" in problem and "another build of level 4" in problem
        assert [r.built for r in build(8, copy)] == [0, 1, 0]
        assert _same_as(reference, copy, 0, 4, 8)

    def test_distances_of_another_level_are_refused(self, reference: Path, copy: Path) -> None:
        shutil.copyfile(level_path(reference, 8, DISTANCES), level_path(copy, 4, DISTANCES))
        table = Tablebase(copy)
        assert table.distance(STATE_4) is None and table.probe(STATE_4) is not None
        assert "holds level 8, not level 4" in table.problems()[0]

    def test_a_distances_file_needs_a_lineage(self, tmp_path: Path) -> None:
        with pytest.raises(ValueError, match="need the lineage"):
            write_level(tmp_path, 0, np.zeros((1, 1), np.uint16), kind=DISTANCES)


class TestDamagedIsNotUncovered:
    """A probe tells a level not built from a damaged one, and info names the file."""

    def test_damaged_values(self, copy: Path) -> None:
        path = level_path(copy, 8)
        raw = bytearray(path.read_bytes())
        raw[-1] ^= 0x7F
        path.write_bytes(bytes(raw))
        table = Tablebase(copy)
        assert table.covered(8) == "damaged" and table.covered(12) == "not built"
        assert table.probe(STATE_8) is None
        (problem,) = table.problems()
        assert str(path) in problem and "fails its checksum" in problem
        rows = {row["seeds"]: row for row in Tablebase(copy).info()}
        assert "fails its checksum" in rows[8]["status"] and rows[4]["status"] == "ok"

    def test_damaged_or_missing_distances_are_reported_and_rebuilt(
        self, reference: Path, copy: Path
    ) -> None:
        level_path(copy, 0, DISTANCES).unlink()
        path = level_path(copy, 4, DISTANCES)
        path.write_bytes(path.read_bytes()[:-2])
        rows = {row["seeds"]: row for row in Tablebase(copy).info()}
        assert rows[0]["distances"] == "missing"
        assert "holds" in rows[4]["distances"] and "truncated" in rows[4]["distances"]
        assert rows[8]["distances"] == "ok"
        assert [r.built for r in build(8, copy)] == [1, 1, 0]
        assert _same_as(reference, copy, 0, 4, 8)

    def test_a_fifo_named_like_a_level_is_refused_at_once(self, copy: Path) -> None:
        path = level_path(copy, 8)
        path.unlink()
        os.mkfifo(path)
        found: list[object] = []
        worker = threading.Thread(target=lambda: found.append(Tablebase(copy).problems()))
        worker.start()
        worker.join(10)
        assert not worker.is_alive(), "opening a FIFO blocked"
        problems = found[0]
        assert isinstance(problems, list) and "not a regular file" in problems[0]

    def test_a_build_record_with_a_bad_time_is_shown_without_one(self, copy: Path) -> None:
        (copy / "ayoayo-08.json").write_text(json.dumps({"seconds": "soon"}))
        rows = {row["seeds"]: row for row in Tablebase(copy).info()}
        assert rows[8]["seconds"] is None
        assert [recorded_seconds(x) for x in (1, 2.5, float("nan"), -1, True, "1")] == [
            1.0,
            2.5,
            None,
            None,
            None,
            None,
        ]


def _damage_keeping_time(path: Path, at: int) -> None:
    """Flip the byte at ``at`` in place, then put back the file's modification time: what bit
    rot, a restore or a copy tool that keeps times leaves (same size, time and inode)."""
    before = os.stat(path)
    with path.open("r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 0x5A]))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


class TestChecksumsOncePerFile:
    """Which files were verified is remembered (size, time, inode) to list the levels without
    reading them; the bytes a probe uses are checked in the process that uses them."""

    def test_listing_reads_no_checksum_and_a_probe_checks_only_its_level(
        self, copy: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        calls: list[int] = []
        real = files._crc

        def counting(values: np.ndarray) -> int:
            calls.append(values.size)
            return real(values)

        assert Tablebase(copy).levels == (0, 4, 8)
        assert (copy / CHECKSUMS).exists()
        files._verified.clear()  # a new process: the checksums come from the file
        monkeypatch.setattr(files, "_crc", counting)
        table = Tablebase(copy)
        assert table.levels == (0, 4, 8) and calls == []
        assert table.probe(STATE_8) is not None
        assert calls == [read_level(level_path(copy, 8), verify=False).values.size]

    def test_values_damaged_with_their_time_kept_are_never_exact(self, copy: Path) -> None:
        """Level 8's values damaged after they were verified, size, time and inode kept: the
        probe refuses the level naming it, and a fresh listing no longer trusts it."""
        table = Tablebase(copy)
        assert table.levels == (0, 4, 8)  # verified and remembered
        files._verified.clear()
        path = level_path(copy, 8)
        values = read_level(path).values
        row, column = 0, 0
        index = row * values.shape[1] + column
        _damage_keeping_time(path, HEADER_SIZE + index)
        files._verified.clear()  # a later process
        table = Tablebase(copy)
        assert table.probe(STATE_8) is None
        assert table.covered(8) == "damaged"
        (problem,) = table.problems()
        assert str(path) in problem and "fails its checksum" in problem
        files._verified.clear()
        assert Tablebase(copy).levels == (0, 4)  # forgotten as verified
        rows = {row["seeds"]: row for row in Tablebase(copy).info()}
        assert "fails its checksum" in rows[8]["status"]

    def test_distances_damaged_with_their_time_kept_are_refused_when_read(self, copy: Path) -> None:
        table = Tablebase(copy)
        assert table.distance(STATE_8) is not None  # verified; block checksums kept
        assert files.BlockChecksums.where(level_path(copy, 8, DISTANCES)).exists()
        seeds = 8
        row = (STATE_8[12] - tablebase_index.splits(seeds)[0]) >> 2
        column = tablebase_index.rank(tablebase_index.view_of(STATE_8, 0))
        entries = read_level(level_path(copy, 8, DISTANCES), kind=DISTANCES, verify=False)
        at = HEADER_SIZE + 2 * (row * entries.values.shape[1] + column)
        path = level_path(copy, 8, DISTANCES)
        _damage_keeping_time(path, at)
        files._verified.clear()
        table = Tablebase(copy)
        assert table.probe(STATE_8) is not None  # the values are intact
        assert table.distance(STATE_8) is None
        assert any(str(path) in p and "checksum" in p for p in table.problems())
        rows = {row["seeds"]: row for row in Tablebase(copy).info()}
        assert "fails its checksum" in rows[8]["distances"] and rows[8]["status"] == "ok"

    def test_damaged_block_checksums_are_made_again(self, copy: Path) -> None:
        table = Tablebase(copy)
        expected = table.distance(STATE_8)
        kept = files.BlockChecksums.where(level_path(copy, 8, DISTANCES))
        raw = bytearray(kept.read_bytes())
        raw[40] ^= 1
        kept.write_bytes(bytes(raw))
        files._verified.clear()
        assert Tablebase(copy).distance(STATE_8) == expected
        assert kept.read_bytes() != bytes(raw)

    def test_a_file_changed_after_its_check_is_checked_again(self, copy: Path) -> None:
        assert Tablebase(copy).levels == (0, 4, 8)
        path = level_path(copy, 8)
        raw = bytearray(path.read_bytes())
        raw[-1] ^= 0x7F
        path.write_bytes(bytes(raw))  # a new size-time-inode: checked again
        assert Tablebase(copy).levels == (0, 4)

    def test_a_damaged_cache_is_ignored(self, copy: Path) -> None:
        (copy / CHECKSUMS).write_text("{not json")
        assert Tablebase(copy).levels == (0, 4, 8)
        (copy / CHECKSUMS).write_text(json.dumps({"ayoayo-08.tb": "x"}))
        files._verified.clear()
        assert Tablebase(copy).levels == (0, 4, 8)


class TestTruncatedUnderAReader:
    """A level truncated in place while a process uses it never crashes that process."""

    def test_truncated_after_it_was_read(self, copy: Path) -> None:
        table = Tablebase(copy)
        value = table.probe(STATE_8)
        assert value is not None
        os.truncate(level_path(copy, 8), HEADER_SIZE + 10)
        assert table.probe(STATE_8) == value  # read into memory, not mapped
        table.refresh()
        assert table.probe(STATE_8) is None and "holds" in table.problems()[0]

    def test_truncated_between_header_and_values(self, copy: Path) -> None:
        table = Tablebase(copy)
        assert table.levels == (0, 4, 8)  # headers checked, values not yet read
        os.truncate(level_path(copy, 8), HEADER_SIZE + 10)
        assert table.probe(STATE_8) is None
        assert "ayoayo-08.tb" in table.problems()[0]

    def test_distances_truncated_while_they_are_read(self, copy: Path) -> None:
        """Distances are read an entry at a time: one cut short under the reader is refused,
        naming the file, and the reader goes on without distances."""
        table = Tablebase(copy)
        found = table.distance(STATE_8)
        assert found is not None
        os.truncate(level_path(copy, 8, DISTANCES), HEADER_SIZE + 10)
        assert table.distance(STATE_8) is None
        assert table.probe(STATE_8) is not None
        assert any("ayoayo-08.dist" in p and "truncated" in p for p in table.problems())

    def test_distances_are_read_entry_by_entry(self, copy: Path) -> None:
        """Every distance read one at a time equals the file's, and nothing is loaded."""
        entries = files.LevelEntries(level_path(copy, 8, DISTANCES), kind=DISTANCES, seeds=8)
        whole = read_level(level_path(copy, 8, DISTANCES), kind=DISTANCES, seeds=8).values
        rng = np.random.default_rng(8)
        for row, column in zip(
            rng.integers(0, whole.shape[0], 500), rng.integers(0, whole.shape[1], 500), strict=True
        ):
            assert entries[int(row), int(column)] == int(whole[row, column])
        with pytest.raises(IndexError, match="outside"):
            entries[whole.shape[0], 0]
        entries.close()
        with pytest.raises(ValueError, match="closed"):
            entries[0, 0]

    def test_damaged_distances_are_refused_entry_by_entry(self, copy: Path) -> None:
        """A distances file edited after its checksum was remembered is checked again when
        opened for reading entries, and refused."""
        path = level_path(copy, 8, DISTANCES)
        with path.open("r+b") as f:
            f.seek(HEADER_SIZE + 100)
            pair = f.read(2)
            f.seek(HEADER_SIZE + 100)
            f.write(bytes(b ^ 0xFF for b in pair))
        with pytest.raises(TablebaseFileError, match="checksum"):
            files.LevelEntries(path, kind=DISTANCES, seeds=8)


def test_lineage_chains_differ_with_their_parts() -> None:
    assert len({Lineage(a, b).chain for a in (0, 1) for b in (0, 1)}) == 4


def _moves_then_die(seeds: int, start: int, stop: int) -> LevelMoves:
    """The moves of a block, except that the worker doing level 8's second block dies."""
    if seeds == 8 and start > 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return level_moves(seeds, start, stop)


class TestBuildWorkers:
    """A build on worker processes ends cleanly when one dies, and its workers are bounded."""

    def test_a_killed_worker_ends_the_build_naming_it(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        kernel = attrs.evolve(PURE, moves=_moves_then_die)
        monkeypatch.setattr(
            Ayoayo, "tablebase", lambda self, d=None: Tablebase(d, builder=lambda: kernel)
        )
        before = set(multiprocessing.active_children())
        argv = ["tablebase", "build", "ayoayo", "--seeds", "8", "--workers", "2"]
        code = main([*argv, "--dir", str(tmp_path)])
        err = capsys.readouterr().err
        assert code == 1 and "Traceback" not in err
        assert "worker process tablebase-worker-" in err and "SIGKILL" in err
        assert set(multiprocessing.active_children()) <= before
        assert not level_path(tmp_path, 8).exists() and level_path(tmp_path, 4).exists()
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp")]

    def test_too_many_workers_are_refused_naming_the_limit(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        limit, _ = worker_limit()
        argv = ["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", str(tmp_path)]
        code = main([*argv, "--workers", str(limit + 1)])
        err = capsys.readouterr().err
        assert code == 2 and f"invalid --workers {limit + 1}: expected 1 to {limit}" in err
        assert not tmp_path.joinpath("ayoayo-00.tb").exists()

    def test_workers_are_bounded_by_memory(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(worker_counts, "cpus", lambda: 64)
        monkeypatch.setattr(
            worker_counts, "available_memory", lambda: 3 * worker_counts.WORKER_BYTES
        )
        limit, bound = worker_limit()
        assert limit == 3 and "memory" in bound


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sent", "code"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -signal.SIGKILL)],
)
def test_a_signal_during_a_build_leaves_no_process_and_no_partial_level(
    reference: Path, tmp_path: Path, sent: int, code: int
) -> None:
    """Ctrl-C, SIGTERM or kill -9 while level 12 is built: the build ends (130, 143), its
    workers end with it, and no file of level 12 is left; a rerun builds it whole."""
    directory = tmp_path / "tb"
    shutil.copytree(reference, directory)
    argv = ["tablebase", "build", "ayoayo", "--seeds", "12", "--workers", "2"]
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", *argv, "--dir", str(directory)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "level 12: building" in line:
            break
    workers = children(process.pid)
    assert len(workers) == 2
    process.send_signal(sent)
    try:
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == code and "Traceback" not in err
    assert gone(workers)
    assert not [p.name for p in directory.iterdir() if "12" in p.name]


class TestBuildDirectory:
    """A build checks its directory and disk before the work and cleans what a kill left."""

    def test_stale_temporary_files_are_removed(self, copy: Path) -> None:
        stale = copy / ".tmp-ayoayo-12-abc.tb"
        stale.write_bytes(b"half a level")
        build(8, copy)
        assert not stale.exists()

    def test_a_second_build_at_once_is_refused(self, copy: Path) -> None:
        with tablebase_build._building(copy), pytest.raises(TablebaseFileError, match="another"):
            build(8, copy)

    def test_an_unusable_directory_is_refused_first(self, tmp_path: Path) -> None:
        (tmp_path / "file").write_text("")
        with pytest.raises(TablebaseFileError, match="cannot build in"):
            build(4, tmp_path / "file" / "tb")

    def test_a_full_disk_is_refused_before_the_level(
        self, copy: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(
            tablebase_build.shutil, "disk_usage", lambda _: shutil._ntuple_diskusage(1, 1, 1000)
        )
        with pytest.raises(
            TablebaseFileError,
            match=r"no space left in .* for level 12: it needs 16\.3 MB and 1 kB is free",
        ):
            build(12, copy)
        assert not level_path(copy, 12).exists()


def _entry_offset(directory: Path, state: tuple[int, ...], kind: files.FileKind = VALUES) -> int:
    """Where ``state``'s own entry is in its level's file (the mover's view)."""
    seeds = 48 - state[12] - state[13]
    mover = state[14]
    row = (state[12 + mover] - tablebase_index.splits(seeds)[0]) >> 2
    column = tablebase_index.rank(tablebase_index.view_of(state, mover))
    boards = files.read_header(level_path(directory, seeds, kind), kind=kind).boards
    return HEADER_SIZE + np.dtype(kind.dtype).itemsize * (row * boards + column)


class TestALevelTooLargeForTheMemory:
    """A level whose values cannot be allocated (a memory limit, ``ulimit -v``) is refused as
    unreadable, naming it, and the levels below still answer: a stated fallback, not a
    command that ends in "ran out of memory"."""

    @pytest.fixture
    def short_of_memory(self, copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        """Level 8's values cannot be allocated; the others can."""
        read = tablebase_module.read_level

        def read_level(path: Path, *, seeds: int, **kwargs: object) -> object:
            if seeds == 8:
                raise MemoryError("Unable to allocate 1.36 MiB for an array")
            return read(path, seeds=seeds, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(tablebase_module, "read_level", read_level)
        return copy

    def test_the_level_is_unreadable_and_the_levels_below_answer(
        self, short_of_memory: Path
    ) -> None:
        tablebase = Tablebase(short_of_memory)
        assert tablebase.probe(STATE_8) is None and tablebase.probe(STATE_4) is not None
        assert tablebase.covered(8) == "unreadable" and tablebase.covered(4) == "ok"
        (problem,) = tablebase.problems()
        assert str(level_path(short_of_memory, 8)) in problem
        assert "cannot be read into memory" in problem and "ulimit -v" in problem

    def test_analyse_warns_and_searches(
        self, short_of_memory: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        position = "[[0,0,0,0,1,2],[1,0,0,2,2,0]] captured 20,20"
        code = main(["analyse", "ayoayo", "-d", "3", "--tablebase-dir", str(short_of_memory),
                     "--position", position])  # fmt: skip
        out, err = capsys.readouterr()
        assert code == 0 and "exact" not in out and "Traceback" not in err
        assert "cannot be read into memory" in err and "ran out of memory" not in err


class TestDamagedIsNotAbsentOnTheCommandLine:
    """Every front end tells a level not built from a damaged or unreadable one, names the
    file and says what it did instead; a directory that cannot be used is an error."""

    POSITION = "[[0,0,0,0,1,2],[1,0,0,2,2,0]] captured 20,20"

    def _run(self, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    def test_probe_says_damaged_naming_the_file(
        self, copy: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = level_path(copy, 8)
        _damage_keeping_time(path, _entry_offset(copy, STATE_8))
        argv = ["tablebase", "probe", "ayoayo", "--dir", str(copy), "--position", self.POSITION]
        code, out, _ = self._run(capsys, *argv)
        assert code == 1 and "not covered (damaged)" in out and str(path) in out
        assert "fails its checksum" in out and "has levels" not in out
        code, out, _ = self._run(capsys, *argv, "--json")
        coverage = json.loads(out)["coverage"]
        assert coverage["status"] == "damaged" and coverage["file"] == str(path)
        (unused,) = coverage["unused"]
        assert unused["status"] == "damaged" and coverage["reason"].endswith(unused["reason"])
        level_path(copy, 8).unlink()
        code, out, _ = self._run(capsys, *argv, "--json")
        assert json.loads(out)["coverage"]["status"] == "not built"

    def test_analyse_and_best_say_it_and_search_instead(
        self, copy: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The position's own entry damaged, its time kept: no "exact", no "the oracle is
        inconsistent", a warning naming the file, and a search."""
        path = level_path(copy, 8)
        _damage_keeping_time(path, _entry_offset(copy, STATE_8))
        where = ["--tablebase-dir", str(copy), "--position", self.POSITION]
        code, out, err = self._run(capsys, "analyse", "ayoayo", "--depth", "3", *where)
        assert code == 0 and "exact" not in out and "inconsistent" not in out + err
        assert "level 8 is damaged" in err and str(path) in err and "searching instead" in err
        code, out, err = self._run(capsys, "analyse", "ayoayo", "--depth", "3", "--json", *where)
        answer = json.loads(out)
        assert code == 0 and not answer["exact"] and answer["source"] != "oracle"
        assert answer["tablebase_coverage"]["status"] == "damaged"
        assert answer["tablebase_coverage"]["file"] == str(path)
        code, out, err = self._run(capsys, "best", "ayoayo", "--depth", "2", *where)
        assert code == 0 and "level 8 is damaged" in err and "exact" not in out
        code, out, err = self._run(capsys, "best", "ayoayo", "--depth", "2", "--json", *where)
        assert json.loads(out)["tablebase_coverage"]["status"] == "damaged"

    def test_a_damaged_lower_level_is_named_before_the_search(
        self, copy: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Level 4 damaged after it was verified, its time kept: analysing a position of level
        8 warns naming level 4's file before searching (its values are checked when read)."""
        assert Tablebase(copy).levels == (0, 4, 8)  # verified and remembered
        files._verified.clear()
        _damage_keeping_time(level_path(copy, 4), HEADER_SIZE + 7)
        where = ["--tablebase-dir", str(copy), "--position", self.POSITION, "--depth", "2"]
        code, _, err = self._run(capsys, "analyse", "ayoayo", *where)
        assert code == 0 and "ayoayo-04.tb' fails its checksum" in err
        assert "searched instead" in err

    def test_info_says_damaged(self, copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
        _damage_keeping_time(level_path(copy, 8), HEADER_SIZE + 3)
        argv = ["tablebase", "info", "ayoayo", "--dir", str(copy)]
        code, out, _ = self._run(capsys, *argv)
        assert code == 0 and "damaged" in out and "ayoayo-08.tb" in out
        code, out, _ = self._run(capsys, *argv, "--json")
        rows = {row["seeds"]: row for row in json.loads(out)["levels"]}
        assert rows[8]["values_state"] == "damaged" and rows[4]["values_state"] == "ok"
        assert rows[8]["distances_state"] == "damaged"  # its values are

    @pytest.mark.parametrize("kind", ["missing", "file", "/dev/null"])
    def test_a_directory_that_cannot_be_used_is_an_error(
        self,
        tmp_path: Path,
        kind: str,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.chdir(tmp_path)
        directory = {"missing": "nowhere", "file": "f", "/dev/null": "/dev/null"}[kind]
        if kind == "file":
            Path(directory).write_text("x")
        position = ["--position", self.POSITION]
        for argv in (
            ["tablebase", "info", "ayoayo", "--dir", directory],
            ["tablebase", "probe", "ayoayo", "--dir", directory, *position],
            ["analyse", "ayoayo", "--tablebase-dir", directory, "--depth", "1", *position],
            ["best", "ayoayo", "--tablebase-dir", directory, "--depth", "1", *position],
        ):
            code, out, err = self._run(capsys, *argv)
            assert code == 2 and repr(directory) in err, argv
            assert "does not exist" in err or "is not a directory" in err
            assert err.count("\n") == 1 and out == ""


def _without_root_privilege() -> list[str]:
    """A command prefix that runs without the power to read what its mode forbids: none for a
    user that is not root; for root, dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: mode 000 cannot be made to refuse root")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_unreadable_folders_and_files_are_told_from_damaged_ones(copy: Path) -> None:
    """A folder of mode 000 as --dir is an error naming it; a level file of mode 000 is
    "unreadable" (not "damaged", not "not built") in info and probe."""
    command = [*_without_root_privilege(), sys.executable, "-m", "zerosum"]
    env = {**os.environ, "GAMESOLVER_NATIVE": "0"}
    position = "[[0,0,0,0,1,2],[1,0,0,0,0,0]] captured 24,20"
    copy.chmod(0)
    try:
        done = subprocess.run(
            [*command, "tablebase", "info", "ayoayo", "--dir", copy.name],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            cwd=copy.parent,
        )
    finally:
        copy.chmod(0o755)
    assert done.returncode == 2 and "cannot be read (Permission denied)" in done.stderr
    assert f"--dir {copy.name!r}" in done.stderr and "Traceback" not in done.stderr
    level_path(copy, 4).chmod(0)
    probe = [*command, "tablebase", "probe", "ayoayo", "--dir", str(copy), "--json"]
    done = subprocess.run(
        [*probe, "--position", position], capture_output=True, text=True, env=env, timeout=60
    )
    coverage = json.loads(done.stdout)["coverage"]
    assert done.returncode == 1 and coverage["status"] == "unreadable"
    assert (
        "Permission denied" in coverage["reason"] and str(level_path(copy, 4)) in coverage["reason"]
    )
