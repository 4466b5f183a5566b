"""Math Attack! in the touchscreen app (ATK-1..ATK-6): ``play`` (the device's side of the
table, no pygame), ``table`` (the screens: setup, rules, table), ``demo``. Each name
below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(("setup_scene", "resume_scene", "SETUP", "RULES", "AttackScene"), "table"),
        "run_demo": "demo",
        **dict.fromkeys(("BOT_SECONDS", "label"), "play"),
    },
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
