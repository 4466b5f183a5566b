"""The skills report (issue 24): per student and skill, answers checked and right, the
most common kind of mistake with the child's own example, and the trend over sessions.

Read from the journal's ``answers`` table (:mod:`tabletop.store`, schema 5): every
answer the device checked, with its question. The kind of each wrong answer comes from
:mod:`tabletop.classroom.mistakes`. Who counts follows the class report
(:mod:`tabletop.classroom.report`): answers of finished games only, bots left out, a
signed-in student by id in the group they played in, a guest by name in "guests".

The CSV (:func:`skills_csv_text`, ``tabletop report --skills FILE.csv``) has the columns
:data:`SKILLS_CSV_COLUMNS`: one line per student, skill and kind of mistake (most common
first) with how many answers were of that kind and the first example; a skill with no
wrong answer is one line with an empty ``error_kind`` and ``count`` 0.
"""

from __future__ import annotations

import io
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from tabletop import csvsafe
from tabletop.classroom.dice_lesson import Fairness
from tabletop.classroom.mistakes import (
    KINDS,
    SKILLS,
    Question,
    classify,
    number_text,
)
from tabletop.engine.words import sentence
from tabletop.store import AnswerRecord, Journal

log = logging.getLogger(__name__)

SKILLS_CSV_COLUMNS = (
    "session",
    "group",
    "student_id",
    "name",
    "skill",
    "checked",
    "right",
    "error_kind",
    "count",
    "example",
)
TREND_SESSIONS = 5  # the trend shows this many of the newest sessions
# The skills grid's colours (Okabe-Ito, safe for colour-blind eyes), always with the word.
LEVEL_COLOURS = {
    "secure": (0, 114, 178),  # blue: 4 of 5 right or more
    "growing": (230, 159, 0),  # orange: half right or more
    "practise": (213, 94, 0),  # vermillion: fewer than half right
    "no answers": (205, 205, 210),
}


def answer_record(
    seat: int,
    step: int | None,
    question: Question,
    given: Fraction | int,
    seconds: float | None = None,
) -> AnswerRecord:
    """A checked answer as the journal keeps it."""
    return AnswerRecord(
        seat=seat,
        step=step,
        skill=question.skill,
        question={
            "numbers": [str(n) for n in question.numbers],
            "ops": list(question.ops),
            "order": question.order,
            "right": None if question.right is None else str(question.right),
            **({} if question.broken is None else {"broken": question.broken}),
            **({} if not question.shape else {"shape": list(question.shape)}),
        },
        given=str(Fraction(given)),
        answer=str(question.answer),
        seconds=None if seconds is None else round(float(seconds), 3),
    )


def question_of(skill: str, stored: dict[str, Any]) -> Question:
    """The :class:`Question` of a journaled answer (ValueError if it is not one)."""
    try:
        numbers = tuple(Fraction(str(n)) for n in stored["numbers"])
        ops = tuple(str(op) for op in stored["ops"])
        right = stored.get("right")
        order = str(stored.get("order") or "precedence")
        broken = stored.get("broken")
        shape = tuple(str(t) for t in stored.get("shape") or ())
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not a question: {exc}") from None
    return Question(
        skill,
        numbers,
        ops,
        None if right is None else Fraction(str(right)),
        order,
        None if broken is None else str(broken),
        shape,
    )


@dataclass
class SkillRow:
    """One student (or guest name) in one group and one skill, over the session."""

    student: str
    name: str
    group: str
    skill: str
    session: str
    checked: int = 0
    right: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # kind -> first example
    total: bool = False  # a group's total (group_skills), not one student

    @property
    def common(self) -> str | None:
        """The most common kind of mistake (ties: the order of KINDS), or None."""
        if not self.kinds:
            return None
        order = list(KINDS)
        return min(self.kinds, key=lambda k: (-self.kinds[k], order.index(k)))

    @property
    def ranked(self) -> list[str]:
        order = list(KINDS)
        return sorted(self.kinds, key=lambda k: (-self.kinds[k], order.index(k)))

    def mistake(self) -> str:
        """The most common kind of mistake with its example (and how often, when more
        than once), as the PDF report and the skills screen show it."""
        kind = self.common
        if kind is None:
            return "No mistakes."
        times = f" ({self.kinds[kind]} times)" if self.kinds[kind] > 1 else ""
        return f"{KINDS[kind][0]}{times}: {self.examples[kind]}"

    def sentence(self) -> str:
        """The most common kind of mistake in a teacher's words, with its example."""
        kind = self.common
        if kind is None:
            return "no mistakes" if self.checked else "no answers"
        n = self.kinds[kind]
        return f"{KINDS[kind][0]} ({n} of {self.checked - self.right}): {self.examples[kind]}"


