"""Golden Mathe-Meister numbers worked out by hand: MM-3 and MM-12's worked check, and
every line of the END GAME SCORING table (MM-11), through the engine and through
``tabletop check``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tabletop.games.mathe_meister import (
    ChangeDie,
    ClaimStar,
    EndRound,
    Layout,
    MatheMeister,
    Roll,
    WriteOperand,
    WriteOperator,
    check,
    score_sheet,
)
from tests.mm_play import (
    BLANK,
    COLUMN_PAD,
    ROW_PAD,
    column_cells,
    fill_plan,
    grid_with,
    line_targets,
    reach,
    sheet_to_check,
)

# -- MM-12 worked check ------------------------------------------------------------------


def test_mm12_row1_golden_through_the_engine(
    game: MatheMeister, settings: Any, scripted_round: Any
) -> None:
    """MM-12/MM-3: row 1 = 3 + 5 + 2 x 2 = ((3 + 5) + 2) x 2 = 20 (not 12), even: +20."""
    state = game.new_game(settings(), 1)
    state, first = scripted_round(
        state, (3, 5), [((0, 0), 3), ((0, 2), 5), ((0, 1), "+"), ((0, 5), "x")]
    )
    assert not [e for e in first if e.code == "mm.line_complete"]
    assert state.round == 2
    state, events = scripted_round(
        state, (2, 2), [((0, 4), 2), ((0, 6), 2), ((1, 0), "x"), ((5, 0), "+")]
    )
    done = [e for e in events if e.code == "mm.line_complete"]
    assert [e.data for e in done] == [{"line": "R1", "total": 20, "points": 20, "valid": True}]
    assert "3 + 5 + 2 x 2 = 20" in done[0].text
    assert state.sheets[0].grid[0] == "3+5+2x2"
    card = score_sheet(state.sheets[0], settings())
    assert card.row_even_sums == 20 and card.row_odd_sums == 0
    # nine unspent coins; MM-13: the device claimed R1's Bonus Star (5 points) and the
    # coin Star Power was circled for it (10 while unspent)
    assert [e.code for e in events].count("mm.star_claimed_auto") == 1
    assert card.total == 20 + 90 + 5 + 10


def test_mm12_row1_golden_through_check(layout: Layout) -> None:
    grid = grid_with(ROW_PAD, ["3+5+2x2", *BLANK[1:]])  # two more operators (MM-15)
    out = check({"modes": ["freestyle"], "grid": grid}, layout)
    assert out["rows"] == [20, None, None, None]
    assert out["columns"] == [None, None, None, None]
    assert out["breakdown"] == {
        "row_even_sums": 20,
        "column_odd_sums": 0,
        "unspent_coins_x10": 90,
        "stars": 0,
        "row_odd_sums": 0,
        "column_even_sums": 0,
    }
    assert out["total"] == 110


def test_mm12_column1_golden_through_the_engine(
    game: MatheMeister, settings: Any, layout: Layout
) -> None:
    """MM-12/MM-3: column 1 = 1 x 6 - 3 + 4 = ((1 x 6) - 3) + 4 = 7 (top to bottom), odd:
    +7."""
    state, events = reach(
        game, game.new_game(settings(), 1), line_targets(column_cells(1), "1x6-3+4", layout)
    )
    done = [e for e in events if e.code == "mm.line_complete"]
    assert [e.data for e in done] == [{"line": "C1", "total": 7, "points": 7, "valid": True}]
    assert [state.sheets[0].grid[r][0] for r in range(7)] == list("1x6-3+4")
    card = score_sheet(state.sheets[0], settings())
    assert card.column_odd_sums == 7 and card.column_even_sums == 0
    assert card.total == 7 + 90 + 5 + 10  # C1's Bonus Star and its coin Star Power (MM-13)


def test_mm12_column1_golden_through_check(layout: Layout) -> None:
    # '.' in the prefilled cell (3, 0) means "as printed" (-); '.' coins are unspent.
    grid = ["1......", "x......", "6......", ".......", "3......", "+......", "4......"]
    out = check({"grid": grid_with(COLUMN_PAD, grid)}, layout)  # two more operators (MM-15)
    assert out["columns"] == [7, None, None, None]
    assert out["rows"] == [None, None, None, None]
    assert out["breakdown"]["column_odd_sums"] == 7
    assert out["total"] == 7 + 90


# -- END GAME SCORING, line by line ------------------------------------------------------
#
# The golden sheet (default layout, Freestyle). Operands:    Row / column sums, by hand:
#     2 + 3 + 4 x 1        R1 ((2+3)+4)x1 = 9   odd  row    -> row odd sums     9
#     +   +   -   x        R2 ((1x5)-2)x6 = 18  even row    -> row even sums   18
#     1 x 5 - 2 x 6        R3 ((3-2)x6)+5 = 11  odd  row    -> row odd sums    11
#     -   x   +   +        R4 ((4+1)+3)x2 = 16  even row    -> row even sums   16
#     3 - 2 x 6 + 5        C1 ((2+1)-3)+4 = 4   even column -> column even sums 4
#     +   -   x   -        C2 ((3+5)x2)-1 = 15  odd  column -> column odd sums 15
#     4 + 1 + 3 x 2        C3 ((4-2)+6)x3 = 24  even column -> column even sums 24
#                          C4 ((1x6)+5)-2 = 9   odd  column -> column odd sums  9
# Coins: 3 of the 9 personal coins spent (6 left) + the circled, unused coin Star Power
# = 7 unspent coins. Stars: R2 (10) and C2 (10), which circled the coin and a + power;
# the + power was used (a seventh +, so the supply of six is not exceeded).

GOLDEN = [
    "2+3+4x1",
    "+*+o-ox",
    "1x5-2x6",
    "-ox*+*+",
    "3-2x6+5",
    "+o-oxo-",
    "4+1+3x2",
]
GOLDEN_INPUT = {
    "modes": ["freestyle"],
    "grid": GOLDEN,
    "stars": ["R2", "C2"],
    "star_powers": {"circled": ["coin", "+"], "used": ["+"]},
}
GOLDEN_BREAKDOWN = {
    "row_even_sums": 34,  # R2 18 + R4 16
    "column_odd_sums": 24,  # C2 15 + C4 9
    "unspent_coins_x10": 70,  # (6 personal + 1 coin Star Power) x 10
    "stars": 20,  # R2 10 + C2 10
    "row_odd_sums": 20,  # R1 9 + R3 11
    "column_even_sums": 28,  # C1 4 + C3 24
}
GOLDEN_TOTAL = 100  # 34 + 24 + 70 + 20 - 20 - 28


@pytest.fixture(scope="module")
def golden_check() -> dict[str, Any]:
    from tabletop.assets import mathe_meister_layout

    return check(GOLDEN_INPUT, mathe_meister_layout())


def test_golden_sums_through_check(golden_check: dict[str, Any]) -> None:
    assert golden_check["rows"] == [9, 18, 11, 16]
    assert golden_check["columns"] == [4, 15, 24, 9]


@pytest.mark.parametrize("name", list(GOLDEN_BREAKDOWN))
def test_golden_end_game_scoring_line_through_check(
    golden_check: dict[str, Any], name: str
) -> None:
    """MM-11: one line of the END GAME SCORING table."""
    assert golden_check["breakdown"][name] == GOLDEN_BREAKDOWN[name]


def test_golden_total_through_check(golden_check: dict[str, Any]) -> None:
    """MM-11: Player's Final Score = 34 + 24 + 70 + 20 - 20 - 28 = 100."""
    assert golden_check["total"] == GOLDEN_TOTAL
    assert set(golden_check["breakdown"]) == set(GOLDEN_BREAKDOWN)


