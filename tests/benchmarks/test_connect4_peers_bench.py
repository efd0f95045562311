"""The Connect Four peer benchmark: ours against OpenSpiel's alpha-beta on the same positions."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from benchmarks.connect4_peers import GAME, SAMPLE, one_round, summary
from solver.exact_values import ExactValues
from zerosum.commands.scores import read_positions

END_POSITIONS = [line for line in SAMPLE.read_text().splitlines() if not line.startswith("#")][:3]


def _file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


class WrongPeer:
    """A peer that answers a loss everywhere (these positions are wins for the mover)."""

    def value(self, moves: str, cap: float) -> int | None:
        return -1


class SlowPeer:
    """A peer that is always stopped at its cap."""

    def value(self, moves: str, cap: float) -> int | None:
        return None


def test_a_peer_that_disagrees_stops_the_run_naming_the_line(tmp_path: Path) -> None:
    path = _file(tmp_path, END_POSITIONS)
    positions = read_positions(GAME, path)
    with pytest.raises(SystemExit, match=r"set.txt:1: OpenSpiel -1, ours 1"):
        one_round(positions, ExactValues(GAME), WrongPeer(), 1.0, random.Random(0), str(path))


def test_a_stopped_peer_is_counted_and_left_out_of_the_ratios(tmp_path: Path) -> None:
    path = _file(tmp_path, END_POSITIONS)
    positions = read_positions(GAME, path)
    found = one_round(positions, ExactValues(GAME), SlowPeer(), 1.0, random.Random(0), str(path))
    assert found["openspiel_stopped"] == 3 and found["ratio_median"] is None
    assert summary([found])["openspiel_stopped"] == 3


def test_a_wrong_score_in_the_file_stops_the_run(tmp_path: Path) -> None:
    moves, score = END_POSITIONS[0].split()
    path = _file(tmp_path, [f"{moves} -{score}"])
    with pytest.raises(SystemExit, match=r"set.txt:1: ours 1, the file -"):
        one_round(
            read_positions(GAME, path),
            ExactValues(GAME),
            SlowPeer(),
            1.0,
            random.Random(0),
            str(path),
        )


@pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (a bench extra) missing"
)
def test_openspiel_and_ours_agree_on_end_positions(tmp_path: Path) -> None:
    from benchmarks.connect4_peers import main

    out = tmp_path / "peers.json"
    assert (
        main(
            [str(_file(tmp_path, END_POSITIONS)), "--cap", "5", "--rounds", "2", "--json", str(out)]
        )
        == 0
    )
    found = json.loads(out.read_text())["files"]["set.txt"]
    assert found["positions"] == 3 and found["rounds"] == 2 and found["openspiel_stopped"] == 0
    assert found["ratio_median"]["min"] > 0


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, a bad position and an output path that cannot be written are each one
    line naming the bad value, exit 2, before any position is solved."""
    from benchmarks.connect4_peers import main

    bad = _file(tmp_path, ["x9 3"])
    for argv, said in [
        ([str(tmp_path / "none.txt")], "none.txt"),
        ([str(bad)], "'x9'"),
        (["--json", str(tmp_path / "no" / "such" / "out.json")], "no/such"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("connect4_peers: error:") and said in err and "Traceback" not in err
