"""What the teacher's console knows, and what its dashboard shows.

What it keeps:

- every station's newest :class:`StatusMessage`, when it arrived, and whether the
  station is online (its will says when it dropped off);
- the plan (:class:`PlanMessage`), one :class:`RotationClock` per station and ``seq``,
  stored in ``fleet_state`` so a restarted console carries on with the same clocks;
- the class list (the journal's ``students``, through :class:`Roster`).

The problems the teacher dismissed are kept in ``fleet_state`` too. :class:`ConsoleState`
holds all that, and says what the dashboard shows (:meth:`ConsoleState.snapshot`); it
is touched only on the console's worker thread (:class:`~.coordinator.Coordinator`, which
extends it).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.classroom.fleet import presence
from tabletop.classroom.fleet import problems as said
from tabletop.classroom.fleet.messages import (
    ClockMessage,
    PlanMessage,
    StatusMessage,
    Topics,
    parse,
)
from tabletop.classroom.fleet.problems import Problem, Refusal
from tabletop.classroom.rotation import GAME_TITLES, RotationClock
from tabletop.engine.errors import BadInput
from tabletop.store import Journal

log = logging.getLogger("tabletop.classroom.fleet.coordinator")  # the console's log lines


@dataclass
class StationSeen:
    """The console's view of one device: its newest status and when it arrived."""

    device: str
    status: StatusMessage | None = None  # the newest online status
    received: float = 0.0  # when the newest status (or will) arrived
    last_seen: float = 0.0  # when the newest online status arrived
    online: bool = False


@dataclass
class SeqRecord:
    """When ``seq`` was published, and when each device first said it follows it."""

    seq: int
    published: float
    action: str
    devices: tuple[str, ...]  # the devices the plan names (those that must follow)
    reached: dict[str, float] = field(default_factory=dict)

    @property
    def everywhere(self) -> float | None:
        """When the last of :attr:`devices` reached it (None: not all yet)."""
        if not self.devices or any(d not in self.reached for d in self.devices):
            return None
        return max(self.reached[d] for d in self.devices)

    def to_json(self) -> dict[str, Any]:
        done = self.everywhere
        return {
            "seq": self.seq,
            "action": self.action,
            "published": self.published,
            "devices": list(self.devices),
            "reached": dict(self.reached),
            "everywhere": None if done is None else done - self.published,
        }


