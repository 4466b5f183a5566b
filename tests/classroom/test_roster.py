"""The class list in the journal: import (merge or replace), one student at a time, errors."""

from __future__ import annotations

import pytest

from tabletop.classroom.roster import ImportReport, Roster, decode_csv
from tabletop.classroom.students import (
    Student,
    read_class_list,
    read_roster,
    shown_names,
    told_apart,
)
from tabletop.engine.errors import BadInput
from tabletop.store import Journal, SeatInfo

QUOTES = ': a name with a comma needs quotes ("Müller, Zoë")'
CLASS = "id,name,group\nS1,Ada Lovelace,Red\nS2,Alan Turing,Blue\ns3, Grace  Hopper ,Red\n"


@pytest.fixture
def roster() -> Roster:
    return Roster(Journal(":memory:"), now=lambda: 100.0)


def test_roster_import_adds_everyone_sorted_by_group_then_name(roster: Roster) -> None:
    report = roster.import_csv(CLASS)
    assert report == ImportReport(added=3)
    assert report.sentence() == "3 added."
    assert [(s.id, s.name, s.group) for s in roster.students()] == [
        ("S2", "Alan Turing", "Blue"),
        ("S1", "Ada Lovelace", "Red"),
        ("S3", "Grace Hopper", "Red"),
    ]
    assert roster.groups() == ["Blue", "Red"]
    assert [s.id for s in roster.students("Red")] == ["S1", "S3"]
    assert len(roster) == 3


def test_roster_import_merges_by_id(roster: Roster) -> None:
    roster.import_csv(CLASS)
    report = roster.import_csv("S1,Ada King,Green\nS2,Alan Turing,Blue\nS4,Katherine Johnson,\n")
    change = ("Ada King (was Ada Lovelace; Red to Green)",)
    assert report == ImportReport(added=1, updated=1, unchanged=1, changed=change)
    assert report.sentence() == (
        "1 added, 1 updated, 1 unchanged. Updated: Ada King (was Ada Lovelace; Red to Green)."
    )
    assert roster.get("s1") == Student("S1", "Ada King", "Green")
    assert roster.get("S3") is not None  # not in the file: kept
    assert roster.get("S4") == Student("S4", "Katherine Johnson", "")
    assert len(roster) == 4


def test_roster_import_can_replace_the_list(roster: Roster) -> None:
    roster.import_csv(CLASS)
    students = read_roster("S2,Alan Turing,Blue\nS9,Mary Somerville,Red\n")
    assert roster.preview(students, replace=True) == ImportReport(added=1, unchanged=1, removed=2)
    assert len(roster) == 3  # a preview writes nothing
    report = roster.import_students(students, replace=True)
    assert report.sentence() == "1 added, 1 unchanged, 2 removed."
    assert [s.id for s in roster.students()] == ["S2", "S9"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("id,name,group\nS1,Ada,A\nS2\n", "line 3"),
        ("S1,Ada,A\n\nS1,Bob,B\n", "line 3"),
        ("S1,Ada,A\nS:2,Bob,B\n", "line 2"),  # a colon would break MT1:ID:<id>
        ("S1,Ada,A\nS 2,Bob,B\n", "line 2"),
        ("S1,Ada,A\nÜ2,Bob,B\n", "line 2"),
        ("S1,,A\n", "line 1"),
        (",Ada,A\n", "line 1"),
        ("S1," + "A" * 41 + ",A\n", "line 1"),
        ("S1,Ada," + "G" * 21 + "\n", "line 1"),
        ("S" * 33 + ",Ada,A\n", "line 1"),
        ("S1,Ada,A\nS2,Mi\x07a,B\n", "line 2"),  # a control character: refused, not shown
        ("S1,Ada,A\nS2,Ben\x1b[31m,B\n", "line 2"),
        ("S1,Ada,A\nS2,Ben,4\x9bb\n", "line 2"),  # C1 as well, in the group too
        ("S1,Ada,A\nS2,\u202eaiM,B\n", "line 2"),  # a right-to-left override
        ("S1,Ada,A\nS2,Ben \u2067x,B\n", "line 2"),  # an isolate
        ("S1,Ada,A\nS2,\u200b,B\n", "line 2"),  # nothing visible
        ("S1,Ada,A\nS2,Ben,\u200b\u2060\n", "line 2"),
    ],
)
def test_roster_bad_csv_names_the_line_and_changes_nothing(
    roster: Roster, text: str, where: str
) -> None:
    roster.import_csv(CLASS)
    with pytest.raises(BadInput) as caught:
        roster.import_csv(text)
    assert caught.value.message.startswith(where + ":"), caught.value.message
    assert len(roster) == 3


