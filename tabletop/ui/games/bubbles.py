"""The bubble game on the touchscreen (RULINGS MECS-8): make the target from flying bubbles.

Red number bubbles and blue sign bubbles drift and bounce; a blue one that touches a red
one sticks to it. The child drags a free red bubble onto a stuck pair (or taps it, then
taps the pair: that works on every touchscreen and is how the tests play), the three pop
and the answer shows; the target in the background scores a point. After the round
(60 s by default) the child types a name for the scoreboard.

Screens: the one setup form (:data:`SETUP`: round length, rules, the scoreboard),
:class:`BubbleScene` (the round), :class:`BubbleResults` (score and scoreboard). The model is
:mod:`tabletop.games.bubbles`; it is stepped with fixed steps from ``ctx.clock``.

Touch targets: setup ``time.30`` ``time.60`` ``time.90`` ``rules`` ``start`` ``back`` (seat
1's button starts too); round
``bubble.<id>`` (one per bubble), ``undo`` (behind the teacher PIN), ``rules``, ``leave``;
results ``again`` ``done``. Dragging uses ``Drag`` / ``Release`` events (by class name)
when the input layer sends them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import random
import sqlite3
import tempfile
import weakref
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

import pygame

from hardware.buttons import SeatPressed
from tabletop.engine.errors import TabletopError
from tabletop.games.bubbles import (
    DT,
    HEIGHT,
    OP_GLYPHS,
    RADIUS,
    WIDTH,
    Bubble,
    BubbleGame,
    BubbleSettings,
    Popped,
    Retargeted,
)
from tabletop.highscores import HighScores
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import Back, CardsSeen, InputEvent, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import ask_leave, go_home, header
from tabletop.ui.scenes.form import Choice, FormScene, FormSpec, FormValues, OptionRow
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import RulesPage, RulesScene
from tabletop.ui.theme import BLUE, VERMILLION, Metrics
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

GAME = "bubbles"
ROUND_LENGTHS = (30, 60, 90)
MAX_STEPS_PER_FRAME = 30  # a stalled frame (over 1 s) does not make bubbles jump
TOUCH_SLACK = RADIUS * 0.3  # fingers are wider than bubbles' edges
FLASH_SECONDS = 2.0
RED = VERMILLION
PAIR_RING = (25, 25, 30)



def painter_line(ctx: Context, size: int) -> int:
    """The height of one line of text at ``size``."""
    return int(ctx.fonts.font(size).get_linesize())


def rules_pages() -> list[RulesPage]:
    x, div, minus = OP_GLYPHS["x"], OP_GLYPHS["/"], OP_GLYPHS["-"]
    return [
        RulesPage(
            "The bubbles",
            "Red bubbles have numbers. Blue bubbles have signs: + "
            f"{minus} {x} {div}. They float and bounce. When a blue bubble touches a red "
            "one, the two stick together and stop. That makes a pair.",
            f"The blue {x} bumps into the red 6. They stick: 6 {x}.",
        ),
        RulesPage(
            "Make a sum",
            "Drag a free red bubble onto a pair. Or tap the red bubble, then tap the pair. "
            "All three bubbles pop and show the answer.",
            f"Drop the red 4 on the pair 6 {x}: 6 {x} 4 = 24.",
        ),
        RulesPage(
            "Hit the target",
            "The big number behind the bubbles is the target. If your answer is the "
            "target, you get 1 point and a new target comes. The bubbles on the screen "
            "can always make the target.",
            f"Target 24: 6 {x} 4 = 24 is 1 point. 7 {div} 2 = 7/2 leaves a remainder, "
            "so it is not a whole number: no point.",
        ),
        RulesPage(
            "Time and scores",
            "A round lasts 60 seconds. Then type your name for the scoreboard. "
            "The teacher can take back the last sum with the PIN.",
            "Score 5 in 60 seconds, type MIA, and the scoreboard shows Mia 5.",
        ),
    ]


# -- the scoreboard ------------------------------------------------------------------------


class Scoreboard:
    """The bubble game's local scoreboard: best scores per round length.

    Every score is recorded in the app's high scores (``HighScores.record``, game
    ``"bubbles"``, mode ``"60s"``), which gives personal bests. Listing the best scores of
    all players needs ``HighScores.top``; until the high scores have it, the list lives in
    a small SQLite table of its own next to the high-score file (in memory when the high
    scores are)."""

    def __init__(self, highscores: HighScores) -> None:
        self.highscores = highscores
        self._db: sqlite3.Connection | None = None
        if not callable(getattr(highscores, "top", None)):
            path = highscores.path
            self._db = self._open(None if path is None else path.with_name("bubbles.sqlite3"))

    @staticmethod
    def _open(path: Path | None) -> sqlite3.Connection:
        db: sqlite3.Connection | None = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(path)
                db.execute("PRAGMA quick_check").fetchone()
            except (OSError, sqlite3.DatabaseError) as exc:
                log.warning("bubble scoreboard %s cannot be used (%s); kept in memory", path, exc)
                db = None
        db = db or sqlite3.connect(":memory:")
        with db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS bubble_scores (id INTEGER PRIMARY KEY, "
                "player TEXT NOT NULL, seconds INTEGER NOT NULL, score INTEGER NOT NULL, "
                "played_at TEXT NOT NULL)"
            )
        return db

    def record(self, player: str, seconds: int, score: int) -> int:
        """Store a score; its place on the board (1 = best)."""
        self.highscores.record(GAME, player, (f"{seconds}s",), score)
        if self._db is None:
            board = self.top(seconds, limit=1000)
            return 1 + sum(1 for _, s in board if s > score)
        try:
            with self._db:
                self._db.execute(
                    "INSERT INTO bubble_scores (player, seconds, score, played_at) "
                    "VALUES (?, ?, ?, ?)",
                    (player, seconds, score, datetime.now().isoformat(timespec="seconds")),
                )
                row = self._db.execute(
                    "SELECT COUNT(*) FROM bubble_scores WHERE seconds = ? AND score > ?",
                    (seconds, score),
                ).fetchone()
        except sqlite3.Error as exc:
            log.warning("bubble scoreboard: %s", exc)
            return 0
        return int(row[0]) + 1

    def top(self, seconds: int, limit: int = 5) -> list[tuple[str, int]]:
        """The best scores for rounds of ``seconds``, best first: (player, score)."""
        if self._db is None:
            rows = self.highscores.top(GAME, (f"{seconds}s",), limit)  # type: ignore[attr-defined]
            return [(str(p), int(s)) for p, s in rows]
        try:
            rows = self._db.execute(
                "SELECT player, score FROM bubble_scores WHERE seconds = ? "
                "ORDER BY score DESC, id ASC LIMIT ?",
                (seconds, limit),
            ).fetchall()
        except sqlite3.Error as exc:
            log.warning("bubble scoreboard: %s", exc)
            return []
        return [(str(p), int(s)) for p, s in rows]


_BOARDS: weakref.WeakKeyDictionary[HighScores, Scoreboard] = weakref.WeakKeyDictionary()


def scoreboard(ctx: Context) -> Scoreboard:
    board = _BOARDS.get(ctx.highscores)
    if board is None:
        board = _BOARDS[ctx.highscores] = Scoreboard(ctx.highscores)
    return board


def draw_board(scene: Scene, surface: pygame.Surface, rect: pygame.Rect, seconds: int) -> None:
    """The best scores for rounds of ``seconds``, in a panel."""
    painter, m, p = scene.ctx.painter, scene.m, scene.ctx.painter.p
    painter.box(surface, rect, p.panel, p.line, 2, m.u(10))
    painter.text(
        surface,
        f"Best scores ({seconds} s)",
        (rect.left + m.u(14), rect.top + m.u(10)),
        m.text,
        bold=True,
        max_width=rect.width - m.u(28),
    )
    rows = scoreboard(scene.ctx).top(seconds)
    y = rect.top + m.u(20) + m.text
    line = m.text + m.u(12)
    if not rows:
        painter.paragraph(
            surface,
            "No scores yet. Be the first!",
            pygame.Rect(rect.left + m.u(14), y, rect.width - m.u(28), rect.bottom - y),
            m.text,
            p.muted,
        )
        return
    for i, (name, score) in enumerate(rows):
        if y + line > rect.bottom:
            break
        painter.text(surface, f"{i + 1}.", (rect.left + m.u(14), y), m.text, p.muted)
        painter.text(
            surface, name, (rect.left + m.u(50), y), m.text, max_width=rect.width - m.u(120)
        )
        painter.text(
            surface, str(score), (rect.right - m.u(14), y), m.text, bold=True, anchor="topright"
        )
        y += line


# -- setup -----------------------------------------------------------------------------


def _start(ctx: Context, values: FormValues) -> Scene:
    return BubbleScene(ctx, seconds=int(values.options["time"]))


def _scoreboard(scene: Scene, surface: pygame.Surface, rect: pygame.Rect, v: FormValues) -> None:
    draw_board(scene, surface, rect, int(v.options["time"]))


def _card_message(event: CardsSeen) -> str:
    codes = event.codes
    if any(c == "?" for c in codes):
        log.info("bubbles: the camera saw a card that is not ours in %s/%s", event.seat, event.area)
        return child_message("bubbles.not_our_card")
    log.info("bubbles: cards %s seen (seat %s, %s): not used here", codes, event.seat, event.area)
    return child_message("bubbles.no_cards") if codes else ""


SETUP = FormSpec(
    game=GAME,
    title="Bubble game",
    subtitle="Make the target number from flying bubbles.",
    rules=tuple(rules_pages()),
    start=_start,
    options=(
        OptionRow(
            "time", "How long?", tuple(Choice(str(s), f"{s} s") for s in ROUND_LENGTHS), "60"
        ),
    ),
    intro="Drag a red number onto a red-and-blue pair. Hit the big number to score! "
    "Tap Start, or press button 1.",
    aside=_scoreboard,
    seat_button_starts=True,
    cards_seen=_card_message,
)


# -- the round --------------------------------------------------------------------------


@dataclass(frozen=True)
class Flash:
    """A popped sum shown where it popped for a moment."""

    text: str
    pos: tuple[float, float]
    until: float
    hit: bool


class BubbleScene(Scene):
    """One timed round."""

    def __init__(
        self,
        ctx: Context,
        *,
        seconds: int = 60,
        settings: BubbleSettings | None = None,
        seed: float | None = None,
    ) -> None:
        super().__init__(ctx)
        self.settings = settings or BubbleSettings(seconds=seconds)
        self.seconds = int(self.settings.seconds)
        # the seed and game.actions replay the round (tabletop.games.bubbles.replay)
        self.seed = ctx.rng.random() if seed is None else seed
        self.game = BubbleGame.new(self.settings, rng=random.Random(self.seed))
        self.message = ("Drag a red bubble onto a pair to make the target!", "info")
        self.flash: Flash | None = None
        self.last: float | None = None
        self.spare = 0.0
        self.dragged = False  # the held bubble moved since the finger went down
        self.grabbed = False  # the finger went down on the held bubble
        self.picked_now = False  # ... and picked it up with that press
        self.releases = False  # the input layer sends Release (so a tap can start a drag)
        self.asking: str | None = None
        self.finished = False
        self.field = pygame.Rect(0, 0, 1, 1)
        self.scale = 1.0

    # -- lifecycle -----------------------------------------------------------------------

    def enter(self) -> None:
        self.last = self.ctx.clock()
        log.info(
            "bubbles: round of %d s starts, target %d, bubbles %s",
            self.seconds,
            self.game.target,
            " ".join(b.label for b in self.game.bubbles.values()),
        )

    def pause(self) -> None:
        self.last = None  # paused time (rules, the PIN pad) does not count

    def resume(self, result: Any) -> None:
        self.last = self.ctx.clock()
        asking, self.asking = self.asking, None
        if asking == "undo" and result == "ok":
            self._undo()
        elif asking == "leave" and result == "yes":
            go_home(self.stack)
        elif asking == "name":
            self._named(result if isinstance(result, str) else None)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        bar = m.u(58)
        line = painter_line(self.ctx, m.text)
        self.message_rect = pygame.Rect(m.u(12), H - 2 * line - m.u(4), W - m.u(24), 2 * line)
        area = pygame.Rect(m.u(8), bar + m.u(6), W - m.u(16), self.message_rect.top - bar - m.u(10))
        self.scale = min(area.width / WIDTH, area.height / HEIGHT)
        self.field = pygame.Rect(0, 0, round(WIDTH * self.scale), round(HEIGHT * self.scale))
        self.field.center = area.center
        bh = bar - m.u(10)
        y = m.u(5)
        self.buttons = [
            Button(
                "leave", pygame.Rect(W - m.u(8) - m.u(100), y, m.u(100), bh), "Leave", kind="quiet"
            ),
            Button(
                "undo", pygame.Rect(W - m.u(16) - m.u(200), y, m.u(100), bh), "Undo", kind="quiet"
            ),
            Button(
                "rules", pygame.Rect(W - m.u(24) - m.u(300), y, m.u(100), bh), "Rules", kind="quiet"
            ),
        ]

    # -- coordinates ------------------------------------------------------------------------

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.field.left + x * self.scale), round(self.field.top + y * self.scale))

    def to_field(self, pos: tuple[int, int]) -> tuple[float, float]:
        return ((pos[0] - self.field.left) / self.scale, (pos[1] - self.field.top) / self.scale)

    def bubble_rect(self, b: Bubble) -> pygame.Rect:
        r = round(RADIUS * self.scale)
        rect = pygame.Rect(0, 0, 2 * r, 2 * r)
        rect.center = self.to_screen(b.x, b.y)
        return rect

    def targets(self) -> list[Button]:
        bubbles = [
            Button(f"bubble.{b.id}", self.bubble_rect(b), b.label, kind="choice")
            for b in self.game.iter_bubbles()
        ]
        # a scripted tap lands on the bubble's centre, so bubbles go first
        return [*reversed(bubbles), *self.buttons]

    def bubble_under(self, pos: tuple[int, int], *, skip_held: bool = False) -> Bubble | None:
        x, y = self.to_field(pos)
        best: tuple[float, Bubble] | None = None
        for b in self.game.bubbles.values():
            if skip_held and b.held:
                continue
            d = math.hypot(b.x - x, b.y - y)
            if d <= RADIUS + TOUCH_SLACK and (best is None or d < best[0]):
                best = (d, b)
        return None if best is None else best[1]

    # -- input ---------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        kind = type(event).__name__
        if isinstance(event, Back):
            self.press("leave")
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None:
                self.ctx.sounds.play("tap")
                self.press(button.name)
            elif self.field.collidepoint(event.pos):
                self.touch(event.pos)
        elif kind in ("Drag", "Release"):  # by name: the input layer may not have them yet
            pos: tuple[int, int] = getattr(event, "pos")  # noqa: B009
            if kind == "Drag":
                self.drag(pos)
            else:
                self.release(pos)
        elif isinstance(event, SeatPressed):
            log.info("bubbles: seat %d pressed its button during the round (not used)", event.seat)
            self.refuse("bubbles.buttons_resting", "a seat button in the bubble round")
        elif isinstance(event, CardsSeen):
            # cards lying on the table are no mistake: only a stranger card is told
            text = _card_message(event)
            if text == child_message("bubbles.not_our_card"):
                self.say(text, "bad")

    def press(self, name: str) -> None:
        if name == "leave":
            if self.finished:
                self.stack.pop()
                return
            self.asking = "leave"
            self.stack.push(ask_leave(self.ctx, "Stop this round?", "Stop"))
        elif name == "rules":
            self.stack.push(RulesScene(self.ctx, "Bubble game: the rules", rules_pages()))
        elif name == "undo":
            if not self.game.can_undo:
                self.refuse("engine.nothing_to_undo", "no pop to take back")
                return
            self.asking = "undo"
            self.stack.push(
                PinPad(self.ctx, "undo", subtitle="For teachers: take back the last bubble sum.")
            )

    def touch(self, pos: tuple[int, int]) -> None:
        """A finger down in the field: pick a red bubble up, drop it on a pair, or let go.

        With ``Release`` events a finger down on the held bubble may start a drag, so it
        is let go only if the finger comes up without moving; without them (taps only) a
        second tap on it lets go at once."""
        game = self.game
        self.dragged = self.grabbed = self.picked_now = False
        b = self.bubble_under(pos)
        held = game.held
        try:
            if held is None:
                if b is None:
                    self.say("Tap a red bubble to pick it up.", "info")
                    return
                game.pick(b.id)
                self.grabbed = self.picked_now = True
                self.say(f"You have {b.label}. Now tap a pair (or drag it there).", "info")
                log.info("bubbles: picked %s (bubble %d)", b.label, b.id)
            elif b is not None and b.id == held.id:
                self.grabbed = True
                if not self.releases:
                    self._let_go()
            elif b is None:
                self._let_go()
            elif b.kind == "number" and b.partner is None:
                game.pick(b.id)
                self.grabbed = self.picked_now = True
                self.say(f"You have {b.label} now. Tap a pair.", "info")
            else:
                self._drop(b)
        except TabletopError as e:
            self.refuse(e.code, e.message)

    def _let_go(self) -> None:
        held = self.game.held
        if held is not None:
            self.game.put_down()
            self.say(f"You let go of {held.label}.", "info")

    def drag(self, pos: tuple[int, int]) -> None:
        held = self.game.held
        if held is not None and self.grabbed:
            self.dragged = True
            self.game.move_held(*self.to_field(pos))

    def release(self, pos: tuple[int, int]) -> None:
        self.releases = True
        grabbed, self.grabbed = self.grabbed, False
        held = self.game.held
        if held is None or not grabbed:
            return
        if not self.dragged:
            if not self.picked_now:
                self._let_go()  # a tap on the bubble already in the finger
            return
        self.dragged = False
        b = self.bubble_under(pos, skip_held=True)
        if b is not None and b.partner is not None:
            try:
                self._drop(b)
            except TabletopError as e:
                self.refuse(e.code, e.message)
        else:
            held = self.game.held
            self.game.put_down()
            if b is not None:
                self.refuse(
                    "bubbles.not_a_pair",
                    f"{held.label if held else '?'} released on free bubble {b.label}",
                )

    def _drop(self, onto: Bubble) -> None:
        held = self.game.held
        try:
            popped = self.game.drop(onto.id)
        except TabletopError:
            if held is not None and onto.partner is not None:
                self.game.put_down()  # a refused sum: the red bubble floats on
            raise
        self._popped(popped, (onto.x, onto.y))

    def _popped(self, popped: Popped, where: tuple[float, float]) -> None:
        log.info(
            "bubbles: %.1f s: %s, target %d: %s; score %d; target now %d",
            popped.at,
            popped.equation,
            popped.target,
            "hit" if popped.hit else "miss",
            self.game.score,
            self.game.target,
        )
        self.ctx.sounds.play("good" if popped.hit else "seen")
        self.flash = Flash(popped.equation, where, self.ctx.clock() + FLASH_SECONDS, popped.hit)
        text = popped.reason
        if popped.hit:
            text += f" New target: {popped.new_target}."
        elif popped.retargeted:
            text += (
                f" Nobody can make {popped.target} any more, so the new target is "
                f"{popped.new_target}."
            )
        self.say(text, "good" if popped.hit else "info")

    def _undo(self) -> None:
        try:
            undone = self.game.undo()
        except TabletopError as e:
            self.refuse(e.code, e.message)
            return
        log.info("bubbles: undo %s (teacher PIN); score %d", undone.equation, self.game.score)
        self.flash = None
        self.say(f"Took back {undone.equation}. Score: {self.game.score}.", "info")

    def say(self, text: str, tone: str = "info") -> None:
        self.message = (text, tone)

    def refuse(self, code: str, detail: str) -> None:
        log.info("bubbles: refused %s: %s", code, detail)
        self.ctx.sounds.play("wrong")
        self.say(child_message(code), "bad")

    # -- time ----------------------------------------------------------------------------

    def update(self, now: float) -> bool:
        if self.finished:
            return False
        if self.last is None:
            self.last = now
        self.spare += max(0.0, now - self.last)
        self.last = now
        steps = int(self.spare / DT + 1e-9)
        self.spare -= steps * DT
        if steps > MAX_STEPS_PER_FRAME:
            steps, self.spare = MAX_STEPS_PER_FRAME, 0.0
        for _ in range(steps):
            for event in self.game.step():
                if isinstance(event, Retargeted):
                    log.info("bubbles: %s", event.reason)
                    self.say(event.reason, "info")
        if self.flash is not None and now > self.flash.until:
            self.flash = None
        if self.game.over:
            self._finish()
        return steps > 0 or self.flash is not None

    def _finish(self) -> None:
        self.finished = True
        self.game.put_down()
        log.info(
            "bubbles: time is up; score %d (seed %r, %d actions)",
            self.game.score,
            self.seed,
            len(self.game.actions),
        )
        self.ctx.sounds.play("round")
        self.asking = "name"
        self.stack.push(
            NameScene(self.ctx, title=f"Time is up! {self.game.score} points. Your name?")
        )

    def _named(self, name: str | None) -> None:
        place = None
        if name:
            place = scoreboard(self.ctx).record(name, self.seconds, self.game.score)
            log.info("bubbles: %s scored %d (place %s)", name, self.game.score, place)
        self.stack.replace(
            BubbleResults(
                self.ctx,
                player=name,
                score=self.game.score,
                seconds=self.seconds,
                place=place,
                pops=tuple(self.game.pops),
            )
        )

    # -- drawing ------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        game = self.game
        surface.fill(p.background)
        # top bar: score, time, target
        left = self.time_text()
        painter.text(surface, f"Score {game.score}", (m.u(14), m.u(8)), m.title, bold=True)
        score_w = painter.fonts.width(f"Score {game.score}", m.title, True)
        painter.text(
            surface,
            left,
            (m.u(40) + score_w, m.u(8)),
            m.title,
            p.bad if game.time_left <= 10 else p.ink,
            bold=True,
        )
        target_x = m.u(64) + score_w + painter.fonts.width("0:00", m.title, True)
        painter.text(
            surface,
            f"Target {game.target}",
            (target_x + m.u(10), m.u(8)),
            m.title,
            p.good,
            bold=True,
            max_width=self.buttons[2].rect.left - target_x - m.u(20),
        )
        painter.buttons(surface, self.buttons)
        # the field, with the target big in the background
        painter.box(surface, self.field, (252, 250, 244), p.line, 2, m.u(12))
        big = round(self.field.height * 0.78)
        painter.text(
            surface,
            str(game.target),
            self.field.center,
            big,
            (226, 220, 204),
            bold=True,
            anchor="center",
        )
        for n, op in game.pairs():
            ends = self.to_screen(n.x, n.y), self.to_screen(op.x, op.y)
            pygame.draw.line(surface, PAIR_RING, *ends, max(6, m.u(10)))
        for bubble in game.iter_bubbles():
            self.draw_bubble(surface, bubble)
        if self.flash is not None:
            self.draw_flash(surface, self.flash)
        text, tone = self.message
        colour = {"bad": p.bad, "good": p.good}.get(tone, p.ink)
        painter.paragraph(surface, text, self.message_rect, m.text, colour, bold=tone != "info")

    def time_text(self) -> str:
        left = math.ceil(self.game.time_left - 1e-9)
        return f"{left // 60}:{left % 60:02d}"

    def draw_bubble(self, surface: pygame.Surface, b: Bubble) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        rect = self.bubble_rect(b)
        r = rect.width // 2
        fill = RED if b.kind == "number" else BLUE
        if b.held:
            r = round(r * 1.12)
        pygame.draw.circle(surface, fill, rect.center, r)
        # a light rim makes a bubble of it
        pygame.draw.circle(surface, (255, 255, 255), rect.center, r, max(2, r // 14))
        if b.partner is not None:
            pygame.draw.circle(surface, PAIR_RING, rect.center, r + m.u(3), max(3, m.u(4)))
        if b.held:
            pygame.draw.circle(surface, p.selected, rect.center, r + m.u(5), max(4, m.u(6)))
        painter.text(
            surface,
            b.label,
            rect.center,
            round(r * 1.15),
            (255, 255, 255),
            bold=True,
            anchor="center",
        )

    def draw_flash(self, surface: pygame.Surface, flash: Flash) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        size = m.big + m.u(6)
        text = flash.text + ("  \u2713" if flash.hit else "")
        w = painter.fonts.width(text, size, True) + m.u(28)
        rect = pygame.Rect(0, 0, w, size + m.u(20))
        rect.center = self.to_screen(*flash.pos)
        rect.clamp_ip(self.field)
        painter.box(surface, rect, p.good if flash.hit else p.ink, None, radius=m.u(10))
        painter.text(surface, text, rect.center, size, (255, 255, 255), bold=True, anchor="center")


# -- results ------------------------------------------------------------------------------


class BubbleResults(Scene):
    """The score, where it stands on the scoreboard, and the sums of the round."""

    def __init__(
        self,
        ctx: Context,
        *,
        player: str | None,
        score: int,
        seconds: int,
        place: int | None,
        pops: tuple[Popped, ...] = (),
    ) -> None:
        super().__init__(ctx)
        self.player = player
        self.score = score
        self.seconds = seconds
        self.place = place
        self.pops = pops

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(16)
        h = m.u(56)
        half = W // 2
        width = half - margin - margin // 2
        self.board_rect = pygame.Rect(
            half + margin // 2, m.u(70), width, H - m.u(70) - h - 2 * margin
        )
        self.left = pygame.Rect(margin, m.u(70), width, self.board_rect.height)
        self.buttons = [
            Button("done", pygame.Rect(margin, H - margin - h, m.u(180), h), "Done", kind="quiet"),
            Button(
                "again",
                pygame.Rect(W - margin - m.u(240), H - margin - h, m.u(240), h),
                "Play again",
            ),
        ]

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop()
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None and button.enabled:
                self.ctx.sounds.play("tap")
                if button.name == "again":
                    self.stack.replace(BubbleScene(self.ctx, seconds=self.seconds))
                else:
                    self.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        who = self.player or "You"
        header(self, surface, "Time is up!")
        r = self.left
        painter.text(surface, who, r.topleft, m.title, bold=True, max_width=r.width)
        y = r.top + m.title + m.u(8)
        points = "point" if self.score == 1 else "points"
        painter.text(surface, f"{self.score} {points}", (r.left, y), m.title * 2, p.good, bold=True)
        y += m.title * 2 + m.u(14)
        if self.place is not None:
            place = "the best score!" if self.place == 1 and self.score else f"place {self.place}."
            line = f"On the scoreboard: {place}"
        else:
            line = "Not saved on the scoreboard (no name)."
        y += painter.paragraph(surface, line, pygame.Rect(r.left, y, r.width, m.text * 3), m.text)
        hits = [pp.equation for pp in self.pops if pp.hit]
        if hits:
            painter.paragraph(
                surface,
                "Hits: " + ", ".join(hits[-6:]),
                pygame.Rect(r.left, y + m.u(8), r.width, r.bottom - y - m.u(8)),
                m.small,
                p.muted,
            )
        draw_board(self, surface, self.board_rect, self.seconds)
        painter.buttons(surface, self.buttons)


# -- the app contract -------------------------------------------------------------------------


def setup_scene(ctx: Context) -> Scene:
    """The bubble game's first screen: the one setup form."""
    return FormScene(ctx, SETUP)


