"""A station in the fleet: the app follows the teacher's plan and clock over a real
mosquitto, ignores (and logs) messages that fail their checks, and says so on screen when
the broker is not there. Waits are for events, with generous timeouts; the rotation's
times come from a fake wall clock."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from tabletop.classroom.fleet.config import Broker, FleetConfig, free_port, provision
from tabletop.classroom.fleet.messages import (
    MAX_IGNORED,
    MAX_KEY,
    AckMessage,
    ClockMessage,
    PlanMessage,
    RosterMessage,
    RosterStudent,
    encode,
)
from tabletop.classroom.fleet.station import (
    REFUSED,
    ROSTER_NOT_TAKEN,
    UNREACHABLE,
    StationFleet,
    StationLink,
    Unreachable,
)
from tabletop.classroom.rotation import Plan, RotationClock, Station, running_rotation
from tabletop.store import Journal
from tabletop.ui.app import App
from tabletop.ui.fleet import start_app_fleet
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.rotation import StationScene
from tabletop.ui.scenes.rotation_editor import FOLLOWS, RotationControl, rotation_menu
from tests.fleet.clients import raw_client
from tests.ui.scenery import FakeClock, make_app

T0 = 1_700_000_000.0
SHOTS = Path(os.environ["TABLETOP_SHOTS"]) if os.environ.get("TABLETOP_SHOTS") else None
PLAN = Plan((Station("math-attack"), Station("mecs"), Station("math-arena")), ("Red", "Blue"))


class Teacher:
    """A test-side console: publishes as the teacher user, records what stations say."""

    def __init__(self, broker: Broker, device: str = "teacher", password: str | None = None):
        config = broker.provisioned.config(device)
        self.topics = config.topics
        self.client = raw_client(config, f"test-{device}", password=password)
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.results: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.ready.wait(10), "the teacher could not connect"

    def _connected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        client.subscribe([(self.topics.all_status, 1), (self.topics.all_results, 1)])
        self.ready.set()

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        found = self.topics.device_of(message.topic)
        if found is None or not message.payload:
            return
        body = json.loads(message.payload)
        with self.lock:
            if found[1] == "status":
                self.statuses.setdefault(found[0], []).append(body)
            else:
                self.results.append(body)
        if found[1] == "result":  # answered as the console answers: stored
            answer = AckMessage(body["id"], found[0], True, "", time.time())
            client.publish(self.topics.ack(found[0]), encode(answer), qos=1)

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(10)

    def plan(self, plan_id: str = "p1", stations: dict[str, int] | None = None) -> PlanMessage:
        message = PlanMessage(
            plan_id, "lesson-7", PLAN, stations or {"station-1": 0, "station-2": 1}, T0
        )
        self.publish(self.topics.plan, encode(message))
        return message

    def clock(self, seq: int, clocks: list[RotationClock], plan_id: str = "p1") -> None:
        self.publish(self.topics.clock, encode(ClockMessage(plan_id, seq, tuple(clocks), T0)))

    def last_status(self, device: str) -> dict[str, Any] | None:
        with self.lock:
            seen = self.statuses.get(device)
            return seen[-1] if seen else None

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_for(what: Callable[[], Any], step: Callable[[], Any] | None = None, timeout=15.0) -> Any:
    """Step (e.g. a frame of the app) until ``what()`` is true; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if step is not None:
            step()
        found = what()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def teacher(broker: Broker):
    t = Teacher(broker)
    yield t
    t.close()


def fleet_app(broker: Broker, tmp_path: Path, device: str = "station-1") -> tuple[App, FakeClock]:
    app = make_app(journal=Journal(tmp_path / f"{device}.sqlite"))
    wall = FakeClock(T0 + 30)
    app.ctx.wall = wall
    app.ctx.fleet = start_app_fleet(app.ctx, broker.provisioned.file(device))
    assert app.ctx.fleet is not None
    assert app.ctx.fleet.link.wait_connected(10)
    return app, wall