def test_roster_names_of_every_script_and_their_joiners_pass() -> None:
    """Only controls, bidi overrides and isolates, and names with nothing visible are
    refused: letters of any script and the joiners some scripts need inside a name pass."""
    names = ["Zoë", "Łukasz", "محمد", "דניאל", "张伟", "क्\u200dष", "می\u200cخواهم", "O'Neil"]
    text = "".join(f"S{i},{n},4a\n" for i, n in enumerate(names))
    assert [s.name for s in read_roster(text)] == names


def test_roster_empty_file_is_refused(roster: Roster) -> None:
    with pytest.raises(BadInput, match="no students"):
        roster.import_csv("id,name,group\n\n")


def test_roster_reads_spreadsheet_exports(roster: Roster) -> None:
    """A byte-order mark, semicolons (spreadsheets in many languages), Windows-1252."""
    data = "ID;Name;Group\r\nS1;José Núñez;Grün\r\n".encode("cp1252")
    assert roster.import_csv(decode_csv(data)).added == 1
    assert roster.get("S1") == Student("S1", "José Núñez", "Grün")
    bom = "\ufeffid\tname\tgroup\nS2\tZoë\tGrün\n".encode()
    assert roster.import_csv(decode_csv(bom)).added == 1
    assert roster.get("S2") == Student("S2", "Zoë", "Grün")
    with pytest.raises(BadInput, match="not a text file"):
        decode_csv(b"PK\x03\x04\x00\x00\x81\x8d", "class.xlsx")


def test_roster_reads_a_class_list_with_cr_only_line_ends(roster: Roster) -> None:
    """Excel for Mac's CSV ends lines with CR alone: it was refused in Python's words
    ("new-line character seen in unquoted field - do you need to open the file in
    universal-newline mode?")."""
    data = 'id;name;group\rS1;Zoë;4a\rS2;"Ada, L.";4b\r'.encode("cp1252")
    assert roster.import_csv(decode_csv(data)).added == 2
    assert roster.students() == [Student("S1", "Zoë", "4a"), Student("S2", "Ada, L.", "4b")]
    assert read_roster("Zoë,4a\rAda,4b") == [Student("", "Zoë", "4a"), Student("", "Ada", "4b")]


def test_roster_utf16_class_list_is_read_with_its_mark(roster: Roster) -> None:
    """A spreadsheet's "Unicode text" (UTF-16 with a byte-order mark, tabs) is read."""
    text = "id\tname\tgroup\nS1\tZoë Łukasz\tGrün\nS2\tAda\tRed\n"
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        mark = "\ufeff" if encoding != "utf-16" else ""
        assert decode_csv((mark + text).encode(encoding)) == text
    assert roster.import_csv(decode_csv(text.encode("utf-16"))).added == 2
    assert roster.get("S1") == Student("S1", "Zoë Łukasz", "Grün")


@pytest.mark.parametrize(
    "data",
    [
        "S1,Ada\nS2,Bo\n".encode("utf-16-le"),  # UTF-16 without its mark
        "S1,Ada\n".encode("utf-16-be"),
        "S1,Ada\n".encode("utf-32"),
        b"PK\x03\x04\x00\x00\x81\x8d",
    ],
)
def test_roster_not_text_says_to_save_as_csv_utf8(data: bytes) -> None:
    with pytest.raises(BadInput) as err:
        decode_csv(data, "class.csv")
    assert err.value.code == "roster.encoding"
    assert err.value.message == (
        'class.csv is not a text file. Save it from the spreadsheet as "CSV UTF-8" and try again'
    )


