"""Every printed deck reads back, card for card, with the device's own card reader.

Clean pages (pdftoppm at 100 dpi) must give exactly the deck; pages laid on a 60 cm
table filmed at 1920x1080 through the camera simulation must give >= 99% of cards.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabletop.printables.verify import DECKS, check_deck

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")


@pytest.mark.parametrize(("game", "edition", "army"), DECKS)
def test_printed_deck_reads_back_exactly_and_through_the_camera(
    game: str, edition: str, army: int, tmp_path: Path
) -> None:
    result = check_deck(game, edition, army, tmp_path)
    missing = result.expected - result.clean
    extra = result.clean - result.expected
    assert not missing and not extra, f"missing {dict(missing)}, extra {dict(extra)}"
    assert result.camera_rate >= 0.99, f"{result.deck}: {result.camera_rate:.1%} read at 1920x1080"
