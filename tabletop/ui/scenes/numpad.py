"""A number pad: digits, minus, an optional fraction bar, backspace and OK.

``NumPad`` is a dialog over the scene below; it pops with the typed value (an ``int``,
or a ``Fraction`` when the fraction bar is on and was used) or ``None`` on Cancel/Back.
Any game that asks a child for a number can push it. Touch targets: ``num.0``..
``num.9``, ``num.minus``, ``num.frac``, ``num.back``, ``ok``, ``cancel``; a real keyboard
types digits, ``-``, ``/``, Backspace and Enter.
"""

from __future__ import annotations

from fractions import Fraction

import pygame

from tabletop.ui.app import Context
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Dialog
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

MINUS = "\u2212"
BACKSPACE = "\u2190"
LABELS = {"back": BACKSPACE, "minus": MINUS, "frac": "/"}
# The keys, four to a row
ROWS = (
    ("7", "8", "9", "back"),
    ("4", "5", "6", "minus"),
    ("1", "2", "3", "frac"),
)
KEYBOARD = {
    "digit": "num.{}",
    "-": "num.minus",
    "/": "num.frac",
    "backspace": "num.back",
    "return": "ok",
    "enter": "ok",
}


def parse_typed(text: str, *, fractions: bool = False) -> int | Fraction | None:
    """The value of what was typed (``"-12"``, ``"3/4"``), or None if it is not a whole
    number yet (empty, a lone minus, a fraction without its bottom or over 0)."""
    body = text.removeprefix("-")
    top, slash, bottom = body.partition("/")
    if not top.isdigit() or (slash and not (fractions and bottom.isdigit() and int(bottom))):
        return None
    value = Fraction(int(top), int(bottom) if slash else 1) * (-1 if body != text else 1)
    return int(value) if value.denominator == 1 else value


class NumPad(Dialog):
    """Type a number; pops with it (see the module)."""

    back_choice, keys = "cancel", KEYBOARD

    def __init__(
        self,
        ctx: Context,
        title: str,
        *,
        negative: bool = True,
        fractions: bool = False,
        max_digits: int = 5,
        hint: str = "",
        beside: pygame.Rect | None = None,
        band: bool = False,
    ) -> None:
        """``beside``: the cards the number is about, which the pad keeps clear of."""
        super().__init__(ctx, title, size=(540, 450), beside=beside, band=band)
        self.negative, self.fractions, self.max_digits = negative, fractions, max_digits
        self.hint = hint
        self.typed = self.message = ""
        self.display = pygame.Rect(0, 0, 0, 0)

    @property
    def value(self) -> int | Fraction | None:
        return parse_typed(self.typed, fractions=self.fractions)

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m, body, gap = metrics, self.body(), metrics.u(8)
        off = {"minus": not self.negative, "frac": not self.fractions}
        if self.panel.width > 2 * self.panel.height:  # a band across the screen: two rows
            cells = grid(
                pygame.Rect(body.topleft, (body.width, (body.height - gap) // 2)), 20, 10, gap
            )
            self.display = cells[10].union(cells[13])
            keys, rects = [*"1234567890", "back", "minus", "frac"], [*cells[:10], *cells[14:17]]
            cancel, ok = cells[17].union(cells[18]), cells[19]
        else:
            self.display = pygame.Rect(body.left, body.top, body.width, m.u(58))
            top, rows = self.display.bottom + gap, len(ROWS) + 1
            h = (body.bottom - top - gap * (rows - 1)) // rows
            cells = grid(pygame.Rect(body.left, top, body.width, h), 4 * rows, 4, gap)
            # Cancel in its word, never a cross (read as "times" beside − and /): on a pad
            # too narrow for it in one key (kept beside cards) it takes two keys, OK one
            least = self.ctx.painter.least
            if self.ctx.painter.fonts.width("Cancel", least, True) > cells[-4].width - m.u(10):
                cancel, zero, ok = cells[-4].union(cells[-3]), cells[-2], cells[-1]
            else:  # OK is two keys wide
                cancel, zero, ok = cells[-4], cells[-3], cells[-2].union(cells[-1])
            keys, rects = [*(key for row in ROWS for key in row), "0"], [*cells[:12], zero]
        self.buttons = [
            Button(
                f"num.{k}", rect, LABELS.get(k, k), kind="quiet", enabled=not off.get(k), size=m.big
            )
            for k, rect in zip(keys, rects)
        ]
        self.buttons += [Button("cancel", cancel, "Cancel", kind="quiet"), Button("ok", ok, "OK")]
        self._refresh()

    def _refresh(self) -> None:
        ok = self.target("ok")
        if ok is not None:
            ok.enabled = self.value is not None

    def refuse(self, name: str) -> None:
        """A key that is off (OK, minus, the fraction bar): say why."""
        self.ctx.sounds.play("wrong")
        self.message = child_message(f"ui.pad_{name.removeprefix('num.')}")

    def press(self, name: str) -> None:
        self.message = ""
        if name == "cancel":
            self.stack.pop(None)
        elif name == "ok":
            self.stack.pop(self.value)
        elif name == "num.back":
            self.typed = self.typed[:-1]
        elif name == "num.minus":
            # the sign goes in front, whenever it is pressed; pressed again it goes away
            self.typed = self.typed[1:] if self.typed.startswith("-") else "-" + self.typed
        elif name == "num.frac":
            if "/" not in self.typed and self.typed.lstrip("-"):
                self.typed += "/"
        elif sum(ch.isdigit() for ch in self.typed) < self.max_digits:
            self.typed += name[4:]
        else:
            self.message = child_message("ui.pad_full")
        self._refresh()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        painter.box(surface, self.display, p.background, p.line, 2, m.u(8))
        shown = self.typed.replace("-", MINUS) or (self.hint if not self.message else "")
        colour = p.ink if self.typed else p.muted
        size = m.title + m.u(6) if self.typed else m.text
        drawn = painter.text(
            surface,
            shown,
            (self.display.right - m.u(14), self.display.centery),
            size,
            colour,
            bold=bool(self.typed),
            anchor="midright",
            max_width=self.display.width - m.u(28),
        )
        if self.message:  # left of the number typed, on two lines before it is cut
            room = self.display.copy()
            room.width = drawn.left - room.left
            painter.label(surface, self.message, room, m.small, p.bad, margin=m.u(16))


__all__ = ["NumPad", "parse_typed"]
