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
reads and writes those; this module only owns the file and its schema.

Schema version 4 adds the classroom fleet's tables: ``outbox`` (a station's results
waiting for the teacher's console to say it stored them), ``fleet_results`` and
``fleet_state`` (the teacher's console).
:attr:`Journal.on_finished` lets the fleet add a finished game's result to the outbox
inside the transaction that finishes it, so a result is never lost nor queued twice.

The schema is versioned (``PRAGMA user_version``) and migrated step by step
(:data:`MIGRATIONS`). A file proven damaged (SQLite says it is not a database or is
malformed, it fails its integrity check, or it holds other tables) or that a newer
version of this program wrote is never fatal and never silently emptied: it is moved
aside whole (``tabletop.sqlite3.corrupt-<time>`` or ``.newer-<time>``, with its
``-wal``), a fresh journal is started, and :attr:`Journal.notice` says so in one
sentence for the teacher.

A file that cannot be *written* (the SD card is full or read-only, or a write failed) is
never moved aside: it is healthy. The journal then copies what the file holds into
memory and carries on there, so play goes on and nothing is lost while the app runs;
:attr:`Journal.trouble` says what is wrong in one sentence ("the SD card is full: games
are not being saved"), logged once. At the next write after ``retry_every`` seconds (and
when closing) it tries the file again: when the file takes writes, everything played
meanwhile is written to it in one transaction (the rows that differ, table by table)
and the journal goes back to the file. What is not guaranteed: a power cut while games
are only in memory loses what was played since the card stopped taking writes.
:meth:`Journal.read_only` opens a journal only to read it (``tabletop report``): on a
read-only card, and without ever changing the file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tabletop.engine.errors import BadInput, CorruptLog, TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Game, Result
from tabletop.engine.words import sentence

log = logging.getLogger(__name__)

FILE_NAME = "tabletop.sqlite3"
T = TypeVar("T")

# version -> the SQL that brings a file at version-1 to it. Never edit a released step;
# add the next one.
MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        header TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        meta TEXT NOT NULL DEFAULT '{}',
        started REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',
        finished REAL,
        reason TEXT,
        result TEXT
    );
    CREATE TABLE actions (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        n INTEGER NOT NULL,
        line TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, n)
    );
    CREATE INDEX matches_by_status ON matches (status, label);
    """,
    2: """
    ALTER TABLE matches ADD COLUMN elapsed REAL NOT NULL DEFAULT 0;
    """,
    # The classroom: who sat where (a snapshot of the name and group at play time),
    # the class list, the teacher's rotation plans, the running rotation's clock, and
    # the lesson ("session") each match belongs to.
    3: """
    ALTER TABLE matches ADD COLUMN session TEXT NOT NULL DEFAULT '';
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        student TEXT,
        grp TEXT NOT NULL DEFAULT '',
        bot TEXT,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE students (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        grp TEXT NOT NULL DEFAULT '',
        added REAL NOT NULL
    );
    CREATE TABLE plans (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE TABLE rotations (
        id INTEGER PRIMARY KEY,
        plan_id INTEGER NOT NULL REFERENCES plans (id),
        session TEXT NOT NULL,
        station INTEGER NOT NULL,
        clock TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'running'
    );
    CREATE INDEX matches_by_session ON matches (session);
    """,
    # The classroom fleet (tabletop.classroom.fleet). On a station: ``outbox``, the
    # messages (finished games' results) waiting for the console's answer (stored or refused,
    # by result id; the broker's acknowledgement only marks them sent),
    # written in the same transaction as the finish. On the teacher's console:
    # ``fleet_results``, the result ids already stored (a result delivered twice is
    # stored once), and ``fleet_state``, the console's plan, clocks and roster.
    4: """
    CREATE TABLE outbox (
        id TEXT PRIMARY KEY,
        topic TEXT NOT NULL,
        body TEXT NOT NULL,
        created REAL NOT NULL,
        sent REAL
    );
    CREATE INDEX outbox_unsent ON outbox (sent, created);
    CREATE TABLE fleet_results (
        id TEXT PRIMARY KEY,
        device TEXT NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        received REAL NOT NULL
    );
    CREATE TABLE fleet_state (
        key TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        changed REAL NOT NULL
    );
    """,
    # The teacher hides a finished game from reports (tabletop.classroom.report.hide),
    # or shows it again: one row each time, never a deletion. The newest row of a match
    # says whether it is hidden.
    5: """
    CREATE TABLE result_visibility (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        hidden INTEGER NOT NULL,
        at REAL NOT NULL,
        why TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX result_visibility_by_match ON result_visibility (match_id, id);
    """,
    # What each child found hard (issue 24): ``answers``, every answer the device checked
    # with its question (skill, numbers and operations as JSON, exact values as strings),
    # the child's answer, the right one and the seconds taken; ``step`` is the match's
    # action count when it was answered (an undo past it takes it back). ``dice``: every
    # die the device read, with its value and where it came from (camera, tap, virtual).
    6: """
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        step INTEGER,
        skill TEXT NOT NULL,
        question TEXT NOT NULL,
        given TEXT NOT NULL,
        answer TEXT NOT NULL,
        seconds REAL,
        at REAL NOT NULL
    );
    CREATE INDEX answers_by_match ON answers (match_id, step);
    CREATE TABLE dice (
        id INTEGER PRIMARY KEY,
        match_id INTEGER REFERENCES matches (id),
        session TEXT NOT NULL DEFAULT '',
        value INTEGER NOT NULL,
        source TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX dice_by_session ON dice (session, at);
    """,
}
SCHEMA_VERSION = max(MIGRATIONS)
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


class Connection:
    """The journal's connection as others hold it (``journal.db``; the fleet's outbox
    keeps it): the file's, or the memory copy's while the file cannot be written. Every
    attribute is the current connection's."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any) -> sqlite3.Cursor:
        return self.conn.executemany(sql, parameters)

    def close(self) -> None:
        self.conn.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


# What the journal says while the file cannot be written, by what SQLite said.
FULL = "the SD card is full: games are not being saved"
READ_ONLY = "the SD card is read-only: games are not being saved"
NOT_WRITTEN = "the SD card could not be written ({}): games are not being saved"
SAVING_AGAIN = "the SD card takes games again: every game played meanwhile is saved"
_DAMAGED_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)


