"""A camera simulation and synthetic table frames, for the bench and the tests.

:func:`camera_like` makes a clean picture look as if the device's camera took it:
downscaled to the capture size, seen in perspective, blurred, noisy, JPEG-compressed,
darker at the corners and with a patch of glare. :func:`table_frame` lays QR-coded
cards on a wooden table and photographs it that way. The printables reuse both to
check that printed cards stay readable. Everything is driven by a numpy ``Generator``,
so a seed gives the same frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

CARD_MM = (63.0, 88.0)  # poker size
QR_MM = 30.0  # DESIGN.md: printed QR codes at least 30 mm
TABLE_MM = 600.0  # the width of table the camera sees
Style = Literal["clean", "perspective", "camera"]
STYLES: tuple[Style, ...] = ("clean", "perspective", "camera")


def qr_image(payload: str) -> np.ndarray:
    """The QR code of a payload, one pixel per module, with its quiet zone (grey)."""
    import zxingcpp

    code = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode)
    return np.array(zxingcpp.write_barcode_to_image(code, scale=1), dtype=np.uint8)


def card_image(
    payload: str, px_per_mm: float, colour: tuple[int, int, int] = (60, 60, 200)
) -> np.ndarray:
    """A BGR card: coloured border, its value in large print, a 30 mm QR code."""
    w, h = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
    card = np.full((h, w, 3), 250, np.uint8)
    border = max(2, round(3 * px_per_mm))
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), colour, border)
    label = payload.split(":")[2] if payload.count(":") >= 2 else payload[:4]
    scale = 0.045 * px_per_mm * 3
    cv2.putText(
        card,
        label,
        (border * 2, round(22 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        colour,
        max(1, round(px_per_mm)),
        cv2.LINE_AA,
    )
    qr = qr_image(payload)
    side = round(QR_MM * px_per_mm)
    big = cv2.resize(
        qr,
        (side, side),
        interpolation=cv2.INTER_AREA if side < qr.shape[0] * 4 else cv2.INTER_NEAREST,
    )
    if side >= qr.shape[0]:
        # Nearest-neighbour up, then area down: crisp modules at any scale.
        up = cv2.resize(qr, (qr.shape[1] * 8, qr.shape[0] * 8), interpolation=cv2.INTER_NEAREST)
        big = cv2.resize(up, (side, side), interpolation=cv2.INTER_AREA)
    x, y = (w - side) // 2, h - side - round(8 * px_per_mm)
    card[y : y + side, x : x + side] = big[..., None]
    return card


def wood(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A light wooden table top, BGR."""
    w, h = size
    yy = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    xx = np.linspace(0, 1, w, dtype=np.float32)[None, :]
    freq = rng.uniform(20, 40)
    grain = np.sin((yy * freq + 0.3 * np.sin(xx * 7 + rng.uniform(0, 6))) * np.pi * 2)
    base = 170 + 18 * grain + rng.normal(0, 4, (h, w)).astype(np.float32)
    img = np.stack([base * 0.72, base * 0.86, base], axis=2)
    return img.clip(0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Placed:
    """A card laid on a synthetic table: its payload and centre in frame pixels."""

    payload: str
    centre: tuple[float, float]


def table_frame(
    payloads: Sequence[str],
    rng: np.random.Generator,
    size: tuple[int, int] = (1920, 1080),
    style: Style = "clean",
    table_mm: float = TABLE_MM,
) -> tuple[np.ndarray, list[Placed]]:
    """A BGR frame of up to 8 cards on a table, as ``style`` says:

    - ``clean``: cards square to the camera, sharp;
    - ``perspective``: cards turned at any angle, the whole table seen at a slant;
    - ``camera``: as ``perspective``, through :func:`camera_like` (blur, noise, JPEG,
      vignette, glare).
    """
    w, h = size
    ppm = w / table_mm
    frame = wood(size, rng)
    cols = 4
    rows = max(1, -(-len(payloads) // cols))
    cell_w, cell_h = w / cols, h / rows
    placed = []
    for i, payload in enumerate(payloads):
        card = card_image(payload, ppm, _colour(rng))
        ch, cw = card.shape[:2]
        cx = (i % cols + 0.5) * cell_w + rng.uniform(-0.08, 0.08) * cell_w
        cy = (i // cols + 0.5) * cell_h + rng.uniform(-0.05, 0.05) * cell_h
        angle = 0.0 if style == "clean" else float(rng.uniform(0, 360))
        m = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, 1.0)
        m[0, 2] += cx - cw / 2
        m[1, 2] += cy - ch / 2
        warped = cv2.warpAffine(card, m, size, flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
        mask = cv2.warpAffine(np.full((ch, cw), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
        alpha = mask.astype(np.float32)[..., None] / 255.0
        frame = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)
        placed.append(Placed(payload, (cx, cy)))
    if style != "clean":
        frame, hom = perspective(frame, rng, 0.06)
        pts = cv2.perspectiveTransform(np.array([[p.centre for p in placed]], np.float32), hom)[0]
        placed = [Placed(p.payload, (float(x), float(y))) for p, (x, y) in zip(placed, pts)]
    if style == "camera":
        frame = camera_like(frame, rng)
    return frame, placed


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    palette = [(60, 60, 200), (200, 90, 40), (40, 150, 40), (30, 170, 220), (20, 20, 20)]
    c = palette[int(rng.integers(len(palette)))]
    return (int(c[0]), int(c[1]), int(c[2]))


def perspective(
    image: np.ndarray, rng: np.random.Generator, amount: float
) -> tuple[np.ndarray, np.ndarray]:
    """The image seen at a slant: each corner moved by up to ``amount`` of its size."""
    h, w = image.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = (
        rng.uniform(0, amount, (4, 2))
        * np.array([w, h])
        * np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
    )
    dst = (src + jitter).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(
        image, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return out, hom


def camera_like(
    image: np.ndarray,
    rng: np.random.Generator,
    *,
    size: tuple[int, int] | None = None,
    slant: float = 0.0,
    blur: tuple[float, float] = (0.5, 1.1),
    noise: tuple[float, float] = (2.0, 6.0),
    jpeg: tuple[int, int] = (55, 85),
    vignette: float = 0.35,
    glare: float = 0.5,
) -> np.ndarray:
    """A clean BGR (or grey) picture as the device's camera would take it.

    ``size`` (w, h) downscales to the capture size first; ``slant`` > 0 adds a
    perspective (corners moved by up to that share of the size); then a Gaussian blur
    of sigma drawn from ``blur``, a vignette darkening the corners by up to
    ``vignette``, with probability ``glare`` a soft bright patch, sensor noise of sigma
    drawn from ``noise``, and JPEG at a quality drawn from ``jpeg``.
    """
    out = image
    if size is not None and (out.shape[1], out.shape[0]) != size:
        out = cv2.resize(out, size, interpolation=cv2.INTER_AREA)
    if slant > 0:
        out, _ = perspective(out, rng, slant)
    h, w = out.shape[:2]
    sigma = float(rng.uniform(*blur))
    if sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    f = out.astype(np.float32)
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    light: np.ndarray = 1.0 - vignette * (xx**2 + yy**2) / 2
    if rng.random() < glare:
        gx, gy = rng.uniform(-0.8, 0.8, 2)
        radius = float(rng.uniform(0.15, 0.35))
        light = light + 0.45 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * radius**2))
    if f.ndim == 3:
        light = light[..., None]
    f = f * light + rng.normal(0, float(rng.uniform(*noise)), f.shape).astype(np.float32)
    out = f.clip(0, 255).astype(np.uint8)
    quality = int(rng.integers(jpeg[0], jpeg[1] + 1))
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED) if ok else None
    return out if decoded is None else decoded
