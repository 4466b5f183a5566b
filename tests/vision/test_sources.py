"""Frame sources: folders, video files, a fake Pi camera, and every way a camera fails."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tabletop.engine.errors import DeviceError
from vision.sources import (
    CAMERA_HELP,
    FrameSource,
    ImageFolderSource,
    OpenCVSource,
    Picamera2Source,
    open_source,
)


def write_images(folder: Path, images: list[np.ndarray]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, img in enumerate(images):
        cv2.imwrite(str(folder / f"frame_{i:02d}.png"), img)


def grey_card(level: int, size: tuple[int, int] = (320, 240)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), level, np.uint8)
    cv2.circle(img, (size[0] // 2, size[1] // 2), 30, (255, 255, 255), -1)
    return img


def test_sources_image_folder_reads_in_order_then_ends(tmp_path: Path) -> None:
    write_images(tmp_path, [grey_card(40), grey_card(80), grey_card(120)])
    (tmp_path / "notes.txt").write_text("not a photo")
    with ImageFolderSource(tmp_path, lores_size=(160, 120)) as source:
        assert isinstance(source, FrameSource)
        frames = [source.read() for _ in range(4)]
    assert frames[3] is None
    assert [f.index for f in frames[:3]] == [0, 1, 2]  # type: ignore[union-attr]
    first = frames[0]
    assert first is not None
    assert first.main.shape == (240, 320, 3)
    assert first.lores.shape == (120, 160)
    assert first.main[0, 0, 0] == 40


def test_sources_image_folder_loops(tmp_path: Path) -> None:
    write_images(tmp_path, [grey_card(40), grey_card(80)])
    source = ImageFolderSource(tmp_path, loop=True)
    levels = [source.read().main[0, 0, 0] for _ in range(5)]  # type: ignore[union-attr]
    assert levels == [40, 80, 40, 80, 40]


def test_sources_empty_folder_is_a_device_error(tmp_path: Path) -> None:
    with pytest.raises(DeviceError) as err:
        ImageFolderSource(tmp_path)
    assert err.value.code == "vision.camera_missing"
    assert str(err.value).startswith(CAMERA_HELP)


def test_sources_missing_folder_is_a_device_error(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="no photo folder"):
        ImageFolderSource(tmp_path / "nowhere")


def test_sources_unreadable_photo_is_a_device_error(tmp_path: Path) -> None:
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    source = ImageFolderSource(tmp_path)
    with pytest.raises(DeviceError, match="cannot read the photo"):
        source.read()


def test_sources_black_frames_are_a_device_error(tmp_path: Path) -> None:
    write_images(tmp_path, [grey_card(60)] + [np.zeros((240, 320, 3), np.uint8)] * 4)
    source = ImageFolderSource(tmp_path, black_limit=3)
    source.read()
    source.read()  # one or two black frames: a hand over the lens, still fine
    source.read()
    with pytest.raises(DeviceError) as err:
        source.read()
    assert err.value.code == "vision.camera_black"
    assert CAMERA_HELP in err.value.message


def test_sources_a_good_frame_resets_the_black_count(tmp_path: Path) -> None:
    black = np.zeros((240, 320, 3), np.uint8)
    write_images(tmp_path, [black, black, grey_card(60), black, black])
    source = ImageFolderSource(tmp_path, black_limit=3)
    assert all(source.read() is not None for _ in range(5))


def make_video(path: Path, frames: int = 6) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    assert writer.isOpened()
    for i in range(frames):
        writer.write(grey_card(30 + 20 * i))
    writer.release()


def test_sources_video_file_reads_every_frame(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    make_video(video)
    with OpenCVSource(video, lores_size=(160, 120)) as source:
        frames = []
        while (frame := source.read()) is not None:
            frames.append(frame)
    assert len(frames) == 6
    assert frames[0].main.shape == (240, 320, 3)
    assert frames[-1].main[0, 0, 0] > frames[0].main[0, 0, 0]
    with pytest.raises(DeviceError, match="closed"):
        source.read()
    source.close()  # twice is harmless


def test_sources_open_source_picks_by_spec(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    make_video(video, 2)
    assert isinstance(open_source(str(video)), OpenCVSource)
    write_images(tmp_path / "photos", [grey_card(50)])
    assert isinstance(open_source(str(tmp_path / "photos")), ImageFolderSource)


def test_sources_missing_video_file_is_a_device_error(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="no video file"):
        OpenCVSource(tmp_path / "none.avi")


def test_sources_a_file_that_is_not_video_is_a_device_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.avi"
    bogus.write_bytes(b"\x00" * 100)
    with pytest.raises(DeviceError) as err:
        source = OpenCVSource(bogus)
        source.read()  # some backends open anything and fail on the first frame
        source.read()
    assert str(err.value).startswith(CAMERA_HELP) or err.value.code == "vision.camera_missing"


def test_sources_no_usb_camera_is_a_device_error() -> None:
    with pytest.raises(DeviceError) as err:
        OpenCVSource(57)
    assert err.value.code == "vision.camera_missing"
    assert "no camera at index 57" in err.value.message


def test_sources_picamera2_missing_is_a_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(DeviceError) as err:
        Picamera2Source()
    assert err.value.code == "vision.camera_missing"
    assert "picamera2 is not installed" in err.value.message


class FakeRequest:
    def __init__(self, camera: FakeCamera) -> None:
        self.camera = camera

    def make_array(self, stream: str) -> np.ndarray:
        w, h = self.camera.config[stream]["size"]
        if stream == "main":
            return np.full((h, w, 3), self.camera.level, np.uint8)
        return np.full((h * 3 // 2, w), self.camera.level, np.uint8)  # YUV420

    def release(self) -> None:
        self.camera.released += 1


class FakeCamera:
    """Just the picamera2 calls the source makes."""

    def __init__(self, fail_after: int = 99, level: int = 90) -> None:
        self.fail_after = fail_after
        self.level = level
        self.captured = 0
        self.released = 0
        self.config: dict[str, Any] = {}
        self.stopped = False

    def create_video_configuration(self, **streams: Any) -> dict[str, Any]:
        return streams

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def capture_request(self) -> FakeRequest:
        self.captured += 1
        if self.captured > self.fail_after:
            raise RuntimeError("Camera frontend has timed out!")
        return FakeRequest(self)

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        pass


def test_sources_picamera2_main_and_lores_streams() -> None:
    camera = FakeCamera()
    with Picamera2Source(camera_factory=lambda: camera, lores_size=(320, 180)) as source:
        frame = source.read()
    assert camera.config["main"] == {"size": (1920, 1080), "format": "RGB888"}
    assert camera.config["lores"] == {"size": (320, 180), "format": "YUV420"}
    assert frame is not None
    assert frame.main.shape == (1080, 1920, 3)
    assert frame.lores.shape == (180, 320)
    assert camera.released == 1
    assert camera.stopped


def test_sources_picamera2_unplugged_mid_game_is_a_device_error() -> None:
    camera = FakeCamera(fail_after=2)
    source = Picamera2Source(camera_factory=lambda: camera)
    source.read()
    source.read()
    with pytest.raises(DeviceError) as err:
        source.read()
    assert err.value.code == "vision.camera_lost"
    assert err.value.message.startswith(CAMERA_HELP)


def test_sources_picamera2_black_frames_are_a_device_error() -> None:
    source = Picamera2Source(camera_factory=lambda: FakeCamera(level=0), black_limit=2)
    source.read()
    with pytest.raises(DeviceError, match="black frames"):
        source.read()


def test_sources_picamera2_that_will_not_start_is_a_device_error() -> None:
    def broken() -> FakeCamera:
        raise IndexError("list index out of range")  # what picamera2 says with no camera

    with pytest.raises(DeviceError, match="did not start"):
        Picamera2Source(camera_factory=broken)


def test_sources_picamera2_main_stream_too_small_for_cards() -> None:
    with pytest.raises(DeviceError, match="at least 1920x1080"):
        Picamera2Source(main_size=(1280, 720), camera_factory=FakeCamera)


def test_sources_a_huge_photo_is_refused_with_a_sentence(tmp_path: Path) -> None:
    from tests.vision.test_cli import huge_png

    huge_png(tmp_path / "huge.png")
    source = ImageFolderSource(tmp_path)
    with pytest.raises(DeviceError, match="too big to read"):
        source.read()
