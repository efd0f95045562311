"""Generate every figure of docs/teaching.md into docs/figures/ (nothing there is drawn by hand).

Run from the project root:  .venv/bin/python docs/make_figures.py  [--out docs/figures]

Each figure is a real search drawn by ``viz``: the textbook tree of AIMA Figure 5.2 under minimax
and alpha-beta, backward induction step by step, tic-tac-toe from a mid-game position with the
boards in the nodes and its transposition view, tic-tac-toe's opening folded by symmetry, and
the Ayòayò example of the article (depth 3, leaves labelled with the captured seeds [p1, p2]).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games import load_game  # noqa: E402
from solver.minimax import alphabeta, minimax  # noqa: E402
from viz import (  # noqa: E402
    GameTree,
    game_tree,
    render,
    write_frames,
    write_html,
    write_interactive,
)
from viz.dot import to_dot  # noqa: E402
from viz.graphviz import pipe  # noqa: E402

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
BOUNDS_TREE = [[5], [[[3, 1], [4, 2]], 1]]
EXERCISE_TREE = [[[15, 18], [20, 19]], [[7, 3], [13, 9]], [[8, 11], [10, 17]]]
ORDERING_TREE = [[[8, 7], [3, 9]], [[9, 8], [2, 4]], [[1, 8], [8, 9]], [[9, 9], [3, 4]]]
TICTACTOE_MIDGAME = "..x/xx./oo."
AYOAYO_ARTICLE = "[[2,6,6,1,1,7],[0,2,7,2,7,7]]"


def captured_seeds(state: Any) -> str:
    """The article's leaf label: seeds captured by Player 1 and Player 2, ``[p1, p2]``."""
    p1, p2 = state.captured
    return f"[{p1}, {p2}]"


def both(tree: GameTree, out: Path, name: str, **looks: Any) -> None:
    """Write ``name``.svg and ``name``.png."""
    for suffix in (".svg", ".png"):
        path = render(tree, out / f"{name}{suffix}", **looks)
        print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def textbook_figures(out: Path) -> None:
    game = load_game("textbook", tree=TEXTBOOK, labels="aima")
    title = "AIMA Figure 5.2 under minimax: MAX's best move is a1, worth 3"
    tree = game_tree(game)
    both(tree, out, "textbook_minimax", title=title)
    write_frames(tree, out / "textbook_minimax_steps", format="svg", title=title)
    write_html(tree, out / "textbook_minimax_steps.html", title=title)

    tree = game_tree(game, algorithm="alphabeta")
    title = (
        f"AIMA Figure 5.5: alpha-beta finds the same value, {tree.graph.graph['value_text']}, "
        f"and saves {tree.saved} of minimax's {tree.searched + (tree.saved or 0)} nodes"
    )
    both(tree, out, "textbook_alphabeta", title=title, alpha_beta_labels=True)
    write_html(tree, out / "textbook_alphabeta_steps.html", title=title, alpha_beta_labels=True)
    write_frames(tree, out / "textbook_alphabeta_steps", title=title, alpha_beta_labels=True)
    both(
        tree,
        out,
        "textbook_alphabeta_order",
        title="The same search with each node numbered in the order alpha-beta enters it",
        order=True,
    )
    both(
        tree,
        out,
        "textbook_negamax",
        title="The same search in the negamax view: every value from the side of the mover",
        view="negamax",
        alpha_beta_labels=True,
    )
    print("  textbook step pages and frames")

    bounds = game_tree(load_game("textbook", tree=BOUNDS_TREE), algorithm="alphabeta")
    both(
        bounds,
        out,
        "textbook_bounds",
        title="Bounds go by how the search left a node, not by its role: D (MAX) is ≤4",
        alpha_beta_labels=True,
    )

    exercise = game_tree(
        load_game("textbook", tree=EXERCISE_TREE, labels="aima"),
        algorithm="alphabeta",
        pruned="values",
    )
    both(exercise, out, "exercise_alphabeta", exercise=True, alpha_beta_labels=True)
    both(
        exercise,
        out,
        "exercise_alphabeta_key",
        title="Answer key: alpha-beta, with what the pruned branches hold shown in grey",
        alpha_beta_labels=True,
    )

    for how in ("best", "given", "worst"):
        ordered = game_tree(
            load_game("textbook", tree=ORDERING_TREE), algorithm="alphabeta", ordering=how
        )
        both(
            ordered,
            out,
            f"ordering_{how}",
            title=(
                f"Moves searched {'as given' if how == 'given' else how + ' first'}: "
                f"{ordered.result.stats.leaves} of 16 leaves evaluated, {ordered.saved} nodes "
                "saved"
            ),
            order=True,
        )


def tictactoe_figures(out: Path) -> None:
    game = load_game("tictactoe")
    state = game.parse_state(TICTACTOE_MIDGAME)
    tree = game_tree(game, state)
    both(
        tree,
        out,
        "tictactoe_midgame",
        boards=True,
        title=f"Tic-tac-toe from {TICTACTOE_MIDGAME}, O (MIN) to move: minimax to the end",
    )
    merged = game_tree(game, state, transpositions=True)
    both(
        merged,
        out,
        "tictactoe_midgame_transpositions",
        boards=True,
        title=(
            f"The same search with identical positions merged: {merged.searched} nodes, "
            f"{merged.graph.number_of_nodes()} distinct positions"
        ),
    )
    pruned = game_tree(game, state, algorithm="alphabeta")
    both(
        pruned,
        out,
        "tictactoe_midgame_alphabeta",
        boards=True,
        title=f"Alpha-beta from the same position: {pruned.searched} nodes instead of "
        f"{tree.searched}",
    )
    opening = game_tree(game, depth=2, fold_symmetries=True)
    both(
        opening,
        out,
        "tictactoe_opening_folded",
        title=(
            f"Tic-tac-toe's first two plies with symmetric moves folded: {opening.searched} "
            f"nodes searched, {opening.graph.number_of_nodes()} drawn"
        ),
    )
    horizon = game_tree(game, depth=1, fold_symmetries=True)
    both(
        horizon,
        out,
        "tictactoe_horizon",
        boards=True,
        title="X's three kinds of opening move, valued at a one-ply horizon by open lines",
    )


