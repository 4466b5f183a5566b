"""Station rotations on the screen: the editor by taps, the banner, the warning, time up,
the teacher's controls, and carrying on after a reboot. The wall clock is a fake."""

from __future__ import annotations

import itertools
import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import numpy as np
import pygame
import pytest

from hardware.buttons import NoLamps
from tabletop.classroom.rotation import (
    STATION_MODES,
    STATION_OPTIONS,
    Plan,
    Station,
    running_rotation,
    start_rotation,
)
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.games import GAMES
from tabletop.games.math_attack import MathAttackSettings
from tabletop.store import Journal, SeatInfo
from tabletop.ui.app import App, Scene
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games.mathe_meister.setup import mode_target
from tabletop.ui.input import Back, Release, Tap
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.saves import GameSave, seat_infos
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.rotation import (
    FLASH_STEP,
    FLASH_TOGGLES,
    SEATS,
    RotationRunner,
    StationScene,
    finish_games,
    games_on,
    restore_rotation,
)
from tabletop.ui.scenes.rotation_editor import Draft, RotationControl, RotationEditor
from tabletop.ui.theme import ORANGE, PALETTE
from tests.ui.scenery import SIZES, FakeClock, make_app

T0 = 1_700_000_000.0


def mode_button(game: str, mode: str) -> str:
    """The button on the game's setup screen that shows a station's mode."""
    if game == "math-arena":
        return {"cards": "cards.real", "virtual": "cards.virtual"}.get(mode, f"cards.{mode}")
    if game == "math-attack":  # two children: real cards; against the device: virtual
        return {"table": "cards.real", "bot": "cards.virtual"}.get(mode, f"cards.{mode}")
    if game == "mathe-meister":  # the solo modes have a row of their own
        return mode_target(mode)
    return f"mode.{mode}"


MIN = 60.0


def welcome_text(screen: StationScene) -> str:
    """The station screen's welcome as one line."""
    return " ".join(part for part in screen.welcome() if part)


PLAN = Plan(
    (
        Station("mathe-meister"),
        Station("math-wars-meta", "teams"),
        Station("math-arena"),
        Station("mecs", "challenge"),
    ),
    ("Red", "Blue", "Green"),
)


