"""M.E.C.S.: plant cards into an equation area, complete equations, hack other areas.

Rule book: ``shared/seeds/003_95529e15955f60e3.txt``; rulings MECS-1..MECS-7 (MECS-8,
the bubble game, belongs to the UI). Equations themselves are checked in
``tabletop.games.mecs_equation``.

Chance never comes from inside the engine. Dealing and refilling (the top card of a
stack), the first-player reveal, the card taken at random from the next player's hand
and the challenge objectives are chance requests whose outcomes are what can legally
appear; a dealer answers them.

Two ways to play (setting ``play``):
- ``virtual``: the engine knows every card (practice with virtual decks, bots, tests);
- ``camera``: the device sees the equation areas and the coins, never a hand or a
  stack. A card it cannot see is ``"?"``: hands are counts, a drawn card is ``"?"``,
  and a card planted from a hand is legal if it could still be there (not every copy of
  it is already on the table). The camera reads each area left to right and the engine
  takes ``Observe(area_of, reads)``: it works out whether cards were reordered, planted
  or hacked in, and refuses what the rules forbid (a card taken back into a hand, a hack
  that moves the cards already there).

A turn (MECS-4): the game asks for the card taken from the next player's hand; the
active player plants 1 or 2 cards in their own area (``Plant``, in one action or one
card at a time), or hacks another area instead (``Hack``, MECS-5); after planting only 1
they may ``Trade`` or ``EndTurn``. Then every hand below 5 is refilled (``Refill``, from
the stack each player chooses) and the next player's turn begins. ``Reorder`` of one's
own area and ``Refill`` are accepted at any other time too. An area that reads a valid
equation after it changes is completed at once: its cards are flipped into its owner's
coins (in challenge mode only when the answer meets the objective shown, MECS-6).
A player with no card in hand passes; when the stacks and every hand are empty the game
ends ("the cards ran out") and ranks by coins as usual.

Sections: constants (deck and objective data), settings, state, actions, the engine, the
``tabletop check`` answer, private helpers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal, TypeVar

from tabletop.engine import places_from_scores
from tabletop.engine.errors import BadInput, IllegalMove, ImpossibleOutcome, TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import ChanceRequest, Event, Game, Pending, Result, Seat
from tabletop.games.mecs_equation import (
    ADVANCED,
    BASIC_SYMBOLS,
    DIGITS,
    FACE,
    Verdict,
    bad_gaps,
    card_coins,
    evaluate,
    is_valid,
    may_follow,
    render,
)

# -- constants: the cards and the objectives (data) --------------------------------------

UNSEEN = "?"
HAND_SIZE = 5
DEAL: tuple[tuple[Literal["numbers", "symbols"], int], ...] = (("numbers", 3), ("symbols", 2))
PAYLOAD_PREFIX = "MT1:MECS:"

StackName = Literal["numbers", "symbols"]
STACKS: tuple[StackName, ...] = ("numbers", "symbols")
_Name = TypeVar("_Name", bound=str)  # one of a Literal type's names (see _one_of)

# MECS-1: red digits 10 each; blue + - x ÷ ( ) 10 each and = 20; green / √ . x² 5 each.
DECKS: dict[str, tuple[tuple[str, int], ...]] = {
    "beginners": (
        *((d, 10) for d in DIGITS),
        *((s, 20 if s == "EQ" else 10) for s in BASIC_SYMBOLS),
    ),
    "advanced": (
        *((d, 10) for d in DIGITS),
        *((s, 20 if s == "EQ" else 10) for s in BASIC_SYMBOLS),
        *((a, 5) for a in ADVANCED),
    ),
}
OBJECTIVE_CODES = tuple(f"OBJ{n}" for n in range(1, 21))


def stack_of(card: str) -> StackName:
    """The stack a card belongs to: red digits to ``numbers``, the rest to ``symbols``."""
    return "numbers" if card in DIGITS else "symbols"


def _whole(v: Fraction) -> bool:
    return v.denominator == 1


def _positive_whole(v: Fraction) -> bool:
    """MECS-7: multiple, prime, square, cube and digit rules are for positive whole numbers."""
    return v.denominator == 1 and v > 0


def _prime(v: Fraction) -> bool:
    if not _positive_whole(v) or v < 2:
        return False
    n = v.numerator
    return all(n % p for p in range(2, math.isqrt(n) + 1))


def _square(v: Fraction) -> bool:
    return _positive_whole(v) and math.isqrt(v.numerator) ** 2 == v.numerator


def _cube(v: Fraction) -> bool:
    if not _positive_whole(v):
        return False
    n = v.numerator
    root = round(n ** (1 / 3)) if n.bit_length() < 1000 else _icbrt(n)
    return any((root + d) ** 3 == n for d in (-1, 0, 1))


def _icbrt(n: int) -> int:
    lo, hi = 0, 1 << (n.bit_length() // 3 + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid**3 <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _digits(v: Fraction) -> str:
    return str(v.numerator)


def _multiple(v: Fraction, *factors: int) -> bool:
    return _positive_whole(v) and all(v.numerator % f == 0 for f in factors)


@dataclass(frozen=True)
class Objective:
    """One yellow objective card (MECS-7): a test of the equation's answer."""

    number: int
    text: str
    test: Callable[[Fraction], bool]

    @property
    def code(self) -> str:
        return f"OBJ{self.number}"

    def met_by(self, answer: Fraction) -> bool:
        return self.test(answer)


OBJECTIVES: tuple[Objective, ...] = (
    Objective(1, "an odd number greater than 50", lambda v: _whole(v) and v % 2 == 1 and v > 50),
    Objective(2, "an even number less than 20", lambda v: _whole(v) and v % 2 == 0 and v < 20),
    Objective(3, "a multiple of 7", lambda v: _multiple(v, 7)),
    Objective(4, "the square of a whole number", _square),
    Objective(5, "a prime number", _prime),
    Objective(6, "exactly 24", lambda v: v == 24),
    Objective(7, "exactly 100", lambda v: v == 100),
    Objective(8, "a number from 30 to 40", lambda v: 30 <= v <= 40),
    Objective(9, "a number that is not whole", lambda v: not _whole(v)),
    Objective(10, "zero", lambda v: v == 0),
    Objective(11, "a three-digit whole number", lambda v: _positive_whole(v) and 100 <= v <= 999),
    Objective(12, "a multiple of both 3 and 4", lambda v: _multiple(v, 3, 4)),
    Objective(
        13,
        "a whole number whose digits add up to 9",
        lambda v: _positive_whole(v) and sum(int(d) for d in _digits(v)) == 9,
    ),
    Objective(14, "a number greater than 1000", lambda v: v > 1000),
    Objective(15, "a multiple of 10", lambda v: _multiple(v, 10)),
    Objective(16, "a number between 0 and 1", lambda v: 0 < v < 1),
    Objective(17, "the cube of a whole number", _cube),
    Objective(18, "exactly 1", lambda v: v == 1),
    Objective(
        19,
        "a two-digit number with equal digits",
        lambda v: _positive_whole(v) and 10 <= v <= 99 and v.numerator % 11 == 0,
    ),
    Objective(20, "a negative number", lambda v: v < 0),
)


