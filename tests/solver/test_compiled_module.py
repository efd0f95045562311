"""The compiled route's kernel as a module on disk: its text, its file, and rules it refuses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from solver import compiled_module
from solver.compiled import KERNEL_CONSTANTS, numba_available
from solver.compiled_module import RulesNotRestated, load_module, module_text

RULES = compiled_module._example_rules()


class TestTheModulesText:
    def test_the_text_holds_the_rules_constants_and_the_kernel(self) -> None:
        """The rules' block binds the rules, their closures' constants and the kernel's own;
        the same rules give the same text (the file's name is a hash of it)."""
        text = module_text(RULES, KERNEL_CONSTANTS)
        assert text == module_text(RULES, KERNEL_CONSTANTS)
        for line in ("WORDS = 2", "MOVE_LIMIT = 3", "HAS_KEY = False", "NODES = 0"):
            assert f"\n{line}\n" in text
        assert "\ndef moves(s: Any, out: Any) -> int:\n" in text
        assert "\nrules_evaluate = rules_utility\n" in text  # no evaluation: the utility
        assert "\ndef negamax(" in text and "\ndef child_value(" in text
        compile(text, "kernel", "exec")  # valid Python

    def test_closure_constants_are_written_out_exactly(self) -> None:
        """Ints, floats (infinities too), tuples and arrays come back equal."""
        import numpy as np

        table = np.array([[1, -2], [3, 4]], np.int64)
        limit = float("inf")
        steps = (1, 2)

        def moves(s: Any, out: Any) -> int:  # pragma: no cover - never run
            return int(table[0, 0] + steps[1] + (limit > 0))

        text = module_text(attrs.evolve(RULES, moves=moves), {})
        namespace: dict[str, Any] = {"np": np}
        for name in ("table", "limit", "steps"):
            line = next(x for x in text.splitlines() if x.startswith(f"{name} = "))
            exec(line, namespace)
        assert namespace["table"].tolist() == table.tolist()
        assert namespace["table"].dtype == np.int64
        assert (namespace["limit"], namespace["steps"]) == (limit, steps)

    def test_an_intrinsic_is_restated_as_one(self) -> None:
        """A numba intrinsic the rules call (Ayòayò reads its levels through one) is written
        as its typing function, made an intrinsic again in the module, with what it uses."""
        numba = pytest.importorskip("numba")
        from numba.core import types

        @numba.extending.intrinsic
        def doubled(typingctx: Any, x: Any) -> Any:  # pragma: no cover - never compiled
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                return builder.add(args[0], args[0])

            return types.int64(types.int64), codegen

        def utility(s: Any) -> float:  # pragma: no cover - never run
            return float(doubled(s[0]))

        text = module_text(attrs.evolve(RULES, utility=utility), {})
        assert "\nfrom numba.extending import intrinsic as numba_intrinsic\n" in text
        assert "\nimport numba.core.types as types\n" in text
        assert "\ndef doubled(typingctx: Any, x: Any) -> Any:" in text
        assert "\ndoubled = numba_intrinsic(doubled)\n" in text
        assert text.index("doubled = numba_intrinsic") < text.index("def utility(")
        compile(text, "kernel", "exec")  # valid Python


class TestRulesItRefuses:
    def test_an_object_in_a_closure(self) -> None:
        """A dict cannot be written out: the message names it and the rules."""
        lookup = {"a": 1}

        def moves(s: Any, out: Any) -> int:  # pragma: no cover - never run
            return lookup["a"]

        with pytest.raises(RulesNotRestated, match=r"'pile'.*'lookup' holds a dict"):
            module_text(attrs.evolve(RULES, moves=moves), {})

    def test_a_helper_named_as_a_kernel_function(self) -> None:
        """A helper called like one of the kernel's functions would replace it: refused."""

        def negamax(x: int) -> int:  # pragma: no cover - never run
            return x

        def moves(s: Any, out: Any) -> int:  # pragma: no cover - never run
            return negamax(0)

        with pytest.raises(RulesNotRestated, match="'negamax' is a name of the kernel's own"):
            module_text(attrs.evolve(RULES, moves=moves), {})


class TestBounds:
    def test_one_bound_alone_is_refused(self) -> None:
        """top without bottom: the kernel cuts on both, so both are asked for."""

        def top(s: Any) -> float:  # pragma: no cover - never run
            return 1.0

        with pytest.raises(RulesNotRestated, match="give both top and bottom, or neither"):
            module_text(attrs.evolve(RULES, top=top), {})

    def test_bounds_are_written_and_switched_on(self) -> None:
        def top(s: Any) -> float:  # pragma: no cover - never run
            return 1.0

        def bottom(s: Any) -> float:  # pragma: no cover - never run
            return -1.0

        text = module_text(attrs.evolve(RULES, top=top, bottom=bottom), {})
        assert "\nHAS_BOUNDS = True\n" in text and "\nrules_bottom = bottom\n" in text
        assert "\nHAS_BOUNDS = False\n" in module_text(RULES, {})


class TestTheProofsRules:
    def test_the_proof_search_is_in_the_text_with_its_rules_switched_off(self) -> None:
        text = module_text(RULES, {})
        assert "def prove(" in text and "def proof_put(" in text
        assert "\nHAS_ENDLESS = False\n" in text and "\nHAS_PROGRESS = False\n" in text
        assert f"\nPOSITION_WORDS = {RULES.words}\n" in text

    def test_endless_value_progress_and_position_words_are_written(self) -> None:
        def endless_value(s: Any) -> float:  # pragma: no cover - never run
            return 0.0

        def progress(s: Any) -> int:  # pragma: no cover - never run
            return 0

        rules = attrs.evolve(RULES, endless_value=endless_value, progress=progress)
        text = module_text(attrs.evolve(rules, position_words=1), {})
        assert "\nHAS_ENDLESS = True\n" in text and "\nrules_progress = progress\n" in text
        assert "\nPOSITION_WORDS = 1\n" in text

    def test_progress_without_endless_value_and_too_many_position_words_are_refused(
        self,
    ) -> None:
        def progress(s: Any) -> int:  # pragma: no cover - never run
            return 0

        with pytest.raises(RulesNotRestated, match="give endless_value"):
            module_text(attrs.evolve(RULES, progress=progress), {})
        with pytest.raises(RulesNotRestated, match=f"position_words 99 is not in 0..{RULES.words}"):
            module_text(attrs.evolve(RULES, position_words=99), {})


@pytest.mark.skipif(not numba_available(), reason="numba (the fast extra) missing")
class TestTheFile:
    def test_written_once_atomically_and_imported(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The file is written whole (no temporary left), imported, and left untouched by a
        later load (numba's cache is valid only while its source file's stamp is)."""
        monkeypatch.setattr(compiled_module, "kernel_folder", lambda: tmp_path)
        module = load_module(RULES, KERNEL_CONSTANTS)
        path = Path(module.__file__ or "")
        assert path.parent == tmp_path / "compiled-route"
        assert [p.name for p in path.parent.iterdir() if p.is_file()] == [path.name]
        stamp = path.stat().st_mtime_ns
        del sys.modules[module.__name__]
        again = load_module(RULES, KERNEL_CONSTANTS)
        assert again.__file__ == module.__file__ and path.stat().st_mtime_ns == stamp
        assert callable(again.child_value) and RULES.words == again.WORDS
        del sys.modules[again.__name__]

    def test_no_writable_folder_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(compiled_module, "kernel_folder", lambda: None)
        with pytest.raises(RulesNotRestated, match="NUMBA_CACHE_DIR"):
            load_module(attrs.evolve(RULES, name="pile nowhere"), KERNEL_CONSTANTS)


class TestScratchPseudoMovesAndPacks:
    """What rules that need memory, refuse moves, or pack their positions are given."""

    def test_rules_without_scratch_are_adapted_to_the_kernels_calls(self) -> None:
        """The kernel calls every rule with the ply's scratch last; rules that take none get
        an adapter, and ``play`` of legal moves only answers True."""
        text = module_text(RULES, {})
        assert "\ndef rules_moves(s, out, tr):\n    return rules_moves_given(s, out)\n" in text
        adapter = "\ndef rules_play(s, move, child, tr):\n    rules_play_given(s, move, child)\n"
        assert adapter + "    return True\n" in text
        assert "\nKEY_WORDS = 2\n" in text and "return (s[0], s[1],)" in text

    def test_rules_that_take_scratch_and_refuse_moves(self) -> None:
        def play(s: Any, move: int, child: Any, tr: Any) -> bool:  # pragma: no cover
            return True

        def terminal(s: Any) -> bool:  # pragma: no cover - never run
            return s[0] == 0

        def pack(s: Any) -> tuple[int]:  # pragma: no cover - never run
            return (s[0] << 1 | s[1],)

        rules = attrs.evolve(
            RULES, play=play, terminal=terminal, pseudo_moves=True, scratch=4, pack=pack,
            pack_words=1,
        )  # fmt: skip
        text = module_text(rules, {})
        assert "\n    return rules_play_given(s, move, child, tr)\n" in text
        assert "\n    return rules_terminal_given(s)\n" in text
        for line in ("KEY_WORDS = 1", "PSEUDO_MOVES = True", "HAS_TERMINAL = True"):
            assert f"\n{line}\n" in text
        compile(text, "kernel", "exec")

    def test_pseudo_moves_need_a_test_of_the_end(self) -> None:
        with pytest.raises(RulesNotRestated, match="pseudo_moves must give terminal"):
            module_text(attrs.evolve(RULES, pseudo_moves=True), {})

    def test_a_rule_taking_scratch_needs_its_size(self) -> None:
        def moves(s: Any, out: Any, tr: Any) -> int:  # pragma: no cover - never run
            return 0

        with pytest.raises(RulesNotRestated, match="moves takes a scratch array: give scratch"):
            module_text(attrs.evolve(RULES, moves=moves), {})

    def test_a_rule_of_the_wrong_arity(self) -> None:
        def play(s: Any) -> None:  # pragma: no cover - never run
            pass

        with pytest.raises(RulesNotRestated, match="play takes 1 arguments; give 3, or 4"):
            module_text(attrs.evolve(RULES, play=play), {})
