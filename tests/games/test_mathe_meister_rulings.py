"""Mathe-Meister through its engine, one group of tests per ruling MM-1..MM-11
(shared/RULINGS.md). Every test drives ``new_game`` / ``legal_actions`` / ``apply``
with direct Roll actions or a ScriptedDealer, as the device would."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from tabletop.engine import BadInput, IllegalMove, ImpossibleOutcome, Match, ScriptedDealer
from tabletop.games.mathe_meister import (
    ChangeDie,
    ClaimStar,
    EndRound,
    Layout,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    Roll,
    Sheet,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
    check,
    die_values,
    evaluate,
    line_words,
    score_sheet,
)
from tests.mm_play import (
    ROW_PAD,
    apply_all,
    column_cells,
    fill_plan,
    grid_moves,
    grid_with,
    line_targets,
    play_round,
    reach,
    row_cells,
    to_action,
)

OPERAND_CELLS = [(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)]
COIN_CELLS = [(r, c) for r in range(1, 7, 2) for c in range(1, 7, 2)]
OPERATOR_CELLS = [(r, c) for r in range(7) for c in range(7) if r % 2 != c % 2]
PREFILLED = {
    (0, 3): "+", (2, 3): "-", (4, 3): "x", (6, 3): "+",
    (3, 0): "-", (3, 2): "x", (3, 4): "+", (3, 6): "+",
}  # fmt: skip

# Row 1 = 3 + 5 + 2 x 2 in two rounds (MM-12); round 2's operators go to column C1.
R1_ROUND1 = [((0, 0), 3), ((0, 2), 5), ((0, 1), "+"), ((0, 5), "x")]
R1_ROUND2 = [((0, 4), 2), ((0, 6), 2), ((1, 0), "x"), ((5, 0), "+")]

# A full sheet (MM-11 golden, see test_mathe_meister_golden.py): rows 9 18 11 16,
# columns 4 15 24 9; the free operators are six +, four - and six x.
FULL = [
    "2+3+4x1",
    "+o+o-ox",
    "1x5-2x6",
    "-oxo+o+",
    "3-2x6+5",
    "+o-oxo-",
    "4+1+3x2",
]


@pytest.fixture
def settings(layout: Layout) -> Any:
    """As the shared factory, but claims by hand as on paper sheets (MM-5,
    ``star_claims="paper"``): these tests script each claim, or leave a star unclaimed,
    to pin MM-1..MM-12. The device's automatic claims (MM-13) have their own tests below,
    with ``star_claims="automatic"`` (the default)."""

    def make(*modes: str, **options: Any) -> MatheMeisterSettings:
        options.setdefault("star_claims", "paper")
        return MatheMeisterSettings(layout, tuple(modes) or ("freestyle",), **options)

    return make


def events_of(events: list[Any], code: str) -> list[Any]:
    return [e for e in events if e.code == code]


def codes(error: Any) -> str:
    return error.value.code


def r1_round2_state(
    game: MatheMeister, settings: MatheMeisterSettings, seats: int, warmup: int = 0
) -> MatheMeisterState:
    """Every seat completes Row 1 (3 + 5 + 2 x 2) in round ``warmup + 2``; that round is
    left open (nobody has ended it) so claims can be made."""
    state = game.new_game(settings, seats)
    fillers = [
        [((6, 0), 1), ((6, 2), 1), ((5, 2), "+"), ((5, 4), "-")],
        [((4, 0), 1), ((4, 2), 1), ((5, 6), "+"), ((1, 6), "-")],
    ]
    for filler in fillers[:warmup]:
        state, _ = play_round(game, state, (1, 1), dict.fromkeys(range(seats), filler))
    state, _ = play_round(game, state, (3, 5), dict.fromkeys(range(seats), R1_ROUND1))
    state, _ = play_round(game, state, (2, 2), dict.fromkeys(range(seats), R1_ROUND2), end=False)
    assert all(sheet.line_complete("R1") for sheet in state.sheets)
    return state


def full_game(
    game: MatheMeister,
    settings: MatheMeisterSettings,
    layout: Layout,
    claims: tuple[ClaimStar, ...] = (),
) -> tuple[MatheMeisterState, list[Any]]:
    """Solo: write FULL in eight rounds; ``claims`` are made in round 8 before it ends."""
    state = game.new_game(settings, 1)
    events: list[Any] = []
    plan = fill_plan(layout)
    for i, (operand_cells, operator_cells) in enumerate(plan):
        dice = tuple(int(FULL[r][c]) for r, c in operand_cells)
        moves = grid_moves(FULL, operand_cells) + grid_moves(FULL, operator_cells)
        last = i == len(plan) - 1
        state, new = play_round(game, state, dice, moves, end=not last)  # type: ignore[arg-type]
        events += new
    state, new = apply_all(game, state, [*claims, EndRound(0)])
    return state, events + new


# -- MM-1 sheet geometry -----------------------------------------------------------------


def test_mm1_geometry_cell_counts(game: MatheMeister, settings: Any) -> None:
    """MM-1: 16 operand cells (r, c even), 24 operator cells, 9 coin cells (r, c odd)."""
    state = game.new_game(settings(), 1)
    grid = state.sheets[0].grid
    assert len(grid) == 7 and all(len(row) == 7 for row in grid)
    assert len(OPERAND_CELLS) == 16 and len(OPERATOR_CELLS) == 24 and len(COIN_CELLS) == 9
    assert [grid[r][c] for r, c in OPERAND_CELLS] == ["."] * 16
    assert [grid[r][c] for r, c in COIN_CELLS] == ["o"] * 9
    operators = [grid[r][c] for r, c in OPERATOR_CELLS]
    assert operators.count(".") == 16
    assert sum(1 for ch in operators if ch in "+-x") == 8
    assert state.sheets[0].coins(settings().layout) == 9


def test_mm1_legal_writes_cover_exactly_the_right_cells(game: MatheMeister, settings: Any) -> None:
    """MM-1: operands go only to white cells, operators only to free grey cells."""
    state, _ = game.apply(game.new_game(settings(), 1), Roll((2, 5)))
    actions = game.legal_actions(state, 0)
    operand_cells = {a.cell for a in actions if isinstance(a, WriteOperand)}
    operator_cells = {a.cell for a in actions if isinstance(a, WriteOperator)}
    assert operand_cells == set(OPERAND_CELLS)
    assert operator_cells == set(OPERATOR_CELLS) - set(PREFILLED)
    assert {(a.value, a.die) for a in actions if isinstance(a, WriteOperand)} == {(2, 0), (5, 1)}
    assert {a.op for a in actions if isinstance(a, WriteOperator)} == {"+", "-", "x"}


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (WriteOperand(0, (1, 1), 2, 0), "mm.cell_kind"),
        (WriteOperand(0, (0, 1), 2, 0), "mm.cell_kind"),
        (WriteOperator(0, (0, 0), "+"), "mm.cell_kind"),
        (WriteOperator(0, (3, 3), "+"), "mm.cell_kind"),
        (WriteOperand(0, (7, 0), 2, 0), "mm.no_such_cell"),
        (WriteOperator(0, (0, -1), "+"), "mm.no_such_cell"),
        (WriteOperator(0, (0, 1), "/"), "mm.not_operator"),
    ],
)
def test_mm1_writes_outside_their_kind_are_illegal(
    game: MatheMeister, settings: Any, action: Any, code: str
) -> None:
    state, _ = game.apply(game.new_game(settings(), 1), Roll((2, 5)))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, action)
    assert codes(info) == code


def test_mm1_row_i_is_grid_row_2i_minus_2(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-1: filling grid row 4 completes Row 3; filling grid column 2 completes C2."""
    state = game.new_game(settings(), 1)
    state, events = reach(game, state, line_targets(row_cells(3), "1+2x3+4", layout))
    assert [e.data["line"] for e in events_of(events, "mm.line_complete")] == ["R3"]
    assert [(r, c) for r, c in row_cells(3)] == [(4, c) for c in range(7)]
    state = game.new_game(settings(), 1)
    state, events = reach(game, state, line_targets(column_cells(2), "1+2x3+4", layout))
    assert [e.data["line"] for e in events_of(events, "mm.line_complete")] == ["C2"]


# -- MM-2 prefilled operators ------------------------------------------------------------


def test_mm2_prefilled_operators_come_from_the_layout(game: MatheMeister, settings: Any) -> None:
    """MM-2: rows R1..R4 = + - x +, columns C1..C4 = - x + +, at the middle cells."""
    grid = game.new_game(settings(), 1).sheets[0].grid
    assert {cell: grid[cell[0]][cell[1]] for cell in PREFILLED} == PREFILLED
    assert settings().layout.prefilled_map == PREFILLED


@pytest.mark.parametrize("cell", sorted(PREFILLED))
def test_mm2_prefilled_cells_cannot_be_written(
    game: MatheMeister, settings: Any, cell: tuple[int, int]
) -> None:
    state, _ = game.apply(game.new_game(settings(), 1), Roll((2, 5)))
    for action in (
        WriteOperator(0, cell, "+"),
        WriteOperator(0, cell, "x", power=True),
        WriteOperand(0, cell, 2, 0),
    ):
        with pytest.raises(IllegalMove) as info:
            game.apply(state, action)
        assert codes(info) == "mm.prefilled_operator"


def test_mm2_prefilled_cells_cannot_be_swapped(game: MatheMeister, settings: Any) -> None:
    state = game.new_game(settings(), 1)
    state, _ = play_round(
        game, state, (2, 5), [((4, 0), 2), ((4, 6), 5), ((0, 1), "x"), ((2, 1), "+")], end=False
    )
    swaps = [a for a in game.legal_actions(state, 0) if isinstance(a, SwapOperators)]
    assert swaps == [SwapOperators(0, (0, 1), (2, 1))]
    for other in ((0, 1), (2, 1)):
        with pytest.raises(IllegalMove) as info:
            game.apply(state, SwapOperators(0, (0, 3), other))
        assert codes(info) == "mm.prefilled_operator"
        with pytest.raises(IllegalMove) as info:
            game.apply(state, SwapOperators(0, other, (3, 2)))
        assert codes(info) == "mm.prefilled_operator"
    assert state.sheets[0].coins(state.settings.layout) == 9


