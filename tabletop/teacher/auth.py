"""The dashboard's door: the teacher PIN, sessions that expire, and brakes on guessing
that nobody on the classroom network can turn into a lock on the teacher.

- A right PIN (compared in constant time) opens a session: a random token kept in an
  HttpOnly, SameSite=Strict cookie. A session idle for ``idle_minutes`` is over. A
  session already open is never touched by anything below.
- **Each client on its own** (an address, or a known browser): its first ``attempts``
  wrong PINs are free; after that it must wait ``delay`` seconds before its next PIN is
  looked at, twice as long after each further wrong PIN, at most ``max_delay``. Only that
  client waits: wrong PINs from one address never slow another address down.
- **The whole network together** may spend ``burst`` wrong PINs at once and then
  ``per_hour`` more an hour (a bucket of wrong guesses, refilled at a steady rate). A
  guesser with a thousand addresses gets no more than one with a single address.
- **Known browsers** cannot be locked out by anyone else: a right PIN also gives the
  browser a *device token* (a signed cookie kept for a year, see :meth:`Gate.device_token`).
  A login that shows a valid device token is judged by that browser's own brake only,
  never by the address's or the network's, and nobody without the cookie can spend it.
- A refused attempt is refused **before** its PIN is looked at (:class:`Locked`), so a
  refusal says nothing about whether the PIN was right: while the network's wrong-guess
  bucket is empty a guesser learns nothing, whatever it sends.

So the number of PINs the network can test is at most ``burst + per_hour * hours``
(README: "How long to guess the PIN"), and the teacher's own browser always gets in.
Every time comes from ``clock`` (monotonic seconds), so tests move time by hand.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tabletop.engine.errors import BadInput
from tabletop.engine.words import plural

log = logging.getLogger(__name__)

COOKIE = "tabletop_teacher"
DEVICE_COOKIE = "tabletop_device"
DEVICE_DAYS = 365
MIN_PIN = 4
MAX_PIN = 64
MAX_CLIENTS = 4096  # clients with wrong PINs remembered; the oldest are dropped past this
FORGET_AFTER = 24 * 3600.0  # a client with no wrong PIN for a day starts afresh


def check_pin(pin: str) -> str:
    """The PIN as given, or :class:`BadInput` if it cannot be one."""
    pin = pin.strip()
    if not MIN_PIN <= len(pin) <= MAX_PIN or any(c.isspace() for c in pin):
        raise BadInput(
            "teacher.pin",
            f"the teacher PIN must be {MIN_PIN} to {MAX_PIN} characters without spaces",
        )
    return pin


def _in_minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return plural(minutes, "minute")


class Locked(Exception):
    """Not looked at: this client must wait ``seconds`` (``everyone``: the network's
    wrong PINs are spent for now, and this browser is not a known one)."""

    def __init__(self, seconds: float, *, everyone: bool = False) -> None:
        super().__init__(seconds)
        self.seconds = seconds
        self.everyone = everyone

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.seconds / 60))

    @property
    def sentence(self) -> str:
        if self.everyone:
            return (
                "Too many wrong PINs on this network. Try again in "
                f"{_in_minutes(self.seconds)}, or from a browser that logged in here before."
            )
        return f"Too many wrong PINs. Try again in {_in_minutes(self.seconds)}."


class WrongPin(Exception):
    """The PIN was looked at and is wrong; ``left``: free tries before this client must
    wait, ``wait``: seconds before its next try (0 while tries are left)."""

    def __init__(self, left: int, wait: float = 0.0) -> None:
        super().__init__(left)
        self.left = left
        self.wait = wait

    @property
    def sentence(self) -> str:
        if self.wait > 0:
            return f"That PIN is not right. Try again in {_in_minutes(self.wait)}."
        if self.left == 1:
            return "That PIN is not right. One more try before a pause."
        return "That PIN is not right."


@dataclass
class _Brake:
    """One client's wrong PINs: how many in a row, and when the last one was."""

    wrong: int = 0
    last: float = 0.0


