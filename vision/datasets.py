"""The shared labelled photos (``../shared/data``), their held-out split, and scoring.

Two dice sets (see ``shared/data/README.md``):

- ``matteop65``: white dice on wood, 640x480. Its YOLO labels box the *pip pattern* of
  the top face (for a one, just the pip), not the whole die.
- ``byler``: mixed-colour dice in a tray, 640x640, one box per whole die.

Scoring follows RULINGS.md VIS-1 to VIS-3: a found die matches the label whose box
holds its centre (:func:`match`); each labelled die is read right, read wrong, asked
again or not found, and a found die matching no label is a false die
(:class:`DiceScore`); the floors are :data:`READ_RIGHT_FLOOR` and the three below it.
Dice the labels leave out, and labels that box no die, are in one reviewed file,
``vision/labels_reviewed.csv`` (:func:`reviewed`, with a contact sheet of its crops
beside it, ``labels_reviewed.jpg``); every figure is given with and without it.

The held-out part is every fifth image (index 4, 9, 14, ... in name order): it is kept
out of all tuning and training (``tools/train_dice.py`` refuses it), and every figure
the bench and the tests report is measured on it.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

Box = tuple[float, float, float, float]

DICE_SETS = ("matteop65", "byler")
HOLD_OUT_EVERY = 5
# VIS-2's floors, on each set's held-out part and on the five-fold cross-validation:
# read right, % of the labelled dice whose box lies wholly inside the photo, at least;
READ_RIGHT_FLOOR = {"matteop65": 99.5, "byler": 96.0}
READ_WRONG_FLOOR = 0.5  # read wrong, % of every labelled die, at most
ASKED_AGAIN_FLOOR = 2.0  # asked again (reported unreadable), %, at most
FALSE_DICE_FLOOR = 1.0  # false dice, % of the labelled dice, at most


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: face value 1..6 and its box in pixels (x0, y0, x1, y1)."""

    value: int
    box: Box


@dataclass(frozen=True)
class LabelledImage:
    """One photo of a set with every die labelled in it."""

    path: Path
    set_name: str
    dice: tuple[LabelledDie, ...]
    size: tuple[int, int] = (640, 480)  # the photo's width and height


