"""The one teacher PIN pad (default PIN 2468, see ``tabletop.ui.prefs``).

Every screen that needs the teacher asks through this pad:

- ``PinPad(ctx, "settings")`` opens the settings on the right PIN;
- ``PinPad(ctx, "change")`` asks for a new PIN twice and saves it, popping ``"changed"``;
- any other purpose (``"undo"``, ``"moderator"``...) pops ``"ok"`` on the right PIN and
  ``None`` on Cancel; ``prompt`` and ``subtitle`` say what the PIN is for.

Wrong tries share one lockout (``PinGate``): three wrong PINs lock every pad for a while.
The message line has its own strip between the dots and the keys, so it never covers a key.
"""

from __future__ import annotations

import math

import pygame

from tabletop.engine.words import plural
from tabletop.ui.app import Context
from tabletop.ui.prefs import PIN_LENGTH, PinGate
from tabletop.ui.scenes.common import Screen
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "delete")
KEY_LABELS = {"clear": "Clear", "delete": "\u2190"}
NOT_RIGHT = "That PIN is not right. Try again."
DIFFERENT = "The two PINs were different. Start again."
SUBTITLES = {
    "settings": "For teachers: the settings of this device.",
    "change": "For teachers: choose the PIN that opens the settings.",
    "undo": "For teachers: take back the last step of the game.",
}


def pin_gate(ctx: Context) -> PinGate:
    """The device's one lockout, shared by every pad."""
    if ctx.pin_gate is None:
        ctx.pin_gate = PinGate(ctx.prefs.prefs, ctx.clock)
    gate: PinGate = ctx.pin_gate
    return gate


def wait_message(seconds: float) -> str:
    return f"Too many tries. Wait {plural(math.ceil(seconds), 'second')}."


class PinPad(Screen):
    """Four digits on a 3x4 keypad; what the right PIN does depends on ``purpose``."""

    speaks = False  # a teacher's screen
    back, keys = "cancel", {"digit": "key.{}", "backspace": "key.delete"}

    def __init__(
        self,
        ctx: Context,
        purpose: str = "settings",
        *,
        prompt: str = "Teacher PIN",
        subtitle: str | None = None,
    ) -> None:
        super().__init__(ctx)
        self.purpose, self.title = purpose, prompt
        self.subtitle = subtitle if subtitle is not None else SUBTITLES.get(purpose, "")
        self.digits = self.message = ""
        self.first_new: str | None = None
        self.shown_lock = 0

    @property
    def prompt(self) -> str:
        if self.purpose == "change":
            return "Type the new PIN again" if self.first_new else "Type a new 4-digit PIN"
        return self.title

    def layout(self, metrics: Metrics) -> None:
        m, (W, H) = metrics, metrics.size
        kw, gap, top = m.u(104), m.u(8), m.u(166)
        kh = min(m.u(58), (H - top - m.u(12) - 3 * gap) // 4)  # lower over a strip (app.py)
        left = W // 2 - (3 * kw + 2 * gap) // 2
        self.dots_y = m.u(100)
        # the message's own strip, between the dots and the keys
        self.message_box = pygame.Rect(m.u(16), m.u(120), W - m.u(32), top - m.u(4) - m.u(120))
        keys = grid(pygame.Rect(left, top, 3 * kw + 2 * gap, kh), len(KEYS), 3, gap)
        big = {k: m.big for k in KEYS if k.isdigit()}  # Clear and the arrow at the body size
        self.buttons = [
            Button(f"key.{k}", rect, KEY_LABELS.get(k, k), kind="quiet", size=big.get(k))
            for rect, k in zip(keys, KEYS, strict=True)
        ]
        cancel = pygame.Rect(m.u(16), H - m.u(72), min(m.u(180), left - m.u(32)), m.u(56))
        self.buttons.append(Button("cancel", cancel, "Cancel", kind="quiet"))

    def press(self, name: str) -> None:
        if name == "cancel":
            self.stack.pop(None)
            return
        key = name[4:]
        if key == "clear":
            self.digits = ""
        elif key == "delete":
            self.digits = self.digits[:-1]
        elif self.purpose != "change" and (locked := pin_gate(self.ctx).locked_for()):
            self.say(wait_message(locked), good=False)  # no digit counts until the lockout ends
        elif len(self.digits) < PIN_LENGTH:
            self.digits += key
        if len(self.digits) == PIN_LENGTH:
            entered, self.digits = self.digits, ""
            (self._new_pin if self.purpose == "change" else self._check)(entered)

    def _new_pin(self, pin: str) -> None:
        if self.first_new is None:
            self.first_new = pin
            self.message = ""
        elif pin == self.first_new:
            self.ctx.prefs.prefs.set_pin(pin)
            self.ctx.prefs.save()
            self.ctx.sounds.play("good")
            self.stack.pop("changed")
        else:
            self.first_new = None
            self.say(DIFFERENT, good=False)

    def _check(self, pin: str) -> None:
        gate = pin_gate(self.ctx)
        if gate.attempt(pin):  # refused while locked
            self.message = ""
            if self.purpose == "settings":
                from tabletop.ui.scenes.settings import SettingsScene

                self.stack.replace(SettingsScene(self.ctx))
            else:
                self.stack.pop("ok")
            return
        locked = gate.locked_for()
        self.say(wait_message(locked) if locked else NOT_RIGHT, good=False)

    def update(self, now: float) -> bool:
        left = math.ceil(pin_gate(self.ctx).locked_for())
        if left != self.shown_lock:
            self.shown_lock = left
            self.message = wait_message(left) if left else ""
            if not left:  # the lockout is over: the next try starts with no digit
                self.digits = ""
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        painter, m = self.backdrop(surface, self.prompt, self.subtitle), self.m
        p = painter.p
        cx = m.width // 2
        for i in range(PIN_LENGTH):
            pos = (round(cx + (i - 1.5) * m.u(44)), self.dots_y)
            if i < len(self.digits):
                pygame.draw.circle(surface, p.ink, pos, m.u(13))
            else:
                pygame.draw.circle(surface, p.line, pos, m.u(13), m.u(3))
        painter.buttons(surface, self.buttons)
        if self.message:
            painter.label(surface, self.message, self.message_box, m.text, p.bad, margin=0)


__all__ = ["NOT_RIGHT", "PinPad", "pin_gate"]
