"""The teacher's report: per student and per group, what a lesson's games came to.

Read from the game journal (:mod:`tabletop.store`). What counts, and how:

- A **game** counts when it is ``finished``: it ended (reason ``"end"``) or a rotation's
  clock stopped it (``"time"``, with the standings then as its result). Games still
  being played, abandoned or broken are left out.
- **Players** are the seats of those games. Bots are not students and are left out.
  A signed-in student is their id (their name from the class list, else the newest
  name they played under). A **guest** (a seat with no student id, e.g. "Player 2") is
  one row per name in the group ``"guests"``: the same guest name in two games may be two
  different children, so sign in for a report that follows a child.
- A student's **group** is the one they were in when they played (a student who moved
  groups shows in both); a student with no group is in ``"no group"``.
- A **win** is a seat among the game's winners (place 1). A draw for first place is a
  win for every seat that shares it.
- **Points** are the seat's score in the game's result, exact (a fraction stays a
  fraction); a game's points are in its own unit (Mathe-Meister sheet totals, Math Wars
  Meta VICTORY! cards, M.E.C.S. coins, Math Arena operator cards, Math Attack! totals).
- **Answers checked / right** are the answers the device checked for that seat
  (solutions in Math Wars Meta, equations in M.E.C.S., values in Math Arena, sums in
  Mathe-Meister) and how many were right.
- **Time played** is the game's seconds played, counted for every player who sat in it.

A row is one student (or guest name) in one group and one game. A group's totals count
each game once: its games, wins (games that a member won) and time are those of the
distinct games any member played; its answers are the sums of its rows, and so are its
points where its rows are of one game (points of different games are not added: the PDF
prints "—").

The CSV (:func:`write_csv`, columns in :data:`CSV_COLUMNS` and the README) and the PDF
(:func:`report_pdf`: a summary page, then per group a table and bar charts) are made
from the same rows; ``tabletop report`` (:func:`add_parser`) writes both.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import logging
import math
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from tabletop import csvsafe
from tabletop.classroom.students import Student, shown_names
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import plural, sentence
from tabletop.store import FILE_NAME, Journal

if TYPE_CHECKING:
    from fpdf import FPDF

    from tabletop.classroom.skills import SkillRow

log = logging.getLogger(__name__)
RowT = TypeVar("RowT", "Row", "SkillRow")

GUESTS = "guests"
NO_GROUP = "no group"
ALL = "all"  # the session label of a report over every session
# Games in the order reports list them; their names as printed.
GAME_TITLES = {
    "mathe-meister": "Mathe-Meister",
    "math-wars-meta": "Math Wars Meta",
    "mecs": "M.E.C.S.",
    "math-arena": "Math Arena",
    "math-attack": "Math Attack!",
}
# What the device checks in each game, for the "answers" column.
ANSWER_KINDS = {
    "mathe-meister": "sums",
    "math-wars-meta": "solutions",
    "mecs": "equations",
    "math-arena": "values",
    "math-attack": "answers",
}
CSV_COLUMNS = (
    "session",
    "group",
    "student_id",
    "name",
    "game",
    "games",
    "wins",
    "points",
    "points_exact",
    "answers",
    "checked",
    "right",
    "minutes",
)
FOLDER = "tabletop-reports"  # the folder on a USB stick


@dataclass(frozen=True)
class Play:
    """One finished game a row's player sat in."""

    match: int
    seconds: float
    won: bool


@dataclass(frozen=True)
class Row:
    """One student (or guest name) in one group and one game, over the session."""

    student: str  # the student's id; "" for a guest
    name: str
    group: str
    game: str
    games: int
    wins: int
    points: Fraction
    checked: int
    right: int
    seconds: float
    session: str = ALL
    plays: tuple[Play, ...] = field(default=(), compare=False, repr=False)

    @property
    def minutes(self) -> str:
        return minutes(self.seconds)

    @property
    def points_text(self) -> str:
        """The points as printed (one game's: always a number)."""
        return decimal_text(self.points)


