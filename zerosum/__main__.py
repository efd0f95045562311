"""``python -m zerosum``: the same command as ``gamesolver``."""

from zerosum import command

if __name__ == "__main__":
    command()
