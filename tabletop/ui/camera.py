"""Cameras for the app: frames in, steady ``Seen`` / ``CardsSeen`` events out.

A camera reads on its own thread (``threaded=False``: on the caller's, until one steady
reading, for the demo and tests) and gives each steady reading to a sink (the app's
vision queue), never touching pygame. ``start()`` / ``stop()``; ``available`` turns
False, with ``error`` saying why, when it cannot start or stops.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from tabletop.engine.errors import BadInput, DeviceError
from tabletop.ui.input import CardSeen, CardsSeen, DieSeen, Seen

log = logging.getLogger(__name__)


class FrameSource(Protocol):
    def read(self) -> Any: ...

    def close(self) -> None: ...


DiceReader = Callable[[Any], Sequence[Any]]
Sink = Callable[[Seen], None]


def as_die_seen(die: Any) -> DieSeen:
    """A reader's die (object or mapping with value / box / confidence) as a ``DieSeen``."""
    get = die.get if isinstance(die, dict) else functools.partial(getattr, die)
    value, raw, confidence = get("value", None), get("box", None), get("confidence", 1.0)
    box = None if raw is None else tuple(round(float(v)) for v in raw)
    if box is not None and len(box) != 4:
        raise ValueError(f"a die's box has four numbers, not {box!r}")
    return DieSeen(
        None if value is None else int(value),
        box,
        float(1.0 if confidence is None else confidence),
    )


def to_rgb(image: Any) -> np.ndarray:
    """A BGR (or grey) image as contiguous RGB."""
    array = np.asarray(image)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    return np.ascontiguousarray(array[:, :, 2::-1])


def crops_of(observation: Any) -> tuple[np.ndarray, ...]:
    """An observation's crops (what the child is shown), as RGB."""
    return tuple(to_rgb(c) for c in getattr(observation, "crops", ()) if np.size(c))


class _Worker:
    """Start/stop of the reading (see the module); subclasses open the source and say
    what steady readings one frame gives (:meth:`_look`)."""

    interval = 0.0  # seconds between frames on the thread (a pipeline's source paces it)

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
        self.steady = steady  # frames a reading must hold
        self.threaded = threaded
        self._clock = clock
        self.max_frames = max_frames  # frames read at most when not threaded
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
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
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

    def _open(self) -> FrameSource:
        raise NotImplementedError

    def _look(self, frame: Any) -> list[Any]:
        raise NotImplementedError

    def _unsteady(self) -> None:
        """Not threaded, and no reading held steady over the frames read."""

    def _run(self) -> None:
        try:
            source = self._open()
        except Exception as exc:
            self._fail("the camera cannot start", exc)
            return
        frames = 0
        try:
            while not self._stop.is_set() and (self.threaded or frames < self.max_frames):
                frame = source.read()
                if frame is None:  # a finite source has no more
                    break
                frames += 1
                for seen in self._look(frame):
                    self.sink(seen)
                    if not self.threaded:
                        return
                if self.threaded:
                    time.sleep(self.interval)
            if not self.threaded:
                self._unsteady()
        except DeviceError as exc:
            self._fail("the camera stopped", exc)
        except Exception as exc:
            self._fail("the dice reader failed", exc)
        finally:
            with contextlib.suppress(Exception):
                source.close()


class DiceCamera(_Worker):
    """Any frame source and dice reader (``reader(frame) -> [die]``, each die with
    ``value``, ``box`` and ``confidence`` as attributes or keys), voted steady over
    ``steady`` frames by the vision stabiliser: the demo's stand-in where the pipeline
    cannot load."""

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
        self._last: Seen | None = None

    def _open(self) -> FrameSource:
        from vision.stabilise import Stabiliser

        self._votes, self._last = Stabiliser(self.steady, clock=self._clock), None
        return self._open_source()

    def _look(self, frame: Any) -> list[Any]:
        image = np.asarray(getattr(frame, "main", frame))  # a vision.sources.Frame, or an array
        dice = tuple(as_die_seen(d) for d in self.reader(image))
        self._last = seen = Seen(dice, self._clock(), to_rgb(image))
        values = tuple(sorted(seen.values, key=lambda v: (v is None, v or 0)))
        steady = self._votes.update("dice", values)
        return [seen] if steady is not None and values else []

    def _unsteady(self) -> None:
        if self._last is not None:
            self.sink(self._last)  # never steady: show the last reading anyway


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


