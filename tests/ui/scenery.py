"""Deterministic apps and scenes for the UI tests (and the README screenshots).

Every scene of the app can be reached here in a fixed state at either layout size:
``build(name, size)`` returns the app with that scene on top. The clock is fake, the
sound silent, the stores in memory, the dice scripted.

:data:`SCENES` is the one table of them, named ``<game>-<screen>`` (``<game>`` one of
``app`` for the screens every game shares, ``mathe-meister``, ``math-wars-meta``,
``math-attack``, ``mecs``, ``math-arena``, ``bubbles``); the card games' and the bubble
game's builders are in ``tests/ui/game_scenery.py``.
"""

from __future__ import annotations

import functools
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import queue
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pygame

from tabletop.assets import assets_dir
from tabletop.ui.app import App, Context, Scene
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.camera import to_rgb
from tabletop.ui.games.mathe_meister.setup import mode_target
from tabletop.ui.input import DieSeen, Seen, Tap
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.theme import metrics_for
from tests.ui.game_scenery import GAME_SCENES, LONG_NAMES, form_seats, name_seats, setup

SIZES = ((800, 480), (1280, 720))
# Dice for scripted games: one pair per round.
DICE = ((3, 5), (6, 2), (4, 4), (1, 6), (5, 5), (2, 3), (6, 6), (4, 1))


class Recorder(Scene):
    """Sits under a dialog or a screen and keeps what each one popped with."""

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.results: list[Any] = []

    def resume(self, result: Any) -> None:
        self.results.append(result)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeCamera:
    """A camera that is there: ``start`` posts the reading it was given (or nothing)."""

    available = True

    def __init__(self, sink: Callable[[Seen], None]) -> None:
        self.sink = sink
        self.next: Seen | None = None
        self.started = 0
        self.stopped = 0

    def start(self) -> None:
        self.started += 1
        if self.next is not None:
            self.sink(self.next)

    def stop(self) -> None:
        self.stopped += 1


def make_app(
    size: tuple[int, int] = (800, 480),
    *,
    camera: bool = False,
    highscores: Any = None,
    journal: Any = None,
) -> App:
    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode(size)
    pygame.event.clear()  # nothing left over from an earlier window
    vision: queue.SimpleQueue[Any] = queue.SimpleQueue()
    seats: queue.SimpleQueue[Any] = queue.SimpleQueue()
    clock = FakeClock()
    ctx = Context(metrics=metrics_for(size), clock=clock, rng=random.Random(7))
    if highscores is not None:
        ctx.highscores = highscores
    if journal is not None:
        ctx.journal = journal
    ctx.prefs.prefs.dice_input = "camera" if camera else "tap"
    if camera:
        ctx.camera = FakeCamera(vision.put)
    app = App(ctx, window, seat_queue=seats, vision_queue=vision, flip=False)
    app.stack.push(HomeScene(ctx))
    app.step()
    return app


def drawn_texts(painter: Any, draw: Callable[[], object]) -> list[tuple[str, int]]:
    """The (text, size) pairs ``painter`` renders while ``draw()`` runs."""
    fonts, got = painter.fonts, []
    render = fonts.render

    def recording(text: str, size: int, *args: Any, **kw: Any) -> pygame.Surface:
        got.append((text, size))
        return render(text, size, *args, **kw)

    fonts.render = recording
    try:
        draw()
    finally:
        fonts.render = render
    return got


def long_name_on_two_lines(app: App, scene: Any) -> None:
    """A 26-letter name added to the class list shows on ``scene``'s name grid in two
    lines of whole words, and no text on it is under 16 px (issue 21)."""
    from tabletop.classroom.roster import Roster

    Roster(app.ctx.journal).add("Maximiliane Wolkenstein-Ha", "Red")
    scene.grid.set_students(Roster(app.ctx.journal).students())
    scene.layout(app.ctx.metrics)
    got = drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))
    assert [t for t, _ in got if t.startswith(("Maxi", "Wolk"))] == [
        "Maximiliane",
        "Wolkenstein-Ha",
    ]
    assert min(size for text, size in got if text.strip()) >= 16


def is_undo_pad(scene: object) -> bool:
    """The one teacher PIN pad, asked to take back a step."""
    return isinstance(scene, PinPad) and scene.purpose == "undo"


def photo_seen(name: str = "three_15", clock: float = 1000.0) -> Seen:
    """A camera reading of a sample photo, boxes from its label file."""
    from tabletop.ui.games.mathe_meister.demo import load_samples

    sample = next(s for s in load_samples(assets_dir() / "samples") if s.path.stem == name)
    import cv2

    frame = cv2.imread(str(sample.path))
    dice = tuple(DieSeen(v, b, 0.97) for v, b in zip(sample.truth, sample.boxes))
    return Seen(dice, clock, to_rgb(frame))


def start_solo(app: App, modes: tuple[str, ...] = ()) -> Autoplayer:
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    for mode in modes:
        auto.tap(mode_target(mode))
    auto.tap("start")
    return auto


