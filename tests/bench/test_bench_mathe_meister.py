"""pytest-benchmark figures for Mathe-Meister (``make bench``); each also checks its answer.

Under ``make test`` benchmarks are disabled and each body runs once as a plain test.
"""

from __future__ import annotations

from typing import Any

import pytest

from tabletop import bench
from tabletop.assets import mathe_meister_layout
from tabletop.bots.mathe_meister import hint
from tabletop.engine.dealers import RngDealer
from tabletop.games.mathe_meister import MatheMeister, MatheMeisterSettings, check

pytestmark = pytest.mark.bench
GAME = MatheMeister()


def mid_game_state() -> Any:
    """Round 4 of a seeded bot game, dice rolled: a typical hint decision."""
    s = MatheMeisterSettings(mathe_meister_layout())
    state, dealer = GAME.new_game(s, 1), RngDealer(21)
    while True:
        request = GAME.pending(state).chance
        if request is not None:
            state, _ = GAME.apply(state, dealer.deal(request))
            if state.round == 4:
                return state
            continue
        for action in bench.hint_bot(state, None, []):  # type: ignore[arg-type]
            state, _ = GAME.apply(state, action)


def test_bench_hint_decision(benchmark: Any) -> None:
    state = mid_game_state()
    advice = benchmark(hint, state, 0)
    assert len(advice.operands) == 2 and len(advice.operators) == 2


def test_bench_random_legal_game(benchmark: Any) -> None:
    s = MatheMeisterSettings(mathe_meister_layout())
    score = benchmark(bench.play_solo, s, 3, bench.random_legal, [])
    assert score == bench.play_solo(s, 3, bench.random_legal, [])


def test_bench_check_full_sheet(benchmark: Any) -> None:
    data = {
        "modes": ["freestyle"],
        "grid": ["3+5+2x2", "xo-o+o-", "6-1-2+4", "-oxo+o+", "3+2x5x1", "+o-o-ox", "4+1+6-2"],
        "stars": ["R1"],
        "star_powers": {"circled": ["coin"], "used": []},
    }
    out = benchmark(check, data, mathe_meister_layout())
    assert out["rows"][0] == 20
