"""Building a tablebase level out of core on a Dask ``distributed`` cluster.

The same partitions, files and kernels as :mod:`games.ayoayo.native_partitions`, with each
partition's work a Dask task that a worker runs on the files of a scratch directory every
worker sees. This process (the coordinator) only schedules the steps and the rounds: it
holds file names, counts and the few numbers a round needs (never a level's arrays).

What runs on the workers, per partition ``k``:

1. its moves and each split's best exit (``stay-k``, ``exit-k``);
2. its moves bucketed by child partition (``bucket-k-t``), then per ``t`` its predecessor
   lists (``rptr-t``, ``rsrc-t``) from ``bucket-0-t``, ``bucket-1-t``, ... in order (the
   order the one-process build appends its spill in, so the same lists), then its boards'
   numbers of moves (``degree-k``) in place of its moves' table;
3. per group of splits (the splits that reach each other without a capture; groups do not
   share a position, so they are solved independently), when a group's solve fits a worker's
   memory budget (:data:`GROUP_BYTES_PER_BOARD`, :meth:`ClusterBuilder.whole`): two tasks,
   its values then its plies, each the one-process build's rounds over every partition
   (:class:`games.ayoayo.native_partitions._Group`, the same code, so the same bytes);
4. otherwise every per-partition step of the group's solve: its exits and initial state,
   each threshold's or ply's seeds, and each round in two waves: *expand* (partition ``k``'s
   frontier sends its updates, written per target partition) then *apply* (partition ``t``
   applies the updates sent to it, in source order, and writes the positions they decide: the
   next frontier); finally its columns of the level's values and distances.

A level's solve is thousands of rounds; as waves, each is two scheduler round trips (some 20
ms a task on a local cluster), which set the time at every level that fits a worker; a group
to a task pays them once. A round in waves is synchronous (every partition's expand before any
apply), where the one-process build lets a threshold's newly decided positions send within the
round they were decided in. Values are least fixpoints of a threshold's search, and plies and
draws are rounds by ply in both, so values, distances and files are the same byte for byte.

Every file a task makes is written to a temporary name and renamed (``write_atomically``), or
is a group's solve state, recreated from the start when the group is resumed; a step is done
only once its marker is written after its files. Ctrl-C cancels the futures in flight; a
partition's task already running finishes on its own (Dask does not stop a running task), into
files a resumed build recreates; a group's task stops at its next round, when it sees the stop
file the build writes, and holds the group's lock until then, so a resumed build's task for the
group waits for it.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, cast

import attrs
import numpy as np
import numpy.typing as npt

from games.ayoayo.native_partitions import (
    _DRAWS,
    _NO_EXIT_REL,
    _NO_JOURNAL,
    _PENDING,
    _PLIES,
    _VALUES,
    CHECKPOINT_SECONDS,
    PartitionedBuilder,
    _apply,
    _by_exit,
    _expand,
    _Group,
    _init_plies,
    _init_values,
    _Interrupted,
    _Level,
    _seed_draws,
    _seed_plies,
    _seed_values,
    _settled_draws,
    _wait_all,
    group_exits,
    partition_buckets,
    partition_degree,
    partition_degrees,
    partition_moves,
    reverse_partition,
    store_group,
)
from games.ayoayo.native_tablebase import KERNEL, LowerLevels
from games.ayoayo.tablebase_build import _split_groups
from games.ayoayo.tablebase_index import board_count, splits
from games.ayoayo.tablebase_partitions import PartitionLayout, Scratch, scratch_directory
from solver.errors import GameError

__all__ = ["GROUP_BYTES_PER_BOARD", "ClusterBuilder", "ScratchNotSharedError", "probe_scratch"]

GROUP_BYTES_PER_BOARD: Final = 80
"""Memory a board of the level takes while one task solves a whole group of two splits: the
solve state (value, count or plies and pending: 12 bytes), the predecessor lists (about 18),
the frontiers and the positions by exit or by ply (16), the moves read once (24), rounded up.
A level whose boards times this fit the memory budget is solved a group to a task."""


class ScratchNotSharedError(GameError, OSError):
    """A worker of the cluster cannot read or write the scratch directory."""


# ---- the tasks (run on the workers) -----------------------------------------------------------


@attrs.frozen
class _Where:
    """A level's scratch directory and layout, as a task gets them."""

    directory: str
    seeds: int
    boards: int
    size: int

    def scratch(self) -> Scratch:
        layout = PartitionLayout(self.seeds, self.boards, self.size)
        return Scratch.attach(Path(self.directory), layout)


