"""Results exactly once: games keep finishing while the broker is down, and everything
queued arrives after it comes back; a result sent twice (its PUBACK lost) is stored once
by the console side. The consumer here is a test-side one (ids in SQLite); the real
store is the Coordinator's. A simulated station prints its events with --verbose."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom.fleet.config import Broker
from tabletop.classroom.fleet.messages import AckMessage, encode
from tabletop.classroom.fleet.outbox import Outbox
from tabletop.classroom.fleet.simulate import SimHost, simulate_command
from tabletop.classroom.fleet.station import StationLink
from tabletop.classroom.rotation import RotationClock, Station
from tabletop.store import Journal
from tests.fleet.clients import raw_client
from tests.fleet.test_station import PLAN, Teacher, wait_for


class Consumer:
    """Stores each result id once (INSERT OR IGNORE) and counts every delivery. Its MQTT
    session is persistent, so the broker keeps its subscription across a restart."""

    def __init__(self, broker: Broker, path: Path) -> None:
        config = broker.provisioned.teacher
        self.topics = config.topics
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS got (id TEXT PRIMARY KEY)")
        self.lock = threading.Lock()
        self.deliveries = 0
        self.ready = threading.Event()
        self.client = raw_client(config, "test-consumer", clean_session=False)
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.ready.wait(10)

    def _connected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        client.subscribe(self.topics.all_results, qos=1)
        self.ready.set()

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        import json

        rid = json.loads(message.payload)["id"]
        with self.lock:
            self.deliveries += 1
            self.db.execute("INSERT OR IGNORE INTO got (id) VALUES (?)", (rid,))
        device = rid.split(":")[0]  # answered as the console answers: stored
        answer = AckMessage(rid, device, True, "", time.time())
        client.publish(self.topics.ack(device), encode(answer), qos=1)

    def ids(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT id FROM got ORDER BY id")]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.db.close()


@pytest.fixture
def consumer(broker: Broker, tmp_path: Path):
    c = Consumer(broker, tmp_path / "consumer.sqlite3")
    yield c
    c.close()


def station(broker: Broker, tmp_path: Path) -> tuple[Journal, Outbox, StationLink, SimHost]:
    journal = Journal(tmp_path / "station-1.sqlite3")
    config = broker.provisioned.config("station-1")
    outbox = Outbox(journal.db, config.device, config.topics)
    journal.on_finished = outbox.on_finished
    host = SimHost(journal, seed=5, game_seconds=0.05)
    link = StationLink(config, outbox, reconnect=(1, 2)).start()
    assert link.wait_connected(10)
    return journal, outbox, link, host


def finished_ids(journal: Journal) -> list[str]:
    return sorted(r[0] for r in journal.db.execute("SELECT id FROM outbox"))


def play_until(host: SimHost, link: StationLink, games: int) -> None:
    target = host.finished + games
    wait_for(lambda: host.finished >= target, lambda: (host.tick(), link.poll()))


def test_station_results_exactly_once_across_a_broker_outage(
    broker: Broker, consumer: Consumer, tmp_path: Path
) -> None:
    journal, outbox, link, host = station(broker, tmp_path)
    try:
        play_until(host, link, 4)
        wait_for(lambda: outbox.count() == 0, link.poll)
        broker.stop()
        wait_for(lambda: not link.connected.is_set(), link.poll)
        # Games keep finishing while the broker is away (a short outage: ~3 s).
        play_until(host, link, 5)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            host.tick()
            link.poll()
            time.sleep(0.02)
        waiting = outbox.count()
        assert waiting >= 5
        broker.start()
        wait_for(lambda: link.connected.is_set() and outbox.count() == 0, link.poll, 30)
        (finished,) = journal.db.execute(
            "SELECT COUNT(*) FROM matches WHERE status = 'finished'"
        ).fetchone()
        wait_for(lambda: len(consumer.ids()) == finished, timeout=30)
        assert consumer.ids() == finished_ids(journal)  # all, each stored once
        assert link.acknowledged >= finished
    finally:
        host.stop()
        link.close()
        journal.close()


def test_station_result_sent_twice_is_stored_once(
    broker: Broker, consumer: Consumer, tmp_path: Path
) -> None:
    journal, outbox, link, host = station(broker, tmp_path)
    try:
        play_until(host, link, 1)
        wait_for(lambda: outbox.count() == 0, link.poll)
        (rid,) = finished_ids(journal)
        wait_for(lambda: consumer.ids() == [rid])
        # The console's answer was lost: the station never marked it and sends it again.
        journal.db.execute("UPDATE outbox SET delivered = NULL WHERE id = ?", (rid,))
        link._by_id.clear()  # a fresh process after a restart knows none
        assert link.send_pending(force=True) == 1
        wait_for(lambda: outbox.count() == 0, link.poll)
        wait_for(lambda: consumer.deliveries >= 2)
        assert consumer.ids() == [rid]
    finally:
        host.stop()
        link.close()
        journal.close()


def test_simulated_station_follows_the_clock_and_says_so(
    broker: Broker, tmp_path: Path, fleet_file
) -> None:
    teacher = Teacher(broker)
    proc = subprocess.Popen(
        simulate_command(fleet_file("station-2"), tmp_path / "sim", game_seconds=0.3, verbose=True),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        clock = RotationClock(PLAN, time.time())
        teacher.plan()
        teacher.clock(4, [clock, clock, clock])
        # It plays its station's game (station 2: M.E.C.S.) with the group's names (a
        # free-play game may come first, from before the plan arrived).
        planned = wait_for(
            lambda: [r for r in teacher.results if r["match"]["game"] == "mecs"]
        )  # it plays, and its games arrive
        assert [s["name"] for s in planned[0]["seats"]] == ["Blue A", "Blue B"]
        assert {s["bot"] for s in planned[0]["seats"]} == {"easy"}  # the level (MECS-12)
        paused = clock.pause(time.time())
        teacher.clock(5, [paused, paused, paused])
        status = wait_for(
            lambda: (s := teacher.last_status("station-2")) and s.get("clock_seq") == 5 and s
        )
        assert status["paused"] is True and status["station"] == 1 and status["group"] == "Blue"
        assert status["plan"] == "p1" and status["phase"] == "play"

        def shown() -> set[str]:
            with teacher.lock:
                seen = teacher.statuses.get("station-2", [])
                return {s["game"] for s in seen if s.get("plan") == "p1" and s.get("game")}

        assert wait_for(shown) == {"mecs"}  # the dashboard's card shows the planned game
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
        teacher.close()
    assert proc.returncode == 0
    assert "station-2: clock seq=5 paused=True" in out.splitlines()


def test_simulated_station_drops_a_game_its_rotation_outran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots play on a worker thread while the station keeps following the clock; a
    free-play game still being played out when a rotation starts is dropped, never
    journaled, and the station's own game follows."""
    from tabletop.classroom.fleet import simulate
    from tabletop.classroom.fleet.messages import PlanMessage

    release = threading.Event()
    real = simulate.play_bots

    def slow(station: Station, seed: int):
        release.wait(10)
        return real(station, seed)

    monkeypatch.setattr(simulate, "play_bots", slow)
    t0 = 1_700_000_000.0
    wall = [t0]
    journal = Journal(tmp_path / "sim.sqlite3")
    host = SimHost(journal, seed=3, game_seconds=60, wall=lambda: wall[0])
    try:
        host.tick()  # free play: a Math Attack! game is being played out
        assert host.game is None and host.status() == {}
        clock = RotationClock(PLAN, t0)
        host.follow(PlanMessage("p1", "s1", PLAN, {"station-2": 1}, t0), 1, clock)
        wall[0] = t0 + 30
        release.set()
        wait_for(lambda: host.game is not None, host.tick)
        assert host.game.name == "mecs" and host.game.names == ("Blue A", "Blue B")
        games = [m.game for m in journal.matches()]
        assert games == ["mecs"]  # the free-play game was dropped
        assert host.status()["game"] == "mecs"
    finally:
        host.stop()
        journal.close()
