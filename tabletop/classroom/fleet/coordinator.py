"""The teacher's console in the classroom fleet: plan, clocks and class list out;
every station's status and finished games in.

A :class:`Coordinator` owns one MQTT client (user ``teacher``) and one
:class:`~tabletop.store.Journal` (the console's own data folder). The journal is touched
only from the coordinator's *worker* thread: paho calls back on its own thread and only
puts messages on the worker's queue, and every operation (the dashboard's buttons, the
roster editor) is a job on the same queue (:meth:`Coordinator.call` returns a
:class:`concurrent.futures.Future`). So nothing here needs a lock around the journal,
and operations happen in the order they were asked for.

What it keeps, and what the dashboard shows of it, is
:mod:`.console_state`'s (:class:`~.console_state.ConsoleState`); what comes in, statuses
and results, and how a result is stored exactly once and poison never jams the queue, is
:mod:`.console_inbox`'s. :class:`Coordinator` extends both with its life, its
operations and the MQTT client.

The plan, the clocks and the class list are published retained with QoS 1 after every
change and again on every (re)connection: the console is their single source of truth.
"""

from __future__ import annotations

import concurrent.futures
import datetime
import logging
import queue
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from tabletop.classroom.fleet import presence
from tabletop.classroom.fleet import problems as said
from tabletop.classroom.fleet.config import TEACHER, FleetConfig
from tabletop.classroom.fleet.console_inbox import ConsoleInbox
from tabletop.classroom.fleet.console_state import SeqRecord
from tabletop.classroom.fleet.messages import (
    PlanMessage,
    RosterMessage,
    RosterStudent,
    encode,
    parse,
)
from tabletop.classroom.fleet.problems import roster_problem
from tabletop.classroom.fleet.tls import (
    TAKEN_OVER,
    RetryLog,
    hung_up,
    why_lost,
    why_unreachable,
)
from tabletop.classroom.roster import Roster
from tabletop.classroom.rotation import Plan, RotationClock
from tabletop.engine.errors import BadInput, DeviceError
from tabletop.store import FILE_NAME, Journal

log = logging.getLogger(__name__)

T = TypeVar("T")

ACTIONS = ("pause", "resume", "extend", "skip", "end")
KEEP_SEQS = 500  # latency records kept (the newest)
LOOK_EVERY = 1.0  # seconds: the worker looks at what changed with time (_look)


