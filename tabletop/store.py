"""The game journal: every applied action is on disk before the screen shows it.

One SQLite file in WAL mode with ``synchronous=FULL`` (``<data>/tabletop.sqlite3``;
``<data>`` is ``$TABLETOP_DATA`` or the platform's data folder, or a folder given by
``--data``). A match is a row in ``matches`` (its log header: game, seats, seed,
settings; a label to find it again; app data such as seat names; the seconds played)
and one row per applied action in ``actions`` (the same JSON line as the match log,
digest included). So a journal *is* a match log, and resuming is
:meth:`Match.replay`: the state after every journaled action, checked digest by digest.

Writing is :meth:`Journal.sync` after each change to a match (apply, deal or undo): it
makes the stored actions equal to the match's history in one transaction, and returns
only once SQLite has synced the WAL to disk. A process killed at any moment leaves every
synced action stored, and nothing half-written.

The same file holds the classroom (schema version 3): ``seats`` (who played where in
each match, with the student's id when they signed in), ``students`` (the class list),
``plans`` and ``rotations`` (the teacher's station rotations and the running clock),
and each match's ``session`` (the lesson it belongs to). :mod:`tabletop.classroom`
reads and writes those (:meth:`Journal.transaction`); this module owns the games' tables.

Schema version 4 adds the classroom fleet's tables: ``outbox`` (a station's results
waiting for the teacher's console to say it stored them), ``fleet_results`` and
``fleet_state`` (the teacher's console).
:attr:`Journal.on_finished` lets the fleet add a finished game's result to the outbox
inside the transaction that finishes it, so a result is never lost nor queued twice.

The file itself is :mod:`tabletop.store_file`'s: its schema (:mod:`tabletop.store_schema`),
a damaged or newer file moved aside, and a card that stops taking writes (the journal
then goes on in memory, and :attr:`Journal.trouble` says so). :meth:`Journal.read_only`
opens a journal only to read it (``tabletop report``): on a read-only card, and without
ever changing the file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tabletop.engine.errors import CorruptLog, TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Game, Result
from tabletop.store_file import JournalFile, _write_failed

log = logging.getLogger(__name__)

FILE_NAME = "tabletop.sqlite3"
T = TypeVar("T")
STATUSES = ("playing", "finished", "abandoned", "broken")


@dataclass(frozen=True)
class SeatInfo:
    """Who plays at one seat (0-based), as journaled with the match: the name shown,
    the student's id when signed in (badge or tap), their group then, a bot's level."""

    seat: int
    name: str
    student: str | None = None
    group: str = ""
    bot: str | None = None


@dataclass(frozen=True)
class AnswerRecord:
    """One answer the device checked, as journaled: ``question`` holds ``numbers`` (exact,
    as strings), ``ops`` and ``order`` (see :mod:`tabletop.classroom.mistakes`);
    ``given`` and ``answer`` are exact values as strings; ``step``: the match's action
    count when it was given (None: not tied to one)."""

    seat: int
    step: int | None
    skill: str
    question: Mapping[str, Any]
    given: str
    answer: str
    seconds: float | None = None


def data_dir(override: Path | str | None = None) -> Path:
    """``override``, else ``$TABLETOP_DATA``, else the platform's data folder."""
    if override:
        return Path(override)
    from tabletop.highscores import data_dir as default

    return default()


@dataclass(frozen=True)
class Saved:
    """One journaled match, as listed (not replayed)."""

    id: int
    game: str
    label: str
    meta: dict[str, Any]
    started: float
    status: str
    actions: int
    elapsed: float
    reason: str | None = None
    result: dict[str, Any] | None = None
    session: str = ""


def result_record(result: Result | None, *, reason: str = "end") -> dict[str, Any]:
    """A result as the journal keeps it (``matches.result``): exact scores as strings,
    places, winners, why, and the ``reason`` the game ended ("end" or "time")."""
    if result is None:
        return {"reason": reason}
    return {
        "scores": [str(s) for s in result.scores],
        "places": list(result.places),
        "winners": sorted(result.winners),
        "why": result.reason,
        "reason": reason,
    }


def write_seats(db: sqlite3.Connection, match_id: int, seats: Sequence[SeatInfo]) -> None:
    """Who played where in match ``match_id`` (inside the caller's transaction)."""
    db.executemany(
        "INSERT INTO seats (match_id, seat, name, student, grp, bot) VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, s.seat, s.name, s.student, s.group, s.bot) for s in seats],
    )


