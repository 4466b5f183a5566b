"""Math Attack! golden tests: every card's effect (hand-worked numbers), the rule book's
worked examples, a scripted game from the deal to the end-game extra turn, and block.

Rule book ``seeds/002_84325dda6fc77e60.txt``; rulings ATK-2..ATK-6 (RULINGS.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.engine import IllegalMove, Match, ScriptedDealer
from tabletop.games.math_attack import (
    CARDS,
    Draw,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
    check,
    line_total,
)

GAME = MathAttack()


def play_state(
    lines: tuple[tuple[str, ...], tuple[str, ...]],
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    *,
    turn: int = 0,
    stack_size: int = 20,
    **fields: Any,
) -> MathAttackState:
    """A state in the middle of a virtual game (hands known)."""
    return MathAttackState(
        MathAttackSettings(),
        phase="play",
        lines=lines,
        hands=hands,
        hand_sizes=(len(hands[0]), len(hands[1])),
        stack_size=stack_size,
        turn=turn,
        **fields,
    )


# -- every card's effect -------------------------------------------------------------------

# Worked by hand: the total after each card on a line whose total is 7 (from "+7") and on
# one whose total is -4 (from "-4"). A cancel there cancels the first card, back to 0.
AFTER_SEVEN = {
    "+1": 8, "+2": 9, "+3": 10, "+4": 11, "+5": 12,
    "+6": 13, "+7": 14, "+8": 15, "+9": 16, "+10": 17,
    "-1": 6, "-2": 5, "-3": 4, "-4": 3, "-5": 2,
    "-6": 1, "-7": 0, "-8": -1, "-9": -2, "-10": -3,
    "+H": 10, "+N": 14, "+D": 21, "-H": 4, "-N": 0, "-D": -7,
    "END": 7, "CANCEL": 0, "FLIP": -7, "BLOCK": 7,
}  # fmt: skip
AFTER_MINUS_FOUR = {
    "+1": -3, "+2": -2, "+3": -1, "+4": 0, "+5": 1,
    "+6": 2, "+7": 3, "+8": 4, "+9": 5, "+10": 6,
    "-1": -5, "-2": -6, "-3": -7, "-4": -8, "-5": -9,
    "-6": -10, "-7": -11, "-8": -12, "-9": -13, "-10": -14,
    "+H": -2, "+N": 0, "+D": 4, "-H": -6, "-N": -8, "-D": -12,
    "END": -4, "CANCEL": 0, "FLIP": 4, "BLOCK": -4,
}  # fmt: skip


def test_golden_tables_cover_every_card() -> None:
    assert set(AFTER_SEVEN) == set(CARDS) == set(AFTER_MINUS_FOUR)


@pytest.mark.parametrize("card", CARDS)
def test_golden_card_effect_on_seven(card: str) -> None:
    assert line_total(["+7", card]) == AFTER_SEVEN[card]
    assert check({"cards": ["+7", card]})["total"] == AFTER_SEVEN[card]


@pytest.mark.parametrize("card", CARDS)
def test_golden_card_effect_on_minus_four(card: str) -> None:
    assert line_total(["-4", card]) == AFTER_MINUS_FOUR[card]


@pytest.mark.parametrize("card", CARDS)
def test_golden_card_effect_through_the_engine(card: str) -> None:
    """The same effect when a seat plays the card on the other seat's line (7 there)."""
    state = play_state((("+1",), ("+7",)), ((card, "+2"), ("+3",)))
    state, events = GAME.apply(state, Play(0, card, 1))
    assert state.total(1) == AFTER_SEVEN[card]
    assert state.total(0) == 1
    assert events[0].data["before"] == 7 and events[0].data["total"] == AFTER_SEVEN[card]
    assert "Seat 1 plays" in events[0].text


# -- the rule book's worked numbers ------------------------------------------------------------

