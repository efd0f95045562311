"""The ``gamesolver`` command: list, solve, analyse, play, match and draw any registered game.

This is the one module that imports the game registry (``games``) and the diagrams (``viz``);
everything it does goes through the Game protocol, so a new game gets every command for free.
Values are reported from player 0's (MAX's) point of view, as everywhere in the project.

Output is rich tables and progress bars on a terminal, plain text when stdout is redirected,
and JSON with ``--json``. Errors go to stderr as ``gamesolver: error: ...`` and never as a
traceback. Exit codes: 0 success; 1 a game error (a bad position, an illegal move, a search the
game cannot support, too many states); 2 a usage error (a bad option, an unknown game, a
malformed game option); 130 interrupted.

>>> args = build_parser().parse_args(["best", "textbook", "--depth", "2"])
>>> args.game, args.algorithm, args.depth
('textbook', 'engine', 2)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

import attrs
from rich import box
from rich.console import Console
from rich.table import Table

from solver.game import (
    GameError,
    HasRender,
    HasStateNotation,
    UnknownGameError,
    format_action,
    format_state,
    other,
    parse_state,
    player_label,
)
from solver.results import SearchResult, format_value, ply_preference

__all__ = ["UsageError", "build_parser", "main"]

PROG = "gamesolver"
EXIT_OK = 0
EXIT_GAME_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
DEFAULT_ANALYSE_SECONDS = 3.0
SEPARATE_SEARCH = "†"
WORSE = "worse"
SEPARATE_SEARCH_NOTE = (
    "† pruned by alpha-beta at the root (its value there is only a bound); "
    "valued here by a separate search of that move"
)


EXAMPLES = """examples:
  gamesolver games
  gamesolver solve tictactoe --out table.csv
  gamesolver best tictactoe --position 'x.o/.x./...'
  gamesolver analyse ayoayo --position '[[2,6,6,1,1,7],[0,2,7,2,7,7]]' --time 2
  gamesolver play ayoayo --ai engine --time 1
  gamesolver match ayoayo minimax:3 random --games 500 --seed 1 --swap
  gamesolver tree textbook --algorithm alphabeta -o alphabeta.svg

Values are from player 0's (MAX's) point of view. Exit codes: 1 game error, 2 usage error."""


class UsageError(Exception):
    """A command-line mistake the user can fix by changing an option (exit code 2)."""


# --------------------------------------------------------------------------------------------
# Output


class Io:
    """Where the command writes: stdout and stderr consoles, plain when not a terminal."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self.out = _console(stdout if stdout is not None else sys.stdout)
        self.err = _console(stderr if stderr is not None else sys.stderr)

    @property
    def fancy(self) -> bool:
        """True when stdout is a terminal (colours, boxes, live progress)."""
        return self.out.is_terminal

    def print(self, text: object = "", style: str | None = None) -> None:
        """Print one line (or a rich renderable) to stdout; plain text has no trailing blanks."""
        if self.fancy:
            self.out.print(text, style=style)
            return
        with self.out.capture() as captured:
            self.out.print(text)
        lines = captured.get().splitlines()
        self.out.file.write("".join(line.rstrip() + "\n" for line in lines) or "\n")
        self.out.file.flush()

    def json(self, data: object) -> None:
        """Write ``data`` as indented JSON to stdout, bypassing rich's wrapping."""
        self.out.file.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        self.out.file.flush()

    def table(self, *columns: str, title: str | None = None) -> Table:
        """A table in the house style: boxed on a terminal, simple rules otherwise."""
        table = Table(
            title=title,
            box=box.SIMPLE_HEAD if self.fancy else box.SIMPLE,
            show_edge=False,
            pad_edge=False,
            title_justify="left",
            title_style="bold" if self.fancy else "",
            header_style="bold" if self.fancy else "",
        )
        for column in columns:
            justify = "right" if column.startswith(">") else "left"
            table.add_column(column.lstrip(">"), justify=justify)  # type: ignore[arg-type]
        return table


def _console(stream: TextIO) -> Console:
    return Console(
        file=stream,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
        width=_width(stream),
    )


def _width(stream: TextIO) -> int | None:
    """The terminal's width; when not a terminal, wide enough that tables do not wrap."""
    isatty = getattr(stream, "isatty", None)
    return None if isatty is not None and isatty() else 160


def _num(value: float | None) -> str:
    """A value as people write it (:func:`~solver.results.format_value`), ``-`` for None.

    >>> _num(3.0), _num(-0.5), _num(float("inf")), _num(None)
    ('3', '-0.5', '+∞', '-')
    """
    if value is None or _isnan(value):
        return "-"
    return format_value(value)


def _isnan(value: float | None) -> bool:
    return value is not None and isinstance(value, float) and math.isnan(value)


def _json_num(value: float | None) -> float | int | None:
    """A value for JSON: ints stay ints, infinities become None."""
    if value is None or math.isinf(value) or math.isnan(value):
        return None
    return int(value) if float(value).is_integer() else float(value)


