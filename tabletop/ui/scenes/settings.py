"""The teacher's settings, behind a 4-digit PIN (default 2468, see ``tabletop.ui.prefs``).

``PinPad(purpose="settings")`` opens the settings on the right PIN; ``purpose="change"``
asks for a new PIN twice and saves it. Three wrong tries lock the pad for 30 seconds.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from tabletop.ui.app import Context, Scene
from tabletop.ui.input import Back, InputEvent, Key, Tap
from tabletop.ui.prefs import PIN_LENGTH, PinGate
from tabletop.ui.scenes.common import Confirm, header
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "delete")
KEY_LABELS = {"clear": "Clear", "delete": "\u2190"}


def pin_gate(ctx: Context) -> PinGate:
    if ctx.pin_gate is None:
        ctx.pin_gate = PinGate(ctx.prefs.prefs, ctx.clock)
    gate: PinGate = ctx.pin_gate
    return gate


class PinPad(Scene):
    def __init__(self, ctx: Context, purpose: str = "settings") -> None:
        super().__init__(ctx)
        self.purpose = purpose
        self.digits = ""
        self.first_new: str | None = None
        self.message = ""
        self.shown_lock = 0

    @property
    def prompt(self) -> str:
        if self.purpose == "change":
            return "Type the new PIN again" if self.first_new else "Type a new 4-digit PIN"
        return "Teacher PIN"

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        kw, kh, gap = m.u(104), m.u(64), m.u(10)
        left = W // 2 - (3 * kw + 2 * gap) // 2
        top = m.u(150)
        self.dots_y = m.u(112)
        self.buttons = [
            Button(
                f"key.{k}",
                pygame.Rect(left + (i % 3) * (kw + gap), top + (i // 3) * (kh + gap), kw, kh),
                KEY_LABELS.get(k, k),
                kind="quiet",
                size=m.big if k.isdigit() else m.text,
            )
            for i, k in enumerate(KEYS)
        ]
        self.buttons.append(
            Button(
                "cancel",
                pygame.Rect(m.u(16), H - m.u(72), m.u(180), m.u(56)),
                "Cancel",
                kind="quiet",
            )
        )

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop(None)
        elif isinstance(event, Key) and event.text.isdigit():
            self.press(f"key.{event.text}")
        elif isinstance(event, Key) and event.name == "backspace":
            self.press("key.delete")
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None and button.enabled:
                self.ctx.sounds.play("tap")
                self.press(button.name)

    def press(self, name: str) -> None:
        if name == "cancel":
            self.stack.pop(None)
            return
        key = name[4:]
        if key == "clear":
            self.digits = ""
        elif key == "delete":
            self.digits = self.digits[:-1]
        elif len(self.digits) < PIN_LENGTH:
            self.digits += key
        if len(self.digits) == PIN_LENGTH:
            entered, self.digits = self.digits, ""
            self._entered(entered)

    def _entered(self, pin: str) -> None:
        if self.purpose == "change":
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
                self.message = "The two PINs were different. Start again."
                self.ctx.sounds.play("wrong")
            return
        gate = pin_gate(self.ctx)
        if gate.locked_for() > 0:
            self.message = f"Too many tries. Wait {math.ceil(gate.locked_for())} seconds."
            self.ctx.sounds.play("wrong")
        elif gate.attempt(pin):
            self.message = ""
            self.stack.replace(SettingsScene(self.ctx))
        else:
            self.ctx.sounds.play("wrong")
            locked = gate.locked_for()
            self.message = (
                f"Too many tries. Wait {math.ceil(locked)} seconds."
                if locked
                else "That PIN is not right."
            )

    def update(self, now: float) -> bool:
        gate = pin_gate(self.ctx)
        left = math.ceil(gate.locked_for())
        if left != self.shown_lock:
            self.shown_lock = left
            self.message = f"Too many tries. Wait {left} seconds." if left else ""
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(self, surface, self.prompt, "For teachers: the settings of this device.")
        cx = m.width // 2
        for i in range(PIN_LENGTH):
            centre = (cx + (i - 1.5) * m.u(44), self.dots_y)
            pos = (round(centre[0]), centre[1])
            if i < len(self.digits):
                pygame.draw.circle(surface, p.ink, pos, m.u(13))
            else:
                pygame.draw.circle(surface, p.line, pos, m.u(13), m.u(3))
        painter.buttons(surface, self.buttons)
        if self.message:
            painter.text(
                surface,
                self.message,
                (cx, m.height - m.u(44)),
                m.text,
                p.bad,
                bold=True,
                anchor="center",
                max_width=m.width - m.u(440),
            )


class SettingsScene(Scene):
    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        prefs = self.ctx.prefs.prefs
        label_w = m.u(230)
        left = m.u(16) + label_w
        h = m.u(52)
        gap = m.u(10)
        y = m.u(80)
        b: list[Button] = []
        self.labels: list[tuple[str, int]] = []
        self.labels.append(("Sound", y + h // 2))
        for i, (name, label) in enumerate((("sound.on", "On"), ("sound.off", "Off (mute)"))):
            b.append(
                Button(
                    name,
                    pygame.Rect(left + i * m.u(170), y, m.u(160), h),
                    label,
                    kind="toggle",
                    selected=(name == "sound.off") == prefs.muted,
                )
            )
        y += h + gap
        self.labels.append(("Dice come from", y + h // 2))
        for i, (name, label) in enumerate(
            (("dice.camera", "Camera"), ("dice.tap", "Tapping"), ("dice.virtual", "The device"))
        ):
            b.append(
                Button(
                    name,
                    pygame.Rect(left + i * m.u(170), y, m.u(160), h),
                    label,
                    kind="toggle",
                    selected=prefs.dice_input == name[5:],
                )
            )
        y += h + gap
        self.labels.append(("Teacher PIN", y + h // 2))
        b.append(Button("pin", pygame.Rect(left, y, m.u(240), h), "Change the PIN", kind="quiet"))
        y += h + gap
        self.labels.append(("Classroom", y + h // 2))
        b.append(
            Button(
                "rotation",
                pygame.Rect(left, y, m.u(240), h),
                "Station rotation",
                kind="quiet",
                caption="running" if self.ctx.rotation is not None else "",
            )
        )
        b.append(
            Button(
                "classlist",
                pygame.Rect(left + m.u(250), y, m.u(200), h),
                "Class list",
                kind="quiet",
            )
        )
        y += h + gap
        self.info_y = y + m.u(6)
        bh = m.u(56)
        b.append(
            Button(
                "back", pygame.Rect(m.u(16), H - m.u(16) - bh, m.u(180), bh), "Back", kind="quiet"
            )
        )
        b.append(
            Button(
                "quit",
                pygame.Rect(W - m.u(16) - m.u(240), H - m.u(16) - bh, m.u(240), bh),
                "Close the app",
                kind="quiet",
            )
        )
        b.append(
            Button(
                "report",
                pygame.Rect(W // 2 - m.u(110), H - m.u(16) - bh, m.u(220), bh),
                "Class report",
                kind="quiet",
            )
        )
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop()
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None and button.enabled:
                self.ctx.sounds.play("tap")
                self.press(button.name)

    def press(self, name: str) -> None:
        prefs = self.ctx.prefs.prefs
        if name.startswith("sound."):
            prefs.muted = name == "sound.off"
            self.ctx.sounds.muted = prefs.muted
            self.ctx.prefs.save()
        elif name.startswith("dice."):
            prefs.dice_input = name[5:]
            self.ctx.prefs.save()
        elif name == "pin":
            self.stack.push(PinPad(self.ctx, purpose="change"))
            return
        elif name == "classlist":
            from tabletop.ui.scenes.roster import ClassListScene

            self.stack.push(ClassListScene(self.ctx))
            return
        elif name == "rotation":
            from tabletop.ui.scenes.rotation import rotation_menu

            self.stack.push(rotation_menu(self.ctx))
            return
        elif name == "back":
            self.stack.pop()
            return
        elif name == "quit":
            self.stack.push(Confirm(self.ctx, "Close the app?", "Close", "Stay"))
            return
        elif name == "report":
            from tabletop.ui.scenes.report import ReportScene

            self.stack.push(ReportScene(self.ctx))
            return
        self.layout(self.m)

    def resume(self, result: Any) -> None:
        if result == "yes":
            self.ctx.quit_requested = True
        elif result == "changed":
            self.ctx.prefs.notice = "The PIN is changed."
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(self, surface, "Settings")
        for text, y in self.labels:
            painter.text(surface, text, (m.u(16), y), m.text, bold=True, anchor="midleft")
        painter.buttons(surface, self.buttons)
        camera = self.ctx.camera
        lines = [
            f"Screen layout: {m.name} ({m.width}x{m.height}).",
            "Camera: ready."
            if camera is not None and getattr(camera, "available", False)
            else "Camera: none found (dice are tapped or rolled).",
        ]
        trouble = self.ctx.journal.trouble  # the precise sentence, for the teacher
        for notice in (
            trouble and trouble[:1].upper() + trouble[1:] + ".",
            self.ctx.highscores.notice,
            self.ctx.prefs.notice,
        ):
            if notice:
                lines.append(notice)
        area = pygame.Rect(
            m.u(16), self.info_y, m.width - m.u(32), m.height - self.info_y - m.u(84)
        )
        painter.paragraph(surface, " ".join(lines), area, m.small, p.muted)


__all__ = ["PinPad", "SettingsScene", "pin_gate"]