def objective(number: int) -> Objective:
    """Objective card ``number`` (1..20)."""
    if not 1 <= number <= len(OBJECTIVES):
        raise BadInput("mecs.objective", f"objective cards are numbered 1 to 20, not {number}")
    return OBJECTIVES[number - 1]


def card_code(text: str) -> str:
    """A card code from a code or a QR payload: ``"7"`` and ``"MT1:MECS:7"`` are ``"7"``."""
    return text[len(PAYLOAD_PREFIX) :] if text.startswith(PAYLOAD_PREFIX) else text


# What a camera or a person may call a card, besides its code: its face, and more.
ALIASES = {face: code for code, face in FACE.items()} | {"x": "X", "*": "X", ":": "DIV", "^2": "SQ"}


def read_card(text: str) -> str | None:
    """A card's code from what was read of it: ``"7"``, ``"MT1:MECS:EQ"`` or ``"="`` are
    cards; another game's card, ``"?"`` or junk are None (not ours)."""
    code = card_code(text.strip())
    code = ALIASES.get(code, code)
    return code if code in FACE or code in OBJECTIVE_CODES else None


# -- settings ------------------------------------------------------------------------------

Deck = Literal["beginners", "advanced"]
DECK_NAMES: tuple[Deck, ...] = ("beginners", "advanced")
Mode = Literal["normal", "challenge"]
MODES: tuple[Mode, ...] = ("normal", "challenge")
Play = Literal["virtual", "camera"]
RevealTies = Literal["reveal_again", "first_seat"]


@dataclass(frozen=True)
class MecsSettings:
    """Options: ``deck`` (MECS-1: beginners play without green cards), ``mode`` (MECS-6;
    challenge mode mixes the green cards in, so it needs the advanced deck),
    ``target_coins`` (MECS-6: 15), ``objectives`` to meet in challenge mode (MECS-6: 5),
    ``play`` (virtual decks, or camera play where hands are counts) and ``reveal_ties``:
    when the first-player reveal ties, the tied players reveal again (default) or the
    first of them in seat order starts."""

    deck: Deck = "advanced"
    mode: Mode = "normal"
    play: Play = "virtual"
    target_coins: int = 15
    objectives: int = 5
    reveal_ties: RevealTies = "reveal_again"

    def __post_init__(self) -> None:
        for name, allowed in (
            ("deck", DECK_NAMES),
            ("mode", MODES),
            ("play", ("virtual", "camera")),
            ("reveal_ties", ("reveal_again", "first_seat")),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise BadInput(
                    "mecs.option", f"{name} must be {' or '.join(allowed)}, not {value!r}"
                )
        if isinstance(self.target_coins, bool) or not 1 <= self.target_coins <= 1000:
            raise BadInput("mecs.option", f"target_coins must be 1..1000, not {self.target_coins}")
        if isinstance(self.objectives, bool) or not 1 <= self.objectives <= len(OBJECTIVES):
            raise BadInput("mecs.option", f"objectives must be 1..20, not {self.objectives}")
        if self.mode == "challenge" and self.deck != "advanced":
            raise BadInput(
                "mecs.challenge_deck",
                "challenge mode mixes the green cards in: play it with the advanced deck",
            )

    def deck_counts(self) -> dict[str, int]:
        return dict(DECKS[self.deck])


def _one_of(names: tuple[_Name, ...], text: str, what: str, code: str = "mecs.option") -> _Name:
    """``text`` as one of ``names``; BadInput, as the settings say it, if it is none."""
    for name in names:
        if name == text:
            return name
    raise BadInput(code, f"{what} must be {' or '.join(names)}, not {text!r}")


def mecs_mode(text: str) -> Mode:
    """``text`` as a :data:`Mode` (MECS-6)."""
    return _one_of(MODES, text, "mode")


def mecs_deck(text: str) -> Deck:
    """``text`` as a :data:`Deck`."""
    return _one_of(DECK_NAMES, text, "deck")


def mecs_stack(text: str) -> StackName:
    """``text`` as a :data:`StackName`."""
    return _one_of(STACKS, text, "stack", "mecs.stack")


# -- state -----------------------------------------------------------------------------------

Phase = Literal["deal", "reveal", "start", "take", "plant", "planted", "refill", "over"]
Source = Literal["numbers", "symbols", "hand", "objectives"]
Purpose = Literal["deal", "reveal", "refill", "trade", "take", "objective"]


@dataclass(frozen=True)
class Stack:
    """A face-down stack: its shuffled part (a sorted multiset: nobody knows the order)
    and the cards put under it since, top first (MECS-4's trade, the first reveal)."""

    cards: tuple[str, ...]
    bottom: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.cards) + len(self.bottom)


@dataclass(frozen=True)
class Player:
    """One seat: hand (sorted; ``"?"`` for a card the device cannot see), equation area
    (left to right), coin pile (the flipped cards) and turns played. ``flipping`` holds
    the cards of an equation just completed that the camera may still see in the area."""

    hand: tuple[str, ...] = ()
    area: tuple[str, ...] = ()
    coin_cards: tuple[str, ...] = ()
    turns: int = 0
    flipping: tuple[str, ...] = ()

    @property
    def coins(self) -> int:
        """MECS-3: each flipped card is worth its coins."""
        return card_coins(self.coin_cards)


@dataclass(frozen=True)
class DrawFor:
    """A chance request waiting for a dealer: a card for ``seat`` from ``source``."""

    seat: Seat
    source: Source
    purpose: Purpose


@dataclass(frozen=True)
class MecsState:
    settings: MecsSettings
    players: tuple[Player, ...]
    numbers: Stack
    symbols: Stack
    phase: Phase = "deal"
    queue: tuple[DrawFor, ...] = ()
    active: Seat = 0
    planted: int = 0
    shown: tuple[tuple[Seat, str], ...] = ()  # first-player reveal cards on the table
    objective_pile: tuple[int, ...] = ()  # objective cards not shown yet (challenge)
    objective: int | None = None  # the objective shown now
    met: tuple[int, ...] = ()  # objectives met, in order
    turn: int = 0
    ended: str = ""

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def next_seat(self) -> Seat:
        """The player after the active one (clockwise): the one a card is taken from."""
        return (self.active + 1) % self.seats

    def stack(self, name: str) -> Stack:
        return self.numbers if name == "numbers" else self.symbols

    def coins(self, seat: Seat) -> int:
        return self.players[seat].coins


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Chance: the card drawn from the stack the game asked for (``"?"`` when the device
    cannot see it; a reveal card is always seen)."""

    card: str


@dataclass(frozen=True)
class Take:
    """Chance: the card the active player took at random from the next player's hand."""

    card: str


@dataclass(frozen=True)
class ShowObjective:
    """Chance (challenge mode): the next objective card shown to everybody."""

    number: int


@dataclass(frozen=True)
class Plant:
    """The active player's own area now reads ``area``: the cards that were there (in any
    order: reordering is free) plus 1 or 2 from the hand (MECS-4)."""

    seat: Seat
    area: tuple[str, ...]


@dataclass(frozen=True)
class Hack:
    """Instead of planting: ``target``'s area now reads ``area``, its cards unmoved with 1
    or 2 of the hacker's cards inserted, and is a valid equation (MECS-5)."""

    seat: Seat
    target: Seat
    area: tuple[str, ...]


