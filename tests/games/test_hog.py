"""Hog's exact solution against a solver written here from the rules alone, and by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from games import load_game
from games.hog import Hog
from solver.errors import CapabilityError, InvalidStateError
from solver.expectiminimax import expectiminimax, star1, star2
from solver.game import HasChance
from solver.solve import solve


def independent_win_chance(goal: int, dice: int, sides: int) -> dict[tuple[int, int], Fraction]:
    """P(the player to move wins) from (their score, the other's), by the rules in words.

    Every roll of n dice is listed (``sides ** n`` of them), not built up die by die as the game
    does; the recursion is over the mover's side (negamax form), not MAX/MIN states.
    """

    def points(roll: tuple[int, ...]) -> int:
        return 1 if 1 in roll else sum(roll)

    @cache
    def win(mine: int, theirs: int) -> Fraction:
        best = Fraction(0)
        for n in range(1, dice + 1):
            rolls = list(itertools.product(range(1, sides + 1), repeat=n))
            chance = Fraction(0)
            for roll in rolls:
                score = mine + points(roll)
                chance += 1 if score >= goal else 1 - win(theirs, score)
            best = max(best, chance / len(rolls))
        return best

    return {(a, b): win(a, b) for a in range(goal) for b in range(goal)}


class TestSolution:
    @pytest.mark.parametrize(("goal", "dice", "sides"), [(2, 1, 6), (8, 2, 6), (12, 3, 4)])
    def test_every_decision_state_matches_the_independent_solver(
        self, goal: int, dice: int, sides: int
    ) -> None:
        """Each position's solved value is 2 P(player 0 wins) - 1, exactly."""
        game = Hog(goal=goal, dice=dice, sides=sides)
        solution = solve(game)
        win = independent_win_chance(goal, dice, sides)
        checked = 0
        for state, record in solution:
            score0, score1, mover, rolling = state
            if rolling or game.is_terminal(state):
                continue
            mine = win[(score0, score1)] if mover == 0 else 1 - win[(score1, score0)]
            assert record.value == 2 * mine - 1, game.format_state(state)
            checked += 1
        assert checked > goal  # the comparison really ran over many states

    def test_the_smallest_game_by_hand(self) -> None:
        """Goal 2, one six-sided die: a 1 (1/6) scores 1, else the roller wins at once.

        The second player, at 0 against 1, wins with 5/6 (anything but a 1, and a 1 lets the
        first player win). So the first wins with 5/6 + 1/6 * 1/6 = 31/36: value 2*31/36 - 1.
        """
        solution = solve(Hog(goal=2, dice=1))
        assert solution.root_value == Fraction(13, 18)
        assert solution.value((1, 0, 1, 0)) == 2 * Fraction(1, 6) - 1  # MIN to roll, at 0 vs 1

    def test_searches_agree_with_solve(self) -> None:
        """Expectiminimax, Star1 and Star2 give solve's root value on a small Hog."""
        game = Hog(goal=3, dice=2)
        want = solve(game).root_value
        full, first, second = expectiminimax(game), star1(game), star2(game)
        assert full.value == first.value == second.value == want
        assert first.stats.nodes < full.stats.nodes and second.stats.nodes < full.stats.nodes

    def test_chance_states_have_no_optimal_moves(self) -> None:
        game = Hog(goal=4, dice=2)
        solution = solve(game)
        assert solution.best_actions((0, 0, 0, 2)) == ()
        assert solution.best_actions((0, 0, 0, 0))


class TestRules:
    def test_the_points_of_a_roll(self) -> None:
        """Two dice: a 1 on either (11/36) scores 1; 2+2 (1/36) scores 4."""
        game = Hog()
        outcomes = dict(game.chance_outcomes((0, 0, 0, 2)))
        assert outcomes[1] == Fraction(11, 36) and outcomes[4] == Fraction(1, 36)
        assert sum(outcomes.values()) == 1

    def test_registered_with_chance(self) -> None:
        game = load_game("hog", goal=10)
        assert isinstance(game, HasChance) and game.goal == 10

    def test_the_engine_refuses_it(self) -> None:
        from solver.engine import search

        with pytest.raises(CapabilityError, match="chance moves"):
            search(Hog(goal=4))

    @pytest.mark.parametrize(
        ("text", "message"),
        [("1 2", "use 'SCORE0 SCORE1 MOVER'"), ("0 0 0 x9", "roll 1 to 3 dice")],
    )
    def test_bad_positions_are_named(self, text: str, message: str) -> None:
        with pytest.raises(InvalidStateError, match=message):
            Hog().parse_state(text)


class TestPlayed:
    """Games of Hog played: the program rolls the dice (seeded), agents choose the dice."""

    def test_games_end_and_replay_the_same_for_a_seed(self) -> None:
        """expectiminimax:2 against random: every game reaches the goal, every roll is one of
        the state's outcomes, and the same seed plays the same game."""
        import random

        from play import play_game

        game = load_game("hog", goal=8)
        for seed in range(10):
            record = play_game(game, ["expectiminimax:2", "random"], random.Random(seed))
            again = play_game(game, ["expectiminimax:2", "random"], random.Random(seed))
            assert record.ended == "terminal" and record.moves == again.moves
            state = game.initial_state()
            for move in record.moves:
                if game.is_chance(state):
                    assert move in [outcome for outcome, _ in game.chance_outcomes(state)]
                state = game.result(state, move)
            assert state == record.final_state
