"""The teacher's console in the classroom fleet: plan, clocks and class list out;
every station's status and finished games in.

A :class:`Coordinator` owns one MQTT client (user ``teacher``) and one
:class:`~tabletop.store.Journal` (the console's own data folder). The journal is touched
only from the coordinator's *worker* thread: paho calls back on its own thread and only
puts messages on the worker's queue, and every operation (the dashboard's buttons, the
roster editor) is a job on the same queue (:meth:`Coordinator.call` returns a
:class:`concurrent.futures.Future`). So nothing here needs a lock around the journal,
and operations happen in the order they were asked for.

What it keeps:

- every station's newest :class:`StatusMessage`, when it arrived, and whether the
  station is online (its will says when it dropped off);
- the plan (:class:`PlanMessage`), one :class:`RotationClock` per station and ``seq``,
  stored in ``fleet_state`` so a restarted console carries on with the same clocks;
- the class list (the journal's ``students``, through :class:`Roster`).

The plan, the clocks and the class list are published retained with QoS 1 after every
change and again on every (re)connection: the console is their single source of truth.

Results: each is checked (:func:`parse`, within the bounds of :mod:`.messages`), then
stored in one transaction: its id goes into ``fleet_results`` and, only if the id is
new, its game becomes a ``matches`` row (status ``finished``, label ``fleet:<device>``)
with its ``seats``, so :func:`tabletop.classroom.report.gather` on the console's journal
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
answered: the station sends it again later.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime
import hashlib
import json
import logging
import queue
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tabletop.classroom.dice_lesson import store_dice
from tabletop.classroom.fleet import problems as said
from tabletop.classroom.fleet.config import TEACHER, FleetConfig
from tabletop.classroom.fleet.messages import (
    AckMessage,
    ClockMessage,
    PlanMessage,
    ResultMessage,
    RosterMessage,
    RosterStudent,
    StatusMessage,
    encode,
    parse,
    result_id_in,
)
from tabletop.classroom.fleet.problems import Problem, Refusal, roster_problem
from tabletop.classroom.fleet.tls import RetryLog, hung_up, why_lost, why_unreachable
from tabletop.classroom.roster import Roster
from tabletop.classroom.rotation import GAME_TITLES, Plan, RotationClock
from tabletop.engine.errors import BadInput, DeviceError, TabletopError
from tabletop.store import FILE_NAME, Journal, SeatInfo, write_seats

log = logging.getLogger(__name__)

T = TypeVar("T")

ACTIONS = ("pause", "resume", "extend", "skip", "end")
KEEP_SEQS = 500  # latency records kept (the newest)


@dataclass
class StationSeen:
    """The console's view of one device: its newest status and when it arrived."""

    device: str
    status: StatusMessage | None = None  # the newest online status
    received: float = 0.0  # when the newest status (or will) arrived
    last_seen: float = 0.0  # when the newest online status arrived
    online: bool = False


@dataclass
class SeqRecord:
    """When ``seq`` was published, and when each device first said it follows it."""

    seq: int
    published: float
    action: str
    devices: tuple[str, ...]  # the devices the plan names (those that must follow)
    reached: dict[str, float] = field(default_factory=dict)

    @property
    def everywhere(self) -> float | None:
        """When the last of :attr:`devices` reached it (None: not all yet)."""
        if not self.devices or any(d not in self.reached for d in self.devices):
            return None
        return max(self.reached[d] for d in self.devices)

    def to_json(self) -> dict[str, Any]:
        done = self.everywhere
        return {
            "seq": self.seq,
            "action": self.action,
            "published": self.published,
            "devices": list(self.devices),
            "reached": dict(self.reached),
            "everywhere": None if done is None else done - self.published,
        }


