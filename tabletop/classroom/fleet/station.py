"""A station's side of the classroom fleet: its link to the broker, and following the
teacher's plan and clock.

:class:`StationLink` is the MQTT client (paho, its own network thread). It subscribes to
the teacher's plan, clock and roster; every message is checked with
:func:`messages.parse` on arrival, and one that fails is logged (topic, code, message),
counted in :attr:`StationLink.rejected` and never acted on. Valid ones wait in a queue
that the main thread drains with :meth:`StationLink.poll`. The link also publishes the
station's retained status (its will says ``online: false``), and the results in the
journal's outbox with QoS 1. A result is done only when the teacher's console answers
its id on this station's ack topic (stored, or refused for good): the broker's PUBACK
is not enough, since a broker killed before it saved its queue loses what it
acknowledged. Everything not answered goes again after every reconnect and every
:data:`RESEND_AFTER` seconds, however long the outage and whoever restarted; the
console stores each id once. paho reconnects by itself, with a growing delay.

:class:`StationFleet` runs on the main thread (the app's display thread, or the
simulated station's loop). Each :meth:`~StationFleet.update` drains the link and applies
what came through a *host* (:class:`Host`): the app's host starts the station's rotation
from the plan and the clock (stored in the journal like a local one, so a reboot without
the network carries on), adopts every newer clock (pause, extend, skip, end then behave
exactly as the local controls), ends it when the plan is cleared, and replaces the class
list with the roster. It publishes the station's status right after a new clock, about
once a second while anything shown changes, and at least every 10 seconds.

Threading: paho's callbacks only parse and put on the queue; the journal (and so the
outbox) is used by the main thread alone.
"""

from __future__ import annotations

import logging
import queue
import ssl
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from tabletop.classroom.fleet.config import FleetConfig
from tabletop.classroom.fleet.messages import (
    MAX_IGNORED,
    MAX_KEY,
    AckMessage,
    ClockMessage,
    PlanMessage,
    RosterMessage,
    StatusMessage,
    encode,
    parse,
)
from tabletop.classroom.fleet.outbox import Outbox
from tabletop.classroom.fleet.tls import (
    TAKEN_OVER,
    RetryLog,
    hung_up,
    why_lost,
    why_unreachable,
)
from tabletop.classroom.rotation import Moment, RotationClock, StoredRotation
from tabletop.engine.errors import BadInput

log = logging.getLogger(__name__)

UNREACHABLE = "The teacher's computer can't be reached: this station keeps time on its own."
REFUSED = "The teacher's computer does not let this station in: ask for its fleet file."
BACK_ONLINE = "This station is connected to the teacher's computer again."
ROSTER_NOT_TAKEN = (
    "The class list from the teacher's computer cannot be used here ({why}): "
    "this station keeps the list it had."
)
UNREACHABLE_AFTER = 5.0  # seconds without a connection at start before saying so
HOST_SHOWN = 22  # letters of the broker's name shown on the teacher's menu
STATUS_EVERY = 1.0  # at most this often when something shown changed
STATUS_AT_LEAST = 10.0
RESEND_AFTER = 30.0  # a result the console has not answered this long goes again
# The broker let in another device with this station's id (its fleet file used twice):
# it says so (MQTT 5's TAKEN_OVER), or, a broker that does not say (mosquitto before
# 2.0.15), closes the connection sooner than this after it opened, twice in a row.
TAKEN_WITHIN = 5.0
TWIN = (
    "another device uses this station's file ({}): the broker lets one device in per "
    "file and closes one for the other; give each station its own fleet file"
)
DRAIN_EVERY = 5.0  # look in the outbox this often even when nothing new was queued
FLEET_NAME = "fleet:"  # plans from the console are stored as "fleet:<plan id>"


# -- what the link hands the main thread ----------------------------------------------------


@dataclass(frozen=True)
class Connected:
    """The broker accepted this station (at start or after an outage)."""


@dataclass(frozen=True)
class Disconnected:
    reason: str


