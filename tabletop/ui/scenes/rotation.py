"""Station rotations on the touchscreen: the teacher's plan editor and controls, the
banner with the countdown, and the screens that send groups from station to station.

The teacher opens *Station rotation* in the teacher menu (behind the PIN):
:class:`RotationEditor` sets up the plan (stations with a game, a mode and options, groups,
minutes, transition, warning, rounds, which station this device is) and starts it;
while one runs, :class:`RotationControl` offers Pause, Resume, +1 minute, Skip and End.

The running rotation is a :class:`RotationRunner` in ``ctx.rotation``. The app calls
``update()`` every frame and ``draw(surface, metrics)`` after the scenes: a banner at
the top with the station, the group and the countdown (amber in the warning minutes,
"Paused" when paused). At the warning it plays a sound and flashes every seat's LED
once; when time is up it saves every game on the stack as finished for "time" with its
standings (a scene with ``save`` and ``standings()``), goes back to Home and shows
:class:`StationScene`: where the leaving group goes next and the arriving group's
welcome, whose button opens the game's setup with the station's mode and options
already chosen (:func:`choose_setup`). A scene can move the banner to the bottom
(``rotation_banner = "bottom"``) or hide it (``rotation_banner = False``).

Times are wall-clock epoch seconds from ``ctx.wall`` (``time.time``; tests inject a
fake), so a device that reboots carries on with the stored clock:
:func:`restore_rotation` finds it in the journal at start.

Touch targets: the editor ``station.<i>``, ``station.add``, ``groups``,
``minutes.-``/``minutes.+``, ``transition.-/+``, ``warning.-/+``, ``rounds.-/+``,
``here.-/+``, ``back``, ``start``; the station picker ``game.<id>``, ``mode.<id>``,
``opt.<key>.<value>`` (``opt.<key>.``: the group chooses), ``remove``, ``done``; the
groups screen ``group.<i>``, ``add``, ``remove``, ``class``, ``done``; the controls
``pause``, ``resume``, ``extend``, ``skip``, ``end``, ``back``; the station screen
``start``, ``home``.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pygame

from tabletop.classroom.rotation import (
    GAME_TITLES,
    MAX_STATIONS,
    MINUTES,
    STATION_MODES,
    STATION_OPTIONS,
    TRANSITION,
    WARNING,
    Moment,
    Plan,
    RotationClock,
    Station,
    StoredRotation,
    last_plan,
    running_rotation,
    save_clock,
    start_rotation,
)
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import InputEvent
from tabletop.ui.scenes.common import Confirm, header, route_to_press
from tabletop.ui.theme import ORANGE, PALETTE, Metrics
from tabletop.ui.widgets import Button

log = logging.getLogger(__name__)

SEATS = 8  # every seat's LED flashes at the warning
FLASH_STEP = 0.4  # seconds on, seconds off
FLASH_TOGGLES = 6
WARNING_SOUND = "round"
TIME_UP_SOUND = "round"
SAVE_FAILED = "The rotation could not be saved just now. It keeps running."
FOLLOWS = "This station follows the teacher's dashboard."
DEFAULT_GAMES = ("mathe-meister", "math-wars-meta", "mecs", "math-arena")


def _wall(ctx: Context) -> Callable[[], float]:
    wall: Callable[[], float] = getattr(ctx, "wall", time.time)
    return wall


# -- the running rotation --------------------------------------------------------------------


class RotationRunner:
    """The rotation this device runs (``ctx.rotation``); see the module docstring.

    ``group`` is the group that belongs at this station now (in a transition: the one
    arriving); ``moment`` the clock's :class:`Moment` at the last ``update``.
    """

    def __init__(
        self, ctx: Context, stored: StoredRotation, *, wall: Callable[[], float] | None = None
    ) -> None:
        self.ctx = ctx
        self.stored = stored
        self.clock: RotationClock = stored.clock
        self.wall = wall or _wall(ctx)
        self.moment: Moment = self.clock.now(self.wall())
        self.warned: set[int] = set()
        if self.moment.phase == "warning":
            self.warned.add(self.moment.rotation)  # restored mid-warning: it was given
        self.finished = False
        self._flash: tuple[float, list[int]] | None = None  # started at, lit before
        self._shown: tuple[Any, ...] = ()

    @property
    def plan(self) -> Plan:
        return self.clock.plan

    @property
    def station(self) -> int:
        """This device's station, 0-based."""
        return self.stored.station

    @property
    def group(self) -> str | None:
        return self.moment.group_at(self.station)

    @property
    def title(self) -> str:
        """``"Station 2: Math Wars Meta"``."""
        return f"Station {self.station + 1}: {self.plan.stations[self.station].name}"

    # -- every frame ----------------------------------------------------------------------

    def update(self, now_wall: float | None = None) -> bool:
        """Follow the clock to ``now_wall`` (default: the wall clock): warn, end the
        rotation's games when time is up. True when the banner must be redrawn."""
        t = self.wall() if now_wall is None else now_wall
        before, now = self.moment, self.clock.now(t)
        self.moment = now
        if before.playing and (now.rotation != before.rotation or not now.playing):
            self._time_up(before.rotation, t)
        elif now.done and not before.done:  # ended by the teacher in a transition
            self._show_station()
        if now.phase == "warning" and now.rotation not in self.warned:
            self._warn(t)
        if now.done and not self.finished:
            self._finish()
        changed = self._flash_step(t)
        shown = (now.countdown(), now.phase, now.paused, now.rotation)
        if shown != self._shown:
            self._shown = shown
            changed = True
        return changed

    def _warn(self, t: float) -> None:
        self.warned.add(self.moment.rotation)
        log.info("rotation: warning, %s left", self.moment.countdown())
        self.ctx.sounds.play(WARNING_SOUND)
        self._start_flash(t)

    def _time_up(self, rotation: int, t: float) -> None:
        """The rotation's time is up: save the games, send everyone to the station screen."""
        self.warned.add(rotation)
        log.info("rotation: time is up for rotation %d at station %d", rotation, self.station + 1)
        self.ctx.sounds.play(TIME_UP_SOUND)
        self._start_flash(t)
        finish_games(self.ctx)
        self._show_station(ended=rotation)

    def _show_station(self, ended: int | None = None) -> None:
        """Back to Home, and the station screen over it."""
        from tabletop.ui.scenes.home import HomeScene

        stack = self.ctx.stack
        if len(stack):
            stack.unwind_to(HomeScene)
        stack.push(StationScene(self.ctx, self, ended=ended))

    def _finish(self) -> None:
        self.finished = True
        log.info("rotation %d: over", self.stored.id)
        self._store(status="finished")
        if self.ctx.rotation is self:
            self.ctx.rotation = None

    # -- the LEDs ---------------------------------------------------------------------------

    def _start_flash(self, t: float) -> None:
        if self._flash is None:
            self._flash = (t, _lit(self.ctx.lamps))

    def _flash_step(self, t: float) -> bool:
        """Every seat's LED on and off a few times, then back as it was."""
        if self._flash is None:
            return False
        start, before = self._flash
        step = int(max(0.0, t - start) / FLASH_STEP)
        lamps = self.ctx.lamps
        if step >= FLASH_TOGGLES:
            lamps.light_only(before)
            self._flash = None
        else:
            lamps.light_only(range(SEATS) if step % 2 == 0 else [])
        return False

    # -- the teacher's controls -------------------------------------------------------------

    def pause(self) -> None:
        self._apply(self.clock.pause(self.wall()))

    def resume(self) -> None:
        self._apply(self.clock.resume(self.wall()))

    def extend(self, minutes: int = 1) -> None:
        self._apply(self.clock.extend(self.wall(), minutes))

    def skip(self) -> None:
        self._apply(self.clock.skip(self.wall()))

    def end(self) -> None:
        self._apply(self.clock.end(self.wall()))

    def adopt(self, clock: RotationClock) -> None:
        """A clock from the teacher's console (the classroom fleet): stored and followed
        exactly as the local controls' clocks are (games saved for time, the station
        screen). The same clock again changes nothing."""
        if clock.to_json() != self.clock.to_json():
            self._apply(clock)

    def _apply(self, clock: RotationClock) -> None:
        if clock is self.clock:
            return
        self.clock = clock
        self._store()
        self.update()

    def _store(self, status: str = "running") -> None:
        try:
            save_clock(self.ctx.journal, self.stored.id, self.clock, status)
        except TabletopError as exc:
            log.error("rotation %d: %s: %s", self.stored.id, exc.code, exc.message)
            self.ctx.notices.append(SAVE_FAILED)

    # -- the banner ----------------------------------------------------------------------------

    def banner(self, metrics: Metrics, surface: pygame.Surface | None = None) -> Banner | None:
        """What the banner shows and where, or None when it is hidden (see :meth:`draw`);
        ``surface``: the scenes as drawn, to find a place where they drew nothing."""
        top = self.ctx.stack.top
        where = getattr(top, "rotation_banner", True)
        if where is False or self.moment.done:
            return None
        m, p = metrics, PALETTE
        now = self.moment
        label = f"Station {self.station + 1}"
        if self.group:
            label += f" \u00b7 {self.group}"
        if now.paused:
            clock, fill, ink = "Paused", p.muted, (255, 255, 255)
        elif now.phase == "transition":
            clock, fill, ink = f"Move {now.countdown()}", p.button, (255, 255, 255)
        elif now.phase == "warning":
            clock, fill, ink = now.countdown(), ORANGE, p.ink
        else:
            clock, fill, ink = now.countdown(), p.ink, (255, 255, 255)
        fonts = self.ctx.painter.fonts
        pad = m.u(14)
        clock_w = fonts.width(clock, m.big, True)
        full = min(m.width - m.u(16), pad + fonts.width(label, m.text, True) + pad + clock_w + pad)
        compact = pad + clock_w + pad
        height = m.u(42)
        blockers = [b.rect for b in top.targets()] if top is not None else []
        bottom = m.height - m.u(4) - height
        strips = (bottom,) if where == "bottom" else (m.u(4), bottom)
        choices = ((full, label), (compact, ""))
        # Where the scene drew nothing (plain background), else where it has no button.
        if surface is not None:
            columns = [(y, _clear_columns(surface, y, height, m)) for y in strips]
            for width, text in choices:
                rect = _clear_spot(columns, width, height, m)
                if rect is not None:
                    return Banner(rect, text, clock, fill, ink)
        for width, text in choices if surface is None else choices[1:]:
            rect = _free_spot(width, height, m, blockers, strips)
            if rect is not None:
                return Banner(rect, text, clock, fill, ink)
        rect = pygame.Rect(0, 0, compact, height)
        rect.topright = (m.width - m.u(8), m.u(4))
        return Banner(rect, "", clock, fill, ink)

    def draw(self, surface: pygame.Surface, metrics: Metrics) -> None:
        """The banner: station, group and countdown, drawn over the scenes where they
        drew nothing (the rightmost such place at the top, else at the bottom); with no
        room, just the countdown where it covers no button. Drawing only."""
        banner = self.banner(metrics, surface)
        if banner is None:
            return
        m, painter = metrics, self.ctx.painter
        rect, pad = banner.rect, m.u(14)
        painter.box(surface, rect, banner.fill, (255, 255, 255), m.u(2), m.u(12))
        clock = painter.text(
            surface,
            banner.clock,
            (rect.right - pad, rect.centery),
            m.big,
            banner.ink,
            bold=True,
            anchor="midright",
        )
        if banner.label:
            painter.text(
                surface,
                banner.label,
                (rect.left + pad, rect.centery),
                m.text,
                banner.ink,
                bold=True,
                anchor="midleft",
                max_width=max(m.u(40), clock.left - rect.left - 2 * pad),
            )


