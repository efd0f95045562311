"""``gamesolver solve`` on Ayòayò endgames, a game that cycles."""

from __future__ import annotations

from games import load_game
from solver.solve import solve

DRAWN = "[[0,1,0,0,1,0],[0,1,0,1,0,0]] captured 22,22 to-move 0"
AHEAD = "[[2,0,0,0,0,0],[0,0,1,0,0,1]] captured 20,24 to-move 1"


class TestSolveAyoayoEndgames:
    def test_json_gives_value_moves_plies_and_the_endless_marker(self, run):
        """--json carries the solver's value, optimal moves, their plies and the endless flag."""
        game = load_game("ayoayo")
        state = game.parse_state(AHEAD)
        solution = solve(game, state)
        data = run("solve", "ayoayo", "--position", AHEAD, "--json").json()
        assert data["value"] == solution.value(state) == -4
        assert data["endless"] is True and data["plies"] is None
        assert data["optimal_moves"] == [str(a) for a in solution.best_actions(state)]
        assert set(data["optimal_move_plies"]) == set(data["optimal_moves"])
        assert data["endless_states"] == solution.counts.endless > 0
        assert data["outcome"] == "Player 2 wins by 4 by endless play"

    def test_text_says_endless(self, run):
        """The text report says the value comes from endless play, move by move too."""
        out = run("solve", "ayoayo", "--position", DRAWN).out
        assert "value: 0 (draw by endless play)" in out
        assert "optimal moves: 1 (endless), 4 (endless)" in out
        assert "valued by endless play" in out

    def test_a_finite_win_gives_its_plies(self, run):
        """A win that ends gives the plies of the whole line and after each optimal move."""
        game = load_game("ayoayo")
        position = "[[0,0,0,1,0,1],[0,0,0,1,1,0]] captured 22,22 to-move 0"
        state = game.parse_state(position)
        plies = solve(game, state).plies(state)
        data = run("solve", "ayoayo", "--position", position, "--json").json()
        assert data["endless"] is False and data["plies"] == plies is not None
        assert min(p for p in data["optimal_move_plies"].values() if p is not None) == plies
