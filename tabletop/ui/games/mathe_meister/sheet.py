"""The Mathe-Meister tracking sheet, drawn like the paper one.

White operand boxes, grey operator boxes (the eight printed operators darker), the nine
coins, and beside every row and under every column the line's sum, its points with
their sign, and its Bonus Star. :class:`SheetGeometry` says where everything is (and
which box a tap hit); :func:`draw_sheet` paints a :class:`SheetLook` and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pygame

from tabletop.games.mathe_meister import (
    ALL_CELLS,
    COIN,
    EMPTY,
    LINES,
    SIZE,
    MatheMeisterSettings,
    ScoreCard,
    Sheet,
    cell_kind,
)
from tabletop.ui.games.mathe_meister.play import Cell, glyph
from tabletop.ui.widgets import Painter


@dataclass(frozen=True)
class SheetGeometry:
    """Rectangles of the grid, the line tails (sum and points) and the Bonus Stars."""

    origin: tuple[int, int]
    cell: int
    gap: int
    tail: int  # width of a row's sum box
    star: int  # size of a star button
    stacked: bool = False  # a column's star under its sum box, not beside it

    def cell_rect(self, cell: Cell) -> pygame.Rect:
        r, c = cell
        (x0, y0), pitch = self.origin, self.cell + self.gap
        return pygame.Rect(x0 + c * pitch, y0 + r * pitch, self.cell, self.cell)

    def tail_rect(self, line: str) -> pygame.Rect:
        i = int(line[1]) - 1
        if line[0] == "R":
            row = self.cell_rect((2 * i, SIZE - 1))
            return pygame.Rect(row.right + self.gap + 2, row.top, self.tail, self.cell)
        col = self.cell_rect((SIZE - 1, 2 * i))
        return pygame.Rect(col.left, col.bottom + self.gap + 2, self.cell, self.cell)

    def star_rect(self, line: str) -> pygame.Rect:
        tail = self.tail_rect(line)
        if line[0] == "R":
            return pygame.Rect(tail.right + 2, tail.centery - self.star // 2, self.star, self.star)
        if self.stacked:
            top = tail.bottom + self.gap
            return pygame.Rect(tail.centerx - self.star // 2, top, self.star, self.star)
        return pygame.Rect(tail.right + self.gap, tail.top, self.star, self.star)

    @property
    def bounds(self) -> pygame.Rect:
        rect = self.cell_rect((0, 0)).union(self.cell_rect((SIZE - 1, SIZE - 1)))  # the grid
        for line in LINES:
            rect = rect.union(self.star_rect(line)).union(self.tail_rect(line))
        return rect


@dataclass(frozen=True)
class SheetLook:
    """Everything the sheet shows, worked out before drawing."""

    sheet: Sheet
    settings: MatheMeisterSettings
    card: ScoreCard
    selected: frozenset[Cell] = frozenset()
    ghosts: Mapping[Cell, str] = field(default_factory=dict)  # hint: value to write
    claimable: frozenset[str] = frozenset()  # complete lines whose star can be claimed
    fresh: frozenset[Cell] = frozenset()  # written this round


def draw_sheet(
    surface: pygame.Surface, painter: Painter, geo: SheetGeometry, look: SheetLook
) -> None:
    p, sheet, prefilled = painter.p, look.sheet, look.settings.layout.prefilled_map
    value_size = max(16, int(geo.cell * 0.62))
    border = max(2, geo.cell // 24 + 1)  # the boxes' lines
    rounded = max(3, geo.cell // 10)
    for cell in ALL_CELLS:
        rect, kind, ch = geo.cell_rect(cell), cell_kind(cell), sheet.at(cell)
        if kind == "coin":
            radius = int(geo.cell * 0.36)
            if ch == COIN:
                painter.coin(surface, rect.center, radius, border)
            else:  # spent: filled in, as on paper
                pygame.draw.circle(surface, p.coin_spent, rect.center, radius)
                cross = rect.inflate(-geo.cell // 2, -geo.cell // 2)
                painter.cross(surface, cross, (255, 255, 255), border)
            continue
        fill = p.prefilled if cell in prefilled else p.operand if kind == "operand" else p.operator
        painter.box(surface, rect, fill, p.line, border, radius=rounded)
        if ch == EMPTY and cell in look.ghosts:  # the hint's plan, in green
            ring = rect.inflate(-4, -4)
            pygame.draw.rect(surface, p.hint, ring, border + 1, border_radius=rounded)
        if ch != EMPTY or cell in look.ghosts:
            ink = p.ink if ch != EMPTY else p.hint
            written = glyph(ch if ch != EMPTY else look.ghosts[cell])
            painter.text(surface, written, rect.center, value_size, ink, bold=True, anchor="center")
        if ch != EMPTY and cell in look.fresh:  # written this round
            y = rect.bottom - 6
            pygame.draw.line(surface, p.good, (rect.left + 6, y), (rect.right - 6, y), border)
        if cell in look.selected:
            ring = rect.inflate(6, 6)
            pygame.draw.rect(surface, p.selected, ring, border + 2, max(3, geo.cell // 8))
    for line in LINES:
        _draw_tail(surface, painter, geo, look, line)


def _draw_tail(
    surface: pygame.Surface, painter: Painter, geo: SheetGeometry, look: SheetLook, line: str
) -> None:
    p, ls, tail = painter.p, look.card.line(line), geo.tail_rect(line)
    size = max(16, int(geo.cell * 0.40))  # 16 px at the least: children read it
    # a stacked column's sums have nothing beside them but air
    room = 2 * geo.cell if geo.stacked and line[0] == "C" else tail.width - 2
    if ls.total is not None:
        total = f"={ls.total}"
        if painter.fonts.width(total, 16, True) > room:
            total = str(ls.total)  # a long sum drops its "=" before it gets smaller
        points = f"{ls.points:+d}" if ls.points else "0"
        if not ls.valid and ls.points >= 0:
            points += " \u2717"  # a line that failed its mode: no plus points
        colour = p.good if ls.points > 0 else p.bad if ls.points < 0 else p.muted
        # a quarter and three down the tail, or apart as high as digits ("=186" on "+186")
        quarter, high = tail.height // 4, painter.fonts.font(size, True).get_ascent()
        push = max(0, high - 2 * quarter) // 2
        downs = ((total, p.ink, quarter - push), (points, colour, 3 * tail.height // 4 + push))
        for text, ink, y in downs:
            at = (tail.centerx, tail.top + y)
            width = max(room, painter.fonts.width(text, 16, True))
            painter.text(surface, text, at, size, ink, bold=True, anchor="center", max_width=width)
    else:
        painter.text(surface, "=", tail.center, size, p.muted, anchor="center")
    star = geo.star_rect(line)
    radius = star.width // 2 - 1
    if line in look.sheet.stars:
        painter.star(surface, star.center, radius, p.star, p.ink, max(2, geo.cell // 20))
    elif line in look.claimable:
        painter.star(
            surface, star.center, radius, (255, 255, 255), p.selected, max(3, geo.cell // 14)
        )
    else:
        painter.star(surface, star.center, radius, None, p.muted, 2)
    label = str(look.settings.layout.star_value(line))
    size = max(16, int(radius * (0.78 if len(label) == 1 else 0.66)))
    at = (star.centerx, star.centery + radius // 10)
    painter.text(surface, label, at, size, p.ink, bold=True, anchor="center")


__all__ = ["SheetGeometry", "SheetLook", "draw_sheet", "glyph"]