def test_roster_add_makes_up_ids_never_reused(roster: Roster) -> None:
    roster.import_csv("S1,Ada,A\nX7,Bob,B\nS4,Cy,A\n")
    assert roster.next_id() == "S5"
    student = roster.add("  Dee   Dee ", "A")
    assert student == Student("S5", "Dee Dee", "A")
    roster.remove("S5")
    # S5 played a game before leaving: the number is not handed out again
    journal = roster.journal
    with journal.transaction() as db:
        db.execute("INSERT INTO matches (id, game, header, started) VALUES (1, 'mecs', '{}', 0)")
    journal.set_seats(1, [SeatInfo(0, "Dee Dee", "S5", "A")])
    assert roster.next_id() == "S6"
    assert roster.add("Eve", sid="e1") == Student("E1", "Eve", "")


def test_roster_add_refuses_bad_values(roster: Roster) -> None:
    roster.add("Ada", "A", sid="S1")
    for kwargs, code in (
        ({"name": "Bob", "sid": "s1"}, "roster.taken"),
        ({"name": "  "}, "roster.empty"),
        ({"name": "Bob", "sid": "A:B"}, "roster.id"),
        ({"name": "B" * 41}, "roster.long"),
        ({"name": "Bob", "group": "G" * 21}, "roster.long"),
    ):
        with pytest.raises(BadInput) as caught:
            roster.add(**kwargs)
        assert caught.value.code == code
    assert len(roster) == 1


def test_roster_rename_regroup_remove(roster: Roster) -> None:
    roster.import_csv(CLASS)
    assert roster.rename("s2", "Alan M. Turing") == Student("S2", "Alan M. Turing", "Blue")
    assert roster.set_group("S2", "Red") == Student("S2", "Alan M. Turing", "Red")
    assert roster.groups() == ["Red"]
    assert roster.remove("S1").name == "Ada Lovelace"
    assert roster.get("S1") is None
    for change in (
        lambda: roster.rename("S1", "Ada"),
        lambda: roster.remove("S1"),
        lambda: roster.set_group("NOPE", "A"),
    ):
        with pytest.raises(BadInput, match="no student"):
            change()
    with pytest.raises(BadInput):
        roster.rename("S2", "")


def test_roster_csv_round_trip(roster: Roster) -> None:
    roster.import_csv(CLASS)
    roster.add('Nia "Ace" Smith, Jr', "Blue")
    again = Roster(Journal(":memory:"))
    assert again.import_csv(roster.csv_text()).added == 4
    assert again.students() == roster.students()
    assert roster.csv_text().splitlines()[0] == "id,name,group"


def test_roster_survives_reopening_the_journal(tmp_path) -> None:
    path = tmp_path / "tabletop.sqlite3"
    journal = Journal(path)
    Roster(journal).import_csv(CLASS)
    journal.close()
    assert [s.id for s in Roster(Journal(path)).students()] == ["S2", "S1", "S3"]


def test_roster_sorts_names_ignoring_accents_and_lists_groups(roster: Roster) -> None:
    from tabletop.classroom.roster import groups

    roster.import_csv("S1,Zoë,Blue\nS2,Émilie,Blue\nS3,Emmy,\nS4,Ana,Äpfel\nS5,Bo,blue\n")
    assert [s.name for s in roster.students()] == ["Ana", "Émilie", "Zoë", "Bo", "Emmy"]
    assert groups(roster.journal) == roster.groups() == ["Äpfel", "Blue", "blue"]


