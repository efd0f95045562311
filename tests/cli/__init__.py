"""Tests of the ``gamesolver`` command line."""
