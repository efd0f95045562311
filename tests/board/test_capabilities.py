"""The board draws and plays a game by its capabilities alone: a plug-in with a score and two
rows of six cells is not taken for Ayòayò, a grid game gets its grid, Ayòayò keeps its pits."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from games import load_game
from tests.games.fakes import install_entry_points
from tests.plugin_games import TwoRows
from zerosum.board.views import describe, play_move


class TestAScoredTwoRowGameThatIsNotAyoayo:
    def test_it_is_drawn_as_its_grid_not_as_pits(self) -> None:
        """Score plus a 2x6 board is no mancala board: the view is its grid, with its score."""
        game = TwoRows()
        view = describe(game, game.initial_state())
        assert view["view"] == "grid"
        assert view["rows"] == [[""] * 6, [""] * 6]
        assert view["score"] == [0, 0]
        assert view["moves"][3] == {"move": "3", "cell": [0, 3]}

    def test_a_move_is_played_without_steps(self) -> None:
        """It shows no move step by step, so the answer has no steps; the mark lands."""
        game = TwoRows()
        played = play_move(game, game.initial_state(), "4")
        assert "steps" not in played
        assert played["position"]["rows"][0][4] == "x"
        assert played["position"]["score"] == [5, 0]
        assert played["position"]["moves"][0]["cell"] == [1, 0]

    def test_the_app_lists_and_plays_it_as_an_installed_plug_in(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Registered through its entry point, it is listed with its view and played."""
        install_entry_points(monkeypatch, {"tworows": "tests.plugin_games:TwoRows"})
        from tests.board.conftest import LocalClient
        from zerosum.board.app import BoardConfig, create_app

        with LocalClient(create_app(BoardConfig(workers=1))) as client:
            listed = {g["name"]: g["view"] for g in client.get("/api/games").json()["games"]}
            assert listed["tworows"] == "grid" and listed["ayoayo"] == "pits"
            played = client.post("/api/play", json={"game": "tworows", "move": "5"})
            assert played.status_code == 200, played.text
            assert played.json()["position"]["position"] == "000001/000000/6/0/1"


class TestAGridGame:
    def test_connect_four_of_any_size_is_its_grid(self) -> None:
        """Connect Four 5x4: four rows of five, each move the lowest empty cell of its column."""
        game = load_game("connect4", width=5, height=4)
        view = describe(game, game.initial_state())
        assert view["view"] == "grid"
        assert len(view["rows"]) == 4 and all(len(row) == 5 for row in view["rows"])
        cells = {m["move"]: m["cell"] for m in view["moves"]}
        assert cells == {str(c + 1): [3, c] for c in range(5)}


class TestAyoayoByItsCapabilities:
    def test_it_is_drawn_as_pits_with_its_sowing(self, client: TestClient) -> None:
        """Ayòayò has pits and a score and shows its sowing: pits, and the steps of a move."""
        view = client.post("/api/position", json={"game": "ayoayo"}).json()
        assert view["view"] == "pits" and view["rows"] == [[4] * 6, [4] * 6]
        played = client.post("/api/play", json={"game": "ayoayo", "move": "2"}).json()
        assert played["steps"][0] == {"kind": "pick", "row": 0, "cell": 2, "seeds": 4}


class TestAGameWithOnlyAPicture:
    def test_its_text_picture_is_sent(self) -> None:
        """Neither pits nor a grid, but a ``render``: the view lists moves under its picture."""

        class Pictured(TwoRows):
            board_cells = None  # type: ignore[assignment]

            def render(self, state: object) -> str:
                return "a picture"

        game = Pictured()
        view = describe(game, game.initial_state())
        assert view["view"] == "moves" and view["text"] == "a picture"


