"""Mathe-Meister's controllers, without a display: solo, the child's sheet (:mod:`.solo`),
and what both it and the table's (:mod:`.paper`) ask about a sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tabletop.bots.mathe_meister import Hint, hint
from tabletop.classroom.mistakes import LEFT_TO_RIGHT, Question
from tabletop.engine.dealers import KeyedDealer
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.engine.words import and_joined, plural
from tabletop.games.mathe_meister import (
    COIN_POINTS,
    EMPTY,
    LINES,
    MODE_NAMES,
    OPS,
    Action,
    ChangeDie,
    ClaimStar,
    EndRound,
    Layout,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    Roll,
    ScoreCard,
    Sheet,
    SwapOperands,
    SwapOperators,
    Turn,
    WriteOperand,
    WriteOperator,
    cell_kind,
    die_values,
    line_name,
    line_parts,
    line_score,
    line_words,
    score_sheet,
)
from tabletop.ui.controller import TableController
from tabletop.ui.messages import child_message
from tabletop.ui.saves import keyed_dealer, standings_result

Cell = tuple[int, int]
MMMatch = Match[MatheMeisterSettings, MatheMeisterState, Action]
# a line sum checked: (step, seat, step asked at, question, answer given), as
# :meth:`~tabletop.ui.saves.GameSave.answers_from_match` takes it
LineAnswer = tuple[int, int, int | None, Question, Fraction]
GLYPH = {"+": "+", "-": "\u2212", "x": "\u00d7"}
DICE_SOURCES = {
    "camera": "read by the camera",
    "corrected": "corrected by you",
    "tap": "tapped in",
    "virtual": "rolled by the device",
}


def glyph(ch: str) -> str:
    return GLYPH.get(ch, ch)


def new_match(layout: Layout, modes: Sequence[str], seed: int | None = None) -> MMMatch:
    return Match(MatheMeister(), MatheMeisterSettings(layout, tuple(modes)), 1, seed=seed)


def modes_named(modes: Sequence[str]) -> str:
    return " + ".join(MODE_NAMES[m] for m in modes)


def score_lines(card: ScoreCard) -> list[str]:
    """END GAME SCORING, as on the paper sheet (its minus signs as they print)."""
    return [f"{glyph(words[0])}{words[1:]}: {points}" for words, points in card.rows]


def sums_checked(sheet: Sheet, settings: MatheMeisterSettings) -> list[int]:
    """[sums checked, right] on one sheet: every completed line's sum, right when it
    breaks no rule (:attr:`~tabletop.games.mathe_meister.LineScore.broken`), i.e. when
    it scores plus."""
    done = [ls for ls in score_sheet(sheet, settings).lines if ls.complete]
    return [len(done), sum(ls.broken is None for ls in done)]


def line_answers(match: MMMatch, settings: MatheMeisterSettings) -> list[LineAnswer]:
    """Every line sum the device checked on the sheet (issue 24): at the step a line was
    first completed, its operands and operators worked left to right (MM-3), with the
    rule it breaks, if any (MM-4 parity, MM-10 modes), asked when that round's dice
    came, as :meth:`GameSave.answers_from_match` takes them. A line is one answer, as
    in the report's sums (:func:`sums_checked`): a swap that changes a completed line
    later (MM-7) does not make it a second one."""
    out: dict[str, LineAnswer] = {}
    asked: int | None = None
    for n, step in enumerate(match.steps, 1):
        asked = n if isinstance(step.action, Roll) else asked
        grid = step.state.sheets[0].grid
        for line in LINES:
            if line in out or (ls := line_score(grid, line, settings)).total is None:
                continue
            digits, ops = line_parts(grid, line)
            numbers, total = tuple(Fraction(ch) for ch in digits), Fraction(ls.total)
            q = Question("line_sums", numbers, tuple(ops), total, LEFT_TO_RIGHT, ls.broken)
            out[line] = (n, 0, asked, q, total)
    return list(out.values())


def round_start(match: MMMatch) -> int:
    """Where this round's moves begin in the history (after its dice)."""
    if match.state.dice is None:
        return match.moves
    history = match.history
    return next((i + 1 for i in range(len(history) - 1, -1, -1) if isinstance(history[i], Roll)), 0)


