"""The M.E.C.S. table: every seat's equation area, the coin race or the challenge
objective, and "Complete!" with coins flying to the winner. It draws and routes; the
game's decisions are its controller's (:class:`~.play.MecsPlay`).

Touch targets: ``area.<i>`` (edit it in :class:`~.editor.AreaEditor`), ``end``,
``trade``, ``refill.numbers``, ``refill.symbols``, ``reveal.<d>`` and ``objective``
(camera play: the who-starts and the objective card), ``hand.<i>`` (a card's page),
``rules``, ``cards``, ``undo`` (teacher PIN), ``leave``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pygame

from tabletop.engine.match import Match
from tabletop.engine.words import plural
from tabletop.games.mecs import Action, MecsSettings, MecsState
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mecs.cards import CardPageScene, button_row, draw_card
from tabletop.ui.games.mecs.editor import AreaEditor
from tabletop.ui.games.mecs.play import BOT_SECONDS, Banner, MecsPlay, coin_words
from tabletop.ui.games.mecs.setup import RULES
from tabletop.ui.input import CardsSeen
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import GameSave, game_seed
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.table import TableScene
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

# the quiet buttons at the bottom left, always there
TOOLS = (("rules", "Rules"), ("cards", "Cards"), ("undo", "Undo"), ("leave", "Leave"))
REFILLS = (("refill.numbers", "Draw a number"), ("refill.symbols", "Draw a symbol"))
TURN = (("trade", "Trade a card"), ("end", "End my turn"))


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal: the seats (the
    journal's rows, or where they were not written the table's own record of the names
    and the bots with their levels, MECS-12) and the seed are in ``save``, the settings
    in the match."""
    app = save.app
    return MecsTable(
        ctx,
        seats=save.seats_or(app["seats"]),
        settings=match.settings,
        seed=int(app["seed"]),
        bot_driver=str(app.get("bot_driver", "scene")),
        match=match,
        save=save,
    )


