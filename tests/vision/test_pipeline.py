"""The pipeline: source -> readers -> stabiliser -> queue, in its thread and by hand."""

from __future__ import annotations

import dataclasses
import queue
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.engine.errors import DeviceError
from vision.pipeline import CameraFailed, Pipeline
from vision.simulate import table_frame
from vision.sources import Frame, ImageFolderSource
from vision.stabilise import Observation, Stabiliser
from vision.table import Box, Table, Zone

PAYLOADS = [
    "MT1:MECS:9",
    "MT1:MECS:X",
    "MT1:MWM:C17:3",
    "MT1:MWM:C17:3",
    "MT1:ATK:+5",
    "https://x.org",
    "MT1:ARENA:QS",
    "MT1:MWM:C999:1",
]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.04
        return self.now


@pytest.fixture(scope="module")
def table_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    frame, _ = table_frame(PAYLOADS, np.random.default_rng(5), (1920, 1080), "clean")
    folder = tmp_path_factory.mktemp("table")
    for i in range(4):
        cv2.imwrite(str(folder / f"frame_{i}.png"), frame)
    return folder


def drain(pipe: Pipeline) -> list[Observation | CameraFailed]:
    """Everything the thread puts on the queue until it ends (bounded: 600 polls)."""
    items: list[Observation | CameraFailed] = []
    for _ in range(600):
        try:
            items.append(pipe.observations.get(timeout=0.1))
        except queue.Empty:
            if not pipe.running:
                break
    pipe.stop()
    while not pipe.observations.empty():
        items.append(pipe.observations.get_nowait())
    return items


def test_pipeline_thread_reports_stable_cards_per_seat(table_png: Path) -> None:
    clock = Clock()
    pipe = Pipeline(
        ImageFolderSource(table_png, clock=clock),
        table=Table(seats=2),
        stabiliser=Stabiliser(2, clock=clock),
        dice=False,
        clock=clock,
    )
    pipe.start()
    items = drain(pipe)
    assert all(isinstance(i, Observation) for i in items)
    by_key = {i.key: i for i in items if isinstance(i, Observation)}
    # Cards lie in two rows of four: seat 1 has columns 1-2, seat 2 columns 3-4.
    seat1 = by_key[("cards", Zone(1, "table"))]
    seat2 = by_key[("cards", Zone(2, "table"))]
    assert sorted(seat1.value) == sorted(["MT1:MECS:9", "MT1:MECS:X", "MT1:ATK:+5", "?"])
    # Army 3's C17 twice is impossible: flagged with "!"; a malformed code reads "?".
    assert sorted(seat2.value) == sorted(["!MT1:MWM:C17:3", "!MT1:MWM:C17:3", "MT1:ARENA:QS", "?"])
    assert len(seat2.crops) == 4 and all(c.ndim == 3 and c.size for c in seat2.crops)
    assert not pipe.running


def test_pipeline_camera_failure_goes_on_the_queue() -> None:
    class Failing:
        def __init__(self) -> None:
            self.reads = 0
            self.closed = False

        def read(self) -> Frame:
            self.reads += 1
            if self.reads > 2:
                raise DeviceError(
                    "vision.camera_lost", "the camera is not working: check the cable"
                )
            img = np.full((360, 640, 3), 100, np.uint8)
            return Frame(img, img[..., 0], self.reads, 0.0)

        def close(self) -> None:
            self.closed = True

        def __enter__(self) -> Failing:
            return self

        def __exit__(self, *exc: object) -> None:
            self.close()

    source = Failing()
    pipe = Pipeline(source, dice=False)  # type: ignore[arg-type]
    pipe.start()
    items = drain(pipe)
    assert len(items) == 1 and isinstance(items[0], CameraFailed)
    assert items[0].error.code == "vision.camera_lost"
    assert source.closed


def test_pipeline_moving_frames_are_not_read() -> None:
    frame, _ = table_frame(PAYLOADS[:2], np.random.default_rng(1), (1280, 720), "clean")
    lores = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (640, 360))
    pipe = Pipeline(_Nothing(), dice=False, stabiliser=Stabiliser(2, clock=Clock()))
    first = pipe.look(Frame(frame, lores, 0, 0.0))
    assert not first.still and first.cards is None  # no frame before: treated as moving
    second = pipe.look(Frame(frame, lores, 1, 0.0))
    assert second.still and len(second.cards) == 2
    moved = pipe.look(Frame(frame, 255 - lores, 2, 0.0))
    assert not moved.still and moved.cards is None


