"""Saving the game being played, so an unplugged device loses nothing (issue 10).

A game screen keeps its match in a :class:`GameSave`: :meth:`GameSave.attach` starts the
match's row in the journal (``ctx.journal``, :mod:`tabletop.store`) and hooks
``Match.on_change``, so every apply, deal and undo is on disk *before* the screen shows
it. Beside the actions the row keeps what the screen needs to be built again
(``meta["app"]``: names, bot levels, real or virtual cards, the seed), who sits where
(``seats``, with the student's id when they signed in), the answers the device checked
per seat (``meta["checks"]``, for the teacher's report) and the seconds played.

When the app starts, Home offers the newest unfinished game; its game module's
``resume_scene(ctx, save, match)`` rebuilds the screen around the match replayed from the
journal. Chance in virtual play comes from a :class:`~tabletop.engine.dealers.KeyedDealer`
keyed by the number of actions, so a resumed game deals exactly what the uninterrupted
one would have.

A save that fails never stops the game. On a full or read-only SD card the journal goes
on in memory (:mod:`tabletop.store`) and tries the card again as play goes on; the
children see :func:`saving_words` once when saving stops and once when it starts again,
the teacher the precise sentence on the settings screen and in the log. A save that fails
even so is logged, the children see one sentence, and the next change tries again.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tabletop.classroom.skills import answer_record
from tabletop.classroom.students import Student, shown_names
from tabletop.engine.dealers import KeyedDealer
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result, places_from_scores
from tabletop.store import Saved, SeatInfo, result_record
from tabletop.ui.messages import child_message

if TYPE_CHECKING:
    from tabletop.classroom.mistakes import Question
    from tabletop.ui.app import Context

log = logging.getLogger(__name__)

LABEL = "app"  # the journal label of games played on the touchscreen
SAVE_FAILED = child_message("ui.save_failed")
NOT_SAVING = child_message("ui.not_saving")
SAVING_AGAIN = child_message("ui.saving_again")


def saving_words(journal: Any) -> str:
    """What the children see when the journal stops saving to the card, or starts again
    (the teacher's precise sentence is ``journal.trouble``)."""
    return NOT_SAVING if journal.trouble is not None else SAVING_AGAIN


def standings_result(scores: Sequence[Fraction | int], why: str) -> Result:
    """The result of a game stopped by the rotation's clock before its end: places from
    the scores, as the engines place them."""
    exact = tuple(Fraction(s) for s in scores)
    return Result(exact, places_from_scores(exact), why)


def game_seed(ctx: Context, seed: int | None = None, below: int = 10**9) -> int:
    """The seed a game deals with: ``seed`` (the match's, carried on), else a fresh one
    from the app's rng, ``0 <= seed < below``."""
    return ctx.rng.randrange(below) if seed is None else seed


def keyed_dealer(seed: int, match: Match[Any, Any, Any]) -> KeyedDealer:
    """The virtual dealer of a saved game: each outcome keyed by the actions so far."""
    return KeyedDealer(seed, lambda: match.moves)


@dataclass
class GameSave:
    """One game screen's link to the journal (see the module docstring)."""

    ctx: Context
    game: str
    seats: list[SeatInfo]
    app: dict[str, Any]  # what the game's screen needs to be built again
    id: int | None = None
    checks: list[list[int]] = field(default_factory=list)  # per seat: [checked, right]
    played_before: float = 0.0  # seconds played before this process took the game up
    # The journal label of a new row: LABEL for a game Home offers to carry on; another
    # label for a row that belongs to one (e.g. a bot's own sheet at a Mathe-Meister table).
    label: str = LABEL
    finished: bool = False  # finish() was called: later syncs are ignored
    _since: float | None = None
    _failed: bool = False
    _match: Match[Any, Any, Any] | None = None
    # issue 24: the clock when the match was n actions long (for the seconds an answer
    # took), and the last step whose answers are journaled (None: not looked up yet)
    _times: dict[int, float] = field(default_factory=dict)
    _answered_to: int | None = None

    def __post_init__(self) -> None:
        while len(self.checks) < len(self.seats):
            self.checks.append([0, 0])

    @classmethod
    def resumed(cls, ctx: Context, saved: Saved) -> GameSave:
        """The save of a journaled game, to carry on with it. The seconds played are the
        journal's, or the table's record's when that was written later (``app["played"]``,
        which a table writes beside its record, see ``TableScene.save_table``)."""
        checks, app = saved.meta.get("checks"), dict(saved.meta.get("app") or {})
        return cls(
            ctx,
            saved.game,
            ctx.journal.seats(saved.id),
            app,
            id=saved.id,
            checks=[list(map(int, c)) for c in checks] if isinstance(checks, list) else [],
            played_before=max(saved.elapsed, float(app.get("played") or 0.0)),
        )

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seats_or(self, recorded: Sequence[Any] | None) -> Sequence[Any]:
        """Who sits where in a game carried on: the journal's seats, or where its rows
        were not written (fewer than the game's), the seats the table ``recorded`` in
        ``app`` (each as that game wrote it)."""
        return self.seats if recorded is None or len(self.seats) == len(recorded) else recorded

    def meta(self) -> dict[str, Any]:
        return {"app": self.app, "checks": self.checks}

    def elapsed(self) -> float:
        """Seconds this game has been played, over every process that ran it."""
        if self._since is None:
            return self.played_before
        return self.played_before + max(0.0, self.ctx.clock() - self._since)

    # -- writing ---------------------------------------------------------------------------

    def attach(self, match: Match[Any, Any, Any]) -> None:
        """Journal ``match`` from now on: a new row the first time, else a sync (the
        screen rebuilt its match, e.g. after correcting a misread card)."""
        self._match = match
        if self._since is None:
            self._since = self.ctx.clock()
        self._times.setdefault(match.moves, self.ctx.clock())  # an answer's seconds
        if self.id is None:
            with self._writing():
                self.id = self.ctx.journal.start(
                    match,
                    label=self.label,
                    meta=self.meta(),
                    seats=self.seats,
                    session=self.ctx.session,
                )
        else:
            self.sync(match)
        match.on_change = self.sync

    def sync(self, match: Match[Any, Any, Any]) -> None:
        if self.finished:  # the journal keeps the game as it ended (or was left)
            return
        if self.id is None:  # the row could not be started: try again now
            match.on_change = None
            self.attach(match)
            return
        self._times[match.moves] = self.ctx.clock()
        with self._writing():
            self.ctx.journal.sync(self.id, match, elapsed=self.elapsed())
            self._failed = False

    def checked(self, seat: int, right: bool) -> None:
        """The device checked an answer of ``seat`` (a solution, an equation, a value,
        a sum): counted for the teacher's report."""
        if not 0 <= seat < len(self.checks):
            return
        self.checks[seat][0] += 1
        self.checks[seat][1] += int(right)
        self.write_meta()

    def answered(
        self,
        seat: int,
        question: Question,
        given: Fraction | int,
        *,
        step: int | None = None,
        seconds: float | None = None,
    ) -> None:
        """The device checked ``seat``'s answer ``given`` to ``question``: journaled with
        its question for the skills report (a bot's answers are not)."""
        if self.id is None or not 0 <= seat < len(self.seats) or self.seats[seat].bot:
            return
        with self._writing():
            self.ctx.journal.add_answers(
                self.id, [answer_record(seat, step, question, given, seconds)]
            )

    def answers_from_match(
        self, found: Sequence[tuple[int, int, int | None, Question, Fraction]]
    ) -> None:
        """For a screen whose controller keeps the answers it checked (step of the answer,
        seat, step the question was asked at, question, the answer given; in step order):
        journal the new ones, and take back answers an undo removed."""
        if self.id is None or self._match is None:
            return
        journal = self.ctx.journal
        steps = self._match.moves
        with self._writing():
            if self._answered_to is None:
                done = [a.step for a in journal.answers(self.id) if a.step is not None]
                self._answered_to = max(done, default=0)
            if steps < self._answered_to:
                journal.take_back_answers(self.id, steps)
                self._answered_to = steps
            first_new = bisect.bisect_right(found, self._answered_to, key=lambda f: f[0])
            new = [
                answer_record(seat, step, q, given, self.seconds_since(asked, step))
                for step, seat, asked, q, given in found[first_new:]
                if not self.seats[seat].bot
            ]
            journal.add_answers(self.id, new)
            self._answered_to = max(self._answered_to, found[-1][0] if found else 0)

    def seconds_since(self, asked: int | None, answered: int | None = None) -> float | None:
        """Seconds from when the match reached ``asked`` actions to when it reached
        ``answered`` (each the first write at or past it; None: to now), None when this
        process did not see both (a game carried on: counted from when it was taken up)."""
        start = self._reached(asked)
        end = self.ctx.clock() if answered is None else self._reached(answered)
        return None if start is None or end is None else max(0.0, end - start)

    def _reached(self, n: int | None) -> float | None:
        """The clock at the first write of the match at ``n`` actions or more."""
        later = [m for m in self._times if n is not None and m >= n]
        return self._times[min(later)] if later else None

    def write_meta(self) -> None:
        """Write ``app`` and ``checks`` now: for a screen that keeps part of its state
        beside its match (changed in ``app``) or sets ``checks`` from that state."""
        if self.id is not None:
            with self._writing():
                self.ctx.journal.set_meta(self.id, self.meta())

    def set_seats(self, seats: Sequence[SeatInfo]) -> None:
        self.seats = list(seats)
        self.__post_init__()
        if self.id is not None:
            with self._writing():
                self.ctx.journal.set_seats(self.id, self.seats)

    def finish(self, result: Result | None, *, reason: str = "end") -> None:
        """The game is over (``reason`` "end"), stopped by the rotation's clock ("time",
        ``result`` = the standings then) or left ("abandoned")."""
        if self._match is not None:
            self._match.on_change = None
            self.sync(self._match)
        self.finished = True
        if self.id is None:
            return
        status = "abandoned" if reason == "abandoned" else "finished"
        with self._writing():
            self.ctx.journal.finish(
                self.id, result_record(result, reason=reason), reason=reason, status=status
            )

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A write to the journal that may fail: the failure is logged, the children
        told once (until a sync succeeds again), and the game goes on."""
        try:
            yield
        except TabletopError as exc:
            log.error("journal: %s: %s", exc.code, exc.message)
            if not self._failed:
                self.ctx.notices.append(SAVE_FAILED)
            self._failed = True


@contextlib.contextmanager
def one_write(match: Match[Any, Any, Any]) -> Iterator[None]:
    """Steps that only make sense together (all one input leads to: a camera reading, a
    press, an undo, a rewrite from an earlier step) reach the journal through
    ``match.on_change`` once, at the end, and only if the match changed."""
    hook, match.on_change = match.on_change, None
    moves, last = match.moves, match.last
    try:
        yield
    finally:
        match.on_change = hook
        changed = match.moves != moves or match.last is not last
        if hook is not None and changed:
            hook(match)


def unfinished(ctx: Context) -> list[Saved]:
    """Games left unfinished on the touchscreen (newest first) that can be carried on:
    their game's app has a ``resume_scene``."""
    from tabletop.ui.games import game_app

    return [s for s in ctx.journal.unfinished(LABEL) if hasattr(game_app(s.game), "resume_scene")]


def seat_infos(names: Sequence[str], bots: Mapping[int, str] | None = None) -> list[SeatInfo]:
    """Seats for names typed or defaulted at setup (no student signed in)."""
    bots = bots or {}
    return [SeatInfo(i, name, bot=bots.get(i)) for i, name in enumerate(names)]


def folded(name: str) -> str:
    """A name as two seats' names are compared: without spaces, capitals or not."""
    return "".join(name.split()).casefold()


def shown_seat_names(seats: Sequence[SeatInfo]) -> dict[int, str]:
    """Each seat's name as the screens show it: a student's told apart from a namesake
    signed in at another seat (:func:`~tabletop.classroom.students.shown_names`, "Mia
    (4b)"), a guest's or a bot's as it is, but told apart from one typed alike at an
    earlier seat (a game journaled before the setup refused it): "Sam", then "Sam 2"."""
    shown = shown_names(Student(s.student or "", s.name, s.group) for s in seats)
    names: dict[int, str] = {}
    typed: Counter[str] = Counter()
    for s in sorted(seats, key=lambda s: s.seat):
        names[s.seat] = name = shown.get(s.student or "", s.name)
        typed[folded(name)] += not s.student
        if not s.student and typed[folded(name)] > 1:
            names[s.seat] = f"{name} {typed[folded(name)]}"
    return names


def seats_of(seats: Sequence[Sequence[Any] | SeatInfo], bot: str) -> list[SeatInfo]:
    """Seats given as (name, is a bot[, its level]), as the setup or a table's record in
    ``app`` has them, or as the journal's seats (a child signed in keeps theirs): a bot
    with no level at level ``bot``."""
    infos = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, SeatInfo):
            name, is_bot, *level = (*seat, bot)
            seat = SeatInfo(i, str(name), bot=str(level[0]) if is_bot else None)
        infos.append(seat)
    return infos


