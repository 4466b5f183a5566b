"""The kind of a child's mistake: what a wrong answer most likely came from (issue 24).

Pure and standard library only (like the engines): exact arithmetic with
:class:`fractions.Fraction`, no I/O, no clock, no randomness.

A :class:`Question` is what the device asked: numbers and the operations between them
(``+ - x /``), worked out by precedence (x and / first) unless ``order`` says the game
works left to right, and the answer the game's rules call right (``right``; Math Wars
Meta's "a division with a remainder leaves the COUNT META card alone", MWM-2, makes it
differ from the arithmetic). A division of two whole numbers whose ``right`` is not the
quotient asks what :attr:`Question.asks` says, told by its numbers and ``right`` alone (so
answers journaled before it read the same): the remainder (Math Arena's Queen, ARENA-1:
``remainder of 9 ÷ 4``), or the count kept (MWM-2: ``5 ÷ 10 leaves a remainder, so 5
counts``). :func:`classify` names the kind of a wrong answer, the first that fits in this
order (:data:`KINDS`; where a division asks for its remainder or keeps the count, an
answer that is its quotient or remainder is a ``remainder`` mistake before an
``operation`` one: the Queen's 4 ÷ 2 answered 2 gave the quotient, though 2 is also 4 - 2):

``sign``
    the opposite of the right answer (``5 - 9``: answered 4, the right answer is -4);
``operation``
    what the same numbers give under another of + - x / (``7 x 8``: answered 15, which
    is ``7 + 8``); with three or more numbers, one operation changed;
``remainder``
    a division that leaves a remainder: the whole-number part given (the remainder
    ignored), or the remainder itself, or the quotient and remainder written together
    (``17 / 5``: answered 32 for "3 r 2"): the remainder kept. Where the question asks
    for the remainder, the quotient given (or both written together); where the game
    keeps the count, a division done all the same (see :attr:`Question.asks`);
``order``
    order of operations: worked left to right where x and / come first, or x and / first
    where the game works left to right;
``place_value``
    the digits of the right answer swapped (answered 45 for 54), or a factor of 10, 100
    or 1000 out (answered 560 for 56);
``off_by_one``
    one more or one less than the right answer, or a small amount off (at most
    :data:`SMALL`, or one tenth of the answer when that is more);
``other``
    none of those.

Two more kinds are not worked out from the answer but told by the game
(:attr:`Question.broken`): ``rule``, a Mathe-Meister line (MM-3, MM-4, MM-10) whose sum
the device worked out but which breaks its rule (rows want even sums, columns odd, a mode
its order); ``objective``, a true M.E.C.S. equation whose answer misses the challenge
card's objective (MECS-6).

An expression with brackets, square roots, squares or fraction bars (M.E.C.S.'s cards)
keeps its shape in :attr:`Question.shape`: ``n`` for each number, ``o`` for each
operation, and ``(`` ``)`` ``√`` ``²`` as they stand (``(2 + 3) x 4``: ``( n o n ) o n``).
Its operations may also be ``frac`` (a fraction bar, bound tighter than x and ÷). Its
``order`` mistake is also the brackets left out.

Each kind has a title and a sentence a teacher understands (:data:`KINDS`), and
:func:`classify` says it with the child's own example (:attr:`Mistake.example`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# The skills a checked answer can practise, in report order, with their titles.
SKILLS: dict[str, str] = {
    "addition": "Addition",
    "subtraction": "Subtraction",
    "multiplication": "Multiplication",
    "division": "Division",
    "order": "Order of operations",
    "equations": "Equations",
    "line_sums": "Mathe-Meister line sums",
    "count": "Reading the count",  # Math Wars Meta with no MATH CRATE card left (MWM-2)
}
# The kinds of mistake, in the order classify() tries them: (title, what it means).
KINDS: dict[str, tuple[str, str]] = {
    "sign": ("Sign", "gave the opposite of the right answer (a minus sign lost or added)"),
    "operation": ("Another operation", "did another operation with the same numbers"),
    "remainder": (
        "Remainder",
        "dropped a division's remainder or wrote it in; gave the quotient where the"
        " remainder was asked (Math Arena's Queen); or divided where a remainder keeps the"
        " count (Math Wars Meta)",
    ),
    "order": ("Order of operations", "worked the operations in the wrong order"),
    "place_value": ("Place value", "swapped the digits, or was out by a factor of 10"),
    "off_by_one": ("Off by one", "was one (or a little) away from the right answer"),
    "other": ("Other", "a wrong answer of no kind the device knows"),
    "rule": ("Line rule", "made a Mathe-Meister line whose sum breaks its rule"),
    "objective": ("Objective", "made a true equation whose answer misses the objective"),
}
TOLD = ("rule", "objective")  # the kinds a game tells (Question.broken)
CLASSIFIED = tuple(k for k in KINDS if k not in TOLD)  # the kinds classify() works out
OPS = ("+", "-", "x", "/")
FRAC = "frac"  # a fraction bar (a shaped question's operation only)
OP_SIGNS = {"+": "+", "-": "-", "x": "x", "/": "÷", FRAC: "/"}
SHAPE_TOKENS = ("n", "o", "(", ")", "√", "²")
OP_SKILLS = {"+": "addition", "-": "subtraction", "x": "multiplication", "/": "division"}
SMALL = 2  # "a small amount": off by at most this (or a tenth of the answer, if more)
# What a question asks (Question.asks): its value, a division's remainder, or the count kept
VALUE, REMAINDER, COUNT = "value", "remainder", "count"
PRECEDENCE = "precedence"
LEFT_TO_RIGHT = "left-to-right"


@dataclass(frozen=True)
class Question:
    """What the device asked: ``numbers[0] ops[0] numbers[1] ops[1] ...``; ``right``: the
    answer the game calls right (None: the arithmetic's own value)."""

    skill: str
    numbers: tuple[Fraction, ...]
    ops: tuple[str, ...]
    right: Fraction | None = None
    order: str = PRECEDENCE
    broken: str | None = None  # the rule (a line) or objective (an equation) it breaks
    shape: tuple[str, ...] = ()  # brackets, roots, squares: see the module docstring

    def __post_init__(self) -> None:
        if len(self.ops) != len(self.numbers) - 1 or not self.numbers:
            raise ValueError("a question has one operation fewer than numbers")
        allowed = (*OPS, FRAC) if self.shape else OPS
        if any(op not in allowed for op in self.ops):
            raise ValueError(f"operations are {allowed}, not {self.ops}")
        if self.shape and (
            any(t not in SHAPE_TOKENS for t in self.shape)
            or self.shape.count("n") != len(self.numbers)
            or self.shape.count("o") != len(self.ops)
        ):
            raise ValueError(f"{self.shape} is not the shape of {len(self.numbers)} numbers")

    @property
    def answer(self) -> Fraction:
        """The right answer (the game's, else the arithmetic's)."""
        if self.right is not None:
            return self.right
        value = self.value()
        if value is None:
            raise ValueError(f"{self.text} has no value (a division by zero)")
        return value

    def value(
        self, ops: Sequence[str] | None = None, order: str | None = None, brackets: bool = True
    ) -> Fraction | None:
        """The arithmetic's value, with other ``ops``, another ``order`` or (``brackets``
        False) the brackets left out; None where it has none."""
        ops = self.ops if ops is None else tuple(ops)
        order = self.order if order is None else order
        if not self.shape:
            return evaluate(self.numbers, ops, order)
        return _shaped_value(self.numbers, ops, self.shape, order, brackets)

    @property
    def asks(self) -> str:
        """:data:`VALUE`, or for a division of two whole numbers whose ``right`` is not
        the quotient, :data:`REMAINDER` (``right`` is what is left, ARENA-1's Queen) or
        :data:`COUNT` (it leaves a remainder and ``right`` is the first number, MWM-2)."""
        parts = _division(self)
        if parts is None or self.right is None:
            return VALUE
        a, b, _, left = parts
        if self.right == Fraction(a, b):
            return VALUE
        if left and self.right == a:
            return COUNT
        return REMAINDER if self.right == left else VALUE

    @property
    def text(self) -> str:
        """``7 x 8``, ``2 + 3 x 4``, ``(2 + 3) x 4``; ``remainder of 9 ÷ 4``, ``5 ÷ 10
        leaves a remainder, so 5 counts`` (:attr:`asks`)."""
        if self.shape:
            return _shaped_text(self)
        asks = self.asks
        if asks != VALUE:
            a, b = (number_text(n) for n in self.numbers)
            if asks == REMAINDER:
                return f"remainder of {a} ÷ {b}"
            return f"{a} ÷ {b} leaves a remainder, so {a} counts"
        parts = [number_text(self.numbers[0])]
        for op, n in zip(self.ops, self.numbers[1:], strict=True):
            parts += [OP_SIGNS[op], number_text(n)]
        return " ".join(parts)


@dataclass(frozen=True)
class Mistake:
    """A wrong answer's kind and the child's own example, in a teacher's words."""

    kind: str
    example: str

    @property
    def title(self) -> str:
        return KINDS[self.kind][0]


def question(
    skill: str, numbers: Sequence[int | Fraction], ops: Sequence[str], **kw: object
) -> Question:
    """A :class:`Question` from plain numbers (``question("multiplication", [7, 8], "x")``)."""
    return Question(skill, tuple(Fraction(n) for n in numbers), tuple(ops), **kw)  # type: ignore[arg-type]


def skill_of(ops: Sequence[str]) -> str:
    """The skill an expression practises: its one kind of operation, else "order"."""
    kinds = {OP_SKILLS[op] for op in ops}
    if len(kinds) == 1:
        return kinds.pop()
    mixed = {op in "x/" for op in ops}
    return "order" if len(mixed) == 2 else "addition" if ops[0] in "+-" else "multiplication"


def classify(q: Question, given: Fraction | int) -> Mistake | None:
    """The kind of the answer ``given`` to ``q``: None when it is right."""
    given = Fraction(given)
    right = q.answer
    if q.broken is not None:  # told by the game: a line's rule, an equation's objective
        kind = "rule" if q.skill == "line_sums" else "objective"
        return Mistake(kind, f"{q.text} = {number_text(given)}: {q.broken}")
    if given == right:
        return None
    head = f"{q.text}: answered {number_text(given)}"
    for test in _TESTS if q.asks == VALUE else _RULE_TESTS:
        found = test(q, given, right, head)
        if found is not None:
            return found
    return Mistake("other", f"{head}; the answer is {number_text(right)}")


def evaluate(
    numbers: Sequence[Fraction], ops: Sequence[str], order: str = PRECEDENCE
) -> Fraction | None:
    """The value of ``numbers`` with ``ops`` between them (None: a division by zero).
    ``order``: :data:`PRECEDENCE` (x and / first), :data:`LEFT_TO_RIGHT`, or
    ``"reverse"`` (+ and - first, a child's other common slip)."""
    if order == LEFT_TO_RIGHT:
        value = numbers[0]
        for op, n in zip(ops, numbers[1:], strict=True):
            step = _apply(value, op, n)
            if step is None:
                return None
            value = step
        return value
    first = "+-" if order == "reverse" else "x/"
    # one pass for the operations that bind first, then left to right for the rest
    terms, rest = [numbers[0]], []
    for op, n in zip(ops, numbers[1:], strict=True):
        if op in first:
            step = _apply(terms[-1], op, n)
            if step is None:
                return None
            terms[-1] = step
        else:
            rest.append(op)
            terms.append(n)
    return evaluate(terms, rest, LEFT_TO_RIGHT)


def number_text(value: Fraction) -> str:
    """``7``, ``-3``, ``7/2``."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


# -- the tests, in order -----------------------------------------------------------------------

_Test = Callable[[Question, Fraction, Fraction, str], "Mistake | None"]


def _sign(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    if right != 0 and given == -right:
        return Mistake("sign", f"{head}, the opposite of {number_text(right)}")
    return None


def _operation(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    for i, op in enumerate(q.ops):
        for other in OPS:
            if other == op:
                continue
            ops = (*q.ops[:i], other, *q.ops[i + 1 :])
            if q.value(ops) == given:
                if len(q.numbers) == 2 and not q.shape:
                    said = Question(q.skill, q.numbers, ops).text
                    return Mistake("operation", f"{head}, which is {said}")
                said = Question(q.skill, q.numbers, ops, order=q.order, shape=q.shape).text
                return Mistake(
                    "operation",
                    f"{head}, which is {said} ({OP_SIGNS[other]} in place of {OP_SIGNS[op]})",
                )
    return None


def _division(q: Question) -> tuple[int, int, int, int] | None:
    """A division of two whole numbers (the first at least 0, the second over 0) as (a,
    b, quotient, remainder); None for any other question."""
    if len(q.numbers) != 2 or q.ops[0] != "/" or q.shape:
        return None
    a, b = q.numbers
    if a.denominator != 1 or b.denominator != 1 or a < 0 or b <= 0:
        return None
    return int(a), int(b), *divmod(int(a), int(b))


def _remainder(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    parts = _division(q)
    if parts is None:
        return None
    a, b, whole, left = parts
    said = f"{a} ÷ {b} = {whole} r {left}"
    asks, together = q.asks, left != 0 and str(given) == f"{whole}{left}"
    if asks == REMAINDER and (given == whole or together):  # the head says "a ÷ b" already
        what = "the quotient" if given == whole else "the quotient and remainder together"
        return Mistake("remainder", f"{head}, {what}, not the remainder ({whole} r {left})")
    if asks == COUNT and (given in (whole, left) or together):
        what = "dividing anyway" if given == whole or together else "giving the remainder"
        return Mistake("remainder", f"{head}, {what} ({whole} r {left})")
    if asks != VALUE or left == 0:
        return None
    if given == whole:
        return Mistake("remainder", f"{head}, dropping the remainder ({said})")
    if given == left or str(given) == f"{whole}{left}":
        return Mistake("remainder", f"{head}, keeping the remainder ({said})")
    if given == whole + 1 and right != whole + 1:
        return Mistake("remainder", f"{head}, rounding the remainder up ({said})")
    return None


def _quotient(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    """A division asked by a rule (:attr:`Question.asks`) answered with its quotient (or,
    where it keeps the count, its remainder): said as that, before another operation
    that gives the same number (the Queen's 4 ÷ 2 answered 2 is the quotient, not 4 - 2)."""
    parts = _division(q)
    if parts is None or given not in parts[2:]:
        return None
    return _remainder(q, given, right, head)


def _order(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    if len(q.ops) < 2:
        return None
    if "(" in q.shape and q.value(brackets=False) == given:
        return Mistake("order", f"{head}, leaving out the brackets; they come first")
    if q.order == LEFT_TO_RIGHT:
        if q.value(order=PRECEDENCE) == given:
            return Mistake("order", f"{head}, doing x and ÷ first; here it goes left to right")
        return None
    if q.value(order=LEFT_TO_RIGHT) == given:
        return Mistake("order", f"{head}, working left to right; x and ÷ come first")
    if q.value(order="reverse") == given:
        return Mistake("order", f"{head}, doing + and - before x and ÷")
    return None


def _place_value(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    whole = given.denominator == 1 and right.denominator == 1 and abs(right) >= 10
    if whole and given * right > 0 and str(abs(given))[::-1] == str(abs(right)):
        return Mistake("place_value", f"{head}: the digits of {number_text(right)} swapped")
    for factor in (10, 100, 1000):
        if right != 0 and given in (right * factor, right / factor):
            return Mistake(
                "place_value",
                f"{head}, {number_text(right)} out by a factor of {factor}",
            )
    return None


def _off_by_one(q: Question, given: Fraction, right: Fraction, head: str) -> Mistake | None:
    off = abs(given - right)
    if off == 1:
        side = "more" if given > right else "less"
        return Mistake("off_by_one", f"{head}, one {side} than {number_text(right)}")
    if off <= max(Fraction(SMALL), abs(right) / 10):
        return Mistake("off_by_one", f"{head}, {number_text(off)} away from {number_text(right)}")
    return None


# -- a child for demos and tests -----------------------------------------------------------

# The stated rates of the demo child (issue 24): the chance, per question, that it makes
# each kind of mistake where the question allows that kind (a remainder needs a division
# that leaves one, an order mistake three numbers with mixed operations).
CHILD_RATES: dict[str, float] = {
    "sign": 0.03,
    "operation": 0.1,
    "remainder": 0.5,
    "order": 0.4,
    "place_value": 0.04,
    "off_by_one": 0.12,
    "other": 0.03,
}


class Child:
    """A child's answers from a seeded model: each kind of mistake at its rate in
    ``rates`` (:data:`CHILD_RATES`), else the right answer. ``rng`` is the caller's
    seeded :class:`random.Random` (anything with ``random()`` and ``choice()``), so the
    same seed gives the same answers."""

    def __init__(self, rng: Any, rates: dict[str, float] | None = None) -> None:
        self.rng = rng
        self.rates = dict(CHILD_RATES if rates is None else rates)
        unknown = set(self.rates) - set(CLASSIFIED)
        if unknown:
            raise ValueError(f"no such kind of mistake: {sorted(unknown)}")

    def answer(self, q: Question) -> Fraction:
        """The child's answer to ``q``."""
        right = q.answer
        for kind in CLASSIFIED:
            rate = self.rates.get(kind, 0.0)
            if rate <= 0:
                continue
            wrong = self.mistake(q, kind)
            if wrong is not None and wrong != right and self.rng.random() < rate:
                return wrong
        return right

    def mistake(self, q: Question, kind: str) -> Fraction | None:
        """An answer to ``q`` with a mistake of ``kind`` (None: ``q`` allows none)."""
        right = q.answer
        if kind == "sign":
            return -right if right != 0 else None
        if kind == "operation":
            options = []
            for i, op in enumerate(q.ops):
                for other in OPS:
                    ops = (*q.ops[:i], other, *q.ops[i + 1 :])
                    value = q.value(ops) if other != op else None
                    if value is not None and value.denominator == 1 and value != right:
                        options.append(value)
            return self.rng.choice(options) if options else None
        if kind == "remainder":
            a, b = q.numbers[0], q.numbers[-1]
            if len(q.numbers) == 2 and q.ops[0] == "/" and not q.shape and b != 0 and a % b:
                return Fraction(int(a // b))
            return None
        if kind == "order":
            if len(q.ops) < 2:
                return None
            if "(" in q.shape:
                value = q.value(brackets=False)
                if value is not None and value != right:
                    return value
            other_order = PRECEDENCE if q.order == LEFT_TO_RIGHT else LEFT_TO_RIGHT
            value = q.value(order=other_order)
            return value if value != right else None
        if kind == "place_value":
            if right.denominator == 1 and abs(right) >= 10:
                digits = str(abs(right.numerator))[::-1]
                if digits[0] != "0" and int(digits) != abs(right):
                    return Fraction(int(digits)) * (1 if right > 0 else -1)
            return right * 10 if right != 0 else None
        side = Fraction(1 if self.rng.random() < 0.5 else -1)
        if kind == "off_by_one":
            return right + side
        if kind == "other":
            return right + side * (abs(right) // 2 + 7)
        raise ValueError(f"no such kind of mistake: {kind}")


_ARITHMETIC: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
    "+": operator.add,
    "-": operator.sub,
    "x": operator.mul,
    "/": operator.truediv,
}


def _apply(a: Fraction, op: str, b: Fraction) -> Fraction | None:
    if op == FRAC:
        op = "/"
    return None if op == "/" and b == 0 else _ARITHMETIC[op](a, b)


# A shaped question's binding, per order: a fraction bar binds tightest (it makes a number),
# a root tighter than any operation between numbers.
_BINDING = {
    PRECEDENCE: {FRAC: 3, "x": 2, "/": 2, "+": 1, "-": 1},
    LEFT_TO_RIGHT: {FRAC: 3, "x": 1, "/": 1, "+": 1, "-": 1},
    "reverse": {FRAC: 3, "x": 1, "/": 1, "+": 2, "-": 2},
}
_ROOT = "√"


class _NoValue(Exception):
    """A division by zero, or a root that is not a fraction."""


def _shaped_value(
    numbers: Sequence[Fraction],
    ops: Sequence[str],
    shape: Sequence[str],
    order: str,
    brackets: bool,
) -> Fraction | None:
    """The value of a shaped expression (operator precedence parsing, no recursion)."""
    binding = {**_BINDING[order], _ROOT: 4}
    values: list[Fraction] = []
    pending: list[str] = []  # operations, roots and open brackets not worked out yet
    numbers_left, ops_left = iter(numbers), iter(ops)

    def work() -> None:
        top = pending.pop()
        if top == _ROOT:
            values.append(_root(values.pop()))
            return
        b, a = values.pop(), values.pop()
        value = _apply(a, top, b)
        if value is None:
            raise _NoValue
        values.append(value)

    try:
        for token in shape:
            if token == "n":
                values.append(next(numbers_left))
            elif token == "²":
                values[-1] = values[-1] ** 2
            elif token == _ROOT or (token == "(" and brackets):
                pending.append(token)
            elif token == ")" and brackets:
                while pending and pending[-1] != "(":
                    work()
                if pending:
                    pending.pop()
            elif token == "o":
                op = next(ops_left)
                while pending and pending[-1] != "(" and binding[pending[-1]] >= binding[op]:
                    work()
                pending.append(op)
        while pending:
            if pending[-1] == "(":
                pending.pop()
            else:
                work()
    except (_NoValue, IndexError, StopIteration):
        return None
    return values[0] if len(values) == 1 else None


def _root(value: Fraction) -> Fraction:
    if value < 0:
        raise _NoValue
    top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if top * top != value.numerator or bottom * bottom != value.denominator:
        raise _NoValue
    return Fraction(top, bottom)


def _shaped_text(q: Question) -> str:
    """``(2 + 3) x 4``, ``√9 + 2²``, ``3/4 + 1``, ``2.5 x 2``."""
    numbers, ops = iter(q.numbers), iter(q.ops)
    out = ""
    for token in q.shape:
        if token == "n":
            out += decimal_text(next(numbers))
        elif token == "o":
            op = next(ops)
            out += OP_SIGNS[op] if op == FRAC else f" {OP_SIGNS[op]} "
        else:
            out += token
    return out


def decimal_text(value: Fraction) -> str:
    """``7``, ``2.5``, ``-0.25``; a fraction with no decimal end as ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    scaled, places = value, 0
    while scaled.denominator != 1 and places < 6:
        scaled, places = scaled * 10, places + 1
    if scaled.denominator != 1:
        return number_text(value)
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


_TESTS: tuple[_Test, ...] = (_sign, _operation, _remainder, _order, _place_value, _off_by_one)
# A division that asks for its remainder or keeps the count (Question.asks).
_RULE_TESTS: tuple[_Test, ...] = (_sign, _quotient, *_TESTS[1:])

__all__ = [
    "CHILD_RATES",
    "CLASSIFIED",
    "COUNT",
    "FRAC",
    "KINDS",
    "LEFT_TO_RIGHT",
    "OPS",
    "OP_SKILLS",
    "PRECEDENCE",
    "REMAINDER",
    "SKILLS",
    "TOLD",
    "VALUE",
    "Child",
    "Mistake",
    "Question",
    "classify",
    "decimal_text",
    "evaluate",
    "number_text",
    "question",
    "skill_of",
]