class TestTheGridEditorsAnswers:
    def test_cells_give_the_position_they_show(self, client: TestClient) -> None:
        """A tic-tac-toe grid sent cell by cell comes back as its position, O to move."""
        cells = [["x", "", ""], ["", "", ""], ["", "", ""]]
        view = client.post("/api/position", json={"game": "tictactoe", "cells": cells}).json()
        assert view["position"] == "x../.../..." and view["to_move"] == 1
        assert view["marks"] == ["x", "o"]

    def test_bad_cells_are_refused_naming_what_is_valid(self, client: TestClient) -> None:
        """A mark the game has not, or a game without cell editing, gets a one-line 400."""
        cells = [["q", "", ""], ["", "", ""], ["", "", ""]]
        answer = client.post("/api/position", json={"game": "tictactoe", "cells": cells})
        assert answer.status_code == 400 and "each one of '', 'x', 'o'" in answer.text
        answer = client.post("/api/position", json={"game": "ayoayo", "cells": [["4"]]})
        assert answer.status_code == 400 and "sets no position cell by cell" in answer.text


SPEC = "connect4 width=5 height=4"


class TestOptionsOnTheBoard:
    def test_a_game_with_options_is_played_and_analysed(self, client: TestClient) -> None:
        """The page sends the game with its options; each answer is for the 5x4 board."""
        view = client.post("/api/position", json={"game": SPEC}).json()
        assert view["position"] == "...../...../...../....."
        played = client.post("/api/play", json={"game": SPEC, "move": "5", "earlier": []})
        assert played.json()["position"]["position"] == "...../...../...../....x"
        answer = client.post("/api/analyse", json={"game": SPEC, "depth": 2}).json()
        assert answer["position"] == "...../...../...../....."

    def test_a_record_keeps_its_options_both_ways(self, client: TestClient) -> None:
        """Exported with the game's options in its header, loaded back with them."""
        exported = client.post("/api/export", json={"game": SPEC, "moves": ["3", "3"]}).json()
        assert "game: connect4 width=5 height=4\n" in exported["record"]
        loaded = client.post("/api/record", json={"record": exported["record"]}).json()
        assert loaded["game"] == SPEC
        assert loaded["moves"][-1]["position"]["position"] == "...../...../..o../..x.."


class TestABrokenPlugIn:
    def test_the_games_are_listed_and_the_broken_ones_named(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A plug-in failing on import and one whose constructor raises are named with their
        errors; ours and the working plug-in are listed."""
        install_entry_points(
            monkeypatch,
            {
                "tworows": "tests.plugin_games:TwoRows",
                "refusing": "tests.plugin_games:Refusing",
                "ghost": "no_such_module_here:Ghost",
            },
        )
        from tests.board.conftest import LocalClient
        from zerosum.board.app import BoardConfig, create_app

        with LocalClient(create_app(BoardConfig(workers=1))) as client:
            answer = client.get("/api/games")
        assert answer.status_code == 200
        listed = {g["name"] for g in answer.json()["games"]}
        assert {"ayoayo", "connect4", "tworows"} <= listed and not {"ghost", "refusing"} & listed
        broken = {b["name"]: b["error"] for b in answer.json()["broken"]}
        assert "No module named 'no_such_module_here'" in broken["ghost"]
        assert broken["refusing"] == "the refusing game's data file is missing"

    def test_a_game_made_only_with_options_says_how_to_give_them(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A plug-in whose factory needs options is not 'cannot be loaded': the page is told
        which options it needs; started with them, the board lists it, options and all."""
        install_entry_points(monkeypatch, {"sizedbanks": "tests.plugin_games:SizedBanks"})
        from tests.board.conftest import LocalClient
        from zerosum.board.app import BoardConfig, create_app

        with LocalClient(create_app(BoardConfig(workers=1))) as client:
            answer = client.get("/api/games").json()
        assert answer["needs_options"] == [{"name": "sizedbanks", "options": ["seeds"]}]
        assert "sizedbanks" not in {g["name"] for g in answer["games"]}
        assert "sizedbanks" not in {b["name"] for b in answer["broken"]}
        config = BoardConfig(workers=1, game="sizedbanks seeds=3")
        with LocalClient(create_app(config)) as client:
            answer = client.get("/api/games").json()
        assert "sizedbanks" in {g["name"] for g in answer["games"]}
        assert answer["needs_options"] == [] and answer["broken"] == []
