"""The Mathe-Meister hint engine and the bot built on it.

How it values a sheet: each of the eight lines is worth what it is expected to score at
the end, given the cells already written. For a line with empty cells that expectation
is taken over the dice still to come (uniform 1..6, or Fear of Fours' 1,2,3,5,6) with
the best operator chosen for the empty operator cells once the operands are known.
Those values are computed once per (row or column, operators still available, modes)
for every one of the 7^4 x 4^3 partial line states, with numpy, and then looked up.
They are exact: whole numbers in units of ``1 / LINE_SCALE`` points, so a sum of line
values is the same in any order, on any machine, and two placements worth the same are
a true tie, which goes to the first one searched (the dice as rolled before changed
ones, cells in reading order). Floats here once let the set order of a sheet's lines,
which changes with Python's hash seed, pick between equal placements.

A decision (the hint) searches this round's placements: which value each die takes
(as rolled, changed at the Coin Shop, or replaced by an operand Star Power), which two
operand cells take them, then which two operator cells take which operators. A coin is
worth 10 points at the end, so a change must gain more than it costs, and an ``x`` spent
early is charged for the big products it could make later (the supply has six). After
the writes the bot claims its Bonus Stars and buys a swap only when it gains more than
its price. Black Hole turns every value around: the bot then chases the lowest score.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from tabletop.engine.protocol import Seat
from tabletop.games.mathe_meister import (
    COIN_POINTS,
    EMPTY,
    LINES,
    OPERAND_CELLS,
    OPERATOR_CELLS,
    OPS,
    ROUNDS,
    SWAP_OPERANDS_COST,
    SWAP_OPERATORS_COST,
    Action,
    Cell,
    ChangeDie,
    ClaimStar,
    EndRound,
    MatheMeisterSettings,
    MatheMeisterState,
    Sheet,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
    line_cells,
    lines_of,
)

OP_INDEX = {op: i + 1 for i, op in enumerate(OPS)}
CHAR_INDEX = {EMPTY: 0, **{str(v): v for v in range(1, 7)}, **OP_INDEX}
# Star Powers the bot circles first: a coin is 10 sure points; then the rarest help.
POWER_PREFERENCE = ("coin", "x", "6", "+", "5", "-", "1", "2")
# Tuned on seeds 1000..1199 of solo Freestyle (means: plain expectation 1424; with
# CHOICE 1514; with the x price 1790). See README "Measured figures".
BEAM = 6  # operand placements whose best operators are searched
# An empty operand cell is worth CHOICE of its best die and the rest of the mean.
CHOICE = Fraction(3, 10)
X_PRICE = 150  # points an x in the supply is worth in round 1, falling to 0 by round 8
# A die's chances in twelfths: uniform, or Fear of Fours (a rolled 4 becomes a 3 or a 5).
DIE_TWELFTHS = (2, 2, 2, 2, 2, 2)
FEAR_OF_FOURS_TWELFTHS = (2, 2, 3, 0, 3, 2)
# Each empty operand cell divides by 12 (die chances) and by CHOICE's denominator; the
# tables count in this unit so that every value is a whole number (at most ~3e11).
LINE_SCALE = (12 * CHOICE.denominator) ** 4


@dataclass(frozen=True)
class Hint:
    """A whole round's placement, and what the sheet is then expected to score."""

    changes: tuple[ChangeDie, ...]
    operands: tuple[WriteOperand, ...]
    operators: tuple[WriteOperator, ...]
    expected: float

    def actions(self) -> tuple[Action, ...]:
        return (*self.changes, *self.operands, *self.operators)

    def describe(self) -> str:
        parts = [f"change die {c.die + 1} by {c.delta:+d}" for c in self.changes]
        parts += [
            f"write {w.value} in r{w.cell[0]}c{w.cell[1]}"
            + (f" (Star Power {w.power})" if w.power else "")
            for w in self.operands
        ]
        parts += [
            f"write {w.op} in r{w.cell[0]}c{w.cell[1]}" + (" (Star Power)" if w.power else "")
            for w in self.operators
        ]
        return "; ".join(parts) + f" (expected final score {self.expected:.0f})"


# -- line value tables -------------------------------------------------------------------


