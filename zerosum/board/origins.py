"""The names and origins of the board's own address, and origins given on the command line.

No web framework here: the command line reads ``--allow-origin`` with :func:`parse_origin`
before the board's extra is needed. :mod:`zerosum.board.guard` refuses what does not match.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from solver.quoting import quote

__all__ = [
    "DEFAULT_PORTS",
    "LOOPBACK_HOSTS",
    "as_host",
    "own_origins",
    "parse_origin",
    "served_hosts",
]

LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "[::1]")
"""The names of this computer's loopback address, as a ``Host`` header writes them."""

_LOOPBACK_ADDRESSES: Final = ("127.0.0.1", "localhost", "::1", "[::1]")
_WILDCARDS: Final = ("", "0.0.0.0", "::", "[::]")
DEFAULT_PORTS: Final = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def as_host(name: str) -> str:
    """``name`` as a ``Host`` header writes it: an IPv6 address in brackets, lower case."""
    name = name.strip().lower()
    try:
        if ipaddress.ip_address(name.strip("[]")).version == 6:
            return f"[{name.strip('[]')}]"
    except ValueError:
        pass
    return name


def served_hosts(listen: str) -> tuple[str, ...]:
    """The names a request's ``Host`` may give for a board listening on ``listen``.

    The loopback address answers to its three names; an address that listens on every
    interface (``0.0.0.0``, ``::``) to those, this computer's name and the addresses that
    name has; any other address to itself.

    >>> served_hosts("127.0.0.1")
    ('127.0.0.1', 'localhost', '[::1]')
    >>> served_hosts("::1")
    ('127.0.0.1', 'localhost', '[::1]')
    >>> served_hosts("192.168.1.20")
    ('192.168.1.20',)
    """
    if listen.strip().lower() in _LOOPBACK_ADDRESSES:
        return LOOPBACK_HOSTS
    if listen.strip() not in _WILDCARDS:
        return (as_host(listen),)
    names = [*LOOPBACK_HOSTS, socket.gethostname(), socket.getfqdn()]
    for name in names[3:]:
        try:
            names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
        except OSError:
            continue
    return tuple(dict.fromkeys(as_host(name) for name in names if name))


def parse_origin(text: str) -> str:
    """An origin given with ``--allow-origin``, as browsers write it in ``Origin``.

    >>> parse_origin("HTTP://LocalHost:3000/")
    'http://localhost:3000'

    Raises:
        ValueError: not ``scheme://host[:port]`` with scheme http or https.
    """
    expected = "expected scheme://host[:port] (http or https), e.g. http://localhost:3000"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"invalid origin {quote(text)}: {expected}") from None
    if (
        parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
        or not parts.netloc.isascii()
    ):
        raise ValueError(f"invalid origin {quote(text)}: {expected}")
    scheme = parts.scheme.lower()
    host = as_host(parts.hostname)
    shown_port = "" if port is None or port == DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{shown_port}"


def own_origins(hosts: Iterable[str], port: int | None) -> set[str]:
    """The origins of the board's own page: each of its names at its port."""
    suffix = "" if port in (None, 80) else f":{port}"
    return {f"http://{host}{suffix}" for host in hosts}
