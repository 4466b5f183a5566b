"""Math Wars Meta through its engine, one group of tests per ruling MWM-1..MWM-9
(shared/RULINGS.md), plus the engine's refusals. Hands are scripted card by card with
``tests.games.test_math_wars_meta_play.Table``."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tabletop.engine import BadInput, IllegalMove, ImpossibleOutcome, Match, ScriptedDealer
from tabletop.games.math_wars_meta import (
    CRATE_CARDS,
    EDITIONS,
    CardCode,
    CountDrawn,
    CrateDrawn,
    EnterSolution,
    MathWarsMeta,
    MathWarsMetaSettings,
    Splash,
    answer,
    answer_key,
    card_drawn,
    cards_conserved,
    correct_entry,
    count_code,
    crate_code,
    hand_result,
    parse_code,
    parse_crate,
    problem_text,
    say_result,
    splash_leader,
    team_format,
    team_parts,
)
from tests.games.test_math_wars_meta_play import GAME, Table, card, duos, pvp


def solo(edition: str = "MWM25") -> MathWarsMetaSettings:
    return MathWarsMetaSettings(edition, "solo")


# -- MWM-1 decks -----------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "cards", "victory"), [("MWM25", 25, 4), ("MWM100", 100, 5)])
def test_mwm1_decks_per_player_and_victory_cards(edition: str, cards: int, victory: int) -> None:
    """MWM-1: each player owns COUNT META 1..25 or 1..100 with their army number, and the
    40 MATH CRATE cards; 4 or 5 VICTORY! cards win."""
    t = Table(pvp(edition), 3)
    for seat, zone in enumerate(t.state.zones):
        assert zone.army == seat + 1
        assert sorted(zone.draw) == [(seat + 1, n) for n in range(1, cards + 1)]
        assert sorted(zone.crate_draw) == sorted(CRATE_CARDS)
    assert len(CRATE_CARDS) == 40 and "/0" not in CRATE_CARDS
    assert {f[0] for f in CRATE_CARDS} == {"+", "-", "x", "/"}
    assert EDITIONS[edition].victory_cards == victory
    assert cards_conserved(t.state)


def test_mwm1_card_codes_round_trip() -> None:
    """MWM-1 / DESIGN.md: ``MT1:MWM:C17:3`` and ``MT1:MWM:KX3:2``; unknown codes refused."""
    assert count_code((3, 17)) == "MT1:MWM:C17:3"
    assert crate_code("x3", 2) == "MT1:MWM:KX3:2"
    assert crate_code("/2", 1) == "MT1:MWM:K/2:1"
    code = parse_code("MT1:MWM:C17:3", "MWM25")
    assert (code.kind, code.army, code.number) == ("count", 3, 17)
    crate = parse_code("MT1:MWM:KX3:2")
    assert (crate.kind, crate.army, crate.face) == ("crate", 2, "x3")
    assert parse_code("MT1:MWM:VIC").kind == "victory"
    with pytest.raises(BadInput) as err:
        parse_code("MT1:MWM:C26:1", "MWM25")
    assert err.value.code == "mwm.not_in_edition"
    for bad in ("MT1:MWM:K/0:1", "MT1:MWM:C5:9", "MT1:ATK:+5", "MT1:MWM:Z1:1"):
        with pytest.raises(BadInput):
            parse_code(bad)
    assert parse_crate("X3") == "x3" and parse_crate(" -5 ") == "-5"


def test_mwm1_short_codes_read_as_cards_and_others_are_refused() -> None:
    """MWM-1: a card is also read from the short code it prints or a person types; the
    army is None where the code names none (the table checks the number itself)."""
    assert parse_code("C17", None) == CardCode("count", number=17)
    assert parse_code("c99:3", None) == CardCode("count", 3, number=99)
    assert parse_code("KX3:2") == CardCode("crate", 2, face="x3")
    assert parse_code("K-5").face == "-5" and parse_code("/2").face == "/2"
    assert parse_code("VIC:4") == CardCode("victory", 4)
    for bad, code in (
        ("?", "mwm.bad_code"),
        ("", "mwm.bad_code"),
        ("MT1:ATK:+5", "mwm.other_game"),
        ("K/0", "mwm.bad_code"),
        ("C3:9", "mwm.bad_code"),
        ("C99", "mwm.not_in_edition"),
    ):
        with pytest.raises(BadInput) as err:
            parse_code(bad, "MWM25")
        assert err.value.code == code


# -- MWM-2 a hand's result ---------------------------------------------------------------


def test_mwm2_result_division_remainder_uses_the_count_alone() -> None:
    """MWM-2: count (op) crate; a remainder leaves the count alone; results may be
    negative."""
    assert hand_result(21, "-5") == 16
    assert hand_result(8, "/2") == 4
    assert hand_result(7, "/2") == 7
    assert hand_result(3, "-9") == -6
    assert hand_result(25, "x10") == 250
    t = Table(pvp(), 2)
    t.reveal({0: (7, "/2"), 1: (6, "+1")})
    t.solve()
    texts = [e.text for e in t.events if e.code == "mwm.result"]
    assert any("leaves a remainder, so only the 7 counts" in text for text in texts)
    # 7 alone ties 6 + 1 = 7: a Math War
    assert "mwm.math_war" in t.codes()


def test_mwm2_problem_text_is_the_sum_as_printed() -> None:
    """MWM-2: the sum a COUNT META and a MATH CRATE card make, with the cards' signs (the
    screen's number pad and reasons ask it); the count alone with no MATH CRATE card."""
    assert problem_text(21, "-5") == "21 \u2212 5"
    assert problem_text(7, "/2") == "7 \u00f7 2"
    assert problem_text(3, "x10") == "3 \u00d7 10"
    assert problem_text(9, None) == "9"
    assert say_result(21, "-5") == "21 \u2212 5 = 16"


