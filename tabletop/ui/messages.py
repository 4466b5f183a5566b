"""The one sentence table: what the screen (and the speaker) says when a move is refused,
one short sentence a 9-year-old gets, for every game.

Engines raise errors with stable codes (``"mm.cell_full"``, ``"atk.blocked"``); the app's
own refusals have codes too (``"arena.ui.face_down"``). This table turns each code into
words for children; ``facts`` fill its blanks (``{owner}``). The engine's exact English
message goes to the log, never to the screen, and nothing on screen is ever a traceback.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping, Sequence

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
    "mm.ui.choose_star": "{name}, tap the star of your line. Pressed by mistake? Tap Cancel.",
    "mm.ui.press_taken_back": "{name}: your press is taken back.",
    "engine.impossible_outcome": "That card is already used. Check the card.",
    # ---- Math Wars Meta ------------------------------------------------------
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
    "mwm.ui.is_ready": "{name} is ready (to change it, tap your answer box).",
    "mwm.ui.game_over": "The game is over. Well played!",
    "mwm.ui.pin_wrong": "That PIN is not right.",
    # the engine's refusals
    "mwm.not_in_pile": "That card was already played. Check the card.",
    "mwm.solutions_first": "Everybody types an answer before more cards turn up.",
    "mwm.not_solving": "Answers come once all the cards are on the table.",
    "mwm.already_entered": "You already gave your answer for this hand.",
    "mwm.game_over": "The game is over. Well played!",
    "mwm.solo_no_vote": "In Solo there is nobody to give a VICTORY! card to.",
    # ---- Math Attack! --------------------------------------------------------
    # the engine's refusals (the reason is in the sentence)
    "atk.blocked": "{owner}'s number line is blocked this turn (\u2205). "
    "Put your card on {other}'s line.",
    "atk.cancel_on_green": "Cancel only goes on a + or \u2212 card, and the last card on "
    "{owner}'s line is {last}, a green card.",
    "atk.cancel_on_empty": "Cancel needs a + or \u2212 card to cancel, and {owner}'s line "
    "is empty.",
    "atk.not_in_hand": "{card} is not in your hand.",
    "atk.card_gone": "That cannot be {card}: every {card} card is already on the number lines.",
    "atk.not_your_turn": "Wait! It is {turn}'s turn.",
    "atk.game_over": "The game is over. No more cards!",
    "atk.must_play": "You can still play a card ({hint}), so you cannot pass.",
    "atk.empty_hand": "{turn} has no cards left to play.",
    "atk.wait_for_card": "Wait: a card is being dealt.",
    "atk.unknown_card": "That is not a Math Attack! card.",
    "atk.show_hand": "To pass, show every card in your hand.",
    # the app
    "atk.ui.unreadable": "The camera cannot read the new card on {owner}'s line. "
    "Tap it and pick the right card.",
    "atk.ui.not_ours": "{owner}'s new card is not a Math Attack! card. "
    "Take it away, or tap it and pick the right card.",
    "atk.ui.two_cards": "Only one card per turn! I see {count} new cards on {owner}'s line. "
    "Take {extra} back.",
    "atk.ui.moved": "A card on {owner}'s line has changed: card {place} should be {card}. "
    "Please put the line back in order.",
    "atk.ui.taken": "A card is missing from {owner}'s line: card {place} should be {card}. "
    "Please put it back.",
    "atk.ui.take_back": "That move was taken back: take {card} off {owner}'s line.",
    "atk.ui.can_take_back": "Wrong card, {owner}? Tap Undo to take it back.",
    "atk.ui.bot_turn": "Wait: it is the bot's turn.",
    "atk.ui.bot_seat": "That is the bot's seat. The bot plays by itself.",
    "atk.ui.pick_card": "First tap one of your cards, then tap a number line.",
    "atk.ui.virtual": "In this game the cards are on the screen: tap your card, then a line.",
    "atk.ui.no_pass": "You can still play a card: {hint}. So you cannot pass.",
    "atk.ui.over": "The game is over.",
    # ---- M.E.C.S. ------------------------------------------------------------
    "mecs.plant_first": "Put down at least 1 card first, or hack someone.",
    "mecs.plant_none": "Put down 1 or 2 cards from your hand.",
    "mecs.plant_two": "You can put down at most 2 cards in one turn.",
    "mecs.trade_needs_one": "You can only trade after putting down exactly 1 card.",
    "mecs.trade_under": "Say which stack the card went under.",
    "mecs.not_your_turn": "It is {who}'s turn. Wait for your turn.",
    "mecs.take_back": "Cards in an equation area stay there. You can't take one back.",
    "mecs.hack_invalid": "A hack must finish the equation right away.",
    "mecs.hack_objective": "That hack does not meet the objective card.",
    "mecs.hack_moves": "When you hack, don't move the cards that are already there.",
    "mecs.hack_two": "A hack adds 1 or 2 cards, no more.",
    "mecs.hack_after_plant": "You already put down a card: hack instead of that, not after.",
    "mecs.hack_own": "That is your own area: just put your cards down there.",
    "mecs.not_in_hand": "That card is not in your hand.",
    "mecs.turn_over": "Your turn is over. Wait for your next turn.",
    "mecs.take_first": "Wait a moment: a card is being taken from a hand.",
    "mecs.wait": "Wait a moment: a card is being drawn.",
    "mecs.hand_full": "You already have 5 cards.",
    "mecs.stack_empty": "That stack is empty. Take from the other one.",
    "mecs.objective_card": "Objective cards never go in an equation area.",
    "mecs.unknown_card": "One card cannot be read. Turn it so its code shows.",
    "mecs.game_over": "The game is over. Well played!",
    "mecs.reorder_adds": "Put new cards down on your own turn.",
    "mecs.setup": "Wait: the cards are still being dealt.",
    "mecs.no_such_seat": "That seat is not in this game.",
    "mecs.no_such_stack": "Pick the number stack or the symbol stack.",
    "mecs.ui.not_ours": "That card is not from this game. Please take it away.",
    "mecs.ui.wrong_phase": "Not now: {what}",
    "mecs.ui.who_starts": "Not yet: first we see who starts. {who}, show one number card.",
    "mecs.ui.replay_failed": "That fix does not fit the game any more. Ask your teacher.",
    # ---- Math Arena ----------------------------------------------------------
    "arena.not_in_hand": "That card is not in your hand.",
    "arena.card_gone": "That card was already played in this set. Check the card.",
    "arena.card_taken": "Another player put down that card. Check the cards.",
    "arena.same_card": "That is the same card twice. Check the cards.",
    "arena.court_as_number": "Kings, Queens and Jacks are operators. Play number cards.",
    "arena.unknown_card": "That is not a Math Arena card.",
    "arena.two_cards": "Put exactly two cards down.",
    "arena.no_cards": "There are no cards left for that.",
    "arena.not_now": "Not now. Wait for the next step.",
    "arena.already_chosen": "Those cards are already down.",
    "arena.not_tied": "Only the tied players show a leftover card.",
    "arena.already_shown": "That leftover card is already shown.",
    "arena.game_over": "The game is over. Well played!",
    "arena.ui.operator_used": "That operator card is already used. Check the card.",
    "arena.ui.not_ours": "That is not a Math Arena card. Use the cards of this game.",
    "arena.ui.number_operator": "That is a number card. The operator is a King, Queen or Jack.",
    "arena.ui.face_down": "Keep your cards face down until the device says Reveal!",
    "arena.ui.pair_count": "Put exactly two cards face up, no more, no less.",
    "arena.ui.leftover_count": "Show just one card: your leftover card.",
    "arena.ui.operator_out": "The operator card for this round is already out.",
    "arena.ui.wait_operator": "Wait! First turn over the operator card.",
    "arena.ui.already_ready": "You are ready. Wait for the others.",
    "arena.ui.countdown": "Get ready: the cards go up in a moment!",
    "arena.ui.cards_up": "The cards are up! Check them, then tap Who wins?",
    "arena.ui.round_over": "This round is over. Tap Next round.",
    "arena.ui.no_such_seat": "That seat is not in this game.",
    "arena.ui.missing_pair": "Some cards are missing. Tap an empty card to enter it.",
    "arena.ui.not_tied": "Only the tied players show a leftover card now.",
    "arena.ui.press_first": "Everybody presses their button first.",
    "arena.ui.value_when": "Say your value when your cards are up.",
    "arena.ui.value_bot": "The device works out a bot's value.",
    "arena.ui.value_said": "Your value is in. Tap Who wins?",
    "arena.ui.ready_change": "You are ready. To change your cards, tap Change.",
    "arena.ui.changed": (
        "Not ready now. Change your cards, then tap I'm ready! or press your button."
    ),
    "arena.ui.change_none": "You are not ready yet, so there is nothing to change.",
    "arena.ui.change_late": "The cards are up now. Ask your teacher to undo.",
    # ---- the bubble game -----------------------------------------------------
    "bubbles.pick_operator": "Blue bubbles stay put. Move a red number bubble.",
    "bubbles.pick_pair": "This pair is waiting. Pick a free red bubble, then tap the pair.",
    "bubbles.not_a_pair": "Drop it on a pair: a red bubble with a blue one stuck to it.",
    "bubbles.divide_by_zero": "You can't share by 0. Try another number.",
    "bubbles.nothing_held": "Pick a free red bubble first.",
    "bubbles.time_up": "Time is up!",
    "bubbles.gone": "That bubble is gone. Pick another one.",
    "bubbles.buttons_resting": "No buttons in this game: move the bubbles with your finger.",
    "bubbles.no_cards": "The bubble game is played on the screen. No cards needed.",
    "bubbles.not_our_card": "The camera sees a card that is not from our games.",
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


def names_joined(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``: names in a sentence."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["CHILD_MESSAGES", "FALLBACK", "child_message", "names_joined"]