@dataclass(frozen=True)
class Banner:
    rect: pygame.Rect
    label: str  # "Station 2 · Red" (empty when only the countdown fits)
    clock: str  # "12:34", "Paused", "Move 00:45"
    fill: tuple[int, int, int]
    ink: tuple[int, int, int]


def _clear_columns(surface: pygame.Surface, y: int, height: int, m: Metrics) -> Any:
    """Per column of the strip at ``y``: True where ``surface`` shows only the background."""
    import numpy as np

    area = pygame.Rect(0, y - 2, m.width, height + 4).clip(surface.get_rect())
    if area.height <= 0 or area.width <= 0:
        return np.zeros(0, dtype=bool)
    sub = surface.subsurface(area)
    background = sub.map_rgb(PALETTE.background)
    try:
        pixels = pygame.surfarray.pixels2d(sub)  # a view, no copy (32-bit surfaces)
    except (ValueError, pygame.error):
        rgb = pygame.surfarray.array3d(sub).astype(np.int16)
        return (np.abs(rgb - np.array(PALETTE.background)).max(axis=2) == 0).all(axis=1)
    try:
        return (pixels == background).all(axis=1)
    finally:
        del pixels  # unlock the surface


def _clear_spot(
    strips: Sequence[tuple[int, Any]], width: int, height: int, m: Metrics
) -> pygame.Rect | None:
    """The rightmost place in the first of the ``strips`` ((top, clear columns), in
    order) with room for a ``width`` x ``height`` banner; None if there is none."""
    import numpy as np

    pad, margin = m.u(6), m.u(8)
    need = width + 2 * pad
    for y, clear in strips:
        usable = np.asarray(clear, dtype=bool).copy()
        usable[:margin] = False
        usable[max(0, len(usable) - margin) :] = False
        if len(usable) < need:
            continue
        sums = np.concatenate(([0], np.cumsum(usable)))
        starts = np.nonzero(sums[need:] - sums[:-need] == need)[0]
        if len(starts):
            return pygame.Rect(int(starts[-1]) + pad, y, width, height)
    return None


