"""Golden Math Wars Meta hands, card by card: the rule book's two examples, Math Wars one
and two levels deep, Option 1 against Option 2, teams, and knock-outs in the middle of a
war. Each hand is played through the engine (as the camera would answer) and, where
the hand fits its input, through ``tabletop check`` too."""

from __future__ import annotations

from collections import Counter

from tabletop.games.math_wars_meta import cards_conserved, check
from tests.games.test_math_wars_meta_play import Table, card, duos, pvp


def lost_events(table: Table) -> dict[int, tuple[int, int]]:
    """seat -> (battle-pile cards, difference d) from the ``mwm.lost_hand`` events."""
    return {
        e.seat: (e.data["battle"], e.data["difference"])
        for e in table.events
        if e.code == "mwm.lost_hand" and e.seat is not None
    }


def test_golden_rule_book_example_1_loses_6_cards() -> None:
    """Example #1: 21 - 5 = 16 against 15 + 6 = 21: the battle card plus 5 = 6 cards."""
    t = Table(pvp(), 2)
    t.hand({0: (21, "-5"), 1: (15, "+6")})
    assert lost_events(t) == {0: (1, 5)}
    assert len(t.zone(0).draw) == 25 - 6
    assert len(t.zone(0).spoils) == 6 and card(0, 21) in t.zone(0).spoils
    assert t.zone(1).spoils == (card(1, 15),) and len(t.zone(1).draw) == 24
    assert t.zone(0).crate_discard == ("-5",) and t.zone(1).crate_discard == ("+6",)
    assert t.state.hands == 1 and t.state.phase == "reveal"
    assert cards_conserved(t.state)
    out = check(
        {
            "edition": "MWM25",
            "mode": "pvp",
            "players": [{"count": [21], "crate": ["-5"]}, {"count": [15], "crate": ["+6"]}],
        }
    )
    assert out["results"] == [16, 21]
    assert out["winner"] == 1
    assert out["cards_lost"] == [6, 0]
    assert out["differences"] == [5, 0]


def test_golden_rule_book_example_2_negative_result_loses_16_cards() -> None:
    """Example #2: 6 - 9 = -3 against 5 + 7 = 12: 1 + 12 + 3 = 16 cards."""
    t = Table(pvp(), 2)
    t.hand({0: (6, "-9"), 1: (5, "+7")})
    assert lost_events(t) == {0: (1, 15)}
    assert len(t.zone(0).draw) == 25 - 16
    out = check(
        {
            "edition": "MWM25",
            "players": [{"count": [6], "crate": ["-9"]}, {"count": [5], "crate": ["+7"]}],
        }
    )
    assert out["results"] == [-3, 12] and out["cards_lost"] == [16, 0]


def test_golden_math_war_one_level_deep() -> None:
    """5 x 2 = 8 + 2 = 10 tie; seat 3 has 4 + 1 = 5. War: 3 down, 1 up: 20 + 1 = 21
    beats 9 + 3 = 12. Seat 2 loses 5 battle cards + 9; seat 3 (outside the war) loses
    1 + (10 - 5) using the highest before the war (MWM-4)."""
    t = Table(pvp(), 3)
    t.reveal({0: (5, "x2"), 1: (8, "+2"), 2: (4, "+1")})
    t.solve()
    assert "mwm.math_war" in t.codes()
    assert t.state.stage.kind == "war" and t.state.stage.seats == (0, 1)
    t.reveal({0: (20, "+1"), 1: (9, "+3")})
    downs = Counter(e.seat for e in t.events if e.code == "mwm.count_down")
    assert downs == {0: 3, 1: 3}
    t.solve()
    t.pay()
    assert lost_events(t) == {1: (5, 9), 2: (1, 5)}
    assert len(t.zone(0).draw) == 20 and len(t.zone(0).spoils) == 5
    assert len(t.zone(1).draw) == 25 - 14 and len(t.zone(1).spoils) == 14
    assert len(t.zone(2).draw) == 25 - 6
    assert t.zone(1).crate_discard == ("+2", "+3")
    assert cards_conserved(t.state)
    out = check(
        {
            "edition": "MWM25",
            "players": [
                {"count": [5, 20], "crate": ["x2", "+1"]},
                {"count": [8, 9], "crate": ["+2", "+3"]},
                {"count": [4], "crate": ["+1"]},
            ],
        }
    )
    assert out["results"] == [21, 12, 5]
    assert out["winner"] == 0
    assert out["cards_lost"] == [0, 14, 6]


