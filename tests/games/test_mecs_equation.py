"""M.E.C.S. equations (MECS-2 grammar and validity, MECS-3 coins): every construct alone
and combined, every reason an equation is invalid, a differential test against Python's
own arithmetic, and the parser's promise to answer any card sequence."""

from __future__ import annotations

import ast
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.engine import BadInput
from tabletop.games.mecs_equation import (
    PLAY_CARDS,
    bad_gaps,
    card_coins,
    coin_breakdown,
    evaluate,
    may_follow,
    render,
    terms,
    value_of,
)
from tests.games.test_mecs_support import cards


def answer(text: str) -> str | None:
    return evaluate(cards(text)).answer_text


def reason(text: str) -> str | None:
    return evaluate(cards(text)).reason


# -- MECS-2: each construct alone, then combined -------------------------------------------

CONSTRUCTS = [
    # (cards, answer, coins) -- coins per MECS-3
    ("3 + 4 EQ 7", "7", 5),  # addition
    ("9 - 4 EQ 5", "5", 5),  # subtraction
    ("9 X 7 EQ 6 3", "63", 6),  # multiplication, multi-digit number (the rule book's 63)
    ("8 DIV 2 EQ 4", "4", 5),  # division
    ("7 FRAC 2 EQ 3 DOT 5", "7/2", 11),  # fraction bar and a decimal point
    ("LP 2 + 3 RP X 4 EQ 2 0", "20", 12),  # parentheses
    ("SQRT 9 EQ 3", "3", 6),  # square root (rule book: 6 coins)
    ("3 SQ EQ 9", "9", 6),  # square (rule book: 6 coins)
    ("0 DOT 5 + 0 DOT 5 EQ 1", "1", 13),  # decimal points (rule book: 13 coins)
    ("1 0 0 EQ 9 9 + 1", "100", 8),  # multi-digit numbers on both sides
    ("2 + 2 EQ 4 EQ 8 DIV 2", "4", 9),  # more than one =
    ("0 EQ 5 - 5", "0", 5),  # a lone 0 is a number
    ("0 DOT 2 5 X 4 EQ 1", "1", 10),  # 0. starts a number
    ("1 DOT 5 0 X 2 EQ 3", "3", 10),  # trailing zero after the point
    ("2 - 5 EQ 0 - 3", "-3", 7),  # negative answers come from subtraction
    ("1 DIV 3 EQ 2 DIV 6", "1/3", 7),  # exact fractions, never floats
]

COMBINED = [
    ("2 + 3 X 4 EQ 1 4", "14"),  # x before +
    ("1 0 - 4 - 3 EQ 3", "3"),  # - left to right
    ("1 2 DIV 2 DIV 3 EQ 2", "2"),  # ÷ left to right
    ("6 DIV 2 FRAC 3 EQ 9", "9"),  # the fraction bar binds tighter than ÷
    ("1 + 2 FRAC 4 EQ 1 DOT 5", "3/2"),  # ... and tighter than +
    ("1 FRAC 2 FRAC 2 EQ 0 DOT 2 5", "1/4"),  # fraction bars left to right
    ("2 X 3 SQ EQ 1 8", "18"),  # the square binds to its number only
    ("LP 2 X 3 RP SQ EQ 3 6", "36"),  # ... or to a bracket
    ("SQRT 1 6 + 9 EQ 1 3", "13"),  # the root binds to its number only
    ("SQRT LP 1 6 + 9 RP EQ 5", "5"),  # ... or to a bracket
    ("SQRT 4 SQ EQ 4", "4"),  # root and square on one number: the square first
    ("SQRT LP 1 - 2 RP SQ EQ 1", "1"),  # so √((1 - 2)²) = 1, not √-1
    ("SQRT 0 DOT 2 5 EQ 0 DOT 5", "1/2"),  # the root of a decimal
    ("SQRT LP 1 FRAC 4 RP EQ 1 FRAC 2", "1/2"),  # the root of a fraction
    ("LP LP 1 + 2 RP X LP 3 + 1 RP RP FRAC 6 EQ 2", "2"),  # nested brackets
    ("0 DOT 5 SQ X 8 EQ SQRT 4", "2"),  # decimal, square, root, x, two sides
    ("2 X LP 3 + 4 RP - 1 0 DIV 5 EQ 1 2", "12"),  # all four operations and brackets
]


