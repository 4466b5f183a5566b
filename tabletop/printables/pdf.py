"""PDF building blocks: pages, fonts, vector QR codes, ArUco markers, cards and cut marks.

Everything is drawn as vectors (a QR module is a filled square), so a printed code is
sharp at any printer resolution.
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Container, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from unicodedata import category, east_asian_width

import numpy as np
from fpdf import FPDF
from fpdf.drawing_primitives import Transform
from fpdf.fonts import TTFFont

from tabletop.assets import assets_dir
from tabletop.engine.errors import BadInput

PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("Letter", 215.9, 279.4)}
CARD_W, CARD_H = 63.0, 88.0  # poker size
GRID_COLS, GRID_ROWS = 3, 3  # nine to a page
FONT = "DejaVu"
# Letters DejaVu has not (Chinese, Japanese, full-width), as the app shows them: the Debian
# package fonts-droid-fallback (scripts/system-packages.sh), added to a PDF when needed.
FALLBACK_FONT = "DroidFallback"
FALLBACK_FILE = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
READABLE = 8.0  # pt: a name prints no smaller; wider, it takes another line
PRINTER_MARGIN = 5.0  # mm: what many printers cannot print at the edge of the paper
QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

RGB = tuple[int, int, int]


def new_pdf(paper: str = "a4", landscape: bool = False, title: str = "") -> FPDF:
    if paper not in PAPERS:
        raise BadInput("print.paper", f"unknown paper {paper!r}: choose a4 or letter")
    pdf = FPDF(orientation="L" if landscape else "P", unit="mm", format=PAPERS[paper][0])
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    fonts = assets_dir() / "fonts"
    pdf.add_font(FONT, "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font(FONT, "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_title(title)
    pdf.set_creator("tabletop")
    return pdf


def save(pdf: FPDF, out: Path) -> Path:
    """Write ``pdf`` to ``out``, a file in a folder that is there (one line if not)."""
    from tabletop.outfiles import write_file

    return write_file(out, bytes(pdf.output()))


@contextmanager
def fitted(pdf: FPDF, box: tuple[float, float, float, float]) -> Iterator[None]:
    """Draw a drawing laid out in millimetres over ``box`` (left, top, right, bottom) where
    it lies, if that is inside the page less :data:`PRINTER_MARGIN` all round; else shrunk
    (never grown) and centred to fit inside it (the A4 sheet on Letter paper)."""
    left, top, right, bottom = box
    m = PRINTER_MARGIN
    if left >= m and top >= m and right <= pdf.w - m and bottom <= pdf.h - m:
        yield
        return
    scale = min(1.0, (pdf.w - 2 * m) / (right - left), (pdf.h - 2 * m) / (bottom - top))
    dx = (pdf.w - scale * (right - left)) / 2 - scale * left
    dy = (pdf.h - scale * (bottom - top)) / 2 - scale * top
    with pdf.transform(Transform.scaling(scale).translate(dx, dy)):
        yield


# -- QR codes and markers ----------------------------------------------------------------


@cache
def qr_matrix(payload: str) -> np.ndarray:
    """The QR code's modules (True = dark), without the quiet zone."""
    import zxingcpp

    if not set(payload) <= QR_ALPHANUMERIC:
        bad = sorted(set(payload) - QR_ALPHANUMERIC)[0]
        raise BadInput("print.payload", f"payload {payload!r}: {bad!r} is not QR alphanumeric")
    code = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    dark: np.ndarray = image < 128
    return dark


def draw_modules(pdf: FPDF, dark: np.ndarray, x: float, y: float, size: float) -> None:
    """Draw a square bit matrix, one filled rectangle per horizontal run of dark modules."""
    n = dark.shape[0]
    module = size / n
    pdf.set_fill_color(0, 0, 0)
    for r in range(n):
        c = 0
        while c < n:
            if not dark[r, c]:
                c += 1
                continue
            start = c
            while c < n and dark[r, c]:
                c += 1
            # a hair of overlap so no white seam shows between modules
            pdf.rect(
                x + start * module, y + r * module, (c - start) * module + 0.02, module + 0.02, "F"
            )


def draw_qr(pdf: FPDF, payload: str, x: float, y: float, size: float) -> None:
    draw_modules(pdf, qr_matrix(payload), x, y, size)


@cache
def aruco_matrix(marker_id: int) -> np.ndarray:
    """An ArUco marker (DICT_4X4_50) with its black border, True = dark."""
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    dark: np.ndarray = image < 128
    return dark


