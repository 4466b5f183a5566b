"""Math Attack! through its engine, one group of tests per ruling ATK-1..ATK-6
(shared/RULINGS.md), plus the engine surface (seats, settings, chance, errors)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tabletop.engine import BadInput, IllegalMove, ImpossibleOutcome, RngDealer
from tabletop.engine.codec import decode, decode_action, encode, encode_action
from tabletop.games import GAMES
from tabletop.games.math_attack import (
    ACTION_TYPES,
    COPIES,
    PACK_SIZE,
    Draw,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
    check,
    colour,
    seat_view,
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


def dealt(seed: int = 1, first: int = 0) -> MathAttackState:
    state = GAME.new_game(MathAttackSettings(first_player=first), 2)
    dealer = RngDealer(seed)
    while state.phase == "deal":
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    return state


# -- ATK-1: the pack ------------------------------------------------------------------------


def test_atk1_pack_of_54() -> None:
    """ATK-1: +1..+10 and -1..-10 twice, six multipliers once, four green cards twice."""
    assert PACK_SIZE == 54 == sum(COPIES.values())
    by_colour = Counter()  # type: Counter[str]
    for card, n in COPIES.items():
        by_colour[colour(card)] += n
    assert by_colour == {"black": 23, "red": 23, "green": 8}
    for n in range(1, 11):
        assert COPIES[f"+{n}"] == COPIES[f"-{n}"] == 2
    for card in ("+H", "+N", "+D", "-H", "-N", "-D"):
        assert COPIES[card] == 1
    for card in ("END", "CANCEL", "FLIP", "BLOCK"):
        assert COPIES[card] == 2 and colour(card) == "green"


def test_atk1_the_deal_draws_from_the_whole_pack_with_equal_weight_per_card() -> None:
    state = GAME.new_game(MathAttackSettings(), 2)
    request = GAME.pending(state).chance
    assert request is not None
    weights = {a.card: request.weight_of(i) for i, a in enumerate(request.outcomes)}
    assert weights == COPIES


def test_atk1_hands_of_five_and_the_stack() -> None:
    state = dealt()
    assert state.hand_sizes == (5, 5) and state.stack_size == 44
    assert sum(state.stack().values()) == 44
    assert Counter(state.hands[0]) + Counter(state.hands[1]) + state.stack() == Counter(COPIES)


# -- ATK-2: totals --------------------------------------------------------------------------


def test_atk2_total_starts_at_zero_and_applies_cards_in_order() -> None:
    """ATK-2: order matters for multipliers: 3 then x2 then +4 = 13, but +4 first = 21."""
    assert check({"cards": []})["total"] == 0
    assert check({"cards": ["+3", "+D", "+4"]})["total"] == 13
    assert check({"cards": ["+3", "+4", "+D"]})["total"] == 21


def test_atk2_half_rounds_down_and_uses_the_absolute_value() -> None:
    """ATK-2: n/2 rounds down (7 -> 3), even for a negative total (-7 -> 3)."""
    assert check({"cards": ["+7", "+H"]})["total"] == 10
    assert check({"cards": ["-7", "+H"]})["total"] == -4
    assert check({"cards": ["-7", "-H"]})["total"] == -10
    assert check({"cards": ["+1", "+H"]})["total"] == 1


@pytest.mark.parametrize(
    ("lines", "card", "shift"),
    [((("+1",), ()), "-H", "0"), (((), ()), "+D", "0"), ((("+7",), ()), "-H", "-3")],
)
def test_atk2_a_multiplier_that_changes_nothing_is_0_not_minus_0(
    lines: tuple[tuple[str, ...], tuple[str, ...]], card: str, shift: str
) -> None:
    """ATK-2: |n/2| of 1 (or |nx2| of 0) is 0, and a zero has no sign: the event said
    "that is -0" (the screen showed "\u22120")."""
    state = play_state(lines, ((card, "+1"), ("+2",)))
    _, events = GAME.apply(state, Play(0, card, 0))
    text = next(e.text for e in events if e.code == "atk.played")
    assert f": that is {shift}, so the total goes from" in text


def test_atk2_flip_negates_and_green_cards_change_nothing_else() -> None:
    assert check({"cards": ["+8", "FLIP"]})["total"] == -8
    assert check({"cards": ["+8", "END", "BLOCK"]})["total"] == 8
    assert check({"cards": ["FLIP", "+2"]})["total"] == 2


def test_atk2_cancelled_cards_are_skipped() -> None:
    result = check({"cards": ["+9", "CANCEL", "-3", "-N", "CANCEL"]})
    assert result["cancelled"] == [0, 3]
    assert result["total"] == -3


# -- ATK-3: cancel --------------------------------------------------------------------------


@pytest.mark.parametrize("last", ["END", "CANCEL", "FLIP", "BLOCK"])
def test_atk3_cancel_on_a_green_card_is_illegal(last: str) -> None:
    lines = (("+5", "CANCEL") if last == "CANCEL" else ("+5", last), ())
    state = play_state(lines, (("CANCEL", "+1"), ("+2",)))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, "CANCEL", 0))
    assert err.value.code == "atk.cancel_on_green"
    assert "only goes on a + or - card" in err.value.message
    assert Play(0, "CANCEL", 0) not in GAME.legal_actions(state, 0)


def test_atk3_cancel_on_an_empty_line_is_illegal() -> None:
    state = play_state(((), ("+4",)), (("CANCEL",), ("+2",)))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, "CANCEL", 0))
    assert err.value.code == "atk.cancel_on_empty"
    assert [a for a in GAME.legal_actions(state, 0)] == [Play(0, "CANCEL", 1)]


@pytest.mark.parametrize("last", ["+6", "-6", "+D", "-H"])
def test_atk3_cancel_cancels_the_last_black_or_red_card(last: str) -> None:
    state = play_state((("+4", last), ()), (("CANCEL",), ("+2",)))
    state, events = GAME.apply(state, Play(0, "CANCEL", 0))
    assert state.total(0) == 4
    assert events[0].code == "atk.cancelled"
    assert "does not count any more" in events[0].text


# -- ATK-4: block ---------------------------------------------------------------------------


def test_atk4_block_lasts_only_the_next_turn() -> None:
    state = play_state(((), ()), (("BLOCK", "+1", "+2"), ("+3", "+4", "+5")))
    state, _ = GAME.apply(state, Play(0, "BLOCK", 1))
    state, _ = GAME.apply(state, Draw(0, "+6"))
    assert {a.line for a in GAME.legal_actions(state, 1) if isinstance(a, Play)} == {0}
    state, _ = GAME.apply(state, Play(1, "+3", 0))
    state, _ = GAME.apply(state, Draw(1, "+7"))
    state, _ = GAME.apply(state, Play(0, "+1", 0))
    state, _ = GAME.apply(state, Draw(0, "+8"))
    assert {a.line for a in GAME.legal_actions(state, 1) if isinstance(a, Play)} == {0, 1}


def test_atk4_only_the_most_recent_block_is_in_force() -> None:
    """Seat 1 blocks seat 2's line; seat 2 answers by blocking seat 1's line: now only
    seat 1's line is closed, for seat 1's next turn."""
    state = play_state(((), ()), (("BLOCK", "+1"), ("BLOCK", "+4")))
    state, _ = GAME.apply(state, Play(0, "BLOCK", 1))
    state, _ = GAME.apply(state, Draw(0, "+6"))
    state, _ = GAME.apply(state, Play(1, "BLOCK", 0))
    state, _ = GAME.apply(state, Draw(1, "+7"))
    assert state.blocked == 0
    lines = {a.line for a in GAME.legal_actions(state, 0) if isinstance(a, Play)}
    assert lines == {1}


def test_atk4_a_pass_uses_up_the_blocked_turn() -> None:
    state = play_state((("FLIP",), ("+2",)), (("BLOCK",), ("CANCEL",)), stack_size=0)
    state, _ = GAME.apply(state, Play(0, "BLOCK", 1))
    # seat 2 may only play on seat 1's line, whose last card is green: it must pass
    assert GAME.legal_actions(state, 1) == [Pass(1, ("CANCEL",))]
    state, _ = GAME.apply(state, Pass(1, ("CANCEL",)))
    assert state.blocked is None


# -- ATK-5: the end -------------------------------------------------------------------------


def test_atk5_other_player_gets_exactly_one_more_turn() -> None:
    state = play_state((("+9",), ("+2",)), (("END", "+1"), ("+5", "-3")))
    state, events = GAME.apply(state, Play(0, "END", 1))
    assert "Seat 2 gets one more turn" in events[-1].text
    state, _ = GAME.apply(state, Draw(0, "+4"))
    assert GAME.result(state) is None
    state, events = GAME.apply(state, Play(1, "-3", 0))
    assert state.phase == "over" and events[-1].code == "atk.game_over"
    result = GAME.result(state)
    assert result is not None and result.scores == (6, 2) and result.places == (1, 2)


def test_atk5_equal_totals_draw() -> None:
    state = play_state((("+2",), ("+9",)), (("END", "+1"), ("-7", "-3")), end_by=0, turn=1)
    state, _ = GAME.apply(state, Play(1, "-7", 1))
    result = GAME.result(state)
    assert result is not None and result.places == (1, 1) and "draw" in result.reason


def test_atk5_end_with_an_empty_stack_still_gives_the_last_turn() -> None:
    state = play_state((("+2",), ()), (("END",), ("+1", "-3")), stack_size=0)
    state, _ = GAME.apply(state, Play(0, "END", 0))
    assert state.phase == "play" and state.turn == 1
    state, _ = GAME.apply(state, Play(1, "-3", 0))
    assert state.phase == "over"
    result = GAME.result(state)
    assert result is not None and result.scores == (-1, 0)


# -- ATK-6: a turn --------------------------------------------------------------------------


def test_atk6_play_exactly_one_card_then_draw() -> None:
    state = dealt(seed=3)
    card = state.hands[0][0]
    state, _ = GAME.apply(state, Play(0, card, 0))
    assert state.phase == "draw" and state.hand_sizes == (4, 5)
    pending = GAME.pending(state)
    assert pending.chance is not None and not pending.seats
    assert all(isinstance(a, Draw) and a.seat == 0 for a in pending.chance.outcomes)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, state.hands[0][0], 0))
    assert err.value.code == "atk.wait_for_card"
    state, _ = GAME.apply(state, pending.chance.outcomes[0])
    assert state.hand_sizes == (5, 5) and state.stack_size == 43 and state.turn == 1


def test_atk6_no_draw_when_the_stack_is_empty() -> None:
    state = play_state(((), ()), (("+1", "+2"), ("+3",)), stack_size=0)
    state, events = GAME.apply(state, Play(0, "+1", 0))
    assert state.phase == "play" and state.turn == 1 and state.hand_sizes == (1, 1)
    assert [e.code for e in events] == ["atk.played"]


def test_atk6_pass_only_without_a_legal_play() -> None:
    state = play_state((("+3",), ()), (("CANCEL",), ("+2",)), stack_size=0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Pass(0, ("CANCEL",)))
    assert err.value.code == "atk.must_play"
    assert "cancel can go on seat 1's number line" in err.value.message


def test_atk6_pass_must_show_the_hand() -> None:
    state = play_state((("FLIP",), ()), (("CANCEL",), ("+2",)), stack_size=0)
    for shown in [(), ("+2",), ("CANCEL", "CANCEL")]:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, Pass(0, shown))
        assert err.value.code == "atk.show_hand"


def test_atk6_a_player_with_no_cards_passes() -> None:
    state = play_state((("+1",), ("+2",)), ((), ("+3", "END")), stack_size=0)
    assert GAME.legal_actions(state, 0) == [Pass(0, ())]
    state, events = GAME.apply(state, Pass(0, ()))
    assert "no cards left" in events[0].text and state.turn == 1


# -- the engine surface ---------------------------------------------------------------------


def test_engine_registered_and_two_players_only() -> None:
    assert isinstance(GAMES["math-attack"], MathAttack)
    for seats in (1, 3):
        with pytest.raises(BadInput) as err:
            GAME.new_game(MathAttackSettings(), seats)
        assert err.value.code == "atk.seats"
    with pytest.raises(BadInput):
        MathAttackSettings(first_player=2)


def test_engine_first_player_option() -> None:
    """The rule book lets the players choose who starts: option ``first_player``."""
    state = dealt(first=1)
    assert state.turn == 1 and GAME.pending(state).seats == frozenset({1})
    state = GAME.new_game(MathAttackSettings(first_player=1), 2)
    request = GAME.pending(state).chance
    assert request is not None and request.outcomes[0].seat == 1


def test_engine_refuses_wrong_seat_unknown_card_and_missing_card() -> None:
    state = play_state(((), ()), (("+1",), ("+2",)))
    cases = [
        (Play(1, "+2", 0), "atk.not_your_turn"),
        (Play(0, "+11", 0), "atk.unknown_card"),
        (Play(0, "+1", 2), "atk.no_such_line"),
        (Play(0, "+2", 0), "atk.not_in_hand"),
        (Pass(0, ("+1", "X")), "atk.unknown_card"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, action)
        assert err.value.code == code, action
    assert GAME.legal_actions(state, 1) == []


def test_engine_impossible_draws() -> None:
    state = play_state((("+D",), ()), (("+1",), ("+2",)))
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, Draw(0, "+5"))  # nobody is drawing now
    state, _ = GAME.apply(state, Play(0, "+1", 0))
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, Draw(0, "+D"))  # the only +|n x2| is on a number line
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, Draw(1, "+5"))  # it is seat 1 who draws


def test_engine_json_round_trip() -> None:
    state = dealt(seed=5)
    assert decode(MathAttackState, encode(state)) == state
    for action in (Draw(1, "+5"), Play(0, "CANCEL", 1), Pass(1, ("CANCEL",))):
        assert decode_action(ACTION_TYPES, encode_action(action)) == action


def test_engine_seat_view_hides_the_other_hand() -> None:
    state = dealt(seed=9)
    view = seat_view(state, 0)
    assert view.hand == state.hands[0]
    assert state.hands[1] != view.hand and not hasattr(view, "hands")
    assert sum(view.unseen().values()) == 49
    assert view.unseen() == state.stack() + Counter(state.hands[1])
