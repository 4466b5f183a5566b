"""M.E.C.S. setup, on the one setup form (:mod:`tabletop.ui.scenes.form`): who plays
(children, and bots at a level, MECS-12), real or virtual cards, the deck and the mode
(challenge needs the advanced deck), the rules in plain words, and the way to the bubble
game (MECS-8).

Touch targets: the form's (``seat.<i>``, ``choice.*``, ``cards.real``, ``cards.virtual``),
``deck.beginners``, ``deck.advanced``, ``mode.normal``, ``mode.challenge``, ``bubbles``,
``rules``, ``back``, ``start``.
"""

from __future__ import annotations

from tabletop.bots.mecs import LEVEL_NAMES, LEVELS
from tabletop.games.mecs import MecsSettings, mecs_deck, mecs_mode
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import bubbles  # its names load when asked for (MECS-8)
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.form import (
    BOT,
    CHILD,
    EMPTY,
    VIRTUAL,
    Cards,
    Choice,
    FormScene,
    FormSpec,
    FormValues,
    Link,
    OptionRow,
    Preset,
    Seats,
)
from tabletop.ui.scenes.rules import load_rules

RULES = load_rules("mecs")
MODES = (Choice("normal", "Race to 15"), Choice("challenge", "Challenge", "objective cards"))


def _start(ctx: Context, values: FormValues) -> Scene:
    from tabletop.ui.games.mecs.table import MecsTable

    options = values.options
    settings = MecsSettings(
        deck=mecs_deck(options["deck"]),
        mode=mecs_mode(options["mode"]),
        play="virtual" if values.virtual else "camera",
    )
    driver = str(values.extra.get("bot_driver", "scene"))  # the demo drives its bots
    return MecsTable(ctx, seats=values.seats, settings=settings, bot_driver=driver)


SETUP = FormSpec(
    game="mecs",
    title="M.E.C.S.",
    subtitle="Build equations from number and symbol cards, win coins.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        8,
        (CHILD, BOT) + (EMPTY,) * 6,
        levels=tuple((level, LEVEL_NAMES[level]) for level in LEVELS),
        level="easy",  # as Math Attack! and Math Arena start (MECS-12)
        shared_level=True,
    ),
    cards=Cards(default=VIRTUAL),
    options=(
        OptionRow("mode", "Mode", MODES, "normal"),
        OptionRow(
            "deck",
            "Deck",
            (Choice("beginners", "Beginners", "no green cards"), Choice("advanced", "Advanced")),
            "beginners",
            forced=lambda options: "advanced" if options.get("mode") == "challenge" else None,
            why=child_message("setup.mecs.deck"),
        ),
    ),
    modes=tuple((c.value, Preset(options=(("mode", c.value),))) for c in MODES),
    links=(Link("bubbles", "Bubble game", lambda ctx: bubbles.setup_scene(ctx), "practise sums"),),
)


def setup_scene(ctx: Context) -> FormScene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


__all__ = ["RULES", "SETUP", "setup_scene"]