class RecordingLamps(NoLamps):
    """The LEDs, remembering every change."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[frozenset[int]] = []

    def light_only(self, seats) -> None:
        super().light_only(seats)
        self.calls.append(frozenset(self.lit))


class FakeSave:
    def __init__(self) -> None:
        self.id = None
        self.finished: list[tuple[Result, str]] = []

    def finish(self, result: Result, *, reason: str = "end") -> None:
        self.finished.append((result, reason))


class FakeGame(Scene):
    """A game screen as the rotation sees it: ``save`` and ``standings()``."""

    def __init__(self, ctx, save=None) -> None:
        super().__init__(ctx)
        self.save = save or FakeSave()
        self.exited = False

    def standings(self) -> Result:
        return Result((Fraction(12), Fraction(7, 2)), (1, 2), "stopped for time")

    def exit(self) -> None:
        self.exited = True


def rotation_app(
    size: tuple[int, int] = (800, 480),
    *,
    station: int = 1,
    plan: Plan = PLAN,
    journal=None,
    wall: FakeClock | None = None,
) -> tuple[App, FakeClock, RotationRunner]:
    """The app with a rotation running since T0 (this device: ``station``, 0-based)."""
    app = make_app(size)
    wall = wall or FakeClock(T0)
    app.ctx.wall = wall
    if journal is not None:
        app.ctx.journal = journal
    app.ctx.lamps = RecordingLamps()
    stored = start_rotation(app.ctx.journal, plan, station, session="lesson", now=wall)
    runner = RotationRunner(app.ctx, stored)
    app.ctx.rotation = runner
    app.step()
    return app, wall, runner


def open_menu(app: App) -> Autoplayer:
    """From Home (leaving the station screen first), the PIN, then Station rotation."""
    auto = Autoplayer(app)
    if isinstance(app.stack.top, StationScene):
        auto.tap("home")
    auto.tap("settings")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    auto.tap("rotation")
    return auto


def stored_clock(app: App) -> dict:
    (text,) = app.ctx.journal.db.execute(
        "SELECT clock FROM rotations WHERE status = 'running'"
    ).fetchone()
    return json.loads(text)


def not_blank(surface: pygame.Surface) -> bool:
    pixels = pygame.surfarray.array3d(surface)[::4, ::4]
    return len(np.unique(pixels.reshape(-1, 3), axis=0)) > 8


# -- the editor -----------------------------------------------------------------------------


def test_rotation_editor_sets_up_and_starts_a_plan_by_taps() -> None:
    app = make_app()
    wall = FakeClock(T0)
    app.ctx.wall = wall
    app.ctx.session = "2024-05-02"
    auto = open_menu(app)
    assert isinstance(app.stack.top, RotationEditor)
    # Station 2 plays Math Wars Meta in teams
    auto.tap("station.1")
    auto.tap("game.math-wars-meta")
    auto.tap("mode.teams")
    auto.tap("done")
    # a fifth station, then removed again
    auto.tap("station.add")
    auto.tap("game.math-attack")
    auto.tap("done")
    assert len(app.stack.top.draft.stations) == 5
    auto.tap("station.4")
    auto.tap("remove")
    # three groups: rename the first to Red
    auto.tap("groups")
    auto.tap("remove")
    auto.tap("group.0")
    for _ in range(7):
        auto.tap("key.delete")
    for ch in "RED":
        auto.tap(f"key.{ch}")
    auto.tap("ok")
    auto.tap("done")
    for _ in range(5):
        auto.tap("minutes.+")
    auto.tap("transition.+")
    auto.tap("warning.+")
    auto.tap("rounds.-")
    auto.tap("here.+")
    auto.tap("start")

    runner = app.ctx.rotation
    assert isinstance(runner, RotationRunner)
    plan = runner.plan
    assert [s.game for s in plan.stations] == [
        "mathe-meister",
        "math-wars-meta",
        "mecs",
        "math-arena",
    ]
    assert plan.stations[1].mode == "teams"
    assert plan.groups == ("Red", "Group 2", "Group 3")
    assert (plan.minutes, plan.transition, plan.warning, plan.count) == (20, 2, 2, 3)
    assert runner.station == 1 and runner.group == "Group 2"
    # stored, with the lesson and the wall-clock start
    stored = running_rotation(app.ctx.journal)
    assert stored is not None and stored.plan == plan and stored.session == "2024-05-02"
    assert stored.clock.started_at == T0
    # Home, then the station screen with the welcome
    assert [type(s) for s in app.stack] == [HomeScene, StationScene]
    assert welcome_text(app.stack.top) == (
        "Group 2, welcome! This is Station 2: Math Wars Meta. Mode: Teams \u00b7 Rotation 1 of 3"
    )


def test_rotation_editor_presets_a_stations_options(tmp_path: Path) -> None:
    app = make_app()
    auto = open_menu(app)
    auto.tap("station.2")  # M.E.C.S.
    picker = app.stack.top
    auto.tap("opt.deck.beginners")
    auto.tap("mode.challenge")  # the green cards need the advanced deck: refused, said
    assert picker.station.mode == "normal"
    assert "play it with the advanced deck" in picker.message
    app.screenshot(tmp_path / "picker_options.png")
    auto.tap("opt.deck.advanced")
    auto.tap("mode.challenge")
    assert picker.message == ""
    auto.tap("opt.deck.")  # the group chooses again
    auto.tap("opt.deck.advanced")
    auto.tap("done")
    assert app.stack.top.draft.stations[2] == Station("mecs", "challenge", {"deck": "advanced"})
    auto.tap("station.2")
    auto.tap("game.mecs")  # the same game again keeps the options
    assert app.stack.top.station.options == {"deck": "advanced"}
    auto.tap("game.math-arena")  # another game starts from its defaults
    assert app.stack.top.station == Station("math-arena")


def test_rotation_editor_refuses_more_groups_than_stations() -> None:
    app = make_app()
    auto = open_menu(app)
    auto.tap("groups")
    auto.tap("add")  # 5 groups, 4 stations
    auto.tap("done")
    auto.tap("start")
    editor = app.stack.top
    assert isinstance(editor, RotationEditor)
    assert editor.message == (
        "There are 5 groups but only 4 stations: add a station or put two groups together."
    )
    assert app.ctx.rotation is None
    assert app.ctx.sounds.played[-1] == "wrong"


def test_rotation_editor_takes_the_class_lists_groups() -> None:
    app = make_app()
    with app.ctx.journal.transaction() as db:
        db.executemany(
            "INSERT INTO students (id, name, grp, added) VALUES (?, ?, ?, 0)",
            [("S1", "Mia", "Owls"), ("S2", "Ben", "Foxes"), ("S3", "Ada", "Owls")],
        )
    auto = open_menu(app)
    assert app.stack.top.draft.groups == ["Foxes", "Owls"]
    auto.tap("groups")
    auto.tap("add")
    auto.tap("class")  # back to the class list's groups
    auto.tap("done")
    assert app.stack.top.draft.groups == ["Foxes", "Owls"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rotation_editor_groups_button_names_groups_at_caption_size(size) -> None:
    """The "Groups" button's names are read at arm's length: never drawn smaller than a
    caption (>= 16 px at 800x480); the names that do not fit become "+N more"."""
    app = make_app(size)
    m, painter = app.ctx.metrics, app.ctx.painter
    assert m.small >= 16
    stations = [Station(g) for g in ("mathe-meister", "mecs", "math-arena", "math-attack")]
    cases = {
        ("Everyone",): "Everyone",
        tuple(f"Group {i}" for i in range(1, 9)): "+{} more",
        ("A" * 20, "Blue"): "\u2026 +1 more",
    }
    for groups, ending in cases.items():
        editor = RotationEditor(app.ctx, Draft(list(stations), list(groups)))
        editor.layout(m)
        (button,) = [b for b in editor.buttons if b.name == "groups"]
        inner = button.rect.width - m.u(10)
        assert painter.fit_size(button.caption, m.small, inner) == m.small, button.caption
        assert painter.fonts.width(button.caption, m.small) <= inner, button.caption
        shown = button.caption.split(" +")[0].split(", ")
        left_out = len(groups) - len(shown)
        assert button.caption.endswith(ending.format(left_out)), button.caption
        assert button.label == (f"{len(groups)} groups" if len(groups) > 1 else "1 group")


def test_rotation_editor_starts_from_the_last_plan() -> None:
    app = make_app()
    start_rotation(app.ctx.journal, PLAN, 0, now=lambda: T0)
    app.ctx.rotation = None
    open_menu(app)
    assert app.stack.top.draft.plan() == PLAN


# -- the banner -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rotation_banner_shows_station_group_and_countdown(size, tmp_path: Path) -> None:
    app, wall, runner = rotation_app(size)
    wall.advance(3 * MIN + 20)
    app.step()
    screen = app.screen
    banner = runner.banner(screen)
    assert banner is not None
    assert (banner.label, banner.clock) == ("Station 2 \u00b7 Blue", "11:40")
    assert banner.fill == PALETTE.ink
    app.draw()
    assert tuple(app.canvas.get_at((banner.rect.left + 4, banner.rect.centery)))[:3] == PALETTE.ink
    # its own strip across the bottom, big enough to read from the table: the scenes
    # are laid out above it, so it covers none of Home's buttons
    assert (banner.rect.left, banner.rect.width, banner.rect.bottom) == (0, size[0], size[1])
    assert banner.rect.height >= screen.touch * 0.85
    assert app.ctx.metrics.size == (size[0], size[1] - banner.rect.height)
    assert all(banner.rect.top >= b.rect.bottom for b in app.stack.top.targets())
    app.screenshot(tmp_path / "banner.png")

    wall.advance(11 * MIN)  # the warning minute: amber
    app.step()
    banner = runner.banner(screen)
    assert banner.fill == ORANGE and banner.clock == "00:40"
    runner.control("pause")
    app.step()
    assert runner.banner(screen).clock == "Paused"


def test_rotation_banner_on_every_screen_and_gone_with_the_rotation() -> None:
    """The strip is there on the station screen and the teacher's screens too, and the
    scenes get the whole screen back once the rotation is over."""
    app, _wall, runner = rotation_app()
    strip = runner.strip(app.screen)
    for scene in (StationScene(app.ctx, runner), RotationControl(app.ctx)):
        app.stack.push(scene)
        app.draw()
        assert runner.banner(app.screen) is not None
        assert max(b.rect.bottom for b in scene.targets()) <= app.screen.height - strip
        app.stack.pop()
    runner.end()
    app.step()
    assert runner.banner(app.screen) is None and app.ctx.rotation is None
    assert app.ctx.metrics == app.screen


def test_rotation_banner_taps_on_it_do_not_reach_the_scene() -> None:
    """A tap on the strip is not the scene's (a button laid out before the rotation
    moved up with the relayout); a drag that ends on it ends at the scene's edge."""
    app, _wall, runner = rotation_app()
    seen: list[object] = []

    class Catch(Scene):
        def handle(self, event) -> None:
            seen.append(event)

    app.stack.push(Catch(app.ctx))
    bottom = app.screen.height - runner.strip(app.screen)
    app.post(Tap((400, bottom + 5), 0.0))
    app.post(Release((400, app.screen.height - 2), 0.0))
    app.post(Tap((400, bottom - 5), 0.0))
    app.step()
    assert seen == [Release((400, bottom - 1), 0.0), Tap((400, bottom - 5), 0.0)]


