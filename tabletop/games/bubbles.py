"""The bubble game (RULINGS MECS-8), pure: bubbles, their physics, the sums they make.

Red number bubbles and blue operator bubbles drift and bounce in a field of
:data:`WIDTH` x :data:`HEIGHT` units. A blue bubble that touches a free red one sticks to
it and both stop: a pair ``n op``. Dropping another free number bubble ``m`` on the pair
makes ``n op m``: the three bubbles pop and the answer is worked out exactly (division
gives a :class:`~fractions.Fraction`). An answer equal to the target scores a point and a
new target is chosen from the answers the bubbles on the field can make, so a target is
always reachable. A round lasts ``settings.seconds`` (default 60 s) of game time.

Time is a count of fixed steps (:data:`DT`): whoever drives the game calls :meth:`step`
as often as its clock says, so a test or a bot replays a round exactly; all chance comes
from the ``rng`` handed in (a seeded ``random.Random``: :class:`Chance`). Only the standard
library is imported, and no global random: like every engine, chance comes from outside.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from tabletop.engine.errors import IllegalMove

T = TypeVar("T")


class Chance(Protocol):
    """Where a round's chance comes from: a seeded ``random.Random``, handed in by whoever
    drives the round (the app, a bot, a test), so that a seed and the actions replay it."""

    def choice(self, seq: Sequence[T]) -> T: ...

    def uniform(self, a: float, b: float) -> float: ...

    def getstate(self) -> Any: ...

    def setstate(self, state: Any) -> None: ...


# -- constants ---------------------------------------------------------------------------

OPS = ("+", "-", "x", "/")
OP_GLYPHS = {"+": "+", "-": "\u2212", "x": "\u00d7", "/": "\u00f7"}
OP_WORDS = {"+": "plus", "-": "minus", "x": "times", "/": "divided by"}
DT = 1 / 30  # seconds of game time per step
WIDTH, HEIGHT = 1000.0, 470.0  # the field, in field units (the shape of the screen's room)
RADIUS = 48.0  # every bubble's radius, in field units
TARGETS = range(0, 101)  # targets are whole numbers 0..100


# -- settings, bubbles, what happened ----------------------------------------------------------


@dataclass(frozen=True)
class BubbleSettings:
    """One round's options: its length, how many bubbles of each colour fly, which signs
    and digits appear, and how fast bubbles drift (field units per second)."""

    seconds: float = 60.0
    numbers: int = 7
    operators: int = 4
    ops: tuple[str, ...] = OPS
    digits: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    speed: tuple[float, float] = (70.0, 130.0)

    def __post_init__(self) -> None:
        if not 5 <= self.seconds <= 600:
            raise ValueError(f"a round lasts 5 to 600 seconds, not {self.seconds}")
        if not 3 <= self.numbers <= 10 or not 1 <= self.operators <= 6:
            raise ValueError(
                f"3..10 number and 1..6 operator bubbles, not {self.numbers}/{self.operators}"
            )
        if not self.ops or any(op not in OPS for op in self.ops):
            raise ValueError(f"operators must come from {OPS}, not {self.ops}")
        if not self.digits or any(not 0 <= d <= 99 for d in self.digits):
            raise ValueError(f"digits must be 0..99, not {self.digits}")
        if not 0 <= self.speed[0] <= self.speed[1]:
            raise ValueError(f"speed must be (low, high), not {self.speed}")

    @property
    def steps(self) -> int:
        return round(self.seconds / DT)


@dataclass
class Bubble:
    """One bubble. ``value`` is a whole number (red) or one of :data:`OPS` (blue);
    ``partner`` is the bubble it is stuck to; a ``held`` bubble is in a finger."""

    id: int
    kind: str  # "number" | "operator"
    value: int | str
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    partner: int | None = None
    held: bool = False

    @property
    def moving(self) -> bool:
        return self.partner is None and not self.held

    @property
    def label(self) -> str:
        return OP_GLYPHS[str(self.value)] if self.kind == "operator" else str(self.value)


@dataclass(frozen=True)
class Stuck:
    """A blue bubble touched a red one: the pair ``n op`` stopped."""

    number: int
    operator: int
    n: int
    op: str
    at: float


@dataclass(frozen=True)
class Retargeted:
    """A bubble stuck and the old target can no longer be made: a new target (or, when
    the field can make no whole number at all, the same one until a pair pops)."""

    old: int
    new: int
    at: float

    @property
    def reason(self) -> str:
        if self.new == self.old:
            return f"No bubbles can make {self.old} now. Pop any pair to get new bubbles."
        return f"No bubbles can make {self.old} any more, so the new target is {self.new}."


@dataclass(frozen=True)
class Popped:
    """``n op m`` popped. ``hit``: the answer was the target (a point). ``new_target``:
    the target after the pop (a new one after a hit, or when nothing on the field can make
    the old one any more: ``retargeted``)."""

    n: int
    op: str
    m: int
    answer: Fraction
    target: int
    hit: bool
    new_target: int
    retargeted: bool
    at: float

    @property
    def sum_text(self) -> str:
        return f"{self.n} {OP_GLYPHS[self.op]} {self.m}"

    @property
    def answer_text(self) -> str:
        return answer_text(self.answer)

    @property
    def equation(self) -> str:
        return f"{self.sum_text} = {self.answer_text}"

    @property
    def reason(self) -> str:
        """Why it scored or not, in plain words."""
        if self.hit:
            return f"{self.equation}. That is the target: 1 point!"
        if self.answer.denominator != 1:
            return (
                f"{self.sum_text} leaves a remainder, so the answer {self.answer_text} is "
                f"not a whole number and cannot be {self.target}. No point."
            )
        return f"{self.equation}, but the target is {self.target}. No point."


def answer_text(answer: Fraction) -> str:
    """``7``, ``-3`` or ``7/2`` (exact)."""
    sign = "\u2212" if answer < 0 else ""
    a = abs(answer)
    return f"{sign}{a.numerator}" if a.denominator == 1 else f"{sign}{a.numerator}/{a.denominator}"


def calculate(n: int, op: str, m: int) -> Fraction:
    """``n op m`` exactly; refuses a division by zero."""
    if op == "+":
        return Fraction(n + m)
    if op == "-":
        return Fraction(n - m)
    if op == "x":
        return Fraction(n * m)
    if op == "/":
        if m == 0:
            raise IllegalMove("bubbles.divide_by_zero", f"{n} / 0: division by zero has no answer")
        return Fraction(n, m)
    raise ValueError(f"unknown operator {op!r}")


# -- the game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One thing the player did, at game step ``step``: ``pick`` (bubble), ``move`` (x,
    y), ``put`` (let go), ``drop`` (on the pair of bubble), ``undo``. A round is its
    settings, its seed and these: :func:`replay` plays it again exactly."""

    kind: str
    step: int
    bubble: int = 0
    x: float = 0.0
    y: float = 0.0


