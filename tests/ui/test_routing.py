"""One input path (issue 21): ``route_to_press`` routes Back, taps and keyboard keys for
the pads, the dialogs and the setup form, and a button that is off says why."""

from __future__ import annotations

from typing import Any

import pygame

from hardware.buttons import SeatPressed
from tabletop.ui.app import App
from tabletop.ui.input import Back, InputEvent, Key, Tap
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.scenes.common import Confirm, route_to_press
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.widgets import Button
from tests.ui.scenery import Recorder, make_app


def send(app: App, *events: InputEvent) -> None:
    for event in events:
        app.post(event)
        app.step()


def key(app: App, text: str, name: str = "") -> None:
    send(app, Key(name or text, text, app.ctx.clock()))


def test_routing_number_pad_takes_keys_and_says_why_a_key_is_off() -> None:
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    app.stack.push(NumPad(app.ctx, "Count", negative=False))
    key(app, "-")  # the minus key is off on this pad
    pad = app.stack.top
    assert isinstance(pad, NumPad) and pad.typed == "" and "below zero" in pad.message
    assert app.ctx.sounds.played[-1] == "wrong"
    key(app, "", "return")  # nothing typed yet: OK is off
    assert isinstance(app.stack.top, NumPad) and "Type a number" in pad.message
    for text in "129":
        key(app, text)
    key(app, "", "backspace")
    key(app, "", "return")
    assert under.results == [12]


def test_routing_number_pad_says_its_refusals_from_the_sentence_table() -> None:
    """Round 36 (issue 21): the pad's refusals were English in its module; each is the
    table's sentence, so the screen and the speaker say the same words."""
    app = make_app()
    app.stack.push(Recorder(app.ctx))
    pad = NumPad(app.ctx, "Count", negative=False, max_digits=2)
    app.stack.push(pad)
    said = []
    for name in ("-", "/", "return", "1", "2"):
        key(app, "" if name == "return" else name, name)
        said.append(pad.message)
    key(app, "3")
    assert pad.typed == "12" and pad.message == child_message("ui.pad_full")
    codes = ("ui.pad_minus", "ui.pad_frac", "ui.pad_ok")
    assert said == [*(CHILD_MESSAGES[c] for c in codes), "", ""]
    assert said[0] == "This answer cannot be below zero."
    assert app.ctx.speaker.said[-1] == CHILD_MESSAGES["ui.pad_full"]


def test_routing_pin_pad_types_digits_from_the_keyboard() -> None:
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    app.stack.push(PinPad(app.ctx, "undo"))
    for text in "247":
        key(app, text)
    key(app, "", "backspace")  # the last digit taken back
    for text in "68":
        key(app, text)
    assert under.results == ["ok"]


def press_keys(app: App, *keys: tuple[int, str]) -> None:
    """Real key presses, through SDL's queue and the app's input router."""
    for k, text in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=text, mod=0))
        app.ctx.clock.advance(0.2)
        app.step()


def test_routing_keyboard_digits_one_to_eight_reach_an_open_pad_not_the_seats() -> None:
    """Walk 28: with no buttons wired, keys 1..8 stand in for the seats, and they used
    to become seat presses even while a pad was open (the pad showed only the 9).
    While the number pad or the PIN pad is on top they are digits; otherwise seats."""
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    app.stack.push(NumPad(app.ctx, "Count"))
    press_keys(app, (pygame.K_1, "1"), (pygame.K_2, "2"), (pygame.K_KP3, "3"))
    press_keys(app, (pygame.K_RETURN, "\r"))
    app.stack.push(PinPad(app.ctx, "undo"))
    press_keys(app, *((getattr(pygame, f"K_{d}"), d) for d in "2468"))
    assert under.results == [123, "ok"]
    seats: list[object] = []
    under.handle = seats.append  # type: ignore[method-assign]
    press_keys(app, (pygame.K_3, "3"))  # no pad on top: a seat's button
    assert seats == [SeatPressed(2, app.ctx.clock(), "keyboard")]


def test_routing_confirm_back_answers_no_and_a_tap_answers_its_button() -> None:
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    app.stack.push(Confirm(app.ctx, "Leave?"))
    send(app, Back(app.ctx.clock()))
    app.stack.push(Confirm(app.ctx, "Leave?"))
    yes = app.stack.top.target("yes")
    assert yes is not None
    send(app, Tap(yes.rect.center, app.ctx.clock(), "touch"))
    assert under.results == ["no", "yes"]


