"""Fixtures for the classroom fleet's tests: a real mosquitto on loopback.

``broker``: mosquitto provisioned for :data:`STATIONS` plus the teacher's console
(:func:`tabletop.classroom.fleet.config.loopback_broker`), on a free port, with its own
password file and ACL, stopped after the test. ``broker.stop()`` / ``broker.start()``
make an outage; ``broker.provisioned.config("station-1")`` and ``.teacher`` are the
fleet files' contents. ``fleet_file(device)`` is the fleet file (TOML) that ``provision``
wrote, for commands that take ``--fleet``. A test that needs other device ids uses
``broker_for(devices)``.

mosquitto is a test dependency (``scripts/system-packages.sh``): without it the test
fails and says how to install it, rather than skipping silently.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tabletop.classroom.fleet.config import Broker, loopback_broker

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

STATIONS = tuple(f"station-{n}" for n in range(1, 9))


@pytest.fixture
def broker_for(tmp_path: Path) -> Iterator[Callable[..., Broker]]:
    """A factory: ``broker_for(["station-1", "station-2"], prefix="room-2")`` starts a
    provisioned loopback mosquitto (one per call; ``tls=False``: plain MQTT), all stopped
    after the test."""
    made = itertools.count()
    with contextlib.ExitStack() as stack:

        def make(
            devices: Sequence[str] = STATIONS, *, prefix: str = "tabletop", tls: bool = True
        ) -> Broker:
            folder = tmp_path / f"broker-{next(made)}"
            return stack.enter_context(loopback_broker(folder, devices, prefix=prefix, tls=tls))

        yield make


@pytest.fixture
def broker(broker_for: Callable[..., Broker]) -> Broker:
    """mosquitto on loopback for station-1..station-8 and the teacher."""
    return broker_for()


@pytest.fixture
def fleet_file(broker: Broker) -> Callable[[str], Path]:
    """``fleet_file("station-2")`` -> the path of that device's fleet file for ``broker``."""
    return broker.provisioned.file
