"""GameSave and one_write: the app's link to the journal (issue 10)."""

from __future__ import annotations

import random
from pathlib import Path

from tabletop.store import FILE_NAME, Journal
from tabletop.ui.saves import LABEL, GameSave, game_seed, one_write, seat_infos, seats_of
from tests.test_store import new_match, play
from tests.ui.scenery import make_app


def test_saves_one_input_reaches_the_journal_once_and_only_if_it_changed(tmp_path: Path) -> None:
    app = make_app(journal=Journal(tmp_path / FILE_NAME))
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"]), {})
    match = new_match()
    save.attach(match)
    writes: list[int] = []
    hook = match.on_change

    def counted(m) -> None:  # type: ignore[no-untyped-def]
        writes.append(len(m.history))
        assert hook is not None
        hook(m)

    match.on_change = counted
    with one_write(match):
        play(match, 3)
    assert writes == [3]
    with one_write(match):
        pass  # nothing changed: nothing written
    assert writes == [3] and match.on_change is counted
    assert len(Journal(tmp_path / FILE_NAME).lines(save.id or 0)) == 1 + 3
    with one_write(match):
        match.undo()
        play(match, 1)  # as long as before, but another last step: a change
    with one_write(match):
        match.undo()
    assert writes == [3, 3, 2]


def test_saves_answers_from_match_journals_each_answer_once_and_an_undo_takes_back(
    tmp_path: Path,
) -> None:
    """Issue 24: the answers a screen works out of its match (in step order) reach the
    journal once each, a bot's never, and those past an undo are taken back."""
    from fractions import Fraction

    from tabletop.classroom.mistakes import Question

    journal = Journal(tmp_path / FILE_NAME)
    app = make_app(journal=journal)
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"], {1: "easy"}), {})
    match = new_match()
    save.attach(match)

    def answer(step: int, seat: int) -> tuple[int, int, int, Question, Fraction]:
        question = Question("sums", (Fraction(step), Fraction(1)), ("+",))
        return step, seat, step - 1, question, Fraction(step + 1)

    def journaled() -> list[tuple[int | None, int]]:
        return [(a.step, a.seat) for a in journal.answers(save.id or 0)]

    found = []
    for step in range(1, 7):
        play(match, 1)
        found += [answer(step, 0), answer(step, 1)] if step % 2 else []
        save.answers_from_match(found)
    assert journaled() == [(1, 0), (3, 0), (5, 0)]
    for _ in range(3):
        match.undo()
    found = found[:-2]
    save.answers_from_match(found)
    assert journaled() == [(1, 0), (3, 0)]
    for step in (4, 5):
        play(match, 1)
        found += [answer(step, 0)] if step == 5 else []
        save.answers_from_match(found)
    assert journaled() == [(1, 0), (3, 0), (5, 0)]


def test_saves_an_answers_seconds_count_from_the_first_write_at_or_past_each_step(
    tmp_path: Path,
) -> None:
    """Issue 24: the seconds an answer took run from the first write of the match at the
    step it was asked or later to the same for the step it was answered, whatever order
    the lengths were written in (an undo writes a shorter match later)."""
    app = make_app(journal=Journal(tmp_path / FILE_NAME))
    clock = app.ctx.clock
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"]), {})
    match = new_match()
    save.attach(match)  # 0 actions at 1000
    match.on_change = None  # written only where this test says
    for moves, seconds in ((3, 5), (7, 10)):  # 3 at 1005, 7 at 1015
        play(match, moves - match.moves)
        clock.advance(seconds)  # type: ignore[attr-defined]
        save.sync(match)
    match.undo()
    match.undo()
    clock.advance(2)  # type: ignore[attr-defined]
    save.attach(match)  # 5 at 1017 (the screen rebuilt its match after an undo)
    reached = [save._reached(n) for n in range(9)]
    assert reached == [1000, 1005, 1005, 1005, 1017, 1017, 1015, 1015, None]
    assert save._reached(None) is None
    assert [save.seconds_since(*p) for p in ((0, 3), (1, 4), (4, 7), (3, 6))] == [5, 12, 0, 10]
    assert (save.seconds_since(2), save.seconds_since(8), save.seconds_since(None)) == (
        12,
        None,
        None,
    )


def test_saves_a_finished_game_is_kept_as_it_ended(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"]), {})
    match = new_match()
    save.attach(match)
    play(match, 2)
    save.finish(None, reason="abandoned")
    match.on_change = save.sync  # a screen that hooks it again changes nothing
    play(match, 2)
    (saved,) = Journal(path).matches()
    assert (saved.status, saved.actions) == ("abandoned", 2)


def test_saves_a_resumed_game_has_played_what_its_journal_or_record_last_said(
    tmp_path: Path,
) -> None:
    """The seconds played come back once, for every game: the journal's (written with
    each change of the match) or ``app["played"]`` (written with the table's record,
    e.g. a countdown running with no move), whichever is later."""
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    clock = app.ctx.clock
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"]), {})
    match = new_match()
    save.attach(match)

    def carried_on() -> float:
        (saved,) = Journal(path).unfinished(LABEL)
        return GameSave.resumed(app.ctx, saved).elapsed()

    clock.advance(5.0)  # type: ignore[attr-defined]
    play(match, 1)
    assert carried_on() == 5.0
    clock.advance(3.0)  # type: ignore[attr-defined]
    save.app["played"] = save.elapsed()
    save.write_meta()
    assert carried_on() == 8.0
    clock.advance(4.0)  # type: ignore[attr-defined]
    play(match, 1)
    assert carried_on() == 12.0


def test_saves_a_resumed_game_seats_from_the_journal_else_from_the_tables_record() -> None:
    """The journal's seats (a child signed in keeps theirs) where it has one per seat;
    where its rows were not written, the seats the table recorded in ``app``."""
    app = make_app()
    recorded = [["Ann", False], ["Bot 2", True]]
    save = GameSave(app.ctx, "math-arena", [], {"seats": recorded})
    assert save.seats_or(recorded) == recorded
    save.seats = seat_infos(["Ann", "Bo"], {1: "easy"})
    assert save.seats_or(recorded) == save.seats
    assert save.seats_or(None) == save.seats  # nothing recorded: the journal's


def test_saves_seats_of_reads_every_way_a_seat_is_given() -> None:
    """(name, is a bot) from a setup, (name, is a bot, level) from a table's record, or
    the journal's seat (a signed-in child's student id kept): one reader for them all."""
    from tabletop.store import SeatInfo

    child = SeatInfo(2, "Ada L.", "s1", "Red")
    seats = seats_of([("Ann", False), ["Bot 2", True, "easy"], child, ("Bot 4", True)], "hard")
    assert [(s.seat, s.name, s.bot) for s in seats] == [
        (0, "Ann", None),
        (1, "Bot 2", "easy"),
        (2, "Ada L.", None),
        (3, "Bot 4", "hard"),
    ]
    assert seats[2] is child


def test_saves_game_seed_is_the_matchs_else_the_apps_rngs_next_draw() -> None:
    """Every game screen picks its seed here: the same draw from ``ctx.rng`` as the
    screens made before (so journals and seed-7 demos deal the same), in each one's range."""
    app = make_app()
    app.ctx.rng = random.Random(7)
    expected = random.Random(7)
    assert game_seed(app.ctx, 42) == 42  # the match's: no draw
    assert game_seed(app.ctx, 0) == 0  # a seed of 0 is a seed, not "none"
    assert game_seed(app.ctx) == expected.randrange(10**9)
    assert game_seed(app.ctx, None, below=1 << 30) == expected.randrange(1 << 30)
