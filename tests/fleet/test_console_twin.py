"""Round 28: one console per classroom. A second console started with the same
``teacher.toml`` (one MQTT client id: the broker closed one for the other every second,
and results went to whichever was connected, splitting the store) refuses to start: one
line on the CLI, exit 2, a log line; the running console goes on storing. A presence
left by a console that stopped without a goodbye does not block a restart. Two stations
run from one station file say so, instead of blaming the network."""

from __future__ import annotations

import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop.classroom.fleet import presence
from tabletop.classroom.fleet import problems as said
from tabletop.classroom.fleet.config import Broker, FleetConfig
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import Topics, encode
from tabletop.classroom.fleet.station import TWIN, Disconnected, StationFleet, StationLink
from tabletop.engine.errors import DeviceError, TabletopError
from tests.card import FULL, simulated_card
from tests.fleet.clients import raw_client
from tests.fleet.test_coordinator import RawStation, console, result_message
from tests.fleet.test_delivery import stored_ids
from tests.fleet.test_station import wait_for

__all__ = ["console"]


def test_console_twin_a_second_console_of_the_classroom_refuses_to_start(
    broker: Broker, console: Coordinator, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    second = Coordinator(broker.provisioned.teacher, tmp_path / "second")
    with pytest.raises(DeviceError) as refused:
        second.start()
    assert refused.value.code == "fleet.twin"
    assert "another console of this classroom is connected" in refused.value.message
    assert any("not started" in r.getMessage() for r in caplog.records)
    # The first was never closed for the second: it stays connected and stores.
    raw = RawStation(broker, "station-1")
    try:
        raw.publish(
            Topics().result("station-1"), encode(result_message("station-1", "station-1:0001"))
        )
        wait_for(lambda: stored_ids(console) == ["station-1:0001"])
        assert console.run(lambda: console.connected and console.twin is None)
    finally:
        raw.close()


def test_console_twin_a_busy_console_still_answers_a_second_one(
    broker: Broker, console: Coordinator, tmp_path: Path
) -> None:
    """The question is answered on the network's thread: a console whose worker is busy
    longer than ANSWER_WITHIN (making a report's PDF on a Pi) still stops a second one
    from starting (before: answered through the worker, too late, and both ran)."""
    busy = threading.Event()
    console._jobs.put(lambda: busy.wait(presence.ANSWER_WITHIN * 3))
    second = Coordinator(broker.provisioned.teacher, tmp_path / "second")
    try:
        with pytest.raises(DeviceError) as refused:
            second.start()
        assert refused.value.code == "fleet.twin"
    finally:
        busy.set()
        second.stop()


def test_console_twin_the_cli_says_so_in_one_line_and_exits_2(
    console: Coordinator, fleet_file: Callable[[str], Path], tmp_path: Path
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    fleet, data = str(fleet_file("teacher")), str(tmp_path / "x")
    args = ["teacher", "--fleet", fleet, "--pin", "4321", "--port", str(port), "--data", data]
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("tabletop teacher:")]
    assert len(said) == 1 and "another console of this classroom is connected" in said[0]
    assert "not started" in done.stderr and "Traceback" not in done.stderr  # the log line
    assert not (tmp_path / "x" / "tabletop.sqlite3").exists()  # no journal opened


def test_console_twin_a_presence_left_without_a_goodbye_does_not_block_a_restart(
    broker: Broker, tmp_path: Path
) -> None:
    config = broker.provisioned.teacher
    left = raw_client(config, "left-behind")
    left.connect("127.0.0.1", config.port)
    left.loop_start()
    gone = presence.Presence("gone0000", True, time.time())  # its will not sent yet
    left.publish(presence.topic(config), gone.encode(), qos=1, retain=True).wait_for_publish(5)
    left.disconnect()
    left.loop_stop()
    c = Coordinator(config, tmp_path / "teacher").start()
    try:
        wait_for(lambda: c.run(lambda: c.connected))
        assert c.run(lambda: c.twin) is None
    finally:
        c.stop()


def test_console_twin_two_consoles_running_at_once_take_no_results_till_one_stops(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both past the check (started at the same moment, say): each sees the other's
    presence, takes no results (they wait on the stations: the store never splits) and
    says so on the dashboard; once one stops (its goodbye, or quiet for TWIN_QUIET
    seconds when it was cut off as it stopped), the other takes them again."""
    monkeypatch.setattr(presence, "other_console", lambda *a, **k: None)
    monkeypatch.setattr(presence, "TWIN_QUIET", 6.0)
    config = broker.provisioned.teacher
    first = Coordinator(config, tmp_path / "first").start()
    second = Coordinator(config, tmp_path / "second").start()
    raw = RawStation(broker, "station-1")
    try:
        wait_for(lambda: first.run(first.twin_runs) and second.run(second.twin_runs))
        for c in (first, second):
            assert any(p.startswith("Another console") for p in c.run(c.problems))
        rid = "station-1:0001"
        raw.publish(Topics().result("station-1"), encode(result_message("station-1", rid)))
        time.sleep(1.0)  # both connected by turns meanwhile: neither takes it
        assert stored_ids(first) == [] and stored_ids(second) == []
        second.stop()
        wait_for(lambda: not first.run(first.twin_runs))
        raw.publish(Topics().result("station-1"), encode(result_message("station-1", rid)))
        wait_for(lambda: stored_ids(first) == [rid])  # the station's resend
        assert not any(p.startswith("Another console") for p in first.run(first.problems))
    finally:
        raw.close()
        second.stop()
        first.stop()


def test_console_twin_a_station_whose_file_another_device_uses_says_so(
    broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    """Two stations run from one station file: the broker closes one for the other at
    once, again and again. Each says another device uses its file (log, and the
    teacher's menu), not that the broker stopped or the network failed."""
    config = broker.provisioned.config("station-1")
    links = [StationLink(config, reconnect=(1, 1)).start() for _ in range(2)]
    try:
        wait_for(lambda: all(link.twin() for link in links), lambda: [k.poll() for k in links])
        lost = [r.getMessage() for r in caplog.records if "lost the broker" in r.getMessage()]
        assert any("another device uses this station's file (station-1)" in m for m in lost)
        fleet = StationFleet(links[0], host=None)  # type: ignore[arg-type]
        assert fleet.connection() == (
            False,
            "Another device uses this station's fleet file: give each its own.",
        )
    finally:
        for link in links:
            link.close()


def test_console_twin_the_check_does_not_wait_out_a_broker_that_is_not_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing listens on the broker's port (or it refuses the console): the check says
    "no other console" as soon as the connection fails, and the console starts and says
    why it cannot connect, as before the check (it waited connect_within, 5 s, first)."""
    waited: list[float | None] = []

    class Watched(queue.Queue):  # type: ignore[type-arg]
        def get(self, block: bool = True, timeout: float | None = None) -> object:
            try:
                return super().get(block, timeout)
            except queue.Empty:
                waited.append(timeout)
                raise

    monkeypatch.setattr(presence.queue, "Queue", Watched)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free again: nothing listens there
    config = FleetConfig("teacher", host="127.0.0.1", port=port)
    assert presence.other_console(config, "me0000000000", connect_within=30.0) is None
    assert waited == []  # the failure was heard, not waited out


def test_console_twin_reading_the_problems_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 29: the dashboard's reads (the problems, whether a twin runs, the snapshot)
    change nothing; the worker's look, after each job and each second, forgets a twin
    fallen quiet (said once) and dates a journal's trouble from when it began (before:
    from the first read of the problems, and a read dropped the twin)."""
    t = [1000.0]
    card = simulated_card(monkeypatch)
    config = FleetConfig("teacher", host="127.0.0.1", port=1)
    c = Coordinator(config, tmp_path, now=lambda: t[0]).start(connect=False)
    try:
        other = presence.Presence("other0000000", True, t[0])
        c.run(c._presence, other.encode(), False)  # said live: it runs
        assert c.run(c.twin_runs)
        card.refuse = FULL
        t[0] = 1001.0
        with pytest.raises(TabletopError):  # the card refuses a write: trouble begins
            c.run(c._save_state)  # (the journal goes on in memory)
        t[0] = 1000.0 + presence.TWIN_QUIET + 5

        def reads() -> tuple[object, ...]:
            problems = c.problems()
            return c.twin_runs(), problems, c.snapshot()["version"], c.twin, c.version

        runs, problems, shown, twin, version = c.run(reads)
        assert not runs and not any(p.startswith("Another console") for p in problems)
        assert (twin, version) == ("other0000000", shown)  # read, not changed
        saving = [k for p in c.run(c.open_problems) for k in p.keys if k.startswith("unsaved")]
        assert saving == [said.key("unsaved", "", 1001.0)]  # since it began, not since read
        wait_for(lambda: c.run(lambda: c.twin) is None)
        assert c.run(lambda: c.version) > version  # the dashboard is told
        quiet = [r for r in caplog.records if "the other console fell quiet" in r.getMessage()]
        assert len(quiet) == 1
    finally:
        card.refuse = None
        c.stop()


def test_console_twin_the_broker_saying_another_took_the_id_is_believed_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Round 29: the fleet speaks MQTT 5, where a broker that closes a client because
    another connected with its id says so (reason 0x8E, "Session taken over"; mosquitto
    2.0.15 on). A station says at the first such close that another device uses its
    file, and a console that another console took its place before it has seen that
    console's presence (before: a station needed two closes within 5 s of connecting,
    which a flaky network makes too; a console blamed the network)."""
    from paho.mqtt.client import DisconnectFlags
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    said = DisconnectFlags(is_disconnect_packet_from_server=True)
    taken = ReasonCode(PacketTypes.DISCONNECT, "Session taken over")
    link = StationLink(FleetConfig("station-1", host="127.0.0.1", port=1))
    link.connected.set()  # connected a minute ago: not "at once"
    link._connected_at = time.monotonic() - 60
    link._on_disconnect(link.client, None, said, taken, None)
    assert link.twin()
    assert link.poll() == [Disconnected(TWIN.format("station-1"))]
    console = Coordinator(FleetConfig("teacher", host="127.0.0.1", port=1), ":memory:")
    console._client, console._answered = link.client, True  # as while connected
    console._on_disconnect(console._client, None, said, taken, None)
    lost = [r.getMessage() for r in caplog.records if "console: lost the broker" in r.getMessage()]
    why = "another console with this teacher.toml took its place"
    assert lost == [f"console: lost the broker ({why}); reconnecting"]


def test_console_twin_the_fleet_speaks_mqtt_5_beside_older_clients_of_3_1_1(
    broker: Broker, console: Coordinator
) -> None:
    """Round 29: what changed on the wire is the protocol level (5, was 3.1.1) and, for
    the console, a session kept for ever (clean start 0, session expiry 0xFFFFFFFF, as
    clean session 0 was); the client ids are the same, and a station of an older
    version (3.1.1) still delivers its results beside a station of this one."""
    raw = RawStation(broker, "station-1")  # an older station: MQTT 3.1.1
    link = StationLink(broker.provisioned.config("station-2")).start()
    try:
        assert link.wait_connected(10)
        rid = "station-1:0001"
        raw.publish(Topics().result("station-1"), encode(result_message("station-1", rid)))
        wait_for(lambda: stored_ids(console) == [rid])
        text = broker.log.read_text(encoding="utf-8")
        assert f"as {console.client_id} (p5, c0, k10, u'teacher')" in text
        assert "as station-2 (p5, c1, k10, u'station-2')" in text
        assert "as raw-station-1 (p2, " in text  # the older station (mosquitto says 3.1.1 "p2")
    finally:
        link.close()
        raw.close()
