"""The station screen between rotations, and how it opens the station's game set up as
the teacher planned it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import pygame

from tabletop.classroom.rotation import GAME_TITLES, Moment, Station
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import InputEvent
from tabletop.ui.scenes.common import home_and_again, route_to_press
from tabletop.ui.theme import ORANGE, Metrics

if TYPE_CHECKING:
    from tabletop.ui.scenes.rotation.runner import RotationRunner

log = logging.getLogger(__name__)


def seated(now: Moment) -> int:
    """The rotation whose groups are at the stations (in a transition: the coming one)."""
    return now.rotation + (1 if now.phase == "transition" else 0)


def called(group: str) -> str:
    """How a group is named in a sentence: "Group Red", but "Group 1" and "Team A" as
    they are."""
    return group if group.lower().startswith(("group", "team")) else f"Group {group}"


def choose_setup(setup: Any, station: Station) -> None:
    """Choose on the game's setup form (every game's: :class:`FormScene`) the mode and
    options the teacher planned for this station; the group may still change them."""
    setup.preset(station.mode, station.options)


class StationScene(Scene):
    """Time's up (where the leaving group goes), the arriving group's welcome, and a
    button to start this station's game; at the end, the rotation is over. The
    countdown is the banner's, in its strip below."""

    def __init__(self, ctx: Context, runner: RotationRunner, *, ended: int | None = None) -> None:
        super().__init__(ctx)
        self.runner = runner
        self.ended = ended  # the rotation whose time just ran out, if any
        self.message = ""

    @property
    def station(self) -> Station:
        return self.runner.plan.stations[self.runner.station]

    @property
    def can_start(self) -> bool:
        return not self.runner.moment.done and self.runner.group is not None

    def leaving(self) -> str | None:
        """The sentence for the group that just finished here."""
        if self.ended is None:
            return None
        plan = self.runner.plan
        group = plan.group_at(self.runner.station, self.ended)
        if group is None:
            return None
        nxt = plan.station_of(group, self.ended + 1)
        if nxt is None or self.runner.moment.done:
            return f"{called(group)}: well done! The rotation is over."
        return f"{called(group)}: go to {plan.station_title(nxt)}"

    def welcome(self) -> tuple[str, str, str]:
        """For the group that plays here now: who (large), where, and the details:
        ``"Group Red,"``, ``"this is Station 2: Math Wars Meta"``, the mode and round."""
        runner, now = self.runner, self.runner.moment
        if now.done:
            return "All done!", "The station rotation is over. Thank you!", ""
        group = runner.group
        rounds = f"Rotation {seated(now) + 1} of {runner.plan.count}"
        if group is None:
            return "No group here now", f"{runner.title} rests.", rounds
        details = [f"Mode: {self.station.mode_name}", *self.station.option_names, rounds]
        return f"{called(group)},", f"this is {runner.title}", " \u00b7 ".join(details)

    def layout(self, metrics: Metrics) -> None:
        title = GAME_TITLES.get(self.station.game, self.station.game)
        self.buttons = home_and_again(
            metrics, f"Play {title}", width=360, enabled=self.can_start, name="start"
        )

    def update(self, now: float) -> bool:
        start = self.target("start")
        if start is not None and start.enabled != self.can_start:
            self.layout(self.m)
            return True
        return False

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        if name == "home":
            if len(self.stack) > 1:
                self.stack.pop()
        elif name == "start":  # the game's first screen, as Home opens it
            from tabletop.ui.games import game_app

            module = game_app(self.station.game)
            if module is None:
                self.message = "This game cannot start on this device."
                log.error("rotation: no screen for %s", self.station.game)
                return
            scene = module.setup_scene(self.ctx)
            self.stack.push(scene)
            choose_setup(scene, self.station)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        # A long station name shrinks, then is cut: the panel below shows it whole.
        title = "Time's up!" if self.ended is not None else self.runner.title
        room, size = m.width - m.u(32), m.title + m.u(6)
        painter.text(surface, title, (m.u(16), m.u(10)), size, bold=True, max_width=room)
        y, big = m.u(64), m.big + m.u(2)
        leaving = self.leaving()
        if leaving:
            box = pygame.Rect(m.u(16), y, room, m.u(96))
            painter.box(surface, box, ORANGE, p.line, m.u(3), m.u(14))
            self._centred(surface, box, [(leaving, big, p.ink, True)])
            y = box.bottom + m.u(12)
        who, where, detail = self.welcome()
        box = pygame.Rect(m.u(16), y, room, self.buttons[0].rect.top - m.u(12) - y)
        painter.box(surface, box, p.panel, p.button, m.u(3), m.u(14))
        # Centred in the panel: who large, where big, the details in body text.
        who_size, where_size = (m.u(44), big) if leaving is None else (m.big + m.u(6), m.big)
        parts = [(who, who_size, p.ink, True), (where, where_size, p.ink, True)]
        if detail:
            parts.append((detail, m.text, p.muted, False))
        self._centred(surface, box, parts)
        painter.buttons(surface, self.buttons)
        if self.message:
            at = (m.width // 2, self.buttons[0].rect.top - m.u(6))
            painter.text(surface, self.message, at, m.small, p.bad, anchor="midbottom")

    def _centred(
        self,
        surface: pygame.Surface,
        box: pygame.Rect,
        parts: list[tuple[str, int, tuple[int, int, int], bool]],
    ) -> None:
        """Paragraphs (text, size, colour, bold) one under another, centred in ``box``."""
        painter, m = self.ctx.painter, self.m
        inner = box.inflate(-m.u(24), -m.u(12))
        heights = [
            len(painter.wrap(text, size, inner.width, bold))
            * painter.fonts.font(size, bold).get_linesize()
            for text, size, _, bold in parts
        ]
        y = inner.top + max(0, (inner.height - sum(heights) - m.u(6) * (len(parts) - 1)) // 2)
        for (text, size, colour, bold), h in zip(parts, heights, strict=True):
            area = pygame.Rect(inner.left, y, inner.width, min(h, inner.bottom - y))
            painter.paragraph(surface, text, area, size, colour, bold=bold, align="center")
            y += h + m.u(6)