# -- text ---------------------------------------------------------------------------------


def printable(pdf: FPDF, text: str, style: str = "") -> None:
    """Make sure every letter of ``text`` prints: DejaVu's, else the fallback font's
    (:data:`FALLBACK_FILE`, added to ``pdf`` the first time a letter needs it); a letter
    no font here has is refused (``BadInput``), never printed as a blank."""
    own = _cmap(pdf, FONT.lower() + style)
    if all(ord(ch) in own for ch in text):
        return
    key = FALLBACK_FONT.lower()
    if key not in pdf.fonts and FALLBACK_FILE.is_file():
        pdf.add_font(FALLBACK_FONT, "", str(FALLBACK_FILE))
        pdf.set_fallback_fonts([FALLBACK_FONT], exact_match=False)  # bold too
    other = _cmap(pdf, key)
    for ch in text:
        if ord(ch) in own or ord(ch) in other or category(ch) in ("Cc", "Cf"):
            continue  # a font has it, or it is invisible
        hint = "" if other else " (install the Debian package fonts-droid-fallback)"
        raise BadInput(
            "print.glyph",
            f"cannot print {text!r}: no font here has {ch!r} (U+{ord(ch):04X}){hint}; "
            "change that name in the class list",
        )


def _cmap(pdf: FPDF, key: str) -> Container[int]:
    """The letters (code points) the document's font ``key`` has: none if not added."""
    font = pdf.fonts.get(key)
    return font.cmap if isinstance(font, TTFFont) else ()


LEADING = 1.15  # a line of text is this many times its size apart from the next
PT = 25.4 / 72  # mm per point


def text_lines(
    pdf: FPDF, text: str, w: float, *, size: float, least: float, bold: bool = False, h: float = 0
) -> tuple[float, list[str]]:
    """The size and lines that ``text`` takes in a box ``w`` wide (and, with ``h``, no
    taller): the fewest lines at ``least`` pt or more, as :func:`wrapped` breaks them, at
    the largest size they fit (one line a little smaller rather than two at ``size``);
    where nothing fits at ``least``, the largest size below it that does ("Bartholomew /
    Featherstonehaugh- / Smythe" in a badge's band), down to half ``least`` (and
    :data:`READABLE` or more), under which a word too wide is broken inside it instead
    (see :func:`_lay_out`: "Wolfeschlegelstein- / hausenbergerdorff"). Every line is
    printed at that size: the PDFs' one way of wrapping (the report's tables and charts
    at 9 pt or more, the skills pages at :data:`READABLE`, cards and badges).

    A row measured (laid out with no ``h``) and then drawn in its height is laid out
    once: the document keeps what was measured, and draws that, the best that fits in
    any box as tall as it (a shorter box lays the text out again, to fit)."""
    printable(pdf, text, "B" if bold else "")
    known = _LAID.setdefault(pdf, {})
    key = (text, w, size, least, bold)
    laid = known.get(key)
    if laid is None or (h and len(laid[1]) * laid[0] * LEADING * PT > h):
        laid = _lay_out(pdf, text, w, size, least, "B" if bold else "", h)
        if not h:
            known[key] = laid
    return laid[0], list(laid[1])


# Each document's texts as text_lines measured them: (text, w, size, least, bold) -> laid out.
_LAID: weakref.WeakKeyDictionary[
    FPDF, dict[tuple[str, float, float, float, bool], tuple[float, list[str]]]
] = weakref.WeakKeyDictionary()


def _lay_out(
    pdf: FPDF, text: str, w: float, size: float, least: float, style: str, h: float
) -> tuple[float, list[str]]:
    """Words broken only between them at sizes down to the floor (half of ``least``, and
    :data:`READABLE` or more); else a word too wide even there broken inside it, at the
    largest size that fits; else, past the floor, the largest that fits at all."""
    floor = min(size, max(READABLE, least / 2))
    sizes = [size - step / 2 for step in range(int((size - 4) * 2) + 1)]
    readable = [s for s in sizes if s >= floor]
    for split, tried in ((False, readable), (True, readable), (True, sizes[len(readable) :])):
        best: tuple[tuple[bool, float, float], float, list[str]] | None = None
        for s in tried:
            if best is not None and (s < least or len(best[2]) == 1):
                break  # smaller sizes from here on: none fits better (fewer lines, or larger)
            pdf.set_font(FONT, style, s)
            lines = wrapped(pdf, text, w, split=split)
            fits = max(map(pdf.get_string_width, lines)) <= w
            if fits and (not h or len(lines) * s * LEADING * PT <= h):
                key = (s >= least, -len(lines) if s >= least else s, s)
                if best is None or key > best[0]:
                    best = (key, s, lines)
        if best is not None:
            return best[1], best[2]
    return 4.0, [text]


