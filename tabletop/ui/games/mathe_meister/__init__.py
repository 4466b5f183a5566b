"""Mathe-Meister in the touchscreen app: the setup Home pushes, a game left unfinished
carried on (issue 10), the demo (``tabletop demo``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.engine.match import Match
from tabletop.ui.games.mathe_meister.demo import run_demo

if TYPE_CHECKING:
    from tabletop.ui.app import Context, Scene
    from tabletop.ui.saves import GameSave


def setup_scene(ctx: Context) -> Scene:
    from tabletop.ui.games.mathe_meister.setup import setup_scene

    return setup_scene(ctx)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The Mathe-Meister screen again around ``match``. ``save.app["screen"]`` says which:
    ``"solo"``, the digital sheet (``match`` is the child's sheet), or ``"table"``, paper
    sheets at one device (``match`` is only the game's header, see :mod:`.table`)."""
    app = save.app
    screen, dice_mode = app.get("screen", "solo"), app.get("dice_mode")
    if screen == "table":
        from tabletop.ui.games.mathe_meister.table import TableScene

        if len(save.seats) != match.seats:
            raise LookupError(f"the table has {match.seats} seats but {len(save.seats)} are saved")
        return TableScene(ctx, seats=save.seats, dice_mode=dice_mode, lead=match, save=save)
    if screen != "solo":
        raise LookupError(f"a Mathe-Meister {screen!r} screen cannot be carried on")
    from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
    from tabletop.ui.saves import seat_infos

    seats = save.seats or seat_infos([str(app.get("player") or "Player 1")])
    if match.state.finished:  # its last move was saved, the end of the game was not
        from tabletop.ui.games.mathe_meister.results import solo_results

        save.finish(match.result())
        return solo_results(ctx, match, seats[0].name, str(dice_mode or ctx.prefs.prefs.dice_input))
    return MatheMeisterScene(ctx, seats=seats, dice_mode=dice_mode, match=match, save=save)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
