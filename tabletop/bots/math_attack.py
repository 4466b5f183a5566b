"""Math Attack! bots a child can play against: ``random``, ``easy``, ``medium``, ``hard``.

Every bot decides from ``seat_view`` (its own hand, both number lines, the counts),
never from the full state, so it cannot peek at the other hand or the stack.

- ``random`` plays any legal card anywhere.
- ``easy`` is greedy, the way a child first plays: the card that moves "my total minus
  your total" up the most right now, and ``=`` once it is ``EASY_END_LEAD`` ahead.
- ``medium`` plays like ``easy`` but keeps its big cards (``+/-``, cancel, the n and n×2
  multipliers) until the stack is empty or the last turn has come.
- ``hard`` is determinised Monte Carlo: it deals the cards it has not seen into a
  possible other hand and stack many times over, plays each of its moves out to the end
  of the game in every one of those worlds, and picks the move that wins most often.
  In the play-outs it plays like ``medium``; so does the other seat, except that it plays
  a random card as often as it seems to (``careless``): the bot watches the other seat's
  plays, which are public on the number lines, and counts those that hurt the player
  who made them. Against a careless player it keeps ahead at every turn, since ``=`` may
  come at any time. Moves are compared on the same worlds, and weak moves are dropped
  early (sequential halving) so the strong ones get more play-outs.

The play-outs run on a small integer simulator (``_Sim``), which follows the engine's
rules (ATK-2..ATK-6); a test checks the two agree.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from tabletop.bots.timing import move_ms
from tabletop.engine.dealers import RngDealer
from tabletop.engine.protocol import Seat
from tabletop.games.math_attack import (
    BLOCK,
    CANCEL,
    CARDS,
    END,
    FLIP,
    MULTIPLIER_FACTORS,
    Action,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    MathAttackView,
    Pass,
    Play,
    colour,
    line_total,
    may_cancel,
    seat_view,
)

LEVELS = ("random", "easy", "medium", "hard")
LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}  # as the app shows them
EASY_END_LEAD = 10
HOLD_PENALTY = 1000.0
HARD_ROLLOUTS = 500  # play-outs per decision (well under 0.5 s on a desktop core)
MARGIN_WEIGHT = 0.05  # a bigger lead breaks ties between equally winning moves
WIN = 1000.0

GAME = MathAttack()

# -- the card table for the simulator --------------------------------------------------------

_NUMBER, _MULT, _END, _CANCEL, _FLIP, _BLOCK = range(6)
INDEX = {card: i for i, card in enumerate(CARDS)}
_KIND: list[int] = []
_AMOUNT: list[int] = []  # number: signed value; multiplier: sign * (1 half, 2 n, 4 double)
for _card in CARDS:
    if _card in (END, CANCEL, FLIP, BLOCK):
        _KIND.append({END: _END, CANCEL: _CANCEL, FLIP: _FLIP, BLOCK: _BLOCK}[_card])
        _AMOUNT.append(0)
    elif _card[1:] in MULTIPLIER_FACTORS:
        _KIND.append(_MULT)
        _AMOUNT.append((1 if _card[0] == "+" else -1) * {"H": 1, "N": 2, "D": 4}[_card[1:]])
    else:
        _KIND.append(_NUMBER)
        _AMOUNT.append(int(_card))


_HELD = frozenset(INDEX[card] for card in CARDS if card in (FLIP, CANCEL) or card[1:] in ("N", "D"))


def _after(card: int, total: int) -> int:
    """The total after ``card`` (not for cancel): ATK-2 on integers."""
    kind = _KIND[card]
    if kind == _NUMBER:
        return total + _AMOUNT[card]
    if kind == _MULT:
        amount = _AMOUNT[card]
        size = abs(total)
        step = size // 2 if abs(amount) == 1 else size if abs(amount) == 2 else 2 * size
        return total + step if amount > 0 else total - step
    if kind == _FLIP:
        return -total
    return total


# -- the simulator ------------------------------------------------------------------------------


class _Sim:
    """A mutable copy of one possible world: totals, what a cancel would restore, hands
    and the stack in drawing order (the end of the list is the top)."""

    __slots__ = ("blocked", "cancellable", "end_by", "hands", "prev", "stack", "totals", "turn")

    def __init__(
        self,
        totals: list[int],
        prev: list[int],
        cancellable: list[bool],
        hands: list[list[int]],
        stack: list[int],
        turn: int,
        blocked: int | None,
        end_by: int | None,
    ) -> None:
        self.totals = totals
        self.prev = prev
        self.cancellable = cancellable
        self.hands = hands
        self.stack = stack
        self.turn = turn
        self.blocked = blocked
        self.end_by = end_by

    @classmethod
    def from_view(cls, view: MathAttackView, other_hand: list[int], stack: list[int]) -> _Sim:
        totals, prev, cancellable = [0, 0], [0, 0], [False, False]
        for line, cards in enumerate(view.lines):
            total = restore = 0
            for card in cards:
                if card == CANCEL:
                    total = restore  # as if the cancelled card had never been played
                else:
                    restore, total = total, _after(INDEX[card], total)
            totals[line] = total
            prev[line] = restore
            cancellable[line] = bool(cards) and colour(cards[-1]) != "green"
        hands: list[list[int]] = [[], []]
        hands[view.seat] = [INDEX[c] for c in view.hand]
        hands[1 - view.seat] = other_hand
        return cls(totals, prev, cancellable, hands, stack, view.turn, view.blocked, view.end_by)

    def copy(self) -> _Sim:
        return _Sim(
            self.totals[:],
            self.prev[:],
            self.cancellable[:],
            [self.hands[0][:], self.hands[1][:]],
            self.stack[:],
            self.turn,
            self.blocked,
            self.end_by,
        )

    def new_total(self, card: int, line: int) -> int | None:
        """The line's total if ``card`` goes there now, or None if it may not."""
        if line == self.blocked:
            return None
        if _KIND[card] == _CANCEL:
            return self.prev[line] if self.cancellable[line] else None
        return _after(card, self.totals[line])

    def greedy(self, hold: bool) -> tuple[int, int] | None:
        """The greedy move (card, line) for the seat to play, or None to pass: the card
        that moves "mine minus yours" up the most now; ``=`` once ``EASY_END_LEAD`` ahead
        (or ahead at all when the stack is empty). It never looks at the other hand.
        ``hold``: keep ``+/-``, cancel and the n and n×2 multipliers while the stack has
        cards, unless this is the last turn (they swing most at the end)."""
        me = self.turn
        totals = self.totals
        penalty = HOLD_PENALTY if hold and self.stack and self.end_by is None else 0.0
        best: tuple[int, int] | None = None
        best_gain = -math.inf
        for card in set(self.hands[me]):
            kind = _KIND[card]
            if kind == _END:
                line = me if self.blocked != me else 1 - me
                gain = self._end_value(me)
            elif kind == _BLOCK:
                line = me if self.blocked != me else 1 - me
                gain = 0.0
            else:
                line = -1
                gain = -math.inf
                for ln in (0, 1):
                    new = self.new_total(card, ln)
                    if new is None:
                        continue
                    g = float(new - totals[ln] if ln == me else totals[ln] - new)
                    if g > gain:
                        gain, line = g, ln
                if line < 0:
                    continue
                if card in _HELD:
                    gain -= penalty
            if gain > best_gain:
                best_gain, best = gain, (card, line)
        return best

    def _end_value(self, me: int) -> float:
        if self.end_by is not None:
            return 0.0  # the game ends after this turn anyway
        lead = self.totals[me] - self.totals[1 - me]
        if lead >= EASY_END_LEAD or (lead > 0 and not self.stack):
            return WIN
        return -WIN

    def play(self, card: int, line: int) -> None:
        me = self.turn
        self.hands[me].remove(card)
        kind = _KIND[card]
        if kind == _CANCEL:
            self.totals[line] = self.prev[line]
            self.cancellable[line] = False
        elif kind in (_NUMBER, _MULT):
            self.prev[line] = self.totals[line]
            self.totals[line] = _after(card, self.totals[line])
            self.cancellable[line] = True
        else:
            if kind == _FLIP:
                self.totals[line] = -self.totals[line]
            self.cancellable[line] = False
        self.blocked = line if kind == _BLOCK else None
        if kind == _END and self.end_by is None:
            self.end_by = me

    def finish_turn(self) -> bool:
        """Draw (unless the game ends) and pass the turn; True if the game is over."""
        me = self.turn
        if self.end_by is not None and me != self.end_by:
            return True
        if self.stack:
            self.hands[me].append(self.stack.pop())
        self.turn = 1 - me
        return False

    def random_move(self, rng: random.Random) -> tuple[int, int] | None:
        """A legal (card, line) picked at random, as the ``random`` bot does."""
        moves = [
            (card, line)
            for card in sorted(set(self.hands[self.turn]))
            for line in (0, 1)
            if self.new_total(card, line) is not None
        ]
        return rng.choice(moves) if moves else None

    def run(
        self,
        rng: random.Random | None = None,
        careless: float = 0.0,
        seat: int = -1,
        limit: int = 400,
    ) -> None:
        """Play both sides to the end of the game, as the ``medium`` bot plays, except
        that ``seat`` plays a random card with chance ``careless``."""
        for _ in range(limit):
            if rng is not None and self.turn == seat and careless and rng.random() < careless:
                move = self.random_move(rng)
            else:
                move = self.greedy(hold=True)
            if move is None:
                self.blocked = None
                if self.end_by is not None and self.turn != self.end_by:
                    return
                self.turn = 1 - self.turn
                continue
            self.play(*move)
            if self.finish_turn():
                return

    def score(self, seat: int) -> float:
        """Win 1, draw 0, loss -1, plus a little for the margin: it grows like a
        logarithm, so it never outweighs the result and never stops growing (a clipped
        margin made every move look alike once far ahead)."""
        diff = self.totals[seat] - self.totals[1 - seat]
        outcome = 1.0 if diff > 0 else -1.0 if diff < 0 else 0.0
        return outcome + MARGIN_WEIGHT * outcome * math.log1p(abs(diff))


