"""The board attacked: foreign hosts and pages, requests that start searches and leave, pages
that never read, hostile input, and a server killed under its workers.

Each test is an attack that worked before the board defended against it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.sync.client as websockets
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from games.ayoayo import Ayoayo
from solver.quoting import quote
from tests.board.conftest import BOARD_URL, LocalClient, alive, board_process, children
from tests.cli.conftest import Run
from zerosum.board.app import BoardConfig, create_app
from zerosum.board.stream import OUTBOX_LIMIT, StreamSession
from zerosum.board.workers import Budget, SearchPool
from zerosum.records import format_record

JSON = {"content-type": "application/json"}
PORT = BOARD_URL.rsplit(":", 1)[1]
FOREIGN_ORIGINS = ["http://evil.example", "null", "file://", f"http://evil.example:{PORT}"]


def jobs_started(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A list that gets every search job the board's pool is asked to make from now on."""
    pool = client.app.state.pool  # type: ignore[attr-defined]
    made: list[Any] = []
    new_job = pool.new_job

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(new_job(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(pool, "new_job", counted)
    return made


class TestHosts:
    @pytest.mark.parametrize(
        "host",
        [
            "evil.example",
            "evil.example:80",
            f"attacker.test:{PORT}",
            f"evil.example:{PORT}",
            f"evil.example@localhost:{PORT}",
            f"localhost/evil:{PORT}",
            f"localhost:{PORT}:1",
            "localhost:port",
            "",
        ],
    )
    def test_a_foreign_host_is_refused(self, client: TestClient, host: str) -> None:
        """A DNS-rebinding page's requests name its own host: refused, before any route,
        with a JSON error naming the host and the names the board answers to."""
        for answer in (
            client.get("/api/status", headers={"host": host}),
            client.post("/api/position", json={}, headers={"host": host}),
        ):
            assert answer.status_code == 400 and "workers" not in answer.text
            assert answer.json()["error"] == (
                f"refused: the request is addressed to host {host!r}; this board answers to "
                "127.0.0.1, localhost, [::1] (start it with --host to serve another address)"
            )

    @pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"])
    def test_the_loopback_names_at_the_boards_port_are_served(
        self, client: TestClient, name: str
    ) -> None:
        """The page may be opened at any name of this computer's loopback address."""
        answer = client.get("/api/status", headers={"host": f"{name}:{PORT}"})
        assert answer.status_code == 200 and answer.json()["workers"] == 1

    def test_a_loopback_name_at_another_port_is_refused(self, client: TestClient) -> None:
        """The port in ``Host`` must be the board's: a page of another local server is not."""
        answer = client.get("/api/status", headers={"host": "localhost:80"})
        assert answer.status_code == 400
        assert answer.json()["error"] == (
            f"refused: the request is addressed to port 80; this board listens on port {PORT}"
        )

    def test_a_board_on_another_address_answers_to_that_address(self) -> None:
        """``--host`` names what ``Host`` must say; the loopback names are then foreign."""
        with LocalClient(create_app(BoardConfig(workers=1, host="192.0.2.7"))) as own:
            served = own.get("/api/games", headers={"host": f"192.0.2.7:{PORT}"})
            refused = own.get("/api/games", headers={"host": f"localhost:{PORT}"})
        assert served.status_code == 200 and refused.status_code == 400

    def test_a_websocket_to_a_foreign_host_is_refused(self, client: TestClient) -> None:
        """The analysis stream is refused to a foreign ``Host`` before it is accepted."""
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/api/stream", headers={"host": "evil.example"}),
        ):
            pass
        assert refused.value.code == 1008 and "addressed to host 'evil.example'" in (
            refused.value.reason
        )


class TestOrigins:
    @pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
    def test_a_post_from_a_foreign_page_is_refused_and_starts_nothing(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch, origin: str
    ) -> None:
        """Another site, a sandboxed frame (``null``) or a file: 403 naming the page, no job."""
        made = jobs_started(client, monkeypatch)
        answer = client.post("/api/analyse", json={"depth": 2}, headers={"origin": origin, **JSON})
        assert answer.status_code == 403
        assert f"a request from the page at {origin!r}" in answer.json()["error"]
        assert made == []

    @pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
    def test_a_read_from_a_foreign_page_is_refused(self, client: TestClient, origin: str) -> None:
        """Even a request that changes nothing is not answered to another page."""
        answer = client.get("/api/games", headers={"origin": origin})
        assert answer.status_code == 403 and "games" not in answer.json()

    @pytest.mark.parametrize(
        "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
    )
    @pytest.mark.parametrize("origin", ["http://evil.example", None])
    def test_a_simple_post_is_refused_and_starts_no_search(
        self,
        client: TestClient,
        monkeypatch: pytest.MonkeyPatch,
        content_type: str,
        origin: str | None,
    ) -> None:
        """A body a page may send anywhere without asking (not JSON): 4xx, and no job."""
        made = jobs_started(client, monkeypatch)
        headers = {"content-type": content_type} | ({"origin": origin} if origin else {})
        answer = client.post("/api/analyse", content=b'{"depth": 2}', headers=headers)
        assert 400 <= answer.status_code < 500 and made == []
        if origin is None:
            assert answer.status_code == 415
            assert "the board reads JSON only" in answer.json()["error"]

    def test_the_boards_own_page_and_scripts_are_served(self, client: TestClient) -> None:
        """The page's own origin (at any loopback name) and a script (no Origin) are served."""
        for origin in (f"http://localhost:{PORT}", f"http://127.0.0.1:{PORT}", None):
            headers = JSON | ({"origin": origin} if origin else {})
            answer = client.post("/api/position", json={}, headers=headers)
            assert answer.status_code == 200, answer.text

    def test_allow_origin_lets_another_page_in(self) -> None:
        """An origin given with ``--allow-origin`` is served; others are still refused."""
        config = BoardConfig(workers=1, allow_origins=("http://localhost:3000",))
        with LocalClient(create_app(config)) as own:
            allowed = own.post(
                "/api/position", json={}, headers={"origin": "http://localhost:3000"}
            )
            other = own.post("/api/position", json={}, headers={"origin": "http://localhost:3001"})
        assert allowed.status_code == 200 and other.status_code == 403

    @pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
    def test_a_websocket_from_a_foreign_page_is_refused(
        self, client: TestClient, origin: str
    ) -> None:
        """The stream's handshake is refused to another page (HTTP 403): nothing is streamed
        to it."""
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/api/stream", headers={"origin": origin}),
        ):
            pass
        assert refused.value.code == 1008 and "a request from the page at" in refused.value.reason

    def test_a_websocket_from_the_boards_own_page_is_served(self, client: TestClient) -> None:
        """The page's own origin opens the stream."""
        with client.websocket_connect(
            "/api/stream", headers={"origin": f"http://localhost:{PORT}"}
        ) as ws:
            ws.send_json({"type": "stop"})
            ws.send_text("not json")
            assert "not JSON" in ws.receive_json()["error"]


