"""The compiled route: the generic compiled node search against the Python one, on Connect Four."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import attrs
import numpy as np
import pytest

from games.connect4 import ConnectFour, SolvedPositions, alignment, compiled_rules
from solver import compiled
from solver.compiled import (
    CompiledRules,
    CompiledSearch,
    compiled_search,
    kernel,
    numba_available,
    prepare,
)
from solver.engine import search
from solver.errors import InvalidStateError
from solver.node_search import Limits
from solver.results import SearchRequest, SearchResult
from solver.solve import solve

pytestmark = pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")

GAME = ConnectFour()


class _BrokenRules(ConnectFour):
    """Connect Four whose compiled rules are replaced (to see the route's fallback)."""

    rules: CompiledRules

    def compiled_rules(self) -> CompiledRules:
        return self.rules


class _PlainRules(ConnectFour):
    """Connect Four on the kernel without the solver's extras (safe moves, the moves' scores,
    null windows): the kernel searches the very tree of the Python search."""

    def compiled_rules(self) -> CompiledRules:
        return compiled_rules(7, 6, pruned=False)


PLAIN = _PlainRules()


@pytest.fixture(scope="module", autouse=True)
def ready_kernel() -> None:
    """Connect Four's kernels, compiled once for the module (the engine uses them from then)."""
    prepare(GAME)
    prepare(PLAIN)


def positions(count: int, seed: int, least: int, most: int) -> list[int]:
    """Non-terminal positions after ``least`` to ``most`` random moves (seeded)."""
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(least, most)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state):
            found.append(state)
    return found


def replay_legally(state: int, pv: tuple[Any, ...]) -> int:
    for move in pv:
        assert move in GAME.actions(state)
        state = GAME.result(state, move)
    return state


def same_answer(fast: SearchResult, plain: SearchResult) -> None:
    assert (fast.value, set(fast.best_actions), fast.exact, fast.plies, fast.depth) == (
        plain.value,
        set(plain.best_actions),
        plain.exact,
        plain.plies,
        plain.depth,
    )


class TestSameAnswersAsThePythonSearch:
    """Under the one driver, the compiled node search answers as the Python one."""

    @pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
    def test_depth_limited_searches(self, depth: int) -> None:
        """Value, optimal moves, exactness, plies and a legal PV at depths 1-5 on 60
        positions each (300 in all), with the same node counts: the same tree."""
        for state in positions(60, seed=depth, least=0, most=30):
            fast = search(PLAIN, state, depth=depth)
            plain = search(PLAIN, state, depth=depth, native=False)
            same_answer(fast, plain)
            assert fast.stats.nodes == plain.stats.nodes
            replay_legally(state, fast.pv)

    @pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
    def test_the_solvers_extras_keep_the_answers_and_shrink_the_trees(self, depth: int) -> None:
        """With safe moves and the moves' scores the kernel answers as the Python search at
        depths 1-5 on 60 positions each (value, optimal moves, a legal PV; plies where both
        proved the value: another move order may prove a value at a smaller depth, where the
        driver then stops), in fewer nodes in all from depth 3 (the root's children are
        searched at depth 2 or more only then; below, the horizon's values must be the
        evaluation's)."""
        nodes = {"pruned": 0, "plain": 0}
        for state in positions(60, seed=depth + 20, least=0, most=30):
            fast = search(GAME, state, depth=depth)
            plain = search(GAME, state, depth=depth, native=False)
            assert (fast.value, set(fast.best_actions)) == (plain.value, set(plain.best_actions))
            if fast.exact and plain.exact:
                assert fast.plies == plain.plies
            replay_legally(state, fast.pv)
            nodes["pruned"] += fast.stats.nodes
            nodes["plain"] += plain.stats.nodes
        assert nodes["pruned"] < nodes["plain"] if depth >= 3 else nodes["pruned"] == nodes["plain"]

    def test_searches_to_the_end(self) -> None:
        """Late positions searched to the end: exact, the same value, plies and moves, and
        the PV a legal line to the end with that value."""
        for state in positions(30, seed=9, least=30, most=36):
            fast = search(GAME, state)
            plain = search(GAME, state, native=False)
            same_answer(fast, plain)
            assert fast.exact
            end = replay_legally(state, fast.pv)
            assert GAME.is_terminal(end) and GAME.utility(end) == fast.value

    def test_every_moves_value_for_an_analysis(self) -> None:
        """all_values with a time limit: the depth reached may differ, the values at a fixed
        depth do not."""
        for state in positions(20, seed=4, least=4, most=20):
            fast = search(GAME, state, depth=4, all_values=True)
            plain = search(GAME, state, depth=4, all_values=True, native=False)
            assert dict(fast.action_values) == dict(plain.action_values)
            assert fast.horizon_actions == plain.horizon_actions

    def test_a_forced_win_is_proved_with_its_distance(self) -> None:
        """'4455': X wins in 3 plies, proved at depth 3 by the kernel too."""
        result = search(GAME, GAME.parse_state("4455"), depth=3)
        assert (result.value, result.exact, result.plies) == (1, True, 3)


