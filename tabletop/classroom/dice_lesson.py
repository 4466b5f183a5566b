"""The dice-fairness lesson (issue 24): every die the device read, counted per face, and
a chi-square test in words a class follows.

The device keeps every die it read (the journal's ``dice`` table: value, and where it
came from: ``camera``, ``corrected`` (the camera's reading fixed by touch), ``tap`` or
``virtual``, rolled by the device). :func:`fairness` counts the faces and tests them:

- the chi-square statistic ``sum((seen - expected)^2 / expected)``, exact (a Fraction:
  the expected count of each face is a sixth of the rolls);
- its p-value from the chi-square distribution with 5 degrees of freedom (six faces),
  :func:`chi2_sf`: the regularized upper gamma function in closed form (for whole or
  half-whole shapes it is a finite sum with ``erfc``), standard library only;
- a sentence: "after 600 rolls these dice look fair: fair dice give counts this uneven
  about 4 times in 10".

Dice the device rolled itself come from a seeded generator, not the table: the lesson
counts the class's own dice (camera, corrected, tapped) unless asked for every die.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.engine.words import plural

FACES = 6
DEGREES = FACES - 1
CLASS_SOURCES = ("camera", "corrected", "tap")  # the class's own dice
SOURCES = (*CLASS_SOURCES, "virtual")
MIN_ROLLS = 30  # fewer: too early to tell (5 expected per face is the usual floor)
MAX_SENT = 10_000  # dice one game's result may carry to the console (far above a game's)
UNFAIR_BELOW = 0.05  # a p-value under this: "these dice look unfair"


def chi_square(counts: Sequence[int]) -> Fraction:
    """Pearson's statistic of face counts against equal chances (exact)."""
    n = sum(counts)
    if n == 0:
        return Fraction(0)
    expected = Fraction(n, len(counts))
    return sum(((c - expected) ** 2 / expected for c in counts), Fraction(0))


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` degrees of freedom: the regularized
    upper gamma function Q(dof/2, x/2), in closed form."""
    if dof < 1:
        raise ValueError("degrees of freedom start at 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:  # Q(k, h) = e^-h * sum_{j<k} h^j / j!
        term, total = 1.0, 1.0
        for j in range(1, dof // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    # Q(k + 1/2, h) = erfc(sqrt h) + e^-h / sqrt(pi) * sum_{j=1..k} h^(j-1/2) / Gamma(j + 1/2)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)
    for j in range(1, (dof + 1) // 2):
        total += term
        term *= half / (j + 0.5)
    return min(1.0, max(0.0, total))


@dataclass(frozen=True)
class Fairness:
    """Face counts and what the test says about them."""

    counts: tuple[int, ...]
    chi2: Fraction
    p: float | None  # None: too few rolls to tell

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def fair(self) -> bool | None:
        return None if self.p is None else self.p >= UNFAIR_BELOW

    def sentence(self) -> str:
        """The result in words a class follows."""
        rolls = plural(self.rolls, "roll")
        if self.p is None:
            more = MIN_ROLLS - self.rolls
            return (
                f"after {rolls} it is too early to tell: roll {plural(more, 'more time')} at least"
            )
        look = "look fair" if self.fair else "do not look fair"
        return f"after {rolls} these dice {look}: fair dice give counts this uneven {odds(self.p)}"


def fairness(values: Iterable[int]) -> Fairness:
    """The test over the dice ``values`` (1..6; others are not dice and are skipped)."""
    counts = [0] * FACES
    for v in values:
        if 1 <= v <= FACES:
            counts[v - 1] += 1
    stat = chi_square(counts)
    p = chi2_sf(float(stat), DEGREES) if sum(counts) >= MIN_ROLLS else None
    return Fairness(tuple(counts), stat, p)


def odds(p: float) -> str:
    """A probability in a class's words: "about 4 times in 10", "about 3 times in 100",
    "less than 1 time in 1000", "almost every time"."""
    if p >= 0.95:
        return "almost every time"
    for scale in (10, 100, 1000):
        n = round(p * scale)
        if n >= 1:
            return f"about {plural(n, 'time')} in {scale}"
    return "less than 1 time in 1000"


def read_dice(
    journal: Any, session: str | None = None, sources: Sequence[str] = CLASS_SOURCES
) -> list[int]:
    """The dice the journal kept (of ``session``; None: every session), oldest first."""
    marks = ", ".join("?" for _ in sources)
    where, args = f"source IN ({marks})", list(sources)
    if session is not None:
        where += " AND session = ?"
        args.append(session)
    rows = journal.db.execute(f"SELECT value FROM dice WHERE {where} ORDER BY id", args)
    return [int(r[0]) for r in rows]


def dice_for_message(db: Any, match_id: int) -> dict[str, list[int]]:
    """The dice read for one game, counted per source and face (``{"camera": [n1, ...,
    n6]}``), for its result message: a station sends them to the teacher's console in
    ``meta["dice"]``, so the dashboard's lesson counts the whole classroom's dice."""
    out: dict[str, list[int]] = {}
    rows = db.execute(
        "SELECT source, value, COUNT(*) FROM dice WHERE match_id = ? GROUP BY source, value",
        (match_id,),
    )
    for source, value, count in rows:
        if source in SOURCES and 1 <= int(value) <= FACES:
            out.setdefault(str(source), [0] * FACES)[int(value) - 1] += int(count)
    return out


def store_dice(db: Any, match_id: int, session: str, counts: Any, now: float) -> int:
    """Keep the dice a result message carried (``meta["dice"]``, checked within bounds
    by the fleet's messages) as the console's own rows of ``session`` (inside the
    caller's transaction); returns how many."""
    if not isinstance(counts, dict):
        return 0
    rows = [
        (match_id, session, face, str(source), now)
        for source, faces in sorted(counts.items())
        if source in SOURCES and isinstance(faces, list) and len(faces) == FACES
        for face, n in enumerate(faces, start=1)
        for _ in range(min(int(n), MAX_SENT))
    ]
    db.executemany(
        "INSERT INTO dice (match_id, session, value, source, at) VALUES (?, ?, ?, ?, ?)", rows
    )
    return len(rows)


__all__ = [
    "CLASS_SOURCES",
    "DEGREES",
    "FACES",
    "MAX_SENT",
    "MIN_ROLLS",
    "SOURCES",
    "Fairness",
    "chi2_sf",
    "chi_square",
    "dice_for_message",
    "fairness",
    "odds",
    "read_dice",
    "store_dice",
]