# -- reading the journal -------------------------------------------------------------------

_FINISHED = "m.status = 'finished' AND m.reason IN ('end', 'time')"


def gather_skills(journal: Journal, session: str | None = None) -> list[SkillRow]:
    """The skills rows for ``session`` (None: every session together), in report order."""
    from tabletop.classroom.report_rows import ALL, _group_order

    label = ALL if session is None else session
    acc: dict[tuple[str, str, str, str], SkillRow] = {}
    for stored in _answers(journal, session):
        _, _, skill, student, name, group, _, _, _, _ = stored
        key = (student or "", group, skill, "" if student else name)
        row = acc.get(key)
        if row is None:
            row = acc[key] = SkillRow(key[0], name, key[1], skill, label)
        row.name = name
        _count(row, stored)
    roster = {str(r[0]): str(r[1]) for r in journal.db.execute("SELECT id, name FROM students")}
    skills = list(SKILLS)
    for row in acc.values():
        if row.student:
            row.name = roster.get(row.student, row.name)
    return sorted(
        acc.values(),
        key=lambda r: (
            _group_order(r.group),
            r.name.casefold(),
            r.student,
            skills.index(r.skill) if r.skill in skills else len(skills),
            r.skill,
        ),
    )


def group_skills(rows: Iterable[SkillRow]) -> list[SkillRow]:
    """Per group and skill, its students' rows added up (answers, right, every kind of
    mistake with its first example); ``name`` is the group's title, ``student`` empty.
    In report order (groups as the class report orders them, skills as :data:`SKILLS`)."""
    from tabletop.classroom.report_rows import _group_order, group_title

    out: dict[tuple[str, str], SkillRow] = {}
    for r in rows:
        total = out.get((r.group, r.skill))
        if total is None:
            total = out[(r.group, r.skill)] = SkillRow(
                "", group_title(r.group), r.group, r.skill, r.session, total=True
            )
        total.checked += r.checked
        total.right += r.right
        total.kinds.update(r.kinds)
        for kind, example in r.examples.items():
            total.examples.setdefault(kind, example)
    skills = list(SKILLS)
    return sorted(
        out.values(),
        key=lambda t: (
            _group_order(t.group),
            skills.index(t.skill) if t.skill in skills else len(skills),
            t.skill,
        ),
    )


def trend(
    journal: Journal, student: str, name: str, skill: str, last: int = TREND_SESSIONS
) -> list[tuple[str, int, int]]:
    """(session, checked, right) of one student (by id; a guest by ``name``) in one
    skill over the newest ``last`` sessions they answered in, oldest first."""
    return trends(journal, last).get((student, "" if student else name, skill), [])


def trends(
    journal: Journal, last: int = TREND_SESSIONS
) -> dict[tuple[str, str, str], list[tuple[str, int, int]]]:
    """Every trend at once: (student id, guest name or "", skill) -> (session, checked,
    right) over the newest ``last`` sessions of each, oldest first."""
    per: dict[tuple[str, str, str], dict[str, list[int]]] = {}
    started: dict[str, float] = {}
    for stored in _answers(journal, None):
        _, session, skill, who, shown, group, given, answer, at, question = stored
        right = int(_right(given, answer, question))
        for key in ((who or "", "" if who else shown, skill), group_key(group, skill)):
            tally = per.setdefault(key, {}).setdefault(session, [0, 0])
            tally[0] += 1
            tally[1] += right
        started[session] = max(started.get(session, at), at)
    out = {}
    for key, sessions in per.items():
        newest = sorted(sessions, key=lambda s: started[s])[-last:]
        out[key] = [(s, sessions[s][0], sessions[s][1]) for s in newest]
    return out


def level(checked: int, right: int) -> str:
    """A word for how a skill goes (shown with its colour, :data:`LEVEL_COLOURS`)."""
    if checked == 0:
        return "no answers"
    share = Fraction(right, checked)
    return (
        "secure"
        if share >= Fraction(4, 5)
        else "growing"
        if share >= Fraction(1, 2)
        else "practise"
    )


