"""Math Arena through its engine, one group of tests per ruling ARENA-1..ARENA-5
(shared/RULINGS.md), camera play, tournaments and the engine surface."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from tabletop.engine import BadInput, IllegalMove, ImpossibleOutcome, Result, ScriptedDealer
from tabletop.engine.codec import decode, decode_action, encode, encode_action
from tabletop.games import GAMES
from tabletop.games.math_arena import (
    ACTION_TYPES,
    DEALS,
    NUMBER_CARDS,
    OPERATOR_CARDS,
    Choose,
    DealCard,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    ShowLeftover,
    Tournament,
    check,
    explain,
    goal,
    pair_sum,
    pair_value,
    pip_value,
    seat_view,
    tournament_points,
)

GAME = MathArena()
CAMERA = MathArenaSettings(hidden_hands=True)


def deal(state: MathArenaState, hands: Sequence[Sequence[str]]) -> MathArenaState:
    script = [
        DealCard(seat, hand[i])
        for i in range(max(len(h) for h in hands))
        for seat, hand in enumerate(hands)
        if i < len(hand)
    ]
    dealer = ScriptedDealer(script)
    while state.phase == "deal":
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    return state


def hands_for(players: int) -> list[list[str]]:
    size = DEALS[players].hand
    return [list(NUMBER_CARDS[i * size : (i + 1) * size]) for i in range(players)]


def revealed(players: int, operator: str = "KS") -> MathArenaState:
    state = deal(GAME.new_game(MathArenaSettings(), players), hands_for(players))
    state, _ = GAME.apply(state, RevealOperator(operator))
    return state


# -- ARENA-1: operators and values ----------------------------------------------------------


def test_arena1_courts_are_operators_and_pips_are_numbers() -> None:
    assert len(OPERATOR_CARDS) == 12 and {c[:-1] for c in OPERATOR_CARDS} == {"J", "Q", "K"}
    assert len(NUMBER_CARDS) == 40
    assert [pip_value(c) for c in NUMBER_CARDS[:10]] == list(range(1, 11))  # Ace is 1


def test_arena1_king_queen_jack() -> None:
    """ARENA-1: King = sum; Queen = larger mod smaller (equal -> 0); Jack = |difference|."""
    assert pair_value("KS", 3, 9) == 12 == pair_value("KH", 9, 3)
    assert pair_value("QS", 3, 8) == 2 == pair_value("QS", 8, 3)
    assert pair_value("QS", 6, 6) == 0
    assert pair_value("JS", 3, 8) == 5 == pair_value("JS", 8, 3)


def test_arena1_the_reveal_carries_each_pairs_sum_and_says_it_as_before() -> None:
    """ARENA-1, ARENA-3: the reveal's data has each seat's sum (larger, smaller, sign,
    value) for the screen to show, so it need not work the Queen or the order out again;
    the engine's words are those it said before."""
    cases = [
        ("KS", ("2S", "9H"), {"a": 9, "b": 2, "op": "+", "value": 11}, "9 + 2 = 11"),
        ("QS", ("3S", "8H"), {"a": 8, "b": 3, "op": "/", "value": 2}, "3 into 8 leaves 2"),
        ("QH", ("6S", "6H"), {"a": 6, "b": 6, "op": "/", "value": 0}, "6 into 6 leaves 0"),
        ("JC", ("3C", "8D"), {"a": 8, "b": 3, "op": "-", "value": 5}, "8 - 3 = 5"),
    ]
    for operator, cards, facts, words in cases:
        assert pair_sum(operator, cards) == facts and explain(operator, cards) == words
        assert facts["value"] == pair_value(operator, facts["a"], facts["b"])
        state = MathArenaState(
            CAMERA, hand_sizes=(13, 13), hands=((), ()), phase="operator", won=((), ())
        )
        state, _ = GAME.apply(state, RevealOperator(operator))
        state, _ = GAME.apply(state, Choose(0, cards))
        other = ("10S", "AH") if "10S" not in cards else ("10C", "AD")
        state, events = GAME.apply(state, Choose(1, other))
        reveal = next(e for e in events if e.code == "arena.reveal")
        assert reveal.data["sums"] == [facts, pair_sum(operator, other)]
        assert f"Seat 1: {words}; Seat 2: {explain(operator, other)}." in reveal.text


