"""Proof certificates: a solution graph that anyone can check with nothing but the rules.

A certificate says what a position's value is and proves it with two *solution graphs*, one
for each bound: for the lower bound ``value >= v`` the positions player 0 reaches, with the
one move player 0 chooses in each and every move player 1 has; for the upper bound
``value <= v`` the same with the roles swapped. Each position of a graph is one of:

* ``move`` (the prover to move): the chosen move and the node it leads to;
* ``all`` (the other side to move): every legal move's node, in the game's order;
* ``terminal``: a finished game, with its utility;
* ``tablebase``: a position an exact oracle (an endgame tablebase) values, with that value.

A play that follows the prover's moves either ends at a leaf or comes back to a position of
the graph; that is a *repetition*, an edge that closes a cycle. Play that repeats is scored by
the game's endless-play rule (:class:`solver.game.HasEndlessValue`), the same all along a
cycle, so a graph proves its bound when every leaf's value is on the bound's side and every
cycle of the graph (every strongly connected part with an edge) is scored on the bound's side
too. Positions are unique in a graph, so a repetition of positions is a cycle of the graph.

:func:`verify` checks exactly that, with nothing of the search that wrote the file: the
game's rules (``actions``, ``result``, ``is_terminal``, ``utility``, ``endless_value``, the
notation) and, for tablebase leaves, the oracle the caller hands in. The file format is in
docs/solving.md.

>>> graph = SolutionGraph("lower", Fraction(-4), (Node("p", "terminal", value=Fraction(0)),))
>>> graph.holds(Fraction(-4)), graph.holds(Fraction(-8)), graph.prover
(True, False, 0)
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Final

import attrs

from solver.errors import CertificateError
from solver.output import atomic_path

__all__ = [
    "FORMAT",
    "Certificate",
    "Node",
    "SolutionGraph",
    "Verification",
    "certificate_digest",
    "read_certificate",
    "verify",
    "write_certificate",
]

FORMAT: Final = "gamesolver-certificate 1"
"""The first line of every certificate (the format's name and version)."""

LOWER, UPPER = "lower", "upper"


@attrs.frozen
class Node:
    """One position of a solution graph.

    Attributes:
        position: the position in the game's notation.
        kind: ``"move"``, ``"all"``, ``"terminal"`` or ``"tablebase"``.
        action: the prover's move in the game's notation (``move`` only).
        children: the nodes the moves lead to (``move``: one; ``all``: one a legal move).
        value: the leaf's value, player 0's view (``terminal`` and ``tablebase``).
    """

    position: str
    kind: str
    action: str = ""
    children: tuple[int, ...] = ()
    value: Fraction | None = None


@attrs.frozen
class SolutionGraph:
    """One bound's proof: ``value >= bound`` (``side="lower"``) or ``<= bound``; node 0 is the
    root."""

    side: str
    bound: Fraction
    nodes: tuple[Node, ...]

    def holds(self, value: Fraction) -> bool:
        """Whether ``value`` is on the bound's side."""
        return value >= self.bound if self.side == LOWER else value <= self.bound

    @property
    def prover(self) -> int:
        """The player who chooses one move: 0 for a lower bound, 1 for an upper one."""
        return 0 if self.side == LOWER else 1


@attrs.frozen
class Certificate:
    """A proved value: the game, the root, the value, where tablebase leaves come from, and
    one solution graph a bound (both for an exact value)."""

    game: str
    root: str
    value: Fraction | None
    provenance: tuple[str, ...]
    graphs: tuple[SolutionGraph, ...]


@attrs.frozen
class Verification:
    """What :func:`verify` checked: the bounds proved, positions, leaves and cycles."""

    lower: Fraction | None
    upper: Fraction | None
    positions: int
    leaves: Mapping[str, int]
    cycles: int

    @property
    def value(self) -> Fraction | None:
        """The exact value, when both bounds meet."""
        return self.lower if self.lower is not None and self.lower == self.upper else None


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _lines(cert: Certificate) -> Iterator[str]:
    yield FORMAT
    yield f"game {cert.game}"
    yield f"root {cert.root}"
    if cert.value is not None:
        yield f"value {_number(cert.value)}"
    for line in cert.provenance:
        yield f"tablebase {line}"
    for graph in cert.graphs:
        yield f"{graph.side} {_number(graph.bound)} {len(graph.nodes)}"
        for i, node in enumerate(graph.nodes):
            if node.kind == "move":
                data = f"{node.action} {node.children[0]}"
            elif node.kind == "all":
                data = " ".join(map(str, node.children))
            else:
                assert node.value is not None
                data = _number(node.value)
            yield f"{i}\t{node.position}\t{node.kind}\t{data}"
    yield "end"


def certificate_digest(cert: Certificate) -> str:
    """The SHA-256 of ``cert``'s text (what :func:`write_certificate` returns), in hex."""
    digest = hashlib.sha256()
    for line in _lines(cert):
        digest.update((line + "\n").encode())
    return digest.hexdigest()


def write_certificate(path: str | os.PathLike[str], cert: Certificate) -> str:
    """Write ``cert`` to ``path`` (gzip-compressed text, atomically); its SHA-256, in hex.

    The digest covers the uncompressed text; docs/solving.md says how to recompute it.
    """
    digest = hashlib.sha256()
    with (
        atomic_path(Path(path), overwrite=True) as temporary,
        gzip.open(temporary, "wt", encoding="utf-8", newline="\n", compresslevel=6) as out,
    ):
        for line in _lines(cert):
            text = line + "\n"
            digest.update(text.encode())
            out.write(text)
    return digest.hexdigest()


def _fraction(text: str, where: str) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise CertificateError(f"{where}: {text!r} is not a number") from None


def _node(line: str, expect: int, where: str) -> Node:
    parts = line.rstrip("\n").split("\t")
    if len(parts) != 4:
        raise CertificateError(f"{where}: expected 'id<TAB>position<TAB>kind<TAB>data'")
    ident, position, kind, data = parts
    if ident != str(expect):
        raise CertificateError(f"{where}: node {ident!r} out of order (expected {expect})")
    try:
        if kind == "move":
            action, child = data.rsplit(" ", 1)
            return Node(position, kind, action=action, children=(int(child),))
        if kind == "all":
            return Node(position, kind, children=tuple(int(c) for c in data.split()))
    except ValueError:
        raise CertificateError(f"{where}: bad {kind!r} data {data!r}") from None
    if kind in ("terminal", "tablebase"):
        return Node(position, kind, value=_fraction(data, where))
    raise CertificateError(
        f"{where}: unknown kind {kind!r}; expected move, all, terminal or tablebase"
    )


def read_certificate(source: str | os.PathLike[str] | IO[str]) -> Certificate:
    """Read a certificate (gzip or plain text; a path or an open text stream).

    Raises:
        CertificateError: the file cannot be read or is not in the format.
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as raw:
                magic = raw.read(2)
        except OSError as e:
            raise CertificateError(f"cannot read {os.fspath(source)!r}: {e.strerror}") from None
        try:
            if magic == b"\x1f\x8b":
                with gzip.open(source, "rt", encoding="utf-8") as stream:
                    return _read(stream, os.fspath(source))
            with open(source, encoding="utf-8") as stream:
                return _read(stream, os.fspath(source))
        except (OSError, EOFError, UnicodeDecodeError) as e:
            raise CertificateError(f"cannot read {os.fspath(source)!r}: {e}") from None
    return _read(source, "<stream>")


def _read(stream: IO[str], name: str) -> Certificate:
    lines = iter(enumerate(stream, 1))

    def next_line() -> tuple[int, str]:
        for number, line in lines:
            return number, line.rstrip("\n")
        raise CertificateError(f"{name}: ends before 'end'")

    number, first = next_line()
    if first != FORMAT:
        raise CertificateError(f"{name}: not a certificate (first line {first[:60]!r})")
    fields: dict[str, str] = {}
    provenance: list[str] = []
    graphs: list[SolutionGraph] = []
    while True:
        number, line = next_line()
        where = f"{name} line {number}"
        word, _, rest = line.partition(" ")
        if line == "end":
            break
        if word in ("game", "root", "value"):
            fields[word] = rest
        elif word == "tablebase":
            provenance.append(rest)
        elif word in (LOWER, UPPER):
            try:
                bound_text, count_text = rest.split()
                count = int(count_text)
            except ValueError:
                raise CertificateError(f"{where}: expected '{word} BOUND NODES'") from None
            nodes = []
            for i in range(count):
                number, text = next_line()
                nodes.append(_node(text, i, f"{name} line {number}"))
            if not nodes:
                raise CertificateError(f"{where}: a solution graph needs its root")
            graphs.append(SolutionGraph(word, _fraction(bound_text, where), tuple(nodes)))
        else:
            raise CertificateError(f"{where}: unexpected line {line[:60]!r}")
    if "game" not in fields or "root" not in fields:
        raise CertificateError(f"{name}: the header needs 'game' and 'root'")
    value = _fraction(fields["value"], name) if "value" in fields else None
    return Certificate(fields["game"], fields["root"], value, tuple(provenance), tuple(graphs))


def _actions_by_name(game: Any, state: Any) -> dict[str, Any]:
    fmt = getattr(game, "format_action", None)
    return {(fmt(state, a) if fmt else str(a)): a for a in game.actions(state)}


def _check_graph(  # noqa: C901 (one check per kind of node)
    game: Any,
    graph: SolutionGraph,
    root: Any,
    oracle: Callable[[Any], float | None] | None,
    counts: dict[str, int],
) -> int:
    """Check one solution graph; the number of its cycles (strongly connected parts)."""
    import networkx as nx  # here: commands that never verify do not load it at start-up

    states = [game.parse_state(node.position) for node in graph.nodes]
    keys = [game.format_state(s) for s in states]
    if keys[0] != game.format_state(root):
        raise CertificateError(
            f"{graph.side} bound: the graph's root {graph.nodes[0].position!r} is not the "
            f"certificate's root {game.format_state(root)!r}"
        )
    seen: dict[str, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            raise CertificateError(
                f"{graph.side} bound: position {key!r} appears twice (nodes {seen[key]} and {i})"
            )
        seen[key] = i
    edges = nx.DiGraph()
    edges.add_nodes_from(range(len(states)))
    n = len(states)
    for i, (node, state) in enumerate(zip(graph.nodes, states, strict=True)):
        where = f"{graph.side} bound, node {i} {keys[i]!r}"
        for child in node.children:
            if not 0 <= child < n:
                raise CertificateError(f"{where}: no node {child} in the graph")
        if node.kind in ("terminal", "tablebase"):
            assert node.value is not None
            if node.kind == "terminal":
                if not game.is_terminal(state):
                    raise CertificateError(f"{where}: marked terminal but the game goes on")
                actual = Fraction(game.utility(state))
            else:
                found = None if oracle is None else oracle(state)
                if found is None:
                    raise CertificateError(f"{where}: the tablebase does not hold this position")
                actual = Fraction(found)
            if actual != node.value:
                raise CertificateError(
                    f"{where}: the leaf says {_number(node.value)} but it is {_number(actual)}"
                )
            if not graph.holds(actual):
                raise CertificateError(
                    f"{where}: the leaf's value {_number(actual)} is not "
                    f"{'>=' if graph.side == LOWER else '<='} {_number(graph.bound)}"
                )
            counts[node.kind] = counts.get(node.kind, 0) + 1
            continue
        if game.is_terminal(state):
            raise CertificateError(f"{where}: the game is over here, but the node has moves")
        mover = game.to_move(state)
        legal = _actions_by_name(game, state)
        if node.kind == "move":
            if mover != graph.prover:
                raise CertificateError(
                    f"{where}: player {mover} is to move, so every move must be answered "
                    f"('all'), not one chosen"
                )
            if node.action not in legal:
                raise CertificateError(
                    f"{where}: move {node.action!r} is not legal; legal: {', '.join(legal)}"
                )
            targets = [(node.action, node.children[0])]
        elif node.kind == "all":
            if mover == graph.prover:
                raise CertificateError(f"{where}: the prover (player {mover}) must choose a move")
            if len(node.children) != len(legal):
                raise CertificateError(
                    f"{where}: {len(node.children)} moves answered but {len(legal)} are legal "
                    f"({', '.join(legal)})"
                )
            targets = list(zip(legal, node.children, strict=True))
        else:  # pragma: no cover (the reader refuses other kinds)
            raise CertificateError(f"{where}: unknown kind {node.kind!r}")
        for name, child in targets:
            after = game.format_state(game.result(state, legal[name]))
            if after != keys[child]:
                raise CertificateError(
                    f"{where}: move {name!r} leads to {after!r}, not to node {child} "
                    f"{keys[child]!r}"
                )
            edges.add_edge(i, child)
    cycles = 0
    for part in nx.strongly_connected_components(edges):
        member = next(iter(part))
        if len(part) == 1 and not edges.has_edge(member, member):
            continue
        cycles += 1
        for i in sorted(part):
            endless = Fraction(game.endless_value(states[i]))
            if not graph.holds(endless):
                raise CertificateError(
                    f"{graph.side} bound, node {i} {keys[i]!r}: play can repeat through this "
                    f"position for ever, scored {_number(endless)} by the endless-play rule, "
                    f"which is not {'>=' if graph.side == LOWER else '<='} "
                    f"{_number(graph.bound)}"
                )
    return cycles


def verify(
    game: Any,
    cert: Certificate,
    oracle: Callable[[Any], float | None] | None = None,
    check_provenance: Callable[[Sequence[str]], list[str]] | None = None,
) -> Verification:
    """Check every claim of ``cert`` with ``game``'s rules and ``oracle`` for tablebase leaves.

    Args:
        game: the game the certificate names (its rules and notation; ``endless_value`` for
            games that cycle).
        cert: what :func:`read_certificate` read.
        oracle: the exact values of tablebase leaves (None: a tablebase leaf is refused).
        check_provenance: what is wrong with the certificate's ``tablebase`` lines for the
            oracle at hand (another build of the levels), one message a problem.

    Raises:
        CertificateError: the first thing that does not hold, naming the position.
    """
    if cert.game != game.name:
        raise CertificateError(f"the certificate is for {cert.game!r}, not {game.name!r}")
    if check_provenance is not None:
        problems = check_provenance(cert.provenance)
        if problems:
            raise CertificateError("; ".join(problems))
    if not cert.graphs:
        raise CertificateError("the certificate has no solution graph")
    root = game.parse_state(cert.root)
    counts: dict[str, int] = {}
    cycles = 0
    lower = upper = None
    positions = 0
    for graph in cert.graphs:
        cycles += _check_graph(game, graph, root, oracle, counts)
        positions += len(graph.nodes)
        if graph.side == LOWER:
            lower = graph.bound if lower is None else max(lower, graph.bound)
        else:
            upper = graph.bound if upper is None else min(upper, graph.bound)
    if cert.value is not None and (lower != cert.value or upper != cert.value):
        raise CertificateError(
            f"the certificate claims the value {_number(cert.value)} but proves "
            f"{'nothing below' if lower is None else '>= ' + _number(lower)} and "
            f"{'nothing above' if upper is None else '<= ' + _number(upper)}"
        )
    return Verification(lower, upper, positions, counts, cycles)
