"""Pieces several scenes share: the dialog frame, a question with a row of answers (yes/no
the commonest), the full screen with its header bar, and the screens' declarative layout:
:class:`Row`\\ s of :class:`Item`\\ s laid out by :func:`spread`, a :func:`footer`."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from tabletop.ui.app import Context, Scene, SceneStack
from tabletop.ui.input import Back, InputEvent, Key, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.speech import sentences
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, Painter, grid, hit


class Dialog(Scene):
    """A panel over the scene below (which stays visible, shaded): in the middle, or kept
    off ``beside`` (the cards it asks about): at the side of the screen with more room
    beside them, as wide as that room; above or below them, across the screen, as high
    as that room, where they span the screen's width or where asked (``band``)."""

    opaque = False
    back_choice = ""
    text = ""  # the words under the title
    keys: Mapping[str, str] | None = None  # a real keyboard's keys for buttons (route_to_press)

    def __init__(
        self,
        ctx: Context,
        title: str,
        size: tuple[int, int] = (560, 360),
        *,
        beside: pygame.Rect | None = None,
        band: bool = False,
    ) -> None:
        super().__init__(ctx)
        self.title = title
        self.base_size = size
        self.beside, self.band = beside, band
        self.panel = pygame.Rect(0, 0, 0, 0)

    def layout(self, metrics: Metrics) -> None:
        w, h = (metrics.u(self.base_size[0]), metrics.u(self.base_size[1]))
        self.panel = pygame.Rect(0, 0, min(w, metrics.width - 8), min(h, metrics.height - 8))
        self.panel.center = (metrics.width // 2, metrics.height // 2)
        if self.beside is not None:
            gap, (width, height), cards = metrics.u(8), metrics.size, self.beside
            left, right = cards.left - gap, width - cards.right - gap
            above, below = cards.top - gap, height - cards.bottom - gap
            if self.band or max(left, right) <= 0:  # a band above or below them
                self.panel.update(4, 4, width - 8, min(self.panel.height, max(above, below)))
                if below >= above:
                    self.panel.bottom = height - 4
            else:
                self.panel.width = min(self.panel.width, max(left, right))
                self.panel.left = width - 4 - self.panel.width if right >= left else 4

    def enter(self) -> None:
        """Opened: its title and words said, as a prompt (not its buttons' words)."""
        self.speak(sentences(self.title, self.text))

    def body(self) -> pygame.Rect:
        """The panel below the title."""
        m, p = self.m, self.panel
        top = p.top + m.u(16) + m.title
        return pygame.Rect(p.left + m.u(16), top, p.width - m.u(32), p.bottom - m.u(16) - top)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_frame(surface)
        self.ctx.painter.buttons(surface, self.buttons)

    def draw_frame(self, surface: pygame.Surface) -> None:
        """The shade over the scene below, the panel and its title (no buttons), on two
        lines where one at 16 px would cut a word ("Player 2: COUNT META ca…")."""
        painter, m, p = self.ctx.painter, self.m, self.panel
        painter.shade(surface)
        painter.box(surface, p, painter.p.panel, painter.p.line, 3, m.u(12))
        width, at = p.width - m.u(24), (p.centerx, p.top + m.u(12))
        words, size = painter.fit_lines(self.title, m.text + 2, width, m.u(36), bold=True)
        if len(words) > 1:  # centred where one line is, above the body (p.top + 50)
            room = pygame.Rect(p.left + m.u(7), p.top + m.u(4), width + m.u(10), m.u(44))
            painter.lines(surface, [(word, size, True) for word in words], room, painter.p.ink)
        else:
            painter.text(
                surface, self.title, at, m.text + 2, bold=True, anchor="midtop", max_width=width
            )

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, self.back_choice, refuse=self.refuse, keys=self.keys)

    def press(self, name: str) -> None:
        """An enabled button is chosen; Back chooses ``back_choice`` ("": closes with None)."""
        if name:
            self.choose(name)
        else:
            self.stack.pop(None)

    def refuse(self, name: str) -> None:
        """A tap on a button that is off (the default: nothing)."""

    def choose(self, name: str) -> None:
        self.stack.pop(name)


