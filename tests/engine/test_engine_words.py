"""One way to end a sentence and to count things (``tabletop.engine.words``): every layer
uses it, so the journal, the report, the screens and the dashboard say things alike."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine.words import ENDINGS, and_joined, plural, sentence


def test_words_sentence_capitalises_and_ends_with_a_full_stop() -> None:
    assert sentence("the SD card is full") == "The SD card is full."
    assert sentence("  the plan has no stations: add at least one \n") == (
        "The plan has no stations: add at least one."
    )
    assert sentence("9 × 7 = 63, not 6") == "9 × 7 = 63, not 6."


def test_words_sentence_keeps_an_ending_it_has() -> None:
    assert sentence("well played!") == "Well played!"
    assert sentence("is the card upside down?") == "Is the card upside down?"
    assert sentence("done.") == "Done."


def test_words_sentence_of_nothing_is_nothing() -> None:
    assert sentence("") == ""
    assert sentence(" \t\n") == ""


@given(st.text(max_size=30))
def test_words_sentence_is_one_sentence_of_the_same_words(text: str) -> None:
    said = sentence(text)
    assert sentence(said) == said  # a sentence stays as it is
    trimmed = text.strip()
    if not trimmed:
        assert said == ""
        return
    assert said.endswith(ENDINGS)
    assert said in (trimmed[0].upper() + trimmed[1:], trimmed[0].upper() + trimmed[1:] + ".")


def test_words_plural_says_one_thing_or_several() -> None:
    assert plural(1, "station") == "1 station"
    assert plural(3, "station") == "3 stations"
    assert plural(0, "game") == "0 games"
    assert plural(2, "student skill") == "2 student skills"
    assert plural(1, "VICTORY! card") == "1 VICTORY! card"


def test_words_plural_takes_an_irregular_plural() -> None:
    assert plural(1, "die", "dice") == "1 die"
    assert plural(2, "die", "dice") == "2 dice"
    assert plural(0, "die", "dice") == "0 dice"


@given(st.integers(min_value=-(10**6), max_value=10**6), st.sampled_from(["coin", "die"]))
def test_words_plural_is_singular_for_exactly_one(n: int, noun: str) -> None:
    said = plural(n, noun, "dice" if noun == "die" else None)
    number, _, words = said.partition(" ")
    assert int(number) == n
    assert words == (noun if n == 1 else "dice" if noun == "die" else noun + "s")


def test_words_plural_counts_a_fraction_score() -> None:
    """Engines' scores are fractions (``Result.scores``): one coin is still one coin."""
    assert plural(Fraction(1), "coin") == "1 coin"
    assert plural(Fraction(12), "coin") == "12 coins"
    assert plural(Fraction(1, 2), "point") == "1/2 points"


def test_words_plural_signed_is_a_gain_or_a_loss() -> None:
    """A line's points (MM-4): "+1 point", "+0 points", "-3 points"."""
    assert plural(1, "point", signed=True) == "+1 point"
    assert plural(0, "point", signed=True) == "+0 points"
    assert plural(12, "point", signed=True) == "+12 points"
    assert plural(-3, "point", signed=True) == "-3 points"
    assert plural(-1, "point", signed=True) == "-1 points"


def test_words_and_joined_reads_as_a_sentence() -> None:
    assert and_joined(["Ana"]) == "Ana"
    assert and_joined(["Ana", "Ben"]) == "Ana and Ben"
    assert and_joined(["Ana", "Ben", "Cy"]) == "Ana, Ben and Cy"
    assert and_joined(("1", "3", "5", "6")) == "1, 3, 5 and 6"
    assert and_joined(["3", "4", "5"], "or") == "3, 4 or 5"
    assert and_joined([]) == ""


@given(st.lists(st.text(alphabet="ABCxyz12", min_size=1, max_size=5), max_size=6))
def test_words_and_joined_keeps_every_item_in_order(items: list[str]) -> None:
    """Read back: the list is the words before the one "and", split at the commas, then
    the word after it."""
    said = and_joined(items)
    if len(items) < 2:
        assert said == "".join(items)
        return
    first, last = said.split(" and ")
    assert [*first.split(", "), last] == items
