"""M.E.C.S. equations: card sequences read left to right, checked exactly.

Rulings MECS-2 (grammar and validity) and MECS-3 (coins); card codes as DESIGN.md names
them (``0``..``9``, ``+ - X DIV LP RP EQ``, ``FRAC SQRT DOT SQ``).

An equation is checked in four passes, and the first problem found is the reason:
  1. numbers: adjacent digits (and one decimal point) form one number, left to right;
  2. the ``=`` cards split it into sides, none of them empty;
  3. each side's shape: operations between operands, brackets that match, ``√`` before
     and ``²`` after a number or a bracket; then the rule that some operation is used;
  4. values, exactly (``fractions.Fraction``): division by zero, square roots that are
     not rational, and finally whether all sides are equal.
No pass recurses, so a sequence of any length or bracket depth gets an answer: valid or
invalid with a reason, never an exception.

Sections: constants (the cards), the verdict, checking, card-level helpers for searches
(which card may follow which), private helpers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from tabletop.engine.errors import BadInput

# -- constants: the cards ----------------------------------------------------------------

DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
OPERATORS = ("+", "-", "X", "DIV")
BRACKETS = ("LP", "RP")
EQUALS = "EQ"
ADVANCED = ("FRAC", "SQRT", "DOT", "SQ")
BASIC_SYMBOLS = (*OPERATORS, *BRACKETS, EQUALS)
SYMBOLS = (*BASIC_SYMBOLS, *ADVANCED)
PLAY_CARDS = (*DIGITS, *SYMBOLS)

# What each card shows, for reasons and events.
FACE = {
    **{d: d for d in DIGITS},
    "+": "+",
    "-": "-",
    "X": "×",
    "DIV": "÷",
    "LP": "(",
    "RP": ")",
    "EQ": "=",
    "FRAC": "/",
    "SQRT": "√",
    "DOT": ".",
    "SQ": "²",
}

# MECS-3: 1 per digit, 1 per + - x ÷ =, 2 per parenthesis, 3 per advanced (green) card.
COINS = {
    **{d: 1 for d in DIGITS},
    **{op: 1 for op in OPERATORS},
    EQUALS: 1,
    **{b: 2 for b in BRACKETS},
    **{a: 3 for a in ADVANCED},
}

# MECS-2: "uses at least one operator or advanced card besides =" (brackets are neither).
OPERATION_CARDS = frozenset((*OPERATORS, *ADVANCED))

# Binary operations and their precedence (MECS-2): fraction bar, then x ÷, then + -.
_PRECEDENCE = {"FRAC": 3, "X": 2, "DIV": 2, "+": 1, "-": 1}
_SQRT_PRECEDENCE = 4  # a prefix root binds tighter than any binary operation
_SPACED = frozenset(("+", "-", "X", "DIV", "EQ"))

# A value this large cannot come from a child's equation; stop before it eats the device.
MAX_BITS = 3400  # about 1,000 decimal digits
MAX_DIGITS = 1000  # a longer run of digit cards is too big to check (MAX_BITS)


def card_coins(cards: Iterable[str]) -> int:
    """MECS-3 coins for these cards, as if they were flipped: ``9 X 7 EQ 6 3`` -> 6."""
    return sum(COINS[c] for c in cards)


# MECS-3's kinds of card, in the order a child is told them, each with its coins.
COIN_KINDS = (
    ("number", frozenset(DIGITS)),
    ("sign", frozenset((*OPERATORS, EQUALS))),
    ("bracket", frozenset(BRACKETS)),
    ("green card", frozenset(ADVANCED)),
)


def coin_breakdown(cards: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """Why these cards are worth :func:`card_coins`: ``(kind, how many, coins each)`` for
    each kind present, e.g. ``9 X 7 EQ 6 3`` -> (("number", 4, 1), ("sign", 2, 1))."""
    cards = list(cards)
    rows = []
    for kind, members in COIN_KINDS:
        count = sum(1 for c in cards if c in members)
        if count:
            rows.append((kind, count, COINS[next(iter(members))]))
    return tuple(rows)


def render(cards: Sequence[str]) -> str:
    """Cards as a child reads them: ``9 × 7 = 63``, ``√(1 + 3)``, ``1.5²``."""
    out = ""
    for card in cards:
        face = FACE.get(card, card)
        if card in _SPACED:
            out = out.rstrip() + f" {face} "
        else:
            out += face
    return out.strip()


def format_value(value: Fraction) -> str:
    """An exact answer as text: ``63``, ``7/2``, ``-2``."""
    return str(value)


# -- the verdict -------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What a card sequence is: a valid equation with its answer, or why it is not."""

    cards: tuple[str, ...]
    valid: bool
    answer: Fraction | None = None
    reason: str | None = None  # the exact English, for logs and the CLI
    code: str | None = None  # why, for a child's sentence: ``mecs.eq.<problem>``
    facts: tuple[tuple[str, str], ...] = ()  # that sentence's blanks: the cards it names

    @property
    def coins(self) -> int:
        """MECS-3 coins a completed equation yields (0 when it is not valid)."""
        return card_coins(self.cards) if self.valid else 0

    @property
    def text(self) -> str:
        return render(self.cards)

    @property
    def answer_text(self) -> str | None:
        return None if self.answer is None else format_value(self.answer)