class Choices(Dialog):
    """A title, ``text`` (a sentence or a few, wrapped) and a row of answers across the
    foot (``(name, label, kind)`` each, ``gap`` apart); pops with the name chosen, the
    ``cancel`` answer (if any) and Back with None."""

    def __init__(
        self,
        ctx: Context,
        title: str,
        text: str,
        answers: Sequence[tuple[str, str, str]],
        *,
        cancel: str = "",
        size: tuple[int, int] = (640, 300),
        gap: int = 8,
        align: str = "left",
    ) -> None:
        super().__init__(ctx, title, size)
        self.text = text
        self.answers = tuple(answers)
        self.cancel, self.gap, self.align = cancel, gap, align

    def layout(self, metrics: Metrics) -> None:
        """The answers of one width across the foot of the body, the last flush right."""
        super().layout(metrics)
        body, h, n = self.body(), metrics.u(56), len(self.answers)
        row = pygame.Rect(body.left, body.bottom - h, body.width, h)
        cells = grid(row, n, n, metrics.u(self.gap))
        cells[-1].right = body.right
        self.buttons = [
            Button(name, rect, label, kind=kind)
            for rect, (name, label, kind) in zip(cells, self.answers, strict=True)
        ]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.text:
            body = self.body()
            room = pygame.Rect(body.left, body.top, body.width, self.buttons[0].rect.top - body.top)
            self.ctx.painter.paragraph(surface, self.text, room, self.m.text, align=self.align)

    def choose(self, name: str) -> None:
        self.stack.pop(None if name == self.cancel else name)


class Confirm(Choices):
    """A yes/no question; pops with ``"yes"`` or ``"no"``.

    The primary (filled, right-hand) button is "yes"; with ``safe=True`` it is "no", for
    questions whose "yes" loses something (leaving a game). ``detail``: a sentence or two
    under the question."""

    back_choice = "no"

    def __init__(
        self,
        ctx: Context,
        question: str,
        yes: str = "Yes",
        no: str = "No",
        detail: str = "",
        *,
        safe: bool = False,
    ) -> None:
        first, second = (("yes", yes), ("no", no)) if safe else (("no", no), ("yes", yes))
        answers = ((*first, "quiet"), (*second, "primary"))
        size = (520, 260) if detail else (520, 220)
        super().__init__(ctx, question, detail, answers, size=size, gap=16, align="center")

    @property
    def detail(self) -> str:
        """The sentence or two under the question (the dialog's ``text``)."""
        return self.text


