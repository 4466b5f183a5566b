"""The dice-fairness lesson (issue 24): the chi-square figure against table values, the
sentence, and the dice the device reads kept in the journal."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.classroom.dice_lesson import (
    chi2_sf,
    chi_square,
    fairness,
    odds,
    read_dice,
)
from tabletop.store import FILE_NAME, Journal

# (x, degrees of freedom, upper-tail p) from the standard chi-square table
TABLE = [
    (11.070, 5, 0.05),
    (9.236, 5, 0.10),
    (15.086, 5, 0.01),
    (1.610, 5, 0.90),
    (4.351, 5, 0.50),
    (3.841, 1, 0.05),
    (5.991, 2, 0.05),
    (7.815, 3, 0.05),
    (9.488, 4, 0.05),
]


@pytest.mark.parametrize(("x", "dof", "p"), TABLE)
def test_dice_lesson_chi2_against_the_table(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, abs=5e-4)


def test_dice_lesson_chi2_edges() -> None:
    assert chi2_sf(0, 5) == 1.0
    assert chi2_sf(1000, 5) < 1e-100
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi2_sf(1, 0)


def test_dice_lesson_statistic_is_exact() -> None:
    # 60 rolls, 10 expected each: (2^2 + 2^2 + 1 + 1 + 0 + 0) / 10
    assert chi_square([12, 8, 11, 9, 10, 10]) == Fraction(10, 10)
    assert chi_square([0] * 6) == 0
    assert chi_square([1, 0, 0, 0, 0, 0]) == 5


def test_dice_lesson_sentences() -> None:
    fair = fairness([1, 2, 3, 4, 5, 6] * 100)
    assert fair.rolls == 600 and fair.counts == (100,) * 6 and fair.fair
    assert fair.sentence() == (
        "after 600 rolls these dice look fair: fair dice give counts this uneven almost every time"
    )
    # 600 rolls, 100 expected each: chi2 = (100 + 100 + 144 + 144) / 100 = 4.88, p = 0.43
    some = fairness([1] * 110 + [2] * 90 + [3] * 100 + [4] * 100 + [5] * 112 + [6] * 88)
    assert some.chi2 == Fraction(488, 100)
    assert some.sentence() == (
        "after 600 rolls these dice look fair: "
        "fair dice give counts this uneven about 4 times in 10"
    )
    loaded = fairness([6] * 40 + [1, 2, 3, 4, 5] * 8)
    assert loaded.fair is False
    assert loaded.sentence().startswith("after 80 rolls these dice do not look fair")
    early = fairness([3, 4, 5])
    assert early.p is None and early.fair is None
    assert early.sentence() == "after 3 rolls it is too early to tell: roll 27 more times at least"
    assert fairness([7, 0, 3]).counts == (0, 0, 1, 0, 0, 0)


def test_dice_lesson_odds_words() -> None:
    assert odds(0.42) == "about 4 times in 10"
    assert odds(0.05) == "about 5 times in 100"
    assert odds(0.012) == "about 1 time in 100"
    assert odds(0.003) == "about 3 times in 1000"
    assert odds(0.0001) == "less than 1 time in 1000"
    assert odds(0.97) == "almost every time"


def test_dice_lesson_dice_kept_in_the_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    journal.add_dice([3, 5], "camera", session="L1")
    journal.add_dice([6, 6], "virtual", session="L1")
    journal.add_dice([2, 1], "tap", session="L2")
    assert read_dice(journal, "L1") == [3, 5]
    assert read_dice(journal) == [3, 5, 2, 1]
    assert read_dice(journal, sources=("virtual",)) == [6, 6]