@dataclass(frozen=True)
class GroupTotal:
    """A group's figures (see the module docstring: each game counted once)."""

    group: str
    students: int
    games: int
    wins: int
    points: Fraction
    checked: int
    right: int
    seconds: float
    point_games: int = field(default=1, compare=False)  # the games whose points are summed

    @property
    def minutes(self) -> str:
        return minutes(self.seconds)

    @property
    def points_text(self) -> str:
        """The points as printed: "—" where they are of more than one game (each game's
        points are in its own unit: 1844 Mathe-Meister points and 5 VICTORY! cards are
        not 1849 of anything)."""
        return decimal_text(self.points) if self.point_games <= 1 else "—"


# -- reading the journal -------------------------------------------------------------------

_FINISHED = "m.status = 'finished' AND m.reason IN ('end', 'time')"
_HAS_PLAYER = "EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.bot IS NULL)"


def sessions(journal: Journal) -> list[str]:
    """Sessions with at least one finished game played by a person, newest first."""
    rows = journal.db.execute(
        f"SELECT m.session FROM matches m WHERE {_FINISHED} AND {_HAS_PLAYER}"
        " GROUP BY m.session ORDER BY MAX(m.started) DESC, m.session"
    )
    return [str(r[0]) for r in rows]


@dataclass(frozen=True)
class LeftOut:
    """A finished game the report leaves out: its stored figures cannot be reported
    (``why``), or the teacher hid it (``hidden``)."""

    match: int
    game: str
    session: str
    source: str  # the journal label: "app", "fleet:<station>", ...
    why: str = ""
    hidden: bool = False

    def sentence(self) -> str:
        """One line naming the game: which one, from where, and why it is left out."""
        where = f", from {self.source[6:]}" if self.source.startswith("fleet:") else ""
        what = f"game {self.match} ({game_title(self.game)}, {session_title(self.session)}{where})"
        if self.hidden:
            return f"{what} is hidden by the teacher"
        return f"{what} is left out: {self.why}"


@dataclass(frozen=True)
class Report:
    """What :func:`read_report` found: the rows, and the games it left out."""

    rows: list[Row]
    left_out: list[LeftOut]  # stored figures that cannot be reported
    hidden: list[LeftOut]  # hidden by the teacher

    def warnings(self) -> list[str]:
        """One sentence per game left out (hidden ones not included)."""
        return [g.sentence() for g in self.left_out]


def gather(journal: Journal, session: str | None = None) -> list[Row]:
    """The report's rows for ``session`` (None: every session together), in report order:
    by group (guests last), then name, then game. Games that cannot be reported are left
    out and logged (:func:`read_report` says which)."""
    return read_report(journal, session).rows


def read_report(journal: Journal, session: str | None = None) -> Report:
    """The rows for ``session`` (see :func:`gather`), and the finished games left out:
    hidden by the teacher (:func:`hide`), or whose stored figures cannot be reported (a
    score that is not an exact number or is out of range, answers checked that are not
    counts, seconds that are not a time). A stored result never stops the report."""
    where = _FINISHED
    args: tuple[str, ...] = ()
    if session is not None:
        where, args = where + " AND m.session = ?", (session,)
    matches = journal.db.execute(
        "SELECT m.id, m.game, m.meta, m.result, m.elapsed, m.session, m.label"
        f" FROM matches m WHERE {where} ORDER BY m.id",
        args,
    ).fetchall()
    roster = {str(r[0]): str(r[1]) for r in journal.db.execute("SELECT id, name FROM students")}
    hidden_ids = hidden_matches(journal)
    left_out: list[LeftOut] = []
    hidden: list[LeftOut] = []
    # (student id or "", group, game, guest name or "") -> [name, plays, points, checked, right]
    acc: dict[tuple[str, str, str, str], list[Any]] = {}
    for match_id, game, meta_text, result_text, elapsed, match_session, source in matches:
        found = LeftOut(int(match_id), str(game), str(match_session), str(source))
        if int(match_id) in hidden_ids:
            hidden.append(dataclasses.replace(found, hidden=True))
            continue
        seats = [s for s in journal.seats(match_id) if s.bot is None]
        try:
            scores, winners, checks, seconds = _figures(meta_text, result_text, elapsed)
        except _Unreportable as exc:
            left_out.append(dataclasses.replace(found, why=str(exc)))
            log.warning("report: %s", left_out[-1].sentence())
            continue
        for seat in seats:
            if seat.student:
                key = (seat.student, seat.group or NO_GROUP, str(game), "")
            else:
                key = ("", GUESTS, str(game), seat.name)
            entry = acc.setdefault(key, [seat.name, [], Fraction(0), 0, 0])
            entry[0] = seat.name  # matches come oldest first: the newest name wins
            entry[1].append(Play(int(match_id), seconds, seat.seat in winners))
            if seat.seat < len(scores):
                entry[2] += scores[seat.seat]
            if seat.seat < len(checks):
                entry[3] += checks[seat.seat][0]
                entry[4] += checks[seat.seat][1]
    label = ALL if session is None else session
    rows = [
        Row(
            student=student,
            name=roster.get(student, name) if student else name,
            group=group,
            game=game,
            games=len(plays),
            wins=sum(p.won for p in plays),
            points=points,
            checked=checked,
            right=right,
            seconds=sum(p.seconds for p in plays),
            session=label,
            plays=tuple(plays),
        )
        for (student, group, game, _), (name, plays, points, checked, right) in acc.items()
    ]
    return Report(sorted(rows, key=_row_order), left_out, hidden)


