"""``python -m zerosum``: the same command as ``gamesolver``."""

from zerosum import main

if __name__ == "__main__":
    raise SystemExit(main())
