"""The bubble game on the touchscreen (RULINGS MECS-8): make the target from flying
bubbles. ``play`` (the round without pygame), ``scene`` (the setup form, the rules, the
scoreboard and the round) and ``demo``. The round is not journaled, so it has no
``resume_scene``. Each name below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import game_package

__getattr__ = game_package(
    __name__, setup_scene="scene", scene=("SETUP", "BubbleScene", "best_scores", "record_score")
)

__all__ = ["run_demo", "setup_scene"]
