"""``gamesolver tree``: draw the tree a teaching search explored, or its frames."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import viz
from solver.game import HasScore, format_state
from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.moves import best_move
from zerosum.options import (
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_int,
)
from zerosum.report import json_num, num, pv_moves, pv_text

NAME = "tree"
ALIASES: tuple[str, ...] = ()
HELP = "draw the game tree a search explores (for teaching)"


def add_arguments(tree: argparse.ArgumentParser) -> None:
    """The options of ``gamesolver tree``."""
    game_arguments(tree)
    position_argument(tree)
    extra_fields(tree)
    tree.add_argument("--depth", "-d", type=positive_int, metavar="N", help="search depth")
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
        type=positive_int,
        default=1000,
        metavar="N",
        help="refuse to draw more than N nodes (default 1000)",
    )
    tree.add_argument(
        "--no-captured-leaves",
        dest="leaf_score",
        action="store_false",
        help="do not write each player's score [p1, p2] in the leaves (e.g. captured seeds)",
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


TREE_FORMATS = (".svg", ".png", ".pdf", ".dot", ".gv", ".json")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver tree``: draw the tree a teaching search explored, or its frames."""
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
    leaf_label = _score_label(game) if isinstance(game, HasScore) and args.leaf_score else None
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
                "value": json_num(result.value),
                "best_move": best_move(game, state, result),
                "pv": pv_moves(game, state, result.pv),
                "nodes_drawn": tree.graph.number_of_nodes(),
                "nodes_searched": tree.searched,
                "pruned": tree.pruned,
                "written": written,
            }
        )
        return EXIT_OK
    best = best_move(game, state, result, missing="-")
    io.print(
        f"{args.algorithm} from {format_state(game, state)}: value {num(result.value)}, "
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


def _score_label(game: HasScore) -> Callable[[Any], str]:
    """A leaf label with what each player banked, as the Ayòayò article writes it: [p1, p2]."""

    def label(state: Any) -> str:
        return "[" + ", ".join(str(n) for n in game.score(state)) + "]"

    return label
