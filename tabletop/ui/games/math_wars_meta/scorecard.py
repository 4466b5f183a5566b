"""Math Wars Meta's Score Cards on screen: where each seat's panel, cards, answer box and
I'm ready! tile go, and how they are drawn. The table scene (:mod:`.table`) mixes
:class:`ScoreCards` in; the controller (:class:`~.play.MwmPlay`) says what to show.

Every caption is drawn at its size or cut short with "…", never shrunk: child-facing
text stays at 16 px or more at 800x480 (issue 21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from tabletop.games.math_wars_meta import face_down, hand_result
from tabletop.ui.app import Context
from tabletop.ui.games.math_wars_meta.cards import crate_label, signed
from tabletop.ui.games.math_wars_meta.play import MwmPlay
from tabletop.ui.theme import SEAT_COLOURS, Color, Metrics
from tabletop.ui.widgets import Button, grid

CRATE_FILL = (255, 246, 196)
WHITE = (255, 255, 255)


class ScoreCards:
    """Lays out and draws every seat's Score Card (see the module)."""

    ctx: Context
    m: Metrics
    play: MwmPlay
    buttons: list[Button]
    panels: list[pygame.Rect]

    if TYPE_CHECKING:

        def target(self, name: str) -> Button | None: ...

    # -- layout ---------------------------------------------------------------------------

    def score_card_buttons(self, top: int, bottom: int) -> list[Button]:
        """The panels between ``top`` and ``bottom``, and each seat's touch targets."""
        m, n = self.m, len(self.play.seats)
        margin, gap = m.u(12), m.u(8)
        cols = 1 if n == 1 else 3 if n == 6 else min(4, n)
        rows = -(-n // cols)
        area = pygame.Rect(margin, top, m.width - 2 * margin, bottom - top)
        if n == 1:  # one Score Card: not wider than 520, in the middle
            area.width = min(area.width, m.u(520))
            area.left = (m.width - area.width) // 2
        self.panels = grid(area, n, cols, gap, (area.height - (rows - 1) * gap) // rows)
        return [b for seat, rect in enumerate(self.panels) for b in self._panel_buttons(seat, rect)]

    def _panel_buttons(self, seat: int, r: pygame.Rect) -> list[Button]:
        m = self.m
        head, foot, gap = m.u(30), m.u(26), m.u(6)
        inner = pygame.Rect(
            r.left + m.u(6), r.top + head + m.u(4), r.width - m.u(12), r.height - head - foot - 10
        )
        if inner.height >= inner.width * 0.9:
            # a tall Score Card: the two cards side by side, YOUR SOLUTION below them
            cw = (inner.width - gap) // 2
            ch = min(int(cw * 1.3), (inner.height - gap) * 6 // 10)
            count = pygame.Rect(inner.left, inner.top, cw, ch)
            crate = pygame.Rect(count.right + gap, inner.top, cw, ch)
            solve = pygame.Rect(inner.left, count.bottom + gap, inner.width, 0)
            solve.height = min(inner.bottom - solve.top, m.u(110))
        else:
            ch = min(inner.height, m.u(150))
            cw = min(int(ch * 0.72), (inner.width - m.u(24)) // 3)
            ch = min(ch, int(cw / 0.6))
            y = inner.top + (inner.height - ch) // 2
            count = pygame.Rect(inner.left, y, cw, ch)
            crate = pygame.Rect(count.right + gap, y, cw, ch)
            eq = m.u(22)
            solve = pygame.Rect(crate.right + eq, y, inner.right - crate.right - eq, ch)
        chip = pygame.Rect(r.left + m.u(4), r.top + m.u(4), r.width - m.u(8), head - m.u(2))
        out = [
            Button(f"seat.{seat}", chip, self.play.name(seat), kind="seat"),
            Button(f"count.{seat}", count, "", kind="count"),
            Button(f"crate.{seat}", crate, "", kind="crate"),
        ]
        if self.play.wants_press(seat):  # the seat button's touch twin under the answer
            tall = m.u(52)
            ready = pygame.Rect(solve.left, solve.bottom - tall, solve.width, tall)
            solve.height -= tall + m.u(6)
            out.append(Button(f"ready.{seat}", ready, "", kind="ready"))
        out.append(Button(f"solve.{seat}", solve, "", kind="solve"))
        return out

    def cards_of(self, seat: int) -> pygame.Rect:
        """Where ``seat``'s two cards are on screen (a number pad stays off them)."""
        return self.place("count", seat).union(self.place("crate", seat))

    def place(self, kind: str, seat: int) -> pygame.Rect:
        """Where ``seat``'s ``kind`` target (seat, count, crate, solve) is on screen."""
        button = self.target(f"{kind}.{seat}")
        assert button is not None
        return button.rect

    # -- drawing --------------------------------------------------------------------------

    def caption(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        colour: Color,
        width: int,
        *,
        size: int = 0,
        bold: bool = False,
        anchor: str = "midbottom",
        whole: bool = False,
    ) -> None:
        """``text`` at ``size`` (the captions' 16 px at 800x480), cut to ``width`` (with
        ``whole``: left out unless it fits)."""
        painter = self.ctx.painter
        size = size or painter.least
        if whole and painter.fonts.width(text, size, bold) > width:
            return
        text = painter.ellipsis(text, size, max(1, width), bold)
        painter.text(surface, text, pos, size, colour, bold=bold, anchor=anchor)

    def title_line(self) -> str:
        play = self.play
        state, verdict = play.state, play.verdict
        if verdict is None:
            title = f"Round {state.round} \u00b7 Hand {state.hands + 1}"
            return title + (" \u00b7 MATH WAR!" if state.stage.kind == "war" else "")
        title = f"Round {verdict.round} \u00b7 Hand {verdict.hand}"
        if verdict.highest is not None:
            title += f" \u00b7 HIGHEST {signed(verdict.highest)}"
        return title + (" \u00b7 WAR!" if verdict.war else "")

    def draw_panel(self, surface: pygame.Surface, seat: int, r: pygame.Rect) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        play = self.play
        zone, verdict = play.state.zones[seat], play.verdict
        stage = verdict.stage if verdict is not None and verdict.stage.up else play.state.stage
        active = seat in stage.seats and not zone.out
        lit = seat in play.ready
        border = p.selected if lit or seat in play.waiting_for_cards() else p.line
        fill = p.panel if not zone.out else p.quiet
        painter.box(surface, r, fill, border, m.u(3) if lit else 2, m.u(10))
        chip = self.place("seat", seat)
        num = pygame.Rect(chip.left, chip.top, m.u(30), chip.height)
        painter.seat_chip(surface, num, seat, size=m.small + 2)
        side = play.settings.side_of(seat)
        right = f"\u2605{play.state.victories[side]}"
        if play.settings.mode == "teams":
            right = f"T{side + 1} {right}"
        rw = painter.fonts.width(right, m.small - 2) + m.u(4)
        at = (chip.right - m.u(4), chip.centery)
        self.caption(surface, right, at, p.muted, rw, anchor="midright")
        room = chip.width - num.width - rw - m.u(10)
        at, name = (num.right + m.u(6), chip.centery), play.name(seat)
        self.caption(surface, name, at, p.ink, room, size=m.small, bold=True, anchor="midleft")
        up = stage.up[seat] if stage.up else None
        crate = stage.crates[seat] if stage.crates else None
        count_at, crate_at, solve_at = (self.place(k, seat) for k in ("count", "crate", "solve"))
        number = up[1] if up else None
        label = None if number is None else str(number)
        self._slot(surface, count_at, "COUNT", label, active, WHITE, SEAT_COLOURS[seat], 5)
        down = face_down(play.state, seat)
        if down and number is not None:
            at = (count_at.right - m.u(4), count_at.top + m.u(6))
            text = f"+{down}\u2193"
            self.caption(surface, text, at, p.bad, count_at.width, bold=True, anchor="topright")
        face = None if crate is None else crate_label(crate)
        self._slot(surface, crate_at, "CRATE", face, active, CRATE_FILL, p.line)
        if solve_at.left > crate_at.right:
            eq = ((crate_at.right + solve_at.left) // 2, crate_at.centery)
            painter.text(surface, "=", eq, m.big, bold=True, anchor="center")
        self._solution(surface, solve_at, seat, number, crate)
        tile = self.target(f"ready.{seat}")
        if tile is not None:  # I'm ready! (lit once the seat pressed, like its LED)
            words = ("Ready \u2713" if lit else "I'm ready!", "Ready", "\u2713")
            room = tile.rect.width - m.u(12)
            label = next(
                w for w in words if painter.fonts.width(w, m.small, True) <= room or w == "\u2713"
            )
            painter.ready_tile(surface, tile.rect, seat, lit, label)
        foot_y = r.bottom - m.u(16)
        text, colour = self._foot(seat)
        room = r.width - m.u(16)
        deck = f"deck {len(zone.draw)}"
        deck_w = painter.fonts.width(deck, m.small - 2) + m.u(12)
        if painter.fonts.width(text, m.small - 1, True) <= room - deck_w:  # else the ruling
            room -= deck_w
            at = (r.right - m.u(10), foot_y)
            self.caption(surface, deck, at, p.muted, deck_w, anchor="midright")
        at = (r.left + m.u(8), foot_y)
        self.caption(surface, text, at, colour, room, size=m.small - 1, bold=True, anchor="midleft")

    def _slot(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        caption: str,
        label: str | None,
        active: bool,
        fill: Color,
        border: Color,
        width: int = 2,
    ) -> None:
        """A seat's count or crate: empty (a "?" while the seat is to show it) or its
        ``label`` large, with ``caption`` at the foot."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        if label is None:
            painter.box(surface, rect, p.background, p.muted if active else p.quiet, 2, m.u(8))
            if active:
                painter.text(surface, "?", rect.center, m.big, p.muted, bold=True, anchor="center")
        else:
            painter.box(surface, rect, fill, border, max(2, m.u(width)), m.u(8))
            size = min(m.big + m.u(16), rect.height // 2)  # smaller to fit, never below 18
            while size > m.small and painter.fonts.width(label, size, True) > rect.width - 6:
                size -= 1
            painter.text(surface, label, rect.center, size, p.ink, bold=True, anchor="center")
        at = (rect.centerx, rect.bottom - m.u(5))
        self.caption(surface, caption, at, p.muted, rect.width - 6, whole=True)

    def _solution(
        self, surface: pygame.Surface, rect: pygame.Rect, seat: int, number: int | None,
        crate: str | None,
    ) -> None:  # fmt: skip
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        play = self.play
        verdict = play.verdict
        solving = seat in play.solving()
        fill = WHITE if solving else p.background
        border = p.selected if solving and seat not in play.ready else p.line
        painter.box(surface, rect, fill, border, m.u(3) if solving else 2, m.u(8))
        label = next(
            (t for t in ("YOUR SOLUTION", "SOLUTION", "YOURS")
             if painter.fonts.width(t, m.small - 2) <= rect.width - 6),
            "",
        )  # fmt: skip
        at = (rect.centerx, rect.top + m.u(4))
        self.caption(surface, label, at, p.muted, rect.width - 6, anchor="midtop")
        big = min(m.big + m.u(6), rect.height // 2)
        foot = (rect.centerx, rect.bottom - m.u(4))
        if verdict is not None and number is not None:
            right = verdict.answers.get(seat)
            value = right.solution if right else hand_result(number, crate)
            entry = verdict.entries.get(seat)
            ok = right is not None and entry is not None and entry.solution == right.solution
            colour = p.ink if right is None else p.good if ok else p.bad
            painter.text(
                surface, signed(value), rect.center, big, colour, bold=True, anchor="center"
            )
            if right is not None and entry is not None:
                mark = "\u2713 right" if ok else f"\u2717 not {signed(entry.solution)}"
                self.caption(surface, mark, foot, colour, rect.width - 6, bold=True)
            return
        if seat in play.ready:
            mark, word, colour = "\u2713", "ready", p.good
        elif seat in play.typed:
            mark, word, colour = "\u2022\u2022\u2022", "press button", p.bad
        elif solving:
            mark, word, colour = "?", "tap", p.muted
        else:
            return
        ink = p.good if colour == p.good else p.selected if mark == "?" else p.ink
        painter.text(surface, mark, rect.center, big, ink, bold=True, anchor="center")
        if rect.height >= big + 3 * m.small:  # room under the mark (not above a Ready tile)
            self.caption(surface, word, foot, colour, rect.width - 6)

    def _foot(self, seat: int) -> tuple[str, Color]:
        """The Score Card's last line: HIGHEST, difference, cards lost, or what to do."""
        play, p = self.play, self.ctx.painter.p
        zone, verdict = play.state.zones[seat], play.verdict
        if zone.out and (verdict is None or seat not in verdict.lost):
            return "OUT of this round", p.bad
        if verdict is not None and verdict.highest is not None and seat in verdict.stage.seats:
            team = ""
            if play.settings.mode == "teams" and verdict.side_results:
                value = verdict.side_results[play.settings.side_of(seat)]
                team = f"team {value} \u00b7 " if value is not None else ""
            if seat in verdict.lost:
                diff, lost = verdict.difference[seat], verdict.lost[seat]
                return f"{team}diff {diff} \u00b7 loses {lost}", p.bad
            if verdict.war:
                return f"{team}tie: MATH WAR!", p.bad
            return f"{team}wins the hand!", p.good
        if play.seats[seat].bot:
            return "bot", p.muted
        if seat in play.waiting_for_cards():
            return "cards, please!", p.ink
        if seat in play.solving():
            return "ready!" if seat in play.ready else "your answer?", p.ink
        return "", p.muted


__all__ = ["CRATE_FILL", "ScoreCards"]