class Pressing:
    """A stand-in scene: what ``route_to_press`` pressed and refused."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.buttons = [
            Button("go", pygame.Rect(0, 0, 50, 50), "Go"),
            Button("off", pygame.Rect(100, 0, 50, 50), "Off", enabled=False),
        ]
        self.log: list[str] = []

    def press(self, name: str) -> None:
        self.log.append(f"press {name}")

    def target(self, name: str) -> Button | None:
        return next((b for b in self.buttons if b.name == name), None)


def test_routing_a_button_that_is_off_is_refused_not_pressed() -> None:
    app = make_app()
    scene = Pressing(app.ctx)
    keys = {"g": "go", "o": "off", "x": "missing"}

    def refuse(name: str) -> None:
        scene.log.append(f"no {name}")

    for event in (
        Tap((10, 10), 0.0, "touch"),
        Tap((110, 10), 0.0, "touch"),
        Key("o", "o", 0.0),
        Key("x", "x", 0.0),  # no such button: nothing happens
        Key("g", "g", 0.0),
        Back(0.0),
    ):
        route_to_press(scene, event, "back", refuse=refuse, keys=keys)
    route_to_press(scene, Tap((110, 10), 0.0, "touch"))  # no refuse: a tap on it does nothing
    assert scene.log == ["press go", "no off", "no off", "press go", "press back"]


def test_routing_a_controllers_ask_shows_on_one_dialog_and_answers_its_key() -> None:
    """A controller's pygame-free :class:`Ask`: yes/no on a Confirm with its labels, any
    other question on a ChoiceGrid (captions under the labels); either pops the key."""
    from tabletop.ui.controller import Ask
    from tabletop.ui.scenes.rules import ChoiceGrid, ask_dialog

    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    sure = Ask("sure", "Is it a 7?", (("yes", "Yes, it is"), ("no", "No")), yes_no=True)
    app.stack.push(ask_dialog(app.ctx, sure))
    yes = app.stack.top.target("yes")
    assert isinstance(app.stack.top, Confirm) and yes is not None and yes.label == "Yes, it is"
    send(app, Tap(yes.rect.center, app.ctx.clock(), "touch"))
    cards = Ask("card", "Which card?", (("A", "1"), ("B", "2")), captions=(("B", "two"),))
    app.stack.push(ask_dialog(app.ctx, cards))
    grid = app.stack.top
    two = grid.target("choice.B")
    assert isinstance(grid, ChoiceGrid) and grid.title == "Which card?"
    assert two is not None and two.caption == "two" and grid.target("choice.A").caption == ""
    send(app, Tap(two.rect.center, app.ctx.clock(), "touch"))
    assert under.results == ["yes", "B"]


def test_routing_choices_pop_the_answer_and_cancel_or_back_pop_none() -> None:
    from tabletop.ui.scenes.common import Choices

    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    answers = (("cancel", "Cancel", "quiet"), ("go", "Go", "primary"))
    for name in ("go", "cancel", ""):
        app.stack.push(Choices(app.ctx, "Go on?", "A line or two.", answers, cancel="cancel"))
        button = app.stack.top.target(name)
        event = Back(app.ctx.clock()) if button is None else Tap(button.rect.center, 0.0, "touch")
        send(app, event)
    assert under.results == ["go", None, None]


def test_routing_paged_lists_turn_round_and_keep_the_page_in_range() -> None:
    """The one paging helper of the choice grid, the class list and the report."""
    from tabletop.ui.widgets import Paged

    pages = Paged()
    items = list(range(7))
    assert pages.paged(items, 3) == [0, 1, 2] and pages.pages == 3
    pages.turn_page(-1)  # back from the first page: the last
    assert pages.page == 2 and pages.paged(items, 3) == [6]
    pages.turn_page(1)
    assert pages.page == 0
    pages.page = 2
    assert pages.paged(items[:4], 3) == [3] and pages.page == 1  # the list got shorter
    assert pages.paged([], 0) == [] and pages.pages == 1 and pages.page == 0


def test_routing_paged_fits_items_of_different_sizes_to_pages() -> None:
    """The setup form's rows (of different heights) page with the same helper: a new
    page where the next would not fit; one bigger than a page has a page of its own."""
    from tabletop.ui.widgets import Paged

    pages = Paged()
    cut = pages.fitting("abcde", [40, 50, 30, 120, 10], 100)
    assert cut == [["a", "b"], ["c"], ["d"], ["e"]]
    assert pages.fitting([], [], 100) == [[]]
    assert pages.page_of(cut) == ["a", "b"] and pages.pages == 4
    pages.turn_page(-1)
    assert pages.page_of(cut) == ["e"]
    assert pages.page_of(cut[:2]) == ["c"] and pages.page == 1  # fewer pages: the last
