"""Seat buttons and LEDs with gpiozero's MockFactory; the pin map; the wiring check."""

from __future__ import annotations

import io
import warnings

import pytest

from hardware.buttons import KeyboardSeats, SeatButtons, SeatPressed
from hardware.pins import (
    DEFAULT_PINS,
    MAX_SEATS,
    SeatPins,
    format_pin_map,
    load_pin_map,
    parse_pin_map,
)
from hardware.wiring import buttons_test
from tabletop import cli
from tabletop.engine.errors import BadInput, DeviceError
from tabletop.ui.input import order_presses


class Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def press(factory, gpio: int) -> None:
    pin = factory.pin(gpio)
    pin.drive_low()  # pulled up: a press reads low
    pin.drive_high()


def test_buttons_press_gives_seat_and_time(factory) -> None:
    got: list[SeatPressed] = []
    clock = Clock(12.5)
    with SeatButtons(DEFAULT_PINS[:4], got.append, pin_factory=factory, clock=clock):
        press(factory, DEFAULT_PINS[2].button)
    assert got == [SeatPressed(2, 12.5, "button")]


def test_buttons_bounce_counts_once_within_bounce_time(factory) -> None:
    got: list[SeatPressed] = []
    clock = Clock()
    with SeatButtons(
        DEFAULT_PINS[:2], got.append, pin_factory=factory, clock=clock, bounce_time=0.05
    ):
        for _ in range(4):  # a chattering switch: four edges in 30 ms
            press(factory, DEFAULT_PINS[0].button)
            clock.now += 0.01
        clock.now += 0.05
        press(factory, DEFAULT_PINS[0].button)  # a real second press
    assert [p.at for p in got] == [100.0, pytest.approx(100.09)]


def test_buttons_bounce_is_per_seat(factory) -> None:
    got: list[SeatPressed] = []
    clock = Clock()
    with SeatButtons(DEFAULT_PINS[:2], got.append, pin_factory=factory, clock=clock):
        press(factory, DEFAULT_PINS[0].button)
        clock.now += 0.001
        press(factory, DEFAULT_PINS[1].button)
    assert [p.seat for p in got] == [0, 1]


def test_buttons_simultaneous_presses_are_ordered_by_time(factory) -> None:
    """MM-5: two presses drained in one frame are served in the order they happened,
    whatever order they reached the queue in."""
    got: list[SeatPressed] = []
    clock = Clock(50.0)
    with SeatButtons(DEFAULT_PINS, got.append, pin_factory=factory, clock=clock):
        clock.now = 50.004
        press(factory, DEFAULT_PINS[5].button)
        clock.now = 50.001
        press(factory, DEFAULT_PINS[3].button)  # earlier stamp, later arrival
        clock.now = 50.002
        press(factory, DEFAULT_PINS[0].button)
    assert [p.seat for p in got] == [5, 3, 0]
    assert [p.seat for p in order_presses(list(got))] == [3, 0, 5]


def test_buttons_leds_light_and_light_only(factory) -> None:
    with SeatButtons(DEFAULT_PINS[:3], lambda p: None, pin_factory=factory) as buttons:
        buttons.light(1)
        assert factory.pin(DEFAULT_PINS[1].led).state
        buttons.light_only([0, 2])
        states = [bool(factory.pin(p.led).state) for p in DEFAULT_PINS[:3]]
        assert states == [True, False, True]
        assert buttons.is_lit(2) and not buttons.is_lit(1)


def test_buttons_close_is_idempotent_and_frees_pins(factory) -> None:
    buttons = SeatButtons(DEFAULT_PINS[:2], lambda p: None, pin_factory=factory)
    buttons.light(0)
    buttons.close()
    buttons.close()
    buttons.light(0)  # ignored once closed
    again = SeatButtons(DEFAULT_PINS[:2], lambda p: None, pin_factory=factory)
    again.close()


def test_buttons_pin_in_use_is_a_device_error(factory) -> None:
    with (
        SeatButtons(DEFAULT_PINS[:1], lambda p: None, pin_factory=factory),
        pytest.raises(DeviceError) as err,
    ):
        SeatButtons(DEFAULT_PINS[:1], lambda p: None, pin_factory=factory)
    assert err.value.code == "hw.gpio"


def test_buttons_test_without_a_pin_library_is_one_true_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No pin library (not a Pi): gpiozero warned once per library it tried (8 lines of
    PinFactoryFallback) before the command's line, which said "keys 1..8 stand in" while
    `buttons test` exits 2 with no keys to stand in."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def no_library() -> None:  # what gpiozero does where none loads
        for name in ("lgpio", "rpigpio", "pigpio", "native"):
            warnings.warn(PinFactoryFallback(f"Falling back from {name}: not here"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_library))
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        assert cli.main(["buttons", "test"]) == 2
    assert [w.message for w in warned] == []
    assert capsys.readouterr().err == (
        "tabletop buttons: cannot use the seat buttons' GPIO pins (BadPinFactory: Unable to"
        " load any default pin factory!); not a Raspberry Pi?\n"
    )


