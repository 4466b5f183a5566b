"""The teacher's class list (Settings -> Class list, behind the teacher PIN).

:class:`ClassListScene` lists the students a group and a page at a time. *Import from
USB* reads the ``*.csv`` files at the top of the mounted sticks (several: the teacher
picks one) and shows what the file would do before the teacher chooses *Add and update*
(merge by id) or *Replace the list*. *Add a student* asks a name, then a group. A tap on
a name renames, regroups or removes the student (asked first; past games stay). *Save
to USB* writes ``class-list.csv`` (never over another file) for ``tabletop print
badges``. Everything the teacher is told is one sentence on the screen and a log line.
:class:`StudentGrid` and :class:`PickDialog` serve the sign-in screen too.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from itertools import product
from pathlib import Path
from typing import Any

import pygame

from tabletop.classroom import usb
from tabletop.classroom.roster import ImportReport, Roster, decode_csv
from tabletop.classroom.students import BADGE_PREFIX, Student, read_class_list
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import plural, sentence
from tabletop.outfiles import CannotWrite, write_file
from tabletop.ui.app import Context
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Choices, Item, Row, Screen, spread
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.scenes.settings import TeacherScreen
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, Paged, Painter, grid

log = logging.getLogger(__name__)

SAVE_NAME = "class-list"
PRINT_HINT = "Badges: on a computer, run  tabletop print badges ROSTER.csv"
NAME_LIMIT = 24  # letters typed on the screen's keyboard
PAGE_KEYS = {"left": "page.prev", "right": "page.next"}  # the arrow keys turn a grid's pages


def group_label(group: str | None) -> str:
    return "Everyone" if group is None else (group or "No group")


class StudentGrid(Paged):
    """Students as name buttons (``student.<id>``), one group (or everyone) and one page
    at a time, with a group button (``group``) and page buttons (``page.prev``,
    ``page.next``) above them. It opens on ``first_group`` where someone is in it
    ("Everyone" is one tap away), and lists that group first."""

    def __init__(self, students: Sequence[Student] = (), first_group: str | None = None) -> None:
        self.first_group = self.group = first_group
        self.page_text_pos = (0, 0)
        self.set_students(students)  # nobody in first_group: everyone

    def set_students(self, students: Sequence[Student]) -> None:
        self.students = list(students)
        if self.group is not None and self.group not in self.groups():
            self.group = None

    def groups(self) -> list[str]:
        """The groups in the list, ``first_group`` first ("" for no group, last)."""
        first, groups = self.first_group, {s.group for s in self.students}
        return sorted(groups, key=lambda g: (g != first, not g, g.casefold()))

    def shown(self) -> list[Student]:
        if self.group is not None:
            return [s for s in self.students if s.group == self.group]
        return sorted(self.students, key=lambda s: s.group != self.first_group)  # stable

    def layout(
        self,
        rect: pygame.Rect,
        m: Metrics,
        *,
        columns: int,
        caption: Callable[[Student], str],
        enabled: Callable[[Student], bool] = lambda s: True,
        reads: Callable[[Button], bool] = lambda b: True,
    ) -> list[Button]:
        """The buttons inside ``rect``: the controls' row, then the names' grid, as many
        names a page as there can be while every name ``reads`` on its button (fewer
        rows, then fewer columns, before a name would go too small or be cut)."""
        gap, row_h, nav, counter = m.u(8), m.u(52), m.u(56), m.u(72)  # counter: "1/3"
        controls = 2 * nav + counter
        b: list[Button] = []
        if len(self.groups()) > 1 or self.group is not None:
            where = pygame.Rect(rect.topleft, (min(m.u(250), rect.width - controls - gap), row_h))
            label, hint = group_label(self.group), "tap for another group"
            b.append(Button("group", where, label, kind="quiet", caption=hint))
        area = pygame.Rect(rect.left, rect.top + row_h + gap, rect.width, 0)
        area.height = rect.bottom - area.top
        most = max(1, (area.height + gap) // (m.u(48) + gap))
        shapes = sorted(
            product(range(columns, 0, -1), range(most, 0, -1)), key=lambda s: -s[0] * s[1]
        )

        def tile(columns: int, rows: int) -> pygame.Rect:  # a long name: two lines
            return grid(area, 1, columns, gap, min(m.u(64), (area.height + gap) // rows - gap))[0]

        def fits(shape: tuple[int, int]) -> bool:
            tried = (
                Button("", tile(*shape), s.name, caption=caption(s), size=m.text)
                for s in self.shown()
            )
            return all(map(reads, tried))

        columns, rows = next(filter(fits, shapes), shapes[0])
        h = tile(columns, rows).height
        page = self.paged(self.shown(), rows * columns)
        if self.pages > 1:
            right = rect.right
            for name, x, arrow in (("page.next", nav, "\u25b6"), ("page.prev", controls, "\u25c0")):
                b.append(Button(name, pygame.Rect(right - x, rect.top, nav, row_h), arrow))
            self.page_text_pos = (right - nav - counter // 2, rect.top + row_h // 2)
        for cell, s in zip(grid(area, len(page), columns, gap, h), page, strict=True):
            name, on = f"student.{s.id}", enabled(s)
            b.append(Button(name, cell, s.name, on, "choice", caption=caption(s), size=m.text))
        return b

    def press(self, name: str, screen: Screen) -> bool:
        """Turn the page, or have ``screen`` ask which group to show (the grid takes the
        answer); True if ``name`` was the grid's."""
        if name == "group":  # each group in a tuple: "Everyone" (None) is an answer too
            choices = [(group_label(g), (g,)) for g in (None, *self.groups())]
            picker = PickDialog(screen.ctx, "Which group?", choices)
            screen.ask(picker, lambda picked: self.choose_group(picked[0]))
        elif name in ("page.next", "page.prev"):
            self.turn_page(1 if name == "page.next" else -1)
        else:
            return False
        return True

    def choose_group(self, group: str | None) -> None:
        self.group = group
        self.page = 0

    def draw(self, surface: pygame.Surface, painter: Painter) -> None:
        if self.pages > 1:
            text, at, size = f"{self.page + 1}/{self.pages}", self.page_text_pos, painter.m.text
            painter.text(surface, text, at, size, bold=True, anchor="center")

    @staticmethod
    def student_of(name: str) -> str | None:
        return name[len("student.") :] if name.startswith("student.") else None


