"""The board page in real headless Chromium (Playwright), against a real server."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo
from tests.board.browsing import (
    CHROMIUM_TESTS,
    click_pit,
    keep_screenshot,
    open_board,
    open_page,
    play_line,
    serve,
    shown_position,
    signed,
    wait_for,
)
from tests.cli.conftest import Run
from zerosum.records import parse_record

pytestmark = CHROMIUM_TESTS

MIDGAME = "[[2,6,6,1,1,7],[0,2,7,2,7,7]] captured 0,0 to-move 1"


@pytest.fixture(scope="module")
def tablebase_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ayòayò tablebase levels 0 to 8, built once."""
    where = tmp_path_factory.mktemp("board-tablebase")
    Ayoayo().tablebase(where).build(8)
    return where


@pytest.fixture(scope="module")
def tablebase_server(
    tmp_path_factory: pytest.TempPathFactory, tablebase_dir: Path
) -> Iterator[str]:
    """The board reading the tablebase levels 0 to 8; its URL."""
    yield from serve(tmp_path_factory, "--tablebase-dir", str(tablebase_dir))


@pytest.fixture
def tablebase_page(browser: Any, tablebase_server: str) -> Iterator[Any]:
    """A desktop-sized page of the board that reads tablebases (as :func:`page`)."""
    yield from open_page(browser, tablebase_server)


class TestPlaying:
    def test_a_game_played_by_clicks_follows_the_rules(self, page: Any) -> None:
        """Six clicked moves give the rules' positions and six entries in the move list."""
        game = Ayoayo()
        open_board(page)
        _, states = play_line(page, (2, 4, 1, 3, 0, 5))
        assert shown_position(page) == game.format_state(states[-1])
        assert page.locator("#movelist .mv").count() == 7  # the start and six moves

    def test_take_back_forward_and_jump(self, page: Any) -> None:
        """Keys and buttons walk the move list; a different move makes a variation."""
        game = Ayoayo()
        open_board(page)
        _, line = play_line(page, (2, 4, 1))
        texts = [game.format_state(s) for s in line]
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        assert shown_position(page) == texts[1]
        page.click("#forward")
        assert shown_position(page) == texts[2]
        page.keyboard.press("Home")
        assert shown_position(page) == texts[0]
        page.keyboard.press("End")
        assert shown_position(page) == texts[3]
        page.click("#movelist .mv[data-node='1']")
        assert shown_position(page) == texts[1]
        other = next(c for c in game.actions(line[1]) if game.result(line[1], c) != line[2])
        click_pit(page, other)
        assert page.locator("#movelist .variation").count() == 1
        assert shown_position(page) == game.format_state(game.result(line[1], other))

    def test_a_relay_sowing_animates_the_right_pits(self, page: Any) -> None:
        """Cell 2 at the start relays five laps: the page lights the traced pits in order."""
        game = Ayoayo()
        open_board(page, speed=5)
        click_pit(page, 2)
        steps = game.move_steps(game.initial_state(), 2)
        expected = " ".join(f"{s.kind}:{s.cell[0]}.{s.cell[1]}" for s in steps)
        assert page.get_attribute("#board", "data-animated") == expected
        assert sum(s.kind == "pick" for s in steps) == 5
        assert "5 laps" in page.inner_text("#sowing")


