"""The kinds of mistake (issue 24): hand-made answer logs, one per kind."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tabletop.classroom.mistakes import (
    KINDS,
    LEFT_TO_RIGHT,
    TOLD,
    Question,
    classify,
    evaluate,
    question,
    skill_of,
)

# (skill, numbers, ops, game's right answer or None, the child's answer, kind, example)
LOG = [
    ("multiplication", [7, 8], "x", None, 15, "operation", "7 x 8: answered 15, which is 7 + 8"),
    ("subtraction", [5, 9], "-", None, 4, "sign", "5 - 9: answered 4, the opposite of -4"),
    ("addition", [6, 7], "+", None, 14, "off_by_one", "6 + 7: answered 14, one more than 13"),
    ("addition", [46, 38], "+", None, 82, "off_by_one", "46 + 38: answered 82, 2 away from 84"),
    ("division", [17, 5], "/", None, 3, "remainder", "17 ÷ 5: answered 3, dropping the remainder"),
    ("division", [17, 5], "/", None, 32, "remainder", "17 ÷ 5: answered 32, keeping the"),
    ("division", [17, 5], "/", None, 2, "remainder", "keeping the remainder (17 ÷ 5 = 3 r 2)"),
    ("order", [2, 3, 4], "+x", None, 20, "order", "2 + 3 x 4: answered 20, working left to right"),
    ("order", [2, 3, 4], "x+", None, 14, "order", "2 x 3 + 4: answered 14, doing + and - before"),
    ("multiplication", [6, 9], "x", None, 45, "place_value", "the digits of 54 swapped"),
    ("multiplication", [7, 8], "x", None, 560, "place_value", "56 out by a factor of 10"),
    ("multiplication", [7, 8], "x", None, 31, "other", "7 x 8: answered 31; the answer is 56"),
]


@pytest.mark.parametrize(("skill", "numbers", "ops", "right", "answer", "kind", "example"), LOG)
def test_mistakes_hand_made_log(skill, numbers, ops, right, answer, kind, example) -> None:
    q = question(skill, numbers, list(ops), right=None if right is None else Fraction(right))
    found = classify(q, answer)
    assert found is not None
    assert found.kind == kind
    assert example in found.example


def test_mistakes_every_kind_is_in_the_log() -> None:
    assert {row[5] for row in LOG} | set(TOLD) == set(KINDS)


def test_mistakes_line_rule_told_by_the_game() -> None:
    """MM-3/MM-4: a Mathe-Meister line worked left to right whose sum breaks its rule is
    a "rule" mistake, though the device worked the sum out itself."""
    from tabletop.classroom.mistakes import Mistake

    q = question(
        "line_sums", [3, 5, 2, 2], "++x", order=LEFT_TO_RIGHT, broken="a column needs an odd sum"
    )
    assert q.answer == 20
    assert classify(q, 20) == Mistake("rule", "3 + 5 + 2 x 2 = 20: a column needs an odd sum")


def test_mistakes_the_reverse_order_is_named() -> None:
    """A game that works left to right: x first is the mistake."""
    q = question("order", [2, 3, 4], ["+", "x"], order=LEFT_TO_RIGHT)
    assert q.answer == 20
    found = classify(q, 14)
    assert found is not None and found.kind == "order"
    assert "left to right" in found.example


def test_mistakes_right_answer_is_no_mistake() -> None:
    assert classify(question("division", [7, 2], "/"), Fraction(7, 2)) is None
    assert classify(question("division", [17, 5], "/", right=Fraction(17)), 17) is None


def test_mistakes_bad_question_is_refused() -> None:
    with pytest.raises(ValueError, match="one operation fewer"):
        Question("addition", (Fraction(1),), ("+",))
    with pytest.raises(ValueError, match="operations are"):
        question("addition", [1, 2], ["^"])
    with pytest.raises(ValueError, match="division by zero"):
        _ = question("division", [1, 0], ["/"]).answer


def test_mistakes_skill_of_expression() -> None:
    assert skill_of(["x"]) == "multiplication"
    assert skill_of(["+", "-"]) == "addition"
    assert skill_of(["+", "x"]) == "order"


def test_mistakes_evaluate_orders() -> None:
    nums = [Fraction(n) for n in (2, 3, 4)]
    assert evaluate(nums, ["+", "x"]) == 14
    assert evaluate(nums, ["+", "x"], LEFT_TO_RIGHT) == 20
    assert evaluate(nums, ["x", "+"], "reverse") == 14
    assert evaluate([Fraction(1), Fraction(0)], ["/"]) is None


@given(
    st.lists(st.integers(-50, 50), min_size=2, max_size=4),
    st.lists(st.sampled_from(["+", "-", "x"]), min_size=3, max_size=3),
    st.integers(-500, 500),
)
def test_mistakes_classify_is_total(numbers, ops, answer) -> None:
    """Any answer to any question gets a kind (or None when right), never an exception."""
    q = question(skill_of(ops[: len(numbers) - 1]), numbers, ops[: len(numbers) - 1])
    found = classify(q, answer)
    assert (found is None) == (answer == q.answer)
    if found is not None:
        assert found.kind in KINDS and found.example.startswith(q.text)


def test_mistakes_child_makes_each_kind_it_is_asked_for() -> None:
    """The demo child's mistake of each kind is classified as that kind (hand-picked
    questions where that kind is possible)."""
    import random

    from tabletop.classroom.mistakes import Child

    cases = {  # every kind the device works out (the line rule is told by the game)
        "sign": question("subtraction", [5, 9], "-"),
        "operation": question("multiplication", [7, 8], "x"),
        "remainder": question("division", [17, 5], "/", right=Fraction(17)),
        "order": question("order", [2, 3, 4], ["+", "x"]),
        "place_value": question("multiplication", [6, 9], "x"),
        "off_by_one": question("addition", [46, 38], "+"),
        "other": question("multiplication", [7, 8], "x"),
    }
    assert set(cases) == set(KINDS) - set(TOLD)
    for kind, q in cases.items():
        child = Child(random.Random(1), {kind: 1.0})
        found = classify(q, child.answer(q))
        assert found is not None and found.kind == kind, (kind, found)


def test_mistakes_child_is_seeded_and_mostly_right() -> None:
    import random

    from tabletop.classroom.mistakes import Child

    q = question("multiplication", [7, 8], "x")
    a = [Child(random.Random(5)).answer(q) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    child = Child(random.Random(9))
    answers = [child.answer(q) for _ in range(400)]
    right = sum(x == 56 for x in answers)
    assert 200 < right < 380  # the stated rates: about 30% wrong where 4 kinds apply
    with pytest.raises(ValueError, match="no such kind"):
        Child(random.Random(1), {"typo": 0.5})


# M.E.C.S. equations with brackets and green cards (MECS-2): (numbers, ops, shape, the
# child's answer, kind, example)
SHAPED = [
    ([2, 3, 4], ["+", "x"], "( n o n ) o n", 14, "order", "(2 + 3) x 4: answered 14, leaving out"),
    ([2, 3, 4], ["+", "x"], "( n o n ) o n", -20, "sign", "the opposite of 20"),
    ([2, 3, 4], ["+", "x"], "( n o n ) o n", 9, "operation", "(2 + 3) + 4 (+ in place of x)"),
    ([9, 2], ["+"], "√ n o n ²", 8, "off_by_one", "√9 + 2²: answered 8, one more than 7"),
    ([3, 4, 1], ["frac", "+"], "n o n o n", 7, "other", "3/4 + 1: answered 7; the answer is 7/4"),
    ([Fraction(5, 2), 2], ["x"], "n o n", 50, "place_value", "2.5 x 2: answered 50, 5 out by"),
]


SHAPE_FIRST = ("(", "n", "o", "n", ")", "o", "n")  # (a . b) . c
SHAPE_MIDDLE = ("n", "o", "(", "n", "o", "n", ")", "o", "n")  # a . (b . c) . d


@pytest.mark.parametrize(("numbers", "ops", "shape", "answer", "kind", "example"), SHAPED)
def test_mistakes_shaped_equation_log(numbers, ops, shape, answer, kind, example) -> None:
    """MECS-2: brackets, roots, squares, fraction bars and decimals keep their shape; a
    left-out bracket is an order-of-operations mistake."""
    q = question("order", numbers, ops, shape=tuple(shape.split()))
    found = classify(q, answer)
    assert found is not None and found.kind == kind, found
    assert example in found.example


def test_mistakes_shaped_values() -> None:
    """Precedence inside and outside brackets, left to right, roots of squares only."""
    q = question("order", [8, 2, 3, 1], ["-", "x", "+"], shape=SHAPE_MIDDLE)
    assert q.answer == 3 and q.text == "8 - (2 x 3) + 1"
    assert q.value(brackets=False) == 3 and q.value(order=LEFT_TO_RIGHT) == 3
    r = question("order", [8, 2, 3], ["-", "x"], shape=SHAPE_FIRST)
    assert r.answer == 18 and r.value(brackets=False) == 2
    assert question("equations", [2], [], shape=("√", "n")).value() is None  # √2 is no fraction
    assert question("equations", [1, 0], ["/"], shape=("n", "o", "n")).value() is None


def test_mistakes_bad_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="shape"):
        question("order", [2, 3], ["+"], shape=("n", "o"))
    with pytest.raises(ValueError, match="shape"):
        question("order", [2, 3], ["+"], shape=("n", "o", "n", "%"))
    with pytest.raises(ValueError, match="operations"):
        question("order", [2, 3], ["frac"])  # a fraction bar needs a shape


def test_mistakes_objective_told_by_the_game() -> None:
    """MECS-6: a true equation whose answer misses the challenge card's objective."""
    from tabletop.classroom.mistakes import Mistake

    q = question("equations", [9, 7], "x", broken="the objective is a prime number")
    assert classify(q, 63) == Mistake("objective", "9 x 7 = 63: the objective is a prime number")