class Journal(JournalFile):
    """The games journal (see the module docstring). ``path`` ``":memory:"`` keeps nothing.

    ``retry_every``: seconds between tries of a file that could not be written (measured
    on ``clock``)."""

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        now: Callable[[], float] = time.time,
        retry_every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        _read_only: bool = False,
    ) -> None:
        # match id -> the steps on disk, as the match objects this journal wrote (the
        # last of them, linked to those before; None: none yet)
        self._written: dict[int, _Wrote | None] = {}
        # Called inside the transaction that finishes a match (status "finished") with
        # the connection and the match id: the fleet's outbox (None: nothing to do).
        self.on_finished: Callable[[sqlite3.Connection, int], None] | None = None
        super().__init__(
            None if path == ":memory:" else Path(path) if path else data_dir() / FILE_NAME,
            now=now,
            retry_every=retry_every,
            clock=clock,
            _read_only=_read_only,
        )

    @classmethod
    def read_only(cls, path: Path | str) -> Journal:
        """The journal at ``path`` only to be read (``tabletop report``): everything the
        file holds, its last synced actions included, read without writing to it (so on a
        read-only card too; a file at an older schema is read from a copy in memory). A
        file that is damaged, newer or cannot be read raises
        :class:`~tabletop.engine.errors.BadInput`; it is left as it is (the app moves a
        damaged one aside when it next starts)."""
        return cls(path, _read_only=True)

    # -- matches -------------------------------------------------------------------------

    def start(
        self,
        match: Match[Any, Any, Any],
        *,
        label: str = "",
        meta: Mapping[str, Any] | None = None,
        seats: Sequence[SeatInfo] = (),
        session: str = "",
    ) -> int:
        """A new journaled match (with any actions it already has); its id. ``seats``:
        who plays where; ``session``: the lesson it belongs to (reports group by it)."""
        header = json.dumps(match.header(), sort_keys=True)

        def write(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO matches (game, header, label, meta, started, session)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    match.game.name,
                    header,
                    label,
                    json.dumps(dict(meta or {})),
                    self._now(),
                    session,
                ),
            )
            match_id = int(cur.lastrowid or 0)
            write_seats(db, match_id, seats)
            self._written[match_id] = None
            self._write_actions(db, match_id, match)
            return match_id

        return self._write(write)

    def set_seats(self, match_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace who plays where (a late sign-in, a corrected name)."""

        def write(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            write_seats(db, match_id, seats)

        self._write(write)

    def seats(self, match_id: int) -> list[SeatInfo]:
        rows = self.db.execute(
            "SELECT seat, name, student, grp, bot FROM seats WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [SeatInfo(int(r[0]), str(r[1]), r[2], str(r[3]), r[4]) for r in rows]

    def sync(
        self, match_id: int, match: Match[Any, Any, Any], *, elapsed: float | None = None
    ) -> None:
        """Make the journal hold exactly ``match``'s history (call after every apply,
        deal or undo, before the screen changes); ``elapsed``: seconds played so far."""

        def write(db: sqlite3.Connection) -> None:
            self._write_actions(db, match_id, match)
            if elapsed is not None:
                db.execute(
                    "UPDATE matches SET elapsed = ? WHERE id = ?", (float(elapsed), match_id)
                )

        self._write(write)

    def set_meta(self, match_id: int, meta: Mapping[str, Any]) -> None:
        text = json.dumps(dict(meta))
        self._write(
            lambda db: db.execute("UPDATE matches SET meta = ? WHERE id = ?", (text, match_id))
        )

    def finish(
        self,
        match_id: int,
        result: Mapping[str, Any] | None,
        *,
        reason: str = "end",
        status: str = "finished",
    ) -> None:
        """The match is over: ``reason`` "end" (the game ended), "time" (a rotation ran
        out: ``result`` holds the standings then) or "abandoned"."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}")
        when = self._now()
        text = None if result is None else json.dumps(dict(result), sort_keys=True)

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE matches SET status = ?, finished = ?, reason = ?, result = ? WHERE id = ?",
                (status, when, reason, text, match_id),
            )
            if status == "finished" and self.on_finished is not None:
                self.on_finished(db, match_id)

        self._write(write)

    def status(self, match_id: int) -> str | None:
        """Match ``match_id``'s status (one of ``STATUSES``: "playing" while it is being
        played), or None when the journal has no such match. A journal that cannot be
        read raises ``TabletopError`` ``store.read``."""
        try:
            row = self.db.execute("SELECT status FROM matches WHERE id = ?", (match_id,)).fetchone()
        except sqlite3.Error as exc:
            raise TabletopError(
                "store.read", f"cannot read the status of game {match_id}: {exc}"
            ) from exc
        return None if row is None else str(row[0])

    def unfinished(self, label: str | None = None) -> list[Saved]:
        """Matches still being played (newest first), optionally only with ``label``."""
        where = "m.status = 'playing'"
        args: tuple[str, ...] = ()
        if label is not None:
            where, args = where + " AND m.label = ?", (label,)
        return self._list(where, args)

    def matches(self) -> list[Saved]:
        """Every journaled match, newest first."""
        return self._list("1 = 1", ())

    def newest(self, game: str, *, besides: int | None = None) -> Saved | None:
        """The newest journaled match of ``game`` other than match ``besides``, or None:
        one row read through the index ``matches_by_game``, not the whole journal."""
        found = self._list("m.game = ? AND m.id IS NOT ?", (game, besides), limit=1)
        return found[0] if found else None

    def load(self, match_id: int, games: Mapping[str, Game[Any, Any, Any]]) -> Match[Any, Any, Any]:
        """The match rebuilt by replaying its journal (every digest checked).

        A journal that no longer replays (edited by hand, or from an engine that changed)
        raises :class:`CorruptLog`; the match is marked "broken" so it is not offered
        again, and its rows stay for the teacher's export.
        """
        row = self.db.execute("SELECT header FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise CorruptLog("store.missing", f"there is no saved game number {match_id}")
        lines = [str(row[0])] + [
            str(r[0])
            for r in self.db.execute(
                "SELECT line FROM actions WHERE match_id = ? ORDER BY n", (match_id,)
            )
        ]
        try:
            match = Match.replay(lines, games)
        except CorruptLog as exc:
            log.warning("journal: match %d does not replay: %s", match_id, exc)
            why = exc.message
            with contextlib.suppress(TabletopError):  # kept as broken when it can be
                self._write(
                    lambda db: db.execute(
                        "UPDATE matches SET status = 'broken', reason = ? WHERE id = ?",
                        (why, match_id),
                    )
                )
            raise
        self._written[match_id] = _wrote(match, None, match.moves)
        return match

    def lines(self, match_id: int) -> list[str]:
        """The journal of one match as a match log (``tabletop replay`` reads it)."""
        row = self.db.execute("SELECT header FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            return []
        return [str(row[0])] + [
            str(r[0])
            for r in self.db.execute(
                "SELECT line FROM actions WHERE match_id = ? ORDER BY n", (match_id,)
            )
        ]

    # -- answers and dice (issue 24) --------------------------------------------------------

    def add_answers(self, match_id: int, answers: Sequence[AnswerRecord]) -> None:
        """Journal answers the device checked in match ``match_id`` (one transaction)."""
        if not answers:
            return
        now = self._now()
        self._write(
            lambda db: db.executemany(
                "INSERT INTO answers (match_id, seat, step, skill, question, given, answer,"
                " seconds, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        a.seat,
                        a.step,
                        a.skill,
                        json.dumps(dict(a.question), sort_keys=True),
                        a.given,
                        a.answer,
                        a.seconds,
                        now,
                    )
                    for a in answers
                ],
            )
        )

    def take_back_answers(self, match_id: int, steps: int) -> None:
        """An undo: forget the answers given at a step past ``steps`` actions."""
        self._write(
            lambda db: db.execute(
                "DELETE FROM answers WHERE match_id = ? AND step > ?", (match_id, steps)
            )
        )

    def answers(self, match_id: int) -> list[AnswerRecord]:
        """The answers journaled for one match, in the order given."""
        rows = self.db.execute(
            "SELECT seat, step, skill, question, given, answer, seconds FROM answers"
            " WHERE match_id = ? ORDER BY id",
            (match_id,),
        )
        return [
            AnswerRecord(
                int(r[0]),
                r[1],
                str(r[2]),
                _json_object(r[3]),
                str(r[4]),
                str(r[5]),
                None if r[6] is None else float(r[6]),
            )
            for r in rows
        ]

    def add_dice(
        self, values: Sequence[int], source: str, *, match_id: int | None = None, session: str = ""
    ) -> None:
        """Dice the device read (``source``: "camera", "tap" or "virtual")."""
        now = self._now()
        self._write(
            lambda db: db.executemany(
                "INSERT INTO dice (match_id, session, value, source, at) VALUES (?, ?, ?, ?, ?)",
                [(match_id, session, int(v), source, now) for v in values],
            )
        )

    def dice_source(self, match_id: int) -> str:
        """How one match's latest dice came (:meth:`add_dice`'s ``source``; "": none kept)."""
        row = self.db.execute(
            "SELECT source FROM dice WHERE match_id = ? ORDER BY id DESC LIMIT 1", (match_id,)
        ).fetchone()
        return "" if row is None else str(row[0])

    # -- inside --------------------------------------------------------------------------

    def _write_actions(
        self, db: sqlite3.Connection, match_id: int, match: Match[Any, Any, Any]
    ) -> None:
        moves = match.moves
        if match_id in self._written:
            # The steps this journal wrote are objects of the match: the first one that
            # is not the same object is where the match changed (an undo, a correction
            # replayed from an earlier step, a match rebuilt by the app). Steps are only
            # appended and popped, so a step still in its place keeps those before it:
            # walk back from the last one written to the first one still there.
            wrote = self._written[match_id]
            while wrote is not None and (
                wrote.count > moves or match.step(wrote.count - 1) is not wrote.step
            ):
                wrote = wrote.before
            first = 0 if wrote is None else wrote.count
        else:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)
            ).fetchone()
            stored = int(count)
            # Not written by this journal: compare lines from the end of what is stored.
            first = min(stored, moves)
            while first > 0:
                row = db.execute(
                    "SELECT line FROM actions WHERE match_id = ? AND n = ?", (match_id, first)
                ).fetchone()
                if row is not None and row[0] == match.log_line(first - 1):
                    break
                first -= 1
            wrote = _wrote(match, None, first)
        db.execute("DELETE FROM actions WHERE match_id = ? AND n > ?", (match_id, first))
        now = self._now()
        db.executemany(
            "INSERT INTO actions (match_id, n, line, at) VALUES (?, ?, ?, ?)",
            [(match_id, i + 1, match.log_line(i), now) for i in range(first, moves)],
        )
        self._written[match_id] = _wrote(match, wrote, moves)

    def _list(self, where: str, args: tuple[Any, ...], *, limit: int = -1) -> list[Saved]:
        rows = self.db.execute(
            "SELECT m.id, m.game, m.label, m.meta, m.started, m.status, m.elapsed, m.reason,"
            " m.result, (SELECT COUNT(*) FROM actions a WHERE a.match_id = m.id), m.session"
            f" FROM matches m WHERE {where} ORDER BY m.id DESC LIMIT ?",  # -1: every row
            (*args, limit),
        ).fetchall()
        return [
            Saved(
                id=int(r[0]),
                game=str(r[1]),
                label=str(r[2]),
                meta=_json_object(r[3]),
                started=float(r[4]),
                status=str(r[5]),
                elapsed=float(r[6]),
                reason=r[7],
                result=_json_object(r[8]) if r[8] else None,
                actions=int(r[9]),
                session=str(r[10]),
            )
            for r in rows
        ]

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(db)`` in one write transaction: on the file, or in memory while the file
        cannot be written. When the file refuses it (full, read-only, a failed write),
        the journal moves to memory and runs ``fn`` again there: nothing is lost."""
        self._catch_up()
        written = dict(self._written)
        try:
            return self._in_transaction(fn)
        except sqlite3.DatabaseError as exc:
            self._written = written  # as before the transaction that rolled back
            if self.trouble is not None or self._read_only or self.path is None:
                raise _write_failed(exc) from exc
            self._to_memory(exc)
        try:
            return self._in_transaction(fn)
        except sqlite3.DatabaseError as exc:
            self._written = written
            raise _write_failed(exc) from exc


@dataclass(frozen=True, slots=True, eq=False)
class _Wrote:
    """A step the journal wrote (the ``count``-th of its match), with the one before it:
    the steps on disk as a chain that a write extends and an undo walks back one link per
    step taken back (no copy of the whole), and that a rolled-back transaction leaves as
    it was."""

    step: Any
    before: _Wrote | None
    count: int


def _wrote(match: Match[Any, Any, Any], wrote: _Wrote | None, end: int) -> _Wrote | None:
    """``wrote`` extended with ``match``'s steps up to the ``end``-th."""
    for i in range(0 if wrote is None else wrote.count, end):
        wrote = _Wrote(match.step(i), wrote, i + 1)
    return wrote


def _json_object(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


__all__ = [
    "FILE_NAME",
    "AnswerRecord",
    "Journal",
    "Saved",
    "SeatInfo",
    "data_dir",
    "result_record",
    "write_seats",
]
