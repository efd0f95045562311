"""Fuzz-style tests: every subcommand given odd arguments answers or errors in one line.

Hypothesis builds argument lists for each subcommand from classes of odd values (unicode
digits, 5,000-digit numbers, 1e400/inf/nan, negative and zero, huge counts, long text, bad
paths) mixed with ordinary ones, runs ``gamesolver`` in this process and checks the contract:
an exit code of 0, 1 or 2, never a traceback, and an error is one short ``gamesolver: error:``
line. The games and limits are kept small so every run is quick.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerosum.cli as cli
from zerosum.console import Io

ROOT = Path(__file__).resolve().parents[2]

ODD = [
    "²",
    "٣",
    "9" * 5000,
    "1e400",
    "inf",
    "nan",
    "-1",
    "0",
    "-0",
    "10**100",
    "",
    " ",
    "x" * 20_000,
    "1.5",
    "\x00",
]
SMALL = ["1", "2", "3"]
number = st.sampled_from(ODD + SMALL)
small_games = st.sampled_from(["textbook", "tictactoe-bitboard", "nosuchgame"])
agents = st.sampled_from(["random", "minimax:1", "engine:d1", "alphabeta:2", "human"]) | st.tuples(
    st.sampled_from(["minimax:", "engine:", "engine:d"]), number
).map(lambda t: t[0] + t[1])
trees = (
    st.sampled_from(
        [
            "[[3,12],[2,4]]",
            "[" * 600 + "1,2" + "]" * 600,
            "[[1e400,1]]",
            "[" + "9" * 5000 + "]",
            "[]",
        ]
    )
    | number
)
options = st.sampled_from(
    ["cache_size=-1", "cache_size=abc", "cache_size=1e400", "estimates=[1]", "labels=aima", "=1"]
) | number.map(lambda v: "labels=" + v)


@st.composite
def pairs(draw: st.DrawFn, *choices: tuple[str, st.SearchStrategy[str]]) -> list[str]:
    """Some of the given options, each with a drawn value, flattened into argv order."""
    chosen = draw(st.lists(st.sampled_from(choices), max_size=3, unique_by=lambda c: c[0]))
    argv: list[str] = []
    for flag, values in chosen:
        argv += [flag, draw(values)]
    return argv


COMMON = (("--tree", trees), ("-O", options), ("--position", number))


def argv_for(command: str) -> st.SearchStrategy[list[str]]:
    """Argument lists for one subcommand."""
    if command == "best":
        extra = pairs(
            *COMMON, ("--depth", number), ("--algorithm", st.sampled_from(["minimax", "x"]))
        )
        return st.tuples(small_games, extra).map(lambda t: ["best", t[0], "--depth", "2", *t[1]])
    if command == "analyse":
        extra = pairs(*COMMON, ("--seed", number), ("--time", st.sampled_from(ODD)))
        return st.tuples(small_games, extra).map(lambda t: ["analyse", t[0], "--depth", "2", *t[1]])
    if command == "solve":
        extra = pairs(*COMMON, ("--max-states", number), ("--out", st.sampled_from(PATHS)))
        return st.tuples(small_games, extra).map(lambda t: ["solve", t[0], *t[1]])
    if command == "tree":
        extra = pairs(
            *COMMON,
            ("--depth", number),
            ("--max-nodes", number),
            ("--title", st.sampled_from(["t" * 17_000, "ok", "²"])),
            ("--frames", st.sampled_from(PATHS)),
        )
        out = st.sampled_from(PATHS)
        return st.tuples(small_games, out, extra).map(
            lambda t: ["tree", t[0], "-o", t[1], "--depth", "2", *t[2]]
        )
    if command == "match":
        extra = pairs(
            *COMMON,
            ("--games", number),
            ("--workers", st.sampled_from(["0", "-1", "²", str(10**100), "9" * 5000])),
            ("--seed", number),
            ("--max-plies", number),
        )
        return st.tuples(small_games, agents, agents, extra).map(
            lambda t: ["match", t[0], t[1], t[2], "-n", "3", *t[3]]
        )
    if command == "play":
        extra = pairs(*COMMON, ("--ai", agents), ("--seed", number), ("--max-plies", number))
        return st.tuples(small_games, extra).map(lambda t: ["play", t[0], "--ai", "random", *t[1]])
    if command == "tablebase":
        action = st.sampled_from(["info", "probe", "build", "x"])
        extra = pairs(
            ("--dir", st.sampled_from(PATHS) | number),
            ("--position", number),
            ("--seeds", number),
            ("--workers", number),
        )
        return st.tuples(action, extra).map(lambda t: ["tablebase", t[0], "ayoayo", *t[1]])
    return pairs(("--json", st.just("--json"))).map(lambda rest: ["games", *rest[:1]])


# Placeholder names replaced by real temporary paths in each run.
PATHS = ["{dir}/t.dot", "{dir}", "{dir}/missing/t.svg", "{dir}/t.json", "{file}", "{dir}/t.csv"]


def run_in_process(argv: list[str], stdin: str, monkeypatch: Any) -> tuple[int, str]:
    """Run gamesolver in this process; the exit code and stderr."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(cli, "Io", lambda: Io(out, err))
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(argv)
    return code, err.getvalue()


