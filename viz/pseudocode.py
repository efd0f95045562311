"""The searches' pseudocode as AIMA writes it, and the line each step of a search carries out.

The stepper page shows the pseudocode beside the tree and highlights, frame by frame, the line
the step just carried out: a leaf valued is the terminal test's ``return``, a value backed up is
the ``return v`` of MAX-VALUE or MIN-VALUE, a cut-off the test that returned early (and the value
it returned: a node cut off returns from that test, not from the function's last line). Star2's
probes have lines of their own: the probe of an outcome's first move, and the cut it may allow.

>>> from games import load_game
>>> from viz.build import game_tree
>>> tree = game_tree(load_game("textbook"), algorithm="alphabeta")
>>> [step_lines(tree)[k] for k in (0, 1, 4, 6, 7, 12)]
[None, 'max-leaf', 'min-return', 'min-cut', 'min-cut', 'max-return']
"""

from __future__ import annotations

from html import escape

from viz.build import GameTree
from viz.palette import CURRENT
from viz.tree_node import TreeNode, tree_node

__all__ = ["PSEUDOCODE", "PSEUDOCODE_STYLE", "pseudocode_html", "step_lines"]

_MINIMAX = (
    ("", "function MINIMAX-SEARCH(game, state) returns an action"),
    ("", "  value, move ← MAX-VALUE(game, state)"),
    ("", "  return move"),
    ("", ""),
    ("", "function MAX-VALUE(game, state) returns a (utility, move) pair"),
    ("max-leaf", "  if game.IS-TERMINAL(state) then return game.UTILITY(state, player), null"),
    ("", "  v ← −∞"),
    ("", "  for each a in game.ACTIONS(state) do"),
    ("", "    v2, a2 ← MIN-VALUE(game, game.RESULT(state, a))"),
    ("", "    if v2 > v then v, move ← v2, a"),
    ("max-return", "  return v, move"),
    ("", ""),
    ("", "function MIN-VALUE(game, state) returns a (utility, move) pair"),
    ("min-leaf", "  if game.IS-TERMINAL(state) then return game.UTILITY(state, player), null"),
    ("", "  v ← +∞"),
    ("", "  for each a in game.ACTIONS(state) do"),
    ("", "    v2, a2 ← MAX-VALUE(game, game.RESULT(state, a))"),
    ("", "    if v2 < v then v, move ← v2, a"),
    ("min-return", "  return v, move"),
)

_ALPHABETA = (
    ("", "function ALPHA-BETA-SEARCH(game, state) returns an action"),
    ("", "  value, move ← MAX-VALUE(game, state, −∞, +∞)"),
    ("", "  return move"),
    ("", ""),
    ("", "function MAX-VALUE(game, state, α, β) returns a (utility, move) pair"),
    ("max-leaf", "  if game.IS-TERMINAL(state) then return game.UTILITY(state, player), null"),
    ("", "  v ← −∞"),
    ("", "  for each a in game.ACTIONS(state) do"),
    ("", "    v2, a2 ← MIN-VALUE(game, game.RESULT(state, a), α, β)"),
    ("", "    if v2 > v then v, move ← v2, a;  α ← MAX(α, v)"),
    ("max-cut", "    if v ≥ β then return v, move"),
    ("max-return", "  return v, move"),
    ("", ""),
    ("", "function MIN-VALUE(game, state, α, β) returns a (utility, move) pair"),
    ("min-leaf", "  if game.IS-TERMINAL(state) then return game.UTILITY(state, player), null"),
    ("", "  v ← +∞"),
    ("", "  for each a in game.ACTIONS(state) do"),
    ("", "    v2, a2 ← MAX-VALUE(game, game.RESULT(state, a), α, β)"),
    ("", "    if v2 < v then v, move ← v2, a;  β ← MIN(β, v)"),
    ("min-cut", "    if v ≤ α then return v, move"),
    ("min-return", "  return v, move"),
)

