"""The proof shared out: root moves tested as tasks give the one-process search's values and
certificates that check, in worker processes and on a (local) Dask cluster."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.ayoayo import Ayoayo, accel
from games.ayoayo.proof import Prover
from games.ayoayo.proof_split import SplitProver
from solver.certificate import verify
from solver.workers import WorkerPool
from tests.games.test_proof import sample

pytestmark = pytest.mark.skipif(
    accel.proof_kernel() is None, reason="the proof search needs the compiled kernel (numba)"
)

GAME = Ayoayo()
TABLE = 1 << 16


@pytest.fixture(scope="module")
def levels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0-8, built once for the module."""
    directory = tmp_path_factory.mktemp("levels")
    GAME.tablebase(directory).build(8)
    return directory


class TestOnWorkers:
    """Two worker processes, each testing root moves, agree with one process."""

    def test_values_and_certificates(self, levels: Path, tmp_path: Path) -> None:
        tablebase = GAME.tablebase(levels)
        states = sample(12, 4, random.Random(5))
        lines: list[str] = []
        with WorkerPool(2, name="test-prove") as pool:
            split = SplitProver(
                GAME, tablebase, mapper=pool, table_size=TABLE, progress=lines.append
            )
            for state in states:
                alone = Prover(GAME, tablebase, table_size=TABLE).value(state)
                shared = split.value(state)
                assert shared.value == alone.value is not None, GAME.format_state(state)
                cert = split.certificate(state, shared)
                assert verify(GAME, cert, oracle=tablebase).value == shared.value
        assert any("root moves settled" in line for line in lines)

    def test_each_task_keeps_a_checkpoint_of_its_own(self, levels: Path, tmp_path: Path) -> None:
        tablebase = GAME.tablebase(levels)
        state = sample(12, 1, random.Random(7))[0]
        with WorkerPool(2, name="test-prove") as pool:
            split = SplitProver(
                GAME, tablebase, mapper=pool, table_size=TABLE, checkpoint=tmp_path / "cp"
            )
            first = split.value(state)
        assert list((tmp_path / "cp").glob("move-*/proof-*.npy"))
        assert first.value is not None


class TestOnDask:
    """A local Dask cluster (threads of this process) runs the same tasks, same answer."""

    def test_same_value(self, levels: Path) -> None:
        distributed = pytest.importorskip("distributed")
        tablebase = GAME.tablebase(levels)
        state = sample(12, 1, random.Random(11))[0]
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        )
        try:
            with distributed.Client(cluster) as client:
                split = SplitProver(GAME, tablebase, mapper=client.get_executor(), table_size=TABLE)
                shared = split.value(state)
        finally:
            cluster.close()
        alone = Prover(GAME, tablebase, table_size=TABLE).value(state)
        assert shared.value == alone.value is not None
