"""The running rotation, a :class:`RotationRunner` in ``ctx.rotation``: the app calls its
``update()`` every frame and keeps a strip at the bottom of the screen (``strip()``) for
its banner: station, group and countdown. At the warning it sounds and flashes every
seat's LED; at time up it saves the games on the stack as finished for "time", goes
Home and shows :class:`StationScene` (where the groups go next), whose button opens the
station's game set up as planned. Times are wall-clock seconds from ``ctx.wall``, so a
device that reboots carries on (:func:`restore_rotation`). The teacher's screens for
rotations are in :mod:`tabletop.ui.scenes.rotation_editor`."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from tabletop.classroom.rotation import (
    GAME_TITLES,
    Moment,
    Plan,
    RotationClock,
    Station,
    StoredRotation,
    running_rotation,
    save_clock,
)
from tabletop.engine.errors import TabletopError
from tabletop.engine.protocol import Result
from tabletop.store import SeatInfo
from tabletop.ui.app import STRIP, Context
from tabletop.ui.messages import child_message
from tabletop.ui.results import GameResults, Outcome, ordinal, outcome_of
from tabletop.ui.saves import shown_seat_names
from tabletop.ui.scenes.common import Screen, home_and_again
from tabletop.ui.speech import sentences
from tabletop.ui.theme import ORANGE, PALETTE, Metrics

log = logging.getLogger(__name__)

SEATS = 8  # every seat's LED flashes at the warning
FLASH_STEP = 0.4  # seconds on, seconds off
FLASH_TOGGLES = 6
SOUND = "round"  # at the warning and at time up
SAVE_FAILED = child_message("ui.station_not_saved")
WHITE = (255, 255, 255)
TEACHER_ITEMS = dict(
    extend="More time (+1 minute)", pause="Pause rotation", resume="Resume rotation"
)
Part = tuple[str, int, tuple[int, int, int], bool]  # a paragraph: text, size, colour, bold


@dataclass(frozen=True)
class Banner:
    rect: pygame.Rect  # the strip, across the bottom of the screen
    label: str  # "Station 2 · Red"
    clock: str  # "12:34", "Paused", "Move 00:45"
    fill: tuple[int, int, int]
    ink: tuple[int, int, int]


class RotationRunner:
    """The rotation this device runs (``ctx.rotation``); see the module.

    ``group`` is the group that belongs at this station now (in a transition: the one
    arriving); ``moment`` the clock's :class:`Moment` at the last ``update``.
    """

    def __init__(self, ctx: Context, stored: StoredRotation) -> None:
        self.ctx = ctx
        self.stored = stored
        self.station = stored.station  # this device's station, 0-based
        self.clock: RotationClock = stored.clock
        self.wall = ctx.wall
        self.moment: Moment = self.clock.now(self.wall())
        # restored mid-warning: the warning was given
        self.warned = {self.moment.rotation} if self.moment.phase == "warning" else set()
        self.finished = False
        self._flash: tuple[float, list[int]] | None = None  # started at, lit before
        self._shown: tuple[Any, ...] = ()
        self.standings: list[str] = []  # how the games stopped at the last time up ended

    @property
    def plan(self) -> Plan:
        return self.clock.plan

    @property
    def group(self) -> str | None:
        return self.moment.group_at(self.station)

    @property
    def title(self) -> str:
        """``"Station 2: Math Wars Meta"``."""
        return f"Station {self.station + 1}: {self.plan.stations[self.station].name}"

    def update(self) -> bool:
        """Follow the clock to now: warn, end the rotation's games when time is up. True
        when the banner must be redrawn."""
        t = self.wall()
        before, now = self.moment, self.clock.now(t)
        self.moment = now
        if before.playing and (now.rotation != before.rotation or not now.playing):
            self._time_up(before.rotation, t)
        elif now.done and not before.done:  # ended by the teacher in a transition
            show_station(self.ctx, self)
        if now.phase == "warning" and now.rotation not in self.warned:
            self.warned.add(now.rotation)
            log.info("rotation: warning, %s left", now.countdown())
            self.ctx.sounds.play(SOUND)
            self._start_flash(t)
        if now.done and not self.finished:
            self.finish()
        self._flash_step(t)
        shown = (now.countdown(), now.phase, now.paused, now.rotation)
        changed, self._shown = shown != self._shown, shown
        return changed

    def _time_up(self, rotation: int, t: float) -> None:
        """The rotation's time is up: save the games, send everyone to the station screen,
        which tells the leaving group how their game ended."""
        self.warned.add(rotation)
        log.info("rotation: time is up for rotation %d at station %d", rotation, self.station + 1)
        self.ctx.sounds.play(SOUND)
        self._start_flash(t)
        self.standings = finish_games(self.ctx)
        show_station(self.ctx, self, ended=rotation)

    def finish(self) -> None:
        """The rotation is over: stored as finished, no longer ``ctx.rotation``."""
        self.finished = True
        log.info("rotation %d: over", self.stored.id)
        self._store(status="finished")
        if self.ctx.rotation is self:
            self.ctx.rotation = None

    def _start_flash(self, t: float) -> None:
        if self._flash is None:
            self._flash = (t, _lit(self.ctx.lamps))

    def _flash_step(self, t: float) -> None:
        """Every seat's LED on and off a few times, then back as it was."""
        if self._flash is None:
            return
        start, before = self._flash
        step = int(max(0.0, t - start) / FLASH_STEP)
        lamps = self.ctx.lamps
        if step >= FLASH_TOGGLES:
            lamps.light_only(before)
            self._flash = None
        else:
            lamps.light_only(range(SEATS) if step % 2 == 0 else [])

    def control(self, name: str) -> None:
        """``pause``, ``resume``, ``extend`` (by a minute), ``skip`` or ``end``: the
        clock's own change, stored and followed."""
        self._apply(getattr(self.clock, name)(self.wall()))

    def end(self) -> None:
        self.control("end")

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

    def strip(self, screen: Metrics) -> int:
        """The height of the banner's strip at the bottom of ``screen`` (the whole
        canvas's layout); 0 once the rotation is over. The app lays the scenes out and
        draws them above it, and keeps taps on it from them."""
        return 0 if self.finished or self.moment.done else screen.u(STRIP)

    def banner(self, screen: Metrics) -> Banner | None:
        """What the banner shows and where (its strip), or None when there is none."""
        height = self.strip(screen)
        if not height:
            return None
        p, now = PALETTE, self.moment
        label = f"Station {self.station + 1}"
        if self.group:
            label += f" \u00b7 {self.group}"
        if now.paused:
            clock, fill, ink = "Paused", p.muted, WHITE
        elif now.phase == "transition":
            clock, fill, ink = f"Move {now.countdown()}", p.button, WHITE
        elif now.phase == "warning":
            clock, fill, ink = now.countdown(), ORANGE, p.ink
        else:
            clock, fill, ink = now.countdown(), p.ink, WHITE
        rect = pygame.Rect(0, screen.height - height, screen.width, height)
        return Banner(rect, label, clock, fill, ink)

    def draw(self, surface: pygame.Surface, screen: Metrics) -> None:
        """The banner in its strip: the station and group at the left, the countdown at
        the right (a long group name is cut, never the countdown). Drawing only."""
        banner = self.banner(screen)
        if banner is None:
            return
        m, painter, ink = screen, self.ctx.painter, banner.ink
        rect, pad = banner.rect, m.u(16)
        surface.fill(banner.fill, rect)
        pygame.draw.line(surface, PALETTE.line, rect.topleft, rect.topright, m.u(2))
        at = (rect.right - pad, rect.centery)
        clock = painter.text(surface, banner.clock, at, m.big, ink, bold=True, anchor="midright")
        label = painter.ellipsis(banner.label, m.text, clock.left - rect.left - 3 * pad, True)
        at = (rect.left + pad, rect.centery)
        painter.text(surface, label, at, m.text, ink, bold=True, anchor="midleft")


