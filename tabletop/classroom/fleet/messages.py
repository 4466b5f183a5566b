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
``<p>/station/<device>/ack``          no        1        the teacher's console
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
  station), how many results wait in its outbox, and the options of its station it
  does not know and plays without (``ignored``). The device's will (MQTT last
  will) publishes ``online: false`` when it drops off the network.
- **result**: one finished game, with an ``id`` unique to it: the device sends it from
  its outbox until the *console* answers it on the ack topic (the broker's PUBACK is not
  enough: a broker killed before it saved its queue loses what it acknowledged), and the
  console stores each id once, so a result arrives exactly once in the teacher's store
  however often it is sent.
- **ack**: the console's answer to one result, by id: ``stored`` true (stored now, or
  stored before) or false (refused: it can never be stored, ``reason`` says why). The
  station then stops sending it. Only the console may write a station's ack topic.

Bounds: every body is at most :data:`MAX_BYTES`, nested at most :data:`MAX_DEPTH` deep,
with integers of at most :data:`MAX_DIGITS` digits and finite numbers only (``NaN``,
``Infinity`` and ``1e999`` are refused): :func:`load` checks these *before and while*
the JSON is read, so no message can make the parser raise ``RecursionError`` or
``ValueError``. A result's ``meta`` and ``result`` objects are bounded too (strings,
list lengths, keys), its scores must be exact numbers (``7/2``) and its ``checks`` pairs
of counts, so every stored result can be reported. The checks are written by hand
(rather than with a schema library): the bounds that matter must hold while the bytes
are parsed, which a validator of already-parsed JSON cannot give, and each refusal
names the field in words.

Every body is a JSON object with ``"v": 1`` and ``"kind"`` naming its topic's kind.
Within version 1 devices of two releases still talk: a reader ignores keys it does not
know, a writer leaves out a new field with nothing to say (a status's ``ignored``) and
a station option the teacher did not set, and a station keeps a plan that presets an
option it does not know, without it (:attr:`PlanMessage.ignored`), as the console does
restoring a plan a newer version saved (both say so).
:func:`parse` checks a message against its topic and returns a typed value, or raises
:class:`~tabletop.engine.errors.BadInput` whose message says exactly what is wrong
(a device logs it and ignores the message; it never acts on one that fails).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
MAX_STUDENTS = 200  # the largest class list a station takes
MAX_TEXT = 200  # names, labels
MAX_DEPTH = 16  # objects and lists inside each other (a result's meta needs 4)
MAX_DIGITS = 20  # digits of an integer anywhere in a message (a 64-bit one fits)
MAX_STRING = 2000  # characters of any text inside a result's meta or result
MAX_ITEMS = 1000  # entries of any list or object inside a result's meta or result
MAX_KEY = 64  # characters of a key inside a result's meta or result
SCORE = re.compile(r"^-?[0-9]{1,18}(/[0-9]{1,18})?$")  # str(Fraction): exact
MAX_COUNT = 1_000_000  # a seat's checked / right answers in one game
MAX_IGNORED = 8  # station options a status says it ignored


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

    def ack(self, device: str) -> str:
        """The console's answers to ``device``'s results."""
        return f"{self.prefix}/station/{check_device(device)}/ack"

    @property
    def all_status(self) -> str:
        """The console's subscription to every station's status."""
        return f"{self.prefix}/station/+/status"

    @property
    def all_results(self) -> str:
        return f"{self.prefix}/station/+/result"

    def device_of(self, topic: str) -> tuple[str, str] | None:
        """``(device, kind)`` of a station topic (``kind`` "status", "result" or "ack"),
        else None."""
        parts = topic.split("/")
        head = self.prefix.split("/")
        if len(parts) != len(head) + 3 or parts[: len(head)] != head:
            return None
        station, device, kind = parts[len(head) :]
        if (
            station != "station"
            or kind not in ("status", "result", "ack")
            or not DEVICE_ID.match(device)
        ):
            return None
        return device, kind

    def kind_of(self, topic: str) -> str | None:
        """The kind of message that belongs on ``topic`` ("plan", "clock", "roster",
        "status", "result", "ack"), or None for a topic that is not the fleet's."""
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
    """The rotation plan for the whole classroom (retained). ``ignored``: the station
    options this version does not know, by 0-based station, left out of ``plan`` (a newer
    console sent them; not part of the message)."""

    id: str
    session: str
    plan: Plan
    stations: Mapping[str, int]  # device id -> 0-based station
    sent: float
    ignored: Mapping[int, tuple[str, ...]] = field(default_factory=dict, compare=False)

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
    teacher clock it follows (-1: none); ``outbox`` the results still to deliver;
    ``ignored`` the options of its station in the plan it does not know (sent only when
    there are some, so an older console reads the status as before).
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
    ignored: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
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
        if self.ignored:
            body["ignored"] = list(self.ignored)
        return body


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


@dataclass(frozen=True)
class AckMessage:
    """The console's answer to result ``id`` from ``device``: ``stored`` (now or before),
    or refused for ``reason`` (it will never be stored: the station stops sending it)."""

    id: str
    device: str
    stored: bool
    reason: str = ""
    sent: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "kind": "ack",
            "id": self.id,
            "device": self.device,
            "stored": self.stored,
            "reason": self.reason,
            "sent": self.sent,
        }


