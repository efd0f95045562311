"""``python -m solver``: the same command as ``gamesolver`` (see :mod:`solver.cli`)."""

from solver.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
