"""The teacher's console against a real mosquitto, with raw paho clients as stations."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom import report_rows
from tabletop.classroom.fleet.config import Broker, provision
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import (
    ResultMessage,
    SeatRecord,
    Standing,
    StatusMessage,
    encode,
)
from tabletop.classroom.rotation import Plan, Station
from tabletop.engine.errors import BadInput
from tests.fleet.clients import raw_client

PLAN = Plan((Station("mecs"), Station("math-arena"), Station("math-attack")), ("Red", "Blue"))


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll ``check`` until it returns something true (a test's deadline, not a figure)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {check}")
        time.sleep(0.02)


class RawStation:
    """A station made of a bare paho client: publishes what a test gives it, keeps what
    the console sends."""

    def __init__(self, broker: Broker, device: str, *, will: bool = True) -> None:
        self.device = device
        self.config = broker.provisioned.config(device)
        self.topics = self.config.topics
        self.got: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.last: dict[str, bytes] = {}
        self.client = raw_client(self.config, f"raw-{device}")
        if will:
            self.client.will_set(
                self.topics.status(device),
                json.dumps(
                    {"v": 1, "kind": "status", "device": device, "online": False, "sent": 0}
                ),
                qos=1,
                retain=True,
            )
        self.client.on_message = lambda c, u, m: self.got.put((m.topic, bytes(m.payload)))
        connected = queue.Queue[bool]()
        self.client.on_connect = lambda c, u, f, r, p: connected.put(not r.is_failure)
        self.client.connect("127.0.0.1", self.config.port, keepalive=2)
        self.client.loop_start()
        assert connected.get(timeout=10)
        self.client.subscribe(f"{self.topics.prefix}/teacher/#", qos=1)

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(10)

    def status(self, **fields: Any) -> None:
        msg = StatusMessage(self.device, True, time.time(), **fields)
        self.publish(self.topics.status(self.device), encode(msg))

    def latest(
        self, topic: str, check: Callable[[bytes], bool] = bool, timeout: float = 10.0
    ) -> bytes:
        """The newest payload on ``topic`` once ``check`` accepts it (default: any
        non-empty one)."""

        def found() -> bytes | None:
            while not self.got.empty():
                t, payload = self.got.get()
                self.last[t] = payload
            payload = self.last.get(topic)
            return payload if payload is not None and check(payload) else None

        wait_for(lambda: found() is not None, timeout)
        return self.last[topic]

    def kill(self) -> None:
        """Drop the connection without a goodbye: the broker sends the will."""
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            sock.close()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def console(broker: Broker, tmp_path: Path) -> Iterator[Coordinator]:
    c = Coordinator(broker.provisioned.teacher, tmp_path / "teacher").start()
    wait_for(lambda: c.run(lambda: c.connected))
    yield c
    c.stop()


def result_message(device: str, rid: str, *, game: str = "mecs") -> ResultMessage:
    return ResultMessage(
        id=rid,
        device=device,
        match={
            "game": game,
            "header": json.dumps({"game": game, "seed": 3}),
            "label": "app",
            "session": "2026-11-22",
            "meta": {"checks": [[4, 3], [2, 2]]},
            "result": {"scores": ["12", "7/2"], "places": [1, 2], "winners": [0], "why": "15"},
            "reason": "end",
            "started": 1000.0,
            "finished": 1300.0,
            "elapsed": 300.0,
        },
        seats=(
            SeatRecord(0, "Ada", "S1", "Red"),
            SeatRecord(1, "Bo", "S2", "Red"),
        ),
        sent=time.time(),
    )


def test_coordinator_stores_a_result_sent_twice_once(broker: Broker, console: Coordinator) -> None:
    station = RawStation(broker, "station-1")
    body = encode(result_message("station-1", "station-1:0001"))
    station.publish(station.topics.result("station-1"), body)
    station.publish(station.topics.result("station-1"), body)
    wait_for(lambda: console.run(lambda: console.results + console.duplicates) == 2)
    assert console.run(lambda: (console.results, console.duplicates)) == (1, 1)

    def rows() -> tuple[list[Any], list[report_rows.Row]]:
        assert console.journal is not None
        db = console.journal.db
        stored = db.execute("SELECT id, device FROM fleet_results").fetchall()
        return stored, report_rows.gather(console.journal, "2026-11-22")

    stored, gathered = console.run(rows)
    assert stored == [("station-1:0001", "station-1")]
    assert [
        (r.name, r.group, r.games, r.wins, str(r.points), r.checked, r.right) for r in gathered
    ] == [
        ("Ada", "Red", 1, 1, "12", 4, 3),
        ("Bo", "Red", 1, 0, "7/2", 2, 2),
    ]
    station.close()


def test_coordinator_keeps_a_stations_dice_once(broker: Broker, console: Coordinator) -> None:
    """Issue 24: the dice a station read for a game come with its result and join the
    console's dice lesson for that lesson (kept once, however often the result is sent)."""
    from tabletop.classroom.dice_lesson import fairness, read_dice

    station = RawStation(broker, "station-2")
    message = result_message("station-2", "station-2:0001", game="mathe-meister")
    message.match["meta"]["dice"] = {"camera": [1, 0, 2, 0, 0, 1], "virtual": [0, 1, 0, 0, 0, 0]}
    body = encode(message)
    station.publish(station.topics.result("station-2"), body)
    station.publish(station.topics.result("station-2"), body)
    wait_for(lambda: console.run(lambda: console.results + console.duplicates) == 2)

    def dice() -> tuple[list[int], list[int], list[int]]:
        assert console.journal is not None
        journal = console.journal
        every = read_dice(journal, "2026-11-22", ("camera", "virtual"))
        return read_dice(journal, "2026-11-22"), every, fairness(read_dice(journal)).counts

    lesson, every, counts = console.run(dice)
    assert sorted(lesson) == [1, 3, 3, 6] and sorted(every) == [1, 2, 3, 3, 6]
    assert list(counts) == [1, 0, 2, 0, 0, 1]
    station.close()