class DicePlay(TableController):
    """What both controllers share: the match and its virtual dice, keyed by the seed and
    where the game is (a game carried on rolls what it would have)."""

    match: MMMatch
    dealer: KeyedDealer

    def roll(self) -> tuple[int, int]:
        """The dice the match waits for (the dice out when it waits for none: the screen
        asks again)."""
        request = self.match.pending.chance
        if request is None:
            return self.match.state.dice or (1, 1)
        dice = self.dealer.deal(request).dice
        return (dice[0], dice[1])


class SoloPlay(DicePlay):
    """One child, one sheet, eight rounds. What the screen is in the middle of: ``pen``
    (a die, a sign or a circled Star Power picked, waiting for a box), ``swap`` (bought
    in the Coin Shop), ``advice`` (the hint shown), ``offers`` (Bonus Stars to offer).
    What the screen is to do next: ``asks`` (dialogs to open, in order) and ``sounds``."""

    def __init__(self, match: MMMatch, *, player: str, seed: int) -> None:
        self.match = match
        self.player = player
        self.dealer = keyed_dealer(seed, match)
        self.pen: tuple[Any, ...] | None = None
        self.swap: dict[str, Any] | None = None
        self.advice: Hint | None = None
        self.offers: list[str] = []
        self.dice_source = ""
        self.asks: list[tuple[str, ...]] = []
        self.sounds: list[str] = []

    # -- what the screen shows -----------------------------------------------------------

    @property
    def state(self) -> MatheMeisterState:
        return self.match.state

    @property
    def settings(self) -> MatheMeisterSettings:
        return self.match.settings

    @property
    def sheet(self) -> Sheet:
        return self.state.sheets[0]

    @property
    def turn(self) -> Turn | None:
        return self.state.turns[0] if self.state.turns else None

    @property
    def round_start(self) -> int:
        """Where this round's moves begin in the history (after its dice; the end of the
        history between rounds)."""
        return round_start(self.match)

    def standings(self) -> Result:
        total = score_sheet(self.sheet, self.settings).total
        return self.match.result() or standings_result(
            [total], f"stopped in round {self.state.round} with {plural(total, 'point')}"
        )

    def checks(self) -> list[list[int]]:
        return [sums_checked(self.sheet, self.settings)]

    def answers(self) -> list[LineAnswer]:
        """The line sums checked so far (:func:`line_answers`)."""
        return line_answers(self.match, self.settings)

    def claimable(self) -> frozenset[str]:
        """The completed lines whose Bonus Star nobody owns yet."""
        free = [line for line in LINES if self.state.owner(line) is None]
        return frozenset(line for line in free if self.sheet.line_complete(line))

    def ghosts(self) -> dict[Cell, str]:
        """The hint's plan, shown in green on the sheet."""
        if self.advice is None:
            return {}
        writes = {w.cell: str(w.value) for w in self.advice.operands}
        return writes | {o.cell: o.op for o in self.advice.operators}

    def fresh(self) -> frozenset[Cell]:
        """The boxes written this round (Undo takes them back)."""
        return frozenset(
            a.cell
            for a in self.match.history[self.round_start :]
            if isinstance(a, WriteOperand | WriteOperator)
        )

    def swap_first(self) -> Cell | None:
        return self.swap["first"] if self.swap else None

    def may_end(self) -> bool:
        """Done is on: the engine would take the end of the round now."""
        return EndRound(0) in self.match.game.legal_actions(self.state, 0)

    def in_round(self) -> bool:
        return self.match.moves > self.round_start and bool(self.state.turns)

    def power_selected(self, index: int) -> bool:
        return self.pen is not None and self.pen[0] in ("power", "opower") and self.pen[-1] == index

    def unchosen(self) -> list[str]:
        """The lines of the stars the device claimed whose Star Power waits (MM-13)."""
        return [c.line for c in self.state.claims if not c.power]

    def dice_words(self) -> str:
        label = DICE_SOURCES.get(self.dice_source, "")
        return f"Dice {label}" if label else "Dice"

    def next_step(self) -> str:
        if self.state.finished:
            step = "over"
        elif self.state.dice is None:
            step = "dice"
        elif self.unchosen():
            return child_message("mm.choose_power")
        else:
            step = "done" if self.may_end() else "write"
        return child_message(f"mm.step.{step}", round=self.state.round)

    def welcome(self, resumed: bool) -> None:
        if resumed:  # then the next step, unless the dice are asked for (their screen says it)
            back = child_message("mm.said.welcome_back", name=self.player, round=self.state.round)
            self.say(back if self.state.dice is None else f"{back} {self.next_step()}")
        else:
            modes = modes_named(self.settings.modes)
            self.say(child_message("mm.said.welcome", name=self.player, modes=modes))
        if self.state.dice is None and not self.state.finished:
            self.asks.append(("dice",))
        self.offers += self.unchosen()  # a star claimed as it stopped: its Star Power (MM-13)

    def refuse(self, code: str, facts: dict[str, object] | None = None) -> None:
        self.sounds.append("wrong")
        self.say(child_message(code, facts), "error")

    # -- the dice ------------------------------------------------------------------------

    def rolled(self, values: tuple[int, int], source: str) -> None:
        if self.state.dice is None and self.perform(Roll(values)):
            self.dice_source = source
            # what the dice let the child write: a 4 is "3 or 5" under Fear of Fours (MM-10)
            a, b = (" or ".join(map(str, die_values(self.settings, v))) for v in values)
            self.say(child_message("mm.said.rolled", round=self.state.round, a=a, b=b))

    def no_dice(self) -> None:
        if self.state.dice is None:
            self.say(child_message("mm.step.dice"))

    # -- taps ----------------------------------------------------------------------------

    def press(self, name: str) -> None:
        kind, _, arg = name.partition(".")
        if kind in ("dice", "shop"):
            self.asks.append((kind,))
        elif kind.startswith("die"):
            self._pick_die(name)
        elif kind == "op":
            self.pen = None if self.pen == ("op", arg) else ("op", arg)
            self.say(child_message("mm.said.op_picked"))
        elif kind == "power":
            self._pick_power(int(arg))
        elif kind == "cell":
            self._tap_cell((int(arg[1]), int(arg[3])))
        elif kind == "star":
            self._tap_star(arg)
        elif kind == "cancel":
            self.swap = None
            self.say(child_message("mm.said.no_swap"))
        else:
            actions = {"hint": self._hint, "undo": self.undo, "done": self._end_round}
            actions.get(kind, lambda: None)()

    def explain(self, name: str) -> None:
        kind, _, arg = name.partition(".")
        if name == "undo":
            self.refuse("engine.nothing_to_undo")
        elif name == "done":
            try:  # the engine's reason the round cannot end: no dice, MM-13's power, the writes
                self.match.game.apply(self.state, EndRound(0))
            except TabletopError as exc:
                self.refuse(exc.code)
            self.asks += [("star", line) for line in self.unchosen()[:1]]  # its Star Power
        elif kind.startswith("die") and self.turn is not None:
            self.refuse("mm.die_used")
        elif kind == "op" and self.turn is not None:
            self.refuse("mm.supply_empty", {"op": glyph(arg)})
        elif kind == "power" and self.sheet.powers[int(arg)] == "used":
            self.say(child_message("mm.said.power_used"), "error")
        elif kind == "power":
            self.say(child_message("mm.said.power_locked"))
        elif name == "shop" and self.settings.has("coinless"):
            self.refuse("mm.coinless")
        else:
            self.refuse("ui.not_ready")

    def answered(self, asking: tuple[str, ...], result: Any, at_ms: int) -> None:
        """A Bonus Star offer (the Star Power circled, or "skip") or the Coin Shop closed
        with ``result`` (``at_ms``: now)."""
        match asking, result:
            case ("star", line), str(power) if power != "skip":
                self.perform(ClaimStar(0, line, power, at=at_ms))
            case _, ("swap", kind):
                self.swap = {"kind": kind, "first": None}
                self.say(child_message(f"mm.said.swap_{kind}"))

    def _pick_die(self, name: str) -> None:
        die = int(name[3])
        value = int(name[5]) if "." in name else self.state.turns[0].dice[die]
        if self.pen is not None and self.pen[0] == "power" and self.pen[2] is None:
            index, self.pen = self.pen[3], ("die", die, value)  # the Star Power's die
            self._pick_power(index)
            return
        self.pen = None if self.pen == ("die", die, value) else ("die", die, value)
        if self.pen is not None:
            self.say(child_message("mm.said.die_picked", value=value))

    def _pick_power(self, index: int) -> None:
        kind, turn = self.settings.layout.star_powers[index], self.turn
        if turn is None:
            self.refuse("mm.roll_first")
        elif kind == "coin":
            self.say(child_message("mm.said.coin_power"))
        elif kind in OPS:
            self.pen = ("opower", kind, index)
            self.say(child_message("mm.said.op_power", op=glyph(kind)))
        elif not (free := [d for d in (0, 1) if not turn.used[d]]):
            self.refuse("mm.die_used")
        else:  # a number (OPERAND_POWERS): for the die picked, the one left, or one to pick
            chosen = self.pen[1] if self.pen is not None and self.pen[0] == "die" else None
            chosen = free[0] if chosen is None and len(free) == 1 else chosen
            self.pen = ("power", kind, chosen, index)
            if chosen is None:
                self.say(child_message("ui.pick_power_die"))
            else:
                self.say(child_message("mm.said.die_power", power=kind, die=chosen + 1))

    def _tap_cell(self, cell: Cell) -> None:
        """A box tapped: what the pen holds is written there (the engine refuses a box
        of the wrong kind, a full or a printed one); with nothing in the pen, say what
        to pick first."""
        turn, pen, kind = self.turn, self.pen, cell_kind(cell)
        if turn is None:
            self.refuse("mm.roll_first")
            return
        if pen is None and kind == "operand":  # both free dice the same: no need to pick
            free = [d for d in (0, 1) if not turn.used[d]]
            values = {v for d in free for v in die_values(self.settings, turn.dice[d])}
            pen = ("die", free[0], values.pop()) if len(values) == 1 else None
        if self.swap is not None:
            self._swap_cell(cell)
        elif kind == "coin":
            self.refuse("ui.coin_cell")
        elif pen is not None and pen[0] == "power" and pen[2] is None and kind == "operand":
            self.refuse("ui.pick_power_die")
        elif pen is not None:
            if self.perform(pen_action(pen, cell)):
                self.pen = None
        elif cell in self.settings.layout.prefilled_map:
            self.refuse("mm.prefilled_operator")
        elif self.sheet.at(cell) != EMPTY:
            self.refuse("mm.cell_full")
        elif kind == "operand":
            self.refuse("mm.die_used" if turn.operands == 2 else "ui.pick_die")
        else:
            self.refuse("mm.two_operators" if turn.operators >= 2 else "ui.pick_operator")

    def _swap_cell(self, cell: Cell) -> None:
        assert self.swap is not None
        first, operators = self.swap["first"], self.swap["kind"] == "operators"
        if first is None and cell_kind(cell) != ("operator" if operators else "operand"):
            self.refuse("mm.swap_kind")
        elif first is None:
            self.swap["first"] = cell
            self.say(child_message("mm.said.swap_first"))
        elif self.perform((SwapOperators if operators else SwapOperands)(0, first, cell)):
            self.swap = None
        else:
            self.swap["first"] = None

    def _tap_star(self, line: str) -> None:
        claim = next((c for c in self.state.claims if c.line == line), None)
        if line in self.sheet.stars:
            self.say(child_message("mm.said.star_yours", line=line_name(line)), "good")
        elif not self.sheet.line_complete(line):
            self.refuse("mm.star_unfinished")
        elif not self.state.turns:
            self.refuse("mm.roll_first")
        elif not self.settings.automatic_claims or (claim is not None and not claim.power):
            self.asks.append(("star", line))
        elif claim is not None:
            facts = {"line": line_name(line), "power": glyph(claim.power)}
            self.say(child_message("mm.said.star_at_end", facts), "good")
        elif self.state.owner(line) is None and not self.state.turns[0].writes_done:
            self.refuse("mm.claim_after_writes")
        else:
            self.refuse("mm.star_owned")

    # -- moves -----------------------------------------------------------------------------

    def perform(self, action: Action) -> bool:
        """Apply one move; a refused move is explained and changes nothing."""
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            op = glyph(action.op) if isinstance(action, WriteOperator) else None
            self.refuse(exc.code, {"op": op} if op else {})
            return False
        self.advice = None
        self._tell(events)
        return True

    def _tell(self, events: Sequence[Event]) -> None:
        """Say what a move did, short enough for the line at 800x480: the line it
        completed with its sum, and that its star comes after the round's writes (MM-13);
        two lines completed at once, their sums alone; then the stars the device claims; the
        stars a round's end gives, one line for several."""
        spoken: list[str] = []
        done = [e for e in events if e.code == "mm.line_complete"]
        claimed: list[str] = []  # stars the device claims (MM-13), said short
        won = [line_name(e.data["line"]) for e in events if e.code == "mm.star_won"]
        later = False  # a completed line's star comes after the round's writes
        sound = "tap"
        for event in events:
            code, line = event.code, str(event.data.get("line", ""))
            if code in SPOKEN and (code != "mm.star_won" or len(won) == 1):
                spoken.append(SPOKEN[code](event.data))
            if code == "mm.line_complete":
                points = int(event.data.get("points", 0))
                sound = "good" if points > 0 else "wrong" if points < 0 else sound
                said = "mm.said.line_done" if len(done) == 1 else "mm.said.line_done_short"
                words = " ".join(line_words(self.sheet.grid, line))
                signed = plural(points, "point", signed=True)
                facts = {"words": words, "total": event.data.get("total"), "points": signed}
                spoken.append(child_message(said, facts, line=line_name(line)))
                later = self._completed(line) or later
            elif code == "mm.star_claimed_auto":
                claimed.append(line_name(line))
                if line not in self.offers:
                    self.offers.append(line)
            sound = SOUNDS.get(code, sound)
        if later and len(done) == 1:
            spoken.append(child_message("mm.said.star_after_writes"))
        # the Star Power of a star the device claims is chosen in the dialog that opens now
        if len(claimed) == 1:
            spoken.append(child_message("mm.said.star_claimed", line=claimed[0]))
        elif claimed:
            spoken.append(child_message("mm.said.stars_claimed", count=len(claimed)))
        if len(won) > 1:  # a round's end gives several: one line that fits, not one each
            spoken.append(child_message("mm.said.stars_won", count=len(won), lines=and_joined(won)))
        self.sounds.append(sound)
        # a silent move (a number or a sign written) clears the line: the next step shows
        self.say(" ".join(spoken), "good" if spoken else "info")

    def _completed(self, line: str) -> bool:
        """A line was completed: its Bonus Star is offered; with automatic claims (MM-13)
        True when it comes once the round's writes are in."""
        state = self.state
        if not self.settings.automatic_claims:
            if line not in self.sheet.stars and line not in self.offers:
                self.offers.append(line)
            return False
        return (
            state.owner(line) is None
            and bool(state.turns)
            and not any(c.line == line for c in state.claims)
        )

    def offer_next(self) -> None:
        """Offer the Bonus Star of the first line just completed that is still free."""
        while self.offers:
            line = self.offers.pop(0)
            if self.state.turns and self.state.owner(line) is None:
                self.asks.append(("star", line))
                return

    def undo(self) -> None:
        if self.match.moves <= self.round_start:
            self.refuse("ui.undo_round" if self.state.round > 1 else "engine.nothing_to_undo")
            return
        action = self.match.undo()
        self.pen, self.swap, self.advice, self.offers = None, None, None, []
        self.sounds.append("tap")
        self.say(TAKEN_BACK.get(type(action), lambda a: child_message("mm.undone.move"))(action))

    def _hint(self) -> None:
        if unchosen := self.unchosen():  # MM-13: the star's Star Power is the next step
            self.say(child_message("mm.choose_power"), "hint")
            self.asks.append(("star", unchosen[0]))
            return
        try:
            self.advice = hint(self.state, 0)
        except ValueError:
            self.refuse("ui.not_ready")
            return
        self.say(hint_words(self.advice), "hint")

    def _end_round(self) -> None:
        finished_round = self.state.round
        if self.perform(EndRound(0)):
            self.pen, self.swap, self.offers = None, None, []
            if not self.state.finished:
                if self.tone != "good":  # the stars its end gave stay said (then the next step)
                    self.say(child_message("mm.said.round_over", round=finished_round))
                self.asks.append(("dice",))


