"""Colours, fonts and the two screen layouts.

The palette is Okabe and Ito's (safe for the common colour-vision deficiencies); good
and bad are blue and vermillion, and never told by colour alone: points always carry
their sign, selected things a thick outline, seats their number.

Two layouts, chosen from the window size: ``small`` for the official 7" 800x480 panel
(every touch target at least 48 px) and ``large`` for 1280x720 and bigger. The app draws
on a canvas of exactly the layout's size and scales it into any other window.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import pygame

from tabletop.assets import assets_dir

Color = tuple[int, int, int]

# Okabe-Ito
BLACK: Color = (0, 0, 0)
ORANGE: Color = (230, 159, 0)
SKY: Color = (86, 180, 233)
GREEN: Color = (0, 158, 115)
YELLOW: Color = (240, 228, 66)
BLUE: Color = (0, 114, 178)
VERMILLION: Color = (213, 94, 0)
PURPLE: Color = (204, 121, 167)


@dataclass(frozen=True)
class Palette:
    background: Color = (246, 242, 232)  # paper
    panel: Color = (255, 255, 255)
    ink: Color = (25, 25, 30)
    muted: Color = (95, 95, 105)
    line: Color = (60, 60, 70)
    operand: Color = (255, 255, 255)
    operator: Color = (214, 214, 214)
    prefilled: Color = (175, 175, 180)
    coin: Color = YELLOW
    coin_spent: Color = (120, 120, 120)
    button: Color = (0, 90, 150)
    button_text: Color = (255, 255, 255)
    button_off: Color = (200, 200, 205)
    button_off_text: Color = (110, 110, 115)
    quiet: Color = (232, 228, 218)
    selected: Color = ORANGE
    good: Color = BLUE
    bad: Color = VERMILLION
    hint: Color = GREEN
    star: Color = YELLOW
    shade: tuple[int, int, int, int] = (20, 20, 30, 150)


PALETTE = Palette()
# Seat colours: eight Okabe-Ito hues, always shown with the seat's number.
SEAT_COLOURS: tuple[Color, ...] = (BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION, YELLOW, BLACK)


def seat_text_colour(seat: int) -> Color:
    return (255, 255, 255) if seat in (0, 2, 5, 7) else (0, 0, 0)


@dataclass(frozen=True)
class Metrics:
    """One layout: its canvas size, the scale of its base units, and its text sizes."""

    name: str
    size: tuple[int, int]
    scale: float
    touch: int  # smallest touch target, px
    text: int  # body text
    small: int  # captions
    big: int  # values in cells, buttons
    title: int

    def u(self, value: float) -> int:
        """A base-unit length (designed at 800x480) in this layout's pixels."""
        return round(value * self.scale)

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]


SMALL = Metrics("small", (800, 480), 1.0, 48, 22, 18, 30, 34)
LARGE = Metrics("large", (1280, 720), 1.5, 64, 32, 26, 44, 50)


def metrics_for(window: tuple[int, int]) -> Metrics:
    """``large`` when the window holds 1280x720, otherwise ``small`` (800x480)."""
    w, h = window
    return LARGE if w >= LARGE.size[0] and h >= LARGE.size[1] else SMALL


class Fonts:
    """The bundled DejaVu fonts by size, and a cache of rendered text."""

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        return _font(size, bold)

    def render(self, text: str, size: int, colour: Color, bold: bool = False) -> pygame.Surface:
        return _rendered(text, size, bold, colour)

    def width(self, text: str, size: int, bold: bool = False) -> int:
        return _font(size, bold).size(text)[0]


@cache
def _font(size: int, bold: bool) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return pygame.font.Font(str(assets_dir() / "fonts" / name), size)


@lru_cache(maxsize=512)
def _rendered(text: str, size: int, bold: bool, colour: Color) -> pygame.Surface:
    """Text drawn once, kept for the frames after (a screen redraws the same words)."""
    return _font(size, bold).render(text, True, colour)


__all__ = [
    "LARGE",
    "PALETTE",
    "SEAT_COLOURS",
    "SMALL",
    "Fonts",
    "Metrics",
    "Palette",
    "metrics_for",
    "seat_text_colour",
]