def test_pipeline_a_cleared_zone_is_reported_empty() -> None:
    frame, _ = table_frame(["MT1:ATK:+5"], np.random.default_rng(1), (1280, 720), "clean")
    empty = np.full_like(frame, 170)
    pipe = Pipeline(
        _Nothing(),
        dice=False,
        table=Table(seats=1),
        stabiliser=Stabiliser(2, clock=Clock()),
        skip_moving=False,
    )
    seen = []
    for i, img in enumerate([frame] * 3 + [empty] * 3):  # the first of each moves
        lores = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (640, 360))
        seen += [o.value for o in pipe.process(Frame(img, lores, i, 0.0))]
    assert seen == [("MT1:ATK:+5",), ()]


def test_pipeline_stop_is_idempotent_and_thread_is_named(table_png: Path) -> None:
    pipe = Pipeline(ImageFolderSource(table_png, loop=True), dice=False)
    pipe.start()
    assert any(t.name == "vision" for t in threading.enumerate())
    pipe.stop()
    pipe.stop()
    assert not pipe.running


class _Nothing:
    def read(self) -> None:
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> _Nothing:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_pipeline_reads_dice_and_cards_in_turn() -> None:
    from tests.vision.conftest import SAMPLES

    photo = cv2.imread(str(SAMPLES / "three_11.jpg"), cv2.IMREAD_COLOR)
    frame, _ = table_frame(["MT1:MECS:7"], np.random.default_rng(2), (1280, 720), "clean")
    frame[360:720, 800:1280] = cv2.resize(photo, (480, 360), interpolation=cv2.INTER_AREA)
    lores = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (640, 360))
    pipe = Pipeline(_Nothing(), table=Table(seats=1), stabiliser=Stabiliser(2, clock=Clock()))
    seen = [pipe.look(Frame(frame, lores, i, 0.0)) for i in range(3)]
    assert seen[0].dice is None and seen[0].cards is None  # the first frame counts as moving
    # Cards first (the dice reading then skips their QR codes) ...
    assert seen[1].dice is None and seen[1].read == ("cards",)
    assert [c.payload for c in seen[1].cards or ()] == ["MT1:MECS:7"]
    # ... and the next still frame reads the dice; the card reading holds.
    assert seen[2].read == ("dice",) and seen[2].cards == seen[1].cards
    assert [d.value for d in seen[2].dice or ()] == [3, 3]
    values = {}
    for i in range(3, 8):
        for obs in pipe.process(Frame(frame, lores, i, 0.0)):
            values[obs.key] = obs.value
    assert values == {
        ("dice", Zone(1, "table")): (3, 3),
        ("cards", Zone(1, "table")): ("MT1:MECS:7",),
    }


def test_pipeline_uses_the_sources_grey_image_and_markers_on_lores(table_png: Path) -> None:
    """A source that made the grey frame (for its lores image) hands it over: the QR
    codes are read from it, not from a second conversion; the markers' search takes
    the lores image as it is when it has the search's size (640 px wide here)."""
    source = ImageFolderSource(table_png)
    frame = source.read()
    source.close()
    assert frame is not None and frame.grey is not None
    assert np.array_equal(frame.grey, cv2.cvtColor(frame.main, cv2.COLOR_BGR2GRAY))
    assert frame.lores.shape == (360, 640)
    pipe = Pipeline(ImageFolderSource(table_png), dice=False, reuse=False)
    calls: list[tuple[int, int]] = []
    calibrate = pipe.table.calibrate

    def spy(
        image: np.ndarray, region: Box | None = None, small: np.ndarray | None = None
    ) -> object:
        calls.append((image.ndim, 0 if small is None else small.ndim))
        return calibrate(image, region, small)

    pipe.table.calibrate = spy  # type: ignore[method-assign, assignment]
    pipe.look(frame)  # the first frame counts as moving
    still = pipe.look(dataclasses.replace(frame, index=1))
    assert calls == [(3, 2)]  # the BGR frame for its size; the lores image searched
    assert {c.payload for c in still.cards or ()} >= {"MT1:MECS:9", "MT1:ATK:+5"}
    blank = dataclasses.replace(frame, index=2, grey=np.full_like(frame.grey, 255))
    assert pipe.look(blank).cards == ()  # the grey image handed over is the one read
