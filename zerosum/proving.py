"""Exact values settled by proof for the front ends: the position and each of its moves.

A game with a proof search (:class:`solver.game.HasProofSearch`, Ayòayò's) can settle the
value of a position above its tablebases in a second or two (the start: docs/solving.md).
``analyse`` asks for it after the engine's search when the engine's answer is not exact and
tablebase levels are present, within a short time: a value proved is shown as solved, with
every move's proved value; a proof that does not settle in time is simply not shown.

Positions a game's opening book settles (:class:`solver.game.HasOpeningBook`: values proved
once, with certificates) need no proof at all: :func:`book_values` gives them to ``analyse``
and the board, :func:`book_oracle` lets ``best`` answer from the book as from a tablebase, and
:func:`with_book` makes the computer player play the book's moves.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

import attrs

from solver.book import OpeningBook
from solver.certificate import certificate_digest, verify
from solver.errors import CapabilityError, CertificateError, GameError
from solver.game import (
    EndgameTablebase,
    HasOpeningBook,
    HasProofSearch,
    format_action,
    format_state,
)
from solver.quoting import quote
from zerosum.report import outcome
from zerosum.tablebases import TablebasePlayer

__all__ = [
    "PROOF_SECONDS",
    "BookOracle",
    "ProofWatch",
    "Proved",
    "book_lines",
    "book_oracle",
    "book_values",
    "build_book",
    "opening_book",
    "progress_json",
    "progress_line",
    "proof_mapper",
    "prove_position",
    "proved_json",
    "proved_lines",
    "with_book",
]

PROOF_SECONDS = 2.0
"""How long ``analyse`` lets a proof of its position run (the position and every move)."""


@attrs.frozen
class Proved:
    """A position's value and each legal move's, proved (player 0's view)."""

    value: int
    moves: dict[str, int]
    seconds: float
    nodes: int
    source: str = "proof"
    """``"proof"`` (proved just now) or ``"opening book"`` (read from the game's book)."""


def prove_position(
    game: Any,
    state: Any,
    tablebase: EndgameTablebase | None,
    time_limit: float = PROOF_SECONDS,
    *,
    skip: bool = False,
) -> Proved | None:
    """The value of ``state`` and of every move proved within ``time_limit`` seconds, or None
    (``skip``, no proof search, no tablebase to stand on, or not settled in time)."""
    if skip or tablebase is None or not tablebase.levels:
        return None
    known = book_values(game, state, tablebase)
    if known is not None:
        return known
    prover = _prover(game, tablebase)
    if prover is None:
        return None
    began = time.perf_counter()
    result = prover.value(state, time_limit=time_limit)
    if result.value is None:
        return None
    nodes = result.nodes
    moves: dict[str, int] = {}
    for action in game.actions(state):
        child = game.result(state, action)
        name = format_action(game, state, action)
        if game.is_terminal(child):
            moves[name] = game.utility(child)
            continue
        left = time_limit - (time.perf_counter() - began)
        if left <= 0:
            return None
        found = prover.value(child, guess=result.value, time_limit=left)
        if found.value is None:
            return None
        nodes += found.nodes
        moves[name] = found.value
    return Proved(int(result.value), moves, time.perf_counter() - began, nodes)


def opening_book(game: Any, tablebase: EndgameTablebase | None) -> OpeningBook | None:
    """The game's opening book when it can be trusted beside ``tablebase``, else None (no
    book, levels of another lineage, or a damaged book file)."""
    if not isinstance(game, HasOpeningBook):
        return None
    try:
        book: OpeningBook | None = game.opening_book(tablebase)
    except CertificateError:
        return None
    return book


def _book_children(game: Any, state: Any, book: OpeningBook) -> tuple[int, dict[Any, int]] | None:
    """``state``'s value and each move's (by action) from ``book``, or None unless it has
    them all (a finished game's value is its utility)."""
    value = book.values.get(format_state(game, state))
    if value is None:
        return None
    moves: dict[Any, int] = {}
    for action in game.actions(state):
        child = game.result(state, action)
        found = (
            game.utility(child)
            if game.is_terminal(child)
            else book.values.get(format_state(game, child))
        )
        if found is None:
            return None
        moves[action] = int(found)
    return int(value), moves


def book_values(game: Any, state: Any, tablebase: EndgameTablebase | None) -> Proved | None:
    """``state``'s value and every move's from the game's opening book, or None unless the
    book (trusted beside ``tablebase``) holds them all."""
    book = opening_book(game, tablebase)
    found = None if book is None else _book_children(game, state, book)
    if found is None:
        return None
    value, moves = found
    named = {format_action(game, state, a): v for a, v in moves.items()}
    return Proved(value, named, 0.0, 0, source="opening book")


def build_book(
    game: Any,
    prover: Any,
    state: Any,
    result: Any,
    tablebase: EndgameTablebase | None,
    *,
    made: str,
) -> OpeningBook:
    """An opening book from the proof ``result`` of ``state`` and a proof of every move (each
    certificate checked by :func:`solver.certificate.verify` before it goes in).

    Raises:
        GameError: a move's value did not settle.
        CertificateError: a certificate does not check (a bug of the proof search).
    """
    certificates = [prover.certificate(state, result)]
    for action in game.actions(state):
        child = game.result(state, action)
        if game.is_terminal(child):
            continue
        found = prover.value(child, guess=result.value)
        if found.value is None:
            raise GameError(
                f"the move {format_action(game, state, action)!r} did not settle: no book"
            )
        certificates.append(prover.certificate(child, found))
    check = getattr(tablebase, "check_provenance", None)
    for cert in certificates:
        verify(game, cert, oracle=tablebase, check_provenance=check)
    pairs = [(cert, certificate_digest(cert)) for cert in certificates]
    return OpeningBook.from_certificates(game.name, pairs, made=made)


@attrs.frozen
class BookOracle:
    """An oracle (:func:`solver.engine.search`'s) that knows the opening book's positions and,
    elsewhere, the tablebase's."""

    game: Any
    book: OpeningBook
    tablebase: EndgameTablebase | None

    def __call__(self, state: Any) -> float | None:
        """The exact value of ``state`` from the book, else from the tablebase (None: neither)."""
        value = self.book.values.get(format_state(self.game, state))
        if value is not None:
            return float(value)
        return None if self.tablebase is None else self.tablebase.probe(state)


def book_oracle(game: Any, state: Any, tablebase: EndgameTablebase | None) -> BookOracle | None:
    """An oracle that answers ``state`` and every move at once from the opening book, or None
    unless the book has them all (the search then goes on with the tablebase alone)."""
    book = opening_book(game, tablebase)
    if book is None or _book_children(game, state, book) is None:
        return None
    return BookOracle(game, book, tablebase)


@attrs.frozen
class BookPlayer:
    """A computer player that plays a move keeping the opening book's value wherever the book
    values the position and every move, and is ``player`` everywhere else."""

    player: Any
    book: OpeningBook

    @property
    def name(self) -> str:
        """The player's own name (the book only settles what it would find slower)."""
        return str(self.player.name)

    @property
    def interactive(self) -> bool:
        """Whether the player asks a person (never, for a computer player with a book)."""
        return bool(self.player.interactive)

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        """A value-keeping move from the book (chosen with ``rng`` among equals), else the
        player's own."""
        found = _book_children(game, state, self.book)
        if found is None:
            return self.player.choose(game, state, rng)
        value, moves = found
        return rng.choice([a for a, v in moves.items() if v == value])


def with_book(game: Any, player: Any, tablebase: EndgameTablebase | None) -> Any:
    """``player`` playing the opening book's moves where the book settles the position: an
    engine player with the tablebase (:func:`zerosum.tablebases.with_tablebase`'s), which plays
    exactly wherever exact values reach; any other player, or a game without a trusted book,
    unchanged."""
    book = opening_book(game, tablebase)
    if book is None or not isinstance(player, TablebasePlayer):
        return player
    return BookPlayer(player, book)


def _prover(game: Any, tablebase: EndgameTablebase) -> Any:
    """The game's proof search on ``tablebase`` (a small table: a short proof), or None (none,
    or it cannot run here: no compiled kernel)."""
    if not isinstance(game, HasProofSearch):
        return None
    try:
        return game.prover(tablebase, table_size=1 << 20)
    except CapabilityError:
        return None


def proved_json(game: Any, proved: Proved | None) -> dict[str, Any]:
    """What ``analyse --json`` adds: ``proved`` with the value, outcome, every move's value,
    seconds and nodes (nothing without a proof)."""
    if proved is None:
        return {}
    return {
        "proved": {
            "value": proved.value,
            "outcome": outcome(game, proved.value),
            "moves": proved.moves,
            "seconds": round(proved.seconds, 6),
            "nodes": proved.nodes,
            "source": proved.source,
        }
    }


def proved_lines(game: Any, state: Any, proved: Proved | None) -> list[str]:
    """What ``analyse`` prints of a proof (nothing without one)."""
    if proved is None:
        return []
    moves = ", ".join(f"{name} {value}" for name, value in proved.moves.items())
    how = (
        "from the opening book, proved with certificates"
        if proved.source == "opening book"
        else f"proved both ways with the tablebases as leaves, {proved.nodes:,} nodes in "
        f"{proved.seconds:.2f} s"
    )
    return [
        "",
        f"solved: {outcome(game, proved.value)} (value {proved.value}, {how})",
        f"every move, proved: {moves}",
        f"a certificate: gamesolver prove {game.name} --position "
        f"{quote(format_state(game, state))}",
    ]


def book_lines(game: Any, state: Any, tablebase: EndgameTablebase | None) -> list[str]:
    """The two lines ``play`` shows of a position the opening book settles (nothing
    elsewhere): its value and every move's."""
    return proved_lines(game, state, book_values(game, state, tablebase))[1:3]


PLAIN_SECONDS = 10.0
"""How often a proof's progress is printed as a line when the output is not a terminal."""


def progress_line(p: Any) -> str:
    """A running test's progress (a ``watch`` snapshot, see :class:`solver.game.HasProofSearch`)
    in words."""
    return (
        f"value >= {p.x}, depth {p.depth}: {p.nodes:,} nodes in {p.seconds:.0f} s "
        f"({p.rate / 1e6:.2f} M nodes/s), {p.proved:,} positions proved, root moves settled "
        f"{p.root_settled} of {p.root_moves}, {p.tests} tests settled"
    )


class ProofWatch:
    """How ``prove`` shows a proof going on: each settled test a line (:meth:`say`) and, while a
    test runs, its progress (called with the prover's snapshots): one line kept up to date on a
    terminal's stderr, else a line every :data:`PLAIN_SECONDS` seconds."""

    def __init__(self, io: Any, *, quiet: bool = False) -> None:
        self.io = io
        self.quiet = quiet
        self.live = bool(io.err.is_terminal)
        self.shown = False
        self.last = time.monotonic()

    def __call__(self, progress: Any) -> None:
        """Show ``progress`` (a snapshot of the running test)."""
        if self.quiet:
            return
        if self.live:
            self.io.err.file.write("\r" + progress_line(progress)[: self.io.err.width - 1])
            self.io.err.file.write("\x1b[K")
            self.io.err.file.flush()
            self.shown = True
        elif time.monotonic() - self.last >= PLAIN_SECONDS:
            self.last = time.monotonic()
            self.io.print(f"  {progress_line(progress)}")

    def say(self, line: str) -> None:
        """Print a settled test's line (below the live line, which it clears)."""
        self.close()
        if not self.quiet:
            self.io.print(f"  {line}")

    def close(self) -> None:
        """Clear the live line, if one is shown."""
        if self.shown:
            self.io.err.file.write("\r\x1b[K")
            self.io.err.file.flush()
            self.shown = False


def progress_json(prover: Any, result: Any) -> dict[str, Any]:
    """What ``prove --json`` says of the proof's course: each settled test, the positions
    proved and the node rate."""
    return {
        "tests": list(prover.settled),
        "proved_positions": prover.proved_positions(),
        "nodes_per_second": round(result.nodes / max(result.seconds, 1e-9)),
    }


@contextlib.contextmanager
def proof_mapper(workers: int, dask: Any = None) -> Iterator[Any]:
    """Where a proof's tasks run: a Dask ``distributed.Client``'s executor (``dask``), else
    ``workers`` worker processes of this machine (None for one: all in this process). The
    processes end when the block is left, at once on an error or Ctrl-C."""
    if dask is not None:
        yield dask.get_executor()
        return
    if workers <= 1:
        yield None
        return
    from solver.workers import WorkerPool

    with WorkerPool(workers, name="prove") as pool:
        yield pool
