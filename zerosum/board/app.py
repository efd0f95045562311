"""The analysis board's ASGI app: the page, its JSON API and the streaming analysis.

Routes (documented for players and scripts in ``docs/board.md``):

* ``GET /`` the page; ``GET /static/...`` its scripts and style (from the package only).
* ``GET /api/games`` the games and how the page draws them, and the strength levels.
* ``GET /api/status`` the search workers: how many, how many ready, how many busy, how long
  (ms) the latest stopped searches took to stop, the budget of every search (seconds, nodes).
* ``POST /api/position`` ``{game, position}``: the position as the page draws it.
* ``POST /api/play`` ``{game, position, move, earlier?}``: the position after a move, with the
  steps of an Ayòayò sowing; ``earlier``, the game's positions before ``position``, lets the
  repetition rule end the game (as ``play`` does).
* ``POST /api/analyse`` ``{game, position, depth | time | level}``: what ``analyse --json``
  prints (``level``: a named strength, see :mod:`zerosum.strength`).
* ``POST /api/record`` ``{record}``: a game record read, every position after each move, with
  its comments and variations.
* ``POST /api/export`` ``{game, position, moves, comments?, annotations?, variations?,
  headers?}``: the record of moves played from a position (annotations: ``{index: mark}``;
  variations: ``{index: [{moves, comments?, annotations?, variations?}]}``; headers:
  ``{name: text}``, e.g. players, event, date).
* ``POST /api/review`` ``{record, depth | time}``: what ``gamesolver review --json`` prints.
* ``WS /api/stream``: send ``{"type": "analyse", "game", "position"}`` and receive a
  ``line`` per completed depth then ``done``; a new position (or ``{"type": "stop"}``) stops
  the search at once. One search per page; searches run in worker processes
  (:mod:`zerosum.board.stream`).

Every bad request gets a 4xx answer ``{"error": message}`` with the command line's message.
Only requests to the board's own address from its own page (or from scripts, which send no
``Origin``) are served (:mod:`zerosum.board.guard`). A search whose HTTP client goes away is
stopped, and every search has a budget (:class:`~zerosum.board.workers.Budget`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import math
import threading
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any, Final, TypeVar

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from games import available_games, game_info
from solver.game import GameError, parse_action
from solver.quoting import quote
from zerosum.analysis import DEFAULT_ANALYSE_SECONDS, over_json
from zerosum.board.guard import LocalOnly
from zerosum.board.origins import served_hosts
from zerosum.board.stream import StreamSession
from zerosum.board.views import describe, play_move
from zerosum.board.workers import (
    DEFAULT_SEARCH_SECONDS,
    Budget,
    Job,
    SearchPool,
    SearchUnavailable,
    searchable,
    tablebase_warnings,
)
from zerosum.console import UsageError
from zerosum.options import read_game_spec
from zerosum.positions import load_cells, load_earlier, load_position
from zerosum.records import (
    Variation,
    format_record,
    headers_from_json,
    line_states,
    parse_record,
    variation_from_json,
)
from zerosum.strength import LEVELS, level

__all__ = ["MAX_BODY", "BoardConfig", "ClientGone", "create_app"]

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
    """How the board was started: the game and position it opens with, the search workers,
    the address it listens on (``host``: the names a request's ``Host`` may give follow from
    it) and the other pages' origins it serves (``allow_origins``, as
    :func:`~zerosum.board.guard.parse_origin` writes them)."""

    game: str = "ayoayo"
    position: str | None = None
    workers: int | None = None
    search_seconds: float = DEFAULT_SEARCH_SECONDS
    tablebase_dir: str | None = None
    no_tablebase: bool = False
    host: str = "127.0.0.1"
    allow_origins: tuple[str, ...] = ()
    budget: Budget = attrs.field(factory=Budget)


class BadRequest(Exception):
    """A request the board cannot answer: a 4xx status and the message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _line_json(
    game: Any, start: Any, line: Variation, earlier: tuple[Any, ...] = ()
) -> list[dict[str, Any]]:
    """Each move of ``line`` as the page plays it (position, sowing, the repetition rule over
    ``earlier``, the positions before ``start``), with its comment and its variations (each a
    list of such moves), nested."""
    moves = []
    state = start
    for index, move in enumerate(line.moves):
        played = play_move(game, state, move, earlier)
        played["comment"] = line.comments.get(index, "")
        played["annotation"] = line.annotations.get(index, "")
        played["variations"] = [
            _line_json(game, state, variation, earlier)
            for variation in line.variations.get(index, ())
        ]
        moves.append(played)
        earlier = (*earlier, state)
        state = game.result(state, parse_action(game, state, move))
    return moves


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