@pytest.mark.parametrize(("text", "expected", "coins"), CONSTRUCTS)
def test_mecs2_each_construct_alone(text: str, expected: str, coins: int) -> None:
    verdict = evaluate(cards(text))
    assert verdict.valid, verdict.reason
    assert verdict.answer_text == expected
    assert verdict.reason is None
    assert verdict.coins == coins  # MECS-3


@pytest.mark.parametrize(("text", "expected"), COMBINED)
def test_mecs2_constructs_combined(text: str, expected: str) -> None:
    verdict = evaluate(cards(text))
    assert verdict.valid, verdict.reason
    assert verdict.answer_text == expected


def test_mecs2_answers_are_exact_fractions() -> None:
    verdict = evaluate(cards("1 DIV 3 + 1 DIV 3 + 1 DIV 3 EQ 1"))
    assert verdict.valid and verdict.answer == Fraction(1)
    assert isinstance(evaluate(cards("7 FRAC 2 EQ 3 DOT 5")).answer, Fraction)


# -- MECS-2: every reason an equation is invalid ----------------------------------------------

INVALID = [
    ("", "there are no cards"),
    # numbers
    ("0 7 + 1 EQ 8", "digits 0 7: a number cannot start with 0"),
    ("0 0 EQ 0 X 1", "digits 0 0: a number cannot start with 0"),
    ("0 0 DOT 5 EQ 0 DOT 5 X 1", "digits 0 0: a number cannot start with 0"),
    ("DOT 5 X 2 EQ 1", ".5: a decimal point needs a digit on both sides"),
    ("5 DOT + 1 EQ 6", "5.: a decimal point needs a digit on both sides"),
    ("1 DOT DOT 5 EQ 1", "1..5: a decimal point needs a digit on both sides"),
    ("1 DOT 2 DOT 3 EQ 1", "1.2.3: a number can have only one decimal point"),
    # the = cards
    ("1 + 1", "there is no = card: an equation needs one"),
    ("EQ 1 + 1", "the equation starts with =: something must come before it"),
    ("1 + 1 EQ", "the equation ends with =: something must come after it"),
    ("1 + 1 EQ EQ 2", "= =: two = cards need something between them"),
    # the shape of a side
    ("+ 2 EQ 2", "+ needs a number before it"),
    ("- 2 EQ 0 - 2", "- needs a number before it: there is no minus sign for negative numbers"),
    ("LP X 2 RP EQ 2", "( ×: × needs a number before it"),
    ("1 + X 2 EQ 3", "+ ×: two operations in a row"),
    ("SQRT + 4 EQ 2", "√ +: √ needs a number or a bracket right after it"),
    ("SQRT SQRT 1 6 EQ 2", "√ √: √ needs a number or a bracket right after it"),
    ("LP RP EQ 1 + 1", "( ): nothing between the brackets"),
    ("LP 1 + RP EQ 1", "+ ): + needs a number after it"),
    ("LP SQRT RP EQ 1 + 1", "√ ): √ needs a number or a bracket right after it"),
    ("RP 1 + 1 EQ 2", "a ) closes a bracket that was never opened"),
    ("1 + 1 RP EQ 2", "a ) closes a bracket that was never opened"),
    ("SQ 2 EQ 4", "² needs a number or a bracket right before it"),
    ("1 X SQ EQ 1", "× ²: ² needs a number or a bracket right before it"),
    ("2 SQ SQ EQ 1 6", "² ²: ² needs a number or a bracket right before it"),
    ("2 LP 3 RP EQ 6", "2 (: an operation is missing between them"),
    ("LP 2 RP 3 EQ 6", ") 3: an operation is missing between them"),
    ("LP 2 RP LP 3 RP EQ 6", ") (: an operation is missing between them"),
    ("2 SQRT 4 EQ 4", "2 √: an operation is missing between them"),
    ("2 SQ 3 EQ 1 2", "² 3: an operation is missing between them"),
    ("1 + 1 EQ 2 +", "+ needs a number after it"),
    ("2 EQ SQRT", "√ needs a number or a bracket after it"),
    ("2 EQ 1 + LP", "a ( is opened but never closed"),
    ("LP 1 + 1 EQ 2", "a ( is opened but never closed"),
    # at least one operation besides =
    ("5 EQ 5", "5 = 5: an equation needs an operation besides = (+, -, ×, ÷ or a green card)"),
    (
        "LP 5 RP EQ 5",
        "(5) = 5: an equation needs an operation besides = (+, -, ×, ÷ or a green card)",
    ),
    # values
    ("6 DIV 0 EQ 1", "6 ÷ 0: division by zero"),
    ("6 DIV LP 3 - 3 RP EQ 1", "6 ÷ (3 - 3): division by zero"),
    ("1 FRAC 0 EQ 1", "1/0: division by zero"),
    ("SQRT 2 EQ 1", "√2 is not a rational number"),
    ("SQRT 0 DOT 2 EQ 1", "√0.2 is not a rational number"),
    ("SQRT LP 1 + 1 RP EQ 1", "√(1 + 1) is not a rational number (it is √2)"),
    ("SQRT LP 1 - 2 RP EQ 1", "√(1 - 2): a negative number (-1) has no square root"),
    ("2 X 3 + 4 EQ 1 1", "2 × 3 + 4 = 10, not 11"),  # the example
    ("5 EQ 2 + 2", "2 + 2 = 4, not 5"),  # the side with an operation is worked out
    ("1 + 1 EQ 2 EQ 3", "1 + 1 = 2, not 3"),  # every side must agree
    ("7 FRAC 2 EQ 3", "7/2 = 7/2, not 3"),
]