class Journal:
    """The journal file (see the module docstring). ``path`` ``":memory:"`` keeps nothing.

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
        if path == ":memory:":
            self.path: Path | None = None
        else:
            self.path = Path(path) if path else data_dir() / FILE_NAME
        self.notice: str | None = None
        # Not None while the file cannot be written (the sentence for the teacher); with
        # trouble_seq, counted up at every change, a screen shows each change once.
        self.trouble: str | None = None
        self.trouble_seq = 0
        self.retry_every = retry_every
        self._clock = clock
        self._tried = 0.0  # when the file was last tried (clock)
        self._catch_up_ok = False  # the memory copy holds all the file did: it may go back
        self._read_only = _read_only
        self._now = now
        # match id -> the steps on disk, as the match objects this journal wrote (the
        # last of them, linked to those before; None: none yet)
        self._written: dict[int, _Wrote | None] = {}
        # Called inside the transaction that finishes a match (status "finished") with
        # the connection and the match id: the fleet's outbox (None: nothing to do).
        self.on_finished: Callable[[sqlite3.Connection, int], None] | None = None
        self.db = Connection(self._read_copy() if _read_only else self._open())

    @classmethod
    def read_only(cls, path: Path | str) -> Journal:
        """The journal at ``path`` only to be read (``tabletop report``): everything the
        file holds, its last synced actions included, read without writing to it (so on a
        read-only card too; a file at an older schema is read from a copy in memory). A
        file that is damaged, newer or cannot be read raises
        :class:`~tabletop.engine.errors.BadInput`; it is left as it is (the app moves a
        damaged one aside when it next starts)."""
        return cls(path, _read_only=True)

    @property
    def saving(self) -> bool:
        """True while what is written reaches the file (not only memory)."""
        return self.trouble is None and not self._read_only and self.path is not None

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

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the journal's file (for the classroom's tables). A file
        that cannot be written raises ``TabletopError`` ``store.write`` once, and the
        journal goes on in memory: the caller may try again (see the module docstring)."""
        with self._tx():
            yield self.db.conn

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

    def retry(self) -> bool:
        """Try the file again now if it could not be written (see the module docstring);
        True when the journal is back on the file."""
        self._tried = -float("inf")
        return self._catch_up()

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

    def close(self) -> None:
        if self.trouble is not None:
            self.retry()  # a last try: what was played in memory reaches the file
        with contextlib.suppress(sqlite3.Error):
            self.db.close()

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

    def _list(self, where: str, args: tuple[Any, ...]) -> list[Saved]:
        rows = self.db.execute(
            "SELECT m.id, m.game, m.label, m.meta, m.started, m.status, m.elapsed, m.reason,"
            " m.result, (SELECT COUNT(*) FROM actions a WHERE a.match_id = m.id), m.session"
            f" FROM matches m WHERE {where} ORDER BY m.id DESC",
            args,
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

    def _in_transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        db = self.db.conn
        with _begun(db):
            return fn(db)

    @contextlib.contextmanager
    def _tx(self) -> Any:
        """One write transaction around the caller's own statements (which cannot be run
        again): a file that refuses it raises once, and later ones go to memory."""
        self._catch_up()
        try:
            with _begun(self.db.conn):
                yield
        except sqlite3.DatabaseError as exc:
            if self.trouble is None and not self._read_only and self.path is not None:
                self._to_memory(exc)
            raise _write_failed(exc) from exc

    # -- the file ------------------------------------------------------------------------

    def _connect(self, where: str, *, uri: bool = False) -> sqlite3.Connection:
        db = sqlite3.connect(where, isolation_level=None, check_same_thread=False, uri=uri)
        db.execute("PRAGMA busy_timeout = 5000")
        if where != ":memory:" and not uri:
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        return db

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._migrate(self._connect(":memory:"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            # Nothing there to read: play in memory, and make the folder when it can be.
            self._catch_up_ok = True
            self._set_trouble(_trouble_of(exc), f"cannot make {self.path.parent}")
            self.notice = (
                f"Games cannot be saved in {self.path.parent} ({exc.strerror}); they are "
                "kept in memory and saved when the folder can be written."
            )
            return self._migrate(self._connect(":memory:"))
        try:
            return self._migrate(self._connect(str(self.path)))
        except _Newer as exc:
            return self._move_aside("newer", str(exc))
        except sqlite3.DatabaseError as exc:
            if _damaged(exc):
                return self._move_aside("corrupt", str(exc))
            # Not proven damaged: the card is full or read-only, or a write failed. The
            # file stays as it is; play goes on in a copy of it in memory.
            try:
                copy = (
                    self._copy_of_file()
                    if self.path.exists()
                    else self._migrate(self._connect(":memory:"))  # nothing there yet
                )
            except (_Newer, _Damaged) as bad:
                return self._move_aside("newer" if isinstance(bad, _Newer) else "corrupt", str(bad))
            except (OSError, sqlite3.DatabaseError) as unread:
                log.error("journal: %s cannot be read either: %s", self.path, unread)
                copy = None
            self._catch_up_ok = copy is not None
            self._set_trouble(_trouble_of(exc, self.path), str(exc))
            if copy is None:
                self.notice = (
                    f"The saved games file cannot be read or written ({exc}); it is left "
                    "as it is. Games last until the app closes."
                )
                return self._migrate(self._connect(":memory:"))
            self.notice = sentence(self.trouble or "")
            return copy

    def _read_copy(self) -> sqlite3.Connection:
        """For :meth:`read_only`: the file's copy in memory, or ``BadInput``."""
        assert self.path is not None
        try:
            return self._copy_of_file(reading=True)
        except _Newer as exc:
            raise BadInput("store.newer", f"{self.path}: {exc}") from None
        except _Damaged as exc:
            raise BadInput("store.damaged", f"{self.path} is damaged: {exc}") from None
        except (OSError, sqlite3.DatabaseError) as exc:
            if _damaged(exc):
                raise BadInput("store.damaged", f"{self.path} is damaged: {exc}") from None
            raise BadInput("store.read", f"cannot read {self.path}: {exc}") from None

    def _copy_of_file(self, *, reading: bool = False) -> sqlite3.Connection:
        """Everything the file holds (its WAL's synced actions too), copied into memory and
        brought to this schema, without writing to the file or its folder. ``reading``:
        only to read it, so a file already at this schema is read where it is."""
        assert self.path is not None
        source = _read_connection(self.path)
        try:
            if _check(source) == SCHEMA_VERSION and reading:
                return source
            copy = self._connect(":memory:")
            source.backup(copy)
        except BaseException:
            source.close()
            raise
        source.close()
        return self._migrate(copy)

    def _migrate(self, db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            version = _check(db)
            for step in range(version + 1, SCHEMA_VERSION + 1):
                db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[step].split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA user_version = {step}")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
                log.info("journal: schema now at version %d", step)
            return db
        except BaseException:
            db.close()
            raise

    def _move_aside(self, kind: str, why: str) -> sqlite3.Connection:
        """Keep the unusable file whole under another name; start a fresh one."""
        assert self.path is not None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._now()))
        aside = self.path.with_name(f"{self.path.name}.{kind}-{stamp}")
        try:
            os.replace(self.path, aside)
            for extra in ("-wal", "-shm", "-journal"):
                side = self.path.with_name(self.path.name + extra)
                if side.exists():
                    os.replace(side, aside.with_name(aside.name + extra))
            db = self._migrate(self._connect(str(self.path)))
            self.notice = (
                f"The saved games file could not be used ({why}). It was kept as "
                f"{aside.name} and a new one was started."
            )
        except (OSError, sqlite3.DatabaseError) as exc:
            db = self._migrate(self._connect(":memory:"))
            self.notice = (
                f"The saved games file cannot be used ({why}; {exc}). "
                "Games last until the app closes."
            )
        log.warning("journal: %s", self.notice)
        return db

    # -- when the file cannot be written -------------------------------------------------

    def _set_trouble(self, sentence: str | None, detail: str) -> None:
        if sentence == self.trouble:
            return
        self.trouble = sentence
        self.trouble_seq += 1
        if sentence is None:
            log.warning("journal: %s (%s)", SAVING_AGAIN, self.path)
        else:
            log.error("journal: %s (%s: %s)", sentence, self.path, detail)

    def _to_memory(self, exc: sqlite3.DatabaseError) -> None:
        """The file refused a write: go on in a copy of it in memory."""
        assert self.path is not None
        old = self.db.conn
        copy = self._connect(":memory:")
        try:
            old.backup(copy)
            self._catch_up_ok = True
        except sqlite3.DatabaseError as unread:
            # The file cannot even be read (the card was pulled out): the copy starts
            # empty and never goes back over the file.
            log.error("journal: %s cannot be read either: %s", self.path, unread)
            self._catch_up_ok = False
            copy.close()
            copy = self._migrate(self._connect(":memory:"))
        # The old connection is not closed here: another thread (the fleet's outbox) may
        # be using it this instant; it closes when the last reference to it goes.
        self.db.conn = copy
        del old
        self._tried = self._clock()
        self._set_trouble(_trouble_of(exc, self.path), str(exc))

    def _catch_up(self) -> bool:
        """While in memory: every ``retry_every`` seconds, write to the file what differs
        from it, in one transaction, and go back to the file. True when back."""
        if self.trouble is None or not self._catch_up_ok or self.path is None:
            return False
        if self._clock() - self._tried < self.retry_every:
            return False
        self._tried = self._clock()
        mem = self.db.conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._migrate(self._connect(str(self.path))).close()  # made or migrated
            mem.execute("ATTACH DATABASE ? AS disk", (str(self.path),))
            try:
                mem.execute("PRAGMA disk.synchronous = FULL")
                with _begun(mem):
                    mem.execute("PRAGMA defer_foreign_keys = ON")
                    for table in _tables(mem):
                        _copy_differences(mem, table)
            finally:
                with contextlib.suppress(sqlite3.Error):
                    mem.execute("DETACH DATABASE disk")
            back = self._connect(str(self.path))
        except (_Newer, _Damaged) as exc:
            log.error("journal: the file became unusable while games were in memory: %s", exc)
            self._move_aside("newer" if isinstance(exc, _Newer) else "corrupt", str(exc)).close()
            return False
        except (OSError, sqlite3.DatabaseError) as exc:
            log.info("journal: %s still cannot be written: %s", self.path, exc)
            return False
        self.db.conn = back  # the memory copy closes when no thread holds it any more
        self._set_trouble(None, "")
        return True


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


class _Newer(sqlite3.DatabaseError):
    """The file's schema is newer than this program's."""


class _Damaged(sqlite3.DatabaseError):
    """The file is proven damaged: its integrity check fails, or it is not a journal."""


@contextlib.contextmanager
def _begun(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction on ``db``: committed at the end, rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def _check(db: sqlite3.Connection) -> int:
    """The file's schema version, once it is proven a journal this program can use."""
    check = db.execute("PRAGMA quick_check").fetchone()
    if check is None or check[0] != "ok":
        raise _Damaged(f"integrity check says {check!r}")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise _Newer(f"it was written by a newer version (schema {version})")
    if version == 0:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        names = sorted(r[0] for r in tables)
        if names:
            raise _Damaged(f"not a game journal (tables {names})")
    return version


def _damaged(exc: BaseException) -> bool:
    """Whether an error proves the file damaged (never a failed write: full, read-only)."""
    if isinstance(exc, _Damaged):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _DAMAGED_CODES


def _trouble_of(exc: BaseException, path: Path | None = None) -> str:
    """The sentence for a file that cannot be written, from what went wrong (and, as
    SQLite may only say it cannot open a file, from the folder of ``path``)."""
    folder = path.parent if path is not None else None
    with contextlib.suppress(OSError):
        if folder is not None and folder.is_dir():
            if not os.access(folder, os.W_OK):  # a read-only mount, or no permission
                return READ_ONLY
            if os.statvfs(folder).f_bavail == 0:
                return FULL
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if primary == 13 or (isinstance(exc, OSError) and exc.errno == 28) or "disk is full" in text:
        return FULL  # SQLITE_FULL, ENOSPC
    if primary == 8 or (isinstance(exc, OSError) and exc.errno == 30) or "readonly" in text:
        return READ_ONLY  # SQLITE_READONLY, EROFS
    return NOT_WRITTEN.format(getattr(exc, "strerror", None) or exc)


def _write_failed(exc: BaseException) -> TabletopError:
    return TabletopError("store.write", f"the game could not be saved: {exc}")


def _read_connection(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path`` and writes nothing beside it: ``mode=ro``
    (it reads the WAL); in a read-only folder with no ``-shm`` to share, ``immutable``
    when there is no WAL to read, else a copy of the file and its WAL in a temporary
    folder (in memory where there is one)."""
    if not path.is_file():
        raise sqlite3.OperationalError(f"no file {path}")
    quoted = urllib.parse.quote(str(path.resolve()))
    db = sqlite3.connect(f"file:{quoted}?mode=ro", uri=True, check_same_thread=False)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.DatabaseError as exc:
        db.close()
        if _damaged(exc):
            raise
    wal = path.with_name(path.name + "-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        return sqlite3.connect(f"file:{quoted}?immutable=1", uri=True, check_same_thread=False)
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        source = sqlite3.connect(str(copy), check_same_thread=False)
        try:
            target = sqlite3.connect(":memory:", check_same_thread=False)
            source.backup(target)
        finally:
            source.close()
    return target


def _tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    )
    return [str(r[0]) for r in rows]


def _copy_differences(db: sqlite3.Connection, table: str) -> None:
    """Make ``disk.<table>`` equal to ``main.<table>``, writing only the rows that differ
    (by primary key: gone rows deleted, new or changed rows written)."""
    info = db.execute(f'PRAGMA main.table_info("{table}")').fetchall()
    columns = ", ".join(f'"{r[1]}"' for r in info)
    keys = ", ".join(f'"{r[1]}"' for r in sorted(info, key=lambda r: r[5]) if r[5] > 0)
    if keys:
        db.execute(
            f'DELETE FROM disk."{table}" WHERE ({keys}) NOT IN (SELECT {keys} FROM main."{table}")'
        )
    db.execute(
        f'INSERT OR REPLACE INTO disk."{table}" ({columns}) SELECT {columns} FROM main."{table}"'
        f' EXCEPT SELECT {columns} FROM disk."{table}"'
    )


def _json_object(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


__all__ = [
    "FILE_NAME",
    "FULL",
    "MIGRATIONS",
    "NOT_WRITTEN",
    "READ_ONLY",
    "SAVING_AGAIN",
    "SCHEMA_VERSION",
    "AnswerRecord",
    "Connection",
    "Journal",
    "Saved",
    "SeatInfo",
    "data_dir",
    "result_record",
    "write_seats",
]
