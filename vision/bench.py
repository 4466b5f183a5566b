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
  camera-like frames with cards and dice, still and moving: what one full reading of a
  frame costs (every still frame is a new picture here, so nothing is repeated).
- ``pipeline_sequence``: the pipeline on a synthetic minute at 30 fps
  (:func:`table_minute`): hands coming and going, cards laid, dice rolled and
  settling, long still spells; with and without a dice-tray mat. Mean, p95 and max ms
  per frame, how many frames took longer than a 30 fps frame (33 ms), how often dice
  and cards were read afresh, and the cost of one full reading after the scene
  settles (the latency before the stabiliser starts counting its N frames).

``python -m vision.bench --crossval FOLDS`` (not part of ``tabletop bench``: it needs
models trained for it, see :func:`crossval_figures`) gives the dice figures of a
five-fold cross-validation on every labelled die; ``--dump-errors DIR`` writes a crop
per die missed, unsure, read wrong or false, on the held-out part or, with
``--crossval``, on every fold. ``--models DIR`` gives the held-out dice figures (or the
crops) of the models in DIR, a training try, instead of the shipped ones; with
``--pipeline``, the pipeline's figures (a full reading) with those models. Every dice
figure is also given ``with_reviewed_labels`` (RULINGS.md VIS-3: the labels as
``vision/labels_reviewed.csv`` corrects them); ``--review-sheet JPG`` draws that file's
contact sheet; ``--crossval FOLDS --thresholds 0.4,0.5,...`` weighs the reader's
threshold on the four folds that are not the held-out part.
"""

from __future__ import annotations

import itertools
import math
import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tabletop.engine.errors import DeviceError
from vision import datasets
from vision.cards import read_cards
from vision.dice import DETECTOR_FILE, READER_FILE, UNSURE, DiceReader, Die, default_reader
from vision.simulate import STYLES, TABLE_MM, camera_like, card_image, table_frame, wood

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
    out["pipeline_sequence"] = sequence_figures(seed=seed)
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
        score, revised, times = score_both(held, reader)
        result[name] = {
            "part": "held_out (every fifth photo)",
            "images": len(held),
            **_set_figures(name, score),
            "ms_per_image": round(statistics.median(times), 2) if times else None,
            "with_reviewed_labels": _set_figures(name, revised),
        }
    return result


def _set_figures(name: str, score: datasets.DiceScore) -> dict[str, Any]:
    floor = datasets.READ_RIGHT_FLOOR[name]
    return {
        **score.figures(),
        "floors_met": score.floors(name),
        # How much a floor can say on this many dice: the chance that a reader whose
        # true rate is exactly the floor meets it here.
        "floor_met_by_a_reader_at_the_floor": {
            f"read_right_{floor}%": round(datasets.pass_chance(score.labelled, floor), 2),
            f"false_dice_{datasets.FALSE_DICE_FLOOR}%": round(
                datasets.pass_chance(score.labelled, datasets.FALSE_DICE_FLOOR, at_most=True), 2
            ),
        },
    }


def crossval_figures(
    folds: Path,
    reader: DiceReader | None = None,
    *,
    sets: tuple[str, ...] = datasets.DICE_SETS,
    root: Path | None = None,
) -> dict[str, Any]:
    """Five-fold cross-validation of the training recipe: each fifth of a set is read by
    models trained without it, and the five scores are pooled, so every labelled die is
    judged once (951 white dice, 1,487 mixed: a floor can say more than on 192).

    The held-out fifth is read by the shipped models (``reader``); fifth ``K`` of 0..3
    by ``folds/fold<K>/``, trained by ``tools/train_dice.py --fold K --out folds/fold<K>``
    with the shipped recipe on the other four fifths, the held-out part included. Those
    models are never shipped, and the figure is the recipe's, not the shipped weights':
    the thresholds and the recipe were chosen on part of the other fifths, so it is a
    little kind to them."""
    root = root or _shared()
    if root is None:
        return {"skipped": f"no shared data at {datasets.shared_data_dir()}"}
    readers = fold_readers(folds, reader)
    result: dict[str, Any] = {}
    for name in sets:
        images = datasets.load_set(name, root)
        pooled, pooled_revised = datasets.DiceScore(), datasets.DiceScore()
        per_fold = {}
        for k, fold_reader in readers.items():
            score, revised, _ = score_both(datasets.split(images, k)[1], fold_reader)
            pooled.merge(score)
            pooled_revised.merge(revised)
            per_fold[f"fold{k}"] = {
                "dice": score.labelled,
                "read_right_pct": round(score.read_right_pct, 2),
                "false_dice": score.false_dice,
            }
        result[name] = {
            "images": len(images),
            **_set_figures(name, pooled),
            "folds": per_fold,
            "with_reviewed_labels": _set_figures(name, pooled_revised),
        }
    return result


def threshold_grid(
    folds: Path,
    thresholds: tuple[float, ...],
    *,
    sets: tuple[str, ...] = datasets.DICE_SETS,
    root: Path | None = None,
) -> dict[str, Any]:
    """The reader's threshold weighed on the cross-validation's folds 0..3, each read by
    its own models (never the held-out fifth, never the shipped models): per set and
    threshold, dice read right, read wrong and asked again, pooled. Each photo is read
    once with no threshold; a die under the threshold is then asked again."""
    root = root or _shared()
    if root is None:
        return {"skipped": f"no shared data at {datasets.shared_data_dir()}"}
    readers = {k: r for k, r in fold_readers(folds).items() if k != datasets.HOLD_OUT_EVERY - 1}
    result: dict[str, Any] = {}
    for name in sets:
        images = datasets.load_set(name, root)
        scores = {t: datasets.DiceScore() for t in thresholds}
        for k, reader in readers.items():
            reader.read_threshold = 0.0
            for im in datasets.split(images, k)[1]:
                dice = reader.read(_photo(im.path))
                for t, score in scores.items():
                    score.add(im, [(d.box, *_at_threshold(d, t)) for d in dice])
        result[name] = {f"{t:g}": _grid_row(score) for t, score in scores.items()}
    return result


GRID_FIGURES = (
    "dice_labelled",
    "read_right",
    "read_right_pct",
    "read_wrong",
    "read_wrong_pct",
    "asked_again",
    "asked_again_pct",
)


def _grid_row(score: datasets.DiceScore) -> dict[str, Any]:
    """A threshold's row of :func:`threshold_grid`: :data:`GRID_FIGURES` of ``score``
    (its figures worked out once: they include resampled intervals)."""
    figures = score.figures()
    return {key: figures[key] for key in GRID_FIGURES}


def _thresholds(text: str) -> tuple[float, ...]:
    """``0.4,0.5``: the thresholds of ``--thresholds`` (ValueError naming one that is not
    a number)."""
    grid = []
    for t in text.split(","):
        try:
            grid.append(float(t))
        except ValueError:
            raise ValueError(f"--thresholds: {t!r} is not a number (e.g. 0.4,0.5,0.6)") from None
    return tuple(grid)


def _at_threshold(die: Die, threshold: float) -> tuple[int | None, str | None]:
    """A die's (value, reason) had the reader asked again under ``threshold``."""
    if die.reason is not None or die.confidence >= threshold:
        return die.value, die.reason
    return None, UNSURE