def _jsonable(value: Any) -> Any:
    """An action or other game object as JSON: ints/strings as they are, tuples as lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return repr(value)


# --------------------------------------------------------------------------------------------
# Games, positions, players


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's constructor options: ``-O KEY=VALUE`` (JSON values) and ``--tree JSON``."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or ():
        key, sep, raw = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise UsageError(
                f"invalid game option {item!r}: expected KEY=VALUE, e.g. -O labels=aima"
            )
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    text = getattr(args, "tree", None)
    if text is not None:
        try:
            tree = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"invalid --tree {text!r}: {exc.msg} at character {exc.pos}; "
                "expected JSON nested lists of leaf values, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'"
            ) from None
        if not isinstance(tree, list):
            raise UsageError(
                f"invalid --tree {text!r}: expected a JSON list of subtrees and leaf values, "
                "e.g. '[[3,12,8],[2,4,6],[14,5,2]]'"
            )
        options["tree"] = tree
    return options


def load(args: argparse.Namespace) -> Any:
    """The game named on the command line, with its options (``--tree``)."""
    from games import load_game

    options = _game_options(args)
    try:
        return load_game(args.game, **options)
    except UnknownGameError as exc:
        raise UsageError(str(exc)) from None
    except GameError as exc:
        if options:
            raise UsageError(f"invalid game option for {args.game!r}: {exc}") from None
        raise
    except TypeError as exc:  # a game constructor that does not take the option
        raise UsageError(f"game {args.game!r} does not take the option(s) given: {exc}") from None


def position(game: Any, args: argparse.Namespace) -> Any:
    """The state given by ``--position`` (and ``--captured``/``--to-move``), else the start.

    ``--captured C0,C1`` and ``--to-move P`` are for games whose states have those fields
    (Ayòayò). They are appended to the position text in the notation such games read
    (``... captured C0,C1 to-move P``, as ``format_state`` writes it), so the game's own parser
    checks them together with the board (e.g. that the seeds add up). Without ``--position``
    they go to the game's ``state_from(board, captured=..., to_move=...)``.
    """
    text: str | None = getattr(args, "position", None)
    extras = _extra_fields(args)
    if extras:
        _check_extras_apply(game, extras)
    if text is None:
        return _with_extras(game, game.initial_state(), extras) if extras else game.initial_state()
    if extras:
        text = " ".join([text, *_extra_text(extras)])
    try:
        return parse_state(game, text)  # the game's errors quote the text and say what is valid
    except GameError as exc:
        if extras:
            raise type(exc)(f"{exc} (in {text!r}, with {_option_names(extras)})") from None
        raise
    except ValueError as exc:  # a game parser that let a plain ValueError through
        raise GameError(f"invalid position {text!r} for {game.name}: {exc}") from None


def _extra_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    captured = getattr(args, "captured", None)
    if captured is not None:
        fields["captured"] = captured
    to_move = getattr(args, "to_move", None)
    if to_move is not None:
        fields["to_move"] = to_move
    return fields


def _option_names(extras: Mapping[str, Any]) -> str:
    return "/".join(f"--{name.replace('_', '-')}" for name in extras)


def _check_extras_apply(game: Any, extras: Mapping[str, Any]) -> None:
    start = game.initial_state()
    lacking = [name for name in extras if not hasattr(start, name)]
    if lacking or not isinstance(game, HasStateNotation):
        raise UsageError(
            f"game {game.name!r} has no {' or '.join(lacking) or 'position notation'} in its "
            f"positions, so {_option_names(extras)} cannot be used; give the whole --position"
        )


def _extra_text(extras: Mapping[str, Any]) -> list[str]:
    words = []
    if "captured" in extras:
        words.append("captured " + ",".join(str(n) for n in extras["captured"]))
    if "to_move" in extras:
        words.append(f"to-move {extras['to_move']}")
    return words


def _with_extras(game: Any, state: Any, extras: Mapping[str, Any]) -> Any:
    """The start position with other captured counts / side to move, via ``state_from``."""
    state_from = getattr(game, "state_from", None)
    if state_from is None or not hasattr(state, "board"):
        raise UsageError(
            f"game {game.name!r} cannot build a position from {_option_names(extras)} alone; "
            "give the whole --position"
        )
    fields = {
        name: getattr(state, name) for name in ("captured", "to_move") if hasattr(state, name)
    }
    fields.update(extras)
    return state_from(state.board, **fields)


def outcome(game: Any, value: float, *, exact: bool = True, plies: int | None = None) -> str:
    """Who wins, in words: ``"draw"``, ``"X wins in 5 plies"``, or a horizon estimate."""
    if not exact:
        if value == 0:
            return "level at the horizon"
        side = player_label(game, 0 if value > 0 else 1)
        return f"{side} ahead by {_num(abs(value))} at the horizon"
    tail = "" if plies is None else f" in {plies} pl{'y' if plies == 1 else 'ies'}"
    if value == 0:
        return f"draw{' after ' + str(plies) + ' plies' if plies else ''}"
    margin = "" if abs(value) == 1 else f" by {_num(abs(value))}"
    return f"{player_label(game, 0 if value > 0 else 1)} wins{margin}{tail}"


def board_lines(game: Any, state: Any) -> list[str]:
    """The picture of ``state`` (the game's ``render``, else its notation) and who moves."""
    lines: list[str] = []
    picture = ""
    if isinstance(game, HasRender):
        picture = game.render(state).rstrip("\n")
        lines.extend(picture.splitlines())
        if isinstance(game, HasStateNotation):
            lines.append(f"position: {game.format_state(state)}")
    else:
        lines.append(f"position: {format_state(game, state)}")
    said = picture.lower()  # do not repeat what the game's own picture already says
    if game.is_terminal(state):
        if "game over" not in said:
            lines.append(f"game over: {outcome(game, game.utility(state))}")
    elif "to move" not in said:
        lines.append(f"to move: {player_label(game, game.to_move(state))}")
    return lines


def _pv_steps(game: Any, state: Any, pv: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    """Each move of a principal variation with the position it is played in, up to the end."""
    for action in pv:
        if game.is_terminal(state):
            return
        yield state, action
        state = game.result(state, action)


def pv_text(game: Any, state: Any, pv: Sequence[Any]) -> str:
    """The principal variation written move by move: ``MAX plays 4, MIN plays 0, ...``."""
    parts = [
        f"{player_label(game, game.to_move(before))} plays {format_action(game, before, action)}"
        for before, action in _pv_steps(game, state, pv)
    ]
    return ", ".join(parts) if parts else "(none: the game is over)"


def _pv_notation(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    """The moves of a principal variation in the game's notation, each in its own position."""
    return [format_action(game, before, action) for before, action in _pv_steps(game, state, pv)]


def _pv_moves(game: Any, state: Any, pv: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "player": game.to_move(before),
            "move": format_action(game, before, action),
            "action": _jsonable(action),
        }
        for before, action in _pv_steps(game, state, pv)
    ]


# --------------------------------------------------------------------------------------------
# Move tables (best, analyse)


@attrs.define
class MoveRow:
    """One legal root move: its value, plies to the end and whether it keeps the value.

    ``note`` is :data:`SEPARATE_SEARCH` when the value came from a search of its own (a move
    alpha-beta pruned at the root), or says why there is no value.
    """

    action: Any
    notation: str
    value: float | None = None
    plies: int | None = None
    optimal: bool = False
    chosen: bool = False
    note: str = ""


def move_rows(
    game: Any,
    state: Any,
    result: SearchResult,
    exact_child: Callable[[Any], tuple[float, int | None]] | None = None,
) -> list[MoveRow]:
    """Every legal move of ``state`` with its value from ``result``.

    Moves the search did not value exactly (alpha-beta bounds) are valued by ``exact_child``
    (a search of the child position) when given, and marked otherwise.
    """
    rows = []
    values: Mapping[Any, float] = result.action_values
    plies_of: Mapping[Any, int | None] = result.action_plies
    for action in game.actions(state):
        row = MoveRow(action, format_action(game, state, action))
        if action in values:
            row.value = values[action]
            row.plies = plies_of.get(action)
        elif exact_child is not None:
            value, plies = exact_child(game.result(state, action))
            row.value = value
            row.plies = None if plies is None else plies + 1
            row.note = SEPARATE_SEARCH
        else:
            row.note = WORSE
        rows.append(row)
    best = list(result.best_actions)
    for row in rows:
        row.optimal = row.action in best if best else row.value == result.value
        row.chosen = row.action == result.best_action
    return rows


def _preferred_order(game: Any, state: Any, rows: list[MoveRow]) -> list[MoveRow]:
    """Rows best first for the player to move: value, then quickest win / slowest loss."""
    sign = 1 if game.to_move(state) == 0 else -1

    def key(row: MoveRow) -> tuple[float, int]:
        if row.value is None:
            return (math.inf, 0)
        mover_value = sign * row.value
        plies = ply_preference(mover_value, row.plies) if row.plies is not None else 0
        return (-mover_value, plies)

    return sorted(rows, key=key)


def moves_table(
    io: Io, game: Any, state: Any, rows: list[MoveRow], *, value: float, exact: bool
) -> Table:
    """The table of root moves: move, value (or bound), plies to the end, mark, outcome."""
    columns = ["move", ">value"]
    if exact:
        columns.append(">plies to end")
    columns += ["", "outcome"]
    table = io.table(*columns)
    for row in _preferred_order(game, state, rows):
        mark = "best" if row.chosen else ("optimal" if row.optimal else "")
        shown = _num(row.value)
        if row.value is None:
            said = "worse than the best move (pruned: only a bound is known)"
            if row.note == WORSE and not _isnan(value):
                shown = ("< " if game.to_move(state) == 0 else "> ") + _num(value)
        else:
            said = outcome(game, row.value, exact=exact, plies=row.plies)
        cells = [row.notation + (row.note if row.note == SEPARATE_SEARCH else ""), shown]
        if exact:
            cells.append("-" if row.plies is None else str(row.plies))
        cells += [mark, said]
        table.add_row(*cells, style="bold" if row.chosen and io.fancy else None)
    return table


def best_move(
    game: Any, state: Any, result: SearchResult, missing: str | None = None
) -> str | None:
    """The best move of ``result`` in the game's notation, or ``missing`` when it has none."""
    if result.best_action is None:
        return missing
    return format_action(game, state, result.best_action)


def stats_dict(result: SearchResult) -> dict[str, Any]:
    """The search figures of ``result`` as plain data."""
    stats = result.stats
    return {
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "table_hits": stats.table_hits,
        "seconds": round(stats.seconds, 6),
        "nodes_per_second": round(stats.nodes_per_second),
    }


def stats_line(result: SearchResult) -> str:
    """The search figures in one line."""
    stats = result.stats
    depth = "to the end" if result.depth is None else f"depth {result.depth}"
    parts = [
        depth,
        f"{stats.nodes:,} nodes",
        f"{stats.leaves:,} leaves",
        f"{stats.cutoffs:,} cut-offs",
        f"{stats.table_hits:,} table hits",
        f"{stats.seconds:.3f} s",
        f"{stats.nodes_per_second:,.0f} nodes/s",
    ]
    return ", ".join(parts)


def result_json(
    game: Any, state: Any, result: SearchResult, rows: list[MoveRow], **extra: Any
) -> dict[str, Any]:
    """The answer of ``best`` / ``analyse`` as JSON-ready data."""
    return {
        "game": game.name,
        "position": format_state(game, state),
        "to_move": None if game.is_terminal(state) else game.to_move(state),
        **extra,
        "value": _json_num(result.value),
        "exact": result.exact,
        "complete": result.complete,
        "depth": result.depth,
        "outcome": outcome(game, result.value, exact=result.exact, plies=result.plies),
        "plies": result.plies,
        "best_move": best_move(game, state, result),
        "optimal_moves": [r.notation for r in rows if r.optimal],
        "moves": [
            {
                "move": r.notation,
                "action": _jsonable(r.action),
                "value": _json_num(r.value),
                "plies": r.plies,
                "optimal": r.optimal,
                "best": r.chosen,
            }
            for r in rows
        ],
        "pv": _pv_moves(game, state, result.pv),
        "stats": stats_dict(result),
    }


# --------------------------------------------------------------------------------------------
# Commands


def cmd_games(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver games``: the registered games with one-line descriptions."""
    from games import available_games, game_info

    entries = []
    for name in available_games():
        try:
            info = game_info(name)
            entries.append({"name": name, "description": info.summary, "source": info.source})
        except GameError as exc:  # a broken third-party plug-in must not break the listing
            entries.append({"name": name, "description": f"(cannot be loaded: {exc})"})
    if args.json:
        io.json(entries)
        return EXIT_OK
    table = io.table("game", "description")
    for entry in entries:
        source = entry.get("source", "built-in")
        extra = "" if source == "built-in" else f" [{source}]"
        table.add_row(entry["name"], entry["description"] + extra)
    io.print(table)
    io.print()
    io.print("options: textbook takes --tree '[[3,12,8],[2,4,6],[14,5,2]]'; any game: -O KEY=VALUE")
    return EXIT_OK


def cmd_solve(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver solve``: every reachable state, the game's value, counts, an optional table."""
    from solver.solve import TooManyStatesError, solve

    game = load(args)
    state = position(game, args)
    out_path = args.out
    if out_path is not None and not out_path.lower().endswith((".json", ".csv")):
        raise UsageError(f"invalid --out {out_path!r}: the file name must end in .json or .csv")
    with progress_bar(io, f"solving {game.name}", total=None, unit="states") as advance:
        try:
            solution = solve(game, state, max_states=args.max_states, progress=advance)
        except TooManyStatesError as exc:
            raise TooManyStatesError(
                f"{game.name} has more than {args.max_states:,} reachable states (--max-states); "
                "raise --max-states N or solve from a later --position",
                exc.states_seen,
            ) from None
    counts = solution.counts
    plies = solution.plies(state)
    best = [format_action(game, state, a) for a in solution.best_actions(state)]
    if out_path is not None:
        if out_path.lower().endswith(".json"):
            solution.to_json(out_path)
        else:
            solution.to_csv(out_path)
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "value": _json_num(counts.value),
                "outcome": outcome(game, counts.value, plies=plies),
                "plies": plies,
                "optimal_moves": best,
                "states": counts.states,
                "terminal": counts.terminal,
                "wins": counts.wins,
                "draws": counts.draws,
                "losses": counts.losses,
                "seconds": round(counts.seconds, 6),
                "out": out_path,
            }
        )
        return EXIT_OK
    for line in board_lines(game, state):
        io.print(line)
    io.print()
    io.print(f"value: {_num(counts.value)} ({outcome(game, counts.value, plies=plies)})")
    if best:
        io.print(f"optimal moves: {', '.join(best)}")
    table = io.table("", ">count")
    table.add_row("reachable states", f"{counts.states:,}")
    table.add_row("terminal states", f"{counts.terminal:,}")
    table.add_row(f"  won by {player_label(game, 0)} (utility > 0)", f"{counts.wins:,}")
    table.add_row("  drawn (utility = 0)", f"{counts.draws:,}")
    table.add_row(f"  won by {player_label(game, 1)} (utility < 0)", f"{counts.losses:,}")
    io.print(table)
    io.print(f"solved in {counts.seconds:.3f} s")
    if out_path is not None:
        io.print(f"wrote {len(solution):,} states to {out_path}")
    return EXIT_OK


def cmd_best(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver best``: every legal move valued, the optimal ones, the PV and the figures."""
    game = load(args)
    state = position(game, args)
    if args.time is not None and args.algorithm != "engine":
        raise UsageError(
            f"--time limits the engine only, not {args.algorithm!r}; "
            "use --algorithm engine, or --depth N for the teaching searches"
        )
    search = _searcher(args.algorithm, args.depth, args.time)
    result = search(game, state)

    def exact_child(child: Any) -> tuple[float, int | None]:
        depth = None if args.depth is None else args.depth - 1
        if depth == 0:
            return (_horizon_value(game, child), 0)
        child_result = _searcher(args.algorithm, depth, None)(game, child)
        return (child_result.value, child_result.plies)

    # Value the moves a pruning search only bounded, unless a limit stopped the search.
    rows = move_rows(game, state, result, exact_child if result.complete else None)
    if args.json:
        io.json(result_json(game, state, result, rows, algorithm=args.algorithm))
        return EXIT_OK
    _print_answer(io, game, state, result, rows, title=f"{args.algorithm} search")
    return EXIT_OK


def _horizon_value(game: Any, state: Any) -> float:
    if game.is_terminal(state):
        return float(game.utility(state))
    return float(game.evaluate(state))


def _searcher(
    algorithm: str, depth: int | None, time_limit: float | None
) -> Callable[[Any, Any], SearchResult]:
    if algorithm == "engine":
        from solver.engine import search

        return lambda game, state: search(game, state, depth=depth, time_limit=time_limit)
    from solver import minimax

    teaching = minimax.minimax if algorithm == "minimax" else minimax.alphabeta
    return lambda game, state: teaching(game, state, depth=depth)


def _print_answer(
    io: Io,
    game: Any,
    state: Any,
    result: SearchResult,
    rows: list[MoveRow],
    title: str,
    board: bool = True,
) -> None:
    if board:
        for line in board_lines(game, state):
            io.print(line)
        io.print()
    if game.is_terminal(state):
        return
    if not result.complete:
        if result.depth:
            io.print(f"stopped during depth {result.depth + 1}: answers from depth {result.depth}")
        else:
            io.print("stopped before depth 1 completed: no move was searched; showing a guess")
    if _isnan(result.value):
        io.print("value: unknown (the game has no evaluation function)", style="bold")
    else:
        said = outcome(game, result.value, exact=result.exact, plies=result.plies)
        where = "" if result.exact or result.depth is None else f" at depth {result.depth}"
        io.print(f"value{where}: {_num(result.value)} ({said})", style="bold")
    io.print(moves_table(io, game, state, rows, value=result.value, exact=result.exact))
    if any(row.note == SEPARATE_SEARCH for row in rows):
        io.print(SEPARATE_SEARCH_NOTE)
    io.print()
    best = best_move(game, state, result, missing="-")
    optimal = [r.notation for r in rows if r.optimal]
    io.print(f"best move: {best}")
    io.print(f"optimal moves: {', '.join(optimal) if optimal else '-'}")
    io.print(f"principal variation: {pv_text(game, state, result.pv)}")
    io.print(f"{title}: {stats_line(result)}")


def cmd_analyse(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver analyse``: the engine on one position, a line per depth, then the answer."""
    from solver.engine import search

    game = load(args)
    state = position(game, args)
    if game.is_terminal(state):
        if args.json:
            io.json(
                {
                    "game": game.name,
                    "position": format_state(game, state),
                    "over": True,
                    "value": _json_num(game.utility(state)),
                    "outcome": outcome(game, game.utility(state)),
                }
            )
        else:
            for line in board_lines(game, state):
                io.print(line)
        return EXIT_OK
    time_limit = args.time
    if args.depth is None and time_limit is None:
        time_limit = DEFAULT_ANALYSE_SECONDS
    if not args.json:
        for line in board_lines(game, state):
            io.print(line)
        io.print()
        limit = f"depth {args.depth}" if args.depth is not None else ""
        if time_limit is not None:
            limit += (" or " if limit else "") + f"{time_limit:g} s"
        io.print(f"searching ({limit}; Ctrl-C stops and shows the best answer so far)")
    completed: list[SearchResult] = []

    def on_depth(result: SearchResult) -> None:
        completed.append(result)
        if not args.json:
            io.print(depth_line(game, state, result))

    try:
        result = search(
            game,
            state,
            depth=args.depth,
            time_limit=time_limit,
            seed=args.seed,
            on_depth=on_depth,
            all_values=True,  # the table gives every legal move its value, not just a bound
        )
    except KeyboardInterrupt:
        if not completed:
            raise
        result = completed[-1]  # interrupted outside the engine's own handling
    rows = move_rows(game, state, result)
    if args.json:
        io.json(result_json(game, state, result, rows, algorithm="engine", time_limit=time_limit))
        return EXIT_OK
    io.print()
    _print_answer(io, game, state, result, rows, title="engine", board=False)
    return EXIT_OK


def depth_line(game: Any, state: Any, result: SearchResult) -> str:
    """One line for a completed iteration: depth, value, best move, PV, nodes, time."""
    depth = "end" if result.depth is None else str(result.depth)
    best = best_move(game, state, result, missing="-")
    pv = " ".join(_pv_notation(game, state, result.pv))
    stats = result.stats
    return (
        f"depth {depth:>3}  value {_num(result.value):>5}  best {best:<4}  "
        f"{stats.nodes:>11,} nodes  {stats.seconds:7.2f} s  pv {pv}"
    )


TREE_FORMATS = (".svg", ".png", ".pdf", ".dot", ".gv", ".json")


def cmd_tree(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver tree``: draw the tree a teaching search explored, or its frames."""
    import viz

    if args.output is None and args.frames is None and args.html is None:
        raise UsageError("say where to draw the tree: -o FILE.svg (or --frames DIR / --html FILE)")
    if args.output is not None and not args.output.lower().endswith(TREE_FORMATS):
        raise UsageError(
            f"invalid -o {args.output!r}: the file name must end in {', '.join(TREE_FORMATS)}"
        )
    if args.html is not None and not args.html.lower().endswith((".html", ".htm")):
        raise UsageError(f"invalid --html {args.html!r}: the file name must end in .html")
    game = load(args)
    state = position(game, args)
    leaf_label = _captured_label if hasattr(state, "captured") and args.leaf_captured else None
    try:
        tree = viz.game_tree(
            game,
            state,
            depth=args.depth,
            algorithm=args.algorithm,
            transpositions=args.transpositions,
            collapse=args.collapse,
            fold_symmetries=args.fold_symmetries,
            max_nodes=args.max_nodes,
            leaf_label=leaf_label,
        )
        looks = {"boards": args.boards, "alpha_beta_labels": args.alpha_beta_labels}
        written = []
        if args.output is not None:
            written.append(str(viz.render(tree, args.output, title=args.title, **looks)))
        if args.frames is not None:
            frames = viz.write_frames(tree, args.frames, format=args.frame_format, **looks)
            written.append(f"{len(frames)} frames in {args.frames}")
        if args.html is not None:
            written.append(str(viz.write_html(tree, args.html, title=args.title, **looks)))
    except viz.UnknownFormatError as exc:
        raise UsageError(str(exc)) from None
    except viz.TooManyNodesError as exc:
        raise viz.TooManyNodesError(
            f"the diagram would draw {exc.nodes:,} nodes, more than --max-nodes "
            f"{exc.max_nodes:,}; shrink it with --depth N, --collapse, --transpositions or "
            "--fold-symmetries, or raise --max-nodes",
            nodes=exc.nodes,
            max_nodes=exc.max_nodes,
        ) from None
    result = tree.result
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "algorithm": args.algorithm,
                "depth": args.depth,
                "value": _json_num(result.value),
                "best_move": best_move(game, state, result),
                "pv": _pv_moves(game, state, result.pv),
                "nodes_drawn": tree.graph.number_of_nodes(),
                "nodes_searched": tree.searched,
                "pruned": tree.pruned,
                "written": written,
            }
        )
        return EXIT_OK
    best = best_move(game, state, result, missing="-")
    io.print(
        f"{args.algorithm} from {format_state(game, state)}: value {_num(result.value)}, "
        f"best move {best}"
    )
    io.print(f"principal variation: {pv_text(game, state, result.pv)}")
    io.print(
        f"{tree.graph.number_of_nodes():,} nodes drawn, {tree.searched:,} searched, "
        f"{tree.pruned:,} pruned"
    )
    for item in written:
        io.print(f"wrote {item}")
    return EXIT_OK


def _captured_label(state: Any) -> str:
    """A leaf label with the seeds each player captured, as the Ayòayò article writes it."""
    return "[" + ", ".join(str(n) for n in state.captured) + "]"


class _Quit(Exception):
    """The human typed q (or quit/exit) at the move prompt."""


QUIT_WORDS = ("q", "quit", "exit")


def _ai_spec(args: argparse.Namespace) -> str:
    """The AI's agent spec from ``--ai`` plus ``--time`` / ``--depth`` for a bare ``engine``."""
    spec: str = args.ai.strip()
    if spec.lower() == "engine":
        if args.depth is not None:
            return f"engine:d{args.depth}"
        return f"engine:{args.time:g}" if args.time is not None else "engine"
    if spec.lower() in ("minimax", "alphabeta"):
        depth = args.depth if args.depth is not None else 3
        return f"{spec.lower()}:{depth}"
    if args.time is not None or args.depth is not None:
        raise UsageError(
            f"--time/--depth go with a bare --ai engine (or minimax/alphabeta), not {spec!r}; "
            "write the limit in the spec instead, e.g. --ai engine:0.5 or --ai minimax:4"
        )
    return spec


def _agent(spec: str, role: str) -> Any:
    from solver.match import AgentError, parse_agent

    try:
        return parse_agent(spec)
    except AgentError as exc:
        raise UsageError(f"invalid {role}: {exc}") from None


def captured_change(before: Any, after: Any) -> tuple[int, ...] | None:
    """Seeds (or pieces) captured by a move, per player, when states have ``captured``.

    >>> class S:
    ...     def __init__(self, captured): self.captured = captured
    >>> captured_change(S((4, 0)), S((12, 0)))
    (8, 0)
    >>> captured_change(object(), object()) is None
    True
    """
    old = getattr(before, "captured", None)
    new = getattr(after, "captured", None)
    if old is None or new is None:
        return None
    try:
        return tuple(int(b) - int(a) for a, b in zip(old, new, strict=False))
    except (TypeError, ValueError):
        return None


def cmd_play(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver play``: a human against the AI in the terminal."""
    import random

    from solver.match import HumanAgent, play_game

    game = load(args)
    state = position(game, args)
    if game.is_terminal(state):
        raise GameError(f"the game is already over in {format_state(game, state)!r}")
    ai = _agent(_ai_spec(args), "--ai")
    if ai.interactive:
        raise UsageError(f"invalid --ai {args.ai!r}: the AI must be a computer player")

    def ask(prompt: str) -> str:
        io.out.file.flush()
        text = input(prompt)
        if not sys.stdin.isatty():  # echo scripted input so the transcript reads like a session
            io.out.file.write(text + "\n")
        if text.strip().lower() in QUIT_WORDS:
            raise _Quit
        return text

    human = HumanAgent(ask=ask, tell=io.print, show_position=False)
    first = game.to_move(state)
    human_side = first if args.first == "human" else other(first)
    seats = [human, ai] if human_side == 0 else [ai, human]
    you = player_label(game, human_side)
    io.print(f"{game.name}: you play {you} against {ai.name}; type a move, or q to quit.")
    for line in board_lines(game, state):
        io.print(line)

    def on_move(ply: int, before: Any, action: Any, after: Any) -> None:
        mover = game.to_move(before)
        who = "you" if mover == human_side else ai.name
        io.print()
        io.print(
            f"{ply}. {player_label(game, mover)} ({who}) plays "
            f"{format_action(game, before, action)}",
            style="bold",
        )
        gained = captured_change(before, after)
        if gained is not None and any(gained):
            parts = [f"{player_label(game, p)} +{n}" for p, n in enumerate(gained) if n]
            totals = ", ".join(str(n) for n in after.captured)
            io.print(f"captured: {', '.join(parts)} (now {totals})")
        for line in board_lines(game, after):
            io.print(line)

    try:
        record = play_game(
            game,
            seats,
            random.Random(args.seed),
            max_plies=args.max_plies,
            state=state,
            on_move=on_move,
        )
    except (_Quit, EOFError):
        io.print()
        io.print("game abandoned: you quit.")
        return EXIT_OK
    io.print()
    io.print(f"result: {_final_result(game, record, human_side)}", style="bold")
    return EXIT_OK


def _final_result(game: Any, record: Any, human_side: int) -> str:
    how = {
        "terminal": "",
        "repetition": " (a position repeated: scored by the position's evaluation)",
        "ply-limit": " (ply limit reached: scored by the position's evaluation)",
    }[record.ended]
    if record.winner is None:
        said = "draw"
    else:
        you = "you win" if record.winner == human_side else "you lose"
        said = f"{player_label(game, record.winner)} wins, {you}"
    return f"{said}; score {_num(record.score)} after {record.plies} plies{how}"


def cmd_match(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver match``: two agents play many games; the table of results."""
    import functools

    from games import load_game
    from solver.match import run_match

    game = load(args)
    agent_a = _agent(args.agent_a, "agent A")
    agent_b = _agent(args.agent_b, "agent B")
    workers = args.workers
    if workers is not None and workers > 1 and (agent_a.interactive or agent_b.interactive):
        raise UsageError("a human agent cannot play with --workers > 1; leave --workers out")
    if not args.end_on_repetition and args.max_plies is None:
        raise UsageError("--no-repetition-rule needs --max-plies N, so that games that cycle end")
    factory = functools.partial(load_game, args.game, **_game_options(args))
    with progress_bar(io, f"{args.agent_a} vs {args.agent_b}", total=args.games) as advance:
        result = run_match(
            factory if workers is not None and workers > 1 else game,
            args.agent_a,
            args.agent_b,
            games=args.games,
            seed=args.seed,
            swap=args.swap,
            workers=workers,
            max_plies=args.max_plies,
            end_on_repetition=args.end_on_repetition,
            progress=lambda done, total: advance(done),
        )
    if args.json:
        io.json(result.to_dict())
        return EXIT_OK
    io.print(result.table())
    io.print(f"{result.games:,} games in {result.wall_seconds:.2f} s on {result.workers} worker(s)")
    return EXIT_OK


@contextmanager
def progress_bar(
    io: Io, label: str, total: int | None, unit: str = ""
) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal; yields ``advance(completed)``."""
    if not io.err.is_terminal:
        yield lambda completed: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    counter = (
        MofNCompleteColumn() if total is not None else TextColumn(f"{{task.completed:,}} {unit}")
    )
    columns = [TextColumn("{task.description}"), BarColumn(), counter]
    with Progress(*columns, TimeElapsedColumn(), console=io.err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda completed: bar.update(task, completed=completed)


def _parse_captured(text: str) -> tuple[int, int]:
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        numbers = ()
    if len(numbers) != 2 or min(numbers) < 0:
        raise argparse.ArgumentTypeError(
            f"invalid --captured {text!r}: expected two non-negative whole numbers, e.g. 0,0"
        )
    return (numbers[0], numbers[1])


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a whole number >= 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: expected a number of seconds > 0"
        )
    return value


def _player_number(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"invalid player {text!r}: expected 0 or 1")
    return int(text)


# --------------------------------------------------------------------------------------------
# Parser and entry point


class _Parser(argparse.ArgumentParser):
    """argparse, but ``error`` raises UsageError so ``main`` can return instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}\n{self.format_usage().rstrip()}")


Handler = Callable[[argparse.Namespace, Io], int]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gamesolver`` with all its subcommands."""
    parser = _Parser(
        prog=PROG,
        description="Solve, analyse, play and draw two-player zero-sum perfect-information games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(
        name: str, handler: Handler, help_text: str, aliases: Sequence[str] = ()
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text, aliases=aliases)
        sub.set_defaults(handler=handler)
        return sub

    def game_arguments(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("game", metavar="GAME", help="a registered game (see `gamesolver games`)")
        sub.add_argument(
            "--tree",
            metavar="JSON",
            help="textbook game: the tree as nested lists, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'",
        )
        sub.add_argument(
            "--option",
            "-O",
            metavar="KEY=VALUE",
            action="append",
            help="an option for the game's constructor (VALUE in JSON, else a string)",
        )

    def position_argument(sub: argparse.ArgumentParser, required: bool = False) -> None:
        sub.add_argument(
            "--position",
            "-p",
            metavar="P",
            required=required,
            help="the position in the game's notation (default: the start)",
        )

    def extra_fields(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--captured",
            type=_parse_captured,
            metavar="C0,C1",
            help="seeds captured so far by players 0 and 1 (games with captures, e.g. ayoayo)",
        )
        sub.add_argument(
            "--to-move",
            type=_player_number,
            metavar="P",
            help="the player to move, 0 or 1 (games whose positions store it, e.g. ayoayo)",
        )

    games = command("games", cmd_games, "list the registered games")
    games.add_argument("--json", action="store_true", help="print JSON")

    solve = command("solve", cmd_solve, "solve a game: every reachable state's exact value")
    game_arguments(solve)
    position_argument(solve)
    extra_fields(solve)
    solve.add_argument(
        "--out", "-o", metavar="FILE", help="write every state's record to FILE.json or FILE.csv"
    )
    solve.add_argument(
        "--max-states",
        type=_positive_int,
        default=2_000_000,
        metavar="N",
        help="stop with an error beyond N states (default 2,000,000)",
    )
    solve.add_argument("--json", action="store_true", help="print JSON")

    best = command("best", cmd_best, "value every legal move of a position and show best play")
    game_arguments(best)
    position_argument(best)
    best.add_argument(
        "--algorithm",
        "-a",
        choices=("minimax", "alphabeta", "engine"),
        default="engine",
        help="search algorithm (default: engine)",
    )
    best.add_argument(
        "--depth", "-d", type=_positive_int, help="search depth (default: to the end)"
    )
    best.add_argument("--time", type=_positive_float, metavar="S", help="engine: time limit")
    extra_fields(best)
    best.add_argument("--json", action="store_true", help="print JSON")

    analyse = command(
        "analyse",
        cmd_analyse,
        "analyse a position with the engine, deeper and deeper",
        aliases=("analyze",),
    )
    game_arguments(analyse)
    position_argument(analyse)
    extra_fields(analyse)
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", "-d", type=_positive_int, metavar="N", help="search depth N")
    limit.add_argument(
        "--time",
        "-t",
        type=_positive_float,
        metavar="S",
        help=f"search for S seconds (default {DEFAULT_ANALYSE_SECONDS:g} without --depth)",
    )
    analyse.add_argument("--seed", type=int, help="break ties between equal moves at random")
    analyse.add_argument("--json", action="store_true", help="print JSON")

    tree = command("tree", cmd_tree, "draw the game tree a search explores (for teaching)")
    game_arguments(tree)
    position_argument(tree)
    extra_fields(tree)
    tree.add_argument("--depth", "-d", type=_positive_int, metavar="N", help="search depth")
    tree.add_argument(
        "--algorithm",
        "-a",
        choices=("minimax", "alphabeta"),
        default="minimax",
        help="the search to draw (default: minimax)",
    )
    tree.add_argument("--boards", action="store_true", help="draw boards inside the nodes")
    tree.add_argument(
        "--alpha-beta-labels", action="store_true", help="write the α/β window at each node"
    )
    tree.add_argument(
        "--transpositions", action="store_true", help="merge identical positions (a DAG)"
    )
    tree.add_argument(
        "--collapse", action="store_true", help="summarise subtrees off the principal path"
    )
    tree.add_argument(
        "--fold-symmetries", action="store_true", help="fold positions equal up to symmetry"
    )
    tree.add_argument(
        "--max-nodes",
        type=_positive_int,
        default=1000,
        metavar="N",
        help="refuse to draw more than N nodes (default 1000)",
    )
    tree.add_argument(
        "--no-captured-leaves",
        dest="leaf_captured",
        action="store_false",
        help="do not write captured seeds [p1, p2] in the leaves (games with captures)",
    )
    tree.add_argument("--title", help="a title for the diagram")
    tree.add_argument("--output", "-o", metavar="FILE", help="FILE.svg, .png, .pdf, .dot or .json")
    steps = tree.add_mutually_exclusive_group()
    steps.add_argument("--frames", metavar="DIR", help="write one picture per step into DIR")
    steps.add_argument("--html", metavar="FILE", help="write a step-by-step page to FILE.html")
    tree.add_argument(
        "--frame-format",
        choices=("svg", "png"),
        default="svg",
        help="picture format of --frames (default: svg)",
    )
    tree.add_argument("--json", action="store_true", help="print a JSON summary")

    play = command("play", cmd_play, "play against the computer in the terminal")
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
        help="the computer player: engine (with --time S or --depth N), engine:S, engine:dN, "
        "minimax:D, alphabeta:D or random (default: engine, 1 s a move)",
    )
    play.add_argument("--time", type=_positive_float, metavar="S", help="engine: seconds a move")
    play.add_argument("--depth", type=_positive_int, metavar="N", help="engine/minimax: depth")
    play.add_argument("--seed", type=int, default=None, help="seed for the AI's tie-breaks")
    play.add_argument("--max-plies", type=_positive_int, metavar="N", help="stop after N plies")

    match = command("match", cmd_match, "play many games between two agents and count results")
    game_arguments(match)
    match.add_argument("agent_a", metavar="A", help="agent A (moves first unless --swap)")
    match.add_argument("agent_b", metavar="B", help="agent B")
    match.add_argument("--games", "-n", type=_positive_int, default=100, help="games (100)")
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument("--swap", action="store_true", help="alternate who moves first")
    match.add_argument("--workers", "-j", type=_positive_int, help="worker processes")
    match.add_argument("--max-plies", type=_positive_int, metavar="N", help="ply limit per game")
    match.add_argument(
        "--no-repetition-rule",
        dest="end_on_repetition",
        action="store_false",
        help="play on through repeated positions, as the Ayòayò reference does (needs "
        "--max-plies, so that players who cycle still stop)",
    )
    match.add_argument("--json", action="store_true", help="print JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamesolver`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    io = Io()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        _error(io, str(exc))
        return EXIT_USAGE
    except SystemExit as exc:  # --help and --version exit 0
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(io.err.file)
        return EXIT_USAGE
    try:
        return handler(args, io)
    except UsageError as exc:
        _error(io, str(exc))
        return EXIT_USAGE
    except GameError as exc:
        _error(io, str(exc))
        return EXIT_GAME_ERROR
    except RecursionError:  # a teaching search to the end of a game that cycles or is too long
        _error(
            io,
            f"the search of {getattr(args, 'game', 'the game')!r} went deeper than Python's "
            "recursion limit without reaching the end: the game may cycle or be too long to "
            "search to the end; give a --depth N (or use the engine with --time S)",
        )
        return EXIT_GAME_ERROR
    except KeyboardInterrupt:
        _error(io, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


def _error(io: Io, message: str) -> None:
    io.err.print(f"{PROG}: error: {message}", style=None)
