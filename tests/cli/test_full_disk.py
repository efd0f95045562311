"""Every writer of the command line on a disk that is really full (a tmpfs filled to its last
byte): one line naming the path and "No space left on device", a non-zero exit, no partial or
temporary file left, and the files that were there before kept as they were."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from games.ayoayo.tablebase_build import build
from games.ayoayo.tablebase_files import HEADER_SIZE
from games.ayoayo.tablebase_index import level_size
from tests.cli.conftest import Run
from tests.full_disk import FullDisk, contents

NO_SPACE = "No space left on device"
OLD = b"the old file\n"


def _refused(result: Run, name: str) -> None:
    assert result.code != 0, result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert NO_SPACE in lines[0] and name in lines[0], lines[0]


def _old_file(name: str) -> Callable[[Path], object]:
    return lambda root: (root / name).write_bytes(OLD)


class TestOneFile:
    """A file written whole or not at all: the old one kept, no temporary file left."""

    def test_solve_out_a_new_file(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk()
        _refused(run("solve", "tictactoe", "--out", str(root / "s.json")), "s.json")
        assert contents(root) == {}

    def test_solve_out_over_an_old_file(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk(_old_file("s.csv"))
        _refused(run("solve", "tictactoe", "--out", str(root / "s.csv"), "--force"), "s.csv")
        assert contents(root) == {"s.csv": OLD}

    @pytest.mark.parametrize("suffix", ["svg", "png", "tex", "pdf", "json", "dot"])
    def test_tree_output_over_an_old_file(
        self, suffix: str, full_disk: FullDisk, run: Callable[..., Run]
    ) -> None:
        name = f"tree.{suffix}"
        root = full_disk(_old_file(name))
        _refused(run("tree", "tictactoe", "-d", "1", "-o", str(root / name), "--force"), name)
        assert contents(root) == {name: OLD}

    @pytest.mark.parametrize("option", ["--html", "--interactive"])
    def test_tree_pages(self, option: str, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk(_old_file("page.html"))
        result = run("tree", "tictactoe", "-d", "1", option, str(root / "page.html"), "--force")
        _refused(result, "page.html")
        assert contents(root) == {"page.html": OLD}

    def test_no_file_left_to_make(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        """Every inode used: the error names the file asked for, not its temporary name."""
        root = full_disk(_old_file("s.json"), inodes=16)
        _refused(run("solve", "tictactoe", "--out", str(root / "s.json"), "--force"), "/s.json'")
        assert contents(root) == {"s.json": OLD}

    def test_play_save(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk(_old_file("game.txt"))
        result = run("play", "tictactoe", "--save", str(root / "game.txt"), "--force", stdin="q\n")
        _refused(result, "game.txt")
        assert "moves:" in result.out  # the moves are on the screen still
        assert contents(root) == {"game.txt": OLD}

    def test_prove_certificate(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk(_old_file("proof.json"))
        result = run(
            "prove", "ayoayo", "-p", "[[0,0,0,0,0,1],[0,0,0,0,0,3]]", "--captured", "20,24",
            "--no-tablebase", "--no-checkpoint", "-o", str(root / "proof.json"), "--force",
        )  # fmt: skip
        _refused(result, "proof.json")
        assert contents(root) == {"proof.json": OLD}


class TestSetsOfFiles:
    """A set of files replaces the old set only once whole; a folder made for it is removed."""

    def test_match_save_keeps_the_old_records(
        self, full_disk: FullDisk, run: Callable[..., Run]
    ) -> None:
        def old_records(root: Path) -> None:
            (root / "games").mkdir()
            for i in (1, 2, 3):
                (root / "games" / f"game-0000{i}.txt").write_bytes(OLD)

        root = full_disk(old_records)
        before = contents(root)
        result = run(
            "match", "tictactoe", "random", "random", "-n", "5",
            "--save", str(root / "games"), "--force",
        )  # fmt: skip
        _refused(result, "games")
        assert contents(root) == before

    def test_match_save_into_a_new_folder(
        self, full_disk: FullDisk, run: Callable[..., Run]
    ) -> None:
        root = full_disk()
        result = run(
            "match", "tictactoe", "random", "random", "-n", "2", "--save", str(root / "a" / "b")
        )
        _refused(result, f"{root.name}/a/b")  # a long path is shown by its end
        assert contents(root) == {}

    def test_tree_frames(self, full_disk: FullDisk, run: Callable[..., Run]) -> None:
        root = full_disk()
        result = run("tree", "tictactoe", "-d", "1", "--frames", str(root / "frames"))
        _refused(result, f"{root.name}/frames")  # a long path is shown by its end
        assert contents(root) == {}


class TestCaches:
    """What a full disk does to the files the commands keep for later: a stated fallback."""

    def test_prove_goes_on_without_its_checkpoint(
        self, full_disk: FullDisk, run: Callable[..., Run], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:  # fmt: skip
        def old_checkpoint(root: Path) -> None:
            (root / "gamesolver" / "proofs" / "checkpoints").mkdir(parents=True)
            (root / "gamesolver" / "proofs" / "checkpoints" / "proof-0.npy").write_bytes(OLD)

        root = full_disk(old_checkpoint)
        before = contents(root)
        monkeypatch.setenv("XDG_CACHE_HOME", str(root))
        result = run("prove", "ayoayo", "--no-tablebase", "-t", "0.5", "-o", str(tmp_path / "p"))
        (note,) = [line for line in result.out.splitlines() if "checkpoint" in line]
        assert NO_SPACE in note and "proofs/checkpoints'" in note, note  # said once
        assert "goes on without saving a checkpoint" in note
        assert "not settled" in result.out and "run again" in result.out
        assert contents(root) == before

    def test_tablebase_build_on_a_full_disk(
        self, full_disk: FullDisk, run: Callable[..., Run]
    ) -> None:
        root = full_disk()
        result = run("tablebase", "build", "ayoayo", "--seeds", "4", "--dir", str(root / "tb"))
        assert result.code != 0 and len(result.err.strip().splitlines()) == 1, result.err
        assert f"no space left in {str(root / 'tb')!r} for level 0" in result.err
        assert set(contents(root)) <= {"tb", "tb/.ayoayo-build.lock"}

    def test_tablebase_build_counts_the_files_beside_a_level(
        self, full_disk: FullDisk, run: Callable[..., Run]
    ) -> None:
        """Room for a level's values and distances but not for its record and checksums: the
        level is refused before it is built, not written and then failed on its record."""
        arrays = 3 * level_size(8) + 2 * HEADER_SIZE
        root = full_disk(lambda root: build(4, root), size=2 << 20, leave=-(-arrays // 4096) * 4096)
        before = contents(root)
        result = run("tablebase", "build", "ayoayo", "--seeds", "8", "--dir", str(root))
        assert result.code != 0 and len(result.err.strip().splitlines()) == 1, result.err
        assert f"no space left in {str(root)!r} for level 8" in result.err
        assert contents(root) == before
