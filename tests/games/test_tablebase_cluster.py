"""The cluster build: each partition's work as Dask tasks gives the one-process bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.ayoayo import tablebase_build, tablebase_partitions
from games.ayoayo.tablebase_build import _split_groups
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path, read_level
from games.ayoayo.tablebase_index import board_count, levels_up_to

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")
native_partitions = pytest.importorskip("games.ayoayo.native_partitions")
distributed = pytest.importorskip("distributed")
tablebase_cluster = pytest.importorskip("games.ayoayo.tablebase_cluster")


def assert_same(built: Path, reference: Path, up_to: int) -> None:
    for n in levels_up_to(up_to):
        for kind in (VALUES, DISTANCES):
            a = level_path(built, n, kind).read_bytes()
            b = level_path(reference, n, kind).read_bytes()
            assert a == b, level_path(built, n, kind).name


@pytest.fixture(scope="module")
def client() -> Any:
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _kernels_compiled(_: Any = None) -> dict[str, int]:
    """The signatures each of the solve's kernels has in this process (one once it ran)."""
    from games.ayoayo import native_partitions as module

    return {
        name: len(getattr(module, name).signatures)
        for name in ("_expand", "_apply", "_bucket_edges", "_predecessors", "_init_values")
    }


def _tasks(builder: Any, up_to: int) -> int:
    """The tasks of levels up to ``up_to`` when each group is two tasks: per partition its
    moves, its buckets, its predecessors and its move counts; per group its values and its
    plies."""
    layouts = [builder.layout(n) for n in levels_up_to(up_to)]
    return sum(4 * layout.parts + 2 * len(_split_groups(layout.seeds)) for layout in layouts)


@pytest.mark.slow
def test_the_cluster_builds_the_same_bytes(tmp_path: Path, client: Any) -> None:
    """Levels up to 12 in partitions of 2**17 boards (11 at level 12) on two worker
    processes, each group of splits solved in two tasks: the in-memory build's bytes; each
    kernel compiled (or loaded) once per worker."""
    builder = tablebase_cluster.ClusterBuilder(tmp_path / "scratch", client, partition=1 << 17)
    tablebase_build.build(12, tmp_path / "cluster", out_of_core=builder)
    tablebase_build.build(12, tmp_path / "whole", kernel=native_tablebase.KERNEL)
    assert_same(tmp_path / "cluster", tmp_path / "whole", 12)
    assert builder.tasks == _tasks(builder, 12) and builder.rounds > 0
    assert not list((tmp_path / "scratch").glob("*.scratch"))
    for worker, signatures in client.run(_kernels_compiled).items():
        assert set(signatures.values()) == {1}, (worker, signatures)


@pytest.mark.parametrize("partition", [1 << 10, pytest.param(1 << 15, marks=pytest.mark.slow)])
def test_partition_waves_build_the_same_bytes(tmp_path: Path, client: Any, partition: int) -> None:
    """Levels up to 8 with each group solved in waves of per-partition tasks (2 partitions
    at level 4 or 3 at level 8): the in-memory bytes, in many more tasks."""
    builder = tablebase_cluster.ClusterBuilder(
        tmp_path / "scratch", client, partition=partition, whole_groups=False
    )
    up_to = 4 if partition < 1 << 15 else 8
    tablebase_build.build(up_to, tmp_path / "cluster", out_of_core=builder)
    tablebase_build.build(up_to, tmp_path / "whole", kernel=native_tablebase.KERNEL)
    assert_same(tmp_path / "cluster", tmp_path / "whole", up_to)
    assert builder.tasks > 2 * _tasks(builder, up_to)


def test_the_budget_chooses_the_task_kind(client: Any, tmp_path: Path) -> None:
    """A group is one task when the level's boards fit the memory budget, else waves."""
    budget = 1 << 30
    builder = tablebase_cluster.ClusterBuilder(tmp_path, client, memory=budget)
    per_board = tablebase_cluster.GROUP_BYTES_PER_BOARD
    assert builder.whole(16) == (board_count(16) * per_board <= budget)
    assert builder.whole(12) and not builder.whole(24)


@pytest.mark.parametrize("whole_groups", [True, False], ids=["group", "waves"])
def test_a_small_level_on_the_cluster_resumes(
    tmp_path: Path, client: Any, whole_groups: bool
) -> None:
    """Level 4 on the cluster, stopped after its first group's values, then resumed: the
    same bytes as the one-process out-of-core build."""

    class Stop(Exception):
        pass

    def stop(step: str) -> None:
        if step == "values-0":
            raise Stop

    root = tmp_path / "scratch"
    stopped = tablebase_cluster.ClusterBuilder(
        root, client, partition=1 << 10, whole_groups=whole_groups, step=stop
    )
    with pytest.raises(Stop):
        tablebase_build.build(4, tmp_path / "cluster", out_of_core=stopped)
    resumed = tablebase_cluster.ClusterBuilder(
        root, client, partition=1 << 10, whole_groups=whole_groups
    )
    tablebase_build.build(4, tmp_path / "cluster", out_of_core=resumed)
    local = native_partitions.PartitionedBuilder(tmp_path / "local", partition=1 << 10)
    tablebase_build.build(4, tmp_path / "one", out_of_core=local)
    assert_same(tmp_path / "cluster", tmp_path / "one", 4)


