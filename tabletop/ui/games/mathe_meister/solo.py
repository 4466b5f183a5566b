"""Solo Mathe-Meister on the touchscreen: the digital tracking sheet. What a tap does is
the controller's (:class:`~.play.SoloPlay`); the scene draws it and opens the dialogs it
asks for (dice, Bonus Star, Coin Shop).

Touch targets: ``die0`` ``die1`` (``die0.3`` / ``die0.5`` for a 4 under Fear of Fours),
``op.+`` ``op.-`` ``op.x``, ``power.<i>`` (Star Power i of the sheet),
``cell.r<r>c<c>``, ``star.R1``..``star.C4``, ``shop``, ``hint``, ``undo``, ``done``,
``cancel``, ``dice``, ``mute``, ``leave``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from tabletop.engine.words import plural
from tabletop.games.mathe_meister import (
    ALL_CELLS,
    LINES,
    OPS,
    ROUNDS,
    MatheMeisterSettings,
    MatheMeisterState,
    die_values,
    score_sheet,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context
from tabletop.ui.games.mathe_meister.dialogs import CoinShop, StarPick
from tabletop.ui.games.mathe_meister.play import MMMatch, SoloPlay, new_match, score_lines
from tabletop.ui.games.mathe_meister.sheet import SheetGeometry, SheetLook, draw_sheet, glyph
from tabletop.ui.games.mathe_meister.table import MatheMeisterTable
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave
from tabletop.ui.scenes.dice import DiceResult
from tabletop.ui.scenes.rotation import teacher_items
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid


def sheet_geometry(m: Metrics) -> SheetGeometry:
    """The sheet as large as the height leaves room for, with the message (800x480) or
    the END GAME SCORING table (1280x720) under it: the designed boxes (48 px at 800x480,
    64 px at 1280x720) on the whole screen, smaller above a station rotation's banner."""
    small = m.name == "small"
    origin, cell, gap, tail = (8, 48, 4, 62) if small else (12, 64, 5, 84)
    below = m.u(48) if small else m.u(96)
    # 8 boxes high (7 rows and the stars under them), 7 gaps and a tail's gap and border
    room = m.height - origin - m.u(6) - below - m.u(4) - 7 * gap - 2
    fit = max(16, min(cell, room // 8))
    return SheetGeometry((origin, origin), fit, gap, round(tail * fit / cell), fit)


# The panel beside the sheet, its rows top to bottom: how many Star Powers a row holds,
# then (Star Power height, row heights) in base units, as designed and, where the height
# does not hold them with a little air, the dice (and the Star Powers or the message) a
# little lower, never under a touch target. 1280x720 has the message in the panel.
PANEL: dict[str, tuple[int, list[tuple[int, tuple[int, ...]]]]] = {
    "small": (4, [(52, (48, 64, 52, 3 * 52 + 8, 52, 48)), (48, (48, 52, 48, 3 * 48 + 8, 48, 48))]),
    "large": (
        6,
        [(48, (44, 64, 52, 2 * 48 + 4, 48, 58, 44)), (48, (44, 56, 52, 2 * 48 + 4, 48, 52, 44))],
    ),
}
ROWS = ("header", "dice", "signs", "powers", "tools", "message", "done")


class MatheMeisterScene(MatheMeisterTable):
    """One child, one sheet, eight rounds. ``seats``: the child as the journal knows them;
    ``match`` and ``save`` carry on a journaled game (its seed is the match's)."""

    play: SoloPlay
    teacher_undo = False  # its Undo is the child's own take-back (no PIN): Teacher, not it,
    # is the way to the teacher's menu while a rotation runs (the message leaves it room)

    def __init__(
        self,
        ctx: Context,
        *,
        seats: Sequence[SeatInfo],
        modes: Sequence[str] = ("freestyle",),
        dice_mode: str | None = None,
        match: MMMatch | None = None,
        save: GameSave | None = None,
    ) -> None:
        player = seats[0].name
        # "Play again" is the solo results' (see show_results)
        super().__init__(ctx, seats, {"screen": "solo", "player": player}, dice_mode, match, save)
        match = match or new_match(ctx.layout, modes, self.seed)
        self.play = SoloPlay(match, player=player, seed=self.seed)
        if save is not None and save.id is not None:  # "Dice tapped in" as before it stopped
            self.play.dice_source = ctx.journal.dice_source(save.id)

    # -- the controller's, for the tests and the demo ----------------------------------------

    @property
    def state(self) -> MatheMeisterState:
        return self.play.state

    @property
    def settings(self) -> MatheMeisterSettings:
        return self.play.settings

    # -- lifecycle --------------------------------------------------------------------------

    def enter(self) -> None:
        self.save.attach(self.match)
        self.play.welcome(self.resumed)
        self.after()

    def press(self, name: str) -> None:
        if name == "mute":
            self.ctx.set_sound(muted=not self.ctx.sounds.muted)
        elif name in ("leave", "rules", "teacher"):
            super().press(name)
        else:
            self.play.press(name)

    def explain(self, name: str) -> None:
        self.play.explain(name)

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        if asking[0] != "dice":
            self.play.answered(asking, result, int(self.ctx.clock() * 1000))
        elif isinstance(result, DiceResult):
            self.play.rolled(result.values, result.source)
        else:
            self.play.no_dice()

    def after(self) -> None:
        """Sounds and words, the journal, the end, and the next dialog the game asks for."""
        play = self.play
        if self.stack.top is self:
            play.offer_next()
        self.sound()
        self.save.answers_from_match(play.answers())
        super().after()
        asks, play.asks = play.asks, []
        if asks and self.stack.top is self:
            self.open(asks[0])

    def sound(self) -> None:
        """The controller's sounds, and its new words aloud."""
        for name in self.play.sounds:
            self.ctx.sounds.play(name)
        self.play.sounds.clear()
        self.voice()

    def open(self, ask: tuple[str, ...]) -> None:
        if ask[0] == "dice":  # what to do on its screen, after what just happened
            mode = self.ask_dice(self.state.round, self.play.roll)
            step = child_message(f"mm.step.dice_{mode}", round=self.state.round)
            if self.play.tone == "good":  # the stars the round's end gave stay on the line
                self.speak(step, step=True)
            else:
                self.say(f"{self.play.message} {step}".strip())
        elif ask[0] == "star":
            self.ask(ask, StarPick(self.ctx, ask[1], self.state))
        elif ask[0] == "shop":
            self.ask(ask, CoinShop(self.ctx, self.play, self.sound))

    def show_results(self) -> None:
        """The end is the solo results (the finished sheet), not the base's outcome."""
        from tabletop.ui.games.mathe_meister.results import solo_results

        self.stack.replace(solo_results(self.ctx, self.match, self.save.seats[0], self.dice_mode))

    # -- layout ------------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        """800x480: the message under the sheet; 1280x720: the END GAME SCORING table
        under it, the message in the panel beside it (to the foot of the screen); while a
        rotation runs, Teacher at the message's end (800x480: at Done's, where a hint
        beside it went in pages that turned)."""
        m, self.geo = metrics, sheet_geometry(metrics)
        bounds, small = self.geo.bounds, m.name == "small"
        below = pygame.Rect(
            bounds.left, bounds.bottom + m.u(6), bounds.width, m.height - bounds.bottom - m.u(10)
        )
        self.table = None if small else below
        pad, left = (8, bounds.right + 10) if small else (12, bounds.right + 16)
        panel = pygame.Rect(left, pad, m.width - left - pad, m.height - 2 * pad)
        self.power_columns, options = PANEL[m.name]
        power, heights = next(
            (o for o in options if m.u(sum(o[1]) + 4 * (len(o[1]) - 1)) <= panel.height),
            options[-1],
        )
        self.power_h, y = m.u(power), panel.top
        gap = (panel.height - sum(m.u(h) for h in heights)) // (len(heights) - 1)
        self.rows: dict[str, pygame.Rect] = {}
        for name, h in zip((r for r in ROWS if r != "message" or not small), heights):
            self.rows[name] = pygame.Rect(panel.left, y, panel.width, m.u(h))
            y += m.u(h) + gap
        self.message_rect = self.rows.get("message", below).copy()
        self.teacher: pygame.Rect | None = None
        if teacher_items(self.ctx):  # at 800x480 at Done's end: the message keeps its room
            beside = self.rows["done"] if small else self.message_rect
            beside.width -= m.u(102)
            self.teacher = pygame.Rect(beside.right + m.u(6), beside.top, m.u(96), beside.h)
        self._buttons()

    # -- what is shown ------------------------------------------------------------------------

    def _buttons(self) -> None:
        """Lay the targets out for the sheet as it is now (draw only paints them)."""
        play, settings, m, rows = self.play, self.settings, self.m, self.rows
        sheet, turn, first = play.sheet, play.turn, play.swap_first()
        self.card = score_sheet(sheet, settings)
        selected = frozenset({first} if first is not None else ())
        ghosts, claimable = play.ghosts(), play.claimable()
        self.look = SheetLook(sheet, settings, self.card, selected, ghosts, claimable, play.fresh())
        r, muted = rows["header"], self.ctx.sounds.muted  # Sound and Leave on the right
        mute = pygame.Rect(r.right - m.u(146), r.top, m.u(72), r.height)
        leave = pygame.Rect(r.right - m.u(70), r.top, m.u(70), r.height)
        sound = "Muted" if muted else "Sound"
        buttons = [
            Button("mute", mute, sound, True, "toggle", muted, size=m.small),
            Button("leave", leave, "Leave", kind="quiet", size=m.small),
        ]
        # the dice: a 4 under Fear of Fours is a 3 and a 5 to choose from
        r = rows["dice"]
        if turn is None:
            rect = pygame.Rect(r.left, r.top, m.u(200), r.height)
            buttons.append(Button("dice", rect, "Get the dice", enabled=not play.state.finished))
        x = r.left
        for die, value in enumerate(turn.dice if turn is not None else ()):
            free = turn is not None and not turn.used[die]
            if len(alts := die_values(settings, value)) > 1 and free:
                for alt in alts:
                    rect = pygame.Rect(x, r.top, m.u(56), r.height)
                    on = play.pen == ("die", die, alt)
                    buttons.append(
                        Button(f"die{die}.{alt}", rect, str(alt), True, "choice", on, "for 4")
                    )
                    x += m.u(60)
            else:
                rect = pygame.Rect(x, r.top, r.height, r.height)
                on = play.pen is not None and play.pen[:2] == ("die", die)
                buttons.append(Button(f"die{die}", rect, str(value), free, "die", selected=on))
                x += r.height + m.u(8)
        for i, (op, rect) in enumerate(zip(OPS, grid(rows["signs"], 3, 3, m.u(8)))):
            left, on = sheet.supply[i], play.pen == ("op", op)
            caption, enabled = f"{left} left", left > 0 and turn is not None
            buttons.append(
                Button(f"op.{op}", rect, glyph(op), enabled, "choice", on, caption, m.big)
            )
        # Star Powers: 4 x 3 (6 x 2 at 1280x720), each a coin, a sign or a number
        n, columns = len(sheet.powers), self.power_columns
        spots = grid(rows["powers"], n, columns, m.u(6), self.power_h, down=m.u(4))
        powers = zip(settings.layout.star_powers, sheet.powers, spots)
        for i, (kind, power, rect) in enumerate(powers):
            on, circled = play.power_selected(i), power == "circled"
            buttons.append(Button(f"power.{i}", rect, glyph(kind), circled, "power", on, power))
        tools = (
            ("shop", "Shop", not settings.has("coinless") and turn is not None, "primary"),
            ("hint", "Hint", turn is not None and not turn.done, "quiet"),
            ("undo", "Undo", play.in_round(), "quiet"),
            ("rules", "Rules", True, "quiet"),
        )
        coins = plural(sheet.coins(settings.layout), "coin")
        for rect, (name, label, enabled, kind) in zip(grid(rows["tools"], 4, 4, m.u(6)), tools):
            caption = coins if name == "shop" else ""
            buttons.append(Button(name, rect, label, enabled, kind, caption=caption, size=m.text))
        if self.teacher:
            buttons.append(Button("teacher", self.teacher, "Teacher", kind="quiet", size=m.small))
        if play.swap:
            buttons.append(Button("cancel", rows["done"].copy(), "Cancel the swap", kind="quiet"))
        else:
            done = f"Done with round {play.state.round}"
            buttons.append(Button("done", rows["done"].copy(), done, enabled=play.may_end()))
        buttons += [
            Button(f"cell.r{r}c{c}", self.geo.cell_rect((r, c)), kind="cell") for r, c in ALL_CELLS
        ]
        buttons += [Button(f"star.{line}", self.geo.star_rect(line), kind="cell") for line in LINES]
        self.buttons = buttons

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        draw_sheet(surface, painter, self.geo, self.look)
        r = self.rows["header"]
        room = r.width - m.u(152)
        words = f"Round {min(self.state.round, ROUNDS)} of {ROUNDS}"
        painter.text(surface, words, (r.left, r.top), m.text, bold=True, max_width=room)
        score, below = f"Score: {self.card.total}", (r.left, r.top + m.text + m.u(4))
        painter.text(surface, score, below, m.small, p.muted, max_width=room)
        draws = {"die": self._draw_die, "power": self._draw_power, "cell": lambda *_: None}
        for b in self.buttons:  # the sheet's boxes are drawn with it
            draws.get(b.kind, painter.button)(surface, b)
        if self.state.turns:
            r = self.rows["dice"]
            dice_right = max(b.rect.right for b in self.buttons if b.name.startswith("die"))
            text_rect = pygame.Rect(
                dice_right + m.u(10), r.top, r.right - dice_right - m.u(10), r.height
            )
            painter.paragraph(surface, self.play.dice_words(), text_rect, m.small, p.muted)
        self._draw_message(surface)
        if self.table is not None:
            self._draw_score_strip(surface, self.table)

    def _draw_die(self, surface: pygame.Surface, b: Button) -> None:
        """A die to pick; a written one greyed and struck through."""
        painter, p, m = self.ctx.painter, self.ctx.painter.p, self.m
        if b.enabled:
            painter.die(surface, b.rect, int(b.label))
        else:
            grey = p.coin_spent
            painter.die(surface, b.rect, int(b.label), fill=p.quiet, pip=grey, border=grey)
            pygame.draw.line(surface, p.good, b.rect.midleft, b.rect.midright, 3)
        if b.selected:
            pygame.draw.rect(surface, p.selected, b.rect.inflate(8, 8), m.u(4), m.u(10))

    def _draw_power(self, surface: pygame.Surface, b: Button) -> None:
        """A Star Power box: its star filled once won, circled while ready, crossed once used."""
        painter, p, m, state = self.ctx.painter, self.ctx.painter.p, self.m, b.caption
        fill = p.panel if state != "used" else p.quiet
        border = p.line if state == "circled" else p.button_off
        painter.box(surface, b.rect, fill, border, 2, m.u(8))
        star_centre = (b.rect.left + m.u(14), b.rect.centery)
        painter.star(surface, star_centre, m.u(10), p.star if state != "free" else None, p.muted)
        ink = p.ink if state == "circled" else p.button_off_text
        size, room = m.text if len(b.label) > 1 else m.big, b.rect.width - m.u(30)
        at = (b.rect.centerx + m.u(10), b.rect.centery)
        painter.text(surface, b.label, at, size, ink, bold=True, anchor="center", max_width=room)
        if state == "circled":
            pygame.draw.ellipse(surface, p.good, b.rect.inflate(-m.u(4), -m.u(6)), m.u(3))
        elif state == "used":
            painter.cross(surface, b.rect.inflate(-m.u(18), -m.u(14)), p.bad, m.u(3))
        if b.selected:
            pygame.draw.rect(surface, p.selected, b.rect.inflate(6, 6), m.u(4), m.u(8))

    def _draw_message(self, surface: pygame.Surface) -> None:
        """The message (or the next step) in its kind's colour; errors bold."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        text, kind = self.play.message, self.play.tone
        colour = {"error": p.bad, "good": p.good, "hint": p.hint}.get(kind, p.ink)
        rect, bold = self.message_rect, kind == "error"
        painter.box(surface, rect, p.panel, colour, 2, m.u(8))
        area = rect.inflate(-m.u(12), -m.u(6))
        painter.paragraph(
            surface, text or self.play.next_step(), area, m.small + 1, colour, bold=bold
        )

    def _draw_score_strip(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """END GAME SCORING so far, in two columns (plus on the left, minus on the right)."""
        painter, m, p, card = self.ctx.painter, self.m, self.ctx.painter.p, self.card
        pad = m.u(8)
        painter.box(surface, rect, p.panel, p.line, 2, m.u(8))
        title, at = "END GAME SCORING (so far)", (rect.left + pad, rect.top + pad)
        painter.text(surface, title, at, m.small, bold=True)
        lines = [*score_lines(card), f"Final Score: {card.total}"]
        top, half = rect.top + 2 * pad + m.small, (rect.width - 3 * pad) // 2
        step = (rect.bottom - pad - top) // 4
        size = min(m.small, step - m.u(2))
        for i, line in enumerate(lines):
            at = (rect.left + pad + (i // 4) * (half + pad), top + (i % 4) * step)
            ink, final = (p.good, True) if line.startswith("Final") else (p.ink, False)
            painter.text(surface, line, at, size, ink, bold=final, max_width=half)


__all__ = ["MatheMeisterScene"]
