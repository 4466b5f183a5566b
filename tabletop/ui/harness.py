"""The one demo harness behind ``tabletop demo --game G``: every game's ``run_demo``
opens a :class:`DemoRun`, plays through the real input path (taps on named touch
targets, camera and seat-button events through the app loop) with its own bot, saves
screenshots, and ends with :meth:`DemoRun.end`."""

from __future__ import annotations

import os
import queue
import random
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO, TypeVar

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.results import GameResults

SIZE = (800, 480)
S = TypeVar("S")


def draw_seed(seed: int | None) -> int:
    """The demo's seed: ``seed``, or one drawn at random when none is given."""
    return random.SystemRandom().randrange(10**6) if seed is None else seed


def cards_seen(seat: int | None, zone: str | None, codes: Iterable[str], at: float) -> Any:
    """What the camera reports for ``codes`` lying left to right in ``zone`` of ``seat``
    (1-based, as the camera counts; ``None`` and ``None``: cards held up alone)."""
    from tabletop.ui.input import CardSeen, CardsSeen

    return CardsSeen(seat, zone, tuple(CardSeen(code, seat, zone) for code in codes), at)


def left_over_by(
    game: str, *, same_session: bool = False, app: Callable[[dict[str, Any]], bool] | None = None
) -> Callable[[Any], Any]:
    """A ``left_over`` for :class:`DemoRun`: the journal's unfinished ``game`` that is this
    demo's (of the demo's session, with ``same_session``; whose ``save.app`` passes
    ``app``), kept as the one Home offers; any other unfinished game there is set aside
    as abandoned (the demo then starts again from the seed, which plays the same).
    Returns the saved game, or None."""

    def find(ctx: Any) -> Any:
        from tabletop.ui.saves import keep_one_unfinished

        def mine(saved: Any) -> bool:
            return (
                saved.game == game
                and (not same_session or saved.session == ctx.session)
                and (app is None or app(saved.meta.get("app") or {}))
            )

        return keep_one_unfinished(ctx.journal, mine)

    return find


class DemoClock:
    """The demo's clock: time moves only when the demo moves it (bots and countdowns
    that pace by seconds run at once, and the same way every run)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class DemoRun(Autoplayer):
    """One demo game in the offscreen app, from Home, tapped by name as a finger would
    (:class:`~tabletop.ui.autoplay.Autoplayer`): SDL's dummy drivers, the seed (drawn
    when none is given), the screenshots' folder (a fresh temporary one when none is
    given), the quiet context of :func:`~tabletop.ui.offscreen.offscreen` with the
    journal in ``data`` (so a killed demo carries on through Home's offer), and the
    clean close.

    ``left_over(ctx) -> bool``: whether the journal holds this demo's unfinished game;
    ``clock``: a :class:`DemoClock`, for games that pace by time; ``context``: more of
    the context's fields (a camera, the session)."""

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
        **context: Any,
    ) -> None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        from tabletop.ui.app import App
        from tabletop.ui.offscreen import offscreen
        from tabletop.ui.scenes.home import HomeScene

        self.game_id, self.started, self.seed = game, time.perf_counter(), draw_seed(seed)
        self.folder = out_dir or Path(tempfile.mkdtemp(prefix=f"tabletop-{game}-demo-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.out, self.size, self.data, self.clock = out, size, data, clock
        if clock is not None:
            context["clock"] = clock
        context.setdefault("session", f"demo {self.seed}")  # the journal's lesson: the seed
        self.ctx, window = offscreen(size, self.seed, data, **context)
        self.resuming = bool(left_over(self.ctx)) if left_over is not None else False
        seats: queue.SimpleQueue[Any] | None = queue.SimpleQueue() if seat_queue else None
        app = App(self.ctx, window, seat_queue=seats, vision_queue=vision_queue, flip=False)
        app.stack.push(HomeScene(self.ctx, offer_resume=self.resuming))
        app.step()
        super().__init__(app)

    @property
    def top(self) -> Any:
        return self.app.stack.top

    def post(self, event: Any) -> None:
        """An input event (a camera reading, a seat button) through the app loop."""
        self.app.post(event)
        self.app.step()

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

    def show(self, seat: int | None, zone: str | None, codes: Iterable[str]) -> None:
        """The camera's steady reading of ``codes`` in ``zone`` of ``seat`` (0-based here;
        ``None``: held up alone), through the app loop."""
        where = None if seat is None else seat + 1
        self.post(cards_seen(where, zone, codes, self.ctx.clock()))

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
        closing line; close the journal and the display. Returns ``line``."""
        import pygame

        seconds = time.perf_counter() - self.started
        words = f"{summary} " if summary else ""
        self.say(f"{words}{self.taps} taps, {seconds:.1f} s. Screenshots are in {self.folder}")
        self.ctx.journal.close()
        self.say(line)
        pygame.display.quit()
        return line


def scene_of(app: Any, kind: type[S]) -> S:
    """The topmost scene of ``kind`` on ``app``'s stack."""
    scene: S | None = app.stack.find(kind)
    if scene is None:
        raise RuntimeError(f"no {kind.__name__} on the screen")
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
    "DemoClock",
    "DemoRun",
    "cards_seen",
    "draw_seed",
    "left_over_by",
    "scene_of",
    "type_number",
]
