"""Scripted Mathe-Meister play for the tests (public engine surface only).

``play_round`` rolls the dice, applies each seat's scripted writes and ends the round;
``reach`` plays solo rounds until chosen cells hold chosen values; ``fill_plan`` splits
the sheet into eight rounds of writes; ``play_randomly`` plays a Match to its end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tabletop.engine.protocol import Event
from tabletop.games.mathe_meister import (
    ClaimStar,
    EndRound,
    Layout,
    MatheMeister,
    MatheMeisterState,
    Roll,
    Sheet,
    WriteOperand,
    WriteOperator,
)

Cell = tuple[int, int]
# One scripted write: an action, or ``(cell, value)`` for an operand (int) / operator (str).
Move = Any

BLANK = ["......."] * 7


def to_action(seat: int, move: Move, die_index: int) -> Any:
    """``(cell, 3)`` -> WriteOperand from die ``die_index``; ``(cell, "+")`` -> WriteOperator."""
    if not isinstance(move, tuple):
        return move
    cell, value = move
    if isinstance(value, str):
        return WriteOperator(seat, cell, value)
    return WriteOperand(seat, cell, value, die_index)


def apply_all(
    game: MatheMeister, state: MatheMeisterState, actions: Iterable[Any]
) -> tuple[MatheMeisterState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, new = game.apply(state, action)
        events.extend(new)
    return state, events


def play_round(
    game: MatheMeister,
    state: MatheMeisterState,
    dice: tuple[int, int] | None,
    moves: Sequence[Move] | Mapping[int, Sequence[Move]],
    *,
    end: bool = True,
) -> tuple[MatheMeisterState, list[Event]]:
    """Roll ``dice`` (None: already rolled), then for each seat (in seat order) apply its
    scripted moves and, if ``end``, EndRound for each of them. ``moves`` is seat 0's list
    or ``{seat: [...]}``; a seat's n-th ``(cell, int)`` operand uses die n."""
    per_seat = dict(moves) if isinstance(moves, Mapping) else {0: moves}
    out: list[Event] = []
    if dice is not None:
        state, events = game.apply(state, Roll(dice))
        out.extend(events)
    for seat in sorted(per_seat):
        die = 0
        for move in per_seat[seat]:
            action = to_action(seat, move, die)
            if isinstance(action, WriteOperand) and isinstance(move, tuple):
                die += 1
            state, new = game.apply(state, action)
            out.extend(new)
    if end:
        for seat in sorted(per_seat):
            state, new = choose_powers(game, state, seat)
            out.extend(new)
            state, new = game.apply(state, EndRound(seat))
            out.extend(new)
    return state, out


def choose_powers(
    game: MatheMeister, state: MatheMeisterState, seat: int, power: str | None = None
) -> tuple[MatheMeisterState, list[Event]]:
    """MM-13: choose a Star Power (``power``, else the first free kind) for each Bonus
    Star the device claimed for ``seat`` after its writes."""
    out: list[Event] = []
    while state.settings.automatic_claims:
        waiting = [c for c in state.claims if c.seat == seat and not c.power]
        if not waiting:
            break
        choices = [a for a in game.legal_actions(state, seat) if isinstance(a, ClaimStar)]
        pick = next((a for a in choices if a.power == power), choices[0])
        state, new = game.apply(state, pick)
        out.extend(new)
    return state, out


def fill_plan(layout: Layout) -> list[tuple[list[Cell], list[Cell]]]:
    """Eight rounds covering the sheet: two operand cells (row by row) and two free
    operator cells per round (row operators first, then column operators)."""
    operands = [(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)]
    prefilled = layout.prefilled_map
    row_ops = [(r, c) for r in range(0, 7, 2) for c in (1, 5)]
    col_ops = [(r, c) for r in (1, 5) for c in range(0, 7, 2)]
    ops = [cell for cell in row_ops + col_ops if cell not in prefilled]
    assert len(operands) == 16 and len(ops) == 16
    return [(operands[2 * i : 2 * i + 2], ops[2 * i : 2 * i + 2]) for i in range(8)]


def grid_moves(grid: Sequence[str], cells: Iterable[Cell]) -> list[Move]:
    out: list[Move] = []
    for r, c in cells:
        ch = grid[r][c]
        out.append(((r, c), int(ch) if ch.isdigit() else ch))
    return out


# Two column operators that complete no line: a sheet showing one row (4 operands, 2 free
# operators) needs two more operators to be a sheet a game can make (MM-15).
ROW_PAD: dict[Cell, str] = {(1, 0): "+", (1, 2): "+"}
# The same for a sheet showing one column: two row operators.
COLUMN_PAD: dict[Cell, str] = {(0, 1): "+", (2, 1): "+"}