def _layout(rows: list[str], columns: list[str]) -> Layout:
    data = {
        "prefilled": {"rows": rows, "columns": columns},
        "stars": {"R1": 5, "R2": 10, "R3": 5, "R4": 10, "C1": 5, "C2": 10, "C3": 5, "C4": 10},
        "star_powers": {"kinds": ["coin"] * 4 + ["+", "+", "-", "x", "1", "2", "5", "6"]},
    }
    return Layout.from_mapping(data)


def test_mm2_a_changed_layout_changes_the_sheet(game: MatheMeister, layout: Layout) -> None:
    """MM-2: the layout is data; another sheet file gives another blank grid, other
    forbidden cells and other sums."""
    default = _layout(["+", "-", "x", "+"], ["-", "x", "+", "+"])
    assert default == layout
    other = _layout(["x", "-", "x", "-"], ["+", "x", "+", "-"])
    assert other.blank_grid() != layout.blank_grid()
    grid = game.new_game(MatheMeisterSettings(other), 1).sheets[0].grid
    assert grid[0][3] == "x" and grid[6][3] == "-" and grid[3][0] == "+" and grid[3][6] == "-"
    _, events = reach(
        game,
        game.new_game(MatheMeisterSettings(other), 1),
        {(0, 0): "3", (0, 1): "+", (0, 2): "5", (0, 4): "2", (0, 5): "x", (0, 6): "2"},
    )
    [done] = events_of(events, "mm.line_complete")
    assert done.data["total"] == 32  # ((3 + 5) x 2) x 2 with the changed middle operator
    row = "3+5.2x2"
    grid = grid_with(ROW_PAD, [row] + ["......."] * 6)  # two more operators (MM-15)
    assert check({"grid": grid}, other)["rows"][0] == 32
    assert check({"grid": grid}, layout)["rows"][0] == 20


def test_mm3_line_words_in_reading_order(game: MatheMeister) -> None:
    """MM-3: a complete line's numbers and signs in reading order, as written: what its
    completion says (and the solo sheet's line)."""
    other = _layout(["x", "-", "x", "-"], ["+", "x", "+", "-"])
    state, events = reach(
        game,
        game.new_game(MatheMeisterSettings(other), 1),
        {(0, 0): "3", (0, 1): "+", (0, 2): "5", (0, 4): "2", (0, 5): "x", (0, 6): "2"},
    )
    words = line_words(state.sheets[0].grid, "R1")
    assert words == ["3", "+", "5", "x", "2", "x", "2"]
    [done] = events_of(events, "mm.line_complete")
    assert "3 + 5 x 2 x 2 = 32." in done.text


def test_mm4_a_column_summing_to_one_is_worth_one_point(game: MatheMeister, layout: Layout) -> None:
    """MM-4: a column wants an odd sum; 2 - 1 - 1 + 1 = 1 is "+1 point", not "+1 points"."""
    _, events = reach(
        game,
        game.new_game(MatheMeisterSettings(layout), 1),
        {(0, 0): "2", (1, 0): "-", (2, 0): "1", (4, 0): "1", (5, 0): "+", (6, 0): "1"},
    )
    [done] = events_of(events, "mm.line_complete")
    assert done.data["points"] == 1
    assert done.text == "Column 1 is complete: 2 - 1 - 1 + 1 = 1. That is +1 point."


def test_mm2_sheet_file_overrides_the_layout(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, layout: Layout
) -> None:
    """MM-2: the sheet file is read from ``$TABLETOP_ASSETS``; a missing or broken file
    is a BadInput, not a crash."""
    from tabletop.assets import assets_dir, load_toml

    text = (assets_dir() / "mathe_meister" / "sheet.toml").read_text(encoding="utf-8")
    folder = tmp_path / "mathe_meister"
    folder.mkdir()
    (folder / "sheet.toml").write_text(
        text.replace('columns = ["-", "x", "+", "+"]', 'columns = ["x", "x", "+", "-"]'),
        encoding="utf-8",
    )
    monkeypatch.setenv("TABLETOP_ASSETS", str(tmp_path))
    other = Layout.from_mapping(load_toml("mathe_meister/sheet.toml"))
    assert other.prefilled_map[(3, 0)] == "x" and other.prefilled_map[(3, 6)] == "-"
    assert other.prefilled_map[(0, 3)] == layout.prefilled_map[(0, 3)] == "+"
    assert other.star_values == layout.star_values
    with pytest.raises(BadInput) as info:
        load_toml("mathe_meister/missing.toml")
    assert codes(info) == "assets.missing"
    (folder / "broken.toml").write_text("[grid\nsize = 7\n", encoding="utf-8")
    with pytest.raises(BadInput) as info:
        load_toml("mathe_meister/broken.toml")
    assert codes(info) == "assets.toml"
    (folder / "partial.toml").write_text("[grid]\nsize = 7\n", encoding="utf-8")
    with pytest.raises(BadInput) as info:
        Layout.from_mapping(load_toml("mathe_meister/partial.toml"))
    assert codes(info) == "mm.layout"


@pytest.mark.parametrize(
    "data",
    [
        {"rows": ["+", "-", "/", "+"], "columns": ["-", "x", "+", "+"]},
        {"rows": ["+", "-", "x", "+", "+"], "columns": ["-", "x", "+", "+"]},
    ],
)
def test_mm2_a_broken_layout_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(BadInput) as info:
        _layout(data["rows"], data["columns"])
    assert codes(info) == "mm.layout"


# -- MM-3 left to right ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operands", "operators", "total"),
    [
        ([3, 5, 2, 2], ["+", "+", "x"], 20),
        ([1, 6, 3, 4], ["x", "-", "+"], 7),
        ([2, 3, 4, 5], ["+", "x", "-"], 15),
        ([1, 6, 6, 6], ["-", "x", "-"], -36),
        ([6, 2, 3, 1], ["-", "-", "x"], 1),
    ],
)
def test_mm3_evaluate_left_to_right(operands: list[int], operators: list[str], total: int) -> None:
    """MM-3: no precedence: 2 + 3 x 4 - 5 is 15, not 9."""
    assert evaluate(operands, operators) == total


def test_mm3_engine_sums_rows_and_columns_left_to_right(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-3: row 3 = 2 + 3 x 4 - 5 -> 15; column 2 = 2 + 3 x 4 - 5 -> 15 (top to bottom)."""
    state = game.new_game(settings(), 1)
    _, events = reach(game, state, line_targets(row_cells(3), "2+3x4-5", layout))
    assert [(e.data["line"], e.data["total"]) for e in events_of(events, "mm.line_complete")] == [
        ("R3", 15)
    ]
    _, events = reach(game, state, line_targets(column_cells(2), "2+3x4-5", layout))
    assert [(e.data["line"], e.data["total"]) for e in events_of(events, "mm.line_complete")] == [
        ("C2", 15)
    ]


# -- MM-4 points of a line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "text", "absolute", "signed"),
    [
        ("R1", "3+5+2x2", 20, 20),  # row, even -> +
        ("R1", "3+5+2+2", 12, 12),  # row, even -> + (both options agree on positives)
        ("R1", "3+5+2+3", -13, -13),  # row, odd -> -
        ("R2", "1x1-6-1", 6, -6),  # -6 even: +|-6| or +(-6)
        ("R2", "1x1-6x1", -5, 5),  # -5 odd: -|-5| or -(-5)
        ("C3", "3+5+2x2", -20, -20),  # column, even -> -
        ("C3", "3+5+2+3", 13, 13),  # column, odd -> +
        ("C1", "1+1-6+1", 3, -3),  # -3 odd column: +|-3| or +(-3)
        ("C1", "1x1-6-1", -6, 6),  # -6 even column: -|-6| or -(-6)
    ],
)
def test_mm4_points_by_parity_and_negative_sums_option(
    game: MatheMeister,
    settings: Any,
    layout: Layout,
    line: str,
    text: str,
    absolute: int,
    signed: int,
) -> None:
    """MM-4: rows want even sums, columns odd sums; option negative_sums."""
    cells = row_cells(int(line[1])) if line[0] == "R" else column_cells(int(line[1]))
    for option, expected in (("absolute", absolute), ("signed", signed)):
        s = settings(negative_sums=option)
        state, events = reach(game, game.new_game(s, 1), line_targets(cells, text, layout))
        [done] = events_of(events, "mm.line_complete")
        assert done.data["line"] == line and done.data["points"] == expected
        card = score_sheet(state.sheets[0], s)
        assert card.line(line).points == expected
        assert card.total == expected + 90


def test_mm4_breakdown_puts_each_line_in_its_table_row(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-4/MM-11: an odd row is subtracted under "row odd sums", an even column under
    "column even sums"."""
    targets = {**line_targets(row_cells(1), "3+5+2+3", layout)}  # 13: odd row
    state, _ = reach(game, game.new_game(settings(), 1), targets)
    card = score_sheet(state.sheets[0], settings())
    assert (card.row_odd_sums, card.row_even_sums, card.total) == (13, 0, 90 - 13)
    targets = line_targets(column_cells(4), "3+5+2x2", layout)  # 20: even column
    state, _ = reach(game, game.new_game(settings(), 1), targets)
    card = score_sheet(state.sheets[0], settings())
    assert (card.column_even_sums, card.column_odd_sums, card.total) == (20, 0, 90 - 20)


def test_mm4_unfinished_line_scores_zero_and_has_no_star(game: MatheMeister, settings: Any) -> None:
    """MM-4: a line missing one cell scores 0 and its star cannot be claimed."""
    state = game.new_game(settings(), 1)
    state, _ = play_round(game, state, (3, 5), R1_ROUND1)
    state, _ = play_round(
        game, state, (2, 2), [((0, 4), 2), ((2, 6), 2), ((1, 0), "x"), ((5, 0), "+")], end=False
    )
    sheet = state.sheets[0]
    assert not sheet.line_complete("R1")
    card = score_sheet(sheet, settings())
    assert card.line("R1").total is None and card.line("R1").points == 0
    assert card.total == 90
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ClaimStar)]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R1", "coin"))
    assert codes(info) == "mm.star_unfinished"