@cache
def line_table(
    is_row: bool, ops: tuple[str, ...], modes: tuple[str, ...], negative_sums: str, sign: int
) -> list[int]:
    """Expected points of a line for every partial state times ``LINE_SCALE`` (exact
    whole numbers), flattened by ``_index``.

    ``ops`` are the operators still available for empty operator cells; ``sign`` is +1
    to maximise the score and -1 to minimise it (Black Hole).
    """
    line = "R1" if is_row else "C1"
    values = np.arange(1, 7, dtype=np.int64)
    o = np.meshgrid(values, values, values, values, indexing="ij")
    complete = np.empty((6, 6, 6, 6, 3, 3, 3), dtype=np.int64)
    for a, b, c in itertools.product(range(3), repeat=3):
        total = o[0]
        for op, operand in zip((a, b, c), o[1:]):
            total = total + operand if op == 0 else total - operand if op == 1 else total * operand
        complete[..., a, b, c] = _points(line, total, o, modes, negative_sums) * sign
    allowed = [OPS.index(op) for op in ops] or [0, 1, 2]
    table = _extend_operands(_extend_operators(complete, allowed), _die_weights(modes))
    flat: list[int] = table.reshape(-1).tolist()
    return flat


def _extend_operators(table: np.ndarray, allowed: list[int]) -> np.ndarray:
    """Operator axes gain index 0 = empty = the best available operator."""
    for axis in (4, 5, 6):
        best = np.take(table, allowed, axis=axis).max(axis=axis, keepdims=True)
        table = np.concatenate([best, table], axis=axis)
    return table


def _extend_operands(table: np.ndarray, twelfths: np.ndarray) -> np.ndarray:
    """Operand axes gain index 0 = empty: mostly the mean over the dice still to come,
    partly the best of them, since the player chooses which cell a die goes to.

    In whole numbers: each axis scales the table by ``12 * CHOICE.denominator``, so
    the mean's twelfths and CHOICE's fraction never leave a remainder.
    """
    choice, whole = CHOICE.numerator, CHOICE.denominator
    for axis in (0, 1, 2, 3):
        total = np.tensordot(table, twelfths, axes=([axis], [0]))  # 12 x the mean
        best = np.take(table, np.nonzero(twelfths)[0], axis=axis).max(axis=axis)
        empty = (whole - choice) * total + choice * 12 * best
        table = np.concatenate([np.expand_dims(empty, axis), 12 * whole * table], axis=axis)
    return table


def _points(
    line: str,
    total: np.ndarray,
    operands: Sequence[np.ndarray],
    modes: tuple[str, ...],
    negative_sums: str,
) -> np.ndarray:
    magnitude = np.abs(total) if negative_sums == "absolute" else total
    good = (total % 2 == 0) if line[0] == "R" else (total % 2 == 1)
    points = np.where(good, magnitude, -magnitude)
    valid = np.ones_like(total, dtype=bool)
    pairs = list(itertools.pairwise(operands))
    if "twins" in modes:
        valid &= np.logical_or.reduce([a == b for a, b in pairs])
    if "small_to_big" in modes:
        valid &= np.logical_and.reduce([a <= b for a, b in pairs])
    if "big_to_small" in modes:
        valid &= np.logical_and.reduce([a >= b for a, b in pairs])
    result: np.ndarray = np.where((points > 0) & ~valid, 0, points)
    return result


def _die_weights(modes: tuple[str, ...]) -> np.ndarray:
    twelfths = FEAR_OF_FOURS_TWELFTHS if "fear_of_fours" in modes else DIE_TWELFTHS
    return np.array(twelfths, dtype=np.int64)


def _index(chars: list[str]) -> int:
    """Flat index of a line state: operands at 0,2,4,6 and operators at 1,3,5."""
    i = 0
    for ch in chars[0::2]:
        i = i * 7 + CHAR_INDEX[ch]
    for ch in chars[1::2]:
        i = i * 4 + CHAR_INDEX[ch]
    return i


# -- valuing sheets ------------------------------------------------------------------------


