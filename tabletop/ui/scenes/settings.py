"""The teacher's settings, behind the teacher PIN (``tabletop.ui.scenes.pin``), and the
teacher's screens' declarative layout:
:class:`Row`\\ s of :class:`Item`\\ s laid out by :func:`spread`, a :func:`footer`, and one
:meth:`TeacherScreen.draw` (title, row labels, buttons, message slot)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tabletop.engine.words import sentence
from tabletop.ui.scenes.common import Screen, foot
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

Words = tuple[str, tuple[int, int], str, int]  # text, point, anchor, the width it must fit


@dataclass(frozen=True)
class Item:
    """One cell of a :class:`Row`: a button named ``name``, or, with no name, ``label``
    as words centred in the cell (a stepper's value). ``width`` in base units; 0: an
    equal share of what the fixed widths leave."""

    name: str
    label: str
    width: int = 0
    kind: str = "quiet"
    selected: bool = False
    caption: str = ""
    enabled: bool = True
    size: int | None = None  # the label's text size (the body text's when None)


@dataclass(frozen=True)
class Row:
    """A row of a screen: ``label`` at its left (in the label column; a row without one
    spans the whole width), then its items, ``gap`` base units apart; with ``columns``,
    a grid that many across (as many lines as the items need). ``height`` in pixels
    (0: 52 base units) is each line's; a row without items is a heading."""

    label: str
    items: Sequence[Item]
    height: int = 0
    columns: int = 0
    gap: int = 10
    rows: int = 0  # with ``columns``: the grid fills column by column, this many down


def stepper(key: str, value: str) -> tuple[Item, Item, Item]:
    """``<key>.-`` and ``<key>.+`` buttons with ``value`` between them."""
    return Item(f"{key}.-", "\u2212", 52), Item("", value), Item(f"{key}.+", "+", 52)


def spread(
    m: Metrics, area: pygame.Rect, rows: Sequence[Row], label: int = 0, gap: int = 10
) -> tuple[list[Button], list[Words]]:
    """The rows one under another from ``area``'s top left, ``gap`` base units apart,
    their items right of a ``label`` units wide column for the rows' labels: the
    buttons, and the words to draw (the labels, midleft; a stepper's value)."""
    buttons: list[Button] = []
    words: list[Words] = []
    y = area.top
    for row in rows:
        h, between, room = row.height or m.u(52), m.u(row.gap), m.u(label) if row.label else 0
        line = pygame.Rect(area.left + room, y, area.width - room, h)
        if row.label:
            words.append((row.label, (area.left, y + h // 2), "midleft", room - m.u(4)))
        if row.columns:
            cells = grid(line, len(row.items), row.columns, between, rows=row.rows)
        else:
            fixed = sum(m.u(i.width) for i in row.items) + between * (len(row.items) - 1)
            share = (line.width - fixed) // max(1, sum(not i.width for i in row.items))
            cells, x = [], line.left
            for item in row.items:
                cells.append(pygame.Rect(x, y, m.u(item.width) if item.width else share, h))
                x = cells[-1].right + between
        for rect, i in zip(cells, row.items, strict=True):
            if i.name:
                buttons.append(
                    Button(i.name, rect, i.label, i.enabled, i.kind, i.selected, i.caption, i.size)
                )
            else:
                words.append((i.label, rect.center, "center", rect.width))
        y = max((c.bottom for c in cells), default=y + h) + m.u(gap)
    return buttons, words


class TeacherScreen(Screen):
    """A teacher's screen (Settings and what is behind it): it does not speak.

    :meth:`draw` draws ``title`` (and ``subtitle``), ``words`` (from :func:`spread`),
    the buttons and the message: in ``message_rect``, or without one over the subtitle;
    when there is no message, :meth:`note` (muted) is shown there."""

    speaks = False
    title = ""
    subtitle = ""
    words: Sequence[Words] = ()
    message_rect: pygame.Rect | None = None

    def note(self) -> str:
        """What the message slot shows, muted, when there is no message."""
        return ""

    def draw(self, surface: pygame.Surface) -> None:
        over = self.message and self.message_rect is None  # over the subtitle
        painter = self.backdrop(surface, self.title, "" if over else self.subtitle)
        m, p = self.m, painter.p
        for text, at, anchor, width in self.words:
            painter.text(surface, text, at, m.text, bold=True, anchor=anchor, max_width=width)
        painter.buttons(surface, self.buttons)
        top, room = m.u(12) + m.title, self.message_rect
        room = room or pygame.Rect(m.u(18), top, m.width - m.u(36), m.u(84) - m.title)
        if self.message:
            ink = p.good if self.good else p.bad
            painter.paragraph(surface, self.message, room, m.text, ink, bold=True)
        elif note := self.note():
            painter.paragraph(surface, note, room, m.small, p.muted)


def footer(
    m: Metrics,
    back: tuple[str, str],
    go: tuple[str, str, int] | None = None,
    kind: str = "primary",
    centre: tuple[str, str, int] | None = None,
) -> list[Button]:
    """A teacher's screen's footer: ``back`` (name, label) bottom left, ``go`` (name,
    label, width) of ``kind`` bottom right, then ``centre`` (quiet) between them."""
    b = [Button(back[0], foot(m, 180), back[1], kind="quiet")]
    for spec, where, look in ((go, "right", kind), (centre, "centre", "quiet")):
        if spec is not None:
            name, label, width = spec
            b.append(Button(name, foot(m, width, where), label, kind=look))
    return b


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
        chosen = {f"sound.{sound}", f"dice.{prefs.dice_input}"}
        no_voice = "" if self.ctx.speaker.available else "no voice here"
        running = "running" if self.ctx.rotation is not None else ""

        def toggles(*items: tuple[str, str, str]) -> list[Item]:
            return [Item(n, t, 160, "toggle", n in chosen, c) for n, t, c in items]

        rows = (
            Row("Sound", toggles(("sound.voice", "Sounds + voice", no_voice),
                                 ("sound.only", "Sounds only", ""),
                                 ("sound.off", "Off", ""))),
            Row("Dice come from", toggles(("dice.camera", "Camera", ""),
                                          ("dice.tap", "Tapping", ""),
                                          ("dice.virtual", "The device", ""))),
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


__all__ = ["Item", "Row", "Screen", "SettingsScene", "TeacherScreen", "footer", "spread", "stepper"]
