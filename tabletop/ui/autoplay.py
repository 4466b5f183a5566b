"""The names the end-to-end tests import the tappers by: the harness's
:class:`~tabletop.ui.harness.Tapper`, and the :class:`Autoplayer` that also plays the
solo Mathe-Meister game as the hint bot plans it
(:mod:`tabletop.ui.games.mathe_meister.autoplay`)."""

from tabletop.ui.games.mathe_meister.autoplay import Autoplayer, taps_for
from tabletop.ui.harness import AutoplayError, Tapper

__all__ = ["AutoplayError", "Autoplayer", "Tapper", "taps_for"]
