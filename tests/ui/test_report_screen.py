"""The teacher's report on screen (issue 10): from the teacher menu, the lesson's groups,
a group's students, earlier lessons, and saving the CSV and PDF on a USB stick."""

from __future__ import annotations

import contextlib
from functools import partial
from pathlib import Path

import pygame
import pytest

from tabletop.classroom.report import csv_text
from tabletop.classroom.report_rows import gather
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.selfplay import default_settings
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.report import SAVE_FAILED, ReportScene
from tabletop.ui.scenes.settings import SettingsScene
from tests.card import fill, read_only_view, small_filesystem
from tests.classroom.lesson import S1, S2, build
from tests.classroom.test_report import one_answer_each
from tests.ui.scenery import drawn_texts, make_app

# The lesson's figures (tests/classroom/test_report.py works them out by hand). A group
# that played more than one game has no points total: each game's are in its own unit.
S1_GROUPS = [
    ["Group Blue", "2", "3", "2", "—", "12 of 13", "27.5"],
    ["Group Red", "2", "3", "3", "—", "24 of 31", "32.5"],
    ["Guests", "1", "1", "0", "-8", "0 of 0", "5.0"],
]
S1_RED = [
    ["Ana M.", "Mathe-Meister", "1", "1", "31", "5 of 7", "10.0"],
    ["Ana M.", "Math Arena", "2", "2", "7.5", "11 of 14", "22.5"],
    ["Ben", "Mathe-Meister", "1", "0", "24", "6 of 6", "10.0"],
    ["Ben", "Math Arena", "1", "0", "1", "2 of 4", "7.5"],
]
S2_GROUPS = [
    ["Group Green", "1", "1", "0", "2", "7 of 12", "20.0"],
    ["Group Red", "1", "1", "1", "4", "10 of 12", "20.0"],
]


@pytest.fixture
def lesson(tmp_path: Path) -> Journal:
    journal = Journal(build(tmp_path))
    yield journal
    journal.close()


def open_report(journal: Journal, size: tuple[int, int] = (800, 480)) -> tuple[App, Autoplayer]:
    """Home -> the teacher PIN -> the settings -> Class report."""
    app = make_app(size, journal=journal)
    app.ctx.session = S1
    auto = Autoplayer(app)
    if isinstance(app.stack.top, Confirm):  # the lesson left a game unfinished
        auto.tap("no")
        auto.tap("yes")  # "This ends your game": it does (round 28's second question)
    auto.tap("settings")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    auto.tap("report")
    assert isinstance(app.stack.top, ReportScene)
    return app, auto


def label(app: App, name: str) -> tuple[str, bool]:
    button = app.stack.top.target(name)
    assert button is not None
    return button.label, button.enabled


