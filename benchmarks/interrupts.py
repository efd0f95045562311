"""How fast ``gamesolver`` stops on Ctrl-C, and that it leaves no process behind.

Usage (from the project root, Linux)::

    .venv/bin/python benchmarks/interrupts.py            # each case 5 times
    .venv/bin/python benchmarks/interrupts.py --runs 20

Each run starts the command in its own process group, waits until it is past its imports and
busy (its workers started, for a parallel match), sends SIGINT to the group as a terminal does,
and measures the seconds until the command has exited; it then checks the exit status (130)
and that no process of the group is left. The figures are the median and the range over the
runs. The target (issue 10) is under a second. The machine's load average is printed with them:
on a shared machine absolute times are only indicative.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = (
    "import sys; from zerosum.cli import main; print('ready', flush=True); "
    "sys.exit(main(sys.argv[1:]))"
)
CASES = {
    "parallel match (2 workers)": (
        ["match", "tictactoe", "random", "random", "-n", "300000000", "-j", "2"],
        3,
    ),
    "match, engine agent": (["match", "ayoayo", "engine:30", "random", "-n", "4"], 1),
    "analyse": (["analyse", "ayoayo", "--time", "60"], 1),
    "best (teaching alpha-beta)": (["best", "ayoayo", "-a", "alphabeta", "--depth", "11"], 1),
    "tablebase build (2 workers)": (
        ["tablebase", "build", "ayoayo", "--seeds", "20", "--dir", "{fresh}", "--workers", "2"],
        3,
    ),
}
"""Each case: the arguments (``{fresh}``: a new empty folder per run) and the processes to wait
for before the signal."""


def group_members(group: int) -> list[int]:
    """The live (not zombie) processes of a process group, from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == group and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def one_run(argv: list[str], busy: int) -> tuple[float, int, int]:
    """Seconds from SIGINT to exit, the exit status, and processes left 0.5 s later."""
    with tempfile.TemporaryDirectory() as fresh:
        return _one_run([a.replace("{fresh}", fresh) for a in argv], busy)


def _one_run(argv: list[str], busy: int) -> tuple[float, int, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout is not None
        child.stdout.readline()
        while len(group_members(child.pid)) < busy:
            time.sleep(0.05)
        time.sleep(1.0)
        start = time.perf_counter()
        os.killpg(child.pid, signal.SIGINT)
        child.communicate(timeout=60)
        seconds = time.perf_counter() - start
        time.sleep(0.5)
        return seconds, child.returncode, len(group_members(child.pid))
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default 5)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'case':30} {'median s':>9} {'min s':>7} {'max s':>7}  statuses  left")
    for name, (argv, busy) in CASES.items():
        runs = [one_run(argv, busy) for _ in range(args.runs)]
        seconds = [r[0] for r in runs]
        statuses = sorted({r[1] for r in runs})
        left = max(r[2] for r in runs)
        print(
            f"{name:30} {statistics.median(seconds):9.2f} {min(seconds):7.2f} "
            f"{max(seconds):7.2f}  {statuses!s:8}  {left}"
        )


if __name__ == "__main__":
    main()
