"""``gamesolver tree``: draw the tree a teaching search explored, or its frames."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import viz
from solver.game import HasScore, format_state
from solver.quoting import quote
from viz.choices import ORDERINGS, PRUNED_VIEWS, STYLES, VIEWS
from viz.notation import saving_text
from zerosum.console import EXIT_OK, Io, UsageError
from zerosum.options import (
    checked_frames,
    checked_output,
    exploration_float,
    extra_fields,
    game_arguments,
    load,
    position,
    position_argument,
    positive_int,
    refuse_unaffordable,
    seed_int,
    title_text,
    whole_number,
)
from zerosum.report import json_num, num

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
        choices=("minimax", "alphabeta", "engine", "mcts", "expectiminimax", "star1", "star2"),
        default="minimax",
        help="the search to draw (default: minimax; engine: the fast search's last iteration, "
        "with its table hits, or with --frames/--html/--interactive every iteration; mcts: "
        "Monte Carlo tree search after --iterations; for games "
        "with chance: expectiminimax, or *-minimax's star1 and star2, which prune at chance "
        "nodes within --bounds)",
    )
    tree.add_argument(
        "--bounds",
        type=_pair,
        metavar="LO,HI",
        help="star1/star2: every utility lies in [LO, HI] (default: the game's utility_bounds)",
    )
    mcts = tree.add_argument_group("Monte Carlo tree search (-a mcts)")
    mcts.add_argument(
        "--iterations", type=positive_int, default=20, metavar="N", help="iterations (default 20)"
    )
    mcts.add_argument(
        "--exploration",
        type=exploration_float,
        default=None,
        metavar="C",
        help="UCB1's exploration constant (default √2 ≈ 1.41)",
    )
    mcts.add_argument("--solver", action="store_true", help="MCTS-Solver: back up proven values")
    mcts.add_argument(
        "--playout",
        choices=("random", "heuristic"),
        default="random",
        help="random playouts (default) or guided by the game's evaluation",
    )
    mcts.add_argument(
        "--phases",
        type=positive_int,
        metavar="K",
        help="with -o FILE (.svg, .png, .pdf, .dot): draw iteration K's four phases as AIMA's "
        "Figure 5.10 (selection, expansion, the playout as a dashed path, back-propagation; "
        "each node's wins/playouts for the player who moved into it)",
    )
    tree.add_argument("--boards", action="store_true", help="draw boards inside the nodes")
    tree.add_argument(
        "--alpha-beta-labels",
        action="store_true",
        help="write each node's window (α, β) on entry and its value range [lo, hi] on it",
    )
    tree.add_argument(
        "--order", action="store_true", help="number the nodes in the order the search visits them"
    )
    tree.add_argument(
        "--view",
        choices=VIEWS,
        default="minimax",
        help="values from MAX's side (minimax, default) or the mover's side (negamax)",
    )
    tree.add_argument(
        "--style",
        choices=STYLES,
        default="default",
        help="aima: the book's style in one switch: its node letters and move names (games "
        "that have them, e.g. textbook), its titles, and values as it writes them (2 at a node "
        "cut off, where the default writes the bound ≤2)",
    )
    tree.add_argument(
        "--ordering",
        choices=ORDERINGS,
        default="given",
        help="search the moves as the game lists them (given), best first or worst first",
    )
    tree.add_argument(
        "--pruned",
        choices=PRUNED_VIEWS,
        default="subtree",
        help="draw each cut as the pruned moves (stub), their subtrees greyed (subtree, "
        "default) or greyed with the values minimax would find there (values)",
    )
    tree.add_argument(
        "--exercise",
        action="store_true",
        help="with -o FILE: FILE shows only the leaves (values to fill in), FILE-key the answers",
    )
    sheet = tree.add_argument_group(
        "exercise sheets of random trees (textbook only; -o FILE.tex, also FILE.pdf by pdflatex)"
    )
    sheet.add_argument(
        "--random-exercises",
        type=positive_int,
        metavar="N",
        help="a printable sheet of N seeded random alpha-beta exercises and its key, "
        "of --depth plies (default 2)",
    )
    sheet.add_argument(
        "--seed", type=seed_int, default=1, help="the sheet's seed, or -a mcts's (default 1)"
    )
    sheet.add_argument(
        "--branching",
        type=_pair,
        default=(2, 3),
        metavar="LO,HI",
        help="children a node, fewest and most (default 2,3)",
    )
    sheet.add_argument(
        "--values",
        type=_pair,
        default=(-9, 20),
        metavar="LO,HI",
        help="the leaf values' range (default -9,20)",
    )
    sheet.add_argument(
        "--variants",
        type=positive_int,
        metavar="N",
        help="with --exercise -o FILE.tex: an exam sheet of N variants of the tree (--tree, "
        "default AIMA Figure 5.2), one shape, as many moves pruned by alpha-beta, other values "
        "in --values drawn from --seed; and its key",
    )
    sheet.add_argument(
        "--ordering-question",
        action="store_true",
        help="also ask which order of the moves prunes most (the key gives each order's count)",
    )
    tree.add_argument(
        "--large",
        action="store_true",
        help="draw a picture too large to read at its natural size instead of refusing it",
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
        "--levels",
        type=positive_int,
        metavar="N",
        help="with -o: draw only the top N plies (below --subtree's node if given); a dotted "
        "box below each node cut says how many positions go on there",
    )
    tree.add_argument(
        "--subtree",
        type=_moves,
        metavar="MOVES",
        help="with -o: draw only the subtree after these moves from the root, comma-separated "
        "in the game's notation (e.g. 0,2)",
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
    tree.add_argument("--title", type=title_text, help="a title for the diagram")
    tree.add_argument(
        "--output", "-o", metavar="FILE", help="FILE.svg, .png, .pdf, .dot, .json or .tex (TikZ)"
    )
    tree.add_argument(
        "--tikz-body",
        action="store_true",
        help="with -o FILE.tex: the tikzpicture alone, to \\input into Beamer or an article "
        "(the tree only, unless --tikz-pieces adds title, summary or legend)",
    )
    tree.add_argument(
        "--tikz-pieces",
        type=_pieces,
        metavar="LIST",
        help="with -o FILE.tex: what to write under the tree, from title,summary,legend "
        "(default: all in a document, none in a --tikz-body; 'none' for the tree alone)",
    )
    tree.add_argument(
        "--beamer",
        action="store_true",
        help="with -o FILE.tex: one Beamer frame whose overlays step through the search as the "
        "--html page does (with --tikz-body: the stepping tikzpicture, to \\input in a frame)",
    )
    tree.add_argument(
        "--compact",
        action="store_true",
        help="with -o FILE.tex: the lecture hall's layout, a 16:9 Beamer frame: the two lowest "
        "plies listed down under their parents, the cuts listed under the tree (a depth-4, "
        "branching-3 tree whole, its leaves at 8 pt or more); with --beamer, stepping",
    )
    tree.add_argument(
        "--interactive",
        metavar="FILE",
        help="write a page to FILE.html: step through the search beside its pseudocode, fold "
        "subtrees, zoom; edit leaves of small whole trees (the steps follow the new search)",
    )
    steps = tree.add_mutually_exclusive_group()
    steps.add_argument("--frames", metavar="DIR", help="write one picture per step into DIR")
    steps.add_argument("--html", metavar="FILE", help="write a step-by-step page to FILE.html")
    tree.add_argument(
        "--frame-format",
        choices=("svg", "png", "tex"),
        default="svg",
        help="picture format of --frames (default: svg; tex: a TikZ document per iteration "
        "of -a engine)",
    )
    tree.add_argument(
        "--force", "-f", action="store_true", help="replace existing output files and frames"
    )
    tree.add_argument(
        "--json",
        action="store_true",
        help="print a JSON summary with the whole tree (node-link) to stdout",
    )


TREE_FORMATS = (".svg", ".png", ".pdf", ".dot", ".gv", ".json", ".tex")


def run(args: argparse.Namespace, io: Io) -> int:
    """``gamesolver tree``: draw the tree a teaching search explored, or its frames."""
    if args.random_exercises is not None:
        return _exercise_sheet(args, io)
    if args.variants is not None:
        return _variant_sheet(args, io)
    _check_outputs(args)
    _check_pages_and_tikz(args)
    game = _load_styled(args)
    state = position(game, args)
    if args.algorithm == "engine":  # stopped by --max-nodes while it runs
        return _engine(args, io, game, state)
    if args.algorithm == "mcts":
        return _mcts(args, io, game, state)
    if args.algorithm in ("minimax", "alphabeta"):
        refuse_unaffordable(game, state, args.algorithm, args.depth, None)
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
            ordering=args.ordering,
            pruned="values" if args.exercise else args.pruned,
            bounds=args.bounds,
        )
        if args.levels is not None or args.subtree:
            from viz.views import cut_view

            tree = cut_view(tree, path=args.subtree or (), levels=args.levels)
        looks = {
            "boards": args.boards,
            "alpha_beta_labels": args.alpha_beta_labels,
            "order": args.order,
            "view": args.view,
            "style": args.style,
            "large": args.large,
        }
        written = _write(tree, args, looks, io)
        if args.interactive is not None:
            page = viz.write_interactive(
                tree,
                args.interactive,
                game=game,
                state=state,
                title=args.title,
                overwrite=args.force,
                boards=args.boards,
            )
            written.append(str(page))
    except viz.UnknownFormatError as exc:
        raise UsageError(str(exc)) from None
    except viz.TooManyNodesError as exc:
        raise viz.TooManyNodesError(
            _too_many(exc, args), nodes=exc.nodes, max_nodes=exc.max_nodes, limit=exc.limit
        ) from None
    except viz.UnreadableError as exc:
        raise viz.UnreadableError(_unreadable(exc), exc.inches, exc.shrink) from None
    facts = tree.graph.graph
    if args.json:
        summary = {
            "game": game.name,
            "position": format_state(game, state),
            "algorithm": args.algorithm,
            "depth": args.depth,
            "value": json_num(tree.result.value),
            "best_move": facts["best_move"],
            "pv": facts["pv"],
            "nodes_drawn": tree.graph.number_of_nodes(),
            "nodes_searched": tree.searched,
            "pruned": tree.pruned,
            "nodes_saved": tree.saved,
            "written": written,
        }
        if args.output is None:
            summary["tree"] = json.loads(viz.to_json(tree))
        io.json(summary)
        return EXIT_OK
    io.print(
        f"{args.algorithm} from {format_state(game, state)}: value {num(tree.result.value)}, "
        f"best move {facts['best_move'] or '-'}"
    )
    io.print(f"principal variation: {' '.join(facts['pv']) or '(none: the game is over)'}")
    saving = saving_text(tree.pruned, tree.saved, tree.searched, args.algorithm)
    drawn = tree.graph.number_of_nodes()
    io.print(
        f"{drawn:,} {'node' if drawn == 1 else 'nodes'} drawn, {tree.searched:,} searched, "
        + (saving or "0 moves pruned")
    )
    for item in written:
        io.print(f"wrote {item}")
    return EXIT_OK


def _mcts(args: argparse.Namespace, io: Io, game: Any, state: Any) -> int:
    """``tree -a mcts``: the tree Monte Carlo tree search grew, with every step for the pages."""
    from solver.mcts import DEFAULT_EXPLORATION
    from viz.mcts_tree import mcts_tree

    try:
        tree = mcts_tree(
            game,
            state,
            iterations=args.iterations,
            seed=args.seed,
            exploration=DEFAULT_EXPLORATION if args.exploration is None else args.exploration,
            playout=args.playout,
            solver=args.solver,
            max_nodes=args.max_nodes,
        )
        looks = {"boards": args.boards, "style": args.style, "large": args.large}
        if args.phases is not None:
            written = [_phases(tree, args)]
        else:
            written = _write(tree, args, looks, io)
        if args.interactive is not None:
            page = viz.write_interactive(
                tree, args.interactive, title=args.title, overwrite=args.force, boards=args.boards
            )
            written.append(str(page))
    except viz.UnknownFormatError as exc:
        raise UsageError(str(exc)) from None
    except viz.UnreadableError as exc:
        raise viz.UnreadableError(_unreadable(exc), exc.inches, exc.shrink) from None
    except viz.TooManyNodesError as exc:
        raise UsageError(f"{exc} (--iterations, --max-nodes)") from None
    facts = tree.graph.graph
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "algorithm": "mcts",
                "iterations": facts["iterations"],
                "seed": args.seed,
                "value": json_num(tree.result.value),
                "exact": tree.result.exact,
                "best_move": facts["best_move"],
                "pv": facts["pv"],
                "nodes_drawn": tree.graph.number_of_nodes(),
                "written": written,
            }
        )
        return EXIT_OK
    io.print(
        f"mcts from {format_state(game, state)}: {facts['value_text']}, best move "
        f"{facts['best_move'] or '-'} after {facts['iterations']} iterations (seed {args.seed})"
    )
    io.print(f"most visited line: {' '.join(facts['pv']) or '(none: the game is over)'}")
    for item in written:
        io.print(f"wrote {item}")
    return EXIT_OK


def _phases(tree: viz.GameTree, args: argparse.Namespace) -> str:
    """``tree -a mcts --phases K -o FILE``: iteration K's four phases in one picture."""
    if args.phases > tree.graph.graph["iterations"]:
        raise UsageError(
            f"invalid --phases {args.phases}: the search ran {tree.graph.graph['iterations']} "
            f"iterations, use 1 to {tree.graph.graph['iterations']} (or more --iterations)"
        )
    page = viz.write_mcts_phases(
        tree, args.output, args.phases, title=args.title, overwrite=args.force
    )
    return f"{page} (iteration {args.phases}'s four phases)"


