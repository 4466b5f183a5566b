"""Two children of one name signed in at one table (a class has two "Mia"s) look different
on every game's seat chips and Ready tiles: each name shows what tells it apart, as the
class list's screens show it (``students.shown_names``: "Mia (4a)"). The games, the
journal and the demos keep the names as they are; typed names and bots change nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop.classroom.roster import Roster
from tabletop.store import Journal
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import resume_game
from tabletop.ui.table import TableScene
from tests.ui.game_scenery import form_seats, name_seats
from tests.ui.scenery import SIZES, drawn_texts, make_app

CLASS = "id,name,group\nS1,Mia,4a\nS2,Mia,4b\nS3,Ben,4a\n"
TOLD_APART = ("Mia (4a)", "Mia (4b)")


def mm_ready(auto: Autoplayer) -> None:
    """Mathe-Meister's paper table with the dice out: the seats are Ready tiles."""
    auto.tap_dice((3, 5))


# each game's key on Home, then what gets its table to the screen to look at
GAMES: dict[str, Callable[[Autoplayer], None]] = {
    "mathe-meister": mm_ready,
    "math-wars-meta": lambda auto: None,
    "math-attack": lambda auto: None,
    "mecs": lambda auto: None,
    "math-arena": lambda auto: None,
}


def class_app(tmp_path: Path, size: tuple[int, int] = (800, 480)) -> tuple[App, Autoplayer]:
    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv(CLASS)
    app = make_app(size, journal=journal)
    return app, Autoplayer(app)


def open_table(auto: Autoplayer, game: str, *students: str, names: tuple[str, ...] = ()) -> None:
    """``game``'s form with two children (typed ``names``, if any), then Start: the
    sign-in seats ``students``, the other seats play as guests."""
    auto.tap(f"game.{game}")
    form_seats(auto, 2)
    name_seats(auto, names)
    auto.tap("start")
    for student in students:
        auto.tap(f"student.{student}")
    while not auto.top.target("done").enabled:
        auto.tap("guest")
    auto.tap("done")
    GAMES[game](auto)


def table_texts(app: App) -> list[str]:
    assert isinstance(app.stack.top, TableScene)
    return [text for text, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_namesakes_signed_in_look_different_on_every_table(
    tmp_path: Path, game: str, size: tuple[int, int]
) -> None:
    """Each Mia's seat shows her group beside her name (Mathe-Meister's on the Ready
    tiles): "Mia" and "Mia" were drawn alike; the game keeps the name "Mia"."""
    app, auto = class_app(tmp_path, size)
    open_table(auto, game, "S1", "S2")
    texts = table_texts(app)
    for shown in TOLD_APART:
        assert any(shown in text for text in texts), (shown, texts)
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert [s.name for s in table.save.seats] == ["Mia", "Mia"]
    assert [table.shown(s, "Mia") for s in (0, 1)] == list(TOLD_APART)
    assert table.shown(0, "Team 1") == "Team 1"  # what the game names otherwise stays


def test_namesakes_carried_on_are_still_told_apart(tmp_path: Path) -> None:
    """A game left unfinished and carried on (its journal record as it was) shows the
    two Mias apart again: the seats the journal keeps tell them apart."""
    app, auto = class_app(tmp_path)
    open_table(auto, "math-attack", "S1", "S2")
    (saved,) = app.ctx.journal.unfinished("app")
    assert saved.meta["app"]["names"] == ["Mia", "Mia"]  # the record keeps the names
    app.stack.push(resume_game(app.ctx, saved))
    app.step()
    texts = table_texts(app)
    assert all(any(shown in text for text in texts) for shown in TOLD_APART)


@pytest.mark.parametrize("game", GAMES)
def test_namesakes_typed_or_one_signed_in_change_nothing(tmp_path: Path, game: str) -> None:
    """Two names typed alike (no student ids) and one Mia signed in beside a guest named
    Mia: no seat says more than its name."""
    app, auto = class_app(tmp_path)
    open_table(auto, game, "S1", names=("Mia", "Mia"))
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert [table.shown(s, "Mia") for s in (0, 1)] == ["Mia", "Mia"]
    assert not any("(4a)" in text or "(4b)" in text for text in table_texts(app))
