"""M.E.C.S. cards on screen: card faces drawn with the painter, and the card pages the
printed QR codes promise (a tip, the history, a fun fact, the name in five languages),
from ``tabletop/assets/mecs/cards.toml`` so they work offline.

Touch targets on a card page: ``page.tip``, ``page.history``, ``page.fun``,
``page.names``, ``close``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pygame

from tabletop.assets import load_toml
from tabletop.games.mecs import OBJECTIVE_CODES, objective
from tabletop.games.mecs_equation import ADVANCED, DIGITS
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mecs.play import LABEL
from tabletop.ui.input import InputEvent
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import route_to_press
from tabletop.ui.theme import Color, Metrics
from tabletop.ui.widgets import Button, Painter, Print

CARDS_FILE = "mecs/cards.toml"
LANGUAGES = (("en", "English"), ("es", "Español"), ("fr", "Français"), ("de", "Deutsch"))
SECTIONS = (
    ("page.tip", "Tip"),
    ("page.history", "History"),
    ("page.fun", "Fun fact"),
    ("page.names", "Names"),
)

# The rule book's card colours: red numbers, blue simple symbols, green advanced symbols,
# yellow objectives (darkened a little so white text stays readable).
RED: Color = (196, 40, 40)
BLUE: Color = (30, 90, 180)
GREEN: Color = (20, 130, 70)
GOLD: Color = (235, 190, 30)


def colour_of(code: str) -> Color:
    kinds = ((DIGITS, RED), (ADVANCED, GREEN), (OBJECTIVE_CODES, GOLD))
    return next((colour for codes, colour in kinds if code in codes), BLUE)


def draw_card(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    code: str,
    *,
    selected: bool = False,
    faded: bool = False,
) -> None:
    """A card face: the card's colour, its value large in white."""
    fill = (150, 150, 155) if code == "?" else colour_of(code)
    if faded:  # two thirds of the way to a light grey
        r, g, b = fill
        fill = ((r + 2 * 235) // 3, (g + 2 * 235) // 3, (b + 2 * 235) // 3)
    radius = max(3, rect.width // 7)
    text = code[3:] if code in OBJECTIVE_CODES else LABEL.get(code, code)
    size = max(10, min(rect.height * 6 // 10, rect.width * 8 // (5 * max(1, len(text)))))
    ink = (20, 20, 20) if code in OBJECTIVE_CODES else (255, 255, 255)
    ring = (painter.p.selected, 4) if selected else None
    painter.card(surface, rect, (), ink, fill=fill, edge=None, radius=radius, ring=ring)
    inner = rect.inflate(-4, -4)  # a thin white line inside the edge, as printed
    prints = [Print(text, size, inner.height // 2)]
    painter.card(
        surface, inner, prints, ink, fill=None, edge=(255, 255, 255), width=1, radius=radius
    )


def button_row(
    specs: Sequence[tuple[str, str]],
    left: int,
    top: int,
    cell: tuple[int, int],
    gap: int,
    **style: Any,
) -> list[Button]:
    """Buttons ``(name, label)`` left to right from ``left``, each ``cell`` (width,
    height) in size, ``gap`` apart, all in ``style`` (the :class:`Button` fields)."""
    w, h = cell
    return [
        Button(name, pygame.Rect(left + i * (w + gap), top, w, h), label, **style)
        for i, (name, label) in enumerate(specs)
    ]


# -- the card pages ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardPage:
    """One card's page: its name, a game tip, its history, a fun fact, and its name in
    English, Spanish, French, German and Chinese (with pinyin)."""

    code: str
    name: str
    tip: str
    history: str
    fun_fact: str
    names: dict[str, str]

    def text(self, section: str) -> str:
        """A section's words (the names are drawn, not written out)."""
        return {"tip": self.tip, "history": self.history, "fun": self.fun_fact}.get(section, "")


PAGE_FIELDS = ("name", "tip", "history", "fun_fact")
NAME_FIELDS = ("en", "es", "fr", "de", "zh", "zh_pinyin")


def _filled(table: Any, fields: Sequence[str]) -> bool:
    return isinstance(table, dict) and all(
        isinstance(table.get(f), str) and table[f].strip() for f in fields
    )


@cache
def card_pages(relative: str = CARDS_FILE) -> dict[str, CardPage]:
    """Every card page in the data file, by card code (``BadInput`` if the file is
    missing or not TOML; a page with a missing field is left out)."""
    return {
        code: CardPage(
            code=code,
            names={f: names[f] for f in NAME_FIELDS},
            **{f: entry[f] for f in PAGE_FIELDS},
        )
        for code, entry in load_toml(relative).get("cards", {}).items()
        if _filled(entry, PAGE_FIELDS) and _filled(names := entry.get("names"), NAME_FIELDS)
    }


CJK_FONTS = (
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)


@cache
def _cjk_font(size: int) -> pygame.font.Font | None:
    """The first font on this system that draws Chinese characters, or None (then the
    page shows the pinyin only)."""
    path = next((path for path in CJK_FONTS if Path(path).exists()), None)
    try:
        return None if path is None else pygame.font.Font(path, size)
    except (OSError, pygame.error):
        return None


class CardPageScene(Scene):
    """A card's page, one section at a time in big text; opened by tapping a card or by
    holding it up alone to the camera. An objective card's page says what it asks."""

    def __init__(self, ctx: Context, code: str) -> None:
        super().__init__(ctx)
        self.code, self.section, self.page = code, "tip", card_pages().get(code)

    def layout(self, metrics: Metrics) -> None:
        m, (W, H), h = metrics, metrics.size, metrics.u(56)
        y = H - m.u(12) - h
        self.card_rect = pygame.Rect(m.u(20), m.u(20), m.u(150), m.u(210))
        sections = [] if self.code in OBJECTIVE_CODES else SECTIONS
        style = {"kind": "toggle", "enabled": self.page is not None, "size": m.small + 2}
        self.buttons = [
            *button_row(sections, m.u(16), y, (m.u(128), h), m.u(8), **style),
            Button("close", pygame.Rect(W - m.u(16) - m.u(150), y, m.u(150), h), "Close"),
        ]
        for b in self.buttons:
            b.selected = b.name == f"page.{self.section}"
        left = self.card_rect.right + m.u(24)
        self.body = pygame.Rect(left, m.u(24), W - left - m.u(24), y - m.u(40))

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="close")

    def press(self, name: str) -> None:
        if name == "close":
            self.stack.pop(None)
        elif name.startswith("page."):
            self.section = name[5:]
            self.layout(self.m)

    def words(self) -> tuple[str, str, str]:
        """The page's title, the section's heading and its text."""
        if self.code in OBJECTIVE_CODES:
            card = objective(int(self.code[3:]))
            text = child_message("mecs.page.objective", goal=card.text)
            return f"Objective card {card.number}", "", text
        if self.page is None:
            return "", "", child_message("mecs.page.none")
        heading = "" if self.section == "names" else dict(SECTIONS)[f"page.{self.section}"]
        return self.page.name.capitalize(), heading, self.page.text(self.section)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        draw_card(painter, surface, self.card_rect, self.code)
        title, heading, text = self.words()
        x, y = self.body.topleft
        if title:
            painter.text(surface, title, (x, y), m.title + m.u(6), bold=True)
            y += m.title + m.u(20)
        if heading:
            painter.text(surface, heading, (x, y), m.text, p.muted, bold=True)
            y += m.text + m.u(10)
        rect = pygame.Rect(x, y, self.body.width, self.body.bottom - y)
        if self.page is not None and self.section == "names":
            self._draw_names(surface, self.page, rect)
        else:
            painter.paragraph(surface, text, rect, m.big - m.u(4))
        painter.buttons(surface, self.buttons)

    def _draw_names(self, surface: pygame.Surface, page: CardPage, rect: pygame.Rect) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        step = rect.height // 5
        size = min(m.big, step - m.u(8))
        x, width = rect.left + m.u(150), rect.width - m.u(150)  # the names' column
        for i, (key, language) in enumerate(LANGUAGES):
            y = rect.top + i * step
            painter.text(surface, language, (rect.left, y), m.small, p.muted)
            painter.text(
                surface, page.names[key], (x, y - m.u(4)), size, bold=True, max_width=width
            )
        y = rect.top + 4 * step
        label_font = _cjk_font(m.small)
        if label_font is not None:
            surface.blit(label_font.render("中文", True, p.muted), (rect.left, y))
        else:
            painter.text(surface, "Chinese", (rect.left, y), m.small, p.muted)
        font = _cjk_font(size)
        if font is not None:
            image = font.render(page.names["zh"], True, p.ink)
            surface.blit(image, (x, y - m.u(4)))
            x += image.get_width() + m.u(16)
        painter.text(surface, page.names["zh_pinyin"], (x, y - m.u(2)), size - m.u(4), p.ink)


__all__ = ["CardPage", "CardPageScene", "button_row", "card_pages", "colour_of", "draw_card"]