def test_roster_two_columns_without_a_header_are_names_and_groups_unless_ids_have_digits(
    roster: Roster,
) -> None:
    """Two columns, no header: ``Zoe,4b`` is a name and a group (it was read as the id ZOE
    named "4b"), and the import says how it read the file; ``S0142,Zoe`` stays an id and
    a name, said nothing about. A header settles it either way."""
    note = (
        "The first column has no ids, so the file was read as name and group (Zoe in "
        "group 4b). If the first column is the id, put the line id,name,group at the top "
        "of the file and try again."
    )
    assert read_class_list("Zoe,4b\nMax,\nAda Lovelace,4a\n") == (
        [Student("", "Zoe", "4b"), Student("", "Max", ""), Student("", "Ada Lovelace", "4a")],
        note,
    )
    report = roster.import_csv("Zoe,4b\nMax,4a\n")
    assert report == ImportReport(added=2, note=note)
    assert report.sentence() == f"2 added. {note}"
    assert [(s.name, s.group) for s in roster.students()] == [("Max", "4a"), ("Zoe", "4b")]
    for text in ("S0142,Zoe\nS0143,Max\n", "id,name\nZOE,Zoe\n", "id,name\nS0142,Zoe\nMAX,Max\n"):
        students, said = read_class_list(text)
        assert [s.name for s in students][:1] == ["Zoe"] and students[0].id and said == ""
    assert read_class_list("name,group\nZoe,4b\n") == ([Student("", "Zoe", "4b")], "")


@pytest.mark.parametrize(
    "text",
    [
        "Zoe,4b\nMax,4b\nAnna2,4b\n",  # a name that could be an id among names
        "S0142,Zoe\nMAX,Max\n",  # an id without a digit among ids (r22-int: read as ids)
        "S0142,Zoe\nMax Weber,4b\n",
    ],
)
def test_roster_two_columns_of_names_and_ids_mixed_are_refused_with_what_to_do(
    roster: Roster, text: str
) -> None:
    """Two columns, no header, the first column neither all ids with a digit nor all
    without a digit: refused with a sentence saying which header settles it, and nothing
    changes (r22-int: one digit made the whole list ids, "line 3: id 'Anna 2' may use
    only letters, digits and ...", which never said a header would help)."""
    roster.import_csv("S9,Cy\n")
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert err.value.code == "roster.mixed"
    assert err.value.message == (
        "column 1 looks like names on some lines and ids on others: put name,group or "
        "id,name as the file's first line and try again"
    )
    assert [s.id for s in roster.students()] == ["S9"]
    assert read_roster("name,group\nZoe,4b\nAnna 2,4b\n")[1] == Student("", "Anna 2", "4b")


@pytest.mark.parametrize("text", ["Zoe,4b\nMax,4b\nAnna 2,4b\n", "Anna 2,4b\n"])
def test_roster_two_columns_read_a_cell_that_cannot_be_an_id_as_a_name(text: str) -> None:
    """``Anna 2`` (a space: ids use only letters, digits and $ % * + - . /) is plainly a
    name, so the list is names and groups (r23-int: refused as a mix of names and ids)."""
    students, said = read_class_list(text)
    assert students[-1] == Student("", "Anna 2", "4b")
    assert said.startswith("The first column has no ids, so the file was read as name")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("who,what\nS1,Ada\nS2,Bo\n", "line 1 (who,what)"),
        ("\nname,id,group\n7,Ada,Red\n", "line 2 (name,id,group)"),
        ("Group;Name\nRed;Ada\n", "line 1 (Group,Name)"),
    ],
)
def test_roster_header_of_another_shape_is_refused(roster: Roster, text: str, line: str) -> None:
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert err.value.code == "roster.header"
    assert err.value.message.startswith(
        f"{line} looks like a header, but the header must be id,name,group"
    )
    assert len(roster) == 0