def test_report_screen_shows_the_lesson_per_group_and_per_student(
    lesson: Journal, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("tabletop.classroom.usb.sticks", lambda: [])
    for size in ((800, 480), (1280, 720)):
        app, auto = open_report(lesson, size)
        scene = app.stack.top
        assert scene.session == S1 and scene.games == 4
        assert scene.lines() == S1_GROUPS
        assert scene.note().endswith("Points: — where a group played more than one game.")
        assert label(app, "usb") == ("Put in a USB stick", False)
        app.step(force_draw=True)
        shot = app.screenshot(tmp_path / f"report-{size[0]}.png")
        image = pygame.image.load(str(shot))
        assert image.get_size() == size
        row = 140 * size[1] // 480  # through the first group
        assert len({tuple(image.get_at((x, row))) for x in range(0, size[0], 4)}) > 4
        auto.tap("group.Red")
        assert scene.lines() == S1_RED
        assert label(app, "back") == ("Groups", True)
        app.step(force_draw=True)
        app.screenshot(tmp_path / f"report-red-{size[0]}.png")
        auto.tap("back")
        assert scene.group is None and scene.lines() == S1_GROUPS
        auto.tap("back")
        assert isinstance(app.stack.top, SettingsScene)
        assert app.toast is None  # nothing failed on the way


def test_report_screen_steps_to_earlier_lessons(lesson: Journal) -> None:
    app, auto = open_report(lesson)
    scene = app.stack.top
    assert label(app, "session.newer")[1] is False
    auto.tap("session.older")
    assert scene.session == S2 and scene.lines() == S2_GROUPS and scene.games == 1
    assert label(app, "session.older")[1] is False
    auto.tap("session.newer")
    assert scene.session == S1 and scene.lines() == S1_GROUPS


def test_report_screen_saves_on_a_usb_stick_once_one_is_put_in(
    lesson: Journal, tmp_path: Path
) -> None:
    stick = tmp_path / "media" / "CLASS 5B"
    found: list[Path] = []
    app = make_app(journal=lesson)
    app.ctx.session = S1
    app.stack.push(ReportScene(app.ctx, sticks=lambda: list(found)))
    app.step()
    auto = Autoplayer(app)
    assert label(app, "usb") == ("Put in a USB stick", False)
    stick.mkdir(parents=True)
    found.append(stick)
    app.ctx.clock.advance(1.0)
    app.step()
    assert label(app, "usb")[1] is False  # it looks every two seconds
    app.ctx.clock.advance(1.0)
    app.step()
    assert label(app, "usb") == ("Save to USB stick", True)
    auto.tap("usb")
    folder = stick / "tabletop-reports"
    assert sorted(p.name for p in folder.iterdir()) == [
        "report-2025-03-14.csv",
        "report-2025-03-14.pdf",
    ]
    expected = csv_text(gather(lesson, S1))
    assert (folder / "report-2025-03-14.csv").read_bytes()[3:].decode() == expected
    assert (folder / "report-2025-03-14.pdf").read_bytes().startswith(b"%PDF")
    scene = app.stack.top
    assert scene.message == (
        "Saved on the USB stick \u201cCLASS 5B\u201d: tabletop-reports/report-2025-03-14.csv "
        "and .pdf. You can take the stick out."
    )
    assert scene.good
    app.step(force_draw=True)
    app.screenshot(tmp_path / "saved.png")
    found.clear()  # pulled out
    app.ctx.clock.advance(2.0)
    app.step()
    assert label(app, "usb") == ("Put in a USB stick", False)


def test_report_screen_a_stick_that_cannot_be_written_is_one_sentence(
    lesson: Journal, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    not_a_folder = tmp_path / "stick"
    not_a_folder.write_text("")
    app = make_app(journal=lesson)
    app.ctx.session = S1
    app.stack.push(ReportScene(app.ctx, sticks=lambda: [not_a_folder]))
    app.step()
    Autoplayer(app).tap("usb")
    scene = app.stack.top
    assert scene.message == SAVE_FAILED and not scene.good
    assert "report.write" in caplog.text and app.toast is None


@pytest.mark.parametrize("stick", ["full", "read-only"])
def test_report_screen_a_full_or_locked_stick_is_named_and_left_without_a_folder(
    lesson: Journal, tmp_path: Path, stick: str
) -> None:
    """Walk 30: a full stick and a locked one both said "Check the stick", and the full
    one kept an empty tabletop-reports folder. The teacher is told which, from the
    writer's error, and a failed export leaves no folder it made."""
    app = make_app(journal=lesson)
    app.ctx.session = S1
    with small_filesystem(tmp_path / "usb", 256) as usb:
        (usb / "notes.txt").write_text("the teacher's own file")
        if stick == "full":
            fill(usb)
            said = "The USB stick is full. Make room on it, or use another stick, and try again."
            view = contextlib.nullcontext(usb)
        else:
            said = "The USB stick is locked: slide its lock switch back, or use another stick."
            view = read_only_view(usb, tmp_path / "ro")
        with view as seen:
            app.stack.push(ReportScene(app.ctx, sticks=lambda: [seen]))
            app.step()
            Autoplayer(app).tap("usb")
            scene = app.stack.top
            assert scene.message == said and not scene.good
        assert sorted(p.name for p in usb.iterdir() if p.name != "filler") == ["notes.txt"]


def test_report_screen_sticks_that_cannot_be_looked_for_are_no_stick(
    lesson: Journal, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> list[Path]:
        raise PermissionError(13, "Permission denied", "/media")

    app = make_app(journal=lesson)
    app.ctx.session = S1
    app.stack.push(ReportScene(app.ctx, sticks=broken))
    app.step()
    assert label(app, "usb") == ("Put in a USB stick", False)
    assert "report: cannot look for USB sticks" in caplog.text and app.toast is None


def test_report_screen_with_no_games_says_so(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    app = make_app(journal=journal)
    app.ctx.session = "2025-05-05"
    app.stack.push(ReportScene(app.ctx, sticks=lambda: [tmp_path]))
    app.step(force_draw=True)
    scene = app.stack.top
    assert scene.session == "2025-05-05" and scene.lines() == []
    assert label(app, "usb") == ("Save to USB stick", False)
    assert label(app, "session.older")[1] is False
    assert app.toast is None
    journal.close()


def test_report_screen_pages_through_many_groups(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = Match(GAMES["math-attack"], default_settings("math-attack"), 2, seed=1)
    for g in range(9):
        seats = [SeatInfo(0, f"A{g}", f"A{g}", f"G{g}"), SeatInfo(1, f"B{g}", f"B{g}", f"G{g}")]
        finished = journal.start(match, seats=seats, session="s", meta={"checks": [[1, 1]]})
        journal.finish(finished, {"scores": ["1", "0"], "places": [1, 2], "winners": [0]})
    app = make_app(journal=journal)
    app.ctx.session = "s"
    app.stack.push(ReportScene(app.ctx, sticks=lambda: []))
    app.step()
    auto = Autoplayer(app)
    scene = app.stack.top
    per = scene.per_page
    assert 3 <= per < 9 and scene.pages == -(-9 // per)
    shown = [b.name for b in scene.buttons if b.name.startswith("group.")]
    assert shown == [f"group.G{g}" for g in range(per)]
    assert label(app, "page.up")[1] is False
    auto.tap("page.down")
    shown = [b.name for b in scene.buttons if b.name.startswith("group.")]
    assert shown[0] == f"group.G{per}"
    auto.tap(shown[0])
    assert scene.lines() == [
        [f"A{per}", "Math Attack!", "1", "1", "1", "1 of 1", "0.0"],
        [f"B{per}", "Math Attack!", "1", "0", "0", "0 of 0", "0.0"],
    ]
    journal.close()


def test_report_screen_headings_are_never_cut(lesson: Journal) -> None:
    """Every heading of the groups', a group's students' and the skills' tables is read
    whole, at 800x480 too (r15-int: a group's students under "Gam…", its column too
    narrow for "Games" at the 16 px a child reads)."""
    from tests.ui.scenery import drawn_texts

    for size in ((800, 480), (1280, 720)):
        app, auto = open_report(lesson, size)
        scene = app.stack.top
        for tap in (None, "group.Red", "view"):  # the groups, Red's students, their skills
            if tap is not None:
                auto.tap(tap)
            texts = [t for t, _ in drawn_texts(app.ctx.painter, partial(scene.draw, app.window))]
            assert not [t for t in texts if t.endswith("\u2026")], (size, tap, texts)


@pytest.mark.parametrize(
    ("session", "subtitle"),
    [
        (S1, f"Lesson {S1} \u00b7 4 games"),
        ("Walk lesson", "Walk lesson \u00b7 4 games"),
        ("Lessons in the hall", "Lessons in the hall \u00b7 4 games"),
        ("Ablessonar", "Lesson Ablessonar \u00b7 4 games"),
    ],
)
def test_report_screen_subtitle_says_lesson_once(
    lesson: Journal, session: str, subtitle: str
) -> None:
    """A session named "Walk lesson" read "Lesson Walk lesson · 2 games"."""
    app, _ = open_report(lesson)
    scene = app.stack.top
    scene.session = session
    scene.layout(scene.m)
    assert scene.subtitle == subtitle


ZOES = [("Zoé Müller", "S1", "Red"), ("Zoé Müller", "S2", "Red"), ("Zoé Müller", "S3", "Blue")]


def namesakes(tmp_path: Path, seats: list[tuple[str, str, str]] | None = None) -> Journal:
    """A lesson where ``seats`` (name, id, group) played and answered 7 x 8 right: by
    default three "Zoé Müller" (two in group Red, one in Blue) and Ben."""
    journal = Journal(tmp_path / FILE_NAME)
    played = seats or [*ZOES, ("Ben", "S4", "Red")]
    one_answer_each(journal, played, S1, 56, {"places": [1, 2, 3, 4], "reason": "end"})
    return journal


def test_report_screen_a_groups_page_tells_two_children_of_one_name_apart(
    tmp_path: Path,
) -> None:
    """Red's page shows its two "Zoé Müller" with their ids (the group is theirs both);
    Blue's one is alone on her page: her name only. Ben's name stays plain."""
    app, auto = open_report(namesakes(tmp_path))
    scene = app.stack.top
    auto.tap("group.Red")
    assert [line[0] for line in scene.lines()] == ["Ben", "Zoé Müller (S1)", "Zoé Müller (S2)"]
    auto.tap("back")
    auto.tap("group.Blue")
    assert [line[0] for line in scene.lines()] == ["Zoé Müller"]
    app.ctx.journal.close()


def test_report_screen_the_skills_view_tells_two_children_of_one_name_apart(
    tmp_path: Path,
) -> None:
    """The skills view lists every group's children together: Blue's "Zoé Müller" with
    her group, Red's two with their ids. Where the name column is too narrow (800x480)
    the name is cut, never the group that tells her apart."""
    app, auto = open_report(namesakes(tmp_path))
    auto.tap("view")
    names = [line[0] for line in app.stack.top.lines()]
    assert names[-4:] == ["Zoé Müller (Blue)", "Ben", "Zoé Müller (S1)", "Zoé Müller (S2)"]
    drawn = [words for words, _ in drawn_texts(app.ctx.painter, app.draw)]  # as rendered
    assert any(w.startswith("Zoé M") and w.endswith("\u2026 (Blue)") for w in drawn), drawn
    app.ctx.journal.close()


def test_report_screen_a_long_group_or_id_keeps_the_names_first_letters(tmp_path: Path) -> None:
    """At 800x480 the skills view's name column cannot hold "Zoé Müller (Hedgehogs class
    4a)": the name keeps its first three letters, and the group or id loses its start,
    so two Alexandras of one group still read apart by their ids' ends (main: "… (SCHOOL-0…"
    twice, the name cut to nothing and the ids to the part they share)."""
    journal = namesakes(
        tmp_path,
        [
            ("Zoé Müller", "S1", "Sunflowers 4b"),
            ("Zoé Müller", "S2", "Hedgehogs class 4a"),
            ("Alexandra", "SCHOOL-0001234", "Red"),
            ("Alexandra", "SCHOOL-0001235", "Red"),
        ],
    )
    app, auto = open_report(journal)
    auto.tap("view")
    drawn: list[str] = []
    scene = app.stack.top
    for page in range(scene.pages):
        scene.page = page
        drawn += [words for words, _ in drawn_texts(app.ctx.painter, app.draw)]  # as rendered
    names = [w for w in drawn if w.startswith(("Zoé", "Ale"))]
    assert len(names) == len(set(names)) == 4, names
    assert sorted(n[:3] + n[-5:] for n in names) == ["Ale1234)", "Ale1235)", "Zoés 4a)", "Zoés 4b)"]
    assert all("… (…" in n for n in names), names  # both parts cut, each with its "…"
    painter, column = app.ctx.painter, round(0.21 * scene.table.width) - 2 * scene.m.u(8)
    assert all(painter.fonts.width(n, painter.least, True) <= column for n in names), names
    journal.close()
