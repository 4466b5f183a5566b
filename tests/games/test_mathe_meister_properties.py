"""Property tests: random legal Mathe-Meister games (1..4 seats, random modes) against an
independent scorer written here from RULINGS.md (MM-1, MM-3, MM-4, MM-5, MM-10, MM-11),
against ``tabletop check``, and against their own replayed log."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.assets import mathe_meister_layout
from tabletop.engine import IllegalMove, ImpossibleOutcome, Match, RngDealer
from tabletop.engine.codec import digest
from tabletop.games import GAMES
from tabletop.games.mathe_meister import (
    LINES,
    ChangeDie,
    ClaimStar,
    EndRound,
    MatheMeister,
    MatheMeisterSettings,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
    check,
    score_sheet,
)
from tests.mm_play import sheet_to_check

LAYOUT = mathe_meister_layout()
GAME: MatheMeister = GAMES["mathe-meister"]  # type: ignore[assignment]
# Hypothesis draws the setup and a seed; the seed drives both the dice (RngDealer) and the
# players' choices (random.Random), so a failing game is replayed exactly from its seed.
SEEDS = st.integers(0, 2**32)
PROFILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# RULINGS.md, restated independently of the engine.
STAR_VALUES = {"R1": 5, "R2": 10, "R3": 5, "R4": 10, "C1": 5, "C2": 10, "C3": 5, "C4": 10}
PREFILLED = {(0, 3): "+", (2, 3): "-", (4, 3): "x", (6, 3): "+",
             (3, 0): "-", (3, 2): "x", (3, 4): "+", (3, 6): "+"}  # fmt: skip
OPERANDS = [(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)]
OPERATORS = [(r, c) for r in range(7) for c in range(7) if r % 2 != c % 2]
FREE_OPERATORS = [cell for cell in OPERATORS if cell not in PREFILLED]
COINS = [(r, c) for r in range(1, 7, 2) for c in range(1, 7, 2)]
MULTI_MODES = ["freestyle", "twins", "coinless", "small_to_big", "big_to_small"]
ALL_MODES = [*MULTI_MODES, "black_hole", "fear_of_fours"]


def independent_score(
    grid: tuple[str, ...],
    modes: tuple[str, ...],
    negative_sums: str,
    stars: frozenset[str],
    powers: tuple[str, ...],
) -> tuple[int, ...]:
    """(total, unused powers, stars, unspent coins): MM-11's final score and tie-breaks."""
    total = 0
    for name in STAR_VALUES:
        k = 2 * (int(name[1]) - 1)
        chars = [grid[k][i] for i in range(7)] if name[0] == "R" else [grid[i][k] for i in range(7)]
        if "." in chars:
            continue  # MM-4: unfinished lines score 0
        numbers = [int(ch) for ch in chars[0::2]]
        value = numbers[0]
        for op, n in zip(chars[1::2], numbers[1:]):  # MM-3: left to right
            value = value + n if op == "+" else value - n if op == "-" else value * n
        pairs = list(itertools.pairwise(numbers))
        valid = True
        if "twins" in modes:
            valid = valid and any(a == b for a, b in pairs)
        if "small_to_big" in modes:
            valid = valid and all(a <= b for a, b in pairs)
        if "big_to_small" in modes:
            valid = valid and all(a >= b for a, b in pairs)
        wanted = value % 2 == (0 if name[0] == "R" else 1)
        size = abs(value) if negative_sums == "absolute" else value
        points = size if wanted else -size
        if points > 0 and not valid:
            points = 0  # MM-10
        total += points
    kinds = LAYOUT.star_powers
    coins = sum(row.count("o") for row in grid)
    coins += sum(1 for k, s in zip(kinds, powers) if k == "coin" and s == "circled")
    total += 10 * coins + sum(STAR_VALUES[line] for line in stars)
    unused = sum(1 for s in powers if s == "circled")
    return (total, unused, len(stars), coins)