def shared_data_dir() -> Path:
    """``$TABLETOP_SHARED_DATA``, else ``shared/data`` beside the repository."""
    env = os.environ.get("TABLETOP_SHARED_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _natural(name: str) -> tuple[object, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def load_matteop65(root: Path | None = None) -> list[LabelledImage]:
    """The white-dice set in natural name order (``dice_1``, ``dice_2``, ... ``two_50``)."""
    folder = (root or shared_data_dir()) / "dice" / "matteop65"
    images = []
    for jpg in sorted(folder.glob("*.jpg"), key=lambda p: _natural(p.name)):
        txt = jpg.with_suffix(".txt")
        if txt.exists():  # every frame of the set is 640x480 (shared/data/README.md)
            images.append(LabelledImage(jpg, "matteop65", yolo_dice(txt), (640, 480)))
    return images


def yolo_dice(txt: Path, size: tuple[int, int] = (640, 480)) -> tuple[LabelledDie, ...]:
    """The dice of a YOLO label file: a line ``class cx cy w h`` a die (class 0..5 is
    face 1..6; the rest fractions of the photo's ``size``), boxes in pixels."""
    w, h = size
    dice = []
    for line in txt.read_text().split("\n"):
        parts = line.split()
        if len(parts) == 5:
            cls, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
            box = ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
            dice.append(LabelledDie(cls + 1, box))
    return tuple(dice)


def load_byler(root: Path | None = None) -> list[LabelledImage]:
    """The mixed-dice set in file name order."""
    folder = (root or shared_data_dir()) / "dice" / "byler"
    rows: dict[str, list[LabelledDie]] = {}
    sizes: dict[str, tuple[int, int]] = {}
    with (folder / "labels.csv").open(newline="") as f:
        for r in csv.DictReader(f):
            box = (float(r["xmin"]), float(r["ymin"]), float(r["xmax"]), float(r["ymax"]))
            rows.setdefault(r["filename"], []).append(LabelledDie(int(r["label_id"]), box))
            sizes[r["filename"]] = (int(r["width"]), int(r["height"]))
    return [
        LabelledImage(folder / name, "byler", tuple(rows[name]), sizes[name])
        for name in sorted(rows)
        if (folder / name).exists()
    ]


def load_set(name: str, root: Path | None = None) -> list[LabelledImage]:
    """A set's photos with their labels as shipped (:func:`with_reviews` gives them as the
    reviewed file corrects them, VIS-3)."""
    if name == "matteop65":
        return load_matteop65(root)
    if name == "byler":
        return load_byler(root)
    raise ValueError(f"unknown dice set {name!r}: choose from {', '.join(DICE_SETS)}")


# -- the reviewed labels (VIS-3) ------------------------------------------------------------

REVIEWED_FILE = Path(__file__).with_name("labels_reviewed.csv")
REVIEW_FIELDS = ("set", "photo", "x0", "y0", "x1", "y1", "value", "note")
NO_DIE = "no die"


@dataclass(frozen=True)
class Review:
    """One row of the reviewed file: in ``photo`` of ``set_name``, a die the labels leave
    out (``value`` 1..6, its box) or a label that boxes no die (``value`` None, the
    label's box as the set gives it), with what was seen."""

    set_name: str
    photo: str
    box: Box
    value: int | None
    note: str


def reviewed(path: Path = REVIEWED_FILE) -> list[Review]:
    """The reviewed file's rows. Labels are never changed in place (VIS-3): every figure
    is given with and without these. A row that cannot be read stops with its line."""
    reviews = []
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    # The file's line numbers of what the CSV reader sees (the comments are left out).
    read = [n for n, line in enumerate(lines, 1) if not line.startswith("#")]
    rows = csv.DictReader(lines[n - 1] for n in read)
    if tuple(rows.fieldnames or ()) != REVIEW_FIELDS:
        raise ValueError(f"{path.name}: the columns must be {','.join(REVIEW_FIELDS)}")
    for row in rows:
        where = f"{path.name} line {read[rows.line_num - 1]}"
        try:
            box = (float(row["x0"]), float(row["y0"]), float(row["x1"]), float(row["y1"]))
            value = None if row["value"] == NO_DIE else int(row["value"])
        except (TypeError, ValueError):
            msg = f"{where}: a box of four numbers and a value 1-6 or {NO_DIE!r}"
            raise ValueError(msg) from None
        if row["set"] not in DICE_SETS or (value is not None and not 1 <= value <= 6):
            raise ValueError(f"{where}: no set {row['set']!r} or no face {row['value']!r}")
        if not (box[0] < box[2] and box[1] < box[3]):
            raise ValueError(f"{where}: the box's corners are the wrong way round")
        reviews.append(Review(row["set"], row["photo"], box, value, row["note"]))
    return reviews


def with_reviews(images: Sequence[LabelledImage], reviews: Sequence[Review]) -> list[LabelledImage]:
    """``images`` with the reviews of their photos applied: a die left out added, a label
    boxing no die taken out (matched by its box, to a pixel; a review that finds no such
    label is an error: the file must say what the labels are)."""
    by_photo: dict[tuple[str, str], list[Review]] = {}
    for r in reviews:
        by_photo.setdefault((r.set_name, r.photo), []).append(r)
    out = []
    for im in images:
        dice = list(im.dice)
        for r in by_photo.get((im.set_name, im.path.name), ()):
            if r.value is not None:
                dice.append(LabelledDie(r.value, r.box))
                continue
            same = [d for d in dice if max(abs(a - b) for a, b in zip(d.box, r.box)) <= 1.0]
            if len(same) != 1:
                raise ValueError(f"reviewed labels: {r.photo} has no label at {r.box}")
            dice.remove(same[0])
        out.append(LabelledImage(im.path, im.set_name, tuple(dice), im.size))
    return out


def is_held_out(index: int) -> bool:
    """Every fifth image, in name order, is held out."""
    return index % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1


def split(
    images: Sequence[LabelledImage], fold: int = HOLD_OUT_EVERY - 1
) -> tuple[list[LabelledImage], list[LabelledImage]]:
    """(train, held_out). ``fold`` 0..3 leaves out another fifth instead (the photos at
    index ``fold``, ``fold + 5``, ...), for cross-validation only: those models are
    trained on the held-out part and never shipped."""
    train = [im for i, im in enumerate(images) if i % HOLD_OUT_EVERY != fold]
    held = [im for i, im in enumerate(images) if i % HOLD_OUT_EVERY == fold]
    return train, held


# -- matching and scoring (VIS-1, VIS-2) ----------------------------------------------------


def centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def contains(box: Box, point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def match(labels: Sequence[LabelledDie], found: Sequence[Box]) -> list[tuple[int, int]]:
    """VIS-1: a found die matches an unmatched label whose box contains the die's
    centre, the nearest centres first (so where several labels could take a die, or
    several dice a label, the nearest pair wins). Pairs (label index, found index)."""
    pairs = []
    for li, lab in enumerate(labels):
        lx, ly = centre(lab.box)
        for fi, box in enumerate(found):
            c = centre(box)
            if contains(lab.box, c):
                pairs.append(((c[0] - lx) ** 2 + (c[1] - ly) ** 2, li, fi))
    pairs.sort()
    used_l: set[int] = set()
    used_f: set[int] = set()
    out = []
    for _, li, fi in pairs:
        if li not in used_l and fi not in used_f:
            used_l.add(li)
            used_f.add(fi)
            out.append((li, fi))
    return out


def wholly_inside(box: Box, size: tuple[int, int], margin: float = 1.0) -> bool:
    """Whether a label box lies wholly inside the photo: a box that reaches within
    ``margin`` px of the edge was cut there (labels are clipped to the photo)."""
    return (
        box[0] > margin
        and box[1] > margin
        and box[2] < size[0] - margin
        and box[3] < size[1] - margin
    )


# Per photo, for the intervals: how many dice labelled, wholly inside, read right of
# those inside, read wrong, asked again, and false dice.
PHOTO_COUNTS = ("labelled", "inside", "right_inside", "wrong", "asked_again", "false")


@dataclass
class DiceScore:
    """VIS-1 counts over a set of photos; the figures are properties.

    Each labelled die is read right, read wrong, asked again (reported unreadable, with
    its reason) or not found; a found die that matches no label is a false die. Read
    right is a share of the dice whose label box lies wholly inside the photo; every
    other figure is a share of every labelled die (VIS-2).
    """

    labelled: int = 0
    inside: int = 0  # labelled dice whose box lies wholly inside the photo
    found: int = 0
    read_right: int = 0
    read_right_inside: int = 0
    read_wrong: int = 0
    asked_again: int = 0
    not_found: int = 0
    false_dice: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # asked again, by reason
    photos: list[tuple[int, ...]] = field(default_factory=list)  # see PHOTO_COUNTS

    def add(
        self,
        image: LabelledImage,
        found: Sequence[tuple[Box, int | None]] | Sequence[tuple[Box, int | None, str | None]],
    ) -> None:
        """``found``: (box, value or None when unreadable[, reason]) per die reported."""
        pairs = dict(match(image.dice, [f[0] for f in found]))
        inside = right_inside = wrong = asked = 0
        for li, lab in enumerate(image.dice):
            whole = wholly_inside(lab.box, image.size)
            inside += whole
            if li not in pairs:
                self.not_found += 1
                continue
            die = found[pairs[li]]
            if die[1] is None:
                asked += 1
                reason = str(die[2]) if len(die) > 2 and die[2] else "unsure"
                self.reasons[reason] = self.reasons.get(reason, 0) + 1
            elif die[1] == lab.value:
                self.read_right += 1
                right_inside += whole
            else:
                wrong += 1
        false = len(found) - len(pairs)
        self.labelled += len(image.dice)
        self.inside += inside
        self.found += len(found)
        self.read_right_inside += right_inside
        self.read_wrong += wrong
        self.asked_again += asked
        self.false_dice += false
        self.photos.append((len(image.dice), inside, right_inside, wrong, asked, false))

    def merge(self, other: DiceScore) -> None:
        """Add ``other``'s counts and photos to these."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, dict):
                for k, v in theirs.items():
                    mine[k] = mine.get(k, 0) + v
            else:
                setattr(self, f.name, mine + theirs)

    @property
    def matched(self) -> int:
        return self.labelled - self.not_found

    @property
    def read_right_pct(self) -> float:
        """Dice read right, as a share of the labelled dice wholly inside the photo."""
        return 100.0 * self.read_right_inside / max(1, self.inside)

    @property
    def recall_pct(self) -> float:
        return 100.0 * self.matched / max(1, self.labelled)

    @property
    def false_pct(self) -> float:
        return 100.0 * self.false_dice / max(1, self.labelled)

    @property
    def wrong_pct(self) -> float:
        """Dice given a wrong value (the costly error: dice asked again get re-rolled)."""
        return 100.0 * self.read_wrong / max(1, self.labelled)

    @property
    def asked_again_pct(self) -> float:
        return 100.0 * self.asked_again / max(1, self.labelled)

    def floors(self, set_name: str) -> dict[str, bool]:
        """Whether each VIS-2 floor is met on these dice."""
        return {
            f"read_right_at_least_{READ_RIGHT_FLOOR[set_name]}%": self.read_right_pct
            >= READ_RIGHT_FLOOR[set_name],
            f"read_wrong_at_most_{READ_WRONG_FLOOR}%": self.wrong_pct <= READ_WRONG_FLOOR,
            f"asked_again_at_most_{ASKED_AGAIN_FLOOR}%": self.asked_again_pct <= ASKED_AGAIN_FLOOR,
            f"false_dice_at_most_{FALSE_DICE_FLOOR}%": self.false_pct <= FALSE_DICE_FLOOR,
        }

    def intervals(self, draws: int = 4000, seed: int = 6) -> dict[str, list[float]]:
        """95% intervals of each figure, by resampling whole photos with replacement
        (the dice of one photo share its light, angle and crowding, so they are not
        independent draws)."""
        if not self.photos:
            return {}
        rng = np.random.default_rng(seed)
        counts = np.array(self.photos, dtype=float)
        picks = rng.integers(0, len(counts), size=(draws, len(counts)))
        col = {name: counts[picks, i].sum(axis=1) for i, name in enumerate(PHOTO_COUNTS)}
        labelled = np.maximum(col["labelled"], 1)
        shares = {
            "read_right": col["right_inside"] / np.maximum(col["inside"], 1),
            "read_wrong": col["wrong"] / labelled,
            "asked_again": col["asked_again"] / labelled,
            "false_dice": col["false"] / labelled,
        }
        return {
            f"{name}_ci95_pct": [round(float(v), 2) for v in np.percentile(100 * s, [2.5, 97.5])]
            for name, s in shares.items()
        }

    def figures(self) -> dict[str, Any]:
        return {
            "dice_labelled": self.labelled,
            "dice_wholly_inside": self.inside,
            "read_right": self.read_right_inside,
            "read_right_pct": round(self.read_right_pct, 2),
            "read_wrong": self.read_wrong,
            "read_wrong_pct": round(self.wrong_pct, 2),
            "asked_again": self.asked_again,
            "asked_again_pct": round(self.asked_again_pct, 2),
            "asked_again_reasons": dict(sorted(self.reasons.items())),
            "not_found": self.not_found,
            "false_dice": self.false_dice,
            "false_dice_pct": round(self.false_pct, 2),
            **self.intervals(),
        }


def pass_chance(dice: int, floor_pct: float, *, at_most: bool = False) -> float:
    """The chance that a reader whose true rate is exactly ``floor_pct`` meets that
    floor on ``dice`` independent dice: at least ``floor_pct`` % of them read right (or,
    ``at_most``, at most ``floor_pct`` % of them false). Shows how much a floor on a
    held-out part of this size can say."""
    p = floor_pct / 100.0
    limit = dice * p
    total = 0.0
    for k in range(dice + 1):
        if (k <= limit + 1e-9) if at_most else (k >= limit - 1e-9):
            total += math.comb(dice, k) * p**k * (1 - p) ** (dice - k)
    return total


def images_of(sets: Iterable[str], part: str, root: Path | None = None) -> list[LabelledImage]:
    """``part`` is "train", "held_out" or "all"."""
    out: list[LabelledImage] = []
    for name in sets:
        train, held = split(load_set(name, root))
        out += {"train": train, "held_out": held, "all": train + held}[part]
    return out
