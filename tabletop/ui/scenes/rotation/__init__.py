"""Station rotations on the touchscreen: the teacher's screens behind the PIN
(:mod:`.editor`: the plan, and the controls while one runs) and the rotation running
(:mod:`.runner`: its clock, banner and station screen)."""

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
