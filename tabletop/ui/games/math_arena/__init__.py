"""Math Arena in the touchscreen app (ARENA-1..ARENA-5): the operator card, the seat
buttons, the reveal, the ruling.

``setup_scene(ctx)`` (the one setup form), ``resume_scene(ctx, save, match)`` (a
journaled game carried on) and ``run_demo(...)`` (``tabletop demo --game math-arena``)
as every game app has them (:mod:`tabletop.ui.games`). The modules:
``play`` (the device's side of the table and its sentences, no pygame),
``table`` (the scene: drawing and routing), ``rules`` (rules pages and the setup),
``demo``. Each name below loads its module when first asked for.
"""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(("setup_scene", "SETUP", "RULES"), "rules"),
        **dict.fromkeys(("resume_scene", "ArenaScene", "HandPicker"), "table"),
        **dict.fromkeys(("BOT_SECONDS", "COUNTDOWN"), "play"),
        "run_demo": "demo",
    },
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
