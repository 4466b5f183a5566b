"""Two children of one name signed in at one table (a class has two "Mia"s) look different
on every game's seat chips and Ready tiles, on the sign-in's seat tiles, on the results
and in the tables' sentences (shown and spoken): each name shows what tells it apart, as
the class list's screens show it (``students.shown_names``: "Mia (4a)"). The games, the
journal and the demos keep the names as they are; typed names and bots change nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.classroom.roster import Roster
from tabletop.engine.protocol import Result
from tabletop.store import Journal
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import resume_game
from tabletop.ui.harness import cards_seen
from tabletop.ui.input import SeatPressed
from tabletop.ui.results import GameResults, outcome_of, told_apart
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
    """One Mia signed in beside a guest typed Mia: no seat says more than its name (two
    names typed alike the form refuses: ``test_form_refuses_a_name_another_seat_has``)."""
    app, auto = class_app(tmp_path)
    open_table(auto, game, "S1", names=("Ann", "Mia"))
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert [table.shown(s, "Mia") for s in (0, 1)] == ["Mia", "Mia"]
    assert not any("(4a)" in text or "(4b)" in text for text in table_texts(app))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["Mia", "Mia Schmidt-Wolkenstein"])
def test_namesakes_signed_in_look_different_on_the_signin_seat_tiles(
    tmp_path: Path, name: str, size: tuple[int, int]
) -> None:
    """The sign-in's seat tiles of two children of one name show their groups (they
    read "Mia" and "Mia"); a name too long for its tile keeps its first word and the
    group ("Mia (4a)"), not the first word alone."""
    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv(CLASS.replace("Mia", name))
    app = make_app(size, journal=journal)
    auto = Autoplayer(app)
    auto.tap("game.math-wars-meta")
    form_seats(auto, 8 if " " in name else 2)  # eight seats: narrow tiles
    auto.tap("start")
    auto.tap("student.S1")
    auto.tap("student.S2")
    texts = [text for text, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert "Mia (4a)" in texts and "Mia (4b)" in texts, texts
    assert [s.name for s in auto.top.seats[:2]] == [name, name]  # what Play! gives the game


@pytest.mark.parametrize("game", ["mathe-meister", "math-attack", "mecs", "math-arena"])
def test_namesakes_results_tell_them_apart(tmp_path: Path, game: str) -> None:
    """The one results scene shows the two Mias' rows apart, as their table did, and
    the lines a game adds per seat (Mathe-Meister's stars, Math Arena's tournament)."""
    app, auto = class_app(tmp_path)
    open_table(auto, game, "S1", "S2")
    table = app.stack.top
    assert isinstance(table, TableScene)
    table.show_results()
    results = app.stack.top
    assert isinstance(results, GameResults)
    assert sorted(row.name for row in results.outcome.rows) == list(TOLD_APART)
    assert results.winner_line == table.outcome().winner_line  # the demos' line: the names
    texts = [text for text, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert all(shown in texts for shown in TOLD_APART), texts
    assert not any(line.startswith("Mia:") for line in results.outcome.lines)


def test_namesakes_results_title_names_the_winner_told_apart() -> None:
    """ "Mia wins!" names the winner as her row does ("Mia (4b) wins!"); a game's own
    title stays; the closing line keeps the names."""
    won = Result((Fraction(3), Fraction(5)), (2, 1), "the cards ran out")
    shown = dict(enumerate(TOLD_APART))
    out = told_apart(outcome_of(won, ["Mia", "Mia"]), lambda seat, name: shown[seat])
    assert out.title == "Mia (4b) wins!"
    assert [(r.seat, r.name) for r in out.rows] == [(1, "Mia (4b)"), (0, "Mia (4a)")]
    assert out.winner_line == "winner: Mia"
    own = replace(outcome_of(won, ["Mia", "Mia"]), title="You won the game!")
    assert told_apart(own, lambda seat, name: shown[seat]).title == "You won the game!"


def test_namesakes_math_attack_results_say_which_mia(tmp_path: Path) -> None:
    """ATK-5's end between two Mias: the title, the reason (who played =) and the totals
    compared name each Mia as her chip does; the closing line keeps the names."""
    app, auto = class_app(tmp_path)
    open_table(auto, "math-attack", "S1", "S2")
    for line, cards in ((0, ["+8"]), (1, ["+3"]), (0, ["+8", "END"])):
        app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
        app.step()
    auto.tap("line.1")
    auto.tap("choice.+D")
    results = app.stack.top
    assert isinstance(results, GameResults)
    out = results.outcome
    assert (out.title, out.winner_line) == ("Mia (4b) wins!", "winner: Mia")
    assert "Mia (4a) played =, so Mia (4b) had one last turn" in out.reason
    assert out.lines == ["Mia (4b)'s line totals 9 and Mia (4a)'s totals 8: 9 is more than 8."]


def seat_pressed(seat: int) -> Callable[[App, Autoplayer], None]:
    def press(app: App, auto: Autoplayer) -> None:
        app.post(SeatPressed(seat, app.ctx.clock()))
        app.step()

    return press


def arena_ready(app: App, auto: Autoplayer) -> None:
    auto.tap("deal")
    seat_pressed(0)(app, auto)


# per game: what gets a sentence naming a seat said, and the sentence ({0}, {1}: the seats)
SAYS: dict[str, tuple[Callable[[App, Autoplayer], None], str]] = {
    "math-attack": (lambda app, auto: None, "{0} goes first! {0}: put one card"),
    "mecs": (lambda app, auto: None, "{0} took a card from {1}'s hand:"),
    "math-wars-meta": (lambda app, auto: None, "{0}, {1}: turn up your COUNT META"),
    "math-arena": (arena_ready, "{0} is ready. Waiting for {1} to press their button."),
    "mathe-meister": (seat_pressed(1), "{1}: tap your line's star"),
}


def said_at(app: App, game: str) -> tuple[str, list[str]]:
    """``game``'s sentence naming a seat said (:data:`SAYS`): the instruction line, and
    what was said aloud."""
    SAYS[game][0](app, Autoplayer(app))
    table = app.stack.top
    assert isinstance(table, TableScene)
    return table.status(), app.ctx.speaker.said


@pytest.mark.parametrize("game", SAYS)
def test_namesakes_signed_in_are_told_apart_in_the_sentences(tmp_path: Path, game: str) -> None:
    """The instruction line and what is said aloud name each Mia as her chip does ("Mia
    (4a), Mia (4b): turn up your COUNT META...", not "Mia, Mia: ..."); the journal keeps
    the names."""
    app, auto = class_app(tmp_path)
    open_table(auto, game, "S1", "S2")
    line, spoken = said_at(app, game)
    sentence = SAYS[game][1].format(*TOLD_APART)
    assert sentence in line
    assert sentence in " ".join(spoken), spoken  # the sentence, then the step
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert "(4" not in table.standings().reason  # the journal's "why" of a game left


@pytest.mark.parametrize("game", SAYS)
def test_namesakes_typed_or_one_signed_in_say_the_names(tmp_path: Path, game: str) -> None:
    """One Mia signed in beside a guest typed Mia (two typed alike the form refuses): the
    sentences say "Mia" as before."""
    app, auto = class_app(tmp_path)
    open_table(auto, game, "S1", names=("Ann", "Mia"))
    line, spoken = said_at(app, game)
    assert SAYS[game][1].format("Mia", "Mia") in line
    assert not any("(4a)" in said or "(4b)" in said for said in [line, *spoken])


def test_namesakes_math_attack_rulings_and_story_say_which_mia(tmp_path: Path) -> None:
    """A ruling on the instruction line (who played what, whose last turn) and the
    game's story name each Mia as her chip does."""
    app, auto = class_app(tmp_path)
    open_table(auto, "math-attack", "S1", "S2")
    for line, cards in ((0, ["+8"]), (1, ["+3"]), (0, ["+8", "END"])):
        app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
        app.step()
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert "Mia (4a) puts the = card on their own number line." in table.status()
    assert "This is Mia (4b)'s last turn!" in table.status()
    assert table.play.story[-1][1].endswith("Mia (4a) played =: last turn for Mia (4b).")


def test_namesakes_typed_alike_before_the_form_refused_them_are_told_apart_carried_on(
    tmp_path: Path,
) -> None:
    """Round 28: a game journaled before the setup refused a name another seat has
    (two seats typed "Sam"): carried on, the second is "Sam 2" on the Home's offer, the
    table's seat rows, its sentences and its results; the journal keeps "Sam" twice."""
    from tabletop.store import FILE_NAME
    from tabletop.ui.games.math_arena import ArenaScene
    from tabletop.ui.scenes.home import HomeScene

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    app.stack.push(ArenaScene(app.ctx, [("Sam", False), ("Sam", False)], {"seed": 5}))
    app.step()  # journaled as the old setup handed it over
    app.stack.unwind_to(HomeScene)  # unplugged
    app.ctx.journal.close()
    app = make_app(journal=Journal(path))
    assert ": Sam and Sam 2." in app.stack.top.detail  # Home's offer to carry it on
    Autoplayer(app).tap("yes")
    table = app.stack.top
    texts = table_texts(app)
    assert "Sam" in texts and "Sam 2" in texts, texts
    app.post(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert table.message.startswith("Sam 2: ")  # a sentence names the seat as drawn
    assert [table.shown(s, "Sam") for s in (0, 1)] == ["Sam", "Sam 2"]
    (saved,) = app.ctx.journal.unfinished("app")
    assert [s.name for s in app.ctx.journal.seats(saved.id)] == ["Sam", "Sam"]
    assert saved.meta["app"]["seats"] == [["Sam", False], ["Sam", False]]
    rows = told_apart(
        outcome_of(Result((Fraction(1), Fraction(0)), (1, 2), ""), ["Sam"] * 2), table.shown
    )
    assert [r.name for r in rows.rows] == ["Sam", "Sam 2"]


@pytest.mark.parametrize("game", ["mathe-meister", "math-arena", "math-wars-meta", "mecs"])
def test_namesakes_a_seat_name_passes_shown_once(tmp_path: Path, game: str, monkeypatch) -> None:
    """Round 36: Mathe-Meister's paper table (its seat tiles) and Math Arena's seat rows
    passed a name through ``shown`` twice (``play.name`` is already as drawn): a name
    ``shown`` changes would come out changed twice. A ``shown`` that marks what it is
    given shows each seat's name marked once."""
    monkeypatch.setattr(TableScene, "shown", lambda self, seat, name: f"[{name}]")
    app, auto = class_app(tmp_path)
    open_table(auto, game, names=("Ann", "Bob"))
    texts = table_texts(app)
    assert {"[Ann]", "[Bob]"} <= set(texts), texts
    assert not any("[[" in text for text in texts), texts
