"""Stand-in stations for the dashboard's tests: a bare paho client per device that follows
the teacher's plan and clock the way a station does (status right after applying a new
clock, and every second) without the app. The real simulated station is `tabletop fleet
simulate` (the station side's); these keep the dashboard's tests to one process."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from tabletop.classroom.fleet.config import FleetConfig
from tabletop.classroom.fleet.messages import (
    ClockMessage,
    PlanMessage,
    Standing,
    StatusMessage,
    encode,
    parse,
)


class Follower:
    """One stand-in station (see the module docstring)."""

    def __init__(self, config: FleetConfig, *, every: float = 1.0) -> None:
        self.config = config
        self.device = config.device
        self.topics = config.topics
        self.every = every
        self.plan: PlanMessage | None = None
        self.clock: ClockMessage | None = None
        self._clock_body: bytes | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sim-{self.device}")
        self.client.username_pw_set(self.device, config.password)
        self.client.will_set(
            self.topics.status(self.device),
            json.dumps(
                {"v": 1, "kind": "status", "device": self.device, "online": False, "sent": 0}
            ),
            qos=1,
            retain=True,
        )
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._ticker = threading.Thread(target=self._tick, daemon=True)

    def start(self) -> Follower:
        self.client.connect(self.config.host, self.config.port, keepalive=5)
        self.client.loop_start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        client.subscribe(f"{self.topics.prefix}/teacher/#", qos=1)
        self.publish()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        topic, body = message.topic, bytes(message.payload)
        with self._lock:
            if topic == self.topics.plan:
                self.plan = parse(self.topics, topic, body) if body else None  # type: ignore[assignment]
                self.clock = None
                body, topic = self._clock_body or b"", self.topics.clock
            if topic == self.topics.clock:
                self._clock_body = body
                if not body or self.plan is None:
                    self.clock = None
                else:
                    clock = parse(self.topics, topic, body, plan=self.plan.plan)
                    assert isinstance(clock, ClockMessage)
                    if clock.plan != self.plan.id:
                        return
                    if self.clock is not None and clock.seq <= self.clock.seq:
                        return
                    self.clock = clock
            else:
                return
        self.publish()

    def status(self) -> StatusMessage:
        with self._lock:
            plan, clock = self.plan, self.clock
        t = time.time()
        station = plan.station_of(self.device) if plan else None
        if plan is None or clock is None or station is None:
            return StatusMessage(self.device, True, t)
        moment = clock.clocks[station].now(t)
        return StatusMessage(
            self.device,
            True,
            t,
            station=station,
            plan=plan.id,
            rotation=moment.rotation,
            phase=moment.phase,
            paused=moment.paused,
            left=round(moment.play_left, 2),
            group=moment.group_at(station),
            game=plan.plan.stations[station].game,
            standings=(Standing("Ada", "12", 1), Standing("Bo", "7/2", 2)),
            clock_seq=clock.seq,
        )

    def publish(self) -> None:
        self.client.publish(
            self.topics.status(self.device), encode(self.status()), qos=1, retain=True
        )

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self.publish()


__all__ = ["Follower"]
