"""One bubble round without pygame (:class:`BubblePlay`): the model stepped by the clock,
and a finger's pick, drag, drop and let go in field units. Each move says what happened
(``tone``: ``info``, ``good`` a hit, ``miss`` a pop that scored nothing) with its sound,
or raises the engine's :class:`~tabletop.engine.errors.TabletopError`.
"""

from __future__ import annotations

import logging
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
from tabletop.ui.messages import child_message

log = logging.getLogger(__name__)

MAX_STEPS_PER_FRAME = 30  # a stalled frame (over 1 s) does not make bubbles jump
TOUCH_SLACK = RADIUS * 0.3  # fingers are wider than bubbles' edges
FLASH_SECONDS = 2.0
START = child_message("bubbles.said.start")


@dataclass(frozen=True)
class Flash:
    """A popped sum shown where it popped for a moment."""

    text: str
    pos: tuple[float, float]
    until: float
    hit: bool


class BubblePlay(TableController):
    """One timed round (see the module). ``seed`` and ``game.actions`` replay it
    (:func:`tabletop.games.bubbles.replay`); ``sound`` plays a cue."""

    def __init__(
        self,
        settings: BubbleSettings,
        seed: float,
        clock: Callable[[], float],
        sound: Callable[[str], None] = lambda cue: None,
    ) -> None:
        self.settings, self.seed, self.clock, self.sound = settings, seed, clock, sound
        self.game = BubbleGame.new(settings, rng=random.Random(seed))
        self.flash: Flash | None = None
        self.last: float | None = None  # None: paused (the time since does not count)
        self.spare = 0.0
        # the finger on the held bubble: "" none, "picked" (it picked it up), "held" (it
        # went down on the bubble held before), "moved" (it drags it)
        self.finger = ""
        self.releases = False  # the input layer sends Release (so a tap can start a drag)
        self.say(START)
        log.info(
            "bubbles: round of %d s starts, target %d, bubbles %s",
            settings.seconds,
            self.game.target,
            " ".join(b.label for b in self.game.bubbles.values()),
        )

    # -- time ------------------------------------------------------------------------------

    def advance(self, now: float) -> bool:
        """Step the model up to ``now`` (saying the reason of a new target the field
        forced): whether anything moved."""
        self.spare += 0.0 if self.last is None else max(0.0, now - self.last)
        self.last = now
        steps = int(self.spare / DT + 1e-9)
        self.spare -= steps * DT
        if steps > MAX_STEPS_PER_FRAME:
            steps, self.spare = MAX_STEPS_PER_FRAME, 0.0
        for _ in range(steps):
            for event in self.game.step():
                if isinstance(event, Retargeted):
                    log.info("bubbles: %s", event.reason)
                    self.say(event.reason)
        if self.flash is not None and now > self.flash.until:
            self.flash = None
        return steps > 0 or self.flash is not None

    def finish(self) -> None:
        self.game.put_down()
        log.info(
            "bubbles: time is up; score %d (seed %r, %d actions)",
            self.game.score,
            self.seed,
            len(self.game.actions),
        )

    # -- a finger ---------------------------------------------------------------------------

    def touch(self, x: float, y: float) -> None:
        """A finger down in the field: pick a red bubble up, drop it on a pair, or let go.

        With ``Release`` events a finger down on the held bubble may start a drag, so it
        is let go only if the finger comes up without moving; without them (taps only) a
        second tap on it lets go at once."""
        self.finger = ""
        b, held = self.game.bubble_at(x, y, TOUCH_SLACK), self.game.held
        if held is None and b is None:
            self.say(child_message("bubbles.said.pick_up"))
        elif held is None and b is not None:
            self.pick(b, "bubbles.said.picked")
        elif b is None:
            self.let_go()
        elif held is not None and b.id == held.id:
            self.finger = "held"
            if not self.releases:
                self.let_go()
        elif b.kind == "number" and b.partner is None:
            self.pick(b, "bubbles.said.picked_instead")
        else:
            self.drop(b)

    def pick(self, b: Bubble, said: str) -> None:
        """Pick ``b`` up, and say the sentence ``said`` about it."""
        self.game.pick(b.id)
        self.finger = "picked"
        log.info("bubbles: picked %s (bubble %d)", b.label, b.id)
        self.say(child_message(said, bubble=b.label))

    def let_go(self) -> None:
        held = self.game.held
        if held is not None:
            self.game.put_down()
            self.say(child_message("bubbles.said.let_go", bubble=held.label))

    def drag(self, x: float, y: float) -> None:
        if self.game.held is not None and self.finger:
            self.finger = "moved"
            self.game.move_held(x, y)

    def release(self, x: float, y: float) -> None:
        self.releases = True
        finger, self.finger, held = self.finger, "", self.game.held
        if held is None or finger != "moved":
            if held is not None and finger == "held":
                self.let_go()  # a tap on the held bubble
            return
        b = self.game.bubble_at(x, y, TOUCH_SLACK, held=False)
        if b is not None and b.partner is not None:
            self.drop(b)
            return
        self.game.put_down()
        if b is not None:
            raise IllegalMove(
                "bubbles.not_a_pair", f"{held.label} released on free bubble {b.label}"
            )

    def drop(self, onto: Bubble) -> None:
        held = self.game.held
        try:
            popped = self.game.drop(onto.id)
        except TabletopError:
            if held is not None and onto.partner is not None:
                self.game.put_down()  # a refused sum: the red bubble floats on
            raise
        self.popped(popped, (onto.x, onto.y))

    def popped(self, popped: Popped, where: tuple[float, float]) -> None:
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
        self.sound("good" if popped.hit else "seen")
        facts = {"reason": popped.reason, "target": popped.target, "new": popped.new_target}
        if popped.hit:
            self.say(child_message("bubbles.said.hit", facts), "good")
        elif popped.retargeted:
            self.say(child_message("bubbles.said.retargeted", facts), "miss")
        else:
            self.say(popped.reason, "miss")

    def can_undo(self) -> bool:
        return self.game.can_undo

    def undo(self) -> None:
        """Take back the last pop (the teacher typed the PIN)."""
        undone = self.game.undo()
        log.info("bubbles: undo %s (teacher PIN); score %d", undone.equation, self.game.score)
        self.flash = None
        self.say(
            child_message("bubbles.said.undone", equation=undone.equation, score=self.game.score)
        )


__all__ = ["FLASH_SECONDS", "START", "BubblePlay", "Flash"]
