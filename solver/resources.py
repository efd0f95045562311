"""What this process may use: the CPUs it may run on, the memory it may still allocate, and
where in the user's cache directory the project keeps what it writes for the user.

Assumes Linux for the limits below the machine's (cgroups, ``RLIMIT_AS``); elsewhere only
what ``os`` reports. The memory available is the least of: the machine's available memory
(``MemAvailable``), the room left under a cgroup's limit (v2 ``memory.max`` or v1
``memory.limit_in_bytes``, the container's or the service's), and the room left under the
address-space limit (``ulimit -v``) of this process.

>>> cpus() >= 1
True
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
from pathlib import Path
from typing import Final

from solver.quoting import quote

__all__ = [
    "address_space_limit",
    "address_space_room",
    "available_memory",
    "cache_directory",
    "cgroup_room",
    "cpus",
    "parse_size",
    "size_text",
]

_UNLIMITED: Final = 1 << 60
"""Above this a limit means none (cgroup v1 writes about 2**63 for "no limit")."""
_CGROUP_ROOT: Final = Path("/sys/fs/cgroup")


def cache_directory() -> Path:
    """The project's folder in the user cache directory: ``$XDG_CACHE_HOME/gamesolver``, else
    ``~/.cache/gamesolver`` (tablebases, certificates, compiled kernels go below it).

    Raises:
        RuntimeError: neither ``$XDG_CACHE_HOME`` nor a home directory is known.
    """
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base).expanduser() if base else Path.home() / ".cache") / "gamesolver"


def cpus() -> int:
    """The CPUs this process may run on (its affinity, else the machine's count)."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    if text == "max":
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 0 <= value < _UNLIMITED else None


def _memory_line(path: Path, key: str) -> int | None:
    with contextlib.suppress(OSError, ValueError, IndexError), path.open(encoding="ascii") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    return None


def cgroup_room(root: Path = _CGROUP_ROOT, proc: Path = Path("/proc/self/cgroup")) -> int | None:
    """Bytes left under the memory limit of this process's cgroup, None if it has none."""
    rooms = []
    with contextlib.suppress(OSError):
        for line in proc.read_text().splitlines():
            _, controllers, where = line.split(":", 2)
            relative = where.lstrip("/")
            if controllers == "":  # v2: one unified hierarchy
                limit_name, usage_name, base = "memory.max", "memory.current", root
            elif "memory" in controllers.split(","):
                limit_name, usage_name = "memory.limit_in_bytes", "memory.usage_in_bytes"
                base = root / "memory"
            else:
                continue
            # Inside a container the cgroup's own folder is mounted at the root.
            for folder in (base / relative, base):
                limit = _read_int(folder / limit_name)
                if limit is not None:
                    usage = _read_int(folder / usage_name) or 0
                    rooms.append(max(0, limit - usage))
                    break
    return min(rooms) if rooms else None


def address_space_limit() -> int | None:
    """This process's address-space limit in bytes (``ulimit -v``, RLIMIT_AS), None if none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY or soft >= _UNLIMITED else soft


def address_space_room() -> int | None:
    """Bytes of address space left under ``ulimit -v`` (RLIMIT_AS), None if unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft >= _UNLIMITED:
        return None
    used = _memory_line(Path("/proc/self/status"), "VmSize:") or 0
    return max(0, soft - used)


def available_memory() -> int | None:
    """Bytes this process may still allocate (see the module notes), None if unknown."""
    machine = _memory_line(Path("/proc/meminfo"), "MemAvailable:")
    if machine is None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            machine = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    found = [room for room in (machine, cgroup_room(), address_space_room()) if room is not None]
    return min(found) if found else None


_SIZE = re.compile(r"([0-9]{1,15}(?:\.[0-9]{1,9})?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE | re.ASCII)
_LARGEST: Final = 1 << 50
"""The largest size read (1024T): far past any machine, and within a float's exact range."""
_UNITS: Final = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from a size such as ``12G``, ``512M``, ``1.5g`` or ``4096`` (powers of 1024).

    Raises:
        ValueError: not a size, or below 64 MB.

    >>> parse_size("12G"), parse_size("512m")
    (12884901888, 536870912)
    """
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(
            f"{quote(text)} is not a size; expected e.g. 12G, 512M or 4096 (bytes, ASCII "
            "digits, at most 15 of them)"
        )
    size = float(match.group(1)) * _UNITS[match.group(2).lower()]
    if size < 1 << 26:
        raise ValueError(f"{quote(text)} is too small; give at least 64M")
    if size > _LARGEST:
        raise ValueError(f"{quote(text)} is too large; give at most 1024T")
    return int(size)


def size_text(size: int) -> str:
    """A number of bytes for a message, in the unit that shows it best (powers of 1000).

    >>> size_text(0), size_text(680_366), size_text(16_225_064), size_text(3 * 10**9)
    ('0 bytes', '680 kB', '16.2 MB', '3.0 GB')
    """
    for unit, scale in (("GB", 10**9), ("MB", 10**6)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 1000:.0f} kB" if size >= 1000 else f"{size:,} bytes"
