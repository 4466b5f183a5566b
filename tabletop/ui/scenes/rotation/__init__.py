"""Station rotations on the touchscreen, behind the teacher PIN.

:class:`RotationEditor` sets up the plan and starts it; while one runs,
:class:`RotationControl` offers Pause, Resume, +1 minute, Skip and End. The running
rotation is a :class:`RotationRunner` in ``ctx.rotation``: the app calls its
``update()`` every frame and keeps a strip at the bottom of the screen (``strip()``)
for its banner: station, group and countdown. At the warning it sounds and flashes every
seat's LED; at time up it saves the games on the stack as finished for "time", goes
Home and shows :class:`StationScene` (where the groups go next), whose button opens the
station's game set up as planned. Times are wall-clock seconds from ``ctx.wall``, so a
device that reboots carries on (:func:`restore_rotation`).
"""

from tabletop.ui.scenes.rotation.editor import (
    FOLLOWS,
    RotationControl,
    RotationEditor,
    rotation_menu,
)
from tabletop.ui.scenes.rotation.runner import (
    FLASH_STEP,
    FLASH_TOGGLES,
    SEATS,
    RotationRunner,
    StationScene,
    choose_setup,
    finish_games,
    games_on,
    restore_rotation,
    run_rotation,
)

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
    "games_on",
    "restore_rotation",
    "rotation_menu",
    "run_rotation",
]
