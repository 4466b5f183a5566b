"""The teacher's settings, behind the teacher PIN (``tabletop.ui.scenes.pin``)."""

from __future__ import annotations

from typing import Any

import pygame

from tabletop.ui.app import Scene
from tabletop.ui.input import Back, InputEvent, Tap
from tabletop.ui.scenes.common import Confirm, header
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit


class SettingsScene(Scene):
    speaks = False  # a teacher's screen

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
        sound = "off" if prefs.muted else "only" if prefs.speech == "off" else "voice"
        speaker = self.ctx.speaker
        for i, (name, label) in enumerate(
            (("sound.voice", "Sounds + voice"), ("sound.only", "Sounds only"), ("sound.off", "Off"))
        ):
            b.append(
                Button(
                    name,
                    pygame.Rect(left + i * m.u(170), y, m.u(160), h),
                    label,
                    kind="toggle",
                    selected=name == f"sound.{sound}",
                    caption="no voice here"
                    if name == "sound.voice" and not speaker.available
                    else "",
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
        if name == "sound.off":
            self.ctx.set_sound(muted=True)
        elif name.startswith("sound."):
            self.ctx.set_sound(muted=False, speech="off" if name == "sound.only" else "on")
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
        for notice in (self.ctx.highscores.notice, self.ctx.prefs.notice):
            if notice:
                lines.append(notice)
        area = pygame.Rect(
            m.u(16), self.info_y, m.width - m.u(32), m.height - self.info_y - m.u(84)
        )
        painter.paragraph(surface, " ".join(lines), area, m.small, p.muted)


__all__ = ["SettingsScene"]
