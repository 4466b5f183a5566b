"""The student badge's code, ``MT1:ID:<student id>`` (DESIGN.md, "Card codes and QR
payloads"), in one place for every layer above: the card reader takes a badge by it
(``vision.cards``), the class list its ids (``tabletop.classroom.students``), sign-in
the id a camera code carries (:func:`badge_id`). A game's own card codes are its engine's.

A student id is QR alphanumeric characters without the space and the colon (which
separates the payload's parts), at most 32 of them.
"""

from __future__ import annotations

import re
import string

ID_CHARACTERS = frozenset(string.ascii_uppercase + string.digits + "$%*+-./")
MAX_ID_LENGTH = 32
ID_PATTERN = re.compile(f"[{re.escape(''.join(sorted(ID_CHARACTERS)))}]{{1,{MAX_ID_LENGTH}}}")
BADGE_PREFIX = "MT1:ID:"  # a badge's QR code: the prefix, then the student id


def badge_id(code: str) -> str | None:
    """The student id a camera code carries (``MT1:ID:<id>``; the id trimmed and in
    upper case), or None if it is not a badge. A code the camera saw twice in one frame
    (``!`` in front) still counts."""
    code = code.removeprefix("!")
    if not code.startswith(BADGE_PREFIX):
        return None
    sid = code[len(BADGE_PREFIX) :].strip().upper()
    return sid if ID_PATTERN.fullmatch(sid) else None
