"""The documented example game (docs/examples/subtraction_game.py) works end to end.

It is imported from its file, as a reader would copy it; passes the shared conformance checks;
is found by load_game through a (faked) third-party entry point; and the teaching searches solve
it as the theory of the game says: the player to move loses exactly when the pile is a multiple
of 4 (taking 1-3, the last counter wins).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games import available_games, game_info, load_game
from solver.game import IllegalActionError, InvalidStateError, apply, parse_action
from solver.minimax import alphabeta, minimax
from solver.testing import check_game, check_state
from tests.games.fakes import install_entry_points

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "subtraction_game.py"


def import_example() -> ModuleType:
    """Import docs/examples/subtraction_game.py by path, as module ``subtraction_game``."""
    spec = importlib.util.spec_from_file_location("subtraction_game", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE_MODULE = import_example()
SubtractionGame: Any = EXAMPLE_MODULE.SubtractionGame


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example installed as a third-party game ``subtraction`` via an entry point."""
    monkeypatch.setitem(sys.modules, "subtraction_game", EXAMPLE_MODULE)
    install_entry_points(monkeypatch, {"subtraction": "subtraction_game:SubtractionGame"})


class TestConformance:
    @pytest.mark.parametrize(
        "options", [{}, {"pile": 0}, {"pile": 9, "moves": (1, 3, 4)}], ids=["21", "0", "1-3-4"]
    )
    def test_passes_the_shared_checks(self, options: dict[str, Any]) -> None:
        """The example passes the conformance suite every registered game passes."""
        check_game(SubtractionGame(**options))

    def test_every_state_of_a_small_pile(self) -> None:
        """Every state of a pile of 6, with either player to move, passes the state checks."""
        game = SubtractionGame(pile=6)
        for pile in range(7):
            for player in (0, 1):
                check_state(game, (pile, player))


class TestRules:
    def test_checked_moves(self) -> None:
        """apply refuses taking more than the pile holds, listing the legal amounts."""
        game = SubtractionGame(pile=2)
        with pytest.raises(IllegalActionError, match="legal: 1, 2"):
            apply(game, game.initial_state(), 3)
        assert parse_action(game, game.initial_state(), "2") == 2

    @pytest.mark.parametrize("text", ["21", "21 NOBODY", "x MAX", "3 MAX MIN"])
    def test_bad_position_text(self, text: str) -> None:
        """Malformed positions raise InvalidStateError with an example of the notation."""
        with pytest.raises(InvalidStateError, match=r"e\.g\. '21 MAX'"):
            SubtractionGame().parse_state(text)

    @pytest.mark.parametrize(
        "options", [{"pile": -1}, {"pile": True}, {"moves": ()}, {"moves": (0, 1)}]
    )
    def test_bad_options(self, options: dict[str, Any]) -> None:
        """Negative piles and non-positive amounts are refused."""
        with pytest.raises(InvalidStateError, match="invalid"):
            SubtractionGame(**options)


class TestRegistration:
    def test_found_through_entry_point(self, registered: None) -> None:
        """With the entry point installed, load_game finds the game and passes its options."""
        assert "subtraction" in available_games()
        game = load_game("subtraction", pile=7)
        assert isinstance(game, SubtractionGame)
        assert game.initial_state() == (7, 0)
        assert game_info("subtraction").summary.startswith("Take 1..3 counters")

    def test_not_found_without_it(self) -> None:
        """Without the entry point the registry does not know the game."""
        assert "subtraction" not in available_games()


class TestSolved:
    @pytest.mark.parametrize("pile", range(13))
    def test_multiples_of_four_lose(self, pile: int) -> None:
        """minimax values a pile as lost for the mover iff it is a multiple of 4."""
        result = minimax(SubtractionGame(pile=pile))
        assert result.value == (-1 if pile % 4 == 0 else 1)
        if pile % 4:
            assert result.best_action == pile % 4

    def test_alphabeta_agrees_through_registry(self, registered: None) -> None:
        """alpha-beta on the registered game gives minimax's value and move, with fewer nodes."""
        game = load_game("subtraction", pile=13)
        plain = minimax(game)
        pruned = alphabeta(game)
        assert (pruned.value, pruned.best_action) == (plain.value, plain.best_action)
        assert pruned.stats.nodes < plain.stats.nodes
