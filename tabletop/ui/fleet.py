"""The touchscreen app as a station of the classroom fleet: the station's link and its
protocol live in ``tabletop.classroom.fleet.station``, which knows nothing of the app;
:class:`AppHost` is the app's side of it."""

from __future__ import annotations

import logging
from typing import Any

from tabletop.classroom.fleet.config import FleetConfig, find_config
from tabletop.classroom.fleet.messages import PlanMessage, RosterMessage, Standing
from tabletop.classroom.fleet.outbox import Outbox
from tabletop.classroom.fleet.station import (
    FLEET_NAME,
    ROSTER_NOT_TAKEN,
    StationFleet,
    StationLink,
    fleet_plan_id,
    rotation_status,
)
from tabletop.classroom.roster import Roster
from tabletop.classroom.rotation import RotationClock, start_rotation
from tabletop.classroom.students import Student
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.rotation import RotationRunner, finish_games, games_on, run_rotation

log = logging.getLogger(__name__)


class AppHost:
    """The app (``ctx``: its Context) as a station's ``Host``: it follows the teacher's
    plan with the app's rotation screens, takes the class list, shows notices and says
    what is being played."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def _runner(self) -> Any:
        runner = self.ctx.rotation
        return runner if isinstance(runner, RotationRunner) and not runner.finished else None

    def fleet_plan(self) -> str | None:
        runner = self._runner()
        return fleet_plan_id(runner.stored.name) if runner is not None else None

    def follow(self, plan: PlanMessage, station: int, clock: RotationClock) -> None:
        ctx, runner = self.ctx, self._runner()
        if runner is not None and self.fleet_plan() == plan.id and runner.station == station:
            runner.adopt(clock)
            return
        if clock.now(ctx.wall()).done:  # over already: nothing to start
            if runner is not None and self.fleet_plan() is not None:
                runner.end()
            return
        if runner is not None:  # another rotation: its games end for time, as at time up
            finish_games(ctx)
        stored = start_rotation(
            ctx.journal,
            plan.plan,
            station,
            session=plan.session or ctx.session,
            name=FLEET_NAME + plan.id,
            now=ctx.wall,
            clock=clock,
        )
        if plan.session:
            ctx.session = plan.session
        run_rotation(ctx, stored)
        log.info(
            "fleet: rotation %d follows plan %s as station %d", stored.id, plan.id, station + 1
        )

    def leave(self) -> None:
        runner = self._runner()
        if runner is not None and self.fleet_plan() is not None:
            log.info("fleet: the teacher's rotation is over here")
            runner.end()

    def roster(self, message: RosterMessage) -> None:
        students = [Student(s.id, s.name, s.group) for s in message.students]
        try:
            report = Roster(self.ctx.journal).import_students(students, replace=True)
        except TabletopError as exc:
            log.error("fleet: the class list was not taken: %s: %s", exc.code, exc.message)
            self.notice(ROSTER_NOT_TAKEN.format(why=exc.message))
            return
        log.info("fleet: class list from the teacher: %s", report.sentence())

    def notice(self, text: str) -> None:
        self.ctx.notices.append(text)

    def status(self) -> dict[str, Any]:
        runner = self._runner()
        fields = rotation_status(runner.stored, runner.moment) if runner is not None else {}
        game = top_game(self.ctx.stack)
        if game is not None:
            fields["game"], fields["standings"] = game
        return fields


def top_game(scenes: Any) -> tuple[str, tuple[Standing, ...]] | None:
    """The topmost game still being played among ``scenes``: its game id and standings
    (names from its save's seats), or None."""
    scene = next((s for s in games_on(scenes) if not getattr(s.save, "finished", False)), None)
    if scene is None:
        return None
    try:
        result = scene.standings()
    except Exception as exc:  # a half-built screen: no standings yet
        log.debug("fleet: no standings from %s: %s", type(scene).__name__, exc)
        return str(scene.save.game), ()
    names = [str(n) for n in getattr(scene.save, "names", [])]
    rows = tuple(
        Standing(names[i] if i < len(names) else f"Player {i + 1}", str(score), int(place))
        for i, (score, place) in enumerate(zip(result.scores, result.places, strict=False))
    )
    return str(scene.save.game), rows[:8]


def start_app_fleet(ctx: Any, explicit: Any = None) -> StationFleet | None:
    """At the app's start: join the fleet if a fleet file is given (its path, or read
    already) or found (:func:`config.find_config`), hooking the journal's finished games
    to the outbox; None when the device runs alone (or its fleet file is unreadable, said
    on screen)."""
    try:
        config = explicit if isinstance(explicit, FleetConfig) else find_config(explicit)
        if config is None:
            return None
        outbox = Outbox(ctx.journal.db, config.device, config.topics, now=ctx.wall)
        link = StationLink(config, outbox, wall=ctx.wall)
    except BadInput as exc:
        log.error("fleet: %s: %s", exc.code, exc.message)
        ctx.notices.append(child_message("ui.no_fleet_file"))
        return None
    ctx.journal.on_finished = outbox.on_finished
    fleet = StationFleet(link, AppHost(ctx), clock=ctx.clock)
    link.start()
    return fleet


__all__ = ["AppHost", "start_app_fleet", "top_game"]
