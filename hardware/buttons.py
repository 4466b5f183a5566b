"""Seat buttons and LEDs: one arcade button with a lamp per seat, read with gpiozero.

A press becomes a :class:`SeatPressed` event, time-stamped by a monotonic clock the
moment gpiozero reports it, and handed to a *sink* (usually ``queue.put``): gpiozero
calls back on its own thread, so the callback does nothing else. The display thread
drains the queue and orders each batch by time, so two children pressing at once are
settled by who was first (RULINGS MM-5).

Bounce: ``bounce_time`` is passed to gpiozero (the lgpio driver filters edges) and is
also applied here per seat, so a switch that chatters counts once with every pin
factory, including ``MockFactory`` (whose pins do not filter).

:class:`KeyboardSeats` is the desktop stand-in: keys 1..8 give the same events.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hardware.pins import SeatPins
from tabletop.engine.errors import DeviceError

Clock = Callable[[], float]


@dataclass(frozen=True)
class SeatPressed:
    """Seat ``seat`` (0-based) pressed its button at ``at`` (monotonic seconds)."""

    seat: int
    at: float
    source: str = "button"


Sink = Callable[[SeatPressed], None]


class Lamps(Protocol):
    """Anything that can light the seats' LEDs (real LEDs, or nothing on a desktop)."""

    def light(self, seat: int, on: bool = True) -> None: ...

    def light_only(self, seats: Sequence[int]) -> None: ...


class SeatButtons:
    """Buttons and LEDs for every seat in ``pins``; presses go to ``sink``.

    ``pin_factory`` is gpiozero's (``MockFactory()`` in tests); ``clock`` stamps presses.
    Use as a context manager or call :meth:`close` (idempotent) to free the pins.
    """

    def __init__(
        self,
        pins: Sequence[SeatPins],
        sink: Sink,
        *,
        pin_factory: Any = None,
        bounce_time: float = 0.05,
        clock: Clock = time.monotonic,
    ) -> None:
        from gpiozero import LED, Button  # type: ignore[import-untyped]
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback  # type: ignore[import-untyped]

        self.pins = tuple(pins)
        self.bounce_time = bounce_time
        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[int, float] = {}
        self._buttons: list[Any] = []
        self._leds: list[Any | None] = []
        self._closed = False
        try:
            with warnings.catch_warnings():
                # one warning per pin library it lacks, before the one line that says it all
                warnings.simplefilter("ignore", PinFactoryFallback)
                for seat, seat_pins in enumerate(self.pins):
                    button = Button(
                        seat_pins.button,
                        pull_up=True,
                        bounce_time=bounce_time,
                        pin_factory=pin_factory,
                    )
                    button.when_pressed = functools.partial(self._pressed, seat)
                    self._buttons.append(button)
                    led = None
                    if seat_pins.led is not None:
                        led = LED(seat_pins.led, pin_factory=pin_factory)
                    self._leds.append(led)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise DeviceError(
                "hw.gpio",
                f"cannot use the seat buttons' GPIO pins ({type(exc).__name__}: {exc}); "
                "not a Raspberry Pi?",
            ) from exc

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def seats(self) -> int:
        return len(self.pins)

    def _pressed(self, seat: int) -> None:
        """gpiozero's callback (its own thread): stamp, filter bounce, hand over."""
        at = self._clock()
        with self._lock:
            last = self._last.get(seat)
            if last is not None and at - last < self.bounce_time:
                return
            self._last[seat] = at
        self._sink(SeatPressed(seat, at))

    def light(self, seat: int, on: bool = True) -> None:
        """Switch seat ``seat``'s LED on or off (a seat without an LED is ignored)."""
        if self._closed or not 0 <= seat < len(self._leds):
            return
        led = self._leds[seat]
        if led is not None:
            led.value = on

    def light_only(self, seats: Sequence[int]) -> None:
        """Light exactly these seats' LEDs."""
        wanted = set(seats)
        for seat in range(len(self._leds)):
            self.light(seat, seat in wanted)

    def is_lit(self, seat: int) -> bool:
        led = self._leds[seat] if 0 <= seat < len(self._leds) else None
        return bool(led is not None and not self._closed and led.value)

    def close(self) -> None:
        """Switch the LEDs off and release every pin; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for device in [*self._leds, *self._buttons]:
            if device is None:
                continue
            with contextlib.suppress(Exception):  # closing must never fail the app
                device.close()
        self._leds.clear()
        self._buttons.clear()


class NoLamps:
    """The desktop's stand-in for the LEDs: remembers which seats would be lit."""

    def __init__(self) -> None:
        self.lit: set[int] = set()

    def light(self, seat: int, on: bool = True) -> None:
        if on:
            self.lit.add(seat)
        else:
            self.lit.discard(seat)

    def light_only(self, seats: Sequence[int]) -> None:
        self.lit = set(seats)


class KeyboardSeats:
    """Keys ``1``..``8`` stand in for the seat buttons (same events, same bounce)."""

    def __init__(
        self,
        sink: Sink,
        *,
        seats: int = 8,
        clock: Clock = time.monotonic,
        bounce_time: float = 0.05,
    ) -> None:
        self._sink = sink
        self._clock = clock
        self.seats = seats
        self.bounce_time = bounce_time
        self._last: dict[int, float] = {}

    def key(self, name: str, at: float | None = None) -> bool:
        """Handle a key by name (``"3"`` or ``"[3]"``); True if it was a seat key."""
        name = name.strip("[]")
        if len(name) != 1 or not name.isdigit() or not 1 <= int(name) <= self.seats:
            return False
        seat = int(name) - 1
        at = self._clock() if at is None else at
        last = self._last.get(seat)
        if last is None or at - last >= self.bounce_time:
            self._last[seat] = at
            self._sink(SeatPressed(seat, at, "keyboard"))
        return True


__all__ = ["KeyboardSeats", "Lamps", "NoLamps", "SeatButtons", "SeatPressed"]