def full_answer(result: SearchResult) -> tuple[Any, ...]:
    return (
        result.value,
        result.best_actions,
        result.best_action,
        result.exact,
        result.plies,
        result.pv,
        dict(result.action_values),
        dict(result.action_plies),
        result.horizon_actions,
        result.depth,
        result.complete,
    )


class TestTheRootInOneKernelEntry:
    """The root's moves searched in one kernel entry, and the principal variation found in
    another, answer as the driver's own loops."""

    @pytest.mark.parametrize(
        ("all_values", "plies"), [(False, False), (True, False), (False, True)]
    )
    def test_the_same_answers_and_trees_as_the_drivers_loop(
        self, all_values: bool, plies: bool, monkeypatch: Any
    ) -> None:
        """Depths 3-6 and searches to the end (scored and not, values only and with plies),
        every field of the answer (the PV too) and the node count equal to the loops calling
        the kernel once a move."""
        scored = ConnectFour(scored=True)
        cases = [(GAME, s, 3 + i % 4) for i, s in enumerate(positions(16, 31, 0, 24))]
        cases += [(g, s, None) for g in (GAME, scored) for s in positions(4, 32, 27, 32)]
        if not plies:  # a plies pass from 22-26 stones takes seconds
            cases += [(g, s, None) for g in (GAME, scored) for s in positions(4, 34, 22, 26)]
        answers = []
        for game, state, depth in cases:
            answers.append(search(game, state, depth=depth, all_values=all_values, plies=plies))
        monkeypatch.setattr(CompiledSearch, "root_values", None)  # the driver's loops then
        monkeypatch.setattr(CompiledSearch, "proved_line", None)
        for (game, state, depth), fast in zip(cases, answers, strict=True):
            loop = search(game, state, depth=depth, all_values=all_values, plies=plies)
            assert full_answer(fast) == full_answer(loop)
            assert fast.stats.nodes == loop.stats.nodes

    def test_an_entry_stopped_by_its_budget_resumes_with_the_same_answer(
        self, monkeypatch: Any
    ) -> None:
        """A node budget of 64 stops the root's entry inside a move's search; called again it
        goes on from that move, and the answers are those of an unbroken search."""
        states = positions(6, 33, 8, 16)
        unbroken = [search(GAME, s, depth=7) for s in states]
        calls = []
        rules = GAME.compiled_rules()
        found = kernel(rules)
        assert found is not None

        def counted(*args: Any) -> Any:
            calls.append(args[8].copy())  # where the entry is (move, phase) when called
            return found.root_moves(*args)

        monkeypatch.setitem(compiled._KERNELS, rules, attrs.evolve(found, root_moves=counted))
        monkeypatch.setattr(compiled, "KERNEL_CHECK_NODES", 64)
        for state, whole in zip(states, unbroken, strict=True):
            resumed = search(GAME, state, depth=7)
            assert full_answer(resumed)[:-1] == full_answer(whole)[:-1]
        assert any(at[0] > 0 or at[1] > 0 for at in calls), "no entry resumed after a move"

    def test_a_line_stopped_by_its_budget_resumes_with_the_same_line(
        self, monkeypatch: Any
    ) -> None:
        """A node budget of 200 stops the kernel's principal variation inside a step's search;
        called again it goes on from that step, and the line is the unbroken search's."""
        scored = ConnectFour(scored=True)
        states = positions(6, 35, 14, 18)  # lines whose steps search tens of thousands of nodes
        unbroken = [search(scored, s, plies=False) for s in states]
        calls = []
        rules = scored.compiled_rules()
        found = kernel(rules)
        assert found is not None

        def counted(*args: Any) -> Any:
            calls.append(args[6].copy())  # where the line is (plies found, move) when called
            st = args[12]
            st[compiled.STOP_AT] = st[compiled.NODES] + 200  # a budget of 200 nodes each time
            return found.proved_line(*args)

        monkeypatch.setitem(compiled._KERNELS, rules, attrs.evolve(found, proved_line=counted))
        for state, whole in zip(states, unbroken, strict=True):
            resumed = search(scored, state, plies=False)
            assert full_answer(resumed) == full_answer(whole)
        assert any(at[0] > 0 for at in calls), "no line resumed after a step"