def _check_phases(args: argparse.Namespace) -> None:
    """Refuse --phases but with -a mcts and one picture -o FILE."""
    if args.phases is None:
        return
    if args.algorithm != "mcts" or args.output is None:
        raise UsageError(
            "--phases K draws an iteration of -a mcts: give -a mcts and -o FILE (.svg, .png, "
            ".pdf, .dot)"
        )
    if args.frames is not None or args.html is not None:
        raise UsageError(
            "--phases K draws one iteration in one picture (-o FILE); draw every step with "
            "--frames DIR or --html FILE in another run"
        )
    phases_suffixes = (".svg", ".png", ".pdf", ".dot", ".gv")
    if not args.output.lower().endswith(phases_suffixes):
        raise UsageError(
            f"invalid -o {quote(args.output)} with --phases: the file name must end in "
            + ", ".join(phases_suffixes)
        )


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse bad output options, and check every output before the search and the drawing."""
    destinations = (args.output, args.frames, args.html, args.interactive)
    if all(d is None for d in destinations) and not args.json:
        raise UsageError(
            "say where to draw the tree: -o FILE.svg (or --frames DIR / --html FILE / "
            "--interactive FILE), or --json for the tree on stdout"
        )
    if args.output is not None and not args.output.lower().endswith(TREE_FORMATS):
        raise UsageError(
            f"invalid -o {quote(args.output)}: the file name must end in {', '.join(TREE_FORMATS)}"
        )
    if args.html is not None and not args.html.lower().endswith((".html", ".htm")):
        raise UsageError(f"invalid --html {quote(args.html)}: the file name must end in .html")
    _check_phases(args)
    if args.exercise and args.algorithm == "mcts":
        raise UsageError(
            "--exercise asks for the values a search backs up from the leaves; -a mcts grows its "
            "tree by random playouts and has no such sheet: use -a minimax, alphabeta, "
            "expectiminimax, star1 or star2"
        )
    if args.exercise and (args.output is None or args.output.lower().endswith(".json")):
        raise UsageError(
            "--exercise draws a picture: give it -o FILE.svg (or .png, .pdf, .dot, .tex)"
        )
    # Every output is checked before the search and the drawing, not after them.
    if args.output is not None:
        checked_output(args.output, "-o", args.force)
        if args.exercise:
            checked_output(_key_path(args.output), "-o (the answer key)", args.force)
    if args.html is not None:
        checked_output(args.html, "--html", args.force)
    if args.frames is not None:
        checked_frames(args.frames, args.force)
    cut = [f for f, given in (("--levels", args.levels), ("--subtree", args.subtree)) if given]
    if cut:
        others = [
            flag
            for flag, given in (
                ("--frames", args.frames),
                ("--html", args.html),
                ("--interactive", args.interactive),
                ("--exercise", args.exercise),
                ("--beamer", args.beamer),
                ("-a " + args.algorithm, args.algorithm in ("engine", "mcts")),
            )
            if given
        ]
        if others or args.output is None:
            raise UsageError(
                f"{' and '.join(cut)} {'draw' if len(cut) > 1 else 'draws'} part of a finished "
                "tree for a slide: give -o FILE "
                + (f"and not {', '.join(others)}" if others else "")
                + " (the steps, pages and exercises need the whole tree)"
            )
    if args.frame_format == "tex" and (args.frames is None or args.algorithm != "engine"):
        raise UsageError(
            "--frame-format tex writes a TikZ document per iteration of -a engine --frames DIR; "
            "for the steps of a teaching search in TikZ use -o FILE.tex --beamer"
        )


def _write(
    tree: viz.GameTree, args: argparse.Namespace, looks: dict[str, Any], io: Io
) -> list[str]:
    """Write what was asked for, saying so when a picture is larger than can be read at once.

    Static pictures too large to read are refused unless ``--large``; the step-by-step page
    scrolls, so it is always drawn at its natural size, with the same warning.
    """
    written = []
    if (
        args.beamer
        and not args.compact
        and not args.exercise
        and (args.output or "").endswith(".tex")
    ):
        _suggest_compact(tree, args, io)
    shape = {k: v for k, v in looks.items() if k != "large"}
    if args.large or args.html is not None:
        try:
            viz.readable_options(tree, **shape)
        except viz.UnreadableError as exc:
            width, height = exc.inches
            io.err.print(
                f"warning: the picture is {width:.0f} x {height:.0f} inches, drawn at its "
                "natural size: scroll to read it (or shrink it: "
                + ", ".join(_FLAGS[k] for k in exc.shrink if k != "large")
                + ")"
            )
    if args.output is not None:
        if args.exercise:
            written.append(_picture(tree, args.output, args, looks, exercise=True))
            written.append(f"{_picture(tree, _key_path(args.output), args, looks)} (the answers)")
        else:
            written.append(_picture(tree, args.output, args, looks))
    if args.frames is not None:
        frames = viz.write_frames(
            tree, args.frames, format=args.frame_format, overwrite=args.force, **looks
        )
        written.append(f"{len(frames)} frames in {args.frames}")
    if args.html is not None:
        page = viz.write_html(
            tree, args.html, title=args.title, overwrite=args.force, **{**looks, "large": True}
        )
        written.append(str(page))
    return written


def _suggest_compact(tree: viz.GameTree, args: argparse.Namespace, io: Io) -> None:
    """A note when a 16:9 frame would show the leaves' values under 8 pt and --compact more."""
    from viz.tikz import frame_leaf_size

    labels = args.alpha_beta_labels
    now = frame_leaf_size(tree, alpha_beta_labels=labels)
    if now < 8:
        compact = frame_leaf_size(tree, compact=True, alpha_beta_labels=labels)
        if compact > now * 1.25:
            io.err.print(
                f"note: on the 16:9 frame the leaves' values come out at about {now:.1f} pt; "
                f"--compact lists the lowest plies under their parents: about {compact:.1f} pt"
            )


