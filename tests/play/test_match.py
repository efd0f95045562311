"""Tests for the play package: agents, single games, their endings, and reproducible matches."""

from __future__ import annotations

import concurrent.futures
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from games import load_game
from play import (
    AGENT_SPECS,
    AgentError,
    EngineAgent,
    GameOutcome,
    HumanAgent,
    MatchResult,
    MinimaxAgent,
    RandomAgent,
    game_rng,
    parse_agent,
    play_game,
    run_match,
)
from solver.game import IllegalActionError, apply
from zerosum.report import match_table


class Carousel:
    """A tiny game that never ends: the token steps round ``size`` squares, players alternate.

    State: (square, player to move). The only move is 1 (step); from (0, 0) the first repeated
    state is reached after lcm(size, 2) plies. ``evaluate`` (if enabled) is ``square - 1``.
    """

    name = "carousel"

    def __init__(self, size: int = 3) -> None:
        self.size = size

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return [1]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return ((state[0] + action) % self.size, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return False

    def utility(self, state: tuple[int, int]) -> float:
        raise AssertionError("a carousel never ends")


class ScoredCarousel(Carousel):
    """The carousel with a heuristic: the token's square minus one."""

    def evaluate(self, state: tuple[int, int]) -> float:
        return state[0] - 1


class EndlessCarousel(ScoredCarousel):
    """The scored carousel that also declares the score of endless play: always +7."""

    def endless_value(self, state: tuple[int, int]) -> float:
        return 7


@attrs.frozen
class FirstMove:
    """A deterministic test agent: always the first legal action."""

    name: str = "first"
    interactive: bool = False

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        return next(iter(game.actions(state)))


@attrs.frozen
class Cheater:
    """A test agent that plays an action that is never legal."""

    name: str = "cheater"
    interactive: bool = False

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        return 99


def scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str], list[str]]:
    """An ``ask`` that replays ``answers``, plus the prompts it saw and a ``tell`` log."""
    prompts: list[str] = []
    told: list[str] = []
    replies = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(replies)
        except StopIteration:
            raise EOFError from None

    return ask, prompts, told


def outcome_keys(result: MatchResult) -> list[tuple[Any, ...]]:
    return [(o.index, o.first, o.winner, o.score, o.plies, o.ended) for o in result.outcomes]


class TestParseAgent:
    def test_specs_name_their_agents(self) -> None:
        """Every valid spec gives the agent it names, named by its normalised spec."""
        assert parse_agent("random") == RandomAgent()
        assert parse_agent("minimax:3") == MinimaxAgent(3)
        assert parse_agent(" AlphaBeta:2 ") == MinimaxAgent(2, "alphabeta")
        assert parse_agent("engine:0.25") == EngineAgent(seconds=0.25)
        assert parse_agent("engine:d6") == EngineAgent(depth=6)
        assert parse_agent("engine") == EngineAgent(seconds=1.0)
        assert isinstance(parse_agent("human"), HumanAgent)
        names = [parse_agent(s).name for s in ("minimax:3", "alphabeta:2", "engine:0.25")]
        assert names == ["minimax:3", "alphabeta:2", "engine:0.25"]
        assert parse_agent("engine:d6").name == "engine:d6"

    def test_unknown_spec_lists_the_valid_ones(self) -> None:
        """An unknown agent is quoted and the valid specs are listed."""
        with pytest.raises(AgentError) as error:
            parse_agent("minmax:3")
        assert str(error.value) == f"unknown agent 'minmax:3'; valid: {AGENT_SPECS}"
        assert isinstance(error.value, ValueError)

    @pytest.mark.parametrize(
        "spec", ["minimax", "minimax:0", "minimax:x", "alphabeta:-1", "engine:d0", "engine:dx"]
    )
    def test_bad_depths_are_refused(self, spec: str) -> None:
        """A missing, zero or non-numeric depth is refused, quoting the spec."""
        with pytest.raises(AgentError, match=f"bad depth in agent {spec!r}"):
            parse_agent(spec)

    @pytest.mark.parametrize("spec", ["engine:0", "engine:-1", "engine:fast", "engine:inf"])
    def test_bad_times_are_refused(self, spec: str) -> None:
        """A time that is not a positive finite number of seconds is refused."""
        with pytest.raises(AgentError, match=f"bad time in agent {spec!r}"):
            parse_agent(spec)

    def test_arguments_to_random_are_refused(self) -> None:
        """``random`` takes no argument."""
        with pytest.raises(AgentError, match="unknown agent 'random:2'"):
            parse_agent("random:2")