@st.composite
def game_setups(draw: st.DrawFn) -> tuple[int, MatheMeisterSettings]:
    seats = draw(st.integers(1, 4))
    if seats == 1:
        modes = tuple(draw(st.lists(st.sampled_from(ALL_MODES), max_size=3, unique=True)))
    else:
        modes = (draw(st.sampled_from(MULTI_MODES)),)
    negative_sums = draw(st.sampled_from(["absolute", "signed"]))
    claims = draw(st.sampled_from(["automatic", "paper"]))  # MM-13 and MM-5
    return seats, MatheMeisterSettings(
        LAYOUT, modes, negative_sums=negative_sums, star_claims=claims
    )


def choose(rnd: random.Random, actions: list[Any]) -> Any:
    """Pick an action type first, then an action of that type, so that ending the round,
    claiming and the Coin Shop are all tried often."""
    groups: dict[str, list[Any]] = {}
    for action in actions:
        groups.setdefault(type(action).__name__, []).append(action)
    return rnd.choice(groups[rnd.choice(sorted(groups))])


def play(
    match: Match[Any, Any, Any], rnd: random.Random, dealer: RngDealer, on_step: Any = None
) -> None:
    steps = 0
    while match.result() is None:
        steps += 1
        assert steps < 2000, "the game does not end"
        pending = match.pending
        if pending.chance is not None:
            assert not pending.seats
            match.deal(dealer)
            continue
        assert pending.seats, "nobody is pending in an unfinished game"
        seat = rnd.choice(sorted(pending.seats))
        actions = GAME.legal_actions(match.state, seat)
        assert actions, f"seat {seat} is pending but has nothing legal to do"
        if on_step is not None:
            on_step(match, seat, actions)
        match.apply(choose(rnd, actions))


def assert_sheet_is_full_and_sound(sheet: Any, s: MatheMeisterSettings) -> None:
    grid = sheet.grid
    for r, c in OPERANDS:
        assert grid[r][c] in "123456"
        if "fear_of_fours" in s.modes:
            assert grid[r][c] != "4"
    for r, c in OPERATORS:
        assert grid[r][c] in "+-x"
    for (r, c), op in PREFILLED.items():
        assert grid[r][c] == op
    for r, c in COINS:
        assert grid[r][c] in "o*"
    if "coinless" in s.modes:
        assert "*" not in "".join(grid)
    # MM-7: the supply holds what was not written (operator powers wrote the rest).
    used = Counter(k for k, st_ in zip(LAYOUT.star_powers, sheet.powers) if st_ == "used")
    written = Counter(grid[r][c] for r, c in FREE_OPERATORS)
    for i, op in enumerate("+-x"):
        assert sheet.supply[i] == s.operator_supply - (written[op] - used[op])
    # MM-6: one Star Power circled (and maybe used) per claimed star.
    assert sum(1 for p in sheet.powers if p != "free") == len(sheet.stars)


@pytest.mark.slow
@PROFILE
@given(setup=game_setups(), seed=SEEDS)
def test_property_random_legal_game(setup: tuple[int, MatheMeisterSettings], seed: int) -> None:
    """MM-8: eight rounds fill every sheet; MM-11: the result equals an independent
    recomputation and ``tabletop check``; the log replays to the same state; undo always
    restores the state before the last action."""
    seats, s = setup
    match = Match(GAME, s, seats, seed=seed)
    rnd = random.Random(seed)

    def undo_check(m: Match[Any, Any, Any], seat: int, actions: list[Any]) -> None:
        if rnd.random() < 0.1:
            before, history = m.state, m.history
            action = rnd.choice(actions)
            m.apply(action)
            assert m.undo() == action
            assert m.state is before and m.history == history

    play(match, rnd, RngDealer(seed), undo_check)
    state = match.state
    assert sum(1 for a in match.history if type(a).__name__ == "Roll") == 8
    result = GAME.result(state)
    assert result is not None
    keys = []
    owners: Counter[str] = Counter()
    for seat, sheet in enumerate(state.sheets):
        assert_sheet_is_full_and_sound(sheet, s)
        for line in sheet.stars:
            owners[line] += 1
        key = independent_score(sheet.grid, s.modes, s.negative_sums, sheet.stars, sheet.powers)
        keys.append(key)
        assert result.scores[seat] == key[0]
        # MM-11: END GAME SCORING's rows, each with its sign, add up to the final score
        rows = score_sheet(sheet, s).rows
        assert sum(int(f"{words[0]}1") * points for words, points in rows) == key[0]
        out = check(sheet_to_check(sheet, LAYOUT, s), LAYOUT)
        assert out["total"] == key[0]
        assert None not in out["rows"] and None not in out["columns"]
    assert all(n == 1 for n in owners.values()), "a Bonus Star has two owners (MM-5)"
    assert result.places == tuple(1 + sum(1 for k in keys if k > key) for key in keys)
    again = Match.replay(list(match.log_lines()), GAMES)
    assert again.state == state
    assert digest(again.state) == digest(state)


