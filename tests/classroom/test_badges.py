"""Issue 10: the badge PDF, read back through the device's own card reader.

``tabletop print badges ROSTER.csv`` makes the PDF; pdftoppm renders it at 150 dpi; each
page is cut into its nine badges, and every badge must read as ``MT1:ID:<id>`` with
:func:`vision.cards.read_cards`, the reader the sign-in screen's camera uses.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop import cli
from tabletop.classroom.students import read_roster
from tabletop.printables import pdf as pdfs
from vision.cards import CardCode, read_cards

DPI = 150
# Eleven students: two pages, ids using every character an id may have, long names.
ROSTER = """id,name,group
S1,Ada Lovelace,Red
S2,Alan Turing,Red
S3,Grace Hopper,Blue
S10,Katherine Johnson-Goble,Blue
A-7,Émilie du Châtelet,Green
B.8,Zoë,Green
C/9,Nguyễn Thị Ánh,Green
D+10,Mary Somerville,Yellow
E%11,Srinivasa Ramanujan Iyengar,Yellow
F$12,Hypatia,
G*13,Maryam Mirzakhani,Yellow
"""


def render(pdf: Path, out: Path) -> list[np.ndarray]:
    subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(out / "page")],
        check=True,
        capture_output=True,
    )
    return [cv2.imread(str(p)) for p in sorted(out.glob("page*.png"))]


def cut(page: np.ndarray, paper: str = "a4") -> list[np.ndarray]:
    """The nine badge positions of a page, as images."""
    slots, _, _ = pdfs.card_slots(paper)
    px = DPI / 25.4
    pieces = []
    for x, y in slots:
        x0, y0 = round(x * px), round(y * px)
        x1, y1 = round((x + pdfs.CARD_W) * px), round((y + pdfs.CARD_H) * px)
        pieces.append(page[y0:y1, x0:x1])
    return pieces


def needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        shutil.which(tool) is None,
        reason=f"{tool} (poppler-utils) is missing: apt-get install poppler-utils",
    )


def printed_badges(tmp_path: Path, text: str) -> Path:
    """``tabletop print badges`` of the class list ``text``: the PDF."""
    roster = tmp_path / "class.csv"
    roster.write_text(text, encoding="utf-8")
    pdf = tmp_path / "badges.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(pdf)]) == 0
    return pdf


@needs("pdftoppm")
def test_badges_pdf_reads_back_through_the_card_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = printed_badges(tmp_path, ROSTER)
    assert "11 badges" in capsys.readouterr().out
    students = read_roster(ROSTER)
    pages = render(pdf, tmp_path)
    assert len(pages) == 2
    badges = [piece for page in pages for piece in cut(page)]
    found: dict[str, str] = {}
    for i, student in enumerate(students):
        codes = [seen for seen in read_cards(badges[i]) if seen.card is not None]
        assert [c.payload for c in codes] == [f"MT1:ID:{student.id}"], f"badge {i}"
        assert codes[0].card == CardCode("ID", student.id)
        found[student.id] = codes[0].payload
    # the empty places on the last page hold no code
    assert all(not read_cards(piece) for piece in badges[len(students) :])
    assert set(found) == {s.id for s in students}


def test_print_badges_reads_a_spreadsheets_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Semicolons and Windows-1252, as a spreadsheet saves them; a file that is not
    text is one line on stderr and exit status 2."""
    roster = tmp_path / "class.csv"
    roster.write_bytes("ID;Name;Group\r\nS1;José Núñez;Grün\r\n".encode("cp1252"))
    out = tmp_path / "b.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "(1 badge, A4)" in capsys.readouterr().out
    roster.write_bytes(b"PK\x03\x04\x00\x81\x8d")
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"tabletop print: {roster} is not a text file. "
        'Save it from the spreadsheet as "CSV UTF-8" and try again'
    ]


