"""``tabletop vision dice|cards IMAGE...``: output shape, order and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cli import main
from tests.vision.conftest import REPO, SAMPLES
from tests.vision.test_cards import qr_frame


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.fixture(scope="module")
def qr_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("qr") / "cards.png"
    cv2.imwrite(str(path), qr_frame(["MT1:ATK:+5", "https://example.org", "MT1:MWM:C999:1"]))
    return path


def sample_labels() -> list[tuple[str, list[int]]]:
    """(photo name, sorted face values) for the demo's sample photos."""
    out = []
    for photo in sorted(SAMPLES.glob("*.jpg")):
        rows = photo.with_suffix(".txt").read_text().split("\n")
        out.append((photo.name, sorted(int(r.split()[0]) + 1 for r in rows if r.strip())))
    return out


def test_cli_vision_cards_prints_one_json_line_per_image(
    qr_png: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "cards", str(qr_png), str(qr_png)]) == 0
    out = lines(capsys)
    assert len(out) == 2
    line = out[0]
    assert set(line) == {"image", "cards", "ms"}
    assert line["image"] == str(qr_png)
    assert isinstance(line["ms"], float) and line["ms"] >= 0
    cards = line["cards"]
    assert isinstance(cards, list)
    assert [c["payload"] for c in cards] == ["MT1:ATK:+5", "https://example.org", "MT1:MWM:C999:1"]
    assert [c["card"] for c in cards] == ["MT1:ATK:+5", None, None]
    for c in cards:
        assert set(c) == {"payload", "card", "corners"}
        assert len(c["corners"]) == 4 and all(len(p) == 2 for p in c["corners"])


@pytest.mark.parametrize("backend", ["zxing", "pyzbar"])
def test_cli_vision_cards_backend_option(
    qr_png: Path, backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "cards", "--backend", backend, str(qr_png)]) == 0
    assert len(lines(capsys)[0]["cards"]) == 3  # type: ignore[arg-type]


def test_cli_vision_unreadable_files_give_error_lines_and_exit_2(
    qr_png: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    missing = tmp_path / "missing.png"
    status = main(["vision", "cards", str(broken), str(qr_png), str(missing), str(tmp_path)])
    assert status == 2
    out = lines(capsys)
    assert [o["image"] for o in out] == [str(broken), str(qr_png), str(missing), str(tmp_path)]
    assert set(out[0]) == {"image", "error"}
    assert "cards" in out[1]
    assert out[2]["error"] == "no such file"
    assert out[3]["error"] == "not a file"


def test_cli_vision_dice_reads_the_sample_photos(capsys: pytest.CaptureFixture[str]) -> None:
    labels = sample_labels()
    assert main(["vision", "dice", *(str(SAMPLES / f) for f, _ in labels)]) == 0
    out = lines(capsys)
    assert len(out) == len(labels)
    for line, (name, values) in zip(out, labels):
        assert set(line) == {"image", "dice", "ms"}
        assert str(line["image"]).endswith(name)
        dice = line["dice"]
        assert isinstance(dice, list)
        assert sorted(d["value"] for d in dice) == values, name
        for d in dice:
            assert set(d) == {"value", "box", "confidence"}
            assert 0.0 <= d["confidence"] <= 1.0
            x0, y0, x1, y1 = d["box"]
            assert 0 <= x0 < x1 and 0 <= y0 < y1


def test_cli_vision_dice_blank_image_has_no_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 180, np.uint8))
    assert main(["vision", "dice", str(blank)]) == 0
    assert lines(capsys)[0]["dice"] == []


def test_cli_vision_bad_kind_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        main(["vision", "coins", "x.png"])
    assert err.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_cli_vision_as_a_process_never_prints_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG nonsense")
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "vision", "cards", str(broken)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["error"].startswith("not an image")


def huge_png(path: Path, width: int = 20000, height: int = 20000) -> Path:
    """A real, valid PNG of ``width`` x ``height`` black pixels (1 bit each, so the file
    is small: decoding it as colour would take width * height * 3 bytes)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" * (1 + (width + 7) // 8)  # filter byte, then the row's bits
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row * 1000) for _ in range(height // 1000))
    data += packer.compress(row * (height % 1000)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )
    return path


def test_cli_vision_refuses_a_huge_picture_before_decoding_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: a 20000x20000 PNG took 2.4 GB and 20 s; now it is refused from its
    header with a sentence, the other pictures are still read, and the exit is 2."""
    huge = huge_png(tmp_path / "huge.png")
    assert huge.stat().st_size < 200_000
    name, values = sample_labels()[0]
    status = main(["vision", "dice", str(huge), str(SAMPLES / name)])
    assert status == 2
    out = lines(capsys)
    assert set(out[0]) == {"image", "error"}
    error = str(out[0]["error"])
    assert "too big" in error and "400 megapixels" in error and "smaller than 50" in error
    assert sorted(d["value"] for d in out[1]["dice"]) == values  # type: ignore[union-attr]


def test_cli_vision_pixel_limit_counts_width_times_height(tmp_path: Path) -> None:
    from vision.images import MAX_PIXELS, load_picture, too_big

    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.zeros((60, 80, 3), np.uint8))
    assert too_big(small) is None
    assert too_big(small, max_pixels=80 * 60) is None  # at the limit: read
    assert "(80x60 pixels, 0.0048 megapixels)" in str(too_big(small, max_pixels=80 * 60 - 1))
    big = tmp_path / "big.png"
    huge_png(big, 9000, 6000)  # under Pillow's own limit: the size is read from the header
    assert "(9000x6000 pixels, 54 megapixels)" in str(too_big(big))
    assert isinstance(load_picture(small), np.ndarray)
    assert "too big" in str(load_picture(small, max_pixels=100))
    assert MAX_PIXELS >= 4608 * 2592  # the camera's largest still is read
    # A file Pillow does not know is left to OpenCV, which says it cannot read it.
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\x00" * 64)
    assert too_big(odd) is None
    assert str(load_picture(odd)).startswith("not an image")
