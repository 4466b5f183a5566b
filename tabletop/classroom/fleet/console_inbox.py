"""The teacher's console, what comes in: every station's status and finished games.

Results: each is checked (:func:`parse`, within the bounds of :mod:`.messages`), then
stored in one transaction: its id goes into ``fleet_results`` and, only if the id is
new, its game becomes a ``matches`` row (status ``finished``, label ``fleet:<device>``)
with its ``seats``, so :func:`tabletop.classroom.report_rows.gather` on the console's journal
reports the whole classroom. Then the console *answers* the station on its ack topic
(``stored``: now or before), and only then acknowledges the MQTT message. The station
keeps the result and sends it again until that answer comes, so a result is stored
exactly once however often it arrives, even when the broker lost what it had queued.

Poison never jams the queue: every message the console cannot take (not JSON, too
large, too deep, numbers out of range, a value the schema refuses, *any* exception
while it is read or stored) is acknowledged all the same. A refused result is answered
``stored: false`` with the reason (the station marks it refused and stops sending it),
logged once, kept in ``fleet_refused`` (so a resend or a console restart does not log
or count it again) and shown on the dashboard in the teacher's words (:mod:`.problems`:
what happened, what to do) until the teacher dismisses it. A result that could not be
*written* (the console's disk is full, the journal is locked) is acknowledged but not
answered: the station sends it again later; so is one the journal kept only in memory
(its file stopped taking writes: :attr:`~tabletop.store.Journal.saving` is false), as a
restart would lose it: the station keeps it and sends it again, and the resend is
answered once the journal is back on its file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from typing import Any

from tabletop.classroom.dice_lesson import store_dice
from tabletop.classroom.fleet import problems as said
from tabletop.classroom.fleet.console_state import ConsoleState, StationSeen
from tabletop.classroom.fleet.messages import (
    AckMessage,
    ResultMessage,
    StatusMessage,
    encode,
    parse,
    result_id_in,
)
from tabletop.classroom.fleet.problems import Refusal
from tabletop.engine.errors import TabletopError
from tabletop.store import SeatInfo, write_seats

log = logging.getLogger("tabletop.classroom.fleet.coordinator")  # the console's log lines


class ConsoleInbox(ConsoleState):
    """The messages the console takes from the broker (see the module docstring), on its
    worker thread."""

    _client: Any  # the console's MQTT client (None: not connected)

    def _received(self, topic: str, payload: bytes, mid: int, qos: int) -> None:
        """One message from the broker: taken, refused or left for a resend, and then
        acknowledged whatever happened, so the broker's queue always moves."""
        try:
            kind = self.topics.kind_of(topic)
            if kind == "status":
                self._status(topic, payload)
            elif kind == "result":
                self._result(topic, payload)
            else:  # only station topics are subscribed to; the console's own echo
                log.debug("console: ignored %s", topic)
        except Exception as exc:  # a bug must not jam the queue: refused, said once
            self._refuse(topic, payload, exc)
        if qos > 0 and self._client is not None:
            self._client.ack(mid, qos)

    def _refuse(
        self, topic: str, payload: bytes, exc: BaseException, result_id: str | None = None
    ) -> None:
        """A message the console cannot take: logged once, counted, kept for the
        dashboard and, for a result with an id, answered so its station stops sending."""
        code = exc.code if isinstance(exc, TabletopError) else "fleet.error"
        reason = exc.message if isinstance(exc, TabletopError) else f"{type(exc).__name__}: {exc}"
        reason = reason.removeprefix(f"{topic}: ")  # the log line names the topic
        found = self.topics.device_of(topic)
        device, kind = found if found is not None else ("?", "?")
        if kind != "result":  # a status: said once per station and fault, till a good one
            self.refused[code] = self.refused.get(code, 0) + 1
            if (device, code) not in self.bad_status:
                log.warning(
                    "console: refused a %s message on %s: %s (%s)", kind, topic, reason, code
                )
                self._changed()
            self.bad_status.setdefault((device, code), self.now())
            return
        rid = result_id or result_id_in(payload)
        key = rid or "sha256:" + hashlib.sha256(payload).hexdigest()[:32]
        if key not in self.refusals:
            assert self.journal is not None
            refusal = Refusal(key, device, rid, code, reason[:300], self.now())
            self.refusals[key] = refusal
            self.refused[code] = self.refused.get(code, 0) + 1
            log.warning(
                "console: refused result %s from %s (%d bytes): %s (%s)",
                rid or "(no id)",
                device,
                len(payload),
                reason,
                code,
            )
            said.keep_refusal(self.journal, refusal)
            self._changed()
        if rid is not None:
            self._answer(device, rid, stored=False, reason=reason[:300])

    def _answer(self, device: str, result_id: str, *, stored: bool, reason: str = "") -> None:
        """Tell ``device`` that ``result_id`` is stored (or refused for good)."""
        if self._client is None:
            return
        answer = AckMessage(result_id, device, stored, reason, self.now())
        self._client.publish(self.topics.ack(device), encode(answer), qos=1)

    def _status(self, topic: str, payload: bytes) -> None:
        if not payload:
            return  # a retained status cleared by hand
        status = parse(self.topics, topic, payload)  # refused by _received if it fails
        assert isinstance(status, StatusMessage)
        t = self.now()
        seen = self.stations.setdefault(status.device, StationSeen(status.device))
        seen.received = t
        for key in [k for k in self.bad_status if k[0] == status.device]:
            del self.bad_status[key]  # well again: its unreadable status is no problem now
        seen.online = status.online
        if status.online:
            seen.status = status
            seen.last_seen = t
            for record in self.records.values():
                if record.seq <= status.clock_seq and status.device not in record.reached:
                    record.reached[status.device] = t
        else:
            log.info("console: %s went offline", status.device)
        self._changed()

    def _result(self, topic: str, payload: bytes) -> None:
        result = parse(self.topics, topic, payload)  # refused by _received if it fails
        assert isinstance(result, ResultMessage)
        if self.twin_runs():  # another console runs: the store must not split
            return  # not answered: the station keeps it and sends it again
        try:
            new = self._store(result)
            assert self.journal is not None
            if not self.journal.saving:  # only in memory: a restart would lose it
                trouble = self.journal.trouble or "the console keeps nothing"
                raise TabletopError("store.write", f"it is kept in memory only ({trouble})")
        except (TabletopError, sqlite3.Error, OSError) as exc:
            # The journal cannot be written now (a full or read-only disk, a lock): not
            # answered, so the station keeps it and sends it again; said once per result.
            why = exc.message if isinstance(exc, TabletopError) else str(exc)
            if result.id not in self.unwritten:
                log.error("console: result %s is not stored now: %s", result.id, why)
                self.unwritten_since = self.now()
                self._changed()
            self.unwritten[result.id] = why
            return
        except Exception as exc:  # it cannot be stored, ever: refused and answered
            self._refuse(topic, payload, exc, result.id)
            return
        if self.unwritten.pop(result.id, None) is not None:
            new = True  # it waited on its station (in the memory copy, maybe): stored now
            self._changed()
        if new:
            self.results += 1
            log.info("console: stored result %s from %s", result.id, result.device)
        else:
            self.duplicates += 1
            log.info("console: result %s from %s was stored already", result.id, result.device)
        self._answer(result.device, result.id, stored=True)
        self._changed()

    def _store(self, result: ResultMessage) -> bool:
        """Store one result once: True if it was new."""
        assert self.journal is not None
        m = result.match
        with self.journal.transaction() as db:
            if db.execute("SELECT 1 FROM fleet_results WHERE id = ?", (result.id,)).fetchone():
                return False
            cur = db.execute(
                "INSERT INTO matches (game, header, label, meta, started, status, finished,"
                " reason, result, elapsed, session)"
                " VALUES (?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?)",
                (
                    m["game"],
                    str(m.get("header", "")),
                    f"fleet:{result.device}",
                    json.dumps(m["meta"], sort_keys=True),
                    float(m["started"]),
                    float(m["finished"]),
                    m["reason"],
                    json.dumps(m["result"], sort_keys=True),
                    float(m["elapsed"]),
                    str(m.get("session", "")),
                ),
            )
            match_id = int(cur.lastrowid or 0)
            write_seats(
                db,
                match_id,
                [SeatInfo(s.seat, s.name, s.student, s.group, s.bot) for s in result.seats],
            )
            from tabletop.classroom.skills import store_answers

            store_answers(db, match_id, m["meta"].get("answers"), self.now())  # issue 24
            store_dice(db, match_id, str(m.get("session", "")), m["meta"].get("dice"), self.now())
            db.execute(
                "INSERT INTO fleet_results (id, device, match_id, received) VALUES (?, ?, ?, ?)",
                (result.id, result.device, match_id, self.now()),
            )
        return True


__all__ = ["ConsoleInbox"]
