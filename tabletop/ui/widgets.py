"""Buttons and drawing helpers shared by the scenes (drawing only: no state changes but
the painter's note of when each paragraph in pages was first drawn)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import pygame

from tabletop.ui.theme import (
    PALETTE,
    SEAT_COLOURS,
    Color,
    Fonts,
    Metrics,
    Palette,
    seat_text_colour,
)

PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


class Print(NamedTuple):
    """One text on a card face (:meth:`Painter.card`): centred across the card, its
    ``anchor`` ("center", or "midbottom" for a word at the foot) ``y`` pixels below the
    card's top, bold unless told; ``colour`` None: the card's ink."""

    text: str
    size: int
    y: int
    bold: bool = True
    anchor: str = "center"
    colour: Color | None = None


@dataclass
class Button:
    """A touch target: ``name`` is what a scene acts on (and what tests tap)."""

    name: str
    rect: pygame.Rect
    label: str = ""
    enabled: bool = True
    kind: str = "primary"  # primary | quiet | toggle | choice
    selected: bool = False
    caption: str = ""
    size: int | None = None


T = TypeVar("T")

PAGE_SECONDS = 6.0  # how long a paragraph too long for its box shows each page


class Paged:
    """A list shown a page at a time (the screens and grids that page one mix it in):
    ``page`` (from 0) of ``pages``, ``per_page`` items each, as :meth:`paged` last cut
    the list (or pages of items of different sizes: :meth:`fitting`, :meth:`page_of`);
    :meth:`turn_page` turns it (round from the last page to the first)."""

    page, pages, per_page = 0, 1, 1

    def paged(self, items: Sequence[T], per_page: int) -> Sequence[T]:
        """This page's share of ``items`` (the whole list), ``per_page`` a page; a page
        past the end (the list got shorter) becomes the last."""
        self.per_page = n = max(1, per_page)
        return self.page_of([items[i : i + n] for i in range(0, len(items), n)])

    def page_of(self, pages: Sequence[Sequence[T]]) -> Sequence[T]:
        """This page of the list cut into ``pages``; a page past the end becomes the last."""
        self.pages = max(1, len(pages))
        self.page = min(self.page, self.pages - 1)
        return pages[self.page] if pages else []

    @staticmethod
    def fitting(items: Sequence[T], sizes: Sequence[int], room: int) -> list[list[T]]:
        """``items`` cut into pages of ``room`` where item i takes ``sizes[i]``: a new page
        where the next one would not fit (one bigger than a page has a page of its own)."""
        pages: list[list[T]] = [[]]
        used = 0
        for item, size in zip(items, sizes, strict=True):
            if pages[-1] and used + size > room:
                pages.append([])
                used = 0
            pages[-1].append(item)
            used += size
        return pages

    def turn_page(self, step: int) -> None:
        self.page = (self.page + step) % self.pages


def grid(
    area: pygame.Rect,
    count: int,
    columns: int,
    gap: int,
    h: int | None = None,
    rows: int = 0,
    down: int | None = None,
) -> list[pygame.Rect]:
    """``count`` cells of one size, ``gap`` apart (``down`` apart from row to row, when
    given), from ``area``'s top left: ``columns`` share its width; each is ``h`` high
    (``area``'s height when None). They fill row by row, or column by column when
    ``rows`` says how many a column holds."""
    w = (area.width - (columns - 1) * gap) // columns
    h = area.height if h is None else h
    down = gap if down is None else down
    cells = []
    for i in range(count):
        c, r = divmod(i, rows) if rows else (i % columns, i // columns)
        cells.append(pygame.Rect(area.left + c * (w + gap), area.top + r * (h + down), w, h))
    return cells


def hit(buttons: Iterable[Button], pos: tuple[int, int]) -> Button | None:
    """The button under ``pos`` (enabled or not: a scene may explain why it is off)."""
    return next((button for button in buttons if button.rect.collidepoint(pos)), None)


class Painter:
    """Text, buttons, dice and stars in the app's palette and fonts.

    A paragraph too long for its box even at 16 px shows a page at a time, in every scene
    and dialog alike: the first when it appears, then the next every ``PAGE_SECONDS``,
    round again. The app tells the painter when it draws a frame (:meth:`frame`) and asks
    whether a page is due (:meth:`turned`); outside the app every paragraph shows its
    first page."""

    def __init__(self, metrics: Metrics, fonts: Fonts, palette: Palette = PALETTE) -> None:
        self.m = metrics
        self.fonts = fonts
        self.p = palette
        self.now = 0.0  # the app's clock when this frame is drawn
        # paragraphs in pages, and since when they show: this frame's, and the last one's
        self.paging: dict[str, float] = {}
        self.paged: dict[str, float] = {}

    # -- pages of long paragraphs --------------------------------------------------------

    def frame(self, now: float) -> None:
        """A frame is drawn at ``now``: a paragraph in pages that was not in the last one
        starts again at its first page."""
        self.now, self.paged, self.paging = now, self.paging, {}

    def page_now(self, text: str) -> int:
        """The page of ``text`` (drawn in pages) that shows in this frame."""
        since = self.paging.setdefault(text, self.paged.get(text, self.now))
        return int((self.now - since) // PAGE_SECONDS)

    def turned(self, now: float) -> bool:
        """True (draw again) when a paragraph of the last frame has a new page at ``now``."""
        turns = [(now - since) // PAGE_SECONDS for since in self.paging.values()]
        return turns != [(self.now - since) // PAGE_SECONDS for since in self.paging.values()]

    # -- text ------------------------------------------------------------------------

    def fit_size(self, text: str, size: int, width: int, bold: bool = False) -> int:
        """The largest size up to ``size`` (down to 60 %) at which ``text`` fits ``width``."""
        floor = max(10, int(size * 0.6))
        while size > floor and self.fonts.width(text, size, bold) > width:
            size -= 1
        return size

    def readable_size(self, text: str, size: int, width: int, bold: bool = False) -> int:
        """:meth:`fit_size`, never below the smallest a child reads (:attr:`least`; or
        ``size``, where that is smaller): what a line shrinks to before it is cut."""
        return max(min(size, self.least), self.fit_size(text, size, width, bold))

    def ellipsis(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """``text``, cut short with "…" if it is wider than ``width`` at ``size``. A name's
        tag in brackets, what tells a namesake apart ("Mia (4b)"), is kept: the name is cut
        first, never below its first three letters ("Zoé…"), then the tag loses its start,
        not its end, where namesakes' groups and ids differ ("Zoé… (…ss 4b)"). A sentence
        ending in brackets ("…do? (no VICTORY! card: …)") is cut at its end, as any text."""
        wide = self.fonts.width
        if wide(text, size, bold) <= width:
            return text
        head, sep, tag = text.rpartition(" (")
        if sep and tag.endswith(")") and not any(mark in text for mark in ":?!"):
            room = max(width - wide(sep + tag, size, bold), wide(head[:3] + "…", size, bold))
            kept = (name := self.ellipsis(head, size, room, bold)) + sep + tag
            while wide(kept, size, bold) > width and len(tag) > 2:
                tag = tag[1:]
                kept = f"{name}{sep}…{tag}"
            if wide(kept, size, bold) <= width:
                return kept
        while text and wide(text + "…", size, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def first_fit(self, words: Sequence[str], size: int, width: int, bold: bool = False) -> str:
        """The first of ``words`` (longest first) that fits ``width``, else the last one."""
        return next((w for w in words if self.fonts.width(w, size, bold) <= width), words[-1])

    @property
    def least(self) -> int:
        """The smallest text a child reads (16 px at 800x480, issue 21)."""
        return self.m.small - 2

    def line(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int,
        width: int,
        colour: Color | None = None,
        *,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        """One line of text no wider than ``width``: at the largest size up to ``size``
        that fits, never below the smallest a child reads (:attr:`least`), then cut with
        "…" if it still does not (:meth:`text`'s ``max_width``)."""
        return self.text(
            surface, text, pos, size, colour, bold=bold, anchor=anchor, max_width=width
        )

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int | None = None,
        colour: Color | None = None,
        *,
        bold: bool = False,
        anchor: str = "topleft",
        max_width: int | None = None,
    ) -> pygame.Rect:
        size = size or self.m.text
        if max_width is not None:  # as :meth:`line` says
            size = self.readable_size(text, size, max_width, bold)
            text = self.ellipsis(text, size, max_width, bold)
        image = self.fonts.render(text, size, colour or self.p.ink, bold)
        rect = image.get_rect(**{anchor: pos})
        surface.blit(image, rect)
        return rect

    def label(
        self,
        surface: pygame.Surface,
        text: str,
        rect: pygame.Rect,
        size: int,
        colour: Color,
        margin: int | None = None,
    ) -> pygame.Rect:
        """``text`` bold, centred on ``rect``; fitted to its width less ``margin`` when
        given, on two lines (:meth:`fit_lines`) before it would go under :attr:`least`."""
        if margin is not None:
            room = rect.height - self.m.u(8)
            words, fitted = self.fit_lines(text, size, rect.width - margin, room, bold=True)
            if len(words) > 1:
                return self.lines(surface, [(word, fitted, True) for word in words], rect, colour)
        width = None if margin is None else rect.width - margin
        return self.text(
            surface, text, rect.center, size, colour, bold=True, anchor="center", max_width=width
        )

    def wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """``text`` in lines no wider than ``width``, broken between words, and inside a
        word only where the word alone is wider (a long name typed without spaces)."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            words = [p for w in paragraph.split() for p in self._pieces(w, size, width, bold)]
            line = ""
            for word in words:
                trial = f"{line} {word}".strip()
                if line and self.fonts.width(trial, size, bold) > width:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines.append(line)
        return lines

    def _pieces(self, word: str, size: int, width: int, bold: bool) -> list[str]:
        pieces = []
        while len(word) > 1 and self.fonts.width(word, size, bold) > width:
            n = len(word) - 1
            while n > 1 and self.fonts.width(word[:n], size, bold) > width:
                n -= 1
            pieces.append(word[:n])
            word = word[n:]
        return [*pieces, word]

    def pages(
        self,
        text: str,
        rect: pygame.Rect,
        size: int | None = None,
        *,
        bold: bool = False,
        max_lines: int | None = None,
    ) -> tuple[int, list[list[str]]]:
        """``text`` wrapped to ``rect`` (at most ``max_lines`` lines): the size, shrunk to
        fit down to :attr:`least` (never below, nor above ``size``), and the lines in pages
        that fit; each page but the last ends with "…" (no words dropped without a sign)."""
        size = size or self.m.text
        floor = min(size, self.least)
        while True:
            lines = self.wrap(text, size, rect.width, bold)
            height = self.fonts.font(size, bold).get_linesize()
            limit = max_lines or max(1, rect.height // max(1, height))
            if len(lines) <= limit or size <= floor:
                break
            size -= 1
        if len(lines) <= limit:
            return size, [lines]
        lines = self.wrap(text, size, rect.width - self.fonts.width(" …", size, bold), bold)
        pages = [lines[i : i + limit] for i in range(0, len(lines), limit)]
        for page in pages[:-1]:
            page[-1] += " …"
        return size, pages

    def paragraph(
        self,
        surface: pygame.Surface,
        text: str,
        rect: pygame.Rect,
        size: int | None = None,
        colour: Color | None = None,
        *,
        bold: bool = False,
        align: str = "left",
        max_lines: int | None = None,
        page: int | None = None,
    ) -> int:
        """Wrapped text inside ``rect``, as :meth:`pages` fits it: its ``page`` (round
        from the last to the first; None: the page that shows now); the height it took."""
        size, pages = self.pages(text, rect, size, bold=bold, max_lines=max_lines)
        if page is None:
            page = self.page_now(text) if len(pages) > 1 else 0
        anchor, x = {
            "left": ("topleft", rect.left),
            "center": ("midtop", rect.centerx),
            "right": ("topright", rect.right),
        }[align]
        height = self.fonts.font(size, bold).get_linesize()
        y = rect.top
        for line in pages[page % len(pages)]:
            self.text(surface, line, (x, y), size, colour, bold=bold, anchor=anchor)
            y += height
        return y - rect.top

    # -- shapes ----------------------------------------------------------------------

    def box(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        fill: Color | None,
        border: Color | None = None,
        width: int = 2,
        radius: int = 6,
    ) -> None:
        if fill is not None:
            pygame.draw.rect(surface, fill, rect, border_radius=radius)
        if border is not None and width:
            pygame.draw.rect(surface, border, rect, width, border_radius=radius)

    def seat_chip(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        seat: int,
        label: str | None = None,
        size: int | None = None,
        radius: int | None = None,
    ) -> None:
        """A seat's colour with its number (or ``label``) on it, as on the seat buttons."""
        m = self.m
        self.box(
            surface, rect, SEAT_COLOURS[seat], None, radius=m.u(6) if radius is None else radius
        )
        text = str(seat + 1) if label is None else label
        self.label(surface, text, rect, size or m.text, seat_text_colour(seat))

    def seat_name(
        self,
        surface: pygame.Surface,
        chip: pygame.Rect,
        seat: int,
        name: str,
        size: int,
        room: int,
        *,
        colour: Color | None = None,
        chip_size: int | None = None,
        gap: int = 6,
        y: int | None = None,
        anchor: str = "midleft",
        tall: int = 0,
    ) -> pygame.Rect:
        """How every seat panel starts: the seat's chip at ``chip`` (its number at
        ``chip_size``) and its ``name`` bold beside it, ``gap`` base units on, level with
        the chip's middle (or at ``y``), as :meth:`line` fits it into ``room``; or, when
        it would be cut and ``tall`` (px down from there) holds two lines, on two lines
        of whole words (:meth:`fit_lines`), the second under the first."""
        self.seat_chip(surface, chip, seat, size=chip_size)
        at = (chip.right + self.m.u(gap), chip.centery if y is None else y)
        font = self.fonts.font(size, True)
        words, fitted = self.fit_lines(name, size, room, tall + font.get_descent(), bold=True)
        if len(words) == 2:  # spaced as fit_lines has them: an ascent and a gap apart
            first = self.text(surface, words[0], at, fitted, colour, bold=True, anchor=anchor)
            down = self.fonts.font(fitted, True).get_ascent() + self.m.u(3)
            second = self.text(
                surface, words[1], (first.left, first.top + down), fitted, colour, bold=True
            )
            return first.union(second)
        return self.line(surface, name, at, size, room, colour, bold=True, anchor=anchor)

    def ready_tile(
        self, surface: pygame.Surface, rect: pygame.Rect, seat: int, lit: bool, label: str = ""
    ) -> None:
        """The touch twin of a seat's arcade button, at that seat's edge: outlined in the
        seat's colour with "I'm ready!" until pressed (by button or by touch), then filled
        in that colour, lit like the seat's LED."""
        m, colour = self.m, SEAT_COLOURS[seat]
        if lit:
            self.box(surface, rect, colour, None, radius=m.u(10))
            ink = seat_text_colour(seat)
        else:
            self.box(surface, rect, self.p.panel, colour, m.u(4), m.u(10))
            ink = self.p.ink
        self.label(
            surface, label or ("Ready ✓" if lit else "I'm ready!"), rect, m.text, ink, m.u(6)
        )

    def button(self, surface: pygame.Surface, b: Button) -> None:
        p = self.p
        radius = self.m.u(8)
        toggle = b.kind in ("toggle", "choice")
        if b.selected if toggle else b.kind != "quiet":  # filled: primary, or a toggle on
            on = b.enabled or toggle
            fill, ink = (p.button, p.button_text) if on else (p.button_off, p.button_off_text)
        else:
            fill = p.panel if toggle and b.enabled else p.quiet
            ink = p.ink if b.enabled else p.button_off_text
        self.box(surface, b.rect, fill, p.line if b.kind != "primary" else None, 2, radius)
        if b.selected and not toggle:
            pygame.draw.rect(surface, p.selected, b.rect.inflate(6, 6), self.m.u(4), radius)
        if b.caption:
            self.lines(surface, self.captioned(b), b.rect, ink)
        elif b.label:
            self.label(surface, b.label, b.rect, b.size or self.m.text, ink, self.m.u(10))

    def captioned(self, b: Button) -> list[tuple[str, int, bool]]:
        """The lines (text, size, bold) of a button's words: its label on one line or two
        over its caption's (if any), each at the largest size its rectangle holds."""
        inner, tall = b.rect.width - self.m.u(10), b.rect.height - self.m.u(8)
        least = self.fonts.font(self.least).get_ascent() + self.m.u(3)  # room for a label
        notes, cap_size = self.fit_lines(b.caption, self.m.small, inner, tall - least)
        notes = notes if b.caption else []
        room = tall - len(notes) * cap_size
        below = len(notes) * (self.fonts.font(cap_size).get_ascent() + self.m.u(3))
        top = min(b.size or self.m.text, int(room * 0.9))
        words, label_size = self.fit_lines(b.label, top, inner, tall - below, bold=True)
        return [(word, label_size, True) for word in words] + [
            (note, cap_size, False) for note in notes
        ]

    def fit_lines(
        self, text: str, size: int, width: int, height: int, bold: bool = False
    ) -> tuple[list[str], int]:
        """``text`` on one line at the largest size up to ``size`` that fits ``width``, if
        that is not below :attr:`least`; else on two lines broken between words, at the
        largest size down to :attr:`least` where they fit ``width`` and ``height``; else
        on one line, shrunk (to 60 %) and cut with "…" where it still does not fit."""
        one = self.fit_size(text, size, width, bold)
        if one >= min(size, self.least):
            return [text], one
        for two in range(size, self.least - 1, -1):
            lines = self.wrap(text, two, width, bold)
            high = 2 * self.fonts.font(two, bold).get_ascent() + self.m.u(3)
            if len(lines) == 2 and " ".join(lines).split() == text.split() and high <= height:
                return lines, two
        return [text], one

    def lines(
        self,
        surface: pygame.Surface,
        lines: Sequence[tuple[str, int, bool]],
        rect: pygame.Rect,
        ink: Color,
    ) -> pygame.Rect:
        """``lines`` (text, size, bold) one under another, centred on ``rect``; each cut
        with "…" if it is wider than ``rect`` less a margin. Where they went."""
        inner, gap = rect.width - self.m.u(10), self.m.u(3)
        heights = [self.fonts.font(size, bold).get_ascent() for _, size, bold in lines]
        top = rect.centery - (sum(heights) + gap * (len(lines) - 1)) // 2
        drawn = pygame.Rect(rect.centerx, top, 0, 0)
        for (text, size, bold), height in zip(lines, heights, strict=True):
            top += height
            text = self.ellipsis(text, size, inner, bold)
            at = (rect.centerx, top)
            drawn.union_ip(self.text(surface, text, at, size, ink, bold=bold, anchor="midbottom"))
            top += gap
        return drawn

    def buttons(self, surface: pygame.Surface, buttons: Sequence[Button]) -> None:
        for b in buttons:
            self.button(surface, b)

    def die(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        value: int | None,
        *,
        fill: Color = (255, 255, 255),
        pip: Color = (20, 20, 20),
        border: Color | None = None,
    ) -> None:
        edge = max(2, rect.width // 24)
        self.box(surface, rect, fill, border or self.p.line, edge, max(4, rect.width // 7))
        if value in PIPS:
            r = max(3, rect.width // 11)
            for fx, fy in PIPS[value]:
                centre = (rect.left + round(fx * rect.width), rect.top + round(fy * rect.height))
                pygame.draw.circle(surface, pip, centre, r)
        elif value is not None:
            self.label(surface, str(value), rect, rect.height // 2, pip)

    def card(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        prints: Iterable[Print],
        ink: Color,
        *,
        fill: Color | None = (255, 255, 255),
        edge: Color | None = None,
        width: int = 2,
        radius: int | None = None,
        ring: tuple[Color, int] | None = None,
        crossed: bool = False,
    ) -> None:
        """A card face, as every game's cards, slots and tiles are drawn: ``fill`` (none:
        see-through) edged ``width`` wide in ``edge`` (none: no edge), corners rounded by
        ``radius`` (an eighth of its width); its ``prints`` in ``ink``, each shrunk to the
        card's width; ``ring`` (colour, width): an outline round it (picked, not
        accepted); ``crossed``: struck out (a cancelled card)."""
        radius = max(4, rect.width // 8) if radius is None else radius
        self.box(surface, rect, fill, edge, width, radius)
        if ring is not None:
            pygame.draw.rect(surface, ring[0], rect.inflate(8, 8), ring[1], radius + 2)
        for text, size, y, bold, anchor, colour in prints:
            at, room = (rect.centerx, rect.top + y), rect.width - 4
            self.text(
                surface, text, at, size, colour or ink, bold=bold, anchor=anchor, max_width=room
            )
        if crossed:
            self.cross(surface, rect.inflate(-rect.width // 5, -rect.height // 5), self.p.muted, 3)

    def coin(
        self, surface: pygame.Surface, centre: tuple[int, int], radius: int, rim: int = 2
    ) -> None:
        """A coin: gold, with a dark rim."""
        pygame.draw.circle(surface, self.p.coin, centre, radius)
        pygame.draw.circle(surface, self.p.line, centre, radius, rim)

    def star(
        self,
        surface: pygame.Surface,
        centre: tuple[int, int],
        radius: int,
        fill: Color | None,
        outline: Color | None = None,
        width: int = 2,
    ) -> None:
        points = []
        for i in range(10):
            r = radius if i % 2 == 0 else radius * 0.55
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((centre[0] + r * math.cos(angle), centre[1] + r * math.sin(angle)))
        if fill is not None:
            pygame.draw.polygon(surface, fill, points)
        if outline is not None:
            pygame.draw.polygon(surface, outline, points, width)

    def shade(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill(self.p.shade)
        surface.blit(veil, (0, 0))

    def cross(self, surface: pygame.Surface, rect: pygame.Rect, colour: Color, width: int) -> None:
        pygame.draw.line(surface, colour, rect.topleft, rect.bottomright, width)
        pygame.draw.line(surface, colour, rect.bottomleft, rect.topright, width)


__all__ = ["PAGE_SECONDS", "PIPS", "Button", "Paged", "Painter", "Print", "grid", "hit"]