class TestPlayGame:
    def test_random_tictactoe_ends_at_a_terminal_state_with_legal_moves(self) -> None:
        """A random game is a legal sequence to a terminal state, scored by its utility."""
        game: Any = load_game("tictactoe")
        for seed in range(20):
            record = play_game(game, ["random", "random"], random.Random(seed))
            state = game.initial_state()
            for move in record.moves:
                state = apply(game, state, move)
            assert state == record.final_state
            assert game.is_terminal(state)
            assert record.ended == "terminal"
            assert record.score == game.utility(state)
            assert record.winner == {1: 0, -1: 1, 0: None}[int(record.score)]

    def test_the_same_seed_replays_the_same_game(self) -> None:
        """Two games from equal seeds are identical."""
        game: Any = load_game("tictactoe")
        first = play_game(game, ["random", "random"], random.Random(7))
        assert play_game(game, ["random", "random"], random.Random(7)) == first

    def test_a_repeated_position_ends_the_game_scored_by_evaluate(self) -> None:
        """The first repetition of a full position ends the game, scored by evaluate's sign."""
        record = play_game(ScoredCarousel(3), [FirstMove(), FirstMove()], random.Random(0))
        assert record.ended == "repetition"
        assert record.plies == 6  # (0,0) comes back after lcm(3, 2) plies
        assert record.final_state == (0, 0)
        assert (record.score, record.winner) == (-1, 1)

    def test_a_repeated_position_is_scored_by_endless_value(self) -> None:
        """With endless_value a repetition scores it, as solve does; a ply limit still evaluates."""
        rng = random.Random(0)
        record = play_game(EndlessCarousel(3), [FirstMove(), FirstMove()], rng)
        assert (record.ended, record.score, record.winner) == ("repetition", 7, 0)
        limited = play_game(EndlessCarousel(3), [FirstMove(), FirstMove()], rng, max_plies=2)
        assert (limited.ended, limited.score) == ("ply-limit", 1)

    def test_a_repeated_position_is_a_draw_without_evaluate(self) -> None:
        """A game without evaluate that repeats is a draw."""
        record = play_game(Carousel(4), [FirstMove(), FirstMove()], random.Random(0))
        assert (record.ended, record.plies, record.score, record.winner) == (
            "repetition",
            4,
            0,
            None,
        )

    def test_repetition_counts_the_side_to_move(self) -> None:
        """The same square with the other side to move is not a repetition."""
        record = play_game(ScoredCarousel(5), [FirstMove(), FirstMove()], random.Random(0))
        assert record.plies == 10  # square 0 recurs at ply 5, but with player 1 to move

    def test_repetitions_can_be_allowed_up_to_the_ply_limit(self) -> None:
        """Without the repetition rule a cycling game runs to the ply limit."""
        record = play_game(
            ScoredCarousel(3),
            [FirstMove(), FirstMove()],
            random.Random(0),
            max_plies=20,
            end_on_repetition=False,
        )
        assert (record.ended, record.plies, record.final_state) == ("ply-limit", 20, (2, 0))

    def test_allowing_repetitions_needs_a_ply_limit(self) -> None:
        """end_on_repetition=False without max_plies is refused: the game could cycle for ever."""
        with pytest.raises(AgentError, match="needs a max_plies"):
            play_game(
                Carousel(), [FirstMove(), FirstMove()], random.Random(0), end_on_repetition=False
            )
        with pytest.raises(AgentError, match="needs a max_plies"):
            run_match(Carousel(), FirstMove(), FirstMove(), games=1, end_on_repetition=False)

    def test_the_ply_limit_stops_a_game(self) -> None:
        """After max_plies moves the game stops, scored by evaluate."""
        record = play_game(
            ScoredCarousel(7), [FirstMove(), FirstMove()], random.Random(0), max_plies=3
        )
        assert (record.ended, record.plies, record.final_state) == ("ply-limit", 3, (3, 1))
        assert (record.score, record.winner) == (2, 0)

    def test_a_zero_ply_limit_plays_no_move(self) -> None:
        """max_plies=0 ends at the starting position."""
        game: Any = load_game("tictactoe")
        record = play_game(game, ["random", "random"], random.Random(0), max_plies=0)
        assert (record.moves, record.ended, record.score) == ((), "ply-limit", 0)

    def test_a_terminal_state_wins_over_the_ply_limit(self) -> None:
        """A game that ends exactly at the limit ended at a terminal state."""
        game = load_game("textbook")
        record = play_game(game, ["random", "random"], random.Random(0), max_plies=2)
        assert record.ended == "terminal"

    def test_illegal_moves_are_refused(self) -> None:
        """An agent's illegal move raises, naming the legal moves."""
        with pytest.raises(IllegalActionError, match=r"illegal action 99 .*legal: 0, 1, 2"):
            play_game(load_game("textbook"), [Cheater(), "random"], random.Random(0))

    def test_exactly_two_agents(self) -> None:
        """A game needs two agents."""
        with pytest.raises(AgentError, match="exactly two agents, got 1"):
            play_game(load_game("textbook"), ["random"], random.Random(0))

    def test_on_move_sees_every_move(self) -> None:
        """on_move is called once per ply with the states before and after."""
        game: Any = load_game("tictactoe")
        seen: list[tuple[int, Any, Any, Any]] = []
        record = play_game(
            game,
            ["random", "random"],
            random.Random(3),
            on_move=lambda *args: seen.append(args),
        )
        assert [s[0] for s in seen] == list(range(1, record.plies + 1))
        assert all(game.result(before, a) == after for _, before, a, after in seen)
        assert tuple(s[2] for s in seen) == record.moves

    def test_a_starting_state_can_be_given(self) -> None:
        """play_game starts from ``state`` when given."""
        game: Any = load_game("tictactoe")
        start = game.parse_state("xx./oo./...")
        record = play_game(game, ["minimax:1", "random"], random.Random(0), state=start)
        assert record.moves == (2,)
        assert record.winner == 0


