"""The device's side of a M.E.C.S. table, without pygame (:class:`MecsPlay`).

Cards reach the game three ways, all as "seat S's area now reads these cards"
(:meth:`MecsPlay.submit_area`): the camera, an area edited by touch, a bot's move. The
engine rules on them; a refusal is one short sentence on screen and the engine's exact
message in the log. A wrong reading is fixed by editing the area (:meth:`MecsPlay.correct`).
The cards are dealt by a :func:`~tabletop.ui.saves.keyed_dealer` and the bots decide from
the state alone, so a match replayed from the journal plays on as the uninterrupted one
(issue 10); what is not in the match is :meth:`MecsPlay.record`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tabletop.bots.mecs import LEVELS, decide
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match, Step
from tabletop.engine.protocol import Event, Result
from tabletop.engine.words import and_joined, plural
from tabletop.games.mecs import (
    CHANCE_TYPES,
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
    area_owner,
    fix_reading,
    held_cards,
    may_end_turn,
    may_trade,
    mecs_stack,
    meets_objective,
    objective,
    read_card,
    trade_sources,
)
from tabletop.games.mecs_equation import (
    DIGITS,
    FACE,
    PLAY_CARDS,
    Verdict,
    card_coins,
    coin_breakdown,
    evaluate,
    render,
)
from tabletop.store import SeatInfo
from tabletop.ui.controller import Ask, TableController
from tabletop.ui.games.mecs.questions import equation_question
from tabletop.ui.messages import child_message, seats_named
from tabletop.ui.saves import GameSave, keyed_dealer, seats_of, standings_result

log = logging.getLogger(__name__)

GAME = Mecs()
BOT_SECONDS = 1.2  # a bot waits this long before it moves, so children can follow
BANNER_SECONDS = 3.0
DECK_NAMES = {"beginners": "beginners' deck", "advanced": "advanced deck"}
BOT_LEVEL = "hard"  # a bot seat given as (name, True): the bot as it was before MECS-12
# The engine's refusals of a hack whose equation the device checked and found wrong.
HACK_CHECKS = ("mecs.hack_invalid", "mecs.hack_objective")
# The tone of what an event says (info when not here).
GOOD_NEWS = ("completed", "hacked", "objective_waiting", "objective", "objective_met")
TONES = {f"mecs.{code}": "good" for code in GOOD_NEWS} | {"mecs.objective_missed": "error"}
# Faces of the cards as read aloud on screen (x² rather than a lone ²).
LABEL = {**FACE, "SQ": "x²"}
STACKS = (("numbers", "Numbers"), ("symbols", "Symbols"))


def coin_words(cards: Sequence[str]) -> str:
    """Why an equation is worth its coins (MECS-3), in the table's words: ``4 numbers × 1
    + ...`` (the engine's :func:`coin_breakdown`), a sum inside a sentence (no full stop)."""
    parts = [
        child_message(f"mecs.won.coins_{k.replace(' ', '_')}{'_one' * (n == 1)}", count=n, each=e)
        for k, n, e in coin_breakdown(cards)
    ]
    sums = " + ".join(part.rstrip(".") for part in parts)
    return child_message("mecs.won.coins", sum=sums, coins=card_coins(cards)).rstrip(".")


@dataclass
class Banner:
    """A big message over the table for a few seconds: "Complete!", "Hacked!"; its coins
    fly from the area ``source`` to the seat ``to_seat``."""

    title: str
    text: str
    start: float
    coins: int = 0
    source: int | None = None
    to_seat: int | None = None

    @property
    def until(self) -> float:
        return self.start + BANNER_SECONDS


def labels(cards: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """Cards as a grid's choices, each under its face."""
    return tuple((c, LABEL[c]) for c in cards)


def why_not(verdict: Verdict) -> str:
    """Why cards are not a right equation (yet), in the child's words (MECS-2)."""
    return child_message(str(verdict.code), dict(verdict.facts))


def _ruling(key: str, tone: str, **facts: Any) -> tuple[str, str, str]:
    """An area's ruling ``mecs.area.<key>``: the sentence, ``tone`` and the short one."""
    short = child_message(f"mecs.area.{key}_short", facts)
    return child_message(f"mecs.area.{key}", facts), tone, short


def seat_infos(seats: Sequence[Sequence[Any] | SeatInfo]) -> list[SeatInfo]:
    """The journal's seats for :class:`SeatInfo` rows or (name, is a bot[, its level])
    as the table journals them. A bot with no level, one from before the levels
    ("standard") or one the device does not know is the hard bot (MECS-12)."""
    infos = seats_of(seats, BOT_LEVEL)
    return [s if s.bot in (None, *LEVELS) else replace(s, bot=BOT_LEVEL) for s in infos]


class MecsPlay(TableController):
    """One game of M.E.C.S. at the device (see the module). ``seats``: the journal's
    seats; ``bot_driver`` "scene": the bots move by themselves, "external": the demo
    plays their moves through the screen. ``clock`` and ``sound`` are the
    device's; the scene sets ``save`` so that checked equations are journaled."""

    def __init__(
        self,
        seats: Sequence[Sequence[Any] | SeatInfo],
        settings: MecsSettings,
        seed: int,
        *,
        bot_driver: str = "scene",
        match: Match[MecsSettings, MecsState, Action] | None = None,
        clock: Callable[[], float] = lambda: 0.0,
        sound: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.seats = seat_infos(seats)
        self.settings, self.seed, self.bot_driver = settings, seed, bot_driver
        self.match: Match[MecsSettings, MecsState, Action] = match or Match(
            GAME, settings, len(self.seats), seed=seed
        )
        self.dealer = keyed_dealer(seed, self.match)
        self.clock, self.sound = clock, sound
        self.save: GameSave | None = None
        self.message = child_message("mecs.said.deal")
        self.banner: Banner | None = None
        self.readings: dict[int, tuple[str, ...]] = {}  # camera readings the game refused
        # a fix of a reading that takes back what the device acted on, waiting for the
        # teacher's PIN: (seat, cards)
        self.fix_waiting: tuple[int, tuple[str, ...]] | None = None
        self.refill_seat: int | None = None
        # the story's lines of each step told so far (:attr:`story`), by the step's id
        self.steps_told: dict[int, tuple[Step[MecsState, Action], list[tuple[int, str]]]] = {}

    # -- what the table is ----------------------------------------------------------------------

    @property
    def state(self) -> MecsState:
        return self.match.state

    @property
    def finished(self) -> bool:
        return self.state.phase == "over"

    @property
    def story(self) -> list[tuple[int, str]]:
        """What happened, told from the match (an undo or a fixed reading tells it anew):
        (turn, sentence) for every event but a draw. Each step is put in words once: the
        demo asks after every move."""
        return [line for step in self.match.steps for line in self._story_of(step)]

    def _story_of(self, step: Step[MecsState, Action]) -> list[tuple[int, str]]:
        """A step's lines of the story, kept with the step (so that its id stays its own)."""
        if id(step) not in self.steps_told:
            lines = [
                (step.state.turn, self.words(e.text))
                for e in step.events
                if e.code != "mecs.drew"  # every refill would crowd out what matters
            ]
            self.steps_told[id(step)] = (step, lines)
        return self.steps_told[id(step)][1]

    def name(self, seat: int) -> str:
        return self.called(seat, self.seats[seat].name)

    def level(self, seat: int) -> str:
        """The seat's bot level (a child's moves, played for it by the demo: the hard bot's)."""
        return self.seats[seat].bot or BOT_LEVEL

    def words(self, text: str) -> str:
        """An engine sentence with the seats' names instead of "Player N"."""
        names = [self.name(s) for s in range(len(self.seats))]
        return seats_named(re.sub(r"Player (\d)", r"Seat \1", text), names)

    def is_scene_bot(self, seat: int) -> bool:
        return self.seats[seat].bot is not None and self.bot_driver == "scene"

    def standings(self) -> Result:
        """The result, or before the end the standings: coins won so far (MECS-6)."""
        coins = [self.state.coins(s) for s in range(len(self.seats))]
        words = ", ".join(f"{s.name} {c}" for s, c in zip(self.seats, coins))  # the journal's
        return GAME.result(self.state) or standings_result(coins, f"stopped with coins {words}")

    def wants(self, purpose: str) -> int | None:
        """The seat whose card the device waits for to be shown (``reveal``: who starts,
        ``objective``: the next objective card), None when it waits for no such card."""
        want = self.state.queue[0] if self.state.queue else None
        if want is None or want.purpose != purpose or self.match.pending.chance is None:
            return None
        return want.seat

    def pending_seat(self) -> int | None:
        """The seat whose decision the game waits for (the refill seat if chosen)."""
        pending = self.match.pending
        if pending.chance is not None or not pending.seats:
            return None
        return self.refill_seat if self.refill_seat in pending.seats else min(pending.seats)

    def next_step(self) -> str:
        """What the device waits for now, naming who (the instruction line)."""
        state, seat, shows = self.state, self.pending_seat(), self.wants("reveal")
        if state.phase == "over":
            step = "over"
        elif shows is not None:
            step, seat = "who_starts", shows
        elif self.wants("objective") is not None:
            step = "objective"
        elif seat is None:
            step = "dealing"
        elif state.phase == "refill":
            step = "refill_bot" if self.is_scene_bot(seat) else "refill"
        elif self.is_scene_bot(seat):
            step = "thinking"
        else:
            step = "plant" if state.phase == "plant" else "planted"
        name = "" if seat is None else self.name(seat)
        return child_message(f"mecs.step.{step}", name=name, turn=state.turn)

    def goal_line(self) -> str:
        """The race or the objective, in one line."""
        state, s = self.state, self.settings
        facts = {"number": len(state.met) + 1, "of": s.objectives, "goal": self.goal()}
        lead = max(range(len(self.seats)), key=state.coins)
        facts |= {"name": self.name(lead), "coins": state.coins(lead), "target": s.target_coins}
        goal = "leading" if state.coins(lead) else "race"
        if s.mode == "challenge":
            goal = "all_met" if len(state.met) >= s.objectives else "next"
            goal = "shown" if state.objective is not None else goal
        return child_message(f"mecs.goal.{goal}", facts, deck=DECK_NAMES[s.deck])

    def goal(self, number: int | None = None) -> str | None:
        """An objective card in words (challenge mode, MECS-6): card ``number``, else the
        one shown; None when neither is."""
        number = number or self.state.objective
        return None if number is None else objective(number).text

    def missed(self) -> str:
        """The objective a true equation missed, in words (MECS-6)."""
        goal = self.goal()
        return "no objective card was shown yet" if goal is None else f"the objective is {goal}"

    def lit(self) -> list[int]:
        """The seats whose lamps are lit: who shows a card, or who is to decide."""
        pending = self.match.pending
        if self.finished:
            return []
        if pending.chance is not None and self.state.queue:
            return [self.state.queue[0].seat]
        return sorted(pending.seats)

    def hand_owner(self) -> int | None:
        """Whose hand the screen shows: virtual play, a child's move pending."""
        seat = self.pending_seat()
        if self.settings.play != "virtual" or seat is None or self.seats[seat].bot:
            return None
        return seat

    def taken(self) -> int | None:
        """Where in the shown hand (:meth:`hand_owner`) is the card the device took for
        it from the next player's hand (MECS-4), while the take is the news (the last
        move); None from its next move on."""
        owner, last = self.hand_owner(), self.match.steps[-1:]
        took = [e for s in last for e in s.events if e.code == "mecs.took" and e.seat == owner]
        hand = () if owner is None else self.state.players[owner].hand
        card = took[0].data["card"] if took else None
        return hand.index(card) if card in hand else None

    def lost(self, seat: int) -> str:
        """Which card the turn before took from ``seat``'s hand (MECS-4), while that is the
        news: until ``seat``'s own take stops being the last move. "Bo took your card “7”."
        ("" if none was)."""
        takes = (e for s in reversed(self.match.steps) for e in s.events if e.code == "mecs.took")
        e = next(takes, None)
        if e is not None and e.seat == seat and e in self.match.steps[-1].events:
            e = next(takes, None)  # its own take is the news: the one before it
        if e is None or e.seat is None or e.data["from"] != seat:
            return ""
        return child_message("mecs.said.lost", name=self.name(e.seat), card=LABEL[e.data["card"]])

    def area_status(self, seat: int) -> tuple[str, str, str] | None:
        """The device's ruling on an area with its reason, its tone (bad, good, muted), and
        the ruling in a few words for an area too narrow for the reason (tapping the area
        opens the editor, which gives it)."""
        if seat in self.readings:
            return _ruling("refused", "bad")
        cards = self.state.players[seat].area
        if not cards:
            return None
        verdict = evaluate(cards)
        if not verdict.valid:
            return _ruling("unfinished", "muted", what=why_not(verdict))
        if not meets_objective(self.state, verdict):
            facts = {"answer": verdict.answer_text, "goal": self.goal()}  # None: none shown yet
            return _ruling("missed" if facts["goal"] else "waiting", "bad", **facts)
        return _ruling("right", "good", equation=verdict.text)

    def can_end(self) -> bool:
        return not self.is_scene_bot(self.state.active) and may_end_turn(self.state)

    def can_trade(self) -> bool:
        return not self.is_scene_bot(self.state.active) and may_trade(self.state)

    def can_refill(self, stack: str) -> bool:
        """A child may draw from ``stack`` now (a bot the device moves draws by itself)."""
        seat = self.pending_seat()
        return (
            seat is not None and not self.is_scene_bot(seat) and bool(self.state.stack(stack).size)
        )

    def palette(self, seat: int) -> tuple[tuple[str, ...], list[str], bool]:
        """The area editor for ``seat``: the cards it starts with, what may be put down
        (the hand of the child who plays now in virtual play, none while a bot plays: its
        cards are its own to put down; every card when the device cannot see hands) and
        whether cards there may be changed (fixing a reading)."""
        state = self.state
        start = self.readings.get(seat, state.players[seat].area)
        if self.settings.play != "virtual":
            return start, list(PLAY_CARDS), True
        actor = state.active if state.phase in ("plant", "planted") else seat
        held = {} if self.seats[actor].bot else held_cards(state, actor)
        palette = [c for c, n in held.items() for _ in range(n) if c != "?"]
        return start, sorted(palette, key=PLAY_CARDS.index), False

    def outcome_lines(self) -> list[str]:
        """The game's lines on the results screen: the mode, the deck, turns and equations."""
        done = sum(e.code == "mecs.completed" for step in self.match.steps for e in step.events)
        s, turns = self.settings, plural(self.state.turn, "turn")
        facts = {"target": s.target_coins, "turns": turns, "equations": plural(done, "equation")}
        keys = (s.mode, f"deck_{s.deck}", "played", "completed")
        return [child_message(f"mecs.results.{key}", facts) for key in keys]

    def ended(self) -> str:
        """Why the game ended (the last event: an equation that won, the last objective
        met, the cards out), or that it was stopped before its end (the results' reason)."""
        last = self.match.steps[-1].events[-1] if self.finished else None
        if last is None:
            return child_message("mecs.ended.stopped")
        facts = {**last.data, "name": self.name(last.seat or 0), "of": self.settings.objectives}
        return child_message(last.code.replace("mecs.", "mecs.ended."), facts)

    # -- the game -----------------------------------------------------------------------------

    def perform(self, action: Action, *, camera: bool = False) -> bool:
        """Apply one action; a refusal is told, never raised. ``camera``: ``action`` is
        the camera's reading of an area, and one the game refuses is kept
        (:attr:`readings`, shown faded) until one it takes."""
        seat = area_owner(action)
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            cards = action.area if isinstance(action, Hack) else ()
            cards = action.reads if isinstance(action, Observe) else cards
            if exc.code == "mecs.take_back" and isinstance(action, Observe) and not camera:
                self.correct(action.area_of, cards)  # by touch: a card there was changed
                return False
            again = False  # the same camera reading seen again: not checked again
            if camera and seat is not None:
                again = self.readings.get(seat) == cards
                self.readings[seat] = cards
            # cards laid in another's area in the active player's turn: a hack for the
            # engine (MECS-5); its owner (a child) may have laid them out of turn: the turn first
            turn = camera and exc.code.startswith("mecs.hack") and seat is not None
            turn = turn and seat != self.state.active and self.seats[seat or 0].bot is None
            self.refuse(exc, checked=not again, cards=cards, turn=turn)
            return False
        if seat is not None:
            self.readings.pop(seat, None)
        self.told(events)
        self.settle()
        return True

    def refuse(
        self,
        exc: TabletopError,
        *,
        checked: bool = True,
        cards: Sequence[str] = (),
        turn: bool = False,
    ) -> None:
        """Tell a refusal. A hack the engine refused because its equation is wrong (or
        misses the objective) is an equation the device checked: counted as not right,
        unless ``checked`` is False (the same camera reading seen again). A wrong
        equation's ``cards`` are journaled with its question (issue 24). ``turn``: said
        after whose turn it is."""
        code, hack = exc.code, exc.code in HACK_CHECKS and bool(cards)
        log.info("mecs: refused %s: %s", code, exc)
        if checked and code in HACK_CHECKS and self.state.phase in ("plant", "planted"):
            missed = self.missed() if code == HACK_CHECKS[1] else None
            self.checked(self.state.active, False, cards, missed)
        who = self.wants("reveal")
        if code == "mecs.setup" and who is not None:  # the who-starts card, not a deal
            self.wrong("mecs.ui.who_starts", who=self.name(who))
            return
        verdict = evaluate(cards) if hack else None
        why = ""
        if verdict is not None and not verdict.valid:  # its mistake: "9 × 7 = 63, not 6"
            why = f" {why_not(verdict)}"
        elif verdict is not None and self.state.objective is not None:  # the objective missed
            why = " " + child_message(
                "mecs.told.missed", answer=verdict.answer_text, goal=self.goal()
            )
        name = self.name(self.state.active)
        before = child_message("mecs.not_now.turn", {"name": name}) + " " if turn else ""
        self.wrong(code, why, before, who=name)

    def wrong(self, code: str, after: str = "", before: str = "", **facts: Any) -> None:
        """The "wrong" cue, and the child's sentence for ``code`` (``after`` it: why)."""
        self.sound("wrong")
        self.say(before + child_message(code, facts) + after, "error")

    def wrong_phase(self, why: str) -> None:
        """Not now, and ``why`` (``mecs.not_now.<why>``), naming whose turn it is."""
        self.wrong(f"mecs.not_now.{why}", name=self.name(self.state.active))

    def settle(self) -> None:
        """Deal what the device deals (in camera play a person shows the who-starts and
        the objective cards)."""
        while not self.finished and (request := self.match.pending.chance) is not None:
            if self.settings.play != "virtual" and len(request.outcomes) > 1:
                break
            refill = any(want.purpose == "refill" for want in self.state.queue[:1])
            self.told(self.match.apply(self.dealer.deal(request)), refill=refill)

    def told(self, events: Sequence[Event], *, refill: bool = False) -> None:
        """The engine's events as sentences, banners and cues; a card drawn is said only
        for a ``refill`` (a deal's or a trade's would hide what matters), a hack by the
        completion that always follows it."""
        now = self.clock()
        waiting = ""  # MECS-9: why an equation already down counted when the card came
        said: tuple[str, str] | None = None
        skipped = ("mecs.hacked",) if refill else ("mecs.hacked", "mecs.drew")
        for event in (e for e in events if e.code not in skipped):
            data, seat, what = event.data, event.seat, event.code
            winner = seat if seat is not None else 0  # a score's seat (0: the deal's)
            facts = {**data, "name": self.name(winner), "area": render(data.get("area", ()))}
            facts |= {
                "goal": self.goal(data.get("objective")),
                "card": LABEL.get(data.get("card", "")),
                "of": self.settings.objectives,
                "names": and_joined([self.name(s) for s in data.get("tied", ())]),
            }
            if what == "mecs.completed":
                cards = list(data.get("cards", ()))
                if seat is not None:  # an equation checked and right (it scores)
                    self.checked(seat, True, cards)
                owner = int(data.get("area_of", winner))
                facts |= {"owner": self.name(owner), "equation": render(cards), "count": len(cards)}
                text = child_message(f"mecs.said.completed{'_from' * (owner != winner)}", facts)
                # a hack is announced as one; MECS-9: why it counted now
                won = "objective" if waiting else "hacked" if owner != winner else "complete"
                title, why = child_message(f"mecs.banner.{won}"), coin_words(cards)
                says = child_message(f"mecs.won.{won}", facts, why=why, waiting=waiting.rstrip("."))
                coins = int(data.get("coins", 0))
                self.banner = Banner(title, says, now, coins=coins, source=owner, to_seat=winner)
                self.sound("star")
            elif what == "mecs.took" and seat is not None:  # a hand shown, real cards, a bot's
                facts["giver"] = self.name(int(data["from"]))
                camera = self.settings.play == "camera"  # the child takes it from the hand now
                key = "took" if seat == self.hand_owner() else "take" if camera else "took_hidden"
                text = child_message(f"mecs.said.{key}", facts)
            elif what == "mecs.planted" and seat is not None:  # each card by its name
                card, *other = [LABEL.get(c, c) for c in data["cards"]]
                key = f"mecs.said.planted{'_two' * bool(other)}"
                text = child_message(key, facts, card=card, other="".join(other))
            elif what == "mecs.traded" and seat is not None:  # the card where it shows
                card = LABEL.get(data["card"]) if self.settings.play == "virtual" else None
                key = f"mecs.said.traded{'_card' * bool(card)}"
                text = child_message(key, facts, card=card, stack=data["draw_from"])
            elif what == "mecs.turn_ended" and seat is not None:
                ended = "passed" if data.get("passed") else "ended"
                text = child_message(f"mecs.said.{ended}", facts)
            elif what == "mecs.objective_waiting":
                waiting = text = child_message("mecs.said.objective_waiting", facts)
            elif what == "mecs.objective_missed" and seat is not None:
                area = self.state.players[seat].area  # true, but not what the card asks
                self.checked(seat, False, area, self.missed())
                text = child_message(f"mecs.area.{'missed' if facts['goal'] else 'waiting'}", facts)
            else:  # the turn, a card drawn or shown, a hack (its completion follows), ...
                text = child_message(what.replace("mecs.", "mecs.said."), facts)
            said = (text, TONES.get(what, "info"))
        if waiting and (said is None or said[1] != "error"):  # what just happened, and why
            said = (child_message("mecs.said.why", what=waiting), "good")
        if said is not None:
            self.say(*said)

    def checked(
        self, seat: int, right: bool, cards: Sequence[str], missed: str | None = None
    ) -> None:
        """An equation of ``seat`` the device checked: counted, and journaled with its
        question (issue 24): the side worked out, the value the child set beside it and
        the seconds since the turn began; ``missed``: the objective a true equation
        misses (MECS-6). Cards that make no question are counted, not journaled."""
        if self.save is None:
            return
        self.save.checked(seat, right)
        found = equation_question(cards, missed)
        if found is not None:
            turns = [self.match.initial.turn, *(step.state.turn for step in self.match.steps)]
            began = turns.index(self.state.turn)  # the match's length when the turn began
            seconds = self.save.seconds_since(began)
            self.save.answered(seat, *found, step=len(turns) - 1, seconds=seconds)

    # -- input --------------------------------------------------------------------------------

    def cards_seen(self, seat: int | None, zone: str | None, raw: Sequence[str]) -> str | None:
        """A steady camera reading of one zone (``seat`` 1-based, ``raw`` what was read):
        an area, or one card held up alone. Returns the card whose page to open (one card
        held up that the game does not wait for; while it waits for who starts, a card
        that is not a number is refused instead, saying what to show)."""
        codes = [read_card(text) for text in raw]
        if seat is not None and zone == "equation":
            if not 0 < seat <= len(self.seats):
                log.info("mecs: cards seen at seat %s, which is not in this game", seat)
            elif None in codes:
                log.info("mecs: not a M.E.C.S. card in seat %d's area: %s", seat, list(raw))
                what = "unreadable" if "?" in raw else "not_ours_area"
                self.wrong(f"mecs.ui.{what}", name=self.name(seat - 1))
            else:
                self.submit_area(seat - 1, tuple(c for c in codes if c is not None), camera=True)
            return None
        if len(codes) != 1 or (seat is not None and zone is not None):
            log.debug("mecs: ignoring cards in %s/%s", seat, zone)
            return None
        code = codes[0]
        if code is None:
            log.info("mecs: a card held up alone is not ours: %s", list(raw))
            self.wrong("mecs.ui.unreadable_held" if raw[0] == "?" else "mecs.ui.not_ours")
        elif (who := self.wants("reveal")) is not None:  # who starts: a number card (MECS-4)
            if code in DIGITS:
                self.perform(Draw(code))
            else:
                self.wrong("mecs.ui.number_card", who=self.name(who))
        elif self.wants("objective") is not None and code.startswith("OBJ"):
            self.perform(ShowObjective(int(code[3:])))
        else:
            return code
        return None

    def submit_area(self, seat: int, reads: tuple[str, ...], *, camera: bool = False) -> None:
        """Seat ``seat``'s area now reads ``reads``: a plant, a reorder, a hack, or (by
        touch, when cards changed that were there) a correction of an earlier reading."""
        if reads == self.state.players[seat].area:
            self.readings.pop(seat, None)  # e.g. a lifted card was put back
        else:
            self.perform(Observe(seat, reads), camera=camera)

    def correct(self, seat: int, reads: tuple[str, ...], *, teacher: bool = False) -> None:
        """Fix a wrong reading of ``seat``'s area: replace the last move that changed it
        with this reading and play the later moves again. A fix that takes back what the
        device acted on (a later move dropped, or coins won or lost) waits for the
        teacher's PIN (:attr:`fix_waiting`); ``teacher``: the PIN was given."""
        self.fix_waiting = None
        try:
            fix = fix_reading(self.match, seat, reads)
        except TabletopError as exc:
            self.refuse(exc)
            return
        if fix.takes_back and not teacher:
            self.fix_waiting = (seat, reads)
            log.info("mecs: fixing seat %d's area to %s waits for the teacher", seat, reads)
            self.say(child_message("mecs.ui.fix_needs_teacher", {}), "info")
            return
        self.match, dropped = fix.match, fix.dropped
        log.info("mecs: corrected seat %d's area to %s; %d moves dropped", seat, reads, dropped)
        self.dealer = keyed_dealer(self.seed, fix.match)
        if self.save is not None:
            self.save.attach(fix.match)  # the journal rewrites from the first changed step
        key, name = f"mecs.told.fixed{'_empty' * (not reads)}", self.name(seat)
        moves = child_message("mecs.told.dropped", moves=plural(dropped, "later move"))
        self.say(child_message(key, name=name, cards=render(reads)) + f" {moves}" * bool(dropped))
        self.settle()

    def teacher_fix(self, given: bool) -> None:
        """The teacher's answer to :attr:`fix_waiting`: the PIN was ``given`` (the fix is
        made) or not (nothing changes)."""
        waiting, self.fix_waiting = self.fix_waiting, None
        if given and waiting is not None:
            self.correct(*waiting, teacher=True)
        else:
            self.say(child_message("mecs.ui.fix_kept", {}))

    def seat_pressed(self, seat: int) -> None:
        """A seat's button: the refill seat says it draws now (not a bot's: it draws by
        itself), the active seat ends its turn when it may (MECS-4: cards put down, or none
        left to put)."""
        if not 0 <= seat < len(self.seats):
            return
        state = self.state
        refill = state.phase == "refill" and seat in self.match.pending.seats
        if refill and self.is_scene_bot(seat):
            self.wrong("mecs.not_now.bot_draws", name=self.name(seat))
        elif refill:
            self.refill_seat = seat
            self.say(child_message("mecs.said.which_stack", name=self.name(seat)))
        elif seat == state.active and may_end_turn(state):
            self.perform(EndTurn(seat))
        elif state.phase in ("plant", "planted") and seat == state.active:
            self.wrong_phase("plant_first")
        elif state.phase in ("plant", "planted"):
            self.wrong_phase("turn")
        else:
            self.wrong_phase("wait")

    def press(self, name: str) -> Ask | None:
        """A touch target of the game's: ``end``, ``trade``, ``refill.<stack>``,
        ``reveal.<digit>``, ``objective`` or ``cards`` (a card's page). Returns the
        choice it asks first, if any; a target that is not for now says why."""
        kind, _, arg = name.partition(".")
        state, request = self.state, self.match.pending.chance
        hand, seat = state.players[state.active].hand, self.pending_seat()
        if name == "cards":
            return Ask("page", child_message("mecs.ask.page"), labels(PLAY_CARDS), 7, 3, cards=True)
        if name in ("end", "trade") and self.is_scene_bot(state.active):
            self.wrong_phase("turn")  # it moves by itself
        elif name == "end":
            self.perform(EndTurn(state.active))
        elif name == "trade" and not may_trade(state):
            self.perform(Trade(state.active, "?", "numbers", "numbers"))  # told why not
        elif name == "trade" and self.settings.play == "virtual" and "?" not in hand:
            title = child_message("mecs.ask.trade")
            return Ask("trade", title, labels(dict.fromkeys(hand)), 5, 2, cards=True)
        elif name == "trade":  # real cards: the device cannot see which card went back
            return Ask("under", child_message("mecs.ask.under"), STACKS, 2, 1)
        elif name == "objective" and request is not None and request.kind == "objective":
            numbers = [o.number for o in request.outcomes if isinstance(o, ShowObjective)]
            grid = tuple((f"OBJ{n}", f"{n}") for n in numbers)
            words = tuple((f"OBJ{n}", objective(n).text) for n in numbers)  # as printed
            return Ask("objective", child_message("mecs.ask.objective"), grid, 2, 5, captions=words)
        elif name == "objective":
            self.wrong_phase("objective_out")
        elif kind == "refill" and (state.phase != "refill" or seat is None):
            self.wrong_phase("refill")
        elif kind == "refill" and seat is not None and self.is_scene_bot(seat):
            self.wrong("mecs.not_now.bot_draws", name=self.name(seat))  # it draws by itself
        elif kind == "refill" and seat is not None and self.perform(Refill(seat, mecs_stack(arg))):
            self.refill_seat = None
        elif kind == "reveal":
            self.perform(Draw(arg))
        return None

    def taps_for(self, action: Action) -> tuple[str, ...]:
        """The touch targets that make ``action``, in order (:meth:`press`, then the
        choices it asks); none for cards, which are shown to the camera."""
        if isinstance(action, Trade):  # the card back (or its stack), the stack drawn from
            back = action.under if action.card == "?" else action.card
            return ("trade", f"choice.{back}", f"choice.{action.draw_from}")
        if isinstance(action, Refill):
            return (f"refill.{action.stack}",)
        return ("end",) if isinstance(action, EndTurn) else ()

    def answer(self, ask: Ask, key: str) -> Ask | None:
        """The choice ``key`` made for ``ask``: a trade's card (or the stack it went
        under) asks which stack the new card comes from (MECS-4), then trades."""
        if ask.key in ("trade", "under"):
            card, under = (key, None) if ask.key == "trade" else ("?", mecs_stack(key))
            stacks = tuple((s, s.capitalize()) for s in trade_sources(self.state, card, under))
            return Ask("draw", child_message("mecs.ask.draw"), stacks, 2, 1, (card, under))
        if ask.key == "draw":
            card, under = ask.given
            self.perform(Trade(self.state.active, card, mecs_stack(key), under))
        elif ask.key == "objective" and key.startswith("OBJ"):
            self.perform(ShowObjective(int(key[3:])))
        return None

    def undo(self) -> None:
        """Take back the last decision made at the table, with the cards dealt and the
        moves of the bots the device moves after it (such a bot would only make its move
        again), as Math Attack!'s table does."""
        if not self.can_undo():
            self.wrong("engine.nothing_to_undo")
            return
        action = self.match.undo()
        while not self.decided(action):
            action = self.match.undo()
        self.banner = self.refill_seat = None
        log.info("mecs: undo %r", action)
        self.say(self.describe(action))
        self.settle()

    def can_undo(self) -> bool:
        return any(map(self.decided, self.match.history))

    def decided(self, action: Action) -> bool:
        """``action`` was decided at the table: not a card dealt or turned up, not a move
        the device made for a bot."""
        if isinstance(action, CHANCE_TYPES):
            return False
        return isinstance(action, Observe) or not self.is_scene_bot(action.seat)

    def describe(self, action: Action) -> str:
        """An action taken back, in words (``mecs.undone.<what>``)."""
        name = self.name
        match action:
            case Plant(seat, cards) | Observe(seat, cards):
                return child_message("mecs.undone.cards", name=name(seat), cards=render(cards))
            case Hack(seat, target):
                return child_message("mecs.undone.hack", name=name(seat), target=name(target))
            case Refill(seat, stack):
                return child_message("mecs.undone.refill", name=name(seat), stack=stack)
            case Trade(seat) | EndTurn(seat) | Reorder(seat):
                what = type(action).__name__.lower()
                return child_message(f"mecs.undone.{what}", name=name(seat))
        return child_message("mecs.undone.move")

    # -- bots and the record beside the match ---------------------------------------------------

    def bot_to_move(self) -> int | None:
        """The bot seat the game waits for (bots the screen moves itself)."""
        pending = self.match.pending
        bots = sorted(s for s in pending.seats if self.is_scene_bot(s))
        return bots[0] if bots and pending.chance is None and not self.finished else None

    def bot_due(self) -> bool:
        return self.bot_to_move() is not None

    def bot_step(self) -> None:
        seat = self.bot_to_move()
        if seat is None:
            return
        try:
            action = decide(self.state, seat, self.level(seat))
        except (TabletopError, ValueError):
            log.exception("mecs: the bot found no move")
            action = EndTurn(seat)
        self.perform(action)

    def record(self) -> dict[str, Any]:
        """What is not in the match: camera readings the game refused (shown faded) and
        the seat choosing its refill."""
        return {
            "readings": {str(s): list(cards) for s, cards in sorted(self.readings.items())},
            "refill": self.refill_seat,
        }

    def carry_on(self, record: Mapping[str, Any] | None) -> None:
        """Put back :meth:`record` (a journal from before it has none)."""
        record = record or {}
        self.readings = {int(s): tuple(cards) for s, cards in record.get("readings", {}).items()}
        refill = record.get("refill")
        self.refill_seat = refill if isinstance(refill, int) else None


__all__ = ["BOT_SECONDS", "GAME", "LABEL", "Banner", "MecsPlay", "coin_words", "seat_infos"]