def pen_action(pen: tuple[Any, ...], cell: Cell) -> WriteOperand | WriteOperator:
    """What the pen writes in ``cell``: a die's value, a Star Power's number for its die
    (none chosen yet: die 1, for a box the engine refuses before it looks at the die),
    or a sign."""
    if pen[0] == "die":
        return WriteOperand(0, cell, pen[2], pen[1])
    if pen[0] == "power":
        return WriteOperand(0, cell, int(pen[1]), pen[2] or 0, pen[1])
    return WriteOperator(0, cell, pen[1], power=pen[0] == "opower")


# what a move did, in the sentence table's words, from the event's facts
SPOKEN: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "mm.power_chosen": lambda d: child_message(
        f"mm.said.power_chosen_{d['use']}",
        d,
        line=line_name(d["line"]),
        power=glyph(d["power"]),
        points=COIN_POINTS,
    ),
    "mm.die_changed": lambda d: child_message(
        "mm.said.die_changed", d, die=d["die"] + 1, coins=plural(d["cost"], "coin")
    ),
    "mm.swapped": lambda d: child_message(f"mm.said.swapped_{d['kind']}", d),
    "mm.star_won": lambda d: child_message(
        "mm.said.star_won", d, line=line_name(d["line"]), power=glyph(d["power"])
    ),
}
SOUNDS = dict.fromkeys(("mm.star_claimed_auto", "mm.star_won"), "star")
SOUNDS |= dict.fromkeys(("mm.round_over", "mm.game_over"), "round")


