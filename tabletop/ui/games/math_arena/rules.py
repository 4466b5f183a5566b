"""Math Arena's rules pages and its setup (the one setup form: seats, children or bots
at one level, real or virtual cards)."""

from __future__ import annotations

from tabletop.games.math_arena import MathArena
from tabletop.ui.app import Context, Scene
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    REAL,
    VIRTUAL,
    Cards,
    FormScene,
    FormSpec,
    FormValues,
    Preset,
    Seats,
)
from tabletop.ui.scenes.rules import RulesPage, RulesScene

GAME = MathArena()

RULES = (
    RulesPage(
        "The goal",
        "Win the most operator cards. The 12 Kings, Queens and Jacks are the operators. "
        "The Ace to 10 cards are numbers: an Ace is 1.",
        "With 3 players everyone gets 13 number cards. There are 12 rounds, one operator "
        "card each. Win 5 of them and you are likely the winner.",
    ),
    RulesPage(
        "King, Queen, Jack",
        "King: add your two cards. Queen: divide the bigger card by the smaller one; the "
        "remainder counts. Jack: the bigger card minus the smaller one.",
        "You play 5 and 2. King: 5 + 2 = 7. Queen: 2 into 5 leaves 1. Jack: 5 - 2 = 3.",
    ),
    RulesPage(
        "Red or black?",
        "A red operator (hearts, diamonds) wants the LOWEST value. A black operator "
        "(spades, clubs) wants the HIGHEST value. The colour of your number cards does "
        "not matter.",
        "A red King: the lowest sum wins, so Ace + 2 = 3 beats 4 + 6 = 10. A black Jack: "
        "the biggest difference wins, so 10 - Ace = 9 is great.",
    ),
    RulesPage(
        "A round",
        "The device shows the operator card. Pick two cards and put them face down. Press "
        "your seat button: your light goes on. When everybody is ready the device counts "
        "3, 2, 1 and says Reveal! Turn your cards up: the camera reads them.",
        "Red King. Ana plays 7 and Ace: 8. Ben plays 9 and 10: 19. Cleo plays 3 and 4: 7. "
        "The lowest sum wins: Cleo takes the red King.",
    ),
    RulesPage(
        "Ties and the pot",
        "If the best values tie, nobody takes the operator card. It goes into the pot, and "
        "the next round's winner takes the pot too. In the last round of a set, the tied "
        "players show their leftover card; the best one takes the pot. If that ties too, "
        "the pot leaves the game.",
        "Black Queen: Ana 2 into 7 leaves 1, Ben 3 into 10 leaves 1. A tie! The black Queen "
        "goes into the pot. Next round Cleo wins and takes 2 cards.",
    ),
    RulesPage(
        "Sets and winning",
        "2 or 3 players: 2 sets of 6 rounds, 13 cards each. 4 players: 9 cards, 3 sets of 4 "
        "rounds. 5 players: 8 cards, 3 sets of 4. After each set all number cards are "
        "shuffled and dealt again. The most operator cards wins.",
        "Tournament: first place scores 2 points, second place 1 point. Players who share "
        "a place all score it. Play until someone has 10 points.",
    ),
)


def rules_scene(ctx: Context) -> RulesScene:
    return RulesScene(ctx, "Math Arena: the rules", RULES)


def _start(ctx: Context, values: FormValues) -> Scene:
    from tabletop.ui.games.math_arena.table import ArenaScene

    cards = "virtual" if values.virtual else "table"
    seed = ctx.rng.randrange(1 << 30)
    return ArenaScene(ctx, seats=values.seats, cards=cards, level=values.level, seed=seed)


SETUP = FormSpec(
    game=GAME.name,
    title="Math Arena",
    subtitle="Win the Kings, Queens and Jacks with two number cards.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        5,
        (CHILD, CHILD, CHILD, EMPTY, EMPTY),
        levels=(("easy", "Easy"), ("hard", "Hard")),
        level="easy",
        shared_level=True,
    ),
    cards=Cards(),
    modes=(("cards", Preset(cards=REAL)), ("virtual", Preset(cards=VIRTUAL))),
    replace=True,
)


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


__all__ = ["RULES", "SETUP", "rules_scene", "setup_scene"]