class ConsoleState:
    """The console's state (see the module docstring), on its worker thread."""

    # Set by the console: its fleet file's topics, its wall clock, its worker thread.
    topics: Topics
    now: Callable[[], float]
    _thread: threading.Thread | None

    def __init__(self) -> None:
        self.journal: Journal | None = None
        self.stations: dict[str, StationSeen] = {}
        self.plan: PlanMessage | None = None
        self.clocks: tuple[RotationClock, ...] = ()
        self.seq = 0
        self.station_seq: dict[int, int] = {}  # station -> the last seq that changed its clock
        self.records: dict[int, SeqRecord] = {}
        self.refused: dict[str, int] = {}
        self.refusals: dict[str, Refusal] = {}  # refused results, by key (fleet_refused)
        self.results = 0  # results stored since start
        self.duplicates = 0  # results received again (already stored)
        self.unwritten: dict[str, str] = {}  # result id -> why it could not be stored now
        self.unwritten_since = 0.0  # when the newest of them came
        self.twin: str | None = None  # another console seen running: no results taken
        self._others: dict[str, float] = {}  # other consoles' ids -> their last presence
        self.twin_since = 0.0  # since when (coordinator.py)
        self.unsaved = (0, 0.0)  # the journal's trouble_seq when it stopped saving, and when
        self.roster_problem = ""  # why the class list is not sent to the stations
        self.roster_since = 0.0  # since when
        self.bad_status: dict[tuple[str, str], float] = {}  # (device, code) -> since when
        self.dismissed: set[str] = set()  # problem keys the teacher has seen (problems.py)
        self.connected = False
        self.version = 0  # grows with every change the dashboard shows

    def snapshot(self) -> dict[str, Any]:
        """Everything the dashboard shows, as JSON values."""
        self._on_worker()
        t = self.now()
        plan = self.plan
        assigned = dict(plan.stations) if plan else {}
        devices = sorted(set(self.stations) | set(assigned), key=lambda d: (assigned.get(d, 99), d))
        offline = self._offline()
        cards = []
        for device in devices:
            seen = self.stations.get(device) or StationSeen(device)
            status = seen.status
            station = assigned.get(device)
            cards.append(
                {
                    "device": device,
                    "station": station,
                    "title": plan.plan.station_title(station)
                    if plan is not None and station is not None
                    else None,
                    "online": seen.online,
                    "last_seen": seen.last_seen or None,
                    "age": (t - seen.received) if seen.received else None,
                    "status": status.to_json() if status is not None else None,
                    "game_title": GAME_TITLES.get(status.game or "", status.game)
                    if status is not None and status.game
                    else None,
                    "waiting": station is None or status is None or status.station is None,
                    "follows": status is not None
                    and status.clock_seq >= self.station_seq.get(station, self.seq)
                    if station is not None
                    else True,
                    "dismiss": offline.get(device),  # its card may be dismissed
                    "dismissed": offline.get(device) in self.dismissed,
                }
            )
        return {
            "now": t,
            "version": self.version,
            "connected": self.connected,
            "seq": self.seq,
            "plan": plan.to_json() if plan is not None else None,
            "clocks": [c.to_json() for c in self.clocks],
            "moments": [_moment(c, t, i) for i, c in enumerate(self.clocks)],
            "stations": cards,
            "refused": dict(self.refused),
            "results": self.results,
            "duplicates": self.duplicates,
            "problems": [p.to_json() for p in self.open_problems()],
        }

    def problems(self) -> list[str]:
        """The sentences of :meth:`open_problems`."""
        return [p.sentence for p in self.open_problems()]

    def open_problems(self) -> list[Problem]:
        """What the dashboard says is wrong and the teacher has not dismissed."""
        self._on_worker()
        return said.shown(self._problems(), self.dismissed)

    def _problems(self) -> list[Problem]:
        """Every problem now (:mod:`.problems`): a class list the stations cannot take,
        a journal that cannot save (its results wait on the stations), results that
        cannot be stored now, statuses that cannot be read, results refused
        (newest first)."""
        found = []
        if self.roster_problem:
            sentence = self.roster_problem + " The stations keep the list they had."
            found.append(Problem((said.key("roster", "", self.roster_since),), sentence))
        if self.twin_runs():
            assert self.twin is not None
            twin_key = said.key("twin", self.twin, self.twin_since)
            found.append(Problem((twin_key,), said.twin(self.twin)))
        journal = self.journal
        if journal is not None and journal.trouble is not None and journal.path is not None:
            keys = [said.key("unsaved", "", self.unsaved[1])]
            if self.unwritten:
                keys.append(said.key("unwritten", "", self.unwritten_since))
            sentence = said.cannot_save(journal.trouble, journal.path.parent, len(self.unwritten))
            found.append(Problem(tuple(keys), sentence))
        elif self.unwritten:
            why = next(reversed(self.unwritten.values()))
            sentence = (
                f"{len(self.unwritten)} results cannot be stored now ({why}); the stations "
                "keep them and send them again."
            )
            found.append(Problem((said.key("unwritten", "", self.unwritten_since),), sentence))
        found.extend(self._plan_problems())
        for (device, code), since in self.bad_status.items():
            sentence = said.unreadable_status(self._station_name(device), code)
            found.append(Problem((said.key("status", f"{device}:{code}", since),), sentence))
        for r in sorted(self.refusals.values(), key=lambda r: r.received, reverse=True):
            sentence = said.refused_result(self._station_name(r.device), r.code)
            found.append(Problem((f"refused:{r.key}",), sentence))
        return found

    def twin_runs(self) -> bool:
        """Whether another console of this classroom runs (see coordinator.py): its
        presence was seen within :data:`~.presence.TWIN_QUIET` seconds."""
        if self.twin is None:
            return False
        return self.now() - self._others.get(self.twin, self.twin_since) < presence.TWIN_QUIET

    def _look(self) -> None:
        """What changed with time or under the last job (the worker runs this after each
        job, and each :data:`~.coordinator.LOOK_EVERY` seconds when there is none): the
        other console fell quiet (forgotten), the journal began a new trouble (its
        problem's key, from now)."""
        if self.twin is not None and not self.twin_runs():
            self.twin = None
            log.warning("console: the other console fell quiet: taking results again")
            self._changed()
        journal = self.journal
        seq = journal.trouble_seq if journal is not None and journal.trouble else None
        if seq is not None and seq != self.unsaved[0]:  # a new key each time it begins
            self.unsaved = (seq, self.now())
            self._changed()

    def _plan_problems(self) -> list[Problem]:
        """The stations of the restored plan that lost presets this console does not
        know, the stations the plan names that play it without presets they do not know,
        or that still do not follow it :data:`~.problems.PLAN_TAKEN_WITHIN` seconds after
        it was sent though they talk (an older version refused it)."""
        plan = self.plan
        if plan is None:
            return []
        found = [
            Problem(
                (said.key("dropped", str(station), plan.sent),),
                said.dropped_options(station, plan.plan.stations[station].game, keys),
            )
            for station, keys in sorted(plan.ignored.items())
        ]
        for device, station in sorted(plan.stations.items(), key=lambda item: item[1]):
            seen = self.stations.get(device)
            status = seen.status if seen is not None and seen.online else None
            if seen is None or status is None:
                continue
            name = self._station_name(device)
            if status.plan == plan.id and status.ignored:
                game = plan.plan.stations[station].game
                sentence = said.ignored_options(name, game, status.ignored)
                found.append(Problem((said.key("ignored", device, plan.sent),), sentence))
            elif (
                status.plan != plan.id
                and status.clock_seq < self.station_seq.get(station, self.seq)
                and seen.received - plan.sent >= said.PLAN_TAKEN_WITHIN
            ):
                sentence = said.plan_not_taken(name)
                found.append(Problem((said.key("not_taken", device, plan.sent),), sentence))
        return found

    def dismiss(self, keys: Sequence[str]) -> None:
        """The teacher has seen the problems (or offline cards) of ``keys``: they are not
        shown until they happen again (kept in ``fleet_state``; the log and the journal
        keep what happened)."""
        self._on_worker()
        if isinstance(keys, str) or not all(isinstance(k, str) for k in keys):
            raise BadInput("teacher.dismiss", f"say which problems to dismiss, not {keys!r}")
        for k in sorted(set(keys) - self.dismissed):
            log.info("console: the teacher dismissed %s", k)
        now = {k for p in self._problems() for k in p.keys} | set(self._offline().values())
        self.dismissed = (self.dismissed | set(keys)) & now  # gone ones are forgotten
        self._save_state()
        self._changed()

    def _offline(self) -> dict[str, str]:
        """The devices offline that the plan does not name: device -> the key that
        dismisses its card (until it is back and goes offline again)."""
        named = self.plan.stations if self.plan is not None else {}
        return {
            device: said.key("offline", device, seen.last_seen)
            for device, seen in self.stations.items()
            if not seen.online and device not in named
        }

    def _station_name(self, device: str) -> str:
        station = self.plan.station_of(device) if self.plan is not None else None
        # a sentence starts with a capital: "Device station-2 sent ..." (its id as it is)
        return f"Station {station + 1} ({device})" if station is not None else f"Device {device}"

    def latency(self) -> list[dict[str, Any]]:
        """The newest seq records: when each was published and reached every station."""
        self._on_worker()
        return [r.to_json() for r in sorted(self.records.values(), key=lambda r: r.seq)]

    def _on_worker(self) -> None:
        if threading.current_thread() is not self._thread:
            raise RuntimeError("the console's state is touched only on its worker thread")

    def _changed(self) -> None:
        self.version += 1

    def _clock_message(self) -> ClockMessage:
        assert self.plan is not None
        return ClockMessage(self.plan.id, self.seq, self.clocks, self.now())

    # -- fleet_state -------------------------------------------------------------------------

    def _save_state(self) -> None:
        assert self.journal is not None
        t = self.now()
        rows = [("seq", json.dumps(self.seq)), ("dismissed", json.dumps(sorted(self.dismissed)))]
        if self.plan is not None:
            rows.append(("plan", json.dumps(self.plan.to_json())))
            rows.append(("clock", json.dumps(self._clock_message().to_json())))
        with self.journal.transaction() as db:
            if self.plan is None:
                db.execute("DELETE FROM fleet_state WHERE key IN ('plan', 'clock')")
            db.executemany(
                "INSERT INTO fleet_state (key, body, changed) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET body = excluded.body,"
                " changed = excluded.changed",
                [(k, body, t) for k, body in rows],
            )

    def _restore(self) -> None:
        """The plan, clocks and seq the console had (a restart carries on)."""
        assert self.journal is not None
        try:
            state = {
                str(k): str(b)
                for k, b in self.journal.db.execute("SELECT key, body FROM fleet_state")
            }
        except sqlite3.Error as exc:
            log.error("console: the saved state cannot be read: %s", exc)
            return
        with contextlib.suppress(ValueError, TypeError):  # none seen: all shown again
            self.dismissed = set(map(str, json.loads(state.get("dismissed", "[]"))))
        try:
            self.seq = int(json.loads(state.get("seq", "0")))
            if "plan" in state and "clock" in state:
                plan = parse(self.topics, self.topics.plan, state["plan"].encode())
                assert isinstance(plan, PlanMessage)
                clock = parse(
                    self.topics, self.topics.clock, state["clock"].encode(), plan=plan.plan
                )
                assert isinstance(clock, ClockMessage)
                self.plan, self.clocks = plan, clock.clocks
                self.seq = max(self.seq, clock.seq)
                log.info("console: carrying on with plan %s (seq %d)", plan.id, self.seq)
                for station, keys in sorted(plan.ignored.items()):
                    log.warning(
                        "console: the saved plan's station %d has options this version does "
                        "not know, left out: %s",
                        station + 1,
                        ", ".join(keys),
                    )
        except (ValueError, TypeError) as exc:  # BadInput is a ValueError
            log.error("console: the saved plan does not read, starting without one: %s", exc)
            self.plan, self.clocks = None, ()


def _moment(clock: RotationClock, t: float, station: int) -> dict[str, Any]:
    """Station ``station``'s clock at ``t``, with its title and the group that belongs
    there (for a station the teacher gave no device: its card says where that group goes),
    and the one that comes after it (a station resting this round says who comes next)."""
    m = clock.now(t)
    return {
        "rotation": m.rotation,
        "phase": m.phase,
        "left": m.play_left,
        "paused": m.paused,
        "title": m.plan.station_title(station),
        "group": m.group_at(station),
        "next": None if m.done else m.plan.group_at(station, m.seated + 1),
    }


__all__ = ["ConsoleState", "SeqRecord", "StationSeen"]
