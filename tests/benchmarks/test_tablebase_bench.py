"""Smoke test of the tablebase benchmark: its own code path at a tiny size, structure only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.tablebase import main, parse_args


def test_small_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Levels up to 4 in this process: every level reported, a probe time, the JSON written."""
    out = tmp_path / "tb.json"
    argv = ["--seeds", "4", "--workers", "1", "--probes", "50", "--repeat", "1"]
    assert main([*argv, "--json", str(out), "--markdown"]) == 0
    figures = json.loads(out.read_text())
    assert [level["seeds"] for level in figures["levels"]] == [0, 4]
    assert figures["levels"][1]["positions"] == 2730 and figures["probe_seconds"]["median"] > 0
    assert "| seeds |" in capsys.readouterr().out


def test_a_bad_memory_size_is_one_line_before_any_build(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--memory 1M`` (below the 64M the builder needs) is argparse's one line naming it,
    where it was a traceback once the levels below had been built."""
    with pytest.raises(SystemExit) as stopped:
        parse_args(["--seeds", "8", "--memory", "1M"])
    assert stopped.value.code == 2
    (line,) = [text for text in capsys.readouterr().err.splitlines() if "error:" in text]
    assert "argument --memory: '1M' is too small; give at least 64M" in line
