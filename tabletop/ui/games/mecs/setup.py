"""M.E.C.S. setup: players and bots, the deck, the mode, where the cards come from; the
rules in plain words; and the way to the bubble game (MECS-8).

Touch targets: ``players.-``, ``players.+``, ``bot.<i>``, ``level.easy``,
``level.medium``, ``level.hard`` (the bots' level, MECS-12), ``deck.beginners``,
``deck.advanced``, ``mode.normal``, ``mode.challenge``, ``cards.virtual``,
``cards.table``, ``rules``, ``bubbles``, ``back``, ``start``.
"""

from __future__ import annotations

import pygame

from tabletop.bots.mecs import LEVEL_NAMES, LEVELS
from tabletop.games.mecs import MecsSettings
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import Back, InputEvent, Tap
from tabletop.ui.scenes.common import Stepper, header
from tabletop.ui.scenes.rules import RulesPage, RulesScene
from tabletop.ui.scenes.signin import SignInGate
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit

RULES = (
    RulesPage(
        "Build equations, win coins",
        "Red cards are numbers. Blue cards are + - × ÷ ( ) and =. Green cards (advanced deck) "
        "are the fraction bar, the square root, the decimal point and x². Put cards in your "
        "equation area, read left to right. When they make a true equation, you flip them "
        "over: they become your gold coins.",
        "You have 9, ×, 7, = and 6, 3 down: 9 × 7 = 63 is true, so you flip 6 cards.",
    ),
    RulesPage(
        "Starting",
        "Everyone takes 3 number cards and 2 symbol cards. Then everyone shows one number "
        "card: the biggest number starts, and play goes clockwise.",
        "Ann shows 8, Bo shows 5, Cy shows 2: Ann starts.",
    ),
    RulesPage(
        "Your turn",
        "1. Take one card from the hand of the next player. 2. Put down 1 or 2 cards in your "
        "area. 3. If you put down only 1, you may trade: one card goes under its stack and "
        "you draw a new one. Then everybody fills their hand up to 5 cards.",
        "Bo puts down only a 4, then trades a ( for a new symbol card.",
    ),
    RulesPage(
        "Moving your cards",
        "You may change the order of the cards in your own area at any time. But a card in "
        "your area never goes back into your hand.",
        "Your area reads 3 = 1 + 2. Move the cards: 1 + 2 = 3.",
    ),
    RulesPage(
        "Hacking!",
        "Instead of putting cards in your own area, add 1 or 2 cards to another player's "
        "area, without moving their cards, so that it becomes a true equation at once. You "
        "take all its coins!",
        "Cy's area reads 5 × = 1 5. Ann adds a 3: 5 × 3 = 15. Ann wins 6 coins.",
    ),
    RulesPage(
        "Coins and the winner",
        "Every number card and + - × ÷ = is 1 coin, a bracket ( ) is 2 coins, a green card "
        "is 3 coins. The first player with 15 coins ends the game. Most coins wins.",
        "(2 + 3) × 4 = 2 0 is 5 numbers + 3 signs + 2 brackets × 2 = 12 coins.",
    ),
    RulesPage(
        "Challenge mode",
        "Five yellow objective cards are shown one at a time. A true equation only scores "
        "if its answer meets the objective shown. The game ends when all five are met.",
        "Objective: an odd number bigger than 50. 9 × 7 = 63 scores 6 coins; 9 × 6 = 54 "
        "does not: the cards stay.",
    ),
    RulesPage(
        "The device helps",
        "The camera reads every area left to right (or tap an area to enter the cards). If "
        "it reads a card wrongly, tap the area and fix it. Hold one card up alone, or tap "
        "Cards, to see its page: a tip, its history, a fun fact and its name in 5 languages.",
        "Hold up the = card: it was invented by Robert Recorde in 1557.",
    ),
)


def rules_scene(ctx: Context) -> RulesScene:
    return RulesScene(ctx, "M.E.C.S. rules", RULES)


