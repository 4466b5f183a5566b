"""The vision pipeline: source -> table -> cards and dice -> stabiliser -> a queue.

One thread (:meth:`Pipeline.start`) reads frames and puts :class:`Observation` objects
on ``pipeline.observations``; the app drains that queue on its own (display) thread.
Nothing here touches pygame. To keep up with the camera it reads nothing on a moving
frame (the stabiliser would not count it) and, with ``alternate``, reads the dice on
one still frame and the cards on the next. :meth:`Pipeline.process` is the same work for one frame,
synchronously, for tests and the bench.

Keys of the observations: ``("dice", zone)`` with the sorted dice values in that zone
(None for an unreadable die: the app asks for a re-roll or typed values), and
``("cards", zone)`` with the zone's card codes left to right (``"?"`` for a QR code
that is not a valid card of ours, ``"!"+code`` for a single card seen twice). If the
camera fails, a :class:`CameraFailed` item carrying the DeviceError goes on the queue
and the thread ends.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.engine.errors import DeviceError
from vision.cards import Backend, SeenCode, read_cards
from vision.dice import DiceReader, Die, read_dice
from vision.sources import Frame, FrameSource
from vision.stabilise import MOTION_THRESHOLD, Observation, Stabiliser, motion
from vision.table import Table, Zone

CROP_MARGIN = 0.15


@dataclass(frozen=True)
class CameraFailed:
    """The camera stopped: show ``error.message`` and offer typed values."""

    error: DeviceError


@dataclass(frozen=True)
class Seen:
    """What one frame showed, before stabilising (for the bench and debugging)."""

    dice: tuple[Die, ...] | None  # None: not read in this frame
    cards: tuple[SeenCode, ...] | None
    still: bool
    motion: float


class Pipeline:
    """Reads dice and cards from a frame source; one thread; see the module docstring."""

    def __init__(
        self,
        source: FrameSource,
        *,
        table: Table | None = None,
        stabiliser: Stabiliser | None = None,
        dice: bool = True,
        cards: bool = True,
        dice_reader: DiceReader | None = None,
        dice_long_side: int = 640,
        card_backend: Backend = "zxing",
        motion_threshold: float = MOTION_THRESHOLD,
        calibrate_every: int = 30,
        skip_moving: bool = True,
        alternate: bool = True,
        clock: Callable[[], float] = time.monotonic,
        maxsize: int = 100,
    ) -> None:
        self.source = source
        self.table = table or Table()
        self.stabiliser = stabiliser or Stabiliser(clock=clock)
        self.read_dice_on = dice
        self.read_cards_on = cards
        # Dice are found on the frame scaled to this long side (as on a 640x360 lores
        # stream: a 16 mm die on a 60 cm table is then ~17 px) and read at full size.
        self.dice_reader = dice_reader
        self.dice_long_side = dice_long_side
        self.card_backend: Backend = card_backend
        self.motion_threshold = motion_threshold
        self.calibrate_every = calibrate_every
        self.skip_moving = skip_moving
        self.alternate = alternate
        self._count = 0
        self._turn = False
        self.observations: queue.Queue[Observation | CameraFailed] = queue.Queue(maxsize)
        self._previous: np.ndarray | None = None
        self._codes: tuple[SeenCode, ...] = ()  # the QR codes of the last card reading
        self._keys: set[tuple[str, Zone]] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- one frame -----------------------------------------------------------------------

    def look(self, frame: Frame) -> Seen:
        """Read one frame: table calibration (every ``calibrate_every`` frames), then
        cards and dice; with ``alternate``, dice on one frame and cards on the next."""
        if self._count % self.calibrate_every == 0 or self.table.frame_size == (0, 0):
            self.table.calibrate(frame.main)
        self._count += 1
        amount = motion(self._previous, frame.lores)
        self._previous = frame.lores
        still = amount < self.motion_threshold
        if not still and self.skip_moving:
            # The stabiliser counts no moving frame, so reading one would be wasted time.
            return Seen(None, None, False, amount)
        both = self.read_dice_on and self.read_cards_on
        turn = self._turn
        self._turn = not self._turn
        do_dice = self.read_dice_on and not (both and self.alternate and turn)
        do_cards = self.read_cards_on and not (both and self.alternate and not turn)
        if do_dice and self.dice_reader is None:
            self.dice_reader = DiceReader(long_side=self.dice_long_side)
        cards = tuple(read_cards(frame.main, self.card_backend)) if do_cards else None
        if cards is not None:
            self._codes = cards
        dice = None
        if do_dice:
            # A QR code's finder squares can look like pips: nothing on a code is a die.
            dice = tuple(
                d for d in read_dice(frame.main, self.dice_reader) if not _on_a_code(d, self._codes)
            )
        return Seen(dice, cards, still, amount)

    def process(self, frame: Frame) -> list[Observation]:
        """Read one frame and feed the stabiliser; the observations that became stable."""
        seen = self.look(frame)
        readings: dict[tuple[str, Zone], tuple[list[object], list[np.ndarray]]] = {}
        if seen.dice is not None:
            for zone, dice in self.table.place(list(seen.dice), _box_centre).items():
                readings[("dice", zone)] = (
                    sorted((d.value for d in dice), key=lambda v: (v is None, v or 0)),
                    [_crop(frame.main, d.box) for d in dice],
                )
        if seen.cards is not None:
            for zone, codes in self.table.place(list(seen.cards), lambda c: c.centre).items():
                readings[("cards", zone)] = (
                    [_card_text(c) for c in codes],
                    [_crop(frame.main, _corners_box(c)) for c in codes],
                )
        # Keys seen before but empty now read as empty, so a cleared zone is reported too;
        # on a moving frame every key gets a "moving" vote.
        for key in self._keys:
            kind_read = seen.dice if key[0] == "dice" else seen.cards
            if kind_read is not None or not seen.still:
                readings.setdefault(key, ([], []))
        self._keys.update(readings)
        out: list[Observation] = []
        for key, (values, crops) in readings.items():
            obs = self.stabiliser.update(key, tuple(values), still=seen.still, crops=tuple(crops))
            if obs is not None:
                out.append(obs)
        return out

    # -- the thread ----------------------------------------------------------------------

    def start(self) -> None:
        """Run in a background thread until :meth:`stop` or the source ends."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="vision", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the thread to end, wait for it, and close the source (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self.source.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                for obs in self.process(frame):
                    self._put(obs)
        except DeviceError as exc:
            self._put(CameraFailed(exc))

    def _put(self, item: Observation | CameraFailed) -> None:
        # A full queue means the app is not draining it: drop the oldest, keep the newest.
        while True:
            try:
                self.observations.put_nowait(item)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self.observations.get_nowait()


