"""Math Attack!: add to your own number line and subtract from your opponent's.

Rule book: ``shared/seeds/002_84325dda6fc77e60.txt``; rulings ATK-1..ATK-6.

Two players take turns. A turn is: play exactly one card on either number line, then
draw one from the stack if it has any (ATK-6). There is no discard pile: every card is
in a hand, in the stack or on a number line. A ``=`` gives the other player one last
turn (ATK-5). A number line's total is worked out again from its cards every time
(ATK-2), so a cancelled card simply stops counting.

Chance comes from outside: in virtual play every dealt and drawn card is a chance
outcome (each card still in the stack equally likely), and the engine knows both hands.
In camera play (``hidden_hands``) the device sees only the number lines: a hand is a
count, the stack is a count, and a played card is legal if it can still be in that hand,
that is, if not every copy of it is already on the number lines (DESIGN.md).

Sections: constants, settings, state, actions, number lines, the engine, the seat view,
the ``tabletop check`` scorer, private helpers.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from tabletop.engine import places_from_scores
from tabletop.engine.errors import BadInput, IllegalMove, ImpossibleOutcome
from tabletop.engine.protocol import ChanceRequest, Event, Game, Pending, Result, Seat
from tabletop.engine.words import plural

# -- constants -------------------------------------------------------------------------

SEATS = 2
HAND_SIZE = 5
PAYLOAD_PREFIX = "MT1:ATK:"

END, CANCEL, FLIP, BLOCK = "END", "CANCEL", "FLIP", "BLOCK"
# Multipliers act on |total| at that point (ATK-2): half (rounded down), n, double.
MULTIPLIER_FACTORS = {"H": Fraction(1, 2), "N": Fraction(1), "D": Fraction(2)}
BLACK = (*(f"+{n}" for n in range(1, 11)), "+H", "+N", "+D")
RED = (*(f"-{n}" for n in range(1, 11)), "-H", "-N", "-D")
GREEN = (END, CANCEL, FLIP, BLOCK)
CARDS = (*BLACK, *RED, *GREEN)  # every distinct card, in pack order (ATK-1)
COPIES: dict[str, int] = {card: 1 if card[1:] in MULTIPLIER_FACTORS else 2 for card in CARDS}
PACK_SIZE = sum(COPIES.values())  # 54
CARD_ORDER = {card: i for i, card in enumerate(CARDS)}

CARD_NAMES = {
    **{card: card for card in CARDS},
    "+H": "+|n÷2|",
    "+N": "+|n|",
    "+D": "+|n×2|",
    "-H": "-|n÷2|",
    "-N": "-|n|",
    "-D": "-|n×2|",
    END: "=",
    CANCEL: "cancel",
    FLIP: "+/-",
    BLOCK: "block",
}

Colour = Literal["black", "red", "green"]
Phase = Literal["deal", "play", "draw", "over"]


def colour(card: str) -> Colour:
    """Black cards push a total up, red cards push it down, green cards are special."""
    if card in GREEN:
        return "green"
    return "black" if card.startswith("+") else "red"


def card_name(card: str) -> str:
    """The card as printed: ``+5``, ``-|n×2|``, ``=``, ``cancel``, ``+/-``, ``block``."""
    return CARD_NAMES.get(card, card)


def parse_card(text: str) -> str | None:
    """A card code from a code (``+5``) or a QR payload (``MT1:ATK:+5``); None if unknown."""
    code = text[len(PAYLOAD_PREFIX) :] if text.startswith(PAYLOAD_PREFIX) else text
    return code if code in COPIES else None


# -- settings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MathAttackSettings:
    """``hidden_hands``: camera play, where the device sees the number lines but not the
    hands or the stack (DESIGN.md). ``first_player``: who starts (the rule book lets the
    players decide any way they like)."""

    hidden_hands: bool = False
    first_player: Seat = 0

    def __post_init__(self) -> None:
        if self.first_player not in (0, 1):
            raise BadInput(
                "atk.option", f"first_player must be seat 0 or 1, not {self.first_player!r}"
            )


# -- state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MathAttackState:
    """Both number lines (cards in the order played), the hands (sorted in pack order;
    empty tuples when ``hidden_hands``), their sizes and the stack's size.

    ``turn`` is the seat playing now (or whose draw is awaited); ``blocked`` the line on
    which no card may be played this turn (ATK-4); ``end_by`` the seat that played the
    first ``=`` (ATK-5)."""

    settings: MathAttackSettings
    phase: Phase = "deal"
    lines: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    hand_sizes: tuple[int, int] = (0, 0)
    stack_size: int = PACK_SIZE
    turn: Seat = 0
    blocked: int | None = None
    end_by: Seat | None = None
    turns_played: int = 0

    def total(self, line: int) -> int:
        return line_total(self.lines[line])

    @property
    def totals(self) -> tuple[int, int]:
        return (self.total(0), self.total(1))

    def on_lines(self) -> Counter[str]:
        return Counter(itertools.chain(*self.lines))

    def stack(self) -> Counter[str]:
        """The stack's cards (virtual play): the pack minus the lines and both hands."""
        if self.settings.hidden_hands:
            raise ValueError("in camera play the device cannot see the stack")
        left = Counter(COPIES)
        left.subtract(self.on_lines())
        for hand in self.hands:
            left.subtract(hand)
        return +left

    def unseen(self) -> Counter[str]:
        """Cards not on a number line (in a hand or the stack)."""
        left = Counter(COPIES)
        left.subtract(self.on_lines())
        return +left


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Chance: ``card`` is dealt or drawn to ``seat`` (virtual play only)."""

    seat: Seat
    card: str


@dataclass(frozen=True)
class Play:
    """``seat`` plays ``card`` on the number line of seat ``line`` (its own or the other)."""

    seat: Seat
    card: str
    line: Seat


@dataclass(frozen=True)
class Pass:
    """``seat`` has no legal play, shows its hand (``shown``) and passes (ATK-6)."""

    seat: Seat
    shown: tuple[str, ...] = ()


Action = Draw | Play | Pass
ACTION_TYPES: tuple[type[Any], ...] = (Draw, Play, Pass)


# -- number lines ---------------------------------------------------------------------------


def card_effect(total: int, card: str) -> int:
    """The total after ``card`` (ATK-2): numbers add, multipliers add a multiple of
    |total| (half rounded down), ``+/-`` negates, the other green cards change nothing."""
    if card == FLIP:
        return -total
    if card in GREEN:
        return total
    sign = 1 if card[0] == "+" else -1
    factor = MULTIPLIER_FACTORS.get(card[1:])
    if factor is None:
        return total + sign * int(card[1:])
    return total + sign * int(abs(total) * factor)  # int() floors: the total is whole


def cancelled_positions(cards: Sequence[str]) -> tuple[int, ...]:
    """0-based positions of cancelled cards: a cancel cancels the card just before it."""
    return tuple(i - 1 for i, card in enumerate(cards) if card == CANCEL and i > 0)


def running_totals(cards: Sequence[str]) -> tuple[int, ...]:
    """The line's total after each card, skipping cancelled cards (ATK-2)."""
    cancelled = set(cancelled_positions(cards))
    out: list[int] = []
    total = 0
    for i, card in enumerate(cards):
        if i not in cancelled:
            total = card_effect(total, card)
        out.append(total)
    return tuple(out)


