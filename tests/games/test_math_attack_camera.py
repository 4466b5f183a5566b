"""Math Attack! in camera play (``hidden_hands``): the device sees the number lines but
not the hands or the stack, so a hand is a count and a played card is legal if it can
still be in that hand: not every copy of it is on the number lines (DESIGN.md)."""

from __future__ import annotations

import pytest

from tabletop.engine import IllegalMove
from tabletop.games.math_attack import (
    CARDS,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
)

GAME = MathAttack()
CAMERA = MathAttackSettings(hidden_hands=True)


def camera_state(
    lines: tuple[tuple[str, ...], tuple[str, ...]],
    sizes: tuple[int, int] = (5, 5),
    stack_size: int = 30,
    turn: int = 0,
) -> MathAttackState:
    return MathAttackState(
        CAMERA, phase="play", lines=lines, hand_sizes=sizes, stack_size=stack_size, turn=turn
    )


def test_camera_game_starts_without_chance() -> None:
    state = GAME.new_game(CAMERA, 2)
    assert state.phase == "play" and state.hand_sizes == (5, 5) and state.stack_size == 44
    assert state.hands == ((), ())
    pending = GAME.pending(state)
    assert pending.chance is None and pending.seats == frozenset({0})
    plays = GAME.legal_actions(state, 0)
    # any card could be in the hand; cancel has nothing to cancel yet
    assert {a.card for a in plays if isinstance(a, Play)} == set(CARDS) - {"CANCEL"}


def test_camera_play_counts_the_draw() -> None:
    state = GAME.new_game(CAMERA, 2)
    state, events = GAME.apply(state, Play(0, "+5", 0))
    assert state.hand_sizes == (5, 5) and state.stack_size == 43 and state.turn == 1
    assert [e.code for e in events] == ["atk.played", "atk.drew"]
    with pytest.raises(ValueError):
        state.stack()


def test_camera_card_gone_when_every_copy_is_on_the_lines() -> None:
    state = camera_state((("+5",), ("+5", "+D")))
    for card, words in (("+5", "both +5 cards are"), ("+D", "the only +|n×2| is")):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, Play(0, card, 0))
        assert err.value.code == "atk.card_gone"
        assert words in err.value.message
    cards = {a.card for a in GAME.legal_actions(state, 0) if isinstance(a, Play)}
    assert "+5" not in cards and "+D" not in cards and "-5" in cards


def test_camera_one_copy_seen_is_still_possible() -> None:
    state = camera_state((("-3",), ()))
    state, _ = GAME.apply(state, Play(0, "-3", 1))
    assert state.lines == (("-3",), ("-3",))


def test_camera_empty_stack_shrinks_the_hand() -> None:
    state = camera_state(((), ()), sizes=(2, 1), stack_size=0)
    state, events = GAME.apply(state, Play(0, "+1", 0))
    assert state.hand_sizes == (1, 1) and [e.code for e in events] == ["atk.played"]


def test_camera_empty_hand_cannot_play_and_passes() -> None:
    state = camera_state((("+1",), ()), sizes=(0, 3), stack_size=0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Play(0, "+2", 0))
    assert err.value.code == "atk.empty_hand"
    assert GAME.legal_actions(state, 0) == [Pass(0, ())]
    state, _ = GAME.apply(state, Pass(0, ()))
    assert state.turn == 1


def test_camera_pass_with_a_shown_hand_of_unplayable_cards() -> None:
    state = camera_state((("+4", "FLIP"), ("BLOCK",)), sizes=(2, 3), stack_size=0)
    # cards other than cancel could be in a hand of 2, so plays are legal...
    assert any(isinstance(a, Play) for a in GAME.legal_actions(state, 0))
    # ...but a player who shows two cancels may pass: the one hand that could be shown
    assert GAME.showable_hands(state, 0) == [("CANCEL", "CANCEL")]
    state2, events = GAME.apply(state, Pass(0, ("CANCEL", "CANCEL")))
    assert events[0].code == "atk.passed" and state2.turn == 1


def test_camera_pass_refusals() -> None:
    state = camera_state((("+4", "FLIP"), ("+1", "CANCEL")), sizes=(2, 3), stack_size=0)
    cases = [
        (("CANCEL",), "atk.show_hand"),  # the hand holds 2 cards
        (("CANCEL", "CANCEL"), "atk.card_gone"),  # one cancel is on a line
        (("CANCEL", "+3"), "atk.must_play"),  # +3 can be played
    ]
    for shown, code in cases:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, Pass(0, shown))
        assert err.value.code == code, shown


def test_camera_pass_a_hand_of_one_is_one_card() -> None:
    """The hand holds 1 card, none shown: "1 card, not 0" (not "1 cards")."""
    state = camera_state((("+4", "FLIP"), ("+1",)), sizes=(1, 3), stack_size=0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Pass(0, ()))
    assert err.value.message == "to pass, show your whole hand: 1 card, not 0"
