"""Fixtures for the analysis board: the app through Starlette's test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

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
