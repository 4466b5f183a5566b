"""The teacher's report on screen (teacher menu, behind the PIN): a lesson's numbers.

First every group (students, games, wins, points, answers right of those checked,
minutes); tap a group for its students, one line per student per game. "Earlier" and
"Later" step through the lessons (sessions) that have games. The figures are those of
``tabletop report`` (:mod:`tabletop.classroom.report`: what counts is written there).

"Save to USB stick" writes the CSV and the PDF into ``tabletop-reports`` on the first
stick :func:`tabletop.classroom.usb.sticks` finds and says where; with no stick the
button reads "Put in a USB stick" (the screen looks for one every two seconds). Tests
pass their own ``sticks``.
"""

from __future__ import annotations

import errno
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pygame

from tabletop.classroom import report, report_rows, skills, usb
from tabletop.classroom.mistakes import SKILLS
from tabletop.engine.errors import TabletopError
from tabletop.engine.words import plural
from tabletop.ui.app import Context
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Item, Row, foot, spread
from tabletop.ui.scenes.settings import TeacherScreen
from tabletop.ui.theme import Color, Metrics
from tabletop.ui.widgets import Button, Paged, grid

log = logging.getLogger(__name__)
T = TypeVar("T")

STICK_POLL = 2.0  # seconds between looks for a USB stick
PAPER = "a4"
SKILLS_HINT = "Per skill: answers right, and the mistake each child made most."
SAVE_FAILED = child_message("report.save_failed")
STICK_SAYS = {e: "report.stick_full" for e in (errno.ENOSPC, errno.EDQUOT)} | {
    errno.EROFS: "report.stick_read_only"
}
Column = tuple[str, float, bool]  # heading, share of the width, right-aligned
WORDS = ("Group", "Student", "Game", "Who", "Skill", "")  # left-aligned; the figures go right
FIGURES = ("Games", "Wins", "Points", "Right", "Minutes")


def table_columns(heads: Sequence[str], shares: Sequence[int]) -> tuple[Column, ...]:
    """The table's columns: each heading with its share of the width in hundredths."""
    return tuple((h, share / 100, h not in WORDS) for h, share in zip(heads, shares, strict=True))


GROUP_COLUMNS = table_columns(("Group", "Students", *FIGURES), (25, 14, 11, 9, 12, 17, 12))
STUDENT_COLUMNS = table_columns(("Student", "Game", *FIGURES), (23, 22, 11, 8, 10, 14, 12))
# The skills view (issue 24): a row's first line; its second is its most common mistake.
# The heading "" is the level's: a word on its colour.
SKILL_COLUMNS = table_columns(("Who", "Skill", "Right", "", "Trend"), (21, 27, 14, 17, 21))