@pytest.mark.parametrize(("text", "expected"), INVALID)
def test_mecs2_every_invalid_reason(text: str, expected: str) -> None:
    verdict = evaluate(cards(text))
    assert not verdict.valid
    assert verdict.reason == expected
    assert verdict.answer is None and verdict.coins == 0


def test_mecs2_terms_read_a_run_of_digits_and_points_as_one_number() -> None:
    """MECS-2 as the cards are read: digits and decimal points next to each other are one
    number, every other card stays its code; a run that is no number has no terms."""
    assert terms(["1", "2", "X", "LP", "3", "DOT", "5", "RP", "SQ"]) == (
        Fraction(12),
        "X",
        "LP",
        Fraction(7, 2),
        "RP",
        "SQ",
    )
    assert terms(["SQRT", "9", "EQ", "3"]) == ("SQRT", Fraction(9), "EQ", Fraction(3))
    assert terms([]) == ()
    for no_number in (["0", "7"], ["DOT", "5"], ["1", "DOT"], ["1", "DOT", "2", "DOT", "3"]):
        assert terms(no_number) is None, no_number


def test_mecs2_numbers_too_big_to_check_are_invalid_not_slow() -> None:
    """Squared brackets double the digits each time; past 1,000 digits the answer is
    'too big', at once, instead of the device computing for ever."""
    nested = ["LP"] * 40 + ["9"] + ["RP", "SQ"] * 40 + ["EQ", "1"]
    verdict = evaluate(nested)
    assert not verdict.valid
    assert verdict.reason is not None and verdict.reason.endswith("too big to check")
    assert len(verdict.reason) < 200  # a long sequence is shortened in the reason


def test_mecs2_deep_brackets_get_an_answer() -> None:
    """No recursion: thousands of nested brackets are still answered."""
    deep = ["LP"] * 5000 + ["1", "+", "1"] + ["RP"] * 5000 + ["EQ", "2"]
    assert evaluate(deep).valid
    assert not evaluate([*deep[:-3], "EQ", "2"]).valid


def test_mecs2_unknown_card_is_bad_input() -> None:
    with pytest.raises(BadInput, match=r"'16' is not an M\.E\.C\.S\. play card"):
        evaluate(["1", "16"])
    with pytest.raises(BadInput, match="OBJ1"):
        evaluate(["OBJ1"])


# -- MECS-3: coins -----------------------------------------------------------------------------


def test_mecs3_rule_book_63_is_six_coins() -> None:
    verdict = evaluate(cards("9 X 7 EQ 6 3"))
    assert (verdict.valid, verdict.answer_text, verdict.coins) == (True, "63", 6)


@pytest.mark.parametrize(
    ("card", "coins"),
    [
        *((d, 1) for d in "0123456789"),
        *((op, 1) for op in ("+", "-", "X", "DIV", "EQ")),
        ("LP", 2),
        ("RP", 2),
        *((g, 3) for g in ("FRAC", "SQRT", "DOT", "SQ")),
    ],
)
def test_mecs3_coins_per_card(card: str, coins: int) -> None:
    assert card_coins([card]) == coins