def test_mm4_game_end_with_no_complete_line(game: MatheMeister, settings: Any) -> None:
    """MM-4 with MM-7's option: no operators at all -> no line completes -> only coins."""
    s = settings(operator_supply=0)
    state = game.new_game(s, 1)
    for i in range(8):
        a, b = OPERAND_CELLS[2 * i], OPERAND_CELLS[2 * i + 1]
        state, _ = play_round(game, state, (6, 6), [(a, 6), (b, 6)])
    result = game.result(state)
    assert result is not None
    assert result.scores == (Fraction(90),)
    assert all(ls.total is None for ls in score_sheet(state.sheets[0], s).lines)


# -- MM-5 Bonus Stars --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "text", "value"),
    [
        ("R1", "3+5+2x2", 5),
        ("R2", "2+2-2x2", 10),
        ("R3", "2+2x2+2", 5),
        ("R4", "2+2+2x2", 10),
        ("C1", "1+2-1x2", 5),
        ("C2", "2+2x2+2", 10),
        ("C3", "3+5+2x2", 5),
        ("C4", "2+2+2x2", 10),
    ],
)
def test_mm5_star_values(
    game: MatheMeister, settings: Any, layout: Layout, line: str, text: str, value: int
) -> None:
    """MM-5: R1 5, R2 10, R3 5, R4 10, C1 5, C2 10, C3 5, C4 10."""
    cells = row_cells(int(line[1])) if line[0] == "R" else column_cells(int(line[1]))
    state, _ = reach(
        game, game.new_game(settings(), 1), line_targets(cells, text, layout), end_last=False
    )
    before = score_sheet(state.sheets[0], settings()).total
    state, events = game.apply(state, ClaimStar(0, line, "+"))
    [won] = events_of(list(events), "mm.star_won")
    assert won.data == {"line": line, "points": value, "power": "+"}
    assert state.sheets[0].stars == frozenset({line})
    card = score_sheet(state.sheets[0], settings())
    assert card.stars == value and card.total == before + value


@pytest.mark.parametrize(("power", "said"), [("x", "an x"), ("coin", "a coin"), ("6", "a 6")])
def test_mm5_a_star_won_says_its_star_power_with_the_right_article(
    game: MatheMeister, settings: Any, layout: Layout, power: str, said: str
) -> None:
    """MM-5: the sentence of a star won names its Star Power as it is said aloud: "an x
    Star Power" (x is said "ex"; was "a x"), "a coin Star Power"."""
    state, _ = reach(
        game,
        game.new_game(settings(), 1),
        line_targets(row_cells(1), "3+5+2x2", layout),
        end_last=False,
    )
    state, events = game.apply(state, ClaimStar(0, "R1", power))
    [won] = events_of(list(events), "mm.star_won")
    assert won.text.endswith(f"5 points, and {said} Star Power.")


@pytest.mark.parametrize(("first_at", "second_at", "winner"), [(200, 100, 1), (100, 200, 0)])
def test_mm5_first_claimed_first_owned_by_timestamp(
    game: MatheMeister, settings: Any, first_at: int, second_at: int, winner: int
) -> None:
    """MM-5: both seats complete Row 1 in round 2; the claim with the earlier ``at``
    wins, even when it is applied second."""
    state = r1_round2_state(game, settings(), 2)
    state, _ = game.apply(state, ClaimStar(0, "R1", "coin", at=first_at))
    state, _ = game.apply(state, ClaimStar(1, "R1", "+", at=second_at))
    assert all(not sheet.stars for sheet in state.sheets)  # nothing settled yet
    state, ev1 = game.apply(state, EndRound(0))
    state, ev2 = game.apply(state, EndRound(1))
    events = [*ev1, *ev2]
    loser = 1 - winner
    assert state.sheets[winner].stars == frozenset({"R1"})
    assert state.sheets[loser].stars == frozenset()
    assert [e.seat for e in events_of(events, "mm.star_won")] == [winner]
    assert [e.seat for e in events_of(events, "mm.star_lost")] == [loser]
    assert "circled" not in state.sheets[loser].powers
    assert state.sheets[winner].powers.count("circled") == 1
    power = "coin" if winner == 0 else "+"
    assert state.sheets[winner].coins(state.settings.layout) == 9 + (power == "coin")


@pytest.mark.parametrize(
    ("seats", "warmup", "claimants", "winner"),
    [
        (2, 0, (0, 1), 1),  # round 2: first player is seat 1
        (2, 0, (1, 0), 1),
        (2, 1, (1, 0), 0),  # round 3: first player is seat 0
        (3, 0, (0, 2), 2),  # round 2 of 3 seats: order 1, 2, 0
        (3, 1, (0, 1, 2), 2),  # round 3 of 3 seats: order 2, 0, 1
        (4, 2, (0, 1, 2, 3), 3),  # round 4 of 4 seats: first player is seat 3
    ],
)
def test_mm5_without_timestamps_seat_order_from_first_player(
    game: MatheMeister,
    settings: Any,
    seats: int,
    warmup: int,
    claimants: tuple[int, ...],
    winner: int,
) -> None:
    """MM-5: with no timestamps, claims are ordered by seat from the round's first
    player, (round - 1) % seats, whatever order they were applied in."""
    state = r1_round2_state(game, settings(), seats, warmup)
    assert state.round == warmup + 2
    assert state.first_player == (state.round - 1) % seats
    for seat in claimants:
        state, _ = game.apply(state, ClaimStar(seat, "R1", "x"))
    state, _ = apply_all(game, state, [EndRound(s) for s in range(seats)])
    assert [s for s, sheet in enumerate(state.sheets) if sheet.stars] == [winner]
    assert state.sheets[winner].stars == frozenset({"R1"})


def test_mm5_seat_order_holds_when_the_other_seat_ends_first(
    game: MatheMeister, settings: Any
) -> None:
    state = r1_round2_state(game, settings(), 2)
    assert state.first_player == 1
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "coin"), EndRound(0)])
    state, _ = apply_all(game, state, [ClaimStar(1, "R1", "coin"), EndRound(1)])
    assert state.sheets[1].stars == frozenset({"R1"})
    assert state.sheets[0].stars == frozenset()


def test_mm5_star_board_first_press_chooses_first_whatever_the_arrival_order() -> None:
    """MM-5 at a table of paper sheets: presses wait in the order they were made, and
    the first claimed is the first owned."""
    from tabletop.games.mathe_meister import StarBoard

    board = StarBoard({"R1": 5, "R2": 10, "R3": 5, "R4": 10, "C1": 5, "C2": 10, "C3": 5, "C4": 10})
    board.press(4, at=10.030)
    board.press(1, at=10.010)  # arrives second, pressed first
    assert not board.press(1, at=10.050)  # already waiting
    assert board.current.seat == 1
    assert board.choose("R1", 1) == 1
    with pytest.raises(ValueError):
        board.choose("R1", 1)  # seat 4 wanted it too: taken
    assert board.choose("R2", 1) == 4
    assert board.stars_of(1) == ["R1"] and board.points_of(4) == 10
    assert [c.at for c in board.claims] == [10.010, 10.030]


def test_mm5_star_board_takes_back_the_last_star_of_the_round_only() -> None:
    """MM-5 at a table: the teacher may take back the star chosen last this round (a
    star tapped by mistake), which is free again; a star of an earlier round stays."""
    from tabletop.games.mathe_meister import StarBoard

    board = StarBoard(dict.fromkeys(("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4"), 5))
    board.press(0, at=1.0)
    board.choose("R1", 1)
    board.press(1, at=2.0)
    board.choose("C2", 2)
    assert board.last_claim(3) is None and board.take_back(3) is None
    assert board.take_back(2) == board.claims[0].__class__(2, "C2", 1, 2.0)
    assert board.owners == {"R1": 0} and "C2" in board.free_lines()
    assert board.take_back(2) is None and board.owners == {"R1": 0}  # round 1's stays


def test_mm5_missed_star_claimed_in_a_later_round_solo(game: MatheMeister, settings: Any) -> None:
    """MM-5: a star not claimed at completion can be claimed later while unowned."""
    state = r1_round2_state(game, settings(), 1)
    state, _ = game.apply(state, EndRound(0))
    assert state.round == 3 and not state.sheets[0].stars
    state, _ = game.apply(state, Roll((1, 1)))
    assert ClaimStar(0, "R1", "coin") in game.legal_actions(state, 0)
    state, events = game.apply(state, ClaimStar(0, "R1", "coin"))
    assert state.sheets[0].stars == frozenset({"R1"})
    assert events_of(list(events), "mm.star_won")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R1", "+"))
    assert codes(info) == "mm.star_owned"


