"""The M.E.C.S. bot at three levels (MECS-12), and the ``tabletop bench`` figures.

- ``hard`` (the bot as it was before the levels): everything below;
- ``medium``: the same search for the most coins, hacks included, but its unfinished
  area stays readable (the plan's cards in the order its equation reads), so others can
  hack it and a child can read it;
- ``easy``: never hacks, plants the first valid equation it finds (not the one with the
  most coins), and keeps its area readable like ``medium``.

The hard bot, in detail:

On its turn the bot looks for the most coins it can win now:
- a hack: 1 or 2 of its cards inserted into another area, without moving that area's
  cards, so that it reads a valid equation (the engine's ``hack_areas`` search);
- a completion of its own area with 1 or 2 cards: the area can be reordered freely
  (MECS-4), so any arrangement of the area's cards plus the planted ones counts; a
  depth-first search over arrangements, pruned by which card may follow which, finds
  one. Coins depend only on the cards (MECS-3), so one arrangement per card choice is
  enough.
If neither exists it plants toward a *plan*: a simple equation it can build from its
area and hand (``a op b = c``, with ``÷`` or the fraction bar, brackets, ``√n = m``,
``m² = n``), valued by coins per turn still needed; it plants up to two of the plan's
cards and keeps its area scrambled so that others cannot hack it easily. After
planting one card it trades a card its plan does not need, and it refills toward three
numbers and two symbols.

``bench(games)`` plays seeded games: each level against two random legal players
(each picks uniformly among ``legal_actions``, 3 players), and each level against each
other level (2 players, seats alternating); it reports win rates, coins per turn and the
time per decision (median and 90th percentile).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from tabletop.engine.dealers import RngDealer
from tabletop.engine.protocol import Seat
from tabletop.games.mecs import (
    DECKS,
    Action,
    EndTurn,
    Hack,
    Mecs,
    MecsSettings,
    MecsState,
    Plant,
    Refill,
    StackName,
    Trade,
    hack_areas,
    meets_objective,
    objective,
    stack_of,
)
from tabletop.games.mecs_equation import (
    DIGITS,
    OPERATION_CARDS,
    Verdict,
    card_coins,
    evaluate,
    kind,
    may_follow,
    value_of,
)

GAME = Mecs()
LEVELS = ("easy", "medium", "hard")
LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}  # as the app shows them
SEARCH_NODES = 2500  # arrangement search budget per card choice
EXPRESSION_NODES = 3000  # search budget for the values an area can show
ROLLOUTS = 400  # random orders tried on top for a large area
MAX_SIDE = 20  # an area larger than this is not searched for the values it can show
LARGE_AREA = 9  # beyond this, only insertions into the area's current order are tried
HARD_CARDS = ("LP", "RP", "DOT", "SQRT", "SQ", "FRAC")  # traded first when no plan needs them
_ORDER = {"binary": 0, "equals": 1, "open": 2, "close": 3, "root": 4, "square": 5, "dot": 6}


# -- plans: equations the bot knows how to build -------------------------------------------


@dataclass(frozen=True)
class Template:
    """A valid equation the bot can aim for; only its cards matter in its own area."""

    cards: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]
    coins: int
    answer: Fraction


@cache
def templates() -> tuple[Template, ...]:
    """Valid equations of a few simple shapes (one per cards and answer), checked by the
    real evaluator: ``a op b = c`` (a, b up to 12, also in brackets), ``a op b op c = d``
    (digits), ``m² op b``, ``√n op b`` and ``d.5 op b`` equal to a whole number, ``√n = m``
    and ``m² = n``, and for the objectives ``a - b = 0 - c``, ``a ÷ 2 = c.5`` and
    ``a ÷ b = c ÷ d``. Many
    shapes give a forced plant many ways to stay useful."""
    sides: list[list[str]] = []
    for a in range(13):
        for b in range(13):
            for op in ("+", "-", "X", "DIV", "FRAC"):
                left = [*str(a), op, *str(b)]
                sides.append(left)
                if op in ("+", "-", "X"):
                    sides.append(["LP", *left, "RP"])
    for a in range(10):
        for b in range(10):
            for c in range(10):
                for op1 in ("+", "-", "X", "DIV"):
                    for op2 in ("+", "-", "X", "DIV"):
                        sides.append([str(a), op1, str(b), op2, str(c)])
    squares = [[str(m), "SQ"] for m in range(10)] + [["SQRT", *str(m * m)] for m in range(10)]
    halves = [[str(d), "DOT", "5"] for d in range(10)]
    for number in squares + halves:
        for b in range(10):
            for op in ("+", "-", "X"):
                sides.append([*number, op, str(b)])
                sides.append([str(b), op, *number])
    for x in halves:
        for y in halves:
            sides.append([*x, "+", *y])
    equations: list[list[str]] = []
    for left in sides:
        value = value_of(left)  # None unless the side is sound
        limit = 999 if len(left) <= 5 else 99
        if value is not None and value.denominator == 1 and 0 <= value <= limit:
            equations.append([*left, "EQ", *str(value.numerator)])
    for a in range(10):
        for b in range(1, 10):
            if a < b:  # a negative answer, written 0 - n
                equations.append([str(a), "-", str(b), "EQ", "0", "-", str(b - a)])
            half = Fraction(a, 2)
            if half.denominator == 2:  # a decimal answer
                whole = str(half.numerator // 2)
                equations.append([str(a), "DIV", "2", "EQ", whole, "DOT", "5"])
                equations.append([str(a), "FRAC", "2", "EQ", whole, "DOT", "5"])
    for a in range(1, 10):  # both sides the same fraction: 1 ÷ 2 = 3 ÷ 6
        for b in range(2, 10):
            for k in range(2, 5):
                if a % b and a * k < 10 and b * k < 10:
                    equations.append([str(a), "DIV", str(b), "EQ", str(a * k), "DIV", str(b * k)])
    for m in range(10):
        equations.append(["SQRT", *str(m * m), "EQ", *str(m)])
        equations.append([*str(m), "SQ", "EQ", *str(m * m)])
        equations.append([*str(m), "EQ", "SQRT", *str(m * m)])
    seen: set[tuple[tuple[tuple[str, int], ...], Fraction]] = set()
    result = []
    for cards in equations:
        counts = tuple(sorted(Counter(cards).items()))
        verdict = evaluate(cards)
        if not verdict.valid or verdict.answer is None or (counts, verdict.answer) in seen:
            continue
        seen.add((counts, verdict.answer))  # the same cards may show several answers
        result.append(Template(tuple(cards), counts, verdict.coins, verdict.answer))
    return tuple(result)


# -- the decision --------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    action: Action
    coins: int
    why: str


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown M.E.C.S. bot level {level!r}: choose from {', '.join(LEVELS)}")
    return level


def decide(state: MecsState, seat: Seat, level: str = "hard") -> Action:
    """The bot's action for ``seat``, which must be pending (virtual play)."""
    check_level(level)
    if state.phase == "refill":
        return Refill(seat, _refill_stack(state, seat))
    if state.phase == "plant":
        if not state.players[seat].hand:
            return EndTurn(seat)  # nothing to plant or hack with: pass
        return best_move(state, seat, level).action
    return _after_planting(state, seat, level)