def score_both(
    images: list[datasets.LabelledImage], reader: DiceReader
) -> tuple[datasets.DiceScore, datasets.DiceScore, list[float]]:
    """Read every image once and score it two ways (VIS-3): against its labels as the set
    gives them, and as the reviewed file corrects them; (as given, reviewed, ms each)."""
    score, revised = datasets.DiceScore(), datasets.DiceScore()
    times = []
    for im, checked in zip(images, datasets.with_reviews(images, datasets.reviewed())):
        frame = _photo(im.path)
        start = time.perf_counter()
        dice = reader.read(frame)
        times.append((time.perf_counter() - start) * 1000)
        found = [(d.box, d.value, d.reason) for d in dice]
        score.add(im, found)
        revised.add(checked, found)
    return score, revised, times


def _photo(path: Path) -> np.ndarray:
    """A data set's photo, BGR; DeviceError naming it when it cannot be read."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise DeviceError("vision.bench", f"cannot read the photo {path}")
    return image


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
        img = _photo(path)
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


def _timed(
    fn: Callable[[np.ndarray, np.ndarray], set[str]], frame: np.ndarray, grey: np.ndarray
) -> tuple[set[str], float]:
    start = time.perf_counter()
    got = fn(frame, grey)
    return got, (time.perf_counter() - start) * 1000


def card_figures(frames: int = 12, seed: int = 6) -> dict[str, Any]:
    import zxingcpp

    from vision.cards import decode_pyzbar

    runs: dict[str, Callable[[np.ndarray, np.ndarray], set[str]]] = {
        "ours": lambda frame, grey: {c.payload for c in read_cards(frame)},
        "zxing_bare": lambda frame, grey: {r.text for r in zxingcpp.read_barcodes(grey)},
        "pyzbar_bare": lambda frame, grey: {t for t, _ in decode_pyzbar(grey)},
    }
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
                for name, fn in runs.items():
                    got, t = _timed(fn, frame, grey)
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


def pipeline_figures(frames: int = 12, seed: int = 6, models: Path | None = None) -> dict[str, Any]:
    """ms per frame of Pipeline.process on camera-like frames with 8 cards and 5 dice,
    and what a full reading of such a frame costs (table, dice, cards, from scratch),
    beside bare zxing-cpp on the same frames. ``models``: a folder of dice models (a
    training try) for the full reading, instead of the shipped ones."""
    import zxingcpp

    from vision.cards import decode_zxing
    from vision.pipeline import Pipeline
    from vision.sources import Frame
    from vision.stabilise import Stabiliser

    dice = five_dice()
    result: dict[str, Any] = {}
    for size in SIZES:
        rng = np.random.default_rng(seed)
        pool = []
        for _ in range(4):
            payloads = list(rng.choice(CARD_POOL, 8, replace=False))
            frame, _ = table_frame(payloads, rng, size, "perspective")
            if dice is not None:
                # Dice in the middle of the table, at their true size: the photos' dice
                # (~62 px) become 16 mm dice on a 60 cm wide table.
                ratio = size[0] / 600 * DIE_MM / 62
                strip = cv2.resize(dice[0], None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA)
                dh, dw = strip.shape[:2]
                x0, y0 = (size[0] - dw) // 2, (size[1] - dh) // 2
                frame[y0 : y0 + dh, x0 : x0 + dw] = strip
            pool.append(camera_like(frame, rng))
        lores_size = (640, 360)
        # reuse=False: every still frame read from scratch, as one full reading costs.
        pipe = Pipeline(_NoSource(), stabiliser=Stabiliser(3), reuse=False)
        still_ms: list[float] = []
        moving_ms: list[float] = []
        # Still frames alternate, dice on one and cards on the next: (kind, wall, cpu).
        still: list[tuple[str, float, float]] = []
        for i in range(frames * 2):
            main = pool[(i // 2) % len(pool)]  # each picture twice: still on the second
            lores = cv2.resize(
                cv2.cvtColor(main, cv2.COLOR_BGR2GRAY), lores_size, interpolation=cv2.INTER_AREA
            )
            before = dict(pipe.reads)
            start, cpu = time.perf_counter(), time.thread_time()
            pipe.process(Frame(main, lores, i, float(i)))
            t = (time.perf_counter() - start) * 1000
            (still_ms if i % 2 else moving_ms).append(t)
            if i % 2:
                kind = "dice" if pipe.reads["dice"] > before["dice"] else "cards"
                still.append((kind, t, (time.thread_time() - cpu) * 1000))
        dice_ms = [w for k, w, _ in still if k == "dice"]
        card_ms = [w for k, w, _ in still if k == "cards"]
        # A full reading from scratch of each picture (a fresh pipeline with the models
        # loaded: the table's calibration, the cards, the dice), and bare zxing-cpp on
        # the same picture.
        files = (models / DETECTOR_FILE.name, models / READER_FILE.name) if models else ()
        reader = DiceReader(*files, long_side=640)
        full_cpu: list[float] = []
        zxing_cpu: list[float] = []
        zxing_qr_cpu: list[float] = []
        found: list[int] = []
        right: list[int] = []
        for _ in range(max(1, frames // len(pool))):
            for main in pool:
                lores = cv2.resize(
                    cv2.cvtColor(main, cv2.COLOR_BGR2GRAY), lores_size, interpolation=cv2.INTER_AREA
                )
                fresh = Pipeline(_NoSource(), stabiliser=Stabiliser(3), dice_reader=reader)
                fresh.look(Frame(main, lores, 0, 0.0))  # the first frame counts as moving
                cpu = time.thread_time()
                first = fresh.look(Frame(main, lores, 1, 0.0))
                second = fresh.look(Frame(main, lores, 2, 0.0))
                full_cpu.append((time.thread_time() - cpu) * 1000)
                grey = cv2.cvtColor(main, cv2.COLOR_BGR2GRAY)
                cpu = time.thread_time()
                zxingcpp.read_barcodes(grey)
                zxing_cpu.append((time.thread_time() - cpu) * 1000)
                cpu = time.thread_time()
                decode_zxing(grey)  # zxing-cpp asked for QR codes only
                zxing_qr_cpu.append((time.thread_time() - cpu) * 1000)
                seen = first.dice if first.dice is not None else second.dice
                values = sorted(d.value for d in seen or () if d.value is not None)
                found.append(len(seen or ()))
                right.append(_common(values, sorted(dice[1]) if dice else []))
        result[f"{size[0]}x{size[1]}"] = {
            "full_reading_cpu_ms_median": _median(full_cpu),
            "full_reading_cpu_ms_max": round(max(full_cpu), 2),
            "zxing_bare_cpu_ms_median": _median(zxing_cpu),
            "zxing_bare_qr_only_cpu_ms_median": _median(zxing_qr_cpu),
            "ms_per_still_frame_dice": _median(dice_ms),
            "ms_per_still_frame_cards": _median(card_ms),
            "ms_per_still_frame": _median(still_ms),
            "ms_per_moving_frame": _median(moving_ms),
            "cpu_ms_per_still_frame_dice": _median([c for k, _, c in still if k == "dice"]),
            "cpu_ms_per_still_frame_cards": _median([c for k, _, c in still if k == "cards"]),
            "cards_per_frame": 8,
            "dice_in_frame": len(dice[1]) if dice else 0,
            "dice_found": min(found),
            "dice_read_right": min(right),
            "note": "full reading = a fresh pipeline on a still picture: the table's "
            "calibration, the cards, then the dice, from scratch (CPU time of one thread, "
            "the models loaded); zxing_bare = zxing-cpp alone on the same grey picture "
            "(all its formats, and QR and Micro QR codes only); dice_found and "
            "dice_read_right: the fewest over the pictures. Every still frame of "
            "ms_per_still_frame is read from scratch too (reuse off), dice or cards in "
            "turn; a moving frame only measures motion; ms = wall clock",
        }
    return result


def _common(a: list[int], b: list[int]) -> int:
    """How many values two sorted lists share (with repeats)."""
    left = list(b)
    count = 0
    for v in a:
        if v in left:
            left.remove(v)
            count += 1
    return count


def five_dice(count: int = 5) -> tuple[np.ndarray, list[int]] | None:
    """Five separate dice cut from the held-out white photos, side by side, and their
    labelled values (for timing the pipeline, and to see that it finds them).

    The photos are taken in name order, each labelled die in turn, one die per face
    value (the first five values met): a square two dice wide around it (its side
    estimated from the pip boxes, as ``tools/train_dice.py`` does), scaled so the die
    is 62 px, skipped when another die's centre or the photo's edge lies in the square.
    ``dice_20.jpg``, the held-out photo with most dice, which these frames used before,
    has three of them touching: the reader's known miss, measured on the held-out part.
    """
    root = _shared()
    if root is None:
        return None
    _, held = datasets.split(datasets.load_set("matteop65", root))
    tiles: list[np.ndarray] = []
    values: list[int] = []
    for im in held:
        longs = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in im.dice if d.value >= 2]
        side = 1.47 * float(np.median(longs)) if longs else 62.0
        img = None
        for die in im.dice:
            if die.value in values:
                continue
            cx, cy = datasets.centre(die.box)
            x0, y0, x1, y1 = cx - side, cy - side, cx + side, cy + side
            w, h = im.size
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                continue
            if any(
                other is not die and datasets.contains((x0, y0, x1, y1), datasets.centre(other.box))
                for other in im.dice
            ):
                continue
            img = cv2.imread(str(im.path), cv2.IMREAD_COLOR) if img is None else img
            if img is None:
                break
            tile = img[round(y0) : round(y1), round(x0) : round(x1)]
            tiles.append(cv2.resize(tile, (124, 124), interpolation=cv2.INTER_AREA))
            values.append(die.value)
            if len(tiles) == count:
                return np.hstack(tiles), values
    return None


# -- a minute at the table ----------------------------------------------------------------

SKIN = (120, 150, 205)  # BGR
LORES = (640, 360)
DIE_MM = 16.0


@dataclass(frozen=True)
class Shot:
    """One frame of the synthetic minute and what happens in it."""

    index: int
    main: np.ndarray
    lores: np.ndarray
    event: str  # "still", "card", "roll", "hover"


def table_minute(
    size: tuple[int, int],
    dice_photos: list[np.ndarray],
    *,
    mats: bool,
    seconds: float = 60.0,
    fps: int = 30,
    seed: int = 6,
) -> Iterator[Shot]:
    """A minute of a game at the table, as a camera at ``fps`` sees it (seeded).

    Cards lie on both sides of the table (3 at first, up to 6); the dice (one of
    ``dice_photos``, scaled so its dice are 16 mm) lie in the middle, or in the tray of
    a mathe-meister board mat when ``mats``. Then, between still spells of 2-8 s: a hand
    lays a card (or takes one when 6 lie), a hand rolls the dice (they tumble for 0.6 s,
    then settle as the next photo), or a hand hovers over the table and leaves; a hand
    that pauses is a still scene too. Each frame gets fresh sensor noise. The lores
    image is the main frame's grey, shrunk to 640x360 (as the Pi's ISP gives it,
    outside the pipeline's time).
    """
    from vision.table import BOARD, render_mat

    rng = np.random.default_rng(seed)  # what things look like
    plot = np.random.default_rng([seed, 1])  # what happens when: the same at every size
    w, h = size
    ppm = w / TABLE_MM
    table = wood(size, rng)
    if mats:
        mat = cv2.cvtColor(render_mat(BOARD, ppm), cv2.COLOR_GRAY2BGR)
        mx, my = (w - mat.shape[1]) // 2, (h - mat.shape[0]) // 2
        table[my : my + mat.shape[0], mx : mx + mat.shape[1]] = mat
        tray = (mx + round(38 * ppm), my + round(36 * ppm), round(201 * ppm), round(150 * ppm))
    else:
        tray = (
            w // 2 - round(110 * ppm),
            h // 2 - round(80 * ppm),
            round(220 * ppm),
            round(160 * ppm),
        )
    # Card spots: three down each side of the table, clear of the mat in the middle.
    spots = [(w * x, h * y) for x in (0.1, 0.9) for y in (0.18, 0.5, 0.82)]
    photos = []
    for picture in dice_photos:
        ratio = ppm * DIE_MM / 62  # the photos' dice are ~62 px
        small = cv2.resize(picture, None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA)
        photos.append(small[: tray[3], : tray[2]])
    noise = [
        (
            np.clip(rng.normal(0, 2.5, (h, w, 3)), 0, 255).astype(np.uint8),
            np.clip(-rng.normal(0, 2.5, (h, w, 3)), 0, 255).astype(np.uint8),
        )
        for _ in range(5)
    ]
    cards: dict[int, np.ndarray] = {}
    for spot in plot.choice(len(spots), 3, replace=False).tolist():
        cards[spot] = _card_patch(rng, ppm)

    def base() -> np.ndarray:
        img = table.copy()
        for spot, patch in cards.items():
            _paste(img, patch, spots[spot])
        return camera_like(
            img, np.random.default_rng(int(rng.integers(1 << 31))), noise=(0, 0), glare=0
        )

    n = round(seconds * fps)
    scene = base()
    photo = 0
    frame_no = 0

    def shoot(img: np.ndarray, event: str) -> Shot:
        nonlocal frame_no
        plus, minus = noise[frame_no % len(noise)]
        main = cv2.subtract(cv2.add(img, plus), minus)
        grey = cv2.cvtColor(main, cv2.COLOR_BGR2GRAY)
        lores = cv2.resize(grey, LORES, interpolation=cv2.INTER_AREA)
        shot = Shot(frame_no, main, lores, event)
        frame_no += 1
        return shot

    def with_dice(img: np.ndarray, which: int, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
        out = img.copy()
        d = photos[which]
        x = tray[0] + (tray[2] - d.shape[1]) // 2 + round(dx)
        y = tray[1] + (tray[3] - d.shape[0]) // 2 + round(dy)
        x0, y0 = max(x, tray[0]), max(y, tray[1])
        x1 = min(x + d.shape[1], tray[0] + tray[2])
        y1 = min(y + d.shape[0], tray[1] + tray[3])
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = d[y0 - y : y1 - y, x0 - x : x1 - x]
        return out

    def hand_path(target: tuple[float, float], frames: int) -> list[tuple[float, float]]:
        start = (target[0] + plot.uniform(-0.2, 0.2) * w, h * 1.15)
        return [
            (start[0] + (target[0] - start[0]) * t, start[1] + (target[1] - start[1]) * t)
            for t in np.linspace(0.0, 1.0, frames)
        ]

    def timeline() -> Iterator[Shot]:
        nonlocal scene, photo
        still_frames = round(3 * fps)
        while True:
            for _ in range(min(still_frames, n - frame_no)):
                yield shoot(with_dice(scene, photo), "still")
            if frame_no >= n:
                break
            event = str(plot.choice(["card", "roll", "hover"], p=[0.4, 0.4, 0.2]))
            if event == "card":
                free = [i for i in range(len(spots)) if i not in cards]
                spot = int(plot.choice(free)) if free else int(plot.choice(list(cards)))
                path = hand_path(spots[spot], round(0.4 * fps))
                for p in path:
                    yield shoot(_hand(with_dice(scene, photo), p, w), event)
                if free:
                    cards[spot] = _card_patch(rng, ppm)
                else:
                    del cards[spot]
                scene = base()
                for p in path[::-1]:
                    yield shoot(_hand(with_dice(scene, photo), p, w), event)
            elif event == "roll":
                centre = (tray[0] + tray[2] / 2, tray[1] + tray[3] / 2)
                path = hand_path(centre, round(0.4 * fps))
                for p in path:
                    yield shoot(_hand(with_dice(scene, photo), p, w), event)
                photo = (photo + 1) % len(photos)
                angle = plot.uniform(0, 2 * math.pi)
                for k, p in enumerate(path[::-1]):
                    # The dice tumble in from under the leaving hand and slow down.
                    r = 0.35 * tray[2] * 0.8 ** (k + 1)
                    img = with_dice(scene, photo, r * math.cos(angle), r * math.sin(angle))
                    yield shoot(_hand(img, p, w), event)
                for k in range(round(0.6 * fps) - len(path)):
                    r = 0.35 * tray[2] * 0.8 ** (k + len(path) + 1)
                    img = with_dice(scene, photo, r * math.cos(angle), r * math.sin(angle))
                    yield shoot(img, event)
            else:
                target = (plot.uniform(0.2, 0.8) * w, plot.uniform(0.2, 0.8) * h)
                path = hand_path(target, round(0.5 * fps))
                for p in path + [path[-1]] * round(0.3 * fps) + path[::-1]:
                    yield shoot(_hand(with_dice(scene, photo), p, w), event)
            still_frames = round(float(plot.uniform(2.0, 8.0)) * fps)

    yield from itertools.islice(timeline(), n)


def _card_patch(rng: np.random.Generator, ppm: float) -> np.ndarray:
    """A card of ours turned at any angle, on black (pasted where it is not black)."""
    card = card_image(str(rng.choice(CARD_POOL)), ppm, (60, 60, 200))
    ch, cw = card.shape[:2]
    side = int(math.hypot(cw, ch)) + 2
    angle = float(rng.uniform(-30, 30) + 180 * rng.integers(2))  # laid from either side
    m = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, 1.0)
    m[0, 2] += (side - cw) / 2
    m[1, 2] += (side - ch) / 2
    return cv2.warpAffine(card, m, (side, side), borderValue=(0, 0, 0))


def _paste(img: np.ndarray, patch: np.ndarray, centre: tuple[float, float]) -> None:
    ph, pw = patch.shape[:2]
    x, y = round(centre[0] - pw / 2), round(centre[1] - ph / 2)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.shape[1], x + pw), min(img.shape[0], y + ph)
    if x1 <= x0 or y1 <= y0:
        return
    part = patch[y0 - y : y1 - y, x0 - x : x1 - x]
    mask = part.max(axis=2) > 0
    img[y0:y1, x0:x1][mask] = part[mask]


def _hand(img: np.ndarray, at: tuple[float, float], width: int) -> np.ndarray:
    """The image with a hand (palm and arm from the bottom edge) reaching to ``at``."""
    out = img.copy()
    r = width * 0.045
    x, y = at
    arm = np.array(
        [[x - r * 0.8, y], [x + r * 0.8, y], [x + r * 1.3, y + 12 * r], [x - r * 1.3, y + 12 * r]],
        np.int32,
    )
    cv2.fillConvexPoly(out, arm, SKIN)
    cv2.ellipse(out, (round(x), round(y)), (round(r * 1.2), round(r * 1.5)), 0, 0, 360, SKIN, -1)
    return out


def sequence_figures(seconds: float = 60.0, fps: int = 30, seed: int = 6) -> dict[str, Any]:
    """The pipeline on :func:`table_minute` at each size, without and with a tray mat."""
    from vision.pipeline import Pipeline
    from vision.sources import Frame
    from vision.stabilise import Stabiliser
    from vision.table import Table, mat_areas

    photos = _dice_photos()
    if not photos:
        return {"skipped": f"no shared data at {datasets.shared_data_dir()}"}
    areas = mat_areas("mathe-meister")
    reader = DiceReader(long_side=640)  # loaded once, as on the device

    def pipeline() -> Pipeline:
        return Pipeline(
            _NoSource(),
            table=Table(*areas, seats=2),
            stabiliser=Stabiliser(5, clock=lambda: 0.0),
            dice_reader=reader,
        )

    result: dict[str, Any] = {"seconds": seconds, "fps": fps, "stabiliser_frames": 5}
    for size in SIZES:
        for mats in (False, True):
            pipe = pipeline()
            ms: list[float] = []  # CPU time of the pipeline's thread
            wall: list[float] = []
            settle_ms: list[float] = []  # the frames in a row that read, once still
            episode: list[float] = []
            events: dict[str, int] = {}
            observations = 0
            stills: list[Shot] = []  # a few settled frames, to time a full reading on
            for shot in table_minute(size, photos, mats=mats, seconds=seconds, fps=fps, seed=seed):
                before = dict(pipe.reads)
                start, cpu = time.perf_counter(), time.thread_time()
                observations += len(pipe.process(Frame(shot.main, shot.lores, shot.index, 0.0)))
                t = (time.thread_time() - cpu) * 1000
                wall.append((time.perf_counter() - start) * 1000)
                ms.append(t)
                events[shot.event] = events.get(shot.event, 0) + 1
                if pipe.reads != before:
                    episode.append(t)
                elif episode:
                    settle_ms.append(sum(episode))
                    episode = []
                    if len(stills) < 5:
                        stills.append(shot)
            if episode:
                settle_ms.append(sum(episode))
            # A full reading from scratch: table, dice in the whole dice area, cards.
            full_ms = []
            for shot in stills:
                fresh = pipeline()
                frame = Frame(shot.main, shot.lores, 0, 0.0)
                fresh.look(frame)  # the first frame counts as moving
                cpu = time.thread_time()
                fresh.look(frame)  # cards, after the table's calibration
                fresh.look(frame)  # dice
                full_ms.append((time.thread_time() - cpu) * 1000)
            key = f"{size[0]}x{size[1]}_{'tray_mat' if mats else 'no_mats'}"
            result[key] = {
                "frames": len(ms),
                "frames_by_event": events,
                "ms_per_frame_mean": round(statistics.fmean(ms), 2),
                "ms_per_frame_p95": _p95(ms),
                "ms_per_frame_max": round(max(ms), 2),
                "frames_over_33ms": sum(1 for t in ms if t > 1000 / 30),
                "wall_ms_per_frame_mean": round(statistics.fmean(wall), 2),
                "wall_ms_per_frame_p95": _p95(wall),
                "reads": dict(pipe.reads),
                "dice_reads_of_changed_parts_only": pipe.partial_reads,
                "table_calibrations": pipe.calibrations,
                "settles": len(settle_ms),
                "reading_after_a_settle_ms_median": _median(settle_ms),
                "reading_after_a_settle_ms_max": round(max(settle_ms), 2) if settle_ms else None,
                "full_reading_ms_median": _median(full_ms),
                "full_reading_ms_max": round(max(full_ms), 2) if full_ms else None,
                "observations": observations,
                "dice_area": "the tray" if pipe.table.dice_region() else "the whole frame",
            }
    result["note"] = (
        "ms = CPU time of the pipeline's one thread (steady on a shared machine; wall_ms "
        "is the clock, which other programs inflate). reading after a settle = the frames "
        "in a row that read afresh once the scene is still again (dice on one frame, cards "
        "on the next; only the parts that changed when it can); full reading = the same "
        "from scratch on a settled frame (table, dice in the whole dice area, cards): the "
        "latency after the scene settles when everything changed; the stabiliser then "
        "reports after its 5 frames; every other still frame repeats the last reading"
    )
    return result


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[int(0.95 * (len(ordered) - 1))], 2)


def _dice_photos() -> list[np.ndarray]:
    """The held-out white-dice photos with 2 or more dice (for timing only)."""
    root = _shared()
    if root is None:
        return []
    _, held = datasets.split(datasets.load_set("matteop65", root))
    out = []
    for im in held:
        if len(im.dice) >= 2:
            img = cv2.imread(str(im.path), cv2.IMREAD_COLOR)
            if img is not None:
                out.append(img)
    return out


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


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


def fold_readers(folds: Path, reader: DiceReader | None = None) -> dict[int, DiceReader]:
    """The cross-validation's readers by fold: ``folds/fold<K>/`` for 0..3, and the
    shipped models (``reader``) for the held-out fold."""
    readers = {
        k: DiceReader(
            folds / f"fold{k}" / DETECTOR_FILE.name, folds / f"fold{k}" / READER_FILE.name
        )
        for k in range(datasets.HOLD_OUT_EVERY - 1)
    }
    readers[datasets.HOLD_OUT_EVERY - 1] = reader or default_reader()
    return readers


def dump_dice_errors(
    out: Path, reader: DiceReader | None = None, fold: int = datasets.HOLD_OUT_EVERY - 1
) -> list[str]:
    """Write a PNG per held-out die that was missed, unsure or read wrong, and per false
    die, to ``out`` (a crop around the box, drawn in red, 4x); one line per file.
    ``fold``: another fifth instead, for the cross-validation (with its own ``reader``).

    For looking at, never for choosing: the held-out part decides nothing."""
    root = _shared()
    if root is None:
        return []
    reader = reader or default_reader()
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for name in datasets.DICE_SETS:
        _, held = datasets.split(datasets.load_set(name, root), fold)
        for im in held:
            img = cv2.imread(str(im.path), cv2.IMREAD_COLOR)
            if img is None:
                continue
            dice = reader.read(img)
            pairs = dict(datasets.match(im.dice, [d.box for d in dice]))
            stem = f"{name}_{im.path.stem}"
            shown = []
            for li, lab in enumerate(im.dice):
                d = dice[pairs[li]] if li in pairs else None
                if d is None:
                    shown.append((f"{stem}_miss{li}_v{lab.value}", lab.box, "missed"))
                elif d.value is None:
                    shown.append((f"{stem}_unsure{li}_v{lab.value}", d.box, str(d.reason)))
                elif d.value != lab.value:
                    shown.append((f"{stem}_wrong{li}_v{lab.value}_as{d.value}", d.box, "wrong"))
            matched = set(pairs.values())
            for fi, d in enumerate(dice):
                if fi not in matched:
                    shown.append((f"{stem}_false{fi}_as{d.value}", d.box, "false die"))
            for file, box, why in shown:
                cv2.imwrite(str(out / f"{file}.png"), _error_crop(img, box))
                lines.append(f"{file}.png: {why}")
    return lines


def review_sheet(out: Path, tile: int = 200) -> Path:
    """The contact sheet of the reviewed file (VIS-3): each row's crop from its photo, the
    box drawn in red, captioned with the photo and what it is; a JPEG at ``out`` (small:
    it is committed)."""
    root = _shared()
    if root is None:
        raise DeviceError("vision.bench", f"no shared data at {datasets.shared_data_dir()}")
    tiles = []
    for r in datasets.reviewed():
        photo = _photo(root / "dice" / r.set_name / r.photo)
        crop = cv2.resize(_error_crop(photo, r.box), (tile, tile), interpolation=cv2.INTER_AREA)
        what = datasets.NO_DIE if r.value is None else f"a {r.value}, left out"
        caption = np.full((44, tile, 3), 255, np.uint8)
        for i, text in enumerate((r.photo, what)):
            cv2.putText(caption, text, (4, 17 + 20 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.42,
                        (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
        tiles.append(np.vstack([crop, caption]))
    cv2.imwrite(str(out), np.hstack(tiles), [cv2.IMWRITE_JPEG_QUALITY, 88])
    return out


def _error_crop(img: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    cx, cy, m = (x0 + x1) / 2, (y0 + y1) / 2, max(40.0, 1.5 * max(x1 - x0, y1 - y0))
    a, b = int(max(0, cx - m)), int(max(0, cy - m))
    crop = img[b : int(cy + m), a : int(cx + m)].copy()
    cv2.rectangle(crop, (int(x0 - a), int(y0 - b)), (int(x1 - a), int(y1 - b)), (0, 0, 255), 1)
    return cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.bench``: the figures as JSON; 2 and one line on stderr when a
    model folder lacks its models."""
    import json
    import sys

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from tabletop.cliparse import OneLineParser

    ap = OneLineParser(prog="python -m vision.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--crossval", type=Path, metavar="FOLDS", help="figures of the five folds")
    ap.add_argument(
        "--thresholds",
        metavar="T,T,...",
        help="with --crossval: the reader's threshold weighed on folds 0-3 (never the held-out)",
    )
    ap.add_argument(
        "--review-sheet", type=Path, metavar="JPG", help="the reviewed labels' contact sheet"
    )
    ap.add_argument(
        "--dump-errors", type=Path, metavar="DIR", help="a crop per die missed, unsure or false"
    )
    ap.add_argument(
        "--models",
        type=Path,
        metavar="DIR",
        help="the held-out dice figures (or --dump-errors) of the models in DIR, a try",
    )
    ap.add_argument(
        "--pipeline", action="store_true", help="with --models: the pipeline's figures instead"
    )
    args = ap.parse_args(argv)
    if args.thresholds and not args.crossval:
        ap.error("--thresholds weighs the reader on the cross-validation's folds: give --crossval")
    try:
        tried = None
        if args.models:
            tried = DiceReader(args.models / DETECTOR_FILE.name, args.models / READER_FILE.name)
        if args.review_sheet:
            print(review_sheet(args.review_sheet))
        elif args.thresholds and args.crossval:
            grid = _thresholds(args.thresholds)
            print(json.dumps(threshold_grid(args.crossval, grid), indent=2))
        elif tried is not None and args.pipeline:
            cv2.setNumThreads(1)
            print(json.dumps(pipeline_figures(models=args.models), indent=2))
        elif tried is not None and not args.crossval:
            if args.dump_errors:
                print("\n".join(dump_dice_errors(args.dump_errors, tried)))
            else:
                print(json.dumps(dice_figures(tried), indent=2))
        elif args.dump_errors and args.crossval:  # every fold's errors, each by its models
            for k, fold_reader in fold_readers(args.crossval).items():
                print("\n".join(dump_dice_errors(args.dump_errors / f"fold{k}", fold_reader, k)))
        elif args.dump_errors:
            print("\n".join(dump_dice_errors(args.dump_errors)))
        elif args.crossval:
            print(json.dumps(crossval_figures(args.crossval, tried), indent=2))
        else:
            print(json.dumps(figures(), indent=2))
    except (DeviceError, ValueError) as exc:  # ValueError: --thresholds, the reviewed file
        print(f"vision.bench: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