def test_station_follows_the_teachers_plan_and_pauses_with_the_clock(
    broker: Broker, teacher: Teacher, tmp_path: Path
) -> None:
    app, wall = fleet_app(broker, tmp_path)
    try:
        teacher.plan()
        clock = RotationClock(PLAN, T0)
        teacher.clock(1, [clock, clock, clock])
        runner = wait_for(lambda: app.ctx.rotation, app.step)
        assert runner.station == 0 and runner.stored.name == "fleet:p1"
        assert isinstance(app.stack.top, StationScene)
        assert app.ctx.session == "lesson-7"
        assert not runner.moment.paused
        # The teacher pauses every station: seq 2.
        paused = clock.pause(T0 + 40)
        teacher.clock(2, [paused, paused, paused])
        wall.advance(15)
        wait_for(lambda: runner.moment.paused, app.step)
        stored = running_rotation(app.ctx.journal)
        assert stored is not None and stored.clock.paused(T0 + 45)  # kept for a reboot
        status = wait_for(
            lambda: (s := teacher.last_status("station-1")) and s["clock_seq"] == 2 and s,
            app.step,
        )
        assert status["paused"] is True and status["station"] == 0 and status["plan"] == "p1"
        assert status["phase"] == "play" and status["group"] == "Red"
        # An older clock (seq 1 again) is ignored.
        teacher.clock(1, [clock, clock, clock])
        wait_for(lambda: app.ctx.fleet.link.stale == 1, app.step)
        assert runner.moment.paused
        # The local controls leave it to the dashboard.
        menu = rotation_menu(app.ctx)
        assert isinstance(menu, RotationControl) and menu.follows
        app.stack.push(menu)
        assert not any(b.enabled for b in menu.buttons if b.name != "back")
        assert FOLLOWS.startswith("This station follows the teacher's dashboard")
        # ...and say whether this station reaches the teacher's computer.
        assert app.ctx.fleet.connection() == (
            True,
            "Connected to the teacher's computer (127.0.0.1, encrypted).",
        )
        app.step(force_draw=True)
        if SHOTS:
            pygame.image.save(app.window, str(SHOTS / "fleet_rotation_menu.png"))
        # The teacher clears the plan: the rotation ends here.
        teacher.publish(teacher.topics.plan, b"")
        wait_for(lambda: app.ctx.rotation is None, app.step)
    finally:
        app.ctx.fleet.close()
    offline = wait_for(lambda: (s := teacher.last_status("station-1")) and not s["online"] and s)
    assert offline["device"] == "station-1"


def test_station_takes_the_class_list_from_the_roster(
    broker: Broker, teacher: Teacher, tmp_path: Path
) -> None:
    app, _ = fleet_app(broker, tmp_path)
    try:
        roster = RosterMessage(
            (RosterStudent("A1", "Ada", "Red"), RosterStudent("B2", "Ben", "Blue")), T0
        )
        teacher.publish(teacher.topics.roster, encode(roster))

        def names() -> list[str]:
            rows = app.ctx.journal.db.execute("SELECT name FROM students ORDER BY id")
            return [r[0] for r in rows]

        assert wait_for(lambda: names() == ["Ada", "Ben"], app.step)
    finally:
        app.ctx.fleet.close()


def test_station_keeps_its_class_list_and_says_so_when_a_new_one_cannot_be_used(
    broker: Broker, teacher: Teacher, tmp_path: Path
) -> None:
    # A list the station's roster refuses (a name over 40 letters, which the message
    # itself allows) is not taken in part: the old list stays whole, and the screen
    # says why (it was only logged before).
    app, _ = fleet_app(broker, tmp_path)
    try:
        first = RosterMessage((RosterStudent("A1", "Ada", "Red"),), T0)
        teacher.publish(teacher.topics.roster, encode(first))

        def names() -> list[str]:
            rows = app.ctx.journal.db.execute("SELECT name FROM students ORDER BY id")
            return [r[0] for r in rows]

        assert wait_for(lambda: names() == ["Ada"], app.step)
        long = RosterMessage(
            (RosterStudent("B2", "Ben", "Blue"), RosterStudent("C3", "C" * 41, "Blue")), T0 + 1
        )
        teacher.publish(teacher.topics.roster, encode(long))
        said = wait_for(lambda: app.toast and app.toast[0].startswith("The class"), app.step)
        assert said and app.toast is not None
        why = "student C3: the name is longer than 40 characters"
        assert app.toast[0] == ROSTER_NOT_TAKEN.format(why=why)
        assert names() == ["Ada"]
    finally:
        app.ctx.fleet.close()


