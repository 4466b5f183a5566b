"""``tabletop bench``: figures measured, not asserted (engine part).

Seeded solo games for three players — the random legal player (every legal action
equally likely, Coin Shop included), a random placer (random cells and operators, no
coins spent, every star claimed) and the hint bot — with mean and spread of the final
scores, and the hint engine's time per decision.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from tabletop.assets import mathe_meister_layout
from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.engine.dealers import RngDealer
from tabletop.games.mathe_meister import (
    Action,
    ClaimStar,
    EndRound,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    WriteOperand,
    WriteOperator,
)

GAME = MatheMeister()
Player = Callable[[MatheMeisterState, random.Random, list[float]], list[Action]]


def random_legal(state: MatheMeisterState, rng: random.Random, _: list[float]) -> list[Action]:
    return [rng.choice(GAME.legal_actions(state, 0))]


def random_placer(state: MatheMeisterState, rng: random.Random, _: list[float]) -> list[Action]:
    legal = GAME.legal_actions(state, 0)
    writes = [
        a
        for a in legal
        if (isinstance(a, WriteOperand) and a.power is None)
        or (isinstance(a, WriteOperator) and not a.power)
    ]
    if writes:
        return [rng.choice(writes)]
    claims = [a for a in legal if isinstance(a, ClaimStar)]
    return [claims[0]] if claims else [EndRound(0)]


def hint_bot(state: MatheMeisterState, _: random.Random, times: list[float]) -> list[Action]:
    if state.turns[0].writes_done:
        return after_writes(state, 0)
    start = time.perf_counter()
    advice = hint(state, 0)
    times.append(time.perf_counter() - start)
    return list(advice.actions())


PLAYERS: dict[str, Player] = {
    "random_legal": random_legal,
    "random_placer": random_placer,
    "hint_bot": hint_bot,
}


def play_solo(settings: MatheMeisterSettings, seed: int, player: Player, times: list[float]) -> int:
    """One seeded solo game; the dice depend on the seed alone, not on the player."""
    state = GAME.new_game(settings, 1)
    dealer, rng = RngDealer(seed), random.Random(seed ^ 0x5EED)
    while not state.finished:
        request = GAME.pending(state).chance
        if request is not None:
            state, _ = GAME.apply(state, dealer.deal(request))
            continue
        for action in player(state, rng, times):
            state, _ = GAME.apply(state, action)
    result = GAME.result(state)
    assert result is not None
    return int(result.scores[0])


def engine_figures(games: int, modes: tuple[str, ...] = ("freestyle",)) -> dict[str, Any]:
    settings = MatheMeisterSettings(mathe_meister_layout(), modes)
    figures: dict[str, Any] = {
        "game": "mathe-meister",
        "modes": list(settings.modes),
        "games": games,
    }
    for name, player in PLAYERS.items():
        times: list[float] = []
        start = time.perf_counter()
        scores = [play_solo(settings, seed, player, times) for seed in range(games)]
        elapsed = time.perf_counter() - start
        entry: dict[str, Any] = {
            "mean": round(statistics.mean(scores), 1),
            "stdev": round(statistics.pstdev(scores), 1),
            "min": min(scores),
            "median": statistics.median(scores),
            "max": max(scores),
            "seconds": round(elapsed, 2),
        }
        if times:
            times.sort()
            entry["hint_ms_median"] = round(1000 * statistics.median(times), 2)
            entry["hint_ms_p90"] = round(1000 * times[int(0.9 * (len(times) - 1))], 2)
            entry["hint_ms_max"] = round(1000 * times[-1], 2)
        figures[name] = entry
    return figures
