"""Math Wars Meta in the touchscreen app (RULINGS MWM-1..MWM-10). Each name is imported
from its module when first asked for, so that importing ``play`` alone brings no pygame in.
"""

from __future__ import annotations

from tabletop.ui.games import game_package

__getattr__ = game_package(__name__, setup_scene="setup", resume_scene="setup")

__all__ = ["resume_scene", "run_demo", "setup_scene"]