def test_rotation_banner_a_long_group_name_is_cut_not_the_countdown() -> None:
    plan = Plan(PLAN.stations, ("The Wonderful Purple Dragons of Room 12B", "Blue", "Green"))
    app, _wall, runner = rotation_app(station=0, plan=plan)
    drawn: list[tuple[str, pygame.Rect]] = []
    text = app.ctx.painter.text

    def recording(surface, words, *args, **kwargs):
        rect = text(surface, words, *args, **kwargs)
        drawn.append((words, rect))
        return rect

    app.ctx.painter.text = recording
    runner.draw(app.canvas, app.screen)
    (label, label_rect), (clock, clock_rect) = drawn[1], drawn[0]
    assert clock == "15:00" and label.endswith("\u2026") and label.startswith("Station 1")
    assert label_rect.right < clock_rect.left and clock_rect.right <= app.screen.width


# -- warning and time up ------------------------------------------------------------------------


def test_rotation_warning_sounds_and_flashes_every_seat_once() -> None:
    app, wall, _runner = rotation_app()
    lamps = app.ctx.lamps
    lamps.light_only([2])  # a game had seat 3 lit
    lamps.calls.clear()
    wall.advance(14 * MIN - 1)
    app.step()
    assert "round" not in app.ctx.sounds.played
    wall.advance(1)
    app.step()
    assert app.ctx.sounds.played.count("round") == 1
    everyone = frozenset(range(SEATS))
    assert lamps.calls[-1] == everyone
    for _ in range(FLASH_TOGGLES + 1):
        wall.advance(FLASH_STEP)
        app.step()
    assert lamps.calls[:FLASH_TOGGLES] == [everyone, frozenset()] * (FLASH_TOGGLES // 2)
    assert lamps.lit == {2}  # as it was before the flash
    calls = len(lamps.calls)
    wall.advance(10)
    app.step()
    assert app.ctx.sounds.played.count("round") == 1 and len(lamps.calls) == calls


def test_rotation_time_up_saves_the_game_and_sends_the_group_on() -> None:
    app, wall, runner = rotation_app(station=1)
    game = FakeGame(app.ctx)
    app.stack.push(game)
    wall.advance(15 * MIN)
    app.step()
    assert len(game.save.finished) == 1
    result, reason = game.save.finished[0]
    assert reason == "time" and result.scores == (12, Fraction(7, 2))
    assert game.exited
    assert [type(s) for s in app.stack] == [HomeScene, StationScene]
    screen = app.stack.top
    assert screen.leaving() == "Group Blue: go to Station 3 \u2014 Math Arena."
    assert welcome_text(screen) == (
        "Group Red, welcome! This is Station 2: Math Wars Meta. Mode: Teams \u00b7 Rotation 2 of 4"
    )
    assert runner.moment.phase == "transition" and runner.group == "Red"
    # the transition ends: Red plays here now; nothing is saved twice
    wall.advance(MIN)
    app.step()
    assert runner.moment.phase == "play" and runner.group == "Red"
    assert app.stack.top is screen and len(game.save.finished) == 1
    assert screen.target("start").enabled
    screen.press("start")
    setup = app.stack.top  # Math Wars Meta's setup (the one form), teams preset
    assert setup.spec.game == "math-wars-meta" and setup.values().options["mode"] == "teams"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rotation_time_up_shows_how_the_game_ended(size) -> None:
    """Time's up mid-game: the station screen tells the leaving group how their game
    ended, from the standings saved as its result (who won, then the others' places,
    namesakes told apart as at the table; one child alone, their score), under where
    they go, whole, >= 16 px, above the banner, and said aloud. The walk (round 20) saw
    the screen go straight to "go to Station 3": the group never saw their game end."""
    from tests.ui.test_rotation_strip import recording

    app, wall, _runner = rotation_app(size, station=1)
    seats = [SeatInfo(0, "Mia Jones", "s1", "4a"), SeatInfo(1, "Mia Jones", "s2", "4b")]
    app.stack.push(FakeGame(app.ctx, GameSave(app.ctx, "math-attack", seats, {})))
    wall.advance(15 * MIN)
    app.step()
    screen = app.stack.top
    ended = "Mia Jones (4a) wins! 2nd: Mia Jones (4b)."
    assert isinstance(screen, StationScene) and screen.standings == ended
    assert app.ctx.speaker.said[-1].startswith(f"{ended} Group Blue: go to Station 3")
    with recording(app) as drawn:
        app.draw()
    texts = [d for d in drawn if d.what == "text" and d.scene is screen]
    shown = " ".join(d.words for d in texts)
    assert f"Group Blue: go to Station 3 \u2014 Math Arena. {ended}" in shown  # under it, whole
    scenes = pygame.Rect((0, 0), app.ctx.metrics.size)  # the canvas above the banner
    assert all(scenes.contains(d.rect) for d in texts), texts
    assert all(d.size >= 16 for d in texts) and not [d for d in drawn if d.what == "cut"]
    assert not any(a.rect.colliderect(b.rect) for a, b in itertools.combinations(texts, 2))
    screen.resume(None)  # back from this station's game: that was the last group's
    assert screen.standings == "" and screen.leaving() is None
    from tabletop.ui.scenes.rotation import ended_line  # new in round 20

    single = Result((Fraction(23),), (1,), "stopped in round 4 with 23 points")
    assert ended_line(single, seats[:1]) == "Mia Jones scored 23."


def test_rotation_time_up_on_a_games_results_shows_how_it_ended() -> None:
    """Walk 28: time ran out while a finished game's results were on show; the station
    screen put them away and said nothing of that game. It tells how it ended (as for a
    game stopped for time, from the results' own words: a child alone, their score in
    the game's words), said aloud, and the journal keeps the game as it ended."""
    from tabletop.ui.results import GameResults, outcome_of

    app, wall, _runner = rotation_app(station=1)
    ctx = app.ctx
    game = FakeGame(ctx, GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {}))
    game.save.attach(Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=4))
    app.stack.push(game)
    ended = Result((Fraction(2), Fraction(4)), (2, 1), "end")
    game.save.finish(ended, reason="end")
    app.stack.replace(GameResults(ctx, outcome_of(ended, ["Mia", "Ben"])))
    app.step()
    wall.advance(15 * MIN)
    app.step()
    screen = app.stack.top
    assert isinstance(screen, StationScene) and screen.standings == "Ben wins! 2nd: Mia."
    assert ctx.speaker.said[-1].startswith("Ben wins! 2nd: Mia. Group Blue: go to Station 3")
    (row,) = ctx.journal.matches()
    assert (row.status, row.reason, row.result["places"]) == ("finished", "end", [2, 1])
    solo = outcome_of(Result((Fraction(23),), (1,), "end"), ["Mia"], score=lambda s: f"{s} pts")
    from tabletop.ui.scenes.rotation import outcome_line  # new in round 28

    assert outcome_line(solo) == "Mia scored 23 pts."