def test_mm5_missed_star_claimed_later_by_another_seat(game: MatheMeister, settings: Any) -> None:
    """MM-5: seat 0 misses Row 1's star; seat 1 claims it in round 3 and owns it; seat 0
    can no longer claim it."""
    state = r1_round2_state(game, settings(), 2)
    state, _ = apply_all(game, state, [EndRound(0), EndRound(1)])
    assert not any(sheet.stars for sheet in state.sheets)
    filler = [((6, 0), 1), ((6, 2), 1), ((5, 2), "+"), ((5, 4), "-")]
    state, _ = play_round(game, state, (1, 1), {0: filler}, end=True)
    state, events = game.apply(state, ClaimStar(1, "R1", "x"))
    assert not events_of(list(events), "mm.star_won"), "settled only when the round ends"
    state, events = play_round(game, state, None, {1: filler})
    assert [e.seat for e in events_of(events, "mm.star_won")] == [1]
    assert state.sheets[1].stars == frozenset({"R1"})
    state, _ = game.apply(state, Roll((2, 2)))
    assert state.round == 4
    assert game.legal_actions(state, 0)
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ClaimStar)]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R1", "coin"))
    assert codes(info) == "mm.star_owned"


def test_mm5_claim_twice_is_refused(game: MatheMeister, settings: Any) -> None:
    state = r1_round2_state(game, settings(), 2)
    state, _ = game.apply(state, ClaimStar(0, "R1", "coin"))
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ClaimStar)]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R1", "+"))
    assert codes(info) == "mm.star_claimed"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R9", "+"))
    assert codes(info) == "mm.no_such_line"


def test_mm5_solo_every_star_is_available(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-5: in solo all eight stars can be claimed (60 points)."""
    lines = ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")
    claims = tuple(
        ClaimStar(0, line, kind)
        for line, kind in zip(lines, ("coin", "coin", "+", "+", "-", "x", "1", "2"))
    )
    state, _ = full_game(game, settings(), layout, claims)
    sheet = state.sheets[0]
    assert sheet.stars == frozenset(lines)
    assert score_sheet(sheet, settings()).stars == 60
    assert sheet.powers.count("circled") == 8 and sheet.powers.count("free") == 4


# -- MM-6 Star Powers --------------------------------------------------------------------


def _two_lines_state(
    game: MatheMeister, settings: MatheMeisterSettings, layout: Layout
) -> MatheMeisterState:
    """Solo: Row 1 complete (round 2), Row 2 complete in the open round 4."""
    state, _ = reach(
        game,
        game.new_game(settings, 1),
        line_targets(row_cells(1), "3+5+2x2", layout),
        end_last=False,
    )
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "x"), EndRound(0)])
    state, _ = reach(game, state, line_targets(row_cells(2), "2+2-2x2", layout), end_last=False)
    assert state.round == 4
    return state


def test_mm6_one_star_circles_one_power(game: MatheMeister, settings: Any, layout: Layout) -> None:
    """MM-6: a claimed star circles exactly one Star Power of the player's choice; the
    single x power cannot be circled twice."""
    state = _two_lines_state(game, settings(), layout)
    sheet = state.sheets[0]
    assert sheet.powers[layout.star_powers.index("x")] == "circled"
    assert sheet.powers.count("circled") == 1
    claims = [a for a in game.legal_actions(state, 0) if isinstance(a, ClaimStar)]
    assert {a.line for a in claims} == {"R2"}
    assert {a.power for a in claims} == {"coin", "+", "-", "1", "2", "5", "6"}
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R2", "x"))
    assert codes(info) == "mm.power_gone"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ClaimStar(0, "R2", "wand"))
    assert codes(info) == "mm.power_kind"
    state, _ = game.apply(state, ClaimStar(0, "R2", "-"))
    assert state.sheets[0].powers.count("circled") == 2


def test_mm6_operator_power_is_used_once(game: MatheMeister, settings: Any, layout: Layout) -> None:
    """MM-6: a circled operator power writes its operator without using the supply,
    once; then it is crossed out."""
    state = _two_lines_state(game, settings(), layout)
    state, _ = apply_all(game, state, [EndRound(0), Roll((1, 1))])
    supply = state.sheets[0].supply
    x_index = layout.star_powers.index("x")
    first, second = [c for c in OPERATOR_CELLS if state.sheets[0].at(c) == "."][:2]
    assert WriteOperator(0, first, "x", power=True) in game.legal_actions(state, 0)
    state, _ = game.apply(state, WriteOperator(0, first, "x", power=True))
    assert state.sheets[0].supply == supply
    assert state.sheets[0].at(first) == "x"
    assert state.sheets[0].powers[x_index] == "used"
    assert WriteOperator(0, second, "x", power=True) not in game.legal_actions(state, 0)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperator(0, second, "x", power=True))
    assert codes(info) == "mm.power_missing"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperator(0, second, "+", power=True))
    assert codes(info) == "mm.power_missing"


def test_mm6_operand_power_writes_its_number_once(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-6/MM-8: the circled 6 power writes a 6 in place of a die, once."""
    state, _ = reach(
        game,
        game.new_game(settings(), 1),
        line_targets(row_cells(1), "3+5+2x2", layout),
        end_last=False,
    )
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "6"), EndRound(0), Roll((1, 2))])
    actions = game.legal_actions(state, 0)
    assert WriteOperand(0, (4, 4), 6, 0, "6") in actions
    assert WriteOperand(0, (4, 4), 6, 1, "6") in actions
    assert WriteOperand(0, (4, 4), 5, 0, "5") not in actions
    for bad, code in [
        (WriteOperand(0, (4, 4), 5, 0, "6"), "mm.power_value"),
        (WriteOperand(0, (4, 4), 5, 0, "5"), "mm.power_missing"),
        (WriteOperand(0, (4, 4), 3, 0, "3"), "mm.power_kind"),
    ]:
        with pytest.raises(IllegalMove) as info:
            game.apply(state, bad)
        assert codes(info) == code
    state, _ = game.apply(state, WriteOperand(0, (4, 4), 6, 0, "6"))
    assert state.sheets[0].at((4, 4)) == "6"
    assert state.sheets[0].powers[layout.star_powers.index("6")] == "used"
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, WriteOperand) and a.power]
    state, _ = game.apply(state, WriteOperand(0, (4, 6), 2, 1))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (6, 6), 6, 0, "6"))
    assert codes(info) == "mm.die_used"


def test_mm6_coin_power_is_a_coin_to_spend(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-6/MM-9: a circled coin power is a tenth coin; personal coins go first."""
    state, _ = reach(
        game,
        game.new_game(settings(), 1),
        line_targets(row_cells(1), "3+5+2x2", layout),
        end_last=False,
    )
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "coin"), EndRound(0), Roll((1, 1))])
    coin_index = layout.star_powers.index("coin")
    assert state.sheets[0].coins(layout) == 10
    state, _ = apply_all(game, state, [ChangeDie(0, 0, 3), ChangeDie(0, 0, -3), ChangeDie(0, 0, 3)])
    assert state.sheets[0].coins(layout) == 1
    assert state.sheets[0].powers[coin_index] == "circled"
    assert "o" not in "".join(state.sheets[0].grid)
    state, _ = game.apply(state, ChangeDie(0, 0, 1))
    assert state.turns[0].dice == (5, 1)
    assert state.sheets[0].powers[coin_index] == "used"
    assert state.sheets[0].coins(layout) == 0
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ChangeDie)]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ChangeDie(0, 1, 1))
    assert codes(info) == "mm.no_coins"
    assert info.value.message == "that costs 1 coin and you have 0"  # not "1 coins"


def test_mm6_unspent_coin_power_scores_ten(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-6/MM-11: claiming C2 (10) with the coin power adds 10 + 10 to the final score;
    with the + power only the star's 10."""
    plain, _ = full_game(game, settings(), layout)
    coin, _ = full_game(game, settings(), layout, (ClaimStar(0, "C2", "coin"),))
    plus, _ = full_game(game, settings(), layout, (ClaimStar(0, "C2", "+"),))
    score = {
        name: game.result(s).scores[0]
        for name, s in (("plain", plain), ("coin", coin), ("plus", plus))  # type: ignore[union-attr]
    }
    assert score["coin"] - score["plain"] == 20
    assert score["plus"] - score["plain"] == 10
    assert score_sheet(coin.sheets[0], settings()).unspent_coins == 10


# -- MM-7 operator supply ----------------------------------------------------------------


def test_mm7_supply_is_six_of_each(game: MatheMeister, settings: Any) -> None:
    state = game.new_game(settings(), 1)
    assert state.sheets[0].supply == (6, 6, 6)
    state, _ = play_round(
        game, state, (1, 2), [((0, 0), 1), ((0, 2), 2), ((0, 1), "x"), ((0, 5), "x")]
    )
    assert state.sheets[0].supply == (6, 6, 4)


def test_mm7_supply_runs_out(game: MatheMeister, settings: Any) -> None:
    """MM-7: a used-up operator cannot be written from the supply."""
    s = settings(operator_supply=1)
    state = game.new_game(s, 1)
    assert state.sheets[0].supply == (1, 1, 1)
    state, _ = play_round(
        game, state, (1, 2), [((0, 0), 1), ((0, 2), 2), ((0, 1), "x"), ((0, 5), "+")]
    )
    state, _ = game.apply(state, Roll((3, 3)))
    ops = {a.op for a in game.legal_actions(state, 0) if isinstance(a, WriteOperator)}
    assert ops == {"-"}
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperator(0, (2, 1), "x"))
    assert codes(info) == "mm.supply_empty"
    state, _ = apply_all(
        game,
        state,
        [
            WriteOperand(0, (2, 0), 3, 0),
            WriteOperand(0, (2, 2), 3, 1),
            WriteOperator(0, (2, 1), "-"),
        ],
    )
    # With nothing left to write, the round may end after one operator (MM-7 option).
    assert EndRound(0) in game.legal_actions(state, 0)
    state, _ = game.apply(state, EndRound(0))
    assert state.round == 3


