"""M.E.C.S. in the touchscreen app: setup, the table, card pages, and the demo.

``setup_scene(ctx)`` is what Home pushes; ``resume_scene(ctx, save, match)`` is the
table again around a game carried on from the journal; ``run_demo(...)`` plays a whole
game with bots in every seat offscreen (``tabletop demo --game mecs``). See
:mod:`.play` for the game's controller, :mod:`.table` for its screen, :mod:`.editor`
for an area by touch and :mod:`.cards` for the card pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from tabletop.engine.match import Match
    from tabletop.ui.app import Context, Scene
    from tabletop.ui.saves import GameSave


def setup_scene(ctx: Context) -> Scene:
    from tabletop.ui.games.mecs.setup import setup_scene

    return setup_scene(ctx)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The M.E.C.S. table again around a match replayed from the journal: the seats and
    the seed are in ``save``, the settings in the match."""
    from tabletop.ui.games.mecs.table import MecsTable

    app = save.app
    # the journal's seats; where their rows were not written, the table's own record of
    # the names and the bots with their levels (MECS-12; none before the levels)
    seats = save.seats if len(save.seats) == len(app["seats"]) else app["seats"]
    table = MecsTable(
        ctx,
        seats=seats,
        settings=match.settings,
        seed=int(app["seed"]),
        bot_driver=str(app.get("bot_driver", "scene")),
        match=match,
        save=save,
    )
    table.play.carry_on(app.get("table"))  # what is not in the match (none before issue 21)
    return table


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    data: Path | None = None,
    child: bool = False,
) -> str:
    from tabletop.ui.games.mecs.demo import run_demo as demo

    return demo(seed=seed, out_dir=out_dir, out=out, size=size, data=data, child=child)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
