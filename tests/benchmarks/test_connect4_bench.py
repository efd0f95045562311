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


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
def test_the_sets_part_times_each_set_found_against_its_own_bar(tmp_path: Path) -> None:
    """A folder with our End-Easy file and Pons's name for a Middle-Easy one: both read (in
    his order), each beside five times HIS mean on THAT set, every score checked."""
    data = Path(__file__).parents[2] / "benchmarks" / "data" / "connect4"
    (tmp_path / "end-easy.txt").write_text((data / "end-easy.txt").read_text())
    (tmp_path / "Test_L2_R1").write_text((data / "middle-easy.txt").read_text())
    out = tmp_path / "sets.json"
    args = ["--sets", str(tmp_path), "--positions", "4", "--rounds", "2", "--json", str(out)]
    assert main(args) == 0
    figures = json.loads(out.read_text())
    assert list(figures) == ["end-easy", "middle-easy"]
    assert figures["middle-easy"]["file"] == "Test_L2_R1"
    assert figures["end-easy"]["pons_5x_seconds"] == pytest.approx(5 * 4.6e-6)
    assert figures["middle-easy"]["pons_5x_seconds"] == pytest.approx(5 * 37e-6)
    for stage in figures.values():
        assert stage["positions"] == 4 and stage["rounds"] == 2
        assert stage["within_pons_5x"] == (stage["mean"]["median"] <= stage["pons_5x_seconds"])
        nodes = stage["nodes"]
        assert 0 <= nodes["min"] <= nodes["median"] <= nodes["max"]  # 0: settled by its bounds
        assert nodes["min"] <= nodes["mean"] <= nodes["max"]


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
def test_a_folder_without_sets_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no benchmark set in"):
        main(["--sets", str(tmp_path)])