@dataclass(frozen=True)
class _Why:
    """A problem found: the verdict's ``code``, ``reason`` and ``facts``."""

    code: str
    reason: str
    facts: tuple[tuple[str, str], ...] = ()

    def verdict(self, cards: tuple[str, ...]) -> Verdict:
        return Verdict(cards, False, reason=self.reason, code=self.code, facts=self.facts)


def _why(code: str, reason: str, **facts: str) -> _Why:
    """A problem ``code`` with its English ``reason`` and the cards its sentence names,
    each clipped to about 40 characters (a child's line stays short)."""
    return _Why(f"mecs.eq.{code}", reason, tuple((k, _clip(v, 40)) for k, v in facts.items()))


# -- checking ----------------------------------------------------------------------------


def check_cards(cards: Iterable[str]) -> None:
    """Raise ``BadInput`` unless every card is an M.E.C.S. play card code."""
    for i, card in enumerate(cards):
        if card not in FACE:
            raise BadInput(
                "mecs.unknown_card",
                f"card {i + 1}: {card!r} is not an M.E.C.S. play card "
                "(0-9, + - X DIV LP RP EQ, FRAC SQRT DOT SQ)",
            )


def evaluate(cards: Iterable[str]) -> Verdict:
    """Check a card sequence as an equation (MECS-2). Never raises for play cards;
    ``BadInput`` for anything that is not a play card code."""
    seq = tuple(cards)
    check_cards(seq)
    return _evaluate(seq)


@lru_cache(maxsize=1 << 16)
def _evaluate(cards: tuple[str, ...]) -> Verdict:
    verdict = _judge(cards)
    if verdict.reason is not None and len(verdict.reason) > _REASON_LIMIT:
        return replace(verdict, reason=_clip(verdict.reason))
    return verdict


def _judge(cards: tuple[str, ...]) -> Verdict:
    if not cards:
        return _why("no_cards", "there are no cards").verdict(cards)
    tokens = _lex(cards)
    if isinstance(tokens, _Why):
        return tokens.verdict(cards)
    sides = _split_sides(tokens)
    if isinstance(sides, _Why):
        return sides.verdict(cards)
    for side in sides:
        problem = _shape_problem(side, cards)
        if problem is not None:
            return problem.verdict(cards)
    if not OPERATION_CARDS.intersection(cards):
        return _why(
            "no_operation",
            f"{render(cards)}: an equation needs an operation besides = "
            "(+, -, ×, ÷ or a green card)",
            equation=render(cards),
        ).verdict(cards)
    values: list[Fraction] = []
    for side in sides:
        value = _side_value(side, cards)
        if isinstance(value, _Why):
            return value.verdict(cards)
        values.append(value)
    for i in range(1, len(values)):
        if values[i] != values[0]:
            return _unequal(sides, values, i, cards).verdict(cards)
    return Verdict(cards, True, answer=values[0])


def is_valid(cards: Sequence[str]) -> bool:
    return _evaluate(tuple(cards)).valid


@lru_cache(maxsize=1 << 15)
def _value_of(cards: tuple[str, ...]) -> Fraction | None:
    if not cards or EQUALS in cards:
        return None
    tokens = _lex(cards)
    if isinstance(tokens, _Why) or _shape_problem(tokens, cards) is not None:
        return None
    value = _side_value(tokens, cards)
    return None if isinstance(value, _Why) else value


def value_of(cards: Sequence[str]) -> Fraction | None:
    """The exact value of one well-formed side (no ``=``), or ``None`` if it has none."""
    return _value_of(tuple(cards))


def terms(cards: Sequence[str]) -> tuple[Fraction | str, ...] | None:
    """The cards as they are read (MECS-2): a run of digits and decimal points is one
    number, any other card stays its code; ``None`` when a run is not a number."""
    tokens = _lex(tuple(cards))
    if isinstance(tokens, _Why):
        return None
    return tuple(t.value if t.kind == "NUM" else t.kind for t in tokens)