def test_golden_math_war_two_levels_deep() -> None:
    """7 + 3 = 5 x 2; then 12 - 2 = 20 / 2 = 10 again; then 5 down, 1 up: 25 x 1 = 25
    loses to 24 + 4 = 28. The loser's battle pile is 1 + 4 + 6 = 11, plus 3."""
    t = Table(pvp(), 2)
    t.reveal({0: (7, "+3"), 1: (5, "x2")})
    t.solve()
    t.reveal({0: (12, "-2"), 1: (20, "/2")})
    t.solve()
    war_events = [e for e in t.events if e.code == "mwm.math_war"]
    assert [e.data["level"] for e in war_events] == [1, 2]
    assert "5 cards face down" in war_events[1].text
    t.reveal({0: (25, "x1"), 1: (24, "+4")})
    downs = Counter(e.seat for e in t.events if e.code == "mwm.count_down")
    assert downs == {0: 8, 1: 8}
    t.solve()
    t.pay()
    assert lost_events(t) == {0: (11, 3)}
    assert len(t.zone(0).draw) == 25 - 14 and len(t.zone(1).spoils) == 11
    out = check(
        {
            "edition": "MWM25",
            "players": [
                {"count": [7, 12, 25], "crate": ["+3", "-2", "x1"]},
                {"count": [5, 20, 24], "crate": ["x2", "/2", "+4"]},
            ],
        }
    )
    assert out["results"] == [25, 28] and out["winner"] == 1 and out["cards_lost"] == [14, 0]
    stopped = check(
        {
            "edition": "MWM25",
            "players": [
                {"count": [7, 12], "crate": ["+3", "-2"]},
                {"count": [5, 20], "crate": ["x2", "/2"]},
            ],
        }
    )
    assert stopped["winner"] is None and stopped["war"] == [0, 1]
    assert stopped["cards_lost"] == [None, None]


# Three hands: seat 1 wins 21 to 2 (seat 2 owes 19), seat 2 wins 27 to 22 (seat 1 owes
# 5), seat 1 wins 25 to 22 (seat 2 owes 3 and so empties its draw pile).
HAND_1 = {0: (20, "+1"), 1: (1, "+1")}
HAND_2 = {0: (19, "+3"), 1: (25, "+2")}
HAND_3 = {0: (23, "+2"), 1: (22, "x1")}


def test_golden_option_1_losers_keep_their_cards_dead_in_their_own_spoils() -> None:
    t = Table(pvp(discard_option=1), 2)
    t.hand(HAND_1)
    assert sorted(t.zone(1).spoils) == [card(1, n) for n in range(1, 21)]
    assert t.zone(0).spoils == (card(0, 20),) and len(t.zone(1).draw) == 5
    t.hand(HAND_2)
    assert sorted(t.zone(0).spoils) == [card(0, n) for n in (1, 2, 3, 4, 5, 19, 20)]
    t.hand(HAND_3)
    # seat 2 paid 1 + 19, then 1 + 3: its draw pile is empty, it is out, seat 1 wins.
    assert lost_events(t)[1] == (1, 3)
    assert t.state.rounds[0].winner == 0 and t.state.rounds[0].how == "last_standing"
    assert "mwm.knocked_out" in t.codes()
    assert t.state.victories == (1, 0) and t.state.round == 2
    assert "mwm.spoils_reshuffle" not in t.codes()


