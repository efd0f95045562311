"""docs/reproduce_matches.py runs from a fresh clone: its reference data is in the repository."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "reproduce_matches.py"


def load_script() -> ModuleType:
    """Import the script by path, as `python docs/reproduce_matches.py` would run it."""
    spec = importlib.util.spec_from_file_location("reproduce_matches", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestReproduceMatches:
    def test_reference_data_is_inside_the_repository(self) -> None:
        """The reference run it compares against is a file of this repository."""
        script = load_script()
        assert script.REFERENCE.is_relative_to(ROOT) and script.REFERENCE.is_file()

    def test_a_tiny_run_writes_the_reference_beside_ours(self, tmp_path: Path) -> None:
        """A smoke run at a thousandth of the counts writes the table with the reference's row."""
        script = load_script()
        output = tmp_path / "matches.md"
        argv = ["--scale", "0.001", "--rows", "7", "--no-beyond", "--workers", "1"]
        assert script.main([*argv, "--output", str(output)]) == 0
        reference = json.loads(script.REFERENCE.read_text("utf-8"))["rows"][6]
        row = next(line for line in output.read_text("utf-8").splitlines() if "| 15 |" in line)
        assert row.startswith("| random | random | 15 |")
        assert f"{reference['p1']:,} / {reference['p2']:,} / {reference['draw']:,}" in row
