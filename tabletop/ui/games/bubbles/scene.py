"""The bubble game on the screen (RULINGS MECS-8): its setup (the one setup form,
:data:`SETUP`: ``time.<seconds>``, seat 1's button starts too), rules and scoreboard, and
the round (:class:`BubbleScene`). A round is not journaled (no save, no match), has no
turns, lamps or bots.

Touch targets in the round: ``bubble.<id>`` (one per bubble), ``undo`` (behind the
teacher PIN), ``rules``, ``leave``; dragging uses ``Drag`` / ``Release`` events.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import pygame

from tabletop.engine.words import plural
from tabletop.games.bubbles import HEIGHT, OP_GLYPHS, RADIUS, WIDTH, Bubble, BubbleSettings
from tabletop.highscores import HighScores
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.bubbles.play import BubblePlay, Flash
from tabletop.ui.input import CardsSeen, Drag, Release, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, Standing
from tabletop.ui.scenes.common import ask_leave
from tabletop.ui.scenes.form import Choice, FormScene, FormSpec, FormValues, OptionRow
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rules import RulesPage, load_rules
from tabletop.ui.table import TableScene, corner_buttons
from tabletop.ui.theme import BLUE, VERMILLION, Metrics
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

GAME = "bubbles"
ROUND_LENGTHS = (30, 60, 90)
RED = VERMILLION
PAIR_RING = (25, 25, 30)


def rules_pages() -> tuple[RulesPage, ...]:
    """The rules pages, with the game's own signs in them."""
    signs = {"minus": OP_GLYPHS["-"], "times": OP_GLYPHS["x"], "divide": OP_GLYPHS["/"]}
    return load_rules("bubbles", **signs)


RULES = rules_pages()