# -- legal moves from the view -------------------------------------------------------------------


def legal_moves(view: MathAttackView) -> list[Action]:
    """The seat's legal actions, worked out from what it may see (same as the engine's)."""
    moves: list[Action] = []
    for card in dict.fromkeys(view.hand):
        for line in (0, 1):
            if line == view.blocked:
                continue
            if card == CANCEL and not may_cancel(view.lines[line]):
                continue
            moves.append(Play(view.seat, card, line))
    return moves or [Pass(view.seat, view.hand)]


# -- the bots ----------------------------------------------------------------------------------


@dataclass
class MathAttackBot:
    """A bot at one ``level``; ``seed`` makes its choices repeatable; ``rollouts`` is the
    hard bot's play-outs per decision. Keep one bot per seat for a whole game: the hard
    bot learns how careless the other seat is as the game goes on."""

    level: str = "hard"
    seed: int = 0
    rollouts: int | None = None  # None: HARD_ROLLOUTS

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVELS)}")
        self.rng = random.Random(self.seed)
        self._expected: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._seen = 0  # the other seat's plays this bot has watched
        self._slips = 0  # of those, plays that hurt the player who made them

    @property
    def careless(self) -> float:
        """How often the other seat seems to play at random: a random player hurts itself
        with about half its plays, a sensible one almost never. Before it has seen much,
        the bot expects a child who is careless half the time (prior: 1 slip in 4)."""
        return min(1.0, 2 * (self._slips + 1) / (self._seen + 4))

    def watch(self, view: MathAttackView) -> None:
        """Note the card the other seat played since this bot's last play (public: it
        lies on a number line), and whether it moved the other's lead down."""
        expected, self._expected = self._expected, None
        if expected is None:
            return
        if any(view.lines[ln][: len(expected[ln])] != expected[ln] for ln in (0, 1)):
            self._seen = self._slips = 0  # a new game
            return
        added = [ln for ln in (0, 1) for _ in view.lines[ln][len(expected[ln]) :]]
        if len(added) != 1:
            return  # the other seat passed
        line = added[0]
        change = line_total(view.lines[line]) - line_total(expected[line])
        self._seen += 1
        if (change if line != view.seat else -change) < 0:
            self._slips += 1

    def _expect(self, view: MathAttackView, action: Action) -> Action:
        lines = list(view.lines)
        if isinstance(action, Play):
            lines[action.line] = (*lines[action.line], action.card)
        self._expected = (lines[0], lines[1])
        return action

    def recall(self, state: MathAttackState, action: Action) -> None:
        """Rebuild this bot's memory of a game it played (carrying on from a journal):
        ``action`` is what :meth:`choose` returned for its seat in ``state``."""
        view = seat_view(state, action.seat)
        self.watch(view)
        if len(legal_moves(view)) == 1 or self.level == "hard":
            self._expect(view, action)

    def choose(self, state: MathAttackState, seat: Seat) -> Action:
        """The bot's action for ``seat``, which must be the seat to play."""
        if state.settings.hidden_hands:
            raise ValueError("a bot plays with virtual cards: its hand must be known")
        view = seat_view(state, seat)
        if view.phase != "play" or view.turn != seat:
            raise ValueError(f"seat {seat} is not the seat to play")
        self.watch(view)
        moves = legal_moves(view)
        if len(moves) == 1:
            return self._expect(view, moves[0])
        if self.level == "random":
            return self.rng.choice(moves)
        if self.level in ("easy", "medium"):
            return _greedy_action(view, hold=self.level == "medium")
        move = hard_move(view, self.rng, self.rollouts or HARD_ROLLOUTS, self.careless)
        return self._expect(view, move)


