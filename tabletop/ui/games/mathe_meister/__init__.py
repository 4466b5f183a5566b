"""Mathe-Meister in the touchscreen app: setup, the solo sheet, the paper table, the demo.

``setup_scene(ctx)`` is what Home pushes (the one setup form, :mod:`.setup`);
``run_demo(...)`` plays a whole solo game offscreen (``tabletop demo``, :mod:`.demo`);
``resume_scene(ctx, save, match)`` carries on a game left unfinished (issue 10: never
lose a game). Home offers the newest unfinished game with the game's save and its match
replayed from the journal. ``save.app["screen"]`` says which screen it was:

- ``"solo"``: the digital sheet, the match is the child's sheet;
- ``"table"``: paper sheets at one device. The match is only the game's header; the
  table (round, dice, Bonus Stars, presses waiting) is in ``save.app["table"]``, and each
  bot seat's sheet is a row of its own (label :data:`.table.SHEET_LABEL`,
  ``app["table"]`` = the table's id), replayed here and carried on together.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.ui.games.mathe_meister.demo import run_demo

if TYPE_CHECKING:
    from tabletop.ui.app import Context, Scene
    from tabletop.ui.saves import GameSave

log = logging.getLogger(__name__)


def setup_scene(ctx: Context) -> Scene:
    from tabletop.ui.games.mathe_meister.setup import setup_scene

    return setup_scene(ctx)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The Mathe-Meister screen again around ``match`` (see the module docstring)."""
    app = save.app
    screen = app.get("screen", "solo")
    if screen == "table":
        return _table(ctx, save, match)
    if screen != "solo":
        raise LookupError(f"a Mathe-Meister {screen!r} screen cannot be carried on")
    from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene

    player = str(app.get("player") or (save.names[0] if save.names else "Player 1"))
    if match.state.finished:  # its last move was saved, the end of the game was not
        from tabletop.ui.games.mathe_meister.results import solo_results

        save.finish(match.result())
        dice_mode = str(app.get("dice_mode") or ctx.prefs.prefs.dice_input)
        return solo_results(ctx, match, player, dice_mode)
    return MatheMeisterScene(
        ctx,
        player=player,
        dice_mode=app.get("dice_mode"),
        seed=int(app["seed"]) if "seed" in app else None,
        seats=save.seats or None,
        match=match,
        save=save,
    )


def _table(ctx: Context, save: GameSave, lead: Match[Any, Any, Any]) -> Scene:
    from tabletop.games import GAMES
    from tabletop.ui.games.mathe_meister.table import SHEET_LABEL, TableScene
    from tabletop.ui.saves import GameSave

    sheets: dict[int, tuple[GameSave, Match[Any, Any, Any]]] = {}
    for saved in ctx.journal.unfinished(SHEET_LABEL):
        mine = saved.meta.get("app") or {}
        if mine.get("table") != save.id:
            continue
        seat = int(mine.get("seat", -1))
        if seat in sheets:  # an older row for the same seat: the newest one is kept
            continue
        try:
            sheets[seat] = (GameSave.resumed(ctx, saved), ctx.journal.load(saved.id, GAMES))
        except TabletopError as exc:  # the table rebuilds that bot's sheet from its dice
            log.warning("resume: the sheet of seat %d does not replay: %s", seat + 1, exc)
    if len(save.seats) != lead.seats:
        raise LookupError(f"the table has {lead.seats} seats but {len(save.seats)} are saved")
    return TableScene(
        ctx,
        seats=save.seats,
        dice_mode=save.app.get("dice_mode"),
        seed=int(save.app["seed"]) if "seed" in save.app else None,
        lead=lead,
        save=save,
        sheets=sheets,
    )


__all__ = ["resume_scene", "run_demo", "setup_scene"]