def line_total(cards: Sequence[str]) -> int:
    """A number line's total: 0, then each card in order, skipping cancelled ones."""
    totals = running_totals(cards)
    return totals[-1] if totals else 0


def turn_binds(state: MathAttackState) -> tuple[Event, ...]:
    """What binds the turn to come (ATK-4, ATK-5), for the seat to play: ``atk.bound``
    (``blocked``: the line that takes no card, ``line``: the one to play on) and
    ``atk.final_turn`` (after =); none when nothing does."""
    if state.phase != "play":
        return ()
    seat, blocked, binds = state.turn, state.blocked, []
    if blocked is not None:
        line = 1 - blocked
        where = "their own line" if line == seat else f"seat {line + 1}'s line"
        text = f"Seat {blocked + 1}'s line is blocked, so seat {seat + 1} must play on {where}."
        binds.append(Event("atk.bound", text, seat, {"blocked": blocked, "line": line}))
    if state.end_by is not None:
        binds.append(Event("atk.final_turn", f"This is seat {seat + 1}'s last turn!", seat))
    return tuple(binds)


def turn_words(state: MathAttackState) -> str:
    """:func:`turn_binds` in words: ``Seat 2's line is blocked, so seat 1 must play on
    their own line. This is seat 1's last turn!``; "" when nothing binds the turn."""
    return " ".join(e.text for e in turn_binds(state))


