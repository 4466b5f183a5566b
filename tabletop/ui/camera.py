"""Dice from the camera, for the app: frames in, one steady ``Seen`` event out.

The app depends on small protocols, not on ``vision/`` itself:

* a **frame source**: ``read()`` -> a frame (a BGR array, or an object whose ``main``
  is one, as ``vision.sources`` gives) or None, and ``close()``;
* a **dice reader**: ``reader(frame) -> [die, ...]`` where each die has ``value`` (1..6 or
  None when unreadable), ``box`` (x0, y0, x1, y1) and ``confidence``, as attributes or
  dict keys (``vision.dice.read_dice`` fits).

Two cameras give the same ``Seen`` events to a sink (the app's vision queue), from
their own thread, never touching pygame:

* :class:`DiceCamera`: source + reader, with a simple "same dice in N frames" vote;
* :class:`PipelineCamera`: the real ``vision.pipeline.Pipeline`` (table zones, motion,
  the vision stabiliser) with cards switched off; its observations become ``Seen``.

and :class:`CardCamera` gives ``CardsSeen`` events (one zone's cards, left to right) for
the card games: the pipeline with dice switched off and the game's mat areas, each
zone named as the game scenes name it (:func:`seat_area`).

Both have ``start()`` / ``stop()`` and ``available``; ``threaded=False`` reads on the
caller's thread until one steady reading (the demo and tests).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from tabletop.ui.input import CardSeen, CardsSeen, DieSeen, Seen

log = logging.getLogger(__name__)


class FrameSource(Protocol):
    def read(self) -> Any: ...

    def close(self) -> None: ...


DiceReader = Callable[[Any], Sequence[Any]]
Sink = Callable[[Seen], None]


def image_of(frame: Any) -> np.ndarray:
    """The BGR image of a frame (a ``vision.sources.Frame`` or a plain array)."""
    return np.asarray(getattr(frame, "main", frame))


def as_die_seen(die: Any) -> DieSeen:
    """A reader's die (object or mapping with value / box / confidence) as a ``DieSeen``."""

    def get(key: str, default: Any = None) -> Any:
        return die.get(key, default) if isinstance(die, dict) else getattr(die, key, default)

    raw = get("box")
    box = None
    if raw is not None:
        numbers = tuple(round(float(v)) for v in raw)
        if len(numbers) != 4:
            raise ValueError(f"a die's box has four numbers, not {numbers!r}")
        box = (numbers[0], numbers[1], numbers[2], numbers[3])
    value = get("value")
    confidence = get("confidence", 1.0)
    return DieSeen(
        None if value is None else int(value), box, float(1.0 if confidence is None else confidence)
    )


def to_rgb(image: Any) -> np.ndarray:
    """A BGR (or grey) image as contiguous RGB."""
    array = np.asarray(image)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    return np.ascontiguousarray(array[:, :, 2::-1])


class Steady:
    """Reports a reading once it has been the same for ``frames`` frames in a row."""

    def __init__(self, frames: int = 3) -> None:
        self.frames = frames
        self._key: tuple[Any, ...] | None = None
        self._count = 0
        self._reported: tuple[Any, ...] | None = None

    def feed(self, values: Sequence[int | None]) -> bool:
        key = tuple(sorted(values, key=lambda v: (v is None, v or 0)))
        if key == self._key:
            self._count += 1
        else:
            self._key, self._count = key, 1
        if self._count >= self.frames and key != self._reported and key:
            self._reported = key
            return True
        return False