class FakeSocket:
    """A page that sends ``messages`` and never reads a reply (the first is ``sent``)."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.never = asyncio.Event()
        self.sent: list[Any] = []

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        await asyncio.sleep(0)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send_json(self, message: Any) -> None:
        self.sent.append(message)
        await self.never.wait()


class TestStreamBounds:
    def test_a_page_that_never_reads_cannot_grow_the_outbox(self) -> None:
        """10,000 messages unread: at most the outbox's limit wait, the rest are counted."""
        page = FakeSocket([{"type": "websocket.receive", "text": "not json"}] * 10_000)
        peak = 0

        async def main() -> StreamSession:
            nonlocal peak
            session = StreamSession(page, SearchPool(1), "ayoayo", 1.0)  # type: ignore[arg-type]
            put = session.outbox.put

            def watched(message: dict[str, Any]) -> None:
                nonlocal peak
                put(message)
                peak = max(peak, len(session.outbox.messages))

            session.outbox.put = watched  # type: ignore[method-assign]
            await session.serve()
            return session

        session = asyncio.run(main())
        assert peak == OUTBOX_LIMIT and len(session.outbox.messages) == OUTBOX_LIMIT
        assert page.sent[0]["type"] == "dropped"
        assert page.sent[0]["count"] == 10_000 - OUTBOX_LIMIT

    def test_a_binary_frame_is_answered_with_an_error(
        self, client: TestClient, caplog: pytest.LogCaptureFixture
    ) -> None:
        """Bytes instead of text: a clear error on the stream, which goes on; nothing logged."""
        with caplog.at_level(logging.WARNING), client.websocket_connect("/api/stream") as ws:
            ws.send_bytes(b"\x00\xff{}")
            assert ws.receive_json()["error"] == (
                "invalid message: a binary frame; send JSON as text"
            )
            ws.send_json({"type": "analyse", "game": "tictactoe", "position": "xxx/oo./..."})
            assert ws.receive_json()["type"] == "done"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    def test_a_game_with_chance_is_refused_on_the_stream(self, client: TestClient) -> None:
        """Hog on the stream: a message naming the games the board analyses."""
        with client.websocket_connect("/api/stream") as ws:
            ws.send_json({"type": "analyse", "game": "hog"})
            message = ws.receive_json()
        assert message["type"] == "error"
        assert "the board analyses: ayoayo" in message["error"]


