"""The name the end-to-end tests import :class:`Autoplayer` by: it lives in
:mod:`tabletop.ui.harness`, beside the demo harness built on it."""

from tabletop.ui.harness import Autoplayer, AutoplayError, taps_for

__all__ = ["AutoplayError", "Autoplayer", "taps_for"]