@pytest.mark.parametrize(
    ("topic", "payload", "code"),
    [
        ("plan", b"{not json", "fleet.json"),
        ("plan", b'{"v": 1, "kind": "clock"}', "fleet.kind"),
        ("plan", b'{"v": 1, "kind": "plan", "id": "p9", "session": "", "sent": 1}', "rotation"),
        ("clock", b'{"v": 1, "kind": "clock", "plan": "p1", "seq": -3, "sent": 1}', "fleet.seq"),
    ],
)
def test_station_ignores_and_logs_a_malformed_message_from_the_teacher(
    broker: Broker,
    teacher: Teacher,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    topic: str,
    payload: bytes,
    code: str,
) -> None:
    app, _ = fleet_app(broker, tmp_path)
    caplog.set_level(logging.WARNING, logger="tabletop.classroom.fleet.station")
    try:
        teacher.plan()
        clock = RotationClock(PLAN, T0)
        teacher.clock(1, [clock, clock, clock])
        runner = wait_for(lambda: app.ctx.rotation, app.step)
        full = getattr(teacher.topics, topic)
        teacher.publish(full, payload)
        link = app.ctx.fleet.link
        wait_for(lambda: link.rejected == 1, app.step)
        app.step()
        assert app.ctx.rotation is runner and not runner.finished  # nothing acted on
        (line,) = [r.getMessage() for r in caplog.records if "ignored a message" in r.message]
        assert full in line and code in line
    finally:
        app.ctx.fleet.close()


