"""Tests for the teaching searches: minimax and alpha-beta in textbook form."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_game
from solver.events import INF, Backup, Cutoff, Enter, Event, Leaf, Trace
from solver.game import CapabilityError, Game
from solver.minimax import alphabeta, minimax
from tests.tiny_games import TakeAway

FIGURE_5_2 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

Search = Callable[..., Any]


def by_node(events: Sequence[Event]) -> dict[int, list[Event]]:
    """The events of a trace grouped by node id, in order."""
    grouped: dict[int, list[Event]] = {}
    for event in events:
        grouped.setdefault(event.node, []).append(event)
    return grouped


def check_events(events: Sequence[Event], stats_nodes: int, stats_cutoffs: int) -> None:
    """Assert the trace is well formed: ids in entry order, one ending per node, prunes unseen."""
    enters = [e for e in events if isinstance(e, Enter)]
    assert [e.node for e in enters] == list(range(stats_nodes))
    entered = {e.node: e for e in enters}
    for enter in enters[1:]:
        assert enter.parent is not None and enter.parent < enter.node
        assert enter.depth == entered[enter.parent].depth + 1
    for node, node_events in by_node(events).items():
        assert isinstance(node_events[0], Enter)
        endings = [e for e in node_events if isinstance(e, (Leaf, Backup))]
        assert len(endings) == 1, f"node {node} ends {len(endings)} times"
        assert node_events[-1] is endings[0]
    cutoffs = [e for e in events if isinstance(e, Cutoff)]
    assert len(cutoffs) == stats_cutoffs
    children = {(e.parent, e.action) for e in enters}
    for cut in cutoffs:
        assert cut.pruned
        assert not any((cut.node, a) in children for a in cut.pruned)


def values_by_state(events: Sequence[Event]) -> dict[Any, tuple[float, bool, float, float]]:
    """Each entered state's final value, exact flag and entry window from a trace."""
    entered = {e.node: e for e in events if isinstance(e, Enter)}
    out: dict[Any, tuple[float, bool, float, float]] = {}
    for e in events:
        if isinstance(e, (Leaf, Backup)):
            enter = entered[e.node]
            exact = e.exact if isinstance(e, Backup) else True
            out[enter.state] = (e.value, exact, enter.alpha, enter.beta)
    return out


