"""Fixtures for the vision tests: the shared photos, the dice models loaded once, and
the held-out photos read once per session (the floors are checked on those)."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import pytest

from vision import datasets
from vision.dice import DiceReader, default_reader

REPO = Path(__file__).resolve().parents[2]
# The demo's matteop65 photos, YOLO labels beside.
SAMPLES = REPO / "tabletop" / "assets" / "samples"


def shared_data() -> Path:
    """``$TABLETOP_SHARED_DATA``, else ``shared/data`` beside the repository."""
    env = os.environ.get("TABLETOP_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared() -> Path:
    root = shared_data()
    if not (root / "dice").is_dir():
        pytest.skip(f"the shared photos are not at {root} (set TABLETOP_SHARED_DATA)")
    return root


@pytest.fixture(scope="session")
def reader() -> DiceReader:
    cv2.setNumThreads(1)
    return default_reader()


@pytest.fixture(scope="session")
def held_out_scores(shared: Path, reader: DiceReader) -> dict[str, datasets.DiceScore]:
    """Every held-out photo of both dice sets read once: score per set."""
    scores = {}
    for name in datasets.DICE_SETS:
        _, held = datasets.split(datasets.load_set(name, shared))
        score = datasets.DiceScore()
        for im in held:
            frame = cv2.imread(str(im.path), cv2.IMREAD_COLOR)
            score.add(im, [(d.box, d.value) for d in reader.read(frame)])
        scores[name] = score
    return scores
