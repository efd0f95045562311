"""A game's compiled kernel as a module on disk, so numba keeps it in its cache between processes.

numba caches a function on disk only when it can find it again in a later process: a function
of a module file, whose globals are the same. The generic node search is built against each
game's own rules, so this module writes, once per rules, a small module made of the rules and
the kernel: the text of :mod:`solver.compiled_kernel` with its block of rule declarations
replaced by the game's rule functions (their source, from :func:`inspect.getsource`), the
helpers they call, and the constants they read from their closures or globals, every function
compiled with ``njit(cache=True)``. The file is named by a hash of its text and numba's version
(new rules or a new numba: a new file), lives in the kernels' folder
(:func:`solver.kernel_folder.kernel_folder`, under ``compiled-route``), and is written
atomically; numba keeps its compiled code beside it. A later process writes nothing, imports
the file and loads the kernel from numba's cache: no compiling.

The kernel calls ``moves``, ``safe_moves``, ``play`` and ``terminal`` with the ply's scratch
last (:data:`SCRATCH_ROLES`); rules written without it are called through a small adapter
(``rules_moves`` calling the game's ``moves``, bound as ``rules_moves_given``).

Rules that cannot be restated so (a function without source, a closure holding an object that
is not a number, a tuple, an array, a module, a function or a numba intrinsic; two helpers of
one name) raise :class:`RulesNotRestated`, and the engine searches that game in Python.

>>> text = module_text(_example_rules(), {})
>>> "rules_moves_given = moves" in text and "def negamax(" in text
True
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import math
import os
import re
import sys
import tempfile
import textwrap
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.kernel_folder import kernel_folder

if TYPE_CHECKING:
    from solver.compiled import CompiledRules

__all__ = ["RulesNotRestated", "load_module", "module_text"]

KERNEL_SOURCE = Path(__file__).with_name("compiled_kernel.py")
PROOF_SOURCE = Path(__file__).with_name("compiled_proof_kernel.py")
BEGIN = "# -- the rules (begin)"
END = "# -- the rules (end)"
PROOF_BEGIN = "# -- the proof search (begin)"
JIT = "jit"
INTRINSIC = "numba_intrinsic"
SUBFOLDER = "compiled-route"
NO_ORACLE = f"""
def rules_oracle(s, od):
    return np.nan
rules_oracle = {JIT}(rules_oracle)
"""

NO_MOVE_SCORE = f"""
def rules_move_score(s, move):
    return 0
rules_move_score = {JIT}(rules_move_score)
"""


SCRATCH_ROLES = {"moves": 2, "safe_moves": 2, "play": 3, "terminal": 1}
"""The rules that may take one more argument, the ply's scratch (``CompiledRules.scratch``),
with how many they take without it. The kernel calls each through an adapter with the scratch
last (``play`` answering whether the move was played: always, unless ``pseudo_moves``)."""


CACHE_LINE = 64
"""Bytes of one cache line: a bucket of the node search's table fits in one (one trip to
memory a probe)."""


def key_words(rules: CompiledRules) -> int:
    """The int64s a table entry keeps of a position: the rules' pack, else its words."""
    return rules.words if rules.pack is None else rules.pack_words


def table_row(key_words: int) -> int:
    """The int64s of an entry of the node search's table: a position's ``key_words``, its
    bounds and move, its value, padded to a power of two (an entry never straddles a cache
    line needlessly)."""
    return 1 << (key_words + 1).bit_length()