def test_arena1_number_card_colours_do_not_matter() -> None:
    """Black or red pips make the same values: 5S + 2C ties 5H + 2D."""
    result = check({"operator": "KH", "plays": [["5S", "2C"], ["5H", "2D"]]})
    assert result["values"] == [7, 7] and result["winners"] == [0, 1]


def test_arena1_red_wants_lowest_black_wants_highest() -> None:
    assert [goal(op) for op in ("KH", "QD", "JH", "KD")] == ["lowest"] * 4
    assert [goal(op) for op in ("KS", "QC", "JS", "KC")] == ["highest"] * 4


# -- ARENA-2: the deal and the sets ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "hand", "sets", "rounds"),
    [(2, 13, 2, 6), (3, 13, 2, 6), (4, 9, 3, 4), (5, 8, 3, 4)],
)
def test_arena2_deal_sets_and_rounds(players: int, hand: int, sets: int, rounds: int) -> None:
    assert (DEALS[players].hand, DEALS[players].sets, DEALS[players].rounds) == (hand, sets, rounds)
    assert sets * rounds == 12
    state = deal(GAME.new_game(MathArenaSettings(), players), hands_for(players))
    assert state.hand_sizes == (hand,) * players
    assert len(state.undealt()) == 40 - hand * players


def test_arena2_deal_goes_round_the_table_one_card_at_a_time() -> None:
    state = GAME.new_game(MathArenaSettings(), 3)
    seats = []
    for card in NUMBER_CARDS[:6]:
        request = GAME.pending(state).chance
        assert request is not None
        seat = request.outcomes[0].seat  # type: ignore[union-attr]
        seats.append(seat)
        state, _ = GAME.apply(state, DealCard(seat, card))
    assert seats == [0, 1, 2, 0, 1, 2]


def test_arena2_reshuffle_between_sets() -> None:
    """ARENA-2: between sets all number cards are gathered and dealt again, so a card
    played in set 1 can come back in set 2; the operator deck is not reshuffled."""
    state = MathArenaState(
        MathArenaSettings(),
        hand_sizes=(3, 3),
        hands=(("5S", "6S", "9C"), ("AH", "2H", "3C")),
        phase="operator",
        round=6,
        won=((), ()),
        played=("10S", "10H"),
    )
    state, _ = GAME.apply(state, RevealOperator("KS"))
    state, _ = GAME.apply(state, Choose(0, ("5S", "6S")))
    state, events = GAME.apply(state, Choose(1, ("AH", "2H")))
    assert events[-1].code == "arena.set_over"
    assert state.set_number == 2 and state.round == 1 and state.played == ()
    request = GAME.pending(state).chance
    assert request is not None
    assert {a.card for a in request.outcomes} == set(NUMBER_CARDS)  # type: ignore[union-attr]
    assert "KS" not in state.operators_left and len(state.operators_left) == 11


# -- ARENA-3: simultaneous choice -----------------------------------------------------------


def test_arena3_every_seat_chooses_at_once_and_nothing_shows_before_the_reveal() -> None:
    state = revealed(3, "QS")
    assert GAME.pending(state).seats == frozenset({0, 1, 2})
    state, events = GAME.apply(state, Choose(1, ("AD", "5D")))
    assert [e.code for e in events] == ["arena.ready"]
    assert "AD" not in repr([e.data for e in events]) and events[0].text == "Seat 2 is ready."
    assert GAME.pending(state).seats == frozenset({0, 2})
    view = seat_view(state, 0)
    assert view.ready == (False, True, False) and view.my_choice == ()
    assert "AD" not in repr(view) and "5D" not in repr(view)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Choose(1, ("2D", "3D")))
    assert err.value.code == "arena.already_chosen"
    state, _ = GAME.apply(state, Choose(2, ("AC", "2C")))
    state, events = GAME.apply(state, Choose(0, ("10S", "7S")))
    assert [e.code for e in events][:2] == ["arena.ready", "arena.reveal"]
    assert events[1].data["plays"] == [["7S", "10S"], ["AD", "5D"], ["AC", "2C"]]


