"""Exact values of many positions, one after another, for the value alone.

Assumes two players, zero-sum, deterministic, perfect information, and games that end (a
search to the end must finish). What a benchmark of solvers asks (Pascal Pons's Connect Four
sets: a file of positions, each with its score): each position's game value and nothing else,
no best moves, no plies, no principal variation, so none of the driver's passes around the
node search.

On the compiled route (:mod:`solver.compiled`) a position costs one kernel entry: the kernel
searches it to the end, as null-window searches that close in on the value between the utility
bounds when the game's rules ask for them (``CompiledRules.null_window``), on a table made as
good as fresh for each position (its entries of earlier positions read as empty), so each
answer and its time are those of the position alone. The table's memory is touched once when
the solver is made (as a C++ solver allocates and clears its table before its first position),
so no position pays for the pages. Elsewhere (no numba, a game with no compiled rules) the
engine answers: :func:`solver.engine.search` with ``plies=False``, the same values, slower.

>>> from games import load_game
>>> game = load_game("tictactoe")
>>> solver = ExactValues(game)
>>> solver.value(game.initial_state()), solver.value(game.parse_state("xx./oo./..."))
(0, 1)
"""

from __future__ import annotations

from typing import Any, Final

from solver.capabilities import has_capability
from solver.compiled import CompiledSearch, compiled_search, numba_available
from solver.engine import search
from solver.game import Game, HasCompiledRules, checked_game
from solver.node_search import Limits, SearchStopped
from solver.results import SearchRequest

__all__ = ["TABLE_SIZE", "ExactValues"]

TABLE_SIZE: Final = 1 << 20
"""Table entries by default: 1,048,576, the engine's default. A smaller table, nearer the
processor's caches, is quicker on positions of a few hundred thousand nodes (Connect Four's
Middle-Medium set of our own, benchmarks/data/connect4: 27.7 against 39 ms a position with
2**17 entries) but loses far more on long searches that need the room: the first Begin-Hard
position of that set, 46.5 M nodes and 21 s with 2**20 entries, was not solved within 150 M
nodes and 58 s with 2**17. ``table_size`` (``gamesolver scores --table-size``) chooses."""


class ExactValues:
    """Solves positions of ``game`` to the end for their exact value only.

    Args:
        game: the rulebook (a game that ends).
        table_size: the transposition table's entries (the compiled route's table, kept
            between positions and made as good as fresh for each).
        node_limit: nodes a position may take (None: no limit); a position that needs more
            raises :class:`~solver.node_search.SearchStopped` (the compiled route looks at the
            count between its kernel entries, so it stops within a few thousand nodes past it;
            a budget for sorting many positions by how hard they are, as a benchmark set's
            maker does).

    Attributes:
        compiled: whether the positions are solved on the compiled route.
        nodes: the nodes of the last position's search (the compiled route's count; the
            engine's otherwise).
    """

    def __init__(
        self, game: Game[Any, Any], table_size: int = TABLE_SIZE, node_limit: int | None = None
    ) -> None:
        checked_game(game, "ExactValues")
        self.game = game
        self.table_size = table_size
        self.node_limit = node_limit
        self.nodes = 0
        self._search: CompiledSearch | None = None
        if has_capability(game, HasCompiledRules) and numba_available():
            request = SearchRequest(plies=False, table_size=table_size)
            limits = Limits(None, node_limit)
            self._search = compiled_search(game, game.compiled_rules(), request, limits)
        if self._search is not None:
            self._search.limits.start()
            self._search.arrays.table.fill(0)  # every page touched now, not by a position

    @property
    def compiled(self) -> bool:
        return self._search is not None

    def value(self, state: Any) -> Any:
        """The exact game value of ``state`` (player 0's view): a state of the game, as its
        ``parse_state`` gives them (unchecked here, as ``result`` is: a benchmark's loop).

        Raises:
            SearchStopped: the position needs more than ``node_limit`` nodes.
        """
        nodes = self._search
        if nodes is None:
            limit = self.node_limit
            result = search(
                self.game, state, plies=False, table_size=self.table_size, node_limit=limit
            )
            self.nodes = result.stats.nodes
            if not result.exact:
                raise SearchStopped
            return result.value
        value = nodes.value_to_the_end(state)
        self.nodes = nodes.nodes
        return value
