"""The class list: who is in the class, kept in the journal's ``students`` table.

A student is an id (what the badge's QR code ``MT1:ID:<id>`` carries), a name and a
group (the table a group of children moves between stations with). The teacher imports
a CSV (``id,name,group``, the same file ``tabletop print badges`` reads) or types
students in on the device.

**Importing merges by id**: a student whose id is new is added, one whose id is already
there takes the file's name and group, and students the file does not mention stay
(pass ``replace=True`` to remove them, as the teacher's "Replace the list" does). A
student without an id (a list of names) is matched by name and group (ignoring case), so
importing the same list again adds no one twice; one whose group changed is found by
name when no doubt is left (the only one of that name not matched, none of it in the new
group, and the file is her class's list: it names classmates of her old group, or it
replaces the list) and moved; one not matched gets a made-up id (the summary names those
added beside a namesake in another group: another class's Zoe, or not clear who moved).
:func:`Roster.preview` says what an import would do before anything is written.

Removing a student never touches past games: each match's ``seats`` rows keep the name
and group the child played under. Ids the device makes up (:meth:`Roster.next_id`,
``S1``, ``S2``, ...) are never handed out twice, not even after a removal while that
id still appears in a game, so an old badge cannot sign in as a new child.

Names stay on the device and in the teacher's exports: a badge carries only the id.

Every change is one journal transaction (:meth:`tabletop.store.Journal.transaction`);
a bad file or a bad value raises :class:`tabletop.engine.errors.BadInput`, naming the
line of the file or the value.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tabletop import csvsafe
from tabletop.classroom.students import (
    MAX_GROUP_LENGTH,
    MAX_NAME_LENGTH,
    Student,
    clean_name,
    decode_csv,
    read_class_list,
    student_id,
)
from tabletop.engine.errors import BadInput
from tabletop.store import Journal

log = logging.getLogger(__name__)

_MADE_UP = re.compile(r"S([0-9]{1,9})")


@dataclass(frozen=True)
class ImportReport:
    """What an import did (or would do): counts of students by what happened to them."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    matched: int = 0  # students without an id found by name and group (updated or unchanged)
    moved: tuple[str, ...] = ()  # without an id, found by name in another group: "Zoe (4a to 4b)"
    changed: tuple[str, ...] = ()  # the other updated, and how: "Lea (4a to 4b)", "Al (was Ali)"
    unsure: tuple[str, ...] = ()  # added though a namesake in another group may be them
    note: str = ""  # how the file was read, where a teacher might not expect it

    @property
    def total(self) -> int:
        """Students in the file."""
        return self.added + self.updated + self.unchanged

    def sentence(self) -> str:
        """``"3 added, 1 updated, 20 unchanged."`` (parts that are 0 left out), then how
        many students without an id were found by name and group, who was updated and
        how, who moved group, who was added beside a namesake, then the note."""
        parts = [
            f"{n} {what}"
            for n, what in (
                (self.added, "added"),
                (self.updated, "updated"),
                (self.unchanged, "unchanged"),
                (self.removed, "removed"),
            )
            if n
        ]
        found = f"; {self.matched} found on the list by name and group" if self.matched else ""
        said = [(", ".join(parts) or "nothing changed") + found + "."]
        if self.changed:
            said.append(f"Updated: {_few(self.changed)}.")
        if self.moved:
            said.append(f"Found by name in another group, so moved: {_few(self.moved)}.")
        if self.unsure:
            said.append(
                "Added as new beside a namesake in another group (not clear who moved): "
                f"{_few(self.unsure)}; if one is the same child, change that child's group "
                "and remove the new one."
            )
        return " ".join([*said, self.note] if self.note else said)