Message = PlanMessage | ClockMessage | RosterMessage | StatusMessage | ResultMessage | AckMessage


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
    try:
        data = load(payload)
    except BadInput as exc:
        raise BadInput(exc.code, f"{topic}: {exc.message}") from exc
    if not isinstance(data, dict):
        raise BadInput("fleet.shape", f"{topic}: the body must be a JSON object")
    if not _int(data.get("v")) or data["v"] != VERSION:  # not true, not 1.0 (both == 1)
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
        if kind == "status":
            return _status(data)
        return _result(data) if kind == "result" else _ack(data)
    except BadInput as exc:
        raise BadInput(exc.code, where + exc.message) from exc


def _plan(data: dict[str, Any]) -> PlanMessage:
    ignored: dict[int, list[str]] = {}
    plan = Plan.from_json(data.get("plan"), ignored)
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
        _text(data, "id", 1, 80),
        _text(data, "session", 0, 80),
        plan,
        stations,
        _time(data),
        {i: tuple(keys) for i, keys in ignored.items() if keys},
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
    ignored = data.get("ignored", [])
    if (
        not isinstance(ignored, list)
        or len(ignored) > MAX_IGNORED
        or not all(isinstance(k, str) and 0 < len(k) <= MAX_KEY for k in ignored)
    ):
        raise BadInput("fleet.status", f"'ignored' must list at most {MAX_IGNORED} option names")
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
        ignored=tuple(ignored),
    )


MATCH_TEXT = ("game", "header", "label", "session", "reason")
MATCH_TIMES = ("started", "finished", "elapsed")
MAX_HEADER = 20_000  # the match log's header line (the game's settings)


def _result(data: dict[str, Any]) -> ResultMessage:
    rid = data.get("id")
    if not isinstance(rid, str) or not RESULT_ID.match(rid):
        raise BadInput("fleet.result", f"the result id {rid!r} is not one a device makes")
    match = data.get("match")
    if not isinstance(match, dict):
        raise BadInput("fleet.result", "'match' must be an object")
    from tabletop.games import GAMES

    if not isinstance(match.get("game"), str) or match["game"] not in GAMES:
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
    for key in MATCH_TEXT:
        limit = MAX_HEADER if key == "header" else MAX_TEXT
        if len(match.get(key, "")) > limit:
            raise BadInput("fleet.result", f"'match.{key}' is longer than {limit} characters")
    for key in ("meta", "result"):
        if not isinstance(match.get(key), dict):
            raise BadInput("fleet.result", f"'match.{key}' must be an object")
        _bounded(match[key], f"match.{key}")
    _reportable(match["meta"], match["result"])
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


def _reportable(meta: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """The fields a report reads: exact scores, places and winners as seat numbers,
    checks as pairs of counts (so a stored result never breaks a report)."""
    scores = result.get("scores", [])
    if not isinstance(scores, list) or len(scores) > 8:
        raise BadInput("fleet.result", "'result.scores' must list at most 8 scores")
    for score in scores:
        if not isinstance(score, str) or not SCORE.match(score) or score.endswith("/0"):
            raise BadInput(
                "fleet.result", f"the score {score!r} is not an exact number such as 12 or 7/2"
            )
    for key in ("places", "winners"):
        seats = result.get(key, [])
        if (
            not isinstance(seats, list)
            or len(seats) > 8
            or not all(_int(v) and 0 <= v <= 8 for v in seats)
        ):
            raise BadInput("fleet.result", f"'result.{key}' must list seat numbers 0..8")
    _dice_counts(meta.get("dice", {}))
    checks = meta.get("checks", [])
    if not isinstance(checks, list) or len(checks) > 8:
        raise BadInput("fleet.result", "'meta.checks' must list at most 8 seats")
    for pair in checks:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(_int(v) and 0 <= v <= MAX_COUNT for v in pair)
        ):
            raise BadInput(
                "fleet.result",
                f"each of 'meta.checks' must be two counts 0..{MAX_COUNT}, not {pair!r:.60}",
            )