@dataclass
class _Snapshot:
    bubbles: dict[int, Bubble]
    score: int
    target: int
    next_id: int
    rng: object
    pops: int


@dataclass
class BubbleGame:
    """One round. Drive it with :meth:`step`; a player uses :meth:`pick`,
    :meth:`move_held`, :meth:`put_down` and :meth:`drop` (or :meth:`play`)."""

    settings: BubbleSettings
    rng: Chance
    bubbles: dict[int, Bubble] = field(default_factory=dict)
    score: int = 0
    target: int = 0
    steps: int = 0
    pops: list[Popped] = field(default_factory=list)
    stuck: list[Stuck] = field(default_factory=list)
    retargets: list[Retargeted] = field(default_factory=list)
    _next_id: int = 1
    actions: list[Action] = field(default_factory=list)
    _undo: list[_Snapshot] = field(default_factory=list)

    @classmethod
    def new(cls, settings: BubbleSettings | None = None, *, rng: Chance) -> BubbleGame:
        game = cls(settings or BubbleSettings(), rng)
        game._refill()
        game.target = game._choose_target(exclude=None)
        return game

    # -- reading ------------------------------------------------------------------------

    @property
    def elapsed(self) -> float:
        return self.steps * DT

    @property
    def time_left(self) -> float:
        return max(0.0, (self.settings.steps - self.steps) * DT)

    @property
    def over(self) -> bool:
        return self.steps >= self.settings.steps

    @property
    def held(self) -> Bubble | None:
        return next((b for b in self.bubbles.values() if b.held), None)

    def free_numbers(self) -> list[Bubble]:
        return [b for b in self.bubbles.values() if b.kind == "number" and b.partner is None]

    def free_operators(self) -> list[Bubble]:
        return [b for b in self.bubbles.values() if b.kind == "operator" and b.partner is None]

    def pairs(self) -> list[tuple[Bubble, Bubble]]:
        """Every stuck pair as (number, operator)."""
        return [
            (self.bubbles[b.partner], b)
            for b in self.bubbles.values()
            if b.kind == "operator" and b.partner is not None
        ]

    def pair_of(self, bubble_id: int) -> tuple[Bubble, Bubble] | None:
        """The pair ``bubble_id`` belongs to, as (number, operator)."""
        b = self.bubbles.get(bubble_id)
        if b is None or b.partner is None:
            return None
        other = self.bubbles[b.partner]
        return (b, other) if b.kind == "number" else (other, b)

    def bubble_at(
        self, x: float, y: float, slack: float = 0.0, *, held: bool = True
    ) -> Bubble | None:
        """The bubble nearest a point, if within its radius and ``slack`` (``held``: the
        held bubble may be it)."""
        near = [b for b in self.bubbles.values() if held or not b.held]
        best = min(near, key=lambda b: math.hypot(b.x - x, b.y - y), default=None)
        if best is None or math.hypot(best.x - x, best.y - y) > RADIUS + slack:
            return None
        return best

    def answers(self) -> dict[Fraction, list[tuple[int, int]]]:
        """The answers that can be made right now: answer -> [(number id, pair's
        operator id)] for every free number dropped on every pair."""
        out: dict[Fraction, list[tuple[int, int]]] = {}
        for n, op in self.pairs():
            for m in self.free_numbers():
                try:
                    answer = calculate(int(n.value), str(op.value), int(m.value))
                except IllegalMove:
                    continue
                out.setdefault(answer, []).append((m.id, op.id))
        return out

    def possible_answers(self) -> set[Fraction]:
        """Answers the field can make now, or once a free blue bubble sticks to a free
        red one (and another free red one is dropped on them)."""
        found = set(self.answers())
        numbers = self.free_numbers()
        for op in {str(b.value) for b in self.free_operators()}:
            for n in numbers:
                for m in numbers:
                    if m.id != n.id and not (op == "/" and m.value == 0):
                        found.add(calculate(int(n.value), op, int(m.value)))
        return found

    # -- time -----------------------------------------------------------------------------

    def step(self) -> list[Stuck | Retargeted]:
        """One fixed step of ``DT`` seconds: bubbles drift, bounce and stick (and a target
        that the new pairs made impossible is replaced, so it stays reachable)."""
        if self.over:
            return []
        self.steps += 1
        for b in self.bubbles.values():
            if b.moving:
                b.x += b.vx * DT
                b.y += b.vy * DT
                self._walls(b)
        events: list[Stuck | Retargeted] = list(self._collide())
        if events and not self.reachable:
            old = self.target
            self.target = self._choose_target(exclude=old)
            # the same target back: no whole number can be made until a pair pops
            events.append(Retargeted(old, self.target, self.elapsed))
            self.retargets.append(events[-1])  # type: ignore[arg-type]
        return events

    def _walls(self, b: Bubble) -> None:
        if b.x < RADIUS:
            b.x, b.vx = RADIUS, abs(b.vx)
        elif b.x > WIDTH - RADIUS:
            b.x, b.vx = WIDTH - RADIUS, -abs(b.vx)
        if b.y < RADIUS:
            b.y, b.vy = RADIUS, abs(b.vy)
        elif b.y > HEIGHT - RADIUS:
            b.y, b.vy = HEIGHT - RADIUS, -abs(b.vy)

    def _collide(self) -> list[Stuck]:
        events: list[Stuck] = []
        live = [b for b in self.bubbles.values() if not b.held]
        for i, a in enumerate(live):
            for b in live[i + 1 :]:
                if not (a.moving or b.moving):
                    continue
                dx, dy = b.x - a.x, b.y - a.y
                d = math.hypot(dx, dy)
                if d >= 2 * RADIUS:
                    continue
                if a.partner is None and b.partner is None and a.kind != b.kind:
                    events.append(self._stick(a, b))
                else:
                    _bounce(a, b, dx, dy, d)
                    self._walls(a)
                    self._walls(b)
        return events

    def _stick(self, a: Bubble, b: Bubble) -> Stuck:
        number, op = (a, b) if a.kind == "number" else (b, a)
        number.partner, op.partner = op.id, number.id
        # side by side, the number on the left, so the pair reads "n op" like a sum
        cx = min(max((number.x + op.x) / 2, 2 * RADIUS), WIDTH - 2 * RADIUS)
        cy = (number.y + op.y) / 2
        number.x, op.x = cx - RADIUS, cx + RADIUS
        number.y = op.y = cy
        for x in (number, op):
            x.vx = x.vy = 0.0
        event = Stuck(number.id, op.id, int(number.value), str(op.value), self.elapsed)
        self.stuck.append(event)
        return event

    # -- a player's moves ------------------------------------------------------------------

    def pick(self, bubble_id: int) -> Bubble:
        """Take a free red bubble in a finger (it stops until it is put down or dropped)."""
        self._playing()
        b = self.bubbles.get(bubble_id)
        if b is None:
            raise IllegalMove("bubbles.gone", f"bubble {bubble_id} is not on the field")
        if b.kind != "number":
            raise IllegalMove(
                "bubbles.pick_operator",
                f"bubble {bubble_id} is the operator {b.value}: only number bubbles are dragged",
            )
        if b.partner is not None:
            raise IllegalMove(
                "bubbles.pick_pair",
                f"bubble {bubble_id} ({b.value}) is stuck in a pair: only free numbers move",
            )
        held = self.held
        if held is not None and held.id != bubble_id:
            held.held = False
        b.held = True
        self.actions.append(Action("pick", self.steps, bubble_id))
        return b

    def move_held(self, x: float, y: float) -> None:
        """The finger moved: the held bubble follows (inside the field)."""
        b = self.held
        if b is not None:
            b.x = min(max(x, RADIUS), WIDTH - RADIUS)
            b.y = min(max(y, RADIUS), HEIGHT - RADIUS)
            self.actions.append(Action("move", self.steps, b.id, b.x, b.y))

    def put_down(self) -> None:
        """Let go of the held bubble where it is; it drifts on."""
        b = self.held
        if b is not None:
            b.held = False
            self.actions.append(Action("put", self.steps, b.id))

    def drop(self, onto: int) -> Popped:
        """Drop the held bubble on the pair that bubble ``onto`` belongs to."""
        self._playing()
        m = self.held
        if m is None:
            raise IllegalMove("bubbles.nothing_held", "no bubble is held: pick a number first")
        pair = self.pair_of(onto)
        if pair is None:
            what = self.bubbles.get(onto)
            desc = "nothing" if what is None else f"a free {what.kind} bubble ({what.value})"
            raise IllegalMove(
                "bubbles.not_a_pair",
                f"{m.value} was dropped on {desc}: drop numbers on a stuck pair n op",
            )
        n, op = pair
        answer = calculate(int(n.value), str(op.value), int(m.value))
        self._undo.append(
            _Snapshot(
                copy.deepcopy(self.bubbles),
                self.score,
                self.target,
                self._next_id,
                self.rng.getstate(),
                len(self.pops),
            )
        )
        for b in (n, op, m):
            del self.bubbles[b.id]
        hit = answer == self.target
        if hit:
            self.score += 1
        self._refill()
        old = self.target
        retargeted = False
        if hit:
            self.target = self._choose_target(exclude=old)
        elif old not in self.possible_answers():
            self.target = self._choose_target(exclude=old)
            retargeted = self.target != old
        popped = Popped(
            int(n.value),
            str(op.value),
            int(m.value),
            answer,
            old,
            hit,
            self.target,
            retargeted,
            self.elapsed,
        )
        self.pops.append(popped)
        self.actions.append(Action("drop", self.steps, onto))
        return popped

    def play(self, number: int, onto: int) -> Popped:
        """Pick ``number`` and drop it on the pair of ``onto`` (one whole move)."""
        self.pick(number)
        try:
            return self.drop(onto)
        except IllegalMove:
            self.put_down()
            raise

    def undo(self) -> Popped:
        """Take back the last pop: the bubbles, score and target come back (the clock
        does not)."""
        if not self._undo:
            raise IllegalMove("engine.nothing_to_undo", "no pop to take back")
        snap = self._undo.pop()
        undone = self.pops[snap.pops]
        self.bubbles = snap.bubbles
        self.score = snap.score
        self.target = snap.target
        self._next_id = snap.next_id
        self.rng.setstate(snap.rng)
        del self.pops[snap.pops :]
        for b in self.bubbles.values():
            b.held = False
        self.actions.append(Action("undo", self.steps))
        return undone

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def _playing(self) -> None:
        if self.over:
            raise IllegalMove("bubbles.time_up", "the round is over: no more moves")

    # -- new bubbles and targets -------------------------------------------------------------

    def _refill(self) -> None:
        s = self.settings
        kinds = [b.kind for b in self.bubbles.values()]
        for _ in range(s.numbers - kinds.count("number")):
            self._spawn("number", self.rng.choice(s.digits))
        for _ in range(s.operators - kinds.count("operator")):
            self._spawn("operator", self.rng.choice(s.ops))

    def _spawn(self, kind: str, value: int | str) -> Bubble:
        rng = self.rng
        x = y = 0.0
        for _ in range(60):  # a free spot, or the last try
            x = rng.uniform(RADIUS, WIDTH - RADIUS)
            y = rng.uniform(RADIUS, HEIGHT - RADIUS)
            if all(math.hypot(b.x - x, b.y - y) > 2.2 * RADIUS for b in self.bubbles.values()):
                break
        angle = rng.uniform(0, 2 * math.pi)
        speed = rng.uniform(*self.settings.speed)
        b = Bubble(
            self._next_id, kind, value, x, y, speed * math.cos(angle), speed * math.sin(angle)
        )
        self._next_id += 1
        self.bubbles[b.id] = b
        return b

    def _choose_target(self, exclude: int | None) -> int:
        """A whole-number answer the field can make: one makeable now if there is one,
        else one a free blue bubble can make once it sticks. 1..100 first; 0 (n - n,
        n x 0) only when nothing else can be made, it is too easy; a negative number only
        when the field can make no other whole number."""
        pools = (set(self.answers()), self.possible_answers())
        tiers: tuple[Callable[[int], bool], ...] = (
            lambda t: t in TARGETS and t != 0,
            lambda t: t == 0,
            lambda t: -100 <= t < 0,
        )
        for fits in tiers:
            for pool in pools:
                whole = sorted(
                    int(a) for a in pool if a.denominator == 1 and a != exclude and fits(int(a))
                )
                if whole:
                    return self.rng.choice(whole)
        return self.target if exclude is None else exclude

    @property
    def reachable(self) -> bool:
        """The target can be made (now, or once a free blue bubble sticks)."""
        return Fraction(self.target) in self.possible_answers()

    def iter_bubbles(self) -> Iterator[Bubble]:
        """Bubbles in drawing order: pairs, then free ones, the held one last."""
        yield from sorted(self.bubbles.values(), key=lambda b: (b.held, b.partner is None, b.id))


