"""A station's outbox: finished games' results waiting for the teacher's console to
store them.

The journal's ``outbox`` table (schema 4) is the source of truth, not the MQTT session:
:func:`enqueue` adds a game's result *inside the transaction that finishes the game*
(:attr:`tabletop.store.Journal.on_finished`), so a finished game always has exactly one
queued result, even if the device loses power a moment later. The station's link
(:mod:`.station`) publishes every row not yet answered with QoS 1. The broker's PUBACK
only sets ``sent`` (the broker has it: it may still lose it, killed before it saved its
queue); a row is done when the *console* answers its id on the station's ack topic:
``delivered`` (stored, now or before) or ``refused`` (the console can never take it; the
reason is kept and logged). Until then it is sent again after every reconnect or
restart and every :data:`~.station.RESEND_AFTER` seconds, however long the console or
the broker is away; the console stores each result id once.

The two answer columns (``delivered``, ``refused``) are added to an older journal's
outbox the first time an :class:`Outbox` opens it (:func:`upgrade`); its rows the broker
had acknowledged count as delivered, as the older version took them.

Result ids are ``<device>:<uuid4 hex>``: unique across the classroom and across a
journal that is wiped and started again.

An :class:`Outbox` uses the connection it is given from one thread only: the app's own
journal connection on the display thread (the link hands PUBACKs and answers to that
thread through its queue), or a connection of its own (:meth:`Outbox.open`) for a
process with no app.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.classroom.dice_lesson import dice_for_message
from tabletop.classroom.fleet.messages import (
    ResultMessage,
    SeatRecord,
    Topics,
    encode,
    parse,
)
from tabletop.classroom.skills import answers_for_message
from tabletop.engine.errors import BadInput
from tabletop.store_file import Connection

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pending:
    """One result waiting in the outbox."""

    id: str
    topic: str
    body: bytes
    created: float


def new_id(device: str) -> str:
    return f"{device}:{uuid.uuid4().hex}"


def result_message(
    db: sqlite3.Connection,
    match_id: int,
    device: str,
    *,
    result_id: str | None = None,
    sent: float = 0.0,
) -> ResultMessage:
    """The finished match ``match_id`` as a result message (its ``matches`` and ``seats``
    rows); :class:`BadInput` if the row is missing or not finished for "end"/"time"."""
    row = db.execute(
        "SELECT game, header, label, session, meta, result, reason, started, finished, elapsed,"
        " status FROM matches WHERE id = ?",
        (match_id,),
    ).fetchone()
    if row is None:
        raise BadInput("fleet.outbox", f"there is no match {match_id} to send")
    game, header, label, session, meta, result, reason, started, finished, elapsed, status = row
    if status != "finished":
        raise BadInput("fleet.outbox", f"match {match_id} is {status}, not finished")
    result_json = _object(result)
    seats = [
        SeatRecord(int(s), str(n), st, str(g or ""), b)
        for s, n, st, g, b in db.execute(
            "SELECT seat, name, student, grp, bot FROM seats WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
    ]
    if not seats:  # a game journaled without seat rows: its seats from the scores
        count = len(result_json.get("scores") or ())
        seats = [SeatRecord(i, f"Player {i + 1}") for i in range(count)]
    meta_json = _object(meta)
    answers = answers_for_message(db, match_id)  # issue 24: for the console's skills report
    if answers:
        meta_json["answers"] = answers
    dice = dice_for_message(db, match_id)  # for the dashboard's dice lesson, class-wide
    if dice:
        meta_json["dice"] = dice
    match = {
        "game": str(game),
        "header": str(header),
        "label": str(label or ""),
        "session": str(session or ""),
        "meta": meta_json,
        "result": result_json,
        "reason": str(reason or "end"),
        "started": float(started),
        "finished": float(finished if finished is not None else started),
        "elapsed": float(elapsed or 0.0),
    }
    return ResultMessage(result_id or new_id(device), device, match, tuple(seats), sent)


def _object(text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def enqueue(
    db: sqlite3.Connection,
    message: ResultMessage,
    topics: Topics,
    *,
    now: Callable[[], float] = time.time,
) -> None:
    """Add ``message`` to the outbox on ``db`` (inside the caller's transaction). The
    message is checked as the console will check it first (:func:`messages.parse`), so a
    result that would be refused there raises :class:`BadInput` here instead."""
    topic = topics.result(message.device)
    body = encode(message)
    parse(topics, topic, body)
    db.execute(
        "INSERT INTO outbox (id, topic, body, created, sent) VALUES (?, ?, ?, ?, NULL)",
        (message.id, topic, body.decode(), now()),
    )


def upgrade(db: sqlite3.Connection | Connection) -> bool:
    """Add the answer columns to an older outbox (see the module docstring); True when
    the outbox has them (False: the journal cannot be written, the broker's PUBACK then
    stays the only acknowledgement, as before)."""
    columns = {str(r[1]) for r in db.execute("PRAGMA table_info(outbox)")}
    if {"delivered", "refused"} <= columns:
        return True
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            if "delivered" not in columns:
                db.execute("ALTER TABLE outbox ADD COLUMN delivered REAL")
                db.execute("UPDATE outbox SET delivered = sent WHERE sent IS NOT NULL")
            if "refused" not in columns:
                db.execute("ALTER TABLE outbox ADD COLUMN refused TEXT")
            db.execute(
                "CREATE INDEX IF NOT EXISTS outbox_unanswered ON outbox (delivered, created)"
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        log.error(
            "fleet outbox: the answer columns cannot be added (%s): results count as "
            "delivered when the broker takes them",
            exc,
        )
        return False
    log.info("fleet outbox: results now wait for the teacher's console to store them")
    return True


class Outbox:
    """The outbox on one connection (see the module docstring)."""

    def __init__(
        self,
        db: sqlite3.Connection | Connection,
        device: str,
        topics: Topics,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.device = device
        self.topics = topics
        self.now = now
        self._own = False
        self.queued = 0  # results queued by on_finished in this process
        self.answered = upgrade(db)
        # What a row still waiting for its answer is (older journal: not yet sent).
        self._waiting = "delivered IS NULL AND refused IS NULL" if self.answered else "sent IS NULL"

    @classmethod
    def open(
        cls,
        path: Path | str,
        device: str,
        topics: Topics,
        *,
        now: Callable[[], float] = time.time,
    ) -> Outbox:
        """An outbox on its own connection to the journal file at ``path`` (WAL)."""
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout = 5000")
        box = cls(db, device, topics, now=now)
        box._own = True
        return box

    def on_finished(self, db: sqlite3.Connection, match_id: int) -> None:
        """:attr:`Journal.on_finished`: queue the result inside the finishing transaction.

        A row that does not make a valid result is logged and not queued (a finish must
        never fail for it); a failing write raises, which rolls back the finish."""
        try:
            message = result_message(db, match_id, self.device)
            enqueue(db, message, self.topics, now=self.now)
        except BadInput as exc:
            log.error("fleet outbox: match %d is not sent: %s: %s", match_id, exc.code, exc.message)
            return
        self.queued += 1
        log.info("fleet outbox: match %d queued as %s", match_id, message.id)

    def pending(self, limit: int = 200) -> list[Pending]:
        """Results the console has not answered yet, oldest first."""
        rows = self.db.execute(
            f"SELECT id, topic, body, created FROM outbox WHERE {self._waiting}"
            " ORDER BY created, rowid LIMIT ?",
            (limit,),
        ).fetchall()
        return [Pending(str(r[0]), str(r[1]), str(r[2]).encode(), float(r[3])) for r in rows]

    def mark_sent(self, result_id: str) -> bool:
        """The broker acknowledged ``result_id`` (the first time); False if it was
        already marked. The result still waits for the console's answer."""
        cur = self.db.execute(
            "UPDATE outbox SET sent = ? WHERE id = ? AND sent IS NULL", (self.now(), result_id)
        )
        return cur.rowcount > 0

    def mark_delivered(self, result_id: str) -> bool:
        """The console stored ``result_id``; False if it was answered already (or is
        not in this outbox)."""
        if not self.answered:
            return self.mark_sent(result_id)
        cur = self.db.execute(
            "UPDATE outbox SET delivered = ?, sent = COALESCE(sent, ?)"
            " WHERE id = ? AND delivered IS NULL AND refused IS NULL",
            (self.now(), self.now(), result_id),
        )
        return cur.rowcount > 0

    def mark_refused(self, result_id: str, reason: str) -> bool:
        """The console can never store ``result_id`` (``reason``): it is not sent again."""
        if not self.answered:
            return self.mark_sent(result_id)
        cur = self.db.execute(
            "UPDATE outbox SET refused = ?, sent = COALESCE(sent, ?)"
            " WHERE id = ? AND delivered IS NULL AND refused IS NULL",
            (reason or "refused", self.now(), result_id),
        )
        return cur.rowcount > 0

    def count(self) -> int:
        """How many results still wait for the console's answer."""
        (n,) = self.db.execute(f"SELECT COUNT(*) FROM outbox WHERE {self._waiting}").fetchone()
        return int(n)

    def refused(self) -> list[tuple[str, str]]:
        """``(result id, reason)`` of every result the console refused."""
        if not self.answered:
            return []
        rows = self.db.execute(
            "SELECT id, refused FROM outbox WHERE refused IS NOT NULL ORDER BY created, rowid"
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def total(self) -> int:
        (n,) = self.db.execute("SELECT COUNT(*) FROM outbox").fetchone()
        return int(n)

    def close(self) -> None:
        if self._own:
            self.db.close()


__all__ = ["Outbox", "Pending", "enqueue", "new_id", "result_message", "upgrade"]
