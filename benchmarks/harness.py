"""The timing harness: cases, repeated in-process runs, medians, ratios and targets.

A :class:`Case` is one thing to time (our strong solve of tic-tac-toe, OpenSpiel's
MinimaxSolver, ...). Its ``prepare`` does the untimed set-up (imports, loading the game) and
returns the callable that is timed; each call does the whole job from scratch (fresh tables)
and returns a few facts about its answer (value, states, nodes) so the table can show that
the sides did the same work. Peers whose search reports no node count get one from a
separate instrumented run (``count_nodes``), so the instrument never slows a timed run.

>>> case = Case(suite="demo", key="ours.sum", label="sum of 0..999", side="ours",
...             kind="sum", prepare=lambda: lambda: {"value": sum(range(1000))})
>>> m = measure(case, repeat=3, warmup=1)
>>> m.runs, m.facts["value"], m.median_s > 0
(3, 499500, True)
"""

from __future__ import annotations

import gc
import json
import os
import re
import statistics
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import attrs

__all__ = [
    "Case",
    "Comparison",
    "Facts",
    "Measurement",
    "PeerMissingError",
    "Target",
    "compare",
    "format_table",
    "measure",
]

Facts: TypeAlias = dict[str, Any]
"""What one run found out: value, states, nodes, depth... (JSON-serialisable values)."""


class PeerMissingError(RuntimeError):
    """A peer library is not installed; its cases are reported as skipped."""


@attrs.frozen
class Case:
    """One thing to time.

    Attributes:
        suite: the suite it belongs to ("tictactoe", "ayoayo").
        key: a unique dotted name, side first ("ours.solve.bitboard").
        label: what the table shows.
        side: "ours" or the peer's name ("openspiel", "easyai", "aima3").
        kind: what is measured; ours and a peer are compared only within one kind
            ("solve", "root", "root_plies", "nps", "to_depth", "depth").
        prepare: untimed set-up; returns the callable that is timed.
        count_nodes: optional untimed, instrumented run that returns the node count of one
            timed run (for peers whose search does not report it).
        repeat: timed runs (None: the harness default); warm-up runs come first.
    """

    suite: str
    key: str
    label: str
    side: str
    kind: str
    prepare: Callable[[], Callable[[], Facts]]
    count_nodes: Callable[[], int] | None = None
    repeat: int | None = None


@attrs.frozen
class Measurement:
    """The timings of one case: medians in seconds, plus the facts of its last run.

    ``facts`` are those of the last timed run, ``each`` those of every timed run. ``status`` is
    "ok", "skipped" (a peer that is not installed) or "error" (the case raised; ``note`` holds
    the error).
    """

    suite: str
    key: str
    label: str
    side: str
    kind: str
    status: str
    runs: int = 0
    median_s: float | None = None
    min_s: float | None = None
    max_s: float | None = None
    times_s: tuple[float, ...] = ()
    nodes: int | None = None
    facts: Facts = attrs.field(factory=dict)
    each: tuple[Facts, ...] = ()
    note: str = ""

    @property
    def nodes_per_second(self) -> float | None:
        """Nodes per second of the median run, when the node count is known."""
        if self.nodes is None or not self.median_s:
            return None
        return self.nodes / self.median_s

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report."""
        record = attrs.asdict(self)
        record["times_s"] = list(self.times_s)
        record["each"] = list(self.each)
        record["nodes_per_second"] = self.nodes_per_second
        return record


@attrs.frozen
class Comparison:
    """Ours against one peer within one kind: ``ratio`` > 1 means ours is better.

    For timings the ratio is peer median / our median (how many times faster we are); for
    node rates it is our nodes/s / peer nodes/s.
    """

    suite: str
    kind: str
    ours: str
    peer: str
    metric: str
    ratio: float

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report."""
        return attrs.asdict(self)