def _picture(
    tree: viz.GameTree,
    path: str,
    args: argparse.Namespace,
    looks: dict[str, Any],
    *,
    exercise: bool = False,
) -> str:
    """Draw one picture to ``path``: TikZ for ``.tex``, else Graphviz; return where it went."""
    if path.lower().endswith(".tex"):
        default = () if args.tikz_body else PIECES
        pieces = default if args.tikz_pieces is None else args.tikz_pieces
        tikz = {
            "boards": args.boards,
            "alpha_beta_labels": args.alpha_beta_labels,
            "order": args.order,
            "view": args.view,
            "style": args.style,
            "title": args.title if "title" in pieces else "",
            "summary": "summary" in pieces,
            "legend": "legend" in pieces,
            "standalone": not args.tikz_body,
            "overlays": args.beamer and not exercise,
            "compact": args.compact,
        }
        out = viz.write_tikz(tree, path, overwrite=args.force, exercise=exercise, **tikz)
    else:
        out = viz.render(
            tree, path, title=args.title, overwrite=args.force, exercise=exercise, **looks
        )
    return str(out)


def _moves(text: str) -> tuple[str, ...]:
    """``--subtree``'s moves: comma-separated, none empty."""
    moves = tuple(m.strip() for m in text.split(","))
    if not all(moves):
        raise argparse.ArgumentTypeError(
            f"invalid moves {text!r}: give the moves from the root separated by commas, e.g. 0,2"
        )
    return moves