class Coordinator(ConsoleInbox):
    """The teacher's console (see the module docstring).

    ``config``: the console's fleet file (device ``teacher``); ``data``: its data folder
    (the journal ``tabletop.sqlite3`` in it, or a :class:`Journal` path ``":memory:"``
    for tests: it keeps nothing, so it tells no station a result is stored); ``now``: the
    wall clock (epoch seconds) the clocks and records use.
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
        self.presence_id = presence.new_id()  # this console process (presence.py)
        super().__init__()  # the worker thread's state (ConsoleState)

    # -- life ----------------------------------------------------------------------------

    def start(self, *, connect: bool = True, timeout: float = 10.0) -> Coordinator:
        """Refuse to start where another console of this classroom runs (presence.py),
        open the journal and restore the state (on the worker thread), then connect to
        the broker (reconnecting by itself after an outage)."""
        twin = presence.other_console(self.config, self.presence_id) if connect else None
        if twin is not None:
            log.error("console: another console of this classroom runs (%s): not started", twin)
            raise DeviceError(
                "fleet.twin",
                f"another console of this classroom is connected to the broker at "
                f"{self.config.host}:{self.config.port} (console {twin}): two would split "
                "the results; use its dashboard, or stop it first",
            )
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
                bye = presence.Presence(self.presence_id, False, self.now(), stopped=True)
                if client.is_connected():
                    client.publish(
                        presence.topic(self.config), bye.encode(), 1, True
                    ).wait_for_publish(2)
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
        check: bool = False,
    ) -> PlanMessage:
        """A new rotation: ``stations`` says which device is which station (0-based);
        every station's clock starts now. ``swap``: the running rotation on other devices
        (a broken one replaced): its plan, session and every clock go on, and only the
        stations whose device changed get a new ``seq``. ``check``: a dry run (the
        dashboard asks before it starts): every rule of the real start, the message it
        would send returned, and nothing changed, saved or sent."""
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
        if check:
            return message
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
            self._safely(self._look, "looking at what changed")
            try:
                job = self._jobs.get(timeout=LOOK_EVERY)
            except queue.Empty:
                continue
            if job is None:
                break
            self._safely(job, "a job")
        self.journal.close()

    @staticmethod
    def _safely(step: Callable[[], None], what: str) -> None:
        """Run one step of the worker; an error (a job's own go to its future: this is
        a bug) is logged and the worker goes on, or every request would wait for ever."""
        try:
            step()
        except Exception:
            log.exception("console: %s failed", what)

    # -- MQTT ------------------------------------------------------------------------------

    def _connect(self) -> None:
        # acknowledged once taken: stored, refused, or left for a resend
        client = self.config.client(self.client_id, manual_ack=True)
        will = presence.Presence(self.presence_id, False, 0.0)
        client.will_set(presence.topic(self.config), will.encode(), qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=5)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        self.config.connect(client, keep=True)  # results queued while it was away arrive
        client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._answered = True
        if reason.is_failure:
            self._retry.failed(f"the broker refused the connection: {reason}", logging.ERROR)
            return
        self._retry.connected()
        here = presence.topic(self.config)
        client.subscribe([(self.topics.all_status, 1), (self.topics.all_results, 1), (here, 1)])
        self._say_online(client)
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
        why = why_lost(reason)
        if str(reason) == TAKEN_OVER or self.twin is not None:  # they share a client id
            why = "another console with this teacher.toml took its place"
            why += f" ({self.twin})" if self.twin is not None else ""
        log.warning("console: lost the broker (%s); reconnecting", why)
        self._jobs.put(self._disconnected)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        topic, payload, mid, qos = message.topic, bytes(message.payload), message.mid, message.qos
        if topic == presence.topic(self.config):
            retained, other = bool(message.retain), presence.read(payload)
            if other is not None and other.asking and other.id != self.presence_id:
                self._say_online(client)  # at once: a worker busy with a report is too slow
            else:
                self._jobs.put(lambda: self._presence(payload, retained))
            if qos > 0:
                client.ack(mid, qos)
            return
        self._jobs.put(lambda: self._received(topic, payload, mid, qos))

    def _say_online(self, client: Any) -> None:
        here = presence.Presence(self.presence_id, True, self.now())
        client.publish(presence.topic(self.config), here.encode(), qos=1, retain=True)

    def _presence(self, payload: bytes, retained: bool) -> None:
        """Another console's presence (presence.py; one asking is answered at once, by
        :meth:`_on_message`). Two consoles
        started with one teacher.toml share one MQTT session (the client id): each time
        one takes it back, it gets the other's retained presence. So another console
        online, said live or retained twice within :data:`~.presence.TWIN_QUIET` seconds
        (once is a console gone since, without a goodbye), runs: this console takes no
        results (they wait on the stations) until it stops or falls quiet as long."""
        other = presence.read(payload)
        if other is None or other.id == self.presence_id:
            return
        self._look()  # a twin fallen quiet since the last look is forgotten first
        t = self.now()
        if other.asking:
            return
        if other.stopped:
            self._others.pop(other.id, None)
            if other.id == self.twin:
                self.twin = None
                log.warning(
                    "console: the other console (%s) stopped: taking results again", other.id
                )
                self._changed()
            return
        if not other.online:
            return  # its will: gone, or closed for this one (then it comes back)
        before = self._others.get(other.id)
        self._others[other.id] = t
        again = before is not None and t - before < presence.TWIN_QUIET
        if self.twin is None and (again or not retained):
            self.twin, self.twin_since = other.id, t
            log.error(
                "console: another console of this classroom (%s) runs with the same "
                "teacher.toml (the broker closes one for the other): this one takes no "
                "results while it runs (they wait on the stations); stop one of them",
                other.id,
            )
            self._changed()

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


def _today(t: float) -> str:
    return datetime.date.fromtimestamp(t).isoformat()


__all__ = ["ACTIONS", "LOOK_EVERY", "Coordinator", "roster_problem"]