def best_move(state: MecsState, seat: Seat, level: str = "hard") -> Choice:
    """The best plant or hack now: the most coins won this turn, else the plan's plant.
    ``easy`` never hacks and plants the first completion it finds (MECS-12)."""
    hand = Counter(state.players[seat].hand)
    if level == "easy":
        first = first_completion(state, seat, hand, 2)
        return first if first is not None else plan_plant(state, seat, level)
    best: Choice | None = None
    for target in range(state.seats):
        if target == seat:
            continue
        area = state.players[target].area
        for seq in hack_areas(area, hand, lambda v: meets_objective(state, v)):
            coins = card_coins(seq)
            if best is None or coins > best.coins:
                best = Choice(Hack(seat, target, seq), coins, f"hack Player {target + 1}")
    own = complete_own(state, seat, hand, 2)
    if own is not None and (best is None or own.coins >= best.coins):
        best = own
    if best is not None:
        return best
    return plan_plant(state, seat, level)


def complete_own(state: MecsState, seat: Seat, hand: Counter[str], most: int) -> Choice | None:
    """The most coins from completing the own area with 1..``most`` hand cards."""
    area = state.players[seat].area
    best = _complete_side(state, seat, hand, most)
    for extra in _choices(hand, most):
        cards = Counter(area) + Counter(extra)
        coins = card_coins(cards.elements())
        if best is not None and coins <= best.coins:
            continue
        seq = find_arrangement(state, area, extra)
        if seq is not None:
            best = Choice(Plant(seat, seq), coins, "complete own area")
    return best


