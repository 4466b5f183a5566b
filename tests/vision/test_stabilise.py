"""The stabiliser with a hand-driven clock: nothing here waits for real time."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.engine.errors import BadInput
from vision.stabilise import Stabiliser, block_change, change, changed_blocks, motion


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 1 / 30) -> None:
        self.now += seconds


def feed(
    stab: Stabiliser, clock: FakeClock, values: list[object], still: bool = True
) -> list[object]:
    out = []
    for v in values:
        clock.tick()
        obs = stab.update("dice", v, still=still)
        out.append(None if obs is None else obs.value)
    return out


def test_stabilise_reports_after_n_equal_frames_once() -> None:
    clock = FakeClock()
    stab = Stabiliser(3, clock=clock)
    assert feed(stab, clock, [(3, 5)] * 6) == [None, None, (3, 5), None, None, None]


def test_stabilise_a_flicker_restarts_the_count() -> None:
    clock = FakeClock()
    stab = Stabiliser(3, clock=clock)
    got = feed(stab, clock, [(3, 5), (3, 5), (3, 6), (3, 5), (3, 5), (3, 5)])
    assert got == [None, None, None, None, None, (3, 5)]


def test_stabilise_a_change_is_reported_again() -> None:
    clock = FakeClock()
    stab = Stabiliser(2, clock=clock)
    got = feed(stab, clock, [(1,), (1,), (2,), (2,), (2,), (1,), (1,)])
    assert got == [None, (1,), None, (2,), None, None, (1,)]
    assert stab.current("dice") == (1,)


def test_stabilise_moving_frames_never_count() -> None:
    clock = FakeClock()
    stab = Stabiliser(3, clock=clock)
    assert feed(stab, clock, [(4,)] * 5, still=False) == [None] * 5
    assert feed(stab, clock, [(4,)] * 3) == [None, None, (4,)]


def test_stabilise_quorum_votes_through_one_bad_frame() -> None:
    clock = FakeClock()
    stab = Stabiliser(5, quorum=4, clock=clock)
    got = feed(stab, clock, [(6, 6), (6, 6), (6, 5), (6, 6), (6, 6)])
    assert got == [None, None, None, None, (6, 6)]


def test_stabilise_min_hold_uses_the_injected_clock() -> None:
    clock = FakeClock()
    stab = Stabiliser(3, min_hold_s=0.5, clock=clock)
    obs = None
    for _ in range(3):
        clock.tick(0.2)
        obs = stab.update("cards", ("MT1:ATK:+5",))
    assert obs is None  # three frames, but only 0.4 s since the first vote
    clock.tick(0.2)
    obs = stab.update("cards", ("MT1:ATK:+5",))
    assert obs is not None
    assert obs.at == pytest.approx(100.8)
    assert obs.frames == 3


def test_stabilise_keys_are_independent_and_keep_crops() -> None:
    clock = FakeClock()
    stab = Stabiliser(2, clock=clock)
    crop = np.zeros((4, 4, 3), np.uint8)
    stab.update(("cards", 1), ("A",), crops=(crop,))
    assert stab.update(("cards", 2), ("B",)) is None
    obs = stab.update(("cards", 1), ("A",), crops=(crop,))
    assert obs is not None and obs.key == ("cards", 1)
    assert len(obs.crops) == 1
    stab.forget(("cards", 1))
    assert stab.current(("cards", 1)) is None


@pytest.mark.parametrize(("frames", "quorum"), [(0, None), (3, 4), (3, 0)])
def test_stabilise_bad_settings_are_bad_input(frames: int, quorum: int | None) -> None:
    with pytest.raises(BadInput):
        Stabiliser(frames, quorum=quorum)


def test_stabilise_motion_measures_change() -> None:
    a = np.full((360, 640), 100, np.uint8)
    b = a.copy()
    b[:180] = 200
    assert motion(None, a) == float("inf")
    assert motion(a, a) == 0.0
    assert motion(a, b) == pytest.approx(50.0, abs=1.0)


def test_stabilise_block_change_is_what_change_and_changed_blocks_ask() -> None:
    """One block comparison answers both questions (the pipeline asks it once a frame)."""
    rng = np.random.default_rng(2)
    before = rng.integers(0, 200, (360, 640), dtype=np.uint8)
    after = before.copy()
    after[100:140, 300:340] = 255  # one die rolled in
    blocks = block_change(before, after)
    assert float(blocks.max()) == change(before, after) > 0
    assert np.array_equal(blocks >= 12.0, changed_blocks(before, after, 12.0))
    assert changed_blocks(before, after, 12.0).sum() >= 1