def play_rounds(auto: Autoplayer, rounds: int, dice: tuple[tuple[int, int], ...] = DICE) -> None:
    """The bot plays ``rounds`` rounds by taps; the dice are tapped in."""
    for r in range(rounds):
        auto.tap_dice(dice[r])
        auto.bot_round()


def tap_at(app: App, pos: tuple[int, int]) -> None:
    app.post(Tap(pos, app.ctx.clock()))
    app.step()


# -- every scene -----------------------------------------------------------------------------


def _home(app: App) -> None:
    pass


def _setup_solo(app: App) -> None:
    Autoplayer(app).tap("game.mathe-meister")


def _setup_table(app: App) -> None:
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    for _ in range(4):
        auto.tap("players.+")
    auto.tap("seat.4")
    auto.tap("choice.bot.hint")
    auto.tap("mode.twins")


def _names(app: App) -> None:
    from tabletop.ui.scenes.names import NameScene

    auto = Autoplayer(app)
    app.stack.push(NameScene(app.ctx, "Player 1", "Your name"))
    app.step()
    for ch in "MIA":
        auto.tap(f"key.{ch}")


def _pin(app: App) -> None:
    auto = Autoplayer(app)
    auto.tap("settings")
    auto.tap("key.1")
    auto.tap("key.2")


def _settings(app: App) -> None:
    auto = Autoplayer(app)
    auto.tap("settings")
    for d in "2468":
        auto.tap(f"key.{d}")


def _dice_tap(app: App) -> None:
    auto = start_solo(app)
    auto.tap("a.3")


def _dice_camera(app: App) -> None:
    app.ctx.camera.next = photo_seen()
    start_solo(app)
    app.step()


def _dice_virtual(app: App) -> None:
    auto = start_solo(app)
    auto.tap("mode.virtual")


def _game(app: App) -> None:
    auto = start_solo(app)
    play_rounds(auto, 4)
    auto.tap_dice(DICE[4])
    auto.tap("die0")


def _game_hint(app: App) -> None:
    auto = start_solo(app, ("twins",))
    play_rounds(auto, 2)
    auto.tap_dice(DICE[2])
    auto.tap("hint")


def star_pick_in(app: App, round_no: int) -> None:
    """Solo: the bot plays the rounds before ``round_no``, then writes that round's
    moves until a line completes and the Bonus Star dialog opens."""
    auto = start_solo(app)
    play_rounds(auto, round_no - 1)
    auto.tap_dice(DICE[round_no - 1])
    game = auto.game()
    from tabletop.bots.mathe_meister import hint
    from tabletop.ui.autoplay import taps_for
    from tabletop.ui.games.mathe_meister.dialogs import StarPick

    for action in hint(game.state, 0).actions():
        for name in taps_for(action, game.state):
            auto.tap(name, settle=False)
            if isinstance(app.stack.top, StarPick):
                return
    raise AssertionError("no line completed")


def _star_pick(app: App) -> None:
    star_pick_in(app, 7)


def _coin_shop(app: App) -> None:
    auto = start_solo(app)
    auto.tap_dice(DICE[0])
    auto.tap("shop")


def _confirm(app: App) -> None:
    auto = start_solo(app)
    auto.tap_dice(DICE[0])
    auto.tap("leave")


def _results(app: App) -> None:
    auto = start_solo(app)
    play_rounds(auto, 8)


def _table(app: App, names: tuple[str, ...] = ()) -> None:
    """The paper table: a star claimed, the next press waiting (the first seats named
    ``names``)."""
    from hardware.buttons import SeatPressed

    _setup_table(app)
    auto = Autoplayer(app)
    name_seats(auto, names)
    auto.tap("start")
    auto.tap_dice((3, 5))
    clock = app.ctx.clock
    app.seat_queue.put(SeatPressed(2, clock.now + 0.010))  # type: ignore[union-attr, attr-defined]
    app.seat_queue.put(SeatPressed(0, clock.now + 0.004))  # type: ignore[union-attr, attr-defined]
    app.step()
    auto.tap("star.R1")


def _table_results(app: App) -> None:
    _setup_table(app)
    auto = Autoplayer(app)
    auto.tap("start")
    for r in range(8):
        auto.tap_dice(DICE[r])
        if r == 2:
            tap_at(app, auto.top.target("ready.1").rect.center)  # type: ignore[union-attr]
            auto.tap("star.C2")
        app.ctx.clock.advance(30)  # type: ignore[attr-defined]
        app.step()
        auto.tap("next")


