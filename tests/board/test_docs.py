"""What docs/board.md promises about records and the engine holds."""

from __future__ import annotations

from pathlib import Path

from zerosum.board.workers import DEFAULT_SEARCH_SECONDS
from zerosum.records import parse_record

DOC = Path(__file__).resolve().parents[2] / "docs" / "board.md"


def test_the_sample_record_is_read_with_its_headers_and_variation() -> None:
    """The record shown in the docs imports: every move legal, the other headers kept."""
    text = DOC.read_text(encoding="utf-8")
    sample = text.split("```\n# gamesolver game record\n", 1)[1].split("```", 1)[0]
    record = parse_record(sample)
    record.positions()  # every move checked, the variation's too
    assert set(record.headers) == {"players", "event", "date"}
    assert record.variations[1][0].moves == ("1", "3")


def test_the_time_limit_of_a_search_is_documented() -> None:
    """The board's search stops by itself after DEFAULT_SEARCH_SECONDS; the docs say so."""
    assert f"stops by itself after {DEFAULT_SEARCH_SECONDS:g} seconds" in DOC.read_text()
