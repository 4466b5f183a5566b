"""The vision pipeline: source -> table -> cards and dice -> stabiliser -> a queue.

One thread (:meth:`Pipeline.start`) reads frames and puts :class:`Observation` objects
on ``pipeline.observations``; the app drains that queue on its own (display) thread.
Nothing here touches pygame. :meth:`Pipeline.process` is the same work for one frame,
synchronously, for tests and the bench.

To keep up with a 30 fps camera it reads as little as it can:

- nothing on a moving frame (the stabiliser would not count it): a frame moves when the
  lores image changed on the whole (:func:`~vision.stabilise.motion`) or anywhere in
  one place (:func:`~vision.stabilise.change`: one die rolling on a still table);
- nothing already read (``reuse``): once a still scene has been read, later frames
  whose lores image still matches the one it was read on (no block changed by
  ``change_threshold``, and no moving frame since) repeat that reading instead of
  running the dice networks or the QR decoders again. A die rolled or a card laid
  makes the frames move, and the scene is read again once it is still. The stabiliser
  still gets a reading every still frame, so its N-frames rule holds;
- only what changed: after a dice reading on a still frame, the next one looks only at
  the parts of the frame that changed since (each widened by a die and a half), keeps
  the dice that no change touched, and reads the whole dice area only when more than
  :data:`PARTIAL_SHARE` of it changed; the mats are looked for again only when a change
  reaches one of their markers (or, before any mat is known, in the changed parts);
- with ``alternate``, when both dice and cards are due, the cards on one frame and the
  dice on the next (cards first: the dice reader does not look on a QR code read);
- with a mat that has a dice tray in view (:meth:`vision.table.Table.dice_region`),
  dice only in the tray (and a margin around it); without mats, the whole frame.

Keys of the observations: ``("dice", zone)`` with the sorted dice values in that zone
(None for an unreadable die: the app asks for a re-roll or typed values), and
``("cards", zone)`` with the zone's card codes left to right (``"?"`` for a QR code
that is not a valid card of ours, ``"!"+code`` for a single card seen twice). If the
camera fails, a :class:`CameraFailed` item carrying the DeviceError goes on the queue
and the thread ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.engine.errors import DeviceError
from vision.cards import Backend, SeenCode, read_cards
from vision.cards import _grey as as_grey
from vision.dice import DiceReader, Die
from vision.sources import Frame, FrameSource
from vision.stabilise import (
    CHANGE_THRESHOLD,
    MOTION_THRESHOLD,
    Observation,
    Stabiliser,
    block_change,
    motion,
    motion_image,
)
from vision.table import Box, Table, Zone, searchable

CROP_MARGIN = 0.15
DIE_SHARE = 16 / 600  # a 16 mm die in a frame 60 cm wide, before any die has been seen
PARTIAL_SHARE = 0.5  # changed parts larger than this share of the dice area: read it all


@dataclass(frozen=True)
class CameraFailed:
    """The camera stopped: show ``error.message`` and offer typed values."""

    error: DeviceError


@dataclass(frozen=True)
class Seen:
    """What one frame showed, before stabilising (for the bench and debugging)."""

    dice: tuple[Die, ...] | None  # None: no reading in this frame
    cards: tuple[SeenCode, ...] | None
    still: bool
    motion: float
    read: tuple[str, ...] = ()  # "dice", "cards": read afresh (the others repeated)


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
        card_reader: Callable[[np.ndarray], Sequence[SeenCode]] | None = None,
        motion_threshold: float = MOTION_THRESHOLD,
        change_threshold: float = CHANGE_THRESHOLD,
        calibrate_every: int = 900,
        skip_moving: bool = True,
        alternate: bool = True,
        reuse: bool = True,
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
        self.card_reader = card_reader  # default: read_cards with card_backend
        self.motion_threshold = motion_threshold
        self.change_threshold = change_threshold
        self.calibrate_every = calibrate_every
        self.skip_moving = skip_moving
        self.alternate = alternate
        self.reuse = reuse
        self.reads = {"dice": 0, "cards": 0}  # readings made afresh, by kind
        self.partial_reads = 0  # dice readings of only the parts that changed
        self.calibrations = 0
        self._count = 0
        self._calibrated_at = 0
        self._calibrated_on: np.ndarray | None = None  # the shrunk lores of that frame
        self._markers: dict[tuple[int, int], Box] = {}  # where each marker was last seen
        self._dice_on: np.ndarray | None = None  # the shrunk lores of the last dice reading
        self._dice_area: Box | None = None  # and the area it covered
        self._turn = True  # cards first: the dice reading then skips their QR codes
        self.observations: queue.Queue[Observation | CameraFailed] = queue.Queue(maxsize)
        self._previous: np.ndarray | None = None  # the last lores frame, shrunk
        self._dice: tuple[Die, ...] = ()  # the last dice reading
        self._read_on: dict[str, np.ndarray] = {}  # kind -> the shrunk lores it was read on
        self._codes: tuple[SeenCode, ...] = ()  # the QR codes of the last card reading
        self._keys: set[tuple[str, Zone]] = set()
        # This frame's comparisons with earlier lores images, by the id of that image:
        # the stillness, the readings held and the calibration often ask of the same one.
        self._motions: dict[int, tuple[np.ndarray, float]] = {}
        self._changes: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- one frame -----------------------------------------------------------------------

    def look(self, frame: Frame) -> Seen:
        """Read one frame: the cards and dice that are due (see the module docstring),
        after the table's calibration if the mats may have moved."""
        self._count += 1
        self._motions.clear()
        self._changes.clear()
        small = motion_image(frame.lores)
        amount = self._motion(self._previous, small)
        still = amount < self.motion_threshold
        if still and self._previous is not None:
            still = self._change(self._previous, small).max() < self.change_threshold
        self._previous = small
        if not still:
            self._read_on.clear()  # whatever moved, the scene is read again once still
            if self.skip_moving:
                # The stabiliser counts no moving frame, so reading one would be wasted time.
                return Seen(None, None, False, amount)
        wanted = [k for k, on in (("dice", self.read_dice_on), ("cards", self.read_cards_on)) if on]
        held_on = {id(ref): ref for k, ref in self._read_on.items() if k in wanted}
        unchanged = {key: self._unchanged(ref, small) for key, ref in held_on.items()}
        due = [k for k in wanted if not unchanged.get(id(self._read_on.get(k)), False)]
        grey = _Grey(frame)  # made once if needed, for the markers and the QR codes
        if due:
            self._calibrate(grey, small)
        if self.alternate and len(due) == 2:
            due = [due[int(self._turn)]]  # dice on one frame, cards on the next
            self._turn = not self._turn
        if "cards" in due:
            self._codes = tuple(self._read_cards(frame.main, grey))
        if "dice" in due:
            # A QR code's finder squares can look like pips: nothing on a code is a die.
            self._dice = tuple(
                d for d in self._read_dice(frame.main, small) if not _on_a_code(d, self._codes)
            )
            self._dice_on = small if still else None
        for kind in due:
            self.reads[kind] += 1
        if self.reuse and still and due:
            # Readings still held move on to this frame with the new ones (one change
            # under the threshold from their own frame), so one comparison serves all.
            for kind in wanted:
                if kind in due or kind in self._read_on:
                    self._read_on[kind] = small
        held = set(due) | set(self._read_on)  # read now, or read before and unchanged
        dice = self._dice if "dice" in held else None
        cards = self._codes if "cards" in held else None
        return Seen(dice, cards, still, amount, tuple(due))

    def _unchanged(self, ref: np.ndarray, small: np.ndarray) -> bool:
        """Whether a reading made on the frame ``ref`` still holds (no moving frame has
        come since, or it would be gone): no block of the lores image changed since."""
        return (
            self._motion(ref, small) < self.motion_threshold
            and self._change(ref, small).max() < self.change_threshold
        )

    def _motion(self, ref: np.ndarray | None, small: np.ndarray) -> float:
        """:func:`~vision.stabilise.motion` from ``ref`` to this frame, once per frame."""
        if ref is None:
            return float("inf")
        held = self._motions.get(id(ref))
        if held is None or held[0] is not ref:
            held = self._motions[id(ref)] = (ref, motion(ref, small))
        return held[1]

    def _change(self, ref: np.ndarray, small: np.ndarray) -> np.ndarray:
        """:func:`~vision.stabilise.block_change` from ``ref`` to this frame, once per frame."""
        held = self._changes.get(id(ref))
        if held is None or held[0] is not ref:
            held = self._changes[id(ref)] = (ref, block_change(ref, small))
        return held[1]

    def _changed(
        self, ref: np.ndarray, small: np.ndarray, size: tuple[int, int]
    ) -> list[Box] | None:
        """The frame rectangles around each part of the lores image that changed; None
        when the frame changed as a whole (read everything)."""
        if self._motion(ref, small) >= self.motion_threshold:
            return None
        return _boxes(self._change(ref, small) >= self.change_threshold, size)

    def _calibrate(self, grey: _Grey, small: np.ndarray) -> None:
        """Find the mats again if they may have moved: everywhere if the change reached
        a marker seen before (or ``calibrate_every`` frames have passed), only in the
        changed parts if no mat was ever seen (a mat laid since shows there), not at all
        if the change lay off the markers (dice rolled in the tray, a card laid)."""
        size = (grey.main.shape[1], grey.main.shape[0])
        region: Box | None = None
        if (
            self._calibrated_on is not None
            and self._count - self._calibrated_at < self.calibrate_every
        ):
            changed = self._changed(self._calibrated_on, small, size)
            if changed is None:
                changed = [(0, 0, *size)]
            if not changed:
                return
            if self._markers:
                if not any(_overlaps(c, m) for c in changed for m in self._markers.values()):
                    self._calibrated_on = small  # the mats did not move
                    return
            else:
                region = _union(changed)
                if _area(region) > PARTIAL_SHARE * size[0] * size[1]:
                    region = None
        image, lores = grey.for_markers(region)
        self.table.calibrate(image, region, lores)
        self.calibrations += 1
        self._calibrated_on, self._calibrated_at = small, self._count
        self._markers.update(self.table.marker_boxes())

    def _read_cards(self, main: np.ndarray, grey: _Grey) -> Sequence[SeenCode]:
        if self.card_reader is not None:
            return self.card_reader(main)
        # Camera frames of our own printed cards: no inverted or scaled-down passes.
        return read_cards(grey.image, self.card_backend, thorough=False)

    def _read_dice(self, main: np.ndarray, small: np.ndarray) -> list[Die]:
        """The dice in the tray when a mat shows one, else in the whole frame; after a
        reading on a still frame, only the parts that changed since are read again."""
        if self.dice_reader is None:
            self.dice_reader = DiceReader(long_side=self.dice_long_side)
        h, w = main.shape[:2]
        tray = self.table.dice_region()
        area = tray or (0, 0, w, h)
        seen = (
            self._changed(self._dice_on, small, (w, h))
            if self.reuse and self._dice_on is not None and self._dice_area == area
            else None
        )
        if seen is not None:
            changed = [b for b in (_clip(c, area) for c in seen) if b]
            margin = round(1.5 * self._die_px(w))
            regions = _regions(changed, margin, area)
            if sum(_area(r) for r, _ in regions) <= PARTIAL_SHARE * _area(area):
                self.partial_reads += 1
                kept = [d for d in self._dice if not any(_overlaps(d.box, c) for c in changed)]
                new = [
                    d
                    for region, parts in regions
                    for d in self._read_in(main, region)
                    if any(_overlaps(d.box, c) for c in parts)
                ]
                return _one_per_die(kept + new)
        self._dice_area = area
        return self._read_in(main, tray)

    def _die_px(self, width: int) -> float:
        """A die's side in frame pixels: the dice last read, else a 16 mm die."""
        sides = [d.box[2] - d.box[0] for d in self._dice if d.reason is None]
        return max(8.0, float(np.median(sides)) if sides else width * DIE_SHARE)

    def _read_in(self, main: np.ndarray, region: Box | None) -> list[Die]:
        """The dice in one part of the frame (or all of it), in frame coordinates. A die
        cut by an edge of the part that is not the frame's edge is half out of the tray."""
        assert self.dice_reader is not None
        # Nothing on a QR code is a die: the reader does not look there.
        codes = [np.array(c.corners, np.float32) for c in self._codes]
        if region is None:
            return self.dice_reader.read(main, skip=codes)
        x0, y0, x1, y1 = region
        long_side = getattr(self.dice_reader, "long_side", self.dice_long_side)
        shift = np.array([x0, y0], np.float32)
        found = self.dice_reader.read(
            main[y0:y1, x0:x1],
            scale=long_side / max(main.shape[:2]),
            skip=[c - shift for c in codes],
        )
        h, w = main.shape[:2]
        inside = (x0 > 0, y0 > 0, x1 < w, y1 < h)  # region edges that are not the frame's
        dice = []
        for d in found:
            bx0, by0, bx1, by1 = d.box
            reason = d.reason
            if reason == "half out of view" and (
                (inside[0] and bx0 <= 0.5)
                or (inside[1] and by0 <= 0.5)
                or (inside[2] and bx1 >= x1 - x0 - 0.5)
                or (inside[3] and by1 >= y1 - y0 - 0.5)
            ):
                reason = "half out of the tray"
            box = (bx0 + x0, by0 + y0, bx1 + x0, by1 + y0)
            dice.append(dataclasses.replace(d, box=box, reason=reason))
        return dice

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


