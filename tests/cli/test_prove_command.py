"""`gamesolver prove` and `verify` end to end, and `analyse` showing a value it could prove."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from games.ayoayo import accel
from tests.cli.conftest import Run
from zerosum.cli import main

pytestmark = pytest.mark.skipif(
    accel.proof_kernel() is None, reason="the proof search needs the compiled kernel (numba)"
)

MIDDLE = "[[1,3,0,3,1,0],[9,0,9,1,0,1]] captured 4,16 to-move 1"


@pytest.fixture(scope="module")
def levels(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Ayòayò's levels 0-12, built once for the module."""
    directory = tmp_path_factory.mktemp("levels")
    from games.ayoayo import Ayoayo

    Ayoayo().tablebase(directory).build(12)
    return str(directory)


class TestProveAndVerify:
    """A proof writes a certificate that verify accepts, and refuses one tampered with."""

    def test_the_start(self, run: Callable[..., Run], levels: str, tmp_path: Path) -> None:
        cert = tmp_path / "start.cert.gz"
        done = run("prove", "ayoayo", "--tablebase-dir", levels, "-o", str(cert), "--json")
        answer = json.loads(done.out)
        assert done.code == 0
        assert (answer["value"], answer["outcome"]) == (-4, "Player 2 wins by 4")
        assert answer["tests"] and all(t["nodes"] >= 0 for t in answer["tests"])
        assert answer["proved_positions"] > 0 and answer["nodes_per_second"] > 0
        checked = run("verify", str(cert), "--tablebase-dir", levels, "--json")
        assert checked.code == 0
        assert json.loads(checked.out)["value"] == -4
        text = run("verify", str(cert), "--tablebase-dir", levels)
        assert "value -4: Player 2 wins by 4, proved both ways" in text.out

    def test_a_tampered_certificate_names_the_position(
        self, run: Callable[..., Run], levels: str, tmp_path: Path
    ) -> None:
        import gzip

        cert = tmp_path / "start.cert.gz"
        assert run("prove", "ayoayo", "--tablebase-dir", levels, "-o", str(cert)).code == 0
        with gzip.open(cert, "rt") as text:
            lines = text.read().splitlines()
        i = next(i for i, line in enumerate(lines) if "\ttablebase\t" in line)
        ident, position, kind, value = lines[i].split("\t")
        lines[i] = "\t".join((ident, position, kind, str(int(value) + 4)))
        bad = tmp_path / "bad.cert"
        bad.write_text("\n".join(lines) + "\n")
        done = run("verify", str(bad), "--tablebase-dir", levels)
        assert done.code == 1
        assert position in done.err and "the leaf says" in done.err

    def test_an_existing_out_is_kept_without_force(
        self, run: Callable[..., Run], levels: str, tmp_path: Path
    ) -> None:
        out = tmp_path / "kept.cert.gz"
        out.write_text("mine")
        done = run("prove", "ayoayo", "--tablebase-dir", levels, "-o", str(out))
        assert done.code != 0 and out.read_text() == "mine"

    def test_a_game_without_a_proof_search(self, run: Callable[..., Run]) -> None:
        done = run("prove", "tictactoe")
        assert done.code == 1 and "has no proof search" in done.err

    def test_not_a_certificate(self, run: Callable[..., Run], tmp_path: Path) -> None:
        junk = tmp_path / "junk.txt"
        junk.write_text("hello\n")
        done = run("verify", str(junk))
        assert done.code == 1 and "not a certificate" in done.err


class TestAnalyseShowsTheProof:
    """`analyse` adds the proved value when its search's is not exact."""

    def test_a_position_of_the_opening_is_shown_solved(
        self, run: Callable[..., Run], levels: str
    ) -> None:
        # Five plies into the principal variation: 28 seeds on the board, above the levels.
        args = ("analyse", "ayoayo", "-p", MIDDLE, "--depth", "4", "--tablebase-dir", levels)
        answer = json.loads(run(*args, "--json").out)
        assert not answer["exact"]
        proved = answer["proved"]
        assert proved["value"] == -4 and proved["outcome"] == "Player 2 wins by 4"
        assert set(proved["moves"]) == {m["move"] for m in answer["moves"]}
        assert min(proved["moves"].values()) == -4  # player 1 to move: the least is theirs
        text = run(*args)
        assert "solved: Player 2 wins by 4" in text.out

    def test_no_proof_without_tablebases_or_when_asked(
        self, run: Callable[..., Run], levels: str
    ) -> None:
        done = run("analyse", "ayoayo", "--depth", "4", "--no-tablebase", "--json")
        assert "proved" not in json.loads(done.out)
        done = run(
            "analyse", "ayoayo", "-d", "4", "--tablebase-dir", levels, "--no-proof", "--json"
        )
        assert "proved" not in json.loads(done.out)