class Screen(Scene):
    """A full screen: taps on its buttons are pressed (on one that is off,
    :meth:`refuse`), Back presses ``back``; :meth:`say` sets ``message``, :meth:`ask`
    pushes a question and hands its answer on; :meth:`backdrop` starts its drawing."""

    back = "back"
    keys: Mapping[str, str] | None = None  # a real keyboard's keys for buttons (route_to_press)
    good = True  # whether ``message`` says that something went well
    then: Callable[[Any], None] | None = None  # takes the answer of the screen asked
    cancelled: Callable[[], None] | None = None  # called when it closes with none
    words: Sequence[Words] = ()  # drawn by :meth:`backdrop` (from :func:`spread`)

    def ask(
        self,
        scene: Scene,
        then: Callable[[Any], None],
        cancelled: Callable[[], None] | None = None,
    ) -> None:
        """Push ``scene``; ``then`` gets its answer when it pops with one (not None), else
        ``cancelled`` is called (Cancel, Back)."""
        self.then, self.cancelled = then, cancelled
        self.stack.push(scene)

    def confirm(self, question: str, yes: str, no: str, then: Callable[[], None]) -> None:
        """Ask ``question``; ``then`` is called when the answer is ``yes``."""
        self.ask(Confirm(self.ctx, question, yes, no), lambda a: then() if a == "yes" else None)

    def resume(self, result: Any) -> None:
        (then, cancelled), self.then, self.cancelled = (self.then, self.cancelled), None, None
        if then is not None and result is not None:
            then(result)
        elif cancelled is not None and result is None:
            cancelled()
        if self.stack.top is self:
            self.layout(self.m)

    def say(self, message: str, good: bool = True) -> None:
        """Show ``message``; a problem (``good=False``) sounds wrong too."""
        self.message, self.good = message, good
        if not good:
            self.ctx.sounds.play("wrong")

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, self.back, refuse=self.refuse, keys=self.keys)

    def press(self, name: str) -> None:
        """One of the screen's buttons."""

    def refuse(self, name: str) -> None:
        """A tap on one of the screen's buttons that is off (the default: nothing)."""

    def backdrop(
        self, surface: pygame.Surface, title: str, subtitle: str = "", bad: bool = False
    ) -> Painter:
        """The background, and the title at the top left; the subtitle under it muted,
        or (``bad``) in the refusals' colour; the ``words``."""
        painter, m = self.ctx.painter, self.m
        surface.fill(painter.p.background)
        painter.text(surface, title, (m.u(16), m.u(10)), m.title, bold=True)
        if subtitle:
            colour = painter.p.bad if bad else painter.p.muted
            painter.text(surface, subtitle, (m.u(18), m.u(14) + m.title), m.small, colour)
        for text, at, anchor, width in self.words:
            painter.text(surface, text, at, m.text, bold=True, anchor=anchor, max_width=width)
        return painter

    def draw_message(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        note: str = "",
        note_size: int | None = None,
        max_lines: int | None = None,
    ) -> None:
        """The message in ``rect``, bold: green when it went well (``good``), red when
        not; with no message, ``note`` (muted, at ``note_size``), if any."""
        painter, m = self.ctx.painter, self.m
        if self.message:
            ink = painter.p.good if self.good else painter.p.bad
            painter.paragraph(
                surface, self.message, rect, m.text, ink, bold=True, max_lines=max_lines
            )
        elif note:
            painter.paragraph(surface, note, rect, note_size or m.text, painter.p.muted)


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
    (0: 52 base units) is each line's; a row without items is a heading. ``build``
    lays out the row's buttons itself, given its first line (the next row goes under
    them)."""

    label: str
    items: Sequence[Item] = ()
    height: int = 0
    columns: int = 0
    gap: int = 10
    rows: int = 0  # with ``columns``: the grid fills column by column, this many down
    most: int = 0  # with ``columns``: no cell wider than this (base units), flush left
    build: Callable[[pygame.Rect], list[Button]] | None = None  # instead of ``items``


def stepper(key: str, value: str) -> tuple[Item, Item, Item]:
    """``<key>.-`` and ``<key>.+`` buttons with ``value`` between them."""
    return Item(f"{key}.-", "\u2212", 52), Item("", value), Item(f"{key}.+", "+", 52)


def toggles(
    prefix: str,
    choices: Iterable[Sequence[str]],
    chosen: Container[str | None],
    width: int = 0,
    on: Callable[[str], bool] = lambda value: True,
) -> list[Item]:
    """Toggles ``<prefix><value>`` for ``choices`` (value, label and a caption if any),
    ``width`` base units wide (0: a share): those in ``chosen`` selected, those ``on``
    refuses off."""
    return [
        Item(prefix + value, label, width, "toggle", value in chosen, "".join(caption), on(value))
        for value, label, *caption in choices
    ]


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
        if row.build is not None:
            made = row.build(line)
            buttons += made
            cells = [b.rect for b in made]
        elif row.columns:
            if row.most:
                line.width = min(line.width, row.columns * (m.u(row.most) + between) - between)
            cells = grid(line, len(row.items), row.columns, between, rows=row.rows)
        else:
            fixed = sum(m.u(i.width) for i in row.items) + between * (len(row.items) - 1)
            share = (line.width - fixed) // max(1, sum(not i.width for i in row.items))
            cells, x = [], line.left
            for item in row.items:
                cells.append(pygame.Rect(x, y, m.u(item.width) if item.width else share, h))
                x = cells[-1].right + between
        for rect, i in zip(cells if row.build is None else (), row.items, strict=True):
            if i.name:
                buttons.append(
                    Button(i.name, rect, i.label, i.enabled, i.kind, i.selected, i.caption, i.size)
                )
            else:
                words.append((i.label, rect.center, "center", rect.width))
        y = max((c.bottom for c in cells), default=y + h) + m.u(gap)
    return buttons, words


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


def ask_leave(ctx: Context, question: str = "Leave this game?", leave: str = "Leave") -> Confirm:
    """Every game's Leave question: "Keep playing" is the primary button; "yes" leaves, and
    the dialog says what that costs (a game left is journaled as abandoned: Home does not
    offer to carry it on, reports and high scores leave it out)."""
    return Confirm(ctx, question, leave, "Keep playing", child_message("ui.leave"), safe=True)


def go_home(stack: SceneStack) -> None:
    """Leave a game for Home; a game opened from a rotation's station screen goes back
    to it (the next group starts there); one not opened from either, to what opened it."""
    from tabletop.ui.scenes.home import HomeScene
    from tabletop.ui.scenes.rotation import StationScene

    kind = next((k for k in (StationScene, HomeScene) if stack.find(k) is not None), None)
    if kind is not None:
        stack.unwind_to(kind)
    else:
        stack.pop()


def home_and_again(
    m: Metrics,
    again: str = "Play again",
    *,
    width: int = 260,
    enabled: bool = True,
    name: str = "again",
) -> list[Button]:
    """The end screens' footer: "Home" bottom left, the replay button (``name``) bottom
    right."""
    return [
        Button("home", foot(m, 200), "Home", kind="quiet"),
        Button(name, foot(m, width, "right"), again, enabled=enabled),
    ]


def foot(m: Metrics, width: int, where: str = "left") -> pygame.Rect:
    """A button's place in a full screen's footer: ``width`` base units wide, at the
    bottom ``left``, ``centre`` or ``right``, a margin in from the edges."""
    w, h = m.u(width), m.u(56)
    x = {"left": m.u(16), "centre": (m.width - w) // 2, "right": m.width - m.u(16) - w}[where]
    return pygame.Rect(x, m.height - m.u(16) - h, w, h)


def route_to_press(
    scene: Any,
    event: InputEvent,
    back: str = "home",
    *,
    refuse: Callable[[str], None] | None = None,
    keys: Mapping[str, str] | None = None,
) -> None:
    """Back presses ``back``; a tap on an enabled button, or a key standing for one
    (``keys``: a key's target by its name or text; ``"digit"``'s, with ``{}`` for the
    digit, for any digit), clicks and presses its name; ``refuse`` (if any) gets the
    name of a button that is off."""
    if isinstance(event, Back):
        scene.press(back)
        return
    button = None
    if isinstance(event, Tap):
        button = hit(scene.buttons, event.pos)
    elif isinstance(event, Key) and keys is not None:
        name = keys.get("digit", "").format(event.text) if event.text.isdigit() else None
        name = name or keys.get(event.name) or keys.get(event.text)
        button = scene.target(name) if name else None
    if button is not None:
        press_button(scene, button, refuse)


def press_button(scene: Any, button: Button, refuse: Callable[[str], None] | None = None) -> None:
    """An enabled ``button`` clicks and is pressed (``scene.press`` its name); one that is
    off goes to ``refuse`` (if any), by name."""
    if button.enabled:
        scene.ctx.sounds.play("tap")
        scene.press(button.name)
    elif refuse is not None:
        refuse(button.name)


__all__ = [
    "Choices",
    "Confirm",
    "Dialog",
    "Item",
    "Row",
    "Screen",
    "Words",
    "ask_leave",
    "foot",
    "footer",
    "go_home",
    "home_and_again",
    "press_button",
    "route_to_press",
    "spread",
    "stepper",
    "toggles",
]
