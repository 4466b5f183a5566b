"""The end of a Math Wars Meta game: who won, each side's VICTORY! cards, every round,
and in Solo the accuracy and time of each round (MWM-8)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from tabletop.games.math_wars_meta import RoundRecord
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_wars_meta.play import MwmPlay
from tabletop.ui.input import InputEvent
from tabletop.ui.scenes.common import header, home_and_again, route_to_press
from tabletop.ui.theme import Metrics

HOW = {
    "last_standing": "the last one left",
    "last_hand": "won the last hand",
    "no_winner": "nobody left",
    "deck_empty": "deck emptied",
    "splash": "splash",
}


def winners(play: MwmPlay) -> list[int]:
    """The seats of the winning side(s), once the game is over."""
    result = play.match.result()
    if result is None:
        return []
    return sorted(result.winners)


def winner_line(play: MwmPlay) -> str:
    """``winner: NAMES`` (seat names joined by ", ") or ``winner: draw``."""
    seats = winners(play)
    if not seats or (len(seats) == len(play.seats) and len(seats) > 1):
        return "winner: draw"
    return "winner: " + ", ".join(play.seats[s].name for s in seats)


def round_line(play: MwmPlay, record: RoundRecord) -> str:
    who = "no winner" if record.winner is None else play.side_name(record.winner)
    hands = f"{record.hands} hand{'s' * (record.hands != 1)}"
    text = f"Round {record.number}: {who} ({HOW.get(record.how, record.how)}, {hands})"
    if play.settings.mode == "solo":
        tally = record.tallies[0]
        total = tally.right + tally.wrong
        if total:
            text += f", {tally.right} of {total} right ({round(100 * tally.right / total)}%)"
        if record.milliseconds is not None:
            seconds = round(record.milliseconds / 1000)
            text += f", {seconds // 60} min {seconds % 60} s"
    return text


class ResultsScene(Scene):
    def __init__(
        self, ctx: Context, play: MwmPlay, *, again: Callable[[], Scene] | None = None
    ) -> None:
        super().__init__(ctx)
        self.play = play
        self.again = again

    def layout(self, metrics: Metrics) -> None:
        self.buttons = home_and_again(metrics, "Play again", enabled=self.again is not None)

    def handle(self, event: InputEvent) -> None:
        route_to_press(self, event)

    def press(self, name: str) -> None:
        from tabletop.ui.scenes.home import HomeScene

        if name == "home":
            self.stack.unwind_to(HomeScene)
        elif name == "again" and self.again is not None:
            self.stack.replace(self.again())

    def lines(self) -> list[str]:
        play = self.play
        state = play.state
        out = []
        for side, count in enumerate(state.victories):
            out.append(f"{play.side_name(side)}: {count} VICTORY! card{'s' * (count != 1)}")
        out += [round_line(play, record) for record in state.rounds]
        if play.settings.mode == "solo":
            tally = state.tallies[0]
            total = tally.right + tally.wrong
            if total:
                out.append(f"All game: {tally.right} of {total} answers right.")
        return out

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        seats = winners(self.play)
        if self.play.settings.mode == "solo":
            title = "You won the game!"
        elif self.play.settings.mode == "teams" and seats:
            side = self.play.settings.side_of(seats[0])
            title = f"{self.play.side_name(side)} wins!"
        else:
            title = winner_line(self.play).replace("winner: ", "") + " wins!"
        header(self, surface, title, "The game is over. Well played, everybody!")
        play, state = self.play, self.play.state
        top, bottom = m.u(96), self.buttons[0].rect.top - m.u(8)
        # left: each side and its VICTORY! cards, as stars
        sides = len(state.victories)
        step = min(m.u(52), (bottom - top) // max(1, sides))
        split = m.width * 46 // 100
        goal = play.settings.ed.victory_cards
        for side, count in enumerate(state.victories):
            y = top + side * step
            seats = play.settings.side_seats(side)
            chip = pygame.Rect(m.u(16), y, m.u(34), step - m.u(8))
            painter.seat_chip(surface, chip, seats[0], label=str(side + 1))
            painter.text(
                surface,
                play.side_name(side),
                (chip.right + m.u(8), chip.centery),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=m.u(150),
            )
            radius = min(m.u(13), (step - m.u(10)) // 2)
            for i in range(goal):
                centre = (m.u(200) + i * (2 * radius + m.u(4)) + radius, chip.centery)
                painter.star(surface, centre, radius, p.star if i < count else None, p.ink, 2)
        # right: the rounds (and Solo's accuracy and time)
        lines = self.lines()[sides:]
        x = split + m.u(8)
        step = min(m.u(34), (bottom - top) // max(1, len(lines)))
        size = min(m.text, max(m.small - 6, step - m.u(8)))
        for i, line in enumerate(lines):
            painter.text(
                surface, line, (x, top + i * step), size, p.ink, max_width=m.width - x - m.u(12)
            )
        painter.buttons(surface, self.buttons)


__all__ = ["ResultsScene", "round_line", "winner_line", "winners"]
