"""Math Arena at one device: the operator card, the seat buttons, the reveal, the ruling.

The round, as the device runs it (ARENA-1..ARENA-5, rule book ``seeds/004_...``):

1. The operator card is turned over: read by the camera (``CardsSeen(seat=None,
   area="operator")``), tapped in on the empty card, or dealt by the device ("Deal one
   for us"; with virtual cards always). It is shown large with its goal ("Lowest SUM
   wins!").
2. Every seat puts two cards face down and presses its seat button (or taps its row;
   keys 1..8 on a desktop). Its LED lights (``ctx.lamps``). With virtual cards a
   child's press opens their hand on the screen to pick two cards; a bot picks when
   the operator is out and presses ``BOT_SECONDS`` later.
3. When every seat is ready the device counts down (``COUNTDOWN`` seconds, driven by
   ``update(now)`` and ``ctx.clock``) and says "Reveal!".
4. The camera reads each pair (``CardsSeen(seat=S, area="reveal", cards=(two))``, ``S``
   1-based as in ``tabletop.ui.input``); with virtual cards the pairs are known and a
   camera reading, when there is one, replaces them. Every card shown can be tapped to
   correct it from a grid of the cards it could be. Values appear as soon as a pair is
   read.
5. "Who wins?" hands the pairs to the engine. A refused pair (a card already played in
   this set, not in the hand, twice on the table) is named with the reason in plain
   words and nothing is scored; otherwise the ruling is shown with its reason, the pot
   after ties, and each seat's operator cards. A tie in the last round of a set asks
   the tied seats for their leftover card (ARENA-4).

6. Each child says their value (ARENA-1: "each player announces their resulting
   value"): tapping their row opens a number pad, and the device checks it against the
   pair ("5 + 2 = 7, right!"); the report counts these checks per seat. A bot's value
   shows at once; every value shows with the ruling.

Undo (the last scored round, or the last operator card entered) is behind the
teacher PIN. Errors are one short sentence on screen and a precise line in the log.

Never lose a game (issue 10, :mod:`tabletop.ui.saves`): all one input leads to reaches
the journal at once, before the screen shows it, and what the round holds beyond the
match (who is ready, the pairs read, the values said, the countdown and the bots' presses
in seconds of play) goes beside it. Home's "carry on" rebuilds the round
(:func:`resume_scene`), and undo's checkpoints from the match. The device's deal and
the bots' picks are keyed by the seed and the number of actions, so a resumed game
deals and picks what the uninterrupted one would.

Touch targets: ``seat.<i>``, ``card.<i>.<0|1>``, ``operator``, ``deal``, ``score``,
``next``, ``undo``, ``rules``, ``leave``, ``value.<i>`` (a seat's value); the hand
picker ``hand.<CARD>``, ``put``, ``cancel``; the setup is the one setup form
(:mod:`tabletop.ui.scenes.form`): ``seat.<i>`` (a child, a bot ``choice.bot.easy`` /
``choice.bot.hard``, all bots at one level, or nobody), ``cards.real``,
``cards.virtual``, ``rules``, ``back``, ``start``; the results ``home``, ``again``.
"""

from __future__ import annotations

import copy
import logging
import os
import random
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

import pygame

from tabletop.bots.math_arena import MathArenaBot
from tabletop.classroom.mistakes import OP_SKILLS, Question, question
from tabletop.engine.codec import digest
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.games.math_arena import (
    DEALS,
    NUMBER_CARDS,
    OPERATION_WORDS,
    RED_SUITS,
    Choose,
    DealCard,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    ShowLeftover,
    Tournament,
    explain,
    goal,
    is_operator,
    operator_name,
    parse_card,
    pip_value,
    play_value,
    tournament_points,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import start_card_camera, stop_card_camera
from tabletop.ui.input import Back, CardsSeen, InputEvent, SeatPressed, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, keyed_dealer, one_write, seat_infos, standings_result
from tabletop.ui.scenes.common import (
    Dialog,
    ask_leave,
    go_home,
    header,
    home_and_again,
    route_to_press,
)
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    REAL,
    VIRTUAL,
    Cards,
    FormScene,
    FormSpec,
    FormValues,
    Preset,
    Seats,
)
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import ChoiceGrid, RulesPage, RulesScene
from tabletop.ui.theme import ORANGE, VERMILLION, Metrics
from tabletop.ui.widgets import Button, Painter, hit

log = logging.getLogger(__name__)

GAME = MathArena()
COUNTDOWN = 3.0  # seconds from "everybody is ready" to "Reveal!"
BOT_SECONDS = 2.0  # a bot presses its button this long after the operator is out
BOT_STAGGER = 0.7  # ... plus this much per bot, so the LEDs light one by one
TOURNAMENT_TARGET = 10
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_INK = (200, 30, 45)
CARD_BACK = (0, 90, 150)
HOW = {
    "K": "King: add the two cards.",
    "Q": "Queen: divide the bigger by the smaller. The remainder counts.",
    "J": "Jack: the bigger card minus the smaller.",
}


def said_as(operator: str, cards: Sequence[str]) -> str:
    """The engine's ``5 - 2 = 3`` as the screen shows it, with a real minus sign."""
    return explain(operator, cards).replace(" - ", " \u2212 ")


def card_label(card: str) -> str:
    """``10♥``: what a card button says."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def goal_words(operator: str) -> str:
    """``Lowest SUM wins!``: the operator's goal, large."""
    return f"{goal(operator).capitalize()} {OPERATION_WORDS[operator[:-1]].upper()} wins!"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _names_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- drawing cards -------------------------------------------------------------------------


