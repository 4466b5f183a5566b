"""The end of a solo game: the finished sheet, END GAME SCORING filled in, the high score."""

from __future__ import annotations

from typing import Any

import pygame

from tabletop.games.mathe_meister import MODE_NAMES, score_sheet
from tabletop.highscores import Recorded
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import InputEvent
from tabletop.ui.scenes.common import route_to_press
from tabletop.ui.scenes.mm_solo import MMMatch, draw_score_table
from tabletop.ui.sheet import SheetGeometry, SheetLook, draw_sheet
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button

GAME = "mathe-meister"


class ResultsScene(Scene):
    def __init__(self, ctx: Context, *, match: MMMatch, player: str, dice_mode: str) -> None:
        super().__init__(ctx)
        self.match = match
        self.player = player
        self.dice_mode = dice_mode
        settings = match.settings
        self.card = score_sheet(match.state.sheets[0], settings)
        self.black_hole = settings.has("black_hole")
        self.modes = settings.modes
        self.recorded: Recorded | None = None

    @property
    def score(self) -> int:
        return self.card.total

    def enter(self) -> None:
        if self.recorded is None:
            self.recorded = self.ctx.highscores.record(
                GAME, self.player, self.modes, self.score, lower_is_better=self.black_hole
            )
            self.ctx.sounds.play("star" if self.recorded.is_new_best else "round")

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        if m.name == "small":
            self.geo = SheetGeometry((8, 8), 40, 3, 52, 40)
            self.right = pygame.Rect(420, 8, 372, 464)
        else:
            self.geo = SheetGeometry((12, 12), 62, 5, 84, 62)
            self.right = pygame.Rect(664, 12, 604, 696)
        r = self.right
        h = m.u(56)
        w = (r.width - m.u(12)) // 2
        self.buttons = [
            Button("home", pygame.Rect(r.left, r.bottom - h, w, h), "Home", kind="quiet"),
            Button("again", pygame.Rect(r.right - w, r.bottom - h, w, h), "Play again"),
        ]
        self.table = pygame.Rect(r.left, r.top + m.title + m.u(8), r.width, m.u(246))
        sheet = self.match.state.sheets[0]
        self.look = SheetLook(sheet, self.match.settings, self.card)

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, "home")

    def press(self, name: str) -> None:
        from tabletop.ui.scenes.home import HomeScene
        from tabletop.ui.scenes.mm_solo import MatheMeisterScene

        if name == "home":
            self.stack.unwind_to(HomeScene)
        elif name == "again":
            self.stack.replace(
                MatheMeisterScene(
                    self.ctx, player=self.player, modes=self.modes, dice_mode=self.dice_mode
                )
            )

    def high_score_text(self) -> str:
        rec = self.recorded
        modes = " + ".join(MODE_NAMES[m] for m in self.modes)
        if rec is None:
            return ""
        goal = "lowest" if self.black_hole else "best"
        if rec.previous_best is None:
            return f"Your first {modes} game: that is your {goal} score so far!"
        if rec.is_new_best:
            return f"New high score for {modes}! Your {goal} before was {rec.previous_best}."
        return f"Your {goal} score for {modes}: {rec.best}."

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        draw_sheet(surface, painter, self.geo, self.look)
        r = self.right
        painter.text(
            surface,
            f"Well played, {self.player}!",
            (r.left, r.top),
            m.title - 4,
            bold=True,
            max_width=r.width,
        )
        draw_score_table(surface, painter, self.table, self.card, m)
        y = self.table.bottom + m.u(8)
        painter.text(
            surface,
            f"Final score: {self.score}",
            (r.left, y),
            m.title,
            p.good,
            bold=True,
            max_width=r.width,
        )
        y += m.title + m.u(8)
        text_rect = pygame.Rect(r.left, y, r.width, self.buttons[0].rect.top - y - m.u(6))
        colour = p.ink
        if self.recorded is not None and self.recorded.is_new_best:
            colour = p.good
        painter.paragraph(
            surface, self.high_score_text(), text_rect, m.small + 1, colour, bold=True
        )
        painter.buttons(surface, self.buttons)
        below = self.geo.bounds.bottom + m.u(16)
        modes = " + ".join(MODE_NAMES[x] for x in self.modes)
        painter.text(surface, f"Mode: {modes}", (self.geo.grid.left, below), m.small, p.muted)
        notice = self.ctx.highscores.notice
        if notice:
            area = pygame.Rect(
                self.geo.grid.left,
                below + m.small + m.u(8),
                self.geo.bounds.width,
                m.height - below - m.small - m.u(16),
            )
            painter.paragraph(surface, notice, area, m.small, p.bad)

    def info(self) -> dict[str, Any]:
        return {"score": self.score, "recorded": self.recorded}


__all__ = ["ResultsScene"]
