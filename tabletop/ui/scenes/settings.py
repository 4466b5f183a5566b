"""The teacher's settings, behind the teacher PIN (``tabletop.ui.scenes.pin``), and the
teacher's screens' one :meth:`TeacherScreen.draw` (title, row labels, buttons, message
slot) over their rows (:func:`~tabletop.ui.scenes.common.spread`)."""

from __future__ import annotations

import importlib

import pygame

from tabletop.engine.words import sentence
from tabletop.ui.scenes.common import Item, Row, Screen, footer, spread, toggles
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.theme import Metrics


class TeacherScreen(Screen):
    """A teacher's screen (Settings and what is behind it): it does not speak.

    :meth:`draw` draws ``title`` (and ``subtitle``), ``words``, the buttons and the
    message: in ``message_rect``, or without one over the subtitle; when there is no
    message, :meth:`note` (muted) is shown there."""

    speaks = False
    title = ""
    subtitle = ""
    message_rect: pygame.Rect | None = None

    def note(self) -> str:
        """What the message slot shows, muted, when there is no message."""
        return ""

    def draw(self, surface: pygame.Surface) -> None:
        over = self.message and self.message_rect is None  # over the subtitle
        painter = self.backdrop(surface, self.title, "" if over else self.subtitle)
        m, room = self.m, self.message_rect
        painter.buttons(surface, self.buttons)
        room = room or pygame.Rect(m.u(18), m.u(12) + m.title, m.width - m.u(36), m.u(84) - m.title)
        self.draw_message(surface, room, self.note(), m.small)


# The teacher's screens behind Settings' buttons: (module, factory taking the context).
SCREENS = {
    "classlist": ("tabletop.ui.scenes.roster", "ClassListScene"),
    "rotation": ("tabletop.ui.scenes.rotation_editor", "rotation_menu"),
    "report": ("tabletop.ui.scenes.report", "ReportScene"),
}


class SettingsScene(TeacherScreen):
    title = "Settings"

    def layout(self, metrics: Metrics) -> None:
        m, prefs = metrics, self.ctx.prefs.prefs
        sound = "off" if prefs.muted else "only" if prefs.speech == "off" else "voice"
        no_voice = "" if self.ctx.speaker.available else "no voice here"
        running = "running" if self.ctx.rotation is not None else ""
        sounds = (("voice", "Sounds + voice", no_voice), ("only", "Sounds only"), ("off", "Off"))
        dice = (("camera", "Camera"), ("tap", "Tapping"), ("virtual", "The device"))
        rows = (
            Row("Sound", toggles("sound.", sounds, {sound}, 160)),
            Row("Dice come from", toggles("dice.", dice, {prefs.dice_input}, 160)),
            Row("Teacher PIN", (Item("pin", "Change the PIN", 240),)),
            Row("Classroom", (Item("rotation", "Station rotation", 240, caption=running),
                              Item("classlist", "Class list", 200))),
        )  # fmt: skip
        area = pygame.Rect(m.u(16), m.u(80), m.width - m.u(32), 0)
        b, self.words = spread(m, area, rows, label=230)
        top = max(button.rect.bottom for button in b) + m.u(10) + m.u(6)  # under the rows
        self.message_rect = pygame.Rect(m.u(16), top, m.width - m.u(32), m.height - top - m.u(84))
        close, report = ("quit", "Close the app", 240), ("report", "Class report", 220)
        self.buttons = [*b, *footer(m, ("back", "Back"), close, "quiet", report)]

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

    def note(self) -> str:
        """The device's state, for the teacher: the screen, the camera, the journal's
        trouble (its precise sentence) and the notices: the journal's from when it was
        opened (a damaged file moved aside) while it has had no trouble since."""
        m, ready = self.m, getattr(self.ctx.camera, "available", False)
        journal = self.ctx.journal
        trouble = journal.trouble
        lines = (
            f"Screen layout: {m.name} ({m.width}x{m.height}).",
            "Camera: ready." if ready else "Camera: none found (dice are tapped or rolled).",
            sentence(trouble or ""),
            journal.notice if journal.trouble_seq == 0 else None,
            self.ctx.highscores.notice,
            self.ctx.prefs.notice,
        )
        return " ".join(filter(None, lines))
