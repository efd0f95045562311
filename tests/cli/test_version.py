"""``gamesolver --version`` names the command, the distribution and its installed version."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version

from tests.cli.conftest import Run


class TestVersion:
    def test_prints_the_installed_version(self, run: Callable[..., Run]) -> None:
        """--version exits 0 and prints the version pip installed, on stdout."""
        result = run("--version")
        assert result.code == 0
        assert result.out.strip() == f"gamesolver (zerosum) {version('zerosum')}"
