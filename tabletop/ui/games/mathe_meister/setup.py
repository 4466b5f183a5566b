"""Player setup for Mathe-Meister: how many seats, names, bot seats, and the game mode.

One player plays on the screen's digital sheet. Two to eight play on paper sheets at
the table; the device reads the dice, counts the rounds and settles Bonus Star claims
from the seat buttons. Any seat of a table game may be a bot, which plays its own
sheet on the device.
"""

from __future__ import annotations

from typing import Any

import pygame

from tabletop.games.mathe_meister import MODE_NAMES, MODES, SOLO_MODES
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import Back, InputEvent, Tap
from tabletop.ui.scenes.common import Stepper, header
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.signin import SignInGate
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit

GAME = "mathe-meister"


class SetupScene(Scene):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        recent = ctx.highscores.players(GAME, 4)
        self.recent = recent
        self.seats = 1
        self.stepper = Stepper("players", "Players", 1, 8)
        self.names = [recent[0] if recent else "Player 1"] + [
            f"Player {i + 1}" for i in range(1, 8)
        ]
        self.bots = [False] * 8
        self.modes: list[str] = ["freestyle"]
        self.editing: int | None = None
        self.gate = SignInGate()  # sign in first when the device has a class list

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(16)
        b: list[Button] = []
        y = m.u(80)
        s = m.u(52)
        b += self.stepper.layout(m, margin + m.u(120), y, self.seats)
        # modes: two columns on the left
        top = y + s + m.u(44)
        self.modes_top = top - m.u(32)
        col_w = m.u(160)
        h = m.u(50)
        for i, mode in enumerate(MODES):
            rect = pygame.Rect(
                margin + (i % 2) * (col_w + m.u(8)), top + (i // 2) * (h + m.u(8)), col_w, h
            )
            allowed = self.seats == 1 or mode not in SOLO_MODES
            b.append(
                Button(
                    f"mode.{mode}",
                    rect,
                    MODE_NAMES[mode],
                    kind="toggle",
                    selected=mode in self.modes,
                    enabled=allowed,
                    size=m.small + 1,
                )
            )
        # players on the right
        left = margin + 2 * col_w + m.u(24)
        self.players_left = left
        right_w = W - margin - left
        if self.seats == 1:
            b.append(
                Button(
                    "name.0",
                    pygame.Rect(left, top, right_w, m.u(56)),
                    self.names[0],
                    kind="choice",
                    caption="tap to change the name",
                )
            )
            for i, name in enumerate(self.recent[:4]):
                rect = pygame.Rect(
                    left + (i % 2) * (right_w // 2 + m.u(4)),
                    top + m.u(96) + (i // 2) * (h + m.u(8)),
                    right_w // 2 - m.u(4),
                    h,
                )
                b.append(Button(f"recent.{i}", rect, name, kind="quiet", size=m.small + 1))
        else:
            cw = (right_w - m.u(8)) // 2
            bot_w = m.u(56)
            for seat in range(self.seats):
                x = left + (seat % 2) * (cw + m.u(8))
                yy = top + (seat // 2) * (h + m.u(8))
                label = "Bot" if self.bots[seat] else self.names[seat]
                b.append(
                    Button(
                        f"name.{seat}",
                        pygame.Rect(x + m.u(34), yy, cw - bot_w - m.u(38), h),
                        label,
                        kind="choice",
                        enabled=not self.bots[seat],
                        size=m.small + 1,
                    )
                )
                b.append(
                    Button(
                        f"bot.{seat}",
                        pygame.Rect(x + cw - bot_w, yy, bot_w, h),
                        "Bot",
                        kind="toggle",
                        selected=self.bots[seat],
                        size=m.small,
                    )
                )
        bh = m.u(56)
        b.append(
            Button("back", pygame.Rect(margin, H - margin - bh, m.u(180), bh), "Back", kind="quiet")
        )
        b.append(
            Button(
                "start",
                pygame.Rect(W - margin - m.u(260), H - margin - bh, m.u(260), bh),
                "Start",
                size=m.big,
                enabled=self._can_start(),
            )
        )
        self.buttons = b

    def _can_start(self) -> bool:
        return self.seats == 1 or not all(self.bots[: self.seats])

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop()
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None and button.enabled:
                self.ctx.sounds.play("tap")
                self.press(button.name)

    def press(self, name: str) -> None:
        if (seats := self.stepper.stepped(name, self.seats)) is not None:
            self._set_seats(seats)
        elif name.startswith("mode."):
            self._toggle_mode(name[5:])
        elif name.startswith("name."):
            self.editing = int(name[5:])
            self.stack.push(
                NameScene(
                    self.ctx,
                    self.names[self.editing],
                    f"Name for seat {self.editing + 1}" if self.seats > 1 else "Your name",
                )
            )
            return
        elif name.startswith("recent."):
            self.names[0] = self.recent[int(name[7:])]
        elif name.startswith("bot."):
            seat = int(name[4:])
            self.bots[seat] = not self.bots[seat]
        elif name == "back":
            self.stack.pop()
            return
        elif name == "start":
            self.start()
            return
        self.layout(self.m)

    def resume(self, result: Any) -> None:
        if self.gate.resume(self, result):
            self.layout(self.m)
            return
        if isinstance(result, str) and result.strip() and self.editing is not None:
            self.names[self.editing] = result.strip()
        self.editing = None
        self.layout(self.m)

    def _set_seats(self, n: int) -> None:
        self.seats = max(1, min(8, n))
        if self.seats > 1:
            kept = [m for m in self.modes if m not in SOLO_MODES and m != "freestyle"]
            self.modes = kept[:1] or ["freestyle"]

    def _toggle_mode(self, mode: str) -> None:
        if self.seats > 1 or mode == "freestyle":
            self.modes = [mode]
            return
        chosen = [m for m in self.modes if m != "freestyle"]
        if mode in chosen:
            chosen.remove(mode)
        else:
            chosen.append(mode)
            opposite = {"small_to_big": "big_to_small", "big_to_small": "small_to_big"}
            if opposite.get(mode) in chosen:
                chosen.remove(opposite[mode])
        self.modes = chosen or ["freestyle"]

    def start(self) -> None:
        """Into the game, through sign-in when the device has a class list."""
        from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
        from tabletop.ui.games.mathe_meister.table import BOT_LEVEL, TableScene

        modes = tuple(self.modes)
        names = ["Bot" if self.bots[i] else self.names[i] for i in range(self.seats)]
        bots = {i: BOT_LEVEL for i in range(self.seats) if self.bots[i]}

        def make(seats: list[SeatInfo]) -> Scene:
            if len(seats) == 1:
                return MatheMeisterScene(self.ctx, player=seats[0].name, modes=modes, seats=seats)
            return TableScene(self.ctx, seats=seats, modes=modes)

        self.gate.start(self, "mathe-meister", names, bots, make)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        sub = (
            "One player: play on this screen."
            if self.seats == 1
            else f"{self.seats} players: paper sheets, seat buttons claim the stars."
        )
        header(self, surface, "Mathe-Meister", sub)
        self.stepper.draw(painter, surface, self.seats)
        painter.text(
            surface,
            "Game mode" + (" (choose one or more)" if self.seats == 1 else ""),
            (m.u(16), self.modes_top),
            m.small,
            p.muted,
        )
        painter.text(surface, "Who plays?", (self.players_left, self.modes_top), m.small, p.muted)
        if self.seats == 1 and self.recent:
            first = self.target("recent.0")
            if first is not None:
                painter.text(
                    surface,
                    "Played here before:",
                    (first.rect.left, first.rect.top - m.u(6)),
                    m.small,
                    p.muted,
                    anchor="bottomleft",
                )
        for b in self.buttons:
            painter.button(surface, b)
            if b.name.startswith("name.") and self.seats > 1:
                seat = int(b.name[5:])
                chip = pygame.Rect(b.rect.left - m.u(34), b.rect.top, m.u(30), b.rect.height)
                painter.seat_chip(surface, chip, seat)


__all__ = ["SetupScene"]


def setup_scene(ctx: Context) -> Scene:
    return SetupScene(ctx)
