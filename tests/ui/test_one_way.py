"""One way to play, everywhere (issue 21): what every game's table does alike.

A teacher teaches one pattern: Leave always asks, with "Keep playing" as the primary
(filled) button, and leaving goes Home; every PIN is asked on the one pad.
"""

from __future__ import annotations

import pytest

from hardware.buttons import SeatPressed
from tabletop.classroom.report_rows import gather
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.rules import ChoiceGrid
from tests.ui.scenery import SIZES, make_app

# Home -> the game's table: the taps, by touch target name
TO_TABLE = {
    "mathe-meister": ("game.mathe-meister", "start", "a.3", "b.5", "ok"),
    "math-wars-meta": ("game.math-wars-meta", "start"),
    "math-attack": ("game.math-attack", "start"),
    "mecs": ("game.mecs", "start"),
    "math-arena": ("game.math-arena", "start"),
    "bubbles": ("game.mecs", "bubbles", "start"),
}


def open_table(game: str, size: tuple[int, int] = (800, 480)) -> tuple[App, Autoplayer]:
    app = make_app(size)
    auto = Autoplayer(app)
    for name in TO_TABLE[game]:
        auto.tap(name)
    return app, auto


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", sorted(TO_TABLE))
def test_one_way_leave_asks_with_keep_playing_first_and_goes_home(
    game: str, size: tuple[int, int]
) -> None:
    app, auto = open_table(game, size)
    table = app.stack.top
    auto.tap("leave")
    question = app.stack.top
    assert isinstance(question, Confirm), game
    primary = [b for b in question.buttons if b.kind != "quiet"]
    assert [b.label for b in primary] == ["Keep playing"], game
    assert primary[0].rect.right > max(b.rect.right for b in question.buttons if b.kind == "quiet")
    auto.tap("no")
    assert app.stack.top is table  # "Keep playing" (and Back) keep the game
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene), game


@pytest.mark.parametrize("game", sorted(TO_TABLE))
def test_one_way_leave_says_the_game_will_not_count_nor_carry_on(game: str) -> None:
    """The Leave dialog tells the children what leaving costs, one sentence for every game
    (Mathe-Meister solo's too), and it is the truth: the game left is journaled as
    abandoned, so Home does not offer to carry it on and the reports leave it out
    (a bubble round is not journaled at all)."""
    app, auto = open_table(game)
    auto.tap("leave")
    question = app.stack.top
    assert isinstance(question, Confirm) and question.detail == child_message("ui.leave"), game
    assert "will not count" in question.detail and "carry it on" in question.detail
    auto.tap("yes")
    journal = app.ctx.journal
    assert journal.unfinished() == []  # Home's "Carry on?" has nothing to offer
    assert all(m.status == "abandoned" for m in journal.matches())
    assert len(journal.matches()) == (game != "bubbles")
    assert gather(journal) == []  # the class report leaves it out


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_one_way_press_your_button_has_a_ready_tile_at_the_seat(size: tuple[int, int]) -> None:
    """Math Arena's simultaneous reveal: every child seat that must press has a large
    touch tile at its edge doing what the arcade button does, lit once pressed."""
    app = make_app(size)
    auto = Autoplayer(app)
    for name in ("game.math-arena", "seat.2", "choice.child", "seat.1", "choice.bot.easy", "start"):
        auto.tap(name)
    table = app.stack.top
    if table.target("operator") is not None:
        table.play.set_operator("KS", "test")
        app.step()
    assert table.play.phase == "ready"
    tiles = [b for b in table.buttons if b.name.startswith("ready.")]
    assert [b.name for b in tiles] == ["ready.0", "ready.2"]  # not the bot's seat
    for tile in tiles:
        assert tile.rect.height >= app.ctx.metrics.touch
        assert tile.rect.width >= 2 * tile.rect.height
    auto.tap("ready.0")  # as seat 1's button would: virtual cards, so its hand opens
    picker = app.stack.top
    assert (
        isinstance(picker, ChoiceGrid) and picker.prefix == "hand." and table.asking == ("pick", 0)
    )
    auto.tap("cancel")
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert app.stack.top.prefix == "hand." and table.asking == ("pick", 0)