@pytest.mark.parametrize("supply", [0, 5, 9])
def test_mm7_operator_supply_option(game: MatheMeister, settings: Any, supply: int) -> None:
    assert game.new_game(settings(operator_supply=supply), 1).sheets[0].supply == (supply,) * 3


@pytest.mark.parametrize("supply", [-1, 10])
def test_mm7_operator_supply_option_range(settings: Any, supply: int) -> None:
    with pytest.raises(BadInput) as info:
        settings(operator_supply=supply)
    assert codes(info) == "mm.option"


# -- MM-8 a round ------------------------------------------------------------------------


def test_mm8_end_round_needs_two_operands_and_two_operators(
    game: MatheMeister, settings: Any
) -> None:
    state, _ = game.apply(game.new_game(settings(), 1), Roll((2, 3)))
    writes = [
        WriteOperand(0, (0, 0), 2, 0),
        WriteOperator(0, (0, 1), "+"),
        WriteOperand(0, (0, 2), 3, 1),
        WriteOperator(0, (0, 5), "-"),
    ]
    for write in writes:
        assert EndRound(0) not in game.legal_actions(state, 0)
        with pytest.raises(IllegalMove) as info:
            game.apply(state, EndRound(0))
        assert codes(info) == "mm.writes_missing"
        state, _ = game.apply(state, write)
    assert EndRound(0) in game.legal_actions(state, 0)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperator(0, (2, 1), "+"))
    assert codes(info) == "mm.two_operators"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (2, 0), 2, 0))
    assert codes(info) == "mm.die_used"
    assert not [
        a for a in game.legal_actions(state, 0) if isinstance(a, WriteOperand | WriteOperator)
    ]
    state, _ = game.apply(state, EndRound(0))
    assert state.round == 2 and state.dice is None
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (2, 0), 2, 0))
    assert codes(info) == "mm.roll_first"


def test_mm8_operand_must_be_the_die(game: MatheMeister, settings: Any) -> None:
    state, _ = game.apply(game.new_game(settings(), 1), Roll((2, 3)))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (0, 0), 3, 0))
    assert codes(info) == "mm.not_the_die"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (0, 0), 2, 2))
    assert codes(info) == "mm.no_such_die"
    state, _ = game.apply(state, WriteOperand(0, (0, 0), 3, 1))
    assert state.sheets[0].at((0, 0)) == "3"


@pytest.mark.parametrize(
    ("die", "delta", "became"), [(4, 3, 7), (6, 1, 7), (2, -2, 0), (1, -3, -2)]
)
def test_mm8_a_die_cannot_leave_one_to_six(
    game: MatheMeister, settings: Any, die: int, delta: int, became: int
) -> None:
    """MM-8: "a die cannot become 7"."""
    state, _ = game.apply(game.new_game(settings(), 1), Roll((die, 3)))
    assert ChangeDie(0, 0, delta) not in game.legal_actions(state, 0)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ChangeDie(0, 0, delta))
    assert codes(info) == "mm.die_range"
    assert f"a die cannot become {became}" in info.value.message


def test_mm8_die_change_is_for_this_player_only(game: MatheMeister, settings: Any) -> None:
    """MM-8/MM-9: seat 0 pays to change its die; seat 1 still has the rolled value."""
    state, _ = game.apply(game.new_game(settings(), 2), Roll((2, 3)))
    state, _ = game.apply(state, ChangeDie(0, 0, 2))
    assert state.turns[0].dice == (4, 3) and state.turns[1].dice == (2, 3)
    assert state.dice == (2, 3)
    state, _ = game.apply(state, WriteOperand(0, (0, 0), 4, 0))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(1, (0, 0), 4, 0))
    assert codes(info) == "mm.not_the_die"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ChangeDie(0, 0, 1))
    assert codes(info) == "mm.die_used"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ChangeDie(0, 1, 4))
    assert codes(info) == "mm.shop_delta"


def test_mm8_operand_power_replaces_one_die(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-8: a Star Power operand takes one die's place; the other die is still written."""
    state, _ = reach(
        game,
        game.new_game(settings(), 1),
        line_targets(row_cells(1), "3+5+2x2", layout),
        end_last=False,
    )
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "1"), EndRound(0), Roll((5, 6))])
    state, _ = game.apply(state, WriteOperand(0, (4, 0), 1, 1, "1"))
    assert state.turns[0].used == (False, True)
    assert {a.value for a in game.legal_actions(state, 0) if isinstance(a, WriteOperand)} == {5}
    state, _ = game.apply(state, WriteOperand(0, (4, 2), 5, 0))
    assert state.turns[0].operands == 2


def test_mm8_roll_rules(game: MatheMeister, settings: Any) -> None:
    state = game.new_game(settings(), 1)
    assert game.pending(state).chance is not None
    assert len(game.pending(state).chance.outcomes) == 36  # type: ignore[union-attr]
    assert game.legal_actions(state, 0) == []
    with pytest.raises(ImpossibleOutcome):
        game.apply(state, Roll((0, 7)))
    state, _ = game.apply(state, Roll((1, 6)))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, Roll((1, 6)))
    assert codes(info) == "mm.already_rolled"


def test_mm8_eight_rounds_fill_the_sheet(game: MatheMeister, settings: Any, layout: Layout) -> None:
    """MM-8: eight rounds fill the 16 operand cells and 16 free operator cells; then the
    game is over and refuses every action."""
    rounds = 0
    dealer = ScriptedDealer(
        Roll((int(FULL[a[0]][a[1]]), int(FULL[b[0]][b[1]]))) for (a, b), _ in fill_plan(layout)
    )
    match = Match(game, settings(), 1)
    for operand_cells, operator_cells in fill_plan(layout):
        assert match.result() is None
        match.deal(dealer)
        for i, (cell, value) in enumerate(grid_moves(FULL, operand_cells)):
            match.apply(WriteOperand(0, cell, value, i))
        for cell, op in grid_moves(FULL, operator_cells):
            match.apply(WriteOperator(0, cell, op))
        match.apply(EndRound(0))
        rounds += 1
    assert rounds == 8 and dealer.remaining == 0
    assert match.result() is not None
    assert list(match.state.sheets[0].grid) == FULL
    assert match.state.round == 8
    with pytest.raises(IllegalMove) as info:
        match.apply(Roll((1, 1)))
    assert codes(info) == "mm.game_over"
    assert game.legal_actions(match.state, 0) == []
    assert game.pending(match.state).is_nobody


def test_mm8_a_finished_seat_waits(game: MatheMeister, settings: Any) -> None:
    state = game.new_game(settings(), 2)
    state, _ = play_round(
        game, state, (1, 2), {0: [((0, 0), 1), ((0, 2), 2), ((0, 1), "+"), ((0, 5), "x")]}
    )
    assert game.pending(state).seats == frozenset({1})
    assert game.legal_actions(state, 0) == []
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperator(0, (2, 1), "+"))
    assert codes(info) == "mm.round_done"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, EndRound(2))
    assert codes(info) == "mm.no_such_seat"


# -- MM-9 Coin Shop ----------------------------------------------------------------------


@pytest.mark.parametrize("delta", [-3, -2, -1, 1, 2, 3])
def test_mm9_die_change_costs_its_size(game: MatheMeister, settings: Any, delta: int) -> None:
    """MM-9: 1/2/3 coins = +-1/+-2/+-3 to one die."""
    die = 4 if delta < 0 else 3
    state, _ = game.apply(game.new_game(settings(), 1), Roll((die, 1)))
    layout = state.settings.layout
    state, events = game.apply(state, ChangeDie(0, 0, delta))
    assert state.sheets[0].coins(layout) == 9 - abs(delta)
    assert "".join(state.sheets[0].grid).count("*") == abs(delta)
    assert state.turns[0].dice == (die + delta, 1)
    assert events[0].data == {"die": 0, "value": die + delta, "cost": abs(delta)}


def _written_round(game: MatheMeister, settings: MatheMeisterSettings) -> MatheMeisterState:
    """Round 2 of a solo game, writes done: operands (0,0)=2 (2,2)=5 (4,4)=3 (6,6)=1,
    operators (0,1)=+ (2,1)=x (4,5)=- (6,5)=+; no line is complete."""
    state = game.new_game(settings, 1)
    state, _ = play_round(
        game, state, (2, 5), [((0, 0), 2), ((2, 2), 5), ((0, 1), "+"), ((2, 1), "x")]
    )
    state, _ = play_round(
        game, state, (3, 1), [((4, 4), 3), ((6, 6), 1), ((4, 5), "-"), ((6, 5), "+")], end=False
    )
    return state


def test_mm9_swaps_cost_four_and_five(game: MatheMeister, settings: Any) -> None:
    """MM-9: 4 coins swap two written operators, 5 coins two written operands."""
    state = _written_round(game, settings())
    layout = state.settings.layout
    state, _ = game.apply(state, SwapOperators(0, (0, 1), (2, 1)))
    sheet = state.sheets[0]
    assert (sheet.at((0, 1)), sheet.at((2, 1)), sheet.coins(layout)) == ("x", "+", 5)
    state, _ = game.apply(state, SwapOperands(0, (0, 0), (6, 6)))
    sheet = state.sheets[0]
    assert (sheet.at((0, 0)), sheet.at((6, 6)), sheet.coins(layout)) == ("1", "2", 0)
    assert not [
        a
        for a in game.legal_actions(state, 0)
        if isinstance(a, SwapOperands | SwapOperators | ChangeDie)
    ]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, SwapOperators(0, (4, 5), (6, 5)))
    assert codes(info) == "mm.no_coins"