class MecsTable(TableScene):
    """One game of M.E.C.S. at the device. ``seats``: (name, is a bot[, its level]) per
    seat, or the journal's :class:`SeatInfo` (a child signed in, a bot with its level);
    ``match`` and ``save`` carry on a journaled game."""

    game = "mecs"
    camera_off = "mecs.ui.camera_off"
    rules = ("M.E.C.S.: the rules", RULES)
    results_at_end = True
    bot_pause = BOT_SECONDS
    card_face = staticmethod(draw_card)
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
        seed = game_seed(ctx, seed)
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
        play.save = save = save or GameSave(ctx, "mecs", play.seats, app)
        super().__init__(
            ctx,
            save,
            resumed=match is not None,
            # "Play again": the same table, a new game
            again=lambda: MecsTable(
                ctx, seats=play.seats, settings=settings, bot_driver=bot_driver
            ),
        )

    def outcome(self) -> Outcome:
        play, result = self.play, self.play.standings()
        names, lines = [p.name for p in play.seats], play.outcome_lines()
        out = outcome_of(result, names, score=lambda s: plural(s, "coin"), lines=lines)
        return replace(out, reason=play.ended())

    def card_seats(self) -> int:
        return len(self.play.seats) if self.play.settings.play == "camera" else 0

    def begin(self) -> None:
        if self.resumed:  # what is not in the match (none before issue 21)
            self.play.carry_on(self.save.app.get("table"))
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
        """A button that is off: the engine says why (trade, end, an empty stack; undo
        with nothing decided at the table yet)."""
        if name in ("end", "trade", "undo") or name.startswith("refill."):
            self.press(name)
        else:
            super().explain(name)

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        play = self.play
        kind, _, arg = name.partition(".")
        hand = play.state.players[play.hand_owner() or 0].hand
        if kind == "area" and 0 <= int(arg) < len(play.seats):
            self.edit(int(arg))
        elif kind == "hand" and play.hand_owner() is not None and int(arg) < len(hand):
            self.stack.push(CardPageScene(self.ctx, hand[int(arg)]))
        elif name in ("rules", "leave", "undo"):
            super().press(name)
        elif kind != "hand":
            self.ask_about(play.press(name))

    def edit(self, seat: int, tried: Sequence[str] = (), note: str = "") -> None:
        """Open ``seat``'s area in the editor (again with the ``tried`` cards the game
        refused, and its ``note`` why: nothing the child put is lost)."""
        title = f"{self.play.name(seat)}'s equation area"
        editor = AreaEditor(self.ctx, title, *self.play.palette(seat), tried=tried, note=note)
        self.ask(("edit", seat), editor)

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        kind, play = asking[0], self.play
        if kind == "edit" and isinstance(result, tuple):
            said = play.sentences
            play.submit_area(asking[1], result)
            if play.fix_waiting is not None:
                prompt, why = "Teacher PIN to fix this reading", play.message
                self.ask(("fix",), PinPad(self.ctx, "fix", prompt=prompt, subtitle=why))
            elif play.sentences > said and play.tone == "error":  # refused: mend it, or cancel
                self.edit(asking[1], result, play.message)
        elif kind == "fix":
            play.teacher_fix(result == "ok")
        elif kind == "ask" and isinstance(result, str) and asking[1].key == "page":
            self.stack.push(CardPageScene(self.ctx, result))
        elif kind == "ask" and isinstance(result, str):
            self.ask_about(play.answer(asking[1], result))

    # -- layout and drawing ---------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        """From the top: the instruction line, the goal, the seats' areas (one column, two
        from 5 seats), the strip (the who-starts digits or the hand) and the message over
        the buttons: the tools at the left, the phase's two at the right."""
        m, (W, H), play = metrics, metrics.size, self.play
        margin, bh, wide = m.u(12), m.u(54), m.u(190)
        y = H - margin - bh
        b = button_row(TOOLS, margin, y, (m.u(92), bh), m.u(6), kind="quiet", size=m.small + 2)
        for tool in b:  # Undo is off, as in every game, while nothing can go back
            tool.enabled = tool.name != "undo" or play.can_undo()
        pair = (W - margin - 2 * wide - m.u(8), y, (wide, bh), m.u(8))  # two at the right
        state, owner, shows = play.state, play.hand_owner(), play.wants("reveal")
        if state.phase == "refill" and play.match.pending.chance is None:
            b += button_row(REFILLS, *pair, size=m.small + 2)
            for button in b[-2:]:
                button.enabled = play.can_refill(button.name.partition(".")[2])
        elif play.wants("objective") is not None:
            rect = pygame.Rect(W - margin - wide * 2, y, wide * 2, bh)
            b.append(Button("objective", rect, "Show the objective card"))
        else:
            trade, end = button_row(TURN, *pair)
            trade.kind, trade.enabled, end.enabled = "quiet", play.can_trade(), play.can_end()
            b += [trade, end]
        self.status_rect = pygame.Rect(margin, m.u(6), W - 2 * margin, m.u(40))
        self.goal_rect = pygame.Rect(margin, m.u(48), W - 2 * margin, m.u(34))
        self.message_rect = pygame.Rect(margin, y - m.u(50), W - 2 * margin, m.u(46))
        strip = self.message_rect.top - (m.u(58) if shows is not None else m.u(60))
        self.strip = pygame.Rect(margin, strip, W - 2 * margin, m.u(56 if shows is None else 54))
        if shows is not None:
            digits = [(f"reveal.{d}", str(d)) for d in range(10)]
            at = (W - margin - 10 * (m.u(46) + m.u(6)), strip + m.u(2), (m.u(46), m.u(50)))
            b += button_row(digits, *at, m.u(6), kind="quiet", size=m.big)
        elif owner is not None:
            hand = [(f"hand.{i}", "") for i in range(len(state.players[owner].hand))]
            row = (margin + m.u(130), strip + m.u(2), (m.u(48), m.u(52)), m.u(8))
            b += button_row(hand, *row, kind="card")
        else:
            self.strip.top, self.strip.height = self.message_rect.top, 0
        top, n = self.goal_rect.bottom + m.u(6), len(play.seats)
        cols = 1 if n <= 4 else 2
        rows, gap = -(-n // cols), m.u(6)
        area = pygame.Rect(margin, top, W - 2 * margin, self.strip.top - m.u(6) - top)
        ah = (area.height - (rows - 1) * gap) // rows
        cells = grid(area, n, cols, gap, ah, rows)  # down, then across
        self.buttons = b + [Button(f"area.{s}", r, kind="area") for s, r in enumerate(cells)]

    def step_shown(self) -> str:
        """The step on this table's own top line (its sentences have a box of their own)."""
        return " ".join(self.play.next_step().split())

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        surface.fill(p.background)
        r = self.status_rect
        painter.line(
            surface, self.play.next_step(), r.midleft, m.text, r.width, bold=True, anchor="midleft"
        )
        r, goal = self.goal_rect, play.goal_line()
        if play.settings.mode == "challenge":
            painter.box(surface, r, (250, 236, 150), p.line, 2, m.u(8))
            at, width = (r.left + m.u(10), r.centery), r.width - m.u(20)
            painter.line(surface, goal, at, m.text, width, bold=True, anchor="midleft")
        else:
            painter.line(surface, goal, r.midleft, m.small + 2, r.width, p.muted, anchor="midleft")
        for b in self.buttons:
            if b.kind == "area":
                self._draw_area(surface, int(b.name[5:]), b.rect)
        self._draw_strip(surface)
        colour = {"error": p.bad, "good": p.good}.get(play.tone, p.ink)
        painter.box(surface, self.message_rect, p.panel, p.line, 1, m.u(8))
        inside = self.message_rect.inflate(-m.u(16), -m.u(6))
        painter.paragraph(surface, self.message, inside, m.text, colour, bold=play.tone == "error")
        painter.buttons(surface, [b for b in self.buttons if b.kind not in ("area", "card")])
        if play.banner is not None:
            self._draw_banner(surface, play.banner)

    def chip_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """An area's seat chip: at its top left, or down its side in a short area (two text
        lines)."""
        m = self.m
        compact = rect.height < m.u(64)
        h = rect.height - m.u(8) if compact else min(m.u(30), rect.height - m.u(8))
        return pygame.Rect(rect.left + m.u(4), rect.top + m.u(4), m.u(26 if compact else 30), h)

    def coin_pile(self, rect: pygame.Rect) -> tuple[tuple[int, int], int]:
        """Where an area's coins are drawn (centre, radius), where won coins fly to: under
        the seat's chip, or beside it in a short area."""
        m, chip = self.m, self.chip_rect(rect)
        if rect.height < m.u(64):
            radius = m.u(7)
            return (chip.right + m.u(6) + radius, rect.top + rect.height * 3 // 4), radius
        return (rect.left + m.u(16), min(rect.bottom - m.u(12), chip.bottom + m.u(16))), m.u(10)

    def _draw_area(self, surface: pygame.Surface, seat: int, rect: pygame.Rect) -> None:
        """One seat's area: its chip, name and coins on the left (a progress bar in the
        coin race), the cards read left to right and the device's ruling under them."""
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        player, reading = play.state.players[seat], play.readings.get(seat)
        active = seat == play.state.active and play.state.phase in ("plant", "planted")
        edge = (p.selected, m.u(4)) if active else (p.line, 1)
        painter.box(surface, rect, p.panel, *edge, m.u(8))
        info_w = m.u(190) if len(play.seats) <= 4 else m.u(150)
        compact, chip = rect.height < m.u(64), self.chip_rect(rect)
        name = play.name(seat)
        if play.seats[seat].bot and not name.startswith("Bot"):
            name += " (bot)"
        y = rect.top + rect.height * 3 // 10 if compact else chip.centery
        width = rect.left + info_w - chip.right - m.u(6)
        painter.seat_name(surface, chip, seat, name, m.small + 1, width, chip_size=m.small, y=y)
        centre, radius = self.coin_pile(rect)
        painter.coin(surface, centre, radius)
        coins = plural(player.coins, "coin") + ("" if compact else f" · {len(player.hand)} in hand")
        x = centre[0] + radius + m.u(6)
        painter.line(
            surface, coins, (x, centre[1]), m.small, rect.left + info_w - x, anchor="midleft"
        )
        target = play.settings.target_coins
        bar = pygame.Rect(rect.left + m.u(6), rect.bottom - m.u(7), info_w - m.u(12), m.u(4))
        if play.settings.mode == "normal" and bar.top > centre[1] + m.u(10):
            pygame.draw.rect(surface, p.quiet, bar)
            bar.width = bar.width * min(player.coins, target) // target
            pygame.draw.rect(surface, p.good, bar)
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
            colour = {"bad": p.bad, "good": p.good}.get(status[1], p.muted)
            at, words = (room.left, room.top + ch + m.u(2)), (status[0], status[2])
            text = painter.first_fit(words, painter.least, room.width)  # the short one if need be
            painter.line(surface, text, at, m.small, room.width, colour)

    def _draw_strip(self, surface: pygame.Surface) -> None:
        """Who shows a who-starts card (its digits are buttons), or the hand of whose move
        it is, with a tip."""
        painter, m, p, play, r = self.ctx.painter, self.m, self.ctx.painter.p, self.play, self.strip
        who, owner = play.wants("reveal"), play.hand_owner()
        if not r.height:
            return
        cards = [b for b in self.buttons if b.name.startswith(("reveal.", "hand."))]
        seat = who if who is not None else owner or 0
        own, tail = (":", "") if who is not None else ("'s", " hand")
        width = (cards[0].rect.left if cards else r.right) - r.left - m.u(8)
        name = play.name(seat)
        size = painter.readable_size(name + own, m.text, width, True)
        room = width - painter.fonts.width(own, size, True)  # the name's line, as line() fits it
        label = painter.ellipsis(name, size, room, True) + own + tail
        box = pygame.Rect(r.left, r.top, width, r.height)  # left of the strip's buttons
        painter.paragraph(surface, label, box, size, bold=True)
        if who is not None:
            return
        hand, taken = play.state.players[owner or 0].hand, play.taken()
        for b in cards:
            i = int(b.name[5:])
            draw_card(painter, surface, b.rect, hand[i], selected=i == taken)
        x = (cards[-1].rect.right if cards else r.left + m.u(130)) + m.u(14)
        lost = play.lost(owner or 0)  # the news beside the hand, else the tip
        tip = lost or child_message("mecs.ui.hand_tip")
        at, ink = pygame.Rect(x, r.top, r.right - x, r.height), p.ink if lost else p.muted
        painter.paragraph(surface, tip, at, m.text, ink)

    def _draw_banner(self, surface: pygame.Surface, banner: Banner) -> None:
        """The banner over the table, its coins flying under it from the area to the
        winner's coin pile (they never hide its words)."""
        painter, m, p, now = self.ctx.painter, self.m, self.ctx.painter.p, self.ctx.clock()
        areas = {int(b.name[5:]): b.rect for b in self.buttons if b.kind == "area"}
        if banner.to_seat in areas and banner.source in areas:
            start, (end, _) = areas[banner.source].center, self.coin_pile(areas[banner.to_seat])
            span = max(0.01, banner.until - banner.start - 0.5)
            for i in range(min(banner.coins, 15)):
                t = (now - banner.start - i * 0.08) / span
                t = 0.35 + 0.65 * t if now == banner.start else t  # a still frame: in the air
                t = min(1.0, max(0.0, t))
                arc = m.u(60) * 4 * t * (1 - t)  # up, and down onto the pile
                x = start[0] + (end[0] - start[0]) * t + (i % 5 - 2) * m.u(10)
                y = start[1] + (end[1] - start[1]) * t - arc + (i // 5) * m.u(8)
                painter.coin(surface, (round(x), round(y)), m.u(11))
        rect = pygame.Rect(0, 0, m.width - m.u(80), m.u(120))
        rect.center = (m.width // 2, m.height // 2 - m.u(30))
        painter.box(surface, rect, (255, 244, 200), p.selected, m.u(4), m.u(16))
        top, size = (rect.centerx, rect.top + m.u(8)), m.title + m.u(8)
        painter.text(surface, banner.title, top, size, p.good, bold=True, anchor="midtop")
        body = rect.inflate(-m.u(32), -m.u(64))
        body.top = rect.top + m.u(60)
        painter.paragraph(surface, banner.text, body, m.text, align="center")


__all__ = ["BOT_SECONDS", "MecsTable", "coin_words", "resume_scene"]
