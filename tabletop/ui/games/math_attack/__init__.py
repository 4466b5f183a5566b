"""Math Attack! in the touchscreen app (RULINGS ATK-1..ATK-6): ``play`` (the device's side
of the table, no pygame), ``table`` (the scene on the one table base: cards and
number lines), ``setup`` (rules, the setup form, ``setup_scene`` and
``resume_scene``), ``demo`` (``run_demo``). The end is the one results scene.

Each name is imported from its module when first asked for, so that importing ``play``
alone brings no pygame in.
"""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(("setup_scene", "resume_scene", "SETUP", "RULES"), "setup"),
        "run_demo": "demo",
        **dict.fromkeys(("BOT_SECONDS", "label"), "play"),
        "AttackScene": "table",
    },
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