def test_rotation_time_up_finishes_a_journaled_game_for_time() -> None:
    app, wall, _runner = rotation_app(station=0)
    ctx = app.ctx
    match = Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=3)
    save = GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {"seed": 3})
    save.attach(match)
    app.stack.push(FakeGame(ctx, save))
    already = FakeGame(ctx, GameSave(ctx, "math-attack", seat_infos(["A", "B"]), {}))
    already.save.attach(Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=4))
    already.save.finish(already.standings(), reason="end")
    app.stack.push(already)
    wall.advance(15 * MIN)
    app.step()
    rows = {s.id: s for s in ctx.journal.matches()}
    assert rows[save.id].status == "finished" and rows[save.id].reason == "time"
    assert rows[save.id].result["scores"] == ["12", "7/2"]
    assert rows[save.id].result["reason"] == "time"
    assert rows[already.save.id].reason == "end"  # a game over already stays as it was


def test_rotation_time_up_a_journal_that_cannot_say_still_saves_the_game(
    monkeypatch, caplog
) -> None:
    """The rotation asks the journal (``Journal.status``) whether a game is still being
    played; a journal that cannot say counts it as still played: saved for "time", and
    the reason in the log."""
    from tabletop.engine.errors import TabletopError

    app, _wall, _runner = rotation_app(station=0)
    ctx = app.ctx
    save = GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {"seed": 3})
    save.attach(Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=3))
    app.stack.push(FakeGame(ctx, save))

    def unreadable(match_id: int) -> str | None:
        raise TabletopError("store.read", f"cannot read the status of game {match_id}")

    monkeypatch.setattr(ctx.journal, "status", unreadable)
    assert finish_games(ctx) == ["Mia wins! 2nd: Ben."]  # saved: how it ended
    assert "store.read" in caplog.text
    monkeypatch.undo()
    assert ctx.journal.status(save.id) == "finished"
    assert finish_games(ctx) == []  # finished now: not saved twice


def test_rotation_time_up_a_failed_wording_is_logged_as_such_and_the_card_still_shows(
    monkeypatch, caplog
) -> None:
    """Time up saves the game first; if how it ended cannot be worded (``ended_line``),
    the log says the game was saved and the wording failed (never "could not be
    finished"), and the station card still shows, without the line."""
    import tabletop.ui.scenes.rotation as rotation

    app, wall, _runner = rotation_app(station=0)
    ctx = app.ctx
    save = GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {"seed": 3})
    save.attach(Match(GAMES["math-attack"], MathAttackSettings(), 2, seed=3))
    app.stack.push(FakeGame(ctx, save))

    def broken(result: Result, seats: object) -> str:
        raise KeyError("no such seat")

    monkeypatch.setattr(rotation, "ended_line", broken)
    caplog.set_level("INFO")
    wall.advance(15 * MIN)
    app.step()
    assert ctx.journal.status(save.id) == "finished"
    assert "saved as finished for time" in caplog.text
    assert "could not be worded" in caplog.text
    assert "could not be finished" not in caplog.text
    assert isinstance(app.stack.top, StationScene) and app.stack.top.standings == ""


def test_rotation_games_on_lists_the_games_on_the_stack_topmost_first() -> None:
    """``games_on`` is the one walk over the scene stack (time up, and the fleet's status):
    a scene is a game when it has a ``save`` and ``standings()``."""
    app, _wall, _runner = rotation_app()
    lower, upper = FakeGame(app.ctx), FakeGame(app.ctx)
    for scene in (lower, Scene(app.ctx), upper):
        app.stack.push(scene)
    assert list(games_on(app.stack)) == [upper, lower]


def test_rotation_fleet_top_game_is_the_topmost_game_still_played() -> None:
    """The fleet's status walks the stack with ``games_on``: the topmost game whose save
    is not finished, with its standings by seat name; a half-built one has none yet."""
    from tabletop.ui.fleet import top_game

    app, _wall, _runner = rotation_app()
    ctx = app.ctx
    assert top_game(app.stack) is None
    playing = GameSave(ctx, "math-attack", seat_infos(["Mia", "Ben"]), {"seed": 3})
    over = GameSave(ctx, "mecs", seat_infos(["Ada"]), {"seed": 4})
    over.finished = True
    for scene in (FakeGame(ctx, playing), Scene(ctx), FakeGame(ctx, over)):
        app.stack.push(scene)
    game, rows = top_game(app.stack) or ("", ())
    assert game == "math-attack"
    assert [(r.name, r.score, r.place) for r in rows] == [("Mia", "12", 1), ("Ben", "7/2", 2)]

    class HalfBuilt(FakeGame):
        def standings(self) -> Result:
            raise AttributeError("no match yet")

    app.stack.push(HalfBuilt(ctx, GameSave(ctx, "mecs", seat_infos(["Ada"]), {})))
    assert top_game(app.stack) == ("mecs", ())


def test_rotation_time_up_without_game_saves_does_not_crash() -> None:
    app, wall, _runner = rotation_app()

    class OldGame(Scene):  # a game screen from before GameSave
        pass

    app.stack.push(OldGame(app.ctx))
    assert finish_games(app.ctx) == []
    wall.advance(15 * MIN)
    app.step()
    assert isinstance(app.stack.top, StationScene)