class TestAgents:
    def test_minimax_agent_plays_the_first_best_move(self) -> None:
        """minimax:D plays the teaching search's best action, ties to the first."""
        from solver.minimax import minimax

        game: Any = load_game("tictactoe")
        rng = random.Random(0)
        for text in ("x../.o./...", "xo./.x./..o", "x.o/.x./..."):
            state = game.parse_state(text)
            expected = minimax(game, state, depth=2).best_action
            assert parse_agent("minimax:2").choose(game, state, rng) == expected
            assert parse_agent("alphabeta:2").choose(game, state, rng) == expected

    def test_engine_agent_plays_a_value_keeping_move(self) -> None:
        """engine:dN plays one of the engine's best actions at depth N, the same for equal rngs."""
        from solver.engine import search

        game: Any = load_game("tictactoe")
        agent = parse_agent("engine:d9")
        for text in ("x../.o./...", "xo./.x./..o", "x.o/.x./..."):
            state = game.parse_state(text)
            best = search(game, state, depth=9).best_actions
            choices = {agent.choose(game, state, random.Random(s)) for s in range(5)}
            assert choices <= set(best)
            again = agent.choose(game, state, random.Random(3))
            assert again == agent.choose(game, state, random.Random(3))

    def test_time_limited_engine_plays_legal_moves(self) -> None:
        """engine:SECONDS finishes a game of legal moves."""
        game: Any = load_game("tictactoe")
        record = play_game(game, ["engine:0.01", "random"], random.Random(2))
        state = game.initial_state()
        for move in record.moves:
            state = apply(game, state, move)
        assert record.ended == "terminal"

    def test_random_agent_uses_only_the_given_rng(self) -> None:
        """Equal rngs give equal choices; the choice is legal."""
        game: Any = load_game("tictactoe")
        state = game.initial_state()
        picks = [RandomAgent().choose(game, state, random.Random(s)) for s in range(30)]
        again = [RandomAgent().choose(game, state, random.Random(s)) for s in range(30)]
        assert picks == again
        assert set(picks) <= set(game.actions(state))


