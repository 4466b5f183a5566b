"""The teacher's controls for the rotation that runs (Pause, Resume, +1 minute, Skip,
End), and the teacher menu's way in: the controls while one runs, else the editor."""

from __future__ import annotations

import logging
from typing import Any

import pygame

from tabletop.ui.app import Context, Scene
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.rotation.editor import RotationEditor
from tabletop.ui.scenes.rotation.runner import RotationRunner
from tabletop.ui.scenes.rotation.station import seated
from tabletop.ui.scenes.settings import TeacherScreen, footer
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

log = logging.getLogger(__name__)

FOLLOWS = "This station follows the teacher's dashboard."
NOW = ("pause", "resume", "extend")  # the controls that act at once
QUESTIONS = {"skip": "Time's up now for this rotation?", "end": "End the whole station rotation?"}


def rotation_menu(ctx: Context) -> Scene:
    """The teacher menu's "Station rotation": the controls while one runs, else the editor.
    On a fleet device (``ctx.fleet``) only the controls, which show the rotation but
    leave it to the teacher's dashboard."""
    running = isinstance(ctx.rotation, RotationRunner) and not ctx.rotation.finished
    return RotationControl(ctx) if running or ctx.fleet is not None else RotationEditor(ctx)


class RotationControl(TeacherScreen):
    """Pause, Resume, +1 minute, Skip, End for the rotation that runs."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.asking = ""  # "skip" or "end" while the Confirm is up

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
        specs = (
            ("pause", "Pause", running and not paused),
            ("resume", "Resume", running and paused),
            ("extend", "+1 minute", running),
            ("skip", "Skip", running),
            ("end", "End", running),
        )
        row = grid(pygame.Rect(m.u(16), m.u(240), m.width - m.u(32), m.u(56)), 5, 5, m.u(10))
        b = [
            Button(key, rect, label, enabled=on)
            for rect, (key, label, on) in zip(row, specs, strict=True)
        ]
        self.buttons = b + footer(m, ("back", "Back"))

    def update(self, now: float) -> bool:
        self.layout(self.m)  # the buttons follow the clock (paused or not, over)
        return False

    def press(self, name: str) -> None:
        runner = self.runner
        if name == "back" or runner is None:
            self.stack.pop()
            return
        if self.follows or name not in (*QUESTIONS, *NOW):
            return
        if name in QUESTIONS:  # Skip and End ask first
            self.asking = name
            self.stack.push(Confirm(self.ctx, QUESTIONS[name], yes=name.title(), no="Keep going"))
            return
        log.info("rotation: the teacher pressed %s", name)
        getattr(runner, name)()  # pause, resume, extend (by a minute)
        if self.stack.top is self:
            self.layout(self.m)

    def resume(self, result: Any) -> None:
        asked, self.asking = self.asking, ""
        runner = self.runner
        if result == "yes" and runner is not None and asked:
            log.info("rotation: the teacher pressed %s", asked)
            # Time is up now: the runner saves the games and shows the station screen.
            getattr(runner, asked)()  # skip or end
            return
        if self.stack.top is self:
            self.layout(self.m)

    def lines(self) -> list[str]:
        """What the screen says about the rotation: this device's station, the rotation
        and its phase, the group here and its time, where every group is."""
        runner = self.runner
        if runner is None:
            return ["No rotation is running."]
        now, plan = runner.moment, runner.plan
        state = {
            "play": "playing",
            "warning": "last minutes",
            "transition": "groups are moving",
            "done": "over",
        }[now.phase] + (" (paused)" if now.paused else "")
        lines = [
            f"This device: {plan.station_title(runner.station)}",
            f"Rotation {now.rotation + 1} of {plan.count}: {state}",
            f"Here: {runner.group or 'no group'} \u00b7 {now.countdown()} left",
        ]
        where = [(g, plan.station_of(g, seated(now))) for g in plan.groups]
        if not now.done and any(s is not None for _, s in where):
            lines.append(
                ("Next: " if now.phase == "transition" else "Now: ")
                + ", ".join(f"{g} at {s + 1}" for g, s in where if s is not None)
            )
        return lines

    def draw(self, surface: pygame.Surface) -> None:
        painter = self.backdrop(surface, "Station rotation", "The rotation running on this device.")
        m, p = self.m, painter.p
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
        painter.buttons(surface, self.buttons)
