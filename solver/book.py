"""Opening books: the exact values that proofs settled, kept so that no one proves them again.

A certificate (:mod:`solver.certificate`) proves its root's value with two solution graphs,
and every position of a solution graph is proved too: a position of the lower graph of
``value >= v`` has a value of at least ``v`` (the part of the graph it reaches is a solution
graph of its own, cycles and all), a position of the upper graph at most ``v``. A position in
both, as the root and the principal variation are, has the exact value ``v``. An
:class:`OpeningBook` gathers those exact values from a few certificates (a position's and each
of its moves', so every first move is exact) with where they came from: each certificate's
digest and the tablebase levels (with their lineage) the proofs stood on. A book proved on
tablebases is used only beside tablebase levels of the same lineage
(:meth:`OpeningBook.mismatch`): levels built from other rules would not be the ones proved with.

The file is gzip-compressed UTF-8 text, a line each::

    gamesolver-opening-book 1
    game ayoayo
    made <how the book was made, free text>
    tablebase <seeds> <lineage, 8 hex digits>      (one a level the proofs used)
    certificate <sha256 of its text> <value> <root position>
    positions <n>
    <value> <position>                              (n lines)
    end

>>> from solver.certificate import Node, SolutionGraph
>>> cert = Certificate("g", "p", Fraction(3), (), (
...     SolutionGraph("lower", Fraction(3), (Node("p", "terminal", value=Fraction(3)),)),
...     SolutionGraph("upper", Fraction(3), (Node("p", "terminal", value=Fraction(3)),))))
>>> OpeningBook.from_certificates("g", [(cert, "00")], made="by hand").values
{'p': 3}
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Final

import attrs

from solver.certificate import Certificate
from solver.errors import CertificateError
from solver.output import atomic_path

__all__ = ["BOOK_FORMAT", "OpeningBook", "read_book", "write_book"]

BOOK_FORMAT: Final = "gamesolver-opening-book 1"
"""The first line of every opening book (the format's name and version)."""


def _value(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


@attrs.frozen
class OpeningBook:
    """Exact values of positions (the game's notation -> value, player 0's view) settled by
    proofs, with their provenance.

    Attributes:
        game: the game's registry name.
        made: how the book was made (a command, a version, a date).
        provenance: ``"SEEDS LINEAGE"`` of each tablebase level the proofs used.
        certificates: ``"SHA256 VALUE ROOT"`` of each certificate it was read from.
        values: each position's exact value.
    """

    game: str
    made: str
    provenance: tuple[str, ...]
    certificates: tuple[str, ...]
    values: Mapping[str, int | Fraction]

    @classmethod
    def from_certificates(
        cls, game: str, certificates: Sequence[tuple[Certificate, str]], *, made: str
    ) -> OpeningBook:
        """The exact values that ``certificates`` (each with its SHA-256) prove: the positions
        whose proved lower and upper bounds meet, across all of them."""
        lower: dict[str, Fraction] = {}
        upper: dict[str, Fraction] = {}
        provenance: dict[str, None] = {}
        for cert, _ in certificates:
            if cert.game != game:
                raise CertificateError(f"a certificate of {cert.game!r} in a book of {game!r}")
            provenance.update(dict.fromkeys(cert.provenance))
            for graph in cert.graphs:
                bounds, better = (lower, max) if graph.side == "lower" else (upper, min)
                for node in graph.nodes:
                    known = bounds.get(node.position)
                    bounds[node.position] = (
                        graph.bound if known is None else better(known, graph.bound)
                    )
        values = {p: _value(v) for p, v in lower.items() if upper.get(p) == v}
        named = tuple(f"{digest} {cert.value} {cert.root}" for cert, digest in certificates)
        return cls(game, made, tuple(sorted(provenance, key=_seeds)), named, values)

    def levels(self) -> dict[int, int]:
        """The tablebase levels the proofs used: seeds -> lineage."""
        found = {}
        for line in self.provenance:
            seeds, lineage = line.split()
            found[int(seeds)] = int(lineage, 16)
        return found

    def mismatch(self, lineages: Mapping[int, int]) -> str | None:
        """Why the book cannot be trusted beside tablebase levels of these ``lineages`` (seeds
        -> lineage of the levels present), or None when it can: a level it used is present
        with another lineage (another build or other rules), or none of its levels is present
        to check it against. A book proved without tablebases needs none."""
        used = self.levels()
        if not used:
            return None
        shared = sorted(used.keys() & lineages.keys())
        if not shared:
            return (
                f"none of the tablebase levels it was proved with ({', '.join(map(str, used))}) "
                "is present to check it against"
            )
        for seeds in shared:
            if lineages[seeds] != used[seeds]:
                return (
                    f"tablebase level {seeds} here has lineage {lineages[seeds]:08x}, the book "
                    f"was proved with {used[seeds]:08x} (another build or other rules)"
                )
        return None


def _seeds(line: str) -> int:
    return int(line.split()[0])


def _lines(book: OpeningBook) -> Iterator[str]:
    yield BOOK_FORMAT
    yield f"game {book.game}"
    yield f"made {book.made}"
    for line in book.provenance:
        yield f"tablebase {line}"
    for line in book.certificates:
        yield f"certificate {line}"
    yield f"positions {len(book.values)}"
    for position, value in book.values.items():
        yield f"{value} {position}"
    yield "end"


def write_book(path: str | os.PathLike[str], book: OpeningBook, *, overwrite: bool = False) -> None:
    """Write ``book`` to ``path`` (gzip-compressed text, atomically).

    Raises:
        OutputError: ``path`` exists (without ``overwrite``) or cannot be written.
    """
    with (
        atomic_path(Path(path), overwrite=overwrite) as temporary,
        gzip.GzipFile(temporary, "wb", compresslevel=9, mtime=0) as raw,
    ):
        raw.write("".join(line + "\n" for line in _lines(book)).encode())


def read_book(source: str | os.PathLike[str] | IO[str]) -> OpeningBook:
    """The opening book in ``source`` (a gzip-compressed file's path, or a text stream).

    Raises:
        CertificateError: not an opening book, or a line that does not parse (named).
    """
    if isinstance(source, (str, os.PathLike)):
        name = str(source)
        try:
            with gzip.open(source, "rt", encoding="utf-8") as stream:
                return _read(stream, name)
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise CertificateError(f"cannot read the opening book {name!r}: {exc}") from None
    return _read(source, "the stream")


def _read(stream: IO[str], name: str) -> OpeningBook:
    lines = iter(enumerate(stream, 1))

    def take(expect: str) -> tuple[int, str]:
        number, line = next(lines, (0, ""))
        line = line.rstrip("\n")
        word, _, rest = line.partition(" ")
        if word != expect:
            where = f"line {number}" if number else "the end"
            raise CertificateError(
                f"{name!r} is not an opening book: {where} is {line!r}, expected {expect!r}"
            )
        return number, rest

    number, first = next(lines, (0, ""))
    if first.rstrip("\n") != BOOK_FORMAT:
        raise CertificateError(
            f"{name!r} is not an opening book: its first line is {first.rstrip()!r}, "
            f"expected {BOOK_FORMAT!r}"
        )
    _, game = take("game")
    _, made = take("made")
    provenance: list[str] = []
    certificates: list[str] = []
    while True:
        number, line = next(lines, (0, ""))
        word, _, rest = line.rstrip("\n").partition(" ")
        if word == "tablebase":
            provenance.append(rest)
        elif word == "certificate":
            certificates.append(rest)
        elif word == "positions":
            break
        else:
            raise CertificateError(
                f"{name!r} is not an opening book: line {number} is {line.rstrip()!r}"
            )
    values: dict[str, int | Fraction] = {}
    if not rest.isdigit():
        raise CertificateError(f"{name!r}: line {number} {line.rstrip()!r} is not 'positions N'")
    for _ in range(int(rest)):
        number, line = next(lines, (0, ""))
        text, _, position = line.rstrip("\n").partition(" ")
        try:
            values[position] = _value(Fraction(text))
        except ValueError:
            raise CertificateError(
                f"{name!r}: line {number} {line.rstrip()!r} is not 'VALUE POSITION'"
            ) from None
    take("end")
    book = OpeningBook(game, made, tuple(provenance), tuple(certificates), values)
    try:
        book.levels()
    except ValueError:
        raise CertificateError(
            f"{name!r}: a tablebase line of {provenance!r} is not 'SEEDS LINEAGE'"
        ) from None
    return book
