"""The M.E.C.S. bot: it finds the best plant or hack from its hand (two-card completions
that reorder its own area, hacks on other areas), plays whole games in every mode, and
``bench`` reports its figures."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tabletop import cli
from tabletop.bots.mecs import (
    GAME,
    LEVEL_NAMES,
    LEVELS,
    _scrambled,
    arrangements,
    best_move,
    decide,
    make_plan,
    match_up,
    play_game,
    readable,
    side_values,
    templates,
)
from tabletop.games.mecs import (
    EndTurn,
    Hack,
    MecsSettings,
    Plant,
    Refill,
    Trade,
    is_subsequence,
)
from tabletop.games.mecs_equation import evaluate
from tests.games.test_mecs_support import cards, table


def test_bot_two_card_completion_reorders_its_own_area() -> None:
    state = table(["4 7 9 DIV", "1 2 5 6"], ["EQ 3 +", ""])
    choice = best_move(state, 0)
    assert isinstance(choice.action, Plant)
    assert Counter(choice.action.area) == Counter(cards("3 + 4 EQ 7"))
    assert evaluate(choice.action.area).valid and choice.coins == 5
    after, _events = GAME.apply(state, choice.action)
    assert after.coins(0) == 5


def test_bot_one_card_completion() -> None:
    state = table(["8 1", "1 2 5 6"], ["2 X 4 EQ", ""])
    choice = best_move(state, 0)
    assert choice.action == Plant(0, cards("2 X 4 EQ 8")) and choice.coins == 5


def test_bot_prefers_the_hack_worth_more() -> None:
    """Its own area completes for 5 coins; hacking Player 2's 12 x 3 = 3_ is worth 7."""
    state = table(["4 7 6 1", "1 2 5 9", "0 0"], ["EQ 3 +", "1 2 X 3 EQ 3", "5 +"])
    choice = best_move(state, 0)
    assert choice.action == Hack(0, 1, cards("1 2 X 3 EQ 3 6")) and choice.coins == 7
    after, _ = GAME.apply(state, choice.action)
    assert after.coins(0) == 7 and after.players[1].area == ()


def test_bot_hacks_with_two_cards() -> None:
    state = table(["9 EQ 1", "1 2 5 6"], ["", "3 X 3"])
    choice = best_move(state, 0)
    assert isinstance(choice.action, Hack) and choice.action.target == 1
    assert len(choice.action.area) == 5 and choice.coins == 5  # 3 x 3 = 9 or 3 = 1 x 3
    after, _ = GAME.apply(state, choice.action)
    assert after.coins(0) == 5


def test_bot_plants_toward_a_plan_without_a_win() -> None:
    state = table(["3 4 + 8 8", "1 2 5 6"], ["", ""])
    action = decide(state, 0)
    assert isinstance(action, Plant) and 1 <= len(action.area) <= 2
    assert set(action.area) <= {"3", "4", "+", "8"}
    GAME.apply(state, action)


def test_bot_passes_with_an_empty_hand_and_refills_from_a_stack() -> None:
    assert decide(table(["", "1 2"]), 0) == EndTurn(0)
    state = table(["1 2 3", "4 5 6 7 8"], phase="refill")
    action = decide(state, 0)
    assert isinstance(action, Refill)
    GAME.apply(state, action)


def test_bot_after_planting_one_completes_trades_or_ends() -> None:
    state = table(["7 LP", "1 2 5 6"], ["3 + 4 EQ", ""], phase="planted", planted=1)
    assert decide(state, 0) == Plant(0, cards("3 + 4 EQ 7"))
    junk = table(["3 SQRT LP RP", "1 2 5 6"], ["3 +", ""], phase="planted", planted=1)
    action = decide(junk, 0)
    assert isinstance(action, Trade | EndTurn)
    GAME.apply(junk, action)


def test_bot_search_helpers() -> None:
    found = [v.cards for v in arrangements(Counter(cards("7 EQ 4 + 3")), 5000)]
    assert cards("3 + 4 EQ 7") in found and cards("7 EQ 4 + 3") in found
    assert all(evaluate(seq).valid for seq in found)
    values = dict(side_values(tuple(sorted(Counter(cards("1 0 DIV 1 + 3 + 7")).items()))))
    assert 20 in values and evaluate([*values[20], "EQ", "2", "0"]).valid  # type: ignore[index]


