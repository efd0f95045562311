"""``gamesolver board``: the analysis board, a local web page (see docs/board.md)."""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import webbrowser
from types import FrameType
from urllib.parse import urlencode

from solver.quoting import quote
from zerosum.board.views import load_position
from zerosum.console import EXIT_INTERRUPTED, EXIT_OK, Io, UsageError
from zerosum.options import position_argument, positive_int, whole_number
from zerosum.tablebases import tablebase_arguments

NAME = "board"
ALIASES: tuple[str, ...] = ()
HELP = "open the analysis board in the browser: play, analyse and review games"

LOOPBACK = "127.0.0.1"
LOOPBACK_NAMES = (LOOPBACK, "localhost", "::1")


def _port(text: str) -> int:
    port = whole_number(text)
    if port is None or not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"invalid port {quote(text)}: expected 0..65535 in ASCII digits (0: any free)"
        )
    return port


def add_arguments(board: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver board``."""
    board.add_argument(
        "game", metavar="GAME", nargs="?", default="ayoayo", help="the game (default: ayoayo)"
    )
    position_argument(board)
    board.add_argument("--port", type=_port, default=0, help="the port (default: a free one)")
    board.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"the address to listen on (default {LOOPBACK}: this computer only)",
    )
    board.add_argument("--no-browser", action="store_true", help="do not open the browser")
    board.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="searches at once (default: one per core, two at most)",
    )
    tablebase_arguments(board)


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver board``: serve the board until Ctrl-C."""
    try:
        import uvicorn

        from zerosum.board.app import BoardConfig, create_app
    except ImportError as exc:
        raise UsageError(
            f"the board needs its extra ({exc.name} is missing): pip install 'zerosum[board]'"
        ) from None

    game, _state = load_position(args.game, args.position)  # a bad one is refused before serving
    if args.host not in LOOPBACK_NAMES:
        io.err.print(
            f"warning: listening on {args.host}: the board has no login, so anyone who can reach "
            "this address can use it and run searches on this computer",
            style=None,
        )
    try:
        sock = socket.create_server((args.host, args.port))
    except OSError as exc:
        reason = "in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        raise UsageError(f"cannot listen on {args.host} port {args.port}: {reason}") from None
    port = sock.getsockname()[1]
    query = {"game": game.name}
    if args.position is not None:
        query["position"] = args.position
    shown_host = "localhost" if args.host in LOOPBACK_NAMES else args.host
    url = f"http://{shown_host}:{port}/?{urlencode(query)}"
    config = BoardConfig(
        game=game.name,
        position=args.position,
        workers=args.workers,
        tablebase_dir=args.tablebase_dir,
        no_tablebase=args.no_tablebase,
    )
    io.print(f"analysis board: {url}")
    io.print("Ctrl-C stops it.")
    io.out.file.flush()
    app = create_app(config)

    class BoardServer(uvicorn.Server):
        """uvicorn's server, ending the searches as soon as it is asked to stop."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            app.state.pool.close_soon()  # requests waiting on a search then end at once

    server = BoardServer(
        uvicorn.Config(
            app,
            log_level="warning",
            timeout_graceful_shutdown=1,
            ws="websockets-sansio",
        )
    )
    if not args.no_browser:
        webbrowser.open(url)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then passes the signal on
        io.print("analysis board stopped.")
        return EXIT_INTERRUPTED
    io.print("analysis board stopped.")
    return EXIT_OK