def teacher_items(ctx: Context) -> tuple[tuple[str, str], ...]:
    """The items a game's teacher menu adds for the rotation running here: More time and
    Pause (Resume while paused), the rotation controls' own actions, keyed
    ``rotation.<control>`` (:func:`teacher_chose`); none without one, once it is over, or
    on a fleet device (the teacher's dashboard has the controls)."""
    runner = ctx.rotation
    if runner is None or runner.moment.done or ctx.fleet is not None:
        return ()
    names = ("extend", "resume" if runner.moment.paused else "pause")
    return tuple((f"rotation.{name}", TEACHER_ITEMS[name]) for name in names)


def teacher_chose(ctx: Context, choice: object) -> bool:
    """``choice`` of a game's teacher menu is one of :func:`teacher_items`: done (True),
    and the game goes on; anything else is the game's (False)."""
    runner = ctx.rotation
    if runner is None or choice not in [key for key, _ in teacher_items(ctx)]:
        return False
    log.info("rotation: the teacher chose %s in a game", choice)
    runner.control(str(choice).removeprefix("rotation."))
    return True


def called(group: str) -> str:
    """How a group is named in a sentence: "Group Red", but "Group 1" and "Team A" as
    they are."""
    return group if group.lower().startswith(("group", "team")) else f"Group {group}"


