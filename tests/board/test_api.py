"""The board's JSON API and analysis stream, through Starlette's test client."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from games.ayoayo import Ayoayo
from tests.board.conftest import LocalClient
from tests.cli.conftest import Run
from zerosum.board.app import MAX_BODY, BoardConfig, create_app

MIDGAME = "[[2,6,6,1,1,7],[0,2,7,2,7,7]] captured 0,0 to-move 1"
ENDGAME = "[[0,0,0,0,1,1],[1,0,0,0,0,1]] captured 24,20 to-move 1"
JSON = {"content-type": "application/json"}


def without_timing(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer without its clock readings (the rest is deterministic)."""
    return {key: value for key, value in answer.items() if key not in ("stats", "time_limit")}


class TestPositions:
    def test_the_start_of_ayoayo_is_drawn_as_pits(self, client: TestClient) -> None:
        """The default game's start: two rows of four, player 0 to move, every cell legal."""
        view = client.post("/api/position", json={"game": "ayoayo"}).json()
        assert view["view"] == "pits" and view["rows"] == [[4] * 6, [4] * 6]
        assert view["to_move"] == 0 and view["score"] == [0, 0]
        assert [m["cell"] for m in view["moves"]] == [[0, c] for c in range(6)]

    def test_a_position_is_read_in_the_command_lines_notation(self, client: TestClient) -> None:
        """The position text comes back in the game's own format, with its side to move."""
        view = client.post("/api/position", json={"game": "ayoayo", "position": MIDGAME}).json()
        assert view["position"] == MIDGAME and view["to_move"] == 1

    def test_tictactoe_moves_are_the_cells_they_fill(self, client: TestClient) -> None:
        """A grid game's legal moves are placed on the cell each one changes."""
        view = client.post("/api/position", json={"game": "tictactoe", "position": "x.o/.x./..."})
        assert {m["move"]: m["cell"] for m in view.json()["moves"]}["8"] == [2, 2]

    def test_the_games_list_says_how_each_is_drawn(self, client: TestClient) -> None:
        """Every registered game is offered, with the view the page uses for it."""
        listed = {g["name"]: g["view"] for g in client.get("/api/games").json()["games"]}
        assert listed["ayoayo"] == "pits" and listed["tictactoe"] == "grid"


class TestPlay:
    def test_a_move_gives_the_rules_position_and_its_sowing(self, client: TestClient) -> None:
        """Playing cell 2 at the start answers the rules' child and the traced steps."""
        played = client.post("/api/play", json={"game": "ayoayo", "move": "2"}).json()
        game = Ayoayo()
        after = game.result(game.initial_state(), 2)
        assert played["position"]["position"] == game.format_state(after)
        expected = [s.to_json() for s in game.move_steps(game.initial_state(), 2)]
        assert played["steps"] == expected

    def test_an_illegal_move_is_refused_with_the_legal_ones(self, client: TestClient) -> None:
        """An empty pit is a 400 whose message lists the legal cells."""
        position = "[[0,4,4,4,4,4],[4,4,4,4,4,4]] captured 4,0 to-move 0"
        answer = client.post("/api/play", json={"position": position, "move": "0"})
        assert answer.status_code == 400
        assert "legal: 1, 2, 3, 4, 5" in answer.json()["error"]


