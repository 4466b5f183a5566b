"""Playing the app by taps, as a child's finger would: :class:`Tapper` taps named
touch targets through the real input path (``Tap`` events into the app loop,
hit-testing, scenes); :class:`DemoRun`, the one demo harness behind
``tabletop demo --game G``, is a Tapper on the offscreen app from Home, with camera and
seat-button events, screenshots and the closing lines. (Mathe-Meister's tapper, which
plays the solo game as the hint bot plans it, is
:mod:`tabletop.ui.games.mathe_meister.autoplay`.)
"""

from __future__ import annotations

import os
import queue
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.games import GAMES
from tabletop.outfiles import out_folder
from tabletop.store import FILE_NAME, Journal
from tabletop.ui.app import App, Context, Scene, open_window
from tabletop.ui.input import CardSeen, CardsSeen, Tap
from tabletop.ui.results import GameResults
from tabletop.ui.saves import LABEL
from tabletop.ui.scenes.dice import DiceScene
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.theme import metrics_for

SIZE = (800, 480)
S = TypeVar("S")


def draw_seed(seed: int | None) -> int:
    """The demo's seed: ``seed``, or one drawn at random when none is given."""
    return random.SystemRandom().randrange(10**6) if seed is None else seed


def offscreen(
    size: tuple[int, int], seed: int, data: Path | None = None, **context: Any
) -> tuple[Context, pygame.Surface]:
    """The app with no one at the screen, for the demos and the bench: a window of
    ``size`` (the caller picks SDL's video driver) and a quiet context for it: every draw
    from ``random.Random(seed)``, the journal in the folder ``data`` (the app's file, so a
    demo can be killed and carry on) or in memory. ``context``: more of
    :class:`~tabletop.ui.app.Context`'s fields (a camera, a clock, the session)."""
    window = open_window(size)
    ctx = Context(
        metrics=metrics_for(size),
        rng=random.Random(seed),
        journal=Journal(data / FILE_NAME) if data is not None else Journal(":memory:"),
        **context,
    )
    return ctx, window


def cards_seen(seat: int | None, zone: str | None, codes: Iterable[str], at: float) -> Any:
    """What the camera reports for ``codes`` lying left to right in ``zone`` of ``seat``
    (1-based, as the camera counts; ``None`` and ``None``: cards held up alone)."""
    return CardsSeen(seat, zone, tuple(CardSeen(code, seat, zone) for code in codes), at)


def left_over_by(
    game: str, *, same_session: bool = False, app: Callable[[dict[str, Any]], bool] | None = None
) -> Callable[[Any], Any]:
    """A ``left_over`` for :class:`DemoRun`: the journal's unfinished ``game`` that is this
    demo's (of the demo's session, with ``same_session``; whose ``save.app`` passes
    ``app``), kept as the one Home offers; any other unfinished game there is set aside
    as abandoned (the demo then starts again from the seed, which plays the same).
    Returns the saved game, or None (also when it does not replay: start again)."""

    def find(ctx: Any) -> Any:
        kept = None
        for saved in ctx.journal.unfinished(LABEL):  # the newest first
            mine = (
                saved.game == game
                and (not same_session or saved.session == ctx.session)
                and (app is None or app(saved.meta.get("app") or {}))
            )
            if kept is None and mine:
                kept = saved
            else:
                ctx.journal.finish(saved.id, None, reason="abandoned", status="abandoned")
        try:
            return kept if kept is None or ctx.journal.load(kept.id, GAMES) else None
        except TabletopError:
            return None  # marked broken by the journal

    return find


class AutoplayError(RuntimeError):
    """Scripted play cannot go on: no enabled target of that name, no such scene, or a
    move the app refused."""


