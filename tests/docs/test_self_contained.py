"""The repository stands alone: no file reads or cites data outside it (a user's clone has none)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "solver",
    "games",
    "viz",
    "play",
    "zerosum",
    "tests",
    "docs",
    "benchmarks",
    "tools",
    ".ci",
)
TEXT_SUFFIXES = {".py", ".md", ".toml", ".sh", ".yml", ".yaml", ".cfg", ".txt", ""}
OUTSIDE = re.compile(r"\.\./shared|/work/shared|shared/ayoayo|RULES\.md")


def project_files() -> list[Path]:
    """The project's text files: the top level and its source folders."""
    files = [p for p in ROOT.iterdir() if p.is_file()]
    for folder in PACKAGES:
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file()]
    return [p for p in files if p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts]


class TestSelfContained:
    def test_nothing_points_outside_the_repository(self) -> None:
        """No source, test, doc or script names the shared folder or its rule file."""
        here = Path(__file__)
        offenders = [
            f"{p.relative_to(ROOT)}:{n}"
            for p in project_files()
            if p != here
            for n, line in enumerate(p.read_text("utf-8", errors="replace").splitlines(), 1)
            if OUTSIDE.search(line)
        ]
        assert offenders == []

    def test_the_rules_page_exists(self) -> None:
        """The Ayòayò rules the code and tests cite are in docs/."""
        assert (ROOT / "docs" / "ayoayo-rules.md").is_file()
