"""Solo Mathe-Meister on the touchscreen: the digital tracking sheet.

Each round the dice come from the dice screen (camera, taps or virtual). The child taps
a die (or +, -, x, or a circled Star Power) and then a box on the sheet. A completed
line shows its sum and points at once, and its Bonus Star is offered. The Coin Shop
changes dice and swaps; Hint shows the hint engine's plan in green; Undo takes back
moves of this round; Done ends the round. Refused moves are explained in a sentence.

The game is journaled (``self.save``, issue 10) before each change shows; a game left
unfinished is carried on by :mod:`tabletop.ui.scenes.mm_resume`. Virtual dice ("Roll for
me") are keyed by the game's seed and the moves so far, so a game carried on rolls what
it would have. The sums the device checked (each completed line: right when its sum has
the parity the line wants and the line obeys the mode) go to the teacher's report.

Touch targets (``target(name)``): ``die0`` ``die1`` (``die0.3`` / ``die0.5`` for a 4 under
Fear of Fours), ``op.+`` ``op.-`` ``op.x``, ``power.<i>`` (Star Power i of the sheet),
``cell.r<r>c<c>``, ``star.R1``..``star.C4``, ``shop``, ``hint``, ``undo``, ``done``,
``dice``, ``mute``, ``leave``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pygame

from tabletop.bots.mathe_meister import Hint, hint
from tabletop.classroom.mistakes import LEFT_TO_RIGHT, Question
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event, Result
from tabletop.games.mathe_meister import (
    EMPTY,
    LINES,
    MODE_NAMES,
    OPERAND_POWERS,
    OPS,
    ROUNDS,
    Action,
    ChangeDie,
    ClaimStar,
    EndRound,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    Roll,
    Sheet,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
    cell_kind,
    evaluate,
    line_name,
    line_parts,
    line_validates,
    score_sheet,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import Back, InputEvent, Tap
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, keyed_dealer, seat_infos, standings_result
from tabletop.ui.scenes.common import ask_leave, go_home
from tabletop.ui.scenes.dice import DiceResult, DiceScene
from tabletop.ui.scenes.mm_dialogs import CoinShop, StarPick
from tabletop.ui.sheet import SheetGeometry, SheetLook, draw_sheet, glyph
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, hit

Cell = tuple[int, int]
MMMatch = Match[MatheMeisterSettings, MatheMeisterState, Action]
POWER_LABEL = {"coin": "coin", "+": "+", "-": "\u2212", "x": "\u00d7"}


def new_match(ctx: Context, modes: Sequence[str], seed: int | None = None) -> MMMatch:
    settings = MatheMeisterSettings(ctx.layout, tuple(modes))
    return Match(MatheMeister(), settings, 1, seed=seed)


def sums_checked(sheet: Sheet, settings: MatheMeisterSettings) -> list[int]:
    """[sums checked, right] on one sheet: every completed line's sum, right when it has
    the parity its line wants (rows even, columns odd, MM-4) and the line obeys the mode
    (MM-10), i.e. when it scores plus."""
    card = score_sheet(sheet, settings)
    done = [ls for ls in card.lines if ls.complete]
    right = [
        ls
        for ls in done
        if ls.valid and ls.total is not None and ls.total % 2 == (0 if ls.line[0] == "R" else 1)
    ]
    return [len(done), len(right)]


def line_answers(
    match: MMMatch, settings: MatheMeisterSettings
) -> list[tuple[int, int, int | None, Question, Fraction]]:
    """Every line sum the device checked on the sheet (issue 24): at the step a line was
    first completed, its operands and operators worked left to right (MM-3), with the
    rule it breaks, if any (MM-4 parity, MM-10 modes), asked when that round's dice
    came, as :meth:`GameSave.answers_from_match` takes them. A line is one answer, as
    in the report's sums (:func:`sums_checked`): a swap that changes a completed line
    later (MM-7) does not make it a second one."""
    out: list[tuple[int, int, int | None, Question, Fraction]] = []
    seen: set[str] = set()
    asked: int | None = None
    for i, step in enumerate(match.steps):
        if isinstance(step.action, Roll):
            asked = i + 1
        grid = step.state.sheets[0].grid
        for line in LINES:
            parts = line_parts(grid, line)
            if EMPTY in parts[0] or EMPTY in parts[1] or line in seen:
                continue
            seen.add(line)
            operands = [int(ch) for ch in parts[0]]
            total = evaluate(operands, parts[1])
            row = line[0] == "R"
            broken = None
            if total % 2 != (0 if row else 1):
                broken = f"{line_name(line)} needs an {'even' if row else 'odd'} sum"
            elif not line_validates(operands, settings.modes):
                broken = f"{line_name(line)} does not keep the mode's rule"
            q = Question(
                "line_sums",
                tuple(Fraction(n) for n in operands),
                tuple(parts[1]),
                Fraction(total),
                LEFT_TO_RIGHT,
                broken,
            )
            out.append((i + 1, 0, asked, q, Fraction(total)))
    return out


def round_start(match: MMMatch) -> int:
    """Where this round's moves begin in the history (after its dice)."""
    if match.state.dice is None:
        return len(match.history)
    history = match.history
    return next((i + 1 for i in range(len(history) - 1, -1, -1) if isinstance(history[i], Roll)), 0)


