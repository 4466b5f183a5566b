"""Typing a name on the screen: big letter keys in ABC order (a real keyboard works too).

Pops with the name, or ``None`` when cancelled. A letter past the limit, or OK with no
name, is refused in a sentence between Cancel and OK.
"""

from __future__ import annotations

import pygame

from tabletop.ui.app import Context
from tabletop.ui.input import InputEvent, Key
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Screen, foot
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ-"
MAX_LENGTH = 14
KEYS = {"backspace": "key.delete", "return": "ok", "enter": "ok"}  # a real keyboard's


class NameScene(Screen):
    back, keys = "cancel", KEYS
    limit = MAX_LENGTH  # letters typed

    def __init__(self, ctx: Context, name: str = "", title: str = "Your name") -> None:
        super().__init__(ctx)
        self.name = "" if name.startswith("Player ") else name
        self.title = title

    def enter(self) -> None:
        """Say the title (the question) as the screen opens."""
        self.speak(self.title)

    def layout(self, metrics: Metrics) -> None:
        """Space and Delete beside the name, the letters under it as high as the room
        above the footer lets them be (less over a strip at the bottom), Cancel and OK."""
        m, margin, gap = metrics, metrics.u(16), metrics.u(8)
        row = pygame.Rect(margin, m.u(66), m.width - 2 * margin, m.u(60))
        edit = pygame.Rect(0, row.top, m.u(316), row.height)
        edit.right = row.right
        self.field = row.copy()
        self.field.width -= edit.width + gap
        top = row.bottom + m.u(12)
        kh = min(m.u(60), (foot(m, 0).top - gap - top) // 3 - gap)
        keys = grid(pygame.Rect(margin, top, row.width, kh), len(LETTERS), 9, gap)
        b = [
            Button(f"key.{ch}", rect, ch, kind="quiet", size=m.big)
            for rect, ch in zip(keys, LETTERS, strict=True)
        ]
        space, delete = grid(edit, 2, 2, gap)
        b.append(Button("key.space", space, "Space", kind="quiet"))
        b.append(Button("key.delete", delete, "\u2190 Delete", kind="quiet"))
        b.append(Button("cancel", foot(m, 200), "Cancel", kind="quiet"))
        b.append(Button("ok", foot(m, 240, "right"), "OK", enabled=bool(self.name.strip())))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Key) and event.text and (event.text.isalpha() or event.text in " -"):
            self.type(event.text)
        else:
            super().handle(event)

    def refuse(self, name: str) -> None:
        """OK with no name yet (the only button that is ever off)."""
        self.say(child_message("names.empty"), good=False)

    def type(self, text: str) -> None:
        if len(self.name) >= self.limit:
            self.say(child_message("names.full", limit=self.limit), good=False)
            return
        self.message = ""
        ch = text[0]
        start = not self.name or self.name[-1] in " -"
        self.name += ch.upper() if start else ch.lower()
        self.layout(self.m)

    def press(self, name: str) -> None:
        if name == "key.space":
            if self.name and not self.name.endswith(" "):
                self.type(" ")
        elif name == "key.delete":
            self.name, self.message = self.name[:-1], ""
            self.layout(self.m)
        elif name.startswith("key."):
            self.type(name[4:])
        elif name == "cancel":
            self.stack.pop(None)
        elif name == "ok" and self.name.strip():
            self.stack.pop(self.name.strip())

    def draw(self, surface: pygame.Surface) -> None:
        painter, m = self.backdrop(surface, self.title), self.m
        p = painter.p
        painter.box(surface, self.field, p.panel, p.line, 3, m.u(8))
        at, width = (self.field.left + m.u(14), self.field.centery), self.field.width - m.u(28)
        painter.text(
            surface, self.name + "_", at, m.title, bold=True, anchor="midleft", max_width=width
        )
        painter.buttons(surface, self.buttons)
        if self.message:  # between Cancel and OK
            cancel, ok = self.buttons[-2].rect, self.buttons[-1].rect
            room = pygame.Rect(
                cancel.right + m.u(12), ok.top, ok.left - cancel.right - m.u(24), ok.height
            )
            painter.paragraph(surface, self.message, room, m.text, p.bad, bold=True, align="center")


__all__ = ["NameScene"]
