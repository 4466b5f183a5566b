"""The class list's students: the record (id, name, group) and the class-list CSV parser.

A class list is a CSV file a teacher exports from a spreadsheet: one student a line, id,
name and group (or only name and group: the device makes up the ids). It is read here
for the app's import from a USB stick, the teacher's dashboard, and ``tabletop print
badges``; the journal keeps it (``classroom.roster``).
"""

from __future__ import annotations

import codecs
import csv
import io
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tabletop import csvsafe
from tabletop.engine.cardcodes import BADGE_PREFIX, ID_CHARACTERS, MAX_ID_LENGTH, badge_id
from tabletop.engine.errors import BadInput

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    group: str


def told_apart(students: Iterable[Student]) -> dict[str, str]:
    """What tells apart each student whose name (case aside) another on the list has too,
    by id: the group, or the id where the group is shared as well. A student listed more
    than once (a report's line per game) counts once; one with no id (a guest) is left out."""
    unique = {s.id: s for s in students if s.id}
    names = Counter(s.name.casefold() for s in unique.values())
    pairs = Counter((s.name.casefold(), s.group) for s in unique.values())
    return {
        sid: s.group if s.group and pairs[s.name.casefold(), s.group] == 1 else sid
        for sid, s in unique.items()
        if names[s.name.casefold()] > 1
    }


def shown_names(students: Iterable[Student]) -> dict[str, str]:
    """The name to show for each student (by id) among the others on the list: the name
    alone, or with what tells it apart (:func:`told_apart`), "Zoé Müller (4b)". A guest
    (no id) is not in it: the caller shows their name as it is."""
    listed = [s for s in students if s.id]
    apart = told_apart(listed)
    return {s.id: f"{s.name} ({apart[s.id]})" if s.id in apart else s.name for s in listed}


MAX_NAME_LENGTH = 40  # longer names do not fit a badge (or a seat on the screen)
MAX_GROUP_LENGTH = 20
# What a name or group must not hold: C0 and C1 controls (a terminal obeys "\x1b[31m"),
# and the bidi embeddings, overrides and isolates that turn the text around them. Letters
# of every script, and the joiners (ZWJ, ZWNJ) some scripts need inside a name, pass.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean_name(text: str, what: str = "name", limit: int = MAX_NAME_LENGTH, where: str = "") -> str:
    """``text`` as a name (or a group: ``what``) on one line with single spaces, however it
    comes in (a class list, the dashboard, the device, the fleet); ``BadInput`` says what is
    wrong, after ``where``: a name empty, a control character (:data:`CONTROLS`), nothing
    one can see, or longer than ``limit``."""
    value = " ".join(str(text).split())
    if not value and what == "name":
        raise BadInput("roster.empty", f"{where}the name must not be empty")
    if found := CONTROLS.search(value):
        raise BadInput(
            "roster.control",
            f"{where}the {what} {value!r} holds a control character (U+{ord(found.group()):04X})",
        )
    if value and not any(unicodedata.category(c)[0] in "LNPS" for c in value):
        raise BadInput("roster.empty", f"{where}the {what} {value!r} has nothing one can see")
    if len(value) > limit:
        raise BadInput("roster.long", f"{where}the {what} is longer than {limit} characters")
    return value


def student_id(text: str, where: str = "") -> str:
    """``text`` as a student id (trimmed, upper case; what may follow ``MT1:ID:`` on a
    badge: :mod:`tabletop.engine.cardcodes`); ``BadInput`` says what is wrong, after
    ``where`` (e.g. "line 3: ")."""
    sid = text.strip().upper()
    if not sid:
        raise BadInput("roster.empty", f"{where}the id must not be empty")
    if not set(sid) <= ID_CHARACTERS:
        raise BadInput(
            "roster.id",
            f"{where}id {text.strip()!r} may use only letters, digits and $ % * + - . /",
        )
    if len(sid) > MAX_ID_LENGTH:
        raise BadInput("roster.id", f"{where}id {sid} is longer than {MAX_ID_LENGTH} characters")
    return sid