@pytest.mark.parametrize(
    "game,mode", [(g, m) for g, modes in STATION_MODES.items() for m, _ in modes]
)
def test_rotation_station_opens_its_game_set_to_the_planned_mode(game, mode) -> None:
    plan = Plan((Station("mecs"), Station(game, mode)), ("Red", "Blue"))
    app, _wall, runner = rotation_app(station=1, plan=plan)
    app.stack.push(StationScene(app.ctx, runner))
    Autoplayer(app).tap("start")
    setup = app.stack.top
    assert not isinstance(setup, StationScene)
    chosen = setup.target(mode_button(game, mode))
    assert chosen is not None and chosen.selected, f"{game} opened without {mode}"
    others = [m for m, _ in STATION_MODES[game] if m != mode]
    if game == "mathe-meister":  # Black Hole and Fear of Fours play Freestyle's lines
        from tabletop.ui.games.mathe_meister.setup import chosen_modes

        assert chosen_modes(setup.values()) == (mode,)
        return
    assert not any(setup.target(mode_button(game, m)).selected for m in others)


OPTION_CASES = [
    (game, "bot" if game == "math-attack" else "", {key: value})
    for game, options in STATION_OPTIONS.items()
    for key, _, values in options
    for value, _ in values
]


@pytest.mark.parametrize("game,mode,options", OPTION_CASES)
def test_rotation_station_opens_its_game_with_the_planned_options(game, mode, options) -> None:
    plan = Plan((Station("mecs"), Station(game, mode, options)), ("Red", "Blue"))
    app, _wall, runner = rotation_app(station=1, plan=plan)
    app.stack.push(StationScene(app.ctx, runner))
    ((key, value),) = options.items()
    (shown,) = plan.stations[1].option_names  # "Deck: Beginners", on the welcome
    assert app.stack.top.welcome()[2].split(" \u00b7 ")[1] == shown
    Autoplayer(app).tap("start")
    setup = app.stack.top
    if isinstance(setup, FormScene) and key == "level":  # the bots' level, on their tiles
        bots = [s for s in setup.seats if s.kind == "bot"]
        assert setup.values().level == value, f"{game} opened without {value} bots"
        assert all(s.level == value for s in bots) and (bots or game != "math-attack")
        return
    if setup.target(f"{key}.{value}") is None and getattr(setup, "pages", 1) > 1:
        Autoplayer(app).tap("more")  # above the banner's strip the form takes two pages
    chosen = setup.target(f"{key}.{value}")
    assert chosen is not None and chosen.selected, f"{game} opened without {key} {value}"


def test_rotation_station_presets_math_arenas_tournament_target() -> None:
    """ARENA-5: the target a tournament plays to ("Play to") is a station's option, as
    the bots' level is: the station's game opens set to it and its tournament plays to
    it (a rotation could not preset it)."""
    from tabletop.ui.games.math_arena import ArenaScene

    plan = Plan(
        (Station("mecs"), Station("math-arena", "cards", {"target": "15"})), ("Red", "Blue")
    )
    assert plan.stations[1].option_names == ["Play to: 15 points"]
    app, _wall, runner = rotation_app(station=1, plan=plan)
    app.stack.push(StationScene(app.ctx, runner))
    auto = Autoplayer(app)
    auto.tap("start")
    assert auto.top.target("target.15").selected
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, ArenaScene) and scene.play.tournament.target == 15


def test_rotation_idle_station_and_the_last_rotation() -> None:
    plan = Plan((Station("mecs"), Station("math-arena")), ("Red",), minutes=5, transition=0)
    app, wall, runner = rotation_app(station=1, plan=plan)
    assert runner.group is None  # Red starts at station 1; station 2 rests
    wall.advance(5 * MIN)
    app.step()
    screen = app.stack.top
    assert isinstance(screen, StationScene) and screen.leaving() is None
    assert runner.group == "Red" and screen.welcome()[0] == "Group Red, welcome!"
    wall.advance(5 * MIN)
    app.step()
    screen = app.stack.top
    assert screen.leaving() == "Group Red: well done! The rotation is over."
    assert screen.welcome()[0] == "All done!"
    assert not screen.target("start").enabled
    assert app.ctx.rotation is None and runner.finished
    (status,) = app.ctx.journal.db.execute("SELECT status FROM rotations").fetchone()
    assert status == "finished"


# -- the teacher's controls ------------------------------------------------------------------------


def test_rotation_controls_pause_resume_extend_by_taps() -> None:
    app, wall, runner = rotation_app()
    auto = open_menu(app)
    assert isinstance(app.stack.top, RotationControl)
    assert not app.stack.top.target("resume").enabled
    wall.advance(2 * MIN)
    auto.tap("pause")
    assert runner.moment.paused and stored_clock(app)["pauses"] == [[T0 + 120, None]]
    assert not app.stack.top.target("pause").enabled
    wall.advance(10 * MIN)
    app.step()
    assert runner.moment.countdown() == "13:00"
    auto.tap("resume")
    auto.tap("extend")
    assert runner.moment.countdown() == "14:00"
    assert stored_clock(app)["extensions"] == [[0, "play", 1]]
    wall.advance(14 * MIN)
    app.step()
    assert runner.moment.phase == "transition"