class _Grey:
    """A frame's grey image: the source's, or made the first time it is asked for."""

    def __init__(self, frame: Frame) -> None:
        self.main = frame.main
        self.lores = frame.lores
        self._image = frame.grey  # the source's own, when it made one

    def for_markers(self, region: Box | None) -> tuple[np.ndarray, np.ndarray | None]:
        """(frame, small) for :meth:`Table.calibrate`: the lores image is searched for
        markers as it is when it is the image the search would shrink the frame to (the
        grey frame is then not needed), else the grey frame."""
        if region is None and searchable(self.lores, self.main.shape):
            return self.main, self.lores
        return self.image, None

    @property
    def image(self) -> np.ndarray:
        if self._image is None:
            self._image = as_grey(self.main)
        return self._image


def _boxes(mask: np.ndarray, size: tuple[int, int]) -> list[Box]:
    """Frame rectangles around the connected parts of a block mask (rows x columns of
    the lores image's blocks), each widened by one block."""
    if not mask.any():
        return []
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    fx, fy = size[0] / mask.shape[1], size[1] / mask.shape[0]
    out = []
    for x, y, bw, bh, _ in stats[1:n].tolist():
        out.append(
            (
                int(x * fx),
                int(y * fy),
                min(size[0], int(np.ceil((x + bw) * fx))),
                min(size[1], int(np.ceil((y + bh) * fy))),
            )
        )
    return out