def test_roster_without_a_header_is_still_read(roster: Roster) -> None:
    """The header line is optional (README): ids without digits, a lone first line, and a
    first student above the header-free rest are students. (Two columns of ids without
    digits are now read as names and groups, and say so: the test below.)"""
    assert [s.id for s in read_roster("ADA,Ada,Red\nBOB,Bob,\n")] == ["ADA", "BOB"]
    assert [s.id for s in read_roster("who,what,why\n")] == ["WHO"]
    assert [s.id for s in read_roster("S1,Ada\nS2,Bo\n")] == ["S1", "S2"]
    assert [s.id for s in read_roster("id,name\nADA,Ada\nS2,Bo\n")] == ["ADA", "S2"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("S01,Ada\nS01,Bo\n", "line 2: id S01 is used twice (also line 1)"),
        ("S1,Ada\nS2\n", "line 2: expected id, name, group"),
        ("id,name\n", "the roster has no students"),
        ("who,what\nS1,Ada\nS2,Bo\n", "the header must be id,name,group or name,group"),
    ],
)
def test_roster_import_refusal_says_fix_the_file_and_try_again(
    roster: Roster, text: str, words: str
) -> None:
    """What is wrong, then what to do; nothing changes."""
    roster.import_csv("S9,Cy\n")
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert err.value.message.endswith(f"{words}. Fix the file and try again")
    assert [s.id for s in roster.students()] == ["S9"]


def test_roster_header_of_another_shape_is_shown_short() -> None:
    """A long wrong header is cut to fit the class list screen's two lines."""
    header = "Name,Surname,Group,Date of birth,Address,Phone,Email"
    with pytest.raises(BadInput) as err:
        read_roster(f"{header}\nS1,Ada,Lovelace\n")
    assert err.value.message.startswith("line 1 (Name,Surname,Group,Da...) looks like")


@pytest.mark.parametrize(
    "text",
    [
        "name,group\nAda Lovelace,Red\nAlan Turing,Blue\nAda Lovelace,Red\n",
        "Name;Group\nAda Lovelace;Red\nAlan Turing;Blue\nAda Lovelace;Red\n",
    ],
)
def test_roster_names_only_list_gets_made_up_ids_and_imports_again_without_doubles(
    roster: Roster, text: str
) -> None:
    """A list of names and groups: ids made up as "Add a student" does (S<n> after any in
    use); the same list again matches everyone by name and group and says so."""
    roster.add("Cy", "Red")  # S1
    report = roster.import_csv(text)
    assert report == ImportReport(added=3)
    assert [(s.id, s.name, s.group) for s in roster.students()] == [
        ("S3", "Alan Turing", "Blue"),
        ("S2", "Ada Lovelace", "Red"),
        ("S4", "Ada Lovelace", "Red"),
        ("S1", "Cy", "Red"),
    ]
    again = roster.import_csv(text.replace("Ada Lovelace", "ADA LOVELACE", 1), replace=True)
    change = ("ADA LOVELACE (was Ada Lovelace)",)
    assert again == ImportReport(updated=1, unchanged=2, removed=1, matched=3, changed=change)
    assert again.sentence() == (
        "1 updated, 2 unchanged, 1 removed; 3 found on the list by name and group. "
        "Updated: ADA LOVELACE (was Ada Lovelace)."
    )
    assert [s.id for s in roster.students()] == ["S3", "S2", "S4"]


@pytest.mark.parametrize("replace", [False, True])
def test_roster_names_only_list_moves_a_child_whose_group_changed(
    roster: Roster, replace: bool
) -> None:
    """Zoe moved from 4a to 4b and the names list is imported again: she is the one Zoe of
    the list, so she keeps her id (and her games their link to her) in her new group, and
    the summary says so (she was added a second time, or replaced by a new id)."""
    roster.import_csv("name,group\nZoe,4a\nMax,4a\n")
    journal = roster.journal
    with journal.transaction() as db:
        db.execute("INSERT INTO matches (id, game, header, started) VALUES (1, 'mecs', '{}', 0)")
    journal.set_seats(1, [SeatInfo(0, "Zoe", "S1", "4a")])
    report = roster.import_csv("name,group\nZOE,4b\nMax,4a\n", replace=replace)
    assert report == ImportReport(updated=1, unchanged=1, matched=1, moved=("ZOE (4a to 4b)",))
    assert report.sentence() == (
        "1 updated, 1 unchanged; 1 found on the list by name and group. "
        "Found by name in another group, so moved: ZOE (4a to 4b)."
    )
    assert [(s.id, s.name, s.group) for s in roster.students()] == [
        ("S2", "Max", "4a"),
        ("S1", "ZOE", "4b"),
    ]
    (seat,) = journal.seats(1)
    assert roster.get(str(seat.student)) == Student("S1", "ZOE", "4b")


