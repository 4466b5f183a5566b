"""Mathe-Meister in the touchscreen app: the setup Home pushes, a game left unfinished
carried on (issue 10), the demo (``tabletop demo``)."""

from __future__ import annotations

from tabletop.ui.games import game_package

__getattr__ = game_package(__name__, setup_scene="setup", resume_scene="setup")

__all__ = ["resume_scene", "run_demo", "setup_scene"]