def test_mistakes_child_forgets_brackets() -> None:
    """The demo child's order mistake on a bracketed equation leaves the brackets out."""
    import random

    from tabletop.classroom.mistakes import Child

    q = question("order", [2, 3, 4], ["+", "x"], shape=SHAPE_FIRST)
    wrong = Child(random.Random(3), {"order": 1.0}).answer(q)
    assert wrong == 14
    found = classify(q, wrong)
    assert found is not None and found.kind == "order"


def test_mistakes_count_alone_is_a_question() -> None:
    """MWM-2: with no MATH CRATE card left the COUNT META card stands alone; the child's
    typed solution is checked all the same, so it is a question (a number copied with
    its digits swapped is a place-value mistake)."""
    from dataclasses import replace

    from tabletop.games.math_wars_meta import MathWarsMeta, MathWarsMetaSettings, Stage
    from tabletop.ui.games.math_wars_meta.play import questions_for

    state = MathWarsMeta().new_game(MathWarsMetaSettings(), 2)
    stage = Stage(seats=(0, 1), up=((1, 21), (2, 7)), crates=(None, "x3"))
    state = replace(state, phase="solve", stage=stage)
    own, team = questions_for(state, 0)
    assert own is not None and team is None
    assert (own.skill, own.text, own.answer) == ("count", "21", 21)
    found = classify(own, 12)
    assert found is not None and found.kind == "place_value"
    other, _ = questions_for(state, 1)
    assert other is not None and (other.skill, other.text) == ("multiplication", "7 x 3")


