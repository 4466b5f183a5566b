"""The painter's text helpers keep every word inside its box, however a teacher typed it."""

from __future__ import annotations

import pytest

from tabletop.ui.widgets import Button
from tests.ui.scenery import make_app

LONG = "W" * 30  # the longest station name a plan takes (rotation.MAX_STATION_NAME)


@pytest.fixture
def painter():
    return make_app().ctx.painter


def test_painter_wrap_breaks_between_words_and_inside_one_only_when_it_must(painter) -> None:
    width, size = 300, 28
    lines = painter.wrap("Quiet corner by the window", size, width, True)
    assert " ".join(lines) == "Quiet corner by the window"
    lines = painter.wrap(f"this is Station 2: {LONG}", size, width, True)
    assert all(painter.fonts.width(line, size, True) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == f"thisisStation2:{LONG}"
    assert lines[0] == "this is Station 2:"  # the short words stay whole


def test_painter_ellipsis_cuts_only_what_does_not_fit(painter) -> None:
    assert painter.ellipsis("Teams", 20, 200) == "Teams"
    cut = painter.ellipsis(f"2. {LONG}", 20, 150, bold=True)
    assert cut.endswith("\u2026") and cut.startswith("2. W")
    assert painter.fonts.width(cut, 20, True) <= 150


def test_painter_button_label_never_spills_out_of_the_button(painter) -> None:
    import pygame

    surface = pygame.Surface((400, 200))
    surface.fill((0, 0, 0))
    b = Button("x", pygame.Rect(100, 50, 180, 70), f"2. {LONG}", kind="quiet", caption=LONG)
    painter.button(surface, b)
    outside = [
        surface.get_at((x, y))[:3]
        for x in (*range(0, 96), *range(284, 400))
        for y in range(50, 120, 3)
    ]
    assert set(outside) == {(0, 0, 0)}