@dataclass(frozen=True)
class Unreachable:
    """A connection attempt failed: ``refused`` when waiting will not help (the broker
    said no to the password, or its certificate is not the classroom's)."""

    reason: str
    refused: bool = False


@dataclass(frozen=True)
class PlanCleared:
    """The teacher cleared the plan (an empty retained message): no rotation."""


@dataclass(frozen=True)
class _Acked:
    mid: int


@dataclass(frozen=True)
class _Answered:
    """The console's answer to one result (:class:`AckMessage`)."""

    id: str
    stored: bool
    reason: str


Event = (
    PlanMessage
    | ClockMessage
    | RosterMessage
    | PlanCleared
    | Connected
    | Disconnected
    | Unreachable
)


class StationLink:
    """This device's MQTT link (see the module docstring).

    ``outbox``: the results to send (None: none). ``reconnect``: paho's (min, max)
    seconds between attempts. ``wall``: epoch seconds for the messages' ``sent``.
    ``resend_after``: seconds a result waits for the console's answer before it is
    sent again on the same connection."""

    def __init__(
        self,
        config: FleetConfig,
        outbox: Outbox | None = None,
        *,
        wall: Callable[[], float] = time.time,
        reconnect: tuple[int, int] = (1, 8),
        resend_after: float = RESEND_AFTER,
    ) -> None:
        if config.teacher:
            raise BadInput("fleet.device", "the teacher's fleet file is not a station's")
        self.config = config
        self.device = config.device
        self.topics = config.topics
        self.outbox = outbox
        self.wall = wall
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.connected = threading.Event()
        self.ever_connected = False
        self.rejected = 0  # inbound messages that failed their checks
        self.stale = 0  # clocks older than the one held
        self.published = 0  # result publishes (first sends and resends)
        self.acknowledged = 0  # results the broker acknowledged (PUBACK)
        self.delivered = 0  # results the console said it stored
        self.refused = 0  # results the console refused for good
        self.resend_after = resend_after
        self.last_rejection = ""
        # network thread only:
        self._plan: PlanMessage | None = None
        self._held_clock: tuple[str, bytes] | None = None  # waiting for its plan
        self._seq: tuple[str, int] | None = None  # (plan id, seq) of the newest clock
        # main thread only:
        self._by_mid: dict[int, str] = {}
        self._by_id: dict[str, tuple[int, float]] = {}  # result id -> (mid, sent at)
        self._status: StatusMessage | None = None
        self._drain = True
        self._drained_at = float("-inf")
        self._queued_seen = 0
        self._closed = False
        self._answered = False  # network thread: the broker answered this connection
        self._retry = RetryLog(log, f"fleet: {self.device}")  # network thread
        self._connected_at = 0.0  # network thread: when the connection opened (monotonic)
        self.taken = 0  # connections in a row the broker closed at once (2: it said why)

        client = config.client(self.device)
        client.will_set(
            self.topics.status(self.device),
            encode(StatusMessage(self.device, False, wall())),
            qos=1,
            retain=True,
        )
        client.reconnect_delay_set(*reconnect)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        self.client = client

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> StationLink:
        """Connect in the background (never blocks, never raises for the network)."""
        log.info(
            "fleet: %s connecting to %s:%d (prefix %s)",
            self.device,
            self.config.host,
            self.config.port,
            self.topics.prefix,
        )
        try:
            self.config.connect(self.client)
        except (OSError, ValueError) as exc:
            log.error("fleet: cannot connect to %s: %s", self.config.host, exc)
            self.inbox.put(Unreachable(str(exc)))
        self.client.loop_start()
        return self

    def twin(self) -> bool:
        """Whether another device seems to use this station's fleet file (see TWIN)."""
        return self.taken >= 2 and (
            not self.connected.is_set() or time.monotonic() - self._connected_at < TAKEN_WITHIN
        )

    def wait_connected(self, timeout: float) -> bool:
        return self.connected.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Say this station is offline (retained), disconnect, stop the network thread."""
        if self._closed:
            return
        self._closed = True
        if self.connected.is_set():
            info = self.client.publish(
                self.topics.status(self.device),
                encode(StatusMessage(self.device, False, self.wall())),
                qos=1,
                retain=True,
            )
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as exc:
                log.warning("fleet: the offline status was not acknowledged: %s", exc)
            self.poll()  # PUBACKs that came meanwhile are marked
        self.client.disconnect()
        self.client.loop_stop()
        log.info("fleet: %s disconnected", self.device)

    # -- the network thread ----------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        self._answered = True
        if code.is_failure:
            where = f"{self.config.host}:{self.config.port}"
            self._retry.failed(f"the broker {where} refused {self.device}: {code}", logging.ERROR)
            self.inbox.put(Unreachable(str(code), refused=True))
            return
        self._retry.connected()
        self._connected_at = time.monotonic()
        log.info("fleet: %s connected to %s:%d", self.device, self.config.host, self.config.port)
        self.ever_connected = True
        self.connected.set()
        t = self.topics
        client.subscribe([(t.plan, 1), (t.clock, 1), (t.roster, 1), (t.ack(self.device), 1)])
        self.inbox.put(Connected())

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        # paho calls this while it handles the connection's error: sys.exc_info() has it.
        exc = sys.exc_info()[1]
        why = why_unreachable(exc, self.config.host, self.config.port)
        self._retry.failed(why)
        # Another classroom's broker (or this one's under a name it was not set up with)
        # will not change by waiting: the fleet file must.
        self.inbox.put(Unreachable(why, refused=isinstance(exc, ssl.SSLCertVerificationError)))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        answered, self._answered = self._answered, False
        if was:
            why = why_lost(code)
            at_once = time.monotonic() - self._connected_at < TAKEN_WITHIN
            if str(code) == TAKEN_OVER:  # the broker says so (MQTT 5; mosquitto 2.0.15 on)
                self.taken = 2
            else:  # one that does not say (Bookworm's 2.0.11): closed at once, twice
                self.taken = self.taken + 1 if at_once and str(code) == "Unspecified error" else 0
            if self.taken >= 2:
                why = TWIN.format(self.device)
            log.warning("fleet: %s lost the broker (%s); reconnecting", self.device, why)
            self.inbox.put(Disconnected(why))
        elif not answered and not self._closed:
            why = hung_up(self.config.host, self.config.port, tls=self.config.tls)
            self._retry.failed(why)
            self.inbox.put(Unreachable(why))

    def _on_publish(self, client: Any, userdata: Any, mid: int, code: Any, props: Any) -> None:
        self.inbox.put(_Acked(mid))

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self.receive(message.topic, bytes(message.payload))
        except Exception:  # a bug here must not stop the network thread
            log.exception("fleet: handling a message on %s failed", message.topic)

    def receive(self, topic: str, payload: bytes) -> None:
        """Check one inbound message and queue it for the main thread (or drop it)."""
        kind = self.topics.kind_of(topic)
        if not payload:
            if kind == "plan":  # the teacher cleared the plan
                self._plan = None
                log.info("fleet: the plan was cleared")
                self.inbox.put(PlanCleared())
            return
        try:
            if kind == "clock":
                self._receive_clock(topic, payload)
                return
            message = parse(self.topics, topic, payload)
        except BadInput as exc:
            self._reject(topic, payload, exc)
            return
        if isinstance(message, PlanMessage):
            self._plan = message
            if message.ignored:
                log.warning(
                    "fleet: plan %s presets station options this version does not know; "
                    "kept without them (the group chooses): %s",
                    message.id,
                    "; ".join(
                        f"station {i + 1} ({message.plan.stations[i].game}): {', '.join(keys)}"
                        for i, keys in sorted(message.ignored.items())
                    ),
                )
            self.inbox.put(message)
            held, self._held_clock = self._held_clock, None
            if held is not None:
                self.receive(*held)
        elif isinstance(message, RosterMessage):
            self.inbox.put(message)
        elif isinstance(message, AckMessage) and message.device == self.device:
            self.inbox.put(_Answered(message.id, message.stored, message.reason))
        else:  # a station's status or result: not for a station (the ACL keeps them out)
            log.info("fleet: %s ignores a %s message on %s", self.device, kind, topic)

    def _receive_clock(self, topic: str, payload: bytes) -> None:
        head = parse(self.topics, topic, payload)  # seq and plan id, checked
        assert isinstance(head, ClockMessage)
        plan = self._plan
        if plan is None or head.plan != plan.id:
            # Retained messages may come in any order: the clock waits for its plan.
            self._held_clock = (topic, payload)
            log.info("fleet: clock seq=%d waits for plan %s", head.seq, head.plan)
            return
        clock = parse(self.topics, topic, payload, plan=plan.plan)
        assert isinstance(clock, ClockMessage)
        if self._seq is not None and self._seq[0] == clock.plan and clock.seq <= self._seq[1]:
            if clock.seq < self._seq[1]:
                self.stale += 1
                log.info("fleet: clock seq=%d ignored: older than seq=%d", clock.seq, self._seq[1])
            return
        self._seq = (clock.plan, clock.seq)
        self.inbox.put(clock)

    def _reject(self, topic: str, payload: bytes, exc: BadInput) -> None:
        # Logged first, counted after: whoever sees the count (another thread) finds the
        # log line written.
        log.warning(
            "fleet: ignored a message on %s (%d bytes): %s: %s",
            topic,
            len(payload),
            exc.code,
            exc.message,
        )
        self.last_rejection = f"{topic}: {exc.code}: {exc.message}"
        self.rejected += 1

    # -- the main thread -------------------------------------------------------------------

    def poll(self) -> list[Event]:
        """What arrived since the last poll (plan, clock, roster, connection changes);
        marks acknowledged results sent, and sends what waits in the outbox."""
        events: list[Event] = []
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Acked):
                self._acked(item.mid)
                continue
            if isinstance(item, _Answered):
                self._answered_by_console(item)
                continue
            if isinstance(item, Connected):
                # Everything the console has not answered goes again now: what the
                # broker took before the outage may be lost with it.
                self._by_mid.clear()
                self._by_id.clear()
                self._drain = True
                if self._status is not None:
                    self._publish_status(self._status)
            events.append(item)
        if self.outbox is not None and not self._closed:
            self.send_pending()
        return events

    def _acked(self, mid: int) -> None:
        """The broker's PUBACK: it has the result; the console's answer is still due."""
        result_id = self._by_mid.pop(mid, None)
        if result_id is None:
            return  # a status
        self.acknowledged += 1
        if self.outbox is not None and self.outbox.mark_sent(result_id):
            log.debug("fleet: result %s taken by the broker", result_id)

    def _answered_by_console(self, answer: _Answered) -> None:
        self._by_id.pop(answer.id, None)
        box = self.outbox
        if box is None:
            return
        if answer.stored:
            if box.mark_delivered(answer.id):
                self.delivered += 1
                log.info("fleet: result %s stored by the teacher's console", answer.id)
        elif box.mark_refused(answer.id, answer.reason):
            self.refused += 1
            log.error(
                "fleet: the teacher's console refused result %s for good: %s",
                answer.id,
                answer.reason,
            )
        self._drain = True  # the next results may go

    def send_pending(self, *, force: bool = False) -> int:
        """Publish every result the console has not answered and that is not on its way
        (sent less than ``resend_after`` seconds ago); how many were sent."""
        box = self.outbox
        if box is None or not self.connected.is_set():
            return 0
        now = time.monotonic()
        queued = box.queued
        if not (
            force
            or self._drain
            or queued != self._queued_seen
            or now - self._drained_at >= DRAIN_EVERY
        ):
            return 0
        self._drain, self._queued_seen, self._drained_at = False, queued, now
        sent = 0
        for item in box.pending():
            on_way = self._by_id.get(item.id)
            if on_way is not None and now - on_way[1] < self.resend_after:
                continue  # sent: the console's answer is on its way
            info = self.client.publish(item.topic, item.body, qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                self._drain = True
                break
            if on_way is not None:
                self._by_mid.pop(on_way[0], None)
            self._by_mid[info.mid] = item.id
            self._by_id[item.id] = (info.mid, now)
            self.published += 1
            sent += 1
        return sent

    def publish_status(self, status: StatusMessage) -> None:
        """This station's status, retained (kept and sent again after a reconnect)."""
        self._status = status
        if self.connected.is_set():
            self._publish_status(status)

    def _publish_status(self, status: StatusMessage) -> None:
        self.client.publish(self.topics.status(self.device), encode(status), qos=1, retain=True)


