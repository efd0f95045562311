"""Who the board answers: requests to its own address, from its own page or from a script.

Any web page the user visits can make the browser send requests to a server on this computer
(a form's POST, a ``fetch`` with a "simple" content type, a WebSocket), and a DNS-rebinding
page can make the browser take the board for its own site and read the answers. So the board
refuses, before any route runs:

* a ``Host`` that is not a name of the address it listens on (the names
  :func:`~zerosum.board.origins.served_hosts` gives), or whose port is not
  the port the request arrived on;
* an ``Origin`` that is neither the board's own page (``http://localhost:PORT`` and the
  other names of its address) nor one given with ``--allow-origin``: another site, ``null``
  (a sandboxed frame, a ``file://`` page) alike, on any request and on the WebSocket's
  handshake. A request without ``Origin`` did not come from another page (browsers send it
  on every cross-origin request), so scripts and ``curl`` are served;
* a POST whose body is not declared JSON (``content-type: application/json``): a page may
  send ``text/plain`` anywhere without asking, JSON only where the server allows it, and the
  board never allows it.

Refusals are 4xx JSON ``{"error": message}`` naming what was refused and what is served; a
refused WebSocket handshake is answered 403.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketClose

from solver.quoting import quote
from zerosum.board.origins import DEFAULT_PORTS, as_host, own_origins

__all__ = ["LocalOnly"]

_HOST = re.compile(r"(?P<name>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?")
"""A ``Host`` header: a name or an IPv4 address, or an IPv6 one in brackets, and a port."""


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json"


class LocalOnly:
    """ASGI middleware: refuses a foreign ``Host``, a foreign ``Origin``, and a POST that is
    not JSON (see the module notes).

    Args:
        app: the app it guards.
        hosts: the names of the board's address (:func:`served_hosts`).
        allow_origins: other origins to serve (:func:`parse_origin`'s form).
    """

    def __init__(
        self, app: ASGIApp, hosts: Iterable[str], allow_origins: Iterable[str] = ()
    ) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.allow_origins = frozenset(allow_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refusal = self.refusal(scope)
            if refusal is not None and scope["type"] == "websocket":
                # A refused handshake (HTTP 403), the reason in the close: an HTTP answer
                # to a handshake is logged by uvicorn as an error, a flood of them too.
                await WebSocketClose(code=1008, reason=refusal[0][:120])(scope, receive, send)
                return
            if refusal is not None:
                message, status = refusal
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[str, int] | None:
        """Why the request is refused (message, status), or None to serve it."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        parts = _HOST.fullmatch(host)
        if parts is None or as_host(parts["name"]) not in self.hosts:
            return (
                f"refused: the request is addressed to host {quote(host)}; this board answers "
                f"to {', '.join(self.hosts)} (start it with --host to serve another address)",
                400,
            )
        server = scope.get("server")
        port = server[1] if server else None
        asked = int(parts["port"]) if parts["port"] else DEFAULT_PORTS.get(scope["scheme"], 80)
        if port is not None and asked != port:
            return (
                f"refused: the request is addressed to port {asked}; "
                f"this board listens on port {port}",
                400,
            )
        origin = headers.get("origin")
        if origin is not None:
            own = own_origins(self.hosts, port)
            if origin.strip().lower() not in own | self.allow_origins:
                pages = ", ".join(sorted(own | self.allow_origins))
                return (
                    f"refused: a request from the page at {quote(origin)}; this board answers "
                    f"its own page ({pages}) and the origins given with --allow-origin",
                    403,
                )
        if scope["type"] == "http" and scope["method"] == "POST":
            content_type = headers.get("content-type", "")
            if not _is_json(content_type):
                return (
                    f"refused: a request body of type {quote(content_type or 'none')}; "
                    "the board reads JSON only (content-type: application/json)",
                    415,
                )
        return None
