"""The dashboard's door: the teacher PIN, sessions that expire, and a lock after wrong PINs.

- A right PIN (compared in constant time) opens a session: a random token kept in an
  HttpOnly, SameSite=Strict cookie. A session idle for ``idle_minutes`` is over.
- ``attempts`` wrong PINs within ``window`` seconds from one client lock that client out
  until the oldest of them is ``window`` seconds old ("Try again in 4 minutes").
- Every time comes from ``clock`` (monotonic seconds), so tests move time by hand.
"""

from __future__ import annotations

import hmac
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tabletop.engine.errors import BadInput

COOKIE = "tabletop_teacher"
MIN_PIN = 4
MAX_PIN = 64


def check_pin(pin: str) -> str:
    """The PIN as given, or :class:`BadInput` if it cannot be one."""
    pin = pin.strip()
    if not MIN_PIN <= len(pin) <= MAX_PIN or any(c.isspace() for c in pin):
        raise BadInput(
            "teacher.pin",
            f"the teacher PIN must be {MIN_PIN} to {MAX_PIN} characters without spaces",
        )
    return pin


class Locked(Exception):
    """Too many wrong PINs from this client: ``minutes`` until it may try again."""

    def __init__(self, minutes: int) -> None:
        super().__init__(minutes)
        self.minutes = minutes

    @property
    def sentence(self) -> str:
        unit = "minute" if self.minutes == 1 else "minutes"
        return f"Too many wrong PINs. Try again in {self.minutes} {unit}."


class WrongPin(Exception):
    """The PIN was wrong; ``left``: tries before the lock."""

    def __init__(self, left: int) -> None:
        super().__init__(left)
        self.left = left

    @property
    def sentence(self) -> str:
        if self.left == 1:
            return "That PIN is not right. One more try before a pause."
        return "That PIN is not right."


@dataclass
class Gate:
    """Sessions and the lock (see the module docstring)."""

    pin: str
    idle_minutes: float = 60.0
    attempts: int = 5
    window: float = 300.0
    clock: Callable[[], float] = time.monotonic
    _sessions: dict[str, float] = field(default_factory=dict)  # token -> last used
    _failures: dict[str, list[float]] = field(default_factory=dict)  # client -> times

    def __post_init__(self) -> None:
        self.pin = check_pin(self.pin)
        if self.idle_minutes <= 0:
            raise BadInput("teacher.idle", "the idle minutes must be more than 0")

    def login(self, client: str, pin: str) -> str:
        """A new session's token; :class:`Locked` or :class:`WrongPin` otherwise."""
        now = self.clock()
        recent = [t for t in self._failures.get(client, []) if now - t < self.window]
        self._failures[client] = recent
        if len(recent) >= self.attempts:
            raise Locked(max(1, math.ceil((recent[0] + self.window - now) / 60)))
        if not hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            recent.append(now)
            if len(recent) >= self.attempts:
                raise Locked(max(1, math.ceil(self.window / 60)))
            raise WrongPin(self.attempts - len(recent))
        self._failures.pop(client, None)
        self._forget_idle(now)
        token = secrets.token_urlsafe(32)
        self._sessions[token] = now
        return token

    def check(self, token: str | None) -> bool:
        """Is this a live session? (Using it keeps it alive.)"""
        if not token:
            return False
        now = self.clock()
        self._forget_idle(now)
        for known in self._sessions:
            if hmac.compare_digest(known, token):
                self._sessions[known] = now
                return True
        return False

    def logout(self, token: str | None) -> None:
        if token:
            self._sessions.pop(token, None)

    def _forget_idle(self, now: float) -> None:
        limit = self.idle_minutes * 60.0
        for token, used in list(self._sessions.items()):
            if now - used >= limit:
                del self._sessions[token]


__all__ = ["COOKIE", "Gate", "Locked", "WrongPin", "check_pin"]