@dataclass
class Gate:
    """Sessions and the brakes on guessing (see the module docstring)."""

    pin: str
    idle_minutes: float = 60.0
    attempts: int = 5
    delay: float = 60.0
    max_delay: float = 3600.0
    burst: int = 30
    per_hour: float = 12.0
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    clock: Callable[[], float] = time.monotonic
    _sessions: dict[str, float] = field(default_factory=dict)  # token -> last used
    _brakes: dict[str, _Brake] = field(default_factory=dict)  # client -> its wrong PINs
    _full_at: float = field(default=0.0)  # when the network's bucket is full again
    wrong_guesses: int = 0  # wrong PINs looked at, ever (for the log and the tests)

    def __post_init__(self) -> None:
        self.pin = check_pin(self.pin)
        if self.idle_minutes <= 0:
            raise BadInput("teacher.idle", "the idle minutes must be more than 0")
        if self.attempts < 1 or self.burst < self.attempts:
            raise BadInput("teacher.lock", "the brakes need 1 <= attempts <= burst")
        if not 0 < self.delay <= self.max_delay or self.per_hour <= 0:
            raise BadInput("teacher.lock", "the delays and the hourly rate must be above 0")
        if len(self.secret) < 16:
            raise BadInput("teacher.secret", "the device secret must be 16 bytes or more")
        self._full_at = self.clock()
        # Tokens are signed with the secret and the PIN: a new PIN forgets every browser.
        self._key = hmac.new(self.secret, b"device:" + self.pin.encode(), hashlib.sha256).digest()

    # -- logging in ----------------------------------------------------------------------

    def login(self, client: str, pin: str, device: str | None = None) -> str:
        """A new session's token for ``client`` (its address), or :class:`Locked` (not
        looked at) or :class:`WrongPin`. ``device``: the browser's device token, if any."""
        now = self.clock()
        known = self.known_device(device)
        who = f"device:{device}" if known and device else f"address:{client}"
        brake = self._brake(who, now)
        if brake is not None and brake.wrong >= self.attempts:
            ready = brake.last + self._delay(brake.wrong)
            if now < ready:
                raise Locked(ready - now)
        if not known:
            # The bucket holds burst wrong PINs and refills one each `every` seconds; it is
            # kept as the time it is full again (a "generic cell rate" meter: no drift).
            every = 3600 / self.per_hour
            early = self._full_at - now - (self.burst - 1) * every
            if early > 0:
                raise Locked(early, everyone=True)
        if not hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            self.wrong_guesses += 1
            if not known:
                self._full_at = max(self._full_at, now) + 3600 / self.per_hour
            brake = self._brakes.setdefault(who, _Brake())
            brake.wrong += 1
            brake.last = now
            self._trim()
            wait = self._delay(brake.wrong) if brake.wrong >= self.attempts else 0.0
            raise WrongPin(max(0, self.attempts - brake.wrong), wait)
        self._brakes.pop(who, None)
        self._forget_idle(now)
        token = secrets.token_urlsafe(32)
        self._sessions[token] = now
        return token

    def device_token(self) -> str:
        """A new device token for a browser that just gave the right PIN."""
        ident = secrets.token_urlsafe(18)
        return f"{ident}.{self._sign(ident)}"

    def known_device(self, token: str | None) -> bool:
        """Is ``token`` a device token this gate gave (for this PIN)?"""
        if not token or token.count(".") != 1 or len(token) > 200:
            return False
        ident, mac = token.split(".")
        return hmac.compare_digest(mac.encode(), self._sign(ident).encode())

    def _sign(self, ident: str) -> str:
        return hmac.new(self._key, ident.encode(), hashlib.sha256).hexdigest()

    def _delay(self, wrong: int) -> float:
        """Seconds a client with ``wrong`` wrong PINs in a row waits (``wrong >= attempts``)."""
        return float(min(self.max_delay, self.delay * 2.0 ** min(wrong - self.attempts, 64)))

    def _brake(self, who: str, now: float) -> _Brake | None:
        brake = self._brakes.get(who)
        if brake is not None and now - brake.last >= FORGET_AFTER:
            del self._brakes[who]
            return None
        return brake

    def _trim(self) -> None:
        """Remember at most MAX_CLIENTS clients (a guesser with endless addresses must not
        fill the memory); the network's bucket still counts every wrong PIN."""
        while len(self._brakes) > MAX_CLIENTS:
            oldest = min(self._brakes, key=lambda who: self._brakes[who].last)
            del self._brakes[oldest]

    # -- sessions ------------------------------------------------------------------------

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


def device_secret(path: Path) -> bytes:
    """The secret that signs device tokens, kept in ``path`` (made once, readable by this
    account only) so that known browsers stay known across restarts. If the file cannot
    be kept, a secret for this run only: browsers are then known until the next restart."""
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data[:32]
    except OSError:
        pass
    data = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        log.warning(
            "teacher: cannot keep the device secret in %s (%s): browsers are "
            "known until the dashboard restarts",
            path,
            exc.strerror or exc,
        )
    return data


def guessing_hours(space: int, burst: int = 30, per_hour: float = 12.0) -> float:
    """Expected hours for the network to guess a PIN drawn from ``space`` equally likely
    ones, at the gate's most (half the space, less the burst, at ``per_hour``)."""
    return max(0.0, space / 2 - burst) / per_hour


__all__ = [
    "COOKIE",
    "DEVICE_COOKIE",
    "DEVICE_DAYS",
    "Gate",
    "Locked",
    "WrongPin",
    "check_pin",
    "device_secret",
    "guessing_hours",
]
