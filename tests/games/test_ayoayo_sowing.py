"""The sowing steps the board animates (Ayòayò's ``move_steps``) match the rules move for move."""

from __future__ import annotations

import random

import pytest

from games.ayoayo import Ayoayo, relay_sow
from games.ayoayo.sowing import sowing_steps
from solver.errors import IllegalActionError


def replay(game: Ayoayo, state: tuple[int, ...], steps: list) -> tuple[list[list[int]], list[int]]:
    """The board and stores after applying ``steps`` to ``state`` as the page does."""
    board = [list(row) for row in state.board]  # type: ignore[attr-defined]
    stores = list(state.captured)  # type: ignore[attr-defined]
    for step in steps:
        row, cell = step.cell
        if step.kind == "pick":
            assert board[row][cell] == step.count
            board[row][cell] = 0
        elif step.kind == "drop":
            board[row][cell] += 1
            assert board[row][cell] == step.count
        else:
            board[row][cell] -= step.count
            assert board[row][cell] == 0
            stores[step.by] += step.count
    return board, stores


class TestSowingSteps:
    def test_random_games_replay_to_the_rules_positions(self) -> None:
        """Steps applied one by one reach the rules' next position in 200 seeded random games."""
        game, rng, relays = Ayoayo(), random.Random(15), 0
        for _ in range(200):
            state = game.initial_state()
            while not game.is_terminal(state):
                cell = rng.choice(game.actions(state))
                steps = sowing_steps(game, state, cell)
                after = game.result(state, cell)
                board, stores = replay(game, state, steps)
                assert board == [list(row) for row in after.board]
                assert tuple(stores) == after.captured
                relays += sum(step.kind == "pick" for step in steps) > 1
                state = after
        assert relays > 100

    def test_a_relay_picks_up_where_each_lap_ends(self) -> None:
        """Each lap after the first starts at the pit where the previous lap's last seed fell."""
        game = Ayoayo()
        steps = sowing_steps(game, game.initial_state(), 2)
        picks = [i for i, step in enumerate(steps) if step.kind == "pick"]
        assert len(picks) == 5
        for i in picks[1:]:
            assert steps[i - 1].kind == "drop" and steps[i - 1].cell == steps[i].cell

    def test_the_last_seeds_four_goes_to_the_mover(self) -> None:
        """A four made on the way is the row owner's; one made by the last seed the mover's."""
        game = Ayoayo()
        state = game.state_from([[0, 0, 0, 0, 3, 3], [0, 0, 0, 0, 0, 2]], (20, 20), to_move=1)
        steps = sowing_steps(game, state, 5)
        captures = [(step.cell, step.by) for step in steps if step.kind == "capture"]
        assert captures == [((0, 5), 0), ((0, 4), 1)]
        assert relay_sow(state.board, 1, 5)[1] == (4, 4)

    def test_an_illegal_cell_names_the_legal_ones(self) -> None:
        """Sowing an empty pit is refused with the legal moves in the message."""
        game = Ayoayo()
        state = game.state_from([[0, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], (4, 0))
        with pytest.raises(IllegalActionError, match="legal: 1, 2, 3, 4, 5"):
            sowing_steps(game, state, 0)
