"""How many worker processes a command may start, and the Dask cluster some can use instead.

Shared by the commands that build or prove in parallel (``tablebase build``, ``prove``) and the
analysis board's ``--workers``: the limit comes from the CPUs this process may use and the
memory available, so a build never starts more workers than the machine can hold.
"""

from __future__ import annotations

from typing import Any, cast

from solver.quoting import quote
from solver.resources import available_memory, cpus
from zerosum.console import UsageError

__all__ = ["WORKER_BYTES", "checked_workers", "dask_client", "worker_limit"]


WORKER_BYTES = 100_000_000
"""The memory a build worker takes (measured: about 60 MB resident with the fast extra,
most of it the interpreter, numpy and numba; a block of moves adds a few MB)."""


def worker_limit() -> tuple[int, str]:
    """The most build workers this machine affords, and what bounds it (CPUs or memory)."""
    cores = cpus()
    have = available_memory()
    by_memory = cores if have is None else max(1, have // WORKER_BYTES)
    if by_memory < cores:
        return by_memory, f"the memory available ({(have or 0) / 1e9:.1f} GB) for workers"
    return cores, "the CPUs this process may use"


def checked_workers(asked: int | None) -> int:
    """``--workers``, checked against :func:`worker_limit`; the limit when not given (the
    analysis board's ``--workers`` is checked here too)."""
    limit, bound = worker_limit()
    if asked is None:
        return limit
    if asked > limit:
        raise UsageError(
            f"invalid --workers {asked}: expected 1 to {limit} ({bound}: more workers would "
            "only compete for them)"
        )
    return asked


def dask_client(address: str) -> Any:
    """A Dask client connected to the scheduler at ``address`` (the cluster extra)."""
    try:
        import distributed
    except ImportError:
        raise UsageError(
            "--dask needs Dask's distributed scheduler: pip install 'zerosum[cluster]'"
        ) from None
    try:
        return cast(Any, distributed).Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(
            f"invalid --dask {quote(address)}: no Dask scheduler answered there ({e}); give its "
            "address, e.g. tcp://scheduler:8786"
        ) from None
