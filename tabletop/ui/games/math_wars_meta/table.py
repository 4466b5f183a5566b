"""The Math Wars Meta table: every player's Score Card on screen, the cards from the
camera or touch, answers on a number pad, the device's rulings with their reasons.

Touch targets: ``count.<s>`` and ``crate.<s>`` (a seat's cards: tap to type or correct
them), ``solve.<s>`` (YOUR SOLUTION on the number pad), ``seat.<s>`` (the seat's name
chip: the same as its seat button), ``next``, ``why``, ``rules``, ``teacher``,
``leave``. Seat buttons (``SeatPressed``) say "my answer is in"; the camera's
``CardsSeen(seat, "battle", ...)`` brings each battle pile (seats 1-based, as the camera
reports them).

The game is saved as it goes (issue 10, :mod:`tabletop.ui.saves`): every action reaches
the journal before the screen shows it, and after every input the table's other state
(:meth:`MwmPlay.record`: answers typed and ready, cards read early, the verdict on
screen) and the solutions checked per seat go beside it. Times of answers (Solo's time
per round, MWM-8) are seconds of play, so they carry on across a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.protocol import Result
from tabletop.games.math_wars_meta import OP_WORDS, hand_result, splash_leader
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import start_card_camera, stop_card_camera
from tabletop.ui.games.math_wars_meta.play import (
    CardProblem,
    MwmPlay,
    ReadCard,
    crate_choices,
    crate_label,
    read_code,
    signed,
)
from tabletop.ui.input import Back, CardsSeen, InputEvent, SeatPressed, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, one_write, seat_infos
from tabletop.ui.scenes.common import Dialog, ask_leave, go_home
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.theme import PALETTE, SEAT_COLOURS, Color, Metrics
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

CRATE_FILL = (255, 246, 196)


class LinesDialog(Dialog):
    """The device's rulings of the last hand, sentence by sentence ("Why?")."""

    def __init__(self, ctx: Context, title: str, lines: list[str]) -> None:
        super().__init__(ctx, title, size=(760, 440))
        self.lines = lines

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m = metrics
        body = self.body()
        self.buttons = [
            Button(
                "close",
                pygame.Rect(body.right - m.u(160), body.bottom - m.u(52), m.u(160), m.u(52)),
                "OK",
            )
        ]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        m, painter = self.m, self.ctx.painter
        body = self.body()
        rect = pygame.Rect(body.left, body.top, body.width, body.height - m.u(60))
        painter.paragraph(surface, "\n".join(self.lines), rect, m.text)


def table_seats(play: MwmPlay) -> list[SeatInfo]:
    """The journal's seats for a table of names typed or defaulted at setup."""
    return seat_infos(
        [seat.name for seat in play.seats],
        {i: "bot" for i, seat in enumerate(play.seats) if seat.bot},
    )


