"""A bare paho client logged in as a fleet device (with the classroom's TLS), for tests
that play the other side of the broker."""

from __future__ import annotations

import dataclasses
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tabletop.classroom.fleet.config import FleetConfig


def raw_client(
    config: FleetConfig, client_id: str, *, password: str | None = None, **kwargs: Any
) -> mqtt.Client:
    """A paho client for ``config``'s device (``password``: another one to try)."""
    if password is not None:
        config = dataclasses.replace(config, password=password)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, **kwargs)
    config.login(client)
    return client
