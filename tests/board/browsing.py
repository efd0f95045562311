"""Driving the board page in Debian's headless Chromium through Playwright: the server, the
page, and the helpers the page tests share.

Chromium is Debian's (``/usr/bin/chromium``): Playwright drives it, it downloads nothing.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo

try:
    from playwright import sync_api as playwright_api
except ImportError:  # the page tests skip (see CHROMIUM_TESTS)
    playwright_api = None

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS_ENV = "GAMESOLVER_BOARD_SCREENSHOTS"
"""Set to a folder (e.g. docs/images) to keep the screenshots there as well."""

CHROMIUM_TESTS = [
    pytest.mark.chromium,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed"),
    pytest.mark.skipif(playwright_api is None, reason="playwright is not installed"),
]
"""The marks of a module of page tests."""


def serve(
    tmp_path_factory: pytest.TempPathFactory, *options: str, pythonpath: str | None = None
) -> Iterator[str]:
    """``gamesolver board --no-browser OPTIONS`` on a free loopback port; its URL.
    ``pythonpath``: the server's ``PYTHONPATH`` (default: the project), e.g. with a plug-in."""
    env = {**os.environ, "PYTHONPATH": pythonpath or str(ROOT)}
    log = tmp_path_factory.mktemp("server") / "stderr.txt"
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "board", "--no-browser", "--workers", "1", *options],
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"(http://\S+?)/\?", line)
        assert match, line + log.read_text()
        yield match.group(1)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    assert "Traceback" not in log.read_text(), log.read_text()


def launch() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright."""
    assert playwright_api is not None
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def open_page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 820})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    opened.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    opened.base = server
    opened.refusals = 0  # how many 400 answers the test expects (the browser logs each)
    yield opened
    context.close()
    refused = [p for p in problems if "status of 400" in p]
    assert len(refused) == opened.refusals, problems
    assert not [p for p in problems if p not in refused], problems


def wait_for(page: Any, condition: str, timeout: float = 30_000) -> None:
    """Wait for a script condition; on time-out, say what the page shows."""
    try:
        page.wait_for_function(condition, timeout=timeout)
    except playwright_api.TimeoutError:
        shown = page.inner_text("#engine-summary"), page.inner_text("#status")
        raise AssertionError(f"timed out waiting for {condition}; the page shows {shown}") from None


def open_board(page: Any, query: str = "", speed: int = 0) -> None:
    """Open the board at ``query`` with the sowing animation at ``speed`` ms a step."""
    page.goto(f"{page.base}/{query}")
    page.wait_for_selector("body[data-ready=yes]")
    page.eval_on_selector("#speed", f"e => {{ e.value = '{speed}'; }}")


def shown_position(page: Any) -> str:
    return str(page.get_attribute("#board", "data-position"))


def click_pit(page: Any, cell: int) -> None:
    """Click a legal pit and wait until the board shows the position after it."""
    before = shown_position(page)
    page.click(f".pit.legal[data-cell='{cell}']")
    page.wait_for_function(
        "before => document.querySelector('#board').dataset.position !== before "
        "&& !window.board.animating",
        arg=before,
    )


def keep_screenshot(page: Any, folder: Path, name: str, full_page: bool = False) -> bool:
    """Take a screenshot into ``folder`` (and the docs' folder when asked); whether it has
    content (a blank page makes a tiny PNG)."""
    folders = [folder] + ([Path(os.environ[SHOTS_ENV])] if os.environ.get(SHOTS_ENV) else [])
    for where in folders:
        where.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(where / name), full_page=full_page)
    return (folder / name).stat().st_size > 10_000


def signed(value: int | None) -> str:
    """A value as the page writes it: ``+4``, ``−8`` (a minus sign), ``0``, ``?``."""
    if value is None:
        return "?"
    return f"{value:+d}".replace("-", "−") if value else "0"


def play_line(page: Any, wanted: tuple[int, ...]) -> tuple[list[int], list[Any]]:
    """Click the ``wanted`` cells (the first legal one where a cell is not legal).

    Returns the cells played and the positions, the start first.
    """
    game = Ayoayo()
    states = [game.initial_state()]
    played = []
    for cell in wanted:
        legal = game.actions(states[-1])
        cell = cell if cell in legal else legal[0]
        click_pit(page, cell)
        played.append(cell)
        states.append(game.result(states[-1], cell))
    return played, states