def group_key(group: str, skill: str) -> tuple[str, str, str]:
    """A group's key among :func:`trends` (no student id starts with a NUL)."""
    return ("\0group", group or "", skill)


def row_trend(trends: dict[tuple[str, str, str], list[tuple[str, int, int]]], r: SkillRow) -> str:
    """A row's trend as text: a student's, or a group's over its students' answers."""
    key = (
        group_key(r.group, r.skill)
        if r.total
        else (r.student, "" if r.student else r.name, r.skill)
    )
    return trend_text(trends.get(key, []))


def trend_text(points: Sequence[tuple[str, int, int]]) -> str:
    """``"50% → 67% → 80%"`` (right of checked, per session, oldest first)."""
    return " → ".join(f"{round(100 * r / c)}%" for _, c, r in points if c) or "—"


def _answers(journal: Journal, session: str | None) -> list[tuple[Any, ...]]:
    """(match, session, skill, student, name, group, given, answer, started, question) of
    every answer checked in a finished game for a person (bots left out), but for the
    games the teacher hid from reports (as the class report leaves them out); ``group``
    as the rows name it: the student's, :data:`NO_GROUP`, or a guest's :data:`GUESTS`."""
    from tabletop.classroom.report_rows import GUESTS, NO_GROUP, hidden_matches

    hidden = hidden_matches(journal)
    where = _FINISHED
    args: tuple[str, ...] = ()
    if session is not None:
        where, args = where + " AND m.session = ?", (session,)
    rows = journal.db.execute(
        "SELECT a.match_id, m.session, a.skill, s.student, s.name, s.grp, a.given, a.answer,"
        " m.started, a.question FROM answers a JOIN matches m ON m.id = a.match_id"
        " JOIN seats s ON s.match_id = a.match_id AND s.seat = a.seat"
        f" WHERE {where} AND s.bot IS NULL ORDER BY a.match_id, a.id",
        args,
    ).fetchall()
    return [
        (*r[:5], (r[5] or NO_GROUP) if r[3] else GUESTS, *r[6:]) for r in rows if r[0] not in hidden
    ]


def _right(given: str, answer: str, question: str) -> bool:
    """A journaled answer is right: the answer given, and no rule broken (MM lines)."""
    try:
        same = Fraction(given) == Fraction(answer)
    except (ValueError, ZeroDivisionError):
        return False
    try:
        stored = json.loads(question)
    except ValueError:
        return same  # right, whatever its (damaged) question says
    return same and not (isinstance(stored, dict) and stored.get("broken"))


def _count(row: SkillRow, stored: tuple[Any, ...]) -> None:
    match_id, _, skill, _, _, _, given_text, answer_text, _, question_text = stored
    row.checked += 1
    try:
        given, answer = Fraction(given_text), Fraction(answer_text)
    except (ValueError, ZeroDivisionError):
        log.warning("skills: match %d has an answer %r that is not a number", match_id, given_text)
        return
    if _right(given_text, answer_text, question_text):
        row.right += 1
        return
    try:
        stored_q = json.loads(question_text)
        q = question_of(skill, stored_q if isinstance(stored_q, dict) else {})
        mistake = classify(q, given)
    except ValueError as exc:
        log.warning("skills: match %d has a question the report cannot read: %s", match_id, exc)
        mistake = None
    if mistake is None:  # the journal's answer and the question disagree: still wrong
        row.kinds["other"] += 1
        row.examples.setdefault(
            "other", f"answered {number_text(given)}; the answer is {number_text(answer)}"
        )
        return
    row.kinds[mistake.kind] += 1
    row.examples.setdefault(mistake.kind, mistake.example)


# -- the classroom fleet ----------------------------------------------------------------------


def answers_for_message(db: Any, match_id: int) -> list[dict[str, Any]]:
    """A finished match's journaled answers as plain objects, for its result message (a
    station sends them to the teacher's console in ``meta["answers"]``)."""
    rows = db.execute(
        "SELECT seat, step, skill, question, given, answer, seconds FROM answers"
        " WHERE match_id = ? ORDER BY id",
        (match_id,),
    )
    out = []
    for seat, step, skill, question, given, answer, seconds in rows:
        try:
            stored = json.loads(question)
        except ValueError:
            stored = {}
        out.append(
            {
                "seat": seat,
                "step": step,
                "skill": skill,
                "question": stored if isinstance(stored, dict) else {},
                "given": given,
                "answer": answer,
                "seconds": seconds,
            }
        )
    return out


