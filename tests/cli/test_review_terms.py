"""``gamesolver review`` judges moves in the game's own terms (issue 29, item 2).

A game that gives mistake sizes (:class:`solver.game.HasMistakeSizes`: Ayòayò's 4 and 8 seeds)
marks ``?!`` and ``?`` by them; a game without (Connect Four's evaluation is no margin) marks
only a proved change of result, and a horizon evaluation is written as one, rounded.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from games import load_game
from solver.game import MistakeSizes, mistake_sizes
from tests.cli.conftest import Run
from zerosum.records import parse_record
from zerosum.review import mark, marks, review_record

CONNECT4_FLIPS = "game: connect4\n1. 1\n2. 7\n3. 2\n4. 6\n5. 3\n"
"""Every move here turns the depth-2 evaluation's sign against its mover (best is column 4)."""

AYOAYO_INACCURACIES = "game: ayoayo\n" + "".join(
    f"{i}. {m}\n" for i, m in enumerate("1413435042", 1)
)
"""A seeded random Ayòayò game: at depth 2, two of its moves lose one capture (4 seeds)."""


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _record(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text)
    return str(path)


class TestTheGamesSizes:
    def test_ayoayo_counts_seeds_and_tictactoe_has_no_margins(self) -> None:
        """Ayòayò's sizes are one capture and two; tic-tac-toe and Connect Four have none."""
        assert mistake_sizes(load_game("ayoayo")) == MistakeSizes("seeds", 4, 8)
        assert mistake_sizes(load_game("tictactoe")) is None
        assert mistake_sizes(load_game("connect4")) is None

    def test_the_marks_said_follow_the_sizes(self) -> None:
        """Ayòayò's legend names seeds; a game without sizes lists only ``??``."""
        assert marks(mistake_sizes(load_game("ayoayo"))) == {
            "??": "changes the result",
            "?": "loses 8 seeds or more",
            "?!": "loses 4 seeds or more",
        }
        assert marks(None) == {"??": "changes the result"}

    def test_an_evaluations_sign_is_no_result(self) -> None:
        """Horizon values that change sign are no ``??``; proved ones are."""
        assert mark(0, 0.2, -0.3, exact=False) == ""
        assert mark(0, 0.2, -0.3, exact=True) == "??"
        assert mark(1, -4, 8, MistakeSizes("seeds", 4, 8), exact=False) == "?"


class TestConnectFour:
    def test_sign_flips_of_the_evaluation_are_not_marked(self) -> None:
        """Each move flips the evaluation's sign against its mover, and none is marked."""
        _, reviews = review_record(parse_record(CONNECT4_FLIPS), depth=2)
        for r in reviews:
            side = 1 if r.player == 0 else -1
            assert _sign(side * r.best_value) > _sign(side * r.value)
        assert [r.mark for r in reviews] == [""] * 5
        assert not any(r.exact for r in reviews)

    def test_the_command_writes_evaluations_rounded_and_says_so(
        self, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """The table shows ``eval -0.2``-style values, a legend, and never a long fraction."""
        table = run("review", _record(tmp_path, CONNECT4_FLIPS), "--depth", "2")
        assert table.code == 0, table.err
        assert "eval -0.2" in table.out and "eval +0.5" in table.out
        assert "eval: a value not proved" in table.out
        assert "marks: ?? changes the result\n" in table.out
        assert "0.333" not in table.out and "ahead by" not in table.out
        assert "X: 3 moves, 0 ??" in table.out

    def test_a_proved_loss_beside_a_proved_win_is_marked(self) -> None:
        """X's last move misses the proved win in column 4 and the review marks it ``??``."""
        text = "game: connect4\n1. 4\n2. 3\n3. 4\n4. 3\n5. 4\n6. 3\n7. 1\n"
        _, reviews = review_record(parse_record(text), depth=4)
        assert reviews[6].best_move == "4" and reviews[6].best_value == 1 and reviews[6].exact
        assert reviews[6].mark == "??"


class TestAyoayo:
    def test_seed_thresholds_still_mark_horizon_values(self) -> None:
        """A capture lost at the horizon is still ``?!``, as before the sizes came from the game."""
        _, reviews = review_record(parse_record(AYOAYO_INACCURACIES), depth=2)
        marked = [(r.ply, r.mark, r.value, r.best_value) for r in reviews if r.mark]
        assert [m[1] for m in marked] == ["?!", "?!"]
        assert all(abs(best - value) == 4 for _, _, value, best in marked)

    def test_the_command_names_seeds(self, tmp_path: Path, run: Callable[..., Run]) -> None:
        """The legend says seeds, and the JSON carries the same marks."""
        path = _record(tmp_path, AYOAYO_INACCURACIES)
        table = run("review", path, "--depth", "2", "--no-tablebase")
        assert table.code == 0, table.err
        assert "? loses 8 seeds or more; ?! loses 4 seeds or more" in table.out
        answer = run("review", path, "--depth", "2", "--no-tablebase", "--json").json()
        assert answer["marks"]["?!"] == "loses 4 seeds or more"
        assert sum(m["mark"] == "?!" for m in answer["moves"]) == 2
