"""One stream of input events for the scenes: ``Tap``, ``Drag``, ``Release``,
``SeatPressed``, ``Seen``.

Touch (``FINGERDOWN``, coordinates 0..1 of the window), the mouse (with SDL's
touch-emulated duplicates dropped), seat buttons (from their queue), the keyboard
stand-in (keys 1..8; digits while a pad that types them is on top: ``typing``) and the
camera (dice read and held steady) all end up here, in canvas coordinates and stamped
with the app's monotonic clock. Scenes never see raw pygame events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pygame

from hardware.buttons import KeyboardSeats, SeatPressed


@dataclass(frozen=True)
class Pointer:
    """A finger, or the mouse's left button, at ``pos`` (canvas pixels) at time ``at``."""

    pos: tuple[int, int]
    at: float


@dataclass(frozen=True)
class Tap(Pointer):
    """It went down (from ``source``: "touch" or "mouse"); ``live``: on the screen itself
    (SDL's event, through :class:`InputRouter`), not a script's tap aimed by name."""

    source: str = "touch"
    live: bool = field(default=False, compare=False)


class Drag(Pointer):
    """It moved while down (it went down with a ``Tap``)."""


class Release(Pointer):
    """It came up."""


@dataclass(frozen=True)
class DieSeen:
    """One die the camera read: its value (None: unreadable), its box in the frame (if
    known), how sure the reader is."""

    value: int | None
    box: tuple[int, int, int, int] | None = None
    confidence: float = 1.0


@dataclass(frozen=True)
class Seen:
    """The camera's steady reading: the dice, and the pictures to show the child: one
    RGB crop per die, or the RGB frame the boxes point into."""

    dice: tuple[DieSeen, ...]
    at: float
    frame: Any = None  # numpy array (h, w, 3), RGB, or None
    crops: tuple[Any, ...] = ()  # numpy arrays (h, w, 3), RGB, one per die

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(d.value for d in self.dice)

    @property
    def readable(self) -> bool:
        """Exactly two dice, both read as 1 to 6 (any other value is no die's reading)."""
        return len(self.dice) == 2 and all(d.value in range(1, 7) for d in self.dice)


@dataclass(frozen=True)
class CardSeen:
    """One QR-coded card the camera reads steadily: its code (DESIGN.md card codes, e.g.
    ``"C17"``; ``"?"`` for a code that is not one of our cards), the seat whose zone it
    lies in (1-based; None without mats or outside every seat), the area in that zone
    (``"battle"``, ``"line"``, ``"equation"``, ``"reveal"``, ...; None if unknown) and
    its box in the frame."""

    code: str
    seat: int | None = None
    area: str | None = None
    box: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class CardsSeen:
    """The camera's steady reading of one zone's cards, left to right (a zone with no
    cards is an empty tuple: the cards were taken away)."""

    seat: int | None
    area: str | None
    cards: tuple[CardSeen, ...]
    at: float
    crops: tuple[Any, ...] = ()  # numpy arrays (h, w, 3), RGB, one per card

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.cards)

    @property
    def twice(self) -> bool:
        """A card is flagged as seen twice at once (``"!"`` + its code: a copy, a mirror):
        no reading of the zone."""
        return any(c.code.startswith("!") for c in self.cards)


@dataclass(frozen=True)
class Back:
    """Escape or the back key: leave the current screen."""

    at: float


@dataclass(frozen=True)
class Key:
    """Any other key, for typing names on a real keyboard."""

    name: str
    text: str
    at: float


@dataclass(frozen=True)
class Quit:
    """The window was closed."""


@dataclass(frozen=True)
class Resized:
    size: tuple[int, int]


InputEvent = Tap | Drag | Release | SeatPressed | Seen | CardsSeen | Back | Key | Quit | Resized


class View:
    """Where the canvas sits in the window: scaled to fit, centred (letterbox)."""

    def __init__(self, canvas: tuple[int, int], window: tuple[int, int]) -> None:
        self.window = window
        cw, ch = canvas
        ww, wh = window
        self.scale = min(ww / cw, wh / ch) if cw and ch else 1.0
        self.offset = ((ww - cw * self.scale) / 2, (wh - ch * self.scale) / 2)

    def to_canvas(self, x: float, y: float) -> tuple[int, int]:
        return int((x - self.offset[0]) / self.scale), int((y - self.offset[1]) / self.scale)


# What a finger or the left mouse button does: goes down, moves, comes up.
FINGER = {pygame.FINGERDOWN: Tap, pygame.FINGERMOTION: Drag, pygame.FINGERUP: Release}
MOUSE = {pygame.MOUSEBUTTONDOWN: Tap, pygame.MOUSEMOTION: Drag, pygame.MOUSEBUTTONUP: Release}


class InputRouter:
    """Turns pygame events into input events (on the display thread)."""

    def __init__(self, view: View, clock: Callable[[], float], seats: int = 8) -> None:
        self.view = view
        self._clock = clock
        self._pending: list[InputEvent] = []
        self.keyboard = KeyboardSeats(self._pending.append, seats=seats, clock=clock)

    def translate(
        self, events: Iterable[pygame.event.Event], typing: bool = False
    ) -> list[InputEvent]:
        out: list[InputEvent] = []
        for event in events:
            now = self._clock()
            if (kind := FINGER.get(event.type)) is not None:
                ww, wh = self.view.window
                pos = self.view.to_canvas(event.x * ww, event.y * wh)
                out.append(Tap(pos, now, "touch", live=True) if kind is Tap else kind(pos, now))
            elif (kind := MOUSE.get(event.type)) is not None:
                if getattr(event, "touch", False):
                    continue  # SDL's mouse copy of a touch
                if not (event.buttons[0] if kind is Drag else event.button == 1):
                    continue  # a wheel or the right button, or moving with no button held
                pos = self.view.to_canvas(*event.pos)
                out.append(Tap(pos, now, "mouse", live=True) if kind is Tap else kind(pos, now))
            elif event.type == pygame.KEYDOWN:
                name = pygame.key.name(event.key)
                if not typing and self.keyboard.key(name, now):
                    out.extend(self._pending)
                    self._pending.clear()
                elif event.key in (pygame.K_ESCAPE, pygame.K_AC_BACK):
                    out.append(Back(now))
                else:
                    out.append(Key(name, getattr(event, "unicode", ""), now))
            elif event.type == pygame.QUIT:
                out.append(Quit())
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                size = getattr(event, "size", None) or (event.x, event.y)
                out.append(Resized((int(size[0]), int(size[1]))))
        return out


def order_presses(events: list[InputEvent]) -> list[InputEvent]:
    """Seat presses that arrived together, in the order they happened (MM-5)."""
    presses = sorted((e for e in events if isinstance(e, SeatPressed)), key=lambda e: e.at)
    it = iter(presses)
    return [next(it) if isinstance(e, SeatPressed) else e for e in events]


__all__ = [
    "Back",
    "CardSeen",
    "CardsSeen",
    "DieSeen",
    "Drag",
    "InputEvent",
    "InputRouter",
    "Key",
    "Pointer",
    "Quit",
    "Release",
    "Resized",
    "SeatPressed",
    "Seen",
    "Tap",
    "View",
    "order_presses",
]