def _pair(text: str) -> tuple[int, int]:
    """``LO,HI`` as two integers, the smaller first."""
    parts = [whole_number(p, signed=True) for p in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise argparse.ArgumentTypeError(
            f"invalid range {quote(text)}: expected two whole numbers LO,HI (ASCII digits, at "
            "most 9 each), e.g. 2,3"
        )
    low, high = parts[0], parts[1]
    if low > high:
        raise argparse.ArgumentTypeError(f"invalid range {quote(text)}: LO is larger than HI")
    return low, high


def _exercise_sheet(args: argparse.Namespace, io: Io) -> int:
    """``--random-exercises N``: a sheet of seeded random textbook trees and its key."""
    from games import load_game
    from viz.exercises import ExerciseSet, write_sheet

    if args.game != "textbook":
        raise UsageError(
            f"--random-exercises draws textbook trees; use: gamesolver tree textbook "
            f"--random-exercises {args.random_exercises} -o sheet.tex (not {args.game!r})"
        )
    if args.output is None or not args.output.lower().endswith((".tex", ".pdf")):
        raise UsageError("--random-exercises writes a LaTeX sheet: give it -o FILE.tex")
    target = args.output[: -len(".pdf")] + ".tex" if args.output.endswith(".pdf") else args.output
    checked_output(target, "-o", args.force)
    checked_output(_key_path(target), "-o (the answer key)", args.force)
    try:
        spec = ExerciseSet(
            seed=args.seed,
            count=args.random_exercises,
            branching=args.branching,
            depth=args.depth or 2,
            values=args.values,
            ordering_question=args.ordering_question,
        )
    except viz.VizError as exc:
        raise UsageError(str(exc)) from None

    def textbook(tree: Any) -> Any:
        return load_game("textbook", tree=tree, labels="aima")

    for path in write_sheet(spec, textbook, target, overwrite=args.force):
        io.print(f"wrote {path}")
    return EXIT_OK


def _variant_sheet(args: argparse.Namespace, io: Io) -> int:
    """``--exercise --variants N``: an exam sheet of seeded variants of one tree, and its key."""
    from games import load_game
    from viz.exercises import write_variants

    if not args.exercise or args.game != "textbook":
        raise UsageError(
            f"--variants {args.variants} makes an exam sheet of textbook trees: use gamesolver "
            f"tree textbook --exercise --variants {args.variants} -o sheet.tex"
        )
    if args.output is None or not args.output.lower().endswith((".tex", ".pdf")):
        raise UsageError("--variants writes a LaTeX sheet: give it -o FILE.tex")
    shape = _as_lists(getattr(load(args), "tree", None))  # the game's tree, as it reads --tree
    if not _moves_and_numbers(shape):
        raise UsageError(
            f"invalid --tree {quote(args.tree or '')} for --variants: use a JSON list of subtrees "
            "and whole-number leaves, without chance nodes, e.g. '[[3,12,8],[2,4,6]]'"
        )
    target = args.output[: -len(".pdf")] + ".tex" if args.output.endswith(".pdf") else args.output
    checked_output(target, "-o", args.force)
    checked_output(_key_path(target), "-o (the answer key)", args.force)

    def textbook(tree: Any) -> Any:
        return load_game("textbook", tree=tree, labels="aima")

    try:
        written = write_variants(
            shape,
            textbook,
            target,
            count=args.variants,
            seed=args.seed,
            values=args.values,
            overwrite=args.force,
        )
    except viz.VizError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        io.print(f"wrote {path}")
    return EXIT_OK


def _as_lists(tree: Any) -> Any:
    """A tree held as nested tuples, as the nested lists the variants take (a chance node, a
    tuple of its own kind, stays as it is: the variants refuse it)."""
    return [_as_lists(child) for child in tree] if type(tree) is tuple else tree


def _moves_and_numbers(tree: Any) -> bool:
    """``tree`` is a non-empty nested list of moves ending in whole numbers (no chance)."""
    if isinstance(tree, list):
        return bool(tree) and all(_moves_and_numbers(child) for child in tree)
    return isinstance(tree, int) and not isinstance(tree, bool)


def _load_styled(args: argparse.Namespace) -> Any:
    """The game, with the book's node letters and move names under ``--style aima`` when it has
    them (a game without them is drawn in the book's style otherwise)."""
    given = [o.partition("=")[0].strip() for o in getattr(args, "option", None) or ()]
    if args.style == "aima" and "labels" not in given:
        options = [*(getattr(args, "option", None) or []), "labels=aima"]
        styled = argparse.Namespace(**{**vars(args), "option": options})
        try:
            return load(styled)
        except UsageError:
            pass  # the game takes no labels option: its own names stand
    return load(args)


def _check_pages_and_tikz(args: argparse.Namespace) -> None:
    """Refuse page names that are not .html, and --tikz-body without -o FILE.tex."""
    if args.interactive is not None:
        if not args.interactive.lower().endswith((".html", ".htm")):
            raise UsageError(
                f"invalid --interactive {quote(args.interactive)}: the file name must end in .html"
            )
        checked_output(args.interactive, "--interactive", args.force)
    tex = (args.output or "").lower().endswith(".tex")
    for flag, given in (
        ("--tikz-body", args.tikz_body),
        ("--tikz-pieces", args.tikz_pieces is not None),
        ("--beamer", args.beamer),
        ("--compact", args.compact),
    ):
        if given and not tex:
            raise UsageError(f"{flag} needs -o FILE.tex (it shapes the TikZ output)")
    if args.compact and args.exercise:
        raise UsageError(
            "--compact draws a slide for the lecture hall; an exercise sheet needs room to "
            "write in: leave out --compact"
        )
    if args.compact and args.algorithm in ("engine", "mcts"):
        raise UsageError(
            f"--compact draws the teaching searches' trees (minimax, alphabeta, expectiminimax, "
            f"star1, star2); -a {args.algorithm}'s nodes hold several lines each, which its low "
            "rows have no room for: leave out --compact"
        )
    if args.compact and args.boards:
        raise UsageError(
            "--compact lists nodes in low rows, where boards do not fit: leave out --boards "
            "or --compact"
        )


def _engine(args: argparse.Namespace, io: Io, game: Any, state: Any) -> int:
    """``tree -a engine``: the engine's last iteration, drawn with its table hits (``-o``, any
    picture format or TikZ); with ``--frames DIR``, ``--html`` or ``--interactive``, iterative
    deepening step by step: every iteration's tree."""
    from viz.engine_tree import engine_tree
    from viz.export import ENGINE_FORMATS, render
    from viz.tree_json import engine_json

    unsupported = [
        flag
        for flag, given in (
            ("--transpositions", args.transpositions),
            ("--collapse", args.collapse),
            ("--fold-symmetries", args.fold_symmetries),
            ("--boards", args.boards),
            ("--exercise", args.exercise),
            ("--view negamax", args.view != "minimax"),
        )
        if given
    ]
    if unsupported:
        raise UsageError(
            f"-a engine draws one picture with -o FILE ({', '.join(ENGINE_FORMATS)}), or "
            "every iteration with --frames DIR, --html FILE or --interactive FILE; "
            f"not {', '.join(unsupported)}"
        )
    if args.frames is not None or args.html is not None or args.interactive is not None:
        return _engine_iterations(args, io, game, state)
    # -o FILE, or --json alone (the tree then goes to stdout with the summary)
    with _engine_errors():
        tree = engine_tree(game, state, args.depth, max_nodes=args.max_nodes)
        if args.output is None:
            written = None
        elif args.output.lower().endswith(".tex"):
            written = _engine_tikz(tree, args.output, args)
        else:
            written = str(render(tree, args.output, title=args.title, overwrite=args.force))
    result = tree.result
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "algorithm": "engine",
                "depth": tree.iteration,
                "value": json_num(result.value),
                "best_move": tree.graph.graph["best_move"],
                "pv": tree.graph.graph["pv"],
                "nodes_searched": tree.searched,
                "table_hits": tree.hits,
                "cutoffs": tree.cutoffs,
                "written": [] if written is None else [written],
                **({} if written else {"tree": json.loads(engine_json(tree))}),
            }
        )
        return EXIT_OK
    assert written is not None  # _check_outputs asked for -o without --json
    if not tree.searched:
        io.print(
            f"engine from {format_state(game, state)}: value {num(result.value)}; "
            "the game is over at the root: nothing searched"
        )
        io.print(f"wrote {written}")
        return EXIT_OK
    io.print(
        f"engine from {format_state(game, state)}: value {num(result.value)}, "
        f"best move {tree.graph.graph['best_move'] or '-'}"
    )
    hits = ", ".join(f"{n} {kind}" for kind, n in sorted(tree.hits.items())) or "none"
    io.print(
        f"last of {tree.iterations} iteration(s): {tree.searched:,} "
        f"{'node' if tree.searched == 1 else 'nodes'}, table hits: {hits}, "
        f"{tree.cutoffs:,} {'cut-off' if tree.cutoffs == 1 else 'cut-offs'}"
    )
    io.print(f"wrote {written}")
    return EXIT_OK


