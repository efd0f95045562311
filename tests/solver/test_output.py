"""Tests for solver.output: checked paths, atomic writes, no clobbering, emptied frame folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import load_game
from solver.game import GameError
from solver.output import (
    OutputError,
    atomic_path,
    check_output,
    prepare_directory,
    write_text,
)
from solver.solve import solve


class TestCheckOutput:
    def test_a_new_file_in_an_existing_folder_is_fine(self, tmp_path: Path) -> None:
        """A path whose folder exists and is writable passes."""
        assert check_output(tmp_path / "a.json") == tmp_path / "a.json"

    def test_a_directory_is_refused(self, tmp_path: Path) -> None:
        """A directory is not a file name."""
        with pytest.raises(OutputError, match="is a directory"):
            check_output(tmp_path)

    def test_a_missing_folder_is_refused(self, tmp_path: Path) -> None:
        """A file in a folder that does not exist is refused before any work."""
        with pytest.raises(OutputError, match="does not exist"):
            check_output(tmp_path / "nowhere" / "a.json")

    def test_a_file_as_folder_is_refused(self, tmp_path: Path) -> None:
        """A path under a regular file is refused."""
        (tmp_path / "f").write_text("x")
        with pytest.raises(OutputError, match=r"not a directory|does not exist"):
            check_output(tmp_path / "f" / "a.json")

    def test_an_existing_file_needs_overwrite(self, tmp_path: Path) -> None:
        """An existing file is refused unless overwrite is given."""
        (tmp_path / "a.json").write_text("old")
        with pytest.raises(OutputError, match="already exists"):
            check_output(tmp_path / "a.json")
        check_output(tmp_path / "a.json", overwrite=True)

    @pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
    def test_a_read_only_folder_is_refused(self, tmp_path: Path) -> None:
        """A folder without write permission is refused."""
        tmp_path.chmod(0o500)
        try:
            with pytest.raises(OutputError, match="not writable"):
                check_output(tmp_path / "a.json")
        finally:
            tmp_path.chmod(0o700)

    def test_errors_are_game_errors_and_os_errors(self) -> None:
        """OutputError is caught by handlers of either family."""
        assert issubclass(OutputError, GameError) and issubclass(OutputError, OSError)


class TestAtomicWrites:
    def test_a_failed_write_leaves_the_old_file_and_no_temporary(self, tmp_path: Path) -> None:
        """An error half-way through a write keeps the old content and cleans up."""
        target = tmp_path / "a.json"
        target.write_text("good")

        def fail_half_way() -> None:
            with atomic_path(target, overwrite=True) as temporary:
                temporary.write_text("half")
                raise RuntimeError("disk full")

        with pytest.raises(RuntimeError):
            fail_half_way()
        assert target.read_text() == "good"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]

    def test_a_write_replaces_the_file_whole(self, tmp_path: Path) -> None:
        """A finished write replaces the file with the new content."""
        target = tmp_path / "a.json"
        target.write_text("old")
        write_text(target, "new", overwrite=True)
        assert target.read_text() == "new"

    def test_solutions_are_written_atomically(self, tmp_path: Path) -> None:
        """Solution.to_json refuses to clobber with overwrite=False and writes whole files."""
        solution = solve(load_game("textbook"))
        target = tmp_path / "s.json"
        solution.to_json(target)
        first = target.read_text()
        with pytest.raises(OutputError):
            solution.to_csv(target, overwrite=False)
        assert target.read_text() == first
        assert first.rstrip().endswith("]}")


class TestPrepareDirectory:
    def test_old_files_of_the_pattern_are_removed_others_kept(self, tmp_path: Path) -> None:
        """A reused folder loses its old frames and keeps everything else."""
        (tmp_path / "frame-000.svg").write_text("old")
        (tmp_path / "frame-123.png").write_text("old")
        (tmp_path / "notes.txt").write_text("mine")
        prepare_directory(tmp_path, r"frame-[0-9]+\.(?:svg|png)", overwrite=True)
        assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]

    def test_old_files_need_overwrite(self, tmp_path: Path) -> None:
        """Without overwrite, a folder with old frames is refused and left alone."""
        (tmp_path / "frame-000.svg").write_text("old")
        with pytest.raises(OutputError, match="already holds 1 file"):
            prepare_directory(tmp_path, r"frame-[0-9]+\.svg")
        assert (tmp_path / "frame-000.svg").exists()

    def test_a_file_is_not_a_directory(self, tmp_path: Path) -> None:
        """A regular file given as the folder is refused."""
        (tmp_path / "f").write_text("x")
        with pytest.raises(OutputError, match="is a file"):
            prepare_directory(tmp_path / "f", "x")


class TestVizWriters:
    def test_a_reused_frames_folder_holds_only_the_new_frames(self, tmp_path: Path) -> None:
        """Writing fewer frames into a used folder leaves none of the old ones behind."""
        from viz import game_tree
        from viz.frames import write_frames

        big = game_tree(load_game("textbook", tree=[[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
        small = game_tree(load_game("textbook", tree=[[1, 2]]))
        many = write_frames(big, tmp_path, format="dot")
        few = write_frames(small, tmp_path, format="dot")
        assert len(few) < len(many)
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in few)

    def test_render_checks_the_path_before_drawing(self, tmp_path: Path) -> None:
        """render() to a missing folder fails with OutputError, not after the drawing."""
        from viz import game_tree
        from viz.export import render

        with pytest.raises(OutputError, match="does not exist"):
            render(game_tree(load_game("textbook")), tmp_path / "no" / "t.svg")


class TestLinksAndSpecialFiles:
    """A write replaces files, never what is not one: a link's file is replaced and the link
    kept, and a FIFO is written into (an atomic rename replaced both with a plain file)."""

    def test_a_link_stays_a_link(self, tmp_path: Path) -> None:
        (tmp_path / "kept").mkdir()
        real = tmp_path / "kept" / "value.txt"
        real.write_text("old\n")
        (tmp_path / "value.txt").symlink_to(real)
        write_text(tmp_path / "value.txt", "new\n", overwrite=True)
        assert (tmp_path / "value.txt").is_symlink() and real.read_text() == "new\n"
        assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["value.txt"]

    def test_a_fifo_is_written_into_not_replaced(self, tmp_path: Path) -> None:
        import stat
        import threading

        fifo = tmp_path / "out.json"
        os.mkfifo(fifo)
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
        reader.start()
        write_text(fifo, "[1, 2]\n")  # no --force needed: nothing is replaced
        reader.join(5)
        assert got == [b"[1, 2]\n"] and stat.S_ISFIFO(fifo.stat().st_mode)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
