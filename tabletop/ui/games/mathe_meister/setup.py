"""Mathe-Meister's setup, on the one setup form: one player plays on the screen's sheet,
two to eight on paper sheets (:mod:`.table`; any seat but the first may be a bot); the
modes (MM-10) as :func:`pick_mode` and :func:`pick_solo` allow; :func:`resume_scene`,
a game left unfinished carried on (issue 10).

Touch targets: the form's (``seat.<i>``, ``choice.*``, ``players.-``, ``players.+``),
``mode.<mode>`` for the modes every game may play, ``solo.<mode>`` (and ``solo.none``)
for the solo modes (:func:`mode_target`), ``rules``, ``back``, ``start``.
"""

from __future__ import annotations

from typing import Any

from tabletop.engine.match import Match
from tabletop.games.mathe_meister import MODE_NAMES, MODES, SOLO_MODES, MatheMeister
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mathe_meister.results import solo_results
from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
from tabletop.ui.games.mathe_meister.table import BOT_LEVEL, RULES, TableScene
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, seat_infos
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    Choice,
    FormScene,
    FormSpec,
    FormValues,
    OptionRow,
    Preset,
    Seats,
)

GAME = MatheMeister.name
TABLE_MODES = tuple(m for m in MODES if m not in SOLO_MODES)
OPPOSITE = {"small_to_big": "big_to_small", "big_to_small": "small_to_big"}
SOLO_ONLY = child_message("setup.mm.solo_only")


def pick_mode(values: FormValues, choice: str) -> str:
    """One mode at a table; in solo several, Freestyle alone and never both directions."""
    chosen = [m for m in values.options["mode"].split("+") if m != "freestyle"]
    if len(values.seats) > 1:
        return choice or (chosen[:1] or ["freestyle"])[0]
    if choice == "freestyle":
        return choice
    return toggled(chosen, choice, "freestyle")


def pick_solo(values: FormValues, choice: str) -> str:
    """Black Hole and Fear of Fours, either or both, for one player only."""
    chosen = [m for m in values.options["solo"].split("+") if m != "none"]
    if len(values.seats) > 1 or choice == "none":
        return "none"
    return toggled(chosen, choice, "none")


def toggled(chosen: list[str], choice: str, empty: str) -> str:
    """``chosen`` with ``choice`` taken off, or else put on (and the opposite direction
    off), as the option's value (``empty`` when none is left)."""
    if choice in chosen:
        chosen.remove(choice)
    elif choice:
        chosen = [m for m in chosen if m != OPPOSITE.get(choice)] + [choice]
    return "+".join(chosen) or empty


def solo_off(values: FormValues, choice: str) -> str:
    return SOLO_ONLY if len(values.seats) > 1 and choice != "none" else ""


def chosen_modes(values: FormValues) -> tuple[str, ...]:
    """The modes to play, in the engine's order."""
    parts = set(values.options["mode"].split("+")) | set(values.options["solo"].split("+"))
    modes = tuple(m for m in MODES if m in parts and m != "freestyle")
    return modes or ("freestyle",)


def mode_target(mode: str) -> str:
    """The toggle that chooses ``mode`` on the setup."""
    return f"solo.{mode}" if mode in SOLO_MODES else f"mode.{mode}"


def _start(ctx: Context, values: FormValues) -> Scene:
    modes, seats = chosen_modes(values), list(values.seats)
    if len(seats) == 1:
        return MatheMeisterScene(ctx, seats=seats, modes=modes)
    return TableScene(ctx, seats=seats, modes=modes)


SETUP = FormSpec(
    game=GAME,
    title="Mathe-Meister",
    subtitle="Roll, write, score. One player: on this screen; more: paper sheets.",
    rules=RULES,
    start=_start,
    seats=Seats(
        1,
        8,
        (CHILD,) + (EMPTY,) * 7,
        levels=((BOT_LEVEL, "Hint"),),
        level=BOT_LEVEL,
        bot_seats=tuple(range(1, 8)),
        stepper=True,
        recent=lambda ctx: ctx.highscores.players(GAME, 4),
    ),
    options=(
        OptionRow(
            "mode",
            "Mode",
            # a mode's name on two lines: "Small", "to Big"
            tuple(Choice(m, *MODE_NAMES[m].split(" ", 1)) for m in TABLE_MODES),
            "freestyle",
            pick=pick_mode,
        ),
        OptionRow(
            "solo",
            "One player",
            (Choice("none", "Neither"), *(Choice(m, MODE_NAMES[m]) for m in sorted(SOLO_MODES))),
            "none",
            pick=pick_solo,
            off=solo_off,
        ),
    ),
    modes=tuple((m, Preset(options=((mode_target(m).split(".")[0], m),))) for m in MODE_NAMES),
)


def setup_scene(ctx: Context) -> FormScene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The Mathe-Meister screen again around ``match``. ``save.app["screen"]`` says which:
    ``"solo"``, the digital sheet (``match`` is the child's sheet), or ``"table"``, paper
    sheets at one device (``match`` is only the game's header, see :mod:`.table`)."""
    app = save.app
    screen, dice_mode = app.get("screen", "solo"), app.get("dice_mode")
    if screen == "table":
        if len(save.seats) != match.seats:
            raise LookupError(f"the table has {match.seats} seats but {len(save.seats)} are saved")
        return TableScene(ctx, seats=save.seats, dice_mode=dice_mode, lead=match, save=save)
    if screen != "solo":
        raise LookupError(f"a Mathe-Meister {screen!r} screen cannot be carried on")
    seats = save.seats or seat_infos([str(app.get("player") or "Player 1")])
    if match.state.finished:  # its last move was saved, the end of the game was not
        save.finish(match.result())
        return solo_results(ctx, match, seats[0], str(dice_mode or ctx.prefs.prefs.dice_input))
    return MatheMeisterScene(ctx, seats=seats, dice_mode=dice_mode, match=match, save=save)


__all__ = ["RULES", "SETUP", "chosen_modes", "mode_target", "resume_scene", "setup_scene"]