def test_print_badges_refuses_a_cell_past_the_csv_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25 item 9: a class-list cell over 131,072 characters is one line and exit
    status 2 (the old main: a ``_csv.Error`` traceback), quoted or not."""
    roster = tmp_path / "class.csv"
    out = tmp_path / "b.pdf"
    for text in (
        "id,name\nS1,Ann\nS2," + "x" * 140_000 + "\n",
        'S1,"' + "x" * 140_000 + "\nS2,Bo\n",
    ):
        roster.write_text(text, encoding="utf-8")
        assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith("tabletop print: line ")
        assert err[0].endswith(
            ": a cell is longer than 131,072 characters: this is not a class list. "
            "Fix the file and try again"
        )
    assert not out.exists()


def test_print_badges_refuses_a_list_of_names_without_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``name,group`` list is a class list now, but a badge needs the id the device
    makes up on import: one line on stderr saying so, exit status 2, no PDF."""
    roster = tmp_path / "names.csv"
    roster.write_text("name,group\nAda,Red\n", encoding="utf-8")
    out = tmp_path / "b.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"tabletop print: {roster} has no ids: import it into the class list first, then "
        "print badges from the list saved by the device or the dashboard"
    ]
    assert not out.exists()


def test_print_badges_two_columns_of_ids_without_digits_say_how_they_were_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ADA,Ada`` without a header is read as a name and a group (ids have digits): the
    refusal says so and what to do, so a teacher with such ids knows to add the header."""
    roster = tmp_path / "ids.csv"
    roster.write_text("ADA,Ada\nBO,Bo\n", encoding="utf-8")
    out = tmp_path / "b.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.endswith(
        "the dashboard. The first column has no ids, so the file was read as name and "
        "group (ADA in group Ada). If the first column is the id, put the line id,name,group "
        "at the top of the file and try again."
    )
    roster.write_text("id,name\nADA,Ada\nBO,Bo\n", encoding="utf-8")
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 0
    assert out.exists()


def test_print_badges_refuses_names_and_ids_mixed_in_column_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``Anna2`` (it could be an id) among names, no header:
    one line saying which first line settles it,
    exit status 2, no PDF (r22-int: "line 3: id 'Anna 2' may use only letters...")."""
    roster = tmp_path / "class.csv"
    roster.write_text("Zoe,4b\nMax,4b\nAnna2,4b\n", encoding="utf-8")
    out = tmp_path / "b.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tabletop print: column 1 looks like names on some lines and ids on others: put "
        "name,group or id,name as the file's first line and try again"
    ]
    assert not out.exists()


@needs("pdftotext")
def test_badges_tell_two_children_of_one_name_apart(tmp_path: Path) -> None:
    """Two Mia Jones, in 4a and 4b: each badge's big name says which, as the device's
    sign-in does (``shown_names``), so each child takes her own; Ben, with no namesake, is
    just Ben (r19-int: both badges said "Mia Jones"). The name is not repeated in the
    corner (issue 27 item 7: a long one printed there at 4 pt)."""
    pdf = printed_badges(tmp_path, "id,name,group\nS1,Mia Jones,4a\nS2,Mia Jones,4b\nS3,Ben,4a\n")
    slots, _, _ = pdfs.card_slots("a4")

    def printed(x: float, y: float, w: float, h: float) -> str:
        """The text inside this box of page 1 (mm)."""
        box = [round(v * 72 / 25.4) for v in (x, y, w, h)]
        args = [a for k, v in zip("xyWH", box, strict=True) for a in (f"-{k}", str(v))]
        run = subprocess.run(["pdftotext", "-r", "72", *args, str(pdf), "-"], capture_output=True)
        return " ".join(run.stdout.decode().split())

    names = ["Mia Jones (4a)", "Mia Jones (4b)", "Ben"]
    assert [printed(x + 2, y + 2, pdfs.CARD_W - 4, 22) for x, y in slots[:3]] == names
    corner = (pdfs.CARD_W - 16, pdfs.CARD_H - 8, 15, 7)
    assert [printed(x + corner[0], y + corner[1], *corner[2:]) for x, y in slots[:3]] == [""] * 3


def test_print_badges_refuses_a_name_with_an_unquoted_comma(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``S1,Müller, Zoë,4a`` under ``id,name,group``: one line on stderr naming the line
    and saying to quote the name, exit status 2, no PDF (main: a badge for "Müller" of
    group "Zoë", exit 0)."""
    roster = tmp_path / "comma.csv"
    roster.write_text("id,name,group\nS1,Müller, Zoë,4a\n", encoding="utf-8")
    out = tmp_path / "b.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "tabletop print: line 2: 4 cells but the header has 3: a name with a comma needs quotes"
        ' ("Müller, Zoë"). Fix the file and try again'
    ]
    assert not out.exists()