def sheet_geometry(m: Metrics) -> SheetGeometry:
    if m.name == "small":
        return SheetGeometry((8, 8), 48, 4, 62, 48)
    return SheetGeometry((12, 12), 64, 5, 84, 64)


class MatheMeisterScene(Scene):
    """One child, one sheet, eight rounds. ``seats``: the child as the journal knows them
    (signed in); ``match`` and ``save`` carry on a journaled game."""

    def __init__(
        self,
        ctx: Context,
        *,
        player: str = "Player 1",
        modes: Sequence[str] = ("freestyle",),
        dice_mode: str | None = None,
        match: MMMatch | None = None,
        seed: int | None = None,
        seats: Sequence[SeatInfo] | None = None,
        save: GameSave | None = None,
    ) -> None:
        super().__init__(ctx)
        self.resumed = match is not None
        if seed is None:
            seed = match.seed if match is not None else None
        self.seed = ctx.rng.randrange(10**9) if seed is None else seed
        self.match = match or new_match(ctx, modes, self.seed)
        self.dealer = keyed_dealer(self.seed, self.match)
        self.player = seats[0].name if seats else player
        self.dice_mode = dice_mode or ctx.prefs.prefs.dice_input
        self.save = save or GameSave(
            ctx,
            MatheMeister.name,
            list(seats) if seats else seat_infos([self.player]),
            {
                "screen": "solo",
                "player": self.player,
                "dice_mode": self.dice_mode,
                "seed": self.seed,
            },
        )
        self.pen: tuple[Any, ...] | None = None
        self.swap: dict[str, Any] | None = None
        self.advice: Hint | None = None
        self.offers: list[str] = []
        self.asking: str | None = None
        self.round_start = round_start(self.match)
        self.message = ("", "info")
        self.dice_source = ""
        self.cells: list[Button] = []
        self.geo = sheet_geometry(ctx.metrics)
        self.look: SheetLook | None = None
        self.may_end = False

    # -- convenience -------------------------------------------------------------------------

    @property
    def state(self) -> MatheMeisterState:
        return self.match.state

    @property
    def settings(self) -> MatheMeisterSettings:
        return self.match.settings

    def now_ms(self) -> int:
        return int(self.ctx.clock() * 1000)

    def standings(self) -> Result:
        """The result, or before the end the sheet's score so far (END GAME SCORING)."""
        total = score_sheet(self.state.sheets[0], self.settings).total
        return self.match.result() or standings_result(
            [total], f"stopped in round {self.state.round} with {total} points"
        )

    def roll(self) -> tuple[int, int]:
        """Virtual dice, keyed by the seed and the moves so far."""
        request = self.match.pending.chance
        if request is None:  # the dice are out: nothing to roll (the screen asks again)
            return self.state.dice or (1, 1)
        action = self.dealer.deal(request)
        return (action.dice[0], action.dice[1])

    def _count_sums(self) -> None:
        """The sums checked for the report, from the sheet as it is now (an undo or a
        swap changes them too)."""
        counted = sums_checked(self.state.sheets[0], self.settings)
        if self.save.checks and self.save.checks[0] != counted:
            self.save.checks[0] = counted
            self.save.write_meta()
        self.save.answers_from_match(line_answers(self.match, self.settings))

    # -- lifecycle ---------------------------------------------------------------------------

    def enter(self) -> None:
        self.save.attach(self.match)
        modes = " + ".join(MODE_NAMES[m] for m in self.settings.modes)
        if self.resumed:
            self.message = (
                f"Welcome back, {self.player}! This is round {self.state.round}.",
                "info",
            )
        else:
            self.message = (f"{self.player}, let's play Mathe-Meister ({modes})!", "info")
        self._refresh()
        if self.state.dice is None and not self.state.finished:
            self.ask_dice()

    def resume(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if isinstance(result, DiceResult):
            self._rolled(result)
        elif isinstance(result, tuple) and result and result[0] == "claim":
            _, line, power = result
            self.perform(ClaimStar(0, line, power, at=self.now_ms()))
        elif isinstance(result, tuple) and result and result[0] == "swap":
            self.swap = {"kind": result[1], "first": None}
            what = "grey boxes (signs)" if result[1] == "operators" else "white boxes (numbers)"
            self.say(f"Tap two {what} to swap them.", "info")
        elif asking == "leave" and result == "yes":
            self.save.finish(self.standings(), reason="abandoned")
            go_home(self.stack)
            return
        elif asking == "dice" and result is None and self.state.dice is None:
            self.say("Tap 'Get the dice' when you are ready.", "info")
        self._refresh()
        self._offer_next()

    def ask_dice(self) -> None:
        self.asking = "dice"
        self.stack.push(
            DiceScene(
                self.ctx,
                title=f"Round {self.state.round} of {ROUNDS}: the dice",
                mode=self.dice_mode,
                roll=self.roll,
                match_id=self.save.id,
            )
        )

    def _rolled(self, result: DiceResult) -> None:
        if self.state.dice is not None:
            return
        if self.perform(Roll(result.values)):
            self.round_start = len(self.match.history)
            self.dice_source = result.source
            a, b = result.values
            self.say(f"Round {self.state.round}: write {a} and {b}, and two signs.", "info")

    # -- layout ------------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        self.geo = sheet_geometry(metrics)
        m = metrics
        bounds = self.geo.bounds
        below = pygame.Rect(
            self.geo.grid.left,
            bounds.bottom + m.u(6),
            bounds.width,
            m.height - bounds.bottom - m.u(10),
        )
        self.table: pygame.Rect | None = None
        if m.name == "small":
            # panel: header, dice, operators, Star Powers 4x3, shop/hint/undo, done;
            # the message under the sheet
            self.panel = pygame.Rect(496, 8, 296, 464)
            self.power_columns, self.power_h = 4, m.u(52)
            heights = [m.u(48), m.u(64), m.u(52), 3 * m.u(52) + 2 * m.u(4), m.u(52), m.u(48)]
            self.message_rect = below
        else:
            # 1280x720: the END GAME SCORING table under the sheet, the message in the panel
            self.panel = pygame.Rect(bounds.right + 16, 12, m.width - bounds.right - 28, 696)
            self.power_columns, self.power_h = 6, m.u(48)
            heights = [m.u(44), m.u(64), m.u(52), 2 * m.u(48) + m.u(4), m.u(48), m.u(58), m.u(44)]
            self.table = below
        gap = (self.panel.height - sum(heights)) // (len(heights) - 1)
        self.rows: list[pygame.Rect] = []
        y = self.panel.top
        for h in heights:
            self.rows.append(pygame.Rect(self.panel.left, y, self.panel.width, h))
            y += h + gap
        if self.table is not None:
            self.message_rect = self.rows[5]
        self._refresh()

    # -- state -> what is shown ---------------------------------------------------------------

    def _refresh(self) -> None:
        """Work out what the screen shows (draw only paints it)."""
        if not hasattr(self, "panel"):
            return
        state, m = self.state, self.m
        sheet = state.sheets[0]
        card = score_sheet(sheet, self.settings)
        turn = state.turns[0] if state.turns else None
        claimable = frozenset(
            line
            for line in LINES
            if sheet.line_complete(line) and line not in sheet.stars and state.owner(line) is None
        )
        ghosts: dict[Cell, str] = {}
        if self.advice is not None:
            for write in self.advice.operands:
                ghosts[write.cell] = str(write.value)
            for o in self.advice.operators:
                ghosts[o.cell] = o.op
        selected: set[Cell] = set()
        if self.swap and self.swap["first"] is not None:
            selected.add(self.swap["first"])
        fresh = frozenset(
            a.cell
            for a in self.match.history[self.round_start :]
            if isinstance(a, WriteOperand | WriteOperator)
        )
        self.look = SheetLook(
            sheet, self.settings, card, frozenset(selected), ghosts, claimable, fresh=fresh
        )
        self.card = card
        self.may_end = (
            turn is not None
            and not turn.done
            and any(isinstance(a, EndRound) for a in self.match.game.legal_actions(state, 0))
        )
        layout = self.settings.layout
        rows = self.rows
        buttons: list[Button] = []
        # header
        r = rows[0]
        mute = "Muted" if self.ctx.sounds.muted else "Sound"
        buttons.append(
            Button(
                "mute",
                pygame.Rect(r.right - m.u(136), r.top, m.u(64), r.height),
                mute,
                kind="toggle",
                selected=self.ctx.sounds.muted,
                size=m.small,
            )
        )
        buttons.append(
            Button(
                "leave",
                pygame.Rect(r.right - m.u(66), r.top, m.u(66), r.height),
                "Leave",
                kind="quiet",
                size=m.small,
            )
        )
        # dice
        r = rows[1]
        if turn is None:
            buttons.append(
                Button(
                    "dice",
                    pygame.Rect(r.left, r.top, m.u(200), r.height),
                    "Get the dice",
                    enabled=not state.finished,
                )
            )
        else:
            x = r.left
            for die in (0, 1):
                value = turn.dice[die]
                if self.settings.has("fear_of_fours") and value == 4 and not turn.used[die]:
                    for alt in (3, 5):
                        selected_die = self.pen == ("die", die, alt)
                        buttons.append(
                            Button(
                                f"die{die}.{alt}",
                                pygame.Rect(x, r.top, m.u(56), r.height),
                                str(alt),
                                kind="choice",
                                selected=selected_die,
                                caption="for 4",
                            )
                        )
                        x += m.u(60)
                else:
                    pen_die = self.pen is not None and self.pen[0] == "die" and self.pen[1] == die
                    buttons.append(
                        Button(
                            f"die{die}",
                            pygame.Rect(x, r.top, r.height, r.height),
                            str(value),
                            kind="die",
                            selected=pen_die,
                            enabled=not turn.used[die],
                        )
                    )
                    x += r.height + m.u(8)
        # operators
        ops_area = rows[2]
        w = (ops_area.width - 2 * m.u(8)) // 3
        for i, op in enumerate(OPS):
            rect = pygame.Rect(ops_area.left + i * (w + m.u(8)), ops_area.top, w, ops_area.height)
            buttons.append(
                Button(
                    f"op.{op}",
                    rect,
                    glyph(op),
                    kind="choice",
                    selected=self.pen == ("op", op),
                    enabled=sheet.supply[i] > 0 and turn is not None,
                    caption=f"{sheet.supply[i]} left",
                    size=m.big,
                )
            )
        # Star Powers: 4 x 3
        area = rows[3]
        cols = self.power_columns
        w = (area.width - (cols - 1) * m.u(6)) // cols
        h = self.power_h
        for i, (kind, power_state) in enumerate(zip(layout.star_powers, sheet.powers)):
            rect = pygame.Rect(
                area.left + (i % cols) * (w + m.u(6)), area.top + (i // cols) * (h + m.u(4)), w, h
            )
            buttons.append(
                Button(
                    f"power.{i}",
                    rect,
                    POWER_LABEL.get(kind, kind),
                    kind="power",
                    selected=self._power_selected(i),
                    caption=power_state,
                    enabled=power_state == "circled",
                )
            )
        # shop, hint, undo
        r = rows[4]
        w = (r.width - 2 * m.u(8)) // 3
        coins = sheet.coins(layout)
        shop_open = not self.settings.has("coinless") and turn is not None
        in_round = len(self.match.history) > self.round_start and turn is not None
        for i, (name, label, enabled, caption) in enumerate(
            (
                ("shop", "Coin Shop", shop_open, f"{coins} coins"),
                ("hint", "Hint", turn is not None and not turn.done, ""),
                ("undo", "Undo", in_round, ""),
            )
        ):
            buttons.append(
                Button(
                    name,
                    pygame.Rect(r.left + i * (w + m.u(8)), r.top, w, r.height),
                    label,
                    kind="quiet" if name != "shop" else "primary",
                    enabled=enabled,
                    caption=caption,
                    size=m.text,
                )
            )
        # done / cancel swap
        r = rows[-1]
        if self.swap:
            buttons.append(Button("cancel", r.copy(), "Cancel the swap", kind="quiet"))
        else:
            buttons.append(
                Button("done", r.copy(), f"Done with round {state.round}", enabled=self.may_end)
            )
        self.buttons = buttons
        self.cells = [
            Button(f"cell.r{rr}c{cc}", self.geo.cell_rect((rr, cc)), kind="cell")
            for rr in range(7)
            for cc in range(7)
        ] + [Button(f"star.{line}", self.geo.star_rect(line), kind="cell") for line in LINES]

    def _power_selected(self, index: int) -> bool:
        return self.pen is not None and self.pen[0] in ("power", "opower") and self.pen[-1] == index

    def targets(self) -> list[Button]:
        return [*self.buttons, *self.cells]

    def say(self, text: str, kind: str = "info") -> None:
        self.message = (text, kind)

    def refuse(self, code: str, facts: dict[str, object] | None = None) -> None:
        self.ctx.sounds.play("wrong")
        self.say(child_message(code, facts), "error")

    # -- input ---------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.press("leave")
            return
        if not isinstance(event, Tap):
            return
        button = hit(self.targets(), event.pos)
        if button is None:
            return
        if not button.enabled:
            self._explain_disabled(button.name)
            return
        self.press(button.name)
        self._refresh()
        self._offer_next()

    def press(self, name: str) -> None:
        """Act on one touch target (the tests and the demo tap these by name)."""
        if name == "leave":
            self.asking = "leave"
            self.stack.push(ask_leave(self.ctx, "Leave this game? It ends here."))
        elif name == "mute":
            self.ctx.set_sound(muted=not self.ctx.sounds.muted)
        elif name == "dice":
            self.ask_dice()
        elif name.startswith("die"):
            self._pick_die(name)
        elif name.startswith("op."):
            self.pen = None if self.pen == ("op", name[3:]) else ("op", name[3:])
            self.say("Now tap a grey box for the sign.", "info")
        elif name.startswith("power."):
            self._pick_power(int(name[6:]))
        elif name.startswith("cell."):
            rc = name[6:]
            self._tap_cell((int(rc[0]), int(rc[2])))
        elif name.startswith("star."):
            self._tap_star(name[5:])
        elif name == "shop":
            self.stack.push(
                CoinShop(self.ctx, self.perform, lambda: self.state, message=lambda: self.message)
            )
        elif name == "hint":
            self._hint()
        elif name == "undo":
            self.undo()
        elif name == "cancel":
            self.swap = None
            self.say("No swap.", "info")
        elif name == "done":
            self._end_round()

    def _explain_disabled(self, name: str) -> None:
        turn = self.state.turns[0] if self.state.turns else None
        if name == "undo":
            self.refuse("engine.nothing_to_undo")
        elif name == "done" and any(not c.power for c in self.state.claims):
            self.refuse("mm.choose_power")  # MM-13: a claimed star waits for its power
            line = next(c.line for c in self.state.claims if not c.power)
            self.stack.push(StarPick(self.ctx, line, self.state))
        elif name == "done":
            self.refuse("mm.writes_missing")
        elif name.startswith("die") and turn is not None:
            self.refuse("mm.die_used")
        elif name.startswith("op.") and turn is not None:
            self.refuse("mm.supply_empty", {"op": glyph(name[3:])})
        elif name.startswith("power."):
            i = int(name[6:])
            power_state = self.state.sheets[0].powers[i]
            if power_state == "used":
                self.say("You already used that Star Power.", "error")
            else:
                self.say("Win a Bonus Star to circle a Star Power. Then you can use it.", "info")
        elif name == "shop" and self.settings.has("coinless"):
            self.refuse("mm.coinless")
        else:
            self.refuse("ui.not_ready")

    def _pick_die(self, name: str) -> None:
        turn = self.state.turns[0]
        die = int(name[3])
        value = int(name[5]) if "." in name else turn.dice[die]
        if self.pen is not None and self.pen[0] == "power" and self.pen[2] is None:
            kind, index = self.pen[1], self.pen[3]
            self.pen = ("power", kind, die, index)
            self.say(f"Star Power {kind} replaces die {die + 1}. Tap a white box.", "info")
            return
        self.pen = None if self.pen == ("die", die, value) else ("die", die, value)
        if self.pen is not None:
            self.say(f"Now tap a white box for the {value}.", "info")

    def _pick_power(self, index: int) -> None:
        kind = self.settings.layout.star_powers[index]
        turn = self.state.turns[0] if self.state.turns else None
        if turn is None:
            self.refuse("mm.roll_first")
            return
        if kind == "coin":
            self.say("A coin Star Power is one more coin for the Coin Shop.", "info")
        elif kind in OPS:
            self.pen = ("opower", kind, index)
            self.say(f"Star Power {glyph(kind)}: tap a grey box.", "info")
        elif kind in OPERAND_POWERS:
            free = [d for d in (0, 1) if not turn.used[d]]
            chosen = self.pen[1] if self.pen is not None and self.pen[0] == "die" else None
            if chosen is None and len(free) == 1:
                chosen = free[0]
            if not free:
                self.refuse("mm.die_used")
                return
            self.pen = ("power", kind, chosen, index)
            if chosen is None:
                self.say(child_message("ui.pick_power_die"), "info")
            else:
                self.say(f"Star Power {kind} replaces die {chosen + 1}. Tap a white box.", "info")

    def _tap_cell(self, cell: Cell) -> None:
        if self.state.turns == ():
            self.refuse("mm.roll_first")
            return
        turn = self.state.turns[0]
        kind = cell_kind(cell)
        if self.swap is not None:
            self._swap_cell(cell)
            return
        if kind == "coin":
            self.refuse("ui.coin_cell")
            return
        pen = self.pen
        if kind == "operand":
            if pen is None:
                free = [d for d in (0, 1) if not turn.used[d]]
                values = {turn.dice[d] for d in free}
                four = self.settings.has("fear_of_fours") and 4 in values
                if free and len(values) == 1 and not four:
                    pen = ("die", free[0], turn.dice[free[0]])
            if pen is not None and pen[0] == "die":
                self.write(WriteOperand(0, cell, pen[2], pen[1]))
            elif pen is not None and pen[0] == "power":
                if pen[2] is None:
                    self.refuse("ui.pick_power_die")
                    return
                self.write(WriteOperand(0, cell, int(pen[1]), pen[2], pen[1]))
            elif pen is not None:  # a sign for a white box
                self.refuse("mm.cell_kind")
            elif self.state.sheets[0].at(cell) != EMPTY:
                self.refuse("mm.cell_full")
            elif turn.operands == 2:
                self.refuse("mm.die_used")
            else:
                self.refuse("ui.pick_die")
        else:
            if pen is not None and pen[0] == "op":
                self.write(WriteOperator(0, cell, pen[1]))
            elif pen is not None and pen[0] == "opower":
                self.write(WriteOperator(0, cell, pen[1], power=True))
            elif cell in self.settings.layout.prefilled_map:
                self.refuse("mm.prefilled_operator")
            elif pen is not None:  # a number for a grey box
                self.refuse("mm.cell_kind")
            elif self.state.sheets[0].at(cell) != EMPTY:
                self.refuse("mm.cell_full")
            elif turn.operators >= 2:
                self.refuse("mm.two_operators")
            else:
                self.refuse("ui.pick_operator")

    def _swap_cell(self, cell: Cell) -> None:
        assert self.swap is not None
        first = self.swap["first"]
        if first is None:
            want = "operator" if self.swap["kind"] == "operators" else "operand"
            if cell_kind(cell) != want:
                self.refuse("mm.swap_kind")
                return
            self.swap["first"] = cell
            self.say("Now tap the box to swap it with.", "info")
            return
        kind = SwapOperators if self.swap["kind"] == "operators" else SwapOperands
        if self.perform(kind(0, first, cell)):
            self.swap = None
        else:
            self.swap["first"] = None

    def _tap_star(self, line: str) -> None:
        sheet = self.state.sheets[0]
        claim = next((c for c in self.state.claims if c.line == line), None)
        if line in sheet.stars:
            self.say(f"{line_name(line)}'s Bonus Star is yours.", "good")
        elif not sheet.line_complete(line):
            self.refuse("mm.star_unfinished")
        elif not self.state.turns:
            self.refuse("mm.roll_first")
        elif not self.settings.automatic_claims or (claim is not None and not claim.power):
            self.stack.push(StarPick(self.ctx, line, self.state))
        elif claim is not None:
            self.say(
                f"{line_name(line)}'s star is yours when the round ends, with the "
                f"{claim.power} Star Power.",
                "good",
            )
        elif self.state.owner(line) is None and not self.state.turns[0].writes_done:
            self.refuse("mm.claim_after_writes")
        else:
            self.refuse("mm.star_owned")

    def write(self, action: WriteOperand | WriteOperator) -> None:
        if self.perform(action):
            self.pen = None

    # -- applying moves -------------------------------------------------------------------------

    def perform(self, action: Action) -> bool:
        """Apply one move; a refused move is explained and changes nothing."""
        try:
            events = self.match.apply(action)
        except TabletopError as exc:
            facts: dict[str, object] = {}
            if isinstance(action, WriteOperator):
                facts["op"] = glyph(action.op)
            self.refuse(exc.code, facts)
            return False
        self.advice = None
        self._count_sums()
        self._tell(events)
        self._refresh()
        if self.state.finished:
            self._finish()
        return True

    def _tell(self, events: Sequence[Event]) -> None:
        spoken: list[str] = []
        sound = "tap"
        for event in events:
            if event.code == "mm.line_complete":
                spoken.append(event.text)
                points = int(event.data.get("points", 0))
                sound = "good" if points > 0 else "wrong" if points < 0 else sound
                line = str(event.data["line"])
                sheet = self.state.sheets[0]
                if self.settings.automatic_claims:  # MM-13: the star comes after the writes
                    turn = self.state.turns[0] if self.state.turns else None
                    if (
                        self.state.owner(line) is None
                        and turn is not None
                        and not any(c.line == line for c in self.state.claims)
                    ):
                        spoken.append("Its star comes when your two numbers and two signs are in.")
                elif line not in sheet.stars and line not in self.offers:
                    self.offers.append(line)
            elif event.code == "mm.star_claimed_auto":
                spoken.append(event.text.replace(" (MM-13)", ""))
                sound = "star"
                line = str(event.data["line"])
                if line not in self.offers:
                    self.offers.append(line)
            elif event.code == "mm.power_chosen":
                spoken.append(event.text)
            elif event.code == "mm.star_won":
                spoken.append(event.text)
                sound = "star"
            elif event.code in ("mm.die_changed", "mm.swapped"):
                spoken.append(event.text)
            elif event.code == "mm.round_over" or event.code == "mm.game_over":
                sound = "round"
        self.ctx.sounds.play(sound)
        if spoken:
            self.say(" ".join(spoken), "good")

    def _offer_next(self) -> None:
        """Offer the Bonus Star of each line just completed, one at a time."""
        if self.stack.top is not self:
            return
        sheet = self.state.sheets[0]
        while self.offers:
            line = self.offers.pop(0)
            if self.state.turns and line not in sheet.stars and self.state.owner(line) is None:
                self.stack.push(StarPick(self.ctx, line, self.state))
                return

    def undo(self) -> None:
        if len(self.match.history) <= self.round_start:
            self.refuse("ui.undo_round" if self.state.round > 1 else "engine.nothing_to_undo")
            return
        action = self.match.undo()
        self._count_sums()
        self.pen, self.swap, self.advice, self.offers = None, None, None, []
        self.ctx.sounds.play("tap")
        self.say(f"Taken back: {_describe(action)}.", "info")
        self._refresh()

    def _hint(self) -> None:
        try:
            self.advice = hint(self.state, 0)
        except ValueError:
            self.refuse("ui.not_ready")
            return
        self.say(_hint_words(self.advice), "hint")
        self._refresh()

    def _end_round(self) -> None:
        finished_round = self.state.round
        if self.perform(EndRound(0)):
            self.pen, self.swap, self.offers = None, None, []
            if not self.state.finished:
                self.say(f"Round {finished_round} is over.", "info")
                self.ask_dice()

    def _finish(self) -> None:
        from tabletop.ui.scenes.results import ResultsScene

        self.save.finish(self.match.result())
        self.stack.replace(
            ResultsScene(self.ctx, match=self.match, player=self.player, dice_mode=self.dice_mode)
        )

    # -- drawing ---------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        if self.look is not None:
            draw_sheet(surface, painter, self.geo, self.look)
        r = self.rows[0]
        room = r.width - m.u(144)
        painter.text(
            surface,
            f"Round {min(self.state.round, ROUNDS)} of {ROUNDS}",
            (r.left, r.top),
            m.text,
            bold=True,
            max_width=room,
        )
        painter.text(
            surface,
            f"Score: {self.card.total}",
            (r.left, r.top + m.text + m.u(4)),
            m.small,
            p.muted,
            max_width=room,
        )
        for b in self.buttons:
            if b.kind == "die":
                self._draw_die(surface, b)
            elif b.kind == "power":
                self._draw_power(surface, b)
            else:
                painter.button(surface, b)
        r = self.rows[1]
        turn = self.state.turns[0] if self.state.turns else None
        if turn is not None:
            dice_right = max(b.rect.right for b in self.buttons if b.name.startswith("die"))
            label = {
                "camera": "read by the camera",
                "corrected": "corrected by you",
                "tap": "tapped in",
                "virtual": "rolled by the device",
            }.get(self.dice_source, "")
            text_rect = pygame.Rect(
                dice_right + m.u(10), r.top, r.right - dice_right - m.u(10), r.height
            )
            painter.paragraph(
                surface, f"Dice {label}" if label else "Dice", text_rect, m.small, p.muted
            )
        self._draw_message(surface)
        if self.table is not None:
            draw_score_strip(surface, painter, self.table, self.card, m)

    def _draw_die(self, surface: pygame.Surface, b: Button) -> None:
        painter, p = self.ctx.painter, self.ctx.painter.p
        if b.enabled:
            painter.die(surface, b.rect, int(b.label))
        else:
            painter.die(
                surface, b.rect, int(b.label), fill=p.quiet, pip=p.coin_spent, border=p.coin_spent
            )
            pygame.draw.line(surface, p.good, b.rect.midleft, b.rect.midright, 3)
        if b.selected:
            pygame.draw.rect(
                surface, p.selected, b.rect.inflate(8, 8), self.m.u(4), border_radius=self.m.u(10)
            )

    def _draw_power(self, surface: pygame.Surface, b: Button) -> None:
        painter, p, m = self.ctx.painter, self.ctx.painter.p, self.m
        state = b.caption
        fill = p.panel if state != "used" else p.quiet
        painter.box(
            surface, b.rect, fill, p.line if state == "circled" else p.button_off, 2, m.u(8)
        )
        star_centre = (b.rect.left + m.u(14), b.rect.centery)
        painter.star(surface, star_centre, m.u(10), p.star if state != "free" else None, p.muted)
        ink = p.ink if state == "circled" else p.button_off_text
        size = m.text if len(b.label) > 1 else m.big
        painter.text(
            surface,
            b.label,
            (b.rect.centerx + m.u(10), b.rect.centery),
            size,
            ink,
            bold=True,
            anchor="center",
            max_width=b.rect.width - m.u(30),
        )
        if state == "circled":
            pygame.draw.ellipse(surface, p.good, b.rect.inflate(-m.u(4), -m.u(6)), m.u(3))
        elif state == "used":
            painter.cross(surface, b.rect.inflate(-m.u(18), -m.u(14)), p.bad, m.u(3))
        if b.selected:
            pygame.draw.rect(surface, p.selected, b.rect.inflate(6, 6), m.u(4), m.u(8))

    def _draw_message(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        text, kind = self.message
        if not text:
            return
        colour = {"error": p.bad, "good": p.good, "hint": p.hint}.get(kind, p.ink)
        rect = self.message_rect
        painter.box(surface, rect, p.panel, colour, 2, m.u(8))
        painter.paragraph(
            surface,
            text,
            rect.inflate(-m.u(12), -m.u(6)),
            m.small + 1,
            colour,
            bold=kind == "error",
        )


def draw_score_table(
    surface: pygame.Surface,
    painter: Any,
    rect: pygame.Rect,
    card: Any,
    m: Metrics,
    title: str = "END GAME SCORING",
) -> None:
    """The END GAME SCORING table, as on the paper sheet."""
    p = painter.p
    rows = [
        ("+ Row Even Sums", card.row_even_sums),
        ("+ Column Odd Sums", card.column_odd_sums),
        ("+ Unspent Coins x 10", card.unspent_coins_x10),
        ("+ Row & Column Stars", card.stars),
        ("\u2212 Row Odd Sums", card.row_odd_sums),
        ("\u2212 Column Even Sums", card.column_even_sums),
    ]
    painter.box(surface, rect, p.panel, p.line, 2, m.u(8))
    pad = m.u(10)
    y = rect.top + pad
    painter.text(
        surface,
        title,
        (rect.centerx, y),
        m.small,
        bold=True,
        anchor="midtop",
        max_width=rect.width - 2 * pad,
    )
    y += m.small + m.u(10)
    final_h = m.text + m.u(14)
    step = (rect.bottom - pad - final_h - y) // len(rows)
    size = min(m.small, max(12, step - m.u(6)))
    for label, value in rows:
        painter.text(
            surface, label, (rect.left + pad, y), size, p.ink, max_width=rect.width - m.u(70)
        )
        painter.text(
            surface, str(value), (rect.right - pad, y), size, p.ink, bold=True, anchor="topright"
        )
        y += step
    y = rect.bottom - pad - final_h
    pygame.draw.line(surface, p.line, (rect.left + pad, y), (rect.right - pad, y), 2)
    painter.text(
        surface,
        "Final Score",
        (rect.left + pad, y + m.u(8)),
        m.text,
        bold=True,
        max_width=rect.width - m.u(80),
    )
    painter.text(
        surface,
        str(card.total),
        (rect.right - pad, y + m.u(8)),
        m.text,
        p.good,
        bold=True,
        anchor="topright",
    )


def draw_score_strip(
    surface: pygame.Surface, painter: Any, rect: pygame.Rect, card: Any, m: Metrics
) -> None:
    """END GAME SCORING in two columns (plus on the left, minus on the right), live."""
    p = painter.p
    painter.box(surface, rect, p.panel, p.line, 2, m.u(8))
    pad = m.u(8)
    size = m.small - 4
    painter.text(
        surface,
        "END GAME SCORING (so far)",
        (rect.left + pad, rect.top + pad // 2),
        size,
        bold=True,
    )
    top = rect.top + pad // 2 + size + m.u(6)
    step = (rect.bottom - pad // 2 - top) // 4
    half = (rect.width - 3 * pad) // 2
    left = [
        ("+ Row Even Sums", card.row_even_sums),
        ("+ Column Odd Sums", card.column_odd_sums),
        ("+ Unspent Coins x 10", card.unspent_coins_x10),
        ("+ Row & Column Stars", card.stars),
    ]
    right = [
        ("\u2212 Row Odd Sums", card.row_odd_sums),
        ("\u2212 Column Even Sums", card.column_even_sums),
    ]
    size = painter.fit_size("+ Unspent Coins x 10", size, half - m.u(46))
    for column, rows in enumerate((left, right)):
        x = rect.left + pad + column * (half + pad)
        for i, (label, value) in enumerate(rows):
            y = top + i * step
            painter.text(surface, label, (x, y), size)
            painter.text(surface, str(value), (x + half, y), size, bold=True, anchor="topright")
    x = rect.left + 2 * pad + half
    y = top + 2 * step + m.u(4)
    pygame.draw.line(surface, p.line, (x, y), (x + half, y), 2)
    painter.text(surface, "Final Score", (x, y + m.u(6)), m.text - 4, bold=True)
    painter.text(
        surface,
        str(card.total),
        (x + half, y + m.u(6)),
        m.text - 4,
        p.good,
        bold=True,
        anchor="topright",
    )


def _describe(action: Action) -> str:
    if isinstance(action, WriteOperand):
        return f"the {action.value}"
    if isinstance(action, WriteOperator):
        return f"the {glyph(action.op)}"
    if isinstance(action, ChangeDie):
        return "the Coin Shop change (coins back)"
    if isinstance(action, ClaimStar):
        return f"the {line_name(action.line)} star"
    if isinstance(action, SwapOperators | SwapOperands):
        return "the swap (coins back)"
    return "the last move"


def _hint_words(advice: Hint) -> str:
    """The hint in a sentence or two; the green boxes on the sheet show where."""
    sentences = []
    if advice.changes:
        changes = " and ".join(f"{c.delta:+d} on die {c.die + 1}" for c in advice.changes)
        sentences.append(f"Coin Shop: {changes}.")
    things = [str(w.value) for w in advice.operands] + [glyph(o.op) for o in advice.operators]
    if things:
        sentences.append(
            f"Write {', '.join(things[:-1])} and {things[-1]} in the green boxes."
            if len(things) > 1
            else f"Write {things[0]} in the green box."
        )
    return "Hint: " + (" ".join(sentences) if sentences else "you are done: end the round.")


__all__ = ["MatheMeisterScene", "draw_score_table", "new_match", "sheet_geometry"]