@dataclass(frozen=True)
class Trade:
    """After planting only 1: put ``card`` under its stack and draw from ``draw_from``.
    In camera play the card may be ``"?"``: then ``under`` says which stack it went under."""

    seat: Seat
    card: str
    draw_from: StackName
    under: StackName | None = None


@dataclass(frozen=True)
class EndTurn:
    """The active player ends the turn (after planting 1, or with an empty hand)."""

    seat: Seat


@dataclass(frozen=True)
class Refill:
    """A hand below 5 draws one card from the stack its player chooses (MECS-4)."""

    seat: Seat
    stack: StackName


@dataclass(frozen=True)
class Reorder:
    """A player rearranges their own area (any time, never taking a card back)."""

    seat: Seat
    area: tuple[str, ...]


@dataclass(frozen=True)
class Observe:
    """Camera play: seat ``area_of``'s equation area now reads ``reads``, left to right."""

    area_of: Seat
    reads: tuple[str, ...]


Action = Draw | Take | ShowObjective | Plant | Hack | Trade | EndTurn | Refill | Reorder | Observe
ACTION_TYPES: tuple[type[Any], ...] = (
    Draw,
    Take,
    ShowObjective,
    Plant,
    Hack,
    Trade,
    EndTurn,
    Refill,
    Reorder,
    Observe,
)
CHANCE_TYPES = (Draw, Take, ShowObjective)


def area_owner(action: Action) -> Seat | None:
    """The seat whose equation area ``action`` changes: the planter's or the reorderer's
    own, a hack's target, the area a camera reading is of; None for any other action."""
    if isinstance(action, Observe):
        return action.area_of
    if isinstance(action, (Plant, Reorder)):
        return action.seat
    if isinstance(action, Hack):
        return action.target
    return None


_Outcome = tuple[MecsState, tuple[Event, ...]]


# -- the engine ------------------------------------------------------------------------------


class Mecs(Game[MecsSettings, MecsState, Action]):
    name = "mecs"
    settings_type = MecsSettings
    state_type = MecsState
    action_types = ACTION_TYPES

    def new_game(self, settings: MecsSettings, seats: int) -> MecsState:
        if isinstance(seats, bool) or not 2 <= seats <= 8:
            raise BadInput("mecs.seats", f"M.E.C.S. is for 2 to 8 players, not {seats}")
        stacks: dict[str, list[str]] = {"numbers": [], "symbols": []}
        for card, count in settings.deck_counts().items():
            seen = card if settings.play == "virtual" else UNSEEN
            stacks[stack_of(card)] += [seen] * count
        queue = tuple(
            DrawFor(seat, source, "deal")
            for seat in range(seats)
            for source, count in DEAL
            for _ in range(count)
        )
        pile = tuple(range(1, len(OBJECTIVES) + 1)) if settings.mode == "challenge" else ()
        return MecsState(
            settings=settings,
            players=(Player(),) * seats,
            numbers=Stack(tuple(sorted(stacks["numbers"]))),
            symbols=Stack(tuple(sorted(stacks["symbols"]))),
            queue=queue,
            objective_pile=pile,
        )

    def pending(self, state: MecsState) -> Pending[Action]:
        if state.phase == "over":
            return Pending()
        if state.queue:
            return Pending(chance=self._request(state, state.queue[0]))
        if state.phase in ("plant", "planted"):
            return Pending(seats=frozenset({state.active}))
        if state.phase == "refill":
            return Pending(seats=frozenset(_needs_refill(state)))
        return Pending()

    def result(self, state: MecsState) -> Result | None:
        if state.phase != "over":
            return None
        coins = [p.coins for p in state.players]
        return Result(tuple(Fraction(c) for c in coins), places_from_scores(coins), state.ended)

    def legal_actions(self, state: MecsState, seat: Seat) -> list[Action]:
        """Every decision ``seat`` may take now. Plants are listed with the area's cards
        kept in order and the new cards inserted anywhere; since reordering one's own
        area is free (MECS-4), ``apply`` also accepts a plant that rearranges it, and a
        ``Reorder`` at any time, which are too many to list."""
        if seat not in self.pending(state).seats:
            return []
        if state.phase == "refill":
            return [Refill(seat, s) for s in STACKS if state.stack(s).size]
        player = state.players[seat]
        available = held_cards(state, seat)
        actions: list[Action] = []
        if state.phase == "plant":
            actions += [Plant(seat, a) for a in insertions(player.area, available, 2)]
            for target in range(state.seats):
                if target != seat:
                    areas = hack_areas(state.players[target].area, available, _accepts(state))
                    actions += [Hack(seat, target, a) for a in areas]
            if not player.hand:
                actions.append(EndTurn(seat))
            return actions
        # "planted": one card is in; plant one more, trade, or end the turn
        actions += [Plant(seat, a) for a in insertions(player.area, available, 1)]
        for card in available:
            unders: Sequence[StackName] = STACKS if card == UNSEEN else (stack_of(card),)
            for under in unders:
                for source in STACKS:
                    if source == under or state.stack(source).size:
                        actions.append(Trade(seat, card, source, under if card == UNSEEN else None))
        actions.append(EndTurn(seat))
        return actions

    def apply(self, state: MecsState, action: Action) -> _Outcome:
        if state.phase == "over":
            raise IllegalMove("mecs.game_over", f"the game is over: {state.ended}")
        if isinstance(action, CHANCE_TYPES):
            self.check_outcome(state, action)
            new, events = self._chance(state, action)
            return _advance(new, events)
        if state.phase in ("deal", "reveal", "start"):
            raise IllegalMove("mecs.setup", "wait: the cards are still being dealt")
        new, events = _HANDLERS[type(action)](state, action)
        return _advance(new, events)

    # -- chance ----------------------------------------------------------------------------

    def _request(self, state: MecsState, want: DrawFor) -> ChanceRequest[Action]:
        who = f"Player {want.seat + 1}"
        if want.source == "objectives":
            pile = state.objective_pile
            return ChanceRequest(
                "objective", "the next objective card", tuple(ShowObjective(n) for n in pile)
            )
        if want.source == "hand":
            counts = Counter(state.players[state.next_seat].hand)
            cards = sorted(counts)
            return ChanceRequest(
                "take",
                f"the card {who} takes from Player {state.next_seat + 1}'s hand",
                tuple(Take(c) for c in cards),
                tuple(counts[c] for c in cards),
            )
        outcomes, weights = _draw_outcomes(state, want)
        what = "a reveal card" if want.purpose == "reveal" else "a card"
        return ChanceRequest(
            "draw",
            f"{what} for {who} from the {want.source} stack",
            tuple(Draw(c) for c in outcomes),
            tuple(weights),
        )

    def _chance(self, state: MecsState, action: Draw | Take | ShowObjective) -> _Outcome:
        want, rest = state.queue[0], state.queue[1:]
        state = replace(state, queue=rest)
        who = f"Player {want.seat + 1}"
        if isinstance(action, ShowObjective):
            card = objective(action.number)
            pile = tuple(n for n in state.objective_pile if n != action.number)
            event = Event(
                "mecs.objective",
                f"New objective: the answer must be {card.text}.",
                data={"objective": action.number, "text": card.text},
            )
            state = replace(state, objective=action.number, objective_pile=pile)
            return _waiting_equations(state, (event,))
        if isinstance(action, Take):
            giver = state.next_seat
            players = list(state.players)
            players[giver] = replace(
                players[giver], hand=_without(players[giver].hand, action.card)
            )
            taker = players[state.active]
            players[state.active] = replace(taker, hand=_with(taker.hand, action.card))
            event = Event(
                "mecs.took",
                f"{who} took a card from Player {giver + 1}'s hand.",
                state.active,
                {"from": giver, "card": action.card},
            )
            return replace(state, players=tuple(players), phase="plant"), (event,)
        state = _pop_stack(state, want.source, action.card, want.purpose == "reveal")
        if want.purpose == "reveal":
            event = Event(
                "mecs.revealed",
                f"{who} shows {FACE[action.card]}.",
                want.seat,
                {"card": action.card},
            )
            return replace(state, shown=(*state.shown, (want.seat, action.card))), (event,)
        seen = action.card if state.settings.play == "virtual" else UNSEEN
        players = list(state.players)
        player = players[want.seat]
        players[want.seat] = replace(player, hand=_with(player.hand, seen))
        events: tuple[Event, ...] = ()
        if want.purpose != "deal":
            events = (
                Event(
                    "mecs.drew",
                    f"{who} drew a card from the {want.source} stack.",
                    want.seat,
                    {"stack": want.source, "card": seen},
                ),
            )
        return replace(state, players=tuple(players)), events


