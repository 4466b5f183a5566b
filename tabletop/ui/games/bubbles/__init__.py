"""The bubble game on the touchscreen (RULINGS MECS-8): make the target from flying
bubbles. ``setup`` (the one setup form, the rules and the scoreboard), ``play`` (the
round without pygame), ``scene`` and ``demo``. The round is not journaled, so it has no
``resume_scene``. Each name below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(("SETUP", "best_scores", "record_score", "setup_scene"), "setup"),
        "BubbleScene": "scene",
        "run_demo": "demo",
    },
)


__all__ = ["run_demo", "setup_scene"]