def _on_a_code(die: Die, codes: tuple[SeenCode, ...]) -> bool:
    """Whether a die's centre lies on one of the QR codes last seen (a card, not a die)."""
    if not codes:
        return False
    centre = _box_centre(die)
    return any(
        cv2.pointPolygonTest(np.array(code.corners, np.float32), centre, False) >= 0
        for code in codes
    )


def _box_centre(die: Die) -> tuple[float, float]:
    x0, y0, x1, y1 = die.box
    return (x0 + x1) / 2, (y0 + y1) / 2


def _corners_box(code: SeenCode) -> tuple[float, float, float, float]:
    xs = [p[0] for p in code.corners]
    ys = [p[1] for p in code.corners]
    return min(xs), min(ys), max(xs), max(ys)


def _card_text(code: SeenCode) -> str:
    if code.card is None:
        return "?"
    if code.problem == "duplicate":
        return "!" + code.card.code
    return code.card.code


def _crop(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    mx, my = (x1 - x0) * CROP_MARGIN, (y1 - y0) * CROP_MARGIN
    h, w = image.shape[:2]
    a, b = max(0, int(x0 - mx)), max(0, int(y0 - my))
    c, d = min(w, int(x1 + mx) + 1), min(h, int(y1 + my) + 1)
    return image[b:d, a:c].copy()