def demo_seats(save: GameSave, child: int | None = None) -> None:
    """A demo's seats in the journal: every seat a demo's bot plays is journaled as a
    bot (reports leave bots out, issue 24), but ``child``'s (the ``--child`` demo's
    guest child). The screens keep their own idea of who is a bot."""
    save.set_seats([s if s.seat == child else replace(s, bot=s.bot or "demo") for s in save.seats])


# -- the demos' journal (``tabletop demo --game G --seed S --data DIR``) ----------------------


@dataclass
class DemoTable:
    """What a demo keeps beside the app's own game: the virtual table (a match that
    knows every hand, from which the demo lays "real" cards under the camera),
    journaled under ``demo:<game>:<seed>`` so a killed demo carries on.

    :meth:`open` finds a demo to carry on: the app's unfinished game of ``game`` and
    this table, both journaled. Anything else left over (only one of the two) is
    marked abandoned, and the demo starts again from the seed, which plays the same.
    """

    ctx: Context
    game: str
    seed: int
    id: int | None = None
    saved: Saved | None = None  # the app's game to carry on, if any

    @property
    def label(self) -> str:
        return f"demo:{self.game}:{self.seed}"

    def open(self, games: Mapping[str, Any]) -> Match[Any, Any, Any] | None:
        journal = self.ctx.journal
        tables = journal.unfinished(self.label)
        mine = [s for s in journal.unfinished(LABEL) if s.game == self.game]
        if tables and mine:
            try:
                table = journal.load(tables[0].id, games)
            except TabletopError as exc:
                log.warning("demo: the table does not replay (%s): starting again", exc)
            else:
                self.id, self.saved = tables[0].id, mine[0]
                table.on_change = self.sync
                return table
        for left in [*tables, *mine]:
            journal.finish(left.id, None, reason="abandoned", status="abandoned")
        return None

    def start(self, match: Match[Any, Any, Any]) -> None:
        self.id = self.ctx.journal.start(match, label=self.label)
        match.on_change = self.sync

    def sync(self, match: Match[Any, Any, Any]) -> None:
        if self.id is not None:
            self.ctx.journal.sync(self.id, match)

    def finish(self, match: Match[Any, Any, Any]) -> None:
        match.on_change = None
        if self.id is not None:
            self.ctx.journal.finish(self.id, result_record(match.result()))


__all__ = [
    "LABEL",
    "NOT_SAVING",
    "SAVING_AGAIN",
    "DemoTable",
    "GameSave",
    "demo_seats",
    "folded",
    "keyed_dealer",
    "one_write",
    "result_record",
    "saving_words",
    "seat_infos",
    "seats_of",
    "shown_seat_names",
    "standings_result",
    "unfinished",
]