def test_coordinator_gets_results_sent_while_it_was_away(broker: Broker, tmp_path: Path) -> None:
    data = tmp_path / "teacher"
    first = Coordinator(broker.provisioned.teacher, data).start()
    wait_for(lambda: first.run(lambda: first.connected))
    first.stop()  # the broker keeps its session and queues its results
    station = RawStation(broker, "station-4")
    for n in (1, 2, 3):
        station.publish(
            station.topics.result("station-4"),
            encode(result_message("station-4", f"station-4:000{n}")),
        )
    station.close()
    again = Coordinator(broker.provisioned.teacher, data).start()
    try:
        wait_for(lambda: again.run(lambda: again.results) == 3)

        def ids() -> list[str]:
            assert again.journal is not None
            rows = again.journal.db.execute("SELECT id FROM fleet_results ORDER BY id")
            return [r[0] for r in rows]

        assert again.run(ids) == ["station-4:0001", "station-4:0002", "station-4:0003"]
    finally:
        again.stop()


def test_coordinator_refuses_an_invalid_result(broker: Broker, console: Coordinator) -> None:
    station = RawStation(broker, "station-2")
    bad = result_message("station-2", "station-2:0001").to_json()
    bad["match"]["game"] = "chess"
    station.publish(station.topics.result("station-2"), json.dumps(bad).encode())
    station.publish(station.topics.result("station-2"), b"{not json")
    wait_for(lambda: sum(console.run(lambda: console.refused).values()) == 2)
    assert console.run(lambda: console.refused) == {"fleet.result": 1, "fleet.json": 1}

    def stored() -> int:
        assert console.journal is not None
        return int(console.journal.db.execute("SELECT COUNT(*) FROM matches").fetchone()[0])

    assert console.run(stored) == 0
    station.close()


def test_coordinator_sees_a_station_go_offline_by_its_will(
    broker: Broker, console: Coordinator
) -> None:
    station = RawStation(broker, "station-3")
    station.status(
        game="mecs", group="Red", phase="play", left=90.0, standings=(Standing("Ada", "3", 1),)
    )

    def card() -> dict[str, Any] | None:
        cards = console.run(console.snapshot)["stations"]
        return next((c for c in cards if c["device"] == "station-3"), None)

    first = wait_for(lambda: (c := card()) and c["online"] and c)
    assert first["status"]["group"] == "Red"
    assert first["waiting"]  # no plan names it yet
    station.kill()
    gone = wait_for(lambda: (c := card()) and not c["online"] and c, timeout=15)
    assert gone["status"]["group"] == "Red"  # the last thing it showed stays
    assert gone["last_seen"] is not None


