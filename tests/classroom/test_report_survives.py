"""Reports never break (issue 25, item 3) and exported CSVs run no formulas (item 6).

A stored result the report cannot take (as a station, an old version or a hand edit could
leave it) is left out with a sentence naming it, in the CLI, the PDF and the dashboard
(tests/teacher/test_report_api.py); the teacher can hide a result, journaled and never
deleted. Every CSV the project writes quotes cells a spreadsheet would run.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.classroom.report import csv_text
from tabletop.classroom.report_rows import decimal_text, gather, minutes
from tabletop.cli import main
from tabletop.engine.errors import BadInput
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.selfplay import default_settings
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tests.classroom.test_report import pdf_text

F = Fraction

POISON = {  # a stored result the report cannot take -> what the warning says about it
    "checks": "its answers checked [Infinity, 1] are not counts",
    "scores": 'a score "1e30" is not an exact number in range',
    "elapsed": "its time played Infinity seconds is out of range",
    "nested": "its result cannot be read",
}


def poisoned(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """A journal with one good finished game and one per kind of stored result that
    cannot be reported (as a station or a hand edit could leave them); their ids."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    match = Match(GAMES["math-attack"], default_settings("math-attack"), 2, seed=3)
    ids: dict[str, int] = {}
    for kind in ("good", *POISON):
        seats = [SeatInfo(0, "Zoe", "S09", "Red"), SeatInfo(1, '=HYPERLINK("x")')]
        checks = [[1e999, 1]] if kind == "checks" else [[3, 2]]
        match_id = journal.start(match, seats=seats, session="x", meta={"checks": checks})
        scores = ["1e30", "0"] if kind == "scores" else ["-3", "7/2"]
        journal.finish(match_id, {"scores": scores, "places": [2, 1], "winners": [1]})
        ids[kind] = match_id
    with journal.transaction() as db:
        db.execute("UPDATE matches SET elapsed = 1e999 WHERE id = ?", (ids["elapsed"],))
        db.execute("UPDATE matches SET elapsed = 60 WHERE id != ?", (ids["elapsed"],))
        nested = '{"scores": ' + "[" * 100_000 + "]" * 100_000 + "}"
        db.execute("UPDATE matches SET result = ? WHERE id = ?", (nested, ids["nested"]))
    journal.close()
    return path, ids


def test_report_a_stored_result_that_cannot_be_reported_is_left_out_named(
    tmp_path: Path,
) -> None:
    """Item 3: ``"checks": [[1e999, 1]]`` (OverflowError on main), ``"scores": ["1e30",
    "0"]`` (decimal.InvalidOperation on main), an infinite time and a result nested
    100,000 deep: each is left out with a sentence naming it; the rest is reported."""
    from tabletop.classroom.report_rows import read_report

    path, ids = poisoned(tmp_path)
    journal = Journal(path)
    rows = gather(journal, "x")  # main: OverflowError
    found = read_report(journal, "x")
    assert found.rows == rows
    assert [(r.name, r.games, r.points, r.checked, r.right) for r in rows] == [
        ("Zoe", 1, F(-3), 3, 2),
        ('=HYPERLINK("x")', 1, F(7, 2), 0, 0),
    ]
    assert [(g.match, g.why) for g in found.left_out] == [
        (ids[kind], why) for kind, why in POISON.items()
    ]
    assert found.warnings()[0] == (
        f"game {ids['checks']} (Math Attack!, x) is left out: {POISON['checks']}"
    )
    assert gather(journal, None) == [dataclasses.replace(r, session="all") for r in found.rows]
    journal.close()


