"""The teacher's report, its figures: per student and per group, what a lesson's games
came to.

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

The CSV, the files and ``tabletop report`` are :mod:`tabletop.classroom.report`'s; the
PDF is :mod:`tabletop.classroom.report_pdf`'s. Import from :mod:`tabletop.classroom.report`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from tabletop.classroom.students import Student, shown_names
from tabletop.engine.errors import BadInput
from tabletop.store import Journal

if TYPE_CHECKING:
    from tabletop.classroom.skills import SkillRow

log = logging.getLogger("tabletop.classroom.report")  # the report's log lines, one name
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
    "GAME_TITLES",
    "GUESTS",
    "NO_GROUP",
    "GroupTotal",
    "LeftOut",
    "Play",
    "Report",
    "Row",
    "decimal_text",
    "game_title",
    "gather",
    "group_title",
    "group_totals",
    "hidden_matches",
    "hide",
    "minutes",
    "read_report",
    "session_title",
    "sessions",
    "table_cells",
    "told_apart_rows",
]
