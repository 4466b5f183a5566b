"""The wire contract: every message kind round-trips, and every way a message can be
wrong is refused with its own code (a device never acts on one). The broker's ACL drops
forged topics."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tabletop.classroom.fleet.config import Broker
from tabletop.classroom.fleet.messages import (
    MAX_BYTES,
    AckMessage,
    ClockMessage,
    PlanMessage,
    ResultMessage,
    RosterMessage,
    RosterStudent,
    SeatRecord,
    Standing,
    StatusMessage,
    Topics,
    encode,
    parse,
)
from tabletop.classroom.rotation import Plan, RotationClock, Station
from tabletop.engine.errors import BadInput
from tests.fleet.clients import raw_client

T = Topics()
T0 = 1_700_000_000.0
PLAN = Plan((Station("math-attack"), Station("mecs")), ("Red", "Blue"))
CLOCK = RotationClock(PLAN, T0)


def body(message: Any) -> dict[str, Any]:
    return json.loads(encode(message))


def plan_body() -> dict[str, Any]:
    return body(PlanMessage("p1", "lesson", PLAN, {"station-1": 0, "station-2": 1}, T0))


def clock_body() -> dict[str, Any]:
    return body(ClockMessage("p1", 3, (CLOCK, CLOCK.pause(T0 + 5)), T0))


def status_body() -> dict[str, Any]:
    return body(
        StatusMessage(
            "station-1",
            True,
            T0,
            station=0,
            plan="p1",
            phase="play",
            left=61.0,
            group="Red",
            game="mecs",
            standings=(Standing("Ada", "7/2", 1),),
            clock_seq=3,
            outbox=2,
        )
    )


def result_body() -> dict[str, Any]:
    match = {
        "game": "math-attack",
        "header": "{}",
        "label": "app",
        "session": "lesson",
        "meta": {"checks": [[1, 1], [0, 0]]},
        "result": {"scores": ["12", "7/2"], "places": [1, 2], "winners": [0], "reason": "end"},
        "reason": "end",
        "started": T0,
        "finished": T0 + 300,
        "elapsed": 290.0,
    }
    seats = (SeatRecord(0, "Ada", "A1", "Red"), SeatRecord(1, "Bot", None, "", "easy"))
    return body(ResultMessage("station-1:0123456789abcdef", "station-1", match, seats, T0))


def raw(data: Any) -> bytes:
    return json.dumps(data).encode()


def test_messages_round_trip() -> None:
    plan = parse(T, T.plan, raw(plan_body()))
    assert isinstance(plan, PlanMessage) and plan.plan == PLAN and plan.station_of("station-2") == 1
    clock = parse(T, T.clock, raw(clock_body()), plan=PLAN)
    assert isinstance(clock, ClockMessage) and clock.clock_for(1).paused(T0 + 6)
    roster = RosterMessage((RosterStudent("A1", "Ada", "Red"),), T0)
    assert parse(T, T.roster, encode(roster)) == roster
    status = parse(T, T.status("station-1"), raw(status_body()))
    assert isinstance(status, StatusMessage) and status.standings[0].score == "7/2"
    result = parse(T, T.result("station-1"), raw(result_body()))
    assert isinstance(result, ResultMessage) and result.seats[1].bot == "easy"


def _with(make, **changes: Any) -> dict[str, Any]:
    data = make()
    for key, value in changes.items():
        data[key] = value
    return data


CASES: list[tuple[str, str, Any, str]] = [
    # (name, topic, payload (bytes or a JSON value), code)
    ("not a fleet topic", "tabletop/teacher/other", plan_body(), "fleet.topic"),
    ("another prefix", "room-2/teacher/plan", plan_body(), "fleet.topic"),
    ("bad JSON", T.plan, b'{"v": 1,', "fleet.json"),
    ("not UTF-8", T.plan, b"\xff\xfe", "fleet.json"),
    ("not an object", T.plan, [1, 2], "fleet.shape"),
    ("oversize", T.plan, b"{" + b" " * MAX_BYTES + b"}", "fleet.size"),
    ("version 2", T.plan, _with(plan_body, v=2), "fleet.version"),
    ("wrong kind", T.plan, _with(plan_body, kind="clock"), "fleet.kind"),
    ("a clock on the plan topic", T.plan, clock_body(), "fleet.kind"),
    ("status on a result topic", T.result("station-1"), status_body(), "fleet.kind"),
    ("plan: station out of range", T.plan, _with(plan_body, stations={"station-1": 5}), "fleet"),
    (
        "plan: two devices one station",
        T.plan,
        _with(plan_body, stations={"station-1": 0, "station-2": 0}),
        "fleet.stations",
    ),
    ("plan: bad device id", T.plan, _with(plan_body, stations={"Station 1": 0}), "fleet.device"),
    ("plan: no id", T.plan, _with(plan_body, id=""), "fleet.text"),
    ("plan: sent NaN", T.plan, raw(plan_body()).replace(b"1700000000.0", b"NaN"), "fleet.number"),
    ("clock: negative seq", T.clock, _with(clock_body, seq=-1), "fleet.seq"),
    ("clock: seq a string", T.clock, _with(clock_body, seq="4"), "fleet.seq"),
    ("clock: seq a bool", T.clock, _with(clock_body, seq=True), "fleet.seq"),
    ("clock: no clocks", T.clock, _with(clock_body, clocks=[]), "fleet.clocks"),
    ("clock: one clock too few", T.clock, _with(clock_body, clocks=[CLOCK.to_json()]), "fleet"),
    ("clock: unreadable clock", T.clock, _with(clock_body, clocks=[{}, {}]), "rotation.clock"),
    (
        "clock: infinite start",
        T.clock,
        raw(clock_body()).replace(b'"started_at": 1700000000.0', b'"started_at": 1e999', 1),
        "fleet.number",
    ),
    (
        "roster: id twice",
        T.roster,
        {
            "v": 1,
            "kind": "roster",
            "sent": T0,
            "students": [{"id": "A1", "name": "Ada"}, {"id": "A1", "name": "Ben"}],
        },
        "fleet.students",
    ),
    (
        "roster: id with a colon",
        T.roster,
        {"v": 1, "kind": "roster", "sent": T0, "students": [{"id": "A:1", "name": "Ada"}]},
        "fleet.students",
    ),
    (
        "status: another device in the body",
        T.status("station-2"),
        status_body(),
        "fleet.device",
    ),
    ("status: unknown phase", T.status("station-1"), _with(status_body, phase="x"), "fleet.status"),
    ("status: station 9", T.status("station-1"), _with(status_body, station=9), "fleet.status"),
    (
        "status: ignored not a list of names",
        T.status("station-1"),
        _with(status_body, ignored=["target", 3]),
        "fleet.status",
    ),
    (
        "result: another device in the body",
        T.result("station-2"),
        result_body(),
        "fleet.device",
    ),
    ("result: bad id", T.result("station-1"), _with(result_body, id="x"), "fleet.result"),
    ("result: no seats", T.result("station-1"), _with(result_body, seats=[]), "fleet.result"),
]


@pytest.mark.parametrize(("name", "topic", "payload", "code"), CASES, ids=[c[0] for c in CASES])
def test_messages_refused_with_their_code(name: str, topic: str, payload: Any, code: str) -> None:
    data = payload if isinstance(payload, bytes) else raw(payload)
    with pytest.raises(BadInput) as err:
        parse(T, topic, data, plan=PLAN)
    assert err.value.code.startswith(code), (name, err.value.code, err.value.message)
    assert err.value.message


@pytest.mark.parametrize("v", [True, 1.0])
def test_messages_version_is_the_int_1_in_every_kind(v: object) -> None:
    """Walk 30: "v": true and "v": 1.0 passed as version 1 (True == 1 == 1.0), and a
    class list was replaced by such a message."""
    ack = body(AckMessage("station-1:0123456789abcdef", "station-1", True, "", T0))
    roster = body(RosterMessage((RosterStudent("A1", "Ada", "Red"),), T0))
    kinds = [
        (T.plan, plan_body()),
        (T.clock, clock_body()),
        (T.roster, roster),
        (T.status("station-1"), status_body()),
        (T.result("station-1"), result_body()),
        (T.ack("station-1"), ack),
    ]
    for topic, data in kinds:
        parse(T, topic, raw(data), plan=PLAN)  # version 1 is taken
        data["v"] = v
        with pytest.raises(BadInput) as refused:
            parse(T, topic, raw(data), plan=PLAN)
        assert refused.value.code == "fleet.version", topic


def test_messages_result_match_fields_checked() -> None:
    cases = [("game", "chess"), ("reason", "abandoned"), ("started", "soon")]
    cases += [("game", ["mecs"]), ("game", {"mecs": 1})]  # unhashable: was a TypeError
    for key, value in cases:
        data = result_body()
        data["match"][key] = value
        with pytest.raises(BadInput) as err:
            parse(T, T.result("station-1"), raw(data))
        assert err.value.code == "fleet.result" and key in err.value.message


def _connect(broker: Broker, device: str, sink: list[tuple[str, bytes]] | None = None):
    config = broker.provisioned.config(device)
    client = raw_client(config, f"acl-{device}")
    ready = threading.Event()
    client.on_connect = lambda c, u, f, rc, p: ready.set()
    if sink is not None:
        client.on_message = lambda c, u, m: sink.append((m.topic, bytes(m.payload)))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert ready.wait(10)
    return client


def test_messages_acl_drops_forged_topics(broker: Broker) -> None:
    seen: list[tuple[str, bytes]] = []
    teacher = _connect(broker, "teacher", seen)
    done = threading.Event()
    teacher.on_subscribe = lambda *a: done.set()
    teacher.subscribe("tabletop/#", qos=1)
    assert done.wait(10)
    forger = _connect(broker, "station-2")
    try:
        forged = raw(status_body())  # says station-1
        forgeries = (T.status("station-1"), T.plan, T.clock, T.result("station-1"))
        for topic in (*forgeries, T.ack("station-1"), T.ack("station-2")):
            forger.publish(topic, forged, qos=1).wait_for_publish(10)
        # Its own topic passes: once that arrives, the forged ones (sent before, on the
        # same connection, in order) would have arrived too.
        forger.publish(T.status("station-2"), b"mine", qos=1).wait_for_publish(10)
        deadline = time.monotonic() + 10
        while (T.status("station-2"), b"mine") not in seen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (T.status("station-2"), b"mine") in seen
        assert [t for t, _ in seen] == [T.status("station-2")]
    finally:
        for c in (forger, teacher):
            c.disconnect()
            c.loop_stop()


def test_messages_result_carries_dice_counts() -> None:
    """Issue 24: a result may carry the dice read for its game, per source six counts
    (one per face), so the console's dice lesson covers every station."""
    data = result_body()
    data["match"]["meta"]["dice"] = {"camera": [1, 0, 2, 0, 0, 5], "tap": [0, 0, 0, 0, 0, 1]}
    result = parse(T, T.result("station-1"), raw(data))
    assert isinstance(result, ResultMessage)
    assert result.match["meta"]["dice"]["camera"] == [1, 0, 2, 0, 0, 5]


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ([1, 2, 3, 4, 5, 6], "per source"),
        ({"loaded": [1, 1, 1, 1, 1, 1]}, "per source"),
        ({"camera": [1, 2, 3]}, "6 counts"),
        ({"camera": [-1, 0, 0, 0, 0, 0]}, "6 counts"),
        ({"camera": [1.5, 0, 0, 0, 0, 0]}, "6 counts"),
        ({"camera": [True, 0, 0, 0, 0, 0]}, "6 counts"),
        ({"camera": "999999"}, "6 counts"),
        ({"camera": [10**7, 0, 0, 0, 0, 0]}, "6 counts"),
        ({"camera": [2000] * 6}, "more than"),
        ({"camera": [9000, 0, 0, 0, 0, 0], "tap": [0, 0, 0, 0, 0, 9000]}, "more than"),
    ],
)
def test_messages_result_poison_dice_refused(dice: Any, words: str) -> None:
    """A result whose dice counts break the bounds is refused with the field named: the
    console keeps a row per die, so no station can make it write millions."""
    data = result_body()
    data["match"]["meta"]["dice"] = dice
    with pytest.raises(BadInput) as err:
        parse(T, T.result("station-1"), raw(data))
    assert err.value.code == "fleet.result"
    assert "meta.dice" in err.value.message and words in err.value.message