class TestAnalyse:
    def test_the_answer_is_what_analyse_json_prints(
        self, client: TestClient, run: Callable[..., Run]
    ) -> None:
        """At a fixed depth the API and ``analyse --json`` agree on everything but the clock."""
        api = client.post("/api/analyse", json={"position": MIDGAME, "depth": 7}).json()
        cli = run("analyse", "ayoayo", "--position", MIDGAME, "--depth", "7", "--json").json()
        assert without_timing(api) == without_timing(cli)
        assert api["stats"]["nodes"] == cli["stats"]["nodes"]

    def test_exact_values_and_distances_match_analyse_json(
        self, client: TestClient, run: Callable[..., Run]
    ) -> None:
        """A solved tic-tac-toe position's values and plies match ``analyse --json``."""
        body = {"game": "tictactoe", "position": "x.o/.x./...", "time": 20}
        api = client.post("/api/analyse", json=body).json()
        cli = run("analyse", "tictactoe", "-p", "x.o/.x./...", "--time", "20", "--json").json()
        assert api["exact"] and api["plies"] is not None
        assert without_timing(api) == without_timing(cli)

    def test_a_tablebase_endgame_is_read_as_on_the_command_line(
        self, tablebase_dir: str, run: Callable[..., Run]
    ) -> None:
        """With a tablebase, an endgame's answer is the tablebase's, as ``analyse --json``."""
        config = BoardConfig(workers=1, tablebase_dir=tablebase_dir)
        with LocalClient(create_app(config)) as own:
            api = own.post("/api/analyse", json={"position": ENDGAME, "time": 5}).json()
        cli = run(
            "analyse", "ayoayo", "-p", ENDGAME, "--time", "5", "--json",
            "--tablebase-dir", tablebase_dir,
        ).json()  # fmt: skip
        assert api["tablebase"] and api["exact"]
        assert without_timing(api) == without_timing(cli)

    def test_a_strength_level_searches_to_its_depth(self, client: TestClient) -> None:
        """The club level is a depth-4 search; an unknown level lists the levels."""
        answer = client.post("/api/analyse", json={"level": "club"}).json()
        assert answer["depth"] == 4
        refused = client.post("/api/analyse", json={"level": "grandmaster"})
        assert refused.status_code == 400 and "levels: beginner, casual" in refused.json()["error"]

    def test_a_finished_game_answers_its_result(self, client: TestClient) -> None:
        """A finished tic-tac-toe game is answered without a search, as ``analyse`` does."""
        answer = client.post("/api/analyse", json={"game": "tictactoe", "position": "xxx/oo./..."})
        assert answer.json()["over"] is True and answer.json()["value"] == 1

    def test_a_move_back_to_an_earlier_position_ends_the_game(self, client: TestClient) -> None:
        """With the game's earlier positions, the repetition rule ends it as ``play`` does."""
        start = "[[2,0,1,0,1,0],[1,1,0,1,0,1]] captured 24,16 to-move 0"
        first = client.post("/api/play", json={"position": start, "move": "0"}).json()
        again = {"position": first["position"]["position"], "move": "0"}
        assert not client.post("/api/play", json=again).json()["position"]["over"]
        ended = client.post("/api/play", json={**again, "earlier": [start]}).json()["position"]
        assert ended["over"] and ended["ended"] == "repetition" and ended["moves"] == []
        assert ended["outcome"].startswith("Player 1 wins by 8 (a position repeated")

    @pytest.mark.parametrize(
        ("earlier", "message"),
        [("[[4]]", "invalid earlier '[[4]]'"), (["[[1]]"], "cannot read a board in '[[1]]'")],
    )
    def test_bad_earlier_positions_are_refused(
        self, client: TestClient, earlier: Any, message: str
    ) -> None:
        answer = client.post("/api/play", json={"move": "0", "earlier": earlier})
        assert answer.status_code == 400 and message in answer.json()["error"]


class TestBadRequests:
    @pytest.mark.parametrize(
        ("body", "status", "message"),
        [
            ({"game": "tictac"}, 400, "unknown game 'tictac'; available: ayoayo"),
            ({"position": "[[1]]"}, 400, "cannot read a board in '[[1]]'"),
            ({"position": "[[4,4,4,4,4,4],[4,4,4,4,4,0]]"}, 400, "make 44, not 48"),
            ({"position": 5}, 400, "invalid position 5: expected the position as text"),
            ({"depth": 2, "time": 1}, 400, "give depth or time, not both"),
            ({"depth": 0}, 400, "invalid depth 0: expected a whole number 1..64"),
            ({"time": "soon"}, 400, "invalid time 'soon'"),
        ],
    )
    def test_a_bad_analyse_request_gets_the_command_lines_message(
        self, client: TestClient, body: dict[str, Any], status: int, message: str
    ) -> None:
        """Bad games, positions and limits are 4xx JSON errors quoting the bad value."""
        answer = client.post("/api/analyse", json=body)
        assert answer.status_code == status and message in answer.json()["error"]

    def test_a_body_that_is_not_json_is_refused(self, client: TestClient) -> None:
        """A body that does not parse is a 400, not a crash."""
        answer = client.post("/api/position", content=b"{not json", headers=JSON)
        assert answer.status_code == 400 and "not JSON" in answer.json()["error"]

    def test_a_huge_body_is_refused_before_it_is_read(self, client: TestClient) -> None:
        """More than the body limit is a 413."""
        answer = client.post("/api/position", content=b"x" * (MAX_BODY + 1), headers=JSON)
        assert answer.status_code == 413

    def test_unknown_routes_and_methods_are_json_errors(self, client: TestClient) -> None:
        """A 404 and a 405 answer JSON like every other error."""
        assert client.get("/api/nothing").json() == {"error": "not found"}
        assert client.get("/api/analyse").status_code == 405

    @pytest.mark.parametrize(
        "path", ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py"]
    )
    def test_static_files_cannot_be_read_outside_the_package(
        self, client: TestClient, path: str
    ) -> None:
        """Paths climbing out of the static folder find nothing."""
        answer = client.get(path)
        assert answer.status_code == 404 and "create_app" not in answer.text

    def test_bad_requests_leave_no_traceback_in_the_log(
        self, client: TestClient, caplog: pytest.LogCaptureFixture
    ) -> None:
        """Refusing bad input logs no error."""
        with caplog.at_level(logging.WARNING):
            client.post("/api/play", json={"move": [1, 2]})
            client.post("/api/analyse", json={"game": None})
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def next_of_type(ws: Any, kinds: tuple[str, ...], position: str | None = None) -> dict[str, Any]:
    """The next stream message of one of ``kinds`` (for ``position`` when given)."""
    for _ in range(10_000):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds and (position is None or message["position"] == position):
            return message
    raise AssertionError(f"no {kinds} message")


