"""Fixtures for the analysis board: the app through Starlette's test client; the real server
and Debian's Chromium for the page tests (see :mod:`tests.board.browsing`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.board.browsing import launch, open_page, serve
from tests.cli.conftest import run  # noqa: F401  (the in-process command line, for comparisons)
from zerosum.board.app import BoardConfig, create_app
from zerosum.cli import main


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The board's app with one search worker, started and stopped around the module."""
    with TestClient(create_app(BoardConfig(workers=1))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def tablebase_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An Ayòayò endgame tablebase of 4 seeds on the board, built for these tests."""
    directory = str(tmp_path_factory.mktemp("tablebase"))
    assert main(["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", directory]) == 0
    return directory


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
