"""``gamesolver play``: a human against the computer in the terminal."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import attrs

from play import HumanAgent, play_game
from solver.chance import is_chance
from solver.game import (
    GameError,
    HasMoveSteps,
    HasPits,
    HasScore,
    format_action,
    format_state,
    other,
    player_label,
)
from solver.output import OutputError, write_text
from zerosum.analysis import analysis_search
from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.options import (
    agent,
    checked_output,
    extra_fields,
    game_arguments,
    game_spec,
    load,
    position,
    position_argument,
    positive_float,
    positive_int,
    seed_int,
)
from zerosum.proving import book_lines, with_book
from zerosum.records import format_record
from zerosum.report import board_lines, num, outcome, repetition_said
from zerosum.seating import CellNumbers, seated_lines
from zerosum.steps import sowing_said
from zerosum.strength import LEVELS
from zerosum.tablebases import open_tablebase, tablebase_arguments, with_tablebase

NAME = "play"
ALIASES: tuple[str, ...] = ()
HELP = "play against the computer in the terminal"


def add_arguments(play: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver play``."""
    game_arguments(play)
    position_argument(play)
    extra_fields(play)
    play.add_argument(
        "--first",
        choices=("human", "ai"),
        default="human",
        help="who moves first from the position (default: human)",
    )
    play.add_argument(
        "--ai",
        default="engine",
        metavar="AGENT",
        help="the computer player: a strength (beginner, casual, club, strong, expert, perfect), "
        "engine (with --time S or --depth N), engine:S, engine:dN, minimax:D, alphabeta:D, "
        "expectiminimax:D or star1:D (games with chance, e.g. hog), mcts (with --time S), "
        "mcts:ITERATIONS, mcts:Ss (options: ,c=C ,solver ,heuristic) or "
        "random (default: engine, 1 s a move)",
    )
    play.add_argument("--time", type=positive_float, metavar="S", help="engine: seconds a move")
    play.add_argument("--depth", type=positive_int, metavar="N", help="engine/minimax: depth")
    play.add_argument("--seed", type=seed_int, default=None, help="seed for the AI's tie-breaks")
    play.add_argument("--max-plies", type=positive_int, metavar="N", help="stop after N plies")
    play.add_argument(
        "--no-repetition-rule",
        dest="end_on_repetition",
        action="store_false",
        help="play on past a repeated position (needs --max-plies, so that a game that cycles "
        "still ends)",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="write the game record to FILE at the end (or when you quit or press Ctrl-C; see "
        "docs/board.md); checked before the game starts",
    )
    play.add_argument("--force", "-f", action="store_true", help="--save: replace an existing FILE")
    play.add_argument(
        "--seat",
        action="store_true",
        help="games of pits (Ayòayò): draw the board from your side, your row at the bottom",
    )
    play.add_argument(
        "--cells",
        metavar="0-N|1-N",
        help="games of pits (Ayòayò): number the cells of a row from 0 (the notation, default: "
        "0-5 for rows of six) or from 1 (1-6) on screen and at the prompt",
    )
    tablebase_arguments(play)


class _Quit(Exception):
    """The human typed q (or quit/exit) at the move prompt."""


QUIT_WORDS = ("q", "quit", "exit")


def _ai_spec(args: argparse.Namespace) -> str:
    """The AI's agent spec from ``--ai`` plus ``--time`` / ``--depth`` for a bare ``engine``."""
    spec: str = args.ai.strip()
    if spec.lower() in LEVELS:
        if args.time is not None or args.depth is not None:
            raise UsageError(f"--time/--depth do not go with a strength level ({spec!r})")
        return LEVELS[spec.lower()].agent
    if spec.lower() == "engine":
        if args.depth is not None:
            return f"engine:d{args.depth}"
        return f"engine:{args.time:g}" if args.time is not None else "engine"
    if spec.lower() == "mcts" and args.time is not None and args.depth is None:
        return f"mcts:{args.time:g}s"
    if spec.lower() in ("minimax", "alphabeta"):
        depth = args.depth if args.depth is not None else 3
        return f"{spec.lower()}:{depth}"
    if args.time is not None or args.depth is not None:
        raise UsageError(
            f"--time/--depth go with a bare --ai engine (or minimax/alphabeta), not {spec!r}; "
            "write the limit in the spec instead, e.g. --ai engine:0.5, --ai minimax:4 or "
            "--ai mcts:2000"
        )
    return spec


def score_change(game: Any, before: Any, after: Any) -> tuple[int, ...] | None:
    """What each player banked with a move (captured seeds), for games with a score.

    >>> from games import load_game
    >>> game = load_game("ayoayo")
    >>> start = game.initial_state()
    >>> score_change(game, start, game.result(start, 0))
    (0, 0)
    >>> score_change(load_game("tictactoe"), None, None) is None
    True
    """
    if not isinstance(game, HasScore):
        return None
    old, new = game.score(before), game.score(after)
    return tuple(b - a for a, b in zip(old, new, strict=True))


class _Undo(Exception):
    """The human typed undo: take back their last move (and the computer's reply)."""


