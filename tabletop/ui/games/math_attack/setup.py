"""Math Attack!'s rules in plain words (RULINGS ATK-1..ATK-6) and its setup on the one
setup form: ``seat.0`` ``seat.1`` (seat 2: a child or a bot, ``choice.bot.<L>``),
``cards.real`` ``cards.virtual``, ``first.0`` ``first.1``, ``rules`` ``back`` ``start``."""

from __future__ import annotations

from typing import Any

from tabletop.bots.math_attack import LEVEL_NAMES, LEVELS
from tabletop.engine.match import Match
from tabletop.ui.app import Context, Scene
from tabletop.ui.saves import GameSave
from tabletop.ui.scenes import form
from tabletop.ui.scenes.rules import load_rules

GAME_ID = "math-attack"
BOT_LEVELS = tuple(level for level in LEVELS if level != "random")

RULES = load_rules("math_attack")


# -- setup -------------------------------------------------------------------------------------


def _start(ctx: Context, values: form.FormValues) -> Scene:
    from tabletop.ui.games.math_attack.table import AttackScene

    names, first = values.names, int(values.options["first"])
    bot, seats = values.bots.get(1), list(values.seats)
    return AttackScene(ctx, names=(names[0], names[1]), bot=bot, first=first, seats=seats)


CHILDREN, WITH_BOT = (form.CHILD, form.CHILD), (form.CHILD, form.BOT)
SETUP = form.FormSpec(
    game=GAME_ID,
    title="Math Attack!",
    subtitle="Two number lines: add to yours, attack theirs.",
    rules=RULES,
    start=_start,
    seats=form.Seats(
        2,
        2,
        CHILDREN,
        levels=tuple((level, LEVEL_NAMES[level]) for level in BOT_LEVELS),
        level="easy",
        bot_seats=(1,),
        bot_name="Bot ({level})",
    ),
    cards=form.Cards(
        with_bot=form.VIRTUAL,
        without_bot=form.REAL,
        why_with_bot="A bot plays with cards on the screen.",
        why_without_bot="Virtual cards are for playing a bot: tap seat 2.",
        real_caption="on the table",
        virtual_caption="on the screen",
    ),
    options=(
        form.OptionRow(
            "first", "Who starts", (form.Choice("0", "{0}"), form.Choice("1", "{1}")), "0"
        ),
    ),
    modes=(("table", form.Preset(seats=CHILDREN)), ("bot", form.Preset(seats=WITH_BOT))),
)


def setup_scene(ctx: Context) -> Scene:
    """The first screen of Math Attack! (Home pushes it): the one setup form."""
    return form.FormScene(ctx, SETUP)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal: the names, the bot, who
    started and the seed from ``save.app`` (the keys every version wrote)."""
    from tabletop.ui.games.math_attack.table import AttackScene

    app = save.app
    names = save.names if len(save.names) == 2 else app["names"]
    return AttackScene(
        ctx,
        names=(str(names[0]), str(names[1])),
        bot=app.get("bot"),
        first=int(app.get("first", 0)),
        seed=int(app["seed"]),
        match=match,
        save=save,
    )


__all__ = ["BOT_LEVELS", "RULES", "SETUP", "resume_scene", "setup_scene"]