def check_contract(code: int, err: str) -> None:
    """Exit 0, 1 or 2; no traceback; an error is one short line naming the command."""
    assert code in (0, 1, 2), (code, err[:500])
    assert "Traceback" not in err, err[:2000]
    if code:
        first = err.splitlines()[0]
        assert first.startswith("gamesolver: error: "), first[:300]
        assert len(first) < 500, first[:300]


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", ["best", "analyse", "solve", "tree", "match", "play", "tablebase", "games"]
)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_odd_arguments_never_make_a_traceback(
    command: str, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any mix of odd and ordinary arguments ends in an answer or a one-line error."""
    argv = data.draw(argv_for(command))
    with tempfile.TemporaryDirectory() as folder:
        # Relative paths, the default tablebase folder and anything written stay in here.
        monkeypatch.chdir(folder)
        monkeypatch.setenv("GAMESOLVER_TABLEBASE_DIR", folder)
        (Path(folder) / "file").write_text("x")
        argv = [a.replace("{dir}", folder).replace("{file}", f"{folder}/file") for a in argv]
        code, err = run_in_process(argv, "²\n" + "9" * 5000 + "\nq\n", monkeypatch)
    check_contract(code, err)


class TestNamedCases:
    """The cases the issue reproduced, each a clear answer or one-line error."""

    @pytest.mark.parametrize(
        ("argv", "code", "says"),
        [
            (["match", "tictactoe", "random", "random", "-j", str(10**100)], 2, "--workers"),
            (["match", "ayoayo", "minimax:100", "random"], 2, "cannot finish a move"),
            (["best", "ayoayo", "-a", "minimax", "--depth", "100"], 2, "use depth"),
            (["match", "tictactoe", "minimax:²", "random"], 2, "bad depth"),
            (["match", "tictactoe", "engine:d²", "random"], 2, "bad depth"),
            (["match", "tictactoe", "minimax:" + "9" * 5000, "random"], 2, "5,008 characters"),
            (["best", "ayoayo", "-O", "cache_size=-1"], 2, "invalid cache_size -1"),
            (["best", "ayoayo", "-O", "cache_size=abc"], 2, "invalid cache_size 'abc'"),
            (["best", "ayoayo", "-O", "cache_size=1e400"], 2, "invalid cache_size inf"),
            (["best", "textbook", "-O", "estimates=[1]"], 2, "invalid estimates [1]"),
            (["best", "textbook", "--tree", "[" + "9" * 5000 + ",1]"], 2, "too long"),
            (["best", "textbook", "--tree", "[1e400,1]"], 2, "finite"),
            (["best", "tictactoe", "--depth", str(10**100)], 2, "from 1 to 999,999,999"),
            (["best", "x" * 130_000], 2, "130,000 characters"),
        ],
    )
    def test_issue_cases(
        self, argv: list[str], code: int, says: str, run: Callable[..., Any]
    ) -> None:
        """Each reproduced case is a one-line error with the right exit code."""
        result = run(*argv)
        assert result.code == code
        assert says in result.err
        assert len(result.err.splitlines()[0]) < 500

    def test_outputs_are_checked_before_the_work(
        self, run: Callable[..., Any], tmp_path: Path
    ) -> None:
        """A missing folder, a directory or an existing file is refused before solving."""
        missing = run("solve", "tictactoe", "--out", str(tmp_path / "no" / "t.json"))
        assert missing.code == 2 and "does not exist" in missing.err and "solved" not in missing.out
        (tmp_path / "t.json").write_text("keep")
        kept = run("solve", "tictactoe", "--out", str(tmp_path / "t.json"))
        assert kept.code == 2 and "--force" in kept.err
        assert (tmp_path / "t.json").read_text() == "keep"
        forced = run("solve", "tictactoe", "--out", str(tmp_path / "t.json"), "--force")
        assert forced.code == 0 and (tmp_path / "t.json").read_text() != "keep"

    def test_a_reused_frames_folder_needs_force_and_is_cleared(
        self, run: Callable[..., Any], tmp_path: Path
    ) -> None:
        """--frames into a folder with old frames asks for --force, then holds only new ones."""
        first = run("tree", "textbook", "--frames", str(tmp_path), "--frame-format", "svg")
        assert first.code == 0
        (tmp_path / "frame-999.svg").write_text("stale")
        again = run("tree", "textbook", "--frames", str(tmp_path))
        assert again.code == 2 and "--force" in again.err
        forced = run("tree", "textbook", "--tree", "[[1,2]]", "--frames", str(tmp_path), "--force")
        assert forced.code == 0
        assert not (tmp_path / "frame-999.svg").exists()

    def test_a_deep_textbook_tree_solves(self, run: Callable[..., Any]) -> None:
        """A tree nested 600 deep loads and is solved, without advice to use --depth."""
        result = run("solve", "textbook", "--tree", "[" * 600 + "1,2" + "]" * 600, "--json")
        assert result.code == 0 and result.json()["value"] == 1

    def test_odd_moves_in_play_are_asked_again(self, run: Callable[..., Any]) -> None:
        """Unicode digits and huge numbers typed in play are refused and asked again."""
        result = run("play", "tictactoe", "--ai", "random", stdin="²\n" + "9" * 5000 + "\nq\n")
        assert result.code == 0
        assert "illegal tic-tac-toe move '²'" in result.out
        assert "(5,000 characters)" in result.out


def test_json_output_is_strict_json_whatever_the_values() -> None:
    """NaN and infinities are written as null (json.dumps would write NaN, which no strict
    JSON reader accepts), fractions as their text."""
    import io
    import json
    from fractions import Fraction

    from zerosum.console import Io

    out = io.StringIO()
    Io(stdout=out).json({"value": float("nan"), "range": (float("-inf"), 2.5), "p": Fraction(2, 3)})

    def refuse(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    assert json.loads(out.getvalue(), parse_constant=refuse) == {
        "value": None,
        "range": [None, 2.5],
        "p": "2/3",
    }


@pytest.mark.slow
def test_running_out_of_memory_is_an_error_not_a_traceback() -> None:
    """``solve`` with a raised --max-states under an address-space limit (``ulimit -v``):
    a one-line error saying what to do, exit 1."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (800_000_000, 800_000_000))

    done = subprocess.run(
        [sys.executable, "-m", "zerosum", "solve", "ayoayo", "--max-states", "100000000"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
    )
    assert done.returncode == 1, done.stderr
    assert "ran out of memory" in done.stderr and "Traceback" not in done.stderr


BIG = "9" * 400


class TestNumbersAreAscii:
    """Every number an option takes is read in ASCII digits within a stated range: a unicode
    digit, a 400-digit size or an infinite rate is a one-line error naming it."""

    @pytest.mark.parametrize(
        ("argv", "says"),
        [
            (["tablebase", "plan", "ayoayo", "--seeds", "52"], "invalid --seeds '52'"),
            (["tablebase", "build", "ayoayo", "--seeds", "52"], "invalid --seeds '52'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "١٦"], "invalid --seeds '١٦'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--memory", BIG], "not a size"),
            (["tablebase", "build", "ayoayo", "--seeds", "8", "--memory", BIG], "not a size"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--memory", "١٢G"], "'١٢G'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--memory", "2000000T"], "large"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--rate", "inf"], "rate 'inf'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--rate", "nan"], "rate 'nan'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--rate", "١٠"], "rate '١٠'"),
            (["tablebase", "plan", "ayoayo", "--seeds", "16", "--rate", "1e400"], "'1e400'"),
            (["board", "--port", "١"], "invalid port '١'"),
            (["tree", "textbook", "--random-exercises", "1", "--branching", "١,٢"], "'١,٢'"),
            (["tree", "textbook", "--random-exercises", "1", "--seed", "٣"], "seed '٣'"),
        ],
    )
    def test_a_bad_number_is_a_one_line_error(
        self, argv: list[str], says: str, run: Callable[..., Any], tmp_path: Path
    ) -> None:
        if argv[0] == "tablebase":
            argv = [*argv, "--dir", str(tmp_path)]
        result = run(*argv)
        line = result.err.splitlines()[0]
        assert result.code == 2 and line.startswith("gamesolver: error:") and says in line, line

    def test_a_cell_typed_in_another_scripts_digits_is_not_a_cell(self) -> None:
        from zerosum.seating import CellNumbers

        cells = CellNumbers(first=1)
        assert cells.read("3") == "2" and cells.read("٣") == "٣"


