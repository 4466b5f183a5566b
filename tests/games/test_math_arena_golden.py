"""Math Arena golden tests: every operator and colour, the rule book's examples, a whole
scripted two-player game, and every tie path (ARENA-4): the pot in mid-set, ties in a
row, the last round of a set with leftover cards, a second tie, and the 5-player variant
where nobody has a leftover card.

Rule book ``seeds/004_40ae61c816b49af9.txt``; rulings ARENA-1..ARENA-5 (RULINGS.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tabletop.engine import Event, ScriptedDealer
from tabletop.games.math_arena import (
    NUMBER_CARDS,
    OPERATOR_CARDS,
    Choose,
    DealCard,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    check,
    explain,
    play_value,
)

GAME = MathArena()


def deal_script(hands: Sequence[Sequence[str]]) -> list[DealCard]:
    """The deal as chance outcomes: one card at a time, seat 0 first, round the table."""
    out = []
    for i in range(max(len(h) for h in hands)):
        for seat, hand in enumerate(hands):
            if i < len(hand):
                out.append(DealCard(seat, hand[i]))
    return out


def deal(state: MathArenaState, hands: Sequence[Sequence[str]]) -> MathArenaState:
    dealer = ScriptedDealer(deal_script(hands))
    while state.phase == "deal":
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    assert dealer.remaining == 0
    return state


def play_round(
    state: MathArenaState, operator: str, plays: Sequence[Sequence[str]]
) -> tuple[MathArenaState, list[Event]]:
    """Reveal ``operator``; every seat puts down its two cards (in seat order)."""
    state, events = GAME.apply(state, RevealOperator(operator))
    out = list(events)
    for seat, cards in enumerate(plays):
        state, events = GAME.apply(state, Choose(seat, (cards[0], cards[1])))
        out.extend(events)
    return state, out


def fill(hands: Sequence[Sequence[str]], size: int) -> list[list[str]]:
    """Complete each hand to ``size`` cards with unused number cards, in deck order."""
    used = {c for h in hands for c in h}
    spare = [c for c in NUMBER_CARDS if c not in used]
    out = []
    for hand in hands:
        extra = size - len(hand)
        out.append([*hand, *spare[:extra]])
        spare = spare[extra:]
    return out


def last_round(
    players: int, hands: Sequence[Sequence[str]], *, pot: tuple[str, ...] = (), hidden: bool = False
) -> MathArenaState:
    """A state at the start of the last round of set 1 (hands as given)."""
    rounds = 6 if players <= 3 else 4
    left = tuple(c for c in OPERATOR_CARDS if c not in pot)
    return MathArenaState(
        MathArenaSettings(hidden_hands=hidden),
        hand_sizes=tuple(len(h) for h in hands),
        hands=((),) * players if hidden else tuple(tuple(h) for h in hands),
        phase="operator",
        round=rounds,
        operators_left=left,
        pot=pot,
        won=((),) * players,
    )


# -- every operator and colour --------------------------------------------------------------

PLAYS = [["9S", "8H"], ["10D", "3C"], ["6S", "4H"]]
VALUES = {"K": [17, 13, 10], "Q": [1, 1, 2], "J": [1, 7, 2]}
# black: highest wins; red (hearts, diamonds): lowest wins
WINNERS = {
    ("K", "black"): [0],
    ("K", "red"): [2],
    ("Q", "black"): [2],
    ("Q", "red"): [0, 1],
    ("J", "black"): [1],
    ("J", "red"): [0],
}


@pytest.mark.parametrize("operator", OPERATOR_CARDS)
def test_golden_every_operator_and_colour(operator: str) -> None:
    rank, suit = operator[0], operator[1]
    colour = "red" if suit in "HD" else "black"
    result = check({"operator": operator, "plays": PLAYS})
    assert result["values"] == VALUES[rank]
    assert result["winners"] == WINNERS[(rank, colour)]
    assert result["goal"] == ("lowest" if colour == "red" else "highest")


@pytest.mark.parametrize("operator", OPERATOR_CARDS)
def test_golden_every_operator_through_the_engine(operator: str) -> None:
    rank, suit = operator[0], operator[1]
    winners = WINNERS[(rank, "red" if suit in "HD" else "black")]
    state = GAME.new_game(MathArenaSettings(), 3)
    state = deal(state, fill(PLAYS, 13))
    state, events = play_round(state, operator, PLAYS)
    reveal = next(e for e in events if e.code == "arena.reveal")
    assert reveal.data["values"] == VALUES[rank]
    if len(winners) == 1:
        assert state.won[winners[0]] == (operator,) and state.pot == ()
    else:
        assert state.pot == (operator,) and all(not w for w in state.won)
    assert state.hand_sizes == (11, 11, 11) and state.round == 2


def test_golden_rule_book_examples() -> None:
    """The rule book: "a red King means that the goal is to have the lowest sum of the
    two numbers, while the goal for a black Queen is to have the largest remainder after
    dividing the two numbers, and the goal for a black Jack is to have the largest
    difference"; "for (5 mod 2), they could say, 2 into 5 leaves 1"; and the FAQ: a red
    Jack on Ace and 10 is 9, never -9."""
    assert check({"operator": "KH", "plays": [["AS", "2S"], ["10S", "10H"]]})["winners"] == [0]
    assert check({"operator": "QS", "plays": [["5S", "2S"], ["10S", "5H"]]})["values"] == [1, 0]
    assert check({"operator": "JC", "plays": [["AS", "10S"], ["4S", "5H"]]})["winners"] == [0]
    assert explain("QS", ["5S", "2D"]) == "2 into 5 leaves 1"
    assert explain("QS", ["2D", "5S"]) == "2 into 5 leaves 1"
    assert play_value("JH", ["AS", "10D"]) == 9 == play_value("JH", ["10D", "AS"])
    assert explain("JH", ["AS", "10D"]) == "10 - 1 = 9"
    assert explain("KD", ["AS", "10D"]) == "10 + 1 = 11"


def test_golden_queen_with_equal_cards_or_an_ace_leaves_nothing() -> None:
    assert play_value("QS", ["7S", "7H"]) == 0
    assert play_value("QS", ["AS", "9H"]) == 0
    assert play_value("QS", ["3S", "9H"]) == 0
    assert play_value("QS", ["4S", "9H"]) == 1


# -- a whole scripted two-player game -------------------------------------------------------

SET1 = [
    ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "AH", "2H", "3H"],
    ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "AD", "2D", "3D", "4D", "5D", "6D"],
]
SET1_ROUNDS = [
    ("KS", [["9S", "10S"], ["9H", "10H"]]),  # 19 = 19: tie, KS to the pot
    ("KH", [["AS", "AH"], ["AD", "2D"]]),  # 2 < 3: seat 1 takes KS and KH
    ("QS", [["5S", "8S"], ["4H", "7H"]]),  # 3 = 3: tie, pot QS
    ("JS", [["2S", "7S"], ["8H", "3D"]]),  # 5 = 5: tie, pot QS JS
    ("JH", [["3S", "3H"], ["5H", "5D"]]),  # 0 = 0: tie, pot QS JS JH
    ("QH", [["4S", "2H"], ["6H", "6D"]]),  # 0 = 0 in the last round: leftovers 6S vs 4D
]
SET2 = [
    ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "AD", "2D", "3D"],
    ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "4D", "5D", "6D"],
]
SET2_ROUNDS = [
    ("KC", [["9C", "10C"], ["8H", "10H"]]),  # 19 > 18: seat 1
    ("KD", [["AC", "2C"], ["AH", "2H"]]),  # 3 = 3: tie, pot KD
    ("QC", [["4C", "7C"], ["5H", "9H"]]),  # 3 < 4: seat 2 takes KD and QC
    ("QD", [["3C", "6C"], ["3H", "6H"]]),  # 0 = 0: tie, pot QD
    ("JC", [["AD", "8C"], ["4H", "7H"]]),  # 7 > 3: seat 1 takes QD and JC
    ("JD", [["2D", "3D"], ["4D", "5D"]]),  # 1 = 1 in the last round: leftovers 5C vs 6D
]


def test_golden_whole_two_player_game() -> None:
    state = GAME.new_game(MathArenaSettings(), 2)
    state = deal(state, SET1)
    assert state.phase == "operator" and state.hand_sizes == (13, 13)
    codes: list[str] = []
    for operator, plays in SET1_ROUNDS[:2]:
        state, events = play_round(state, operator, plays)
        codes += [e.code for e in events]
    assert codes.count("arena.tie") == 1
    assert state.won == (("KS", "KH"), ()) and state.pot == ()
    for operator, plays in SET1_ROUNDS[2:5]:
        state, events = play_round(state, operator, plays)
    assert state.pot == ("QS", "JS", "JH")
    operator, plays = SET1_ROUNDS[5]
    state, events = play_round(state, operator, plays)
    texts = [e.text for e in events]
    assert "Leftover cards: Seat 1: 6; Seat 2: 4." in texts
    assert "Seat 2 has the lowest leftover card and takes 4 operator cards!" in texts
    assert events[-1].code == "arena.set_over"
    assert state.won == (("KS", "KH"), ("QS", "JS", "JH", "QH"))
    assert state.set_number == 2 and state.phase == "deal" and state.played == ()
    assert state.hand_sizes == (0, 0) and state.pot == ()
    # ARENA-2: every number card can be dealt again
    request = GAME.pending(state).chance
    assert request is not None and len(request.outcomes) == 40

    state = deal(state, SET2)
    for operator, plays in SET2_ROUNDS:
        state, events = play_round(state, operator, plays)
    assert "Leftover cards: Seat 1: 5; Seat 2: 6." in [e.text for e in events]
    assert state.won == (("KS", "KH", "KC", "QD", "JC", "JD"), ("QS", "JS", "JH", "QH", "KD", "QC"))
    assert state.phase == "over" and state.removed == ()
    result = GAME.result(state)
    assert result is not None
    assert result.scores == (6, 6) and result.places == (1, 1)
    assert result.reason == "seats 1 and 2 share first place with 6 operator cards each"
    assert events[-1].text == (
        "The game is over! Seat 1 has 6, seat 2 has 6: seats 1 and 2 share first place!"
    )


# -- tie paths (ARENA-4) --------------------------------------------------------------------


def test_golden_tie_in_mid_set_pots_the_card_for_the_next_winner() -> None:
    state = deal(GAME.new_game(MathArenaSettings(), 2), SET1)
    state, events = play_round(state, "KS", [["9S", "10S"], ["9H", "10H"]])
    tie = next(e for e in events if e.code == "arena.tie")
    assert tie.data == {"tied": [0, 1], "pot": ["KS"]}
    assert state.pot == ("KS",) and state.won == ((), ())
    state, events = play_round(state, "JC", [["AS", "AH"], ["AD", "8H"]])
    assert state.won == ((), ("KS", "JC")) and state.pot == ()
    assert "Seat 2 has the highest value and takes 2 operator cards!" in [e.text for e in events]


def test_golden_three_ties_in_a_row_then_a_winner_takes_four() -> None:
    state = deal(GAME.new_game(MathArenaSettings(), 2), SET1)
    for operator, plays in SET1_ROUNDS[2:5]:
        state, _ = play_round(state, operator, plays)
    assert state.pot == ("QS", "JS", "JH")
    state, _ = play_round(state, "KC", [["10S", "9S"], ["AD", "2D"]])
    assert state.won == (("QS", "JS", "JH", "KC"), ())


@pytest.mark.parametrize(
    ("operator", "winner"),
    [("KS", 0), ("QC", 0), ("JS", 0), ("KH", 1), ("QD", 1), ("JH", 1)],
)
def test_golden_last_round_tie_leftover_decides_by_the_same_colour_rule(
    operator: str, winner: int
) -> None:
    """The tied players' leftover cards: black wants the highest, red the lowest."""
    hands = [["5S", "6S", "9C"], ["5H", "6H", "2C"]]  # leftovers 9 and 2
    state = last_round(2, hands, pot=("KD",))
    state, _ = play_round(state, operator, [["5S", "6S"], ["5H", "6H"]])
    assert state.won[winner] == ("KD", operator)
    assert state.won[1 - winner] == ()
    assert state.set_number == 2 and state.phase == "deal"


