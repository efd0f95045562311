"""Tests for the bounded transposition table."""

from __future__ import annotations

import random

import pytest

from solver.table import END, EXACT, LOWER, UPPER, TranspositionTable, bound_name


class TestEntries:
    """What goes in comes out, with its bound flag, depth and move."""

    def test_a_stored_entry_is_found_with_all_its_fields(self) -> None:
        """get returns value, depth, flag, move, the horizon-free mark and the generation."""
        table = TranspositionTable(16)
        table.store("s", 7, 3, LOWER, "m", free=True)
        assert table.get("s") == (7, 3, LOWER, "m", True, 0)

    def test_an_unknown_key_is_none_and_not_a_hit(self) -> None:
        """A miss returns None and leaves the hit counter alone."""
        table = TranspositionTable(16)
        table.store("s", 1, 1, EXACT, None)
        assert table.get("t") is None
        assert table.hits == 0
        table.get("s")
        assert table.hits == 1

    def test_a_new_entry_for_the_same_key_replaces_the_old_one(self) -> None:
        """Storing a key again overwrites it and counts an overwrite."""
        table = TranspositionTable(16)
        table.store("s", 1, 1, UPPER, 0)
        table.store("s", 2, END, EXACT, 1)
        assert table.get("s") == (2, END, EXACT, 1, False, 0)
        assert (table.stores, table.overwrites, len(table)) == (2, 1, 1)

    def test_overwrites_count_the_stores_that_replaced_an_entry(self) -> None:
        """Across evictions, overwrites equals a count kept by hand."""
        rng = random.Random(4)
        table = TranspositionTable(6)
        replaced = 0
        for i in range(3000):
            if i % 50 == 0:
                table.new_generation()
            key = rng.randrange(12)
            replaced += key in table.entries
            table.store(key, i, 1, EXACT, None)
            assert table.overwrites == replaced

    def test_bound_names_are_the_events_words(self) -> None:
        """The flags are named as CacheHit events name them."""
        assert [bound_name(f) for f in (EXACT, LOWER, UPPER)] == ["exact", "lower", "upper"]


class TestBound:
    """The table never holds more entries than its size."""

    @pytest.mark.parametrize("size", [1, 2, 3, 8, 100])
    def test_many_random_stores_never_exceed_the_size(self, size: int) -> None:
        """Thousands of stores over several generations keep len(table) <= size."""
        rng = random.Random(size)
        table = TranspositionTable(size)
        for i in range(5000):
            if i % 700 == 0:
                table.new_generation()
            table.store(rng.randrange(10 * size + 5), i, rng.randrange(5), EXACT, None)
            assert len(table) <= size
        assert table.evictions > 0

    def test_older_generations_go_first(self) -> None:
        """When full, entries of the current generation survive if the old ones free room."""
        table = TranspositionTable(8)
        for key in range(6):
            table.store(("old", key), 0, 1, EXACT, None)
        table.new_generation()
        for key in range(3):
            table.store(("new", key), 0, 1, EXACT, None)
        assert sorted(k[0] for k in table.entries) == ["new"] * 3
        assert table.evictions == 6

    def test_a_full_table_of_the_current_generation_starts_afresh(self) -> None:
        """With nothing old to forget, the table forgets everything and keeps the new entry."""
        table = TranspositionTable(4)
        for key in range(5):
            table.store(key, 0, 1, EXACT, None)
        assert len(table) == 0 or len(table) <= 4
        table.store(9, 1, 1, EXACT, None)
        assert table.get(9) is not None
        assert len(table) <= 4

    @pytest.mark.parametrize("size", [0, -1, 2.5, True])
    def test_a_bad_size_is_refused_with_the_value_quoted(self, size: object) -> None:
        """Sizes that are not positive ints raise ValueError quoting them."""
        with pytest.raises(ValueError, match=f"invalid table size {size!r}"):
            TranspositionTable(size)  # type: ignore[arg-type]

    def test_clear_empties_the_table_and_its_counters(self) -> None:
        """clear forgets entries, counters and the generation."""
        table = TranspositionTable(4)
        table.store(1, 1, 1, EXACT, None)
        table.new_generation()
        table.clear()
        assert (len(table), table.stores, table.generation) == (0, 0, 0)
