"""Property tests: random legal Math Attack! games (virtual and camera play, either first
player) conserve the 54 cards, end, agree with an independent scorer written here from
ATK-2 and with ``tabletop check``, and replay from their log to the same state."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.engine import Match, RngDealer
from tabletop.engine.codec import digest
from tabletop.games import GAMES
from tabletop.games.math_attack import (
    COPIES,
    MathAttack,
    MathAttackSettings,
    MathAttackState,
    Pass,
    Play,
    check,
)

GAME: MathAttack = GAMES["math-attack"]  # type: ignore[assignment]
PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32)
MAX_ACTIONS = 400  # 54 cards: at most 44 draws + 54 plays + passes


def independent_total(cards: tuple[str, ...]) -> int:
    """ATK-2 restated: each cancel removes the card before it; then apply in order."""
    kept = [c for i, c in enumerate(cards) if c != "CANCEL" and cards[i + 1 : i + 2] != ("CANCEL",)]
    total = 0
    for card in kept:
        if card == "FLIP":
            total = -total
        elif card in ("END", "BLOCK"):
            continue
        elif card[1:] == "H":
            total += abs(total) // 2 if card[0] == "+" else -(abs(total) // 2)
        elif card[1:] == "N":
            total += abs(total) if card[0] == "+" else -abs(total)
        elif card[1:] == "D":
            total += 2 * abs(total) if card[0] == "+" else -2 * abs(total)
        else:
            total += int(card)
    return total


def conserved(state: MathAttackState) -> bool:
    on_lines = Counter(state.lines[0]) + Counter(state.lines[1])
    total = sum(on_lines.values()) + sum(state.hand_sizes) + state.stack_size
    if total != 54:
        return False
    if state.settings.hidden_hands:
        return all(on_lines[c] <= n for c, n in COPIES.items())
    hands = Counter(state.hands[0]) + Counter(state.hands[1])
    return on_lines + hands + state.stack() == Counter(COPIES) and state.hand_sizes == (
        len(state.hands[0]),
        len(state.hands[1]),
    )


def play_random(seed: int, hidden: bool, first: int) -> tuple[Match[Any, Any, Any], int]:
    match: Match[Any, Any, Any] = Match(
        GAME, MathAttackSettings(hidden_hands=hidden, first_player=first), 2, seed=seed
    )
    dealer, rng = RngDealer(seed), random.Random(seed)
    steps = 0
    while match.result() is None:
        assert steps < MAX_ACTIONS, "the game did not end"
        pending = match.pending
        if pending.is_chance:
            match.deal(dealer)
        else:
            (seat,) = pending.seats
            actions = GAME.legal_actions(match.state, seat)
            assert actions, "a seat to play always has an action (a play or a pass)"
            match.apply(rng.choice(actions))
        steps += 1
        assert conserved(match.state)
    return match, steps


@PROFILE
@given(seed=SEEDS, hidden=st.booleans(), first=st.integers(0, 1))
def test_property_games_end_and_conserve_cards(seed: int, hidden: bool, first: int) -> None:
    match, _ = play_random(seed, hidden, first)
    state = match.state
    result = match.result()
    assert result is not None and state.phase == "over"
    assert state.end_by is not None, "a game ends only after a = card"
    for line in (0, 1):
        total = independent_total(state.lines[line])
        assert state.total(line) == total == check({"cards": list(state.lines[line])})["total"]
        assert result.scores[line] == total
    a, b = state.totals
    assert result.places == ((1, 1) if a == b else (1, 2) if a > b else (2, 1))


@PROFILE
@given(seed=SEEDS, hidden=st.booleans())
def test_property_replay_equals_state(seed: int, hidden: bool) -> None:
    match, _ = play_random(seed, hidden, seed % 2)
    lines = list(match.log_lines())
    again = Match.replay(lines, GAMES)
    assert again.state == match.state
    assert digest(again.state) == digest(match.state)
    assert again.history == match.history


@PROFILE
@given(seed=SEEDS)
def test_property_every_legal_action_applies(seed: int) -> None:
    """Along a random game, every action ``legal_actions`` lists is accepted."""
    match, _ = play_random(seed, False, 0)
    for state in [step.state for step in match._steps][::7]:
        pending = GAME.pending(state)
        for seat in pending.seats:
            for action in GAME.legal_actions(state, seat):
                GAME.apply(state, action)


@PROFILE
@given(seed=SEEDS)
def test_property_camera_accepts_what_virtual_play_accepts(seed: int) -> None:
    """Every play of a virtual game is also legal when the device cannot see the hands."""
    match, _ = play_random(seed, False, seed % 2)
    camera = GAME.new_game(MathAttackSettings(hidden_hands=True, first_player=seed % 2), 2)
    for action in match.history:
        if isinstance(action, Play | Pass):
            camera, _ = GAME.apply(camera, action)
    assert camera.lines == match.state.lines
    assert camera.phase == "over"
