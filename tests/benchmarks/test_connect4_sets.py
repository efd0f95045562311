"""Our Connect Four benchmark sets, classified as Pons's six: the maker and the files it made."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import pytest

from benchmarks.connect4_sets import DATA, SCORED, SETS, level, make_sets, rating, set_of
from games.connect4 import pons_score
from solver.compiled import numba_available
from solver.engine import search
from zerosum.cli import main
from zerosum.commands.scores import read_positions


def positions(path: Path) -> list[tuple[str, int]]:
    """A set file's positions, read as ``gamesolver scores`` reads them."""
    return [(text, given) for _, text, _, given in read_positions(SCORED, path)]


class TestClassification:
    def test_the_levels_and_ratings_bounds(self) -> None:
        """Level by moves played: begin to 14, middle 15-28, end 29 on; rating by moves left:
        easy below 14, medium 14-27, hard 28 on."""
        assert [level(n) for n in (0, 14, 15, 28, 29, 41)] == ["begin"] * 2 + ["middle"] * 2 + [
            "end"
        ] * 2
        assert [rating(n) for n in (0, 13, 14, 27, 28, 42)] == ["easy"] * 2 + ["medium"] * 2 + [
            "hard"
        ] * 2

    @pytest.mark.parametrize(
        ("moves", "score", "named"),
        [
            ("4455", 18, "begin-easy"),  # X wins with stone 7: 3 moves left
            ("4", 0, "begin-hard"),  # a draw: 41 left
            ("313663747677", -5, "begin-medium"),  # O wins with stone 34: 22 left
            ("354644432426516146522333", 9, "middle-easy"),  # X wins with stone 25: 1 left
            ("3322746727344122426466", -3, "middle-medium"),  # O wins with stone 38: 16 left
            ("5661743666276172123414454241", 7, "middle-easy"),  # 28 played: still middle
            ("417413243167317215736755735521", 6, "end-easy"),  # 30 played; X wins with 31
        ],
    )
    def test_hand_checked_positions(self, moves: str, score: int, named: str) -> None:
        assert set_of(moves, score) == named


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
class TestTheMaker:
    SIZES: ClassVar = {"end-easy": 3, "middle-easy": 2, "middle-medium": 1, "begin-easy": 2}
    CAPS: ClassVar = {"hard": 200_000, "medium": 200_000, "easy": 200_000}

    def test_seeded_sets_of_the_asked_sizes_each_position_in_its_set(self, tmp_path: Path) -> None:
        """Small sets: the sizes asked, each position's score the engine's (under its driver,
        not the value-only entry that made it; the Python engine's on the end set) and its set
        the file's; the same seed makes the same files."""
        first = make_sets(tmp_path / "a", 5, self.SIZES, self.CAPS)
        again = make_sets(tmp_path / "b", 5, self.SIZES, self.CAPS)
        assert sorted(first) == sorted(self.SIZES)
        for name, path in first.items():
            assert path.read_text() == again[name].read_text()
            found = positions(path)
            assert len(found) == self.SIZES[name]
            for moves, score in found:
                assert set_of(moves, score) == name
                state = SCORED.parse_state(moves)
                native = not name.startswith("end")
                value = search(SCORED, state, plies=False, native=native).value
                assert pons_score(SCORED, state, value, None) == score


class TestTheFiles:
    """The six files kept in benchmarks/data/connect4 (made once by the maker, seed 1)."""

    @pytest.mark.parametrize("pons", SETS, ids=[s.name for s in SETS])
    def test_each_file_holds_its_set(self, pons: object) -> None:
        """Read as 'gamesolver scores' reads them: the size made, every position in the file's
        set by its moves and score, none twice."""
        name, size = pons.name, pons.size  # type: ignore[attr-defined]
        found = positions(DATA / f"{name}.txt")
        assert len(found) == size
        assert len({moves for moves, _ in found}) == size
        assert all(set_of(moves, score) == name for moves, score in found)

    @pytest.mark.parametrize(
        ("name", "sample", "least"),
        [("end-easy", 20, 20), ("middle-easy", 20, 8), ("begin-easy", 8, 2)],
    )
    def test_easy_scores_are_the_python_engines(self, name: str, sample: int, least: int) -> None:
        """A seeded sample of each easy set solved again by the pure-Python engine (its plain
        alpha-beta, none of the kernel's pruning), each position given 20,000 nodes: every
        position it settles has the file's score, and it settles at least ``least``."""
        found = positions(DATA / f"{name}.txt")
        settled = 0
        for moves, score in random.Random(name).sample(found, sample):
            state = SCORED.parse_state(moves)
            result = search(SCORED, state, plies=False, native=False, node_limit=20_000)
            if result.exact:
                assert pons_score(SCORED, state, result.value, None) == score, moves
                settled += 1
        assert settled >= least

    @pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
    @pytest.mark.parametrize("name", ["end-easy", "middle-easy", "middle-medium", "begin-easy"])
    def test_gamesolver_scores_agrees(self, name: str, capsys: pytest.CaptureFixture[str]) -> None:
        """'gamesolver scores connect4 -O scored=true --mover FILE' on the quick sets: exit 0,
        so every score equal to the file's."""
        path = DATA / f"{name}.txt"
        code = main(["scores", "connect4", "-O", "scored=true", "--mover", "--quiet", str(path)])
        out = capsys.readouterr().out
        assert code == 0
        assert out.startswith(f"{len(positions(path))} positions on the compiled route")

    @pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
    @pytest.mark.parametrize("name", ["begin-easy", "middle-medium"])
    def test_scores_under_the_engines_driver(self, name: str) -> None:
        """Every position of these sets solved again under the engine's driver on the compiled
        route (its root moves searched one by one, not the value-only entry that made them)."""
        for moves, score in positions(DATA / f"{name}.txt"):
            state = SCORED.parse_state(moves)
            value = search(SCORED, state, plies=False).value
            assert pons_score(SCORED, state, value, None) == score, moves