def _play_golden(game: MatheMeister, settings: Any, layout: Layout) -> Any:
    """The golden sheet played in eight rounds: round 1 pays 3 coins to turn a rolled 5
    into the 2 at r0c0; round 4 completes R2 and claims it with the + power, used in
    round 5 for the + at r1c0; round 7 completes C2 and claims it with the coin power."""
    state = game.new_game(settings(), 1)
    for number, (operand_cells, operator_cells) in enumerate(fill_plan(layout), start=1):
        values = [int(GOLDEN[r][c]) for r, c in operand_cells]
        rolled = (values[0] + 3, values[1]) if number == 1 else (values[0], values[1])
        state, _ = game.apply(state, Roll(rolled))  # type: ignore[arg-type]
        if number == 1:
            state, _ = game.apply(state, ChangeDie(0, 0, -3))
        for die, cell in enumerate(operand_cells):
            state, _ = game.apply(state, WriteOperand(0, cell, values[die], die))
        for cell in operator_cells:
            op = GOLDEN[cell[0]][cell[1]]
            power = number == 5 and cell == (1, 0)
            state, _ = game.apply(state, WriteOperator(0, cell, op, power=power))
        if number == 4:
            state, _ = game.apply(state, ClaimStar(0, "R2", "+"))
        if number == 7:
            state, _ = game.apply(state, ClaimStar(0, "C2", "coin"))
        state, _ = game.apply(state, EndRound(0))
    return state


