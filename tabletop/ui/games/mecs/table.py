"""The M.E.C.S. table: every seat's equation area read left to right, the coin race, the
challenge objective, turns, hacks, and "Complete!" with coins flying to the winner.

Cards reach the game three ways, all as "seat S's area now reads these cards":
- the camera: ``CardsSeen(seat, "equation", cards)`` (seat 1-based);
- touch: tap an area (``area.<seat>``) and edit it in :class:`AreaEditor`;
- a bot: its move, applied by the scene (or, in the demo, shown to the camera).
The engine works out whether that is a plant, a reorder or a hack, and refuses what the
rules forbid; the refusal is one short sentence on screen and the engine's exact
message in the log. A card read wrongly is fixed by editing the area: the reading is
replaced in the game's history and the later moves are played again.

Touch targets: ``area.<i>``, ``end``, ``trade``, ``refill.numbers``, ``refill.symbols``,
``reveal.<d>`` (camera play: the first-player reveal), ``objective`` (camera play:
the next objective card), ``hand.<i>`` (a card in hand: its page), ``rules``,
``cards``, ``undo`` (teacher PIN), ``leave``; on the results: ``home``, ``again``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pygame

from tabletop.bots.mecs import LEVELS, decide
from tabletop.classroom.mistakes import FRAC, Question, skill_of
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.games.mecs import (
    CHANCE_TYPES,
    STACKS,
    Action,
    Draw,
    EndTurn,
    Hack,
    Mecs,
    MecsSettings,
    MecsState,
    Observe,
    Plant,
    Refill,
    Reorder,
    ShowObjective,
    Trade,
    held_cards,
    meets_objective,
    objective,
)
from tabletop.games.mecs_equation import (
    DIGITS,
    PLAY_CARDS,
    card_coins,
    coin_breakdown,
    evaluate,
    render,
    value_of,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games import start_card_camera, stop_card_camera
from tabletop.ui.games.mecs.cards import LABEL, CardPageScene, draw_card, read_code
from tabletop.ui.input import Back, CardsSeen, InputEvent, SeatPressed, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, keyed_dealer, standings_result
from tabletop.ui.scenes.common import ask_leave, go_home, home_and_again, route_to_press
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

GAME = Mecs()
BOT_SECONDS = 1.2  # a bot waits this long before it moves, so children can follow
BANNER_SECONDS = 3.0
BOT_LEVEL = "hard"  # a bot seat given as (name, True): the bot as it was before MECS-12
# The engine's refusals of a hack whose equation the device checked and found wrong.
HACK_CHECKS = ("mecs.hack_invalid", "mecs.hack_objective")

# Error codes -> one sentence a 9-year-old understands ({who}: whose turn it is).


def coin_words(cards: Sequence[str]) -> str:
    """Why an equation is worth its coins (MECS-3), in words: ``4 numbers × 1 + ...``
    (the engine's :func:`coin_breakdown`)."""
    rows = coin_breakdown(cards)
    parts = [f"{n} {kind}{'s' if n > 1 else ''} × {each}" for kind, n, each in rows]
    return f"{' + '.join(parts)} = {card_coins(cards)} coins"


@dataclass
class Banner:
    """A big message over the table for a few seconds: "Complete!", "Hacked!"."""

    title: str
    text: str
    start: float
    until: float
    kind: str = "good"
    coins: int = 0
    source: int | None = None  # the area the coins fly from
    to_seat: int | None = None  # the seat they fly to


@dataclass
class Player:
    name: str
    bot: bool = False
    level: str = "hard"  # a bot's level (MECS-12)


def bot_level(journaled: str | None) -> str:
    """A bot's level as journaled: one of the levels, or the hard bot for a journal from
    before the levels ("standard") or one that names no level the device knows."""
    return journaled if journaled in LEVELS else "hard"


@dataclass
class TurnLog:
    """What happened, one entry per turn, for the demo's printout and the log."""

    lines: list[tuple[int, str]] = field(default_factory=list)


_SHAPE_CARDS = {"LP": "(", "RP": ")", "SQRT": "√", "SQ": "²"}
_OP_CARDS = {"+": "+", "-": "-", "X": "x", "DIV": "/", "FRAC": FRAC}


def equation_question(
    cards: Sequence[str], broken: str | None = None
) -> tuple[Question, Fraction] | None:
    """An equation of cards as a question and the child's answer (issue 24): the question
    is the first side with an operation, the answer
    the value of the other side (the first that differs, with three sides or more). Brackets and
    green cards keep their shape (:attr:`Question.shape`); the right answer is the
    engine's exact value (MECS-2). ``broken``: the objective a true equation misses
    (MECS-6). None where there is no question: no ``=``, no operation, a side with no
    value (a division by zero, a root that is no fraction) or cards that are no equation."""
    sides: list[list[str]] = [[]]
    for card in cards:
        if card == "EQ":
            sides.append([])
        else:
            sides[-1].append(card)
    if len(sides) < 2 or any(not side for side in sides):
        return None
    values = [value_of(side) for side in sides]
    if any(v is None for v in values):
        return None
    worked = [i for i, side in enumerate(sides) if any(c in _OP_CARDS for c in side)]
    if not worked:
        return None
    ask = worked[0]
    others = [i for i in range(len(sides)) if i != ask]
    said = next((i for i in others if values[i] != values[ask]), others[0])
    parsed = _shape_of(sides[ask])
    if parsed is None:
        return None
    numbers, ops, shape = parsed
    whole = all(n.denominator == 1 for n in numbers)
    plain = set(shape) <= {"n", "o"} and FRAC not in ops and whole
    signs = [op for op in ops if op != FRAC]  # a fraction bar makes a number
    mixed = bool(signs) and skill_of(signs) == "order"
    skill = "order" if "(" in shape or mixed else "equations"
    right, given = values[ask], values[said]
    assert right is not None and given is not None  # checked above
    try:
        q = Question(
            skill,
            tuple(numbers),
            tuple(ops),
            right,
            broken=broken,
            shape=() if plain else tuple(shape),
        )
    except ValueError:
        return None
    if q.value() != right:  # a shape the mistakes model reads otherwise: no question
        return None
    return q, given


def _shape_of(side: Sequence[str]) -> tuple[list[Fraction], list[str], list[str]] | None:
    """The numbers, operations and shape of one side's cards (digits and a decimal point
    make one number); None for a card no shape has."""
    numbers: list[Fraction] = []
    ops: list[str] = []
    shape: list[str] = []
    run = ""
    for card in (*side, ""):
        if card.isdigit() or card == "DOT":
            run += "." if card == "DOT" else card
            continue
        if run:
            try:
                numbers.append(Fraction(run))
            except ValueError:
                return None
            shape.append("n")
            run = ""
        if card in _OP_CARDS:
            ops.append(_OP_CARDS[card])
            shape.append("o")
        elif card in _SHAPE_CARDS:
            shape.append(_SHAPE_CARDS[card])
        elif card:
            return None
    return numbers, ops, shape


class MecsTable(Scene):
    """One game of M.E.C.S. at the device.

    ``seats``: (name, is a bot) per seat, or the journal's :class:`SeatInfo` (a child
    signed in, a bot with its level). The game is journaled in ``self.save`` before each
    change shows (issue 10); ``match`` and ``save`` carry on a journaled game."""

    def __init__(
        self,
        ctx: Context,
        *,
        seats: Sequence[tuple[str, bool] | SeatInfo],
        settings: MecsSettings,
        seed: int | None = None,
        bot_driver: str = "scene",
        match: Match[MecsSettings, MecsState, Action] | None = None,
        save: GameSave | None = None,
    ) -> None:
        super().__init__(ctx)
        infos = [
            s if isinstance(s, SeatInfo) else SeatInfo(i, s[0], bot=BOT_LEVEL if s[1] else None)
            for i, s in enumerate(seats)
        ]
        self.seats = [Player(s.name, s.bot is not None, bot_level(s.bot)) for s in infos]
        self.settings = settings
        self.seed = ctx.rng.randrange(10**9) if seed is None else seed
        self.resumed = match is not None
        self.match: Match[MecsSettings, MecsState, Action] = match or Match(
            GAME, settings, len(self.seats), seed=self.seed
        )
        self.dealer = keyed_dealer(self.seed, self.match)
        # the turn now and the match's length when it began (an answer's seconds)
        self._turn = (self.match.state.turn, len(self.match.history))
        self.save = save or GameSave(
            ctx,
            GAME.name,
            infos,
            {
                "seats": [[p.name, p.bot, p.level] for p in self.seats],
                "seed": self.seed,
                "bot_driver": bot_driver,
            },
        )
        self.bot_driver = bot_driver  # "scene": bots move by themselves; "external": the demo
        self.message = ("Everybody gets 3 number cards and 2 symbol cards.", "info")
        self.banner: Banner | None = None
        self.feed: list[str] = []
        self.turns = TurnLog()
        if self.resumed:  # what happened before, as it was told (the turn log, the feed)
            for step in self.match.steps:
                for event in step.events:
                    if event.code != "mecs.drew":
                        self.turns.lines.append((step.state.turn, self.words(event.text)))
            self.feed = [text for _, text in self.turns.lines[-3:]]
        self.readings: dict[int, tuple[str, ...]] = {}  # camera readings the game refused
        self.refill_seat: int | None = None
        self.asking: str | None = None
        self.trade_card: str | None = None
        self.trade_under: str | None = None
        self.bot_due: float | None = None
        self.camera: Any = None
        self.finished = False
        self.area_rects: dict[int, pygame.Rect] = {}
        self.coin_points: dict[int, tuple[int, int]] = {}
        self.hand_rects: list[tuple[pygame.Rect, str]] = []

    # -- naming ----------------------------------------------------------------------------

    @property
    def state(self) -> MecsState:
        return self.match.state

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def words(self, text: str) -> str:
        """An engine sentence with the seats' names instead of "Player N"."""
        return re.sub(
            r"Player (\d)",
            lambda mo: (
                self.name(int(mo.group(1)) - 1)
                if 0 < int(mo.group(1)) <= len(self.seats)
                else mo.group(0)
            ),
            text,
        )

    def is_scene_bot(self, seat: int) -> bool:
        return self.seats[seat].bot and self.bot_driver == "scene"

    def standings(self) -> Result:
        """The result, or before the end the standings: coins won so far (MECS-6)."""
        state = self.state
        coins = [state.coins(s) for s in range(len(self.seats))]
        words = ", ".join(f"{self.name(s)} {c}" for s, c in enumerate(coins))
        return GAME.result(state) or standings_result(coins, f"stopped with coins {words}")

    # -- lifecycle -------------------------------------------------------------------------

    def enter(self) -> None:
        self.save.attach(self.match)
        if self.settings.play == "camera":
            self.camera = start_card_camera(self.ctx, "mecs", len(self.seats))
        if self.resumed:
            self.message = (f"Welcome back! {self._whose()}", "info")
        self._settle()

    def _whose(self) -> str:
        """Whose move the game waits for, in a sentence."""
        state = self.state
        want = state.queue[0] if state.queue else None
        if state.phase == "over":
            return "The game is over."
        if want is not None and want.purpose == "reveal":
            return f"{self.name(want.seat)}, show one number card."
        if want is not None and want.purpose == "objective":
            return "Turn up the next objective card."
        seat = self.pending_seat()
        if state.phase == "refill" and seat is not None:
            return f"{self.name(seat)} fills up their hand."
        return f"It is {self.name(state.active)}'s turn."

    def exit(self) -> None:
        self.ctx.lamps.light_only([])
        stop_card_camera(self.camera)
        self.camera = None

    def resume(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking == "leave" and result == "yes":
            if not self.finished:
                self.save.finish(self.standings(), reason="abandoned")
            go_home(self.stack)
            return
        if asking == "undo" and result == "ok":
            self.undo()
        elif asking and asking.startswith("edit.") and isinstance(result, tuple):
            self.submit_area(int(asking[5:]), result)
        elif asking == "cards" and isinstance(result, str):
            self.open_page(result)
            return
        elif asking == "trade.card" and isinstance(result, str):
            self.trade_card = result
            self._ask_trade_stack()
            return
        elif asking == "trade.under" and isinstance(result, str):
            self.trade_under = result
            self._ask_trade_draw()
            return
        elif asking == "trade.draw" and isinstance(result, str):
            card = self.trade_card or "?"
            under = self.trade_under if card == "?" else None
            self.perform(Trade(self.state.active, card, result, under))  # type: ignore[arg-type]
        elif asking == "objective" and isinstance(result, str) and result.startswith("OBJ"):
            self.perform(ShowObjective(int(result[3:])))
        self.layout(self.m)

    # -- the game --------------------------------------------------------------------------

    def perform(self, action: Action) -> bool:
        """Apply one action; a refusal is told, never raised."""
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            self.refuse(exc)
            return False
        self.readings.pop(_area_seat(action), None)
        self._events(events)
        self._settle()
        return True

    def refuse(
        self, exc: TabletopError, *, checked: bool = True, cards: Sequence[str] = ()
    ) -> None:
        """Tell a refusal. A hack the engine refused because its equation is wrong (or
        misses the objective) is an equation the device checked: counted as not right,
        unless ``checked`` is False (the same camera reading seen again). A wrong
        equation's ``cards`` are journaled with its question (issue 24)."""
        code = getattr(exc, "code", "")
        log.info("mecs: refused %s: %s", code, exc)
        if checked and code in HACK_CHECKS and self.state.phase in ("plant", "planted"):
            self.save.checked(self.state.active, False)
            missed = self._missed() if code == "mecs.hack_objective" else None
            self._answered(self.state.active, cards, missed)
        self.ctx.sounds.play("wrong")
        text = child_message(code, {"who": self.name(self.state.active)})
        if code == "mecs.hack_invalid":  # the equation's mistake, e.g. "9 × 7 = 63, not 6"
            text = f"{text} {_sentence(str(exc).split('(MECS-5): ', 1)[-1])}"
        elif code == "mecs.hack_objective":  # e.g. "... is valid but 63 is not a prime number"
            text = f"{text} {_sentence(str(exc).split(': a hack must', 1)[0])}"
        self.message = (text, "error")

    def _settle(self) -> None:
        """Deal what the device deals, then see whose move it is."""
        guard = 0
        while self.state.phase != "over" and guard < 1000:
            guard += 1
            request = self.match.pending.chance
            if request is None:
                break
            if self.settings.play != "virtual" and len(request.outcomes) > 1:
                break  # camera play: a person shows the card (reveal, objective)
            events = self.match.apply(self.dealer.deal(request))
            self._events(events)
        if self.state.turn != self._turn[0]:
            self._turn = (self.state.turn, len(self.match.history))
        self._lamps()
        if self.state.phase == "over" and not self.finished:
            self.finished = True
            self.save.finish(GAME.result(self.state))
            self.ctx.sounds.play("round")
            self.stack.push(MecsResults(self.ctx, table=self))
            return
        self.layout(self.m)

    def _events(self, events: Sequence[Event]) -> None:
        now = self.ctx.clock()
        waiting = ""  # MECS-9: why an equation already down counted when the card came
        for event in events:
            text = self.words(event.text)
            if event.code in ("mecs.drew",):
                continue  # every refill would crowd out what matters
            self.turns.lines.append((self.state.turn, text))
            self.feed = [*self.feed[-2:], text]
            kind = "info"
            if event.code == "mecs.completed":
                data = event.data
                cards = list(data.get("cards", ()))
                if event.seat is not None:  # an equation checked and right (it scores)
                    self.save.checked(event.seat, True)
                    self._answered(event.seat, cards)
                winner = event.seat if event.seat is not None else 0
                owner = int(data.get("area_of", winner))
                hacked = owner != winner  # a hack is announced as one
                who = f"{self.name(winner)} hacked {self.name(owner)}: " if hacked else ""
                title = "Hacked!" if hacked else "Complete!"
                says = f"{who}{render(cards)}"
                if waiting:  # MECS-9: say why it counted now
                    title, says = "Objective met!", waiting.rstrip(".")
                self.banner = Banner(
                    title,
                    f"{says}  ·  {self.name(winner)} +{data.get('coins', 0)} "
                    f"coins ({coin_words(cards)})",
                    now,
                    now + BANNER_SECONDS,
                    coins=int(data.get("coins", 0)),
                    source=owner,
                    to_seat=winner,
                )
                self.ctx.sounds.play("star")
                kind = "good"
            elif event.code == "mecs.hacked":
                target = int(event.data.get("target", 0))
                self.banner = Banner(
                    "Hacked!", text, now, now + BANNER_SECONDS, "hack", source=target
                )
                self.ctx.sounds.play("good")
                kind = "good"
            elif event.code == "mecs.objective_waiting":
                waiting = text.replace(" (MECS-9)", "")
                kind = "good"
            elif event.code in ("mecs.objective", "mecs.objective_met"):
                kind = "good"
            elif event.code == "mecs.objective_missed":
                if event.seat is not None:  # a true equation, but not what the card asks
                    self.save.checked(event.seat, False)
                    area = self.state.players[event.seat].area
                    self._answered(event.seat, area, self._missed())
                kind = "error"
            self.message = (text, kind)
        if waiting and self.message[1] != "error":
            self.message = (f"Why? {waiting}", "good")  # what just happened, and why

    def _answered(self, seat: int, cards: Sequence[str], missed: str | None = None) -> None:
        """Journal an equation the device checked with its question (issue 24): the side
        worked out, the value the child set beside it, and the seconds since the turn
        began; ``missed``: the objective a true equation misses (MECS-6). Cards that make
        no question (:func:`equation_question`) are counted, not journaled."""
        found = equation_question(cards, missed)
        if found is not None:
            self.save.answered(
                seat,
                found[0],
                found[1],
                step=len(self.match.history),
                seconds=self.save.seconds_since(self._turn[1]),
            )

    def _missed(self) -> str:
        """The objective a true equation missed, in words (MECS-6)."""
        if self.state.objective is None:
            return "no objective card was shown yet"
        card = objective(self.state.objective)
        return f"the objective is {card.text}"

    def pending_seat(self) -> int | None:
        """The seat whose decision the game waits for (the refill seat if chosen)."""
        pending = self.match.pending
        if pending.chance is not None or not pending.seats:
            return None
        if self.refill_seat in pending.seats:
            return self.refill_seat
        return min(pending.seats)

    def _lamps(self) -> None:
        pending = self.match.pending
        if self.state.phase == "over":
            self.ctx.lamps.light_only([])
        elif pending.chance is not None and self.state.queue:
            self.ctx.lamps.light_only([self.state.queue[0].seat])
        else:
            self.ctx.lamps.light_only(sorted(pending.seats))

    # -- input -----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.press("leave")
        elif isinstance(event, CardsSeen):
            self.seen(event)
        elif isinstance(event, SeatPressed):
            self.seat_pressed(event.seat)
        elif isinstance(event, Tap):
            button = hit(self.targets(), event.pos)
            if button is not None:
                self.ctx.sounds.play("tap")
                self.press(button.name)
        self.layout(self.m)

    def seen(self, event: CardsSeen) -> None:
        """A steady camera reading of one zone (an area, or one card held up alone)."""
        codes = [read_code(c.code) for c in event.cards]
        if event.seat is None or event.area != "equation":
            if len(codes) == 1 and (event.seat is None or event.area is None):
                self._one_card(codes[0], event)  # one card held up alone
            else:
                log.debug("mecs: ignoring cards in %s/%s", event.seat, event.area)
            return
        seat = event.seat - 1
        if not 0 <= seat < len(self.seats):
            log.info("mecs: cards seen at seat %s, which is not in this game", event.seat)
            return
        if None in codes:
            bad = [c.code for c, code in zip(event.cards, codes) if code is None]
            log.info("mecs: not a M.E.C.S. card in seat %d's area: %s", seat + 1, bad)
            self.ctx.sounds.play("wrong")
            self.message = (
                f"{child_message('mecs.ui.not_ours')} ({self.name(seat)}'s area)",
                "error",
            )
            return
        reads = tuple(c for c in codes if c is not None)
        self.submit_area(seat, reads, camera=True)

    def _one_card(self, code: str | None, event: CardsSeen) -> None:
        if code is None:
            log.info("mecs: a card held up alone is not ours: %s", event.codes)
            self.ctx.sounds.play("wrong")
            self.message = (child_message("mecs.ui.not_ours"), "error")
            return
        want = self.state.queue[0] if self.state.queue else None
        if want is not None and want.purpose == "reveal" and code in DIGITS:
            self.perform(Draw(code))
        elif want is not None and want.purpose == "objective" and code.startswith("OBJ"):
            self.perform(ShowObjective(int(code[3:])))
        else:
            self.open_page(code)

    def submit_area(self, seat: int, reads: tuple[str, ...], *, camera: bool = False) -> None:
        """Seat ``seat``'s area now reads ``reads``: a plant, a reorder, a hack, or (when
        cards changed that were there) a correction of an earlier reading."""
        area = self.state.players[seat].area
        if reads == area:
            self.readings.pop(seat, None)  # e.g. a lifted card was put back
            return
        try:
            action = Observe(seat, reads)
            events = self.match.apply(action)
        except TabletopError as exc:
            if getattr(exc, "code", "") == "mecs.take_back" and not camera:
                self.correct(seat, reads)
                return
            again = camera and self.readings.get(seat) == reads
            if camera:
                self.readings[seat] = reads
            self.refuse(exc, checked=not again, cards=reads)
            return
        self.readings.pop(seat, None)
        self._events(events)
        self._settle()

    def correct(self, seat: int, reads: tuple[str, ...]) -> None:
        """Fix a wrong reading of ``seat``'s area: replace the last move that changed it
        with this reading and play the later moves again."""
        history = list(self.match.history)
        index = next(
            (i for i in range(len(history) - 1, -1, -1) if _area_seat(history[i]) == seat),
            None,
        )
        if index is None:
            self.refuse(_refusal("mecs.take_back"))
            return
        fixed = Match(GAME, self.settings, len(self.seats), seed=self.seed)
        try:
            for action in history[:index]:
                fixed.apply(action)
            fixed.apply(Observe(seat, reads))
        except TabletopError as exc:
            self.refuse(exc)
            return
        dropped = 0
        for n, action in enumerate(history[index + 1 :]):
            try:
                fixed.apply(action)
            except TabletopError:
                dropped = len(history) - index - 1 - n
                break
        log.info(
            "mecs: corrected seat %d's area to %s; %d later moves dropped", seat, reads, dropped
        )
        self.match = fixed
        self.dealer = keyed_dealer(self.seed, fixed)
        self.save.attach(fixed)  # the journal rewrites from the first changed step
        self.finished = False
        text = f"Fixed: {self.name(seat)}'s area reads {render(reads) or 'nothing'}."
        if dropped:
            text += f" {dropped} later moves were taken back."
        self.message = (text, "info")
        self._settle()

    def seat_pressed(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            return
        state = self.state
        pending = self.match.pending
        if state.phase == "refill" and seat in pending.seats:
            self.refill_seat = seat
            self.message = (f"{self.name(seat)}: which stack do you draw from?", "info")
        elif state.phase == "planted" and seat == state.active:
            self.perform(EndTurn(seat))
        elif state.phase in ("plant", "planted"):
            self.ctx.sounds.play("wrong")
            if seat == state.active:
                what = "put down 1 or 2 cards (or hack) before you end your turn."
            else:
                what = f"it is {self.name(state.active)}'s turn."
            self.message = (child_message("mecs.ui.wrong_phase", {"what": what}), "error")
        else:
            self.ctx.sounds.play("wrong")
            self.message = (
                child_message("mecs.ui.wrong_phase", {"what": "wait for the next turn."}),
                "error",
            )

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        state = self.state
        if name == "leave":
            self.asking = "leave"
            self.stack.push(ask_leave(self.ctx))
        elif name == "rules":
            from tabletop.ui.games.mecs.setup import rules_scene

            self.stack.push(rules_scene(self.ctx))
        elif name == "cards":
            self.asking = "cards"
            choices = [(c, LABEL[c]) for c in PLAY_CARDS]
            self.stack.push(
                ChoiceGrid(
                    self.ctx, "Which card do you want to know about?", choices, columns=7, rows=3
                )
            )
        elif name == "undo":
            self.asking = "undo"
            self.stack.push(PinPad(self.ctx, "undo", prompt="Teacher PIN to take back a move"))
        elif name.startswith("area."):
            self.edit_area(int(name[5:]))
        elif name.startswith("hand."):
            seat = self.hand_owner()
            index = int(name[5:])
            if seat is not None and index < len(self.state.players[seat].hand):
                self.open_page(self.state.players[seat].hand[index])
        elif name == "end":
            self.perform(EndTurn(state.active))
        elif name == "trade":
            self.start_trade()
        elif name.startswith("refill."):
            seat = self.pending_seat()
            if state.phase != "refill" or seat is None:
                self.ctx.sounds.play("wrong")
                self.message = (
                    child_message(
                        "mecs.ui.wrong_phase", {"what": "hands are filled up after a turn."}
                    ),
                    "error",
                )
                return
            if self.perform(Refill(seat, name[7:])):  # type: ignore[arg-type]
                self.refill_seat = None
        elif name.startswith("reveal."):
            self.perform(Draw(name[7:]))
        elif name == "objective":
            request = self.match.pending.chance
            if request is None or request.kind != "objective":
                self.message = (
                    child_message(
                        "mecs.ui.wrong_phase", {"what": "the objective card is already out."}
                    ),
                    "error",
                )
                return
            self.asking = "objective"
            choices = [
                (f"OBJ{o.number}", f"{o.number}")
                for o in request.outcomes
                if isinstance(o, ShowObjective)
            ]
            self.stack.push(
                ChoiceGrid(self.ctx, "Which objective card was turned up?", choices, columns=5)
            )

    def open_page(self, code: str) -> None:
        self.stack.push(CardPageScene(self.ctx, code))

    def edit_area(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            return
        state = self.state
        if self.settings.play == "virtual":
            actor = state.active if state.phase in ("plant", "planted") else seat
            palette = [c for c, n in held_cards(state, actor).items() for _ in range(n) if c != "?"]
            if self.seats[actor].bot and seat != actor:
                palette = []
        else:
            palette = list(PLAY_CARDS)
        start = self.readings.get(seat, state.players[seat].area)
        self.asking = f"edit.{seat}"
        self.stack.push(
            AreaEditor(
                self.ctx,
                seat=seat,
                title=f"{self.name(seat)}'s equation area",
                cards=start,
                palette=sorted(palette, key=PLAY_CARDS.index),
                any_card=self.settings.play != "virtual",
            )
        )

    def start_trade(self) -> None:
        state = self.state
        if state.phase != "planted" or state.planted != 1:
            self.perform(Trade(state.active, "?", "numbers", "numbers"))  # told why not
            return
        hand = state.players[state.active].hand
        if self.settings.play == "virtual" and "?" not in hand:
            self.asking = "trade.card"
            choices = [(c, LABEL[c]) for c in dict.fromkeys(hand)]
            self.stack.push(
                ChoiceGrid(
                    self.ctx, "Which card goes back under its stack?", choices, columns=5, rows=2
                )
            )
        else:
            self.trade_card = "?"
            self.asking = "trade.under"
            self.stack.push(
                ChoiceGrid(
                    self.ctx,
                    "Which stack did your card go under?",
                    [("numbers", "Numbers"), ("symbols", "Symbols")],
                    columns=2,
                    rows=1,
                )
            )

    def _ask_trade_stack(self) -> None:
        self.trade_under = None
        self._ask_trade_draw()

    def _ask_trade_draw(self) -> None:
        self.asking = "trade.draw"
        choices = [
            (s, s.capitalize())
            for s in STACKS
            if self.state.stack(s).size or s == self._trade_under()
        ]
        self.stack.push(
            ChoiceGrid(
                self.ctx, "Which stack do you draw your new card from?", choices, columns=2, rows=1
            )
        )

    def _trade_under(self) -> str | None:
        if self.trade_card and self.trade_card != "?":
            return "numbers" if self.trade_card in DIGITS else "symbols"
        return self.trade_under

    def hand_owner(self) -> int | None:
        """Whose hand the screen shows: virtual play, a child's move pending."""
        if self.settings.play != "virtual":
            return None
        seat = self.pending_seat()
        if seat is None or self.seats[seat].bot:
            return None
        return seat

    def undo(self) -> None:
        """Take back the last decision (and the cards dealt after it)."""
        history = self.match.history
        if not any(not isinstance(a, CHANCE_TYPES) for a in history):
            self.ctx.sounds.play("wrong")
            self.message = (child_message("engine.nothing_to_undo"), "error")
            return
        while True:
            action = self.match.undo()
            if not isinstance(action, CHANCE_TYPES):
                break
        self.finished = False
        self.banner = None
        self.bot_due = None
        self.refill_seat = None
        log.info("mecs: undo %r", action)
        self.message = (f"Taken back: {describe(action, self)}.", "info")
        self._settle()

    # -- bots ------------------------------------------------------------------------------

    def update(self, now: float) -> bool:
        redraw = False
        if self.banner is not None:
            if now >= self.banner.until:
                self.banner = None
            redraw = True
        if self.state.phase == "over" or self.stack.top is not self:
            return redraw
        seat = self._bot_to_move()
        if seat is None:
            self.bot_due = None
            return redraw
        if self.bot_due is None:
            self.bot_due = now + BOT_SECONDS
            return redraw
        if now < self.bot_due:
            return redraw
        self.bot_due = None
        try:
            action = decide(self.state, seat, self.seats[seat].level)
        except (TabletopError, ValueError):
            log.exception("mecs: the bot found no move")
            action = EndTurn(seat)
        self.perform(action)
        return True

    def _bot_to_move(self) -> int | None:
        pending = self.match.pending
        if pending.chance is not None:
            return None
        bots = sorted(s for s in pending.seats if self.is_scene_bot(s))
        return bots[0] if bots else None

    # -- layout ------------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(12)
        state = self.state
        b: list[Button] = []
        bh = m.u(54)
        y = H - margin - bh
        small_w = m.u(92)
        for i, (name, label) in enumerate(
            (("rules", "Rules"), ("cards", "Cards"), ("undo", "Undo"), ("leave", "Leave"))
        ):
            b.append(
                Button(
                    name,
                    pygame.Rect(margin + i * (small_w + m.u(6)), y, small_w, bh),
                    label,
                    kind="quiet",
                    size=m.small + 2,
                )
            )
        right = W - margin
        wide = m.u(190)
        pending = self.match.pending
        want = state.queue[0] if state.queue else None
        if state.phase == "refill" and pending.chance is None:
            for name, label in (
                ("refill.symbols", "Draw a symbol"),
                ("refill.numbers", "Draw a number"),
            ):
                stack = name[7:]
                b.append(
                    Button(
                        name,
                        pygame.Rect(right - wide, y, wide, bh),
                        label,
                        enabled=bool(state.stack(stack).size),
                        size=m.small + 2,
                    )
                )
                right -= wide + m.u(8)
        elif want is not None and want.purpose == "objective" and pending.chance is not None:
            b.append(
                Button(
                    "objective",
                    pygame.Rect(right - wide * 2, y, wide * 2, bh),
                    "Show the objective card",
                )
            )
        else:
            active = state.active
            mine = not self.is_scene_bot(active)
            b.append(
                Button(
                    "end",
                    pygame.Rect(right - wide, y, wide, bh),
                    "End my turn",
                    enabled=mine
                    and (
                        state.phase == "planted"
                        or (state.phase == "plant" and not state.players[active].hand)
                    ),
                )
            )
            b.append(
                Button(
                    "trade",
                    pygame.Rect(right - 2 * wide - m.u(8), y, wide, bh),
                    "Trade a card",
                    enabled=mine and state.phase == "planted" and state.planted == 1,
                    kind="quiet",
                )
            )
        # the top: status and objective (or the coin race)
        self.status_rect = pygame.Rect(margin, m.u(6), W - 2 * margin, m.u(40))
        self.goal_rect = pygame.Rect(
            margin, self.status_rect.bottom + m.u(2), W - 2 * margin, m.u(34)
        )
        # the bottom: message, and the hand or the reveal digits
        self.message_rect = pygame.Rect(margin, y - m.u(50), W - 2 * margin, m.u(46))
        strip_top = self.message_rect.top
        self.hand_rects = []
        self.strip: pygame.Rect | None = None
        self.reveal_left = W
        owner = self.hand_owner()
        if want is not None and want.purpose == "reveal" and pending.chance is not None:
            strip_top = self.message_rect.top - m.u(58)
            self.strip = pygame.Rect(margin, strip_top, W - 2 * margin, m.u(54))
            kw = m.u(46)
            left = W - margin - 10 * (kw + m.u(6))
            self.reveal_left = left
            for d in range(10):
                b.append(
                    Button(
                        f"reveal.{d}",
                        pygame.Rect(left + d * (kw + m.u(6)), strip_top + m.u(2), kw, m.u(50)),
                        str(d),
                        kind="quiet",
                        size=m.big,
                    )
                )
        elif owner is not None:
            strip_top = self.message_rect.top - m.u(60)
            self.strip = pygame.Rect(margin, strip_top, W - 2 * margin, m.u(56))
            hand = state.players[owner].hand
            cw = m.u(40)
            left = margin + m.u(220)
            for i, card in enumerate(hand):
                rect = pygame.Rect(left + i * (cw + m.u(8)), strip_top + m.u(2), cw, m.u(52))
                self.hand_rects.append((rect, card))
                b.append(Button(f"hand.{i}", rect, "", kind="card"))
        # the areas
        top = self.goal_rect.bottom + m.u(6)
        bottom = strip_top - m.u(6)
        n = len(self.seats)
        cols = 1 if n <= 4 else 2
        rows = -(-n // cols)
        gap = m.u(6)
        aw = (W - 2 * margin - (cols - 1) * gap) // cols
        ah = (bottom - top - (rows - 1) * gap) // rows
        self.area_rects = {}
        for seat in range(n):
            c, r = divmod(seat, rows)
            rect = pygame.Rect(margin + c * (aw + gap), top + r * (ah + gap), aw, ah)
            self.area_rects[seat] = rect
            b.append(Button(f"area.{seat}", rect, "", kind="area"))
        self.buttons = b

    # -- drawing -------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        self._draw_status(surface)
        self._draw_goal(surface)
        for seat, rect in self.area_rects.items():
            self._draw_area(surface, seat, rect)
        if self.strip is not None:
            self._draw_strip(surface)
        kind = self.message[1]
        colour = p.bad if kind == "error" else p.good if kind == "good" else p.ink
        painter.box(surface, self.message_rect, p.panel, p.line, 1, m.u(8))
        painter.paragraph(
            surface,
            self.message[0],
            self.message_rect.inflate(-m.u(16), -m.u(6)),
            m.small + 1,
            colour,
            bold=kind == "error",
        )
        for b in self.buttons:
            if b.kind not in ("area", "card"):
                painter.button(surface, b)
        if self.banner is not None:
            self._draw_banner(surface, self.banner)

    def _draw_status(self, surface: pygame.Surface) -> None:
        painter, m = self.ctx.painter, self.m
        state = self.state
        r = self.status_rect
        title = painter.text(
            surface, "M.E.C.S.", (r.left, r.centery), m.big, bold=True, anchor="midleft"
        )
        want = state.queue[0] if state.queue else None
        if state.phase == "over":
            text = "The game is over!"
        elif want is not None and want.purpose == "reveal":
            text = f"Who starts? {self.name(want.seat)}: show one number card!"
        elif want is not None and want.purpose == "objective":
            text = "Turn up the next objective card!"
        elif state.phase == "refill":
            seat = self.pending_seat()
            text = (
                f"Fill hands up to 5 cards: {self.name(seat)} draws."
                if seat is not None
                else "Filling hands..."
            )
        elif state.phase in ("plant", "planted"):
            turn = f"Turn {state.turn}: {self.name(state.active)}"
            todo = (
                "put down 1 or 2 cards, or hack!"
                if state.phase == "plant"
                else "put down 1 more, trade, or end your turn."
            )
            text = f"{turn}, {todo}"
        else:
            text = "Dealing..."
        painter.text(
            surface,
            text,
            (title.right + m.u(14), r.centery),
            m.text,
            bold=True,
            anchor="midleft",
            max_width=r.right - title.right - m.u(14),
        )

    def _draw_goal(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        state = self.state
        s = self.settings
        r = self.goal_rect
        if s.mode == "challenge":
            painter.box(surface, r, (250, 236, 150), p.line, 2, m.u(8))
            met = len(state.met)
            if state.objective is not None:
                goal = objective(state.objective).text
                text = f"Objective {met + 1} of {s.objectives}: the answer must be {goal}."
            elif met >= s.objectives:
                text = f"All {s.objectives} objectives are met!"
            else:
                text = f"Objective {met + 1} of {s.objectives}: turn up the next card."
            painter.text(
                surface,
                text,
                (r.left + m.u(10), r.centery),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=r.width - m.u(20),
            )
        else:
            deck = "beginners' deck" if s.deck == "beginners" else "advanced deck"
            lead = max(range(len(self.seats)), key=lambda i: state.coins(i))
            text = f"Coin race: the first to {s.target_coins} coins wins ({deck})."
            if state.coins(lead):
                text += f"  Leading: {self.name(lead)} with {state.coins(lead)}."
            painter.text(
                surface,
                text,
                (r.left, r.centery),
                m.small + 2,
                p.muted,
                anchor="midleft",
                max_width=r.width,
            )

    def _draw_area(self, surface: pygame.Surface, seat: int, rect: pygame.Rect) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        state = self.state
        player = state.players[seat]
        active = seat == state.active and state.phase in ("plant", "planted")
        painter.box(
            surface,
            rect,
            p.panel,
            p.selected if active else p.line,
            m.u(4) if active else 1,
            m.u(8),
        )
        info_w = m.u(150) if len(self.seats) <= 4 else m.u(124)
        compact = rect.height < m.u(64)  # a short area: chip at the side, two text lines
        chip = pygame.Rect(
            rect.left + m.u(4),
            rect.top + m.u(4),
            m.u(26) if compact else m.u(30),
            rect.height - m.u(8) if compact else min(m.u(30), rect.height - m.u(8)),
        )
        painter.seat_chip(surface, chip, seat, size=m.small + 2)
        name = self.name(seat)
        if self.seats[seat].bot and not name.startswith("Bot"):
            name += " (bot)"
        painter.text(
            surface,
            name,
            (chip.right + m.u(6), rect.top + rect.height * 3 // 10 if compact else chip.centery),
            m.small + 1,
            bold=True,
            anchor="midleft",
            max_width=rect.left + info_w - chip.right - m.u(6),
        )
        # coins and the race to the target
        coins = player.coins
        if compact:
            radius = m.u(7)
            centre = (chip.right + m.u(6) + radius, rect.top + rect.height * 3 // 4)
        else:
            radius = m.u(10)
            centre = (rect.left + m.u(16), min(rect.bottom - m.u(12), chip.bottom + m.u(16)))
        self.coin_points[seat] = centre
        pygame.draw.circle(surface, p.coin, centre, radius)
        pygame.draw.circle(surface, p.line, centre, radius, 2)
        held = len(player.hand)
        painter.text(
            surface,
            f"{coins} coins · {held} in hand",
            (centre[0] + radius + m.u(6), centre[1]),
            m.small,
            anchor="midleft",
            max_width=rect.left + info_w - centre[0] - radius - m.u(6),
        )
        if self.settings.mode == "normal":
            bar = pygame.Rect(rect.left + m.u(6), rect.bottom - m.u(7), info_w - m.u(12), m.u(4))
            if bar.top > centre[1] + m.u(10):
                pygame.draw.rect(surface, p.quiet, bar)
                done = bar.copy()
                done.width = (
                    bar.width * min(coins, self.settings.target_coins) // self.settings.target_coins
                )
                pygame.draw.rect(surface, p.good, done)
        # the cards, left to right
        cards = player.area
        reading = self.readings.get(seat)
        shown = reading if reading is not None else cards
        left = rect.left + info_w + m.u(8)
        room = pygame.Rect(
            left, rect.top + m.u(4), rect.right - left - m.u(6), rect.height - m.u(8)
        )
        status = self._area_status(seat, shown, reading is not None)
        text_h = m.small + m.u(4) if status else 0
        ch = min(m.u(66), room.height - text_h)
        cw = ch * 7 // 10
        step = cw + m.u(4)
        if shown and len(shown) * step > room.width:
            step = room.width // len(shown)
            cw = max(8, step - 2)
        if not shown:
            painter.text(
                surface,
                "no cards yet",
                (room.left, room.top + ch // 2),
                m.small,
                p.muted,
                anchor="midleft",
            )
        for i, code in enumerate(shown):
            draw_card(
                painter,
                surface,
                pygame.Rect(room.left + i * step, room.top, cw, ch),
                code,
                faded=reading is not None,
            )
        if status:
            text, colour = status
            painter.text(
                surface,
                text,
                (room.left, room.top + ch + m.u(2)),
                m.small,
                colour,
                max_width=room.width,
            )

    def _area_status(
        self, seat: int, cards: tuple[str, ...], refused: bool
    ) -> tuple[str, tuple[int, int, int]] | None:
        """The device's ruling on an area, with its reason, in plain words."""
        p = self.ctx.painter.p
        if refused:
            return ("The camera sees this, but it is not allowed. Tap to fix it.", p.bad)
        if not cards:
            return None
        verdict = evaluate(cards)
        if verdict.valid:
            if not meets_objective(self.state, verdict):
                goal = (
                    objective(self.state.objective).text
                    if self.state.objective
                    else "the next objective"
                )
                return (f"{verdict.answer_text} is not {goal}, so the cards stay.", p.bad)
            return (f"{verdict.text} is right!", p.good)
        return (f"Not finished: {verdict.reason}.", p.muted)

    def _draw_strip(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        assert self.strip is not None
        r = self.strip
        want = self.state.queue[0] if self.state.queue else None
        if want is not None and want.purpose == "reveal":
            painter.text(
                surface,
                f"{self.name(want.seat)}:",
                (r.left, r.centery),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=self.reveal_left - r.left - m.u(8),
            )
            for b in self.buttons:
                if b.name.startswith("reveal."):
                    painter.button(surface, b)
            return
        owner = self.hand_owner()
        if owner is None:
            return
        painter.text(
            surface,
            f"{self.name(owner)}'s hand:",
            (r.left, r.centery),
            m.text,
            bold=True,
            anchor="midleft",
            max_width=m.u(210),
        )
        for rect, card in self.hand_rects:
            draw_card(painter, surface, rect, card)
        if self.hand_rects:
            x = self.hand_rects[-1][0].right + m.u(14)
            painter.paragraph(
                surface,
                "Tap your area to put cards down, or another area to hack it. "
                "Tap a card to learn about it.",
                pygame.Rect(x, r.top, r.right - x, r.height),
                m.small - 2,
                p.muted,
            )

    def _draw_banner(self, surface: pygame.Surface, banner: Banner) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        now = self.ctx.clock()
        W = m.width
        rect = pygame.Rect(0, 0, W - m.u(80), m.u(120))
        rect.center = (W // 2, m.height // 2 - m.u(30))
        fill = (255, 244, 200) if banner.kind == "good" else (255, 225, 210)
        painter.box(surface, rect, fill, p.selected, m.u(4), m.u(16))
        painter.text(
            surface,
            banner.title,
            (rect.centerx, rect.top + m.u(8)),
            m.title + m.u(8),
            p.good if banner.kind == "good" else p.bad,
            bold=True,
            anchor="midtop",
        )
        painter.paragraph(
            surface,
            banner.text,
            pygame.Rect(
                rect.left + m.u(16), rect.top + m.u(60), rect.width - m.u(32), rect.height - m.u(64)
            ),
            m.text,
            align="center",
        )
        # coins fly from the area to the winner's coin pile
        if banner.coins and banner.source in self.area_rects and banner.to_seat in self.coin_points:
            start = self.area_rects[banner.source].center
            end = self.coin_points[banner.to_seat]
            span = max(0.01, banner.until - banner.start - 0.5)
            for i in range(min(banner.coins, 15)):
                t = (now - banner.start - i * 0.08) / span
                t = (
                    0.35 + 0.65 * t if now == banner.start else t
                )  # a still frame shows them in the air
                t = min(1.0, max(0.0, t))
                x = start[0] + (end[0] - start[0]) * t + (i % 5 - 2) * m.u(10)
                y = (
                    start[1]
                    + (end[1] - start[1]) * t
                    - m.u(60) * 4 * t * (1 - t)
                    + (i // 5) * m.u(8)
                )
                pygame.draw.circle(surface, p.coin, (round(x), round(y)), m.u(11))
                pygame.draw.circle(surface, p.line, (round(x), round(y)), m.u(11), 2)


def describe(action: Action, table: MecsTable) -> str:
    """An action in words, for undo."""
    if isinstance(action, (Plant, Observe)):
        seat = action.seat if isinstance(action, Plant) else action.area_of
        cards = action.area if isinstance(action, Plant) else action.reads
        return f"{table.name(seat)}'s cards: the area read {render(cards)}"
    if isinstance(action, Hack):
        return f"{table.name(action.seat)}'s hack of {table.name(action.target)}'s area"
    if isinstance(action, Trade):
        return f"{table.name(action.seat)}'s trade"
    if isinstance(action, EndTurn):
        return f"the end of {table.name(action.seat)}'s turn"
    if isinstance(action, Refill):
        return f"{table.name(action.seat)}'s card from the {action.stack} stack"
    if isinstance(action, Reorder):
        return f"{table.name(action.seat)}'s card move"
    return "the last move"


def _area_seat(action: Action) -> int | None:
    """The seat whose area ``action`` changes, if any."""
    if isinstance(action, Observe):
        return action.area_of
    if isinstance(action, (Plant, Reorder)):
        return action.seat
    if isinstance(action, Hack):
        return action.target
    return None


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")


def _refusal(code: str) -> TabletopError:
    from tabletop.engine.errors import IllegalMove

    return IllegalMove(code, code)


# -- the area editor -----------------------------------------------------------------------


class AreaEditor(Scene):
    """An equation area by touch: tap a gap (``gap.<k>``) to put a card there, tap a card
    (``card.<k>``) to select it, then ``change``, ``remove``, ``left``, ``right`` or
    ``about``; ``done`` pops with the cards, ``cancel`` with None.

    ``palette`` is what may be put down (the hand in virtual play, every card when the
    device cannot see hands); with ``any_card`` a card may also be changed or removed,
    which fixes a wrong camera reading."""

    def __init__(
        self,
        ctx: Context,
        *,
        seat: int,
        title: str,
        cards: Sequence[str],
        palette: Sequence[str],
        any_card: bool,
    ) -> None:
        super().__init__(ctx)
        self.seat = seat
        self.title = title
        self.original = tuple(cards)
        self.cards = list(cards)
        self.palette = list(palette)
        self.any_card = any_card
        self.selected: int | None = None
        self.asking: tuple[str, int] | None = None
        self.note = ""
        self._choices: list[str] = []

    def available(self) -> list[str]:
        """Palette cards not yet used in this edit."""
        if self.any_card:
            return list(PLAY_CARDS)
        left = list(self.palette)
        added = list(self.cards)
        for card in self.original:
            if card in added:
                added.remove(card)
        for card in added:
            if card in left:
                left.remove(card)
        return left

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        margin = m.u(16)
        n = len(self.cards)
        ch = m.u(110)
        gap_w = m.u(44)  # a touch target for "put a card here"
        cw = m.u(76)
        total = n * cw + (n + 1) * gap_w
        if total > W - 2 * margin:
            scale = (W - 2 * margin) / total
            cw, gap_w = max(16, int(cw * scale)), max(14, int(gap_w * scale))
            ch = min(ch, cw * 3 // 2 + m.u(20))
        total = n * cw + (n + 1) * gap_w
        x = (W - total) // 2
        top = m.u(90)
        b: list[Button] = []
        for k in range(n + 1):
            b.append(Button(f"gap.{k}", pygame.Rect(x, top, gap_w, ch), "+", kind="gap"))
            x += gap_w
            if k < n:
                b.append(Button(f"card.{k}", pygame.Rect(x, top, cw, ch), "", kind="card"))
                x += cw
        self.card_top, self.card_h = top, ch
        bh = m.u(56)
        y = top + ch + m.u(24)
        tools = [("left", "◀ Move"), ("right", "Move ▶"), ("about", "About")]
        if self.any_card:
            tools[2:2] = [("change", "Change"), ("remove", "Remove")]
        tw = m.u(128)
        tx = (W - len(tools) * (tw + m.u(8))) // 2
        for i, (name, label) in enumerate(tools):
            b.append(
                Button(
                    name,
                    pygame.Rect(tx + i * (tw + m.u(8)), y, tw, bh),
                    label,
                    kind="quiet",
                    enabled=self.selected is not None,
                    size=m.small + 2,
                )
            )
        y = H - margin - bh
        b.append(Button("cancel", pygame.Rect(margin, y, m.u(160), bh), "Cancel", kind="quiet"))
        b.append(Button("done", pygame.Rect(W - margin - m.u(200), y, m.u(200), bh), "Done"))
        self.note_rect = pygame.Rect(
            margin, top + ch + bh + m.u(34), W - 2 * margin, y - (top + ch + bh + m.u(40))
        )
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop(None)
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is not None and button.enabled:
                self.ctx.sounds.play("tap")
                self.press(button.name)

    def press(self, name: str) -> None:
        if name == "cancel":
            self.stack.pop(None)
            return
        if name == "done":
            self.stack.pop(tuple(self.cards))
            return
        if name.startswith("gap."):
            k = int(name[4:])
            choices = self.available()
            if not choices:
                self.ctx.sounds.play("wrong")
                self.note = "You have no card to put down here."
                return
            self.asking = ("insert", k)
            grid = [(f"{i}", LABEL[c]) for i, c in enumerate(choices)]
            self._choices = choices
            self.stack.push(ChoiceGrid(self.ctx, "Which card goes here?", grid, columns=7, rows=3))
            return
        if name.startswith("card."):
            k = int(name[5:])
            self.selected = None if self.selected == k else k
        elif self.selected is not None:
            k = self.selected
            if name == "left" and k > 0:
                self.cards[k - 1], self.cards[k] = self.cards[k], self.cards[k - 1]
                self.selected = k - 1
            elif name == "right" and k < len(self.cards) - 1:
                self.cards[k + 1], self.cards[k] = self.cards[k], self.cards[k + 1]
                self.selected = k + 1
            elif name == "remove":
                self.cards.pop(k)
                self.selected = None
            elif name == "change":
                self.asking = ("change", k)
                self._choices = list(PLAY_CARDS)
                grid = [(f"{i}", LABEL[c]) for i, c in enumerate(self._choices)]
                self.stack.push(
                    ChoiceGrid(self.ctx, "Which card is it really?", grid, columns=7, rows=3)
                )
                return
            elif name == "about":
                self.stack.push(CardPageScene(self.ctx, self.cards[k]))
                return
        self.layout(self.m)

    def resume(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking is not None and isinstance(result, str) and result.isdigit():
            card = self._choices[int(result)]
            what, k = asking
            if what == "insert":
                self.cards.insert(k, card)
                self.selected = None
            else:
                self.cards[k] = card
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        painter.text(
            surface, self.title, (m.u(16), m.u(12)), m.title, bold=True, max_width=m.width - m.u(32)
        )
        painter.text(
            surface,
            "Tap + to put a card there. Tap a card to move it"
            + (", change it or remove it." if self.any_card else "."),
            (m.u(18), m.u(16) + m.title),
            m.small,
            p.muted,
            max_width=m.width - m.u(36),
        )
        for b in self.buttons:
            if b.kind == "card":
                k = int(b.name[5:])
                draw_card(painter, surface, b.rect, self.cards[k], selected=self.selected == k)
            elif b.kind == "gap":
                pygame.draw.line(
                    surface,
                    p.line,
                    (b.rect.centerx, b.rect.top + m.u(10)),
                    (b.rect.centerx, b.rect.bottom - m.u(10)),
                    1,
                )
                pygame.draw.circle(
                    surface, p.button, b.rect.center, min(b.rect.width // 2 - 2, m.u(18))
                )
                painter.text(
                    surface,
                    "+",
                    b.rect.center,
                    m.small + 2,
                    (255, 255, 255),
                    bold=True,
                    anchor="center",
                )
            else:
                painter.button(surface, b)
        verdict = evaluate(self.cards) if self.cards else None
        text = self.note
        if verdict is not None:
            text = f"{verdict.text}: " + (
                "a complete equation!" if verdict.valid else f"not finished ({verdict.reason})."
            )
        if text:
            painter.paragraph(
                surface,
                text,
                self.note_rect,
                m.text,
                p.good if verdict and verdict.valid else p.ink,
                align="center",
            )


# -- the results -----------------------------------------------------------------------------


class MecsResults(Scene):
    """Places by coins (equal coins share a place, MECS-6)."""

    def __init__(self, ctx: Context, *, table: MecsTable) -> None:
        super().__init__(ctx)
        self.table = table
        result = GAME.result(table.state)
        assert result is not None
        self.result = result

    def winners(self) -> list[str]:
        return [self.table.name(s) for s in sorted(self.result.winners)]

    def winner_line(self) -> str:
        """``winner: NAMES``, or ``winner: draw`` when every seat shares first place."""
        if len(self.result.winners) == len(self.table.seats) and len(self.table.seats) > 1:
            return "winner: draw"
        return "winner: " + ", ".join(self.winners())

    def layout(self, metrics: Metrics) -> None:
        self.buttons = home_and_again(metrics, "Play again")

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        t = self.table
        if name == "home":
            go_home(t.stack)
        elif name == "again":
            self.stack.pop()
            self.stack.replace(
                MecsTable(
                    self.ctx,
                    seats=t.save.seats,
                    settings=t.settings,
                    bot_driver=t.bot_driver,
                )
            )

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        names = self.winners()
        if len(names) == len(self.table.seats) and len(names) > 1:
            title = "It's a draw!"
        elif len(names) == 1:
            title = f"{names[0]} wins!"
        else:
            title = f"{' and '.join(names)} share first place!"
        painter.text(
            surface,
            title,
            (m.u(16), m.u(10)),
            m.title + m.u(6),
            bold=True,
            max_width=m.width - m.u(32),
        )
        painter.text(
            surface,
            f"The game ended because {self.table.words(self.result.reason)}.",
            (m.u(18), m.u(20) + m.title + m.u(6)),
            m.text,
            p.muted,
            max_width=m.width - m.u(36),
        )
        order = sorted(range(len(self.table.seats)), key=lambda s: (self.result.places[s], s))
        y = m.u(100)
        step = min(m.u(52), (self.buttons[0].rect.top - y - m.u(8)) // max(1, len(order)))
        for seat in order:
            place = self.result.places[seat]
            painter.text(
                surface,
                _ordinal(place),
                (m.u(20), y + step // 2),
                m.big,
                bold=True,
                anchor="midleft",
            )
            chip = pygame.Rect(m.u(110), y + m.u(3), m.u(36), step - m.u(6))
            painter.seat_chip(surface, chip, seat, size=m.small + 2)
            painter.text(
                surface,
                self.table.name(seat),
                (m.u(160), y + step // 2),
                m.big - m.u(4),
                bold=True,
                anchor="midleft",
                max_width=m.u(330),
            )
            coins = int(self.result.scores[seat])
            centre = (m.width - m.u(200), y + step // 2)
            pygame.draw.circle(surface, p.coin, centre, m.u(14))
            pygame.draw.circle(surface, p.line, centre, m.u(14), 2)
            painter.text(
                surface,
                f"{coins} coins",
                (centre[0] + m.u(24), centre[1]),
                m.big - m.u(4),
                p.good,
                bold=True,
                anchor="midleft",
            )
            y += step
        painter.buttons(surface, self.buttons)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


__all__ = ["AreaEditor", "MecsResults", "MecsTable", "coin_words"]
