"""Personal high scores per game and set of game modes, in a small SQLite file.

The file lives in the platform's data folder (``platformdirs``), or in
``$TABLETOP_DATA`` when that is set: ``<data>/highscores.sqlite3``. A score is kept by
who played it: a child signed in by their student id (two children of one name keep
their own bests; the row keeps the name and group, for the boards), anyone else by the
name typed. The schema is versioned with ``PRAGMA user_version``; a version 1 file (kept
by name only) gains the id and group columns when opened, its scores staying the names':
a child signed in whose name is hers alone on the class list (the caller knows the list
and says so: ``name_unique``) takes the scores of her name as hers when she has none of
her own in that game yet, so her old best still counts.
A file proven damaged (SQLite finds it corrupt or not a database, or it has a schema this
version does not know) is never fatal: it is moved aside (renamed to
``highscores.sqlite3.corrupt-<time>``), a fresh file is started, and :attr:`notice` says
so in one sentence for the teacher. A file that is only busy or cannot be written is left
as it is: its scores are read into memory, and a new score that cannot reach the file is
kept there and says so (:attr:`Recorded.saved`, :attr:`notice`). A later :meth:`record`
(at most every ``retry_every`` seconds) and :meth:`~HighScores.close` try the file again:
once it takes writes, the scores only memory holds are written to it in one transaction
and the file is used again. (The crash-safe game journal is a separate store.)
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tabletop.store_file import Damaged, is_damaged, read_connection, set_aside

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
FILE_NAME = "highscores.sqlite3"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS scores (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    modes TEXT NOT NULL,
    score INTEGER NOT NULL,
    played_at TEXT NOT NULL
);
"""
_BY_NAME = "(student = '' AND player = ?)"  # a name typed, or a version 1 file's row
# version 1 -> 2: who signed in ('' for a name typed), and their group then
_MIGRATE = """
BEGIN;
ALTER TABLE scores ADD COLUMN student TEXT NOT NULL DEFAULT '';
ALTER TABLE scores ADD COLUMN grp TEXT NOT NULL DEFAULT '';
DROP INDEX IF EXISTS scores_by_key;
CREATE INDEX scores_by_key ON scores (game, student, player, modes);
COMMIT;
"""
SAVED_AGAIN = "The high-score file can be written again: every score of this session is in it."
RETRY_WAIT = 0.5  # seconds a later try waits for a file another program holds
Statement = tuple[str, tuple[object, ...]]


def data_dir() -> Path:
    """``$TABLETOP_DATA``, or the platform's per-user data folder for ``tabletop``."""
    override = os.environ.get("TABLETOP_DATA")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("tabletop", appauthor=False))


def modes_key(modes: Iterable[str]) -> str:
    """One text key for a set of modes: sorted, joined by ``+`` (``"coinless+twins"``)."""
    return "+".join(sorted(set(modes))) or "freestyle"


@dataclass(frozen=True)
class Recorded:
    """What recording a score did: the best before it, the best now, whether the score
    reached the file (``saved``; not: the file is busy, full or read-only) and whether
    it is on the boards (``kept``: in the file, or in memory till the file takes it)."""

    score: int
    previous_best: int | None
    best: int
    saved: bool = True
    kept: bool = True

    @property
    def is_new_best(self) -> bool:
        return self.best == self.score and self.previous_best != self.score