def _run_limited(limit_mb: int, *argv: str) -> subprocess.CompletedProcess[str]:
    """``gamesolver ARGV`` with at most ``limit_mb`` MB of address space (``ulimit -v``)."""
    code = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({limit_mb} << 20,) * 2)\n"
        "from zerosum import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), "GAMESOLVER_NATIVE": "1"},
    )


class TestSmallAddressSpace:
    """Under ``ulimit -v``: one line, never a MemoryError traceback."""

    def test_too_small_to_start_is_one_line(self) -> None:
        done = _run_limited(150, "analyse", "ayoayo", "--depth", "2")
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr.strip().endswith("raise the limit")
        assert "out of memory while starting" in done.stderr

    def test_too_small_for_the_kernel_falls_back_to_python_in_one_line(self) -> None:
        done = _run_limited(250, "analyse", "ayoayo", "--depth", "2", "--json")
        assert done.returncode == 0 and "Traceback" not in done.stderr
        (note,) = done.stderr.strip().splitlines()
        assert "compiled kernel cannot be loaded" in note and "pure-Python engine" in note
        assert json.loads(done.stdout)["depth"] == 2


def test_an_import_that_fails_for_memory_without_saying_so_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under a low ``ulimit -v`` an extension module's import can fail with CPython's
    "SystemError: error return without exception set" (seen at 150 MB in rich's import): it
    is the start-up's out-of-memory line, not a traceback."""
    import zerosum

    def failing() -> None:
        raise SystemError("error return without exception set")

    monkeypatch.setattr(zerosum, "_import_hashlib", failing)
    assert zerosum.main(["games"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("gamesolver: error: out of memory while starting")


def test_a_proof_out_of_memory_is_told_to_take_a_smaller_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from games.ayoayo import proof

    def no_memory(self: object, x: int) -> None:
        raise MemoryError

    monkeypatch.setattr(proof.Prover, "table", no_memory)
    argv = ["prove", "ayoayo", "-p", "[[0,0,0,0,0,1],[0,0,0,0,0,3]]", "--captured", "20,24"]
    assert cli.main([*argv, "--no-tablebase", "--no-checkpoint", "-o", "/dev/null", "-f"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "prove ran out of memory" in line and "a smaller --table" in line


def test_a_library_that_cannot_be_loaded_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen at 400 MB in a tablebase build: a lazily imported extension module whose mapping
    the limit refused ("failed to map segment from shared object") reached the command line as
    an ImportError traceback."""
    import resource

    from zerosum.commands import solve

    def refused(*_: object) -> int:
        raise ImportError("cmath.cpython-311.so: failed to map segment from shared object")

    monkeypatch.setattr(solve, "run", refused)
    monkeypatch.setattr(resource, "getrlimit", lambda _: (400 << 20, 400 << 20))
    assert cli.main(["solve", "tictactoe"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "solve cannot load a library" in line and "failed to map segment" in line
    assert "400 MB, ulimit -v" in line


def test_a_proof_without_a_kernel_that_could_not_load_is_not_told_to_install_numba(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under ulimit -v 200-400 MB numba is installed but cannot be loaded (one note says so):
    the proof's error said "install the 'fast' extra (numba)", which was already there."""
    from games.ayoayo import accel
    from solver import kernel_memory

    monkeypatch.setattr(kernel_memory, "_unloadable", ["Could not find/load shared object file"])
    monkeypatch.setattr(accel, "proof_kernel", lambda: None)
    monkeypatch.setenv("GAMESOLVER_NATIVE", "1")
    assert cli.main(["prove", "ayoayo", "--no-tablebase", "-o", "/dev/null", "-f"]) != 0
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "could not be loaded" in line and "ulimit -v" in line and "install" not in line


def test_a_proof_search_whose_module_cannot_be_written_is_not_told_to_install_numba(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """numba loads but the route's module (which holds the proof search) cannot be written (a
    full disk): one note says why, and the proof's error says it could not be loaded or
    compiled here, not "install the 'fast' extra (numba)"."""
    from games.ayoayo import accel
    from solver import compiled_proof

    def unwritable(*args: object) -> object:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(compiled_proof, "_KERNELS", {})
    monkeypatch.setattr(compiled_proof, "_FAILED", {})
    monkeypatch.setattr(compiled_proof, "_WARM", set())
    monkeypatch.setattr(compiled_proof, "load_module", unwritable)
    monkeypatch.setattr(accel, "_proof_failed", [])
    monkeypatch.setenv("GAMESOLVER_NATIVE", "1")
    assert cli.main(["prove", "ayoayo", "--no-tablebase", "-o", "/dev/null", "-f"]) != 0
    note, line = capsys.readouterr().err.strip().splitlines()
    assert "no proof search for 'ayoayo'" in note and "No space left on device" in note
    assert "could not be loaded or compiled" in line and "install" not in line
