"""M.E.C.S. setup, on the one setup form (:mod:`tabletop.ui.scenes.form`): who plays
(children, and bots at a level, MECS-12), real or virtual cards, the deck and the mode
(challenge needs the advanced deck), the rules in plain words, and the way to the bubble
game (MECS-8).

Touch targets: the form's (``seat.<i>``, ``choice.*``, ``cards.real``, ``cards.virtual``),
``deck.beginners``, ``deck.advanced``, ``mode.normal``, ``mode.challenge``, ``bubbles``,
``rules``, ``back``, ``start``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.bots.mecs import LEVEL_NAMES, LEVELS
from tabletop.games.mecs import MecsSettings
from tabletop.ui.app import Context, Scene
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
from tabletop.ui.scenes.rules import RulesPage, RulesScene

RULES = (
    RulesPage(
        "Build equations, win coins",
        "Red cards are numbers. Blue cards are + - × ÷ ( ) and =. Green cards (advanced deck) "
        "are the fraction bar, the square root, the decimal point and x². Put cards in your "
        "equation area, read left to right. When they make a true equation, you flip them "
        "over: they become your gold coins.",
        "You have 9, ×, 7, = and 6, 3 down: 9 × 7 = 63 is true, so you flip 6 cards.",
    ),
    RulesPage(
        "Starting",
        "Everyone takes 3 number cards and 2 symbol cards. Then everyone shows one number "
        "card: the biggest number starts, and play goes clockwise.",
        "Ann shows 8, Bo shows 5, Cy shows 2: Ann starts.",
    ),
    RulesPage(
        "Your turn",
        "1. Take one card from the hand of the next player. 2. Put down 1 or 2 cards in your "
        "area. 3. If you put down only 1, you may trade: one card goes under its stack and "
        "you draw a new one. Then everybody fills their hand up to 5 cards.",
        "Bo puts down only a 4, then trades a ( for a new symbol card.",
    ),
    RulesPage(
        "Moving your cards",
        "You may change the order of the cards in your own area at any time. But a card in "
        "your area never goes back into your hand.",
        "Your area reads 3 = 1 + 2. Move the cards: 1 + 2 = 3.",
    ),
    RulesPage(
        "Hacking!",
        "Instead of putting cards in your own area, add 1 or 2 cards to another player's "
        "area, without moving their cards, so that it becomes a true equation at once. You "
        "take all its coins!",
        "Cy's area reads 5 × = 1 5. Ann adds a 3: 5 × 3 = 15. Ann wins 6 coins.",
    ),
    RulesPage(
        "Coins and the winner",
        "Every number card and + - × ÷ = is 1 coin, a bracket ( ) is 2 coins, a green card "
        "is 3 coins. The first player with 15 coins ends the game. Most coins wins.",
        "(2 + 3) × 4 = 2 0 is 5 numbers + 3 signs + 2 brackets × 2 = 12 coins.",
    ),
    RulesPage(
        "Challenge mode",
        "Five yellow objective cards are shown one at a time. A true equation only scores "
        "if its answer meets the objective shown. The game ends when all five are met.",
        "Objective: an odd number bigger than 50. 9 × 7 = 63 scores 6 coins; 9 × 6 = 54 "
        "does not: the cards stay.",
    ),
    RulesPage(
        "The device helps",
        "The camera reads every area left to right (or tap an area to enter the cards). If "
        "it reads a card wrongly, tap the area and fix it. Hold one card up alone, or tap "
        "Cards, to see its page: a tip, its history, a fun fact and its name in 5 languages.",
        "Hold up the = card: it was invented by Robert Recorde in 1557.",
    ),
)


def rules_scene(ctx: Context) -> RulesScene:
    return RulesScene(ctx, "M.E.C.S.: the rules", RULES)


def _start(ctx: Context, values: FormValues) -> Scene:
    from tabletop.ui.games.mecs.table import MecsTable

    options = values.options
    settings = MecsSettings(
        deck=options["deck"],  # type: ignore[arg-type]
        mode=options["mode"],  # type: ignore[arg-type]
        play="virtual" if values.virtual else "camera",
    )
    driver = str(values.extra.get("bot_driver", "scene"))  # the demo drives its bots
    return MecsTable(ctx, seats=values.seats, settings=settings, bot_driver=driver)


def _bubble_game(ctx: Context) -> Scene:
    from tabletop.ui.games.bubbles import setup_scene

    return setup_scene(ctx)


def _challenge_needs_the_advanced_deck(options: Mapping[str, str]) -> str | None:
    return "advanced" if options.get("mode") == "challenge" else None


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
        OptionRow(
            "mode",
            "Mode",
            (Choice("normal", "Race to 15"), Choice("challenge", "Challenge", "objective cards")),
            "normal",
        ),
        OptionRow(
            "deck",
            "Deck",
            (Choice("beginners", "Beginners", "no green cards"), Choice("advanced", "Advanced")),
            "beginners",
            forced=_challenge_needs_the_advanced_deck,
            why="Challenge mode uses the green cards: it needs the advanced deck.",
        ),
    ),
    modes=(
        ("normal", Preset(options=(("mode", "normal"),))),
        ("challenge", Preset(options=(("mode", "challenge"),))),
    ),
    links=(Link("bubbles", "Bubble game", _bubble_game, "practise sums"),),
)


def setup_scene(ctx: Context) -> FormScene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


__all__ = ["RULES", "SETUP", "rules_scene", "setup_scene"]