def test_mm9_swaps_only_after_the_rounds_writes(game: MatheMeister, settings: Any) -> None:
    state = game.new_game(settings(), 1)
    state, _ = play_round(
        game, state, (2, 5), [((0, 0), 2), ((2, 2), 5), ((0, 1), "+"), ((2, 1), "x")]
    )
    state, _ = apply_all(
        game,
        state,
        [
            Roll((3, 1)),
            WriteOperand(0, (4, 4), 3, 0),
            WriteOperand(0, (6, 6), 1, 1),
            WriteOperator(0, (4, 5), "-"),
        ],
    )
    assert not [
        a for a in game.legal_actions(state, 0) if isinstance(a, SwapOperands | SwapOperators)
    ]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, SwapOperators(0, (0, 1), (2, 1)))
    assert codes(info) == "mm.swap_early"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, SwapOperands(0, (0, 0), (2, 2)))
    assert codes(info) == "mm.swap_early"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (SwapOperators(0, (0, 0), (2, 2)), "mm.swap_kind"),
        (SwapOperators(0, (0, 1), (1, 1)), "mm.swap_kind"),
        (SwapOperands(0, (0, 1), (2, 1)), "mm.swap_kind"),
        (SwapOperands(0, (0, 0), (0, 1)), "mm.swap_kind"),
        (SwapOperators(0, (0, 1), (1, 0)), "mm.swap_empty"),
        (SwapOperands(0, (0, 0), (0, 2)), "mm.swap_empty"),
        (SwapOperators(0, (0, 1), (0, 1)), "mm.swap_same"),
        (SwapOperators(0, (0, 1), (6, 5)), "mm.swap_same"),
        (SwapOperands(0, (0, 0), (0, 0)), "mm.swap_same"),
    ],
)
def test_mm9_swap_rules(game: MatheMeister, settings: Any, action: Any, code: str) -> None:
    """MM-9: operators swap with operators, operands with operands, written cells only,
    and a swap must change something."""
    state = _written_round(game, settings())
    assert action not in game.legal_actions(state, 0)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, action)
    assert codes(info) == code
    assert state.sheets[0].coins(state.settings.layout) == 9