def may_cancel(cards: Sequence[str]) -> bool:
    """ATK-3: a cancel goes only on a line whose last card is black or red."""
    return bool(cards) and colour(cards[-1]) != "green"


# -- the engine ------------------------------------------------------------------------------


class MathAttack(Game[MathAttackSettings, MathAttackState, Action]):
    name = "math-attack"
    settings_type = MathAttackSettings
    state_type = MathAttackState
    action_types = ACTION_TYPES

    def new_game(self, settings: MathAttackSettings, seats: int) -> MathAttackState:
        if seats != SEATS:
            raise BadInput("atk.seats", f"Math Attack! is for 2 players, not {seats}")
        if settings.hidden_hands:
            # The players deal real cards: the device only counts them.
            return MathAttackState(
                settings,
                phase="play",
                hand_sizes=(HAND_SIZE, HAND_SIZE),
                stack_size=PACK_SIZE - SEATS * HAND_SIZE,
                turn=settings.first_player,
            )
        return MathAttackState(settings, turn=settings.first_player)

    def pending(self, state: MathAttackState) -> Pending[Action]:
        if state.phase == "over":
            return Pending()
        if state.phase == "deal":
            seat = self._deal_seat(state)
            return Pending(
                chance=self._draw_request(state, seat, f"a card dealt to seat {seat + 1}")
            )
        if state.phase == "draw":
            seat = state.turn
            return Pending(
                chance=self._draw_request(state, seat, f"a card drawn by seat {seat + 1}")
            )
        return Pending(seats=frozenset({state.turn}))

    def legal_actions(self, state: MathAttackState, seat: Seat) -> list[Action]:
        if seat not in self.pending(state).seats:
            return []
        actions: list[Action] = [
            Play(seat, card, line)
            for card in self._playable_kinds(state, seat)
            for line in (0, 1)
            if self._play_problem(state, card, line) is None
        ]
        if actions:
            return actions
        return [Pass(seat, shown) for shown in self.showable_hands(state, seat)]

    def apply(
        self, state: MathAttackState, action: Action
    ) -> tuple[MathAttackState, tuple[Event, ...]]:
        if state.phase == "over":
            raise IllegalMove("atk.game_over", "the game is over: no more cards can be played")
        if isinstance(action, Draw):
            return self._draw(state, action)
        if state.phase != "play":
            what = "dealt" if state.phase == "deal" else "drawn"
            raise IllegalMove("atk.wait_for_card", f"first a card must be {what}")
        if action.seat != state.turn:
            raise IllegalMove(
                "atk.not_your_turn",
                f"it is seat {state.turn + 1}'s turn, not seat {action.seat + 1}'s",
            )
        if isinstance(action, Play):
            return self._play(state, action)
        return self._pass(state, action)

    def result(self, state: MathAttackState) -> Result | None:
        if state.phase != "over":
            return None
        totals = state.totals
        places = places_from_scores(totals)
        if totals[0] == totals[1]:
            reason = f"draw: both number lines total {totals[0]}"
        else:
            winner = 0 if totals[0] > totals[1] else 1
            reason = f"seat {winner + 1} wins {totals[winner]} to {totals[1 - winner]}"
        return Result(tuple(Fraction(t) for t in totals), places, reason)

    # -- chance ------------------------------------------------------------------------

    def _deal_seat(self, state: MathAttackState) -> Seat:
        """Deal one card at a time, first player first."""
        first = state.settings.first_player
        other = 1 - first
        return other if state.hand_sizes[other] < state.hand_sizes[first] else first

    def _draw_request(self, state: MathAttackState, seat: Seat, what: str) -> ChanceRequest[Action]:
        stack = state.stack()
        cards = sorted(stack, key=CARD_ORDER.__getitem__)
        return ChanceRequest(
            "card", what, tuple(Draw(seat, card) for card in cards), tuple(stack[c] for c in cards)
        )

    def _draw(self, state: MathAttackState, action: Draw) -> _Outcome:
        if state.phase not in ("deal", "draw"):
            raise ImpossibleOutcome("atk.no_draw", "no card is to be dealt or drawn now")
        self.check_outcome(state, action)
        seat = action.seat
        hands = _with(state.hands, seat, _sorted((*state.hands[seat], action.card)))
        sizes = _with(state.hand_sizes, seat, state.hand_sizes[seat] + 1)
        state = replace(state, hands=hands, hand_sizes=sizes, stack_size=state.stack_size - 1)
        data = {"card": action.card, "stack": state.stack_size}
        if state.phase == "deal":
            event = Event("atk.dealt", f"Seat {seat + 1} gets a card.", seat, data)
            if min(sizes) == HAND_SIZE:
                state = replace(state, phase="play", turn=state.settings.first_player)
                start = Event(
                    "atk.start",
                    f"Everyone has {HAND_SIZE} cards. Seat {state.turn + 1} goes first!",
                    state.turn,
                )
                return state, (event, start)
            return state, (event,)
        event = Event(
            "atk.drew",
            f"Seat {seat + 1} draws a card. {_cards_left(state.stack_size)} in the stack.",
            seat,
            data,
        )
        state, more = self._end_turn(state, seat)
        return state, (event, *more)

    # -- plays ---------------------------------------------------------------------------

    def _play(self, state: MathAttackState, action: Play) -> _Outcome:
        seat, card, line = action.seat, action.card, action.line
        if card not in COPIES:
            raise IllegalMove("atk.unknown_card", f"{card!r} is not a Math Attack! card")
        if line not in (0, 1):
            raise IllegalMove(
                "atk.no_such_line", f"there are two number lines, 0 and 1, not {line!r}"
            )
        self._check_holds(state, seat, card)
        problem = self._play_problem(state, card, line)
        if problem is not None:
            raise IllegalMove(*problem)
        before = state.total(line)
        lines = _with(state.lines, line, (*state.lines[line], card))
        sizes = _with(state.hand_sizes, seat, state.hand_sizes[seat] - 1)
        hands = state.hands
        if not state.settings.hidden_hands:
            mine = list(hands[seat])
            mine.remove(card)
            hands = _with(hands, seat, tuple(mine))
        end_by = seat if card == END and state.end_by is None else state.end_by
        state = replace(
            state,
            lines=lines,
            hands=hands,
            hand_sizes=sizes,
            blocked=line if card == BLOCK else None,  # ATK-4: the newest block only
            end_by=end_by,
        )
        events = [_play_event(state, seat, card, line, before)]
        if card == END and end_by == seat:
            events.append(
                Event(
                    "atk.last_turn",
                    f"Seat {seat + 1} played =! Seat {2 - seat} gets one more turn, "
                    "then the game ends.",
                    seat,
                )
            )
        if self._last_turn_ends(state, seat) or state.stack_size == 0:
            state, more = self._end_turn(state, seat)
            return state, (*events, *more)
        if state.settings.hidden_hands:
            # The player draws a real card: the device only counts it.
            sizes = _with(state.hand_sizes, seat, state.hand_sizes[seat] + 1)
            state = replace(state, hand_sizes=sizes, stack_size=state.stack_size - 1)
            events.append(
                Event(
                    "atk.drew",
                    f"Seat {seat + 1} draws a card. {_cards_left(state.stack_size)} in the stack.",
                    seat,
                    {"stack": state.stack_size},
                )
            )
            state, more = self._end_turn(state, seat)
            return state, (*events, *more)
        return replace(state, phase="draw"), tuple(events)

    def _pass(self, state: MathAttackState, action: Pass) -> _Outcome:
        seat = action.seat
        shown = _sorted(action.shown)
        unknown = [card for card in shown if card not in COPIES]
        if unknown:
            raise IllegalMove("atk.unknown_card", f"{unknown[0]!r} is not a Math Attack! card")
        if len(shown) != state.hand_sizes[seat]:
            held = plural(state.hand_sizes[seat], "card")
            raise IllegalMove(
                "atk.show_hand", f"to pass, show your whole hand: {held}, not {len(shown)}"
            )
        if state.settings.hidden_hands:
            unseen = state.unseen()
            for card, count in Counter(shown).items():
                if count > unseen[card]:
                    raise IllegalMove(
                        "atk.card_gone",
                        f"{card_name(card)} cannot be in your hand: "
                        f"{_copies_seen(COPIES[card], card)} already on the number lines",
                    )
        elif shown != state.hands[seat]:
            raise IllegalMove("atk.show_hand", "to pass, show the cards that are in your hand")
        for card in dict.fromkeys(shown):
            for line in (0, 1):
                if self._play_problem(state, card, line) is None:
                    raise IllegalMove(
                        "atk.must_play",
                        f"you must play a card every turn: {card_name(card)} can go on "
                        f"seat {line + 1}'s number line",
                    )
        reasons = "; ".join(self._why_not(state, card) for card in dict.fromkeys(shown))
        text = (
            f"Seat {seat + 1} has no card to play ({reasons}), so they show their hand and pass."
            if shown
            else f"Seat {seat + 1} has no cards left, so they pass."
        )
        event = Event("atk.passed", text, seat, {"shown": list(shown)})
        state, more = self._end_turn(replace(state, blocked=None), seat)
        return state, (event, *more)

    def _end_turn(self, state: MathAttackState, seat: Seat) -> _Outcome:
        state = replace(state, turns_played=state.turns_played + 1)
        if self._last_turn_ends(state, seat):
            state = replace(state, phase="over", blocked=None)
            t0, t1 = state.totals
            if t0 == t1:
                text = f"The game is over! Both number lines total {t0}: it's a draw."
            else:
                w = 0 if t0 > t1 else 1
                text = (
                    f"The game is over! Seat {w + 1} has {max(t0, t1)} and seat {2 - w} "
                    f"has {min(t0, t1)}: seat {w + 1} wins!"
                )
            return state, (Event("atk.game_over", text, data={"totals": [t0, t1]}),)
        return replace(state, phase="play", turn=1 - seat), ()

    def _last_turn_ends(self, state: MathAttackState, seat: Seat) -> bool:
        """ATK-5: the turn after the first ``=`` (by the other player) is the last one."""
        return state.end_by is not None and seat != state.end_by

    # -- what a seat may do ----------------------------------------------------------------

    def _playable_kinds(self, state: MathAttackState, seat: Seat) -> list[str]:
        """The distinct cards the seat may hold: its hand, or in camera play every card
        not all of whose copies are on the number lines."""
        if not state.settings.hidden_hands:
            return list(dict.fromkeys(state.hands[seat]))
        if state.hand_sizes[seat] == 0:
            return []
        unseen = state.unseen()
        return [card for card in CARDS if unseen[card]]

    def showable_hands(self, state: MathAttackState, seat: Seat) -> list[tuple[str, ...]]:
        """Hands the seat may show to pass (ATK-6): its hand, or in camera play every hand
        of the right size made of cards that are unseen and cannot be played (a pass the
        device cannot see is possible: :meth:`legal_actions` lists plays instead)."""
        if not state.settings.hidden_hands:
            return [state.hands[seat]]
        unseen = state.unseen()
        stuck = [
            card
            for card in CARDS
            if unseen[card] and all(self._play_problem(state, card, ln) for ln in (0, 1))
        ]
        return [
            hand
            for hand in itertools.combinations_with_replacement(stuck, state.hand_sizes[seat])
            if all(hand.count(card) <= unseen[card] for card in hand)
        ]

    def _check_holds(self, state: MathAttackState, seat: Seat, card: str) -> None:
        if not state.settings.hidden_hands:
            if card not in state.hands[seat]:
                raise IllegalMove("atk.not_in_hand", f"{card_name(card)} is not in your hand")
            return
        if state.hand_sizes[seat] == 0:
            raise IllegalMove("atk.empty_hand", "you have no cards left in your hand")
        if not state.unseen()[card]:
            raise IllegalMove(
                "atk.card_gone",
                f"{card_name(card)} cannot be in your hand: "
                f"{_copies_seen(COPIES[card], card)} already on the number lines",
            )

    def _play_problem(self, state: MathAttackState, card: str, line: int) -> tuple[str, str] | None:
        """Why ``card`` cannot go on ``line`` now (code, message), or None if it can."""
        if state.blocked == line:
            return (
                "atk.blocked",
                f"seat {line + 1}'s number line is blocked this turn: play on the other one",
            )
        if card == CANCEL:
            cards = state.lines[line]
            if not cards:
                return (
                    "atk.cancel_on_empty",
                    f"cancel needs a + or - card to cancel, and seat {line + 1}'s number line "
                    "is empty",
                )
            if colour(cards[-1]) == "green":
                return (
                    "atk.cancel_on_green",
                    f"cancel only goes on a + or - card, and the last card on seat "
                    f"{line + 1}'s number line is {card_name(cards[-1])} (green)",
                )
        return None

    def _why_not(self, state: MathAttackState, card: str) -> str:
        problems = [self._play_problem(state, card, line) for line in (0, 1)]
        words = [p[1] for p in problems if p is not None]
        return f"{card_name(card)}: " + " and ".join(dict.fromkeys(words))