class TestBadInput:
    def test_a_game_with_chance_is_a_4xx_naming_what_would_work(
        self, client: TestClient, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``{"game": "hog"}`` is refused before a worker is asked, not a 500."""
        made = jobs_started(client, monkeypatch)
        answer = client.post("/api/analyse", json={"game": "hog"})
        assert answer.status_code == 400 and made == []
        error = answer.json()["error"]
        assert "game 'hog': it has chance moves" in error
        named = error.split("the board analyses: ")[1].split(" (")[0].split(", ")
        assert {"ayoayo", "textbook", "tictactoe"} <= set(named) and "hog" not in named
        assert "gamesolver solve hog" in error

    @pytest.mark.parametrize("path", ["/static/%C3%A9", "/static/%ED%B3%A9", "/static/a%00b"])
    def test_a_static_path_that_is_no_file_name_is_a_404(
        self, client: TestClient, path: str
    ) -> None:
        """A non-ASCII or broken file name finds nothing, as any other missing file."""
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json() == {"error": "not found"}


class TestBudget:
    def test_the_budget_is_stated_in_the_status(self, client: TestClient) -> None:
        """``/api/status`` says what any one search may take."""
        budget = client.get("/api/status").json()["budget"]
        assert budget == {"seconds": Budget().seconds, "nodes": Budget().nodes}

    def test_a_deep_search_stops_at_the_budget(self) -> None:
        """``depth: 64`` with a budget of 1,000 nodes ends at once, at a shallow depth."""
        config = BoardConfig(workers=1, budget=Budget(seconds=5, nodes=1_000))
        with LocalClient(create_app(config)) as own:
            assert own.get("/api/status").json()["budget"] == {"seconds": 5, "nodes": 1_000}
            assert wait_until(lambda: own.get("/api/status").json()["ready"] == 1, 30) < 30
            started = time.monotonic()
            answer = own.post("/api/analyse", json={"depth": 64}).json()
        assert answer["depth"] < 64 and not answer["complete"]
        assert time.monotonic() - started < 5

    def test_a_review_past_its_seconds_is_stopped(self) -> None:
        """The pool stops a job that runs past its seconds, and says why."""
        config = BoardConfig(workers=1, budget=Budget(seconds=0.3, nodes=10**12))
        game = Ayoayo()
        state, actions = game.initial_state(), []
        for _ in range(12):
            actions.append(game.actions(state)[0])
            state = game.result(state, actions[-1])
        record = format_record(game, game.initial_state(), actions)
        with LocalClient(create_app(config)) as own:
            assert wait_until(lambda: own.get("/api/status").json()["ready"] == 1, 30) < 30
            started = time.monotonic()
            answer = own.post("/api/review", json={"record": record, "time": 30})
        assert answer.status_code == 400 and time.monotonic() - started < 3
        assert "ran past the board's budget of 0.3 s" in answer.json()["error"]


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board that would start serving fails the test instead (it would serve for ever)."""
    import uvicorn

    def serve(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the board started serving")

    monkeypatch.setattr(uvicorn.Server, "run", serve)


@pytest.mark.usefixtures("no_serving")
class TestCommandLine:
    @pytest.mark.parametrize("port", ["١", "８０", "80a", "-1", "65536", "9" * 400])
    def test_a_port_must_be_ascii_digits(self, run: Callable[..., Run], port: str) -> None:
        """``str.isdigit`` took Arabic-Indic and full-width digits; the error names the value."""
        failed = run("board", "--no-browser", "--port", port)
        assert failed.code == 2 and "Traceback" not in failed.err
        assert f"invalid port {quote(port)}: expected 0..65535 in ASCII digits" in failed.err

    def test_workers_beyond_the_machines_limit_are_refused(self, run: Callable[..., Run]) -> None:
        """``--workers`` is capped as the build's are: by the CPUs and the memory."""
        failed = run("board", "--no-browser", "--workers", "100000")
        assert failed.code != 0 and "invalid --workers 100000: expected 1 to" in failed.err

    @pytest.mark.parametrize("origin", ["null", "file://", "evil.example", "http://a/b"])
    def test_a_bad_allow_origin_is_refused(self, run: Callable[..., Run], origin: str) -> None:
        """``--allow-origin`` takes scheme://host[:port] only, and says so."""
        failed = run("board", "--no-browser", "--allow-origin", origin)
        assert failed.code == 2 and f"invalid origin {origin!r}" in failed.err


def status(url: str, **headers: str) -> dict[str, Any]:
    with urllib.request.urlopen(urllib.request.Request(url + "/api/status", headers=headers)) as r:
        answer: dict[str, Any] = json.load(r)
    return answer


@contextlib.contextmanager
def deep_search(url: str) -> Iterator[socket.socket]:
    """A client that asks for a depth-64 search and, at the end, goes without its answer."""
    port = int(url.rsplit(":", 1)[1])
    body = json.dumps({"depth": 64}).encode()
    head = (
        f"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(head.encode() + body)
        yield client


def ready(url: str) -> bool:
    """Whether a search worker answers (a depth-1 search)."""
    body = json.dumps({"depth": 1}).encode()
    request = urllib.request.Request(url + "/api/analyse", body, JSON)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return bool(answer.status == 200)


def wait_until(condition: Callable[[], bool], seconds: float) -> float:
    """Seconds until ``condition()`` held (polled); ``seconds`` and more if it never did."""
    started = time.monotonic()
    while not condition() and time.monotonic() - started < seconds:
        time.sleep(0.02)
    return time.monotonic() - started


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The board as a process, one worker; its URL and its log."""
    log = tmp_path_factory.mktemp("board") / "stderr.txt"
    with board_process(log, "--workers", "1") as (_, url):
        assert ready(url)
        yield url, log


def workers_of(pid: int) -> list[int]:
    """The board's search workers (its children but multiprocessing's resource tracker)."""
    found = []
    for child in children(pid):
        try:
            command = (Path("/proc") / str(child) / "cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:
            found.append(child)
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
class TestNothingLeftRunning:
    def test_a_client_that_leaves_mid_search_frees_the_worker(
        self, board: tuple[str, Path]
    ) -> None:
        """An HTTP search whose client disconnects stops within two seconds."""
        url, _ = board
        with deep_search(url):
            assert wait_until(lambda: status(url)["busy"] == 1, 20) < 20
        assert wait_until(lambda: status(url)["busy"] == 0, 2) < 2

    def test_a_flooding_client_that_leaves_does_not_fill_the_log(
        self, board: tuple[str, Path]
    ) -> None:
        """3,000 bad and binary messages, then gone without reading, and 200 connections
        that are not HTTP: a quiet log (a repeated line is logged a few times a minute)."""
        url, log = board
        before = len(log.read_text().splitlines())
        with websockets.connect(
            "ws" + url.removeprefix("http") + "/api/stream", close_timeout=0.2
        ) as ws:
            for n in range(3000):
                ws.send(b"\x00" if n % 2 else "not json")
            ws.send(json.dumps({"type": "analyse"}))
        port = int(url.rsplit(":", 1)[1])
        for _ in range(200):
            with socket.create_connection(("127.0.0.1", port)) as garbage:
                garbage.sendall(b"\x16\x03\x01 not http\r\n\r\n")
        time.sleep(0.5)
        lines = log.read_text().splitlines()[before:]
        assert len(lines) <= 5, "\n".join(lines[:20])
        assert status(url)["workers"] == 1

    def test_kill_9_of_the_server_ends_its_workers(self, tmp_path: Path) -> None:
        """SIGKILL leaves the server no chance to end them: mid-search, they end with it, at
        once (not at their next line, on a broken pipe, with a traceback)."""
        log = tmp_path / "stderr.txt"
        with (
            board_process(log, "--workers", "1") as (process, url),
            deep_search(url),
        ):
            assert wait_until(lambda: status(url)["busy"] == 1, 20) < 20
            time.sleep(2)  # deep enough that the next depth, and its line, is seconds away
            left = children(process.pid)
            assert workers_of(process.pid)
            os.kill(process.pid, signal.SIGKILL)
            process.wait(5)
            took = wait_until(lambda: not any(alive(pid) for pid in left), 5)
        assert took < 0.5, [pid for pid in left if alive(pid)]
        assert "Traceback" not in log.read_text()

    def test_ctrl_c_while_the_workers_load_is_quiet_and_leaves_nothing(
        self, tmp_path: Path
    ) -> None:
        """Ctrl-C as the workers load the engine: no worker's traceback; the workers and the
        resource tracker gone within a second, the server (its interpreter's own teardown
        with the engine loaded takes most of a second on a loaded machine) within two."""
        log = tmp_path / "stderr.txt"
        with board_process(log, "--workers", "2") as (process, _):
            assert wait_until(lambda: len(workers_of(process.pid)) == 2, 10) < 10
            time.sleep(0.8)  # the workers are importing the engine (2-3 s)
            left = children(process.pid)
            os.killpg(process.pid, signal.SIGINT)
            took = wait_until(lambda: not any(alive(pid) for pid in left), 3)
            server = wait_until(lambda: process.poll() is not None, 5)
        assert "Traceback" not in log.read_text() and "KeyboardInterrupt" not in log.read_text()
        assert took < 1.0, (took, [pid for pid in left if alive(pid)])
        assert server < 2.0


class InconsistentOracle:
    """A tablebase whose entry for the position itself is damaged: it values the position 8
    and every move from it 0, which no exact table can."""

    levels = (0, 4)
    directory = "/tables"

    def __init__(self, root: Any) -> None:
        self.root = root

    def probe(self, state: Any) -> float | None:
        return 8.0 if state == self.root else 0.0

    def __call__(self, state: Any) -> float | None:
        return self.probe(state)

    def preferred_action(self, state: Any) -> Any:
        return None


class SentLines:
    """A worker's pipe that keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)


class TestDamagedTablebases:
    def test_a_damaged_level_is_named_in_the_status_and_to_the_page(
        self, tablebase_dir: str, tmp_path: Path
    ) -> None:
        """A truncated level file: ``/api/status`` and ``/api/games`` (the page shows it) say
        which file is not used and why, instead of nothing."""
        for entry in Path(tablebase_dir).iterdir():
            if entry.is_file():
                (tmp_path / entry.name).write_bytes(entry.read_bytes())
        damaged = tmp_path / "ayoayo-04.tb"
        damaged.write_bytes(damaged.read_bytes()[:100])
        with LocalClient(create_app(BoardConfig(workers=1, tablebase_dir=str(tmp_path)))) as own:
            warnings = own.get("/api/games").json()["warnings"]  # waits for the check
            status = own.get("/api/status").json()
            assert (status["warnings"], status["tablebases_checked"]) == (warnings, True)
        assert len(warnings) == 1 and "ayoayo-04.tb" in warnings[0]
        assert warnings[0].startswith("warning: tablebase file damaged, not used:")

    def test_a_tablebase_folder_that_is_a_file_is_said(self, tmp_path: Path) -> None:
        """``--tablebase-dir`` naming a file: the status says so, not "no tablebase"."""
        not_a_folder = tmp_path / "tables"
        not_a_folder.write_text("")
        config = BoardConfig(workers=1, tablebase_dir=str(not_a_folder))
        with LocalClient(create_app(config)) as own:
            warnings = own.get("/api/games").json()["warnings"]
        assert warnings and "is not a directory" in warnings[0]

    def test_good_tablebases_give_no_warning(self, client: TestClient) -> None:
        """No tablebase problem: no warning line."""
        assert client.get("/api/status").json()["warnings"] == []

    def test_a_damaged_entry_for_the_position_itself_is_a_clear_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An inconsistent tablebase at the root: the worker answers a message naming the
        tablebase and what to do (a 400 on the page), not a bug (a 500)."""
        from zerosum.board import workers

        position = "[[0,0,0,0,1,1],[1,0,0,0,0,1]] captured 24,20 to-move 1"
        game = Ayoayo()
        root = game.parse_state(position)
        monkeypatch.setattr(workers, "open_tablebase", lambda *_: InconsistentOracle(root))
        job = workers.Job(1, "ayoayo", position, depth=4)
        answer = workers._run_job(job, SentLines(), workers._Running(), {}, Budget())  # type: ignore[arg-type]
        assert "bug" not in answer
        assert answer["error"].startswith("the oracle is inconsistent")
        assert "with the tablebase in /tables: it may be damaged" in answer["error"]
        assert "--no-tablebase" in answer["error"]