def _delimiter(text: str) -> str:
    """Comma, or the semicolon or tab a spreadsheet in another language may have used."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "," not in first:
        for other in (";", "\t"):
            if other in first:
                return other
    return ","


def decode_csv(data: bytes, source: str = "the file") -> str:
    """A class list file's text: UTF-8 (with or without a byte-order mark), UTF-16 with
    its byte-order mark (a spreadsheet's "Unicode text"), else the Windows-1252 that
    older spreadsheets save; ``BadInput`` if it is none of them."""
    not_text = BadInput(
        "roster.encoding",
        f'{source} is not a text file. Save it from the spreadsheet as "CSV UTF-8" and try again',
    )
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    try:
        text = data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise not_text from None
    if "\x00" in text:  # UTF-16 without its mark, or not text at all
        raise not_text
    return text


def _rows(reader: Any) -> Iterator[list[str]]:
    """The reader's rows; a line the csv module cannot take is :class:`BadInput` naming it
    (a cell past its 131,072 characters, a NUL byte...), never ``csv.Error``."""
    while True:
        try:
            row: list[str] = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            where = f"line {reader.line_num}: "
            if "field larger than field limit" in str(exc):
                raise BadInput(
                    "roster.long",
                    f"{where}a cell is longer than {csv.field_size_limit():,} characters: "
                    "this is not a class list",
                ) from None
            raise BadInput("roster.csv", f"{where}this is not a class list ({exc})") from None
        yield row


def read_roster(text: str) -> list[Student]:
    """The class list's students; ``BadInput`` names the line and the problem, then says
    what to do: fix the file and try again."""
    return read_class_list(text)[0]


def read_class_list(text: str) -> tuple[list[Student], str]:
    """:func:`read_roster`'s students, and a sentence for the teacher when the file was
    read in a way they might not expect ("" when not)."""
    try:
        students, note = _read_students(text)
    except BadInput as exc:
        if exc.message.endswith("try again"):
            raise
        raise BadInput(exc.code, f"{exc.message}. Fix the file and try again") from None
    if note:
        log.info("class list: %s", note)
    return students, note


def _read_students(text: str) -> tuple[list[Student], str]:
    """Parse the class list (for :func:`read_class_list`).

    One student a line: id, name, group (the group may be left out); an ``id,name,...``
    header line and blank lines are skipped; a spreadsheet's semicolons or tabs work too.
    A first line that names a column but not as ``id,name`` or ``name,group``, or whose
    id has no digit when every other id has one, is a header of another shape: refused.
    A list of names only (under a ``name,group`` or ``name`` header, or one column and
    no header) gives students without an id (``""``): :class:`Roster` makes them up.
    Two columns without a header: see :func:`_two_columns`.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark from a spreadsheet
    # newline=None: a CR-only file (Excel for Mac) reads as lines, as CRLF and LF do
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=_delimiter(text))
    rows = [(reader.line_num, row) for row in _rows(reader) if any(c.strip() for c in row)]
    columns: tuple[str, ...] = ID_COLUMNS
    headed = False
    width = len(columns)  # the cells a line may fill: more is a name's comma, not a column
    if rows:
        number, row = rows[0]
        cells = [c.strip().lower() for c in _filled(row)]
        if cells[:2] == ["id", "name"] or tuple(cells) in NAME_COLUMNS:
            columns = ID_COLUMNS if cells[0] == "id" else tuple(cells)
            rows, headed, width = rows[1:], True, max(len(cells), len(columns))
        elif HEADER_WORDS & set(cells):
            raise _wrong_header(number, row)
        else:
            width = max(len(_filled(r)) for _, r in rows)
            if width == 1:
                columns = NAME_COLUMNS[0]
            elif width == 2:
                columns = _two_columns(rows)
            width = min(width, len(columns))
    students: list[Student] = []
    seen: dict[str, int] = {}  # id: its line
    for number, row in rows:
        if len(row) < min(2, len(columns)):
            raise BadInput("roster.shape", f"line {number}: expected {', '.join(columns)}")
        if (filled := len(_filled(row))) > width:
            raise _too_many_cells(number, filled, width, headed)
        cell = dict(zip(columns, row))
        name = " ".join(csvsafe.unescape(cell["name"]).split())
        group = " ".join(csvsafe.unescape(cell.get("group", "")).split())
        if columns == ID_COLUMNS and (not row[0].strip() or not name):
            raise BadInput("roster.empty", f"line {number}: the id and the name must not be empty")
        sid = student_id(row[0], f"line {number}: ") if columns == ID_COLUMNS else ""
        name = clean_name(name, where=f"line {number}: ")
        group = clean_name(group, "group", MAX_GROUP_LENGTH, f"line {number}: ")
        if sid and sid in seen:
            raise BadInput(
                "roster.duplicate", f"line {number}: id {sid} is used twice (also line {seen[sid]})"
            )
        seen[sid] = number
        students.append(Student(sid, name, group))
    if not students:
        raise BadInput("roster.empty", "the roster has no students")
    if columns == ID_COLUMNS and len(students) > 1 and not headed:
        digits = [_has_digit(s.id) for s in students]
        if not digits[0] and all(digits[1:]):  # "who,what" above S1, S2...
            raise _wrong_header(*rows[0])
    first = next((s for s in students if s.group), students[0])
    note = (
        "The first column has no ids, so the file was read as name and group "
        f"({first.name} in group {first.group}). If the first column is the id, "
        "put the line id,name,group at the top of the file and try again."
        if columns == NAME_COLUMNS[1] and not headed
        else ""
    )
    return students, note


