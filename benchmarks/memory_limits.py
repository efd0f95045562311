"""Each command under an address-space limit (``ulimit -v``): one line or a stated fallback?

Usage (from the project root, Linux)::

    .venv/bin/python benchmarks/memory_limits.py                       # every command and limit
    .venv/bin/python benchmarks/memory_limits.py --limits 250,400 --commands analyse,prove
    .venv/bin/python benchmarks/memory_limits.py --cold --limits 300,400,500   # compiles

Each command runs in a process of its own whose address space is capped with
``RLIMIT_AS`` (what ``ulimit -v`` sets), in a fresh temporary folder, and is classed by how it
ended:

- ``ok``: exit 0 with nothing on stderr;
- ``fallback``: exit 0 with a note on stderr (e.g. the compiled kernel skipped, the pure
  engine answering);
- ``one line``: a non-zero exit with one line ``gamesolver: error: ...`` and no traceback
  (``one line+note``: after the notes of the fallbacks tried first);
- ``TRACEBACK``, ``ABORT`` (killed by a signal: SIGABRT from ``std::bad_alloc``, SIGSEGV),
  ``HANG`` (no end within ``--timeout``), ``NOISE`` (a non-zero exit with other lines, or
  none): the faults this sweep looks for.

The board is started, given time to start its workers, then sent SIGINT as a terminal's
Ctrl-C; it must end within 5 s. ``prove`` reads the user's tablebases (levels to 20, if built)
and ``verify`` checks the certificate a first, unlimited ``prove`` wrote. The sweep prints a
Markdown table (a cell is the class and the seconds) and, with ``--json FILE``, every run's
exit, seconds and last stderr line. It takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROG = [sys.executable, "-m", "zerosum"]
LIMITS = (150, 200, 250, 300, 400, 600, 1000)
PROOF_POSITION = ["-p", "[[1,1,1,1,1,1],[1,1,1,1,1,1]]", "--captured", "20,16"]
"""A position above the tablebase levels to 20 (24 seeds) that the proof search settles."""

COMMANDS: dict[str, list[str]] = {
    "analyse": ["analyse", "ayoayo", "--time", "1"],
    "best": ["best", "ayoayo", "--time", "1"],
    "best connect4": ["best", "connect4", "--time", "1"],
    "solve": ["solve", "tictactoe"],
    "play": ["play", "ayoayo", "--ai", "beginner", "--no-tablebase"],
    "prove": ["prove", "ayoayo", *PROOF_POSITION, "-o", "proof.json", "--force"],
    "verify": ["verify", "{certificate}"],
    "tablebase build": ["tablebase", "build", "ayoayo", "--seeds", "12", "--dir", "tb"],
    "tree": ["tree", "ayoayo", "-d", "2", "-o", "x.png"],
    "board": ["board", "--no-browser", "--port", "0"],
}
STDIN = {"play": "1\n2\n3\nq\n"}
"""What a piped input types."""


NOTES = ("gamesolver: note:", "warning:", "note:")
"""How the lines of a stated fallback begin."""


def _limited(megabytes: int) -> None:
    size = megabytes << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def _classify(code: int | None, err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    if code is None:
        return "HANG"
    if code < 0 or code in (134, 139):
        return "ABORT"
    if "Traceback" in err or "std::bad_alloc" in err or "terminate called" in err:
        return "TRACEBACK"
    if code in (0, 130):
        return "fallback" if lines else "ok"
    errors = [line for line in lines if line.startswith("gamesolver: error:")]
    notes = [line for line in lines if line.startswith(NOTES)]
    if len(errors) == 1 and lines[-1] == errors[0] and len(notes) == len(lines) - 1:
        return "one line" if not notes else "one line+note"
    return "NOISE"


def run(
    name: str, megabytes: int | None, folder: Path, timeout: float, cold: bool = False
) -> dict[str, object]:
    """Run one command under the limit in ``folder``; how it ended. ``cold``: with an empty
    kernels' cache of its own (``NUMBA_CACHE_DIR``), so the command has to compile them."""
    argv = [*PROG, *COMMANDS[name]]
    argv = [arg.format(certificate=folder.parent / "certificate.json") for arg in argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cold:
        env["NUMBA_CACHE_DIR"] = str(folder / "kernels")
    began = time.monotonic()
    with subprocess.Popen(
        argv,
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL if name != "board" else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=None if megabytes is None else lambda: _limited(megabytes),
        start_new_session=True,
    ) as process:
        if name == "board":
            code, err = _board(process, timeout)
        else:
            try:
                _, err = process.communicate(STDIN.get(name, ""), timeout=timeout)
                code = process.returncode
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                _, err = process.communicate()
                code = None
    seconds = time.monotonic() - began
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return {
        "command": name,
        "limit_mb": megabytes,
        "exit": code,
        "seconds": round(seconds, 2),
        "class": _classify(code, err),
        "last_line": last[:300],
        "stderr": err[:3000],
        "stderr_lines": len(err.strip().splitlines()),
    }


def _board(process: subprocess.Popen[str], timeout: float) -> tuple[int | None, str]:
    """Wait for the board to listen (or end), send Ctrl-C, wait at most 5 s for its end."""
    assert process.stdout is not None and process.stdin is not None
    process.stdin.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        line = process.stdout.readline()
        if not line or "http://" in line:
            break
    if process.poll() is None:
        time.sleep(2.0)  # its workers loading
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None, process.stderr.read() if process.stderr else ""
    err = process.stderr.read() if process.stderr else ""
    return process.returncode, err


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default=",".join(map(str, LIMITS)), help="MB, comma-separated")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a run")
    parser.add_argument("--json", type=Path, help="write every run to this file")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="each run with an empty kernels' cache, so it compiles them (a minute or more a "
        "run where the compile fits the limit)",
    )
    args = parser.parse_args(argv)
    limits = [int(text) for text in args.limits.split(",")]
    names = [text.strip() for text in args.commands.split(",")]
    for name in names:
        if name not in COMMANDS:
            parser.error(f"unknown command {name!r}; choose from {', '.join(COMMANDS)}")
    runs = []
    with tempfile.TemporaryDirectory(prefix="memory-limits-") as scratch:
        root = Path(scratch)
        if "verify" in names:  # the certificate verify checks, written without a limit
            first = run("prove", None, _fresh(root, "first"), args.timeout)
            (root / "first" / "proof.json").rename(root / "certificate.json")
            print(f"certificate for verify: {first['class']}", file=sys.stderr)
        for name in names:
            for megabytes in limits:
                folder = _fresh(root, f"{name}-{megabytes}")
                done = run(name, megabytes, folder, args.timeout, args.cold)
                runs.append(done)
                print(
                    f"{name:16} {megabytes:5} MB  {done['class']:9} exit {done['exit']}  "
                    f"{done['seconds']:6.1f} s  {done['last_line'][:150]}",
                    file=sys.stderr,
                    flush=True,
                )
    print(_table(runs, names, limits))
    if args.json is not None:
        args.json.write_text(json.dumps(runs, indent=1) + "\n")
    faults = [r for r in runs if str(r["class"]).isupper()]
    return 1 if faults else 0


def _fresh(root: Path, name: str) -> Path:
    folder = root / name.replace(" ", "-")
    folder.mkdir()
    return folder


def _table(runs: list[dict[str, object]], names: list[str], limits: list[int]) -> str:
    cells = {(r["command"], r["limit_mb"]): r for r in runs}
    lines = [
        "| command | " + " | ".join(f"{m} MB" for m in limits) + " |",
        "|---|" + "---|" * len(limits),
    ]
    for name in names:
        row = [f"{cells[name, m]['class']} {cells[name, m]['seconds']:.0f} s" for m in limits]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