def _regions(changed: list[Box], margin: int, area: Box) -> list[tuple[Box, list[Box]]]:
    """The parts to read again: each changed rectangle widened by ``margin`` (a die and
    a half: a die that touches a change lies wholly inside) and kept in ``area``; parts
    that overlap or touch are joined. Each part with the changed rectangles it holds."""
    parts = [
        (r, [c])
        for c in changed
        if (r := _clip((c[0] - margin, c[1] - margin, c[2] + margin, c[3] + margin), area))
    ]
    joined = True
    while joined:
        joined = False
        for i in range(len(parts)):
            for j in range(i + 1, len(parts)):
                if _overlaps(parts[i][0], parts[j][0], touch=True):
                    parts[i] = (_union([parts[i][0], parts[j][0]]), parts[i][1] + parts[j][1])
                    del parts[j]
                    joined = True
                    break
            if joined:
                break
    return parts


def _one_per_die(dice: list[Die]) -> list[Die]:
    """Left to right, and one die where two readings overlap by half (the surer one)."""
    out: list[Die] = []
    for d in sorted(dice, key=lambda d: (d.reason is not None, -d.confidence)):
        cx, cy = _box_centre(d)
        side = d.box[2] - d.box[0]
        if all(
            (cx - _box_centre(k)[0]) ** 2 + (cy - _box_centre(k)[1]) ** 2 > (side / 2) ** 2
            for k in out
        ):
            out.append(d)
    return sorted(out, key=lambda d: (d.box[0], d.box[1]))


def _clip(box: Box | tuple[float, float, float, float], area: Box) -> Box | None:
    x0, y0 = max(int(box[0]), area[0]), max(int(box[1]), area[1])
    x1, y1 = min(int(np.ceil(box[2])), area[2]), min(int(np.ceil(box[3])), area[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _overlaps(a: tuple[float, ...], b: tuple[float, ...], touch: bool = False) -> bool:
    if touch:
        return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


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
