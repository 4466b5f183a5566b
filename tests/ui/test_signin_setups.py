"""Every game's setup goes through sign-in when the device has a class list, and the
game's journal keeps the signed-in students at their seats (issue 10)."""

from __future__ import annotations

from pathlib import Path

from tabletop.classroom.roster import Roster
from tabletop.store import Journal
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.scenes.signin import SignInScene
from tests.ui.scenery import make_app

CLASS = "id,name,group\nS1,Ada,Blue\nS2,Alan,Red\nS3,Grace,Blue\n"


def signed_in_app(tmp_path: Path):
    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv(CLASS)
    app = make_app(journal=journal)
    return app, Autoplayer(app), journal


def seats_of_the_game(journal: Journal) -> list[tuple[str, str | None, str, str | None]]:
    (saved,) = journal.unfinished("app")
    return [(s.name, s.student, s.group, s.bot) for s in journal.seats(saved.id)]


def test_signin_mathe_meister_solo(tmp_path: Path) -> None:
    from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.mathe-meister")
    auto.tap("start")
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("student.S3")
    auto.tap("done")
    assert any(isinstance(s, MatheMeisterScene) for s in app.stack)  # its dice first
    assert seats_of_the_game(journal) == [("Grace", "S3", "Blue", None)]


def test_signin_mathe_meister_table_with_a_bot(tmp_path: Path) -> None:
    from tabletop.ui.games.mathe_meister.table import TableScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.mathe-meister")
    auto.tap("players.+")
    auto.tap("players.+")
    auto.tap("seat.2")
    auto.tap("choice.bot.hint")
    auto.tap("start")
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("student.S1")
    auto.tap("guest")
    auto.tap("done")
    assert any(isinstance(s, TableScene) for s in app.stack)
    rows = seats_of_the_game(journal)
    assert rows[0] == ("Ada", "S1", "Blue", None)
    assert rows[1][1] is None and rows[2][3] is not None  # a guest, and the bot


def test_signin_mecs_and_going_back_starts_nothing(tmp_path: Path) -> None:
    from tabletop.ui.games.mecs.table import MecsTable
    from tabletop.ui.scenes.form import FormScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.mecs")
    auto.tap("start")
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("cancel")
    assert isinstance(app.stack.top, FormScene) and journal.unfinished("app") == []
    setup = app.stack.top
    if setup.seats[1].kind == "bot":
        auto.tap("seat.1")  # two children this time
        auto.tap("choice.child")
    auto.tap("start")
    auto.tap("student.S2")
    auto.tap("student.S1")
    auto.tap("done")
    assert isinstance(app.stack.top, MecsTable)
    assert [r[:3] for r in seats_of_the_game(journal)] == [
        ("Alan", "S2", "Red"),
        ("Ada", "S1", "Blue"),
    ]


def test_signin_math_arena_replaces_its_setup_with_the_game(tmp_path: Path) -> None:
    from tabletop.ui.games.math_arena import ArenaScene
    from tabletop.ui.scenes.form import FormScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.math-arena")
    auto.tap("start")  # two children, the default
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("student.S1")
    auto.tap("student.S3")
    auto.tap("done")
    assert isinstance(app.stack.top, ArenaScene)
    assert not any(isinstance(s, FormScene) for s in app.stack)
    assert [r[:3] for r in seats_of_the_game(journal)] == [
        ("Ada", "S1", "Blue"),
        ("Grace", "S3", "Blue"),
    ]


def test_signin_math_wars_meta(tmp_path: Path) -> None:
    from tabletop.ui.games.math_wars_meta.table import MwmTable as TableScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.math-wars-meta")
    auto.tap("start")
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("student.S2")
    scene = app.stack.top
    while not scene.target("done").enabled:  # the other seats play as guests
        auto.tap("guest")
    auto.tap("done")
    assert isinstance(app.stack.top, TableScene)
    rows = seats_of_the_game(journal)
    assert rows[0][:3] == ("Alan", "S2", "Red")
    assert app.stack.top.play.seats[0].name == "Alan"


def test_signin_math_attack_form_against_a_bot(tmp_path: Path) -> None:
    """The one setup form signs in the child seats; the bot's seat is filled already."""
    from tabletop.ui.games.math_attack import AttackScene

    app, auto, journal = signed_in_app(tmp_path)
    auto.tap("game.math-attack")
    auto.tap("seat.1")
    auto.tap("choice.bot.hard")
    auto.tap("start")
    signin = app.stack.top
    assert isinstance(signin, SignInScene) and signin.seats[1].bot == "hard"
    auto.tap("student.S2")
    auto.tap("done")
    game = app.stack.top
    assert isinstance(game, AttackScene) and game.names == ("Alan", "Bot (Hard)")
    assert seats_of_the_game(journal) == [
        ("Alan", "S2", "Red", None),
        ("Bot (Hard)", None, "", "hard"),
    ]