def first_completion(state: MecsState, seat: Seat, hand: Counter[str], most: int) -> Choice | None:
    """The easy bot's completion: the first valid equation found with 1..``most`` hand
    cards (one card before two, the hand in card order), not the one with most coins."""
    area = state.players[seat].area
    for extra in _choices(hand, most):
        seq = find_arrangement(state, area, extra)
        if seq is not None:
            return Choice(Plant(seat, seq), card_coins(seq), "complete own area")
    return None


def _complete_side(state: MecsState, seat: Seat, hand: Counter[str], most: int) -> Choice | None:
    """The area's cards shown as one side, then ``=`` (if it is not there yet) and the
    side's value from the hand: works for areas of any size."""
    counts = Counter(state.players[seat].area)
    eq = counts.pop("EQ", 0)
    if eq > 1 or not counts:
        return None
    goal = objective(state.objective) if state.objective is not None else None
    best: Choice | None = None
    whole = state.settings.mode == "normal"
    for value, side in side_values(tuple(sorted(counts.items()))):
        if whole and (value < 0 or value.denominator != 1):
            continue  # only an objective is worth a fraction or a minus written out
        answer = answer_cards(value) or []
        extra = answer if eq else ["EQ", *answer]
        if len(extra) > most or Counter(extra) - hand:
            continue
        if state.settings.mode == "challenge" and (goal is None or not goal.met_by(value)):
            continue
        seq = (*side, "EQ", *answer)
        coins = card_coins(seq)
        if evaluate(seq).valid and (best is None or coins > best.coins):
            best = Choice(Plant(seat, seq), coins, "complete own area")
    return best


def find_arrangement(
    state: MecsState, area: tuple[str, ...], extra: Sequence[str]
) -> tuple[str, ...] | None:
    """A valid (objective-meeting) arrangement of the area's cards plus ``extra``."""
    if len(area) + len(extra) > LARGE_AREA:
        for seq in hack_areas(area, Counter(extra), lambda v: meets_objective(state, v)):
            if len(seq) == len(area) + len(extra):
                return seq
        return None
    counts = Counter(area) + Counter(extra)
    if not _could_be_equation(counts):
        return None
    for verdict in arrangements(counts, SEARCH_NODES):
        if meets_objective(state, verdict):
            return verdict.cards
    return None


def arrangements(counts: Counter[str], budget: int) -> Iterator[Verdict]:
    """Valid equations using exactly these cards (at most ``budget`` prefixes tried)."""
    for seq in _orders(counts, budget):
        verdict = evaluate(seq)
        if verdict.valid:
            yield verdict


def _orders(counts: Mapping[str, int], budget: int) -> Iterator[tuple[str, ...]]:
    """Distinct orders of these cards, by depth-first search over ``_next_cards``; at
    most ``budget`` prefixes are tried."""
    total = sum(counts.values())
    left = dict(counts)
    seq: list[str] = []
    nodes = 0

    def walk(at: _Prefix) -> Iterator[tuple[str, ...]]:
        nonlocal nodes
        if len(seq) == total:
            if at.depth == 0 and may_follow(at.prev, None):
                yield tuple(seq)
            return
        for card, after in _next_cards(at, left):
            nodes += 1
            if nodes > budget:
                return
            left[card] -= 1
            seq.append(card)
            yield from walk(after)
            seq.pop()
            left[card] += 1

    yield from walk(_Prefix(None, 0, False, False))


