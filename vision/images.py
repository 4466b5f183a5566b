"""Pictures from files: read only those small enough to read safely.

A picture's size is read from its header (Pillow opens lazily: nothing is decoded)
before OpenCV decodes it, so a 20000x20000 PNG is refused in a millisecond instead of
taking gigabytes and tens of seconds. The camera's largest still (Camera Module 3,
4608x2592) and a phone's 48-megapixel photo are well under :data:`MAX_PIXELS`.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 50_000_000  # 50 megapixels: 8000x6000 is fine, 20000x20000 is not


def picture_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from the file's header, or None when Pillow does not know the
    format (OpenCV may still read it, within its own limit)."""
    from PIL import Image  # Pillow comes with fpdf2; only the header is read

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                width, height = im.size
    except Image.DecompressionBombError as exc:
        # Pillow refuses pictures past twice its own limit (179 megapixels) before it
        # gives the size; its message has the pixel count: (pixels, 1).
        found = re.search(r"\((\d+) pixels\)", str(exc))
        return (int(found.group(1)) if found else 2 * MAX_PIXELS), 1
    except (OSError, ValueError, SyntaxError):
        return None
    return int(width), int(height)


def too_big(path: Path, max_pixels: int = MAX_PIXELS) -> str | None:
    """A sentence saying the picture is too big to read, or None when it is not."""
    size = picture_size(path)
    if size is None or size[0] * size[1] <= max_pixels:
        return None
    mega = f"{size[0] * size[1] / 1e6:.3g} megapixels"
    shown = f"{size[0]}x{size[1]} pixels, {mega}" if size[1] > 1 else mega
    return (
        f"the picture is too big to read ({shown}): make it smaller than "
        f"{max_pixels // 1_000_000} megapixels (for example 8000x6000) and try again"
    )


def load_picture(path: Path, max_pixels: int = MAX_PIXELS) -> np.ndarray | str:
    """The picture as 8-bit BGR, or a one-line reason it cannot be read."""
    if not path.exists():
        return "no such file"
    if not path.is_file():
        return "not a file"
    reason = too_big(path, max_pixels)
    if reason:
        return reason
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        return "not an image that can be read (JPEG, PNG, WebP, BMP...)"
    return image
