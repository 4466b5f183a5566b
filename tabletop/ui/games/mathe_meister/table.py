"""Mathe-Meister for 2 to 8 players at one device, on paper sheets.

The device gets the dice each round (camera, taps or virtual), counts the eight rounds,
and keeps the Bonus Stars: a player who completes a line presses their seat button (or
taps their Ready tile, ``ready.<i>``, while the dice are out), and presses are served in
the order they happened, so the first to claim owns the star (MM-5); the seat's LED stays
lit while its claim waits. A bot seat plays its own sheet on the device with the same
dice and presses ``BOT_SECONDS`` after the dice are out, so quick children beat it.

The journal (issue 10) keeps one row for the table (every seat: what the report counts)
whose match is only the game's header; what the device knows of the paper game (round,
dice, Bonus Stars, presses waiting) is in its ``app["table"]``, written before each
change shows. Each bot's sheet is a row of its own (:data:`SHEET_LABEL`, with the
table's id) that only follows the table, so after a crash it catches up exactly.

Touch targets: ``star.R1``..``star.C4``, ``ready.<i>``, ``seat.<i>``, ``cancel``,
``next``, ``dice``, ``leave``; on the results: ``home``, ``again``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.words import plural
from tabletop.games import GAMES
from tabletop.games.mathe_meister import (
    LINES,
    ROUNDS,
    MatheMeister,
    MatheMeisterSettings,
    line_name,
    score_sheet,
)
from tabletop.store import Saved, SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mathe_meister.paper import BOT_SECONDS, PaperPlay
from tabletop.ui.games.mathe_meister.play import MMMatch, modes_named
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import LABEL, GameSave, game_seed, seats_of
from tabletop.ui.scenes.dice import DiceResult, DiceScene
from tabletop.ui.scenes.rules import load_rules
from tabletop.ui.table import TableScene as Table
from tabletop.ui.table import corner_buttons
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, grid

log = logging.getLogger(__name__)

BOT_LEVEL = "hint"  # the hint bot plays a bot seat's sheet
SHEET_LABEL = "app:mm-table-sheet"  # the journal label of a bot's own sheet at a table
RULES = load_rules("mathe_meister")


class MatheMeisterTable(Table):
    """What the solo sheet (:mod:`.solo`) and the paper table share: the game and its
    rules, the results once it is over, the seed (a carried-on ``match``'s own), the
    journal's row (``app``: the ``screen`` it carries on as, with the dice mode and the
    seed), and each round's dice, asked in ``dice_mode`` (camera, taps or virtual; the
    setting's when not given)."""

    game = MatheMeister.name
    results_at_end = True
    rules = ("Mathe-Meister: the rules", RULES)
    save: GameSave

    def __init__(
        self,
        ctx: Context,
        seats: Sequence[SeatInfo],
        app: dict[str, Any],
        dice_mode: str | None,
        match: MMMatch | None,
        save: GameSave | None,
        again: Callable[[], Scene] | None = None,
    ) -> None:
        self.seed = game_seed(ctx, match.seed if match is not None else None)
        self.dice_mode = dice_mode or ctx.prefs.prefs.dice_input
        app |= {"dice_mode": self.dice_mode, "seed": self.seed}
        save = save or GameSave(ctx, MatheMeister.name, list(seats), app)
        super().__init__(ctx, save, resumed=match is not None, again=again)

    def ask_dice(self, round_no: int, roll: Callable[[], tuple[int, int]]) -> str:
        """Round ``round_no``'s dice screen (``roll``: the virtual dice); they come back
        to :meth:`answered` with ``("dice",)``. Returns the mode it opened in (taps
        where no camera is)."""
        title = f"Round {round_no} of {ROUNDS}: the dice"
        dice = DiceScene(
            self.ctx, title=title, mode=self.dice_mode, roll=roll, match_id=self.save.id
        )
        self.ask(("dice",), dice)
        return dice.mode


