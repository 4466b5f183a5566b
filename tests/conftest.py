"""Shared fixtures for the whole suite (Mathe-Meister rulings MM-1..MM-12).

No test needs a display: pygame (if anything imports it) gets the dummy video driver.
The helpers below drive the Mathe-Meister engine through its public surface only:
``new_game``, ``pending``, ``legal_actions`` and ``apply``.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Callable, Iterable, Mapping, Sequence  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

from tabletop.assets import mathe_meister_layout  # noqa: E402
from tabletop.engine.protocol import Event  # noqa: E402
from tabletop.games.mathe_meister import (  # noqa: E402
    EndRound,
    Layout,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    Roll,
    WriteOperand,
    WriteOperator,
)

Cell = tuple[int, int]
# One scripted write: an action, or ``(cell, value)`` for an operand (int) / operator (str).
Move = Any


@pytest.fixture
def layout() -> Layout:
    """The default tracking sheet from ``assets/mathe_meister/sheet.toml`` (MM-1, MM-2)."""
    return mathe_meister_layout()


@pytest.fixture
def game() -> MatheMeister:
    return MatheMeister()


@pytest.fixture
def settings(layout: Layout) -> Callable[..., MatheMeisterSettings]:
    """A factory: ``settings("twins", negative_sums="signed")``."""

    def make(*modes: str, **options: Any) -> MatheMeisterSettings:
        return MatheMeisterSettings(layout, tuple(modes) or ("freestyle",), **options)

    return make


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
    dice: tuple[int, int],
    moves: Sequence[Move] | Mapping[int, Sequence[Move]],
    *,
    end: bool = True,
) -> tuple[MatheMeisterState, list[Event]]:
    """Roll ``dice``, then for each seat (in seat order) apply its scripted moves and, if
    ``end``, EndRound. ``moves`` is one seat's list (seat 0) or ``{seat: [...]}``; the
    n-th operand tuple of a seat uses die n."""
    per_seat = dict(moves) if isinstance(moves, Mapping) else {0: moves}
    state, events = game.apply(state, Roll(dice))
    out = list(events)
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
            state, new = game.apply(state, EndRound(seat))
            out.extend(new)
    return state, out


def fill_plan(grid: Sequence[str], layout: Layout) -> list[tuple[list[Cell], list[Cell]]]:
    """Eight rounds that write ``grid``: two operand cells (row by row) and two free
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


def play_grid(
    game: MatheMeister, state: MatheMeisterState, grid: Sequence[str], layout: Layout
) -> tuple[MatheMeisterState, list[Event]]:
    """Solo: play eight rounds whose dice are exactly ``grid``'s operands."""
    events: list[Event] = []
    for operand_cells, operator_cells in fill_plan(grid, layout):
        dice = (int(grid[operand_cells[0][0]][operand_cells[0][1]]),
                int(grid[operand_cells[1][0]][operand_cells[1][1]]))
        moves = grid_moves(grid, operand_cells) + grid_moves(grid, operator_cells)
        state, new = play_round(game, state, dice, moves)
        events.extend(new)
    return state, events


@pytest.fixture
def helpers() -> Any:
    """The scripted-play helpers as one namespace (``helpers.play_round(...)``)."""

    class Helpers:
        to_action = staticmethod(to_action)
        apply_all = staticmethod(apply_all)
        play_round = staticmethod(play_round)
        fill_plan = staticmethod(fill_plan)
        grid_moves = staticmethod(grid_moves)
        play_grid = staticmethod(play_grid)

    return Helpers