@PROFILE
@given(seed=SEEDS, supply=st.integers(0, 9), seats=st.integers(1, 3))
def test_property_operator_supply_option(seed: int, supply: int, seats: int) -> None:
    """MM-7/MM-8 with any operator_supply: eight rounds, all operands written; a round
    ends with fewer than two operators only when nothing is left to write them with."""
    s = MatheMeisterSettings(LAYOUT, operator_supply=supply)
    match = Match(GAME, s, seats, seed=seed)

    def short_rounds(m: Match[Any, Any, Any], seat: int, actions: list[Any]) -> None:
        turn, sheet = m.state.turns[seat], m.state.sheets[seat]
        if EndRound(seat) in actions and turn.operators < 2:
            ready = [
                k for k, p in zip(LAYOUT.star_powers, sheet.powers) if p == "circled" and k in "+-x"
            ]
            empty = [c for c in FREE_OPERATORS if sheet.at(c) == "."]
            assert turn.operands == 2
            assert not empty or (sheet.supply == (0, 0, 0) and not ready)

    play(match, random.Random(seed), RngDealer(seed), short_rounds)
    assert sum(1 for a in match.history if type(a).__name__ == "Roll") == 8
    for sheet in match.state.sheets:
        assert all(sheet.grid[r][c] in "123456" for r, c in OPERANDS)
        empty = sum(1 for r, c in FREE_OPERATORS if sheet.grid[r][c] == ".")
        if empty:
            assert sheet.supply == (0, 0, 0)
        if 3 * supply >= 16:
            assert empty == 0
        assert min(sheet.supply) >= 0
        key = independent_score(sheet.grid, s.modes, s.negative_sums, sheet.stars, sheet.powers)
        assert check(sheet_to_check(sheet, LAYOUT, s), LAYOUT)["total"] == key[0]


def _candidates(rnd: random.Random, seat: int, state: Any) -> list[Any]:
    """Arbitrary actions, legal or not, for the completeness check."""
    cell = (rnd.randrange(7), rnd.randrange(7))
    other = (rnd.randrange(7), rnd.randrange(7))
    return [
        WriteOperand(
            seat,
            cell,
            rnd.randint(1, 6),
            rnd.randrange(2),
            rnd.choice([None, None, "1", "2", "5", "6"]),
        ),
        WriteOperator(seat, cell, rnd.choice("+-x"), rnd.random() < 0.3),
        ChangeDie(seat, rnd.randrange(2), rnd.choice([-3, -2, -1, 1, 2, 3])),
        ClaimStar(
            seat,
            rnd.choice(list(STAR_VALUES)),
            rnd.choice(["coin", "+", "-", "x", "1", "2", "5", "6"]),
        ),
        SwapOperators(seat, cell, other),
        SwapOperands(seat, cell, other),
        EndRound(seat),
    ]


def _listed(action: Any, legal: list[Any]) -> bool:
    if isinstance(action, SwapOperands | SwapOperators):
        return action in legal or type(action)(action.seat, action.b, action.a) in legal
    return action in legal


@PROFILE
@given(setup=game_setups(), seed=SEEDS)
def test_property_legal_actions_agree_with_apply(
    setup: tuple[int, MatheMeisterSettings], seed: int
) -> None:
    """Every listed action is accepted by ``apply`` (a few sampled per state), and an
    arbitrary action is accepted exactly when it is listed; seats that are not pending
    have nothing listed."""
    seats, s = setup
    match = Match(GAME, s, seats, seed=seed)
    rnd = random.Random(seed)

    def sample(m: Match[Any, Any, Any], seat: int, actions: list[Any]) -> None:
        state = m.state
        for action in rnd.sample(actions, min(3, len(actions))):
            GAME.apply(state, action)  # must not raise
        for other in range(seats):
            if other not in m.pending.seats:
                assert GAME.legal_actions(state, other) == []
        for action in _candidates(rnd, seat, state):
            try:
                GAME.apply(state, action)
                accepted = True
            except (IllegalMove, ImpossibleOutcome):
                accepted = False
            assert accepted == _listed(action, actions), action

    play(match, rnd, RngDealer(seed), sample)
    assert match.result() is not None