class StationScene(Screen):
    """Time's up (how the leaving group's game ended, where they go), the arriving
    group's welcome, and a button to start this station's game; at the end, the
    rotation is over. The countdown is the banner's, in its strip below."""

    back = "home"

    def __init__(
        self, ctx: Context, runner: RotationRunner, *, ended: int | None = None, note: str = ""
    ) -> None:
        super().__init__(ctx)
        self.runner = runner
        self.ended = ended  # the rotation whose time just ran out, if any
        self.note = note  # what went wrong before it showed (a game not carried on)

    @property
    def station(self) -> Station:
        return self.runner.plan.stations[self.runner.station]

    @property
    def can_start(self) -> bool:
        return not self.runner.moment.done and self.runner.group is not None

    @property
    def standings(self) -> str:
        """How the leaving group's game ended (the runner's, from the games it saved)."""
        return " ".join(self.runner.standings) if self.ended is not None else ""

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
            return child_message("ui.station_well_done", group=called(group))
        return child_message("ui.station_go", group=called(group), title=plan.station_title(nxt))

    def welcome(self) -> tuple[str, str, str]:
        """For the group that plays here now: who (large), where, and the details:
        ``"Group Red, welcome!"``, ``"This is Station 2: Math Wars Meta."``, the mode and round."""
        runner, now = self.runner, self.runner.moment
        if now.done:
            return child_message("ui.station_all_done"), child_message("ui.station_over"), ""
        group = runner.group
        rounds = f"Rotation {now.seated + 1} of {runner.plan.count}"
        if group is None:
            rests = child_message("ui.station_rests", title=runner.title)
            return child_message("ui.station_no_group"), rests, rounds
        details = [f"Mode: {self.station.mode_name}", *self.station.option_names, rounds]
        who = child_message("ui.station_welcome", group=called(group))
        return who, child_message("ui.station_here", title=runner.title), " \u00b7 ".join(details)

    def layout(self, metrics: Metrics) -> None:
        title = GAME_TITLES.get(self.station.game, self.station.game)
        self.buttons = home_and_again(
            metrics, f"Play {title}", width=360, enabled=self.can_start, name="start"
        )

    def enter(self) -> None:
        """Say what the screen tells the groups: where the leaving group goes, then who
        is welcome here (a station screen is put up when time is up, nobody tapped)."""
        who, where, _ = self.welcome()
        self.speak(sentences(self.note, self.standings, self.leaving() or "", who, where))

    def resume(self, result: Any) -> None:
        self.ended = None  # back from this station's game: who had to move on has moved
        self.note = ""  # and what went wrong before is over
        super().resume(result)

    def update(self, now: float) -> bool:
        start = self.target("start")
        if start is not None and start.enabled != self.can_start:
            self.layout(self.m)
            return True
        return False

    def press(self, name: str) -> None:
        if name == "home":
            if len(self.stack) > 1:
                self.stack.pop()
        elif name == "start":  # the game's first screen, as Home opens it
            from tabletop.ui.games import game_app

            module = game_app(self.station.game)
            if module is None:
                self.message = child_message("ui.station_cannot_start")
                log.error("rotation: no screen for %s", self.station.game)
                return
            scene = module.setup_scene(self.ctx)
            self.stack.push(scene)  # set up as planned; the group may still change it
            scene.preset(self.station.mode, self.station.options)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        # A long station name shrinks, then is cut: the panel below shows it whole.
        title = child_message("ui.station_time_up") if self.ended is not None else self.runner.title
        room, size = m.width - m.u(32), m.title + m.u(6)
        painter.text(surface, title, (m.u(16), m.u(10)), size, bold=True, max_width=room)
        y, big = m.u(64), m.big + m.u(2)
        leaving = self.leaving()
        who, where, detail = self.welcome()
        told = self.message or self.note  # on a line of its own under the panel
        foot = self.buttons[0].rect.top - m.u(12)
        if told:
            foot -= painter.fonts.font(m.small).get_linesize()
        # The welcome panel: who large, where big, the details in body text.
        who_size, where_size = (m.u(44), big) if leaving is None else (m.big + m.u(6), m.big)
        parts = [(who, who_size, p.ink, True), (where, where_size, p.ink, True)]
        if detail:
            parts.append((detail, m.text, p.muted, False))
        if leaving:  # where they go, then how their game ended (paged if the panel needs room)
            gone: list[Part] = [(leaving, big, p.ink, True)]
            if self.standings:
                gone.append((self.standings, m.text, p.ink, True))
            spare = foot - y - m.u(12) - self._needs(parts, room)
            box = pygame.Rect(m.u(16), y, room, max(m.u(96), min(self._needs(gone, room), spare)))
            painter.box(surface, box, ORANGE, p.line, m.u(3), m.u(14))
            self._centred(surface, box, gone)
            y = box.bottom + m.u(12)
        box = pygame.Rect(m.u(16), y, room, foot - y)
        painter.box(surface, box, p.panel, p.button, m.u(3), m.u(14))
        self._centred(surface, box, parts)
        painter.buttons(surface, self.buttons)
        if told:
            at = (m.width // 2, self.buttons[0].rect.top - m.u(6))
            painter.text(surface, told, at, m.small, p.bad, anchor="midbottom")

    def _centred(self, surface: pygame.Surface, box: pygame.Rect, parts: list[Part]) -> None:
        """Paragraphs (text, size, colour, bold) one under another, centred in ``box``."""
        painter, m = self.ctx.painter, self.m
        inner = box.inflate(-m.u(24), -m.u(12))
        heights = self._heights(parts, inner.width)
        y = inner.top + max(0, (inner.height - sum(heights) - m.u(6) * (len(parts) - 1)) // 2)
        for (text, size, colour, bold), h in zip(parts, heights, strict=True):
            area = pygame.Rect(inner.left, y, inner.width, min(h, inner.bottom - y))
            painter.paragraph(surface, text, area, size, colour, bold=bold, align="center")
            y += h + m.u(6)

    def _heights(self, parts: Sequence[Part], width: int) -> list[int]:
        """Each paragraph's height, wrapped to ``width``."""
        font, wrap = self.ctx.painter.fonts.font, self.ctx.painter.wrap
        return [len(wrap(t, z, width, b)) * font(z, b).get_linesize() for t, z, _, b in parts]

    def _needs(self, parts: Sequence[Part], width: int) -> int:
        """The height a box ``width`` wide needs to show ``parts`` whole (:meth:`_centred`)."""
        heights = self._heights(parts, width - self.m.u(24))
        return sum(heights) + self.m.u(6) * (len(parts) - 1) + self.m.u(12)


def _lit(lamps: Any) -> list[int]:
    """The seats lit now, to put them back after a flash: the seat buttons say seat by
    seat, the desktop's stand-in keeps a set."""
    if hasattr(lamps, "is_lit"):
        return [s for s in range(SEATS) if lamps.is_lit(s)]
    return sorted(getattr(lamps, "lit", ()))


def games_on(scenes: Iterable[Any]) -> Iterator[Any]:
    """The games among ``scenes`` (a scene stack), topmost first: the scenes with a
    ``save`` and ``standings()``."""
    for scene in reversed(list(scenes)):
        if getattr(scene, "save", None) is not None and callable(getattr(scene, "standings", None)):
            yield scene


def finish_games(ctx: Context) -> list[str]:
    """Save every game on the stack that is still being played as finished for "time",
    with its standings; returns how each saved one ended (:func:`ended_line`), after how
    each game whose results are on show ended (it ended before the time). A failure
    is logged and the others are still saved; a saved game whose ending cannot be worded
    is logged as such and has no line."""
    done = [
        outcome_line(s.outcome) for s in reversed(list(ctx.stack)) if isinstance(s, GameResults)
    ]
    for scene in games_on(ctx.stack):
        if not callable(getattr(scene.save, "finish", None)) or not _still_playing(ctx, scene.save):
            continue
        name = type(scene).__name__
        try:
            result = scene.standings()
            scene.save.finish(result, reason="time")
        except Exception:
            log.exception("rotation: %s could not be finished for time", name)
            continue
        log.info("rotation: %s saved as finished for time", name)
        try:
            done.append(ended_line(result, getattr(scene.save, "seats", ())))
        except Exception:
            log.exception("rotation: %s saved, but how it ended could not be worded", name)
    return done


def ended_line(result: Result, seats: Sequence[SeatInfo]) -> str:
    """How a game stopped for time ended, from the standings saved as its result: who won
    (:func:`~tabletop.ui.results.title_of`) and the others' places, "Mia wins! 2nd: Ben";
    a child alone, their score. Names as the tables show them (namesakes told apart)."""
    shown = shown_seat_names(seats)
    names = [shown.get(seat, f"Player {seat + 1}") for seat in range(len(result.places))]
    return outcome_line(outcome_of(result, names))


def outcome_line(outcome: Outcome) -> str:
    """A game's end in one line: its title and the others' places, "Mia wins! 2nd: Ben.";
    a child alone, their score."""
    rows = sorted(outcome.rows, key=lambda r: (r.place, r.seat))
    if len(rows) == 1:
        return child_message("ui.station_scored", name=rows[0].name, score=rows[0].score)
    later = [r for r in rows if r.place > 1]  # the title names who came first
    rest = (child_message("ui.station_place", place=ordinal(r.place), name=r.name) for r in later)
    return " ".join([outcome.title, *rest])


def _still_playing(ctx: Context, save: Any) -> bool:
    """Whether ``save``'s game is still being played in the journal (a game the journal
    does not know, or cannot say, counts as still being played)."""
    match_id = getattr(save, "id", None)
    if match_id is None:
        return True
    try:
        status = ctx.journal.status(match_id)
    except TabletopError as exc:
        log.warning("rotation: %s: %s", exc.code, exc.message)
        return True
    return status in (None, "playing")


def restore_rotation(ctx: Context) -> Any:
    """At start, before Home: the rotation this device was running when it stopped,
    carried on in ``ctx.rotation`` (also returned), or None; its games whose time ran
    out meanwhile are finished for "time" first, so Home does not offer them."""
    try:
        stored = running_rotation(ctx.journal)
    except TabletopError as exc:
        log.error("rotation: %s", exc.message)
        return None
    if stored is None:
        return None
    runner = RotationRunner(ctx, stored)
    where = f"station {stored.station + 1}, rotation {runner.moment.rotation + 1}"
    log.info("rotation %d restored: %s, %s", stored.id, where, runner.moment.phase)
    finish_stale_games(ctx, runner)
    if runner.moment.done:
        runner.finish()
        return None
    ctx.rotation = runner
    return runner


def finish_stale_games(ctx: Context, runner: RotationRunner) -> None:
    """Games left unfinished in a rotation whose time ran out while the device was off:
    each is rebuilt from the journal and finished for "time" with its standings; one
    that cannot be rebuilt is left for Home to offer, and logged."""
    from tabletop.ui.games import resume_game
    from tabletop.ui.saves import unfinished

    clock, now = runner.clock, runner.moment
    try:
        waiting = unfinished(ctx)
    except Exception as exc:
        log.error("rotation: the unfinished games could not be listed: %s", exc)
        return
    for saved in waiting:
        if saved.started < clock.started_at:
            continue  # from before the rotation
        then = clock.now(saved.started)
        if then.done:
            continue  # played after it
        if not now.done and then.seated >= now.seated:
            continue  # its rotation is still on: Home offers to carry on
        try:
            scene = resume_game(ctx, saved)
            scene.save.finish(scene.standings(), reason="time")
        except Exception as exc:
            log.error("rotation: match %d could not be finished for time: %s", saved.id, exc)
            continue
        log.info("rotation: match %d (%s) finished for time after a restart", saved.id, saved.game)


def show_station(ctx: Context, runner: RotationRunner, ended: int | None = None) -> None:
    """Back to Home, and the station screen over it."""
    from tabletop.ui.scenes.home import HomeScene

    if len(ctx.stack):
        ctx.stack.unwind_to(HomeScene)
    ctx.stack.push(StationScene(ctx, runner, ended=ended))


def run_rotation(ctx: Context, stored: StoredRotation) -> RotationRunner:
    """Run a stored rotation on this device: ``ctx.rotation``, then Home and the station
    screen over it (the editor's Start, and a plan from the teacher's console)."""
    runner = RotationRunner(ctx, stored)
    ctx.rotation = runner
    show_station(ctx, runner)
    return runner