def test_mwm2_remainder_result_wins_against_lower() -> None:
    t = Table(pvp(), 2)
    t.hand({0: (9, "/2"), 1: (4, "+1")})
    assert [e.data["result"] for e in t.events if e.code == "mwm.result"] == [9, 5]
    assert [e.data["winner"] for e in t.events if e.code == "mwm.hand_won"] == [0]


# -- MWM-3 winning and losing a hand -------------------------------------------------------


def test_mwm3_every_loser_pays_the_difference_to_the_highest() -> None:
    """MWM-3: with three players each loser's d is highest minus their own result."""
    t = Table(pvp(), 3)
    t.hand({0: (10, "+2"), 1: (20, "+1"), 2: (3, "x3")})
    lost = {e.seat: e.data["difference"] for e in t.events if e.code == "mwm.lost_hand"}
    assert lost == {0: 9, 2: 12}
    assert t.zone(1).spoils == (card(1, 20),)


def test_mwm3_crate_cards_go_to_their_owners_discard_and_refill_the_deck() -> None:
    """MWM-3: MATH CRATE cards go to their owner's discard; an empty crate draw pile is
    refilled by shuffling that discard."""
    t = Table(pvp(), 2)
    t.rig(0, range(1, 26), crate_draw=["+1"])
    t.hand({0: (20, "+1"), 1: (19, "+1")})
    assert t.zone(0).crate_draw == () and len(t.zone(0).crate_discard) == 40
    t.reveal({0: (18, "+4"), 1: (25, "+2")})
    assert "mwm.crate_reshuffle" in t.codes()
    assert t.zone(0).crate_battle == ("+4",) and len(t.zone(0).crate_draw) == 39
    assert cards_conserved(t.state)


# -- MWM-4 Math Wars -------------------------------------------------------------------------


def test_mwm4_first_war_three_down_later_wars_five_down() -> None:
    t = Table(pvp(), 2)
    t.reveal({0: (5, "+5"), 1: (6, "+4")})
    t.solve()
    assert [n for s, n in t.state.stage.todo].count("down") == 6
    t.reveal({0: (11, "+1"), 1: (10, "+2")})
    t.solve()
    assert t.state.stage.level == 2
    assert [n for s, n in t.state.stage.todo].count("down") == 10
    t.reveal({0: (20, "+3"), 1: (21, "+3")})
    t.solve()
    t.pay()
    assert t.zone(0).spoils and len(t.zone(1).spoils) == 1 + 4 + 6


