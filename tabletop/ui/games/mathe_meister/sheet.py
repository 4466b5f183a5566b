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
    COIN,
    EMPTY,
    LINES,
    SIZE,
    MatheMeisterSettings,
    ScoreCard,
    Sheet,
    cell_kind,
)
from tabletop.ui.games.mathe_meister.play import glyph
from tabletop.ui.theme import Color
from tabletop.ui.widgets import Painter

Cell = tuple[int, int]


@dataclass(frozen=True)
class SheetGeometry:
    """Rectangles of the grid, the line tails (sum and points) and the Bonus Stars."""

    origin: tuple[int, int]
    cell: int
    gap: int
    tail: int  # width of a row's sum box
    star: int  # size of a star button

    @property
    def pitch(self) -> int:
        return self.cell + self.gap

    @property
    def grid(self) -> pygame.Rect:
        side = SIZE * self.cell + (SIZE - 1) * self.gap
        return pygame.Rect(self.origin, (side, side))

    def cell_rect(self, cell: Cell) -> pygame.Rect:
        r, c = cell
        x0, y0 = self.origin
        return pygame.Rect(x0 + c * self.pitch, y0 + r * self.pitch, self.cell, self.cell)

    def cell_at(self, pos: tuple[int, int]) -> Cell | None:
        for r in range(SIZE):
            for c in range(SIZE):
                if self.cell_rect((r, c)).collidepoint(pos):
                    return (r, c)
        return None

    def tail_rect(self, line: str) -> pygame.Rect:
        i = int(line[1]) - 1
        if line[0] == "R":
            row = self.cell_rect((2 * i, SIZE - 1))
            return pygame.Rect(row.right + self.gap + 2, row.top, self.tail, self.cell)
        col = self.cell_rect((SIZE - 1, 2 * i))
        return pygame.Rect(col.left, col.bottom + self.gap + 2, self.cell, self.star)

    def star_rect(self, line: str) -> pygame.Rect:
        tail = self.tail_rect(line)
        if line[0] == "R":
            return pygame.Rect(tail.right + 2, tail.centery - self.star // 2, self.star, self.star)
        return pygame.Rect(tail.right + self.gap, tail.top, self.star, self.star)

    def line_at(self, pos: tuple[int, int]) -> str | None:
        """The line whose Bonus Star was tapped."""
        for line in LINES:
            if self.star_rect(line).collidepoint(pos):
                return line
        return None

    @property
    def bounds(self) -> pygame.Rect:
        rect = self.grid
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
    lost: frozenset[str] = frozenset()  # stars someone else owns (crossed out)
    fresh: frozenset[Cell] = frozenset()  # written this round


def draw_sheet(
    surface: pygame.Surface, painter: Painter, geo: SheetGeometry, look: SheetLook
) -> None:
    p = painter.p
    sheet = look.sheet
    prefilled = look.settings.layout.prefilled_map
    value_size = max(16, int(geo.cell * 0.62))
    thin = max(1, geo.cell // 24)
    for r in range(SIZE):
        for c in range(SIZE):
            cell = (r, c)
            rect = geo.cell_rect(cell)
            kind = cell_kind(cell)
            ch = sheet.at(cell)
            if kind == "coin":
                radius = int(geo.cell * 0.36)
                if ch == COIN:
                    pygame.draw.circle(surface, p.coin, rect.center, radius)
                    pygame.draw.circle(surface, p.line, rect.center, radius, max(2, thin + 1))
                else:  # spent: filled in, as on paper
                    pygame.draw.circle(surface, p.coin_spent, rect.center, radius)
                    painter.cross(
                        surface,
                        rect.inflate(-geo.cell // 2, -geo.cell // 2),
                        (255, 255, 255),
                        max(2, thin + 1),
                    )
                continue
            fill: Color = p.operand if kind == "operand" else p.operator
            if cell in prefilled:
                fill = p.prefilled
            painter.box(
                surface, rect, fill, p.line, max(2, thin + 1), radius=max(3, geo.cell // 10)
            )
            if ch != EMPTY:
                colour = p.ink
                painter.text(
                    surface, glyph(ch), rect.center, value_size, colour, bold=True, anchor="center"
                )
                if cell in look.fresh:
                    pygame.draw.line(
                        surface,
                        p.good,
                        (rect.left + 6, rect.bottom - 6),
                        (rect.right - 6, rect.bottom - 6),
                        max(2, thin + 1),
                    )
            elif cell in look.ghosts:
                pygame.draw.rect(
                    surface,
                    p.hint,
                    rect.inflate(-4, -4),
                    max(3, thin + 2),
                    border_radius=max(3, geo.cell // 10),
                )
                painter.text(
                    surface,
                    glyph(look.ghosts[cell]),
                    rect.center,
                    value_size,
                    p.hint,
                    bold=True,
                    anchor="center",
                )
            if cell in look.selected:
                pygame.draw.rect(
                    surface,
                    p.selected,
                    rect.inflate(6, 6),
                    max(4, thin + 3),
                    border_radius=max(3, geo.cell // 8),
                )
    for line in LINES:
        _draw_tail(surface, painter, geo, look, line)


def _draw_tail(
    surface: pygame.Surface, painter: Painter, geo: SheetGeometry, look: SheetLook, line: str
) -> None:
    p = painter.p
    ls = look.card.line(line)
    tail = geo.tail_rect(line)
    size = max(16, int(geo.cell * 0.40))  # 16 px at the least: children read it
    if ls.total is not None:
        total = f"={ls.total}"
        if painter.fonts.width(total, 16, True) > tail.width - 2:
            total = str(ls.total)  # a long sum drops its "=" before it gets smaller
        painter.text(
            surface,
            total,
            (tail.centerx, tail.top + tail.height // 4),
            size,
            p.ink,
            bold=True,
            anchor="center",
            max_width=max(tail.width - 2, painter.fonts.width(total, 16, True)),
        )
        points = f"{ls.points:+d}" if ls.points else "0"
        if not ls.valid and ls.points >= 0:
            points += " \u2717"  # a line that failed its mode: no plus points
        colour = p.good if ls.points > 0 else p.bad if ls.points < 0 else p.muted
        painter.text(
            surface,
            points,
            (tail.centerx, tail.top + 3 * tail.height // 4),
            size,
            colour,
            bold=True,
            anchor="center",
            max_width=max(tail.width - 2, painter.fonts.width(points, 16, True)),
        )
    else:
        painter.text(surface, "=", tail.center, size, p.muted, anchor="center")
    star = geo.star_rect(line)
    value = look.settings.layout.star_value(line)
    owned = line in look.sheet.stars
    radius = star.width // 2 - 1
    if owned:
        painter.star(surface, star.center, radius, p.star, p.ink, max(2, geo.cell // 20))
    elif line in look.claimable:
        painter.star(
            surface, star.center, radius, (255, 255, 255), p.selected, max(3, geo.cell // 14)
        )
    else:
        painter.star(surface, star.center, radius, None, p.muted, 2)
    label = str(value)
    size = max(16, int(radius * (0.78 if len(label) == 1 else 0.66)))
    painter.text(
        surface,
        label,
        (star.centerx, star.centery + radius // 10),
        size,
        p.ink,
        bold=True,
        anchor="center",
    )
    if line in look.lost:
        painter.cross(surface, star.inflate(-star.width // 5, -star.height // 5), p.bad, 3)


__all__ = ["SheetGeometry", "SheetLook", "draw_sheet", "glyph"]