class _Worker:
    """Start/stop of a reading thread (or one synchronous read) of frames from
    ``open_source()``, a reading going to ``sink`` once steady over ``steady`` frames."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        sink: Sink,
        *,
        steady: int = 3,
        threaded: bool = True,
        clock: Callable[[], float] = time.monotonic,
        max_frames: int = 30,
    ) -> None:
        self._open_source = open_source
        self.sink = sink
        self.steady = steady
        self.threaded = threaded
        self._clock = clock
        self.max_frames = max_frames
        self.available = True
        self.error: str | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        """Begin reading; a steady reading goes to the sink (once per new reading)."""
        self.stop()
        self._stop.clear()
        self.available, self.error = True, None
        if not self.threaded:
            self._run()
            return
        self._thread = threading.Thread(target=self._run, name="dice-camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=3.0)
        self._thread = None

    def _fail(self, what: str, exc: Exception) -> None:
        self.error = f"{what}: {getattr(exc, 'message', exc)}"
        self.available = False
        log.warning("camera: %s", self.error)

    def _run(self) -> None:
        raise NotImplementedError


class DiceCamera(_Worker):
    """A frame source read by a dice reader, voted steady over ``steady`` frames."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        reader: DiceReader,
        sink: Sink,
        *,
        interval: float = 0.05,
        **kw: Any,  # steady, threaded, clock, max_frames (see _Worker)
    ) -> None:
        super().__init__(open_source, sink, **kw)
        self.reader = reader
        self.interval = interval

    def read_frame(self, frame: Any) -> Seen:
        """Read the dice in one frame (no vote)."""
        image = image_of(frame)
        dice = tuple(as_die_seen(d) for d in self.reader(image))
        return Seen(dice, self._clock(), to_rgb(image))

    def _run(self) -> None:
        steady = Steady(self.steady)
        try:
            source = self._open_source()
        except Exception as exc:
            self._fail("the camera cannot start", exc)
            return
        frames = 0
        last: Seen | None = None
        try:
            while not self._stop.is_set() and (self.threaded or frames < self.max_frames):
                frame = source.read()
                if frame is None:
                    if not self.threaded:
                        break
                    time.sleep(self.interval)
                    continue
                frames += 1
                last = self.read_frame(frame)
                if steady.feed(last.values):
                    self.sink(last)
                    if not self.threaded:
                        return
                if self.threaded:
                    time.sleep(self.interval)
            if not self.threaded and last is not None:
                self.sink(last)  # never steady: show the last reading anyway
        except Exception as exc:
            self._fail("the dice reader failed", exc)
        finally:
            with contextlib.suppress(Exception):
                source.close()


class PipelineCamera(_Worker):
    """The vision pipeline (``vision.pipeline.Pipeline``, dice only) as ``Seen`` events.

    Dice in any zone count (without mats the table is one zone); each observation's
    crops are what the child is shown.
    """

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        sink: Sink,
        *,
        options: dict[str, Any] | None = None,
        **kw: Any,  # steady, threaded, clock, max_frames (see _Worker)
    ) -> None:
        super().__init__(open_source, sink, **kw)
        self.options = dict(options or {})  # more Pipeline(...) keywords, if it takes them

    reads_dice = True  # dice only (a CardCamera: cards only)

    def _table(self) -> Any:
        from vision.table import Table

        return Table(seats=1)

    def _build(self) -> Any:
        from vision.pipeline import Pipeline
        from vision.stabilise import Stabiliser

        accepted = inspect.signature(Pipeline).parameters
        options = {k: v for k, v in self.options.items() if k in accepted}
        table = self._table()
        source: Any = self._open_source()
        return Pipeline(
            source,
            table=table,
            dice=self.reads_dice,
            cards=not self.reads_dice,
            stabiliser=Stabiliser(self.steady, clock=self._clock),
            clock=self._clock,
            **options,
        )

    def to_seen(self, observation: Any) -> Seen | None:
        key = getattr(observation, "key", None)
        if not (isinstance(key, tuple) and key and key[0] == "dice"):
            return None
        values = tuple(observation.value)
        crops = tuple(to_rgb(c) for c in getattr(observation, "crops", ()) if np.size(c))
        return Seen(tuple(DieSeen(v) for v in values), self._clock(), None, crops)

    def _run(self) -> None:
        try:
            pipeline = self._build()
        except Exception as exc:
            self._fail("the camera cannot start", exc)
            return
        try:
            if self.threaded:
                self._forward(pipeline)
            else:
                self._once(pipeline)
        except Exception as exc:
            self._fail("the dice reader failed", exc)
        finally:
            with contextlib.suppress(Exception):
                pipeline.stop(timeout=2.0)

    def wanted(self, seen: Any) -> bool:
        """Whether an event goes to the app (a dice reading with no dice does not)."""
        return seen is not None and bool(seen.dice)

    def _once(self, pipeline: Any) -> None:
        for _ in range(self.max_frames):
            frame = pipeline.source.read()
            if frame is None:
                return
            for observation in pipeline.process(frame):
                seen = self.to_seen(observation)
                if self.wanted(seen):
                    self.sink(seen)
                    return

    def _forward(self, pipeline: Any) -> None:
        pipeline.start()
        while not self._stop.is_set():
            try:
                item = pipeline.observations.get(timeout=0.1)
            except queue.Empty:
                if not pipeline.running:
                    return
                continue
            error = getattr(item, "error", None)
            if error is not None:
                self._fail("the camera stopped", error)
                return
            seen = self.to_seen(item)
            if self.wanted(seen):
                self.sink(seen)


