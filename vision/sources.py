"""Where frames come from: the Pi camera, a USB camera or video file, a folder of photos.

Every source gives :class:`Frame` objects: ``main`` (BGR, full resolution, for the
cards' QR codes: 1920x1080 or more, see DESIGN.md) and ``lores`` (small grey, for
motion), as picamera2's own examples pair a main and a lores stream. A finite source
(video file, folder) returns None when it has no more frames. A camera that is missing,
unplugged mid-game or only gives black frames raises :class:`DeviceError` with code
``vision.camera_*`` and a message that starts with :data:`CAMERA_HELP`, never anything
else: the app shows it and falls back to typed values.

    with OpenCVSource(0) as source:
        frame = source.read()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from tabletop.engine.errors import DeviceError
from vision.images import load_picture

CAMERA_HELP = "the camera is not working: check the cable; you can type the values instead"
MAIN_SIZE = (1920, 1080)
LORES_SIZE = (640, 360)
BLACK_LEVEL = 12  # a frame whose brightest 1% is below this is black
BLACK_LIMIT = 5  # this many black frames in a row: the camera is not working
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


def camera_error(code: str, detail: str) -> DeviceError:
    return DeviceError(f"vision.{code}", f"{CAMERA_HELP} ({detail})")


@dataclass(frozen=True)
class Frame:
    """One captured frame: ``main`` BGR for cards, ``lores`` grey for motion; ``grey``:
    ``main`` in grey when the source made it (for the lores image), so the pipeline
    does not convert it again."""

    main: np.ndarray = field(repr=False)
    lores: np.ndarray = field(repr=False)
    index: int
    at: float
    grey: np.ndarray | None = field(default=None, repr=False)


@runtime_checkable
class FrameSource(Protocol):
    """Anything that gives frames; used as a context manager."""

    def read(self) -> Frame | None:
        """The next frame; None when a finite source has no more; DeviceError if broken."""
        ...

    def close(self) -> None:
        """Release the device; calling it twice is harmless."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _Source:
    """Shared parts: context manager, lores stream, the black-frame watch."""

    def __init__(
        self,
        *,
        lores_size: tuple[int, int] = LORES_SIZE,
        black_limit: int = BLACK_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lores_size = lores_size
        self.black_limit = black_limit
        self.clock = clock
        self._index = 0
        self._black = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        pass

    def _frame(self, main: np.ndarray, lores: np.ndarray | None = None) -> Frame:
        """Wrap an image as a Frame, raising DeviceError after too many black ones."""
        if main is None or main.size == 0:
            raise camera_error("camera_no_frame", "the camera gave an empty frame")
        if main.ndim == 2:
            main = cv2.cvtColor(main, cv2.COLOR_GRAY2BGR)
        elif main.shape[2] == 4:
            main = cv2.cvtColor(main, cv2.COLOR_BGRA2BGR)
        grey = None
        if lores is None:
            grey = cv2.cvtColor(main, cv2.COLOR_BGR2GRAY)
            lores = cv2.resize(grey, self.lores_size, interpolation=cv2.INTER_AREA)
        if is_black(lores):
            self._black += 1
            if self._black >= self.black_limit:
                raise camera_error(
                    "camera_black", f"{self._black} black frames in a row: is the lens covered?"
                )
        else:
            self._black = 0
        frame = Frame(main, lores, self._index, self.clock(), grey)
        self._index += 1
        return frame


def is_black(image: np.ndarray) -> bool:
    """True when even the brightest 1% of a (small) image is nearly black."""
    sample = image[::4, ::4] if image.size > 100_000 else image
    return bool(np.percentile(sample, 99) < BLACK_LEVEL)


class OpenCVSource(_Source):
    """A USB camera (``device`` an index, e.g. 0) or a video file (a path)."""

    def __init__(
        self,
        device: int | str | Path = 0,
        *,
        size: tuple[int, int] = MAIN_SIZE,
        lores_size: tuple[int, int] = LORES_SIZE,
        black_limit: int = BLACK_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(lores_size=lores_size, black_limit=black_limit, clock=clock)
        self.is_file = not isinstance(device, int)
        if isinstance(device, (str, Path)) and not Path(device).is_file():
            raise camera_error("camera_missing", f"no video file {device}")
        self._cap: Any = cv2.VideoCapture(str(device) if self.is_file else device)
        if not self._cap.isOpened():
            self._cap.release()
            self._cap = None
            what = f"cannot open {device}" if self.is_file else f"no camera at index {device}"
            raise camera_error("camera_missing", what)
        if not self.is_file:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> Frame | None:
        if self._cap is None:
            raise camera_error("camera_closed", "the camera was closed")
        ok, image = self._cap.read()
        if not ok or image is None:
            if self.is_file:
                return None
            raise camera_error("camera_lost", "the camera stopped sending frames")
        return self._frame(image)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource(_Source):
    """The photos in a folder (or a list of files), in name order; ``loop`` repeats."""

    def __init__(
        self,
        folder: str | Path | list[Path],
        *,
        loop: bool = False,
        lores_size: tuple[int, int] = LORES_SIZE,
        black_limit: int = BLACK_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(lores_size=lores_size, black_limit=black_limit, clock=clock)
        if isinstance(folder, list):
            self.paths = list(folder)
        else:
            path = Path(folder)
            if not path.is_dir():
                raise camera_error("camera_missing", f"no photo folder {path}")
            self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise camera_error("camera_missing", f"no photos in {folder}")
        self.loop = loop
        self._next = 0

    def read(self) -> Frame | None:
        if self._next >= len(self.paths):
            if not self.loop:
                return None
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        image = load_picture(path)
        if isinstance(image, str):
            raise camera_error("camera_no_frame", f"cannot read the photo {path}: {image}")
        return self._frame(image)


class Picamera2Source(_Source):
    """The Raspberry Pi camera through picamera2 (imported here, not at module load).

    A ``main`` RGB888 stream (BGR in memory, as OpenCV wants) of at least 1920x1080 for
    the cards and a small YUV420 ``lores`` stream whose Y plane is the grey motion image.
    """

    def __init__(
        self,
        *,
        main_size: tuple[int, int] = MAIN_SIZE,
        lores_size: tuple[int, int] = LORES_SIZE,
        black_limit: int = BLACK_LIMIT,
        clock: Callable[[], float] = time.monotonic,
        camera_factory: Callable[[], Any] | None = None,
    ) -> None:
        super().__init__(lores_size=lores_size, black_limit=black_limit, clock=clock)
        if main_size[0] < MAIN_SIZE[0] or main_size[1] < MAIN_SIZE[1]:
            raise DeviceError(
                "vision.camera_config",
                f"the main stream must be at least {MAIN_SIZE[0]}x{MAIN_SIZE[1]} to read cards",
            )
        self._cam: Any = None
        try:
            if camera_factory is None:
                from picamera2 import Picamera2

                camera_factory = Picamera2
            cam = camera_factory()
            config = cam.create_video_configuration(
                main={"size": main_size, "format": "RGB888"},
                lores={"size": lores_size, "format": "YUV420"},
            )
            cam.configure(config)
            cam.start()
        except ImportError:
            raise camera_error("camera_missing", "picamera2 is not installed") from None
        except Exception as exc:  # picamera2 raises many kinds: all mean "no camera"
            raise camera_error("camera_missing", f"the Pi camera did not start: {exc}") from None
        self._cam = cam

    def read(self) -> Frame | None:
        if self._cam is None:
            raise camera_error("camera_closed", "the camera was closed")
        try:
            request = self._cam.capture_request()
            try:
                main = request.make_array("main")
                yuv = request.make_array("lores")
            finally:
                request.release()
        except Exception as exc:
            raise camera_error("camera_lost", f"the Pi camera stopped: {exc}") from None
        w, h = self.lores_size
        return self._frame(np.ascontiguousarray(main[:, :, :3]), np.ascontiguousarray(yuv[:h, :w]))

    def close(self) -> None:
        if self._cam is not None:
            cam, self._cam = self._cam, None
            try:
                cam.stop()
                cam.close()
            except Exception:  # closing a camera that already failed must not fail
                pass


def open_source(spec: str, *, loop: bool = False) -> FrameSource:
    """A source from a command-line spec: ``picamera``, a USB index, a video file or a
    folder of photos."""
    if spec == "picamera":
        return Picamera2Source()
    if spec.isdigit():
        return OpenCVSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, loop=loop)
    return OpenCVSource(path)
