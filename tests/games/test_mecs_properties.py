"""Property tests: random legal M.E.C.S. play (any seats, decks, modes, virtual and camera
play) keeps every card accounted for (MECS-1), lists exactly the plants, hacks, trades
and refills that ``apply`` accepts, and replays from its log to the same state; whole
games with bots end (MECS-6) with places that follow the coins."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tabletop.bots.mecs import decide
from tabletop.engine import IllegalMove, ImpossibleOutcome, Match, RngDealer
from tabletop.engine.codec import digest
from tabletop.games import GAMES
from tabletop.games.mecs import (
    STACKS,
    UNSEEN,
    EndTurn,
    Hack,
    Mecs,
    MecsSettings,
    Plant,
    Refill,
    Trade,
    held_cards,
)
from tabletop.games.mecs_equation import PLAY_CARDS
from tests.games.test_mecs_support import full_deck, on_table

GAME: Mecs = GAMES["mecs"]  # type: ignore[assignment]
SEEDS = st.integers(0, 2**32)
PROFILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn, camera: bool = True) -> tuple[int, MecsSettings]:
    seats = draw(st.integers(2, 8))
    mode = draw(st.sampled_from(["normal", "challenge"]))
    deck = "advanced" if mode == "challenge" else draw(st.sampled_from(["beginners", "advanced"]))
    play = draw(st.sampled_from(["virtual", "camera"])) if camera else "virtual"
    ties = draw(st.sampled_from(["reveal_again", "first_seat"]))
    s = MecsSettings(deck=deck, mode=mode, play=play, reveal_ties=ties)  # type: ignore[arg-type]
    return seats, s


def assert_conserved(state: Any) -> None:
    """MECS-1: the deck, wherever its cards are; unseen cards only in hands and stacks."""
    count = on_table(state)
    deck = full_deck(state.settings)
    if state.settings.play == "virtual":
        assert count == deck
    else:
        assert count.total() == deck.total()
        known = count - Counter({UNSEEN: count[UNSEEN]})
        assert not known - deck
        for player in state.players:
            assert UNSEEN not in player.area and UNSEEN not in player.coin_cards
    assert all(len(p.hand) <= 6 for p in state.players)


def choose(rnd: random.Random, actions: list[Any]) -> Any:
    """An action type first, then an action of it: trades, hacks and ends are tried."""
    groups: dict[str, list[Any]] = {}
    for action in actions:
        groups.setdefault(type(action).__name__, []).append(action)
    return rnd.choice(groups[rnd.choice(sorted(groups))])


def candidates(rnd: random.Random, state: Any, seat: int) -> list[Any]:
    """Arbitrary actions, legal or not, of the kinds ``legal_actions`` lists in full."""
    hand = [c for c in held_cards(state, seat) if c != UNSEEN] or ["7"]
    pick = [rnd.choice(hand) if rnd.random() < 0.8 else rnd.choice(PLAY_CARDS) for _ in (0, 1)]
    target = rnd.randrange(state.seats)
    out: list[Any] = [
        Plant(seat, _insert(rnd, state.players[seat].area, pick[: rnd.randint(1, 2)])),
        Hack(seat, target, _insert(rnd, state.players[target].area, pick[: rnd.randint(1, 2)])),
        Trade(seat, pick[0], rnd.choice(STACKS)),
        EndTurn(seat),
        Refill(seat, rnd.choice(STACKS)),
    ]
    return out


def _insert(rnd: random.Random, area: tuple[str, ...], new: list[str]) -> tuple[str, ...]:
    seq = list(area)
    for card in new:
        seq.insert(rnd.randint(0, len(seq)), card)
    return tuple(seq)


@PROFILE
@given(setup=setups(), seed=SEEDS)
def test_property_random_legal_play(setup: tuple[int, MecsSettings], seed: int) -> None:
    seats, s = setup
    match = Match(GAME, s, seats, seed=seed)
    rnd, dealer = random.Random(seed), RngDealer(seed)
    decisions = 0
    limit = 14 if s.play == "camera" else 40
    while match.result() is None and decisions < limit:
        pending = match.pending
        if pending.chance is not None:
            assert not pending.seats
            match.deal(dealer)
            assert_conserved(match.state)
            continue
        decisions += 1
        state = match.state
        assert pending.seats, "nobody is pending in an unfinished game"
        for other in range(seats):
            if other not in pending.seats:
                assert GAME.legal_actions(state, other) == []
        seat = rnd.choice(sorted(pending.seats))
        actions = GAME.legal_actions(state, seat)
        assert actions, f"seat {seat} is pending in phase {state.phase} with nothing to do"
        for action in rnd.sample(actions, min(3, len(actions))):
            GAME.apply(state, action)  # every listed action is accepted
        if s.play == "virtual":
            for action in candidates(rnd, state, seat):
                try:
                    GAME.apply(state, action)
                    accepted = True
                except (IllegalMove, ImpossibleOutcome):
                    accepted = False
                assert accepted == (action in actions), action
        match.apply(choose(rnd, actions))
        assert_conserved(match.state)
    again = Match.replay(list(match.log_lines()), GAMES)
    assert again.state == match.state
    assert digest(again.state) == digest(match.state)


@pytest.mark.slow
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a whole game shrinks too slowly
)
@given(setup=setups(camera=False), seed=SEEDS, wild=st.sampled_from([0.0, 0.05, 0.15]))
def test_property_whole_games_end_with_cards_conserved(
    setup: tuple[int, MecsSettings], seed: int, wild: float
) -> None:
    """Every seat is the bot, which now and then (``wild``) plays a random legal action
    instead: the game ends (15 coins, the objectives, or the cards run out), every card
    is still there, places follow the coins, undo restores, and the log replays to the
    same state."""
    seats, s = setup
    seats, s = min(seats, 3), replace(s, objectives=1)
    match = Match(GAME, s, seats, seed=seed)
    rnd, dealer = random.Random(seed), RngDealer(seed)
    steps = 0
    while match.result() is None:
        steps += 1
        assert steps < 5000, "the game does not end"
        pending = match.pending
        if pending.chance is not None:
            match.deal(dealer)
            continue
        seat = min(pending.seats)
        if rnd.random() < wild:
            action = rnd.choice(GAME.legal_actions(match.state, seat))
        else:
            action = decide(match.state, seat)
        if rnd.random() < 0.05:
            before, history = match.state, match.history
            match.apply(action)
            assert match.undo() == action
            assert match.state is before and match.history == history
        match.apply(action)
    state = match.state
    assert_conserved(state)
    result = GAME.result(state)
    assert result is not None
    coins = [p.coins for p in state.players]
    assert list(result.scores) == coins
    assert result.places == tuple(1 + sum(1 for o in coins if o > c) for c in coins)
    if s.mode == "normal" and "coins" in result.reason:
        assert max(coins) >= s.target_coins
    if s.mode == "challenge" and "objectives" in result.reason:
        assert len(state.met) == s.objectives
    again = Match.replay(list(match.log_lines()), GAMES)
    assert again.state == state