def test_bot_templates_are_valid_equations() -> None:
    plans = templates()
    assert len(plans) > 1000
    for t in plans[:: max(1, len(plans) // 300)]:
        verdict = evaluate(t.cards)
        assert verdict.valid and verdict.answer == t.answer and verdict.coins == t.coins


@pytest.mark.parametrize(
    "s",
    [MecsSettings(), MecsSettings(deck="beginners"), MecsSettings(mode="challenge", objectives=1)],
    ids=["advanced", "beginners", "challenge"],
)
def test_bot_plays_whole_games(s: MecsSettings) -> None:
    state = play_game(5, 3, bots=(0, 1, 2), settings=s)
    result = GAME.result(state)
    assert result is not None
    assert max(p.coins for p in state.players) > 0


def test_bot_beats_random_players() -> None:
    wins = 0
    for seed in range(3):
        state = play_game(seed, 3, bots=(seed % 3,))
        result = GAME.result(state)
        assert result is not None
        wins += result.places[seed % 3] == 1 and sum(p == 1 for p in result.places) == 1
    assert wins >= 2


@pytest.mark.slow
def test_bench_command_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """MECS-12: `tabletop bench --game mecs` gives each level against random legal
    players and against each other level, with win rate, coins per turn and move time
    (median, p90). (One bench, read through the command: it is the slowest test here.)"""
    assert cli.main(["bench", "--game", "mecs", "--games", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "mecs" and figures["games"] == 1
    assert set(figures["vs_random"]) == set(LEVELS)
    for level in LEVELS:
        entry = figures["vs_random"][level]
        assert entry["players"] == 3 and sum(entry["endings"].values()) == 1
        bot = entry["bot"]
        assert 0 <= bot["win_rate"] <= 1 and bot["mean_coins_per_turn"] >= 0
        assert bot["move_ms_median"] > 0 and bot["move_ms_p90"] >= bot["move_ms_median"]
        assert "move_ms_median" not in entry["random_legal"]
    assert set(figures["match_ups"]) == {"easy_vs_medium", "easy_vs_hard", "medium_vs_hard"}
    for name, entry in figures["match_ups"].items():
        a, b = name.split("_vs_")
        assert entry["players"] == 2 and {a, b} < set(entry)
        assert entry[a]["win_rate"] + entry[b]["win_rate"] + entry[a]["shared_first_rate"] == 1
        assert entry[a]["moves_timed"] > 0 and entry[b]["moves_timed"] > 0


# -- MECS-12: levels -----------------------------------------------------------------------------


def test_mecs12_three_levels_and_an_unknown_level_is_refused() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    assert set(LEVEL_NAMES) == set(LEVELS)
    state = table(["4 7 9 DIV", "1 2 5 6"], ["EQ 3 +", ""])
    assert decide(state, 0) == decide(state, 0, "hard")  # hard is the bot as it was
    with pytest.raises(ValueError, match=r"unknown M\.E\.C\.S\. bot level"):
        decide(state, 0, "standard")


def test_mecs12_easy_never_hacks_medium_and_hard_do() -> None:
    state = table(["3 4", "1 2"], ["", "6 X 9 EQ 5"])
    for level in ("medium", "hard"):
        assert isinstance(decide(state, 0, level), Hack)
    easy = decide(state, 0, "easy")
    assert isinstance(easy, Plant) and easy.seat == 0


def test_mecs12_easy_plants_the_first_valid_equation_not_the_most_coins() -> None:
    """Area ``2 x 3 =``: the 6 completes it (the first found: one card before two); the
    medium bot finds ``2 1 = 3 x 7``, one coin more."""
    state = table(["7 1 6 +", "7 8"], ["2 X 3 EQ", ""])
    assert decide(state, 0, "easy") == Plant(0, cards("2 X 3 EQ 6"))
    medium = decide(state, 0, "medium")
    assert isinstance(medium, Plant) and evaluate(medium.area).valid
    assert evaluate(medium.area).coins == 6


def test_mecs12_easy_and_medium_keep_the_area_readable_hard_scrambles() -> None:
    """Without a win: the easy and medium bots plant in the order their planned
    equation reads; the hard bot puts symbols first so nobody can hack it."""
    state = table(["9 X 1 8 8", "2 2"], ["", ""])
    plan = make_plan(state, 0, Counter(state.players[0].hand))
    assert plan is not None
    for level in ("easy", "medium"):
        action = decide(state, 0, level)
        assert isinstance(action, Plant)
        assert action.area == readable((), plan.plant, plan.template.cards)
        assert is_subsequence(action.area, plan.template.cards)
    hard = decide(state, 0, "hard")
    assert isinstance(hard, Plant) and hard.area == _scrambled(plan.plant)


def test_mecs12_readable_orders_by_the_planned_equation() -> None:
    equation = cards("9 X 7 EQ 6 3")
    assert readable(cards("EQ 9"), cards("X"), equation) == cards("9 X EQ")
    assert readable(cards("3 +"), cards("9"), equation) == cards("9 3 +")
    assert readable(cards("+ 1"), cards("2"), ()) == cards("+ 1 2")


def test_mecs12_easy_loses_to_medium_and_hard_beats_medium_in_seeded_games() -> None:
    """A few seeded games (the bots are deterministic); the bench measures the rates."""
    easy_medium = match_up("easy", "medium", 4)
    assert easy_medium["easy"]["win_rate"] < easy_medium["medium"]["win_rate"]
    medium_hard = match_up("medium", "hard", 4)
    assert medium_hard["hard"]["win_rate"] > medium_hard["medium"]["win_rate"]