# -- hiding a result ---------------------------------------------------------------------------


def hidden_matches(journal: Journal) -> set[int]:
    """The games the teacher hid (and did not show again)."""
    rows = journal.db.execute(
        "SELECT v.match_id FROM result_visibility v WHERE v.hidden = 1 AND v.id ="
        " (SELECT MAX(w.id) FROM result_visibility w WHERE w.match_id = v.match_id)"
    )
    return {int(r[0]) for r in rows}


def hide(journal: Journal, match_id: int, *, hidden: bool = True, why: str = "") -> None:
    """Hide finished game ``match_id`` from reports (``hidden`` False: show it again).
    Journaled as one more row of ``result_visibility``: nothing is ever deleted, so a
    hidden game can be shown again and the journal says who was hidden when."""
    row = journal.db.execute("SELECT status FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None or row[0] != "finished":
        raise BadInput("report.hide", f"there is no finished game number {match_id}")
    with journal.transaction() as db:
        db.execute(
            "INSERT INTO result_visibility (match_id, hidden, at, why) VALUES (?, ?, ?, ?)",
            (match_id, int(hidden), time.time(), why),
        )
    log.info("report: game %d %s", match_id, "hidden" if hidden else "shown again")


def group_totals(rows: Iterable[Row]) -> list[GroupTotal]:
    """One total per group, in report order."""
    by_group: dict[str, list[Row]] = {}
    for row in rows:
        by_group.setdefault(row.group, []).append(row)
    totals = []
    for group, members in by_group.items():
        games: dict[int, float] = {}
        won: set[int] = set()
        for row in members:
            for play in row.plays:
                games[play.match] = play.seconds
                if play.won:
                    won.add(play.match)
        totals.append(
            GroupTotal(
                group=group,
                students=len({(r.student, r.name if not r.student else "") for r in members}),
                games=len(games),
                wins=len(won),
                points=sum((r.points for r in members), Fraction(0)),
                checked=sum(r.checked for r in members),
                right=sum(r.right for r in members),
                seconds=sum(games.values()),
                point_games=len({r.game for r in members}),
            )
        )
    return sorted(totals, key=lambda t: _group_order(t.group))


def told_apart_rows(rows: Sequence[RowT]) -> list[RowT]:
    """``rows`` with each student's name as it is shown among them (:func:`shown_names`:
    "Mia (4b)", or "Mia (S3)" where a namesake shares the group): two children of one
    name read apart in a table and a chart."""
    shown = shown_names(Student(r.student, r.name, r.group) for r in rows)
    return [dataclasses.replace(r, name=shown.get(r.student, r.name)) for r in rows]


def table_cells(name: str, second: str, x: Row | GroupTotal) -> list[str]:
    """A line of the games table, as the PDF prints it and the device's screen shows it:
    a group's or a student's name, then ``second`` (its students, or the game), its
    games, wins, points (a group's across games: "—"), answers right and minutes."""
    right = f"{x.right} of {x.checked}"
    return [name, second, str(x.games), str(x.wins), x.points_text, right, x.minutes]


# -- numbers as text -------------------------------------------------------------------------


def decimal_text(value: Fraction, places: int = 2) -> str:
    """``7/2`` -> ``"3.5"``, ``1/3`` -> ``"0.33"``, ``-5`` -> ``"-5"`` (half rounds up),
    exact however large the number (the precision grows with its integer part)."""
    whole = len(str(abs(value.numerator) // value.denominator))
    with localcontext() as context:
        context.prec = max(28, whole + places + 2)
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        text = f"{exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def minutes(seconds: float) -> str:
    """Seconds as minutes with one decimal: ``1350`` -> ``"22.5"`` (a time that is not a
    finite number, which :func:`read_report` never passes on, is ``"?"``)."""
    if not math.isfinite(seconds):
        return "?"
    value = (Decimal(repr(float(seconds))) / 60).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{value:f}"


def game_title(game: str) -> str:
    return GAME_TITLES.get(game, game)


def group_title(group: str) -> str:
    return "Guests" if group == GUESTS else "No group" if group == NO_GROUP else f"Group {group}"


def session_title(session: str | None) -> str:
    if session is None or session == ALL:
        return "all sessions"
    return session or "(no session)"


# -- CSV -------------------------------------------------------------------------------------


def csv_text(rows: Iterable[Row]) -> str:
    """The CSV: a header line (:data:`CSV_COLUMNS`), then one line per row."""
    out = io.StringIO()
    writer = csvsafe.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            [
                r.session,
                r.group,
                r.student,
                r.name,
                r.game,
                r.games,
                r.wins,
                decimal_text(r.points),
                str(r.points),
                ANSWER_KINDS.get(r.game, "answers"),
                r.checked,
                r.right,
                r.minutes,
            ]
        )
    return out.getvalue()


def write_csv(rows: Iterable[Row], file: TextIO | Path | str) -> None:
    """Write the CSV to an open text file, or to a path (UTF-8 with a byte-order mark,
    so spreadsheet programs read accented names right)."""
    text = csv_text(rows)
    if isinstance(file, (str, Path)):
        _write_file(Path(file), ("\ufeff" + text).encode("utf-8"))
    else:
        file.write(text)


# -- PDF -------------------------------------------------------------------------------------

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
        from tabletop.printables.pdf import FONT

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


# -- files -------------------------------------------------------------------------------------


def file_stem(session: str | None) -> str:
    """``report-<session>`` with only file-name-safe characters."""
    label = ALL if session is None else session or "no session"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or "session"
    return f"report-{safe}"


def save_report(
    rows: Sequence[Row],
    folder: Path,
    *,
    session: str | None,
    paper: str = "a4",
    left_out: Sequence[LeftOut] = (),
    skills: Any = None,
) -> tuple[Path, Path]:
    """Write ``report-<session>.csv`` and ``.pdf`` into ``folder`` (made if needed), each
    synced to disk before this returns (a USB stick may be pulled out right after)."""
    stem = file_stem(session)
    csv_path, pdf_path = folder / f"{stem}.csv", folder / f"{stem}.pdf"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TabletopError("report.write", f"cannot write {folder}: {exc.strerror}") from None
    write_csv(rows, csv_path)
    write_pdf(
        report_pdf(rows, session=session, paper=paper, left_out=left_out, skills=skills),
        pdf_path,
    )
    return csv_path, pdf_path


def write_pdf(pdf: FPDF, path: Path) -> None:
    _write_file(path, bytes(pdf.output()))


def _write_file(path: Path, data: bytes) -> None:
    from tabletop.outfiles import write_file

    write_file(path, data, code="report.write")


# -- the command ---------------------------------------------------------------------------


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "report",
        help="the teacher's report of a session: CSV and a printable PDF",
        description=(
            "Per student and game: games, wins, points, answers checked and right, minutes. "
            "With neither --csv nor --pdf, both are written to the current folder."
        ),
    )
    p.add_argument("--data", type=Path, default=None, help="the data folder (as for the app)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", default=None, help="the session (default: the newest)")
    which.add_argument("--all", action="store_true", help="every session together")
    p.add_argument("--csv", type=Path, default=None, help="write the CSV here")
    p.add_argument("--pdf", type=Path, default=None, help="write the PDF here")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="the PDF's paper size")
    p.add_argument(
        "--skills",
        type=Path,
        default=None,
        help="write the skills CSV here: per student and skill, answers checked and right "
        "and each kind of mistake with an example",
    )
    p.set_defaults(run=run)


