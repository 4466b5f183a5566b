"""One console per classroom: the console's presence on the broker.

Every console process has its own ``id`` (random). On each connection it publishes,
retained with QoS 1 on ``<prefix>/teacher/console``, ``{"v": 1, "kind": "console",
"id": ..., "online": true, "sent": ...}``; its MQTT will says ``"online": false``, and a
clean stop says so too, with ``"stopped": true``. Readers ignore keys they do not know
(the protocol's v1 rule), so stations, which never read this topic, are untouched.

Two consoles started with the same ``teacher.toml`` share one MQTT client id: the broker
closes one for the other every second, and results would go to whichever is connected,
splitting the store. So before it connects, a console asks (:func:`other_console`): it
looks at the retained presence with a client id of its own and, when another console
says it is online, publishes ``"asking": true``; a console that runs answers at once by
publishing its presence again. An answer within :data:`ANSWER_WITHIN` seconds means
another console runs: this one refuses to start. No answer means the presence is left
from a console that stopped without a goodbye (its will not yet sent): this one starts.
A console that sees another's presence while it runs (both started at once, or the
other an older version without this check) stops taking results (they wait on the
stations) and the dashboard says so, until the other stops cleanly.
"""

from __future__ import annotations

import json
import queue
import time
import uuid
from dataclasses import dataclass
from typing import Any

from tabletop.classroom.fleet.config import FleetConfig

ANSWER_WITHIN = 2.0  # seconds a running console has to answer "asking"
TWIN_QUIET = 30.0  # seconds: another console's wills this close mean it runs
MAX_BYTES = 1024  # a presence message is small; a larger one is not read
UNREACHED = "unreached"  # the asking client's connection failed or was refused


def topic(config: FleetConfig) -> str:
    return f"{config.topics.prefix}/teacher/console"


@dataclass(frozen=True)
class Presence:
    """One console's presence message (see the module docstring)."""

    id: str
    online: bool
    sent: float
    asking: bool = False
    stopped: bool = False

    def encode(self) -> bytes:
        body: dict[str, Any] = {"v": 1, "kind": "console", "id": self.id}
        body.update(online=self.online, sent=self.sent)
        if self.asking:
            body["asking"] = True
        if self.stopped:
            body["stopped"] = True
        return json.dumps(body, separators=(",", ":")).encode()


def read(payload: bytes) -> Presence | None:
    """The presence in ``payload``, or None when it is not one (unknown keys ignored)."""
    if not payload or len(payload) > MAX_BYTES:
        return None
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("kind") != "console" or body.get("v") != 1:
        return None
    pid, online, sent = body.get("id"), body.get("online"), body.get("sent")
    if not isinstance(pid, str) or not isinstance(online, bool):
        return None
    if isinstance(sent, bool) or not isinstance(sent, int | float):
        return None
    asking, stopped = body.get("asking") is True, body.get("stopped") is True
    return Presence(pid, online, float(sent), asking, stopped)


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def other_console(config: FleetConfig, me: str, *, connect_within: float = 5.0) -> str | None:
    """The id of another console of this classroom connected to the broker now, or None
    (none, or the broker cannot be reached: the console then connects as before)."""
    got: queue.Queue[Presence | str | None] = queue.Queue()  # None: subscribed
    client = config.client(f"tabletop-console-ask-{me}")
    client.on_connect = lambda c, u, f, r, p: (
        got.put(UNREACHED) if r.is_failure else c.subscribe(topic(config), qos=1)
    )
    client.on_connect_fail = lambda c, u: got.put(UNREACHED)  # not waited for: said at once
    client.on_subscribe = lambda c, u, mid, r, p: got.put(None)
    client.on_message = lambda c, u, m: got.put(read(bytes(m.payload)))
    try:
        config.connect(client)
    except (OSError, ValueError):
        return None
    client.loop_start()
    try:
        return _ask(client, config, me, got, connect_within)
    finally:
        client.disconnect()
        client.loop_stop()


def _ask(
    client: Any,
    config: FleetConfig,
    me: str,
    got: queue.Queue[Presence | str | None],
    wait: float,
) -> str | None:
    try:
        first = got.get(timeout=wait)  # subscribed (or the retained presence)
    except queue.Empty:
        return None  # the broker cannot be reached now
    if first == UNREACHED:
        return None  # nothing listens there, or it refused: the console's client says why
    deadline = time.monotonic() + 0.3  # the retained presence, if any, follows the SUBACK
    seen = first if isinstance(first, Presence) and first.online and first.id != me else None
    asked_at: float | None = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            p = got.get(timeout=left)
        except queue.Empty:
            if seen is None or asked_at is not None:
                return None
            asked_at = time.time()
            ask = Presence(me, False, asked_at, asking=True)
            client.publish(topic(config), ask.encode(), qos=1)
            deadline = time.monotonic() + ANSWER_WITHIN
            continue
        if not isinstance(p, Presence) or p.id == me or p.asking:
            continue
        if not p.online:
            seen = None
        elif asked_at is not None:
            return p.id  # it answered: it runs
        else:
            seen = p
    return None


__all__ = ["ANSWER_WITHIN", "TWIN_QUIET", "Presence", "new_id", "other_console", "read", "topic"]
