"""What the Math Wars Meta screens say when something cannot be done: one short
sentence a 9-year-old understands per error code (the precise message goes to the log).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from tabletop.ui.messages import child_message

log = logging.getLogger(__name__)

SENTENCES: dict[str, str] = {
    # cards from the camera or a touch
    "mwm.ui.foreign_card": (
        "The camera sees a card that is not a Math Wars Meta card. Take it off the battle pile."
    ),
    "mwm.ui.other_game": "That card is from another game. Use your Math Wars Meta cards.",
    "mwm.ui.unreadable": "The camera cannot read a card. Turn it face up, or tap it on the screen.",
    "mwm.ui.not_your_army": (
        "{name}: that card belongs to army {army}. Everybody plays their own cards."
    ),
    "mwm.ui.virtual_seat": "{name} plays virtual cards: the screen shows them.",
    "mwm.ui.knocked_out": "{name} is out of this round. Wait for the next round!",
    "mwm.ui.not_in_edition": "There is no COUNT META {number} in {edition}. Check the card.",
    "mwm.ui.answered": (
        "{name} already answered with these cards. Ask your teacher to undo first."
    ),
    "mwm.ui.too_late": "That hand is over. Ask your teacher to undo.",
    "mwm.ui.no_seat": "The camera sees cards outside the players' places. Put them on a mat.",
    # buttons at the wrong time
    "mwm.ui.cards_first": (
        "{name}: put your COUNT META and MATH CRATE cards on your battle pile first."
    ),
    "mwm.ui.wait_next": "Read what happened, then tap Next.",
    "mwm.ui.wait_others": "{name}: wait, the others are still working.",
    "mwm.ui.bot_seat": "{name} is a bot. It plays by itself.",
    "mwm.ui.type_first": "{name}: type your answer first, then press your button.",
    "mwm.ui.game_over": "The game is over. Well played!",
    "mwm.ui.pin_wrong": "That PIN is not right.",
    # the engine's refusals
    "mwm.not_in_pile": "That card was already played. Check the card.",
    "mwm.solutions_first": "Everybody types an answer before more cards turn up.",
    "mwm.not_solving": "Answers come once all the cards are on the table.",
    "mwm.already_entered": "You already gave your answer for this hand.",
    "mwm.game_over": "The game is over. Well played!",
    "mwm.solo_no_vote": "In Solo there is nobody to give a VICTORY! card to.",
    "engine.nothing_to_undo": "There is nothing to take back.",
}


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "that"


def sentence(code: str, facts: Mapping[str, object] | None = None) -> str:
    """The child's sentence for ``code`` (ours first, then the app's table)."""
    template = SENTENCES.get(code)
    if template is None:
        return child_message(code, facts)
    return template.format_map(_Blank({k: str(v) for k, v in (facts or {}).items()}))


__all__ = ["SENTENCES", "sentence"]