# -- the seat view ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MathAttackView:
    """What one seat may know: its own hand, the number lines and the counts. Bots decide
    from this, never from the full state."""

    seat: Seat
    phase: Phase
    hand: tuple[str, ...]
    hand_sizes: tuple[int, int]
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    stack_size: int
    turn: Seat
    blocked: int | None
    end_by: Seat | None

    def unseen(self) -> Counter[str]:
        """Cards this seat has not seen: the other hand and the stack, together."""
        left = Counter(COPIES)
        left.subtract(itertools.chain(*self.lines))
        left.subtract(self.hand)
        return +left


def seat_view(state: MathAttackState, seat: Seat) -> MathAttackView:
    """The state as ``seat`` sees it (virtual play: it knows its own hand)."""
    hand = () if state.settings.hidden_hands else state.hands[seat]
    return MathAttackView(
        seat=seat,
        phase=state.phase,
        hand=hand,
        hand_sizes=state.hand_sizes,
        lines=state.lines,
        stack_size=state.stack_size,
        turn=state.turn,
        blocked=state.blocked,
        end_by=state.end_by,
    )


# -- the ``tabletop check`` scorer ------------------------------------------------------------


def check(data: Any) -> dict[str, Any]:
    """Total one number line given as ``{"cards": [...]}`` (DESIGN.md): ``total``,
    ``cancelled`` (0-based positions) and ``running`` (the total after each card).
    ``BadInput`` for an unknown card or a line that breaks the rules."""
    if not isinstance(data, dict):
        raise BadInput("atk.shape", 'the input must be a JSON object like {"cards": ["+5", "-3"]}')
    unknown = sorted(set(data) - {"cards"})
    if unknown:
        raise BadInput("atk.shape", f"unknown field {unknown[0]!r}: only 'cards' is read")
    raw = data.get("cards")
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise BadInput("atk.shape", '\'cards\' must be a list of card codes such as "+5" or "FLIP"')
    cards: list[str] = []
    for i, text in enumerate(raw):
        card = parse_card(text)
        if card is None:
            raise BadInput(
                "atk.unknown_card",
                f"card {i}: {text!r} is not a Math Attack! card "
                "(+1..+10, -1..-10, +H +N +D -H -N -D, END, CANCEL, FLIP, BLOCK)",
            )
        cards.append(card)
    for card, count in Counter(cards).items():
        if count > COPIES[card]:
            copies = "one" if COPIES[card] == 1 else "two"
            raise BadInput(
                "atk.too_many",
                f"the pack has only {copies} {card_name(card)} card"
                f"{'s' if COPIES[card] > 1 else ''}, not {count}",
            )
    for i, card in enumerate(cards):
        if card != CANCEL:
            continue
        if i == 0:
            raise BadInput(
                "atk.cancel_on_empty", "card 0: cancel cannot go on an empty number line"
            )
        if colour(cards[i - 1]) == "green":
            raise BadInput(
                "atk.cancel_on_green",
                f"card {i}: cancel only goes on a + or - card, not on "
                f"{card_name(cards[i - 1])} (green)",
            )
    running = running_totals(cards)
    return {
        "total": running[-1] if running else 0,
        "cancelled": list(cancelled_positions(cards)),
        "running": list(running),
    }


