"""Printed decks, verified: rasterise the PDF and read every card back with the device's
own card reader, first from the clean pages, then as the camera would see them.

The camera-like condition lays each page on a 60 cm wide table filmed at 1920x1080 (a
page of nine cards then spans about 670 x 950 pixels), seen at a slant, blurred, with
noise, glare and JPEG compression (``vision.simulate.camera_like``).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tabletop.engine.errors import DeviceError
from tabletop.printables import pdf as pdfs
from tabletop.printables.decks import deck_faces
from vision.cards import read_cards
from vision.simulate import camera_like, wood

TABLE_MM = 600.0
CAPTURE = (1920, 1080)
DECKS = (
    ("math-attack", "MWM25", 1),
    ("math-arena", "MWM25", 1),
    ("mecs", "MWM25", 1),
    ("math-wars-meta", "MWM25", 1),
    ("math-wars-meta", "MWM100", 8),
)


@dataclass(frozen=True)
class DeckCheck:
    deck: str
    cards: int
    clean: Counter[str]  # what was read from the clean pages
    expected: Counter[str]
    camera_read: int  # cards read under the camera-like condition

    @property
    def exact(self) -> bool:
        return self.clean == self.expected

    @property
    def camera_rate(self) -> float:
        return self.camera_read / self.cards


def rasterise(path: Path, dpi: int = 100) -> list[np.ndarray]:
    """Every page of a PDF as a grey image, via pdftoppm (poppler-utils)."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            subprocess.run(
                ["pdftoppm", "-gray", "-r", str(dpi), "-png", str(path), f"{tmp}/p"],
                check=True,
                capture_output=True,
            )
        except FileNotFoundError:
            raise DeviceError(
                "print.pdftoppm", "pdftoppm is missing: apt-get install poppler-utils"
            ) from None
        pages = []
        for png in sorted(Path(tmp).glob("p*.png")):
            page = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
            if page is None:
                raise DeviceError(
                    "print.pdftoppm", f"pdftoppm wrote a page that cannot be read: {png.name}"
                )
            pages.append(page)
    return pages


def ours(frame: np.ndarray) -> Counter[str]:
    """The payloads of our cards read in one frame."""
    return Counter(seen.payload for seen in read_cards(frame) if seen.card is not None)


def on_table(page: np.ndarray, rng: np.random.Generator, paper: str = "a4") -> np.ndarray:
    """A page lying on the table, as the device's camera films it."""
    _, width_mm, height_mm = pdfs.PAPERS[paper]
    ppm = CAPTURE[0] / TABLE_MM
    w, h = round(width_mm * ppm), round(height_mm * ppm)
    small = cv2.resize(page, (w, h), interpolation=cv2.INTER_AREA)
    frame = cv2.cvtColor(wood((CAPTURE[0], CAPTURE[1]), rng), cv2.COLOR_BGR2GRAY)
    x = (CAPTURE[0] - w) // 2 + int(rng.integers(-300, 300))
    y = max(0, (CAPTURE[1] - h) // 2)
    frame[y : y + h, x : x + w] = small[: CAPTURE[1] - y]
    return camera_like(frame, rng, slant=0.04)


def check_deck(game: str, edition: str, army: int, workdir: Path, seed: int = 0) -> DeckCheck:
    faces = deck_faces(game, edition, army)
    doc = pdfs.new_pdf("a4")
    pdfs.card_pages(doc, faces, "a4")
    name = f"{game}-{edition}-{army}" if game == "math-wars-meta" else game
    path = pdfs.save(doc, workdir / f"{name}.pdf")
    pages = rasterise(path)
    rng = np.random.default_rng(seed)
    clean: Counter[str] = Counter()
    camera_read = 0
    slots = len(pdfs.card_slots("a4")[0])
    for i, page in enumerate(pages):
        clean += ours(page)
        on_page = Counter(face.payload for face in faces[i * slots : (i + 1) * slots])
        seen = ours(on_table(page, rng))
        camera_read += sum(min(n, seen[payload]) for payload, n in on_page.items())
    return DeckCheck(name, len(faces), clean, Counter(face.payload for face in faces), camera_read)


def read_rates(workdir: Path) -> dict[str, dict[str, float | int | bool]]:
    """Per deck: cards, exact read-back from clean pages, read rate at 1920x1080."""
    out: dict[str, dict[str, float | int | bool]] = {}
    for game, edition, army in DECKS:
        result = check_deck(game, edition, army, workdir)
        out[result.deck] = {
            "cards": result.cards,
            "clean_exact": result.exact,
            "camera_read_rate": round(result.camera_rate, 4),
        }
    return out
