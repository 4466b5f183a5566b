"""M.E.C.S. through its engine, a group of tests per ruling MECS-1..MECS-7
(shared/RULINGS.md) plus the rule book's setup: deal, first-player reveal, turn, hack,
end. Tables are set up card by card (``tests.games.test_mecs_support.table``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from tabletop.engine import BadInput, IllegalMove, ImpossibleOutcome, RngDealer
from tabletop.games.mecs import (
    OBJECTIVES,
    Draw,
    DrawFor,
    EndTurn,
    Hack,
    Mecs,
    MecsSettings,
    MecsState,
    Plant,
    Refill,
    Reorder,
    ShowObjective,
    Take,
    Trade,
    hack_areas,
    insertions,
    may_end_turn,
    may_trade,
    mecs_deck,
    mecs_mode,
    mecs_stack,
    objective,
    trade_sources,
)
from tabletop.games.mecs_equation import is_valid
from tests.games.test_mecs_support import (
    BLUE_CARDS,
    DIGIT_CARDS,
    GREEN_CARDS,
    cards,
    full_deck,
    on_table,
    table,
)

GAME = Mecs()
CHALLENGE = MecsSettings(mode="challenge")


def deal(state: MecsState, seed: int = 1) -> MecsState:
    """Let a seeded dealer deal the first hands (the reveal is left to the test)."""
    dealer = RngDealer(seed)
    while state.phase == "deal":
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    return state


def reveal(state: MecsState, *digits: str) -> MecsState:
    for digit in digits:
        state, _ = GAME.apply(state, Draw(digit))
    return state


def codes(events: tuple[object, ...]) -> list[str]:
    return [e.code for e in events]  # type: ignore[attr-defined]


# -- MECS-1: the cards ---------------------------------------------------------------------


def test_mecs1_advanced_deck_is_200_cards_in_two_stacks() -> None:
    state = GAME.new_game(MecsSettings(deck="advanced"), 3)
    assert Counter(state.numbers.cards) == Counter(DIGIT_CARDS)
    assert Counter(state.symbols.cards) == Counter(BLUE_CARDS) + Counter(GREEN_CARDS)
    assert sum(on_table(state).values()) == 200


def test_mecs1_beginners_play_without_green_cards() -> None:
    state = GAME.new_game(MecsSettings(deck="beginners"), 2)
    assert Counter(state.symbols.cards) == Counter(BLUE_CARDS)
    assert sum(on_table(state).values()) == 180
    assert not set(GREEN_CARDS) & set(state.symbols.cards)


def test_mecs1_challenge_mode_mixes_the_green_cards_in() -> None:
    with pytest.raises(BadInput, match="advanced deck"):
        MecsSettings(mode="challenge", deck="beginners")
    assert MecsSettings(mode="challenge").deck == "advanced"


def test_mecs1_twenty_objective_cards_as_data() -> None:
    assert [o.number for o in OBJECTIVES] == list(range(1, 21))
    assert [o.code for o in OBJECTIVES][:2] == ["OBJ1", "OBJ2"]
    assert len({o.text for o in OBJECTIVES}) == 20


@pytest.mark.parametrize("seats", [2, 5, 8])
def test_setup_hands_of_three_numbers_and_two_symbols(seats: int) -> None:
    state = deal(GAME.new_game(MecsSettings(), seats))
    assert state.phase == "reveal"
    for player in state.players:
        digits = [c for c in player.hand if c in DIGIT_CARDS]
        assert len(digits) == 3 and len(player.hand) == 5
    assert on_table(state) == full_deck(state.settings)


@pytest.mark.parametrize("seats", [0, 1, 9])
def test_setup_two_to_eight_players(seats: int) -> None:
    with pytest.raises(BadInput, match="2 to 8 players"):
        GAME.new_game(MecsSettings(), seats)


def test_setup_largest_reveal_starts_and_cards_go_under_the_number_stack() -> None:
    state = deal(GAME.new_game(MecsSettings(), 3))
    request = GAME.pending(state).chance
    assert request is not None and request.kind == "draw"
    assert {o.card for o in request.outcomes} <= set(DIGIT_CARDS)  # type: ignore[union-attr]
    state = reveal(state, "4", "9", "2")
    assert state.active == 1
    assert state.numbers.bottom == ("4", "9", "2")
    assert state.phase == "take" and state.players[1].turns == 1


def test_setup_tied_reveal_reveals_again() -> None:
    state = reveal(deal(GAME.new_game(MecsSettings(), 3)), "7", "3", "7")
    assert GAME.pending(state).chance is not None
    assert [want.seat for want in state.queue] == [0, 2]
    state = reveal(state, "5", "8")
    assert state.active == 2
    assert state.numbers.bottom == ("7", "3", "7", "5", "8")


def test_setup_reveal_ties_option_first_seat() -> None:
    s = MecsSettings(reveal_ties="first_seat")
    state = reveal(deal(GAME.new_game(s, 3)), "2", "6", "6")
    assert state.active == 1 and state.phase == "take"


def test_setup_actions_wait_for_the_deal() -> None:
    state = GAME.new_game(MecsSettings(), 2)
    with pytest.raises(IllegalMove, match="still being dealt"):
        GAME.apply(state, Plant(0, ("1",)))
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, Draw("EQ"))  # the first card dealt comes from the number stack


# -- MECS-2: an area that reads a valid equation is complete -----------------------------


def test_mecs2_valid_equation_completes_invalid_stays() -> None:
    state = table(["4 1", "1 2 3"], ["2 X 3 + EQ 1 0", ""])
    done, events = GAME.apply(state, Plant(0, cards("2 X 3 + 4 EQ 1 0")))
    assert "mecs.completed" in codes(events)
    assert done.players[0].area == ()
    same, events = GAME.apply(state, Plant(0, cards("2 X 3 + 1 EQ 1 0")))
    assert "mecs.completed" not in codes(events)
    assert same.players[0].area == cards("2 X 3 + 1 EQ 1 0")


def test_mecs2_no_operation_is_not_an_equation() -> None:
    state = table(["5 1", "1 2 3"], ["5 EQ", ""])
    after, _events = GAME.apply(state, Plant(0, cards("5 EQ 5")))
    assert after.players[0].area == cards("5 EQ 5") and after.coins(0) == 0


# -- MECS-3: coins -----------------------------------------------------------------------------


def test_mecs3_rule_book_63_is_six_coins() -> None:
    state = table(["3 1", "1 2 3"], ["9 X 7 EQ 6", ""])
    after, events = GAME.apply(state, Plant(0, cards("9 X 7 EQ 6 3")))
    assert after.coins(0) == 6
    assert after.players[0].coin_cards == cards("9 X 7 EQ 6 3")
    done = next(e for e in events if e.code == "mecs.completed")
    assert done.data["coins"] == 6 and done.data["answer"] == "63"


def test_mecs3_brackets_two_and_green_cards_three_coins() -> None:
    state = table(["RP 1", "1 2 3"], ["LP SQRT 4 EQ 2", ""])
    after, _ = GAME.apply(state, Plant(0, cards("LP SQRT 4 RP EQ 2")))
    assert after.coins(0) == 2 + 3 + 1 + 1 + 1 + 2


# -- MECS-4: the turn --------------------------------------------------------------------------


def test_mecs4_take_a_random_card_from_the_next_players_hand() -> None:
    state = table(["1 2 3 + EQ", "4 4 X EQ 9", "5 6 7 - DIV"], phase="take")
    state = replace(state, queue=(DrawFor(0, "hand", "take"),))
    request = GAME.pending(state).chance
    assert request is not None and request.kind == "take"
    weights = {o.card: request.weight_of(i) for i, o in enumerate(request.outcomes)}  # type: ignore[union-attr]
    assert weights == {"4": 2, "9": 1, "EQ": 1, "X": 1}
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, Take("5"))  # not in the next player's hand
    with pytest.raises(IllegalMove, match="first take a card"):
        GAME.apply(state, Plant(0, ("1",)))
    after, _ = GAME.apply(state, Take("4"))
    assert Counter(after.players[0].hand)["4"] == 1 and len(after.players[0].hand) == 6
    assert after.players[1].hand == ("4", "9", "EQ", "X")
    assert after.phase == "plant"


def test_mecs4_plant_one_or_two_never_three() -> None:
    state = table(["1 2 3 + EQ 4", "1 2 3 4 5"])
    with pytest.raises(IllegalMove, match="at most 2 cards") as err:
        GAME.apply(state, Plant(0, cards("1 + 2")))
    assert err.value.code == "mecs.plant_two"
    one, _ = GAME.apply(state, Plant(0, ("1",)))
    assert one.phase == "planted" and one.planted == 1
    two, _ = GAME.apply(one, Plant(0, ("1", "+")))  # the second card, a moment later
    assert two.phase == "refill" and two.planted == 2
    with pytest.raises(IllegalMove):
        GAME.apply(two, Plant(0, ("1", "+", "2")))
    both, _ = GAME.apply(state, Plant(0, ("+", "1")))
    assert both.phase == "refill"


def test_mecs4_plant_only_own_cards_on_own_turn() -> None:
    state = table(["1 2 3 + EQ 4", "5 6 7 8 9"])
    with pytest.raises(IllegalMove, match="not in Player 1's hand"):
        GAME.apply(state, Plant(0, ("9",)))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Plant(1, ("5",)))
    assert err.value.code == "mecs.not_your_turn"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Plant(0, ()))
    assert err.value.code == "mecs.plant_none"


def test_mecs4_a_card_is_never_taken_back() -> None:
    state = table(["1 2", "5 6 7 8 9"], ["3 + 4", ""])
    with pytest.raises(IllegalMove, match="taken back into a hand") as err:
        GAME.apply(state, Plant(0, cards("3 + 1 2")))
    assert err.value.code == "mecs.take_back"
    with pytest.raises(IllegalMove, match="taken back"):
        GAME.apply(state, Reorder(0, cards("3 +")))


def test_mecs4_reorder_own_area_any_time() -> None:
    state = table(["1 2", "5 6 7 8 9"], ["", "EQ 8 2 X 4"])
    after, events = GAME.apply(state, Reorder(1, cards("8 EQ 2 X 4")))  # not their turn
    assert "mecs.completed" in codes(events) and after.coins(1) == 5
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Reorder(1, cards("EQ 8 2 X 4 5")))
    assert err.value.code == "mecs.reorder_adds"


def test_mecs4_trade_only_after_planting_one() -> None:
    state = table(["1 2 3 + EQ 4", "5 6 7 8 9"])
    assert not may_trade(state)  # what the screen asks before it offers a trade
    with pytest.raises(IllegalMove, match="after planting exactly 1"):
        GAME.apply(state, Trade(0, "4", "numbers"))
    one, _ = GAME.apply(state, Plant(0, ("1",)))
    assert may_trade(one)
    traded, _events = GAME.apply(one, Trade(0, "EQ", "numbers"))
    assert traded.symbols.bottom == ("EQ",)  # the old card goes under its own stack
    assert traded.queue == (DrawFor(0, "numbers", "trade"),)
    assert "EQ" not in traded.players[0].hand
    drawn, _ = GAME.apply(traded, Draw("7"))
    assert "7" in drawn.players[0].hand
    assert drawn.active == 1 and drawn.phase == "take"  # hands are full: next turn
    with pytest.raises(IllegalMove, match="under the symbols stack"):
        GAME.apply(one, Trade(0, "EQ", "numbers", under="numbers"))
    two, _ = GAME.apply(state, Plant(0, ("1", "2")))
    assert not may_trade(two)
    with pytest.raises(IllegalMove):
        GAME.apply(two, Trade(0, "3", "numbers"))


def test_mecs4_trade_sources_are_stacks_with_cards_or_the_one_the_card_goes_under() -> None:
    """The screen offers the stacks :func:`trade_sources` names: an empty stack only when
    the traded card goes under it (then it holds that card)."""
    state = table(["1 2 3 + EQ 4", "5 6 7 8 9"])
    assert trade_sources(state, "EQ") == ["numbers", "symbols"]
    empty = replace(state, numbers=replace(state.numbers, cards=(), bottom=()))
    assert trade_sources(empty, "EQ") == ["symbols"]
    assert trade_sources(empty, "4") == ["numbers", "symbols"]  # 4 goes under numbers
    assert trade_sources(empty, "?", "numbers") == ["numbers", "symbols"]
    assert trade_sources(empty, "?", "symbols") == ["symbols"]


def test_mecs4_end_turn_after_planting_and_pass_with_no_cards() -> None:
    state = table(["1 2 3 + EQ 4", "5 6 7 8 9"])
    assert not may_end_turn(state)  # what the screen asks before it offers "End my turn"
    with pytest.raises(IllegalMove, match="plant at least 1 card"):
        GAME.apply(state, EndTurn(0))
    one, _ = GAME.apply(state, Plant(0, ("1",)))
    assert may_end_turn(one)
    ended, _ = GAME.apply(one, EndTurn(0))
    assert not may_end_turn(ended)  # the next player takes a card first
    assert ended.active == 1 and ended.phase == "take"  # hands are full: next turn
    empty = table(["", "5 6 7 8 9"])
    assert may_end_turn(empty)
    assert GAME.legal_actions(empty, 0) == [EndTurn(0)]
    _passed, events = GAME.apply(empty, EndTurn(0))
    assert "passes" in events[0].text


def test_mecs4_hands_refill_to_five_from_the_chosen_stack() -> None:
    state = table(["1 2 3 + EQ 4", "5 6 7 8"])
    after, _ = GAME.apply(state, Plant(0, ("1", "2")))
    assert GAME.pending(after).seats == frozenset({0, 1})  # 4 cards each now
    assert GAME.legal_actions(after, 1) == [Refill(1, "numbers"), Refill(1, "symbols")]
    asked, _ = GAME.apply(after, Refill(1, "symbols"))
    request = GAME.pending(asked).chance
    assert request is not None and "symbols" in request.description
    got, _ = GAME.apply(asked, Draw("SQRT"))
    assert "SQRT" in got.players[1].hand
    with pytest.raises(IllegalMove, match="already holds 5"):
        GAME.apply(got, Refill(1, "numbers"))
    got, _ = GAME.apply(got, Refill(0, "numbers"))
    got, _ = GAME.apply(got, Draw("0"))
    # everybody holds 5: the next player's turn starts with the take
    assert got.active == 1 and got.phase == "take"


def test_mecs4_refill_from_an_empty_stack_is_refused() -> None:
    state = table(["1 2 3 + EQ 4", "5 6 7 8"], phase="refill")
    state = replace(state, numbers=replace(state.numbers, cards=()))
    with pytest.raises(IllegalMove, match="numbers stack is empty"):
        GAME.apply(state, Refill(1, "numbers"))


def test_mecs4_drawing_under_cards_comes_last() -> None:
    """A card put under a stack is drawn only when the shuffled part is gone."""
    state = table(["1 2 3 +", "5 6 7 8"], phase="refill")
    state = replace(state, numbers=replace(state.numbers, cards=("5",), bottom=("9", "1")))
    asked, _ = GAME.apply(state, Refill(1, "numbers"))
    assert [o.card for o in GAME.pending(asked).chance.outcomes] == ["5"]  # type: ignore[union-attr]
    got, _ = GAME.apply(asked, Draw("5"))
    asked, _ = GAME.apply(got, Refill(0, "numbers"))
    assert [o.card for o in GAME.pending(asked).chance.outcomes] == ["9"]  # type: ignore[union-attr]


# -- MECS-5: hacking ---------------------------------------------------------------------------


def test_mecs5_hack_completes_another_area_and_the_hacker_takes_the_coins() -> None:
    state = table(["7 EQ 1", "5 6 8 9 4", "1 2 3 4 5"], ["", "3 + 4", ""])
    after, events = GAME.apply(state, Hack(0, 1, cards("3 + 4 EQ 7")))
    assert codes(events)[:2] == ["mecs.hacked", "mecs.completed"]
    assert after.coins(0) == 5 and after.coins(1) == 0
    assert after.players[1].area == () and after.players[0].hand == ("1",)
    assert after.phase == "refill"  # a hack is the whole turn


def test_mecs5_hack_with_one_card() -> None:
    state = table(["7 1", "5 6 8 9 4", "1 2 3 4 5"], ["", "3 + 4 EQ", ""])
    after, _ = GAME.apply(state, Hack(0, 1, cards("3 + 4 EQ 7")))
    assert after.coins(0) == 5


@pytest.mark.parametrize(
    ("area", "hand", "code"),
    [
        ("4 + 3 EQ 7", "EQ 7", "mecs.hack_moves"),  # the cards already there moved
        ("3 + 4 EQ 7 X 1 X 1", "EQ 7 X 1 X 1", "mecs.hack_two"),  # more than 2 cards
        ("3 + 4 EQ 8", "EQ 8", "mecs.hack_invalid"),  # not a valid equation
        ("3 + 4 EQ 9", "EQ 9", "mecs.hack_invalid"),
    ],
)
def test_mecs5_illegal_hacks(area: str, hand: str, code: str) -> None:
    state = table([f"{hand}", "5 6 8 9 4", "1 2 3 4 5"], ["", "3 + 4", ""])
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Hack(0, 1, cards(area)))
    assert err.value.code == code
    assert "MECS-5" in err.value.message


def test_mecs5_hack_needs_the_cards_and_another_area() -> None:
    state = table(["7 1", "5 6 8 9 4", "1 2 3 4 5"], ["3 + 4", "3 + 4", ""])
    with pytest.raises(IllegalMove, match="not in Player 1's hand"):
        GAME.apply(state, Hack(0, 1, cards("3 + 4 EQ 9")))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Hack(0, 0, cards("3 + 4 EQ 7")))
    assert err.value.code == "mecs.hack_own"


def test_mecs5_hack_instead_of_planting_not_after() -> None:
    state = table(["7 EQ 1", "5 6 8 9 4", "1 2 3 4 5"], ["", "3 + 4", ""])
    one, _ = GAME.apply(state, Plant(0, ("1",)))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(one, Hack(0, 1, cards("3 + 4 EQ 7")))
    assert err.value.code == "mecs.hack_after_plant"


def test_mecs5_legal_actions_list_exactly_the_valid_hacks() -> None:
    state = table(["7 EQ 1 X", "5 6 8 9 4", "1 2 3 4 5"], ["", "3 + 4", "2 2"])
    hacks = {(a.target, a.area) for a in GAME.legal_actions(state, 0) if isinstance(a, Hack)}
    hand = Counter(state.players[0].hand)
    brute = {
        (t, seq)
        for t in (1, 2)
        for seq in insertions(state.players[t].area, hand, 2)
        if is_valid(seq)
    }
    assert hacks == brute
    assert (1, cards("3 + 4 EQ 7")) in hacks
    assert (2, cards("2 X 2 EQ 4")) not in hacks  # no 4 in hand
    assert hack_areas(cards("3 + 4"), hand) == sorted(s for t, s in brute if t == 1)


# -- MECS-6: the end ---------------------------------------------------------------------------


def test_mecs6_normal_mode_ends_as_soon_as_someone_has_15_coins() -> None:
    state = table(["3 1", "1 2", "4"], ["9 X 7 EQ 6", "", ""], coins=["1 2 3 4 5 6 7 8 9", "", ""])
    after, _events = GAME.apply(state, Plant(0, cards("9 X 7 EQ 6 3")))
    assert after.phase == "over" and GAME.is_over(after)
    result = GAME.result(after)
    assert result is not None
    assert result.scores == (Fraction(15), Fraction(0), Fraction(0))
    assert result.places == (1, 2, 2)  # equal coins share a place
    assert result.reason == "Player 1 has 15 coins"
    with pytest.raises(IllegalMove, match="the game is over"):
        GAME.apply(after, EndTurn(0))


def test_mecs6_target_coins_option() -> None:
    s = MecsSettings(target_coins=30)
    state = table(
        ["3 1", "1 2", "4"], ["9 X 7 EQ 6", "", ""], coins=["1 2 3 4 5 6 7 8 9", "", ""], settings=s
    )
    after, _ = GAME.apply(state, Plant(0, cards("9 X 7 EQ 6 3")))
    assert after.phase != "over" and after.coins(0) == 15


def test_mecs6_challenge_rule_book_examples_63_scores_54_stays() -> None:
    """Objective 'an odd number larger than 50': 63 yields 6 coins; 54 is a right
    equation but fails the objective, so its cards stay in the area."""
    base = table(["3 4 1", "1 2", "4"], ["9 X 7 EQ 6", "", ""], objective=1, settings=CHALLENGE)
    scored, events = GAME.apply(base, Plant(0, cards("9 X 7 EQ 6 3")))
    assert scored.coins(0) == 6 and scored.players[0].area == ()
    assert scored.met == (1,) and scored.objective is None
    request = GAME.pending(scored).chance
    assert request is not None and request.kind == "objective"
    assert ShowObjective(1) not in request.outcomes and len(request.outcomes) == 19
    base = table(["3 4 1", "1 2", "4"], ["9 X 6 EQ 5", "", ""], objective=1, settings=CHALLENGE)
    stays, events = GAME.apply(base, Plant(0, cards("9 X 6 EQ 5 4")))
    assert stays.coins(0) == 0 and stays.players[0].area == cards("9 X 6 EQ 5 4")
    assert "mecs.objective_missed" in codes(events)


def test_mecs6_challenge_ends_after_the_fifth_objective_and_not_at_15_coins() -> None:
    coins = ["1 2 3 4 5 6 7 8 9 0 0 0 0 0 0 0", "", ""]
    state = table(
        ["3 1", "1 2", "4"], ["9 X 7 EQ 6", "", ""], coins=coins, objective=1, settings=CHALLENGE
    )
    state = replace(state, met=(2, 3, 4))
    after, _ = GAME.apply(state, Plant(0, cards("9 X 7 EQ 6 3")))
    assert after.phase != "over" and after.coins(0) == 22  # 15 coins do not end it
    state = replace(state, met=(2, 3, 4, 5))
    after, _ = GAME.apply(state, Plant(0, cards("9 X 7 EQ 6 3")))
    assert after.phase == "over"
    assert GAME.result(after).reason == "all 5 objectives are met"  # type: ignore[union-attr]


def test_mecs6_challenge_objectives_option_and_first_objective_at_start() -> None:
    s = MecsSettings(mode="challenge", objectives=2)
    state = reveal(deal(GAME.new_game(s, 2)), "9", "1")
    request = GAME.pending(state).chance
    assert request is not None and request.kind == "objective" and len(request.outcomes) == 20
    state, events = GAME.apply(state, ShowObjective(6))
    assert state.objective == 6 and "exactly 24" in events[0].text
    assert state.phase == "take" and state.active == 0


def test_mecs6_challenge_hack_must_meet_the_objective() -> None:
    state = table(["5 4 EQ", "1 2 3", "4"], ["", "6 X 9 EQ", ""], objective=1, settings=CHALLENGE)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Hack(0, 1, cards("6 X 9 EQ 5 4")))
    assert err.value.code == "mecs.hack_objective"
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, Hack)]


def test_game_ends_when_the_cards_run_out() -> None:
    state = table(["", "", ""], ["1 +", "2 +", "3 +"], phase="refill")
    state = replace(
        state, numbers=replace(state.numbers, cards=()), symbols=replace(state.symbols, cards=())
    )
    after, _events = GAME.apply(state, Reorder(0, cards("+ 1")))
    assert after.phase == "over"
    assert GAME.result(after).reason == "the cards ran out"  # type: ignore[union-attr]


# -- MECS-7: the objective cards -------------------------------------------------------------

MEETS_AND_MISSES = {
    1: (["51", "63", "1001"], ["49", "50", "54", "101/2", "-51"]),
    2: (["0", "18", "-4"], ["20", "19", "7/2"]),
    3: (["7", "49", "700"], ["0", "-7", "8", "7/2"]),
    4: (["1", "4", "81", "10000"], ["0", "2", "1/4", "-4"]),
    5: (["2", "3", "97"], ["1", "0", "-3", "91", "7/2"]),
    6: (["24"], ["23", "48/2 + 1", "-24"]),
    7: (["100"], ["99", "1000"]),
    8: (["30", "35", "40", "61/2"], ["29", "81/2", "41"]),
    9: (["1/2", "7/2", "-1/3"], ["0", "3", "-2"]),
    10: (["0"], ["1", "-1", "1/2"]),
    11: (["100", "999", "540"], ["99", "1000", "-100", "201/2"]),
    12: (["12", "24", "36"], ["0", "6", "8", "-12"]),
    13: (["9", "18", "108", "1000000008"], ["0", "19", "99", "-9", "9/2"]),
    14: (["1001", "2001/2"], ["1000", "999"]),
    15: (["10", "100", "30"], ["0", "5", "-10", "25"]),
    16: (["1/2", "1/100"], ["0", "1", "-1/2", "3/2"]),
    17: (["1", "8", "27", "1000", "1000000"], ["0", "9", "-8", "1/8"]),
    18: (["1"], ["0", "2", "-1"]),
    19: (["11", "55", "99"], ["10", "12", "111", "-11", "0"]),
    20: (["-1", "-1/2"], ["0", "1"]),
}


def fraction(text: str) -> Fraction:
    if "+" in text:
        a, b = text.split("+")
        return Fraction(a.strip()) + Fraction(b.strip())
    return Fraction(text)


@pytest.mark.parametrize("number", sorted(MEETS_AND_MISSES))
def test_mecs7_each_objective_on_answers_that_meet_and_miss_it(number: int) -> None:
    card = objective(number)
    meets, misses = MEETS_AND_MISSES[number]
    for text in meets:
        assert card.met_by(fraction(text)), (number, card.text, text)
    for text in misses:
        assert not card.met_by(fraction(text)), (number, card.text, text)


def test_mecs7_every_objective_card_is_covered() -> None:
    assert sorted(MEETS_AND_MISSES) == [o.number for o in OBJECTIVES]


def test_mecs7_zero_is_a_multiple_of_nothing() -> None:
    for number in (3, 12, 15):
        assert not objective(number).met_by(Fraction(0))


def test_mecs7_objective_numbers_out_of_range() -> None:
    with pytest.raises(BadInput, match="1 to 20"):
        objective(21)


# -- MECS-9: a new objective checks the equations already waiting ---------------------------


def test_mecs9_waiting_equation_that_meets_a_new_objective_completes_at_once() -> None:
    """The issue's case: 9 x 6 = 54 waits (objective 1 wants an odd number over 50);
    objective 13 (digits add up to 9) is shown, and 54 completes at once."""
    state = table(["3 1", "1 2", "4"], ["9 X 6 EQ 5 4", "", ""], objective=None, settings=CHALLENGE)
    state = replace(state, queue=(DrawFor(0, "objectives", "objective"),), met=(1,))
    after, events = GAME.apply(state, ShowObjective(13))
    assert codes(events)[:3] == ["mecs.objective", "mecs.objective_waiting", "mecs.completed"]
    assert "MECS-9" in events[1].text  # type: ignore[attr-defined]
    assert after.players[0].area == () and after.coins(0) == 6
    assert after.met == (1, 13) and after.objective is None
    request = GAME.pending(after).chance
    assert request is not None and request.kind == "objective"  # the next objective comes


def test_mecs9_waiting_equation_that_misses_the_new_objective_stays() -> None:
    state = table(["3 1", "1 2", "4"], ["9 X 6 EQ 5 4", "", ""], settings=CHALLENGE)
    state = replace(state, queue=(DrawFor(0, "objectives", "objective"),))
    after, events = GAME.apply(state, ShowObjective(1))
    assert codes(events) == ["mecs.objective"]
    assert after.players[0].area == cards("9 X 6 EQ 5 4") and after.objective == 1


def test_mecs9_several_waiting_the_next_player_in_turn_order_takes_it() -> None:
    """Seat 0 is active, so seat 1's turn is next: seat 1 completes, seat 2 and seat 0
    keep their equations (one completion per objective)."""
    areas = ["2 X 3 EQ 6", "4 X 6 EQ 2 4", "3 X 8 EQ 2 4"]
    state = table(["3 1", "1 2", "4"], areas, settings=CHALLENGE)
    state = replace(state, queue=(DrawFor(0, "objectives", "objective"),))
    after, events = GAME.apply(state, ShowObjective(6))  # exactly 24
    done = [e for e in events if e.code == "mecs.completed"]  # type: ignore[attr-defined]
    assert len(done) == 1 and done[0].seat == 1  # type: ignore[attr-defined]
    assert after.players[1].area == () and after.coins(1) == 6
    assert after.players[2].area == cards("3 X 8 EQ 2 4") and after.coins(2) == 0
    assert after.players[0].area == cards("2 X 3 EQ 6")


def test_mecs9_first_objective_before_the_first_turn_starts_with_the_first_player() -> None:
    areas = ["4 X 6 EQ 2 4", "", "3 X 8 EQ 2 4"]
    state = table(["3 1", "1 2", "4"], areas, settings=CHALLENGE, active=2, phase="start")
    state = replace(state, queue=(DrawFor(2, "objectives", "objective"),))
    after, events = GAME.apply(state, ShowObjective(6))
    done = [e for e in events if e.code == "mecs.completed"]  # type: ignore[attr-defined]
    assert [e.seat for e in done] == [2]  # type: ignore[attr-defined]
    assert after.players[0].area == cards("4 X 6 EQ 2 4")


# -- MECS-10: the square binds before the root ------------------------------------------------


def test_mecs10_root_of_two_squared_is_two_in_the_engine() -> None:
    state = table(["2 EQ", "1 2", "4"], ["SQRT 2 SQ", "", ""], planted=0)
    after, events = GAME.apply(state, Plant(0, cards("SQRT 2 SQ EQ 2")))
    assert "mecs.completed" in codes(events)
    assert after.coins(0) == 9  # √ 3, ² 3, 2 and 2, =


def test_mecs10_root_of_a_squared_group_and_not_two_squared_rooted_otherwise() -> None:
    from tabletop.games.mecs_equation import evaluate

    assert evaluate(cards("SQRT LP 1 + 1 RP SQ EQ 2")).valid
    assert evaluate(cards("SQRT 3 SQ EQ 3")).valid
    wrong = evaluate(cards("SQRT 2 SQ EQ 4"))  # (√2)² read first would also be 2: never 4
    assert not wrong.valid


def test_mecs_names_narrow_to_a_stack_deck_or_mode_or_say_which_exist() -> None:
    """The screens' words become the engine's names (the settings' own messages)."""
    assert [mecs_stack(s) for s in ("numbers", "symbols")] == ["numbers", "symbols"]
    assert [mecs_deck(d) for d in ("beginners", "advanced")] == ["beginners", "advanced"]
    assert [mecs_mode(m) for m in ("normal", "challenge")] == ["normal", "challenge"]
    with pytest.raises(BadInput, match="stack must be numbers or symbols, not 'hand'") as bad:
        mecs_stack("hand")
    assert bad.value.code == "mecs.stack"
    with pytest.raises(BadInput, match="deck must be beginners or advanced, not 'kids'") as bad:
        mecs_deck("kids")
    assert bad.value.code == "mecs.option"
    with pytest.raises(BadInput, match="mode must be normal or challenge, not 'hard'"):
        mecs_mode("hard")