def test_station_keeps_a_plan_with_an_option_it_does_not_know_and_tells_the_console(
    broker: Broker, teacher: Teacher, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A newer console presets a station option this version does not know (main: the
    whole plan was refused, so no station of an older version took the rotation): the
    station follows the plan without it, says so in one log line, and its status names
    the option for the dashboard."""
    app, _ = fleet_app(broker, tmp_path)
    caplog.set_level(logging.WARNING, logger="tabletop.classroom.fleet.station")
    try:
        data = json.loads(encode(PlanMessage("p1", "lesson-7", PLAN, {"station-1": 2}, T0)))
        data["plan"]["stations"][2]["options"] = {"level": "hard", "sparkle": "gold"}
        teacher.publish(teacher.topics.plan, json.dumps(data).encode())
        clock = RotationClock(PLAN, T0)
        teacher.clock(1, [clock, clock, clock])
        runner = wait_for(lambda: app.ctx.rotation, app.step)
        assert runner.station == 2 and app.ctx.fleet.link.rejected == 0
        assert runner.stored.plan.stations[2].options == {"level": "hard"}
        status = wait_for(
            lambda: (s := teacher.last_status("station-1")) and s["plan"] == "p1" and s, app.step
        )
        assert status["ignored"] == ["sparkle"]
        (line,) = [r.getMessage() for r in caplog.records if "does not know" in r.message]
        assert line == (
            "fleet: plan p1 presets station options this version does not know; kept "
            "without them (the group chooses): station 3 (math-arena): sparkle"
        )
    finally:
        app.ctx.fleet.close()


def test_station_names_at_most_what_a_console_reads_of_options_it_does_not_know(
    broker: Broker, teacher: Teacher, tmp_path: Path
) -> None:
    """Ten unknown options, one with a key longer than a status may carry: the station
    still follows the plan, and its status stays readable by the console (at most
    ``MAX_IGNORED`` names of at most ``MAX_KEY`` characters; main sent them all, and the
    console refused every status of that station)."""
    app, _ = fleet_app(broker, tmp_path)
    try:
        data = json.loads(encode(PlanMessage("p1", "lesson-7", PLAN, {"station-1": 2}, T0)))
        unknown = {f"sparkle{i}": "gold" for i in range(9)} | {"x" * (MAX_KEY + 1): "y"}
        data["plan"]["stations"][2]["options"] = {"level": "hard", **unknown}
        teacher.publish(teacher.topics.plan, json.dumps(data).encode())
        clock = RotationClock(PLAN, T0)
        teacher.clock(1, [clock, clock, clock])
        runner = wait_for(lambda: app.ctx.rotation, app.step)
        assert runner.stored.plan.stations[2].options == {"level": "hard"}
        status = wait_for(
            lambda: (s := teacher.last_status("station-1")) and s["plan"] == "p1" and s, app.step
        )
        assert len(status["ignored"]) == MAX_IGNORED
        assert all(len(key) <= MAX_KEY for key in status["ignored"])
    finally:
        app.ctx.fleet.close()


def test_station_says_when_the_teachers_computer_cannot_be_reached(tmp_path: Path) -> None:
    app = make_app(journal=Journal(tmp_path / "j.sqlite"))
    path = tmp_path / "fleet.toml"
    config = FleetConfig("station-1", host="127.0.0.1", port=free_port(), password="x")
    path.write_text(config.toml(), encoding="utf-8")
    app.ctx.fleet = start_app_fleet(app.ctx, path)
    try:
        wait_for(lambda: app.toast is not None and UNREACHABLE in app.toast[0], app.step)
    finally:
        app.ctx.fleet.close()


@pytest.mark.parametrize(
    ("wrong", "shown", "logged"),
    [
        ("password", REFUSED, "refused station-1: Not authorized"),
        # another classroom's setup: its authority did not sign this broker's certificate
        ("authority", REFUSED, "is not this classroom's (self-signed certificate in"),
        # a fleet file from before TLS, or written with --no-tls, on a TLS broker
        ("no tls", UNREACHABLE, "hung up before it answered: if it uses TLS"),
    ],
)
def test_station_with_a_wrong_fleet_file_says_so(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture, wrong, shown, logged
) -> None:
    app = make_app(journal=Journal(tmp_path / "j.sqlite"))
    good = broker.provisioned.config("station-1")
    other = provision(tmp_path / "other-room", ["station-1"], host="127.0.0.1").teacher.ca
    changes = {"password": {"password": "wrong"}, "authority": {"ca": other}, "no tls": {"ca": ""}}
    path = tmp_path / "fleet.toml"
    path.write_text(dataclasses.replace(good, **changes[wrong]).toml(), encoding="utf-8")
    caplog.set_level(logging.WARNING, "tabletop.classroom.fleet")
    app.ctx.fleet = start_app_fleet(app.ctx, path)
    try:
        wait_for(lambda: app.toast is not None and shown in app.toast[0], app.step)
        assert not app.ctx.fleet.link.connected.is_set()
        assert logged in caplog.text
        # The teacher's menu says it too, in the screen's words (the log has the rest).
        connected, line = app.ctx.fleet.connection()
        expected = "does not let this station in" if shown == REFUSED else "Can't reach"
        assert not connected and expected in line and "127.0.0.1" in line
    finally:
        app.ctx.fleet.close()


def test_station_fleet_file_unreadable_runs_alone(tmp_path: Path) -> None:
    app = make_app()
    bad = tmp_path / "fleet.toml"
    bad.write_text("device = \n", encoding="utf-8")
    assert start_app_fleet(app.ctx, bad) is None
    assert app.ctx.notices == [child_message("ui.no_fleet_file")]  # the table's (round 34)
    assert "runs on its own" in app.ctx.notices[0]


def test_station_link_refuses_the_teachers_file(broker: Broker) -> None:
    from tabletop.engine.errors import BadInput

    with pytest.raises(BadInput):
        StationLink(broker.provisioned.teacher)


def test_station_teachers_skip_ends_the_game_for_time_and_its_result_arrives(
    broker: Broker, teacher: Teacher, tmp_path: Path
) -> None:
    from tabletop.engine.match import Match
    from tabletop.games import GAMES
    from tabletop.games.math_attack import MathAttackSettings
    from tabletop.ui.saves import GameSave, seat_infos
    from tests.ui.test_rotation_screens import FakeGame

    app, _ = fleet_app(broker, tmp_path)
    try:
        teacher.plan()
        clock = RotationClock(PLAN, T0)
        teacher.clock(1, [clock, clock, clock])
        wait_for(lambda: app.ctx.rotation, app.step)
        ctx = app.ctx
        save = GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {"seed": 3})
        save.attach(Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=3))
        app.stack.push(FakeGame(ctx, save))

        def frame() -> None:  # a second of the app's monotonic clock: the status is due
            ctx.clock.advance(1.0)
            app.step()

        status = wait_for(
            lambda: (s := teacher.last_status("station-1")) and s.get("game") and s, frame
        )
        assert status["game"] == "math-attack"
        assert [(s["name"], s["score"], s["place"]) for s in status["standings"]] == [
            ("Mia", "12", 1),
            ("Ben", "7/2", 2),
        ]
        # The teacher skips: time is up here, as with the local Skip.
        skipped = clock.skip(T0 + 30)
        teacher.clock(2, [skipped, clock, clock])
        wait_for(lambda: isinstance(app.stack.top, StationScene), app.step)
        (row,) = [m for m in ctx.journal.matches() if m.id == save.id]
        assert row.status == "finished" and row.reason == "time"
        (result,) = wait_for(lambda: list(teacher.results), app.step)
        assert result["device"] == "station-1" and result["match"]["reason"] == "time"
        assert [s["name"] for s in result["seats"]] == ["Mia", "Ben"]
        wait_for(lambda: ctx.fleet.link.outbox.count() == 0, app.step)
    finally:
        app.ctx.fleet.close()


def test_station_connection_line_fits_the_teachers_menu() -> None:
    """A long broker name is cut so the sentence stays one readable line at 800x480."""
    host = "classroom-7-coordinator.school.example.org"
    link = StationLink(FleetConfig("station-1", host=host, port=free_port()))
    fleet = StationFleet(link, host=None)  # type: ignore[arg-type]
    assert fleet.connection() == (
        False,
        "Can't reach the teacher's computer (classroom-7-coordinat\u2026): check the network.",
    )
    fleet.problem = Unreachable("the broker at ... is not this classroom's", refused=True)
    assert fleet.connection() == (
        False,
        "classroom-7-coordinat\u2026 does not let this station in: ask for its fleet file.",
    )


def test_station_keeps_its_rotation_when_the_teacher_swaps_another_stations_device(
    broker: Broker, tmp_path: Path
) -> None:
    """The dashboard gives station 2 a new device mid-rotation (``swap``): station 1's
    app follows the same plan on the same clock, its rotation and game untouched (main:
    a new plan, so station 1 ended its games for time and began again at rotation 1)."""
    from tabletop.classroom.fleet.coordinator import Coordinator

    app, wall = fleet_app(broker, tmp_path)
    console = Coordinator(broker.provisioned.teacher, tmp_path / "teacher", now=wall).start()
    try:
        console.run(console.start_plan, PLAN, {"station-1": 0, "station-2": 1}, "lesson-7")
        runner = wait_for(lambda: app.ctx.rotation, app.step)
        started = runner.stored.id
        wall.advance(90)
        stations = {"station-1": 0, "station-3": 1}
        console.run(console.start_plan, PLAN, stations, "lesson-7", swap=True)
        wait_for(lambda: app.ctx.fleet.clock_seq == 2, app.step)
        assert app.ctx.rotation is runner and runner.stored.id == started
        assert running_rotation(app.ctx.journal).id == started
        assert runner.moment.rotation == 0 and runner.moment.play_left == PLAN.minutes * 60 - 90
    finally:
        app.ctx.fleet.close()
        console.stop()
