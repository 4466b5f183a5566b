"""The Math Wars Meta table on the one base (:class:`~tabletop.ui.table.TableScene`): the
controller :class:`~.play.MwmPlay` keeps the game and says what to do;
:class:`~.scorecard.ScoreCards` draws every player's Score Card.

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

from tabletop.games.math_wars_meta import CardCode, problem_text, splash_leader
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import start_card_camera
from tabletop.ui.games.math_wars_meta.cards import CardProblem, crate_choices, read_code
from tabletop.ui.games.math_wars_meta.play import MwmPlay
from tabletop.ui.games.math_wars_meta.scorecard import ScoreCards
from tabletop.ui.games.math_wars_meta.verdict import Verdict, results_lines
from tabletop.ui.input import CardsSeen
from tabletop.ui.results import Outcome, names_joined, outcome_of
from tabletop.ui.saves import GameSave
from tabletop.ui.scenes.common import Dialog
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.table import TableScene
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button

log = logging.getLogger(__name__)


class LinesDialog(Dialog):
    """The device's rulings of the last hand, sentence by sentence ("Why?")."""

    def __init__(self, ctx: Context, title: str, lines: list[str]) -> None:
        super().__init__(ctx, title, size=(760, 440))
        self.lines = lines

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m, body = metrics, self.body()
        ok = pygame.Rect(body.right - m.u(160), body.bottom - m.u(52), m.u(160), m.u(52))
        self.buttons = [Button("close", ok, "OK")]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        body = self.body()
        rect = pygame.Rect(body.left, body.top, body.width, body.height - self.m.u(60))
        self.ctx.painter.paragraph(surface, "\n".join(self.lines), rect, self.m.text)


class Beside(Dialog):
    """A dialog kept off ``beside`` (the Score Card's cards it asks about): at the side
    of the screen with more room, as wide as that room."""

    beside: pygame.Rect | None = None

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        if self.beside is None:
            return
        gap, width = metrics.u(8), metrics.width
        left, right = self.beside.left - gap, width - self.beside.right - gap
        self.panel.width = min(self.panel.width, max(left, right))
        if right >= left:
            self.panel.right = width - 4
        else:
            self.panel.left = 4


class CardPad(NumPad, Beside):
    """The number pad beside the cards it asks about, never over them."""

    def __init__(self, ctx: Context, title: str, beside: pygame.Rect, **kw: Any) -> None:
        super().__init__(ctx, title, **kw)
        self.beside = beside

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        cancel = self.target("cancel")  # too narrow for its word: a cross, never tiny text
        fonts = self.ctx.painter.fonts
        if (
            cancel is not None
            and fonts.width(cancel.label, metrics.text, True) > cancel.rect.width - 8
        ):
            cancel.label = "\u2715"


