"""Property tests: random seeded Math Wars Meta games (every mode, both discard options,
Last Man Standing, wrong answers, the moderator's splash) played by virtual players
against the engine's contract: cards are conserved (every card in exactly one pile,
MWM-1), the game always ends, ``tabletop check`` agrees with every hand the engine
settles, and the Match log replays to the same state."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.bots.math_wars_meta import VirtualPlayer
from tabletop.engine import IllegalMove, Match, RngDealer
from tabletop.engine.codec import digest
from tabletop.engine.protocol import Event
from tabletop.games import GAMES
from tabletop.games.math_wars_meta import (
    EDITIONS,
    MathWarsMetaSettings,
    Splash,
    cards_conserved,
    check,
    splash_leader,
)

GAME = GAMES["math-wars-meta"]
PROFILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 60_000  # a real game is a few thousand actions at most


@st.composite
def setups(draw: st.DrawFn) -> tuple[MathWarsMetaSettings, int]:
    mode = draw(st.sampled_from(["solo", "pvp", "pvp", "teams", "teams"]))
    option = draw(st.sampled_from([1, 2]))
    big = draw(st.integers(0, 4)) == 0  # MWM100 now and then, with fewer players
    edition = "MWM100" if big else "MWM25"
    if mode == "solo":
        return MathWarsMetaSettings(edition, "solo"), 1
    if mode == "pvp":
        seats = draw(st.integers(2, 3 if big else 6))
        enter = draw(st.booleans())
        return MathWarsMetaSettings(
            edition, "pvp", discard_option=option, enter_solutions=enter
        ), seats
    size, count = draw(st.sampled_from([(2, 2), (2, 3), (2, 4), (3, 2), (4, 2)]))
    teams = tuple(tuple(range(t * size, (t + 1) * size)) for t in range(count))
    lms = option == 2 and draw(st.booleans())
    s = MathWarsMetaSettings("MWM25", "teams", teams, discard_option=option, last_man_standing=lms)
    return s, size * count


class HandChecker:
    """Cross-checks every settled hand against ``tabletop check``: the face-up reveals
    from the events in, the engine's losses out (hands where someone was short of
    cards, or teammates fought for who collects, are beyond the check's input)."""

    def __init__(self, s: MathWarsMetaSettings, seats: int) -> None:
        self.s, self.seats = s, seats
        self.reveals: dict[int, tuple[list[int], list[str]]] = {}
        self.decided = self.skip = self.collecting = False
        self.expected: dict[int, Any] | None = None
        self.checked = 0

    def reset(self) -> None:
        self.reveals, self.decided, self.skip, self.expected = {}, False, False, None
        self.collecting = False

    def feed(self, events: tuple[Event, ...]) -> None:
        for e in events:
            if e.code in ("mwm.round_start", "mwm.splash"):
                self.reset()
            elif e.code == "mwm.collect_war":
                # teammates' war for who collects: after the hand is decided, before
                # the losses (MWM-7); its cards are not part of the hand's reveals
                self.collecting = True
            elif self.collecting and e.code in ("mwm.count_up", "mwm.crate_up"):
                continue
            elif e.code == "mwm.count_up":
                if self.decided:
                    self.reset()
                assert e.seat is not None
                self.reveals.setdefault(e.seat, ([], []))[0].append(e.data["card"][1])
            elif e.code == "mwm.crate_up":
                assert e.seat is not None
                self.reveals[e.seat][1].append(e.data["crate"])
            elif e.code in ("mwm.short_for_war", "mwm.no_cards_for_war"):
                self.skip = True
            elif e.code == "mwm.hand_won":
                self.decided = True
                if not self.skip and self.s.mode != "solo":
                    self.expected = self._check()
                    assert self.expected["winner"] == e.data["winner"]
                    self.checked += 1
            elif e.code == "mwm.collector":
                self.collecting = False
            elif e.code == "mwm.lost_hand" and self.expected is not None:
                lost = e.data["battle"] + e.data["difference"]
                assert self.expected["cards_lost"][e.seat] == lost

    def _check(self) -> dict[str, Any]:
        players = [
            {"count": self.reveals[seat][0], "crate": self.reveals[seat][1]}
            for seat in sorted(self.reveals)
        ]
        data: dict[str, Any] = {"edition": self.s.edition, "mode": self.s.mode}
        if sorted(self.reveals) != list(range(self.seats)):
            # seats already out: renumber the players still in the hand
            keep = sorted(self.reveals)
            if self.s.mode == "teams":
                raise _Skip
            data["players"] = players
            out = check(data)
            full = dict(zip(keep, out["cards_lost"]))
            winner = keep[out["winner"]]
            return {"winner": winner, "cards_lost": full}
        data["players"] = players
        if self.s.mode == "teams":
            data["teams"] = [list(t) for t in self.s.teams]
        out = check(data)
        return {"winner": out["winner"], "cards_lost": dict(enumerate(out["cards_lost"]))}


