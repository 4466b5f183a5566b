"""``tabletop bench --game vision``: vision figures, measured (never asserted here).

- ``dice``: per shared set, on its held-out part (every fifth photo, never used in
  training or tuning): dice read right (share of every labelled die), read wrong,
  unreadable, detection recall, false dice, ms per image.
- ``qr_samples``: share of ``shared/data/qr`` images whose expected text was read, by
  our reader and by bare zxing-cpp and bare pyzbar.
- ``cards``: synthetic table frames (1920x1080 and 1280x720, 8 cards, clean /
  perspective / camera-like), read rate and ms per frame for our reader and for bare
  zxing-cpp and bare pyzbar on the same frames in the same run (the ratio is the
  figure that matters on a busy machine).
- ``pipeline``: ms per frame of the whole pipeline (table, cards, dice, stabiliser) on
  camera-like frames with cards and dice, still and moving.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import datasets
from vision.cards import read_cards
from vision.dice import DiceReader, default_reader
from vision.simulate import STYLES, camera_like, table_frame

CARD_POOL = (
    "MT1:MWM:C17:3", "MT1:MWM:C100:1", "MT1:MWM:K-5:3", "MT1:MWM:KX3:2", "MT1:MWM:K/4:8",
    "MT1:MWM:VIC", "MT1:ATK:+5", "MT1:ATK:-10", "MT1:ATK:+H", "MT1:ATK:CANCEL", "MT1:ATK:FLIP",
    "MT1:MECS:7", "MT1:MECS:DIV", "MT1:MECS:EQ", "MT1:MECS:OBJ12", "MT1:MECS:SQRT",
    "MT1:ARENA:10H", "MT1:ARENA:QS", "MT1:ARENA:AC", "MT1:ID:S042",
)  # fmt: skip
SIZES = ((1920, 1080), (1280, 720))


def figures(frames: int = 12, seed: int = 6) -> dict[str, Any]:
    """Every vision figure as a JSON-ready dict."""
    cv2.setNumThreads(1)  # figures per desktop core, as the Pi's budget is per core
    out: dict[str, Any] = {"cpu_threads": 1}
    out["dice"] = dice_figures()
    out["qr_samples"] = qr_sample_figures()
    out["cards"] = card_figures(frames, seed)
    out["pipeline"] = pipeline_figures(frames, seed)
    return out


def _shared() -> Path | None:
    root = datasets.shared_data_dir()
    return root if root.is_dir() else None


def dice_figures(reader: DiceReader | None = None) -> dict[str, Any]:
    root = _shared()
    if root is None:
        return {"skipped": f"no shared data at {datasets.shared_data_dir()}"}
    reader = reader or default_reader()
    result: dict[str, Any] = {}
    for name in datasets.DICE_SETS:
        _, held = datasets.split(datasets.load_set(name, root))
        score, times = score_dice(held, reader)
        result[name] = {
            "part": "held_out (every fifth photo)",
            "images": len(held),
            **score.figures(),
            "ms_per_image": round(statistics.median(times), 2) if times else None,
        }
    return result


def score_dice(
    images: list[datasets.LabelledImage], reader: DiceReader
) -> tuple[datasets.DiceScore, list[float]]:
    """Read every image and score it against its labels; (score, ms per image)."""
    score = datasets.DiceScore()
    times = []
    for im in images:
        frame = cv2.imread(str(im.path), cv2.IMREAD_COLOR)
        start = time.perf_counter()
        dice = reader.read(frame)
        times.append((time.perf_counter() - start) * 1000)
        score.add(im, [(d.box, d.value) for d in dice])
    return score, times


def qr_sample_paths(root: Path) -> list[tuple[Path, str]]:
    """(image, expected text) for every sample in ``qr/zxing-cpp-samples``."""
    out = []
    folder = root / "qr" / "zxing-cpp-samples"
    for path in sorted(folder.glob("*/*")):
        if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".webp"):
            continue
        for txt in (path.with_suffix(".txt"), path.with_name(path.stem.rsplit("-", 1)[0] + ".txt")):
            if txt.exists():
                out.append((path, txt.read_bytes().decode("utf-8", errors="replace")))
                break
    return out


def qr_sample_figures() -> dict[str, Any]:
    import zxingcpp

    from vision.cards import decode_pyzbar

    root = _shared()
    if root is None:
        return {"skipped": f"no shared data at {datasets.shared_data_dir()}"}
    samples = qr_sample_paths(root)
    counts = {"ours_zxing": 0, "ours_both": 0, "bare_zxing": 0, "bare_pyzbar": 0}
    bare_only = []
    for path, expected in samples:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        bare = expected in {r.text for r in zxingcpp.read_barcodes(img)}
        ours = expected in {c.payload for c in read_cards(img, "zxing")}
        counts["bare_zxing"] += bare
        counts["ours_zxing"] += ours
        counts["ours_both"] += expected in {c.payload for c in read_cards(img, "both")}
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        counts["bare_pyzbar"] += expected in {t for t, _ in decode_pyzbar(grey)}
        if bare and not ours:
            bare_only.append(str(path.relative_to(root)))
    n = max(1, len(samples))
    return {
        "images": len(samples),
        **{f"{k}_read_pct": round(100 * v / n, 1) for k, v in counts.items()},
        "read_by_bare_zxing_but_not_ours": bare_only,
    }


def _timed(fn: Callable[[], set[str]]) -> tuple[set[str], float]:
    start = time.perf_counter()
    got = fn()
    return got, (time.perf_counter() - start) * 1000


def card_figures(frames: int = 12, seed: int = 6) -> dict[str, Any]:
    import zxingcpp

    from vision.cards import decode_pyzbar

    result: dict[str, Any] = {}
    for size in SIZES:
        per_size: dict[str, Any] = {}
        for style in STYLES:
            rng = np.random.default_rng(seed)
            read = {"ours": 0, "zxing_bare": 0, "pyzbar_bare": 0}
            ms: dict[str, list[float]] = {k: [] for k in read}
            total = 0
            for _ in range(frames):
                payloads = list(rng.choice(CARD_POOL, 8, replace=False))
                frame, _placed = table_frame(payloads, rng, size, style)
                grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
                runs: dict[str, Callable[[], set[str]]] = {
                    "ours": lambda frame=frame: {c.payload for c in read_cards(frame)},
                    "zxing_bare": lambda grey=grey: {r.text for r in zxingcpp.read_barcodes(grey)},
                    "pyzbar_bare": lambda grey=grey: {t for t, _ in decode_pyzbar(grey)},
                }
                for name, fn in runs.items():
                    got, t = _timed(fn)
                    read[name] += len(got & set(payloads))
                    ms[name].append(t)
                total += len(payloads)
            z, p = statistics.median(ms["zxing_bare"]), statistics.median(ms["pyzbar_bare"])
            per_size[style] = {
                **{f"{k}_read_pct": round(100 * v / total, 1) for k, v in read.items()},
                **{f"{k}_ms": round(statistics.median(v), 2) for k, v in ms.items()},
                "pyzbar_over_zxing_time": round(p / z, 2) if z > 0 else None,
            }
        result[f"{size[0]}x{size[1]}"] = {"frames": frames, "cards_per_frame": 8, **per_size}
    return result


def pipeline_figures(frames: int = 12, seed: int = 6) -> dict[str, Any]:
    """ms per frame of Pipeline.process on camera-like frames with 8 cards and dice."""
    from vision.pipeline import Pipeline
    from vision.sources import Frame
    from vision.stabilise import Stabiliser

    dice_photo = _dice_photo()
    result: dict[str, Any] = {}
    for size in SIZES:
        rng = np.random.default_rng(seed)
        pool = []
        for _ in range(4):
            payloads = list(rng.choice(CARD_POOL, 8, replace=False))
            frame, _ = table_frame(payloads, rng, size, "perspective")
            if dice_photo is not None:
                # Dice in the middle of the table, at their true size: the photo's dice
                # (~62 px) become 16 mm dice on a 60 cm wide table.
                ratio = size[0] / 600 * 16 / 62
                dh, dw = round(480 * ratio), round(640 * ratio)
                x0, y0 = (size[0] - dw) // 2, (size[1] - dh) // 2
                frame[y0 : y0 + dh, x0 : x0 + dw] = cv2.resize(
                    dice_photo, (dw, dh), interpolation=cv2.INTER_AREA
                )
            pool.append(camera_like(frame, rng))
        lores_size = (640, 360)
        pipe = Pipeline(_NoSource(), stabiliser=Stabiliser(3))
        still_ms: list[float] = []
        moving_ms: list[float] = []
        for i in range(frames * 2):
            main = pool[(i // 2) % len(pool)]  # each picture twice: still on the second
            lores = cv2.resize(
                cv2.cvtColor(main, cv2.COLOR_BGR2GRAY), lores_size, interpolation=cv2.INTER_AREA
            )
            start = time.perf_counter()
            pipe.process(Frame(main, lores, i, float(i)))
            t = (time.perf_counter() - start) * 1000
            (still_ms if i % 2 else moving_ms).append(t)
        # Still frames alternate: dice on one, cards on the next.
        dice_ms, card_ms = still_ms[0::2], still_ms[1::2]
        lores = cv2.resize(cv2.cvtColor(pool[0], cv2.COLOR_BGR2GRAY), lores_size)
        pipe.look(Frame(pool[0], lores, 0, 0.0))
        pipe._turn = True  # this still frame reads the cards ...
        pipe.look(Frame(pool[0], lores, 1, 0.0))
        pipe._turn = False  # ... and the next one the dice
        seen = pipe.look(Frame(pool[0], lores, 2, 0.0))
        result[f"{size[0]}x{size[1]}"] = {
            "ms_per_still_frame_dice": _median(dice_ms),
            "ms_per_still_frame_cards": _median(card_ms),
            "ms_per_still_frame": _median(still_ms),
            "ms_per_moving_frame": _median(moving_ms),
            "cards_per_frame": 8,
            "dice_in_frame": len(dice_photo_dice()),
            "dice_found": len(seen.dice or ()),
            "note": "a still frame reads dice or cards in turn (plus the table every 30 "
            "frames); a moving frame only measures motion",
        }
    return result


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def _busiest_held_out() -> datasets.LabelledImage | None:
    root = _shared()
    if root is None:
        return None
    _, held = datasets.split(datasets.load_set("matteop65", root))
    return max(held, key=lambda im: len(im.dice))


def dice_photo_dice() -> tuple[datasets.LabelledDie, ...]:
    im = _busiest_held_out()
    return () if im is None else im.dice


def _dice_photo() -> np.ndarray | None:
    im = _busiest_held_out()
    if im is None:
        return None
    img: np.ndarray | None = cv2.imread(str(im.path), cv2.IMREAD_COLOR)
    return img


class _NoSource:
    """The pipeline's source is unused when frames are fed to ``process``."""

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoSource:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


if __name__ == "__main__":  # pragma: no cover
    import json

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(json.dumps(figures(), indent=2))
