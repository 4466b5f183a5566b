"""Station rotations: the teacher's plan, its clock, and where they are stored.

A *plan* lists the stations (each a game, a mode, options and a name), the groups, the
minutes per rotation, the transition minutes between rotations and the warning minutes
before the end. In rotation ``r`` group ``g`` is at station ``(g + r) % len(stations)``,
so over ``len(stations)`` rotations every group visits every station (the teacher may
set fewer rotations). A station with no group in a rotation rests.

The *clock* is data too: when the rotation started, its pauses, extensions, skips and
when it was ended — all wall-clock epoch seconds, so a device that reboots carries on
with the same clock, and (issue 11) the classroom fleet can share it as one retained
JSON message. Nothing here reads a clock: every query and operation takes the time
``t``, and operations return a new clock::

    clock = RotationClock(plan, started_at=t0)
    clock.now(t0 + 60).phase            # "play"
    clock = clock.pause(t1).resume(t2)  # the pause does not count
    clock = clock.extend(t3)            # one more minute for the phase running at t3

A rotation runs through phases: ``play`` (the group plays), ``warning`` (the last
``warning`` minutes of play), ``transition`` (groups move; not after the last
rotation), then ``done``. :meth:`RotationClock.now` returns a :class:`Moment`.

Storing: :func:`start_rotation` writes the plan into the journal's ``plans`` table and
the clock into ``rotations`` (status ``running``); :func:`save_clock` after every
teacher operation; :func:`running_rotation` finds it again after a reboot. These are
the only functions here that touch anything outside their arguments (the journal given).
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import plural
from tabletop.games.math_arena import TARGETS
from tabletop.games.mathe_meister import MODE_NAMES

if TYPE_CHECKING:
    from tabletop.store import Journal

log = logging.getLogger(__name__)

Phase = Literal["play", "warning", "transition", "done"]

MAX_STATIONS = 8
MAX_STATION_NAME = 30  # "this is Station 2 — <name>" fits the station screen at 800x480
MINUTES = (1, 90)  # minutes per rotation, inclusive
TRANSITION = (0, 10)
WARNING = (0, 10)
EXTEND = (1, 30)

# Game ids (those of tabletop.games.GAMES) and the names children know them by.
GAME_TITLES: dict[str, str] = {
    "mathe-meister": "Mathe-Meister",
    "math-wars-meta": "Math Wars Meta",
    "math-attack": "Math Attack!",
    "mecs": "M.E.C.S.",
    "math-arena": "Math Arena",
}
# Each game's modes a station can ask for, the first being the default: (id, name).
STATION_MODES: dict[str, tuple[tuple[str, str], ...]] = {
    "mathe-meister": tuple(MODE_NAMES.items()),
    "math-wars-meta": (("pvp", "Players"), ("teams", "Teams"), ("solo", "Solo")),
    "math-attack": (("table", "Two players"), ("bot", "Against the device")),
    "mecs": (("normal", "Race to 15"), ("challenge", "Challenge")),
    "math-arena": (("cards", "Real cards"), ("virtual", "Virtual cards")),
}


# Each game's setup options a station can preset: (key, name, ((value, name), ...)); the
# game's setup screen has a button ``<key>.<value>`` for each. A station that leaves an
# option out lets the group choose it.
STATION_OPTIONS: dict[str, tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]] = {
    "mathe-meister": (),
    "math-wars-meta": (("edition", "Edition", (("MWM25", "MWM25"), ("MWM100", "MWM100"))),),
    "math-attack": (("level", "Bot", (("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard"))),),
    "mecs": (
        ("deck", "Deck", (("beginners", "Beginners"), ("advanced", "Advanced"))),
        (
            "level",
            "Bots",
            (("easy", "Easy bots"), ("medium", "Medium bots"), ("hard", "Hard bots")),
        ),
    ),
    "math-arena": (
        ("level", "Bots", (("easy", "Easy bots"), ("hard", "Hard bots"))),
        ("target", "Play to", tuple((str(n), f"{n} points") for n in TARGETS)),  # ARENA-5
    ),
}


# Options that only mean something in one of the game's modes.
OPTION_MODE = {("math-attack", "level"): "bot"}


def game_ids() -> frozenset[str]:
    """The games a station can run: those of :data:`tabletop.games.GAMES`."""
    from tabletop.games import GAMES

    return frozenset(GAMES)


def mode_name(game: str, mode: str) -> str:
    return dict(STATION_MODES.get(game, ())).get(mode, mode)


# -- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Station:
    """One station: a game (an id of ``tabletop.games.GAMES``), one of its
    :data:`STATION_MODES` (empty: the game's first), options for its setup, and a name
    (empty: the game's name)."""

    game: str
    mode: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in game_ids():
            known = ", ".join(sorted(game_ids()))
            raise BadInput("rotation.game", f"unknown game {self.game!r}: choose one of {known}")
        modes = STATION_MODES.get(self.game, ())
        if not self.mode and modes:
            object.__setattr__(self, "mode", modes[0][0])
        if modes and self.mode not in dict(modes):
            known = ", ".join(m for m, _ in modes)
            raise BadInput(
                "rotation.mode",
                f"{GAME_TITLES.get(self.game, self.game)} has no mode {self.mode!r}: "
                f"choose one of {known}",
            )
        if not isinstance(self.options, Mapping) or not all(
            isinstance(k, str) for k in self.options
        ):
            raise BadInput("rotation.options", "a station's options must be a JSON object")
        try:
            json.dumps(dict(self.options))
        except (TypeError, ValueError) as exc:
            raise BadInput(
                "rotation.options", f"a station's options must be plain JSON values: {exc}"
            ) from exc
        object.__setattr__(self, "options", dict(self.options))
        self._check_options()
        object.__setattr__(self, "name", " ".join(str(self.name).split()))
        if len(self.name) > MAX_STATION_NAME:
            raise BadInput(
                "rotation.name",
                f"the station name {self.name[:40]!r} is {len(self.name)} letters long; "
                f"at most {MAX_STATION_NAME} fit on the station's screen",
            )
        if not self.name:
            object.__setattr__(self, "name", GAME_TITLES.get(self.game, self.game))

    def _check_options(self) -> None:
        title = GAME_TITLES.get(self.game, self.game)
        known = {key: dict(values) for key, _, values in STATION_OPTIONS.get(self.game, ())}
        for key, value in self.options.items():
            if key not in known:
                choose = f"choose from {', '.join(known)}" if known else "it has none"
                raise BadInput("rotation.options", f"{title} has no option {key!r}: {choose}")
            if value not in known[key]:
                raise BadInput(
                    "rotation.options",
                    f"{title}'s {key} cannot be {value!r}: choose one of {', '.join(known[key])}",
                )
            needs = OPTION_MODE.get((self.game, key))
            if needs is not None and self.mode != needs:
                raise BadInput(
                    "rotation.options",
                    f"{title}'s {key} is for the mode {mode_name(self.game, needs)!r}: "
                    "choose that mode, or let the group choose",
                )
        if self.game == "mecs" and "deck" in self.options:  # the engine's rule (MECS-6)
            from tabletop.games.mecs import MecsSettings, mecs_mode

            try:
                MecsSettings(deck=self.options["deck"], mode=mecs_mode(self.mode))
            except BadInput as exc:
                raise BadInput("rotation.options", f"{title}: {exc.message}") from exc

    @property
    def mode_name(self) -> str:
        return mode_name(self.game, self.mode)

    @property
    def option_names(self) -> list[str]:
        """The preset options as the children read them (``["Deck: Beginners"]``)."""
        return [
            f"{name}: {dict(values)[self.options[key]]}"
            for key, name, values in STATION_OPTIONS.get(self.game, ())
            if key in self.options
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "options": dict(self.options),
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: Any, ignored: list[str] | None = None) -> Station:
        """The station in ``data``. With an ``ignored`` list (a station reading the
        console's plan), an option this version does not know, or a value of it, is left
        out (the group chooses it) and its key goes into the list; without one it is
        refused."""
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise BadInput("rotation.shape", "a station must be an object with a 'game'")
        options = data.get("options") or {}
        if ignored is not None and isinstance(options, dict):
            known = {key: dict(values) for key, _, values in STATION_OPTIONS.get(data["game"], ())}
            unknown = [k for k, v in options.items() if not _is_known(known, k, v)]
            ignored.extend(unknown)
            options = {k: v for k, v in options.items() if k not in unknown}
        return cls(
            data["game"],
            str(data.get("mode") or ""),
            options,
            str(data.get("name") or ""),
        )


def _is_known(known: dict[str, dict[str, str]], key: Any, value: Any) -> bool:
    try:
        return value in known.get(key, {})
    except TypeError:  # an unhashable value (a list) is no value of any option
        return False


@dataclass(frozen=True)
class Plan:
    """The teacher's rotation plan (see the module docstring); validated on creation.

    ``rotations``: how many rotations to run, 1..len(stations); None runs one per
    station, so every group visits every station.
    """

    stations: tuple[Station, ...]
    groups: tuple[str, ...]
    minutes: int = 15
    transition: int = 1
    warning: int = 1
    rotations: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "stations", tuple(self.stations))
        object.__setattr__(self, "groups", tuple(str(g).strip() for g in self.groups))
        n = len(self.stations)
        if n == 0:
            raise BadInput("rotation.no_stations", "the plan has no stations: add at least one")
        if n > MAX_STATIONS:
            raise BadInput(
                "rotation.stations", f"the plan has {n} stations; at most {MAX_STATIONS} fit"
            )
        if not self.groups:
            raise BadInput("rotation.no_groups", "the plan has no groups: add at least one")
        if any(not g for g in self.groups):
            raise BadInput("rotation.group_name", "every group needs a name")
        if len(set(self.groups)) != len(self.groups):
            twice = next(g for g in self.groups if self.groups.count(g) > 1)
            raise BadInput("rotation.group_twice", f"the group {twice!r} is in the plan twice")
        if len(self.groups) > n:
            raise BadInput(
                "rotation.too_many_groups",
                f"there are {len(self.groups)} groups but only {plural(n, 'station')}: "
                "add a station or put two groups together",
            )
        _check_range("minutes", self.minutes, MINUTES, "minutes per rotation")
        _check_range("transition", self.transition, TRANSITION, "minutes to change stations")
        _check_range("warning", self.warning, WARNING, "warning minutes")
        if self.warning >= self.minutes:
            raise BadInput(
                "rotation.warning",
                f"the warning ({self.warning} min) must come before the end of a "
                f"{self.minutes}-minute rotation: make it shorter",
            )
        if self.rotations is not None:
            _check_range("rotations", self.rotations, (1, n), "rotations")

    @property
    def count(self) -> int:
        """How many rotations run."""
        return self.rotations if self.rotations is not None else len(self.stations)

    def station_title(self, station: int) -> str:
        """``"Station 3 — Math Arena"`` (stations are numbered from 1 on screen)."""
        return f"Station {station + 1} \u2014 {self.stations[station].name}"

    def group_at(self, station: int, rotation: int) -> str | None:
        """The group at ``station`` (0-based) in ``rotation`` (0-based), or None (it
        rests, or the rotation is outside the plan)."""
        if not 0 <= rotation < self.count or not 0 <= station < len(self.stations):
            return None
        g = (station - rotation) % len(self.stations)
        return self.groups[g] if g < len(self.groups) else None

    def station_of(self, group: str, rotation: int) -> int | None:
        """Where ``group`` is in ``rotation`` (None outside the plan)."""
        if group not in self.groups or not 0 <= rotation < self.count:
            return None
        return (self.groups.index(group) + rotation) % len(self.stations)

    def to_json(self) -> dict[str, Any]:
        return {
            "stations": [s.to_json() for s in self.stations],
            "groups": list(self.groups),
            "minutes": self.minutes,
            "transition": self.transition,
            "warning": self.warning,
            "rotations": self.rotations,
        }

    @classmethod
    def from_json(cls, data: Any, ignored: dict[int, list[str]] | None = None) -> Plan:
        """The plan in ``data``; with ``ignored`` given, each station's options this
        version does not know are left out and listed there by station (0-based), as
        :meth:`Station.from_json` does (a newer console's preset does not make an older
        station refuse the whole rotation)."""
        if not isinstance(data, dict):
            raise BadInput("rotation.shape", "a plan must be a JSON object")
        stations = data.get("stations")
        groups = data.get("groups")
        if not isinstance(stations, list) or not isinstance(groups, list):
            raise BadInput("rotation.shape", "a plan needs a list of 'stations' and of 'groups'")
        if not all(isinstance(g, str) for g in groups):
            raise BadInput("rotation.shape", "every group must be a name")
        return cls(
            tuple(
                Station.from_json(s, None if ignored is None else ignored.setdefault(i, []))
                for i, s in enumerate(stations)
            ),
            tuple(groups),
            minutes=data.get("minutes", 15),
            transition=data.get("transition", 1),
            warning=data.get("warning", 1),
            rotations=data.get("rotations"),
        )


def _check_range(name: str, value: Any, bounds: tuple[int, int], words: str) -> None:
    low, high = bounds
    if value is None:  # a field left empty (JSON null)
        raise BadInput(
            f"rotation.{name}", f"{words} is empty: put in a whole number from {low} to {high}"
        )
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(
            f"rotation.{name}",
            f"{words} must be a whole number from {low} to {high}, not {value!r}",
        )


# -- the clock ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Moment:
    """The rotation at one instant.

    ``rotation``: 0-based index (after the end, the last one); ``phase``; ``seconds_left``
    in this phase (``play``: until the warning starts); ``play_left``: seconds until
    time is up in ``play`` and ``warning`` (the countdown children see), else the same as
    ``seconds_left``; ``paused``.
    """

    plan: Plan = field(repr=False, compare=False)
    rotation: int
    phase: Phase
    seconds_left: float
    play_left: float
    paused: bool = False

    @property
    def playing(self) -> bool:
        return self.phase in ("play", "warning")

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def seated(self) -> int:
        """The rotation whose groups are at the stations (in a transition: the coming one)."""
        return self.rotation + (1 if self.phase == "transition" else 0)

    def group_at(self, station: int) -> str | None:
        """The group that belongs at ``station`` now: the one playing, or in a transition
        the one arriving; None when it rests or the rotation is over."""
        return None if self.done else self.plan.group_at(station, self.seated)

    def next_station(self, group: str) -> int | None:
        """Where ``group`` goes when this rotation ends (None after the last one)."""
        if self.phase == "done":
            return None
        return self.plan.station_of(group, self.rotation + 1)

    def countdown(self) -> str:
        """``mm:ss`` left to play (in a transition: until the next rotation starts)."""
        seconds = max(0, math.ceil(self.play_left - 1e-9))
        return f"{seconds // 60:02d}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Pause:
    start: float
    end: float | None = None


@dataclass(frozen=True)
class Extension:
    """``minutes`` more for one phase ("play" or "transition") of one rotation."""

    rotation: int
    phase: str
    minutes: int


@dataclass(frozen=True)
class Skip:
    """The teacher cut a phase ("play" or "transition") of one rotation short at ``at``."""

    rotation: int
    phase: str
    at: float


@dataclass(frozen=True)
class RotationClock:
    """The plan's clock (see the module docstring). Times are wall-clock epoch seconds."""

    plan: Plan = field(repr=False)
    started_at: float
    pauses: tuple[Pause, ...] = ()
    extensions: tuple[Extension, ...] = ()
    skips: tuple[Skip, ...] = ()
    ended: float | None = None

    # -- queries --------------------------------------------------------------------------

    def paused(self, t: float) -> bool:
        return any(p.start <= t and (p.end is None or t < p.end) for p in self.pauses)

    def active(self, t: float) -> float:
        """Seconds the rotation has been running at ``t``, pauses left out."""
        stop = t if self.ended is None else min(t, self.ended)
        if stop <= self.started_at:
            return 0.0
        idle = 0.0
        for p in self.pauses:
            start = max(p.start, self.started_at)
            end = stop if p.end is None else min(p.end, stop)
            idle += max(0.0, end - start)
        return max(0.0, stop - self.started_at - idle)

    def now(self, t: float) -> Moment:
        """Which rotation and phase it is at ``t``, and how long is left."""
        plan = self.plan
        paused = self.paused(t)
        if self.ended is not None and t >= self.ended:
            return Moment(plan, plan.count - 1, "done", 0.0, 0.0, False)
        a = self.active(t)
        for rotation, phase, _start, end in self._phases():
            if a < end:
                left = end - a
                if phase == "transition":
                    return Moment(plan, rotation, "transition", left, left, paused)
                warning = plan.warning * 60.0
                if warning > 0 and left <= warning:
                    return Moment(plan, rotation, "warning", left, left, paused)
                return Moment(plan, rotation, "play", left - warning, left, paused)
        return Moment(plan, plan.count - 1, "done", 0.0, 0.0, False)

    def _phases(self) -> list[tuple[int, str, float, float]]:
        """(rotation, "play" | "transition", start, end) in active seconds, in order."""
        plan = self.plan
        cuts = {(s.rotation, s.phase): self.active(s.at) for s in self.skips}
        out: list[tuple[int, str, float, float]] = []
        cursor = 0.0
        for rotation in range(plan.count):
            for phase, base in (("play", plan.minutes), ("transition", plan.transition)):
                if phase == "transition" and rotation == plan.count - 1:
                    break
                extra = sum(
                    e.minutes for e in self.extensions if (e.rotation, e.phase) == (rotation, phase)
                )
                end = cursor + (base + extra) * 60.0
                if (rotation, phase) in cuts:
                    end = min(end, max(cursor, cuts[rotation, phase]))
                out.append((rotation, phase, cursor, end))
                cursor = end
        return out

    # -- operations (each returns a new clock) ---------------------------------------------

    def pause(self, t: float) -> RotationClock:
        """Stop the countdown at ``t`` (already paused, or over: no change)."""
        if self.paused(t) or self.now(t).done:
            return self
        return replace(self, pauses=(*self.pauses, Pause(t)))

    def resume(self, t: float) -> RotationClock:
        """Carry on from where the pause stopped (not paused: no change)."""
        if not self.pauses or self.pauses[-1].end is not None:
            return self
        last = self.pauses[-1]
        return replace(self, pauses=(*self.pauses[:-1], Pause(last.start, max(t, last.start))))

    def extend(self, t: float, minutes: int = 1) -> RotationClock:
        """``minutes`` more for the phase running at ``t`` (over: no change)."""
        _check_range("extend", minutes, EXTEND, "the extra minutes")
        moment = self.now(t)
        if moment.done:
            return self
        phase = "transition" if moment.phase == "transition" else "play"
        return replace(
            self, extensions=(*self.extensions, Extension(moment.rotation, phase, minutes))
        )

    def skip(self, t: float) -> RotationClock:
        """End the phase running at ``t`` now: time is up (in a transition: the next
        rotation starts). Over: no change."""
        moment = self.now(t)
        if moment.done:
            return self
        phase = "transition" if moment.phase == "transition" else "play"
        return replace(self, skips=(*self.skips, Skip(moment.rotation, phase, t)))

    def end(self, t: float) -> RotationClock:
        """The whole rotation is over at ``t`` (already over: no change)."""
        if self.now(t).done:
            return self
        return replace(self, ended=t)

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The clock alone (the plan travels separately: :meth:`Plan.to_json`)."""
        return {
            "started_at": self.started_at,
            "pauses": [[p.start, p.end] for p in self.pauses],
            "extensions": [[e.rotation, e.phase, e.minutes] for e in self.extensions],
            "skips": [[s.rotation, s.phase, s.at] for s in self.skips],
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Any, plan: Plan) -> RotationClock:
        try:
            if not isinstance(data, dict):
                raise TypeError("not an object")
            pauses = tuple(
                Pause(float(s), None if e is None else float(e)) for s, e in data.get("pauses", [])
            )
            extensions = tuple(
                Extension(int(r), _phase_key(p), int(m)) for r, p, m in data.get("extensions", [])
            )
            skips = tuple(
                Skip(int(r), _phase_key(p), float(a)) for r, p, a in data.get("skips", [])
            )
            ended = data.get("ended")
            return cls(
                plan,
                float(data["started_at"]),
                pauses,
                extensions,
                skips,
                None if ended is None else float(ended),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(
                "rotation.clock", f"the rotation's clock is not readable: {exc}"
            ) from exc


def _phase_key(value: Any) -> str:
    if value not in ("play", "transition"):
        raise ValueError(f"unknown phase {value!r}")
    return str(value)


# -- storing in the journal ----------------------------------------------------------------


@dataclass(frozen=True)
class StoredRotation:
    """A rotation as kept in the journal: row ids, this device's station (0-based), the
    lesson (``session``) and the clock (whose ``plan`` is the plan)."""

    id: int
    plan_id: int
    station: int
    session: str
    clock: RotationClock
    name: str = ""  # the plan's name; "fleet:<plan id>" for a plan from the teacher's console

    @property
    def plan(self) -> Plan:
        return self.clock.plan


def start_rotation(
    journal: Journal,
    plan: Plan,
    station: int,
    *,
    session: str = "",
    name: str = "",
    now: Callable[[], float] = time.time,
    clock: RotationClock | None = None,
) -> StoredRotation:
    """Store ``plan`` and a clock started now (or ``clock``: one the teacher's console
    started, for ``plan``); this device is ``station`` (0-based). Any rotation still
    running on this device is stopped first."""
    if isinstance(station, bool) or not isinstance(station, int):
        raise BadInput("rotation.station", f"the station must be a number, not {station!r}")
    if not 0 <= station < len(plan.stations):
        raise BadInput(
            "rotation.station",
            f"this device cannot be station {station + 1}: the plan has "
            f"{plural(len(plan.stations), 'station')}",
        )
    started = float(now())
    if clock is None:
        clock = RotationClock(plan, started)
    elif clock.plan != plan:
        raise BadInput("rotation.clock", "the clock given belongs to another plan")
    with journal.transaction() as db:
        db.execute("UPDATE rotations SET status = 'stopped' WHERE status = 'running'")
        cur = db.execute(
            "INSERT INTO plans (name, body, created) VALUES (?, ?, ?)",
            (name, json.dumps(plan.to_json(), sort_keys=True), started),
        )
        plan_id = int(cur.lastrowid or 0)
        cur = db.execute(
            "INSERT INTO rotations (plan_id, session, station, clock, status)"
            " VALUES (?, ?, ?, ?, 'running')",
            (plan_id, session, station, json.dumps(clock.to_json())),
        )
        rotation_id = int(cur.lastrowid or 0)
    return StoredRotation(rotation_id, plan_id, station, session, clock, name)


def save_clock(
    journal: Journal, rotation_id: int, clock: RotationClock, status: str = "running"
) -> None:
    """Store the clock after a teacher's operation; ``status`` "finished" at the end."""
    if status not in ("running", "finished", "stopped"):
        raise ValueError(f"unknown rotation status {status!r}")
    with journal.transaction() as db:
        db.execute(
            "UPDATE rotations SET clock = ?, status = ? WHERE id = ?",
            (json.dumps(clock.to_json()), status, rotation_id),
        )


def running_rotation(journal: Journal) -> StoredRotation | None:
    """The rotation this device was running (newest), or None. A row that no longer
    reads (edited by hand) is marked "broken", logged, and not offered again."""
    try:
        row = journal.db.execute(
            "SELECT r.id, r.plan_id, r.station, r.session, r.clock, p.body, p.name"
            " FROM rotations r JOIN plans p ON p.id = r.plan_id"
            " WHERE r.status = 'running' ORDER BY r.id DESC LIMIT 1"
        ).fetchone()
    except sqlite3.Error as exc:
        log.error("rotation: the journal could not be read: %s", exc)
        return None
    if row is None:
        return None
    try:
        plan = Plan.from_json(json.loads(row[5]))
        clock = RotationClock.from_json(json.loads(row[4]), plan)
        station = int(row[2])
        if not 0 <= station < len(plan.stations):
            raise BadInput("rotation.station", f"station {station + 1} is not in the plan")
    except (ValueError, TypeError) as exc:  # BadInput and JSON errors are ValueErrors
        log.error("rotation %d is not readable, marked broken: %s", row[0], exc)
        try:
            with journal.transaction() as db:
                db.execute("UPDATE rotations SET status = 'broken' WHERE id = ?", (row[0],))
        except TabletopError as err:
            log.error("rotation: %s", err.message)
        return None
    return StoredRotation(int(row[0]), int(row[1]), station, str(row[3]), clock, str(row[6] or ""))


def last_plan(journal: Journal) -> Plan | None:
    """The newest stored plan that still reads (the editor starts from it), or None."""
    try:
        rows = journal.db.execute("SELECT body FROM plans ORDER BY id DESC LIMIT 5").fetchall()
    except sqlite3.Error:
        return None
    for (body,) in rows:
        try:
            return Plan.from_json(json.loads(body))
        except (ValueError, TypeError):
            continue
    return None


__all__ = [
    "GAME_TITLES",
    "STATION_MODES",
    "STATION_OPTIONS",
    "Extension",
    "Moment",
    "Pause",
    "Plan",
    "RotationClock",
    "Skip",
    "Station",
    "StoredRotation",
    "last_plan",
    "mode_name",
    "running_rotation",
    "save_clock",
    "start_rotation",
]