# -- private helpers ---------------------------------------------------------------------------

_Outcome = tuple[MathAttackState, tuple[Event, ...]]


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: CARD_ORDER.get(c, len(CARD_ORDER))))


def _with(pair: tuple[Any, Any], index: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def _cards_left(n: int) -> str:
    return "1 card is left" if n == 1 else f"{n} cards are left"


def _copies_seen(copies: int, card: str) -> str:
    return f"the only {card_name(card)} is" if copies == 1 else f"both {card_name(card)} cards are"


def _whose(seat: Seat, line: int) -> str:
    return "their own number line" if seat == line else f"seat {line + 1}'s number line"


def _play_event(state: MathAttackState, seat: Seat, card: str, line: int, before: int) -> Event:
    after = state.total(line)
    name = card_name(card)
    where = _whose(seat, line)
    data = {"card": card, "line": line, "before": before, "total": after}
    if card == CANCEL:
        target = card_name(state.lines[line][-2])
        text = (
            f"Seat {seat + 1} plays cancel on {where}: the {target} does not count any more. "
            f"The total goes from {before} to {after}."
        )
        return Event("atk.cancelled", text, seat, {**data, "target": state.lines[line][-2]})
    if card == FLIP:
        text = f"Seat {seat + 1} plays +/- on {where}: the total flips from {before} to {after}."
        return Event("atk.flipped", text, seat, data)
    if card == BLOCK:
        text = (
            f"Seat {seat + 1} plays block on {where}: next turn, no card may be played "
            f"on seat {line + 1}'s number line."
        )
        return Event("atk.blocked", text, seat, data)
    if card == END:
        return Event("atk.end", f"Seat {seat + 1} plays = on {where}.", seat, data)
    if card[1:] in MULTIPLIER_FACTORS:
        amount = abs(after - before)
        shift = f"{card[0]}{amount}" if amount else "0"  # a zero has no sign
        text = (
            f"Seat {seat + 1} plays {name} on {where}: that is {shift}, "
            f"so the total goes from {before} to {after}."
        )
        return Event("atk.played", text, seat, {**data, "shift": shift})
    text = f"Seat {seat + 1} plays {name} on {where}: the total goes from {before} to {after}."
    return Event("atk.played", text, seat, data)


__all__ = [
    "ACTION_TYPES",
    "BLACK",
    "BLOCK",
    "CANCEL",
    "CARDS",
    "COPIES",
    "END",
    "FLIP",
    "GREEN",
    "HAND_SIZE",
    "PACK_SIZE",
    "RED",
    "Action",
    "Draw",
    "MathAttack",
    "MathAttackSettings",
    "MathAttackState",
    "MathAttackView",
    "Pass",
    "Play",
    "cancelled_positions",
    "card_effect",
    "card_name",
    "check",
    "colour",
    "line_total",
    "may_cancel",
    "parse_card",
    "running_totals",
    "seat_view",
    "turn_binds",
    "turn_words",
]