def skills_lesson(journal: Any, session: str = "2025-05-08") -> None:
    """A lesson for the skills screens (issue 24): three children's answers with their
    questions over two sessions, and 120 dice the class rolled."""
    from tabletop.classroom.mistakes import question
    from tabletop.classroom.skills import answer_record
    from tabletop.engine.match import Match
    from tabletop.games import GAMES
    from tabletop.selfplay import default_settings
    from tabletop.store import SeatInfo

    mul, sub = question("multiplication", [7, 8], "x"), question("subtraction", [5, 9], "-")
    div = question("division", [17, 5], "/", right=Fraction(17))
    add, mixed = question("addition", [46, 38], "+"), question("order", [2, 3, 4], ["+", "x"])
    plays = {
        "2025-05-01": [(0, mul, 15), (0, mul, 56), (1, sub, 4), (1, div, 3), (2, add, 84)],
        session: [
            *[(0, mul, 56)] * 4,
            (0, mul, 15),
            (0, div, 3),
            (0, div, 17),
            *[(1, sub, 4)] * 2,
            (1, sub, -4),
            (1, mixed, 20),
            (1, mixed, 20),
            (1, mixed, 14),
            *[(2, add, 84)] * 3,
            (2, add, 82),
            (2, div, 32),
        ],
    }
    seats = [
        SeatInfo(0, "Ana", "S01", "Red"),
        SeatInfo(1, "Ben", "S02", "Red"),
        SeatInfo(2, "Player 3"),
    ]
    for lesson, log in plays.items():
        match = Match(GAMES["math-arena"], default_settings("math-arena"), 3, seed=1)
        m = journal.start(match, label="app", seats=seats, session=lesson)
        journal.add_answers(m, [answer_record(seat, i, q, g) for i, (seat, q, g) in enumerate(log)])
        journal.finish(m, {"places": [1, 2, 3], "reason": "end"})
    counts = (18, 22, 17, 24, 19, 20)
    journal.add_dice(
        [face for face, n in enumerate(counts, 1) for _ in range(n)], "camera", session=session
    )


def _skills(app: App) -> None:
    from tabletop.ui.scenes.report import ReportScene

    skills_lesson(app.ctx.journal)
    app.ctx.session = "2025-05-08"
    scene = ReportScene(app.ctx, sticks=lambda: [])
    app.stack.push(scene)
    scene.press("view")
    app.step()


def _dice_lesson(app: App) -> None:
    from tabletop.ui.scenes.dice_lesson import DiceLessonScene

    skills_lesson(app.ctx.journal)
    app.ctx.session = "2025-05-08"
    app.stack.push(DiceLessonScene(app.ctx))
    app.step()


# a class with namesakes in two groups and a name too wide for half the name grid
CROWD = """id,name,group
S1,Mia Schmidt-Wolkenstein,4a
S2,Mia Schmidt-Wolkenstein,4b
S3,Alexander Papadopoulos,4a
S4,Ben Okafor,4a
S5,Zoë Ørsted,4b
S6,Li Na,4b
"""


def _signin_crowd(app: App) -> None:
    """Eight seats to sign in (the seats take half the screen), the first signed in as
    "Mia Schmidt-Wolkenstein" of 4a: her name button says "seat 1 · 4a" under it."""
    from tabletop.classroom.roster import Roster

    Roster(app.ctx.journal).import_csv(CROWD)
    auto = setup(app, "math-wars-meta")
    form_seats(auto, 8)
    auto.tap("start")
    auto.tap("student.S1")


def _taps(*names: str) -> Callable[[App], None]:
    def steps(app: App) -> None:
        auto = Autoplayer(app)
        for name in names:
            auto.tap(name)

    return steps


SCENES: dict[str, tuple[Callable[[App], None], bool]] = {
    "app-home": (_home, False),
    "mathe-meister-setup-solo": (_setup_solo, False),
    "mathe-meister-setup-table": (_setup_table, False),
    "app-names": (_names, False),
    "app-pin": (_pin, False),
    "app-settings": (_settings, False),
    "mathe-meister-dice-tap": (_dice_tap, False),
    "mathe-meister-dice-camera": (_dice_camera, True),
    "mathe-meister-dice-virtual": (_dice_virtual, False),
    "mathe-meister-game": (_game, False),
    "mathe-meister-game-hint": (_game_hint, False),
    "mathe-meister-star-pick": (_star_pick, False),
    "mathe-meister-coin-shop": (_coin_shop, False),
    "app-confirm": (_confirm, False),
    "mathe-meister-results": (_results, False),
    "mathe-meister-table": (_table, False),
    "mathe-meister-table-long-names": (functools.partial(_table, names=LONG_NAMES), False),
    "mathe-meister-table-results": (_table_results, False),
    "app-skills": (_skills, False),
    "app-dice-lesson": (_dice_lesson, False),
    # the one setup form: a bot (virtual cards, and why real ones are off); the seat picker
    "math-attack-setup-bot": (_taps("game.math-attack", "seat.1", "choice.bot.medium"), False),
    "math-arena-setup-bot": (_taps("game.math-arena", "seat.1", "choice.bot.hard"), False),
    "math-arena-seat-picker": (_taps("game.math-arena", "seat.2"), False),
    "app-signin-crowd": (_signin_crowd, False),
    **GAME_SCENES,  # the card games and the bubble game
}
# scenes the layout tests walk with no reference picture (the pictures are at their cap)
UNPICTURED = frozenset({"app-signin-crowd", "math-wars-meta-table-teams"})


def build(name: str, size: tuple[int, int]) -> App:
    """The app at ``size`` with scene ``name`` on top, always in the same state."""
    steps, camera = SCENES[name]
    app = make_app(size, camera=camera)
    steps(app)
    app.draw()
    return app
