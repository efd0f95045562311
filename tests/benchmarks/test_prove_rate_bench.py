"""The proof search's A/B benchmark on a small workload: its values are the tablebase's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.ayoayo import Ayoayo
from games.ayoayo.sampling import random_positions
from games.ayoayo.tablebase_build import build

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")
prove_rate = pytest.importorskip("benchmarks.prove_rate")


def test_positions_of_level_8_proved_on_the_levels_below(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three 8-seed positions proved with the levels below 8 as leaves: one JSON line whose
    values are those the level itself holds, with nodes and a rate."""
    import random

    from games.ayoayo import accel

    if accel.proof_kernel() is None:
        pytest.skip("the proof search needs the compiled kernel (numba)")
    build(8, tmp_path / "tb", kernel=native_tablebase.KERNEL)
    argv = ["--level", "8", "--below", "8", "--count", "3", "--seed", "4"]
    assert prove_rate.main([*argv, "--dir", str(tmp_path / "tb")]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    full = Ayoayo().tablebase(tmp_path / "tb")
    expected = [full.probe(s) for s in random_positions(8, 3, random.Random(4))]
    assert record["values"] == expected and record["nodes"] > 0 and record["rate"] > 0