class HighScores:
    """The high-score table. ``path`` ``":memory:"`` keeps nothing (demo and tests).
    ``retry_every``: seconds between tries of a file that could not be written (measured
    on ``clock``); ``wait``: seconds SQLite waits for a file another program holds."""

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        now: Callable[[], datetime] = datetime.now,
        clock: Callable[[], float] = time.monotonic,
        retry_every: float = 5.0,
        wait: float = 5.0,
    ) -> None:
        self.path: Path | None = (
            None if path == ":memory:" else Path(path or data_dir() / FILE_NAME)
        )
        self.notice: str | None = None
        self.retry_every, self.wait = retry_every, wait
        self._now, self._clock = now, clock
        self._kept = True  # scores reach the file (False: only a copy in memory)
        self._pending: list[tuple[Statement, ...]] = []  # each record only memory holds
        self._db = self._open()
        self._tried = clock()  # when the file was last tried

    # -- reading and writing -----------------------------------------------------------

    def record(
        self,
        game: str,
        player: str,
        modes: Iterable[str],
        score: int,
        *,
        student: str | None = None,
        group: str = "",
        name_unique: bool = False,
        lower_is_better: bool = False,
    ) -> Recorded:
        """Store one finished game's score; say whether it beat the player's best. A child
        signed in gives their ``student`` id (and ``group``): their best is theirs alone,
        and the scores kept by her name become hers where :meth:`best` counts them."""
        if self.notice == SAVED_AGAIN:
            self.notice = None  # said once, with the score that was saved again
        self._retry()
        key = modes_key(modes)
        claim = self._claims(game, student, name_unique)
        previous = self.best(
            game,
            player,
            key.split("+"),
            student=student,
            name_unique=claim,
            lower_is_better=lower_is_better,
        )
        row = (game, player, key, int(score), self._now().isoformat(timespec="seconds"))
        claimed = f"UPDATE scores SET student = ?, grp = ? WHERE game = ? AND {_BY_NAME}"
        kept = self._write(
            *([(claimed, (student, group, game, player))] if claim else []),
            (
                "INSERT INTO scores (game, player, modes, score, played_at, student, grp) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*row, student or "", group if student else ""),
            ),
        )
        if previous is None:
            best = score
        else:
            best = min(previous, score) if lower_is_better else max(previous, score)
        return Recorded(score, previous, best, kept and self._kept, kept)

    def best(
        self,
        game: str,
        player: str,
        modes: Iterable[str],
        *,
        student: str | None = None,
        name_unique: bool = False,
        lower_is_better: bool = False,
    ) -> int | None:
        """The best score, if any, in this game with exactly these modes: of the child
        signed in as ``student``, or (with none) of the name ``player`` typed. A child
        with no scores of her own in ``game`` whose name no other child on the class
        list has (``name_unique``) counts the scores kept by her name too (a version 1
        file's: the module)."""
        pick = "MIN" if lower_is_better else "MAX"
        args: tuple[str, ...]
        if not student:
            who, args = _BY_NAME, (player,)
        elif self._claims(game, student, name_unique):
            who, args = f"(student = ? OR {_BY_NAME})", (student, player)
        else:
            who, args = "student = ?", (student,)
        rows = self._read(
            f"SELECT {pick}(score) FROM scores WHERE game = ? AND modes = ? AND {who}",
            (game, modes_key(modes), *args),
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    def top(
        self, game: str, modes: Iterable[str], limit: int = 5, *, lower_is_better: bool = False
    ) -> list[tuple[str, int]]:
        """The best ``limit`` scores of everyone in ``game`` with exactly these modes, best
        first, as (player, score); of equal scores the earlier one comes first."""
        order = "ASC" if lower_is_better else "DESC"
        rows = self._read(
            "SELECT player, score FROM scores WHERE game = ? AND modes = ? "
            f"ORDER BY score {order}, id ASC LIMIT ?",
            (game, modes_key(modes), limit),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    def players(self, game: str, limit: int = 8) -> list[str]:
        """Names that played ``game`` lately, most recent first (for quick picking)."""
        rows = self._read(
            "SELECT player, MAX(id) AS last FROM scores WHERE game = ? "
            "GROUP BY player ORDER BY last DESC LIMIT ?",
            (game, limit),
        )
        return [str(r[0]) for r in rows]

    def _claims(self, game: str, student: str | None, name_unique: bool) -> bool:
        """Whether the child signed in as ``student`` takes the scores kept by her name
        in ``game`` as hers: no other child on the class list has that name
        (``name_unique``) and she has no scores of her own in ``game`` yet."""
        if not (student and name_unique):
            return False
        own = "SELECT 1 FROM scores WHERE game = ? AND student = ? LIMIT 1"
        return not self._read(own, (game, student))

    def close(self) -> None:
        self._retry(at_once=True)  # a last try: the session's scores reach the file
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    # -- the file ------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._init(sqlite3.connect(":memory:"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.notice = (
                f"High scores cannot be saved yet ({exc.strerror}); they are saved when the "
                "folder can be written."
            )
            log.warning("%s", self.notice)
            self._kept = False
            return self._init(sqlite3.connect(":memory:"))
        try:
            return self._init(sqlite3.connect(self.path, timeout=self.wait))
        except sqlite3.DatabaseError as exc:
            return self._recover(str(exc)) if is_damaged(exc) else self._unwritable(exc)

    def _init(self, db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise Damaged(f"integrity check says {check!r}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in range(SCHEMA_VERSION + 1):
                raise Damaged(f"unknown schema version {version}")
            tables = {
                r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if version == 0 and tables - {"scores"}:
                raise Damaged(f"not a high-score file (tables {sorted(tables)})")
            if version == SCHEMA_VERSION and "scores" in tables:
                return db  # nothing to write: a read-only file opens too
            with db:
                db.executescript(_SCHEMA)
                if "student" not in {r[1] for r in db.execute("PRAGMA table_info(scores)")}:
                    db.executescript(_MIGRATE)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return db
        except sqlite3.DatabaseError:
            db.close()
            raise

    def _recover(self, why: str) -> sqlite3.Connection:
        """Move the unreadable file aside and start a fresh one (or keep scores in memory)."""
        try:
            db = self._fresh(why)
            self._kept = True
        except (OSError, sqlite3.DatabaseError) as exc:
            self._kept = False
            db = self._init(sqlite3.connect(":memory:"))
            self.notice = (
                f"The high-score file cannot be used ({why}; {exc}). "
                "Scores are saved when it can be written."
            )
        log.warning("%s", self.notice)
        return db

    def _fresh(self, why: str) -> sqlite3.Connection:
        """The damaged file moved aside (``.corrupt-<time>``) and a new one started."""
        assert self.path is not None
        stamp = self._now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        set_aside(self.path, aside)
        db = self._init(sqlite3.connect(self.path))
        self.notice = (
            f"The high-score file was damaged ({why}). It was moved to {aside.name} "
            "and a new one was started."
        )
        return db

    def _unwritable(self, exc: sqlite3.DatabaseError) -> sqlite3.Connection:
        """A file that is busy (still, after SQLite's wait) or cannot be written is left as
        it is: its scores are read into memory, and new ones are kept there until it can
        (:meth:`_retry`)."""
        assert self.path is not None
        self._kept = False
        try:
            source = read_connection(self.path, self.wait)
            try:
                db = sqlite3.connect(":memory:")
                source.backup(db)
            finally:
                source.close()
            db = self._init(db)
            self.notice = (
                f"The high-score file cannot be written ({exc}); its best scores are shown, "
                "and new ones are saved when it can be."
            )
        except (OSError, sqlite3.DatabaseError) as unread:
            if is_damaged(unread):
                return self._recover(str(unread))
            db = self._init(sqlite3.connect(":memory:"))
            self.notice = (
                f"The high-score file cannot be read or written ({exc}); it is left as it "
                "is. Scores are saved when it can be written."
            )
        log.warning("%s", self.notice)
        return db

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        for attempt in (1, 2):
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                if not self._damaged(exc, attempt):
                    log.warning("high scores: %s", exc)
                    return []
        return []

    def _write(self, *statements: Statement) -> bool:
        """Run ``statements`` (SQL, arguments) in one transaction; whether it was run. One
        the file refuses is run in a copy of it in memory, and kept to be written to the
        file when it takes writes again (:meth:`_retry`)."""
        for attempt in (1, 2, 3):
            try:
                with self._db:
                    for sql, args in statements:
                        self._db.execute(sql, args)
            except sqlite3.DatabaseError as exc:
                if self._damaged(exc, attempt) or self._to_memory(exc):
                    continue
                self.notice = f"A high score could not be saved ({exc})."
                log.warning("%s", self.notice)
                return False
            if not self._kept:
                self._pending.append(statements)
            return True
        return False

    def _to_memory(self, exc: sqlite3.DatabaseError) -> bool:
        """The file refused a write (busy, full, read-only): go on in a copy of it in
        memory (:meth:`_unwritable`). False when the scores are already only in memory."""
        if not self._kept or self.path is None:
            return False
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db, self._tried = self._unwritable(exc), self._clock()
        return True

    def _retry(self, *, at_once: bool = False) -> None:
        """While scores are only in memory, at most every ``retry_every`` seconds (or
        ``at_once``): try the file again; once it takes writes, write to it in one
        transaction each score only memory holds, and use the file (a file found damaged
        is moved aside first, as at opening)."""
        if self._kept or self.path is None:
            return
        if not at_once and self._clock() - self._tried < self.retry_every:
            return
        self._tried, moved = self._clock(), False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                db = self._init(sqlite3.connect(self.path, timeout=min(RETRY_WAIT, self.wait)))
            except sqlite3.DatabaseError as exc:
                if not is_damaged(exc):
                    raise
                db, moved = self._fresh(str(exc)), True
            try:
                with db:
                    for statements in self._pending:
                        for sql, args in statements:
                            db.execute(sql, args)
            except BaseException:
                db.close()
                raise
        except (OSError, sqlite3.DatabaseError) as exc:
            log.info("high scores: %s still cannot be written: %s", self.path, exc)
            return
        with contextlib.suppress(sqlite3.Error):
            db.execute(f"PRAGMA busy_timeout = {int(self.wait * 1000)}")  # as at opening
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        log.warning(
            "high scores: %s takes writes again; %d scores kept in memory were written to it",
            self.path,
            len(self._pending),
        )
        self._db, self._kept, self._pending = db, True, []
        if not moved:
            self.notice = SAVED_AGAIN

    def _damaged(self, exc: sqlite3.DatabaseError, attempt: int) -> bool:
        """A file that went bad while open is moved aside once; a busy, full or read-only
        one is not (:meth:`_to_memory`)."""
        if attempt > 1 or self.path is None or not is_damaged(exc):
            return False
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = self._recover(str(exc))
        return True


__all__ = ["FILE_NAME", "SCHEMA_VERSION", "HighScores", "Recorded", "data_dir", "modes_key"]
