"""The engines' words for the table (issue 21: rules worked out once, in the engine): Math
Arena's operator names and where each scoring begins, Math Attack!'s words
for what binds the next turn. The screens put the seats' names in (``seats_named``)."""

from __future__ import annotations

from typing import Any

from tabletop.games.math_arena import (
    Choose,
    DealCard,
    RevealOperator,
    ShowLeftover,
    last_scoring,
    operator_name,
    scorings,
)
from tabletop.games.math_attack import (
    MathAttackSettings,
    MathAttackState,
    turn_binds,
    turn_words,
)
from tabletop.ui.messages import seats_named


def test_arena_operator_name_says_its_colour() -> None:
    """ARENA-1: a red operator wants the lowest value, a black one the highest (the
    round's ruling itself is the sentence table's: tests/ui/games/test_math_arena_play.py)."""
    assert operator_name("JD") == "red Jack" and operator_name("JD", title=True) == "Red Jack"


def test_arena_scorings_start_each_run_of_pairs_or_leftovers() -> None:
    """Undo goes back to before a scoring: a run of pairs, or of leftover cards."""
    history = [
        DealCard(0, "5S"),
        RevealOperator("KH"),
        Choose(0, ("2S", "3S")),
        Choose(1, ("4S", "5S")),
        ShowLeftover(0, "6S"),
        ShowLeftover(1, "7S"),
        RevealOperator("KS"),
        Choose(0, ("8S", "9S")),
    ]
    assert scorings(history) == [2, 4, 7]
    assert scorings([]) == []


def test_arena_last_scoring_is_the_run_the_history_ends_with_the_deal_after_it_aside() -> None:
    """A game carried on from the journal shows the ruling of the scoring its match ends
    with: the cards dealt after it do not count; a history ending elsewhere has none."""
    pairs = [RevealOperator("KH"), Choose(0, ("2S", "3S")), Choose(1, ("4S", "5S"))]
    assert last_scoring(pairs) == slice(1, 3)
    assert last_scoring([*pairs, DealCard(0, "5S"), DealCard(1, "6S")]) == slice(1, 3)
    leftovers = [*pairs, ShowLeftover(0, "6S"), ShowLeftover(1, "7S")]
    assert last_scoring(leftovers) == slice(3, 5)
    assert last_scoring([*pairs, RevealOperator("KS")]) is None
    assert last_scoring([]) is None and last_scoring([DealCard(0, "5S")]) is None


def attack_state(**fields: Any) -> MathAttackState:
    fields = {"phase": "play", "hand_sizes": (5, 5), "stack_size": 30, **fields}
    return MathAttackState(MathAttackSettings(hidden_hands=True), **fields)


def test_attack_turn_words_say_what_binds_the_next_turn() -> None:
    """ATK-4: a blocked line takes no card this turn; ATK-5: after = one last turn."""
    assert turn_words(attack_state(turn=0)) == ""
    own = turn_words(attack_state(turn=0, blocked=1))
    assert own == "Seat 2's line is blocked, so seat 1 must play on their own line."
    other = turn_words(attack_state(turn=1, blocked=1, end_by=0))
    assert other == (
        "Seat 2's line is blocked, so seat 2 must play on seat 1's line. "
        "This is seat 2's last turn!"
    )
    assert seats_named(other, ["Ana", "Bo"]).startswith("Bo's line is blocked, so Bo must")
    assert turn_words(attack_state(turn=0, end_by=1, phase="over")) == ""
    bound, final = turn_binds(attack_state(turn=1, blocked=1, end_by=0))  # the UI's facts
    assert (bound.code, bound.seat, bound.data) == ("atk.bound", 1, {"blocked": 1, "line": 0})
    assert (final.code, final.seat) == ("atk.final_turn", 1)


def test_messages_seats_named_names_a_list_of_seats() -> None:
    names = ["Ana", "Bo", "Cy", "Di"]
    assert seats_named("seats 1, 2 and 4 tie with 0.", names) == "Ana, Bo and Di tie with 0."


def test_messages_seats_named_leaves_unknown_seats_alone() -> None:
    """A seat number the table does not have stays as the engine wrote it."""
    assert seats_named("Seat 3 and seats 1 and 2 play.", ["Ana", "Bo"]) == (
        "Seat 3 and Ana and Bo play."
    )
    assert seats_named("seats 2 and 5 tie", ["Ana", "Bo"]) == "seats 2 and 5 tie"