NOTHING = "nothing written (play a game first, or give --data the folder the app saves in)"


def run(args: argparse.Namespace) -> int:
    """``tabletop report``. No finished games: nothing written, status 2 and one line (the
    files asked for, named or by default, are not made: a script must not think so). An
    unknown ``--session``: status 2 and the sessions there are. The journal is only read
    (a read-only or full card is fine; a damaged journal is status 2, left as it is).
    Each game left out (see :func:`read_report`) is one line on stderr."""
    from tabletop.outfiles import out_file
    from tabletop.store import data_dir

    for out in (args.csv, args.pdf, args.skills):  # before the work, as every command
        if out is not None:
            out_file(out)
    folder = data_dir(args.data)
    if not folder.is_dir():
        raise BadInput("report.data", f"no folder {folder}")
    path = folder / FILE_NAME
    if not path.exists():
        raise TabletopError("report.empty", f"no games saved in {folder} yet: {NOTHING}")
    journal = Journal.read_only(path)
    try:
        known = sessions(journal)
        session: str | None
        if args.all:
            session = None
        elif args.session is not None:
            if args.session not in known:
                there = ", ".join(session_title(s) for s in known) or "none yet"
                raise BadInput(
                    "report.session", f"no games in session {args.session!r}; sessions: {there}"
                )
            session = args.session
        elif known:
            session = known[0]
        else:
            session = None
        found = read_report(journal, session)
        rows = found.rows
        extra = None
        if args.pdf is not None or (args.csv is None and args.skills is None):
            from tabletop.classroom.skills import skills_pages

            extra = skills_pages(journal, session)
        if args.skills is not None and rows:
            from tabletop.classroom.skills import gather_skills, write_skills_csv

            skill_rows = gather_skills(journal, session)
            write_skills_csv(skill_rows, args.skills)
            print(f"wrote {args.skills} ({plural(len(skill_rows), 'student skill')})")
    finally:
        journal.close()
    for game in found.left_out:
        print(f"tabletop report: {game.sentence()}", file=sys.stderr)
    if found.hidden:
        numbers = ", ".join(str(g.match) for g in found.hidden)
        print(f"tabletop report: hidden by the teacher: game {numbers}", file=sys.stderr)
    if not rows:
        raise TabletopError("report.empty", f"no finished games in {path} yet: {NOTHING}")
    csv_out, pdf_out = args.csv, args.pdf
    if csv_out is None and pdf_out is None and args.skills is None:
        stem = file_stem(session)
        csv_out, pdf_out = Path(f"{stem}.csv"), Path(f"{stem}.pdf")
    groups = len({r.group for r in rows})
    if csv_out is not None:
        write_csv(rows, csv_out)
        print(f"wrote {csv_out} ({plural(len(rows), 'row')}, {session_title(session)})")
    if pdf_out is not None:
        pdf = report_pdf(
            rows, session=session, paper=args.paper, left_out=found.left_out, skills=extra
        )
        write_pdf(pdf, pdf_out)
        print(
            f"wrote {pdf_out} ({plural(pdf.pages_count, 'page')}, "
            f"{plural(groups, 'group')}, {args.paper.upper()})"
        )
    return 0


