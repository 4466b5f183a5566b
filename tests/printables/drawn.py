"""What a printable draws, as boxes on its pages in millimetres.

:func:`recording` watches fpdf2 draw: every rectangle, line, ellipse, polygon and line of
text becomes a :class:`Drawn` box (after any ``pdf.transform`` it is drawn inside), so a
test can ask whether everything lies inside the page's printable area, or whether two
lines of text on a card run into each other. A line of text's box is its ink: as wide
as the string, placed as ``cell`` aligns it, from the cap height to the descenders.
Lines drawn by :func:`tabletop.printables.pdf.cut_marks` are ``"guide"``: they reach into
the margin on purpose (a printer that cannot print there loses a millimetre of a mark).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fpdf import FPDF
from fpdf.drawing_primitives import Point, Transform

from tabletop.printables import pdf as pdfs

PT = 25.4 / 72  # mm per point


@dataclass(frozen=True)
class Drawn:
    page: int
    kind: str  # "rect", "line", "shape", "text", "guide"
    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""
    size: float = 0.0  # a text's font size, pt

    def inside(self, left: float, top: float, right: float, bottom: float) -> bool:
        eps = 1e-6
        return (
            self.x0 >= left - eps
            and self.y0 >= top - eps
            and self.x1 <= right + eps
            and self.y1 <= bottom + eps
        )

    def overlaps(self, other: Drawn) -> bool:
        return (
            self.page == other.page
            and self.x0 < other.x1
            and other.x0 < self.x1
            and self.y0 < other.y1
            and other.y0 < self.y1
        )


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every box drawn by any FPDF while the block runs, in drawing order."""
    drawn: list[Drawn] = []
    stack: list[Transform] = [Transform.identity()]
    guides = [False]

    def add(pdf: FPDF, kind: str, points: list[tuple[float, float]], **more: Any) -> None:
        moved = [Point(x, y) @ stack[-1] for x, y in points]
        xs, ys = [p.x for p in moved], [p.y for p in moved]
        kind = "guide" if guides[0] and kind == "line" else kind
        drawn.append(Drawn(pdf.page, kind, min(xs), min(ys), max(xs), max(ys), **more))

    def wrap(name: str, boxes: Any) -> None:
        original = getattr(FPDF, name)

        def patched(self: FPDF, *args: Any, **kwargs: Any) -> Any:
            for kind, points, more in boxes(self, *args, **kwargs):
                add(self, kind, points, **more)
            return original(self, *args, **kwargs)

        monkeypatch.setattr(FPDF, name, patched)

    def rect(pdf: FPDF, x: float, y: float, w: float, h: float, *_: Any, **__: Any) -> Any:
        return [("rect", [(x, y), (x + w, y + h)], {})]

    def line(pdf: FPDF, x1: float, y1: float, x2: float, y2: float, **_: Any) -> Any:
        return [("line", [(x1, y1), (x2, y2)], {})]

    def polygon(pdf: FPDF, points: Any, *_: Any, **__: Any) -> Any:
        return [("shape", list(points), {})]

    def cell(pdf: FPDF, w: Any = None, h: Any = None, text: str = "", *_: Any, **kw: Any) -> Any:
        if not text:
            return []
        x, y, size = pdf.get_x(), pdf.get_y(), pdf.font_size
        w = w or pdf.w - pdf.r_margin - x
        width = pdf.get_string_width(text)
        align = str(kw.get("align", "L"))[:1].upper()
        left = {
            "C": x + (w - width) / 2,
            "R": x + w - pdf.c_margin - width,
        }.get(align, x + pdf.c_margin)
        middle = y + (h or size) / 2
        box = [(left, middle - 0.45 * size), (left + width, middle + 0.5 * size)]
        return [("text", box, {"text": text, "size": pdf.font_size_pt})]

    wrap("rect", rect)
    wrap("line", line)
    wrap("polygon", polygon)
    wrap("ellipse", lambda pdf, x, y, w, h, *_, **__: [("shape", [(x, y), (x + w, y + h)], {})])
    wrap("cell", cell)

    original_multi = FPDF.multi_cell

    def multi_cell(self: FPDF, w: float, h: Any = None, text: str = "", *a: Any, **kw: Any) -> Any:
        x, y = self.get_x(), self.get_y()
        result = original_multi(self, w, h, text, *a, **kw)
        add(self, "text", [(x, y), (x + w, self.get_y())], text=text, size=self.font_size_pt)
        return result

    monkeypatch.setattr(FPDF, "multi_cell", multi_cell)

    original_transform = FPDF.transform

    @contextmanager
    def transform(self: FPDF, matrix: Transform) -> Iterator[None]:
        stack.append(matrix @ stack[-1])
        try:
            with original_transform(self, matrix):
                yield
        finally:
            stack.pop()

    monkeypatch.setattr(FPDF, "transform", transform)

    original_marks = pdfs.cut_marks

    def cut_marks(pdf: FPDF, paper: str) -> None:
        guides[0] = True
        try:
            original_marks(pdf, paper)
        finally:
            guides[0] = False

    monkeypatch.setattr(pdfs, "cut_marks", cut_marks)
    yield drawn