def _plain(text: str) -> str:
    """Lower case without accents, for sorting (Émilie next to Emmy, not after Zoë)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def sort_key(student: Student) -> tuple[str, str, str, str]:
    """By group, then name, then id, ignoring case and accents (no group last)."""
    group = student.group
    return (_plain(group) or "\uffff", group, _plain(student.name), student.id)


class Roster:
    """The class list in ``journal`` (see the module docstring)."""

    def __init__(self, journal: Journal, *, now: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self._now = now

    # -- reading -------------------------------------------------------------------------

    def students(self, group: str | None = None) -> list[Student]:
        """Everyone (or one group), by group then name."""
        if group is None:
            rows = self.journal.db.execute("SELECT id, name, grp FROM students")
        else:
            rows = self.journal.db.execute(
                "SELECT id, name, grp FROM students WHERE grp = ?", (group,)
            )
        return sorted((Student(str(r[0]), str(r[1]), str(r[2])) for r in rows), key=sort_key)

    def __len__(self) -> int:
        (count,) = self.journal.db.execute("SELECT COUNT(*) FROM students").fetchone()
        return int(count)

    def groups(self) -> list[str]:
        """The groups in use, in order (no group, "", is not listed)."""
        rows = self.journal.db.execute("SELECT DISTINCT grp FROM students WHERE grp != ''")
        return sorted((str(r[0]) for r in rows), key=lambda g: (_plain(g), g))

    def get(self, sid: str) -> Student | None:
        """The student with this id (any case), or None."""
        row = self.journal.db.execute(
            "SELECT id, name, grp FROM students WHERE id = ?", (sid.strip().upper(),)
        ).fetchone()
        return None if row is None else Student(str(row[0]), str(row[1]), str(row[2]))

    def csv_text(self) -> str:
        """The class list as a CSV with a header line (what :meth:`import_csv` and
        ``tabletop print badges`` read)."""
        out = io.StringIO()
        writer = csvsafe.writer(out, lineterminator="\n")
        writer.writerow(["id", "name", "group"])
        for s in self.students():
            writer.writerow([s.id, s.name, s.group])
        return out.getvalue()

    def next_id(self) -> str:
        """``S<n>``: one more than any ``S`` number in the class list or in past games."""
        rows = self.journal.db.execute(
            "SELECT id FROM students UNION SELECT student FROM seats WHERE student IS NOT NULL"
        )
        numbers = [int(m.group(1)) for (sid,) in rows if (m := _MADE_UP.fullmatch(str(sid)))]
        return f"S{max(numbers, default=0) + 1}"

    # -- importing -----------------------------------------------------------------------

    def import_csv(self, text: str, *, replace: bool = False) -> ImportReport:
        """Read a class list (``id,name,group``) and merge it in (see the module); the
        report's note says how the file was read where a teacher might not expect it."""
        students, note = read_class_list(text)
        return dataclasses.replace(self.import_students(students, replace=replace), note=note)

    def preview(self, students: Sequence[Student], *, replace: bool = False) -> ImportReport:
        """What :meth:`import_students` would do, writing nothing."""
        return self._compare(self._checked(students), replace)[0]

    def import_students(
        self, students: Sequence[Student], *, replace: bool = False
    ) -> ImportReport:
        students = self._checked(students)
        with self.journal.transaction() as db:
            report, changes = self._compare(students, replace)
            added, updated, removed = changes
            now = self._now()
            db.executemany(
                "INSERT INTO students (id, name, grp, added) VALUES (?, ?, ?, ?)",
                [(s.id, s.name, s.group, now) for s in added],
            )
            db.executemany(
                "UPDATE students SET name = ?, grp = ? WHERE id = ?",
                [(s.name, s.group, s.id) for s in updated],
            )
            db.executemany("DELETE FROM students WHERE id = ?", [(sid,) for sid in removed])
        log.info("roster: imported %d students: %s", report.total, report.sentence())
        return report

    # -- one student ---------------------------------------------------------------------

    def add(self, name: str, group: str = "", sid: str | None = None) -> Student:
        """A new student; without ``sid`` the next free ``S<n>``. ``BadInput`` if the id
        is taken or a value is not allowed."""
        name = clean_name(name)
        group = clean_name(group, "group", MAX_GROUP_LENGTH)
        with self.journal.transaction() as db:
            new_id = student_id(sid) if sid is not None else self.next_id()
            if self.get(new_id) is not None:
                raise BadInput("roster.taken", f"id {new_id} already belongs to a student")
            db.execute(
                "INSERT INTO students (id, name, grp, added) VALUES (?, ?, ?, ?)",
                (new_id, name, group, self._now()),
            )
        log.info("roster: added %s (%s, group %r)", new_id, name, group)
        return Student(new_id, name, group)

    def rename(self, sid: str, name: str) -> Student:
        return self._change(sid, name=clean_name(name))

    def set_group(self, sid: str, group: str) -> Student:
        return self._change(sid, group=clean_name(group, "group", MAX_GROUP_LENGTH))

    def remove(self, sid: str) -> Student:
        """Take a student off the list (their past games keep their name)."""
        student = self._existing(sid)
        with self.journal.transaction() as db:
            db.execute("DELETE FROM students WHERE id = ?", (student.id,))
        log.info("roster: removed %s (%s)", student.id, student.name)
        return student

    # -- inside --------------------------------------------------------------------------

    def _existing(self, sid: str) -> Student:
        student = self.get(sid)
        if student is None:
            raise BadInput("roster.unknown", f"there is no student with id {sid!r}")
        return student

    def _change(self, sid: str, *, name: str | None = None, group: str | None = None) -> Student:
        student = self._existing(sid)
        changed = Student(
            student.id,
            student.name if name is None else name,
            student.group if group is None else group,
        )
        with self.journal.transaction() as db:
            db.execute(
                "UPDATE students SET name = ?, grp = ? WHERE id = ?",
                (changed.name, changed.group, changed.id),
            )
        log.info("roster: %s is now %s, group %r", changed.id, changed.name, changed.group)
        return changed

    @staticmethod
    def _checked(students: Iterable[Student]) -> list[Student]:
        """Students with clean values and distinct ids (``BadInput`` naming the id)."""
        out: list[Student] = []
        seen: set[str] = set()
        for s in students:
            sid = student_id(s.id) if s.id else ""  # none: made up by _compare
            try:
                name = clean_name(s.name)
                group = clean_name(s.group, "group", MAX_GROUP_LENGTH)
            except BadInput as exc:
                raise BadInput(exc.code, f"student {sid}: {exc.message}") from None
            if sid and sid in seen:
                raise BadInput("roster.duplicate", f"id {sid} is used twice")
            seen.add(sid)
            out.append(Student(sid, name, group))
        return out

    def _compare(
        self, students: Sequence[Student], replace: bool
    ) -> tuple[ImportReport, tuple[list[Student], list[Student], list[str]]]:
        have = {s.id: s for s in self.students()}
        students, matched, moved, unsure = self._with_ids(students, have, replace)
        added = [s for s in students if s.id not in have]
        updated = [s for s in students if s.id in have and have[s.id] != s]
        unchanged = len(students) - len(added) - len(updated)
        wanted = {s.id for s in students}
        removed = sorted(sid for sid in have if sid not in wanted) if replace else []
        report = ImportReport(
            len(added),
            len(updated),
            unchanged,
            len(removed),
            matched,
            moved=tuple(_change(have[s.id], s, moved=True) for s in updated if s.id in moved),
            changed=tuple(_change(have[s.id], s) for s in updated if s.id not in moved),
            unsure=tuple(unsure),
        )
        return report, (added, updated, removed)

    def _with_ids(
        self, students: Sequence[Student], have: dict[str, Student], replace: bool
    ) -> tuple[list[Student], int, set[str], list[str]]:
        """``students`` with an id each: one without takes the id of a student on the list
        with the same name and group (ignoring case; each id once, and none the file
        names); else, moved, the id of the one student of that name still unmatched, when
        the list has none of that name in the new group, the file no other unmatched line
        of it, and the file is her class's (``replace``, or it names, by id or by name and
        group, another child of her old group: one device may serve two classes, and the
        other teacher's list has its own Zoe); else the next made-up id (:meth:`next_id`,
        as "Add a student" does).
        Also how many were matched by name and group, the ids of those who moved, and who
        was added though a namesake elsewhere might be the same child ("Zoe (4b)")."""
        named = {s.id for s in students}
        free = [
            s for s in sorted(have.values(), key=lambda s: (len(s.id), s.id)) if s.id not in named
        ]
        found: dict[int, Student] = {}
        for i, s in enumerate(students):
            same = next((f for f in free if not s.id and _key(f) == _key(s)), None)
            if same is not None:
                free.remove(same)
                found[i] = Student(same.id, s.name, s.group)
        matched = len(found)
        named_groups = {have[i].group for i in named | {f.id for f in found.values()} if i in have}
        left = Counter(_key(s)[0] for i, s in enumerate(students) if not s.id and i not in found)
        taken = {_key(s) for s in have.values()}
        number = int(self.next_id()[1:])
        out: list[Student] = []
        moved: set[str] = set()
        unsure: list[str] = []
        for i, s in enumerate(students):
            namesakes = [f for f in free if _key(f)[0] == _key(s)[0]]
            if s.id or i in found:
                s = found.get(i, s)
            elif (
                len(namesakes) == 1
                and left[_key(s)[0]] == 1
                and _key(s) not in taken
                and (replace or namesakes[0].group in named_groups)
            ):
                (was,) = namesakes
                free.remove(was)
                moved.add(was.id)
                s = Student(was.id, s.name, s.group)
            else:
                if namesakes:
                    unsure.append(f"{s.name} ({_group(s.group)})")
                while f"S{number}" in named:
                    number += 1
                s, number = Student(f"S{number}", s.name, s.group), number + 1
            out.append(s)
        return out, matched, moved, unsure


