"""Bonus Star claims at one table of paper sheets (RULINGS MM-5).

Each player who completes a line presses their seat button (or taps their seat on the
screen); the press is time-stamped. Presses wait in time order, whatever order they
arrive in, and the earliest chooses its star first: first claimed, first owned.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field

from tabletop.games.mathe_meister import LINES


@dataclass(frozen=True, order=True)
class StarPress:
    at: float
    seat: int = field(compare=False)


@dataclass(frozen=True)
class StarClaim:
    round: int
    line: str
    seat: int
    at: float


class StarBoard:
    """Who owns which Bonus Star, and who is waiting to claim one."""

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = dict(values)
        self.owners: dict[str, int] = {}
        self.waiting: list[StarPress] = []
        self.claims: list[StarClaim] = []

    def press(self, seat: int, at: float) -> bool:
        """A seat asks to claim; False if it is already waiting."""
        if any(p.seat == seat for p in self.waiting):
            return False
        bisect.insort(self.waiting, StarPress(at, seat))
        return True

    @property
    def current(self) -> StarPress | None:
        """The earliest waiting press: this seat chooses now."""
        return self.waiting[0] if self.waiting else None

    def free_lines(self) -> list[str]:
        return [line for line in LINES if line not in self.owners]

    def choose(self, line: str, round_no: int) -> int:
        """The current seat claims ``line``; returns the seat."""
        press = self.current
        if press is None:
            raise ValueError("nobody is claiming a star now")
        if line not in self.values:
            raise ValueError(f"no such star {line!r}")
        if line in self.owners:
            raise ValueError(f"the {line} star already belongs to seat {self.owners[line] + 1}")
        self.owners[line] = press.seat
        self.claims.append(StarClaim(round_no, line, press.seat, press.at))
        self.waiting.pop(0)
        return press.seat

    def cancel(self, seat: int | None = None) -> None:
        """Drop the current press (or ``seat``'s: a seat waits once at most)."""
        if seat is None and self.current is not None:
            seat = self.current.seat
        self.waiting = [p for p in self.waiting if p.seat != seat]

    def stars_of(self, seat: int) -> list[str]:
        return [line for line in LINES if self.owners.get(line) == seat]

    def points_of(self, seat: int) -> int:
        return sum(self.values[line] for line in self.stars_of(seat))


__all__ = ["StarBoard", "StarClaim", "StarPress"]