def test_arena3_choices_are_checked() -> None:
    state = revealed(2, "KS")  # seat 0 holds AS..3H, seat 1 holds 4H..6D
    cases = [
        (Choose(0, ("AS", "AS")), "arena.same_card"),
        (Choose(0, ("AS", "KH")), "arena.court_as_number"),
        (Choose(0, ("AS", "1S")), "arena.unknown_card"),
        (Choose(0, ("AS", "4H")), "arena.not_in_hand"),
        (Choose(0, ("AS",)), "arena.two_cards"),  # type: ignore[arg-type]
        (Choose(5, ("AS", "2S")), "arena.no_such_seat"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, action)
        assert err.value.code == code, action
    # the card order does not matter
    state2, _ = GAME.apply(state, Choose(0, ("2S", "AS")))
    assert state2.choices[0] == ("AS", "2S")


def test_arena3_no_choice_before_the_operator_is_revealed() -> None:
    state = deal(GAME.new_game(MathArenaSettings(), 2), hands_for(2))
    assert GAME.pending(state).chance is not None
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Choose(0, ("AS", "2S")))
    assert err.value.code == "arena.not_now"
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, DealCard(0, "5S"))


# -- ARENA-4: ties (the golden tests walk every path; here the rule in short) ---------------


def test_arena4_a_tie_keeps_the_operator_in_the_pot() -> None:
    state = revealed(2, "KS")
    state, _ = GAME.apply(state, Choose(0, ("5S", "6S")))
    state, events = GAME.apply(state, Choose(1, ("5H", "6H")))
    assert state.pot == ("KS",) and state.won == ((), ())
    assert "goes into the pot" in events[-1].text
    state, events = GAME.apply(state, RevealOperator("KD"))
    assert "The winner also takes the pot: 1 operator card." in events[0].text


def test_arena4_camera_play_asks_the_tied_players_for_their_leftovers() -> None:
    state = MathArenaState(
        CAMERA,
        hand_sizes=(3, 3, 3),
        hands=((), (), ()),
        phase="operator",
        round=6,
        won=((), (), ()),
        pot=("QH",),
        operators_left=tuple(c for c in OPERATOR_CARDS if c != "QH"),
    )
    state, _ = GAME.apply(state, RevealOperator("JS"))
    state, _ = GAME.apply(state, Choose(0, ("AS", "9S")))
    state, _ = GAME.apply(state, Choose(1, ("2H", "10H")))
    state, _ = GAME.apply(state, Choose(2, ("3C", "4C")))
    assert state.phase == "leftover" and state.tied == (0, 1)
    assert GAME.pending(state).seats == frozenset({0, 1})
    cards = {a.card for a in GAME.legal_actions(state, 0)}  # type: ignore[union-attr]
    assert "AS" not in cards and "10H" not in cards and len(cards) == 34
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, ShowLeftover(2, "5C"))
    assert err.value.code == "arena.not_tied"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, ShowLeftover(0, "9S"))
    assert err.value.code == "arena.card_gone"
    state, events = GAME.apply(state, ShowLeftover(1, "7D"))
    assert events == () and GAME.pending(state).seats == frozenset({0})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, ShowLeftover(0, "7D"))
    assert err.value.code == "arena.card_taken"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, ShowLeftover(1, "8D"))
    assert err.value.code == "arena.already_shown"
    state, events = GAME.apply(state, ShowLeftover(0, "8D"))
    assert state.won == (("QH", "JS"), (), ()) and state.set_number == 2
    assert state.phase == "operator" and state.hand_sizes == (13, 13, 13)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, ShowLeftover(0, "8D"))
    assert err.value.code == "arena.not_now"


# -- ARENA-5: the winner and tournaments ----------------------------------------------------


def _over(won: tuple[tuple[str, ...], ...], removed: tuple[str, ...] = ()) -> Result:
    """The result of a three-seat game over with the operator cards ``won``."""
    state = MathArenaState(
        MathArenaSettings(),
        hand_sizes=(0, 0, 0),
        hands=((), (), ()),
        phase="over",
        set_number=2,
        round=6,
        operators_left=(),
        won=won,
        removed=removed,
    )
    result = GAME.result(state)
    assert result is not None
    return result


def test_arena5_most_operator_cards_wins_and_equal_counts_share() -> None:
    won = (("KS", "KH", "QS", "QH", "JS"), ("KC", "KD", "QC", "QD", "JC"), ("JD",))
    result = _over(won, removed=("JH",))
    assert result.scores == (5, 5, 1) and result.places == (1, 1, 3)
    assert result.winners == frozenset({0, 1})


