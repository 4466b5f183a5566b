"""Personal high scores per game and mode set (tabletop/highscores.py)."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from tabletop.highscores import FILE_NAME, SAVED_AGAIN, SCHEMA_VERSION, HighScores, modes_key
from tests.card import READ_ONLY, read_only_view, simulated_card


def fixed_now() -> datetime:
    return datetime(2025, 3, 14, 9, 26, 53)


def test_highscores_best_per_player_and_modes(tmp_path) -> None:
    scores = HighScores(tmp_path / FILE_NAME, now=fixed_now)
    first = scores.record("mathe-meister", "Mia", ["twins", "coinless"], 120)
    assert first.previous_best is None and first.is_new_best
    second = scores.record("mathe-meister", "Mia", ["coinless", "twins"], 90)
    assert second.previous_best == 120 and second.best == 120 and not second.is_new_best
    third = scores.record("mathe-meister", "Mia", ["coinless", "twins"], 150)
    assert third.is_new_best and third.best == 150
    assert scores.best("mathe-meister", "Mia", ["freestyle"]) is None
    assert scores.best("mathe-meister", "Leo", ["twins", "coinless"]) is None
    scores.close()
    again = HighScores(tmp_path / FILE_NAME)
    assert again.best("mathe-meister", "Mia", ["twins", "coinless"]) == 150


def test_highscores_black_hole_lowest_is_best() -> None:
    scores = HighScores(":memory:")
    scores.record("mathe-meister", "Mia", ["black_hole"], -40, lower_is_better=True)
    rec = scores.record("mathe-meister", "Mia", ["black_hole"], -90, lower_is_better=True)
    assert rec.is_new_best and rec.best == -90
    assert scores.best("mathe-meister", "Mia", ["black_hole"], lower_is_better=True) == -90


def test_highscores_recent_players_most_recent_first() -> None:
    scores = HighScores(":memory:")
    for name in ("Mia", "Leo", "Mia", "Ana"):
        scores.record("mathe-meister", name, [], 1)
    assert scores.players("mathe-meister") == ["Ana", "Mia", "Leo"]


def test_highscores_schema_is_versioned(tmp_path) -> None:
    HighScores(tmp_path / FILE_NAME).close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_highscores_corrupt_file_is_moved_aside_with_a_message(tmp_path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"this is not a database, it is a sandwich" * 100)
    scores = HighScores(path, now=fixed_now)
    assert scores.notice is not None and "damaged" in scores.notice
    aside = tmp_path / f"{FILE_NAME}.corrupt-20250314-092653"
    assert aside.read_bytes().startswith(b"this is not a database")
    rec = scores.record("mathe-meister", "Mia", [], 33)  # and it works at once
    assert rec.best == 33
    assert HighScores(path).best("mathe-meister", "Mia", []) == 33


def test_highscores_unknown_schema_version_is_moved_aside(tmp_path) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    scores = HighScores(path, now=fixed_now)
    assert scores.notice is not None and "schema version 99" in scores.notice
    assert scores.best("mathe-meister", "Mia", []) is None


def test_highscores_file_damaged_while_open_never_crashes(tmp_path) -> None:
    path = tmp_path / FILE_NAME
    scores = HighScores(path, now=fixed_now)
    scores.record("mathe-meister", "Mia", [], 10)
    path.write_bytes(b"\0garbage" * 2000)  # the card went bad under the running app
    rec = scores.record("mathe-meister", "Mia", [], 20)
    assert rec.score == 20
    assert scores.notice is not None
    assert scores.best("mathe-meister", "Mia", []) in (10, 20)


def test_highscores_locked_file_is_reported_not_moved(tmp_path) -> None:
    path = tmp_path / FILE_NAME
    scores = HighScores(path, now=fixed_now)
    scores._db.execute("DROP TABLE scores")
    assert scores.best("mathe-meister", "Mia", []) is None
    scores.record("mathe-meister", "Mia", [], 1)
    assert scores.notice is not None and "cannot be written (no such table" in scores.notice
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_highscores_unwritable_folder_keeps_scores_in_memory(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    scores = HighScores(blocker / "sub" / FILE_NAME)
    assert scores.notice is not None
    assert scores.record("mathe-meister", "Mia", [], 5).best == 5


def test_highscores_default_path_is_the_data_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_DATA", str(tmp_path / "data"))
    scores = HighScores()
    assert scores.path == tmp_path / "data" / FILE_NAME
    scores.record("mathe-meister", "Mia", [], 1)
    assert (tmp_path / "data" / FILE_NAME).exists()


def test_highscores_modes_key_is_order_free() -> None:
    assert modes_key(["twins", "coinless"]) == modes_key(["coinless", "twins", "twins"])
    assert modes_key([]) == "freestyle"


def test_highscores_namesakes_signed_in_keep_their_own_best() -> None:
    """Two children named Mia Jones, signed in (S1 of 4a, S2 of 4b), each have their own
    best; a name typed ("Mia Jones", no student) has its own too."""
    scores = HighScores(":memory:")
    scores.record("mathe-meister", "Mia Jones", [], 2034, student="S2", group="4b")
    first = scores.record("mathe-meister", "Mia Jones", [], 178, student="S1", group="4a")
    assert first.previous_best is None and first.is_new_best
    assert scores.best("mathe-meister", "Mia Jones", [], student="S2") == 2034
    assert scores.best("mathe-meister", "Mia Jones", []) is None  # no guest played
    scores.record("mathe-meister", "Mia Jones", [], 5)
    assert scores.best("mathe-meister", "Mia Jones", []) == 5
    # a student's best is theirs under a new name (the class list corrected) too
    assert scores.best("mathe-meister", "Mia Jones-Li", [], student="S1") == 178


def old_store(path) -> None:
    """A high-score file as versions before 2 wrote it: kept by name only."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE scores (
            id INTEGER PRIMARY KEY, game TEXT NOT NULL, player TEXT NOT NULL,
            modes TEXT NOT NULL, score INTEGER NOT NULL, played_at TEXT NOT NULL
        );
        CREATE INDEX scores_by_key ON scores (game, player, modes);
        INSERT INTO scores (game, player, modes, score, played_at)
            VALUES ('mathe-meister', 'Mia Jones', 'freestyle', 2034, '2025-03-13T10:00:00'),
                   ('bubbles', 'Leo', '60s', 9, '2025-03-13T10:05:00');
        PRAGMA user_version = 1;
        """
    )
    db.close()


def test_highscores_a_store_kept_by_name_is_still_read(tmp_path) -> None:
    """An existing file of version 1 keeps working: its scores stay the typed names', a
    child signed in under the same name starts their own, and the file is version 2."""
    path = tmp_path / FILE_NAME
    old_store(path)
    scores = HighScores(path, now=fixed_now)
    assert scores.notice is None
    assert scores.best("mathe-meister", "Mia Jones", []) == 2034
    assert scores.best("mathe-meister", "Mia Jones", [], student="S1") is None
    assert scores.record("mathe-meister", "Mia Jones", [], 3000).previous_best == 2034
    assert scores.record("bubbles", "Leo", ["60s"], 4, student="S3").previous_best is None
    assert scores.players("bubbles") == ["Leo"]
    scores.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    db.close()
    assert HighScores(path).best("mathe-meister", "Mia Jones", []) == 3000


def test_highscores_a_child_whose_name_is_hers_alone_keeps_her_old_best(tmp_path) -> None:
    """A version 1 file kept Mia Jones's 2034 by name. Signed in (S1 of 4a), no other Mia
    Jones on the class list (``name_unique``, the caller's word): her first game after the
    update counts it (1500 is not a new best) and takes it as hers, so later games count
    it too and a guest typing "Mia Jones" does not (r22-int: 1500 was "your best")."""
    path = tmp_path / FILE_NAME
    old_store(path)
    scores = HighScores(path, now=fixed_now)
    assert scores.best("mathe-meister", "Mia Jones", [], student="S1", name_unique=True) == 2034
    first = scores.record("mathe-meister", "Mia Jones", [], 1500, student="S1", name_unique=True)
    assert first.previous_best == 2034 and first.best == 2034 and not first.is_new_best
    again = scores.record("mathe-meister", "Mia Jones", [], 1800, student="S1", name_unique=True)
    assert again.previous_best == 2034 and not again.is_new_best
    assert scores.best("mathe-meister", "Mia Jones", [], student="S1") == 2034
    assert scores.best("mathe-meister", "Mia Jones", []) is None  # no longer a typed name's
    scores.record("mathe-meister", "Mia Jones", [], 2500)  # a guest typing her name
    assert scores.best("mathe-meister", "Mia Jones", [], student="S1", name_unique=True) == 2034
    assert scores.best("bubbles", "Leo", ["60s"]) == 9  # other games' rows stay the names'


def test_highscores_namesakes_on_the_class_list_leave_the_old_best_to_the_name(
    tmp_path,
) -> None:
    """Two Mia Joneses on the class list: whose was the 2034 a version 1 file kept by
    name is not known, so neither counts it; it stays the typed name's."""
    path = tmp_path / FILE_NAME
    old_store(path)
    scores = HighScores(path, now=fixed_now)
    first = scores.record("mathe-meister", "Mia Jones", [], 1500, student="S1", group="4a")
    assert first.previous_best is None and first.is_new_best
    assert scores.best("mathe-meister", "Mia Jones", []) == 2034
    assert scores.best("mathe-meister", "Mia Jones", [], student="S2", name_unique=False) is None


def _ben_80(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    scores = HighScores(folder / FILE_NAME, now=fixed_now)
    scores.record("mathe-meister", "Ben", ["freestyle"], 80)
    scores.close()
    return folder / FILE_NAME


class Clock:
    """A clock the test moves on (seconds), for the tries of a file that was refused."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def held(path: Path) -> sqlite3.Connection:
    """Another program holding ``path`` past SQLite's wait: no reads, no writes."""
    hold = sqlite3.connect(path, isolation_level=None)
    hold.execute("BEGIN EXCLUSIVE")
    return hold


def kept(path: Path) -> list[tuple[str, int]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT player, score FROM scores ORDER BY id").fetchall()


def test_highscores_a_busy_file_is_read_then_written_when_it_is_free(tmp_path: Path) -> None:
    """A file another program holds when the app opens it is read, not moved aside; the
    scores of the session are kept in memory and, once the file is free, written to it
    at a later record, each once (they were lost at closing: r40-keep 1)."""
    path, clock = _ben_80(tmp_path / "hs"), Clock()
    hold = held(path)
    try:
        scores = HighScores(path, now=fixed_now, clock=clock, retry_every=5, wait=0.2)
        notice = scores.notice
        assert notice is not None and "cannot be written (database is locked)" in notice
        assert scores.top("mathe-meister", []) == [("Ben", 80)]
        rec = scores.record("mathe-meister", "Ana", [], 50)
        assert rec.previous_best is None and not rec.saved
        clock.now = 6  # tried again: still held
        assert not scores.record("mathe-meister", "Ana", [], 70).saved
        assert scores.notice == notice
    finally:
        hold.execute("COMMIT")
        hold.close()
    assert sorted(p.name for p in path.parent.iterdir()) == [FILE_NAME]
    assert kept(path) == [("Ben", 80)]
    clock.now = 8  # free now, but the last try was 2 seconds ago
    assert not scores.record("mathe-meister", "Ben", [], 60).saved
    assert kept(path) == [("Ben", 80)]
    clock.now = 11
    rec = scores.record("mathe-meister", "Ana", [], 40)
    assert rec.saved and rec.previous_best == 70 and rec.best == 70
    assert scores.notice == SAVED_AGAIN
    every = [("Ben", 80), ("Ana", 50), ("Ana", 70), ("Ben", 60), ("Ana", 40)]
    assert kept(path) == every
    assert scores.record("mathe-meister", "Ben", [], 85).saved  # on the file now
    assert scores.notice is None  # "saved again" was said once, with the score it saved
    scores.close()
    assert kept(path) == [*every, ("Ben", 85)]
    again = HighScores(path)
    assert again.best("mathe-meister", "Ana", []) == 70
    assert again.best("mathe-meister", "Ben", []) == 85


def test_highscores_a_file_still_busy_loses_nothing_and_the_notice_stays(
    tmp_path: Path,
) -> None:
    """Held past every try: the scores stay in memory (the best is right), the file is
    untouched, the notice is the same; freed before closing, they reach it then."""
    path, clock = _ben_80(tmp_path / "hs"), Clock()
    scores = HighScores(path, now=fixed_now, clock=clock, retry_every=5, wait=0.2)
    hold = held(path)
    try:
        assert not scores.record("mathe-meister", "Ana", [], 50).saved  # busy at a write
        notice = scores.notice
        assert notice is not None and "cannot be written (database is locked)" in notice
        for second, score in ((6, 90), (12, 30)):
            clock.now = second
            assert not scores.record("mathe-meister", "Ana", [], score).saved
        assert scores.notice == notice
        assert scores.best("mathe-meister", "Ana", []) == 90
        assert scores.top("mathe-meister", []) == [
            ("Ana", 90),
            ("Ben", 80),
            ("Ana", 50),
            ("Ana", 30),
        ]
    finally:
        hold.execute("COMMIT")
        hold.close()
    assert kept(path) == [("Ben", 80)]
    scores.close()  # the last try
    assert kept(path) == [("Ben", 80), ("Ana", 50), ("Ana", 90), ("Ana", 30)]


@pytest.mark.parametrize("version", [SCHEMA_VERSION, 1])
def test_highscores_a_read_only_file_made_writable_gets_the_session_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    """A card that refuses writes (a current file: refused at a record; an older one:
    at opening, which writes) then takes them: the scores kept in memory are written at
    the next try, once, in one transaction."""
    path, clock = _ben_80(tmp_path / "hs"), Clock()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {version}")
    card = simulated_card(monkeypatch)
    card.refuse = READ_ONLY
    scores = HighScores(path, now=fixed_now, clock=clock, retry_every=5)
    assert not scores.record("mathe-meister", "Ana", [], 50, student="S1", group="4a").saved
    assert scores.best("mathe-meister", "Ben", []) == 80
    card.refuse = None
    clock.now = 5
    rec = scores.record("mathe-meister", "Ana", [], 60, student="S1", group="4a")
    assert rec.saved and rec.previous_best == 50 and scores.notice == SAVED_AGAIN
    scores.close()
    assert kept(path) == [("Ben", 80), ("Ana", 50), ("Ana", 60)]
    again = HighScores(path)
    assert again.best("mathe-meister", "Ana", [], student="S1") == 60
    assert again.best("mathe-meister", "Ana", []) is None  # kept as the child's, not a name's


def test_highscores_a_file_damaged_while_scores_wait_is_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found damaged when tried again: moved aside as at opening, and the waiting scores
    start the new file."""
    path, clock = _ben_80(tmp_path / "hs"), Clock()
    card = simulated_card(monkeypatch)
    card.refuse = READ_ONLY
    scores = HighScores(path, now=fixed_now, clock=clock, retry_every=5)
    assert not scores.record("mathe-meister", "Ana", [], 50).saved
    path.write_bytes(b"\0garbage" * 2000)
    card.refuse, clock.now = None, 5
    assert scores.record("mathe-meister", "Ana", [], 60).saved
    assert scores.notice is not None and "moved to highscores.sqlite3.corrupt-" in scores.notice
    assert (tmp_path / "hs" / f"{FILE_NAME}.corrupt-20250314-092653").exists()
    assert kept(path) == [("Ana", 50), ("Ana", 60)]


def test_highscores_a_read_only_file_shows_its_scores_and_says_a_new_one_is_not_kept(
    tmp_path: Path,
) -> None:
    _ben_80(tmp_path / "hs")
    with read_only_view(tmp_path / "hs", tmp_path / "ro") as ro:
        scores = HighScores(ro / FILE_NAME, now=fixed_now)
        assert scores.notice is None  # nothing to write on opening a current file
        assert scores.top("mathe-meister", []) == [("Ben", 80)]
        rec = scores.record("mathe-meister", "Ben", [], 90)
        assert rec.previous_best == 80 and not rec.saved
        notice = scores.notice
        assert notice is not None
        assert "cannot be written (attempt to write a readonly database)" in notice
        assert sorted(p.name for p in ro.iterdir()) == [FILE_NAME]


def test_highscores_an_older_read_only_file_is_read_not_moved_aside(tmp_path: Path) -> None:
    path = _ben_80(tmp_path / "hs")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 1")  # an older file: opening it writes
    with read_only_view(tmp_path / "hs", tmp_path / "ro") as ro:
        scores = HighScores(ro / FILE_NAME, now=fixed_now)
        assert scores.notice is not None
        assert "cannot be written (attempt to write a readonly database)" in scores.notice
        assert scores.best("mathe-meister", "Ben", []) == 80
        assert not scores.record("mathe-meister", "Ben", [], 90).saved
        assert sorted(p.name for p in ro.iterdir()) == [FILE_NAME]
