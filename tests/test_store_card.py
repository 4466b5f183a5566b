"""The journal on a full or read-only SD card (issue 25, items 4 and 5): a healthy file is
never moved aside because a write failed; play goes on in memory and reaches the file
when it takes writes again; ``tabletop report`` reads a read-only journal.

Simulated (every machine) with :func:`tests.card.simulated_card`; for real with a small
tmpfs that fills up and a read-only bind mount (root: CI; skipped where mount is not
permitted)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tabletop.store_file import FULL, READ_ONLY, SAVING_AGAIN
from tests.card import fill, read_only_view, simulated_card, small_filesystem
from tests.test_store import new_match, play

REPO = Path(__file__).resolve().parents[1]
LABEL = "app"
NEVER = float("inf")  # retry_every: the file is tried again only when the test says
READ_ONLY_ERROR = "attempt to write a readonly database"  # what SQLite says


def lesson(path: Path) -> tuple[int, Match]:  # type: ignore[type-arg]
    """A journal with one finished game (a report row) and one unfinished game of 6
    actions; the unfinished game's id and match."""
    journal = Journal(path)
    done = new_match(seed=2)
    done_id = journal.start(done, seats=[SeatInfo(0, "Ana", "S1", "Red"), SeatInfo(1, "Bo")])
    play(done, 4, seed=2)
    journal.sync(done_id, done)
    journal.finish(done_id, {"scores": ["3", "1"], "places": [1, 2], "winners": [0]})
    match = new_match(seed=5)
    match_id = journal.start(match, label=LABEL)
    play(match, 6, seed=5)
    journal.sync(match_id, match)
    journal.close()
    return match_id, match


def moved_aside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name or ".newer-" in p.name)


def stored_actions(path: Path, match_id: int) -> int:
    journal = Journal(path)
    try:
        return len(journal.lines(match_id)) - 1
    finally:
        journal.close()


# -- simulated: every machine ------------------------------------------------------------


@pytest.mark.parametrize("refuse", ["full", "read-only"])
def test_store_card_a_healthy_journal_is_not_moved_aside_when_it_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refuse: str
) -> None:
    """Item 4 and 5: opened on a card that refuses writes, the journal keeps the file as
    it is and offers the unfinished game again; play goes on in memory."""
    path = tmp_path / FILE_NAME
    match_id, match = lesson(path)
    card = simulated_card(monkeypatch)
    card.refuse = {"full": "database or disk is full", "read-only": READ_ONLY_ERROR}[refuse]
    journal = Journal(path)  # tries the file again only after retry_every (10 s)
    assert moved_aside(tmp_path) == []
    (saved,) = journal.unfinished(LABEL)
    assert (saved.id, saved.actions) == (match_id, 6)
    assert journal.trouble == (FULL if refuse == "full" else READ_ONLY)
    assert journal.notice is not None and "not being saved" in journal.notice
    resumed = journal.load(saved.id, GAMES)
    assert resumed.history == match.history
    play(resumed, 5, seed=5)
    journal.sync(saved.id, resumed)  # no error: kept in memory
    assert len(journal.lines(saved.id)) == 1 + 11
    assert card.refused > 0
    journal.db.close()  # the process ends while the card is still refusing writes
    monkeypatch.undo()
    assert stored_actions(path, match_id) == 6  # the file is as it was, whole


