"""The app with no one at the screen, for the demos (``tabletop demo``, on SDL's dummy
driver) and the bench."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pygame

from tabletop.store import FILE_NAME, Journal
from tabletop.ui.app import Context, open_window
from tabletop.ui.theme import metrics_for


def offscreen(
    size: tuple[int, int], seed: int, data: Path | None = None, **context: Any
) -> tuple[Context, pygame.Surface]:
    """A window of ``size`` (the caller picks SDL's video driver) and a quiet context for
    it: every draw from ``random.Random(seed)``, the journal in the folder ``data`` (the
    app's file, so a demo can be killed and carry on) or in memory. ``context``: more of
    :class:`Context`'s fields (a camera, a clock, the session)."""
    window = open_window(size)
    ctx = Context(
        metrics=metrics_for(size),
        rng=random.Random(seed),
        journal=Journal(data / FILE_NAME) if data is not None else Journal(":memory:"),
        **context,
    )
    return ctx, window


__all__ = ["offscreen"]