def test_coordinator_publishes_plan_and_clock_and_a_pause_reaches_every_station(
    broker: Broker, console: Coordinator
) -> None:
    stations = [RawStation(broker, f"station-{n}") for n in (1, 2, 3)]
    assignment = {s.device: i for i, s in enumerate(stations)}
    plan = console.run(console.start_plan, PLAN, assignment, "lesson-1")
    seq = console.run(console.clock_action, "pause")
    assert seq == 2
    for s in stations:
        body = json.loads(s.latest(s.topics.clock, lambda b: json.loads(b)["seq"] == 2))
        assert body["seq"] == 2 and body["plan"] == plan.id
        assert all(c["pauses"] and c["pauses"][-1][1] is None for c in body["clocks"])
        assert json.loads(s.latest(s.topics.plan))["session"] == "lesson-1"
    record = console.run(console.latency)[-1]
    assert record["seq"] == 2 and record["everywhere"] is None
    for i, s in enumerate(stations):
        s.status(station=i, plan=plan.id, phase="play", paused=True, clock_seq=2)
    done = wait_for(lambda: console.run(console.latency)[-1]["everywhere"] is not None)
    assert done
    # One station only: its clock alone changes.
    console.run(console.clock_action, "resume", 1)
    body = json.loads(
        stations[0].latest(stations[0].topics.clock, lambda b: json.loads(b)["seq"] == 3)
    )
    assert [c["pauses"][-1][1] is None for c in body["clocks"]] == [True, False, True]
    # ... and only its device has to show the new seq.
    assert console.run(console.latency)[-1]["devices"] == ["station-2"]
    with pytest.raises(BadInput, match="no station 7"):
        console.run(console.clock_action, "pause", 7)
    for s in stations:
        s.close()


def test_coordinator_restart_carries_on_with_the_plan_and_clocks(
    broker: Broker, tmp_path: Path
) -> None:
    data = tmp_path / "teacher"
    with Coordinator(broker.provisioned.teacher, data).start(connect=False) as first:
        plan = first.run(first.start_plan, PLAN, {"station-1": 0})
        first.run(first.clock_action, "extend", None, 2)
        first.run(first.clock_action, "pause", 0)
        before = first.run(lambda: ([c.to_json() for c in first.clocks], first.seq))
    again = Coordinator(broker.provisioned.teacher, data).start()
    try:
        after = again.run(lambda: ([c.to_json() for c in again.clocks], again.seq))
        assert after == before and after[1] == 3
        assert again.run(lambda: again.plan and again.plan.id) == plan.id
        # ... and publishes them on connecting.
        station = RawStation(broker, "station-1")
        assert json.loads(station.latest(station.topics.clock))["seq"] == 3
        again.run(again.clear_plan)
        # Clearing ends every clock (seq 4), kept on the broker: a station that was away
        # learns that the rotation is over when it is back.
        station.close()
        back = RawStation(broker, "station-1")
        ended = json.loads(back.latest(back.topics.clock, lambda b: b'"seq":4' in b))
        assert all(c["ended"] is not None for c in ended["clocks"])
        assert json.loads(back.latest(back.topics.plan))["id"] == plan.id
        back.close()
    finally:
        again.stop()
    with Coordinator(broker.provisioned.teacher, data).start(connect=False) as third:
        assert third.run(lambda: (third.plan, third.seq)) == (None, 4)


def test_coordinator_publishes_the_roster_after_each_change(
    broker: Broker, console: Coordinator
) -> None:
    station = RawStation(broker, "station-1")
    console.run(console.roster_change, "import_csv", text="id,name,group\nS1,Ada,Red\nS2,Bo,Blue\n")
    body = json.loads(station.latest(station.topics.roster, lambda b: b"Ada" in b))
    assert [s["name"] for s in body["students"]] == ["Bo", "Ada"]
    added = console.run(console.roster_change, "add", name="Cy", group="Red")
    console.run(console.roster_change, "set_group", sid="S1", group="Blue")
    body = json.loads(
        station.latest(
            station.topics.roster,
            lambda b: {"id": "S1", "name": "Ada", "group": "Blue"} in json.loads(b)["students"],
        )
    )
    assert {(s["id"], s["group"]) for s in body["students"]} == {
        ("S1", "Blue"),
        ("S2", "Blue"),
        (added.id, "Red"),
    }
    with pytest.raises(BadInput, match="no student"):
        console.run(console.roster_change, "remove", sid="S99")
    station.close()