WORKED = [
    # (line, what the last card adds, total) -- "Multiplier Cards" in the rule book
    (["+7", "+H"], 3, 10),  # +|n/2| on 7 adds 3
    (["-4", "+H"], 2, -2),  # +|n/2| on -4 adds 2 (half of 4)
    (["+10", "+1", "+N"], 11, 22),  # +|n| on 11 adds 11 (doubles it)
    (["-9", "+N"], 9, 0),  # +|n| on -9 adds 9 (raises it to 0)
    (["+3", "+D"], 6, 9),  # +|nx2| on 3 adds 6
    (["-10", "-2", "+D"], 24, 12),  # +|nx2| on -12 adds 24
    (["+5", "+3", "FLIP"], -16, -8),  # +/- on 8 makes -8
    (["-10", "-4", "FLIP"], 28, 14),  # +/- on -14 makes 14
]


@pytest.mark.parametrize(("cards", "added", "total"), WORKED)
def test_golden_rule_book_worked_numbers(cards: list[str], added: int, total: int) -> None:
    result = check({"cards": cards})
    assert result["total"] == total
    assert result["running"][-1] - result["running"][-2] == added


def test_golden_red_multipliers_mirror_the_black_ones() -> None:
    """The rule book: "The red (minus) versions of these cards have the same effects, only in
    a negative direction": 7 -> -3, -4 -> -2, 11 -> -11, -9 -> -9, 3 -> -6, -12 -> -24."""
    assert line_total(["+7", "-H"]) == 4
    assert line_total(["-4", "-H"]) == -6
    assert line_total(["+10", "+1", "-N"]) == 0
    assert line_total(["-9", "-N"]) == -18
    assert line_total(["+3", "-D"]) == -3
    assert line_total(["-10", "-2", "-D"]) == -36


def test_golden_cancel_ignores_the_card_and_later_cards_use_the_new_total() -> None:
    # +|n x2| on 10 is cancelled; the +|n| after it sees 10, not 30.
    result = check({"cards": ["+10", "+D", "CANCEL", "+N"]})
    assert result == {"total": 20, "cancelled": [1], "running": [10, 10, 10, 20]}


# -- a scripted game: deal, plays, draws, the end-game extra turn -----------------------------

DEAL = [
    # dealt one at a time, first player (seat 0) first
    "+5", "+4", "+3", "-6", "END", "BLOCK", "-2", "CANCEL", "FLIP", "+1",
]  # fmt: skip


def scripted_match() -> tuple[Match[Any, Any, Any], ScriptedDealer]:
    match: Match[Any, Any, Any] = Match(GAME, MathAttackSettings(), 2, seed=None)
    dealer = ScriptedDealer([Draw(i % 2, card) for i, card in enumerate(DEAL)])
    for _ in DEAL:
        match.deal(dealer)
    return match, dealer


def test_golden_deal_alternates_and_starts_the_game() -> None:
    match, _ = scripted_match()
    state = match.state
    assert state.phase == "play"
    assert state.hands == (("+3", "+5", "-2", "END", "FLIP"), ("+1", "+4", "-6", "CANCEL", "BLOCK"))
    assert state.stack_size == 44
    assert match.pending.seats == frozenset({0})


def test_golden_end_game_extra_turn() -> None:
    """ATK-5/ATK-6: after ``=`` the player who played it draws, the other plays one more
    turn without drawing, and the game ends: highest total wins."""
    match, _ = scripted_match()
    codes = []
    steps: list[Any] = [
        Play(0, "+5", 0),  # seat 1's line: 5
        Draw(0, "+9"),
        Play(1, "-6", 0),  # 5 - 6 = -1
        Draw(1, "+2"),
        Play(0, "FLIP", 0),  # -1 -> 1
        Draw(0, "+8"),
        Play(1, "+4", 1),  # seat 2's line: 4
        Draw(1, "-1"),
        Play(0, "END", 0),  # seat 1 ends the game...
        Draw(0, "+6"),  # ...and still draws
    ]
    for action in steps:
        codes += [e.code for e in match.apply(action)]
    state = match.state
    assert codes.count("atk.last_turn") == 1
    assert state.end_by == 0 and state.phase == "play" and state.turn == 1
    assert state.hand_sizes == (5, 5) and state.stack_size == 39
    assert match.result() is None
    last = match.apply(Play(1, "+2", 1))  # the last turn: 4 + 2 = 6, no draw
    assert [e.code for e in last] == ["atk.played", "atk.game_over"]
    assert "Seat 2 has 6 and seat 1 has 1: seat 2 wins!" in last[-1].text
    state = match.state
    assert state.phase == "over" and state.hand_sizes == (5, 4) and state.stack_size == 39
    assert match.pending.is_nobody
    result = match.result()
    assert result is not None
    assert (result.scores, result.places) == ((1, 6), (2, 1))
    assert result.reason == "seat 2 wins 6 to 1"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, "+9", 0))
    assert err.value.code == "atk.game_over"


