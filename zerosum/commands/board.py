"""``gamesolver board``: the analysis board, a local web page (see docs/board.md)."""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import socket
import webbrowser
from types import FrameType
from urllib.parse import urlencode

from solver.quoting import quote
from zerosum.board.origins import parse_origin
from zerosum.console import EXIT_INTERRUPTED, EXIT_OK, Io, UsageError
from zerosum.options import (
    game_spec,
    option_argument,
    position_argument,
    positive_int,
    whole_number,
)
from zerosum.positions import load_position
from zerosum.tablebases import tablebase_arguments
from zerosum.worker_counts import checked_workers, worker_limit

NAME = "board"
ALIASES: tuple[str, ...] = ()
HELP = "open the analysis board in the browser: play, analyse and review games"

LOOPBACK = "127.0.0.1"
LOOPBACK_NAMES = (LOOPBACK, "localhost", "::1")


def _port(text: str) -> int:
    """A port number in ASCII digits (``str.isdigit`` takes other scripts' digits too)."""
    port = whole_number(text)
    if port is None or not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"invalid port {quote(text)}: expected 0..65535 in ASCII digits (0: any free)"
        )
    return port


def _origin(text: str) -> str:
    try:
        return parse_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _workers(asked: int | None) -> int:
    """``--workers``, capped as the tablebase build's are (CPUs and memory); by default one
    per core, two at most."""
    if asked is None:
        from zerosum.board.workers import default_size  # here: only serving needs the workers

        return min(default_size(), worker_limit()[0])
    return checked_workers(asked)


def add_arguments(board: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver board``."""
    board.add_argument(
        "game", metavar="GAME", nargs="?", default="ayoayo", help="the game (default: ayoayo)"
    )
    option_argument(board)
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
        help="searches at once (default: one per core, two at most; at most the CPUs, and "
        "what the memory affords)",
    )
    board.add_argument(
        "--allow-origin",
        type=_origin,
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also serve requests from pages of ORIGIN (scheme://host[:port], e.g. "
        "http://localhost:3000); repeatable. By default only the board's own page",
    )
    tablebase_arguments(board)


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver board``: serve the board until Ctrl-C."""
    try:
        import uvicorn

        from zerosum.board.app import BoardConfig, create_app
        from zerosum.board.logs import RepeatedLines
        from zerosum.board.workers import stop_resource_tracker
    except ImportError as exc:
        raise UsageError(
            f"the board needs its extra ({exc.name} is missing): pip install 'zerosum[board]'"
        ) from None

    spec = game_spec(args)  # the game with its options, as the page and records keep it
    load_position(spec, args.position)  # a bad one is refused before serving
    workers = _workers(args.workers)
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
    query = {"game": spec}
    if args.position is not None:
        query["position"] = args.position
    shown_host = "localhost" if args.host in LOOPBACK_NAMES else args.host
    url = f"http://{shown_host}:{port}/?{urlencode(query)}"
    config = BoardConfig(
        game=spec,
        position=args.position,
        workers=workers,
        tablebase_dir=args.tablebase_dir,
        no_tablebase=args.no_tablebase,
        host=args.host,
        allow_origins=tuple(args.allow_origin),
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
    repeated = RepeatedLines()  # a flooding client does not fill the terminal
    for name in ("uvicorn.error", "uvicorn.access", "zerosum.board"):
        logging.getLogger(name).addFilter(repeated)
    gc.freeze()  # what start-up loaded lives as long as the board: collections skip it
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then passes the signal on
        io.print("analysis board stopped.")
        return EXIT_INTERRUPTED
    finally:
        stop_resource_tracker()  # the workers have ended: nothing may outlive the board
    io.print("analysis board stopped.")
    return EXIT_OK
