"""The dashboard's door: the teacher PIN, sessions that expire, and a lock after wrong PINs.

- A right PIN (compared in constant time) opens a session: a random token kept in an
  HttpOnly, SameSite=Strict cookie. A session idle for ``idle_minutes`` is over.
- ``attempts`` wrong PINs within ``window`` seconds from one client lock that client out
  until the oldest of them is ``window`` seconds old ("Try again in 4 minutes").
- ``everyone`` wrong PINs within ``window`` from all clients together pause every login
  the same way, so thirty tablets guessing at once get no further than four would. A
  session already open is not touched: a teacher logged in stays logged in.
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
    """Too many wrong PINs from this client (``everyone``: from all clients together):
    ``minutes`` until it may try again."""

    def __init__(self, minutes: int, *, everyone: bool = False) -> None:
        super().__init__(minutes)
        self.minutes = minutes
        self.everyone = everyone

    @property
    def sentence(self) -> str:
        unit = "minute" if self.minutes == 1 else "minutes"
        where = " on this network" if self.everyone else ""
        return f"Too many wrong PINs{where}. Try again in {self.minutes} {unit}."


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
    everyone: int = 20
    window: float = 300.0
    clock: Callable[[], float] = time.monotonic
    _sessions: dict[str, float] = field(default_factory=dict)  # token -> last used
    _failures: dict[str, list[float]] = field(default_factory=dict)  # client -> times

    def __post_init__(self) -> None:
        self.pin = check_pin(self.pin)
        if self.idle_minutes <= 0:
            raise BadInput("teacher.idle", "the idle minutes must be more than 0")
        if not 0 < self.attempts <= self.everyone:
            raise BadInput("teacher.lock", "the lock needs 0 < attempts <= everyone")

    def login(self, client: str, pin: str) -> str:
        """A new session's token; :class:`Locked` or :class:`WrongPin` otherwise."""
        now = self.clock()
        self._forget_failures(now)
        recent = self._failures.setdefault(client, [])
        if len(recent) >= self.attempts:
            raise Locked(self._minutes(recent[0], now))
        every = sorted(t for times in self._failures.values() for t in times)
        if len(every) >= self.everyone:
            raise Locked(self._minutes(every[-self.everyone], now), everyone=True)
        if not hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            recent.append(now)
            if len(recent) >= self.attempts:
                raise Locked(self._minutes(now, now))
            if len(every) + 1 >= self.everyone:
                raise Locked(self._minutes(every[1 - self.everyone], now), everyone=True)
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

    def _minutes(self, oldest: float, now: float) -> int:
        """Whole minutes until a wrong PIN made at ``oldest`` no longer counts."""
        return max(1, math.ceil((oldest + self.window - now) / 60))

    def _forget_failures(self, now: float) -> None:
        for who, times in list(self._failures.items()):
            times[:] = [t for t in times if now - t < self.window]
            if not times:
                del self._failures[who]

    def _forget_idle(self, now: float) -> None:
        limit = self.idle_minutes * 60.0
        for token, used in list(self._sessions.items()):
            if now - used >= limit:
                del self._sessions[token]


__all__ = ["COOKIE", "Gate", "Locked", "WrongPin", "check_pin"]
