"""The end of a solo game, on the one results scene: the finished sheet beside END GAME
SCORING filled in, and the high score for the modes (recorded once, when the results
show). The closing line (the demo's) is ``final score: N``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from tabletop.classroom.roster import Roster
from tabletop.games.mathe_meister import MatheMeister, score_sheet
from tabletop.highscores import Recorded
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.mathe_meister.play import MMMatch, modes_named, score_lines
from tabletop.ui.games.mathe_meister.sheet import SheetGeometry, SheetLook, draw_sheet
from tabletop.ui.messages import child_message
from tabletop.ui.results import GameResults, Outcome, Standing


@dataclass
class SoloEnd:
    """What the results of a solo game show and record (the results' ``detail``)."""

    ctx: Context
    match: MMMatch
    seat: SeatInfo  # a child signed in keeps their own best (by id), a name typed its own
    recorded: Recorded | None = None

    def __post_init__(self) -> None:
        self.card = score_sheet(self.match.state.sheets[0], self.match.settings)
        self.score, self.modes = self.card.total, self.match.settings.modes
        self.outcome = Outcome(
            child_message("mm.said.well_played", name=self.seat.name),
            child_message("mm.said.final", score=self.score, modes=modes_named(self.modes)),
            [Standing(0, self.seat.name, 1, str(self.score))],
            f"final score: {self.score}",
            score_lines(self.card),
        )

    def record(self) -> None:
        """The score in the high-score table, and its line under END GAME SCORING. A
        child signed in whose name no other child on the class list has keeps the best
        that her name kept before scores were kept by id."""
        if self.recorded is not None:
            return
        lower = self.match.settings.has("black_hole")
        name = self.seat.name.casefold()
        others = Roster(self.ctx.journal).students()
        unique = not any(s.name.casefold() == name and s.id != self.seat.student for s in others)
        self.recorded = rec = self.ctx.highscores.record(
            MatheMeister.name,
            self.seat.name,
            self.modes,
            self.score,
            student=self.seat.student,
            group=self.seat.group,
            name_unique=unique,
            lower_is_better=lower,
        )
        facts = {"modes": modes_named(self.modes), "goal": "lowest" if lower else "best"}
        high = "new_high" if rec.is_new_best else "high"
        high = "first_high" if rec.previous_best is None else high
        said = child_message(f"mm.said.{high}", facts, before=rec.previous_best, best=rec.best)
        notice = self.ctx.highscores.notice
        self.outcome.lines += [said, notice] if notice else [said]

    def geometry(self, area: pygame.Rect) -> SheetGeometry:
        """The finished sheet as large as ``area`` holds it, each column's star under its
        sum and points: at 16 px those are wider than a box, and beside them, they would
        touch the star. A star is wide enough for its value at 16 px inside it (its
        body, between the arms, is about its radius wide)."""
        values = self.match.settings.layout.star_values
        widest = max(self.ctx.painter.fonts.width(str(v), 16, True) for _, v in values)
        cell = area.height // 9  # 7 boxes, a sum and a star high
        while True:
            gap, star = max(2, cell // 12), max(cell, 2 * widest + 2)
            # two boxes wide (more beside a star wider than a box: 16 px sums fit)
            tail = min(cell + star, area.width - 7 * cell - 8 * gap - star - 4)
            out = (star - cell) // 2  # row 1's and column 1's stars stand out that far
            origin = (area.left + out, area.top + out)
            geo = SheetGeometry(origin, cell, gap, tail, star, stacked=True)
            if cell <= 16 or area.contains(geo.bounds):
                return geo
            cell -= 1

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        look = SheetLook(self.match.state.sheets[0], self.match.settings, self.card)
        draw_sheet(surface, self.ctx.painter, self.geometry(area), look)


def solo_results(ctx: Context, match: MMMatch, seat: SeatInfo, dice_mode: str) -> GameResults:
    """A finished solo game's results; "Play again" starts the same modes for the child."""
    end = SoloEnd(ctx, match, seat)

    def again() -> Scene:
        from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene

        return MatheMeisterScene(ctx, seats=[seat], modes=end.modes, dice_mode=dice_mode)

    return GameResults(
        ctx, end.outcome, again=again, aside=end.draw, on_enter=end.record, detail=end
    )


__all__ = ["SoloEnd", "solo_results"]
