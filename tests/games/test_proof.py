"""The Ayòayò proof search: only what it proved, equal to the tablebases and to `solve`, with
certificates that the rules alone check and that refuse every kind of tampering."""

from __future__ import annotations

import gzip
import os
import random
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from games.ayoayo import Ayoayo, accel
from games.ayoayo.proof import ProofStopped, Prover
from games.ayoayo.rules import AyoayoState
from games.ayoayo.sampling import random_positions
from games.ayoayo.tablebase import Tablebase
from games.ayoayo.tablebase_files import DISTANCES, VALUES, level_path
from solver.certificate import (
    Certificate,
    Node,
    SolutionGraph,
    read_certificate,
    verify,
    write_certificate,
)
from solver.errors import CertificateError
from solver.solve import solve

pytestmark = pytest.mark.skipif(
    accel.proof_kernel() is None, reason="the proof search needs the compiled kernel (numba)"
)

GAME = Ayoayo()


@pytest.fixture(scope="module")
def levels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Levels 0-12, built once for the module with the compiled builder."""
    directory = tmp_path_factory.mktemp("levels")
    GAME.tablebase(directory).build(12)
    return directory


def below(levels: Path, seeds: int, into: Path) -> Tablebase:
    """A tablebase of the levels under ``seeds`` only (links to the built files)."""
    into.mkdir(exist_ok=True)
    for n in range(0, seeds, 4):
        for kind in (VALUES, DISTANCES):
            source = level_path(levels, n, kind)
            if source.exists():
                os.symlink(source, level_path(into, n, kind))
    return GAME.tablebase(into)


sample = random_positions
"""Positions of ``seeds`` seeds on the board still in play, at random."""


class TestValues:
    """The proof search settles the exact value the tablebases and `solve` give."""

    @pytest.mark.parametrize(("seeds", "count"), [(8, 30), (12, 12)])
    def test_a_level_from_the_levels_below(
        self, levels: Path, tmp_path: Path, seeds: int, count: int
    ) -> None:
        """Sampled positions of level 8 or 12 proved from the levels below only: the value
        the full tablebase holds (a level a test, so parallel runs share them out)."""
        full = GAME.tablebase(levels)
        prover = Prover(GAME, below(levels, seeds, tmp_path / f"below-{seeds}"))
        rng = random.Random(25)
        if seeds == 12:
            sample(8, 30, rng)  # the sample the test has always drawn: level 8's first
        # (other draws of level 8 hold endless-play endgames that take this search a minute
        # each from levels 0-4 alone: docs/solving.md's limits)
        for state in sample(seeds, count, rng):
            assert prover.value(state).value == full.probe(state), GAME.format_state(state)

    def test_a_position_where_history_dependent_results_would_mislead(
        self, levels: Path, tmp_path: Path
    ) -> None:
        # With results that lean on a repetition above their node stored and reused on other
        # lines, the proof search settled this position at -8; the tablebase says -12.
        state = GAME.parse_state("[[1,0,1,0,1,0],[2,0,1,1,0,1]] captured 16,24 to-move 1")
        prover = Prover(GAME, below(levels, 12, tmp_path / "below"))
        assert prover.value(state).value == GAME.tablebase(levels).probe(state) == -12

    def test_without_tablebases_equals_the_retrograde_solve(self) -> None:
        # Proofs of endless-play values without tablebases can be long (a cycle must close on
        # every line), so each position gets two seconds; every value settled must be right.
        rng = random.Random(7)
        prover = Prover(GAME, None)
        settled = endless = 0
        states = sample(4, 40, rng)
        for state in states:
            solution = solve(GAME, state)
            found = prover.value(state, time_limit=2.0)
            if found.value is None:
                assert found.lower is None or found.lower <= solution.counts.value
                assert found.upper is None or found.upper >= solution.counts.value
                continue
            settled += 1
            endless += solution.endless(state)
            assert found.value == solution.counts.value, GAME.format_state(state)
        assert settled >= 0.75 * len(states)
        assert endless, "some settled value is reached by endless play"

    def test_the_start_with_levels_to_12(self, levels: Path) -> None:
        result = Prover(GAME, GAME.tablebase(levels)).value(GAME.initial_state())
        assert (result.lower, result.upper, result.value) == (-4, -4, -4)

    def test_a_time_limit_keeps_the_bounds_proved_so_far(self) -> None:
        result = Prover(GAME, None).value(GAME.initial_state(), time_limit=0.05)
        assert result.value is None
        assert result.lower is None or result.lower <= -4
        assert result.upper is None or result.upper >= -4


class TestCheckpoints:
    """A stopped proof keeps what it proved on disk, and the next run goes on from it."""

    def test_resume_after_a_stop(self, levels: Path, tmp_path: Path) -> None:
        tablebase = GAME.tablebase(levels)
        state = GAME.initial_state()
        first = Prover(GAME, tablebase, checkpoint=tmp_path / "cp")
        with pytest.raises(ProofStopped):
            first.holds(state, -4, deadline=0.0)
        assert list((tmp_path / "cp").glob("proof-*.npy"))
        lines: list[str] = []
        second = Prover(GAME, tablebase, checkpoint=tmp_path / "cp", progress=lines.append)
        result = second.value(state, guess=-4)
        assert result.value == -4
        assert any(line.startswith("resumed") for line in lines)
        cert = second.certificate(state, result)
        assert verify(GAME, cert, oracle=tablebase).value == -4


class TestProgress:
    """A running test tells how far it is: nodes, positions proved, root moves settled."""

    def test_the_watch_is_told_while_a_test_runs(
        self, levels: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from games.ayoayo import proof

        monkeypatch.setattr(proof, "WATCH_SECONDS", 0.0)
        monkeypatch.setattr(proof, "BUDGET", 4096)
        seen: list[proof.ProofProgress] = []
        prover = Prover(GAME, GAME.tablebase(levels), watch=seen.append)
        assert prover.holds(GAME.initial_state(), -4)
        assert seen, "a test of a million nodes returns to Python between budgets"
        assert all(p.x == -4 and p.root_moves == 6 and 0 <= p.root_settled <= 6 for p in seen)
        assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
        assert all(p.rate > 0 for p in seen)
        assert seen[-1].proved > 0
        assert [t["x"] for t in prover.settled] == [-4]
        assert prover.settled[0]["holds"] is True
        assert prover.settled[0]["nodes"] >= seen[-1].nodes
        counted = sum(len(proof.K.proved_rows(tk)) for tk in prover.tables.values())
        assert prover.proved_positions() == counted > 0


def certificate_of(state: AyoayoState, tablebase: Tablebase | None) -> Certificate:
    prover = Prover(GAME, tablebase)
    return prover.certificate(state, prover.value(state))


def replace_node(cert: Certificate, graph: int, index: int, node: Node) -> Certificate:
    graphs = list(cert.graphs)
    nodes = list(graphs[graph].nodes)
    nodes[index] = node
    graphs[graph] = attrs.evolve(graphs[graph], nodes=tuple(nodes))
    return attrs.evolve(cert, graphs=tuple(graphs))


@pytest.fixture(scope="module")
def start(levels: Path) -> tuple[Certificate, Tablebase]:
    tablebase = GAME.tablebase(levels)
    return certificate_of(GAME.initial_state(), tablebase), tablebase


@pytest.fixture(scope="module")
def cyclic() -> Certificate:
    """A proof without tablebases whose graphs close cycles (endless play)."""
    rng = random.Random(3)
    for state in sample(4, 100, rng):
        if not solve(GAME, state).endless(state):
            continue
        prover = Prover(GAME, None)
        result = prover.value(state, time_limit=2.0)
        if result.value is not None:
            cert = prover.certificate(state, result)
            if verify(GAME, cert).cycles:
                return cert
    raise AssertionError("no position of the sample proves a value through a cycle")


class TestCertificates:
    """Certificates round-trip through their file and refuse each kind of tampering."""

    def test_round_trip(self, start: tuple[Certificate, Tablebase], tmp_path: Path) -> None:
        cert, tablebase = start
        path = tmp_path / "start.cert.gz"
        write_certificate(path, cert)
        again = read_certificate(path)
        assert again == cert
        checked = verify(GAME, again, oracle=tablebase, check_provenance=tablebase.check_provenance)
        assert (checked.value, checked.positions) == (-4, sum(len(g.nodes) for g in cert.graphs))
        with gzip.open(path, "rt") as text:
            assert text.readline() == "gamesolver-certificate 1\n"

    def test_a_changed_move_is_refused(self, start: tuple[Certificate, Tablebase]) -> None:
        cert, tablebase = start
        graph = cert.graphs[0]
        i = next(i for i, n in enumerate(graph.nodes) if n.kind == "move")
        node = graph.nodes[i]
        state = GAME.parse_state(node.position)
        other = next(str(a) for a in GAME.actions(state) if str(a) != node.action)
        bad = replace_node(cert, 0, i, attrs.evolve(node, action=other))
        with pytest.raises(CertificateError, match=node.position.replace("[", r"\[")):
            verify(GAME, bad, oracle=tablebase)

    def test_an_altered_leaf_is_refused(self, start: tuple[Certificate, Tablebase]) -> None:
        cert, tablebase = start
        for kind in ("tablebase", "terminal"):
            graph = cert.graphs[1]
            i = next(i for i, n in enumerate(graph.nodes) if n.kind == kind)
            node = graph.nodes[i]
            assert node.value is not None
            bad = replace_node(cert, 1, i, attrs.evolve(node, value=node.value - 4))
            with pytest.raises(CertificateError, match="the leaf says"):
                verify(GAME, bad, oracle=tablebase)

    def test_a_missing_answer_is_refused(self, start: tuple[Certificate, Tablebase]) -> None:
        cert, tablebase = start
        graph = cert.graphs[0]
        i = next(i for i, n in enumerate(graph.nodes) if n.kind == "all")
        node = graph.nodes[i]
        bad = replace_node(cert, 0, i, attrs.evolve(node, children=node.children[:-1]))
        with pytest.raises(CertificateError, match="moves answered"):
            verify(GAME, bad, oracle=tablebase)

    def test_a_tablebase_of_another_build_is_refused(
        self, start: tuple[Certificate, Tablebase]
    ) -> None:
        cert, tablebase = start
        line = cert.provenance[-1].split()
        forged = (*cert.provenance[:-1], f"{line[0]} {int(line[1], 16) ^ 1:08x}")
        bad = attrs.evolve(cert, provenance=forged)
        with pytest.raises(CertificateError, match="not the build the proof used"):
            verify(GAME, bad, oracle=tablebase, check_provenance=tablebase.check_provenance)

    def test_a_wrong_value_claimed_is_refused(self, start: tuple[Certificate, Tablebase]) -> None:
        cert, tablebase = start
        bad = attrs.evolve(cert, value=Fraction(0))
        with pytest.raises(CertificateError, match="claims the value 0"):
            verify(GAME, bad, oracle=tablebase)

    def test_a_wrongly_scored_cycle_is_refused(self, cyclic: Certificate) -> None:
        checked = verify(GAME, cyclic)
        assert checked.cycles
        # The same graphs claimed one better: the leaves may still hold, the cycles cannot.
        for graph in cyclic.graphs:
            shift = 1 if graph.side == "lower" else -1
            leaves_hold = all(
                n.value is None or attrs.evolve(graph, bound=graph.bound + shift).holds(n.value)
                for n in graph.nodes
            )
            if not leaves_hold:
                continue
            bad = attrs.evolve(
                cyclic,
                value=None,
                graphs=(attrs.evolve(graph, bound=graph.bound + shift),),
            )
            with pytest.raises(CertificateError, match="endless-play rule"):
                verify(GAME, bad)
            return
        pytest.fail("no graph of the cyclic proof has leaves that also hold one better")

    def test_a_position_twice_is_refused(self, start: tuple[Certificate, Tablebase]) -> None:
        cert, tablebase = start
        graph = cert.graphs[0]
        nodes = (*graph.nodes, graph.nodes[-1])
        bad = attrs.evolve(cert, graphs=(SolutionGraph(graph.side, graph.bound, nodes),))
        bad = attrs.evolve(bad, value=None)
        with pytest.raises(CertificateError, match="appears twice"):
            verify(GAME, bad, oracle=tablebase)