def test_mecs3_invalid_equation_yields_nothing() -> None:
    assert evaluate(cards("9 X 7 EQ 6 4")).coins == 0
    assert card_coins(cards("9 X 7 EQ 6 4")) == 6  # what the cards would be worth


# -- rendering and the search helpers ----------------------------------------------------------


def test_render_reads_like_the_cards() -> None:
    assert render(cards("9 X 7 EQ 6 3")) == "9 × 7 = 63"
    assert render(cards("SQRT LP 1 + 3 RP DIV 1 DOT 5 SQ")) == "√(1 + 3) ÷ 1.5²"
    assert render(cards("7 FRAC 2")) == "7/2"


def test_value_of_one_side() -> None:
    assert value_of(cards("1 0 DIV 4")) == Fraction(5, 2)
    assert value_of(cards("1 +")) is None
    assert value_of(cards("1 EQ 1")) is None
    assert value_of(cards("1 DIV 0")) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PLAY_CARDS), max_size=12))
def test_bad_gaps_are_never_inside_a_valid_equation(seq: list[str]) -> None:
    """The search's pruning rule is sound: a valid equation has no bad gap."""
    if evaluate(seq).valid:
        assert bad_gaps(seq) == []
        assert all(may_follow(a, b) for a, b in itertools.pairwise(seq))


def test_bad_gaps_finds_the_gaps_that_need_a_card() -> None:
    assert bad_gaps(cards("3 + 4 EQ")) == [4]
    assert bad_gaps(cards("+ EQ 7")) == [0, 1]
    assert bad_gaps(cards("3 + 4 EQ 7")) == []


# -- the parser answers every card sequence ----------------------------------------------------


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(PLAY_CARDS), max_size=40))
def test_property_parser_never_raises(seq: list[str]) -> None:
    verdict = evaluate(seq)
    assert isinstance(verdict.valid, bool)
    if verdict.valid:
        assert verdict.reason is None and isinstance(verdict.answer, Fraction)
        assert verdict.coins == card_coins(seq)
    else:
        assert isinstance(verdict.reason, str) and verdict.reason
        assert verdict.answer is None and verdict.coins == 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1", "2", "0", "DOT", "+", "X", "FRAC", "EQ", "LP", "RP", "SQ", "SQRT"]),
        max_size=16,
    )
)
def test_property_parser_never_raises_on_likely_sequences(seq: list[str]) -> None:
    """Mostly-sensible sequences reach the deeper checks (values, brackets)."""
    verdict = evaluate(seq)
    assert verdict.valid == (verdict.reason is None)


# -- differential test: an independent evaluation through Python's ast ----------------------


@dataclass(frozen=True)
class Num:
    text: str  # "12", "0.5"


@dataclass(frozen=True)
class Bin:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Root:
    child: Node


@dataclass(frozen=True)
class Square:
    child: Node


Node = Num | Bin | Root | Square

# MECS-2 precedence, restated: fraction bar 3, x ÷ 2, + - 1; roots, squares, numbers bind
# tightest (4).
PRECEDENCE = {"FRAC": 3, "X": 2, "DIV": 2, "+": 1, "-": 1}
PYTHON_OP = {"FRAC": "/", "X": "*", "DIV": "/", "+": "+", "-": "-"}


def prec(node: Node) -> int:
    return PRECEDENCE[node.op] if isinstance(node, Bin) else 4


def to_cards(node: Node, extra: list[bool]) -> list[str]:
    """Cards with only the brackets precedence needs (plus some redundant ones, taken from
    ``extra``), so the parser has to get precedence and associativity right."""

    def wrap(child: Node, need: bool) -> list[str]:
        inner = to_cards(child, extra)
        redundant = bool(extra) and extra.pop()
        return ["LP", *inner, "RP"] if need or redundant else inner

    if isinstance(node, Num):
        return [c if c != "." else "DOT" for c in node.text]
    if isinstance(node, Square):
        return [*wrap(node.child, not isinstance(node.child, Num)), "SQ"]
    if isinstance(node, Root):
        return ["SQRT", *wrap(node.child, not isinstance(node.child, Num))]
    p = PRECEDENCE[node.op]
    return [
        *wrap(node.left, prec(node.left) < p),
        node.op,
        *wrap(node.right, prec(node.right) <= p),
    ]


