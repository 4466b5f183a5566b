"""Math Arena: bid two number cards on an operator card; the best result collects it.

Rule book: ``shared/seeds/004_40ae61c816b49af9.txt``; rulings ARENA-1..ARENA-5.

A French deck without Jokers: the 12 court cards are the operator deck, the 40 pip cards
the numbers (Ace 1). Each set the numbers are shuffled and dealt (ARENA-2); each round an
operator card is revealed and every player chooses two number cards at the same time:
all seats are pending at once and nobody's choice is shown until everyone has chosen
(ARENA-3). King adds, Queen is the remainder of the larger divided by the smaller, Jack
is the difference; a red operator wants the lowest value and a black one the highest
(ARENA-1). A tie puts the operator card in a pot for the next round's winner; in the last
round of a set the tied players' leftover cards decide, or the pot leaves the game
(ARENA-4). Most operator cards wins (ARENA-5).

Chance comes from outside: every dealt card and every revealed operator is a chance
outcome. In camera play (``hidden_hands``) the device does not see the deal: a hand is a
count, and a chosen card is legal if it can still be in that hand, that is, if it has not
been seen yet in this set (DESIGN.md).

Sections: constants, settings, state, actions, values, the engine, the seat view,
tournaments, the ``tabletop check`` referee, private helpers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from tabletop.engine import places_from_scores
from tabletop.engine.errors import BadInput, IllegalMove
from tabletop.engine.protocol import ChanceRequest, Event, Game, Pending, Result, Seat
from tabletop.engine.words import and_joined, plural

# -- constants -------------------------------------------------------------------------

PAYLOAD_PREFIX = "MT1:ARENA:"
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
PIP_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
COURT_RANKS = ("J", "Q", "K")
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
NUMBER_CARDS = tuple(rank + suit for suit in SUITS for rank in PIP_RANKS)  # 40
OPERATOR_CARDS = tuple(rank + suit for suit in SUITS for rank in COURT_RANKS)  # 12
CARD_ORDER = {card: i for i, card in enumerate((*NUMBER_CARDS, *OPERATOR_CARDS))}
OPERATION_WORDS = {"K": "sum", "Q": "remainder", "J": "difference"}


@dataclass(frozen=True)
class Deal:
    """How a game of ``players`` is dealt and played (ARENA-2)."""

    hand: int
    sets: int
    rounds: int


DEALS = {
    2: Deal(hand=13, sets=2, rounds=6),
    3: Deal(hand=13, sets=2, rounds=6),
    4: Deal(hand=9, sets=3, rounds=4),
    5: Deal(hand=8, sets=3, rounds=4),
}
MIN_PLAYERS, MAX_PLAYERS = min(DEALS), max(DEALS)

Phase = Literal["deal", "operator", "choose", "leftover", "over"]
Goal = Literal["lowest", "highest"]


def parse_card(text: str) -> str | None:
    """A card code from a code (``10H``) or a QR payload (``MT1:ARENA:10H``); None if
    unknown."""
    code = text[len(PAYLOAD_PREFIX) :] if text.startswith(PAYLOAD_PREFIX) else text
    return code if code in CARD_ORDER else None


def is_operator(card: str) -> bool:
    return card in OPERATOR_CARDS


def is_number(card: str) -> bool:
    return card in NUMBER_CARDS


def pip_value(card: str) -> int:
    """A number card's value: its pips, Ace 1 (ARENA-1)."""
    rank = card[:-1]
    return 1 if rank == "A" else int(rank)


def goal(operator: str) -> Goal:
    """Red operators (hearts, diamonds) want the lowest value, black the highest."""
    return "lowest" if operator[-1] in RED_SUITS else "highest"


