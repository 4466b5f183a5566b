"""The bubble game on the touchscreen (RULINGS MECS-8): make the target from flying
bubbles. ``setup`` (the one setup form :data:`SETUP`, the rules and the
:class:`Scoreboard`), ``play`` (the round without pygame), ``scene``
(:class:`BubbleScene`, on the one table base) and ``demo`` (``run_demo``). The round is
not journaled, so it has no ``resume_scene``.

Each name is imported from its module when first asked for, so that importing ``play``
alone brings no pygame in.
"""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(("SETUP", "Scoreboard", "scoreboard", "setup_scene"), "setup"),
        "BubbleScene": "scene",
        "run_demo": "demo",
    },
)


__all__ = ["run_demo", "setup_scene"]
