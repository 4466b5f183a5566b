"""Every scene of every game at both layouts, drawn headless and compared with a
reference PNG, ``tests/ui/reference/<game>-<screen>-<size>.png`` (the scenes are
``tests.ui.scenery.SCENES`` less ``UNPICTURED``).

References live in ``tests/ui/reference/`` at half size with a 128-colour palette (to
keep the repository small); the comparison scales the fresh screenshot the same way
and allows a small difference (font rendering varies a little between machines).
Regenerate them after a deliberate change with::

    TABLETOP_UPDATE_SCREENSHOTS=1 .venv/bin/pytest tests/ui/test_screenshots.py

and look at the new PNGs before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame
import pytest

from tests.ui.scenery import SCENES, SIZES, UNPICTURED, build

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("TABLETOP_UPDATE_SCREENSHOTS") == "1"
MEAN_TOLERANCE = 1.5  # mean absolute difference per channel, 0..255
PIXEL_TOLERANCE = 0.002  # share of pixels allowed to differ by more than 48 (a word is ~0.4 %)


def half(surface: pygame.Surface) -> np.ndarray:
    w, h = surface.get_size()
    small = pygame.transform.smoothscale(surface, (w // 2, h // 2))
    return pygame.surfarray.array3d(small).swapaxes(0, 1).astype(np.int16)


def save_reference(image: np.ndarray, path: Path) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    picture = Image.fromarray(image.astype(np.uint8), "RGB")
    picture.quantize(128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True
    )


def load_reference(path: Path) -> np.ndarray:
    return pygame.surfarray.array3d(pygame.image.load(str(path))).swapaxes(0, 1).astype(np.int16)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", sorted(SCENES.keys() - UNPICTURED))
def test_screenshot_matches_reference(scene: str, size: tuple[int, int]) -> None:
    app = build(scene, size)
    assert app.canvas.get_size() == size
    image = half(app.canvas)
    path = REFERENCE / f"{scene}-{size[0]}x{size[1]}.png"
    if UPDATE:
        save_reference(image, path)
        return
    if not path.exists():
        pytest.fail(f"no reference {path.name}: run with TABLETOP_UPDATE_SCREENSHOTS=1")
    reference = load_reference(path)
    assert reference.shape == image.shape, f"{path.name}: the layout changed size"
    diff = np.abs(reference - image)
    mean = float(diff.mean())
    off = float((diff.max(axis=2) > 48).mean())
    if mean > MEAN_TOLERANCE or off > PIXEL_TOLERANCE:
        failed = Path(os.environ.get("TMPDIR", "/tmp")) / f"failed_{path.name}"
        pygame.image.save(app.canvas, str(failed))
        pytest.fail(
            f"{path.name}: mean difference {mean:.2f}, {off:.2%} of pixels differ; "
            f"this run's screenshot is {failed}"
        )


def test_screenshot_references_are_small() -> None:
    """One reference per scene and size, none left over, about 9 KB each on average
    (40 scenes: 724 KB in all when they were made)."""
    files = {f.name for f in REFERENCE.glob("*.png")}
    assert files == {f"{s}-{w}x{h}.png" for s in SCENES.keys() - UNPICTURED for w, h in SIZES}
    total = sum((REFERENCE / f).stat().st_size for f in files)
    assert total < 1_000_000, f"{total} bytes of reference PNGs"