def test_store_card_full_mid_game_goes_on_in_memory_and_catches_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails mid-game: the game goes on; when the card takes writes again,
    everything played meanwhile (moves, a new game, a finish) reaches the file."""
    path = tmp_path / FILE_NAME
    match_id, _ = lesson(path)
    card = simulated_card(monkeypatch)
    journal = Journal(path, retry_every=NEVER)
    match = journal.load(match_id, GAMES)
    card.refuse = "database or disk is full"
    play(match, 4, seed=5)
    journal.sync(match_id, match, elapsed=30.0)
    assert journal.trouble == FULL and journal.trouble_seq == 1
    other = new_match(seed=9)
    other_id = journal.start(other, label=LABEL)
    play(other, 3, seed=9)
    journal.sync(other_id, other)
    journal.finish(other_id, {"scores": ["1", "2"], "places": [2, 1], "winners": [1]})
    match.undo()  # an undo while in memory is carried over too
    journal.sync(match_id, match)
    assert not journal.retry()  # still full: stays in memory, nothing lost
    assert journal.trouble == FULL and journal.trouble_seq == 1  # said once
    card.refuse = None  # room again
    assert journal.retry()
    assert journal.trouble is None and journal.trouble_seq == 2
    play(match, 2, seed=5)
    journal.sync(match_id, match)  # straight to the file again
    journal.close()
    again = Journal(path)
    assert again.load(match_id, GAMES).history == match.history
    done = {s.id: s for s in again.matches()}[other_id]
    assert (done.status, done.actions) == ("finished", 3)
    again.close()


def test_store_card_catches_up_at_the_next_write_and_when_closing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / FILE_NAME
    match_id, _ = lesson(path)
    card = simulated_card(monkeypatch)
    ticks = [0.0]
    journal = Journal(path, retry_every=10.0, clock=lambda: ticks[0])
    match = journal.load(match_id, GAMES)
    card.refuse = READ_ONLY_ERROR
    play(match, 1, seed=5)
    journal.sync(match_id, match)
    assert journal.trouble == READ_ONLY
    card.refuse = None
    ticks[0] = 5.0
    play(match, 1, seed=5)
    journal.sync(match_id, match)  # too soon to try the file again
    assert journal.trouble == READ_ONLY
    ticks[0] = 10.0
    play(match, 1, seed=5)
    journal.sync(match_id, match)  # tried, and written
    assert journal.trouble is None
    assert stored_actions(path, match_id) == 9
    card.refuse = "database or disk is full"
    play(match, 1, seed=5)
    journal.sync(match_id, match)
    card.refuse = None
    journal.close()  # a last try when closing
    assert stored_actions(path, match_id) == 10


def test_store_card_a_damaged_file_is_still_moved_aside(tmp_path: Path) -> None:
    """Only proof moves a file aside: not a database (SQLite says so)."""
    path = tmp_path / FILE_NAME
    path.write_bytes(b"SQLite format 3\0" + b"\xff" * 4000)
    journal = Journal(path)
    assert len(moved_aside(tmp_path)) == 1 and journal.trouble is None
    journal.close()


def test_store_card_report_reads_a_journal_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 5: ``tabletop report --all`` on a read-only card reports the finished games."""
    lesson(tmp_path / FILE_NAME)
    card = simulated_card(monkeypatch)
    card.refuse = READ_ONLY_ERROR
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--all", "--data", str(tmp_path), "--csv", "r.csv"]) == 0
    assert "wrote r.csv (2 rows, all sessions)" in capsys.readouterr().out
    assert moved_aside(tmp_path) == []
    assert card.refused == 0  # the report never tries to write the journal


