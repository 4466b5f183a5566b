"""The teacher's class list screens, played by taps (Autoplayer) as a teacher would."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pygame
import pytest

from tabletop.classroom.roster import Roster
from tabletop.classroom.students import Student
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.input import Key
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.roster import (
    ClassListScene,
    ImportDialog,
    PickDialog,
    StudentDialog,
    TypedName,
)
from tabletop.ui.scenes.settings import SettingsScene
from tests.ui.scenery import SIZES, long_name_on_two_lines, make_app

CLASS = "id,name,group\nS1,Ada Lovelace,Red\nS2,Alan Turing,Red\nS3,Grace Hopper,Blue\n"


def open_list(
    sticks: list[Path] | None = None, size: tuple[int, int] = (800, 480)
) -> tuple[App, ClassListScene, Autoplayer]:
    app = make_app(size)
    scene = ClassListScene(app.ctx, sticks=lambda: list(sticks or []))
    app.stack.push(scene)
    app.step()
    return app, scene, Autoplayer(app)


def type_text(auto: Autoplayer, text: str) -> None:
    for ch in text.upper():
        auto.tap("key.space" if ch == " " else f"key.{ch}")
    auto.tap("ok")


def roster_of(app: App) -> list[tuple[str, str, str]]:
    return [(s.id, s.name, s.group) for s in Roster(app.ctx.journal).students()]


def test_class_list_is_behind_the_teacher_pin() -> None:
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("settings")
    assert isinstance(app.stack.top, PinPad)
    for digit in "2468":
        auto.tap(f"key.{digit}")
    assert isinstance(app.stack.top, SettingsScene)
    auto.tap("classlist")
    assert isinstance(app.stack.top, ClassListScene)
    auto.tap("back")
    assert isinstance(app.stack.top, SettingsScene)


def test_class_list_imports_the_csv_on_a_usb_stick(tmp_path: Path) -> None:
    (tmp_path / "class.csv").write_text(CLASS, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a class list")
    app, scene, auto = open_list([tmp_path])
    auto.tap("import")
    dialog = app.stack.top
    assert isinstance(dialog, ImportDialog)
    assert dialog.text == (
        "3 students in the file.\nAdd and update: 3 added.\nEveryone on the device is in the file."
    )
    auto.tap("merge")
    assert app.stack.top is scene
    assert scene.message == "Class list from class.csv: 3 added." and scene.good
    assert roster_of(app) == [
        ("S3", "Grace Hopper", "Blue"),
        ("S1", "Ada Lovelace", "Red"),
        ("S2", "Alan Turing", "Red"),
    ]
    assert {b.name for b in scene.targets()} >= {"student.S1", "student.S2", "student.S3"}


def test_class_list_import_merges_or_replaces(tmp_path: Path) -> None:
    app, scene, auto = open_list([tmp_path])
    Roster(app.ctx.journal).import_csv(CLASS + "S4,Emmy Noether,Blue\n")
    (tmp_path / "class.csv").write_text("S1,Ada King,Green\nS9,Hypatia,Blue\n")
    auto.tap("import")
    dialog = app.stack.top
    assert isinstance(dialog, ImportDialog)
    assert dialog.text.splitlines()[1:] == [
        "Add and update: 1 added, 1 updated. Updated: Ada King (was Ada Lovelace; Red to Green).",
        "Replace the list: also removes 3 students who are not in the file (their past games"
        " stay).",
    ]
    auto.tap("cancel")
    assert len(Roster(app.ctx.journal)) == 4  # cancelled: nothing changed
    auto.tap("import")
    auto.tap("merge")
    assert len(Roster(app.ctx.journal)) == 5
    assert ("S1", "Ada King", "Green") in roster_of(app)
    auto.tap("import")
    auto.tap("replace")
    assert [s[0] for s in roster_of(app)] == ["S9", "S1"]
    assert scene.message == "Class list from class.csv: 2 unchanged, 3 removed."


def test_class_list_offers_a_pick_among_several_files(tmp_path: Path) -> None:
    (tmp_path / "a-class.csv").write_text("S1,Ada,Red\n")
    (tmp_path / "B-class.CSV").write_text("S2,Bo,Red\nS3,Cy,Red\n")
    (tmp_path / ".hidden.csv").write_text("S9,Nobody,Red\n")
    app, _, auto = open_list([tmp_path])
    auto.tap("import")
    pick = app.stack.top
    assert isinstance(pick, PickDialog)
    assert [label for _, label in pick.choices] == ["a-class.csv", "B-class.CSV"]
    auto.tap("choice.1")
    assert isinstance(app.stack.top, ImportDialog)
    auto.tap("merge")
    assert [s[0] for s in roster_of(app)] == ["S2", "S3"]


def test_class_list_pages_through_more_files_than_fit(tmp_path: Path) -> None:
    """Every .csv file on the stick can be picked: nine a page, "More" shows the rest."""
    for n in range(1, 12):
        (tmp_path / f"class-{n:02}.csv").write_text(f"S{n},Kid {n},Red\n")
    app, _, auto = open_list([tmp_path])
    auto.tap("import")
    pick = app.stack.top
    assert isinstance(pick, PickDialog) and pick.target("choice.9") is None
    auto.tap("more")
    assert pick.target("choice.10").label == "class-11.csv"
    auto.tap("choice.10")
    assert isinstance(app.stack.top, ImportDialog) and app.stack.top.title == "Import class-11.csv?"


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (None, "No USB stick found. Put one in and try again."),
        ({}, "There is no .csv file on the USB stick."),
        (
            {"c.csv": b"S1,Ada,Red\nS2\n"},
            "c.csv: line 2: expected id, name, group. Fix the file and try again.",
        ),
        (
            {"c.csv": b"S1,Ada,Red\nS1,Bo,Red\n"},
            "c.csv: line 2: id S1 is used twice (also line 1). Fix the file and try again.",
        ),
        (
            {"c.csv": b"Zoe,4b\nMax,4b\nAnna2,4b\n"},
            "c.csv: column 1 looks like names on some lines and ids on others: put name,group "
            "or id,name as the file's first line and try again.",
        ),
        (
            {"c.csv": b"\x00\x81\x8d\x8f"},
            'c.csv: this file is not a text file. Save it from the spreadsheet as "CSV UTF-8"'
            " and try again.",
        ),
    ],
)
def test_class_list_import_problems_are_one_sentence(
    tmp_path: Path, files: dict[str, bytes] | None, message: str
) -> None:
    if files is not None:
        for name, data in files.items():
            (tmp_path / name).write_bytes(data)
    app, scene, auto = open_list([] if files is None else [tmp_path])
    Roster(app.ctx.journal).import_csv(CLASS)
    auto.tap("import")
    assert app.stack.top is scene
    assert scene.message == message and not scene.good
    assert len(Roster(app.ctx.journal)) == 3


def test_class_list_sticks_that_cannot_be_looked_for_are_no_stick(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> list[Path]:
        raise PermissionError(13, "Permission denied", "/media")

    app = make_app()
    Roster(app.ctx.journal).import_csv(CLASS)
    scene = ClassListScene(app.ctx, sticks=broken)
    app.stack.push(scene)
    app.step()
    auto = Autoplayer(app)
    for button in ("import", "save"):
        scene.message = ""
        auto.tap(button)
        assert scene.message == "No USB stick found. Put one in and try again."
        assert not scene.good and app.stack.top is scene
    assert "class list: cannot look for USB sticks" in caplog.text
    assert len(Roster(app.ctx.journal)) == 3


def test_class_list_types_a_student_in(tmp_path: Path) -> None:
    app, scene, auto = open_list()
    Roster(app.ctx.journal).import_csv(CLASS)
    auto.tap("add")
    assert isinstance(app.stack.top, TypedName)
    type_text(auto, "Katherine Johnson")  # longer than a player's name
    pick = app.stack.top
    assert isinstance(pick, PickDialog) and pick.title == "Katherine Johnson's group"
    assert [label for _, label in pick.choices] == ["Blue", "Red", "No group", "New group…"]
    auto.tap("choice.0")
    assert ("S4", "Katherine Johnson", "Blue") in roster_of(app)
    assert scene.message == "Katherine Johnson is on the class list (id S4)."
    # a new group, typed in
    auto.tap("add")
    type_text(auto, "Zoe")
    auto.tap("choice.3")
    assert isinstance(app.stack.top, TypedName)
    type_text(auto, "Green")
    assert ("S5", "Zoe", "Green") in roster_of(app)
    # cancelled half way: nobody added
    auto.tap("add")
    type_text(auto, "Nobody")
    auto.tap("cancel")
    assert len(Roster(app.ctx.journal)) == 5


def test_class_list_a_student_whose_group_is_cancelled_is_said_not_added() -> None:
    """Cancel on "New Kid's group" (or on the new group's name) adds nobody, and says so:
    the name typed is not lost without a word."""
    app, scene, auto = open_list()
    Roster(app.ctx.journal).import_csv(CLASS)
    for cancel_at in ("group", "new group"):
        auto.tap("add")
        type_text(auto, "New Kid")
        if cancel_at == "new group":
            auto.tap("choice.3")
            assert isinstance(app.stack.top, TypedName)
        auto.tap("cancel")
        assert app.stack.top is scene and len(Roster(app.ctx.journal)) == 3
        assert scene.message == "Not added: New Kid." and scene.good is False
    auto.tap("add")  # added after all: a dialog closed later says nothing of it
    type_text(auto, "New Kid")
    auto.tap("choice.0")
    auto.tap("student.S1")
    auto.tap("close")
    assert scene.message == "New Kid is on the class list (id S4)." and scene.good


def test_class_list_change_while_the_card_refuses_writes_says_not_on_the_card_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A student added as the SD card fills up: the write refused is said in a sentence
    ("Oops" before, the student gone), the next one goes to memory, and the teacher reads
    that it is not on the card yet, and why (it said only "added")."""
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.saves import NOT_SAVING
    from tests.card import FULL, simulated_card

    card = simulated_card(monkeypatch)
    app, scene, auto = open_list()
    app.ctx.journal = Journal(tmp_path / FILE_NAME)
    scene.roster = Roster(app.ctx.journal)
    card.refuse = FULL
    auto.tap("add")
    type_text(auto, "Zoe")
    auto.tap("choice.0")  # no group
    assert app.toast is not None and app.toast[0] == NOT_SAVING  # not "Oops"
    assert scene.good is False
    assert scene.message.startswith("That change was not saved (") and roster_of(app) == []
    auto.tap("add")  # again
    type_text(auto, "Zoe")
    auto.tap("choice.0")
    assert ("S1", "Zoe", "") in roster_of(app)
    assert scene.message.startswith("Zoe is on the class list (id S1). Not saved on the card yet (")
    assert app.ctx.journal.trouble in scene.message and scene.good is False
    card.refuse = None
    assert app.ctx.journal.retry()
    auto.tap("add")
    type_text(auto, "Ben")
    auto.tap("choice.0")
    assert scene.message == "Ben is on the class list (id S2)." and scene.good


def test_class_list_renames_regroups_and_removes(tmp_path: Path) -> None:
    app, scene, auto = open_list()
    Roster(app.ctx.journal).import_csv(CLASS)
    scene.grid.set_students(Roster(app.ctx.journal).students())
    scene.layout(scene.m)
    auto.tap("student.S2")
    assert isinstance(app.stack.top, StudentDialog)
    auto.tap("rename")
    typed = app.stack.top
    assert isinstance(typed, TypedName) and typed.name == "Alan Turing"
    for _ in "Turing":
        auto.tap("key.delete")
    type_text(auto, "Smith")
    assert ("S2", "Alan Smith", "Red") in roster_of(app)
    assert scene.message == "Alan Turing is now Alan Smith."
    auto.tap("student.S2")
    auto.tap("group")
    auto.tap("choice.2")  # Blue, Red, No group
    assert ("S2", "Alan Smith", "") in roster_of(app)
    assert scene.message == "Alan Smith is now in no group."
    auto.tap("student.S1")
    auto.tap("remove")
    assert isinstance(app.stack.top, Confirm)
    auto.tap("no")
    assert len(Roster(app.ctx.journal)) == 3
    auto.tap("student.S1")
    auto.tap("remove")
    auto.tap("yes")
    assert [s[0] for s in roster_of(app)] == ["S3", "S2"]
    assert "Ada Lovelace is off the class list" in scene.message


def test_class_list_saves_to_the_usb_stick_without_overwriting(tmp_path: Path) -> None:
    app, scene, auto = open_list([tmp_path])
    assert not scene.target("save").enabled  # type: ignore[union-attr]
    Roster(app.ctx.journal).import_csv(CLASS)
    scene.grid.set_students(Roster(app.ctx.journal).students())
    scene.layout(scene.m)
    auto.tap("save")
    auto.tap("save")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class-list-2.csv", "class-list.csv"]
    assert scene.message.startswith("Saved as class-list-2.csv.")
    again = Roster(make_app().ctx.journal)
    assert again.import_csv((tmp_path / "class-list.csv").read_text()).added == 3


def test_class_list_save_on_a_full_stick_keeps_nothing_half_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Save to USB goes through the one writer, whole and synced (main wrote the file
    itself with no sync: a stick pulled out, or full, kept a broken list that looked
    saved); a failed write is said in the teacher's words and leaves no file."""
    app, scene, auto = open_list([tmp_path])
    Roster(app.ctx.journal).import_csv(CLASS)
    scene.grid.set_students(Roster(app.ctx.journal).students())
    scene.layout(scene.m)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("tabletop.outfiles.os.fsync", full)
    auto.tap("save")
    assert scene.message == "The list could not be saved (No space left on device)."
    assert not scene.good and list(tmp_path.iterdir()) == []


def test_class_list_shows_one_group_and_pages(tmp_path: Path) -> None:
    app, scene, auto = open_list()
    roster = Roster(app.ctx.journal)
    for i in range(20):
        roster.add(f"Child {chr(65 + i)}", "Red" if i % 2 else "Blue")
    scene.grid.set_students(roster.students())
    scene.layout(scene.m)
    assert scene.grid.pages > 1
    auto.tap("page.next")
    assert scene.grid.page == 1
    app.post(Key("left", "", app.ctx.clock()))  # the arrow keys turn the pages too
    app.step()
    assert scene.grid.page == 0
    app.post(Key("right", "", app.ctx.clock()))
    app.step()
    assert scene.grid.page == 1
    auto.tap("group")
    auto.tap("choice.2")  # Everyone, Blue, Red
    assert scene.grid.group == "Red" and scene.grid.page == 0
    shown = [b.name for b in scene.targets() if b.name.startswith("student.")]
    reds = {f"student.{s.id}" for s in roster.students("Red")}
    assert shown and set(shown) <= reds


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_class_list_screenshots(size: tuple[int, int], tmp_path: Path) -> None:
    app, scene, auto = open_list([tmp_path], size)
    Roster(app.ctx.journal).import_csv(CLASS + "S4,Katherine Johnson-Goble,Blue\nS5,Zoë,\n")
    scene.grid.set_students(Roster(app.ctx.journal).students())
    scene.layout(scene.m)
    shots = [app.screenshot(tmp_path / "list.png")]
    auto.tap("student.S4")
    shots.append(app.screenshot(tmp_path / "student.png"))
    auto.tap("close")
    (tmp_path / "class.csv").write_text(CLASS)
    auto.tap("import")
    shots.append(app.screenshot(tmp_path / "import.png"))
    for path in shots:
        image = pygame.surfarray.array3d(pygame.image.load(str(path)))
        assert image.shape[:2] == size
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 30
    canvas = pygame.Rect((0, 0), size)
    for dialog_or_scene in (app.stack.top, scene):
        targets = dialog_or_scene.targets()  # type: ignore[union-attr]
        assert all(canvas.contains(b.rect) for b in targets)
        for i, a in enumerate(targets):
            for b in targets[i + 1 :]:
                assert not a.rect.colliderect(b.rect), (a.name, b.name)


def test_class_list_student_grid_keeps_student_type() -> None:
    from tabletop.ui.scenes.roster import StudentGrid

    grid = StudentGrid([Student("S1", "Ada", "Red"), Student("S2", "Bo", "")], first_group="")
    assert grid.groups() == ["", "Red"]
    assert [s.id for s in grid.shown()] == ["S2"]  # opens on first_group
    grid.choose_group(None)
    assert [s.id for s in grid.shown()] == ["S2", "S1"]
    assert StudentGrid.student_of("student.S1") == "S1" and StudentGrid.student_of("seat.1") is None


def test_class_list_long_names_take_two_lines_at_16px_or_more() -> None:
    """A 26-letter name shrank to 14 px at 800x480 (issue 21): it takes two lines."""
    app, scene, _ = open_list()
    long_name_on_two_lines(app, scene)


def test_class_list_import_says_two_columns_were_read_as_names_and_groups(tmp_path: Path) -> None:
    """``Zoe,4b`` without a header: the dialog says it read names and groups, before the
    teacher chooses (the same sentence the dashboard shows), and the list has no id ZOE."""
    (tmp_path / "class.csv").write_text("Zoe,4b\nMax,4a\n", encoding="utf-8")
    app, scene, auto = open_list([tmp_path])
    auto.tap("import")
    dialog = app.stack.top
    assert isinstance(dialog, ImportDialog)
    assert dialog.text.splitlines()[1] == (
        "Add and update: 2 added. The first column has no ids, so the file was read as "
        "name and group (Zoe in group 4b). If the first column is the id, put the line "
        "id,name,group at the top of the file and try again."
    )
    auto.tap("merge")
    assert scene.message == "Class list from class.csv: 2 added."
    assert [(s.name, s.group) for s in Roster(app.ctx.journal).students()] == [
        ("Max", "4a"),
        ("Zoe", "4b"),
    ]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_class_list_import_summary_shows_whole_under_the_list(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """An import that updates, moves and adds beside namesakes: its summary under the
    list is read whole at once (>= 16 px), clear of every button (r25: it showed two
    lines at a time, a page every 6 s, cutting "Katherine Johnson … (Blue to Red)")."""
    app, scene, auto = open_list([tmp_path], size)
    Roster(app.ctx.journal).import_csv(CLASS + "S4,Katherine Johnson,Blue\nS5,Emmy Noether,Green\n")
    rows = ["Ada Lovelace,Green", "Alan Turing,Blue", "Grace Hopper,Blue", "Katherine Johnson,Red"]
    rows += ["Hypatia,Blue", "Emmy Noether,Blue", "Maryam Mirzakhani,Red", "Zoë Müller,Red"]
    (tmp_path / "class.csv").write_text("\n".join(["name,group", *rows]), encoding="utf-8")
    auto.tap("import")
    auto.tap("merge")
    assert "so moved: Katherine Johnson (Blue to Red)." in scene.message
    assert "namesake" in scene.message and scene.message.endswith("remove the new one.")
    painter, room = app.ctx.painter, scene.message_rect
    px, (page,) = painter.pages(scene.message, room, scene.m.text, bold=True)
    assert px >= 16 and len(page) > 2
    assert not any(b.rect.colliderect(room) for b in scene.targets())


def test_class_list_refuses_a_typed_name_holding_a_control_character() -> None:
    """The device's pad types letters only (a keyboard's escape or override types nothing),
    and a name that reaches the list anyway meets the class list's check: refused in a
    sentence, nobody added."""
    app, scene, auto = open_list()
    auto.tap("add")
    pad = app.stack.top
    assert isinstance(pad, TypedName)
    for text in ("\x1b", "\u202e", "\u200b", "A"):
        app.post(Key(text, text, app.ctx.clock()))
    app.step()
    assert pad.name == "A"
    app.stack.pop("Ben\x1b[31m")  # as if the pad had let it through
    auto.tap("choice.0")
    assert roster_of(app) == []
    assert scene.message == "The name 'Ben\\x1b[31m' holds a control character (U+001B)."
    assert scene.good is False