BOT_NAME = "Bubble Bot"
BOT_THINK = 0.8  # seconds between the bot's moves
BOT_PATIENCE = 6.0  # seconds without a target in reach before it clears a pair


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
) -> str:
    """One round with a bot that drags bubbles (see :mod:`tabletop.ui.games`)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tabletop.ui.app import App
    from tabletop.ui.autoplay import Autoplayer
    from tabletop.ui.offscreen import offscreen

    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    folder = out_dir or Path(tempfile.mkdtemp(prefix="tabletop-bubbles-"))
    folder.mkdir(parents=True, exist_ok=True)
    clock = _DemoClock()
    ctx, window = offscreen(size, seed, clock=clock)
    app = App(ctx, window, flip=False)
    app.stack.push(setup_scene(ctx))
    app.step()
    auto = Autoplayer(app)
    print(
        f"Bubble game in the touchscreen app, offscreen ({size[0]}x{size[1]}): one 60 s "
        f"round, {BOT_NAME} drags the bubbles, seed {seed}",
        file=out,
    )
    app.screenshot(folder / "setup.png")
    auto.tap("start")
    scene = app.stack.top
    if not isinstance(scene, BubbleScene):
        raise RuntimeError("the bubble round did not open")
    bot = DemoBot(app, scene, clock)
    print(f"First target: {scene.game.target}", file=out)
    shots = 0
    told = 0
    while not scene.finished:
        clock.advance(1 / 30)
        app.step()
        for event in scene.game.retargets[told:]:
            print(f"{event.at:5.1f} s: {event.reason}", file=out)
        told = len(scene.game.retargets)
        if scene.finished:
            break
        popped = bot.think()
        if popped is not None:
            mark = "hit!" if popped.hit else "miss"
            print(
                f"{popped.at:5.1f} s: {popped.equation} (target {popped.target}): {mark} "
                f"score {scene.game.score}, target now {popped.new_target}",
                file=out,
            )
            if popped.hit and shots < 3:
                shots += 1
                app.screenshot(folder / f"hit_{shots}.png")
        if scene.game.steps in (round(5 / DT), round(30 / DT)):
            app.screenshot(folder / f"round_{round(scene.game.elapsed):02d}s.png")
    app.screenshot(folder / "name.png")
    for ch in BOT_NAME.upper():
        auto.tap("key.space" if ch == " " else f"key.{ch}")
    auto.tap("ok")
    results = app.stack.top
    if not isinstance(results, BubbleResults):
        raise RuntimeError("the round did not reach the results screen")
    app.screenshot(folder / "final.png")
    print(f"Screenshots are in {folder}", file=out)
    print(f"score: {results.player} {results.score}", file=out)
    line = f"winner: {results.player}"
    print(line, file=out)
    pygame.display.quit()
    return line


class _DemoClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class DemoBot:
    """Plays a round as a child would: pointer down on a red bubble, a drag across the
    field in a few moves, and a release on the pair (``Drag``/``Release`` events)."""

    def __init__(self, app: Any, scene: BubbleScene, clock: _DemoClock) -> None:
        self.app = app
        self.scene = scene
        self.clock = clock
        self.next_move = clock.now + BOT_THINK
        self.waiting_since = clock.now

    def think(self) -> Popped | None:
        from tabletop.games.bubbles import any_move, best_move

        now = self.clock.now
        game = self.scene.game
        if now < self.next_move or game.over:
            return None
        self.next_move = now + BOT_THINK
        move = best_move(game)
        if move is None:
            if now - self.waiting_since < BOT_PATIENCE:
                return None
            move = any_move(game)
            if move is None:
                return None
        self.waiting_since = now
        pops = len(game.pops)
        self.drag(*move)
        return game.pops[-1] if len(game.pops) > pops else None

    def drag(self, number: int, onto: int) -> None:
        scene, app = self.scene, self.app
        game = scene.game
        start = scene.to_screen(game.bubbles[number].x, game.bubbles[number].y)
        end = scene.to_screen(game.bubbles[onto].x, game.bubbles[onto].y)
        app.post(Tap(start, self.clock.now, "touch"))
        app.step()
        for i in range(1, 7):
            self.clock.advance(1 / 30)
            pos = (
                round(start[0] + (end[0] - start[0]) * i / 6),
                round(start[1] + (end[1] - start[1]) * i / 6),
            )
            app.post(Drag(pos, self.clock.now))
            app.step()
        app.post(Release(end, self.clock.now))
        app.step()


@dataclass(frozen=True)
class Drag:
    """Stand-in for the input layer's pointer move with the button held (same fields)."""

    pos: tuple[int, int]
    at: float


@dataclass(frozen=True)
class Release:
    """Stand-in for the input layer's pointer up (same fields)."""

    pos: tuple[int, int]
    at: float


with contextlib.suppress(ImportError):  # the input layer's own, once it has them
    from tabletop.ui.input import Drag, Release  # type: ignore[attr-defined,no-redef]


__all__ = [
    "SETUP",
    "BubbleResults",
    "BubbleScene",
    "Scoreboard",
    "rules_pages",
    "run_demo",
    "setup_scene",
]
