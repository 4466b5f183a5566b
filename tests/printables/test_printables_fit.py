"""Every printable lies inside the printable area of A4 and of Letter."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

import pytest
from fpdf import FPDF

from tabletop.assets import mathe_meister_layout
from tabletop.classroom.report_pdf import report_pdf
from tabletop.classroom.report_rows import Play, Row
from tabletop.classroom.students import Student, shown_names
from tabletop.games import mecs
from tabletop.printables import pdf as pdfs
from tabletop.printables.answer_key import answer_key_pdf
from tabletop.printables.badges import badges_pdf
from tabletop.printables.decks import deck_faces
from tabletop.printables.mats import MAT_GAMES, mats_pdf
from tabletop.printables.sheet import sheet_pdf
from tests.printables.drawn import Drawn, recording

LONG_NAMES = [
    Student("S4", "Bartholomew Featherstonehaugh-Smythe", "4b"),
    Student("S9", "Maximiliane Wolkenstein-Rodeneck", "Hedgehogs class 4a"),
    Student("S7", "Mia", "4a"),
    Student("S8", "Mia", "4b"),
]

# The walker's class (issue 27): long names and group names, two Mias, points in three
# games' units (1844 Mathe-Meister sheet points next to 5 VICTORY! cards).
LONG_ROWS = [
    Row(
        s.id,
        s.name,
        s.group,
        game,
        1,
        int(won),
        Fraction(points),
        10,
        7,
        600.0,
        "2026-11-26",
        (Play(match, 600.0, won),),
    )
    for s, game, points, match, won in [
        (LONG_NAMES[0], "mathe-meister", 1844, 1, True),
        (LONG_NAMES[0], "math-wars-meta", 5, 2, False),
        (LONG_NAMES[0], "mecs", 9, 3, True),
        (LONG_NAMES[0], "math-arena", 0, 4, False),
        (LONG_NAMES[1], "mathe-meister", -56, 5, False),
        (LONG_NAMES[1], "math-arena", Fraction(9, 2), 4, True),
        (LONG_NAMES[2], "math-arena", 3, 4, False),
        (LONG_NAMES[3], "mathe-meister", 1234, 1, False),
    ]
]


def deck(game: str, edition: str = "MWM25") -> Callable[[str], FPDF]:
    def make(paper: str) -> FPDF:
        doc = pdfs.new_pdf(paper)
        pdfs.card_pages(doc, deck_faces(game, edition, 3), paper)
        return doc

    return make


PRINTABLES: dict[str, Callable[[str], FPDF]] = {
    "sheet": lambda paper: sheet_pdf(mathe_meister_layout(), paper),
    "badges": lambda paper: badges_pdf(LONG_NAMES, paper),
    "answer-key": lambda paper: answer_key_pdf("MWM25", paper),
    "report": lambda paper: report_pdf(LONG_ROWS, session="2026-11-26", paper=paper, made=""),
    **{f"mats-{game}": (lambda g: lambda paper: mats_pdf(g, 1, paper))(game) for game in MAT_GAMES},
    "deck-mwm100": deck("math-wars-meta", "MWM100"),
    **{f"deck-{game}": deck(game) for game in ("math-attack", "mecs", "math-arena")},
}


def outside(drawn: list[Drawn], doc: FPDF) -> list[Drawn]:
    """What lies outside the printable area (guides: outside the page)."""
    m = pdfs.PRINTER_MARGIN
    return [
        d
        for d in drawn
        if not (
            d.inside(0, 0, doc.w, doc.h)
            if d.kind == "guide"
            else d.inside(m, m, doc.w - m, doc.h - m)
        )
    ]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", list(PRINTABLES))
def test_printables_lie_inside_the_printable_area(
    name: str, paper: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 4: nothing is drawn within a printer's margin of the page's edge (the
    old Mathe-Meister sheet reached 283 mm across a 279 mm Letter page)."""
    with recording(monkeypatch) as drawn:
        doc = PRINTABLES[name](paper)
    assert drawn and doc.pages_count >= 1
    assert not outside(drawn, doc)[:5]


def card_texts(drawn: list[Drawn], paper: str) -> dict[tuple[int, int], list[Drawn]]:
    """The lines of text on each card (page, slot)."""
    slots, _, _ = pdfs.card_slots(paper)
    cards: dict[tuple[int, int], list[Drawn]] = {}
    for d in drawn:
        for i, (x, y) in enumerate(slots):
            if d.kind == "text" and d.inside(x, y, x + pdfs.CARD_W, y + pdfs.CARD_H):
                cards.setdefault((d.page, i), []).append(d)
    return cards


@pytest.mark.parametrize("name", [n for n in PRINTABLES if n.startswith(("deck", "badges"))])
def test_printables_no_two_texts_on_a_card_overlap(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 9: on the old COUNT META cards of MWM100 the small print ran into the
    corner value ("COUNT META · MWM100 · Green army 3" over "100"). Every text stays on
    its card, apart from every other."""
    with recording(monkeypatch) as drawn:
        PRINTABLES[name]("letter")
    cards = card_texts(drawn, "letter")
    assert sum(len(texts) for texts in cards.values()) == sum(d.kind == "text" for d in drawn)
    clashes = [
        (a.text, b.text)
        for texts in cards.values()
        for i, a in enumerate(texts)
        for b in texts[i + 1 :]
        if a.overlaps(b)
    ]
    assert not clashes[:3]


def test_printables_goal_cards_print_the_objective_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 item 8 (MECS-7): an objective card says what the answer must be at 11 pt
    or more (the old card: "GOAL 13" filled the band, and "The answer is a whole number
    whose digits add up to 9" was its 7.5 pt small print, shrunk further)."""
    with recording(monkeypatch) as drawn:
        PRINTABLES["deck-mecs"]("a4")
    goals = 0
    for texts in card_texts(drawn, "a4").values():
        title = texts[0].text
        if not title.startswith("GOAL "):
            continue
        goals += 1
        large = [t.text for t in texts[1:] if t.size >= 11 and t.text != title]
        said = re.sub(r"- ", "-", " ".join(large))
        assert said.casefold() == mecs.objective(int(title[5:])).text.casefold(), title
    assert goals == len(mecs.OBJECTIVES)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_printables_badges_print_long_names_large(
    paper: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 7: a long name takes two or three lines in the badge's band, at 13 pt
    or more (the old badge shrank "Bartholomew Featherstonehaugh-Smythe" to 6.5 pt on one
    line, and its corner copy to 4 pt); the name is printed once."""
    with recording(monkeypatch) as drawn:
        PRINTABLES["badges"](paper)
    cards = list(card_texts(drawn, paper).values())
    assert len(cards) == len(LONG_NAMES)
    names = shown_names(LONG_NAMES)
    for student, texts in zip(LONG_NAMES, cards, strict=True):
        band = [t.text for t in texts if t.size >= 13]
        assert re.sub(r"- ", "-", " ".join(band)) == names[student.id]
        assert not [t for t in texts if t.size < 13 and student.name in t.text]
        assert min(t.size for t in texts) >= 7.5
