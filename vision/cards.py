"""The card reader: every QR code in a frame, and our card codes in them.

zxing-cpp is the decoder (measured on camera-like 1280x720 frames: 95.6% of codes read
at 2.8 ms, pyzbar 85.0% at 26 ms, OpenCV's detector 0-24%). pyzbar is a selectable
backend, and ``backend="both"`` asks pyzbar too for what zxing-cpp missed (for photos,
where time does not matter). OpenCV's QR detector is never used.

Payloads (DESIGN.md, "Card codes and QR payloads"): ``MT1:<GAME>:<CARD>[:<DECK>]`` in
QR alphanumeric characters. :func:`parse_payload` turns one into a :class:`CardCode`,
or says why it is not one of ours, or not well formed; it never guesses. In a frame, a
card that exists once (one with a DECK number, a student badge) seen twice is flagged.
Pure functions of a frame.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from tabletop.engine.cardcodes import ID_PATTERN
from tabletop.engine.errors import BadInput

PREFIX = "MT1"
MAX_DECK = 8
# QR alphanumeric mode: upper case, digits, space and $ % * + - . / :
ALPHANUMERIC = re.compile(r"[0-9A-Z $%*+\-./:]*")

_N10 = r"(?:10|[1-9])"
_N20 = r"(?:20|1[0-9]|[1-9])"
_N100 = r"(?:100|[1-9][0-9]|[1-9])"
# The CARD part per GAME; DECK rules in _DECK.
CARD_PATTERNS: dict[str, re.Pattern[str]] = {
    "MWM": re.compile(rf"C{_N100}|K[+\-X/]{_N10}|VIC"),
    "ATK": re.compile(rf"[+\-]{_N10}|[+\-][HND]|END|CANCEL|FLIP|BLOCK"),
    "MECS": re.compile(rf"[0-9]|[+\-X]|DIV|LP|RP|EQ|FRAC|SQRT|DOT|SQ|OBJ{_N20}"),
    "ARENA": re.compile(r"(?:A|[2-9]|10|J|Q|K)[SHDC]"),
    "ID": ID_PATTERN,  # a student badge: the class list's ids
}
GAMES = tuple(CARD_PATTERNS)

Problem = Literal["foreign", "malformed", "duplicate"]
Backend = Literal["zxing", "pyzbar", "both"]
Point = tuple[float, float]


@dataclass(frozen=True)
class CardCode:
    """A parsed payload: ``MT1:MWM:C17:3`` is game MWM, card C17, deck 3."""

    game: str
    card: str
    deck: int | None = None

    @property
    def code(self) -> str:
        """The canonical payload text."""
        tail = "" if self.deck is None else f":{self.deck}"
        return f"{PREFIX}:{self.game}:{self.card}{tail}"

    @property
    def single(self) -> bool:
        """True for a card that exists once: one with a DECK number, or a badge."""
        return self.deck is not None or self.game == "ID"

    @classmethod
    def parse(cls, payload: str) -> CardCode:
        """Like :func:`parse_payload`, but ``BadInput`` when it is not a card code."""
        code, problem = parse_payload(payload)
        if code is None:
            raise BadInput(f"vision.card_{problem}", f"{payload!r}: {problem_text(payload)}")
        return code


def parse_payload(payload: str) -> tuple[CardCode | None, Problem | None]:
    """(card code, None) for one of ours; (None, "foreign") for a QR code that is not
    ours; (None, "malformed") for an ``MT1:`` payload that is not a valid card."""
    if not payload.startswith(PREFIX + ":"):
        return None, "foreign"
    if not ALPHANUMERIC.fullmatch(payload):
        return None, "malformed"
    parts = payload.split(":")
    if len(parts) not in (3, 4):
        return None, "malformed"
    _, game, card, *rest = parts
    pattern = CARD_PATTERNS.get(game)
    if pattern is None or not pattern.fullmatch(card):
        return None, "malformed"
    deck = None
    if rest:
        if game == "ID" or not re.fullmatch(r"[1-9]", rest[0]) or int(rest[0]) > MAX_DECK:
            return None, "malformed"
        deck = int(rest[0])
    elif game == "MWM" and card != "VIC":
        return None, "malformed"  # count and crate cards belong to an army
    return CardCode(game, card, deck), None


def problem_text(payload: str) -> str:
    """Why a payload is not a card code, in one sentence."""
    _, problem = parse_payload(payload)
    if problem == "foreign":
        return "this QR code is not one of our cards"
    if problem == "malformed":
        return "this looks like one of our cards but its code is not valid"
    return "a card code"


@dataclass(frozen=True)
class SeenCode:
    """One QR code in a frame: its text, the card it is (or None) and why not.

    ``corners`` are the code's four corners in frame pixels, clockwise from the corner
    that is top-left in the code's own orientation.
    """

    payload: str
    card: CardCode | None
    corners: tuple[Point, Point, Point, Point]
    problem: Problem | None = None

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return sum(xs) / 4, sum(ys) / 4

    def as_json(self) -> dict[str, Any]:
        return {
            "payload": self.payload,
            "card": None if self.card is None else self.card.code,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


# -- decoding ----------------------------------------------------------------------------


def _grey(frame: np.ndarray) -> np.ndarray:
    import cv2

    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise BadInput("vision.frame", "a frame must be an 8-bit image array")
    if frame.ndim == 2:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY)
    raise BadInput("vision.frame", f"a frame must be grey, BGR or BGRA, not shape {frame.shape}")


def decode_zxing(
    grey: np.ndarray, thorough: bool = True
) -> list[tuple[str, tuple[Point, Point, Point, Point]]]:
    """(text, corners) of every QR code zxing-cpp reads in a grey image.

    ``thorough=False`` skips zxing-cpp's second passes, for camera frames of our own
    printed cards: light-on-dark (inverted) codes and the image scaled down (for codes
    too large or blurred at full size). On the bench's camera-like frames it reads the
    same codes in 60-75% of the time; on photos it misses the few inverted or huge
    codes of ``shared/data/qr`` (`tabletop bench --game vision`)."""
    import zxingcpp

    out: list[tuple[str, tuple[Point, Point, Point, Point]]] = []
    qr, micro = zxingcpp.BarcodeFormat.QRCode, zxingcpp.BarcodeFormat.MicroQRCode
    try:
        results = zxingcpp.read_barcodes(
            grey,
            formats=zxingcpp.BarcodeFormats((qr, micro)),
            try_invert=thorough,
            try_downscale=thorough,
        )
    except TypeError:  # zxing-cpp 2.x takes only the | form (deprecated in 3.x)
        results = zxingcpp.read_barcodes(
            grey, formats=qr | micro, try_invert=thorough, try_downscale=thorough
        )
    for r in results:
        p = r.position
        a, b, c, d = (
            (float(q.x), float(q.y))
            for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        )
        out.append((r.text, (a, b, c, d)))
    return out


def decode_pyzbar(grey: np.ndarray) -> list[tuple[str, tuple[Point, Point, Point, Point]]]:
    """(text, corners) of every QR code pyzbar (libzbar) reads in a grey image."""
    from pyzbar import pyzbar

    _patch_pyzbar(pyzbar)
    out: list[tuple[str, tuple[Point, Point, Point, Point]]] = []
    for r in pyzbar.decode(grey, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        text = r.data.decode("utf-8", errors="replace")
        poly = [(float(p.x), float(p.y)) for p in r.polygon]
        if len(poly) != 4:
            x, y, w, h = r.rect
            poly = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        a, b, c, d = poly
        out.append((text, (a, b, c, d)))
    return out


def _patch_pyzbar(module: Any) -> None:
    """pyzbar 0.1.9 raises ValueError on a code whose orientation libzbar reports as
    unknown (-1 as unsigned): give its enum a fallback so the code is still returned."""
    if getattr(module, "_tabletop_patched", False):
        return
    from enum import IntEnum

    class Orientation(IntEnum):
        UNKNOWN = -1
        UP = 0
        RIGHT = 1
        DOWN = 2
        LEFT = 3

        @classmethod
        def _missing_(cls, value: object) -> Orientation:
            return cls.UNKNOWN

    module.ZBarOrientation = Orientation
    module._tabletop_patched = True


def read_cards(
    frame: np.ndarray, backend: Backend = "zxing", *, thorough: bool = True
) -> list[SeenCode]:
    """Every QR code in a frame (BGR or grey), ours or not, left to right.

    Single cards seen more than once are all flagged ``problem="duplicate"``.
    ``thorough``: see :func:`decode_zxing` (the camera pipeline turns it off).
    """
    grey = _grey(frame)
    if backend == "zxing":
        found = decode_zxing(grey, thorough)
    elif backend == "pyzbar":
        found = decode_pyzbar(grey)
    elif backend == "both":
        found = decode_zxing(grey, thorough)
        for text, corners in decode_pyzbar(grey):
            if not any(t == text and _near(c, corners) for t, c in found):
                found.append((text, corners))
    else:
        raise BadInput("vision.backend", f"unknown QR backend {backend!r}: zxing, pyzbar or both")
    return flag_duplicates([_seen(text, corners) for text, corners in found])


def _seen(text: str, corners: tuple[Point, Point, Point, Point]) -> SeenCode:
    card, problem = parse_payload(text)
    return SeenCode(text, card, corners, problem)


def _near(a: Sequence[Point], b: Sequence[Point]) -> bool:
    ax, ay = sum(p[0] for p in a) / 4, sum(p[1] for p in a) / 4
    bx, by = sum(p[0] for p in b) / 4, sum(p[1] for p in b) / 4
    size = max(abs(a[0][0] - a[2][0]), abs(a[0][1] - a[2][1]), 1.0)
    return (ax - bx) ** 2 + (ay - by) ** 2 < (0.5 * size) ** 2


def flag_duplicates(codes: Sequence[SeenCode]) -> list[SeenCode]:
    """The codes left to right, with every copy of a single card flagged."""
    counts: dict[str, int] = {}
    for c in codes:
        if c.card is not None and c.card.single:
            counts[c.card.code] = counts.get(c.card.code, 0) + 1
    out = [
        SeenCode(c.payload, c.card, c.corners, "duplicate")
        if c.card is not None and counts.get(c.card.code, 0) > 1
        else c
        for c in codes
    ]
    out.sort(key=lambda c: c.centre)
    return out