# a move taken back, in words
TAKEN_BACK: dict[type, Callable[[Any], str]] = {
    WriteOperand: lambda a: child_message("mm.undone.write", thing=a.value),
    WriteOperator: lambda a: child_message("mm.undone.write", thing=glyph(a.op)),
    ChangeDie: lambda a: child_message("mm.undone.shop"),
    ClaimStar: lambda a: child_message("mm.undone.star", line=line_name(a.line)),
    SwapOperators: lambda a: child_message("mm.undone.swap"),
    SwapOperands: lambda a: child_message("mm.undone.swap"),
}


def hint_words(advice: Hint) -> str:
    """The hint in a sentence or two; the green boxes on the sheet show where."""
    sentences = []
    if advice.changes:
        changes = " and ".join(f"{c.delta:+d} on die {c.die + 1}" for c in advice.changes)
        sentences.append(child_message("mm.hint.shop", changes=changes))
    things = [str(w.value) for w in advice.operands] + [glyph(o.op) for o in advice.operators]
    if things:
        write = "mm.hint.write_one" if len(things) == 1 else "mm.hint.write"
        sentences.append(child_message(write, things=and_joined(things)))
    if not sentences:
        return child_message("mm.hint.done")
    return child_message("mm.hint.hint", what=" ".join(sentences))


__all__ = [
    "DicePlay",
    "MMMatch",
    "SoloPlay",
    "glyph",
    "line_answers",
    "new_match",
    "round_start",
    "sums_checked",
]
