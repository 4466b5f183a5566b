"""Property tests: random legal Math Arena games (2 to 5 players, virtual and camera play)
conserve the number cards in every set and all 12 operator cards, end after every round
is played, agree with ``tabletop check`` on every reveal, and replay from their log."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.engine import Match, RngDealer
from tabletop.engine.codec import digest
from tabletop.games import GAMES
from tabletop.games.math_arena import (
    DEALS,
    NUMBER_CARDS,
    OPERATOR_CARDS,
    DealCard,
    MathArena,
    MathArenaSettings,
    MathArenaState,
    ShowLeftover,
    check,
)

GAME: MathArena = GAMES["math-arena"]  # type: ignore[assignment]
PROFILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(2, 5)


def operators_conserved(state: MathArenaState) -> bool:
    # while tied players show their leftovers, the round's operator is already in the pot
    in_play = state.operator is not None and state.operator not in state.pot
    current = (state.operator,) if in_play and state.operator else ()
    cards = [
        *itertools.chain(*state.won),
        *state.pot,
        *state.removed,
        *state.operators_left,
        *current,
    ]
    return sorted(cards) == sorted(OPERATOR_CARDS)


def numbers_conserved(state: MathArenaState) -> bool:
    if state.settings.hidden_hands:
        return sum(state.hand_sizes) + len(state.played) <= 40 and len(set(state.played)) == len(
            state.played
        )
    held = Counter(itertools.chain(*state.hands))
    every = held + Counter(state.played) + Counter(state.undealt())
    return every == Counter(NUMBER_CARDS) and state.hand_sizes == tuple(len(h) for h in state.hands)


def play_random(seed: int, players: int, hidden: bool) -> Match[Any, Any, Any]:
    match: Match[Any, Any, Any] = Match(
        GAME, MathArenaSettings(hidden_hands=hidden), players, seed=seed
    )
    dealer, rng = RngDealer(seed), random.Random(seed)
    for _ in range(2000):
        if match.result() is not None:
            return match
        pending = match.pending
        if pending.is_chance:
            match.deal(dealer)
        else:
            seat = rng.choice(sorted(pending.seats))
            actions = GAME.legal_actions(match.state, seat)
            assert actions, "a pending seat always has an action"
            events = match.apply(rng.choice(actions))
            for event in events:
                if event.code == "arena.reveal":
                    operator = match._steps[-1].state.operator or match._steps[-2].state.operator
                    assert operator is not None
                    agreed = check({"operator": operator, "plays": event.data["plays"]})
                    assert agreed["values"] == event.data["values"]
        assert operators_conserved(match.state)
        assert numbers_conserved(match.state)
    raise AssertionError("the game did not end")


@PROFILE
@given(seed=SEEDS, players=PLAYERS, hidden=st.booleans())
def test_property_games_end_and_conserve_cards(seed: int, players: int, hidden: bool) -> None:
    match = play_random(seed, players, hidden)
    state = match.state
    deal = DEALS[players]
    assert state.phase == "over" and state.set_number == deal.sets and state.round == deal.rounds
    assert state.operators_left == () and state.pot == ()
    result = match.result()
    assert result is not None
    counts = [len(w) for w in state.won]
    assert list(result.scores) == counts
    assert sum(counts) + len(state.removed) == 12
    best = max(counts)
    assert result.winners == frozenset(s for s, c in enumerate(counts) if c == best)
    reveals = sum(
        1 for step in match._steps for event in step.events if event.code == "arena.reveal"
    )
    assert reveals == 12


@PROFILE
@given(seed=SEEDS, players=PLAYERS, hidden=st.booleans())
def test_property_replay_equals_state(seed: int, players: int, hidden: bool) -> None:
    match = play_random(seed, players, hidden)
    again = Match.replay(list(match.log_lines()), GAMES)
    assert again.state == match.state
    assert digest(again.state) == digest(match.state)


@PROFILE
@given(seed=SEEDS, players=PLAYERS)
def test_property_camera_accepts_what_virtual_play_accepts(seed: int, players: int) -> None:
    """Every choice of a virtual game is also legal when the device cannot see the deal;
    on a last-round tie the tied players show the leftovers the virtual game used."""
    match = play_random(seed, players, False)
    camera = GAME.new_game(MathArenaSettings(hidden_hands=True), players)
    for step in match._steps:
        if isinstance(step.action, DealCard):
            continue
        camera, _ = GAME.apply(camera, step.action)
        if camera.phase == "leftover":
            shown = next(e for e in step.events if e.code == "arena.leftovers")
            for seat in camera.tied:
                camera, _ = GAME.apply(camera, ShowLeftover(seat, shown.data["leftovers"][seat]))
    assert camera.won == match.state.won and camera.removed == match.state.removed
    assert camera.phase == "over"