class Valuer:
    """Line values of one sheet under one set of settings, with cheap what-ifs; values
    are exact whole numbers of ``1 / LINE_SCALE`` points."""

    def __init__(self, settings: MatheMeisterSettings, sheet: Sheet, ops: tuple[str, ...]) -> None:
        self.settings = settings
        self.sign = -1 if settings.has("black_hole") else 1
        self.grid = [list(row) for row in sheet.grid]
        key = (ops, settings.modes, settings.negative_sums, self.sign)
        self.tables = {True: line_table(True, *key), False: line_table(False, *key)}
        self.base = {line: self.line_value(line) for line in LINES}

    def line_value(self, line: str, changes: dict[Cell, str] | None = None) -> int:
        chars = [
            changes[cell] if changes and cell in changes else self.grid[cell[0]][cell[1]]
            for cell in line_cells(line)
        ]
        return self.tables[line[0] == "R"][_index(chars)]

    def delta(self, changes: dict[Cell, str]) -> int:
        """How the sheet's expected value moves if ``changes`` are written."""
        touched = {line for cell in changes for line in lines_of(cell)}
        return sum(self.line_value(line, changes) - self.base[line] for line in touched)

    def total(self) -> int:
        return sum(self.base.values())


def expected_score(state: MatheMeisterState, seat: Seat) -> float:
    """The sheet's expected final score in points if played on well from here."""
    sheet, s = state.sheets[seat], state.settings
    valuer = Valuer(s, sheet, _ops_left(sheet, s, ()))
    coins = sheet.coins(s.layout) * COIN_POINTS
    stars = sum(s.layout.star_value(line) for line in sheet.stars)
    return valuer.sign * valuer.total() / LINE_SCALE + coins + stars


# -- the hint ------------------------------------------------------------------------------


def hint(state: MatheMeisterState, seat: Seat) -> Hint:
    """The best placement for ``seat`` this round (dice, cells, operators, coin use)."""
    if state.dice is None or not state.turns or state.turns[seat].done:
        raise ValueError("a hint needs rolled dice and a seat that is still writing")
    s, sheet, turn = state.settings, state.sheets[seat], state.turns[seat]
    valuer = Valuer(s, sheet, _ops_left(sheet, s, ()))
    coin_value = COIN_POINTS * valuer.sign * LINE_SCALE
    power_cost = 3 * LINE_SCALE
    empty = [c for c in OPERAND_CELLS if sheet.at(c) == EMPTY]
    dice_free = [d for d in (0, 1) if not turn.used[d]]
    gains = _PlacementGains(valuer)
    scored: list[tuple[int, tuple[ChangeDie, ...], tuple[WriteOperand, ...], tuple[Cell, ...]]] = []
    for changes, writes, coins_spent in _dice_choices(state, seat, dice_free):
        cost = coins_spent * coin_value + sum(power_cost for w in writes if w.power)
        values = [w.value for w in writes]
        for cells in itertools.permutations(empty, len(writes)):
            scored.append((gains.of(cells, values) - cost, changes, writes, cells))
    scored.sort(key=lambda c: -c[0])  # stable: equal scores keep the order searched
    candidates = [
        (
            score,
            changes,
            tuple(
                WriteOperand(seat, cell, w.value, w.die, w.power) for cell, w in zip(cells, writes)
            ),
        )
        for score, changes, writes, cells in scored[:BEAM]
    ]
    need_ops = 2 - turn.operators
    best: tuple[int, tuple[ChangeDie, ...], tuple[WriteOperand, ...], tuple[WriteOperator, ...]]
    best = (0, (), (), ())
    for i, (score, changes, placed) in enumerate(candidates[:BEAM] or [(0, (), ())]):
        written = {w.cell: str(w.value) for w in placed}
        op_score, op_writes = _best_operators(state, seat, valuer, written, need_ops)
        total = score + op_score
        if i == 0 or total > best[0]:
            best = (total, changes, placed, op_writes)
    gain, changes, placed, op_writes = best
    base = expected_score(state, seat)
    return Hint(changes, placed, op_writes, base + valuer.sign * gain / LINE_SCALE)


class _PlacementGains:
    """Gains of writing one or two operands, from cached single-cell gains: two cells
    interact only when they share a line, and only then is the pair valued whole."""

    def __init__(self, valuer: Valuer) -> None:
        self.valuer = valuer
        self.single: dict[tuple[Cell, int], int] = {}
        self.pairs: dict[tuple[Cell, int, Cell, int], int] = {}

    def of(self, cells: tuple[Cell, ...], values: list[int]) -> int:
        if not cells:  # both dice written: nothing more to gain from them
            return 0
        if len(cells) == 1:
            return self._single(cells[0], values[0])
        a, b = cells
        if set(lines_of(a)).isdisjoint(lines_of(b)):
            return self._single(a, values[0]) + self._single(b, values[1])
        key = (a, values[0], b, values[1])
        if key not in self.pairs:
            self.pairs[key] = self.valuer.delta({a: str(values[0]), b: str(values[1])})
        return self.pairs[key]

    def _single(self, cell: Cell, value: int) -> int:
        key = (cell, value)
        if key not in self.single:
            self.single[key] = self.valuer.delta({cell: str(value)})
        return self.single[key]


