"""The classroom fleet's messages: topics, their JSON bodies, and the checks every
message passes before a device or the teacher's console believes it.

One broker (mosquitto) is the hub. Under a prefix (``tabletop`` unless the fleet file
says otherwise; two classrooms can share a broker with two prefixes):

====================================  ========  =======  ===============================
topic                                 retained  QoS      who may publish (broker ACL)
====================================  ========  =======  ===============================
``<p>/teacher/plan``                  yes       1        the teacher's console
``<p>/teacher/clock``                 yes       1        the teacher's console
``<p>/teacher/roster``                yes       1        the teacher's console
``<p>/station/<device>/status``       yes       1        that device (and its will)
``<p>/station/<device>/result``       no        1        that device
====================================  ========  =======  ===============================

- **plan**: the rotation plan (:class:`tabletop.classroom.rotation.Plan` as JSON), its
  id, the lesson (``session``) and which device is which station (``stations``:
  device id -> 0-based station). An empty retained payload clears it: no rotation.
- **clock**: one :class:`~tabletop.classroom.rotation.RotationClock` per station (the
  teacher can pause, extend or skip one station or all of them), the plan id it
  belongs to, and ``seq``, which grows with every change: a device ignores a clock
  older than the one it has.
- **roster**: the class list (id, name, group per student) the devices sign children
  in with.
- **status**: what a station shows now (game, group, phase, time left, standings), the
  newest clock ``seq`` it follows (so the console knows when a pause has reached every
  station), and how many results wait in its outbox. The device's will (MQTT last
  will) publishes ``online: false`` when it drops off the network.
- **result**: one finished game, with an ``id`` unique to it: the device sends it from
  its outbox until the broker acknowledges it, and the console stores each id once, so
  a result arrives exactly once in the teacher's store however often it is sent.

Every body is a JSON object with ``"v": 1`` and ``"kind"`` naming its topic's kind.
:func:`parse` checks a message against its topic and returns a typed value, or raises
:class:`~tabletop.engine.errors.BadInput` whose message says exactly what is wrong
(a device logs it and ignores the message; it never acts on one that fails).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.classroom.rotation import Plan, RotationClock
from tabletop.engine.errors import BadInput

VERSION = 1
MAX_BYTES = 256 * 1024  # a result with a long game's meta stays far below
DEVICE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
PREFIX = re.compile(r"^[A-Za-z0-9_-]{1,32}(/[A-Za-z0-9_-]{1,32}){0,3}$")
RESULT_ID = re.compile(r"^[A-Za-z0-9:._-]{8,80}$")
DEFAULT_PREFIX = "tabletop"
PHASES = ("idle", "play", "warning", "transition", "done")
MAX_STUDENTS = 200
MAX_TEXT = 200  # names, labels


# -- topics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Topics:
    """The topic names under one ``prefix``."""

    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        if not PREFIX.match(self.prefix):
            raise BadInput(
                "fleet.prefix",
                f"the topic prefix {self.prefix!r} may only hold letters, digits, - and _ "
                "(and up to 3 slashes)",
            )

    @property
    def plan(self) -> str:
        return f"{self.prefix}/teacher/plan"

    @property
    def clock(self) -> str:
        return f"{self.prefix}/teacher/clock"

    @property
    def roster(self) -> str:
        return f"{self.prefix}/teacher/roster"

    def status(self, device: str) -> str:
        return f"{self.prefix}/station/{check_device(device)}/status"

    def result(self, device: str) -> str:
        return f"{self.prefix}/station/{check_device(device)}/result"

    @property
    def all_status(self) -> str:
        """The console's subscription to every station's status."""
        return f"{self.prefix}/station/+/status"

    @property
    def all_results(self) -> str:
        return f"{self.prefix}/station/+/result"

    def device_of(self, topic: str) -> tuple[str, str] | None:
        """``(device, kind)`` of a station topic (``kind`` "status" or "result"), else
        None."""
        parts = topic.split("/")
        head = self.prefix.split("/")
        if len(parts) != len(head) + 3 or parts[: len(head)] != head:
            return None
        station, device, kind = parts[len(head) :]
        if station != "station" or kind not in ("status", "result") or not DEVICE_ID.match(device):
            return None
        return device, kind

    def kind_of(self, topic: str) -> str | None:
        """The kind of message that belongs on ``topic`` ("plan", "clock", "roster",
        "status", "result"), or None for a topic that is not the fleet's."""
        for kind in ("plan", "clock", "roster"):
            if topic == getattr(self, kind):
                return kind
        found = self.device_of(topic)
        return found[1] if found else None


def check_device(device: str) -> str:
    if not isinstance(device, str) or not DEVICE_ID.match(device):
        raise BadInput(
            "fleet.device",
            f"the device id {device!r} must be 1-32 lower-case letters, digits or -, "
            "starting with a letter or digit",
        )
    return device