def _prepared(root: Path, seeds: int, builder: Any, lower: Any) -> tuple[Any, Any]:
    """Level ``seeds``'s moves and predecessor lists in a scratch directory under ``root``,
    and where a worker finds them."""
    layout = builder.layout(seeds)
    scratch = tablebase_partitions.Scratch(
        tablebase_partitions.scratch_directory(root, seeds), layout
    )
    run = native_partitions._Level(builder, scratch, layout, lower, None)
    run.moves()
    run.reverse()
    where = tablebase_cluster._Where(str(scratch.directory), seeds, layout.boards, layout.size)
    return scratch, where


def test_a_group_task_stops_at_the_stop_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group's task (run here, as a worker runs it) stops at its first round once its
    build's stop file is there, leaving the step unmarked; without it, it finishes, and the
    frontier files a stopped run left behind do not change what it computes (every frontier
    goes through its files here)."""
    worker_init = tablebase_cluster._WorkerLevel.__init__

    def spilling(self: Any, *args: Any) -> None:
        worker_init(self, *args)
        self.frontier_cap = 0

    monkeypatch.setattr(tablebase_cluster._WorkerLevel, "__init__", spilling)
    builder = native_partitions.PartitionedBuilder(tmp_path / "moves", partition=1 << 10)
    level = builder.layout(4)
    lower = {0: tablebase_build.build_level(0, {}, kernel=native_tablebase.KERNEL)[0]}
    scratch, where = _prepared(tmp_path / "stopped", 4, builder, lower)
    scratch.path("stop-x").touch()
    with pytest.raises(native_partitions._Interrupted):
        tablebase_cluster._task_group(where, 1 << 26, "stop-x", 0, (0, 1), "values")
    assert not scratch.done("values-0")
    for k in range(level.parts):  # what a stopped run with spilled frontiers leaves behind
        np.arange(50, dtype=np.int32).tofile(scratch.path(f"front-v0-{k}-0"))
    assert tablebase_cluster._task_group(where, 1 << 26, "stop-y", 0, (0, 1), "values") > 0
    assert scratch.done("values-0")
    clean, fresh = _prepared(tmp_path / "clean", 4, builder, lower)
    tablebase_cluster._task_group(fresh, 1 << 26, "stop-y", 0, (0, 1), "values")
    for k in range(level.parts):
        name = f"value-0-{k}.bin"
        assert (scratch.directory / name).read_bytes() == (clean.directory / name).read_bytes()


def test_a_group_task_resumes_from_its_last_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group's task with round checkpoints, stopped in the middle of its values pass and
    run again, goes on from its last round: the two runs together take the rounds of one
    uninterrupted run (but the one the stop came in), and the values are its bytes."""
    tablebase_build.build(4, tmp_path / "below", kernel=native_tablebase.KERNEL)
    lower = {n: read_level(level_path(tmp_path / "below", n)).values for n in (0, 4)}
    builder = native_partitions.PartitionedBuilder(tmp_path / "moves", partition=1 << 12)
    group = _split_groups(8)[0]
    clean, fresh = _prepared(tmp_path / "clean", 8, builder, lower)
    whole = tablebase_cluster._task_group(fresh, 1 << 26, "stop", 0, group, "values", 0)
    assert whole > 10
    scratch, where = _prepared(tmp_path / "stopped", 8, builder, lower)
    before = 0

    def stop_halfway(self: Any) -> None:
        nonlocal before
        before = self.builder.rounds
        if before >= whole // 2:
            raise native_partitions._Interrupted

    monkeypatch.setattr(tablebase_cluster._WorkerLevel, "_check_stop", stop_halfway)
    with pytest.raises(native_partitions._Interrupted):
        tablebase_cluster._task_group(where, 1 << 26, "stop", 0, group, "values", 0)
    monkeypatch.undo()
    assert not scratch.done("values-0")
    again = tablebase_cluster._task_group(where, 1 << 26, "stop", 0, group, "values", 0)
    assert before + again in (whole, whole + 1)  # a stop inside a round does that one again
    assert scratch.done("values-0")
    for k in range(builder.layout(8).parts):
        name = f"value-0-{k}.bin"
        assert (scratch.directory / name).read_bytes() == (clean.directory / name).read_bytes()


class _Client:
    """A client whose second worker cannot read the probe."""

    def run(self, fn: Any, *args: Any, on_error: str) -> dict[str, Any]:
        return {"tcp://a:1": fn(*args), "tcp://b:2": FileNotFoundError("probe")}


def test_a_scratch_the_workers_cannot_see_is_named(tmp_path: Path) -> None:
    with pytest.raises(tablebase_cluster.ScratchNotSharedError) as e:
        tablebase_cluster.probe_scratch(_Client(), tmp_path)
    assert str(tmp_path) in str(e.value) and "tcp://b:2" in str(e.value)
    assert "tcp://a:1" not in str(e.value) and not list(tmp_path.iterdir())


def test_the_command_builds_on_the_cluster(
    tmp_path: Path, client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``build --dask ADDRESS --memory --scratch`` runs the partitions on the cluster."""
    from zerosum.cli import main

    address = client.scheduler.address
    argv = ["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", str(tmp_path / "tb")]
    cluster = [*argv, "--dask", address, "--memory", "64M", "--scratch", str(tmp_path / "s")]
    assert main(cluster) == 0
    assert main([*argv[:-1], str(tmp_path / "one"), "--memory", "64M"]) == 0
    assert_same(tmp_path / "tb", tmp_path / "one", 4)
    capsys.readouterr()