# -- what a seat may do (shared with the bot) -------------------------------------------------


def held_cards(state: MecsState, seat: Seat) -> dict[str, int]:
    """Each card ``seat`` may play from hand now, with how many of it: the hand itself in
    virtual play; in camera play every card that could still be in the hand."""
    hand = state.players[seat].hand
    counts = Counter(c for c in hand if c != UNSEEN)
    hidden = len(hand) - sum(counts.values())
    if hidden:
        for card, n in unseen_counts(state).items():
            if n > 0:
                counts[card] += min(n, hidden)
        counts[UNSEEN] = hidden
    return dict(counts)


def unseen_counts(state: MecsState) -> Counter[str]:
    """The cards the device has not located: the deck less every card it can see."""
    pool = Counter(state.settings.deck_counts())
    known = Counter(_all_known(state))
    pool.subtract(known)
    return +pool


def insertions(
    area: tuple[str, ...], available: Mapping[str, int], most: int
) -> list[tuple[str, ...]]:
    """Every area reached by inserting 1..``most`` (1 or 2) available cards anywhere in
    ``area`` without moving its cards (``"?"`` is not a card to plant)."""
    cards = sorted(c for c, n in available.items() if n > 0 and c != UNSEEN)
    limit = sum(n for c, n in available.items() if c == UNSEEN) or None
    out: dict[tuple[str, ...], None] = {}  # insertion-ordered, without repeats
    for c in cards:
        for g in range(len(area) + 1):
            if g and area[g - 1] == c:
                continue  # the same area as inserting before that card
            one = (*area[:g], c, *area[g:])
            out[one] = None
            if most < 2 or limit == 1:
                continue
            for c2 in cards:
                if c2 == c and available[c] < 2:
                    continue
                for g2 in range(g + 1, len(one) + 1):
                    if g2 - 1 == g or one[g2 - 1] != c2:
                        out[(*one[:g2], c2, *one[g2:])] = None
    return list(out)


def hack_areas(
    area: tuple[str, ...],
    available: Mapping[str, int],
    accepts: Callable[[Verdict], bool] | None = None,
) -> list[tuple[str, ...]]:
    """Every valid equation (MECS-5) made by inserting 1 or 2 available cards into
    ``area`` without moving its cards; ``accepts`` filters verdicts (challenge objective).

    A gap whose neighbours can never stand side by side must receive a card, so an area
    with more than two such gaps cannot be hacked, and the search only tries positions
    that mend every one of them."""
    k = len(area)
    bad = bad_gaps(area)
    if len(bad) > 2:
        return []
    cards = sorted(c for c, n in available.items() if n > 0 and c != UNSEEN)
    hidden = sum(n for c, n in available.items() if c == UNSEEN)
    most = 1 if hidden == 1 else 2
    brackets = area.count("LP") - area.count("RP")
    if abs(brackets) > most:
        return []
    need_eq = "EQ" not in area
    found: set[tuple[str, ...]] = set()

    def fits(gap: int, card: str) -> bool:
        left = area[gap - 1] if gap > 0 else None
        right = area[gap] if gap < k else None
        return may_follow(left, card) and may_follow(card, right)

    def consider(seq: tuple[str, ...], added: tuple[str, ...]) -> None:
        if need_eq and "EQ" not in added:
            return
        if added.count("LP") - added.count("RP") != -brackets:
            return
        if seq in found:
            return
        verdict = evaluate(seq)
        if verdict.valid and (accepts is None or accepts(verdict)):
            found.add(seq)

    if len(bad) <= 1:
        for gap in bad or range(k + 1):
            for c in cards:
                if fits(gap, c):
                    consider((*area[:gap], c, *area[gap:]), (c,))
    if most < 2:
        return sorted(found)
    for g1 in range(k + 1):
        for g2 in range(g1, k + 1):
            if any(b != g1 and b != g2 for b in bad):
                continue
            if g1 == g2:
                left = area[g1 - 1] if g1 > 0 else None
                right = area[g1] if g1 < k else None
                for c1 in cards:
                    if not may_follow(left, c1):
                        continue
                    for c2 in cards:
                        if c1 == c2 and available[c1] < 2:
                            continue
                        if may_follow(c1, c2) and may_follow(c2, right):
                            consider((*area[:g1], c1, c2, *area[g1:]), (c1, c2))
                continue
            firsts = [c for c in cards if fits(g1, c)]
            seconds = [c for c in cards if fits(g2, c)]
            for c1 in firsts:
                for c2 in seconds:
                    if c1 == c2 and available[c1] < 2:
                        continue
                    seq = (*area[:g1], c1, *area[g1:g2], c2, *area[g2:])
                    consider(seq, (c1, c2))
    return sorted(found)


def may_trade(state: MecsState) -> bool:
    """Whether the active player may trade now: only after planting exactly 1 card
    (MECS-4)."""
    return state.phase == "planted" and state.planted == 1


def trade_sources(state: MecsState, card: str, under: StackName | None = None) -> list[StackName]:
    """The stacks a trade of ``card`` may draw the new card from (MECS-4): one with cards
    left, or the one the card goes under (``under`` for an unseen card, ``"?"``)."""
    if card != UNSEEN:
        under = stack_of(card)
    return [s for s in STACKS if state.stack(s).size or s == under]


def may_end_turn(state: MecsState) -> bool:
    """Whether the active player may end the turn now: after planting, or with no card in
    hand to plant (MECS-4)."""
    return state.phase == "planted" or (
        state.phase == "plant" and not state.players[state.active].hand
    )