# -- the messages ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanMessage:
    """The rotation plan for the whole classroom (retained)."""

    id: str
    session: str
    plan: Plan
    stations: Mapping[str, int]  # device id -> 0-based station
    sent: float

    def station_of(self, device: str) -> int | None:
        return self.stations.get(device)

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "plan",
            "id": self.id,
            "session": self.session,
            "plan": self.plan.to_json(),
            "stations": dict(self.stations),
            "sent": self.sent,
        }


@dataclass(frozen=True)
class ClockMessage:
    """Every station's clock for plan ``plan`` (retained); ``seq`` grows with each change."""

    plan: str
    seq: int
    clocks: tuple[RotationClock, ...]
    sent: float

    def clock_for(self, station: int) -> RotationClock | None:
        return self.clocks[station] if 0 <= station < len(self.clocks) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "clock",
            "plan": self.plan,
            "seq": self.seq,
            "clocks": [c.to_json() for c in self.clocks],
            "sent": self.sent,
        }


@dataclass(frozen=True)
class RosterStudent:
    id: str
    name: str
    group: str = ""


@dataclass(frozen=True)
class RosterMessage:
    """The class list (retained)."""

    students: tuple[RosterStudent, ...]
    sent: float

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "roster",
            "students": [{"id": s.id, "name": s.name, "group": s.group} for s in self.students],
            "sent": self.sent,
        }


@dataclass(frozen=True)
class Standing:
    """One seat in a station's game now: its name, score (exact, as text) and place."""

    name: str
    score: str
    place: int


@dataclass(frozen=True)
class StatusMessage:
    """What a station shows now (retained). ``online`` False is its will: it dropped off.

    ``station`` is None while the device waits for a plan that names it; ``left`` is the
    countdown's seconds (play, warning, or the transition); ``clock_seq`` the newest
    teacher clock it follows (-1: none); ``outbox`` the results still to deliver.
    """

    device: str
    online: bool
    sent: float
    station: int | None = None
    plan: str | None = None
    rotation: int = 0
    phase: str = "idle"
    paused: bool = False
    left: float = 0.0
    group: str | None = None
    game: str | None = None
    standings: tuple[Standing, ...] = ()
    clock_seq: int = -1
    outbox: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "status",
            "device": self.device,
            "online": self.online,
            "sent": self.sent,
            "station": self.station,
            "plan": self.plan,
            "rotation": self.rotation,
            "phase": self.phase,
            "paused": self.paused,
            "left": self.left,
            "group": self.group,
            "game": self.game,
            "standings": [
                {"name": s.name, "score": s.score, "place": s.place} for s in self.standings
            ],
            "clock_seq": self.clock_seq,
            "outbox": self.outbox,
        }


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str
    student: str | None = None
    group: str = ""
    bot: str | None = None


@dataclass(frozen=True)
class ResultMessage:
    """One finished game from ``device``; ``id`` is unique to the game (the console
    stores each id once). ``match`` holds the journal's row: ``game``, ``header`` (the
    match log's header line), ``label``, ``session``, ``meta`` and ``result`` (objects),
    ``reason``, ``started``, ``finished``, ``elapsed``."""

    id: str
    device: str
    match: Mapping[str, Any]
    seats: tuple[SeatRecord, ...]
    sent: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "result",
            "id": self.id,
            "device": self.device,
            "match": dict(self.match),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "student": s.student,
                    "group": s.group,
                    "bot": s.bot,
                }
                for s in self.seats
            ],
            "sent": self.sent,
        }


Message = PlanMessage | ClockMessage | RosterMessage | StatusMessage | ResultMessage


def encode(message: Message) -> bytes:
    """The message's body as compact JSON bytes."""
    return json.dumps(message.to_json(), separators=(",", ":"), sort_keys=True).encode()


# -- checking --------------------------------------------------------------------------------