def _engine_tikz(tree: Any, path: str, args: argparse.Namespace) -> str:
    """An engine's tree as TikZ, shaped by --tikz-body, --tikz-pieces and --beamer."""
    from viz.engine_tree import engine_game_tree

    return _picture(engine_game_tree(tree), path, args, {})


@contextlib.contextmanager
def _engine_errors() -> Iterator[None]:
    """The engine drawing's errors in the command line's words."""
    try:
        yield
    except viz.UnknownFormatError as exc:
        raise UsageError(str(exc)) from None
    except viz.TooManyNodesError as exc:
        raise viz.TooManyNodesError(
            f"the engine entered more than --max-nodes {exc.max_nodes:,} nodes in one iteration; "
            "draw a position nearer the end, give --depth N, or raise --max-nodes",
            nodes=exc.nodes,
            max_nodes=exc.max_nodes,
            at_least=True,
        ) from None


def _engine_iterations(args: argparse.Namespace, io: Io, game: Any, state: Any) -> int:
    """``tree -a engine --frames DIR`` (a picture per iteration, ``--frame-format``),
    ``--html FILE`` (the step-by-step page of the iterations), ``--interactive FILE`` (the
    page to step through and fold them), and ``-o FILE`` the last iteration."""
    from viz.engine_tree import engine_iterations, summary_line
    from viz.export import render, write_engine_iterations
    from viz.html import write_engine_html
    from viz.interactive import write_engine_interactive

    with _engine_errors():
        trees = engine_iterations(game, state, args.depth, max_nodes=args.max_nodes)
        paths: list[str | None] = [None] * len(trees)
        written: list[str] = []
        if args.frames is not None:
            frames = write_engine_iterations(
                trees, args.frames, format=args.frame_format, title=args.title, overwrite=args.force
            )
            paths = [str(p) for p in frames]
            written.append(f"{len(frames)} iterations in {args.frames}")
        if args.html is not None:
            page = write_engine_html(trees, args.html, title=args.title, overwrite=args.force)
            written.append(str(page))
        if args.interactive is not None:
            page = write_engine_interactive(
                trees, args.interactive, title=args.title, overwrite=args.force
            )
            written.append(str(page))
        if args.output is not None:  # the last iteration's picture
            if args.output.lower().endswith(".tex"):
                written.append(_engine_tikz(trees[-1], args.output, args))
            else:
                out = render(trees[-1], args.output, title=args.title, overwrite=args.force)
                written.append(str(out))
    if args.json:
        io.json(
            {
                "game": game.name,
                "position": format_state(game, state),
                "algorithm": "engine",
                "iterations": [
                    {
                        "iteration": tree.number,
                        "depth": tree.iteration,
                        "value": json_num(tree.result.value),
                        "best_move": tree.graph.graph["best_move"],
                        "previous_best": tree.previous_best,
                        "pv": tree.graph.graph["pv"],
                        "nodes_searched": tree.searched,
                        "table_hits": tree.hits,
                        **({"written": path} if path is not None else {}),
                    }
                    for tree, path in zip(trees, paths, strict=True)
                ],
                "written": written,
            }
        )
        return EXIT_OK
    for tree, path in zip(trees, paths, strict=True):
        io.print(f"{path or f'iteration {tree.number}'}: {summary_line(tree)}")
    for item in written:
        if args.frames is None or not item.endswith(f" in {args.frames}"):
            io.print(f"wrote {item}")
    return EXIT_OK


