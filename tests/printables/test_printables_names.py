"""Every child's name prints, whatever its letters (round 28): Chinese and full-width
names come from the fallback font the app shows them with; a letter no font here has is
refused in one line, never printed as a blank band."""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from fpdf import FPDF

from tabletop import cli
from tabletop.classroom.report_pdf import report_pdf
from tabletop.classroom.report_rows import LeftOut, Play, Row
from tabletop.classroom.students import Student
from tabletop.engine.errors import BadInput
from tabletop.printables import pdf as pdfs
from tabletop.printables.badges import badges_pdf
from tests.printables.drawn import recording

WIDE = "Ｗｗｗｗ Ｗｉｄｅ"  # full-width letters, as a phone's keyboard may type them
NAMES = [Student("S1", "李小龙", "4a"), Student("S2", WIDE, "4a"), Student("S3", "Zoé", "4a")]

needs_fallback = pytest.mark.skipif(
    not pdfs.FALLBACK_FILE.is_file() or shutil.which("pdftotext") is None,
    reason="needs fonts-droid-fallback and poppler-utils (scripts/system-packages.sh test)",
)


def printed_text(doc: FPDF, tmp_path: Path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(bytes(doc.output()))
    run = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True)
    return run.stdout.decode()


@needs_fallback
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printables_badges_print_chinese_and_full_width_names(
    paper: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Main printed an empty name band for 李小龙 and for full-width letters (fpdf's
    "missing the following glyphs" the only sign)."""
    text = printed_text(badges_pdf(NAMES, paper), tmp_path)
    for student in NAMES:  # a name may take two lines
        assert "".join(student.name.split()) in "".join(text.split())
    assert "missing" not in caplog.text


@needs_fallback
def test_printables_report_prints_chinese_names_in_table_and_chart(tmp_path: Path) -> None:
    """The class report's table row and bar-chart label (main: both blank)."""
    rows = [
        Row(
            s.id,
            s.name,
            s.group,
            "math-arena",
            1,
            1,
            Fraction(3),
            10,
            7,
            600.0,
            "2026-11-26",
            (Play(1, 600.0, True),),
        )
        for s in NAMES
    ]
    text = printed_text(report_pdf(rows, session=None), tmp_path)
    assert text.count("李小龙") >= 3  # the table, the answers chart, the points chart
    assert "".join(text.split()).count("".join(WIDE.split())) >= 3


@needs_fallback
def test_printables_report_prints_chinese_in_a_left_out_games_sentence(tmp_path: Path) -> None:
    """The report's paragraphs (a game left out, from a station named in Chinese) are
    printed through the same check as names (main of round 28: blank, fpdf's "missing
    glyphs" the only sign, when no name had added the fallback font before them)."""
    gone = LeftOut(6, "math-arena", "", "fleet:教室一", why="its figures are damaged")
    text = printed_text(report_pdf([], session=None, left_out=[gone]), tmp_path)
    assert "教室一" in text


def test_printables_a_letter_no_font_has_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An Egyptian hieroglyph is in neither DejaVu nor the fallback: the badges are
    refused, naming the letter, rather than printed with a blank name (exit 2, no PDF)."""
    with pytest.raises(BadInput) as err:
        badges_pdf([Student("S1", "Mia 𓀀", "4a")])
    assert err.value.code == "print.glyph" and "U+13000" in err.value.message
    roster = tmp_path / "class.csv"
    roster.write_text("id,name,group\nS1,Mia 𓀀,4a\n", encoding="utf-8")
    out = tmp_path / "badges.pdf"
    assert cli.main(["print", "badges", str(roster), "--out", str(out)]) == 2
    err_text = capsys.readouterr().err
    assert err_text.count("\n") == 1 and "'Mia 𓀀'" in err_text and "class list" in err_text
    assert not out.exists()


ONE_WORD = [
    Student(f"S{i}", name, "4a")
    for i, name in enumerate(
        [
            "Wolfeschlegelsteinha Ng2",
            "Wolfeschlegelsteinhausenberg Ng3",
            "Wolfeschlegelsteinhausenbergerdorff Ng4",
            "W" * 40,  # MAX_NAME_LENGTH letters, the widest there are
            "Ｗ" * 20,
            "李" * 40,
        ]
    )
]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printables_badges_keep_one_word_names_in_the_band_and_readable(
    paper: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word too wide for the badge's band at 10 pt (half the band's least 20 pt) is
    broken inside it, with a hyphen, at the largest size that fits, rather than shrunk
    (main: "Wolfeschlegelsteinhausenbergerdorff" at about 5 pt, and 40 W's at 4 pt running
    out past the band's left edge). Every line lies inside the band, the name whole."""
    with recording(monkeypatch) as drawn:
        badges_pdf(ONE_WORD, paper)
    slots, _, _ = pdfs.card_slots(paper)
    band_h = 22.0
    for i, student in enumerate(ONE_WORD):
        x, y = slots[i]
        texts = [
            d
            for d in drawn
            if d.kind == "text"
            and d.page == 1
            and y <= (d.y0 + d.y1) / 2 <= y + 2 + band_h
            and x <= (d.x0 + d.x1) / 2 <= x + pdfs.CARD_W
        ]
        assert texts, student.name
        for d in texts:
            assert d.inside(x + 2, y + 2, x + pdfs.CARD_W - 2, y + 2 + band_h), (student.name, d)
            assert d.size >= 10, (student.name, d)
        printed = "".join(t.text.removesuffix("-") for t in texts)
        assert "".join(printed.split()) == "".join(student.name.split())


@needs_fallback
def test_printables_skills_pages_print_chinese_names(tmp_path: Path) -> None:
    """The skills grid and the mistakes list name each child (main: blank for these)."""
    from tests.classroom.test_skills import skills_report

    pages, grid = skills_report(tmp_path, [(s.name, s.id, s.group) for s in NAMES])
    text = "".join("".join(pages[grid - 1 :]).split())
    for student in NAMES:
        assert "".join(student.name.split()) in text
