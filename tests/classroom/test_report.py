"""The teacher's report (issue 10): every figure checked against numbers worked out by
hand from the lesson in ``tests/classroom/lesson.py``."""

from __future__ import annotations

import ast
import csv
import io
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom.report import (
    CSV_COLUMNS,
    csv_text,
    file_stem,
    save_report,
    write_csv,
    write_pdf,
)
from tabletop.classroom.report_pdf import report_pdf
from tabletop.classroom.report_rows import (
    GroupTotal,
    LeftOut,
    Row,
    decimal_text,
    gather,
    group_totals,
    minutes,
    sessions,
)
from tabletop.cli import main
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.selfplay import default_settings
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tests.classroom.lesson import S1, S2, build

F = Fraction

# S1 by hand (see lesson.py). Ana: M2 (4, a shared first place: a win) + M4 (7/2, won on
# time) in Math Arena; M1 (31, won on time) in Mathe-Meister. Ben: M1 24, M4 1. Cai: M2
# (4, the shared win), M3 (-5, won: Math Attack! totals). Dee: M4 0. The guest: M3 -8.
S1_ROWS = [
    #    id     name      group     game             games wins points  chk right seconds
    Row("S03", "Cai", "Blue", "math-arena", 1, 1, F(4), 10, 9, 900.0, S1),
    Row("S03", "Cai", "Blue", "math-attack", 1, 1, F(-5), 0, 0, 300.0, S1),
    Row("S04", "Dee", "Blue", "math-arena", 1, 0, F(0), 3, 3, 450.0, S1),
    Row("S01", "Ana M.", "Red", "mathe-meister", 1, 1, F(31), 7, 5, 600.0, S1),
    Row("S01", "Ana M.", "Red", "math-arena", 2, 2, F(15, 2), 14, 11, 1350.0, S1),
    Row("S02", "Ben", "Red", "mathe-meister", 1, 0, F(24), 6, 6, 600.0, S1),
    Row("S02", "Ben", "Red", "math-arena", 1, 0, F(1), 4, 2, 450.0, S1),
    Row("", "Player 2", "guests", "math-attack", 1, 0, F(-8), 0, 0, 300.0, S1),
]
# Groups: each game once. Red played M1, M2, M4 (600 + 900 + 450 s) and won all three;
# Blue played M2, M3, M4 (900 + 300 + 450 s) and won M2 and M3.
S1_GROUPS = [
    GroupTotal("Blue", 2, 3, 2, F(4 - 5 + 0), 13, 12, 1650.0),
    GroupTotal("Red", 2, 3, 3, F(31) + F(15, 2) + 24 + 1, 31, 24, 1950.0),
    GroupTotal("guests", 1, 1, 0, F(-8), 0, 0, 300.0),
]
S1_CSV = (
    "session,group,student_id,name,game,games,wins,points,points_exact,answers,checked,right,"
    "minutes\r\n"
    "2025-03-14,Blue,S03,Cai,math-arena,1,1,4,4,values,10,9,15.0\r\n"
    "2025-03-14,Blue,S03,Cai,math-attack,1,1,-5,-5,answers,0,0,5.0\r\n"
    "2025-03-14,Blue,S04,Dee,math-arena,1,0,0,0,values,3,3,7.5\r\n"
    "2025-03-14,Red,S01,Ana M.,mathe-meister,1,1,31,31,sums,7,5,10.0\r\n"
    "2025-03-14,Red,S01,Ana M.,math-arena,2,2,7.5,15/2,values,14,11,22.5\r\n"
    "2025-03-14,Red,S02,Ben,mathe-meister,1,0,24,24,sums,6,6,10.0\r\n"
    "2025-03-14,Red,S02,Ben,math-arena,1,0,1,1,values,4,2,7.5\r\n"
    "2025-03-14,guests,,Player 2,math-attack,1,0,-8,-8,answers,0,0,5.0\r\n"
)