@pytest.mark.parametrize(
    ("won", "reason"),
    [
        ((("KS",), (), ()), "seat 1 wins with 1 operator card"),
        ((("KS",), ("KH",), ()), "seats 1 and 2 share first place with 1 operator card each"),
        ((("KS", "KH"), (), ()), "seat 1 wins with 2 operator cards"),
    ],
)
def test_arena5_the_winners_operator_cards_in_words(
    won: tuple[tuple[str, ...], ...], reason: str
) -> None:
    """ARENA-5: the result's reason counts the cards won: "1 operator card", not "1 ...cards"."""
    assert _over(won).reason == reason


def test_arena5_tournament_points() -> None:
    """ARENA-5: first place 2 points, second 1; players sharing a place all score it."""
    assert tournament_points([1, 2, 3]) == (2, 1, 0)
    assert tournament_points([2, 1]) == (1, 2)
    assert tournament_points([1, 1, 3]) == (2, 2, 0)
    assert tournament_points([1, 2, 2, 4]) == (2, 1, 1, 0)
    # option ranking="dense": after a shared first place the next player is second
    assert tournament_points([1, 1, 3], "dense") == (2, 2, 1)


def _result(places: tuple[int, ...]) -> Result:
    return Result(tuple(Fraction(0) for _ in places), places, "test")


def test_arena5_tournament_plays_to_the_target() -> None:
    """Default target 10: the tournament is over once a player has 10 or more points."""
    cup = Tournament(players=2)
    assert cup.target == 10 and cup.points == (0, 0)
    for _ in range(4):
        cup = cup.record(_result((1, 2)))
    assert cup.points == (8, 4) and not cup.over and cup.winners == ()
    cup = cup.record(_result((1, 1)))
    assert cup.points == (10, 6) and cup.over and cup.winners == (0,) and cup.games == 5
    with pytest.raises(IllegalMove):
        cup.record(_result((1, 2)))
    short = Tournament(players=3, target=2).record(_result((1, 1, 3)))
    assert short.over and short.winners == (0, 1)
    with pytest.raises(BadInput):
        Tournament(players=6)
    with pytest.raises(BadInput):
        Tournament(players=2, target=0)
    with pytest.raises(IllegalMove):
        Tournament(players=2).record(_result((1, 2, 3)))


def test_arena5_a_won_tournament_starts_afresh_to_the_same_target() -> None:
    """A game after a tournament was won counts in a new one to the same target; one not
    won yet goes on."""
    cup = Tournament(players=2, target=4).record(_result((1, 2)))
    assert cup.after(_result((2, 1))) == cup.record(_result((2, 1)))
    won = cup.record(_result((1, 2)))
    assert won.over and won.afresh() == Tournament(players=2, target=4)
    assert won.after(_result((2, 1))) == Tournament(2, target=4, points=(1, 2), games=1)


def test_arena5_tournament_journal_round_trip_and_older_records() -> None:
    """The journal keeps a tournament's target, points and games; a record from before a
    setup agreed the target (none) or with the target alone starts with no points."""
    cup = Tournament(players=3, target=6).record(_result((1, 2, 3)))
    assert cup.journal() == {"target": 6, "points": [2, 1, 0], "games": 1}
    assert Tournament.of(3, cup.journal()) == cup
    assert Tournament.of(2, {}) == Tournament(2, target=10)
    assert Tournament.of(2, {"target": 15}) == Tournament(2, target=15)
    with pytest.raises(BadInput):
        Tournament.of(2, {"points": [1, 2, 3]})


# -- camera play ----------------------------------------------------------------------------


def test_camera_no_deal_and_cards_seen_this_set_are_gone() -> None:
    state = GAME.new_game(CAMERA, 2)
    assert state.phase == "operator" and state.hand_sizes == (13, 13)
    state, _ = GAME.apply(state, RevealOperator("KS"))
    assert len(GAME.legal_actions(state, 0)) == 40 * 39 // 2
    state, _ = GAME.apply(state, Choose(0, ("10S", "9S")))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Choose(1, ("10S", "8S")))
    assert err.value.code == "arena.card_taken"
    state, _ = GAME.apply(state, Choose(1, ("10H", "8S")))
    assert state.hand_sizes == (11, 11)
    state, _ = GAME.apply(state, RevealOperator("KH"))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Choose(0, ("10S", "AS")))
    assert err.value.code == "arena.card_gone"
    assert "already seen in this set" in err.value.message


