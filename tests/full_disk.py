"""A file system that is really full, for the tests of what writers do on one.

A small tmpfs is mounted for the test and filled to its last byte: a write there fails with
``ENOSPC`` ("No space left on device") as on a user's full disk, with no limit of the process
involved. Mounting needs root (or CAP_SYS_ADMIN); where it is not permitted the tests skip,
saying so.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

FILLER = "filler"
"""The file that takes the last free byte of the disk."""


def mount_tmpfs(where: Path, size: int, inodes: int | None = None) -> None:
    """Mount a tmpfs of ``size`` bytes (and ``inodes`` files) at ``where``, or skip the test
    saying why not."""
    where.mkdir(parents=True, exist_ok=True)
    if shutil.which("mount") is None:
        pytest.skip("no mount command here: a full disk cannot be made for this test")
    options = f"size={size},mode=0755" + ("" if inodes is None else f",nr_inodes={inodes}")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(
            "mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN), so a full "
            f"disk cannot be made: {done.stderr.strip()}"
        )


def unmount(where: Path) -> None:
    """Unmount ``where`` (lazily if a process still holds a file there)."""
    if subprocess.run(["umount", str(where)], capture_output=True, check=False).returncode:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def free_bytes(folder: Path) -> int:
    """The bytes a process may still write on ``folder``'s file system."""
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize


def fill(folder: Path, leave: int = 0) -> None:
    """Write zeros into ``folder``'s file system until not one more byte fits, or until only
    ``leave`` bytes (rounded up to whole blocks) are free."""
    with open(folder / FILLER, "ab", buffering=0) as out:
        if leave:
            out.write(bytes(max(free_bytes(folder) - leave, 0) // 4096 * 4096))
            return
        for block in (1 << 16, 4096, 1):
            try:
                while True:
                    out.write(bytes(block))
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    assert free_bytes(folder) == 0


def use_every_inode(folder: Path) -> None:
    """Make empty files in ``folder`` until its file system can hold no more files."""
    for number in range(1 << 20):
        try:
            (folder / f"{FILLER}-{number}").touch()
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            return


def contents(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` but the filler: its bytes (``None`` for a folder)."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        if not path.name.startswith(FILLER):
            found[str(path.relative_to(folder))] = None if path.is_dir() else path.read_bytes()
    return found


FullDisk = Callable[..., Path]
"""``full_disk(before=None, size=..., leave=0, inodes=None)``: the root of a full file system
(or one with only ``leave`` bytes free; with ``inodes``, one that can hold no more files);
``before(root)`` lays out the files that were there before."""


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[FullDisk]:
    """Make full file systems for a test (each unmounted after it)."""
    mounted: list[Path] = []

    def make(
        before: Callable[[Path], object] | None = None,
        size: int = 256 << 10,
        leave: int = 0,
        inodes: int | None = None,
    ) -> Path:
        root = tmp_path / f"full{len(mounted)}"
        mount_tmpfs(root, size, inodes)
        mounted.append(root)
        if before is not None:
            before(root)
        if inodes is None:
            fill(root, leave)
        else:
            use_every_inode(root)
        return root

    yield make
    for root in mounted:
        unmount(root)