def _limits(
    data: dict[str, Any], default_time: float | None = DEFAULT_ANALYSE_SECONDS
) -> tuple[int | None, float | None]:
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
        time = default_time
    return depth, None if time is None else float(time)


def _settle(future: concurrent.futures.Future[list[str]], work: Any, *args: Any) -> None:
    """Run ``work(*args)`` and settle ``future`` with its answer or its error."""
    try:
        future.set_result(work(*args))
    except BaseException as exc:  # handed to whoever awaits the answer
        future.set_exception(exc)


def _said(exc: BaseException) -> str:
    """An error in a line: its message, else its kind (a plug-in may raise a bare error)."""
    return " ".join(str(exc).split())[:300] or type(exc).__name__


class _Endpoints:
    """The board's HTTP endpoints, over one configuration and one pool of search workers."""

    def __init__(self, config: BoardConfig, pool: SearchPool) -> None:
        self.config = config
        self.pool = pool
        self.checked: concurrent.futures.Future[list[str]] = concurrent.futures.Future()
        """What is wrong with the tablebases (damaged files, a folder that is not one), found
        in a thread: every level's values are read to say it (seconds for levels to 20), so
        the board serves, and stops on Ctrl-C, while it reads."""
        threading.Thread(
            target=_settle, args=(self.checked, tablebase_warnings, pool.options), daemon=True
        ).start()

    def warnings_so_far(self) -> list[str]:
        """The tablebase warnings if the check has ended (else none yet)."""
        return self.checked.result() if self.checked.done() else []

    def position_of(self, data: dict[str, Any]) -> tuple[Any, Any]:
        """The game and position a request names (the board's game when it names none): its
        text, or the grid editor's cells."""
        if data.get("cells") is not None:
            return load_cells(self.spec_of(data), data["cells"])
        return load_position(self.spec_of(data), data.get("position"))

    def spec_of(self, data: dict[str, Any]) -> Any:
        """The game a request names, with its options (``connect4 width=5``), else the
        board's; checked as text when it is loaded."""
        return data.get("game", self.config.game)

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    async def games(self, request: Request) -> Response:
        listed: list[dict[str, Any]] = []
        broken: list[dict[str, Any]] = []
        needs: list[dict[str, Any]] = []
        own_name = read_game_spec(self.config.game)[0]
        for name in available_games():
            try:
                needed = game_info(name).options_needed
                if needed and name != own_name:  # made only with options: say how to give them
                    needs.append({"name": name, "options": list(needed)})
                    continue
                game, state = load_position(self.config.game if name == own_name else name, None)
                view = describe(game, state)["view"]
                summary = game_info(name).summary
            except Exception as exc:  # a plug-in's code may raise anything
                broken.append({"name": name, "error": _said(exc)})
                continue
            listed.append({"name": name, "description": summary, "view": view})
        default = {"game": self.config.game, "position": self.config.position}
        levels = [{"name": lv.name, "said": lv.said} for lv in LEVELS.values()]
        warnings = await asyncio.wrap_future(self.checked)  # the page shows them once
        answer: dict[str, Any] = {"games": listed, "broken": broken, "needs_options": needs}
        answer |= {"default": default, "levels": levels}
        return JSONResponse(answer | {"warnings": warnings})

    async def status(self, request: Request) -> Response:
        pool = self.pool
        latest = [round(seconds * 1000, 1) for seconds in pool.stop_seconds]
        return JSONResponse(
            {
                "workers": pool.size,
                "ready": pool.ready(),
                "busy": pool.busy(),
                "stop_ms": latest,
                "budget": pool.budget.to_json(),
                "warnings": self.warnings_so_far(),
                "tablebases_checked": self.checked.done(),
            }
        )

    async def position(self, request: Request) -> Response:
        game, state = self.position_of(await _read_json(request))
        return JSONResponse(describe(game, state))

    async def play(self, request: Request) -> Response:
        data = await _read_json(request)
        game, state = self.position_of(data)
        earlier = load_earlier(self.spec_of(data), data.get("earlier"))
        return JSONResponse(play_move(game, state, data.get("move"), earlier))

    async def analyse(self, request: Request) -> Response:
        data = await _read_json(request)
        game, state = self.position_of(data)
        depth, time = _limits(data)
        if data.get("level") is not None:
            if "depth" in data or "time" in data:
                raise BadRequest("give a level, or depth or time, not both")
            chosen = level(data["level"])
            depth, time = chosen.depth, chosen.seconds
        if game.is_terminal(state):
            return JSONResponse(over_json(game, state))
        searchable(game)
        job = self.pool.new_job(self.spec_of(data), describe(game, state)["position"], depth, time)
        return JSONResponse(await self._answer(job, request))

    async def record(self, request: Request) -> Response:
        parsed = parse_record((await _read_json(request)).get("record"))
        game, states = parsed.positions()
        line = Variation(parsed.moves, parsed.comments, parsed.variations, parsed.annotations)
        moves = _line_json(game, states[0], line)
        start = describe(game, states[0])
        headers = dict(parsed.headers)
        answer = {"game": parsed.game, "start": start, "moves": moves, "headers": headers}
        return JSONResponse(answer)

    async def export(self, request: Request) -> Response:
        data = await _read_json(request)
        game, start = self.position_of(data)
        line = variation_from_json(data)
        states = line_states(game, start, line.moves, 1)
        actions = [parse_action(game, states[i], move) for i, move in enumerate(line.moves)]
        headers = headers_from_json(data.get("headers"))
        text = format_record(
            game,
            start,
            actions,
            game_spec=self.spec_of(data),
            comments=line.comments,
            headers=headers,
            variations=line.variations,
            annotations=line.annotations,
        )
        return JSONResponse({"record": text})

    async def review(self, request: Request) -> Response:
        data = await _read_json(request)
        parsed = parse_record(data.get("record"))
        game, _ = parsed.positions()  # an illegal move is refused here, before a worker is asked
        searchable(game)
        depth, time = _limits(data, default_time=None)
        job = self.pool.new_job(parsed.game, parsed.start, depth, time, record=data["record"])
        return JSONResponse(await self._answer(job, request))

    async def _answer(self, job: Job, request: Request) -> dict[str, Any]:
        """``job``'s answer; the search is stopped if the client goes away first."""
        answer = await _unless_gone(request, self.pool.run(job))
        if answer is None:
            raise BadRequest("the search was stopped: the server is closing", 503)
        if "error" in answer:
            raise BadRequest(str(answer["error"]), 500 if answer.get("bug") else 400)
        return answer

    async def stream(self, websocket: WebSocket) -> None:
        await websocket.accept()
        config = self.config
        await StreamSession(websocket, self.pool, config.game, config.search_seconds).serve()