def store_answers(db: Any, match_id: int, items: Any, now: float) -> int:
    """Journal the answers a result message carried for match ``match_id`` (inside the
    caller's transaction); an item that is not an answer is logged and skipped. Returns
    how many were stored."""
    if not isinstance(items, list):
        return 0
    rows = []
    for item in items:
        try:
            seat, skill = int(item["seat"]), str(item["skill"])
            given, answer = str(Fraction(str(item["given"]))), str(Fraction(str(item["answer"])))
            question = item["question"]
            if not isinstance(question, dict):
                raise TypeError("the question is not an object")
            step = None if item.get("step") is None else int(item["step"])
            seconds = None if item.get("seconds") is None else float(item["seconds"])
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            log.warning("skills: match %d: an answer %r is not one (%s)", match_id, item, exc)
            continue
        rows.append(
            (
                match_id,
                seat,
                step,
                skill,
                json.dumps(question, sort_keys=True),
                given,
                answer,
                seconds,
                now,
            )
        )
    db.executemany(
        "INSERT INTO answers (match_id, seat, step, skill, question, given, answer, seconds, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


# -- PDF -------------------------------------------------------------------------------------


@dataclass
class SkillsPages:
    """What the printed report's skills and dice pages show (read while the journal is
    open, drawn later by :func:`add_skills_pages`)."""

    rows: list[SkillRow]
    trends: dict[tuple[str, str, str], list[tuple[str, int, int]]]
    dice: Fairness


def skills_pages(journal: Journal, session: str | None) -> SkillsPages:
    from tabletop.classroom.dice_lesson import fairness, read_dice

    return SkillsPages(
        gather_skills(journal, session), trends(journal), fairness(read_dice(journal, session))
    )


LEVEL_WORDS = {  # the grid's legend
    "secure": "4 of 5 right or more",
    "growing": "half right or more",
    "practise": "fewer than half right",
}


def add_skills_pages(page: Any, extra: SkillsPages) -> None:
    """The printed report's last pages (``page``: the class report's page cursor): the
    skills grid (a row per student, a column per skill; each cell right of checked and a
    level word on its colour-blind-safe colour), each student's most common mistake per
    skill with the trend, then the dice-fairness page."""
    from tabletop.classroom.report_pdf import MUTED
    from tabletop.classroom.report_rows import group_title, told_apart_rows

    if extra.rows:
        page.new("Skills")
        page.heading("Skills: what each child found hard")
        students: dict[tuple[str, str, str], dict[str, SkillRow]] = {}
        for r in told_apart_rows(extra.rows):  # every group in one grid: "Mia (4b)"
            students.setdefault((r.group, r.student, r.name), {})[r.skill] = r
        groups: dict[tuple[str, str, str], dict[str, SkillRow]] = {}
        for t in group_skills(extra.rows):
            groups.setdefault((t.group, "", t.name), {})[t.skill] = t
        used = [k for k in SKILLS if any(k in cells for cells in students.values())]
        used += sorted({r.skill for r in extra.rows} - set(used))
        _grid(page, groups, used, "Group")
        page.gap(3)
        _grid(page, students, used)
        page.gap(3)
        _legend(page)
        page.gap(5)
        page.line(
            "The most common mistake per skill, and the trend over the last lessons", 12, bold=True
        )
        for group in dict.fromkeys(r.group for r in extra.rows):
            for r in told_apart_rows([x for x in extra.rows if x.group == group]):  # "Mia (S3)"
                _mistake_row(
                    page,
                    [
                        f"{r.name} ({group_title(r.group)})",
                        SKILLS.get(r.skill, r.skill),
                        f"{r.right} of {r.checked} right",
                        f"trend {row_trend(extra.trends, r)}",
                    ],
                    r.mistake(),
                )
        page.gap(3)
        page.paragraph(
            "Kinds of mistake: "
            + "; ".join(f"{title}: {meaning}" for title, meaning in KINDS.values())
            + ".",
            8.5,
            MUTED,
        )
    _dice_page(page, extra.dice)


def _grid(
    page: Any,
    students: dict[tuple[str, str, str], dict[str, SkillRow]],
    used: list[str],
    first: str = "Student",
) -> None:
    from tabletop.classroom.report_pdf import INK, ROW_H
    from tabletop.printables.pdf import READABLE, fit_text, text_lines

    pdf, x0 = page.pdf, 15.0
    name_w = page.inner * 0.2
    cell_w = (page.inner - name_w) / max(1, len(used))
    cell_h = ROW_H * 1.7

    def head() -> None:
        fit_text(pdf, first, x0 + 1.5, page.y + 3, name_w - 3, ROW_H, size=10, bold=True, align="L")
        for i, skill in enumerate(used):
            x, title = x0 + name_w + i * cell_w + 1, SKILLS.get(skill, skill)
            fit_text(
                pdf, title, x, page.y + 1, cell_w - 2, ROW_H + 2, size=9, least=READABLE, bold=True
            )
        page.y += ROW_H + 3

    page.room(ROW_H + cell_h)
    head()
    for (_, _, name), cells in students.items():
        _, lines = text_lines(pdf, name, name_w - 3, size=10, least=READABLE)
        h = cell_h + max(0, len(lines) - 2) * (cell_h / 2 - 1.2)  # a long name: a line more
        if page.y + h > page.height - 15.0:
            page.more()
            head()
        fit_text(pdf, name, x0 + 1.5, page.y, name_w - 3, h, size=10, least=READABLE, align="L")
        top = page.y + (h - cell_h) / 2  # a cell's two lines, in the middle
        for i, skill in enumerate(used):
            x = x0 + name_w + i * cell_w
            r = cells.get(skill)
            word = "no answers" if r is None else level(r.checked, r.right)
            colour = LEVEL_COLOURS[word]
            pdf.set_fill_color(*colour)
            pdf.rect(x + 0.6, page.y + 0.6, cell_w - 1.2, h - 1.2, "F")
            ink = (0, 0, 0) if word in ("growing", "no answers") else (255, 255, 255)
            if r is None:
                fit_text(pdf, "—", x + 1, page.y, cell_w - 2, h, size=9, colour=ink)
                continue
            fit_text(
                pdf,
                f"{r.right} of {r.checked}",
                x + 1,
                top + 0.8,
                cell_w - 2,
                cell_h / 2,
                size=10,
                bold=True,
                colour=ink,
            )
            fit_text(
                pdf,
                word,
                x + 1,
                top + cell_h / 2 - 0.4,
                cell_w - 2,
                cell_h / 2,
                size=9,
                colour=ink,
            )
        page.y += h
    pdf.set_draw_color(*INK)


def _mistake_row(page: Any, cells: list[str], mistake: str) -> None:
    """Student, skill, right, trend on one line (a long student's "(group)" under the
    name); the most common mistake under them."""
    from tabletop.classroom.report_pdf import LIGHT, ROW_H
    from tabletop.printables.pdf import READABLE, fit_text, text_lines

    shares = (0.3, 0.26, 0.2, 0.24)
    name_w = page.inner * shares[0] - 3
    size, lines = text_lines(page.pdf, cells[0], name_w, size=10, least=READABLE, bold=True)
    page.room(ROW_H * (1 + len(lines)) + 1)
    x = 15.0 + page.inner * shares[0]
    for text, share in zip(cells[1:], shares[1:], strict=True):
        w = page.inner * share
        fit_text(page.pdf, text, x + 1.5, page.y, w - 3, ROW_H, size=10, align="L")
        x += w
    for j, text in enumerate(lines):  # the name, its further line(s), then its "(group)"
        page.y += ROW_H - 1.5 if j else 0
        fit_text(page.pdf, text, 15.0 + 1.5, page.y, name_w, ROW_H, size=size, bold=True, align="L")
    page.y += ROW_H - 1
    fit_text(page.pdf, mistake, 15.0 + 6, page.y, page.inner - 7.5, ROW_H, size=9.5, align="L")
    page.y += ROW_H
    page.pdf.set_draw_color(*LIGHT)
    page.pdf.set_line_width(0.2)
    page.pdf.line(15.0, page.y, 15.0 + page.inner, page.y)
    page.y += 1


def _legend(page: Any) -> None:
    from tabletop.classroom.report_pdf import MUTED
    from tabletop.printables.pdf import fit_text

    page.room(7)
    x = 15.0
    for word, meaning in LEVEL_WORDS.items():
        page.pdf.set_fill_color(*LEVEL_COLOURS[word])
        page.pdf.rect(x, page.y + 0.8, 5, 4.4, "F")
        fit_text(
            page.pdf, f"{word}: {meaning}", x + 6.5, page.y, 52, 6, size=9, colour=MUTED, align="L"
        )
        x += 60
    page.y += 7


def _dice_page(page: Any, dice: Fairness) -> None:
    from tabletop.classroom.report_pdf import BLUE, INK, MUTED
    from tabletop.printables.pdf import fit_text

    if dice.rolls == 0:
        return
    page.new("Dice")
    page.heading("Are our dice fair?")
    page.line(f"Every die the device read in this lesson: {dice.rolls} rolls", 11, colour=MUTED)
    page.gap(4)
    pdf = page.pdf
    chart_h, left = 80.0, 15.0 + 10
    width = page.inner - 20
    top = max(max(dice.counts), dice.rolls / 6) * 1.15
    slot = width / 6
    base = page.y + chart_h
    expected_y = base - chart_h * (dice.rolls / 6) / top
    pdf.set_draw_color(*MUTED)
    pdf.set_line_width(0.4)
    pdf.set_dash_pattern(dash=2, gap=1.5)
    pdf.line(left, expected_y, left + width, expected_y)  # first: the bars cover it
    pdf.set_dash_pattern()
    fit_text(pdf, "even", 15.0, expected_y - 2.5, left - 16.0, 5, size=8, colour=MUTED, align="R")
    for face, count in enumerate(dice.counts, start=1):
        h = chart_h * count / top
        x = left + (face - 1) * slot + slot / 6
        pdf.set_fill_color(*BLUE)
        if h > 0:
            pdf.rect(x, base - h, slot * 2 / 3, h, "F")
        inside = h >= 9
        fit_text(
            pdf,
            str(count),
            x,
            base - h + 1 if inside else base - h - 7,
            slot * 2 / 3,
            6,
            size=12,
            bold=True,
            colour=(255, 255, 255) if inside else INK,
        )
        fit_text(pdf, str(face), x, base + 1, slot * 2 / 3, 9, size=18, bold=True, colour=INK)
    pdf.set_draw_color(*INK)
    pdf.line(left, base, left + width, base)
    page.y = base + 14
    page.paragraph(sentence(dice.sentence()), 13, INK)
    page.gap(4)
    page.paragraph(
        f"How this is worked out: each face would come up {decimal(dice.rolls, 6)} times if the "
        f"dice were perfectly even. The chi-square test adds up how far each count is from "
        f"that (chi-square = {float(dice.chi2):.2f}, 5 degrees of freedom) and asks how often "
        f"fair dice would land at least this unevenly"
        + ("" if dice.p is None else f" (p = {dice.p:.2f})")
        + ". Dice the device rolled itself are not counted.",
        9.5,
        MUTED,
    )


def decimal(n: int, d: int) -> str:
    from tabletop.classroom.report_rows import decimal_text

    return decimal_text(Fraction(n, d), 1)


# -- CSV -------------------------------------------------------------------------------------


def skills_csv_text(rows: Iterable[SkillRow]) -> str:
    """The skills CSV: a header (:data:`SKILLS_CSV_COLUMNS`), then per student and skill
    one line per kind of mistake, most common first (or one line with none)."""
    out = io.StringIO()
    writer = csvsafe.writer(out, lineterminator="\r\n")
    writer.writerow(SKILLS_CSV_COLUMNS)
    for r in rows:
        head = [r.session, r.group, r.student, r.name, r.skill, r.checked, r.right]
        if not r.kinds:
            writer.writerow([*head, "", 0, ""])
        for kind in r.ranked:
            writer.writerow([*head, kind, r.kinds[kind], r.examples[kind]])
    return out.getvalue()


def write_skills_csv(rows: Iterable[SkillRow], file: TextIO | Path | str) -> None:
    """Write the skills CSV to an open file, or to a path (UTF-8 with a byte-order mark,
    synced to disk, as the class report's CSV)."""
    from tabletop.classroom.report import _csv_file, _write_files

    text = skills_csv_text(rows)
    if isinstance(file, (str, Path)):
        _write_files({Path(file): _csv_file(text)})
    else:
        file.write(text)


__all__ = [
    "LEVEL_COLOURS",
    "SKILLS_CSV_COLUMNS",
    "TREND_SESSIONS",
    "SkillRow",
    "SkillsPages",
    "add_skills_pages",
    "answer_record",
    "answers_for_message",
    "gather_skills",
    "group_key",
    "group_skills",
    "level",
    "question_of",
    "row_trend",
    "skills_csv_text",
    "skills_pages",
    "store_answers",
    "trend",
    "trend_text",
    "trends",
    "write_skills_csv",
]
