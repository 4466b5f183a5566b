"""Mathe-Meister: roll two dice, write operands and operators, score rows and columns.

Rule book: ``shared/seeds/001_34bb6aa83ccde87a.txt``; rulings MM-1..MM-15.

Every player writes on their own sheet at the same time, so every seat that has not
finished the round is pending at once. A round is, in strict sequence (MM-13): the dice
are rolled (a chance outcome), each seat changes dice at the Coin Shop, writes two
operands and two operators; then the device claims the Bonus Star of every line it
completed whose star is still free, and the player chooses the Star Power to circle;
then swaps if it pays, and the end of its round. Claims are settled when every seat has
ended the round, in the order the seats finished their writes (MM-5, MM-13), so a Star
Power circled this round is used from the next round on. The option
``star_claims="paper"`` keeps paper-sheet claiming (MM-5: claimed by hand, any time,
settled at once in solo), which a bot's own sheet at a paper table uses.

Sections: constants, layout and settings, state, actions, scoring, the engine, the
``tabletop check`` scorer, private helpers.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from tabletop.engine import places_from_scores
from tabletop.engine.codec import OMIT_DEFAULT
from tabletop.engine.errors import BadInput, IllegalMove
from tabletop.engine.protocol import ChanceRequest, Event, Game, Pending, Result, Seat
from tabletop.engine.words import plural

# -- constants -------------------------------------------------------------------------

SIZE = 7
ROUNDS = 8
OPS = ("+", "-", "x")
OPERAND_VALUES = (1, 2, 3, 4, 5, 6)
LINES = ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")
POWER_KINDS = ("coin", "+", "-", "x", "1", "2", "5", "6")
OPERAND_POWERS = ("1", "2", "5", "6")
EMPTY, COIN, SPENT = ".", "o", "*"
SWAP_OPERATORS_COST = 4
SWAP_OPERANDS_COST = 5
COIN_POINTS = 10

MODES = (
    "freestyle",
    "twins",
    "coinless",
    "small_to_big",
    "big_to_small",
    "black_hole",
    "fear_of_fours",
)
SOLO_MODES = frozenset({"black_hole", "fear_of_fours"})
MODE_NAMES = {
    "freestyle": "Freestyle",
    "twins": "Twins",
    "coinless": "Coinless",
    "small_to_big": "Small to Big",
    "big_to_small": "Big to Small",
    "black_hole": "Black Hole",
    "fear_of_fours": "Fear of Fours",
}

Cell = tuple[int, int]
NegativeSums = Literal["absolute", "signed"]
StarClaims = Literal["automatic", "paper"]
PowerState = Literal["free", "circled", "used"]


def cell_name(cell: Cell) -> str:
    return f"r{cell[0]}c{cell[1]}"


def cell_kind(cell: Cell) -> str:
    """``operand``, ``operator`` or ``coin`` (MM-1); ``outside`` off the sheet."""
    r, c = cell
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        return "outside"
    if r % 2 == 0 and c % 2 == 0:
        return "operand"
    if r % 2 == 1 and c % 2 == 1:
        return "coin"
    return "operator"


@cache
def line_cells(line: str) -> tuple[Cell, ...]:
    """The seven cells of a line in reading order (left to right, top to bottom)."""
    index = 2 * (int(line[1]) - 1)
    if line[0] == "R":
        return tuple((index, c) for c in range(SIZE))
    return tuple((r, index) for r in range(SIZE))


@cache
def lines_of(cell: Cell) -> tuple[str, ...]:
    """The lines a cell belongs to: two for an operand, one for an operator."""
    r, c = cell
    out = []
    if r % 2 == 0:
        out.append(f"R{r // 2 + 1}")
    if c % 2 == 0:
        out.append(f"C{c // 2 + 1}")
    return tuple(out)


def line_name(line: str) -> str:
    return ("Row " if line[0] == "R" else "Column ") + line[1]


def _a_power(kind: str) -> str:
    """A Star Power of ``kind`` in a sentence, with the article said before it: "an x
    Star Power" (x is said "ex"), "a coin Star Power", "a 6 Star Power"."""
    return f"{'an' if kind == 'x' else 'a'} {kind} Star Power"


ALL_CELLS = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
OPERAND_CELLS = tuple(cell for cell in ALL_CELLS if cell_kind(cell) == "operand")
OPERATOR_CELLS = tuple(cell for cell in ALL_CELLS if cell_kind(cell) == "operator")
COIN_CELLS = tuple(cell for cell in ALL_CELLS if cell_kind(cell) == "coin")


