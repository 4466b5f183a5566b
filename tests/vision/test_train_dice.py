"""``tools/train_dice.py``'s detector batches made by worker processes (``--workers``):
the same batches whatever the number of workers, and one process keeps the shipped
recipe's sequence. Needs PyTorch (the ``train`` extra); skipped without it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("torch")
train_dice = pytest.importorskip("tools.train_dice")


def _photos() -> list[object]:
    rng = np.random.default_rng(6)
    photos = []
    for name in train_dice.DICE_SETS:
        image = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
        dice = [(80.0, 90.0, 30.0, 3), (200.0, 150.0, 30.0, 5)]
        photos.append(train_dice.Photo(image, name, dice, None))
    return photos


def _batches(workers: int, iters: int = 3) -> list[list[tuple[np.ndarray, ...]]]:
    by_set = {p.set_name: [p] for p in _photos()}
    return list(train_dice.detector_batches(by_set, iters, 6, None, (0.7, 1.4), workers))


def _same(a: list[list[tuple[np.ndarray, ...]]], b: list[list[tuple[np.ndarray, ...]]]) -> bool:
    return all(
        np.array_equal(x, y)
        for batch_a, batch_b in zip(a, b, strict=True)
        for sample_a, sample_b in zip(batch_a, batch_b, strict=True)
        for x, y in zip(sample_a, sample_b, strict=True)
    )


def test_train_dice_worker_batches_do_not_depend_on_the_number_of_workers() -> None:
    two, three = _batches(2), _batches(3)
    assert len(two) == 3 and all(len(b) == train_dice.DETECTOR_BATCH for b in two)
    assert _same(two, three)
    assert not _same(two[:1], two[1:2])  # each batch has its own seeded generator


def test_train_dice_one_process_keeps_the_shipped_sequence() -> None:
    """One process draws every batch from one ``random.Random(seed)``, as before."""
    by_set = {p.set_name: [p] for p in _photos()}
    rng = random.Random(6)
    want = [train_dice._batch_of(by_set, rng, None, (0.7, 1.4)) for _ in range(2)]
    assert _same(_batches(1, 2), want)
    assert not _same(_batches(1, 1), _batches(2, 1))