class PickDialog(ChoiceGrid):
    """Pick one of the choices (``(label, value)``), three a row, a page at a time; pops
    with the chosen value (or None when cancelled)."""

    speaks = False  # a teacher's screen

    def __init__(self, ctx: Context, title: str, choices: Sequence[tuple[str, Any]]) -> None:
        keyed = [(str(i), label) for i, (label, _) in enumerate(choices)]
        rows = min(3, -(-len(keyed) // 3))
        size = (600, 160 + rows * 64)  # as high as its rows need
        super().__init__(ctx, title, keyed, columns=3, rows=rows, size=size)
        self.values = [value for _, value in choices]

    def choose(self, name: str) -> None:
        if not name.startswith("choice."):
            super().choose(name)  # Cancel, or More
            return
        self.stack.pop(self.values[int(name[len("choice.") :])])


class TypedName(NameScene):
    """The on-screen keyboard for a teacher typing a full name (longer than a player's)."""

    limit = NAME_LIMIT


class ImportDialog(Choices):
    """What a class list file would do; pops with "merge", "replace" or None."""

    def __init__(self, ctx: Context, file: str, merge: ImportReport, replace: ImportReport) -> None:
        replacing = (
            f"Replace the list: also removes {plural(replace.removed, 'student')} who "
            f"{'is' if replace.removed == 1 else 'are'} not in the file (their past games stay)."
            if replace.removed
            else "Everyone on the device is in the file."
        )
        found = plural(merge.total, "student")
        text = f"{found} in the file.\nAdd and update: {merge.sentence()}\n{replacing}"
        answers = (
            ("cancel", "Cancel", "quiet"),
            ("replace", "Replace the list", "quiet"),
            ("merge", "Add and update", "primary"),
        )
        super().__init__(ctx, f"Import {file}?", text, answers, cancel="cancel")


class StudentDialog(Choices):
    """One student: pops with "rename", "group", "remove" or None."""

    def __init__(self, ctx: Context, s: Student) -> None:
        where = f"group {s.group}" if s.group else "no group"
        answers = [(name, name.title(), "quiet") for name in ("close", "rename", "group", "remove")]
        text = f"{where} · id {s.id} · badge {BADGE_PREFIX}{s.id}"
        super().__init__(ctx, s.name, text, answers, cancel="close")


class ClassListScene(TeacherScreen):
    """The class list (see the module). ``sticks`` finds the mounted USB sticks."""

    keys = PAGE_KEYS
    title = "Class list"

    def __init__(self, ctx: Context, sticks: Callable[[], list[Path]] = usb.sticks) -> None:
        super().__init__(ctx)
        self.roster = Roster(ctx.journal)
        self.find_sticks = sticks
        self.grid = StudentGrid(self.roster.students())

    def layout(self, metrics: Metrics) -> None:
        m, margin, bh = metrics, metrics.u(16), metrics.u(56)
        foot_row = pygame.Rect(margin, m.height - margin - bh, m.width - 2 * margin, 0)
        # the message's room: two lines, or all of a long one (an import's summary) while
        # the names keep two thirds of the screen; beyond that the painter pages it
        painter = self.ctx.painter
        said = len(painter.wrap(self.message, m.text, foot_row.width, True))
        said_h = said * painter.fonts.font(m.text, True).get_linesize()
        high = min(max(m.u(52), said_h), (foot_row.top - m.u(74)) // 3)
        self.message_rect = pygame.Rect(margin, foot_row.top - high - m.u(8), foot_row.width, high)
        area = pygame.Rect(margin, m.u(74), foot_row.width, self.message_rect.top - m.u(80))
        b = self.grid.layout(
            area, m, columns=3, caption=lambda s: f"{s.group or 'no group'} · {s.id}"
        )
        tools = (
            Item("back", "Back"),
            Item("add", "Add a student", kind="primary"),
            Item("import", "Import from USB", kind="primary"),
            Item("save", "Save to USB", kind="primary", enabled=bool(self.grid.students)),
        )
        self.buttons = b + spread(m, foot_row, [Row("", tools, bh)])[0]
        n, groups = len(self.grid.students), len({s.group for s in self.grid.students if s.group})
        in_groups = f" in {plural(groups, 'group')}" if groups else ""
        self.subtitle = f"{plural(n, 'student')}{in_groups}. Tap a name to change it."
        if not n:
            self.subtitle = (
                "No students yet: import a list from a USB stick, or add them one by one."
            )

    def note(self) -> str:
        return PRINT_HINT + " (Save to USB writes the list as a CSV file)."

    def changed(self, message: str) -> None:
        """Say a change to the list; while the journal cannot write to the card (full,
        read-only), also that it is not on the card yet, and why."""
        if (trouble := self.ctx.journal.trouble) is None:
            self.say(message)
        else:
            self.say(f"{message} {child_message('roster.in_memory', why=trouble)}", good=False)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.grid.draw(surface, self.ctx.painter)

    def press(self, name: str) -> None:
        sid = StudentGrid.student_of(name)
        student = None if sid is None else self.roster.get(sid)
        if self.grid.press(name, self):
            pass
        elif student is not None:
            self.ask(StudentDialog(self.ctx, student), lambda act: self.change(student, act))
        elif name == "add":
            self.ask(TypedName(self.ctx, "", "The new student's name"), self.add)
        elif name == "import":
            self.import_from_usb()
        elif name == "save":
            self.save_to_usb()
        elif name == "back":
            self.stack.pop()
        if self.stack.top is self:
            self.layout(self.m)

    def resume(self, result: Any) -> None:
        try:
            super().resume(result)
        except BadInput as exc:
            log.warning("class list: %s", exc.message)
            self.say(sentence(exc.message), good=False)
        except TabletopError as exc:  # the card refused the write (it just filled up)
            log.error("class list: %s: %s", exc.code, exc.message)
            why = self.ctx.journal.trouble or exc.message
            self.say(child_message("roster.not_written", why=why), good=False)
        self.grid.set_students(self.roster.students())
        self.layout(self.m)

    def ask_group(
        self, title: str, then: Callable[[str], None], cancelled: Callable[[], None] | None = None
    ) -> None:
        """Which group: one in use, none, or a new one typed in; ``then`` gets it, else
        (Cancel on either question) ``cancelled`` is called."""
        choices: list[tuple[str, Any]] = [(g, ("pick", g)) for g in self.roster.groups()]
        choices += [("No group", ("pick", "")), ("New group…", ("new", ""))]

        def picked(answer: tuple[str, str]) -> None:
            if answer[0] == "new":
                self.ask(TypedName(self.ctx, "", "The new group's name"), then, cancelled)
            else:
                then(answer[1])

        self.ask(PickDialog(self.ctx, title, choices), picked, cancelled)

    def add(self, name: str) -> None:
        """Add ``name`` in the group the teacher picks next; a Cancel there adds nobody, and
        says so (Cancel changes nothing anywhere; "No group" is a choice of its own)."""

        def added(group: str) -> None:
            student = self.roster.add(name, group)
            self.grid.choose_group(None)
            self.changed(child_message("roster.added", name=student.name, id=student.id))

        def not_added() -> None:
            self.say(child_message("roster.not_added", name=name), good=False)

        self.ask_group(f"{name}'s group", added, not_added)

    def change(self, student: Student, action: str) -> None:
        """What the student's dialog chose: rename, change group, or remove."""

        def renamed(name: str) -> None:
            new = self.roster.rename(student.id, name).name
            self.changed(child_message("roster.renamed", name=student.name, new=new))

        def regrouped(group: str) -> None:
            changed = self.roster.set_group(student.id, group)
            where = "roster.grouped" if changed.group else "roster.ungrouped"
            self.changed(child_message(where, name=changed.name, group=changed.group))

        def removed() -> None:
            self.roster.remove(student.id)
            self.changed(child_message("roster.removed", name=student.name))

        if action == "rename":
            self.ask(TypedName(self.ctx, student.name, "Change the name"), renamed)
        elif action == "group":
            self.ask_group(f"{student.name}'s group", regrouped)
        elif action == "remove":
            question = f"Remove {student.name} from the class list?"
            self.confirm(question, "Remove", "Keep", removed)

    def usb_sticks(self) -> list[Path]:
        """The mounted USB sticks; when there is none, that is said (and logged)."""
        sticks = usb.mounted_sticks(self.find_sticks, "class list")
        if not sticks:
            log.info("class list: no USB stick mounted")
            self.say(child_message("roster.no_stick"), good=False)
        return sticks

    def import_from_usb(self) -> None:
        sticks = self.usb_sticks()
        if not sticks:
            return
        files = usb.csv_files(sticks)
        if not files:
            log.info("class list: no .csv file on %s", ", ".join(map(str, sticks)))
            self.say(child_message("roster.no_csv"), good=False)
            return
        if len(files) == 1:
            self.read_file(files[0])
            return
        choices = [(p.name, p) for p in files]
        self.ask(PickDialog(self.ctx, "Which class list?", choices), self.read_file)

    def read_file(self, path: Path) -> None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            log.warning("class list: cannot read %s: %s", path, exc)
            self.say(
                child_message("roster.unreadable", file=path.name, why=exc.strerror), good=False
            )
            return
        try:
            students, note = read_class_list(decode_csv(data, "this file"))
            merge = dataclasses.replace(self.roster.preview(students), note=note)
            replace = self.roster.preview(students, replace=True)
        except BadInput as exc:
            log.warning("class list: %s: %s", path, exc.message)
            self.say(child_message("roster.bad_file", file=path.name, why=exc.message), good=False)
            return

        def chosen(how: str) -> None:
            report = self.roster.import_students(students, replace=how == "replace")
            self.grid.choose_group(None)
            self.changed(f"Class list from {path.name}: {report.sentence()}")

        self.ask(ImportDialog(self.ctx, path.name, merge, replace), chosen)

    def save_to_usb(self) -> None:
        sticks = self.usb_sticks()
        if not sticks:
            return
        path = usb.free_name(sticks[0], SAVE_NAME)
        try:
            write_file(path, self.roster.csv_text(), code="roster.write")
        except CannotWrite as exc:
            log.warning("class list: %s", exc)
            self.say(child_message("roster.not_saved", why=exc.why), good=False)
            return
        log.info("class list: saved %d students to %s", len(self.roster), path)
        self.say(f"Saved as {path.name}. On a computer: tabletop print badges {path.name}")


__all__ = [
    "ClassListScene",
    "ImportDialog",
    "PickDialog",
    "StudentDialog",
    "StudentGrid",
    "TypedName",
]