_MCTS = (
    ("", "function MONTE-CARLO-TREE-SEARCH(state) returns an action"),
    ("", "  tree ← NODE(state)"),
    ("", "  while IS-TIME-REMAINING() do"),
    ("select", "    leaf ← SELECT(tree)          // UCB1 down to a node with an untried move"),
    ("expand", "    child ← EXPAND(leaf)"),
    ("playout", "    result ← SIMULATE(child)     // play on at random to the end"),
    ("backup", "    BACK-PROPAGATE(result, child) // N + 1, W + result up to the root"),
    ("", "  return the move in ACTIONS(state) whose node has the most playouts"),
)

_EXPECTIMINIMAX = (
    ("", "EXPECTIMINIMAX(s) ="),
    ("max-leaf", "  UTILITY(s, MAX)                        if IS-TERMINAL(s)"),
    ("max-return", "  max_a EXPECTIMINIMAX(RESULT(s, a))     if TO-MOVE(s) = MAX"),
    ("min-return", "  min_a EXPECTIMINIMAX(RESULT(s, a))     if TO-MOVE(s) = MIN"),
    ("chance-return", "  Σ_r P(r) · EXPECTIMINIMAX(RESULT(s, r)) if TO-MOVE(s) = CHANCE"),
    ("", ""),
    ("", "(AIMA 4e §5.5; P(r) sums to 1: nothing is divided by the number of outcomes)"),
)

_STAR_HEAD = (
    ("", "MAX-VALUE, MIN-VALUE: alpha-beta's (AIMA Figure 5.7)"),
    ("max-leaf", "  if IS-TERMINAL(s) then return UTILITY(s)   (every utility in [L, U])"),
    ("max-cut", "  MAX: if v ≥ β then return v"),
    ("min-cut", "  MIN: if v ≤ α then return v"),
    ("max-return", "  MAX: return v  (the largest child value)"),
    ("min-return", "  MIN: return v  (the smallest)"),
    ("", ""),
)

_STAR2_PROBES = (
    ("", "  for each outcome i whose node t_i is MAX's (MIN's) move do   (the probes)"),
    ("probe", "    lo_i ← VALUE(first move of t_i)   (MIN: hi_i ←)  a bound on t_i"),
    ("probe-cut", "    if Σ p_j·hi_j ≤ α then return it   if Σ p_j·lo_j ≥ β then return it"),
)

_STAR_PASS = (
    ("", "  for each outcome i with probability p_i do"),
    ("", "    α_i ← (α − Σ_{j≠i} p_j·hi_j) / p_i;  β_i ← (β − Σ_{j≠i} p_j·lo_j) / p_i"),
    ("", "    v_i ← VALUE(RESULT(s, i), MAX(α_i, L), MIN(β_i, U))"),
    (
        "chance-cut",
        "    if v_i ≤ α_i then return Σ p_j·hi_j  (≤ α)   if v_i ≥ β_i: Σ p_j·lo_j (≥ β)",
    ),
    ("", "    lo_i, hi_i ← v_i"),
    ("chance-return", "  return Σ_i p_i · v_i"),
)

_STAR1 = (
    *_STAR_HEAD,
    ("", "function CHANCE-VALUE(s, α, β)   Ballard's Star1"),
    ("", "  lo_i ← L, hi_i ← U for every outcome i"),
    *_STAR_PASS,
)

_STAR2 = (
    *_STAR_HEAD,
    ("", "function CHANCE-VALUE(s, α, β)   Ballard's Star2: Star1 after probes"),
    ("", "  lo_i ← L, hi_i ← U for every outcome i"),
    *_STAR2_PROBES,
    *_STAR_PASS,
)

_ENGINE = (
    ("", "function ITERATIVE-DEEPENING(state) returns a move"),
    ("", "  for depth ← 1, 2, … until the answer is exact or the depth limit"),
    ("", "    v, move ← NEGAMAX(state, depth, −∞, +∞)"),
    ("", "      (the table keeps every position searched: the last best move comes first)"),
    ("", "  return move"),
    ("", ""),
    ("", "function NEGAMAX(state, depth, α, β) returns a value  (for the player to move)"),
    ("", "  if the table has state searched to this depth:"),
    ("", "    EXACT v: return v     LOWER v: α ← max(α, v)     UPPER v: β ← min(β, v)"),
    ("", "    if α ≥ β then return v"),
    ("", "  if IS-TERMINAL(state) or depth = 0 then return its value"),
    ("", "  v ← −∞"),
    ("", "  for each a in ACTIONS(state), the table's move first, then by history do"),
    ("", "    first move: v_a ← −NEGAMAX(RESULT(state, a), depth − 1, −β, −α)"),
    ("", "    others: a null window (probe α): is v_a > α?  if so, search again in (v_a, β)"),
    ("", "    v ← max(v, v_a);  α ← max(α, v)"),
    ("", "    if v ≥ β then store LOWER v; return v  (the other moves are cut off)"),
    ("", "  store v: UPPER if v ≤ α on entry, else EXACT;  return v"),
)

