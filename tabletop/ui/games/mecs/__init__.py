"""M.E.C.S. in the touchscreen app: ``play`` (the device's side of the table, no
pygame), ``table`` (the scene on the one table base, and ``resume_scene``), ``editor``
(an area by touch), ``cards`` (card faces and pages), ``setup`` (the one setup form,
``setup_scene``) and ``demo`` (``run_demo``).

Each name is imported from its module when first asked for, so that importing ``play``
alone brings no pygame in.
"""

from __future__ import annotations

from tabletop.ui.games import lazy_names

__getattr__ = lazy_names(
    __name__,
    {"setup_scene": "setup", "resume_scene": "table", "run_demo": "demo"},
)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