def test_report_cli_and_pdf_name_the_games_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ids = poisoned(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--data", str(tmp_path)]) == 0  # main: a traceback
    out, err = capsys.readouterr()
    assert "wrote report-x.csv (2 rows, x)" in out
    assert err.splitlines() == [
        f"tabletop report: game {ids[kind]} (Math Attack!, x) is left out: {why}"
        for kind, why in POISON.items()
    ]
    text = " ".join(pdf_text(tmp_path / "report-x.pdf").split())
    assert "Games left out of this report" in text
    assert f"Game {ids['scores']} (Math Attack!, x) is left out" in text


def test_report_numbers_of_any_size_as_text() -> None:
    assert decimal_text(F(10**30)) == "1" + "0" * 30
    assert decimal_text(F(-(10**40) - 1, 3)) == "-" + "3" * 40 + ".67"
    assert minutes(float("inf")) == "?"


def test_report_a_hidden_result_is_journaled_and_left_out_until_shown_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop.classroom.report import NOTHING
    from tabletop.classroom.report_rows import hidden_matches, hide, read_report

    path, ids = poisoned(tmp_path)
    journal = Journal(path)
    hide(journal, ids["scores"], why="a station's bad result")
    hide(journal, ids["good"])
    found = read_report(journal, "x")
    assert found.rows == [] and [g.match for g in found.hidden] == [ids["good"], ids["scores"]]
    assert (
        found.hidden[0].sentence()
        == f"game {ids['good']} (Math Attack!, x) is hidden by the teacher"
    )
    assert POISON["scores"] not in found.warnings()  # hidden: no more warning about it
    journal.close()
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--data", str(tmp_path)]) == 2  # the CLI honours it too
    out, err = capsys.readouterr()  # nothing left to report: nothing written, status 2
    assert (
        out == ""
        and f"hidden by the teacher: game {ids['good']}, {ids['scores']}" in err
        and err.endswith(f"no finished games in {path} yet: {NOTHING}\n")
    )
    journal = Journal(path)
    hide(journal, ids["good"], hidden=False)
    assert [r.games for r in gather(journal, "x")] == [1, 1]
    assert hidden_matches(journal) == {ids["scores"]}
    rows = journal.db.execute("SELECT match_id, hidden FROM result_visibility ORDER BY id")
    assert rows.fetchall() == [(ids["scores"], 1), (ids["good"], 1), (ids["good"], 0)]
    assert journal.db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 5  # none deleted
    with pytest.raises(BadInput, match="no finished game number 99"):
        hide(journal, 99)
    journal.close()


# -- spreadsheet formulas (issue 25, item 6) ---------------------------------------------------


def test_report_csv_cells_that_a_spreadsheet_would_run_get_a_quote(tmp_path: Path) -> None:
    """Item 6: a name such as ``=HYPERLINK("x")`` is written ``'=HYPERLINK("x")``; plain
    numbers (``-3``) stay numbers; the report rows keep the name as typed."""
    journal = Journal(tmp_path / FILE_NAME)
    match = Match(GAMES["math-attack"], default_settings("math-attack"), 2, seed=3)
    seats = [SeatInfo(0, "Zoe", "S09", "Red"), SeatInfo(1, '=HYPERLINK("x")')]
    match_id = journal.start(match, seats=seats, session="x", meta={"checks": [[3, 2]]})
    journal.finish(match_id, {"scores": ["-3", "7/2"], "places": [2, 1], "winners": [1]})
    rows = gather(journal, "x")
    journal.close()
    assert rows[1].name == '=HYPERLINK("x")'
    parsed = list(csv.reader(io.StringIO(csv_text(rows))))
    assert parsed[1][3:9] == ["Zoe", "math-attack", "1", "0", "-3", "-3"]
    assert parsed[2][3] == '\'=HYPERLINK("x")'
    assert parsed[2][7:9] == ["3.5", "7/2"]


FORMULAS = ['=HYPERLINK("http://x.example","Ann")', "=cmd|' /C calc'!A0", "@SUM(1+1)"]


def test_csv_cells_follow_the_owasp_rule() -> None:
    """Cells beginning = + - @ tab or CR get a leading quote; a plain number stays."""
    from tabletop.csvsafe import cell, unescape

    for text in [*FORMULAS, "+1+1", "-1+1", "-7/2", "\t=1", "\r=1", "=", "-"]:
        assert cell(text) == "'" + text and unescape(cell(text)) == text
    for same in ["Ana", "", "-3", "-2.5", "12", "3.5", "O'Neil", "'quoted", 7, -3, None]:
        assert cell(same) == same
    assert unescape("'quoted") == "'quoted"  # a quote that was typed stays


def test_roster_csv_quotes_formulas_and_reads_them_back_as_typed() -> None:
    """Item 6: the class list as CSV (``/roster.csv``, the USB export) runs no formula;
    imported again, every name is as typed."""
    from tabletop.classroom.roster import Roster

    roster = Roster(Journal(":memory:"))
    for name in FORMULAS:
        roster.add(name, "-Red")
    rows = list(csv.reader(io.StringIO(roster.csv_text())))
    assert sorted(r[1] for r in rows[1:]) == sorted("'" + n for n in FORMULAS)
    assert {r[2] for r in rows[1:]} == {"'-Red"}
    again = Roster(Journal(":memory:"))
    again.import_csv(roster.csv_text())
    assert again.students() == roster.students()
    assert sorted(s.name for s in again.students()) == sorted(FORMULAS)


def test_every_csv_writer_goes_through_the_safe_writer() -> None:
    """Every place in the project that writes CSV uses tabletop.csvsafe (grep)."""
    repo = Path(__file__).resolve().parents[2]
    sources = [
        p
        for top in ("tabletop", "vision", "tools", "scripts", "hardware")
        for p in (repo / top).rglob("*.py")
    ]
    assert len(sources) > 100
    writers = [
        p.relative_to(repo).as_posix()
        for p in sources
        if p.name != "csvsafe.py"
        and any(w in p.read_text(encoding="utf-8") for w in ("csv.writer(", "DictWriter"))
    ]
    assert writers == []
