"""The student badge's code, in one place (``tabletop.engine.cardcodes``): sign-in takes
from a camera code exactly the ids the class list accepts."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from tabletop.classroom.students import student_id
from tabletop.engine.cardcodes import BADGE_PREFIX, badge_id
from tabletop.engine.errors import BadInput

# QR alphanumeric characters (those a badge's code can hold), a few others, whitespace
TEXT = st.text(alphabet=string.ascii_letters + string.digits + " $%*+-./:!?_\t", max_size=40)


@given(TEXT)
def test_cardcodes_badge_id_is_the_class_lists_id(text: str) -> None:
    try:
        expected: str | None = student_id(text)
    except BadInput:
        expected = None
    assert badge_id(BADGE_PREFIX + text) == expected
    assert badge_id("!" + BADGE_PREFIX + text) == expected  # seen twice in one frame
    assert badge_id(text) is None or text.startswith(("MT1:ID:", "!MT1:ID:"))


def test_cardcodes_badge_ids_trimmed_upper_case_and_in_bounds() -> None:
    assert badge_id("MT1:ID:s-1.A/$") == "S-1.A/$"
    assert badge_id("MT1:ID: S1 ") == "S1"
    assert badge_id("MT1:ID:" + "X" * 32) == "X" * 32
    for code in ("MT1:ID:" + "X" * 33, "MT1:ID:A B", "MT1:ID:A:B", "MT1:ID:Ä", "MT1:ID: "):
        assert badge_id(code) is None, code