def test_mwm4_a_later_tie_among_fewer_players_is_still_five_down() -> None:
    """MWM-4: three tie; in the war two tie again: the second war is 5 + 1."""
    t = Table(pvp(), 3)
    t.reveal({0: (5, "+5"), 1: (6, "+4"), 2: (7, "+3")})
    t.solve()
    t.reveal({0: (11, "+1"), 1: (10, "+2"), 2: (4, "+1")})
    t.solve()
    assert t.state.stage.seats == (0, 1)
    assert [n for s, n in t.state.stage.todo].count("down") == 10
    t.reveal({0: (20, "+3"), 1: (21, "+1")})
    t.solve()
    t.pay()
    lost = {e.seat: e.data["difference"] for e in t.events if e.code == "mwm.lost_hand"}
    # seat 3 lost the first war: d = 12 - 5 (that war's highest); seat 1 the second.
    assert lost == {2: 7, 1: 23 - 22}


def test_mwm4_short_player_puts_down_all_but_one() -> None:
    t = Table(pvp(), 2)
    t.rig(0, [1, 2, 3, 4])
    t.reveal({0: (4, "+4"), 1: (5, "+3")})
    t.solve()
    todo = t.state.stage.todo
    assert todo.count((0, "down")) == 2 and todo.count((1, "down")) == 3
    assert [e.data["cards"] for e in t.events if e.code == "mwm.short_for_war"] == [3]


def test_mwm4_player_with_no_card_loses_the_war() -> None:
    t = Table(pvp(), 2)
    t.rig(0, [4])
    t.reveal({0: (4, "+4"), 1: (5, "+3")})
    t.solve()
    assert t.state.stage.lacking == (0,) and t.state.stage.revealed == (1,)
    t.reveal({1: (20, "+1")})
    t.solve()
    t.pay()
    assert t.state.rounds[0].winner == 1


def test_mwm4_nobody_with_a_card_for_the_war_means_no_winner() -> None:
    """MWM-4 gap: every tied player turned up their last card. Nobody can fight the war,
    the hand has no winner; both are out, so the round has no winner (report, gap 4)."""
    t = Table(pvp(), 2)
    t.rig(0, [5])
    t.rig(1, [5])
    t.reveal({0: (5, "+1"), 1: (5, "+1")})
    t.solve()
    assert "mwm.no_winner" in t.codes() and "mwm.round_void" in t.codes()
    assert t.state.rounds[0].winner is None and t.state.rounds[0].how == "no_winner"
    assert t.state.victories == (0, 0) and t.state.round == 2


# -- MWM-5 discard options -----------------------------------------------------------------


def test_mwm5_option_2_reshuffles_spoils_when_paying() -> None:
    """MWM-5: under Option 2 a loser whose draw pile empties while paying shuffles the
    spoils in and pays on."""
    t = Table(pvp(discard_option=2), 2)
    t.rig(1, [1, 2, 3])
    t.reveal({0: (20, "+1"), 1: (1, "+1")})
    t.solve()
    # seat 2 owes 19: 2 draw cards, then 22 spoils shuffled in (holdings 24 > 19)
    t.pay()
    assert "mwm.spoils_reshuffle" in t.codes()
    assert len(t.zone(0).spoils) == 1 + 20 and len(t.zone(1).draw) == 24 - 19
    assert not t.zone(1).out and cards_conserved(t.state)


def test_mwm5_a_card_shown_without_its_army_is_the_one_its_draw_pile_holds() -> None:
    """A code naming no army (typed in, or a worn QR code) is the seat's own card; under
    Option 2, when only another army's card of that number is in the draw pile, that one."""
    t = Table(pvp(discard_option=2), 2)
    draw = tuple((1, 7) if c == (2, 7) else c for c in t.zone(1).draw)  # won from seat 1
    t.state = replace(t.state, zones=(t.zone(0), replace(t.zone(1), draw=draw)))
    assert (2, 7) not in t.zone(1).draw
    assert card_drawn(t.state, 1, CardCode("count", number=7)) == CountDrawn(1, (1, 7))
    assert card_drawn(t.state, 1, CardCode("count", 2, number=7)) == CountDrawn(1, (2, 7))
    assert card_drawn(t.state, 1, CardCode("count", number=5)) == CountDrawn(1, (2, 5))
    assert card_drawn(t.state, 0, CardCode("crate", face="x3")) == CrateDrawn(0, "x3")


def test_mwm5_option_1_spoils_never_come_back() -> None:
    t = Table(pvp(discard_option=1), 2)
    t.rig(1, [1, 2, 3])
    t.hand({0: (20, "+1"), 1: (1, "+1")})
    assert "mwm.spoils_reshuffle" not in t.codes()
    assert t.state.rounds[0].winner == 0


