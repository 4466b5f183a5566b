"""What the screen says when a move is refused: one short sentence a 9-year-old gets.

Engines raise errors with stable codes (``"mm.cell_full"``); this table turns each code
into words for children. The engine's exact English message goes to the log, never to
the screen, and nothing on screen is ever a traceback.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping

log = logging.getLogger(__name__)

CHILD_MESSAGES: dict[str, str] = {
    # Mathe-Meister moves
    "mm.cell_full": "That box already has something in it. Pick an empty box.",
    "mm.cell_kind": "Numbers go in the white boxes and + - x in the grey boxes.",
    "mm.prefilled_operator": "That sign is printed on the sheet. It cannot change.",
    "mm.no_such_cell": "Tap a box on the sheet.",
    "mm.die_used": "You already wrote that die this round.",
    "mm.not_the_die": "Write the number the die shows.",
    "mm.fear_of_fours": "Fear of Fours: no 4s allowed! Use 3 or 5 instead.",
    "mm.fear_of_fours_shop": (
        "Fear of Fours: the Coin Shop cannot make a 4. Only a rolled 4 turns into 3 or 5."
    ),
    "mm.two_operators": "You already wrote two signs this round.",
    "mm.supply_empty": "You have no {op} left. Pick another sign.",
    "mm.not_operator": "Only +, - or x go in the grey boxes.",
    "mm.writes_missing": "First write two numbers and two signs. Then you are done.",
    "mm.no_coins": "You do not have enough coins for that.",
    "mm.coinless": "No coins in this game: the Coin Shop is closed.",
    "mm.die_range": "A die can only show 1 to 6.",
    "mm.shop_delta": "The Coin Shop changes a die by 1, 2 or 3.",
    "mm.swap_early": "Write your two numbers and two signs first, then swap.",
    "mm.swap_complete": "That line is finished. Finished lines cannot change.",
    "mm.swap_same": "Those two are the same, so swapping changes nothing.",
    "mm.swap_empty": "Only boxes with something written in them can swap.",
    "mm.swap_kind": "Swap numbers with numbers, and signs with signs.",
    "mm.star_unfinished": "Fill the whole line first. Then claim its star.",
    "mm.star_owned": "Someone already has that star.",
    "mm.star_claimed": "You already claimed that star.",
    "mm.claim_after_writes": (
        "Stars come after your two numbers and two signs. The device claims them."
    ),
    "mm.choose_power": "Your new star is waiting: pick its Star Power first.",
    "mm.power_gone": "That Star Power is already taken. Pick another one.",
    "mm.power_missing": "Win a star first to use that Star Power.",
    "mm.power_value": "That Star Power writes its own number.",
    "mm.power_kind": "Pick one of the Star Powers.",
    "mm.round_done": "You are done with this round. Wait for the next dice.",
    "mm.roll_first": "Roll the dice first.",
    "mm.already_rolled": "The dice are already rolled for this round.",
    "mm.game_over": "The game is over. Well played!",
    "mm.bad_die": "A die shows 1 to 6.",
    "mm.no_such_die": "Pick one of the two dice.",
    "mm.no_such_line": "Pick a row or a column.",
    "mm.no_such_seat": "That seat is not in this game.",
    # the app
    "engine.nothing_to_undo": "There is nothing to take back.",
    "ui.undo_round": "You can only take back moves from this round.",
    "ui.pick_die": "Tap a die first, then a white box.",
    "ui.pick_operator": "Tap +, - or x first, then a grey box.",
    "ui.pick_power_die": "Which die does the Star Power replace? Tap that die.",
    "ui.coin_cell": "Coins are for the Coin Shop. Tap a white or grey box.",
    "ui.not_ready": "That is not ready yet.",
    "ui.oops": "Oops, something went wrong. Please try again.",
}

FALLBACK = "You can't do that right now. Try something else."


class _Keep(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "that"


def child_message(code: str, facts: Mapping[str, object] | None = None) -> str:
    """The child's sentence for an error ``code``; ``facts`` fill its blanks."""
    template = CHILD_MESSAGES.get(code)
    if template is None:
        log.warning("no child message for error code %r", code)
        return FALLBACK
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    if not names:
        return template
    values = _Keep({k: str(v) for k, v in (facts or {}).items()})
    return template.format_map(values)


__all__ = ["CHILD_MESSAGES", "FALLBACK", "child_message"]
