"""``--style aima`` is the book: AIMA 4e Figure 5.5 (alpha-beta on Figure 5.2's tree), panel by
panel, number for number; ranges kept within *-minimax's bounds [L, U]."""

from __future__ import annotations

from typing import Any

import pytest

from games import load_game
from viz import game_tree
from viz.model import figure

# Figure 5.5: after each leaf, the ranges the book prints (a missing node is not drawn yet)
PANELS = {
    1: {"A": "[−∞, +∞]", "B": "[−∞, 3]"},  # (a)
    2: {"A": "[−∞, +∞]", "B": "[−∞, 3]"},  # (b)
    3: {"A": "[3, +∞]", "B": "[3, 3]"},  # (c)
    5: {"A": "[3, +∞]", "B": "[3, 3]", "C": "[−∞, 2]"},  # (d)
    8: {"A": "[3, 14]", "B": "[3, 3]", "C": "[−∞, 2]", "D": "[−∞, 14]"},  # (e)
    9: {"A": "[3, 5]", "B": "[3, 3]", "C": "[−∞, 2]", "D": "[−∞, 5]"},  # (f), after 5
    12: {"A": "[3, 3]", "B": "[3, 3]", "C": "[−∞, 2]", "D": "[2, 2]"},  # (f), the end
}


def named(tree: Any, step: int | None, style: str) -> dict[str, tuple[str, str]]:
    """Each named node drawn at ``step``: its value and range as the figure writes them."""
    names = {n: d["name"] for n, d in tree.graph.nodes(data=True)}
    looks = figure(tree, step=step, alpha_beta_labels=True, style=style).nodes
    return {names[n]: (k.value, k.range) for n, k in looks.items() if names[n] and k.visible}


class TestFigure55:
    @pytest.mark.parametrize("step", sorted(PANELS))
    def test_each_panel_number_for_number(self, step: int) -> None:
        """The root reads [3, +∞], then [3, 14] and [3, 5] while D is searched; D ends [2, 2]."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        shown = named(tree, step, "aima")
        assert {name: span for name, (_, span) in shown.items()} == PANELS[step]

    def test_values_as_the_book_writes_them(self) -> None:
        """Figure 5.2's values: A 3, B 3, C 2, D 2 (no ≤ signs), D exact since all searched."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        shown = named(tree, None, "aima")
        assert {name: value for name, (value, _) in shown.items()} == {
            "A": "3",
            "B": "3",
            "C": "2",
            "D": "2",
        }

    def test_the_default_style_keeps_alpha_betas_bounds(self) -> None:
        """Without the book's style D is what alpha-beta returned: ≤2, at most 2."""
        tree = game_tree(load_game("textbook"), algorithm="alphabeta")
        assert named(tree, None, "default")["D"] == ("≤2", "[−∞, 2]")


class TestStarBounds:
    TREE = "[{1/2: [2, 2], 1/2: [1, 2]}, {1/2: [0, 2], 1/2: [-1, 0]}]"

    @pytest.mark.parametrize("style", ["default", "aima"])
    def test_ranges_stay_within_l_and_u(self, style: str) -> None:
        """With bounds [−2, 2] D (≥2) is [2, 2], not [2, +∞]; F (≤0) is [−2, 0]."""
        game = load_game("textbook", tree=self.TREE)
        tree = game_tree(game, algorithm="star1", bounds=(-2, 2))
        shown = named(tree, None, style)
        assert shown["D"][1] == "[2, 2]" and shown["F"][1] == "[−2, 0]"
        assert shown["D"][0] == ("2" if style == "aima" else "≥2")
