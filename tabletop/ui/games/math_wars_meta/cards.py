"""Math Wars Meta's cards as the device reads them: the camera's codes (or a touch)
understood as the engine's :class:`~tabletop.games.math_wars_meta.CardCode` (``army``
None when the code carries no deck number), and the MATH CRATE card's face in words."""

from __future__ import annotations

import re
from typing import Any

from tabletop.engine.errors import TabletopError
from tabletop.games.math_wars_meta import OP_WORDS, QR_PREFIX, CardCode, parse_crate


class CardProblem(ValueError):
    """A card the device cannot use; ``code`` maps to a child's sentence."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


def read_code(code: str) -> CardCode:
    """``MT1:MWM:C17:3``, ``C17:3``, ``C17``, ``K+6``, ``KX3:2``, ``+6``, ``x3`` or
    ``VIC`` -> a :class:`CardCode`; :class:`CardProblem` for anything else (``?`` is a
    QR code that is not one of ours)."""
    text = code.strip().upper()
    if text.startswith("MT1:") and not text.startswith(QR_PREFIX):
        raise CardProblem("mwm.ui.other_game", f"{code!r} is a card of another game")
    body, _, deck = text.removeprefix(QR_PREFIX).partition(":")
    army = int(deck) if re.fullmatch("0*[1-8]", deck) else None
    if deck and army is None:
        raise CardProblem("mwm.ui.foreign_card", f"{code!r} has no army 1..8")
    if body == "VIC":
        return CardCode("victory", army=army)
    if count := re.fullmatch("C([0-9]{1,9})", body):  # (a QR code may hold 7,000 digits)
        return CardCode("count", army, number=int(count[1]))
    try:  # "" and "?" (a QR code that is not one of ours) too
        return CardCode("crate", army, face=parse_crate(body.removeprefix("K")))
    except TabletopError:
        raise CardProblem("mwm.ui.foreign_card", f"{code!r} is not a Math Wars Meta card") from None


def crate_label(face: str) -> str:
    """``x3`` -> ``×3``."""
    return f"{OP_WORDS[face[0]]}{face[1:]}"


def signed(value: int) -> str:
    """A number with a real minus sign: ``−3``."""
    return f"\u2212{-value}" if value < 0 else str(value)


__all__ = ["CardProblem", "crate_label", "read_code", "signed"]