def test_golden_option_2_losers_cards_go_to_the_winner_and_spoils_come_back() -> None:
    t = Table(pvp(discard_option=2), 2)
    t.hand(HAND_1)
    # seat 2's battle card and 19 lowest draw cards (2..20) are now seat 1's spoils
    assert sorted(t.zone(0).spoils) == sorted(
        [card(0, 20), card(1, 1)] + [card(1, n) for n in range(2, 21)]
    )
    assert t.zone(1).spoils == () and len(t.zone(1).draw) == 5
    t.hand(HAND_2)
    assert sorted(t.zone(1).spoils) == sorted(
        [card(1, 25), card(0, 19)] + [card(0, n) for n in range(1, 6)]
    )
    t.hand(HAND_3)
    # seat 2 paid its last three draw cards: not out, its spoils still play (MWM-5)
    assert t.zone(1).draw == () and len(t.zone(1).spoils) == 7
    assert not t.zone(1).out and t.state.round == 1
    request_before = t.state.stage.todo
    assert (1, "up") in request_before
    t.reveal({0: (18, "+6"), 1: ((1, 19), "+5")})
    assert "mwm.spoils_reshuffle" in t.codes()
    assert (1, 19) in t.zone(1).battle and len(t.zone(1).draw) == 6
    assert cards_conserved(t.state)


def test_golden_teams_duos_team_solutions_and_d_per_team() -> None:
    """Team 1: 10 + 2 = 12 and 3 + 1 = 4 -> 16; team 2: 5 + 5 = 10 and 2 x 2 = 4 -> 14.
    Every player of team 2 gives up the battle card plus 16 - 14 = 2 (MWM-7)."""
    t = Table(duos(), 4)
    t.reveal({0: (10, "+2"), 1: (3, "+1"), 2: (5, "+5"), 3: (2, "x2")})
    entries = [e for e in t.solve() if e.code.startswith("mwm.solution")]
    assert {e.data["team_answer"] for e in entries if e.seat in (0, 1)} == {16}
    assert {e.data["team_answer"] for e in entries if e.seat in (2, 3)} == {14}
    t.pay()
    assert lost_events(t) == {2: (1, 2), 3: (1, 2)}
    assert [len(t.zone(s).spoils) for s in range(4)] == [1, 1, 3, 3]
    out = check(
        {
            "edition": "MWM25",
            "mode": "teams",
            "teams": [[0, 1], [2, 3]],
            "players": [
                {"count": [10], "crate": ["+2"]},
                {"count": [3], "crate": ["+1"]},
                {"count": [5], "crate": ["+5"]},
                {"count": [2], "crate": ["x2"]},
            ],
        }
    )
    assert out["winner"] == 0 and out["team_solutions"] == [16, 14]
    assert out["cards_lost"] == [0, 0, 3, 3]


def test_golden_teams_option_2_best_teammate_collects() -> None:
    t = Table(duos(discard_option=2), 4)
    t.hand({0: (10, "+2"), 1: (3, "+1"), 2: (5, "+5"), 3: (2, "x2")})
    assert sorted(t.zone(0).spoils)[:1] == [card(0, 10)]
    assert len(t.zone(0).spoils) == 1 + 3 + 3 and t.zone(1).spoils == (card(1, 3),)
    assert t.zone(2).spoils == () and t.zone(3).spoils == ()