class TableScene(Scene):
    def __init__(
        self,
        ctx: Context,
        play: MwmPlay,
        *,
        again: Any = None,
        seats: Sequence[SeatInfo] | None = None,
        save: GameSave | None = None,
        resumed: bool = False,
    ) -> None:
        super().__init__(ctx)
        self.play = play
        self.again = again  # how to start the same game again (the setup's factory)
        # ``app`` in the journal: enough to build this screen again (the setup's choices
        # and the seed, from make_game), then the table's record after every input
        self.save = save or GameSave(
            ctx,
            "math-wars-meta",
            list(seats) if seats else table_seats(play),
            {"seed": play.seed},
        )
        self.resumed = resumed  # carried on from the journal
        self.saved_end = False
        self.asking: tuple[Any, ...] | None = None
        self.message = ""
        self.panels: list[pygame.Rect] = []

    @property
    def solo(self) -> bool:
        return self.play.settings.mode == "solo"

    def name(self, seat: int) -> str:
        return self.play.seats[seat].name

    def standings(self) -> Result:
        """The result, or before the end the standings: VICTORY! cards per seat (a
        team's count for each of its seats); sides with as many are placed by the
        COUNT META cards they can still play this round (MWM-6: the last with cards
        wins the round; Solo has one seat)."""
        play = self.play
        result = play.match.result()
        if result is not None:
            return result
        state, settings = play.state, play.settings
        victories = state.victories
        usable = [0] * len(victories)
        for seat, zone in enumerate(state.zones):
            if not zone.out:
                spoils = len(zone.spoils) if settings.discard_option == 2 else 0
                usable[settings.side_of(seat)] += len(zone.draw) + spoils
        sides = [settings.side_of(seat) for seat in range(len(play.seats))]
        per_seat = [victories[side] for side in sides]
        rank = [(victories[side], usable[side]) for side in sides]
        places = tuple(1 + sum(1 for other in rank if other > mine) for mine in rank)
        counts = ", ".join(
            f"{play.side_name(side)} {count}" for side, count in enumerate(victories)
        )
        why = f"stopped with VICTORY! cards: {counts} (ties: more cards still to play)"
        return Result(tuple(Fraction(v) for v in per_seat), places, why)

    # -- lifecycle ----------------------------------------------------------------------

    def enter(self) -> None:
        self.save.attach(self.play.match)
        # The camera reads the battle piles while any child plays real cards.
        real = any(not seat.auto_cards for seat in self.play.seats)
        players = len(self.play.seats)
        self.camera = start_card_camera(self.ctx, "math-wars-meta", players) if real else None
        with one_write(self.play.match):
            self.play.pump()
        if self.resumed:
            self.message = ""
            self.message = f"Welcome back! {self.status()}".strip()
        self._after()
        self._save_table()

    def exit(self) -> None:
        self.ctx.lamps.light_only([])
        stop_card_camera(getattr(self, "camera", None))

    def resume(self, result: Any) -> None:
        # all a dialog's answer leads to reaches the journal at once, then the table
        with one_write(self.play.match):
            self._resumed(result)
        self._save_table()

    def _resumed(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking is None:
            self.layout(self.m)
            return
        kind = asking[0]
        try:
            if kind == "count" and isinstance(result, int):
                self._card(asking[1], ReadCard("count", number=result))
            elif kind == "crate" and isinstance(result, str):
                self._card(asking[1], ReadCard("crate", face=result))
            elif kind == "solve" and isinstance(result, int):
                self._typed(asking[1], result)
            elif kind == "team" and isinstance(result, int):
                self._typed(asking[1], asking[2], result)
            elif kind == "pin" and result == "ok":
                self._teacher_menu()
            elif kind == "teacher" and isinstance(result, str):
                self._teacher(result)
            elif kind == "leave" and result == "yes":
                if not self.play.finished:
                    self.save.finish(self.standings(), reason="abandoned")
                    self.saved_end = True
                go_home(self.stack)
                return
        except TabletopError as e:
            self._refuse(e.code, str(e))
        self._after()

    # -- layout ---------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(12)
        bh = m.u(50)
        b = [
            Button(
                "leave",
                pygame.Rect(W - margin - m.u(96), m.u(6), m.u(96), bh),
                "Leave",
                kind="quiet",
            ),
            Button(
                "teacher",
                pygame.Rect(W - margin - m.u(214), m.u(6), m.u(110), bh),
                "Teacher",
                kind="quiet",
            ),
            Button(
                "rules",
                pygame.Rect(W - margin - m.u(312), m.u(6), m.u(90), bh),
                "Rules",
                kind="quiet",
            ),
        ]
        n = len(self.play.seats)
        cols = 1 if n == 1 else min(4, n) if n != 6 else 3
        rows = -(-n // cols)
        top, bottom = m.u(62), H - m.u(112)
        gap = m.u(8)
        pw = (W - 2 * margin - (cols - 1) * gap) // cols
        ph = (bottom - top - (rows - 1) * gap) // rows
        if n == 1:
            pw = min(pw, m.u(520))
        self.panels = []
        for seat in range(n):
            r, c = divmod(seat, cols)
            left = margin + c * (pw + gap) if n > 1 else (W - pw) // 2
            rect = pygame.Rect(left, top + r * (ph + gap), pw, ph)
            self.panels.append(rect)
            b += self._panel_buttons(seat, rect)
        self.message_rect = pygame.Rect(margin, H - m.u(104), W - 2 * margin - m.u(250), m.u(96))
        b.append(
            Button(
                "why",
                pygame.Rect(W - margin - m.u(240), H - m.u(104), m.u(80), m.u(44)),
                "Why?",
                kind="quiet",
            )
        )
        b.append(
            Button(
                "next", pygame.Rect(W - margin - m.u(240), H - m.u(54), m.u(240), m.u(48)), "Next"
            )
        )
        self.buttons = b
        self._refresh()

    def _panel_buttons(self, seat: int, r: pygame.Rect) -> list[Button]:
        m = self.m
        head = m.u(30)
        foot = m.u(26)
        inner = pygame.Rect(
            r.left + m.u(6),
            r.top + head + m.u(4),
            r.width - m.u(12),
            r.height - head - foot - m.u(10),
        )
        gap = m.u(6)
        if inner.height >= inner.width * 0.9:
            # a tall Score Card: the two cards side by side, YOUR SOLUTION below them
            cw = (inner.width - gap) // 2
            ch = min(int(cw * 1.3), (inner.height - gap) * 6 // 10)
            count = pygame.Rect(inner.left, inner.top, cw, ch)
            crate = pygame.Rect(count.right + gap, inner.top, cw, ch)
            solve = pygame.Rect(inner.left, count.bottom + gap, inner.width, 0)
            solve.height = min(inner.bottom - solve.top, m.u(110))
        else:
            ch = min(inner.height, m.u(150))
            cw = min(int(ch * 0.72), (inner.width - m.u(24)) // 3)
            ch = min(ch, int(cw / 0.6))
            y = inner.top + (inner.height - ch) // 2
            count = pygame.Rect(inner.left, y, cw, ch)
            crate = pygame.Rect(count.right + gap, y, cw, ch)
            eq = m.u(22)
            solve = pygame.Rect(crate.right + eq, y, inner.right - crate.right - eq, ch)
        chip = pygame.Rect(r.left + m.u(4), r.top + m.u(4), r.width - m.u(8), head - m.u(2))
        out = [
            Button(f"seat.{seat}", chip, self.name(seat), kind="seat"),
            Button(f"count.{seat}", count, "", kind="count"),
            Button(f"crate.{seat}", crate, "", kind="crate"),
        ]
        if self._wants_press(seat):  # the seat button's touch twin under the answer
            tall = m.u(52)
            ready = pygame.Rect(solve.left, solve.bottom - tall, solve.width, tall)
            solve.height -= tall + m.u(6)
            out.append(Button(f"ready.{seat}", ready, "", kind="ready"))
        out.append(Button(f"solve.{seat}", solve, "", kind="solve"))
        return out

    def _wants_press(self, seat: int) -> bool:
        """A child's answer is typed: their button (or its tile) says it is in."""
        play = self.play
        return (
            not self.solo
            and play.verdict is None
            and not play.seats[seat].bot
            and seat in play.solving()
            and (seat in play.typed or seat in play.ready)
        )

    def _refresh(self) -> None:
        play = self.play
        nxt, why = self.target("next"), self.target("why")
        if nxt is None or why is None:
            return
        verdict = play.verdict
        why.enabled = verdict is not None
        if play.finished:
            nxt.label, nxt.enabled = "See the results", True
        elif verdict is not None:
            nxt.enabled = True
            nxt.label = (
                "Math War!" if verdict.war else "Next round" if verdict.round_over else "Next hand"
            )
        else:
            nxt.enabled = False
            nxt.label = "Waiting for answers" if play.solving() else "Waiting for cards"
        self.ctx.lamps.light_only(sorted(play.ready))

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        # all one input leads to (both cards of a reading, every answer a press lets in)
        # reaches the journal at once, then the table's record
        with one_write(self.play.match):
            self._handle(event)
        self._save_table()

    def _handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.press("leave")
        elif isinstance(event, SeatPressed):
            self.seat_pressed(event.seat, event.at)
        elif isinstance(event, CardsSeen):
            self.cards_seen(event)
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is None:
                return
            if button.name.startswith(("seat.", "ready.")):
                self.seat_pressed(int(button.name.partition(".")[2]), event.at)
                return
            if not button.enabled:
                self._explain(button.name)
                return
            self.ctx.sounds.play("tap")
            self.press(button.name)

    def _explain(self, name: str) -> None:
        self.ctx.sounds.play("wrong")
        if name == "next":
            waiting = self.play.waiting_for_cards()
            if waiting:
                self.message = child_message("mwm.ui.cards_first", {"name": self.name(waiting[0])})
            else:
                self.message = "Waiting for everybody's answer: type it, then press your button."
        elif name == "why":
            self.message = "The reasons show up after each hand."

    def press(self, name: str) -> None:
        kind, _, arg = name.partition(".")
        if name == "leave":
            self.asking = ("leave",)
            self.stack.push(ask_leave(self.ctx))
        elif name == "rules":
            from tabletop.ui.games.math_wars_meta.rules import rules_scene

            self.stack.push(rules_scene(self.ctx, self.play.settings.edition))
        elif name == "teacher":
            self.asking = ("pin",)
            self.stack.push(
                PinPad(
                    self.ctx,
                    "moderator",
                    subtitle="For teachers: take back a step, or award a penalty card.",
                )
            )
        elif name == "why":
            verdict = self.play.verdict
            if verdict is not None:
                self.stack.push(LinesDialog(self.ctx, "What happened, and why", verdict.lines))
        elif name == "next":
            self.next()
        elif kind in ("count", "crate"):
            self.ask_card(kind, int(arg))
        elif kind == "solve":
            self.ask_solution(int(arg))

    def next(self) -> None:
        play = self.play
        if play.finished:
            from tabletop.ui.games.math_wars_meta.results import ResultsScene

            self.stack.replace(ResultsScene(self.ctx, play, again=self.again))
            return
        if play.verdict is None:
            return
        sound = "round" if play.verdict.round_over else "tap"
        play.next_hand()
        self.ctx.sounds.play(sound)
        self.message = ""
        self._after()

    def ask_card(self, kind: str, seat: int) -> None:
        play = self.play
        config = play.seats[seat]
        problem = None
        if config.auto_cards:
            problem = "mwm.ui.bot_seat" if config.bot else "mwm.ui.virtual_seat"
        elif play.finished:
            problem = "mwm.ui.game_over"
        elif play.verdict is not None:
            problem = "mwm.ui.wait_next"
        elif play.state.zones[seat].out:
            problem = "mwm.ui.knocked_out"
        elif seat in play.entries or seat in play.ready:
            problem = "mwm.ui.answered"
        elif seat not in play.state.stage.seats:
            problem = "mwm.ui.wait_others"
        if problem:
            self._refuse(problem, f"{kind} card of seat {seat + 1} refused", name=self.name(seat))
            return
        self.asking = (kind, seat)
        if kind == "count":
            top = play.settings.ed.count_numbers[-1]
            self.stack.push(
                NumPad(
                    self.ctx,
                    f"{self.name(seat)}: your COUNT META card",
                    negative=False,
                    max_digits=len(str(top)),
                    hint=f"1 to {top}",
                )
            )
        else:
            self.stack.push(
                ChoiceGrid(
                    self.ctx,
                    f"{self.name(seat)}: your MATH CRATE card",
                    crate_choices(),
                    columns=10,
                    rows=4,
                )
            )

    def ask_solution(self, seat: int) -> None:
        play = self.play
        why = self._cannot_solve(seat)
        if why:
            self._refuse(why, f"seat {seat + 1} cannot answer now", name=self.name(seat))
            return
        self.asking = ("solve", seat)
        stage = play.state.stage
        up, crate = stage.up[seat], stage.crates[seat]
        assert up is not None
        problem = f"{up[1]} {OP_WORDS[crate[0]]} {crate[1:]}" if crate else f"{up[1]}"
        self.stack.push(
            NumPad(self.ctx, f"{self.name(seat)}: YOUR SOLUTION", hint=f"{problem} = ?")
        )

    def _cannot_solve(self, seat: int) -> str | None:
        play = self.play
        if play.finished:
            return "mwm.ui.game_over"
        if play.seats[seat].bot:
            return "mwm.ui.bot_seat"
        if play.verdict is not None:
            return "mwm.ui.wait_next"
        if play.state.zones[seat].out:
            return "mwm.ui.knocked_out"
        if seat in play.solving():
            return None
        if seat in play.waiting_for_cards():
            return "mwm.ui.cards_first"
        if play.state.phase == "reveal":
            waiting = play.waiting_for_cards()
            return "mwm.ui.cards_first" if waiting else "mwm.ui.wait_others"
        return "mwm.ui.wait_others"

    def _typed(self, seat: int, value: int, team: int | None = None) -> None:
        play = self.play
        if seat not in play.solving():
            return
        if play.settings.mode == "teams" and play.state.stage.kind != "collect" and team is None:
            self.asking = ("team", seat, value)
            self.stack.push(
                NumPad(self.ctx, f"{self.name(seat)}: TEAM SOLUTION", hint="your team's sum")
            )
            return
        play.type_solution(seat, value, team)
        if self.solo:
            self.seat_pressed(seat, self.ctx.clock())
        else:
            self.message = f"{self.name(seat)}: now press your seat button, or tap I'm ready!"

    def seat_pressed(self, seat: int, at: float) -> None:
        play = self.play
        if not 0 <= seat < len(play.seats):
            return
        before = len(play.events)
        # the press's time in seconds of play (the journal's clock, which carries on
        # after a restart), not the app's clock
        outcome = play.press(seat, self.save.elapsed() - max(0.0, self.ctx.clock() - at))
        name = self.name(seat)
        if outcome == "ready":
            self.ctx.sounds.play("tap")
            if play.verdict is not None and len(play.events) > before:
                self._verdict_sound()
            else:
                step = self.next_step()
                self.message = f"{name} is ready." + (f" {step}" if step else "")
        elif outcome == "pad":
            self.ask_solution(seat)
        else:
            code = {
                "done": "mwm.ui.game_over",
                "bot": "mwm.ui.bot_seat",
                "out": "mwm.ui.knocked_out",
                "wait": "mwm.ui.wait_next" if play.verdict is not None else "mwm.ui.wait_others",
                "cards": "mwm.ui.cards_first",
            }[outcome]
            self._refuse(code, f"seat {seat + 1} pressed: {outcome}", name=name)
        self._after()

    def cards_seen(self, event: CardsSeen) -> None:
        if event.area not in (None, "battle"):
            log.info("mwm: cards in area %r ignored", event.area)
            return
        if event.seat is None or not 1 <= event.seat <= len(self.play.seats):
            if event.cards:
                self._refuse("mwm.ui.no_seat", f"cards seen outside every seat: {event.codes}")
            return
        seat = event.seat - 1
        self.message = ""
        for code in event.codes:
            try:
                card = read_code(code)
            except CardProblem as e:
                self._refuse("mwm.ui.unreadable" if code == "?" else e.code, str(e))
                continue
            self._card(seat, card)
        self._after()

    def _card(self, seat: int, card: ReadCard) -> None:
        before = len(self.play.events)
        try:
            note = self.play.card_seen(seat, card)
        except CardProblem as e:
            self._refuse(e.code, str(e), **e.facts)
            return
        if note:
            self.ctx.sounds.play("wrong" if "Check" in note else "seen")
            self.message = note
        else:
            self.ctx.sounds.play("seen")
        if self.play.verdict is not None and len(self.play.events) > before:
            self._verdict_sound()

    def _verdict_sound(self) -> None:
        verdict = self.play.verdict
        if verdict is None:
            return
        self.message = ""
        self.ctx.sounds.play("star" if verdict.round_over else "good")

    def _refuse(self, code: str, detail: str, **facts: Any) -> None:
        log.info("mwm: %s (%s)", detail, code)
        self.ctx.sounds.play("wrong")
        self.message = child_message(code, facts)

    # -- the teacher ----------------------------------------------------------------------

    def _teacher_menu(self) -> None:
        if self.play.finished:
            self._refuse("mwm.ui.game_over", "teacher menu after the end")
            return
        choices = [("undo", "Undo last step"), ("splash", "Splash: restart round")]
        title = "Teacher: what do you want to do?"
        if not self.solo:
            # MWM-10: a penalty VICTORY! card only for the side winning this hand
            leader = splash_leader(self.play.state)
            if leader is not None:
                choices.append(
                    (f"award.{leader}", f"Splash: VICTORY! to {self.play.side_name(leader)}")
                )
            else:
                title += " (no VICTORY! card: nobody is winning this hand yet)"
        self.asking = ("teacher",)
        self.stack.push(ChoiceGrid(self.ctx, title, choices, columns=2, rows=5))

    def _teacher(self, choice: str) -> None:
        play = self.play
        if choice == "undo":
            action = play.undo()
            log.info("mwm: teacher undid %s", action)
            self.message = "Taken back. Do that step again."
        elif choice == "splash":
            play.splash(None)
            self.message = ""
        elif choice.startswith("award."):
            side = int(choice[6:])
            play.splash(side)
            self.ctx.sounds.play("star")
            self.message = ""

    def _after(self) -> None:
        for note in self.play.notes:
            self.message = note
        self.play.notes.clear()
        self.layout(self.m)

    def _save_table(self) -> None:
        """The table's record and the checked solutions beside the journaled match
        (written when they changed); the result once the game is over."""
        play, save = self.play, self.save
        if self.saved_end:
            return
        record, checks = play.record(), play.checks()
        if record != save.app.get("table") or checks != save.checks:
            save.app["table"] = record
            save.app["played"] = save.elapsed()
            save.checks = checks
            save.write_meta()
        save.answers_from_match(play.checked_answers())
        if play.finished and not self.saved_end:
            self.saved_end = True
            save.finish(play.match.result())

    # -- drawing --------------------------------------------------------------------------

    def status(self) -> str:
        """The message line: what happened, or what to do now."""
        play = self.play
        verdict = play.verdict
        if verdict is not None and not self.message:
            return " ".join(verdict.summary or verdict.lines[-3:])
        return self.message or self.next_step()

    def next_step(self) -> str:
        """What the device waits for now, naming who."""
        play = self.play
        if play.finished:
            return "The game is over!"
        waiting = play.waiting_for_cards()
        if waiting:
            names = ", ".join(self.name(s) for s in waiting)
            stage = play.state.stage
            if stage.kind != "hand":
                return (
                    f"MATH WAR! {names}: cards face down, then one COUNT META card up "
                    "and a new MATH CRATE card."
                )
            return f"{names}: turn up your COUNT META and MATH CRATE cards."
        solving = [s for s in play.solving() if s not in play.ready]
        if solving:
            names = ", ".join(self.name(s) for s in solving)
            if self.solo:
                return "Work it out and tap the answer box to type YOUR SOLUTION."
            return f"{names}: work it out, tap your answer box, type it, then press your button."
        return ""

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        state = self.play.state
        verdict = self.play.verdict
        if verdict is not None:
            title = f"Round {verdict.round} \u00b7 Hand {verdict.hand}"
            if verdict.highest is not None:
                title += f" \u00b7 HIGHEST {signed(verdict.highest)}"
            title += " \u00b7 WAR!" if verdict.war else ""
        else:
            title = f"Round {state.round} \u00b7 Hand {state.hands + 1}"
            title += " \u00b7 MATH WAR!" if state.stage.kind == "war" else ""
        painter.text(
            surface, title, (m.u(14), m.u(10)), m.title, bold=True, max_width=m.width - m.u(350)
        )
        goal = self.play.settings.ed.victory_cards
        painter.text(
            surface,
            f"{self.play.settings.edition}: {goal} VICTORY! cards win",
            (m.u(16), m.u(10) + m.title + m.u(2)),
            m.small - 2,
            p.muted,
        )
        for seat, rect in enumerate(self.panels):
            self._draw_panel(surface, seat, rect)
        for b in self.buttons:
            if b.kind in ("primary", "quiet"):
                painter.button(surface, b)
        verdict = self.play.verdict
        box_colour = p.selected if verdict is not None else p.line
        painter.box(surface, self.message_rect, p.panel, box_colour, 2, m.u(8))
        painter.paragraph(
            surface, self.status(), self.message_rect.inflate(-m.u(14), -m.u(8)), m.text
        )

    def _draw_panel(self, surface: pygame.Surface, seat: int, r: pygame.Rect) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        play = self.play
        state = play.state
        zone = state.zones[seat]
        stage = state.stage
        verdict = play.verdict
        vstage = verdict.stage if verdict is not None and verdict.stage.up else stage
        in_stage = seat in vstage.seats
        lit = seat in play.ready
        border = p.selected if lit or seat in play.waiting_for_cards() else p.line
        painter.box(
            surface, r, p.panel if not zone.out else p.quiet, border, m.u(3) if lit else 2, m.u(10)
        )
        chip = self.target(f"seat.{seat}")
        assert chip is not None
        num = pygame.Rect(chip.rect.left, chip.rect.top, m.u(30), chip.rect.height)
        painter.seat_chip(surface, num, seat, size=m.small + 2)
        side = play.settings.side_of(seat)
        stars = state.victories[side]
        right_text = f"\u2605{stars}"
        if play.settings.mode == "teams":
            right_text = f"T{side + 1} {right_text}"
        rw = painter.fonts.width(right_text, m.small - 2) + m.u(4)
        painter.text(
            surface,
            right_text,
            (chip.rect.right - m.u(4), chip.rect.centery),
            m.small - 2,
            p.muted,
            anchor="midright",
        )
        label = self.name(seat)
        painter.text(
            surface,
            label,
            (num.right + m.u(6), chip.rect.centery),
            m.small + 1,
            bold=True,
            anchor="midleft",
            max_width=chip.rect.width - num.width - rw - m.u(10),
        )
        if lit:
            pygame.draw.circle(surface, p.selected, (r.right - m.u(10), r.bottom - m.u(12)), m.u(7))
        up = vstage.up[seat] if vstage.up else None
        crate = vstage.crates[seat] if vstage.crates else None
        count_b, crate_b, solve_b = (
            self.target(f"{k}.{seat}") for k in ("count", "crate", "solve")
        )
        assert count_b is not None and crate_b is not None and solve_b is not None
        self._draw_count(
            surface, count_b.rect, seat, up[1] if up else None, in_stage and not zone.out
        )
        self._draw_crate(surface, crate_b.rect, crate, in_stage and not zone.out)
        if solve_b.rect.left > crate_b.rect.right:
            eq = (
                crate_b.rect.right + (solve_b.rect.left - crate_b.rect.right) // 2,
                crate_b.rect.centery,
            )
            painter.text(surface, "=", eq, m.big, bold=True, anchor="center")
        self._draw_solution(surface, solve_b.rect, seat, up[1] if up else None, crate)
        tile = self.target(f"ready.{seat}")
        if tile is not None:  # I'm ready! (lit once the seat pressed, like its LED)
            painter.ready_tile(surface, tile.rect, seat, lit)
        foot = pygame.Rect(r.left + m.u(8), r.bottom - m.u(28), r.width - m.u(30), m.u(24))
        deck = f"deck {len(zone.draw)}"
        painter.text(
            surface,
            deck,
            (r.right - m.u(22), foot.centery),
            m.small - 2,
            p.muted,
            anchor="midright",
        )
        foot.width -= painter.fonts.width(deck, m.small - 2) + m.u(8)
        text, colour = self._foot(seat)
        painter.text(
            surface,
            text,
            foot.midleft,
            m.small - 1,
            colour,
            bold=True,
            anchor="midleft",
            max_width=foot.width,
        )

    def _draw_count(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        seat: int,
        number: int | None,
        active: bool,
    ) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        label = None if number is None else str(number)
        white, army = (255, 255, 255), SEAT_COLOURS[seat]
        self._draw_slot(surface, rect, "COUNT", label, active, white, army, max(3, m.u(5)))
        down = self._face_down(seat)
        if down and number is not None:
            painter.text(
                surface,
                f"+{down}\u2193",
                (rect.right - m.u(4), rect.top + m.u(6)),
                m.small - 2,
                p.bad,
                bold=True,
                anchor="topright",
            )

    def _face_down(self, seat: int) -> int:
        zone = self.play.state.zones[seat]
        stage = self.play.state.stage
        return max(0, len(zone.battle) - 1) if stage.kind != "hand" or len(zone.battle) > 1 else 0

    def _draw_crate(
        self, surface: pygame.Surface, rect: pygame.Rect, face: str | None, active: bool
    ) -> None:
        label = None if face is None else crate_label(face)
        self._draw_slot(surface, rect, "CRATE", label, active, CRATE_FILL, self.ctx.painter.p.line)

    def _draw_slot(
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
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        if label is None:
            painter.box(surface, rect, p.background, p.muted if active else p.quiet, 2, m.u(8))
            if active:
                painter.text(surface, "?", rect.center, m.big, p.muted, bold=True, anchor="center")
            foot, room = m.u(4), rect.width - 4
        else:
            painter.box(surface, rect, fill, border, width, m.u(8))
            painter.text(
                surface,
                label,
                rect.center,
                min(m.big + m.u(16), rect.height // 2),
                p.ink,
                bold=True,
                anchor="center",
                max_width=rect.width - m.u(10),
            )
            foot, room = m.u(6), rect.width - 8
        painter.text(
            surface,
            caption,
            (rect.centerx, rect.bottom - foot),
            m.small - 2,
            p.muted,
            anchor="midbottom",
            max_width=room,
        )

    def _draw_solution(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        seat: int,
        number: int | None,
        crate: str | None,
    ) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        play = self.play
        verdict = play.verdict
        solving = seat in play.solving()
        fill = (255, 255, 255) if solving else p.background
        border = p.selected if solving and seat not in play.ready else p.line
        painter.box(surface, rect, fill, border, m.u(3) if solving else 2, m.u(8))
        label = next(
            (
                t
                for t in ("YOUR SOLUTION", "SOLUTION", "YOURS")
                if painter.fonts.width(t, m.small - 2) <= rect.width - 6
            ),
            "",
        )
        painter.text(
            surface,
            label,
            (rect.centerx, rect.top + m.u(4)),
            m.small - 2,
            p.muted,
            anchor="midtop",
            max_width=rect.width - 6,
        )
        big = min(m.big + m.u(6), rect.height // 2)
        if verdict is not None and number is not None and seat in verdict.answers:
            right = verdict.answers[seat].solution
            entry = verdict.entries.get(seat)
            ok = entry is not None and entry.solution == right
            painter.text(
                surface,
                signed(right),
                rect.center,
                big,
                p.good if ok else p.bad,
                bold=True,
                anchor="center",
                max_width=rect.width - 8,
            )
            mark = "\u2713 right" if ok else f"\u2717 not {signed(entry.solution)}" if entry else ""
            painter.text(
                surface,
                mark,
                (rect.centerx, rect.bottom - m.u(4)),
                m.small - 2,
                p.good if ok else p.bad,
                bold=True,
                anchor="midbottom",
                max_width=rect.width - 6,
            )
            return
        if verdict is not None and number is not None:
            painter.text(
                surface,
                signed(hand_result(number, crate)),
                rect.center,
                big,
                p.ink,
                bold=True,
                anchor="center",
            )
            return
        if seat in play.ready:
            painter.text(surface, "\u2713", rect.center, big, p.good, bold=True, anchor="center")
            painter.text(
                surface,
                "ready",
                (rect.centerx, rect.bottom - m.u(4)),
                m.small - 2,
                p.good,
                anchor="midbottom",
            )
        elif seat in play.typed:
            painter.text(
                surface, "\u2022\u2022\u2022", rect.center, big, p.ink, bold=True, anchor="center"
            )
            painter.text(
                surface,
                "press button",
                (rect.centerx, rect.bottom - m.u(4)),
                m.small - 2,
                p.bad,
                anchor="midbottom",
                max_width=rect.width - 6,
            )
        elif solving:
            painter.text(surface, "?", rect.center, big, p.selected, bold=True, anchor="center")
            painter.text(
                surface,
                "tap",
                (rect.centerx, rect.bottom - m.u(4)),
                m.small - 2,
                p.muted,
                anchor="midbottom",
            )

    def _foot(self, seat: int) -> tuple[str, tuple[int, int, int]]:
        """The Score Card's last line: HIGHEST, difference, cards lost, or what to do."""
        play, p = self.play, PALETTE
        zone = play.state.zones[seat]
        verdict = play.verdict
        if zone.out and (verdict is None or seat not in verdict.lost):
            return "OUT of this round", p.bad
        if verdict is not None and verdict.highest is not None and seat in verdict.stage.seats:
            team = ""
            if play.settings.mode == "teams" and verdict.side_results:
                value = verdict.side_results[play.settings.side_of(seat)]
                team = f"team {value} \u00b7 " if value is not None else ""
            if seat in verdict.lost:
                diff, lost = verdict.difference[seat], verdict.lost[seat]
                return f"{team}diff {diff} \u00b7 loses {lost}", p.bad
            if verdict.war:
                return f"{team}tie: MATH WAR!", p.bad
            return f"{team}wins the hand!", p.good
        if play.seats[seat].bot:
            return "bot", p.muted
        if seat in play.waiting_for_cards():
            return "cards, please!", p.ink
        if seat in play.solving():
            return "ready!" if seat in play.ready else "your answer?", p.ink
        return "", p.muted


__all__ = ["LinesDialog", "TableScene"]
