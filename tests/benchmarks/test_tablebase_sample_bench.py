"""The sampling benchmark's own path at a small level, its counts checked against the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.ayoayo.tablebase_build import build
from games.ayoayo.tablebase_moves import level_moves

native_tablebase = pytest.importorskip("games.ayoayo.native_tablebase")
sample_bench = pytest.importorskip("benchmarks.tablebase_sample")


def test_sampled_partitions_of_level_12(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two partitions of level 12 sampled on the levels below: each one's moves that stay in
    the level per board equal the count of the rules' own moves (no gain, a legal move), and
    the whole level's estimates and the JSON are written; the scratch files are gone."""
    build(8, tmp_path / "tb", kernel=native_tablebase.KERNEL)
    out = tmp_path / "sample.json"
    argv = ["--seeds", "12", "--dir", str(tmp_path / "tb"), "--partition", "16384"]
    argv += [
        "--partitions",
        "2",
        "--workers",
        "1",
        "--scratch",
        str(tmp_path / "s"),
        "--json",
        str(out),
    ]
    assert sample_bench.main(argv) == 0
    figures = json.loads(out.read_text())
    assert figures["seeds"] == 12 and figures["partitions"] > 2
    size = figures["partition_boards"]
    for row in figures["sampled"]:
        lo = row["partition"] * size
        moves = level_moves(12, lo, lo + row["boards"])
        stay = (moves.child >= 0) & (moves.gain_mover == 0) & (moves.gain_opponent == 0)
        assert row["stay_moves_per_board"] == round(int(stay.sum()) / row["boards"], 4)
        assert row["spilled_pairs"] == int(stay.sum())
        assert 0 < row["positions_with_exit"] <= 1
    assert figures["whole_level"]["moves_core_hours"] > 0
    assert not list((tmp_path / "s").iterdir())
    assert "moves a board" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--partitions", "0"], "give 1 to"),
        (["--partitions", "99999"], "give 1 to"),
        (["--memory", "lots"], "--memory: 'lots' is not a size"),
    ],
)
def test_bad_arguments_are_named(tmp_path: Path, argv: list[str], error: str) -> None:
    """A count of partitions the level does not have, or a budget that is not a size, is one
    line naming it and what is valid, before any level is read."""
    with pytest.raises(SystemExit, match=error):
        sample_bench.main(["--seeds", "12", "--dir", str(tmp_path), *argv])


def test_missing_lower_levels_are_named(tmp_path: Path) -> None:
    """Sampling a level whose lower levels are not in ``--dir`` says which file is missing."""
    with pytest.raises(SystemExit, match=r"ayoayo-00\.tb"):
        sample_bench.main(["--seeds", "12", "--dir", str(tmp_path), "--partition", "16384"])
