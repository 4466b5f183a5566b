"""Station rotations on the touchscreen: the teacher's plan editor and controls, the
banner with the countdown, and the screens that send groups from station to station.

The teacher opens *Station rotation* in the teacher menu (behind the PIN):
:class:`RotationEditor` sets up the plan (stations with a game, a mode and options, groups,
minutes, transition, warning, rounds, which station this device is) and starts it;
while one runs, :class:`RotationControl` offers Pause, Resume, +1 minute, Skip and End.

The running rotation is a :class:`RotationRunner` in ``ctx.rotation``. The app calls
``update()`` every frame; while ``strip(screen)`` is not 0 it lays out and draws every
scene above a strip of that height at the bottom of the screen (taps on the strip do
not reach them) and ``draw(surface, screen)`` puts the banner in it: the station, the
group and the countdown (amber in the warning minutes, "Paused" when paused), so it
covers nothing on any screen. At the warning it plays a sound and flashes every seat's
LED once; when time is up it saves every game on the stack as finished for "time" with
its standings (a scene with ``save`` and ``standings()``), goes back to Home and shows
:class:`StationScene`: where the leaving group goes next and the arriving group's
welcome, whose button opens the game's setup with the station's mode and options
already chosen (:func:`choose_setup`).

Times are wall-clock epoch seconds from ``ctx.wall`` (``time.time``; tests inject a
fake), so a device that reboots carries on with the stored clock:
:func:`restore_rotation` finds it in the journal at start.

Touch targets: the editor ``station.<i>``, ``station.add``, ``groups``,
``minutes.-``/``minutes.+``, ``transition.-/+``, ``warning.-/+``, ``rounds.-/+``,
``here.-/+``, ``back``, ``start``; the station picker ``game.<id>``, ``mode.<id>``,
``opt.<key>.<value>`` (``opt.<key>.``: the group chooses), ``remove``, ``done``; the
groups screen ``group.<i>``, ``add``, ``remove``, ``class``, ``done``; the controls
``pause``, ``resume``, ``extend``, ``skip``, ``end``, ``back``; the station screen
``start``, ``home``.
"""

from tabletop.ui.scenes.rotation.control import FOLLOWS, RotationControl, rotation_menu
from tabletop.ui.scenes.rotation.editor import RotationEditor
from tabletop.ui.scenes.rotation.runner import (
    FLASH_STEP,
    FLASH_TOGGLES,
    SEATS,
    RotationRunner,
    finish_games,
    restore_rotation,
    run_rotation,
)
from tabletop.ui.scenes.rotation.station import StationScene, choose_setup, mode_button

__all__ = [
    "FLASH_STEP",
    "FLASH_TOGGLES",
    "FOLLOWS",
    "SEATS",
    "RotationControl",
    "RotationEditor",
    "RotationRunner",
    "StationScene",
    "choose_setup",
    "finish_games",
    "mode_button",
    "restore_rotation",
    "rotation_menu",
    "run_rotation",
]
