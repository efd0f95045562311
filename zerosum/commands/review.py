"""``gamesolver review``: every move of a game record valued against the best one."""

from __future__ import annotations

import argparse
import sys

from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.options import option_argument, positive_float, positive_int
from zerosum.records import RecordError, parse_record
from zerosum.report import evaluation, num, value_text
from zerosum.review import DEFAULT_REVIEW_DEPTH, review_json, review_record
from zerosum.tablebases import open_tablebase, tablebase_arguments

NAME = "review"
ALIASES: tuple[str, ...] = ()
HELP = "review a game record: each move's value against the best move"


def add_arguments(review: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver review``."""
    review.add_argument(
        "file", metavar="FILE", help="a game record (see docs/board.md); - reads stdin"
    )
    limit = review.add_mutually_exclusive_group()
    limit.add_argument(
        "--depth",
        "-d",
        type=positive_int,
        metavar="N",
        help=f"search each position to depth N (default {DEFAULT_REVIEW_DEPTH})",
    )
    limit.add_argument(
        "--time", "-t", type=positive_float, metavar="S", help="S seconds a position"
    )
    option_argument(
        review, "an option of the record's game, added to its 'game:' header's (VALUE in JSON)"
    )
    tablebase_arguments(review)
    review.add_argument("--json", action="store_true", help="print JSON")


def read_record_file(path: str) -> str:
    """The text of the record at ``path`` (``-``: standard input)."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(2_000_000)
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path!r}: a game record is UTF-8 text") from None


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver review``: a table (or JSON) of the moves, their values and marks."""
    text = read_record_file(args.file)
    try:
        record = parse_record(text, args.option or ())
        game, _ = record.positions()
    except RecordError as exc:
        raise RecordError(f"{args.file}: {exc}") from None
    tablebase = open_tablebase(game, args, io.warn)
    _, reviews = review_record(record, depth=args.depth, time_limit=args.time, tablebase=tablebase)
    answer = review_json(game, record, reviews)
    if args.json:
        io.json(answer)
        return EXIT_OK
    annotated = any(r.annotation or r.comment for r in reviews)
    columns = ["ply", "player", "move", ">value", "best", ">best value", ">lost", "mark"]
    table = io.table(*columns, *(["annotated"] if annotated else []))
    for r in reviews:
        note = f"{r.annotation} {r.comment}".strip()
        table.add_row(
            str(r.ply),
            answer["summary"][r.player]["name"],
            r.move,
            value_text(r.value, exact=r.exact),
            r.best_move,
            value_text(r.best_value, exact=r.exact),
            num(r.loss) if r.exact else evaluation(r.loss).lstrip("+"),
            r.mark,
            *([note] if annotated else []),
        )
    io.print(table)
    said = answer["marks"]
    io.print("marks: " + "; ".join(f"{symbol} {meaning}" for symbol, meaning in said.items()))
    io.print("values: player 0's view (+ is good for the first player), in the game's units")
    if not all(r.exact for r in reviews):
        io.print("eval: a value not proved, the evaluation at the search's horizon (rounded)")
    for side in answer["summary"]:
        counts = ", ".join(f"{side[symbol]} {symbol}" for symbol in said)
        io.print(f"{side['name']}: {side['moves']} moves, {counts}")
    if answer["result"]:
        io.print(f"result: {answer['result']}")
    return EXIT_OK