def test_mm9_swaps_never_touch_a_completed_line(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-9: Row 1 is complete: its operands and operators are set in stone, including
    an operand whose column is still open."""
    targets = {
        **line_targets(row_cells(1), "3+5+2x2", layout),
        (2, 0): "2",
        (2, 2): "5",
        (2, 1): "-",
        (2, 5): "+",
    }
    state, _ = reach(game, game.new_game(settings(), 1), targets, end_last=False)
    assert state.sheets[0].line_complete("R1") and not state.sheets[0].line_complete("C1")
    legal = game.legal_actions(state, 0)
    swapped = {
        cell for a in legal if isinstance(a, SwapOperands | SwapOperators) for cell in (a.a, a.b)
    }
    assert swapped and not swapped & set(row_cells(1))
    for action in (
        SwapOperands(0, (0, 0), (2, 2)),
        SwapOperands(0, (2, 0), (0, 2)),
        SwapOperators(0, (0, 1), (2, 1)),
        SwapOperators(0, (2, 5), (0, 5)),
    ):
        with pytest.raises(IllegalMove) as info:
            game.apply(state, action)
        assert codes(info) == "mm.swap_complete"
    state, _ = game.apply(state, SwapOperands(0, (2, 0), (2, 2)))
    assert (state.sheets[0].at((2, 0)), state.sheets[0].at((2, 2))) == ("5", "2")


def test_mm9_coinless_forbids_the_whole_shop(game: MatheMeister, settings: Any) -> None:
    """MM-9/MM-10: Coinless: no die change, no swap, not even in legal_actions."""
    state = _written_round(game, settings("coinless"))
    assert not [
        a
        for a in game.legal_actions(state, 0)
        if isinstance(a, SwapOperands | SwapOperators | ChangeDie)
    ]
    for action in (SwapOperators(0, (0, 1), (2, 1)), SwapOperands(0, (0, 0), (6, 6))):
        with pytest.raises(IllegalMove) as info:
            game.apply(state, action)
        assert codes(info) == "mm.coinless"
    state, _ = apply_all(game, state, [EndRound(0), Roll((3, 3))])
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ChangeDie)]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, ChangeDie(0, 0, 1))
    assert codes(info) == "mm.coinless"


def test_mm9_open_shop_lists_changes_within_coins(game: MatheMeister, settings: Any) -> None:
    state, _ = game.apply(game.new_game(settings(), 1), Roll((1, 6)))
    changes = {(a.die, a.delta) for a in game.legal_actions(state, 0) if isinstance(a, ChangeDie)}
    assert changes == {(0, 1), (0, 2), (0, 3), (1, -1), (1, -2), (1, -3)}


# -- MM-10 game modes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modes", "line", "text", "total", "valid", "points"),
    [
        (("twins",), "R1", "3+3+2x2", 16, True, 16),
        (("twins",), "R1", "2+3+2x2", 14, True, 14),  # the twins are at the end
        (("twins",), "R1", "2+3+2x4", 28, False, 0),  # equal 2s, not next to each other
        (("twins",), "R1", "2+3+2x1", 7, False, -7),  # invalid keeps its negative points
        (("small_to_big",), "R1", "1+2+3x4", 24, True, 24),
        (("small_to_big",), "R1", "2+2+3x3", 21, True, -21),
        (("small_to_big",), "R1", "4+3+2x2", 18, False, 0),
        (("small_to_big",), "R1", "4+3+2+2", 11, False, -11),
        (("big_to_small",), "R1", "4+3+2x2", 18, True, 18),
        (("big_to_small",), "R1", "1+2+3x4", 24, False, 0),
        (("small_to_big",), "C3", "1x2+3+4", 9, True, 9),  # top to bottom
        (("big_to_small",), "C3", "1x2+3+4", 9, False, 0),
        (("big_to_small",), "C3", "4x3+2+1", 15, True, 15),
        (("small_to_big",), "C3", "4x3+2+1", 15, False, 0),
        (("twins", "small_to_big"), "R1", "1+2+3x4", 24, False, 0),  # every mode must hold
        (("twins", "small_to_big"), "R1", "1+1+3x4", 20, True, 20),
        (("freestyle",), "R1", "2+3+2x4", 28, True, 28),
        (("coinless",), "R1", "4+3+2x2", 18, True, 18),
        (("black_hole",), "R1", "4+3+2x2", 18, True, 18),  # scoring unchanged
    ],
)
def test_mm10_line_validation(
    game: MatheMeister,
    settings: Any,
    layout: Layout,
    modes: tuple[str, ...],
    line: str,
    text: str,
    total: int,
    valid: bool,
    points: int,
) -> None:
    """MM-10: Twins, Small to Big, Big to Small; a line that fails keeps its negative
    points and loses its positive ones."""
    s = settings(*modes)
    cells = row_cells(int(line[1])) if line[0] == "R" else column_cells(int(line[1]))
    state, events = reach(
        game, game.new_game(s, 1), line_targets(cells, text, layout), end_last=False
    )
    [done] = events_of(events, "mm.line_complete")
    assert done.data == {"line": line, "total": total, "points": points, "valid": valid}
    card = score_sheet(state.sheets[0], s)
    assert (card.line(line).valid, card.line(line).points) == (valid, points)


@pytest.mark.parametrize("mode", ["twins", "small_to_big", "big_to_small"])
def test_mm10_invalid_line_still_claims_and_scores_its_star(
    game: MatheMeister, settings: Any, layout: Layout, mode: str
) -> None:
    """MM-10: the Bonus Star of a line that fails to validate is still claimed."""
    text = "1+2+3x4" if mode == "big_to_small" else "4+3+2x4"
    s = settings(mode)
    state, _ = reach(
        game, game.new_game(s, 1), line_targets(row_cells(4), text, layout), end_last=False
    )
    assert score_sheet(state.sheets[0], s).line("R4").points == 0
    assert ClaimStar(0, "R4", "coin") in game.legal_actions(state, 0)
    state, _ = game.apply(state, ClaimStar(0, "R4", "coin"))
    card = score_sheet(state.sheets[0], s)
    assert state.sheets[0].stars == frozenset({"R4"})
    assert card.stars == 10 and card.total == 10 + 100


def test_mm10_fear_of_fours(game: MatheMeister, settings: Any) -> None:
    """MM-10: a rolled 4 is written as 3 or 5, for free; a 4 is never written."""
    s = settings("fear_of_fours")
    state, _ = game.apply(game.new_game(s, 1), Roll((4, 2)))
    values = {(a.die, a.value) for a in game.legal_actions(state, 0) if isinstance(a, WriteOperand)}
    assert values == {(0, 3), (0, 5), (1, 2)}
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (0, 0), 4, 0))
    assert codes(info) == "mm.fear_of_fours"
    for value in (3, 5):
        after, _ = game.apply(state, WriteOperand(0, (0, 0), value, 0))
        assert after.sheets[0].at((0, 0)) == str(value)
        assert after.sheets[0].coins(s.layout) == 9
    with pytest.raises(IllegalMove) as info:
        game.apply(state, WriteOperand(0, (0, 0), 3, 1))
    assert codes(info) == "mm.not_the_die"
    # Without the mode a 4 is a 4.
    plain, _ = game.apply(game.new_game(settings(), 1), Roll((4, 2)))
    assert {
        a.value for a in game.legal_actions(plain, 0) if isinstance(a, WriteOperand) and a.die == 0
    } == {4}
    # die_values says it for the screens, as the engine judges it
    assert die_values(s, 4) == (3, 5) and die_values(s, 2) == (2,)
    assert die_values(settings(), 4) == (4,)


def test_mm14_fear_of_fours_the_shop_cannot_change_a_die_to_four(
    game: MatheMeister, settings: Any
) -> None:
    """MM-14 (was test_mm10_fear_of_fours_a_changed_die_cannot_write_four, which let a
    shop-made 4 be written as a free 3 or 5: +2 for 1 coin): the change is refused, with
    the reason, and not offered."""
    s = settings("fear_of_fours")
    state, _ = apply_all(game, game.new_game(s, 1), [Roll((3, 2))])
    with pytest.raises(IllegalMove) as err:
        game.apply(state, ChangeDie(0, 0, 1))
    assert err.value.code == "mm.fear_of_fours_shop" and "MM-14" in str(err.value)
    with pytest.raises(IllegalMove):
        game.apply(state, ChangeDie(0, 1, 2))  # 2 + 2 = 4 as well
    changes = {(a.die, a.delta) for a in game.legal_actions(state, 0) if isinstance(a, ChangeDie)}
    assert (0, 1) not in changes and (1, 2) not in changes
    assert (0, 2) in changes and (1, 1) in changes  # 5 and 3 are fine


def test_mm14_fear_of_fours_a_shop_changed_die_is_written_as_changed(
    game: MatheMeister, settings: Any
) -> None:
    """A rolled 4 changed by the shop is no longer a 4: it is written as it now shows."""
    s = settings("fear_of_fours")
    state, _ = apply_all(game, game.new_game(s, 1), [Roll((4, 2)), ChangeDie(0, 0, 1)])
    assert state.turns[0].dice == (5, 2)
    values = {
        a.value for a in game.legal_actions(state, 0) if isinstance(a, WriteOperand) and a.die == 0
    }
    assert values == {5}
    with pytest.raises(IllegalMove):
        game.apply(state, WriteOperand(0, (0, 0), 3, 0))


def test_mm14_fear_of_fours_only_a_rolled_four_is_a_free_three_or_five(
    game: MatheMeister, settings: Any
) -> None:
    s = settings("fear_of_fours")
    state, _ = apply_all(game, game.new_game(s, 1), [Roll((4, 2))])
    values = {
        (a.die, a.value)
        for a in game.legal_actions(state, 0)
        if isinstance(a, WriteOperand) and a.power is None
    }
    assert values == {(0, 3), (0, 5), (1, 2)}
    plain = settings()  # without Fear of Fours the shop may make a 4
    state, _ = apply_all(game, game.new_game(plain, 1), [Roll((3, 2)), ChangeDie(0, 0, 1)])
    assert state.turns[0].dice == (4, 2)


def test_mm10_black_hole_scores_like_freestyle(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-10: Black Hole (solo) keeps the scoring; only the goal changes."""
    plain, _ = full_game(game, settings(), layout)
    hole, _ = full_game(game, settings("black_hole"), layout)
    assert game.result(hole).scores == game.result(plain).scores  # type: ignore[union-attr]
    assert game.result(hole).places == (1,)  # type: ignore[union-attr]


def test_mm10_coinless_coins_still_score(game: MatheMeister, settings: Any, layout: Layout) -> None:
    plain, _ = full_game(game, settings(), layout)
    coinless, _ = full_game(game, settings("coinless"), layout)
    assert game.result(coinless).scores == game.result(plain).scores  # type: ignore[union-attr]
    assert score_sheet(coinless.sheets[0], settings("coinless")).unspent_coins_x10 == 90


@pytest.mark.parametrize("mode", ["black_hole", "fear_of_fours", "Fear of Fours"])
@pytest.mark.parametrize("seats", [2, 3, 8])
def test_mm10_solo_modes_need_one_player(
    game: MatheMeister, settings: Any, mode: str, seats: int
) -> None:
    with pytest.raises(BadInput) as info:
        game.new_game(settings(mode), seats)
    assert codes(info) == "mm.solo_mode"
    assert game.new_game(settings(mode), 1).seats == 1


@pytest.mark.parametrize(
    "modes",
    [("twins", "coinless"), ("small_to_big", "big_to_small"), ("twins", "coinless", "freestyle")],
)
def test_mm10_one_mode_in_multiplayer(
    game: MatheMeister, settings: Any, modes: tuple[str, ...]
) -> None:
    with pytest.raises(BadInput) as info:
        game.new_game(settings(*modes), 2)
    assert codes(info) == "mm.modes"
    assert game.new_game(settings(*modes), 1).settings.modes == tuple(sorted(set(modes)))


@pytest.mark.parametrize("mode", ["freestyle", "twins", "coinless", "small_to_big", "big_to_small"])
def test_mm10_single_mode_in_multiplayer_is_fine(
    game: MatheMeister, settings: Any, mode: str
) -> None:
    assert game.new_game(settings(mode), 4).seats == 4


def test_mm10_solo_combines_modes(game: MatheMeister, settings: Any) -> None:
    s = settings("Twins", "coinless", "Big-to-Small", "black hole", "fear_of_fours")
    assert s.modes == ("big_to_small", "black_hole", "coinless", "fear_of_fours", "twins")
    assert game.new_game(s, 1).settings == s


@pytest.mark.parametrize("mode", ["speedy", "", "twin"])
def test_mm10_unknown_mode(settings: Any, mode: str) -> None:
    with pytest.raises(BadInput) as info:
        settings(mode)
    assert codes(info) == "mm.unknown_mode"


@pytest.mark.parametrize("seats", [0, 9])
def test_mm10_seat_count(game: MatheMeister, settings: Any, seats: int) -> None:
    with pytest.raises(BadInput) as info:
        game.new_game(settings(), seats)
    assert codes(info) == "mm.seats"


# -- MM-11 final score and ties ----------------------------------------------------------

KINDS = ("coin", "coin", "coin", "coin", "+", "+", "-", "x", "1", "2", "5", "6")


def _sheet(
    layout: Layout,
    *,
    spent: int = 0,
    stars: tuple[str, ...] = (),
    circled: tuple[str, ...] = (),
    used: tuple[str, ...] = (),
) -> Sheet:
    assert layout.star_powers == KINDS
    grid = [list(row) for row in layout.blank_grid()]
    for r, c in COIN_CELLS[:spent]:
        grid[r][c] = "*"
    todo_c, todo_u = list(circled), list(used)
    powers = []
    for kind in KINDS:
        if kind in todo_u:
            todo_u.remove(kind)
            powers.append("used")
        elif kind in todo_c:
            todo_c.remove(kind)
            powers.append("circled")
        else:
            powers.append("free")
    return Sheet(
        tuple("".join(r) for r in grid),
        (0, 0, 0),
        tuple(powers),  # type: ignore[arg-type]
        frozenset(stars),
    )


def _places(game: MatheMeister, settings: MatheMeisterSettings, *sheets: Sheet) -> Any:
    state = MatheMeisterState(settings=settings, sheets=sheets, round=8, finished=True)
    return game.result(state)


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize(
    ("better", "worse", "level"),
    [
        # score: 90 vs 80
        ({}, {"spent": 1}, "score"),
        # score 95 each; 1 vs 0 circled-but-unused powers
        ({"stars": ("R1",), "circled": ("+",)}, {"stars": ("C1",), "used": ("+",)}, "powers"),
        # the circled coin power is unused and a coin: 8 + 1 coins, 95, 1 unused
        (
            {"spent": 1, "stars": ("R1",), "circled": ("coin",)},
            {"stars": ("C1",), "used": ("x",)},
            "powers",
        ),
        # unused powers beat stars: 100 each; B has 1 star and 1 unused, A 2 stars, 0 unused
        (
            {"stars": ("R2",), "circled": ("x",)},
            {"stars": ("R1", "C1"), "used": ("+", "-")},
            "powers",
        ),
        # score 100 each, 0 unused each; 2 vs 1 stars
        ({"stars": ("R1", "C1"), "used": ("+", "-")}, {"stars": ("R2",), "used": ("x",)}, "stars"),
        # stars beat coins: 8 coins + 20 vs 9 coins + 10, but 2 stars vs 1
        (
            {"spent": 1, "stars": ("R2", "C2"), "used": ("+", "-")},
            {"stars": ("R4",), "used": ("x",)},
            "stars",
        ),
        # 100 each, 0 unused, 2 stars each; 9 vs 8 unspent coins
        (
            {"stars": ("R1", "C1"), "used": ("x", "1")},
            {"spent": 1, "stars": ("R2", "C2"), "used": ("+", "-")},
            "coins",
        ),
    ],
)
def test_mm11_tie_breaks(
    game: MatheMeister,
    settings: Any,
    layout: Layout,
    better: dict[str, Any],
    worse: dict[str, Any],
    level: str,
    flip: bool,
) -> None:
    """MM-11: score, then circled-but-unused Star Powers, then claimed Bonus Stars, then
    unspent coins; each level decides only when the ones before it tie."""
    a, b = _sheet(layout, **better), _sheet(layout, **worse)
    ca, cb = score_sheet(a, settings()), score_sheet(b, settings())
    if level != "score":
        assert ca.total == cb.total
    sheets = (b, a) if flip else (a, b)
    result = _places(game, settings(), *sheets)
    assert result.places == ((2, 1) if flip else (1, 2))
    assert result.winners == frozenset({1 if flip else 0})
    assert result.reason == f"seat {2 if flip else 1} wins"
    assert result.scores == tuple(Fraction(score_sheet(s, settings()).total) for s in sheets)


def test_mm11_the_tie_stands(game: MatheMeister, settings: Any, layout: Layout) -> None:
    a = _sheet(layout, spent=2, stars=("R1",), circled=("+",))
    b = _sheet(layout, spent=2, stars=("C3",), circled=("-",))
    c = _sheet(layout, spent=3, stars=("C3",), circled=("-",))
    result = _places(game, settings(), a, b, c)
    assert result.places == (1, 1, 3)
    assert result.reason == "tie stands"
    assert result.winners == frozenset({0, 1})


def test_mm11_final_score_formula(game: MatheMeister, settings: Any, layout: Layout) -> None:
    """MM-11: + row even + column odd + 10 x coins + stars - row odd - column even;
    FULL with C2 (10) claimed with the + power: 34 + 24 + 90 + 10 - 20 - 28 = 110."""
    state, _ = full_game(game, settings(), layout, (ClaimStar(0, "C2", "+"),))
    result = game.result(state)
    assert result is not None
    assert result.scores == (Fraction(110),)
    assert result.places == (1,) and result.reason == "final score 110"
    card = score_sheet(state.sheets[0], settings())
    assert (
        card.row_even_sums,
        card.column_odd_sums,
        card.unspent_coins_x10,
        card.stars,
        card.row_odd_sums,
        card.column_even_sums,
    ) == (34, 24, 90, 10, 20, 28)
    assert card.unused_powers == 1 and card.star_count == 1 and card.unspent_coins == 9


def test_mm11_multiplayer_result_from_the_engine(game: MatheMeister, settings: Any) -> None:
    """MM-11 through play: seat 1 owns Row 1's star (5 points) and wins by 5."""
    state = r1_round2_state(game, settings(), 2)
    state, _ = apply_all(
        game,
        state,
        [
            ClaimStar(1, "R1", "coin", at=5),
            ClaimStar(0, "R1", "coin", at=9),
            EndRound(0),
            EndRound(1),
        ],
    )
    final = replace(state, finished=True)
    result = game.result(final)
    assert result is not None
    # both: row 1 = 20; seat 1 also has its star (5) and a circled coin power (10).
    assert result.scores == (Fraction(20 + 90), Fraction(20 + 90 + 5 + 10))
    assert result.places == (2, 1)
    counts = Counter(a for s in state.sheets for a in s.powers)
    assert counts["circled"] == 1


# -- MM-13 round order: the device claims after the writes ------------------------------------


def auto(settings: Any, *modes: str) -> MatheMeisterSettings:
    return settings(*modes, star_claims="automatic")  # type: ignore[no-any-return]


def round2_written(
    game: MatheMeister, s: MatheMeisterSettings, stop: int = 4
) -> tuple[MatheMeisterState, list[Any]]:
    """Solo: round 1 writes R1's first half; round 2's first ``stop`` writes (of four)
    complete it with its second operand, before the round's operators."""
    state = game.new_game(s, 1)
    state, _ = play_round(game, state, (3, 5), R1_ROUND1)
    state, _ = game.apply(state, Roll((2, 2)))
    actions = [to_action(0, m, i if i < 2 else 0) for i, m in enumerate(R1_ROUND2[:stop])]
    return apply_all(game, state, actions)


def test_mm13_star_is_claimed_after_the_rounds_writes_not_before(
    game: MatheMeister, settings: Any
) -> None:
    """R1 is complete after round 2's second operand, but the round's two operators are
    not written yet: no claim, and a claim by hand is refused with the reason."""
    state, events = round2_written(game, auto(settings), stop=2)
    assert state.sheets[0].line_complete("R1")
    assert "mm.star_claimed_auto" not in [e.code for e in events] and not state.claims
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, ClaimStar)]
    with pytest.raises(IllegalMove) as err:
        game.apply(state, ClaimStar(0, "R1", "coin"))
    assert codes(err) == "mm.claim_after_writes" and "MM-13" in str(err.value)
    state, events = apply_all(game, state, [to_action(0, m, 0) for m in R1_ROUND2[2:]])
    (claimed,) = events_of(events, "mm.star_claimed_auto")
    assert claimed.data == {"line": "R1", "points": 5} and "MM-13" in claimed.text
    assert [(c.line, c.power) for c in state.claims] == [("R1", "")]


