"""Student badges from a roster CSV (id, name, group): name large, QR ``MT1:ID:<id>``.

Badges are card-sized (63 x 88 mm), nine to a page with cut marks, so the same cutter
that cuts the decks cuts them. Names stay on paper and on the device: the QR code
carries only the id.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from fpdf import FPDF

from tabletop.engine.errors import BadInput
from tabletop.printables.pdf import QR_ALPHANUMERIC, CardFace, card_pages, new_pdf

BADGE_COLOUR = (0, 114, 178)


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    group: str


def read_roster(text: str) -> list[Student]:
    """Parse the class list; ``BadInput`` names the line and the problem."""
    reader = csv.reader(io.StringIO(text))
    students: list[Student] = []
    seen: set[str] = set()
    for number, row in enumerate(reader, start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if number == 1 and [c.strip().lower() for c in row[:2]] == ["id", "name"]:
            continue  # the header line
        if len(row) < 2:
            raise BadInput("roster.shape", f"line {number}: expected id, name, group")
        sid = row[0].strip().upper()
        name = row[1].strip()
        group = row[2].strip() if len(row) > 2 else ""
        if not sid or not name:
            raise BadInput("roster.empty", f"line {number}: the id and the name must not be empty")
        if not set(sid) <= QR_ALPHANUMERIC - {" "}:
            raise BadInput(
                "roster.id",
                f"line {number}: id {row[0].strip()!r} may use only letters, digits "
                "and $ % * + - . / :",
            )
        if sid in seen:
            raise BadInput("roster.duplicate", f"line {number}: id {sid} is used twice")
        seen.add(sid)
        students.append(Student(sid, name, group))
    if not students:
        raise BadInput("roster.empty", "the roster has no students")
    return students


def badges_pdf(students: list[Student], paper: str = "a4") -> FPDF:
    pdf = new_pdf(paper, title="Student badges")
    faces = [
        CardFace(
            f"MT1:ID:{s.id}",
            s.name,
            f"group {s.group} · id {s.id}" if s.group else f"id {s.id}",
            BADGE_COLOUR,
        )
        for s in students
    ]
    card_pages(pdf, faces, paper)
    return pdf