def test_golden_last_round_leftovers_tie_too_so_the_pot_leaves_the_game() -> None:
    hands = [["5S", "6S", "9C"], ["5H", "6H", "9D"]]
    state = last_round(2, hands, pot=("JC",))
    state, events = play_round(state, "KS", [["5S", "6S"], ["5H", "6H"]])
    assert state.removed == ("JC", "KS") and state.won == ((), ())
    assert "The leftover cards tie too" in events[-2].text


def test_golden_last_round_only_the_tied_players_leftovers_count() -> None:
    """Seat 3 has the best leftover (10) but did not tie for the best value."""
    hands = [["5S", "6S", "4C"], ["5H", "6H", "3C"], ["AS", "2S", "10C"]]
    state = last_round(3, hands)
    state, events = play_round(state, "KC", [["5S", "6S"], ["5H", "6H"], ["AS", "2S"]])
    assert state.won == (("KC",), (), ())
    assert "Leftover cards: Seat 1: 4; Seat 2: 3." in [e.text for e in events]


def test_golden_last_round_won_outright_takes_the_pot() -> None:
    hands = [["5S", "6S", "4C"], ["5H", "7H", "3C"]]
    state = last_round(2, hands, pot=("QS", "QH"))
    state, _ = play_round(state, "KC", [["5S", "6S"], ["5H", "7H"]])
    assert state.won == ((), ("QS", "QH", "KC"))