# Mat areas (vision.table zone names) as the card games' scenes name them.
CARD_AREAS = {
    "battle_pile": "battle",
    "equation_area": "equation",
    "reveal_spot": "reveal",
    "operator_card": "operator",
    "objective": "objective",
    "pot": "pot",
}
# Without mats each seat's slice of the table is this game's one reading area.
SLICE_AREAS = {
    "math-wars-meta": "battle",
    "math-attack": "line",
    "mecs": "equation",
    "math-arena": "reveal",
}


def seat_area(game: str, seat: int, area: str) -> tuple[int | None, str | None]:
    """A ``vision.table`` zone as (seat or None for the shared board, area name).

    Math Attack!'s two number lines lie on the shared board: line A is seat 1's, line B
    seat 2's. Without mats a seat's slice reads as the game's one area.
    """
    if area.startswith("number_line_") and len(area) == len("number_line_") + 1:
        return ord(area[-1]) - ord("a") + 1, "line"
    if area == "table":
        return seat, SLICE_AREAS.get(game)
    return (seat or None), CARD_AREAS.get(area, area)


class CardCamera(PipelineCamera):
    """The vision pipeline reading cards only, as ``CardsSeen`` events (see module).

    A zone whose cards are taken away reports an empty tuple, so a scene sees cards
    leave as well as arrive.
    """

    reads_dice = False

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        sink: Callable[[CardsSeen], None],
        *,
        game: str,
        seats: int,
        **kw: Any,  # options, steady, threaded, clock, max_frames (see PipelineCamera)
    ) -> None:
        super().__init__(open_source, sink, **kw)  # type: ignore[arg-type]
        self.game = game
        self.seats = seats

    def _table(self) -> Any:
        from tabletop.engine.errors import BadInput
        from vision.table import Table, mat_areas

        try:
            seat_areas, board_areas = mat_areas(self.game)
        except BadInput:  # a screen with no mats of its own (sign-in): whole mats or slices
            seat_areas, board_areas = {}, {}
        return Table(seat_areas, board_areas, seats=max(1, min(8, self.seats)))

    def to_seen(self, observation: Any) -> CardsSeen | None:  # type: ignore[override]
        key = getattr(observation, "key", None)
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] == "cards"):
            return None
        zone = key[1]
        seat, area = seat_area(self.game, int(zone.seat), str(zone.area))
        crops = tuple(to_rgb(c) for c in getattr(observation, "crops", ()) if np.size(c))
        cards = tuple(CardSeen(str(code), seat, area) for code in observation.value)
        return CardsSeen(seat, area, cards, self._clock(), crops)

    def wanted(self, seen: Any) -> bool:
        return isinstance(seen, CardsSeen)


class RepeatFrame:
    """A frame source that returns one frame again and again (a photo on the table)."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def read(self) -> Any:
        return self.frame

    def close(self) -> None:
        pass


def vision_dice_reader() -> DiceReader | None:
    """``vision.dice.read_dice`` if the vision package and its models are there."""
    try:
        module = importlib.import_module("vision.dice")
        reader = module.read_dice
        module.default_reader()  # loads the models now: a missing model shows here
    except Exception as exc:
        log.info("the vision dice reader is not available: %s", getattr(exc, "message", exc))
        return None
    return reader  # type: ignore[no-any-return]


def vision_pipeline_ready() -> bool:
    """True when ``vision.pipeline`` imports and its dice reader loads."""
    try:
        importlib.import_module("vision.pipeline")
    except Exception as exc:
        log.info("the vision pipeline is not available: %s", exc)
        return False
    return vision_dice_reader() is not None


__all__ = [
    "CardCamera",
    "DiceCamera",
    "DiceReader",
    "FrameSource",
    "PipelineCamera",
    "RepeatFrame",
    "Steady",
    "as_die_seen",
    "image_of",
    "seat_area",
    "to_rgb",
    "vision_dice_reader",
    "vision_pipeline_ready",
]
