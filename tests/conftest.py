"""Shared fixtures for the whole suite (Mathe-Meister rulings MM-1..MM-12).

No test needs a display: pygame, if anything imports it, gets the dummy video driver.
Scripted play helpers live in ``tests/mm_play.py``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import pytest

from tabletop.assets import mathe_meister_layout
from tabletop.games.mathe_meister import Layout, MatheMeister, MatheMeisterSettings
from tests.mm_play import play_round

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def layout() -> Layout:
    """The default tracking sheet from ``tabletop/assets/mathe_meister/sheet.toml`` (MM-1, MM-2)."""
    return mathe_meister_layout()


@pytest.fixture
def game() -> MatheMeister:
    return MatheMeister()


@pytest.fixture
def settings(layout: Layout) -> Callable[..., MatheMeisterSettings]:
    """A factory: ``settings("twins", negative_sums="signed")`` (default Freestyle)."""

    def make(*modes: str, **options: Any) -> MatheMeisterSettings:
        return MatheMeisterSettings(layout, tuple(modes) or ("freestyle",), **options)

    return make


@pytest.fixture
def scripted_round(game: MatheMeister) -> Callable[..., Any]:
    """``scripted_round(state, (3, 5), [((0, 0), 3), ((0, 2), 5), ((0, 1), "+"),
    ((0, 5), "x")])``: roll, two WriteOperand, two WriteOperator, EndRound (MM-8); see
    ``tests.mm_play.play_round`` for several seats and ``end=False``."""
    return functools.partial(play_round, game)
