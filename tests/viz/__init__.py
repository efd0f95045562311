"""Tests of the game-tree diagrams (viz)."""
