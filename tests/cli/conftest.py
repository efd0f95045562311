"""Helpers for running ``gamesolver`` in-process: exit code, stdout and stderr."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from zerosum.cli import main


@attrs.frozen
class Run:
    """What one in-process run of the command printed and returned."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """Stdout parsed as JSON."""
        return json.loads(self.out)


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """Run ``gamesolver`` with the given arguments (and optional stdin text) in this process."""

    def runner(*argv: str, stdin: str | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err, captured.err
        return Run(code, captured.out, captured.err)

    return runner