def test_store_card_report_on_a_damaged_journal_is_one_line_and_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"not a database" * 300)
    assert main(["report", "--all", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tabletop report: {path} is damaged") and err.count("\n") == 1
    assert moved_aside(tmp_path) == [] and path.read_bytes() == b"not a database" * 300


def test_store_card_the_app_tells_the_children_once_and_the_teacher_precisely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletop.ui.saves import NOT_SAVING, GameSave, seat_infos
    from tabletop.ui.saves import SAVING_AGAIN as CHILD_SAVING_AGAIN
    from tests.ui.scenery import make_app

    card = simulated_card(monkeypatch)
    journal = Journal(tmp_path / FILE_NAME, retry_every=NEVER)
    app = make_app(journal=journal)
    said: list[str] = []
    monkeypatch.setattr(app, "say", lambda message, seconds=4.0: said.append(message))
    save = GameSave(app.ctx, "math-attack", seat_infos(["A", "B"]), {})
    match = new_match()
    save.attach(match)
    card.refuse = "database or disk is full"
    for _ in range(3):
        play(match, 1)  # each change is journaled through match.on_change
        app.step()
    assert said == [NOT_SAVING]  # once, in child words; no "could not be saved" toast
    assert journal.trouble == FULL
    card.refuse = None
    journal.retry()
    app.step()
    assert said == [NOT_SAVING, CHILD_SAVING_AGAIN]
    assert len(Journal(tmp_path / FILE_NAME).lines(save.id or 0)) == 1 + 3
    assert SAVING_AGAIN.startswith("the SD card takes games again")


# -- for real: a small filesystem that fills up, a read-only bind mount --------------------


def test_store_card_a_real_full_filesystem(tmp_path: Path) -> None:
    """Item 4 on a tmpfs that fills up: the journal is not moved aside, the unfinished
    game is offered again, and what is played while full reaches the file once there is
    room."""
    with small_filesystem(tmp_path / "card") as card:
        path = card / FILE_NAME
        match_id, match = lesson(path)
        filler = fill(card)
        journal = Journal(path)  # the app started again on a full card
        assert moved_aside(card) == []
        (saved,) = journal.unfinished(LABEL)
        match = journal.load(saved.id, GAMES)
        while not match.game.is_over(match.state):  # each action needs room on the card
            play(match, 1, seed=5)
            journal.sync(match_id, match, elapsed=1.0)
        assert journal.trouble == FULL
        assert not journal.retry()  # still full
        filler.unlink()
        assert journal.retry()
        journal.close()
        assert moved_aside(card) == []
        assert stored_actions(path, match_id) == len(match.history) > 6


def test_store_card_a_real_read_only_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 5 on a read-only bind mount: the unfinished game is carried on, and
    ``tabletop report --all`` reports the finished game (clean journal and after a
    crash, with its WAL beside it)."""
    source = tmp_path / "data"
    source.mkdir()
    match_id, match = lesson(source / FILE_NAME)
    with read_only_view(source, tmp_path / "ro") as ro:
        journal = Journal(ro / FILE_NAME)
        (saved,) = journal.unfinished(LABEL)
        resumed = journal.load(saved.id, GAMES)
        assert resumed.history == match.history
        assert journal.trouble == READ_ONLY and moved_aside(source) == []
        play(resumed, 2, seed=5)
        journal.sync(saved.id, resumed)
        journal.close()
        out = tmp_path / "r.csv"
        assert main(["report", "--all", "--data", str(ro), "--csv", str(out)]) == 0
        assert "(2 rows, all sessions)" in capsys.readouterr().out
    # After a crash: the last actions only in the WAL (and its -shm) beside the file.
    writer = sqlite3.connect(source / FILE_NAME, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE seats SET name = 'Ana M.' WHERE name = 'Ana'")
    with read_only_view(source, tmp_path / "ro2") as ro:
        assert (ro / (FILE_NAME + "-wal")).stat().st_size > 0
        assert main(["report", "--all", "--data", str(ro), "--csv", str(out)]) == 0
        assert "Ana M." in out.read_text(encoding="utf-8-sig")
        journal = Journal(ro / FILE_NAME)
        assert [s.id for s in journal.unfinished(LABEL)] == [match_id]
        journal.close()
    # The file and its WAL without the -shm (copied off a card): read from a copy.
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in (FILE_NAME, FILE_NAME + "-wal"):
        shutil.copyfile(source / name, bare / name)
    writer.close()
    with read_only_view(bare, tmp_path / "ro3") as ro:
        journal = Journal.read_only(ro / FILE_NAME)
        names = journal.db.execute("SELECT name FROM seats ORDER BY name").fetchall()
        assert ("Ana M.",) in names
        journal.close()
        assert sorted(p.name for p in ro.iterdir()) == [FILE_NAME, FILE_NAME + "-wal"]


def test_store_card_a_demo_on_a_read_only_card_is_refused_before_playing(
    tmp_path: Path,
) -> None:
    """Item 10 played the Math Attack! demo to the end on a read-only journal, then (round
    29) said the game is not in the journal, status 2. As every command does with an
    output it cannot write, the demo now says so in one line before playing (r40-keep 2),
    the journal untouched. (A card that stops taking writes during the game still ends in
    that line: tests/ui/test_commands.py.)"""
    source = tmp_path / "data"
    source.mkdir()
    lesson(source / FILE_NAME)
    before = (source / FILE_NAME).read_bytes()
    with read_only_view(source, tmp_path / "ro") as ro:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        demo = ["demo", "--game", "math-attack", "--seed", "4", "--data", str(ro)]
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", *demo, "--out", str(tmp_path / "shots")],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert sorted(p.name for p in ro.iterdir()) == [FILE_NAME]
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"tabletop demo: cannot write {ro}: the folder is read-only\n"
    assert (source / FILE_NAME).read_bytes() == before


def test_store_card_a_new_journal_on_a_card_that_refuses_writes_is_written_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No journal yet and the card refuses writes: games are kept in memory and the
    whole journal is written when the card takes writes."""
    card = simulated_card(monkeypatch)
    card.refuse = READ_ONLY_ERROR
    path = tmp_path / FILE_NAME
    journal = Journal(path, retry_every=NEVER)
    assert journal.trouble == READ_ONLY
    match = new_match()
    match_id = journal.start(match, label=LABEL)
    play(match, 3)
    journal.sync(match_id, match)
    card.refuse = None
    journal.close()
    assert stored_actions(path, match_id) == 3