class TestHumanAgent:
    def test_re_asks_until_the_move_is_legal(self) -> None:
        """Illegal or unreadable answers are answered with the error, then asked again."""
        ask, prompts, told = scripted(["4", "nine", "x", "8"])
        game: Any = load_game("tictactoe")
        state = game.parse_state("x../.o./...")
        human = HumanAgent(ask=ask, tell=told.append, show_position=False)
        assert human.choose(game, state, random.Random(0)) == 8
        assert len(prompts) == 4
        assert prompts[0] == "X to move (1, 2, 3, 5, 6, 7, 8): "  # the game's player names
        assert len(told) == 3
        assert told[0].startswith("illegal action 4")

    def test_shows_the_position_first(self) -> None:
        """The position is rendered before the question."""
        ask, _, told = scripted(["0"])
        game: Any = load_game("tictactoe")
        HumanAgent(ask=ask, tell=told.append).choose(game, game.initial_state(), random.Random(0))
        assert told == [game.render(game.initial_state())]

    def test_end_of_input_propagates(self) -> None:
        """EOF from ask is left to the caller."""
        ask, _, told = scripted([])
        game: Any = load_game("tictactoe")
        with pytest.raises(EOFError):
            HumanAgent(ask=ask, tell=told.append).choose(
                game, game.initial_state(), random.Random(0)
            )

    def test_plays_a_whole_game(self) -> None:
        """A scripted human plays a game against minimax through play_game."""
        ask, _, told = scripted(["0", "1", "2", "3", "4", "5", "6", "7", "8"])
        game: Any = load_game("tictactoe")
        human = HumanAgent(ask=ask, tell=told.append, show_position=False)
        record = play_game(game, [human, "minimax:2"], random.Random(0))
        assert record.ended == "terminal"
        assert record.agents == ("human", "minimax:2")


