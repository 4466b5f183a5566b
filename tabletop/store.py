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
waiting for the broker), ``fleet_results`` and ``fleet_state`` (the teacher's console).
:attr:`Journal.on_finished` lets the fleet add a finished game's result to the outbox
inside the transaction that finishes it, so a result is never lost nor queued twice.

The schema is versioned (``PRAGMA user_version``) and migrated step by step
(:data:`MIGRATIONS`). A file SQLite cannot read, that fails its integrity check, or that
a newer version of this program wrote is never fatal and never silently emptied: it is
moved aside whole (``tabletop.sqlite3.corrupt-<time>`` or ``.newer-<time>``, with its
``-wal``), a fresh journal is started, and :attr:`Journal.notice` says so in one
sentence for the teacher.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.engine.errors import CorruptLog, TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Game, Result

log = logging.getLogger(__name__)

FILE_NAME = "tabletop.sqlite3"

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
    # messages (finished games' results) waiting for the broker's acknowledgement,
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
    # What each child found hard (issue 24): ``answers``, every answer the device checked
    # with its question (skill, numbers and operations as JSON, exact values as strings),
    # the child's answer, the right one and the seconds taken; ``step`` is the match's
    # action count when it was answered (an undo past it takes it back). ``dice``: every
    # die the device read, with its value and where it came from (camera, tap, virtual).
    5: """
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


class Journal:
    """The journal file (see the module docstring). ``path`` ``":memory:"`` keeps nothing."""

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        if path == ":memory:":
            self.path: Path | None = None
        else:
            self.path = Path(path) if path else data_dir() / FILE_NAME
        self.notice: str | None = None
        self._now = now
        # match id -> the steps on disk, as the match objects this journal wrote
        self._written: dict[int, tuple[Any, ...]] = {}
        # Called inside the transaction that finishes a match (status "finished") with
        # the connection and the match id: the fleet's outbox (None: nothing to do).
        self.on_finished: Callable[[sqlite3.Connection, int], None] | None = None
        self.db = self._open()

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
        with self._tx():
            cur = self.db.execute(
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
            write_seats(self.db, match_id, seats)
            self._written[match_id] = ()
            self._write_actions(match_id, match)
        return match_id

    def set_seats(self, match_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace who plays where (a late sign-in, a corrected name)."""
        with self._tx():
            self.db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            write_seats(self.db, match_id, seats)

    def seats(self, match_id: int) -> list[SeatInfo]:
        rows = self.db.execute(
            "SELECT seat, name, student, grp, bot FROM seats WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [SeatInfo(int(r[0]), str(r[1]), r[2], str(r[3]), r[4]) for r in rows]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the journal's file (for the classroom's tables)."""
        with self._tx():
            yield self.db

    def sync(
        self, match_id: int, match: Match[Any, Any, Any], *, elapsed: float | None = None
    ) -> None:
        """Make the journal hold exactly ``match``'s history (call after every apply,
        deal or undo, before the screen changes); ``elapsed``: seconds played so far."""
        with self._tx():
            self._write_actions(match_id, match)
            if elapsed is not None:
                self.db.execute(
                    "UPDATE matches SET elapsed = ? WHERE id = ?", (float(elapsed), match_id)
                )

    def set_meta(self, match_id: int, meta: Mapping[str, Any]) -> None:
        with self._tx():
            self.db.execute(
                "UPDATE matches SET meta = ? WHERE id = ?", (json.dumps(dict(meta)), match_id)
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
        with self._tx():
            self.db.execute(
                "UPDATE matches SET status = ?, finished = ?, reason = ?, result = ? WHERE id = ?",
                (
                    status,
                    self._now(),
                    reason,
                    None if result is None else json.dumps(dict(result), sort_keys=True),
                    match_id,
                ),
            )
            if status == "finished" and self.on_finished is not None:
                self.on_finished(self.db, match_id)

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
            with self._tx():
                self.db.execute(
                    "UPDATE matches SET status = 'broken', reason = ? WHERE id = ?",
                    (exc.message, match_id),
                )
            raise
        self._written[match_id] = match.steps
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
        with self._tx():
            self.db.executemany(
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

    def take_back_answers(self, match_id: int, steps: int) -> None:
        """An undo: forget the answers given at a step past ``steps`` actions."""
        with self._tx():
            self.db.execute(
                "DELETE FROM answers WHERE match_id = ? AND step > ?", (match_id, steps)
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
        with self._tx():
            self.db.executemany(
                "INSERT INTO dice (match_id, session, value, source, at) VALUES (?, ?, ?, ?, ?)",
                [(match_id, session, int(v), source, now) for v in values],
            )

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()

    # -- inside --------------------------------------------------------------------------

    def _write_actions(self, match_id: int, match: Match[Any, Any, Any]) -> None:
        steps = match.steps
        written = self._written.get(match_id)
        if written is not None:
            # The steps this journal wrote are objects of the match: the first one that
            # is not the same object is where the match changed (an undo, a correction
            # replayed from an earlier step, a match rebuilt by the app).
            same = (mine is theirs for mine, theirs in zip(written, steps, strict=False))
            first = next(
                (i for i, kept in enumerate(same) if not kept), min(len(written), len(steps))
            )
        else:
            (count,) = self.db.execute(
                "SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)
            ).fetchone()
            stored = int(count)
            # Not written by this journal: compare lines from the end of what is stored.
            first = min(stored, len(steps))
            while first > 0:
                row = self.db.execute(
                    "SELECT line FROM actions WHERE match_id = ? AND n = ?", (match_id, first)
                ).fetchone()
                if row is not None and row[0] == match.log_line(first - 1):
                    break
                first -= 1
        self.db.execute("DELETE FROM actions WHERE match_id = ? AND n > ?", (match_id, first))
        now = self._now()
        self.db.executemany(
            "INSERT INTO actions (match_id, n, line, at) VALUES (?, ?, ?, ?)",
            [(match_id, i + 1, match.log_line(i), now) for i in range(first, len(steps))],
        )
        self._written[match_id] = steps

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

    @contextlib.contextmanager
    def _tx(self) -> Any:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise TabletopError("store.write", f"the game could not be saved: {exc}") from exc

    # -- the file ------------------------------------------------------------------------

    def _connect(self, where: str) -> sqlite3.Connection:
        db = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout = 5000")
        if where != ":memory:":
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
            self.notice = (
                f"Games cannot be saved in {self.path.parent} ({exc.strerror}); "
                "they last until the app closes."
            )
            log.warning("%s", self.notice)
            return self._migrate(self._connect(":memory:"))
        try:
            return self._migrate(self._connect(str(self.path)))
        except _Newer as exc:
            return self._move_aside("newer", str(exc))
        except sqlite3.DatabaseError as exc:
            return self._move_aside("corrupt", str(exc))

    def _migrate(self, db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check says {check!r}")
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise _Newer(f"it was written by a newer version (schema {version})")
            if version == 0:
                tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                names = sorted(r[0] for r in tables)
                if names:
                    raise sqlite3.DatabaseError(f"not a game journal (tables {names})")
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


class _Newer(sqlite3.DatabaseError):
    """The file's schema is newer than this program's."""


def _json_object(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


__all__ = [
    "FILE_NAME",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AnswerRecord",
    "Journal",
    "Saved",
    "SeatInfo",
    "data_dir",
    "result_record",
    "write_seats",
]
