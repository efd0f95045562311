"""``gamesolver board`` as a process: refusing bad input, the host warning, Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable

import pytest

from tests.board.conftest import ROOT, alive, children
from tests.cli.conftest import Run


class TestRefusals:
    def test_a_bad_position_is_refused_before_serving(self, run: Callable[..., Run]) -> None:
        """The command line's message, and no server."""
        failed = run("board", "--no-browser", "--position", "[[1]]")
        assert failed.code != 0 and "cannot read a board in '[[1]]'" in failed.err

    def test_another_host_warns_that_there_is_no_login(self, run: Callable[..., Run]) -> None:
        """Listening beyond loopback warns; a port in use is a clear error."""
        with socket.create_server(("0.0.0.0", 0)) as taken:
            port = str(taken.getsockname()[1])
            failed = run("board", "--no-browser", "--host", "0.0.0.0", "--port", port)
        assert "the board has no login" in failed.err
        assert failed.code != 0 and f"cannot listen on 0.0.0.0 port {port}: in use" in failed.err


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
class TestStopping:
    def test_ctrl_c_stops_the_server_and_its_workers_within_a_second(self) -> None:
        """With a search running, Ctrl-C (SIGINT to the group) ends every process in 1 s."""
        process = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "board", "--no-browser", "--workers", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
            start_new_session=True,
        )
        try:
            assert process.stdout is not None
            url = re.search(r"(http://\S+?)/\?", process.stdout.readline())
            assert url
            body = json.dumps({"time": 60}).encode()
            request = urllib.request.Request(
                url.group(1) + "/api/analyse", body, {"content-type": "application/json"}
            )
            threading.Thread(target=self.ask, args=(request,), daemon=True).start()
            deadline = time.monotonic() + 30
            while len(children(process.pid)) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)  # two workers and multiprocessing's resource tracker
            time.sleep(1.5)  # the workers ready, the search under way
            workers = children(process.pid)
            started = time.monotonic()
            os.killpg(process.pid, signal.SIGINT)
            process.wait(5)
            while any(alive(pid) for pid in workers) and time.monotonic() - started < 5:
                time.sleep(0.01)
            took = time.monotonic() - started
            assert not [pid for pid in workers if alive(pid)]
            assert took < 1.0, took
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)

    @staticmethod
    def ask(request: urllib.request.Request) -> None:
        """Send ``request``, ignoring how it ends (the server is stopped under it)."""
        with contextlib.suppress(OSError):
            urllib.request.urlopen(request, timeout=30).read()