def test_mwm5_last_man_standing_waits_until_the_teams_last_draw_pile_is_empty() -> None:
    """MWM-5 team option: seat 1's draw pile is empty but seat 2 still has cards, so
    seat 1 sits out with its spoils; once seat 2's draw pile is empty too, both shuffle
    their spoils back in."""
    t = Table(duos(discard_option=2, last_man_standing=True), 4)
    t.reveal({0: (25, "+1"), 1: (1, "+1"), 2: (10, "+1"), 3: (12, "+1")})
    t.rig(0, [])
    t.rig(1, [20])
    t.solve()
    t.pay()
    assert t.zone(0).draw == () and t.zone(0).spoils and not t.zone(0).out
    assert t.state.stage.seats == (1, 2, 3)  # seat 1 waits
    t.reveal({1: (20, "x2"), 2: (15, "+2"), 3: (16, "+2")})
    entries = [e for e in t.solve() if e.code.startswith("mwm.solution")]
    assert {e.data["team_answer"] for e in entries if e.seat == 1} == {40}
    t.pay()
    # both draw piles are empty now: seat 1, first to turn up, shuffles its spoils in
    assert t.state.stage.seats == (0, 1, 2, 3)
    assert t.codes().count("mwm.spoils_reshuffle") == 1
    assert t.zone(1).draw == () and t.zone(1).spoils and t.zone(0).spoils == ()
    t.reveal({0: (25, "+3"), 1: (3, "+3"), 2: (11, "+5"), 3: (13, "+6")})
    assert t.codes().count("mwm.spoils_reshuffle") == 2
    assert cards_conserved(t.state)


def test_mwm5_without_last_man_standing_spoils_come_back_at_once() -> None:
    t = Table(duos(discard_option=2), 4)
    t.reveal({0: (25, "x2"), 1: (1, "+1"), 2: (2, "+1"), 3: (3, "+1")})
    t.rig(0, [])
    t.solve()
    t.pay()
    assert t.state.stage.seats == (0, 1, 2, 3)


# -- MWM-6 knock-outs, rounds and VICTORY! cards -------------------------------------------


def test_mwm6_last_hand_leaving_nobody_goes_to_its_winner() -> None:
    t = Table(pvp(), 2)
    t.rig(0, [20])
    t.rig(1, [1, 2, 3])
    t.hand({0: (20, "x2"), 1: (1, "+1")})
    record = t.state.rounds[0]
    assert (record.winner, record.how, record.hands) == (0, "last_hand", 1)
    assert t.state.victories == (1, 0)


def test_mwm6_new_round_from_full_decks_and_victories_carry_over() -> None:
    t = Table(pvp(), 3)
    t.rig(1, [1])
    t.rig(2, [1])
    t.hand({0: (25, "+1"), 1: (1, "+1"), 2: (1, "+2")})
    assert t.state.round == 2 and t.state.victories == (1, 0, 0)
    assert all(len(z.draw) == 25 and not z.spoils and not z.out for z in t.state.zones)
    assert all(len(z.crate_draw) == 40 for z in t.state.zones)


def test_mwm6_game_ends_at_the_editions_victory_cards() -> None:
    t = Table(pvp(), 2)
    for _ in range(4):
        t.rig(1, [1])
        t.hand({0: (25, "+1"), 1: (1, "+1")})
    assert t.state.finished and t.state.victories == (4, 0)
    result = GAME.result(t.state)
    assert result is not None
    assert result.scores == (Fraction(4), Fraction(0)) and result.places == (1, 2)
    assert result.winners == frozenset({0})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(t.state, Splash())
    assert err.value.code == "mwm.game_over"
    assert GAME.pending(t.state).is_nobody


def test_mwm6_splash_penalty_victory_card_and_reset() -> None:
    """MWM-6: the moderator's penalty VICTORY! card restarts the round and can win."""
    t = Table(pvp(), 2)
    t.hand({0: (20, "+1"), 1: (1, "+1")})
    t.reveal({0: (2, "+2"), 1: (25, "+2")})  # seat 2 is winning the second hand (MWM-10)
    t.act(Splash(award_to=1))
    assert t.state.victories == (0, 1) and t.state.round == 2
    assert t.state.rounds[-1].how == "splash" and t.state.rounds[-1].hands == 1
    assert all(len(z.draw) == 25 for z in t.state.zones)
    t.act(Splash())
    assert t.state.victories == (0, 1) and t.state.round == 3
    for _ in range(3):
        t.reveal({0: (2, "+1"), 1: (25, "+1")})
        t.act(Splash(award_to=1))
    assert t.state.finished and GAME.result(t.state) is not None