def _rollouts(counts: Mapping[str, int], tries: int) -> Iterator[tuple[str, ...]]:
    """Random orders of these cards built card by card over ``_next_cards`` (seeded by
    the cards, so the bot is deterministic): they reach every part of a search too large
    to walk through."""
    total = sum(counts.values())
    rng = random.Random(zlib.crc32(repr(sorted(counts.items())).encode()))
    for _ in range(tries):
        left = dict(counts)
        seq: list[str] = []
        at = _Prefix(None, 0, False, False)
        while len(seq) < total:
            options = _next_cards(at, left)
            if not options:
                break
            card, at = options[rng.randrange(len(options))]
            left[card] -= 1
            seq.append(card)
        if len(seq) == total and at.depth == 0 and may_follow(at.prev, None):
            yield tuple(seq)


@dataclass(frozen=True)
class _Prefix:
    prev: str | None
    depth: int
    zero_start: bool
    dotted: bool


def _next_cards(at: _Prefix, left: Mapping[str, int]) -> list[tuple[str, _Prefix]]:
    """The cards that may come next: not two neighbours that can never stand side by
    side, no bracket closed too early or left without enough ``)`` cards, no ``=`` inside
    brackets, no leading zero, no second decimal point in a number."""
    out = []
    rights = left.get("RP", 0)
    for card in sorted(left):
        if not left[card] or not may_follow(at.prev, card):
            continue
        k = kind(card)
        depth = at.depth + (k == "open") - (k == "close")
        if depth < 0 or depth > rights - (card == "RP"):
            continue
        if card == "EQ" and at.depth:
            continue
        in_number = at.prev is not None and kind(at.prev) in ("digit", "dot")
        if k == "digit":
            if in_number and at.zero_start and not at.dotted:
                continue
            starts = not in_number
            after = _Prefix(
                card, depth, card == "0" if starts else at.zero_start, at.dotted and not starts
            )
        elif k == "dot":
            if at.dotted:
                continue
            after = _Prefix(card, depth, False, True)
        else:
            after = _Prefix(card, depth, False, False)
        out.append((card, after))
    return out


@lru_cache(maxsize=4096)
def side_values(
    counts: tuple[tuple[str, int], ...],
) -> tuple[tuple[Fraction, tuple[str, ...]], ...]:
    """Values that these cards (no ``=``) can show as one side and that a few cards can
    write after ``=`` (``answer_cards``), each with an order that shows it. An area too
    large to search gives none."""
    cards = dict(counts)
    total = sum(cards.values())
    if total > MAX_SIDE:
        return ()
    found: dict[Fraction, tuple[str, ...]] = {}
    orders = _orders(cards, EXPRESSION_NODES)
    if total > 6:
        orders = itertools.chain(orders, _rollouts(cards, ROLLOUTS))
    for seq in orders:
        value = value_of(seq)
        if value is not None and value not in found and answer_cards(value) is not None:
            found[value] = seq
    return tuple(sorted(found.items()))


def answer_cards(value: Fraction) -> list[str] | None:
    """How the bot writes a value after ``=``: ``4 2``, ``7 / 2``, ``0 - 3`` (no unary
    minus); ``None`` for values it does not write (beyond 999, or ninths and finer)."""
    size = abs(value)
    if size.numerator > 999 or size.denominator > 9:
        return None
    shown = list(str(size.numerator))
    if size.denominator > 1:
        shown += ["FRAC", str(size.denominator)]
    return ["0", "-", *shown] if value < 0 else shown


@dataclass(frozen=True)
class Plan:
    """An equation to build: what to plant now, what is still missing, its value."""

    template: Template
    plant: tuple[str, ...]
    missing: tuple[str, ...]
    score: float


