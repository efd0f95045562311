"""Game records: the text format, and the review built on it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from games import load_game
from solver.game import mistake_sizes
from tests.cli.conftest import Run
from zerosum.records import (
    RecordError,
    Variation,
    format_record,
    parse_record,
    variation_from_json,
)
from zerosum.review import mark, review_record

BLUNDER = "game: tictactoe\n1. 4\n2. 0\n3. 1\n4. 2\n5. 7\n"
"""O's 2 lets X win with 7 where 7 itself would have held the draw."""


class TestRecordFormat:
    def test_random_games_survive_writing_and_reading(self) -> None:
        """Seeded random Ayòayò games written as records read back to the same positions."""
        game, rng = load_game("ayoayo"), random.Random(7)
        for _ in range(20):
            state, actions = game.initial_state(), []
            while not game.is_terminal(state) and len(actions) < 80:
                actions.append(rng.choice(game.actions(state)))
                state = game.result(state, actions[-1])
            text = format_record(game, game.initial_state(), actions, headers={"players": "a, b"})
            record = parse_record(text)
            _, states = record.positions()
            assert states[-1] == state and record.headers == {"players": "a, b"}
            assert ("result: " in text) == game.is_terminal(state)

    def test_moves_may_share_a_line_and_carry_comments(self) -> None:
        """Numbers are optional, several moves may share a line, comments follow ``#``."""
        record = parse_record("# my game\ngame: tictactoe\n4 0  # both centre-ish\n3. 8\n")
        assert record.moves == ("4", "0", "8") and record.comments == {1: "both centre-ish"}

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("1. 4\n", "no 'game:' header"),
            ("game: chess\n1. e4\n", "unknown game 'chess'"),
            ("game: tictactoe\n1. 4\n3. 0\n", "move number '3.' where move 2 was expected"),
            ("game: tictactoe\ngame: ayoayo\n", "header 'game' given twice"),
            ("game: ayoayo\nstart: [[1]]\n", "cannot read a board in '[[1]]'"),
        ],
    )
    def test_a_bad_record_says_what_is_wrong(self, text: str, message: str) -> None:
        """Each malformed record is refused with a message naming the problem."""
        with pytest.raises(RecordError, match=message.replace("[", r"\[").replace(".", r"\.")):
            parse_record(text)

    def test_an_illegal_move_names_its_number_and_the_legal_moves(self) -> None:
        """The moves are checked in order against the rules."""
        record = parse_record("game: tictactoe\n1. 4\n2. 4\n")
        with pytest.raises(RecordError, match=r"move 2 \('4'\): .*legal: 0, 1, 2, 3, 5"):
            record.positions()


TICTACTOE = load_game("tictactoe")


@st.composite
def lines(draw: st.DrawFn, depth: int = 0, state: object = None) -> Variation:
    """A random legal tic-tac-toe line from ``state``, with comments and nested variations."""
    game = TICTACTOE
    state = game.initial_state() if state is None else state
    moves, comments, variations, states = [], {}, {}, [state]
    for _ in range(draw(st.integers(1, 5))):
        if game.is_terminal(states[-1]):
            break
        action = draw(st.sampled_from(game.actions(states[-1])))
        if draw(st.booleans()):
            comments[len(moves)] = draw(st.text("abc (x) #!", min_size=1, max_size=8)).strip("#")
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            variations[len(moves)] = (draw(lines(depth + 1, states[-1])),)
        moves.append(game.format_action(states[-1], action))
        states.append(game.result(states[-1], action))
    comments = {k: " ".join(v.replace("#", " ").split()) for k, v in comments.items()}
    return Variation(tuple(moves), {k: v for k, v in comments.items() if v}, variations)


