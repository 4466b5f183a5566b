"""The dice-fairness lesson on screen (issue 24; the class report's "Dice" button).

Six bars, one per face, of the dice the device read in this lesson (camera, corrected
by touch, tapped: the class's own dice; the dice the device rolled itself are not
counted), a dashed line where each face would be if the dice were perfectly even, and
the chi-square test in words (:mod:`tabletop.classroom.dice_lesson`). The screen reads
the journal again every :data:`REFRESH` seconds, so the class watches the bars grow as
they roll. "This lesson" / "All lessons" switches what is counted.
"""

from __future__ import annotations

import pygame

from tabletop.classroom.dice_lesson import fairness, read_dice
from tabletop.engine.words import plural, sentence
from tabletop.ui.app import Context
from tabletop.ui.scenes.common import footer
from tabletop.ui.scenes.settings import TeacherScreen
from tabletop.ui.theme import Metrics

REFRESH = 1.0  # seconds between reads of the journal
BAR = (0, 114, 178)  # blue (Okabe-Ito)
ODD = (213, 94, 0)  # vermillion: the verdict when the dice do not look fair


class DiceLessonScene(TeacherScreen):
    title = "Are our dice fair?"

    def __init__(self, ctx: Context, *, session: str | None = None) -> None:
        super().__init__(ctx)
        self.session = session if session is not None else ctx.session
        self.every = False  # True: every lesson's dice
        self.read_at: float | None = None
        self.load()

    def load(self) -> None:
        self.result = fairness(read_dice(self.ctx.journal, None if self.every else self.session))
        self.read_at = self.ctx.clock()
        which = "all lessons" if self.every else f"lesson {self.session or '(no session)'}"
        self.subtitle = f"{plural(self.result.rolls, 'die', 'dice')} rolled \u00b7 {which}"

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        which = "This lesson only" if self.every else "All lessons"
        self.buttons = footer(m, ("back", "Back"), ("which", which, 260), "quiet")
        self.footer_y = self.buttons[0].rect.top

    def press(self, name: str) -> None:
        if name == "back":
            self.stack.pop()
        elif name == "which":
            self.every = not self.every
            self.load()
            self.layout(self.m)

    def update(self, now: float) -> bool:
        if self.read_at is not None and now - self.read_at < REFRESH:
            return False
        before = self.result
        self.load()
        return self.result != before

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        r, painter, m, p = self.result, self.ctx.painter, self.m, self.ctx.painter.p
        W = m.width
        verdict = pygame.Rect(m.u(16), self.footer_y - m.u(76), W - m.u(32), m.u(68))
        chart = pygame.Rect(m.u(60), m.u(96), W - m.u(120), verdict.top - m.u(96) - m.u(44))
        most = max([*r.counts, 1])
        expected = r.rolls / 6
        top = max(most, expected) * 1.15 or 1
        slot = chart.width // 6
        if r.rolls:  # the even line first: the bars cover it, so it never crosses a count
            y = chart.bottom - round(chart.height * expected / top)
            for x in range(chart.left, chart.right, m.u(16)):
                pygame.draw.line(surface, p.muted, (x, y), (min(x + m.u(9), chart.right), y), 2)
            at = (chart.right + m.u(4), y)
            painter.text(surface, "even", at, m.small, p.muted, anchor="midleft")
        for face, count in enumerate(r.counts, start=1):
            x = chart.left + (face - 1) * slot
            h = round(chart.height * count / top)
            bar = pygame.Rect(x + slot // 6, chart.bottom - h, slot - slot // 3, h)
            if h:
                painter.box(surface, bar, BAR, None, 0, m.u(4))
            if h >= m.text + m.u(12):  # the count inside its bar, else just above it
                at, ink, anchor = (bar.centerx, bar.top + m.u(6)), (255, 255, 255), "midtop"
            else:
                at, ink, anchor = (bar.centerx, bar.top - m.u(4)), p.ink, "midbottom"
            painter.text(surface, str(count), at, m.text, ink, bold=True, anchor=anchor)
            under = (bar.centerx, chart.bottom + m.u(6))
            painter.text(surface, str(face), under, m.big, bold=True, anchor="midtop")
        pygame.draw.line(surface, p.line, chart.bottomleft, chart.bottomright, 2)
        text, ink = sentence(r.sentence()), ODD if r.fair is False else p.ink
        painter.paragraph(surface, text, verdict, m.text, ink, bold=True, align="center")


__all__ = ["DiceLessonScene"]