def _dice_counts(dice: Any) -> None:
    """``meta.dice``: the dice read for the game, per source (camera, corrected, tap,
    virtual) six counts 0.. (one per face), at most :data:`MAX_SENT` in all: the console
    keeps one row per die, so the bound keeps a poison count from filling its disk."""
    from tabletop.classroom.dice_lesson import FACES, MAX_SENT, SOURCES

    if not isinstance(dice, dict) or not set(dice) <= set(SOURCES):
        raise BadInput(
            "fleet.result", f"'meta.dice' must give counts per source ({', '.join(SOURCES)})"
        )
    total = 0
    for source, counts in dice.items():
        if (
            not isinstance(counts, list)
            or len(counts) != FACES
            or not all(_int(n) and 0 <= n <= MAX_SENT for n in counts)
        ):
            raise BadInput(
                "fleet.result",
                f"'meta.dice.{source}' must be {FACES} counts 0..{MAX_SENT}, not {counts!r:.60}",
            )
        total += sum(counts)
    if total > MAX_SENT:
        raise BadInput("fleet.result", f"'meta.dice' counts {total} dice, more than {MAX_SENT}")


def _ack(data: dict[str, Any]) -> AckMessage:
    rid = data.get("id")
    if not isinstance(rid, str) or not RESULT_ID.match(rid):
        raise BadInput("fleet.ack", f"the result id {rid!r} is not one a device makes")
    stored = data.get("stored")
    if not isinstance(stored, bool):
        raise BadInput("fleet.ack", "'stored' must be true or false")
    return AckMessage(
        rid, data["device"], stored, _text(data, "reason", 0, MAX_STRING), _time(data)
    )


# -- reading JSON within bounds -------------------------------------------------------------

_STRUCTURE = re.compile(rb'[\[\]{}"\\]')
_ID_IN_BODY = re.compile(rb'"id"\s*:\s*"([A-Za-z0-9:._-]{8,80})"')


def depth(payload: bytes) -> int:
    """How deep objects and lists nest in ``payload`` (JSON), without parsing it: one
    pass over its brackets and quotes, strings and escapes skipped."""
    deepest = level = 0
    in_string = False
    escaped_at = -2  # the position a backslash makes literal
    for found in _STRUCTURE.finditer(payload):
        at = found.start()
        char = payload[at]
        if in_string:
            if at == escaped_at:
                continue
            if char == 0x5C:  # backslash: the next character is literal
                escaped_at = at + 1
            elif char == 0x22:
                in_string = False
        elif char == 0x22:
            in_string = True
        elif char in (0x5B, 0x7B):
            level += 1
            deepest = max(deepest, level)
        elif char in (0x5D, 0x7D):
            level -= 1
    return deepest


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadInput("fleet.number", f"a number has more than {MAX_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadInput("fleet.number", f"the number {text[:40]} is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise BadInput("fleet.number", f"{text} is not a number a message may hold")


def load(payload: bytes) -> Any:
    """``payload`` as JSON within the bounds (module docstring); :class:`BadInput` says
    which bound it breaks (``fleet.size``, ``fleet.depth``, ``fleet.number``) or that it
    is not JSON (``fleet.json``)."""
    if len(payload) > MAX_BYTES:
        raise BadInput("fleet.size", f"{len(payload)} bytes, more than {MAX_BYTES}")
    deepest = depth(payload)
    if deepest > MAX_DEPTH:
        raise BadInput("fleet.depth", f"nested {deepest} deep, more than {MAX_DEPTH}")
    try:
        return json.loads(
            payload.decode("utf-8"),
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except BadInput:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadInput("fleet.json", f"not JSON ({str(exc)[:120]})") from exc


def result_id_in(payload: bytes) -> str | None:
    """The result id a body that cannot be read names (its first ``"id"``: a device's
    own encoder writes it before any nested object), or None; so the console can still
    answer the station that sent it."""
    found = _ID_IN_BODY.search(payload[:4096])
    if found is None:
        return None
    rid = found.group(1).decode("ascii")
    return rid if RESULT_ID.match(rid) else None


def _bounded(value: Any, where: str) -> None:
    """Every text, list and object inside ``value`` within the bounds (the depth and the
    numbers were bounded while it was read)."""
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise BadInput("fleet.result", f"a text in '{where}' is longer than {MAX_STRING}")
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise BadInput("fleet.result", f"a list in '{where}' has more than {MAX_ITEMS} items")
        for item in value:
            _bounded(item, where)
    elif isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise BadInput("fleet.result", f"'{where}' has more than {MAX_ITEMS} entries")
        for key, item in value.items():
            if len(key) > MAX_KEY:
                raise BadInput("fleet.result", f"a key in '{where}' is longer than {MAX_KEY}")
            _bounded(item, where)
    elif isinstance(value, float) and not math.isfinite(value):
        raise BadInput("fleet.number", f"'{where}' holds a number that is not finite")


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
    "MAX_DEPTH",
    "MAX_STUDENTS",
    "VERSION",
    "AckMessage",
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
    "depth",
    "encode",
    "load",
    "parse",
    "result_id_in",
    "standings_of",
]