def wrapped(pdf: FPDF, text: str, w: float, *, split: bool = False) -> list[str]:
    """``text`` in lines no wider than ``w`` in the font set: one line if it fits; else
    what comes before its last " (" over the "(…)" that tells it apart ("Zoé
    Müller-Lüdenscheidt" over "(Group Hedgehogs class 4a)"), each broken further where
    still too wide; without one, broken as :func:`broken` breaks it (with ``split``, a
    word too wide broken inside it too)."""
    if pdf.get_string_width(text) <= w:
        return [text]
    plain, sep, tag = text.rpartition(" (")
    if sep and plain.strip():
        return [*broken(pdf, plain, w, split), *broken(pdf, f"({tag}", w, split)]
    return broken(pdf, text, w, split)


def fit_text(
    pdf: FPDF,
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    size: float,
    bold: bool = False,
    colour: RGB = (0, 0, 0),
    align: str = "C",
    least: float | None = None,
    middle: bool = True,
) -> float:
    """Write ``text`` in a box: on one line in the middle of its height, the font shrunk
    until it fits the width; or, with ``least``, in the lines :func:`text_lines` lays out,
    in the middle of the box (or, not ``middle``, at its top). Returns the y under it."""
    style = "B" if bold else ""
    if least is None:  # (text_lines checks the letters itself)
        printable(pdf, text, style)
        pdf.set_font(FONT, style, size)
        while size > 4 and pdf.get_string_width(text) > w:
            size -= 0.5
            pdf.set_font(FONT, style, size)
        lines, lead, top = [text], h, y
    else:
        size, lines = text_lines(pdf, text, w, size=size, least=least, bold=bold, h=h)
        lead = size * LEADING * PT
        top = y + (h - lead * len(lines)) / 2 if middle else y
    pdf.set_font(FONT, style, size)
    pdf.set_text_color(*colour)
    for i, line in enumerate(lines):
        pdf.set_xy(x, top + i * lead)
        pdf.cell(w, lead, line, align=align)
    return top + lead * len(lines)


def broken(pdf: FPDF, text: str, w: float, split: bool = False) -> list[str]:
    """``text`` in lines no wider than ``w`` in the font set, each break between words or
    after a hyphen where the longer line is shortest; with ``split``, one word still too
    wide is cut as :func:`cut` cuts it."""
    parts = re.findall(r"\S+?-(?=\S)|\S+\s*", text)
    if pdf.get_string_width(text) <= w:
        return [text]
    if len(parts) < 2:
        return cut(pdf, text, w) if split else [text]
    halves = [("".join(parts[:i]).rstrip(), "".join(parts[i:])) for i in range(1, len(parts))]
    first, rest = min(halves, key=lambda half: max(map(pdf.get_string_width, half)))
    return [*broken(pdf, first, w, split), *broken(pdf, rest, w, split)]


