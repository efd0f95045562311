"""The analysis board's ASGI app: the page, its JSON API and the streaming analysis.

Routes (documented for players and scripts in ``docs/board.md``):

* ``GET /`` the page; ``GET /static/...`` its scripts and style (from the package only).
* ``GET /api/games`` the games and how the page draws them.
* ``POST /api/position`` ``{game, position}``: the position as the page draws it.
* ``POST /api/play`` ``{game, position, move}``: the position after a move, with the steps of
  an Ayòayò sowing.
* ``POST /api/analyse`` ``{game, position, depth | time}``: what ``analyse --json`` prints.
* ``WS /api/stream``: send ``{"type": "analyse", "game", "position"}`` and receive a
  ``line`` per completed depth then ``done``; a new position (or ``{"type": "stop"}``) stops
  the search at once. One search per page; searches run in worker processes.

Every bad request gets a 4xx answer ``{"error": message}`` with the command line's message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from games import available_games, game_info
from solver.game import GameError
from solver.quoting import quote
from zerosum.board.views import describe, load_position, play_move
from zerosum.board.workers import DEFAULT_SEARCH_SECONDS, SearchPool, SearchUnavailable
from zerosum.commands.analyse import DEFAULT_ANALYSE_SECONDS, over_json
from zerosum.console import UsageError

__all__ = ["MAX_BODY", "BoardConfig", "create_app"]

STATIC: Final = Path(__file__).parent / "static"
"""The page's files, shipped in the package."""

MAX_BODY: Final = 256 * 1024
"""The largest request body in bytes (a long game record is a few kilobytes)."""

MAX_DEPTH: Final = 64
"""The deepest search a request may ask for."""

MAX_TIME: Final = 600.0
"""The longest search a request may ask for, in seconds."""

log = logging.getLogger("zerosum.board")


@attrs.frozen
class BoardConfig:
    """How the board was started: the game and position it opens with, the search workers."""

    game: str = "ayoayo"
    position: str | None = None
    workers: int | None = None
    search_seconds: float = DEFAULT_SEARCH_SECONDS
    tablebase_dir: str | None = None
    no_tablebase: bool = False


class BadRequest(Exception):
    """A request the board cannot answer: a 4xx status and the message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def _read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(f"request body too large: at most {MAX_BODY} bytes", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"request body too large: at most {MAX_BODY} bytes", 413)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise BadRequest("invalid request: the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest(f"invalid request {quote(data)}: expected a JSON object")
    return data


def _limits(data: dict[str, Any]) -> tuple[int | None, float | None]:
    """``depth`` and ``time`` of an analyse request, checked as the command line checks them."""
    depth, time = data.get("depth"), data.get("time")
    if depth is not None and time is not None:
        raise BadRequest("give depth or time, not both")
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH
    ):
        raise BadRequest(f"invalid depth {quote(depth)}: expected a whole number 1..{MAX_DEPTH}")
    if time is not None and (
        isinstance(time, bool)
        or not isinstance(time, (int, float))
        or not math.isfinite(time)
        or not 0 < time <= MAX_TIME
    ):
        raise BadRequest(f"invalid time {quote(time)}: expected seconds, above 0 and at most 600")
    if depth is None and time is None:
        time = DEFAULT_ANALYSE_SECONDS
    return depth, None if time is None else float(time)


def create_app(config: BoardConfig | None = None) -> Starlette:
    """The board's app; its search workers start with the app and end with it."""
    config = config or BoardConfig()
    pool = SearchPool(config.workers, config.tablebase_dir, config.no_tablebase)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    async def games(request: Request) -> Response:
        listed = []
        for name in available_games():
            game, state = load_position(name, None)
            view = describe(game, state)["view"]
            listed.append({"name": name, "description": game_info(name).summary, "view": view})
        return JSONResponse(
            {"games": listed, "default": {"game": config.game, "position": config.position}}
        )

    async def position(request: Request) -> Response:
        data = await _read_json(request)
        game, state = load_position(data.get("game", config.game), data.get("position"))
        return JSONResponse(describe(game, state))

    async def play(request: Request) -> Response:
        data = await _read_json(request)
        game, state = load_position(data.get("game", config.game), data.get("position"))
        return JSONResponse(play_move(game, state, data.get("move")))

    async def analyse(request: Request) -> Response:
        data = await _read_json(request)
        game, state = load_position(data.get("game", config.game), data.get("position"))
        depth, time = _limits(data)
        if game.is_terminal(state):
            return JSONResponse(over_json(game, state))
        job = pool.new_job(game.name, describe(game, state)["position"], depth, time)
        answer = await pool.run(job)
        if answer is None:
            raise BadRequest("the search was stopped: the server is closing", 503)
        return JSONResponse(answer)

    async def stream(websocket: WebSocket) -> None:
        await websocket.accept()
        session = _StreamSession(websocket, pool, config)
        await session.serve()

    async def bad_request(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, BadRequest) else 400
        if isinstance(exc, SearchUnavailable):
            status = 503
        return JSONResponse({"error": str(exc)}, status_code=status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail.lower()}, status_code=exc.status_code)

    routes = [
        Route("/", page),
        Route("/api/games", games),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/analyse", analyse, methods=["POST"]),
        WebSocketRoute("/api/stream", stream),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Any] = {
        BadRequest: bad_request,
        GameError: bad_request,
        UsageError: bad_request,
        SearchUnavailable: bad_request,
        HTTPException: http_error,
    }
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.pool = pool
    return app


