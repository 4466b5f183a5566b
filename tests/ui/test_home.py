"""Home's offer of a game left unfinished, when that game cannot be carried on."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tabletop.store import FILE_NAME, Journal, SeatInfo
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.harness import cards_seen
from tabletop.ui.input import Back
from tabletop.ui.messages import child_message
from tabletop.ui.saves import LABEL, unfinished
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.widgets import Painter
from tests.ui.scenery import SIZES, make_app


def unfinished_games(path: Path, *games: str) -> list[int]:
    """Games started on the touchscreen and left (the device was unplugged): their ids."""
    app = make_app(journal=Journal(path))
    auto = Autoplayer(app)
    for game in games:
        auto.tap(f"game.{game}")
        auto.tap("start")
        app.stack.unwind_to(HomeScene)  # unplugged: the game is not left, only dropped
    app.ctx.journal.close()
    return [s.id for s in Journal(path).unfinished(LABEL)]


@pytest.mark.parametrize(
    ("column", "damage"),
    [
        ("meta", '{"app": 5}'),  # the screen's record, damaged
        ("meta", '{"app": {"names": 5, "seed": "x", "bots": 3}}'),
        ("meta", "{}"),  # the record lost
        ("header", "garbage"),  # the journal itself no longer replays
    ],
)
def test_home_a_game_that_cannot_be_carried_on_is_kept_broken_and_the_next_offered(
    tmp_path: Path, column: str, damage: str
) -> None:
    """Carry on with a game whose journal or record is damaged: the children are told
    in a sentence (never "Oops"), the game is kept as "broken" for the teacher, so it is
    not offered again at every start, and the game left before it is offered next."""
    path = tmp_path / FILE_NAME
    newest, older = unfinished_games(path, "math-wars-meta", "math-attack")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (damage, newest))
    app = make_app(journal=Journal(path))
    offer = app.stack.top
    assert isinstance(offer, Confirm) and "Math Attack!" in offer.detail
    Autoplayer(app).tap("yes")
    home = app.stack.find(HomeScene)
    assert home is not None and home.message == child_message("home.not_resumed")
    assert app.toast is None  # no "Oops, something went wrong"
    assert app.ctx.journal.status(newest) == "broken"
    offer = app.stack.top
    assert isinstance(offer, Confirm) and "Math Wars Meta" in offer.detail
    Autoplayer(app).tap("no")
    assert app.ctx.journal.status(older) == "abandoned"
    assert app.stack.top is home and not app.ctx.journal.unfinished(LABEL)


def test_home_back_on_the_offer_keeps_the_game_for_later(tmp_path: Path) -> None:
    """Back (Esc) on "Carry on with this game?" closes the question; only "New game"
    gives the game up. It used to answer "New game", and the game could never be
    carried on."""
    path = tmp_path / FILE_NAME
    (waiting,) = unfinished_games(path, "math-arena")
    app = make_app(journal=Journal(path))
    assert isinstance(app.stack.top, Confirm)
    app.post(Back(app.ctx.clock()))
    app.step()
    assert isinstance(app.stack.top, HomeScene)
    assert [s.id for s in app.ctx.journal.unfinished(LABEL)] == [waiting]
    app.ctx.journal.close()
    again = make_app(journal=Journal(path))  # offered at the next start
    assert isinstance(again.stack.top, Confirm) and "Math Arena" in again.stack.top.detail


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_its_sentence_fits_left_of_the_teacher_button(size: tuple[int, int]) -> None:
    """Home shows its sentence in the subtitle line, which ends at the Teacher button."""
    app = make_app(size)
    home, m = app.stack.top, app.ctx.metrics
    teacher = home.target("settings")
    width = app.ctx.fonts.width(child_message("home.not_resumed"), m.small)
    assert teacher is not None and m.u(18) + width < teacher.rect.left


def test_home_the_sentence_of_a_game_not_carried_on_is_red_as_every_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that could not be carried on is told in the refusals' colour (it was the
    subtitle's grey); the usual "Tap a game to play." stays grey."""
    path = tmp_path / FILE_NAME
    (waiting,) = unfinished_games(path, "math-attack")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE matches SET meta = '{}' WHERE id = ?", (waiting,))
    app = make_app(journal=Journal(path))
    Autoplayer(app).tap("yes")
    home = app.stack.top
    assert isinstance(home, HomeScene)
    drawn: dict[str, object] = {}
    text = Painter.text

    def recording(self: Painter, surface: Any, words: str, *args: Any, **kw: Any) -> Any:
        drawn[words] = args[2] if len(args) > 2 else kw.get("colour")
        return text(self, surface, words, *args, **kw)

    monkeypatch.setattr(Painter, "text", recording)
    app.draw()
    p = app.ctx.painter.p
    assert drawn[child_message("home.not_resumed")] == p.bad
    Autoplayer(app).tap("game.mecs")  # a game chosen: the sentence goes
    app.stack.unwind_to(HomeScene)
    drawn.clear()
    app.draw()
    assert drawn["Tap a game to play."] == p.muted


def arena_of_three_left(path: Path):
    """An app on a journal at ``path`` whose Math Arena game of three children was left
    unfinished (the device unplugged at its first decision)."""
    app = make_app(journal=Journal(path))
    auto = Autoplayer(app)
    for name in ("game.math-arena", "seat.2", "choice.child", "start"):
        auto.tap(name)
    app.stack.unwind_to(HomeScene)  # unplugged
    return app


