"""A simulated station (``tabletop fleet simulate``): a headless process with its own
device id and journal that follows the teacher's plan and clock, publishes its status and
plays quick bot games, so the dashboard and the figures can be tried with eight stations
on one laptop.

It is light on purpose (eight of them, a broker and a browser share two cores): no
pygame, a loop that sleeps 0.1 s between looks, and each game played out whole by bots on
a worker thread before it starts (so the loop keeps following the clock; a game that a
rotation's start or end outran is dropped). In a rotation it plays its station's game
set up as the plan sets up the station (:func:`play_bots`: mostly milliseconds a game,
M.E.C.S. and the hard bots up to about 1.5 s); in free play, Math Attack!. Each game is
journaled through
:class:`~tabletop.store.Journal` like the app's: its row and actions when it starts, then
it *lasts* ``--game-seconds`` of rotation time (pauses stop it) and is finished for
"end"; if the rotation's time runs out first it is finished for "time" (the simulation
keeps the result the bots reached as the standings). Finishing goes through
``Journal.on_finished`` into the outbox, so every result travels as the app's do.

While a rotation runs the station plays only in the play phases, and only when a group
belongs at it; without a plan it plays anyway (free play). ``--verbose`` prints one line
per event (``clock seq=5 paused=True``, ``game 12 finished end``, ...).

:func:`bench_outage` is the figure for issue 11: eight simulated stations, the teacher's
console (:class:`~tabletop.classroom.fleet.coordinator.Coordinator`) storing results,
and the broker stopped for a while as games keep finishing.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import logging
import random
import signal
import sqlite3
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tabletop.classroom.fleet.config import FleetConfig
from tabletop.classroom.fleet.messages import PlanMessage, RosterMessage, Standing
from tabletop.classroom.fleet.outbox import Outbox
from tabletop.classroom.fleet.station import (
    FLEET_NAME,
    StationFleet,
    StationLink,
    fleet_plan_id,
    rotation_status,
)
from tabletop.classroom.rotation import (
    Moment,
    RotationClock,
    Station,
    StoredRotation,
    running_rotation,
    save_clock,
    start_rotation,
)
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal, SeatInfo, result_record

log = logging.getLogger(__name__)

LABEL = "sim"
TICK = 0.1
FREE_PLAY = Station("math-attack")  # the game played without a plan


@dataclass
class SimGame:
    """The game being played: its journal row, the result the bots reach, and the
    rotation time it has lasted."""

    id: int
    name: str  # the game's, e.g. "mecs"
    rotation: int | None
    names: tuple[str, ...]
    result: Any  # tabletop.engine.protocol.Result
    played: float = 0.0


@dataclass(frozen=True)
class _Brewing:
    game: str
    rotation: int | None
    group: str | None
    played: concurrent.futures.Future[Played]

    def fits(self, moment: Moment | None) -> bool:
        """Is it still the stretch of play the game was begun for? (A rotation may have
        started or ended while the bots played.)"""
        if self.rotation is None:
            return moment is None
        return moment is not None and moment.playing and moment.rotation == self.rotation


class SimHost:
    """A :class:`~tabletop.classroom.fleet.station.Host` without a screen."""

    def __init__(
        self,
        journal: Journal,
        *,
        seed: int = 0,
        game_seconds: float = 20.0,
        wall: Callable[[], float] = time.time,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.journal = journal
        self.rng = random.Random(seed)
        self.game_seconds = game_seconds
        self.wall = wall
        self.say = say or (lambda line: None)
        self.stored: StoredRotation | None = running_rotation(journal)
        self.clock: RotationClock | None = self.stored.clock if self.stored else None
        self.session = self.stored.session if self.stored else "sim"
        self.game: SimGame | None = None
        # A game being played out by the bots on a worker thread (a M.E.C.S. game can
        # take a second), so the loop keeps following the clock meanwhile.
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bots")
        self._brewing: _Brewing | None = None
        self.finished = 0
        self._last = time.monotonic()
        for left in journal.unfinished(LABEL):  # a game a killed run left: not played on
            journal.finish(left.id, None, reason="abandoned", status="abandoned")

    # -- Host ----------------------------------------------------------------------------

    def fleet_plan(self) -> str | None:
        if self.stored is None or self.clock is None or self.clock.now(self.wall()).done:
            return None
        return fleet_plan_id(self.stored.name)

    def follow(self, plan: PlanMessage, station: int, clock: RotationClock) -> None:
        stored = self.stored
        if (
            stored is not None
            and fleet_plan_id(stored.name) == plan.id
            and stored.station == station
        ):
            if self.clock is None or clock.to_json() != self.clock.to_json():
                self.clock = clock
                self._save()
            return
        if clock.now(self.wall()).done:
            return
        self._finish_game("time")
        self.stored = start_rotation(
            self.journal,
            plan.plan,
            station,
            session=plan.session,
            name=FLEET_NAME + plan.id,
            now=self.wall,
            clock=clock,
        )
        self.clock, self.session = clock, plan.session or self.session
        self.say(f"rotation {self.stored.id} plan={plan.id} station={station + 1}")

    def leave(self) -> None:
        if self.stored is None or self.clock is None:
            return
        self.clock = self.clock.end(self.wall())
        self._save("finished")
        self._finish_game("time")
        self.stored = None
        self.say("rotation over")

    def roster(self, message: RosterMessage) -> None:
        self.say(f"roster {len(message.students)} students (not kept by a simulation)")

    def notice(self, text: str) -> None:
        self.say(f"notice: {text}")

    def status(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if self.stored is not None and self.clock is not None:
            fields = rotation_status(self.stored, self.clock.now(self.wall()))
        if self.game is not None:
            fields["game"] = self.game.name
            shown = self.game.played / max(self.game_seconds, 1e-9)
            fields["standings"] = tuple(
                Standing(name, str(round(score * min(1.0, shown))), place)
                for name, score, place in zip(
                    self.game.names, self.game.result.scores, self.game.result.places, strict=False
                )
            )
        return fields

    # -- playing -------------------------------------------------------------------------

    def tick(self) -> None:
        """One look at the clock: the game lasts, ends, or a new one starts."""
        mono = time.monotonic()
        step, self._last = mono - self._last, mono
        moment = self.clock.now(self.wall()) if self.clock is not None else None
        if moment is not None and moment.done:
            if self.stored is not None:
                self._save("finished")
                self.stored = None
            self.clock, moment = None, None
        game = self.game
        if game is not None:
            if moment is not None and (not moment.playing or moment.rotation != game.rotation):
                self._finish_game("time")
            elif moment is None or not moment.paused:
                game.played += step
                if game.played >= self.game_seconds:
                    self._finish_game("end")
            return
        brewing = self._brewing
        if brewing is not None:
            if not brewing.played.done():
                return
            self._brewing = None
            if brewing.fits(moment):
                self._start_game(brewing)
            return
        if moment is None:
            self._brew(FREE_PLAY, None, None)
        elif moment.playing and not moment.paused and self.stored is not None:
            group = moment.group_at(self.stored.station)
            if group is not None:
                self._brew(self.stored.plan.stations[self.stored.station], moment.rotation, group)

    def _brew(self, station: Station, rotation: int | None, group: str | None) -> None:
        seed = self.rng.randrange(1 << 30)
        played = self._worker.submit(play_bots, station, seed)
        self._brewing = _Brewing(station.game, rotation, group, played)

    def _start_game(self, brewing: _Brewing) -> None:
        game, rotation, group = brewing.game, brewing.rotation, brewing.group
        try:
            played = brewing.played.result()
        except Exception:  # a bug in a bot must not stop the station
            log.exception("simulate: the bots could not play %s", game)
            return
        match = played.match
        names = tuple(
            played.device.get(seat)
            or (f"{group} {string.ascii_uppercase[seat]}" if group else f"Player {seat + 1}")
            for seat in range(match.seats)
        )
        seats = [SeatInfo(seat, name, bot=played.bots[seat]) for seat, name in enumerate(names)]
        try:
            match_id = self.journal.start(match, label=LABEL, seats=seats, session=self.session)
        except TabletopError as exc:
            log.error("simulate: the game could not be journaled: %s", exc.message)
            return
        self.game = SimGame(match_id, game, rotation, names, match.result())
        self.say(f"game {match_id} started ({game})")

    def _finish_game(self, reason: str) -> None:
        game, self.game = self.game, None
        if game is None:
            return
        try:
            self.journal.finish(game.id, result_record(game.result, reason=reason), reason=reason)
            self.journal.db.execute(
                "UPDATE matches SET elapsed = ? WHERE id = ?", (game.played, game.id)
            )
        except TabletopError as exc:
            log.error("simulate: game %d could not be finished: %s", game.id, exc.message)
            return
        self.finished += 1
        self.say(f"game {game.id} finished {reason}")

    def stop(self) -> None:
        """SIGTERM: the game being played is left (abandoned: it never finished)."""
        self._worker.shutdown(wait=False, cancel_futures=True)
        game, self.game = self.game, None
        if game is not None:
            with contextlib.suppress(TabletopError):
                self.journal.finish(game.id, None, reason="abandoned", status="abandoned")

    def _save(self, status: str = "running") -> None:
        if self.stored is None or self.clock is None:
            return
        try:
            save_clock(self.journal, self.stored.id, self.clock, status)
        except TabletopError as exc:
            log.error("simulate: the clock could not be saved: %s", exc.message)


@dataclass(frozen=True)
class Played:
    """A game the bots played to its end: the match, each seat's bot (the simulated
    children are bots too), and the seats the device itself plays with their names."""

    match: Match[Any, Any, Any]
    bots: tuple[str, ...]
    device: Mapping[int, str] = field(default_factory=dict)


def play_bots(station: Station, seed: int) -> Played:
    """A whole game at ``station``, set up as the teacher planned it (the mode, and each
    option the plan presets; an option left to the group takes the setup screen's
    default), played by bots from ``seed`` (the same seed, the same game).

    The bots play with known hands, as the app's do, so a station planned for real cards
    is played with virtual ones. Who plays:

    - Mathe-Meister: two seats of random legal moves (one in a solo mode);
    - Math Wars Meta: the mode's seats (solo 1, players 2, teams two teams of 2), each
      entering the right solution 9 times in 10
      (:class:`~tabletop.bots.math_wars_meta.VirtualPlayer`);
    - Math Attack!: an easy and a random bot; against the device, an easy bot and the
      device's bot at the planned level (seat 2, named as the app names it);
    - M.E.C.S.: two of its bots at the planned level (easy when the plan leaves it open);
    - Math Arena: three bots at the planned level.
    """
    from tabletop.engine.dealers import RngDealer

    game, mode, options = station.game, station.mode, station.options
    rng = random.Random(seed)
    engine = GAMES[game]
    device: dict[int, str] = {}

    def random_legal(state: Any, seat: int) -> Any:
        return rng.choice(list(engine.legal_actions(state, seat)))

    # Each seat's player: the state and the seat to move in, its action out.
    players: Sequence[Callable[[Any, int], Any]]
    if game == "mathe-meister":
        from tabletop.assets import mathe_meister_layout
        from tabletop.games.mathe_meister import SOLO_MODES, MatheMeisterSettings

        settings: Any = MatheMeisterSettings(mathe_meister_layout(), (mode,))
        bots = ("random",) * (1 if mode in SOLO_MODES else 2)
        players = [random_legal] * len(bots)
    elif game == "math-wars-meta":
        from tabletop.bots.math_wars_meta import VirtualPlayer
        from tabletop.games.math_wars_meta import MathWarsMetaSettings

        teams = ((0, 1), (2, 3)) if mode == "teams" else ()
        settings = MathWarsMetaSettings(options.get("edition", "MWM25"), mode, teams)  # type: ignore[arg-type]
        bots = ("virtual",) * {"solo": 1, "teams": 4}.get(mode, 2)
        players = [VirtualPlayer(rng, wrong_rate=0.1).entry] * len(bots)
    elif game == "math-attack":
        from tabletop.bots.math_attack import LEVEL_NAMES, MathAttackBot
        from tabletop.games.math_attack import MathAttackSettings

        settings = MathAttackSettings(first_player=seed % 2)
        bots = ("easy", options.get("level", "easy") if mode == "bot" else "random")
        if mode == "bot":
            device[1] = f"Bot ({LEVEL_NAMES[bots[1]]})"
        players = [MathAttackBot(level, seed + seat).choose for seat, level in enumerate(bots)]
    elif game == "mecs":
        from tabletop.bots.mecs import decide
        from tabletop.games.mecs import MecsSettings

        deck = options.get("deck", "advanced" if mode == "challenge" else "beginners")
        settings = MecsSettings(deck=deck, mode=mode)  # type: ignore[arg-type]
        level = options.get("level", "easy")  # MECS-12, as the setup screen starts
        bots = (level,) * 2
        # random legal moves take seconds a game (every equation is one)
        players = [lambda state, seat: decide(state, seat, level)] * 2
    else:
        from tabletop.bots.math_arena import MathArenaBot
        from tabletop.games.math_arena import MathArenaSettings

        level = options.get("level", "easy")
        settings = MathArenaSettings()
        bots = (level,) * 3
        players = [MathArenaBot(level, seed + seat + 1).choose for seat in range(3)]
    match = Match(engine, settings, len(bots), seed=seed)
    dealer = RngDealer(seed)
    while match.result() is None:
        pending = match.pending
        if pending.chance is not None:
            match.deal(dealer)
        else:
            seat = min(pending.seats)
            match.apply(players[seat](match.state, seat))
    return Played(match, bots, device)


def run_simulation(
    config: FleetConfig,
    data: Path,
    *,
    seed: int = 0,
    game_seconds: float = 20.0,
    verbose: bool = False,
    out: IO[str] = sys.stdout,
    stop: threading.Event | None = None,
) -> int:
    """Run one simulated station until SIGTERM / SIGINT (or ``stop`` is set)."""
    if game_seconds <= 0:
        raise BadInput("fleet.game_seconds", "--game-seconds must be more than 0")
    link = StationLink(config)  # refuses the teacher's file before anything is written
    data.mkdir(parents=True, exist_ok=True)
    journal = Journal(data / FILE_NAME)
    stop = stop or threading.Event()

    def say(line: str) -> None:
        if verbose:
            print(f"{config.device}: {line}", file=out, flush=True)

    outbox = Outbox(journal.db, config.device, config.topics)
    journal.on_finished = outbox.on_finished
    host = SimHost(journal, seed=seed, game_seconds=game_seconds, say=say)
    link.outbox = outbox
    fleet = StationFleet(link, host, on_event=say)
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    link.start()
    try:
        while not stop.is_set():
            fleet.update()
            host.tick()
            stop.wait(TICK)
    finally:
        host.stop()
        fleet.update()
        fleet.close()
        unsent = outbox.count()
        print(
            f"{config.device}: {host.finished} games finished here, {unsent} results not yet "
            "delivered",
            file=out,
            flush=True,
        )
        journal.close()
    return 0


def simulate_command(
    fleet_file: Path,
    data: Path,
    *,
    seed: int | None = None,
    game_seconds: float | None = None,
    verbose: bool = False,
) -> list[str]:
    """The command line of a simulated station process (``tabletop fleet simulate``) run
    by this Python: for the figures and the tests that start several."""
    command = [sys.executable, "-m", "tabletop", "fleet", "simulate"]
    command += ["--fleet", str(fleet_file), "--data", str(data)]
    if seed is not None:
        command += ["--seed", str(seed)]
    if game_seconds is not None:
        command += ["--game-seconds", str(game_seconds)]
    if verbose:
        command.append("--verbose")
    return command


# -- the outage figure ----------------------------------------------------------------------


def bench_outage(
    *,
    stations: int = 8,
    outage: float = 120.0,
    before: float = 20.0,
    after: float = 60.0,
    game_seconds: float = 2.0,
    folder: Path | None = None,
    out: IO[str] | None = None,
) -> dict[str, Any]:
    """Eight simulated stations (processes) and the teacher's console on a loopback
    mosquitto; the broker stopped for ``outage`` seconds while games keep finishing, then
    started again. Counts results sent (finished games in the stations' journals),
    received (the console's ``fleet_results``), duplicates stored and missing."""
    from tabletop.classroom.fleet.config import loopback_broker
    from tabletop.classroom.fleet.coordinator import Coordinator
    from tabletop.classroom.rotation import Plan, Station

    def note(line: str) -> None:
        if out is not None:
            print(line, file=out, flush=True)

    devices = [f"station-{i + 1}" for i in range(stations)]
    with contextlib.ExitStack() as stack:
        root = folder or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        broker = stack.enter_context(loopback_broker(root / "broker", devices))
        console = Coordinator(broker.provisioned.teacher, root / "teacher")
        console.start()
        stack.callback(console.stop)
        games = ("math-attack", "mecs", "math-arena", "mathe-meister")
        plan = Plan(
            tuple(Station(games[i % len(games)]) for i in range(stations)),
            tuple(f"Group {i + 1}" for i in range(stations)),
            minutes=90,
            rotations=1,
        )
        console.run(console.start_plan, plan, {d: i for i, d in enumerate(devices)}, "bench")
        procs: list[subprocess.Popen[bytes]] = []
        for i, device in enumerate(devices):
            fleet_file = root / "broker" / f"{device}.toml"
            procs.append(
                subprocess.Popen(
                    simulate_command(fleet_file, root / device, seed=i, game_seconds=game_seconds),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        stack.callback(_stop_all, procs)
        note(f"{stations} stations playing; the broker stops in {before:.0f} s")
        time.sleep(before)
        broker.stop()
        stopped_at = time.monotonic()
        note(f"broker stopped for {outage:.0f} s")
        time.sleep(outage)
        queued = _unsent(root, devices)  # results waiting for the broker now
        broker.start()
        restarted = time.monotonic()
        note(f"broker started again after {restarted - stopped_at:.1f} s; {queued} results queued")
        drained: float | None = None
        while time.monotonic() - restarted < after:
            if drained is None and _unsent(root, devices) == 0:
                drained = time.monotonic() - restarted
                note(f"every outbox empty {drained:.1f} s after the restart")
            time.sleep(0.5)
        _stop_all(procs)
        settle = time.monotonic() + 30
        sent = _finished_ids(root, devices)
        while time.monotonic() < settle:  # the last results acknowledged on SIGTERM
            received = _received(console)
            if all(received.get(d, 0) >= n for d, n in sent.items()):
                break
            time.sleep(0.5)
        received = _received(console)
        duplicates = console.run(
            lambda: console.journal.db.execute(  # type: ignore[union-attr]
                "SELECT COUNT(*) - COUNT(DISTINCT id) FROM fleet_results"
            ).fetchone()[0]
        )
        unsent = _unsent(root, devices)
        return {
            "stations": stations,
            "outage_seconds": outage,
            "game_seconds": game_seconds,
            "consumer": "tabletop.classroom.fleet.coordinator.Coordinator",
            "results_sent": sum(sent.values()),
            "results_received": sum(received.values()),
            "received_again_not_stored": console.duplicates,
            "duplicates_stored": int(duplicates),
            "missing": sum(max(0, n - received.get(d, 0)) for d, n in sent.items()),
            "left_in_outboxes": unsent,
            "queued_when_the_broker_came_back": queued,
            "outboxes_empty_after_restart_seconds": None if drained is None else round(drained, 1),
            "per_station": {d: [sent[d], received.get(d, 0)] for d in devices},
        }


def _stop_all(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


def _finished_ids(root: Path, devices: Sequence[str]) -> dict[str, int]:
    counts = {}
    for device in devices:
        journal = Journal(root / device / FILE_NAME)
        (n,) = journal.db.execute(
            "SELECT COUNT(*) FROM matches WHERE status = 'finished'"
        ).fetchone()
        counts[device] = int(n)
        journal.close()
    return counts


def _unsent(root: Path, devices: Sequence[str]) -> int:
    """Results still in the stations' outboxes (read beside the running stations)."""
    total = 0
    for device in devices:
        db = sqlite3.connect(f"file:{root / device / FILE_NAME}?mode=ro", uri=True)
        try:
            db.execute("PRAGMA busy_timeout = 5000")
            (n,) = db.execute("SELECT COUNT(*) FROM outbox WHERE sent IS NULL").fetchone()
            total += int(n)
        except sqlite3.Error as exc:  # a station that has not made its journal yet
            log.warning("bench: %s's outbox: %s", device, exc)
        finally:
            db.close()
    return total


def _received(console: Any) -> dict[str, int]:
    rows = console.run(
        lambda: console.journal.db.execute(
            "SELECT device, COUNT(*) FROM fleet_results GROUP BY device"
        ).fetchall()
    )
    return {str(d): int(n) for d, n in rows}


def outage_json(figures: dict[str, Any]) -> str:
    return json.dumps(figures, indent=2, sort_keys=True)


__all__ = ["SimHost", "bench_outage", "outage_json", "run_simulation", "simulate_command"]
