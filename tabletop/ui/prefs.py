"""The device's settings (sound, dice input) and the teacher PIN, kept in a JSON file.

The file is ``<data>/settings.json`` (``$TABLETOP_DATA`` or the platform data folder,
as for the high scores). A missing or unreadable file means the defaults; a bad file is
moved aside, never fatal.

The teacher PIN guards the settings screen. **The default PIN is 2468**; change it on
the settings screen ("Change PIN"). It is stored salted and hashed (PBKDF2), never as
digits. After 3 wrong tries the PIN pad locks for 30 seconds.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from tabletop.highscores import data_dir

log = logging.getLogger(__name__)

DEFAULT_PIN = "2468"
PIN_LENGTH = 4
MAX_TRIES = 3
LOCK_SECONDS = 30.0
DICE_INPUTS = ("camera", "tap", "virtual")
SPEECH_SETTINGS = ("auto", "on", "off")
_ITERATIONS = 20_000


def hash_pin(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), _ITERATIONS).hex()


def _hex(value: object, pattern: str) -> bool:
    return isinstance(value, str) and bool(re.fullmatch(pattern, value))


@dataclass
class Prefs:
    """Everything the settings screen changes."""

    # Each field's "fits" says what a saved value may be; any other value (a wrong type
    # too) takes the default on loading. A field without one fails the tests.
    muted: bool = field(default=False, metadata={"fits": lambda v: isinstance(v, bool)})
    # camera | tap | virtual; camera falls back to tap
    dice_input: str = field(default="camera", metadata={"fits": lambda v: v in DICE_INPUTS})
    # spoken prompts: auto (on where there is a speaker) | on | off
    speech: str = field(default="auto", metadata={"fits": lambda v: v in SPEECH_SETTINGS})
    pin_salt: str = field(default="", metadata={"fits": lambda v: _hex(v, r"(?:[0-9a-f]{2})+")})
    pin_hash: str = field(default="", metadata={"fits": lambda v: _hex(v, r"[0-9a-f]{64}")})

    def __post_init__(self) -> None:
        if not self.pin_salt or not self.pin_hash:
            self.set_pin(DEFAULT_PIN)

    def set_pin(self, pin: str) -> None:
        if len(pin) != PIN_LENGTH or not pin.isdigit():
            raise ValueError(f"a PIN is {PIN_LENGTH} digits")
        self.pin_salt = secrets.token_hex(8)
        self.pin_hash = hash_pin(pin, self.pin_salt)

    def pin_matches(self, pin: str) -> bool:
        return hmac.compare_digest(hash_pin(pin, self.pin_salt), self.pin_hash)


class PrefsFile:
    """Loads and saves :class:`Prefs`; ``path=None`` keeps them in memory only."""

    def __init__(self, path: Path | str | None = "default") -> None:
        if path == "default":
            path = data_dir() / "settings.json"
        self.path = Path(path) if path is not None else None
        self.notice: str | None = None
        self.prefs, cleaned = self._load()
        if cleaned:  # save the defaults that replaced wrong values, so the notice shows once
            notice = self.notice
            self.save()  # a failure is logged; the notice stays the one about the values
            self.notice = notice

    def _load(self) -> tuple[Prefs, bool]:
        """The settings, and whether wrong values in the file took their defaults."""
        if self.path is None or not self.path.exists():
            return Prefs(), False
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            aside = self.path.with_name(self.path.name + ".bad")
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
            self.notice = f"The settings file was damaged ({exc}); defaults are back (PIN 2468)."
            log.warning("%s", self.notice)
            return Prefs(), False
        fits = {f.name: f.metadata["fits"] for f in fields(Prefs)}
        bad = [k for k in fits if k in data and not fits[k](data[k])]
        pin_bad = bool({"pin_salt", "pin_hash"} & set(bad))
        # a broken PIN record is no PIN record: the default PIN, as with no file
        dropped = set(bad) | ({"pin_salt", "pin_hash"} if pin_bad else set())
        kept = {k: data[k] for k in fits if k in data and k not in dropped}
        if bad:
            self.notice = (
                "The settings file had wrong values ("
                + ", ".join(f"{k}={data[k]!r:.40}" for k in bad)
                + "); those are back to their defaults"
                + (" (PIN 2468)." if pin_bad else ".")
            )
            log.warning("%s", self.notice)
        return Prefs(**kept), bool(bad)

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(asdict(self.prefs), indent=2), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            self.notice = f"Settings could not be saved ({exc.strerror})."
            log.warning("%s", self.notice)


class PinGate:
    """Checks PIN attempts, locking for a while after too many wrong ones."""

    def __init__(self, prefs: Prefs, clock: Callable[[], float]) -> None:
        self.prefs = prefs
        self._clock = clock
        self.wrong = 0
        self.locked_until = 0.0

    def locked_for(self) -> float:
        """Seconds left before another try is allowed (0 when open)."""
        return max(0.0, self.locked_until - self._clock())

    def attempt(self, pin: str) -> bool:
        if self.locked_for() > 0:
            return False
        if self.prefs.pin_matches(pin):
            self.wrong = 0
            return True
        self.wrong += 1
        if self.wrong >= MAX_TRIES:
            self.wrong = 0
            self.locked_until = self._clock() + LOCK_SECONDS
        return False


__all__ = [
    "DEFAULT_PIN",
    "DICE_INPUTS",
    "PIN_LENGTH",
    "SPEECH_SETTINGS",
    "PinGate",
    "Prefs",
    "PrefsFile",
]