class _Skip(Exception):
    pass


def play(
    match: Match[Any, Any, Any],
    seed: int,
    *,
    wrong_rate: float,
    splash_rate: float,
    every_step: Any = None,
) -> int:
    dealer, rnd = RngDealer(seed), random.Random(seed)
    player = VirtualPlayer(random.Random(seed + 1), wrong_rate)
    steps = 0
    while match.result() is None:
        steps += 1
        assert steps <= MAX_ACTIONS, "the game does not end"
        if rnd.random() < splash_rate:
            sides = len(match.state.victories)
            award = (
                rnd.choice([None, rnd.randrange(sides)]) if match.settings.mode != "solo" else None
            )
            if award is not None and award != splash_leader(match.state):
                with pytest.raises(IllegalMove):  # MWM-10: only the hand's winner
                    match.apply(Splash(award))
                award = splash_leader(match.state)
            events = match.apply(Splash(award))
        else:
            pending = match.pending
            if pending.chance is not None:
                assert not pending.seats
                assert pending.chance.outcomes, "a draw from an empty pile"
                events = match.deal(dealer)
            else:
                assert pending.seats, "nobody is pending in an unfinished game"
                seat = rnd.choice(sorted(pending.seats))
                assert GAME.legal_actions(match.state, seat)
                events = match.apply(player.entry(match.state, seat))
        if every_step is not None:
            every_step(match.state, events)
    return steps


@PROFILE
@given(setup=setups(), seed=st.integers(0, 2**32), wrong=st.sampled_from([0.0, 0.3]))
def test_property_cards_conserved_and_every_game_ends(
    setup: tuple[MathWarsMetaSettings, int], seed: int, wrong: float
) -> None:
    """MWM-1: after every action each card is in exactly one pile; MWM-6: every game
    reaches the edition's VICTORY! cards; the result ranks sides by VICTORY! cards."""
    s, seats = setup
    match = Match(GAME, s, seats, seed=seed)
    checker = HandChecker(s, seats)

    def every_step(state: Any, events: tuple[Event, ...]) -> None:
        assert cards_conserved(state)
        try:
            checker.feed(events)
        except _Skip:
            checker.skip = True

    play(match, seed, wrong_rate=wrong, splash_rate=0.0, every_step=every_step)
    state = match.state
    result = match.result()
    assert result is not None
    goal = EDITIONS[s.edition].victory_cards
    assert max(state.victories) == goal and sorted(state.victories)[-2:-1] != [goal]
    for seat in range(seats):
        side = s.side_of(seat)
        assert result.scores[seat] == state.victories[side]
        assert (result.places[seat] == 1) == (state.victories[side] == goal)
    assert sum(r.winner is not None for r in state.rounds) == sum(state.victories)
    assert all(r.hands >= 1 for r in state.rounds if r.how != "splash")
    if s.mode == "solo":
        assert all(r.how == "deck_empty" for r in state.rounds)
        tally = state.tallies[0]
        assert tally.right + tally.wrong == sum(
            t.right + t.wrong for r in state.rounds for t in r.tallies
        )


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**32))
def test_property_replay_of_the_log_gives_the_same_state(
    setup: tuple[MathWarsMetaSettings, int], seed: int
) -> None:
    """The JSON-lines log (settings, every draw, entry and splash) replays to the same
    state, digest by digest."""
    s, seats = setup
    match = Match(GAME, s, seats, seed=seed)
    play(match, seed, wrong_rate=0.2, splash_rate=0.01)
    lines = list(match.log_lines())
    again = Match.replay(lines, GAMES)
    assert again.state == match.state
    assert digest(again.state) == digest(match.state)
    assert again.history == match.history


def test_property_hand_checker_sees_hands() -> None:
    """The cross-check above is not vacuous: a plain game checks many hands, wars too."""
    s = MathWarsMetaSettings("MWM25", "pvp")
    checker = HandChecker(s, 3)
    wars = 0

    def every_step(state: Any, events: tuple[Event, ...]) -> None:
        nonlocal wars
        wars += sum(e.code == "mwm.math_war" for e in events)
        checker.feed(events)

    for seed in range(1, 6):
        match = Match(GAME, s, 3, seed=seed)
        play(match, seed, wrong_rate=0.0, splash_rate=0.0, every_step=every_step)
    assert checker.checked > 20 and wars > 0
