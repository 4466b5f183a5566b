"""The Mathe-Meister tracking sheet, drawn from the layout the engine plays with.

Change ``tabletop/assets/mathe_meister/sheet.toml`` and the printed sheet changes with it: the
prefilled operators, the Bonus Star values and the Star Powers all come from ``Layout``.
"""

from __future__ import annotations

from fpdf import FPDF

from tabletop.games.mathe_meister import (
    MODE_NAMES,
    OPS,
    SIZE,
    Layout,
    cell_kind,
)
from tabletop.printables.pdf import FONT, fit_text, fitted, hexagon, new_pdf, pentagon

GREY = (200, 200, 200)
INK = (30, 30, 30)
CELL = 17.0  # mm: big enough for a child's handwriting
OPERATOR_SUPPLY = 6  # MM-7 default; the option prints more or fewer rows
BOX = (12.0, 6.0, 285.0, 196.0)  # mm: what the sheet covers, laid out on A4 landscape


def sheet_pdf(layout: Layout, paper: str = "a4", operator_supply: int = OPERATOR_SUPPLY) -> FPDF:
    pdf = new_pdf(paper, landscape=True, title="Mathe-Meister tracking sheet")
    pdf.add_page()
    with fitted(pdf, BOX):  # on Letter, a little smaller
        draw_sheet(pdf, layout, operator_supply)
    return pdf


def draw_sheet(pdf: FPDF, layout: Layout, operator_supply: int) -> None:
    fit_text(pdf, "MATHE-MEISTER", 12, 6, 120, 10, size=22, bold=True, colour=INK, align="L")
    pdf.set_font(FONT, "", 10)
    pdf.set_text_color(*INK)
    pdf.set_xy(140, 8)
    pdf.cell(0, 6, "Player: ______________________    Date: ____________")
    x0, y0 = 14.0, 22.0
    _grid(pdf, layout, x0, y0)
    _row_sums(pdf, layout, x0 + SIZE * CELL + 4, y0)
    _column_sums(pdf, layout, x0, y0 + SIZE * CELL + 3)
    side = x0 + SIZE * CELL + 50
    _modes(pdf, side, y0)
    _operators(pdf, side + 52, y0, operator_supply)
    _star_powers(pdf, layout, side, y0 + 52)
    _coin_shop(pdf, side + 52, y0 + 52)
    _scoring(pdf, side, y0 + 112)


def _grid(pdf: FPDF, layout: Layout, x0: float, y0: float) -> None:
    prefilled = layout.prefilled_map
    pdf.set_line_width(0.4)
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = x0 + c * CELL, y0 + r * CELL
            kind = cell_kind((r, c))
            pdf.set_draw_color(*INK)
            if kind == "coin":
                pdf.set_draw_color(150, 120, 0)
                pdf.ellipse(x + 3.5, y + 3.5, CELL - 7, CELL - 7, "D")
                continue
            if kind == "operator":
                pdf.set_fill_color(*GREY)
                pdf.rect(x + 1, y + 1, CELL - 2, CELL - 2, "DF")
                if (r, c) in prefilled:
                    op = prefilled[(r, c)]
                    fit_text(
                        pdf,
                        _op_glyph(op),
                        x + 1,
                        y + 1,
                        CELL - 2,
                        CELL - 2,
                        size=24,
                        bold=True,
                        colour=INK,
                    )
            else:
                pdf.rect(x + 1, y + 1, CELL - 2, CELL - 2, "D")


def _row_sums(pdf: FPDF, layout: Layout, x: float, y0: float) -> None:
    pdf.set_draw_color(*INK)
    for i in range(4):
        cy = y0 + 2 * i * CELL + CELL / 2
        fit_text(pdf, "=", x - 3, cy - 4, 6, 8, size=16, bold=True, colour=INK)
        hexagon(pdf, x + 14, cy, 8.5)
        line = f"R{i + 1}"
        fit_text(
            pdf,
            f"★{layout.star_value(line)}",
            x + 24,
            cy - 4,
            12,
            8,
            size=12,
            bold=True,
            colour=(180, 130, 0),
        )
        fit_text(pdf, f"ROW {i + 1}", x + 24, cy + 3, 14, 5, size=7, colour=INK)
    note = "Rows: evens are positive, odds are negative."
    fit_text(pdf, note, x - 2, y0 + SIZE * CELL + 1, 46, 5, size=6.5, colour=INK)


