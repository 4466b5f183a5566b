"""Math Arena in the touchscreen app (ARENA-1..ARENA-5): ``play`` (the device's side of
the table, no pygame), ``table`` (the screens: setup, rules, table), ``demo``. Each name
below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(
            ("setup_scene", "SETUP", "RULES", "resume_scene", "ArenaScene", "HandPicker"), "table"
        ),
        **dict.fromkeys(("BOT_SECONDS", "COUNTDOWN"), "play"),
        "run_demo": "demo",
    },
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