def meets_objective(state: MecsState, verdict: Verdict) -> bool:
    """Normal mode: every valid equation completes. Challenge mode: only one whose answer
    meets the objective shown (MECS-6)."""
    if not verdict.valid or verdict.answer is None:
        return False
    if state.settings.mode == "normal":
        return True
    return state.objective is not None and objective(state.objective).met_by(verdict.answer)


def is_subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    """Whether ``long`` holds ``short``'s cards in the same order (with others between)."""
    it = iter(long)
    return all(any(card == other for other in it) for card in short)


def interpret(state: MecsState, area_of: Seat, reads: tuple[str, ...]) -> Action | None:
    """What an observation of seat ``area_of``'s area means: a ``Reorder`` (same cards),
    a ``Plant`` (the active player's own area gained cards) or a ``Hack`` (another area
    gained cards); ``None`` when the camera still sees an equation being flipped.
    Raises ``IllegalMove`` when a card left the area (MECS-4)."""
    _check_seat(state, area_of)
    _check_area_cards(reads)
    player = state.players[area_of]
    if not player.area and player.flipping and _contains(player.flipping, reads):
        return None
    before, after = Counter(player.area), Counter(reads)
    gone = before - after
    if gone:
        raise IllegalMove(
            "mecs.take_back",
            f"{_faces(gone.elements())} left Player {area_of + 1}'s equation area: "
            "a card cannot be taken back into a hand (MECS-4)",
        )
    if before == after:
        return Reorder(area_of, reads)
    if area_of == state.active:
        return Plant(area_of, reads)
    return Hack(state.active, area_of, reads)


@dataclass(frozen=True)
class Fix:
    """A wrong reading of an area set right (:func:`fix_reading`): the match played again
    with it, how many later moves no longer fit and were ``dropped``, and whether any
    seat's ``coins`` came out otherwise."""

    match: Match[MecsSettings, MecsState, Action]
    dropped: int
    coins: bool

    @property
    def takes_back(self) -> bool:
        """The fix takes back what the table acted on (a later move, coins won or lost)."""
        return bool(self.dropped or self.coins)


def fix_reading(
    match: Match[MecsSettings, MecsState, Action], area_of: Seat, reads: tuple[str, ...]
) -> Fix:
    """``match`` played again from the start with the last move that set seat
    ``area_of``'s area reading ``reads`` instead, and the moves after it while they still
    fit (a move that no longer does is dropped, with all after it). Raises the engine's
    refusal of the fixed reading itself, or ``IllegalMove`` ("mecs.take_back") when no
    move set that area."""
    history = list(match.history)
    owned = [i for i, action in enumerate(history) if area_owner(action) == area_of]
    if not owned:
        raise IllegalMove("mecs.take_back", "no move set this area")
    history[owned[-1]] = Observe(area_of, reads)
    fixed = Match(match.game, match.settings, match.seats, seed=match.seed)
    for n, action in enumerate(history):
        try:
            fixed.apply(action)
        except TabletopError:
            if n <= owned[-1]:  # the reading itself is refused
                raise
            break
    coins = [p.coins for p in fixed.state.players] != [p.coins for p in match.state.players]
    return Fix(fixed, len(history) - len(fixed.history), coins)


# -- the ``tabletop check`` answer ------------------------------------------------------------


def check(data: Any) -> dict[str, Any]:
    """``tabletop check mecs``: ``{"cards": [...]}`` (codes or ``MT1:MECS:`` payloads) ->
    ``valid``, ``answer`` (exact text or null), ``coins`` (0 when invalid), ``equation``
    (as read), and ``reason`` when invalid. With ``"objective": "OBJ1"`` (or 1), also
    ``objective`` = ``{"number", "text", "met"}``. ``BadInput`` for input that is not
    even a card sequence (unknown card, an objective card among the cards, wrong shape)."""
    if not isinstance(data, dict):
        raise BadInput(
            "mecs.shape", 'the input must be a JSON object like {"cards": ["9", "X", "7"]}'
        )
    unknown = set(data) - {"cards", "objective", "deck"}
    if unknown:
        raise BadInput("mecs.shape", f"unknown field {sorted(unknown)[0]!r}")
    cards = data.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise BadInput("mecs.shape", '\'cards\' must be a list of card codes such as "7" or "EQ"')
    deck = data.get("deck", "advanced")
    if deck not in DECKS:
        raise BadInput("mecs.deck", f"'deck' must be 'beginners' or 'advanced', not {deck!r}")
    codes = [card_code(c) for c in cards]
    for i, code in enumerate(codes):
        if code in OBJECTIVE_CODES:
            raise BadInput(
                "mecs.objective_card",
                f"card {i + 1}: {code} is an objective card, not part of an equation",
            )
    check_deck_counts(codes, deck)
    verdict = evaluate(codes)
    out: dict[str, Any] = {
        "valid": verdict.valid,
        "answer": verdict.answer_text,
        "coins": verdict.coins,
        "equation": verdict.text,
    }
    if not verdict.valid:
        out["reason"] = verdict.reason
    if "objective" in data:
        card = objective(_objective_number(data["objective"]))
        met = verdict.answer is not None and card.met_by(verdict.answer)
        out["objective"] = {"number": card.number, "text": card.text, "met": met}
    return out


def check_deck_counts(codes: Sequence[str], deck: str) -> None:
    """MECS-11: ``BadInput`` (``mecs.deck_count``) for cards the deck cannot hold: more
    than ten of a digit or of a blue symbol, twenty ``=``, five of a green card, or any
    green card in the beginners' deck."""
    counts = dict(DECKS[deck])
    for code, count in sorted(Counter(codes).items(), key=lambda item: -item[1]):
        if code not in FACE:
            continue  # not a play card at all: the evaluator says which card is wrong
        if code not in counts:
            raise BadInput(
                "mecs.deck_count",
                f"the beginners' deck has no '{FACE[code]}' card (MECS-11): "
                "green cards are for the advanced deck",
            )
        if count > counts[code]:
            raise BadInput(
                "mecs.deck_count",
                f"the deck has only {counts[code]} '{FACE[code]}' cards, not {count} (MECS-11)",
            )