class PipelineCamera(_Worker):
    """The vision pipeline (``vision.pipeline.Pipeline``: table zones, motion, the
    vision stabiliser) reading dice only, as ``Seen`` events: dice in any zone count
    (without mats the table is one zone). ``options``: more ``Pipeline`` keywords.

    Given a card ``game`` (a :class:`CardCamera`) it reads that game's zones for
    ``seats`` seats, cards only, as ``CardsSeen`` events, each zone named as the card
    games' scenes name it (:func:`seat_area`); a zone whose cards are taken away reports
    an empty tuple, so a scene sees cards leave too."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        sink: Sink,
        *,
        options: dict[str, Any] | None = None,
        game: str | None = None,
        seats: int = 1,
        **kw: Any,  # steady, threaded, clock, max_frames (see _Worker)
    ) -> None:
        super().__init__(open_source, sink, **kw)
        self.options = dict(options or {})
        self.game = game
        self.seats = seats

    def _table(self) -> Any:
        from vision.table import Table, mat_areas

        if self.game is None:
            return Table(seats=1)
        try:
            seat_areas, board_areas = mat_areas(self.game)
        except BadInput:  # a screen with no mats of its own (sign-in): whole mats or slices
            seat_areas, board_areas = {}, {}
        return Table(seat_areas, board_areas, seats=max(1, min(8, self.seats)))

    def _open(self) -> FrameSource:
        from vision.pipeline import Pipeline
        from vision.stabilise import Stabiliser

        self._pipeline = Pipeline(
            self._open_source(),  # type: ignore[arg-type]  # a vision.sources.FrameSource
            table=self._table(),
            dice=self.game is None,
            cards=self.game is not None,
            stabiliser=Stabiliser(self.steady, clock=self._clock),
            clock=self._clock,
            **self.options,
        )
        return self._pipeline.source

    def _look(self, frame: Any) -> list[Any]:
        looked = (self.to_seen(observation) for observation in self._pipeline.process(frame))
        return [seen for seen in looked if seen is not None]

    def to_seen(self, observation: Any) -> Any:
        """The event for the app (``Seen``, or ``CardsSeen`` for a card game), or None
        (not what this camera reads, or a reading with no dice)."""
        key = getattr(observation, "key", None)
        kind = "dice" if self.game is None else "cards"
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] == kind):
            return None
        if self.game is None:
            dice = tuple(DieSeen(v) for v in observation.value)
            return Seen(dice, self._clock(), None, crops_of(observation)) if dice else None
        seat, area = seat_area(self.game, int(key[1].seat), str(key[1].area))
        cards = tuple(CardSeen(str(code), seat, area) for code in observation.value)
        return CardsSeen(seat, area, cards, self._clock(), crops_of(observation))


class CardCamera(PipelineCamera):
    """A :class:`PipelineCamera` for a card ``game`` (required here)."""

    def __init__(self, *args: Any, game: str, **kw: Any) -> None:
        super().__init__(*args, game=game, **kw)


def vision_pipeline_ready() -> bool:
    """True when the vision pipeline can read dice here: its dice reader's models load
    (onnxruntime and the model files)."""
    from vision import dice

    try:
        dice.default_reader()  # loads the models now: a missing model shows here
    except Exception as exc:
        log.info("the vision dice reader is not available: %s", getattr(exc, "message", exc))
        return False
    return True


__all__ = [
    "CardCamera",
    "DiceCamera",
    "DiceReader",
    "FrameSource",
    "PipelineCamera",
    "as_die_seen",
    "seat_area",
    "to_rgb",
    "vision_pipeline_ready",
]
