"""Smoke test of the out-of-core throughput benchmark: its own code path at a tiny level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.tablebase_out_of_core import main


@pytest.mark.slow
def test_one_round_at_level_12(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Level 12 both ways in one round: the same bytes, a ratio per round, the JSON written;
    then level 8, which the base already holds (built below level 12), is built anew too."""
    out = tmp_path / "ooc.json"
    argv = ["--seeds", "12", "8", "--rounds", "1", "--memory", "12=64M", "--memory", "8=64M"]
    argv += ["--base", str(tmp_path / "base"), "--work", str(tmp_path), "--json", str(out)]
    assert main(argv) == 0
    level, below = json.loads(out.read_text())["levels"]
    assert below["seeds"] == 8 and below["positions"] == 226_746
    assert level["seeds"] == 12 and level["positions"] == 5_408_312 and level["same_bytes"]
    (pair,) = level["rounds"]
    assert pair["out of core"]["memory"] == "64M" and pair["in memory"]["memory"] is None
    assert pair["ratio"] == round(pair["in memory"]["seconds"] / pair["out of core"]["seconds"], 3)
    assert pair["out of core"]["cpu_seconds"] > 0 and level["cpu_ratio"]["median"] > 0
    assert "throughput ratio" in capsys.readouterr().out


def test_a_budget_must_name_its_level() -> None:
    """``--memory 4G`` without a level is refused, saying what is expected."""
    with pytest.raises(SystemExit, match="expected LEVEL=SIZE"):
        main(["--memory", "4G"])