class TestRunMatch:
    def test_the_same_seed_gives_the_same_match(self) -> None:
        """Two matches with the same seed have the same outcomes and counts."""
        game: Any = load_game("tictactoe")
        first = run_match(game, "random", "random", games=60, seed=5)
        second = run_match(game, "random", "random", games=60, seed=5)
        assert first == second
        assert first.p1_wins + first.p2_wins + first.draws == 60
        assert [o.index for o in first.outcomes] == list(range(60))

    def test_outcomes_do_not_depend_on_workers_or_chunks(self) -> None:
        """Workers=1, workers=2 (processes), a thread executor and any chunk size agree."""
        factory = functools.partial(load_game, "tictactoe")
        alone = run_match(factory, "minimax:1", "random", games=24, seed=11, swap=True)
        pooled = run_match(factory, "minimax:1", "random", games=24, seed=11, swap=True, workers=2)
        with concurrent.futures.ThreadPoolExecutor(3) as executor:
            threaded = run_match(
                factory,
                "minimax:1",
                "random",
                games=24,
                seed=11,
                swap=True,
                executor=executor,
                chunk_size=5,
            )
        assert outcome_keys(alone) == outcome_keys(pooled) == outcome_keys(threaded)
        assert alone == pooled == threaded
        assert pooled.workers == 2

    def test_each_game_draws_from_its_own_stream(self) -> None:
        """Game i of a match replays alone with game_rng(seed, i)."""
        game: Any = load_game("tictactoe")
        result = run_match(game, "random", "random", games=8, seed=2)
        record = play_game(game, ["random", "random"], game_rng(2, 6))
        assert (result.outcomes[6].plies, result.outcomes[6].score) == (
            record.plies,
            record.score,
        )

    def test_swap_alternates_the_first_mover(self) -> None:
        """With swap, B moves first in odd games; wins are counted by seat and by agent."""
        # In this tree the first mover wins whenever it plays branch 0 and loses otherwise.
        game = load_game("textbook", tree=[[1, 1], [-1, -1], [-1, -1]])
        result = run_match(game, FirstMove(), "random", games=40, seed=3, swap=True)
        assert [o.first for o in result.outcomes] == [0, 1] * 20
        a_first = [o for o in result.outcomes if o.first == 0]
        assert all(o.winner == 0 and o.winning_agent == 0 for o in a_first)
        assert result.wins[0] == 20 + sum(o.winner == 1 for o in result.outcomes if o.first)
        assert result.wins[0] + result.wins[1] + result.draws == 40
        assert result.p1_wins + result.p2_wins + result.draws == 40
        assert [(r.first, r.second, r.games) for r in result.rows()] == [
            ("first", "random", 20),
            ("random", "first", 20),
        ]

    def test_without_swap_a_always_moves_first(self) -> None:
        """Without swap every game has agent A as player 0."""
        game = load_game("textbook", tree=[[1, 1], [-1, -1], [-1, -1]])
        result = run_match(game, FirstMove(), "random", games=10, seed=3)
        assert all(o.first == 0 for o in result.outcomes)
        assert (result.p1_wins, result.wins) == (10, (10, 0))

    def test_repetitions_and_ply_limits_are_counted(self) -> None:
        """Games that end by repetition or the ply limit are counted as such."""
        repeated = run_match(ScoredCarousel(3), FirstMove(), FirstMove(), games=3)
        assert (repeated.repetitions, repeated.ply_limits, repeated.p2_wins) == (3, 0, 3)
        assert repeated.average_plies == 6
        limited = run_match(ScoredCarousel(9), FirstMove(), FirstMove(), games=3, max_plies=4)
        assert (limited.repetitions, limited.ply_limits, limited.p1_wins) == (0, 3, 3)

    def test_the_repetition_rule_is_recorded(self) -> None:
        """A match without the repetition rule says so in its result and table."""
        result = run_match(
            ScoredCarousel(3),
            FirstMove(),
            FirstMove(),
            games=2,
            max_plies=7,
            end_on_repetition=False,
        )
        assert (result.end_on_repetition, result.ply_limits, result.repetitions) == (False, 2, 0)
        assert "Repeated positions do not end a game" in match_table(result)
        assert json.loads(result.to_json())["end_on_repetition"] is False

    def test_progress_reaches_the_total(self) -> None:
        """Progress is reported after each chunk, ending at the number of games."""
        calls: list[tuple[int, int]] = []
        run_match(
            load_game("tictactoe"),
            "random",
            "random",
            games=10,
            chunk_size=3,
            progress=lambda done, total: calls.append((done, total)),
        )
        assert calls == [(3, 10), (6, 10), (9, 10), (10, 10)]

    def test_bad_arguments_are_refused(self) -> None:
        """No games, no workers, or a human in worker processes are refused."""
        game: Any = load_game("tictactoe")
        with pytest.raises(AgentError, match="bad number of games 0"):
            run_match(game, "random", "random", games=0)
        with pytest.raises(AgentError, match="bad number of workers 0"):
            run_match(game, "random", "random", games=1, workers=0)
        with pytest.raises(AgentError, match="human agent cannot play in worker"):
            run_match(game, "human", "random", games=1, workers=2)


