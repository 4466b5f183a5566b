"""Three small ways with words, in one place for every layer above (engines, the journal,
the classroom, printables, the screens, the teacher's dashboard): a message as a sentence
(:func:`sentence`), a number of things (:func:`plural`) and a list of things
(:func:`and_joined`). English only; the children's own sentences come from the sentence
table (``tabletop/assets/sentences.toml``)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

ENDINGS = (".", "!", "?")


def sentence(text: str) -> str:
    """``text`` trimmed, with a capital first letter and a full stop at its end unless it
    ends with ``.``, ``!`` or ``?``: ``"the SD card is full"`` -> ``"The SD card is
    full."``. Empty (or blank) text stays ``""``."""
    text = text.strip()
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text.endswith(ENDINGS) else ".")


def plural(n: int | Fraction, noun: str, many: str | None = None, *, signed: bool = False) -> str:
    """``n`` and its noun, singular for exactly 1 and plural else (0 too): ``"1 station"``,
    ``"3 stations"``, ``"0 games"``. ``many``: the plural of a noun that does not just take
    an ``s``, ``plural(2, "die", "dice")`` -> ``"2 dice"``. ``signed``: a gain or a loss,
    ``"+1 point"``, ``"+0 points"``, ``"-3 points"``."""
    sign = "+" if signed and n >= 0 else ""
    return f"{sign}{n} {noun if n == 1 else many or noun + 's'}"


def and_joined(items: Sequence[str], word: str = "and") -> str:
    """Things in a sentence: ``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cy"`` (no
    comma before the last ``word``; ``word="or"``: ``"3, 4 or 5"``). None is ``""``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


__all__ = ["ENDINGS", "and_joined", "plural", "sentence"]