_Slice = tuple[str, int, int, bool]
"""Part of a frontier: ``(array, start, stop, owned)``; owned files are deleted once used."""


def _probe(directory: str, token: str) -> str:
    """Read the coordinator's probe file and write this worker's answer beside it."""
    found = (Path(directory) / f"probe-{token}").read_text()
    (Path(directory) / f"probe-{token}-{os.getpid()}").write_text(found)
    return found


def _task_moves(where: _Where, k: int, below: LowerLevels) -> None:
    partition_moves(where.scratch(), k, below, KERNEL.moves)


def _task_buckets(where: _Where, k: int) -> None:
    scratch = where.scratch()
    for t, pairs in enumerate(partition_buckets(scratch, k)):
        if pairs.size:
            scratch.save(f"bucket-{k}-{t}", pairs)
    scratch.mark(f"bucket-{k}")


def _task_reverse(where: _Where, t: int) -> None:
    scratch = where.scratch()
    reverse_partition(scratch, t, [f"bucket-{k}-{t}" for k in range(scratch.layout.parts)])
    scratch.mark(f"reverse-{t}")


def _task_degrees(where: _Where, k: int) -> None:
    partition_degrees(where.scratch(), k)


def _state(
    scratch: Scratch, g: int, k: int, copies: int, array: str, dtype: Any, *, create: bool = False
) -> Any:
    shape = (scratch.layout.nodes(k, copies),)
    if create:
        return scratch.create(f"{array}-{g}-{k}", dtype, shape)
    return scratch.open(f"{array}-{g}-{k}", dtype, shape, write=True)


def _flush(*arrays: Any) -> None:
    for array in arrays:
        if isinstance(array, np.memmap):
            array.flush()


def _save_front(scratch: Scratch, name: str, out: npt.NDArray[np.int32], n: int) -> int:
    if n:
        scratch.save(name, out[:n])
    return n


def _task_top(where: _Where, group: tuple[int, ...], k: int) -> int:
    rel = group_exits(where.scratch(), group, k)
    has = rel[rel != _NO_EXIT_REL]
    return int(np.abs(has).max()) if has.size else 0


def _task_init_values(
    where: _Where, g: int, group: tuple[int, ...], k: int, top: int
) -> npt.NDArray[np.int64]:
    scratch = where.scratch()
    rel = group_exits(scratch, group, k)
    value = _state(scratch, g, k, len(group), "value", np.int8, create=True)
    count = _state(scratch, g, k, len(group), "count", np.uint8, create=True)
    _init_values(
        partition_degree(scratch, k),
        rel,
        np.asarray(value),
        np.asarray(count),
    )
    order, first = _by_exit(rel, top)
    scratch.save(f"byexit-{g}-{k}", order)
    _flush(value, count)
    return np.asarray(first, dtype=np.int64)


def _task_seed_values(
    where: _Where, g: int, copies: int, k: int, s: int, top: int, first: Any, name: str
) -> int:
    scratch = where.scratch()
    value = _state(scratch, g, k, copies, "value", np.int8)
    count = _state(scratch, g, k, copies, "count", np.uint8)
    order = scratch.load(f"byexit-{g}-{k}", np.int32)
    out = np.empty(scratch.layout.nodes(k, copies), dtype=np.int32)
    n, _ = _seed_values(
        order, first, top, s, np.asarray(value), np.asarray(count), out, *_NO_JOURNAL
    )
    _flush(value, count)
    return _save_front(scratch, name, out, n)


def _positions(scratch: Scratch, slices: Sequence[_Slice]) -> npt.NDArray[np.int32]:
    parts = [scratch.load(name, np.int32)[a:b] for name, a, b, _ in slices]
    if not parts:
        return np.zeros(0, dtype=np.int32)
    return np.concatenate(parts).astype(np.int32, copy=False)


