"""Frames replaced with --force as a set: a failure or Ctrl-C part-way keeps the old set whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import load_game
from solver.output import OutputError
from tests.viz.svg import needs_dot
from viz import GameTree, game_tree, write_frames
from viz import frames as frames_module

pytestmark = needs_dot

TREE = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture(scope="module")
def tree() -> GameTree:
    return game_tree(load_game("textbook", tree=TREE, labels="aima"), algorithm="alphabeta")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("fault", [KeyboardInterrupt, OutputError])
def test_a_fault_part_way_keeps_the_old_frames(
    tree: GameTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: type[BaseException]
) -> None:
    """Ctrl-C or a full disk at the fifth new frame: the old set is whole, nothing else left."""
    write_frames(tree, tmp_path, format="dot")
    (tmp_path / "notes.txt").write_text("mine")
    before = _snapshot(tmp_path)
    written: list[str] = []
    real = frames_module.write_text

    def failing(path: Path, text: str) -> Path:
        if len(written) == 4:
            raise fault("no space left on device")
        written.append(path.name)
        return real(path, text)

    monkeypatch.setattr(frames_module, "write_text", failing)
    with pytest.raises(fault):
        write_frames(tree, tmp_path, format="dot", alpha_beta_labels=True)
    assert _snapshot(tmp_path) == before


def test_the_new_set_replaces_the_old_one_whole(tree: GameTree, tmp_path: Path) -> None:
    """Old frames of another format and count are gone; other files stay."""
    (tmp_path / "frame-0000.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("mine")
    files = write_frames(tree, tmp_path, format="dot")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([*(f.name for f in files), "notes.txt"])
    with pytest.raises(OutputError, match="already holds"):
        write_frames(tree, tmp_path, format="dot", overwrite=False)
