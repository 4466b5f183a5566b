"""Student badges from a roster CSV (id, name, group): name large, QR ``MT1:ID:<id>``.

Badges are card-sized (63 x 88 mm), nine to a page with cut marks, so the same cutter
that cuts the decks cuts them. Names stay on paper and on the device: the QR code
carries only the id.
"""

from __future__ import annotations

from fpdf import FPDF

from tabletop.classroom.students import BADGE_PREFIX, Student, shown_names
from tabletop.printables.pdf import CardFace, card_pages, new_pdf

BADGE_COLOUR = (0, 114, 178)


def badges_pdf(students: list[Student], paper: str = "a4") -> FPDF:
    """The badges of ``students``; two children of one name are told apart as the device
    tells them apart, "Mia Jones (4b)"."""
    pdf = new_pdf(paper, title="Student badges")
    names = shown_names(students)
    faces = [
        CardFace(
            f"{BADGE_PREFIX}{s.id}",
            names[s.id],
            f"group {s.group} · id {s.id}" if s.group else f"id {s.id}",
            BADGE_COLOUR,
            corner="",  # the name once, large: not again in small print
        )
        for s in students
    ]
    card_pages(pdf, faces, paper)
    return pdf