def make_plan(state: MecsState, seat: Seat, hand: Counter[str]) -> Plan | None:
    """The plan with the most coins per turn still needed, among those the hand can feed
    now. A card not in hand costs the turns it takes to draw it (from what the bot cannot
    see: the deck less every area, coin pile and its own hand), and a plan that will run
    out of cards to plant before its missing cards come costs more: every turn must
    plant something (MECS-4)."""
    chance = _chances(state, seat)
    best: Plan | None = None
    for t, need, size in _candidates(state, seat):
        have = 0
        missing: list[str] = []
        for card, n in need:
            held = hand.get(card, 0)
            have += min(n, held)
            if n > held:
                missing += [card] * (n - held)
        if not have:
            continue
        now = 1 if missing else min(2, have)
        after = size - now - len(missing)
        # every missing card must come before the plan's cards in hand run out (MECS-4:
        # each turn plants at least one card): one draw round per turn still fed
        rounds = 1 + have - now
        success = 1.0
        for card in missing:
            success *= 1 - (1 - chance[card]) ** rounds
        turns = 1 + math.ceil(after / 2) + sum(1 / max(chance[c], 0.02) for c in missing) / 2
        score = t.coins * success / turns
        if best is None or score > best.score:
            have_cards = Counter(dict(need)) & hand
            order = t.cards if not missing and have <= 2 else _common_first(t.cards)
            plant = tuple(_first_cards(order, have_cards, now))
            best = Plan(t, plant, tuple(missing), score)
    return best


def plan_plant(state: MecsState, seat: Seat, level: str = "hard") -> Choice:
    """No win this turn: plant the plan's cards (one while it still misses cards, so that
    the bot may trade), or, with no plan fed by the hand, the least harmful card. The hard
    bot scrambles its area so that it is hard to hack; the others keep it readable."""
    player = state.players[seat]
    hand = Counter(player.hand)
    plan = make_plan(state, seat, hand)
    cards = plan.plant if plan is not None else (_least_useful(state, seat, hand),)
    if level == "hard":
        area = _scrambled((*player.area, *cards))
    else:
        area = readable(player.area, cards, plan.template.cards if plan is not None else ())
    return Choice(Plant(seat, area), 0, "plan")


def readable(area: Sequence[str], new: Sequence[str], equation: Sequence[str]) -> tuple[str, ...]:
    """An unfinished area in reading order: its cards and the ``new`` ones in the order
    the planned ``equation`` reads them (``9 x = 6`` toward ``9 x 7 = 6 3``); cards the
    equation does not hold stay where they were, and new ones go at the end."""
    left = Counter(area) + Counter(new)
    ordered: list[str] = []
    for card in equation:
        if left[card] > 0:
            left[card] -= 1
            ordered.append(card)
    if not ordered:
        return (*area, *new)
    rest: list[str] = []
    for card in (*area, *new):
        if left[card] > 0:
            left[card] -= 1
            rest.append(card)
    return (*ordered, *rest)


def _after_planting(state: MecsState, seat: Seat, level: str = "hard") -> Action:
    """One card is in: a second card that completes the area, else trade the card the
    plan needs least for one from the stack the plan misses, else end the turn."""
    hand = Counter(state.players[seat].hand)
    if level == "easy":
        own = first_completion(state, seat, hand, 1)
    else:
        own = complete_own(state, seat, hand, 1)
    if own is not None:
        return own.action
    if not hand:
        return EndTurn(seat)
    plan = make_plan(state, seat, hand)
    junk = _least_useful(state, seat, hand, trade=True, plan=plan)
    if junk is None:
        return EndTurn(seat)
    rest = hand - Counter([junk])
    draw = _wanted_stack(state, rest, plan)
    if not state.stack(draw).size and stack_of(junk) != draw:
        draw = stack_of(junk)
    return Trade(seat, junk, draw)


def _refill_stack(state: MecsState, seat: Seat) -> StackName:
    hand = Counter(state.players[seat].hand)
    want = _wanted_stack(state, hand, make_plan(state, seat, hand) if hand else None)
    if not state.stack(want).size:
        want = "symbols" if want == "numbers" else "numbers"
    return want


def _wanted_stack(state: MecsState, hand: Counter[str], plan: Plan | None) -> StackName:
    """The stack holding most of the plan's missing cards, else toward 3 numbers and 2
    symbols."""
    if plan is not None and plan.missing:
        chance = _chances(state, -1)
        wanted = Counter(stack_of(c) for c in plan.missing)
        return max(wanted, key=lambda name: (wanted[name], max(chance[c] for c in plan.missing)))
    digits = sum(n for c, n in hand.items() if c in DIGITS)
    symbols = sum(hand.values()) - digits
    return "numbers" if digits < 3 or symbols >= 2 else "symbols"


