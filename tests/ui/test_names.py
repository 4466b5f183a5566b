"""The name keyboard (:mod:`tabletop.ui.scenes.names`): what it refuses, in words."""

from __future__ import annotations

import pytest

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.input import Key, Tap
from tabletop.ui.scenes.names import MAX_LENGTH, NameScene
from tests.ui.scenery import SIZES, Recorder, make_app


def name_app() -> tuple[Recorder, NameScene, Autoplayer]:
    app = make_app()
    below, keyboard = Recorder(app.ctx), NameScene(app.ctx)
    app.stack.push(below)
    app.stack.push(keyboard)
    app.step()
    return below, keyboard, Autoplayer(app)


def test_names_ok_without_a_name_says_what_to_do() -> None:
    """The greyed OK, tapped before a letter is typed: it said nothing."""
    below, keyboard, auto = name_app()
    ok = keyboard.target("ok")
    assert ok is not None and not ok.enabled
    auto.app.post(Tap(ok.rect.center, auto.app.ctx.clock(), "touch"))
    auto.app.step()
    assert keyboard.message == "Type a name first, then tap OK."
    auto.tap("key.M")
    assert keyboard.message == "" and keyboard.name == "M"
    auto.tap("ok")
    assert below.results == ["M"]


def test_names_a_letter_past_the_longest_name_is_refused_in_words() -> None:
    """A tap (or a real key) past the limit: the name stays, and the child reads why
    nothing happened; Delete makes room again."""
    _below, keyboard, auto = name_app()
    for _ in range(MAX_LENGTH):
        auto.tap("key.A")
    full = keyboard.name
    auto.tap("key.B")
    assert keyboard.name == full
    assert keyboard.message == f"That is the longest name: {MAX_LENGTH} letters."
    keyboard.message = ""
    auto.app.post(Key("b", "b", auto.app.ctx.clock()))
    auto.app.step()
    assert keyboard.name == full and "longest name" in keyboard.message
    auto.tap("key.delete")
    assert keyboard.message == "" and len(keyboard.name) == MAX_LENGTH - 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_names_keyboard_fits_above_the_rotation_banner(size: tuple[int, int]) -> None:
    """With a station rotation's banner at the bottom, no key lies on Cancel or OK (Space
    and Delete were squeezed under them: OK's centre deleted a letter)."""
    from tests.ui.test_message_strip import overlaps
    from tests.ui.test_rotation_strip import with_rotation

    app, _runner = with_rotation("app-names", size)
    assert app.ctx.metrics.height < size[1] and not overlaps(app)