class _StreamSession:
    """One page's analysis stream: at most one search, the newest position's."""

    def __init__(self, websocket: WebSocket, pool: SearchPool, config: BoardConfig) -> None:
        self.websocket = websocket
        self.pool = pool
        self.config = config
        self.search: asyncio.Task[None] | None = None
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def serve(self) -> None:
        sender = asyncio.create_task(self._send_all())
        try:
            while True:
                try:
                    text = await self.websocket.receive_text()
                except (WebSocketDisconnect, RuntimeError):
                    return
                await self._handle(text)
        finally:
            await self._stop()
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def _send_all(self) -> None:
        while True:
            message = await self.outbox.get()
            try:
                await self.websocket.send_json(message)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    async def _handle(self, text: str) -> None:
        await self._stop()
        try:
            if len(text) > MAX_BODY:
                raise BadRequest(f"message too large: at most {MAX_BODY} bytes", 413)
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                raise BadRequest("invalid message: not JSON") from None
            if not isinstance(data, dict) or data.get("type") not in ("analyse", "stop"):
                raise BadRequest(
                    f"invalid message {quote(data)}: expected "
                    '{"type": "analyse", "game": ..., "position": ...} or {"type": "stop"}'
                )
            if data["type"] == "stop":
                return
            game, state = load_position(data.get("game", self.config.game), data.get("position"))
        except (BadRequest, GameError, UsageError) as exc:
            self.outbox.put_nowait({"type": "error", "error": str(exc)})
            return
        shown = describe(game, state)["position"]
        if game.is_terminal(state):
            answer = over_json(game, state)
            self.outbox.put_nowait({"type": "done", "position": shown, "answer": answer})
            return
        job = self.pool.new_job(game.name, shown, None, self.config.search_seconds)
        self.search = asyncio.create_task(self._run(job))

    async def _run(self, job: Any) -> None:
        position = job.position

        def on_line(answer: dict[str, Any]) -> None:
            self.outbox.put_nowait({"type": "line", "position": position, "answer": answer})

        if self.pool.busy() >= self.pool.size:
            self.outbox.put_nowait({"type": "waiting", "position": position})
        try:
            answer = await self.pool.run(job, on_line)
        except SearchUnavailable as exc:
            self.outbox.put_nowait({"type": "error", "error": str(exc)})
            return
        if answer is not None:
            self.outbox.put_nowait({"type": "done", "position": position, "answer": answer})

    async def _stop(self) -> None:
        search, self.search = self.search, None
        if search is not None and not search.done():
            search.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await search
