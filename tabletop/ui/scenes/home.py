"""Home: pick a game from big tiles with pictures; the teacher's settings behind a PIN."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import pygame

from tabletop.classroom.rotation import GAME_TITLES
from tabletop.engine.errors import TabletopError
from tabletop.engine.words import and_joined
from tabletop.store import Saved
from tabletop.ui.app import Context
from tabletop.ui.games import game_app, resume_game
from tabletop.ui.messages import child_message
from tabletop.ui.saves import shown_seat_names, unfinished
from tabletop.ui.scenes.common import Confirm, Screen
from tabletop.ui.theme import BLUE, ORANGE, VERMILLION, Metrics
from tabletop.ui.widgets import Button, Painter, Print, grid

# Each tile's caption under its title (tabletop.classroom.rotation.GAME_TITLES), in
# order: Mathe-Meister's big tile first.
CAPTIONS = {
    "mathe-meister": "Roll, write, score: dice and a sheet",
    "math-wars-meta": "Card battles",
    "math-attack": "Number lines",
    "mecs": "Build equations",
    "math-arena": "Playing cards",
}
log = logging.getLogger(__name__)


class HomeScene(Screen):
    back = ""  # Back on Home goes nowhere

    def __init__(self, ctx: Context, *, offer_resume: bool = True) -> None:
        super().__init__(ctx)
        self.offer = offer_resume  # ask once about a game left unfinished
        self.failed = False  # a game offered could not be carried on

    def enter(self) -> None:
        if self.offer:
            self.offer = False
            self.offer_resume()

    def offer_resume(self) -> None:
        """A game was left unfinished (the device was unplugged): carry on with it?"""
        waiting = unfinished(self.ctx)
        if not waiting:
            self.to_station()
            return
        saved = waiting[0]
        seats = self.ctx.journal.seats(saved.id)
        names = list(shown_seat_names(seats).values())
        who = and_joined(names) if names else "players"
        title = GAME_TITLES.get(saved.game, saved.game)
        detail = f"A game of {title} was not finished: {who}. {child_message('home.new_game_ends')}"
        question = Confirm(self.ctx, "Carry on with this game?", "Carry on", "New game", detail)
        # Carry on, the primary, where a child's finger meets the big tile; Back closes
        # the question: the game waits for the next start
        question.answers, question.back_choice = question.answers[::-1], "later"
        self.ask(question, lambda answer: self.carry_on(saved, answer))

    def new_game(self, saved: Saved) -> None:
        """New game: a game with moves is given up only when asked once more, as Leave
        asks ("Keep the game", the primary, offers it again)."""
        if saved.actions == 0:
            self.carry_on(saved, "sure")
            return
        words = child_message("home.ends_game")
        sure = Confirm(self.ctx, "Start a new game?", "New game", "Keep the game", words, safe=True)
        self.ask(sure, lambda a: self.carry_on(saved, "sure" if a == "yes" else "again"))

    def carry_on(self, saved: Saved, answer: str) -> None:
        """Carry on with ``saved`` ("yes"), leave it for the next start ("later": Back),
        or ("sure", after "no": :meth:`new_game`) leave it as abandoned and offer the
        next ("again": offer it again). A game whose journal or record is damaged is kept
        as "broken" for the teacher (not offered again), the children are told, and the
        next one is offered."""
        if answer == "sure":
            self.close(saved, "abandoned", "abandoned")
        if answer != "yes":  # "again" and "sure" offer the next
            then: dict[str, Callable[[], None]]
            then = {"later": self.to_station, "no": partial(self.new_game, saved)}
            then.get(answer, self.offer_resume)()
            return
        try:
            scene = resume_game(self.ctx, saved)
            self.to_station()  # under the game, as if opened from there
            self.stack.push(scene)
        except Exception as exc:  # whatever a damaged record makes its screen raise
            log.error("resume: match %d cannot be carried on: %s", saved.id, exc, exc_info=True)
            if self.stack.top is not self:  # its screen failed to start
                self.stack.unwind_to(HomeScene)
            self.close(saved, "broken", f"cannot be carried on: {exc}")
            self.message = child_message("home.not_resumed")
            self.failed = True
            self.offer_resume()
            return
        log.info("resume: match %d (%s, %d actions)", saved.id, saved.game, saved.actions)

    def to_station(self) -> None:
        """A station rotation carried on after a restart: its station screen over Home,
        as when it started; it tells of a game that could not be carried on (Home's
        sentence would be hidden under it)."""
        from tabletop.ui.scenes.rotation import StationScene

        runner = self.ctx.rotation
        if runner is not None and self.stack.find(StationScene) is None:
            note = child_message("home.station_not_resumed") if self.failed else ""
            self.stack.push(StationScene(self.ctx, runner, note=note))

    def close(self, saved: Saved, status: str, reason: str) -> None:
        """Mark ``saved`` (no longer offered) ``status``, its rows kept."""
        try:
            self.ctx.journal.finish(saved.id, None, reason=reason, status=status)
        except TabletopError as exc:
            log.error("resume: %s", exc)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        top, margin = m.u(76), m.u(16)
        teacher = pygame.Rect(W - margin - m.u(150), m.u(12), m.u(150), m.u(52))
        big = pygame.Rect(margin, top, m.u(360), H - top - margin)
        left = big.right + margin
        h = (big.height - margin) // 2
        tiles = [big, *grid(pygame.Rect(left, top, W - margin - left, h), 4, 2, margin)]
        self.buttons = [Button("settings", teacher, "Teacher", kind="quiet")]
        for rect, key in zip(tiles, CAPTIONS, strict=True):
            self.buttons.append(Button(f"game.{key}", rect, GAME_TITLES[key], kind="tile"))

    def press(self, name: str) -> None:
        if name == "settings":
            from tabletop.ui.scenes.pin import PinPad

            self.stack.push(PinPad(self.ctx, purpose="settings"))
        elif name.startswith("game."):
            app = game_app(name[5:])
            if app is not None:
                self.message = ""
                self.stack.push(app.setup_scene(self.ctx))

    def draw(self, surface: pygame.Surface) -> None:
        # its one sentence is a refusal (a game not carried on): red
        subtitle = self.message or "Tap a game to play."
        painter = self.backdrop(surface, "Math Games", subtitle, bad=bool(self.message))
        m, p = self.m, painter.p
        for b in self.buttons:
            if b.kind != "tile":
                painter.button(surface, b)
                continue
            key = b.name[5:]
            featured = key == "mathe-meister"
            painter.box(surface, b.rect, p.panel, p.button, m.u(3), m.u(14))
            title_size, width = (m.title if featured else m.text), b.rect.width - m.u(16)
            at = (b.rect.centerx, b.rect.top + m.u(10))
            text = b.label
            painter.text(surface, text, at, title_size, bold=True, anchor="midtop", max_width=width)
            art = pygame.Rect(0, 0, b.rect.width - m.u(40), b.rect.height - title_size - m.u(70))
            art.midtop = (b.rect.centerx, b.rect.top + title_size + m.u(22))
            PICTURES[key](surface, painter, art)
            at, size = (b.rect.centerx, b.rect.bottom - m.u(12)), m.text if featured else m.small
            painter.text(surface, CAPTIONS[key], at, size, anchor="midbottom", max_width=width)


# -- tile pictures (drawn, so they scale with the layout) -------------------------------------

Picture = Callable[[pygame.Surface, Painter, pygame.Rect], None]


def _mm_picture(surface: pygame.Surface, painter: Painter, rect: pygame.Rect) -> None:
    p = painter.p
    cells: list[list[str | None]] = [["3", "+", "5"], ["\u00d7", None, "\u2212"], ["2", "x", "6"]]
    side = min(rect.height - 10, int(rect.width * 0.62))
    cell = side // 3 - 4
    x0, y0 = rect.left, rect.top + (rect.height - side) // 2
    for r in range(3):
        for c in range(3):
            ch = cells[r][c]
            box = pygame.Rect(x0 + c * (cell + 6), y0 + r * (cell + 6), cell, cell)
            if ch is None:
                painter.coin(surface, box.center, cell // 3)
                continue
            ch = "\u00d7" if ch == "x" else ch
            fill = p.operand if ch.isdigit() else p.operator
            prints = [Print(ch, int(cell * 0.6), cell // 2)]
            painter.card(surface, box, prints, p.ink, fill=fill, edge=p.line, radius=4)
    die = max(24, int(rect.width * 0.26))
    top = pygame.Rect(rect.right - die, rect.top + rect.height // 6, die, die)
    painter.die(surface, top, 5)
    painter.die(surface, top.move(-(die // 3), die + 12), 3)


def _cards_picture(texts: tuple[str, ...], colours: tuple[tuple[int, int, int], ...]) -> Picture:
    def picture(surface: pygame.Surface, painter: Painter, rect: pygame.Rect) -> None:
        n = len(texts)
        h = min(rect.height, int(rect.width / n * 1.3))
        w = int(h / 1.4)
        step = min(w + 6, (rect.width - w) // max(1, n - 1)) if n > 1 else 0
        x = rect.centerx - (w + step * (n - 1)) // 2
        for i, (text, colour) in enumerate(zip(texts, colours, strict=True)):
            card = pygame.Rect(x + i * step, rect.centery - h // 2, w, h)
            prints = [Print(text, int(h * 0.36), h // 2)]
            painter.card(surface, card, prints, colour, edge=colour, width=3, radius=8)

    return picture


def _attack_picture(surface: pygame.Surface, painter: Painter, rect: pygame.Rect) -> None:
    colour = painter.p.ink
    y = rect.centery + rect.height // 6
    pygame.draw.line(surface, colour, (rect.left, y), (rect.right, y), 3)
    for i in range(7):
        x = rect.left + i * rect.width // 6
        pygame.draw.line(surface, colour, (x, y - 6), (x, y + 6), 2)
    size = max(14, rect.height // 4)
    for text, quarter, hue in (("+5", 1, BLUE), ("\u22123", 3, VERMILLION)):
        at = (rect.left + quarter * rect.width // 4, y - 10)
        painter.text(surface, text, at, size, hue, bold=True, anchor="midbottom")


PICTURES: dict[str, Picture] = {
    "mathe-meister": _mm_picture,
    "math-wars-meta": _cards_picture(("12", "\u00d73"), (BLUE, ORANGE)),
    "math-attack": _attack_picture,
    "mecs": _cards_picture(("9", "\u00d7", "7", "="), (VERMILLION, BLUE, VERMILLION, BLUE)),
    "math-arena": _cards_picture(("K\u2660", "5\u2665"), ((0, 0, 0), VERMILLION)),
}
__all__ = ["CAPTIONS", "HomeScene"]
