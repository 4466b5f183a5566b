"""The device's side of a Math Wars Meta table, without pygame: who plays which cards,
what the camera and the touchscreen said, whose solution is in, and the rulings to show.

The engine asks for every card as a chance outcome, one at a time, answered from:

- the seeded virtual deck for a bot's cards, a child's in virtual play, and the cards
  nobody sees (face down in a Math War, given up from the draw pile): any card of that
  pile will do until the camera sees it; a child who later turns up a card the device
  had put face down gets it swapped in the history (:meth:`MwmPlay._swap_unseen`);
- the camera (``CardsSeen`` of a battle pile) or a touch for a child's face-up COUNT
  META and MATH CRATE cards, kept until the engine asks for them (seats in order).

A child's solution counts once every child of the stage is ready, and a
:class:`Verdict` says what happened. Undo takes back the last :meth:`MwmPlay.real` action.

Never lose a game (issue 10): the device's picks come from a
:func:`~tabletop.ui.saves.keyed_dealer` and a bot's answer from an ``rng`` keyed by the
seed, the seat and the number of actions, so a match replayed from the journal plays on
as the uninterrupted one; what is not an action is kept by :meth:`MwmPlay.record` and
put back by :meth:`MwmPlay.carry_on`. A rewrite or an undo reaches the journal once.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from tabletop.bots.math_wars_meta import VirtualPlayer
from tabletop.classroom.mistakes import Question
from tabletop.engine.errors import ImpossibleOutcome, TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.engine.words import and_joined
from tabletop.games.math_wars_meta import (
    Action,
    CardCode,
    CountCard,
    CountDrawn,
    CrateDrawn,
    EnterSolution,
    MathWarsMeta,
    MathWarsMetaSettings,
    MathWarsMetaState,
    Splash,
    Stage,
    card_drawn,
    correct_entry,
    pending_card,
    splash_leader,
    standings,
)
from tabletop.ui.controller import Ask, TableController
from tabletop.ui.games.math_wars_meta.verdict import (
    Verdict,
    card_sentence,
    last_verdict,
    questions_for,
    say,
)
from tabletop.ui.messages import child_message
from tabletop.ui.saves import keyed_dealer, one_write

log = logging.getLogger(__name__)

GAME = MathWarsMeta()
BOT_WRONG_RATE = 0.05  # a bot slips now and then, so the device's corrections show
SWAP_TRIES = 4
# events worth a sentence the moment they happen (the rest wait for the verdict)
NOTE_CODES = frozenset(
    {"mwm.solo_redraw", "mwm.crate_reshuffle", "mwm.spoils_reshuffle", "mwm.short_for_war"}
)
# a checked answer: see :attr:`MwmPlay.answers`
Answer = tuple[int, int, int, Question, Fraction]


class CardProblem(ValueError):
    """A card the device cannot use; ``code`` maps to a child's sentence."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a child (real cards, or virtual ones on the screen) or a bot."""

    name: str
    bot: bool = False
    virtual: bool = False

    @property
    def auto_cards(self) -> bool:
        """The device deals this seat's cards itself."""
        return self.bot or self.virtual


