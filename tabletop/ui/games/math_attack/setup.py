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
from tabletop.ui.scenes.rules import RulesPage

GAME_ID = "math-attack"
BOT_LEVELS = tuple(level for level in LEVELS if level != "random")

RULES = (
    RulesPage(
        "The goal",
        "Each player has a number line of cards. It starts at 0. Add to your own line and "
        "take away from your partner's line. The highest total at the end wins.",
        "Ana's line: +5 then +3 makes 8. Ben's line: +6 then \u22122 makes 4. Ana is ahead.",
    ),
    RulesPage(
        "Your turn",
        "Play exactly one card, on your line or on your partner's line. Then take one card "
        "from the stack, so you have 5 again. When the stack is empty, just keep playing.",
        "Ana has 5 cards. She puts \u22124 on Ben's line, so his 4 becomes 0. "
        "Then she draws a card.",
    ),
    RulesPage(
        "Black and red cards",
        "Black cards go up, red cards go down. The n cards use the size of the total "
        "(no sign): n\u00f72 is half of it (rounded down), n is all of it, n\u00d72 is double.",
        "Total 7, play +|n\u00f72|: add 3, so 10. Total \u221212, play +|n\u00d72|: "
        "add 24, so 12. Total 11, play \u2212|n|: take away 11, so 0.",
    ),
    RulesPage(
        "Green cards",
        "+/\u2212 flips the sign of the total. Cancel (\u21b5) makes the card before it not "
        "count; it only goes on a black or red card. Block (\u2205): nobody may play on that "
        "line next turn.",
        "+/\u2212 on 8 makes \u22128, and on \u221214 makes 14. A line ending +7 with total "
        "10: cancel it and the total is 3.",
    ),
    RulesPage(
        "The end",
        "Playing = starts the end: the other player gets one more turn, then the game is "
        "over. Highest total wins; equal totals are a draw. No card you can play? Show "
        "your hand and pass.",
        "Ana is ahead 15 to 9 and plays =. Ben has one last turn: he plays \u2212|n\u00f72| "
        "on Ana's line, 15 becomes 8. Ben wins 9 to 8!",
    ),
    RulesPage(
        "The device",
        "The camera watches both number lines and sees each new card. No camera? Tap a "
        "number line and pick the card. If the camera reads a card wrong, tap that card "
        "and pick the right one. Wrong card? Tap Undo before the next player plays; after that a "
        "teacher takes a move back with the PIN.",
        "Ben puts +6 on his line. The screen shows +6 and his new total at once.",
    ),
)


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