def _greedy_action(view: MathAttackView, hold: bool) -> Action:
    sim = _Sim.from_view(view, [], [])
    sim.stack = [0] * view.stack_size  # only its size matters here
    move = sim.greedy(hold=hold)
    if move is None:
        return Pass(view.seat, view.hand)
    return Play(view.seat, CARDS[move[0]], move[1])


def hard_move(
    view: MathAttackView, rng: random.Random, rollouts: int = HARD_ROLLOUTS, careless: float = 0.0
) -> Action:
    """Determinised Monte Carlo with sequential halving over the legal moves; in the
    play-outs the other seat plays a random legal card with chance ``careless``."""
    moves = [m for m in legal_moves(view) if isinstance(m, Play)]
    if len(moves) <= 1:
        return moves[0] if moves else Pass(view.seat, view.hand)
    unseen = [INDEX[card] for card, n in sorted(view.unseen().items()) for _ in range(n)]
    other = 1 - view.seat
    other_size = view.hand_sizes[other]
    worlds: list[_Sim] = []
    rounds = max(1, math.ceil(math.log2(len(moves))))
    alive = list(range(len(moves)))
    totals = [0.0] * len(moves)
    used = 0
    for r in range(rounds):
        per_move = max(2, rollouts // (rounds * len(alive)))
        while len(worlds) < used + per_move:
            rng.shuffle(unseen)
            worlds.append(_Sim.from_view(view, unseen[:other_size], unseen[other_size:]))
        for i in alive:
            move = moves[i]
            assert isinstance(move, Play)
            card = INDEX[move.card]
            for world in worlds[used : used + per_move]:
                sim = world.copy()
                sim.play(card, move.line)
                if not sim.finish_turn():
                    sim.run(rng, careless, other)
                totals[i] += sim.score(view.seat)
        used += per_move
        if r < rounds - 1:
            alive.sort(key=lambda i: -totals[i])
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
    return moves[max(alive, key=lambda i: totals[i])]


# -- bench --------------------------------------------------------------------------------------


def play_game(
    bots: tuple[MathAttackBot, MathAttackBot],
    seed: int,
    times: dict[int, list[float]] | None = None,
) -> MathAttackState:
    """One seeded game between two bots (seat 0 first on even seeds); ``times`` collects
    each seat's seconds per decision."""
    state = GAME.new_game(MathAttackSettings(first_player=seed % 2), 2)
    dealer = RngDealer(seed)
    while state.phase != "over":
        request = GAME.pending(state).chance
        if request is not None:
            state, _ = GAME.apply(state, dealer.deal(request))
            continue
        seat = state.turn
        start = time.perf_counter()
        action = bots[seat].choose(state, seat)
        if times is not None:
            times.setdefault(seat, []).append(time.perf_counter() - start)
        state, _ = GAME.apply(state, action)
    return state


def match_up(level: str, opponent: str, games: int, rollouts: int | None = None) -> dict[str, Any]:
    """``level`` against ``opponent`` over ``games`` seeded games, seats alternating."""
    wins = draws = losses = 0
    times: list[float] = []
    for seed in range(games):
        me = seed % 2  # the bot under test sits in each seat half the time
        bots = [MathAttackBot(opponent, seed + 7919, rollouts)] * 2
        bots[me] = MathAttackBot(level, seed, rollouts)
        record: dict[int, list[float]] = {}
        state = play_game((bots[0], bots[1]), seed, record)
        times.extend(record.get(me, []))
        result = GAME.result(state)
        assert result is not None
        place, other = result.places[me], result.places[1 - me]
        if place < other:
            wins += 1
        elif place == other:
            draws += 1
        else:
            losses += 1
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "move_ms": move_ms(times),
    }


def bench(games: int) -> dict[str, Any]:
    """``tabletop bench --game math-attack``: hard against random and against easy (and
    the quick levels against each other), over ``games`` seeded games each."""
    return {
        "game": "math-attack",
        "games": games,
        "hard_rollouts": HARD_ROLLOUTS,
        "hard_vs_random": match_up("hard", "random", games),
        "hard_vs_easy": match_up("hard", "easy", games),
        "easy_vs_random": match_up("easy", "random", games),
        "medium_vs_easy": match_up("medium", "easy", games),
    }


__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "MathAttackBot",
    "bench",
    "hard_move",
    "legal_moves",
    "match_up",
    "play_game",
]