class TestWithoutTablebases:
    """Without tablebase levels a proof is said to be long, and a stopped one says what it
    proved so far."""

    def test_a_warning_and_an_honest_stop(self, run: Callable[..., Run], tmp_path: Path) -> None:
        done = run("prove", "ayoayo", "--tablebase-dir", str(tmp_path), "--time", "0.2")
        assert "no tablebase levels" in done.err and "tablebase build ayoayo" in done.err
        assert done.code == 1 and "not settled" in done.out


class TestOpeningBook:
    """`prove --book` writes the book the game ships: the start and every move, proved."""

    def test_the_book_holds_the_position_and_every_move_proved(
        self, run: Callable[..., Run], levels: str, tmp_path: Path
    ) -> None:
        from games.ayoayo import Ayoayo
        from solver.book import read_book

        book = tmp_path / "book.gz"
        argv = ("prove", "ayoayo", "--position", MIDDLE, "--tablebase-dir", levels)
        done = run(*argv, "--moves", "--json", "-o", str(tmp_path / "c.gz"), "--book", str(book))
        assert done.code == 0
        proved = json.loads(done.out)
        found = read_book(book)
        game = Ayoayo()
        state = game.parse_state(MIDDLE)
        assert found.values[MIDDLE] == proved["value"]
        for action in game.actions(state):
            child = game.result(state, action)
            if not game.is_terminal(child):
                assert found.values[game.format_state(child)] == proved["moves"][str(action)]
        assert set(found.levels()) <= {4, 8, 12}
        assert len(found.certificates) == 1 + sum(
            not game.is_terminal(game.result(state, a)) for a in game.actions(state)
        )

    def test_an_existing_book_is_kept(
        self, run: Callable[..., Run], levels: str, tmp_path: Path
    ) -> None:
        book = tmp_path / "book.gz"
        book.write_text("mine")
        done = run("prove", "ayoayo", "--tablebase-dir", levels, "--book", str(book))
        assert done.code != 0
        assert "--book" in done.err and book.read_text() == "mine"


