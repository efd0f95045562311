"""The board's analysis stream: one page's WebSocket, at most one search, a bounded outbox.

A page sends ``{"type": "analyse", "game", "position"}`` (or ``{"type": "stop"}``) as text;
the server answers a ``line`` per completed depth, then ``done``, or ``waiting`` while every
worker is busy, or ``error``. A new message stops the search of the last one.

The replies wait in an :class:`Outbox` of at most :data:`OUTBOX_LIMIT` messages: a page that
sends and never reads must not grow the server. When it is full, a new ``line`` takes the
place of an unsent line of the same position (the page shows the deepest one); otherwise the
oldest message is dropped, and the page is told how many were with a ``dropped`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from solver.game import GameError
from solver.quoting import quote
from zerosum.analysis import over_json
from zerosum.board.views import describe
from zerosum.board.workers import Job, SearchPool, SearchUnavailable, searchable
from zerosum.console import UsageError
from zerosum.positions import load_position

__all__ = ["MAX_MESSAGE", "OUTBOX_LIMIT", "Outbox", "StreamSession"]

MAX_MESSAGE: Final = 256 * 1024
"""The longest message a page may send, in characters."""

OUTBOX_LIMIT: Final = 64
"""The most replies that wait for one page (a page reads them as they come)."""


class Outbox:
    """The replies waiting to be sent to one page, bounded (see the module notes).

    >>> box = Outbox(limit=2)
    >>> for depth in (1, 2, 3, 4):
    ...     box.put({"type": "line", "position": "p", "depth": depth})
    >>> [m["depth"] for m in box.messages], box.dropped  # full: a line replaces an older one
    ([1, 4], 0)
    >>> for n in range(3):
    ...     box.put({"type": "error", "error": str(n)})
    >>> box.dropped, [m.get("error") for m in box.messages]
    (3, ['1', '2'])
    """

    def __init__(self, limit: int = OUTBOX_LIMIT) -> None:
        self.limit = limit
        self.messages: deque[dict[str, Any]] = deque()
        self.dropped = 0
        self._ready = asyncio.Event()

    def put(self, message: dict[str, Any]) -> None:
        """Queue ``message``; when the outbox is full, in place of the latest unsent line of
        the same position, or else of the oldest message."""
        if message["type"] == "line" and len(self.messages) >= self.limit:
            for index in range(len(self.messages) - 1, -1, -1):
                waiting = self.messages[index]
                if waiting["type"] == "line" and waiting["position"] == message["position"]:
                    del self.messages[index]
                    break
        while len(self.messages) >= self.limit:
            self.messages.popleft()
            self.dropped += 1
        self.messages.append(message)
        self._ready.set()

    async def get(self) -> dict[str, Any]:
        """The next message to send: first a ``dropped`` note if messages were dropped."""
        while not self.messages and not self.dropped:
            self._ready.clear()
            await self._ready.wait()
        if self.dropped:
            count, self.dropped = self.dropped, 0
            return {
                "type": "dropped",
                "count": count,
                "error": f"{count} messages were dropped: the page did not read them in time",
            }
        return self.messages.popleft()


class StreamSession:
    """One page's analysis stream: at most one search, the newest position's.

    Args:
        websocket: the page's accepted WebSocket.
        pool: the search workers.
        game: the game a message that names none is about.
        seconds: how long one position is searched at most.
    """

    def __init__(self, websocket: WebSocket, pool: SearchPool, game: str, seconds: float) -> None:
        self.websocket = websocket
        self.pool = pool
        self.game = game
        self.seconds = seconds
        self.search: asyncio.Task[None] | None = None
        self.outbox = Outbox()

    async def serve(self) -> None:
        """Answer the page's messages until it leaves; then stop its search."""
        sender = asyncio.create_task(self._send_all())
        try:
            while True:
                try:
                    message = await self.websocket.receive()
                except (WebSocketDisconnect, RuntimeError):
                    return
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    await self._stop()
                    self.outbox.put(
                        {
                            "type": "error",
                            "error": "invalid message: a binary frame; send JSON as text",
                        }
                    )
                    continue
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
            if len(text) > MAX_MESSAGE:
                raise UsageError(f"message too large: at most {MAX_MESSAGE} characters")
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                raise UsageError("invalid message: not JSON") from None
            if not isinstance(data, dict) or data.get("type") not in ("analyse", "stop"):
                raise UsageError(
                    f"invalid message {quote(data)}: expected "
                    '{"type": "analyse", "game": ..., "position": ...} or {"type": "stop"}'
                )
            if data["type"] == "stop":
                return
            spec = data.get("game", self.game)
            game, state = load_position(spec, data.get("position"))
            searchable(game)
        except (GameError, UsageError) as exc:
            self.outbox.put({"type": "error", "error": str(exc)})
            return
        shown = describe(game, state)["position"]
        if game.is_terminal(state):
            answer = over_json(game, state)
            self.outbox.put({"type": "done", "position": shown, "answer": answer})
            return
        job = self.pool.new_job(spec, shown, None, self.seconds)
        self.search = asyncio.create_task(self._run(job))

    async def _run(self, job: Job) -> None:
        position = job.position

        def on_line(answer: dict[str, Any]) -> None:
            self.outbox.put({"type": "line", "position": position, "answer": answer})

        if self.pool.busy() >= self.pool.size:
            self.outbox.put({"type": "waiting", "position": position})
        try:
            answer = await self.pool.run(job, on_line)
        except SearchUnavailable as exc:
            self.outbox.put({"type": "error", "error": str(exc)})
            return
        if answer is not None and "error" in answer:
            self.outbox.put({"type": "error", "position": position, "error": answer["error"]})
        elif answer is not None:
            self.outbox.put({"type": "done", "position": position, "answer": answer})

    async def _stop(self) -> None:
        search, self.search = self.search, None
        if search is not None and not search.done():
            search.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await search