class TableScene(MatheMeisterTable):
    """One table game. ``seats``: (name, is a bot) per seat, or the journal's
    :class:`SeatInfo`; ``lead`` and ``save`` carry on a journaled table (its seed is
    the lead's)."""

    # a star won (or a press taken back), then the next step; what was wrong alone
    step_after = property(lambda self: self.play.tone != "error")
    undo_pin = ("Teacher PIN to take back a star", None)
    said_step = ""  # the step the line showed when it was last said
    play: PaperPlay

    def __init__(
        self,
        ctx: Context,
        *,
        seats: Sequence[tuple[str, bool] | SeatInfo],
        modes: Sequence[str] = ("freestyle",),
        dice_mode: str | None = None,
        lead: MMMatch | None = None,
        save: GameSave | None = None,
    ) -> None:
        infos = seats_of(seats, BOT_LEVEL)

        def again() -> Scene:
            modes = self.play.settings.modes
            return TableScene(ctx, seats=infos, modes=modes, dice_mode=self.dice_mode)

        super().__init__(ctx, infos, {"screen": "table"}, dice_mode, lead, save, again)
        settings = MatheMeisterSettings(ctx.layout, tuple(modes), star_claims="paper")
        match = lead or Match(MatheMeister(), settings, len(infos), seed=self.seed)
        bots = [seat for seat, info in enumerate(infos) if info.bot is not None]
        self.play = PaperPlay(match, [i.name for i in infos], seed=self.seed, bots=bots)
        self.bot_saves: dict[int, GameSave] = {}
        if self.resumed:
            self.play.carry_on(self.save.app.get("table") or {})

    @property
    def finished(self) -> bool:
        return self.play.over

    def outcome(self) -> Outcome:
        names, bots = self.play.names, self.play.bots
        lines = []
        for seat, name in enumerate(names):
            stars = ", ".join(line_name(x) for x in self.play.board.stars_of(seat)) or "no stars"
            lines.append(f"{self.shown(seat, name)}: {stars}")
            if seat in bots:
                score = score_sheet(bots[seat].state.sheets[0], self.play.settings).total
                lines[-1] += f" \u00b7 final score {score}"
        out = outcome_of(
            self.play.standings(), names, score=lambda p: plural(p, "point"), lines=lines
        )
        title, reason = child_message("mm.said.over"), child_message("mm.said.places")
        return replace(out, title=title, reason=reason)

    # -- lifecycle -------------------------------------------------------------------------

    def begin(self) -> None:
        self._attach()
        if self.play.over:  # carried on after its last round ended: its results follow
            self._finish()
        elif self.play.dice is None:
            self._ask_dice()

    def _ask_dice(self) -> None:
        """The round's dice screen, in the mode it opened in (taps where no camera is),
        before the next step, which says what to do on it, is said."""
        self.play.dice_screen = self.ask_dice(self.play.round, self.play.roll)

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        if asking == ("dice",) and result is None:  # back on the table's own screen
            self.play.dice_screen = ""
        if isinstance(result, DiceResult) and self.play.dice is None:
            self.play.rolled(result.values, self.save.elapsed())
            self.ctx.sounds.play("seen")
            self.message = ""  # the instruction line names the next step
            self._journal()  # the table first: the bots' sheets follow it
            self.play.catch_up()

    def abandon(self) -> None:
        if not self.saved_end:
            self._finish("abandoned")

    # -- the journal -------------------------------------------------------------------------

    def _attach(self) -> None:
        """Journal each bot's sheet: carried on as the journal kept it (the newest row
        per seat; one that does not replay is rebuilt from the table's dice), or in a
        new row. The sheets of tables no longer played on are set aside as abandoned."""
        journal, kept = self.ctx.journal, dict[int, Saved]()
        try:
            tables = {s.id for s in journal.unfinished(LABEL)}
            for saved in journal.unfinished(SHEET_LABEL):
                mine = saved.meta.get("app") or {}
                if mine.get("table") not in tables:
                    journal.finish(saved.id, None, reason="abandoned", status="abandoned")
                elif self.resumed and mine.get("table") == self.save.id:
                    kept.setdefault(int(mine.get("seat", -1)), saved)
        except TabletopError as exc:
            log.error("journal: %s: %s", exc.code, exc.message)
        for seat in self.play.bots:
            try:
                if seat in kept:
                    self.play.bots[seat] = journal.load(kept[seat].id, GAMES)
                    self.bot_saves[seat] = GameSave.resumed(self.ctx, kept[seat])
            except TabletopError as exc:
                log.warning("resume: the sheet of seat %d does not replay: %s", seat + 1, exc)
            if seat not in self.bot_saves:
                self.bot_saves[seat] = GameSave(
                    self.ctx,
                    MatheMeister.name,
                    [SeatInfo(0, self.play.names[seat], bot=BOT_LEVEL)],
                    {"screen": "table-sheet", "table": self.save.id, "seat": seat},
                    label=SHEET_LABEL,
                )
            self.bot_saves[seat].attach(self.play.bots[seat])
        if self.resumed:
            self.play.catch_up()

    def _played(self, at: float) -> float:
        """The seconds played at the app's clock time ``at`` (the star board and the
        journal keep their times so)."""
        return self.save.elapsed() - (self.ctx.clock() - at)

    def _journal(self) -> None:
        """Write the table's state now (before the screen shows the change)."""
        self.save.app["table"] = self.play.record()
        self.save.write_meta()
        self.save.sync(self.match)  # the seconds played

    def _finish(self, reason: str = "end") -> None:
        """The table is over (or left): the table's row with the standings (and the
        bots' sums as they ended), each bot's sheet with its own result."""
        self.saved_end = True
        self.save.checks = self.play.checks()
        self.save.write_meta()
        self.save.finish(self.play.standings(), reason=reason)
        for seat, sheet_save in self.bot_saves.items():
            match = self.play.bots[seat]
            sheet_save.finish(match.result() if reason == "end" else None, reason=reason)

    # -- layout ------------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m, play = metrics, self.play
        W, H = m.size
        margin = m.u(16)
        current = play.board.current
        undo = play.can_undo() and current is None  # the teacher's take-back of a star
        b = corner_buttons(W - margin, m.u(8), (m.u(88), m.u(50)), m.u(6), undo=undo)
        if play.dice is None:
            dice = pygame.Rect(m.u(272), m.u(8), m.u(220), m.u(50))
            b.append(Button("dice", dice, "Get the dice"))
        # the column under the top bar: the Bonus Stars (two rows), the claim line, the
        # seats (four a row), the foot (the instruction line, the next step's button);
        # where it does not fit (five seats or more over the rotation's banner), its gaps,
        # claim line and foot are at their least and the stars take the height left
        rows = (len(play.names) + 3) // 4
        seats_h = m.u(48 * rows + 6 * (rows - 1))
        top, gap, claim_h, foot_h, low = (m.u(x) for x in (70, 10, 54, 52, 16))
        h = m.u(74)
        if top + 2 * h + 3 * gap + claim_h + seats_h + m.u(8) + foot_h + low > H:
            top, gap, claim_h, foot_h, low = (m.u(x) for x in (66, 8, 48, 48, 8))
            h = min(h, (H - top - 4 * gap - claim_h - seats_h - foot_h - low) // 2)
        area = pygame.Rect(margin, top, W - 2 * margin, h)
        for line, rect in zip(LINES, grid(area, len(LINES), 4, m.u(12), h, down=gap)):
            free = line not in play.board.owners
            enabled = free and current is not None
            b.append(Button(f"star.{line}", rect, line_name(line), kind="star", enabled=enabled))
        self.claim_rect = pygame.Rect(margin, top + 2 * (h + gap), W - 2 * margin, claim_h)
        corner = pygame.Rect(
            self.claim_rect.right - m.u(140), self.claim_rect.top, m.u(140), claim_h
        )
        if current is not None:
            b.append(Button("cancel", corner, "Cancel", kind="quiet"))
        area = pygame.Rect(margin, self.claim_rect.bottom + gap, W - 2 * margin, m.u(48))
        for seat, rect in enumerate(grid(area, len(play.names), 4, m.u(8), down=m.u(6))):
            ready = seat not in play.bots and play.dice is not None  # the seat button's twin
            name = f"{'ready' if ready else 'seat'}.{seat}"
            b.append(Button(name, rect, play.name(seat), kind="seat", enabled=ready))
        foot = H - low - foot_h
        self.message_rect = pygame.Rect(margin, foot, W - 2 * margin - m.u(290), foot_h)
        next_rect = pygame.Rect(W - margin - m.u(270), foot, m.u(270), foot_h)
        enabled = play.dice is not None and current is None
        b.append(Button("next", next_rect, play.next_label(), enabled=enabled))
        self.buttons = b

    # -- input ---------------------------------------------------------------------------------

    def explain(self, name: str) -> None:
        current, line = self.play.board.current, name.removeprefix("star.")
        owner = self.play.board.owners.get(line)
        if name in ("next", "undo") and current is not None:
            self.refuse("mm.ui.someone_choosing", f"seat {current.seat + 1} chooses a star")
        elif name == "next":
            self.refuse("mm.ui.dice_first", f"round {self.play.round} has no dice yet")
        elif name == "undo":  # no star chosen this round: nothing to take back
            super().press(name)
        elif not name.startswith("star."):
            super().explain(name)
        elif current is None:
            self.refuse("mm.ui.press_first", f"star {line} tapped, no seat press waiting")
        elif owner is not None:
            facts = {"line": line_name(line), "name": self.play.name(owner)}
            self.refuse("mm.ui.star_belongs", f"star {line} is seat {owner + 1}'s", **facts)
        else:
            self.refuse("mm.ui.star_not_free", f"star {line} is off")

    def seat_pressed(self, seat: int, at: float) -> None:
        dice_at = self.play.dice_at
        if seat in self.play.bots:  # its tile, or a child at the bot's button
            self.refuse("ui.bot_seat", f"seat {seat + 1} is a bot's", name=self.play.name(seat))
        elif self.play.dice is None:  # a press before the round's dice: say what comes first
            self.refuse("mm.ui.dice_first", f"seat {seat + 1} pressed before the dice")
        elif dice_at is not None and self._played(at) < dice_at:  # under the dice screen
            why = f"seat {seat + 1} pressed before round {self.play.round}'s dice"
            self.refuse("mm.ui.pressed_before_dice", why, name=self.play.name(seat))
        elif self.play.board.press(seat, self._played(at)):
            self.ctx.sounds.play("tap")
            self.message = ""
            self._after_change()

    def press(self, name: str) -> None:
        if name in ("leave", "rules", "teacher", "undo"):
            super().press(name)
        elif name == "dice":
            self._ask_dice()
        elif name.startswith("star."):
            self.choose(name[5:])
        elif name == "cancel" and (current := self.play.board.current) is not None:
            self.play.board.cancel()  # a child's own take-back: no star was chosen for it
            taken = {"name": self.play.name(current.seat)}  # said, then the next step
            self.say(child_message("mm.ui.press_taken_back", taken))
            self._after_change()
        elif name == "next":
            self.next_round()

    def choose(self, line: str) -> None:
        try:
            seat = self.play.board.choose(line, self.play.round)
        except ValueError as exc:
            self.refuse("mm.ui.star_taken", str(exc))
            return
        self.ctx.sounds.play("star")
        facts = {"line": line_name(line), "points": self.play.board.values[line]}
        # a child circles a Star Power on paper; a bot's sheet is on the device
        won = "mm.ui.star_chosen_bot" if seat in self.play.bots else "mm.ui.star_chosen"
        self.say(child_message(won, facts, name=self.play.name(seat)), "good")
        self._after_change()

    def voice(self) -> None:
        """Say what is new on the line: a star won is said alone when the step after it is
        the one the children heard last (a bot's star comes long after the dice)."""
        super().voice()
        self.said_step = super().step_shown()

    def step_shown(self) -> str:
        step = super().step_shown()
        return "" if step == self.said_step else step

    def _after_change(self) -> None:
        """A bot first in the queue chooses its star at once (the base's ``after`` then
        writes the table's record, before the screen shows the change)."""
        current = self.play.board.current
        if current is not None and current.seat in self.play.bots:
            lines = self.play.bot_lines(current.seat)
            if lines:
                self.choose(lines[0])
            else:
                self.play.board.cancel(current.seat)

    def update(self, now: float) -> bool:
        if not self.play.bot_presses(self._played(now)):
            return False
        self._after_change()
        self.after()
        return True

    def next_round(self) -> None:
        self.ctx.sounds.play("round")
        play = self.play
        play.end_round()
        self._journal()
        # the bots claim the stars they won, swap if it pays and end the round (after
        # round 8 their sheets are finished)
        self.play.catch_up()
        if play.over:
            self._finish()  # the results follow (results_at_end)
            return
        self.message = ""
        self._ask_dice()

    # -- drawing ---------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        title = f"Round {self.play.round} of {ROUNDS}"
        painter.text(surface, title, (m.u(16), m.u(16)), m.title, bold=True)
        if self.play.dice is not None:
            for i, value in enumerate(self.play.dice):
                die = pygame.Rect(m.u(272) + i * m.u(62), m.u(6), m.u(54), m.u(54))
                painter.die(surface, die, value)
            modes = modes_named(self.play.settings.modes)
            at = (m.u(396), m.u(33))
            painter.text(surface, modes, at, m.small, p.muted, anchor="midleft", max_width=m.u(110))
        current = self.play.board.current
        r = self.claim_rect  # under the buttons: its Cancel (the child's take-back) shows
        if current is not None:
            painter.box(surface, r, p.panel, p.selected, 3, m.u(8))
            seat = current.seat
            chip = r.inflate(-m.u(16), -m.u(14))
            chip.width = m.u(40)
            text = self.play.chooser_words()
            painter.seat_name(surface, chip, seat, text, m.text, r.width - m.u(220), gap=10)
        else:
            text = child_message("mm.ui.press_seat")
            at = (r.left + m.u(4), r.centery)
            painter.text(surface, text, at, m.text, p.muted, anchor="midleft", max_width=r.width)
        draws = {"star": self._draw_star, "seat": self._draw_seat}
        for b in self.buttons:
            draws.get(b.kind, painter.button)(surface, b)
        refused = self.play.tone == "error"  # a refusal in red, as on every table
        ink = p.bad if refused else p.ink
        painter.paragraph(surface, self.status(), self.message_rect, m.small, ink, bold=refused)

    def _draw_star(self, surface: pygame.Surface, b: Button) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        line = b.name[5:]
        owner = self.play.board.owners.get(line)
        fill, star = (p.panel, (255, 255, 255)) if owner is None else (p.quiet, p.star)
        border = p.selected if b.enabled else p.line
        painter.box(surface, b.rect, fill, border, m.u(3) if b.enabled else 2, m.u(10))
        star_r, cx, cy = m.u(20), b.rect.left + m.u(28), b.rect.centery
        painter.star(surface, (cx, cy), star_r, star, p.ink, 2)
        value = str(self.play.board.values[line])
        painter.text(surface, value, (cx, cy + 2), m.small - 2, p.ink, bold=True, anchor="center")
        x = cx + star_r + m.u(8)
        room = b.rect.right - x - m.u(6)
        # a short tile (squeezed over the banner) keeps its two lines apart
        fonts = painter.fonts
        text_h = fonts.font(m.text, True).get_height() + fonts.font(m.small).get_height()
        pad = min(m.u(10), (b.rect.height - text_h) // 2)
        painter.text(surface, b.label, (x, b.rect.top + pad), m.text, bold=True, max_width=room)
        who, ink = (
            ("free", p.muted) if owner is None else (f"{owner + 1}: {self.play.name(owner)}", p.ink)
        )
        at = (x, b.rect.bottom - pad)
        painter.text(surface, who, at, m.small, ink, anchor="bottomleft", max_width=room)

    def _draw_seat(self, surface: pygame.Surface, b: Button) -> None:
        """A child's Ready tile while the dice are out (lit while its press waits, like
        the seat's LED), else the seat's plain tile; the seat's Bonus Stars counted."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        seat = int(b.name.partition(".")[2])
        stars = len(self.play.board.stars_of(seat))
        label = b.label + (f" \u2605{stars}" if stars else "")
        if b.name.startswith("ready."):
            waiting = any(w.seat == seat for w in self.play.board.waiting)
            painter.ready_tile(surface, b.rect, seat, waiting, label)
            return
        painter.box(surface, b.rect, p.panel, p.line, 2, m.u(8))
        chip = b.rect.inflate(-m.u(8), -m.u(8))
        chip.width = m.u(36)
        room = b.rect.right - chip.right - m.u(12)
        painter.seat_name(surface, chip, seat, label, m.small + 1, room, gap=8)


__all__ = ["BOT_LEVEL", "BOT_SECONDS", "RULES", "SHEET_LABEL", "MatheMeisterTable", "TableScene"]