class BubbleScene(TableScene):
    """One timed round: the field scaled to fit, the bubbles, the flash of a pop and the
    top bar; a finger's taps and drags go to the pygame-free :class:`~.play.BubblePlay`,
    and ``update`` steps the bubbles by the clock."""

    game = GAME
    rules = ("Bubble game: the rules", RULES)
    undo_pin = ("Teacher PIN", "For teachers: take back the last bubble sum.")
    play: BubblePlay

    def __init__(self, ctx: Context, *, seconds: int = 60) -> None:
        super().__init__(ctx, None, again=lambda: BubbleScene(ctx, seconds=seconds))
        settings = BubbleSettings(seconds=seconds)
        self.play = BubblePlay(settings, ctx.rng.random(), ctx.clock, ctx.sounds.play)
        self.seconds, self.field, self.scale = seconds, pygame.Rect(0, 0, 1, 1), 1.0
        self.player: str | None = None
        self.place: int | None = None

    @property
    def match(self) -> Any:
        return None  # a round is not journaled

    @property
    def finished(self) -> bool:
        return self.play.game.over

    # -- layout and coordinates -----------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m, (W, H), bar = metrics, metrics.size, metrics.u(58)
        line = int(self.ctx.fonts.font(m.text).get_linesize())
        self.message_rect = pygame.Rect(
            m.u(8), H - 2 * line - m.u(12), W - m.u(16), 2 * line + m.u(8)
        )
        area = pygame.Rect(m.u(8), bar + m.u(6), W - m.u(16), self.message_rect.top - bar - m.u(10))
        self.scale = min(area.width / WIDTH, area.height / HEIGHT)
        self.field = pygame.Rect(0, 0, round(WIDTH * self.scale), round(HEIGHT * self.scale))
        self.field.center = area.center
        self.buttons = corner_buttons(
            W - m.u(8), m.u(5), (m.u(100), bar - m.u(10)), m.u(8), undo=True
        )

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
            for b in self.play.game.iter_bubbles()
        ]
        # a scripted tap lands on the bubble's centre, so bubbles go first
        return [*reversed(bubbles), *self.buttons]

    # -- input ------------------------------------------------------------------------------

    def tapped(self, event: Tap) -> None:
        if hit(self.buttons, event.pos) is None and self.field.collidepoint(event.pos):
            self.play.touch(*self.to_field(event.pos))
        else:
            super().tapped(event)

    def pointer(self, event: Drag | Release) -> None:
        x, y = self.to_field(event.pos)
        if isinstance(event, Drag):
            self.play.drag(x, y)
        else:
            self.play.release(x, y)

    def seat_pressed(self, seat: int, at: float) -> None:
        self.refuse("bubbles.buttons_resting", f"seat {seat + 1}'s button in the bubble round")

    def cards_seen(self, event: CardsSeen) -> None:
        """Cards shown to the camera: the round is played on the screen (a card taken
        away says nothing)."""
        if text := card_message(event):
            self.say(text, "error")

    def leave(self) -> None:
        self.ask(("leave",), ask_leave(self.ctx, "Stop this round?", "Stop"))

    def pause(self) -> None:
        self.play.last = None  # paused time (rules, the PIN pad) does not count

    # -- time and the end -------------------------------------------------------------------------

    def update(self, now: float) -> bool:
        if self.finished:
            return False
        moved = self.play.advance(now)
        self.voice()  # a new target the field forced
        if self.finished:
            self.play.finish()
            self.ctx.sounds.play("round")
            title = f"Time is up! {plural(self.play.game.score, 'point')}. Your name?"
            self.ask(("name",), NameScene(self.ctx, title=title))
        return moved

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        if asking == ("name",):
            self.player = result if isinstance(result, str) and result else None
            score = self.play.game.score
            if self.player:
                self.place = record_score(self.ctx.highscores, self.player, self.seconds, score)
                log.info("bubbles: %s scored %d (place %s)", self.player, score, self.place)
            self.show_results()

    def outcome(self) -> Outcome:
        """The score and the scoreboard's place; every hit, on the right."""
        game, who = self.play.game, self.player or "You"
        points = plural(game.score, "point")
        if self.place is None and self.player:
            board = child_message("bubbles.not_kept", points=points)
        elif self.place is None:
            board = "Not saved on the scoreboard (no name)."
        elif self.place == 1 and game.score:
            board = "On the scoreboard: the best score!"
        else:
            board = f"On the scoreboard: place {self.place}."
        hits = [p.equation.replace(" ", "") for p in game.pops if p.hit]
        misses = len(game.pops) - len(hits)
        lines = [f"Hits: {len(hits)}", ", ".join(hits)] if hits else ["No hits this time."]
        lines.append(f"Misses: {misses}")
        title = f"Time is up! {who}: {points}"
        return Outcome(title, board, [Standing(0, who, 1, points)], f"winner: {who}", lines)

    def results_aside(self) -> Any:
        return lambda surface, rect: draw_board(self.ctx, surface, rect, self.seconds)

    # -- drawing ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        game = self.play.game
        surface.fill(p.background)
        # top bar: score, time, target
        score, left = f"Score {game.score}", math.ceil(game.time_left - 1e-9)
        clock, late = f"{left // 60}:{left % 60:02d}", game.time_left <= 10
        score_w = painter.fonts.width(score, m.title, True)
        target_x = m.u(64) + score_w + painter.fonts.width("0:00", m.title, True)
        for text, x, colour in (
            (score, m.u(14), p.ink),
            (clock, m.u(40) + score_w, p.bad if late else p.ink),
            (f"Target {game.target}", target_x + m.u(10), p.good),
        ):
            width = self.buttons[2].rect.left - x - m.u(10)
            painter.text(surface, text, (x, m.u(8)), m.title, colour, bold=True, max_width=width)
        painter.buttons(surface, self.buttons)
        # the field, with the target big in the background
        painter.box(surface, self.field, (252, 250, 244), p.line, 2, m.u(12))
        big, shade = round(self.field.height * 0.78), (226, 220, 204)
        painter.text(
            surface, str(game.target), self.field.center, big, shade, bold=True, anchor="center"
        )
        for n, op in game.pairs():
            ends = self.to_screen(n.x, n.y), self.to_screen(op.x, op.y)
            pygame.draw.line(surface, PAIR_RING, *ends, max(6, m.u(10)))
        for bubble in game.iter_bubbles():
            self.draw_bubble(surface, bubble)
        if self.play.flash is not None:
            self.draw_flash(surface, self.play.flash)
        colour = {"error": p.bad, "good": p.good}.get(self.play.tone, p.ink)
        self.draw_status(surface, self.message_rect, colour=colour)

    def draw_bubble(self, surface: pygame.Surface, b: Bubble) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        rect, fill = self.bubble_rect(b), RED if b.kind == "number" else BLUE
        r = round(rect.width // 2 * 1.12) if b.held else rect.width // 2  # held: lifted up
        pygame.draw.circle(surface, fill, rect.center, r)
        # a light rim makes a bubble of it
        pygame.draw.circle(surface, (255, 255, 255), rect.center, r, max(2, r // 14))
        if b.partner is not None:
            pygame.draw.circle(surface, PAIR_RING, rect.center, r + m.u(3), max(3, m.u(4)))
        if b.held:
            pygame.draw.circle(surface, p.selected, rect.center, r + m.u(5), max(4, m.u(6)))
        white, size = (255, 255, 255), round(r * 1.15)
        painter.text(surface, b.label, rect.center, size, white, bold=True, anchor="center")

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


def record_score(highscores: HighScores, player: str, seconds: int, score: int) -> int | None:
    """Store a score in the app's high scores (game "bubbles", mode "60s": the board per
    round length, which also gives personal bests); its place on the board (1 = best;
    equal scores share it), or None where the board could not keep it (one the file
    cannot take yet is on the board, kept in memory till it can: HighScores)."""
    if not highscores.record(GAME, player, (f"{seconds}s",), score).kept:
        return None
    return 1 + sum(1 for _, s in best_scores(highscores, seconds, limit=1000) if s > score)


def best_scores(highscores: HighScores, seconds: int, limit: int = 5) -> list[tuple[str, int]]:
    """The best scores for rounds of ``seconds``, best first: (player, score)."""
    return highscores.top(GAME, (f"{seconds}s",), limit)


def draw_board(ctx: Context, surface: pygame.Surface, rect: pygame.Rect, seconds: int) -> None:
    """The best scores for rounds of ``seconds``, in a panel."""
    painter, m, p = ctx.painter, ctx.metrics, ctx.painter.p
    painter.box(surface, rect, p.panel, p.line, 2, m.u(10))
    left, width = rect.left + m.u(14), rect.width - m.u(28)
    title = f"Best scores ({seconds} s)"
    painter.text(surface, title, (left, rect.top + m.u(10)), m.text, bold=True, max_width=width)
    rows = best_scores(ctx.highscores, seconds)
    y, line = rect.top + m.u(20) + m.text, m.text + m.u(12)
    if not rows:
        room = pygame.Rect(left, y, width, rect.bottom - y)
        painter.paragraph(surface, "No scores yet. Be the first!", room, m.text, p.muted)
    for place, (name, score) in enumerate(rows[: max(0, (rect.bottom - y) // line)], 1):
        painter.text(surface, f"{place}.", (left, y), m.text, p.muted)
        painter.text(
            surface, name, (rect.left + m.u(50), y), m.text, max_width=rect.width - m.u(120)
        )
        at = (rect.right - m.u(14), y)
        painter.text(surface, str(score), at, m.text, bold=True, anchor="topright")
        y += line


def _start(ctx: Context, values: FormValues) -> Scene:
    return BubbleScene(ctx, seconds=int(values.options["time"]))


def _scoreboard(scene: Scene, surface: pygame.Surface, rect: pygame.Rect, v: FormValues) -> None:
    draw_board(scene.ctx, surface, rect, int(v.options["time"]))


def card_message(event: CardsSeen) -> str:
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
    intro="Drag a red number onto a red-and-blue pair. Hit the big number to score! "
    "Tap Start, or press button 1.",
    rules=RULES,
    start=_start,
    options=(
        OptionRow(
            "time", "How long?", tuple(Choice(str(s), f"{s} s") for s in ROUND_LENGTHS), "60"
        ),
    ),
    aside=_scoreboard,
    seat_button_starts=True,
    cards_seen=card_message,
)


def setup_scene(ctx: Context) -> Scene:
    """The bubble game's first screen (M.E.C.S.'s setup links to it)."""
    return FormScene(ctx, SETUP)


__all__ = ["SETUP", "BubbleScene", "best_scores", "record_score", "rules_pages", "setup_scene"]
