"""Fixtures for the analysis board: the app through Starlette's test client, and the board
as a process of its own."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from tests.board.browsing import launch, open_page, serve
from tests.cli.conftest import run  # noqa: F401  (the in-process command line, for comparisons)
from zerosum.board.app import BoardConfig, create_app
from zerosum.cli import main

ROOT = Path(__file__).resolve().parents[2]

BOARD_URL = "http://127.0.0.1:8765"
"""Where the test client's requests go: a loopback address, as the board's own page."""


class LocalClient(TestClient):
    """Starlette's test client addressing the board as its page does: at a loopback address
    (the board refuses any other ``Host``), WebSockets too."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, base_url=BOARD_URL, **options)

    def websocket_connect(self, url: str, *args: Any, **options: Any) -> WebSocketTestSession:
        if url.startswith("/"):
            url = "ws" + BOARD_URL.removeprefix("http") + url
        return super().websocket_connect(url, *args, **options)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The board's app with one search worker, started and stopped around the module.

    Its worker starts before the suite's per-test fixtures run, so it is told here, as they
    say for each test, not to read the developer's own tablebases.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GAMESOLVER_TABLEBASE_DIR", str(tmp_path_factory.getbasetemp() / "no-tb"))
        with LocalClient(create_app(BoardConfig(workers=1))) as test_client:
            yield test_client


@pytest.fixture(scope="module")
def tablebase_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An Ayòayò endgame tablebase of 4 seeds on the board, built for these tests."""
    directory = str(tmp_path_factory.mktemp("tablebase"))
    assert main(["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", directory]) == 0
    return directory


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@contextlib.contextmanager
def board_process(log: Path, *options: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``gamesolver board --no-browser --no-tablebase OPTIONS`` in a session of its own (its
    stderr in ``log``), and its URL once it listens; killed with its group at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "board", "--no-browser", "--no-tablebase", *options],
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"(http://\S+?)/\?", line)
        assert match, line + log.read_text()
        yield process, match.group(1)
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``gamesolver board`` with no tablebase, a real server; its URL."""
    yield from serve(tmp_path_factory, "--no-tablebase")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright."""
    yield from launch()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A desktop-sized page; fails the test on any script error or failed request."""
    yield from open_page(browser, server)
