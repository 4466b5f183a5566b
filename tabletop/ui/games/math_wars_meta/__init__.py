"""Math Wars Meta in the touchscreen app (RULINGS MWM-1..MWM-10): ``play`` (the device's
side of the table, no pygame), ``cards`` (card codes read), ``verdict`` (rulings in a
child's words), ``table`` (the scene on the one table base, drawing the Score Cards),
``setup`` (the setup form, ``setup_scene`` and ``resume_scene``), ``rules`` and ``demo``
(``run_demo``). The end is the one results scene.

Each name is imported from its module when first asked for, so that importing ``play``
alone brings no pygame in.
"""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {"setup_scene": "setup", "resume_scene": "setup", "run_demo": "demo"},
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