class Coordinator:
    """The teacher's console (see the module docstring).

    ``config``: the console's fleet file (device ``teacher``); ``data``: its data folder
    (the journal ``tabletop.sqlite3`` in it, or a :class:`Journal` path ``":memory:"``
    for tests); ``now``: the wall clock (epoch seconds) the clocks and records use.
    """

    def __init__(
        self,
        config: FleetConfig,
        data: Path | str,
        *,
        now: Callable[[], float] = time.time,
        client_id: str | None = None,
    ) -> None:
        if config.device != TEACHER:
            raise BadInput(
                "fleet.teacher",
                f'the console needs the teacher\'s fleet file (device = "{TEACHER}"), '
                f"not {config.device!r}'s",
            )
        self.config = config
        self.topics = config.topics
        self.path = data if str(data) == ":memory:" else Path(data) / FILE_NAME
        self.now = now
        self.client_id = client_id or f"tabletop-teacher-{config.prefix.replace('/', '-')}"
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._answered = False  # network thread: the broker answered this connection
        self._retry = RetryLog(log, "console")  # network thread
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        # Everything below belongs to the worker thread.
        self.journal: Journal | None = None
        self.stations: dict[str, StationSeen] = {}
        self.plan: PlanMessage | None = None
        self.clocks: tuple[RotationClock, ...] = ()
        self.seq = 0
        self.station_seq: dict[int, int] = {}  # station -> the last seq that changed its clock
        self.records: dict[int, SeqRecord] = {}
        self.refused: dict[str, int] = {}
        self.refusals: dict[str, Refusal] = {}  # refused results, by key (fleet_refused)
        self.results = 0  # results stored since start
        self.duplicates = 0  # results received again (already stored)
        self.unwritten: dict[str, str] = {}  # result id -> why it could not be stored now
        self.unwritten_since = 0.0  # when the newest of them came
        self.roster_problem = ""  # why the class list is not sent to the stations
        self.roster_since = 0.0  # since when
        self.bad_status: dict[tuple[str, str], float] = {}  # (device, code) -> since when
        self.dismissed: set[str] = set()  # problem keys the teacher has seen (problems.py)
        self.connected = False
        self.version = 0  # grows with every change the dashboard shows

    # -- life ----------------------------------------------------------------------------

    def start(self, *, connect: bool = True, timeout: float = 10.0) -> Coordinator:
        """Open the journal and restore the state (on the worker thread), then connect
        to the broker (reconnecting by itself after an outage)."""
        self._thread = threading.Thread(target=self._work, name="teacher-console", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise DeviceError("fleet.console", "the console's worker did not start")
        if self._failed is not None:
            raise self._failed
        if connect:
            self._connect()
        return self

    def stop(self) -> None:
        """Disconnect and close the journal (idempotent)."""
        client, self._client = self._client, None
        if client is not None:
            try:
                client.disconnect()
                client.loop_stop()
            except Exception as exc:
                log.warning("console: disconnecting: %s", exc)
        if self._thread is not None and self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(10)
        self._thread = None

    def __enter__(self) -> Coordinator:
        return self if self._thread is not None else self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        """Run ``fn(*args, **kwargs)`` on the worker thread (the only one that touches
        the journal and the state); its result or exception in the future."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:
                future.set_exception(exc)

        if self._thread is None:
            raise DeviceError("fleet.console", "the console is not running")
        self._jobs.put(job)
        return future

    def run(self, fn: Callable[..., T], *args: Any, timeout: float = 10.0, **kwargs: Any) -> T:
        """:meth:`call` and wait for the result."""
        return self.call(fn, *args, **kwargs).result(timeout)

    # -- operations (run these on the worker: through call() or run()) ------------------

    def start_plan(
        self,
        plan: Plan,
        stations: Mapping[str, int],
        session: str | None = None,
        *,
        swap: bool = False,
    ) -> PlanMessage:
        """A new rotation: ``stations`` says which device is which station (0-based);
        every station's clock starts now. ``swap``: the running rotation on other devices
        (a broken one replaced): its plan, session and every clock go on, and only the
        stations whose device changed get a new ``seq``."""
        self._on_worker()
        t = self.now()
        session = (session or "").strip() or _today(t)
        running = self.plan
        if swap and (running is None or (running.plan, running.session) != (plan, session)):
            raise BadInput(
                "teacher.swap",
                "only the devices may change while the rotation goes on: to change the plan "
                "too, clear it and start it again",
            )
        message = PlanMessage(
            id=running.id if swap and running is not None else uuid.uuid4().hex,
            session=session,
            plan=plan,
            stations=dict(stations),
            sent=t,
            ignored=running.ignored if swap and running is not None else {},
        )
        # The same checks a station makes, so the console never sends what they refuse.
        parse(self.topics, self.topics.plan, encode(message))
        self.plan = message
        if swap and running is not None:
            old, new = running.stations.items(), message.stations.items()
            self._new_seq("swap", t, {s for d, s in old ^ new})
            log.info("console: plan %s now on %s (clocks go on)", message.id, dict(new))
            return message
        self.clocks = tuple(RotationClock(plan, t) for _ in plan.stations)
        self._new_seq("start", t, range(len(plan.stations)))
        log.info(
            "console: plan %s started (%d stations, session %r)",
            message.id,
            len(plan.stations),
            message.session,
        )
        return message

    def clock_action(self, action: str, station: int | None = None, minutes: int = 1) -> int:
        """``action`` (pause, resume, extend, skip, end) for every station (None) or
        one (0-based); the new ``seq``."""
        self._on_worker()
        if action not in ACTIONS:
            raise BadInput("teacher.action", f"unknown action {action!r}: one of {ACTIONS}")
        if self.plan is None or not self.clocks:
            raise BadInput("teacher.no_plan", "no rotation is running: start one first")
        if station is not None and (
            isinstance(station, bool)
            or not isinstance(station, int)
            or not 0 <= station < len(self.clocks)
        ):
            raise BadInput(
                "teacher.station",
                f"there is no station {station!r}: the plan has {len(self.clocks)}",
            )
        t = self.now()

        def change(clock: RotationClock) -> RotationClock:
            if action == "extend":
                return clock.extend(t, minutes)
            result: RotationClock = getattr(clock, action)(t)
            return result

        self.clocks = tuple(
            change(c) if station is None or i == station else c for i, c in enumerate(self.clocks)
        )
        where = "every station" if station is None else f"station {station + 1}"
        changed = range(len(self.clocks)) if station is None else [station]
        self._new_seq(action if station is None else f"{action} {station + 1}", t, changed)
        log.info("console: %s for %s (seq %d)", action, where, self.seq)
        return self.seq

    def clear_plan(self) -> None:
        """No rotation any more. Every station's clock is ended first and stays
        retained on the broker with its plan, so a station that is away now learns that
        the rotation ended when it is back (an empty retained message would just vanish);
        then the console forgets the plan."""
        self._on_worker()
        if self.plan is not None and self.clocks:
            t = self.now()
            self.clocks = tuple(c.end(t) for c in self.clocks)
            self._new_seq("clear", t, range(len(self.clocks)))
        self.plan = None
        self.clocks = ()
        self._save_state()
        self._changed()
        log.info("console: plan cleared (its clocks ended, seq %d)", self.seq)

    def roster(self) -> Roster:
        self._on_worker()
        assert self.journal is not None
        return Roster(self.journal, now=self.now)

    def roster_change(self, what: str, **kwargs: Any) -> Any:
        """One change to the class list (``add``, ``rename``, ``set_group``, ``remove``,
        ``import_csv``), then the list is published. The :class:`Roster` method's value."""
        self._on_worker()
        if what not in ("add", "rename", "set_group", "remove", "import_csv"):
            raise BadInput("teacher.roster", f"unknown class list change {what!r}")
        roster = self.roster()
        before = roster.students()
        result = getattr(roster, what)(**kwargs)
        problem = roster_problem(roster.students())
        if problem:
            # Put the list back as it was (one transaction), so nothing is half-sent.
            roster.import_students(before, replace=True)
            raise BadInput("teacher.roster_size", problem + " Nothing was changed.")
        self._publish_roster()
        self._changed()
        return result

    def snapshot(self) -> dict[str, Any]:
        """Everything the dashboard shows, as JSON values."""
        self._on_worker()
        t = self.now()
        plan = self.plan
        assigned = dict(plan.stations) if plan else {}
        devices = sorted(set(self.stations) | set(assigned), key=lambda d: (assigned.get(d, 99), d))
        offline = self._offline()
        cards = []
        for device in devices:
            seen = self.stations.get(device) or StationSeen(device)
            status = seen.status
            station = assigned.get(device)
            cards.append(
                {
                    "device": device,
                    "station": station,
                    "title": plan.plan.station_title(station)
                    if plan is not None and station is not None
                    else None,
                    "online": seen.online,
                    "last_seen": seen.last_seen or None,
                    "age": (t - seen.received) if seen.received else None,
                    "status": status.to_json() if status is not None else None,
                    "game_title": GAME_TITLES.get(status.game or "", status.game)
                    if status is not None and status.game
                    else None,
                    "waiting": station is None or status is None or status.station is None,
                    "follows": status is not None
                    and status.clock_seq >= self.station_seq.get(station, self.seq)
                    if station is not None
                    else True,
                    "dismiss": offline.get(device),  # its card may be dismissed
                    "dismissed": offline.get(device) in self.dismissed,
                }
            )
        return {
            "now": t,
            "version": self.version,
            "connected": self.connected,
            "seq": self.seq,
            "plan": plan.to_json() if plan is not None else None,
            "clocks": [c.to_json() for c in self.clocks],
            "moments": [_moment(c, t, i) for i, c in enumerate(self.clocks)],
            "stations": cards,
            "refused": dict(self.refused),
            "results": self.results,
            "duplicates": self.duplicates,
            "problems": [p.to_json() for p in self.open_problems()],
        }

    def problems(self) -> list[str]:
        """The sentences of :meth:`open_problems`."""
        return [p.sentence for p in self.open_problems()]

    def open_problems(self) -> list[Problem]:
        """What the dashboard says is wrong and the teacher has not dismissed."""
        self._on_worker()
        return said.shown(self._problems(), self.dismissed)

    def _problems(self) -> list[Problem]:
        """Every problem now (:mod:`.problems`): a class list the stations cannot take,
        results that cannot be stored now, statuses that cannot be read, results refused
        (newest first)."""
        found = []
        if self.roster_problem:
            sentence = self.roster_problem + " The stations keep the list they had."
            found.append(Problem((said.key("roster", "", self.roster_since),), sentence))
        if self.unwritten:
            why = next(reversed(self.unwritten.values()))
            sentence = (
                f"{len(self.unwritten)} results cannot be stored now ({why}); the stations "
                "keep them and send them again."
            )
            found.append(Problem((said.key("unwritten", "", self.unwritten_since),), sentence))
        found.extend(self._plan_problems())
        for (device, code), since in self.bad_status.items():
            sentence = said.unreadable_status(self._station_name(device), code)
            found.append(Problem((said.key("status", f"{device}:{code}", since),), sentence))
        for r in sorted(self.refusals.values(), key=lambda r: r.received, reverse=True):
            sentence = said.refused_result(self._station_name(r.device), r.code)
            found.append(Problem((f"refused:{r.key}",), sentence))
        return found

    def _plan_problems(self) -> list[Problem]:
        """The stations of the restored plan that lost presets this console does not
        know, the stations the plan names that play it without presets they do not know,
        or that still do not follow it :data:`~.problems.PLAN_TAKEN_WITHIN` seconds after
        it was sent though they talk (an older version refused it)."""
        plan = self.plan
        if plan is None:
            return []
        found = [
            Problem(
                (said.key("dropped", str(station), plan.sent),),
                said.dropped_options(station, plan.plan.stations[station].game, keys),
            )
            for station, keys in sorted(plan.ignored.items())
        ]
        for device, station in sorted(plan.stations.items(), key=lambda item: item[1]):
            seen = self.stations.get(device)
            status = seen.status if seen is not None and seen.online else None
            if seen is None or status is None:
                continue
            name = self._station_name(device)
            if status.plan == plan.id and status.ignored:
                game = plan.plan.stations[station].game
                sentence = said.ignored_options(name, game, status.ignored)
                found.append(Problem((said.key("ignored", device, plan.sent),), sentence))
            elif (
                status.plan != plan.id
                and status.clock_seq < self.station_seq.get(station, self.seq)
                and seen.received - plan.sent >= said.PLAN_TAKEN_WITHIN
            ):
                sentence = said.plan_not_taken(name)
                found.append(Problem((said.key("not_taken", device, plan.sent),), sentence))
        return found

    def dismiss(self, keys: Sequence[str]) -> None:
        """The teacher has seen the problems (or offline cards) of ``keys``: they are not
        shown until they happen again (kept in ``fleet_state``; the log and the journal
        keep what happened)."""
        self._on_worker()
        if isinstance(keys, str) or not all(isinstance(k, str) for k in keys):
            raise BadInput("teacher.dismiss", f"say which problems to dismiss, not {keys!r}")
        for k in sorted(set(keys) - self.dismissed):
            log.info("console: the teacher dismissed %s", k)
        now = {k for p in self._problems() for k in p.keys} | set(self._offline().values())
        self.dismissed = (self.dismissed | set(keys)) & now  # gone ones are forgotten
        self._save_state()
        self._changed()

    def _offline(self) -> dict[str, str]:
        """The devices offline that the plan does not name: device -> the key that
        dismisses its card (until it is back and goes offline again)."""
        named = self.plan.stations if self.plan is not None else {}
        return {
            device: said.key("offline", device, seen.last_seen)
            for device, seen in self.stations.items()
            if not seen.online and device not in named
        }

    def _station_name(self, device: str) -> str:
        station = self.plan.station_of(device) if self.plan is not None else None
        # a sentence starts with a capital: "Device station-2 sent ..." (its id as it is)
        return f"Station {station + 1} ({device})" if station is not None else f"Device {device}"

    def latency(self) -> list[dict[str, Any]]:
        """The newest seq records: when each was published and reached every station."""
        self._on_worker()
        return [r.to_json() for r in sorted(self.records.values(), key=lambda r: r.seq)]

    # -- the worker ----------------------------------------------------------------------

    def _work(self) -> None:
        try:
            self.journal = Journal(self.path, now=self.now)
            if self.journal.notice:
                log.warning("console: %s", self.journal.notice)
            self._restore()
            self.refusals = said.read_refusals(self.journal)
        except BaseException as exc:
            self._failed = exc
            self._ready.set()
            return
        self._ready.set()
        while True:
            job = self._jobs.get()
            if job is None:
                break
            try:
                job()
            except Exception:  # a job's own errors go to its future; this is a bug
                log.exception("console: a job failed")
        self.journal.close()

    def _on_worker(self) -> None:
        if threading.current_thread() is not self._thread:
            raise RuntimeError("the console's state is touched only on its worker thread")

    def _changed(self) -> None:
        self.version += 1

    # -- MQTT ------------------------------------------------------------------------------

    def _connect(self) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=False,  # results queued while the console was away still arrive
            manual_ack=True,  # acknowledged once taken: stored, refused, or left for a resend
        )
        self.config.login(client)
        client.reconnect_delay_set(min_delay=1, max_delay=5)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive)
        client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._answered = True
        if reason.is_failure:
            self._retry.failed(f"the broker refused the connection: {reason}", logging.ERROR)
            return
        self._retry.connected()
        client.subscribe([(self.topics.all_status, 1), (self.topics.all_results, 1)])
        self._jobs.put(self._connected)

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        # paho calls this while it handles the connection's error: sys.exc_info() has it.
        self._retry.failed(why_unreachable(sys.exc_info()[1], self.config.host, self.config.port))

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self._client is None:
            return  # stop() hung up
        answered, self._answered = self._answered, False
        if not answered:
            self._retry.failed(hung_up(self.config.host, self.config.port, tls=self.config.tls))
            return
        log.warning("console: lost the broker (%s); reconnecting", why_lost(reason))
        self._jobs.put(self._disconnected)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        topic, payload, mid, qos = message.topic, bytes(message.payload), message.mid, message.qos
        self._jobs.put(lambda: self._received(topic, payload, mid, qos))

    def _connected(self) -> None:
        self.connected = True
        self._publish_plan()
        self._publish_roster()
        self._changed()
        log.info("console: connected to %s:%d", self.config.host, self.config.port)

    def _disconnected(self) -> None:
        self.connected = False
        self._changed()

    def _publish(self, topic: str, payload: bytes) -> None:
        if self._client is not None:
            self._client.publish(topic, payload, qos=1, retain=True)

    def _publish_plan(self) -> None:
        """The plan and the clocks, retained. With no plan nothing is sent: the last plan
        stays on the broker with its ended clocks (see :meth:`clear_plan`)."""
        if self.plan is None:
            return
        self._publish(self.topics.plan, encode(self.plan))
        self._publish(self.topics.clock, encode(self._clock_message()))

    def _publish_roster(self) -> None:
        """The class list, retained; one the stations could not take is not sent (the
        dashboard says so: stations never drop it silently)."""
        students = self.roster().students()
        problem = roster_problem(students)
        if problem != self.roster_problem:
            self.roster_problem, self.roster_since = problem, self.now()
            if problem:
                log.error("console: the class list is not sent: %s", problem)
            self._changed()
        if problem:
            return
        listed = tuple(RosterStudent(s.id, s.name, s.group) for s in students)
        self._publish(self.topics.roster, encode(RosterMessage(listed, self.now())))

    def _clock_message(self) -> ClockMessage:
        assert self.plan is not None
        return ClockMessage(self.plan.id, self.seq, self.clocks, self.now())

    def _new_seq(self, action: str, t: float, stations: Iterable[int]) -> None:
        """A new ``seq`` for a change to the clocks of ``stations``: saved, published, and
        recorded (the devices of those stations must show it)."""
        self.seq += 1
        assert self.plan is not None
        changed = set(stations)
        for station in changed:
            self.station_seq[station] = self.seq
        devices = tuple(sorted(d for d, s in self.plan.stations.items() if s in changed))
        self.records[self.seq] = SeqRecord(self.seq, t, action, devices)
        for old in sorted(self.records)[:-KEEP_SEQS]:
            del self.records[old]
        self._save_state()
        self._publish_plan()
        self._changed()

    # -- incoming --------------------------------------------------------------------------

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
        try:
            new = self._store(result)
        except (TabletopError, sqlite3.Error, OSError) as exc:
            # The journal cannot be written now (a full disk, a lock): not answered, so
            # the station sends it again; said once per result.
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

    # -- fleet_state -------------------------------------------------------------------------

    def _save_state(self) -> None:
        assert self.journal is not None
        t = self.now()
        rows = [("seq", json.dumps(self.seq)), ("dismissed", json.dumps(sorted(self.dismissed)))]
        if self.plan is not None:
            rows.append(("plan", json.dumps(self.plan.to_json())))
            rows.append(("clock", json.dumps(self._clock_message().to_json())))
        with self.journal.transaction() as db:
            if self.plan is None:
                db.execute("DELETE FROM fleet_state WHERE key IN ('plan', 'clock')")
            db.executemany(
                "INSERT INTO fleet_state (key, body, changed) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET body = excluded.body,"
                " changed = excluded.changed",
                [(k, body, t) for k, body in rows],
            )

    def _restore(self) -> None:
        """The plan, clocks and seq the console had (a restart carries on)."""
        assert self.journal is not None
        try:
            state = {
                str(k): str(b)
                for k, b in self.journal.db.execute("SELECT key, body FROM fleet_state")
            }
        except sqlite3.Error as exc:
            log.error("console: the saved state cannot be read: %s", exc)
            return
        with contextlib.suppress(ValueError, TypeError):  # none seen: all shown again
            self.dismissed = set(map(str, json.loads(state.get("dismissed", "[]"))))
        try:
            self.seq = int(json.loads(state.get("seq", "0")))
            if "plan" in state and "clock" in state:
                plan = parse(self.topics, self.topics.plan, state["plan"].encode())
                assert isinstance(plan, PlanMessage)
                clock = parse(
                    self.topics, self.topics.clock, state["clock"].encode(), plan=plan.plan
                )
                assert isinstance(clock, ClockMessage)
                self.plan, self.clocks = plan, clock.clocks
                self.seq = max(self.seq, clock.seq)
                log.info("console: carrying on with plan %s (seq %d)", plan.id, self.seq)
                for station, keys in sorted(plan.ignored.items()):
                    log.warning(
                        "console: the saved plan's station %d has options this version does "
                        "not know, left out: %s",
                        station + 1,
                        ", ".join(keys),
                    )
        except (ValueError, TypeError) as exc:  # BadInput is a ValueError
            log.error("console: the saved plan does not read, starting without one: %s", exc)
            self.plan, self.clocks = None, ()


def _today(t: float) -> str:
    return datetime.date.fromtimestamp(t).isoformat()


def _moment(clock: RotationClock, t: float, station: int) -> dict[str, Any]:
    """Station ``station``'s clock at ``t``, with its title and the group that belongs
    there (for a station the teacher gave no device: its card says where that group goes),
    and the one that comes after it (a station resting this round says who comes next)."""
    m = clock.now(t)
    return {
        "rotation": m.rotation,
        "phase": m.phase,
        "left": m.play_left,
        "paused": m.paused,
        "title": m.plan.station_title(station),
        "group": m.group_at(station),
        "next": None if m.done else m.plan.group_at(station, m.seated + 1),
    }


__all__ = ["ACTIONS", "Coordinator", "Refusal", "SeqRecord", "StationSeen", "roster_problem"]