class TestMatchResult:
    def test_table_has_one_row_per_seating(self) -> None:
        """The table shows the article's columns, one row per seating, and the ending rule."""
        game: Any = load_game("tictactoe")
        result = run_match(game, "minimax:1", "random", games=6, seed=1, swap=True)
        lines = match_table(result).splitlines()
        assert lines[0].split()[:7] == ["P1", "(first)", "P2", "games", "P1", "wins", "P2"]
        assert lines[2].split()[:3] == ["minimax:1", "random", "3"]
        assert lines[3].split()[:3] == ["random", "minimax:1", "3"]
        assert "A (minimax:1) won" in lines[4]
        assert "repeated position" in match_table(result)

    def test_json_carries_the_counts(self) -> None:
        """to_json holds the counts a known game must give, and the games when asked."""
        # Every leaf of Figure 5.2 is positive: whoever moves first wins every game, in 2 plies.
        game: Any = load_game("textbook")
        result = run_match(game, "minimax:2", "random", games=12, seed=4, swap=True)
        data = json.loads(result.to_json(games=True))
        assert (data["games"], data["p1_wins"], data["p2_wins"], data["draws"]) == (12, 12, 0, 0)
        assert data["wins_by_agent"] == {"minimax:2": 6, "random": 6}
        assert (data["ended_by_repetition"], data["average_plies"]) == (0, 2.0)
        assert [(r["first"], r["games"], r["p1_wins"]) for r in data["rows"]] == [
            ("minimax:2", 6, 6),
            ("random", 6, 6),
        ]
        assert [(o["index"], o["first"], o["winner"], o["plies"]) for o in data["outcomes"]] == [
            (i, i % 2, 0, 2) for i in range(12)
        ]
        assert [GameOutcome(**o) for o in data["outcomes"]] == list(result.outcomes)
        assert "outcomes" not in json.loads(result.to_json())

    def test_a_game_record_repr_counts_the_moves(self) -> None:
        """A played game's repr gives the number of moves, not every move."""
        record = play_game(load_game("ayoayo"), ["random", "random"], random.Random(3))
        assert f"moves=<{record.plies} moves>" in repr(record)
        assert len(repr(record)) < 400

    def test_repr_is_one_short_line(self) -> None:
        """The repr summarises a match in one line, however many games it holds."""
        result = run_match(load_game("tictactoe"), "random", "random", games=500, seed=1)
        text = repr(result)
        assert "\n" not in text and len(text) < 120
        assert text.startswith("<MatchResult tictactoe random vs random, seed 1: 500 games")

    def test_json_is_written_to_a_path(self, tmp_path: Any) -> None:
        """to_json(path) writes the same text to the file."""
        result = run_match(load_game("tictactoe"), "random", "random", games=3, seed=4)
        text = result.to_json(tmp_path / "match.json")
        assert (tmp_path / "match.json").read_text(encoding="utf-8") == text + "\n"


class TestAyoayo:
    """Matches on Ayòayò, the game the article's table is about."""

    def test_minimax_2_against_itself_repeats_at_ply_56(self) -> None:
        """The reference's depth-2 self-play repeats its full state at ply 56 (the rules page)."""
        game = load_game("ayoayo")
        record = play_game(game, ["minimax:2", "minimax:2"], random.Random(0))
        assert (record.ended, record.plies) == ("repetition", 56)
        state = game.initial_state()
        for move in record.moves[:22]:
            state = game.result(state, move)
        assert state == record.final_state

    def test_a_small_match_is_reproducible_across_workers(self) -> None:
        """A minimax:1 vs random match gives the same outcomes in one and two processes."""
        factory = functools.partial(load_game, "ayoayo")
        alone = run_match(factory, "minimax:1", "random", games=8, seed=9, swap=True)
        pooled = run_match(factory, "minimax:1", "random", games=8, seed=9, swap=True, workers=2)
        assert alone == pooled
        assert alone.games == 8