def replay(settings: BubbleSettings, rng: Chance, actions: list[Action], steps: int) -> BubbleGame:
    """The round that ``actions`` make from ``rng`` (seeded as the round's was), run to
    game step ``steps``."""
    game = BubbleGame.new(settings, rng=rng)
    for action in actions:
        while game.steps < action.step:
            game.step()
        if action.kind == "pick":
            game.pick(action.bubble)
        elif action.kind == "move":
            game.move_held(action.x, action.y)
        elif action.kind == "put":
            game.put_down()
        elif action.kind == "drop":
            game.drop(action.bubble)
        elif action.kind == "undo":
            game.undo()
        else:
            raise ValueError(f"unknown bubble action {action.kind!r}")
    while game.steps < steps and not game.over:
        game.step()
    return game


def _bounce(a: Bubble, b: Bubble, dx: float, dy: float, d: float) -> None:
    """Two touching bubbles push apart; moving ones swap their speed along the line
    between the centres (equal masses), a stopped one acts as a wall."""
    if d == 0:
        dx, dy, d = 1.0, 0.0, 1.0
    nx, ny = dx / d, dy / d
    overlap = 2 * RADIUS - d
    if a.moving and b.moving:
        a.x -= nx * overlap / 2
        a.y -= ny * overlap / 2
        b.x += nx * overlap / 2
        b.y += ny * overlap / 2
        va = a.vx * nx + a.vy * ny
        vb = b.vx * nx + b.vy * ny
        if va - vb > 0:  # approaching
            a.vx += (vb - va) * nx
            a.vy += (vb - va) * ny
            b.vx += (va - vb) * nx
            b.vy += (va - vb) * ny
        return
    mover, sign = (a, -1.0) if a.moving else (b, 1.0)
    mover.x += sign * nx * overlap
    mover.y += sign * ny * overlap
    v = mover.vx * nx + mover.vy * ny
    if v * sign < 0:  # moving into the stopped bubble: reflect
        mover.vx -= 2 * v * nx
        mover.vy -= 2 * v * ny


# -- a bot -------------------------------------------------------------------------------


def best_move(game: BubbleGame) -> tuple[int, int] | None:
    """A move that hits the target now: (free number id, the pair's operator id)."""
    moves = game.answers().get(Fraction(game.target))
    return moves[0] if moves else None


def any_move(game: BubbleGame) -> tuple[int, int] | None:
    """Some legal move (to clear the field when the target cannot be made yet)."""
    for moves in game.answers().values():
        return moves[0]
    return None


__all__ = [
    "DT",
    "HEIGHT",
    "OPS",
    "OP_GLYPHS",
    "RADIUS",
    "WIDTH",
    "Action",
    "Bubble",
    "BubbleGame",
    "BubbleSettings",
    "Popped",
    "Retargeted",
    "Stuck",
    "answer_text",
    "any_move",
    "best_move",
    "calculate",
    "replay",
]