def _task_expand(
    where: _Where,
    g: int,
    copies: int,
    k: int,
    slices: Sequence[_Slice] | None,
    prefix: str,
    chunk: int,
) -> list[int]:
    """Partition ``k``'s frontier (every position when ``slices`` is None) sends its updates:
    per target partition ``t``, ``{prefix}-t`` (positions) and ``{prefix}-v-t`` (values)."""
    scratch = where.scratch()
    layout = scratch.layout
    parts = layout.parts
    shift = layout.size.bit_length() - 1
    nts = np.array([layout.nodes(t) for t in range(parts)], dtype=np.int64)
    if slices is None:
        positions = np.arange(layout.nodes(k, copies), dtype=np.int32)
    else:
        positions = _positions(scratch, slices)
    ptr, src = scratch.load(f"rptr-{k}", np.int64), scratch.load(f"rsrc-{k}", np.int32)
    value = np.asarray(_state(scratch, g, k, copies, "value", np.int8))
    counts = [0] * parts
    files: dict[int, tuple[Any, Any]] = {}
    try:
        for at in range(0, positions.size, chunk):
            target, payload, first = _expand(
                positions[at : at + chunk], ptr, src, value, copies, shift, nts
            )
            for t in range(parts):
                lo, hi = first[t], first[t + 1]
                if lo == hi:
                    continue
                if t not in files:
                    files[t] = (
                        _temporary(scratch, f"{prefix}-{t}").open("wb"),
                        _temporary(scratch, f"{prefix}-v-{t}").open("wb"),
                    )
                files[t][0].write(target[lo:hi].data)
                files[t][1].write(payload[lo:hi].data)
                counts[t] += int(hi - lo)
    finally:
        for a, b in files.values():
            a.close()
            b.close()
    for t in files:  # whole files only, under their names
        for name in (f"{prefix}-{t}", f"{prefix}-v-{t}"):
            os.replace(_temporary(scratch, name), scratch.path(name))
    return counts


def _temporary(scratch: Scratch, name: str) -> Path:
    return scratch.path(name).with_suffix(".part")


def _task_apply(
    where: _Where,
    g: int,
    copies: int,
    phase: int,
    t: int,
    arg: int,
    prefixes: Sequence[str],
    name: str,
) -> int:
    """Partition ``t`` applies the updates ``prefixes`` sent it (in order); the positions
    they decide go to frontier file ``name``."""
    scratch = where.scratch()
    dummy8, dummy32 = np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.int32)
    value = _state(scratch, g, t, copies, "value", np.int8)
    if phase == _VALUES:
        count = _state(scratch, g, t, copies, "count", np.uint8)
        plies: Any = dummy32
        pending: Any = dummy8
    else:
        count = dummy8
        plies = _state(scratch, g, t, copies, "plies", np.int32)
        pending = _state(scratch, g, t, copies, "pending", np.uint8)
    outs = []
    for prefix in prefixes:
        target = scratch.load(f"{prefix}-{t}", np.int32)
        payload = scratch.load(f"{prefix}-v-{t}", np.int8)
        out = np.empty(0 if phase == _PENDING else target.size, dtype=np.int32)
        n, _ = _apply(
            phase,
            target,
            payload,
            arg,
            np.asarray(value),
            np.asarray(count),
            np.asarray(plies),
            np.asarray(pending),
            out,
            *_NO_JOURNAL,
        )
        if n:
            outs.append(out[:n])
    _flush(value, count, plies, pending)
    found = np.concatenate(outs) if outs else np.zeros(0, dtype=np.int32)
    return _save_front(scratch, name, found, found.size)


def _task_init_plies(where: _Where, g: int, group: tuple[int, ...], k: int, name: str) -> int:
    scratch = where.scratch()
    copies = len(group)
    rel = group_exits(scratch, group, k)
    plies = _state(scratch, g, k, copies, "plies", np.int32, create=True)
    pending = _state(scratch, g, k, copies, "pending", np.uint8, create=True)
    out = np.empty(rel.size, dtype=np.int32)
    n = _init_plies(partition_degree(scratch, k), rel, np.asarray(plies), np.asarray(pending), out)
    _flush(plies, pending)
    return _save_front(scratch, name, out, n)


def _task_seed_plies(where: _Where, g: int, group: tuple[int, ...], k: int, name: str) -> int:
    scratch = where.scratch()
    copies = len(group)
    rel = group_exits(scratch, group, k)
    value = _state(scratch, g, k, copies, "value", np.int8)
    plies = _state(scratch, g, k, copies, "plies", np.int32)
    pending = _state(scratch, g, k, copies, "pending", np.uint8)
    out = np.empty(rel.size, dtype=np.int32)
    n, _ = _seed_plies(
        rel, np.asarray(value), np.asarray(pending), np.asarray(plies), out, *_NO_JOURNAL
    )
    _flush(plies)
    return _save_front(scratch, name, out, n)


