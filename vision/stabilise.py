"""The stabiliser: a reading becomes an observation only once it has held.

Hands move cards and dice roll: a single frame is not evidence. Each thing watched has
a key (``("dice", zone)``, ``("cards", zone)``); every frame gives it a reading (a
hashable value, e.g. the sorted dice values ``(3, 5)`` or a pile's card codes
``("MT1:MWM:C17:3", "MT1:MWM:K-5:3")``). The reading is reported once, when it has won
the vote over the last ``frames`` frames (``quorum`` of them, all by default), the
scene was still in each of them (motion on the lores stream under a threshold), and it
has held, unbroken, for ``min_hold_s`` seconds of the injected clock. It is reported again only
after it changes. The clock is injected, so tests drive time by hand.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tabletop.engine.errors import BadInput

MOTION_THRESHOLD = 4.0  # mean absolute grey-level change between lores frames (0..255)
MOTION_SIZE = (160, 90)
# The largest change of any one block of MOTION_SIZE (4x4 px of a 640x360 lores image, a
# quarter of a die on a 60 cm table) after the frame's mean shift: a die rolling alone
# moves little of the frame (under MOTION_THRESHOLD) but changes its blocks by its
# contrast with the table (60-150); sensor noise averaged over a block stays under ~5.
CHANGE_THRESHOLD = 16.0
# A noisy camera raises the bar: changes are measured against NOISE_SIGMAS times the
# frame's own spread of block differences (at most twice the threshold).
NOISE_SIGMAS = 6.0


@dataclass(frozen=True)
class Observation:
    """A stable reading: what (``key``), the value, since when, and the image crops the
    readings came from (so the app can show the child what it saw)."""

    key: Hashable
    value: Hashable
    at: float
    frames: int
    crops: tuple[np.ndarray, ...] = field(default=(), compare=False, repr=False)


@dataclass
class _Track:
    votes: deque[tuple[Hashable, float]]
    run_value: Any = None
    run_since: float = 0.0
    reported: Any = None
    has_reported: bool = False
    crops: tuple[np.ndarray, ...] = ()


class Stabiliser:
    """Votes over the last ``frames`` frames per key; see the module docstring."""

    def __init__(
        self,
        frames: int = 5,
        *,
        quorum: int | None = None,
        min_hold_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if frames < 1:
            raise BadInput("vision.frames", f"frames must be at least 1, not {frames}")
        quorum = frames if quorum is None else quorum
        if not 1 <= quorum <= frames:
            raise BadInput("vision.quorum", f"quorum must be 1 to {frames}, not {quorum}")
        self.frames = frames
        self.quorum = quorum
        self.min_hold_s = min_hold_s
        self.clock = clock
        self._tracks: dict[Hashable, _Track] = {}

    def update(
        self,
        key: Hashable,
        value: Hashable,
        *,
        still: bool = True,
        crops: tuple[np.ndarray, ...] = (),
    ) -> Observation | None:
        """One frame's reading for ``key``; the observation if it just became stable."""
        now = self.clock()
        track = self._tracks.setdefault(key, _Track(deque(maxlen=self.frames)))
        # A moving scene is no vote for anything.
        vote = value if still else _Moving
        track.votes.append((vote, now))
        if not (vote is track.run_value or vote == track.run_value) or len(track.votes) == 1:
            track.run_value, track.run_since = vote, now
        if crops and still:
            track.crops = crops
        if len(track.votes) < self.frames:
            return None
        winner, count = Counter(v for v, _ in track.votes).most_common(1)[0]
        if winner is _Moving or count < self.quorum:
            return None
        if winner == track.run_value:
            since = track.run_since  # unbroken since then, maybe longer than the window
        else:
            since = min(t for v, t in track.votes if v == winner)
        if now - since < self.min_hold_s:
            return None
        if track.has_reported and track.reported == winner:
            return None
        track.reported, track.has_reported = winner, True
        return Observation(key, winner, now, count, track.crops if winner == value else ())

    def forget(self, key: Hashable) -> None:
        """Drop a key's history (its zone left the frame, a new round began)."""
        self._tracks.pop(key, None)

    def current(self, key: Hashable) -> Any:
        """The last value reported for a key, or None."""
        track = self._tracks.get(key)
        return track.reported if track else None


class _MovingType:
    def __repr__(self) -> str:
        return "<moving>"


_Moving = _MovingType()


def motion(previous: np.ndarray | None, lores: np.ndarray) -> float:
    """Mean absolute change (0..255) between two lores frames, at 160x90; inf if none."""
    if previous is None:
        return float("inf")
    a = _small(previous)
    b = _small(lores)
    return float(cv2.absdiff(a, b).mean())


def change(previous: np.ndarray | None, lores: np.ndarray) -> float:
    """The largest local change (0..255) between two lores frames: the change of the
    most changed block of :data:`MOTION_SIZE`, less the whole frame's shift (a camera's
    exposure drifting is no change), scaled down on a noisy camera (see
    :data:`NOISE_SIGMAS`); inf if there is no frame before. Catches what :func:`motion`
    averages away: one die rolled, nudged or turned over on a still table."""
    if previous is None:
        return float("inf")
    return float(block_change(previous, lores).max())


def changed_blocks(
    previous: np.ndarray, lores: np.ndarray, threshold: float = CHANGE_THRESHOLD
) -> np.ndarray:
    """Which blocks of :data:`MOTION_SIZE` changed by ``threshold`` or more (a bool
    array, rows x columns): where to look again."""
    return block_change(previous, lores) >= threshold


def block_change(previous: np.ndarray, lores: np.ndarray) -> np.ndarray:
    """The change of each block (rows x columns, float32), as :func:`change` takes its
    largest: for a caller that asks both questions of one pair of frames."""
    diff = cv2.subtract(_small(lores), _small(previous), dtype=cv2.CV_16S)
    shift = _median(diff.ravel() + 255) - 255  # the median: a change is no shift
    dev = np.abs(diff - shift)
    noise = 1.4826 * _median(dev.ravel())  # a robust sigma of the blocks' differences
    scale = min(2.0, max(1.0, NOISE_SIGMAS * noise / CHANGE_THRESHOLD))
    return dev.astype(np.float32) / np.float32(scale)


def _median(values: np.ndarray) -> int:
    """The median of small non-negative integers, by counting (np.median and
    np.partition are slow on the many equal values of a still scene)."""
    counts = np.cumsum(np.bincount(values))
    return int(np.searchsorted(counts, (values.size + 1) // 2))


def motion_image(lores: np.ndarray) -> np.ndarray:
    """A lores frame as the small grey image :func:`motion` and :func:`change` compare
    (shrink once, compare many times)."""
    return _small(lores)


def _small(img: np.ndarray) -> np.ndarray:
    grey = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    if (grey.shape[1], grey.shape[0]) != MOTION_SIZE:
        grey = cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA)
    return grey