def test_roster_names_only_list_of_another_class_does_not_move_its_namesake(
    roster: Roster,
) -> None:
    """One device, two classes: 4b's teacher adds her names-only list after 4a's. 4a's Zoe
    Klein is not on it, so she is not 4b's Zoe: 4b's is added as new (named among those
    beside a namesake), and each girl keeps her own id and games (r22-int moved 4a's
    Zoe to 4b, and both girls' games piled up under one id)."""
    roster.import_csv("name,group\nZoe Klein,4a\nMax Weber,4a\nLea Roth,4a\n")
    report = roster.import_csv("name,group\nZoe Klein,4b\nTom Berg,4b\n")
    assert report == ImportReport(added=2, unsure=("Zoe Klein (4b)",))
    assert "moved" not in report.sentence().split("(")[0]
    assert [(s.id, s.name, s.group) for s in roster.students()] == [
        ("S3", "Lea Roth", "4a"),
        ("S2", "Max Weber", "4a"),
        ("S1", "Zoe Klein", "4a"),
        ("S5", "Tom Berg", "4b"),
        ("S4", "Zoe Klein", "4b"),
    ]
    again = roster.import_csv("name,group\nZoe Klein,4a\nMax Weber,4a\nLea Roth,4a\n")
    assert again == ImportReport(unchanged=3, matched=3)


@pytest.mark.parametrize(
    ("other", "replace"),
    [
        (Student("", "Tom Berg", "4b"), True),  # the whole list, replaced
        (Student("", "Lea Roth", "4a"), False),  # her classmate, found by name and group
        (Student("S3", "Lea Roth", "4b"), False),  # her classmate, by id
    ],
)
def test_roster_names_only_list_of_her_class_moves_her(
    roster: Roster, other: Student, replace: bool
) -> None:
    """A list that is clearly her class's (it replaces the list, or names another child
    of her old group, by name and group or by id) moves Zoe to her new group."""
    roster.import_csv("name,group\nZoe Klein,4a\nMax Weber,4a\nLea Roth,4a\n")
    report = roster.import_students([Student("", "Zoe Klein", "4b"), other], replace=replace)
    assert report.moved == ("Zoe Klein (4a to 4b)",) and not report.unsure
    assert roster.get("S1") == Student("S1", "Zoe Klein", "4b")
    assert [s.name for s in roster.students("4b")].count("Zoe Klein") == 1


@pytest.mark.parametrize(
    ("before", "after", "added"),
    [
        ("Zoe,4a\nZoe,4c\n", "Zoe,4b\n", ["Zoe (4b)"]),  # which Zoe moved?
        ("Zoe,4a\n", "Zoe,4b\nZoe,4c\n", ["Zoe (4b)", "Zoe (4c)"]),  # which line is her?
        ("Zoe,4a\nZoe,4b\n", "Zoe,4b\nZoe,4b\n", ["Zoe (4b)"]),  # a Zoe is in 4b already
    ],
)
def test_roster_names_only_list_adds_when_it_is_not_clear_who_moved(
    roster: Roster, before: str, after: str, added: list[str]
) -> None:
    """More than one Zoe could be the one who moved: each line not found by name and group
    is added as new, as before, and the summary names them and says what to do."""
    roster.import_csv("name,group\n" + before)
    had = len(roster)
    report = roster.import_csv("name,group\n" + after)
    assert report.added == len(added) and report.unsure == tuple(added) and not report.moved
    assert len(roster) == had + len(added)
    assert report.sentence().endswith(
        "Added as new beside a namesake in another group (not clear who moved): "
        f"{', '.join(added)}; if one is the same child, change that child's group and "
        "remove the new one."
    )


