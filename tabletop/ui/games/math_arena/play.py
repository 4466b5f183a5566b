"""The device's side of a Math Arena table, without pygame (ARENA-1..ARENA-5).

The round, as the device runs it (rule book ``seeds/004_...``):

1. ``operator``: the operator card is turned over (read by the camera, tapped in, or
   dealt by the device; with virtual cards always dealt).
2. ``ready``: every seat puts two cards face down and presses its button (a child with
   virtual cards picks them on the screen first); a bot picks when the operator is out
   and presses ``BOT_SECONDS`` later (``BOT_STAGGER`` more per bot).
3. ``countdown``: everybody is ready; ``COUNTDOWN`` seconds later, "Reveal!".
4. ``reveal``: the pairs go up (read by the camera, known with virtual cards, corrected
   by touch from the cards the engine says they could be); each child says their value
   (ARENA-1) and the device checks it.
5. "Who wins?" hands the pairs to the engine (:func:`table_actions`): a card the rules
   refuse is marked, nothing is scored; else ``result`` shows the ruling worded from
   the engine's events. A last-round tie asks the tied seats for their leftover card
   (``leftover``, ARENA-4).

Undo (behind the teacher's PIN) goes back to before the last operator card entered or
the last scoring. Never lose a game (issue 10): what the round holds beyond the match
is kept beside it in the journal (:meth:`ArenaPlay.record`), its moments in seconds of
play (the controller's ``clock``); the deal and the bots' picks are keyed by the seed and
the number of actions, so a resumed game deals and picks what the uninterrupted one would.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.bots.math_arena import MathArenaBot
from tabletop.classroom.mistakes import OP_SKILLS, Question, question
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.engine.words import and_joined, plural
from tabletop.games.math_arena import (
    OPERATION_WORDS,
    Action,
    Choose,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    ShowLeftover,
    Tournament,
    WrongCards,
    goal,
    is_operator,
    last_scoring,
    operator_name,
    pair_sum,
    parse_card,
    pip_value,
    play_value,
    scorings,
    sum_words,
    table_actions,
)
from tabletop.ui.controller import TableController
from tabletop.ui.messages import child_message, seats_named
from tabletop.ui.saves import keyed_dealer, standings_result

log = logging.getLogger(__name__)

GAME = MathArena()
COUNTDOWN = 3.0  # seconds from "everybody is ready" to "Reveal!"
BOT_SECONDS = 2.0  # a bot presses its button this long after the operator is out
BOT_STAGGER = 0.7  # ... plus this much per bot, so the LEDs light one by one
# a refusal's code when a seat's button is pressed, or a card or button tapped, in the
# wrong phase: it says what the round waits for (in "ready", the presses: PRESS_FIRST)
PRESS_WRONG = {
    "operator": "arena.ui.wait_operator",
    "countdown": "arena.ui.countdown",
    "reveal": "arena.ui.cards_up",
    "leftover": "arena.ui.cards_up",
    "result": "arena.ui.round_over",
}
PRESS_FIRST = "arena.ui.press_first"
# what the round says again when carried on in the middle of these phases
AGAIN = {"countdown": "arena.said.all_ready", "reveal": "arena.said.reveal", "ready": ""}


def said_as(facts: Mapping[str, Any]) -> str:
    """The engine's ``5 - 2 = 3`` (a :func:`pair_sum`) as the screen shows it, with a
    real minus sign; a Queen's pair as its card says it: ``5 ÷ 2 leaves remainder 1``."""
    if facts["op"] == "/":
        return child_message("arena.said.remainder", facts, left=facts["value"]).rstrip(".")
    return sum_words(facts).replace(" - ", " \u2212 ")


def rule_said(operator: str) -> str:
    """``Red King: the lowest sum wins.`` (ARENA-1), the table's sentence."""
    facts = {"goal": goal(operator), "rule": OPERATION_WORDS[operator[:-1]]}
    return child_message("arena.verdict.rule", facts, operator=operator_name(operator, title=True))


def value_question(operator: str, cards: tuple[str, str]) -> Question:
    """The sum a value asks (issue 24), as :func:`explain` says it: the King adds, the
    Queen asks what is left when the smaller goes into the larger, the Jack takes away."""
    f = pair_sum(operator, cards)
    return question(OP_SKILLS[f["op"]], [f["a"], f["b"]], [f["op"]], right=Fraction(f["value"]))


@dataclass(frozen=True)
class Said:
    """A value a child said, checked: for the journal's checks and answers."""

    seat: int
    right: bool
    question: Question
    value: int
    seconds: float | None


