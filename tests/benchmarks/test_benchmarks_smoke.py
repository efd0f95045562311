"""Smoke tests of the benchmark harness: its own code path, tiny sizes, structure not timings."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import peers
from benchmarks.harness import Case, Measurement, compare, format_table, measure
from benchmarks.run import main

OURS_KEYS = {
    "ours.solve.bitboard",
    "ours.solve.readable",
    "ours.search_value.bitboard",
    "ours.search_value.readable",
    "ours.search.bitboard",
    "ours.search.readable",
    "ours.alphabeta.readable",
    "ours.engine.ayoayo",
    "ours.to_depth.ayoayo",
    "ours.depth_in_time.ayoayo",
    "ours.loop_check.ayoayo",
}
AYOAYO_KEYS = {
    "ours.engine.ayoayo",
    "ours.to_depth.ayoayo",
    "ours.depth_in_time.ayoayo",
    "ours.loop_check.ayoayo",
}


def _quick(tmp_path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "bench.json"
    argv = ["--quick", "--repeat", "1", "--warmup", "0", "--json", str(out), *extra]
    code = main(argv)
    return code, json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ours_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    code, report = _quick(
        tmp_path_factory.mktemp("bench"),
        "--side",
        "ours",
        "--ayoayo-depth",
        "4",
        "--reach-depth",
        "3",
        "--time-limit",
        "0.05",
        "--agreement-budget",
        "0.3",
    )
    assert code == 0
    return report


class TestQuickRunOfOurSide:
    def test_report_has_every_section(self, ours_report: dict[str, Any]) -> None:
        """The JSON report holds meta, measurements, comparisons, agreement and targets."""
        assert set(ours_report) == {"meta", "measurements", "comparisons", "agreement", "targets"}
        assert ours_report["meta"]["options"]["quick"] is True

    def test_every_case_of_ours_ran(self, ours_report: dict[str, Any]) -> None:
        """Each of our cases is measured once, successfully, with a positive median."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        assert set(measured) == OURS_KEYS
        for m in measured.values():
            assert (m["status"], m["runs"], m["side"]) == ("ok", 1, "ours"), m
            assert m["median_s"] > 0

    def test_tictactoe_cases_found_the_game(self, ours_report: dict[str, Any]) -> None:
        """The solves saw all 5,478 states and every tic-tac-toe case found the draw."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        for key in ("ours.solve.bitboard", "ours.solve.readable"):
            assert measured[key]["facts"]["states"] == 5478
        for key in OURS_KEYS - AYOAYO_KEYS:
            assert measured[key]["facts"]["value"] == 0

    def test_root_value_cases_skip_the_plies_and_the_full_ones_do_not(
        self, ours_report: dict[str, Any]
    ) -> None:
        """search_value (plies=False) reports no plies and kind root; search reports 9 plies."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        for short in ("bitboard", "readable"):
            value_only = measured[f"ours.search_value.{short}"]
            full = measured[f"ours.search.{short}"]
            assert (value_only["kind"], value_only["facts"]["plies"]) == ("root", None)
            assert (full["kind"], full["facts"]["plies"]) == ("root_plies", 9)
            assert value_only["facts"]["best_actions"] == full["facts"]["best_actions"]

    def test_root_value_target_is_judged_on_the_plies_false_case(
        self, ours_report: dict[str, Any]
    ) -> None:
        """The < 10 ms target shows the plies=False median, the full answer only beside it."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        by_goal = {t["goal"]: t for t in ours_report["targets"]}
        for short in ("bitboard", "readable"):
            target = by_goal[f"root value ({short}) < 10 ms, search(plies=False)"]
            median = measured[f"ours.search_value.{short}"]["median_s"]
            assert target["met"] is (median < 0.010)
            assert target["measured"].startswith(f"{median * 1000:.1f} ms (with plies: ")

    def test_ayoayo_cases_report_nodes_and_depths(self, ours_report: dict[str, Any]) -> None:
        """The engine cases report node counts, a node rate and the depth of every run."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        engine = measured["ours.engine.ayoayo"]
        assert engine["nodes"] > 0 and engine["nodes_per_second"] > 0
        assert engine["facts"]["depth"] == 4
        reached = measured["ours.to_depth.ayoayo"]
        assert (reached["kind"], reached["facts"]["depth"]) == ("to_depth", 3)
        assert reached["nodes"] > 0
        timed = measured["ours.depth_in_time.ayoayo"]
        assert len(timed["facts"]["depths"]) == 1 and timed["facts"]["depths"][0] >= 1

    def test_the_loop_check_case_refuses_the_looping_sowing(
        self, ours_report: dict[str, Any]
    ) -> None:
        """The never-ending sowing is timed, refused, and judged against its 1 s target."""
        measured = {m["key"]: m for m in ours_report["measurements"]}
        looping = measured["ours.loop_check.ayoayo"]
        assert (looping["kind"], looping["facts"]) == ("loop_check", {"refused": True})
        by_goal = {t["goal"]: t for t in ours_report["targets"]}
        target = by_goal[
            "a never-ending relay-sowing is refused within 1 s (found exactly, no step cap)"
        ]
        assert target["met"] is (looping["max_s"] < 1.0)

    def test_agreement_rows_count_up_from_depth_one(self, ours_report: dict[str, Any]) -> None:
        """The engine-vs-teaching check reports consecutive depths from 1, each equal."""
        rows = ours_report["agreement"]
        assert [row["depth"] for row in rows] == list(range(1, len(rows) + 1))
        assert rows and all(row["equal"] for row in rows)

    def test_without_peers_the_ratio_targets_are_not_measured(
        self, ours_report: dict[str, Any]
    ) -> None:
        """With our side only there are no ratios, and ratio targets say so instead of failing."""
        assert ours_report["comparisons"] == []
        by_goal = {t["goal"]: t for t in ours_report["targets"]}
        ratio_goal = "bitboard strong solve >= 3x faster than OpenSpiel MinimaxSolver"
        assert by_goal[ratio_goal]["met"] is None
        assert by_goal["depth >= 14 from the start within 0.05 s"]["met"] is None