def parse(topics: Topics, topic: str, payload: bytes, *, plan: Plan | None = None) -> Message:
    """The message on ``topic``, checked; :class:`BadInput` (code ``fleet.*``) says what is
    wrong. ``plan``: the plan a clock message must fit (its stations' count)."""
    kind = topics.kind_of(topic)
    if kind is None:
        raise BadInput("fleet.topic", f"{topic!r} is not a fleet topic under {topics.prefix!r}")
    if len(payload) > MAX_BYTES:
        raise BadInput("fleet.size", f"{topic}: {len(payload)} bytes, more than {MAX_BYTES}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadInput("fleet.json", f"{topic}: not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise BadInput("fleet.shape", f"{topic}: the body must be a JSON object")
    if data.get("v") != VERSION:
        raise BadInput("fleet.version", f"{topic}: version {data.get('v')!r}, expected {VERSION}")
    if data.get("kind") != kind:
        raise BadInput("fleet.kind", f"{topic}: kind {data.get('kind')!r} on a {kind} topic")
    where = f"{topic}: "
    try:
        if kind == "plan":
            return _plan(data)
        if kind == "clock":
            return _clock(data, plan)
        if kind == "roster":
            return _roster(data)
        device = topics.device_of(topic)
        assert device is not None
        if data.get("device") != device[0]:
            raise BadInput(
                "fleet.device",
                f"the body says device {data.get('device')!r} on {device[0]!r}'s topic",
            )
        return _status(data) if kind == "status" else _result(data)
    except BadInput as exc:
        raise BadInput(exc.code, where + exc.message) from exc


def _plan(data: dict[str, Any]) -> PlanMessage:
    plan = Plan.from_json(data.get("plan"))
    stations = data.get("stations")
    if not isinstance(stations, dict):
        raise BadInput("fleet.stations", "'stations' must map device ids to stations")
    taken: dict[int, str] = {}
    for device, station in stations.items():
        check_device(device)
        if not _int(station) or not 0 <= station < len(plan.stations):
            raise BadInput(
                "fleet.stations",
                f"device {device!r} is given station {station!r}; the plan has "
                f"{len(plan.stations)}",
            )
        if station in taken:
            raise BadInput(
                "fleet.stations",
                f"devices {taken[station]!r} and {device!r} are both station {station + 1}",
            )
        taken[station] = device
    return PlanMessage(
        _text(data, "id", 1, 80), _text(data, "session", 0, 80), plan, stations, _time(data)
    )


def _clock(data: dict[str, Any], plan: Plan | None) -> ClockMessage:
    seq: Any = data.get("seq")
    if not _int(seq) or seq < 0:
        raise BadInput("fleet.seq", f"'seq' must be a whole number >= 0, not {seq!r}")
    clocks = data.get("clocks")
    if not isinstance(clocks, list) or not clocks:
        raise BadInput("fleet.clocks", "'clocks' must be a list with one clock per station")
    if plan is not None and len(clocks) != len(plan.stations):
        raise BadInput(
            "fleet.clocks",
            f"{len(clocks)} clocks for a plan with {len(plan.stations)} stations",
        )
    if plan is None:
        return ClockMessage(_text(data, "plan", 1, 80), seq, (), _time(data))
    parsed = tuple(RotationClock.from_json(c, plan) for c in clocks)
    for c in parsed:
        if not _finite(c.started_at) or any(not _finite(p.start) for p in c.pauses):
            raise BadInput("fleet.clocks", "a clock holds a time that is not a number")
    return ClockMessage(_text(data, "plan", 1, 80), seq, parsed, _time(data))


def _roster(data: dict[str, Any]) -> RosterMessage:
    students = data.get("students")
    if not isinstance(students, list) or len(students) > MAX_STUDENTS:
        raise BadInput("fleet.students", f"'students' must be a list of at most {MAX_STUDENTS}")
    out: list[RosterStudent] = []
    seen: set[str] = set()
    for s in students:
        if not isinstance(s, dict):
            raise BadInput("fleet.students", "each student must be an object")
        student = RosterStudent(
            _text(s, "id", 1, 40), _text(s, "name", 1, MAX_TEXT), _text(s, "group", 0, MAX_TEXT)
        )
        if ":" in student.id:
            raise BadInput("fleet.students", f"a student id may not hold ':' ({student.id!r})")
        if student.id in seen:
            raise BadInput("fleet.students", f"the student id {student.id!r} is listed twice")
        seen.add(student.id)
        out.append(student)
    return RosterMessage(tuple(out), _time(data))


def _status(data: dict[str, Any]) -> StatusMessage:
    online = data.get("online")
    if not isinstance(online, bool):
        raise BadInput("fleet.status", "'online' must be true or false")
    device = check_device(data.get("device"))  # type: ignore[arg-type]
    sent = _time(data)
    if not online:
        return StatusMessage(device, False, sent)
    station = data.get("station")
    if station is not None and (not _int(station) or not 0 <= station < 8):
        raise BadInput("fleet.status", f"'station' must be 0..7 or null, not {station!r}")
    phase = data.get("phase", "idle")
    if phase not in PHASES:
        raise BadInput("fleet.status", f"unknown phase {phase!r}")
    left = data.get("left", 0.0)
    if not isinstance(left, int | float) or isinstance(left, bool) or not _finite(left):
        raise BadInput("fleet.status", f"'left' must be seconds, not {left!r}")
    standings = data.get("standings") or []
    if not isinstance(standings, list) or len(standings) > 8:
        raise BadInput("fleet.status", "'standings' must be a list of at most 8 seats")
    rows = []
    for s in standings:
        if not isinstance(s, dict) or not _int(s.get("place")):
            raise BadInput("fleet.status", "each standing needs a name, a score and a place")
        rows.append(Standing(_text(s, "name", 0, MAX_TEXT), _text(s, "score", 0, 40), s["place"]))
    seq, outbox, rotation = (
        data.get("clock_seq", -1),
        data.get("outbox", 0),
        data.get("rotation", 0),
    )
    if not (_int(seq) and _int(outbox) and _int(rotation)) or outbox < 0 or rotation < 0:
        raise BadInput("fleet.status", "'clock_seq', 'outbox' and 'rotation' must be whole numbers")
    return StatusMessage(
        device,
        True,
        sent,
        station=station,
        plan=_optional_text(data, "plan", 80),
        rotation=rotation,
        phase=phase,
        paused=bool(data.get("paused", False)),
        left=float(left),
        group=_optional_text(data, "group", MAX_TEXT),
        game=_optional_text(data, "game", 40),
        standings=tuple(rows),
        clock_seq=seq,
        outbox=outbox,
    )


MATCH_TEXT = ("game", "header", "label", "session", "reason")
MATCH_TIMES = ("started", "finished", "elapsed")


def _result(data: dict[str, Any]) -> ResultMessage:
    rid = data.get("id")
    if not isinstance(rid, str) or not RESULT_ID.match(rid):
        raise BadInput("fleet.result", f"the result id {rid!r} is not one a device makes")
    match = data.get("match")
    if not isinstance(match, dict):
        raise BadInput("fleet.result", "'match' must be an object")
    from tabletop.games import GAMES

    if match.get("game") not in GAMES:
        raise BadInput("fleet.result", f"unknown game {match.get('game')!r}")
    for key in MATCH_TEXT:
        if not isinstance(match.get(key, ""), str):
            raise BadInput("fleet.result", f"'match.{key}' must be text")
    for key in MATCH_TIMES:
        value = match.get(key)
        if not isinstance(value, int | float) or isinstance(value, bool) or not _finite(value):
            raise BadInput("fleet.result", f"'match.{key}' must be a number of seconds")
    if match.get("reason") not in ("end", "time"):
        raise BadInput("fleet.result", f"'match.reason' {match.get('reason')!r}: end or time")
    for key in ("meta", "result"):
        if not isinstance(match.get(key), dict):
            raise BadInput("fleet.result", f"'match.{key}' must be an object")
    seats = data.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 8:
        raise BadInput("fleet.result", "'seats' must list 1 to 8 seats")
    records = []
    for s in seats:
        if not isinstance(s, dict) or not _int(s.get("seat")) or not 0 <= s["seat"] < 8:
            raise BadInput("fleet.result", "each seat needs its number 0..7")
        records.append(
            SeatRecord(
                s["seat"],
                _text(s, "name", 0, MAX_TEXT),
                _optional_text(s, "student", 40),
                _text(s, "group", 0, MAX_TEXT),
                _optional_text(s, "bot", 40),
            )
        )
    if len({r.seat for r in records}) != len(records):
        raise BadInput("fleet.result", "a seat is listed twice")
    return ResultMessage(rid, data["device"], match, tuple(records), _time(data))


# -- small checks ------------------------------------------------------------------------------


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite(value: float) -> bool:
    return math.isfinite(value)


def _time(data: Mapping[str, Any]) -> float:
    sent = data.get("sent")
    if not isinstance(sent, int | float) or isinstance(sent, bool) or not _finite(sent):
        raise BadInput("fleet.sent", f"'sent' must be epoch seconds, not {sent!r}")
    return float(sent)


def _text(data: Mapping[str, Any], key: str, low: int, high: int) -> str:
    value = data.get(key, "" if low == 0 else None)
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise BadInput("fleet.text", f"'{key}' must be text of {low} to {high} characters")
    return value


def _optional_text(data: Mapping[str, Any], key: str, high: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > high:
        raise BadInput("fleet.text", f"'{key}' must be text of at most {high} characters")
    return value


def standings_of(scores: Sequence[tuple[str, str, int]]) -> tuple[Standing, ...]:
    """(name, exact score text, place) per seat -> standings for a status message."""
    return tuple(Standing(n, s, p) for n, s, p in scores)


__all__ = [
    "DEFAULT_PREFIX",
    "MAX_BYTES",
    "VERSION",
    "ClockMessage",
    "Message",
    "PlanMessage",
    "ResultMessage",
    "RosterMessage",
    "RosterStudent",
    "SeatRecord",
    "Standing",
    "StatusMessage",
    "Topics",
    "check_device",
    "encode",
    "parse",
    "standings_of",
]