def table_bucket(key_words: int) -> int:
    """The entries a position may take in the node search's table (the kernel's ``BUCKET``):
    those of one cache line, two at least."""
    return max(2, CACHE_LINE // (8 * table_row(key_words)))


def _jitted(source: str) -> list[str]:
    """A function's lines for the rules' block, compiled as the rest."""
    name = source.split("(", 1)[0].removeprefix("def ")
    return ["", *source.splitlines(), f"{name} = {JIT}({name})", ""]


class RulesNotRestated(ValueError):
    """A game's compiled rules cannot be written out as a module (the message says why)."""


def module_text(rules: CompiledRules, constants: dict[str, int]) -> str:
    """The module's text: the kernel's source with the rules' block holding ``rules`` and the
    kernel's ``constants`` (table layout, counter indices)."""
    kernel = KERNEL_SOURCE.read_text(encoding="utf-8")
    head, rest = kernel.split(BEGIN, 1)
    _, tail = rest.split("\n" + END, 1)
    tail = tail.split("\n", 1)[1]
    proof = PROOF_SOURCE.read_text(encoding="utf-8").split("\n" + PROOF_BEGIN + "\n", 1)[1]
    tail += "\n\n# -- the proof search (solver.compiled_proof_kernel)" + proof
    taken = _top_level_names(head + tail)
    writer = _Writer(rules.name, taken, rules.pseudo_moves)
    for name, value in constants.items():
        writer.bind(name, value)
    writer.bind("WORDS", rules.words)
    writer.bind("MOVE_LIMIT", rules.move_limit)
    writer.bind("HAS_KEY", rules.key is not None)
    writer.bind("KEY_WORDS", key_words(rules))
    writer.bind("BUCKET", table_bucket(key_words(rules)))
    writer.bind("HAS_TERMINAL", rules.terminal is not None)
    writer.bind("PSEUDO_MOVES", rules.pseudo_moves)
    writer.bind("EVALUATE_ENDS", rules.evaluate_ends)
    writer.bind("HAS_ORACLE", rules.oracle is not None)
    writer.bind("HAS_BOUNDS", rules.top is not None)
    writer.bind("HAS_SAFE_MOVES", rules.safe_moves is not None)
    writer.bind("HAS_MOVE_SCORE", rules.move_score is not None)
    writer.bind("NULL_WINDOW", rules.null_window)
    writer.bind("MAX_PLIES", rules.max_plies)
    if not 0 <= rules.position_words <= rules.words:
        raise writer.fail(f"position_words {rules.position_words} is not in 0..{rules.words}")
    writer.bind("POSITION_WORDS", rules.position_words or rules.words)
    writer.bind("HAS_ENDLESS", rules.endless_value is not None)
    writer.bind("HAS_PROGRESS", rules.progress is not None)
    if (rules.top is None) != (rules.bottom is None):
        raise writer.fail("give both top and bottom, or neither")
    if rules.pseudo_moves and rules.terminal is None:
        raise writer.fail("rules with pseudo_moves must give terminal (no move list says it)")
    if rules.pseudo_moves and rules.safe_moves is not None:
        raise writer.fail("safe_moves lists legal moves: not with pseudo_moves")
    if rules.pack is not None and rules.pack_words < 1:
        raise writer.fail(f"pack_words {rules.pack_words} with pack: give the words it packs into")
    if rules.progress is not None and rules.endless_value is None:
        raise writer.fail("progress only shortens the scan for repetitions: give endless_value")
    roles = ("utility", "evaluate", "key", "oracle", "top", "bottom", "move_score", "pack")
    for role in (*roles, "endless_value", "progress"):
        writer.rule(role, getattr(rules, role))
    for role, arity in SCRATCH_ROLES.items():  # each may take the ply's scratch as well
        writer.scratch_rule(role, getattr(rules, role), arity, rules.scratch)
    writer.bind("rules_to_move", rules.to_move)
    _defaults(writer, rules)
    block = "\n".join(writer.lines)
    note = f"# The compiled route's kernel for {rules.name!r}, written by solver.compiled_module.\n"
    return note + head + BEGIN + " for " + repr(rules.name) + "\n" + block + "\n" + END + tail


def _defaults(writer: _Writer, rules: CompiledRules) -> None:
    """The rules' block's functions the rules leave out: typed, never called (a constant
    switches their use off), or the kernel's own default."""
    if rules.evaluate is None:  # a search that must reach the end: never called at a horizon
        writer.lines.append("rules_evaluate = rules_utility")
    if rules.key is None:  # HAS_KEY is False: the kernel mixes the position's words instead
        writer.lines.append("rules_key = rules_to_move")
    if rules.pack is None:  # the table holds the position's words themselves
        words = ", ".join(f"s[{i}]" for i in range(rules.words))
        writer.lines.extend(_jitted(f"def rules_pack(s):\n    return ({words},)"))
    if rules.oracle is None:  # HAS_ORACLE is False: never called, but typed
        writer.lines.extend(NO_ORACLE.splitlines())
    if rules.top is None:  # HAS_BOUNDS is False: never called, but typed
        writer.lines.extend(["rules_top = rules_utility", "rules_bottom = rules_utility"])
    if rules.safe_moves is None:  # HAS_SAFE_MOVES is False: never called, but typed
        writer.lines.append("rules_safe_moves = rules_moves")
    if rules.terminal is None:  # HAS_TERMINAL is False: never called, but typed
        writer.lines.extend(_jitted("def rules_terminal(s, tr):\n    return False"))
    if rules.move_score is None:  # HAS_MOVE_SCORE is False: never called, but typed
        writer.lines.extend(NO_MOVE_SCORE.splitlines())
    if rules.endless_value is None:  # HAS_ENDLESS is False: never called, but typed
        writer.lines.append("rules_endless_value = rules_utility")
    if rules.progress is None:  # HAS_PROGRESS is False: never called, but typed
        writer.lines.append("rules_progress = rules_to_move")


def load_module(rules: CompiledRules, constants: dict[str, int]) -> types.ModuleType:
    """The module of ``rules``' kernel, written once (atomically) and imported.

    Raises:
        RulesNotRestated: the rules cannot be written out (see the module notes), or no folder
            can be written for the kernels.
    """
    import numba

    text = module_text(rules, constants)
    digest = hashlib.sha256(f"{text}\n{numba.__version__}\n{sys.version}".encode()).hexdigest()
    name = f"gamesolver_kernel_{re.sub(r'[^0-9a-zA-Z]+', '_', rules.name)}_{digest[:16]}"
    if name in sys.modules:
        return sys.modules[name]
    base = kernel_folder()
    if base is None:
        raise RulesNotRestated("no writable folder for compiled kernels; set NUMBA_CACHE_DIR")
    folder = base / SUBFOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        _write_atomically(path, text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _write_atomically(path: Path, text: str) -> None:
    """``text`` into ``path`` through a temporary file beside it and a rename."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _top_level_names(source: str) -> set[str]:
    """The names the kernel's own text binds at module level (the rules may not rebind them)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


class _Writer:
    """The rules' block, line by line: each name bound once, helpers before their callers."""

    def __init__(self, title: str, taken: set[str], pseudo: bool = False) -> None:
        self.title = title
        self.pseudo = pseudo
        self.taken = taken
        self.bound: dict[str, str] = {}
        self.lines: list[str] = []

    def fail(self, why: str) -> RulesNotRestated:
        return RulesNotRestated(f"the compiled rules of {self.title!r} cannot be cached: {why}")

    def rule(self, role: str, function: Any) -> None:
        """``rules_<role>``: the game's function, compiled (None: bound by the caller)."""
        if function is not None:
            self.bind(f"rules_{role}", function)

    def scratch_rule(self, role: str, function: Any, arity: int, scratch: int) -> None:
        """``rules_<role>`` taking the scratch last, whether ``function`` takes it or not
        (None: bound by the caller)."""
        if function is None:
            return
        py = getattr(function, "py_func", function)
        try:
            given = len(inspect.signature(py).parameters)
        except (TypeError, ValueError) as e:
            raise self.fail(f"no signature for {role} ({e})") from e
        if given not in (arity, arity + 1):
            raise self.fail(
                f"{role} takes {given} arguments; give {arity}, or {arity + 1} with "
                "the scratch last"
            )
        if given > arity and scratch < 1:
            raise self.fail(f"{role} takes a scratch array: give scratch, its size")
        self.bind(f"rules_{role}_given", function)
        args = ["s", "move", "child"][:arity] if role == "play" else ["s", "out"][:arity]
        call = ", ".join(args + (["tr"] if given > arity else []))
        if role == "play" and not self.pseudo:
            body = f"    rules_play_given({call})\n    return True"
        else:
            body = f"    return rules_{role}_given({call})"
        self.lines.extend(_jitted(f"def rules_{role}({', '.join([*args, 'tr'])}):\n{body}"))

    def bind(self, name: str, value: Any) -> None:
        """``name = value`` in the block (a function: its source, then its compiled form)."""
        if name in self.bound:
            if self.bound[name] != _identity(value):
                raise self.fail(f"two different values are both called {name!r}")
            return
        if name in self.taken and not (name == "np" and value is np):
            raise self.fail(f"{name!r} is a name of the kernel's own; rename it")
        self.bound[name] = _identity(value)
        if isinstance(value, types.ModuleType):
            self.lines.append(f"import {value.__name__} as {name}")
        elif _is_intrinsic(value):  # its typing function, made an intrinsic again here
            if INTRINSIC not in self.bound:
                self.bound[INTRINSIC] = INTRINSIC
                self.lines.append(f"from numba.extending import intrinsic as {INTRINSIC}")
            self.function(name, value._defn, INTRINSIC)
        elif callable(value) and isinstance(getattr(value, "py_func", value), types.FunctionType):
            self.function(name, getattr(value, "py_func", value))
        else:
            self.lines.append(f"{name} = {self.literal(name, value)}")

    def function(self, name: str, function: types.FunctionType, wrap: str = JIT) -> None:
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError) as e:
            raise self.fail(f"no source for {function.__qualname__!r} ({e})") from e
        tree = ast.parse(source)
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise self.fail(f"{function.__qualname__!r} is not a def")
        code = function.__code__
        cells = function.__closure__ or ()
        for var, cell in zip(code.co_freevars, cells, strict=True):
            self.bind(var, cell.cell_contents)
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        for var in sorted(_global_names(code) & used):
            if var in function.__globals__:
                self.bind(var, function.__globals__[var])
        own = function.__name__
        if own != name:
            if own in self.bound:
                if self.bound[own] != _identity(function):
                    raise self.fail(f"two different functions are both called {own!r}")
                self.lines.append(f"{name} = {own}")
                return
            if own in self.taken:
                raise self.fail(f"{own!r} is a name of the kernel's own; rename it")
            self.bound[own] = _identity(function)
        lines = source.splitlines()[node.lineno - 1 :]  # from the def line: no decorators
        self.lines.extend(["", *lines, f"{own} = {wrap}({own})", ""])
        if own != name:
            self.lines.append(f"{name} = {own}")

    def literal(self, name: str, value: Any) -> str:
        """``value`` as Python source that rebuilds it exactly."""
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        if isinstance(value, float):
            return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
        if isinstance(value, tuple):
            inner = ", ".join(self.literal(name, v) for v in value)
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        if isinstance(value, np.ndarray):
            return f"np.array({value.tolist()!r}, dtype=np.{value.dtype.name})"
        if isinstance(value, np.generic):
            return f"np.{value.dtype.name}({value.item()!r})"
        raise self.fail(f"{name!r} holds a {type(value).__name__}, which cannot be written out")


def _is_intrinsic(value: Any) -> bool:
    """Whether ``value`` is a numba intrinsic (``numba.extending.intrinsic``): its typing
    function is restated, and made an intrinsic in the module."""
    from numba.core.extending import _Intrinsic

    return isinstance(value, _Intrinsic)


def _identity(value: Any) -> str:
    """What makes two bindings of one name the same."""
    if _is_intrinsic(value):
        return f"object {id(value._defn)}"
    if isinstance(value, (types.ModuleType, types.FunctionType)) or hasattr(value, "py_func"):
        return f"object {id(getattr(value, 'py_func', value))}"
    if isinstance(value, np.ndarray):
        return f"array {value.dtype} {value.tolist()!r}"
    return f"{type(value).__name__} {value!r}"


def _global_names(code: types.CodeType) -> set[str]:
    """Every name a code object (and the code nested in it) looks up outside itself."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _example_rules() -> CompiledRules:
    """A one-pile game for the doctest: take 1 or 2 from ``s[0]``."""
    from solver.compiled import CompiledRules

    def moves(s: Any, out: Any) -> int:
        n = 0
        for take in (1, 2):
            if s[0] >= take:
                out[n] = take
                n += 1
        return n

    def play(s: Any, move: int, child: Any) -> None:
        child[0] = s[0] - move
        child[1] = 1 - s[1]

    def to_move(s: Any) -> int:
        return int(s[1])

    def utility(s: Any) -> float:
        return 1.0 if s[1] else -1.0

    return CompiledRules(
        "pile", 2, 3, 20, lambda state: np.array(state), moves, play, to_move, utility
    )