class TestTextbookFigure:
    """AIMA Figure 5.2 under minimax (Fig. 5.3) and alpha-beta (Figs. 5.5 and 5.7)."""

    def test_minimax_value_and_move(self) -> None:
        """Minimax backs up 3 from the leftmost MIN node and chooses action 0."""
        result = minimax(load_game("textbook", tree=FIGURE_5_2))
        assert (result.value, result.best_action, result.pv) == (3, 0, (0, 0))
        assert dict(result.action_values) == {0: 3, 1: 2, 2: 2}
        assert result.best_actions == (0,)
        assert result.exact and result.plies == 2 and result.depth is None

    def test_minimax_visits_every_node(self) -> None:
        """Minimax enters all 13 nodes and evaluates all 9 leaves, never cutting."""
        result = minimax(load_game("textbook", tree=FIGURE_5_2))
        assert (result.stats.nodes, result.stats.leaves, result.stats.cutoffs) == (13, 9, 0)

    def test_alphabeta_value_and_move(self) -> None:
        """Alpha-beta finds the same value 3 and action 0 as minimax."""
        result = alphabeta(load_game("textbook", tree=FIGURE_5_2))
        assert (result.value, result.best_action, result.pv) == (3, 0, (0, 0))

    def test_alphabeta_prunes_the_leaves_after_two(self) -> None:
        """After the leaf 2 under C, alpha-beta cuts (2 <= alpha 3) and never enters 4 and 6."""
        trace = Trace()
        result = alphabeta(load_game("textbook", tree=FIGURE_5_2), observer=trace)
        enters = [e for e in trace.events if isinstance(e, Enter)]
        cutoffs = [e for e in trace.events if isinstance(e, Cutoff)]
        assert len(cutoffs) == 1
        cut = cutoffs[0]
        node_c = next(e for e in enters if e.state == (1,))
        assert (cut.node, cut.player, cut.value, cut.alpha, cut.pruned) == (
            node_c.node,
            1,
            2,
            3,
            (1, 2),
        )
        assert cut.inequality == "v=2 ≤ α=3"
        entered = {e.state for e in enters}
        assert (1, 1) not in entered and (1, 2) not in entered
        leaves = [e.value for e in trace.events if isinstance(e, Leaf)]
        assert leaves == [3, 12, 8, 2, 14, 5, 2]
        assert (result.stats.nodes, result.stats.leaves, result.stats.cutoffs) == (11, 7, 1)

    def test_alphabeta_reports_only_exact_root_values(self) -> None:
        """C's value 2 is only an upper bound, so it is left out; D was searched to its end."""
        result = alphabeta(load_game("textbook", tree=FIGURE_5_2))
        assert dict(result.action_values) == {0: 3, 2: 2}
        assert result.best_actions == ()

    def test_alphabeta_windows_on_entry_and_exit(self) -> None:
        """Each MIN node is entered with the alpha its elder siblings set; the root exits at 3."""
        trace = Trace()
        alphabeta(load_game("textbook", tree=FIGURE_5_2), observer=trace)
        enters = {e.state: e for e in trace.events if isinstance(e, Enter)}
        assert [(enters[(i,)].alpha, enters[(i,)].beta) for i in range(3)] == [
            (-INF, INF),
            (3, INF),
            (3, INF),
        ]
        state_of = {e.node: state for state, e in enters.items()}
        backups = {state_of[e.node]: e for e in trace.events if isinstance(e, Backup)}
        assert (backups[()].alpha, backups[()].beta, backups[()].exact) == (3, INF, True)
        assert (backups[(1,)].value, backups[(1,)].beta, backups[(1,)].exact) == (2, 2, False)
        assert (backups[(2,)].value, backups[(2,)].exact) == (2, True)

    def test_minimax_windows_stay_infinite(self) -> None:
        """Plain minimax enters every node with the window (-inf, +inf) and reports no cut."""
        trace = Trace()
        minimax(load_game("textbook", tree=FIGURE_5_2), observer=trace)
        assert all((e.alpha, e.beta) == (-INF, INF) for e in trace.events if isinstance(e, Enter))
        assert not any(isinstance(e, Cutoff) for e in trace.events)
        assert all(e.exact for e in trace.events if isinstance(e, Backup))


class TestTicTacToe:
    """The known facts of tic-tac-toe from the empty board."""

    @pytest.mark.slow
    def test_minimax_visits_the_whole_tree(self) -> None:
        """Plain minimax enters 549,946 nodes and finds the draw."""
        result = minimax(load_game("tictactoe"))
        assert result.stats.nodes == 549_946
        assert result.value == 0 and result.exact and result.plies == 9
        assert dict(result.action_values) == {cell: 0 for cell in range(9)}
        assert result.best_actions == tuple(range(9))

    def test_alphabeta_agrees_with_fewer_nodes(self) -> None:
        """Alpha-beta also finds the draw, with the same move and line, in far fewer nodes."""
        game = load_game("tictactoe")
        pruned = alphabeta(game)
        assert pruned.value == 0
        assert pruned.stats.nodes < 549_946 // 10
        assert pruned.stats.cutoffs > 0

    def test_only_the_block_holds_the_draw(self) -> None:
        """X threatens the diagonal: O's block on cell 8 draws and every other move loses."""
        game = load_game("tictactoe")
        state = game.parse_state("x.o/.x./...")
        plain, pruned = minimax(game, state), alphabeta(game, state)
        assert plain.value == pruned.value == 0
        assert plain.best_actions == (8,)
        assert all(v == 1 for a, v in plain.action_values.items() if a != 8)
        assert (plain.best_action, plain.pv) == (pruned.best_action, pruned.pv)
        assert pruned.stats.nodes < plain.stats.nodes