class TestVariations:
    @settings(max_examples=150, deadline=None)
    @given(lines())
    def test_random_lines_with_variations_survive_writing_and_reading(
        self, line: Variation
    ) -> None:
        """Written with its variations, comments and nested variations, a line reads back
        as it was; every move of every variation is checked legal where it is played."""
        game = TICTACTOE
        state, actions = game.initial_state(), []
        for move in line.moves:
            actions.append(game.parse_action(state, move))
            state = game.result(state, actions[-1])
        text = format_record(
            game,
            game.initial_state(),
            actions,
            comments=line.comments,
            variations=line.variations,
        )
        record = parse_record(text)
        record.positions()
        assert Variation(record.moves, record.comments, record.variations) == line

    def test_a_variation_replaces_the_move_it_follows(self) -> None:
        """``2. 0 (2. 1 3. 0)``: the variation starts from the position before move 2."""
        record = parse_record("game: tictactoe\n1. 4 2. 0 (2. 1 3. 0) 3. 8\n")
        assert record.moves == ("4", "0", "8")
        assert record.variations == {1: (Variation(("1", "0")),)}
        record.positions()

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("game: tictactoe\n(1. 4)\n", "'(' before any move"),
            ("game: tictactoe\n1. 4 )\n", "')' closes no variation"),
            ("game: tictactoe\n1. 4 ()\n", "an empty variation"),
            ("game: tictactoe\n1. 4\n2. 0 (3. 1)\n", "where move of this variation 2"),
            ("game: tictactoe\n1. 4\n2. 0\n(2. 1\n3. 0\n", "line 4: the variation opened"),
            ("game: tictactoe\n1. 4" + " (1. 0" * 60 + ")" * 60, "nested more than 50 deep"),
        ],
    )
    def test_a_bad_variation_says_what_is_wrong(self, text: str, message: str) -> None:
        with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_record(text)

    def test_an_illegal_move_in_a_variation_is_named(self) -> None:
        record = parse_record("game: tictactoe\n1. 4\n2. 0 (2. 4)\n")
        with pytest.raises(RecordError, match=r"in a variation: move 2 \('4'\)"):
            record.positions()


