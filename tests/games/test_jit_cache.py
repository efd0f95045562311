"""Where the compiled kernels are cached: the first writable folder, else none (pure Python)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from games.ayoayo import accel, jit_cache


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    jit_cache.cache_directory.cache_clear()
    yield
    jit_cache.cache_directory.cache_clear()


def test_an_unwritable_package_and_home_fall_back_to_a_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(jit_cache.tempfile, "gettempdir", lambda: str(tmp_path))
    temporary = jit_cache.candidates()[-1]
    monkeypatch.setattr(jit_cache, "_writable", lambda folder: folder == temporary)
    assert jit_cache.cache_directory() == temporary


def test_no_writable_folder_means_pure_python_said_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GAMESOLVER_NATIVE", raising=False)
    monkeypatch.setattr(jit_cache, "_writable", lambda folder: False)
    assert jit_cache.cache_directory() is None
    assert not accel.enabled() and accel.level_kernel() is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pure-Python engine" in err and "NUMBA_CACHE_DIR" in err


def test_a_folder_that_cannot_be_created_is_not_writable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not jit_cache._writable(blocker / "sub")
    assert jit_cache._writable(tmp_path / "new" / "sub")
