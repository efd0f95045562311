"""What checking a probe's bytes costs: a level's values read with and without their CRC-32,
and its distances' block checks.

Usage (from the project root; ``--dir`` holds levels up to ``--seeds``)::

    .venv/bin/python benchmarks/tablebase_checks.py --dir TABLEBASES --seeds 16

Prints the best of ``--repeat`` times of: reading the level's values into memory unchecked and
checked (what every probe of the level now pays once per process), opening its distances (the
block checksums read from beside the file), reading an entry in a block not yet checked and in
one already checked, and one pass over the whole distances file (what makes the block
checksums, once).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ayoayo.tablebase_files import (
    DISTANCES,
    BlockChecksums,
    LevelEntries,
    level_path,
    read_header,
    read_level,
)


def _best(repeat: int, run: object) -> float:
    assert callable(run)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Measure and print the checks' costs at one level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="the tablebase directory")
    parser.add_argument("--seeds", type=int, default=16, help="the level to measure")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement")
    args = parser.parse_args()
    values = level_path(args.dir, args.seeds)
    distances = level_path(args.dir, args.seeds, DISTANCES)
    size = os.path.getsize(values)
    for verify in (False, True):
        seconds = _best(args.repeat, lambda v=verify: read_level(values, verify=v))
        print(f"values {size / 1e6:.0f} MB read, checked={verify}: {seconds:.3f} s")
    entries = LevelEntries(distances, kind=DISTANCES, seeds=args.seeds)
    rng = random.Random(args.seeds)
    cells = [(rng.randrange(entries.shape[0]), rng.randrange(entries.shape[1])) for _ in range(200)]
    start = time.perf_counter()
    for cell in cells:
        entries[cell]
    fresh = (time.perf_counter() - start) / len(cells)
    start = time.perf_counter()
    for cell in cells:
        entries[cell]
    checked = (time.perf_counter() - start) / len(cells)
    print(
        f"distance entry in a new block: {fresh * 1e3:.3f} ms, in a checked block: "
        f"{checked * 1e3:.4f} ms"
    )
    header = read_header(distances, kind=DISTANCES, seeds=args.seeds)
    fd = os.open(distances, os.O_RDONLY)
    try:
        seconds = _best(
            args.repeat,
            lambda: BlockChecksums.made(Path(distances), fd, header, os.fstat(fd), keep=False),
        )
    finally:
        os.close(fd)
    print(
        f"one pass over the distances ({os.path.getsize(distances) / 1e6:.0f} MB): {seconds:.2f} s"
    )
    opened = _best(
        args.repeat, lambda: LevelEntries(distances, kind=DISTANCES, seeds=args.seeds).close()
    )
    print(f"distances opened with their block checksums: {opened * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