def test_golden_teams_option_2_tied_teammates_war_for_who_collects() -> None:
    """6 + 2 = 4 x 2 = 8: the teammates hold a Math War; 10 + 1 = 11 beats 9 + 1 = 10,
    so seat 1 collects and seat 2's war cards go to its own spoils (MWM-7)."""
    t = Table(duos(discard_option=2), 4)
    t.reveal({0: (6, "+2"), 1: (4, "x2"), 2: (1, "+1"), 3: (2, "+1")})
    t.solve()
    assert t.state.stage.kind == "collect" and t.state.stage.seats == (0, 1)
    t.reveal({0: (10, "+1"), 1: (9, "+1")})
    t.solve()
    t.pay()
    assert "mwm.collector" in t.codes()
    assert len(t.zone(1).spoils) == 5 and all(army == 2 for army, _ in t.zone(1).spoils)
    # seat 1: its own 5 war cards, and team 2's 2 x (1 + 16 - 5)
    assert len(t.zone(0).spoils) == 5 + 2 * (1 + 11)
    assert cards_conserved(t.state)


def test_golden_teams_math_war_between_teams() -> None:
    """5 + 5 and 2 + 2 = 14 = 7 + 3 and 8 - 4: all four go to war; 21 + 4 beats
    12 + 12, so each player of team 2 loses 5 battle cards + 1."""
    t = Table(duos(), 4)
    t.reveal({0: (5, "+5"), 1: (2, "+2"), 2: (7, "+3"), 3: (8, "-4")})
    t.solve()
    assert t.state.stage.kind == "war" and t.state.stage.seats == (0, 1, 2, 3)
    t.reveal({0: (20, "+1"), 1: (3, "+1"), 2: (10, "+2"), 3: (11, "+1")})
    t.solve()
    t.pay()
    assert lost_events(t) == {2: (5, 1), 3: (5, 1)}
    out = check(
        {
            "edition": "MWM25",
            "mode": "teams",
            "teams": [[0, 1], [2, 3]],
            "players": [
                {"count": [5, 20], "crate": ["+5", "+1"]},
                {"count": [2, 3], "crate": ["+2", "+1"]},
                {"count": [7, 10], "crate": ["+3", "+2"]},
                {"count": [8, 11], "crate": ["-4", "+1"]},
            ],
        }
    )
    assert out["team_solutions"] == [25, 24] and out["cards_lost"] == [0, 0, 6, 6]


def test_golden_knock_out_in_the_middle_of_a_war_short_of_cards() -> None:
    """Seat 2 has 3 cards; after a tie it has 2: 1 face down and 1 face up (MWM-4). It
    loses the war, cannot pay and is out: seat 1 wins the round (MWM-6)."""
    t = Table(pvp(), 2)
    t.rig(1, [1, 2, 3])
    t.reveal({0: (5, "+1"), 1: (3, "+3")})
    t.solve()
    t.reveal({0: (20, "+2"), 1: (2, "+1")})
    short = [e for e in t.events if e.code == "mwm.short_for_war"]
    assert [(e.seat, e.data["cards"]) for e in short] == [(1, 2)]
    downs = Counter(e.seat for e in t.events if e.code == "mwm.count_down")
    assert downs == {0: 3, 1: 1}
    t.solve()
    t.pay()
    assert lost_events(t) == {1: (3, 19)}
    assert "mwm.gave_everything" in t.codes() and "mwm.knocked_out" in t.codes()
    assert t.state.rounds[0].winner == 0 and t.state.victories == (1, 0)
    # round 2 starts from full decks
    assert t.state.round == 2 and len(t.zone(1).draw) == 25 and not t.zone(1).out


def test_golden_knock_out_mid_war_with_no_card_three_players_play_on() -> None:
    """Seat 2 turned up its last card into a tie: it has none for the war and loses it;
    seats 1 and 3 play on in the round."""
    t = Table(pvp(), 3)
    t.rig(1, [9])
    t.reveal({0: (4, "+5"), 1: (9, "x1"), 2: (2, "+1")})
    t.solve()
    assert "mwm.no_cards_for_war" in t.codes()
    assert t.state.stage.lacking == (1,)
    t.reveal({0: (10, "+1")})
    t.solve()
    t.pay()
    assert lost_events(t) == {2: (1, 6), 1: (1, 2)}
    assert t.zone(1).out and not t.zone(2).out and t.state.round == 1
    assert t.state.stage.seats == (0, 2)