def draw_card(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    card: str | None,
    *,
    face: str = "up",
    bad: bool = False,
    big: bool = False,
) -> None:
    """A playing card: ``face`` up, down (its back) or empty (a ``?`` slot)."""
    m, p = painter.m, painter.p
    radius = max(4, rect.width // 8)
    if face == "down":
        painter.box(surface, rect, CARD_BACK, p.line, 2, radius)
        inner = rect.inflate(-rect.width // 4, -rect.height // 4)
        painter.box(surface, inner, None, (255, 255, 255), max(2, rect.width // 20), radius)
        return
    if face == "empty" or card is None:
        painter.box(surface, rect, p.quiet, p.muted, 2, radius)
        painter.text(
            surface, "?", rect.center, rect.height // 2, p.muted, bold=True, anchor="center"
        )
        return
    border = VERMILLION if bad else p.line
    painter.box(surface, rect, (255, 255, 255), border, m.u(4) if bad else 2, radius)
    ink = RED_INK if card[-1] in RED_SUITS else p.ink
    rank, suit = card[:-1], SUIT_SYMBOLS[card[-1]]
    if big:
        painter.text(
            surface,
            rank,
            (rect.centerx, rect.top + rect.height * 34 // 100),
            rect.height * 36 // 100,
            ink,
            bold=True,
            anchor="center",
        )
        painter.text(
            surface,
            suit,
            (rect.centerx, rect.top + rect.height * 66 // 100),
            rect.height * 30 // 100,
            ink,
            anchor="center",
        )
        word = {"K": "King", "Q": "Queen", "J": "Jack"}.get(rank, "")
        painter.text(
            surface,
            word,
            (rect.centerx, rect.bottom - m.u(6)),
            m.small,
            ink,
            bold=True,
            anchor="midbottom",
        )
        return
    size = rect.height * 40 // 100
    painter.text(
        surface,
        rank,
        (rect.centerx, rect.top + rect.height * 32 // 100),
        size,
        ink,
        bold=True,
        anchor="center",
        max_width=rect.width - 4,
    )
    painter.text(
        surface,
        suit,
        (rect.centerx, rect.top + rect.height * 72 // 100),
        rect.height * 34 // 100,
        ink,
        anchor="center",
    )


# -- picking two cards from a virtual hand -------------------------------------------------


class HandPicker(Dialog):
    """A seat's virtual hand: tap two cards, then "Put down"; pops with the pair or None."""

    def __init__(self, ctx: Context, title: str, hand: Sequence[str], goal_text: str) -> None:
        super().__init__(ctx, title, size=(760, 440))
        self.hand = tuple(hand)
        self.goal_text = goal_text
        self.picked: list[str] = []

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m = metrics
        body = self.body()
        foot = m.u(56)
        cols = 7
        gap = m.u(8)
        w = (body.width - gap * (cols - 1)) // cols
        top = body.top + m.text + m.u(8)
        rows = max(1, -(-len(self.hand) // cols))
        h = min(m.u(96), (body.bottom - foot - gap - top - gap * (rows - 1)) // rows)
        self.buttons = []
        for i, card in enumerate(self.hand):
            r, c = divmod(i, cols)
            rect = pygame.Rect(body.left + c * (w + gap), top + r * (h + gap), w, h)
            self.buttons.append(
                Button(
                    f"hand.{card}",
                    rect,
                    card_label(card),
                    kind="card",
                    selected=card in self.picked,
                )
            )
        fy = body.bottom - foot
        self.buttons.append(
            Button("cancel", pygame.Rect(body.left, fy, m.u(170), foot), "Cancel", kind="quiet")
        )
        self.buttons.append(
            Button(
                "put",
                pygame.Rect(body.right - m.u(230), fy, m.u(230), foot),
                "Put down",
                enabled=len(self.picked) == 2,
            )
        )

    def choose(self, name: str) -> None:
        if name == "cancel":
            self.stack.pop(None)
        elif name == "put" and len(self.picked) == 2:
            self.stack.pop((self.picked[0], self.picked[1]))
        elif name.startswith("hand."):
            card = name[5:]
            if card in self.picked:
                self.picked.remove(card)
            elif len(self.picked) < 2:
                self.picked.append(card)
            else:
                self.picked = [self.picked[1], card]
            self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m = self.ctx.painter, self.m
        painter.shade(surface)
        painter.box(surface, self.panel, painter.p.panel, painter.p.line, 3, m.u(12))
        painter.text(
            surface,
            self.title,
            (self.panel.centerx, self.panel.top + m.u(12)),
            m.text + 2,
            bold=True,
            anchor="midtop",
            max_width=self.panel.width - m.u(24),
        )
        body = self.body()
        painter.text(
            surface, self.goal_text, (body.centerx, body.top), m.text, bold=True, anchor="midtop"
        )
        for b in self.buttons:
            if b.kind == "card":
                draw_card(painter, surface, b.rect, b.name[5:])
                if b.selected:
                    pygame.draw.rect(
                        surface, painter.p.selected, b.rect.inflate(6, 6), m.u(5), m.u(8)
                    )
            else:
                painter.button(surface, b)


# -- the setup -----------------------------------------------------------------------------


# -- the game ------------------------------------------------------------------------------


@dataclass
class Checkpoint:
    """What undo goes back to: the match's length and the screen's state before."""

    history: int
    screen: dict[str, Any]


SCREEN_FIELDS = (
    "phase",
    "ready",
    "pairs",
    "picks",
    "bad",
    "verdict",
    "message",
    "message_bad",
    "winners",
    "round_label",
    "said",
)


class ArenaScene(Scene):
    """One game of Math Arena; see the module docstring for the round."""

    def __init__(
        self,
        ctx: Context,
        *,
        seats: Sequence[tuple[str, bool] | SeatInfo],
        cards: str = "table",
        level: str = "easy",
        seed: int = 0,
        tournament: Tournament | None = None,
        match: Match[MathArenaSettings, MathArenaState, Any] | None = None,
        save: GameSave | None = None,
    ) -> None:
        """``seats``: (name, is a bot) each, or the journal's ``SeatInfo`` of children who
        signed in (a bot's has its level). ``match`` and ``save``: a game replayed from
        the journal, to carry on with (:func:`resume_scene`)."""
        super().__init__(ctx)
        if cards not in ("table", "virtual"):
            raise ValueError(f"cards are 'table' or 'virtual', not {cards!r}")
        self.seats = [
            (s.name, s.bot is not None) if isinstance(s, SeatInfo) else (str(s[0]), bool(s[1]))
            for s in seats
        ]
        if len(self.seats) not in DEALS:
            raise ValueError(f"Math Arena is for 2 to 5 players, not {len(self.seats)}")
        self.cards = "virtual" if any(bot for _, bot in self.seats) else cards
        self.level = level
        self.seed = seed
        self.settings = MathArenaSettings(hidden_hands=self.cards == "table")
        self.resumed = match is not None
        self.match: Match[MathArenaSettings, MathArenaState, Any] = match or Match(
            GAME, self.settings, len(self.seats), seed=seed
        )
        self.dealer = keyed_dealer(seed, self.match)
        self.bots = {
            seat: MathArenaBot(level, seed + seat + 1)
            for seat, (_, is_bot) in enumerate(self.seats)
            if is_bot
        }
        self.tournament = tournament or Tournament(len(self.seats), target=TOURNAMENT_TARGET)
        self.checkpoints: list[Checkpoint] = []
        self.asking: tuple[Any, ...] | None = None
        self.asked_at: float | None = None  # when the number pad asked a value (issue 24)
        # when the cards went up (the question asked: an answer's seconds, issue 24)
        self.revealed_at: float | None = None
        n = len(self.seats)
        self.phase = "operator"  # operator | ready | countdown | reveal | leftover | result
        self.ready = [False] * n
        self.pairs: list[list[str | None]] = [[None, None] for _ in range(n)]
        self.picks: dict[int, tuple[str, str]] = {}
        self.bad: set[tuple[int, int]] = set()
        self.verdict = ""
        self.message = ""
        self.message_bad = False
        self.winners: list[int] = []
        self.bot_due: dict[int, float] = {}
        self.countdown_end: float | None = None
        self.last_events: tuple[Event, ...] = ()
        self.round_label = (1, 1)  # (set, round) of the round on screen
        self.said: dict[int, int] = {}  # the values children said this round
        t = self.tournament
        self.save = save or GameSave(
            ctx,
            GAME.name,
            [
                s if isinstance(s, SeatInfo) else info
                for s, info in zip(
                    seats,
                    seat_infos(
                        [name for name, _ in self.seats],
                        {i: level for i, (_, bot) in enumerate(self.seats) if bot},
                    ),
                    strict=True,
                )
            ],
            {
                "seats": [[name, bot] for name, bot in self.seats],
                "cards": self.cards,
                "level": level,
                "seed": seed,
                "tournament": {"target": t.target, "points": list(t.points), "games": t.games},
            },
        )
        self.saved_end = False  # the journal has the game as over (or left)

    # -- small helpers ---------------------------------------------------------------------

    @property
    def state(self) -> MathArenaState:
        return self.match.state

    @property
    def players(self) -> int:
        return len(self.seats)

    def name(self, seat: int) -> str:
        return self.seats[seat][0]

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat][1]

    def say(self, text: str) -> None:
        self.message = text
        self.message_bad = False

    def refuse(self, code: str, detail: str, seat: int | None = None) -> None:
        """A short sentence on screen, the exact reason in the log, never a crash."""
        self.ctx.sounds.play("wrong")
        words = child_message(code)
        self.message = f"{self.name(seat)}: {words}" if seat is not None else words
        self.message_bad = True
        log.info("math-arena: refused (%s) in phase %s: %s", code, self.phase, detail)

    def _names(self, text: str) -> str:
        """Engine sentences say "Seat 2"; the screen says the seat's name."""

        def sub(match: re.Match[str]) -> str:
            seat = int(match.group(1)) - 1
            return self.name(seat) if 0 <= seat < self.players else match.group(0)

        def many(match: re.Match[str]) -> str:
            seats = [int(x) - 1 for x in re.findall(r"\d+", match.group(1))]
            if not all(0 <= s < self.players for s in seats):
                return match.group(0)
            return _names_list([self.name(s) for s in seats])

        text = re.sub(r"[Ss]eats ((?:\d+(?:, | and ))+\d+)", many, text)
        return re.sub(r"[Ss]eat (\d)", sub, text)

    # -- lifecycle -------------------------------------------------------------------------

    def standings(self) -> Result:
        """The result, or before the end the standings: operator cards won per seat."""
        result = self.match.result()
        if result is not None:
            return result
        won = [len(cards) for cards in self.state.won]
        counts = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(won))
        return standings_result(won, f"stopped with operator cards: {counts}")

    def enter(self) -> None:
        self.ctx.lamps.light_only([])
        self.save.attach(self.match)
        with one_write(self.match):
            if self.resumed:
                self._carry_on()
            else:
                self._deal_hands()
                self.begin_round()
        self._save_record()
        self.camera = (
            start_card_camera(self.ctx, "math-arena", self.players)
            if self.cards == "table"
            else None
        )

    def exit(self) -> None:
        self.ctx.lamps.light_only([])
        stop_card_camera(getattr(self, "camera", None))

    def _deal_hands(self) -> None:
        """Virtual cards: the device deals every hand (ARENA-2)."""
        while True:
            chance = self.match.pending.chance
            if chance is None or chance.kind != "card":
                return
            self.match.deal(self.dealer)

    def begin_round(self) -> None:
        n = self.players
        self.phase = "operator"
        self.ready = [False] * n
        self.pairs = [[None, None] for _ in range(n)]
        self.picks = {}
        self.bad = set()
        self.said = {}
        self.winners = []
        self.bot_due = {}
        self.countdown_end = None
        self.ctx.lamps.light_only([])
        st = self.state
        self.round_label = (st.set_number, st.round)
        if self.cards == "virtual":
            self.match.deal(self.dealer)
            self._operator_out()
        else:
            self.say(
                f"Set {st.set_number}, round {st.round}: turn over the top operator card. "
                "No camera? Tap the empty card, or Deal one for us."
            )
        self.layout(self.m)

    # -- the operator card -----------------------------------------------------------------

    def set_operator(self, text: str, source: str) -> None:
        """The operator card from the camera, a tap, or the device's dealer."""
        if self.phase != "operator":
            op = self.state.operator
            if op is not None and parse_card(text) == op:
                return  # the camera still sees this round's operator card
            self.refuse("arena.ui.operator_out", f"{source} gave operator {text!r}, round has {op}")
            return
        card = parse_card(text)
        if card is None:
            self.refuse("arena.ui.not_ours", f"{source}: {text!r} is not a Math Arena card")
            return
        if not is_operator(card):
            self.refuse("arena.ui.number_operator", f"{source}: {card} is a number card")
            return
        if card not in self.state.operators_left:
            self.refuse("arena.ui.operator_used", f"{source}: {card} was already an operator card")
            return
        self._checkpoint()
        self.match.apply(RevealOperator(card))
        log.info("math-arena: operator %s from %s", card, source)
        self._operator_out()

    def deal_operator(self) -> None:
        chance = self.match.pending.chance
        if self.phase != "operator" or chance is None or chance.kind != "operator":
            self.refuse("arena.ui.operator_out", "deal pressed with no operator awaited")
            return
        action = self.dealer.deal(chance)
        self.set_operator(action.card, "the device's dealer")

    def _operator_out(self) -> None:
        st = self.state
        op = st.operator
        assert op is not None
        self.phase = "ready"
        self.ctx.sounds.play("seen")
        now = self.ctx.clock()
        for k, seat in enumerate(sorted(self.bots)):
            # the bot's luck keyed by the seed, its seat and the actions so far
            self.bots[seat].rng = random.Random(f"{self.seed}:{seat}:{len(self.match.history)}")
            choice = self.bots[seat].choose(st, seat)
            self.picks[seat] = (choice.cards[0], choice.cards[1])
            self.bot_due[seat] = now + BOT_SECONDS + BOT_STAGGER * k
        pot = f" The winner also takes the pot ({len(st.pot)})." if st.pot else ""
        self.say(
            f"{_cap(operator_name(op))}: the {goal(op)} {OPERATION_WORDS[op[:-1]]} wins."
            f"{pot} Put two cards face down, then press your button or tap I'm ready!"
        )
        self.layout(self.m)

    # -- ready and the countdown -----------------------------------------------------------

    def seat_pressed(self, seat: int, at: float) -> None:
        if not 0 <= seat < self.players:
            self.refuse("arena.ui.no_such_seat", f"seat {seat + 1} pressed; {self.players} play")
            return
        wrong = {
            "operator": "arena.ui.wait_operator",
            "countdown": "arena.ui.countdown",
            "reveal": "arena.ui.cards_up",
            "leftover": "arena.ui.cards_up",
            "result": "arena.ui.round_over",
        }.get(self.phase)
        if wrong is not None:
            self.refuse(wrong, f"seat {seat + 1} pressed at {at:.3f}", seat)
            return
        if self.ready[seat]:
            self.refuse("arena.ui.already_ready", f"seat {seat + 1} pressed again", seat)
            return
        if self.is_bot(seat):
            self.refuse("arena.ui.already_ready", f"seat {seat + 1} is a bot's", seat)
            return
        if self.cards == "virtual":
            op = self.state.operator
            assert op is not None
            self.asking = ("pick", seat)
            self.stack.push(
                HandPicker(
                    self.ctx,
                    f"{self.name(seat)}: pick two cards (others look away!)",
                    self.state.hands[seat],
                    f"{_cap(operator_name(op))}: {goal_words(op)}",
                )
            )
            return
        self._ready(seat)

    def _ready(self, seat: int) -> None:
        self.ready[seat] = True
        self.ctx.sounds.play("tap")
        self.ctx.lamps.light_only([s for s in range(self.players) if self.ready[s]])
        log.info("math-arena: seat %d ready", seat + 1)
        if all(self.ready):
            self.phase = "countdown"
            self.countdown_end = self.ctx.clock() + COUNTDOWN
            self.say("Everybody is ready! Get ready to turn your cards over...")
        else:
            waiting = [self.name(s) for s in range(self.players) if not self.ready[s]]
            self.say(f"{self.name(seat)} is ready. Waiting for {_names_list(waiting)}.")
        self.layout(self.m)

    def countdown_left(self, now: float) -> int:
        if self.countdown_end is None:
            return 0
        return max(0, int(-(-(self.countdown_end - now) // 1)))

    def update(self, now: float) -> bool:
        changed = self._update(now)
        # while a bot's press or the countdown is to come, the seconds played reach the
        # journal once a second, so their moments resume within a second
        timed = bool(self.bot_due) or self.countdown_end is not None
        played = float(self.save.app.get("played") or 0.0)
        if changed or (timed and self.save.elapsed() - played >= 1.0):
            self._save_record(timed)
        return changed

    def _update(self, now: float) -> bool:
        changed = False
        if self.phase == "ready":
            for seat in sorted(
                (s for s, t in self.bot_due.items() if t <= now), key=self.bot_due.get
            ):
                del self.bot_due[seat]
                if not self.ready[seat]:
                    self._ready(seat)
                    changed = True
        if self.phase == "countdown" and self.countdown_end is not None:
            if now >= self.countdown_end:
                self.reveal()
                return True
            shown = self.countdown_left(now)
            if shown != getattr(self, "_shown_count", None):
                self._shown_count = shown
                changed = True
        return changed

    def reveal(self) -> None:
        """ARENA-3: every seat is ready; the cards go up and the camera reads them."""
        self.phase = "reveal"
        self.revealed_at = self.ctx.clock()
        self.countdown_end = None
        self.ctx.lamps.light_only([])
        self.ctx.sounds.play("round")
        if self.cards == "virtual":
            for seat, pair in self.picks.items():
                self.pairs[seat] = [pair[0], pair[1]]
        self.say("Reveal! Turn your two cards face up.")
        self.layout(self.m)

    # -- the camera ------------------------------------------------------------------------

    def seen(self, event: CardsSeen) -> None:
        if event.area == "operator":
            if not event.cards:
                return
            if len(event.cards) != 1 and self.phase == "operator":
                self.refuse("arena.ui.operator_out", f"operator zone shows {event.codes}")
                return
            self.set_operator(event.cards[0].code, "the camera")
            return
        if event.area != "reveal":
            log.info("math-arena: ignored cards in area %r: %s", event.area, event.codes)
            return
        seat = (event.seat or 0) - 1
        if not 0 <= seat < self.players:
            log.info("math-arena: cards outside every seat: %s", event.codes)
            return
        if not event.cards:
            return  # the cards were picked up
        codes = [parse_card(code) for code in event.codes]
        if any(c is None for c in codes):
            self.refuse("arena.ui.not_ours", f"seat {seat + 1} zone: {event.codes}", seat)
            return
        cards = [c for c in codes if c is not None]
        court = [c for c in cards if is_operator(c)]
        if self.phase in ("ready", "countdown", "operator"):
            self.refuse(
                "arena.ui.face_down", f"seat {seat + 1} shows {cards} before the reveal", seat
            )
            return
        if self.phase == "leftover":
            if seat not in self.state.tied:
                self.refuse("arena.ui.not_tied", f"seat {seat + 1} shows {cards}", seat)
                return
            if len(cards) != 1:
                self.refuse("arena.ui.leftover_count", f"seat {seat + 1} shows {cards}", seat)
                return
        elif self.phase == "reveal":
            if len(cards) != 2:
                self.refuse(
                    "arena.ui.pair_count", f"seat {seat + 1} shows {len(cards)}: {cards}", seat
                )
                return
        else:
            log.info(
                "math-arena: ignored seat %d cards %s in phase %s", seat + 1, cards, self.phase
            )
            return
        if court:
            self.refuse("arena.court_as_number", f"seat {seat + 1} shows {court}", seat)
            return
        if self.pairs[seat] != [cards[0], cards[1] if len(cards) > 1 else None]:
            self.said.pop(seat, None)
        self.pairs[seat] = [cards[0], cards[1] if len(cards) > 1 else None]
        self.bad = {b for b in self.bad if b[0] != seat}
        self.ctx.sounds.play("seen")
        log.info("math-arena: camera read seat %d: %s", seat + 1, cards)
        self.layout(self.m)

    # -- touch corrections -----------------------------------------------------------------

    def candidates(self, seat: int) -> list[str]:
        """The cards a seat's card could be, as the engine says: its hand, or in camera
        play any number card not seen yet in this set."""
        return GAME.possible_cards(self.state, seat)

    def correct(self, seat: int, slot: int) -> None:
        if self.phase not in ("reveal", "leftover"):
            self.refuse(
                "arena.ui.press_first"
                if self.phase in ("ready", "countdown")
                else "arena.ui.round_over",
                f"card {seat + 1}.{slot} tapped in phase {self.phase}",
            )
            return
        if self.phase == "leftover" and (seat not in self.state.tied or slot != 0):
            self.refuse("arena.ui.not_tied", f"card {seat + 1}.{slot} tapped", seat)
            return
        choices = [(c, card_label(c)) for c in self.candidates(seat)]
        if not choices:
            self.refuse("arena.no_cards", f"seat {seat + 1} has no possible cards", seat)
            return
        which = "leftover card" if self.phase == "leftover" else f"card {slot + 1}"
        self.asking = ("card", seat, slot)
        self.stack.push(
            ChoiceGrid(
                self.ctx,
                f"{self.name(seat)}, {which}: which card is it?",
                choices,
                columns=8,
                rows=5,
            )
        )

    # -- the values children say (ARENA-1) -------------------------------------------------

    def _can_say(self, seat: int) -> bool:
        pair = self.pairs[seat]
        return (
            self.phase == "reveal"
            and not self.is_bot(seat)
            and None not in pair
            and seat not in self.said
            and self.state.operator is not None
        )

    def ask_value(self, seat: int) -> None:
        """The child taps their row: the number pad for the value they announce."""
        if not 0 <= seat < self.players:
            return
        if not self._can_say(seat):
            code = (
                "arena.ui.value_bot"
                if self.is_bot(seat)
                else "arena.ui.value_when"
                if self.phase != "reveal"
                else "arena.ui.missing_pair"
                if None in self.pairs[seat]
                else "arena.ui.value_said"
            )
            self.refuse(code, f"value of seat {seat + 1} in phase {self.phase}", seat)
            return
        op = self.state.operator
        assert op is not None
        a, b = sorted((pip_value(c) for c in self.pairs[seat] if c), reverse=True)
        self.asking = ("value", seat)
        self.asked_at = self.ctx.clock()  # for the seconds the answer took (issue 24)
        self.stack.push(
            NumPad(
                self.ctx,
                f"{self.name(seat)}: your value",
                negative=False,
                max_digits=2,
                hint=f"{_cap(operator_name(op))}: {a} and {b}",
            )
        )

    def value_said(self, seat: int, value: int) -> None:
        """The device checks the value a child said against their pair; the check is
        counted for the teacher's report (written with the round, at once)."""
        if not self._can_say(seat):
            return
        op = self.state.operator
        pair = self.pairs[seat]
        assert op is not None and pair[0] is not None and pair[1] is not None
        right = play_value(op, (pair[0], pair[1]))
        ok = value == right
        self.said[seat] = value
        self.save.app["table"] = self.record()
        self.save.checked(seat, ok)
        self.save.answered(
            seat,
            value_question(op, (pair[0], pair[1])),
            value,
            seconds=self.seconds_since_asked(),
        )
        log.info("math-arena: seat %d says %d, the pair makes %d", seat + 1, value, right)
        self.ctx.sounds.play("good" if ok else "wrong")
        how = said_as(op, (pair[0], pair[1]))
        if ok:
            self.say(f"{self.name(seat)}: {how}. Right!")
        else:
            self.say(f"{self.name(seat)}: {how}, not {value}.")
            self.message_bad = True
        self.layout(self.m)

    def seconds_since_asked(self) -> float | None:
        """Seconds of play since this round's cards went up (a game carried on counts
        what was played before it stopped), else since the number pad asked."""
        start = self.revealed_at if self.revealed_at is not None else self.asked_at
        return None if start is None else round(max(0.0, self.ctx.clock() - start), 3)

    def operator_by_touch(self) -> None:
        if self.phase != "operator":
            self.refuse("arena.ui.operator_out", "operator card tapped")
            return
        choices = [(c, card_label(c)) for c in self.state.operators_left]
        self.asking = ("operator",)
        self.stack.push(
            ChoiceGrid(self.ctx, "Which operator card is it?", choices, columns=6, rows=2)
        )

    # -- scoring ---------------------------------------------------------------------------

    def score(self) -> None:
        """Hand the revealed pairs (or leftover cards) to the engine; show the ruling."""
        if self.phase in ("ready", "countdown", "operator"):
            self.refuse("arena.ui.press_first", f"score tapped in phase {self.phase}")
            return
        if self.phase == "result":
            self.refuse("arena.ui.round_over", "score tapped twice")
            return
        st = self.state
        if self.phase == "leftover":
            seats = [s for s in st.tied if not st.shown[s]]
            actions: list[Any] = []
            for s in seats:
                card = self.pairs[s][0]
                if card is None:
                    self.refuse(
                        "arena.ui.missing_pair", f"seat {s + 1} has no leftover card yet", s
                    )
                    return
                actions.append(ShowLeftover(s, card))
        else:
            actions = []
            for s in range(self.players):
                a, b = self.pairs[s]
                if a is None or b is None:
                    self.refuse("arena.ui.missing_pair", f"seat {s + 1} pair is {self.pairs[s]}", s)
                    return
                actions.append(Choose(s, (a, b)))
        trial = st
        for action in actions:
            try:
                trial, _ = GAME.apply(trial, action)
            except TabletopError as e:
                self.bad = self._bad_slots(action, e.code)
                self.refuse(e.code, f"{action!r}: {e.message}", action.seat)
                self.message += " Tap the marked card to fix it."
                self.layout(self.m)
                return
        self._checkpoint()
        events: list[Event] = []
        for action in actions:
            events.extend(self.match.apply(action))
        if self.match.state.phase == "deal":
            self._deal_hands()
        self.bad = set()
        self.last_events = tuple(events)
        self._ruling(tuple(events))
        self.layout(self.m)

    def _bad_slots(self, action: Any, code: str) -> set[tuple[int, int]]:
        seat = action.seat
        if isinstance(action, ShowLeftover):
            return {(seat, 0)}
        if code == "arena.same_card":
            return {(seat, 0), (seat, 1)}
        bad = set()
        for i, card in enumerate(action.cards):
            try:
                GAME.check_number_card(self.state, seat, card)
            except TabletopError:
                bad.add((seat, i))
        if code == "arena.card_taken":
            for other in range(seat):
                for i, card in enumerate(self.pairs[other]):
                    if card in action.cards:
                        bad.update({(other, i), (seat, action.cards.index(card))})
        return bad or {(seat, 0), (seat, 1)}

    def _ruling(self, events: tuple[Event, ...]) -> None:
        """The device's ruling, each with its reason, in plain words."""
        st = self.state
        parts: list[str] = []
        won = next((e for e in events if e.code == "arena.round_won"), None)
        for e in events:
            if e.code == "arena.reveal":
                parts.append(self._verdict_for(e.data, won))
            elif e.code == "arena.round_won":
                self.winners = [e.seat] if e.seat is not None else []
                if "leftover" in e.text:
                    parts.append(self._names(e.text))
            elif e.code in (
                "arena.leftovers",
                "arena.pot_removed",
                "arena.set_over",
                "arena.game_over",
            ):
                parts.append(self._names(e.text))
        if st.phase == "leftover":
            self.phase = "leftover"
            tied = [self.name(s) for s in st.tied]
            self.pairs = [[None, None] for _ in range(self.players)]
            self.ctx.lamps.light_only(list(st.tied))
            parts.append(f"{_names_list(tied)}: show your leftover card face up.")
        else:
            self.phase = "result"
            self.ctx.lamps.light_only([])
        self.ctx.sounds.play("star" if self.winners else "round")
        self.verdict = " ".join(parts)
        self.say(self.verdict)

    def _verdict_for(self, reveal: Mapping[str, Any], won: Event | None) -> str:
        """``Red King: the lowest sum wins. Ana has 3, the lowest, and takes the card.``,
        from the engine's ruling (its reveal and round-won events)."""
        op, best, top = reveal["operator"], reveal["best"], list(reveal["winners"])
        aim = reveal["goal"]
        head = f"{_cap(operator_name(op))}: the {aim} {OPERATION_WORDS[op[:-1]]} wins."
        if len(top) == 1:
            self.winners = top
            taken = len(won.data["cards"]) if won is not None else 1
            cards = "the card" if taken <= 1 else f"{taken} cards (the pot too)"
            return f"{head} {self.name(top[0])} has {best}, the {aim}, and takes {cards}!"
        self.winners = []
        names = _names_list([self.name(s) for s in top])
        if reveal["tie"] == "leftovers":
            return f"{head} {names} tie with {best}: their leftover cards decide."
        return (
            f"{head} {names} tie with {best}, so nobody takes it: the "
            f"{operator_name(op)} goes into the pot for the next round's winner."
        )

    def _round_operator(self) -> str:
        """The operator of the round just scored (the state has moved on)."""
        for step in reversed(self.match.steps):
            action = step.action
            if isinstance(action, RevealOperator):
                return action.card
        raise RuntimeError("no operator card was revealed")

    def next_round(self) -> None:
        if self.phase != "result":
            self.refuse("arena.ui.press_first", f"next tapped in phase {self.phase}")
            return
        if GAME.is_over(self.state):
            self.stack.replace(ArenaResults(self.ctx, scene=self))
            return
        self.verdict = ""
        self.begin_round()

    # -- undo ------------------------------------------------------------------------------

    def _checkpoint(self) -> None:
        screen = {f: copy.deepcopy(getattr(self, f)) for f in SCREEN_FIELDS}
        self.checkpoints.append(Checkpoint(len(self.match.history), screen))

    def undo(self) -> None:
        """Take back the last operator card entered or the last scored round (PIN first)."""
        if not self.checkpoints:
            self.refuse("engine.nothing_to_undo", "no checkpoint")
            return
        point = self.checkpoints.pop()
        taken = []
        while len(self.match.history) > point.history:
            taken.append(self.match.undo())
        for f, value in point.screen.items():
            setattr(self, f, value)
        self.countdown_end = None
        self.bot_due = {}
        if self.phase == "ready":  # bots that were not ready yet press again
            now = self.ctx.clock()
            for k, seat in enumerate(s for s in sorted(self.bots) if not self.ready[s]):
                self.bot_due[seat] = now + BOT_SECONDS + BOT_STAGGER * k
        self.ctx.lamps.light_only(
            [s for s in range(self.players) if self.ready[s]] if self.phase == "ready" else []
        )
        log.info("math-arena: undo took back %s", list(reversed(taken)))
        self.ctx.sounds.play("tap")
        self.say(
            "Taken back. "
            + (
                "Check the cards and tap Who wins?"
                if self.phase in ("reveal", "leftover")
                else "Turn over the operator card again."
            )
        )
        self.layout(self.m)

    # -- never lose a game (issue 10) -------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The round beyond the match: its step on screen, who is ready, the pairs read,
        the picks, the values said, and the countdown's, the bots' and the reveal's
        moments in seconds of play. ``n`` and ``state`` (its digest): the match it belongs to."""
        # seconds of play minus the app's clock: the same all through one process
        offset = self.save.elapsed() - self.ctx.clock()
        end = self.countdown_end
        return {
            "n": len(self.match.history),
            "state": digest(self.state),
            "phase": self.phase,
            "ready": list(self.ready),
            "picks": {str(s): list(pick) for s, pick in self.picks.items()},
            "pairs": [list(pair) for pair in self.pairs],
            "bad": sorted([list(b) for b in self.bad]),
            "said": {str(s): v for s, v in self.said.items()},
            "countdown": None if end is None else round(end + offset, 3),
            "bot_due": {str(s): round(t + offset, 3) for s, t in self.bot_due.items()},
            "revealed": None if self.revealed_at is None else round(self.revealed_at + offset, 3),
        }

    def _save_record(self, always: bool = False) -> None:
        """The round's record and the seconds played beside the journaled match (written
        when the record changed, or ``always``); the result once the game is over."""
        if self.saved_end:
            return
        save = self.save
        record = self.record()
        if always or record != save.app.get("table"):
            save.app["table"] = record
            save.app["played"] = save.elapsed()
            save.write_meta()
        if GAME.is_over(self.state):
            self.saved_end = True
            save.finish(self.match.result())

    def _carry_on(self) -> None:
        """The round on screen again around the match replayed from the journal: from
        the record when it belongs to this match, else from the match alone (the device
        stopped between the two writes: the last step the match shows)."""
        save, st = self.save, self.state
        save.played_before = max(save.played_before, float(save.app.get("played") or 0.0))
        self._deal_hands()
        st = self.state
        self.checkpoints = self._replayed_checkpoints()
        record = save.app.get("table")
        if not (
            isinstance(record, dict)
            and record.get("n") == len(self.match.history)
            and record.get("state") == digest(st)
        ):
            record = None
        batch = self._last_batch()
        if st.phase == "choose":
            self.begin_round_screen()
            self._operator_out()  # the bots pick again: the same picks (keyed)
        elif batch is not None and (
            st.phase == "leftover" or record is None or record.get("phase") != "operator"
        ):
            start, end = batch
            before = self.match.steps[start - 1].state if start else self.match.initial
            self.begin_round_screen()
            self.round_label = (before.set_number, before.round)
            if st.phase == "leftover":
                self.ready = [True] * self.players
            events = tuple(e for step in self.match.steps[start:end] for e in step.events)
            self.last_events = events
            self._ruling(events)
        else:
            self.begin_round()
        if record is not None:
            try:
                self._restore(record)
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                log.warning("math-arena: the saved round does not read (%s): dropped", exc)
        lit = [s for s in range(self.players) if self.ready[s]]
        if self.phase == "leftover":
            lit = list(st.tied)
        self.ctx.lamps.light_only(lit if self.phase in ("ready", "countdown", "leftover") else [])
        self.say(f"Welcome back! {self.message}".strip())
        self.layout(self.m)

    def begin_round_screen(self) -> None:
        """A fresh round's screen (nothing ready, no cards) without dealing."""
        n = self.players
        self.ready = [False] * n
        self.pairs = [[None, None] for _ in range(n)]
        self.picks, self.bad, self.said, self.winners = {}, set(), {}, []
        self.bot_due, self.countdown_end = {}, None
        self.revealed_at = None
        st = self.state
        self.round_label = (st.set_number, st.round)

    def _restore(self, record: dict[str, Any]) -> None:
        phase = str(record["phase"])
        if self.state.phase == "choose" and phase in ("ready", "countdown", "reveal"):
            self.phase = phase
            self.ready = [bool(r) for r in record["ready"]][: self.players]
            picks = {int(s): (str(v[0]), str(v[1])) for s, v in record["picks"].items()}
            self.picks = {**self.picks, **picks}
        if self.phase in ("reveal", "leftover"):
            self.pairs = [[p[0], p[1]] for p in record["pairs"]][: self.players]
            self.bad = {(int(b[0]), int(b[1])) for b in record["bad"]}
            self.said = {int(s): int(v) for s, v in record["said"].items()}
            revealed = record.get("revealed")  # seconds of play (a record from before: none)
            if isinstance(revealed, (int, float)):
                self.revealed_at = self.ctx.clock() + float(revealed) - self.save.elapsed()
        if self.phase in ("ready", "countdown"):  # the moments to come, in seconds of play
            now, played = self.ctx.clock(), self.save.elapsed()
            due = {int(s): float(t) for s, t in record["bot_due"].items()}
            self.bot_due = {s: now + t - played for s, t in due.items() if not self.ready[s]}
            end = record.get("countdown")
            if self.phase == "countdown":
                self.countdown_end = now + float(end) - played if end is not None else now
        waiting = [self.name(s) for s in range(self.players) if not self.ready[s]]
        if self.phase == "ready" and any(self.ready) and waiting:
            self.say(f"Waiting for {_names_list(waiting)} to press their button.")
        elif self.phase == "countdown":
            self.say("Everybody is ready! Get ready to turn your cards over...")
        elif self.phase == "reveal":
            self.say("Reveal! Turn your two cards face up.")

    def _last_batch(self) -> tuple[int, int] | None:
        """(start, end) of the scoring (pairs, or leftover cards) the match ends with,
        but for the deal after it; None if it ends otherwise."""
        steps = self.match.steps
        end = len(steps)
        while end > 0 and isinstance(steps[end - 1].action, DealCard):
            end -= 1
        if end == 0 or not isinstance(steps[end - 1].action, (Choose, ShowLeftover)):
            return None
        kind = type(steps[end - 1].action)
        start = end - 1
        while start > 0 and isinstance(steps[start - 1].action, kind):
            start -= 1
        return start, end

    def _replayed_checkpoints(self) -> list[Checkpoint]:
        """Undo's checkpoints for a match replayed from the journal: before every
        operator card entered and every scoring, as the screen was then."""
        out: list[Checkpoint] = []
        steps, n = self.match.steps, self.players
        for i, step in enumerate(steps):
            action = step.action
            before = steps[i - 1].state if i else self.match.initial
            previous = steps[i - 1].action if i else None
            screen: dict[str, Any] = {
                "phase": "operator",
                "ready": [False] * n,
                "pairs": [[None, None] for _ in range(n)],
                "picks": {},
                "bad": set(),
                "verdict": "",
                "message": "",
                "message_bad": False,
                "winners": [],
                "round_label": (before.set_number, before.round),
                "said": {},
            }
            if isinstance(action, RevealOperator) and self.cards == "table":
                out.append(Checkpoint(i, screen))
            elif isinstance(action, (Choose, ShowLeftover)) and type(previous) is not type(action):
                batch = []
                for later in steps[i:]:
                    if type(later.action) is not type(action):
                        break
                    batch.append(later.action)
                if isinstance(action, Choose):
                    for choice in batch:
                        screen["pairs"][choice.seat] = list(choice.cards)
                    if self.cards == "virtual":
                        screen["picks"] = {c.seat: tuple(c.cards) for c in batch}
                    screen.update(phase="reveal", ready=[True] * n)
                else:
                    for shown in batch:
                        screen["pairs"][shown.seat] = [shown.card, None]
                    screen.update(phase="leftover", ready=[True] * n)
                out.append(Checkpoint(i, screen))
        return out

    # -- input -----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        with one_write(self.match):
            self._handle(event)
        self._save_record()

    def _handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.press("leave")
        elif isinstance(event, SeatPressed):
            self.seat_pressed(event.seat, event.at)
        elif isinstance(event, CardsSeen):
            self.seen(event)
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is None:
                return
            if not button.enabled:
                self._explain(button.name)
                return
            if button.name.startswith(("seat.", "ready.")):
                self.seat_pressed(int(button.name.partition(".")[2]), event.at)
                return
            self.ctx.sounds.play("tap")
            self.press(button.name)

    def _explain(self, name: str) -> None:
        if name.startswith("value."):
            self.ask_value(int(name[6:]))
        elif name == "score":
            self.score()  # says what is missing, or which phase it is
        elif name == "next":
            self.refuse("arena.ui.press_first", "next tapped early")
        elif name.startswith("card."):
            _, seat, slot = name.split(".")
            self.correct(int(seat), int(slot))
        elif name == "undo":
            self.refuse("engine.nothing_to_undo", "undo tapped with no checkpoint")
        else:
            self.refuse("ui.not_ready", f"{name} is off")

    def press(self, name: str) -> None:
        if name == "leave":
            self.asking = ("leave",)
            self.stack.push(ask_leave(self.ctx))
        elif name == "rules":
            self.asking = ("rules",)
            self.stack.push(rules_scene(self.ctx))
        elif name == "undo":
            if not self.checkpoints:
                self.refuse("engine.nothing_to_undo", "undo with no checkpoint")
                return
            self.asking = ("undo",)
            self.stack.push(PinPad(self.ctx, "undo", prompt="Teacher PIN to undo"))
        elif name == "operator":
            self.operator_by_touch()
        elif name == "deal":
            self.deal_operator()
        elif name == "score":
            self.score()
        elif name == "next":
            self.next_round()
        elif name.startswith("card."):
            _, seat, slot = name.split(".")
            self.correct(int(seat), int(slot))
        elif name.startswith("value."):
            self.ask_value(int(name[6:]))

    def resume(self, result: Any) -> None:
        with one_write(self.match):
            self._resumed(result)
        self._save_record()

    def _resumed(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking is None:
            return
        kind = asking[0]
        if kind == "leave" and result == "yes":
            if not self.saved_end:
                self.save.finish(self.standings(), reason="abandoned")
                self.saved_end = True
            go_home(self.stack)
            return
        if kind == "undo" and result == "ok":
            self.undo()
        elif kind == "pick" and isinstance(result, tuple) and self.phase == "ready":
            seat = asking[1]
            self.picks[seat] = (result[0], result[1])
            self._ready(seat)
        elif kind == "value" and isinstance(result, int):
            self.value_said(asking[1], result)
        elif kind == "card" and isinstance(result, str):
            _, seat, slot = asking
            if self.pairs[seat][slot] != result:
                self.said.pop(seat, None)
            self.pairs[seat][slot] = result
            self.bad.discard((seat, slot))
            log.info("math-arena: seat %d card %d set by touch to %s", seat + 1, slot + 1, result)
        elif kind == "operator" and isinstance(result, str):
            self.set_operator(result, "a tap")
        self.layout(self.m)

    # -- layout ----------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(16)
        b: list[Button] = []
        bw, bh = m.u(104), m.u(48)
        for i, (name, label) in enumerate(
            (("leave", "Leave"), ("undo", "Undo"), ("rules", "Rules"))
        ):
            b.append(
                Button(
                    name,
                    pygame.Rect(W - margin - (i + 1) * bw - i * m.u(8), m.u(8), bw, bh),
                    label,
                    kind="quiet",
                    enabled=name != "undo" or bool(self.checkpoints),
                )
            )
        self.op_rect = pygame.Rect(margin + m.u(46), m.u(94), m.u(140), m.u(192))
        if self.phase == "operator" and self.cards == "table":
            b.append(Button("operator", self.op_rect.copy(), "", kind="card"))
        # seats
        top = m.u(66)
        left = margin + m.u(250)
        bottom = H - m.u(104)
        n = self.players
        gap = m.u(6)
        rh = min(m.u(78), (bottom - top - gap * (n - 1)) // n)
        self.rows: list[pygame.Rect] = []
        for seat in range(n):
            row = pygame.Rect(left, top + seat * (rh + gap), W - margin - left, rh)
            self.rows.append(row)
            b.append(
                Button(
                    f"seat.{seat}",
                    pygame.Rect(row.left, row.top, m.u(190), row.height),
                    self.name(seat),
                    kind="seat",
                )
            )
            ch = row.height - m.u(8)
            cw = ch * 3 // 4
            for slot in range(2):
                rect = pygame.Rect(
                    row.left + m.u(196) + slot * (cw + m.u(6)), row.top + m.u(4), cw, ch
                )
                b.append(Button(f"card.{seat}.{slot}", rect, "", kind="slot"))
        self.card_right = left + m.u(196) + 2 * ((rh - m.u(8)) * 3 // 4) + m.u(12)
        for seat, row in enumerate(self.rows):  # the row's words: tap to say your value
            rect = pygame.Rect(self.card_right, row.top, row.right - self.card_right, row.height)
            if self._wants_press(seat):  # the seat button's touch twin, at the seat's edge
                tile = rect.inflate(-m.u(8), -m.u(10))
                b.append(Button(f"ready.{seat}", tile, "", kind="ready"))
            else:
                b.append(
                    Button(f"value.{seat}", rect, "", kind="value", enabled=self._can_say(seat))
                )
        # the message and the main action
        self.message_rect = pygame.Rect(margin, H - m.u(96), W - 3 * margin - m.u(240), m.u(86))
        action = pygame.Rect(W - margin - m.u(240), H - m.u(12) - m.u(60), m.u(240), m.u(60))
        if self.phase == "operator" and self.cards == "table":
            b.append(Button("deal", action, "Deal one for us", kind="quiet"))
        elif self.phase == "result":
            over = GAME.is_over(self.state)
            b.append(Button("next", action, "See the results" if over else "Next round"))
        else:
            complete = self._complete()
            b.append(
                Button(
                    "score",
                    action,
                    "Who wins?",
                    enabled=self.phase in ("reveal", "leftover") and complete,
                )
            )
        self.buttons = b

    def _complete(self) -> bool:
        if self.phase == "leftover":
            st = self.state
            return all(self.pairs[s][0] is not None for s in st.tied if not st.shown[s])
        return all(a is not None and b is not None for a, b in self.pairs)

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        st = self.state
        painter.text(surface, "Math Arena", (m.u(16), m.u(12)), m.title, bold=True)
        deal = st.deal
        painter.text(
            surface,
            f"Set {self.round_label[0]} of {deal.sets} \u00b7 "
            f"Round {self.round_label[1]} of {deal.rounds}",
            (m.u(16), m.u(62)),
            m.small,
            p.muted,
            bold=True,
        )
        op = st.operator if self.phase != "result" else self._round_operator()
        if op is None and self.phase in ("leftover",):
            op = self._round_operator()
        if op is None:
            draw_card(painter, surface, self.op_rect, None, face="empty", big=True)
            painter.text(
                surface,
                "Operator card?",
                (self.op_rect.centerx, self.op_rect.bottom + m.u(8)),
                m.text,
                bold=True,
                anchor="midtop",
            )
        else:
            draw_card(painter, surface, self.op_rect, op, big=True)
            colour = RED_INK if op[-1] in RED_SUITS else p.ink
            painter.text(
                surface,
                goal_words(op),
                (self.op_rect.centerx, self.op_rect.bottom + m.u(6)),
                m.text + 2,
                colour,
                bold=True,
                anchor="midtop",
                max_width=m.u(236),
            )
            painter.paragraph(
                surface,
                HOW[op[:-1]],
                pygame.Rect(m.u(16), self.op_rect.bottom + m.u(36), m.u(230), m.small * 2 + m.u(6)),
                m.small,
                p.ink,
                align="center",
            )
        if st.pot:  # the pot: face-down operator cards beside the operator card
            for i in range(min(len(st.pot), 4)):
                back = pygame.Rect(m.u(14) + i * m.u(3), self.op_rect.top + i * m.u(5), 0, 0)
                back.size = (m.u(34), m.u(48))
                draw_card(painter, surface, back, None, face="down")
            painter.text(
                surface,
                "Pot",
                (m.u(33), self.op_rect.top + m.u(70)),
                m.small,
                ORANGE,
                bold=True,
                anchor="midtop",
            )
            painter.text(
                surface,
                str(len(st.pot)),
                (m.u(33), self.op_rect.top + m.u(70) + m.small),
                m.big,
                ORANGE,
                bold=True,
                anchor="midtop",
            )
        for b in self.buttons:
            if b.kind == "seat":
                self._draw_seat(surface, b)
            elif b.kind == "slot":
                self._draw_slot(surface, b)
            elif b.kind in ("card", "value", "ready"):
                continue
            else:
                painter.button(surface, b)
        kind_colour = p.bad if self.message_bad else p.ink
        painter.box(surface, self.message_rect, p.panel, p.line, 2, m.u(8))
        painter.paragraph(
            surface,
            self.message,
            self.message_rect.inflate(-m.u(16), -m.u(10)),
            m.text,
            kind_colour,
        )
        if self.phase == "countdown":
            self._draw_countdown(surface, self.ctx.clock())

    def _draw_seat(self, surface: pygame.Surface, b: Button) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        seat = int(b.name[5:])
        row = self.rows[seat]
        won = seat in self.winners and self.phase == "result"
        painter.box(
            surface, row, p.panel, p.selected if won else p.line, m.u(4) if won else 2, m.u(8)
        )
        chip = pygame.Rect(row.left + m.u(5), row.top + m.u(5), m.u(34), row.height - m.u(10))
        painter.seat_chip(surface, chip, seat)
        x = chip.right + m.u(8)
        painter.text(
            surface,
            self.name(seat),
            (x, row.top + m.u(6)),
            m.text,
            bold=True,
            max_width=m.u(118),
        )
        count = len(self.state.won[seat])
        painter.text(
            surface,
            f"{count} won",
            (x, row.bottom - m.u(6)),
            m.small,
            p.muted,
            anchor="bottomleft",
        )
        lit = self.ready[seat] and self.phase in ("ready", "countdown")
        lit = lit or (self.phase == "leftover" and seat in self.state.tied)
        centre = (row.left + m.u(176), row.centery)
        if lit:
            pygame.draw.circle(surface, p.selected, centre, m.u(9))
        pygame.draw.circle(surface, p.line, centre, m.u(9), 2)
        tile = self.target(f"ready.{seat}")
        if tile is not None:  # I'm ready! (lit once the seat pressed, like its LED)
            painter.ready_tile(surface, tile.rect, seat, bool(self.ready[seat]))
            return
        # the pair's value, or what the seat should do
        x = self.card_right
        width = row.right - x - m.u(8)
        text, colour, bold = self._row_text(seat)
        painter.text(
            surface,
            text,
            (x, row.centery),
            m.text,
            colour,
            bold=bold,
            anchor="midleft",
            max_width=width,
        )

    def _wants_press(self, seat: int) -> bool:
        """The seat is a child's who still has to press (the reveal waits for them)."""
        return self.phase in ("ready", "countdown") and not self.is_bot(seat)

    def _row_text(self, seat: int) -> tuple[str, tuple[int, int, int], bool]:
        p = self.ctx.painter.p
        pair = self.pairs[seat]
        if self.phase == "reveal" and pair[0] and pair[1] and not self.is_bot(seat):
            op = self.state.operator
            if op is not None and seat not in self.said:  # the child says it first
                a, b = sorted((pip_value(pair[0]), pip_value(pair[1])), reverse=True)
                return f"{a} and {b}: your value?", p.selected, True
            if op is not None:
                said, right = self.said[seat], play_value(op, (pair[0], pair[1]))
                text = said_as(op, (pair[0], pair[1]))
                if said == right:
                    return f"{text} \u2713", p.good, True
                return f"{text} (not {said})", p.bad, True
        if self.phase in ("reveal", "result") and pair[0] and pair[1]:
            op = self.state.operator if self.phase == "reveal" else self._round_operator()
            if op is not None:
                win = " wins!" if seat in self.winners and self.phase == "result" else ""
                return said_as(op, (pair[0], pair[1])) + win, p.good if win else p.ink, bool(win)
        if self.phase == "leftover" and seat in self.state.tied:
            card = pair[0]
            return (
                (f"leftover {pip_value(card)}" if card else "show your leftover card"),
                p.ink,
                True,
            )
        if self.phase in ("ready", "countdown"):  # a bot's row: a child's has its tile
            return ("ready", p.good, True) if self.ready[seat] else ("thinking...", p.muted, False)
        if self.phase == "reveal":
            return "turn your cards up", p.muted, False
        return "", p.muted, False

    def _draw_slot(self, surface: pygame.Surface, b: Button) -> None:
        painter = self.ctx.painter
        _, seat_text, slot_text = b.name.split(".")
        seat, slot = int(seat_text), int(slot_text)
        if self.phase == "operator":
            return
        if self.phase in ("ready", "countdown"):
            if self.ready[seat]:
                draw_card(painter, surface, b.rect, None, face="down")
            return
        if self.phase == "leftover":
            if seat in self.state.tied and slot == 0:
                card = self.pairs[seat][0]
                draw_card(
                    painter,
                    surface,
                    b.rect,
                    card,
                    face="up" if card else "empty",
                    bad=(seat, 0) in self.bad,
                )
            return
        card = self.pairs[seat][slot]
        draw_card(
            painter,
            surface,
            b.rect,
            card,
            face="up" if card else "empty",
            bad=(seat, slot) in self.bad,
        )

    def _draw_countdown(self, surface: pygame.Surface, now: float) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        left = self.countdown_left(now)
        area = pygame.Rect(0, 0, m.u(300), m.u(220))
        area.center = (self.rows[0].centerx, (self.rows[0].top + self.rows[-1].bottom) // 2)
        painter.box(surface, area, p.panel, p.selected, m.u(5), m.u(16))
        painter.text(
            surface, str(max(1, left)), area.center, m.u(130), p.ink, bold=True, anchor="center"
        )
        painter.text(
            surface,
            "Get ready...",
            (area.centerx, area.top + m.u(10)),
            m.text,
            p.muted,
            anchor="midtop",
        )


# -- the results and the tournament --------------------------------------------------------


class ArenaResults(Scene):
    """After the last round: operator cards per seat, places, tournament points (ARENA-5)."""

    def __init__(self, ctx: Context, *, scene: ArenaScene) -> None:
        super().__init__(ctx)
        self.game = scene
        result = GAME.result(scene.state)
        assert result is not None
        self.result = result
        self.before = scene.tournament
        self.tournament = (
            scene.tournament.record(result)
            if not scene.tournament.over
            else Tournament(scene.players, target=TOURNAMENT_TARGET).record(result)
        )
        self.gained = tournament_points(result.places)

    @property
    def winner_line(self) -> str:
        """``winner: NAMES`` (``run_demo``'s last line) or ``winner: draw``."""
        best = sorted(self.result.winners)
        if len(best) == self.game.players:
            return "winner: draw"
        return "winner: " + ", ".join(self.game.name(s) for s in best)

    def enter(self) -> None:
        self.ctx.sounds.play("star")
        self.ctx.lamps.light_only(sorted(self.result.winners))

    def exit(self) -> None:
        self.ctx.lamps.light_only([])

    def layout(self, metrics: Metrics) -> None:
        self.buttons = home_and_again(
            metrics, "New tournament" if self.tournament.over else "Next game", width=280
        )

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        from tabletop.ui.scenes.home import HomeScene

        if name == "home":
            self.stack.unwind_to(HomeScene)
        elif name == "again":
            g = self.game
            self.stack.replace(
                ArenaScene(
                    self.ctx,
                    seats=g.save.seats,
                    cards=g.cards,
                    level=g.level,
                    seed=self.ctx.rng.randrange(1 << 30),
                    tournament=None if self.tournament.over else self.tournament,
                )
            )

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        g = self.game
        best = sorted(self.result.winners)
        if len(best) == 1:
            title = f"{g.name(best[0])} wins!"
        else:
            title = f"{_names_list([g.name(s) for s in best])} share first place!"
        header(
            self,
            surface,
            title,
            "Most operator cards wins. Tournament: 1st place 2 points, 2nd place 1.",
        )
        y = m.u(96)
        cols = (m.u(16), m.u(70), m.u(270), m.u(470), m.u(620))
        for x, label in zip(cols[1:], ("Player", "Operator cards", "Place", "Points")):
            painter.text(surface, label, (x, y), m.small, p.muted, bold=True)
        y += m.small + m.u(8)
        step = min(m.u(52), (self.buttons[0].rect.top - y - m.u(40)) // g.players)
        for seat in range(g.players):
            chip = pygame.Rect(cols[0], y, m.u(40), step - m.u(8))
            painter.seat_chip(surface, chip, seat)
            mid = chip.centery
            painter.text(
                surface,
                g.name(seat),
                (cols[1], mid),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=m.u(190),
            )
            cards = g.state.won[seat]
            painter.text(
                surface, str(len(cards)), (cols[2], mid), m.big, bold=True, anchor="midleft"
            )
            small = " ".join(card_label(c) for c in cards[:4]) + (" ..." if len(cards) > 4 else "")
            painter.text(
                surface,
                small,
                (cols[2] + m.u(44), mid),
                m.small,
                p.muted,
                anchor="midleft",
                max_width=cols[3] - cols[2] - m.u(52),
            )
            place = self.result.places[seat]
            painter.text(
                surface,
                {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th"),
                (cols[3], mid),
                m.text,
                bold=True,
                anchor="midleft",
            )
            gained = self.gained[seat]
            painter.text(
                surface,
                f"+{gained} \u2192 {self.tournament.points[seat]}",
                (cols[4], mid),
                m.text,
                p.good if gained else p.ink,
                bold=True,
                anchor="midleft",
            )
            y += step
        t = self.tournament
        if t.over:
            names = _names_list([g.name(s) for s in t.winners])
            line = f"{names} reached {t.target} points and won the tournament!"
        else:
            line = f"Tournament: first to {t.target} points. Game {t.games} played."
        painter.text(
            surface,
            line,
            (m.u(16), y + m.u(8)),
            m.text,
            p.ink,
            bold=True,
            max_width=m.width - m.u(32),
        )
        painter.buttons(surface, self.buttons)


# -- the rules -----------------------------------------------------------------------------

RULES = (
    RulesPage(
        "The goal",
        "Win the most operator cards. The 12 Kings, Queens and Jacks are the operators. "
        "The Ace to 10 cards are numbers: an Ace is 1.",
        "With 3 players everyone gets 13 number cards. There are 12 rounds, one operator "
        "card each. Win 5 of them and you are likely the winner.",
    ),
    RulesPage(
        "King, Queen, Jack",
        "King: add your two cards. Queen: divide the bigger card by the smaller one; the "
        "remainder counts. Jack: the bigger card minus the smaller one.",
        "You play 5 and 2. King: 5 + 2 = 7. Queen: 2 into 5 leaves 1. Jack: 5 - 2 = 3.",
    ),
    RulesPage(
        "Red or black?",
        "A red operator (hearts, diamonds) wants the LOWEST value. A black operator "
        "(spades, clubs) wants the HIGHEST value. The colour of your number cards does "
        "not matter.",
        "A red King: the lowest sum wins, so Ace + 2 = 3 beats 4 + 6 = 10. A black Jack: "
        "the biggest difference wins, so 10 - Ace = 9 is great.",
    ),
    RulesPage(
        "A round",
        "The device shows the operator card. Pick two cards and put them face down. Press "
        "your seat button: your light goes on. When everybody is ready the device counts "
        "3, 2, 1 and says Reveal! Turn your cards up: the camera reads them.",
        "Red King. Ana plays 7 and Ace: 8. Ben plays 9 and 10: 19. Cleo plays 3 and 4: 7. "
        "The lowest sum wins: Cleo takes the red King.",
    ),
    RulesPage(
        "Ties and the pot",
        "If the best values tie, nobody takes the operator card. It goes into the pot, and "
        "the next round's winner takes the pot too. In the last round of a set, the tied "
        "players show their leftover card; the best one takes the pot. If that ties too, "
        "the pot leaves the game.",
        "Black Queen: Ana 2 into 7 leaves 1, Ben 3 into 10 leaves 1. A tie! The black Queen "
        "goes into the pot. Next round Cleo wins and takes 2 cards.",
    ),
    RulesPage(
        "Sets and winning",
        "2 or 3 players: 2 sets of 6 rounds, 13 cards each. 4 players: 9 cards, 3 sets of 4 "
        "rounds. 5 players: 8 cards, 3 sets of 4. After each set all number cards are "
        "shuffled and dealt again. The most operator cards wins.",
        "Tournament: first place scores 2 points, second place 1 point. Players who share "
        "a place all score it. Play until someone has 10 points.",
    ),
)


def rules_scene(ctx: Context) -> RulesScene:
    return RulesScene(ctx, "Math Arena: the rules", RULES)


def _start(ctx: Context, values: FormValues) -> Scene:
    cards = "virtual" if values.virtual else "table"
    seed = ctx.rng.randrange(1 << 30)
    return ArenaScene(ctx, seats=values.seats, cards=cards, level=values.level, seed=seed)


SETUP = FormSpec(
    game=GAME.name,
    title="Math Arena",
    subtitle="Win the Kings, Queens and Jacks with two number cards.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        5,
        (CHILD, CHILD, CHILD, EMPTY, EMPTY),
        levels=(("easy", "Easy"), ("hard", "Hard")),
        level="easy",
        shared_level=True,
    ),
    cards=Cards(),
    modes=(("cards", Preset(cards=REAL)), ("virtual", Preset(cards=VIRTUAL))),
    replace=True,
)


# -- the contract with Home and `tabletop demo` --------------------------------------------


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


def value_question(operator: str, cards: tuple[str, str]) -> Question:
    """The sum a value asks (issue 24), as :func:`explain` says it: the King adds, the
    Queen asks what is left when the smaller goes into the larger, the Jack takes away."""
    a, b = sorted((pip_value(c) for c in cards), reverse=True)
    op = {"K": "+", "Q": "/"}.get(operator[:-1], "-")
    return question(OP_SKILLS[op], [a, b], [op], right=Fraction(play_value(operator, cards)))


def resume_scene(
    ctx: Context, save: GameSave, match: Match[MathArenaSettings, MathArenaState, Any]
) -> Scene:
    """The game screen again around a match replayed from the journal (issue 10)."""
    app = save.app
    players = len(app.get("seats") or save.seats)
    t = app.get("tournament") or {}
    tournament = Tournament(
        players,
        target=int(t.get("target", TOURNAMENT_TARGET)),
        points=tuple(int(x) for x in t.get("points", ())) or (0,) * players,
        games=int(t.get("games", 0)),
    )
    seats: list[tuple[str, bool] | SeatInfo] = list(save.seats)
    if len(seats) != players:
        seats = [(str(name), bool(bot)) for name, bot in app["seats"]]
    return ArenaScene(
        ctx,
        seats=seats,
        cards=str(app.get("cards", "table")),
        level=str(app.get("level", "easy")),
        seed=int(app["seed"]),
        tournament=tournament,
        match=match,
        save=save,
    )


class _DemoClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    data: Path | None = None,
    child: bool = False,
) -> str:
    """Bots in every seat, the camera simulated from the virtual deal (``CardsSeen``), a
    misread card corrected by touch once per set; screenshots of every round.

    ``child``: seat 1 is a guest child (issue 24): it picks two cards from its hand on
    the screen and says its value on the number pad, from the seeded model of
    :mod:`tabletop.classroom.mistakes` (each kind of mistake at its stated rate).

    ``data``: journal the game there as the app does. Killed and started again with the
    same arguments, the demo carries on through Home's "carry on" offer and ends as an
    uninterrupted run does: the app's deal and its bots' picks are keyed by the seed and
    the number of actions, and the demo reads the table from where the round is (a pair
    the camera had not yet read is read again, a misread not yet corrected is corrected).
    """
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tabletop.ui.app import App
    from tabletop.ui.autoplay import Autoplayer
    from tabletop.ui.input import CardSeen
    from tabletop.ui.offscreen import offscreen
    from tabletop.ui.scenes.home import HomeScene

    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    folder = out_dir or Path(tempfile.mkdtemp(prefix="tabletop-arena-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    players = 2 + seed % 4
    clock = _DemoClock()
    ctx, window = offscreen(
        size,
        seed,
        data,
        clock=clock,
        session=f"demo {seed}",  # the journal's lesson: the seed
    )
    saved = _demo_left_over(ctx, players)
    app = App(ctx, window, flip=False)
    app.stack.push(HomeScene(ctx, offer_resume=saved))
    app.step()
    auto = Autoplayer(app)
    if saved:
        auto.tap("yes")  # Home: "A game of Math Arena was not finished. Carry on?"
    else:
        auto.tap("game.math-arena")
        setup = app.stack.top
        assert isinstance(setup, FormScene)
        # every seat a hard bot (seat 1 a child with --child), the others empty
        for seat in range(1 if child else 0, players):
            auto.tap(f"seat.{seat}")
            auto.tap("choice.bot.hard")
        while len(setup.filled) > players:
            auto.tap(f"seat.{len(setup.filled) - 1}")
            auto.tap("choice.empty")
        auto.tap("start")
    game = app.stack.top
    assert isinstance(game, ArenaScene)
    if saved:
        print(
            f"Carrying on from the journal in {data}: set {game.round_label[0]} round "
            f"{game.round_label[1]}, {game.phase}.",
            file=out,
        )
    else:
        print(
            f"Math Arena in the touchscreen app, offscreen ({size[0]}x{size[1]}): {players} "
            f"hard bots, virtual deal, seed {seed}; the camera is simulated from the deal.",
            file=out,
        )
        print(f"Screenshots: {folder}", file=out)
    misread_round = {s: rng.randrange(1, game.state.deal.rounds + 1) for s in (1, 2, 3)}
    misread = 1 if child else 0  # the seat whose card the camera misreads once a set
    shot = 0
    announced = {s for s in range(players) if game.ready[s]}  # "is ready" lines printed
    read = None  # the round whose pairs the camera read (again after a restart)
    for _ in range(100_000):
        if not isinstance(app.stack.top, ArenaScene):
            break
        st = game.state
        label = f"set {game.round_label[0]} round {game.round_label[1]}"
        if game.phase == "ready" and child and not game.ready[0]:
            _child_picks(auto, game, seed)
        elif game.phase == "ready":  # the bots press their buttons
            clock.now += BOT_STAGGER
            app.step()
            for seat in range(players):
                if game.ready[seat] and seat not in announced:
                    announced.add(seat)
                    print(f"  {game.name(seat)} is ready.", file=out)
        elif game.phase == "countdown":  # the countdown runs, "Reveal!"
            clock.now += 1.0
            app.step()
            if shot < 2:
                shot += 1
                app.screenshot(folder / f"countdown_{shot}.png")
            clock.now += COUNTDOWN
            app.step()
        elif game.phase == "reveal" and read != game.round_label:
            # the camera reads every pair (once per set, one card is misread)
            read = game.round_label
            for seat in range(players):
                pair = list(game.picks[seat])
                if st.round == misread_round.get(st.set_number) and seat == misread:
                    other = st.hands[1 - misread]
                    pair[1] = next(c for c in NUMBER_CARDS if c in st.played or c in other)
                cards = tuple(CardSeen(c, seat + 1, "reveal") for c in pair)
                app.post(CardsSeen(seat + 1, "reveal", cards, clock.now))
            app.step()
            print("  Reveal! The camera reads every pair.", file=out)
        elif game.phase == "reveal" and game.pairs[misread] != list(game.picks[misread]):
            truth, wrong = game.picks[misread][1], game.pairs[misread][1]
            auto.tap("score")
            print(
                f"{label}: the camera misread {game.name(misread)}'s {truth} as {wrong}: "
                f"{game.message}",
                file=out,
            )
            app.screenshot(folder / f"set{st.set_number}_misread.png")
            auto.tap(f"card.{misread}.1")
            auto.tap(f"choice.{truth}")
        elif game.phase == "reveal" and child and game._can_say(0):
            said = _child_says(auto, game, seed)
            print(f"  {game.name(0)} says {said}: {game.message}", file=out)
        elif game.phase == "reveal":
            auto.tap("score")
            if game.phase == "leftover":
                app.screenshot(folder / f"set{st.set_number}_leftover.png")
        elif game.phase == "leftover":
            for seat in st.tied:
                if game.pairs[seat][0] is None:
                    card = st.hands[seat][0]
                    seen = (CardSeen(card, seat + 1, "reveal"),)
                    app.post(CardsSeen(seat + 1, "reveal", seen, clock.now))
            app.step()
            auto.tap("score")
        elif game.phase == "result":
            print(f"{label}: {_demo_plays(game)}. {game.verdict}", file=out)
            app.screenshot(folder / f"set{game.round_label[0]}_round{game.round_label[1]:02d}.png")
            announced = set()
            auto.tap("next")
        else:
            raise RuntimeError(f"{label}: the demo does not know phase {game.phase}")
    else:
        raise RuntimeError("the demo game did not end")
    results = app.stack.top
    if not isinstance(results, ArenaResults):
        raise RuntimeError("the game did not reach the results screen")
    app.screenshot(folder / "results.png")
    counts = ", ".join(f"{game.name(s)} {len(game.state.won[s])}" for s in range(players))
    print(f"Operator cards: {counts}. {game._names(results.result.reason)}.", file=out)
    line = results.winner_line
    ctx.journal.close()
    print(line, file=out)
    pygame.display.quit()
    return line


def _child_picks(auto: Any, game: ArenaScene, seed: int) -> None:
    """The demo child presses its seat button and picks two cards from its hand."""
    rng = random.Random(f"{seed}:child-pick:{len(game.match.history)}:{game.round_label}")
    auto.tap("seat.0")
    for card in rng.sample(sorted(game.state.hands[0]), 2):
        auto.tap(f"hand.{card}")
    auto.tap("put")


def _child_says(auto: Any, game: ArenaScene, seed: int) -> int:
    """The demo child says its value on the number pad, from the seeded model (an
    answer the pad cannot take, below 0 or over 99, is said right)."""
    from tabletop.classroom.mistakes import Child

    op = game.state.operator
    a, b = game.pairs[0]
    assert op is not None and a is not None and b is not None
    q = value_question(op, (a, b))
    rng = random.Random(f"{seed}:child-says:{len(game.match.history)}:{game.round_label}")
    value = int(Child(rng).answer(q))
    if not 0 <= value <= 99:
        value = int(q.answer)
    auto.tap("value.0")
    for digit in str(value):
        auto.tap(f"num.{digit}")
    auto.tap("ok")
    return value


def _demo_plays(game: ArenaScene) -> str:
    """Each seat's pair of the round just scored, worked out (from the match)."""
    steps = game.match.steps
    i = len(steps)
    while i > 0 and not isinstance(steps[i - 1].action, Choose):
        i -= 1
    chosen: dict[int, tuple[str, str]] = {}
    while i > 0 and isinstance(steps[i - 1].action, Choose):
        action = steps[i - 1].action
        chosen[action.seat] = action.cards
        i -= 1
    op = game._round_operator()
    return "; ".join(f"{game.name(s)} {explain(op, chosen[s])}" for s in sorted(chosen))


def _demo_left_over(ctx: Context, players: int) -> bool:
    """Whether the journal holds this demo's unfinished game (its seed is the session)
    to carry on; any other unfinished game there is set aside as abandoned."""
    from tabletop.ui.saves import keep_one_unfinished

    def mine(saved: Any) -> bool:
        app = saved.meta.get("app") or {}
        return (
            saved.game == GAME.name
            and saved.session == ctx.session
            and len(app.get("seats") or ()) == players
        )

    return keep_one_unfinished(ctx.journal, mine) is not None


__all__ = [
    "SETUP",
    "ArenaResults",
    "ArenaScene",
    "HandPicker",
    "draw_card",
    "resume_scene",
    "rules_scene",
    "run_demo",
    "setup_scene",
]