def test_rotation_controls_in_a_games_teacher_menu_keep_the_game() -> None:
    """Walk 28: the teacher could extend or pause a rotation only by leaving the game
    (abandoned). A game's teacher menu, after the PIN, offers More time and Pause
    (Resume while paused) while a rotation runs, the controls' own actions, and the
    game goes on: Math Wars Meta's own menu gets them, and a game with no menu (Math
    Attack's Undo) asks first, Undo among them. Without a rotation, nothing changes."""
    from tests.ui.game_scenery import cards_seen, setup

    def teacher_menu(auto: Autoplayer, button: str) -> list[str]:
        auto.tap(button)
        for digit in "2468":
            auto.tap(f"key.{digit}")
        return [b.name for b in auto.top.targets()]

    app, wall, runner = rotation_app(station=1)
    auto = setup(app, "math-wars-meta", "start")
    table = auto.top
    wall.advance(5 * MIN)
    menu = teacher_menu(auto, "teacher")
    assert menu[-3:] == ["choice.rotation.extend", "choice.rotation.pause", "cancel"]
    assert menu[0] == "choice.undo"  # the game's own items first
    auto.tap("choice.rotation.extend")
    assert auto.top is table and runner.moment.countdown() == "11:00"
    assert stored_clock(app)["extensions"] == [[0, "play", 1]]
    teacher_menu(auto, "teacher")
    auto.tap("choice.rotation.pause")
    assert auto.top is table and runner.moment.paused
    assert "choice.rotation.resume" in teacher_menu(auto, "teacher")
    auto.tap("choice.rotation.resume")
    assert not runner.moment.paused and table.save.id is not None
    assert [(m.game, m.status) for m in app.ctx.journal.matches()] == [
        ("math-wars-meta", "playing")
    ]
    auto.tap("leave")
    auto.tap("yes")
    auto = setup(app, "math-attack", "first.0", "start")
    attack = auto.top
    for line, cards in ((0, ["+5"]), (1, ["+3"]), (0, ["+5", "+2"])):
        app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
        app.step()
    auto.tap("undo")  # Player 1's own card: no PIN
    menu = teacher_menu(auto, "undo")
    assert menu == [
        "choice.undo",
        "choice.rotation.extend",
        "choice.rotation.pause",
        "cancel",
    ]
    auto.tap("choice.undo")
    assert auto.top is attack and attack.state.lines == (("+5",), ())
    from tabletop.ui.scenes.rotation import teacher_items  # new in round 28

    app.ctx.fleet = object()  # a fleet device: the dashboard's controls, none here
    assert teacher_items(app.ctx) == ()
    app.ctx.fleet, app.ctx.rotation = None, None  # no rotation: the PIN undoes at once
    teacher_menu(auto, "undo")
    assert auto.top is attack and attack.state.lines == ((), ())


def test_rotation_controls_reach_a_game_without_a_teacher_button_at_its_first_move() -> None:
    """Round 28: a game with no Teacher button (Math Arena) reached its teacher's menu
    only through Undo, off until there was a step to take back: at the game's first
    move the teacher had to leave the game to give more time. While a rotation runs its
    Undo is on, and the menu, after the PIN, offers what applies (no "Undo last step"
    with nothing to undo); without a rotation Undo stays off (the pictures as before)."""
    from tests.ui.game_scenery import setup

    app, wall, runner = rotation_app(station=1)
    auto = setup(app, "math-arena", "start")
    arena = auto.top
    assert not arena.play.can_undo()
    wall.advance(5 * MIN)
    auto.tap("undo")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    menu = [b.name for b in auto.top.targets()]
    assert menu == ["choice.rotation.extend", "choice.rotation.pause", "cancel"]
    auto.tap("choice.rotation.extend")
    assert auto.top is arena and runner.moment.countdown() == "11:00"
    assert [(m.game, m.status) for m in app.ctx.journal.matches()] == [("math-arena", "playing")]
    app.ctx.rotation = None  # no rotation: Undo is off again
    arena.after()
    assert not next(b for b in arena.buttons if b.name == "undo").enabled


def test_rotation_controls_reach_mathe_meister_alone_and_its_undo_stays_the_childs() -> None:
    """Round 29: Mathe-Meister alone had no way to More time or Pause while a rotation
    runs (its Undo is the child's own take-back, no PIN). Teacher, beside the message,
    asks the PIN and shows the menu with what applies (not the child's own take-back);
    the child's Undo still needs no PIN; without a rotation there is no Teacher."""
    from tests.ui.scenery import start_solo

    app, wall, runner = rotation_app(station=0)
    auto = start_solo(app)
    auto.tap_dice((3, 5))
    solo = auto.top
    auto.tap("die0")
    auto.tap("cell.r0c0")
    auto.tap("undo")  # the child's own: no PIN
    assert auto.top is solo and solo.state.sheets[0].at((0, 0)) == "."
    auto.tap("die0")
    auto.tap("cell.r0c0")
    wall.advance(5 * MIN)
    teacher = solo.target("teacher")
    assert teacher is not None and not teacher.rect.colliderect(solo.message_rect)
    auto.tap("teacher")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    menu = [b.name for b in auto.top.targets()]
    assert menu == ["choice.rotation.extend", "choice.rotation.pause", "cancel"]
    auto.tap("choice.rotation.extend")
    assert auto.top is solo and runner.moment.countdown() == "11:00"
    assert solo.state.sheets[0].at((0, 0)) == "3"  # the child's work stays
    assert [(m.game, m.status) for m in app.ctx.journal.matches()] == [("mathe-meister", "playing")]
    app.ctx.rotation = None
    solo.after()
    assert solo.target("teacher") is None


def test_rotation_mathe_meister_alone_hint_is_one_page_with_teacher_at_800x480() -> None:
    """Walk r40: at 800x480 over the banner, Teacher at the message's end left it two
    lines of 308 px, and a hint ("Hint: Coin Shop: +1 on die 1 …") went in two pages
    that turned. Teacher is at the end of Done's row there: the hint shows on one page,
    Teacher and Done side by side, no target on another."""
    from tests.ui.test_rotation_strip import with_rotation

    app, _runner = with_rotation("mathe-meister-game-hint", (800, 480))
    solo, painter = app.stack.top, app.ctx.painter
    m, line = solo.m, solo.play.message
    assert line.startswith("Hint: Coin Shop:")
    area = solo.message_rect.inflate(-m.u(12), -m.u(6))  # as _draw_message has it
    assert len(painter.pages(line, area, m.small + 1)[1]) == 1
    teacher, done = solo.target("teacher"), solo.target("done")
    assert teacher is not None and done is not None and teacher.rect.top == done.rect.top
    shown = [b for b in solo.targets() if b.rect.width]
    assert not [
        (a.name, b.name) for a in shown for b in shown if a is not b and a.rect.colliderect(b.rect)
    ]
    assert max(b.rect.bottom for b in shown) <= app.ctx.metrics.height  # above the banner


def test_rotation_controls_skip_and_end_ask_first() -> None:
    app, _wall, runner = rotation_app(station=1)
    auto = open_menu(app)
    auto.tap("skip")
    auto.tap("no")
    assert runner.moment.phase == "play" and isinstance(app.stack.top, RotationControl)
    auto.tap("skip")
    auto.tap("yes")  # time is up now: the station screen for the groups
    assert runner.moment.phase == "transition"
    assert isinstance(app.stack.top, StationScene)
    assert app.stack.top.leaving() == "Group Blue: go to Station 3 \u2014 Math Arena."
    auto = open_menu(app)
    auto.tap("end")
    auto.tap("yes")
    assert app.ctx.rotation is None and runner.moment.done
    assert app.stack.top.welcome()[0] == "All done!"
    assert running_rotation(app.ctx.journal) is None