@PROFILE
@given(setup=game_setups(), seed=SEEDS)
def test_property_mm13_automatic_claims_leave_no_free_star_of_a_completed_line(
    setup: tuple[int, MatheMeisterSettings], seed: int
) -> None:
    """MM-13: with automatic claims, when a round ends every completed line's Bonus Star
    is owned by somebody; no star is claimed before its owner's writes are done."""
    seats, s = setup
    if not s.automatic_claims:
        s = replace(s, star_claims="automatic")
    match = Match(GAME, s, seats, seed=seed)
    rnd = random.Random(seed)

    def no_early_claims(m: Match[Any, Any, Any], seat: int, actions: list[Any]) -> None:
        for claim in m.state.claims:
            assert m.state.turns[claim.seat].operands == 2  # claimed after the writes

    play(match, rnd, RngDealer(seed), no_early_claims)
    state = match.state
    assert state.finished and not state.claims
    for line in LINES:  # every line is complete at the end: each star has its owner
        assert state.owner(line) is not None, line


@given(st.sampled_from(LINES), st.integers(-500, 500))
def test_mm_sum_wanted_rows_even_columns_odd_and_scores_plus(line: str, total: int) -> None:
    """MM-4, asked once (the report's sums, the journal's answers and the --child demo
    ask the engine): a row wants an even sum, a column an odd one, and the wanted kind
    of sum is the one that scores plus on a valid line."""
    from tabletop.games.mathe_meister import line_points, sum_wanted

    assert sum_wanted(line, total) == ((total % 2 == 0) == line.startswith("R"))
    if total > 0:
        assert (line_points(line, total, True, "signed") > 0) == sum_wanted(line, total)


@given(st.sampled_from(LINES), st.integers(-500, 500), st.booleans())
def test_mm_line_score_broken_names_the_rule_a_line_breaks(
    line: str, total: int, valid: bool
) -> None:
    """MM-4 then MM-10, in words (the journal's answers and the report's sums ask it): a
    complete line breaks its parity when its sum is not the kind it wants, else its mode
    when it does not keep it; it breaks nothing exactly when it wants its sum and keeps
    its mode; an incomplete line breaks nothing yet."""
    from tabletop.games.mathe_meister import LineScore, line_name, sum_wanted

    broken = LineScore(line, total, valid, 0).broken
    assert (broken is None) == (sum_wanted(line, total) and valid)
    if not sum_wanted(line, total):
        kind = "even" if line[0] == "R" else "odd"
        assert broken == f"{line_name(line)} needs an {kind} sum"
    elif not valid:
        assert broken == f"{line_name(line)} does not keep the mode's rule"
    assert LineScore(line, None, False, 0).broken is None


def test_mm_line_score_is_the_score_sheet_line() -> None:
    """MM-3, MM-4, MM-10: one line scored alone is the line of the whole sheet's score,
    and a line with an empty box has no total yet."""
    from tabletop.games.mathe_meister import line_score

    settings_ = MatheMeisterSettings(LAYOUT, ("twins",))
    state = GAME.new_game(settings_, 1)
    sheet = state.sheets[0]
    grid = ("3+5+2+4", *sheet.grid[1:])  # R1: 3 + 5 + 2 + 4 = 14, no twins
    sheet = replace(sheet, grid=grid)
    r1 = line_score(grid, "R1", settings_)
    assert (r1.total, r1.valid, r1.points) == (14, False, 0)
    assert r1.broken == "Row 1 does not keep the mode's rule"
    assert line_score(grid, "R2", settings_).total is None
    assert score_sheet(sheet, settings_).lines == tuple(
        line_score(grid, line, settings_) for line in LINES
    )
