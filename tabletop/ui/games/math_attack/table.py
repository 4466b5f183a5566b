"""Math Attack!'s screens: the setup on the one setup form (``seat.1``: a child or a bot,
``choice.bot.<L>``; ``cards.real`` ``cards.virtual``; ``first.0`` ``first.1``) and the
table on the one base: the two number lines of cards with the running total under each
card (ATK-1, ATK-2), whose turn, the child's hand against a bot, the instruction line.
No text below 16 px at 800x480: a caption too wide for its card is left off (the
card's symbol, as printed, stays), a name too long for its room is cut with "\u2026".

Touch targets: ``line.0`` ``line.1`` (a number line), ``seen.0`` ``seen.1`` (a camera
card that was not accepted: tap to say which card it is), ``hand.<i>`` (virtual play),
``pass`` (show hand, pass), ``undo``, ``rules``, ``leave``; the card pickers' ``choice.<CODE>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from tabletop.bots.math_attack import LEVEL_NAMES, LEVELS
from tabletop.engine.match import Match
from tabletop.engine.words import plural
from tabletop.games.math_attack import (
    Action,
    MathAttackSettings,
    MathAttackState,
    cancelled_positions,
    colour,
    running_totals,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_attack.play import BOT_SECONDS, GAME, AttackPlay, face, num
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import GameSave, game_seed, seat_infos
from tabletop.ui.scenes import form
from tabletop.ui.scenes.rules import load_rules
from tabletop.ui.table import TableScene, corner_buttons
from tabletop.ui.theme import GREEN, Color, Metrics
from tabletop.ui.widgets import Button, Painter, Print

BOT_LEVELS = tuple(level for level in LEVELS if level != "random")
LEVEL_CHOICES = tuple((level, LEVEL_NAMES[level]) for level in BOT_LEVELS)
RULES = load_rules("math_attack")
HELP = "For teachers: take back the last move."

# Card inks: black, red, green as printed (ATK-1); the sign is always shown too.
INK = {"black": (25, 25, 30), "red": (200, 30, 45), "green": GREEN}


def draw_card(
    painter: Painter, surface: pygame.Surface, rect: pygame.Rect, card: str | None, mark: str = ""
) -> None:
    """One card face (``card`` None: "?", a camera card that is not one of ours), with its
    ``mark``: "crossed" (cancelled), "ghost" (not accepted: red outline), "selected"."""
    p, h = painter.p, rect.height
    ink = INK[colour(card)] if card is not None else p.ink
    big, caption = face(card) if card is not None else ("?", "")
    inner, small = rect.width - 4, painter.least
    fits = (
        c for c in (caption, caption.strip("|")) if c and painter.fonts.width(c, small) <= inner
    )
    prints = []
    if caption := next(fits, ""):  # "n\u00f72" for "|n\u00f72|" on a narrow card
        size = max(small, painter.fit_size(caption, h // 5, inner))
        prints.append(Print(caption, size, h - max(3, h // 14), False, "midbottom"))
    size = max(small, int(min(h * 0.42, rect.width * 0.55)))
    prints.append(Print(big, size, h // 2 - (h // 9 if caption else 0)))
    rings = {"ghost": (p.bad, 4), "selected": (p.selected, 5)}
    ring = (rings[mark][0], painter.m.u(rings[mark][1])) if mark in rings else None
    width, crossed = max(2, rect.width // 18), mark == "crossed"
    painter.card(surface, rect, prints, ink, edge=ink, width=width, ring=ring, crossed=crossed)


LEFT = 176  # base units: the panel's left column (who, the total)


@dataclass(frozen=True)
class LineGeometry:
    """Where the cards of one number line go inside its panel."""

    area: pygame.Rect  # the cards' part of the panel (room below for the totals)
    slots: tuple[pygame.Rect, ...]
    first: int  # index of the first card shown (earlier cards are summed up in a stub)
    stub: pygame.Rect | None


def line_geometry(m: Metrics, panel: pygame.Rect, count: int) -> LineGeometry:
    """Slots for ``count`` cards (plus one free slot) left to right: cards shrink to fit,
    and when even the smallest do not fit, the earliest are folded into one stub."""
    left = panel.left + m.u(LEFT + 6)
    area = pygame.Rect(
        left, panel.top + m.u(8), panel.right - m.u(8) - left, panel.height - m.u(36)
    )
    gap, h, slots = m.u(6), area.height, count + 1
    w = min(m.u(58), int(h * 0.74))
    if slots * (w + gap) > area.width:
        w = max(m.u(46), (area.width + gap) // slots - gap)
    fits = max(2, (area.width + gap) // (w + gap))
    first, stub, x = 0, None, area.left
    if slots > fits:
        first = count - (fits - 2)  # one slot for the stub, one free slot
        stub = pygame.Rect(x, area.top, w, h)
        x += w + gap
    rects = [pygame.Rect(x + i * (w + gap), area.top, w, h) for i in range(count + 1 - first)]
    return LineGeometry(area, tuple(rects), first, stub)


def draw_number_line(
    painter: Painter,
    surface: pygame.Surface,
    panel: pygame.Rect,
    play: AttackPlay,
    seat: int,
    name: str,
) -> None:
    """A seat's number line: who (``name``, as its chip shows it), the total, every card
    with the total after it."""
    m, p, small = painter.m, painter.p, painter.least
    state, over, ghost = play.state, play.over, play.ghosts.get(seat)
    cards, trouble = state.lines[seat], seat in play.trouble
    blocked = state.blocked == seat and not over

    def under(slot: pygame.Rect, text: str, shade: Color, bold: bool = True) -> None:
        """A running total (or a word) under a card's slot."""
        at = (slot.centerx, slot.bottom + m.u(2))
        painter.text(surface, text, at, small, shade, bold=bold, anchor="midtop")

    border = p.bad if trouble else p.line
    painter.box(surface, panel, p.panel, border, m.u(4) if trouble else 2, m.u(10))
    chip = pygame.Rect(panel.left + m.u(8), panel.top + m.u(8), m.u(30), m.u(30))
    room = panel.left + m.u(LEFT) - chip.right - m.u(8)
    painter.seat_name(surface, chip, seat, name, m.text, room)
    totals = running_totals(cards)
    at, total = (panel.left + m.u(10), panel.top + m.u(66)), num(totals[-1] if totals else 0)
    painter.text(surface, f"= {total}", at, m.big + 4, bold=True, anchor="midleft", max_width=room)
    geo, cancelled = line_geometry(m, panel, len(cards)), set(cancelled_positions(cards))
    free = geo.slots[-1]
    # a blocked line says so at its top right, right of its cards (and of a red card); on
    # a long line, where the hand's size is: the words never cover a card
    words = "\u2205 Blocked: no card here this turn"
    space = geo.area.right - m.u(4) - (free.left if ghost is None else free.right + m.u(6))
    on_top = blocked and painter.fonts.width(words, small, bold=True) <= space
    n, kind = state.hand_sizes[seat], 2 if play.is_bot(seat) else int(play.virtual)
    held = plural(n, "card")
    note, shade = (f"{held} in hand", "", f"{held}, hidden")[kind], p.muted
    if blocked and not on_top:
        note, shade = "\u2205 Blocked this turn", p.bad
    if note:
        at = (panel.left + m.u(10), panel.bottom - m.u(6))
        painter.line(surface, note, at, small, m.u(LEFT - 14), shade, anchor="bottomleft")
    if (stub := geo.stub) is not None:
        painter.box(surface, stub, p.quiet, p.line, 2, m.u(6))
        at = (stub.centerx, stub.top + stub.height // 3)
        painter.text(surface, f"+{geo.first}", at, m.small, p.muted, bold=True, anchor="center")
        painter.text(surface, "cards", stub.center, small, p.muted, anchor="midtop")
        under(stub, num(totals[geo.first - 1]), p.ink)
    for slot, i in zip(geo.slots, range(geo.first, len(cards))):
        draw_card(painter, surface, slot, cards[i], "crossed" if i in cancelled else "")
        under(slot, num(totals[i]), p.muted if i in cancelled else p.ink)
    if ghost is not None:
        draw_card(painter, surface, free, ghost.card, "ghost")
        under(free, "tap", p.bad, bold=False)
    elif not play.virtual and not over and not blocked:
        painter.box(surface, free, None, p.muted, 2, m.u(6))
        painter.text(surface, "+", free.center, m.big, p.muted, bold=True, anchor="center")
    if blocked:
        area, veil_rect = geo.area, geo.area.inflate(m.u(8), m.u(8))
        veil = pygame.Surface(veil_rect.size, pygame.SRCALPHA)
        veil.fill((120, 120, 130, 90))
        surface.blit(veil, veil_rect.topleft)
        if on_top:
            at = (area.right - m.u(4), panel.top + m.u(6))
            painter.line(surface, words, at, m.small, space, p.bad, bold=True, anchor="topright")


class AttackScene(TableScene):
    """One game: the two number lines, whose turn, what is blocked, the last turn."""

    game = GAME.name
    camera_off = "atk.ui.camera_off"
    rules = ("How to play Math Attack!", RULES)
    undo_pin = ("Teacher PIN to take back a move", HELP)
    step_after = True
    results_at_end = True
    bot_pause = BOT_SECONDS
    card_face = staticmethod(draw_card)
    play: AttackPlay
    save: GameSave  # always journaled

    def __init__(
        self,
        ctx: Context,
        *,
        names: tuple[str, str] = ("Player 1", "Player 2"),
        bot: str | None = None,
        first: int = 0,
        seed: int | None = None,
        seats: Sequence[SeatInfo] | None = None,
        match: Match[MathAttackSettings, MathAttackState, Action] | None = None,
        save: GameSave | None = None,
    ) -> None:
        seed = game_seed(ctx, seed)
        self.play = AttackPlay(
            names=names, bot=bot, first=first, seed=seed, match=match, sound=ctx.sounds.play
        )
        seats = list(seats) if seats else seat_infos(names, {1: bot} if bot else None)
        app = {"names": list(names), "bot": bot, "first": first, "seed": seed}
        save = save or GameSave(ctx, GAME.name, seats, app)
        super().__init__(ctx, save, resumed=match is not None, again=self.play_again)

    def play_again(self) -> Scene:
        """The same players again, the other one starting."""
        p, seats = self.play, list(self.save.seats)
        first = 1 - self.state.settings.first_player
        return AttackScene(self.ctx, names=p.names, bot=p.bot_level, first=first, seats=seats)

    # -- what the base asks ------------------------------------------------------------------

    # what the controller knows, read through the scene (the tests, the demo, the base)
    state = property(lambda self: self.play.state)
    names = property(lambda self: self.play.names)
    over = property(lambda self: self.play.over)

    def outcome(self) -> Outcome:
        """Who won, why the game ended (who played =), and the totals compared in words."""
        names, (t0, t1), ender = self.names, self.state.totals, self.state.end_by
        said = [self.shown(seat, name) for seat, name in enumerate(names)]  # namesakes apart
        w, hi, lo = (0 if t0 > t1 else 1), num(max(t0, t1)), num(min(t0, t1))
        totals = f"{said[w]}'s line totals {hi} and {said[1 - w]}'s totals {lo}: {hi} is more "
        lines = [f"Both number lines total {hi}." if t0 == t1 else f"{totals}than {lo}."]
        why = None if ender is None else f"{said[ender]} played =, so {said[1 - ender]}"
        reason = why and f"{why} had one last turn"
        return outcome_of(self.standings(), names, score=num, reason=reason, lines=lines)

    # -- lifecycle ---------------------------------------------------------------------------

    def begin(self) -> None:
        """Put back what the journal kept beside the match, deal, and say who starts."""
        play = self.play
        play.carry_on(self.save.app.get("table"))
        play.deal()
        if not self.resumed:
            first = "atk.said.first" if play.virtual else "atk.said.deal_first"
            play.say(child_message(first, name=play.name(self.state.turn)))

    def welcome(self) -> None:
        self.play.say(child_message("atk.said.welcome_back", name=self.play.name(self.state.turn)))

    def card_seats(self) -> int:
        return 0 if self.play.virtual else 2

    # -- input -------------------------------------------------------------------------------

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        self.ask_about(self.play.answered(asking[1], result))

    def explain(self, name: str) -> None:
        self.play.explain(name)

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        play = self.play
        kind, _, arg = name.partition(".")
        if name == "undo" and play.own_last_move() is not None:  # a child's own: no PIN
            play.take_back()
        elif kind in ("line", "seen"):
            self.ask_about((play.tap_line if kind == "line" else play.ghost_tapped)(int(arg)))
        elif kind == "hand":
            play.pick(int(arg))
        elif name == "pass":
            self.ask_about(play.pass_turn())
        else:
            super().press(name)

    # -- layout and drawing ------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m, (W, H) = metrics, metrics.size
        margin, state, play, bh = m.u(8), self.state, self.play, m.u(48)
        on = play.playing()  # a child's turn
        b = corner_buttons(W - margin, m.u(6), (m.u(92), bh), m.u(6), undo=play.can_undo())
        self.status_rect = pygame.Rect(margin, m.u(6), b[-1].rect.left - m.u(10) - margin, bh)
        # the two lines, the message and the foot share what is left under the top bar
        # (less while a station rotation's banner has its strip)
        fit = min(1.0, (H - m.u(82)) / m.u(398))
        ph = int(m.u(116) * fit)
        self.panels = tuple(
            pygame.Rect(margin, m.u(60) + i * (ph + m.u(6)), W - 2 * margin, ph) for i in (0, 1)
        )
        for line, panel in enumerate(self.panels):
            if line in play.ghosts:
                geo = line_geometry(m, panel, len(state.lines[line]))
                b.append(Button(f"seen.{line}", geo.slots[-1].inflate(m.u(6), m.u(6)), kind="card"))
            b.append(Button(f"line.{line}", panel, kind="line", enabled=on))
        top = self.panels[1].bottom + m.u(6)
        self.message_rect = pygame.Rect(margin, top, W - 2 * margin, int(m.u(80) * fit))
        bottom = self.message_rect.bottom + m.u(4)
        foot, pw = H - m.u(6) - bottom, m.u(150)
        pass_rect = pygame.Rect(W - margin - pw, bottom + (foot - m.u(56)) // 2, pw, m.u(56))
        caption = "show hand, pass"
        b.append(Button("pass", pass_rect, "Can't play", kind="quiet", enabled=on, caption=caption))
        if play.virtual:  # the child's hand, a card a button
            cw, mine, picked = min(m.u(62), int(foot * 0.76)), on and state.turn == 0, play.selected
            for i in range(len(state.hands[0])):
                x = margin + m.u(110) + i * (cw + m.u(10))
                rect = pygame.Rect(x, bottom + m.u(2), cw, foot - m.u(4))
                b.append(Button(f"hand.{i}", rect, kind="card", enabled=mine, selected=i == picked))
        self.foot_rect = pygame.Rect(margin, bottom, W - 2 * margin - pw - m.u(8), foot)
        self.buttons = sorted(b, key=lambda button: button.kind == "line")  # cards hit first

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        state, play = self.state, self.play
        surface.fill(p.background)
        self.draw_turn(surface)
        for line in (0, 1):
            name = self.shown(line, play.names[line])
            draw_number_line(painter, surface, self.panels[line], play, line, name)
        shade = {"error": p.bad, "good": p.good}.get(play.tone, p.ink)
        painter.box(surface, self.message_rect, p.quiet, None, radius=m.u(8))
        rect = self.message_rect.inflate(-m.u(16), -m.u(8))
        painter.paragraph(surface, self.status(), rect, m.text, shade, bold=play.tone == "error")
        painter.buttons(surface, [b for b in self.buttons if b.kind not in ("line", "card")])
        foot = self.foot_rect
        if not play.virtual:
            stack = plural(state.stack_size, "card")
            words = f"Stack: {stack}. {play.take_back_hint() or child_message('atk.ui.no_camera')}"
            painter.paragraph(surface, words, foot.inflate(0, -m.u(8)), m.small, p.muted)
            return
        at = (foot.left, foot.top + m.u(4))
        painter.text(surface, "Your cards", at, m.small, bold=True, max_width=m.u(104))
        for hand in (b for b in self.buttons if b.name.startswith("hand.")):
            card = state.hands[0][int(hand.name[5:])]
            draw_card(painter, surface, hand.rect, card, "selected" if hand.selected else "")
        at = (foot.left, foot.bottom - m.u(4))
        stack = f"Stack: {state.stack_size}"
        painter.text(surface, stack, at, m.small, p.muted, anchor="bottomleft")

    def draw_turn(self, surface: pygame.Surface) -> None:
        """Whose turn: the seat's chip and name at the top, an outline round its line."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        r, seat, state = self.status_rect, self.state.turn, self.state
        chip = pygame.Rect(r.left, r.top + m.u(4), m.u(40), r.height - m.u(8))
        name = self.shown(seat, self.names[seat])
        text = f"Last turn: {name}!" if state.end_by is not None else f"{name}'s turn"
        text = "The game is over!" if self.over else text
        shade = p.bad if state.end_by is not None else p.ink
        room = r.right - chip.right - m.u(12)
        painter.seat_name(surface, chip, seat, text, m.title - 2, room, colour=shade, gap=10)
        if not self.over:
            outline = self.panels[seat].inflate(m.u(6), m.u(6))
            pygame.draw.rect(surface, p.selected, outline, m.u(3), m.u(12))


def _start(ctx: Context, values: form.FormValues) -> Scene:
    names, first = values.names, int(values.options["first"])
    bot, seats = values.bots.get(1), list(values.seats)
    return AttackScene(ctx, names=(names[0], names[1]), bot=bot, first=first, seats=seats)


CHILDREN, WITH_BOT = (form.CHILD, form.CHILD), (form.CHILD, form.BOT)
FIRST = (form.Choice("0", "{0}"), form.Choice("1", "{1}"))  # the seats' names
SETUP = form.FormSpec(
    game=GAME.name,
    title="Math Attack!",
    subtitle="Two number lines: add to yours, attack theirs.",
    rules=RULES,
    start=_start,
    seats=form.Seats(
        2, 2, CHILDREN, LEVEL_CHOICES, "easy", bot_seats=(1,), bot_name="Bot ({level})"
    ),
    cards=form.Cards(
        with_bot=form.VIRTUAL,
        without_bot=form.REAL,
        why_with_bot=child_message("atk.ui.bot_cards"),
        why_without_bot=child_message("atk.ui.bot_only"),
        real_caption="on the table",
        virtual_caption="on the screen",
    ),
    options=(form.OptionRow("first", "Who starts", FIRST, "0"),),
    modes=(("table", form.Preset(seats=CHILDREN)), ("bot", form.Preset(seats=WITH_BOT))),
)


def setup_scene(ctx: Context) -> Scene:
    """The first screen of Math Attack! (Home pushes it): the one setup form."""
    return form.FormScene(ctx, SETUP)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal: the names, the bot, who
    started and the seed from ``save.app`` (the keys every version wrote)."""
    app = save.app
    a, b = save.names if len(save.names) == 2 else app["names"]
    first, seed = int(app.get("first", 0)), int(app["seed"])
    names, bot = (str(a), str(b)), app.get("bot")
    return AttackScene(ctx, names=names, bot=bot, first=first, seed=seed, match=match, save=save)


__all__ = ["BOT_LEVELS", "RULES", "SETUP", "AttackScene", "resume_scene", "setup_scene"]
