"""A fake entry-point table, to show the registry finding third-party games without installing."""

from __future__ import annotations

from importlib import metadata

import pytest

from games import ENTRY_POINT_GROUP


def install_entry_points(monkeypatch: pytest.MonkeyPatch, games: dict[str, str]) -> None:
    """Make ``importlib.metadata.entry_points`` report ``games`` (name -> "module:attr")."""
    fake = [metadata.EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in games.items()]
    real = metadata.entry_points

    def entry_points(**params: str) -> object:
        if params.get("group") == ENTRY_POINT_GROUP:
            return metadata.EntryPoints(fake)
        return real(**params)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