# -- card-level helpers for searches -------------------------------------------------------

# Which card may come right after which in a valid equation (a necessary condition): a
# search rejects a sequence at its first impossible neighbour pair without parsing it.
_KIND = {
    **{d: "digit" for d in DIGITS},
    "DOT": "dot",
    **{op: "binary" for op in (*OPERATORS, "FRAC")},
    "EQ": "equals",
    "LP": "open",
    "RP": "close",
    "SQRT": "root",
    "SQ": "square",
}
_FOLLOWS = {
    "digit": frozenset(("digit", "dot", "binary", "equals", "close", "square")),
    "dot": frozenset(("digit",)),
    "binary": frozenset(("digit", "open", "root")),
    "equals": frozenset(("digit", "open", "root")),
    "open": frozenset(("digit", "open", "root")),
    "close": frozenset(("binary", "equals", "close", "square")),
    "root": frozenset(("digit", "open")),
    "square": frozenset(("binary", "equals", "close")),
}
_STARTS = frozenset(("digit", "open", "root"))
_ENDS = frozenset(("digit", "close", "square"))


def kind(card: str) -> str:
    """``digit``, ``dot``, ``binary``, ``equals``, ``open``, ``close``, ``root``, ``square``."""
    return _KIND[card]


def may_follow(left: str | None, right: str | None) -> bool:
    """Whether ``right`` may stand right after ``left`` in a valid equation (``None`` is
    the start or the end of the sequence)."""
    if left is None:
        return right is None or _KIND[right] in _STARTS
    if right is None:
        return _KIND[left] in _ENDS
    return _KIND[right] in _FOLLOWS[_KIND[left]]


def bad_gaps(cards: Sequence[str]) -> list[int]:
    """Gaps (0 = before the first card, len = after the last) where the neighbours can
    never stand next to each other in a valid equation: a card must be inserted there."""
    n = len(cards)
    out = []
    for gap in range(n + 1):
        left = cards[gap - 1] if gap > 0 else None
        right = cards[gap] if gap < n else None
        if not may_follow(left, right):
            out.append(gap)
    return out


# -- private helpers -----------------------------------------------------------------------


class _Token(NamedTuple):  # a tuple: the bots' searches make millions of them
    kind: str  # "NUM" or the card code of a symbol
    start: int  # card index of the first card
    end: int  # card index after the last card
    value: Fraction = Fraction(0)


_NUMBER_CARDS = frozenset((*DIGITS, "DOT"))  # the cards a number is made of


def _lex(cards: tuple[str, ...]) -> list[_Token] | _Why:
    """Numbers from runs of digits and decimal points; other cards one token each."""
    tokens: list[_Token] = []
    i, n = 0, len(cards)
    while i < n:
        card = cards[i]
        if card in _NUMBER_CARDS:
            j = i
            while j < n and cards[j] in _NUMBER_CARDS:
                j += 1
            number = _number(cards[i:j])
            if isinstance(number, _Why):
                return number
            tokens.append(_Token("NUM", i, j, number))
            i = j
        else:
            tokens.append(_Token(card, i, i + 1))
            i += 1
    return tokens


@lru_cache(maxsize=1 << 12)  # the same runs come back: the bots try many orders of a hand
def _number(run: tuple[str, ...]) -> Fraction | _Why:
    """MECS-2: no leading zero unless the number is 0 or starts 0.; a decimal point needs
    digits on both sides; one decimal point per number. A run too long to be a number
    (Python reads at most 4,300 digits) is refused as too big to check."""
    if len(run) > MAX_DIGITS:
        return _why("too_big", f"a number of {len(run)} digits: the number is too big to check")
    if "DOT" not in run:
        if len(run) > 1 and run[0] == "0":
            return _leading_zero(run)
        return Fraction(int("".join(run)))
    dots = [k for k, c in enumerate(run) if c == "DOT"]
    for k in dots:
        if k == 0 or k == len(run) - 1 or run[k - 1] == "DOT" or run[k + 1] == "DOT":
            why = f"{render(run)}: a decimal point needs a digit on both sides"
            return _why("lone_point", why, number=render(run))
    if len(dots) > 1:
        why = f"{render(run)}: a number can have only one decimal point"
        return _why("two_points", why, number=render(run))
    whole = run[: dots[0]]
    if len(whole) > 1 and whole[0] == "0":
        return _leading_zero(whole)
    decimals = run[dots[0] + 1 :]
    return Fraction(int("".join(whole))) + Fraction(int("".join(decimals)), 10 ** len(decimals))