# (numbers, the game's right answer, the child's answer, kind, example): divisions whose
# right answer is not the quotient (the question says what it asks: Question.asks)
RULE_LOG = [
    ([9, 4], 1, 2, "remainder", "remainder of 9 ÷ 4: answered 2, the quotient, not the remainder"),
    ([9, 4], 1, 21, "remainder", "answered 21, the quotient and remainder together, not the"),
    ([8, 4], 0, 2, "remainder", "remainder of 8 ÷ 4: answered 2, the quotient, not the remainder"),
    ([9, 4], 1, 13, "operation", "remainder of 9 ÷ 4: answered 13, which is 9 + 4"),
    ([9, 4], 1, 9, "other", "remainder of 9 ÷ 4: answered 9; the answer is 1"),
    ([5, 10], 5, 0, "remainder", "5 ÷ 10 leaves a remainder, so 5 counts: answered 0, dividing"),
    ([17, 5], 17, 3, "remainder", "so 17 counts: answered 3, dividing anyway (3 r 2)"),
    ([17, 5], 17, 32, "remainder", "so 17 counts: answered 32, dividing anyway"),
    ([17, 5], 17, 2, "remainder", "so 17 counts: answered 2, giving the remainder (3 r 2)"),
    ([3, 7], 3, 4, "off_by_one", "3 ÷ 7 leaves a remainder, so 3 counts: answered 4, one more"),
    ([17, 5], 17, 4, "other", "17 ÷ 5 leaves a remainder, so 17 counts: answered 4; the answer"),
]