T = TypeVar("T")


class ClientGone(Exception):
    """The client of an HTTP request went away before its answer."""


async def _unless_gone(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result, or :class:`ClientGone` (``work`` cancelled) if the client of
    ``request`` disconnects first. The request's body must have been read."""

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    running = asyncio.ensure_future(work)
    watching = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({running, watching}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watching.cancel()
        if not running.done():
            running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
    if running.cancelled() or not running.done():
        with contextlib.suppress(asyncio.CancelledError):
            await running
        raise ClientGone
    return running.result()


async def _bad_request(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, BadRequest) else 400
    if isinstance(exc, SearchUnavailable):
        status = 503
    if isinstance(exc, ClientGone):
        status = 499  # nobody reads it: the client has gone
    return JSONResponse({"error": str(exc)}, status_code=status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail.lower()}, status_code=exc.status_code)


def create_app(config: BoardConfig | None = None) -> Starlette:
    """The board's app; its search workers start with the app and end with it."""
    config = config or BoardConfig()
    pool = SearchPool(
        config.workers, config.tablebase_dir, config.no_tablebase, config.budget, config.game
    )
    endpoints = _Endpoints(config, pool)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    post = ["POST"]
    routes = [
        Route("/", endpoints.page),
        Route("/api/games", endpoints.games),
        Route("/api/status", endpoints.status),
        Route("/api/position", endpoints.position, methods=post),
        Route("/api/play", endpoints.play, methods=post),
        Route("/api/analyse", endpoints.analyse, methods=post),
        Route("/api/record", endpoints.record, methods=post),
        Route("/api/export", endpoints.export, methods=post),
        Route("/api/review", endpoints.review, methods=post),
        WebSocketRoute("/api/stream", endpoints.stream),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Any] = {
        BadRequest: _bad_request,
        GameError: _bad_request,
        UsageError: _bad_request,
        SearchUnavailable: _bad_request,
        ClientGone: _bad_request,
        HTTPException: _http_error,
    }
    hosts = served_hosts(config.host)
    middleware = [
        Middleware(LocalOnly, hosts=hosts, allow_origins=config.allow_origins),
    ]
    app = Starlette(
        routes=routes, exception_handlers=handlers, lifespan=lifespan, middleware=middleware
    )
    app.state.pool = pool
    return app
