"""One bubble round without pygame (:class:`BubblePlay`): the model stepped by the clock,
and a finger's pick, drag, drop and let go in field units. Each move returns the
:data:`Line` to show (text and tone: ``info``, ``good`` a hit, ``miss`` a pop that
scored nothing, ``bad``) or raises the engine's
:class:`~tabletop.engine.errors.TabletopError`.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from tabletop.engine.errors import IllegalMove, TabletopError
from tabletop.games.bubbles import (
    DT,
    RADIUS,
    Bubble,
    BubbleGame,
    BubbleSettings,
    Popped,
    Retargeted,
)
from tabletop.ui.controller import TableController

log = logging.getLogger(__name__)

MAX_STEPS_PER_FRAME = 30  # a stalled frame (over 1 s) does not make bubbles jump
TOUCH_SLACK = RADIUS * 0.3  # fingers are wider than bubbles' edges
FLASH_SECONDS = 2.0
START = "Drag a red bubble onto a pair to make the target!"

Line = tuple[str, str]


@dataclass(frozen=True)
class Flash:
    """A popped sum shown where it popped for a moment."""

    text: str
    pos: tuple[float, float]
    until: float
    hit: bool


class BubblePlay(TableController):
    """One timed round (see the module). ``seed`` and ``game.actions`` replay it
    (:func:`tabletop.games.bubbles.replay`)."""

    def __init__(self, settings: BubbleSettings, seed: float, clock: Callable[[], float]) -> None:
        self.settings = settings
        self.seconds = int(settings.seconds)
        self.seed = seed
        self.clock = clock
        self.game = BubbleGame.new(settings, rng=random.Random(seed))
        self.flash: Flash | None = None
        self.last: float | None = None  # None: paused (the time since does not count)
        self.spare = 0.0
        self.dragged = False  # the held bubble moved since the finger went down
        self.grabbed = False  # the finger went down on the held bubble
        self.picked_now = False  # ... and picked it up with that press
        self.releases = False  # the input layer sends Release (so a tap can start a drag)
        log.info(
            "bubbles: round of %d s starts, target %d, bubbles %s",
            self.seconds,
            self.game.target,
            " ".join(b.label for b in self.game.bubbles.values()),
        )

    # -- time ------------------------------------------------------------------------------

    def advance(self, now: float) -> tuple[bool, str | None]:
        """Step the model up to ``now``: whether anything moved, and the reason of the
        last new target the field forced (None: none)."""
        if self.last is None:
            self.last = now
        self.spare += max(0.0, now - self.last)
        self.last = now
        steps = int(self.spare / DT + 1e-9)
        self.spare -= steps * DT
        if steps > MAX_STEPS_PER_FRAME:
            steps, self.spare = MAX_STEPS_PER_FRAME, 0.0
        reason = None
        for _ in range(steps):
            for event in self.game.step():
                if isinstance(event, Retargeted):
                    log.info("bubbles: %s", event.reason)
                    reason = event.reason
        if self.flash is not None and now > self.flash.until:
            self.flash = None
        return steps > 0 or self.flash is not None, reason

    def finish(self) -> None:
        self.game.put_down()
        log.info(
            "bubbles: time is up; score %d (seed %r, %d actions)",
            self.game.score,
            self.seed,
            len(self.game.actions),
        )

    # -- a finger ---------------------------------------------------------------------------

    def bubble_under(self, x: float, y: float, *, skip_held: bool = False) -> Bubble | None:
        best: tuple[float, Bubble] | None = None
        for b in self.game.bubbles.values():
            d = math.hypot(b.x - x, b.y - y)
            near = d <= RADIUS + TOUCH_SLACK and (best is None or d < best[0])
            if near and not (skip_held and b.held):
                best = (d, b)
        return None if best is None else best[1]

    def touch(self, x: float, y: float) -> Line | None:
        """A finger down in the field: pick a red bubble up, drop it on a pair, or let go.

        With ``Release`` events a finger down on the held bubble may start a drag, so it
        is let go only if the finger comes up without moving; without them (taps only) a
        second tap on it lets go at once."""
        self.dragged = self.grabbed = self.picked_now = False
        b = self.bubble_under(x, y)
        held = self.game.held
        if held is None:
            if b is None:
                return "Tap a red bubble to pick it up.", "info"
            return self.pick(b, f"You have {b.label}. Now tap a pair (or drag it there).")
        if b is not None and b.id == held.id:
            self.grabbed = True
            return None if self.releases else self.let_go()
        if b is None:
            return self.let_go()
        if b.kind == "number" and b.partner is None:
            return self.pick(b, f"You have {b.label} now. Tap a pair.")
        return self.drop(b)

    def pick(self, b: Bubble, text: str) -> Line:
        self.game.pick(b.id)
        self.grabbed = self.picked_now = True
        log.info("bubbles: picked %s (bubble %d)", b.label, b.id)
        return text, "info"

    def let_go(self) -> Line | None:
        held = self.game.held
        if held is None:
            return None
        self.game.put_down()
        return f"You let go of {held.label}.", "info"

    def drag(self, x: float, y: float) -> None:
        if self.game.held is not None and self.grabbed:
            self.dragged = True
            self.game.move_held(x, y)

    def release(self, x: float, y: float) -> Line | None:
        self.releases = True
        grabbed, self.grabbed = self.grabbed, False
        held = self.game.held
        if held is None or not grabbed:
            return None
        if not self.dragged:
            return None if self.picked_now else self.let_go()  # a tap on the held bubble
        self.dragged = False
        b = self.bubble_under(x, y, skip_held=True)
        if b is not None and b.partner is not None:
            return self.drop(b)
        self.game.put_down()
        if b is not None:
            raise IllegalMove(
                "bubbles.not_a_pair", f"{held.label} released on free bubble {b.label}"
            )
        return None

    def drop(self, onto: Bubble) -> Line:
        held = self.game.held
        try:
            popped = self.game.drop(onto.id)
        except TabletopError:
            if held is not None and onto.partner is not None:
                self.game.put_down()  # a refused sum: the red bubble floats on
            raise
        return self.popped(popped, (onto.x, onto.y))

    def popped(self, popped: Popped, where: tuple[float, float]) -> Line:
        log.info(
            "bubbles: %.1f s: %s, target %d: %s; score %d; target now %d",
            popped.at,
            popped.equation,
            popped.target,
            "hit" if popped.hit else "miss",
            self.game.score,
            self.game.target,
        )
        self.flash = Flash(popped.equation, where, self.clock() + FLASH_SECONDS, popped.hit)
        if popped.hit:
            return f"{popped.reason} New target: {popped.new_target}.", "good"
        if popped.retargeted:
            return (
                f"{popped.reason} Nobody can make {popped.target} any more, so the new "
                f"target is {popped.new_target}.",
                "miss",
            )
        return popped.reason, "miss"

    def can_undo(self) -> bool:
        return self.game.can_undo

    def undo(self) -> Line:
        """Take back the last pop (the teacher typed the PIN)."""
        undone = self.game.undo()
        log.info("bubbles: undo %s (teacher PIN); score %d", undone.equation, self.game.score)
        self.flash = None
        return f"Took back {undone.equation}. Score: {self.game.score}.", "info"


__all__ = ["FLASH_SECONDS", "START", "BubblePlay", "Flash", "Line"]
