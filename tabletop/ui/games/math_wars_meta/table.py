"""The Math Wars Meta table on the one base (:class:`~tabletop.ui.table.TableScene`): the
controller :class:`~.play.MwmPlay` keeps the game and says what to do; the scene lays
out and draws every player's Score Card (cards, answer box, I'm ready! tile).

Touch targets: ``count.<s>`` and ``crate.<s>`` (a seat's cards: tap to type or correct
them), ``solve.<s>`` (YOUR SOLUTION on the number pad), ``seat.<s>`` and ``ready.<s>``
(the seat button's touch twins), ``next``, ``why``, ``rules``, ``teacher``, ``leave``.
The camera's ``CardsSeen(seat, "battle", ...)`` brings each battle pile. Times of
answers (Solo's time per round, MWM-8) are seconds of play, so they carry on across a
restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pygame

from tabletop.engine.errors import BadInput
from tabletop.engine.words import and_joined, plural
from tabletop.games.math_wars_meta import (
    CRATE_CARDS,
    CardCode,
    crate_label,
    face_down,
    hand_result,
    parse_code,
    problem_text,
)
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_wars_meta.play import CardProblem, MwmPlay
from tabletop.ui.games.math_wars_meta.verdict import Verdict, results_lines, signed, taken_back
from tabletop.ui.input import CardsSeen, SeatPressed
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import GameSave
from tabletop.ui.scenes.common import Choices
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.table import TableScene
from tabletop.ui.theme import SEAT_COLOURS, Color, Metrics, seat_text_colour
from tabletop.ui.widgets import Button, Paged, Print, grid

log = logging.getLogger(__name__)

CRATE_FILL = (255, 246, 196)
WHITE = (255, 255, 255)


class MwmTable(TableScene):
    game = "math-wars-meta"
    camera_off = "mwm.ui.camera_off"
    play: MwmPlay
    save: GameSave  # always journaled

    def __init__(
        self,
        ctx: Context,
        play: MwmPlay,
        save: GameSave,
        *,
        resumed: bool = False,
        again: Callable[[], Scene] | None = None,
    ) -> None:
        super().__init__(ctx, save, resumed=resumed, again=again)
        self.play = play
        self.panels: list[pygame.Rect] = []
        self.feet: list[pygame.Rect] = []  # each Score Card's last line
        self.bands: list[pygame.Rect] = []  # each team's tag left of its rows (7-8 seats)
        self.lent = 0  # px of each chip's width the bands take

    # -- what the base asks ---------------------------------------------------------------

    def status(self) -> str:
        """What just happened (the verdict's few sentences, before a refusal), or the step."""
        verdict, said = self.play.verdict, self.message
        if verdict is not None and (not said or self.play.tone == "error"):
            what = self.play.facts()["next"]
            told = " ".join(verdict.summary or verdict.lines[-3:])
            return f"{told} {said or f'Tap {what}.'}"
        return super().status()

    def step_shown(self) -> str:
        """Beside a refusal the verdict stays on the line; it was said when it came."""
        kept = self.play.verdict is not None and self.message and self.play.tone == "error"
        return "" if kept else super().step_shown()

    def rules_scene(self) -> Scene:
        from tabletop.ui.games.math_wars_meta.setup import rules_scene

        return rules_scene(self.ctx, self.play.settings.edition)

    def teacher_help(self) -> str:
        return "For teachers: take back a step, or award a penalty card."

    def outcome(self) -> Outcome:
        play, settings, victories = self.play, self.play.settings, self.play.state.victories
        result = play.match.result()
        assert result is not None
        best = max(victories)
        sides = sorted({settings.side_of(s) for s in result.winners})
        who = and_joined([play.side_name(side) for side in sides])
        why = f"{who} won {plural(best, 'VICTORY! card')}"
        out = outcome_of(
            result,
            [seat.name for seat in play.seats],
            score=lambda value: f"{value} \u2605",
            reason=f"you won all {best} rounds" if play.solo else why,
            lines=results_lines(play),
            stars=lambda seat: (victories[settings.side_of(seat)], settings.ed.victory_cards),
        )
        if play.solo or settings.mode == "teams":
            out.title = "You won the game!" if play.solo else f"{who} win{'s' * (len(sides) == 1)}!"
        return out

    # -- lifecycle ------------------------------------------------------------------------

    def card_seats(self) -> int:
        """The camera reads the battle piles while any child plays real cards."""
        seats = self.play.seats
        return len(seats) if any(not seat.auto_cards for seat in seats) else 0

    def begin(self) -> None:
        self.play.pump()

    def save_table(self) -> None:
        if not self.saved_end:
            self.save.answers_from_match(self.play.answers)
        super().save_table()

    # -- layout ---------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin, bh = m.u(12), m.u(50)
        top_row = (
            ("leave", "Leave", 96, 96),
            ("teacher", "Teacher", 214, 110),
            ("rules", "Rules", 312, 90),
        )
        b = [
            Button(name, pygame.Rect(W - margin - m.u(x), m.u(6), m.u(w), bh), label, kind="quiet")
            for name, label, x, w in top_row
        ]
        b += self.score_card_buttons(m.u(62), H - m.u(112))
        self.message_rect = pygame.Rect(margin, H - m.u(104), W - 2 * margin - m.u(250), m.u(96))
        why = pygame.Rect(W - margin - m.u(240), H - m.u(104), m.u(80), m.u(48))
        on = self.play.verdict is not None
        b.append(Button("why", why, "Why?", kind="quiet", enabled=on))
        rect = pygame.Rect(W - margin - m.u(240), H - m.u(54), m.u(240), bh)
        b.append(Button("next", rect, self.play.next_label(), enabled=on or self.finished))
        self.buttons = b

    def score_card_buttons(self, top: int, bottom: int) -> list[Button]:
        """The panels between ``top`` and ``bottom``, and each seat's touch targets."""
        m, n, painter = self.m, len(self.play.seats), self.ctx.painter
        margin, gap = m.u(12), m.u(8)
        cols = 2 if n >= 7 else 3 if n >= 5 else n
        rows = -(-n // cols)
        area = pygame.Rect(margin, top, m.width - 2 * margin, bottom - top)
        if n == 1:  # one Score Card: not wider than 520, in the middle
            area.width = min(area.width, m.u(520))
            area.left = (m.width - area.width) // 2
        # 7-8 seats: two teams of four or four of two, a team a row or two: its tag once,
        # left of its rows, not on each seat's chip (where it left the name "Play…")
        teams = self.play.settings.teams if n >= 7 else ()
        tags = (f"T{len(teams)}", f"\u2605{self.play.settings.ed.victory_cards}")
        band = max(painter.fonts.width(t, painter.least, True) for t in tags) + m.u(10)
        self.lent = (band + gap) // 2 if teams else 0  # from each chip: the cards keep theirs
        area.left, area.width = area.left + 2 * self.lent, area.width - 2 * self.lent
        self.panels = grid(area, n, cols, gap, (area.height - (rows - 1) * gap) // rows)
        spans = [(self.panels[t[0]].top, self.panels[t[-1]].bottom) for t in teams]
        self.bands = [pygame.Rect(margin, y, band, end - y) for y, end in spans]
        self.feet = []
        return [b for seat, rect in enumerate(self.panels) for b in self._panel_buttons(seat, rect)]

    def _panel_buttons(self, seat: int, r: pygame.Rect) -> list[Button]:
        """A Score Card's targets: the seat's chip (a touch high) over its cards and
        answer box, and while the seat's answer waits for its button, the I'm ready! tile
        under the answer. A Score Card too short for the answer over the tile (a full
        table) has the card's last line in the chip under the seat's name, and the tile
        beside it; one too short for the chip over its cards (7-8 seats) has the chip
        left of them, and the chip itself is the tile, the seat's name on it."""
        m = self.m
        foot, gap, tall, touch = m.u(26), m.u(6), m.u(52), m.touch
        chip = pygame.Rect(r.left + m.u(4), r.top + m.u(4), r.width - m.u(8), touch)
        top = chip.bottom + m.u(2)
        inner = pygame.Rect(r.left + m.u(6), top, r.width - m.u(12), r.bottom - foot - 10 - top)
        compact = inner.height < tall + gap + touch
        side = r.height < 2 * touch + m.u(16)
        if side:  # the chip left of the cards
            chip.width, chip.centery = (r.width + self.lent) * 2 // 5 - self.lent, r.centery
            top = chip.right + gap
            inner = pygame.Rect(top, r.top + m.u(4), r.right - m.u(6) - top, r.height - m.u(8))
        elif compact:
            top = chip.bottom + m.u(4)
            inner = pygame.Rect(inner.left, top, inner.width, r.bottom - m.u(6) - top)
        if inner.height >= inner.width * 0.8:
            # a tall Score Card: the two cards side by side, YOUR SOLUTION below them
            cw = (inner.width - gap) // 2
            answer = inner.height - 2 * gap - tall - touch  # the answer over its tile
            ch = min(int(cw * 1.3), (inner.height - gap) * 6 // 10, answer)
            count = pygame.Rect(inner.left, inner.top, cw, ch)
            crate = pygame.Rect(count.right + gap, inner.top, cw, ch)
            solve = pygame.Rect(inner.left, count.bottom + gap, inner.width, 0)
            solve.height = min(inner.bottom - solve.top, m.u(110))
        else:  # each card as wide as its caption needs, where a third of the row allows
            ch, eq = min(inner.height, m.u(150)), m.u(22)
            third = (inner.width - m.u(24)) // 3
            cw = min(int(ch * 0.72), third)
            ch = min(ch, int(cw / 0.6))
            y = inner.top + (inner.height - ch) // 2
            count = pygame.Rect(inner.left, y, max(cw, min(self.caption_room("COUNT"), third)), ch)
            # no wider than leaves the answer box room for its caption
            rest = inner.right - count.right - gap - eq - self.caption_room("SOLUTION")
            crate_w = max(min(cw, rest), min(self.caption_room("CRATE"), third))
            crate = pygame.Rect(count.right + gap, y, crate_w, ch)
            solve = pygame.Rect(crate.right + eq, y, inner.right - crate.right - eq, ch)
        ready, twin, waits = None, "seat", self.play.wants_press(seat)
        if waits and side:  # the seat button's touch twin: the chip, or a tile beside it
            twin = "ready"
        elif waits and compact:
            ready = pygame.Rect(0, chip.top, max(touch, chip.width // 3), touch)
            ready.right = chip.right
            chip.width -= ready.width + gap
        elif waits:
            ready = pygame.Rect(solve.left, solve.bottom - tall, solve.width, tall)
            solve.height -= tall + gap
        if compact:  # the last line under the seat's name (left of the tile, or in it)
            last = pygame.Rect(r.left, chip.centery, chip.right + m.u(4) - r.left, touch // 2)
            self.feet.append(last.clip(chip) if twin == "ready" else last)
        else:
            self.feet.append(pygame.Rect(r.left, r.bottom - foot, r.width, m.u(20)))
        targets = {"count": count, "crate": crate, "ready": ready, "solve": solve}  # in order
        out = [Button(f"{twin}.{seat}", chip, self.play.name(seat), kind=twin)]
        return out + [
            Button(f"{k}.{seat}", t, "", kind=k) for k, t in targets.items() if t is not None
        ]

    def cards_of(self, seat: int) -> pygame.Rect:
        """Where ``seat``'s two cards are on screen (a number pad stays off them)."""
        return self.place("count", seat).union(self.place("crate", seat))

    def place(self, kind: str, seat: int) -> pygame.Rect:
        """Where ``seat``'s ``kind`` target (seat, count, crate, solve) is on screen (its
        chip also while the chip is its Ready tile)."""
        names = (f"{kind}.{seat}", f"ready.{seat}" if kind == "seat" else "")
        return next(b.rect for b in self.buttons if b.name in names)

    # -- input ----------------------------------------------------------------------------

    def explain(self, name: str) -> None:
        if name == "next" and self.play.waiting_for_cards():  # naming every seat it waits for
            self.refuse("mwm.ui.wait_cards", "next before the cards")
            return
        super().explain(name)
        if name in ("next", "why"):
            self.message = child_message(f"mwm.ui.off_{name}")

    def press(self, name: str) -> None:
        kind, _, arg = name.partition(".")
        if name == "why" and self.play.verdict is not None:
            self.why(self.play.verdict.lines)
        elif name == "next":
            self.next()
        elif kind in ("count", "crate", "solve"):
            self.ask_for(kind, int(arg))
        else:
            super().press(name)

    def why(self, lines: list[str], page: int = 0) -> None:
        """The verdict's reasons ``lines``, page ``page`` of them: as many as fit the dialog
        at the body text size, with More for the rest (a full table's do not fit one)."""
        painter, m, size = self.ctx.painter, self.m, (760, 440)
        title, ok = "What happened, and why", ("close", "OK", "primary")
        probe = Choices(self.ctx, title, "", (ok,), size=size)
        probe.layout(m)
        body, line = probe.body(), painter.fonts.font(m.text).get_linesize()
        rows = (probe.buttons[0].rect.top - body.top) // line
        sizes = [len(painter.wrap(text, m.text, body.width)) for text in lines]
        pages = Paged.fitting(lines, sizes, rows)
        answers = (ok,) if page + 1 == len(pages) else (("more", "More", "quiet"), ok)
        text = "\n".join(pages[page])
        self.ask(("why", lines, page + 1), Choices(self.ctx, title, text, answers, size=size))

    def next(self) -> None:
        play = self.play
        if play.finished:
            self.show_results()
        elif play.verdict is not None:
            self.message = ""
            self.ctx.sounds.play("round" if play.verdict.round_over else "tap")
            play.next_hand()

    def ask_for(self, kind: str, seat: int) -> None:
        """The dialog for ``seat``'s ``kind`` (``count`` or ``crate``: a card typed in;
        ``solve``: YOUR SOLUTION), or why not now."""
        play, name = self.play, self.play.name(seat)
        code = play.refusal(seat, "solution" if kind == "solve" else "card")
        up, crate = play.cards_up(seat)
        if code is not None:
            self.refuse(code, f"{kind} of seat {seat + 1} refused", name=name)
        elif kind == "solve" and up is not None:
            self.ask_pad(("solve", seat), "YOUR SOLUTION", hint=f"{problem_text(up[1], crate)} = ?")
        elif kind == "count":
            top = play.settings.ed.count_numbers[-1]
            kw = {"negative": False, "max_digits": len(str(top)), "hint": f"1 to {top}"}
            self.ask_pad(("count", seat), "COUNT META card", **kw)
        elif kind == "crate":
            choices = [(face, crate_label(face)) for face in CRATE_CARDS]  # key: face, label ×3
            title = f"{name}: your MATH CRATE card"
            self.ask(("crate", seat), ChoiceGrid(self.ctx, title, choices, columns=10, rows=4))

    def ask_pad(self, asking: tuple[Any, ...], what: str, **kw: Any) -> None:
        """The number pad for seat ``asking[1]``'s ``what``, beside the cards it is about."""
        seat, title = asking[1], f"{self.play.name(asking[1])}: {what}"
        beside, band = (
            self.team_cards(seat) if asking[0] == "team" else (self.cards_of(seat), False)
        )
        self.ask(asking, NumPad(self.ctx, title, beside=beside, band=band, **kw))

    def team_cards(self, seat: int) -> tuple[pygame.Rect, bool]:
        """The cards a TEAM SOLUTION needs in view (MWM-7), the whole team's, and whether
        the pad goes across the screen above or below them (a team across the table: Duos
        at 8 seats, Trios, Quads) for want of room beside them for touch-sized keys; then
        their names too, which say whose cards they are (it hid Trios' team 2's)."""
        m, settings = self.m, self.play.settings
        team = settings.side_seats(settings.side_of(seat))
        cards = self.cards_of(team[0]).unionall([self.cards_of(other) for other in team[1:]])
        need = 4 * m.touch + m.u(3 * 8 + 32 + 8) + 4  # four keys, their gaps, the margins
        band = max(cards.left, m.width - cards.right) < need
        return (cards.unionall([self.place("seat", o) for o in team]) if band else cards), band

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        kind, *args = asking
        if result is None:  # cancelled
            return
        if kind in ("count", "crate"):
            self.message = ""  # a card typed in: a refusal before it is over
            number, face = (result, None) if kind == "count" else (None, result)
            self.card(args[0], CardCode(kind, number=number, face=face))
        elif kind == "solve":
            self.typed(args[0], result)
        elif kind == "team":  # the seat, its own answer, the team's typed
            self.typed(args[0], args[1], result)
        elif kind == "ask":  # the teacher's menu (the controller's question)
            self.teacher(result)
        elif kind == "why" and result == "more":
            self.why(*args)

    def typed(self, seat: int, value: int, team: int | None = None) -> None:
        play = self.play
        if seat not in play.solving():
            return
        if team is None and play.answer_for(seat).team_solution is not None:
            own = f"{signed(value)} + your team's"  # in the title: in view while typing
            self.ask_pad(("team", seat, value), own, hint="TEAM SOLUTION")
            return
        play.type_solution(seat, value, team)
        if play.solo:
            self.seat_pressed(seat, self.ctx.clock())
        else:
            self.message = f"{play.name(seat)}: now press your seat button, or tap I'm ready!"

    def seat_pressed(self, seat: int, at: float) -> None:
        play, before = self.play, self.play.verdict
        # the press's time in seconds of play (the journal's clock, which carries on
        # after a restart), not the app's clock
        outcome = play.press(seat, self.save.elapsed() - max(0.0, self.ctx.clock() - at))
        if outcome == "ready":
            self.ctx.sounds.play("tap")
            if not self.verdict_sound(before):
                self.message = f"{play.is_ready_words(seat)} {play.next_step()}".strip()
        elif outcome == "pad":
            self.ask_for("solve", seat)
        else:
            self.refuse(outcome, f"seat {seat + 1} pressed", name=play.name(seat))

    def hold(self, event: CardsSeen | SeatPressed) -> bool:
        """A child's press that would open their number pad, while another child's pad
        (opened by their press) is open: told to wait for them, and not kept (their pad
        would open later, unasked). Any other is held as the base holds it."""
        play, asker = self.play, self.asked_by
        if (
            isinstance(event, CardsSeen)
            or asker is None
            or asker == event.seat
            or not isinstance(self.stack.top, NumPad)
            or event.seat not in play.solving()
            or event.seat in play.typed
        ):
            return super().hold(event)
        names = {"name": play.name(event.seat), "other": play.name(asker)}
        self.refuse("mwm.ui.wait_pad", f"seat {event.seat + 1} pressed under a pad", **names)
        return True

    def cards_seen(self, event: CardsSeen) -> None:
        if event.area not in (None, "battle"):
            log.info("mwm: cards in area %r ignored", event.area)
            return
        if event.seat is None or not 1 <= event.seat <= len(self.play.seats):
            if event.cards:
                self.refuse("mwm.ui.no_seat", f"cards seen outside every seat: {event.codes}")
            return
        self.message, victories = "", 0
        for code in event.codes:
            try:  # the play checks the number against the edition, naming both
                card = parse_code(code, edition=None)
            except BadInput as e:
                why = "other_game" if e.code == "mwm.other_game" else "foreign_card"
                self.refuse(f"mwm.ui.{'unreadable' if code == '?' else why}", str(e))
                continue
            victories += card.kind == "victory"
            self.card(event.seat - 1, card, victories)

    def card(self, seat: int, card: CardCode, victories: int = 0) -> None:
        play, before, said = self.play, self.play.verdict, self.play.sentences
        try:
            play.card_seen(seat, card, victories)
        except CardProblem as e:
            self.refuse(e.code, str(e), **e.facts)
            return
        refused = play.sentences != said and play.tone == "error"
        self.ctx.sounds.play("wrong" if refused else "seen")
        self.verdict_sound(before)

    def verdict_sound(self, before: Verdict | None) -> bool:
        """A verdict came (other than ``before``): its sound, the message box left to it.
        False if none came."""
        verdict = self.play.verdict
        if verdict is None or verdict is before:
            return False
        self.message = ""
        self.ctx.sounds.play("star" if verdict.round_over else "good")
        return True

    # -- the teacher ----------------------------------------------------------------------

    def teacher(self, choice: str) -> None:
        play = self.play
        self.message = ""
        if choice == "undo":
            action = play.undo()
            log.info("mwm: teacher undid %s", action)
            self.message = taken_back(play, action)
        elif choice == "splash":
            play.splash(None)
        elif choice.startswith("award."):
            play.splash(int(choice[len("award.") :]))
            self.ctx.sounds.play("star")

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        room, title = m.width - m.u(350), self.title_line()
        painter.text(surface, title, (m.u(14), m.u(10)), m.title, bold=True, max_width=room)
        settings = self.play.settings
        goal = f"{settings.edition}: {settings.ed.victory_cards} VICTORY! cards win"
        painter.line(surface, goal, (m.u(16), m.u(12) + m.title), painter.least, room, p.muted)
        for seat, rect in enumerate(self.panels):
            self.draw_panel(surface, seat, rect)
        for side, band in enumerate(self.bands):  # a team's tag: its number, its stars
            painter.box(surface, band, p.panel, p.line, 2, m.u(10))
            tag = [
                (f"T{side + 1}", painter.least, True),
                (f"\u2605{self.play.state.victories[side]}", painter.least, False),
            ]
            painter.lines(surface, tag, band, p.ink)
        painter.buttons(surface, [b for b in self.buttons if b.kind in ("primary", "quiet")])
        self.draw_status(surface, self.message_rect, lit=self.play.verdict is not None)

    def title_line(self) -> str:
        state, verdict = self.play.state, self.play.verdict
        if verdict is None:
            war = " \u00b7 MATH WAR!" if state.stage.kind == "war" else ""
            return f"Round {state.round} \u00b7 Hand {state.hands + 1}{war}"
        highest = "" if verdict.highest is None else f" \u00b7 HIGHEST {signed(verdict.highest)}"
        war = " \u00b7 WAR!" if verdict.war else ""
        return f"Round {verdict.round} \u00b7 Hand {verdict.hand}{highest}{war}"

    def draw_panel(self, surface: pygame.Surface, seat: int, r: pygame.Rect) -> None:
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        zone, out = play.state.zones[seat], self.out(seat)
        active = seat in play.table_stage.seats and not out
        lit = seat in play.ready
        border = p.selected if lit or seat in play.waiting_for_cards() else p.line
        fill = p.panel if not out else p.quiet
        painter.box(surface, r, fill, border, m.u(3) if lit else 2, m.u(10))
        chip, foot = self.place("seat", seat), self.feet[seat]
        tile, ink, muted = self.target(f"ready.{seat}"), p.ink, p.muted
        on_chip = tile is not None and tile.rect == chip
        if on_chip:  # the chip is the seat's Ready tile (7-8 seats): its words on it
            fill, edge = (SEAT_COLOURS[seat], None) if lit else (p.panel, SEAT_COLOURS[seat])
            painter.box(surface, chip, fill, edge, m.u(3), m.u(10))
            ink = muted = seat_text_colour(seat) if lit else p.ink
            chip, tile = chip.inflate(-m.u(10), -m.u(6)), None
        num = pygame.Rect(chip.left, chip.top, m.u(30), min(chip.height, m.u(28)))
        if chip.collidepoint(foot.center):  # the number and name over the last line
            num.height = foot.top - chip.top
        else:
            num.centery = chip.centery
        y = num.centery
        side = play.settings.side_of(seat)
        team = f"T{side + 1} " if play.settings.mode == "teams" else ""
        right = "" if self.bands else f"{team}\u2605{play.state.victories[side]}"
        rw = painter.fonts.width(right, m.small - 2) + m.u(8) if right else 0  # and a gap
        at = (chip.right - m.u(4), y)
        painter.line(surface, right, at, painter.least, rw, muted, anchor="midright")
        room = chip.width - num.width - rw - m.u(6)  # the name to the chip's end (7-8 seats)
        name, size = play.name(seat), m.small
        painter.seat_name(surface, num, seat, name, size, room, colour=ink, chip_size=size + 2, y=y)
        up, crate = play.cards_up(seat)
        count_at, crate_at, solve_at = (self.place(k, seat) for k in ("count", "crate", "solve"))
        number = up[1] if up else None
        label = None if number is None else str(number)
        self._slot(surface, count_at, "COUNT", label, active, WHITE, SEAT_COLOURS[seat], 5)
        down = face_down(play.state, seat)
        if down and number is not None:
            at = (count_at.right - m.u(4), count_at.top + m.u(6))
            text = f"+{down}\u2193"
            least, width = painter.least, count_at.width
            painter.line(surface, text, at, least, width, p.bad, bold=True, anchor="topright")
        face = None if crate is None else crate_label(crate)
        self._slot(surface, crate_at, "CRATE", face, active, CRATE_FILL, p.line)
        if solve_at.left > crate_at.right:
            eq = ((crate_at.right + solve_at.left) // 2, crate_at.centery)
            painter.text(surface, "=", eq, m.big, bold=True, anchor="center")
        self._solution(surface, solve_at, seat, number, crate)
        words = ("Ready \u2713" if lit else "I'm ready!", "Ready", "\u2713")
        if tile is not None:  # I'm ready! (lit once the seat pressed, like its LED)
            label = painter.first_fit(words, m.small, tile.rect.width - m.u(12), True)
            painter.ready_tile(surface, tile.rect, seat, lit, label)
        foot_y = foot.centery
        text, colour = (words[0], ink) if on_chip else self._foot(seat)
        room = foot.width - m.u(16)
        decks = None if play.verdict is None else play.verdict.decks  # a round's end
        left = len(zone.draw) if decks is None else decks.get(seat, -1)  # -1: out
        deck = f"deck {left}"
        deck_w = painter.fonts.width(deck, m.small - 2) + m.u(12)
        if painter.fonts.width(text, m.small - 1, True) <= room - deck_w and left >= 0:
            room -= deck_w
            at = (foot.right - m.u(10), foot_y)
            painter.line(surface, deck, at, painter.least, deck_w, muted, anchor="midright")
        at = (foot.left + m.u(8), foot_y)
        # too long (big numbers, a chip beside its tile, 7-8 seats): what the seat loses, is
        # to do, or OUT; in bold, else in regular weight (whole if it fits)
        short = text.rpartition(" \u00b7 ")[2].replace("your ", "").replace(" of this round", "")
        forms = [(w, b) for b in (True, False) for w in (text, short)]
        fit = [(w, b) for w, b in forms if painter.fonts.width(w, painter.least, b) <= room]
        text, bold = fit[0] if fit else forms[-1]
        painter.line(surface, text, at, m.small - 1, room, colour, bold=bold, anchor="midleft")

    def caption_room(self, caption: str) -> int:
        """The width a card needs for its ``caption`` at the smallest size a child reads,
        inside a thin border."""
        return self.ctx.painter.fonts.width(caption, self.ctx.painter.least) + 2 * self.m.u(3)

    def _slot(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        caption: str,
        label: str | None,
        active: bool,
        fill: Color,
        border: Color,
        width: int = 2,
    ) -> None:
        """A seat's count or crate: empty (a "?" while the seat is to show it) or its
        ``label`` large, with ``caption`` at the foot."""
        painter, m, p, h = self.ctx.painter, self.m, self.ctx.painter.p, rect.height
        room = rect.width - painter.fonts.width(caption, painter.least)
        # the label's room: over the caption (when it fits across)
        above = h - m.u(5) - painter.fonts.font(painter.least).get_linesize() if room >= 4 else h
        if label is None:
            prints = [Print("?", m.big, min(h // 2, above - m.big // 2), colour=p.muted)]
            prints = prints if active else []
            fill, border, width = p.background, p.muted if active else p.quiet, 2
        else:
            size = min(m.big + m.u(16), h // 2, above * 4 // 5)  # smaller to fit, never below 18
            size = max(m.small, painter.fit_size(label, size, rect.width - 6, True))
            prints, width = [Print(label, size, min(h // 2, above - size // 2))], max(2, m.u(width))
        if room >= 4:  # whole, inside a border thinned to make room (never below 2), or left out
            width = min(width, room // 2)
            foot = h - m.u(5)
            prints.append(Print(caption, painter.least, foot, False, "midbottom", p.muted))
        painter.card(
            surface, rect, prints, p.ink, fill=fill, edge=border, width=width, radius=m.u(8)
        )

    def _solution(
        self, surface: pygame.Surface, rect: pygame.Rect, seat: int, number: int | None,
        crate: str | None,
    ) -> None:  # fmt: skip
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        verdict = play.verdict
        answered = seat in play.ready or seat in play.entries  # a bot's: never its answer
        solving = seat in play.solving() or answered
        fill = WHITE if solving else p.background
        border = p.selected if solving and not answered else p.line
        painter.box(surface, rect, fill, border, m.u(3) if solving else 2, m.u(8))
        least, width = painter.least, rect.width - 6
        big, line = min(m.big + m.u(6), rect.height // 2), painter.fonts.font(least).get_linesize()
        # too short for the mark under its caption (a Ready tile below): the two in a row
        beside = rect.height < line + big + m.u(8)
        big = min(m.big, rect.height - m.u(8)) if beside else big
        # the big mark, its ink, and the word under it in its colour
        room = rect.height >= big + 3 * m.small  # under the mark (not above a Ready tile)
        settled = verdict is not None and number is not None
        mark, word, colour, ink = "", "", p.muted, p.ink
        if verdict is not None and number is not None:  # the right answer, and theirs
            right, entry = verdict.answers.get(seat), verdict.entries.get(seat)
            value = right.solution if right else hand_result(number, crate)
            ok = right is not None and entry is not None and entry.solution == right.solution
            ink = colour = p.ink if right is None else p.good if ok else p.bad
            mark = signed(value)
            if right is not None and entry is not None:
                word = "\u2713 right" if ok else f"\u2717 not {signed(entry.solution)}"
        elif answered:
            mark, word, colour, ink = "\u2713", "ready", p.good, p.good
        elif seat in play.typed:
            mark, word, colour, ink = "\u2022\u2022\u2022", "press button", p.bad, p.ink
        elif solving:
            mark, word, colour, ink = "?", "tap", p.muted, p.selected
        mark_w = painter.fonts.width(mark, big, True) + m.u(12) if beside and mark else 0
        captions = ("YOUR SOLUTION", "SOLUTION", "YOURS", "")
        # too short for the verdict's word under the mark (7-8 seats): the word in the
        # caption's place, whole or in part ("✓ right", "right", "✓")
        instead = settled and bool(word) and rect.height < 2 * line + big + m.u(8)
        if instead:
            captions, word = (word, word[2:], word[0], ""), ""
        label = painter.first_fit(captions, least, width - mark_w, instead)
        tone, under = colour if instead else p.muted, word and (room or settled) and not beside
        if beside and label:
            at: tuple[int, int] = (rect.left + m.u(6), rect.centery)
            painter.text(surface, label, at, least, tone, bold=instead, anchor="midleft")
            at, anchor = (rect.right - m.u(6), rect.centery), "midright"
        else:  # the mark between its caption and the word under it, on neither
            at = (rect.centerx, rect.top + m.u(4))
            top = painter.text(surface, label, at, least, tone, bold=instead, anchor="midtop")
            ceiling = top.bottom if label else rect.top
            floor = rect.bottom - (line + m.u(4) if under else 0)
            at, anchor = (rect.centerx, (ceiling + floor) // 2), "center"
        painter.text(surface, mark, at, big, ink, bold=True, anchor=anchor)
        if under:
            foot = (rect.centerx, rect.bottom - m.u(4))
            painter.line(
                surface, word, foot, least, width, colour, bold=settled, anchor="midbottom"
            )

    def out(self, seat: int) -> bool:
        """``seat`` is out of the round; at a round's end, as the deciding hand left it
        (the state holds the next round's fresh decks then)."""
        decks = None if self.play.verdict is None else self.play.verdict.decks
        return self.play.state.zones[seat].out if decks is None else seat not in decks

    def _foot(self, seat: int) -> tuple[str, Color]:
        """The Score Card's last line: HIGHEST, difference, cards lost, or what to do."""
        play, p, verdict = self.play, self.ctx.painter.p, self.play.verdict
        if self.out(seat) and (verdict is None or seat not in verdict.lost):
            return "OUT of this round", p.bad
        if verdict is not None and verdict.highest is not None and seat in verdict.stage.seats:
            if seat in verdict.lost:  # (a team's TEAM SOLUTION: in the verdict's sentences)
                diff, lost = verdict.difference[seat], verdict.lost[seat]
                return f"diff {diff} \u00b7 loses {lost}", p.bad
            if verdict.war:
                return "tie: MATH WAR!", p.bad
            return "wins the hand!", p.good
        if play.seats[seat].bot:
            return "bot", p.muted
        if verdict is not None:  # the next hand's cards wait for Next (issue 21)
            return child_message("mwm.step.card_next", play.facts()), p.ink
        if seat in play.waiting_for_cards():
            return "cards, please!", p.ink
        if seat in play.ready:
            return "ready!", p.ink
        if seat in play.solving():
            return "press your button!" if seat in play.typed else "your answer?", p.ink
        return "", p.muted


__all__ = ["CRATE_FILL", "MwmTable"]
