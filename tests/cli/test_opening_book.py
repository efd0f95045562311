"""The opening book in the product: the start and every first move exact in `best`, `analyse`,
`play` and the board's analysis, only beside tablebases of the lineage it was proved with."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo
from games.ayoayo.game import OPENING_BOOK
from games.ayoayo.tablebase import Tablebase
from solver.book import read_book
from tests.cli.conftest import Run
from zerosum.proving import book_values, opening_book

START_MOVES = {"0": -12, "1": -12, "2": -4, "3": -4, "4": -4, "5": -4}
"""The first moves' values the proofs settled (docs/solving.md)."""


@pytest.fixture(scope="module")
def levels(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Ayòayò's levels 0-8, built here: the same lineage as the levels the book was proved on."""
    directory = tmp_path_factory.mktemp("levels")
    Ayoayo().tablebase(directory).build(8)
    return str(directory)


class TestTheShippedBook:
    """The package's book holds the start and every first move, proved on these rules."""

    def test_it_is_trusted_beside_levels_built_from_these_rules(self, levels: str) -> None:
        book = read_book(OPENING_BOOK)
        assert book.mismatch(Tablebase(levels).lineages()) is None
        game = Ayoayo()
        found = book_values(game, game.initial_state(), Tablebase(levels))
        assert found is not None
        assert (found.value, found.moves, found.source) == (-4, START_MOVES, "opening book")

    def test_every_position_parses_and_every_certificate_is_named(self) -> None:
        book = read_book(OPENING_BOOK)
        game = Ayoayo()
        for position in book.values:
            game.parse_state(position)
        roots = {line.split(" ", 2)[2] for line in book.certificates}
        assert game.format_state(game.initial_state()) in roots
        assert len(roots) == 7  # the start and its six moves

    def test_levels_of_another_lineage_are_not_trusted(
        self, levels: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        other = {n: c ^ 1 for n, c in Tablebase(levels).lineages().items()}
        monkeypatch.setattr(Tablebase, "lineages", lambda self: other)
        assert opening_book(Ayoayo(), Tablebase(levels)) is None

    def test_no_tablebase_no_book(self) -> None:
        assert opening_book(Ayoayo(), None) is None


class TestFrontEnds:
    """Each front end shows the start exactly, every first move's value included."""

    def test_best(self, run: Callable[..., Run], levels: str) -> None:
        done = run("best", "ayoayo", "--tablebase-dir", levels, "--json")
        answer = done.json()
        assert done.code == 0
        assert (answer["algorithm"], answer["tablebase"]) == ("opening book", False)
        assert (answer["value"], answer["exact"]) == (-4, True)
        assert {m["move"]: m["value"] for m in answer["moves"]} == START_MOVES
        assert answer["proved"]["source"] == "opening book"
        text = run("best", "ayoayo", "--tablebase-dir", levels).out
        assert "solved: Player 2 wins by 4 (value -4, from the opening book" in text

    def test_best_without_a_trusted_book_still_asks_for_a_limit(
        self, run: Callable[..., Run], tmp_path: Path
    ) -> None:
        done = run("best", "ayoayo", "--tablebase-dir", str(tmp_path))
        assert done.code != 0
        assert "give --depth N or --time S" in done.err

    def test_analyse(self, run: Callable[..., Run], levels: str) -> None:
        done = run("analyse", "ayoayo", "--tablebase-dir", levels, "--time", "0.2", "--json")
        proved = done.json()["proved"]
        assert (proved["value"], proved["moves"], proved["source"]) == (
            -4,
            START_MOVES,
            "opening book",
        )

    def test_play_the_computer_plays_a_move_of_the_book(
        self, run: Callable[..., Run], levels: str
    ) -> None:
        # Seed 1's beginner plays 1 (a loss by 12) where nothing better than its search is known.
        argv = ("play", "ayoayo", "--ai", "beginner", "--first", "ai", "--seed", "1")
        done = run(*argv, "--tablebase-dir", levels, stdin="q\n")
        assert "solved: Player 2 wins by 4" in done.out
        assert "every move, proved: 0 -12, 1 -12, 2 -4, 3 -4, 4 -4, 5 -4" in done.out
        first = next(line for line in done.out.splitlines() if line.startswith("1. "))
        assert first.split()[-1] in {"2", "3", "4", "5"}

    def test_the_boards_analysis(self, levels: str) -> None:
        from zerosum.board.workers import Budget, Job, _run_job, _Running

        class Sent:
            def __init__(self) -> None:
                self.lines: list[Any] = []

            def send(self, message: Any) -> None:
                _written, sent = message  # with how much the worker wrote on stderr
                self.lines.append(sent)

        game = Ayoayo()
        job = Job(1, "ayoayo", game.format_state(game.initial_state()), time=0.2)
        options = vars(argparse.Namespace(tablebase_dir=levels, no_tablebase=False))
        sent = Sent()
        answer = _run_job(job, sent, _Running(), options, Budget())  # type: ignore[arg-type]
        assert answer["proved"]["value"] == -4
        assert answer["proved"]["moves"] == START_MOVES
        lines = [m[2] for m in sent.lines if m[0] == "line"]
        assert lines and all(line["proved"]["value"] == -4 for line in lines)  # from the first