@pytest.mark.parametrize(("numbers", "right", "answer", "kind", "example"), RULE_LOG)
def test_mistakes_arena1_mwm2_rule_questions_say_what_they_ask(
    numbers, right, answer, kind, example
) -> None:
    """ARENA-1 (the Queen: the remainder of the larger divided by the smaller, equal ->
    0) and MWM-2 (a division with a remainder uses the count alone) are journaled as a
    division whose right answer is the remainder, or the count: the question says so,
    and a wrong answer's kind is the rule's, never "dropping the remainder" (on the old
    main: "9 ÷ 4: answered 2, dropping the remainder", where 2 is the quotient the Queen
    does not ask for, and "5 ÷ 10: answered 0, dropping the remainder", where 5 counts)."""
    q = question("division", numbers, "/", right=Fraction(right))
    found = classify(q, answer)
    assert found is not None
    assert found.kind == kind
    assert example in found.example
    assert "dropping" not in found.example and "keeping" not in found.example


# Divisions asked by a rule whose wrong answer is also the numbers under another operation:
# (numbers, the game's right answer, the child's answer, example)
QUOTIENT_LOG = [
    ([4, 2], 0, 2, "remainder of 4 ÷ 2: answered 2, the quotient, not the remainder (2 r 0)"),
    ([5, 1], 0, 5, "remainder of 5 ÷ 1: answered 5, the quotient, not the remainder (5 r 0)"),
    ([3, 2], 3, 1, "3 ÷ 2 leaves a remainder, so 3 counts: answered 1, dividing anyway (1 r 1)"),
    ([5, 3], 5, 2, "so 5 counts: answered 2, giving the remainder (1 r 2)"),
]


@pytest.mark.parametrize(("numbers", "right", "answer", "example"), QUOTIENT_LOG)
def test_mistakes_arena1_mwm2_the_quotient_reads_as_the_quotient(
    numbers, right, answer, example
) -> None:
    """A Queen (ARENA-1) answered with the quotient is a remainder mistake, said as the
    quotient, even where the quotient is also the numbers under another operation (4 ÷ 2
    = 2 = 4 - 2; 5 ÷ 1 = 5 = 5 x 1); so is an MWM-2 count answered with the quotient or
    the remainder (3 ÷ 2 = 1 = 3 - 2; 5 ÷ 3 leaves 2 = 5 - 3). On the old main these read
    "answered 2, which is 4 - 2", kind "operation": true, but it hides the division."""
    q = question("division", numbers, "/", right=Fraction(right))
    found = classify(q, answer)
    assert found is not None and found.kind == "remainder"
    assert example in found.example and "which is" not in found.example
    other = classify(q, numbers[0] + numbers[1])  # another operation's answer: still that
    assert other is not None and other.kind == "operation"


