"""Mathe-Meister dialogs: claiming a Bonus Star (and circling a Star Power), the Coin Shop
(a round's dice: :meth:`~.table.MatheMeisterTable.ask_dice`).

``StarPick`` pops with the Star Power circled, or ``"skip"``; ``CoinShop``
with ``("swap", "operators" | "operands")`` when a swap was bought, else ``None``.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from tabletop.engine.words import plural
from tabletop.games.mathe_meister import (
    COIN_POINTS,
    POWER_KINDS,
    ROUNDS,
    SWAP_OPERANDS_COST,
    SWAP_OPERATORS_COST,
    ChangeDie,
    MatheMeisterState,
    line_name,
)
from tabletop.ui.app import Context
from tabletop.ui.games.mathe_meister.play import SoloPlay, glyph
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Dialog
from tabletop.ui.scenes.rules import ChoiceGrid
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid


def star_words(*keys: str) -> str:
    """The star dialog's sentences ``keys`` of the table (``mm.star.<key>``), in turn."""
    return " ".join(child_message(f"mm.star.{key}", points=COIN_POINTS) for key in keys)


# MM-13 in a child's words: the "Why?" of a star the device claimed; in the last round
# it agrees with the note (MM-6, MM-11)
WHY = ("why", "why_device", "why_choose")
AUTO_CLAIM_WHY = star_words(*WHY, "why_next")
LAST_ROUND_WHY = star_words(*WHY, "why_last")


class StarPick(ChoiceGrid):
    """A line is complete: claim its Bonus Star and circle one Star Power. With the
    device's automatic claims (MM-13) the star is already claimed: the child chooses the
    Star Power, may ask "Why?", and cannot say "Not now"."""

    def __init__(self, ctx: Context, line: str, state: MatheMeisterState) -> None:
        name, value = line_name(line), state.settings.layout.star_value(line)
        self.line, self.automatic = line, state.settings.automatic_claims
        last = state.round >= ROUNDS  # MM-6, MM-11: no Star Power is used any more
        free = {k: state.sheets[0].powers_free(state.settings.layout, k) for k in POWER_KINDS}
        labels = {kind: glyph(kind).capitalize() for kind in POWER_KINDS}  # Coin, a sign, a number
        title, text = ("title_auto", "claimed") if self.automatic else ("title", "claim")
        super().__init__(
            ctx,
            child_message(f"mm.star.{title}", line=name, points=value),
            list(labels.items()),
            columns=4,
            rows=2,
            captions={kind: f"{n} left" for kind, n in free.items()},
            prefix="power.",
            off={
                kind: child_message("mm.star.none_left", power=labels[kind])
                for kind, n in free.items()
                if n <= 0
            },
            text=star_words(text),
            note=star_words("last_round", "coin_counts") if last else star_words("powers"),
            why=(LAST_ROUND_WHY if last else AUTO_CLAIM_WHY) if self.automatic else "",
            done=None if self.automatic else ("skip", "Not now"),
            cancel=False,
            cell=64,
            size=(600, 380),
        )


class CoinShop(Dialog):
    """Spend coins: change a die by 1-3 (1-3 coins), or buy a swap (4 or 5 coins). A
    change is made at once by ``play`` (then ``changed()``: the scene's sounds and
    words); a swap pops the dialog, for the boxes to be tapped on the sheet."""

    def __init__(self, ctx: Context, play: SoloPlay, changed: Callable[[], None]) -> None:
        super().__init__(ctx, "Coin Shop", (720, 420))
        self.play, self.changed = play, changed
        self.note = ""  # why the last change was refused (MM-14)

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m, body, play = metrics, self.body(), self.play
        coins = play.sheet.coins(play.settings.layout)
        self.title = f"Coin Shop: you have {plural(coins, 'coin')}"
        self.buttons = []
        self.labels: list[tuple[str, tuple[int, int]]] = []
        self.turn = turn = play.turn
        y, h, label_w = body.top, m.u(56), m.u(190)
        for die, value in enumerate(turn.dice if turn is not None else ()):
            used = turn is not None and turn.used[die]
            said = child_message(f"mm.shop.die{'_written' * used}", die=die + 1, value=value)
            self.labels.append((said, (body.left, y + h // 2)))
            area = pygame.Rect(body.left + label_w, y, body.width - label_w, h)
            spots = [] if used else grid(area, 6, 6, m.u(8))
            for delta, rect in zip((-3, -2, -1, 1, 2, 3), spots):
                label, cost = f"{delta:+d}".replace("-", "\u2212"), abs(delta)
                enabled = 1 <= value + delta <= 6 and cost <= coins
                caption = plural(cost, "coin")
                self.buttons.append(
                    Button(f"d{die}.{delta:+d}", rect, label, enabled, "choice", caption=caption)
                )
            y += h + m.u(12)
        writes_done = turn is not None and turn.writes_done
        swaps = (
            ("operators", "Swap 2 signs", SWAP_OPERATORS_COST),
            ("operands", "Swap 2 numbers", SWAP_OPERANDS_COST),
        )
        area = pygame.Rect(body.left, y + m.u(4), body.width, h)
        for (what, label, cost), rect in zip(swaps, grid(area, 2, 2, m.u(12))):
            enabled = writes_done and coins >= cost
            self.buttons.append(
                Button(f"swap.{what}", rect, label, caption=plural(cost, "coin"), enabled=enabled)
            )
        self.note_y = area.bottom + m.u(8)
        close = pygame.Rect(0, 0, m.u(200), m.u(52))
        close.bottomright = body.bottomright
        self.buttons.append(Button("close", close, "Close", kind="quiet"))

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        painter, m, p, body = self.ctx.painter, self.m, self.ctx.painter.p, self.body()
        for text, pos in self.labels:
            painter.text(surface, text, pos, m.text, bold=True, anchor="midleft")
        y = self.note_y
        if self.turn is not None and not self.turn.writes_done:
            after = child_message("mm.shop.swaps_after")
            painter.text(surface, after, (body.left, y), m.small, p.muted)
            y += m.small + m.u(6)
        area = pygame.Rect(body.left, y, body.width, self.buttons[-1].rect.top - y - m.u(4))
        if self.note:
            painter.paragraph(surface, self.note, area, m.small, p.bad)
        elif self.play.settings.has("fear_of_fours"):
            painter.paragraph(
                surface, child_message("mm.fear_of_fours_shop"), area, m.small, p.muted
            )

    def choose(self, name: str) -> None:
        if name == "close":
            self.stack.pop(None)
        elif name.startswith("swap."):
            self.stack.pop(("swap", name[5:]))
        elif name.startswith("d"):
            done = self.play.perform(ChangeDie(0, int(name[1]), int(name[3:])))
            self.changed()
            self.note = "" if done else self.play.message
            self.layout(self.m)


__all__ = ["AUTO_CLAIM_WHY", "CoinShop", "StarPick"]
