"""M.E.C.S. in the touchscreen app: ``play`` (the device's side of the table, no
pygame), ``table`` (the scene, and ``resume_scene``), ``editor`` (an area by touch),
``cards`` (card faces and pages), ``setup`` (the one setup form) and ``demo``. Each name
below loads its module when first asked for."""

from __future__ import annotations

from tabletop.ui.games import game_package

__getattr__ = game_package(__name__, setup_scene="setup", resume_scene="table")

__all__ = ["resume_scene", "run_demo", "setup_scene"]
