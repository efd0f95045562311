"""Smoke test of the Connect Four benchmark's kernels part: tiny sets, structure only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.connect4 import main
from solver.compiled import numba_available


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
def test_the_kernels_part_times_every_side_on_every_stage(tmp_path: Path) -> None:
    """Three end and middle positions and two begin ones: each side timed, the value-only
    entry's node counts given, and the value-only entry's set in a row (the script checks every
    score equal across the sides and rounds)."""
    out = tmp_path / "c4.json"
    assert main(["--quick", "--kernels", "--cap", "0.5", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert sorted(figures) == ["kernels_begin", "kernels_end", "kernels_middle"]
    for stage in figures.values():
        assert sorted(stage["seconds"]) == ["extras", "plain", "values"]
        assert stage["values_nodes"]["max"] >= 1 and stage["pons_5x_seconds"] > 0
        in_a_row = stage["values_in_a_row"]
        assert in_a_row["rounds"] == 1
        assert 0 < in_a_row["mean"]["min"] <= in_a_row["mean"]["median"] <= in_a_row["mean"]["max"]
