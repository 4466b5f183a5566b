"""The one picker (:class:`~tabletop.ui.scenes.rules.ChoiceGrid`): one choice or several,
choices that are off and say why, a "Why?" note, a foot button, a named prefix; and the
base dialog kept beside the cards it asks about (the number pad's ``beside``)."""

from __future__ import annotations

import pygame

from tabletop.ui.app import App
from tabletop.ui.input import Back, Tap
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.widgets import Painter
from tests.ui.scenery import Recorder, make_app

CARDS = (("A", "ace"), ("B", "bee"), ("C", "sea"))


def tap(app: App, name: str) -> None:
    button = app.stack.top.target(name)
    assert button is not None, name
    app.post(Tap(button.rect.center, app.ctx.clock(), "touch"))
    app.step()


def opened(**kw: object) -> tuple[App, Recorder, ChoiceGrid]:
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    grid = ChoiceGrid(app.ctx, "Pick", CARDS, **kw)  # type: ignore[arg-type]
    app.stack.push(grid)
    app.step()
    return app, under, grid


def test_choice_grid_picks_several_under_a_prefix_and_the_foot_button_pops_them() -> None:
    app, under, grid = opened(prefix="hand.", pick=2, done=("put", "Put down"))
    assert [b.name for b in grid.buttons] == ["hand.A", "hand.B", "hand.C", "cancel", "put"]
    put = grid.target("put")
    assert put is not None and not put.enabled  # none picked yet
    tap(app, "put")
    assert app.stack.top is grid and grid.picked == []
    for name in ("hand.A", "hand.B", "hand.C"):  # a third card takes the first one's place
        tap(app, name)
    assert grid.picked == ["B", "C"] and grid.target("hand.B").selected
    tap(app, "hand.B")  # tapped again: put back
    assert grid.picked == ["C"] and not grid.target("put").enabled
    tap(app, "hand.A")
    tap(app, "put")
    assert under.results == [("C", "A")]


def test_choice_grid_a_choice_that_is_off_says_why_and_is_not_chosen() -> None:
    app, under, grid = opened(off={"B": "Nobody has a bee left."})
    bee = grid.target("choice.B")
    assert bee is not None and not bee.enabled
    tap(app, "choice.B")
    assert app.stack.top is grid and grid.message == "Nobody has a bee left."
    assert app.ctx.sounds.played[-1] == "wrong"
    tap(app, "choice.C")
    assert under.results == ["C"]


def test_choice_grid_why_shows_its_words_and_the_grid_stays() -> None:
    app, under, grid = opened(why="Because the rules say so.", note="Pick one.", cancel=False)
    assert grid.target("cancel") is None and grid.message == ""
    tap(app, "why")
    assert app.stack.top is grid and grid.message == "Because the rules say so."
    app.post(Back(app.ctx.clock()))
    app.step()
    assert under.results == [None]


def test_choice_grid_the_foot_button_of_a_single_pick_pops_its_name() -> None:
    app, under, _ = opened(done=("skip", "Not now"), cancel=False)
    tap(app, "skip")
    assert under.results == ["skip"]


def test_choice_grid_a_refusal_is_cleared_by_the_next_pick() -> None:
    app, _, grid = opened(pick=2, done=("put", "Put down"), off={"B": "Not the bee."})
    tap(app, "choice.B")
    assert grid.message == "Not the bee."
    tap(app, "choice.A")
    assert grid.message == "" and grid.picked == ["A"]


def test_choice_grid_draws_each_choice_with_its_face() -> None:
    drawn: list[str] = []

    def face(painter: Painter, surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
        drawn.append(key)

    app, _, grid = opened(face=face, pick=2, done=("put", "Put down"), text="Low wins!")
    tap(app, "choice.A")
    drawn.clear()
    grid.draw(pygame.Surface(app.ctx.metrics.size))
    assert drawn == ["A", "B", "C"]


def test_dialog_kept_beside_cards_goes_to_the_roomier_side_and_its_pad_keys_stay_worded() -> None:
    """A pad beside cards on the right half sits on the left, clear of them; squeezed
    into a narrow room, its Cancel key takes two keys' room for its word, never tiny
    text, and never a cross a child reads as "times" beside − and / (walk 28)."""
    app = make_app()
    middle = NumPad(app.ctx, "Count")
    app.stack.push(middle)
    app.step()
    cancel = middle.target("cancel")
    assert cancel is not None and cancel.label == "Cancel"
    assert middle.panel.centerx == app.ctx.metrics.width // 2
    for cards, side in (
        (pygame.Rect(420, 60, 300, 200), "left"),
        (pygame.Rect(60, 60, 200, 200), "right"),
    ):
        pad = NumPad(app.ctx, "Count", beside=cards)
        app.stack.push(pad)
        app.step()
        assert not pad.panel.colliderect(cards)
        assert (pad.panel.left == 4) == (side == "left")
        app.stack.pop(None)
    narrow = NumPad(app.ctx, "Count", beside=pygame.Rect(300, 60, 240, 200))
    app.stack.push(narrow)
    app.step()
    cancel, zero, ok = (narrow.target(name) for name in ("cancel", "num.0", "ok"))
    assert narrow.panel.width < middle.panel.width and cancel.label == "Cancel"
    painter = app.ctx.painter
    assert painter.fonts.width("Cancel", painter.least, True) <= cancel.rect.width - 10
    assert cancel.rect.width > zero.rect.width == ok.rect.width  # OK one key wide


def test_choice_grid_card_asks_draw_the_cards_as_the_table_does() -> None:
    """Math Attack's picker that sets a card right drew minus cards black, as labels,
    while the table draws them red: an ``Ask`` of cards is drawn with the table scene's
    ``card_face`` (as Math Arena's pickers are), its other asks as buttons."""
    from tabletop.games.math_attack import RED
    from tabletop.ui.controller import Ask
    from tabletop.ui.games.math_attack.table import AttackScene
    from tabletop.ui.scenes.rules import ask_dialog
    from tests.ui.scenery import build

    app = build("math-attack-table-touch", (800, 480))
    grid = app.stack.top
    assert isinstance(grid, ChoiceGrid) and grid.face is not None

    def red(name: str) -> float:
        app.draw()
        rect = app.stack.top.target(name).rect
        pixels = pygame.surfarray.array3d(app.canvas.subsurface(rect))
        return float(((pixels[..., 0] > 150) & (pixels[..., 1] < 80)).mean())

    assert red(f"choice.{RED[4]}") > 0.01  # -5: red, as on the line
    assert red(f"choice.{grid.choices[4][0]}") == 0  # +5: black
    words = Ask("where", "Which line?", (("0", "Mine"), ("1", "Theirs")))
    assert ask_dialog(app.ctx, words, AttackScene.card_face).face is None
