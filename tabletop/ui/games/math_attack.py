"""Math Attack! in the app: two number lines, drawn card by card with running totals.

Two ways to play (RULINGS ATK-1..ATK-6, engine ``tabletop.games.math_attack``):

- **Two players with real cards** (``hidden_hands``): the device sees only the number
  lines. The camera watches each line's zone and sends ``CardsSeen(seat, "line", cards)``
  (seat 1-based, cards left to right); a new card at the end of a line is the play of
  the seat whose turn it is. Without a camera a card is entered by touch: tap a number
  line (or press your seat button) and pick the card. A reading that disagrees with the
  game (a card moved or taken away, two new cards, a card that is not ours, an illegal
  card) is shown and refused with the reason; the newest card can be corrected by
  tapping it and picking the right card.
- **Against a bot** (virtual cards): the device deals; the child's hand is on the screen
  (tap a card, then a number line), the bot's hand is hidden.

Every ruling is shown with its reason; a refused move gets one short sentence a child
understands on screen and the engine's exact message in the log. Undo of the last move
is behind the teacher PIN.

Touch targets: setup, the one setup form (:mod:`tabletop.ui.scenes.form`): ``seat.0``
``seat.1`` (seat 2: a child or a bot, ``choice.bot.<L>``), ``cards.real``
``cards.virtual``, ``first.0`` ``first.1``, ``rules`` ``back`` ``start``; game ``line.0`` ``line.1``
``seen.0`` ``seen.1`` (a camera card that was not accepted) ``hand.<i>`` ``pass``
``rules`` ``undo`` ``leave``; results ``home`` ``again``. Card pickers are
:class:`ChoiceGrid` with ``choice.<CODE>``.
"""

from __future__ import annotations

import logging
import os
import random
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import pygame