class TestHorizon:
    """Depth limits, the evaluation function at the horizon, and the error without one."""

    def test_depth_one_uses_the_game_evaluation(self) -> None:
        """At depth 1 the MIN nodes are valued by the textbook game's leaf means."""
        game = load_game("textbook", tree=FIGURE_5_2)
        for search in (minimax, alphabeta):
            result = search(game, depth=1)
            assert result.value == pytest.approx(23 / 3)
            assert (result.best_action, result.pv, result.depth) == (0, (0,), 1)
            assert not result.exact and result.plies is None

    def test_given_evaluation_wins_over_the_games(self) -> None:
        """An ``evaluate=`` argument replaces the game's own evaluation."""
        game = load_game("textbook", tree=FIGURE_5_2)
        result = minimax(game, depth=1, evaluate=lambda state: -10 * state[0])
        assert (result.value, result.best_action) == (0, 0)
        assert dict(result.action_values) == {0: 0, 1: -10, 2: -20}

    def test_depth_zero_evaluates_the_root(self) -> None:
        """With depth 0 the root itself is the horizon: no move, no line."""
        game = load_game("textbook", tree=FIGURE_5_2)
        result = alphabeta(game, depth=0, evaluate=lambda state: 42)
        assert (result.value, result.best_action, result.pv) == (42, None, ())
        assert result.stats.nodes == 1 and result.stats.leaves == 1

    def test_terminal_states_inside_the_horizon_stay_exact(self) -> None:
        """A depth beyond the end of the game uses no evaluation, so the answer is exact."""
        result = minimax(TakeAway(3), depth=10)
        assert result.exact and result.plies == len(result.pv)

    def test_horizon_without_evaluation_raises(self) -> None:
        """A game without evaluate reaching its horizon gets a CapabilityError naming the fix."""
        for search in (minimax, alphabeta):
            with pytest.raises(CapabilityError, match=r"'takeaway'.*evaluate=.*depth of None"):
                search(TakeAway(5), depth=2)

    def test_negative_depth_is_rejected(self) -> None:
        """A negative depth is a clear ValueError quoting it."""
        with pytest.raises(ValueError, match="invalid depth -1"):
            minimax(TakeAway(3), depth=-1)

    def test_options_are_keyword_only(self) -> None:
        """A depth or evaluation passed by position is a TypeError, never silently misread."""
        game = TakeAway(3)
        for search in (minimax, alphabeta):
            with pytest.raises(TypeError, match="positional"):
                search(game, game.initial_state(), 2)  # type: ignore[call-arg]

    def test_take_away_values(self) -> None:
        """Multiples of three lose for the mover: 3 counters lose for MAX, 5 win."""
        assert minimax(TakeAway(3)).value == -1
        win = minimax(TakeAway(5))
        assert (win.value, win.best_action) == (1, 2)


class TestTies:
    """Ties go to the first best action in actions order."""

    @pytest.mark.parametrize("search", [minimax, alphabeta])
    def test_max_takes_the_first_best(self, search: Search) -> None:
        """Equal values at MAX: the first action wins."""
        result = search(load_game("textbook", tree=[[1, 5], [1, 7], [0]]))
        assert (result.value, result.best_action) == (1, 0)

    @pytest.mark.parametrize("search", [minimax, alphabeta])
    def test_min_takes_the_first_best(self, search: Search) -> None:
        """Equal values at MIN: the first action wins."""
        result = search(load_game("textbook", tree=[[[4], [9, 4], [4]]]))
        assert result.pv == (0, 0, 0)


class TestObserver:
    """The event trace is complete and the search gives the same answer without it."""

    @pytest.mark.parametrize("search", [minimax, alphabeta])
    def test_trace_is_well_formed(self, search: Search) -> None:
        """Every node is entered once in id order and ends with one Leaf or Backup."""
        game, trace = load_game("tictactoe"), Trace()
        result = search(game, game.parse_state("x.o/.x./..."), observer=trace)
        check_events(trace.events, result.stats.nodes, result.stats.cutoffs)
        leaves = sum(isinstance(e, Leaf) for e in trace.events)
        assert leaves == result.stats.leaves

    def test_answer_does_not_depend_on_the_observer(self) -> None:
        """With and without an observer the results agree, statistics included."""
        game = load_game("textbook", tree=FIGURE_5_2)
        for search in (minimax, alphabeta):
            quiet, traced = search(game), search(game, observer=Trace())
            assert (quiet.value, quiet.pv, quiet.stats.nodes, quiet.stats.cutoffs) == (
                traced.value,
                traced.pv,
                traced.stats.nodes,
                traced.stats.cutoffs,
            )

    def test_backup_names_the_best_action(self) -> None:
        """The root's Backup carries the chosen action and the final value."""
        trace = Trace()
        minimax(load_game("textbook", tree=FIGURE_5_2), observer=trace)
        root = [e for e in trace.events if isinstance(e, Backup) and e.node == 0]
        assert len(root) == 1 and (root[0].value, root[0].best_action) == (3, 0)


