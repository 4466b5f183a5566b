"""Player mats and the shared board, with ArUco markers the camera finds.

Marker convention (shared with ``vision``): dictionary DICT_4X4_50; the mat of seat s
(1..8) carries ids 4(s-1) .. 4(s-1)+3 at its top-left, top-right, bottom-right and
bottom-left corners; the shared board (and the dice tray) carries ids 32..35 the same
way. Areas are given in millimetres from the mat's top-left corner, so the camera's
homography maps every labelled area to a zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from fpdf import FPDF

from tabletop.engine.errors import BadInput
from tabletop.printables.pdf import (
    FONT,
    RGB,
    aruco_matrix,
    draw_modules,
    fit_text,
    fitted,
    new_pdf,
)

MAT_W, MAT_H = 277.0, 190.0  # A4 landscape less margins; on Letter drawn 97% the size
MARKER = 30.0
BOARD_MARKER_BASE = 32
INK: RGB = (40, 40, 40)


@dataclass(frozen=True)
class Area:
    label: str
    x: float
    y: float
    w: float
    h: float
    hint: str = ""


def seat_marker_ids(seat: int) -> tuple[int, int, int, int]:
    base = 4 * (seat - 1)
    return (base, base + 1, base + 2, base + 3)


BOARD_IDS = (BOARD_MARKER_BASE, BOARD_MARKER_BASE + 1, BOARD_MARKER_BASE + 2, BOARD_MARKER_BASE + 3)
CARD = (66.0, 91.0)  # a poker card plus a little room

SEAT_AREAS: dict[str, tuple[Area, ...]] = {
    "math-wars-meta": (
        Area("COUNT META DRAW DECK", 38, 42, *CARD, "face down"),
        Area("BATTLE PILE", 108, 42, *CARD, "reveal here: the camera reads it"),
        Area("SPOILS PILE", 178, 42, *CARD),
        Area("MATH CRATE DRAW DECK", 38, 140, 66, 40),
        Area("MATH CRATE BATTLE & DISCARD", 108, 140, 66, 40),
        Area("VICTORY!", 178, 140, 66, 40),
    ),
    "math-attack": (Area("YOUR HAND (keep it hidden)", 38, 42, 201, 91),),
    "mecs": (
        Area("EQUATION AREA", 38, 42, 201, 91, "lay cards left to right: the camera reads them"),
        Area("HAND", 38, 140, 120, 40),
        Area("COINS", 165, 140, 74, 40),
    ),
    "math-arena": (
        Area("REVEAL SPOT", 38, 42, 136, 91, "two cards face down, then turn them over"),
        Area("OPERATORS WON", 180, 42, 59, 91),
    ),
}

BOARD_AREAS: dict[str, tuple[Area, ...]] = {
    "math-attack": (
        Area("NUMBER LINE A", 38, 36, 201, 62, "cards left to right"),
        Area("NUMBER LINE B", 38, 102, 201, 62, "cards left to right"),
        Area("DRAW STACK", 38, 168, 66, 18),
    ),
    "mecs": (
        Area("NUMBER STACK", 38, 42, *CARD),
        Area("SYMBOL STACK", 108, 42, *CARD),
        Area("OBJECTIVE", 178, 42, *CARD, "challenge mode"),
    ),
    "math-arena": (
        Area("OPERATOR CARD", 60, 42, *CARD),
        Area("POT", 150, 42, *CARD, "ties wait here"),
    ),
    "mathe-meister": (
        Area("ROLL THE DICE HERE", 38, 36, 201, 150, "keep the dice inside the frame"),
    ),
}
MAT_GAMES = ("mathe-meister", "math-wars-meta", "math-attack", "mecs", "math-arena")


def mats_pdf(game: str, seats: int, paper: str = "a4") -> FPDF:
    """One mat per seat (where the game has seat areas) and the shared board, if any."""
    if game not in MAT_GAMES:
        raise BadInput("print.game", f"no mats for {game!r}: games are {', '.join(MAT_GAMES)}")
    if not 1 <= seats <= 8:
        raise BadInput("print.seats", f"seats must be 1 to 8, not {seats}")
    pdf = new_pdf(paper, landscape=True, title=f"{game} mats")
    for seat in range(1, seats + 1) if game in SEAT_AREAS else ():
        pdf.add_page()
        draw_mat(pdf, f"SEAT {seat}", game, SEAT_AREAS[game], seat_marker_ids(seat))
    if game in BOARD_AREAS:
        pdf.add_page()
        title = "DICE TRAY" if game == "mathe-meister" else "TABLE"
        draw_mat(pdf, title, game, BOARD_AREAS[game], BOARD_IDS)
    return pdf


def draw_mat(
    pdf: FPDF, title: str, game: str, areas: tuple[Area, ...], ids: tuple[int, ...]
) -> None:
    ox, oy = (pdf.w - MAT_W) / 2, (pdf.h - MAT_H) / 2
    with fitted(pdf, (ox, oy, ox + MAT_W, oy + MAT_H)):  # on Letter, 97% the size
        pdf.set_draw_color(*INK)
        pdf.set_line_width(0.4)
        pdf.rect(ox, oy, MAT_W, MAT_H)
        corners = [
            (ox + 2, oy + 2),
            (ox + MAT_W - MARKER - 2, oy + 2),
            (ox + MAT_W - MARKER - 2, oy + MAT_H - MARKER - 2),
            (ox + 2, oy + MAT_H - MARKER - 2),
        ]
        for marker_id, (x, y) in zip(ids, corners):
            draw_modules(pdf, aruco_matrix(marker_id), x, y, MARKER)
        fit_text(pdf, title, ox + 40, oy + 4, MAT_W - 80, 14, size=30, bold=True, colour=INK)
        fit_text(
            pdf,
            game.replace("-", " ").upper(),
            ox + 40,
            oy + 18,
            MAT_W - 80,
            8,
            size=12,
            colour=INK,
        )
        pdf.set_line_width(0.6)
        pdf.set_dash_pattern(dash=3, gap=2)
        for area in areas:
            pdf.rect(ox + area.x, oy + area.y, area.w, area.h)
        pdf.set_dash_pattern()
        for area in areas:
            fit_text(
                pdf,
                area.label,
                ox + area.x + 2,
                oy + area.y + 2,
                area.w - 4,
                7,
                size=12,
                bold=True,
                colour=INK,
            )
            if area.hint:
                pdf.set_font(FONT, "", 8)
                fit_text(
                    pdf,
                    area.hint,
                    ox + area.x + 2,
                    oy + area.y + area.h - 8,
                    area.w - 4,
                    6,
                    size=8,
                    colour=(90, 90, 90),
                )
