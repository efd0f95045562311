"""Reading the SVG that Graphviz writes: nodes and edges by the ids and classes viz sets."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import attrs
import pytest

SVG = "{http://www.w3.org/2000/svg}"

needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz 'dot' is not installed (apt-get install graphviz)"
)


@attrs.frozen
class Shape:
    """One drawn node or edge: its id, classes, texts and polygon point counts."""

    id: str
    classes: frozenset[str]
    texts: tuple[str, ...]
    polygons: tuple[int, ...]  # number of points of each polygon (a closed triangle has 4)
    dashed: bool


def parse(svg: str) -> dict[str, Shape]:
    """Every node and edge group of a Graphviz SVG, by id."""
    root = ET.fromstring(svg)
    shapes = {}
    for group in root.iter(f"{SVG}g"):
        classes = frozenset((group.get("class") or "").split())
        if not classes & {"node", "edge"}:
            continue
        texts = tuple("".join(t.itertext()).strip() for t in group.iter(f"{SVG}text"))
        polygons = tuple(len(p.get("points", "").split()) for p in group.iter(f"{SVG}polygon"))
        dashed = any(
            p.get("stroke-dasharray")
            for p in group.iter()
            if p.tag in (f"{SVG}path", f"{SVG}polygon")
        )
        shapes[group.get("id", "")] = Shape(
            group.get("id", ""), classes, tuple(t for t in texts if t), polygons, dashed
        )
    return shapes


def nodes(shapes: dict[str, Shape], cls: str) -> list[Shape]:
    """The node shapes with class ``cls``."""
    return [s for s in shapes.values() if "node" in s.classes and cls in s.classes]


def edges(shapes: dict[str, Shape], cls: str) -> list[Shape]:
    """The edge shapes with class ``cls``."""
    return [s for s in shapes.values() if "edge" in s.classes and cls in s.classes]


BEAMER_FRAME = (453.5, 255.1)
"""A 16:9 Beamer frame (160 mm x 90 mm) in points."""


def fitted_text_size(svg: str, frame: tuple[float, float] = BEAMER_FRAME) -> float:
    """The smallest node text's point size once the whole picture is scaled to fit ``frame``
    (what a projected slide shows), measured in Graphviz's SVG."""
    root = ET.fromstring(svg)
    width, height = (float((root.get(k) or "0").removesuffix("pt")) for k in ("width", "height"))
    scale = min(frame[0] / width, frame[1] / height)
    sizes = [
        float(text.get("font-size") or 14)
        for group in root.iter(f"{SVG}g")
        if "node" in (group.get("class") or "").split()
        and "level" not in (group.get("class") or "").split()
        for text in group.iter(f"{SVG}text")
        if "".join(text.itertext()).strip()
    ]
    return min(sizes) * scale