class ArenaPlay(TableController):
    """One game of Math Arena at the device. ``seats``: (name, is a bot) each; ``cards``:
    "table" (the camera reads real cards) or "virtual" (the device deals; always so with
    a bot); ``clock``: the seconds of play; ``sound``: plays a cue."""

    match: Match[MathArenaSettings, MathArenaState, Action]

    def __init__(
        self,
        seats: Sequence[tuple[str, bool]],
        *,
        cards: str = "table",
        level: str = "easy",
        seed: int = 0,
        tournament: Tournament | None = None,
        match: Match[MathArenaSettings, MathArenaState, Action] | None = None,
        clock: Callable[[], float] = lambda: 0.0,
        sound: Callable[[str], None] = lambda cue: None,
    ) -> None:
        if cards not in ("table", "virtual"):
            raise ValueError(f"cards are 'table' or 'virtual', not {cards!r}")
        self.seats = [(str(name), bool(bot)) for name, bot in seats]
        n = len(self.seats)  # 2 to 5: the engine says so (BadInput) when it starts
        self.cards = "virtual" if any(bot for _, bot in self.seats) else cards
        self.level, self.seed, self.clock, self.sound = level, seed, clock, sound
        settings = MathArenaSettings(hidden_hands=self.cards == "table")
        self.match = match or Match(GAME, settings, n, seed=seed)
        self.dealer = keyed_dealer(seed, self.match)
        self.bots = {
            s: MathArenaBot(level, seed + s + 1) for s, (_, b) in enumerate(self.seats) if b
        }
        self.tournament = tournament or Tournament(n)
        self.phase = "operator"  # operator | ready | countdown | reveal | leftover | result
        self.asked_at: float | None = None  # when the number pad asked a value (issue 24)
        self.last_count: int | None = None  # the countdown's number last shown
        self.refused: tuple[int | None, int] = (None, -1)  # the last refusal's seat, sentence
        self.early: str | None = None  # the next operator card, read before Next round
        self.fresh_round()

    def fresh_round(self) -> None:
        """A fresh round's fields (nothing ready, no cards), without dealing."""
        n = self.players
        self.ready = [False] * n
        self.pairs: list[list[str | None]] = [[None, None] for _ in range(n)]
        self.picks: dict[int, tuple[str, str]] = {}
        self.bad: set[tuple[int, int]] = set()
        self.said: dict[int, int] = {}  # the values children said this round
        self.winners: list[int] = []
        self.verdict = ""
        self.bot_press_at: dict[int, float] = {}
        self.countdown_end: float | None = None
        self.revealed_at: float | None = None  # the cards went up (an answer's seconds)
        self.shown = self.state  # the round on screen (the state moves on after a ruling)

    # -- small helpers ----------------------------------------------------------------------

    @property
    def state(self) -> MathArenaState:
        return self.match.state

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def finished(self) -> bool:
        return GAME.is_over(self.state)

    @property
    def round_label(self) -> tuple[int, int]:
        """(set, round) of the round on screen."""
        return self.shown.set_number, self.shown.round

    def name(self, seat: int) -> str:
        return self.called(seat, self.seats[seat][0])

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat][1]

    def refuse(self, code: str, detail: str, seat: int | None = None) -> None:
        """A child's sentence (for ``seat``: after its name), the exact reason in the log."""
        self.sound("wrong")
        words, self.refused = child_message(code), (seat, self.sentences + 1)
        words = f"{self.name(seat)}: {words}" if seat is not None else words
        kept = self.verdict if self.phase == "result" else ""  # the ruling stays to read
        self.say(f"{kept} {words}".strip(), "error")
        log.info("math-arena: refused (%s) in phase %s: %s", code, self.phase, detail)

    def not_now(self, what: str) -> None:
        """``what`` (a tap) is refused in this phase, saying what the round waits for."""
        self.refuse(PRESS_WRONG.get(self.phase, PRESS_FIRST), f"{what} in phase {self.phase}")

    def names(self, text: str) -> str:
        """Engine sentences say "Seat 2"; the screen says the seat's name."""
        return seats_named(text, [self.name(s) for s in range(self.players)])

    def standings(self) -> Result:
        """The result, or before the end the standings: operator cards won per seat."""
        result = self.match.result()
        if result is not None:
            return result
        won = [len(cards) for cards in self.state.won]
        counts = ", ".join(f"{self.seats[s][0]} {n}" for s, n in enumerate(won))  # the journal's
        return standings_result(won, f"stopped with operator cards: {counts}")

    def lit(self) -> list[int]:
        """The seats whose LEDs are lit: the ready ones, or the tied ones asked."""
        if self.phase in ("ready", "countdown"):
            return [s for s in range(self.players) if self.ready[s]]
        return list(self.state.tied) if self.phase == "leftover" else []

    # -- the round ----------------------------------------------------------------------------

    def start(self) -> None:
        """A new game: virtual hands dealt, the first round begins."""
        self.deal_hands()
        self.begin_round()

    def deal_hands(self) -> None:
        """Virtual cards: the device deals every hand (ARENA-2)."""
        while (chance := self.match.pending.chance) is not None and chance.kind == "card":
            self.match.deal(self.dealer)

    def begin_round(self) -> None:
        self.phase = "operator"
        self.fresh_round()
        if self.cards == "virtual":
            self.deal_operator()
        elif early := self.early:  # turned over while the last ruling showed
            self.early = None
            self.set_operator(early, "the camera, before Next round")
        else:
            self.say(
                child_message("arena.said.round", set=self.shown.set_number, round=self.shown.round)
            )

    def set_operator(self, text: str, source: str) -> None:
        """The operator card from the camera, a tap, or the device's dealer; one the camera
        reads while a ruling shows is the next round's, kept for Next round."""
        early = self.phase == "result" and not self.finished
        if self.phase != "operator" and not early:
            op = self.state.operator
            if op is None or parse_card(text) != op:  # else the camera still sees it
                self.refuse("arena.ui.operator_out", f"{source} gave {text!r}, round has {op}")
            return
        card = parse_card(text)
        if card is None:
            self.refuse("arena.ui.not_ours", f"{source}: {text!r} is not a Math Arena card")
        elif not is_operator(card):
            self.refuse("arena.ui.number_operator", f"{source}: {card} is a number card")
        elif card not in self.state.operators_left:
            self.refuse("arena.ui.operator_used", f"{source}: {card} was already an operator")
        elif early:
            self.early = card
            log.info("math-arena: next operator %s from %s, before Next round", card, source)
            self.say(child_message("arena.said.next_operator"))
        else:
            self.match.apply(RevealOperator(card))
            log.info("math-arena: operator %s from %s", card, source)
            self.operator_out()

    def deal_operator(self) -> None:
        chance = self.match.pending.chance
        if self.phase != "operator" or chance is None or chance.kind != "operator":
            self.refuse("arena.ui.operator_out", "deal pressed with no operator awaited")
            return
        self.set_operator(self.dealer.deal(chance).card, "the device's dealer")

    def operator_out(self) -> None:
        """The operator is out: the bots pick (keyed by the seed) and press later."""
        st, now = self.state, self.clock()
        op, self.shown, self.phase = st.operator, st, "ready"
        assert op is not None
        self.sound("seen")
        for k, seat in enumerate(sorted(self.bots)):
            self.bots[seat].rng = random.Random(f"{self.seed}:{seat}:{self.match.moves}")
            choice = self.bots[seat].choose(st, seat)
            self.picks[seat] = (choice.cards[0], choice.cards[1])
            self.bot_press_at[seat] = now + BOT_SECONDS + BOT_STAGGER * k
        cards = plural(len(st.pot), "operator card")
        pot = " " + child_message("arena.said.pot", cards=cards) if st.pot else ""
        self.say(f"{rule_said(op)}{pot}")

    def press(self, seat: int, at: float) -> bool:
        """A seat's button: True when the child is to pick two cards on the screen first
        (virtual cards, then :meth:`pick`; a hand the engine leaves one play, the last two
        cards, goes down at once); refused in the wrong phase. An empty seat's press never
        comes here: the table answers it (:meth:`TableScene.empty_seat`)."""
        if self.phase in PRESS_WRONG:
            self.refuse(PRESS_WRONG[self.phase], f"seat {seat + 1} pressed at {at:.3f}", seat)
        elif self.ready[seat] or self.is_bot(seat):  # a second press never un-readies
            code = "arena.ui.bot_button" if self.is_bot(seat) else "arena.ui.ready_change"
            self.refuse(code, f"seat {seat + 1} pressed again", seat)
        elif self.cards == "virtual":
            plays = GAME.legal_actions(self.state, seat)
            if len(plays) != 1 or not isinstance(plays[0], Choose):
                return True
            self.picks[seat] = plays[0].cards  # the last two cards: the engine says so
            self.seat_ready(seat, "arena.said.last_two")
        else:
            self.seat_ready(seat)
        return False

    def pick(self, seat: int, pair: tuple[str, str]) -> None:
        """A child's two cards from the virtual hand: the seat is ready."""
        if self.phase == "ready" and not self.ready[seat]:
            self.picks[seat] = pair
            self.seat_ready(seat)

    def can_change(self, seat: int) -> bool:
        """A child who is ready may take it back until the reveal (ARENA-3: the device
        acts when it calls Reveal!), with virtual cards their two cards too."""
        return 0 <= seat < self.players and self.ready[seat] and self.wants_press(seat)

    def unready(self, seat: int) -> None:
        """A child's own take-back (no PIN, ``unready.<seat>``): not ready any more, the
        countdown stopped; never by the seat button, whose second press stays refused."""
        if not self.can_change(seat):
            late = self.phase not in ("operator", "ready", "countdown")
            code = "arena.ui.change_late" if late else "arena.ui.change_none"
            self.refuse(code, f"seat {seat + 1} unready in phase {self.phase}", seat)
            return
        self.ready[seat] = False
        if self.cards == "virtual":
            self.picks.pop(seat, None)
        self.phase, self.countdown_end, self.last_count = "ready", None, None
        self.sound("tap")
        log.info("math-arena: seat %d takes back their ready press", seat + 1)
        self.say(f"{self.name(seat)}: {child_message('arena.ui.changed')}")

    def seat_ready(self, seat: int, said: str = "arena.said.ready") -> None:
        self.ready[seat] = True
        self.sound("tap")
        log.info("math-arena: seat %d ready", seat + 1)
        if all(self.ready):
            self.phase = "countdown"
            self.countdown_end = self.clock() + COUNTDOWN
            self.say(child_message(AGAIN["countdown"]))
        else:
            self.say(child_message(said, name=self.name(seat), what=self.next_step()))

    def countdown_left(self) -> int:
        if self.countdown_end is None:
            return 0
        return max(0, math.ceil(self.countdown_end - self.clock()))

    @property
    def timed(self) -> bool:
        """A bot's press or the reveal is to come at a moment."""
        return bool(self.bot_press_at) or self.countdown_end is not None

    def tick(self) -> bool:
        """The bots whose moment came press; the countdown runs out. True if changed."""
        changed, now, due = False, self.clock(), self.bot_press_at
        if self.phase == "ready":
            for seat in sorted((s for s, t in due.items() if t <= now), key=lambda s: due[s]):
                del due[seat]
                if not self.ready[seat]:
                    self.seat_ready(seat)
                    changed = True
        if self.phase == "countdown" and self.countdown_end is not None:
            if now >= self.countdown_end:
                self.reveal()
                return True
            shown = self.countdown_left()
            changed = changed or shown != self.last_count
            self.last_count = shown
        return changed

    def reveal(self) -> None:
        """ARENA-3: every seat is ready; the cards go up and the camera reads them."""
        self.phase, self.revealed_at, self.countdown_end = "reveal", self.clock(), None
        self.sound("round")
        if self.cards == "virtual":
            self.pairs = [list(self.picks.get(s, (None, None))) for s in range(self.players)]
        self.say(child_message(AGAIN["reveal"]))

    # -- the camera and touch corrections ---------------------------------------------------------

    def cards_seen(self, seat_no: int | None, area: str | None, codes: Sequence[str]) -> None:
        """The camera's reading of a zone: the operator card, or a seat's (1-based) cards."""
        if area == "operator":
            if codes and len(codes) != 1 and self.phase in ("operator", "result"):
                self.refuse("arena.ui.operator_count", f"operator zone shows {codes}")
            elif codes:
                self.set_operator(codes[0], "the camera")
            return
        seat = (seat_no or 0) - 1
        if area != "reveal" or not 0 <= seat < self.players or not codes:
            log.info("math-arena: ignored cards in %r at seat %s: %s", area, seat_no, codes)
            return
        read = [parse_card(code) for code in codes]
        cards = [c for c in read if c is not None]
        why = f"seat {seat + 1} shows {list(codes)}"
        if len(cards) != len(read):
            self.refuse("arena.ui.not_ours", why, seat)
        elif self.phase in ("ready", "countdown", "operator"):
            self.refuse("arena.ui.face_down", why, seat)
        elif self.phase == "leftover" and seat not in self.state.tied:
            self.refuse("arena.ui.not_tied", why, seat)
        elif self.phase == "leftover" and len(cards) != 1:
            self.refuse("arena.ui.leftover_count", why, seat)
        elif self.phase == "reveal" and len(cards) != 2:
            self.refuse("arena.ui.pair_count", why, seat)
        elif self.phase not in ("reveal", "leftover"):
            log.info("math-arena: ignored %s in phase %s", why, self.phase)
        elif any(is_operator(c) for c in cards):
            self.refuse("arena.court_as_number", why, seat)
        else:
            for slot, card in enumerate(cards):
                self.set_card(seat, slot, card, "the camera")
            self.sound("seen")

    def candidates(self, seat: int) -> list[str]:
        """The cards a seat's card could be, as the engine says: its hand, or in camera
        play any number card not seen yet in this set; with virtual cards only the two
        the seat put down (ARENA-3: nobody changes their cards after the reveal)."""
        if self.cards == "virtual" and seat in self.picks:
            return list(self.picks[seat])
        return GAME.possible_cards(self.state, seat)

    def may_correct(self, seat: int, slot: int) -> bool:
        """A card shown may be corrected by touch now (else refused, saying why)."""
        if self.phase not in ("reveal", "leftover"):
            self.not_now(f"card {seat + 1}.{slot} tapped")
        elif self.phase == "leftover" and (seat not in self.state.tied or slot != 0):
            code = "arena.ui.leftover_slot" if seat in self.state.tied else "arena.ui.not_tied"
            self.refuse(code, f"card {seat + 1}.{slot} tapped", seat)
        elif self.cards == "virtual" and self.pairs[seat] == list(self.picks.get(seat, ())):
            self.refuse("arena.ui.cards_put_down", f"card {seat + 1}.{slot}: picked", seat)
        elif not self.candidates(seat):
            self.refuse("arena.no_cards", f"seat {seat + 1} has no possible cards", seat)
        else:
            return True
        return False

    def set_card(self, seat: int, slot: int, card: str, source: str = "touch") -> None:
        """A card read by the camera or corrected by touch: a value said for the pair it
        changes is said again; the marks are the engine's again (a card still refused is
        said, when it is another), and once none is left the refusal on the instruction
        line (the marks', or this seat's) gives way to the step."""
        if self.pairs[seat][slot] != card:
            self.said.pop(seat, None)
        self.pairs[seat][slot] = card
        marked = bool(self.bad)
        self.bad.discard((seat, slot))
        if marked and not self.missing():
            wrong = self.checked()
            if not isinstance(wrong, WrongCards):
                self.bad = set()
            elif wrong.cards != self.bad:
                self.mark(wrong)
        refused, sentence = self.refused
        if sentence == self.sentences and not self.bad and (marked or refused == seat):
            self.say("")
        log.info("math-arena: seat %d card %d is %s (%s)", seat + 1, slot + 1, card, source)

    def operator_choices(self) -> list[str] | None:
        """The operator cards still to come, for a tap (None, refused, when one is out)."""
        if self.phase != "operator":
            self.refuse("arena.ui.operator_out", "operator card tapped")
            return None
        return list(self.state.operators_left)

    # -- the values children say (ARENA-1) -----------------------------------------------------

    def value_refusal(self, seat: int) -> str | None:
        """Why a seat may not say its value now (its sentence's code), or None."""
        if self.is_bot(seat):
            return "arena.ui.value_bot"
        if self.phase == "leftover":
            return "arena.ui.leftover_slot" if seat in self.state.tied else "arena.ui.not_tied"
        if self.phase == "result":
            return PRESS_WRONG["result"]
        if self.phase != "reveal" or self.state.operator is None:
            return "arena.ui.value_when"
        if None in self.pairs[seat]:
            return "arena.ui.missing_pair"
        return "arena.ui.value_said" if seat in self.said else None

    def can_say(self, seat: int) -> bool:
        return self.value_refusal(seat) is None

    def ask_value(self, seat: int) -> str | None:
        """The child taps their row: the number pad's hint ("King: 5 and 2"), or None
        (refused, saying why)."""
        if not 0 <= seat < self.players:
            return None
        if code := self.value_refusal(seat):
            self.refuse(code, f"value of seat {seat + 1} in phase {self.phase}", seat)
            return None
        op = self.state.operator
        assert op is not None
        self.asked_at = self.clock()
        return child_message(
            "arena.table.pad_hint", self.values(seat), operator=operator_name(op, title=True)
        )

    def values(self, seat: int) -> dict[str, int]:
        """``{"a": 5, "b": 2}``: the values of a seat's two cards, the larger first."""
        return dict(zip("ab", sorted((pip_value(c) for c in self.pairs[seat] if c), reverse=True)))

    def value_said(self, seat: int, value: int) -> Said | None:
        """The device checks the value a child said against their pair."""
        if not self.can_say(seat):
            return None
        op, (a, b) = self.state.operator, self.pairs[seat]
        assert op is not None and a is not None and b is not None
        right = play_value(op, (a, b))
        self.said[seat] = value
        log.info("math-arena: seat %d says %d, the pair makes %d", seat + 1, value, right)
        self.sound("good" if value == right else "wrong")
        said, tone = ("right", "info") if value == right else ("wrong", "hint")  # not refused
        facts = {"name": self.name(seat), "sum": said_as(pair_sum(op, (a, b))), "value": value}
        self.say(child_message(f"arena.said.{said}", facts), tone)
        start = self.revealed_at if self.revealed_at is not None else self.asked_at
        seconds = None if start is None else round(max(0.0, self.clock() - start), 3)
        return Said(seat, value == right, value_question(op, (a, b)), value, seconds)

    # -- scoring -----------------------------------------------------------------------------

    def missing(self) -> list[int]:
        """The seats the engine waits for that still have to show their pair, or (tied in
        the last round) their leftover card."""
        shown = 1 if self.phase == "leftover" else 2
        return [s for s in sorted(self.match.pending.seats) if None in self.pairs[s][:shown]]

    def score(self) -> None:
        """Hand the cards shown to the engine; show its ruling, or mark what it refused."""
        if self.phase not in ("reveal", "leftover"):
            self.not_now("score tapped")
            return
        if missing := self.missing():
            seat = missing[0]
            self.refuse("arena.ui.missing_pair", f"seat {seat + 1} shows {self.pairs[seat]}", seat)
            return
        actions = self.checked()
        if isinstance(actions, WrongCards):
            self.mark(actions)
            return
        events = [e for action in actions for e in self.match.apply(action)]
        if self.state.phase == "deal":
            self.deal_hands()
        self.bad = set()
        self.ruling(tuple(events))

    def checked(self) -> tuple[Choose | ShowLeftover, ...] | WrongCards:
        """The engine's actions for the cards shown, or what the rules refuse in them."""
        try:
            return table_actions(self.state, [[c or "" for c in pair] for pair in self.pairs])
        except WrongCards as e:
            return e

    def mark(self, wrong: WrongCards) -> None:
        """Mark the cards the rules refuse, saying why and to fix them."""
        self.bad = set(wrong.cards)
        self.refuse(wrong.code, wrong.message, wrong.seat)
        self.message += " " + child_message("arena.said.fix_marked")

    def ruling(self, events: Sequence[Event], again: bool = False) -> None:
        """The device's ruling, each with its reason, in plain words (``again``: carried on)."""
        parts, codes, steps = list[str](), [e.code for e in events], reversed(self.match.steps)
        reveal = next(e.data for s in steps for e in s.events if e.code == "arena.reveal")
        won = [e for e in events if e.code == "arena.round_won"]
        self.winners = [e.seat for e in won if e.seat is not None]
        for e in events:
            if e.code == "arena.reveal":
                taken = len(won[0].data["cards"]) if won else 1
                parts.append(self.verdict_words(e.data, taken, again))
            elif e.code == "arena.pot_removed":
                tie = e.data["why"] == "tie"  # the leftovers tie too; "none": nobody had one
                parts.append(child_message(f"arena.said.pot_out{'_tie' * tie}"))
            elif e.code == "arena.leftovers":  # ARENA-4: each tied seat's leftover card
                shown = [(s, pip_value(c)) for s, c in enumerate(e.data["leftovers"]) if c]
                cards = and_joined([f"{self.name(s)} has {n}" for s, n in shown])
                parts.append(child_message("arena.said.leftovers", cards=cards))
            elif e.code == "arena.round_won" and "arena.leftovers" in codes:
                cards = plural(len(e.data["cards"]), "operator card")
                facts = {"name": self.name(e.seat or 0), "cards": cards}
                parts.append(child_message("arena.said.leftover_won", reveal, **facts))
            elif e.code == "arena.set_over":
                parts.append(child_message("arena.said.set_over", e.data))
            elif e.code == "arena.game_over":  # the cards each won, and who has the most
                counts = e.data["counts"]
                top = and_joined([self.name(s) for s, n in enumerate(counts) if n == max(counts)])
                score = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(counts))
                key = "over_shared" if counts.count(max(counts)) > 1 else "over"
                parts.append(child_message(f"arena.said.{key}", score=score, names=top))
        self.phase = "leftover" if self.state.phase == "leftover" else "result"
        if self.phase == "leftover":
            self.pairs = [[None, None] for _ in range(self.players)]
        self.sound("star" if self.winners else "round")
        self.verdict = " ".join(parts)
        self.say(self.verdict)
        if self.phase == "result":  # the story's line: what each seat played, and why
            sums = enumerate(reveal["sums"])
            plays = "; ".join(f"{self.name(s)} {said_as(f)}" for s, f in sums)
            self.narrate(self.round_label, f"{plays}. {self.verdict}")

    def verdict_words(self, reveal: Mapping[str, Any], taken: int, again: bool = False) -> str:
        """The ruling of a round's ``arena.reveal`` (``taken``: the cards a sole winner
        takes): the operator's rule, then who takes it, or what the tie does (ARENA-3/4);
        ``again`` (carried on), a tie the leftover cards decide names none: the step does."""
        top = [self.name(s) for s in reveal["winners"]]
        key = f"tie_{reveal['tie']}" if len(top) > 1 else "won_pot" if taken > 1 else "won"
        key += "_again" * (again and key == "tie_leftovers")
        op, cards = reveal["operator"], plural(taken, "card")
        facts = {"name": top[0], "names": and_joined(top), "operator": operator_name(op)}
        said = child_message(f"arena.verdict.{key}", reveal, **facts, cards=cards)
        return f"{rule_said(op)} {said}"

    def next_round(self) -> bool:
        """After a ruling: the next round; True when the game is over (the results)."""
        if self.phase != "result":
            self.not_now("next tapped")
            return False
        if not self.finished:
            self.begin_round()
        return self.finished

    def next_step(self) -> str:
        """What the device waits for now, naming who (the instruction line)."""
        seats = [s for s in range(self.players) if not self.ready[s]]
        if self.phase in ("operator", "countdown"):
            step = self.phase
        elif self.phase == "ready":
            step = "waiting" if any(self.ready) else "pick" if self.cards == "virtual" else "ready"
        elif self.phase == "leftover" and (missing := self.missing()):
            step, seats = "leftover", missing
        elif self.phase == "reveal" and self.missing():
            step = "face_up"
        elif seats := [s for s in range(self.players) if self.can_say(s)]:
            step = "say_value"
        elif self.phase == "result":
            step = "results" if self.finished else "next_round"
        else:
            step = "score"
        names = and_joined([self.name(s) for s in seats])
        return child_message(f"arena.step.{step}", names=names)

    def row_text(self, seat: int) -> tuple[str, str, bool]:
        """A seat row's words (the table's), tone (the palette's name) and boldness."""
        (a, b), op = self.pairs[seat], self.shown.operator
        sums = pair_sum(op, (a, b)) if a and b and op else None

        def row(key: str, tone: str, bold: bool = True, **facts: object) -> tuple[str, str, bool]:
            return child_message(f"arena.table.row_{key}", facts), tone, bold

        if self.phase == "reveal" and sums and not self.is_bot(seat):
            if seat not in self.said:  # the child says it first
                return row("say", "selected", True, **self.values(seat))
            if (said := self.said[seat]) == sums["value"]:
                return f"{said_as(sums)} \u2713", "good", True
            return row("wrong", "bad", sum=said_as(sums), said=said)
        if self.phase in ("reveal", "result") and sums:
            win = seat in self.winners and self.phase == "result"
            return row("wins", "good", sum=said_as(sums)) if win else (said_as(sums), "ink", False)
        if self.phase == "leftover" and seat in self.state.tied:
            return row("leftover", "ink", value=pip_value(a)) if a else row("show_leftover", "ink")
        if self.phase == "result" and a and not b:  # the leftover card that decided (ARENA-4)
            win = seat in self.winners
            key = "leftover_wins" if win else "leftover"
            return row(key, "good" if win else "ink", win, value=pip_value(a))
        if self.phase in ("ready", "countdown"):  # a bot's row: a child's has its tile
            return row("ready", "good") if self.ready[seat] else row("thinking", "muted", False)
        return row("turn_up", "muted", False) if self.phase == "reveal" else ("", "muted", False)

    def wants_press(self, seat: int) -> bool:
        """The seat is a child's who still has to press (the reveal waits for them)."""
        return self.phase in ("ready", "countdown") and not self.is_bot(seat)

    # -- undo and never lose a game (issue 10) ------------------------------------------------

    def can_undo(self) -> bool:
        return bool(self.checkpoints)

    @property
    def checkpoints(self) -> list[int]:
        """Where undo goes back to (the match's length): before every operator card
        entered (camera play) and before every scoring (pairs, or leftover cards)."""
        history = self.match.history
        entered = (i for i, a in enumerate(history) if isinstance(a, RevealOperator))
        return sorted([*scorings(history), *(entered if self.cards == "table" else ())])

    def undo(self) -> None:
        """Take back the last operator card entered or the last scored round: the round
        again as it was, its cards (and the values said) still shown."""
        if not (points := self.checkpoints):
            self.refuse("engine.nothing_to_undo", "no checkpoint")
            return
        taken = [self.match.undo() for _ in range(self.match.moves - points[-1])][::-1]
        log.info("math-arena: undo took back %s", taken)
        said, self.phase, self.early = self.said, "operator", None
        self.fresh_round()
        if isinstance(taken[0], Choose | ShowLeftover):
            self.phase = "reveal" if isinstance(taken[0], Choose) else "leftover"
            self.ready = [True] * self.players
            self.said = said if self.phase == "reveal" else {}
            self.show_played(taken)
        self.sound("tap")
        again = "operator" if self.phase == "operator" else "cards"
        self.say(child_message(f"arena.undone.{again}"))

    def show_played(self, actions: Sequence[Action]) -> None:
        """The cards a scoring's ``actions`` played, back on their rows (and in a virtual
        hand's picks)."""
        for act in actions:
            if isinstance(act, ShowLeftover):
                self.pairs[act.seat] = [act.card, None]
            elif isinstance(act, Choose):
                self.pairs[act.seat] = [*act.cards]
                if self.cards == "virtual":
                    self.picks[act.seat] = act.cards

    def record(self) -> dict[str, Any]:
        """The round beyond the match: its phase, who is ready, the pairs read, the picks,
        the values said, and the countdown's, the bots' and the reveal's moments (seconds
        of play), with its match's :meth:`stamp`. The keys are the journal's: keep them
        readable."""
        return {
            **self.stamp(),
            "phase": self.phase,
            "ready": list(self.ready),
            "picks": {str(s): list(pick) for s, pick in self.picks.items()},
            "pairs": [list(pair) for pair in self.pairs],
            "bad": sorted([list(b) for b in self.bad]),
            "said": {str(s): v for s, v in self.said.items()},
            "countdown": self.countdown_end,
            "bot_due": {str(s): t for s, t in self.bot_press_at.items()},
            "revealed": self.revealed_at,
        }

    def carry_on(self, record: Any) -> None:
        """The round again around the match replayed from the journal: from the record
        when it belongs to this match, else from the match alone (the device stopped
        between the two writes: the last step the match shows)."""
        self.deal_hands()
        history, st = self.match.history, self.state
        record = self.own(record)
        scored = last_scoring(history)  # the scoring the match ends with
        self.fresh_round()
        if st.phase == "choose":
            self.operator_out()  # the bots pick again: the same picks (keyed)
        elif scored and (st.phase == "leftover" or (record or {}).get("phase") != "operator"):
            start = scored.start
            self.shown = self.match.steps[start - 1].state if start else self.match.initial
            self.ruling([e for step in self.match.steps[start:] for e in step.events], True)
            if self.phase == "result":  # the ruling's cards stay on the rows, as they were
                self.show_played(history[scored])
        else:
            self.begin_round()
        if record is not None:
            try:
                self.restore(record)
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                log.warning("math-arena: the saved round does not read (%s): dropped", exc)
        self.say(child_message("ui.welcome_back", what=self.message).strip())

    def restore(self, record: Mapping[str, Any]) -> None:
        phase = str(record["phase"])
        if self.state.phase == "choose" and phase in ("ready", "countdown", "reveal"):
            self.phase = phase
            self.ready = [bool(r) for r in record["ready"]][: self.players]
            self.picks.update({int(s): (str(a), str(b)) for s, (a, b) in record["picks"].items()})
        if self.phase in ("reveal", "leftover"):
            self.pairs = [[p[0], p[1]] for p in record["pairs"]][: self.players]
            self.bad = {(int(s), int(slot)) for s, slot in record["bad"]}
            self.said = {int(s): int(v) for s, v in record["said"].items()}
            revealed = record.get("revealed")  # none in a record from before
            self.revealed_at = None if revealed is None else float(revealed)
        if self.phase in ("ready", "countdown"):
            due = {int(s): float(t) for s, t in record["bot_due"].items()}
            self.bot_press_at = {s: t for s, t in due.items() if not self.ready[s]}
            end = record.get("countdown")
            if self.phase == "countdown":
                self.countdown_end = self.clock() if end is None else float(end)
        if self.phase in AGAIN and (self.phase != "ready" or any(self.ready)):
            self.say(child_message(AGAIN[self.phase]) if AGAIN[self.phase] else "")


__all__ = ["BOT_SECONDS", "BOT_STAGGER", "COUNTDOWN", "GAME", "ArenaPlay", "Said"]
