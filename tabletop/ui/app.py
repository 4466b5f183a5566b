"""The app: a stack of scenes (screens), and the loop that feeds them input and draws them.

The loop drains the seat-button and camera queues on the display thread, ticks a
monotonic clock, and catches any error a scene raises so that a child sees a sentence,
never a traceback.
"""

from __future__ import annotations

import functools
import logging
import math
import queue
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pygame

from hardware.buttons import Lamps, NoLamps
from tabletop.assets import mathe_meister_layout
from tabletop.games.mathe_meister import Layout
from tabletop.highscores import HighScores
from tabletop.store import Journal
from tabletop.ui.input import (
    Back,
    CardsSeen,
    Drag,
    InputEvent,
    InputRouter,
    Quit,
    Release,
    Resized,
    SeatPressed,
    Tap,
    View,
    order_presses,
)
from tabletop.ui.messages import child_message
from tabletop.ui.prefs import PrefsFile
from tabletop.ui.sound import Sounds
from tabletop.ui.speech import Speaker
from tabletop.ui.theme import PALETTE, Fonts, Metrics, metrics_for
from tabletop.ui.widgets import Button, Painter, hit

if TYPE_CHECKING:
    from tabletop.ui.camera import CardCamera, PipelineCamera
    from tabletop.ui.prefs import PinGate
    from tabletop.ui.scenes.rotation import RotationRunner

log = logging.getLogger(__name__)
STRIP = 44  # base units: the strip at the bottom (a rotation banner, a message)
SETTLE = 0.3  # seconds: a finger's tap this soon after the button under it changed is dropped
S = TypeVar("S", bound="Scene")


