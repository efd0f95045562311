"""The compiled tablebase builder against the pure one, on random graphs and on real levels."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.ayoayo import tablebase_build
from games.ayoayo.tablebase_build import NO_EXIT
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from games.ayoayo.tablebase_index import splits

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase", reason="no numba")

SEEDS = 8
"""A level with a group of two mirrored splits (16 and 24) and a group of one (20)."""


@st.composite
def level_graphs(draw: st.DrawFn) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
    """A level-shaped graph: per board up to six moves that stay, per split a best exit."""
    boards = draw(st.integers(1, 40))
    stays = draw(st.floats(0.0, 1.0))
    exits = draw(st.floats(0.0, 1.0))
    spread = draw(st.sampled_from([1, 4, 24]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    stay = np.where(
        rng.random((boards, 6)) < stays, rng.integers(0, boards, (boards, 6)), -1
    ).astype(np.int32)
    best = rng.integers(-spread, spread + 1, (len(splits(SEEDS)), boards)) * 4 // max(spread, 4)
    best_exit = np.where(rng.random(best.shape) < exits, best, NO_EXIT).astype(np.int8)
    return stay, best_exit


def _solved(
    solve: Any, stay: npt.NDArray[np.int32], best_exit: npt.NDArray[np.int8]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint16]]:
    values = np.zeros(best_exit.shape, dtype=np.int8)
    distances = np.zeros(best_exit.shape, dtype=np.uint16)
    groups = tablebase_build._split_groups(SEEDS)
    solve(SEEDS, groups, stay, best_exit, values, distances)
    return values, distances


class TestSolve:
    """The compiled solve gives the threshold solver's values and distances."""

    @given(level_graphs())
    def test_random_graphs(self, graph: tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]) -> None:
        """Values and distances equal solver.retrograde's on graphs with cycles and draws."""
        stay, best_exit = graph
        mine = _solved(native_tablebase.solve, stay, best_exit)
        theirs = _solved(tablebase_build.solve, stay, best_exit)
        assert np.array_equal(mine[0], theirs[0])
        assert np.array_equal(mine[1], theirs[1])

    def test_a_ring_of_draws_takes_the_quickest_end(self) -> None:
        """Boards in a ring, one with a drawing exit: the draws count plies to that exit."""
        boards = 6
        stay = np.full((boards, 6), -1, dtype=np.int32)
        stay[:, 0] = (np.arange(boards) + 1) % boards
        best_exit = np.full((3, boards), NO_EXIT, dtype=np.int8)
        best_exit[1, 0] = 0  # split 20 (20 each): as good as endless play, a draw
        mine = _solved(native_tablebase.solve, stay, best_exit)
        theirs = _solved(tablebase_build.solve, stay, best_exit)
        assert np.array_equal(mine[1], theirs[1])
        assert mine[1][1].tolist() == [1, 6, 5, 4, 3, 2]

    def test_a_raised_stop_flag_ends_a_group_early(self) -> None:
        """The kernels give up (None) once the stop flag is up and work has begun."""
        rng = np.random.default_rng(7)
        boards = 300_000
        stay = rng.integers(-2, boards, (boards, 6)).astype(np.int32)
        stay[stay < 0] = -1
        graph = native_tablebase.LevelGraph(stay, np.zeros(1, dtype=np.int64))
        exits = rng.integers(-20, 21, boards).astype(np.int8)
        stop = np.ones(1, dtype=np.int64)
        assert native_tablebase._solve_group(graph, [exits], [0], stop) is None

    def test_ctrl_c_stops_the_threads(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A KeyboardInterrupt while waiting raises the stop flag and goes on at once."""
        rng = np.random.default_rng(3)
        boards = 2_000_000
        stay = rng.integers(-3, boards, (boards, 6)).astype(np.int32)
        stay[stay < 0] = -1
        best_exit = rng.integers(-30, 31, (3, boards)).astype(np.int8)

        def interrupted(*args: Any, **kwargs: Any) -> Any:
            raise KeyboardInterrupt

        monkeypatch.setattr(native_tablebase, "wait", interrupted)
        began = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            _solved(native_tablebase.solve, stay, best_exit)
        assert time.perf_counter() - began < 30  # a hang, not a timing: the solve takes ~10 s


class TestLevels:
    """Whole levels built on the kernel equal the pure build, on any executor."""

    def test_a_dask_cluster_builds_the_same_bytes(self, tmp_path: Path) -> None:
        """A Dask LocalCluster's executor builds levels equal to the pure build's bytes."""
        distributed = pytest.importorskip("distributed")
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            tablebase_build.build(
                8,
                tmp_path / "dask",
                executor=client.get_executor(),
                kernel=native_tablebase.KERNEL,
                block=20_000,
            )
        tablebase_build.build(8, tmp_path / "pure")
        for n in (0, 4, 8):
            for kind in (VALUES, DISTANCES):
                name = level_path(tmp_path, n, kind).name
                assert (tmp_path / "dask" / name).read_bytes() == (
                    tmp_path / "pure" / name
                ).read_bytes(), name