# A plan without presets as the console of f0c8092 (Math Arena's "Play to" not yet an
# option) encoded it: byte for byte what the console sends now.
OLD_PLAN_BYTES = (
    b'{"id":"p1","kind":"plan","plan":{"groups":["Red","Blue"],"minutes":15,"rotations":null,'
    b'"stations":[{"game":"math-attack","mode":"table","name":"Math Attack!","options":{}},'
    b'{"game":"mecs","mode":"normal","name":"M.E.C.S.","options":{}},{"game":"math-arena",'
    b'"mode":"cards","name":"Math Arena","options":{"level":"hard"}}],"transition":1,'
    b'"warning":1},"sent":1700000000.0,"session":"lesson","stations":{"station-1":0},"v":1}'
)


def test_messages_plan_without_new_presets_is_byte_identical_to_before() -> None:
    """A station option is sent only when the teacher set it: a plan that does not preset
    "Play to" is the same bytes an older station read before, so it still reads it; so is
    a status that ignored nothing (its ``ignored`` is left out)."""
    arena = Station("math-arena", options={"level": "hard"})
    plan = Plan((Station("math-attack"), Station("mecs"), arena), ("Red", "Blue"))
    assert encode(PlanMessage("p1", "lesson", plan, {"station-1": 0}, T0)) == OLD_PLAN_BYTES
    assert "ignored" not in body(StatusMessage("station-1", True, T0, station=0))


