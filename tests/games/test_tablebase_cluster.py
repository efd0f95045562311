"""The cluster build: each partition's work as Dask tasks gives the one-process bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import tablebase_build
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from games.ayoayo.tablebase_index import levels_up_to

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


@pytest.mark.slow
def test_the_cluster_builds_the_same_bytes(tmp_path: Path, client: Any) -> None:
    """Levels up to 8 in partitions of 2**15 boards (3 at level 8) on two worker processes:
    the in-memory build's bytes; each kernel compiled (or loaded) once per worker."""
    builder = tablebase_cluster.ClusterBuilder(tmp_path / "scratch", client, partition=1 << 15)
    tablebase_build.build(8, tmp_path / "cluster", out_of_core=builder)
    tablebase_build.build(8, tmp_path / "whole", kernel=native_tablebase.KERNEL)
    assert_same(tmp_path / "cluster", tmp_path / "whole", 8)
    assert builder.tasks > 0 and not list((tmp_path / "scratch").glob("*.scratch"))
    for worker, signatures in client.run(_kernels_compiled).items():
        assert set(signatures.values()) == {1}, (worker, signatures)


def test_a_small_level_on_the_cluster_resumes(tmp_path: Path, client: Any) -> None:
    """Level 4 on the cluster, stopped after its first group's values, then resumed: the
    same bytes as the one-process out-of-core build."""

    class Stop(Exception):
        pass

    def stop(step: str) -> None:
        if step == "values-0":
            raise Stop

    root = tmp_path / "scratch"
    stopped = tablebase_cluster.ClusterBuilder(root, client, partition=1 << 10, step=stop)
    with pytest.raises(Stop):
        tablebase_build.build(4, tmp_path / "cluster", out_of_core=stopped)
    resumed = tablebase_cluster.ClusterBuilder(root, client, partition=1 << 10)
    tablebase_build.build(4, tmp_path / "cluster", out_of_core=resumed)
    local = native_partitions.PartitionedBuilder(tmp_path / "local", partition=1 << 10)
    tablebase_build.build(4, tmp_path / "one", out_of_core=local)
    assert_same(tmp_path / "cluster", tmp_path / "one", 4)


class _Client:
    """A client whose second worker cannot read the probe."""

    def run(self, fn: Any, *args: Any, on_error: str) -> dict[str, Any]:
        return {"tcp://a:1": fn(*args), "tcp://b:2": FileNotFoundError("probe")}


def test_a_scratch_the_workers_cannot_see_is_named(tmp_path: Path) -> None:
    with pytest.raises(tablebase_cluster.ScratchNotSharedError) as e:
        tablebase_cluster.probe_scratch(_Client(), tmp_path)
    assert str(tmp_path) in str(e.value) and "tcp://b:2" in str(e.value)
    assert "tcp://a:1" not in str(e.value) and not list(tmp_path.iterdir())


@pytest.mark.slow
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
