"""The one rule for the project's folder in the user cache directory, used by every writer."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.resources import cache_directory


class TestCacheDirectory:
    """``$XDG_CACHE_HOME/gamesolver``, else ``~/.cache/gamesolver``, for all who write there."""

    def test_xdg_cache_home(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        assert cache_directory() == tmp_path / "gamesolver"

    def test_the_home_cache_otherwise(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        assert cache_directory() == Path.home() / ".cache" / "gamesolver"

    def test_proofs_tablebases_and_kernels_share_it(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        from games.ayoayo.jit_cache import candidates
        from games.ayoayo.tablebase import ENV_DIRECTORY, default_directory
        from zerosum.commands.prove import proofs_directory

        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        monkeypatch.delenv(ENV_DIRECTORY, raising=False)
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
        assert proofs_directory() == tmp_path / "gamesolver" / "proofs"
        assert default_directory() == tmp_path / "gamesolver" / "tablebases"
        assert tmp_path / "gamesolver" / "numba" in candidates()