class MwmPlay(TableController):
    """One game at the device (see the module); ``match``: a game replayed from the
    journal, to carry on with (:meth:`carry_on`), whose settings then count."""

    def __init__(
        self,
        settings: MathWarsMetaSettings,
        seats: Sequence[SeatConfig],
        *,
        seed: int,
        match: Match[MathWarsMetaSettings, MathWarsMetaState, Action] | None = None,
    ) -> None:
        self.seats = list(seats)
        self.seed = seed
        self.match: Match[MathWarsMetaSettings, MathWarsMetaState, Action] = match or Match(
            GAME, settings, len(seats), seed=seed
        )
        self.dealer = keyed_dealer(seed, self.match)
        self.player = VirtualPlayer(random.Random(seed ^ 0x5EED), BOT_WRONG_RATE)
        # a child's cards read before the engine asks for them, by (seat, "count"|"crate")
        self.seen: dict[tuple[int, str], CardCode] = {}
        self.typed: dict[int, EnterSolution] = {}
        self.pressed: dict[int, float] = {}  # answers typed and pressed, not yet in the game
        self.verdict: Verdict | None = None  # on screen: the next hand waits for Next
        # every answer the device checked for a child, kept as the match goes (issue 24):
        # (the match's length after the answer, seat, its length when the solve stage
        # began, the question, the answer given), from :func:`~.verdict.questions_for`
        self.answers: list[Answer] = []
        before = self.match.initial
        for n, step in enumerate(self.match.steps, 1):  # a match replayed from the journal
            self._check(before, step.action, n)
            before = step.state

    # -- what the engine has ----------------------------------------------------------

    @property
    def paused(self) -> bool:
        """A verdict is on screen: the next hand waits for Next."""
        return self.verdict is not None

    @property
    def settings(self) -> MathWarsMetaSettings:
        return self.match.settings

    @property
    def state(self) -> MathWarsMetaState:
        return self.match.state

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def solo(self) -> bool:
        return self.settings.mode == "solo"

    def name(self, seat: int) -> str:
        return self.called(seat, self.seats[seat].name)

    def side_name(self, side: int) -> str:
        return f"Team {side + 1}" if self.settings.mode == "teams" else self.name(side)

    def standings(self) -> Result:
        return standings(self.state)

    def need(self) -> tuple[int, str] | None:
        """The card the engine waits for now: (seat, up/down/crate/pay), or None."""
        return pending_card(self.state)

    def waiting_for_cards(self) -> list[int]:
        """Children whose face-up cards the device still needs in this stage (and has not
        read early: :attr:`seen`)."""
        if self.finished or self.state.phase != "reveal":
            return []
        kinds, todo = {"up": "count", "crate": "crate"}, self.state.stage.todo
        unseen = [s for s, need in todo if need in kinds and (s, kinds[need]) not in self.seen]
        return [seat for seat in dict.fromkeys(unseen) if not self.seats[seat].auto_cards]

    def solving(self) -> list[int]:
        """Seats that still have a solution to give in this stage."""
        if self.finished or self.state.phase != "solve":
            return []
        return sorted(self.match.pending.seats)

    def answer_for(self, seat: int) -> EnterSolution:
        return correct_entry(self.state, seat)

    @property
    def entries(self) -> dict[int, EnterSolution]:
        """The solutions applied in this solve stage: the last actions, as only solutions
        go in while the seats solve (bots answer first)."""
        if self.finished or self.state.phase != "solve":
            return {}
        entered = self.match.history[self.match.moves - len(self.state.stage.entered) :]
        return {a.seat: a for a in entered if isinstance(a, EnterSolution)}

    @property
    def ready(self) -> dict[int, float]:
        """The children whose answer is in, and when (seconds of play): in the game (left
        there by an undo of a later answer) or pressed, waiting for the others. Their boxes
        show it and their lamps are lit."""
        kept = {s: (e.at or 0) / 1000 for s, e in self.entries.items() if not self.seats[s].bot}
        return kept | self.pressed

    @property
    def table_stage(self) -> Stage:
        """The stage whose cards lie on the table: this one, or while a verdict shows, the
        stage it settled (a splash's has none: then this one)."""
        verdict = self.verdict
        return verdict.stage if verdict is not None and verdict.stage.up else self.state.stage

    def cards_up(self, seat: int) -> tuple[CountCard | None, str | None]:
        """``seat``'s COUNT META and MATH CRATE cards lying on the table (None: none)."""
        stage = self.table_stage
        return (stage.up[seat], stage.crates[seat]) if stage.up else (None, None)

    def state_before(self, index: int) -> MathWarsMetaState:
        return self.match.steps[index - 1].state if index else self.match.initial

    # -- the device answers the engine ------------------------------------------------

    def _apply(self, action: Action) -> None:
        before = self.state
        for event in self.match.apply(action):
            if event.code in NOTE_CODES and (text := say(self, event)):
                self.say(text)
        n = self.match.moves
        self._check(before, action, n)
        log.info("mwm: %s%s", action, "" if self.real(n - 1) else " (device)")

    def _check(self, before: MathWarsMetaState, action: Action, n: int) -> None:
        """A child's solution, applied to ``before`` as the ``n``-th action: its answers
        join :attr:`answers`. Only solutions go in while the seats solve, so the stage
        began ``len(before.stage.entered)`` actions before this one."""
        if not isinstance(action, EnterSolution) or self.seats[action.seat].bot:
            return
        asked = n - 1 - len(before.stage.entered)
        own, team = questions_for(before, action.seat)
        given = (own, action.solution), (team, action.team_solution)
        self.answers += [
            (n, action.seat, asked, q, Fraction(v))
            for q, v in given
            if q is not None and v is not None
        ]

    def _deal(self) -> None:
        """The device's own pick for the card the engine asks for."""
        chance = self.match.pending.chance
        assert chance is not None  # only called where the engine asks for a card
        self._apply(self.dealer.deal(chance))

    def pump(self, pay_only: bool = False) -> None:
        """Answer every request the device can answer now; stop where a child is awaited
        (or the verdict is on screen and the next hand must wait; ``pay_only``: at the
        first request that is not a payment)."""
        for _ in range(100_000):
            need = None if self.finished else self.need()
            if need is None:
                if pay_only or self.finished or not self._solutions():
                    return
            elif need[1] == "pay":
                self._deal()
            elif pay_only or self.paused:
                return
            elif need[1] == "down" or self.seats[need[0]].auto_cards:
                self._deal()
            elif not self._take_seen(*need):
                return
        raise RuntimeError("the device answered 100,000 requests without waiting: a bug")

    def _take_seen(self, seat: int, kind: str) -> bool:
        """The card the engine asks of a child, if it was read already."""
        card = self.seen.pop((seat, "count" if kind == "up" else "crate"), None)
        if card is None:
            return False
        action = card_drawn(self.state, seat, card)
        if isinstance(action, CountDrawn) and not self._in_draw_pile(seat, action.card):
            return False
        try:
            self._apply(action)
        except TabletopError as e:
            log.info("mwm: refused %s: %s", action, e)
            self.say(card_sentence(e.code, self.name(seat), action), "error")
            return False
        return True

    def _in_draw_pile(self, seat: int, card: tuple[int, int], at: int | None = None) -> bool:
        """``card`` is in ``seat``'s draw pile (just before history ``at``), or was put
        somewhere unseen by the device and is swapped back (:meth:`_swap_unseen`); if not,
        the child is told it was played."""
        pile = self.state.zones[seat].draw if at is None else self._draw_then(at)
        if card in pile or self._swap_unseen(seat, card, before=at):
            return True
        on_battle = (seat + 1, card[1]) in self.state.zones[seat].battle
        code = "mwm.ui.on_battle_pile" if on_battle else "mwm.ui.played_this_round"
        self.say(child_message(code, {"name": self.name(seat), "number": card[1]}), "error")
        return False

    def _solutions(self) -> bool:
        """Bots answer; children's answers go in once every child is ready. True if
        something was applied."""
        pending = self.solving()
        bot = next((seat for seat in pending if self.seats[seat].bot), None)
        if bot is not None:
            self._enter(self.bot_entry(bot))
            return True
        if not pending or any(seat not in self.pressed for seat in pending):
            return False
        for seat in sorted(pending, key=lambda s: self.pressed[s]):
            self._enter(replace(self.typed[seat], at=int(self.pressed[seat] * 1000)))
        return True

    def _enter(self, entry: EnterSolution) -> None:
        self._apply(entry)
        self.typed.pop(entry.seat, None)
        self.pressed.pop(entry.seat, None)
        if self.finished or self.state.phase != "solve":
            # the stage is decided: pay what is owed, then show the verdict
            self.pump(pay_only=True)
            self.settled()
            self.seen.clear()

    def next_hand(self) -> None:
        """The verdict was read: the table goes on."""
        self.verdict = None
        self.pump()

    # -- children's input -------------------------------------------------------------

    def card_seen(self, seat: int, card: CardCode, victories: int = 0) -> None:
        """A child's card from the camera or a touch: used now, kept until the engine
        asks for it, or a correction of this stage's card; said why (an "error") when it
        cannot be used. Raises :class:`CardProblem` for a card that is not theirs.
        ``victories``: the VICTORY! cards the camera read in the zone so far, this one
        too (more than the side won: not its counter, one laid as a battle card)."""
        name, zone = self.name(seat), self.state.zones[seat]
        if card.kind == "victory":  # the side's VICTORY! counter lies in the zone too
            if victories <= self.state.victories[self.settings.side_of(seat)]:
                return
            raise CardProblem("mwm.ui.victory_card", f"seat {seat + 1}: VICTORY! unwon", name=name)
        if self.seats[seat].auto_cards:
            raise CardProblem(
                "mwm.ui.virtual_seat", f"seat {seat + 1} plays virtual cards", name=name
            )
        mine = (card.army, card.number) in (*zone.draw, *zone.spoils)  # Option 2 spoils
        if card.army not in (None, seat + 1) and (card.kind == "crate" or not mine):
            raise CardProblem(
                "mwm.ui.not_your_army",
                f"seat {seat + 1}: army {card.army}",
                name=name,
                army=card.army,
            )
        if zone.out:
            raise CardProblem("mwm.ui.knocked_out", f"seat {seat + 1} is out", name=name)
        if card.kind == "count" and card.number not in self.settings.ed.count_numbers:
            edition = self.settings.edition
            raise CardProblem(
                "mwm.ui.not_in_edition",
                f"{card} not in {edition}",
                number=card.number,
                edition=edition,
            )
        up, crate = self.cards_up(seat)
        if card.kind == "count" and up is not None:
            same = up[1] == card.number and card.army in (None, up[0])
        else:
            same = card.kind == "crate" and crate == card.face
        if same:
            return  # the same card, read again
        if not self.paused and (up if card.kind == "count" else crate) is not None:
            self._correct(seat, card_drawn(self.state, seat, card, battle=True))
            return
        self.seen[seat, card.kind] = card  # kept until the engine asks (after Next)
        if not self.paused:
            self.pump()

    def stage_card_index(self, seat: int, action: CountDrawn | CrateDrawn) -> int | None:
        """Where in the history this stage's face-up card of ``seat`` (of the kind of
        ``action``) was shown by the child; None if the device laid it, or none is up."""
        up, crate = self.state.stage.up[seat], self.state.stage.crates[seat]
        if isinstance(action, CountDrawn):
            old: Action | None = None if up is None else CountDrawn(seat, up)
        else:
            old = None if crate is None else CrateDrawn(seat, crate)
        i = None if old is None else self._since_splash(old)
        return i if i is not None and self.real(i) else None

    def _since_splash(self, action: Action, end: int | None = None) -> int | None:
        """Where ``action`` was last applied before history ``end`` (all of it: None)
        since the round began again after a splash, or None."""
        history = self.match.history
        for i in reversed(range(len(history) if end is None else end)):
            if isinstance(history[i], Splash):
                return None
            if history[i] == action:
                return i
        return None

    def _correct(self, seat: int, action: CountDrawn | CrateDrawn) -> None:
        """A different card than the one the device has for this stage: the camera
        misread, or the child fixed it. Rewrite that draw, if the device has not used an
        answer on it; an answer typed (or ready) for the old card is dropped."""
        name = self.name(seat)
        if seat in self.entries:
            raise CardProblem("mwm.ui.answered", f"seat {seat + 1} already answered", name=name)
        index = self.stage_card_index(seat, action)
        if index is None:
            raise CardProblem("mwm.ui.too_late", "that card's stage is over", name=name)
        if isinstance(action, CountDrawn):
            if not self._in_draw_pile(seat, action.card, at=index):
                return
            index = self.stage_card_index(seat, action)  # after a swap, where it is now
            assert index is not None
        if not self._rewrite(index, action):
            self.say(child_message("mwm.ui.cannot_use", name=name), "error")
            return
        self.typed.pop(seat, None)
        self.pressed.pop(seat, None)
        self.pump()

    def _draw_then(self, index: int) -> tuple[Any, ...]:
        """The acting seat's draw pile just before history ``index``."""
        action = self.match.history[index]
        return self.state_before(index).zones[action.seat].draw  # type: ignore[union-attr]

    def _rewrite(self, index: int, action: Action) -> bool:
        """Replace history ``index`` with ``action`` and re-apply what came after; the
        device's own picks are re-picked if they no longer fit, and bots answer again.
        False (and nothing changed) if a child's action no longer fits. The journal gets
        the rewritten history at once, never half of it."""
        with one_write(self.match):
            real = [self.real(i) for i in range(index, self.match.moves)]
            tail = self._undo_to(index)
            said = self.message, self.tone, self.sentences
            try:
                self._apply(action)
                for old, was_real in zip(tail[1:], real[1:], strict=True):
                    if not was_real and isinstance(old, EnterSolution):
                        self._apply(self.bot_entry(old.seat))
                        continue
                    try:
                        self._apply(old)
                    except ImpossibleOutcome:
                        if was_real:
                            raise
                        self._deal()
            except TabletopError as e:
                log.info("mwm: rewrite refused: %s", e)
                self._undo_to(index)
                for old in tail:
                    self._apply(old)
                self.message, self.tone, self.sentences = said
                return False
            return True

    def _undo_to(self, length: int) -> list[Action]:
        """Take back the actions after the first ``length``; returns them in order."""
        taken = [self.match.undo() for _ in range(self.match.moves - length)][::-1]
        while self.answers and self.answers[-1][0] > length:
            self.answers.pop()
        return taken

    def _swap_unseen(self, seat: int, card: tuple[int, int], before: int | None = None) -> bool:
        """``card`` is wanted face up but the device had put it somewhere unseen (face
        down in a war, or given up): swap it there for another card of the same pile."""
        i = self._since_splash(CountDrawn(seat, card), before)
        if i is None or self.real(i):
            return False  # not laid this round, or a child showed it: it really was played
        pile = [c for c in self._draw_then(i) if c != card]
        random.Random(self.seed + i).shuffle(pile)
        return any(self._rewrite(i, CountDrawn(seat, other)) for other in pile[:SWAP_TRIES])

    def type_solution(self, seat: int, value: int, team: int | None = None) -> None:
        self.typed[seat] = EnterSolution(seat, value, team)
        self.pressed.pop(seat, None)

    def press(self, seat: int, at: float) -> str:
        """A seat's button: "ready" once a solution is typed, "pad" when none is (open the
        number pad), otherwise why not (a ``mwm.ui.*`` code). A second press keeps the
        first one's moment. Until every seat is in, the child takes the answer back by
        typing it again (:meth:`type_solution`): the device has not acted on it yet."""
        if (code := self.refusal(seat, "solution")) is not None:
            return code
        if seat not in self.typed:
            return "pad"
        self.pressed.setdefault(seat, at)
        self.pump()
        return "ready"

    def is_ready_words(self, seat: int) -> str:
        """The seat's answer is in but not yet used: said, with how to change it."""
        return child_message("mwm.ui.is_ready", {"name": self.name(seat)})

    # -- what the device says ---------------------------------------------------------

    def refusal(self, seat: int, what: str) -> str | None:
        """Why ``seat``'s ``what`` (its "card" typed in, or its "solution") cannot go in
        now (a ``mwm.ui.*`` or ``ui.*`` code), None if it can."""
        config = self.seats[seat]
        if what == "card" and config.auto_cards:
            return "ui.bot_seat" if config.bot else "mwm.ui.virtual_seat"
        if self.finished:
            return "mwm.ui.game_over"
        if config.bot:
            return "ui.bot_seat"
        if self.verdict is not None:
            return "mwm.ui.wait_next"
        if self.state.zones[seat].out:
            return "mwm.ui.knocked_out"
        if seat in self.entries:
            return "mwm.ui.answered"
        if what == "solution":
            waiting = self.waiting_for_cards()
            if seat in waiting:
                return "mwm.ui.cards_first"
            if seat in self.solving():
                return None
            return "mwm.ui.wait_cards" if waiting else "mwm.ui.wait_others"
        return None if seat in self.state.stage.seats else "mwm.ui.wait_others"

    def lit(self) -> list[int]:
        """The seats whose answer is in: their lamps are lit."""
        return list(self.ready)

    def wants_press(self, seat: int) -> bool:
        """A child's answer is typed: their button (or its I'm ready! tile) says it is in."""
        typed = seat in self.typed or seat in self.ready
        return typed and not self.solo and self.refusal(seat, "solution") is None

    def next_label(self) -> str:
        """The Next button's word: what it does now, or what the table waits for."""
        if self.finished:
            return "See the results"
        if self.verdict is not None:
            war, over = self.verdict.war, self.verdict.round_over
            return "Math War!" if war else "Next round" if over else "Next hand"
        return "Waiting for answers" if self.solving() else "Waiting for cards"

    def facts(self) -> dict[str, object]:
        """A refusal names the Next button by the word it shows now ("Math War"), and the
        children whose cards the table waits for."""
        waiting = [self.name(seat) for seat in self.waiting_for_cards()]
        has = "has" if len(waiting) == 1 else "have"
        return {"next": self.next_label().rstrip("!"), "waiting": and_joined(waiting), "has": has}

    def next_step(self) -> str:
        """What the device waits for now, naming who (the instruction line)."""
        names = ""
        if self.finished:
            step = "over"
        elif self.verdict is not None:
            step = "war_next" if self.verdict.war else "next"
        elif names := ", ".join(self.name(s) for s in self.waiting_for_cards()):
            step = "cards" if self.state.stage.kind == "hand" else "war_cards"
        elif names := ", ".join(self.name(s) for s in self.solving() if s not in self.ready):
            step = "solve_solo" if self.solo else "solve"
        else:
            return ""
        return child_message(f"mwm.step.{step}", names=names)

    # -- the moderator ----------------------------------------------------------------

    def splash(self, award_to: int | None) -> None:
        self._apply(Splash(award_to))
        self._forget_inputs()
        self.settled()

    def settled(self) -> None:
        """A stage is settled: its verdict on the screen, and in the story (a line a hand)."""
        self.verdict = last_verdict(self)
        if self.verdict is not None:
            self.narrate((self.verdict.round, self.verdict.hand), " ".join(self.verdict.lines))

    def teacher_menu(self) -> Ask:
        """The teacher's choices after the PIN: undo, a splash, and (MWM-10) a penalty
        VICTORY! card only for the side winning this hand; none once the game is over."""
        if self.finished:
            raise TabletopError("mwm.ui.game_over", "teacher menu after the end")
        choices = [("undo", "Undo last step"), ("splash", "Splash: new round")]
        title = child_message("ui.teacher_menu")
        if not self.solo:
            leader = splash_leader(self.state)
            if leader is not None:
                choices.append((f"award.{leader}", f"Splash: VICTORY! to {self.side_name(leader)}"))
            else:  # MWM-10: while a verdict shows, a splash ends the next hand (or the war)
                why = "nobody is winning this hand yet"
                if self.verdict is not None and self.verdict.war:
                    why = "a tie, so the Math War decides"
                elif self.verdict is not None:
                    why = "the next hand has no card up"
                title += f" (no VICTORY! card: {why})"
        return Ask("teacher", title, tuple(choices), columns=2, rows=5)

    def undo(self) -> Action:
        """Take back the last real action and everything the device did after it."""
        real = [i for i in range(self.match.moves) if self.real(i)]
        if not real:
            raise TabletopError("engine.nothing_to_undo", "there is nothing to undo")
        with one_write(self.match):
            action = self._undo_to(real[-1])[0]
            self._forget_inputs()
            self.verdict = None
            self.pump(pay_only=True)
        return action

    def _forget_inputs(self) -> None:
        """Drop the answers typed or pressed (not yet in the game) and the cards read early."""
        self.typed, self.pressed, self.seen = {}, {}, {}

    # -- never lose a game (issue 10) ---------------------------------------------------

    def bot_entry(self, seat: int) -> EnterSolution:
        """A bot's solution, its luck keyed by the seed, the seat and the actions so far."""
        self.player.rng = random.Random(f"{self.seed}:{seat}:{self.match.moves}")
        return self.player.entry(self.state, seat)

    def real(self, index: int) -> bool:
        """Whether history ``index`` is real: a child's face-up card or answer, or the
        moderator's splash; payments, face-down cards, bots' and virtual seats' cards and
        bots' answers are the device's."""
        action = self.match.steps[index].action
        if isinstance(action, Splash):
            return True
        if isinstance(action, EnterSolution):
            return not self.seats[action.seat].bot
        need = pending_card(self.state_before(index))
        if need is None or need[1] not in ("up", "crate"):
            return False  # a payment, or a card face down
        return not self.seats[need[0]].auto_cards

    def record(self) -> dict[str, Any]:
        """What the screen holds beyond the match: answers typed and ready (ready times
        in seconds of play), cards read before the engine asked, the verdict on screen;
        with its match's :meth:`stamp`."""
        seen = self.seen.items()
        return {
            **self.stamp(),
            "typed": {str(s): [e.solution, e.team_solution] for s, e in self.typed.items()},
            "ready": {str(s): at for s, at in self.pressed.items()},
            "count": {str(s): [c.number, c.army] for (s, k), c in seen if k == "count"},
            "crate": {str(s): c.face for (s, k), c in seen if k == "crate"},
            "paused": self.paused,
        }

    def carry_on(self, record: Mapping[str, Any] | None) -> None:
        """Put back what :meth:`record` kept, for the match replayed from the journal. A
        record older than the match (the device stopped between the two writes) is
        dropped; the verdict of the last hand shows again if nothing came after it but
        the device's payments."""
        record = self.own(record) or {}
        read = record and not record.get("paused")  # the verdict on screen was read
        self.verdict = None if read else last_verdict(self)
        kept = {key: dict(record.get(key) or {}) for key in ("typed", "ready", "count", "crate")}
        try:
            self.typed = {
                int(s): EnterSolution(int(s), int(v[0]), _int_or_none(v[1]))
                for s, v in kept["typed"].items()
            }
            self.pressed = {int(s): float(at) for s, at in kept["ready"].items()}
            self.seen = {
                (int(s), "count"): CardCode("count", _int_or_none(v[1]), number=int(v[0]))
                for s, v in kept["count"].items()
            } | {
                (int(s), "crate"): CardCode("crate", face=str(f)) for s, f in kept["crate"].items()
            }
        except (TypeError, ValueError, IndexError) as exc:
            log.warning("mwm: the saved table does not read (%s): dropped", exc)
            self._forget_inputs()
        solving = set(self.solving())
        self.typed = {s: e for s, e in self.typed.items() if s in solving}
        self.pressed = {s: at for s, at in self.pressed.items() if s in self.typed}

    def checks(self) -> list[list[int]]:
        """Per seat: [solutions the device checked, right ones] (YOUR SOLUTION and TEAM
        SOLUTION), from the engine's tallies (an undone answer is not counted); bots 0."""
        return [
            [0, 0]
            if seat.bot
            else [t.right + t.wrong + t.team_right + t.team_wrong, t.right + t.team_right]
            for seat, t in zip(self.seats, self.state.tallies, strict=True)
        ]


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


__all__ = ["CardProblem", "MwmPlay", "SeatConfig", "questions_for"]