class MecsSetup(Scene):
    """Who plays, which deck and mode, and whether the device deals virtual cards."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.seats = 2
        self.stepper = Stepper("players", "Players", 2, 8)
        self.bots = [False, True] + [False] * 6
        self.level = "easy"  # the bots' level (MECS-12), as Math Attack! and Math Arena start
        self.deck = "beginners"
        self.mode = "normal"
        self.cards = "virtual"
        self.message = ""
        self.bot_driver = "scene"  # the demo drives the bots through the camera and taps
        self.gate = SignInGate()  # sign in first when the device has a class list

    def names(self) -> list[tuple[str, bool]]:
        return [
            (f"Bot {i + 1}" if self.bots[i] else f"Player {i + 1}", self.bots[i])
            for i in range(self.seats)
        ]

    def settings(self) -> MecsSettings:
        play = "camera" if self.cards == "table" else "virtual"
        return MecsSettings(deck=self.deck, mode=self.mode, play=play)  # type: ignore[arg-type]

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(16)
        b: list[Button] = []
        s = m.u(52)
        y = m.u(70)
        b += self.stepper.layout(m, margin + m.u(120), y, self.seats)
        # the bots' level, beside the players (MECS-12)
        lw = m.u(118)
        self.level_label = (W - margin - 3 * lw - 2 * m.u(8) - m.u(12), y + s // 2)
        for i, level in enumerate(LEVELS):
            b.append(
                Button(
                    f"level.{level}",
                    pygame.Rect(
                        W - margin - (3 - i) * lw - (2 - i) * m.u(8), y + m.u(4), lw, s - m.u(8)
                    ),
                    LEVEL_NAMES[level],
                    kind="toggle",
                    selected=self.level == level,
                    enabled=self.cards == "virtual",
                    size=m.small + 2,
                )
            )
        # seats: who is a bot
        top = y + s + m.u(12)
        cw = (W - 2 * margin - 3 * m.u(8)) // 4
        h = m.u(44)
        for seat in range(self.seats):
            rect = pygame.Rect(
                margin + (seat % 4) * (cw + m.u(8)), top + (seat // 4) * (h + m.u(6)), cw, h
            )
            b.append(
                Button(
                    f"bot.{seat}",
                    rect,
                    "Bot" if self.bots[seat] else "Child",
                    kind="toggle",
                    selected=self.bots[seat],
                    enabled=self.cards == "virtual",
                    size=m.small + 2,
                )
            )
        # options: deck, mode, cards
        oy = top + 2 * (h + m.u(6)) + m.u(4)
        self.option_rows: list[tuple[str, int]] = []
        label_w = m.u(150)
        ow = (W - 2 * margin - label_w - m.u(8)) // 2
        for row, (label, options) in enumerate(
            (
                ("Deck", (("deck.beginners", "Beginners"), ("deck.advanced", "Advanced"))),
                ("Mode", (("mode.normal", "Race to 15"), ("mode.challenge", "Challenge"))),
                ("Cards", (("cards.virtual", "The device deals"), ("cards.table", "Real cards"))),
            )
        ):
            ry = oy + row * (h + m.u(6))
            self.option_rows.append((label, ry + h // 2))
            for i, (name, text) in enumerate(options):
                key, value = name.split(".")
                chosen = getattr(self, key) == value
                enabled = not (name == "deck.beginners" and self.mode == "challenge")
                b.append(
                    Button(
                        name,
                        pygame.Rect(margin + label_w + i * (ow + m.u(8)), ry, ow, h),
                        text,
                        kind="toggle",
                        selected=chosen,
                        enabled=enabled,
                        size=m.small + 2,
                    )
                )
        bh = m.u(56)
        by = H - margin - bh
        from tabletop.ui.games import game_app

        b.append(Button("back", pygame.Rect(margin, by, m.u(120), bh), "Back", kind="quiet"))
        b.append(
            Button("rules", pygame.Rect(margin + m.u(128), by, m.u(130), bh), "Rules", kind="quiet")
        )
        b.append(
            Button(
                "bubbles",
                pygame.Rect(margin + m.u(266), by, m.u(190), bh),
                "Bubble game",
                kind="quiet",
                enabled=game_app("bubbles") is not None,
            )
        )
        b.append(Button("start", pygame.Rect(W - margin - m.u(200), by, m.u(200), bh), "Start"))
        self.message_pos = (margin, by - m.u(20))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop()
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is None:
                return
            if not button.enabled:
                self._explain(button.name)
                return
            self.ctx.sounds.play("tap")
            self.press(button.name)

    def _explain(self, name: str) -> None:
        self.ctx.sounds.play("wrong")
        if name.startswith(("bot.", "level.")):
            self.message = "With real cards every seat is a child: bots need the device's cards."
        elif name == "deck.beginners":
            self.message = "Challenge mode uses the green cards: it needs the advanced deck."
        elif name == "bubbles":
            self.message = "The bubble game is not on this device yet."
        else:
            self.message = ""

    def press(self, name: str) -> None:
        if name == "back":
            self.stack.pop()
            return
        if name == "rules":
            self.stack.push(rules_scene(self.ctx))
            return
        if name == "bubbles":
            from tabletop.ui.games import game_app

            app = game_app("bubbles")
            if app is not None:
                self.stack.push(app.setup_scene(self.ctx))
            return
        if name == "start":
            from tabletop.ui.games.mecs.table import MecsTable

            settings, driver = self.settings(), self.bot_driver

            def make(seats: list[SeatInfo]) -> Scene:
                return MecsTable(self.ctx, seats=seats, settings=settings, bot_driver=driver)

            names = self.names()
            bots = {i: self.level for i, (_, bot) in enumerate(names) if bot}
            self.gate.start(self, "mecs", [n for n, _ in names], bots, make)
            return
        self.message = ""
        if (seats := self.stepper.stepped(name, self.seats)) is not None:
            self.seats = seats
        elif name.startswith("bot."):
            seat = int(name[4:])
            self.bots[seat] = not self.bots[seat]
        elif name.startswith("level."):
            self.level = name[6:]
        elif name.startswith("deck."):
            self.deck = name[5:]
        elif name.startswith("mode."):
            self.mode = name[5:]
            if self.mode == "challenge":
                self.deck = "advanced"
        elif name.startswith("cards."):
            self.cards = name[6:]
            if self.cards == "table":
                self.bots = [False] * 8
        self.layout(self.m)

    def resume(self, result: object) -> None:
        self.gate.resume(self, result)
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(
            self, surface, "M.E.C.S.", "Build equations from number and symbol cards, win coins."
        )
        self.stepper.draw(painter, surface, self.seats)
        for b in self.buttons:
            painter.button(surface, b)
            if b.name.startswith("bot."):
                seat = int(b.name[4:])
                chip = pygame.Rect(
                    b.rect.left + m.u(4), b.rect.top + m.u(4), m.u(30), b.rect.height - m.u(8)
                )
                painter.seat_chip(surface, chip, seat, size=m.small + 1)
        for label, y in self.option_rows:
            painter.text(surface, label, (m.u(16), y), m.text, bold=True, anchor="midleft")
        painter.text(surface, "Bots", self.level_label, m.text, bold=True, anchor="midright")
        if self.message:
            painter.text(
                surface,
                self.message,
                self.message_pos,
                m.small + 1,
                p.bad,
                bold=True,
                anchor="bottomleft",
                max_width=m.width - m.u(32),
            )


__all__ = ["RULES", "MecsSetup", "rules_scene"]