class TestProgressShown:
    """A proof's progress: one line kept up to date on a terminal, plain lines elsewhere."""

    @staticmethod
    def snapshot() -> object:
        from games.ayoayo.proof import ProofProgress

        return ProofProgress(-4, 9, 2_000_000, 1.0, 12_345, 2, 6, 1)

    def test_plain_lines_when_not_a_terminal(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import io as text_io

        from zerosum import proving
        from zerosum.console import Io

        monkeypatch.setattr(proving, "PLAIN_SECONDS", 0.0)
        out, err = text_io.StringIO(), text_io.StringIO()
        shown = proving.ProofWatch(Io(out, err))
        shown(self.snapshot())
        shown.say("value >= -4: holds")
        assert out.getvalue() == (
            "  value >= -4, depth 9: 2,000,000 nodes in 1 s (2.00 M nodes/s), 12,345 positions "
            "proved, root moves settled 2 of 6, 1 tests settled\n  value >= -4: holds\n"
        )
        assert err.getvalue() == ""

    def test_one_live_line_on_a_terminal(self) -> None:
        import io as text_io
        from types import SimpleNamespace

        from zerosum.proving import ProofWatch

        err = text_io.StringIO()
        printed: list[str] = []
        io = SimpleNamespace(
            err=SimpleNamespace(is_terminal=True, file=err, width=200), print=printed.append
        )
        shown = ProofWatch(io)
        shown(self.snapshot())
        shown(self.snapshot())
        shown.say("value >= -4: holds")
        assert err.getvalue().count("\r") == 3  # two updates of one line, then cleared
        assert err.getvalue().endswith("\r\x1b[K")
        assert printed == ["  value >= -4: holds"]

    def test_nothing_with_json(self) -> None:
        import io as text_io

        from zerosum.console import Io
        from zerosum.proving import ProofWatch

        out = text_io.StringIO()
        shown = ProofWatch(Io(out, out), quiet=True)
        shown(self.snapshot())
        shown.say("value >= -4: holds")
        assert out.getvalue() == ""


class TestWorkers:
    """--workers and --dask are checked, and Ctrl-C ends every worker at once."""

    def test_workers_and_dask_together_are_refused(self, run: Callable[..., Run]) -> None:
        done = run("prove", "ayoayo", "--workers", "2", "--dask", "tcp://nowhere:8786")
        assert done.code != 0
        assert "give --workers or --dask, not both" in done.err

    def test_too_many_workers_are_refused(self, run: Callable[..., Run]) -> None:
        done = run("prove", "ayoayo", "--workers", "100000")
        assert done.code != 0
        assert "invalid --workers 100000: expected 1 to" in done.err

    def test_two_workers_give_the_same_value(
        self, run: Callable[..., Run], levels: str, tmp_path: Path
    ) -> None:
        argv = ("prove", "ayoayo", "--position", MIDDLE, "--tablebase-dir", levels, "--json")
        one = run(*argv, "--workers", "1", "-o", str(tmp_path / "1.gz"), "--no-checkpoint")
        two = run(*argv, "--workers", "2", "-o", str(tmp_path / "2.gz"), "--no-checkpoint")
        assert json.loads(one.out)["value"] == json.loads(two.out)["value"] == -4
        checked = run("verify", str(tmp_path / "2.gz"), "--tablebase-dir", levels, "--json")
        assert json.loads(checked.out)["value"] == -4

    @pytest.mark.slow
    def test_ctrl_c_ends_every_worker_within_a_second(self, tmp_path: Path) -> None:
        import os
        import signal
        import sys
        import time

        if not sys.platform.startswith("linux"):
            pytest.skip("process groups read from /proc")
        from tests.cli.test_interrupts import group_members, start, wait_until

        child = start(
            "prove", "ayoayo", "--no-tablebase", "--workers", "2", "--no-checkpoint",
            "-o", str(tmp_path / "c.gz"),
        )  # fmt: skip
        try:
            assert wait_until(lambda: len(group_members(child.pid)) >= 3, 30)
            time.sleep(1.0)  # the workers are testing root moves
            sent = time.monotonic()
            os.killpg(child.pid, signal.SIGINT)
            assert wait_until(lambda: not group_members(child.pid), 10)
            gone = time.monotonic() - sent
            child.communicate(timeout=10)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.communicate()
        assert child.returncode == 130
        # a second on a quiet machine (0.1-0.3 s measured); the bound allows for a loaded one
        assert gone < 3.0, f"the group took {gone:.2f} s to end"


def test_short_of_memory_a_test_takes_a_smaller_table_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Under ulimit -v 1000 MB ``prove`` of a 24-seed position ended in "ran out of memory":
    each test's table (96 MB) is allocated anew. A table that cannot be had is halved until it
    can, said once a test, and the proof is the same."""
    from solver import compiled_proof

    new_table = compiled_proof.new_table

    def short(rules: compiled_proof.CompiledRules, slots: int) -> object:
        if slots > 1 << 18:
            raise MemoryError("Unable to allocate 96.0 MiB")
        return new_table(rules, slots)

    monkeypatch.setattr(compiled_proof, "new_table", short)
    argv = ["prove", "ayoayo", "-p", "[[0,0,0,0,0,1],[0,0,0,0,0,3]]", "--captured", "20,24"]
    code = main([*argv, "--no-tablebase", "--no-checkpoint", "-o", str(tmp_path / "p.json")])
    out = capsys.readouterr().out
    assert code == 0 and "solved:" in out
    notes = [line for line in out.splitlines() if "note: the table of the test" in line]
    assert notes and all("holds 262,144 entries, not 4,194,304" in n for n in notes)
