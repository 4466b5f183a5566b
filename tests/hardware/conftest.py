"""Hardware tests use gpiozero's mock pins: no Raspberry Pi needed."""

from __future__ import annotations

import os

os.environ["GPIOZERO_PIN_FACTORY"] = "mock"

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()