def test_buttons_keyboard_stand_in_gives_the_same_events() -> None:
    got: list[SeatPressed] = []
    keys = KeyboardSeats(got.append, seats=4, clock=Clock(7.0))
    assert keys.key("3") and keys.key("[1]", at=7.5)
    assert not keys.key("9") and not keys.key("a")
    assert keys.key("3", at=7.01)  # a seat key, but bounce: no second event
    assert got == [SeatPressed(2, 7.0, "keyboard"), SeatPressed(0, 7.5, "keyboard")]


def test_buttons_default_pin_map_fits_a_40_pin_header() -> None:
    assert len(DEFAULT_PINS) == MAX_SEATS == 8
    gpios = [p.button for p in DEFAULT_PINS] + [p.led for p in DEFAULT_PINS]
    assert len(set(gpios)) == 16
    reserved = {0, 1, 2, 3, 14, 15, 18, 19, 20, 21}  # EEPROM, I2C, UART, I2S audio
    assert not reserved & set(gpios)  # type: ignore[arg-type]
    assert parse_pin_map({"seat": [{"button": p.button, "led": p.led} for p in DEFAULT_PINS]}) == (
        DEFAULT_PINS
    )


def test_buttons_pin_map_file_round_trips(tmp_path) -> None:
    path = tmp_path / "pins.toml"
    mine = (SeatPins(4, 23), SeatPins(17))
    path.write_text(format_pin_map(mine))
    assert load_pin_map(path) == mine


def test_buttons_pin_map_from_env(tmp_path, monkeypatch) -> None:
    path = tmp_path / "pins.toml"
    path.write_text("[[seat]]\nbutton = 5\nled = 6\n")
    monkeypatch.setenv("TABLETOP_PINS", str(path))
    assert load_pin_map() == (SeatPins(5, 6),)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[[seat]]\nbutton = 4\nled = 4\n", "pins.twice"),
        ("[[seat]]\nbutton = 40\n", "pins.gpio"),
        ("[[seat]]\nled = 4\n", "pins.shape"),
        ("seat = 3\n", "pins.shape"),
        ("[[seat]\n", "pins.toml"),
        ("\n".join(f"[[seat]]\nbutton = {g}" for g in range(4, 13)) + "\n", "pins.seats"),
    ],
)
def test_buttons_bad_pin_map_names_the_problem(tmp_path, text: str, code: str) -> None:
    path = tmp_path / "pins.toml"
    path.write_text(text)
    with pytest.raises(BadInput) as err:
        load_pin_map(path)
    assert err.value.code == code
    assert str(path) in err.value.message


def test_buttons_pin_map_not_utf8_is_one_line(tmp_path, capsys) -> None:
    """A pin map saved in another encoding (or a binary file) is refused on one line,
    as a bad TOML one is (main: a UnicodeDecodeError traceback, exit 1)."""
    path = tmp_path / "pins.toml"
    path.write_bytes(b"\x00\x01\x02garbage\xff\xfe")
    with pytest.raises(BadInput) as err:
        load_pin_map(path)
    assert err.value.code == "pins.text" and str(path) in err.value.message
    assert cli.main(["buttons", "test", "--pins", str(path), "--mock"]) == 2
    err_text = capsys.readouterr().err
    assert err_text.count("\n") == 1 and "not UTF-8 text" in err_text


def test_buttons_wiring_check_lights_every_led_and_reports_every_press(factory) -> None:
    out = io.StringIO()
    pressed = buttons_test(
        DEFAULT_PINS[:3],
        out,
        seconds=2,
        pin_factory=factory,
        simulate=True,
        step=0,
        sleep=lambda s: None,
    )
    text = out.getvalue()
    assert pressed == 3
    for seat, pins in enumerate(DEFAULT_PINS[:3], start=1):
        assert f"seat {seat}: LED on GPIO {pins.led} is lit" in text
        assert f"seat {seat} pressed (button on GPIO {pins.button})" in text
    assert "Every seat's button works." in text


def test_buttons_wiring_check_names_silent_seats(factory) -> None:
    out = io.StringIO()
    ticks = iter(range(1000))

    def clock() -> float:  # every look at the clock is 0.1 s later
        return next(ticks) / 10

    pressed = buttons_test(
        DEFAULT_PINS[:2],
        out,
        seconds=0.2,
        pin_factory=factory,
        step=0,
        clock=clock,
        sleep=lambda s: None,
    )
    assert pressed == 0
    assert "Not pressed: seat 1, 2" in out.getvalue()


def test_buttons_cli_test_with_mock_pins(capsys, monkeypatch) -> None:
    monkeypatch.setattr("hardware.wiring.time.sleep", lambda s: None)
    assert cli.main(["buttons", "test", "--mock", "--seconds", "2"]) == 0
    out = capsys.readouterr().out
    assert "seat 8 pressed (button on GPIO 26)" in out


def test_buttons_cli_prints_the_default_map(capsys) -> None:
    assert cli.main(["buttons", "test", "--print-map"]) == 0
    assert "[[seat]]\nbutton = 4\nled = 23" in capsys.readouterr().out


def test_buttons_cli_bad_map_is_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "pins.toml"
    path.write_text("[[seat]]\nbutton = 99\n")
    assert cli.main(["buttons", "test", "--pins", str(path), "--mock"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GPIO 0..27" in err
