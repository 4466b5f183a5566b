"""A PDF cell's text is laid out once: the row's height measured from its lines, and those
lines drawn (``pdf.text_lines`` keeps, per document, what was measured)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom.report_pdf import report_pdf
from tabletop.classroom.report_rows import gather
from tabletop.classroom.skills import skills_pages
from tabletop.printables import pdf as pdfs
from tabletop.store import FILE_NAME, Journal
from tests.classroom.test_report import one_answer_each
from tests.printables.test_printables_fit import LONG_ROWS


def wraps(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[Any, ...]]:
    """Every text broken into lines from now on (not the parts it breaks again):
    (document, text, width, font style, size)."""
    seen: Counter[tuple[Any, ...]] = Counter()
    real, depth = pdfs.broken, [0]

    def broken(pdf: Any, text: str, w: float, *args: Any, **kwargs: Any) -> list[str]:
        if not depth[0]:
            seen[id(pdf), text, w, pdf.font_style, pdf.font_size_pt] += 1
        depth[0] += 1
        try:
            return real(pdf, text, w, *args, **kwargs)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(pdfs, "broken", broken)
    return seen


def test_printables_report_cells_are_laid_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's tables and charts (the walker's class, long names): each text in each
    column wrapped once at each size tried, though its row is measured and then drawn, and
    its name is in a row per game (main: laid out to measure the row, again to draw it)."""
    seen = wraps(monkeypatch)
    report_pdf(LONG_ROWS, session="2026-11-26", made="")
    texts = {key[1] for key in seen}
    assert {"Bartholomew Featherstonehaugh-Smythe", "Maximiliane Wolkenstein-Rodeneck"} <= texts
    assert [key for key, n in seen.items() if n > 1] == []


def test_printables_skills_grid_names_are_laid_out_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The skills grid's rows and the list of mistakes: a long name wrapped once at each
    size, its row's height from the lines it draws (main: measured with ``tag_lines``, then
    each line fitted again)."""
    journal = Journal(tmp_path / FILE_NAME)
    bart, maxi = "Bartholomew Featherstonehaugh-Smythe", "Maximiliane Wolkenstein-Rodeneck"
    seats = [(bart, "S1", "Hedgehogs class 4a"), (maxi, "S2", "4b"), ("Mia", "S3", "4b")]
    one_answer_each(journal, seats, "x", 15, {"scores": ["1", "2", "3"], "places": [3, 2, 1]})
    rows, extra = gather(journal, "x"), skills_pages(journal, "x")
    journal.close()
    seen = wraps(monkeypatch)
    report_pdf(rows, session="x", skills=extra, made="")
    assert {bart, maxi, "Group Hedgehogs class 4a"} <= {key[1] for key in seen}
    assert [key for key, n in seen.items() if n > 1] == []
