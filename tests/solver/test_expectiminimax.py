"""Expectiminimax and *-minimax against a brute-force expectation written here, on random trees.

The brute force reads the raw nested lists and :class:`games.textbook.Chance` nodes directly
(MAX at the root, the players alternating over decision nodes, a chance node the plain
probability-weighted sum of its subtrees), sharing no code with the game or the searches.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.textbook import Chance, TextbookTree
from solver.chance import outcomes
from solver.errors import CapabilityError, InvalidStateError
from solver.events import Cutoff, Enter, Trace
from solver.expectiminimax import expectiminimax, star1, star2
from solver.minimax import alphabeta, minimax


def brute(tree: Any, player: int = 0) -> Any:
    """The expectiminimax value of a raw tree, by its definition (AIMA 4e §5.5)."""
    if isinstance(tree, Chance):
        return sum(p * brute(sub, player) for p, sub in tree.outcomes)
    if isinstance(tree, list):
        values = [brute(sub, 1 - player) for sub in tree]
        return max(values) if player == 0 else min(values)
    return tree


def aima_python_expect(tree: Any, player: int = 0) -> Any:
    """aima-python's ``expect_minmax`` chance step: the weighted sum divided once more by the
    number of outcomes. Kept here to show that the brute-force check catches that mistake."""
    if isinstance(tree, Chance):
        total = sum(p * aima_python_expect(sub, player) for p, sub in tree.outcomes)
        return total / len(tree.outcomes)
    if isinstance(tree, list):
        values = [aima_python_expect(sub, 1 - player) for sub in tree]
        return max(values) if player == 0 else min(values)
    return tree


@st.composite
def probabilities(draw: st.DrawFn, n: int) -> list[Fraction]:
    weights = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    return [Fraction(w, sum(weights)) for w in weights]


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> Any:
    """Random trees of up to 4 levels: leaves -9..9, lists of 1-3, chance nodes of 1-3."""
    kind = draw(st.sampled_from(["leaf", "list", "chance"] if depth < 4 else ["leaf"]))
    if kind == "leaf" and depth > 0:
        return draw(st.integers(-9, 9))
    n = draw(st.integers(1, 3))
    subtrees = [draw(trees(depth + 1)) for _ in range(n)]
    if kind == "chance":
        return Chance(list(zip(draw(probabilities(n)), subtrees, strict=True)))
    return subtrees


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class TestAgainstBruteForce:
    @SETTINGS
    @given(trees())
    def test_expectiminimax_is_the_expectation_by_definition(self, tree: Any) -> None:
        """On hundreds of random chance trees the value equals the brute force, exactly."""
        assert expectiminimax(TextbookTree(tree)).value == brute(tree)

    @SETTINGS
    @given(trees(), st.integers(0, 5))
    def test_star1_and_star2_give_the_same_values(self, tree: Any, slack: int) -> None:
        """*-minimax (tight or loose bounds) returns expectiminimax's root value, exactly."""
        game = TextbookTree(tree)
        lo, hi = game.utility_bounds()
        bounds = (lo - slack, hi + slack)
        want = brute(tree)
        assert star1(game, bounds=bounds).value == want
        assert star2(game, bounds=bounds).value == want

    @SETTINGS
    @given(trees())
    def test_star_searches_visit_no_more_leaves_than_expectiminimax(self, tree: Any) -> None:
        """Star1 prunes: it never evaluates more leaves than the full search."""
        game = TextbookTree(tree)
        assert star1(game).stats.leaves <= expectiminimax(game).stats.leaves

    def test_the_check_catches_the_extra_division_by_the_number_of_outcomes(self) -> None:
        """aima-python's chance step (sum / n) fails the same comparison."""
        tree = [Chance([(Fraction(1, 2), 4), (Fraction(1, 2), 6)])]
        assert brute(tree) == 5 == expectiminimax(TextbookTree(tree)).value
        assert aima_python_expect(tree) == Fraction(5, 2) != brute(tree)


class TestTextbookFigures:
    def test_aima_figure_5_11_style_tree(self) -> None:
        """Two MAX moves, each a roll with 0.9/0.1 odds over MIN's choices: 2.1 beats 1.3."""
        game = TextbookTree("[{0.9: [2, 3], 0.1: [3, 4]}, {0.9: [1, 2], 0.1: [4, 5]}]")
        result = expectiminimax(game)
        assert result.value == pytest.approx(2.1)
        assert result.action_values[1] == pytest.approx(1.3)
        assert result.best_action == 0

    def test_exact_fractions_stay_exact(self) -> None:
        """Dice probabilities in sixths give an exact Fraction."""
        game = TextbookTree("[{1/6: 1, 5/6: [2, 7]}]")
        assert expectiminimax(game).value == Fraction(1, 6) + Fraction(5, 6) * 2