# -- layout and settings -----------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The printed sheet as data (MM-1, MM-2, MM-5, MM-6); loaded from ``tabletop/assets/``."""

    prefilled: tuple[tuple[Cell, str], ...]
    star_values: tuple[tuple[str, int], ...]
    star_powers: tuple[str, ...]

    def __post_init__(self) -> None:
        for cell, op in self.prefilled:
            if cell_kind(cell) != "operator" or op not in OPS:
                raise BadInput(
                    "mm.layout", f"layout: prefilled {cell_name(cell)}={op!r} is not an operator"
                )
        if sorted(line for line, _ in self.star_values) != sorted(LINES):
            raise BadInput("mm.layout", "layout: every line R1..R4, C1..C4 needs one star value")
        for kind in self.star_powers:
            if kind not in POWER_KINDS:
                raise BadInput("mm.layout", f"layout: unknown Star Power {kind!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Layout:
        """From the TOML file's tables (``[prefilled] rows/columns``, ``[stars]``, ...)."""
        try:
            rows = list(data["prefilled"]["rows"])
            columns = list(data["prefilled"]["columns"])
            prefilled = [((2 * i, 3), str(op)) for i, op in enumerate(rows)]
            prefilled += [((3, 2 * j), str(op)) for j, op in enumerate(columns)]
            stars = tuple((str(k), int(v)) for k, v in data["stars"].items())
            powers = tuple(str(k) for k in data["star_powers"]["kinds"])
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput("mm.layout", f"layout: missing or malformed {exc}") from None
        return cls(tuple(prefilled), stars, powers)

    @property
    def prefilled_map(self) -> dict[Cell, str]:
        return dict(self.prefilled)

    def star_value(self, line: str) -> int:
        return dict(self.star_values)[line]

    def blank_grid(self) -> tuple[str, ...]:
        rows = [[EMPTY] * SIZE for _ in range(SIZE)]
        for r, c in COIN_CELLS:
            rows[r][c] = COIN
        for (r, c), op in self.prefilled:
            rows[r][c] = op
        return tuple("".join(row) for row in rows)


def normalise_mode(name: str) -> str:
    """``"Small to Big"``, ``"small-to-big"`` and ``"small_to_big"`` are one mode."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in MODES:
        raise BadInput(
            "mm.unknown_mode",
            f"unknown game mode {name!r}: choose from {', '.join(MODE_NAMES.values())}",
        )
    return key


@dataclass(frozen=True)
class MatheMeisterSettings:
    """Options named in RULINGS.md: ``modes`` (MM-10), ``negative_sums`` (MM-4),
    ``operator_supply`` per operator (MM-7), ``star_claims`` (MM-13: ``automatic``, the
    device claims after the round's writes; ``paper``, claims by hand as on paper)."""

    layout: Layout
    modes: tuple[str, ...] = ("freestyle",)
    negative_sums: NegativeSums = "absolute"
    operator_supply: int = 6
    star_claims: StarClaims = field(default="automatic", metadata={OMIT_DEFAULT: True})

    def __post_init__(self) -> None:
        modes = tuple(sorted({normalise_mode(m) for m in self.modes} or {"freestyle"}))
        object.__setattr__(self, "modes", modes)
        if self.negative_sums not in ("absolute", "signed"):
            raise BadInput(
                "mm.option", f"negative_sums must be absolute or signed, not {self.negative_sums!r}"
            )
        if not 0 <= self.operator_supply <= 9:
            raise BadInput("mm.option", f"operator_supply must be 0..9, not {self.operator_supply}")
        if self.star_claims not in ("automatic", "paper"):
            raise BadInput(
                "mm.option", f"star_claims must be automatic or paper, not {self.star_claims!r}"
            )

    @property
    def automatic_claims(self) -> bool:
        return self.star_claims == "automatic"

    def has(self, mode: str) -> bool:
        return mode in self.modes


# -- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """One player's tracking sheet: the grid as 7 strings (the ``check`` format), the
    operator supply left, each Star Power's state and the Bonus Stars owned."""

    grid: tuple[str, ...]
    supply: tuple[int, int, int]
    powers: tuple[PowerState, ...]
    stars: frozenset[str] = frozenset()

    def at(self, cell: Cell) -> str:
        return self.grid[cell[0]][cell[1]]

    def line_complete(self, line: str) -> bool:
        return all(self.at(cell) != EMPTY for cell in line_cells(line))

    def coins(self, layout: Layout) -> int:
        """Coins that can still be spent: personal unspent plus circled coin powers."""
        personal = sum(row.count(COIN) for row in self.grid)
        return personal + self.powers_ready(layout, "coin")

    def powers_ready(self, layout: Layout, kind: str) -> int:
        return sum(
            1 for k, s in zip(layout.star_powers, self.powers) if k == kind and s == "circled"
        )

    def powers_free(self, layout: Layout, kind: str) -> int:
        return sum(1 for k, s in zip(layout.star_powers, self.powers) if k == kind and s == "free")


@dataclass(frozen=True)
class Turn:
    """One seat's progress in the current round."""

    dice: tuple[int, int]
    used: tuple[bool, bool] = (False, False)
    operators: int = 0
    done: bool = False

    @property
    def operands(self) -> int:
        return sum(self.used)

    @property
    def writes_done(self) -> bool:
        return self.operands == 2 and self.operators == 2


@dataclass(frozen=True)
class Claim:
    """A claimed Bonus Star waiting to be settled (MM-5). With automatic claims (MM-13)
    the device makes it when the seat's writes are done, with ``power`` "" until the
    player chooses the Star Power to circle; ``order`` is then the order in which the
    seats finished their writes."""

    seat: Seat
    line: str
    power: str
    at: int | None
    order: int


@dataclass(frozen=True)
class MatheMeisterState:
    settings: MatheMeisterSettings
    sheets: tuple[Sheet, ...]
    round: int = 1
    dice: tuple[int, int] | None = None
    turns: tuple[Turn, ...] = ()
    claims: tuple[Claim, ...] = ()
    claim_count: int = 0
    finished: bool = False

    @property
    def seats(self) -> int:
        return len(self.sheets)

    @property
    def first_player(self) -> Seat:
        """The round's first player (the roller), taking turns by round."""
        return (self.round - 1) % self.seats

    def owner(self, line: str) -> Seat | None:
        for seat, sheet in enumerate(self.sheets):
            if line in sheet.stars:
                return seat
        return None


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """Chance: the two dice of this round."""

    dice: tuple[int, int]


@dataclass(frozen=True)
class ChangeDie:
    """Coin Shop: spend |delta| coins to add ``delta`` (+-1..3) to one die, for this seat."""

    seat: Seat
    die: int
    delta: int


@dataclass(frozen=True)
class WriteOperand:
    """Write ``value`` into an operand cell, using die ``die`` (0 or 1) of this round,
    or an operand Star Power (``power``) that replaces that die's value."""

    seat: Seat
    cell: Cell
    value: int
    die: int
    power: str | None = None


@dataclass(frozen=True)
class WriteOperator:
    """Write ``op`` into a free operator cell, from the supply or an operator Star Power."""

    seat: Seat
    cell: Cell
    op: str
    power: bool = False


@dataclass(frozen=True)
class ClaimStar:
    """Claim a completed line's Bonus Star; ``power`` is the Star Power to circle if won;
    ``at`` the claim's time in milliseconds (button press or touch), if known. With
    automatic claims (MM-13) the device has claimed the star already: this chooses its
    Star Power."""

    seat: Seat
    line: str
    power: str
    at: int | None = None


@dataclass(frozen=True)
class SwapOperators:
    """Coin Shop (4 coins): swap two written operators after the round's writes."""

    seat: Seat
    a: Cell
    b: Cell


@dataclass(frozen=True)
class SwapOperands:
    """Coin Shop (5 coins): swap two written operands after the round's writes."""

    seat: Seat
    a: Cell
    b: Cell


@dataclass(frozen=True)
class EndRound:
    """This seat has finished the round."""

    seat: Seat


Action = (
    Roll
    | ChangeDie
    | WriteOperand
    | WriteOperator
    | ClaimStar
    | SwapOperators
    | SwapOperands
    | EndRound
)
ACTION_TYPES: tuple[type[Any], ...] = (
    Roll,
    ChangeDie,
    WriteOperand,
    WriteOperator,
    ClaimStar,
    SwapOperators,
    SwapOperands,
    EndRound,
)
ALL_ROLLS = tuple(Roll((a, b)) for a in OPERAND_VALUES for b in OPERAND_VALUES)


# -- scoring -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LineScore:
    line: str
    total: int | None
    valid: bool
    points: int

    @property
    def complete(self) -> bool:
        return self.total is not None

    @property
    def broken(self) -> str | None:
        """The rule a complete line breaks, in words: its parity (MM-4: rows want even
        sums, columns odd), else its mode (MM-10); None when it keeps both (it scores
        plus, or nothing when its sum is 0) or is not complete."""
        if self.total is None:
            return None
        if not sum_wanted(self.line, self.total):
            return f"{line_name(self.line)} needs an {'even' if self.line[0] == 'R' else 'odd'} sum"
        return None if self.valid else f"{line_name(self.line)} does not keep the mode's rule"


@dataclass(frozen=True)
class ScoreCard:
    """The END GAME SCORING table (MM-11), line by line."""

    lines: tuple[LineScore, ...]
    row_even_sums: int
    column_odd_sums: int
    unspent_coins_x10: int
    stars: int
    row_odd_sums: int
    column_even_sums: int
    unspent_coins: int
    unused_powers: int
    star_count: int

    @property
    def total(self) -> int:
        return (
            self.row_even_sums
            + self.column_odd_sums
            + self.unspent_coins_x10
            + self.stars
            - self.row_odd_sums
            - self.column_even_sums
        )

    def line(self, line: str) -> LineScore:
        return next(ls for ls in self.lines if ls.line == line)

    @property
    def rows(self) -> tuple[tuple[str, int], ...]:
        """The table's rows as the paper sheet prints them: (their words, with the sign
        they count with, and their points), the plus rows first."""
        return (
            ("+ Row Even Sums", self.row_even_sums),
            ("+ Column Odd Sums", self.column_odd_sums),
            ("+ Unspent Coins x 10", self.unspent_coins_x10),
            ("+ Row & Column Stars", self.stars),
            ("- Row Odd Sums", self.row_odd_sums),
            ("- Column Even Sums", self.column_even_sums),
        )


def evaluate(operands: Sequence[int], operators: Sequence[str]) -> int:
    """Strictly left to right, no precedence (MM-3): ``3 + 5 + 2 x 2`` is 20."""
    total = operands[0]
    for op, value in zip(operators, operands[1:]):
        total = _apply_op(total, op, value)
    return total


def line_parts(grid: Sequence[str], line: str) -> tuple[list[str], list[str]]:
    """The line's operand characters and operator characters, in reading order."""
    chars = [grid[r][c] for r, c in line_cells(line)]
    return chars[0::2], chars[1::2]


def line_words(grid: Sequence[str], line: str) -> list[str]:
    """A line's operands and operators in reading order, as written (MM-3):
    ``["3", "+", "5", "x", "2"]``."""
    operands, operators = line_parts(grid, line)
    return [ch for pair in itertools.zip_longest(operands, operators) for ch in pair if ch]


def line_validates(operands: Sequence[int], modes: Iterable[str]) -> bool:
    """Twins, Small to Big and Big to Small (MM-10); every chosen mode must hold."""
    pairs = list(itertools.pairwise(operands))
    for mode in modes:
        if mode == "twins" and not any(a == b for a, b in pairs):
            return False
        if mode == "small_to_big" and not all(a <= b for a, b in pairs):
            return False
        if mode == "big_to_small" and not all(a >= b for a, b in pairs):
            return False
    return True


def sum_wanted(line: str, total: int) -> bool:
    """MM-4: whether ``total`` is the kind of sum ``line`` wants (rows even, columns odd)."""
    return total % 2 == (0 if line[0] == "R" else 1)


def line_points(line: str, total: int, valid: bool, negative_sums: NegativeSums) -> int:
    """MM-4: rows want even sums, columns odd; an invalid line keeps only its minus."""
    magnitude = abs(total) if negative_sums == "absolute" else total
    points = magnitude if sum_wanted(line, total) else -magnitude
    return 0 if points > 0 and not valid else points


def line_score(grid: Sequence[str], line: str, settings: MatheMeisterSettings) -> LineScore:
    """One line of ``grid`` scored (MM-3, MM-4, MM-10); no total while a box is empty."""
    digits, ops = line_parts(grid, line)
    if EMPTY in digits or EMPTY in ops:
        return LineScore(line, None, False, 0)
    operands = [int(ch) for ch in digits]
    total = evaluate(operands, ops)
    valid = line_validates(operands, settings.modes)
    return LineScore(line, total, valid, line_points(line, total, valid, settings.negative_sums))


def score_sheet(sheet: Sheet, settings: MatheMeisterSettings) -> ScoreCard:
    """Score a sheet, complete or partial (an unfinished line scores 0)."""
    lines = tuple(line_score(sheet.grid, line, settings) for line in LINES)
    sums = {"row_even_sums": 0, "column_odd_sums": 0, "row_odd_sums": 0, "column_even_sums": 0}
    for ls in lines:
        if ls.total is None:
            continue
        points, even = ls.points, ls.total % 2 == 0
        if ls.line[0] == "R":
            sums["row_even_sums" if even else "row_odd_sums"] += points if even else -points
        else:
            sums["column_even_sums" if even else "column_odd_sums"] += -points if even else points
    coins = sheet.coins(settings.layout)
    unused = sum(1 for s in sheet.powers if s == "circled")
    return ScoreCard(
        lines=lines,
        unspent_coins_x10=COIN_POINTS * coins,
        stars=sum(settings.layout.star_value(line) for line in sheet.stars),
        unspent_coins=coins,
        unused_powers=unused,
        star_count=len(sheet.stars),
        **sums,
    )


def die_values(settings: MatheMeisterSettings, die: int) -> tuple[int, ...]:
    """What a die showing ``die`` lets you write: itself, or 3 or 5 for a 4 under Fear of
    Fours (MM-10). A 4 here is always a rolled 4: the Coin Shop cannot make one (MM-14),
    and a die it changed is written as changed."""
    if settings.has("fear_of_fours") and die == 4:
        return (3, 5)
    return (die,)


def tie_break_key(card: ScoreCard) -> tuple[int, int, int, int]:
    """MM-11: score, then circled-but-unused Star Powers, Bonus Stars, unspent coins."""
    return (card.total, card.unused_powers, card.star_count, card.unspent_coins)


# -- the engine ----------------------------------------------------------------------------


class MatheMeister(Game[MatheMeisterSettings, MatheMeisterState, Action]):
    name = "mathe-meister"
    settings_type = MatheMeisterSettings
    state_type = MatheMeisterState
    action_types = ACTION_TYPES

    def new_game(self, settings: MatheMeisterSettings, seats: int) -> MatheMeisterState:
        if not 1 <= seats <= 8:
            raise BadInput("mm.seats", f"Mathe-Meister is for 1 to 8 players, not {seats}")
        if seats > 1:
            solo_only = SOLO_MODES.intersection(settings.modes)
            if solo_only:
                mode = MODE_NAMES[sorted(solo_only)[0]]
                raise BadInput("mm.solo_mode", f"{mode} is a solo mode: play it with one player")
            if len(set(settings.modes) - {"freestyle"}) > 1:
                raise BadInput("mm.modes", "with several players choose one game mode (MM-10)")
        layout = settings.layout
        sheet = Sheet(
            grid=layout.blank_grid(),
            supply=(settings.operator_supply,) * 3,
            powers=tuple("free" for _ in layout.star_powers),
        )
        return MatheMeisterState(settings=settings, sheets=(sheet,) * seats)

    def pending(self, state: MatheMeisterState) -> Pending[Action]:
        if state.finished:
            return Pending()
        if state.dice is None:
            return Pending(chance=ChanceRequest("dice", "two dice", ALL_ROLLS))
        return Pending(seats=frozenset(s for s, t in enumerate(state.turns) if not t.done))

    def result(self, state: MatheMeisterState) -> Result | None:
        if not state.finished:
            return None
        cards = [score_sheet(sheet, state.settings) for sheet in state.sheets]
        places = places_from_scores([tie_break_key(card) for card in cards])
        if state.seats == 1:
            reason = f"final score {cards[0].total}"
        else:
            best = [s for s, p in enumerate(places) if p == 1]
            reason = "tie stands" if len(best) > 1 else f"seat {best[0] + 1} wins"
        return Result(tuple(Fraction(c.total) for c in cards), places, reason)

    def legal_actions(self, state: MatheMeisterState, seat: Seat) -> list[Action]:
        if seat not in self.pending(state).seats:
            return []
        waiting = [c.line for c in state.claims if c.seat == seat and not c.power]
        if waiting:  # MM-13: the Star Powers of the stars the device claimed come first
            kinds = self._circlable(state, seat)
            return [ClaimStar(seat, line, k) for line in waiting for k in kinds]
        sheet, turn, s = state.sheets[seat], state.turns[seat], state.settings
        layout = s.layout
        actions: list[Action] = []
        coins = sheet.coins(layout)
        shop_open = not s.has("coinless")
        no_shop = (4,) if s.has("fear_of_fours") else ()  # MM-14
        for die in (0, 1):
            if turn.used[die]:
                continue
            if shop_open:
                for delta in (-3, -2, -1, 1, 2, 3):
                    value = turn.dice[die] + delta
                    if abs(delta) <= coins and 1 <= value <= 6 and value not in no_shop:
                        actions.append(ChangeDie(seat, die, delta))
            sources: list[tuple[int, str | None]] = [
                (v, None) for v in die_values(s, turn.dice[die])
            ]
            sources += [(int(k), k) for k in OPERAND_POWERS if sheet.powers_ready(layout, k)]
            for cell in OPERAND_CELLS:
                if sheet.at(cell) == EMPTY:
                    actions.extend(WriteOperand(seat, cell, v, die, p) for v, p in sources)
        if turn.operators < 2:
            for cell in OPERATOR_CELLS:
                if sheet.at(cell) != EMPTY:
                    continue
                for i, op in enumerate(OPS):
                    if sheet.supply[i]:
                        actions.append(WriteOperator(seat, cell, op))
                    if sheet.powers_ready(layout, op):
                        actions.append(WriteOperator(seat, cell, op, power=True))
        if not s.automatic_claims:
            for line in self._claimable(state, seat):
                for kind in self._circlable(state, seat):
                    actions.append(ClaimStar(seat, line, kind))
        if turn.writes_done:
            if shop_open and coins >= SWAP_OPERATORS_COST:
                actions.extend(self._swaps(state, seat, SwapOperators))
            if shop_open and coins >= SWAP_OPERANDS_COST:
                actions.extend(self._swaps(state, seat, SwapOperands))
        if self._may_end(state, seat):
            actions.append(EndRound(seat))
        return actions

    def apply(
        self, state: MatheMeisterState, action: Action
    ) -> tuple[MatheMeisterState, tuple[Event, ...]]:
        if state.finished:
            raise IllegalMove("mm.game_over", "the game is over: all eight rounds are played")
        if isinstance(action, Roll):
            return self._roll(state, action)
        if state.dice is None:
            raise IllegalMove("mm.roll_first", "roll the dice first")
        seat = action.seat
        if not 0 <= seat < state.seats:
            raise IllegalMove("mm.no_such_seat", f"there is no seat {seat + 1} in this game")
        if state.turns[seat].done:
            raise IllegalMove(
                "mm.round_done", f"seat {seat + 1} has already finished round {state.round}"
            )
        handler = {
            ChangeDie: self._change_die,
            WriteOperand: self._write_operand,
            WriteOperator: self._write_operator,
            ClaimStar: self._claim,
            SwapOperators: self._swap,
            SwapOperands: self._swap,
            EndRound: self._end_round,
        }[type(action)]
        new, events = handler(state, action)  # type: ignore[operator]
        return self._settle_if_ready(new, events)

    # -- the moves ---------------------------------------------------------------------

    def _roll(
        self, state: MatheMeisterState, action: Roll
    ) -> tuple[MatheMeisterState, tuple[Event, ...]]:
        if state.dice is not None:
            raise IllegalMove(
                "mm.already_rolled", f"the dice of round {state.round} are already rolled"
            )
        if action not in ALL_ROLLS:
            from tabletop.engine.errors import ImpossibleOutcome

            raise ImpossibleOutcome("mm.bad_die", f"a die shows 1 to 6, not {action.dice}")
        turns = tuple(Turn(action.dice) for _ in state.sheets)
        a, b = action.dice
        event = Event(
            "mm.rolled", f"Round {state.round}: the dice show {a} and {b}.", data={"dice": [a, b]}
        )
        return replace(state, dice=action.dice, turns=turns), (event,)

    def _change_die(self, state: MatheMeisterState, action: ChangeDie) -> _Outcome:
        s, seat = state.settings, action.seat
        sheet, turn = state.sheets[seat], state.turns[seat]
        if s.has("coinless"):
            raise IllegalMove("mm.coinless", "Coinless: coins cannot be spent in this game")
        if action.die not in (0, 1):
            raise IllegalMove("mm.no_such_die", f"there are two dice, 0 and 1, not {action.die}")
        if turn.used[action.die]:
            raise IllegalMove("mm.die_used", f"die {action.die + 1} is already written")
        if action.delta not in (-3, -2, -1, 1, 2, 3):
            raise IllegalMove(
                "mm.shop_delta", f"the Coin Shop changes a die by 1, 2 or 3, not {action.delta}"
            )
        value = turn.dice[action.die] + action.delta
        if not 1 <= value <= 6:
            raise IllegalMove("mm.die_range", f"a die cannot become {value}")
        if value == 4 and s.has("fear_of_fours"):
            raise IllegalMove(
                "mm.fear_of_fours_shop",
                "Fear of Fours: the Coin Shop cannot change a die to 4; only a rolled 4 "
                "becomes a free 3 or 5 (MM-14)",
            )
        cost = abs(action.delta)
        sheet = _spend(sheet, s.layout, cost)
        dice = list(turn.dice)
        dice[action.die] = value
        turn = replace(turn, dice=(dice[0], dice[1]))
        event = Event(
            "mm.die_changed",
            f"You paid {plural(cost, 'coin')}: your die {action.die + 1} is now {value}.",
            seat,
            {"die": action.die, "value": value, "cost": cost},
        )
        return _with_seat(state, seat, sheet, turn), (event,)

    def _write_operand(self, state: MatheMeisterState, action: WriteOperand) -> _Outcome:
        s, seat, cell = state.settings, action.seat, action.cell
        sheet, turn = state.sheets[seat], state.turns[seat]
        _check_empty(sheet, s.layout, cell, "operand")
        if action.die not in (0, 1):
            raise IllegalMove("mm.no_such_die", f"there are two dice, 0 and 1, not {action.die}")
        if turn.used[action.die]:
            raise IllegalMove("mm.die_used", f"die {action.die + 1} is already written this round")
        if s.has("fear_of_fours") and action.value == 4:
            raise IllegalMove("mm.fear_of_fours", "Fear of Fours: 4 cannot be written")
        if action.power is not None:
            if action.power not in OPERAND_POWERS:
                raise IllegalMove("mm.power_kind", f"{action.power!r} is not an operand Star Power")
            if not sheet.powers_ready(s.layout, action.power):
                raise IllegalMove(
                    "mm.power_missing", f"you have no circled {action.power} Star Power to use"
                )
            if action.value != int(action.power):
                raise IllegalMove(
                    "mm.power_value", f"the {action.power} Star Power writes {action.power}"
                )
            sheet = _use_power(sheet, s.layout, action.power)
        elif action.value not in die_values(s, turn.dice[action.die]):
            allowed = " or ".join(str(v) for v in die_values(s, turn.dice[action.die]))
            raise IllegalMove(
                "mm.not_the_die",
                f"die {action.die + 1} shows {turn.dice[action.die]}: write {allowed}",
            )
        sheet = _write(sheet, cell, str(action.value))
        used = list(turn.used)
        used[action.die] = True
        turn = replace(turn, used=(used[0], used[1]))
        event = Event(
            "mm.wrote",
            f"You wrote {action.value} in {cell_name(cell)}.",
            seat,
            {"cell": list(cell)},
        )
        new = _with_seat(state, seat, sheet, turn)
        return self._after_write(state, new, seat, (event, *_completions(sheet, s, cell, seat)))

    def _write_operator(self, state: MatheMeisterState, action: WriteOperator) -> _Outcome:
        s, seat, cell = state.settings, action.seat, action.cell
        sheet, turn = state.sheets[seat], state.turns[seat]
        _check_empty(sheet, s.layout, cell, "operator")
        if action.op not in OPS:
            raise IllegalMove(
                "mm.not_operator", f"{action.op!r} is not an operator: write +, - or x"
            )
        if turn.operators >= 2:
            raise IllegalMove(
                "mm.two_operators", "you have already written two operators this round"
            )
        if action.power:
            if not sheet.powers_ready(s.layout, action.op):
                raise IllegalMove(
                    "mm.power_missing", f"you have no circled {action.op} Star Power to use"
                )
            sheet = _use_power(sheet, s.layout, action.op)
        else:
            i = OPS.index(action.op)
            if not sheet.supply[i]:
                raise IllegalMove(
                    "mm.supply_empty", f"your OPERATORS supply has no {action.op} left"
                )
            supply = list(sheet.supply)
            supply[i] -= 1
            sheet = replace(sheet, supply=(supply[0], supply[1], supply[2]))
        sheet = _write(sheet, cell, action.op)
        turn = replace(turn, operators=turn.operators + 1)
        event = Event(
            "mm.wrote", f"You wrote {action.op} in {cell_name(cell)}.", seat, {"cell": list(cell)}
        )
        new = _with_seat(state, seat, sheet, turn)
        return self._after_write(state, new, seat, (event, *_completions(sheet, s, cell, seat)))

    def _after_write(
        self,
        before: MatheMeisterState,
        state: MatheMeisterState,
        seat: Seat,
        events: tuple[Event, ...],
    ) -> _Outcome:
        """MM-13: the write that finishes the seat's writes of the round is step 4: the
        device claims the Bonus Star of every complete line of its sheet whose star is
        free, in the order the seats finish their writes; the player then chooses each
        claim's Star Power."""
        if not state.settings.automatic_claims:
            return state, events
        if self._writes_finished(before, seat) or not self._writes_finished(state, seat):
            return state, events
        claims = list(state.claims)
        out = list(events)
        count = state.claim_count
        for line in self._claimable(state, seat):
            claims.append(Claim(seat, line, "", None, count))
            count += 1
            out.append(
                Event(
                    "mm.star_claimed_auto",
                    f"{line_name(line)} is complete and its Bonus Star is free: the device "
                    f"claims it for you (MM-13). Choose a Star Power to circle.",
                    seat,
                    {"line": line, "points": state.settings.layout.star_value(line)},
                )
            )
        return replace(state, claims=tuple(claims), claim_count=count), tuple(out)

    def _claim(self, state: MatheMeisterState, action: ClaimStar) -> _Outcome:
        seat, line = action.seat, action.line
        if line not in LINES:
            raise IllegalMove(
                "mm.no_such_line", f"there is no line {line!r}: lines are R1..R4 and C1..C4"
            )
        if state.settings.automatic_claims:
            return self._choose_power(state, action)
        if not state.sheets[seat].line_complete(line):
            raise IllegalMove("mm.star_unfinished", f"{line_name(line)} is not complete yet")
        owner = state.owner(line)
        if owner is not None:
            whose = "you" if owner == seat else f"seat {owner + 1}"
            raise IllegalMove(
                "mm.star_owned", f"{line_name(line)}'s Bonus Star is already claimed by {whose}"
            )
        if any(c.seat == seat and c.line == line for c in state.claims):
            raise IllegalMove(
                "mm.star_claimed", f"you have already claimed {line_name(line)}'s Bonus Star"
            )
        if action.power not in POWER_KINDS:
            raise IllegalMove("mm.power_kind", f"{action.power!r} is not a Star Power")
        if action.power not in self._circlable(state, seat):
            raise IllegalMove("mm.power_gone", f"no {action.power} Star Power is left to circle")
        claim = Claim(seat, line, action.power, action.at, state.claim_count)
        event = Event(
            "mm.claimed", f"You claim {line_name(line)}'s Bonus Star!", seat, {"line": line}
        )
        return replace(state, claims=(*state.claims, claim), claim_count=state.claim_count + 1), (
            event,
        )

    def _choose_power(self, state: MatheMeisterState, action: ClaimStar) -> _Outcome:
        """MM-13: the device claimed the star after the writes; the player circles a Star
        Power for it."""
        seat, line = action.seat, action.line
        mine = next((c for c in state.claims if c.seat == seat and c.line == line), None)
        if mine is None:
            if not self._writes_finished(state, seat):
                raise IllegalMove(
                    "mm.claim_after_writes",
                    "Bonus Stars are claimed after the round's two operands and two "
                    "operators (MM-13): the device claims them for you then",
                )
            if not state.sheets[seat].line_complete(line):
                raise IllegalMove("mm.star_unfinished", f"{line_name(line)} is not complete yet")
            owner = state.owner(line)
            whose = "nobody" if owner is None else "you" if owner == seat else f"seat {owner + 1}"
            raise IllegalMove(
                "mm.star_owned", f"{line_name(line)}'s Bonus Star is not free: {whose} has it"
            )
        if mine.power:
            raise IllegalMove(
                "mm.star_claimed",
                f"you have already chosen the {mine.power} Star Power for {line_name(line)}",
            )
        if action.power not in POWER_KINDS:
            raise IllegalMove("mm.power_kind", f"{action.power!r} is not a Star Power")
        if action.power not in self._circlable(state, seat):
            raise IllegalMove("mm.power_gone", f"no {action.power} Star Power is left to circle")
        claims = tuple(
            replace(c, power=action.power, at=action.at) if c is mine else c for c in state.claims
        )
        if state.round < ROUNDS:
            use, when = "next_round", "You can use it from the next round on."
        elif action.power == "coin":  # MM-13: no next round; an unused coin counts (MM-6)
            use, when = "unused_coin", "Unused, it is worth 10 points at the end."
        else:
            use, when = "too_late", "It comes too late to use."
        event = Event(
            "mm.power_chosen",
            f"The {action.power} Star Power is for {line_name(line)}'s Bonus Star. {when}",
            seat,
            {"line": line, "power": action.power, "use": use},
        )
        return replace(state, claims=claims), (event,)

    def _swap(self, state: MatheMeisterState, action: SwapOperators | SwapOperands) -> _Outcome:
        s, seat = state.settings, action.seat
        sheet, turn = state.sheets[seat], state.turns[seat]
        self._check_powers_chosen(state, seat)
        kind = "operator" if isinstance(action, SwapOperators) else "operand"
        cost = SWAP_OPERATORS_COST if kind == "operator" else SWAP_OPERANDS_COST
        if s.has("coinless"):
            raise IllegalMove("mm.coinless", "Coinless: coins cannot be spent in this game")
        if not turn.writes_done:
            raise IllegalMove(
                "mm.swap_early", "swaps come after this round's two operands and two operators"
            )
        prefilled = s.layout.prefilled_map
        for cell in (action.a, action.b):
            if cell_kind(cell) != kind:
                raise IllegalMove(
                    "mm.swap_kind",
                    f"cell {cell_name(cell)} is not an {kind}: {kind}s swap with {kind}s",
                )
            if cell in prefilled:
                raise IllegalMove(
                    "mm.prefilled_operator", f"cell {cell_name(cell)} is a prefilled operator"
                )
            if sheet.at(cell) == EMPTY:
                raise IllegalMove(
                    "mm.swap_empty", f"cell {cell_name(cell)} is empty: only written {kind}s swap"
                )
            for line in lines_of(cell):
                if sheet.line_complete(line):
                    raise IllegalMove(
                        "mm.swap_complete", f"{line_name(line)} is complete: it is set in stone"
                    )
        if action.a == action.b or sheet.at(action.a) == sheet.at(action.b):
            raise IllegalMove("mm.swap_same", "swapping two equal values changes nothing")
        sheet = _spend(sheet, s.layout, cost)
        va, vb = sheet.at(action.a), sheet.at(action.b)
        sheet = _write(_write(sheet, action.a, vb), action.b, va)
        event = Event(
            "mm.swapped",
            f"You paid {cost} coins and swapped {cell_name(action.a)} with {cell_name(action.b)}.",
            seat,
            {"kind": kind, "cost": cost},
        )
        return _with_seat(state, seat, sheet, turn), (event,)

    def _end_round(self, state: MatheMeisterState, action: EndRound) -> _Outcome:
        seat = action.seat
        self._check_powers_chosen(state, seat)
        if not self._may_end(state, seat):
            turn = state.turns[seat]
            raise IllegalMove(
                "mm.writes_missing",
                "write two operands and two operators each round "
                f"(you wrote {turn.operands} and {turn.operators})",
            )
        turns = list(state.turns)
        turns[seat] = replace(turns[seat], done=True)
        return replace(state, turns=tuple(turns)), ()

    # -- settling claims and rounds ----------------------------------------------------

    def _settle_if_ready(self, state: MatheMeisterState, events: tuple[Event, ...]) -> _Outcome:
        writing = [t for t in state.turns if not t.done]
        out = list(events)
        # Alone, nobody can beat a claim; with others, wait until every seat has ended the
        # round, so an earlier claim (or the seat order, MM-5) can still win. Automatic
        # claims (MM-13) settle when the round ends: their Star Powers serve from the next.
        at_once = state.seats == 1 and not state.settings.automatic_claims
        if state.claims and (at_once or not writing):
            state, settled = self._settle_claims(state)
            out.extend(settled)
        if not writing:
            if state.round == ROUNDS:
                state = replace(state, finished=True, dice=None, turns=())
                out.append(
                    Event("mm.game_over", "All eight rounds are played. Let's count the points!")
                )
            else:
                state = replace(state, round=state.round + 1, dice=None, turns=())
                out.append(Event("mm.round_over", f"Round {state.round - 1} is over."))
        return state, tuple(out)

    def _settle_claims(self, state: MatheMeisterState) -> _Outcome:
        """First claimed, first owned (MM-5): by time, or by seat from the first player."""
        n = state.seats

        def key(c: Claim) -> tuple[int, int, int, int]:
            if state.settings.automatic_claims:  # MM-13: when each finished its writes
                return (c.order, 0, 0, 0)
            return (c.at is None, c.at or 0, (c.seat - state.first_player) % n, c.order)

        sheets = list(state.sheets)
        events = []
        layout = state.settings.layout
        for claim in sorted(state.claims, key=key):
            owner = next((s for s, sh in enumerate(sheets) if claim.line in sh.stars), None)
            if owner is not None:
                events.append(
                    Event(
                        "mm.star_lost",
                        f"Seat {owner + 1} claimed {line_name(claim.line)}'s Bonus Star first.",
                        claim.seat,
                        {"line": claim.line},
                    )
                )
                continue
            sheet = sheets[claim.seat]
            sheet = replace(sheet, stars=sheet.stars | {claim.line})
            sheets[claim.seat] = _circle_power(sheet, layout, claim.power)
            value = layout.star_value(claim.line)
            events.append(
                Event(
                    "mm.star_won",
                    f"{line_name(claim.line)}'s Bonus Star is yours: {value} points, "
                    f"and {_a_power(claim.power)}.",
                    claim.seat,
                    {"line": claim.line, "points": value, "power": claim.power},
                )
            )
        return replace(state, sheets=tuple(sheets), claims=()), tuple(events)

    # -- what a seat may do --------------------------------------------------------------

    def _claimable(self, state: MatheMeisterState, seat: Seat) -> list[str]:
        sheet = state.sheets[seat]
        mine = {c.line for c in state.claims if c.seat == seat}
        return [
            line
            for line in LINES
            if line not in mine and state.owner(line) is None and sheet.line_complete(line)
        ]

    def _circlable(self, state: MatheMeisterState, seat: Seat) -> list[str]:
        """Star Power kinds still free once this seat's unsettled claims take theirs."""
        layout = state.settings.layout
        sheet = state.sheets[seat]
        promised = [c.power for c in state.claims if c.seat == seat]
        return [k for k in POWER_KINDS if sheet.powers_free(layout, k) > promised.count(k)]

    def _unchosen(self, state: MatheMeisterState, seat: Seat) -> Claim | None:
        """This seat's first claim still waiting for its Star Power (MM-13)."""
        return next((c for c in state.claims if c.seat == seat and not c.power), None)

    def _check_powers_chosen(self, state: MatheMeisterState, seat: Seat) -> None:
        waiting = self._unchosen(state, seat)
        if waiting is not None:
            raise IllegalMove(
                "mm.choose_power",
                f"the device claimed {line_name(waiting.line)}'s Bonus Star for you: choose "
                "its Star Power first (MM-13)",
            )

    def _writes_finished(self, state: MatheMeisterState, seat: Seat) -> bool:
        """The seat has written the round's two operands and two operators (or has no
        operator left to write, MM-7): step 4 of the round may come."""
        return state.dice is not None and bool(state.turns) and self._may_end(state, seat)

    def _may_end(self, state: MatheMeisterState, seat: Seat) -> bool:
        turn, sheet = state.turns[seat], state.sheets[seat]
        if turn.operands < 2:
            return False
        if turn.operators == 2:
            return True
        # MM-7 with a short supply: a seat with no operator left to write may end the round.
        can_write = any(sheet.supply) or any(
            sheet.powers_ready(state.settings.layout, op) for op in OPS
        )
        has_cell = any(sheet.at(c) == EMPTY for c in OPERATOR_CELLS)
        return not (can_write and has_cell)

    def _swaps(
        self, state: MatheMeisterState, seat: Seat, kind: type[SwapOperators] | type[SwapOperands]
    ) -> list[Action]:
        sheet = state.sheets[seat]
        prefilled = state.settings.layout.prefilled_map
        cells = OPERATOR_CELLS if kind is SwapOperators else OPERAND_CELLS
        open_cells = [
            c
            for c in cells
            if c not in prefilled
            and sheet.at(c) != EMPTY
            and not any(sheet.line_complete(line) for line in lines_of(c))
        ]
        return [
            kind(seat, a, b)
            for a, b in itertools.combinations(open_cells, 2)
            if sheet.at(a) != sheet.at(b)
        ]


# -- the ``tabletop check`` scorer -------------------------------------------------------


def check(data: Any, layout: Layout) -> dict[str, Any]:
    """Score a sheet given as ``tabletop check`` JSON (DESIGN.md); ``BadInput`` if the sheet
    breaks the rules."""
    if not isinstance(data, dict):
        raise BadInput("mm.shape", "the input must be a JSON object with 'modes' and 'grid'")
    unknown = set(data) - {
        "modes",
        "grid",
        "stars",
        "star_powers",
        "negative_sums",
        "operator_supply",
    }
    if unknown:
        raise BadInput("mm.shape", f"unknown field {sorted(unknown)[0]!r}")
    modes = data.get("modes", ["freestyle"])
    if not isinstance(modes, list) or not all(isinstance(m, str) for m in modes):
        raise BadInput("mm.shape", "'modes' must be a list of mode names")
    settings = MatheMeisterSettings(
        layout,
        tuple(modes),
        negative_sums=data.get("negative_sums", "absolute"),
        operator_supply=_whole(data.get("operator_supply", 6), "operator_supply"),
    )
    grid = _check_grid(data.get("grid"), settings)
    stars = _check_stars(data.get("stars", []), grid)
    powers = _check_powers(data.get("star_powers", {}), layout, len(stars), settings)
    used_powers = [layout.star_powers[i] for i, s in enumerate(powers) if s == "used"]
    used_ops = [k for k in used_powers if k in OPS]
    prefilled = layout.prefilled_map
    for op in OPS:
        written = sum(1 for c in OPERATOR_CELLS if c not in prefilled and grid[c[0]][c[1]] == op)
        allowed = settings.operator_supply + used_ops.count(op)
        if written > allowed:
            raise BadInput(
                "mm.supply",
                f"{written} '{op}' operators are written but the supply has "
                f"{settings.operator_supply} "
                f"and {used_ops.count(op)} '{op}' Star Powers were used",
            )
    _check_counts(grid, layout, used_powers, settings)
    sheet = Sheet(grid=grid, supply=(0, 0, 0), powers=powers, stars=frozenset(stars))
    card = score_sheet(sheet, settings)
    return {
        "rows": [card.line(f"R{i}").total for i in range(1, 5)],
        "columns": [card.line(f"C{i}").total for i in range(1, 5)],
        "total": card.total,
        "breakdown": {
            "row_even_sums": card.row_even_sums,
            "column_odd_sums": card.column_odd_sums,
            "unspent_coins_x10": card.unspent_coins_x10,
            "stars": card.stars,
            "row_odd_sums": card.row_odd_sums,
            "column_even_sums": card.column_even_sums,
        },
        "lines": {
            ls.line: {
                "total": ls.total,
                "valid": ls.valid if ls.complete else None,
                "points": ls.points,
            }
            for ls in card.lines
        },
        "modes": list(settings.modes),
    }


def _check_grid(grid: Any, settings: MatheMeisterSettings) -> tuple[str, ...]:
    if (
        not isinstance(grid, list)
        or len(grid) != SIZE
        or not all(isinstance(row, str) and len(row) == SIZE for row in grid)
    ):
        raise BadInput("mm.grid_shape", "'grid' must be 7 strings of 7 characters each")
    # A blank in a printed cell means "as printed": the prefilled operator, an unspent coin.
    blank = settings.layout.blank_grid()
    rows = [
        "".join(
            b if ch == EMPTY and b != EMPTY else ch for ch, b in zip(row.replace("X", "x"), brow)
        )
        for row, brow in zip(grid, blank)
    ]
    prefilled = settings.layout.prefilled_map
    for cell in ALL_CELLS:
        ch = rows[cell[0]][cell[1]]
        kind = cell_kind(cell)
        where = f"cell {cell_name(cell)}"
        if kind == "operand" and ch != EMPTY and ch not in "123456":
            raise BadInput(
                "mm.cell_kind", f"{where} is an operand cell: write 1-6 or '.', not {ch!r}"
            )
        if kind == "operand" and ch == "4" and settings.has("fear_of_fours"):
            raise BadInput("mm.fear_of_fours", f"{where}: Fear of Fours: 4 cannot be written")
        if kind == "operator" and cell in prefilled and ch != prefilled[cell]:
            raise BadInput(
                "mm.prefilled_operator",
                f"{where} is a prefilled operator {prefilled[cell]!r}, not {ch!r}",
            )
        if kind == "operator" and ch != EMPTY and ch not in OPS:
            raise BadInput(
                "mm.cell_kind", f"{where} is an operator cell: write + - x or '.', not {ch!r}"
            )
        if kind == "coin" and ch not in (COIN, SPENT):
            raise BadInput(
                "mm.cell_kind", f"{where} is a coin: write o (unspent) or * (spent), not {ch!r}"
            )
        if kind == "coin" and ch == SPENT and settings.has("coinless"):
            raise BadInput("mm.coinless", f"{where}: Coinless: a coin cannot be spent")
    return tuple(rows)


def _check_counts(
    grid: tuple[str, ...], layout: Layout, used: list[str], settings: MatheMeisterSettings
) -> None:
    """MM-15: a sheet a real game could have made. Every round writes two operands and
    two operators (MM-8), so their numbers are equal and even; fewer operators only when
    the OPERATORS supply ran out (a short ``operator_supply``, MM-7). A used Star Power
    wrote its own operand or operator, and swaps only move what is written (MM-9), so the
    sheet still shows at least as many of it."""
    prefilled = layout.prefilled_map
    operands = [grid[r][c] for r, c in OPERAND_CELLS if grid[r][c] != EMPTY]
    operators = [
        grid[r][c] for r, c in OPERATOR_CELLS if (r, c) not in prefilled and grid[r][c] != EMPTY
    ]
    ran_out = all(operators.count(op) >= settings.operator_supply + used.count(op) for op in OPS)
    short = ran_out and len(operators) < len(operands)
    if (len(operands) != len(operators) and not short) or len(operands) % 2:
        raise BadInput(
            "mm.impossible_sheet",
            f"{len(operands)} operands and {len(operators)} free operators are written, but "
            "every round writes two of each, so the numbers must be equal and even (MM-15)",
        )
    for kind in sorted(set(used) - {"coin"}):
        shown = (operands if kind in OPERAND_POWERS else operators).count(kind)
        if shown < used.count(kind):
            raise BadInput(
                "mm.impossible_sheet",
                f"{used.count(kind)} {kind} Star Powers are used but only {shown} {kind} "
                "is written: a used Star Power writes its own value (MM-15)",
            )


def _check_stars(stars: Any, grid: tuple[str, ...]) -> list[str]:
    if not isinstance(stars, list) or not all(isinstance(s, str) for s in stars):
        raise BadInput("mm.shape", '\'stars\' must be a list of lines such as "R1" or "C4"')
    seen: list[str] = []
    for star in stars:
        line = star.strip().upper()
        if line not in LINES:
            raise BadInput("mm.no_such_line", f"unknown star {star!r}: lines are R1..R4 and C1..C4")
        if line in seen:
            raise BadInput("mm.star_twice", f"star {line} is listed twice")
        if not all(grid[r][c] != EMPTY for r, c in line_cells(line)):
            raise BadInput(
                "mm.star_unfinished",
                f"star {line} is claimed but {line_name(line)} is not complete",
            )
        seen.append(line)
    return seen


def _is_are(n: int) -> str:
    return "is" if n == 1 else "are"


def _check_powers(
    data: Any, layout: Layout, star_count: int, settings: MatheMeisterSettings
) -> tuple[PowerState, ...]:
    if not isinstance(data, dict) or set(data) - {"circled", "used"}:
        raise BadInput("mm.shape", '\'star_powers\' must be {"circled": [...], "used": [...]}')
    circled, used = data.get("circled", []), data.get("used", [])
    for name, kinds in (("circled", circled), ("used", used)):
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise BadInput(
                "mm.shape", f"star_powers.{name} must be a list of kinds ({', '.join(POWER_KINDS)})"
            )
        for kind in kinds:
            if kind.lower() not in POWER_KINDS:
                raise BadInput(
                    "mm.power_kind",
                    f"unknown Star Power {kind!r}: kinds are {', '.join(POWER_KINDS)}",
                )
    circled = [k.lower() for k in circled]
    used = [k.lower() for k in used]
    if len(circled) > star_count:
        raise BadInput(
            "mm.powers_over_stars",
            f"{plural(len(circled), 'Star Power')} {_is_are(len(circled))} circled"
            f" but only {plural(star_count, 'star')} {_is_are(star_count)} claimed",
        )
    for kind in POWER_KINDS:
        printed = layout.star_powers.count(kind)
        if circled.count(kind) > printed:
            raise BadInput(
                "mm.power_gone", f"the sheet has only {plural(printed, f'{kind} Star Power')}"
            )
        if used.count(kind) > circled.count(kind):
            raise BadInput(
                "mm.power_not_circled", f"{_a_power(kind)} is used but was never circled"
            )
    if settings.has("coinless") and "coin" in used:
        raise BadInput("mm.coinless", "Coinless: a coin Star Power cannot be spent")
    states: list[PowerState] = []
    todo_circled, todo_used = list(circled), list(used)
    for kind in layout.star_powers:
        if kind in todo_used:
            todo_used.remove(kind)
            todo_circled.remove(kind)
            states.append("used")
        elif kind in todo_circled:
            todo_circled.remove(kind)
            states.append("circled")
        else:
            states.append("free")
    return tuple(states)


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput("mm.shape", f"{name!r} must be a whole number")
    return value


# -- private helpers -----------------------------------------------------------------------

_Outcome = tuple[MatheMeisterState, tuple[Event, ...]]


def _apply_op(left: int, op: str, right: int) -> int:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    return left * right


def _check_empty(sheet: Sheet, layout: Layout, cell: Cell, kind: str) -> None:
    where = f"cell {cell_name(cell)}"
    actual = cell_kind(cell)
    if actual == "outside":
        raise IllegalMove("mm.no_such_cell", f"{where} is not on the sheet")
    if cell in layout.prefilled_map:
        raise IllegalMove("mm.prefilled_operator", f"{where} is a prefilled operator")
    if actual != kind:
        article = "an" if actual in ("operand", "operator") else "a"
        raise IllegalMove("mm.cell_kind", f"{where} is {article} {actual} cell, not for an {kind}")
    if sheet.at(cell) != EMPTY:
        raise IllegalMove("mm.cell_full", f"{where} already holds {sheet.at(cell)}")


def _write(sheet: Sheet, cell: Cell, ch: str) -> Sheet:
    r, c = cell
    row = sheet.grid[r]
    grid = (*sheet.grid[:r], row[:c] + ch + row[c + 1 :], *sheet.grid[r + 1 :])
    return replace(sheet, grid=grid)


def _spend(sheet: Sheet, layout: Layout, cost: int) -> Sheet:
    """Spend personal coins first, then circled coin Star Powers."""
    if sheet.coins(layout) < cost:
        raise IllegalMove(
            "mm.no_coins", f"that costs {plural(cost, 'coin')} and you have {sheet.coins(layout)}"
        )
    for cell in COIN_CELLS:
        if cost and sheet.at(cell) == COIN:
            sheet = _write(sheet, cell, SPENT)
            cost -= 1
    for _ in range(cost):
        sheet = _use_power(sheet, layout, "coin")
    return sheet


def _use_power(sheet: Sheet, layout: Layout, kind: str) -> Sheet:
    return _set_power(sheet, layout, kind, "circled", "used")


def _circle_power(sheet: Sheet, layout: Layout, kind: str) -> Sheet:
    return _set_power(sheet, layout, kind, "free", "circled")


def _set_power(sheet: Sheet, layout: Layout, kind: str, old: PowerState, new: PowerState) -> Sheet:
    for i, (k, s) in enumerate(zip(layout.star_powers, sheet.powers)):
        if k == kind and s == old:
            return replace(sheet, powers=(*sheet.powers[:i], new, *sheet.powers[i + 1 :]))
    raise IllegalMove("mm.power_missing", f"no {old} {kind} Star Power")


def _with_seat(state: MatheMeisterState, seat: Seat, sheet: Sheet, turn: Turn) -> MatheMeisterState:
    sheets = (*state.sheets[:seat], sheet, *state.sheets[seat + 1 :])
    turns = (*state.turns[:seat], turn, *state.turns[seat + 1 :])
    return replace(state, sheets=sheets, turns=turns)


def _completions(
    sheet: Sheet, settings: MatheMeisterSettings, cell: Cell, seat: Seat
) -> list[Event]:
    """An event for each line the write at ``cell`` completed, with its sum and points."""
    events = []
    for line in lines_of(cell):
        if not sheet.line_complete(line):
            continue
        ops_chars, op_chars = line_parts(sheet.grid, line)
        operands = [int(ch) for ch in ops_chars]
        total = evaluate(operands, op_chars)
        valid = line_validates(operands, settings.modes)
        points = line_points(line, total, valid, settings.negative_sums)
        words, gained = " ".join(line_words(sheet.grid, line)), plural(points, "point", signed=True)
        events.append(
            Event(
                "mm.line_complete",
                f"{line_name(line)} is complete: {words} = {total}. That is {gained}.",
                seat,
                {"line": line, "total": total, "points": points, "valid": valid},
            )
        )
    return events


@dataclass(frozen=True, order=True)
class StarPress:
    """A seat's claim of a Bonus Star at a paper table, pressed at ``at`` (any clock:
    only the order of presses counts)."""

    at: float
    seat: Seat = field(compare=False)


@dataclass(frozen=True)
class StarClaim:
    round: int
    line: str
    seat: Seat
    at: float


class StarBoard:
    """Who owns which Bonus Star at one table of paper sheets, and who waits to claim one
    (MM-5): presses wait in the order they were made, whatever order they arrive in, and
    the earliest chooses its star first: first claimed, first owned."""

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = dict(values)
        self.owners: dict[str, Seat] = {}
        self.waiting: list[StarPress] = []
        self.claims: list[StarClaim] = []

    def press(self, seat: Seat, at: float) -> bool:
        """A seat asks to claim; False if it is already waiting."""
        if any(p.seat == seat for p in self.waiting):
            return False
        bisect.insort(self.waiting, StarPress(at, seat))
        return True

    @property
    def current(self) -> StarPress | None:
        """The earliest waiting press: this seat chooses now."""
        return self.waiting[0] if self.waiting else None

    def free_lines(self) -> list[str]:
        return [line for line in LINES if line not in self.owners]

    def choose(self, line: str, round_no: int) -> Seat:
        """The current seat claims ``line``; returns the seat."""
        press = self.current
        if press is None:
            raise ValueError("nobody is claiming a star now")
        if line not in self.values:
            raise ValueError(f"no such star {line!r}")
        if line in self.owners:
            raise ValueError(f"the {line} star already belongs to seat {self.owners[line] + 1}")
        self.owners[line] = press.seat
        self.claims.append(StarClaim(round_no, line, press.seat, press.at))
        self.waiting.pop(0)
        return press.seat

    def last_claim(self, round_no: int) -> StarClaim | None:
        """The star chosen last, if it was chosen in round ``round_no`` (only the round
        still being played may be taken back: the bots' sheets take theirs at its end)."""
        return self.claims[-1] if self.claims and self.claims[-1].round == round_no else None

    def take_back(self, round_no: int) -> StarClaim | None:
        """Take back :meth:`last_claim` (a star tapped by mistake): free again."""
        claim = self.last_claim(round_no)
        if claim is not None:
            self.claims.pop()
            del self.owners[claim.line]
        return claim

    def cancel(self, seat: Seat | None = None) -> None:
        """Drop the current press (or ``seat``'s: a seat waits once at most)."""
        if seat is None and self.current is not None:
            seat = self.current.seat
        self.waiting = [p for p in self.waiting if p.seat != seat]

    def stars_of(self, seat: Seat) -> list[str]:
        return [line for line in LINES if self.owners.get(line) == seat]

    def points_of(self, seat: Seat) -> int:
        return sum(self.values[line] for line in self.stars_of(seat))


__all__ = [
    "ACTION_TYPES",
    "LINES",
    "MODES",
    "Action",
    "ChangeDie",
    "ClaimStar",
    "EndRound",
    "Layout",
    "MatheMeister",
    "MatheMeisterSettings",
    "MatheMeisterState",
    "Roll",
    "ScoreCard",
    "Sheet",
    "StarBoard",
    "StarClaim",
    "StarPress",
    "SwapOperands",
    "SwapOperators",
    "WriteOperand",
    "WriteOperator",
    "check",
    "die_values",
    "evaluate",
    "line_score",
    "line_words",
    "score_sheet",
]