from tabletop.bots.math_attack import LEVEL_NAMES, LEVELS, MathAttackBot
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.games import GAMES
from tabletop.games.math_attack import (
    BLOCK,
    CANCEL,
    END,
    FLIP,
    MULTIPLIER_FACTORS,
    Action,
    Draw,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
    cancelled_positions,
    card_name,
    colour,
    parse_card,
    running_totals,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import start_card_camera, stop_card_camera
from tabletop.ui.input import Back, CardSeen, CardsSeen, InputEvent, SeatPressed, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.saves import (
    DemoTable,
    GameSave,
    demo_seats,
    keyed_dealer,
    seat_infos,
    standings_result,
)
from tabletop.ui.scenes.common import (
    Confirm,
    ask_leave,
    go_home,
    header,
    home_and_again,
    route_to_press,
)
from tabletop.ui.scenes.form import (
    BOT,
    CHILD,
    REAL,
    VIRTUAL,
    Cards,
    Choice,
    FormScene,
    FormSpec,
    FormValues,
    OptionRow,
    Preset,
    Seats,
)
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import ChoiceGrid, RulesPage, RulesScene
from tabletop.ui.theme import GREEN, Metrics
from tabletop.ui.widgets import Button, Painter, hit

log = logging.getLogger(__name__)

GAME = MathAttack()
GAME_ID = "math-attack"
BOT_SECONDS = 1.5  # the bot "thinks" this long, so a child can follow its play
BOT_LEVELS = tuple(level for level in LEVELS if level != "random")

# Card inks: black, red, green as printed (ATK-1); the sign is always shown too.
INK = {"black": (25, 25, 30), "red": (200, 30, 45), "green": GREEN}

# The card picker: +1..+10, -1..-10, then the multipliers and the green cards.
PICKER = (
    *(f"+{n}" for n in range(1, 11)),
    *(f"-{n}" for n in range(1, 11)),
    "+H",
    "+N",
    "+D",
    "-H",
    "-N",
    "-D",
    END,
    CANCEL,
    FLIP,
    BLOCK,
)

# -- words for children ------------------------------------------------------------------------


def label(card: str) -> str:
    """The card as printed, with a real minus sign: ``+5``, ``\u2212|n\u00d72|``, ``=``."""
    return card_name(card).replace("-", "\u2212")


def num(n: int) -> str:
    """A total as shown on screen: a real minus sign, easy to see (``−15``)."""
    return str(n).replace("-", "\u2212")


def seated(text: str, names: Sequence[str]) -> str:
    """An engine sentence with "Seat 1" / "seat 2" replaced by the players' names."""
    return re.sub(r"\b[Ss]eat ([12])\b", lambda m: names[int(m.group(1)) - 1], text)


# -- drawing cards and number lines ------------------------------------------------------------


def draw_card(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    card: str | None,
    *,
    crossed: bool = False,
    ghost: bool = False,
    selected: bool = False,
    text: str = "",
) -> None:
    """One card face (``card`` None: ``text`` on a blank card, e.g. "?")."""
    m, p = painter.m, painter.p
    radius = max(4, rect.width // 8)
    ink = INK[colour(card)] if card is not None else p.ink
    painter.box(surface, rect, (255, 255, 255), ink, max(2, rect.width // 18), radius)
    if ghost:
        pygame.draw.rect(surface, p.bad, rect.inflate(8, 8), m.u(4), radius + 2)
    if selected:
        pygame.draw.rect(surface, p.selected, rect.inflate(8, 8), m.u(5), radius + 2)
    inner = rect.width - max(6, rect.width // 6)
    caption = ""
    big = text
    if card is not None:
        big = label(card)
        if card == CANCEL:
            big, caption = "\u21b5", "cancel"
        elif card == BLOCK:
            big, caption = "\u2205", "block"
        elif card == FLIP:
            caption = "flip"
        elif card == END:
            caption = "end"
        elif card[1:] in MULTIPLIER_FACTORS:
            big, caption = big[0], big[1:]
    if caption:
        cap = painter.fit_size(caption, max(10, rect.height // 5), inner)
        cap = min(cap, max(10, rect.height // 5))
        painter.text(
            surface,
            caption,
            (rect.centerx, rect.bottom - max(3, rect.height // 14)),
            cap,
            ink,
            bold=True,
            anchor="midbottom",
            max_width=inner,
        )
    size = max(10, int(min(rect.height * 0.42, rect.width * 0.55)))
    centre = (rect.centerx, rect.centery - (rect.height // 9 if caption else 0))
    painter.text(surface, big, centre, size, ink, bold=True, anchor="center", max_width=inner)
    if crossed:
        painter.cross(surface, rect.inflate(-rect.width // 5, -rect.height // 5), p.muted, 3)


@dataclass(frozen=True)
class Ghost:
    """A camera card on a line that the game did not accept: where, what, and why."""

    line: int
    position: int
    code: str  # what the camera read ("?" when unreadable)
    card: str | None  # our card code, or None if it is not one of ours
    reason: str


@dataclass(frozen=True)
class LineGeometry:
    """Where the cards of one number line go inside its panel."""

    slots: tuple[pygame.Rect, ...]
    first: int  # index of the first card shown (earlier cards are summed up in a stub)
    stub: pygame.Rect | None


def line_geometry(m: Metrics, area: pygame.Rect, count: int) -> LineGeometry:
    """Slots for ``count`` cards (plus one free slot) left to right: cards shrink to fit,
    and when even the smallest do not fit, the earliest are folded into one stub."""
    gap = m.u(6)
    h = area.height
    w = min(m.u(54), int(h * 0.72))
    slots = count + 1
    if slots * (w + gap) > area.width:
        w = max(m.u(46), (area.width + gap) // slots - gap)
    fits = max(2, (area.width + gap) // (w + gap))
    first = 0
    stub = None
    rects = []
    x = area.left
    if slots > fits:
        first = count - (fits - 2)  # one slot for the stub, one free slot
        stub = pygame.Rect(x, area.top, w, h)
        x += w + gap
    for _ in range(first, count + 1):
        rects.append(pygame.Rect(x, area.top, w, h))
        x += w + gap
    return LineGeometry(tuple(rects), first, stub)


def draw_number_line(
    painter: Painter,
    surface: pygame.Surface,
    panel: pygame.Rect,
    *,
    seat: int,
    name: str,
    cards: Sequence[str],
    note: str = "",
    blocked: bool = False,
    active: bool = False,
    ghost: Ghost | None = None,
    add_slot: bool = False,
    trouble: bool = False,
) -> None:
    """A seat's number line: who, the total, every card with the total after it."""
    m, p = painter.m, painter.p
    border = p.bad if trouble else p.selected if active else p.line
    painter.box(surface, panel, p.panel, border, m.u(4) if active or trouble else 2, m.u(10))
    chip = pygame.Rect(panel.left + m.u(8), panel.top + m.u(8), m.u(34), m.u(34))
    painter.seat_chip(surface, chip, seat)
    left_w = m.u(150)
    painter.text(
        surface,
        name,
        (chip.right + m.u(8), chip.centery),
        m.text,
        bold=True,
        anchor="midleft",
        max_width=panel.left + left_w - chip.right - m.u(10),
    )
    totals = running_totals(cards)
    total = totals[-1] if totals else 0
    painter.text(
        surface,
        f"= {num(total)}",
        (panel.left + m.u(10), panel.top + m.u(70)),
        m.big + 4,
        p.ink,
        bold=True,
        anchor="midleft",
        max_width=left_w - m.u(14),
    )
    if note:
        painter.text(
            surface,
            note,
            (panel.left + m.u(10), panel.bottom - m.u(4)),
            m.small - 3,
            p.muted,
            anchor="bottomleft",
            max_width=left_w - m.u(14),
        )
    area = card_area(m, panel)
    geo = line_geometry(m, area, len(cards))
    cancelled = set(cancelled_positions(cards))
    under = m.small - 2
    if geo.stub is not None:
        painter.box(surface, geo.stub, p.quiet, p.line, 2, m.u(6))
        painter.text(
            surface,
            f"+{geo.first}",
            (geo.stub.centerx, geo.stub.top + geo.stub.height // 3),
            m.small,
            p.muted,
            bold=True,
            anchor="center",
        )
        painter.text(surface, "cards", geo.stub.center, m.small - 5, p.muted, anchor="midtop")
        before = totals[geo.first - 1]
        painter.text(
            surface,
            num(before),
            (geo.stub.centerx, geo.stub.bottom + m.u(2)),
            under,
            p.ink,
            bold=True,
            anchor="midtop",
        )
    for slot, i in zip(geo.slots, range(geo.first, len(cards))):
        draw_card(painter, surface, slot, cards[i], crossed=i in cancelled)
        painter.text(
            surface,
            num(totals[i]),
            (slot.centerx, slot.bottom + m.u(2)),
            under,
            p.muted if i in cancelled else p.ink,
            bold=True,
            anchor="midtop",
        )
    free = geo.slots[-1]
    if ghost is not None:
        draw_card(
            painter,
            surface,
            free,
            ghost.card,
            ghost=True,
            text="?" if ghost.card is None else "",
        )
        painter.text(
            surface, "tap", (free.centerx, free.bottom + m.u(2)), under, p.bad, anchor="midtop"
        )
    elif add_slot and not blocked:
        painter.box(surface, free, None, p.muted, 2, m.u(6))
        painter.text(surface, "+", free.center, m.big, p.muted, bold=True, anchor="center")
    if blocked:
        veil = pygame.Surface(area.inflate(m.u(8), m.u(8)).size, pygame.SRCALPHA)
        veil.fill((120, 120, 130, 90))
        surface.blit(veil, area.inflate(m.u(8), m.u(8)).topleft)
        tag = "\u2205 Blocked: no card here this turn"
        painter.text(
            surface,
            tag,
            (area.right - m.u(4), panel.top + m.u(6)),
            m.small,
            p.bad,
            bold=True,
            anchor="topright",
            max_width=area.width,
        )


def card_area(m: Metrics, panel: pygame.Rect) -> pygame.Rect:
    """The part of a line's panel that holds its cards (room below for the totals)."""
    left = panel.left + m.u(156)
    top = panel.top + m.u(8)
    return pygame.Rect(left, top, panel.right - m.u(8) - left, panel.height - m.u(36))


# -- rules -------------------------------------------------------------------------------------

RULES = (
    RulesPage(
        "The goal",
        "Each player has a number line of cards. It starts at 0. Add to your own line and "
        "take away from your partner's line. The highest total at the end wins.",
        "Ana's line: +5 then +3 makes 8. Ben's line: +6 then \u22122 makes 4. Ana is ahead.",
    ),
    RulesPage(
        "Your turn",
        "Play exactly one card, on your line or on your partner's line. Then take one card "
        "from the stack, so you have 5 again. When the stack is empty, just keep playing.",
        "Ana has 5 cards. She puts \u22124 on Ben's line, so his 4 becomes 0. "
        "Then she draws a card.",
    ),
    RulesPage(
        "Black and red cards",
        "Black cards go up, red cards go down. The n cards use the size of the total "
        "(no sign): n\u00f72 is half of it (rounded down), n is all of it, n\u00d72 is double.",
        "Total 7, play +|n\u00f72|: add 3, so 10. Total \u221212, play +|n\u00d72|: "
        "add 24, so 12. Total 11, play \u2212|n|: take away 11, so 0.",
    ),
    RulesPage(
        "Green cards",
        "+/\u2212 flips the sign of the total. Cancel (\u21b5) makes the card before it not "
        "count; it only goes on a black or red card. Block (\u2205): nobody may play on that "
        "line next turn.",
        "+/\u2212 on 8 makes \u22128, and on \u221214 makes 14. A line ending +7 with total "
        "10: cancel it and the total is 3.",
    ),
    RulesPage(
        "The end",
        "Playing = starts the end: the other player gets one more turn, then the game is "
        "over. Highest total wins; equal totals are a draw. No card you can play? Show "
        "your hand and pass.",
        "Ana is ahead 15 to 9 and plays =. Ben has one last turn: he plays \u2212|n\u00f72| "
        "on Ana's line, 15 becomes 8. Ben wins 9 to 8!",
    ),
    RulesPage(
        "The device",
        "The camera watches both number lines and sees each new card. No camera? Tap a "
        "number line and pick the card. If the camera reads a card wrong, tap that card "
        "and pick the right one. A teacher can take back a move with the PIN.",
        "Ben puts +6 on his line. The screen shows +6 and his new total at once.",
    ),
)


# -- setup -------------------------------------------------------------------------------------


def _start(ctx: Context, values: FormValues) -> Scene:
    names = values.names
    return AttackScene(
        ctx,
        names=(names[0], names[1]),
        bot=values.bots.get(1),
        first=int(values.options["first"]),
        seats=list(values.seats),
    )


SETUP = FormSpec(
    game=GAME.name,
    title="Math Attack!",
    subtitle="Two number lines: add to yours, attack theirs.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        2,
        (CHILD, CHILD),
        levels=tuple((level, LEVEL_NAMES[level]) for level in BOT_LEVELS),
        level="easy",
        bot_seats=(1,),
        bot_name="Bot ({level})",
    ),
    cards=Cards(
        with_bot=VIRTUAL,
        without_bot=REAL,
        why_with_bot="A bot plays with cards on the screen.",
        why_without_bot="Virtual cards are for playing a bot: tap seat 2.",
        real_caption="on the table",
        virtual_caption="on the screen",
    ),
    options=(OptionRow("first", "Who starts", (Choice("0", "{0}"), Choice("1", "{1}")), "0"),),
    modes=(("table", Preset(seats=(CHILD, CHILD))), ("bot", Preset(seats=(CHILD, BOT)))),
)


# -- the game ----------------------------------------------------------------------------------


class AttackScene(Scene):
    """One game: the two number lines, whose turn, what is blocked, the last turn."""

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
        super().__init__(ctx)
        if bot is not None and bot not in LEVELS:
            raise ValueError(f"unknown bot level {bot!r}")
        self.names = names
        self.bot_level = bot
        self.virtual = bot is not None
        self.bot_seat = 1
        self.first = first
        self.seed = ctx.rng.randrange(10**9) if seed is None else seed
        settings = MathAttackSettings(hidden_hands=not self.virtual, first_player=first)
        self.resumed = match is not None
        self.match: Match[MathAttackSettings, MathAttackState, Action] = match or Match(
            GAME, settings, 2, seed=self.seed
        )
        self.dealer = keyed_dealer(self.seed, self.match)
        self.save = save or GameSave(
            ctx,
            GAME.name,
            list(seats) if seats else seat_infos(names, {1: bot} if bot else None),
            {"names": list(names), "bot": bot, "first": first, "seed": self.seed},
        )
        self.bot = MathAttackBot(bot, seed=self.seed) if bot is not None else None
        self.bot_due: float | None = None
        self.took_back = False  # a child just took back their own last move
        self.selected: int | None = None  # index into the child's hand (virtual play)
        self.message = ""
        self.kind = "info"  # info | good | error
        self.ghosts: dict[int, Ghost] = {}
        self.trouble: dict[int, str] = {}  # line -> what is wrong with the camera's reading
        self.undone: dict[int, str] = {}  # line -> a card taken back but still on the table
        self.fixes: dict[int, dict[int, tuple[str, str]]] = {0: {}, 1: {}}
        self.misread: dict[int, tuple[int, str]] = {}  # line -> (position, code read)
        self.last_seen: dict[int, CardsSeen] = {}
        self.asking: tuple[str, int] | None = None
        self.events: list[Event] = []  # every event, for the log and the demo
        self.results: AttackResults | None = None

    # -- state ---------------------------------------------------------------------------

    @property
    def state(self) -> MathAttackState:
        return self.match.state

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def is_bot(self, seat: int) -> bool:
        return self.virtual and seat == self.bot_seat

    def standings(self) -> Result:
        """The result, or before the end the standings: the higher total leads."""
        totals = self.state.totals
        return self.match.result() or standings_result(
            totals, f"stopped with the number lines at {totals[0]} and {totals[1]}"
        )

    def facts(self, line: int | None = None, card: str | None = None) -> dict[str, object]:
        state = self.state
        out: dict[str, object] = {"turn": self.names[state.turn]}
        if line is not None and line in (0, 1):
            out["owner"] = self.names[line]
            out["other"] = self.names[1 - line]
            cards = state.lines[line]
            if cards:
                out["last"] = label(cards[-1])
        if card is not None:
            out["card"] = label(card)
        hint = self._play_hint()
        if hint:
            out["hint"] = hint
        return out

    def _play_hint(self) -> str:
        state = self.state
        if state.phase != "play":
            return ""
        for action in GAME.legal_actions(state, state.turn):
            if isinstance(action, Play):
                if state.settings.hidden_hands:
                    return f"any card but cancel can go on {self.names[action.line]}'s line"
                return f"{label(action.card)} can go on {self.names[action.line]}'s line"
        return ""

    # -- lifecycle -------------------------------------------------------------------------

    def enter(self) -> None:
        self.save.attach(self.match)
        self._deal()
        first = self.names[self.state.turn]
        if self.resumed:
            self.say(f"Welcome back! It is {first}'s turn.")
        elif self.virtual:
            self.say(f"{first} goes first! Tap a card in your hand, then a number line.")
        else:
            self.say(f"Deal 5 cards each. {first} goes first! Put one card on a number line.")
        self._lamps()
        self.layout(self.m)
        self.camera = None if self.virtual else start_card_camera(self.ctx, "math-attack", 2)

    def exit(self) -> None:
        self.ctx.lamps.light_only([])
        stop_card_camera(getattr(self, "camera", None))

    def resume(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking is not None:
            what, line = asking
            if what == "leave" and result == "yes":
                self.save.finish(self.standings(), reason="abandoned")
                go_home(self.stack)
                return
            if what == "undo" and result == "ok":
                self.undo()
            elif what == "where" and isinstance(result, str) and result in ("0", "1"):
                self.ask_card(int(result))
                return
            elif what == "card" and isinstance(result, str):
                self.play(line, result)
            elif what == "fix" and isinstance(result, str):
                self.fix(line, result)
            elif what == "misread" and result == "yes" and line in self.misread:
                self.accept_misread(line)
        self._lamps()
        self.layout(self.m)

    def _lamps(self) -> None:
        state = self.state
        lit = [] if self.over or self.is_bot(state.turn) else [state.turn]
        self.ctx.lamps.light_only(lit)

    # -- doing things -------------------------------------------------------------------------

    def say(self, text: str, kind: str = "info") -> None:
        self.message, self.kind = text, kind

    def refuse(self, code: str, facts: Mapping[str, object] | None = None, detail: str = "") -> str:
        """Show the child's sentence for ``code`` and log the exact reason."""
        text = child_message(code, facts)
        self.ctx.sounds.play("wrong")
        self.say(text, "error")
        log.info("math-attack refused (%s): %s", code, detail or text)
        return text

    def _deal(self) -> None:
        """Virtual play: the device deals and draws (chance comes from the dealer)."""
        while self.match.pending.chance is not None:
            self.events.extend(self.match.deal(self.dealer))

    def perform(self, action: Action) -> str | None:
        """Apply ``action``; None when done, else the child's sentence saying why not."""
        line = action.line if isinstance(action, Play) else None
        card = action.card if isinstance(action, Play) else None
        facts = self.facts(line, card)
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            return self.refuse(exc.code, facts, exc.message)
        self.events.extend(events)
        self.took_back = False
        self._deal()
        self.selected = None
        self.bot_due = None
        self._tell(action, events)
        self._lamps()
        if self.over:
            self.save.finish(self.match.result())
            self.ctx.sounds.play("round")
            self.results = AttackResults(self.ctx, self)
            self.stack.push(self.results)
        else:
            self.layout(self.m)
        return None

    def _tell(self, action: Action, events: Sequence[Event]) -> None:
        """The ruling in plain words: what the card did, and what comes next."""
        words = [
            seated(e.text, self.names)
            for e in events
            if e.code not in ("atk.drew", "atk.dealt", "atk.game_over")
        ]
        state = self.state
        if not self.virtual and any(e.code == "atk.drew" for e in events):
            words.append(f"{self.names[action.seat]}, take a card from the stack.")
        if state.phase == "play":
            nxt = self.names[state.turn]
            if state.blocked is not None:
                where = (
                    "their own line"
                    if state.blocked != state.turn
                    else f"{self.names[1 - state.blocked]}'s line"
                )
                words.append(
                    f"{self.names[state.blocked]}'s line is blocked, so {nxt} must play on {where}."
                )
            if state.end_by is not None:
                words.append(f"This is {nxt}'s last turn!")
        self.ctx.sounds.play("good" if isinstance(action, Play) else "tap")
        self.say(" ".join(words), "good" if isinstance(action, Play) else "info")

    def play(self, line: int, card: str) -> str | None:
        """The seat to play puts ``card`` on ``line`` (touch, the camera or the bot)."""
        if self.over:
            return self.refuse("atk.game_over")
        seat = self.state.turn
        if card not in PICKER:
            return self.refuse("atk.unknown_card", detail=f"{card!r} is not a card code")
        return self.perform(Play(seat, card, line))

    def ask_card(self, line: int) -> None:
        self.asking = ("card", line)
        who = self.names[self.state.turn]
        self.stack.push(
            ChoiceGrid(
                self.ctx,
                f"Which card did {who} put on {self.names[line]}'s line?",
                [(card, label(card)) for card in PICKER],
                columns=10,
                rows=3,
            )
        )

    def fix(self, line: int, card: str) -> None:
        """A card the camera read wrongly (or not at all) is set right by touch."""
        ghost = self.ghosts.get(line)
        if ghost is None:
            return
        log.info(
            "math-attack: camera card %r on line %d corrected by touch to %s",
            ghost.code,
            line,
            card,
        )
        self.fixes[line][ghost.position] = (ghost.code, card)
        reason = self.play(line, card)
        if reason is None:
            self.ghosts.pop(line, None)
        else:
            self.ghosts[line] = Ghost(line, ghost.position, ghost.code, card, reason)

    def undo(self) -> None:
        """Take back the last move of a player (and the bot's reply, against a bot)."""
        if not self._can_undo():
            self.refuse("engine.nothing_to_undo")
            return
        taken: Action | None = None
        while self.match.history:
            action = self.match.undo()
            if isinstance(action, (Play, Pass)) and not self.is_bot(action.seat):
                taken = action
                break
        self.ghosts.clear()
        self.trouble.clear()
        self.selected = None
        self.bot_due = None
        if isinstance(taken, Play):
            self.fixes[taken.line].pop(len(self.state.lines[taken.line]), None)
            if self.virtual:
                self.say(
                    f"Taken back: {self.names[taken.seat]}'s {label(taken.card)} on "
                    f"{self.names[taken.line]}'s line. It is {self.names[self.state.turn]}'s "
                    "turn again."
                )
            else:
                self.undone[taken.line] = taken.card
                self.say(child_message("atk.ui.take_back", self.facts(taken.line, taken.card)))
        else:
            self.say(f"Taken back: the pass. It is {self.names[self.state.turn]}'s turn again.")
        log.info("math-attack: undo: %r", taken)
        self.ctx.sounds.play("tap")

    def _own_last_move(self) -> bool:
        """The last move was a child's and nothing has acted on it yet (the next player
        has not played, the bot has not replied): the child may take it back without the
        teacher, once. The cards the device drew after it are part of that move."""
        if self.took_back:  # the move before it was acted on: that one is the teacher's
            return False
        for action in reversed(self.match.history):
            if isinstance(action, Draw):
                continue
            return not self.is_bot(action.seat)
        return False

    def _can_undo(self) -> bool:
        return any(
            isinstance(a, (Play, Pass)) and not self.is_bot(a.seat) for a in self.match.history
        )

    # -- the camera ---------------------------------------------------------------------------

    def on_cards(self, event: CardsSeen) -> None:
        """A zone's steady reading. A new card at the end of a number line is a play."""
        if event.area not in ("line", None) or event.seat not in (1, 2):
            log.info("math-attack: ignored cards seen at seat %r, area %r", event.seat, event.area)
            return
        assert event.seat is not None
        line = event.seat - 1
        codes = event.codes
        self.last_seen[line] = event
        self.misread.pop(line, None)
        if self.virtual:
            if codes:
                self.refuse("atk.ui.virtual", detail=f"camera cards {codes} in virtual play")
            return
        fixes = self.fixes[line]
        read = [
            fixes[i][1] if i in fixes and fixes[i][0] == code else parse_card(code)
            for i, code in enumerate(codes)
        ]
        known = self.state.lines[line]
        facts = self.facts(line)
        for i, card in enumerate(known):
            place = {**facts, "place": i + 1, "card": label(card)}
            if i >= len(read):
                self.trouble[line] = self.refuse("atk.ui.taken", place, f"camera {codes}")
                self.ghosts.pop(line, None)
                self.layout(self.m)
                return
            if read[i] != card:
                self.trouble[line] = self.refuse("atk.ui.moved", place, f"camera {codes}")
                self.misread[line] = (i, codes[i])
                self.ghosts.pop(line, None)
                self.layout(self.m)
                return
        self.trouble.pop(line, None)
        extra = read[len(known) :]
        undone = self.undone.pop(line, None)
        if not extra:
            if line in self.ghosts:
                self.ghosts.pop(line)
                self.say(f"{self.names[line]}'s line is back as it was.")
            self.layout(self.m)
            return
        if len(extra) == 1 and undone is not None and extra[0] == undone:
            self.undone[line] = undone  # still on the table: wait for it to go
            self.say(child_message("atk.ui.take_back", {**facts, "card": label(undone)}), "error")
            return
        if len(extra) > 1:
            n = len(extra)
            self.ghosts.pop(line, None)
            self.trouble[line] = self.refuse(
                "atk.ui.two_cards",
                {**facts, "count": n, "extra": "one" if n == 2 else f"{n - 1}"},
                f"camera {codes}",
            )
            self.layout(self.m)
            return
        position = len(known)
        code = codes[position]
        card = extra[0]
        if self.over:
            self.ghosts[line] = Ghost(line, position, code, card, self.refuse("atk.game_over"))
        elif card is None:
            what = "atk.ui.unreadable" if code in ("", "?") else "atk.ui.not_ours"
            reason = self.refuse(what, facts, f"camera card {code!r} on line {line}")
            self.ghosts[line] = Ghost(line, position, code, None, reason)
        else:
            reason = self.play(line, card)
            if reason is None:
                self.ghosts.pop(line, None)
            else:
                self.ghosts[line] = Ghost(line, position, code, card, reason)
        if not self.over:
            self.layout(self.m)

    # -- input --------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.press("leave")
        elif isinstance(event, CardsSeen):
            self.on_cards(event)
        elif isinstance(event, SeatPressed):
            self.seat_pressed(event.seat)
        elif isinstance(event, Tap):
            button = hit(self.targets(), event.pos)
            if button is None:
                return
            if not button.enabled:
                self._explain(button.name)
                return
            self.ctx.sounds.play("tap")
            self.press(button.name)
        self._lamps()

    def seat_pressed(self, seat: int) -> None:
        """A seat button: on your turn (real cards) it enters your card by touch."""
        if seat not in (0, 1) or self.over:
            return
        if self.is_bot(seat):
            self.refuse("atk.ui.bot_seat", self.facts())
        elif seat != self.state.turn:
            self.refuse("atk.not_your_turn", self.facts(), f"seat {seat + 1} pressed out of turn")
        elif self.virtual:
            self.say(child_message("atk.ui.pick_card"))
        else:
            self.asking = ("where", seat)
            self.stack.push(
                ChoiceGrid(
                    self.ctx,
                    f"{self.names[seat]}: on which line did you put your card?",
                    [("0", f"{self.names[0]}'s line"), ("1", f"{self.names[1]}'s line")],
                    columns=2,
                    rows=1,
                )
            )

    def _explain(self, name: str) -> None:
        if name == "undo":
            self.refuse("engine.nothing_to_undo")
        elif name == "pass" or name.startswith("hand.") or name.startswith("line."):
            self.refuse("atk.ui.bot_turn" if self.is_bot(self.state.turn) else "atk.ui.over")

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        if name == "leave":
            self.asking = ("leave", -1)
            self.stack.push(ask_leave(self.ctx))
        elif name == "rules":
            self.stack.push(RulesScene(self.ctx, "How to play Math Attack!", RULES))
        elif name == "undo":
            if not self._can_undo():
                self.refuse("engine.nothing_to_undo")
                return
            if self._own_last_move():  # a child takes back their own last card: no PIN
                self.undo()
                self.took_back = True
                return
            self.asking = ("undo", -1)
            self.stack.push(
                PinPad(
                    self.ctx,
                    "undo",
                    prompt="Teacher PIN to take back a move",
                    subtitle="For teachers: take back the last move.",
                )
            )
        elif name.startswith("hand."):
            index = int(name[5:])
            self.selected = None if self.selected == index else index
            if self.selected is not None:
                card = self.state.hands[0][index]
                self.say(f"Now tap the number line for your {label(card)}.")
            self.layout(self.m)
        elif name.startswith("line."):
            self.tap_line(int(name[5:]))
        elif name.startswith("seen."):
            line = int(name[5:])
            ghost = self.ghosts.get(line)
            if ghost is not None:
                self.asking = ("fix", line)
                read = ghost.code if ghost.card is None else label(ghost.card)
                self.stack.push(
                    ChoiceGrid(
                        self.ctx,
                        f"The camera read \u201c{read}\u201d. Which card is it really?",
                        [(card, label(card)) for card in PICKER],
                        columns=10,
                        rows=3,
                    )
                )
        elif name == "pass":
            self.pass_turn()

    def tap_line(self, line: int) -> None:
        state = self.state
        if self.virtual:
            if self.is_bot(state.turn):
                self.refuse("atk.ui.bot_turn")
            elif self.selected is None:
                self.refuse("atk.ui.pick_card")
            else:
                card = state.hands[0][self.selected]
                self.perform(Play(0, card, line))
            return
        if line in self.misread:
            position, _ = self.misread[line]
            card = label(state.lines[line][position])
            self.asking = ("misread", line)
            self.stack.push(
                Confirm(self.ctx, f"Is card {position + 1} really {card}?", "Yes, it is", "No")
            )
            return
        if state.blocked == line:
            self.refuse("atk.blocked", self.facts(line), "tapped the blocked line")
            return
        self.ask_card(line)

    def accept_misread(self, line: int) -> None:
        """The camera keeps misreading an earlier card: a person says the game is right."""
        position, code = self.misread.pop(line)
        card = self.state.lines[line][position]
        self.fixes[line][position] = (code, card)
        self.trouble.pop(line, None)
        log.info(
            "math-attack: camera reads card %d on line %d as %r; confirmed by touch as %s",
            position + 1,
            line,
            code,
            card,
        )
        self.say(f"Thanks! Card {position + 1} on {self.names[line]}'s line is {label(card)}.")
        seen = self.last_seen.get(line)
        if seen is not None:
            self.on_cards(seen)  # a new card in that reading counts now

    def pass_turn(self) -> None:
        state = self.state
        seat = state.turn
        if self.is_bot(seat):
            self.refuse("atk.ui.bot_turn")
            return
        passes = [a for a in GAME.legal_actions(state, seat) if isinstance(a, Pass)]
        if not passes:
            self.refuse("atk.ui.no_pass", self.facts(), f"seat {seat + 1} may not pass")
            return
        self.perform(passes[0])

    def update(self, now: float) -> bool:
        state = self.state
        if self.bot is None or self.over or not self.is_bot(state.turn) or state.phase != "play":
            return False
        if self.bot_due is None:
            self.bot_due = now + BOT_SECONDS
            self.say(f"{self.names[self.bot_seat]} is thinking\u2026")
            return True
        if now < self.bot_due:
            return False
        action = self.bot.choose(state, self.bot_seat)
        self.perform(action)
        return True

    # -- layout and drawing ---------------------------------------------------------------------

    def targets(self) -> list[Button]:
        return list(self.buttons)

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(8)
        state = self.state
        playing = state.phase == "play" and not self.over
        human_turn = playing and not self.is_bot(state.turn)
        b: list[Button] = []
        bw, bh = m.u(92), m.u(48)
        x = W - margin
        for name, text, enabled in (
            ("leave", "Leave", True),
            ("undo", "Undo", self._can_undo()),
            ("rules", "Rules", True),
        ):
            x -= bw
            b.append(
                Button(name, pygame.Rect(x, m.u(6), bw, bh), text, kind="quiet", enabled=enabled)
            )
            x -= m.u(6)
        self.status_rect = pygame.Rect(margin, m.u(6), x - margin - m.u(4), bh)
        ph = m.u(116)
        self.panels = (
            pygame.Rect(margin, m.u(60), W - 2 * margin, ph),
            pygame.Rect(margin, m.u(60) + ph + m.u(6), W - 2 * margin, ph),
        )
        for line in (0, 1):
            panel = self.panels[line]
            ghost = self.ghosts.get(line)
            if ghost is not None:
                area = card_area(m, panel)
                geo = line_geometry(m, area, len(state.lines[line]))
                b.append(Button(f"seen.{line}", geo.slots[-1].inflate(m.u(6), m.u(6)), kind="card"))
            b.append(Button(f"line.{line}", panel, kind="line", enabled=human_turn))
        top = self.panels[1].bottom + m.u(6)
        self.message_rect = pygame.Rect(margin, top, W - 2 * margin, m.u(62))
        bottom = self.message_rect.bottom + m.u(4)
        foot = H - m.u(6) - bottom
        pw = m.u(150)
        b.append(
            Button(
                "pass",
                pygame.Rect(W - margin - pw, bottom + (foot - m.u(56)) // 2, pw, m.u(56)),
                "Can't play",
                kind="quiet",
                enabled=human_turn,
                caption="show hand, pass",
            )
        )
        self.hand_rects: list[pygame.Rect] = []
        if self.virtual:
            hand = state.hands[0]
            cw = min(m.u(62), int(foot * 0.7))
            for i, _ in enumerate(hand):
                rect = pygame.Rect(
                    margin + m.u(110) + i * (cw + m.u(10)), bottom + m.u(2), cw, foot - m.u(4)
                )
                self.hand_rects.append(rect)
                b.append(
                    Button(
                        f"hand.{i}",
                        rect,
                        kind="card",
                        enabled=human_turn and state.turn == 0,
                        selected=self.selected == i,
                    )
                )
        self.foot_rect = pygame.Rect(margin, bottom, W - 2 * margin - pw - m.u(8), foot)
        # the card on top of a panel is hit first
        self.buttons = sorted(b, key=lambda button: button.kind == "line")

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        state = self.state
        self._draw_status(surface)
        for line in (0, 1):
            notes = []
            if self.is_bot(line):
                notes.append(f"{state.hand_sizes[line]} cards, hidden")
            elif not self.virtual:
                notes.append(f"{state.hand_sizes[line]} cards in hand")
            draw_number_line(
                painter,
                surface,
                self.panels[line],
                seat=line,
                name=self.names[line],
                cards=state.lines[line],
                note=" ".join(notes),
                blocked=state.blocked == line and not self.over,
                active=False,
                ghost=self.ghosts.get(line),
                add_slot=not self.virtual and not self.over,
                trouble=line in self.trouble,
            )
        colour_ = {"error": p.bad, "good": p.good}.get(self.kind, p.ink)
        painter.box(surface, self.message_rect, p.quiet, None, radius=m.u(8))
        painter.paragraph(
            surface,
            self.message,
            self.message_rect.inflate(-m.u(16), -m.u(8)),
            m.text - 1,
            colour_,
            bold=self.kind == "error",
        )
        for b in self.buttons:
            if b.kind in ("line", "card"):
                continue
            painter.button(surface, b)
        foot = self.foot_rect
        if self.virtual:
            painter.text(
                surface,
                "Your cards",
                (foot.left, foot.top + m.u(4)),
                m.small,
                p.ink,
                bold=True,
                max_width=m.u(104),
            )
            for i, (rect, card) in enumerate(zip(self.hand_rects, state.hands[0])):
                draw_card(painter, surface, rect, card, selected=self.selected == i)
            stack = f"Stack: {state.stack_size}"
            painter.text(
                surface,
                stack,
                (foot.left, foot.bottom - m.u(4)),
                m.small,
                p.muted,
                anchor="bottomleft",
            )
        else:
            painter.paragraph(
                surface,
                f"Stack: {state.stack_size} cards. No camera? Tap a number line to enter "
                "the card by hand.",
                foot.inflate(0, -m.u(8)),
                m.small,
                p.muted,
            )

    def _draw_status(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        r = self.status_rect
        state = self.state
        seat = state.turn
        chip = pygame.Rect(r.left, r.top + m.u(4), m.u(40), r.height - m.u(8))
        painter.seat_chip(surface, chip, seat)
        if self.over:
            text = "The game is over!"
        elif state.end_by is not None:
            text = f"Last turn: {self.names[seat]}!"
        else:
            text = f"{self.names[seat]}'s turn"
        painter.text(
            surface,
            text,
            (chip.right + m.u(10), r.centery),
            m.title - 2,
            p.bad if state.end_by is not None else p.ink,
            bold=True,
            anchor="midleft",
            max_width=r.right - chip.right - m.u(12),
        )
        for line in (0, 1):  # whose turn: an outline round that seat's panel
            if line == seat and not self.over:
                pygame.draw.rect(
                    surface,
                    p.selected,
                    self.panels[line].inflate(m.u(6), m.u(6)),
                    m.u(3),
                    m.u(12),
                )


# -- results -----------------------------------------------------------------------------------


class AttackResults(Scene):
    """Both number lines, the totals and the winner, with the reason in plain words."""

    def __init__(self, ctx: Context, game: AttackScene) -> None:
        super().__init__(ctx)
        self.game = game

    @property
    def totals(self) -> tuple[int, int]:
        return self.game.state.totals

    def winner_line(self) -> str:
        """``winner: NAMES`` or ``winner: draw`` (what the demo prints last)."""
        result = self.game.match.result()
        if result is None:
            return "winner: none"
        winners = sorted(result.winners)
        if len(winners) != 1:
            return "winner: draw"
        return f"winner: {', '.join(self.game.names[s] for s in winners)}"

    def headline(self) -> tuple[str, str]:
        t0, t1 = self.totals
        n = self.game.names
        if t0 == t1:
            return "It's a draw!", f"Both number lines total {num(t0)}."
        w = 0 if t0 > t1 else 1
        hi, lo = num(max(t0, t1)), num(min(t0, t1))
        return (
            f"{n[w]} wins!",
            f"{n[w]}'s line totals {hi} and {n[1 - w]}'s totals {lo}: {hi} is more than {lo}.",
        )

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W = m.width
        self.panels = (
            pygame.Rect(m.u(8), m.u(104), W - m.u(16), m.u(116)),
            pygame.Rect(m.u(8), m.u(226), W - m.u(16), m.u(116)),
        )
        self.buttons = home_and_again(m, "Play again")

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        if name == "home":
            from tabletop.ui.scenes.home import HomeScene

            self.stack.unwind_to(HomeScene)
        elif name == "again":
            g = self.game
            self.stack.pop()
            self.stack.replace(
                AttackScene(self.ctx, names=g.names, bot=g.bot_level, first=1 - g.first)
            )

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        title, reason = self.headline()
        header(self, surface, title)
        painter.paragraph(
            surface,
            reason,
            pygame.Rect(m.u(18), m.u(18) + m.title, m.width - m.u(36), m.u(44)),
            m.text,
            p.good,
            bold=True,
        )
        g = self.game
        for line in (0, 1):
            draw_number_line(
                painter,
                surface,
                self.panels[line],
                seat=line,
                name=g.names[line],
                cards=g.state.lines[line],
            )
        ender = g.state.end_by
        if ender is not None:
            painter.paragraph(
                surface,
                f"{g.names[ender]} played =, so {g.names[1 - ender]} had one last turn.",
                pygame.Rect(m.u(18), self.panels[1].bottom + m.u(8), m.width - m.u(36), m.u(40)),
                m.small,
                p.muted,
            )
        painter.buttons(surface, self.buttons)


# -- the contract with Home and `tabletop demo` ------------------------------------------------


def setup_scene(ctx: Context) -> Scene:
    """The first screen of Math Attack! (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


def resume_scene(
    ctx: Context, save: GameSave, match: Match[MathAttackSettings, MathAttackState, Action]
) -> Scene:
    """The game screen again around a match replayed from the journal."""
    app = save.app
    names = tuple(save.names) if len(save.names) == 2 else tuple(app["names"])
    return AttackScene(
        ctx,
        names=(str(names[0]), str(names[1])),
        bot=app.get("bot"),
        first=int(app.get("first", 0)),
        seed=int(app["seed"]),
        match=match,
        save=save,
    )


def zone_reading(line: int, cards: Sequence[str], at: float) -> CardsSeen:
    """What the camera reports for a number line holding ``cards`` (codes) in order."""
    seat = line + 1
    return CardsSeen(seat, "line", tuple(CardSeen(code, seat, "line") for code in cards), at)


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    bots: tuple[str, str] = ("hard", "medium"),
    rollouts: int = 200,
    data: Path | None = None,
) -> str:
    """Two bots play a whole game of Math Attack! with "real" cards, offscreen.

    The cards come from a virtual deck (a second engine that knows both hands); each play
    is laid on a number line "under the camera" and reaches the app as a ``CardsSeen``
    reading. Once, the camera cannot read a card and the demo corrects it by touch. The
    app's own engine (which sees only the number lines) must agree with the virtual
    deck's at every turn. Returns (and prints last) ``winner: NAMES`` or ``winner: draw``.

    ``data``: journal into that folder as the app does (the app's game and the virtual
    deck). Killed and started again with the same arguments, the demo carries on through
    Home's "carry on" offer, lays again any play the app had not yet seen, and ends as
    an uninterrupted run does: every draw and every bot choice is keyed by the seed and
    the number of actions so far.
    """
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tabletop.ui.app import App
    from tabletop.ui.autoplay import Autoplayer
    from tabletop.ui.offscreen import offscreen
    from tabletop.ui.scenes.home import HomeScene

    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    folder = out_dir or Path(tempfile.mkdtemp(prefix="tabletop-math-attack-"))
    folder.mkdir(parents=True, exist_ok=True)
    ctx, window = offscreen(size, seed, data)
    table = DemoTable(ctx, GAME.name, seed)
    deck = table.open(GAMES)
    app = App(ctx, window, flip=False)
    app.stack.push(HomeScene(ctx, offer_resume=deck is not None))
    app.step()
    auto = Autoplayer(app)
    first = seed % 2
    if deck is not None:
        auto.tap("yes")  # Home: "A game of Math Attack! was not finished. Carry on?"
    else:
        auto.tap("game.math-attack")
        setup = app.stack.top
        assert isinstance(setup, FormScene)
        for seat, level in enumerate(bots):
            setup.name_seat(seat, f"{LEVEL_NAMES[level]} bot")
        auto.tap(f"first.{first}")
        auto.tap("start")
        deck = Match(GAME, MathAttackSettings(first_player=first), 2, seed=seed)
        table.start(deck)
    scene = app.stack.top
    if not isinstance(scene, AttackScene):
        raise RuntimeError("the game screen did not open")
    demo_seats(scene.save)  # the demo's bots are never in a report
    names = scene.names
    dealer = keyed_dealer(seed, deck)
    players = tuple(MathAttackBot(level, seed + i, rollouts) for i, level in enumerate(bots))
    turn = sum(1 for a in deck.history if isinstance(a, (Play, Pass)))
    before = [deck.initial, *(step.state for step in deck.steps)]
    for state, action in zip(before, deck.history, strict=False):
        if isinstance(action, (Play, Pass)):  # the bots remember how the other seat plays
            players[action.seat].recall(state, action)
    if table.saved is None:
        print(
            f"Math Attack! in the touchscreen app, offscreen ({size[0]}x{size[1]}): "
            f"{names[0]} v {names[1]}, seed {seed}",
            file=out,
        )
        print(
            "Cards: a virtual deck; every play reaches the app as a camera reading of its "
            "number line.",
            file=out,
        )
    else:
        print(f"Carrying on from the journal in {data}: after turn {turn}.", file=out)
        # The table is as the deck says: a play the app had not seen yet is read again.
        for line in (0, 1):
            if scene.state.lines[line] != deck.state.lines[line]:
                app.post(zone_reading(line, deck.state.lines[line], ctx.clock()))
                app.step()
        last = deck.history[-1] if deck.history else None
        if isinstance(last, Pass) and scene.state.turn == last.seat and not scene.over:
            auto.tap("pass")
    app.screenshot(folder / f"turn_{turn:02d}.png")
    misread_turn = 3
    while True:
        while deck.pending.chance is not None:
            deck.deal(dealer)
        if deck.state.phase == "over":
            break
        turn += 1
        state = deck.state
        seat = state.turn
        # each choice keyed by the seed and the actions so far: a resumed demo plays on
        # exactly as an uninterrupted one
        players[seat].rng = random.Random(f"{seed}:{seat}:{len(deck.history)}")
        action = players[seat].choose(state, seat)
        deck.apply(action)
        how = ""
        if isinstance(action, Play):
            cards = deck.state.lines[action.line]
            reading = list(cards)
            if turn == misread_turn:
                reading[-1] = "?"
            app.post(zone_reading(action.line, reading, ctx.clock()))
            app.step()
            if turn == misread_turn:
                app.screenshot(folder / f"turn_{turn:02d}_misread.png")
                auto.tap(f"seen.{action.line}")
                auto.tap(f"choice.{action.card}")
                how = " (the camera could not read it: corrected by touch)"
            total = running_totals(cards)[-1]
            text = (
                f"Turn {turn}: {names[seat]} plays {label(action.card)} on "
                f"{names[action.line]}'s line{how}: {names[action.line]} now {total}."
            )
        else:
            auto.tap("pass")
            text = f"Turn {turn}: {names[seat]} cannot play and passes."
        while deck.pending.chance is not None:
            deck.deal(dealer)
        over = deck.state.phase == "over"
        if not over and (
            scene.state.lines != deck.state.lines or scene.state.turn != deck.state.turn
        ):
            raise RuntimeError(f"turn {turn}: the app and the virtual deck disagree")
        if deck.state.end_by is not None and not over:
            ender = deck.state.end_by
            text += f" {names[ender]} played =: last turn for {names[1 - ender]}."
        print(text, file=out)
        if not over and (turn % 5 == 0 or (isinstance(action, Play) and action.card == END)):
            app.screenshot(folder / f"turn_{turn:02d}.png")
    results = app.stack.top
    if not isinstance(results, AttackResults):
        raise RuntimeError("the game did not reach the results screen")
    if results.game.state.lines != deck.state.lines:
        raise RuntimeError("the app's final number lines differ from the virtual deck's")
    app.screenshot(folder / "final.png")
    expected = GAME.result(deck.state)
    got = scene.match.result()
    if expected is None or got is None or expected.places != got.places:
        raise RuntimeError("the app's result differs from the engine's")
    t0, t1 = deck.state.totals
    reason = seated(got.reason, names)
    print(f"\nFinal totals: {names[0]} {t0}, {names[1]} {t1} ({reason}).", file=out)
    print(f"Screenshots are in {folder}", file=out)
    line = results.winner_line()
    table.finish(deck)
    ctx.journal.close()
    print(line, file=out)
    pygame.display.quit()
    return line


__all__ = [
    "BOT_SECONDS",
    "RULES",
    "SETUP",
    "AttackResults",
    "AttackScene",
    "Ghost",
    "child_message",
    "draw_card",
    "draw_number_line",
    "run_demo",
    "setup_scene",
    "zone_reading",
]
