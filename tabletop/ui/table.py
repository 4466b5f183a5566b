"""The one base of every game's table scene (see :class:`TableScene`)."""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.ui.app import Context, Scene
from tabletop.ui.controller import Ask, TableController
from tabletop.ui.games import start_card_camera, stop_card_camera
from tabletop.ui.input import Back, CardsSeen, Drag, InputEvent, Release, SeatPressed, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.results import GameResults, Outcome, told_apart
from tabletop.ui.saves import GameSave, one_write, shown_seat_names
from tabletop.ui.scenes.common import ask_leave, go_home, press_button
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rotation import teacher_chose, teacher_items
from tabletop.ui.scenes.rules import Face, RulesPage, RulesScene, ask_dialog
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

UNDO = (("undo", "Undo last step"),)  # a teacher menu's for a game with none of its own
TEACHER_HELP = child_message("ui.teacher_help")  # nothing to take back
BOT_PAUSE = 0.9  # seconds a bot "thinks" before its move shows, so children can follow


class Aloud(NamedTuple):
    """The instruction line's last sentence as the speaker was given it (:meth:`news`)."""

    line: str = ""  # the whole sentence the line showed
    kept: str = ""  # the start of it kept from the sentence before (a ruling), or ""
    told: str = ""  # what the speaker was given: all of it, or less ``kept`` (heard before)


def corner_buttons(
    right: int, top: int, size: tuple[int, int], gap: int, *, undo: bool
) -> list[Button]:
    """Leave, Undo and Rules, right to left from ``right``: quiet buttons of ``size``,
    ``gap`` apart, Undo enabled by ``undo`` (the targets the base and the game handle)."""
    width, height = size
    names = (("leave", "Leave"), ("undo", "Undo"), ("rules", "Rules"))
    rects = [pygame.Rect(right - (i + 1) * width - i * gap, top, width, height) for i in range(3)]
    return [
        Button(name, rect, label, kind="quiet", enabled=name != "undo" or undo)
        for rect, (name, label) in zip(rects, names)
    ]


def says(heard: str, step: str) -> bool:
    """``heard`` says ``step``: from its start, or after one of its sentences ends, up to
    a space or its end ("Player 1, Player 2: ..." does not say "Player 2: ...")."""
    return re.search(rf"(?:^|(?<=[.!?…] )){re.escape(step)}(?= |$)", heard) is not None


