"""The out-of-core builder: partitions on disk give the in-memory builder's bytes, and resume."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import tablebase_build, tablebase_partitions, tablebase_plan
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from games.ayoayo.tablebase_index import levels_up_to
from games.ayoayo.tablebase_moves import LevelMoves
from games.ayoayo.tablebase_partitions import (
    PartitionLayout,
    ScratchTooLargeError,
    layout_for,
    parse_size,
    scratch_directory,
)

native_partitions = pytest.importorskip("games.ayoayo.native_partitions")
native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")
KERNEL = native_tablebase.KERNEL
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0-8 built in memory (the reference bytes)."""
    directory = tmp_path_factory.mktemp("whole")
    tablebase_build.build(8, directory, kernel=KERNEL)
    return directory


def assert_same(built: Path, reference: Path, up_to: int) -> None:
    for n in levels_up_to(up_to):
        for kind in (VALUES, DISTANCES):
            a = level_path(built, n, kind).read_bytes()
            b = level_path(reference, n, kind).read_bytes()
            assert a == b, level_path(built, n, kind).name


class TestLayout:
    def test_partitions_cover_the_level(self) -> None:
        """Consecutive rank ranges of one power-of-two size, the last one shorter."""
        layout = PartitionLayout(8, 75582, 1 << 12)
        ranges = [layout.bounds(k) for k in range(layout.parts)]
        assert ranges[0][0] == 0 and ranges[-1][1] == 75582
        assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))

    def test_a_size_that_is_not_a_power_of_two_is_refused(self) -> None:
        with pytest.raises(ValueError, match="power of two, got 1000"):
            PartitionLayout(8, 75582, 1000)

    def test_the_budget_sets_the_partition_size(self) -> None:
        """Twice the memory, half the partitions (at least one; never above the level)."""
        small, large = layout_for(20, 1 << 30), layout_for(20, 1 << 31)
        assert small.parts == 2 * large.parts - (small.parts % 2)
        assert layout_for(4, 1 << 30).parts == 1

    @pytest.mark.parametrize(
        ("text", "error"), [("5x", "not a size"), ("", "not a size"), ("1M", "too small")]
    )
    def test_bad_sizes_say_what_is_valid(self, text: str, error: str) -> None:
        with pytest.raises(ValueError, match=error):
            parse_size(text)

    def test_sizes(self) -> None:
        assert parse_size("2G") == 2 << 30 and parse_size("1.5g") == 3 << 29

    def test_a_level_without_the_scratch_disk_is_refused_first(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(tablebase_partitions, "free_disk", lambda path: 10**6)
        builder = native_partitions.PartitionedBuilder(tmp_path, partition=1 << 10)
        with pytest.raises(ScratchTooLargeError, match="level 8's scratch files: they need about"):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert not level_path(tmp_path, 0).exists()


class TestSameBytes:
    def test_many_small_partitions(self, whole: Path, tmp_path: Path) -> None:
        """Levels 0-8 in partitions of 2048 boards (37 at level 8), the scratch removed."""
        builder = native_partitions.PartitionedBuilder(tmp_path / "scratch", partition=1 << 11)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert_same(tmp_path, whole, 8)
        assert not any((tmp_path / "scratch").iterdir())

    def test_frontiers_spilled_to_disk(self, whole: Path, tmp_path: Path) -> None:
        """With no memory for frontiers or updates they go through files: the same bytes."""
        builder = native_partitions.PartitionedBuilder(
            tmp_path / "scratch", partition=1 << 12, memory=1 << 14
        )
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert_same(tmp_path, whole, 8)

    def test_the_solve_keeps_move_counts_not_the_moves(self, whole: Path, tmp_path: Path) -> None:
        """Once the predecessor lists are built, each partition's moves' table gives way to
        its boards' move counts (a byte each instead of 24), and the spill is gone."""
        seen: list[set[str]] = []
        scratch = tmp_path / "scratch"

        def look(step: str) -> None:
            if step.startswith(("values-", "plies-")) and scratch_directory(scratch, 8).exists():
                seen.append({p.name.split("-")[0] for p in scratch_directory(scratch, 8).iterdir()})

        builder = native_partitions.PartitionedBuilder(scratch, partition=1 << 12, step=look)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert_same(tmp_path, whole, 8)
        assert len(seen) == 2 * len(native_partitions._split_groups(8))
        for names in seen:
            assert "degree" in names
            assert not names & {"stay", "spill"}

    def test_level_12_in_many_partitions(self, tmp_path: Path) -> None:
        """Level 12 in partitions of 2**16 boards (each group split many times) equals the
        in-memory build's bytes. Levels to 16 were built here before: 83 s of the suite for the
        same code at a larger size, which `benchmarks/tablebase_out_of_core.py --seeds 16`
        builds both ways and compares."""
        tablebase_build.build(12, tmp_path / "whole", kernel=KERNEL)
        for n in levels_up_to(8):
            for kind in (VALUES, DISTANCES):
                target = level_path(tmp_path / "parts", n, kind)
                target.parent.mkdir(exist_ok=True)
                target.write_bytes(level_path(tmp_path / "whole", n, kind).read_bytes())
        builder = native_partitions.PartitionedBuilder(tmp_path / "scratch", partition=1 << 16)
        tablebase_build.build(12, tmp_path / "parts", kernel=KERNEL, out_of_core=builder)
        assert_same(tmp_path / "parts", tmp_path / "whole", 12)


class _Killed(Exception):
    pass


class TestResume:
    @pytest.mark.parametrize(
        "at", ["moves-10", "spill", "reverse-5", "degree-7", "values-1", "plies-0"]
    )
    def test_killed_in_a_level_resumes_there(self, whole: Path, tmp_path: Path, at: str) -> None:
        """A build stopped after a step of level 8 keeps its finished steps; the rerun does
        only the rest (no partition's moves twice) and writes the same bytes."""

        scratch = tmp_path / "scratch"

        def kill(step: str) -> None:
            if step == at and scratch_directory(scratch, 8).exists():
                raise _Killed

        builder = native_partitions.PartitionedBuilder(scratch, partition=1 << 12, step=kill)
        with pytest.raises(_Killed):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert not level_path(tmp_path, 8).exists()
        done = {p.name for p in scratch_directory(scratch, 8).glob("*.done")}
        assert f"{at}.done" in done
        calls: list[int] = []

        def counting(seeds: int, start: int, stop: int) -> LevelMoves:
            calls.append(start)
            moves: LevelMoves = KERNEL.moves(seeds, start, stop)
            return moves

        kernel = tablebase_build.LevelKernel(counting, KERNEL.gather, KERNEL.solve, 125)
        again = native_partitions.PartitionedBuilder(scratch, partition=1 << 12, kernel=kernel)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=again)
        assert_same(tmp_path, whole, 8)
        finished = {int(name[6:-5]) for name in done if name.startswith("moves-")}
        assert not {start // 4096 for start in calls} & finished
        assert len({start // 4096 for start in calls}) == 19 - len(finished)

    def test_another_budget_starts_the_level_again(self, whole: Path, tmp_path: Path) -> None:
        """Scratch files of other partitions are not reused."""

        def kill(step: str) -> None:
            if step == "values-0" and scratch_directory(tmp_path / "s", 8).exists():
                raise _Killed

        first = native_partitions.PartitionedBuilder(tmp_path / "s", partition=1 << 12, step=kill)
        with pytest.raises(_Killed):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=first)
        builder = native_partitions.PartitionedBuilder(tmp_path / "s", partition=1 << 14)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert_same(tmp_path, whole, 8)

    @pytest.mark.slow
    def test_a_killed_process_resumes(self, tmp_path: Path) -> None:
        """``build --memory`` killed (SIGKILL) in the middle of level 12 resumes and gives the
        in-memory bytes."""
        tablebase_build.build(12, tmp_path / "whole", kernel=KERNEL)
        command = [
            sys.executable,
            "-m",
            "zerosum",
            "tablebase",
            "build",
            "ayoayo",
            "--seeds",
            "12",
            "--memory",
            "64M",
            "--workers",
            "1",
            "--dir",
            str(tmp_path / "parts"),
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        marker = scratch_directory(tmp_path / "parts", 12) / "values-0.done"
        began = time.monotonic()

        def checkpointed() -> bool:  # a group done, and the other's round saved to resume
            return marker.exists() and any(marker.parent.glob("round-*.json"))

        while not checkpointed() and process.poll() is None and time.monotonic() - began < 300:
            time.sleep(0.02)
        assert process.poll() is None, "the build ended before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert not level_path(tmp_path / "parts", 12).exists()
        assert any(marker.parent.glob("round-*.json"))  # the other group resumes in its pass
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        assert_same(tmp_path / "parts", tmp_path / "whole", 12)


class _Stop(Exception):
    pass


def lower_levels(whole: Path, directory: Path) -> None:
    """Levels 0-4 copied from the reference, so a build makes only level 8."""
    directory.mkdir(parents=True, exist_ok=True)
    for n in levels_up_to(4):
        for kind in (VALUES, DISTANCES):
            target = level_path(directory, n, kind)
            target.write_bytes(level_path(whole, n, kind).read_bytes())


def events_of(
    scratch: Path, stop: str | None = None, **options: object
) -> tuple[list[str], native_partitions.PartitionedBuilder]:
    """A builder of level 8 in 5 partitions, on one thread, checkpointing after every step,
    whose round hook records the events and raises at ``stop``."""
    seen: list[str] = []

    def hook(event: str) -> None:
        seen.append(event)
        if event == stop:
            raise _Stop

    settings: dict[str, object] = {"partition": 1 << 14, "threads": 1, "checkpoint": 0.0}
    builder = native_partitions.PartitionedBuilder(scratch, round=hook, **(settings | options))
    return seen, builder


@pytest.fixture(scope="module")
def reference_steps(whole: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The steps of level 8's passes in order, from a build that is not stopped."""
    directory = tmp_path_factory.mktemp("steps")
    lower_levels(whole, directory)
    seen, builder = events_of(directory / "scratch")
    tablebase_build.build(8, directory, kernel=KERNEL, out_of_core=builder)
    done = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
    assert builder.steps == len(done)
    return done


# A build of level 8 in a child process (MEMORY bytes, 0: the default; checkpoints INTERVAL
# seconds apart), killed (SIGKILL) DELAY seconds after the round hook says EVENT (never when
# EVENT is empty).
_KILLED_AT = """
import os, signal, sys, threading
from pathlib import Path
from games.ayoayo import tablebase_build
from games.ayoayo.native_partitions import PartitionedBuilder
from games.ayoayo.native_tablebase import KERNEL
directory, at, delay = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
memory, interval = int(sys.argv[4]), float(sys.argv[5])
def hook(event):
    if event == at:
        threading.Timer(delay, os.kill, (os.getpid(), signal.SIGKILL)).start()
builder = PartitionedBuilder(
    directory / "scratch", partition=1 << 14, threads=1, checkpoint=interval, round=hook,
    memory=memory or None,
)
tablebase_build.build(8, directory, kernel=KERNEL, out_of_core=builder)
"""


class TestResumeInsideAPass:
    def test_stopped_again_and_again_each_build_goes_on_from_the_last_round(
        self, whole: Path, reference_steps: list[str], tmp_path: Path
    ) -> None:
        """Level 8 stopped in the values and plies passes of both groups, after a round,
        before anything is applied, and halfway through applying (with and
        without frontiers spilled to files): each resumed build goes on from the last
        finished step, over all the builds every pass does each of its steps exactly once, in
        order (none redone, none skipped), and the bytes are the in-memory build's."""
        lower_levels(whole, tmp_path)
        passes = ("values-0", "values-1", "plies-0", "plies-1")

        def of(kind: str, steps: list[str]) -> list[str]:
            return [e for e in steps if e.startswith(f"{kind}:")]

        count = {kind: len(of(kind, reference_steps)) for kind in passes}
        assert min(count.values()) > 10
        stops = [
            ("values-0", 1, "begun"),
            ("values-0", count["values-0"] // 3, "applied"),
            ("values-0", count["values-0"] // 2, "done"),
            ("values-0", count["values-0"] - 1, "applied"),
            ("plies-0", 0, "applied"),
            ("plies-0", count["plies-0"] // 2, "applied"),
            ("plies-0", count["plies-0"] - 2, "done"),
            ("values-1", count["values-1"] // 2, "begun"),
            ("plies-1", count["plies-1"] - 1, "begun"),
        ]
        scratch = tmp_path / "scratch"
        done: list[str] = []
        for i, (kind, n, when) in enumerate(stops):
            memory = {"memory": 1 << 14} if i % 2 else {}
            seen, builder = events_of(scratch, f"{kind}:{n}:{when}", **memory)
            with pytest.raises(_Stop):
                tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
            ran = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
            before, last = len(of(kind, done)), n if when == "done" else n - 1
            assert of(kind, ran) == [f"{kind}:{j}" for j in range(before, last + 1)]
            assert builder.steps == len(ran)
            done += ran
        seen, builder = events_of(scratch)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        done += [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        for kind in passes:
            assert of(kind, done) == of(kind, reference_steps), kind
        assert_same(tmp_path, whole, 8)
        assert not scratch_directory(scratch, 8).exists()

    @pytest.mark.parametrize("call", [3, 40, 160, 400])
    def test_stopped_halfway_through_a_batch(
        self,
        whole: Path,
        reference_steps: list[str],
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        call: int,
    ) -> None:
        """A build stopped with a batch of updates half applied (its first half changed and
        journalled, as a kill inside the kernel leaves it; the first batch from the ``call``-th
        on after which earlier checkpoints' records are left in the journal) resumes from the
        last checkpoint: over both builds every step is done once, in order, and the bytes
        are the in-memory build's. With four tags, the journal is made anew every other
        checkpoint, and holds the records of the checkpoint before, which are not undone."""
        lower_levels(whole, tmp_path)
        scratch = tmp_path / "scratch"
        apply = native_partitions._apply
        calls: list[int] = []

        def half(phase: int, target: Any, payload: Any, *args: Any) -> Any:
            calls.append(phase)
            words, at = args[-3], args[-2]
            stale = words.size > at + target.size and words[at + target.size] != 0
            if len(calls) < call or not stale:  # earlier records past what this one writes
                return apply(phase, target, payload, *args)
            half = target.size // 2
            apply(phase, target[:half], payload[:half], *args)
            raise _Stop

        monkeypatch.setattr(native_partitions, "_apply", half)
        monkeypatch.setattr(native_partitions, "_TAGS", 4)
        seen, builder = events_of(scratch, memory=1 << 14)
        with pytest.raises(_Stop):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        monkeypatch.setattr(native_partitions, "_apply", apply)
        assert len(calls) >= call
        done = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        seen, builder = events_of(scratch)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        done += [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        assert done == reference_steps
        assert_same(tmp_path, whole, 8)

    @pytest.mark.slow
    def test_killed_at_random_instants(
        self, whole: Path, reference_steps: list[str], tmp_path: Path
    ) -> None:
        """Level 8 built in a process killed (SIGKILL) a few milliseconds after one of eight
        steps spread over its passes begins, at a random instant (halfway through applying a
        batch, writing a checkpoint, undoing...), then left to finish: the in-memory bytes."""
        lower_levels(whole, tmp_path)
        rng = random.Random(8)
        every = len(reference_steps) // 9  # in the order the build does them
        targets = [f"{step}:begun" for step in reference_steps[every::every][:8]]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        killed = 0
        for i, event in enumerate([*targets, ""]):
            delay, memory = rng.uniform(0.0, 0.004), (1 << 14) if i % 2 else 0
            interval = 3600.0 if i % 4 < 2 else 0.002  # the journal of many steps, or few
            command = [sys.executable, "-c", _KILLED_AT, str(tmp_path), event, str(delay)]
            done = subprocess.run([*command, str(memory), str(interval)], env=env, check=False)
            killed += done.returncode == -signal.SIGKILL
            assert done.returncode in (0, -signal.SIGKILL)
        assert done.returncode == 0
        assert_same(tmp_path, whole, 8)
        assert killed >= 6

    def test_a_checkpoint_interval_goes_back_to_the_last_checkpoint(
        self, whole: Path, reference_steps: list[str], tmp_path: Path
    ) -> None:
        """With checkpoints far apart, a build stopped in a pass undoes every step since the
        pass began (many rounds of undo records; frontiers spilled to files, which are cut
        back) and does them again: the same bytes."""
        lower_levels(whole, tmp_path)
        scratch = tmp_path / "scratch"
        middle = sum(e.startswith("plies-0") for e in reference_steps) // 2
        stop = f"plies-0:{middle}:applied"
        seen, builder = events_of(scratch, stop, checkpoint=3600.0, memory=1 << 14)
        with pytest.raises(_Stop):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        assert any(scratch_directory(scratch, 8).glob("journal-plies-0-*.bin"))
        seen, builder = events_of(scratch)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        ran = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        assert ran[0] == "plies-0:0"
        assert_same(tmp_path, whole, 8)

    def test_without_checkpoints_a_pass_starts_again(self, whole: Path, tmp_path: Path) -> None:
        """``checkpoint=None``: no records and no journal; a stopped pass runs again from its
        start, to the same bytes."""
        lower_levels(whole, tmp_path)
        scratch = tmp_path / "scratch"
        seen, builder = events_of(scratch, "values-1:5:done", checkpoint=None)
        with pytest.raises(_Stop):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        directory = scratch_directory(scratch, 8)
        assert not [*directory.glob("round-*.json"), *directory.glob("journal-*.bin")]
        seen, builder = events_of(scratch)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        ran = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        assert ran[0] == "values-1:0"
        assert_same(tmp_path, whole, 8)

    def test_checkpoints_of_another_boot_are_not_trusted(
        self, whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """After the machine restarted, the files may not hold what a checkpoint says: the
        pass starts again."""
        lower_levels(whole, tmp_path)
        scratch = tmp_path / "scratch"
        seen, builder = events_of(scratch, "values-1:5:done")
        with pytest.raises(_Stop):
            tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        monkeypatch.setattr(native_partitions, "boot_id", lambda: "another boot")
        seen, builder = events_of(scratch)
        tablebase_build.build(8, tmp_path, kernel=KERNEL, out_of_core=builder)
        ran = [e.rsplit(":", 1)[0] for e in seen if e.endswith(":done")]
        assert ran[0] == "values-1:0"
        assert_same(tmp_path, whole, 8)


class TestPlan:
    def test_levels_and_totals(self) -> None:
        """The whole game: 7.7e11 positions, three bytes each kept."""
        rows = tablebase_plan.plan(48, rate=1e6, memory=8 << 30)
        total = tablebase_plan.totals(rows)
        assert round(total["positions"] / 1e11, 1) == 7.7
        assert total["level_bytes"] == sum(3 * r.positions + 128 for r in rows)
        assert total["core_hours"] == pytest.approx(total["positions"] / 1e6 / 3600)

    def test_a_slowdown_per_level_is_measured_and_checked(self, tmp_path: Path) -> None:
        """Throughput falling 2x a level: the slowdown is 2 and each level is predicted."""
        for seeds, seconds in ((8, 1.0), (12, 2 * 5408312 / 226746), (16, 4 * 65189475 / 226746)):
            (tmp_path / f"ayoayo-{seeds:02d}.json").write_text(json.dumps({"seconds": seconds}))
        found = tablebase_plan.measured(tmp_path, cores=1)
        assert tablebase_plan.slowdown(found) == pytest.approx(2.0)
        for _, predicted, measured in tablebase_plan.check(found):
            assert predicted == pytest.approx(measured)
        rows = tablebase_plan.plan(24, rate=found[-1].rate, memory=1 << 30, at=16, fall=2.0)
        assert rows[-1].core_hours == pytest.approx(rows[-1].positions / found[-1].rate * 4 / 3600)