@hsettings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 4), hands=st.integers(0, 2), splashes=st.integers(1, 3))
def test_mwm10_a_splash_says_its_round_is_over_and_the_next_round_is_counted(
    seats: int, hands: int, splashes: int
) -> None:
    """The rule book: a splashed round "is immediately considered over" and reset (fresh
    decks, MWM-6). The splash's sentence says which round is over and the next round's
    number follows it, as the round counter has it (walk 28: it said "this round starts
    again", then "Round 2")."""
    t = Table(pvp(), seats)
    for hand in range(hands):
        t.hand({seat: (2 + hand * seats + seat, ("+1", "+2")[hand]) for seat in range(seats)})
    for _ in range(splashes):
        before = t.state.round
        events = t.act(Splash())
        said = {e.code: e for e in events}
        assert said["mwm.splash"].text.endswith(f"round {before} is over.")
        assert said["mwm.round_start"].data["round"] == t.state.round == before + 1
        assert t.state.rounds[-1].number == before and t.state.rounds[-1].how == "splash"


def test_mwm10_splash_penalty_card_only_to_the_side_winning_the_hand() -> None:
    """MWM-10: the penalty VICTORY! card goes only to the side with the highest result
    revealed in the hand; the engine refuses the others, with the reason."""
    t = Table(pvp(), 3)
    t.reveal({0: (5, "+1"), 1: (20, "x2"), 2: (9, "+1")})
    assert splash_leader(t.state) == 1
    for side in (0, 2):
        with pytest.raises(IllegalMove) as err:
            t.act(Splash(award_to=side))
        assert err.value.code == "mwm.splash_not_winner"
        assert "MWM-10" in str(err.value) and "Seat 2 was winning" in str(err.value)
    t.act(Splash(award_to=1))
    assert t.state.victories == (0, 1, 0)


def test_mwm10_splash_before_any_reveal_gives_nobody_a_card() -> None:
    t = Table(pvp(), 2)
    assert splash_leader(t.state) is None
    with pytest.raises(IllegalMove) as err:
        t.act(Splash(award_to=0))
    assert err.value.code == "mwm.splash_not_winner" and "nobody was winning" in str(err.value)
    t.act(Splash())  # a splash without a card is always possible
    assert t.state.victories == (0, 0) and t.state.round == 2


def test_mwm10_splash_with_the_highest_results_tied_gives_nobody_a_card() -> None:
    t = Table(pvp(), 2)
    t.reveal({0: (6, "+1"), 1: (5, "+2")})
    assert splash_leader(t.state) is None
    with pytest.raises(IllegalMove):
        t.act(Splash(award_to=1))


def test_mwm10_splash_in_team_play_goes_to_the_team_with_the_highest_sum() -> None:
    t = Table(duos(2), 4)
    t.reveal({0: (10, "+1"), 1: (10, "+1"), 2: (3, "+1"), 3: (25, "+1")})
    leader = splash_leader(t.state)
    assert leader == t.state.settings.side_of(2)  # 4 + 26 = 30 beats 11 + 11 = 22
    with pytest.raises(IllegalMove):
        t.act(Splash(award_to=t.state.settings.side_of(0)))
    t.act(Splash(award_to=leader))


def test_mwm6_splash_refusals() -> None:
    t = Table(pvp(), 2)
    with pytest.raises(IllegalMove) as err:
        t.act(Splash(award_to=2))
    assert err.value.code == "mwm.no_such_side"
    s = Table(solo(), 1)
    with pytest.raises(IllegalMove) as err:
        s.act(Splash(award_to=0))
    assert err.value.code == "mwm.solo_no_vote"
    s.act(Splash())
    assert s.state.round == 2 and s.state.victories == (0,)


# -- MWM-7 Team v Team -------------------------------------------------------------------------


