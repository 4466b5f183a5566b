"""The journal file's schema: its tables, created and changed step by step.

The schema is versioned (``PRAGMA user_version``); :data:`MIGRATIONS` holds each step, and
:class:`tabletop.store_file.JournalFile` brings a file up to :data:`SCHEMA_VERSION` one
step at a time, each in its own transaction, when it opens it. What the tables mean is
said beside each step; :mod:`tabletop.store` reads and writes the games' tables,
:mod:`tabletop.classroom` the classroom's.
"""

from __future__ import annotations

# version -> the SQL that brings a file at version-1 to it. Never edit a released step;
# add the next one.
MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        header TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        meta TEXT NOT NULL DEFAULT '{}',
        started REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing',
        finished REAL,
        reason TEXT,
        result TEXT
    );
    CREATE TABLE actions (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        n INTEGER NOT NULL,
        line TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, n)
    );
    CREATE INDEX matches_by_status ON matches (status, label);
    """,
    2: """
    ALTER TABLE matches ADD COLUMN elapsed REAL NOT NULL DEFAULT 0;
    """,
    # The classroom: who sat where (a snapshot of the name and group at play time),
    # the class list, the teacher's rotation plans, the running rotation's clock, and
    # the lesson ("session") each match belongs to.
    3: """
    ALTER TABLE matches ADD COLUMN session TEXT NOT NULL DEFAULT '';
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        student TEXT,
        grp TEXT NOT NULL DEFAULT '',
        bot TEXT,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE students (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        grp TEXT NOT NULL DEFAULT '',
        added REAL NOT NULL
    );
    CREATE TABLE plans (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE TABLE rotations (
        id INTEGER PRIMARY KEY,
        plan_id INTEGER NOT NULL REFERENCES plans (id),
        session TEXT NOT NULL,
        station INTEGER NOT NULL,
        clock TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'running'
    );
    CREATE INDEX matches_by_session ON matches (session);
    """,
    # The classroom fleet (tabletop.classroom.fleet). On a station: ``outbox``, the
    # messages (finished games' results) waiting for the console's answer (stored or refused,
    # by result id; the broker's acknowledgement only marks them sent),
    # written in the same transaction as the finish. On the teacher's console:
    # ``fleet_results``, the result ids already stored (a result delivered twice is
    # stored once), and ``fleet_state``, the console's plan, clocks and roster.
    4: """
    CREATE TABLE outbox (
        id TEXT PRIMARY KEY,
        topic TEXT NOT NULL,
        body TEXT NOT NULL,
        created REAL NOT NULL,
        sent REAL
    );
    CREATE INDEX outbox_unsent ON outbox (sent, created);
    CREATE TABLE fleet_results (
        id TEXT PRIMARY KEY,
        device TEXT NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        received REAL NOT NULL
    );
    CREATE TABLE fleet_state (
        key TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        changed REAL NOT NULL
    );
    """,
    # The teacher hides a finished game from reports (tabletop.classroom.report.hide),
    # or shows it again: one row each time, never a deletion. The newest row of a match
    # says whether it is hidden.
    5: """
    CREATE TABLE result_visibility (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        hidden INTEGER NOT NULL,
        at REAL NOT NULL,
        why TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX result_visibility_by_match ON result_visibility (match_id, id);
    """,
    # What each child found hard (issue 24): ``answers``, every answer the device checked
    # with its question (skill, numbers and operations as JSON, exact values as strings),
    # the child's answer, the right one and the seconds taken; ``step`` is the match's
    # action count when it was answered (an undo past it takes it back). ``dice``: every
    # die the device read, with its value and where it came from (camera, tap, virtual).
    6: """
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        step INTEGER,
        skill TEXT NOT NULL,
        question TEXT NOT NULL,
        given TEXT NOT NULL,
        answer TEXT NOT NULL,
        seconds REAL,
        at REAL NOT NULL
    );
    CREATE INDEX answers_by_match ON answers (match_id, step);
    CREATE TABLE dice (
        id INTEGER PRIMARY KEY,
        match_id INTEGER REFERENCES matches (id),
        session TEXT NOT NULL DEFAULT '',
        value INTEGER NOT NULL,
        source TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX dice_by_session ON dice (session, at);
    """,
    # A game's newest match read without a scan of every match (Math Arena's running
    # tournament, ARENA-5, when a game starts: Journal.newest).
    7: """
    CREATE INDEX matches_by_game ON matches (game, id);
    """,
}
SCHEMA_VERSION = max(MIGRATIONS)

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]