def _filled(row: list[str]) -> list[str]:
    """``row`` without its empty cells at the end."""
    while row and not row[-1].strip():
        row = row[:-1]
    return row


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _two_columns(rows: list[tuple[int, list[str]]]) -> tuple[str, ...]:
    """The columns of a two-column list without a header: ``id,name`` when every first
    cell is an id with a digit (``S0142,Zoe``), ``name,group`` when every one is a name:
    no digit, or not an id at all (``Zoe,4b``, ``Anna 2,4b``: which the import's sentence
    says). A first line without a digit above such ids is a header of another shape
    (``who,what``); any other mix (``Anna2`` among names, ``MAX`` among ids) is refused
    with what to do: ``BadInput``. A line of one cell tells nothing (it is refused as
    too short)."""
    pairs = [line for line in rows if len(_filled(line[1])) > 1]
    ids = [_has_digit(row[0]) and _is_id(row[0]) for _, row in pairs]
    if all(ids):
        return ID_COLUMNS
    if not any(ids):
        return NAME_COLUMNS[1]
    if pairs[0] is rows[0] and len(pairs) > 1 and not _has_digit(rows[0][1][0]) and all(ids[1:]):
        raise _wrong_header(*rows[0])
    raise BadInput(
        "roster.mixed",
        "column 1 looks like names on some lines and ids on others: put name,group or "
        "id,name as the file's first line and try again",
    )


def _is_id(text: str) -> bool:
    try:
        student_id(text)
    except BadInput:
        return False
    return True


HEADER_WORDS = frozenset({"id", "name", "group"})
ID_COLUMNS = ("id", "name", "group")
NAME_COLUMNS = (("name",), ("name", "group"))  # a list of names: the device makes up ids


def _too_many_cells(number: int, cells: int, width: int, headed: bool) -> BadInput:
    """Line ``number`` fills more cells than the list has columns: most often a name
    "Surname, First" saved without its quotes, which would push the group aside."""
    has = f"the header has {width}" if headed else f"a class list has {width}"
    more = "" if headed else "; another column needs a header line naming it (id,name,group,note)"
    return BadInput(
        "roster.shape",
        f'line {number}: {cells} cells but {has}: a name with a comma needs quotes ("Müller, Zoë")'
        + more,
    )


def _wrong_header(number: int, row: list[str]) -> BadInput:
    """Line ``number`` looks like a header line, but not the one a class list has."""
    shown = ",".join(cell.strip() for cell in row)
    shown = shown if len(shown) <= 24 else shown[:21] + "..."
    return BadInput(
        "roster.header",
        f"line {number} ({shown}) looks like a header, "
        "but the header must be id,name,group or name,group",
    )


__all__ = [
    "BADGE_PREFIX",
    "ID_CHARACTERS",
    "MAX_GROUP_LENGTH",
    "MAX_ID_LENGTH",
    "MAX_NAME_LENGTH",
    "Student",
    "badge_id",
    "clean_name",
    "decode_csv",
    "read_class_list",
    "read_roster",
    "shown_names",
    "student_id",
    "told_apart",
]