class TestTheKernelsRules:
    @pytest.mark.parametrize("scored", [False, True])
    def test_compiled_rules_are_the_games_rules(self, scored: bool) -> None:
        """moves, play, to_move, utility and evaluate over arrays equal the methods, move by
        move on random games (with +-1 utilities and with scores)."""
        rules = compiled_rules(7, 6, scored)
        game = ConnectFour(scored=scored)
        rng = random.Random(3)
        out = np.zeros(rules.move_limit, np.int64)
        child = np.zeros(rules.words, np.int64)
        for _ in range(30):
            state = GAME.initial_state()
            while True:
                s = rules.encode(state)
                n = rules.moves(s, out)
                assert list(out[:n]) == list(GAME.actions(state))
                assert rules.to_move(s) == GAME.to_move(state)
                assert rules.evaluate(s) == game.evaluate(state)
                if n == 0:
                    assert rules.utility(s) == game.utility(state)
                    break
                move = rng.choice(GAME.actions(state))
                rules.play(s, move, child)
                state = GAME.result(state, move)
                assert list(child) == list(rules.encode(state))

    def test_safe_moves_are_the_moves_that_do_not_lose_at_once(self) -> None:
        """``safe_moves`` (run as Python) against the game's own methods on random games: one
        move that wins at once when there is one; else exactly the moves after which the
        opponent has no winning move, in the rules' order, or -1 when there are none; 0 at
        the end."""
        rules = compiled_rules(7, 6)
        assert rules.safe_moves is not None
        rng = random.Random(21)
        out = np.zeros(rules.move_limit, np.int64)
        seen = {0: 0, -1: 0, "win": 0, "some": 0}
        for _ in range(40):
            state = GAME.initial_state()
            while True:
                n = rules.safe_moves(rules.encode(state), out)
                acts = GAME.actions(state)
                if not acts:
                    assert n == 0
                    seen[0] += 1
                    break
                me = GAME.to_move(state)

                def wins(s: int, a: int, mover: int) -> bool:
                    child = GAME.result(s, a)
                    return GAME.is_terminal(child) and GAME.utility(child) == (1, -1)[mover]

                winning = [a for a in acts if wins(state, a, me)]
                if winning:
                    assert n == 1 and out[0] in winning
                    seen["win"] += 1
                else:
                    safe = [
                        a
                        for a in acts
                        if not any(
                            wins(GAME.result(state, a), b, 1 - me)
                            for b in GAME.actions(GAME.result(state, a))
                        )
                    ]
                    if safe:
                        assert list(out[:n]) == safe
                        seen["some"] += 1
                    else:
                        assert n == -1
                        seen[-1] += 1
                state = GAME.result(state, rng.choice(acts))
        assert all(seen.values())  # every case met

    def test_a_moves_score_is_the_winning_cells_it_makes(self) -> None:
        """``move_score`` (run as Python) of a move that does not end the game counts the
        empty cells where the mover would then complete four, counted here by placing a stone
        in each empty cell."""
        rules = compiled_rules(7, 6)
        assert rules.move_score is not None
        for state in positions(40, seed=22, least=4, most=24):
            me = GAME.to_move(state)
            for a in GAME.actions(state):
                child = GAME.result(state, a)
                if GAME.is_terminal(child):  # a win at once is tried first anyway
                    continue
                geometry = GAME.geometry
                mask, xs = child >> geometry.size, child & ((1 << geometry.size) - 1)
                mine = xs if me == 0 else mask ^ xs
                cells = 0
                for c in range(geometry.width * (geometry.height + 1)):
                    bit = 1 << c
                    if bit & geometry.board and not bit & mask:
                        cells += alignment(mine | bit, geometry.height)
                assert rules.move_score(rules.encode(state), a) == cells

    def test_the_rules_oracle_reads_the_table(self) -> None:
        """The compiled rules' lookup (run here as Python) finds every position the table
        holds, with its value, and no other (NaN)."""
        rules = compiled_rules(7, 6)
        assert rules.oracle is not None and rules.oracle_data is not None
        held = positions(40, seed=12, least=10, most=30)
        table = SolvedPositions(GAME, [(s, (-1, 0, 1)[i % 3]) for i, s in enumerate(held)])
        rows = rules.oracle_data(table)
        for state in held:
            assert rules.oracle(rules.encode(state), rows) == table(state)
        for state in positions(40, seed=13, least=10, most=30):
            if state not in held:
                assert np.isnan(rules.oracle(rules.encode(state), rows))

    def test_a_table_refuses_a_value_that_is_not_a_game_value(self) -> None:
        with pytest.raises(InvalidStateError, match=r"Connect Four value 2 of .*-1, 0 or 1"):
            SolvedPositions(GAME, [(GAME.parse_state("4"), 2)])

    def test_the_scored_rules_bounds_hold_the_true_value(self) -> None:
        """Scored Connect Four's top and bottom (the mover's view) hold the value the Python
        search proves, at every position of random late games, finished ones included."""
        rules = compiled_rules(7, 6, True)
        assert rules.top is not None and rules.bottom is not None
        scored = ConnectFour(scored=True)
        rng = random.Random(15)
        for state in positions(15, seed=16, least=30, most=34):
            while True:
                s = rules.encode(state)
                value = search(scored, state, plies=False, native=False).value
                mover = -value if scored.to_move(state) else value
                assert rules.bottom(s) <= mover <= rules.top(s)
                if scored.is_terminal(state):
                    assert rules.bottom(s) == mover == rules.top(s)
                    break
                state = scored.result(state, rng.choice(scored.actions(state)))

    @pytest.mark.parametrize(("width", "height", "least"), [(7, 6, 30), (5, 4, 6)])
    def test_the_scored_rules_bounds_are_as_tight_as_the_next_stones_allow(
        self, width: int, height: int, least: int
    ) -> None:
        """Scored top and bottom hold the value the Python search proves and meet at it when
        the mover wins at once; else top is a win with the mover's second stone, and bottom a
        loss to the opponent's second stone when some move stops its win at once, else to its
        next stone (the value then): what lets the null windows cut as Pons's solver does.
        Each case is met three times at least."""
        rules = compiled_rules(width, height, True)
        assert rules.top is not None and rules.bottom is not None
        game = ConnectFour(width, height, scored=True)
        cells = width * height
        rng = random.Random(17)
        seen = {"wins at once": 0, "loses at once": 0, "neither": 0}
        while min(seen.values()) < 3:
            state = game.initial_state()
            for _ in range(least):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(game.actions(state)))
            while not game.is_terminal(state):
                s = rules.encode(state)
                n = int(s[2])
                value = search(game, state, plies=False, native=False).value
                mover = -value if game.to_move(state) else value
                top, bottom = rules.top(s), rules.bottom(s)
                assert bottom <= mover <= top
                kids = [game.result(state, a) for a in game.actions(state)]
                if any(game.is_terminal(k) and game.utility(k) != 0 for k in kids):
                    assert bottom == mover == top == max(1, (cells + 1 - n) // 2)
                    seen["wins at once"] += 1
                else:
                    assert top == ((cells - 1 - n) // 2 if cells - n >= 3 else 0)
                    stopped = [
                        k
                        for k in kids
                        if not any(
                            game.is_terminal(g) and game.utility(g) != 0
                            for g in (game.result(k, b) for b in game.actions(k))
                        )
                    ]
                    if stopped:
                        assert bottom == (-((cells - 2 - n) // 2) if cells - n >= 4 else 0)
                        seen["neither"] += 1
                    else:
                        assert bottom == mover == -max(1, (cells - n) // 2)
                        seen["loses at once"] += 1
                state = rng.choice(kids)

    def test_scored_safe_moves_leave_a_win_at_once_to_the_bounds(self) -> None:
        """Scored, ``safe_moves`` does not look for a win at once (the kernel's bounds meet
        there first, :func:`test_the_scored_rules_bounds_are_as_tight_as_the_next_stones_allow`):
        elsewhere it gives what the +-1 rules give."""
        plain, scored = compiled_rules(7, 6), compiled_rules(7, 6, True)
        assert plain.safe_moves is not None and scored.safe_moves is not None
        a = np.zeros(plain.move_limit, np.int64)
        b = np.zeros(plain.move_limit, np.int64)
        for state in positions(60, seed=23, least=6, most=36):
            s = plain.encode(state)
            n = plain.safe_moves(s, a)
            m = scored.safe_moves(s, b)
            if n == 1 and GAME.is_terminal(GAME.result(state, int(a[0]))):
                continue  # a win at once: the scored bounds settle it
            assert (n, list(a[: max(n, 0)])) == (m, list(b[: max(m, 0)]))


class TestLimitsAndFallback:
    def test_the_route_is_the_default_and_a_second_process_loads_it_from_disk(self) -> None:
        """A fresh process searches on the kernel without being asked, and loads it from
        numba's cache (this module's fixture had it compiled or loaded): nothing compiled, and
        numba's registries not even refreshed (the light load of solver.numba_cache)."""
        code = (
            "import numba.core.base\n"
            "refreshes = []\n"
            "real = numba.core.base.BaseContext.refresh\n"
            "numba.core.base.BaseContext.refresh = (\n"
            "    lambda self: (refreshes.append(1), real(self))[1])\n"
            "from games.connect4 import ConnectFour\n"
            "from solver.compiled import kernel, ready\n"
            "from solver.engine import search\n"
            "game = ConnectFour()\n"
            "result = search(game, game.parse_state('4455'), depth=3)\n"
            "found = kernel(game.compiled_rules())\n"
            "print(result.value, result.plies, ready(game.compiled_rules()), found.compiled,\n"
            "      len(refreshes))\n"
        )
        env = {k: v for k, v in os.environ.items() if k != "GAMESOLVER_NATIVE"}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["1", "3", "True", "False", "0"], done.stderr

    def test_rules_that_cannot_be_built_leave_the_python_search(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Rules whose closure holds an object the kernel's module cannot hold: one line on
        stderr, no compiled search, and the engine's answers from Python."""
        lookup = {"columns": 4}

        def moves(s: Any, out: Any) -> int:  # pragma: no cover - never compiled
            return int(lookup["columns"])

        game = _BrokenRules(width=4, height=4)
        game.rules = attrs.evolve(compiled_rules(4, 4), name="broken 4x4", moves=moves)
        request = SearchRequest(depth=3)
        assert compiled_search(game, game.rules, request, Limits(None, None)) is None
        assert compiled_search(game, game.rules, request, Limits(None, None)) is None
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'lookup' holds a dict" in err and "Python" in err
        state = game.parse_state("1122")
        same_answer(search(game, state, depth=4), search(game, state, depth=4, native=False))

    def test_numbas_debugging_switch_leaves_the_python_search(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Under NUMBA_DISABLE_JIT the kernel would run as plain Python, slower than the
        Python search: no kernel is built, quietly."""
        import numba

        monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
        rules = attrs.evolve(compiled_rules(7, 6), name="connect4 debugging")
        assert kernel(rules) is None
        assert compiled_search(GAME, rules, SearchRequest(), Limits(None, None)) is None

    def test_a_later_search_reuses_the_table_as_if_fresh(self) -> None:
        """A finished search leaves its arrays for the next (no page faults on a fresh table,
        no allocation of the stacks); the next reads none of its entries: the same position
        searched twice walks the same tree both times, the Python search's."""
        state = PLAIN.parse_state("3344")
        first = search(PLAIN, state, depth=7)
        assert compiled._SPARES  # the finished search's arrays are kept for the next
        again = search(PLAIN, state, depth=7)
        plain = search(PLAIN, state, depth=7, native=False)
        assert first.stats.nodes == again.stats.nodes == plain.stats.nodes
        assert first.stats.table_hits == again.stats.table_hits

    def test_a_later_search_starts_with_no_history(self) -> None:
        """The history heuristic a search learnt does not order the next one's moves: after
        a search of another position, the tree is the one a fresh search walks."""
        state = PLAIN.parse_state("3344")
        fresh = search(PLAIN, state, depth=7, native=False)
        search(PLAIN, PLAIN.parse_state("4"), depth=7)  # leaves another history
        after = search(PLAIN, state, depth=7)
        assert (after.stats.nodes, after.stats.cutoffs) == (fresh.stats.nodes, fresh.stats.cutoffs)

    def test_a_search_alive_keeps_its_arrays(self) -> None:
        """Arrays go back only when their search ends: two searches alive at once never share
        them."""
        request = SearchRequest(table_size=1 << 10)
        one = compiled_search(PLAIN, PLAIN.compiled_rules(), request, Limits(None, None))
        two = compiled_search(PLAIN, PLAIN.compiled_rules(), request, Limits(None, None))
        assert one is not None and two is not None
        assert one.arrays is not two.arrays
        kept = one.arrays
        del one
        three = compiled_search(PLAIN, PLAIN.compiled_rules(), request, Limits(None, None))
        assert three is not None and three.arrays is kept and three.arrays is not two.arrays

    def test_a_node_limit_stops_the_kernel(self) -> None:
        """The kernel returns to Python within its budget: the limit ends the search."""
        result = search(GAME, node_limit=50_000)
        assert not result.complete and result.stats.nodes <= 50_000 + GAME.geometry.width

    def test_without_numba_the_python_search_answers(self, monkeypatch: Any) -> None:
        """GAMESOLVER_NATIVE=0: no compiled search is offered, the answers stay the same."""
        state = GAME.parse_state("4455")
        compiled_result = search(GAME, state, depth=4)
        monkeypatch.setenv("GAMESOLVER_NATIVE", "0")
        assert not numba_available()
        request = SearchRequest(depth=4)
        assert compiled_search(GAME, GAME.compiled_rules(), request, Limits(None, None)) is None
        same_answer(search(GAME, state, depth=4), compiled_result)

    def test_an_oracle_the_rules_cannot_read_keeps_the_python_search(self) -> None:
        """The kernel cannot call a Python oracle: a plain callable is searched in Python, a
        table the rules read (SolvedPositions) on the kernel."""
        request = SearchRequest(oracle=lambda s: None)
        assert compiled_search(GAME, GAME.compiled_rules(), request, Limits(None, None)) is None
        table = SolvedPositions(GAME, [(GAME.parse_state("4455"), 1)])
        request = SearchRequest(oracle=table)
        nodes = compiled_search(GAME, GAME.compiled_rules(), request, Limits(None, None))
        assert isinstance(nodes, CompiledSearch)
        small = SolvedPositions(ConnectFour(width=4, height=4), [])
        request = SearchRequest(oracle=small)  # another board's table: not read
        assert compiled_search(GAME, GAME.compiled_rules(), request, Limits(None, None)) is None


class TestScoredOnTheKernel:
    def test_scores_solved_on_the_kernel_equal_the_python_search(self) -> None:
        """The scored game (Pons's scores as utilities) solved to the end from late positions,
        value only: the kernel's exact scores and optimal moves are the Python search's (the
        trees may differ a little: the kernel's table replaces entries on collisions)."""
        scored = ConnectFour(scored=True)
        for state in positions(12, seed=14, least=28, most=32):
            fast = search(scored, state, plies=False)
            plain = search(scored, state, plies=False, native=False)
            assert fast.exact and (fast.value, set(fast.best_actions)) == (
                plain.value,
                set(plain.best_actions),
            )


class TestTheOracleInsideTheKernel:
    """An exact table probed at every node inside the kernel, as the Python search probes it."""

    def test_same_trees_and_answers_as_the_python_search_with_the_table(self) -> None:
        """Positions with 30 stones; the table holds every position after half of their
        grandchildren (solved): the same values, moves, exactness, plies and node counts as
        the Python search given the same table, and fewer nodes than without it."""
        starts = positions(3, seed=11, least=30, most=30)
        values: dict[int, float] = {}
        for start in starts:
            for i, a in enumerate(GAME.actions(start)):
                child = GAME.result(start, a)
                for j, b in enumerate(GAME.actions(child)):
                    if (i + j) % 2 == 0:
                        grandchild = GAME.result(child, b)
                        values.update((s, r.value) for s, r in solve(GAME, grandchild))
        table = SolvedPositions(GAME, values.items())
        fewer = False
        for start in starts:
            for depth in (2, 3, 4, 6):
                fast = search(PLAIN, start, depth=depth, oracle=table)
                plain = search(PLAIN, start, depth=depth, oracle=table, native=False)
                same_answer(fast, plain)
                assert fast.stats.nodes == plain.stats.nodes
                replay_legally(start, fast.pv)
                fewer |= fast.stats.nodes < search(PLAIN, start, depth=depth).stats.nodes
        assert fewer