@pytest.fixture(scope="module")
def golden_played() -> Any:
    from tabletop.assets import mathe_meister_layout
    from tabletop.games.mathe_meister import MatheMeisterSettings

    layout = mathe_meister_layout()
    # the golden sheet claims only R2 and C2, by hand, as a paper sheet may (MM-5); the
    # device would claim every free star of a completed line itself (MM-13)
    paper = MatheMeisterSettings(layout, star_claims="paper")
    return _play_golden(MatheMeister(), lambda: paper, layout)


def test_golden_game_is_played_as_scripted(golden_played: Any) -> None:
    sheet = golden_played.sheets[0]
    assert [row for i, row in enumerate(sheet.grid) if i % 2 == 0] == GOLDEN[0::2]
    assert "".join(sheet.grid).count("*") == 3
    assert sheet.stars == frozenset({"R2", "C2"})
    assert sheet.supply == (1, 2, 0)  # 5 of 6 + from the supply, 4 of 6 -, 6 of 6 x
    assert sorted(sheet.powers) == ["circled"] + ["free"] * 10 + ["used"]


@pytest.mark.parametrize("name", list(GOLDEN_BREAKDOWN))
def test_golden_end_game_scoring_line_through_the_engine(golden_played: Any, name: str) -> None:
    """MM-11: the engine's score card, line by line, equals the hand-worked table."""
    card = score_sheet(golden_played.sheets[0], golden_played.settings)
    assert getattr(card, name) == GOLDEN_BREAKDOWN[name]


def test_golden_total_through_the_engine(golden_played: Any, layout: Layout) -> None:
    result = MatheMeister().result(golden_played)
    assert result is not None
    assert result.scores == (Fraction(GOLDEN_TOTAL),)
    again = check(sheet_to_check(golden_played.sheets[0], layout, golden_played.settings), layout)
    assert again["total"] == GOLDEN_TOTAL
    assert again["breakdown"] == GOLDEN_BREAKDOWN


def test_golden_end_game_scoring_table_as_the_terminal_prints_it(golden_played: Any) -> None:
    """MM-11: the terminal game's table, the paper sheet's rows in its order, signed."""
    from tabletop.terminal import render_score

    card = score_sheet(golden_played.sheets[0], golden_played.settings)
    table = [
        ("+ Row Even Sums", 34),
        ("+ Column Odd Sums", 24),
        ("+ Unspent Coins x 10", 70),
        ("+ Row & Column Stars", 20),
        ("- Row Odd Sums", 20),
        ("- Column Even Sums", 28),
        ("Final Score", 100),
    ]
    printed = [line.rsplit(maxsplit=1) for line in render_score(card).splitlines()[1:]]
    assert [(words.strip(), int(n)) for words, n in printed] == table


@pytest.mark.parametrize(
    ("change", "total"),
    [
        ({"stars": [], "star_powers": {}}, 100 - 20 - 10),  # no stars, no coin power
        ({"modes": ["twins"]}, 100 - 34 - 24),  # no twins anywhere: positives become 0
        ({"modes": ["coinless"], "grid": [r.replace("*", "o") for r in GOLDEN]}, 130),
        ({"negative_sums": "signed"}, 100),  # no negative sums on this sheet
    ],
)
def test_golden_variants_through_check(layout: Layout, change: dict[str, Any], total: int) -> None:
    """MM-10/MM-6 on the golden sheet: without stars (-20 points, -10 for the coin
    power); under Twins no line validates; Coinless with every coin unspent (9 + 1)."""
    assert check({**GOLDEN_INPUT, **change}, layout)["total"] == total