class TableScene(Scene):
    """A game's table: the *scene* half, which only draws and routes input to the game's
    pygame-free controller, ``play`` (a :class:`~tabletop.ui.controller.TableController`,
    ``ui/games/<game>/play.py``), and asks it what the table is (standings, next step,
    record, checks, lamps, the message): a scene never keeps or works them out again.

    The base carries event dispatch, dialogs (Leave, Rules: the class's ``rules``, the
    teacher's PIN: its ``undo_pin`` words), the child's sentence for a refusal (from
    :mod:`tabletop.ui.messages`; the precise English goes to the log), saving (every input
    in one journal write, :func:`~tabletop.ui.saves.one_write`), lamps, bot pacing and the
    hand over to the one results scene (:class:`~tabletop.ui.results.GameResults`).
    Subclasses set ``game`` (the journal's id) and ``play``, implement :meth:`outcome`,
    and override only what their game does differently."""

    game = ""
    rules: tuple[str, Sequence[RulesPage]] = ("", ())  # the Rules screen's title and pages
    undo_pin: tuple[str, str | None] = ("Teacher PIN to take back a move", None)  # its words
    step_after = False  # the instruction line says the next step after the message too
    bot_pause = BOT_PAUSE
    results_at_end = False  # hand over to the results the moment the game is over
    card_face: Face | None = None  # draws a card on the table: its pickers draw them so
    heard = ""  # what the instruction line last said aloud: a sentence, or a step
    prompt = ""  # the last of them said as a prompt (not a step)
    aloud = Aloud()  # the line's last sentence, as said (:meth:`news`)
    pressing: int | None = None  # the seat whose press is being acted on (:meth:`for_seat`)
    asked_by: int | None = None  # the seat whose press opened the dialog on top
    undo_on = True  # the game's Undo button is on (:attr:`buttons`)
    teacher_undo = True  # its Undo asks the teacher's PIN (the base's :meth:`press`)
    camera_off = ""  # the sentence when the card camera stops: the game's way on by touch
    camera_ok: bool | None = None  # the card camera worked when last looked at (None: not yet)

    def __init__(
        self,
        ctx: Context,
        save: GameSave | None,
        *,
        resumed: bool = False,
        again: Callable[[], Scene] | None = None,
    ) -> None:
        super().__init__(ctx)
        self.save = save
        self.resumed = resumed  # carried on from the journal
        self.again = again  # the same game's first screen again ("Play again")
        self.asking: tuple[Any, ...] | None = None
        self.saved_end = False
        self.bot_at: float | None = None  # when the waiting bot may move
        self.camera: Any = None  # the card camera a game starts on enter, stopped on exit
        self.spoken = 0  # the controller's sentences said aloud so far
        # what came while a dialog was open over the table (:meth:`hold`)
        self.held: dict[tuple[int | str | None, ...], CardsSeen | SeatPressed] = {}

    # -- what a game provides ---------------------------------------------------------------

    play: TableController

    @property
    def match(self) -> Match[Any, Any, Any]:
        return self.play.match

    @property
    def message(self) -> str:
        """What just happened: kept once, in the controller (``play.message``)."""
        return self.play.message

    @message.setter
    def message(self, text: str) -> None:
        self.say(text)

    @property
    def finished(self) -> bool:
        return self.match.result() is not None

    def standings(self) -> Result:
        """What the rotation and the fleet ask a game screen (``play``'s)."""
        return self.play.standings()

    def outcome(self) -> Outcome:
        """The end, for the results scene."""
        raise NotImplementedError

    def shown(self, seat: int, name: str) -> str:
        """``name``, seat ``seat``'s as the game has it, as the table draws it (a chip, a
        Ready tile): told apart from a namesake signed in at another seat ("Mia (4b)"),
        or typed at an earlier one ("Sam 2", :func:`~tabletop.ui.saves.shown_seat_names`);
        as it is where the game names it otherwise (a team)."""
        seats = self.save.seats if self.save is not None else []
        if not any(s.seat == seat and s.name == name for s in seats):
            return name
        return shown_seat_names(seats)[seat]

    @property
    def buttons(self) -> list[Button]:
        buttons: list[Button] = self.__dict__.get("laid_out", [])
        return buttons

    @buttons.setter
    def buttons(self, buttons: list[Button]) -> None:
        """A game's buttons as it lays them out; while a rotation runs, its Undo is on
        whatever the game says (the way to the teacher's menu: More time, Pause), and
        ``undo_on`` keeps what the game said (the menu's "Undo last step")."""
        undo = next((b for b in buttons if b.name == "undo"), None)
        self.undo_on = undo is None or undo.enabled
        if undo is not None and self.teacher_undo and teacher_items(self.ctx):
            undo.enabled = True
        self.__dict__["laid_out"] = buttons

    def can_undo(self) -> bool:
        """A step for the teacher to take back, the game's Undo on (not only for the
        rotation's menu): none where Undo is the child's own (``teacher_undo``)."""
        return self.teacher_undo and self.undo_on and self.play.can_undo()

    def seat_pressed(self, seat: int, at: float) -> None:
        """A seat's button, or its touch twin (a tap on a ``seat.<s>`` chip or a
        ``ready.<s>`` tile, :meth:`~tabletop.ui.widgets.Painter.ready_tile`), was pressed
        at a seat somebody sits at (:meth:`route` answers an empty seat's)."""
        self.ask_about(self.play.seat_pressed(seat))

    def empty_seat(self, seat: int) -> bool:
        """True (and said) when nobody sits at ``seat``: its button does nothing (a round
        with no match, Bubbles, has no seats: it answers every button itself)."""
        if self.match is None or 0 <= seat < self.match.seats:
            return False
        self.refuse("ui.empty_seat", f"seat {seat + 1} is empty", seat=seat + 1)
        return True

    def cards_seen(self, event: CardsSeen) -> None:
        self.play.cards_seen(event.seat, event.area, event.codes)

    def hold(self, event: CardsSeen | SeatPressed) -> bool:
        """A zone's reading or a seat's press while a dialog is open over the table: kept
        and routed once the table is on top again, after the dialog's answer. A zone's
        latest reading counts; a seat pressed again is one press, at its first time (the
        seat whose press opened the dialog pressed again under it: not kept, as on it)."""
        if isinstance(event, SeatPressed) and event.seat == self.asked_by:
            return False
        if isinstance(event, CardsSeen):
            self.held[event.seat, event.area] = event
        else:
            self.held.setdefault((event.seat,), event)
        return True

    def pointer(self, event: Drag | Release) -> None:
        """A finger moved or came up (after the ``Tap`` of its touch)."""

    def press(self, name: str) -> None:
        """An enabled button; the base knows ``leave``, ``rules``, ``teacher`` and ``undo``
        (the teacher's PIN, when there is a step to take back)."""
        if name == "leave":
            self.leave()
        elif name == "rules":
            self.ask(("rules",), self.rules_scene())
        elif name == "undo" and self.can_undo():
            prompt, subtitle = self.undo_pin
            self.ask(("pin",), PinPad(self.ctx, "undo", prompt=prompt, subtitle=subtitle))
        elif name == "teacher" or (name == "undo" and teacher_items(self.ctx)):
            self.ask(("pin",), PinPad(self.ctx, "moderator", subtitle=self.teacher_help()))
        elif name == "undo":
            self.refuse("engine.nothing_to_undo", "undo with nothing to take back")

    def explain(self, name: str) -> None:
        """A disabled button was tapped: say why it is off (the default only buzzes)."""
        self.ctx.sounds.play("wrong")

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        """A dialog opened by :meth:`ask` closed with ``result``."""

    def rules_scene(self) -> Scene:
        return RulesScene(self.ctx, *self.rules)

    def teacher_help(self) -> str:
        return child_message("ui.teacher_undo") if self.can_undo() else TEACHER_HELP

    def begin(self) -> None:
        """What the table does first (deal, settle), in the game's first journal write."""

    def card_seats(self) -> int:
        """How many seats' cards the card camera reads while the table is up (started on
        enter, stopped on exit; 0: no camera, the cards are on the screen or tapped in)."""
        return 0

    # -- lifecycle --------------------------------------------------------------------------

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """All one input leads to reaches the journal once (nothing without a save); an
        error it meets is refused in the child's words."""
        with contextlib.nullcontext() if self.save is None else one_write(self.match):
            try:
                yield
            except TabletopError as e:
                self.refuse(e.code, str(e))

    def enter(self) -> None:
        self.play.namer = self.shown  # the controller's sentences name seats as drawn
        self.camera = start_card_camera(self.ctx, self.game, self.card_seats())
        if self.save is not None:
            self.save.attach(self.match)
        with self.writing():
            self.begin()
        if self.resumed:
            self.welcome()
        self.after()

    def welcome(self) -> None:
        """A game carried on from the journal says so."""
        self.message = child_message("ui.welcome_back", what=self.play.next_step()).strip()

    def exit(self) -> None:
        self.ctx.lamps.light_only([])
        stop_card_camera(self.camera)
        self.camera = None

    def resume(self, result: Any) -> None:
        with self.writing():
            asking, self.asking = self.asking, None
            asker, self.asked_by = self.asked_by, None  # the next question is theirs too
            kind = asking[0] if asking else None
            if kind == "leave" and result == "yes":
                self.abandon()
                go_home(self.stack)
                return
            if kind == "pin" and result == "ok":  # the teacher's menu (a bot waits again)
                self.teacher_menu()
                self.bot_at = None
            elif asking is None or kind in ("leave", "pin", "rules"):
                pass
            elif kind == "ask" and (teacher_chose(self.ctx, result) or asking[1].key == "undo"):
                if result == "undo":  # the menu of a game with none of its own
                    self.play.undo()
            else:
                self.for_seat(asker, self.answered, asking, result)
            while self.held and self.stack.top is self:  # an answer may open another dialog
                self.route(self.held.pop(next(iter(self.held))))
        self.after()

    # -- input ------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        with self.writing():
            self.route(event)
        self.after()

    def route(self, event: InputEvent) -> None:
        """Every input's one way in: a seat's press (its button, its touch twin, one
        kept under a dialog) reaches :meth:`seat_pressed` only from a seat sat at."""
        if isinstance(event, Back):
            self.leave()
        elif isinstance(event, SeatPressed) and not self.empty_seat(event.seat):
            self.for_seat(event.seat, self.seat_pressed, event.seat, event.at)
        elif isinstance(event, CardsSeen) and self.card_seats() and event.twice:
            self.refuse("ui.card_twice", f"a card seen twice at seat {event.seat}: {event.codes}")
        elif isinstance(event, CardsSeen):
            self.cards_seen(event)
        elif isinstance(event, Drag | Release):
            self.pointer(event)
        elif isinstance(event, Tap):
            self.tapped(event)

    def for_seat(self, seat: int | None, act: Callable[..., None], *args: Any) -> None:
        """``act(*args)`` on behalf of ``seat``'s press: a dialog it opens is that seat's,
        and the seat pressing again under it is not kept (:meth:`hold`)."""
        self.pressing = seat
        try:
            act(*args)
        finally:
            self.pressing = None

    def tapped(self, event: Tap) -> None:
        """The button under the tap (hit-tested once): a seat's chip or Ready tile is its
        seat's button, on or off; an enabled one clicks and is pressed; one that is off
        is explained."""
        button = hit(self.buttons, event.pos)
        if button is None:
            return
        kind, _, arg = button.name.partition(".")
        if kind in ("seat", "ready") and arg.isdigit():
            self.route(SeatPressed(int(arg), event.at, source="touch"))
        else:
            press_button(self, button, refuse=self.explain)

    def ask(self, asking: tuple[Any, ...], dialog: Scene) -> None:
        """Push ``dialog``; its result comes back to :meth:`answered` with ``asking``."""
        self.asking, self.asked_by = asking, self.pressing
        self.stack.push(dialog)

    def teacher_menu(self) -> None:
        """The right PIN: the game's teacher menu, with the running rotation's More time
        and Pause (:func:`~tabletop.ui.scenes.rotation.teacher_items`); a game with no menu
        takes back a step at once, or, while a rotation runs, offers that among them."""
        menu, more = self.play.teacher_menu(), teacher_items(self.ctx)
        if menu is None and not more:
            self.play.undo()
            return
        undo = UNDO if self.can_undo() else ()
        menu = menu or Ask("undo", child_message("ui.teacher_menu"), undo, rows=2)
        menu = replace(menu, choices=menu.choices + more)
        dialog = ask_dialog(self.ctx, menu, self.card_face)
        dialog.speaks = False  # a teacher's screen: not read out to the class
        self.ask(("ask", menu), dialog)

    def ask_about(self, ask: Ask | None) -> None:
        """Show the controller's question (if any) on its dialog
        (:func:`~tabletop.ui.scenes.rules.ask_dialog`); the key chosen comes back to
        :meth:`answered` with ``("ask", ask)``."""
        if ask is not None:
            self.ask(("ask", ask), ask_dialog(self.ctx, ask, self.card_face))

    def leave(self) -> None:
        self.ask(("leave",), ask_leave(self.ctx))

    def abandon(self) -> None:
        """Leave was confirmed: a game not over is journaled as abandoned, as it stands."""
        if self.save is not None and not self.finished and not self.saved_end:
            self.save.finish(self.standings(), reason="abandoned")
            self.saved_end = True

    # -- say and refuse -----------------------------------------------------------------------

    def say(self, text: str, tone: str = "info") -> None:
        """``text`` on the instruction line (the controller's ``say``), and aloud."""
        self.play.say(text, tone)
        self.voice()

    def voice(self) -> None:
        """Say aloud what is new on the instruction line: the sentence the controller said
        since the last time (the last one: the one on screen), cutting what was being
        said, less the start it keeps of the one before (:meth:`news`); then the step
        the line shows beside it (:meth:`step_shown`), queued to follow, unless it was
        just heard; once the line no longer shows the last prompt, the step is a prompt
        that cuts it (a child who tapped on hears where the game is now), and so is a
        game's own words there, not its next step (a verdict: who won, right or wrong).
        So a step that changes with no sentence (a silent move, a bot's, the turn passing
        on) is said once, when it changes."""
        if self.play.sentences != self.spoken:
            self.spoken = self.play.sentences
            if said := " ".join(self.play.message.split()):
                self.heard = said
                self.speak(self.news(said))
                self.prompt = said
        if (step := self.step_shown()) and not says(self.heard, step):
            self.heard = step
            own = step != " ".join(self.play.next_step().split())  # a verdict, not a step
            stale = not (self.prompt and says(" ".join(self.status().split()), self.prompt))
            if self.stack.top is self and (own or stale):
                self.speak(step)  # a prompt: it cuts one the line no longer shows
                self.prompt = step
            else:
                self.speak(step, step=True)

    def news(self, said: str) -> str:
        """What the sentence ``said`` adds to the one before it, when it begins with it
        (or with the start that one kept) and the child heard that to its end (a ruling
        kept above a refusal); all of it when that was cut off or never said."""
        last = self.aloud
        if self.ctx.speaker.finished(last.told):  # told to its end: all of it was heard
            heard: tuple[str, ...] = (last.line, last.kept)
        elif last.told != last.line:  # cut, but the start it kept had been heard before
            heard = (last.kept,)
        else:  # cut, and all of it was told: none of it heard for sure
            heard = ()
        # it may begin with the last sentence or the start that one kept, a whole sentence
        # each ("" never: ``said``, its spaces made single, does not begin with one)
        whole = (k for k in (last.line, last.kept) if k and k[-1] in ".!?…")
        kept = next((k for k in whole if said.startswith(f"{k} ")), "")
        told = said.removeprefix(kept).strip() if kept and kept in heard else said
        self.aloud = Aloud(said, kept, told)
        return told

    def step_shown(self) -> str:
        """What the instruction line (:meth:`status`) shows beside the sentence: the next
        step, or a game's own words there ("" while the sentence hides the step)."""
        shown = self.status()
        if said := self.message:
            shown = shown.replace(said, "", 1)
        return " ".join(shown.split())

    def refuse(self, code: str, detail: str = "", **facts: Any) -> None:
        """The child's sentence for ``code`` on screen (and spoken); the precise ``detail``
        in the log."""
        log.info("%s: %s (%s)", self.game, detail or code, code)
        self.ctx.sounds.play("wrong")
        self.say(child_message(code, {**self.play.facts(), **facts}), "error")

    def status(self) -> str:
        """The instruction line: what just happened (with ``step_after``, then the next
        step, unless it says it already), or else the next step."""
        said = self.message
        if not (said and self.step_after):
            return said or self.play.next_step()  # the step only when it shows
        step = self.play.next_step()
        return said if step in said else f"{said} {step}"

    def draw_status(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        *,
        lit: bool = False,
        colour: tuple[int, int, int] | None = None,
    ) -> None:
        """The instruction line in its box, at the body text size (in ``colour``)."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        painter.box(surface, rect, p.panel, p.selected if lit else p.line, 2, m.u(8))
        area = rect.inflate(-m.u(14), -m.u(8))
        painter.paragraph(surface, self.status(), area, m.text, colour)

    # -- after every input --------------------------------------------------------------------

    def after(self) -> None:
        """Say what is new, lay the screen out again, light the lamps, write the record;
        with ``results_at_end``, a game just over (this table on top) goes to its results."""
        self.voice()
        self.layout(self.m)
        if not isinstance(self.stack.top, GameResults):  # they light the winners' seats
            self.ctx.lamps.light_only(sorted(self.play.lit()))
        self.save_table()
        if self.results_at_end and self.finished and self.stack.top is self:
            self.show_results()

    def save_table(self) -> None:
        """The table's record and the checked answers beside the journaled match (when
        they changed); the result once the game is over."""
        save = self.save
        if self.saved_end or save is None:
            return
        record, checks = self.play.record(), self.play.checks()
        new_record = record is not None and record != save.app.get("table")
        new_checks = checks is not None and checks != save.checks
        if new_record:
            save.app.update(table=record, played=save.elapsed())
        if new_checks:
            save.checks = checks
        if new_record or new_checks:
            save.write_meta()
        if self.finished:
            self.saved_end = True
            save.finish(self.match.result())

    # -- bots and the end ---------------------------------------------------------------------

    def camera_news(self) -> bool:
        """The card camera (of a game read with one) stopped, failed on its thread or never
        started: said once, with the game's way on by touch; working again: said too."""
        ok = self.camera is not None and getattr(self.camera, "available", True)
        if not self.card_seats() or self.ctx.card_camera is None or ok == self.camera_ok:
            return False
        told, self.camera_ok = self.camera_ok is not None or not ok, ok
        if told:
            key, tone = ("ui.camera_back", "info") if ok else (self.camera_off, "error")
            self.say(child_message(key), tone)
        return told

    def update(self, now: float) -> bool:
        told = self.camera_news()
        if self.stack.top is not self or not self.play.bot_due():
            self.bot_at = None
        elif self.bot_at is None:
            self.bot_at = now + self.bot_pause
        elif now >= self.bot_at:
            self.bot_at = None
            with self.writing():
                self.play.bot_step()
            self.after()
            return True
        return told

    def results_aside(self) -> Callable[[pygame.Surface, pygame.Rect], None] | None:
        """The game's own picture on the results screen instead of the standings."""
        return None

    def show_results(self) -> None:
        outcome = told_apart(self.outcome(), self.shown)
        won = [r.seat for r in outcome.rows if r.place == 1]  # their lamps lit on the results
        lit = functools.partial(self.ctx.lamps.light_only, won)
        results = GameResults(
            self.ctx, outcome, again=self.again, aside=self.results_aside(), on_enter=lit
        )
        self.stack.replace(results)


__all__ = ["BOT_PAUSE", "TableScene", "corner_buttons"]
