"""Math Arena in the touchscreen app (ARENA-1..ARENA-5): ``play`` (the device's side of
the table, no pygame), ``table`` (the screens: setup, rules, table), ``demo``. Each name
below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import game_package

__getattr__ = game_package(
    __name__,
    setup_scene="table",
    resume_scene="table",
    table=("SETUP", "RULES", "ArenaScene"),
    play=("BOT_SECONDS", "COUNTDOWN"),
)

__all__ = ["resume_scene", "run_demo", "setup_scene"]
