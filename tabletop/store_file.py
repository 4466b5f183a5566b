"""The journal's file: opened safely, never silently emptied, and kept in memory while
the card takes no writes.

The schema is versioned (``PRAGMA user_version``) and migrated step by step
(:data:`~tabletop.store_schema.MIGRATIONS`). A file proven damaged (SQLite says it is not
a database or is malformed, it fails its integrity check, or it holds other tables) or
that a newer version of this program wrote is never fatal and never silently emptied: it
is moved aside whole (``tabletop.sqlite3.corrupt-<time>`` or ``.newer-<time>``, with its
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

:class:`JournalFile` is that file; :class:`tabletop.store.Journal`, the games journal, is
one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import sentence
from tabletop.store_schema import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger("tabletop.store")  # the journal's log lines, under one name

T = TypeVar("T")


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
SIDES = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database's


def set_aside(path: Path, aside: Path) -> None:
    """Move the database at ``path`` to ``aside``, with the files SQLite keeps beside it."""
    os.replace(path, aside)
    for extra in SIDES:
        side = path.with_name(path.name + extra)
        if side.exists():
            os.replace(side, aside.with_name(aside.name + extra))


class JournalFile:
    """The journal's file (see the module docstring): ``path`` None keeps nothing.

    ``retry_every``: seconds between tries of a file that could not be written (measured
    on ``clock``)."""

    def __init__(
        self,
        path: Path | None,
        *,
        now: Callable[[], float],
        retry_every: float,
        clock: Callable[[], float],
        _read_only: bool,
    ) -> None:
        self.path: Path | None = path
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
        self.db = Connection(self._read_copy() if _read_only else self._open())

    @property
    def saving(self) -> bool:
        """True while what is written reaches the file (not only memory)."""
        return self.trouble is None and not self._read_only and self.path is not None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the journal's file (for the classroom's tables). A file
        that cannot be written raises ``TabletopError`` ``store.write`` once, and the
        journal goes on in memory: the caller may try again (see the module docstring)."""
        with self._tx():
            yield self.db.conn

    def retry(self) -> bool:
        """Try the file again now if it could not be written (see the module docstring);
        True when the journal is back on the file."""
        self._tried = -float("inf")
        return self._catch_up()

    def close(self) -> None:
        if self.trouble is not None:
            self.retry()  # a last try: what was played in memory reaches the file
        with contextlib.suppress(sqlite3.Error):
            self.db.close()

    # -- write transactions --------------------------------------------------------------

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
            if is_damaged(exc):
                return self._move_aside("corrupt", str(exc))
            # Not proven damaged: the card is full or read-only, or a write failed. The
            # file stays as it is; play goes on in a copy of it in memory.
            try:
                copy = (
                    self._copy_of_file()
                    if self.path.exists()
                    else self._migrate(self._connect(":memory:"))  # nothing there yet
                )
            except (_Newer, Damaged) as bad:
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
        except Damaged as exc:
            raise BadInput("store.damaged", f"{self.path} is damaged: {exc}") from None
        except (OSError, sqlite3.DatabaseError) as exc:
            if is_damaged(exc):
                raise BadInput("store.damaged", f"{self.path} is damaged: {exc}") from None
            raise BadInput("store.read", f"cannot read {self.path}: {exc}") from None

    def _copy_of_file(self, *, reading: bool = False) -> sqlite3.Connection:
        """Everything the file holds (its WAL's synced actions too), copied into memory and
        brought to this schema, without writing to the file or its folder. ``reading``:
        only to read it, so a file already at this schema is read where it is."""
        assert self.path is not None
        source = read_connection(self.path)
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
            set_aside(self.path, aside)
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
        except (_Newer, Damaged) as exc:
            log.error("journal: the file became unusable while games were in memory: %s", exc)
            self._move_aside("newer" if isinstance(exc, _Newer) else "corrupt", str(exc)).close()
            return False
        except (OSError, sqlite3.DatabaseError) as exc:
            log.info("journal: %s still cannot be written: %s", self.path, exc)
            return False
        self.db.conn = back  # the memory copy closes when no thread holds it any more
        self._set_trouble(None, "")
        return True


class _Newer(sqlite3.DatabaseError):
    """The file's schema is newer than this program's."""


class Damaged(sqlite3.DatabaseError):
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
        raise Damaged(f"integrity check says {check!r}")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise _Newer(f"it was written by a newer version (schema {version})")
    if version == 0:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        names = sorted(r[0] for r in tables)
        if names:
            raise Damaged(f"not a game journal (tables {names})")
    return version


def is_damaged(exc: BaseException) -> bool:
    """Whether an error proves the file damaged (never a failed write: full, read-only)."""
    if isinstance(exc, Damaged):
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


def read_connection(path: Path, wait: float = 5.0) -> sqlite3.Connection:
    """A connection that only reads ``path`` and writes nothing beside it: ``mode=ro``
    (it reads the WAL; ``wait``: seconds it waits for a file another program holds); in
    a read-only folder with no ``-shm`` to share, or a file still held, ``immutable``
    when there is no WAL to read, else a copy of the file and its WAL in a temporary
    folder (in memory where there is one)."""
    if not path.is_file():
        raise sqlite3.OperationalError(f"no file {path}")
    quoted = urllib.parse.quote(str(path.resolve()))
    db = sqlite3.connect(f"file:{quoted}?mode=ro", wait, uri=True, check_same_thread=False)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.DatabaseError as exc:
        db.close()
        if is_damaged(exc):
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


__all__ = [
    "FULL",
    "NOT_WRITTEN",
    "READ_ONLY",
    "SAVING_AGAIN",
    "SIDES",
    "Connection",
    "Damaged",
    "JournalFile",
    "is_damaged",
    "read_connection",
    "set_aside",
]
