"""Helpers shared by the M.E.C.S. tests (no tests here): tables set up card by card with
every card still accounted for, and an independent count of the cards on the table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tabletop.games.mecs import Mecs, MecsSettings, MecsState, Player, Stack, stack_of

GAME = Mecs()

# MECS-1, restated independently of the engine's data.
DIGIT_CARDS = {str(d): 10 for d in range(10)}
BLUE_CARDS = {"+": 10, "-": 10, "X": 10, "DIV": 10, "LP": 10, "RP": 10, "EQ": 20}
GREEN_CARDS = {"FRAC": 5, "SQRT": 5, "DOT": 5, "SQ": 5}


def cards(text: str) -> tuple[str, ...]:
    """``cards("9 X 7 EQ 6 3")`` -> ``("9", "X", "7", "EQ", "6", "3")``."""
    return tuple(text.split())


def table(
    hands: Sequence[str],
    areas: Sequence[str] | None = None,
    *,
    active: int = 0,
    phase: str = "plant",
    planted: int = 0,
    coins: Sequence[str] | None = None,
    objective: int | None = None,
    settings: MecsSettings | None = None,
    **changes: Any,
) -> MecsState:
    """A virtual-play table in the middle of a game: hands, areas and coin piles as card
    texts per seat; every card named is taken out of its stack, so cards stay conserved."""
    s = settings or MecsSettings()
    seats = len(hands)
    state = GAME.new_game(s, seats)
    stacks = {"numbers": list(state.numbers.cards), "symbols": list(state.symbols.cards)}
    players = []
    for seat in range(seats):
        hand = cards(hands[seat])
        area = cards(areas[seat]) if areas else ()
        pile = cards(coins[seat]) if coins else ()
        for card in (*hand, *area, *pile):
            stacks[stack_of(card)].remove(card)
        players.append(Player(hand=tuple(sorted(hand)), area=area, coin_cards=pile, turns=1))
    return replace(
        state,
        players=tuple(players),
        numbers=Stack(tuple(stacks["numbers"])),
        symbols=Stack(tuple(stacks["symbols"])),
        queue=(),
        phase=phase,  # type: ignore[arg-type]
        active=active,
        planted=planted,
        objective=objective,
        objective_pile=tuple(n for n in range(1, 21) if n != objective)
        if s.mode == "challenge"
        else (),
        turn=1,
        **changes,
    )


def on_table(state: MecsState) -> Counter[str]:
    """Every card the state holds, wherever it is (``"?"`` for unseen ones)."""
    count: Counter[str] = Counter()
    for stack in (state.numbers, state.symbols):
        count.update(stack.cards)
        count.update(stack.bottom)
    for player in state.players:
        count.update(player.hand)
        count.update(player.area)
        count.update(player.coin_cards)
    count.update(card for _, card in state.shown)
    return count


def full_deck(settings: MecsSettings) -> Counter[str]:
    deck = Counter(DIGIT_CARDS) + Counter(BLUE_CARDS)
    if settings.deck == "advanced":
        deck += Counter(GREEN_CARDS)
    return deck