def test_messages_plan_with_a_station_option_unknown_here_is_kept_without_it() -> None:
    """A newer console's plan presets an option this version does not know: the plan is
    read without it (the group chooses) and ``ignored`` says which, by station; the
    status that tells the console round-trips."""
    data = plan_body()
    data["plan"]["stations"][1]["options"] = {"deck": "advanced", "sparkle": "gold"}
    plan = parse(T, T.plan, raw(data))
    assert isinstance(plan, PlanMessage)
    assert plan.plan.stations[1].options == {"deck": "advanced"}
    assert plan.ignored == {1: ("sparkle",)}
    status = StatusMessage("station-2", True, T0, station=1, plan="p1", ignored=("sparkle",))
    assert body(status)["ignored"] == ["sparkle"]
    assert parse(T, T.status("station-2"), encode(status)) == status


def test_messages_broker_refuses_a_packet_larger_than_any_message(broker: Broker) -> None:
    """The broker's cap (``max_packet_size``, a little above :data:`MAX_BYTES`): a 60 MB
    retained status was kept and then read whole by the console before ``fleet.size``
    refused it (85 -> 325 MB). Now its sender is cut off and nothing is kept; a message
    of the largest size allowed still passes."""
    seen: list[tuple[str, bytes]] = []
    teacher = _connect(broker, "teacher", seen)
    done, dropped = threading.Event(), threading.Event()
    teacher.on_subscribe = lambda *a: done.set()
    teacher.subscribe("tabletop/#", qos=1)
    assert done.wait(10)
    big, largest = _connect(broker, "station-2"), _connect(broker, "station-3")
    big.on_disconnect = lambda *a: dropped.set()
    try:
        big.publish(T.status("station-2"), b"x" * (2 * MAX_BYTES), retain=True)
        assert dropped.wait(10)
        body = b"x" * MAX_BYTES
        largest.publish(T.status("station-3"), body, qos=1, retain=True).wait_for_publish(10)
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert seen == [(T.status("station-3"), body)]
    finally:
        for c in (big, largest, teacher):
            c.disconnect()
            c.loop_stop()
