"""M.E.C.S. in camera play: hands are counts, stacks are unseen, and the engine works
out from "this area now reads ..." what was planted, moved or hacked (MECS-4, MECS-5),
refusing a card taken back into a hand and a hack that moves the cards already there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop.engine import BadInput, IllegalMove, Match, RngDealer
from tabletop.games import GAMES
from tabletop.games.mecs import (
    UNSEEN,
    Action,
    Draw,
    Hack,
    Mecs,
    MecsSettings,
    MecsState,
    Observe,
    Plant,
    Player,
    Reorder,
    Stack,
    Take,
    Trade,
    area_owner,
    fix_reading,
    held_cards,
    interpret,
    read_card,
    stack_of,
)
from tests.games.test_mecs_support import cards, full_deck, on_table

GAME = Mecs()
CAMERA = MecsSettings(play="camera")


def camera_table(
    hands: list[int],
    areas: list[str],
    coins: list[str] | None = None,
    *,
    active: int = 0,
    phase: str = "plant",
    planted: int = 0,
) -> MecsState:
    """A camera-play table: hands are counts of unseen cards; areas and coin piles are
    what the camera saw. Unseen cards come out of the stacks so the total stays 200."""
    state = GAME.new_game(CAMERA, len(hands))
    left = {"numbers": len(state.numbers.cards), "symbols": len(state.symbols.cards)}
    players = []
    for seat, count in enumerate(hands):
        area = cards(areas[seat])
        pile = cards(coins[seat]) if coins else ()
        for card in (*area, *pile):
            left[stack_of(card)] -= 1
        left["numbers"] -= count
        players.append(Player(hand=(UNSEEN,) * count, area=area, coin_cards=pile, turns=1))
    return replace(
        state,
        players=tuple(players),
        numbers=Stack((UNSEEN,) * left["numbers"]),
        symbols=Stack((UNSEEN,) * left["symbols"]),
        queue=(),
        phase=phase,  # type: ignore[arg-type]
        active=active,
        planted=planted,
        turn=1,
    )


def test_camera_deck_and_hands_are_unseen_but_reveals_are_seen() -> None:
    state = GAME.new_game(CAMERA, 3)
    request = GAME.pending(state).chance
    assert request is not None and request.outcomes == (Draw(UNSEEN),)
    dealer = RngDealer(4)
    while state.phase == "deal":
        state, _ = GAME.apply(state, dealer.deal(GAME.pending(state).chance))  # type: ignore[arg-type]
    assert all(p.hand == (UNSEEN,) * 5 for p in state.players)
    request = GAME.pending(state).chance
    assert request is not None
    assert sorted(o.card for o in request.outcomes) == [str(d) for d in range(10)]  # type: ignore[union-attr]
    for digit in ("3", "8", "5"):
        state, _ = GAME.apply(state, Draw(digit))
    assert state.active == 1 and state.numbers.bottom == ("3", "8", "5")
    assert GAME.pending(state).chance.outcomes == (Take(UNSEEN),)  # type: ignore[union-attr]
    assert sum(on_table(state).values()) == 200


def test_camera_observe_a_plant_of_one_then_a_second_card() -> None:
    state = camera_table([6, 5], ["3 +", ""])
    assert interpret(state, 0, cards("3 + 4")) == Plant(0, cards("3 + 4"))
    one, events = GAME.apply(state, Observe(0, cards("3 + 4")))
    assert one.players[0].area == cards("3 + 4") and len(one.players[0].hand) == 5
    assert one.planted == 1 and events[0].code == "mecs.planted"
    two, _ = GAME.apply(one, Observe(0, cards("3 + 4 EQ")))
    assert two.planted == 2 and two.phase == "refill"
    with pytest.raises(IllegalMove, match="at most 2 cards"):
        GAME.apply(state, Observe(0, cards("3 + 4 EQ 7")))


def test_camera_observe_payloads_and_an_unchanged_area() -> None:
    state = camera_table([6, 5], ["3 +", ""])
    after, _ = GAME.apply(state, Observe(0, ("MT1:MECS:3", "MT1:MECS:+", "MT1:MECS:4")))
    assert after.players[0].area == cards("3 + 4")
    same, events = GAME.apply(state, Observe(0, cards("3 +")))
    assert same == state and events == ()


def test_camera_observe_completes_and_tolerates_the_flip() -> None:
    state = camera_table([6, 5], ["3 + 4 EQ", ""])
    done, events = GAME.apply(state, Observe(0, cards("3 + 4 EQ 7")))
    assert done.coins(0) == 5 and done.players[0].area == ()
    assert done.players[0].flipping == cards("3 + 4 EQ 7")
    # the camera still sees the cards while the child flips them over
    assert interpret(done, 0, cards("3 + 4 EQ 7")) is None
    half, events = GAME.apply(done, Observe(0, cards("3 EQ 7")))
    assert events == () and half.players[0].flipping == cards("3 EQ 7")
    gone, _ = GAME.apply(half, Observe(0, ()))
    assert gone.players[0].flipping == () and gone.players[0].area == ()


def test_camera_observe_reorder_of_any_area_any_time() -> None:
    state = camera_table([6, 5], ["", "EQ 7 3 + 4"])
    assert interpret(state, 1, cards("7 EQ 3 + 4")) == Reorder(1, cards("7 EQ 3 + 4"))
    after, events = GAME.apply(state, Observe(1, cards("7 EQ 3 + 4")))
    assert after.coins(1) == 5 and "mecs.completed" in [e.code for e in events]


def test_camera_observe_a_hack_by_the_active_player() -> None:
    state = camera_table([6, 5, 5], ["", "3 + 4", ""])
    assert interpret(state, 1, cards("3 + 4 EQ 7")) == Hack(0, 1, cards("3 + 4 EQ 7"))
    after, _events = GAME.apply(state, Observe(1, cards("3 + 4 EQ 7")))
    assert after.coins(0) == 5 and after.players[1].area == ()
    assert len(after.players[0].hand) == 4 and after.phase == "refill"


def test_camera_a_hack_half_way_is_refused_until_it_is_valid() -> None:
    state = camera_table([6, 5, 5], ["", "3 + 4", ""])
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Observe(1, cards("3 + 4 EQ")))
    assert err.value.code == "mecs.hack_invalid"
    after, _ = GAME.apply(state, Observe(1, cards("3 + 4 EQ 7")))
    assert after.coins(0) == 5


def test_camera_a_hack_that_rearranges_is_refused() -> None:
    state = camera_table([6, 5, 5], ["", "3 + 4", ""])
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, Observe(1, cards("4 + 3 EQ 7")))
    assert err.value.code == "mecs.hack_moves"


def test_camera_a_card_taken_back_into_a_hand_is_refused() -> None:
    state = camera_table([6, 5, 5], ["3 + 4", "1 X", ""])
    for seat, seen in ((0, "3 +"), (1, "X"), (0, "3 + 5")):
        with pytest.raises(IllegalMove, match="taken back into a hand") as err:
            GAME.apply(state, Observe(seat, cards(seen)))
        assert err.value.code == "mecs.take_back"


def test_camera_cards_appearing_out_of_turn_are_refused() -> None:
    state = camera_table([5, 5, 5], ["", "3 + 4", ""], phase="refill")
    with pytest.raises(IllegalMove, match="only the active player"):
        GAME.apply(state, Observe(1, cards("3 + 4 EQ 7")))


def test_camera_a_card_is_legal_only_if_it_could_still_be_in_the_hand() -> None:
    """All ten 7s are on the table already: none can come from a hand."""
    sevens = "7 7 7 7 7"
    state = camera_table([6, 5], ["3 +", sevens], coins=["", sevens])
    assert "7" not in held_cards(state, 0)
    with pytest.raises(IllegalMove, match="all 10 7 cards are already on the table"):
        GAME.apply(state, Observe(0, cards("3 + 7")))
    short = camera_table([1, 5], ["3 +", ""], phase="plant")
    with pytest.raises(IllegalMove, match="has 1 cards in hand, too few"):
        GAME.apply(short, Plant(0, cards("3 + 4 EQ")))


def test_camera_objective_and_unknown_cards_in_an_area() -> None:
    state = camera_table([6, 5], ["3 +", ""])
    with pytest.raises(IllegalMove, match="objective card"):
        GAME.apply(state, Observe(0, ("3", "+", "OBJ4")))
    with pytest.raises(BadInput, match=r"not an M\.E\.C\.S\. play card"):
        GAME.apply(state, Observe(0, ("3", "+", "MT1:ATK:+5")))


def test_camera_trade_of_an_unseen_card_names_its_stack() -> None:
    state = camera_table([5, 5], ["3 +", ""], phase="planted", planted=1)
    with pytest.raises(IllegalMove, match="which stack"):
        GAME.apply(state, Trade(0, UNSEEN, "numbers"))
    after, _ = GAME.apply(state, Trade(0, UNSEEN, "symbols", under="numbers"))
    assert after.numbers.bottom == (UNSEEN,)
    drawn, _ = GAME.apply(after, Draw(UNSEEN))
    assert drawn.players[0].hand == (UNSEEN,) * 5


def test_camera_match_replays_to_the_same_state() -> None:
    match = Match(GAME, CAMERA, 2, seed=3)
    dealer = RngDealer(3)
    while match.state.phase in ("deal", "reveal", "take") or match.pending.chance:
        match.deal(dealer)
        if match.state.phase == "plant":
            break
    seat = match.state.active
    match.apply(Observe(seat, cards("4")))
    match.apply(Observe(seat, cards("4 +")))
    assert match.state.players[seat].area == cards("4 +")
    again = Match.replay(list(match.log_lines()), GAMES)
    assert again.state == match.state
    assert on_table(match.state).total() == sum(full_deck(CAMERA).values())


def camera_match_at_plant(seed: int = 3) -> Match[MecsSettings, MecsState, Action]:
    """A two-seat camera match dealt up to the first plant."""
    match = Match(GAME, CAMERA, 2, seed=seed)
    dealer = RngDealer(seed)
    while match.state.phase != "plant":
        match.deal(dealer)
    return match


def test_mecs_fix_reading_replays_the_match_with_the_area_set_right() -> None:
    """A wrong camera reading fixed (MECS-4): the last move that set the area reads the
    fix, the match given is left as it was, and nothing the table acted on is taken back."""
    match = camera_match_at_plant()
    seat = match.state.active
    match.apply(Observe(seat, cards("4")))
    fix = fix_reading(match, seat, cards("7"))
    assert fix.match.state.players[seat].area == cards("7")
    assert (fix.dropped, fix.coins, fix.takes_back) == (0, False, False)
    assert match.state.players[seat].area == cards("4")  # the match given is untouched
    assert len(fix.match.history) == len(match.history)


def test_mecs_fix_reading_drops_the_later_moves_that_no_longer_fit() -> None:
    """One card read, then a trade (allowed after exactly 1 card, MECS-4): fixed to the two
    cards really put down, the trade and the card drawn for it no longer fit and are
    dropped: a fix that takes back what the table acted on."""
    match = camera_match_at_plant()
    seat = match.state.active
    match.apply(Observe(seat, cards("5")))
    match.apply(Trade(seat, UNSEEN, "numbers", under="numbers"))
    match.apply(Draw(UNSEEN))
    fix = fix_reading(match, seat, cards("6 7"))
    assert (fix.dropped, fix.takes_back) == (2, True)
    assert fix.match.state.players[seat].area == cards("6 7")
    assert not any(isinstance(a, Trade) for a in fix.match.history)


def test_mecs_fix_reading_refuses_an_area_no_move_set_and_a_wrong_fix() -> None:
    """No move set the area: nothing to fix ("mecs.take_back"); a fix the rules refuse
    (an objective card in an area) is refused as the reading would be."""
    match = camera_match_at_plant()
    seat = match.state.active
    with pytest.raises(IllegalMove, match="no move set this area"):
        fix_reading(match, seat, cards("4"))
    match.apply(Observe(seat, cards("4")))
    with pytest.raises(IllegalMove, match="objective card"):
        fix_reading(match, seat, ("4", "OBJ4"))


def test_mecs_area_owner_is_the_area_each_action_changes() -> None:
    """A plant or reorder changes its player's own area (MECS-4), a hack its target's
    (MECS-5), a camera reading the area it is of; a trade or a draw changes no area."""
    assert area_owner(Plant(1, ("7",))) == 1
    assert area_owner(Reorder(2, ("7", "EQ"))) == 2
    assert area_owner(Hack(0, 3, ("7", "EQ", "7"))) == 3
    assert area_owner(Observe(2, ("1",))) == 2
    assert area_owner(Trade(1, "7", "numbers")) is None
    assert area_owner(Draw("4")) is None


def test_mecs_camera_codes_are_read_or_refused_never_guessed() -> None:
    assert read_card("MT1:MECS:7") == "7"
    assert read_card("MT1:MECS:EQ") == "EQ"
    assert read_card("=") == "EQ" and read_card("÷") == "DIV" and read_card("SQ") == "SQ"
    assert read_card("MT1:MECS:OBJ3") == "OBJ3"
    for other in ("MT1:ATK:+5", "C17", "?", "", "MT1:MECS:11", "QS"):
        assert read_card(other) is None
