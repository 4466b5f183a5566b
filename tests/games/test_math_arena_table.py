"""``table_actions``: the cards face up at the table scored by the engine, and every card
to check named when the rules refuse one (ARENA-3, ARENA-4; the app asks, it does not
work the rules out again)."""

from __future__ import annotations

import pytest

from tabletop.games.math_arena import (
    OPERATOR_CARDS,
    Choose,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    ShowLeftover,
    WrongCards,
    table_actions,
)

GAME = MathArena()
CAMERA = MathArenaSettings(hidden_hands=True)


def camera_round(players: int = 3, **fields: object) -> MathArenaState:
    state = MathArenaState(
        CAMERA,
        hand_sizes=(13,) * players,
        hands=((),) * players,
        phase="operator",
        won=((),) * players,
        **fields,  # type: ignore[arg-type]
    )
    state, _ = GAME.apply(state, RevealOperator("KH"))
    return state


def test_arena_table_actions_score_every_pair_in_seat_order() -> None:
    """ARENA-3: every seat's two cards, as Choose actions the engine accepts together."""
    state = camera_round()
    actions = table_actions(state, [["5S", "2D"], ["AH", "3C"], ["10D", "9D"]])
    assert actions == (Choose(0, ("5S", "2D")), Choose(1, ("AH", "3C")), Choose(2, ("10D", "9D")))
    for action in actions:
        state, _ = GAME.apply(state, action)
    assert state.won[1] == ("KH",)  # 1 + 3 = 4, the lowest sum


def test_arena_table_actions_card_on_two_seats_marks_both() -> None:
    """The same card shown at two seats: both places are marked, the later seat refused."""
    state = camera_round()
    with pytest.raises(WrongCards) as err:
        table_actions(state, [["5S", "2D"], ["AH", "5S"], ["10D", "9D"]])
    assert err.value.code == "arena.card_taken" and err.value.seat == 1
    assert err.value.cards == {(0, 0), (1, 1)}


def test_arena_table_actions_same_card_twice_marks_the_pair() -> None:
    state = camera_round()
    with pytest.raises(WrongCards) as err:
        table_actions(state, [["5S", "5S"], ["AH", "3C"], ["10D", "9D"]])
    assert (err.value.code, err.value.seat, err.value.cards) == (
        "arena.same_card",
        0,
        {(0, 0), (0, 1)},
    )


def test_arena_table_actions_card_played_this_set_marks_that_card() -> None:
    state = camera_round(played=("7C", "8C"))
    with pytest.raises(WrongCards) as err:
        table_actions(state, [["5S", "2D"], ["AH", "3C"], ["10D", "8C"]])
    assert (err.value.code, err.value.seat, err.value.cards) == ("arena.card_gone", 2, {(2, 1)})
    assert err.value.message  # the precise English for the log


def test_arena_table_actions_court_card_is_not_a_number() -> None:
    state = camera_round()
    with pytest.raises(WrongCards) as err:
        table_actions(state, [["QS", "2D"], ["AH", "3C"], ["10D", "9D"]])
    assert (err.value.code, err.value.cards) == ("arena.court_as_number", {(0, 0)})


def test_arena_table_actions_leftovers_of_the_tied_seats_only() -> None:
    """ARENA-4: in a last-round tie only the tied seats' leftover cards (slot 0) count."""
    state = camera_round(
        round=6, pot=("QH",), operators_left=tuple(c for c in OPERATOR_CARDS if c != "QH")
    )
    state = MathArenaState(**{**state.__dict__, "hand_sizes": (3, 3, 3)})
    for action in (Choose(0, ("AS", "2S")), Choose(1, ("2H", "AH")), Choose(2, ("9C", "4C"))):
        state, _ = GAME.apply(state, action)
    assert state.phase == "leftover" and state.tied == (0, 1)
    shown = [["7D", ""], ["8D", ""], ["", ""]]
    assert table_actions(state, shown) == (ShowLeftover(0, "7D"), ShowLeftover(1, "8D"))
    with pytest.raises(WrongCards) as err:
        table_actions(state, [["7D", ""], ["7D", ""], ["", ""]])
    assert (err.value.code, err.value.seat, err.value.cards) == ("arena.card_taken", 1, {(1, 0)})