def _task_open_draws(where: _Where, g: int, copies: int, k: int) -> tuple[int, int]:
    scratch = where.scratch()
    value = np.asarray(_state(scratch, g, k, copies, "value", np.int8))
    plies = np.asarray(_state(scratch, g, k, copies, "plies", np.int32))
    opened = int(np.count_nonzero((plies == -1) & (value == 0)))
    return opened, int(plies.max()) if plies.size else 0


def _task_settled(where: _Where, g: int, copies: int, k: int, top: int) -> Any:
    scratch = where.scratch()
    value = np.asarray(_state(scratch, g, k, copies, "value", np.int8))
    plies = np.asarray(_state(scratch, g, k, copies, "plies", np.int32))
    order, first = _settled_draws(value, plies, top)
    scratch.save(f"settled-{g}-{k}", order)
    return np.asarray(first, dtype=np.int64)


def _task_seed_draws(where: _Where, g: int, group: tuple[int, ...], k: int, name: str) -> int:
    scratch = where.scratch()
    copies = len(group)
    rel = group_exits(scratch, group, k)
    value = _state(scratch, g, k, copies, "value", np.int8)
    plies = _state(scratch, g, k, copies, "plies", np.int32)
    pending = _state(scratch, g, k, copies, "pending", np.uint8)
    out = np.empty(rel.size, dtype=np.int32)
    n, _ = _seed_draws(
        rel, np.asarray(value), np.asarray(plies), np.asarray(pending), out, *_NO_JOURNAL
    )
    _flush(plies)
    return _save_front(scratch, name, out, n)


class _WorkerLevel(_Level):
    """A level's steps as a worker sees them: stopped when the coordinator's stop file appears."""

    def __init__(self, scratch: Scratch, memory: int, stop: str, checkpoint: float | None) -> None:
        builder = PartitionedBuilder(
            scratch.directory.parent, memory=memory, threads=1, checkpoint=checkpoint
        )
        super().__init__(builder, scratch, scratch.layout, {}, None)
        self.stop_file = scratch.path(stop)

    def _check_stop(self) -> None:
        if self.stop_file.exists():
            raise _Interrupted