# -- following the teacher ----------------------------------------------------------------------


class Host(Protocol):
    """What a station does with the teacher's messages (the app, or a simulation)."""

    def fleet_plan(self) -> str | None:
        """The console's plan id of the rotation running here, or None."""

    def follow(self, plan: PlanMessage, station: int, clock: RotationClock) -> None:
        """Run ``plan`` as ``station`` on ``clock`` (start it, or adopt the clock)."""

    def leave(self) -> None:
        """The console's rotation is over for this station (plan cleared, or not named)."""

    def roster(self, message: RosterMessage) -> None:
        """The class list from the console."""

    def notice(self, text: str) -> None:
        """One sentence on screen."""

    def status(self) -> dict[str, Any]:
        """What the station shows now, as StatusMessage fields (station, plan, rotation,
        phase, paused, left, group, game, standings)."""


@dataclass
class StationFleet:
    """The main thread's side (see the module docstring)."""

    link: StationLink
    host: Host
    clock: Callable[[], float] = time.monotonic  # monotonic: the status cadence
    on_event: Callable[[str], None] | None = None  # one line per event (--verbose)
    plan: PlanMessage | None = None
    clock_seq: int = -1
    _started: float | None = None
    _said_unreachable: bool = False
    _status_at: float = float("-inf")
    _status_key: tuple[Any, ...] | None = None
    _status_sent_at: float = float("-inf")
    _pending_clock: ClockMessage | None = None
    applied: list[int] = field(default_factory=list)  # clock seqs applied, in order
    problem: Unreachable | None = None  # why the last connection attempt failed

    def connection(self) -> tuple[bool, str]:
        """Is this station connected to the teacher's computer, and a sentence saying so
        for the teacher's menu (the log has the details)."""
        host = self.link.config.host
        if len(host) > HOST_SHOWN:  # the sentence must fit on one line of the screen
            host = host[: HOST_SHOWN - 1] + "\u2026"
        if self.link.twin():
            return False, "Another device uses this station's fleet file: give each its own."
        if self.link.connected.is_set():
            secure = "encrypted" if self.link.config.tls else "not encrypted"
            return True, f"Connected to the teacher's computer ({host}, {secure})."
        if self.problem is not None and self.problem.refused:
            return False, f"{host} does not let this station in: ask for its fleet file."
        return False, f"Can't reach the teacher's computer ({host}): check the network."

    @property
    def device(self) -> str:
        return self.link.device

    def update(self) -> bool:
        """Drain the link, apply what came, publish the status when due. True when
        something changed that the screen shows."""
        now = self.clock()
        if self._started is None:
            self._started = now
        changed = False
        for event in self.link.poll():
            changed |= self.apply(event)
        if (
            not self.link.ever_connected
            and not self._said_unreachable
            and now - self._started >= UNREACHABLE_AFTER
        ):
            self._unreachable(refused=False)
        self.publish_status(force=False)
        return changed

    def apply(self, event: Event) -> bool:
        if isinstance(event, PlanMessage):
            self.plan = event
            self._say(f"plan {event.id} stations={len(event.plan.stations)}")
            if event.station_of(self.device) is None:
                if self.host.fleet_plan() is not None:
                    log.info(
                        "fleet: plan %s does not name %s: rotation ends", event.id, self.device
                    )
                    self.host.leave()
                    return True
                return False
            pending, self._pending_clock = self._pending_clock, None
            if pending is not None and pending.plan == event.id:
                return self.apply(pending)
            return False
        if isinstance(event, ClockMessage):
            return self._clock(event)
        if isinstance(event, PlanCleared):
            self.plan = None
            self._say("plan cleared")
            if self.host.fleet_plan() is not None:
                self.host.leave()
                self.publish_status(force=True)
                return True
            return False
        if isinstance(event, RosterMessage):
            self._say(f"roster students={len(event.students)}")
            self.host.roster(event)
            return False
        if isinstance(event, Connected):
            self.problem = None
            self._say("connected")
            if self._said_unreachable:
                self.host.notice(BACK_ONLINE)
                self._said_unreachable = False
            self.publish_status(force=True)
            return True  # the teacher's menu shows the connection
        if isinstance(event, Disconnected):
            self._say(f"disconnected {event.reason}")
            return True
        if isinstance(event, Unreachable):
            self.problem = event
            self._say(f"unreachable {event.reason}")
            if event.refused or not self.link.ever_connected:
                self._unreachable(refused=event.refused)
            return True
        return False

    def _clock(self, message: ClockMessage) -> bool:
        plan = self.plan
        if plan is None or plan.id != message.plan:
            self._pending_clock = message
            return False
        station = plan.station_of(self.device)
        if station is None:
            return False
        clock = message.clock_for(station)
        if clock is None:
            return False
        self.clock_seq = message.seq
        self.applied.append(message.seq)
        self.host.follow(plan, station, clock)
        self._say(f"clock seq={message.seq} paused={clock.paused(self.link.wall())}")
        self.publish_status(force=True)
        return True

    def _unreachable(self, *, refused: bool) -> None:
        if self._said_unreachable:
            return
        self._said_unreachable = True
        self.host.notice(REFUSED if refused else UNREACHABLE)

    def _say(self, line: str) -> None:
        if self.on_event is not None:
            self.on_event(line)

    # -- status --------------------------------------------------------------------------

    def status(self) -> StatusMessage:
        fields = self.host.status()
        box = self.link.outbox
        station = self.plan.station_of(self.device) if self.plan is not None else None
        ignored = self.plan.ignored.get(station, ()) if self.plan and station is not None else ()
        # within what a console reads (the log line names them all)
        ignored = tuple(k for k in ignored if 0 < len(k) <= MAX_KEY)[:MAX_IGNORED]
        return StatusMessage(
            self.device,
            True,
            self.link.wall(),
            clock_seq=self.clock_seq,
            outbox=box.count() if box is not None else 0,
            ignored=ignored,
            **fields,
        )

    def publish_status(self, *, force: bool) -> bool:
        """Publish the status now (``force``), or when due (see the module docstring)."""
        now = self.clock()
        if not force and now - self._status_at < STATUS_EVERY:
            return False
        self._status_at = now
        status = self.status()
        key = (*status.to_json().items(),)
        key = tuple((k, str(v)) for k, v in key if k != "sent")
        if not force and key == self._status_key and now - self._status_sent_at < STATUS_AT_LEAST:
            return False
        self._status_key, self._status_sent_at = key, now
        self.link.publish_status(status)
        return True

    def close(self) -> None:
        self.link.close()


# -- the rotation --------------------------------------------------------------------------


def rotation_status(stored: StoredRotation, now: Moment) -> dict[str, Any]:
    """The rotation's part of a station's status: ``stored`` running at ``now``."""
    return {
        "station": stored.station,
        "plan": fleet_plan_id(stored.name),
        "rotation": now.rotation,
        "phase": now.phase,
        "paused": now.paused,
        "left": float(round(now.play_left)),
        "group": now.group_at(stored.station),
    }


def fleet_plan_id(name: str) -> str | None:
    """The console's plan id in a stored plan's name (``fleet:<id>``), or None."""
    return name[len(FLEET_NAME) :] if name.startswith(FLEET_NAME) else None


__all__ = [
    "BACK_ONLINE",
    "FLEET_NAME",
    "REFUSED",
    "ROSTER_NOT_TAKEN",
    "UNREACHABLE",
    "Connected",
    "Disconnected",
    "Host",
    "PlanCleared",
    "StationFleet",
    "StationLink",
    "Unreachable",
    "fleet_plan_id",
    "rotation_status",
]