def test_mwm7_team_formats() -> None:
    assert team_format([[0, 1], [2, 3]]).name == "Duos"
    assert team_format([[0, 1], [2, 3], [4, 5], [6, 7]]).name == "Duos"
    assert team_format([[0, 1, 2], [3, 4, 5]]).name == "Trios"
    assert team_format([[0, 1, 2, 3], [4, 5, 6, 7]]).name == "Quads"
    for bad in ([[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 1], [2, 3, 4]], [[0, 1]], [[0, 0], [1, 2]]):
        with pytest.raises(BadInput):
            team_format(bad)


def test_mwm7_a_team_is_out_only_when_all_its_players_are_out() -> None:
    t = Table(duos(), 4)
    t.rig(2, [1])
    t.hand({0: (20, "+1"), 1: (2, "+1"), 2: (1, "+1"), 3: (25, "-9")})
    assert t.zone(2).out and not t.zone(3).out and t.state.round == 1
    assert t.state.stage.seats == (0, 1, 3)
    # team 2's solution is now seat 4's result alone
    t.reveal({0: (10, "+3"), 1: (3, "+2"), 3: (24, "+1")})
    entries = [e for e in t.solve() if e.code.startswith("mwm.solution")]
    assert {e.data["team_answer"] for e in entries if e.seat == 3} == {25}
    t.pay()
    assert t.state.victories == (0, 0)


def test_mwm7_team_parts_are_the_teams_results_in_this_stage() -> None:
    """The TEAM SOLUTION adds up the results of the seat's team that turned cards up (a
    division with a remainder gives the count alone, MWM-2); the UI asks the engine."""
    t = Table(duos(), 4)
    t.reveal({0: (10, "+2"), 1: (3, "/2"), 2: (5, "+5"), 3: (2, "x2")})
    assert team_parts(t.state, 0) == team_parts(t.state, 1) == (12, 3)
    assert team_parts(t.state, 3) == (10, 4)
    assert correct_entry(t.state, 1) == EnterSolution(1, 3, 15)


def test_mwm7_team_solution_must_be_entered_and_is_checked() -> None:
    t = Table(duos(), 4)
    t.reveal({0: (10, "+2"), 1: (3, "+1"), 2: (5, "+5"), 3: (2, "x2")})
    with pytest.raises(IllegalMove) as err:
        t.act(EnterSolution(0, 12))
    assert err.value.code == "mwm.team_solution_missing"
    events = t.act(EnterSolution(0, 12, 15))
    assert events[0].code == "mwm.solution_wrong" and "TEAM SOLUTION is 16" in events[0].text
    assert t.state.tallies[0].right == 1 and t.state.tallies[0].team_wrong == 1


# -- MWM-8 Solo ---------------------------------------------------------------------------------


def test_mwm8_solo_right_solution_discards_result_plus_battle_card() -> None:
    t = Table(solo(), 1)
    t.reveal({0: (5, "+3")})
    t.act(EnterSolution(0, 8))
    t.pay()
    assert len(t.zone(0).draw) == 25 - 9 and len(t.zone(0).spoils) == 9
    assert t.state.round_tallies[0].right == 1


def test_mwm8_solo_wrong_solution_discards_only_the_battle_card() -> None:
    t = Table(solo(), 1)
    t.reveal({0: (5, "+3")})
    events = t.act(EnterSolution(0, 9))
    assert events[0].code == "mwm.solution_wrong" and "5 + 3 = 8" in events[0].text
    assert len(t.zone(0).draw) == 24 and t.state.round_tallies[0].wrong == 1


def test_mwm8_solo_negative_result_discards_only_the_battle_card() -> None:
    t = Table(solo(), 1)
    t.reveal({0: (3, "-5")})
    t.act(EnterSolution(0, -2))
    assert len(t.zone(0).draw) == 24 and t.state.round_tallies[0].right == 1


def test_mwm8_solo_remainder_discards_both_and_draws_again() -> None:
    t = Table(solo(), 1)
    t.reveal({0: (7, "/2")})
    assert "mwm.solo_redraw" in t.codes()
    assert t.state.phase == "reveal" and t.zone(0).spoils == (card(0, 7),)
    assert t.zone(0).crate_discard == ("/2",) and t.state.hands == 1