class TestTicTacToe:
    def test_the_same_page_plays_tictactoe_by_clicks_and_space(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """Clicking the centre marks it; Space then plays the engine's best reply."""
        open_board(page, "?game=tictactoe")
        page.click(".cell.legal[data-row='1'][data-cell='1']")
        wait_for(page, "document.querySelector('#board').dataset.position === '.../.x./...'")
        wait_for(page, "document.querySelector('#engine-stats').textContent.includes('finished')")
        best = run("analyse", "tictactoe", "-p", ".../.x./...", "--json").json()["best_move"]
        page.keyboard.press(" ")
        cells = list(".........")
        cells[4], cells[int(best)] = "x", "o"
        after = "/".join("".join(cells[r * 3 : r * 3 + 3]) for r in range(3))
        wait_for(page, f"document.querySelector('#board').dataset.position === {after!r}")


class TestAnalysis:
    def read_values(self, page: Any) -> dict[str, Any]:
        """The move table as shown, with the depth and position it belongs to (read at once)."""
        return dict(
            page.evaluate(
                """() => {
                const table = document.querySelector('#move-values');
                const rows = [...table.querySelectorAll('tbody tr')].map(
                    tr => [tr.dataset.move, tr.children[1].textContent]);
                return {depth: table.dataset.depth, position: table.dataset.position, rows};
            }"""
            )
        )

    def test_values_shown_equal_analyse_json(self, page: Any, run: Callable[..., Run]) -> None:
        """Every move's value shown at a depth is the value ``analyse --json`` gives there."""
        open_board(page, "?game=ayoayo&position=" + MIDGAME.replace(" ", "%20"))
        wait_for(page, "Number(document.querySelector('#move-values').dataset.depth) >= 6")
        shown = self.read_values(page)
        assert shown["position"] == MIDGAME
        cli = run("analyse", "ayoayo", "-p", MIDGAME, "--depth", shown["depth"], "--json").json()
        expected = {m["move"]: m["value"] for m in cli["moves"]}
        for move, text in shown["rows"]:
            assert text == signed(expected[move])

    def test_an_exact_answer_is_marked_with_its_distance(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """A solved tic-tac-toe position says exact, with the plies of each move."""
        open_board(page, "?game=tictactoe&position=x.o/.x./...")
        wait_for(page, "document.querySelector('#engine-stats').textContent.includes('finished')")
        cli = run("analyse", "tictactoe", "-p", "x.o/.x./...", "--json").json()
        assert "exact" in page.inner_text("#engine-summary")
        assert cli["outcome"] in page.inner_text("#engine-summary")
        rows = page.locator("#move-values tbody tr")
        for m in cli["moves"]:
            row = page.locator(f"#move-values tbody tr[data-move='{m['move']}']")
            assert f"{m['plies']} plies" in row.inner_text()
            shown = row.locator("td.line .pvmove").all_inner_texts()
            assert shown == [step["move"] for step in m["line"]], m
        assert rows.count() == len(cli["moves"])

    def test_a_moves_line_previews_when_clicked(self, page: Any) -> None:
        """Clicking the second move of a non-best move's line previews the board after it."""
        open_board(page, "?game=tictactoe&position=x.o/.x./...")
        wait_for(page, "document.querySelector('#engine-stats').textContent.includes('finished')")
        row = page.locator("#move-values tbody tr:not(.best)").first
        steps = row.locator("td.line .pvmove")
        assert steps.count() >= 2
        steps.nth(1).click()
        wait_for(page, "!document.querySelector('#preview-bar').hidden")


class TestTablebaseAnswers:
    def test_a_covered_position_says_how_each_result_is_reached(
        self, tablebase_page: Any, run: Callable[..., Run], tablebase_dir: Path
    ) -> None:
        """Read from the tablebase: each move's plies or endless play, the line's end, no stats."""
        position = "[[2,1,0,0,1,1],[1,0,1,0,0,1]] captured 16,24 to-move 0"
        open_board(tablebase_page, f"?game=ayoayo&position={position}")
        stats = "document.querySelector('#engine-stats').textContent"
        wait_for(tablebase_page, f"{stats}.includes('tablebase')")
        cli = run(
            "analyse", "ayoayo", "-p", position, "--tablebase-dir", str(tablebase_dir), "--json"
        ).json()
        assert cli["source"] == "oracle"
        summary = tablebase_page.inner_text("#engine-summary")
        assert "exact (tablebase)" in summary and cli["outcome"] in summary
        assert cli["pv_end"]["text"] in tablebase_page.inner_text("#pv")
        for m in cli["moves"]:
            row = tablebase_page.locator(f"#move-values tbody tr[data-move='{m['move']}']")
            said = "by endless play" if m["endless"] else f"{m['plies']} plies"
            assert said in row.inner_text(), (m, row.inner_text())


class TestPositionBox:
    def test_a_bad_position_shows_the_command_lines_message(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """A board of 44 seeds is refused with the message ``analyse`` prints."""
        bad = "[[4,4,4,4,4,4],[4,4,4,4,4,0]]"
        open_board(page)
        page.refusals = 1
        page.click("#position-box summary")
        page.fill("#position-text", bad)
        page.click("#position-load")
        page.wait_for_function("document.querySelector('#position-error').textContent !== ''")
        message = run("analyse", "ayoayo", "-p", bad).err.split("error: ", 1)[1].strip()
        assert page.inner_text("#position-error") == message

    def test_a_good_position_opens_and_goes_into_the_link(self, page: Any) -> None:
        """A typed position is drawn and the page's address can reopen it."""
        open_board(page)
        page.click("#position-box summary")
        page.fill("#position-text", MIDGAME)
        page.click("#position-load")
        page.wait_for_function(f"document.querySelector('#board').dataset.position === {MIDGAME!r}")
        assert page.locator(".pit[data-row='1'][data-cell='5']").get_attribute("data-count") == "7"
        link = page.url
        open_board(page, link.split("/", 3)[3])
        assert shown_position(page) == MIDGAME


class TestScreenshots:
    @pytest.mark.parametrize(
        ("name", "width", "height"), [("desktop", 1280, 820), ("phone", 390, 844)]
    )
    def test_screenshots_at_desktop_and_phone_widths(
        self, page: Any, tmp_path: Path, name: str, width: int, height: int
    ) -> None:
        """The board after a few moves, analysed, fits the width (no sideways scrolling)."""
        page.set_viewport_size({"width": width, "height": height})
        open_board(page)
        for cell in (2, 4):
            click_pit(page, cell)
        wait_for(page, "Number(document.querySelector('#move-values').dataset.depth) >= 8")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        time.sleep(0.3)
        assert keep_screenshot(page, tmp_path, f"board-{name}.png", full_page=name == "phone")

    def test_a_phone_gets_the_narrow_board_with_large_pits(self, page: Any) -> None:
        """At a phone's width the stores go above and below the rows, so each pit is drawn
        at least 45 px across (a fingertip), and pits still play; turning it back widens it."""
        page.set_viewport_size({"width": 390, "height": 844})
        open_board(page)
        assert page.get_attribute("#board", "data-layout") == "narrow"
        hole = page.locator(".pit[data-row='0'][data-cell='2'] circle.hole").bounding_box()
        assert hole is not None and hole["width"] >= 45, hole
        click_pit(page, 2)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1280, "height": 820})
        wait_for(page, "document.querySelector('#board').dataset.layout === 'wide'")


class TestRecords:
    def test_export_then_import_gives_the_same_game(self, page: Any) -> None:
        """A played line exported as a record and imported again shows the same moves."""
        game = Ayoayo()
        open_board(page)
        played, states = play_line(page, (2, 4, 1))
        page.click("#record-box summary")
        page.click("#record-export")
        wait_for(page, "document.querySelector('#record-text').value.includes('3. ')")
        record = page.input_value("#record-text")
        moves = "\n".join(f"{i + 1}. {cell}" for i, cell in enumerate(played))
        assert "game: ayoayo" in record and moves in record
        open_board(page)  # the same game, kept by the browser
        page.click("#record-box summary")
        page.fill("#record-text", record.replace(f"3. {played[2]}", f"3. {played[2]}  # a note"))
        page.click("#record-import")
        wait_for(
            page,
            "(document.querySelector(\"#movelist .mv[data-node='3']\") || {}).title"
            "?.includes('a note')",
        )
        assert page.locator("#movelist .mv").count() == 4
        page.keyboard.press("End")
        assert shown_position(page) == game.format_state(states[-1])
        assert "a note" in str(page.get_attribute("#movelist .mv[data-node='3']", "title"))

    def test_variations_are_imported_shown_and_exported(self, page: Any) -> None:
        """A record with a variation shows it in the move list, and exporting gives it back;
        a variation played on the page is exported too."""
        record = "game: tictactoe\n1. 4\n2. 0\n  (2. 1  # an edge\n   3. 0)\n3. 8\n"
        open_board(page, "?game=tictactoe")
        page.click("#record-box summary")
        page.fill("#record-text", record)
        page.click("#record-import")
        wait_for(page, "document.querySelectorAll('#movelist .variation').length === 1")
        assert "an edge" in str(page.get_attribute("#movelist .variation .mv", "title"))
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")  # before 3. 8: play 2 instead, a new variation
        page.click(".cell.legal[data-row='0'][data-cell='2']")
        wait_for(page, "document.querySelectorAll('#movelist .variation').length === 2")
        page.click("#record-export")
        wait_for(page, "document.querySelector('#record-text').value.includes('(3. 2)')")
        exported = parse_record(page.input_value("#record-text"))
        assert exported.moves == ("4", "0", "8")
        assert [v.moves for v in exported.variations[1]] == [("1", "0")]
        assert exported.variations[1][0].comments == {0: "an edge"}
        assert [v.moves for v in exported.variations[2]] == [("2",)]

    def test_a_bad_record_is_refused_with_its_line(self, page: Any) -> None:
        """An illegal move in an imported record is named with the legal ones."""
        open_board(page)
        page.refusals = 1
        page.click("#record-box summary")
        page.fill("#record-text", "game: ayoayo\n1. 2\n2. 7\n")
        page.click("#record-import")
        wait_for(page, "document.querySelector('#record-error').textContent !== ''")
        assert "move 2 ('7')" in page.inner_text("#record-error")

    def test_the_review_marks_moves_as_gamesolver_review_does(
        self, page: Any, tmp_path: Path, run: Callable[..., Run]
    ) -> None:
        """Reviewing on the page marks the same moves as ``gamesolver review --json``."""
        record = "game: ayoayo\n1. 2\n2. 4\n3. 0\n4. 3\n5. 5\n"
        open_board(page)
        page.click("#record-box summary")
        page.fill("#record-text", record)
        page.click("#record-import")
        wait_for(page, "document.querySelectorAll('#movelist .mv').length === 6")
        page.click("#review-run")
        wait_for(page, "document.querySelectorAll('#review-table tr').length === 6")
        shown = page.eval_on_selector_all(
            "#review-table tr[data-mark]", "rows => rows.map(r => r.dataset.mark)"
        )
        path = tmp_path / "game.txt"
        path.write_text(record)
        cli = run("review", str(path), "--json").json()
        assert shown == [m["mark"] for m in cli["moves"]]
        assert page.locator("#movelist .mark").count() == sum(bool(m["mark"]) for m in cli["moves"])
        page.click("#movelist .mv[data-node='5']")
        assert keep_screenshot(page, tmp_path, "board-review.png", full_page=True)


class TestEditorAndComputer:
    def test_the_editor_checks_live_with_the_command_lines_message(
        self, page: Any, run: Callable[..., Run]
    ) -> None:
        """A seed taken away is refused at once with analyse's message; made up, it is valid."""
        open_board(page)
        page.refusals = 2  # 3 seeds in the pit, then 0 before the captured seeds are set
        page.click("#editor-box summary")
        page.fill("#edit-1-5", "3")
        wait_for(page, "document.querySelector('#editor-check').className === 'bad'")
        message = run("analyse", "ayoayo", "-p", "[[4,4,4,4,4,4],[4,4,4,4,4,3]]").err
        assert page.inner_text("#editor-check") in message
        page.fill("#edit-1-5", "0")
        page.fill("#edit-cap-1", "4")
        wait_for(page, "document.querySelector('#editor-check').className === 'ok'")
        page.select_option("#edit-to-move", "1")
        page.click("#editor-use")
        expected = "[[4,4,4,4,4,4],[4,4,4,4,4,0]] captured 0,4 to-move 1"
        wait_for(page, f"document.querySelector('#board').dataset.position === {expected!r}")

    def test_the_computer_answers_a_move_and_takeback_returns_to_your_turn(self, page: Any) -> None:
        """Against the beginner level, the computer replies at once; ← goes back two plies."""
        game = Ayoayo()
        open_board(page)
        page.click("#play-box summary")
        page.select_option("#computer", "1")
        page.select_option("#level", "beginner")
        click_pit(page, 2)
        wait_for(
            page,
            "document.querySelectorAll('#movelist .mv').length === 3 && !window.board.animating",
        )
        reply = page.inner_text("#movelist .mv[data-node='2']").split(".")[1]
        after = game.result(game.result(game.initial_state(), 2), int(reply))
        assert shown_position(page) == game.format_state(after)
        page.keyboard.press("ArrowLeft")
        assert shown_position(page) == game.format_state(game.initial_state())
