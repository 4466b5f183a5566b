"""The game journal: write-before-show, resume, undo, damaged and newer files, schema
migrations, and games killed with SIGKILL at random moments (issue 10)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.engine.codec import digest
from tabletop.engine.errors import CorruptLog, TabletopError
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.selfplay import choose, default_settings
from tabletop.store import FILE_NAME, Journal
from tabletop.store_file import SIDES, set_aside
from tabletop.store_schema import MIGRATIONS, SCHEMA_VERSION

REPO = Path(__file__).resolve().parents[1]


def new_match(game: str = "math-attack", seed: int = 1) -> Match:  # type: ignore[type-arg]
    engine = GAMES[game]
    return Match(engine, default_settings(game), 2, seed=seed)


def play(match: Match, n: int, seed: int = 1) -> None:  # type: ignore[type-arg]
    for _ in range(n):
        match.apply(choose(match, seed))


def test_store_journal_replays_to_the_same_state(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = new_match()
    match_id = journal.start(match, label="t", meta={"names": ["Ada", "Bo"]})
    for _ in range(30):
        play(match, 1)
        journal.sync(match_id, match, elapsed=12.5)
    journal.close()
    again = Journal(tmp_path / FILE_NAME)
    (saved,) = again.unfinished("t")
    assert (saved.actions, saved.elapsed, saved.meta) == (30, 12.5, {"names": ["Ada", "Bo"]})
    resumed = again.load(saved.id, GAMES)
    assert resumed.history == match.history
    assert digest(resumed.state) == digest(match.state)
    assert again.lines(saved.id) == list(match.log_lines())


def test_store_undo_then_a_different_move_rewrites_the_last_line(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = new_match("math-wars-meta", seed=4)
    match_id = journal.start(match)
    play(match, 12, seed=4)
    journal.sync(match_id, match)
    match.undo()
    journal.sync(match_id, match)
    assert journal.unfinished()[0].actions == 11
    play(match, 1, seed=99)  # another move than the one taken back
    play(match, 3, seed=4)
    journal.sync(match_id, match)
    # and an undo + replay with no sync in between is caught by the line check
    match.undo()
    play(match, 1, seed=7)
    journal.sync(match_id, match)
    assert journal.load(match_id, GAMES).history == match.history


def test_store_undos_in_the_middle_rewrite_only_the_lines_past_the_first_changed_step(
    tmp_path: Path,
) -> None:
    """Undo then new moves, several undos in a row, undo to zero, a taken-back move made
    again, a match loaded by another journal and one rebuilt by the app: after every sync
    the journal holds the match's log; the lines before the first step that is not the
    object written keep the time they were written (they are not written again), those
    after it are all new; a fresh journal replays it to the same match."""
    clock = iter(range(1000, 10**6))
    journal = Journal(tmp_path / FILE_NAME, now=lambda: float(next(clock)))
    match = new_match("math-wars-meta", seed=4)
    match_id = journal.start(match)
    written: list[object] = []  # the steps on disk, as the old journal kept them
    at: list[float] = []

    def sync(j: Journal, m: Match) -> None:  # type: ignore[type-arg]
        first = 0
        while first < min(len(written), m.moves) and written[first] is m.steps[first]:
            first += 1
        j.sync(match_id, m)
        rows = j.db.execute(
            "SELECT line, at FROM actions WHERE match_id = ? ORDER BY n", (match_id,)
        ).fetchall()
        assert [r[0] for r in rows] == list(m.log_lines())[1:]
        assert [r[1] for r in rows[:first]] == at[:first]
        assert all(r[1] > max(at, default=0) for r in rows[first:])
        assert len({r[1] for r in rows[first:]}) <= 1
        written[:] = m.steps
        at[:] = [r[1] for r in rows]
        assert Journal(tmp_path / FILE_NAME).load(match_id, GAMES).history == m.history

    play(match, 10, seed=4)
    sync(journal, match)
    match.undo()
    sync(journal, match)
    play(match, 2, seed=99)  # undo then new moves
    sync(journal, match)
    for _ in range(3):  # several undos in a row, each saved
        match.undo()
        sync(journal, match)
    for _ in range(3):  # and three saved at once, then the same moves again
        match.undo()
    sync(journal, match)
    play(match, 3, seed=4)
    sync(journal, match)
    while match.moves:  # undo to zero
        match.undo()
    sync(journal, match)
    play(match, 6, seed=4)
    sync(journal, match)
    match.undo()
    match.undo()
    play(match, 3, seed=5)  # undone and played on with no save between
    sync(journal, match)
    rng = random.Random(7)
    for _ in range(60):
        if rng.random() < 0.4 and match.moves:
            match.undo()
        else:
            play(match, 1, seed=rng.randrange(100))
        if rng.random() < 0.7:
            sync(journal, match)
    sync(journal, match)
    other = Journal(tmp_path / FILE_NAME, now=lambda: float(next(clock)))
    loaded = other.load(match_id, GAMES)  # another journal's match: every step is new
    written[:] = loaded.steps
    loaded.undo()
    play(loaded, 2, seed=8)
    sync(other, loaded)
    rebuilt = Match.replay(list(loaded.log_lines())[:5], GAMES)  # rebuilt by the app
    play(rebuilt, 4, seed=9)
    sync(other, rebuilt)


def test_store_finish_keeps_the_result_and_stops_offering_the_match(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    a, b = new_match(seed=1), new_match(seed=2)
    ida, idb = journal.start(a, label="x"), journal.start(b, label="y")
    journal.finish(ida, {"standings": [3, 1]}, reason="time")
    assert [s.id for s in journal.unfinished()] == [idb]
    assert journal.unfinished("x") == []
    done = next(s for s in journal.matches() if s.id == ida)
    assert (done.status, done.reason, done.result) == ("finished", "time", {"standings": [3, 1]})
    with pytest.raises(ValueError):
        journal.finish(idb, None, status="lost")


def test_store_status_says_whether_a_match_is_still_being_played(tmp_path: Path) -> None:
    """What the rotation asks before it finishes a game for "time" (issue 21: the UI
    asks the journal, it runs no SQL of its own)."""
    journal = Journal(tmp_path / FILE_NAME)
    ida, idb = journal.start(new_match(seed=1)), journal.start(new_match(seed=2))
    assert journal.status(ida) == journal.status(idb) == "playing"
    journal.finish(ida, {"standings": [3, 1]}, reason="time")
    journal.finish(idb, None, reason="abandoned", status="abandoned")
    assert (journal.status(ida), journal.status(idb)) == ("finished", "abandoned")
    assert Journal(tmp_path / FILE_NAME).status(ida) == "finished"  # on the file
    assert journal.status(idb + 1) is None  # no such match


def test_store_status_of_an_unreadable_journal_is_a_clear_error(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match_id = journal.start(new_match())
    journal.db.close()
    with pytest.raises(TabletopError) as err:
        journal.status(match_id)
    assert err.value.code == "store.read" and f"game {match_id}" in err.value.message


def test_store_a_journal_that_no_longer_replays_is_marked_broken_not_lost(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = new_match()
    match_id = journal.start(match)
    play(match, 10)
    journal.sync(match_id, match)
    journal.db.execute("UPDATE actions SET line = replace(line, '\"n\"', '\"m\"') WHERE n = 5")
    journal.db.execute(
        "UPDATE actions SET line = ? WHERE n = 6", ('{"n": 6, "action": {"kind": "nonsense"}}',)
    )
    with pytest.raises(CorruptLog) as err:
        journal.load(match_id, GAMES)
    assert "line 7" in err.value.message
    (saved,) = journal.matches()
    assert saved.status == "broken" and saved.actions == 10  # the rows stay for export
    assert journal.unfinished() == []
    with pytest.raises(CorruptLog, match="no saved game"):
        journal.load(999, GAMES)


def test_store_set_aside_moves_every_file_sqlite_keeps_beside_a_database(
    tmp_path: Path,
) -> None:
    """One way for the journal and the high-score file to put a damaged database aside:
    the files beside it go with it (a stale -wal beside a fresh file would be replayed)."""
    path, aside = tmp_path / "x.sqlite3", tmp_path / "x.sqlite3.corrupt-1"
    path.write_bytes(b"db")
    for extra in SIDES[1:]:  # one side missing: nothing to move, no error
        path.with_name(path.name + extra).write_bytes(extra.encode())
    set_aside(path, aside)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [aside.name] + [aside.name + extra for extra in SIDES[1:]]
    )
    assert all((tmp_path / (aside.name + e)).read_bytes() == e.encode() for e in SIDES[1:])


def test_store_a_damaged_file_is_moved_aside_whole_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    junk = b"this is not a database" * 100
    path.write_bytes(junk)
    journal = Journal(path, now=lambda: 1_700_000_000.0)
    assert journal.notice is not None and "could not be used" in journal.notice
    kept = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == junk
    assert journal.notice is not None and kept[0].name in journal.notice
    match = new_match()
    journal.start(match)  # the fresh file works
    assert len(journal.matches()) == 1


def test_store_a_file_from_a_newer_version_is_kept_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE future (x)")
    db.execute("INSERT INTO future VALUES (42)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.notice is not None and "newer version" in journal.notice
    (kept,) = [p for p in tmp_path.iterdir() if ".newer-" in p.name and p.suffix != ".db-wal"]
    old = sqlite3.connect(kept)
    assert old.execute("SELECT x FROM future").fetchall() == [(42,)]
    old.close()


def test_store_another_programs_database_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (x)")
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.notice is not None and "not a game journal" in journal.notice


def old_file(path: Path, version: int, match: Match) -> None:  # type: ignore[type-arg]
    """A journal file at schema ``version`` holding ``match`` (id 1) and its actions."""
    db = sqlite3.connect(path)
    for step in range(1, version + 1):
        db.executescript(MIGRATIONS[step])
    db.execute(
        "INSERT INTO matches (id, game, header, started) VALUES (1, ?, ?, 0)",
        (match.game.name, next(match.log_lines())),
    )
    for i in range(len(match.history)):
        db.execute("INSERT INTO actions VALUES (1, ?, ?, 0)", (i + 1, match.log_line(i)))
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()


def test_store_migrates_a_version_1_file_keeping_its_games(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    match = new_match()
    play(match, 5)
    old_file(path, 1, match)
    journal = Journal(path)
    assert journal.notice is None
    assert journal.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    (saved,) = journal.unfinished()
    assert (saved.actions, saved.elapsed) == (5, 0.0)
    assert journal.load(saved.id, GAMES).history == match.history


def test_store_newest_match_of_a_game_is_the_first_of_matches(tmp_path: Path) -> None:
    """``Journal.newest``: a game's newest match (but one left out), as ``matches()``
    lists it (its actions counted, its result and meta read), or None."""
    journal = Journal(tmp_path / FILE_NAME)
    assert journal.newest("mecs") is None
    ids = [journal.start(new_match(game), label="app") for game in ("mecs", "math-attack") * 3]
    match = new_match("mecs")
    play(match, 4)
    last = journal.start(match, label="app", meta={"app": {"n": 1}})
    journal.finish(ids[-1], {"places": [1, 2]})
    every = journal.matches()
    for game in ("mecs", "math-attack"):
        for besides in (None, last, ids[-1], ids[0]):
            kept = [s for s in every if s.game == game and s.id != besides]
            assert journal.newest(game, besides=besides) == kept[0]
    assert journal.newest("mecs").actions == 4  # type: ignore[union-attr]
    assert journal.newest("math-attack").result == {"places": [1, 2]}  # type: ignore[union-attr]
    assert journal.newest("bubbles") is None


def test_store_a_version_6_file_gains_the_index_of_a_games_newest_match(tmp_path: Path) -> None:
    """Migration 7 (``matches_by_game``): a file from before it opens, keeps its games,
    and its newest-match query reads the index instead of every match."""
    path = tmp_path / FILE_NAME
    match = new_match("mecs")
    play(match, 3)
    old_file(path, 6, match)
    journal = Journal(path)
    assert journal.notice is None
    assert journal.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 7
    indexes = {r[0] for r in journal.db.execute("SELECT name FROM sqlite_master")}
    assert "matches_by_game" in indexes
    plan = journal.db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM matches WHERE game = ? ORDER BY id DESC LIMIT 1",
        ("mecs",),
    ).fetchall()
    assert any("matches_by_game" in str(row[-1]) for row in plan)
    saved = journal.newest("mecs")
    assert saved is not None and (saved.id, saved.actions) == (1, 3)
    assert journal.load(saved.id, GAMES).history == match.history


def test_store_an_unwritable_folder_keeps_games_in_memory_with_a_notice(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    journal = Journal(blocker / "sub" / FILE_NAME)
    assert journal.notice is not None and "cannot be saved" in journal.notice
    journal.start(new_match())
    assert len(journal.matches()) == 1


# -- killed at random moments -----------------------------------------------------------


def _selfplay(game: str, seed: int, data: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [sys.executable, "-m", "tabletop.selfplay", game, str(seed), str(data)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )


@pytest.mark.parametrize(("game", "seed"), [("mathe-meister", 5), ("math-wars-meta", 8)])
def test_store_sigkill_at_random_moments_loses_no_committed_action(
    tmp_path: Path, game: str, seed: int
) -> None:
    whole = tmp_path / "whole"
    reference = _selfplay(game, seed, whole)
    out, _ = reference.communicate(timeout=120)
    final = out.strip().splitlines()[-1]
    assert final.startswith("winner: ")
    ref_journal = Journal(whole / FILE_NAME)
    (ref_saved,) = ref_journal.matches()
    ref_lines = ref_journal.lines(ref_saved.id)
    ref_journal.close()

    data = tmp_path / "killed"
    rng = random.Random(f"{game}:{seed}")
    kills, committed, ended = 0, 0, None
    for _ in range(200):
        proc = _selfplay(game, seed, data)
        assert proc.stdout is not None
        # Kill it after a random number of further commits (at a random moment after
        # the last one was reported: mid-move, mid-write), or now and then before the
        # journal is even open.
        target = committed + rng.randint(1, 20)
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0.0, 0.2))
        else:
            for line in proc.stdout:
                if line.startswith("resumed "):
                    # everything reported committed before the kill was there on restart
                    assert int(line.split()[1]) >= committed
                elif line.startswith("committed "):
                    committed = max(committed, int(line.split()[1]))
                    if committed >= target:
                        break
                elif line.startswith("winner: "):
                    ended = line.strip()
                    break
            time.sleep(rng.uniform(0.0, 0.004))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=60)
        for line in out.splitlines():
            if line.startswith("committed "):
                committed = max(committed, int(line.split()[1]))
            elif line.startswith("winner: "):
                ended = line.strip()
        if ended is not None:
            break
        kills += 1
        if (data / FILE_NAME).exists():
            journal = Journal(data / FILE_NAME)
            assert journal.notice is None  # never damaged by a kill
            for saved in journal.unfinished():
                assert saved.actions >= committed  # no committed action lost
                journal.load(saved.id, GAMES)  # replays, every digest checked
            journal.close()
    if ended is None:  # let it finish
        out, _ = _selfplay(game, seed, data).communicate(timeout=120)
        ended = out.strip().splitlines()[-1]
    assert kills >= 5
    assert ended == final
    journal = Journal(data / FILE_NAME)
    (saved,) = journal.matches()
    assert saved.status == "finished"
    assert journal.lines(saved.id) == ref_lines  # the same game, action for action
    journal.close()


def test_store_migrates_a_version_2_file_to_the_classroom_schema(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    match = new_match()
    play(match, 3)
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[1])
    db.executescript(MIGRATIONS[2])
    db.execute(
        "INSERT INTO matches (id, game, header, started, elapsed) VALUES (1, ?, ?, 0, 12.5)",
        (match.game.name, next(match.log_lines())),
    )
    for i in range(3):
        db.execute("INSERT INTO actions VALUES (1, ?, ?, 0)", (i + 1, match.log_line(i)))
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
    (saved,) = journal.unfinished()
    assert (saved.actions, saved.elapsed, saved.session) == (3, 12.5, "")
    assert journal.seats(saved.id) == []
    tables = {r[0] for r in journal.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"seats", "students", "plans", "rotations"} <= tables


def test_store_keeps_who_sat_where_and_the_session(tmp_path: Path) -> None:
    from tabletop.store import SeatInfo

    journal = Journal(tmp_path / FILE_NAME)
    seats = [SeatInfo(0, "Ada", "s1", "Blue"), SeatInfo(1, "Bot 2", bot="easy")]
    match_id = journal.start(new_match(), label="t", seats=seats, session="2026-11-22")
    assert journal.seats(match_id) == seats
    assert journal.unfinished()[0].session == "2026-11-22"
    journal.set_seats(match_id, [SeatInfo(0, "Ada L.", "s1", "Red")])
    assert [s.name for s in journal.seats(match_id)] == ["Ada L."]


def test_store_a_match_rebuilt_from_an_earlier_step_is_rewritten_from_there(
    tmp_path: Path,
) -> None:
    # The app corrects a misread card by replaying the match from that step: the
    # history keeps its length but its middle changes. The journal must follow.
    journal = Journal(tmp_path / FILE_NAME)
    match = new_match(seed=3)
    play(match, 12, seed=3)
    match_id = journal.start(match)
    rebuilt = new_match(seed=3)
    play(rebuilt, 12, seed=4)  # another game of the same length
    assert len(rebuilt.history) == len(match.history) and rebuilt.history != match.history
    journal.sync(match_id, rebuilt)
    assert journal.lines(match_id) == list(rebuilt.log_lines())
    fresh = Journal(tmp_path / FILE_NAME)
    assert fresh.load(match_id, GAMES).history == rebuilt.history


def test_store_on_change_saves_every_apply_and_undo_before_it_returns(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = new_match()
    match_id = journal.start(match)
    seen: list[int] = []

    def save(m: Match) -> None:  # type: ignore[type-arg]
        journal.sync(match_id, m)
        seen.append(len(Journal(tmp_path / FILE_NAME).lines(match_id)) - 1)

    match.on_change = save
    play(match, 4)
    match.undo()
    assert seen == [1, 2, 3, 4, 3]


def test_store_dice_source_is_how_a_matchs_latest_dice_came(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    one, two, three = (journal.start(new_match(seed=s), label="t") for s in (1, 2, 3))
    journal.add_dice([3, 5], "camera", match_id=one)
    journal.add_dice([6, 6], "virtual", match_id=two)
    journal.add_dice([2, 1], "corrected", match_id=one)
    assert journal.dice_source(one) == "corrected" and journal.dice_source(two) == "virtual"
    assert journal.dice_source(three) == ""  # none kept (a game from before the dice were)
    journal.close()