def grid_with(cells: Mapping[Cell, str], base: Sequence[str] = BLANK) -> list[str]:
    """A copy of ``base`` with some cells set (for ``tabletop check`` inputs)."""
    rows = [list(row) for row in base]
    for (r, c), ch in cells.items():
        rows[r][c] = ch
    return ["".join(row) for row in rows]


def sheet_to_check(sheet: Sheet, layout: Layout, settings: Any) -> dict[str, Any]:
    """An engine sheet as ``tabletop check mathe-meister`` JSON (DESIGN.md)."""
    circled = [k for k, s in zip(layout.star_powers, sheet.powers) if s in ("circled", "used")]
    used = [k for k, s in zip(layout.star_powers, sheet.powers) if s == "used"]
    return {
        "modes": list(settings.modes),
        "grid": list(sheet.grid),
        "stars": sorted(sheet.stars),
        "star_powers": {"circled": circled, "used": used},
        "negative_sums": settings.negative_sums,
        "operator_supply": settings.operator_supply,
    }


def play_randomly(match: Any, rng: Any, dealer: Any, *, max_steps: int = 5000) -> int:
    """Play ``match`` to its end: the dealer answers chance, otherwise a random pending
    seat takes a random legal action. Returns the number of actions applied."""
    steps = 0
    while match.result() is None:
        steps += 1
        assert steps <= max_steps, "the game does not end"
        pending = match.pending
        if pending.chance is not None:
            match.deal(dealer)
            continue
        seat = rng.choice(sorted(pending.seats))
        actions = match.game.legal_actions(match.state, seat)
        assert actions, f"seat {seat} is pending but has no legal action"
        match.apply(rng.choice(actions))
    return steps


def reach(
    game: MatheMeister,
    state: MatheMeisterState,
    targets: Mapping[Cell, str],
    *,
    end_last: bool = True,
) -> tuple[MatheMeisterState, list[Event]]:
    """Solo: play whole rounds (two operands, two operators each) until every target
    cell holds its character. Rounds are padded with filler writes (operand 1; operators
    cycling ``+ - x``) in cells away from the targets' lines, so no other line completes
    by accident. With ``end_last=False`` the last round is not ended."""
    sheet = state.sheets[0]
    operands = [(c, v) for c, v in targets.items() if v.isdigit()]
    operators = [(c, v) for c, v in targets.items() if not v.isdigit()]
    target_lines = {line for cell in targets for line in _lines(cell)}
    rounds = max((len(operands) + 1) // 2, (len(operators) + 1) // 2)

    def fillers(kind_cells: list[Cell], need: int) -> list[Cell]:
        free = [c for c in kind_cells if sheet.at(c) == "." and c not in targets]
        free.sort(key=lambda c: (len(set(_lines(c)) & target_lines), -c[0], -c[1]))
        assert len(free) >= need, "not enough free cells for filler writes"
        return free[:need]

    operand_cells = [(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)]
    operator_cells = [(r, c) for r in range(7) for c in range(7) if (r % 2) != (c % 2)]
    operands += [(c, "1") for c in fillers(operand_cells, 2 * rounds - len(operands))]
    extra = fillers(operator_cells, 2 * rounds - len(operators))
    operators += [(c, "+-x"[i % 3]) for i, c in enumerate(extra)]
    events: list[Event] = []
    for i in range(rounds):
        pair = operands[2 * i : 2 * i + 2]
        dice = (int(pair[0][1]), int(pair[1][1]))
        moves = [(c, int(v)) for c, v in pair] + list(operators[2 * i : 2 * i + 2])
        state, new = play_round(game, state, dice, moves, end=end_last or i < rounds - 1)
        events.extend(new)
    return state, events


def _lines(cell: Cell) -> list[str]:
    r, c = cell
    out = []
    if r % 2 == 0:
        out.append(f"R{r // 2 + 1}")
    if c % 2 == 0:
        out.append(f"C{c // 2 + 1}")
    return out


def row_cells(row: int) -> list[Cell]:
    """Row ``row`` (1..4): its seven cells left to right (MM-1)."""
    return [(2 * (row - 1), c) for c in range(7)]


def column_cells(column: int) -> list[Cell]:
    """Column ``column`` (1..4): its seven cells top to bottom (MM-1)."""
    return [(r, 2 * (column - 1)) for r in range(7)]


def line_targets(cells: Sequence[Cell], text: str, layout: Layout) -> dict[Cell, str]:
    """``"3+5+2x2"`` laid on a line's cells; the prefilled cell must match the layout."""
    assert len(text) == 7
    out = {}
    for cell, ch in zip(cells, text):
        if cell in layout.prefilled_map:
            assert layout.prefilled_map[cell] == ch, f"{cell} is prefilled"
            continue
        out[cell] = ch
    return out