def test_mwm8_solo_rounds_time_and_accuracy() -> None:
    """Emptying the draw deck wins a round; 4 rounds win MWM25; each round records its
    right and wrong solutions and its time."""
    t = Table(solo(), 1)
    for r in range(4):
        t.rig(0, [5, 6])
        t.reveal({0: (5, "+1")})
        t.act(EnterSolution(0, 7, at=1000 * r))
        t.reveal({0: (6, "x2")})
        t.act(EnterSolution(0, 12, at=1000 * r + 2500))
        t.pay()
    assert t.state.finished and t.state.victories == (4,)
    record = t.state.rounds[0]
    assert (record.winner, record.how, record.hands) == (0, "deck_empty", 2)
    assert (record.tallies[0].right, record.tallies[0].wrong) == (1, 1)
    assert record.milliseconds == 2500
    result = GAME.result(t.state)
    assert result is not None and result.places == (1,)


def test_mwm8_solo_is_for_one_player() -> None:
    with pytest.raises(BadInput):
        GAME.new_game(solo(), 2)
    with pytest.raises(BadInput):
        MathWarsMetaSettings("MWM25", "solo", enter_solutions=False)


# -- MWM-9 the Answer Key ------------------------------------------------------------------------


def test_mwm9_answer_key_blank_where_division_leaves_a_remainder() -> None:
    key = answer_key("MWM25")
    assert [row.count for row in key] == list(range(1, 26))
    row7 = key[6]
    assert row7.with_crate("/2") is None and row7.with_crate("/7") == 1
    assert row7.with_crate("-9") == -2 and key[24].with_crate("x10") == 250
    page = row7.page()
    assert page[0] == ("n", "+", "−", "×", "÷")
    assert page[2] == ("2", "9", "5", "14", "")
    assert len(page) == 11
    assert len(answer_key("MWM100")) == 100
    assert answer(100, "/3") is None and answer(100, "/4") == 25
    with pytest.raises(BadInput):
        answer_key("MWM50")


# -- refusals ---------------------------------------------------------------------------


def test_engine_refuses_draws_out_of_turn_or_out_of_the_pile() -> None:
    t = Table(pvp(), 2)
    codes = []
    for action in (
        CrateDrawn(0, "+1"),  # the count card comes first
        CountDrawn(1, (2, 5)),  # seat 1 first
        CountDrawn(0, (1, 26)),
        CountDrawn(0, (9, 5)),
        CountDrawn(0, (2, 5)),  # another army's card is not in seat 1's pile
    ):
        with pytest.raises((IllegalMove, ImpossibleOutcome)) as err:
            t.act(action)
        codes.append(err.value.code)
    assert codes == [
        "mwm.not_that_card",
        "mwm.not_that_card",
        "mwm.not_in_edition",
        "mwm.not_in_edition",
        "mwm.not_in_pile",
    ]
    t.act(CountDrawn(0, (1, 5)))
    with pytest.raises(ImpossibleOutcome) as err2:
        t.act(CrateDrawn(0, "/0"))
    assert err2.value.code == "mwm.no_such_crate"
    t.act(CrateDrawn(0, "+1"))
    t.act(CountDrawn(1, (2, 5)))
    t.act(CrateDrawn(1, "+2"))
    with pytest.raises(IllegalMove) as err3:
        t.act(CountDrawn(0, (1, 6)))
    assert err3.value.code == "mwm.solutions_first"


def test_engine_refuses_bad_solutions() -> None:
    t = Table(pvp(), 3)
    with pytest.raises(IllegalMove) as err:
        t.act(EnterSolution(0, 5))
    assert err.value.code == "mwm.not_solving"
    t.reveal({0: (5, "+1"), 1: (5, "+2"), 2: (5, "+3")})
    for action, code in (
        (EnterSolution(7, 5), "mwm.no_such_seat"),
        (EnterSolution(0, 6, 6), "mwm.no_team_solution"),
    ):
        with pytest.raises(IllegalMove) as err:
            t.act(action)
        assert err.value.code == code
    t.act(EnterSolution(0, 6))
    with pytest.raises(IllegalMove) as err:
        t.act(EnterSolution(0, 6))
    assert err.value.code == "mwm.already_entered"
    t.solve()
    assert [e.data["winner"] for e in t.events if e.code == "mwm.hand_won"] == [2]


def test_engine_refuses_a_seat_outside_the_war() -> None:
    t = Table(pvp(), 3)
    t.reveal({0: (5, "+5"), 1: (6, "+4"), 2: (1, "+1")})
    t.solve()
    t.reveal({0: (9, "+1"), 1: (8, "+1")})
    with pytest.raises(IllegalMove) as err:
        t.act(EnterSolution(2, 9))
    assert err.value.code == "mwm.not_in_stage"