PSEUDOCODE = {
    "minimax": _MINIMAX,
    "alphabeta": _ALPHABETA,
    "expectiminimax": _EXPECTIMINIMAX,
    "star1": _STAR1,
    "star2": _STAR2,
    "mcts": _MCTS,
    "engine": _ENGINE,
}
"""Each search's pseudocode (AIMA 4th edition, Figures 5.3, 5.7 and 5.11, §5.5; Ballard 1983
for *-minimax; the engine's iterative deepening and principal-variation search with its
transposition table, :mod:`solver.engine`), as (key, text) lines: the key names a line a step
can carry out ("" for the others)."""


def step_lines(tree: GameTree) -> list[str | None]:
    """The key of the line each frame's step carried out (None before the search).

    A leaf is valued by the terminal test of the function that entered it (MAX-VALUE for a MAX
    node); a horizon leaf by the same line, the evaluation standing in for the utility.
    """
    out: list[str | None] = [None]
    graph = tree.graph
    if graph.graph["algorithm"] == "mcts":  # one line per phase of an iteration
        return out + [step.kind for step in tree.steps]
    for step in tree.steps:
        data = tree_node(graph, step.node)
        side = "chance" if data.chance else "max" if data.player == 0 else "min"
        if step.kind == "leaf":
            if graph.graph["algorithm"] not in ("minimax", "alphabeta"):
                side = "max"  # the chance searches have one line for the terminal test
            out.append(f"{side}-leaf")
        elif data.probe:
            out.append("probe")
        elif step.kind == "cut" or _returned_at_cut(data):
            probing = all(
                tree_node(graph, c).kind != "node" or tree_node(graph, c).probe
                for c in graph.successors(step.node)
            )
            out.append("probe-cut" if data.chance and probing else f"{side}-cut")
        else:
            out.append(f"{side}-return")
    return out


def _returned_at_cut(data: TreeNode) -> bool:
    """The node's value was returned by a cut-off test: MAX's v ≥ β, MIN's v ≤ α, a chance
    node's bound (*-minimax)."""
    if data.chance:
        return data.bound != "exact"
    return data.bound == ("lower" if data.player == 0 else "upper")


PSEUDOCODE_STYLE = """
#pseudocode { flex: 0 1 auto; font-size: .8em; line-height: 1.35; background: #f7f7f7;
  border: 1px solid #ddd; padding: .6em .8em; margin: 0; max-width: 100%; overflow-x: auto;
  box-sizing: border-box; }
#pseudocode span { display: block; padding: 0 .3em 0 2.3em; text-indent: -2em;
  white-space: pre-wrap; }
#pseudocode span.now { background: CURRENT; font-weight: bold; }
""".replace("CURRENT", CURRENT)
"""How the pages set the pseudocode: the line of the current step on the current step's
colour (:data:`viz.palette.CURRENT`)."""


def pseudocode_html(tree: GameTree) -> str:
    """The search's pseudocode as a ``<pre id="pseudocode">``, each line a span whose
    ``data-line`` is its key, for a page to highlight (the stepper and the interactive page).

    >>> from games import load_game
    >>> from viz.build import game_tree
    >>> html = pseudocode_html(game_tree(load_game("textbook"), algorithm="alphabeta"))
    >>> html.count("<span"), 'data-line="min-cut"' in html
    (21, True)
    """
    lines = PSEUDOCODE[tree.graph.graph["algorithm"]]
    spans = "".join(
        f'<span data-line="{escape(key)}">{escape(text) or "&#8203;"}</span>' for key, text in lines
    )
    return f'<pre id="pseudocode" aria-label="pseudocode">{spans}</pre>\n'
