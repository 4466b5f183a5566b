"""Math Arena bots a child can choose as opponents: ``random``, ``easy`` and ``hard``.

Every bot decides from ``seat_view`` (its own hand, the cards shown so far, the operator
cards and the counts), never from the full state: it cannot see the other hands nor the
cards the others have already put face down.

- ``random`` puts down any two of its cards.
- ``easy`` bids, every round, the two cards that give the best value for this operator,
  the way a child first plays.
- ``hard`` plans the whole set. It deals the number cards it has not seen into possible
  hands for the others (``OPPONENT_SAMPLES`` times) and guesses possible orders of the
  operators still to come in the set (``FUTURE_SAMPLES``; in the last set only their
  order is unknown). It expects the others to bid their best each round, as children
  mostly do, so along each order their sampled hands lose the cards they would spend.
  That gives, for every round ahead and each of the six operators (King, Queen, Jack in
  red and black), the chance that a value of its own wins. A dynamic programme over
  what is left in its hand then splits the hand between this round and the rounds
  ahead, and the bot bids this round's part of the best split: it throws low cards on a
  round it cannot win and keeps its good cards for rounds it can.

Suits never matter to the values (ARENA-1), so the planner works on pip values only.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.bots.timing import move_ms
from tabletop.engine.dealers import RngDealer
from tabletop.engine.protocol import Seat
from tabletop.games.math_arena import (
    CARD_ORDER,
    Choose,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    MathArenaView,
    goal,
    pair_value,
    pip_value,
    seat_view,
)

LEVELS = ("random", "easy", "hard")
OPPONENT_SAMPLES = 150
FUTURE_SAMPLES = 4
GAME = MathArena()

RANKS = ("K", "Q", "J")
# An operator kind: rank index * 2 + (1 if red, the lowest wins). Values run 0..20.
KINDS = tuple(range(6))
MAX_VALUE = 20
VALUE = [
    [[pair_value(rank + "S", a, b) if a and b else 0 for b in range(11)] for a in range(11)]
    for rank in RANKS
]


def kind_of(operator: str) -> int:
    return RANKS.index(operator[:-1]) * 2 + (1 if goal(operator) == "lowest" else 0)


# -- the bots ----------------------------------------------------------------------------------


@dataclass
class MathArenaBot:
    """A bot at one ``level``; ``seed`` makes its choices repeatable."""

    level: str = "hard"
    seed: int = 0
    opponent_samples: int | None = None  # None: OPPONENT_SAMPLES
    future_samples: int | None = None  # None: FUTURE_SAMPLES

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVELS)}")
        self.rng = random.Random(self.seed)

    def choose(self, state: MathArenaState, seat: Seat) -> Choose:
        """The two cards ``seat`` puts face down this round."""
        if state.settings.hidden_hands:
            raise ValueError("a bot plays with virtual cards: its hand must be known")
        view = seat_view(state, seat)
        if view.phase != "choose" or view.my_choice or view.operator is None:
            raise ValueError(f"seat {seat} has nothing to choose now")
        hand = view.hand
        if len(hand) == 2:
            return Choose(seat, (hand[0], hand[1]))
        if self.level == "random":
            a, b = self.rng.sample(range(len(hand)), 2)
            return _choose(seat, hand[min(a, b)], hand[max(a, b)])
        if self.level == "easy":
            return easy_choice(view, self.rng)
        return hard_choice(
            view,
            self.rng,
            self.opponent_samples or OPPONENT_SAMPLES,
            self.future_samples or FUTURE_SAMPLES,
        )


def easy_choice(view: MathArenaView, rng: random.Random) -> Choose:
    """The best value for this operator now; ties broken at random."""
    op = view.operator
    assert op is not None
    pairs = list(itertools.combinations(view.hand, 2))
    values = [pair_value(op, pip_value(a), pip_value(b)) for a, b in pairs]
    best = min(values) if goal(op) == "lowest" else max(values)
    a, b = rng.choice([pair for pair, v in zip(pairs, values) if v == best])
    return _choose(view.seat, a, b)


def hard_choice(
    view: MathArenaView,
    rng: random.Random,
    opponent_samples: int = OPPONENT_SAMPLES,
    future_samples: int = FUTURE_SAMPLES,
) -> Choose:
    """The bid that wins the most operator cards expected over the rest of the set."""
    op = view.operator
    assert op is not None
    now = kind_of(op)
    counts = [0] * 11
    for card in view.hand:
        counts[pip_value(card)] += 1
    pairs = [
        (a, b)
        for a in range(1, 11)
        for b in range(a, 11)
        if counts[a] and counts[b] >= (2 if a == b else 1)
    ]
    worlds = other_hands(view, rng, opponent_samples)
    orders = _future_orders(view, view.deal.rounds - view.round, rng, future_samples)
    prize = 1 + len(view.pot)
    scores = [0.0] * len(pairs)
    for order in orders:
        tables = win_tables(worlds, (now, *order), 1 / view.players)
        planner = _Planner(tables[1:], order)
        for i, (a, b) in enumerate(pairs):
            counts[a] -= 1
            counts[b] -= 1
            later = planner.best(0, tuple(counts))
            counts[a] += 1
            counts[b] += 1
            scores[i] += prize * tables[0][now][VALUE[now // 2][a][b]] + later
    a, b = pairs[max(range(len(pairs)), key=lambda i: (scores[i], -i))]
    first = next(c for c in view.hand if pip_value(c) == a)
    second = next(c for c in view.hand if pip_value(c) == b and c != first)
    return _choose(view.seat, first, second)


def other_hands(view: MathArenaView, rng: random.Random, samples: int) -> list[list[list[int]]]:
    """Possible hands (sorted pip values) of the other seats, dealt from the number cards
    this seat has not seen, ``samples`` times."""
    values = [pip_value(card) for card in view.unseen()]
    sizes = [view.hand_sizes[s] for s in range(view.players) if s != view.seat]
    worlds = []
    for _ in range(samples):
        rng.shuffle(values)
        hands, start = [], 0
        for size in sizes:
            hands.append(sorted(values[start : start + size]))
            start += size
        worlds.append(hands)
    return worlds


def win_tables(
    worlds: list[list[list[int]]], order: Sequence[int], tie_share: float
) -> list[list[list[float]]]:
    """``tables[step][kind][value]``: the chance that ``value`` beats the others' best bid
    for an operator of ``kind`` at each step of ``order`` (a tie counts ``tie_share``).
    The others are modelled as bidding their best every round (as ``easy`` does), so
    their hands lose the cards they spend along ``order``."""
    best: list[list[list[int]]] = [[[] for _ in KINDS] for _ in order]
    for world in worlds:
        hands = [hand[:] for hand in world]
        for step, kind in enumerate(order):
            column = best[step]
            for r in range(3):
                highs, lows = -1, MAX_VALUE + 1
                for hand in hands:
                    hi, lo = _extremes(r, hand)
                    highs, lows = max(highs, hi), min(lows, lo)
                column[2 * r].append(highs)
                column[2 * r + 1].append(lows)
            if step + 1 < len(order):
                for hand in hands:
                    _spend_best(kind, hand)
    return [[_win_row(kind, column[kind], tie_share) for kind in KINDS] for column in best]


def _win_row(kind: int, others: list[int], tie_share: float) -> list[float]:
    """Win chances of each value against a list of best bids (-1 or 21: no bid at all)."""
    n = len(others)
    if not n:
        return [1.0] * (MAX_VALUE + 1)
    tally = [0] * (MAX_VALUE + 3)  # index value + 1, for -1..21
    for value in others:
        tally[value + 1] += 1
    below = tally[0]
    row = []
    for v in range(MAX_VALUE + 1):
        ties = tally[v + 1]
        above = n - below - ties
        wins = below if kind % 2 == 0 else above  # highest wins / lowest wins
        row.append((wins + tie_share * ties) / n)
        below += ties
    return row


def _spend_best(kind: int, hand: list[int]) -> None:
    """Remove the pair a best-value bidder plays for ``kind`` from a sorted hand."""
    if len(hand) < 2:
        hand.clear()
        return
    rank, lowest = kind // 2, kind % 2 == 1
    if rank == 0:
        i, j = (0, 1) if lowest else (len(hand) - 2, len(hand) - 1)
    elif rank == 2 and not lowest:
        i, j = 0, len(hand) - 1
    elif rank == 2:
        i = min(range(len(hand) - 1), key=lambda k: hand[k + 1] - hand[k])
        j = i + 1
    else:
        table = VALUE[1]
        pairs = itertools.combinations(range(len(hand)), 2)
        sign = 1 if lowest else -1
        i, j = min(pairs, key=lambda p: sign * table[hand[p[0]]][hand[p[1]]])
    del hand[j]
    del hand[i]


def _extremes(rank: int, hand: Sequence[int]) -> tuple[int, int]:
    """The highest and lowest value a hand can make for one rank."""
    if len(hand) < 2:
        return -1, MAX_VALUE + 1
    ordered = sorted(hand)
    if rank == 0:  # King: sum
        return ordered[-1] + ordered[-2], ordered[0] + ordered[1]
    if rank == 2:  # Jack: difference
        return ordered[-1] - ordered[0], min(b - a for a, b in itertools.pairwise(ordered))
    table = VALUE[1]
    distinct = sorted(set(ordered))
    pairs = [table[a][b] for a, b in itertools.combinations(distinct, 2)]
    if len(distinct) < len(ordered):
        pairs.append(0)  # two equal cards leave no remainder
    return max(pairs), min(pairs)


def _future_orders(
    view: MathArenaView, rounds_left: int, rng: random.Random, samples: int
) -> list[tuple[int, ...]]:
    """Possible orders of the operator kinds still to come in this set (its whole rest
    is known in the last set, but not its order)."""
    if rounds_left <= 0:
        return [()]
    deck = [kind_of(card) for card in view.operators_left]
    if len(deck) <= rounds_left and len(set(deck)) == 1:
        return [tuple(deck)]
    return [tuple(rng.sample(deck, min(rounds_left, len(deck)))) for _ in range(samples)]


class _Planner:
    """The most operator cards a hand (pip counts) can expect from the operators of
    ``order`` in turn, giving each its own pair: a dynamic programme over what is left."""

    def __init__(self, tables: list[list[list[float]]], order: tuple[int, ...]) -> None:
        self.tables = tables
        self.order = order
        self.memo: dict[tuple[int, tuple[int, ...]], float] = {}

    def best(self, step: int, counts: tuple[int, ...]) -> float:
        if step == len(self.order):
            return 0.0
        key = (step, counts)
        found = self.memo.get(key)
        if found is not None:
            return found
        kind = self.order[step]
        row = self.tables[step][kind]
        values = VALUE[kind // 2]
        cards = list(counts)
        result = 0.0
        for a in range(1, 11):
            if not cards[a]:
                continue
            cards[a] -= 1
            for b in range(a, 11):
                if not cards[b]:
                    continue
                cards[b] -= 1
                score = row[values[a][b]] + self.best(step + 1, tuple(cards))
                cards[b] += 1
                if score > result:
                    result = score
            cards[a] += 1
        self.memo[key] = result
        return result


def _choose(seat: Seat, a: str, b: str) -> Choose:
    """Cards in deck order, as ``legal_actions`` lists them."""
    first, second = sorted((a, b), key=CARD_ORDER.__getitem__)
    return Choose(seat, (first, second))


# -- bench --------------------------------------------------------------------------------------


def play_game(
    bots: Sequence[MathArenaBot], seed: int, times: dict[int, list[float]] | None = None
) -> MathArenaState:
    """One seeded game, one bot per seat; ``times`` collects seconds per decision."""
    state = GAME.new_game(MathArenaSettings(), len(bots))
    dealer = RngDealer(seed)
    while state.phase != "over":
        pending = GAME.pending(state)
        if pending.chance is not None:
            state, _ = GAME.apply(state, dealer.deal(pending.chance))
            continue
        for seat in sorted(pending.seats):
            start = time.perf_counter()
            action = bots[seat].choose(state, seat)
            if times is not None:
                times.setdefault(seat, []).append(time.perf_counter() - start)
            state, _ = GAME.apply(state, action)
    return state


def match_up(level: str, opponent: str, players: int, games: int) -> dict[str, Any]:
    """``level`` against ``players - 1`` bots of level ``opponent``, its seat rotating.
    A win is first place alone; a shared first place is a draw."""
    wins = draws = 0
    times: list[float] = []
    for seed in range(games):
        me = seed % players
        bots = [MathArenaBot(opponent, seed * 8 + s + 1) for s in range(players)]
        bots[me] = MathArenaBot(level, seed * 8)
        record: dict[int, list[float]] = {}
        state = play_game(bots, seed, record)
        times.extend(record.get(me, []))
        result = GAME.result(state)
        assert result is not None
        if result.places[me] == 1:
            if list(result.places).count(1) == 1:
                wins += 1
            else:
                draws += 1
    return {
        "games": games,
        "players": players,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "move_ms": move_ms(times),
    }


def bench(games: int) -> dict[str, Any]:
    """``tabletop bench --game math-arena``: hard against random and easy, 2 and 3 players."""
    out: dict[str, Any] = {
        "game": "math-arena",
        "games": games,
        "hard_samples": {"opponents": OPPONENT_SAMPLES, "futures": FUTURE_SAMPLES},
    }
    for players in (2, 3):
        out[f"hard_vs_random_{players}p"] = match_up("hard", "random", players, games)
        out[f"hard_vs_easy_{players}p"] = match_up("hard", "easy", players, games)
    return out


__all__ = [
    "LEVELS",
    "MathArenaBot",
    "bench",
    "easy_choice",
    "hard_choice",
    "match_up",
    "other_hands",
    "play_game",
    "win_tables",
]
