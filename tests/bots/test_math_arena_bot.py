"""Math Arena bots: every level only puts down legal pairs and decides from its seat's
view alone (not the others' hands, not their face-down cards), the hard bot's opponent
model is right on small cases, and the levels are ordered in strength (seeded)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop.bots.math_arena as bots
from tabletop.bots.math_arena import (
    MathArenaBot,
    _spend_best,
    easy_choice,
    kind_of,
    match_up,
    win_tables,
)
from tabletop.engine import RngDealer
from tabletop.games.math_arena import (
    Choose,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    RevealOperator,
    pair_value,
    play_value,
    seat_view,
)

GAME = MathArena()
CHEAP = {"opponent_samples": 30, "future_samples": 2}


def to_choice(state: MathArenaState, seed: int) -> MathArenaState:
    """Deal and reveal operators (seeded) until seats must choose."""
    dealer = RngDealer(seed)
    while GAME.pending(state).chance is not None:
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    return state


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_bot_never_plays_an_illegal_move(seed: int, players: int) -> None:
    seats = [MathArenaBot(bots.LEVELS[s % 3], seed + s, **CHEAP) for s in range(players)]
    state, dealer = GAME.new_game(MathArenaSettings(), players), RngDealer(seed)
    while state.phase != "over":
        pending = GAME.pending(state)
        if pending.chance is not None:
            state, _ = GAME.apply(state, dealer.deal(pending.chance))
            continue
        for seat in sorted(pending.seats):
            action = seats[seat].choose(state, seat)
            assert action in GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, action)


def test_bot_decides_from_its_view_only() -> None:
    """Seat 0's decision does not change when the other hand is different, nor when
    the other seat has already put down different cards."""
    state = to_choice(GAME.new_game(MathArenaSettings(), 2), 4)
    mine, theirs = state.hands
    undealt = state.undealt()
    other = replace(state, hands=(mine, tuple(undealt[:13])))
    assert seat_view(state, 0) == seat_view(other, 0)
    chose_low, _ = GAME.apply(state, Choose(1, (theirs[0], theirs[1])))
    chose_high, _ = GAME.apply(state, Choose(1, (theirs[-2], theirs[-1])))
    assert seat_view(chose_low, 0) == seat_view(chose_high, 0)
    for level in bots.LEVELS:
        picks = {
            MathArenaBot(level, 9, **CHEAP).choose(s, 0)
            for s in (state, other, chose_low, chose_high)
        }
        assert len(picks) == 1, level


def test_bot_easy_bids_the_best_value_now() -> None:
    state = to_choice(GAME.new_game(MathArenaSettings(), 3), 11)
    view = seat_view(state, 0)
    assert view.operator is not None
    pick = easy_choice(view, random.Random(0))
    values = [
        play_value(view.operator, (a, b))
        for i, a in enumerate(view.hand)
        for b in view.hand[i + 1 :]
    ]
    best = min(values) if view.operator[-1] in "HD" else max(values)
    assert play_value(view.operator, pick.cards) == best


def test_bot_win_tables_on_a_known_hand() -> None:
    """One world where the other seat holds 10, 10, 2: it bids 20 on a black King, so
    20 ties (a share) and anything lower loses; on a red King it bids 12."""
    tables = win_tables([[[2, 10, 10]]], [kind_of("KS"), kind_of("KH")], tie_share=0.5)
    black_king, red_king = tables[0][kind_of("KS")], tables[0][kind_of("KH")]
    assert black_king[20] == 0.5 and black_king[19] == 0.0
    assert red_king[11] == 1.0 and red_king[12] == 0.5 and red_king[13] == 0.0
    # after spending 10 + 10 on the black King, only the 2 is left: no bid at all
    assert tables[1][kind_of("KH")][20] == 1.0


def test_bot_spend_best_matches_the_best_pair() -> None:
    rng = random.Random(5)
    for _ in range(200):
        hand = sorted(rng.randint(1, 10) for _ in range(rng.randint(2, 9)))
        for operator in ("KS", "KH", "QS", "QH", "JS", "JH"):
            kind = kind_of(operator)
            values = [pair_value(operator, a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]]
            best = min(values) if kind % 2 else max(values)
            left = hand[:]
            _spend_best(kind, left)
            spent = list(hand)
            for card in left:
                spent.remove(card)
            assert len(spent) == 2 and pair_value(operator, *spent) == best


def test_bot_refusals() -> None:
    with pytest.raises(ValueError):
        MathArenaBot("expert")
    state = GAME.new_game(MathArenaSettings(), 2)
    with pytest.raises(ValueError):
        MathArenaBot("easy").choose(state, 0)  # still dealing
    camera, _ = GAME.apply(
        GAME.new_game(MathArenaSettings(hidden_hands=True), 2), RevealOperator("KS")
    )
    with pytest.raises(ValueError):
        MathArenaBot("easy").choose(camera, 0)


@pytest.mark.slow
def test_bot_strength_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded games: easy beats random; hard (a cheap setting) beats random and easy."""
    monkeypatch.setattr(bots, "OPPONENT_SAMPLES", CHEAP["opponent_samples"])
    monkeypatch.setattr(bots, "FUTURE_SAMPLES", CHEAP["future_samples"])
    assert match_up("easy", "random", 2, 30)["win_rate"] >= 0.9
    assert match_up("hard", "random", 2, 10)["win_rate"] >= 0.9
    assert match_up("hard", "easy", 2, 40)["win_rate"] >= 0.55


def test_bot_bench_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "OPPONENT_SAMPLES", 20)
    monkeypatch.setattr(bots, "FUTURE_SAMPLES", 1)
    figures = bots.bench(1)
    assert figures["game"] == "math-arena"
    assert figures["hard_samples"] == {"opponents": 20, "futures": 1}
    for players in (2, 3):
        for opponent in ("random", "easy"):
            row = figures[f"hard_vs_{opponent}_{players}p"]
            assert row["players"] == players and row["games"] == 1
            assert row["wins"] + row["draws"] + row["losses"] == 1
            assert row["move_ms"]["median"] <= row["move_ms"]["p90"] <= row["move_ms"]["max"]
