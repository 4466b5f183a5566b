"""The M.E.C.S. table: every seat's equation area, the coin race or the challenge
objective, and "Complete!" with coins flying to the winner. The game's decisions are
its controller's (:class:`~.play.MecsPlay`); the base carries dispatch, dialogs, saving,
lamps, bot pacing and the results.

Touch targets: ``area.<i>`` (edit it in :class:`~.editor.AreaEditor`), ``end``,
``trade``, ``refill.numbers``, ``refill.symbols``, ``reveal.<d>`` and ``objective``
(camera play: the who-starts and the objective card), ``hand.<i>`` (a card's page),
``rules``, ``cards``, ``undo`` (teacher PIN), ``leave``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from tabletop.engine.match import Match
from tabletop.games.mecs import Action, MecsSettings, MecsState
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mecs.cards import CardPageScene, button_row, draw_card
from tabletop.ui.games.mecs.editor import AreaEditor
from tabletop.ui.games.mecs.play import BOT_SECONDS, Banner, MecsPlay, coin_words
from tabletop.ui.games.mecs.setup import RULES
from tabletop.ui.input import CardsSeen
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import GameSave
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.table import TableScene
from tabletop.ui.theme import Metrics, Palette
from tabletop.ui.widgets import Button, grid

# the quiet buttons at the bottom left, always there
TOOLS = (("rules", "Rules"), ("cards", "Cards"), ("undo", "Undo"), ("leave", "Leave"))
REFILLS = (("refill.numbers", "Draw a number"), ("refill.symbols", "Draw a symbol"))


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal: the seats and the seed
    are in ``save``, the settings in the match."""
    app = save.app
    # the journal's seats; where their rows were not written, the table's own record of
    # the names and the bots with their levels (MECS-12; none before the levels)
    seats = save.seats_or(app["seats"])
    driver = str(app.get("bot_driver", "scene"))
    table = MecsTable(
        ctx,
        seats=seats,
        settings=match.settings,
        seed=int(app["seed"]),
        bot_driver=driver,
        match=match,
        save=save,
    )
    table.play.carry_on(app.get("table"))  # what is not in the match (none before issue 21)
    return table