class Tapper:
    """Taps targets by name, as a finger would, through the app loop."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.taps = 0

    @property
    def top(self) -> Scene:
        scene = self.app.stack.top
        if scene is None:
            raise AutoplayError("the app has no scene")
        return scene

    def tap(self, name: str, *, settle: bool = True) -> None:
        button = self.top.target(name)
        if button is None or not button.enabled:
            state = "disabled" if button is not None else "missing"
            raise AutoplayError(f"target {name!r} is {state} on {type(self.top).__name__}")
        self.app.post(Tap(button.rect.center, self.app.ctx.clock(), "touch"))
        self.app.step()
        self.taps += 1
        if settle:
            self.settle()

    def post(self, event: Any) -> None:
        """An input event (a camera reading, a seat button) through the app loop."""
        self.app.post(event)
        self.app.step()

    def show(self, seat: int | None, zone: str | None, codes: Iterable[str]) -> None:
        """The camera's steady reading of ``codes`` in ``zone`` of ``seat`` (0-based here;
        ``None``: held up alone), through the app loop."""
        where = None if seat is None else seat + 1
        self.post(cards_seen(where, zone, codes, self.app.ctx.clock()))

    def settle(self) -> None:
        """Answer what a screen asks at once after a tap (nothing here: a game's tapper,
        such as Mathe-Meister's, answers its offers)."""

    def tap_dice(self, values: tuple[int, int]) -> None:
        """On the dice screen: tap the two values in and confirm."""
        if not isinstance(self.top, DiceScene):
            raise AutoplayError("the dice screen is not showing")
        if self.top.mode != "tap":
            self.tap("mode.tap")
        self.tap(f"a.{values[0]}")
        self.tap(f"b.{values[1]}")
        self.tap("ok")


@dataclass
class DemoClock:
    """The demo's clock: time moves only when the demo moves it (bots and countdowns
    that pace by seconds run at once, and the same way every run)."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class DemoRun(Tapper):
    """One demo game in the offscreen app from Home (SDL's dummy drivers, the quiet
    context of :func:`offscreen` with the journal in ``data``):
    ``seed`` (None: drawn), ``out_dir`` for the screenshots (None: a fresh temporary
    folder), ``left_over(ctx) -> bool`` (the journal holds this demo's unfinished game:
    Home offers to carry it on), ``clock`` (a :class:`DemoClock`, for games that pace
    by time), ``flip``: show each frame on the display too (the UI bench's frames
    include it; a demo's screenshots need not), ``context``: more of the context's
    fields (a camera, the session)."""

    def __init__(
        self,
        game: str,
        *,
        seed: int | None,
        out_dir: Path | None,
        out: TextIO,
        size: tuple[int, int] = SIZE,
        data: Path | None = None,
        clock: Callable[[], float] | None = None,
        left_over: Callable[[Any], bool] | None = None,
        seat_queue: bool = False,
        vision_queue: queue.SimpleQueue[Any] | None = None,
        flip: bool = False,
        **context: Any,
    ) -> None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        self.game_id, self.started, self.seed = game, time.perf_counter(), draw_seed(seed)
        prefix = f"tabletop-{game}-demo-"
        self.folder = out_folder(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix=prefix))
        self.out, self.size, self.data, self.clock = out, size, data, clock
        if clock is not None:
            context["clock"] = clock
        context.setdefault("session", f"demo {self.seed}")  # the journal's lesson: the seed
        self.ctx, window = offscreen(size, self.seed, data, **context)
        self.resuming = bool(left_over(self.ctx)) if left_over is not None else False
        seats: queue.SimpleQueue[Any] | None = queue.SimpleQueue() if seat_queue else None
        app = App(self.ctx, window, seat_queue=seats, vision_queue=vision_queue, flip=flip)
        app.stack.push(HomeScene(self.ctx, offer_resume=self.resuming))
        app.step()
        super().__init__(app)

    @property
    def top(self) -> Any:
        return self.app.stack.top

    def step(self) -> None:
        self.app.step()

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass on the demo's :class:`DemoClock`, then run the app loop once."""
        assert isinstance(self.clock, DemoClock), "wait() needs the run's DemoClock"
        self.clock.advance(seconds)
        self.app.step()

    def scene(self, kind: type[S]) -> S:
        return scene_of(self.app, kind)

    def open_game(self) -> None:
        """From Home: carry on the journal's unfinished game, or open the game's setup."""
        self.tap("yes" if self.resuming else f"game.{self.game_id}")

    def say(self, line: str) -> None:
        print(line, file=self.out)

    def intro(self, title: str, what: str) -> None:
        """The demo's first line: what plays, in the app offscreen at the demo's size."""
        self.say(
            f"{title} in the touchscreen app, offscreen ({self.size[0]}x{self.size[1]}): {what}"
        )

    def carrying_on(self, where: str) -> None:
        """The first line of a demo carried on from the journal in ``data``."""
        self.say(f"Carrying on from the journal in {self.data}: {where}")

    def narration(self, label: Callable[[Any], str], printed: int = 0) -> Callable[..., None]:
        """The demo's lines from a controller's story
        (:attr:`~tabletop.ui.controller.TableController.story`): each call ``tell(story,
        upto=None)`` prints the rounds told since the last (those before ``upto``; the
        first ``printed`` lines are not the demo's to print), a line each, ``label(round)``
        before its lines."""

        def tell(story: Sequence[tuple[Any, str]], upto: Any = None) -> None:
            nonlocal printed
            lines = [(r, text) for r, text in story[printed:] if upto is None or r < upto]
            printed += len(lines)
            for r in dict.fromkeys(r for r, _ in lines):
                self.say(f"{label(r)}: {' '.join(text for rr, text in lines if rr == r)}")

        return tell

    def fill_seats(self, seats: Iterable[int], choice: str) -> None:
        """On the setup form: each of ``seats`` made ``choice`` (``bot.hard``, ``child``...)."""
        for seat in seats:
            self.tap(f"seat.{seat}")
            self.tap(f"choice.{choice}")

    def play_out(self, move: Callable[[], object], limit: int) -> Any:
        """``move()`` until the game's results are on the screen (at most ``limit`` moves),
        which it returns."""
        for _ in range(limit):
            if isinstance(self.top, GameResults):
                return self.top
            move()
        raise RuntimeError(f"the demo game did not end in {limit} moves")

    def results(self) -> Any:
        """The one results screen, on top once the game is over."""
        results = self.top
        if not isinstance(results, GameResults):
            raise RuntimeError("the game did not reach the results screen")
        return results

    def shot(self, name: str) -> Path:
        """A screenshot of the screen now, ``<name>.png`` in the demo's folder."""
        return self.app.screenshot(self.folder / f"{name}.png")

    def end(self, line: str, summary: str = "") -> str:
        """Print ``summary`` (with the seconds taken and the screenshots' folder) and the
        closing line; close the journal and the display. Returns ``line``; a journal in
        ``data`` that still could not be written then is a ``TabletopError``."""
        seconds = time.perf_counter() - self.started
        words = f"{summary} " if summary else ""
        self.say(f"{words}{self.taps} taps, {seconds:.1f} s. Screenshots are in {self.folder}")
        self.ctx.journal.close()  # its last try of a file it could not write
        self.say(line)
        pygame.display.quit()
        if self.data is not None and (trouble := self.ctx.journal.trouble) is not None:
            why = f"the game is not in the journal {self.ctx.journal.path}: {trouble}"
            raise TabletopError("demo.not_saved", why)
        return line


def scene_of(app: Any, kind: type[S]) -> S:
    """The topmost scene of ``kind`` on ``app``'s stack."""
    scene: S | None = app.stack.find(kind)
    if scene is None:
        raise AutoplayError(f"no {kind.__name__} on the screen")
    return scene


def type_number(tap: Callable[[str], None], value: int) -> None:
    """``value`` typed on the number pad by ``tap``: its digits, the minus sign after
    them when it is negative, then OK."""
    for digit in str(abs(value)):
        tap(f"num.{digit}")
    if value < 0:
        tap("num.minus")
    tap("ok")


__all__ = [
    "SIZE",
    "AutoplayError",
    "DemoClock",
    "DemoRun",
    "Tapper",
    "cards_seen",
    "draw_seed",
    "left_over_by",
    "offscreen",
    "scene_of",
    "type_number",
]
