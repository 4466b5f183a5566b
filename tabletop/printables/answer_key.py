"""The Math Wars Meta Answer Key (MWM-9): each COUNT META card with every MATH CRATE card.

One small table per COUNT META card (rows n = 1..10, columns + − × ÷), blank where a
division leaves a remainder; twelve tables to a page.
"""

from __future__ import annotations

from fpdf import FPDF

from tabletop.games.math_wars_meta import answer_key
from tabletop.printables.pdf import PAPERS, fit_text, new_pdf

PER_ROW, PER_COL = 3, 4
INK = (30, 30, 30)


def answer_key_pdf(edition: str, paper: str = "a4") -> FPDF:
    rows = answer_key(edition)  # raises BadInput for an unknown edition
    pdf = new_pdf(paper, title=f"Math Wars Meta Answer Key {edition}")
    _, width, height = PAPERS[paper]
    margin = 12.0
    box_w = (width - 2 * margin) / PER_ROW
    box_h = (height - 2 * margin - 10) / PER_COL
    per_page = PER_ROW * PER_COL
    for i, row in enumerate(rows):
        if i % per_page == 0:
            pdf.add_page()
            fit_text(
                pdf,
                f"MATH WARS META · ANSWER KEY · {edition}",
                margin,
                6,
                width - 2 * margin,
                8,
                size=13,
                bold=True,
                colour=INK,
            )
        k = i % per_page
        x = margin + (k % PER_ROW) * box_w
        y = margin + 6 + (k // PER_ROW) * box_h
        _table(pdf, row.count, row.page(), x + 2, y + 2, box_w - 4, box_h - 4)
    return pdf


def _table(
    pdf: FPDF, count: int, page: tuple[tuple[str, ...], ...], x: float, y: float, w: float, h: float
) -> None:
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, w, h)
    fit_text(pdf, f"COUNT META {count}", x, y + 1, w, 6, size=10, bold=True, colour=INK)
    cell_w = w / len(page[0])
    cell_h = (h - 8) / len(page)
    pdf.set_line_width(0.1)
    for r, cells in enumerate(page):
        for c, text in enumerate(cells):
            cx, cy = x + c * cell_w, y + 7 + r * cell_h
            if r == 0 or c == 0:
                pdf.set_fill_color(225, 225, 225)
                pdf.rect(cx, cy, cell_w, cell_h, "F")
            fit_text(pdf, text, cx, cy, cell_w, cell_h, size=8, bold=r == 0 or c == 0, colour=INK)