def test_coordinator_refuses_a_station_fleet_file(broker: Broker, tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="teacher"):
        Coordinator(broker.provisioned.config("station-1"), tmp_path)


def test_coordinator_plan_check_runs_every_rule_of_the_start_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check=True`` (the dashboard's Start asks first): the real start's rules, the
    device-to-station mapping and a swap's unchanged plan included, refuse with the same
    sentence; a plan they pass is returned, and nothing is started, saved or sent."""
    files = provision(tmp_path / "fleet", ["station-1", "station-2"], port=1)
    with Coordinator(files.teacher, tmp_path / "teacher").start(connect=False) as console:
        sent: list[str] = []
        monkeypatch.setattr(console, "_publish", lambda topic, payload: sent.append(topic))

        def kept() -> Any:
            rows = console.journal.db.conn.execute("SELECT key, body FROM fleet_state")
            state = (console.plan, console.clocks, console.seq, dict(console.records))
            return state, console.version, sorted(rows.fetchall())

        def refusal(stations: dict[str, int], **kw: Any) -> str:
            with pytest.raises(BadInput) as refused:
                console.run(console.start_plan, PLAN, stations, "lesson-1", **kw)
            return str(refused.value)

        wrong = [
            {"station-1": 3},
            {"station-1": 0, "station-2": 0},
            {"station 1!": 0},
        ]
        for stations in wrong:
            before = console.run(kept)
            said = refusal(stations, check=True)
            assert said == refusal(stations) and "station" in said.lower()
            assert console.run(kept) == before and not sent
        before = console.run(kept)
        checked = console.run(console.start_plan, PLAN, {"station-1": 0}, "lesson-1", check=True)
        assert checked.plan == PLAN and checked.stations == {"station-1": 0}
        assert console.run(kept) == before and not sent and console.plan is None
        # A swap that changes the plan too is refused by the check as by the swap itself.
        console.run(console.start_plan, PLAN, {"station-1": 0}, "lesson-1")
        sent.clear()
        before = console.run(kept)
        other = Plan(PLAN.stations[:2], PLAN.groups)
        with pytest.raises(BadInput) as checked_swap:
            console.run(
                console.start_plan, other, {"station-2": 0}, "lesson-1", swap=True, check=True
            )
        with pytest.raises(BadInput) as real_swap:
            console.run(console.start_plan, other, {"station-2": 0}, "lesson-1", swap=True)
        assert str(checked_swap.value) == str(real_swap.value)
        assert "only the devices may change" in str(real_swap.value)
        swap = console.run(
            console.start_plan, PLAN, {"station-2": 0}, "lesson-1", swap=True, check=True
        )
        assert swap.id == console.plan.id and swap.stations == {"station-2": 0}
        assert console.run(kept) == before and not sent


def test_coordinator_worker_goes_on_after_its_look_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The worker called ``_look()`` outside the guard its jobs have: one exception
    there ended the worker, and every dashboard request then waited for ever. It is
    logged, and the worker goes on."""
    looked: list[int] = []
    look = Coordinator._look

    def flaky(self: Coordinator) -> None:
        looked.append(len(looked))
        if len(looked) == 1:
            raise RuntimeError("a bug in _look")
        look(self)

    monkeypatch.setattr(Coordinator, "_look", flaky)
    files = provision(tmp_path / "fleet", ["station-1"], port=1)
    caplog.set_level("ERROR")
    with Coordinator(files.teacher, tmp_path / "teacher").start(connect=False) as console:
        assert console.run(lambda: 42, timeout=5) == 42
        wait_for(lambda: len(looked) >= 2, timeout=5)  # it looks again after the job
    assert "a bug in _look" in caplog.text