@dataclass
class Context:
    """What scenes depend on, handed to each scene's constructor. Quiet by default (no
    sound, high scores, preferences and journal in memory); the launcher passes the
    device's own."""

    metrics: Metrics
    sounds: Sounds = field(default_factory=lambda: Sounds(enabled=False))
    highscores: HighScores = field(default_factory=lambda: HighScores(":memory:"))
    prefs: PrefsFile = field(default_factory=lambda: PrefsFile(None))
    layout: Layout = field(default_factory=mathe_meister_layout)
    clock: Callable[[], float] = time.monotonic
    lamps: Lamps = field(default_factory=NoLamps)
    camera: PipelineCamera | None = None  # the dice screen's; None: dice are tapped in
    card_camera: Callable[[str, int], CardCamera] | None = None  # (game, seats), or None
    rng: random.Random = field(default_factory=random.Random)
    fonts: Fonts = field(default_factory=Fonts)
    stack: SceneStack = field(default_factory=lambda: SceneStack())
    painter: Painter = field(init=False)
    pin_gate: PinGate | None = None  # the settings PIN's lockout, shared by every PIN pad
    quit_requested: bool = False
    # Every game's actions, the class list, rotation plans (the launcher opens the file).
    journal: Journal = field(default_factory=lambda: Journal(":memory:"))
    session: str = ""  # the lesson new games belong to (launch sets today's date)
    rotation: RotationRunner | None = None  # the station rotation this device runs
    wall: Callable[[], float] = time.time  # the rotation's clock, to survive a reboot
    notices: list[str] = field(default_factory=list)  # toasts from code with no scene
    fleet: Any = None  # the classroom fleet's StationFleet; None: the device runs alone
    speaker: Speaker = field(default_factory=Speaker)  # says what a scene's message shows

    def __post_init__(self) -> None:
        self.painter = Painter(self.metrics, self.fonts)

    def set_sound(self, *, muted: bool, speech: str | None = None) -> None:
        """The sound switch (cues and voice), and the voice setting; both kept."""
        prefs = self.prefs.prefs
        prefs.muted = self.sounds.muted = self.speaker.muted = muted
        if speech is not None:
            prefs.speech = self.speaker.setting = speech
        if not self.speaker.on:
            self.speaker.stop()
        self.prefs.save()

    def set_metrics(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.painter = Painter(metrics, self.fonts)


class Scene:
    """A screen. Subclasses override the lifecycle methods they need (below).

    ``message`` is the sentence the scene shows a child now: setting it also speaks it
    (``ctx.speaker``), so every prompt and refusal on screen can be heard. Teachers'
    screens set ``speaks = False``."""

    opaque = True
    speaks = True

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.buttons: list[Button] = []

    @property
    def message(self) -> Any:
        return self.__dict__.get("_message", "")

    @message.setter
    def message(self, value: Any) -> None:
        self.__dict__["_message"] = value
        if isinstance(value, str):
            self.speak(value)

    def speak(self, text: str, *, after: bool = False, step: bool = False) -> None:
        """Say ``text`` aloud as a prompt (it cuts what is being said; ``after``: it waits
        for it; ``step``: a table's next step, :meth:`Speaker.step`): the one way a scene
        speaks (its ``message``, a dialog as it opens, the results, a table's line).
        Silent where a teacher's screen (``speaks = False``) is this scene or under it on
        the stack: what a teacher opens is never read out to the class."""
        scenes = list(self.stack)
        under = scenes[: scenes.index(self)] if self in scenes else scenes  # not yet pushed
        if not text.strip() or not all(scene.speaks for scene in (*under, self)):
            return
        if step:
            self.ctx.speaker.step(text, by=self)
        else:
            self.ctx.speaker.say(text, after=after, by=self)

    @property
    def m(self) -> Metrics:
        return self.ctx.metrics

    @property
    def stack(self) -> SceneStack:
        return self.ctx.stack

    def layout(self, metrics: Metrics) -> None:
        """Work out rectangles for this screen size: before ``enter``, and again when
        the window changes to the other layout."""

    def enter(self) -> None:
        """Pushed (or replaced in), and now on top."""

    def pause(self) -> None:
        """Another scene was pushed on top of it."""

    def resume(self, result: Any) -> None:
        """On top again: the scene above popped with ``result`` (a dialog's answer, the
        dice a dice screen read) or ``None``."""

    def exit(self) -> None:
        """Left the stack (popped, replaced or unwound); it is not used again."""

    def hold(self, event: CardsSeen | SeatPressed) -> bool:
        """A camera reading or a seat's button press that came while another scene (a
        dialog, a PIN pad) is on top of this one: True when this scene keeps it for when
        it is on top again; the default lets it go to the scene on top."""
        return False

    def handle(self, event: InputEvent) -> None:
        """One input event (``Tap``, ``SeatPressed``, ``Seen``, ``Back``, ``Key``), only
        while on top. The default leaves on ``Back``."""
        if isinstance(event, Back) and len(self.stack) > 1:
            self.stack.pop()

    def update(self, now: float) -> bool:
        """Once per frame while on top; True when the screen must be redrawn (timers)."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Paint; never changes state. Below a scene that is not ``opaque`` (a dialog),
        the scene under it is drawn first."""
        surface.fill(PALETTE.background)

    def targets(self) -> list[Button]:
        """Every named touch target on screen now (what scripted taps aim at)."""
        return list(self.buttons)

    def target(self, name: str) -> Button | None:
        return next((b for b in self.targets() if b.name == name), None)


class SceneStack:
    """push / pop / replace with the lifecycle calls, in order."""

    def __init__(self) -> None:
        self._scenes: list[Scene] = []

    def __len__(self) -> int:
        return len(self._scenes)

    def __iter__(self) -> Iterator[Scene]:
        return iter(self._scenes)

    @property
    def top(self) -> Scene | None:
        return self._scenes[-1] if self._scenes else None

    def find(self, kind: type[S]) -> S | None:
        """The topmost scene of ``kind``, or None."""
        return next((s for s in reversed(self._scenes) if isinstance(s, kind)), None)

    def push(self, scene: Scene) -> None:
        if self._scenes:
            self._scenes[-1].pause()
        self._show(scene)

    def pop(self, result: Any = None) -> Scene:
        scene = self._scenes.pop()
        self._leave(scene)
        if self._scenes:
            self._scenes[-1].resume(result)
        return scene

    def replace(self, scene: Scene) -> Scene | None:
        old = self._scenes.pop() if self._scenes else None
        if old is not None:
            self._leave(old)
        self._show(scene)
        return old

    def _leave(self, scene: Scene) -> None:
        scene.exit()
        scene.ctx.speaker.left(scene)  # what it was saying is cut

    def _show(self, scene: Scene) -> None:
        self._scenes.append(scene)
        scene.layout(scene.ctx.metrics)
        scene.enter()

    def unwind_to(self, kind: type[Scene], result: Any = None) -> None:
        """Pop every scene above the topmost ``kind`` scene (it resumes once)."""
        while len(self._scenes) > 1 and not isinstance(self._scenes[-1], kind):
            self._leave(self._scenes.pop())
        if self._scenes:
            self._scenes[-1].resume(result)

    def relayout(self, metrics: Metrics) -> None:
        for scene in self._scenes:
            scene.layout(metrics)

    def draw(self, surface: pygame.Surface) -> None:
        start = len(self._scenes) - 1
        while start > 0 and not self._scenes[start].opaque:
            start -= 1
        for scene in self._scenes[max(start, 0) :]:
            scene.draw(surface)


class App:
    """The loop: input in, scenes updated, the canvas drawn and shown."""

    fps = 30  # frames a second at most

    def __init__(
        self,
        ctx: Context,
        window: pygame.Surface,
        *,
        seat_queue: queue.SimpleQueue[Any] | None = None,
        vision_queue: queue.SimpleQueue[Any] | None = None,
        flip: bool = True,
    ) -> None:
        self.ctx = ctx
        self.window = window
        self.seat_queue = seat_queue
        self.vision_queue = vision_queue
        self.flip = flip
        self.frames = 0
        self.running = True
        self.toast: tuple[str, float] | None = None
        self._posted: list[InputEvent] = []
        self._dirty = True
        self._journal_seq = 0  # the journal's trouble_seq last told on screen
        self._shown: dict[tuple[Any, ...], float] = {}  # the top and its buttons: since when
        # The whole canvas's layout; the scenes get ctx.metrics: the same, less the
        # rotation banner's strip at the bottom while one runs (see _fit).
        self.screen = ctx.metrics
        self.canvas = self._make_canvas()  # the layout's size; scaled to the window
        self.router = InputRouter(View(self.screen.size, window.get_size()), ctx.clock)

    @property
    def stack(self) -> SceneStack:
        return self.ctx.stack

    def _make_canvas(self) -> pygame.Surface:
        if self.window.get_size() == self.screen.size:
            return self.window
        return pygame.Surface(self.screen.size).convert()

    def post(self, event: InputEvent) -> None:
        """Queue an input event as if it came from a device (tests, the demo)."""
        self._posted.append(event)

    def say(self, message: str, seconds: float = 4.0) -> None:
        """A sentence over every screen for a few seconds."""
        self.toast = (message, self.ctx.clock() + seconds)
        self._dirty = True

    # -- one frame ---------------------------------------------------------------------

    def gather(self) -> list[InputEvent]:
        typing = "digit" in (getattr(self.stack.top, "keys", None) or ())  # a pad's digits
        events = self.router.translate(pygame.event.get(), typing=typing)
        for q in (self.seat_queue, self.vision_queue):
            while q is not None:
                try:
                    events.append(q.get_nowait())
                except queue.Empty:
                    break
        events.extend(self._posted)
        self._posted.clear()
        return order_presses(events)

    def step(self, *, force_draw: bool = False) -> bool:
        """Handle input, update, draw if needed; False once the app should stop."""
        now = self.ctx.clock()
        for event in self.gather():
            if isinstance(event, Quit):
                self.running = False
                continue
            if isinstance(event, Resized):
                self._resize(event.size)
                continue
            self._guarded(functools.partial(self._handle, event))
            self._dirty = True
        if self.stack.top is not None:
            self._dirty |= bool(self._guarded(lambda: self._top().update(now)))
        if self.ctx.fleet is not None:  # the teacher's plan and clock, results out
            self._dirty |= bool(self._guarded(self.ctx.fleet.update))
        if (rotation := self.ctx.rotation) is not None:  # the station rotation's clock
            self._dirty |= bool(self._guarded(rotation.update))
        self._dirty |= self._fit() | self.ctx.painter.turned(now)  # a paragraph's next page
        if self.ctx.journal.trouble_seq != self._journal_seq:  # the card stopped saving
            from tabletop.ui.saves import saving_words

            self._journal_seq = self.ctx.journal.trouble_seq
            self.ctx.notices.append(saving_words(self.ctx.journal))
        while self.ctx.notices:
            self.say(self.ctx.notices.pop(0), 6.0)
        self.ctx.speaker.update()
        if self.toast is not None and now > self.toast[1]:
            self.toast = None
            self._dirty = True
        self._note_top()
        if self.ctx.quit_requested or self.stack.top is None:
            self.running = False
        if self._dirty or force_draw:
            self.draw()
            self._dirty = False
        self.frames += 1
        return self.running

    def _handle(self, event: InputEvent) -> None:
        bottom = self.ctx.metrics.height - 1
        if isinstance(event, Tap | Drag | Release) and event.pos[1] > bottom:
            if isinstance(event, Tap):
                return  # on the rotation's banner: not the scene's
            event = replace(event, pos=(event.pos[0], bottom))  # a drag ends at its edge
        self._note_top()
        top = self._top()
        if isinstance(event, Tap) and event.live and event.at < self._since(event.pos) + SETTLE:
            return  # a double tap's second tap: meant for what was there before, not this
        if isinstance(event, CardsSeen | SeatPressed) and any(
            s.hold(event) for s in self.stack if s is not top
        ):
            return  # a table under a dialog keeps it: a change is seen once, a press made once
        top.handle(event)

    def _note_top(self) -> None:
        """Note since when the screen on top and each of its buttons as it is (name, words,
        place, on or off) are there (the first screen: always): a button of the next screen
        or step often sits where the last one's was, so a finger's tap on a new one (off
        them: on a new screen) waits :data:`SETTLE` seconds for the child to see it. A
        script's taps aim by name, and its clock may not move: they do not wait."""
        top, since = self.stack.top, self.ctx.clock() if self._shown else -math.inf
        faces = [self._face(b) for b in [None, *top.buttons]] if top else []
        self._shown = {face: self._shown.get(face, since) for face in faces}

    def _since(self, pos: tuple[int, int]) -> float:
        """Since when the button under ``pos`` (off them: the screen) is there as it is."""
        return self._shown[self._face(hit(self._top().buttons, pos))]

    def _face(self, b: Button | None) -> tuple[Any, ...]:
        """The screen on top, and one of its buttons as it is now (None: off them)."""
        top = self.stack.top
        return (top,) if b is None else (top, b.name, b.label, b.enabled, *b.rect)

    def _strip(self) -> int:
        """The height of the rotation banner's strip at the bottom (0: none)."""
        strip = getattr(self.ctx.rotation, "strip", None)
        try:
            return int(strip(self.screen)) if callable(strip) else 0
        except Exception:
            log.exception("the rotation's banner failed")
            return 0

    def _toast_fit(self, text: str) -> tuple[int, int]:
        """The message's size and the height of its lines, as :meth:`Painter.pages` fits
        it to the rotation banner's strip (shrunk down to the least size a child reads);
        on more lines at that size where it still does not fit (a higher strip: a
        message shows whole for its few seconds, never a page of it)."""
        m, painter = self.screen, self.ctx.painter
        room = pygame.Rect(0, 0, m.width - m.u(32), m.u(STRIP - 6))
        size, pages = painter.pages(text, room)
        if len(pages) > 1:
            size, pages = painter.pages(text, room.inflate(0, m.height), painter.least)
        return size, len(pages[0]) * painter.fonts.font(size).get_linesize()

    def _fit(self) -> bool:
        """Lay the scenes out above the strip at the bottom while there is one (the
        rotation banner's, or a message's for its few seconds, in the banner's place,
        higher only for a message that would not fit it even in smaller type: nothing a
        child taps is hidden under it), on the whole screen once it goes; True when that
        changed."""
        m, strip = self.screen, self._strip()
        if self.toast is not None:
            strip = max(strip, m.u(STRIP), self._toast_fit(self.toast[0])[1] + m.u(6))
        metrics = replace(m, size=(m.width, m.height - strip))
        if metrics == self.ctx.metrics:
            return False
        self.ctx.set_metrics(metrics)
        self.stack.relayout(metrics)
        return True

    def _top(self) -> Scene:
        scene = self.stack.top
        assert scene is not None
        return scene

    def _guarded(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except Exception:  # a scene bug must never put a traceback on screen
            log.exception("a scene failed")
            self.ctx.sounds.play("wrong")
            self.say(child_message("ui.oops"))
            return True

    def draw(self) -> None:
        canvas = self.canvas
        self._fit()
        scenes = canvas.subsurface(
            pygame.Rect((0, 0), self.ctx.metrics.size).clip(canvas.get_rect())
        )
        self.ctx.painter.frame(self.ctx.clock())
        try:
            self.stack.draw(scenes)
        except Exception:
            log.exception("drawing failed")
            scenes.fill(PALETTE.background)
            self.say(child_message("ui.oops"))
        if (rotation := self.ctx.rotation) is not None and self._strip():  # its banner
            try:
                rotation.draw(canvas, self.screen)
            except Exception:
                log.exception("drawing the rotation's banner failed")
        if self.toast is not None:
            self._draw_toast(canvas, self.toast[0])
        if canvas is not self.window:
            view = self.router.view
            size = (round(canvas.get_width() * view.scale), round(canvas.get_height() * view.scale))
            self.window.fill((0, 0, 0))
            self.window.blit(pygame.transform.smoothscale(canvas, size), view.offset)
        if self.flip:
            pygame.display.flip()

    def _draw_toast(self, surface: pygame.Surface, text: str) -> None:
        """The message in its strip under the scenes (over the rotation banner)."""
        m = self.screen
        rect = pygame.Rect(0, self.ctx.metrics.height, m.width, m.height - self.ctx.metrics.height)
        surface.fill(PALETTE.ink, rect)
        size, height = self._toast_fit(text)
        lines = pygame.Rect(0, 0, m.width - m.u(32), height)
        lines.center = rect.center
        self.ctx.painter.paragraph(surface, text, lines, size, (255, 255, 255), align="center")

    def _resize(self, size: tuple[int, int]) -> None:
        # The window's own size, not the event's: a stale event must not change the layout.
        self.window = pygame.display.get_surface() or self.window
        self.screen = metrics_for(self.window.get_size())
        self._fit()
        self.canvas = self._make_canvas()
        self.router.view = View(self.screen.size, self.window.get_size())
        self._dirty = True

    def run(self, *, max_frames: int | None = None) -> None:
        clock = pygame.time.Clock()
        while self.running and (max_frames is None or self.frames < max_frames):
            self.step()
            clock.tick(self.fps)

    def screenshot(self, path: Path | str) -> Path:
        """Save the canvas (the layout's own size) as a PNG."""
        self.draw()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.canvas, str(path))
        return path


def open_window(
    size: tuple[int, int] | None = None, *, fullscreen: bool = False, title: str = "Tabletop"
) -> pygame.Surface:
    """The display surface: full screen at the display's size, or a window of ``size``."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption(title)
    if fullscreen:
        pygame.mouse.set_visible(False)
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    return pygame.display.set_mode(size or (800, 480), pygame.RESIZABLE)


__all__ = ["App", "Context", "Scene", "SceneStack", "open_window"]
