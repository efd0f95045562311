"""Opening books: exact values gathered from certificates, the file format, the lineage check."""

from __future__ import annotations

import gzip
from fractions import Fraction
from pathlib import Path

import pytest

from solver.book import BOOK_FORMAT, OpeningBook, read_book, write_book
from solver.certificate import Certificate, Node, SolutionGraph
from solver.errors import CertificateError


def _certificate(lower: int, upper: int) -> Certificate:
    """Root ``r`` with two positions below: ``a`` in both graphs, ``b`` only in the upper."""
    low = SolutionGraph(
        "lower",
        Fraction(lower),
        (Node("r", "move", action="0", children=(1,)), Node("a", "terminal", value=Fraction(3))),
    )
    high = SolutionGraph(
        "upper",
        Fraction(upper),
        (
            Node("r", "all", children=(1, 2)),
            Node("a", "terminal", value=Fraction(3)),
            Node("b", "terminal", value=Fraction(-1)),
        ),
    )
    return Certificate("g", "r", Fraction(3), ("8 0000abcd", "4 00001234"), (low, high))


class TestFromCertificates:
    """A position is in the book only where its proved bounds meet."""

    def test_positions_of_both_graphs_are_exact(self) -> None:
        book = OpeningBook.from_certificates("g", [(_certificate(3, 3), "d1")], made="test")
        assert book.values == {"r": 3, "a": 3}
        assert book.provenance == ("4 00001234", "8 0000abcd")
        assert book.certificates == ("d1 3 r",)

    def test_bounds_that_do_not_meet_give_nothing(self) -> None:
        book = OpeningBook.from_certificates("g", [(_certificate(2, 3), "d1")], made="test")
        assert book.values == {}

    def test_bounds_meet_across_certificates(self) -> None:
        pairs = [(_certificate(2, 3), "d1"), (_certificate(3, 4), "d2")]
        assert OpeningBook.from_certificates("g", pairs, made="t").values == {"r": 3, "a": 3}

    def test_another_games_certificate_is_refused(self) -> None:
        with pytest.raises(CertificateError, match="a certificate of 'g' in a book of 'h'"):
            OpeningBook.from_certificates("h", [(_certificate(3, 3), "d1")], made="t")


class TestFile:
    """The book's file reads back as written; anything else is refused, saying where."""

    def test_round_trip(self, tmp_path: Path) -> None:
        book = OpeningBook.from_certificates("g", [(_certificate(3, 3), "d1")], made="a test")
        write_book(tmp_path / "b.gz", book)
        assert read_book(tmp_path / "b.gz") == book

    def test_an_existing_file_is_kept(self, tmp_path: Path) -> None:
        book = OpeningBook.from_certificates("g", [(_certificate(3, 3), "d1")], made="a test")
        write_book(tmp_path / "b.gz", book)
        with pytest.raises(Exception, match="already exists"):
            write_book(tmp_path / "b.gz", book)

    def test_a_certificate_is_not_a_book(self, tmp_path: Path) -> None:
        path = tmp_path / "c.gz"
        with gzip.open(path, "wt") as out:
            out.write("gamesolver-certificate 1\n")
        with pytest.raises(CertificateError, match="is not an opening book: its first line"):
            read_book(path)

    def test_a_bad_value_line_is_named(self, tmp_path: Path) -> None:
        path = tmp_path / "b.gz"
        with gzip.open(path, "wt") as out:
            out.write(f"{BOOK_FORMAT}\ngame g\nmade x\npositions 1\nfour r\nend\n")
        with pytest.raises(CertificateError, match="line 5 'four r' is not 'VALUE POSITION'"):
            read_book(path)

    def test_a_truncated_book_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "b.gz"
        with gzip.open(path, "wt") as out:
            out.write(f"{BOOK_FORMAT}\ngame g\nmade x\npositions 1\n3 r\n")
        with pytest.raises(CertificateError, match="the end is '', expected 'end'"):
            read_book(path)


class TestLineage:
    """A book proved on tablebases is trusted only beside levels of the same lineage."""

    book = OpeningBook.from_certificates("g", [(_certificate(3, 3), "d1")], made="t")

    def test_same_lineage(self) -> None:
        assert self.book.mismatch({0: 7, 4: 0x1234, 8: 0xABCD}) is None

    def test_some_levels_are_enough(self) -> None:
        assert self.book.mismatch({4: 0x1234}) is None

    def test_another_lineage(self) -> None:
        found = self.book.mismatch({4: 0x1234, 8: 0xABCE})
        assert found is not None and "level 8 here has lineage 0000abce" in found

    def test_no_level_to_check_against(self) -> None:
        found = self.book.mismatch({12: 1})
        assert found is not None and "none of the tablebase levels" in found

    def test_a_book_without_tablebases_needs_none(self) -> None:
        assert OpeningBook("g", "t", (), (), {"r": 1}).mismatch({}) is None
