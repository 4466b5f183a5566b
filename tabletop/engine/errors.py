"""One error family for the whole device.

Every error carries a stable ``code`` (``"mm.prefilled_operator"``) that the UI maps to a
sentence a child understands, and an exact English ``message`` for logs and the CLI.
Each error also inherits the builtin it behaves like, as gpiozero does, so callers that
only know ``ValueError`` still catch bad moves.
"""

from __future__ import annotations


class TabletopError(Exception):
    """Base of every error the device raises on purpose."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalMove(TabletopError, ValueError):
    """An action the rules forbid in this state; the message names the rule."""


class ImpossibleOutcome(TabletopError, ValueError):
    """A chance outcome (dice, a drawn card) that cannot appear in this state."""


class BadInput(TabletopError, ValueError):
    """Input that is not even well formed: wrong shape, unknown card, bad JSON."""


class CorruptLog(TabletopError, ValueError):
    """A game log that cannot be replayed, or replays to a different state."""


class DeviceError(TabletopError, RuntimeError):
    """A camera, button or display that does not work as it should."""
