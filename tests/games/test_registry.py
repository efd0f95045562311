"""The registry: built-ins, third-party entry points, options and errors."""

from __future__ import annotations

import sys
import types

import pytest

from games import BUILTIN_GAMES, available_games, game_info, load_game
from games.tictactoe import TicTacToe
from solver.game import GameError, UnknownGameError
from tests.games.fakes import install_entry_points


class Coin:
    """A one-move toy game: MAX calls heads or tails and wins on heads."""

    name = "coin"

    def __init__(self, bias: int = 1) -> None:
        self.bias = bias

    def initial_state(self) -> int:
        return -1

    def to_move(self, state: int) -> int:
        return 0

    def actions(self, state: int) -> list[int]:
        return [0, 1] if state < 0 else []

    def result(self, state: int, action: int) -> int:
        return action

    def is_terminal(self, state: int) -> bool:
        return state >= 0

    def utility(self, state: int) -> float:
        return self.bias if state == 0 else -1


class SeededCoin(Coin):
    """A coin game that needs its seed."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed


def not_a_game() -> object:
    """A factory returning something without the Game methods."""
    return object()


@pytest.fixture
def plugin_module(monkeypatch: pytest.MonkeyPatch) -> str:
    """An importable module ``fake_plugin`` holding Coin and not_a_game."""
    module = types.ModuleType("fake_plugin")
    module.Coin = Coin  # type: ignore[attr-defined]
    module.not_a_game = not_a_game  # type: ignore[attr-defined]
    module.SeededCoin = SeededCoin  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_plugin", module)
    return "fake_plugin"


class TestBuiltins:
    def test_available_sorted(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without plug-ins the available games are exactly the built-ins, sorted."""
        install_entry_points(monkeypatch, {})
        assert available_games() == sorted(BUILTIN_GAMES)
        assert {"ayoayo", "textbook", "tictactoe", "tictactoe-bitboard"} <= set(available_games())

    def test_our_games_are_among_whatever_is_installed(self) -> None:
        """With this environment's plug-ins, whatever they are, ours are listed, all sorted."""
        assert set(BUILTIN_GAMES) <= set(available_games())
        assert available_games() == sorted(available_games())

    def test_load_builtin(self) -> None:
        """A built-in name gives an instance of its class."""
        assert isinstance(load_game("tictactoe"), TicTacToe)

    def test_unknown_lists_choices(self) -> None:
        """An unknown name raises UnknownGameError listing the available games."""
        with pytest.raises(UnknownGameError) as caught:
            load_game("tictac")
        assert str(caught.value) == (
            f"unknown game 'tictac'; available: {', '.join(available_games())}"
        )
        assert isinstance(caught.value, LookupError)

    def test_unknown_option(self) -> None:
        """An option the game does not take names itself and the accepted ones."""
        with pytest.raises(GameError, match="game 'tictactoe' has no option 'size'; accepted"):
            load_game("tictactoe", size=4)

    def test_info_without_import(self) -> None:
        """game_info answers for built-ins from the registry table."""
        info = game_info("tictactoe-bitboard")
        assert (info.name, info.source) == ("tictactoe-bitboard", "built-in")
        assert info.summary

    def test_info_unknown(self) -> None:
        """game_info of an unknown name raises UnknownGameError."""
        with pytest.raises(UnknownGameError, match="unknown game 'go'"):
            game_info("go")


class TestEntryPoints:
    def test_third_party_listed_and_loaded(
        self, monkeypatch: pytest.MonkeyPatch, plugin_module: str
    ) -> None:
        """A game registered under gamesolver.games is listed and loads with its options."""
        install_entry_points(monkeypatch, {"coin": f"{plugin_module}:Coin"})
        assert "coin" in available_games()
        assert available_games() == sorted(available_games())
        game = load_game("coin", bias=3)
        assert isinstance(game, Coin) and game.utility(0) == 3

    def test_third_party_info(self, monkeypatch: pytest.MonkeyPatch, plugin_module: str) -> None:
        """game_info of a plug-in uses its docstring's first line and names the entry point."""
        install_entry_points(monkeypatch, {"coin": f"{plugin_module}:Coin"})
        info = game_info("coin")
        assert info.summary == "A one-move toy game: MAX calls heads or tails and wins on heads"
        assert info.source == "entry point fake_plugin:Coin"

    def test_builtin_cannot_be_shadowed(
        self, monkeypatch: pytest.MonkeyPatch, plugin_module: str
    ) -> None:
        """An entry point named like a built-in is ignored: the built-in wins."""
        install_entry_points(monkeypatch, {"tictactoe": f"{plugin_module}:Coin"})
        assert isinstance(load_game("tictactoe"), TicTacToe)
        assert available_games().count("tictactoe") == 1

    def test_broken_entry_point(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """An entry point that cannot be imported raises GameError naming it."""
        install_entry_points(monkeypatch, {"ghost": "no_such_module_here:Ghost"})
        with pytest.raises(GameError, match="game 'ghost' from entry point 'no_such_module_here"):
            load_game("ghost")

    def test_factory_must_make_a_game(
        self, monkeypatch: pytest.MonkeyPatch, plugin_module: str
    ) -> None:
        """A factory whose product lacks the Game methods is refused, listing what is missing."""
        install_entry_points(monkeypatch, {"odd": f"{plugin_module}:not_a_game"})
        with pytest.raises(GameError, match="missing initial_state, to_move, actions"):
            load_game("odd")

    def test_plugin_option_errors(
        self, monkeypatch: pytest.MonkeyPatch, plugin_module: str
    ) -> None:
        """Options of plug-ins are checked like those of built-ins."""
        install_entry_points(monkeypatch, {"coin": f"{plugin_module}:Coin"})
        with pytest.raises(GameError, match="no option 'biass'; accepted options: bias"):
            load_game("coin", biass=2)

    def test_required_option_missing(
        self, monkeypatch: pytest.MonkeyPatch, plugin_module: str
    ) -> None:
        """A factory's required option that was not given is named."""
        install_entry_points(monkeypatch, {"seeded": f"{plugin_module}:SeededCoin"})
        with pytest.raises(GameError, match="game 'seeded' needs the option"):
            load_game("seeded")
        assert load_game("seeded", seed=4).seed == 4  # type: ignore[attr-defined]
