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

:func:`bench_outage` is the figure for issues 11 and 25: eight simulated stations, the
teacher's console (:class:`~tabletop.classroom.fleet.coordinator.Coordinator`) storing
results, and one fault while games keep finishing: the broker stopped for a while
(``outage``); the console stopped, then the broker killed with SIGKILL before it saved
its queue, then both started again (``power-cut``); or one station also sending results
the console cannot read among its good ones (``poison``, :func:`poison_bodies`).

A station stopped with SIGTERM first waits (up to :data:`DRAIN_ON_STOP` seconds) for the
console to answer what its outbox still holds, as the app does not need to: a result
left unanswered is sent again at the next start.
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
from tabletop.engine.words import plural
from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal, SeatInfo, result_record

log = logging.getLogger(__name__)

LABEL = "sim"
TICK = 0.1
DRAIN_ON_STOP = 10.0
POISON = ":poison-"  # in the ids of the results a --poison station sends on purpose
FAULTS = ("outage", "power-cut", "poison")
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
        self.say(f"roster {plural(len(message.students), 'student')} (not kept by a simulation)")

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
    poison: int = 0,
) -> int:
    """Run one simulated station until SIGTERM / SIGINT (or ``stop`` is set).
    ``poison``: also queue that many results the console cannot read, a few after
    each finished game (:func:`poison_bodies`)."""
    if game_seconds <= 0:
        raise BadInput("fleet.game_seconds", "--game-seconds must be more than 0")
    if poison < 0:
        raise BadInput("fleet.poison", "--poison must be 0 or more")
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
    bad = poison_bodies(config.device, poison, seed)
    per_game = -(-poison // 10)  # spread over the first ten games
    try:
        while not stop.is_set():
            fleet.update()
            finished = host.finished
            host.tick()
            if host.finished > finished and bad:
                _queue_raw(outbox, config.topics.result(config.device), bad[:per_game])
                del bad[:per_game]
            stop.wait(TICK)
    finally:
        host.stop()
        fleet.update()
        deadline = time.monotonic() + DRAIN_ON_STOP
        while link.connected.is_set() and outbox.count() and time.monotonic() < deadline:
            fleet.update()
            time.sleep(TICK)
        fleet.close()
        unsent = outbox.count()
        refused = len(outbox.refused())
        print(
            f"{config.device}: {plural(host.finished, 'game')} finished here,"
            f" {plural(unsent, 'result')} not yet stored by the console, {refused} refused by it",
            file=out,
            flush=True,
        )
        journal.close()
    return 0


def poison_bodies(device: str, count: int, seed: int = 0) -> list[tuple[str, bytes]]:
    """``count`` result bodies from ``device`` that the console cannot take, each with
    an id it can still find (so it answers "refused"): nested 100,000 deep, 1e999,
    NaN, a 5,000-digit integer, a score "1e30", a 10,000-letter name, cut in half,
    larger than a message may be, an unknown game, seats that are not a list."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        rid = f"{device}{POISON}{n:03d}-{rng.getrandbits(32):08x}"
        body = {
            "v": 1,
            "kind": "result",
            "id": rid,
            "device": device,
            "match": {
                "game": "mecs",
                "header": "{}",
                "label": LABEL,
                "session": "poison",
                "meta": {"checks": [[1, 1]]},
                "result": {"scores": ["1", "0"], "places": [1, 2], "winners": [0]},
                "reason": "end",
                "started": 1.0,
                "finished": 2.0,
                "elapsed": 1.0,
            },
            "seats": [{"seat": 0, "name": "P"}, {"seat": 1, "name": "Q"}],
            "sent": 1.0,
        }
        kind = n % 10
        if kind == 3:
            body["match"]["meta"]["n"] = 1  # type: ignore[index]
        elif kind == 4:
            body["match"]["result"]["scores"] = ["1e30", "0"]  # type: ignore[index]
        elif kind == 5:
            body["seats"][0]["name"] = "N" * 10_000  # type: ignore[index]
        elif kind == 7:
            body["match"]["meta"]["pad"] = "x" * 300_000  # type: ignore[index]
        elif kind == 8:
            body["match"]["game"] = "chess"  # type: ignore[index]
        elif kind == 9:
            body["seats"] = "everyone"
        text = json.dumps(body, separators=(",", ":"), sort_keys=True)
        if kind == 0:
            text = text.replace('"meta":{', '"meta":{"deep":' + "[" * 100_000 + "]" * 100_000 + ",")
        elif kind == 1:
            text = text.replace('"checks":[[1,1]]', '"checks":[[1e999,1]]')
        elif kind == 2:
            text = text.replace('"elapsed":1.0', '"elapsed":NaN')
        elif kind == 3:
            text = text.replace('"n":1', '"n":' + "7" * 5000)
        elif kind == 6:
            text = text[: len(text) // 2]
        out.append((rid, text.encode()))
    return out


def _queue_raw(outbox: Outbox, topic: str, bodies: Sequence[tuple[str, bytes]]) -> None:
    """Put ``bodies`` in the outbox as they are (unchecked: poison for the console)."""
    t = time.time()
    outbox.db.executemany(
        "INSERT INTO outbox (id, topic, body, created, sent) VALUES (?, ?, ?, ?, NULL)",
        [(rid, topic, body.decode(), t) for rid, body in bodies],
    )
    outbox.queued += len(bodies)


def simulate_command(
    fleet_file: Path,
    data: Path,
    *,
    seed: int | None = None,
    game_seconds: float | None = None,
    verbose: bool = False,
    poison: int = 0,
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
    if poison:
        command += ["--poison", str(poison)]
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
    fault: str = "outage",
    gap: float = 15.0,
    poison: int = 50,
) -> dict[str, Any]:
    """Simulated stations (processes) and the teacher's console on a loopback mosquitto,
    and one ``fault`` (module docstring) while games keep finishing: ``outage`` stops
    the broker for ``outage`` seconds; ``power-cut`` stops the console, ``gap`` seconds
    later kills the broker (SIGKILL), and starts both again after ``outage`` seconds;
    ``poison`` has station-1 send ``poison`` unreadable results among its good ones.

    Counts, by result id: ``sent`` (every good result the stations queued), ``stored``
    (the console's ``fleet_results``), ``missing`` (sent, never stored),
    ``duplicates`` (a game stored twice), ``refused`` (results the console refused)."""
    from tabletop.classroom.fleet.config import loopback_broker
    from tabletop.classroom.fleet.coordinator import Coordinator
    from tabletop.classroom.rotation import Plan, Station

    if fault not in FAULTS:
        raise BadInput("fleet.fault", f"--fault must be one of {', '.join(FAULTS)}, not {fault!r}")

    def note(line: str) -> None:
        if out is not None:
            print(line, file=out, flush=True)

    devices = [f"station-{i + 1}" for i in range(stations)]
    with contextlib.ExitStack() as stack:
        root = folder or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        broker = stack.enter_context(loopback_broker(root / "broker", devices))
        consoles = [Coordinator(broker.provisioned.teacher, root / "teacher").start()]
        stack.callback(lambda: consoles[-1].stop())
        games = ("math-attack", "mecs", "math-arena", "mathe-meister")
        plan = Plan(
            tuple(Station(games[i % len(games)]) for i in range(stations)),
            tuple(f"Group {i + 1}" for i in range(stations)),
            minutes=90,
            rotations=1,
        )
        first = consoles[0]
        first.run(first.start_plan, plan, {d: i for i, d in enumerate(devices)}, "bench")
        procs: list[subprocess.Popen[bytes]] = []
        for i, device in enumerate(devices):
            fleet_file = root / "broker" / f"{device}.toml"
            bad = poison if fault == "poison" and i == 0 else 0
            command = simulate_command(
                fleet_file, root / device, seed=i, game_seconds=game_seconds, poison=bad
            )
            procs.append(
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        stack.callback(_stop_all, procs)
        note(f"{plural(stations, 'station')} playing; the fault ({fault}) comes in {before:.0f} s")
        time.sleep(before)
        queued = lost = 0
        if fault == "outage":
            broker.stop()
            stopped_at = time.monotonic()
            note(f"broker stopped for {outage:.0f} s")
            time.sleep(outage)
            queued = _unsent(root, devices)  # results waiting for the console now
            broker.start()
            note(f"broker started again after {time.monotonic() - stopped_at:.1f} s")
        elif fault == "power-cut":
            consoles[-1].stop()
            note(f"console stopped; the broker is killed in {gap:.0f} s")
            time.sleep(gap)
            broker.kill()
            note(f"broker killed (SIGKILL); both start again in {outage:.0f} s")
            time.sleep(outage)
            queued = _unsent(root, devices)
            lost = _taken_not_stored(root, devices)
            broker.start()
            consoles.append(Coordinator(broker.provisioned.teacher, root / "teacher").start())
            note("broker and console started again")
        restarted = time.monotonic()
        drained: float | None = None
        while time.monotonic() - restarted < after:
            if drained is None and fault != "poison" and _unsent(root, devices) == 0:
                drained = time.monotonic() - restarted
                note(f"every outbox answered {drained:.1f} s after the restart")
            time.sleep(0.5)
        note("stations stopping (each waits for the console's last answers)")
        _stop_all(procs)
        console = consoles[-1]
        sent = _sent_ids(root, devices)
        settle = time.monotonic() + 30
        while time.monotonic() < settle:  # anything still on its way
            if not sent - _stored_ids(console):
                break
            time.sleep(0.5)
        stored = _stored_ids(console)
        per_device = _received(console)
        counts = _finished_counts(root, devices)
        duplicates = console.run(_duplicates, console)
        refused = console.run(lambda: len(console.refusals))
        missing = len(sent - stored)
        unsent = _unsent(root, devices)
        return {
            "fault": fault,
            "stations": stations,
            "outage_seconds": outage if fault != "poison" else 0,
            "game_seconds": game_seconds,
            "consumer": "tabletop.classroom.fleet.coordinator.Coordinator",
            "sent": len(sent),
            "stored": len(stored & sent),
            "missing": missing,
            "duplicates": duplicates,
            "refused": refused,
            "poison_sent": poison if fault == "poison" else 0,
            "refused_at_stations": _refused_at_stations(root, devices),
            "finished_games": sum(counts.values()),
            "results_sent": len(sent),
            "results_received": sum(per_device.values()),
            "received_again_not_stored": console.duplicates,
            "duplicates_stored": duplicates,
            "left_in_outboxes": unsent,
            "queued_when_the_broker_came_back": queued,
            "taken_by_the_killed_broker_not_stored": lost,
            "outboxes_empty_after_restart_seconds": None if drained is None else round(drained, 1),
            "per_station": {d: [counts[d], per_device.get(d, 0)] for d in devices},
        }


def _duplicates(console: Any) -> int:
    """Games stored more than once on the console: by result id, and by the game itself
    (its station, its header with the seed, when it started)."""
    db = console.journal.db
    (by_id,) = db.execute("SELECT COUNT(*) - COUNT(DISTINCT id) FROM fleet_results").fetchone()
    (by_game,) = db.execute(
        "SELECT COUNT(*) - COUNT(DISTINCT label || '|' || header || '|' || started)"
        " FROM matches WHERE label LIKE 'fleet:%'"
    ).fetchone()
    return int(by_id) + int(by_game)


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


def _finished_counts(root: Path, devices: Sequence[str]) -> dict[str, int]:
    counts = {}
    for device in devices:
        journal = Journal(root / device / FILE_NAME)
        (n,) = journal.db.execute(
            "SELECT COUNT(*) FROM matches WHERE status = 'finished'"
        ).fetchone()
        counts[device] = int(n)
        journal.close()
    return counts


def _read(root: Path, device: str, sql: str) -> list[Any]:
    """Rows of ``sql`` on a station's journal, read beside the running station (none
    when it has not made its journal or outbox yet)."""
    db = sqlite3.connect(f"file:{root / device / FILE_NAME}?mode=ro", uri=True)
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        return db.execute(sql).fetchall()
    except sqlite3.Error as exc:
        log.warning("bench: %s's outbox: %s", device, exc)
        return []
    finally:
        db.close()


def _sent_ids(root: Path, devices: Sequence[str]) -> set[str]:
    """Every good result the stations queued (the poison ones left out)."""
    return {
        str(rid)
        for device in devices
        for (rid,) in _read(root, device, "SELECT id FROM outbox")
        if POISON not in str(rid)
    }


def _outbox_count(root: Path, devices: Sequence[str], where: str) -> int:
    """Rows of the stations' outboxes that match ``where``."""
    sql = f"SELECT COUNT(*) FROM outbox WHERE {where}"
    return sum(int(r[0]) for device in devices for r in _read(root, device, sql))


def _unsent(root: Path, devices: Sequence[str]) -> int:
    """Results in the stations' outboxes that the console has not answered."""
    return _outbox_count(root, devices, "delivered IS NULL AND refused IS NULL")


def _taken_not_stored(root: Path, devices: Sequence[str]) -> int:
    """Results the broker acknowledged that the console has not stored: with the broker
    killed, the ones a station would lose if the broker's PUBACK were its answer."""
    where = "sent IS NOT NULL AND delivered IS NULL AND refused IS NULL"
    return _outbox_count(root, devices, where)


def _refused_at_stations(root: Path, devices: Sequence[str]) -> int:
    return _outbox_count(root, devices, "refused IS NOT NULL")


def _stored_ids(console: Any) -> set[str]:
    rows = console.run(
        lambda: console.journal.db.execute("SELECT id FROM fleet_results").fetchall()
    )
    return {str(r[0]) for r in rows}


def _received(console: Any) -> dict[str, int]:
    rows = console.run(
        lambda: console.journal.db.execute(
            "SELECT device, COUNT(*) FROM fleet_results GROUP BY device"
        ).fetchall()
    )
    return {str(d): int(n) for d, n in rows}


def outage_json(figures: dict[str, Any]) -> str:
    return json.dumps(figures, indent=2, sort_keys=True)


__all__ = [
    "FAULTS",
    "SimHost",
    "bench_outage",
    "outage_json",
    "poison_bodies",
    "run_simulation",
    "simulate_command",
]
