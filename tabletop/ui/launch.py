"""Putting the app together for ``tabletop``: display, seat buttons, camera, stores.

What runs where:

* **Raspberry Pi** (``/proc/device-tree/model`` says so): full screen. Under a Wayland
  kiosk (``WAYLAND_DISPLAY`` set) SDL uses it; on the bare console ``SDL_VIDEODRIVER``
  is set to ``kmsdrm``. Seat buttons and LEDs from the pin map (``--pins`` or
  ``$TABLETOP_PINS``, else the default in ``hardware/pins.py``); the Pi camera.
* **Desktop**: a resizable 800x480 window (``--size 1280x720`` for the big layout), keys
  1..8 as seat buttons, a USB camera if one answers.

``--fullscreen`` / ``--windowed`` override the guess. Whatever is missing (no GPIO, no
camera, no sound) is reported once in the log and replaced by its stand-in.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.engine.errors import TabletopError

log = logging.getLogger(__name__)


@dataclass
class AppOptions:
    fullscreen: bool | None = None  # None: full screen on a Pi, a window elsewhere
    size: tuple[int, int] = (800, 480)
    pins: Path | None = None
    buttons: bool | None = None  # None: on a Pi, or when a pin map is given
    camera: str = "auto"  # auto | none | picamera | a USB index | a folder of photos
    frames: int | None = None  # stop after this many frames (measuring, tests)
    data: Path | None = None  # saved games and the class list (default: tabletop.store.data_dir)
    timing: bool = False  # print the time to the first frame on stderr
    fleet: Path | None = None  # the classroom fleet file (else $TABLETOP_FLEET, /etc/tabletop)


def is_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def has_display() -> bool:
    """Whether a window can open here: X11, Wayland, a Pi's console (KMS/DRM), or the
    video driver ``SDL_VIDEODRIVER`` names."""
    if driver := os.environ.get("SDL_VIDEODRIVER"):
        return driver not in ("dummy", "offscreen")
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    return is_raspberry_pi() and any(Path("/dev/dri").glob("card*"))


def process_age() -> float:
    """Seconds since this process started (Linux), for the first-frame figure."""
    try:
        stat = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        start_ticks = int(stat[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.process_time()


def make_cameras(spec: str, sink: Any, on_pi: bool) -> tuple[Any, Callable[[str, int], Any] | None]:
    """The dice screen's camera and the card games' ``factory(game, seats)`` of card
    cameras (one per game's zones), on the camera ``spec`` names; (None, None) without a
    camera (dice and cards are then tapped in, or dealt)."""
    from tabletop.ui.camera import CardCamera, PipelineCamera, vision_pipeline_ready
    from vision.sources import open_source

    if spec == "none":
        return None, None
    if not vision_pipeline_ready():
        log.warning("no camera: the vision pipeline or its models are not available")
        return None, None
    if spec == "auto":
        spec = "picamera" if on_pi else "0"
    source = functools.partial(open_source, spec, loop=True)
    options: dict[str, Any] = {}
    if not (spec.isdigit() or spec == "picamera"):
        # photos (640x480 snapshots): the detector's own scale, as in the demo
        from vision.dice import DETECT_LONG_SIDE

        options["dice_long_side"] = DETECT_LONG_SIDE
    else:
        try:  # probe once, so a desktop without a camera says so at start
            source().close()
        except Exception as exc:
            log.warning("no camera: %s", getattr(exc, "message", exc))
            return None, None

    def factory(game: str, seats: int) -> Any:
        return CardCamera(source, sink, game=game, seats=seats, options=options)

    return PipelineCamera(source, sink, options=options), factory


def no_display(why: str) -> TabletopError:
    return TabletopError(
        "ui.display", f"no display here ({why}): `tabletop demo` plays without one"
    )


def run_app(options: AppOptions) -> int:
    """Start the touchscreen app and run it until it is closed. The files named on the
    command line are read first, and one that cannot be used is refused (one the app
    finds itself is said on screen and left out)."""
    from hardware.pins import load_pin_map
    from tabletop.classroom.fleet.config import find_config

    pin_map = load_pin_map(options.pins) if options.pins else None
    fleet = find_config(options.fleet) if options.fleet else None  # read once, used below
    on_pi = is_raspberry_pi()
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")  # a missing camera is said once, below
    fullscreen = on_pi if options.fullscreen is None else options.fullscreen
    desktop = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY")
    if on_pi and fullscreen and not desktop:  # the bare console
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    elif desktop and desktop == os.environ.get("DISPLAY") and sys.platform == "linux":
        os.environ.setdefault("SDL_VIDEODRIVER", "x11")  # X alone: SDL tries (and says) no other
    if options.frames is None and not has_display():  # before SDL looks (and says so itself)
        raise no_display("no DISPLAY, WAYLAND_DISPLAY or Raspberry Pi screen")
    import pygame

    from hardware.buttons import NoLamps, SeatButtons
    from tabletop.highscores import HighScores
    from tabletop.store import FILE_NAME, Journal, data_dir
    from tabletop.ui.app import App, Context, open_window
    from tabletop.ui.fleet import start_app_fleet
    from tabletop.ui.messages import child_message
    from tabletop.ui.prefs import PrefsFile
    from tabletop.ui.scenes.home import HomeScene
    from tabletop.ui.scenes.rotation import restore_rotation
    from tabletop.ui.sound import Sounds
    from tabletop.ui.speech import make_speaker
    from tabletop.ui.theme import metrics_for

    try:
        window = open_window(options.size, fullscreen=fullscreen)
    except pygame.error as exc:
        if os.environ.get("SDL_VIDEODRIVER") == "x11":
            raise no_display(f"no X on DISPLAY={desktop}: start X or fix DISPLAY") from None
        raise TabletopError("ui.display", f"cannot open the display ({exc})") from None
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and options.frames is None:
        pygame.display.quit()
        raise no_display(f"SDL's {driver!r} video driver")
    prefs = PrefsFile()
    seat_queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
    vision_queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
    notices = [prefs.notice]  # said on the first screen, those that are there
    lamps: Any = NoLamps()
    with contextlib.ExitStack() as closing:
        closing.callback(pygame.display.quit)
        pins = options.pins or os.environ.get("TABLETOP_PINS")
        if options.buttons or (options.buttons is None and (on_pi or pins)):
            try:
                lamps = SeatButtons(pin_map or load_pin_map(), seat_queue.put)
                closing.callback(lamps.close)
            except TabletopError as exc:
                log.warning("%s", exc.message)
                notices.append(child_message("ui.no_seat_buttons"))
        sounds = Sounds(muted=prefs.prefs.muted)
        camera, card_camera = make_cameras(options.camera, vision_queue.put, on_pi)
        ctx = Context(
            metrics=metrics_for(window.get_size()),
            sounds=sounds,
            highscores=closing.enter_context(contextlib.closing(HighScores())),
            prefs=prefs,
            lamps=lamps,
            camera=camera,
            card_camera=card_camera,
            journal=closing.enter_context(
                contextlib.closing(Journal(data_dir(options.data) / FILE_NAME))
            ),
            session=time.strftime("%Y-%m-%d"),  # the lesson is the day (local date)
            speaker=make_speaker(
                prefs.prefs.speech, sounds_available=sounds.available, muted=prefs.prefs.muted
            ),
        )
        closing.callback(ctx.speaker.close)
        if camera is not None:
            closing.callback(camera.stop)
        if ctx.journal.trouble is None:  # else the app tells the children
            notices.append(ctx.journal.notice)
        if (runner := restore_rotation(ctx)) is not None:  # it ran when the device stopped
            ctx.session = runner.stored.session or ctx.session
        ctx.fleet = start_app_fleet(ctx, fleet)  # None: this device runs alone
        if ctx.fleet is not None:
            closing.callback(ctx.fleet.close)
        app = App(ctx, window, seat_queue=seat_queue, vision_queue=vision_queue)
        app.stack.push(HomeScene(ctx))
        notices.append(ctx.highscores.notice)
        if any(notices):
            app.say(" ".join(n for n in notices if n), 8.0)
        app.step(force_draw=True)
        if options.timing:
            print(f"first frame: {process_age() * 1000:.0f} ms after start", file=sys.stderr)
        app.run(max_frames=options.frames)
    return 0


def main() -> int:
    """``python -m tabletop.ui.launch --probe``: exit 0 when a display is available."""
    if "--probe" in sys.argv:
        return 0 if has_display() else 1
    return run_app(AppOptions())


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["AppOptions", "has_display", "is_raspberry_pi", "make_cameras", "run_app"]