# -- the engine surface ---------------------------------------------------------------------


def test_engine_registered_and_two_to_five_players() -> None:
    assert isinstance(GAMES["math-arena"], MathArena)
    for players in (1, 6):
        with pytest.raises(BadInput) as err:
            GAME.new_game(MathArenaSettings(), players)
        assert err.value.code == "arena.seats"


def test_engine_operator_reveal_is_chance_over_the_operator_deck() -> None:
    state = deal(GAME.new_game(MathArenaSettings(), 2), hands_for(2))
    request = GAME.pending(state).chance
    assert request is not None and request.kind == "operator"
    assert [a.card for a in request.outcomes] == list(OPERATOR_CARDS)  # type: ignore[union-attr]
    with pytest.raises(ImpossibleOutcome):
        GAME.apply(state, RevealOperator("5S"))


def test_engine_json_round_trip() -> None:
    state = revealed(3, "JC")
    state, _ = GAME.apply(state, Choose(2, ("AC", "2C")))
    assert decode(MathArenaState, encode(state)) == state
    for action in (DealCard(1, "5S"), RevealOperator("QH"), Choose(0, ("AS", "2S"))):
        assert decode_action(ACTION_TYPES, encode_action(action)) == action
    assert decode_action(ACTION_TYPES, encode_action(ShowLeftover(2, "9C"))) == ShowLeftover(
        2, "9C"
    )


def test_camera_five_players_tie_in_the_last_round_removes_the_pot_at_once() -> None:
    """ARENA-4 in camera play: with 5 players nobody has a leftover card to show."""
    state = MathArenaState(
        CAMERA,
        hand_sizes=(2,) * 5,
        hands=((),) * 5,
        phase="operator",
        round=4,
        won=((),) * 5,
    )
    state, _ = GAME.apply(state, RevealOperator("JD"))
    plays = [("5S", "6S"), ("5H", "6H"), ("AS", "9S"), ("AH", "9H"), ("AC", "8C")]
    for seat, cards in enumerate(plays):
        state, events = GAME.apply(state, Choose(seat, cards))
    assert state.phase == "operator" and state.set_number == 2
    assert state.removed == ("JD",) and state.hand_sizes == (8,) * 5
    assert "arena.pot_removed" in [e.code for e in events]


def test_arena4_the_pot_removed_says_why_nobody_had_a_leftover_or_they_tied() -> None:
    """ARENA-4: the pot leaves the game when nobody has a leftover card (``why: none``) or
    the leftovers tie too (``why: tie``); the screen reads which, the words unchanged."""
    state = MathArenaState(
        CAMERA, hand_sizes=(2,) * 5, hands=((),) * 5, phase="operator", round=4, won=((),) * 5
    )
    state, _ = GAME.apply(state, RevealOperator("JD"))
    for seat, cards in enumerate([("5S", "6S"), ("5H", "6H"), ("AS", "9S"), ("AH", "9H")]):
        state, _ = GAME.apply(state, Choose(seat, cards))
    state, events = GAME.apply(state, Choose(4, ("AC", "8C")))
    out = next(e for e in events if e.code == "arena.pot_removed")
    assert out.data == {"removed": ["JD"], "why": "none"}
    assert out.text == "Nobody has a leftover card, so the pot (1 operator card) leaves the game."
    state = MathArenaState(
        CAMERA, hand_sizes=(3, 3), hands=((), ()), phase="operator", round=6, won=((), ())
    )
    state, _ = GAME.apply(state, RevealOperator("JS"))
    state, _ = GAME.apply(state, Choose(0, ("AS", "9S")))
    state, _ = GAME.apply(state, Choose(1, ("2H", "10H")))
    state, _ = GAME.apply(state, ShowLeftover(0, "7D"))
    state, events = GAME.apply(state, ShowLeftover(1, "7C"))
    assert [e.code for e in events] == ["arena.leftovers", "arena.pot_removed", "arena.set_over"]
    assert events[1].data == {"removed": ["JS"], "why": "tie"}
    assert (
        events[1].text
        == "The leftover cards tie too, so the pot (1 operator card) leaves the game."
    )


def test_tournament_json_round_trip() -> None:
    cup = Tournament(players=3, target=6, ranking="dense").record(_result((1, 1, 3)))
    assert decode(Tournament, encode(cup)) == cup
    assert cup.points == (2, 2, 1)