class ReportScene(Paged, TeacherScreen):
    def __init__(
        self,
        ctx: Context,
        *,
        session: str | None = None,
        sticks: Callable[[], Sequence[Path]] | None = None,
    ) -> None:
        super().__init__(ctx)
        self.find_sticks = sticks
        self.sessions = report_rows.sessions(ctx.journal)
        if session is None:
            here = ctx.session in self.sessions or not self.sessions
            session = ctx.session if here else self.sessions[0]
        self.session = session
        self.group: str | None = None  # None: every group; else that group's students
        self.view = "games"  # or "skills": what each child found hard (issue 24)
        self.stick: Path | None = None
        self.looked_at: float | None = None
        self.load()

    def load(self) -> None:
        found = report_rows.read_report(self.ctx.journal, self.session)
        self.rows, self.left_out = found.rows, found.left_out
        if found.left_out and not self.message:
            self.say(child_message("report.left_out", games=plural(len(found.left_out), "game")))
        self.totals = report_rows.group_totals(self.rows)
        self.games = len({p.match for r in self.rows for p in r.plays})
        self.skill_rows = skills.gather_skills(self.ctx.journal, self.session)
        self.trends = skills.trends(self.ctx.journal)

    def look_for_stick(self) -> bool:
        """Look for a USB stick; True if what was found changed."""
        self.looked_at = self.ctx.clock()
        found = usb.mounted_sticks(self.find_sticks or usb.sticks, "report")
        before, self.stick = self.stick, found[0] if found else None
        return self.stick != before

    def lines(self) -> list[list[str]]:
        """The table's lines for what is shown now."""
        if self.view == "skills":  # each group's totals first, then each student
            told = report_rows.told_apart_rows(self.skill_rows)
            return [self.skill_line(r) for r in [*skills.group_skills(self.skill_rows), *told]]
        if self.group is None:
            return [
                report_rows.table_cells(report_rows.group_title(t.group), str(t.students), t)
                for t in self.totals
            ]
        rows = report_rows.told_apart_rows([r for r in self.rows if r.group == self.group])
        return [report_rows.table_cells(r.name, report_rows.game_title(r.game), r) for r in rows]

    def skill_line(self, r: skills.SkillRow) -> list[str]:
        """Name (told apart from a namesake: ``report_rows.told_apart_rows``), skill, right of
        checked, level, trend; then the most common mistake."""
        return [
            r.name,
            SKILLS.get(r.skill, r.skill),
            f"{r.right} of {r.checked}",
            skills.level(r.checked, r.right),
            skills.row_trend(self.trends, r) or "\u2014",
            r.mistake(),
        ]

    def enter(self) -> None:
        if self.looked_at is None:
            self.look_for_stick()
            self.layout(self.m)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin, bh = m.u(16), m.u(56)
        title = "Class report" if self.group is None else report_rows.group_title(self.group)
        self.title = "Skills" if self.view == "skills" else title
        name = report_rows.session_title(self.session)  # "Lesson" once: not "Lesson Walk lesson"
        lesson = name if re.search(r"\blesson", name, re.IGNORECASE) else f"Lesson {name}"
        self.subtitle = f"{lesson} \u00b7 {plural(self.games, 'game')}"
        self.footer_y = H - margin - bh
        self.message_rect = pygame.Rect(margin, self.footer_y - m.u(58), W - 2 * margin, m.u(52))
        self.table = pygame.Rect(margin, m.u(84), W - 2 * margin, 0)
        self.head_h, self.row_h = m.u(30), m.u(48 if self.view == "games" else 76)
        bottom = self.message_rect.top - m.u(4)
        self.paged(self.lines(), (bottom - self.table.top - self.head_h) // self.row_h)
        older, newer = (step is not None for step in self.neighbours())
        top_bar = (
            Item("view", "Games" if self.view == "skills" else "Skills", 112, size=m.small),
            Item("dice", "Dice", 118, size=m.small),
            Item("session.older", "\u25c0 Earlier", 118, enabled=older, size=m.small),
            Item("session.newer", "Later \u25b6", 118, enabled=newer, size=m.small),
        )
        bar = pygame.Rect(W - margin - m.u(490), m.u(12), m.u(490), 0)
        b, _ = spread(m, bar, [Row("", top_bar, m.u(52), gap=8)])
        if self.group is None and self.view == "games":
            for rect, total in self.on_page(self.totals):
                b.append(Button(f"group.{total.group}", rect, "", kind="quiet"))
        back = "Groups" if self.group is not None else "Back"
        b.append(Button("back", foot(m, 180), back, kind="quiet"))
        if self.pages > 1:
            pw = m.u(64)
            left = W // 2 - pw - m.u(4) - m.u(40)
            up, down = grid(pygame.Rect(left, self.footer_y, 2 * pw + m.u(8), bh), 2, 2, m.u(8))
            b.append(Button("page.up", up, "\u25b2", self.page > 0, "quiet"))
            b.append(Button("page.down", down, "\u25bc", self.page < self.pages - 1, "quiet"))
        usb_label = "Save to USB stick" if self.stick is not None else "Put in a USB stick"
        ready = self.stick is not None and bool(self.rows)
        self.buttons = [*b, Button("usb", foot(m, 270, "right"), usb_label, ready)]

    def on_page(self, items: Sequence[T]) -> list[tuple[pygame.Rect, T]]:
        """The items on this page, each with its row of the table."""
        m, table, start = self.m, self.table, self.page * self.per_page
        top, h = table.top + self.head_h + m.u(2), self.row_h - m.u(4)
        return [
            (pygame.Rect(table.left, top + i * self.row_h, table.width, h), item)
            for i, item in enumerate(items[start : start + self.per_page])
        ]

    def press(self, name: str) -> None:
        if name == "back" and self.group is None:
            self.stack.pop()
            return
        if name == "dice":
            from tabletop.ui.scenes.dice_lesson import DiceLessonScene

            self.stack.push(DiceLessonScene(self.ctx, session=self.session))
            return
        if name in ("back", "view") or name.startswith("group."):  # from the first page
            self.group, self.page = (name[6:] if name.startswith("group.") else None), 0
        if name == "view":
            self.view = "games" if self.view == "skills" else "skills"
        elif name.startswith("page."):
            self.turn_page(1 if name == "page.down" else -1)
        elif name.startswith("session.") and (step := self.neighbours()[name.endswith("newer")]):
            self.session, self.group, self.page, self.message = step, None, 0, ""
            self.load()
        elif name == "usb":
            self.save()
        self.layout(self.m)

    def neighbours(self) -> tuple[str | None, str | None]:
        """The lessons just earlier and just later than the one shown (None: none)."""
        if self.session not in self.sessions:
            return (self.sessions[0] if self.sessions else None), None
        i = self.sessions.index(self.session)
        older = self.sessions[i + 1] if i + 1 < len(self.sessions) else None
        return older, self.sessions[i - 1] if i > 0 else None

    def save(self) -> None:
        self.look_for_stick()
        if self.stick is None:
            self.say(child_message("report.stick_gone"), good=False)
            return
        folder = self.stick / report.FOLDER
        try:
            csv_path, pdf_path = report.save_report(
                self.rows,
                folder,
                session=self.session,
                paper=PAPER,
                left_out=self.left_out,
                skills=skills.skills_pages(self.ctx.journal, self.session),
            )
        except TabletopError as exc:
            log.error("report: %s: %s", exc.code, exc.message)
            said = STICK_SAYS.get(getattr(exc, "errno", None) or 0)  # the writer's errno
            self.say(child_message(said) if said else SAVE_FAILED, good=False)
            return
        log.info("report: wrote %s and %s", csv_path, pdf_path)
        self.ctx.sounds.play("good")
        files = {"stick": self.stick.name, "csv": f"{report.FOLDER}/{csv_path.name}"}
        self.say(child_message("report.saved", files, pdf=pdf_path.suffix))

    def update(self, now: float) -> bool:
        if self.looked_at is not None and now - self.looked_at < STICK_POLL:
            return False
        if self.look_for_stick():
            self.layout(self.m)
            return True
        return False

    def note(self) -> str:
        if self.rows and self.stick is not None:
            return f"USB stick found: {self.stick.name}."
        if self.rows and (self.view == "skills" or self.group is None):
            if self.view == "skills":
                return SKILLS_HINT
            mixed = any(t.points_text == "—" for t in self.totals)
            why = " Points: — where a group played more than one game." if mixed else ""
            return f"Tap a group to see its students.{why}"
        return ""

    def draw(self, surface: pygame.Surface) -> None:
        """The teacher screen (the groups' buttons are the table's boxed rows), the
        table over it, and which page it shows."""
        super().draw(surface)
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        lines = self.lines()
        if lines:
            self.draw_table(surface, lines)
        else:
            empty = pygame.Rect(m.u(16), m.u(150), m.width - m.u(32), m.u(80))
            text = "No games finished in this lesson yet."
            painter.paragraph(surface, text, empty, m.big, p.muted, align="center")
        if (arrows := self.target("page.up")) is not None:  # more than one page
            at = (arrows.rect.left - m.u(8), self.footer_y + m.u(28))
            text = f"{self.page + 1} of {self.pages}"
            painter.text(surface, text, at, m.small, p.muted, anchor="midright")

    def draw_table(self, surface: pygame.Surface, lines: Sequence[Sequence[str]]) -> None:
        """The headings, then this page's lines: a boxed row each (the groups, the skills),
        or a stripe on every other (a group's students). A skill's row has a second line,
        its most common mistake; its level is a word on its colour (never colour alone)."""
        painter, m, p, table = self.ctx.painter, self.m, self.ctx.painter.p, self.table
        pad = m.u(8)
        skill, boxed = self.view == "skills", self.group is None
        columns = SKILL_COLUMNS if skill else GROUP_COLUMNS if boxed else STUDENT_COLUMNS
        heading = (table.top + self.head_h // 2, [c[0] for c in columns], m.small, p.muted, True)
        rows: list[tuple[int, Sequence[str], int, Color, bool]] = [heading]
        for i, (rect, values) in enumerate(self.on_page(lines)):
            if boxed:
                painter.box(surface, rect, p.panel, p.line, 2, m.u(8))
            elif i % 2 == 0:
                painter.box(surface, rect, p.panel, None, 0, m.u(4))
            y = rect.top + m.u(20) if skill else rect.centery
            rows.append((y, values, m.text, p.ink, boxed))
            if skill:  # the most common mistake, under the line
                at, width = (table.left + m.u(8), rect.bottom - m.u(18)), rect.width - m.u(16)
                painter.text(surface, values[-1], at, m.small, anchor="midleft", max_width=width)
        for y, values, size, ink, bold in rows:  # each value in its column, left or right
            x = table.left
            for value, (_, share, right) in zip(values, columns, strict=False):
                w = round(share * table.width)
                at, anchor = ((x + w - pad, y), "midright") if right else ((x + pad, y), "midleft")
                size_, ink_ = size, ink
                if skill and value in skills.LEVEL_COLOURS:  # a level: a word on its colour
                    chip = pygame.Rect(x + pad // 2, y - m.u(15), w - pad, m.u(30))
                    painter.box(surface, chip, skills.LEVEL_COLOURS[value], None, 0, m.u(6))
                    dark = value in ("growing", "no answers")
                    at, anchor, size_ = chip.center, "center", m.small
                    ink_ = (0, 0, 0) if dark else (255, 255, 255)
                painter.text(
                    surface, value, at, size_, ink_, bold=bold, anchor=anchor, max_width=w - 2 * pad
                )
                x += w


__all__ = ["ReportScene"]
