"""``tabletop buttons test``: check the wiring of every seat's button and LED.

It lights each seat's LED in turn (so a lamp on the wrong pin shows at once), then
reports every press with its seat, GPIO and time, and toggles that seat's LED, until
the time is up or every seat has been pressed (or Ctrl-C).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from hardware.buttons import SeatButtons, SeatPressed
from hardware.pins import SeatPins


def buttons_test(
    pins: Sequence[SeatPins],
    out: TextIO,
    *,
    seconds: float = 60.0,
    pin_factory: Any = None,
    simulate: bool = False,
    step: float = 0.4,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Run the wiring check; returns how many seats were seen pressed.

    ``simulate`` (with gpiozero's ``MockFactory``) presses every seat's button itself,
    so the command can be tried on a desktop.
    """
    sleep = sleep or time.sleep
    presses: queue.SimpleQueue[SeatPressed] = queue.SimpleQueue()
    start = clock()
    seen: set[int] = set()
    with SeatButtons(pins, presses.put, pin_factory=pin_factory, clock=clock) as buttons:
        print(f"{len(pins)} seats. Lighting each LED in turn:", file=out)
        for seat, seat_pins in enumerate(pins):
            if seat_pins.led is None:
                print(f"  seat {seat + 1}: no LED in the pin map", file=out)
                continue
            buttons.light_only([seat])
            print(f"  seat {seat + 1}: LED on GPIO {seat_pins.led} is lit", file=out)
            sleep(step)
        buttons.light_only([])
        print("Now press each seat's button (Ctrl-C to stop):", file=out, flush=True)
        if simulate:
            _press_all(pin_factory, pins, sleep)
        lit: set[int] = set()
        deadline = clock() + seconds
        try:
            while len(seen) < len(pins) and clock() < deadline:
                try:
                    press = presses.get(timeout=0.1)
                except queue.Empty:
                    continue
                seen.add(press.seat)
                lit ^= {press.seat}
                buttons.light(press.seat, press.seat in lit)
                gpio = pins[press.seat].button
                print(
                    f"  seat {press.seat + 1} pressed (button on GPIO {gpio}) "
                    f"at {press.at - start:.3f} s",
                    file=out,
                    flush=True,
                )
        except KeyboardInterrupt:
            print("  stopped", file=out)
    missing = [str(s + 1) for s in range(len(pins)) if s not in seen]
    if missing:
        print(f"Not pressed: seat {', '.join(missing)}. Check those wires.", file=out)
    else:
        print("Every seat's button works.", file=out)
    return len(seen)


def _press_all(pin_factory: Any, pins: Sequence[SeatPins], sleep: Callable[[float], None]) -> None:
    for seat_pins in pins:
        pin = pin_factory.pin(seat_pins.button)
        pin.drive_low()
        sleep(0.01)
        pin.drive_high()


__all__ = ["buttons_test"]