def test_golden_five_players_last_round_has_no_leftover_so_the_pot_leaves() -> None:
    """ARENA-2/ARENA-4: with 5 players each 4th round is the last two cards; on a tie
    nobody has a leftover card and the pot is removed from the game."""
    hands = [["5S", "6S"], ["5H", "6H"], ["AS", "2S"], ["AH", "2H"], ["AC", "3C"]]
    state = last_round(5, hands, pot=("QD",))
    state, _ = GAME.apply(state, RevealOperator("KC"))
    for seat in range(5):
        # the 4th round of a set: exactly one choice, the last two cards
        assert GAME.legal_actions(state, seat) == [Choose(seat, (hands[seat][0], hands[seat][1]))]
    for seat in range(5):
        state, events = GAME.apply(state, Choose(seat, (hands[seat][0], hands[seat][1])))
    assert state.removed == ("QD", "KC") and all(not w for w in state.won)
    assert any("Nobody has a leftover card" in e.text for e in events)
    assert state.set_number == 2 and state.hand_sizes == (0,) * 5


def test_golden_five_players_whole_game_deals_every_card() -> None:
    state = GAME.new_game(MathArenaSettings(), 5)
    request = GAME.pending(state).chance
    assert request is not None and len(request.outcomes) == 40
    hands = [NUMBER_CARDS[i * 8 : (i + 1) * 8] for i in range(5)]
    state = deal(state, hands)
    assert state.hand_sizes == (8,) * 5 and state.undealt() == ()