def cut(pdf: FPDF, word: str, w: float) -> list[str]:
    """One word in the fewest lines no wider than ``w``, of about equal length, each but
    the last ending in a hyphen ("Wolfeschlegel-" over "steinhausen"; none between
    Chinese or full-width letters, which are written without)."""
    word = word.strip()

    def pieces(n: int) -> list[str]:
        step = -(-len(word) // n)
        chunks = [word[i : i + step] for i in range(0, len(word), step)]
        return [c if east_asian_width(c[-1]) in "WF" else c + "-" for c in chunks[:-1]] + [
            chunks[-1]
        ]

    for n in range(max(2, math.ceil(pdf.get_string_width(word) / w)), len(word) + 1):
        lines = pieces(n)
        if max(map(pdf.get_string_width, lines)) <= w:
            return lines
    return [word]


# -- cards on a page -----------------------------------------------------------------------


@dataclass(frozen=True)
class CardFace:
    """One printed card: the QR payload, the big value, the small print, the colour."""

    payload: str
    title: str
    caption: str
    colour: RGB
    subtitle: str = ""
    corner: str | None = None  # the small print in the corner: None, the title again


def card_slots(paper: str) -> tuple[list[tuple[float, float]], float, float]:
    """Top-left corners of the nine card positions, and the grid's page margins."""
    _, width, height = PAPERS[paper]
    left = (width - GRID_COLS * CARD_W) / 2
    top = (height - GRID_ROWS * CARD_H) / 2
    slots = [
        (left + c * CARD_W, top + r * CARD_H) for r in range(GRID_ROWS) for c in range(GRID_COLS)
    ]
    return slots, left, top


def cut_marks(pdf: FPDF, paper: str) -> None:
    """Short lines in the margins on every card edge: cut along them."""
    _, width, height = PAPERS[paper]
    _, left, top = card_slots(paper)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    gap = 1.5
    for i in range(GRID_COLS + 1):
        x = left + i * CARD_W
        pdf.line(x, 2, x, top - gap)
        pdf.line(x, top + GRID_ROWS * CARD_H + gap, x, height - 2)
    for j in range(GRID_ROWS + 1):
        y = top + j * CARD_H
        pdf.line(2, y, left - gap, y)
        pdf.line(left + GRID_COLS * CARD_W + gap, y, width - 2, y)


def draw_card(pdf: FPDF, face: CardFace, x: float, y: float) -> None:
    """A poker-size face: a coloured band with the value (a long name on two or three
    lines, at 20 pt or the largest size that fits), a big QR code, the subtitle (11 pt or
    more, on up to two lines), the small print, and the value again in the bottom corner
    (readable from the other side once turned; ``face.corner`` there instead), with the
    small print kept clear of it."""
    band = 22.0
    pdf.set_line_width(0.15)
    pdf.set_draw_color(190, 190, 190)
    pdf.rect(x, y, CARD_W, CARD_H)  # a faint edge to cut along if the marks are missed
    pdf.set_fill_color(*face.colour)
    pdf.rect(x + 2, y + 2, CARD_W - 4, band, "F")
    white = (255, 255, 255)
    fit_text(
        pdf,
        face.title,
        x + 3,
        y + 3,
        CARD_W - 6,
        band - 2,
        size=44,
        least=20,
        bold=True,
        colour=white,
    )
    qr = 44.0
    draw_qr(pdf, face.payload, x + (CARD_W - qr) / 2, y + band + 5, qr)
    base = y + band + 5 + qr + 2
    if face.subtitle:
        lines = 2 * 11 * LEADING * PT
        base = fit_text(
            pdf,
            face.subtitle,
            x + 3,
            base,
            CARD_W - 6,
            lines,
            size=11,
            least=11,
            bold=True,
            colour=face.colour,
            middle=False,
        )
    corner = face.title if face.corner is None else face.corner
    pdf.set_font(FONT, "B", 9)
    corner_w = min(pdf.get_string_width(corner), 13) if corner else 0
    bottom = y + CARD_H - 7
    pdf.set_font(FONT, "", 7.5)
    reach = (CARD_W + pdf.get_string_width(face.caption)) / 2  # centred, its right end
    clash = base + 5 > bottom and reach > CARD_W - 3 - corner_w - 1
    caption_w = CARD_W - 6 - (corner_w + 3 if clash else 0)  # then left of the corner
    fit_text(pdf, face.caption, x + 3, base, caption_w, 5, size=7.5, colour=(60, 60, 60))
    if corner:
        fit_text(
            pdf,
            corner,
            x + CARD_W - 15,
            bottom,
            13,
            5,
            size=9,
            bold=True,
            colour=face.colour,
            align="R",
        )


def card_pages(pdf: FPDF, faces: Sequence[CardFace], paper: str) -> int:
    """Lay ``faces`` out nine to a page with cut marks; returns the number of pages."""
    slots, _, _ = card_slots(paper)
    pages = 0
    for i, face in enumerate(faces):
        if i % len(slots) == 0:
            pdf.add_page()
            cut_marks(pdf, paper)
            pages += 1
        x, y = slots[i % len(slots)]
        draw_card(pdf, face, x, y)
    return pages


def hexagon(pdf: FPDF, cx: float, cy: float, r: float) -> None:
    points = [
        (cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)
    ]
    pdf.polygon(points, style="D")


def pentagon(pdf: FPDF, cx: float, cy: float, r: float) -> None:
    points = [
        (
            cx + r * math.cos(-math.pi / 2 + 2 * math.pi / 5 * k),
            cy + r * math.sin(-math.pi / 2 + 2 * math.pi / 5 * k),
        )
        for k in range(5)
    ]
    pdf.polygon(points, style="D")


def font_path() -> Path:
    return assets_dir() / "fonts" / "DejaVuSans.ttf"
