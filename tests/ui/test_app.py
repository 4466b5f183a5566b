"""The scene stack's lifecycle, the loop, and the one input stream."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.ui.app import Scene, SceneStack
from tabletop.ui.input import Back, InputRouter, Key, Quit, Tap, View, order_presses
from tabletop.ui.messages import child_message
from tabletop.ui.theme import LARGE, SMALL, metrics_for
from tests.ui.scenery import FakeClock, build, make_app


class Recorder(Scene):
    def __init__(self, ctx: Any, name: str, log: list[str], opaque: bool = True) -> None:
        super().__init__(ctx)
        self.name = name
        self.log = log
        self.opaque = opaque
        self.handled: list[Any] = []
        self.draws = 0

    def layout(self, metrics: Any) -> None:
        self.log.append(f"{self.name}.layout")

    def enter(self) -> None:
        self.log.append(f"{self.name}.enter")

    def pause(self) -> None:
        self.log.append(f"{self.name}.pause")

    def resume(self, result: Any) -> None:
        self.log.append(f"{self.name}.resume({result})")

    def exit(self) -> None:
        self.log.append(f"{self.name}.exit")

    def handle(self, event: Any) -> None:
        self.handled.append(event)
        if isinstance(event, Tap) and event.pos == (1, 1):
            raise RuntimeError("a bug in a scene")

    def draw(self, surface: pygame.Surface) -> None:
        self.draws += 1


@pytest.fixture
def app():
    return make_app()


def test_scene_lifecycle_push_pop_replace(app) -> None:
    log: list[str] = []
    stack = SceneStack()
    a, b, c = (Recorder(app.ctx, n, log) for n in "abc")
    stack.push(a)
    stack.push(b)
    stack.replace(c)
    stack.pop("done")
    assert log == [
        "a.layout", "a.enter",
        "a.pause", "b.layout", "b.enter",  # push: the old top pauses, the new one enters
        "b.exit", "c.layout", "c.enter",  # replace: the old top exits, the new one enters
        "c.exit", "a.resume(done)",  # pop: the result goes to the scene below
    ]  # fmt: skip
    assert stack.top is a and len(stack) == 1


def test_scene_lifecycle_unwind_resumes_once(app) -> None:
    from tabletop.ui.scenes.home import HomeScene

    log: list[str] = []
    home = app.stack.top
    assert isinstance(home, HomeScene)
    for name in ("setup", "game", "dialog"):
        app.stack.push(Recorder(app.ctx, name, log))
    log.clear()
    app.stack.unwind_to(HomeScene)
    assert log == ["dialog.exit", "game.exit", "setup.exit"]
    assert app.stack.top is home and len(app.stack) == 1


def test_scene_lifecycle_dialog_draws_the_scene_below(app) -> None:
    log: list[str] = []
    below = Recorder(app.ctx, "below", log)
    dialog = Recorder(app.ctx, "dialog", log, opaque=False)
    cover = Recorder(app.ctx, "cover", log)
    app.stack.push(cover)
    app.stack.push(below)
    app.stack.push(dialog)
    app.draw()
    assert (cover.draws, below.draws, dialog.draws) == (0, 1, 1)


def test_scene_only_the_top_scene_gets_input(app) -> None:
    log: list[str] = []
    below, top = Recorder(app.ctx, "below", log), Recorder(app.ctx, "top", log)
    app.stack.push(below)
    app.stack.push(top)
    app.post(Tap((5, 5), 1.0))
    app.step()
    assert top.handled == [Tap((5, 5), 1.0)] and below.handled == []


def test_scene_error_shows_a_sentence_never_a_traceback(app, caplog) -> None:
    log: list[str] = []
    app.stack.push(Recorder(app.ctx, "buggy", log))
    app.post(Tap((1, 1), 1.0))
    assert app.step() is True  # the app keeps running
    assert app.toast is not None and app.toast[0] == child_message("ui.oops")
    assert "Traceback" not in app.toast[0]
    assert "a scene failed" in caplog.text  # the details go to the log


def test_scene_draw_never_changes_state() -> None:
    app = build("mathe-meister-game", (800, 480))
    game = next(s for s in app.stack if type(s).__name__ == "MatheMeisterScene")
    before = (game.match.history, game.play.pen, game.message, game.play.swap, game.play.advice)
    for _ in range(3):
        app.draw()
    assert (
        game.match.history,
        game.play.pen,
        game.message,
        game.play.swap,
        game.play.advice,
    ) == before


def test_app_quit_event_stops_the_loop(app) -> None:
    app.post(Quit())
    assert app.step() is False


def test_app_back_leaves_a_screen(app) -> None:
    from tests.ui.scenery import start_solo

    start_solo(app)
    assert type(app.stack.top).__name__ == "DiceScene"
    app.post(Back(1.0))
    app.step()
    assert type(app.stack.top).__name__ == "MatheMeisterScene"


def test_app_layout_chosen_from_window_size() -> None:
    assert metrics_for((800, 480)) is SMALL
    assert metrics_for((1024, 600)) is SMALL
    assert metrics_for((1280, 720)) is LARGE
    assert metrics_for((1920, 1080)) is LARGE


def test_app_canvas_scales_into_a_bigger_window() -> None:
    app = make_app((1024, 600))
    assert app.ctx.metrics is SMALL and app.canvas.get_size() == (800, 480)
    view = app.router.view
    # the 800x480 canvas fills 1000x600, centred: a tap at the window centre is the centre
    assert view.to_canvas(512, 300) == (400, 240)


def test_input_touch_is_mapped_to_canvas_pixels() -> None:
    clock = FakeClock(5.0)
    router = InputRouter(View((800, 480), (1600, 960)), clock)
    event = pygame.event.Event(pygame.FINGERDOWN, x=0.25, y=0.5, finger_id=0, touch_id=0)
    assert router.translate([event]) == [Tap((200, 240), 5.0, "touch")]


def test_input_drops_touch_emulated_mouse_clicks() -> None:
    router = InputRouter(View((800, 480), (800, 480)), FakeClock())
    real = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=1, touch=False)
    copy = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=1, touch=True)
    wheel = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=4, touch=False)
    out = router.translate([copy, real, wheel])
    assert out == [Tap((10, 20), 1000.0, "mouse")]


def test_input_drags_and_releases_from_finger_and_held_mouse() -> None:
    from tabletop.ui.input import Drag, Release

    router = InputRouter(View((800, 480), (1600, 960)), FakeClock(2.0))
    events = [
        pygame.event.Event(pygame.FINGERMOTION, x=0.5, y=0.5, dx=0, dy=0, finger_id=0, touch_id=0),
        pygame.event.Event(pygame.FINGERUP, x=0.25, y=0.25, dx=0, dy=0, finger_id=0, touch_id=0),
        # the mouse moving with no button held is not a drag; a touch's mouse copy is dropped
        pygame.event.Event(pygame.MOUSEMOTION, pos=(8, 8), rel=(1, 1), buttons=(0, 0, 0)),
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(8, 8), rel=(1, 1), buttons=(1, 0, 0), touch=True
        ),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(100, 60), rel=(1, 1), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(120, 80), button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(120, 80), button=3),
    ]
    assert router.translate(events) == [
        Drag((400, 240), 2.0),
        Release((200, 120), 2.0),
        Drag((50, 30), 2.0),
        Release((60, 40), 2.0),
    ]


def test_input_keys_one_to_eight_are_seat_buttons() -> None:
    router = InputRouter(View((800, 480), (800, 480)), FakeClock(3.0))
    keys = [
        pygame.event.Event(pygame.KEYDOWN, key=k, unicode=u, mod=0, scancode=0)
        for k, u in ((pygame.K_3, "3"), (pygame.K_ESCAPE, ""), (pygame.K_a, "a"))
    ]
    out = router.translate(keys)
    assert out == [SeatPressed(2, 3.0, "keyboard"), Back(3.0), Key("a", "a", 3.0)]


def test_input_presses_in_one_frame_are_ordered_by_time() -> None:
    events = [Tap((1, 1), 2.0), SeatPressed(4, 2.5), SeatPressed(1, 2.1), Back(2.2)]
    assert order_presses(events) == [
        Tap((1, 1), 2.0),
        SeatPressed(1, 2.1),
        SeatPressed(4, 2.5),
        Back(2.2),
    ]


def test_input_goes_through_the_real_event_queue(app) -> None:
    """A touch posted to SDL's queue reaches the home scene's tile."""
    tile = app.stack.top.target("game.mathe-meister")
    x, y = tile.rect.center
    pygame.event.post(
        pygame.event.Event(pygame.FINGERDOWN, x=x / 800, y=y / 480, finger_id=0, touch_id=0)
    )
    app.step()
    assert type(app.stack.top).__name__ == "FormScene"


def test_app_a_fingers_tap_just_after_the_screen_changed_is_dropped() -> None:
    """A double tap's second tap came on the next screen, whose button sits in the same
    corner (Play! then "Deal one for us"): a finger's tap less than SETTLE (0.3 s) after
    the screen on top changed is dropped, by the taps' own times on the app's clock; one
    0.5 s after is a tap. A script's taps aim at the screen on top by name: never held."""
    from tabletop.ui.autoplay import Autoplayer
    from tabletop.ui.scenes.form import FormScene
    from tabletop.ui.scenes.rules import ChoiceGrid

    app = make_app()

    def finger(name: str) -> None:
        x, y = app.stack.top.target(name).rect.center
        event = dict(x=x / 800, y=y / 480, finger_id=0, touch_id=0)
        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, **event))
        app.step()

    finger("game.math-arena")
    form = app.stack.top
    assert isinstance(form, FormScene)
    app.ctx.clock.advance(0.1)
    finger("seat.1")
    assert app.stack.top is form  # dropped: no seat picker
    app.ctx.clock.advance(0.4)
    finger("seat.1")
    assert isinstance(app.stack.top, ChoiceGrid)
    Autoplayer(app).tap("choice.child")  # no time passed: a script's tap still counts
    assert app.stack.top is form


# Touch targets of the card games' screens that are too small today (found when their
# screens joined tests.ui.scenery for issue 21): listed so that none is added; a fix
# takes its entry out of this list.
SMALL_TODAY = {
    (800, 480): {
    },
    (1280, 720): {
    },
}  # fmt: skip


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_touch_targets_are_big_enough(size) -> None:
    """Every touch target of every scene is at least 48 px at 800x480 (64 at 1280x720),
    but for those of :data:`SMALL_TODAY`."""
    from tests.ui.scenery import SCENES

    least = 48 if size == (800, 480) else 64
    small: dict[str, set[str]] = {}
    for name in SCENES:
        app = build(name, size)
        assert app.ctx.metrics.touch == least
        for target in app.stack.top.targets():
            if min(target.rect.width, target.rect.height) < least:
                small.setdefault(name, set()).add(target.name)
    assert small == SMALL_TODAY[size]