def _leading_zero(digits: tuple[str, ...]) -> _Why:
    why = f"digits {' '.join(digits)}: a number cannot start with 0"
    return _why("leading_zero", why, number=render(digits))


def _split_sides(tokens: list[_Token]) -> list[list[_Token]] | _Why:
    sides: list[list[_Token]] = [[]]
    for tok in tokens:
        if tok.kind == "EQ":
            sides.append([])
        else:
            sides[-1].append(tok)
    if len(sides) == 1:
        return _why("no_equals", "there is no = card: an equation needs one")
    if not sides[0]:
        return _why("starts_equals", "the equation starts with =: something must come before it")
    if not sides[-1]:
        return _why("ends_equals", "the equation ends with =: something must come after it")
    if any(not side for side in sides):
        return _why("equals_twice", "= =: two = cards need something between them")
    return sides


def _face(tok: _Token, cards: tuple[str, ...]) -> str:
    return render(cards[tok.start : tok.end])


def _shape_problem(side: list[_Token], cards: tuple[str, ...]) -> _Why | None:
    """MECS-2 shape of one side, left to right, as a two-state machine: expecting an
    operand (a number, ``(`` or ``√``) or an operation (``+ - × ÷ /``, ``)`` or ``²``)."""
    depth = 0
    expect_operand = True
    prev: _Token | None = None
    for tok in side:
        k = tok.kind
        pk = prev.kind if prev is not None else None
        if expect_operand:
            if k == "NUM":
                expect_operand = False
            elif k == "LP":
                depth += 1
            elif k == "SQRT":
                if pk == "SQRT":
                    return _why("root_needs", "√ √: √ needs a number or a bracket right after it")
            elif k in _PRECEDENCE:
                return _operation_without_left(k, FACE[k], pk, _tok_face(prev, cards))
            elif k == "RP":
                if pk == "LP":
                    return _why("empty_brackets", "( ): nothing between the brackets")
                if pk == "SQRT":
                    return _why("root_needs", "√ ): √ needs a number or a bracket right after it")
                if pk in _PRECEDENCE:
                    pface = _tok_face(prev, cards)
                    why = f"{pface} ): {pface} needs a number after it"
                    return _why("number_after", why, sign=pface)
                return _why("never_opened", "a ) closes a bracket that was never opened")
            elif k == "SQ":
                pface = _tok_face(prev, cards)
                where = f"{pface} ²: " if pface else ""
                why = f"{where}² needs a number or a bracket right before it"
                return _why("square_needs", why)
        else:
            if k in _PRECEDENCE:
                expect_operand = True
            elif k == "RP":
                if depth == 0:
                    return _why("never_opened", "a ) closes a bracket that was never opened")
                depth -= 1
            elif k == "SQ":
                if pk == "SQ":
                    why = "² ²: ² needs a number or a bracket right before it"
                    return _why("square_needs", why)
            else:  # a number, ( or √ right after an operand
                pface, face = _tok_face(prev, cards), _tok_face(tok, cards)
                why = f"{pface} {face}: an operation is missing between them"
                return _why("sign_missing", why, left=pface, right=face)
        prev = tok
    if expect_operand:
        pk = prev.kind if prev is not None else None
        if pk == "SQRT":
            return _why("root_needs", "√ needs a number or a bracket after it")
        if pk == "LP":
            return _why("never_closed", "a ( is opened but never closed")
        pface = _tok_face(prev, cards)
        return _why("number_after", f"{pface} needs a number after it", sign=pface)
    if depth:
        return _why("never_closed", "a ( is opened but never closed")
    return None


def _tok_face(tok: _Token | None, cards: tuple[str, ...]) -> str:
    return "" if tok is None else render(cards[tok.start : tok.end])


def _operation_without_left(k: str, face: str, pk: str | None, pface: str) -> _Why:
    if pk is None:
        if k == "-":
            why = "- needs a number before it: there is no minus sign for negative numbers"
            return _why("no_minus_numbers", why)
        return _why("number_before", f"{face} needs a number before it", sign=face)
    if pk == "LP":
        return _why("number_before", f"( {face}: {face} needs a number before it", sign=face)
    if pk == "SQRT":
        return _why("root_needs", f"√ {face}: √ needs a number or a bracket right after it")
    return _why("two_signs", f"{pface} {face}: two operations in a row", left=pface, right=face)