class MwmTable(ScoreCards, TableScene):
    game = "math-wars-meta"

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

    # -- what the base asks ---------------------------------------------------------------

    def status(self) -> str:
        """What just happened (the verdict's few sentences), or else the next step."""
        verdict = self.play.verdict
        if verdict is not None and not self.message:
            button = self.target("next")
            what = f" Tap {button.label.rstrip('!')}." if button and button.enabled else ""
            return " ".join(verdict.summary or verdict.lines[-3:]) + what
        return super().status()

    def rules_scene(self) -> Scene:
        from tabletop.ui.games.math_wars_meta.rules import rules_scene

        return rules_scene(self.ctx, self.play.settings.edition)

    def teacher_help(self) -> str:
        return "For teachers: take back a step, or award a penalty card."

    def outcome(self) -> Outcome:
        play, settings, victories = self.play, self.play.settings, self.play.state.victories
        result = play.match.result()
        assert result is not None
        best = max(victories)
        sides = sorted({settings.side_of(s) for s in result.winners})
        who = names_joined([play.side_name(side) for side in sides])
        why = f"{who} won {best} VICTORY! card{'s' * (best != 1)}"
        if play.solo:
            why = f"you won all {best} rounds"
        out = outcome_of(
            result,
            [seat.name for seat in play.seats],
            score=lambda value: f"{value} \u2605",
            reason=why,
            lines=results_lines(play),
            stars=lambda seat: (victories[settings.side_of(seat)], settings.ed.victory_cards),
        )
        if play.solo:
            out.title = "You won the game!"
        elif play.settings.mode == "teams":
            out.title = f"{who} win{'s' * (len(sides) == 1)}!"
        return out

    # -- lifecycle ------------------------------------------------------------------------

    def enter(self) -> None:
        # the camera reads the battle piles while any child plays real cards
        if any(not seat.auto_cards for seat in self.play.seats):
            self.camera = start_card_camera(self.ctx, self.game, len(self.play.seats))
        super().enter()

    def begin(self) -> None:
        self.play.pump()

    def after(self) -> None:
        if self.play.notes:
            self.message = self.play.notes[-1]
            self.play.notes.clear()
        super().after()

    def save_table(self) -> None:
        if not self.saved_end:
            self.save.answers_from_match(self.play.checked_answers())
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
        b.append(Button("why", why, "Why?", kind="quiet", enabled=self.play.verdict is not None))
        b.append(self._next_button(pygame.Rect(W - margin - m.u(240), H - m.u(54), m.u(240), bh)))
        self.buttons = b

    def _next_button(self, rect: pygame.Rect) -> Button:
        play, verdict = self.play, self.play.verdict
        if play.finished:
            return Button("next", rect, "See the results")
        if verdict is not None:
            label = (
                "Math War!" if verdict.war else "Next round" if verdict.round_over else "Next hand"
            )
            return Button("next", rect, label)
        waiting = "Waiting for answers" if play.solving() else "Waiting for cards"
        return Button("next", rect, waiting, enabled=False)

    # -- input ----------------------------------------------------------------------------

    def explain(self, name: str) -> None:
        waiting = self.play.waiting_for_cards()
        if name == "next" and waiting:
            who = self.play.name(waiting[0])
            self.refuse("mwm.ui.cards_first", "next before the cards", name=who)
            return
        super().explain(name)
        if name == "next":
            self.message = "Waiting for everybody's answer: type it, then press your button."
        elif name == "why":
            self.message = "The reasons show up after each hand."

    def press(self, name: str) -> None:
        kind, _, arg = name.partition(".")
        verdict = self.play.verdict
        if name == "why" and verdict is not None:
            self.stack.push(LinesDialog(self.ctx, "What happened, and why", verdict.lines))
        elif name == "next":
            self.next()
        elif kind in ("count", "crate"):
            self.ask_card(kind, int(arg))
        elif kind == "solve":
            self.ask_solution(int(arg))
        else:
            super().press(name)

    def next(self) -> None:
        play = self.play
        if play.finished:
            self.show_results()
        elif play.verdict is not None:
            sound = "round" if play.verdict.round_over else "tap"
            play.next_hand()
            self.ctx.sounds.play(sound)
            self.message = ""

    def ask_card(self, kind: str, seat: int) -> None:
        play = self.play
        code = play.refusal(seat, "card")
        if code is not None:
            self.refuse(code, f"{kind} card of seat {seat + 1} refused", name=play.name(seat))
        elif kind == "count":
            top = play.settings.ed.count_numbers[-1]
            hint, digits = f"1 to {top}", len(str(top))
            self.ask_pad(
                ("count", seat), "COUNT META card", negative=False, max_digits=digits, hint=hint
            )
        else:
            title = f"{play.name(seat)}: your MATH CRATE card"
            self.ask(
                ("crate", seat), ChoiceGrid(self.ctx, title, crate_choices(), columns=10, rows=4)
            )

    def ask_solution(self, seat: int) -> None:
        play = self.play
        code = play.refusal(seat, "solution")
        if code is not None:
            self.refuse(code, f"seat {seat + 1} cannot answer now", name=play.name(seat))
            return
        stage = play.state.stage
        up, crate = stage.up[seat], stage.crates[seat]
        assert up is not None
        self.ask_pad(("solve", seat), "YOUR SOLUTION", hint=f"{problem_text(up[1], crate)} = ?")

    def ask_pad(self, asking: tuple[Any, ...], what: str, **kw: Any) -> None:
        """The number pad for seat ``asking[1]``'s ``what``, beside that seat's cards."""
        seat = asking[1]
        title = f"{self.play.name(seat)}: {what}"
        self.ask(asking, CardPad(self.ctx, title, self.cards_of(seat), **kw))

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        kind, *args = asking
        if kind == "count" and isinstance(result, int):
            self.card(args[0], CardCode("count", number=result))
        elif kind == "crate" and isinstance(result, str):
            self.card(args[0], CardCode("crate", face=result))
        elif kind == "solve" and isinstance(result, int):
            self.typed(args[0], result)
        elif kind == "team" and isinstance(result, int):
            self.typed(args[0], args[1], result)
        elif kind == "teacher" and isinstance(result, str):
            self.teacher(result)

    def typed(self, seat: int, value: int, team: int | None = None) -> None:
        play = self.play
        if seat not in play.solving():
            return
        if team is None and play.answer_for(seat).team_solution is not None:
            self.ask_pad(("team", seat, value), "TEAM SOLUTION", hint="your team's sum")
            return
        play.type_solution(seat, value, team)
        if play.solo:
            self.seat_pressed(seat, self.ctx.clock())
        else:
            self.message = f"{play.name(seat)}: now press your seat button, or tap I'm ready!"

    def seat_pressed(self, seat: int, at: float) -> None:
        play = self.play
        if not 0 <= seat < len(play.seats):
            return
        before = play.verdict
        # the press's time in seconds of play (the journal's clock, which carries on
        # after a restart), not the app's clock
        outcome = play.press(seat, self.save.elapsed() - max(0.0, self.ctx.clock() - at))
        if outcome == "ready":
            self.ctx.sounds.play("tap")
            if not self.verdict_sound(before):
                self.message = f"{play.is_ready_words(seat)} {self.next_step()}".strip()
        elif outcome == "pad":
            self.ask_solution(seat)
        else:
            self.refuse(outcome, f"seat {seat + 1} pressed", name=play.name(seat))

    def cards_seen(self, event: CardsSeen) -> None:
        if event.area not in (None, "battle"):
            log.info("mwm: cards in area %r ignored", event.area)
            return
        if event.seat is None or not 1 <= event.seat <= len(self.play.seats):
            if event.cards:
                self.refuse("mwm.ui.no_seat", f"cards seen outside every seat: {event.codes}")
            return
        self.message = ""
        for code in event.codes:
            try:
                card = read_code(code)
            except CardProblem as e:
                self.refuse("mwm.ui.unreadable" if code == "?" else e.code, str(e))
                continue
            self.card(event.seat - 1, card)

    def card(self, seat: int, card: CardCode) -> None:
        before = self.play.verdict
        try:
            note = self.play.card_seen(seat, card)
        except CardProblem as e:
            self.refuse(e.code, str(e), **e.facts)
            return
        self.ctx.sounds.play("wrong" if note and "Check" in note else "seen")
        if note:
            self.message = note
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

    def teacher_menu(self) -> None:
        play = self.play
        if play.finished:
            self.refuse("mwm.ui.game_over", "teacher menu after the end")
            return
        choices = [("undo", "Undo last step"), ("splash", "Splash: restart round")]
        title = "Teacher: what do you want to do?"
        if not play.solo:
            # MWM-10: a penalty VICTORY! card only for the side winning this hand
            leader = splash_leader(play.state)
            if leader is not None:
                choices.append((f"award.{leader}", f"Splash: VICTORY! to {play.side_name(leader)}"))
            else:
                title += " (no VICTORY! card: nobody is winning this hand yet)"
        self.ask(("teacher",), ChoiceGrid(self.ctx, title, choices, columns=2, rows=5))

    def teacher(self, choice: str) -> None:
        play = self.play
        self.message = ""
        if choice == "undo":
            log.info("mwm: teacher undid %s", play.undo())
            self.message = "Taken back. Do that step again."
        elif choice == "splash":
            play.splash(None)
        elif choice.startswith("award."):
            play.splash(int(choice[len("award.") :]))
            self.ctx.sounds.play("star")

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        title = self.title_line()
        painter.text(
            surface, title, (m.u(14), m.u(10)), m.title, bold=True, max_width=m.width - m.u(350)
        )
        settings = self.play.settings
        goal = f"{settings.edition}: {settings.ed.victory_cards} VICTORY! cards win"
        at = (m.u(16), m.u(10) + m.title + m.u(2))
        self.caption(surface, goal, at, p.muted, m.width - m.u(350), anchor="topleft")
        for seat, rect in enumerate(self.panels):
            self.draw_panel(surface, seat, rect)
        painter.buttons(surface, [b for b in self.buttons if b.kind in ("primary", "quiet")])
        self.draw_status(surface, self.message_rect, lit=self.play.verdict is not None)


__all__ = ["Beside", "CardPad", "LinesDialog", "MwmTable"]
