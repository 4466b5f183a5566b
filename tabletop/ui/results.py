"""The one results scene every game hands over to at its end.

A game describes its end as an :class:`Outcome` (built from the engine's ``Result`` by
:func:`outcome_of`, with the game's own words for a score and for the reason) and the
scene draws it the same way for every game: who won in big letters, why the game ended,
each seat by place (its colour chip, name and score, and stars where a game counts
them), the game's lines (rounds, accuracy, a high score) on the right, and the footer
"Home" / "Play again". ``aside`` lets a game draw its own picture instead of the
standings (Mathe-Meister's finished sheet). :func:`winner_line` is the demos' and the
tests' closing line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import pygame

from tabletop.engine.protocol import Result
from tabletop.engine.words import and_joined
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import InputEvent
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import go_home, home_and_again, route_to_press
from tabletop.ui.speech import sentences
from tabletop.ui.theme import Metrics


@dataclass(frozen=True)
class Standing:
    """One seat (or side) at the end: its place (1 = first), name and score in words;
    ``stars``: (won, needed) where the game counts stars or cards toward a goal."""

    seat: int
    name: str
    place: int
    score: str
    stars: tuple[int, int] | None = None


@dataclass
class Outcome:
    title: str
    reason: str
    rows: list[Standing]
    winner_line: str
    lines: list[str] = field(default_factory=list)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def winner_line(result: Result, names: Sequence[str]) -> str:
    """``winner: NAMES``, or ``winner: draw`` when every seat (of several) shares first."""
    winners = sorted(result.winners)
    if len(names) > 1 and len(winners) == len(names):
        return "winner: draw"
    return "winner: " + ", ".join(names[s] for s in winners)


def title_of(result: Result, names: Sequence[str]) -> str:
    """ "Ana wins!", "Ana and Ben share first place!" or "It's a draw!"."""
    winners = [names[s] for s in sorted(result.winners)]
    if len(names) > 1 and len(winners) == len(names):
        return child_message("ui.draw")
    if len(winners) == 1:
        return child_message("ui.wins", name=winners[0])
    return child_message("ui.share_first", names=and_joined(winners))


def outcome_of(
    result: Result,
    names: Sequence[str],
    *,
    score: Callable[[Fraction], str] = lambda s: str(s),
    reason: str | None = None,
    lines: Sequence[str] = (),
    stars: Callable[[int], tuple[int, int] | None] = lambda seat: None,
) -> Outcome:
    """The :class:`Outcome` of an engine's ``result`` for seats named ``names``:
    ``score`` words one seat's score ("12 coins"), ``reason`` replaces the result's own
    reason (already in a child's words), ``stars(seat)`` gives a seat's stars."""
    order = sorted(range(len(names)), key=lambda s: (result.places[s], s))
    rows = [
        Standing(s, names[s], result.places[s], score(result.scores[s]), stars(s)) for s in order
    ]
    why = reason if reason is not None else result.reason
    return Outcome(
        title_of(result, names),
        child_message("ui.ended_because", why=why) if why else "",
        rows,
        winner_line(result, names),
        list(lines),
    )


def told_apart(outcome: Outcome, shown: Callable[[int, str], str]) -> Outcome:
    """``outcome`` with each seat's name as its table shows it, ``shown(seat, name)``
    (namesakes told apart, :meth:`~tabletop.ui.table.TableScene.shown`): in the rows, and
    in the title where it is :func:`title_of`'s; the closing line keeps the names."""
    seats = sorted(outcome.rows, key=lambda r: r.seat)
    places = tuple(r.place for r in seats)
    title, won = outcome.title, Result((), places, "")  # who won, as the rows have it
    if title == title_of(won, [r.name for r in seats]):
        title = title_of(won, [shown(r.seat, r.name) for r in seats])
    rows = [replace(r, name=shown(r.seat, r.name)) for r in outcome.rows]
    return replace(outcome, title=title, rows=rows)


class GameResults(Scene):
    """The end of a game (see the module). ``again``: builds the same game's first
    screen again (None: no "Play again"); ``detail``: the game's own end data, kept for
    its demo and tests (the score sheet, the record...), never read here."""

    def __init__(
        self,
        ctx: Context,
        outcome: Outcome,
        *,
        again: Callable[[], Scene] | None = None,
        aside: Callable[[pygame.Surface, pygame.Rect], None] | None = None,
        on_enter: Callable[[], None] | None = None,
        detail: Any = None,
    ) -> None:
        super().__init__(ctx)
        self.outcome = outcome
        self.detail = detail
        self.again = again
        self.aside = aside
        self.on_enter = on_enter
        self.entered = False

    @property
    def winner_line(self) -> str:
        return self.outcome.winner_line

    def enter(self) -> None:
        if not self.entered:
            self.entered = True
            self.ctx.sounds.play("star")
            if self.on_enter is not None:
                self.on_enter()
            for told in self.said():  # once the last move is heard, one after the other
                self.speak(told, after=True)

    def said(self) -> tuple[str, str]:
        """What it says, as shown, a sentence each: the title, why the game ended (or the
        final score), the sentences among the game's lines (the totals compared, the high
        score; not its tallies, which end with no stop); then, said after it, each place
        with its name and score where the standings show them."""
        out = self.outcome
        told = (out.title, out.reason, *(t for t in out.lines if t.strip()[-1:] in ".!?"))
        places = (
            child_message("ui.place", place=ordinal(r.place), name=r.name, score=r.score)
            for r in ([] if self.aside else out.rows)
        )
        return sentences(*told), " ".join(places)

    def exit(self) -> None:
        self.ctx.lamps.light_only([])  # lit by ``on_enter`` (the winners' seats)

    def layout(self, metrics: Metrics) -> None:
        self.buttons = home_and_again(metrics, "Play again", enabled=self.again is not None)

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        if name == "home":
            go_home(self.stack)
        elif name == "again" and self.again is not None:
            self.stack.replace(self.again())

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        out = self.outcome
        size = m.title + m.u(4)
        painter.line(surface, out.title, (m.u(16), m.u(10)), size, m.width - m.u(32), bold=True)
        top = m.u(20) + size
        if out.reason:
            painter.line(surface, out.reason, (m.u(18), top), m.text, m.width - m.u(36), p.muted)
        top += m.text + m.u(14)
        bottom = self.buttons[0].rect.top - m.u(10)
        split = m.width if not out.lines else m.width * 56 // 100
        left = pygame.Rect(m.u(16), top, split - m.u(32), bottom - top)
        if self.aside is not None:
            self.aside(surface, left)
        else:
            self._standings(surface, left)
        if out.lines:
            right = pygame.Rect(split, top, m.width - split - m.u(16), bottom - top)
            painter.box(surface, right, p.panel, p.line, 2, m.u(8))
            text = "\n".join(out.lines)
            painter.paragraph(surface, text, right.inflate(-m.u(16), -m.u(12)), m.text)
        painter.buttons(surface, self.buttons)

    def _standings(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        rows = self.outcome.rows
        step = min(m.u(56), area.height // max(1, len(rows)))
        size = max(
            m.text, min(m.big, step - m.u(14) - (m.u(10) if any(r.stars for r in rows) else 0))
        )
        widest = max((painter.fonts.width(ordinal(r.place), size, True) for r in rows), default=0)
        chip_x = area.left + max(m.u(64), widest + m.u(8))  # "2nd" clear of its chip
        for i, row in enumerate(rows):
            y = area.top + i * step
            mid = y + step // 2
            painter.text(
                surface, ordinal(row.place), (area.left, mid), size, bold=True, anchor="midleft"
            )
            chip = pygame.Rect(chip_x, y + m.u(4), m.u(34), step - m.u(8))
            painter.seat_chip(surface, chip, row.seat, size=m.small)
            name_x = chip.right + m.u(10)
            score_w = painter.fonts.width(row.score, size, True)
            name_mid = mid - m.u(9) if row.stars is not None else mid
            room = max(m.u(60), area.right - name_x - score_w - m.u(16))
            high = step - m.u(4) - (m.u(18) if row.stars is not None else 0)
            # one line, or two of whole words before it would go under the least size
            words, fitted = painter.fit_lines(row.name, size, room, high + m.u(3), bold=True)
            pitch = painter.fonts.font(fitted, True).get_ascent() + m.u(3)
            for k, word in enumerate(words):
                at = (name_x, name_mid + (2 * k + 1 - len(words)) * pitch // 2)
                painter.text(surface, word, at, fitted, bold=True, anchor="midleft", max_width=room)
            ink = p.good if row.place == 1 else p.ink
            painter.text(
                surface, row.score, (area.right, mid), size, ink, bold=True, anchor="midright"
            )
            if row.stars is not None:
                won, goal = row.stars
                radius = min(m.u(9), step // 7)
                for k in range(goal):
                    centre = (name_x + radius + k * (2 * radius + m.u(3)), y + step - radius - 2)
                    painter.star(surface, centre, radius, p.star if k < won else None, p.ink, 1)


__all__ = [
    "GameResults",
    "Outcome",
    "Standing",
    "ordinal",
    "outcome_of",
    "title_of",
    "told_apart",
    "winner_line",
]