class TestStream:
    def test_lines_come_depth_by_depth_then_done(self, client: TestClient) -> None:
        """Tic-tac-toe streams depths 1, 2, ... and finishes with an exact draw."""
        with client.websocket_connect("/api/stream") as ws:
            ws.send_json({"type": "analyse", "game": "tictactoe"})
            depths = []
            while (message := ws.receive_json())["type"] == "line":
                depths.append(message["answer"]["depth"])
            assert message["type"] == "done" and message["answer"]["exact"]
            assert depths == list(range(1, len(depths) + 1))

    def test_a_new_position_stops_the_previous_search_at_once(self, client: TestClient) -> None:
        """The pool's only worker is free for the next position within a tenth of a second."""
        pool = client.app.state.pool  # type: ignore[attr-defined]
        with client.websocket_connect("/api/stream") as ws:
            ws.send_json({"type": "analyse", "position": MIDGAME})
            next_of_type(ws, ("line",), MIDGAME)
            started = time.perf_counter()
            ws.send_json({"type": "analyse"})  # the start position: one worker, so it must wait
            next_of_type(ws, ("line",), Ayoayo().format_state(Ayoayo().initial_state()))
            assert time.perf_counter() - started < 0.3
            assert pool.busy() <= 1
        stopped = client.get("/api/status").json()["stop_ms"]
        assert stopped and stopped[-1] < 100

    def test_a_bad_message_is_an_error_message(self, client: TestClient) -> None:
        """A malformed position is answered on the stream with the command line's message."""
        with client.websocket_connect("/api/stream") as ws:
            ws.send_json({"type": "analyse", "game": "ayoayo", "position": "[[9]]"})
            assert "cannot read a board in '[[9]]'" in next_of_type(ws, ("error",))["error"]
            ws.send_text("not json")
            assert "not JSON" in next_of_type(ws, ("error",))["error"]

    def test_a_closed_page_stops_its_search(self, client: TestClient) -> None:
        """Closing the socket frees the worker within a second."""
        pool = client.app.state.pool  # type: ignore[attr-defined]
        with client.websocket_connect("/api/stream") as ws:
            ws.send_json({"type": "analyse", "position": MIDGAME})
            next_of_type(ws, ("line",), MIDGAME)
            assert pool.busy() == 1
        deadline = time.monotonic() + 1
        while pool.busy() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.busy() == 0


class TestBoundedSearches:
    def test_more_pages_than_workers_wait_their_turn(self) -> None:
        """With one worker, a second page is told to wait while the first one searches."""
        with LocalClient(create_app(BoardConfig(workers=1))) as client:
            pool = client.app.state.pool  # type: ignore[attr-defined]
            with (
                client.websocket_connect("/api/stream") as first,
                client.websocket_connect("/api/stream") as second,
            ):
                first.send_json({"type": "analyse", "position": MIDGAME})
                next_of_type(first, ("line",), MIDGAME)
                second.send_json({"type": "analyse"})
                assert next_of_type(second, ("waiting", "line"))["type"] == "waiting"
                assert pool.busy() == 1
                first.send_json({"type": "stop"})
                assert next_of_type(second, ("line",))["answer"]["depth"] == 1