def _dice_choices(
    state: MatheMeisterState, seat: Seat, dice_free: list[int]
) -> Iterator[tuple[tuple[ChangeDie, ...], tuple[WriteOperand, ...], int]]:
    """Every way to get values for the unused dice: (coin changes, writes w/o cell, coins)."""
    s, sheet, turn = state.settings, state.sheets[seat], state.turns[seat]
    coins = sheet.coins(s.layout)
    shop = not s.has("coinless")
    per_die: list[list[tuple[int, int, str | None, int]]] = []  # (value, delta, power, die)
    for die in dice_free:
        options: list[tuple[int, int, str | None, int]] = []
        for delta in (0, -1, 1, -2, 2, -3, 3):
            if delta and (not shop or abs(delta) > coins):
                continue
            raw = turn.dice[die] + delta
            if not 1 <= raw <= 6:
                continue
            if raw == 4 and delta and s.has("fear_of_fours"):
                continue  # MM-14: the Coin Shop cannot make a 4
            for value in (3, 5) if raw == 4 and s.has("fear_of_fours") else (raw,):
                options.append((value, delta, None, die))
        for kind in ("1", "2", "5", "6"):
            if sheet.powers_ready(s.layout, kind):
                options.append((int(kind), 0, kind, die))
        per_die.append(options)
    seen: set[tuple[tuple[int, str], ...]] = set()
    for combo in itertools.product(*per_die):
        cost = sum(abs(delta) for _, delta, _, _ in combo)
        powers = [p for _, _, p, _ in combo if p]
        if cost > coins or any(sheet.powers_ready(s.layout, p) < powers.count(p) for p in powers):
            continue
        key = tuple(sorted((v, p or "") for v, _, p, _ in combo))
        if key in seen:  # the same values for more coins is never better
            continue
        seen.add(key)
        changes = tuple(ChangeDie(seat, die, delta) for _, delta, _, die in combo if delta)
        writes = tuple(WriteOperand(seat, (0, 0), v, die, p) for v, _, p, die in combo)
        yield changes, writes, cost


def _best_operators(
    state: MatheMeisterState,
    seat: Seat,
    valuer: Valuer,
    written: dict[Cell, str],
    need: int,
) -> tuple[int, tuple[WriteOperator, ...]]:
    """The best ``need`` operator writes given this round's operands, and their gain
    (in ``1 / LINE_SCALE`` points); of equal gains, the first cells and operators searched.

    An operator cell lies on one line, so two writes on different lines add up; only a
    pair on the same line is valued whole.
    """
    s, sheet = state.settings, state.sheets[seat]
    empty = [c for c in OPERATOR_CELLS if sheet.at(c) == EMPTY]
    stock = {op: sheet.supply[i] + sheet.powers_ready(s.layout, op) for i, op in enumerate(OPS)}
    need = min(need, len(empty), sum(stock.values()))
    if need <= 0:
        return 0, ()
    x_price = X_PRICE * LINE_SCALE * (ROUNDS - state.round) // (ROUNDS - 1)
    line_of = {c: lines_of(c)[0] for c in empty}
    before = {line: valuer.line_value(line, written) for line in set(line_of.values())}

    def gain(changes: dict[Cell, str]) -> int:
        line = line_of[next(iter(changes))]
        return valuer.line_value(line, {**written, **changes}) - before[line]

    single = {(c, op): gain({c: op}) for c in empty for op in OPS}
    best: tuple[int, tuple[Cell, ...], tuple[str, ...]] | None = None
    for cells in itertools.combinations(empty, need):
        same_line = need == 2 and line_of[cells[0]] == line_of[cells[1]]
        for ops in itertools.product(OPS, repeat=need):
            if any(ops.count(op) > stock[op] for op in OPS):
                continue
            if same_line:
                value = gain(dict(zip(cells, ops)))
            else:
                value = sum(single[c, op] for c, op in zip(cells, ops))
            value -= x_price * ops.count("x")
            if best is None or value > best[0]:
                best = (value, cells, ops)
    if best is None:  # need <= the stock, so some operators always fit
        return 0, ()
    writes = tuple(
        _operator_write(sheet, s, seat, c, op, best[2][:i])
        for i, (c, op) in enumerate(zip(best[1], best[2]))
    )
    return best[0], writes