# -- inside ----------------------------------------------------------------------------------


def _group_order(group: str) -> tuple[int, str]:
    return (2 if group == GUESTS else 1 if group == NO_GROUP else 0, group.casefold())


def _row_order(row: Row) -> tuple[Any, ...]:
    games = list(GAME_TITLES)
    return (
        _group_order(row.group),
        row.name.casefold(),
        row.student,
        games.index(row.game) if row.game in games else len(games),
        row.game,
    )


class _Unreportable(ValueError):
    """A stored game's figures cannot be reported (the message says why)."""


MAX_SCORE = 10**9  # a score's size (numerator, denominator) a report takes
MAX_CHECKS = 10**6  # answers checked per seat in one game
MAX_SECONDS = 7 * 24 * 3600.0  # one game's time played
_EXACT = re.compile(r"-?[0-9]{1,10}(/[0-9]{1,10})?")


def _figures(
    meta_text: Any, result_text: Any, elapsed: Any
) -> tuple[list[Fraction], set[int], list[tuple[int, int]], float]:
    """A finished game's scores, winning seats, (checked, right) per seat and seconds,
    each checked; :class:`_Unreportable` says what is wrong."""
    result = _stored_object(result_text, "its result")
    meta = _stored_object(meta_text, "its saved details")
    raw_scores = result.get("scores", [])
    if not isinstance(raw_scores, list):
        raise _Unreportable(f"its scores {_short(raw_scores)} are not a list")
    scores = [_score(v) for v in raw_scores]
    listed = _seats(result.get("winners"), "winners")
    if listed is None:
        places = _seats(result.get("places"), "places") or []
        listed = [seat for seat, place in enumerate(places) if place == 1]
    winners = set(listed)
    raw_checks = meta.get("checks", [])
    if not isinstance(raw_checks, list):
        raise _Unreportable(f"its answers checked {_short(raw_checks)} are not a list")
    checks = [_check(c) for c in raw_checks]
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)):
        raise _Unreportable(f"its time played {_short(elapsed)} is not a number")
    if not 0 <= elapsed <= MAX_SECONDS:  # also NaN and infinity
        raise _Unreportable(f"its time played {_short(elapsed)} seconds is out of range")
    return scores, winners, checks, float(elapsed)


