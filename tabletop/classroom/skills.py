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

import csv
import io
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from tabletop.classroom.mistakes import (
    KINDS,
    SKILLS,
    Question,
    classify,
    number_text,
)
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
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not a question: {exc}") from None
    return Question(skill, numbers, ops, None if right is None else Fraction(str(right)), order)


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
    from tabletop.classroom.report import ALL, GUESTS, NO_GROUP, _group_order

    label = ALL if session is None else session
    acc: dict[tuple[str, str, str, str], SkillRow] = {}
    for stored in _answers(journal, session):
        _, _, skill, student, name, group, _, _, _, _ = stored
        key = (student, group or NO_GROUP, skill, "") if student else ("", GUESTS, skill, name)
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
        _, session, skill, who, shown, _, given, answer, at, _ = stored
        key = (who or "", "" if who else shown, skill)
        tally = per.setdefault(key, {}).setdefault(session, [0, 0])
        tally[0] += 1
        tally[1] += int(_same(given, answer))
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


def trend_text(points: Sequence[tuple[str, int, int]]) -> str:
    """``"50% → 67% → 80%"`` (right of checked, per session, oldest first)."""
    return " → ".join(f"{round(100 * r / c)}%" for _, c, r in points if c) or "—"


def _answers(journal: Journal, session: str | None) -> list[tuple[Any, ...]]:
    """(match, session, skill, student, name, group, given, answer, started, question) of
    every answer checked in a finished game for a person (bots left out)."""
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
    return [tuple(r) for r in rows]


def _same(given: str, answer: str) -> bool:
    try:
        return Fraction(given) == Fraction(answer)
    except (ValueError, ZeroDivisionError):
        return False


def _count(row: SkillRow, stored: tuple[Any, ...]) -> None:
    match_id, _, skill, _, _, _, given_text, answer_text, _, question_text = stored
    row.checked += 1
    try:
        given, answer = Fraction(given_text), Fraction(answer_text)
    except (ValueError, ZeroDivisionError):
        log.warning("skills: match %d has an answer %r that is not a number", match_id, given_text)
        return
    if given == answer:
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


# -- CSV -------------------------------------------------------------------------------------


def skills_csv_text(rows: Iterable[SkillRow]) -> str:
    """The skills CSV: a header (:data:`SKILLS_CSV_COLUMNS`), then per student and skill
    one line per kind of mistake, most common first (or one line with none)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
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
    from tabletop.classroom.report import _write_file

    text = skills_csv_text(rows)
    if isinstance(file, (str, Path)):
        _write_file(Path(file), ("\ufeff" + text).encode("utf-8"))
    else:
        file.write(text)


__all__ = [
    "LEVEL_COLOURS",
    "SKILLS_CSV_COLUMNS",
    "TREND_SESSIONS",
    "SkillRow",
    "answer_record",
    "gather_skills",
    "level",
    "question_of",
    "skills_csv_text",
    "trend",
    "trend_text",
    "trends",
    "write_skills_csv",
]
