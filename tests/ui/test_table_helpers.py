"""The small shared pieces the game tables use (issue 21): the corner buttons, the game
packages' lazy names, the seats as the journal keeps them, names in a sentence."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.store import SeatInfo
from tabletop.ui.app import Context
from tabletop.ui.controller import TableController
from tabletop.ui.games import GAME_APPS, game_app, game_package
from tabletop.ui.input import Tap
from tabletop.ui.saves import seats_of
from tabletop.ui.table import TableScene, corner_buttons
from tabletop.ui.theme import metrics_for
from tabletop.ui.widgets import Button


def test_table_corner_buttons_leave_undo_rules_right_to_left() -> None:
    leave, undo, rules = corner_buttons(800, 8, (100, 48), 10, undo=False)
    assert [b.name for b in (leave, undo, rules)] == ["leave", "undo", "rules"]
    assert leave.rect.right == 800 and undo.rect.right == leave.rect.left - 10
    assert rules.rect.right == undo.rect.left - 10 and rules.rect.top == 8
    assert leave.enabled and rules.enabled and not undo.enabled
    assert all(b.kind == "quiet" for b in (leave, undo, rules))
    assert corner_buttons(800, 8, (100, 48), 10, undo=True)[1].enabled


def test_table_tap_presses_explains_or_presses_a_seat_by_the_one_button_under_it() -> None:
    """One hit-test per tap: an enabled button clicks and is pressed, one that is off is
    explained, a seat's chip or Ready tile (on or off) is that seat's button at the tap's
    time, and a tap on no button does nothing."""
    heard: list[str] = []

    class Table(TableScene):
        def press(self, name: str) -> None:
            heard.append(f"press {name}")

        def explain(self, name: str) -> None:
            heard.append(f"explain {name}")

        def seat_pressed(self, seat: int, at: float) -> None:
            heard.append(f"seat {seat} at {at}")

    ctx = Context(metrics_for((800, 480)))
    ctx.sounds.play = lambda name: heard.append(f"sound {name}")  # type: ignore[method-assign]
    table = Table(ctx, None)
    table.play = SimpleNamespace(match=SimpleNamespace(seats=3))  # type: ignore[assignment]
    names = ("done", "shop", "seat.2", "ready.1", "seat.x")
    table.buttons = [
        Button(name, pygame.Rect(i * 100, 0, 90, 40), enabled=name not in ("shop", "ready.1"))
        for i, name in enumerate(names)
    ]
    for x in (10, 110, 210, 310, 410, 510):
        table.tapped(Tap((x, 20), 5.0))
    assert heard == [
        "sound tap",
        "press done",
        "explain shop",
        "seat 2 at 5.0",
        "seat 1 at 5.0",
        "sound tap",
        "press seat.x",
    ]


def test_table_an_empty_seats_press_is_answered_before_any_games_override() -> None:
    """The base's one input route answers an empty seat's press (a button, a touch twin,
    one kept under a dialog) before a game's ``seat_pressed``: no override can forget
    it, and one sat at still reaches the override."""
    pressed: list[int] = []
    refused: list[tuple[str, dict[str, object]]] = []

    class Table(TableScene):
        def seat_pressed(self, seat: int, at: float) -> None:
            pressed.append(seat)

        def refuse(self, code: str, detail: str = "", **facts: object) -> None:
            refused.append((code, facts))

    scene = Table.__new__(Table)
    scene.play = SimpleNamespace(match=SimpleNamespace(seats=2))  # type: ignore[assignment]
    scene.route(SeatPressed(1, 0.5))
    scene.route(SeatPressed(2, 0.5))
    assert pressed == [1] and refused == [("ui.empty_seat", {"seat": 3})]


def test_games_game_package_names_setup_resume_demo_and_more() -> None:
    load = game_package("tabletop.ui.games.math_arena", setup_scene="table", play=("COUNTDOWN",))
    from tabletop.ui.games.math_arena import demo, play, table

    assert load("setup_scene") is table.setup_scene and load("run_demo") is demo.run_demo
    assert load("COUNTDOWN") == play.COUNTDOWN
    with pytest.raises(AttributeError, match="no attribute 'resume_scene'"):
        load("resume_scene")  # a game that is not journaled has none
    with pytest.raises(AttributeError, match="no attribute 'ArenaPlay'"):
        load("ArenaPlay")


@pytest.mark.parametrize("game", sorted(GAME_APPS))
def test_games_every_package_loads_the_names_it_lists(game: str) -> None:
    module = game_app(game)
    assert module is not None
    for name in module.__all__:
        assert callable(getattr(module, name)), name
    assert hasattr(module, "resume_scene") == (game != "bubbles")  # bubbles is not journaled


def test_controller_story_keeps_what_was_narrated_in_order() -> None:
    play, other = TableController(), TableController()
    assert play.story == ()
    play.narrate(1, "Ana plays.")
    play.narrate(2, "Ben passes.")
    assert play.story == ((1, "Ana plays."), (2, "Ben passes."))
    assert other.story == ()  # each table its own story


def test_harness_narration_prints_each_round_once_on_one_line(tmp_path: Path) -> None:
    from tabletop.ui.harness import DemoRun

    out = io.StringIO()
    run = DemoRun("mecs", seed=1, out_dir=tmp_path, out=out)
    told = run.narration(lambda r: f"Turn {r}")
    story = [(1, "Ana plays."), (1, "Ben hacks."), (2, "Cy passes.")]
    told(story, upto=2)  # the rounds before 2 only
    assert out.getvalue() == "Turn 1: Ana plays. Ben hacks.\n"
    told(story)
    told(story)  # nothing new: nothing printed
    assert out.getvalue().splitlines() == ["Turn 1: Ana plays. Ben hacks.", "Turn 2: Cy passes."]
    run.end("winner: nobody")


def test_saves_seats_of_keeps_signed_in_seats_and_levels_bots() -> None:
    child = SeatInfo(1, "Mia", student="s-7")
    seats = seats_of([("Ana", False), child, ("Bot", True)], "hard")
    assert seats == [SeatInfo(0, "Ana"), child, SeatInfo(2, "Bot", bot="hard")]