def _chances(state: MecsState, seat: Seat) -> dict[str, float]:
    """The chance to draw each card in one turn (about 1.5 draws), from what the bot
    cannot see: the deck less every area, coin pile and (``seat`` >= 0) its own hand."""
    unseen = Counter(state.settings.deck_counts())
    for player in state.players:
        unseen.subtract(player.area)
        unseen.subtract(player.coin_cards)
    if seat >= 0:
        unseen.subtract(state.players[seat].hand)
    totals = {"numbers": 0, "symbols": 0}
    for card, n in unseen.items():
        totals[stack_of(card)] += max(n, 0)
    return {
        card: 1 - (1 - max(n, 0) / max(1, totals[stack_of(card)])) ** 1.5
        for card, n in unseen.items()
    }


@cache
def _index() -> dict[tuple[str, int], frozenset[int]]:
    """For each (card, count): the templates holding at least that many of the card."""
    out: dict[tuple[str, int], set[int]] = {}
    for i, t in enumerate(templates()):
        for card, n in t.counts:
            for k in range(1, n + 1):
                out.setdefault((card, k), set()).add(i)
    return {key: frozenset(ids) for key, ids in out.items()}


Candidate = tuple[Template, tuple[tuple[str, int], ...], int]


def _candidates(state: MecsState, seat: Seat) -> tuple[Candidate, ...]:
    """Templates holding every card of the area (and meeting the objective shown), each
    with the cards it still needs and how many."""
    goal = state.objective if state.settings.mode == "challenge" else 0
    area = tuple(sorted(Counter(state.players[seat].area).items()))
    return _candidates_for(area, goal, state.settings.deck)


@lru_cache(maxsize=4096)
def _candidates_for(
    area: tuple[tuple[str, int], ...], goal: int | None, deck: str
) -> tuple[Candidate, ...]:
    if goal is None:  # challenge mode between two objectives
        return ()
    all_templates = templates()
    index = _index()
    ids: frozenset[int] | None = None
    for card, n in area:
        hit = index.get((card, n), frozenset())
        ids = hit if ids is None else ids & hit
        if not ids:
            return ()
    chosen = all_templates if ids is None else [all_templates[i] for i in sorted(ids)]
    allowed = {c for c, _ in DECKS[deck]}
    test = objective(goal).met_by if goal else None
    have = dict(area)
    out = []
    for t in chosen:
        if any(c not in allowed for c, _ in t.counts):
            continue
        if test is not None and not test(t.answer):
            continue
        need = tuple((c, n - have.get(c, 0)) for c, n in t.counts if n > have.get(c, 0))
        size = sum(n for _, n in need)
        if size:
            out.append((t, need, size))
    out += _side_plans(area, test)
    return tuple(out)


def _side_plans(
    area: tuple[tuple[str, int], ...], test: Callable[[Fraction], bool] | None
) -> list[Candidate]:
    """Plans from the area itself: its cards (but one ``=``) shown as one side whose
    value is then written after ``=`` (``10 ÷ 1 + 3 + 7 = 2 0``). This keeps an area that
    outgrew the templates alive."""
    counts = dict(area)
    eq = counts.pop("EQ", 0)
    if eq > 1 or sum(counts.values()) < 3:
        return []
    out: list[Candidate] = []
    for value, side in side_values(tuple(sorted(counts.items()))):
        if test is None and (value < 0 or value.denominator != 1):
            continue  # normal mode: only an objective is worth a fraction or a minus
        if test is not None and not test(value):
            continue
        answer = answer_cards(value) or []
        cards = (*side, "EQ", *answer)
        verdict = evaluate(cards)
        if not verdict.valid:
            continue
        need = Counter(answer) + (Counter() if eq else Counter(["EQ"]))
        t = Template(cards, tuple(sorted(Counter(cards).items())), verdict.coins, value)
        out.append((t, tuple(sorted(need.items())), sum(need.values())))
    return out


