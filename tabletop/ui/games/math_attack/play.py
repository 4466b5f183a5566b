"""The device's side of a Math Attack! table, without pygame (RULINGS ATK-1..ATK-6).

With real cards the device sees only the number lines: a camera reading with one new
card at a line's end is the play of the seat to play; a card can also be tapped in. A
reading that disagrees with the game is refused with the reason, and the newest card can
be set right by touch (a :class:`Ghost`). Against a bot the device deals. The engine
decides every rule; the sentences come from its events and error codes. What is not in
the match (touch fixes, a card taken back still on the table) is :meth:`record`-ed
beside it. A method that needs a question answered returns an :class:`Ask`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.bots.math_attack import LEVELS, MathAttackBot
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.games.math_attack import (
    BLACK,
    GREEN,
    MULTIPLIER_FACTORS,
    RED,
    Action,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
    card_name,
    parse_card,
    running_totals,
    turn_binds,
)
from tabletop.ui.controller import Ask, TableController
from tabletop.ui.messages import child_message, seats_named
from tabletop.ui.saves import keyed_dealer, standings_result

log = logging.getLogger(__name__)

GAME = MathAttack()
BOT_SECONDS = 1.5  # the bot "thinks" this long, so a child can follow its play

# The card picker: +1..+10, -1..-10, then the multipliers and the green cards.
PICKER = (*BLACK[:10], *RED[:10], *BLACK[10:], *RED[10:], *GREEN)
GREEN_FACES = dict(  # their symbols and words as printed
    zip(GREEN, (("=", "end"), ("\u21b5", "cancel"), ("+/\u2212", "flip"), ("\u2205", "block")))
)
# events with no sentence of their own (after =, turn_binds says whose last turn it is)
SILENT = ("atk.drew", "atk.dealt", "atk.game_over", "atk.last_turn")
PLAYED = ("atk.played", "atk.flipped", "atk.cancelled")  # a card that changes a line's total
YES_NO = (("yes", "Yes, it is"), ("no", "No"))  # is an earlier card read right?


def minus(text: str) -> str:
    """``text`` with a real minus sign (as the cards print it) for each hyphen that is not
    inside a word: ``\u221210``, ``+/\u2212``, ``a + or \u2212 card``."""
    return re.sub(r"(?<![A-Za-z])-|-(?![A-Za-z])", "\u2212", text)


def label(card: str) -> str:
    """The card as printed: ``+5``, ``\u2212|n\u00d72|``, ``=``."""
    return minus(card_name(card))


def face(card: str) -> tuple[str, str]:
    """A card's face: its big symbol and the word or size under it (``("+", "|n÷2|")``,
    ``("↵", "cancel")``, ``("+5", "")``)."""
    big = label(card)
    if card[1:] in MULTIPLIER_FACTORS:
        return big[0], big[1:]
    return GREEN_FACES.get(card, (big, ""))


def num(n: int | Fraction) -> str:
    """A total as shown on screen: a real minus sign, easy to see (``\u221215``)."""
    return minus(str(n))


@dataclass(frozen=True)
class Ghost:
    """A camera card on a line (the key of :attr:`AttackPlay.ghosts`) that the game did
    not accept; the refusal said why."""

    position: int
    code: str  # what the camera read ("?" when unreadable)
    card: str | None  # our card code, or None if it is not one of ours


class AttackPlay(TableController):
    """One game of Math Attack! at the device (see the module)."""

    match: Match[MathAttackSettings, MathAttackState, Action]

    def __init__(
        self,
        *,
        names: tuple[str, str],
        bot: str | None,
        first: int,
        seed: int,
        match: Match[MathAttackSettings, MathAttackState, Action] | None = None,
        sound: Callable[[str], None] = lambda name: None,
    ) -> None:
        if bot is not None and bot not in LEVELS:
            raise ValueError(f"unknown bot level {bot!r}")
        self.names, self.bot_level = names, bot
        self.virtual, self.bot_seat = bot is not None, 1
        self.sound = sound  # a sound cue by name
        settings = MathAttackSettings(hidden_hands=not self.virtual, first_player=first)
        self.match = match or Match(GAME, settings, 2, seed=seed)
        self.dealer = keyed_dealer(seed, self.match)
        self.bot = MathAttackBot(bot, seed=seed) if bot is not None else None
        self.took_back = False  # a child just took back their own last move
        self.selected: int | None = None  # index into the child's hand (virtual play)
        self.ghosts: dict[int, Ghost] = {}
        self.trouble: dict[int, str] = {}  # line -> what is wrong with the camera's reading
        self.undone: dict[int, tuple[str, ...]] = {}  # line -> cards taken back, still there
        self.fixes: dict[int, dict[int, tuple[str, str]]] = {0: {}, 1: {}}  # pos -> (read, card)
        self.misread: dict[int, tuple[int, str]] = {}  # line -> (position, code read)
        self.last_seen: dict[int, tuple[str, ...]] = {}

    @property
    def state(self) -> MathAttackState:
        return self.match.state

    @property
    def over(self) -> bool:
        return GAME.is_over(self.state)

    def name(self, seat: int) -> str:
        return self.called(seat, self.names[seat])

    def is_bot(self, seat: int) -> bool:
        return self.virtual and seat == self.bot_seat

    def playing(self) -> bool:
        """A child may play now (not the bot's turn, not over)."""
        return self.state.phase == "play" and not self.is_bot(self.state.turn)

    def lit(self) -> list[int]:
        return [self.state.turn] if self.playing() else []

    def standings(self) -> Result:
        """The result, or before the end the standings: the higher total leads."""
        totals = self.state.totals
        return self.match.result() or standings_result(
            totals, f"stopped with the number lines at {totals[0]} and {totals[1]}"
        )

    def facts(self, line: int | None = None, card: str | None = None) -> dict[str, object]:
        """What the child's sentences may name: whose turn, the line's owner, a card."""
        state = self.state
        out: dict[str, object] = {"turn": self.name(state.turn)}
        if line is not None:
            out["owner"], out["other"] = self.name(line), self.name(1 - line)
            if state.lines[line]:
                out["last"] = label(state.lines[line][-1])
        if card is not None:
            out["card"] = label(card)
        if hint := self.play_hint():
            out["hint"] = hint
        return out

    def play_hint(self) -> str:
        """A play the engine allows now, in a sentence (why the seat may not pass)."""
        state = self.state
        legal = GAME.legal_actions(state, state.turn) if state.phase == "play" else []
        if (play := next((a for a in legal if isinstance(a, Play)), None)) is None:
            return ""
        code = "atk.ui.hint_any" if state.settings.hidden_hands else "atk.ui.hint"
        return child_message(code, card=label(play.card), owner=self.name(play.line))

    def next_step(self) -> str:
        state, facts = self.state, {"who": self.name(self.state.turn)}
        if self.over or state.phase != "play":
            step = "over" if self.over else "dealing"
        elif self.is_bot(state.turn):
            step = "thinking"
        elif self.undone:
            off = (  # a line's cards the last entered first, as they come off its end
                f"{' and '.join(map(label, reversed(cards)))} off {self.name(at)}'s line"
                for at, cards in self.undone.items()
            )
            step, facts["cards"] = "take_off", " and ".join(off)
        elif (wrong := next(iter(self.ghosts or self.trouble), None)) is not None:
            step = "tap_red" if wrong in self.ghosts else "put_back"
            facts["owner"] = self.name(wrong)
            if step == "put_back" and wrong in self.misread:  # or the camera misreads it
                at = self.misread[wrong][0]
                step, facts["place"] = "misread", str(at + 1)
                facts["card"] = label(state.lines[wrong][at])
        elif not self.play_hint():  # the engine allows no card now: only a pass (ATK-6)
            step = "pass"
        elif not self.virtual or self.selected is None:
            step = "tap" if self.virtual else "put"  # a last turn: the top bar says so
        else:
            step, facts["card"] = "line", label(state.hands[0][self.selected])
        return child_message(f"atk.step.{step}", facts)

    # -- saying things ----------------------------------------------------------------------

    def refuse(self, code: str, facts: Mapping[str, object] | None = None, detail: str = "") -> str:
        """The child's sentence for ``code`` (shown and returned); the exact reason logged."""
        text = child_message(code, facts if facts is not None else self.facts())
        self.sound("wrong")
        self.say(text, "error")
        log.info("math-attack refused (%s): %s", code, detail or text)
        return text

    def tell(self, action: Action, events: Sequence[Event]) -> None:
        """The ruling in plain words: what the card did, and what comes next."""
        words = [self.sentence(action, e) for e in events if e.code not in SILENT]
        if not self.virtual and any(e.code == "atk.drew" for e in events):
            words.append(child_message("atk.said.draw", seat=action.seat + 1))
        seat = self.state.turn  # the seat to play, whom turn_binds binds (ATK-4, ATK-5)
        for bind in turn_binds(self.state):
            own = "_own" * (bind.data.get("line") == seat)
            facts = {k: v + 1 for k, v in bind.data.items()}
            words.append(child_message(f"atk.said.{bind.code[4:]}{own}", facts, seat=seat + 1))
        played = isinstance(action, Play)
        self.sound("good" if played else "tap")
        # the engine's "-10" as on its card
        said = seats_named(minus(" ".join(words)), [self.name(0), self.name(1)])
        self.say(said, "good" if played else "info")
        self.narrate(len(self.moves()), self.story_line(action))

    def sentence(self, action: Action, event: Event) -> str:
        """An event in words: the sentence table's, by the event's code and facts (shorter
        where the engine's reasons would not fit the instruction line, clearer where it says
        too little: "plays =", the = card). The log keeps the engine's."""
        code, seat = event.code, (action.seat if event.seat is None else event.seat)
        facts, key = {**event.data, "seat": seat + 1}, f"atk.said.{code[4:]}"
        if code == "atk.start":  # who goes first, as the table says it when it deals
            key, facts["name"] = "atk.said.first", self.name(seat)
        elif code == "atk.passed" and isinstance(action, Pass) and not action.shown:
            key += "_empty"  # no card left to show
        elif code in ("atk.blocked", "atk.end", *PLAYED) and isinstance(action, Play):
            # what the card did ("plays =" says little); a block is said one way
            own = "_own" * (action.line == action.seat and code != "atk.blocked")
            facts |= {"card": action.card, "line": action.line + 1}
            facts |= {k: card_name(facts[k]) for k in ("card", "target") if k in facts}
            key += f"{'_by' * ('shift' in facts)}{own}"
        log.info("math-attack: %s", event.text)
        return child_message(key, facts)

    def story_line(self, action: Action) -> str:
        """The move in the game's story: who played what on whose line, and its total now
        (or who passed); after a line's =, whose last turn it is."""
        who = self.name(action.seat)
        text = f"{who} cannot play and passes."
        if isinstance(action, Play):
            cards, owner = self.state.lines[action.line], self.name(action.line)
            touch = len(cards) - 1 in self.fixes[action.line]  # the camera read it wrong
            how = " (the camera could not read it: corrected by touch)" if touch else ""
            total = running_totals(cards)[-1]
            text = f"{who} plays {label(action.card)} on {owner}'s line{how}: {owner} now {total}."
        if (ender := self.state.end_by) is not None and not self.over:
            text += f" {self.name(ender)} played =: last turn for {self.name(1 - ender)}."
        return text

    # -- moves --------------------------------------------------------------------------------

    def deal(self) -> None:
        """The device deals and draws (virtual play; chance comes from the keyed dealer)."""
        while self.match.pending.chance is not None:
            self.match.deal(self.dealer)

    def perform(self, action: Action) -> str | None:
        """Apply ``action``; None when done, else the child's sentence saying why not."""
        line = action.line if isinstance(action, Play) else None
        facts = self.facts(line, action.card if isinstance(action, Play) else None)
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            return self.refuse(exc.code, facts, exc.message)
        self.took_back = False
        self.deal()
        self.selected = None
        self.tell(action, events)
        if self.over:
            self.sound("round")
        return None

    def put(self, line: int, card: str) -> str | None:
        """The seat to play puts ``card`` on ``line`` (touch, the camera or the bot)."""
        if self.over:
            return self.refuse("atk.game_over")
        if card not in PICKER:
            return self.refuse("atk.unknown_card", detail=f"{card!r} is not a card code")
        return self.perform(Play(self.state.turn, card, line))

    def pass_turn(self) -> Ask | None:
        """The seat shows its hand and passes, if the engine allows it (ATK-6). With real
        cards the device cannot see the hand: when a hand that cannot be played is one
        the seat may hold (two cancels), the child says so."""
        seat = self.state.turn
        legal = GAME.legal_actions(self.state, seat)
        if self.is_bot(seat):
            self.refuse("atk.ui.bot_turn")
        elif (pass_ := next((a for a in legal if isinstance(a, Pass)), None)) is not None:
            self.perform(pass_)
        elif not self.virtual and (hands := GAME.showable_hands(self.state, seat)):
            shown = tuple((",".join(hand), " and ".join(map(label, hand))) for hand in hands)
            title = child_message("atk.ask.show", name=self.name(seat))
            return Ask("show", title, (*shown, ("no", "No")), len(shown) + 1, given=(seat,))
        else:
            self.refuse("atk.must_play", detail=f"seat {seat + 1} may not pass")
        return None

    def bot_due(self) -> bool:
        return self.is_bot(self.state.turn) and self.state.phase == "play"

    def bot_step(self) -> None:
        if self.bot is not None and self.bot_due():
            self.perform(self.bot.choose(self.state, self.bot_seat))

    # -- taking back ----------------------------------------------------------------------------

    def moves(self) -> list[Play | Pass]:
        """The moves made so far (not the cards the device drew), the last first."""
        return [a for a in reversed(self.match.history) if isinstance(a, (Play, Pass))]

    def can_undo(self) -> bool:
        return any(not self.is_bot(a.seat) for a in self.moves())

    def own_last_move(self) -> Play | Pass | None:
        """The last move when it was a child's and nothing has acted on it yet (the next
        player has not played, the bot has not replied): the child may take it back
        without the teacher's PIN, once (after a take back, the move before it was acted
        on: that one is the teacher's)."""
        last = next(iter(self.moves()), None)
        return None if self.took_back or last is None or self.is_bot(last.seat) else last

    def take_back_hint(self) -> str:
        """How the child whose own last move it is takes it back ("" when it is not)."""
        if (last := self.own_last_move()) is None:
            return ""
        code = "atk.ui.can_take_back" + ("_pass" if isinstance(last, Pass) else "")
        return child_message(code, {"owner": self.name(last.seat)})

    def take_back(self) -> None:
        self.undo()
        self.took_back = True

    def undo(self) -> None:
        """Take back the last move of a child (and the bot's reply, against a bot)."""
        if not self.can_undo():
            self.refuse("engine.nothing_to_undo")
            return
        taken = self.match.undo()  # back to the last move of a child (there is one)
        while not isinstance(taken, (Play, Pass)) or self.is_bot(taken.seat):
            taken = self.match.undo()
        self.ghosts.clear()
        self.trouble.clear()
        self.selected = None
        turn = self.name(self.state.turn)
        if not isinstance(taken, Play):
            self.say(child_message("atk.undone.pass", turn=turn))
        elif self.virtual:
            who, card, owner = self.name(taken.seat), label(taken.card), self.name(taken.line)
            self.say(child_message("atk.undone.play", who=who, card=card, owner=owner, turn=turn))
        else:
            self.undone[taken.line] = (taken.card, *self.undone.get(taken.line, ()))
            self.say(child_message("atk.ui.take_back"))  # the step names the card
        log.info("math-attack: undo: %r", taken)
        self.sound("tap")

    # -- touch ----------------------------------------------------------------------------------

    def seat_pressed(self, seat: int) -> Ask | None:
        """A seat button: on your turn (real cards) it enters your card by touch, asking
        on which line first when both are open."""
        if seat not in (0, 1) or self.over:
            return None
        if self.is_bot(seat):
            self.refuse("atk.ui.bot_seat")
        elif seat != self.state.turn:
            self.refuse("atk.not_your_turn", detail=f"seat {seat + 1} pressed out of turn")
        elif self.virtual:
            self.say(child_message("atk.ui.pick_card"))
        elif len(open_lines := self.open_lines()) == 1:  # the other is blocked (ATK-4)
            return self.ask_card(open_lines[0])
        else:
            lines = tuple((str(i), f"{self.name(i)}'s line") for i in open_lines)
            where = child_message("atk.ask.where", name=self.name(seat))
            return Ask("where", where, lines, given=(seat,))
        return None

    def open_lines(self) -> list[int]:
        """The lines the seat to play may put a card on now, as the engine says (both
        when it allows none: the card entered is refused with the reason)."""
        legal = GAME.legal_actions(self.state, self.state.turn)
        return sorted({a.line for a in legal if isinstance(a, Play)}) or [0, 1]

    def explain(self, name: str) -> None:
        """A disabled target was tapped: say why it is off."""
        if name == "undo":
            self.refuse("engine.nothing_to_undo")
        elif name == "pass" or name.startswith(("hand.", "line.")):
            self.refuse("atk.ui.bot_turn" if self.is_bot(self.state.turn) else "atk.ui.over")

    def pick(self, index: int) -> None:
        """A card of the child's hand tapped (again: put back): a refusal on the line
        before it is answered, so it goes (the line shows the next step)."""
        self.selected = None if self.selected == index else index
        if self.tone == "error":
            self.say("")

    def ask_card(self, line: int, what: str = "card", title: str = "") -> Ask | None:
        """Which card (of all the cards, each under its face) went on ``line``; not a new
        card while the camera sees a card there missing, moved or one too many (the card
        named could be one put back): first the line as the game has it."""
        if what == "card" and line in self.trouble:
            self.refuse("atk.line.first", self.facts(line), f"card by touch on line {line}")
            return None
        who, owner = self.name(self.state.turn), self.name(line)
        title = title or child_message("atk.ask.card", who=who, owner=owner)
        cards = tuple((c, face(c)[0]) for c in PICKER)
        words = tuple((c, face(c)[1]) for c in PICKER)
        return Ask(what, title, cards, 10, 3, (line,), captions=words, cards=True)

    def tap_line(self, line: int) -> Ask | None:
        """A number line tapped: play the picked card (virtual), or say which card went
        there (real cards; the red card on it, when there is one), or confirm an earlier
        card the camera keeps misreading."""
        state = self.state
        if self.virtual and self.is_bot(state.turn):
            self.refuse("atk.ui.bot_turn")
        elif self.virtual and (picked := self.selected) is not None:
            self.perform(Play(0, state.hands[0][picked], line))
        elif self.virtual:
            self.refuse("atk.ui.pick_card")
        elif line in self.misread:
            at = self.misread[line][0]
            card = label(state.lines[line][at])
            title = child_message("atk.ask.misread", place=at + 1, card=card)
            return Ask("misread", title, YES_NO, given=(line,), yes_no=True)
        elif state.blocked == line:
            self.refuse("atk.blocked", self.facts(line), "tapped the blocked line")
        elif line in self.ghosts:  # the card there is the red one: set it right
            return self.ghost_tapped(line)
        else:
            return self.ask_card(line)
        return None

    def ghost_tapped(self, line: int) -> Ask | None:
        if (ghost := self.ghosts.get(line)) is None:
            return None
        read = label(ghost.card) if ghost.card is not None else ghost.code
        code = "atk.ask.fix_unread" if ghost.code in ("", "?") else "atk.ask.fix"
        return self.ask_card(line, "fix", child_message(code, read=read))

    def answered(self, ask: Ask, answer: Any) -> Ask | None:
        """The answer to ``ask`` about a line (None: closed without one): "where" (on which
        line the seat put a card), "card" (which card went on it), "fix" (which card a
        camera card on it really is), "misread" (is an earlier card on it right?); "show"
        (which hand the seat ``given`` shows to pass, or "no")."""
        line = ask.given[0]
        if ask.key == "where" and answer in ("0", "1"):
            return self.ask_card(int(answer))
        if ask.key in ("card", "fix") and line in self.ghosts and isinstance(answer, str):
            self.fix(line, answer)  # the red card on that line is the one meant
        elif ask.key == "card" and isinstance(answer, str):
            self.put(line, answer)
        elif ask.key == "misread" and answer == "yes" and line in self.misread:
            self.accept_misread(line)
        elif ask.key == "show" and answer == "no":
            self.refuse("atk.must_play", detail=f"seat {line + 1} has a card to play")
        elif ask.key == "show" and isinstance(answer, str):  # the engine checks the hand
            self.perform(Pass(line, tuple(answer.split(","))))
        return None

    def fix(self, line: int, card: str) -> None:
        """A card the camera read wrongly (or not at all) is set right by touch."""
        ghost = self.ghosts[line]
        log.info("math-attack: camera card %r on line %d set right to %s", ghost.code, line, card)
        self.fixes[line][ghost.position] = (ghost.code, card)
        self.new_card(line, ghost.position, ghost.code, card)

    def accept_misread(self, line: int) -> None:
        """The camera keeps misreading an earlier card: a person says the game is right."""
        position, code = self.misread.pop(line)
        card = self.state.lines[line][position]
        self.fixes[line][position] = (code, card)
        self.trouble.pop(line, None)
        log.info("math-attack: card %d on line %d read as %r is %s", position + 1, line, code, card)
        said = {"place": position + 1, "owner": self.name(line), "card": label(card)}
        self.say(child_message("atk.line.confirmed", said))
        seen = self.last_seen.get(line)
        if seen is not None:
            self.cards_seen(line + 1, "line", seen)  # a new card in that reading counts now

    # -- the camera -------------------------------------------------------------------------------

    def cards_seen(self, seat: int | None, area: str | None, codes: tuple[str, ...]) -> None:
        """A zone's steady reading. A new card at the end of a number line is a play."""
        if area not in ("line", None) or seat not in (1, 2):
            if codes and area == "line":  # a third number line: no player has it
                self.refuse("atk.ui.no_line", {}, f"camera {codes} on line {seat}")
            log.info("math-attack: ignored cards seen at seat %r, area %r", seat, area)
            return
        assert seat is not None
        line = seat - 1
        self.last_seen[line] = codes
        self.misread.pop(line, None)
        if self.virtual:
            if codes:
                self.refuse("atk.ui.virtual", detail=f"camera cards {codes} in virtual play")
            return
        known, facts, fixes = self.state.lines[line], self.facts(line), self.fixes[line]
        # a card set right by touch is that card at its place, read as it was then; one
        # taken back (above the cards in play) also lower down once a card under it went
        # first, never higher; each card once (another card read the same is another)
        left, read = dict(fixes), []
        for i, code in enumerate(codes):
            here = [at for at in left if left[at][0] == code and (at == i or len(known) <= i < at)]
            read.append(left.pop(min(here))[1] if here else parse_card(code))
        wrong = next((i for i, card in enumerate(known) if read[i : i + 1] != [card]), None)
        extra = read[len(known) :]
        # cards taken back are forgotten as they leave the line, or all once it reads as
        # one move or none; a touch fix of one holds while it is on the table (the camera
        # may still misread it)
        taken = self.undone.pop(line, ())
        rest: Iterator[str | None] = iter(taken)  # the new cards are only ones taken back
        still = wrong is None and bool(extra) and all(card in rest for card in extra)
        too_many = wrong is None and len(extra) > 1 and not still
        if still:
            self.undone[line] = tuple(card for card in extra if card is not None)
        elif taken and (wrong is not None or too_many):
            self.undone[line] = taken
        elif taken:
            self.fixes[line] = {i: fix for i, fix in fixes.items() if i < len(known)}
        if wrong is not None:  # an earlier card is gone, or reads as another
            place = {**facts, "place": wrong + 1, "card": label(known[wrong])}
            what = "atk.ui.taken" if wrong >= len(read) else "atk.ui.moved"
            self.trouble[line] = self.refuse(what, place, f"camera {codes}")
            if wrong < len(read):
                self.misread[line] = (wrong, codes[wrong])
        elif too_many:
            n = len(extra)
            more = {**facts, "count": n, "extra": "one" if n == 2 else f"{n - 1}"}
            self.trouble[line] = self.refuse("atk.ui.two_cards", more, f"camera {codes}")
        else:
            self.trouble.pop(line, None)
        if wrong is not None or too_many:
            self.ghosts.pop(line, None)
        elif not extra and self.ghosts.pop(line, None) is not None:
            self.say(child_message("atk.line.back", owner=self.name(line)))
        elif still:  # only cards taken back: wait for them to go
            self.say(child_message("atk.ui.take_back"), "error")
        elif extra:
            self.new_card(line, len(known), codes[len(known)], extra[0])

    def new_card(self, line: int, position: int, code: str, card: str | None) -> None:
        """One new card read at the end of ``line``: played, or refused and shown as a ghost."""
        if self.over:
            self.refuse("atk.game_over")
        elif card is None:
            what = "atk.ui.unreadable" if code in ("", "?") else "atk.ui.not_ours"
            self.refuse(what, self.facts(line), f"camera card {code!r} on line {line}")
        elif self.put(line, card) is None:
            self.ghosts.pop(line, None)
            return
        self.ghosts[line] = Ghost(position, code, card)

    # -- the record beside the match -------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """What the table keeps beyond the match (see the module)."""
        return {
            "took_back": self.took_back,
            "undone": {str(line): list(cards) for line, cards in self.undone.items()},
            "fixes": {
                str(line): [[pos, read, card] for pos, (read, card) in sorted(fixes.items())]
                for line, fixes in self.fixes.items()
                if fixes
            },
        }

    def carry_on(self, record: Mapping[str, Any] | None) -> None:
        """Put back what :meth:`record` kept (nothing for a game journaled without it)."""
        if not record:
            return
        self.took_back = bool(record.get("took_back", False))
        for line, cards in record.get("undone", {}).items():  # one card (str) before
            self.undone[int(line)] = (cards,) if isinstance(cards, str) else tuple(cards)
        for line, fixes in record.get("fixes", {}).items():
            for pos, read, card in fixes:
                self.fixes[int(line)][int(pos)] = (str(read), str(card))


__all__ = ["BOT_SECONDS", "GAME", "PICKER", "Ask", "AttackPlay", "Ghost", "label", "num"]
