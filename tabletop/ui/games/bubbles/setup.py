"""The bubble game's setup (the one setup form, :data:`SETUP`), rules and scoreboard.

Touch targets: ``time.30``, ``time.60``, ``time.90``, ``rules``, ``start`` (seat 1's
button starts too), ``back``."""

from __future__ import annotations

import logging

import pygame

from tabletop.games.bubbles import OP_GLYPHS
from tabletop.highscores import HighScores
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import CardsSeen
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.form import Choice, FormScene, FormSpec, FormValues, OptionRow
from tabletop.ui.scenes.rules import RulesPage, load_rules

log = logging.getLogger(__name__)

GAME = "bubbles"
ROUND_LENGTHS = (30, 60, 90)


def rules_pages() -> list[RulesPage]:
    """The rules pages, with the game's own signs in them."""
    signs = {"minus": OP_GLYPHS["-"], "times": OP_GLYPHS["x"], "divide": OP_GLYPHS["/"]}
    return list(load_rules("bubbles", **signs))


# -- the scoreboard ------------------------------------------------------------------------


# The best scores per round length are kept in the app's high scores (game "bubbles",
# mode "60s"), which also give personal bests.


def record_score(highscores: HighScores, player: str, seconds: int, score: int) -> int:
    """Store a score; its place on the board (1 = best; equal scores share it)."""
    highscores.record(GAME, player, (f"{seconds}s",), score)
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


# -- setup -----------------------------------------------------------------------------


def _start(ctx: Context, values: FormValues) -> Scene:
    from tabletop.ui.games.bubbles.scene import BubbleScene

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
    cards_seen=card_message,
)


def setup_scene(ctx: Context) -> Scene:
    """The bubble game's first screen: the one setup form."""
    return FormScene(ctx, SETUP)


__all__ = ["SETUP", "best_scores", "card_message", "record_score", "rules_pages", "setup_scene"]
