"""Issue 21 (a): every "press your button" has a visible touch twin at that seat's edge,
a Ready tile ``ready.<seat>`` (lit like the seat's LED once pressed), whether or not
buttons are wired; a bot's seat has none. Walked through each game's screens that wait
for seat buttons, and over every reference table screen."""

from __future__ import annotations

import re

import pytest

from tabletop.ui.table import TableScene
from tests.ui.scenery import SCENES, build, tap_at

PRESS = re.compile(r"press (your|their) (seat )?button", re.IGNORECASE)


def line(scene) -> str:
    """The instruction line's words (a game may keep them with their tone)."""
    status = scene.status()
    return status[0] if isinstance(status, tuple) else status


def tiles(scene) -> set[int]:
    return {int(b.name[6:]) for b in scene.targets() if b.name.startswith("ready.")}


@pytest.mark.parametrize(
    "name",
    [n for n in SCENES if n.startswith(("math-", "mathe-meister-table", "mecs-table"))],
)
def test_ready_tiles_every_table_screen_asking_for_a_button_shows_one(name: str) -> None:
    """Each reference table screen: when its instruction line asks for a seat button, a
    Ready tile is on screen."""
    scene = build(name, (800, 480)).stack.top
    if not isinstance(scene, TableScene) or not PRESS.search(line(scene)):
        return
    assert tiles(scene), f"{name}: {line(scene)!r} but no ready.<seat> tile"


def test_ready_tiles_math_arena_every_child_seat_while_it_waits_for_presses() -> None:
    """ARENA-3: while the device waits for the presses every child's seat has its tile
    (lit once pressed, with its Change beside it); the bot's seat has none."""
    from tests.ui.games.test_math_arena import arena_app, countdown, press, seen

    app, _, scene = arena_app(seats=3)
    assert not tiles(scene)  # the operator card first: no button is asked for
    seen(app, None, "operator", "KH")
    assert PRESS.search(scene.status()) and tiles(scene) == {0, 1, 2}
    press(app, 1)
    assert tiles(scene) == {0, 1, 2} and scene.target("unready.1") is not None
    press(app, 0)
    press(app, 2)
    assert tiles(scene) == {0, 1, 2}  # the countdown: still lit, still changeable
    countdown(app)
    assert not tiles(scene) and not PRESS.search(scene.status())
    _, _, scene = arena_app(seats=2, bots=(1,))
    assert PRESS.search(scene.status()) and tiles(scene) == {0}


def test_ready_tiles_math_wars_meta_when_an_answer_waits_for_its_button() -> None:
    """A typed answer waits for the seat's button: its tile shows at that seat only."""
    from tests.ui.games.test_math_wars_meta import answer, show, start
    from tests.ui.scenery import make_app

    app = make_app()
    table = start(app)
    show(app, 0, "C10:1", "K+2:1")
    show(app, 1, "C4:2", "K+1:2")
    answer(app, 1, 5, press=False)
    assert PRESS.search(table.status()) and tiles(table) == {1}


def test_ready_tiles_mathe_meister_table_while_the_dice_are_out() -> None:
    """MM-5: with the dice out every child's seat is a Ready tile (a press claims a
    star); the bot's seat is not; before the dice, none."""
    from tests.ui.test_table import table_app

    app, auto, scene = table_app(3, bots=(2,))
    assert tiles(scene) == {0, 1}
    tap_at(app, scene.target("ready.0").rect.center)
    auto.tap("cancel")
    auto.tap("next")
    assert not tiles(scene)