# -- after a reboot ----------------------------------------------------------------------------


def test_rotation_restored_after_a_reboot_with_the_same_clock(tmp_path) -> None:
    path = tmp_path / "tabletop.sqlite3"
    app, wall, runner = rotation_app(journal=Journal(path))
    wall.advance(5 * MIN)
    runner.control("pause")
    wall.advance(MIN)
    runner.control("resume")
    wall.advance(MIN)
    app.step()
    before = runner.moment
    app.ctx.journal.close()

    again = make_app()  # the device started again
    again.ctx.journal = Journal(path)
    again.ctx.wall = FakeClock(wall.now)
    restored = restore_rotation(again.ctx)
    assert again.ctx.rotation is restored and isinstance(restored, RotationRunner)
    assert restored.moment == before and restored.group == "Blue"
    assert restored.moment.countdown() == "09:00"
    assert restore_rotation(make_app().ctx) is None  # nothing running in a fresh journal


def test_rotation_restart_finishes_a_game_whose_time_ran_out_meanwhile(tmp_path) -> None:
    from tabletop.ui.games.math_attack import AttackScene

    path = tmp_path / "tabletop.sqlite3"
    wall = FakeClock(T0)
    app, _wall, _runner = rotation_app(journal=Journal(path, now=wall), wall=wall)
    wall.advance(5 * MIN)
    app.stack.push(AttackScene(app.ctx, names=("Mia", "Ben"), seed=5))  # journaled
    (playing,) = app.ctx.journal.unfinished("app")
    assert playing.started == T0 + 5 * MIN
    app.ctx.journal.close()  # unplugged at 5 minutes

    wall.advance(15 * MIN)  # back on in the move to rotation 2
    again = make_app()
    again.ctx.journal = Journal(path, now=wall)
    again.ctx.wall = wall
    assert restore_rotation(again.ctx) is not None
    row = next(s for s in again.ctx.journal.matches() if s.id == playing.id)
    assert (row.status, row.reason) == ("finished", "time")
    assert row.result is not None and row.result["scores"] == ["0", "0"]
    assert again.ctx.journal.unfinished("app") == []


def test_rotation_restart_keeps_a_game_of_the_rotation_still_on(tmp_path) -> None:
    from tabletop.ui.games.math_attack import AttackScene

    path = tmp_path / "tabletop.sqlite3"
    wall = FakeClock(T0)
    app, _wall, _runner = rotation_app(journal=Journal(path, now=wall), wall=wall)
    wall.advance(5 * MIN)
    app.stack.push(AttackScene(app.ctx, names=("Mia", "Ben"), seed=5))
    app.ctx.journal.close()
    wall.advance(2 * MIN)  # back on while the same rotation is still being played
    again = make_app()
    again.ctx.journal = Journal(path, now=wall)
    again.ctx.wall = wall
    restore_rotation(again.ctx)
    assert len(again.ctx.journal.unfinished("app")) == 1  # Home offers to carry on


def restarted(path: Path, wall: FakeClock) -> App:
    """The device started again on the journal at ``path``, as the launcher starts it:
    the rotation restored, then Home."""
    again = make_app()
    again.stack.pop()
    again.ctx.journal = Journal(path, now=wall)
    again.ctx.wall = wall
    restore_rotation(again.ctx)
    again.stack.push(HomeScene(again.ctx))
    again.step()
    return again


def test_rotation_restart_shows_the_station_screen_after_the_offer(tmp_path) -> None:
    """Started again mid-rotation, the device shows the station screen over Home, as
    when the rotation started (it showed Home, and the children picked any game); a
    game carried on from Home's offer is on top of it, and leaving it goes there."""
    from tabletop.ui.games.math_attack import AttackScene

    path = tmp_path / "tabletop.sqlite3"
    wall = FakeClock(T0)
    app, _wall, _runner = rotation_app(journal=Journal(path, now=wall), wall=wall)
    app.ctx.journal.close()
    wall.advance(2 * MIN)
    again = restarted(path, wall)
    assert [type(s) for s in again.stack] == [HomeScene, StationScene]
    assert again.stack.top.welcome()[0] == "Group Blue, welcome!"
    again.ctx.journal.close()

    wall.advance(MIN)  # a game is being played when the device stops again
    app = restarted(path, wall)
    app.stack.push(AttackScene(app.ctx, names=("Mia", "Ben"), seed=5))
    app.ctx.journal.close()
    wall.advance(MIN)
    again = restarted(path, wall)
    auto = Autoplayer(again)
    auto.tap("yes")  # carry on
    assert [type(s) for s in again.stack] == [HomeScene, StationScene, AttackScene]
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(again.stack.top, StationScene)


def left_mid_game(path: Path, wall: FakeClock) -> int:
    """A rotation whose device stopped in a game of Math Attack!, started again a
    minute later: the game's id."""
    from tabletop.ui.games.math_attack import AttackScene

    app, _wall, _runner = rotation_app(journal=Journal(path, now=wall), wall=wall)
    wall.advance(2 * MIN)
    app.stack.push(AttackScene(app.ctx, names=("Mia", "Ben"), seed=5))
    (playing,) = app.ctx.journal.unfinished("app")
    app.ctx.journal.close()
    wall.advance(MIN)
    return playing.id


def test_rotation_restart_back_on_the_offer_shows_the_station_screen(tmp_path) -> None:
    """Back on "Carry on with this game?" after a restart mid-rotation keeps the game
    for later and shows the station screen, as "New game" does (it left Home showing,
    and the station's game and mode were out of reach)."""
    path, wall = tmp_path / "tabletop.sqlite3", FakeClock(T0)
    waiting = left_mid_game(path, wall)
    again = restarted(path, wall)
    again.post(Back(again.ctx.clock()))
    again.step()
    assert [type(s) for s in again.stack] == [HomeScene, StationScene]
    assert [s.id for s in again.ctx.journal.unfinished("app")] == [waiting]