def _operator_write(
    sheet: Sheet, s: MatheMeisterSettings, seat: Seat, cell: Cell, op: str, before: tuple[str, ...]
) -> WriteOperator:
    """From the supply while it lasts, then from an operator Star Power."""
    left = sheet.supply[OPS.index(op)] - before.count(op)
    return WriteOperator(seat, cell, op, power=left <= 0)


def _ops_left(sheet: Sheet, s: MatheMeisterSettings, spent: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(
        op
        for i, op in enumerate(OPS)
        if sheet.supply[i] + sheet.powers_ready(s.layout, op) - spent.count(op) > 0
    )


# -- the bot ----------------------------------------------------------------------------------


def bot_turn(state: MatheMeisterState, seat: Seat) -> list[Action]:
    """The whole round for ``seat`` before claims and swaps: the hint's actions."""
    return list(hint(state, seat).actions())


def after_writes(state: MatheMeisterState, seat: Seat) -> list[Action]:
    """Claims (with automatic claims, MM-13: the Star Powers of the stars the device
    claimed), then at most one worthwhile swap, then the end of the round."""
    s, sheet = state.settings, state.sheets[seat]
    actions: list[Action] = []
    promised: list[str] = []
    if s.automatic_claims:  # MM-13: the device claimed the stars; choose their Star Powers
        promised += [c.power for c in state.claims if c.seat == seat and c.power]
        # in Black Hole an unspent coin power is 10 more points: take it last
        order: tuple[str, ...] = POWER_PREFERENCE
        if s.has("black_hole"):
            order = (*(k for k in POWER_PREFERENCE if k != "coin"), "coin")
        for claim in state.claims:
            if claim.seat != seat or claim.power:
                continue
            power = next(k for k in order if sheet.powers_free(s.layout, k) > promised.count(k))
            promised.append(power)
            actions.append(ClaimStar(seat, claim.line, power))
    elif not s.has("black_hole"):  # in Black Hole a star only adds points
        for line in LINES:
            mine = any(c.seat == seat and c.line == line for c in state.claims)
            if mine or state.owner(line) is not None or not sheet.line_complete(line):
                continue
            free = [
                k for k in POWER_PREFERENCE if sheet.powers_free(s.layout, k) > promised.count(k)
            ]
            if free:
                promised.append(free[0])
                actions.append(ClaimStar(seat, line, free[0]))
    swap = _best_swap(state, seat)
    if swap is not None:
        actions.append(swap)
    actions.append(EndRound(seat))
    return actions


def _best_swap(state: MatheMeisterState, seat: Seat) -> Action | None:
    s, sheet = state.settings, state.sheets[seat]
    if s.has("coinless"):
        return None
    valuer = Valuer(s, sheet, _ops_left(sheet, s, ()))
    coins = sheet.coins(s.layout)
    prefilled = s.layout.prefilled_map
    best: tuple[int, Action | None] = (0, None)
    for kind, cells, cost in (
        (SwapOperators, OPERATOR_CELLS, SWAP_OPERATORS_COST),
        (SwapOperands, OPERAND_CELLS, SWAP_OPERANDS_COST),
    ):
        if coins < cost:
            continue
        open_cells = [
            c
            for c in cells
            if c not in prefilled
            and sheet.at(c) != EMPTY
            and not any(sheet.line_complete(line) for line in lines_of(c))
        ]
        for a, b in itertools.combinations(open_cells, 2):
            if sheet.at(a) == sheet.at(b):
                continue
            gain = valuer.delta({a: sheet.at(b), b: sheet.at(a)})
            # coins are points; the objective may be -1 (Black Hole)
            gain -= cost * COIN_POINTS * valuer.sign * LINE_SCALE
            if gain > best[0]:
                best = (gain, kind(seat, a, b))
    return best[1]
