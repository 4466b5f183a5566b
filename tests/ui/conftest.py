"""UI tests run headless: SDL's dummy video and audio drivers, set before pygame loads."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    """High scores and settings never touch the real data folder."""
    monkeypatch.setenv("TABLETOP_DATA", str(tmp_path / "data"))


@pytest.fixture
def table_words(monkeypatch):
    """``table_words("arena.table.", {"key": "text"})``: those sentence-table entries read
    ``text`` for one test (a test that a line comes from the table, not from code)."""
    from tabletop.ui.messages import CHILD_MESSAGES

    def put(prefix: str, words: dict[str, str]) -> None:
        for key, text in words.items():
            monkeypatch.setitem(CHILD_MESSAGES, prefix + key, text)

    return put
