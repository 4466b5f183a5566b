"""Math Attack! bots: the simulator follows the engine, every level only plays legal
moves and decides from its seat's view alone, and the levels are ordered in strength
(seeded, so every figure here is exact and repeatable)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop.bots.math_attack as bots
from tabletop.bots.math_attack import INDEX, MathAttackBot, _Sim, legal_moves, match_up
from tabletop.engine import RngDealer
from tabletop.games.math_attack import (
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Play,
    seat_view,
)

GAME = MathAttack()
CHEAP = 40  # play-outs per decision for the hard bot in these tests


def dealt(seed: int) -> MathAttackState:
    state = GAME.new_game(MathAttackSettings(first_player=seed % 2), 2)
    dealer = RngDealer(seed)
    while state.phase == "deal":
        request = GAME.pending(state).chance
        assert request is not None
        state, _ = GAME.apply(state, dealer.deal(request))
    return state


def test_bot_simulator_follows_the_engine() -> None:
    """Totals, cancels and legal moves in the bot's simulator match the engine's."""
    for seed in range(40):
        state, dealer, rng = dealt(seed), RngDealer(seed + 1), random.Random(seed)
        while state.phase != "over":
            if state.phase == "draw":
                request = GAME.pending(state).chance
                assert request is not None
                state, _ = GAME.apply(state, dealer.deal(request))
                continue
            view = seat_view(state, state.turn)
            assert sorted(map(repr, legal_moves(view))) == sorted(
                map(repr, GAME.legal_actions(state, state.turn))
            )
            other = [INDEX[c] for c in state.hands[1 - state.turn]]
            sim = _Sim.from_view(view, other, [])
            assert sim.totals == list(state.totals)
            action = rng.choice(GAME.legal_actions(state, state.turn))
            if isinstance(action, Play):
                sim.play(INDEX[action.card], action.line)
            state, _ = GAME.apply(state, action)
            assert sim.totals == list(state.totals)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), level=st.sampled_from(bots.LEVELS))
def test_bot_never_plays_an_illegal_move(seed: int, level: str) -> None:
    players = (MathAttackBot(level, seed, CHEAP), MathAttackBot("random", seed + 1))
    state, dealer = dealt(seed), RngDealer(seed)
    while state.phase != "over":
        if state.phase == "draw":
            request = GAME.pending(state).chance
            assert request is not None
            state, _ = GAME.apply(state, dealer.deal(request))
            continue
        action = players[state.turn].choose(state, state.turn)
        assert action in GAME.legal_actions(state, state.turn)
        state, _ = GAME.apply(state, action)


def test_bot_decides_from_its_view_only() -> None:
    """Two states that look the same to seat 0 (the other hand and the stack differ) get
    the same decision from a bot with the same seed."""
    state = dealt(7)
    if state.turn != 0:
        state = replace(state, turn=0)
    stack = sorted(state.stack().elements())
    swapped = replace(state, hands=(state.hands[0], tuple(stack[:5])))
    assert seat_view(state, 0) == seat_view(swapped, 0)
    assert swapped.hands[1] != state.hands[1]
    for level in bots.LEVELS:
        a = MathAttackBot(level, 3, CHEAP).choose(state, 0)
        b = MathAttackBot(level, 3, CHEAP).choose(swapped, 0)
        assert a == b, level


def test_bot_hard_finds_the_winning_last_reply() -> None:
    """Seat 2 played =; seat 1 is behind 4 to 10 with one turn left. Only +/- on seat 2's
    line (10 -> -10) wins; +5 on its own line would still lose."""
    state = MathAttackState(
        MathAttackSettings(),
        phase="play",
        lines=(("+4",), ("+10", "END")),
        hands=(("+5", "-1", "FLIP"), ("+1",)),
        hand_sizes=(3, 1),
        stack_size=0,
        turn=0,
        end_by=1,
    )
    assert MathAttackBot("hard", 0, CHEAP).choose(state, 0) == Play(0, "FLIP", 1)
    assert MathAttackBot("easy", 0).choose(state, 0) == Play(0, "FLIP", 1)


def test_bot_hard_sizes_up_a_careless_opponent() -> None:
    """The hard bot counts the other seat's plays that hurt their player: against the
    random bot it ends up expecting many random plays, against easy almost none."""
    careless = {}
    for opponent in ("random", "easy"):
        watched = []
        for seed in range(4):
            hard = MathAttackBot("hard", seed, CHEAP)
            other = MathAttackBot(opponent, seed + 1)
            bots.play_game((hard, other), seed)
            watched.append((hard._seen, hard._slips))
        seen = sum(s for s, _ in watched)
        slips = sum(k for _, k in watched)
        assert seen >= 8
        careless[opponent] = slips / seen
    assert careless["random"] >= 0.25 and careless["easy"] <= 0.1


def test_bot_watch_counts_a_self_harming_play() -> None:
    state = MathAttackState(
        MathAttackSettings(),
        phase="play",
        lines=(("+4",), ("+6",)),
        hands=(("+5", "-1"), ("+2", "-3")),
        hand_sizes=(2, 2),
        stack_size=10,
        turn=0,
    )
    bot = MathAttackBot("hard", 0, CHEAP)
    assert bot.careless == 0.5  # a child, careless half the time, until it has seen play
    move = bot.choose(state, 0)
    assert isinstance(move, Play)
    mine = list(state.hands[0])
    mine.remove(move.card)
    lines = list(state.lines)
    lines[move.line] = (*lines[move.line], move.card)
    lines[0] = (*lines[0], "+2")  # the other seat helps seat 1: a slip
    later = replace(
        state, lines=(lines[0], lines[1]), hands=((*mine, "+9"), ("-3",)), hand_sizes=(2, 1)
    )
    bot.choose(later, 0)
    assert (bot._seen, bot._slips) == (1, 1)
    assert bot.careless == 2 * 2 / 5


def test_bot_levels_and_refusals() -> None:
    with pytest.raises(ValueError):
        MathAttackBot("expert")
    state = dealt(2)
    with pytest.raises(ValueError):
        MathAttackBot("easy").choose(state, 1 - state.turn)
    camera = GAME.new_game(MathAttackSettings(hidden_hands=True), 2)
    with pytest.raises(ValueError):
        MathAttackBot("easy").choose(camera, 0)


def test_bot_strength_order() -> None:
    """Seeded games: easy beats random, medium (which keeps its big cards) beats easy,
    and hard (a cheap setting: 100 play-outs, not 500) beats random."""
    assert match_up("easy", "random", 60)["win_rate"] >= 0.85
    assert match_up("medium", "easy", 120)["win_rate"] >= 0.6
    assert match_up("hard", "random", 12, rollouts=100)["win_rate"] >= 0.75


def test_bot_bench_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "HARD_ROLLOUTS", CHEAP)
    figures = bots.bench(2)
    assert figures["game"] == "math-attack" and figures["hard_rollouts"] == CHEAP
    for key in ("hard_vs_random", "hard_vs_easy", "easy_vs_random", "medium_vs_easy"):
        row = figures[key]
        assert row["games"] == 2 and row["wins"] + row["draws"] + row["losses"] == 2
        assert set(row["move_ms"]) == {"median", "p90", "max"}
        assert 0 <= row["move_ms"]["median"] <= row["move_ms"]["p90"] <= row["move_ms"]["max"]
