"""M.E.C.S. in the touchscreen app: setup, the table, card pages, and the demo.

``setup_scene(ctx)`` is what Home pushes; ``run_demo(...)`` plays a whole game with bots
in every seat offscreen (``tabletop demo --game mecs``). See :mod:`.table` for the
game screen and :mod:`.cards` for the card pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tabletop.ui.app import Context, Scene


def setup_scene(ctx: Context) -> Scene:
    from tabletop.ui.games.mecs.setup import MecsSetup

    return MecsSetup(ctx)


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
) -> str:
    from tabletop.ui.games.mecs.demo import run_demo as demo

    return demo(seed=seed, out_dir=out_dir, out=out, size=size)


__all__ = ["run_demo", "setup_scene"]
