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