def _task_group(
    where: _Where,
    memory: int,
    stop: str,
    g: int,
    group: tuple[int, ...],
    step: str,
    checkpoint: float | None = None,
) -> int:
    """Group ``g``'s ``values`` or ``plies`` step over every partition in one task: the
    one-process build's rounds (:class:`games.ayoayo.native_partitions._Group`) on the scratch
    files; marks the step done and returns the rounds it took. Stops at the next round once
    the file ``stop`` is in the scratch directory.

    With ``checkpoint`` (seconds, as :class:`PartitionedBuilder`'s), the pass records
    checkpoints between rounds, so a task of a resumed build goes on from the last one. A
    checkpoint is trusted only on the machine that wrote it (its boot id, see
    :func:`games.ayoayo.tablebase_partitions.boot_id`): another worker's machine may not yet
    see the pages of the memory maps the stopped task wrote, so there the pass starts again.

    A task of a stopped build may still be running (Dask does not stop a task): it holds the
    group's lock until it sees its stop file, so a resumed build's task waits for it rather
    than share the group's files with it.
    """
    scratch = where.scratch()
    with (scratch.directory / f"group-{g}.lock").open("wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        level = _WorkerLevel(scratch, memory, stop, checkpoint)
        graph = [
            (scratch.load(f"rptr-{t}", np.int64), scratch.load(f"rsrc-{t}", np.int32))
            for t in range(scratch.layout.parts)
        ]
        solve = _Group(level, g, group, graph)
        if step == "values":
            solve.values()
        else:
            solve.plies()
        return level.builder.rounds


def _task_store(where: _Where, g: int, group: tuple[int, ...], k: int) -> None:
    scratch = where.scratch()
    copies = len(group)
    shape = (len(splits(where.seeds)), where.boards)
    values = scratch.open("values", np.int8, shape, write=True)
    distances = scratch.open("distances", np.uint16, shape, write=True)
    value = np.asarray(_state(scratch, g, k, copies, "value", np.int8))
    plies = np.asarray(_state(scratch, g, k, copies, "plies", np.int32))
    store_group(scratch, group, k, value, plies, values, distances)
    _flush(values, distances)


# ---- the coordinator -------------------------------------------------------------------------


def probe_scratch(client: Any, root: Path) -> None:
    """Check that every worker of ``client`` reads and writes the scratch directory ``root``.

    Raises:
        ScratchNotSharedError: naming the directory and the workers that cannot.
    """
    root.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(8)
    probe = root / f"probe-{token}"
    probe.write_text(token)
    try:
        answers = client.run(_probe, str(root), token, on_error="return")
        wrong = sorted(w for w, a in answers.items() if a != token)
        if not answers:
            raise ScratchNotSharedError("the Dask cluster has no workers to build on")
        if wrong:
            raise ScratchNotSharedError(
                f"--scratch {str(root)!r} is not shared with the cluster: worker(s) "
                f"{', '.join(wrong)} cannot read and write it; give a directory every worker "
                "sees at the same path"
            )
    finally:
        for path in root.glob(f"probe-{token}*"):
            path.unlink(missing_ok=True)


class ClusterBuilder(PartitionedBuilder):
    """Builds a level in partitions on disk, each partition's work a task on a Dask cluster.

    Args:
        root: where the levels' scratch directories go; every worker must see it at this path.
        client: a ``distributed.Client``.
        memory: the memory budget of a worker's thread, which sets the partition size.
        partition: boards per partition (a power of two), overriding the budget.
        groups: groups of splits solved at once (default: the cluster's threads, at least 2).
        whole_groups: solve each group of splits in two tasks (its values, its plies) rather
            than in waves of per-partition tasks; default: when a group's solve fits the
            memory budget (:data:`GROUP_BYTES_PER_BOARD`).
        step: called with the name of each step as it is marked done.
    """

    def __init__(
        self,
        root: Path,
        client: Any,
        *,
        memory: int | None = None,
        partition: int | None = None,
        groups: int | None = None,
        whole_groups: bool | None = None,
        step: Callable[[str], None] | None = None,
        checkpoint: float | None = CHECKPOINT_SECONDS,
    ) -> None:
        super().__init__(
            root, memory=memory, partition=partition, threads=1, step=step, checkpoint=checkpoint
        )
        self.client = client
        self.groups = groups or max(2, sum(client.nthreads().values()))
        self.whole_groups = whole_groups
        self.tasks = 0

    def whole(self, seeds: int) -> bool:
        """Whether level ``seeds``'s groups are solved a group to a task."""
        if self.whole_groups is not None:
            return self.whole_groups
        return board_count(seeds) * GROUP_BYTES_PER_BOARD <= self.memory

    def check(self, missing: Iterable[int]) -> None:
        """Refuse a scratch directory the workers cannot see, or too small a disk."""
        probe_scratch(self.client, self.root)
        super().check(missing)

    def __call__(
        self,
        seeds: int,
        lower: Mapping[int, npt.NDArray[np.int8]],
        *,
        executor: Any = None,
        phases: dict[str, float] | None = None,
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint16]]:
        """The values and distances of level ``seeds`` (memory maps of scratch files)."""
        import time

        layout = self.layout(seeds)
        scratch = Scratch(scratch_directory(self.root, seeds), layout)
        level = _Level(self, scratch, layout, lower, None)  # creates the level's result files
        run = _ClusterLevel(self, level)
        times = phases if phases is not None else {}
        for name, step in (("moves", run.moves), ("graph", run.reverse), ("solve", run.solve)):
            began = time.perf_counter()
            step()
            times[name] = time.perf_counter() - began
        times["partitions"] = layout.parts
        return level.values, level.distances