PROMPT_HELP = (
    "at the prompt: a move, or hint (the engine's suggestion), undo (take back your last "
    "move), moves (the moves so far), save FILE (the game record), help, q (quit)"
)


@attrs.define
class _Session:
    """A game at the terminal: the moves so far, the prompt's commands, what each move did."""

    game: Any
    start: Any
    io: Io
    tablebase: Any
    human_side: int
    ai_name: str
    cells: CellNumbers = attrs.field(factory=CellNumbers)
    seat: bool = False
    spec: str | None = None
    moves: list[Any] = attrs.field(factory=list)
    states: list[Any] = attrs.field(factory=list)
    written: set[str] = attrs.field(factory=set)

    @property
    def current(self) -> Any:
        """The position now."""
        return self.states[-1] if self.states else self.start

    @property
    def players(self) -> str:
        """Who played which side, for the record: ``you, engine:1``."""
        names = ["you", self.ai_name]
        return ", ".join(names if self.human_side == 0 else names[::-1])

    def record(self) -> str:
        """The game so far as a record."""
        headers = {"players": self.players}
        return format_record(
            self.game, self.start, self.moves, headers=headers, game_spec=self.spec
        )

    def shown(self, state: Any, action: Any) -> str:
        """A move as the player reads it (cells from 1 with ``--cells 1-N``)."""
        text = format_action(self.game, state, action)
        return self.cells.shown(text) if self.cells.first else text

    def lines(self, state: Any) -> list[str]:
        """The board: from the player's seat with ``--seat``, else as the game draws it."""
        if not self.seat:
            return board_lines(self.game, state)
        seated = seated_lines(self.game, state, self.human_side, self.cells)
        return [*seated, f"position: {format_state(self.game, state)}"]

    def move_list(self) -> str:
        """``1. 2  2. 4 ...``, or ``no moves``."""
        state, parts = self.start, []
        for ply, action in enumerate(self.moves, 1):
            parts.append(f"{ply}. {self.shown(state, action)}")
            state = self.game.result(state, action)
        return "  ".join(parts) or "no moves"

    def hint(self) -> str:
        """The engine's move in the current position (one second), with its outcome."""
        state = self.current
        result = analysis_search(
            self.game, state, depth=None, time_limit=HINT_SECONDS, tablebase=self.tablebase
        )
        if result.best_action is None:
            return "no move to suggest"
        move = self.shown(state, result.best_action)
        said = outcome(self.game, result.value, exact=result.exact, plies=result.plies)
        return f"hint: {move} ({said})"

    def save(self, path: str, overwrite: bool = False) -> str:
        """Write the record to ``path`` atomically; what happened, in words. A file that exists
        is replaced only with ``overwrite`` or when this game wrote it."""
        if not path:
            return "save FILE: name the file to write"
        try:
            write_text(path, self.record(), overwrite=overwrite or path in self.written)
        except OutputError as exc:
            return f"cannot write the record: {exc}".replace(
                "pass overwrite=True (--force) to replace it", "choose another name"
            )
        except OSError as exc:
            return f"cannot write {path!r}: {exc.strerror or exc}"
        self.written.add(path)
        return f"game record written to {path}"

    def ask(self, prompt: str) -> str:
        """Ask for a move, answering the prompt's commands until the answer is not one."""
        shown = self.cells.prompt(prompt)
        shown = shown.replace(": ", " [help]: ", 1) if shown.endswith(": ") else shown
        while True:
            self.io.out.file.flush()
            text = input(shown)
            if not sys.stdin.isatty():  # echo scripted input so the transcript reads like a session
                self.io.out.file.write(text + "\n")
            word, _, rest = text.strip().partition(" ")
            word = word.lower()
            if word in QUIT_WORDS:
                raise _Quit
            if word == "undo":
                raise _Undo
            if word in ("help", "?"):
                self.io.print(PROMPT_HELP)
            elif word == "hint":
                self.io.print(self.hint())
            elif word == "moves":
                self.io.print(self.move_list())
            elif word == "save":
                self.io.print(self.save(rest.strip()))
            elif self.cells.first and not self.cells.is_cell(text):
                legal = ", ".join(
                    self.shown(self.current, a) for a in self.game.actions(self.current)
                )
                self.io.print(
                    f"a move is a cell number 1..{self.cells.size} of your row; legal here: {legal}"
                )
            else:
                return self.cells.read(text)

    def on_move(self, ply: int, before: Any, action: Any, after: Any) -> None:
        """Show the move: who played it, what the sowing did, the captures, the board."""
        game, io = self.game, self.io
        self.moves.append(action)
        self.states.append(after)
        mover = game.to_move(before)
        who = "you" if mover == self.human_side else self.ai_name
        io.print()
        if is_chance(game, before):  # rolled by the program, not played
            io.print(f"{len(self.moves)}. chance: {self.shown(before, action)}", style="bold")
        else:
            io.print(
                f"{len(self.moves)}. {player_label(game, mover)} ({who}) plays "
                f"{self.shown(before, action)}",
                style="bold",
            )
        if not is_chance(game, before) and isinstance(game, HasMoveSteps):
            steps = game.move_steps(before, action)
            if steps:
                names = [player_label(game, p) for p in (0, 1)]
                io.print(f"sowing: {sowing_said(steps, names, self.cells.first)}")
        gained = score_change(game, before, after)
        if gained is not None and any(gained):
            parts = [f"{player_label(game, p)} +{n}" for p, n in enumerate(gained) if n]
            totals = ", ".join(str(n) for n in game.score(after))
            io.print(f"captured: {', '.join(parts)} (now {totals})")
        for line in self.lines(after):
            io.print(line)


