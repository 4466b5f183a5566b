"""The seat pin map: which GPIO pin each seat's arcade button and LED use.

The map is a TOML file (``tabletop buttons test --pins FILE``, ``tabletop --pins FILE``,
or ``$TABLETOP_PINS``); without one the device uses :data:`DEFAULT_PINS`, written for
the 40-pin header of a Raspberry Pi 4 or 5 (BCM numbers, physical pin in brackets):

======  ================  ================
seat    button            LED
======  ================  ================
1       GPIO 4  [pin 7]   GPIO 23 [pin 16]
2       GPIO 17 [pin 11]  GPIO 24 [pin 18]
3       GPIO 27 [pin 13]  GPIO 25 [pin 22]
4       GPIO 22 [pin 15]  GPIO 8  [pin 24]
5       GPIO 5  [pin 29]  GPIO 7  [pin 26]
6       GPIO 6  [pin 31]  GPIO 12 [pin 32]
7       GPIO 13 [pin 33]  GPIO 16 [pin 36]
8       GPIO 26 [pin 37]  GPIO 10 [pin 19]
======  ================  ================

Left free on purpose: GPIO 0/1 (HAT ID EEPROM), 2/3 (I2C, e.g. a clock), 14/15 (the
serial console), 18-21 (an I2S speaker amplifier such as the MAX98357A).

Wiring: each button between its GPIO and any ground pin (6, 9, 14, 20, 25, 30, 34, 39);
the internal pull-up is used, so a press reads low. Each LED from its GPIO through a
330 ohm resistor to ground. Arcade buttons with 5 V or 12 V lamps need a transistor
(e.g. a 2N2222 or a ULN2803 for all eight) switched by the GPIO, never the GPIO itself.

The file format::

    # seats are numbered from 1; button and led are BCM GPIO numbers
    [[seat]]
    button = 4
    led = 23      # optional: a seat without an LED

    [[seat]]
    button = 17
    led = 24
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.engine.errors import BadInput

MAX_SEATS = 8
# The 28 BCM GPIOs of the 40-pin header.
HEADER_GPIOS = frozenset(range(28))


@dataclass(frozen=True)
class SeatPins:
    """One seat's button GPIO and, optionally, its LED GPIO (BCM numbers)."""

    button: int
    led: int | None = None


DEFAULT_PINS: tuple[SeatPins, ...] = (
    SeatPins(4, 23),
    SeatPins(17, 24),
    SeatPins(27, 25),
    SeatPins(22, 8),
    SeatPins(5, 7),
    SeatPins(6, 12),
    SeatPins(13, 16),
    SeatPins(26, 10),
)


def parse_pin_map(data: Any, where: str = "pin map") -> tuple[SeatPins, ...]:
    """Seat pins from the TOML data (``{"seat": [{"button": 4, "led": 23}, ...]}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("seat"), list):
        raise BadInput("pins.shape", f"{where}: expected [[seat]] tables with button and led")
    unknown = set(data) - {"seat"}
    if unknown:
        raise BadInput("pins.shape", f"{where}: unknown key {sorted(unknown)[0]!r}")
    seats = data["seat"]
    if not 1 <= len(seats) <= MAX_SEATS:
        raise BadInput("pins.seats", f"{where}: 1 to {MAX_SEATS} seats, not {len(seats)}")
    out: list[SeatPins] = []
    used: dict[int, str] = {}
    for number, seat in enumerate(seats, start=1):
        if not isinstance(seat, dict) or set(seat) - {"button", "led"} or "button" not in seat:
            raise BadInput("pins.shape", f"{where}: seat {number} needs button (and led)")
        pins: list[int | None] = []
        for role in ("button", "led"):
            gpio = seat.get(role)
            if gpio is None:
                pins.append(None)
                continue
            if isinstance(gpio, bool) or not isinstance(gpio, int) or gpio not in HEADER_GPIOS:
                raise BadInput(
                    "pins.gpio", f"{where}: seat {number} {role} {gpio!r} is not GPIO 0..27"
                )
            name = f"seat {number} {role}"
            if gpio in used:
                raise BadInput(
                    "pins.twice", f"{where}: GPIO {gpio} is both {used[gpio]} and {name}"
                )
            used[gpio] = name
            pins.append(gpio)
        out.append(SeatPins(pins[0], pins[1]))  # type: ignore[arg-type]
    return tuple(out)


def load_pin_map(path: Path | str | None = None) -> tuple[SeatPins, ...]:
    """The pin map from ``path``, else ``$TABLETOP_PINS``, else :data:`DEFAULT_PINS`."""
    chosen = path or os.environ.get("TABLETOP_PINS")
    if not chosen:
        return DEFAULT_PINS
    file = Path(chosen)
    try:
        with file.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise BadInput("pins.file", f"cannot read pin map {file}: {exc.strerror}") from None
    except UnicodeDecodeError:  # tomllib reads bytes as UTF-8 only
        raise BadInput(
            "pins.text", f"pin map {file} is not UTF-8 text: save it as a TOML text file"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput("pins.toml", f"pin map {file} is not valid TOML: {exc}") from None
    return parse_pin_map(data, str(file))


def format_pin_map(pins: tuple[SeatPins, ...]) -> str:
    """The map as TOML text (what ``tabletop buttons test --print-map`` writes)."""
    out = ["# Seat buttons and LEDs: BCM GPIO numbers (see hardware/pins.py)."]
    for seat in pins:
        out.append("")
        out.append("[[seat]]")
        out.append(f"button = {seat.button}")
        if seat.led is not None:
            out.append(f"led = {seat.led}")
    return "\n".join(out) + "\n"


__all__ = ["DEFAULT_PINS", "MAX_SEATS", "SeatPins", "format_pin_map", "load_pin_map"]
