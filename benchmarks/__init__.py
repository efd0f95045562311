"""Side-by-side timings of gamesolver against the peer libraries users would pick.

Run ``python benchmarks/run.py`` (or ``python -m benchmarks.run``); see docs/benchmarks.md.
Timings are taken in-process with :func:`time.perf_counter` after a warm-up and reported as
medians; they are not unit tests. The peers (OpenSpiel, easyAI, aima3) are optional: a peer
that is not installed is reported as skipped.
"""