@pytest.fixture(scope="module")
def lesson(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder holding the lesson's journal (read only: copy it to change it)."""
    folder = tmp_path_factory.mktemp("lesson")
    build(folder)
    return folder


@pytest.fixture
def journal(lesson: Path):
    j = Journal(lesson / FILE_NAME)
    yield j
    j.close()


def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    done = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


# -- the figures ---------------------------------------------------------------------------


def test_report_sessions_are_those_with_people_newest_first(journal: Journal) -> None:
    assert sessions(journal) == [S1, S2]


def test_report_rows_of_a_session_are_the_hand_computed_ones(journal: Journal) -> None:
    rows = gather(journal, S1)
    assert rows == S1_ROWS
    # what made them: the draw's two winners, and each row's games
    ana_arena = rows[4]
    assert sorted(p.won for p in ana_arena.plays) == [True, True]
    assert [p.seconds for p in ana_arena.plays] == [900.0, 450.0]


def test_report_leaves_out_bots_unfinished_abandoned_and_seatless_games(journal: Journal) -> None:
    rows = gather(journal, S1)
    assert "Bot 3" not in {r.name for r in rows}
    assert not [r for r in rows if r.game == "mecs"]  # M5 was abandoned
    # M6 (still playing) would add a Mathe-Meister game to Ana and Ben
    assert [r.games for r in rows if r.game == "mathe-meister"] == [1, 1]
    assert [r.game for r in gather(journal, S2)] == ["math-wars-meta", "math-wars-meta"]


def test_report_group_totals_count_each_game_once(journal: Journal) -> None:
    assert group_totals(gather(journal, S1)) == S1_GROUPS


def test_report_every_session_together(journal: Journal) -> None:
    rows = gather(journal)
    assert {r.session for r in rows} == {"all"}
    assert len(rows) == len(S1_ROWS) + 2
    ana = [r for r in rows if r.student == "S01"]
    assert [(r.game, r.games, r.wins, r.points, r.checked, r.right, r.seconds) for r in ana] == [
        ("mathe-meister", 1, 1, F(31), 7, 5, 600.0),
        ("math-wars-meta", 1, 1, F(4), 12, 10, 1200.0),
        ("math-arena", 2, 2, F(15, 2), 14, 11, 1350.0),
    ]
    eve = [r for r in rows if r.student == "S05"]
    assert eve == [Row("S05", "Eve", "Green", "math-wars-meta", 1, 0, F(2), 12, 7, 1200.0)]
    totals = {t.group: t for t in group_totals(rows)}
    assert totals["Red"] == GroupTotal("Red", 2, 4, 4, F(127, 2) + 4, 43, 34, 3150.0)
    assert list(totals) == ["Blue", "Green", "Red", "guests"]


def test_report_a_student_in_two_groups_a_guest_and_no_group(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    match = Match(GAMES["math-attack"], default_settings("math-attack"), 2, seed=3)
    seats = [SeatInfo(0, "Zoe", "S09", "Red"), SeatInfo(1, "Player 2")]
    first = journal.start(match, seats=seats, session="x", meta={"checks": [[2, 1]]})
    journal.finish(first, {"scores": ["3", "1/3"], "places": [1, 2], "winners": [0]})
    seats = [SeatInfo(0, "Zoe", "S09", "Blue"), SeatInfo(1, "Yan", "S08")]
    second = journal.start(match, seats=seats, session="x")  # no answers checked
    journal.finish(second, {"scores": ["0", "2"], "places": [2, 1]}, reason="time")
    rows = gather(journal, "x")
    assert [(r.name, r.group, r.wins, r.points, r.checked, r.right) for r in rows] == [
        ("Zoe", "Blue", 0, F(0), 0, 0),
        ("Zoe", "Red", 1, F(3), 2, 1),
        ("Yan", "no group", 1, F(2), 0, 0),  # no "winners": place 1 wins
        ("Player 2", "guests", 0, F(1, 3), 0, 0),
    ]
    journal.close()


# -- numbers and the CSV ---------------------------------------------------------------------


def test_report_numbers_as_text() -> None:
    assert decimal_text(F(7, 2)) == "3.5"
    assert decimal_text(F(1, 3)) == "0.33"
    assert decimal_text(F(2, 3)) == "0.67"
    assert decimal_text(F(-5)) == "-5"
    assert decimal_text(F(1, 200)) == "0.01"  # half rounds up
    assert decimal_text(F(-1, 1000)) == "0"
    assert minutes(1350) == "22.5"
    assert minutes(0) == "0.0"
    assert minutes(3) == "0.1"  # 0.05 rounds up
    assert minutes(59.9) == "1.0"


def test_report_csv_header_and_rows(journal: Journal) -> None:
    text = csv_text(gather(journal, S1))
    assert text == S1_CSV
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert tuple(parsed[0]) == CSV_COLUMNS
    assert len(parsed) == len(S1_ROWS)


def test_report_csv_file_has_a_byte_order_mark_for_spreadsheets(
    journal: Journal, tmp_path: Path
) -> None:
    out = tmp_path / "r.csv"  # its folder is there: write_csv makes none (round 28)
    write_csv(gather(journal, S1), out)
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data[3:].decode("utf-8") == S1_CSV
    stream = io.StringIO()
    write_csv(gather(journal, S1), stream)
    assert stream.getvalue() == S1_CSV


def test_report_file_names_are_safe() -> None:
    assert file_stem(S1) == "report-2025-03-14"
    assert file_stem(None) == "report-all"
    assert file_stem("rotation: Tue 3/4") == "report-rotation-Tue-3-4"
    assert file_stem("") == "report-no-session"


# -- the PDF ---------------------------------------------------------------------------------


def test_report_pdf_has_a_summary_and_a_page_per_group(journal: Journal, tmp_path: Path) -> None:
    rows = gather(journal, S1)
    for paper in ("a4", "letter"):
        pdf = report_pdf(rows, session=S1, paper=paper, made="2025-03-14 15:00")
        assert pdf.pages_count == 1 + 3
    csv_path, pdf_path = save_report(rows, tmp_path / "stick", session=S1)
    assert csv_path.name == "report-2025-03-14.csv" and pdf_path.name == "report-2025-03-14.pdf"
    text = pdf_text(pdf_path)
    pages = text.split("\f")
    assert "Class report: 2025-03-14" in pages[0] and "Every group" in pages[0]
    summary = " ".join(pages[0].split())
    assert "Group Blue 2 3 2 — 12 of 13 27.5"  # two games: not added in summary
    assert "Group Red 2 3 3 — 24 of 31 32.5" in summary
    assert "Guests 1 1 0 -8 0 of 0 5.0" in summary
    assert "Group Blue" in pages[1] and "Group Red" in pages[2] and "Guests" in pages[3]
    red = " ".join(pages[2].split())
    assert "Ana M. Math Arena 2 2 7.5 11 of 14 22.5" in red
    assert "Total 3 3 — 24 of 31 32.5" in red
    assert "Points in Mathe-Meister" in red and "16 of 21" in red  # Ana's answers chart


def test_report_pdf_of_no_games_says_so(tmp_path: Path) -> None:
    pdf = report_pdf([], session="2025-01-01", made="")
    assert pdf.pages_count == 1
    out = tmp_path / "empty.pdf"
    out.write_bytes(bytes(pdf.output()))
    assert "No finished games in this session." in pdf_text(out)


# -- the command -----------------------------------------------------------------------------


def test_report_cli_writes_both_files_here_by_default(
    lesson: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--data", str(lesson)]) == 0  # the newest session
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "wrote report-2025-03-14.csv (8 rows, 2025-03-14)",
        "wrote report-2025-03-14.pdf (4 pages, 3 groups, A4)",
    ]
    assert (tmp_path / "report-2025-03-14.csv").read_bytes()[3:].decode() == S1_CSV
    assert (tmp_path / "report-2025-03-14.pdf").read_bytes().startswith(b"%PDF")


def test_report_cli_one_file_another_session_and_all(
    lesson: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "s2.csv"
    assert main(["report", "--data", str(lesson), "--session", S2, "--csv", str(out)]) == 0
    lines = out.read_bytes()[3:].decode().splitlines()
    assert lines[1:] == [
        "2025-03-13,Green,S05,Eve,math-wars-meta,1,0,2,2,solutions,12,7,20.0",
        "2025-03-13,Red,S01,Ana M.,math-wars-meta,1,1,4,4,solutions,12,10,20.0",
    ]
    assert not (tmp_path / "report-2025-03-13.pdf").exists()
    pdf = tmp_path / "all.pdf"
    args = ["report", "--data", str(lesson), "--all", "--pdf", str(pdf), "--paper", "letter"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (f"wrote {pdf} (5 pages, 4 groups, LETTER)")


def test_report_cli_an_unknown_session_lists_the_sessions(
    lesson: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    args = ["report", "--data", str(lesson), "--session", "2024-01-01", "--csv", "x.csv"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == (
        "tabletop report: no games in session '2024-01-01'; sessions: 2025-03-14, 2025-03-13\n"
    )


def test_report_cli_no_games_is_one_line_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """No games to report: the files asked for (named, or by default) are not written,
    so exit status 2 and one line on stderr, as the CLI contract has it for every file
    not made (main, up to round 28: one line on stdout and status 0, so a script took
    a PDF for made)."""
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    why = "nothing written (play a game first, or give --data the folder the app saves in)"
    for asked in ([], ["--all", "--pdf", "r.pdf"]):
        assert main(["report", "--data", str(data), *asked]) == 2
        said = capsys.readouterr()
        assert (
            said.out == "" and said.err == f"tabletop report: no games saved in {data} yet: {why}\n"
        )
    Journal(data / FILE_NAME).close()  # a journal with no finished games
    for asked in ([], ["--all", "--pdf", "r.pdf"]):
        assert main(["report", "--data", str(data), *asked]) == 2
        said = capsys.readouterr()
        assert said.out == ""
        assert said.err == f"tabletop report: no finished games in {data / FILE_NAME} yet: {why}\n"
    assert not list(tmp_path.glob("*.pdf")) and not list(tmp_path.glob("*.csv"))
    assert main(["report", "--data", str(data), "--session", S1]) == 2
    assert "sessions: none yet" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert main(["report", "--data", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"tabletop report: no folder {tmp_path / 'nowhere'}\n"


def test_report_cli_a_file_that_cannot_be_written_is_one_line(
    lesson: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    args = ["report", "--data", str(lesson), "--csv", str(blocker / "r.csv")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tabletop report: cannot write {blocker / 'r.csv'}: ")
    assert err.count("\n") == 1


def test_report_left_out_names_the_station_once() -> None:
    """A station's game left out says "from station-1", not "from station station-1"."""
    game = LeftOut(4, "mecs", "2025-03-14", "fleet:station-1", why="a score is unreadable")
    assert game.sentence() == (
        "game 4 (M.E.C.S., 2025-03-14, from station-1) is left out: a score is unreadable"
    )
    here = LeftOut(5, "mecs", "2025-03-14", "app", hidden=True)
    assert here.sentence() == "game 5 (M.E.C.S., 2025-03-14) is hidden by the teacher"


def one_answer_each(
    journal: Journal,
    seats: list[tuple[str, str, str]],
    session: str,
    given: int,
    result: dict[str, Any],
    checks: list[list[int]] | None = None,
) -> None:
    """A finished Math Arena game of ``seats`` (name, id, group), each of whom answered
    7 x 8 once with ``given``."""
    from tabletop.classroom.mistakes import question
    from tabletop.classroom.skills import answer_record

    match = Match(GAMES["math-arena"], default_settings("math-arena"), len(seats), seed=1)
    at = [SeatInfo(i, *seat) for i, seat in enumerate(seats)]
    m = journal.start(match, label="app", seats=at, session=session, meta={"checks": checks or []})
    mul = question("multiplication", [7, 8], "x")
    journal.add_answers(m, [answer_record(i, i, mul, given) for i in range(len(seats))])
    journal.finish(m, result)


def test_report_pdf_tells_two_children_of_one_name_apart(tmp_path: Path) -> None:
    """Two "Mia" (groups 4a and 4b) and two "Leo" in 4a: on 4a's page the Leos carry their
    ids (their group is one), the Mias their name alone; the skills grid, every group in
    one table, shows "Mia (4a)" and "Mia (4b)" (``students.shown_names``); the mistakes
    say "Leo (S3)". The CSV keeps its columns: its student_id and group tell them apart
    (main: four rows "Mia" and "Leo" alike on the pages and in the grid)."""
    from tabletop.classroom.skills import skills_pages

    journal = Journal(tmp_path / FILE_NAME)
    seats = [("Mia", "S1", "4a"), ("Mia", "S2", "4b"), ("Leo", "S3", "4a"), ("Leo", "S4", "4a")]
    result = {"scores": ["1", "2", "3", "4"], "places": [4, 3, 2, 1]}
    one_answer_each(journal, seats, "x", 15, result, checks=[[1, 1]] * 4)
    rows = gather(journal, "x")
    pdf = report_pdf(rows, session="x", made="", skills=skills_pages(journal, "x"))
    write_pdf(pdf, tmp_path / "r.pdf")
    pages = pdf_text(tmp_path / "r.pdf").split("\f")
    four_a = " ".join(" ".join(p.split()) for p in pages if "Group 4a" in p.split("\n")[0])
    assert "Leo (S3) Math Arena 1 0 3" in four_a and "Leo (S4) Math Arena 1 1 4" in four_a
    assert "Mia Math Arena 1 0 1" in four_a and "Mia (" not in four_a
    skills = " ".join(" ".join(p.split()) for p in pages if "Skills" in p.split("\n")[0])
    assert "Mia (4a)" in skills and "Mia (4b)" in skills
    assert "Leo (S3) (Group 4a)" in skills and "Mia (Group 4b)" in skills
    assert [(r[2], r[3], r[1]) for r in csv.reader(io.StringIO(csv_text(rows)))][1:] == [
        ("S3", "Leo", "4a"),
        ("S4", "Leo", "4a"),
        ("S1", "Mia", "4a"),
        ("S2", "Mia", "4b"),
    ]
    journal.close()


def test_report_points_are_not_added_across_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 item 5: points are in each game's own unit, so a total over different
    games is "—" (the old report added 1844 Mathe-Meister points to 5 VICTORY! cards, 9
    coins and 0 operator cards: "1858"); one game's points still add up, and every
    student's points in each game are printed."""
    from tests.printables.drawn import recording
    from tests.printables.test_printables_fit import LONG_ROWS

    totals = {t.group: t for t in group_totals(LONG_ROWS)}
    assert {g: t.points_text for g, t in totals.items()} == {
        "4a": "3",
        "4b": "—",
        "Hedgehogs class 4a": "—",
    }
    assert totals["4b"].points == 1844 + 5 + 9 + 0 + 1234  # kept, for one game's use
    with recording(monkeypatch) as drawn:
        report_pdf(LONG_ROWS, session="2026-11-26", made="")
    cells = [d.text for d in drawn if d.kind == "text"]
    assert cells.count("—") == 4  # two groups, in the summary and in their own table
    assert not {"1858", "3092", "-51.5"} & set(cells)
    assert {"1844", "5", "9", "0", "-56", "4.5", "3", "1234"} <= set(cells)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_report_long_names_wrap_at_a_size_a_teacher_reads(
    paper: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 6: a long name (or group) in a table or a chart takes two or three
    lines at 9 pt or more (the old report shrank "Bartholomew Featherstonehaugh-Smythe"
    to 3.5 pt on one line); no two texts on a page run into each other."""
    from tests.printables.drawn import recording
    from tests.printables.test_printables_fit import LONG_ROWS

    with recording(monkeypatch) as drawn:
        report_pdf(LONG_ROWS, session="2026-11-26", paper=paper, made="")
    texts = [d for d in drawn if d.kind == "text"]
    assert min(d.size for d in texts) >= 9
    assert not [
        (a.text, b.text) for i, a in enumerate(texts) for b in texts[i + 1 :] if a.overlaps(b)
    ]
    lines = [d.text for d in texts]
    for name in ("Bartholomew", "Featherstonehaugh-", "Maximiliane", "Wolkenstein-Rodeneck"):
        assert lines.count(name) >= 3  # in the table and in the charts


def test_report_each_name_is_imported_from_the_module_it_lives_in() -> None:
    """Round 29: report.py's ``__all__`` said report_rows' and report_pdf's names again
    (re-exported); each is now imported from its own module, by every user too."""
    from tabletop.classroom import report, report_pdf, report_rows

    elsewhere = set(report_rows.__all__) | set(report_pdf.__all__)
    assert not set(report.__all__) & elsewhere
    root = Path(__file__).resolve().parents[2]
    for path in [*root.glob("tabletop/**/*.py"), *root.glob("tests/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "tabletop.classroom.report":
                assert not {a.name for a in node.names} & elsewhere, path