def _free_spot(
    width: int,
    height: int,
    m: Metrics,
    blockers: Sequence[pygame.Rect],
    strips: Sequence[int] | None = None,
) -> pygame.Rect | None:
    """The rightmost place in the top strip (then the bottom one) where a ``width`` x
    ``height`` banner covers no button; None if there is none."""
    margin = m.u(8)
    for y in strips or (m.u(4), m.height - m.u(4) - height):
        strip = pygame.Rect(0, y - margin // 2, m.width, height + margin)
        x, free = margin, []
        for left, right in sorted((b.left, b.right) for b in blockers if b.colliderect(strip)):
            if left - margin - x >= width:
                free.append((x, left - margin))
            x = max(x, right + margin)
        if m.width - margin - x >= width:
            free.append((x, m.width - margin))
        if free:
            right = free[-1][1]
            return pygame.Rect(right - width, y, width, height)
    return None


def called(group: str) -> str:
    """How a group is named in a sentence: "Group Red", but "Group 1" and "Team A" as
    they are."""
    return group if group.lower().startswith(("group", "team")) else f"Group {group}"


def _lit(lamps: Any) -> list[int]:
    """The seats lit now, when the lamps can tell (to put them back after a flash)."""
    lit = getattr(lamps, "lit", None)
    if isinstance(lit, set | frozenset | list | tuple):
        return sorted(int(s) for s in lit)
    is_lit = getattr(lamps, "is_lit", None)
    if callable(is_lit):
        try:
            return [s for s in range(SEATS) if is_lit(s)]
        except Exception:  # a lamp that cannot say is left dark
            return []
    return []


def finish_games(ctx: Context) -> int:
    """Save every game on the stack that is still being played as finished for "time",
    with its standings; returns how many. A scene without ``save`` and ``standings()``
    is left alone; a failure is logged and the others are still saved."""
    done = 0
    for scene in reversed(list(ctx.stack)):
        save = getattr(scene, "save", None)
        standings = getattr(scene, "standings", None)
        if save is None or not callable(standings) or not callable(getattr(save, "finish", None)):
            continue
        if not _still_playing(ctx, save):
            continue
        try:
            save.finish(standings(), reason="time")
            done += 1
            log.info("rotation: %s saved as finished for time", type(scene).__name__)
        except Exception:
            log.exception("rotation: %s could not be finished for time", type(scene).__name__)
    return done


def _still_playing(ctx: Context, save: Any) -> bool:
    match_id = getattr(save, "id", None)
    if match_id is None:
        return True
    try:
        row = ctx.journal.db.execute(
            "SELECT status FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
    except sqlite3.Error:
        return True
    return row is None or row[0] == "playing"


def restore_rotation(ctx: Context, *, wall: Callable[[], float] | None = None) -> Any:
    """At start: the rotation this device was running before it stopped, carried on
    with its stored clock in ``ctx.rotation`` (also returned); None if there is none.

    Call it before Home is shown: a game whose rotation ran out while the device was
    off is finished for "time" here (:func:`finish_stale_games`), so Home does not offer
    to carry on with it."""
    try:
        stored = running_rotation(ctx.journal)
    except TabletopError as exc:
        log.error("rotation: %s", exc.message)
        return None
    if stored is None:
        return None
    runner = RotationRunner(ctx, stored, wall=wall)
    log.info(
        "rotation %d restored: station %d, rotation %d, %s",
        stored.id,
        stored.station + 1,
        runner.moment.rotation + 1,
        runner.moment.phase,
    )
    finish_stale_games(ctx, runner)
    if runner.moment.done:
        runner._finish()
        return None
    ctx.rotation = runner
    return runner


def finish_stale_games(ctx: Context, runner: RotationRunner) -> int:
    """Games left unfinished in a rotation whose time ran out while the device was off:
    each is rebuilt from the journal and finished for "time" with its standings. Returns
    how many; a game that cannot be rebuilt is left for Home to offer, and logged."""
    from tabletop.ui.games import resume_game
    from tabletop.ui.saves import unfinished

    clock, now = runner.clock, runner.moment
    done = 0
    try:
        waiting = unfinished(ctx)
    except Exception as exc:
        log.error("rotation: the unfinished games could not be listed: %s", exc)
        return 0
    for saved in waiting:
        if saved.started < clock.started_at:
            continue  # from before the rotation
        then = clock.now(saved.started)
        if then.done:
            continue  # played after it
        played_in = then.rotation + (1 if then.phase == "transition" else 0)
        if not (
            now.done
            or played_in < now.rotation
            or (played_in == now.rotation and now.phase == "transition")
        ):
            continue  # its rotation is still on: Home offers to carry on
        try:
            scene = resume_game(ctx, saved)
            scene.save.finish(scene.standings(), reason="time")
        except Exception as exc:
            log.error("rotation: match %d could not be finished for time: %s", saved.id, exc)
            continue
        done += 1
        log.info("rotation: match %d (%s) finished for time after a restart", saved.id, saved.game)
    return done


def rotation_menu(ctx: Context) -> Scene:
    """The teacher menu's "Station rotation": the controls while one runs, else the editor.
    On a fleet device (``ctx.fleet``) only the controls, which show the rotation but
    leave it to the teacher's dashboard."""
    if getattr(ctx, "fleet", None) is not None:
        return RotationControl(ctx)
    if isinstance(ctx.rotation, RotationRunner) and not ctx.rotation.finished:
        return RotationControl(ctx)
    return RotationEditor(ctx)


def run_rotation(ctx: Context, stored: StoredRotation) -> RotationRunner:
    """Run a stored rotation on this device: ``ctx.rotation``, then Home and the station
    screen over it (the editor's Start, and a plan from the teacher's console)."""
    from tabletop.ui.scenes.home import HomeScene

    runner = RotationRunner(ctx, stored)
    ctx.rotation = runner
    if len(ctx.stack):
        ctx.stack.unwind_to(HomeScene)
    ctx.stack.push(StationScene(ctx, runner))
    return runner


def open_game(ctx: Context, game: str) -> Scene | None:
    """The game's first screen (players, mode, options), as Home opens it."""
    from tabletop.ui.games import game_app

    module = game_app(game)
    return None if module is None else module.setup_scene(ctx)


def mode_button(game: str, mode: str) -> str:
    """The button on the game's setup screen that shows a station's mode."""
    if game == "math-arena":
        return {"cards": "cards.real", "virtual": "cards.virtual"}.get(mode, f"cards.{mode}")
    if game == "math-attack":  # two children: real cards; against the device: virtual
        return {"table": "cards.real", "bot": "cards.virtual"}.get(mode, f"cards.{mode}")
    if game == "mathe-meister":  # the solo modes have a row of their own
        from tabletop.ui.games.mathe_meister.setup import mode_target

        return mode_target(mode)
    return f"mode.{mode}"


def choose_setup(setup: Scene, station: Station) -> None:
    """Choose on the setup screen the mode and the options the teacher chose for this
    station: the group finds the game set up as planned, and may still change it. The
    one setup form (:class:`tabletop.ui.scenes.form.FormScene`) takes them as they are;
    an older setup screen gets its own buttons pressed, as a child would."""
    preset = getattr(setup, "preset", None)
    if callable(preset):
        preset(station.mode, station.options)
        return
    names = [mode_button(station.game, station.mode)]
    names += [f"{key}.{value}" for key, value in station.options.items()]
    for name in names:
        button = setup.target(name)
        if button is None or not button.enabled:
            log.warning("rotation: %s's setup has no button %s to press", station.game, name)
        elif not button.selected:
            setup.press(name)


# -- the station screen -----------------------------------------------------------------------


class StationScene(Scene):
    """Time's up (where the leaving group goes), the arriving group's welcome, and a
    button to start this station's game; at the end, the rotation is over."""

    rotation_banner = False

    def __init__(self, ctx: Context, runner: RotationRunner, *, ended: int | None = None) -> None:
        super().__init__(ctx)
        self.runner = runner
        self.ended = ended  # the rotation whose time just ran out, if any
        self.message = ""

    @property
    def station(self) -> Station:
        return self.runner.plan.stations[self.runner.station]

    def leaving(self) -> str | None:
        """The sentence for the group that just finished here."""
        if self.ended is None:
            return None
        plan = self.runner.plan
        group = plan.group_at(self.runner.station, self.ended)
        if group is None:
            return None
        nxt = plan.station_of(group, self.ended + 1)
        if nxt is None or self.runner.moment.done:
            return f"{called(group)}: well done! The rotation is over."
        return f"{called(group)}: go to {plan.station_title(nxt)}"

    def welcome(self) -> tuple[str, str, str]:
        """For the group that plays here now: who (large), where, and the details:
        ``"Group Red,"``, ``"this is Station 2: Math Wars Meta"``, the mode and round."""
        runner, now = self.runner, self.runner.moment
        if now.done:
            return "All done!", "The station rotation is over. Thank you!", ""
        group = runner.group
        number = now.rotation + (1 if now.phase == "transition" else 0)
        rounds = f"Rotation {number + 1} of {runner.plan.count}"
        if group is None:
            return "No group here now", f"{runner.title} rests.", rounds
        return (
            f"{called(group)},",
            f"this is {runner.title}",
            " \u00b7 ".join(
                [f"Mode: {self.station.mode_name}", *self.station.option_names, rounds]
            ),
        )

    def welcome_text(self) -> str:
        return " ".join(part for part in self.welcome() if part)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        h = m.u(60)
        y = H - m.u(16) - h
        now = self.runner.moment
        can_start = not now.done and self.runner.group is not None
        self.buttons = [
            Button("home", pygame.Rect(m.u(16), y, m.u(200), h), "Home", kind="quiet"),
            Button(
                "start",
                pygame.Rect(W - m.u(16) - m.u(360), y, m.u(360), h),
                f"Play {GAME_TITLES.get(self.station.game, self.station.game)}",
                enabled=can_start,
            ),
        ]

    def update(self, now: float) -> bool:
        start = self.target("start")
        can_start = not self.runner.moment.done and self.runner.group is not None
        if start is not None and start.enabled != can_start:
            self.layout(self.m)
            return True
        return False

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        if name == "home":
            if len(self.stack) > 1:
                self.stack.pop()
        elif name == "start":
            scene = open_game(self.ctx, self.station.game)
            if scene is None:
                self.message = "This game cannot start on this device."
                log.error("rotation: no screen for %s", self.station.game)
                return
            self.stack.push(scene)
            choose_setup(scene, self.station)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        now = self.runner.moment
        surface.fill(p.background)
        # The countdown, top right: to the next rotation in a transition, else to play.
        room = m.width - m.u(32)
        if not now.done:
            words = "Paused" if now.paused else now.countdown()
            caption = (
                "until the next group starts"
                if now.phase == "transition"
                else "to play"
                if not now.paused
                else "the teacher paused the clock"
            )
            clock = painter.text(
                surface,
                words,
                (m.width - m.u(16), m.u(4)),
                m.u(46),
                p.bad if now.phase == "warning" else p.ink,
                bold=True,
                anchor="topright",
            )
            painter.text(
                surface, caption, (m.width - m.u(16), m.u(58)), m.small, p.muted, anchor="topright"
            )
            room = clock.left - m.u(28)
        # The title, left of the countdown (a long station name shrinks, then is cut:
        # the panel below shows it whole).
        title = "Time's up!" if self.ended is not None else self.runner.title
        painter.text(
            surface, title, (m.u(16), m.u(10)), m.title + m.u(6), bold=True, max_width=room
        )
        y = m.u(84)
        width = m.width - m.u(32)
        leaving = self.leaving()
        if leaving:
            box = pygame.Rect(m.u(16), y, width, m.u(104))
            painter.box(surface, box, ORANGE, p.line, m.u(3), m.u(14))
            inner = box.inflate(-m.u(24), -m.u(12))
            lines = painter.wrap(leaving, m.big + m.u(2), inner.width, True)
            h = len(lines) * painter.fonts.font(m.big + m.u(2), True).get_linesize()
            inner.top += max(0, (inner.height - h) // 2)
            painter.paragraph(
                surface, leaving, inner, m.big + m.u(2), p.ink, bold=True, align="center"
            )
            y = box.bottom + m.u(12)
        who, where, detail = self.welcome()
        bottom = self.buttons[0].rect.top - m.u(12)
        box = pygame.Rect(m.u(16), y, width, bottom - y)
        painter.box(surface, box, p.panel, p.button, m.u(3), m.u(14))
        inner = box.inflate(-m.u(24), -m.u(12))
        # Centred in the panel: who large, where big, the details small.
        who_size = m.u(44) if leaving is None else m.big + m.u(6)
        where_size = m.big + m.u(2) if leaving is None else m.big
        parts = [(who, who_size, p.ink, True), (where, where_size, p.ink, True)]
        if detail:
            parts.append((detail, m.text, p.muted, False))
        heights = []
        for text, size, _, bold in parts:
            lines = painter.wrap(text, size, inner.width, bold)
            heights.append(len(lines) * painter.fonts.font(size, bold).get_linesize())
        y = inner.top + max(0, (inner.height - sum(heights) - m.u(6) * (len(parts) - 1)) // 2)
        for (text, size, colour, bold), h in zip(parts, heights):
            area = pygame.Rect(inner.left, y, inner.width, min(h, inner.bottom - y))
            painter.paragraph(surface, text, area, size, colour, bold=bold, align="center")
            y += h + m.u(6)
        painter.buttons(surface, self.buttons)
        if self.message:
            painter.text(
                surface,
                self.message,
                (m.width // 2, self.buttons[0].rect.top - m.u(6)),
                m.small,
                p.bad,
                anchor="midbottom",
            )


# -- the plan editor -------------------------------------------------------------------------


def class_groups(journal: Any) -> list[str]:
    """The groups of the class list, if it has any (the roster module when it is there,
    else the journal's ``students`` table)."""
    import importlib

    try:  # the class list is written by another part of issue 10
        roster: Any = importlib.import_module("tabletop.classroom.roster")
    except ImportError:
        roster = None
    groups_of = getattr(roster, "groups", None)
    if callable(groups_of):
        try:
            found = [str(g).strip() for g in groups_of(journal) if isinstance(g, str)]
            return [g for g in dict.fromkeys(found) if g]
        except Exception as exc:  # fall back to the table itself
            log.warning("rotation: the class list's groups: %s", exc)
    try:
        rows = journal.db.execute(
            "SELECT DISTINCT grp FROM students WHERE grp != '' ORDER BY grp"
        ).fetchall()
    except (sqlite3.Error, AttributeError):
        return []
    return [str(r[0]).strip() for r in rows if str(r[0]).strip()]


@dataclass
class Draft:
    """The plan being edited (mutable; :meth:`plan` validates it)."""

    stations: list[Station] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    minutes: int = 15
    transition: int = 1
    warning: int = 1
    rounds: int = 0  # 0: one per station
    here: int = 0  # this device's station, 0-based

    @classmethod
    def start(cls, ctx: Context) -> Draft:
        """The last plan stored (a teacher often reuses it), else four stations and
        the class list's groups (or Group 1..4)."""
        plan = last_plan(ctx.journal)
        if plan is not None:
            return cls(
                list(plan.stations),
                list(plan.groups),
                plan.minutes,
                plan.transition,
                plan.warning,
                plan.rotations or 0,
            )
        stations = [Station(g) for g in DEFAULT_GAMES]
        groups = class_groups(ctx.journal) or [f"Group {i + 1}" for i in range(len(stations))]
        return cls(stations, groups)

    @property
    def rotations(self) -> int:
        return self.rounds or len(self.stations)

    def plan(self) -> Plan:
        rounds = self.rounds if self.rounds and self.rounds != len(self.stations) else None
        return Plan(
            tuple(self.stations),
            tuple(self.groups),
            self.minutes,
            self.transition,
            self.warning,
            rounds,
        )

    def step(self, what: str, delta: int) -> None:
        n = len(self.stations)
        if what == "minutes":
            self.minutes = _clamp(self.minutes + delta, *MINUTES)
        elif what == "transition":
            self.transition = _clamp(self.transition + delta, *TRANSITION)
        elif what == "warning":
            self.warning = _clamp(self.warning + delta, *WARNING)
        elif what == "rounds":
            self.rounds = _clamp(self.rotations + delta, 1, max(1, n))
        elif what == "here":
            self.here = _clamp(self.here + delta, 0, max(0, n - 1))

    def fit(self) -> None:
        """Keep the rounds and this device's station inside the stations there are."""
        n = len(self.stations)
        self.rounds = min(self.rounds, n) if self.rounds else 0
        self.here = min(self.here, max(0, n - 1))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


STEPPERS = (
    ("minutes", "Minutes"),
    ("transition", "Moving"),
    ("warning", "Warning"),
    ("rounds", "Rounds"),
    ("here", "This device"),
)


class RotationEditor(Scene):
    """The teacher's plan: stations, groups, times; Start runs it on this device."""

    speaks = False  # a teacher's screen

    rotation_banner = False

    def __init__(self, ctx: Context, draft: Draft | None = None) -> None:
        super().__init__(ctx)
        self.draft = draft or Draft.start(ctx)
        self.message = ""
        self.editing: int | None = None  # the station a picker is open for

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        d = self.draft
        margin, gap = m.u(16), m.u(6)
        top = m.u(76)
        bh = m.u(56)
        bottom = H - margin - bh - m.u(8)
        left_w = m.u(380)
        b: list[Button] = []
        # Stations: two columns of tiles, "+ Station" after the last.
        rows = 4
        tw = (left_w - gap) // 2
        th = (bottom - top - (rows - 1) * gap) // rows
        tiles = len(d.stations) + (len(d.stations) < MAX_STATIONS)
        for i in range(tiles):
            rect = pygame.Rect(
                margin + (i // rows) * (tw + gap), top + (i % rows) * (th + gap), tw, th
            )
            if i < len(d.stations):
                s = d.stations[i]
                b.append(
                    Button(
                        f"station.{i}",
                        rect,
                        f"{i + 1}. {s.name}",
                        kind="toggle",
                        selected=i == d.here,
                        caption=s.mode_name + (" \u00b7 this device" if i == d.here else ""),
                    )
                )
            else:
                b.append(Button("station.add", rect, "+ Station", kind="quiet"))
        # The right column: groups, then the steppers.
        x = margin + left_w + m.u(20)
        right_w = W - margin - x
        label_w = m.u(130)
        rh = (bottom - top - len(STEPPERS) * gap) // (len(STEPPERS) + 1)
        self.label_x = x
        self.labels: list[tuple[str, int]] = [("Groups", top + rh // 2)]
        self.values: list[tuple[str, tuple[int, int]]] = []
        b.append(
            Button(
                "groups",
                pygame.Rect(x + label_w, top, right_w - label_w, rh),
                f"{len(d.groups)} groups" if len(d.groups) != 1 else "1 group",
                kind="quiet",
                caption=", ".join(d.groups),
            )
        )
        sw = m.u(52)
        y = top
        for key, label in STEPPERS:
            y += rh + gap
            self.labels.append((label, y + rh // 2))
            b.append(
                Button(f"{key}.-", pygame.Rect(x + label_w, y, sw, rh), "\u2212", kind="quiet")
            )
            b.append(
                Button(f"{key}.+", pygame.Rect(x + right_w - sw, y, sw, rh), "+", kind="quiet")
            )
            middle = x + label_w + sw + (right_w - label_w - 2 * sw) // 2
            self.values.append((self.value(key), (middle, y + rh // 2)))
        y = H - margin - bh
        b.append(Button("back", pygame.Rect(margin, y, m.u(180), bh), "Back", kind="quiet"))
        b.append(
            Button("start", pygame.Rect(W - margin - m.u(260), y, m.u(260), bh), "Start rotation")
        )
        self.message_y = y + bh // 2
        self.buttons = b

    def value(self, key: str) -> str:
        d = self.draft
        if key == "minutes":
            return f"{d.minutes} min"
        if key == "transition":
            return f"{d.transition} min"
        if key == "warning":
            return f"{d.warning} min" if d.warning else "none"
        if key == "rounds":
            return f"{d.rotations} of {len(d.stations)}"
        return f"Station {d.here + 1}"

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="back")

    def press(self, name: str) -> None:
        d = self.draft
        self.message = ""
        if name == "back":
            self.stack.pop()
            return
        if name == "start":
            self.start()
            return
        if name == "groups":
            self.stack.push(GroupsScene(self.ctx, d.groups))
            return
        if name == "station.add":
            self.editing = len(d.stations)
            self.stack.push(StationPicker(self.ctx, len(d.stations), None))
            return
        if name.startswith("station."):
            i = int(name.split(".")[1])
            self.editing = i
            self.stack.push(StationPicker(self.ctx, i, d.stations[i]))
            return
        if name.endswith((".-", ".+")):
            key, sign = name.rsplit(".", 1)
            d.step(key, 1 if sign == "+" else -1)
        self.layout(self.m)

    def resume(self, result: Any) -> None:
        d = self.draft
        editing, self.editing = self.editing, None
        if isinstance(result, Station) and editing is not None:
            if editing < len(d.stations):
                d.stations[editing] = result
            else:
                d.stations.append(result)
        elif result == "remove" and editing is not None and editing < len(d.stations):
            del d.stations[editing]
        elif isinstance(result, list) and all(isinstance(g, str) for g in result):
            d.groups = list(result)
        d.fit()
        self.layout(self.m)

    def start(self) -> None:
        d = self.draft
        try:
            plan = d.plan()
            stored = start_rotation(
                self.ctx.journal,
                plan,
                d.here,
                session=self.ctx.session,
                now=_wall(self.ctx),
            )
        except BadInput as exc:
            self.ctx.sounds.play("wrong")
            self.message = exc.message[0].upper() + exc.message[1:] + "."
            log.info("rotation: plan refused: %s", exc.message)
            return
        except TabletopError as exc:
            self.ctx.sounds.play("wrong")
            self.message = "The rotation could not be saved. Try again."
            log.error("rotation: %s: %s", exc.code, exc.message)
            return
        log.info(
            "rotation %d started: %d stations, %d groups, %d min, this device station %d",
            stored.id,
            len(plan.stations),
            len(plan.groups),
            plan.minutes,
            stored.station + 1,
        )
        self.ctx.sounds.play("good")
        run_rotation(self.ctx, stored)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(self, surface, "Station rotation", "Tap a station to change its game.")
        for text, y in self.labels:
            painter.text(
                surface,
                text,
                (self.label_x, y),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=m.u(126),
            )
        for value, centre in self.values:
            painter.text(
                surface, value, centre, m.text, bold=True, anchor="center", max_width=m.u(130)
            )
        painter.buttons(surface, self.buttons)
        if self.message:
            back = self.target("back")
            start = self.target("start")
            assert back is not None and start is not None
            area = pygame.Rect(
                back.rect.right + m.u(10),
                back.rect.top - m.u(8),
                start.rect.left - back.rect.right - m.u(20),
                back.rect.height + m.u(16),
            )
            painter.paragraph(surface, self.message, area, m.small, p.bad, bold=True)


class StationPicker(Scene):
    """One station: its game (the five), its mode and the game's options (each preset,
    or left to the group). Pops with a :class:`Station`, ``"remove"``, or None."""

    speaks = False  # a teacher's screen

    rotation_banner = False

    def __init__(self, ctx: Context, index: int, station: Station | None) -> None:
        super().__init__(ctx)
        self.index = index
        self.new = station is None
        self.station = station or Station("mathe-meister")
        self.message = ""

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin, gap = m.u(16), m.u(10)
        st = self.station
        b: list[Button] = []
        y = m.u(96)
        compact = len(STATION_OPTIONS[st.game]) > 1  # two option rows (M.E.C.S.) must fit
        h = m.u(48 if compact else 64)
        games = list(GAME_TITLES.items())
        w = (W - 2 * margin - 2 * gap) // 3
        for i, (key, title) in enumerate(games):
            rect = pygame.Rect(margin + (i % 3) * (w + gap), y + (i // 3) * (h + gap), w, h)
            b.append(Button(f"game.{key}", rect, title, kind="toggle", selected=key == st.game))
        y += 2 * (h + gap) + m.u(28 if compact else 34)
        self.rows = [("Mode", y - m.u(16))]
        modes = STATION_MODES[st.game]
        per_row = 4
        mw = (W - 2 * margin - (per_row - 1) * gap) // per_row
        mh = m.u(44 if compact else 52)
        for i, (key, name) in enumerate(modes):
            rect = pygame.Rect(
                margin + (i % per_row) * (mw + gap), y + (i // per_row) * (mh + gap), mw, mh
            )
            b.append(Button(f"mode.{key}", rect, name, kind="toggle", selected=key == st.mode))
        y += ((len(modes) + per_row - 1) // per_row) * (mh + gap)
        # Each option on a row: its name, "Group chooses", then its values.
        label_w = m.u(110)
        for key, label, values in STATION_OPTIONS[st.game]:
            self.rows.append((label, y + mh // 2))
            choices = [("", "Group chooses"), *values]
            ow = (W - 2 * margin - label_w - (len(choices) - 1) * gap) // len(choices)
            for i, (value, name) in enumerate(choices):
                rect = pygame.Rect(margin + label_w + i * (ow + gap), y, ow, mh)
                chosen = st.options.get(key, "") == value
                b.append(Button(f"opt.{key}.{value}", rect, name, kind="toggle", selected=chosen))
            y += mh + gap
        bh = m.u(56)
        y = H - margin - bh
        b.append(Button("cancel", pygame.Rect(margin, y, m.u(180), bh), "Cancel", kind="quiet"))
        if not self.new:
            b.append(
                Button(
                    "remove",
                    pygame.Rect(W // 2 - m.u(120), y, m.u(240), bh),
                    "Remove station",
                    kind="quiet",
                )
            )
        b.append(Button("done", pygame.Rect(W - margin - m.u(200), y, m.u(200), bh), "Done"))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="cancel")

    def press(self, name: str) -> None:
        st, self.message = self.station, ""
        if name == "cancel":
            self.stack.pop(None)
        elif name == "remove":
            self.stack.pop("remove")
        elif name == "done":
            self.stack.pop(st)
        elif name.startswith("game."):
            if name[5:] != st.game:  # another game: its first mode, no options, its name
                self._change(game=name[5:], mode="", options={}, name="")
        elif name.startswith("mode."):
            self._change(mode=name[5:])
        elif name.startswith("opt."):
            key, value = name[4:].split(".", 1)
            options = {k: v for k, v in st.options.items() if k != key}
            if value:
                options[key] = value
            self._change(options=options)

    def _change(self, **changes: Any) -> None:
        try:
            self.station = replace(self.station, **changes)
        except BadInput as exc:  # a mode and an option that do not go together
            self.ctx.sounds.play("wrong")
            self.message = exc.message
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(
            self,
            surface,
            f"Station {self.index + 1}",
            "" if self.message else "Which game is played here?",
        )
        if self.message:  # where the question was, down to the games: what is wrong, in red
            room = pygame.Rect(m.u(18), m.u(12) + m.title, m.width - m.u(36), m.u(84) - m.title)
            painter.paragraph(surface, self.message, room, m.small, p.bad, bold=True)
        for label, y in self.rows:
            painter.text(surface, label, (m.u(16), y), m.text, bold=True, anchor="midleft")
        painter.buttons(surface, self.buttons)


class GroupsScene(Scene):
    """The groups' names: tap one to rename it, add, remove the last, or take the class
    list's groups. Pops with the list of names, or None."""

    speaks = False  # a teacher's screen

    rotation_banner = False

    def __init__(self, ctx: Context, groups: Sequence[str]) -> None:
        super().__init__(ctx)
        self.groups = list(groups)
        self.renaming: int | None = None
        self.from_class = class_groups(ctx.journal)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin, gap = m.u(16), m.u(10)
        top = m.u(70)
        bh = m.u(56)
        h = m.u(58)
        w = (W - 2 * margin - gap) // 2
        b: list[Button] = []
        for i, name in enumerate(self.groups):
            rect = pygame.Rect(margin + (i % 2) * (w + gap), top + (i // 2) * (h + gap), w, h)
            b.append(Button(f"group.{i}", rect, f"{i + 1}. {name}", kind="toggle"))
        y = H - margin - bh
        row = H - margin - 2 * bh - gap
        bw = (W - 2 * margin - 2 * gap) // 3
        b.append(
            Button(
                "add",
                pygame.Rect(margin, row, bw, bh),
                "+ Group",
                kind="quiet",
                enabled=len(self.groups) < MAX_STATIONS,
            )
        )
        b.append(
            Button(
                "remove",
                pygame.Rect(margin + bw + gap, row, bw, bh),
                "\u2212 Last group",
                kind="quiet",
                enabled=len(self.groups) > 1,
            )
        )
        b.append(
            Button(
                "class",
                pygame.Rect(margin + 2 * (bw + gap), row, bw, bh),
                "From the class list",
                kind="quiet",
                enabled=bool(self.from_class),
            )
        )
        b.append(Button("cancel", pygame.Rect(margin, y, m.u(180), bh), "Cancel", kind="quiet"))
        b.append(Button("done", pygame.Rect(W - margin - m.u(200), y, m.u(200), bh), "Done"))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="cancel")

    def press(self, name: str) -> None:
        from tabletop.ui.scenes.names import NameScene

        if name == "cancel":
            self.stack.pop(None)
            return
        if name == "done":
            self.stack.pop(list(self.groups))
            return
        if name == "add":
            self.groups.append(self._free_name())
        elif name == "remove" and len(self.groups) > 1:
            self.groups.pop()
        elif name == "class" and self.from_class:
            self.groups = list(self.from_class[:MAX_STATIONS])
        elif name.startswith("group."):
            self.renaming = int(name.split(".")[1])
            current = self.groups[self.renaming]
            self.stack.push(NameScene(self.ctx, current, title="The group's name"))
            return
        self.layout(self.m)

    def _free_name(self) -> str:
        n = len(self.groups) + 1
        while f"Group {n}" in self.groups:
            n += 1
        return f"Group {n}"

    def resume(self, result: Any) -> None:
        i, self.renaming = self.renaming, None
        if i is not None and isinstance(result, str) and result.strip():
            name = result.strip().title()
            if name not in self.groups:
                self.groups[i] = name
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, p = self.ctx.painter, self.ctx.painter.p
        surface.fill(p.background)
        header(self, surface, "Groups", "Tap a group to change its name.")
        painter.buttons(surface, self.buttons)


# -- the teacher's controls ----------------------------------------------------------------------


class RotationControl(Scene):
    """Pause, Resume, +1 minute, Skip, End for the rotation that runs."""

    speaks = False  # a teacher's screen

    rotation_banner = False

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.asking = ""  # "skip" or "end" while the Confirm is up

    @property
    def runner(self) -> RotationRunner | None:
        rotation = self.ctx.rotation
        return rotation if isinstance(rotation, RotationRunner) else None

    @property
    def follows(self) -> bool:
        """A fleet device: the rotation is the teacher's dashboard's to change."""
        return getattr(self.ctx, "fleet", None) is not None

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin, gap = m.u(16), m.u(10)
        runner = self.runner
        now = runner.moment if runner else None
        running = now is not None and not now.done
        paused = bool(now and now.paused)
        running = running and not self.follows  # the teacher's dashboard has them
        h = m.u(72)
        y = m.u(250)
        w = (W - 2 * margin - 4 * gap) // 5
        specs = (
            ("pause", "Pause", running and not paused),
            ("resume", "Resume", running and paused),
            ("extend", "+1 minute", running),
            ("skip", "Skip", running),
            ("end", "End", running),
        )
        b = [
            Button(key, pygame.Rect(margin + i * (w + gap), y, w, h), label, enabled=on)
            for i, (key, label, on) in enumerate(specs)
        ]
        bh = m.u(56)
        b.append(
            Button("back", pygame.Rect(margin, H - margin - bh, m.u(180), bh), "Back", kind="quiet")
        )
        self.buttons = b

    def update(self, now: float) -> bool:
        self.layout(self.m)  # the buttons follow the clock (paused or not, over)
        return False

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="back")

    def press(self, name: str) -> None:
        runner = self.runner
        if name == "back" or runner is None:
            self.stack.pop()
            return
        if self.follows:
            return
        if name == "pause":
            runner.pause()
        elif name == "resume":
            runner.resume()
        elif name == "extend":
            runner.extend(1)
        elif name == "skip":
            self.asking = "skip"
            self.stack.push(
                Confirm(self.ctx, "Time's up now for this rotation?", yes="Skip", no="Keep going")
            )
            return
        elif name == "end":
            self.asking = "end"
            self.stack.push(
                Confirm(self.ctx, "End the whole station rotation?", yes="End", no="Keep going")
            )
            return
        log.info("rotation: the teacher pressed %s", name)
        if self.stack.top is self:
            self.layout(self.m)

    def resume(self, result: Any) -> None:
        asked, self.asking = self.asking, ""
        runner = self.runner
        if result == "yes" and runner is not None and asked:
            log.info("rotation: the teacher pressed %s", asked)
            # Time is up now: the runner saves the games and shows the station screen.
            if asked == "skip":
                runner.skip()
            else:
                runner.end()
            return
        if self.stack.top is self:
            self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        runner = self.runner
        header(self, surface, "Station rotation", "The rotation running on this device.")
        if self.follows:
            y = self.buttons[0].rect.bottom + m.u(16)
            painter.text(
                surface,
                FOLLOWS,
                (m.u(16), y),
                m.text + m.u(2),
                p.bad,
                bold=True,
                max_width=m.width - m.u(32),
            )
            connected, line = self.ctx.fleet.connection()
            painter.text(
                surface,
                line,
                (m.u(16), y + m.text + m.u(12)),
                m.text,
                p.good if connected else p.bad,
                max_width=m.width - m.u(32),
            )
        if runner is None:
            painter.text(surface, "No rotation is running.", (m.u(16), m.u(100)), m.big, bold=True)
            painter.buttons(surface, self.buttons)
            return
        now = runner.moment
        state = {
            "play": "playing",
            "warning": "last minutes",
            "transition": "groups are moving",
            "done": "over",
        }[now.phase]
        if now.paused:
            state += " (paused)"
        lines = [
            f"This device: {runner.plan.station_title(runner.station)}",
            f"Rotation {now.rotation + 1} of {runner.plan.count}: {state}",
            f"Here: {runner.group or 'no group'} \u00b7 {now.countdown()} left",
        ]
        if not now.done:
            rotation = now.rotation + (1 if now.phase == "transition" else 0)
            where = []
            for g in runner.plan.groups:
                station = runner.plan.station_of(g, rotation)
                if station is not None:
                    where.append(f"{g} at {station + 1}")
            if where:
                lines.append(
                    ("Next: " if now.phase == "transition" else "Now: ") + ", ".join(where)
                )
        y = m.u(80)
        for line in lines:
            painter.text(
                surface, line, (m.u(16), y), m.text + m.u(2), bold=True, max_width=m.width - m.u(32)
            )
            y += m.text + m.u(16)
        painter.buttons(surface, self.buttons)


__all__ = [
    "Draft",
    "GroupsScene",
    "RotationControl",
    "RotationEditor",
    "RotationRunner",
    "StationPicker",
    "StationScene",
    "class_groups",
    "finish_games",
    "finish_stale_games",
    "open_game",
    "restore_rotation",
    "rotation_menu",
    "run_rotation",
]
