"""What the teacher's console says is wrong, in the teacher's words, and the teacher's
"seen it" on each.

A :class:`Problem` stands for one or more keys, and each key names what went wrong and
when it began: a result refused is its own key for good; a status that cannot be read,
results that cannot be stored now, a class list the stations cannot take, a device gone
offline get a new key each time they happen again. So a problem the teacher dismissed
stays out of sight until it happens again. Dismissing only hides: the log keeps every
line, and the journal's ``fleet_refused`` every refused result with its reason.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tabletop.classroom.fleet.messages import (
    MAX_BYTES,
    MAX_STUDENTS,
    RosterMessage,
    RosterStudent,
    encode,
)
from tabletop.classroom.rotation import GAME_TITLES, STATION_OPTIONS
from tabletop.classroom.students import Student
from tabletop.engine.errors import TabletopError
from tabletop.store import Journal

log = logging.getLogger(__name__)

SHOWN = 20  # problems listed on the dashboard; the rest are one line
# Seconds a station that talks may take to follow a new plan before the dashboard says
# it does not (it sends its status at least every 10 s).
PLAN_TAKEN_WITHIN = 30.0
REFUSED_TABLE = """
CREATE TABLE IF NOT EXISTS fleet_refused (
    key TEXT PRIMARY KEY,
    device TEXT NOT NULL,
    result_id TEXT,
    code TEXT NOT NULL,
    reason TEXT NOT NULL,
    received REAL NOT NULL
)
"""


@dataclass(frozen=True)
class Problem:
    """One line on the dashboard: ``keys`` are what dismissing it hides."""

    keys: tuple[str, ...]
    sentence: str

    def to_json(self) -> dict[str, object]:
        return {"keys": list(self.keys), "sentence": self.sentence}


def key(kind: str, what: str, since: float) -> str:
    """``"offline:station-3@1000.000"``: ``what`` of ``kind``, as it began at ``since``."""
    return f"{kind}:{what}@{since:.3f}"


def shown(found: Iterable[Problem], dismissed: set[str]) -> list[Problem]:
    """The problems in ``found`` not dismissed: the first :data:`SHOWN`, and one line for
    the rest (dismissing it dismisses them all)."""
    left = [p for p in found if not set(p.keys) <= dismissed]
    if len(left) <= SHOWN:
        return left
    rest = tuple(k for p in left[SHOWN:] for k in p.keys)
    more = Problem(rest, f"... and {len(left) - SHOWN} more (see the log).")
    return [*left[:SHOWN], more]


# What the teacher can do about a message that could not be read, by the code of its
# refusal (the log has the code and the exact reason).
WHAT_TO_DO = {
    "fleet.version": "The device runs another version of Tabletop: update it to this "
    "computer's version.",
}
CHECK_VERSION = (
    "Check that the device runs the same version of Tabletop as this computer; the log says more."
)
UPDATE = "Update it to this computer's version of Tabletop."


def refused_result(station: str, code: str) -> str:
    """A result the console refused for good, said for the teacher."""
    return (
        f"{station} sent a game's result this computer could not read, so that game is "
        f"not in the reports. {WHAT_TO_DO.get(code, CHECK_VERSION)}"
    )


def cannot_save(trouble: str, folder: Path, waiting: int) -> str:
    """The console's journal cannot write its file (``trouble``, the journal's sentence):
    results are not answered, so they wait on the stations; said for the teacher."""
    why = trouble.removesuffix(": games are not being saved")
    so_far = f" ({waiting} so far)" if waiting else ""
    return (
        f"The console cannot save results: {why} ({folder}). Results wait on the "
        f"stations{so_far}, which send them again until it can: free some space there or "
        "make the folder writable, or restart the console with --data on a folder it can "
        "write."
    )


def twin(console: str) -> str:
    """Another console of this classroom is connected (the same teacher.toml twice)."""
    return (
        f"Another console of this classroom is connected (console {console}): this one "
        "takes no results while it runs, so they wait on the stations. Close one of the "
        "two (the one opened last); the other then takes the results."
    )


def unreadable_status(station: str, code: str) -> str:
    """A status the console cannot read, said for the teacher."""
    return (
        f"{station} sends messages this computer cannot read, so its card may be out of "
        f"date. {WHAT_TO_DO.get(code, CHECK_VERSION)}"
    )


def ignored_options(station: str, game: str, keys: Sequence[str]) -> str:
    """A station that plays the plan without presets it does not know, said for the
    teacher."""
    return (
        f"{station} runs an older version of Tabletop: it does not know the "
        f"{_settings(game, keys)} you chose, so the group chooses it there. {UPDATE}"
    )


def dropped_options(station: int, game: str, keys: Sequence[str]) -> str:
    """Presets of the saved plan's station ``station`` (0-based) that this console does
    not know (a newer version saved the plan), left out on restoring it, said for the
    teacher."""
    return (
        "The saved rotation plan comes from a newer version of Tabletop: this computer "
        f"does not know the {_settings(game, keys)} of station {station + 1}, so the "
        "stations play without it and the group chooses it there. Update this computer's "
        "Tabletop, then start the rotation again."
    )


def _settings(game: str, keys: Sequence[str]) -> str:
    """'Math Arena setting "Rounds" and "x"': the options' names where known."""
    names = dict((key, name) for key, name, _ in STATION_OPTIONS.get(game, ()))
    said = " and ".join(f'"{names.get(k, k)}"' for k in keys)
    return f"{GAME_TITLES.get(game, game)} setting {said}"