def test_rotation_restart_a_game_not_carried_on_is_told_on_the_station_screen(tmp_path):
    """A carry-on that fails mid-rotation (a damaged record) is told on the station
    screen that covers Home, shown and said before the welcome; Home's sentence was
    hidden under it. Back from the station's game, the station screen no longer tells it."""
    path, wall = tmp_path / "tabletop.sqlite3", FakeClock(T0)
    waiting = left_mid_game(path, wall)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE matches SET meta = '{}' WHERE id = ?", (waiting,))
    again = restarted(path, wall)
    Autoplayer(again).tap("yes")
    station, note = again.stack.top, child_message("home.station_not_resumed")
    assert isinstance(station, StationScene) and station.note == note
    assert again.ctx.journal.status(waiting) == "broken"
    assert again.ctx.speaker.said[-1].startswith(note + " Group Blue,")
    m = again.ctx.metrics
    before = station.buttons[0].rect.top - m.u(6) - m.small // 2
    again.draw()
    shot = pygame.surfarray.array3d(again.canvas)
    red = np.all(shot[:, before] == PALETTE.bad, axis=-1)
    assert red.any()  # the sentence, in the problem's colour, above the buttons
    Autoplayer(again).tap("start")
    again.stack.unwind_to(StationScene)  # left the station's game
    assert again.stack.top is station and station.note == ""


# -- screenshots -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rotation_screens_render_at_both_sizes(size, tmp_path: Path) -> None:
    app, wall, _runner = rotation_app(size)
    shots = {"welcome": app.screenshot(tmp_path / "welcome.png")}
    wall.advance(15 * MIN + 5)
    app.step()
    shots["time_up"] = app.screenshot(tmp_path / "time_up.png")
    auto = open_menu(app)
    shots["control"] = app.screenshot(tmp_path / "control.png")
    auto.tap("back")  # to the teacher menu
    app.ctx.rotation = None
    auto.tap("rotation")
    shots["editor"] = app.screenshot(tmp_path / "editor.png")
    auto.tap("station.0")
    shots["picker"] = app.screenshot(tmp_path / "picker.png")
    auto.tap("cancel")
    auto.tap("groups")
    shots["groups"] = app.screenshot(tmp_path / "groups.png")
    for name, path in shots.items():
        image = pygame.image.load(str(path))
        assert image.get_size() == size, name
        assert not_blank(image), name
    # every button of these screens is inside the screen and big enough to touch
    m = app.ctx.metrics
    for scene in (app.stack.top, RotationEditor(app.ctx), RotationControl(app.ctx)):
        scene.layout(m)
        for b in scene.targets():
            assert app.canvas.get_rect().contains(b.rect), (type(scene).__name__, b.name)
            assert min(b.rect.size) >= m.touch, (type(scene).__name__, b.name, b.rect)


def test_rotation_station_screens_sentences_are_the_tables(monkeypatch) -> None:
    """Round 36 (issue 21): the station screen's sentences (no group here, time's up,
    all done, a game that cannot start, the rotation not saved) were English in its
    module; they are the sentence table's, shown and said the same."""
    import tabletop.ui.games as games
    from tabletop.ui.scenes import rotation

    plan = Plan((Station("mecs"), Station("math-arena")), ("Red",), minutes=5, transition=0)
    app, wall, runner = rotation_app(station=1, plan=plan)
    screen = StationScene(app.ctx, runner)
    rests = child_message("ui.station_rests", title=runner.title)
    assert screen.welcome()[:2] == (CHILD_MESSAGES["ui.station_no_group"], rests)
    assert rests == f"{runner.title} rests."
    assert CHILD_MESSAGES["ui.station_not_saved"] == rotation.SAVE_FAILED
    wall.advance(5 * MIN)
    app.step()
    monkeypatch.setattr(games, "game_app", lambda game: None)
    app.stack.top.press("start")
    assert app.stack.top.message == CHILD_MESSAGES["ui.station_cannot_start"]
    wall.advance(5 * MIN)
    app.step()
    screen = app.stack.top
    done = (CHILD_MESSAGES["ui.station_all_done"], CHILD_MESSAGES["ui.station_over"], "")
    assert screen.leaving() == child_message("ui.station_well_done", group="Group Red")
    assert screen.welcome() == done and app.ctx.speaker.said[-1].endswith(" ".join(done[:2]))
    drawn: list[str] = []
    at = pygame.Rect(0, 0, 1, 1)
    monkeypatch.setattr(app.ctx.painter, "text", lambda s, t, *a, **k: drawn.append(t) or at)
    screen.draw(pygame.Surface(app.ctx.metrics.size))
    assert drawn[0] == CHILD_MESSAGES["ui.station_time_up"] == "Time's up!"


def test_rotation_leaving_a_station_game_goes_back_to_the_station_screen() -> None:
    """A game opened from the station screen, left (or its results' Home): back to the
    station screen, where the next game starts with the station's mode, and without the
    old "Time's up!" once the group that had to move has moved. It went to Home, and the
    station's mode and welcome were lost until the next time up."""
    plan = Plan((Station("math-arena", "virtual"), Station("mecs")), ("Red", "Blue"))
    app, wall, _runner = rotation_app(plan=plan)
    wall.advance(15 * MIN)  # time up: the next group arrives
    app.step()
    station = app.stack.top
    assert isinstance(station, StationScene) and station.leaving() is not None
    welcome = station.welcome()
    auto = Autoplayer(app)
    auto.tap("start")
    auto.tap("start")
    auto.tap("leave")
    auto.tap("yes")
    assert app.stack.top is station and station.leaving() is None
    assert station.welcome() == welcome
    auto.tap("start")
    assert app.stack.top.target(mode_button("math-arena", "virtual")).selected


def test_rotation_station_screen_says_where_to_go_and_who_is_welcome(table_words) -> None:
    """Time up: the sentences the station screen shows the groups are spoken too (only
    the chime sounded; a screen's words are heard, issue 21); where the leaving group
    goes and the welcome are the sentence table's (round 37), drawn as said."""
    from tests.ui.scenery import drawn_texts

    words = {"go": "{group} to {title}.", "welcome": "Hi {group}!", "here": "At {title}."}
    table_words("ui.station_", words)
    app, wall, _runner = rotation_app()
    wall.advance(15 * MIN)
    app.step()
    screen = app.stack.top
    assert isinstance(screen, StationScene)
    leaving, (who, where, _) = screen.leaving(), screen.welcome()
    assert leaving == "Group Blue to Station 3 \u2014 Math Arena."
    assert (who, where) == ("Hi Group Red!", "At Station 2: Math Wars Meta.")
    assert app.ctx.speaker.said[-1] == f"{leaving} {who} {where}"
    drawn = [t for t, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert {"Hi Group Red!", "At Station 2: Math Wars Meta."} <= set(drawn), drawn
    wall.advance(60 * MIN)  # the last rotation's time is up
    app.step()
    assert app.ctx.speaker.said[-1].endswith("All done! The station rotation is over. Thank you!")