class TestReview:
    def test_marks_follow_the_seed_thresholds(self) -> None:
        """Result changes, 8 seeds and 4 seeds lost give ??, ? and ?! from either side."""
        seeds = mistake_sizes(load_game("ayoayo"))
        assert [
            mark(0, 0, -4, seeds),
            mark(0, 20, 12, seeds),
            mark(0, 20, 16, seeds),
            mark(0, 20, 17, seeds),
        ] == ["??", "?", "?!", ""]
        assert [mark(1, 0, 4, seeds), mark(1, -20, -12, seeds), mark(1, -20, -20, seeds)] == [
            "??",
            "?",
            "",
        ]

    def test_a_tictactoe_blunder_is_marked_with_the_better_move(self) -> None:
        """O's losing move is the only ``??`` and the review names a drawing move instead."""
        _, reviews = review_record(parse_record(BLUNDER))
        assert [r.mark for r in reviews] == ["", "", "", "??", ""]
        assert reviews[3].value == 1 and reviews[3].best_value == 0 and reviews[3].exact

    def test_the_command_prints_a_table_and_json(
        self, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """``gamesolver review FILE`` marks the blunder in its table and its JSON."""
        path = tmp_path / "game.txt"
        path.write_text(BLUNDER)
        table = run("review", str(path))
        assert table.code == 0 and "??" in table.out and "O: 2 moves, 1 ??" in table.out
        answer = run("review", str(path), "--json").json()
        assert answer["moves"][3]["mark"] == "??" and answer["result"] == "X wins"

    def test_a_bad_record_file_is_an_error_naming_it(
        self, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """An illegal move in the file exits with the file, the move and the legal ones."""
        path = tmp_path / "bad.txt"
        path.write_text("game: ayoayo\n1. 2\n2. 9\n")
        failed = run("review", str(path))
        assert failed.code != 0 and f"{path}: move 2 ('9')" in failed.err

    def test_the_api_answers_what_the_command_prints(
        self, client: TestClient, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """``POST /api/review`` gives ``gamesolver review --json``'s answer."""
        path = tmp_path / "game.txt"
        path.write_text(BLUNDER)
        api = client.post("/api/review", json={"record": BLUNDER})
        assert api.status_code == 200 and api.json() == run("review", str(path), "--json").json()

    def test_the_api_refuses_a_bad_record_with_the_same_message(self, client: TestClient) -> None:
        """An illegal move is a 400 quoting it, before any search."""
        answer = client.post("/api/review", json={"record": "game: tictactoe\n1. 9\n"})
        assert answer.status_code == 400 and "move 1 ('9')" in answer.json()["error"]

    def test_the_api_reads_and_writes_records(self, client: TestClient) -> None:
        """A record read gives every position; moves exported give the record back."""
        read = client.post("/api/record", json={"record": BLUNDER}).json()
        assert [m["move"] for m in read["moves"]] == ["4", "0", "1", "2", "7"]
        assert read["moves"][-1]["position"]["over"] is True
        moves = [m["move"] for m in read["moves"]]
        written = client.post("/api/export", json={"game": "tictactoe", "moves": moves}).json()
        assert parse_record(written["record"]).moves == tuple(moves)
        assert "result: X wins" in written["record"]

    def test_the_api_keeps_variations_and_comments(self, client: TestClient) -> None:
        """A record with a nested variation and comments: read with every position, exported
        back from the same tree, it is the same record."""
        text = (
            "game: tictactoe\n1. 4  # centre\n2. 0\n  (2. 1  # an edge\n   3. 0\n"
            "    (3. 2)\n   4. 8)\n3. 8\n"
        )
        read = client.post("/api/record", json={"record": text}).json()
        alternative = read["moves"][1]["variations"][0]
        assert [m["move"] for m in alternative] == ["1", "0", "8"]
        assert alternative[0]["comment"] == "an edge"
        assert alternative[1]["variations"][0][0]["position"]["position"] == ".ox/.x./..."
        tree = {
            "game": "tictactoe",
            "moves": ["4", "0", "8"],
            "comments": {"0": "centre"},
            "variations": {
                "1": [
                    {
                        "moves": ["1", "0", "8"],
                        "comments": {"0": "an edge"},
                        "variations": {"1": [{"moves": ["2"]}]},
                    }
                ]
            },
        }
        written = client.post("/api/export", json=tree).json()["record"]
        again = parse_record(written)
        first = parse_record(text)
        assert (again.moves, again.comments, again.variations) == (
            first.moves,
            first.comments,
            first.variations,
        )

    def test_the_api_refuses_a_bad_variation(self, client: TestClient) -> None:
        """An illegal move in a variation, or a bad index, is a 400 naming it."""
        bad = {"game": "tictactoe", "moves": ["4"], "variations": {"0": [{"moves": ["9"]}]}}
        answer = client.post("/api/export", json=bad)
        assert answer.status_code == 400 and "move 1 ('9')" in answer.json()["error"]
        bad["variations"] = {"5": [{"moves": ["1"]}]}
        answer = client.post("/api/export", json=bad)
        assert answer.status_code == 400 and "invalid move index '5'" in answer.json()["error"]


class TestResults:
    def test_a_line_back_at_an_earlier_position_is_written_with_its_result(self) -> None:
        """The repetition rule's end is the record's result, as a finished game's is."""
        game = load_game("ayoayo")
        start = game.parse_state("[[2,0,1,0,1,0],[1,1,0,1,0,1]] captured 24,16 to-move 0")
        text = format_record(game, start, [0, 0])
        assert "result: Player 1 wins by 8 (a position repeated: scored as endless play" in text
        assert "result:" not in format_record(game, start, [0])


class TestAnnotations:
    def test_marks_after_moves_are_read_and_written_back(self) -> None:
        """``2!`` and ``4 ?!`` (a mark standing apart) are read; the record writes ``4?!``."""
        text = "game: ayoayo\n1. 2!\n2. 4 ?!  # hm\n  (2. 1??\n   3. 3)\n3. 0\n"
        record = parse_record(text)
        assert record.moves == ("2", "4", "0")
        assert record.annotations == {0: "!", 1: "?!"}
        assert record.variations[1][0].annotations == {0: "??"}
        game, states = record.positions()
        written = format_record(
            game,
            states[0],
            [2, 4, 0],
            comments=record.comments,
            variations=record.variations,
            annotations=record.annotations,
        )
        assert "1. 2!\n2. 4?!  # hm\n  (2. 1??\n" in written
        assert parse_record(written) == record

    def test_a_mark_before_any_move_is_refused_with_its_line(self) -> None:
        with pytest.raises(RecordError, match="record line 2: the annotation '!' follows no move"):
            parse_record("game: ayoayo\n!\n")

    def test_a_mark_that_is_not_one_of_the_usual_is_refused_from_json(self) -> None:
        with pytest.raises(RecordError, match="invalid annotations"):
            variation_from_json({"moves": ["2"], "annotations": {"0": "!!!"}})
