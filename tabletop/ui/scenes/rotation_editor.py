"""The teacher's screens for station rotations, behind the PIN: the plan
(:class:`RotationEditor`: stations, groups, times; Start runs it here;
:class:`StationPicker`: one station's game, mode and options; :class:`GroupsScene`: the
groups' names), and :class:`RotationControl` for the rotation that runs (Pause, Resume,
+1 minute, Skip, End), each declared as rows (:mod:`tabletop.ui.scenes.settings`). The
teacher menu's way in is :func:`rotation_menu`."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import count
from typing import Any

import pygame

from tabletop.classroom.roster import Roster
from tabletop.classroom.rotation import (
    GAME_TITLES,
    MAX_STATIONS,
    MINUTES,
    STATION_MODES,
    STATION_OPTIONS,
    TRANSITION,
    WARNING,
    Plan,
    Station,
    last_plan,
    start_rotation,
)
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import plural, sentence
from tabletop.ui.app import Context, Scene
from tabletop.ui.scenes.common import Item, Row, footer, spread, stepper, toggles
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rotation import RotationRunner, run_rotation
from tabletop.ui.scenes.settings import TeacherScreen
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Painter

log = logging.getLogger(__name__)

DEFAULT_GAMES = ("mathe-meister", "math-wars-meta", "mecs", "math-arena")
FOLLOWS = "This station follows the teacher's dashboard."
NOW = ("pause", "resume", "extend")  # the controls that act at once
CONTROLS = dict(pause="Pause", resume="Resume", extend="+1 minute", skip="Skip", end="End")
PHASES = dict(play="playing", warning="last minutes", transition="groups are moving", done="over")
QUESTIONS = {"skip": "Time's up now for this rotation?", "end": "End the whole station rotation?"}


def class_groups(journal: Any) -> list[str]:
    """The class list's groups ([] when the journal cannot be read)."""
    try:
        return Roster(journal).groups()
    except sqlite3.Error as exc:
        log.warning("rotation: the class list's groups could not be read: %s", exc)
        return []


@dataclass
class Draft:
    """The plan being edited (mutable; :meth:`plan` validates it): the :class:`Plan`'s
    fields (``rounds`` 0: one per station), and ``here``, this device's station (0-based)."""

    stations: list[Station]
    groups: list[str]
    minutes: int = 15
    transition: int = 1
    warning: int = 1
    rounds: int = 0
    here: int = 0

    @classmethod
    def start(cls, ctx: Context) -> Draft:
        """The last plan stored (a teacher often reuses it), else four stations and
        the class list's groups (or Group 1..4)."""
        if (p := last_plan(ctx.journal)) is not None:
            times = (p.minutes, p.transition, p.warning)
            return cls([*p.stations], [*p.groups], *times, p.rotations or 0)
        groups = class_groups(ctx.journal) or [f"Group {i + 1}" for i in range(4)]
        return cls([Station(g) for g in DEFAULT_GAMES], groups)

    @property
    def rotations(self) -> int:
        return self.rounds or len(self.stations)

    def plan(self) -> Plan:
        rounds = self.rounds if self.rounds != len(self.stations) else 0
        times = (self.minutes, self.transition, self.warning)
        return Plan(tuple(self.stations), tuple(self.groups), *times, rounds or None)

    def step(self, what: str, delta: int) -> None:
        """Move one of the steppers by ``delta``, inside its bounds."""
        n = len(self.stations)
        bounds = {
            "minutes": MINUTES,
            "transition": TRANSITION,
            "warning": WARNING,
            "rounds": (1, max(1, n)),
            "here": (0, max(0, n - 1)),
        }
        low, high = bounds[what]
        now = self.rotations if what == "rounds" else getattr(self, what)
        setattr(self, what, max(low, min(high, now + delta)))

    def fit(self) -> None:
        """Keep the rounds and this device's station inside the stations there are."""
        self.rounds = min(self.rounds, len(self.stations))
        self.here = min(self.here, max(0, len(self.stations) - 1))

    def value(self, key: str) -> str:
        """What a stepper shows between its \u2212 and + buttons."""
        return {
            "minutes": f"{self.minutes} min",
            "transition": f"{self.transition} min",
            "warning": f"{self.warning} min" if self.warning else "none",
            "rounds": f"{self.rotations} of {len(self.stations)}",
        }.get(key, f"Station {self.here + 1}")


STEPPERS = (
    ("minutes", "Minutes"),
    ("transition", "Moving"),
    ("warning", "Warning"),
    ("rounds", "Rounds"),
    ("here", "This device"),
)


