"""The analysis board's targets, measured in headless Chromium against a real server.

Usage (from the project root; needs Playwright and Debian's /usr/bin/chromium)::

    .venv/bin/python benchmarks/board.py                 # 20 moves
    .venv/bin/python benchmarks/board.py --moves 40 --json out/bench/board.json

It starts ``gamesolver board --no-browser`` (two search workers), opens the page with the
sowing animation off, lets the kernel warm up, then clicks ``--moves`` moves of a seeded
random game. For each it measures the milliseconds from the click to the first engine line of
the new position on the page; each move also stops the previous position's search, and the
server's ``/api/status`` says how long each stop took. The page's weight is the sum of every
response the browser received. Targets (issue 15): first line <= 300 ms, stop <= 100 ms,
page <= 300 KB.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import write_json  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def measure(moves: int, seed: int) -> dict[str, Any]:
    """Start the server, play ``moves`` random moves by clicks; the figures."""
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "board", "--no-browser", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        found = re.search(r"(http://\S+?)/\?", server.stdout.readline())
        assert found, "the server printed no address"
        base = found.group(1)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            weights: list[int] = []
            page.on("response", lambda r: weights.append(len(r.body()) if r.ok else 0))
            page.goto(base + "/?game=ayoayo")
            page.wait_for_selector("body[data-ready=yes]")
            page.wait_for_timeout(1000)
            page_bytes = sum(weights)
            page.eval_on_selector("#speed", "e => { e.value = '0'; }")
            page.wait_for_function("document.querySelector('#move-values').dataset.depth")
            page.wait_for_timeout(3000)  # both workers up and warm
            rng = random.Random(seed)
            first_line = []
            for _ in range(moves):
                legal = page.eval_on_selector_all(
                    ".pit.legal", "pits => pits.map(p => p.dataset.cell)"
                )
                if not legal:
                    break
                before = page.get_attribute("#board", "data-position")
                start = time.perf_counter()
                page.click(f".pit.legal[data-cell='{rng.choice(legal)}']")
                page.wait_for_function(
                    "before => { const t = document.querySelector('#move-values');"
                    " return t.dataset.depth && t.dataset.position !== before; }",
                    arg=before,
                    polling="raf",
                )
                first_line.append((time.perf_counter() - start) * 1000)
                page.wait_for_timeout(400)  # let the search run, so the next move stops it
            status = page.evaluate("fetch('/api/status').then(r => r.json())")
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(10)
    stops = status["stop_ms"]
    return {
        "moves": len(first_line),
        "first_line_ms": {"median": statistics.median(first_line), "max": max(first_line)},
        "stop_ms": {"median": statistics.median(stops), "max": max(stops), "count": len(stops)},
        "page_bytes": page_bytes,
        "load_average": os.getloadavg()[0],
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="moves to click (default 20)")
    parser.add_argument("--seed", type=int, default=15, help="the random game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    figures = measure(args.moves, args.seed)
    first, stop = figures["first_line_ms"], figures["stop_ms"]
    print(f"load average {figures['load_average']:.1f} on {figures['cpus']} CPUs")
    print(f"first engine line after a move: median {first['median']:.0f} ms, "
          f"max {first['max']:.0f} ms over {figures['moves']} moves (target 300 ms)")  # fmt: skip
    print(f"search stopped after the position changed: median {stop['median']:.1f} ms, "
          f"max {stop['max']:.1f} ms over {stop['count']} stops (target 100 ms)")  # fmt: skip
    print(f"page: {figures['page_bytes'] / 1024:.1f} KB in all (target 300 KB)")
    if args.json:
        write_json(args.json, figures)


if __name__ == "__main__":
    main()