def _stored_object(text: Any, what: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise _Unreportable(f"{what} cannot be read") from None
    if not isinstance(value, dict):
        raise _Unreportable(f"{what} cannot be read")
    return value


def _score(value: Any) -> Fraction:
    """An exact score: an integer, or the text of one or of a fraction (``"-7/2"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value) if abs(value) <= MAX_SCORE else ""
    else:
        text = value if isinstance(value, str) else ""
    if not _EXACT.fullmatch(text):
        raise _Unreportable(f"a score {_short(value)} is not an exact number in range")
    try:
        score = Fraction(text)  # the pattern keeps both parts small
    except ZeroDivisionError:
        raise _Unreportable(f"a score {_short(value)} divides by zero") from None
    if abs(score.numerator) > MAX_SCORE or score.denominator > MAX_SCORE:
        raise _Unreportable(f"a score {_short(value)} is out of range")
    return score


def _seats(value: Any, what: str) -> list[int] | None:
    """Seat numbers (``winners``) or places: small non-negative integers; None if absent."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100 for v in value
    ):
        raise _Unreportable(f"its {what} {_short(value)} are not seat numbers")
    return list(value)


def _check(value: Any) -> tuple[int, int]:
    """One seat's (checked, right): counts, right no more than checked."""
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 0 <= value[1] <= value[0] <= MAX_CHECKS
    ):
        return int(value[0]), int(value[1])
    raise _Unreportable(f"its answers checked {_short(value)} are not counts")


def _short(value: Any) -> str:
    """A stored value as it can be named in one line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = [
    "ALL",
    "ANSWER_KINDS",
    "CSV_COLUMNS",
    "FOLDER",
    "GAME_TITLES",
    "GUESTS",
    "NO_GROUP",
    "GroupTotal",
    "LeftOut",
    "Play",
    "Report",
    "Row",
    "add_parser",
    "csv_text",
    "decimal_text",
    "file_stem",
    "gather",
    "group_totals",
    "hidden_matches",
    "hide",
    "minutes",
    "read_report",
    "report_pdf",
    "run",
    "save_report",
    "sessions",
    "table_cells",
    "write_csv",
    "write_pdf",
]