def plan_not_taken(station: str) -> str:
    """A station that talks but does not follow the plan, said for the teacher."""
    return (
        f"{station} has not started this rotation. It may run an older version of "
        "Tabletop that cannot read a setting you chose: update it to this computer's "
        'version, or start the rotation again with every setting left at "the group '
        'chooses".'
    )


@dataclass(frozen=True)
class Refusal:
    """A result the console could not take: ``key`` is its id (or, with none found,
    a digest of its bytes)."""

    key: str
    device: str
    result_id: str | None
    code: str
    reason: str
    received: float


def keep_refusal(journal: Journal, r: Refusal) -> None:
    """``r`` into the journal's ``fleet_refused`` (once)."""
    try:
        with journal.transaction() as db:
            db.execute(REFUSED_TABLE)
            db.execute(
                "INSERT OR IGNORE INTO fleet_refused"
                " (key, device, result_id, code, reason, received) VALUES (?, ?, ?, ?, ?, ?)",
                (r.key, r.device, r.result_id, r.code, r.reason, r.received),
            )
    except TabletopError as exc:  # kept in memory: shown until the console stops
        log.error("console: the refusal of %s is not kept: %s", r.key, exc.message)


def read_refusals(journal: Journal) -> dict[str, Refusal]:
    """The journal's refused results, by key."""
    try:
        rows = journal.db.execute(
            "SELECT key, device, result_id, code, reason, received FROM fleet_refused"
        ).fetchall()
    except sqlite3.Error:
        return {}  # none yet
    return {
        str(key): Refusal(str(key), str(device), rid, str(code), str(reason), float(received))
        for key, device, rid, code, reason, received in rows
    }


def roster_problem(students: Sequence[Student]) -> str:
    """Why the stations could not take this class list (a sentence naming the limit),
    or "" when they can."""
    if len(students) > MAX_STUDENTS:
        return (
            f"The class list would have {len(students)} students, but the stations take at "
            f"most {MAX_STUDENTS}: make a list of {MAX_STUDENTS} or fewer (one per class)."
        )
    listed = tuple(RosterStudent(s.id, s.name, s.group) for s in students)
    size = len(encode(RosterMessage(listed, 0.0)))
    if size > MAX_BYTES:
        return (
            f"The class list is {size // 1024} KB, but the stations take at most "
            f"{MAX_BYTES // 1024} KB: use fewer students or shorter names."
        )
    return ""


__all__ = [
    "SHOWN",
    "Problem",
    "Refusal",
    "cannot_save",
    "ignored_options",
    "keep_refusal",
    "key",
    "plan_not_taken",
    "read_refusals",
    "refused_result",
    "roster_problem",
    "shown",
    "twin",
    "unreadable_status",
]