HINT_SECONDS = 1.0
"""How long ``hint`` searches."""


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver play``: a human against the AI in the terminal."""

    if sys.stdin is None or sys.stdin.closed:  # e.g. started with `<&-` by a script or service
        raise UsageError(
            "play reads your moves from standard input, which is closed; run it in a terminal "
            "or give the moves on stdin (`gamesolver play ... < moves.txt`)"
        )
    game = load(args)
    state = position(game, args)
    if game.is_terminal(state):
        raise GameError(f"the game is already over in {format_state(game, state)!r}")
    tablebase = open_tablebase(game, args, io.warn)
    ai = with_book(game, with_tablebase(agent(_ai_spec(args), "--ai"), tablebase), tablebase)
    if ai.interactive:
        raise UsageError(f"invalid --ai {args.ai!r}: the AI must be a computer player")
    if args.save is not None:
        checked_output(args.save, "--save", force=args.force)
    if not args.end_on_repetition and args.max_plies is None:
        raise UsageError("--no-repetition-rule needs --max-plies N, so that games that cycle end")
    first = game.to_move(state)
    human_side = first if args.first == "human" else other(first)
    if (args.seat or args.cells is not None) and not (
        isinstance(game, HasPits) and isinstance(game, HasScore)
    ):
        raise UsageError(
            f"--seat and --cells are for games of pits and stores (e.g. ayoayo), not {game.name!r}"
        )
    cells = CellNumbers()
    if args.cells is not None and isinstance(game, HasPits):  # the row's size is the game's
        cells = CellNumbers.named(args.cells, len(game.pits(state)[0]))
    session = _Session(
        game, state, io, tablebase, human_side, ai.name, cells, args.seat, spec=game_spec(args)
    )
    session.states.append(state)
    human = HumanAgent(ask=session.ask, tell=io.print, show_position=False)
    seats = [human, ai] if human_side == 0 else [ai, human]
    you = player_label(game, human_side)
    io.print(f"{game.name}: you play {you} against {ai.name}; type a move, help, or q to quit.")
    for line in session.lines(state):
        io.print(line)
    for line in book_lines(game, state, tablebase):
        io.print(line)
    said = _play_out(session, seats, args)
    io.print()
    io.print(said, style="bold")
    io.print(f"moves: {session.move_list()}")
    if args.save is not None:
        saved = session.save(args.save, overwrite=args.force)
        if args.save not in session.written:  # e.g. the disk filled during the game
            raise OutputError(saved)
        io.print(saved)
    return EXIT_OK


def _play_out(session: _Session, seats: list[Any], args: argparse.Namespace) -> str:
    """Play the game to its end (taking back moves on ``undo``); how it ended, in words.
    Ctrl-C saves the moves played to ``--save``, then ends the command."""
    game, io = session.game, session.io
    rng = random.Random(args.seed)
    while True:
        played = len(session.moves)
        try:
            record = play_game(
                game,
                seats,
                rng,
                max_plies=None if args.max_plies is None else max(0, args.max_plies - played),
                state=session.current,
                on_move=session.on_move,
                end_on_repetition=args.end_on_repetition,
                history=session.states[:-1],
            )
        except _Undo:
            _take_back(session)
            continue
        except (_Quit, EOFError):
            return "game abandoned: you quit."
        except KeyboardInterrupt:
            io.print()
            io.print(f"moves: {session.move_list()}")
            if args.save is not None:
                io.print(session.save(args.save, overwrite=args.force))
            raise
        return f"result: {_final_result(game, record, session.human_side, len(session.moves))}"


def _take_back(session: _Session) -> None:
    """Undo back to the human's previous turn: their last move and the computer's reply."""
    game, undone = session.game, 0
    while len(session.states) > 1 and (
        undone == 0 or game.to_move(session.states[-1]) != session.human_side
    ):
        session.moves.pop()
        session.states.pop()
        undone += 1
    if not undone:
        session.io.print("nothing to take back")
        return
    session.io.print(f"took back {undone} move{'s' if undone > 1 else ''}")
    for line in session.lines(session.current):
        session.io.print(line)


def _final_result(game: Any, record: Any, human_side: int, plies: int) -> str:
    how = {
        "terminal": "",
        "repetition": f" ({repetition_said(game)})",
        "ply-limit": " (ply limit reached: scored by the position's evaluation)",
    }[record.ended]
    if record.winner is None:
        said = "draw"
    else:
        you = "you win" if record.winner == human_side else "you lose"
        said = f"{player_label(game, record.winner)} wins, {you}"
    return f"{said}; score {num(record.score)} after {plies} plies{how}"