def _least_useful(
    state: MecsState,
    seat: Seat,
    hand: Counter[str],
    trade: bool = False,
    plan: Plan | None = None,
) -> Any:
    """The hand card worth least to the plans (when trading: ``None`` if the chosen plan
    needs it)."""
    worth: dict[str, float] = {c: 0.0 for c in hand}
    chance = _chances(state, seat)
    for t, need, _ in _candidates(state, seat):
        have = 0
        success = 1.0
        for card, n in need:
            held = hand.get(card, 0)
            have += min(n, held)
            if n > held:
                success *= (1 - (1 - chance[card]) ** max(1, have)) ** (n - held)
        if not have:
            continue
        value = t.coins * success / (1 + math.ceil(have / 2))
        for card, _ in need:
            if card in worth and value > worth[card]:
                worth[card] = value
    worst = min(hand, key=lambda c: (worth[c], c not in HARD_CARDS, c))
    if trade and plan is not None:
        needed = dict(plan.template.counts)
        area = Counter(state.players[seat].area)
        if needed.get(worst, 0) - area[worst] >= hand[worst]:
            return None
    return worst


def _first_cards(cards: Sequence[str], have: Counter[str], most: int) -> list[str]:
    """Up to ``most`` of ``have``'s cards, in the order the plan's equation reads."""
    left = Counter(have)
    out: list[str] = []
    for card in cards:
        if left[card] > 0 and len(out) < most:
            left[card] -= 1
            out.append(card)
    return out


def _common_first(cards: Sequence[str]) -> list[str]:
    """A plan's cards with the rare ones (brackets, green cards) last: planted early they
    leave few equations the area can still become."""
    return sorted(cards, key=lambda c: c in HARD_CARDS)


def _scrambled(cards: tuple[str, ...]) -> tuple[str, ...]:
    """An unfinished area in an order that is hard to hack: symbols first, then digits."""
    return tuple(sorted(cards, key=lambda c: (c in DIGITS, _ORDER.get(kind(c), 9), c)))


def _choices(hand: Counter[str], most: int) -> list[tuple[str, ...]]:
    cards = sorted(hand)
    out: list[tuple[str, ...]] = [(c,) for c in cards]
    if most >= 2:
        for i, a in enumerate(cards):
            for b in cards[i:]:
                if a != b or hand[a] >= 2:
                    out.append((a, b))
    return out


def _could_be_equation(counts: Counter[str]) -> bool:
    digits = sum(n for c, n in counts.items() if c in DIGITS)
    return (
        counts["EQ"] >= 1
        and counts["LP"] == counts["RP"]
        and digits >= counts["EQ"] + 1
        and any(counts[c] for c in OPERATION_CARDS)
    )


# -- playing whole games and the bench --------------------------------------------------------


def random_legal(state: MecsState, seat: Seat, rng: random.Random) -> Action:
    """The baseline: any legal action, each equally likely."""
    return rng.choice(GAME.legal_actions(state, seat))


@dataclass
class Tally:
    coins: list[int]
    turns: list[int]
    wins: int = 0
    shared: int = 0
    times: list[float] | None = None

    def add(self, state: MecsState, seat: Seat, places: Sequence[int]) -> None:
        player = state.players[seat]
        self.coins.append(player.coins)
        self.turns.append(player.turns)
        if places[seat] == 1:
            if sum(1 for p in places if p == 1) > 1:
                self.shared += 1
            else:
                self.wins += 1

    def figures(self, games: int) -> dict[str, Any]:
        """``games``: how many games (seat-games) this tally counts."""
        out: dict[str, Any] = {
            "win_rate": round(self.wins / max(1, games), 4),
            "shared_first_rate": round(self.shared / max(1, games), 4),
            "mean_coins_per_turn": round(sum(self.coins) / max(1, sum(self.turns)), 3),
            "mean_final_coins": round(statistics.mean(self.coins), 2) if self.coins else 0,
        }
        if self.times is not None:
            out.update(move_times(self.times))
        return out