def names_that_fit(painter: Painter, names: Sequence[str], size: int, width: int) -> str:
    """As many of ``names`` as fit ``width`` at ``size`` (a teacher reads them at arm's
    length: the text is not made smaller), then "+N more"; the first name is cut short
    when even it does not fit."""
    for shown in range(len(names), 0, -1):
        more = f" +{len(names) - shown} more" if shown < len(names) else ""
        if painter.fonts.width(text := ", ".join(names[:shown]) + more, size) <= width:
            return text
    more = f" +{len(names) - 1} more" if len(names) > 1 else ""
    return painter.ellipsis(names[0], size, width - painter.fonts.width(more, size)) + more


class RotationEditor(TeacherScreen):
    """The teacher's plan: stations, groups, times; Start runs it on this device."""

    title, subtitle = "Station rotation", "Tap a station to change its game."

    def __init__(self, ctx: Context, draft: Draft | None = None) -> None:
        super().__init__(ctx)
        self.draft = draft or Draft.start(ctx)

    def layout(self, metrics: Metrics) -> None:
        m, d = metrics, self.draft
        margin, gap, top = m.u(16), m.u(6), m.u(76)
        bottom = m.height - margin - m.u(56) - m.u(8)
        # Stations: two columns of four tiles, "+ Station" after the last.
        tiles = [
            Item(
                f"station.{i}",
                f"{i + 1}. {s.name}",
                kind="toggle",
                selected=i == d.here,
                caption=s.mode_name + (" \u00b7 this device" if i == d.here else ""),
            )
            for i, s in enumerate(d.stations)
        ]
        tiles += [Item("station.add", "+ Station")][: MAX_STATIONS - len(d.stations)]
        column = pygame.Rect(margin, top, m.u(380), 0)
        b, _ = spread(m, column, [Row("", tiles, (bottom - top - 3 * gap) // 4, 2, 6, rows=4)])
        # The right column, a row each with its name at the left: groups, the steppers.
        x = margin + m.u(380) + m.u(20)
        rh = (bottom - top - len(STEPPERS) * gap) // (len(STEPPERS) + 1)
        groups = plural(len(d.groups), "group")
        rows = [Row("Groups", [Item("groups", groups)], rh)]
        rows += [Row(label, stepper(key, d.value(key)), rh, gap=0) for key, label in STEPPERS]
        area = pygame.Rect(x, top, m.width - margin - x, 0)
        right, self.words = spread(m, area, rows, label=130, gap=6)
        named = right[0]  # the groups' button: its caption, their names
        named.caption = names_that_fit(self.ctx.painter, d.groups, m.small, named.rect.w - m.u(10))
        back, start = footer(m, ("back", "Back"), ("start", "Start rotation", 260))
        self.buttons = [*b, *right, back, start]
        left, right_edge = back.rect.right + m.u(10), start.rect.left - m.u(10)  # what went wrong
        top, h = back.rect.top - m.u(8), back.rect.height + m.u(16)
        self.message_rect = pygame.Rect(left, top, right_edge - left, h)

    def press(self, name: str) -> None:
        d = self.draft
        self.message = ""
        if name == "back":
            self.stack.pop()
        elif name == "start":
            self.start()
        elif name == "groups":
            self.ask(GroupsScene(self.ctx, d.groups), lambda groups: setattr(d, "groups", groups))
        elif name.startswith("station."):  # "station.<i>" or "station.add"
            i = len(d.stations) if name == "station.add" else int(name[8:])
            picker = StationPicker(self.ctx, i, [*d.stations, None][i])
            self.ask(picker, lambda station: self.set_station(i, station))
        elif name.endswith((".-", ".+")):
            key, sign = name.rsplit(".", 1)
            d.step(key, 1 if sign == "+" else -1)
            self.layout(self.m)

    def set_station(self, i: int, station: Station | str) -> None:
        """The picker's answer: its station replaces station ``i`` (or comes after the
        last), or ``"remove"`` removes it."""
        self.draft.stations[i : i + 1] = [station] if isinstance(station, Station) else []
        self.draft.fit()

    def start(self) -> None:
        d, ctx = self.draft, self.ctx
        try:
            plan = d.plan()
            stored = start_rotation(ctx.journal, plan, d.here, session=ctx.session, now=ctx.wall)
        except BadInput as exc:
            self.say(sentence(exc.message), good=False)
            log.info("rotation: plan refused: %s", exc.message)
            return
        except TabletopError as exc:
            self.say("The rotation could not be saved. Try again.", good=False)
            log.error("rotation: %s: %s", exc.code, exc.message)
            return
        what = f"{len(plan.stations)} stations, {len(plan.groups)} groups, {plan.minutes} min"
        log.info(
            "rotation %d started: %s, this device station %d", stored.id, what, stored.station + 1
        )
        self.ctx.sounds.play("good")
        run_rotation(self.ctx, stored)


class StationPicker(TeacherScreen):
    """One station: its game (the five), its mode and the game's options (each preset,
    or left to the group). Pops with a :class:`Station`, ``"remove"``, or None."""

    back = "cancel"
    subtitle = "Which game is played here?"

    def __init__(self, ctx: Context, index: int, station: Station | None) -> None:
        super().__init__(ctx)
        self.title, self.new = f"Station {index + 1}", station is None
        self.station = station or Station("mathe-meister")

    def layout(self, metrics: Metrics) -> None:
        m, st = metrics, self.station
        compact = len(STATION_OPTIONS[st.game]) > 1  # two option rows (M.E.C.S.) must fit
        h, mh = m.u(48 if compact else 64), m.u(44 if compact else 52)
        rows = [
            Row("", toggles("game.", GAME_TITLES.items(), {st.game}), h, columns=3),
            Row("Mode", (), m.u(18 if compact else 24)),  # a heading: the modes below
            Row("", toggles("mode.", STATION_MODES[st.game], {st.mode}), mh, columns=4),
        ]
        # Each option on a row: its name, "Group chooses", then its values.
        for key, label, values in STATION_OPTIONS[st.game]:
            choices = [("", "Group chooses"), *values]
            on = {st.options.get(key, "")}
            rows.append(Row(label, toggles(f"opt.{key}.", choices, on), mh, len(choices)))
        area = pygame.Rect(m.u(16), m.u(96), m.width - 2 * m.u(16), 0)
        b, self.words = spread(m, area, rows, label=110)
        remove = None if self.new else ("remove", "Remove station", 240)
        self.buttons = b + footer(m, ("cancel", "Cancel"), ("done", "Done", 200), centre=remove)

    def press(self, name: str) -> None:
        st, self.message = self.station, ""
        if name in ("cancel", "remove", "done"):
            self.stack.pop({"cancel": None, "remove": "remove", "done": st}[name])
        elif name.startswith("game."):
            if name[5:] != st.game:  # another game: its first mode, no options, its name
                self._change(game=name[5:], mode="", options={}, name="")
        elif name.startswith("mode."):
            self._change(mode=name[5:])
        elif name.startswith("opt."):
            key, value = name[4:].split(".", 1)
            options = {k: v for k, v in st.options.items() if k != key}
            if value:
                options[key] = value
            self._change(options=options)

    def _change(self, **changes: Any) -> None:
        try:
            self.station = replace(self.station, **changes)
        except BadInput as exc:  # a mode and an option that do not go together
            self.say(exc.message, good=False)
        self.layout(self.m)


class GroupsScene(TeacherScreen):
    """The groups' names: tap one to rename it, add, remove the last, or take the class
    list's groups. Pops with the list of names, or None."""

    back = "cancel"
    title, subtitle = "Groups", "Tap a group to change its name."

    def __init__(self, ctx: Context, groups: Sequence[str]) -> None:
        super().__init__(ctx)
        self.groups = list(groups)
        self.from_class = class_groups(ctx.journal)

    def layout(self, metrics: Metrics) -> None:
        m, margin = metrics, metrics.u(16)
        names = [(str(i), f"{i + 1}. {name}") for i, name in enumerate(self.groups)]
        area = pygame.Rect(margin, m.u(70), m.width - 2 * margin, 0)
        b, _ = spread(m, area, [Row("", toggles("group.", names, ()), m.u(58), columns=2)])
        tools = (
            Item("add", "+ Group", enabled=len(self.groups) < MAX_STATIONS),
            Item("remove", "\u2212 Last group", enabled=len(self.groups) > 1),
            Item("class", "From the class list", enabled=bool(self.from_class)),
        )
        row = pygame.Rect(margin, m.height - margin - m.u(112 + 10), m.width - 2 * margin, 0)
        b += spread(m, row, [Row("", tools, m.u(56))])[0]
        self.buttons = b + footer(m, ("cancel", "Cancel"), ("done", "Done", 200))

    def press(self, name: str) -> None:
        if name in ("cancel", "done"):
            self.stack.pop(list(self.groups) if name == "done" else None)
            return
        if name == "add":  # the first "Group <n>" not taken, from n = how many there will be
            free = count(len(self.groups) + 1)
            self.groups.append(next(f"Group {n}" for n in free if f"Group {n}" not in self.groups))
        elif name == "remove" and len(self.groups) > 1:
            self.groups.pop()
        elif name == "class" and self.from_class:
            self.groups = list(self.from_class[:MAX_STATIONS])
        elif name.startswith("group."):
            i = int(name.split(".")[1])
            keyboard = NameScene(self.ctx, self.groups[i], "The group's name")
            self.ask(keyboard, lambda typed: self.rename(i, typed))
            return
        self.layout(self.m)

    def rename(self, i: int, typed: str) -> None:
        """Group ``i`` takes the name typed, unless another group has it already."""
        name = typed.strip().title()
        if name not in self.groups:
            self.groups[i] = name


def rotation_menu(ctx: Context) -> Scene:
    """The teacher menu's "Station rotation": the controls while one runs, else the editor.
    On a fleet device (``ctx.fleet``) only the controls, which show the rotation but
    leave it to the teacher's dashboard."""
    running = isinstance(ctx.rotation, RotationRunner) and not ctx.rotation.finished
    return RotationControl(ctx) if running or ctx.fleet is not None else RotationEditor(ctx)


class RotationControl(TeacherScreen):
    """Pause, Resume, +1 minute, Skip, End for the rotation that runs."""

    title, subtitle = "Station rotation", "The rotation running on this device."

    @property
    def runner(self) -> RotationRunner | None:
        rotation = self.ctx.rotation
        return rotation if isinstance(rotation, RotationRunner) else None

    @property
    def follows(self) -> bool:
        """A fleet device: the rotation is the teacher's dashboard's to change."""
        return self.ctx.fleet is not None

    def layout(self, metrics: Metrics) -> None:
        m, now = metrics, self.runner.moment if self.runner else None
        # on a fleet device the teacher's dashboard has the controls
        running = now is not None and not now.done and not self.follows
        paused = bool(now and now.paused)
        on = (not paused, paused, True, True, True)
        controls = [
            Item(key, label, kind="primary", enabled=running and ok)
            for (key, label), ok in zip(CONTROLS.items(), on, strict=True)
        ]
        area = pygame.Rect(m.u(16), m.u(240), m.width - m.u(32), 0)
        b, _ = spread(m, area, [Row("", controls, m.u(56))])
        self.buttons = b + footer(m, ("back", "Back"))

    def update(self, now: float) -> bool:
        self.layout(self.m)  # the buttons follow the clock (paused or not, over)
        return False

    def press(self, name: str) -> None:
        if name == "back" or self.runner is None:
            self.stack.pop()
        elif name in QUESTIONS and not self.follows:  # Skip and End ask first
            self.confirm(QUESTIONS[name], name.title(), "Keep going", lambda: self.act(name))
        elif name in NOW and not self.follows:
            self.act(name)

    def act(self, name: str) -> None:
        """One of the controls, on the clock (and then in the journal)."""
        if self.runner is not None:
            log.info("rotation: the teacher pressed %s", name)
            self.runner.control(name)
        if self.stack.top is self:
            self.layout(self.m)

    def lines(self) -> list[str]:
        """What the screen says about the rotation: this device's station, the rotation
        and its phase, the group here and its time, where every group is."""
        runner = self.runner
        if runner is None:
            return ["No rotation is running."]
        now, plan = runner.moment, runner.plan
        state = PHASES[now.phase] + (" (paused)" if now.paused else "")
        lines = [
            f"This device: {plan.station_title(runner.station)}",
            f"Rotation {now.rotation + 1} of {plan.count}: {state}",
            f"Here: {runner.group or 'no group'} \u00b7 {now.countdown()} left",
        ]
        where = [(g, plan.station_of(g, now.seated)) for g in plan.groups]
        if not now.done and any(s is not None for _, s in where):
            lines.append(
                ("Next: " if now.phase == "transition" else "Now: ")
                + ", ".join(f"{g} at {s + 1}" for g, s in where if s is not None)
            )
        return lines

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        room, y = m.width - m.u(32), m.u(76)
        for line in self.lines():
            painter.text(surface, line, (m.u(16), y), m.text + m.u(2), bold=True, max_width=room)
            y += m.text + m.u(12)
        if self.follows:  # under the controls, which are the dashboard's
            connected, state = self.ctx.fleet.connection()
            y = self.buttons[0].rect.bottom + m.u(10)
            for text, colour, bold in ((FOLLOWS, p.bad, True), (state, p.good, False)):
                colour = colour if connected else p.bad
                painter.text(surface, text, (m.u(16), y), m.text, colour, bold=bold, max_width=room)
                y += m.text + m.u(8)