def test_home_the_carry_on_offer_names_the_players_as_a_sentence(tmp_path: Path) -> None:
    """Three players are "Player 1, Player 2 and Player 3" (the one joiner,
    ``words.and_joined``), not "Player 1 and Player 2 and Player 3"."""
    path = tmp_path / FILE_NAME
    app = arena_of_three_left(path)
    app.ctx.journal.close()
    offer = make_app(journal=Journal(path)).stack.top
    assert isinstance(offer, Confirm)
    assert offer.detail == (
        "A game of Math Arena was not finished: Player 1, Player 2 and Player 3."
        " New game ends this one unfinished."
    )


def test_home_the_carry_on_offer_says_new_game_ends_the_old_one(tmp_path: Path) -> None:
    """Its "New game" closes the game left unfinished as abandoned: the question says so,
    as the Leave dialog says what leaving costs (it said only who played)."""
    path = tmp_path / FILE_NAME
    arena_of_three_left(path).ctx.journal.close()
    offer = make_app(journal=Journal(path)).stack.top
    assert isinstance(offer, Confirm)
    assert offer.detail.endswith(" New game ends this one unfinished.")
    assert child_message("home.new_game_ends") == "New game ends this one unfinished."


def test_home_the_carry_on_offer_tells_two_children_of_one_name_apart(tmp_path: Path) -> None:
    """Two children of the same name signed in at one table: the carry-on question names
    each with their group (the sign-in's way, ``students.shown_names``), so the right two
    sit down again; a guest's name stays as it is."""
    path = tmp_path / FILE_NAME
    app = arena_of_three_left(path)
    (saved,) = unfinished(app.ctx)
    app.ctx.journal.set_seats(
        saved.id,
        [
            SeatInfo(0, "Zoé Müller", "S1", "4b"),
            SeatInfo(1, "Zoé Müller", "S2", "4c"),
            SeatInfo(2, "Zoé Müller"),
        ],
    )
    app.ctx.journal.close()
    offer = make_app(journal=Journal(path)).stack.top
    assert isinstance(offer, Confirm)
    assert offer.detail == (
        "A game of Math Arena was not finished: Zoé Müller (4b), Zoé Müller (4c) and Zoé Müller."
        " New game ends this one unfinished."
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_the_carry_on_offer_has_carry_on_primary_over_the_big_tile(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Round 28 (walk): after a restart "New game" sat over Mathe-Meister's big tile,
    where a child's finger goes; "Carry on", the primary, is there now, at both sizes."""
    path = tmp_path / FILE_NAME
    unfinished_games(path, "math-arena")
    app = make_app(size, journal=Journal(path))
    offer, home = app.stack.top, app.stack.find(HomeScene)
    assert isinstance(offer, Confirm) and home is not None
    carry_on, new_game, tile = (
        offer.target("yes"),
        offer.target("no"),
        home.target("game.mathe-meister"),
    )
    assert carry_on is not None and new_game is not None and tile is not None
    assert (carry_on.label, carry_on.kind, new_game.kind) == ("Carry on", "primary", "quiet")
    assert carry_on.rect.colliderect(tile.rect) and not new_game.rect.colliderect(tile.rect)


def test_home_new_game_asks_once_more_before_a_game_with_moves_ends(tmp_path: Path) -> None:
    """Round 28 (walk): one fast tap on "New game" gave up a game with moves for good,
    with no PIN. It asks once more, as Leave does, in a child's words, "Keep the game"
    the primary (which offers the game again); "New game" there gives it up. A game with
    no move yet is given up at once (the teacher starts fresh quickly); no PIN."""
    path = tmp_path / FILE_NAME
    (empty,) = unfinished_games(path, "math-arena")
    app = make_app(journal=Journal(path))
    auto = Autoplayer(app)
    app.post(Back(app.ctx.clock()))  # later
    app.step()
    for name in ("game.math-attack", "first.0", "start"):
        auto.tap(name)
    app.post(cards_seen(1, "line", ["+5"], app.ctx.clock()))  # Player 1 plays a card
    app.step()
    app.ctx.journal.close()  # unplugged
    (played,) = (s.id for s in Journal(path).unfinished(LABEL) if s.id != empty)
    app = make_app(journal=Journal(path))
    auto = Autoplayer(app)
    auto.tap("no")
    sure = app.stack.top
    assert isinstance(sure, Confirm) and sure.detail == "This ends your game. It will not count."
    keep = sure.target("no")
    assert keep is not None and (keep.label, keep.kind) == ("Keep the game", "primary")
    auto.tap("no")
    offer = app.stack.top
    assert isinstance(offer, Confirm) and "Math Attack!" in offer.detail
    assert app.ctx.journal.status(played) == "playing"
    auto.tap("no")
    auto.tap("yes")
    assert app.ctx.journal.status(played) == "abandoned"
    offer = app.stack.top
    assert isinstance(offer, Confirm) and "Math Arena" in offer.detail
    auto.tap("no")  # no move yet: given up at once
    assert app.ctx.journal.status(empty) == "abandoned"
    assert isinstance(app.stack.top, HomeScene)