def test_mm13_the_player_chooses_the_star_power_before_ending_the_round(
    game: MatheMeister, settings: Any
) -> None:
    state, _ = round2_written(game, auto(settings))
    legal = game.legal_actions(state, 0)
    assert legal and all(isinstance(a, ClaimStar) and a.line == "R1" for a in legal)
    assert {a.power for a in legal} == {"coin", "+", "-", "x", "1", "2", "5", "6"}
    for early in (EndRound(0),):
        with pytest.raises(IllegalMove) as err:
            game.apply(state, early)
        assert codes(err) == "mm.choose_power" and "Row 1" in str(err.value)
    state, events = game.apply(state, ClaimStar(0, "R1", "6"))
    assert events_of(list(events), "mm.power_chosen")
    with pytest.raises(IllegalMove) as err:
        game.apply(state, ClaimStar(0, "R1", "5"))
    assert codes(err) == "mm.star_claimed"
    assert EndRound(0) in game.legal_actions(state, 0)


def test_mm13_a_star_power_circled_this_round_is_used_from_the_next_round_on(
    game: MatheMeister, settings: Any
) -> None:
    """Step 4 comes after the writes, so the circled power cannot serve this round: the
    star and its power are settled when the round ends."""
    s = auto(settings)
    state, _ = round2_written(game, s)
    state, _ = game.apply(state, ClaimStar(0, "R1", "coin"))
    sheet = state.sheets[0]
    assert sheet.powers_ready(s.layout, "coin") == 0 and "R1" not in sheet.stars
    assert sheet.coins(s.layout) == 9  # the coin Star Power is not a coin yet
    state, events = game.apply(state, EndRound(0))
    assert [e.code for e in events][:1] == ["mm.star_won"] and state.round == 3
    sheet = state.sheets[0]
    assert "R1" in sheet.stars and sheet.powers_ready(s.layout, "coin") == 1
    assert sheet.coins(s.layout) == 10


def test_mm13_a_star_power_chosen_in_the_last_round_is_not_promised_a_next_round(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """Round 8 has no next round: its Star Power's sentence says it comes too late to
    use (a coin, unused, is worth 10, MM-6, MM-11), not "from the next round on"."""
    s = auto(settings)
    state = game.new_game(s, 1)
    plan = fill_plan(layout)
    for i, (operand_cells, operator_cells) in enumerate(plan):
        dice = tuple(int(FULL[r][c]) for r, c in operand_cells)
        moves = grid_moves(FULL, operand_cells) + grid_moves(FULL, operator_cells)
        state, _ = play_round(game, state, dice, moves, end=i < len(plan) - 1)  # type: ignore[arg-type]
    assert state.round == 8 and len(state.claims) == 3
    for claim, power in zip(state.claims, ("-", "x", "1")):
        state, events = game.apply(state, ClaimStar(0, claim.line, power))
        (chosen,) = events_of(list(events), "mm.power_chosen")
        assert chosen.text.endswith("It comes too late to use.")
    state, _ = game.apply(state, EndRound(0))
    assert state.finished
    # a coin circled in the last round is one more coin at the end
    last, _ = round2_written(game, s)
    last, events = game.apply(replace(last, round=8), ClaimStar(0, "R1", "coin"))
    (chosen,) = events_of(list(events), "mm.power_chosen")
    assert chosen.text.endswith("Unused, it is worth 10 points at the end.")


def test_mm13_black_hole_cannot_refuse_a_star(game: MatheMeister, settings: Any) -> None:
    """The issue's case: in Black Hole (lowest score wins) a star only adds points, but
    the device claims it anyway; the round cannot end around it."""
    s = auto(settings, "black_hole")
    state, events = round2_written(game, s)
    assert events_of(events, "mm.star_claimed_auto")
    with pytest.raises(IllegalMove) as err:
        game.apply(state, EndRound(0))
    assert codes(err) == "mm.choose_power"
    assert not [a for a in game.legal_actions(state, 0) if isinstance(a, EndRound)]
    state, _ = apply_all(game, state, [ClaimStar(0, "R1", "x"), EndRound(0)])
    assert state.sheets[0].stars == frozenset({"R1"})
    assert score_sheet(state.sheets[0], s).stars == 5


def test_mm13_multiplayer_claims_go_by_who_finished_the_writes_first(
    game: MatheMeister, settings: Any
) -> None:
    """Both seats complete R1 in round 2, whose first player is seat 2 (MM-5's seat
    order would give seat 2 the star): seat 1 finished its writes first and owns it."""
    s = auto(settings)
    for first, second in ((0, 1), (1, 0)):
        state = game.new_game(s, 2)
        state, _ = play_round(game, state, (3, 5), {0: R1_ROUND1, 1: R1_ROUND1})
        state, _ = game.apply(state, Roll((2, 2)))
        assert state.first_player == 1
        for seat in (first, second):
            moves = [to_action(seat, m, i if i < 2 else 0) for i, m in enumerate(R1_ROUND2)]
            state, _ = apply_all(game, state, moves)
        assert [c.seat for c in state.claims] == [first, second]
        state, _ = apply_all(
            game,
            state,
            [ClaimStar(second, "R1", "coin"), ClaimStar(first, "R1", "+")],
        )
        state, events = apply_all(game, state, [EndRound(0), EndRound(1)])
        assert state.owner("R1") == first
        (lost,) = events_of(events, "mm.star_lost")
        assert lost.seat == second


def test_mm13_paper_sheets_keep_mm5_claims_by_hand(game: MatheMeister, settings: Any) -> None:
    """``star_claims="paper"``: a claim by hand at once (MM-5), optional; the table's bot
    sheets and ``tabletop check`` follow it (a missed star may be claimed later)."""
    s = settings(star_claims="paper")
    state, _ = round2_written(game, s, stop=2)
    assert ClaimStar(0, "R1", "coin") in game.legal_actions(state, 0)
    state, events = round2_written(game, s)
    assert not events_of(events, "mm.star_claimed_auto")
    state, _ = game.apply(state, EndRound(0))  # a paper player may miss it
    assert state.owner("R1") is None


def test_mm13_star_claims_option_is_checked(layout: Layout) -> None:
    with pytest.raises(BadInput) as err:
        MatheMeisterSettings(layout, star_claims="sometimes")  # type: ignore[arg-type]
    assert err.value.code == "mm.option"