def _key(s: Student) -> tuple[str, str]:
    """What a student without an id is found by: name and group, ignoring case."""
    return s.name.casefold(), s.group.casefold()


def _group(group: str) -> str:
    return group or "no group"


def _change(was: Student, now: Student, *, moved: bool = False) -> str:
    """An updated student and what changed: "Lea (4a to 4b)", "Al (was Ali; 4a to 4b)";
    ``moved`` (found by that name): only the group."""
    said = [] if moved or now.name == was.name else [f"was {was.name}"]
    if now.group != was.group:
        said.append(f"{_group(was.group)} to {_group(now.group)}")
    return f"{now.name} ({'; '.join(said)})"


def _few(items: Sequence[str], most: int = 3) -> str:
    """The first ``most`` items, then how many more: "Zoe, Max, Ada and 22 more"."""
    shown = ", ".join(items[:most])
    return f"{shown} and {len(items) - most} more" if len(items) > most else shown


def groups(journal: Journal) -> list[str]:
    """The class list's groups (for the rotation editor): ``Roster(journal).groups()``."""
    return Roster(journal).groups()


__all__ = [
    "MAX_GROUP_LENGTH",
    "MAX_NAME_LENGTH",
    "ImportReport",
    "Roster",
    "Student",
    "clean_name",
    "decode_csv",
    "groups",
    "sort_key",
]
