"""Tablebases through the command line and the engine: build, info, probe, and automatic use."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from games.ayoayo import Ayoayo
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_index import board_count, splits, unrank, view_of
from play import EngineAgent, RandomAgent
from solver.engine import search
from tests.games.fakes import install_entry_points
from zerosum.cli import main
from zerosum.tablebases import TablebasePlayer, with_tablebase

COVERED = "[[0,0,3,0,1,0],[1,0,2,0,0,1]] captured 20,20 to-move 1"


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0 to 8 built through the command line, once."""
    where = tmp_path_factory.mktemp("cli-tablebase")
    assert main(["tablebase", "build", "ayoayo", "--seeds", "8", "--dir", str(where)]) == 0
    return where


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, out, err


class TestTablebaseCommand:
    """gamesolver tablebase build, info and probe."""

    def test_build_resumes(self, directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A second build finds every level present and builds nothing."""
        code, out, _ = _run(
            capsys, "tablebase", "build", "ayoayo", "--seeds", "8", "--dir", str(directory)
        )
        assert code == 0
        assert [line for line in out.splitlines() if line.startswith("level")] == [
            "level  0: present (1 position)",
            "level  4: present (2,730 positions)",
            "level  8: present (226,746 positions)",
        ]

    def test_dask_address_not_answering(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A --dask address no scheduler answers is named, and nothing is built."""
        pytest.importorskip("distributed")
        argv = ["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", str(tmp_path / "tb")]
        code, _, err = _run(capsys, *argv, "--dask", "²")
        assert code == 2 and "invalid --dask '²'" in err and "tcp://scheduler:8786" in err
        assert not (tmp_path / "tb").exists()

    def test_dask_or_workers(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--dask brings its own workers: asking for both is refused."""
        argv = ["tablebase", "build", "ayoayo", "--seeds", "4", "--dir", str(tmp_path)]
        code, _, err = _run(capsys, *argv, "--dask", "tcp://127.0.0.1:1", "--workers", "2")
        assert code == 2 and "not both" in err

    def test_info(self, directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """info lists each level with its size, bytes and build time."""
        code, out, _ = _run(
            capsys, "tablebase", "info", "ayoayo", "--dir", str(directory), "--json"
        )
        levels = json.loads(out)["levels"]
        assert code == 0 and [row["seeds"] for row in levels] == [0, 4, 8]
        assert levels[2]["positions"] == 226746 and levels[2]["bytes"] == 226746 + 64
        assert all(row["status"] == "ok" and row["seconds"] >= 0 for row in levels)

    def test_probe(self, directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """probe gives the exact value and the value-keeping moves."""
        code, out, _ = _run(
            capsys, "tablebase", "probe", "ayoayo", "-p", COVERED, "--dir", str(directory), "--json"
        )
        answer = json.loads(out)
        state = Ayoayo().parse_state(COVERED)
        assert code == 0 and answer["exact"] is True
        assert answer["value"] == Tablebase(directory).probe(state)
        assert answer["optimal_moves"] == [
            str(a) for a in (Tablebase(directory).best_actions(state) or ())
        ]

    def test_probe_uncovered(self, directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """The opening is not covered: exit 1 and the levels present."""
        code, out, _ = _run(
            capsys,
            "tablebase",
            "probe",
            "ayoayo",
            "-p",
            "[[4,4,4,4,4,4],[4,4,4,4,4,4]]",
            "--dir",
            str(directory),
        )
        assert code == 1 and "not covered" in out and "levels 0, 4, 8" in out

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (["build", "ayoayo", "--seeds", "6"], "multiple of 4"),
            (["build", "tictactoe", "--seeds", "4"], "has no endgame tablebase"),
            (["build", "ayoayo", "--seeds", "4", "--no-checkpoints"], "goes with --memory"),
        ],
    )
    def test_bad_requests(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
    ) -> None:
        """A level that is not a multiple of 4, or a game without tablebases, is a clear error."""
        code, _, err = _run(capsys, "tablebase", *argv, "--dir", str(tmp_path))
        assert code in (1, 2) and message in err

    def test_out_of_core_without_checkpoints(
        self,
        directory: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """--no-checkpoints builds out of core with the round checkpoints off, the same bytes."""
        from games.ayoayo import native_partitions

        made: list[Any] = []
        real = native_partitions.PartitionedBuilder

        def spy(*args: Any, **kwargs: Any) -> Any:
            made.append(real(*args, **kwargs))
            return made[-1]

        monkeypatch.setattr(native_partitions, "PartitionedBuilder", spy)
        argv = ["tablebase", "build", "ayoayo", "--seeds", "8", "--memory", "64M"]
        code, _, err = _run(capsys, *argv, "--no-checkpoints", "--dir", str(tmp_path))
        assert code == 0, err
        assert [b.checkpoint for b in made] == [None]
        for name in ("ayoayo-08.tb", "ayoayo-08.dist"):
            assert (tmp_path / name).read_bytes() == (directory / name).read_bytes()


class TestAutomaticUse:
    """analyse and best read a present tablebase at the root; --no-tablebase searches."""

    def test_best_reads_the_root(
        self, directory: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """best --json says exact and tablebase, with the tablebase's value."""
        monkeypatch.setenv("GAMESOLVER_TABLEBASE_DIR", str(directory))
        code, out, _ = _run(capsys, "best", "ayoayo", "-p", COVERED, "--json")
        answer = json.loads(out)
        assert code == 0 and answer["exact"] is True and answer["tablebase"] is True
        assert answer["value"] == Tablebase(directory).probe(Ayoayo().parse_state(COVERED))

    def test_analyse_says_exact_tablebase(
        self, directory: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """analyse labels the answer 'exact (tablebase)'."""
        code, out, _ = _run(
            capsys, "analyse", "ayoayo", "-p", COVERED, "--tablebase-dir", str(directory)
        )
        assert code == 0 and "exact (tablebase)" in out

    def test_the_line_shown_is_the_tablebase_preferred_one(
        self, directory: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """At a covered root the best move and the PV follow preferred_action, both sides."""
        code, out, _ = _run(
            capsys, "best", "ayoayo", "-p", COVERED, "--tablebase-dir", str(directory), "--json"
        )
        answer = json.loads(out)
        game, tablebase = Ayoayo(), Tablebase(directory)
        state = game.parse_state(COVERED)
        assert code == 0 and answer["pv"]
        assert answer["best_move"] == str(tablebase.preferred_action(state))
        for step in answer["pv"]:
            assert step["action"] == tablebase.preferred_action(state)
            state = game.result(state, step["action"])

    def test_no_tablebase(self, directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--no-tablebase leaves the engine to search on its own."""
        code, out, _ = _run(
            capsys,
            "best",
            "ayoayo",
            "-p",
            COVERED,
            "--depth",
            "3",
            "--tablebase-dir",
            str(directory),
            "--no-tablebase",
            "--json",
        )
        assert code == 0 and json.loads(out)["tablebase"] is False

    def test_agents(self, directory: Path) -> None:
        """The engine plays the tablebase's preferred moves and probes it as its oracle (and
        still pickles, for match workers); other agents are left alone."""
        table = Tablebase(directory)
        player = with_tablebase(EngineAgent(depth=2), table)
        assert isinstance(player, TablebasePlayer) and player.name == "engine:d2+tablebase"
        again: Any = pickle.loads(pickle.dumps(player))
        state = Ayoayo().parse_state(COVERED)
        assert again.engine.oracle(state) == table.probe(state)
        assert again.choose(Ayoayo(), state, random.Random(0)) == table.preferred_action(state)
        assert with_tablebase(RandomAgent(), table) == RandomAgent()


class TestEngineAgrees:
    """Where the engine proves a value exact on its own, it is the tablebase's value."""

    def test_sampled_level_4(self, directory: Path) -> None:
        """Depth-12 searches without the tablebase that come back exact agree with it."""
        game = Ayoayo()
        table = Tablebase(directory)
        rng = random.Random(5)
        agreed = 0
        for _ in range(300):
            view = unrank(4, rng.randrange(board_count(4)))
            cm = rng.choice(splits(4))
            mover = rng.randint(0, 1)
            caps = (cm, 44 - cm) if mover == 0 else (44 - cm, cm)
            state = tuple.__new__(type(game.initial_state()), (*view_of(view, mover), *caps, mover))
            if game.is_terminal(state):
                continue
            result = search(game, state, depth=12, plies=False, native=False)
            if result.exact:
                agreed += 1
                assert result.value == table.probe(state), game.format_state(state)
        assert agreed >= 3  # with this seed, 5 searches end everywhere within 12 plies


class TestAnyGameWithATablebase:
    """The command serves a game by its capabilities, whatever it is called."""

    def test_a_plug_in_with_a_tablebase_is_built_listed_and_planned(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """A plug-in (Ayòayò's rules under another name) gets build, info and plan."""
        install_entry_points(monkeypatch, {"mancala": "tests.plugin_games:Mancala"})
        where = str(tmp_path / "tb")
        code, _, err = _run(capsys, "tablebase", "build", "mancala", "--seeds", "4", "--dir", where)
        assert code == 0, err
        code, out, err = _run(capsys, "tablebase", "info", "mancala", "--dir", where)
        assert code == 0 and "mancala tablebase in" in out, err
        plan = ("tablebase", "plan", "mancala", "--seeds", "8", "--dir", where)
        code, out, err = _run(capsys, *plan)
        assert code == 0 and "total:" in out, err

    def test_a_game_without_one_is_refused_by_name(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A plug-in with no tablebase gets a one-line error naming it, not a traceback."""
        install_entry_points(monkeypatch, {"tworows": "tests.plugin_games:TwoRows"})
        code, _, err = _run(capsys, "tablebase", "plan", "tworows", "--seeds", "8")
        assert code != 0 and "game 'tworows' has no endgame tablebase" in err
        assert "Traceback" not in err