def test_roster_import_names_who_was_updated_and_how(roster: Roster) -> None:
    """A list with ids: Lea moved from 4a to 4b. The summary (the device's import
    dialog, the dashboard's "Imported: ...") names her and her move, as it names those
    found by name (r19-int: "1 updated, 3 unchanged." and no one named, so the teacher
    could not check what changed); a few, then how many more."""
    roster.import_csv("id,name,group\nS1,Mia Jones,4a\nS2,Mia Jones,4b\nS3,Ben,4a\nS4,Lea,4a\n")
    report = roster.import_csv(
        "id,name,group\nS1,Mia Jones,4a\nS2,Mia Jones,4b\nS3,Ben,4a\nS4,Lea,4b\n"
    )
    assert report == ImportReport(updated=1, unchanged=3, changed=("Lea (4a to 4b)",))
    assert report.sentence() == "1 updated, 3 unchanged. Updated: Lea (4a to 4b)."
    report = roster.import_csv("S1,Mia Jones,\nS2,Mia Jonas,4b\nS3,Benny,4c\nS4,Lea,4a\n")
    assert report.sentence() == (
        "4 updated. Updated: Mia Jones (4a to no group), Mia Jonas (was Mia Jones), "
        "Benny (was Ben; 4a to 4c) and 1 more."
    )


def test_roster_import_summary_names_a_few_then_counts() -> None:
    report = ImportReport(updated=5, moved=tuple(f"C{n} (4a to 5a)" for n in range(5)))
    assert report.sentence() == (
        "5 updated. Found by name in another group, so moved: C0 (4a to 5a), C1 (4a to 5a), "
        "C2 (4a to 5a) and 2 more."
    )


def test_roster_names_only_list_without_a_header_or_group(roster: Roster) -> None:
    """One column and no header (or the header ``name``): names, no group."""
    for text in ("Ada\nBo\n", "name\nAda\nBo\n"):
        students = read_roster(text)
        assert [(s.id, s.name, s.group) for s in students] == [("", "Ada", ""), ("", "Bo", "")]
    assert roster.preview(read_roster("Ada\nBo\n")) == ImportReport(added=2)
    roster.import_csv("Ada\nBo\n")
    assert roster.import_csv("name\nAda\nBo\nCy\n").sentence() == (
        "1 added, 2 unchanged; 2 found on the list by name and group."
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name\nAda,Red\n", f"line 2: 2 cells but the header has 1{QUOTES}"),
        ("name,group\nS1,Ada,Red\n", f"line 2: 3 cells but the header has 2{QUOTES}"),
        ("name,group\n,Red\n", "line 2: the name must not be empty"),
        ("Ada\nS2,Bo\n", "line 1: expected id, name, group"),
        ("name,group\n", "the roster has no students"),
        ("group,name\nRed,Ada\n", "the header must be id,name,group or name,group"),
    ],
)
def test_roster_names_only_list_refusal_says_fix_the_file(
    roster: Roster, text: str, words: str
) -> None:
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert err.value.message.endswith(f"{words}. Fix the file and try again")
    assert len(roster) == 0