def test_mistakes_arena1_mwm2_what_a_division_asks() -> None:
    """Question.asks from the numbers and the right answer alone: the quotient (no
    rule), the remainder (ARENA-1), or the count (MWM-2; a smaller count divided by a
    larger crate is its own remainder too, and it is the count the game keeps)."""
    from tabletop.classroom.mistakes import COUNT, REMAINDER, VALUE

    def asks(numbers: list[int], right: int | Fraction | None) -> str:
        return question("division", numbers, "/", right=right).asks

    assert asks([12, 4], None) == asks([12, 4], 3) == asks([7, 2], Fraction(7, 2)) == VALUE
    assert asks([9, 4], 1) == asks([4, 4], 0) == asks([9, 1], 0) == REMAINDER
    assert asks([17, 5], 17) == asks([5, 10], 5) == COUNT
    assert asks([12, 4], 12) == VALUE  # no remainder: the count is not what MWM-2 keeps
    assert question("division", [9, 4], "/", right=Fraction(1)).text == "remainder of 9 ÷ 4"


@given(st.integers(0, 30), st.integers(1, 12), st.integers(-40, 400), st.booleans())
def test_mistakes_arena1_mwm2_claims_only_what_the_rule_allows(a, b, answer, queen) -> None:
    """Any answer to a Queen (ARENA-1) or MWM-2 question: right exactly when it is the
    game's answer; a remainder mistake only for the quotient (or quotient and remainder
    written together) or, for MWM-2, the remainder; every example starts with what the
    question asks."""
    assume(a >= b if queen else a % b != 0)  # the Queen divides the larger; MWM-2 a remainder
    whole, left = divmod(a, b)
    right = left if queen else a
    q = question("division", [a, b], "/", right=Fraction(right))
    found = classify(q, answer)
    assert (found is None) == (answer == right)
    if found is None:
        return
    assert found.example.startswith(q.text)
    if found.kind == "remainder":
        assert answer in (whole, int(f"{whole}{left}"), *(() if queen else (left,)))
    assert "dropping" not in found.example and "rounding" not in found.example


def test_mistakes_arena1_mwm2_questions_the_games_ask() -> None:
    """The questions Math Arena's values (ARENA-1) and Math Wars Meta's solutions (MWM-2)
    journal: a Queen asks the remainder (equal cards: 0), an MWM division that leaves a
    remainder asks the count, one that leaves none the quotient."""
    from dataclasses import replace

    from tabletop.games.math_wars_meta import MathWarsMeta, MathWarsMetaSettings, Stage
    from tabletop.ui.games.math_arena.play import value_question
    from tabletop.ui.games.math_wars_meta.play import questions_for

    queen = value_question("QS", ("4H", "9C"))
    assert (queen.skill, queen.text, queen.answer, queen.asks) == (
        "division",
        "remainder of 9 ÷ 4",
        1,
        "remainder",
    )
    found = classify(queen, 2)
    assert found is not None and found.kind == "remainder"
    assert found.example.endswith("answered 2, the quotient, not the remainder (2 r 1)")
    assert value_question("QD", ("7S", "7H")).text == "remainder of 7 ÷ 7"
    assert value_question("KS", ("4H", "9C")).text == "9 + 4"

    state = MathWarsMeta().new_game(MathWarsMetaSettings(), 2)
    stage = Stage(seats=(0, 1), up=((1, 5), (2, 12)), crates=("/10", "/4"))
    state = replace(state, phase="solve", stage=stage)
    own, _ = questions_for(state, 0)
    assert own is not None
    assert (own.skill, own.text, own.answer) == (
        "division",
        "5 ÷ 10 leaves a remainder, so 5 counts",
        5,
    )
    found = classify(own, 0)
    assert found is not None and found.kind == "remainder"
    assert found.example.endswith("answered 0, dividing anyway (0 r 5)")
    exact, _ = questions_for(state, 1)
    assert exact is not None and (exact.text, exact.answer, exact.asks) == ("12 ÷ 4", 3, "value")
