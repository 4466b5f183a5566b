"""Math Attack!'s pictures: a card face, and a seat's number line of cards with the
running total under each card (RULINGS ATK-1, ATK-2). No text below 16 px at 800x480:
a caption that does not fit its card at that size is left off (the card's symbol, as
printed, stays), and a name too long for its room is cut with "\u2026"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tabletop.games.math_attack import cancelled_positions, colour, running_totals
from tabletop.ui.games.math_attack.play import Ghost, face, num
from tabletop.ui.theme import GREEN, Color, Metrics
from tabletop.ui.widgets import Painter

# Card inks: black, red, green as printed (ATK-1); the sign is always shown too.
INK = {"black": (25, 25, 30), "red": (200, 30, 45), "green": GREEN}


def draw_card(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    card: str | None,
    *,
    crossed: bool = False,
    ghost: bool = False,
    selected: bool = False,
    text: str = "",
) -> None:
    """One card face (``card`` None: ``text`` on a blank card, e.g. "?")."""
    m, p = painter.m, painter.p
    radius = max(4, rect.width // 8)
    ink = INK[colour(card)] if card is not None else p.ink
    painter.box(surface, rect, (255, 255, 255), ink, max(2, rect.width // 18), radius)
    for on, shade, width in ((ghost, p.bad, 4), (selected, p.selected, 5)):
        if on:
            pygame.draw.rect(surface, shade, rect.inflate(8, 8), m.u(width), radius + 2)
    big, caption = face(card) if card is not None else (text, "")
    inner = rect.width - 4
    small = painter.least
    if caption and painter.fonts.width(caption, small) > inner:
        caption = caption.strip("|")  # "n\u00f72" for "|n\u00f72|" on a narrow card
    if caption and painter.fonts.width(caption, small) <= inner:
        size = max(small, min(rect.height // 5, painter.fit_size(caption, rect.height // 5, inner)))
        bottom = (rect.centerx, rect.bottom - max(3, rect.height // 14))
        painter.text(surface, caption, bottom, size, ink, anchor="midbottom")
    else:
        caption = ""
    size = max(small, int(min(rect.height * 0.42, rect.width * 0.55)))
    centre = (rect.centerx, rect.centery - (rect.height // 9 if caption else 0))
    painter.text(surface, big, centre, size, ink, bold=True, anchor="center", max_width=inner)
    if crossed:
        painter.cross(surface, rect.inflate(-rect.width // 5, -rect.height // 5), p.muted, 3)


@dataclass(frozen=True)
class LineGeometry:
    """Where the cards of one number line go inside its panel."""

    slots: tuple[pygame.Rect, ...]
    first: int  # index of the first card shown (earlier cards are summed up in a stub)
    stub: pygame.Rect | None


def line_geometry(m: Metrics, area: pygame.Rect, count: int) -> LineGeometry:
    """Slots for ``count`` cards (plus one free slot) left to right: cards shrink to fit,
    and when even the smallest do not fit, the earliest are folded into one stub."""
    gap, h = m.u(6), area.height
    w = min(m.u(58), int(h * 0.74))
    slots = count + 1
    if slots * (w + gap) > area.width:
        w = max(m.u(46), (area.width + gap) // slots - gap)
    fits = max(2, (area.width + gap) // (w + gap))
    first, stub, x = 0, None, area.left
    if slots > fits:
        first = count - (fits - 2)  # one slot for the stub, one free slot
        stub = pygame.Rect(x, area.top, w, h)
        x += w + gap
    rects = [pygame.Rect(x + i * (w + gap), area.top, w, h) for i in range(count + 1 - first)]
    return LineGeometry(tuple(rects), first, stub)


LEFT = 176  # base units: the panel's left column (who, the total)


def card_area(m: Metrics, panel: pygame.Rect) -> pygame.Rect:
    """The part of a line's panel that holds its cards (room below for the totals)."""
    left = panel.left + m.u(LEFT + 6)
    top = panel.top + m.u(8)
    return pygame.Rect(left, top, panel.right - m.u(8) - left, panel.height - m.u(36))


def draw_number_line(
    painter: Painter,
    surface: pygame.Surface,
    panel: pygame.Rect,
    *,
    seat: int,
    name: str,
    cards: Sequence[str],
    note: str = "",
    blocked: bool = False,
    ghost: Ghost | None = None,
    add_slot: bool = False,
    trouble: bool = False,
) -> None:
    """A seat's number line: who, the total, every card with the total after it."""
    m, p = painter.m, painter.p
    small = painter.least

    def under(slot: pygame.Rect, text: str, shade: Color, bold: bool = True) -> None:
        """A running total (or a word) under a card's slot."""
        at = (slot.centerx, slot.bottom + m.u(2))
        painter.text(surface, text, at, small, shade, bold=bold, anchor="midtop")

    border = p.bad if trouble else p.line
    painter.box(surface, panel, p.panel, border, m.u(4) if trouble else 2, m.u(10))
    chip = pygame.Rect(panel.left + m.u(8), panel.top + m.u(8), m.u(30), m.u(30))
    painter.seat_chip(surface, chip, seat)
    room = panel.left + m.u(LEFT) - chip.right - m.u(8)
    at = (chip.right + m.u(6), chip.centery)
    painter.line(surface, name, at, m.text, room, bold=True, anchor="midleft")
    totals = running_totals(cards)
    total = num(totals[-1] if totals else 0)
    at = (panel.left + m.u(10), panel.top + m.u(66))
    painter.text(surface, f"= {total}", at, m.big + 4, bold=True, anchor="midleft", max_width=room)
    if note:
        at = (panel.left + m.u(10), panel.bottom - m.u(6))
        painter.line(surface, note, at, small, m.u(LEFT - 14), p.muted, anchor="bottomleft")
    area = card_area(m, panel)
    geo = line_geometry(m, area, len(cards))
    cancelled = set(cancelled_positions(cards))
    if geo.stub is not None:
        stub = geo.stub
        painter.box(surface, stub, p.quiet, p.line, 2, m.u(6))
        at = (stub.centerx, stub.top + stub.height // 3)
        painter.text(surface, f"+{geo.first}", at, m.small, p.muted, bold=True, anchor="center")
        painter.text(surface, "cards", stub.center, small, p.muted, anchor="midtop")
        under(stub, num(totals[geo.first - 1]), p.ink)
    for slot, i in zip(geo.slots, range(geo.first, len(cards))):
        draw_card(painter, surface, slot, cards[i], crossed=i in cancelled)
        under(slot, num(totals[i]), p.muted if i in cancelled else p.ink)
    free = geo.slots[-1]
    if ghost is not None:
        text = "?" if ghost.card is None else ""
        draw_card(painter, surface, free, ghost.card, ghost=True, text=text)
        under(free, "tap", p.bad, bold=False)
    elif add_slot and not blocked:
        painter.box(surface, free, None, p.muted, 2, m.u(6))
        painter.text(surface, "+", free.center, m.big, p.muted, bold=True, anchor="center")
    if blocked:
        veil_rect = area.inflate(m.u(8), m.u(8))
        veil = pygame.Surface(veil_rect.size, pygame.SRCALPHA)
        veil.fill((120, 120, 130, 90))
        surface.blit(veil, veil_rect.topleft)
        words = "\u2205 Blocked: no card here this turn"
        at = (area.right - m.u(4), panel.top + m.u(6))
        painter.line(surface, words, at, m.small, area.width, p.bad, bold=True, anchor="topright")


__all__ = [
    "INK",
    "LineGeometry",
    "card_area",
    "draw_card",
    "draw_number_line",
    "line_geometry",
]