def test_roster_shown_names_tell_namesakes_apart() -> None:
    """Two students of one name (case aside) are shown with their group, or with their id
    where they share the group too; a name nobody else has, and a guest (no id), stay
    plain; a student listed twice (a report's line per game) is not their own namesake."""
    listed = [
        Student("S1", "Zoé Müller", "4b"),
        Student("S2", "zoé müller", "4c"),
        Student("S3", "Zoé Müller", "4c"),
        Student("S4", "Ben", "4b"),
        Student("S4", "Ben", "4b"),
        Student("", "Zoé Müller", ""),
    ]
    assert told_apart(listed) == {"S1": "4b", "S2": "S2", "S3": "S3"}
    assert shown_names(listed) == {
        "S1": "Zoé Müller (4b)",
        "S2": "zoé müller (S2)",
        "S3": "Zoé Müller (S3)",
        "S4": "Ben",
    }
    assert shown_names([Student("S9", "Ana", "")]) == {"S9": "Ana"}
    assert told_apart([Student("S1", "Ana", ""), Student("S2", "Ana", "")]) == {
        "S1": "S1",
        "S2": "S2",
    }


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("id,name,group\nS1,Müller, Zoë,4a\n", "line 2: 4 cells but the header has 3"),
        ("id;name;group\nS1;Ada;4a\nS2;Bo;4a;x\n", "line 3: 4 cells but the header has 3"),
        ("id,name\nS1,Müller, Zoë,4a\n", "line 2: 4 cells but the header has 3"),
        ("name,group\nMüller, Zoë,4a\n", "line 2: 3 cells but the header has 2"),
    ],
)
def test_roster_a_name_with_an_unquoted_comma_is_refused(
    roster: Roster, text: str, words: str
) -> None:
    """``Müller, Zoë`` without quotes fills one cell more than the list has: refused with
    the line and what to do (main: with ``id,name,group`` the child was "Müller" in group
    "Zoë", "4a" dropped without a word, and the dashboard said "2 added")."""
    roster.import_csv(CLASS)
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert err.value.code == "roster.shape"
    assert err.value.message == f"{words}{QUOTES}. Fix the file and try again"
    assert len(roster) == 3


def test_roster_a_fourth_cell_without_a_header_is_refused(roster: Roster) -> None:
    """Without a header a line has at most id, name and group: a fourth cell is a name's
    comma or a column no header names, and the sentence says both (main: dropped)."""
    for text in ("S1,Ada,4a\nS2,Müller, Zoë,4a\n", "S1,Zoë,4a,extra\n"):
        with pytest.raises(BadInput) as err:
            roster.import_csv(text)
        assert err.value.message.endswith(
            f"4 cells but a class list has 3{QUOTES}; another column needs a header line "
            "naming it (id,name,group,note). Fix the file and try again"
        )
    assert len(roster) == 0


def test_roster_extra_columns_named_in_the_header_are_still_read() -> None:
    """A column the header names (an e-mail, a note) is allowed and left out; a quoted
    "Surname, First" is one cell."""
    text = 'id,name,group,email\nS1,"Müller, Zoë",4a,zoe@example.org\nS2,Bo,,\n'
    assert read_roster(text) == [Student("S1", "Müller, Zoë", "4a"), Student("S2", "Bo", "")]
    assert read_roster("S1,Ada,4a,,\n") == [Student("S1", "Ada", "4a")]  # empty cells at the end


def test_roster_an_id_used_twice_names_both_lines(roster: Roster) -> None:
    """Item 16a: the second line of an id names the first, counting the header and blank
    lines as the teacher's editor does (main: "line 6: id S2 is used twice" alone)."""
    text = "id,name,group\nS1,Ada,A\nS2,Bo,A\n\nS3,Cy,B\nS2,Dee,B\n"
    with pytest.raises(BadInput) as err:
        roster.import_csv(text)
    assert (
        err.value.message == "line 6: id S2 is used twice (also line 3). Fix the file and try again"
    )


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("Ben\x1b[31m", "roster.control"),  # a terminal would obey it
        ("\u202eaiM", "roster.control"),  # a right-to-left override
        ("Mi\u2066a", "roster.control"),  # a bidi isolate
        ("\u200b\u200b", "roster.empty"),  # nothing one can see
    ],
)
def test_roster_typed_names_refused_as_the_class_list_refuses(
    roster: Roster, value: str, code: str
) -> None:
    """A name or group typed in (add, rename, a new group, the fleet's import) meets the
    class list's own check, not a weaker one."""
    roster.add("Ada", "A", sid="S1")
    for change in (
        lambda: roster.add(value),
        lambda: roster.add("Bob", value),
        lambda: roster.rename("S1", value),
        lambda: roster.set_group("S1", value),
        lambda: roster.import_students([Student("S2", value, "A")]),
        lambda: roster.import_students([Student("S2", "Bob", value)]),
    ):
        with pytest.raises(BadInput) as caught:
            change()
        assert caught.value.code == code
    assert roster.students() == [Student("S1", "Ada", "A")]
