"""The message at the bottom of the screen (``App.say``: "Oops...", "Saving stopped...")
has a strip of its own, as the rotation's banner has (issue 21): while it shows, the
scenes are laid out above it, so no button or text of any scene is hidden under it for
the seconds it stays. What is drawn is recorded as it is drawn (see
``tests.ui.test_rotation_strip``), in every reference scene at 800x480."""

from __future__ import annotations

import pygame
import pytest

from tabletop.ui.app import App
from tests.ui.scenery import SCENES, SIZES, FakeClock, make_app
from tests.ui.test_rotation_strip import recording, with_rotation

# Two lines at 800x480: the strip grows with the message.
MESSAGE = "The memory card is full, so the game is not saved just now. Ask your teacher to look."


def hidden_under_message(app: App) -> tuple[pygame.Rect, list[str]]:
    """The message's area on the canvas, and what the top scenes draw or offer to tap
    there."""
    with recording(app) as drawn:
        app.draw()
    words = [d for d in drawn if d.scene is None and d.what == "text" and d.rect is not None]
    said = [d for d in words if d.words in MESSAGE]
    assert said and " ".join(d.words for d in said) == MESSAGE, "the whole message shows"
    area = said[0].rect.unionall([d.rect for d in said])
    top = app.stack.top
    assert top is not None
    targets = [
        f"{top.__class__.__name__}: button {b.name!r} at {tuple(b.rect)}"
        for b in top.targets()
        if b.rect.colliderect(area)
    ]
    drawn_there = [
        str(d)
        for d in drawn
        if d.scene is not None and d.rect is not None and d.rect.colliderect(area)
    ]
    return area, targets + drawn_there


@pytest.mark.parametrize("name", sorted(SCENES))
def test_message_strip_hides_no_button_or_text(name: str) -> None:
    steps, camera = SCENES[name]
    app = make_app(SIZES[0], camera=camera)
    steps(app)
    app.say(MESSAGE, 6.0)
    app.step()
    area, hidden = hidden_under_message(app)
    assert area.bottom <= app.canvas.get_height(), "the message is on the screen"
    assert not hidden, "\n".join(hidden)


def test_message_strip_in_the_rotation_banners_place_then_gone() -> None:
    """With a rotation running, the message shows in the banner's place (as high as it
    needs) for its few seconds, the scenes above it; then the banner is back, and the
    scenes have the room they had."""
    app, runner = with_rotation("math-arena-table-touch", SIZES[0])
    room = app.ctx.metrics.height
    app.say(MESSAGE, 6.0)
    app.step()
    area, hidden = hidden_under_message(app)
    assert not hidden, "\n".join(hidden)
    assert app.ctx.metrics.height < room and area.bottom <= app.canvas.get_height()
    assert isinstance(app.ctx.clock, FakeClock)
    app.ctx.clock.advance(7)
    app.step()
    assert app.toast is None and app.ctx.metrics.height == room
    assert runner.banner(app.screen) is not None