def test_settings_refusals() -> None:
    for kwargs in (
        {"edition": "MWM50"},
        {"mode": "coop"},
        {"discard_option": 3},
        {"mode": "pvp", "teams": ((0, 1), (2, 3))},
        {"mode": "teams"},
        {"mode": "teams", "teams": ((0, 1), (2, 3)), "last_man_standing": True},
        {"mode": "pvp", "discard_option": 2, "last_man_standing": True},
    ):
        with pytest.raises(BadInput):
            MathWarsMetaSettings(**kwargs)  # type: ignore[arg-type]
    for settings, seats in ((pvp(), 1), (pvp(), 9), (duos(), 6)):
        with pytest.raises(BadInput):
            GAME.new_game(settings, seats)


def test_enter_solutions_off_the_device_works_out_every_result() -> None:
    """Option ``enter_solutions`` off: no solving step; the hand settles at once."""
    t = Table(pvp(enter_solutions=False), 2)
    t.reveal({0: (21, "-5"), 1: (15, "+6")})
    assert t.state.phase == "pay" and not any(c.startswith("mwm.solution") for c in t.codes())
    t.pay()
    assert t.state.hands == 1 and len(t.zone(0).draw) == 19


def test_legal_actions_list_the_right_entry_first() -> None:
    t = Table(duos(), 4)
    assert GAME.legal_actions(t.state, 0) == []
    t.reveal({0: (10, "+2"), 1: (3, "+1"), 2: (5, "+5"), 3: (2, "x2")})
    actions = GAME.legal_actions(t.state, 0)
    assert actions[0] == EnterSolution(0, 12, 16)
    assert EnterSolution(0, 13, 16) in actions and EnterSolution(0, 12, 17) in actions


def test_match_with_a_scripted_dealer() -> None:
    """The dealer protocol: every draw is a chance request listing the pile's cards."""
    match = Match(MathWarsMeta(), pvp(), 2)
    request = match.pending.chance
    assert request is not None and request.kind == "up" and len(request.outcomes) == 25
    dealer = ScriptedDealer([CountDrawn(0, (1, 21)), CrateDrawn(0, "-5")])
    match.deal(dealer)
    match.deal(dealer)
    request = match.pending.chance
    assert request is not None and request.outcomes[0] == CountDrawn(1, (2, 1))


# -- what the UI asks the engine (issue 21) ---------------------------------------------------


def test_mwm_pending_card_names_the_seat_and_the_draw_then_none_while_solving() -> None:
    from tabletop.games.math_wars_meta import pending_card

    t = Table(pvp(), 2)
    assert pending_card(t.state) == (0, "up")
    t.act(CountDrawn(0, card(0, 5)))
    assert pending_card(t.state) == (0, "crate")
    t.act(CrateDrawn(0, "+1"))
    t.act(CountDrawn(1, card(1, 4)))
    t.act(CrateDrawn(1, "+1"))
    assert t.state.phase == "solve" and pending_card(t.state) is None


def test_mwm6_standings_before_the_end_place_by_cards_still_to_play() -> None:
    """MWM-6: with no VICTORY! card yet, the side with more COUNT META cards to play is
    ahead (the last with cards wins the round); at the end, the engine's result."""
    from tabletop.games.math_wars_meta import standings

    t = Table(pvp(), 2)
    assert standings(t.state).places == (1, 1)
    t.hand({0: (10, "+2"), 1: (4, "+1")})
    t.pay()
    now = standings(t.state)
    assert now.places == (1, 2) and now.scores == (Fraction(0), Fraction(0))
    assert "VICTORY! cards" in now.reason


def test_mwm4_face_down_counts_the_cards_under_a_math_wars_face_up_card() -> None:
    """MWM-4: after a tie, 3 face down and 1 up: under the new face-up card lie the
    earlier battle card and the 3 face-down ones."""
    from tabletop.games.math_wars_meta import face_down

    t = Table(pvp(), 2)
    t.hand({0: (10, "+2"), 1: (6, "x2")})  # 12 and 12: a Math War
    assert "mwm.math_war" in t.codes() and face_down(t.state, 0) == 0
    t.reveal({0: (3, "+1"), 1: (4, "+1")})
    assert face_down(t.state, 0) == 4 and face_down(t.state, 1) == 4
