"""Printed decks are the engines' decks, card for card; every printable renders."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from tabletop import cli
from tabletop.assets import mathe_meister_layout
from tabletop.classroom.students import read_roster
from tabletop.engine.errors import BadInput
from tabletop.games import math_arena, math_attack, math_wars_meta, mecs
from tabletop.games.mathe_meister import Layout
from tabletop.printables import pdf as pdfs
from tabletop.printables.decks import deck_faces
from tabletop.printables.mats import BOARD_IDS, seat_marker_ids
from tabletop.printables.sheet import sheet_pdf

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")


def test_math_attack_deck_is_the_54_card_pack() -> None:
    """ATK-1: 54 cards, each payload one the engine reads."""
    faces = deck_faces("math-attack")
    assert len(faces) == 54
    counts = Counter(f.payload.removeprefix("MT1:ATK:") for f in faces)
    assert counts == Counter(math_attack.COPIES)
    assert all(math_attack.parse_card(f.payload) is not None for f in faces)


def test_math_arena_deck_is_a_french_deck() -> None:
    """ARENA-1: 40 number cards and 12 court operators, each once."""
    faces = deck_faces("math-arena")
    assert len(faces) == 52 == len({f.payload for f in faces})
    courts = [f for f in faces if math_arena.is_operator(f.payload.removeprefix("MT1:ARENA:"))]
    assert len(courts) == 12
    assert all(("highest" in f.caption) != ("lowest" in f.caption) for f in courts)
    assert {f.caption.split(":")[0] for f in courts} == {"King", "Queen", "Jack"}


def test_mecs_deck_has_200_play_cards_and_20_objectives() -> None:
    """MECS-1 and MECS-7."""
    faces = deck_faces("mecs")
    codes = Counter(f.payload.removeprefix("MT1:MECS:") for f in faces)
    assert sum(codes.values()) == 220
    assert codes == Counter(dict(mecs.DECKS["advanced"])) + Counter(mecs.OBJECTIVE_CODES)
    assert codes["EQ"] == 20 and codes["7"] == 10 and codes["SQRT"] == 5


@pytest.mark.parametrize(("edition", "size"), [("MWM25", 25 + 40 + 4), ("MWM100", 100 + 40 + 5)])
def test_mwm_army_deck_matches_the_edition(edition: str, size: int) -> None:
    """MWM-1: COUNT META 1..25 or 1..100, 40 MATH CRATE cards, the Victory cards."""
    faces = deck_faces("math-wars-meta", edition, army=3)
    assert len(faces) == size
    parsed = [math_wars_meta.parse_code(f.payload, edition) for f in faces]
    assert {p.army for p in parsed if p.kind != "victory"} == {3}
    assert (
        Counter(p.kind for p in parsed)["victory"] == math_wars_meta.EDITIONS[edition].victory_cards
    )


def test_every_payload_fits_a_small_alphanumeric_qr() -> None:
    for game in ("math-attack", "math-arena", "mecs", "math-wars-meta"):
        for face in deck_faces(game, "MWM100", 8):
            assert set(face.payload) <= pdfs.QR_ALPHANUMERIC
            assert pdfs.qr_matrix(face.payload).shape[0] <= 25  # version 1 or 2 (DESIGN.md)


def test_bad_deck_requests_are_refused() -> None:
    with pytest.raises(BadInput):
        deck_faces("chess")
    with pytest.raises(BadInput):
        deck_faces("math-wars-meta", "MWM50")
    with pytest.raises(BadInput):
        deck_faces("math-wars-meta", "MWM25", 9)
    with pytest.raises(BadInput):
        pdfs.qr_matrix("mt1:lower")


def test_card_grid_is_nine_poker_cards_inside_the_page() -> None:
    for paper in ("a4", "letter"):
        slots, left, top = pdfs.card_slots(paper)
        assert len(slots) == 9 and left > 5 and top > 3
        _, width, height = pdfs.PAPERS[paper]
        assert slots[-1][0] + pdfs.CARD_W <= width and slots[-1][1] + pdfs.CARD_H <= height


def test_mat_markers_are_unique_per_seat_and_board() -> None:
    ids = [i for seat in range(1, 9) for i in seat_marker_ids(seat)] + list(BOARD_IDS)
    assert len(ids) == len(set(ids)) and max(ids) < 50


@needs_poppler
def test_sheet_is_drawn_from_the_layout(tmp_path: Path) -> None:
    """MM-2: a changed prefilled operator prints changed."""
    layout = mathe_meister_layout()
    changed = Layout(
        tuple((cell, "x") for cell, _ in layout.prefilled), layout.star_values, layout.star_powers
    )

    def times_signs(lay: Layout) -> int:
        out = pdfs.save(sheet_pdf(lay), tmp_path / "s.pdf")
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
        return text.count("×")

    default_x = sum(1 for _, op in layout.prefilled if op == "x")
    assert times_signs(changed) - times_signs(layout) == len(layout.prefilled) - default_x


def test_roster_parsing() -> None:
    students = read_roster("id,name,group\ns01, Ada ,A\n\nS02,Alan,B\n")
    assert [(s.id, s.name, s.group) for s in students] == [
        ("S01", "Ada", "A"),
        ("S02", "Alan", "B"),
    ]
    # One column and no header is a list of names now (ids made up on import).
    assert [(s.id, s.name) for s in read_roster("S01\n")] == [("", "S01")]
    # an id with a character no id may have ("ü1") under the id,name header; without a
    # header a cell that cannot be an id is a name (two columns: name, group)
    bad_id = "id,name\nü1,Ada\n"
    for bad in ("id,name\n", "S01,Ada\nS02\n", "S01,Ada\nS01,Bob\n", bad_id, ",Ada\n"):
        with pytest.raises(BadInput):
            read_roster(bad)


@pytest.mark.parametrize(
    "argv",
    [
        ["print", "deck", "math-attack"],
        ["print", "deck", "math-wars-meta", "--edition", "MWM25", "--army", "2"],
        ["print", "sheet", "mathe-meister", "--paper", "letter"],
        ["print", "mats", "math-attack", "--seats", "2"],
        ["print", "answer-key", "MWM25"],
    ],
)
def test_print_commands_write_pdfs(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.pdf"
    assert cli.main([*argv, "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "wrote" in capsys.readouterr().out


def test_print_mats_on_one_page_say_1_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mathe-Meister's mats for one seat fit on one page: "1 page", not "1 pages"."""
    out = tmp_path / "mats.pdf"
    assert cli.main(["print", "mats", "mathe-meister", "--seats", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out} (1 page, A4)"


def test_print_badges_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("id,name,group\nS1,Ada,A\n", encoding="utf-8")
    assert cli.main(["print", "badges", str(roster), "--out", str(tmp_path / "b.pdf")]) == 0
    capsys.readouterr()
    assert cli.main(["print", "badges", str(tmp_path / "missing.csv")]) == 2
    assert cli.main(["print", "deck", "chess", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("tabletop print:") for line in err)