def test_golden_extra_turn_can_also_play_end() -> None:
    """A second ``=`` on the last turn changes nothing: the game still ends after it."""
    state = play_state((("+3",), ("+3", "END")), (("END", "+1"), ("+2",)), end_by=1)
    state, events = GAME.apply(state, Play(0, "END", 0))
    assert state.phase == "over"
    assert [e.code for e in events] == ["atk.end", "atk.game_over"]
    result = GAME.result(state)
    assert result is not None and result.places == (1, 1)
    assert result.reason == "draw: both number lines total 3"


def test_golden_the_extra_turn_is_the_other_players() -> None:
    state = play_state(((), ()), (("END", "+1"), ("+2", "+3")))
    state, _ = GAME.apply(state, Play(0, "END", 1))
    state, _ = GAME.apply(state, Draw(0, "+4"))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, "+1", 0))
    assert err.value.code == "atk.not_your_turn"
    assert GAME.pending(state).seats == frozenset({1})


# -- block ----------------------------------------------------------------------------------------


def test_golden_block_forces_the_next_turn_onto_the_other_line() -> None:
    """The rule book: "if you play block on your number line, your opponent must play a
    card on their number line." Then the block is over (ATK-4)."""
    state = play_state(((), ()), (("BLOCK", "+1"), ("-5", "+2")))
    state, events = GAME.apply(state, Play(0, "BLOCK", 0))
    assert events[0].code == "atk.blocked"
    assert "no card may be played on seat 1's number line" in events[0].text
    state, _ = GAME.apply(state, Draw(0, "+3"))
    assert state.blocked == 0
    assert all(a.line == 1 for a in GAME.legal_actions(state, 1) if isinstance(a, Play))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(1, "-5", 0))
    assert err.value.code == "atk.blocked"
    state, _ = GAME.apply(state, Play(1, "+2", 1))
    state, _ = GAME.apply(state, Draw(1, "+4"))
    assert state.blocked is None
    assert {a.line for a in GAME.legal_actions(state, 0) if isinstance(a, Play)} == {0, 1}


def test_golden_block_on_the_other_line_forces_a_card_onto_yours() -> None:
    """Rule book: "If you play it on theirs, your opponent must play a card on yours" (ATK-4)."""
    state = play_state(((), ()), (("BLOCK", "+1"), ("-5", "+2")))
    state, _ = GAME.apply(state, Play(0, "BLOCK", 1))
    state, _ = GAME.apply(state, Draw(0, "+3"))
    lines = {a.line for a in GAME.legal_actions(state, 1) if isinstance(a, Play)}
    assert lines == {0}
    state, _ = GAME.apply(state, Play(1, "-5", 0))
    assert state.totals == (-5, 0)


def test_golden_pass_with_no_legal_play() -> None:
    state = play_state((("+3", "FLIP"), ("BLOCK",)), (("CANCEL",), ("+2",)), stack_size=0)
    assert GAME.legal_actions(state, 0) == [Pass(0, ("CANCEL",))]
    state, events = GAME.apply(state, Pass(0, ("CANCEL",)))
    assert events[0].code == "atk.passed"
    assert "cancel only goes on a + or - card" in events[0].text
    assert state.turn == 1 and state.hand_sizes == (1, 1)
