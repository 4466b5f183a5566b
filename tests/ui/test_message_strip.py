"""The message at the bottom of the screen (``App.say``: "Oops...", "Saving stopped...")
has a strip of its own, the rotation banner's (issue 21): while it shows, the scenes are
laid out above it, so no button or text of any scene is hidden under it for the seconds
it stays, and no button is squeezed onto another. What is drawn is recorded as it is
drawn (see ``tests.ui.test_rotation_strip``), in every reference scene at 800x480."""

from __future__ import annotations

import pygame
import pytest

from tabletop.ui.app import App
from tests.ui.scenery import SCENES, SIZES, FakeClock, make_app
from tests.ui.test_rotation_strip import SMALLEST_TEXT, recording, with_rotation

SHORT = "Oops, something went wrong. Please try again."
LONG = (  # two lines at 800x480: smaller type, the strip no higher
    "Games are not being saved just now. Keep playing: the game goes on. Please tell your teacher."
)


def overlaps(app: App) -> set[str]:
    """The top scene's buttons that lie on one another."""
    top = app.stack.top
    assert top is not None
    shown = [b for b in top.targets() if b.rect.width]
    return {
        f"{type(top).__name__}: {a.name!r} on {b.name!r}"
        for i, a in enumerate(shown)
        for b in shown[i + 1 :]
        if a.rect.colliderect(b.rect)
    }


def hidden_under_message(app: App, message: str) -> tuple[pygame.Rect, list[str]]:
    """The message's area on the canvas, and what the top scenes draw or offer to tap
    there; asserts the whole message shows, at 16 px or more."""
    with recording(app) as drawn:
        app.draw()
    said = [d for d in drawn if d.scene is None and d.what == "text" and d.words in message]
    assert said and " ".join(d.words for d in said) == message, "the whole message shows"
    assert min(d.size for d in said) >= SMALLEST_TEXT
    area = pygame.Rect(said[0].rect).unionall([pygame.Rect(d.rect) for d in said])
    top = app.stack.top
    assert top is not None
    under = [f"button {b.name!r}" for b in top.targets() if b.rect.colliderect(area)]
    under += [str(d) for d in drawn if d.scene is not None and d.rect and d.rect.colliderect(area)]
    return area, under


@pytest.mark.parametrize("message", [SHORT, LONG], ids=["one-line", "two-lines"])
@pytest.mark.parametrize("name", sorted(SCENES))
def test_message_strip_hides_no_button_or_text(name: str, message: str) -> None:
    steps, camera = SCENES[name]
    app = make_app(SIZES[0], camera=camera)
    steps(app)
    before = overlaps(app)
    app.say(message, 6.0)
    app.step()
    area, hidden = hidden_under_message(app, message)
    assert area.bottom <= app.canvas.get_height(), "the message is on the screen"
    assert not hidden, "\n".join(hidden)
    assert app.ctx.metrics.height == SIZES[0][1] - app.ctx.metrics.u(44)  # the banner's
    squeezed = overlaps(app) - before
    assert not squeezed, "\n".join(sorted(squeezed))


def test_message_strip_in_the_rotation_banners_place_then_gone() -> None:
    """With a rotation running, the message shows in the banner's place for its few
    seconds, the scenes where they were; then the banner is back."""
    app, runner = with_rotation("math-arena-table-touch", SIZES[0])
    room = app.ctx.metrics.height
    app.say(LONG, 6.0)
    app.step()
    area, hidden = hidden_under_message(app, LONG)
    assert not hidden, "\n".join(hidden)
    banner = runner.banner(app.screen)
    assert banner is not None and banner.rect.contains(area) and app.ctx.metrics.height == room
    assert isinstance(app.ctx.clock, FakeClock)
    app.ctx.clock.advance(7)
    app.step()
    assert app.toast is None and app.ctx.metrics.height == room
    with recording(app) as drawn:
        app.draw()
    assert [d for d in drawn if d.scene is None and d.what == "text"], "the banner shows again"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_message_strip_is_fitted_and_drawn_by_the_painters_one_way(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The message is fitted to its strip and drawn as every paragraph is
    (``Painter.pages``, ``Painter.paragraph``: issue 21, one way to fit text; the app had
    a shrink loop of its own): at the body size while it fits the strip, smaller down to
    the least size a child reads, then on a higher strip, whole (never a page of it)."""
    from tabletop.ui.widgets import Painter

    fitted: list[str] = []
    pages = Painter.pages

    def spying(self: Painter, text: str, *args: object, **kw: object) -> object:
        fitted.append(text)
        return pages(self, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Painter, "pages", spying)
    longer = " ".join([LONG] * 3)
    for message in (SHORT, LONG, longer):
        app = make_app(size)
        app.say(message, 6.0)
        app.step()
        fitted.clear()
        with recording(app) as drawn:
            app.draw()
        said = [d for d in drawn if d.scene is None and d.what == "text"]
        assert message in fitted and " ".join(d.words for d in said) == message
        assert min(d.size for d in said) >= app.ctx.painter.least
        strip = app.canvas.get_height() - app.ctx.metrics.height
        if message != longer:  # in the banner's strip
            assert strip == app.ctx.metrics.u(44)
        else:  # too long for it even at the least size: a higher strip, the message whole
            assert len(said) > 2 and strip > app.ctx.metrics.u(44)
            assert {d.size for d in said} == {app.ctx.painter.least}