def _side_value(side: list[_Token], cards: tuple[str, ...]) -> Fraction | _Why:
    """Operator precedence with two stacks (no recursion); the side's shape is known to be
    right. Each value remembers the card span it came from, for the reasons."""
    values: list[tuple[Fraction, int, int]] = []
    ops: list[tuple[str, int]] = []

    def reduce() -> _Why | None:
        op, at = ops.pop()
        if op == "SQRT":
            value, start, end = values.pop()
            root = _sqrt(value, cards[start:end])
            if isinstance(root, _Why):
                return root
            values.append((root, at, end))
            return None
        right, _, r_end = values.pop()
        left, l_start, _ = values.pop()
        if op == "+":
            result = left + right
        elif op == "-":
            result = left - right
        elif op == "X":
            result = left * right
        else:
            if right == 0:
                part = render(cards[l_start:r_end])
                return _why("by_zero", f"{part}: division by zero", part=part)
            result = left / right
        if _too_big(result):
            return _too_big_why(cards[l_start:r_end])
        values.append((result, l_start, r_end))
        return None

    for tok in side:
        k = tok.kind
        problem: _Why | None = None
        if k == "NUM":
            values.append((tok.value, tok.start, tok.end))
        elif k in ("LP", "SQRT"):
            ops.append((k, tok.start))
        elif k == "RP":
            while ops[-1][0] != "LP":
                problem = reduce()
                if problem:
                    return problem
            _, opened = ops.pop()
            value, _, _ = values.pop()
            values.append((value, opened, tok.end))
        elif k == "SQ":
            value, start, _ = values.pop()
            squared = value * value
            if _too_big(squared):
                return _too_big_why(cards[start : tok.end])
            values.append((squared, start, tok.end))
        else:
            precedence = _PRECEDENCE[k]
            while ops and ops[-1][0] != "LP" and _op_precedence(ops[-1][0]) >= precedence:
                problem = reduce()
                if problem:
                    return problem
            ops.append((k, tok.start))
    while ops:
        problem = reduce()
        if problem:
            return problem
    return values[-1][0]


def _op_precedence(op: str) -> int:
    return _SQRT_PRECEDENCE if op == "SQRT" else _PRECEDENCE[op]


def _sqrt(value: Fraction, operand: tuple[str, ...]) -> Fraction | _Why:
    text, facts = render(operand), {"root": f"√{render(operand)}", "value": format_value(value)}
    if value < 0:
        why = f"√{text}: a negative number ({format_value(value)}) has no square root"
        return _why("root_below_zero", why, **facts)
    num, den = value.numerator, value.denominator
    rn, rd = math.isqrt(num), math.isqrt(den)
    if rn * rn != num or rd * rd != den:
        if operand[0] == "LP":
            why = f"√{text} is not a rational number (it is √{format_value(value)})"
            return _why("root_not_exact", why, **facts)
        return _why("root_not_exact", f"√{text} is not a rational number", **facts)
    return Fraction(rn, rd)


_REASON_LIMIT = 160


def _clip(reason: str, most: int = 100) -> str:
    """Keep a reason (or a fact) about a very long sequence readable: shorten the quoted
    cards to about ``most`` characters."""
    head, sep, problem = reason.rpartition(": ")
    if not sep:
        head, problem = reason, ""
    if len(head) > most:
        head = head[: most * 3 // 5] + " … " + head[-(most * 9 // 25) :]
    return f"{head}{sep}{problem}"


def _too_big(value: Fraction) -> bool:
    return max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS


def _too_big_why(part: tuple[str, ...]) -> _Why:
    return _why("too_big", f"{render(part)}: the number is too big to check")


def _unequal(
    sides: list[list[_Token]], values: list[Fraction], i: int, cards: tuple[str, ...]
) -> _Why:
    """``2 × 3 + 4 = 10, not 11``: the side with an operation is the one worked out."""

    def text(side: list[_Token]) -> str:
        return render(cards[side[0].start : side[-1].end])

    first, other = sides[0], sides[i]
    worked, makes, given = (first, values[0], values[i])
    if len(first) == 1 and first[0].kind == "NUM" and len(other) != 1:
        worked, makes, given = (other, values[i], values[0])
    side, value, other_value = text(worked), format_value(makes), format_value(given)
    why = f"{side} = {value}, not {other_value}"
    return _why("not_equal", why, side=side, value=value, other=other_value)


__all__ = [
    "ADVANCED",
    "BASIC_SYMBOLS",
    "COINS",
    "COIN_KINDS",
    "DIGITS",
    "FACE",
    "OPERATORS",
    "PLAY_CARDS",
    "SYMBOLS",
    "Verdict",
    "bad_gaps",
    "card_coins",
    "check_cards",
    "coin_breakdown",
    "evaluate",
    "format_value",
    "is_valid",
    "kind",
    "may_follow",
    "render",
    "terms",
    "value_of",
]