def to_python(node: Node) -> str:
    """Fully bracketed Python with Fraction literals: nothing left to precedence."""
    if isinstance(node, Num):
        return f"Fraction('{node.text}')"
    if isinstance(node, Square):
        return f"(({to_python(node.child)}) ** 2)"
    if isinstance(node, Root):
        return f"root({to_python(node.child)})"
    return f"({to_python(node.left)} {PYTHON_OP[node.op]} {to_python(node.right)})"


class NotRational(Exception):
    pass


def root(value: Fraction) -> Fraction:
    if value < 0:
        raise NotRational("negative")
    n, d = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if n * n != value.numerator or d * d != value.denominator:
        raise NotRational("irrational")
    return Fraction(n, d)


def python_value(node: Node) -> Fraction:
    tree = ast.parse(to_python(node), mode="eval")
    allowed: tuple[type[ast.AST], ...] = (ast.Expression, ast.BinOp, ast.Call, ast.Name)
    allowed += (ast.Constant, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
    assert all(isinstance(n, allowed) for n in ast.walk(tree))
    value = eval(compile(tree, "<mecs>", "eval"), {"Fraction": Fraction, "root": root})
    assert isinstance(value, Fraction)
    return value


def value_cards(value: Fraction) -> list[str]:
    """Cards that show ``value`` on the other side of = (no unary minus: 0 - ...; and
    x 1 so that a lone number on the left still makes an equation with an operation)."""
    size = abs(value)
    shown = list(str(size.numerator))
    if size.denominator != 1:
        shown += ["FRAC", *str(size.denominator)]
    return ["0", "-", *shown, "X", "1"] if value < 0 else [*shown, "X", "1"]


numbers = st.one_of(
    st.integers(0, 120).map(str),
    st.tuples(st.integers(0, 9), st.integers(1, 99)).map(lambda t: f"{t[0]}.{t[1]}"),
).map(Num)


def extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    return st.one_of(
        st.builds(Bin, st.sampled_from(sorted(PRECEDENCE)), children, children),
        st.builds(Root, children),
        st.builds(Square, children),
    )


expressions = st.recursive(numbers, extend, max_leaves=6)


@settings(max_examples=400, deadline=None)
@given(expressions, st.lists(st.booleans(), max_size=8))
def test_property_differential_against_python_ast(node: Node, extra: list[bool]) -> None:
    side = to_cards(node, list(extra))
    try:
        expected = python_value(node)
    except ZeroDivisionError:
        verdict = evaluate([*side, "EQ", "0"])
        assert not verdict.valid and verdict.reason is not None
        assert verdict.reason.endswith("division by zero")
        return
    except NotRational as exc:
        verdict = evaluate([*side, "EQ", "0"])
        assert not verdict.valid and verdict.reason is not None
        assert ("negative" if str(exc) == "negative" else "not a rational") in verdict.reason
        return
    assert value_of(side) == expected
    verdict = evaluate([*side, "EQ", *value_cards(expected)])
    assert verdict.valid, (render(side), verdict.reason)
    assert verdict.answer == expected
    wrong = evaluate([*side, "EQ", *value_cards(expected + 1)])
    assert not wrong.valid and wrong.reason is not None and ", not " in wrong.reason


def test_mecs3_coin_breakdown_says_why_and_adds_up_to_the_coins() -> None:
    """MECS-3: 1 per digit, 1 per + - x ÷ =, 2 per parenthesis, 3 per advanced card."""
    assert coin_breakdown(["9", "X", "7", "EQ", "6", "3"]) == (("number", 4, 1), ("sign", 2, 1))
    cards = ["SQRT", "LP", "1", "6", "RP", "EQ", "4"]
    assert coin_breakdown(cards) == (
        ("number", 3, 1),
        ("sign", 1, 1),
        ("bracket", 2, 2),
        ("green card", 1, 3),
    )
    for hand in (cards, ["9", "X", "7", "EQ", "6", "3"], PLAY_CARDS):
        rows = coin_breakdown(hand)
        assert sum(n * each for _, n, each in rows) == card_coins(hand)
        assert sum(n for _, n, _ in rows) == len(list(hand))