PIECES = ("title", "summary", "legend")
"""What a TikZ picture may write under the tree (``--tikz-pieces``)."""


def _pieces(text: str) -> tuple[str, ...]:
    """``--tikz-pieces``: a comma-separated choice from :data:`PIECES`, or ``none``."""
    if text.strip() == "none":
        return ()
    chosen = tuple(p.strip() for p in text.split(",") if p.strip())
    unknown = [p for p in chosen if p not in PIECES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"invalid --tikz-pieces {quote(text)}: choose from {', '.join(PIECES)} "
            "(comma-separated), or none"
        )
    return chosen


def _key_path(output: str) -> str:
    """``tree.svg`` -> ``tree-key.svg``: where an exercise's answers go."""
    stem, dot, suffix = output.rpartition(".")
    return f"{stem}-key{dot}{suffix}"


_FLAGS = {
    "depth": "a smaller --depth",
    "collapse": "--collapse",
    "transpositions": "--transpositions",
    "fold_symmetries": "--fold-symmetries",
    "pruned": "--pruned stub",
    "boards": "no --boards",
    "large": "--large (draw it at its natural size)",
}


def _too_many(exc: viz.TooManyNodesError, args: argparse.Namespace) -> str:
    """The refusal in command-line words, blaming the limit that refused it."""
    depth = "a smaller --depth" if args.depth is not None else "--depth N"
    if exc.limit == "record_limit":
        used = [
            f
            for f, on in (
                ("--collapse", args.collapse),
                ("--transpositions", args.transpositions),
                ("--fold-symmetries", args.fold_symmetries),
            )
            if on
        ]
        what = " and ".join(used) if used else "this view"
        return (
            f"the search passed {exc.max_nodes:,} nodes and was stopped: {what} "
            f"{'builds' if len(used) < 2 else 'build'} the picture from the whole search, "
            f"and at most {exc.max_nodes:,} search nodes are recorded for it (the picture "
            f"itself may be small); use {depth}"
            + (" or -a alphabeta (it searches fewer nodes)" if args.algorithm == "minimax" else "")
        )
    many = f"more than {exc.max_nodes:,}" if exc.at_least else f"{exc.nodes:,}"
    hints = [depth] + [_FLAGS[k] for k in exc.shrink if k != "depth"]
    hints.append(f"raise --max-nodes (now {exc.max_nodes:,})")
    return (
        f"the diagram would draw {many} nodes, more than --max-nodes {exc.max_nodes:,}"
        + (" (the search was stopped there)" if exc.at_least else "")
        + f"; shrink it with {', '.join(hints[:-1])}, or {hints[-1]}"
    )


def _unreadable(exc: viz.UnreadableError) -> str:
    width, height = exc.inches
    hints = [_FLAGS[k] for k in exc.shrink]
    return (
        f"the picture would be {width:.0f} x {height:.0f} inches, too large to read even "
        "turned sideways or with its leaves wrapped into rows; shrink it with "
        f"{', '.join(hints[:-1])}, or pass {hints[-1]}"
    )


def _score_label(game: HasScore) -> Callable[[Any], str]:
    """A leaf label with what each player banked, as the Ayòayò article writes it: [p1, p2]."""

    def label(state: Any) -> str:
        return "[" + ", ".join(str(n) for n in game.score(state)) + "]"

    return label