@attrs.frozen
class Target:
    """A goal from the issues and whether this run met it (None: could not be measured)."""

    suite: str
    goal: str
    measured: str
    met: bool | None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report."""
        return attrs.asdict(self)


def measure(case: Case, repeat: int, warmup: int = 1) -> Measurement:
    """Time ``case``: warm-up runs, then ``repeat`` timed runs (``case.repeat`` wins).

    A :class:`PeerMissingError` from ``prepare`` gives a "skipped" measurement; any other
    exception gives an "error" measurement with the exception's last line as its note.
    """
    runs = case.repeat if case.repeat is not None else repeat

    def made(status: str, **rest: Any) -> Measurement:
        return Measurement(case.suite, case.key, case.label, case.side, case.kind, status, **rest)

    try:
        job = case.prepare()
        facts: Facts = {}
        for _ in range(warmup):
            facts = job()
        times: list[float] = []
        each: list[Facts] = []
        for _ in range(max(1, runs)):
            gc.collect()
            start = time.perf_counter()
            facts = job()
            times.append(time.perf_counter() - start)
            each.append(facts)
        nodes = facts.get("nodes")
        if case.count_nodes is not None:
            nodes = case.count_nodes()
    except PeerMissingError as missing:
        return made("skipped", note=str(missing))
    except Exception as error:  # a benchmark reports a broken case and goes on
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        return made("error", note=last)
    return made(
        "ok",
        runs=len(times),
        median_s=statistics.median(times),
        min_s=min(times),
        max_s=max(times),
        times_s=tuple(times),
        nodes=int(nodes) if nodes is not None else None,
        facts=facts,
        each=tuple(each),
    )


def compare(measurements: Iterable[Measurement]) -> list[Comparison]:
    """Every (ours, peer) pair of successful measurements of the same suite and kind.

    >>> a = Measurement("s", "ours.x", "x", "ours", "root", "ok", median_s=0.01)
    >>> b = Measurement("s", "peer.x", "x", "peer", "root", "ok", median_s=0.03)
    >>> [round(c.ratio, 2) for c in compare([a, b])]
    [3.0]
    """
    done = [m for m in measurements if m.status == "ok"]
    pairs: list[Comparison] = []
    for ours in (m for m in done if m.side == "ours"):
        for peer in (m for m in done if m.side != "ours"):
            if (peer.suite, peer.kind) != (ours.suite, ours.kind):
                continue
            if ours.kind == "nps":
                mine, theirs = ours.nodes_per_second, peer.nodes_per_second
                if mine is None or not theirs:
                    continue
                pairs.append(
                    Comparison(ours.suite, ours.kind, ours.key, peer.key, "nodes/s", mine / theirs)
                )
            elif ours.median_s and peer.median_s is not None:
                ratio = peer.median_s / ours.median_s
                pairs.append(Comparison(ours.suite, ours.kind, ours.key, peer.key, "time", ratio))
    return pairs


_NUMBER = re.compile(r"^(|[-+]?[\d,]*\.?\d+(e[-+]?\d+)?\s*(x|ms|s|%)?)$")


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def format_table(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], markdown: bool = False
) -> str:
    """A plain-text table with aligned columns (numbers right-aligned), or a Markdown one.

    >>> print(format_table(["a", "bb"], [["x", "1.5 ms"], ["yy", 22]]))
    a       bb
    --  ------
    x   1.5 ms
    yy      22
    >>> print(format_table(["a", "bb"], [["x", "1.5 ms"], ["y|z", 22]], markdown=True))
    | a | bb |
    | --- | ---: |
    | x | 1.5 ms |
    | y\\|z | 22 |
    """
    raw_rows = [list(row) for row in rows]
    text_rows = [[_cell(v) for v in row] for row in raw_rows]
    widths = [len(h) for h in headers]
    for row in text_rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
    numeric = [
        bool(text_rows) and all(_NUMBER.match(row[i]) for row in text_rows)
        for i in range(len(headers))
    ]
    if markdown:
        cells = [[c.replace("|", "\\|") for c in row] for row in text_rows]
        rule = ["---:" if n else "---" for n in numeric]
        return "\n".join("| " + " | ".join(row) + " |" for row in [list(headers), rule, *cells])

    def line(cells: Sequence[str], align: Sequence[bool]) -> str:
        parts = [
            c.rjust(w) if a else c.ljust(w) for c, w, a in zip(cells, widths, align, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(list(headers), numeric), line(["-" * w for w in widths], numeric)]
    out.extend(line(row, numeric) for row in text_rows)
    return "\n".join(out)


def facts_summary(facts: Mapping[str, Any], keys: Sequence[str]) -> str:
    """``key=value`` pairs of the facts named in ``keys`` that are present.

    >>> facts_summary({"value": 0, "states": 5478, "x": 1}, ["value", "states"])
    'value=0 states=5478'
    """
    return " ".join(f"{k}={facts[k]}" for k in keys if k in facts and facts[k] is not None)


def write_json(path: str | os.PathLike[str], figures: Any) -> Path:
    """Write a benchmark's figures as indented JSON (its folder made if needed); the path.

    Values JSON cannot hold (dates, paths) are written as their ``str``.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
    return target
