"""An equation of M.E.C.S. cards as a question and the child's answer (issue 24), for the
teacher's skills report: the side worked out, and the value the child set beside it."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tabletop.classroom.mistakes import FRAC, Question, skill_of
from tabletop.games.mecs_equation import terms, value_of

_SHAPE_CARDS = {"LP": "(", "RP": ")", "SQRT": "√", "SQ": "²"}
_OP_CARDS = {"+": "+", "-": "-", "X": "x", "DIV": "/", "FRAC": FRAC}
_OP_SHAPE = dict.fromkeys(_OP_CARDS, "o") | _SHAPE_CARDS  # how a card stands in a shape


def equation_question(
    cards: Sequence[str], broken: str | None = None
) -> tuple[Question, Fraction] | None:
    """An equation of cards as a question and the child's answer (issue 24): the question
    is the first side with an operation, the answer the value of the other side (the
    first that differs, with three sides or more). Brackets and green cards keep their
    shape (:attr:`Question.shape`); the right answer is the engine's exact value
    (MECS-2). ``broken``: the objective a true equation misses (MECS-6). None where there
    is no question: no ``=``, no operation, a side with no value (a division by zero, a
    root that is no fraction) or cards that are no equation."""
    sides: list[list[str]] = [[]]
    for card in cards:
        if card == "EQ":
            sides.append([])
        else:
            sides[-1].append(card)
    if len(sides) < 2 or any(not side for side in sides):
        return None
    values = [value_of(side) for side in sides]
    worked = [i for i, side in enumerate(sides) if any(c in _OP_CARDS for c in side)]
    if any(v is None for v in values) or not worked:
        return None
    ask = worked[0]
    others = [i for i in range(len(sides)) if i != ask]
    said = next((i for i in others if values[i] != values[ask]), others[0])
    read = terms(sides[ask]) or ()  # the side has a value: its terms are read
    if any(t not in _OP_SHAPE for t in read if isinstance(t, str)):
        return None  # a card no question's shape has
    numbers = [t for t in read if isinstance(t, Fraction)]
    ops = [_OP_CARDS[t] for t in read if isinstance(t, str) and t in _OP_CARDS]
    shape = [_OP_SHAPE[t] if isinstance(t, str) else "n" for t in read]
    whole = all(n.denominator == 1 for n in numbers)
    plain = set(shape) <= {"n", "o"} and FRAC not in ops and whole  # no shape to keep
    signs = [op for op in ops if op != FRAC]  # a fraction bar makes a number
    mixed = bool(signs) and skill_of(signs) == "order"
    skill = "order" if "(" in shape or mixed else "equations"
    right, given = values[ask], values[said]
    assert right is not None and given is not None  # checked above
    kept = () if plain else tuple(shape)
    try:
        q = Question(skill, tuple(numbers), tuple(ops), right, broken=broken, shape=kept)
    except ValueError:
        return None
    if q.value() != right:  # a shape the mistakes model reads otherwise: no question
        return None
    return q, given


__all__ = ["equation_question"]
