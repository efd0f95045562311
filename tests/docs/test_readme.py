"""The Python examples of the README and the site's home page run as printed."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["README.md", "docs/index.md"]
FENCE = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("page", PAGES)
def test_python_blocks_run(page: str) -> None:
    """Each Python block runs and prints what its comments promise (the tic-tac-toe figures)."""
    blocks = FENCE.findall((ROOT / page).read_text("utf-8"))
    assert blocks, f"{page} has no Python block"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for number, body in enumerate(blocks, 1):
            exec(compile(body, f"{page} block {number}", "exec"), {})
    printed = out.getvalue()
    assert "states=5478" in printed and "value=0" in printed
    assert "\n3\n" in printed  # alpha-beta's value of AIMA's Figure 5.2