def _objective_number(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        code = card_code(value)
        if code in OBJECTIVE_CODES:
            return int(code[3:])
    raise BadInput("mecs.objective", f"'objective' must be OBJ1..OBJ20 or 1..20, not {value!r}")


# -- private helpers: the moves ---------------------------------------------------------------


def _plant(state: MecsState, action: Plant) -> _Outcome:
    seat = action.seat
    _check_seat(state, seat)
    _check_turn(state, seat, "plant")
    if state.phase not in ("plant", "planted"):
        raise IllegalMove("mecs.turn_over", "your turn is over: plant again on your next turn")
    area = tuple(action.area)
    _check_area_cards(area)
    player = state.players[seat]
    new = _new_cards(player.area, area, seat)
    if not new:
        raise IllegalMove("mecs.plant_none", "plant 1 or 2 cards from your hand (MECS-4)")
    room = 2 - state.planted
    if len(new) > room:
        already = f"you have planted {state.planted} this turn: " if state.planted else ""
        raise IllegalMove("mecs.plant_two", f"{already}plant at most 2 cards in a turn (MECS-4)")
    hand = _play_from_hand(state, seat, new)
    player = replace(player, hand=hand, area=area, flipping=())
    state = _set_player(state, seat, player)
    state = replace(state, planted=state.planted + len(new), phase="planted")
    event = Event(
        "mecs.planted",
        f"Player {seat + 1} planted {_faces(new)}: the area reads {render(area) or 'nothing'}.",
        seat,
        {"cards": list(new), "area": list(area)},
    )
    state, events = _settle_area(state, seat, (event,))
    if state.phase != "over" and state.planted >= 2:
        state = replace(state, phase="refill")
    return state, events


def _hack(state: MecsState, action: Hack) -> _Outcome:
    seat, target = action.seat, action.target
    _check_seat(state, seat)
    _check_seat(state, target)
    _check_turn(state, seat, "hack")
    if state.phase != "plant":
        if state.phase == "planted":
            raise IllegalMove(
                "mecs.hack_after_plant", "hack instead of planting, not after it (MECS-5)"
            )
        raise IllegalMove("mecs.turn_over", "your turn is over: hack on your next turn")
    if target == seat:
        raise IllegalMove(
            "mecs.hack_own", "hack another player's area: plant in your own area (MECS-5)"
        )
    area = tuple(action.area)
    _check_area_cards(area)
    before = state.players[target].area
    gone = Counter(before) - Counter(area)
    if gone:
        raise IllegalMove(
            "mecs.take_back",
            f"{_faces(gone.elements())} left Player {target + 1}'s area: a hack only adds "
            "cards, it never takes any (MECS-5)",
        )
    added = len(area) - len(before)
    if not 1 <= added <= 2:
        raise IllegalMove("mecs.hack_two", f"a hack adds 1 or 2 cards, not {added} (MECS-5)")
    if not is_subsequence(before, area):
        raise IllegalMove(
            "mecs.hack_moves",
            f"a hack cannot move the cards already in Player {target + 1}'s area: it reads "
            f"{render(before)} and must keep that order (MECS-5)",
        )
    new = tuple((Counter(area) - Counter(before)).elements())
    hand = _play_from_hand(state, seat, new)
    verdict = evaluate(area)
    if not verdict.valid:
        raise IllegalMove(
            "mecs.hack_invalid",
            f"a hack must make a valid equation at once (MECS-5): {verdict.reason}",
        )
    if not meets_objective(state, verdict):
        card = objective(state.objective or 1)
        raise IllegalMove(
            "mecs.hack_objective",
            f"{verdict.text} is valid but {verdict.answer_text} is not {card.text}: "
            "a hack must complete the objective (MECS-5, MECS-6)",
        )
    state = _set_player(state, seat, replace(state.players[seat], hand=hand))
    state = _set_player(state, target, replace(state.players[target], area=area))
    event = Event(
        "mecs.hacked",
        f"Player {seat + 1} hacked Player {target + 1}'s equation with {_faces(new)}!",
        seat,
        {"target": target, "cards": list(new), "area": list(area)},
    )
    state, events = _complete(state, target, seat, verdict, (event,))
    if state.phase != "over":
        state = replace(state, phase="refill")
    return state, events


def _trade(state: MecsState, action: Trade) -> _Outcome:
    seat = action.seat
    _check_seat(state, seat)
    _check_turn(state, seat, "trade")
    if not may_trade(state):
        raise IllegalMove(
            "mecs.trade_needs_one", "you may trade only after planting exactly 1 card (MECS-4)"
        )
    if action.draw_from not in STACKS or (action.under is not None and action.under not in STACKS):
        raise IllegalMove("mecs.no_such_stack", "the stacks are numbers and symbols")
    card = action.card
    if card == UNSEEN:
        if action.under is None:
            raise IllegalMove(
                "mecs.trade_under",
                "say which stack the unseen card went under (numbers or symbols)",
            )
        under = action.under
        if UNSEEN not in state.players[seat].hand:
            raise IllegalMove(
                "mecs.not_in_hand", f"name the card Player {seat + 1} trades from the hand"
            )
        hand = _without(state.players[seat].hand, UNSEEN)
    else:
        if card not in FACE:
            raise BadInput("mecs.unknown_card", f"{card!r} is not an M.E.C.S. play card")
        under = stack_of(card)
        if action.under is not None and action.under != under:
            raise IllegalMove(
                "mecs.trade_under", f"a {FACE[card]} card goes back under the {under} stack"
            )
        hand = _play_from_hand(state, seat, (card,))
    stack = state.stack(under)
    state = _set_stack(state, under, replace(stack, bottom=(*stack.bottom, card)))
    state = _set_player(state, seat, replace(state.players[seat], hand=hand))
    state = replace(
        state, phase="refill", queue=(*state.queue, DrawFor(seat, action.draw_from, "trade"))
    )
    shown = FACE.get(card, "a card") if state.settings.play == "virtual" else "a card"
    event = Event(
        "mecs.traded",
        f"Player {seat + 1} put {shown} under the {under} stack and draws from the "
        f"{action.draw_from} stack.",
        seat,
        {"card": card, "under": under, "draw_from": action.draw_from},
    )
    return state, (event,)


def _end_turn(state: MecsState, action: EndTurn) -> _Outcome:
    seat = action.seat
    _check_seat(state, seat)
    _check_turn(state, seat, "end the turn")
    if not may_end_turn(state) and state.phase == "plant":
        raise IllegalMove(
            "mecs.plant_first", "plant at least 1 card (or hack) before ending your turn (MECS-4)"
        )
    if not may_end_turn(state):
        raise IllegalMove("mecs.turn_over", "your turn is already over")
    text = "passes: no card in hand" if state.phase == "plant" else "ends the turn"
    passed = {"passed": state.phase == "plant"}
    event = Event("mecs.turn_ended", f"Player {seat + 1} {text}.", seat, passed)
    return replace(state, phase="refill"), (event,)


def _refill(state: MecsState, action: Refill) -> _Outcome:
    seat = action.seat
    _check_seat(state, seat)
    if state.queue:
        raise IllegalMove("mecs.wait", "wait: a card is being drawn")
    if action.stack not in STACKS:
        raise IllegalMove("mecs.no_such_stack", "the stacks are numbers and symbols")
    if len(state.players[seat].hand) >= HAND_SIZE:
        raise IllegalMove(
            "mecs.hand_full", f"Player {seat + 1} already holds {HAND_SIZE} cards (MECS-4)"
        )
    if not state.stack(action.stack).size:
        raise IllegalMove("mecs.stack_empty", f"the {action.stack} stack is empty")
    return replace(state, queue=(DrawFor(seat, action.stack, "refill"),)), ()


def _reorder(state: MecsState, action: Reorder) -> _Outcome:
    seat = action.seat
    _check_seat(state, seat)
    area = tuple(action.area)
    _check_area_cards(area)
    player = state.players[seat]
    new = _new_cards(player.area, area, seat)
    if new:
        raise IllegalMove(
            "mecs.reorder_adds",
            f"{_faces(new)} is new: reordering only moves the cards already there; "
            "plant new cards on your turn (MECS-4)",
        )
    state = _set_player(state, seat, replace(player, area=area, flipping=()))
    events: tuple[Event, ...] = ()
    if area != player.area:
        events = (
            Event(
                "mecs.reordered",
                f"Player {seat + 1} moved cards: the area reads {render(area)}.",
                seat,
                {"area": list(area)},
            ),
        )
    return _settle_area(state, seat, events)


def _observe(state: MecsState, action: Observe) -> _Outcome:
    reads = tuple(card_code(c) for c in action.reads)
    meant = interpret(state, action.area_of, reads)
    if meant is None:  # the camera still sees part of an equation being flipped
        player = state.players[action.area_of]
        return _set_player(state, action.area_of, replace(player, flipping=reads)), ()
    if isinstance(meant, Reorder):
        if reads == state.players[action.area_of].area:
            return state, ()
        return _reorder(state, meant)
    if isinstance(meant, Plant):
        return _plant(state, meant)
    assert isinstance(meant, Hack)
    if state.phase not in ("take", "plant", "planted"):
        raise IllegalMove(
            "mecs.not_your_turn",
            f"cards appeared in Player {meant.target + 1}'s area, but only the active player "
            "may add cards to another area, by hacking instead of planting (MECS-5)",
        )
    return _hack(state, meant)


_HANDLERS: dict[type[Any], Callable[[MecsState, Any], _Outcome]] = {
    Plant: _plant,
    Hack: _hack,
    Trade: _trade,
    EndTurn: _end_turn,
    Refill: _refill,
    Reorder: _reorder,
    Observe: _observe,
}


# -- private helpers: completing, advancing ---------------------------------------------------


def _settle_area(state: MecsState, seat: Seat, events: tuple[Event, ...]) -> _Outcome:
    """An area that changed: complete it if it is a valid equation that scores now."""
    verdict = evaluate(state.players[seat].area)
    if not verdict.valid:
        return state, events
    if not meets_objective(state, verdict):
        card = objective(state.objective) if state.objective else None
        goal = f"the objective is {card.text}" if card else "wait for the objective card"
        missed = Event(
            "mecs.objective_missed",
            f"{verdict.text} is right, but {verdict.answer_text} does not meet the objective "
            f"({goal}): the cards stay.",
            seat,
            {"answer": verdict.answer_text, "objective": state.objective},
        )
        return state, (*events, missed)
    return _complete(state, seat, seat, verdict, events)


def _complete(
    state: MecsState, owner: Seat, winner: Seat, verdict: Verdict, events: tuple[Event, ...]
) -> _Outcome:
    """Flip a completed equation into ``winner``'s coins (MECS-3) and see if that ends
    the game or meets the objective (MECS-6)."""
    area = state.players[owner].area
    flipping = area if state.settings.play == "camera" else ()
    state = _set_player(state, owner, replace(state.players[owner], area=(), flipping=flipping))
    gainer = state.players[winner]
    state = _set_player(state, winner, replace(gainer, coin_cards=gainer.coin_cards + area))
    coins = verdict.coins
    whose = "" if owner == winner else f" from Player {owner + 1}'s area"
    done = Event(
        "mecs.completed",
        f"{verdict.text} is right! Player {winner + 1} flips {len(area)} cards{whose} "
        f"and wins {coins} coins (now {state.coins(winner)}).",
        winner,
        {
            "area_of": owner,
            "cards": list(area),
            "answer": verdict.answer_text,
            "coins": coins,
            "total": state.coins(winner),
        },
    )
    events = (*events, done)
    s = state.settings
    if s.mode == "normal":
        if state.coins(winner) >= s.target_coins:
            state = _finish(state, f"Player {winner + 1} has {state.coins(winner)} coins")
        return state, events
    assert state.objective is not None
    met = (*state.met, state.objective)
    state = replace(state, met=met, objective=None)
    events = (
        *events,
        Event(
            "mecs.objective_met",
            f"Objective {len(met)} of {s.objectives} is met.",
            winner,
            {"objective": met[-1], "met": len(met)},
        ),
    )
    if len(met) >= s.objectives:
        return _finish(state, f"all {s.objectives} objectives are met"), events
    return replace(state, queue=(*state.queue, DrawFor(winner, "objectives", "objective"))), events


def _waiting_equations(state: MecsState, events: tuple[Event, ...]) -> _Outcome:
    """MECS-9: a new objective is shown; every area already holding a valid equation is
    checked against it at once, in turn order from the player whose turn is next (the
    active player's own turn when it has not begun), and the first that meets it is
    completed. One completion per objective: the others keep their cards."""
    start = state.active if state.phase == "start" else state.next_seat
    for k in range(state.seats):
        seat = (start + k) % state.seats
        area = state.players[seat].area
        verdict = evaluate(area)
        if not area or not verdict.valid or not meets_objective(state, verdict):
            continue
        assert state.objective is not None
        card = objective(state.objective)
        waiting = Event(
            "mecs.objective_waiting",
            f"Player {seat + 1}'s area already shows {verdict.text}, and "
            f"{verdict.answer_text} is {card.text}: it counts at once (MECS-9).",
            seat,
            {"answer": verdict.answer_text, "objective": state.objective, "equation": verdict.text},
        )
        return _complete(state, seat, seat, verdict, (*events, waiting))
    return state, events


def _finish(state: MecsState, reason: str) -> MecsState:
    return replace(state, phase="over", queue=(), ended=reason)


def _advance(state: MecsState, events: tuple[Event, ...]) -> _Outcome:
    """Move the game on when nobody has to decide: after the deal comes the reveal, after
    the reveal the first turn, after the refills the next turn."""
    while state.phase != "over" and not state.queue:
        if state.phase == "deal":
            seats = tuple(range(state.seats))
            queue = tuple(DrawFor(s, "numbers", "reveal") for s in seats)
            state = replace(state, phase="reveal", queue=queue)
        elif state.phase == "reveal":
            state, more = _settle_reveal(state)
            events = (*events, *more)
        elif state.phase == "start":
            state, more = _start_turn(state, state.active)
            events = (*events, *more)
        elif state.phase == "refill" and not _needs_refill(state):
            state, more = _start_turn(state, state.next_seat)
            events = (*events, *more)
        else:
            break
    return state, events


def _settle_reveal(state: MecsState) -> _Outcome:
    """The largest reveal starts; the cards go under the number stack (rule book)."""
    best = max(int(card) for _, card in state.shown)
    tied = tuple(seat for seat, card in state.shown if int(card) == best)
    stack = state.numbers
    bottom = (*stack.bottom, *(card for _, card in state.shown))
    state = replace(state, numbers=replace(stack, bottom=bottom), shown=())
    if len(tied) > 1 and state.settings.reveal_ties == "reveal_again":
        names = " and ".join(f"Player {s + 1}" for s in tied)
        text = f"{names} tie with {best}: reveal again."
        event = Event("mecs.reveal_tie", text, data={"tied": list(tied), "best": best})
        return replace(state, queue=tuple(DrawFor(s, "numbers", "reveal") for s in tied)), (event,)
    first = tied[0]
    event = Event(
        "mecs.first_player", f"Player {first + 1} has the largest number and starts.", first
    )
    state = replace(state, active=first, phase="start")
    if state.settings.mode == "challenge":
        state = replace(state, queue=(DrawFor(first, "objectives", "objective"),))
    return state, (event,)


def _start_turn(state: MecsState, seat: Seat) -> _Outcome:
    if not state.numbers.size and not state.symbols.size and not any(p.hand for p in state.players):
        return _finish(state, "the cards ran out"), (
            Event("mecs.cards_out", "No cards are left to play: the game is over."),
        )
    player = state.players[seat]
    state = _set_player(state, seat, replace(player, turns=player.turns + 1))
    state = replace(state, active=seat, planted=0, turn=state.turn + 1)
    event = Event("mecs.turn", f"Player {seat + 1}'s turn.", seat, {"turn": state.turn})
    if state.players[state.next_seat].hand:
        return replace(state, phase="take", queue=(DrawFor(seat, "hand", "take"),)), (event,)
    return replace(state, phase="plant"), (event,)


def _needs_refill(state: MecsState) -> list[Seat]:
    if not state.numbers.size and not state.symbols.size:
        return []
    return [s for s, p in enumerate(state.players) if len(p.hand) < HAND_SIZE]


# -- private helpers: cards -------------------------------------------------------------------


def _draw_outcomes(state: MecsState, want: DrawFor) -> tuple[list[str], list[int]]:
    stack = state.stack(want.source)
    top = Counter(stack.cards) if stack.cards else Counter(stack.bottom[:1])
    if want.purpose == "reveal" and UNSEEN in top:
        # camera play: nobody knew the card, but a reveal is shown to everybody
        pool = unseen_counts(state)
        digits = [d for d in DIGITS if pool[d] > 0] or list(DIGITS)
        return digits, [max(pool[d], 1) for d in digits]
    cards = sorted(top)
    return cards, [top[c] for c in cards]


def _pop_stack(state: MecsState, source: str, card: str, reveal: bool) -> MecsState:
    stack = state.stack(source)
    if stack.cards:
        taken = card if card in stack.cards else UNSEEN
        if not reveal and taken == UNSEEN and card != UNSEEN:
            raise ImpossibleOutcome("mecs.bad_draw", f"{card!r} is not in the {source} stack")
        stack = replace(stack, cards=_without(stack.cards, taken))
    else:
        stack = replace(stack, bottom=stack.bottom[1:])
    return _set_stack(state, source, stack)


def _all_known(state: MecsState) -> Iterable[str]:
    for stack in (state.numbers, state.symbols):
        yield from (c for c in stack.cards if c != UNSEEN)
        yield from (c for c in stack.bottom if c != UNSEEN)
    for player in state.players:
        yield from (c for c in player.hand if c != UNSEEN)
        yield from player.area
        yield from player.coin_cards
    yield from (card for _, card in state.shown)


def _play_from_hand(state: MecsState, seat: Seat, cards: Sequence[str]) -> tuple[str, ...]:
    """The hand after ``cards`` leave it; ``IllegalMove`` unless they could be in it."""
    hand = list(state.players[seat].hand)
    pool: Counter[str] | None = None
    for card in cards:
        if card in hand:
            hand.remove(card)
            continue
        if UNSEEN not in hand:
            if state.settings.play == "camera" or not state.players[seat].hand:
                raise IllegalMove(
                    "mecs.not_in_hand",
                    f"Player {seat + 1} has {len(state.players[seat].hand)} cards in hand, "
                    f"too few to play {_faces(cards)}",
                )
            raise IllegalMove(
                "mecs.not_in_hand", f"{FACE.get(card, card)} is not in Player {seat + 1}'s hand"
            )
        if pool is None:
            pool = unseen_counts(state)
        if pool[card] <= 0:
            total = state.settings.deck_counts().get(card, 0)
            raise IllegalMove(
                "mecs.not_in_hand",
                f"all {total} {FACE.get(card, card)} cards are already on the table: "
                f"this one cannot come from Player {seat + 1}'s hand",
            )
        pool[card] -= 1
        hand.remove(UNSEEN)
    return tuple(hand)


def _new_cards(before: tuple[str, ...], after: tuple[str, ...], seat: Seat) -> tuple[str, ...]:
    """The cards ``after`` adds to ``before``; ``IllegalMove`` if any card left (MECS-4)."""
    gone = Counter(before) - Counter(after)
    if gone:
        raise IllegalMove(
            "mecs.take_back",
            f"{_faces(gone.elements())} left Player {seat + 1}'s equation area: a card "
            "cannot be taken back into a hand (MECS-4)",
        )
    return tuple((Counter(after) - Counter(before)).elements())


def _check_area_cards(cards: Sequence[str]) -> None:
    for i, card in enumerate(cards):
        if card in OBJECTIVE_CODES:
            raise IllegalMove(
                "mecs.objective_card", f"{card} is an objective card: it never goes in an area"
            )
        if card not in FACE:
            raise BadInput(
                "mecs.unknown_card", f"card {i + 1}: {card!r} is not an M.E.C.S. play card"
            )


def _check_seat(state: MecsState, seat: Seat) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalMove("mecs.no_such_seat", f"there is no seat {seat!r} in this game")


def _check_turn(state: MecsState, seat: Seat, what: str) -> None:
    if seat != state.active:
        raise IllegalMove(
            "mecs.not_your_turn", f"it is Player {state.active + 1}'s turn: {what} on your own turn"
        )
    if state.queue:
        want = state.queue[0]
        if want.purpose == "take":
            raise IllegalMove(
                "mecs.take_first", "first take a card from the next player's hand (MECS-4)"
            )
        raise IllegalMove("mecs.wait", "wait: a card is being drawn")


def _accepts(state: MecsState) -> Callable[[Verdict], bool]:
    return lambda verdict: meets_objective(state, verdict)


def _contains(big: Sequence[str], small: Sequence[str]) -> bool:
    return not (Counter(small) - Counter(big))


def _with(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted((*hand, card)))


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _set_player(state: MecsState, seat: Seat, player: Player) -> MecsState:
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def _set_stack(state: MecsState, name: str, stack: Stack) -> MecsState:
    return replace(state, numbers=stack) if name == "numbers" else replace(state, symbols=stack)


def _faces(cards: Iterable[str]) -> str:
    return " ".join(FACE.get(c, c) for c in cards)


__all__ = [
    "ACTION_TYPES",
    "ALIASES",
    "DECKS",
    "DECK_NAMES",
    "HAND_SIZE",
    "MODES",
    "OBJECTIVES",
    "STACKS",
    "UNSEEN",
    "Action",
    "Draw",
    "DrawFor",
    "EndTurn",
    "Fix",
    "Hack",
    "Mecs",
    "MecsSettings",
    "MecsState",
    "Mode",
    "Objective",
    "Observe",
    "Plant",
    "Player",
    "Refill",
    "Reorder",
    "ShowObjective",
    "Stack",
    "StackName",
    "Take",
    "Trade",
    "area_owner",
    "card_code",
    "check",
    "fix_reading",
    "hack_areas",
    "held_cards",
    "insertions",
    "interpret",
    "is_subsequence",
    "is_valid",
    "may_end_turn",
    "may_trade",
    "mecs_deck",
    "mecs_mode",
    "mecs_stack",
    "meets_objective",
    "objective",
    "read_card",
    "stack_of",
    "trade_sources",
    "unseen_counts",
]
