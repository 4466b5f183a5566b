"""Math Wars Meta in the touchscreen app (RULINGS MWM-1..MWM-9).

``setup_scene(ctx)`` is the first screen (edition, mode, players, bots, discard option,
rules); ``run_demo(...)`` plays a whole game offscreen with bots in every seat, their
cards "seen" by a simulated camera. The modules: ``play`` (the device's side of the
table, no pygame), ``table`` (the Score Cards and rulings on screen), ``setup``,
``results``, ``rules``, ``words`` (sentences for children), ``demo``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from tabletop.ui.app import Context, Scene


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen, pushed by Home."""
    from tabletop.ui.games.math_wars_meta.setup import SetupScene

    return SetupScene(ctx)


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
) -> str:
    """A whole game with bots in every seat, offscreen; returns the ``winner:`` line."""
    from tabletop.ui.games.math_wars_meta.demo import run_demo as run

    return run(seed=seed, out_dir=out_dir, out=out, size=size)


__all__ = ["run_demo", "setup_scene"]