class TestPeers:
    def test_missing_peer_is_skipped_with_an_install_hint(self) -> None:
        """A peer whose module cannot be imported is reported as skipped, naming pip install."""

        def prepare() -> Any:
            peers._import("no_such_peer_module_for_the_smoke_test", "easyai")

        case = Case("s", "easyai.x", "x", "easyai", "root", prepare)
        m = measure(case, repeat=1)
        assert m.status == "skipped" and "pip install easyAI" in m.note

    @pytest.mark.skipif(
        importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (a bench extra) missing"
    )
    def test_openspiel_tictactoe_cases_run(self, tmp_path: Path) -> None:
        """With OpenSpiel installed its tic-tac-toe cases run and find the draw."""
        code, report = _quick(tmp_path, "--side", "peers", "--suite", "tictactoe")
        assert code == 0
        measured = {m["key"]: m for m in report["measurements"]}
        assert measured["openspiel.minimax_solver"]["facts"]["states"] == 4520
        assert measured["openspiel.alpha_beta"]["facts"]["value"] == 0
        assert measured["openspiel.alpha_beta"]["nodes"] > 0
        assert measured["openspiel.alpha_beta"]["kind"] == "root"

    @pytest.mark.skipif(
        importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (a bench extra) missing"
    )
    def test_openspiel_oware_to_depth_is_compared_with_ours_by_time(self, tmp_path: Path) -> None:
        """OpenSpiel's oware search to the same depth pairs with our to_depth case by time."""
        code, report = _quick(
            tmp_path,
            "--suite",
            "ayoayo",
            "--reach-depth",
            "3",
            "--ayoayo-depth",
            "3",
            "--oware-depth",
            "3",
            "--kalah-depth",
            "3",
            "--awele-depth",
            "3",
            "--time-limit",
            "0.05",
            "--agreement-budget",
            "0",
        )
        assert code == 0
        measured = {m["key"]: m for m in report["measurements"]}
        assert measured["openspiel.oware_to_depth"]["facts"]["depth"] == 3
        pairs = {(c["ours"], c["peer"]): c["metric"] for c in report["comparisons"]}
        assert pairs[("ours.to_depth.ayoayo", "openspiel.oware_to_depth")] == "time"
        assert ("ours.engine.ayoayo", "openspiel.oware") in pairs


class TestHarness:
    def test_a_raising_case_is_reported_not_raised(self) -> None:
        """A case that raises gives an error measurement holding the exception's message."""

        def job() -> dict[str, Any]:
            raise ValueError("bad position 'x'")

        m = measure(Case("s", "ours.x", "x", "ours", "root", lambda: job), repeat=2)
        assert (m.status, m.runs) == ("error", 0)
        assert "bad position 'x'" in m.note

    def test_markdown_table_right_aligns_numbers_and_escapes_pipes(self) -> None:
        """A Markdown table marks numeric columns ---: and escapes a | inside a cell."""
        text = format_table(["case", "median"], [["a|b", "1.5 ms"], ["c", "20 ms"]], True)
        assert text.splitlines() == [
            "| case | median |",
            "| --- | ---: |",
            "| a\\|b | 1.5 ms |",
            "| c | 20 ms |",
        ]

    def test_node_rates_compare_ours_over_peer(self) -> None:
        """For node rates the ratio is our nodes/s over the peer's."""
        ours = Measurement("s", "ours.e", "e", "ours", "nps", "ok", median_s=1.0, nodes=600)
        peer = Measurement("s", "peer.e", "e", "peer", "nps", "ok", median_s=2.0, nodes=400)
        other = Measurement("t", "peer.f", "f", "peer", "nps", "ok", median_s=1.0, nodes=1)
        [pair] = compare([ours, peer, other])
        assert (pair.ours, pair.peer, pair.metric, pair.ratio) == (
            "ours.e",
            "peer.e",
            "nodes/s",
            3.0,
        )
