"""The M.E.C.S. area editor (:class:`AreaEditor`): an equation area by touch (a plant, a
hack, a reorder, or a wrong camera reading fixed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pygame

from tabletop.games.mecs_equation import PLAY_CARDS, evaluate
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mecs.cards import CardPageScene, button_row, draw_card
from tabletop.ui.games.mecs.play import LABEL, why_not
from tabletop.ui.input import InputEvent
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import route_to_press
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, Painter


class AreaEditor(Scene):
    """An equation area by touch: tap a gap (``gap.<k>``) to put a card there, tap a card
    (``card.<k>``) to select it, then ``change``, ``remove``, ``left``, ``right`` or
    ``about``; ``done`` pops with the cards, ``cancel`` with None.

    ``palette`` is what may be put down (the hand in virtual play, every card when the
    device cannot see hands); a card added in this edit may be removed again (a card
    already down stays, MECS-4); with ``any_card`` any card may be changed or removed,
    which fixes a wrong camera reading."""

    def __init__(
        self,
        ctx: Context,
        title: str,
        cards: Sequence[str],
        palette: Sequence[str],
        any_card: bool,
        *,
        tried: Sequence[str] = (),
        note: str = "",
    ) -> None:
        super().__init__(ctx)
        self.title, self.any_card, self.note = title, any_card, note
        self.original, self.palette = tuple(cards), list(palette)
        self.cards = list(tried or cards)  # ``tried``: the edit the game refused, ``note`` why
        self.selected: int | None = None
        self.asking: tuple[str, int, list[str]] | None = None  # insert or change, where, from

    def available(self) -> list[str]:
        """Palette cards not yet used in this edit (the palette is in card order, so the
        copies left of a card stay together)."""
        if self.any_card:
            return list(PLAY_CARDS)
        return list((Counter(self.palette) - self.added()).elements())

    def added(self) -> Counter[str]:
        """The cards put down in this edit (not in the area when it opened)."""
        return Counter(self.cards) - Counter(self.original)

    def removable(self, k: int | None) -> bool:
        """Card ``k`` may be removed: any card with ``any_card``, else a card added in this
        edit (or one of its copies: the area holds the same cards either way)."""
        return k is not None and (self.any_card or self.added()[self.cards[k]] > 0)

    def layout(self, metrics: Metrics) -> None:
        m, (W, H), n = metrics, metrics.size, len(self.cards)
        margin, top, bh = m.u(16), m.u(90), m.u(56)
        ch, cw, gap_w = m.u(110), m.u(76), m.u(48)  # a gap: a touch target for "put a card here"
        total = n * cw + (n + 1) * gap_w
        if total > W - 2 * margin:
            scale = (W - 2 * margin) / total
            cw, gap_w = max(16, int(cw * scale)), max(14, int(gap_w * scale))
            ch = min(ch, cw * 3 // 2 + m.u(20))
        total = n * cw + (n + 1) * gap_w
        x = (W - total) // 2
        b: list[Button] = []
        for k in range(n + 1):
            b.append(Button(f"gap.{k}", pygame.Rect(x, top, gap_w, ch), "+", kind="gap"))
            x += gap_w
            if k < n:
                b.append(Button(f"card.{k}", pygame.Rect(x, top, cw, ch), "", kind="card"))
                x += cw
        y = top + ch + m.u(24)
        tools = [("left", "◀ Move"), ("right", "Move ▶"), ("remove", "Remove"), ("about", "About")]
        if self.any_card:
            tools[2:2] = [("change", "Change")]
        tx, on = (W - len(tools) * (m.u(128) + m.u(8))) // 2, self.selected is not None
        style = {"kind": "quiet", "enabled": on, "size": m.small + 2}
        b += button_row(tools, tx, y, (m.u(128), bh), m.u(8), **style)
        next(tool for tool in b if tool.name == "remove").enabled = self.removable(self.selected)
        note, y = y + bh + m.u(10), H - margin - bh  # the note under the tools, over Done
        b.append(Button("cancel", pygame.Rect(margin, y, m.u(160), bh), "Cancel", kind="quiet"))
        b.append(Button("done", pygame.Rect(W - margin - m.u(200), y, m.u(200), bh), "Done"))
        self.note_rect = pygame.Rect(margin, note, W - 2 * margin, y - note - m.u(6))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event, back="cancel", refuse=self.refuse)

    def refuse(self, name: str) -> None:
        """A tool that is off: say why (no card chosen, or a card that was already down)."""
        self.ctx.sounds.play("wrong")
        self.note = child_message(f"mecs.edit.{'pick_first' if self.selected is None else 'kept'}")

    def press(self, name: str) -> None:
        self.note = ""  # a refusal's words go at the next tap
        if name in ("cancel", "done"):  # Done: the cards; Cancel: nothing changes
            self.stack.pop(tuple(self.cards) if name == "done" else None)
            return
        kind, _, arg = name.partition(".")
        k = int(arg) if arg else self.selected
        j = (k or 0) + (-1 if name == "left" else 1)  # where a move puts the card
        if kind == "gap" and not self.available():
            self.ctx.sounds.play("wrong")
            self.note = child_message("mecs.edit.no_card")
        elif kind == "gap":
            self.choose(("insert", int(arg), self.available()), child_message("mecs.edit.which"))
        elif kind == "card":
            self.selected = None if self.selected == k else k
        elif k is None:
            return
        elif name in ("left", "right") and 0 <= j < len(self.cards):
            self.cards[j], self.cards[k] = self.cards[k], self.cards[j]
            self.selected = j
        elif name == "remove":
            self.cards.pop(k)
            self.selected = None
        elif name == "change":
            self.choose(("change", k, list(PLAY_CARDS)), child_message("mecs.edit.really"))
        elif name == "about":
            self.stack.push(CardPageScene(self.ctx, self.cards[k]))
        self.layout(self.m)

    def choose(self, asking: tuple[str, int, list[str]], title: str) -> None:
        """Ask which card of ``asking``'s choices to put at its place (insert or change)."""
        self.asking = asking
        grid, cards = [(f"{i}", LABEL[c]) for i, c in enumerate(asking[2])], asking[2]

        def face(painter: Painter, surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
            draw_card(painter, surface, rect, cards[int(key)])  # as the table draws it

        self.stack.push(ChoiceGrid(self.ctx, title, grid, columns=7, rows=3, face=face))

    def resume(self, result: Any) -> None:
        asking, self.asking = self.asking, None
        if asking is not None and isinstance(result, str) and result.isdigit():
            what, k, choices = asking
            if what == "insert":
                self.cards.insert(k, choices[int(result)])
                self.selected = None
            else:
                self.cards[k] = choices[int(result)]
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        at, width = (m.u(16), m.u(12)), m.width - m.u(32)
        painter.text(surface, self.title, at, m.title, bold=True, max_width=width)
        at, width = (m.u(18), m.u(16) + m.title), m.width - m.u(36)
        text = child_message(f"mecs.edit.{'how_fix' if self.any_card else 'how'}")
        painter.text(surface, text, at, m.small, p.muted, max_width=width)
        for b in self.buttons:
            if b.kind == "card":
                k = int(b.name[5:])
                draw_card(painter, surface, b.rect, self.cards[k], selected=self.selected == k)
            elif b.kind == "gap":  # a line where the card would go, and a "+" to tap
                r = b.rect
                line = ((r.centerx, r.top + m.u(10)), (r.centerx, r.bottom - m.u(10)))
                pygame.draw.line(surface, p.line, *line, 1)
                pygame.draw.circle(surface, p.button, r.center, min(r.width // 2 - 2, m.u(18)))
                white = (255, 255, 255)
                painter.text(surface, "+", r.center, m.small + 2, white, bold=True, anchor="center")
            else:
                painter.button(surface, b)
        verdict = evaluate(self.cards) if self.cards and not self.note else None
        text, colour = self.note, p.bad  # a refusal, until the next tap
        if verdict is not None and verdict.valid:
            text, colour = child_message("mecs.edit.complete", equation=verdict.text), p.good
        elif verdict is not None:
            text, colour = child_message("mecs.area.unfinished", what=why_not(verdict)), p.ink
        if text:
            painter.paragraph(surface, text, self.note_rect, m.text, colour, align="center")


__all__ = ["AreaEditor"]