def move_times(times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    if not ordered:
        return {"move_ms_median": None, "move_ms_p90": None, "moves_timed": 0}
    return {
        "move_ms_median": round(1000 * statistics.median(ordered), 2),
        "move_ms_p90": round(1000 * ordered[int(0.9 * (len(ordered) - 1))], 2),
        "move_ms_max": round(1000 * ordered[-1], 2),
        "moves_timed": len(ordered),
    }


def play_game(
    seed: int,
    seats: int = 3,
    bots: Sequence[Seat] = (0,),
    settings: MecsSettings | None = None,
    times: list[float] | None = None,
    levels: Mapping[Seat, str] | None = None,
    seat_times: Mapping[Seat, list[float]] | None = None,
) -> MecsState:
    """One seeded game: ``bots`` seats play with ``decide`` (at their ``levels``, hard
    when not given), the others at random. Plant decisions are timed into ``times`` (all
    bots) and ``seat_times`` (per seat)."""
    levels = {seat: (levels or {}).get(seat, "hard") for seat in bots}
    state = GAME.new_game(settings or MecsSettings(), seats)
    dealer, rng = RngDealer(seed), random.Random(seed ^ 0x5EED)
    while GAME.result(state) is None:
        pending = GAME.pending(state)
        if pending.chance is not None:
            state, _ = GAME.apply(state, dealer.deal(pending.chance))
            continue
        seat = min(pending.seats)
        if seat in levels:
            start = time.perf_counter()
            action = decide(state, seat, levels[seat])
            if state.phase == "plant":
                spent = time.perf_counter() - start
                if times is not None:
                    times.append(spent)
                if seat_times is not None and seat in seat_times:
                    seat_times[seat].append(spent)
        else:
            action = random_legal(state, seat, rng)
        state, _ = GAME.apply(state, action)
    return state


def against_random(level: str, games: int) -> dict[str, Any]:
    """``level`` against two random legal players, 3 players, its seat rotating."""
    bot, rnd = Tally([], [], times=[]), Tally([], [])
    endings: Counter[str] = Counter()
    for seed in range(games):
        seat = seed % 3
        times: list[float] = []
        state = play_game(seed, 3, (seat,), levels={seat: level}, times=times)
        assert bot.times is not None
        bot.times.extend(times)
        result = GAME.result(state)
        assert result is not None
        endings["15 coins" if "coins" in result.reason else result.reason] += 1
        for s in range(3):
            (bot if s == seat else rnd).add(state, s, result.places)
    return {
        "players": 3,
        "bot": bot.figures(games),
        "random_legal": rnd.figures(2 * games),
        "endings": dict(endings),
    }


def match_up(level: str, other: str, games: int) -> dict[str, Any]:
    """``level`` against ``other``, 2 players, seats alternating by seed."""
    tallies = {level: Tally([], [], times=[]), other: Tally([], [], times=[])}
    if level == other:
        raise ValueError("a match-up needs two different levels")
    for seed in range(games):
        me = seed % 2
        seats = {me: level, 1 - me: other}
        seat_times: dict[Seat, list[float]] = {0: [], 1: []}
        state = play_game(seed, 2, (0, 1), levels=seats, seat_times=seat_times)
        result = GAME.result(state)
        assert result is not None
        for s, name in seats.items():
            tallies[name].add(state, s, result.places)
            times = tallies[name].times
            assert times is not None
            times.extend(seat_times[s])
    return {
        "players": 2,
        level: tallies[level].figures(games),
        other: tallies[other].figures(games),
    }


def bench(games: int) -> dict[str, Any]:
    """``tabletop bench --game mecs``: each level against random legal players, and each
    pair of levels against each other, over ``games`` seeded games per figure (normal
    mode, advanced deck)."""
    start = time.perf_counter()
    out: dict[str, Any] = {
        "game": "mecs",
        "games": games,
        "settings": "normal mode, advanced deck, 15 coins",
        "vs_random": {level: against_random(level, games) for level in LEVELS},
        "match_ups": {
            f"{a}_vs_{b}": match_up(a, b, games) for a, b in itertools.combinations(LEVELS, 2)
        },
    }
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out