# -- random textbook trees ---------------------------------------------------------------------


@st.composite
def trees(draw: st.DrawFn, height: int | None = None) -> Any:
    """A ragged nested list of small ints, 1 to 4 levels deep, 1 to 4 children per node."""
    if height is None:
        height = draw(st.integers(1, 4))
    width = draw(st.integers(1, 4))
    children = []
    for _ in range(width):
        if height == 1 or draw(st.integers(0, 3)) == 0:
            children.append(draw(st.integers(-9, 9)))
        else:
            children.append(draw(trees(height=height - 1)))
    return children


def tree_height(tree: Any) -> int:
    return 1 + max(map(tree_height, tree)) if isinstance(tree, list) else 0


def remaining_minimax(game: Game[Any, Any], state: Any, depth: int | None, evaluate: Any) -> float:
    """The minimax value of ``state`` searched ``depth`` plies deep (None: to the end)."""
    return minimax(game, state, depth=depth, evaluate=evaluate).value


class TestRandomTrees:
    """On random textbook trees alpha-beta agrees with minimax at every depth limit."""

    @settings(max_examples=150, deadline=None)
    @given(tree=trees(), zero=st.booleans())
    def test_alphabeta_equals_minimax(self, tree: Any, zero: bool) -> None:
        """Same value, move and line, never more nodes, with a consistent event trace."""
        game = load_game("textbook", tree=tree)
        evaluate = (lambda state: 0) if zero else None
        full = minimax(game)
        for depth in [*range(tree_height(tree) + 2), None]:
            plain = minimax(game, depth=depth, evaluate=evaluate)
            trace = Trace()
            pruned = alphabeta(game, depth=depth, evaluate=evaluate, observer=trace)
            assert pruned.value == plain.value
            assert (pruned.best_action, pruned.pv) == (plain.best_action, plain.pv)
            # Pruning may skip every horizon node, so alpha-beta can be exact where minimax is not.
            assert pruned.exact >= plain.exact
            if pruned.exact:
                assert pruned.value == full.value
            assert pruned.stats.nodes <= plain.stats.nodes
            for action, value in pruned.action_values.items():
                assert plain.action_values[action] == value
            check_events(trace.events, pruned.stats.nodes, pruned.stats.cutoffs)

    @settings(max_examples=100, deadline=None)
    @given(tree=trees())
    def test_exact_flags_and_bounds_are_sound(self, tree: Any) -> None:
        """An exact value is the node's minimax value; any other lies outside its entry window."""
        game = load_game("textbook", tree=tree)
        for depth in [*range(tree_height(tree) + 1), None]:
            trace = Trace()
            alphabeta(game, depth=depth, observer=trace)
            for state, (value, exact, alpha, beta) in values_by_state(trace.events).items():
                left = None if depth is None else depth - len(state)
                true = remaining_minimax(game, state, left, None)
                if exact:
                    assert value == true
                elif value <= alpha:
                    assert true <= value  # failed low: an upper bound
                else:
                    assert value >= beta and true >= value  # failed high: a lower bound

    @settings(max_examples=100, deadline=None)
    @given(tree=trees())
    def test_minimax_matches_a_direct_recursion(self, tree: Any) -> None:
        """Minimax's value equals the max/min of the nested lists computed directly."""

        def direct(node: Any, maximize: bool) -> float:
            if not isinstance(node, list):
                return float(node)
            values = [direct(child, not maximize) for child in node]
            return max(values) if maximize else min(values)

        result = minimax(load_game("textbook", tree=tree))
        assert math.isclose(result.value, direct(tree, True))
        assert result.stats.nodes == count_nodes(tree)


def count_nodes(tree: Any) -> int:
    return 1 + sum(map(count_nodes, tree)) if isinstance(tree, list) else 1