class TestStarCuts:
    def test_star1_cuts_at_a_chance_node_when_the_rest_cannot_matter(self) -> None:
        """After A's 3, a roll whose first outcome is 0 (bounds 0..4) is at most 2: cut."""
        game = TextbookTree("[3, {1/2: 0, 1/2: 4}]".replace("[3,", "[[3],"))
        trace = Trace()
        result = star1(game, observer=trace, bounds=(0, 4))
        cuts = [e for e in trace.events if isinstance(e, Cutoff)]
        assert result.value == 3 == brute([[3], Chance([(Fraction(1, 2), 0), (Fraction(1, 2), 4)])])
        assert len(cuts) == 1 and cuts[0].fails_high is False and cuts[0].pruned == (1,)

    def test_star2_probes_before_the_full_search(self) -> None:
        """Star2's probe of a MIN node's first move bounds it from above, and the roll is cut."""
        tree = "[[9], {1/2: [1, 8], 1/2: [2, 8]}]"
        trace = Trace()
        result = star2(TextbookTree(tree), observer=trace)
        probes = [e for e in trace.events if isinstance(e, Enter) and e.probe]
        assert result.value == 9 and probes
        assert (
            star2(TextbookTree(tree)).stats.leaves < expectiminimax(TextbookTree(tree)).stats.leaves
        )

    @pytest.mark.parametrize(
        ("tree", "pruned", "probed"),
        [
            ("[1, {1: 1}]", (0,), ()),  # the bounds [1, 1] settle B before its leaf is searched
            ("[4, {1/3: 5, 2/3: [2]}]", (0,), (1,)),  # the leaf 5 is not probed, [2] is
            ("[4, {1/3: 5, 1/3: [2], 1/3: 5}, 0]", (0, 2), (1,)),  # on both sides of the probe
        ],
    )
    def test_a_cut_among_the_probes_prunes_every_outcome_never_entered(
        self, tree: str, pruned: tuple[int, ...], probed: tuple[int, ...]
    ) -> None:
        """Star2 cutting while it probes prunes the outcomes it did not probe (a leaf is never
        probed) as well as those after the cut, in outcome order, and counts the cut."""
        trace = Trace()
        result = star2(TextbookTree(tree), observer=trace)
        cuts = [e for e in trace.events if isinstance(e, Cutoff)]
        probes = [e.action for e in trace.events if isinstance(e, Enter) and e.probe]
        assert [c.pruned for c in cuts] == [pruned] and tuple(probes) == probed
        assert result.stats.cutoffs == 1
        assert result.value == expectiminimax(TextbookTree(tree)).value

    @SETTINGS
    @given(trees(), st.sampled_from([star1, star2]), st.integers(0, 3))
    def test_every_outcome_is_entered_or_pruned(self, tree: Any, search: Any, slack: int) -> None:
        """At every chance node, each outcome is searched in full, probed, or pruned by the
        node's cut: none is left out unsaid, none pruned and searched in full both."""
        game = TextbookTree(tree)
        lo, hi = game.utility_bounds()
        trace = Trace()
        result = search(game, observer=trace, bounds=(lo - slack, hi + slack))
        full: dict[int, list[Any]] = {}
        probed: dict[int, list[Any]] = {}
        pruned: dict[int, list[Any]] = {}
        chance: dict[int, Any] = {}
        for e in trace.events:
            if isinstance(e, Enter) and e.parent is not None:
                (probed if e.probe else full).setdefault(e.parent, []).append(e.action)
            if isinstance(e, Enter) and e.chance:
                chance[e.node] = e.state
            if isinstance(e, Cutoff):
                pruned[e.node] = list(e.pruned)
        for node, state in chance.items():
            everyone = [a for a, _ in outcomes(game, state)]
            mine = pruned.get(node, [])
            assert mine == sorted(mine) and not set(mine) & set(full.get(node, []))
            assert set(full.get(node, [])) | set(probed.get(node, [])) | set(mine) == set(everyone)
        assert result.stats.cutoffs == sum(1 for v in pruned.values() if v)


class TestRefusals:
    def test_minimax_and_alphabeta_refuse_a_game_with_chance(self) -> None:
        game = TextbookTree("[{1/2: 3, 1/2: 5}]")
        for search in (minimax, alphabeta):
            with pytest.raises(CapabilityError, match="expectiminimax"):
                search(game)

    def test_star1_names_a_leaf_outside_its_bounds(self) -> None:
        with pytest.raises(InvalidStateError, match=r"utility 5 .* outside the bounds \[0, 4\]"):
            star1(TextbookTree("[{1/2: 3, 1/2: 5}]"), bounds=(0, 4))

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("[{1/2: 3, 1/3: 5}]", r"1/2, 1/3 sum to 5/6, not 1"),
            ("[{-1/2: 3, 3/2: 5}]", r"invalid probability -1/2 .* must be > 0"),
            ("[{0.5: 3, 0.6: 5}]", r"0.5, 0.6 sum to 1.1, not 1"),
            ("[{1/0: 3}]", r"divides by zero"),
            ("[{x: 3}]", r"'x' at character 2 is not a probability"),
            ("[{1/2 3}]", r"expected ':' after a probability"),
            ("[{}]", r"empty chance node"),
            ("[{1: 3]", r"expected '}' but found ']'"),
        ],
    )
    def test_bad_chance_notation_is_named(self, text: str, message: str) -> None:
        with pytest.raises(InvalidStateError, match=message):
            TextbookTree(text)

    def test_a_python_chance_node_is_checked_too(self) -> None:
        with pytest.raises(InvalidStateError, match=r"invalid probability '1/2'"):
            TextbookTree([Chance([("1/2", 3), (Fraction(1, 2), 4)])])  # type: ignore[list-item]
