"""Math Wars Meta's rules in plain words, with the rule book's worked examples
(RULINGS MWM-1..MWM-8)."""

from __future__ import annotations

from tabletop.games.math_wars_meta import EDITIONS
from tabletop.ui.app import Context
from tabletop.ui.scenes.rules import RulesPage, RulesScene


def pages(edition: str = "MWM25") -> list[RulesPage]:
    ed = EDITIONS[edition]
    top = ed.count_numbers[-1]
    return [
        RulesPage(
            "The goal",
            f"Win {ed.victory_cards} VICTORY! cards ({edition}: COUNT META cards 1 to {top}). "
            "You win a VICTORY! card when you win a round: everybody else has run out of "
            "COUNT META cards.",
            "MWM25: 4 VICTORY! cards win the game. MWM100: 5.",
        ),
        RulesPage(
            "A hand",
            "Everybody turns up the top COUNT META card and the top MATH CRATE card at the "
            "same time. Do the math: COUNT META, then the MATH CRATE sign and number. "
            "The highest answer wins the hand.",
            "COUNT META 15 and MATH CRATE +6: 15 + 6 = 21.",
        ),
        RulesPage(
            "Division with a remainder",
            "If the division does not come out even, the MATH CRATE card does not count: "
            "only the COUNT META card does. Answers can be below zero.",
            "7 and \u00f72: 7 \u00f7 2 leaves a remainder, so the answer is 7. "
            "6 and \u22129: 6 \u2212 9 = \u22123.",
        ),
        RulesPage(
            "Losing a hand",
            "Each loser works out HIGHEST SOLUTION minus YOUR SOLUTION. They lose their "
            "battle pile and that many more cards from their draw pile.",
            "Ann: 21 \u2212 5 = 16. Ben: 15 + 6 = 21. Ben wins. Ann loses her battle card "
            "and 21 \u2212 16 = 5 more: 6 cards.",
        ),
        RulesPage(
            "Below zero",
            "A loser below zero loses the cards down to zero and the cards below it too.",
            "Ann: 6 \u2212 9 = \u22123. Ben: 5 + 7 = 12. Ann loses 12 \u2212 (\u22123) = 15 "
            "cards and her battle card: 16 cards.",
        ),
        RulesPage(
            "MATH WAR!",
            "Players tied for the highest answer go to war: 3 COUNT META cards face down, 1 "
            "face up, and a new MATH CRATE card. Tied again: 5 down and 1 up. Short of "
            "cards? Put all but one down and turn that one up.",
            "Ann and Ben both have 20: MATH WAR! Ann turns up 9 and x2 = 18, Ben 12 and +9 "
            "= 21. Ben wins; Ann loses her battle pile (5 cards) and 3 more.",
        ),
        RulesPage(
            "Where lost cards go",
            "Option 1: losers put them on their own spoils pile; they are out of play for "
            "the round. Option 2: they go to the winner's spoils pile, and a player whose "
            "draw pile is empty shuffles their spoils and plays on.",
            "Option 2: Ann loses 6 cards; they go on Ben's spoils pile.",
        ),
        RulesPage(
            "Out, and the next round",
            "A player who has to give more cards than they have gives all and is out of "
            "the round. The last player (or team) left wins the round and a VICTORY! card. "
            "Then everybody shuffles their full decks again.",
            "Ben must lose 9 cards but has 4: he gives 4 and is out.",
        ),
        RulesPage(
            "Team v Team",
            "Duos, Trios or Quads. A team's TEAM SOLUTION is the sum of its players' "
            "answers. The highest TEAM SOLUTION wins; every player of a losing team loses "
            "their battle pile and the difference.",
            "Team 1: 16 + 9 = 25. Team 2: 12 + 20 = 32. Both players of Team 1 lose their "
            "battle card and 32 \u2212 25 = 7 more.",
        ),
        RulesPage(
            "Solo",
            "Turn up both cards, type YOUR SOLUTION. Right: discard the battle card and as "
            "many cards as the answer. Wrong: the device shows the right answer, and only "
            "the battle card goes. A remainder: both cards go, draw again. Empty your deck "
            "to win the round.",
            "12 and \u00f73: you type 4. Right! Discard the battle card and 4 more.",
        ),
        RulesPage(
            "Playing at the device",
            "Lay your cards on your battle pile under the camera, or tap a card on the "
            "screen to type it. Tap your answer box, type YOUR SOLUTION, then press your "
            "seat button. The device shows every right answer and why. The teacher can "
            "undo a step or call a splash behind the PIN.",
            "The camera read 18 but the card says 16? Tap the 18 and type 16.",
        ),
    ]


def rules_scene(ctx: Context, edition: str = "MWM25") -> RulesScene:
    return RulesScene(ctx, "Math Wars Meta: the rules", pages(edition))


__all__ = ["pages", "rules_scene"]