class _ClusterLevel:
    """One level's steps, as waves of tasks."""

    def __init__(self, builder: ClusterBuilder, level: _Level) -> None:
        self.builder = builder
        self.client = builder.client
        self.level = level
        self.scratch = level.scratch
        self.layout = level.layout
        self.where = _Where(
            str(self.scratch.directory), self.layout.seeds, self.layout.boards, self.layout.size
        )
        self.stop = threading.Event()
        self.stop_file = f"stop-{secrets.token_hex(8)}"  # tells this build's tasks to stop
        self.whole = builder.whole(self.layout.seeds)

    def wave(self, fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Run ``fn`` on each argument tuple on the cluster; the results in order. Stops (and
        cancels what is left) on Ctrl-C, another thread's failure or a task's failure."""
        if not calls:
            return []
        import distributed

        futures = [self.client.submit(fn, *args, pure=False) for args in calls]
        self.builder.tasks += len(futures)
        finished = False
        try:
            while True:
                if self.stop.is_set():
                    raise _Interrupted
                try:
                    cast(Any, distributed).wait(futures, timeout=0.2)
                    break
                except TimeoutError:
                    continue
            results: list[Any] = self.client.gather(futures)
            finished = True
            return results
        finally:
            if not finished:
                self.client.cancel(futures)

    def mark(self, step: str) -> None:
        self.scratch.mark(step)
        self.marked(step)

    def marked(self, step: str) -> None:
        if self.builder.step is not None:
            self.builder.step(step)

    def moves(self) -> None:
        todo = [k for k in range(self.layout.parts) if not self.scratch.done(f"moves-{k}")]
        if not todo:
            return
        below = self.client.scatter(
            LowerLevels(self.layout.seeds, self.level.lower), broadcast=True
        )
        try:
            self.wave(_task_moves, [(self.where, k, below) for k in todo])
        finally:
            self.client.cancel([below])
        for k in todo:
            self.marked(f"moves-{k}")

    def reverse(self) -> None:
        parts = self.layout.parts
        todo = [t for t in range(parts) if not self.scratch.done(f"reverse-{t}")]
        if todo:
            self._reverse(todo)
        self.degrees()

    def _reverse(self, todo: list[int]) -> None:
        parts = self.layout.parts
        buckets = [k for k in range(parts) if not self.scratch.done(f"bucket-{k}")]
        self.wave(_task_buckets, [(self.where, k) for k in buckets])
        self.wave(_task_reverse, [(self.where, t) for t in todo])
        for t in todo:
            self.marked(f"reverse-{t}")
        self.scratch.remove(*(f"bucket-{k}-{t}" for k in range(parts) for t in range(parts)))

    def degrees(self) -> None:
        """Each partition's moves' table replaced by its boards' numbers of moves."""
        todo = [k for k in range(self.layout.parts) if not self.scratch.done(f"degree-{k}")]
        self.wave(_task_degrees, [(self.where, k) for k in todo])
        for k in todo:
            self.marked(f"degree-{k}")

    def solve(self) -> None:
        groups = _split_groups(self.layout.seeds)
        todo = [g for g in range(len(groups)) if not self.scratch.done(f"plies-{g}")]
        if not todo:
            return
        pool = ThreadPoolExecutor(max_workers=self.builder.groups, thread_name_prefix="cluster")
        try:
            _wait_all([pool.submit(_ClusterGroup(self, g, groups[g]).run) for g in todo])
        except BaseException:
            self.stop.set()
            self.scratch.path(self.stop_file).touch()  # a group's task stops at its next round
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class _Fronts:
    """A frontier: per partition, the slices of files holding its positions."""

    def __init__(self, parts: int) -> None:
        self.slices: list[list[_Slice]] = [[] for _ in range(parts)]

    def add(self, k: int, name: str, start: int, stop: int, *, owned: bool = True) -> None:
        if stop > start:
            self.slices[k].append((name, start, stop, owned))

    def take(self, k: int) -> list[_Slice]:
        taken, self.slices[k] = self.slices[k], []
        return taken

    def empty(self) -> bool:
        return not any(self.slices)


class _ClusterGroup:
    """The solve of one group of splits: the coordinator's side of its rounds."""

    def __init__(self, level: _ClusterLevel, g: int, group: tuple[int, ...]) -> None:
        self.level = level
        self.where = level.where
        self.scratch = level.scratch
        self.parts = level.layout.parts
        self.g = g
        self.group = group
        self.copies = len(group)
        self.serial = 0

    def name(self, kind: str) -> str:
        self.serial += 1
        return f"{kind}{self.g}-{self.serial}"

    def every(self) -> range:
        return range(self.parts)

    def seed(self, fn: Callable[..., int], into: _Fronts) -> None:
        """Each partition's seeds, ``fn(where, g, group, k, name)``, into ``into``."""
        names = [self.name("f") for _ in self.every()]
        calls = [(self.where, self.g, self.group, k, names[k]) for k in self.every()]
        counts = self.level.wave(fn, calls)
        for k, n in enumerate(counts):
            into.add(k, names[k], 0, n)

    def round(
        self, phase: int, front: _Fronts, arg: int, nxt: _Fronts | None, *, every: bool = False
    ) -> None:
        """One synchronous round: every partition's expand, then every target's apply."""
        sources = [k for k in self.every() if every or front.slices[k]]
        taken = {k: None if every else front.take(k) for k in sources}
        prefix = self.name("u")
        chunk = self.level.level.update_cap
        counts = self.level.wave(
            _task_expand,
            [
                (self.where, self.g, self.copies, k, taken[k], f"{prefix}-{k}", chunk)
                for k in sources
            ],
        )
        targets = [t for t in self.every() if any(c[t] for c in counts)]
        names = {t: f"f{prefix}-{t}" for t in targets}
        found = self.level.wave(
            _task_apply,
            [
                (
                    self.where,
                    self.g,
                    self.copies,
                    phase,
                    t,
                    arg,
                    [f"{prefix}-{k}" for k, c in zip(sources, counts, strict=True) if c[t]],
                    names[t],
                )
                for t in targets
            ],
        )
        for t, n in zip(targets, found, strict=True):
            (front if nxt is None else nxt).add(t, names[t], 0, n)
        used = [s[0] for slices in taken.values() if slices for s in slices if s[3]]
        used += [
            f"{prefix}-{k}{v}-{t}"
            for k, c in zip(sources, counts, strict=True)
            for t in targets
            if c[t]
            for v in ("", "-v")
        ]
        self.scratch.remove(*used)

    def run(self) -> None:
        if self.level.whole:
            self.whole()
            return
        if not self.scratch.done(f"values-{self.g}"):
            self.values()
        self.plies()

    def whole(self) -> None:
        """The group's values, then its plies, each one task over every partition."""
        builder = self.level.builder
        for step in ("values", "plies"):
            if self.scratch.done(f"{step}-{self.g}"):
                continue
            call = (
                self.where,
                builder.memory,
                self.level.stop_file,
                self.g,
                self.group,
                step,
                builder.checkpoint,
            )
            builder.rounds += self.level.wave(_task_group, [call])[0]
            self.level.marked(f"{step}-{self.g}")

    def values(self) -> None:
        wave = self.level.wave
        tops = wave(_task_top, [(self.where, self.group, k) for k in self.every()])
        top = max(tops, default=0)
        firsts = wave(
            _task_init_values, [(self.where, self.g, self.group, k, top) for k in self.every()]
        )
        front = _Fronts(self.parts)
        for s in range(top, 0, -1):
            calls = []
            for k, f in enumerate(firsts):
                if f[s + top + 1] > f[s + top] or f[top - s + 1] > f[top - s]:
                    calls.append((self.where, self.g, self.copies, k, s, top, f, self.name("f")))
            for call, n in zip(calls, wave(_task_seed_values, calls), strict=True):
                front.add(call[3], call[-1], 0, n)
            while not front.empty():
                self.round(_VALUES, front, s, None)
        self.level.mark(f"values-{self.g}")
        self.scratch.remove(
            *(f"{a}-{self.g}-{k}" for a in ("count", "byexit") for k in self.every())
        )

    def plies(self) -> None:
        front, nxt = _Fronts(self.parts), _Fronts(self.parts)
        self.seed(_task_init_plies, front)
        self.round(_PENDING, front, 0, None, every=True)
        self.seed(_task_seed_plies, nxt)
        p = 0
        while not (front.empty() and nxt.empty()):
            self.round(_PLIES, front, p, nxt)
            front, nxt = nxt, front
            p += 1
        self.draws()
        self.level.wave(_task_store, [(self.where, self.g, self.group, k) for k in self.every()])
        self.level.mark(f"plies-{self.g}")
        self.scratch.remove(
            *(
                f"{a}-{self.g}-{k}"
                for a in ("value", "plies", "pending", "settled")
                for k in self.every()
            )
        )

    def draws(self) -> None:
        wave = self.level.wave
        stats = wave(_task_open_draws, [(self.where, self.g, self.copies, k) for k in self.every()])
        if not sum(opened for opened, _ in stats):
            return
        top = max(t for _, t in stats)
        firsts = wave(
            _task_settled, [(self.where, self.g, self.copies, k, top) for k in self.every()]
        )
        front, nxt = _Fronts(self.parts), _Fronts(self.parts)
        self.seed(_task_seed_draws, nxt)
        p = 0
        while p <= top or not (front.empty() and nxt.empty()):
            if p <= top:
                for k, first in enumerate(firsts):
                    front.add(
                        k, f"settled-{self.g}-{k}", int(first[p]), int(first[p + 1]), owned=False
                    )
            self.round(_DRAWS, front, p, nxt)
            front, nxt = nxt, front
            p += 1