def tictactoe_counts() -> None:
    """The sizes the tutorial quotes: the full minimax tree against the distinct positions."""
    game = load_game("tictactoe")
    start = time.perf_counter()
    nodes = minimax(game).stats.nodes
    pruned = alphabeta(game).stats.nodes
    seen: set[Any] = set()
    frontier = {game.initial_state()}
    while frontier:
        seen |= frontier
        frontier = {game.result(s, a) for s in frontier for a in game.actions(s)} - seen
    print(
        f"  tic-tac-toe: minimax visits {nodes:,} nodes, alpha-beta {pruned:,}; "
        f"{len(seen):,} distinct positions "
        f"({time.perf_counter() - start:.1f} s)"
    )


def ayoayo_figures(out: Path) -> None:
    game = load_game("ayoayo")
    state = game.parse_state(AYOAYO_ARTICLE)
    full = game_tree(game, state, depth=3, leaf_label=captured_seeds)
    facts = full.graph.graph
    title = (
        f"Ayòayò {AYOAYO_ARTICLE}, Player 1 to move, minimax depth 3: "
        f"play cell {facts['best_move']} (value {facts['value_text']})"
    )
    render(full, out / "ayoayo_article.svg", title=title, large=True)  # wide: zoom in a browser
    print("  docs/figures/ayoayo_article.svg")
    collapsed = game_tree(game, state, depth=3, leaf_label=captured_seeds, collapse=True)
    both(collapsed, out, "ayoayo_article_collapsed", title=title)
    boards = game_tree(game, state, depth=2, collapse=True)
    both(
        boards,
        out,
        "ayoayo_boards",
        boards=True,
        title=f"Ayòayò {AYOAYO_ARTICLE} at depth 2, boards in the nodes",
    )


def mcts_figures(out: Path) -> None:
    """Monte Carlo tree search: Figure 5.2 after 12 iterations, its steps, and a proof."""
    from viz.mcts_tree import mcts_tree

    print("Monte Carlo tree search:")
    textbook = mcts_tree(load_game("textbook"), iterations=12, seed=0)
    both(textbook, out, "mcts_textbook")
    page = write_html(textbook, out / "mcts_textbook_steps.html")
    print(f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")
    page = write_interactive(textbook, out / "mcts_textbook_interactive.html")
    print(f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")
    # a selection two moves deep, its path drawn (the first such step)
    select = next(
        k for k, s in enumerate(textbook.steps, start=1) if s.kind == "select" and len(s.path) == 3
    )
    path = out / "mcts_textbook_select.png"
    path.write_bytes(pipe(to_dot(textbook, step=select), "png"))
    print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    ttt: Any = load_game("tictactoe")
    state = ttt.parse_state("xo./.x./o..")
    both(mcts_tree(ttt, state, iterations=30, seed=2, solver=True), out, "mcts_tictactoe_solver")
    mcts_phases_figure(out)


def mcts_phases_figure(out: Path) -> None:
    """One iteration's four phases as AIMA's Figure 5.10 draws them (wins/playouts, the playout
    dashed), on tic-tac-toe: iteration 8 of 10 plays out three moves."""
    from viz.export import write_mcts_phases
    from viz.mcts_tree import mcts_tree

    ttt: Any = load_game("tictactoe")
    tree = mcts_tree(ttt, ttt.parse_state("xo./.x./o.."), iterations=10, seed=1)
    path = write_mcts_phases(tree, out / "mcts_phases.png", 8)
    print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


CHANCE_TREE = "[{1/2: [3, 5], 1/2: [1, 9]}, {1/2: [0, 2], 1/2: [1, 1]}]"
"""Two moves for MAX, each a fair coin, then MIN's choice: expectiminimax 2 for the left."""

STAR2_TREE = "[{1/2: [6, 6], 1/2: [6, 5]}, {1/2: [4, 5], 1/2: [7, 3]}, {1/2: [9, 8], 1/2: [2, 0]}]"
"""A tree where Star2's probes cut what Star1 must search (18 nodes against 20)."""


def chance_figures(out: Path) -> None:
    """Chance nodes: expectiminimax, Star1 cutting with the bounds, Star2's probes, stepwise."""
    print("Games of chance:")
    game = load_game("textbook", tree=CHANCE_TREE)
    both(game_tree(game, algorithm="expectiminimax"), out, "chance_expectiminimax")
    star1 = game_tree(game, algorithm="star1")
    both(star1, out, "chance_star1", alpha_beta_labels=True)
    probing = load_game("textbook", tree=STAR2_TREE)
    both(game_tree(probing, algorithm="star1"), out, "chance_star1_probing", alpha_beta_labels=True)
    star2 = game_tree(probing, algorithm="star2")
    both(star2, out, "chance_star2", alpha_beta_labels=True)
    page = write_html(star2, out / "chance_star2_steps.html")
    print(f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")
    # the interactive page: edit a leaf or switch between the three searches, in the browser
    page = write_interactive(star2, out / "chance_star2_interactive.html", game=probing)
    print(f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    textbook_figures(out)
    tictactoe_figures(out)
    ayoayo_figures(out)
    mcts_figures(out)
    chance_figures(out)
    tictactoe_counts()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