def card_name(card: str) -> str:
    """``10 of hearts``, ``red King``-style words for children."""
    rank, suit = card[:-1], card[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def operator_name(operator: str, *, title: bool = False) -> str:
    """``red King`` (``Red King`` with ``title``, to begin a sentence)."""
    colour = "red" if operator[-1] in RED_SUITS else "black"
    return f"{colour.title() if title else colour} {RANK_NAMES[operator[:-1]]}"


# -- settings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MathArenaSettings:
    """``hidden_hands``: camera play, where the device sees the operator cards and every
    revealed pair but not the deal (DESIGN.md)."""

    hidden_hands: bool = False


# -- state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MathArenaState:
    """The game between two actions.

    ``hands`` are sorted in deck order (empty tuples when ``hidden_hands``); ``played``
    the number cards revealed in this set; ``choices`` each seat's two face-down cards,
    ``()`` until it has chosen, secret until everyone has (use ``seat_view``); ``tied``
    the seats whose leftover cards break a last-round tie, ``shown`` the leftovers
    shown so far (camera play)."""

    settings: MathArenaSettings
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    phase: Phase = "deal"
    set_number: int = 1
    round: int = 1
    operator: str | None = None
    operators_left: tuple[str, ...] = OPERATOR_CARDS
    played: tuple[str, ...] = ()
    choices: tuple[tuple[str, ...], ...] = ()
    pot: tuple[str, ...] = ()
    won: tuple[tuple[str, ...], ...] = ()
    removed: tuple[str, ...] = ()
    tied: tuple[Seat, ...] = ()
    shown: tuple[tuple[str, ...], ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def deal(self) -> Deal:
        return DEALS[self.players]

    @property
    def last_round_of_set(self) -> bool:
        return self.round == self.deal.rounds

    @property
    def ready(self) -> tuple[bool, ...]:
        """Which seats have chosen their two cards this round (public)."""
        return tuple(bool(c) for c in self.choices)

    def undealt(self) -> tuple[str, ...]:
        """Number cards not dealt in this set (virtual play)."""
        taken = set(itertools.chain(self.played, *self.hands))
        return tuple(card for card in NUMBER_CARDS if card not in taken)


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealCard:
    """Chance: number card ``card`` is dealt to ``seat`` (virtual play only)."""

    seat: Seat
    card: str


@dataclass(frozen=True)
class RevealOperator:
    """Chance: the top card of the operator deck is ``card``."""

    card: str


@dataclass(frozen=True)
class Choose:
    """``seat`` puts two number cards face down for this round (ARENA-3)."""

    seat: Seat
    cards: tuple[str, str]


@dataclass(frozen=True)
class ShowLeftover:
    """Camera play: a tied seat shows its one leftover card (ARENA-4)."""

    seat: Seat
    card: str


Action = DealCard | RevealOperator | Choose | ShowLeftover
ACTION_TYPES: tuple[type[Any], ...] = (DealCard, RevealOperator, Choose, ShowLeftover)


# -- values -------------------------------------------------------------------------------


def pair_value(operator: str, a: int, b: int) -> int:
    """ARENA-1: King = sum, Queen = remainder of the larger divided by the smaller (equal
    -> 0), Jack = difference (never negative)."""
    rank = operator[:-1]
    if rank == "K":
        return a + b
    if rank == "Q":
        return max(a, b) % min(a, b)
    return abs(a - b)


def play_value(operator: str, cards: Sequence[str]) -> int:
    a, b = cards
    return pair_value(operator, pip_value(a), pip_value(b))


def best_seats(operator: str, values: Sequence[int | None]) -> tuple[Seat, ...]:
    """The seats whose value is best by the operator's colour (several on a tie)."""
    present = [v for v in values if v is not None]
    if not present:
        return ()
    best = min(present) if goal(operator) == "lowest" else max(present)
    return tuple(seat for seat, v in enumerate(values) if v == best)


def pair_sum(operator: str, cards: Sequence[str]) -> dict[str, Any]:
    """The sum a pair makes (ARENA-1), as the ``arena.reveal`` event carries it: the larger
    number ``a``, the smaller ``b``, the sign ``op`` (``+``, ``-``, or ``/`` for the Queen:
    what is left when ``b`` goes into ``a``) and the ``value``."""
    a, b = sorted((pip_value(c) for c in cards), reverse=True)
    op = {"K": "+", "Q": "/"}.get(operator[:-1], "-")
    return {"a": a, "b": b, "op": op, "value": play_value(operator, cards)}


def explain(operator: str, cards: Sequence[str]) -> str:
    """How a child says it: ``5 + 2 = 7``, ``2 into 5 leaves 1``, ``5 - 2 = 3``."""
    return sum_words(pair_sum(operator, cards))


def sum_words(facts: Mapping[str, Any]) -> str:
    """:func:`explain` from a :func:`pair_sum`."""
    a, b, op, value = facts["a"], facts["b"], facts["op"], facts["value"]
    return f"{b} into {a} leaves {value}" if op == "/" else f"{a} {op} {b} = {value}"


def scorings(actions: Sequence[Action]) -> list[int]:
    """Where each scoring begins in ``actions``: a run of :class:`Choose` (the pairs) or
    of :class:`ShowLeftover` (the leftover cards)."""
    return [
        i
        for i, action in enumerate(actions)
        if isinstance(action, Choose | ShowLeftover)
        and (i == 0 or type(actions[i - 1]) is not type(action))
    ]


def last_scoring(actions: Sequence[Action]) -> slice | None:
    """The actions of the scoring ``actions`` end with (the cards dealt after it aside),
    or None when they end with none."""
    dealt = len(actions)
    while dealt and isinstance(actions[dealt - 1], DealCard):
        dealt -= 1
    if not dealt or not isinstance(actions[dealt - 1], Choose | ShowLeftover):
        return None
    return slice(scorings(actions[:dealt])[-1], dealt)


# -- the engine ------------------------------------------------------------------------------


class MathArena(Game[MathArenaSettings, MathArenaState, Action]):
    name = "math-arena"
    settings_type = MathArenaSettings
    state_type = MathArenaState
    action_types = ACTION_TYPES

    def new_game(self, settings: MathArenaSettings, seats: int) -> MathArenaState:
        if seats not in DEALS:
            raise BadInput(
                "arena.seats",
                f"Math Arena is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats}",
            )
        state = MathArenaState(
            settings,
            hand_sizes=(0,) * seats,
            hands=((),) * seats,
            won=((),) * seats,
        )
        return self._start_set(state, 1)

    def pending(self, state: MathArenaState) -> Pending[Action]:
        if state.phase == "over":
            return Pending()
        if state.phase == "deal":
            seat = min(range(state.players), key=lambda s: (state.hand_sizes[s], s))
            cards = state.undealt()
            return Pending(
                chance=ChanceRequest(
                    "card",
                    f"a number card dealt to seat {seat + 1}",
                    tuple(DealCard(seat, card) for card in cards),
                )
            )
        if state.phase == "operator":
            return Pending(
                chance=ChanceRequest(
                    "operator",
                    "the top card of the operator deck",
                    tuple(RevealOperator(card) for card in state.operators_left),
                )
            )
        if state.phase == "choose":
            return Pending(seats=frozenset(s for s, c in enumerate(state.choices) if not c))
        return Pending(seats=frozenset(s for s in state.tied if not state.shown[s]))

    def legal_actions(self, state: MathArenaState, seat: Seat) -> list[Action]:
        if seat not in self.pending(state).seats:
            return []
        cards = self.possible_cards(state, seat)
        if state.phase == "leftover":
            return [ShowLeftover(seat, card) for card in cards]
        return [Choose(seat, (a, b)) for a, b in itertools.combinations(cards, 2)]

    def apply(
        self, state: MathArenaState, action: Action
    ) -> tuple[MathArenaState, tuple[Event, ...]]:
        if state.phase == "over":
            raise IllegalMove("arena.game_over", "the game is over: every operator card is played")
        if isinstance(action, DealCard | RevealOperator):
            return self._chance(state, action)
        if not 0 <= action.seat < state.players:
            raise IllegalMove(
                "arena.no_such_seat", f"there is no seat {action.seat + 1} in this game"
            )
        if isinstance(action, Choose):
            return self._choose(state, action)
        return self._show_leftover(state, action)

    def result(self, state: MathArenaState) -> Result | None:
        if state.phase != "over":
            return None
        counts = tuple(len(w) for w in state.won)
        places = places_from_scores(counts)
        best = [s for s, p in enumerate(places) if p == 1]
        if len(best) == 1:
            reason = f"seat {best[0] + 1} wins with {plural(counts[best[0]], 'operator card')}"
        else:
            cards = plural(counts[best[0]], "operator card")
            reason = f"{_seats(best)} share first place with {cards} each"
        return Result(tuple(Fraction(c) for c in counts), places, reason)

    # -- chance ------------------------------------------------------------------------

    def _chance(self, state: MathArenaState, action: DealCard | RevealOperator) -> _Outcome:
        self.check_outcome(state, action)
        if isinstance(action, RevealOperator):
            op = action.card
            state = replace(
                state,
                phase="choose",
                operator=op,
                operators_left=tuple(c for c in state.operators_left if c != op),
                choices=((),) * state.players,
            )
            rule = OPERATION_WORDS[op[:-1]]
            text = (
                f"Set {state.set_number}, round {state.round}: the operator is the "
                f"{operator_name(op)}. The {goal(op)} {rule} wins! Choose two number cards."
            )
            if state.pot:
                text += (
                    f" The winner also takes the pot: {plural(len(state.pot), 'operator card')}."
                )
            return state, (Event("arena.operator", text, data={"operator": op}),)
        seat = action.seat
        hands = _with(state.hands, seat, _sorted((*state.hands[seat], action.card)))
        sizes = _with(state.hand_sizes, seat, state.hand_sizes[seat] + 1)
        state = replace(state, hands=hands, hand_sizes=sizes)
        event = Event("arena.dealt", f"Seat {seat + 1} gets a card.", seat, {"card": action.card})
        if min(sizes) == state.deal.hand:
            state = replace(state, phase="operator")
        return state, (event,)

    # -- choosing and the reveal ------------------------------------------------------------

    def _choose(self, state: MathArenaState, action: Choose) -> _Outcome:
        seat = action.seat
        if state.phase != "choose":
            raise IllegalMove("arena.not_now", _not_now(state))
        if state.choices[seat]:
            raise IllegalMove("arena.already_chosen", "you have already put your two cards down")
        cards = tuple(action.cards)
        if len(cards) != 2:
            raise IllegalMove(
                "arena.two_cards", f"choose exactly two number cards, not {len(cards)}"
            )
        for card in cards:
            self.check_number_card(state, seat, card)
        if cards[0] == cards[1]:
            raise IllegalMove("arena.same_card", f"{card_name(cards[0])} cannot be played twice")
        choices = _with(state.choices, seat, _sorted(cards))
        state = replace(state, choices=choices)
        ready = Event("arena.ready", f"Seat {seat + 1} is ready.", seat)
        if not all(choices):
            return state, (ready,)
        state, events = self._reveal(state)
        return state, (ready, *events)

    def _reveal(self, state: MathArenaState) -> _Outcome:
        """Everyone has chosen: show every pair, give the operator card (and the pot) to
        the best value, or pot it on a tie (ARENA-3, ARENA-4)."""
        op = state.operator
        assert op is not None
        values = [play_value(op, cards) for cards in state.choices]
        lines = [f"Seat {s + 1}: {explain(op, cards)}" for s, cards in enumerate(state.choices)]
        winners = best_seats(op, values)
        tie = None if len(winners) == 1 else "leftovers" if state.last_round_of_set else "pot"
        events = [
            Event(
                "arena.reveal",
                "Cards up! " + "; ".join(lines) + ".",
                data={
                    "plays": [list(c) for c in state.choices],
                    "sums": [pair_sum(op, cards) for cards in state.choices],  # per seat
                    "values": values,
                    "operator": op,
                    "goal": goal(op),
                    "best": values[winners[0]],
                    "winners": list(winners),
                    "tie": tie,  # None, "pot" (it waits) or "leftovers" (they decide)
                },
            )
        ]
        hands = state.hands
        if not state.settings.hidden_hands:
            hands = tuple(
                tuple(c for c in hand if c not in chosen)
                for hand, chosen in zip(hands, state.choices)
            )
        state = replace(
            state,
            hands=hands,
            hand_sizes=tuple(n - 2 for n in state.hand_sizes),
            played=(*state.played, *itertools.chain(*state.choices)),
        )
        prize = (*state.pot, op)
        if len(winners) == 1:
            state, won = self._award(state, winners[0], prize, f"the {goal(op)} value")
            return self._next_round(state, (*events, won))
        tied = _seats(winners)
        if not state.last_round_of_set:
            events.append(
                Event(
                    "arena.tie",
                    f"It's a tie between {tied}! The {operator_name(op)} goes into the pot: "
                    "the next round's winner takes the pot too.",
                    data={"tied": list(winners), "pot": list(prize)},
                )
            )
            return self._next_round(replace(state, pot=prize), tuple(events))
        events.append(
            Event(
                "arena.tie",
                f"It's a tie between {tied} in the last round of the set! "
                "Their leftover cards decide who takes the pot.",
                data={"tied": list(winners), "pot": list(prize)},
            )
        )
        state = replace(state, pot=prize, tied=winners)
        if state.hand_sizes[winners[0]] == 0:
            return self._settle_leftovers(state, tuple(events))
        if state.settings.hidden_hands:
            return replace(state, phase="leftover", shown=((),) * state.players), tuple(events)
        shown = tuple(state.hands[s] if s in winners else () for s in range(state.players))
        return self._settle_leftovers(replace(state, shown=shown), tuple(events))

    def _show_leftover(self, state: MathArenaState, action: ShowLeftover) -> _Outcome:
        seat, card = action.seat, action.card
        if state.phase != "leftover":
            raise IllegalMove("arena.not_now", _not_now(state))
        if seat not in state.tied:
            raise IllegalMove(
                "arena.not_tied", f"only the tied players show a leftover card, not seat {seat + 1}"
            )
        if state.shown[seat]:
            raise IllegalMove("arena.already_shown", "you have already shown your leftover card")
        self.check_number_card(state, seat, card)
        state = replace(state, shown=_with(state.shown, seat, (card,)))
        if any(not state.shown[s] for s in state.tied):
            return state, ()
        return self._settle_leftovers(state, ())

    def _settle_leftovers(self, state: MathArenaState, events: tuple[Event, ...]) -> _Outcome:
        """ARENA-4: the best leftover by the same colour rule takes the pot; a second tie,
        or no leftover cards at all, removes the pot from the game."""
        op = state.operator
        assert op is not None
        out = list(events)
        leftovers = [
            state.shown[s][0] if state.shown and state.shown[s] else None
            for s in range(state.players)
        ]
        if all(card is None for card in leftovers):
            out.append(
                Event(
                    "arena.pot_removed",
                    f"Nobody has a leftover card, so the pot "
                    f"({plural(len(state.pot), 'operator card')}) leaves the game.",
                    data={"removed": list(state.pot), "why": "none"},  # no leftover cards
                )
            )
            state = replace(state, removed=(*state.removed, *state.pot), pot=())
            return self._next_round(state, tuple(out))
        values = [None if card is None else pip_value(card) for card in leftovers]
        words = "; ".join(
            f"Seat {s + 1}: {pip_value(card)}"
            for s, card in enumerate(leftovers)
            if card is not None
        )
        out.append(
            Event(
                "arena.leftovers",
                f"Leftover cards: {words}.",
                data={"leftovers": leftovers},
            )
        )
        best = best_seats(op, values)
        if len(best) == 1:
            state, won = self._award(state, best[0], state.pot, f"the {goal(op)} leftover card")
            out.append(won)
        else:
            out.append(
                Event(
                    "arena.pot_removed",
                    f"The leftover cards tie too, so the pot "
                    f"({plural(len(state.pot), 'operator card')}) leaves the game.",
                    data={"removed": list(state.pot), "why": "tie"},  # the leftovers tie
                )
            )
            state = replace(state, removed=(*state.removed, *state.pot), pot=())
        return self._next_round(state, tuple(out))

    def _award(
        self, state: MathArenaState, seat: Seat, prize: tuple[str, ...], why: str
    ) -> tuple[MathArenaState, Event]:
        won = _with(state.won, seat, (*state.won[seat], *prize))
        cards = "the operator card" if len(prize) == 1 else plural(len(prize), "operator card")
        event = Event(
            "arena.round_won",
            f"Seat {seat + 1} has {why} and takes {cards}!",
            seat,
            {"cards": list(prize)},
        )
        return replace(state, won=won, pot=()), event

    def _next_round(self, state: MathArenaState, events: tuple[Event, ...]) -> _Outcome:
        state = replace(state, operator=None, choices=(), tied=(), shown=())
        if state.round < state.deal.rounds:
            return replace(state, round=state.round + 1, phase="operator"), events
        if state.set_number < state.deal.sets:
            done = Event(
                "arena.set_over",
                f"Set {state.set_number} is over. All number cards are shuffled and dealt again.",
                data={"set": state.set_number},
            )
            return self._start_set(state, state.set_number + 1), (*events, done)
        state = replace(state, phase="over")
        counts = [len(w) for w in state.won]
        best = max(counts)
        winners = [s for s, c in enumerate(counts) if c == best]
        score = ", ".join(f"seat {s + 1} has {c}" for s, c in enumerate(counts))
        if len(winners) == 1:
            text = f"The game is over! {score.capitalize()}: seat {winners[0] + 1} wins!"
        else:
            text = f"The game is over! {score.capitalize()}: {_seats(winners)} share first place!"
        return state, (*events, Event("arena.game_over", text, data={"counts": counts}))

    def _start_set(self, state: MathArenaState, number: int) -> MathArenaState:
        """ARENA-2: all number cards are gathered, shuffled and dealt again."""
        state = replace(state, set_number=number, round=1, played=(), pot=())
        if state.settings.hidden_hands:
            size = state.deal.hand
            return replace(
                state,
                hand_sizes=(size,) * state.players,
                hands=((),) * state.players,
                phase="operator",
            )
        return replace(
            state, hand_sizes=(0,) * state.players, hands=((),) * state.players, phase="deal"
        )

    # -- what a seat may hold -----------------------------------------------------------------

    def possible_cards(self, state: MathArenaState, seat: Seat) -> list[str]:
        """Cards the seat can play: its hand, or in camera play every number card not seen
        yet in this set (played, or chosen by another seat this round)."""
        if not state.settings.hidden_hands:
            return list(state.hands[seat])
        if state.hand_sizes[seat] < (1 if state.phase == "leftover" else 2):
            return []
        seen = set(state.played)
        for other, cards in enumerate(state.choices):
            if other != seat:
                seen.update(cards)
        for other, cards in enumerate(state.shown):
            if other != seat:
                seen.update(cards)
        return [card for card in NUMBER_CARDS if card not in seen]

    def check_number_card(self, state: MathArenaState, seat: Seat, card: str) -> None:
        if card in OPERATOR_CARDS:
            raise IllegalMove(
                "arena.court_as_number",
                f"the {card_name(card)} is an operator card: play number cards (Ace to 10)",
            )
        if card not in NUMBER_CARDS:
            raise IllegalMove("arena.unknown_card", f"{card!r} is not a card of a French deck")
        if card in self.possible_cards(state, seat):
            return
        if not state.settings.hidden_hands:
            raise IllegalMove("arena.not_in_hand", f"the {card_name(card)} is not in your hand")
        if state.hand_sizes[seat] < (1 if state.phase == "leftover" else 2):
            raise IllegalMove("arena.no_cards", "you have no cards left for that")
        others = itertools.chain(
            *(c for s, c in enumerate(state.choices) if s != seat),
            *(c for s, c in enumerate(state.shown) if s != seat),
        )
        if card in set(others):
            raise IllegalMove(
                "arena.card_taken",
                f"the {card_name(card)} is already on the table for another seat",
            )
        raise IllegalMove(
            "arena.card_gone",
            f"the {card_name(card)} cannot be in your hand: it was already seen in this set",
        )


# -- the cards on the table ---------------------------------------------------------------------

_GAME = MathArena()


class WrongCards(IllegalMove):
    """Cards shown at the table that the rules refuse: the first refusal's ``code`` and
    message, the ``seat`` refused, and every ``(seat, slot)`` to check (the card itself,
    or both cards of a seat that shows one card twice, or the two seats showing it)."""

    def __init__(self, error: IllegalMove, seat: Seat, cards: frozenset[tuple[Seat, int]]) -> None:
        super().__init__(error.code, error.message)
        self.seat = seat
        self.cards = cards


def table_actions(
    state: MathArenaState, shown: Sequence[Sequence[str]]
) -> tuple[Choose | ShowLeftover, ...]:
    """The actions that score the cards face up at the table (ARENA-3, ARENA-4): in the
    choose phase every seat's pair ``shown[seat]``; in the leftover phase the leftover
    card ``shown[seat][0]`` of each tied seat not shown yet. They are tried in order on
    the state; the first the rules refuse raises :class:`WrongCards`."""
    actions: list[Choose | ShowLeftover]
    if state.phase == "leftover":
        actions = [ShowLeftover(s, shown[s][0]) for s in state.tied if not state.shown[s]]
    else:
        actions = [Choose(s, (shown[s][0], shown[s][1])) for s in range(state.players)]
    trial = state
    for action in actions:
        try:
            trial, _ = _GAME.apply(trial, action)
        except IllegalMove as e:
            raise WrongCards(e, action.seat, _wrong_cards(state, action, e.code, shown)) from e
    return tuple(actions)


def _wrong_cards(
    state: MathArenaState,
    action: Choose | ShowLeftover,
    code: str,
    shown: Sequence[Sequence[str]],
) -> frozenset[tuple[Seat, int]]:
    seat = action.seat
    if isinstance(action, ShowLeftover):
        return frozenset({(seat, 0)})
    both = frozenset({(seat, 0), (seat, 1)})
    if code == "arena.same_card":
        return both
    wrong: set[tuple[Seat, int]] = set()
    for i, card in enumerate(action.cards):
        try:
            _GAME.check_number_card(state, seat, card)
        except IllegalMove:
            wrong.add((seat, i))
    if code == "arena.card_taken":
        for other in range(seat):
            for i, card in enumerate(shown[other][:2]):
                if card in action.cards:
                    wrong.update({(other, i), (seat, action.cards.index(card))})
    return frozenset(wrong) or both


# -- the seat view ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MathArenaView:
    """What one seat may know: its own hand and choice, the public cards and counts, and
    who is ready. Bots decide from this, never from the full state."""

    seat: Seat
    players: int
    phase: Phase
    set_number: int
    round: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    operator: str | None
    operators_left: tuple[str, ...]
    played: tuple[str, ...]
    my_choice: tuple[str, ...]
    ready: tuple[bool, ...]
    pot: tuple[str, ...]
    won: tuple[tuple[str, ...], ...]
    removed: tuple[str, ...]

    @property
    def deal(self) -> Deal:
        return DEALS[self.players]

    def unseen(self) -> tuple[str, ...]:
        """Number cards this seat has not seen in this set (other hands and undealt)."""
        seen = set(self.played) | set(self.hand)
        return tuple(card for card in NUMBER_CARDS if card not in seen)


def seat_view(state: MathArenaState, seat: Seat) -> MathArenaView:
    """The state as ``seat`` sees it: other hands and face-down choices are hidden."""
    hidden = state.settings.hidden_hands
    return MathArenaView(
        seat=seat,
        players=state.players,
        phase=state.phase,
        set_number=state.set_number,
        round=state.round,
        hand=() if hidden else state.hands[seat],
        hand_sizes=state.hand_sizes,
        operator=state.operator,
        operators_left=state.operators_left,
        played=state.played,
        my_choice=state.choices[seat] if state.choices else (),
        ready=state.ready,
        pot=state.pot,
        won=state.won,
        removed=state.removed,
    )


# -- tournaments ---------------------------------------------------------------------------------

Ranking = Literal["standard", "dense"]
TARGETS = (5, 10, 15, 20)  # the tournament's targets a setup or a station offers (ARENA-5)
TARGET = 10  # a tournament's target where none of them is chosen


@dataclass(frozen=True)
class Tournament:
    """ARENA-5: several games to a target. First place scores 2 points and second place 1;
    players sharing a place all score it. ``ranking``: after a shared first place, is the
    next player second (``dense``) or third (``standard``, as ``Result.places``)?"""

    players: int
    target: int = TARGET
    ranking: Ranking = "standard"
    points: tuple[int, ...] = ()
    games: int = 0

    def __post_init__(self) -> None:
        if self.players not in DEALS:
            raise BadInput(
                "arena.seats",
                f"Math Arena is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}",
            )
        if self.target < 1:
            raise BadInput(
                "arena.option", f"the target must be at least 1 point, not {self.target}"
            )
        if self.ranking not in ("standard", "dense"):
            raise BadInput(
                "arena.option", f"ranking must be standard or dense, not {self.ranking!r}"
            )
        if not self.points:
            object.__setattr__(self, "points", (0,) * self.players)
        if len(self.points) != self.players:
            raise BadInput("arena.option", "a tournament needs one point total per player")

    def record(self, result: Result) -> Tournament:
        """The tournament after one more game."""
        if self.over:
            raise IllegalMove(
                "arena.tournament_over", "the tournament is over: someone reached the target"
            )
        if len(result.places) != self.players:
            raise IllegalMove(
                "arena.seats", f"that game had {len(result.places)} players, not {self.players}"
            )
        gained = tournament_points(result.places, self.ranking)
        points = tuple(p + g for p, g in zip(self.points, gained))
        return replace(self, points=points, games=self.games + 1)

    def after(self, result: Result) -> Tournament:
        """The tournament a game's ``result`` counts in: this one, or after one already
        won a new one to the same target."""
        return (self.afresh() if self.over else self).record(result)

    def afresh(self) -> Tournament:
        """A new tournament to the same target."""
        return Tournament(self.players, self.target, self.ranking)

    def journal(self) -> dict[str, Any]:
        """As the journal keeps it (:meth:`of`)."""
        return {"target": self.target, "points": list(self.points), "games": self.games}

    @classmethod
    def of(cls, players: int, journal: Mapping[str, Any]) -> Tournament:
        """A tournament of ``players`` from the journal's record: a record from before
        a setting had it (none, or only the target agreed) starts with no points."""
        points = tuple(int(x) for x in journal.get("points", ()))
        target, games = int(journal.get("target", TARGET)), int(journal.get("games", 0))
        return cls(players, target=target, points=points, games=games)

    @property
    def over(self) -> bool:
        return max(self.points) >= self.target

    @property
    def winners(self) -> tuple[Seat, ...]:
        """Once over: the seats with the most points (several share the win)."""
        if not self.over:
            return ()
        best = max(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == best)


def tournament_points(places: Sequence[int], ranking: Ranking = "standard") -> tuple[int, ...]:
    """2 points for first place, 1 for second, 0 otherwise (ARENA-5)."""
    if ranking == "dense":
        distinct = sorted(set(places))
        places = [distinct.index(p) + 1 for p in places]
    return tuple({1: 2, 2: 1}.get(p, 0) for p in places)


# -- the ``tabletop check`` referee ----------------------------------------------------------------


def check(data: Any) -> dict[str, Any]:
    """Referee one round given as ``{"operator": "KH", "plays": [["5S", "2D"], ...]}``
    (DESIGN.md): ``values`` per seat and ``winners`` (several on a tie), plus the
    ``goal``. ``BadInput`` for a round that cannot happen."""
    if not isinstance(data, dict):
        raise BadInput(
            "arena.shape",
            'the input must be a JSON object like {"operator": "KH", "plays": [["5S", "2D"], ...]}',
        )
    unknown = sorted(set(data) - {"operator", "plays"})
    if unknown:
        raise BadInput(
            "arena.shape", f"unknown field {unknown[0]!r}: only 'operator' and 'plays' are read"
        )
    raw_op = data.get("operator")
    if not isinstance(raw_op, str):
        raise BadInput("arena.shape", "'operator' must be a court card such as \"KH\"")
    op = parse_card(raw_op)
    if op is None:
        raise BadInput("arena.unknown_card", f"operator: {raw_op!r} is not a card of a French deck")
    if not is_operator(op):
        raise BadInput(
            "arena.pip_operator",
            f"operator: the {card_name(op)} is a number card: "
            "the operator is a King, Queen or Jack",
        )
    plays = data.get("plays")
    if not isinstance(plays, list):
        raise BadInput("arena.shape", "'plays' must be a list of two-card lists, one per player")
    if not MIN_PLAYERS <= len(plays) <= MAX_PLAYERS:
        raise BadInput(
            "arena.players",
            f"Math Arena is for {MIN_PLAYERS} to {MAX_PLAYERS} players: 'plays' has {len(plays)}",
        )
    seen: dict[str, int] = {}
    pairs: list[tuple[str, str]] = []
    for seat, play in enumerate(plays):
        if not isinstance(play, list) or not all(isinstance(c, str) for c in play):
            raise BadInput("arena.shape", f"play {seat}: must be a list of two card codes")
        if len(play) != 2:
            raise BadInput(
                "arena.two_cards", f"play {seat}: play exactly two cards, not {len(play)}"
            )
        cards = []
        for text in play:
            card = parse_card(text)
            if card is None:
                raise BadInput(
                    "arena.unknown_card", f"play {seat}: {text!r} is not a card of a French deck"
                )
            if is_operator(card):
                raise BadInput(
                    "arena.court_as_number",
                    f"play {seat}: the {card_name(card)} is an operator card, not a number",
                )
            if card in seen:
                where = "twice" if seen[card] == seat else f"by play {seen[card]} too"
                raise BadInput(
                    "arena.same_card", f"play {seat}: the {card_name(card)} is played {where}"
                )
            seen[card] = seat
            cards.append(card)
        pairs.append((cards[0], cards[1]))
    values = [play_value(op, pair) for pair in pairs]
    return {
        "values": values,
        "winners": list(best_seats(op, values)),
        "goal": goal(op),
    }


# -- private helpers ---------------------------------------------------------------------------

_Outcome = tuple[MathArenaState, tuple[Event, ...]]


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: CARD_ORDER.get(c, len(CARD_ORDER))))


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _seats(seats: Sequence[Seat]) -> str:
    """``seat 2``, ``seats 1 and 3``, ``seats 1, 3 and 5``."""
    return f"{'seat' if len(seats) == 1 else 'seats'} {and_joined([str(s + 1) for s in seats])}"


def _not_now(state: MathArenaState) -> str:
    return {
        "deal": "wait: the number cards are being dealt",
        "operator": "wait: the next operator card is not revealed yet",
        "choose": "now every player chooses two number cards",
        "leftover": "now the tied players show their leftover cards",
        "over": "the game is over",
    }[state.phase]


__all__ = [
    "ACTION_TYPES",
    "DEALS",
    "NUMBER_CARDS",
    "OPERATOR_CARDS",
    "TARGET",
    "TARGETS",
    "Action",
    "Choose",
    "Deal",
    "DealCard",
    "MathArena",
    "MathArenaSettings",
    "MathArenaState",
    "MathArenaView",
    "RevealOperator",
    "ShowLeftover",
    "Tournament",
    "WrongCards",
    "best_seats",
    "check",
    "explain",
    "goal",
    "last_scoring",
    "pair_value",
    "parse_card",
    "pip_value",
    "play_value",
    "scorings",
    "seat_view",
    "table_actions",
    "tournament_points",
]