def _column_sums(pdf: FPDF, layout: Layout, x0: float, y: float) -> None:
    for j in range(4):
        cx = x0 + 2 * j * CELL + CELL / 2
        fit_text(pdf, "=", cx - 3, y - 2, 6, 6, size=14, bold=True, colour=INK)
        pentagon(pdf, cx, y + 12, 8.5)
        line = f"C{j + 1}"
        fit_text(
            pdf,
            f"★{layout.star_value(line)}",
            cx + 8,
            y + 6,
            12,
            6,
            size=11,
            bold=True,
            colour=(180, 130, 0),
        )
        fit_text(pdf, f"COLUMN {j + 1}", cx - 10, y + 22, 20, 5, size=7, colour=INK)
    fit_text(
        pdf,
        "Columns: odds are positive, evens are negative.",
        x0,
        y + 27,
        110,
        5,
        size=7,
        colour=INK,
        align="L",
    )


def _box(pdf: FPDF, title: str, x: float, y: float, w: float, h: float) -> None:
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, w, h)
    fit_text(pdf, title, x, y + 1, w, 6, size=9, bold=True, colour=INK)


def _modes(pdf: FPDF, x: float, y: float) -> None:
    _box(pdf, "GAME MODE", x, y, 48, 48)
    for i, name in enumerate(MODE_NAMES.values()):
        fit_text(
            pdf,
            name + (" (solo)" if i >= 5 else ""),
            x + 2,
            y + 8 + i * 5.6,
            44,
            5,
            size=8.5,
            colour=INK,
        )


def _operators(pdf: FPDF, x: float, y: float, supply: int) -> None:
    _box(pdf, "OPERATORS", x, y, 48, 48)
    step = min(6.0, 38 / max(supply, 1))
    for r in range(supply):
        for k, op in enumerate(OPS):
            fit_text(
                pdf,
                _op_glyph(op),
                x + 4 + k * 14,
                y + 8 + r * step,
                12,
                step,
                size=11,
                bold=True,
                colour=INK,
            )


def _star_powers(pdf: FPDF, layout: Layout, x: float, y: float) -> None:
    _box(pdf, "STAR POWERS", x, y, 48, 56)
    fit_text(pdf, "circle one per Bonus Star", x, y + 6, 48, 4, size=6.5, colour=INK)
    for i, kind in enumerate(layout.star_powers):
        col, row = i % 2, i // 2
        cx, cy = x + 3 + col * 23, y + 12 + row * 7
        glyph = "○ coin" if kind == "coin" else _op_glyph(kind)
        fit_text(pdf, f"★ {glyph}", cx, cy, 21, 6, size=10, bold=True, colour=INK, align="L")


def _coin_shop(pdf: FPDF, x: float, y: float) -> None:
    _box(pdf, "COIN SHOP", x, y, 48, 56)
    lines = [
        "1C = ±1 to one die",
        "2C = ±2 to one die",
        "3C = ±3 to one die",
        "4C = swap two operators",
        "5C = swap two operands",
        "",
        "Each coin left = 10 points",
    ]
    for i, text in enumerate(lines):
        fit_text(pdf, text, x + 2, y + 9 + i * 6, 44, 5, size=8.5, colour=INK, align="L")


def _scoring(pdf: FPDF, x: float, y: float) -> None:
    _box(pdf, "END GAME SCORING", x, y, 100, 60)
    rows = [
        "+ Row Even Sums",
        "+ Column Odd Sums",
        "+ Unspent Coins x 10",
        "+ Row & Column Stars",
        "− Row Odd Sums",
        "− Column Even Sums",
        "Player's Final Score",
    ]
    for i, text in enumerate(rows):
        fit_text(
            pdf, text, x + 3, y + 9 + i * 7, 55, 6, size=9.5, bold=i == 6, colour=INK, align="L"
        )
        pdf.line(x + 62, y + 14 + i * 7, x + 96, y + 14 + i * 7)


def _op_glyph(op: str) -> str:
    return {"x": "×", "-": "−"}.get(op, op)
