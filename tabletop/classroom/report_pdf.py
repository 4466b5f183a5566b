"""The teacher's report as a PDF to print: a summary page of every group, then each
group on its own page(s), a table and bar charts, made from the rows of
:mod:`tabletop.classroom.report_rows` (the skills pages after them:
:func:`tabletop.classroom.skills.add_skills_pages`, on the same page cursor).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tabletop.classroom.report_rows import (
    GAME_TITLES,
    LeftOut,
    Row,
    decimal_text,
    game_title,
    group_title,
    group_totals,
    session_title,
    table_cells,
    told_apart_rows,
)
from tabletop.engine.words import plural, sentence

if TYPE_CHECKING:
    from fpdf import FPDF

MARGIN = 15.0
ROW_H = 6.5
LEAST = 9.0  # pt: a table's or a chart's text prints no smaller (wider, it takes more lines)
BAR_H = 5.0
BLUE = (0, 114, 178)
VERMILLION = (213, 94, 0)
LIGHT = (205, 205, 210)
INK = (25, 25, 30)
MUTED = (95, 95, 105)
TABLE_COLUMNS = (  # (heading, share of the width, alignment)
    ("Student", 0.24, "L"),
    ("Game", 0.19, "L"),
    ("Games", 0.09, "R"),
    ("Wins", 0.08, "R"),
    ("Points", 0.10, "R"),
    ("Answers right", 0.18, "R"),
    ("Minutes", 0.12, "R"),
)
SUMMARY_COLUMNS = (
    ("Group", 0.24, "L"),
    ("Students", 0.12, "R"),
    ("Games", 0.09, "R"),
    ("Wins", 0.08, "R"),
    ("Points", 0.17, "R"),
    ("Answers right", 0.18, "R"),
    ("Minutes", 0.12, "R"),
)
NOTES = (
    "A game counts when it ended or the rotation's time ran out. A draw for first place is "
    "a win for each player who shares it. Points are in each game's own unit, so they are "
    "compared within a game, and a total over different games shows —. A group's games, "
    "wins and minutes count each game once. Guests did not sign in: the same guest name in "
    "two games may be two children. Bots are left out."
)


def report_pdf(
    rows: Sequence[Row],
    *,
    session: str | None,
    paper: str = "a4",
    made: str | None = None,
    left_out: Sequence[LeftOut] = (),
    skills: Any = None,
) -> FPDF:
    """The printable report: a summary page of every group, then each group on its own
    page(s): its table (one line per student per game) and two bar charts (answers right
    of those checked, per student; points per student in each game). ``left_out``: the
    games :func:`read_report` left out, named on the summary page."""
    from tabletop.printables.pdf import PAPERS, new_pdf

    title = f"Class report: {session_title(session)}"
    pdf = new_pdf(paper, title=title)
    page = _Page(pdf, PAPERS[paper][1], PAPERS[paper][2], title)
    made = made if made is not None else time.strftime("%Y-%m-%d %H:%M")
    totals = group_totals(rows)
    page.new(f"made {made}" if made else "")
    if left_out:
        page.line("Games left out of this report", 12, bold=True)
        for game in left_out:
            page.paragraph(sentence(game.sentence()), 9, VERMILLION)
        page.gap(4)
    if not rows:
        page.line("No finished games in this session.", 14, bold=True)
        return pdf
    page.heading("Every group")
    page.table(
        SUMMARY_COLUMNS,
        [table_cells(group_title(t.group), str(t.students), t) for t in totals],
    )
    page.gap(4)
    page.paragraph(NOTES, 9, MUTED)
    page.gap(6)
    page.answers_chart(
        [(group_title(t.group), t.checked, t.right) for t in totals], "Answers right per group"
    )
    for total in totals:
        members = told_apart_rows([r for r in rows if r.group == total.group])
        page.new(group_title(total.group))
        page.heading(group_title(total.group))
        page.line(
            f"{plural(total.students, 'student')} · {plural(total.games, 'game')} · "
            f"{plural(total.wins, 'win')} · {total.right} of {total.checked} answers right · "
            f"{total.minutes} minutes",
            10,
            colour=MUTED,
        )
        page.gap(2)
        page.table(
            TABLE_COLUMNS,
            [table_cells(r.name, game_title(r.game), r) for r in members],
            total=table_cells("Total", "", total),
        )
        page.gap(6)
        per: dict[tuple[str, str], list[int]] = {}
        for r in members:
            tally = per.setdefault((r.student, r.name), [0, 0])
            tally[0] += r.checked
            tally[1] += r.right
        page.answers_chart(
            [(name, checked, right) for (_, name), (checked, right) in per.items()],
            "Answers right per student",
        )
        page.gap(4)
        page.points_charts(members)
    if skills is not None:  # issue 24: the skills grid and the dice-fairness page
        from tabletop.classroom.skills import add_skills_pages

        add_skills_pages(page, skills)
    return pdf


class _Page:
    """A cursor down the report's pages (a new page, with a running title, when full)."""

    def __init__(self, pdf: FPDF, width: float, height: float, title: str) -> None:
        self.pdf, self.width, self.height, self.title = pdf, width, height, title
        self.y = MARGIN
        self.part = ""

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN

    def new(self, part: str) -> None:
        """A new page: the report's title, and what the page is about."""
        from tabletop.printables.pdf import fit_text

        self.part = part
        self.pdf.add_page()
        title_w = self.inner * 0.64
        fit_text(self.pdf, self.title, MARGIN, MARGIN, title_w, 9, size=18, bold=True, align="L")
        if part:
            fit_text(
                self.pdf,
                part,
                MARGIN + title_w + 2,
                MARGIN + 1,
                self.inner - title_w - 2,
                9,
                size=10,
                colour=MUTED,
                align="R",
            )
        self.pdf.set_draw_color(*INK)
        self.pdf.set_line_width(0.4)
        self.pdf.line(MARGIN, MARGIN + 11, self.width - MARGIN, MARGIN + 11)
        self.y = MARGIN + 15

    def room(self, height: float) -> None:
        """Go on to a new page unless ``height`` fits on this one (or on no page)."""
        page = self.height - 2 * MARGIN - 15  # the room on an empty page
        need = height if height <= page else ROW_H  # taller than a page: start it here
        if self.y + need > self.height - MARGIN:
            self.more()

    def more(self) -> None:
        """The same part on a new page."""
        part = self.part.removesuffix(" (continued)")
        self.new(f"{part} (continued)" if part else "")

    def gap(self, height: float) -> None:
        self.y += height

    def heading(self, text: str) -> None:
        self.line(text, 15, bold=True)
        self.gap(1)

    def line(self, text: str, size: float, *, bold: bool = False, colour: Any = INK) -> None:
        from tabletop.printables.pdf import fit_text

        h = size * 0.5
        self.room(h)
        fit_text(
            self.pdf,
            text,
            MARGIN,
            self.y,
            self.inner,
            h,
            size=size,
            bold=bold,
            colour=colour,
            align="L",
        )
        self.y += h + 1

    def paragraph(self, text: str, size: float, colour: Any = INK) -> None:
        from tabletop.printables.pdf import FONT, printable

        printable(self.pdf, text)  # a name in it: its letters from the fallback, if need be
        self.pdf.set_font(FONT, "", size)
        self.pdf.set_text_color(*colour)
        self.room(size * 2)
        self.pdf.set_xy(MARGIN, self.y)
        self.pdf.multi_cell(self.inner, size * 0.45, text, align="L")
        self.y = self.pdf.get_y()

    def table(
        self,
        columns: Sequence[tuple[str, float, str]],
        cells: Sequence[Sequence[str]],
        total: Sequence[str] | None = None,
    ) -> None:
        from tabletop.printables.pdf import fit_text

        widths = [share * self.inner for _, share, _ in columns]

        def draw(values: Sequence[str], *, bold: bool, fill: Any = None) -> None:
            h = max(self.text_height(v, w - 3, bold=bold) for v, w in zip(values, widths))
            if self.y + h > self.height - MARGIN:
                self.more()
                head()
            if fill is not None:
                self.pdf.set_fill_color(*fill)
                self.pdf.rect(MARGIN, self.y, self.inner, h, "F")
            x = MARGIN
            for value, w, (_, _, align) in zip(values, widths, columns, strict=True):
                fit_text(
                    self.pdf,
                    value,
                    x + 1.5,
                    self.y,
                    w - 3,
                    h,
                    size=10,
                    least=LEAST,
                    bold=bold,
                    align=align,
                )
                x += w
            self.y += h

        def head() -> None:
            draw([c[0] for c in columns], bold=True, fill=(232, 228, 218))

        self.room(ROW_H * 3)
        head()
        for i, values in enumerate(cells):
            draw(values, bold=False, fill=(246, 244, 238) if i % 2 else None)
        if total is not None:
            self.room(ROW_H)
            self.pdf.set_draw_color(*INK)
            self.pdf.set_line_width(0.3)
            self.pdf.line(MARGIN, self.y, self.width - MARGIN, self.y)
            draw(total, bold=True)

    def text_height(self, text: str, w: float, *, bold: bool = False) -> float:
        """The height of a table row or chart line holding ``text`` in a column ``w`` wide
        at 10 pt (a long name on two lines at :data:`LEAST` pt or more, not shrunk)."""
        from tabletop.printables.pdf import LEADING, PT, text_lines

        size, lines = text_lines(self.pdf, text, w, size=10, least=LEAST, bold=bold)
        return max(ROW_H, len(lines) * size * LEADING * PT + 2.4)

    def answers_chart(self, bars: Sequence[tuple[str, int, int]], title: str) -> None:
        """(label, checked, right) each: a grey bar for the answers checked, a blue bar
        over it for those right."""
        self.room(8 + len(bars) * (BAR_H + 1.5))
        self.line(f"{title} (blue) of the answers checked (grey)", 12, bold=True)
        most = max((checked for _, checked, _ in bars), default=0)
        if most == 0:
            self.line("No answers were checked.", 10, colour=MUTED)
            return
        for label, checked, right in bars:
            self._bar(
                label, [(checked / most, LIGHT), (right / most, BLUE)], f"{right} of {checked}"
            )

    def points_charts(self, rows: Sequence[Row]) -> None:
        """One chart per game (points are in each game's own unit): a bar per student."""
        for game in GAME_TITLES | {r.game: r.game for r in rows}:
            members = [r for r in rows if r.game == game]
            if not members:
                continue
            self.room(8 + len(members) * (BAR_H + 1.5))
            self.line(f"Points in {game_title(game)}", 12, bold=True)
            most = max(abs(r.points) for r in members) or Fraction(1)
            negative = any(r.points < 0 for r in members)
            for r in members:
                share = float(abs(r.points) / most)
                colour = VERMILLION if r.points < 0 else BLUE
                self._bar(
                    r.name,
                    [(share, colour)],
                    decimal_text(r.points),
                    signed=negative,
                    negative=r.points < 0,
                )
            self.gap(2)

    def _bar(
        self,
        label: str,
        bars: Sequence[tuple[float, Any]],
        value: str,
        *,
        signed: bool = False,
        negative: bool = False,
    ) -> None:
        """One chart line: the label, bars from the axis (left of it when negative), the
        value. With ``signed`` the axis is in the middle of the bar area."""
        from tabletop.printables.pdf import fit_text

        label_w, value_w = 0.27 * self.inner, 0.16 * self.inner
        area = self.inner - label_w - value_w - 4
        h = self.text_height(label, label_w - 2) - ROW_H + BAR_H
        self.room(h + 1.5)
        fit_text(self.pdf, label, MARGIN, self.y, label_w - 2, h, size=10, least=LEAST, align="R")
        self.y += (h - BAR_H) / 2  # the bars in the middle of the label's lines
        left = MARGIN + label_w
        axis, reach = (left + area / 2, area / 2) if signed else (left, area)
        for share, colour in bars:
            w = max(0.0, min(1.0, share)) * reach
            self.pdf.set_fill_color(*colour)
            if w > 0:
                self.pdf.rect(axis - w if negative else axis, self.y, w, BAR_H, "F")
        self.pdf.set_draw_color(*INK)
        self.pdf.set_line_width(0.3)
        self.pdf.line(axis, self.y - 0.75, axis, self.y + BAR_H + 0.75)
        fit_text(self.pdf, value, left + area + 4, self.y, value_w, BAR_H, size=10, align="L")
        self.y += BAR_H + (h - BAR_H) / 2 + 1.5


__all__ = ["report_pdf"]
