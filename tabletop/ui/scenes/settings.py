"""The teacher's settings, behind the teacher PIN (``tabletop.ui.scenes.pin``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import pygame

from tabletop.ui.app import Scene
from tabletop.ui.input import InputEvent
from tabletop.ui.scenes.common import Confirm, foot, header, route_to_press
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, Painter


class Screen(Scene):
    """A full screen: taps on its buttons are pressed, Back presses ``back``; :meth:`say`
    sets ``message``, :meth:`ask` pushes a question and hands its answer on;
    :meth:`backdrop` starts its drawing with its title."""

    back = "back"
    keys: Mapping[str, str] | None = None  # a real keyboard's keys for buttons (route_to_press)
    good = True  # whether ``message`` says that something went well
    then: Callable[[Any], None] | None = None  # takes the answer of the screen asked

    def ask(self, scene: Scene, then: Callable[[Any], None]) -> None:
        """Push ``scene``; ``then`` gets its answer when it pops with one (not None)."""
        self.then = then
        self.stack.push(scene)

    def confirm(self, question: str, yes: str, no: str, then: Callable[[], None]) -> None:
        """Ask ``question``; ``then`` is called when the answer is ``yes``."""
        self.ask(Confirm(self.ctx, question, yes, no), lambda a: then() if a == "yes" else None)

    def resume(self, result: Any) -> None:
        then, self.then = self.then, None
        if then is not None and result is not None:
            then(result)
        if self.stack.top is self:
            self.layout(self.m)

    def say(self, message: str, good: bool = True) -> None:
        """Show ``message``; a problem (``good=False``) sounds wrong too."""
        self.message, self.good = message, good
        if not good:
            self.ctx.sounds.play("wrong")

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back=self.back, keys=self.keys)

    def press(self, name: str) -> None:
        """One of the screen's buttons."""

    def backdrop(self, surface: pygame.Surface, title: str, subtitle: str = "") -> Painter:
        surface.fill(self.ctx.painter.p.background)
        header(self, surface, title, subtitle)
        return self.ctx.painter


class TeacherScreen(Screen):
    """A teacher's screen (Settings and what is behind it): it does not speak."""

    speaks = False


def footer(
    m: Metrics,
    back: tuple[str, str],
    go: tuple[str, str, int] | None = None,
    kind: str = "primary",
) -> list[Button]:
    """A teacher's screen's footer: ``back`` (name, label) bottom left, ``go`` (name,
    label, width) of ``kind`` bottom right."""
    b = [Button(back[0], foot(m, 180), back[1], kind="quiet")]
    if go is not None:
        name, label, width = go
        b.append(Button(name, foot(m, width, "right"), label, kind=kind))
    return b


# The teacher's screens behind Settings' buttons: (module, factory taking the context).
SCREENS = {
    "classlist": ("tabletop.ui.scenes.roster", "ClassListScene"),
    "rotation": ("tabletop.ui.scenes.rotation_editor", "rotation_menu"),
    "report": ("tabletop.ui.scenes.report", "ReportScene"),
}


class SettingsScene(TeacherScreen):
    def layout(self, metrics: Metrics) -> None:
        m = metrics
        prefs = self.ctx.prefs.prefs
        left, h, gap = m.u(16) + m.u(230), m.u(52), m.u(10)
        sound = "off" if prefs.muted else "only" if prefs.speech == "off" else "voice"
        chosen = {f"sound.{sound}", f"dice.{prefs.dice_input}"}
        no_voice = "" if self.ctx.speaker.available else "no voice here"
        running = "running" if self.ctx.rotation is not None else ""
        # (label, buttons: (name, text, offset and width in units, caption))
        rows = (
            ("Sound", (("sound.voice", "Sounds + voice", 0, 160, no_voice),
                       ("sound.only", "Sounds only", 170, 160, ""),
                       ("sound.off", "Off", 340, 160, ""))),
            ("Dice come from", (("dice.camera", "Camera", 0, 160, ""),
                                ("dice.tap", "Tapping", 170, 160, ""),
                                ("dice.virtual", "The device", 340, 160, ""))),
            ("Teacher PIN", (("pin", "Change the PIN", 0, 240, ""),)),
            ("Classroom", (("rotation", "Station rotation", 0, 240, running),
                           ("classlist", "Class list", 250, 200, ""))),
        )  # fmt: skip
        b: list[Button] = []
        self.labels: list[tuple[str, int]] = []
        y = m.u(80)
        for label, row in rows:
            self.labels.append((label, y + h // 2))
            for name, text, x, w, caption in row:
                kind = "toggle" if name.startswith(("sound.", "dice.")) else "quiet"
                rect, on = pygame.Rect(left + m.u(x), y, m.u(w), h), name in chosen
                b.append(Button(name, rect, text, kind=kind, selected=on, caption=caption))
            y += h + gap
        self.info_y = y + m.u(6)
        report = Button("report", foot(m, 220, "centre"), "Class report", kind="quiet")
        back_and_quit = footer(m, ("back", "Back"), ("quit", "Close the app", 240), "quiet")
        self.buttons = [*b, *back_and_quit, report]

    def press(self, name: str) -> None:
        if name in SCREENS:
            module, factory = SCREENS[name]
            self.stack.push(getattr(importlib.import_module(module), factory)(self.ctx))
        elif name == "pin":
            self.ask(PinPad(self.ctx, purpose="change"), self.pin_changed)
        elif name == "quit":
            self.confirm("Close the app?", "Close", "Stay", self.quit)
        elif name == "back":
            self.stack.pop()
        else:
            if name == "sound.off":
                self.ctx.set_sound(muted=True)
            elif name.startswith("sound."):
                self.ctx.set_sound(muted=False, speech="off" if name == "sound.only" else "on")
            elif name.startswith("dice."):
                self.ctx.prefs.prefs.dice_input = name[5:]
                self.ctx.prefs.save()
            self.layout(self.m)

    def pin_changed(self, result: str) -> None:
        if result == "changed":
            self.ctx.prefs.notice = "The PIN is changed."

    def quit(self) -> None:
        self.ctx.quit_requested = True

    def draw(self, surface: pygame.Surface) -> None:
        painter = self.backdrop(surface, "Settings")
        m, p = self.m, painter.p
        for text, y in self.labels:
            painter.text(surface, text, (m.u(16), y), m.text, bold=True, anchor="midleft")
        painter.buttons(surface, self.buttons)
        ready = getattr(self.ctx.camera, "available", False)
        trouble = self.ctx.journal.trouble  # the precise sentence, for the teacher
        lines = (
            f"Screen layout: {m.name} ({m.width}x{m.height}).",
            "Camera: ready." if ready else "Camera: none found (dice are tapped or rolled).",
            trouble and trouble[:1].upper() + trouble[1:] + ".",
            self.ctx.highscores.notice,
            self.ctx.prefs.notice,
        )
        area = pygame.Rect(m.u(16), self.info_y, m.width - m.u(32), 0)
        area.height = m.height - self.info_y - m.u(84)
        painter.paragraph(surface, " ".join(filter(None, lines)), area, m.small, p.muted)


__all__ = ["Screen", "SettingsScene", "TeacherScreen"]