class MecsTable(TableScene):
    """One game of M.E.C.S. at the device. ``seats``: (name, is a bot[, its level]) per
    seat, or the journal's :class:`SeatInfo` (a child signed in, a bot with its level);
    ``match`` and ``save`` carry on a journaled game."""

    game = "mecs"
    rules = ("M.E.C.S.: the rules", RULES)
    results_at_end = True
    bot_pause = BOT_SECONDS
    play: MecsPlay
    save: GameSave  # always journaled

    def __init__(
        self,
        ctx: Context,
        *,
        seats: Sequence[Sequence[Any] | SeatInfo],
        settings: MecsSettings,
        seed: int | None = None,
        bot_driver: str = "scene",
        match: Match[MecsSettings, MecsState, Action] | None = None,
        save: GameSave | None = None,
    ) -> None:
        seed = ctx.rng.randrange(10**9) if seed is None else seed
        self.play = play = MecsPlay(
            seats,
            settings,
            seed,
            bot_driver=bot_driver,
            match=match,
            clock=ctx.clock,
            sound=ctx.sounds.play,
        )
        app = {
            "seats": [[s.name, s.bot is not None, play.level(i)] for i, s in enumerate(play.seats)],
            "seed": seed,
            "bot_driver": bot_driver,
        }
        save = save or GameSave(ctx, "mecs", play.seats, app)
        self.play.save = save
        super().__init__(
            ctx,
            save,
            resumed=match is not None,
            # "Play again": the same table, a new game
            again=lambda: MecsTable(
                ctx, seats=play.seats, settings=settings, bot_driver=bot_driver
            ),
        )
        self.area_rects: dict[int, pygame.Rect] = {}
        self.coin_points: dict[int, tuple[int, int]] = {}
        self.strip: pygame.Rect | None = None

    # -- what the base asks ---------------------------------------------------------------

    def outcome(self) -> Outcome:
        play = self.play
        result = play.standings()
        return outcome_of(
            result,
            [p.name for p in play.seats],
            score=lambda s: f"{s} coins",
            reason=play.words(result.reason),
            lines=play.outcome_lines(),
        )

    # -- lifecycle ------------------------------------------------------------------------

    def card_seats(self) -> int:
        return len(self.play.seats) if self.play.settings.play == "camera" else 0

    def begin(self) -> None:
        self.play.settle()

    def show_results(self) -> None:
        self.ctx.sounds.play("round")
        super().show_results()

    def update(self, now: float) -> bool:
        banner = self.play.banner
        if banner is not None and now >= banner.until:
            self.play.banner = None
        return super().update(now) or banner is not None

    # -- input ----------------------------------------------------------------------------

    def cards_seen(self, event: CardsSeen) -> None:
        page = self.play.cards_seen(event.seat, event.area, event.codes)
        if page is not None:
            self.stack.push(CardPageScene(self.ctx, page))

    def explain(self, name: str) -> None:
        """A button that is off: the engine says why (trade, end, an empty stack)."""
        if name in ("end", "trade") or name.startswith("refill."):
            self.press(name)
        else:
            super().explain(name)

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        play = self.play
        kind, _, arg = name.partition(".")
        if kind == "area" and 0 <= int(arg) < len(play.seats):
            title = f"{play.name(int(arg))}'s equation area"
            self.ask(("edit", int(arg)), AreaEditor(self.ctx, title, *play.palette(int(arg))))
        elif kind == "hand":
            seat = play.hand_owner()
            if seat is not None and int(arg) < len(play.state.players[seat].hand):
                self.stack.push(CardPageScene(self.ctx, play.state.players[seat].hand[int(arg)]))
        elif name in ("rules", "leave", "undo"):
            super().press(name)
        else:
            self.ask_about(play.press(name))

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        kind = asking[0]
        if kind == "edit" and isinstance(result, tuple):
            self.play.submit_area(asking[1], result)
            if self.play.fix_waiting is not None:
                prompt, why = "Teacher PIN to fix this reading", self.play.message
                self.ask(("fix",), PinPad(self.ctx, "fix", prompt=prompt, subtitle=why))
        elif kind == "fix":
            self.play.teacher_fix(result == "ok")
        elif kind == "ask" and isinstance(result, str) and asking[1].key == "page":
            self.stack.push(CardPageScene(self.ctx, result))
        elif kind == "ask" and isinstance(result, str):
            self.ask_about(self.play.answer(asking[1], result))

    # -- layout ---------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m, play = metrics, self.play
        W, H = m.size
        margin, bh = m.u(12), m.u(54)
        y = H - margin - bh
        b = button_row(TOOLS, margin, y, (m.u(92), bh), m.u(6), kind="quiet", size=m.small + 2)
        wide, state = m.u(190), play.state
        pair = (W - margin - 2 * wide - m.u(8), y, (wide, bh), m.u(8))  # two at the right
        if state.phase == "refill" and play.match.pending.chance is None:
            b += button_row(REFILLS, *pair, size=m.small + 2)
            for button in b[-2:]:
                button.enabled = bool(state.stack(button.name.partition(".")[2]).size)
        elif play.wants("objective") is not None:
            rect = pygame.Rect(W - margin - wide * 2, y, wide * 2, bh)
            b.append(Button("objective", rect, "Show the objective card"))
        else:
            trade, end = button_row((("trade", "Trade a card"), ("end", "End my turn")), *pair)
            trade.kind, trade.enabled, end.enabled = "quiet", play.can_trade(), play.can_end()
            b += [trade, end]
        self.status_rect = pygame.Rect(margin, m.u(6), W - 2 * margin, m.u(40))
        self.goal_rect = pygame.Rect(margin, m.u(48), W - 2 * margin, m.u(34))
        self.message_rect = pygame.Rect(margin, y - m.u(50), W - 2 * margin, m.u(46))
        strip_top = self.message_rect.top
        self.strip = None
        owner = play.hand_owner()
        if play.wants("reveal") is not None:
            strip_top -= m.u(58)
            self.strip = pygame.Rect(margin, strip_top, W - 2 * margin, m.u(54))
            digits = [(f"reveal.{d}", str(d)) for d in range(10)]
            at = (W - margin - 10 * (m.u(46) + m.u(6)), strip_top + m.u(2), (m.u(46), m.u(50)))
            b += button_row(digits, *at, m.u(6), kind="quiet", size=m.big)
        elif owner is not None:
            strip_top -= m.u(60)
            self.strip = pygame.Rect(margin, strip_top, W - 2 * margin, m.u(56))
            hand = [(f"hand.{i}", "") for i in range(len(state.players[owner].hand))]
            row = (margin + m.u(130), strip_top + m.u(2), (m.u(48), m.u(52)), m.u(8))
            b += button_row(hand, *row, kind="card")
        top, bottom = self.goal_rect.bottom + m.u(6), strip_top - m.u(6)
        n = len(play.seats)
        cols = 1 if n <= 4 else 2
        rows = -(-n // cols)
        gap, area = m.u(6), pygame.Rect(margin, top, W - 2 * margin, bottom - top)
        ah = (area.height - (rows - 1) * gap) // rows
        self.area_rects = dict(enumerate(grid(area, n, cols, gap, ah, rows)))  # down, then across
        b += [
            Button(f"area.{seat}", rect, "", kind="area") for seat, rect in self.area_rects.items()
        ]
        self.buttons = b

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        step, r = self.next_step(), self.status_rect
        painter.line(surface, step, r.midleft, m.text, r.width, bold=True, anchor="midleft")
        self._draw_goal(surface)
        for seat, rect in self.area_rects.items():
            self._draw_area(surface, seat, rect)
        self._draw_strip(surface)
        text, kind = self.message, self.play.tone
        colour = {"error": p.bad, "good": p.good}.get(kind, p.ink)
        painter.box(surface, self.message_rect, p.panel, p.line, 1, m.u(8))
        inside = self.message_rect.inflate(-m.u(16), -m.u(6))
        painter.paragraph(surface, text, inside, m.text, colour, bold=kind == "error")
        painter.buttons(surface, [b for b in self.buttons if b.kind not in ("area", "card")])
        if self.play.banner is not None:
            self._draw_banner(surface, self.play.banner)

    def _draw_goal(self, surface: pygame.Surface) -> None:
        painter, m, p, r = self.ctx.painter, self.m, self.ctx.painter.p, self.goal_rect
        text = self.play.goal_line()
        if self.play.settings.mode == "challenge":
            painter.box(surface, r, (250, 236, 150), p.line, 2, m.u(8))
            pos, width = (r.left + m.u(10), r.centery), r.width - m.u(20)
            painter.line(surface, text, pos, m.text, width, bold=True, anchor="midleft")
        else:
            painter.line(surface, text, r.midleft, m.small + 2, r.width, p.muted, anchor="midleft")

    def _draw_area(self, surface: pygame.Surface, seat: int, rect: pygame.Rect) -> None:
        """One seat's area: its chip, name and coins on the left (a progress bar in the
        coin race), the cards read left to right and the device's ruling under them."""
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        player = play.state.players[seat]
        active = seat == play.state.active and play.state.phase in ("plant", "planted")
        edge = (p.selected, m.u(4)) if active else (p.line, 1)
        painter.box(surface, rect, p.panel, *edge, m.u(8))
        info_w = m.u(190) if len(play.seats) <= 4 else m.u(150)
        compact = rect.height < m.u(64)  # a short area: chip at the side, two text lines
        chip_h = rect.height - m.u(8) if compact else min(m.u(30), rect.height - m.u(8))
        chip = pygame.Rect(
            rect.left + m.u(4), rect.top + m.u(4), m.u(26 if compact else 30), chip_h
        )
        painter.seat_chip(surface, chip, seat, size=m.small)
        name = play.name(seat)
        if play.seats[seat].bot and not name.startswith("Bot"):
            name += " (bot)"
        x = chip.right + m.u(6)
        y = rect.top + rect.height * 3 // 10 if compact else chip.centery
        painter.line(
            surface, name, (x, y), m.small + 1, rect.left + info_w - x, bold=True, anchor="midleft"
        )
        if compact:
            radius = m.u(7)
            centre = (x + radius, rect.top + rect.height * 3 // 4)
        else:
            radius = m.u(10)
            centre = (rect.left + m.u(16), min(rect.bottom - m.u(12), chip.bottom + m.u(16)))
        self.coin_points[seat] = centre
        draw_coin(surface, p, centre, radius)
        coins = f"{player.coins} coins" + ("" if compact else f" · {len(player.hand)} in hand")
        x = centre[0] + radius + m.u(6)
        painter.line(
            surface, coins, (x, centre[1]), m.small, rect.left + info_w - x, anchor="midleft"
        )
        target = play.settings.target_coins
        bar = pygame.Rect(rect.left + m.u(6), rect.bottom - m.u(7), info_w - m.u(12), m.u(4))
        if play.settings.mode == "normal" and bar.top > centre[1] + m.u(10):
            pygame.draw.rect(surface, p.quiet, bar)
            done = bar.copy()
            done.width = bar.width * min(player.coins, target) // target
            pygame.draw.rect(surface, p.good, done)
        reading = play.readings.get(seat)
        shown = reading if reading is not None else player.area
        left = rect.left + info_w + m.u(8)
        room = pygame.Rect(
            left, rect.top + m.u(4), rect.right - left - m.u(6), rect.height - m.u(8)
        )
        status = play.area_status(seat)
        ch = min(m.u(66), room.height - (m.small + m.u(4) if status else 0))
        cw = ch * 7 // 10
        step = cw + m.u(4)
        if shown and len(shown) * step > room.width:
            step = room.width // len(shown)
            cw = max(8, step - 2)
        if not shown:
            at = (room.left, room.top + ch // 2)
            painter.text(surface, "no cards yet", at, m.small, p.muted, anchor="midleft")
        for i, code in enumerate(shown):
            card = pygame.Rect(room.left + i * step, room.top, cw, ch)
            draw_card(painter, surface, card, code, faded=reading is not None)
        if status:
            text, tone = status
            colour = {"bad": p.bad, "good": p.good}.get(tone, p.muted)
            at = (room.left, room.top + ch + m.u(2))
            painter.line(surface, text, at, m.small, room.width, colour)

    def _draw_strip(self, surface: pygame.Surface) -> None:
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        r = self.strip
        if r is None:
            return
        who, owner = play.wants("reveal"), play.hand_owner()
        cards = [b for b in self.buttons if b.name.startswith(("reveal.", "hand."))]
        label = f"{play.name(who)}:" if who is not None else f"{play.name(owner or 0)}'s hand"
        width = (cards[0].rect.left if cards else r.right) - r.left - m.u(8)
        room = pygame.Rect(r.left, r.top, width, r.height)
        painter.paragraph(surface, label, room, m.text, bold=True)
        if who is not None:
            painter.buttons(surface, cards)
            return
        hand = play.state.players[owner or 0].hand
        for b in cards:
            draw_card(painter, surface, b.rect, hand[int(b.name[5:])])
        x = (cards[-1].rect.right if cards else r.left + m.u(130)) + m.u(14)
        tip = "Tap an area to put cards down or hack. Tap a card to read about it."
        room = pygame.Rect(x, r.top, r.right - x, r.height)
        painter.paragraph(surface, tip, room, m.text, p.muted)

    def _draw_banner(self, surface: pygame.Surface, banner: Banner) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        rect = pygame.Rect(0, 0, m.width - m.u(80), m.u(120))
        rect.center = (m.width // 2, m.height // 2 - m.u(30))
        self._fly_coins(surface, banner)  # under the banner: they never hide its words
        fill, ink = ((255, 244, 200), p.good) if banner.kind == "good" else ((255, 225, 210), p.bad)
        painter.box(surface, rect, fill, p.selected, m.u(4), m.u(16))
        top = (rect.centerx, rect.top + m.u(8))
        painter.text(surface, banner.title, top, m.title + m.u(8), ink, bold=True, anchor="midtop")
        body = pygame.Rect(
            rect.left + m.u(16), rect.top + m.u(60), rect.width - m.u(32), rect.height - m.u(64)
        )
        painter.paragraph(surface, banner.text, body, m.text, align="center")

    def _fly_coins(self, surface: pygame.Surface, banner: Banner) -> None:
        """The banner's coins flying from the area to the winner's coin pile."""
        m, p, now = self.m, self.ctx.painter.p, self.ctx.clock()
        end = self.coin_points.get(banner.to_seat) if banner.to_seat is not None else None
        if end is None or banner.source not in self.area_rects:
            return
        start = self.area_rects[banner.source].center
        span = max(0.01, banner.until - banner.start - 0.5)
        for i in range(min(banner.coins, 15)):
            t = (now - banner.start - i * 0.08) / span
            t = 0.35 + 0.65 * t if now == banner.start else t  # a still frame: in the air
            t = min(1.0, max(0.0, t))
            x = start[0] + (end[0] - start[0]) * t + (i % 5 - 2) * m.u(10)
            y = start[1] + (end[1] - start[1]) * t - m.u(60) * 4 * t * (1 - t) + (i // 5) * m.u(8)
            draw_coin(surface, p, (round(x), round(y)), m.u(11))


def draw_coin(surface: pygame.Surface, p: Palette, centre: tuple[int, int], radius: int) -> None:
    """A coin: gold, with a dark rim."""
    pygame.draw.circle(surface, p.coin, centre, radius)
    pygame.draw.circle(surface, p.line, centre, radius, 2)


__all__ = ["BOT_SECONDS", "MecsTable", "coin_words", "resume_scene"]
